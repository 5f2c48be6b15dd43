//! The memory this machine gives the process: the bounds a default `--max-memory` must
//! stay under so that a scene too large for a small container is a named error instead
//! of an abort from a failed allocation.
//!
//! Read from Linux's files, without `unsafe`: the address-space limit (`RLIMIT_AS`, the
//! "Max address space" line of `/proc/self/limits`), the memory controller of the
//! process's cgroup and its ancestors (`memory.max` in cgroup v2,
//! `memory.limit_in_bytes` in v1, found through `/proc/self/cgroup`), and
//! `MemAvailable` of `/proc/meminfo`. A file that is missing or unreadable (another
//! system, a sandbox) gives no bound.

use std::fs;
use std::path::{Path, PathBuf};

/// One bound on the process's memory, in bytes, and where it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryBound {
    /// The bound in bytes.
    pub bytes: u64,
    /// What sets it, for messages: `"RLIMIT_AS"`, `"the cgroup's memory.max"`,
    /// `"the cgroup's memory.limit_in_bytes"`, `"MemAvailable"`.
    pub source: &'static str,
}

/// Every bound this machine sets now (none that reads as unlimited).
pub fn machine_bounds() -> Vec<MemoryBound> {
    let mut bounds = Vec::new();
    if let Some(bytes) = fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|t| address_space_limit(&t))
    {
        bounds.push(MemoryBound {
            bytes,
            source: "RLIMIT_AS",
        });
    }
    if let Ok(membership) = fs::read_to_string("/proc/self/cgroup") {
        bounds.extend(cgroup_limit(&membership, Path::new("/sys/fs/cgroup")));
    }
    if let Some(bytes) = fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| mem_available(&t))
    {
        bounds.push(MemoryBound {
            bytes,
            source: "MemAvailable",
        });
    }
    bounds
}

/// The soft "Max address space" limit of a `/proc/self/limits` text, in bytes; `None`
/// when unlimited or absent.
pub(crate) fn address_space_limit(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
pub(crate) fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line["MemAvailable:".len()..].split_whitespace();
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => value.checked_mul(1024),
        None => Some(value),
        Some(_) => None,
    }
}

/// The smallest memory limit of the process's cgroup and its ancestors, given the text
/// of `/proc/self/cgroup` and the cgroup file system's mount point `root`: cgroup v2's
/// `memory.max` (the `0::PATH` line, under `root` or `root/unified`) and v1's
/// `memory.limit_in_bytes` (the `N:memory:PATH` line, under `root/memory`). Values of
/// `max` or above 2^62 (v1's "unlimited") are no bound.
pub(crate) fn cgroup_limit(membership: &str, root: &Path) -> Option<MemoryBound> {
    let mut best: Option<MemoryBound> = None;
    for line in membership.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let candidates: Vec<(PathBuf, &str, &'static str)> = if controllers.is_empty() {
            vec![
                (root.to_path_buf(), "memory.max", "the cgroup's memory.max"),
                (
                    root.join("unified"),
                    "memory.max",
                    "the cgroup's memory.max",
                ),
            ]
        } else if controllers.split(',').any(|c| c == "memory") {
            vec![(
                root.join("memory"),
                "memory.limit_in_bytes",
                "the cgroup's memory.limit_in_bytes",
            )]
        } else {
            continue;
        };
        for (mount, file, source) in candidates {
            // The cgroup and each ancestor up to the mount's root (a container often
            // mounts its own cgroup as the root, so both spellings are tried).
            let mut dir = mount.join(path.trim_start_matches('/'));
            loop {
                if let Some(bytes) = read_limit(&dir.join(file))
                    && best.as_ref().is_none_or(|b| bytes < b.bytes)
                {
                    best = Some(MemoryBound { bytes, source });
                }
                if dir == mount || !dir.pop() || !dir.starts_with(&mount) {
                    break;
                }
            }
        }
    }
    best
}

/// A cgroup limit file's value in bytes; `None` for `max`, "unlimited" sizes or a file
/// that cannot be read.
fn read_limit(file: &Path) -> Option<u64> {
    let text = fs::read_to_string(file).ok()?;
    let value: u64 = text.trim().parse().ok()?;
    (value < 1 << 62).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_texts_are_read() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max stack size            8388608              unlimited            bytes     \n\
                      Max address space         2147483648           unlimited            bytes     \n";
        assert_eq!(address_space_limit(limits), Some(2 << 30));
        let unlimited =
            "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_limit(unlimited), None);
        let meminfo = "MemTotal:       24000000 kB\nMemAvailable:   1000000 kB\n";
        assert_eq!(mem_available(meminfo), Some(1_024_000_000));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
    }

    #[test]
    fn cgroup_limits_are_found_on_the_path_and_its_ancestors() {
        let root = std::env::temp_dir().join(format!("csir-cgroup-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        // v2: the group says max, its parent 2 GiB.
        fs::create_dir_all(root.join("box/job")).unwrap();
        fs::write(root.join("box/job/memory.max"), "max\n").unwrap();
        fs::write(root.join("box/memory.max"), "2147483648\n").unwrap();
        let found = cgroup_limit("0::/box/job\n", &root).unwrap();
        assert_eq!(found.bytes, 2 << 30);
        assert_eq!(found.source, "the cgroup's memory.max");
        // v1: "unlimited" is 2^63 rounded to a page; a 512 MiB group below it wins.
        fs::create_dir_all(root.join("memory/app")).unwrap();
        fs::write(
            root.join("memory/memory.limit_in_bytes"),
            "9223372036854771712\n",
        )
        .unwrap();
        fs::write(root.join("memory/app/memory.limit_in_bytes"), "536870912\n").unwrap();
        let found = cgroup_limit("4:memory:/app\n1:cpu:/\n", &root).unwrap();
        assert_eq!(found.bytes, 512 << 20);
        assert_eq!(found.source, "the cgroup's memory.limit_in_bytes");
        assert_eq!(cgroup_limit("4:memory:/\n", &root), None);
        assert_eq!(cgroup_limit("1:cpu:/\n", &root), None);
        fs::remove_dir_all(&root).unwrap();
    }
}
