//! The CPU time a process has used, for frame timings that hold up on a shared machine
//! (wall time counts waiting; CPU time counts the work of every thread, the driver's
//! included).

/// CPU time used so far by all live threads of this process, in nanoseconds (the sum
/// of `/proc/self/task/*/schedstat`, Linux); `None` where that does not exist. A thread
/// that ends while the tasks are read is left out (its entry is gone), rather than
/// making the whole reading fail.
pub fn process_cpu_ns() -> Option<u64> {
    let mut total = 0;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let Ok(task) = task else { continue };
        let Ok(stat) = std::fs::read_to_string(task.path().join("schedstat")) else {
            continue;
        };
        total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(total)
}

/// The CPU time per frame, in milliseconds, of `frames` frames drawn since
/// [`process_cpu_ns`] read `start`; `None` without a reading or without frames.
pub fn ms_per_frame_since(start: Option<u64>, frames: usize) -> Option<f64> {
    let (start, now) = (start?, process_cpu_ns()?);
    (frames > 0).then(|| now.saturating_sub(start) as f64 / 1e6 / frames as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_shows_in_the_process_cpu_time() {
        let Some(before) = process_cpu_ns() else {
            return; // not Linux: nothing to measure
        };
        let mut x = 0u64;
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_millis(20) {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        let after = process_cpu_ns().expect("read before, so readable now");
        assert!(after - before >= 5_000_000, "{before} -> {after} ({x})");
    }
}
