//! Writing output files safely: every file the project writes (rendered PNGs, heat
//! maps, CSI blobs, check reports and results) goes through [`write_file`], and the
//! commands check with [`refuse_inputs`] that an output is not one of their inputs.
//!
//! What happens depends on what is at the path (after following symbolic links):
//!
//! | at the path | what [`write_file`] does |
//! |---|---|
//! | nothing | writes a temporary file in the same folder and renames it into place: the path then holds all of the new bytes, or, after an error, nothing |
//! | a regular file | the same: the file holds either its old content or all of the new bytes, never a part |
//! | a symbolic link | writes through it to its target by these same rules (a link to a regular file: the target is replaced atomically and the link stays a link); a link to nothing is refused |
//! | a FIFO or a character device (`/dev/null`, a terminal), also through a link (`/dev/stdout`, `/dev/fd/N` and a shell's `>(...)` when they are pipes, whose links point at no path) | opens it for writing and streams the bytes into it; it is never replaced by a regular file. A failing device (`/dev/full`) is an error |
//! | a folder, a block device or a socket | refused with an error that says what it is |
//! | `-` | the bytes go to standard output |
//!
//! No `fsync` is done: this protects against failed and partial writes, not power loss.
//!
//! **Temporary files** are named `.NAME.PID-N.tmp` beside the output `NAME` (hidden, the
//! writing process's id, a counter). A write interrupted by a signal leaves none: the
//! command line calls [`remove_temporaries`] from its SIGINT/SIGTERM/SIGHUP handler. One
//! left by a process that was killed outright (SIGKILL, a power cut) is removed by the
//! next write to the same folder, once no process with its id is alive.

use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// The temporary files being written now, removed by [`remove_temporaries`].
static IN_PROGRESS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The folders already searched for stale temporaries in this process.
static SWEPT: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

/// Why an output could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The operating system refused a step (create, write, rename).
    #[error("{}: {source}", path.display())]
    Io {
        /// The output the caller asked for (never the temporary file).
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// Something is at the path that an output must not replace or cannot be written to.
    #[error("{}: refusing to write: it is {what}", path.display())]
    NotWritable {
        /// The output the caller asked for.
        path: PathBuf,
        /// What is there ("a folder", "a symbolic link to nothing", ...).
        what: &'static str,
    },
    /// The output is one of the command's inputs.
    #[error(
        "{}: refusing to write the output over {}, {role} of this command",
        path.display(),
        input.display()
    )]
    IsInput {
        /// The output the caller asked for.
        path: PathBuf,
        /// The input it is (the path as the input was named).
        input: PathBuf,
        /// What the input is ("the scene", "a texture of the scene", "image A", ...).
        role: String,
    },
}

/// Write `bytes` to `path` by the rules of the module docs.
///
/// # Errors
/// [`WriteError::NotWritable`] for a folder, a block device, a socket or a dangling
/// link; [`WriteError::Io`] when a step fails. After an error a regular file at `path`
/// keeps its old content and no temporary file is left.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let io = |source| WriteError::Io {
        path: path.to_path_buf(),
        source,
    };
    if path.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        return out.write_all(bytes).and_then(|()| out.flush()).map_err(io);
    }
    let refuse = |what| WriteError::NotWritable {
        path: path.to_path_buf(),
        what,
    };
    let target = match fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return replace_atomically(path, path, bytes);
        }
        Err(e) => return Err(io(e)),
        Ok(m) if m.file_type().is_symlink() => match fs::canonicalize(path) {
            Ok(target) => target,
            // `/dev/stdout` → `/proc/self/fd/1` → `pipe:[N]`: a link of the kernel's that
            // names no path but opens the pipe. `metadata` follows it; a link to nothing
            // fails there too.
            Err(_) => match fs::metadata(path) {
                Ok(m) if m.file_type().is_fifo() || m.file_type().is_char_device() => {
                    return stream_into(path, bytes).map_err(io);
                }
                Ok(_) => return Err(refuse("a symbolic link to something that is not a file")),
                Err(_) => return Err(refuse("a symbolic link to nothing")),
            },
        },
        Ok(_) => path.to_path_buf(),
    };
    let kind = fs::metadata(&target).map_err(io)?.file_type();
    if kind.is_file() {
        replace_atomically(path, &target, bytes)
    } else if kind.is_fifo() || kind.is_char_device() {
        stream_into(&target, bytes).map_err(io)
    } else if kind.is_dir() {
        Err(refuse("a folder"))
    } else if kind.is_block_device() {
        Err(refuse("a block device"))
    } else {
        Err(refuse("a socket"))
    }
}

/// Open the FIFO or device at `path` for writing and stream `bytes` into it.
fn stream_into(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.flush()))
}

/// Remove every temporary file this process is writing now (see the module docs). For a
/// signal handler that is about to exit: the outputs being written keep their old
/// content (or stay absent), and no hidden temporary is left beside them.
pub fn remove_temporaries() {
    remove_temporaries_where(|_| true);
}

/// Remove the temporaries this process is writing now that `which` picks, and forget
/// them.
fn remove_temporaries_where(which: impl Fn(&Path) -> bool) {
    let temps: Vec<PathBuf> = {
        let mut list = IN_PROGRESS.lock().unwrap_or_else(|p| p.into_inner());
        let (picked, kept) = std::mem::take(&mut *list)
            .into_iter()
            .partition(|t| which(t));
        *list = kept;
        picked
    };
    for temp in temps {
        let _ = fs::remove_file(temp);
    }
}

/// Remember `temp` as being written (`add`) or done with.
fn track(temp: &Path, add: bool) {
    let mut list = IN_PROGRESS.lock().unwrap_or_else(|p| p.into_inner());
    if add {
        list.push(temp.to_path_buf());
    } else {
        list.retain(|t| t != temp);
    }
}

/// The process id in a temporary's name `.NAME.PID-N.tmp`, if `name` is one.
fn temporary_owner(name: &str) -> Option<u32> {
    let stem = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (rest, counter) = stem.rsplit_once('-')?;
    counter.parse::<u64>().ok()?;
    let (_, pid) = rest.rsplit_once('.')?;
    pid.parse().ok()
}

/// Remove the temporaries in `folder` left by processes that are gone (once per folder
/// and process). A process is alive while `/proc/PID` exists; without `/proc` nothing
/// is removed.
fn sweep_stale(folder: &Path) {
    {
        let mut swept = SWEPT.lock().unwrap_or_else(|p| p.into_inner());
        if !swept
            .get_or_insert_with(HashSet::new)
            .insert(folder.to_path_buf())
        {
            return;
        }
    }
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temporary_owner) else {
            continue;
        };
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if is_file && pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Write `bytes` to a new temporary file beside `target` and rename it over `target`;
/// errors name `shown`, the path the caller asked for.
fn replace_atomically(shown: &Path, target: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let io = |source| WriteError::Io {
        path: shown.to_path_buf(),
        source,
    };
    let Some(file_name) = target.file_name() else {
        return Err(WriteError::NotWritable {
            path: shown.to_path_buf(),
            what: "not a file path",
        });
    };
    let folder = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let unique = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(file_name);
    temp_name.push(format!(".{}-{unique}.tmp", std::process::id()));
    let temp = folder.join(temp_name);
    sweep_stale(&folder);
    track(&temp, true);
    let written = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.flush()));
    let result = match written {
        Err(source) => {
            let _ = fs::remove_file(&temp);
            Err(io(source))
        }
        Ok(()) => fs::rename(&temp, target).map_err(|source| {
            let _ = fs::remove_file(&temp);
            io(source)
        }),
    };
    track(&temp, false);
    result
}

/// Whether `a` and `b` are one existing file: the same device and inode after following
/// links, so another spelling, a hard link or a symbolic link to it counts too. False
/// when either does not exist.
pub fn same_file(a: &Path, b: &Path) -> bool {
    file_id(a).is_some_and(|id| file_id(b) == Some(id))
}

/// The device and inode of the existing file `path` (after following links).
fn file_id(path: &Path) -> Option<(u64, u64)> {
    fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// Check that the output `path` is none of `inputs` (`(input path, what it is)`):
/// compared as files (device and inode, after following links), so another spelling
/// of the same file, a hard link or a symbolic link to it is caught too. `-` (standard
/// output) and a path that does not exist yet are never an input.
///
/// # Errors
/// [`WriteError::IsInput`] naming the first input it is.
pub fn refuse_inputs(path: &Path, inputs: &[(&Path, &str)]) -> Result<(), WriteError> {
    if path.as_os_str() == "-" {
        return Ok(());
    }
    // The output is looked up once, not once per input.
    let Some(out) = file_id(path) else {
        return Ok(());
    };
    match inputs.iter().find(|(p, _)| file_id(p) == Some(out)) {
        Some((input, role)) => Err(WriteError::IsInput {
            path: path.to_path_buf(),
            input: input.to_path_buf(),
            role: (*role).to_string(),
        }),
        None => Ok(()),
    }
}

/// Whether `path` can take an output, checked before the work that makes it (a long
/// render) rather than after: not a folder, and in a folder that exists. `-` (standard
/// output) always can. What [`write_file`] refuses otherwise (a device, a dangling
/// link) it still refuses when it writes.
///
/// # Errors
/// [`WriteError::NotWritable`] for a folder; [`WriteError::Io`] (not found) when the
/// folder the file would go in does not exist.
pub fn check_writable(path: &Path) -> Result<(), WriteError> {
    if path.as_os_str() == "-" {
        return Ok(());
    }
    if path.is_dir() {
        return Err(WriteError::NotWritable {
            path: path.to_path_buf(),
            what: "a folder",
        });
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(WriteError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("the folder {} does not exist", folder.display()),
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_are_checked_before_the_work() {
        let dir = scratch("check-writable");
        assert!(check_writable(&dir.join("new.png")).is_ok());
        assert!(check_writable(Path::new("-")).is_ok());
        let e = check_writable(&dir).unwrap_err().to_string();
        assert!(e.ends_with("refusing to write: it is a folder"), "{e}");
        let e = check_writable(&dir.join("missing/x.png"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!(
                "the folder {} does not exist",
                dir.join("missing").display()
            )),
            "{e}"
        );
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("csir-file-write-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn new_and_regular_files_are_replaced_whole() {
        let dir = scratch("regular");
        let path = dir.join("a.bin");
        write_file(&path, b"first").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"first");
        write_file(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        // nothing else is left in the folder
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_symlink_is_written_through_and_stays_a_link() {
        let dir = scratch("symlink");
        let target = dir.join("target.png");
        fs::write(&target, b"old").unwrap();
        let link = dir.join("link.png");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_file(&link, b"new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&target).unwrap(), b"new");

        let dangling = dir.join("dangling.png");
        std::os::unix::fs::symlink(dir.join("missing"), &dangling).unwrap();
        let e = write_file(&dangling, b"x").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{}: refusing to write: it is a symbolic link to nothing",
                dangling.display()
            )
        );
        assert!(!dir.join("missing").exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn devices_are_written_into_never_replaced() {
        write_file(Path::new("/dev/null"), b"bytes").unwrap();
        assert!(
            fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
        let e = write_file(Path::new("/dev/full"), b"bytes").unwrap_err();
        assert!(matches!(e, WriteError::Io { .. }), "{e}");
        assert!(
            fs::metadata("/dev/full")
                .unwrap()
                .file_type()
                .is_char_device()
        );
        let dir = scratch("folder");
        let e = write_file(&dir, b"x").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}: refusing to write: it is a folder", dir.display())
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn temporaries_of_dead_processes_are_removed_and_live_ones_kept() {
        assert_eq!(temporary_owner(".out.png.4242-7.tmp"), Some(4242));
        assert_eq!(temporary_owner(".a-b.c.17-0.tmp"), Some(17));
        assert_eq!(temporary_owner("out.png.4242-7.tmp"), None);
        assert_eq!(temporary_owner(".out.png.x-7.tmp"), None);
        let dir = scratch("stale");
        // A process id above the kernel's maximum (4194304) is never alive.
        let dead = dir.join(".out.png.4294967295-3.tmp");
        let alive = dir.join(format!(".out.png.{}-99.tmp", std::process::id()));
        let unrelated = dir.join(".notes.tmp");
        for p in [&dead, &alive, &unrelated] {
            fs::write(p, b"").unwrap();
        }
        write_file(&dir.join("out.png"), b"png").unwrap();
        assert!(!dead.exists(), "a dead process's temporary stays");
        assert!(alive.exists() && unrelated.exists());
        assert_eq!(fs::read(dir.join("out.png")).unwrap(), b"png");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn temporaries_being_written_are_removed_on_request() {
        let dir = scratch("in-progress");
        let temp = dir.join(".x.png.1-0.tmp");
        fs::write(&temp, b"partial").unwrap();
        track(&temp, true);
        // only this test's temporaries: the other tests write theirs at the same time
        remove_temporaries_where(|t| t.starts_with(&dir));
        assert!(!temp.exists());
        assert!(IN_PROGRESS.lock().unwrap().iter().all(|t| t != &temp));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_pipe_behind_a_kernel_link_is_streamed_into() {
        // /proc/self/fd/N of a pipe is a link to `pipe:[inode]`, a name that is no path,
        // as `/dev/stdout` is when the output is piped.
        let (reader, writer) = std::io::pipe().unwrap();
        use std::os::fd::AsRawFd;
        let link = PathBuf::from(format!("/proc/self/fd/{}", writer.as_raw_fd()));
        let read = std::thread::spawn(move || {
            let mut got = Vec::new();
            let mut reader = reader;
            std::io::Read::read_to_end(&mut reader, &mut got).unwrap();
            got
        });
        write_file(&link, b"through the pipe").unwrap();
        drop(writer);
        assert_eq!(read.join().unwrap(), b"through the pipe");
    }

    #[test]
    fn inputs_are_found_by_identity() {
        let dir = scratch("inputs");
        let scene = dir.join("scene.json");
        fs::write(&scene, b"{}").unwrap();
        let other_spelling = dir.join(".").join("scene.json");
        let e = refuse_inputs(&other_spelling, &[(&scene, "the scene")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{}: refusing to write the output over {}, the scene of this command",
                other_spelling.display(),
                scene.display()
            )
        );
        let hard = dir.join("hard.json");
        fs::hard_link(&scene, &hard).unwrap();
        assert!(refuse_inputs(&hard, &[(&scene, "the scene")]).is_err());
        assert!(refuse_inputs(&dir.join("new.png"), &[(&scene, "the scene")]).is_ok());
        assert!(refuse_inputs(Path::new("-"), &[(&scene, "the scene")]).is_ok());
        fs::remove_dir_all(&dir).unwrap();
    }
}
