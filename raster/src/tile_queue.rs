//! Handing a draw's tiles to the worker threads one at a time.
//!
//! The tiles of a draw are independent (each owns its pixels and keeps its triangles'
//! submission order, `draw.rs`), so any worker may take any tile. Each worker of the
//! current rayon pool takes the next untaken tile from a shared counter until none is
//! left: a worker that finishes early takes more, and at the end of the draw no
//! worker waits for more than the one tile another is still rasterizing.
//!
//! Why not a rayon parallel iterator over the tiles: rayon splits an indexed iterator
//! into a few contiguous runs of tiles (about ten for 510 tiles on 2 threads, one
//! per `map_init` call) and only splits a run further when a worker steals it
//! before it starts. A run that has started is finished by its worker alone, so at
//! the end of a draw the other worker sat idle for up to a run's worth of tiles,
//! 0.3–1.6 ms of a 20–35 ms frame at 2 threads (measured per worker on
//! procedural_1080p and front_to_back64_1080p, `benches/HISTORY.md`,
//! "2026-12-04: 1 → 2 thread scaling"). Cutting the runs to single tiles
//! (`with_max_len(1)`) would create a worker's scratch per tile; here each worker
//! creates one, on the first tile it takes.
//!
//! Each thread's share is an iterator fold over its tiles ([`work_through`]), as
//! rayon's was: a `while let` loop over the queue compiled the tile pass 1–2 % slower
//! (front_to_back64). A pool of one thread folds over the tiles with no queue.
//!
//! Which worker runs a tile never changes the tile's bytes: a worker's scratch holds
//! nothing from one tile to the next that the result depends on (as with rayon's runs
//! before, whose boundaries also moved with the thread count).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

/// Items taken one at a time, in order, by any number of threads; each item is taken
/// exactly once.
struct TileQueue<T> {
    /// Each slot is locked once, by the thread the counter gave its index to (so the
    /// lock is never contended); it only moves the item to that thread.
    slots: Vec<Mutex<Option<T>>>,
    next: AtomicUsize,
}

impl<T> TileQueue<T> {
    fn new(items: impl IntoIterator<Item = T>) -> Self {
        TileQueue {
            slots: items.into_iter().map(|t| Mutex::new(Some(t))).collect(),
            next: AtomicUsize::new(0),
        }
    }

    /// The next untaken item, or `None` when all have been taken.
    fn take(&self) -> Option<T> {
        // Relaxed is enough: the counter only has to give each index to one thread;
        // the slot's mutex orders the item's hand-over.
        let slot = self.slots.get(self.next.fetch_add(1, Ordering::Relaxed))?;
        slot.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

/// Runs `work` once on every item of `items`, on the threads of the current rayon
/// pool, and returns the results combined with `combine` (starting from
/// `R::default()`). Each thread that takes an item creates one worker state with
/// `new_worker` and passes it to `work` for every item it takes.
///
/// The results reach `combine` in an order that depends on the scheduling, so
/// `combine` must be commutative and associative for the result not to depend on
/// the thread count (sums of counts are; the draw's traced events come from one tile).
pub(crate) fn run_shared<T, W, R>(
    items: impl IntoIterator<Item = T>,
    new_worker: impl Fn() -> W + Sync,
    work: impl Fn(&mut W, T) -> R + Sync,
    combine: impl Fn(R, R) -> R + Sync + Send,
) -> R
where
    T: Send,
    R: Default + Send,
{
    if rayon::current_num_threads() == 1 {
        // One thread: the items in order, with no hand-over between threads.
        return work_through(items.into_iter(), &new_worker, &work, &combine);
    }
    let queue = TileQueue::new(items);
    let workers = rayon::current_num_threads().min(queue.slots.len());
    (0..workers)
        .into_par_iter()
        // One rayon job per worker: a job that no thread has started when the items
        // run out finds the queue empty and returns at once.
        .with_max_len(1)
        .map(|_| {
            work_through(
                std::iter::from_fn(|| queue.take()),
                &new_worker,
                &work,
                &combine,
            )
        })
        .reduce(R::default, &combine)
}

/// One thread's share: `work` on each of `items` with one worker state, made on the
/// first item (none for no items), the results combined in order.
fn work_through<T, W, R: Default>(
    mut items: impl Iterator<Item = T>,
    new_worker: &impl Fn() -> W,
    work: &impl Fn(&mut W, T) -> R,
    combine: &impl Fn(R, R) -> R,
) -> R {
    let Some(first) = items.next() else {
        return R::default();
    };
    let mut worker = new_worker();
    let total = work(&mut worker, first);
    items.fold(total, |total, item| combine(total, work(&mut worker, item)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_worked_on_once_for_any_thread_count() {
        for threads in [1, 2, 3, 7] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut seen = vec![0u32; 1000];
            let (sum, count) = pool.install(|| {
                run_shared(
                    seen.iter_mut().enumerate(),
                    || 0u64,
                    |calls, (i, s)| {
                        *calls += 1;
                        *s += 1;
                        (i as u64, 1u64)
                    },
                    |a, b| (a.0 + b.0, a.1 + b.1),
                )
            });
            assert_eq!((sum, count), (999 * 1000 / 2, 1000), "threads {threads}");
            assert!(seen.iter().all(|&s| s == 1), "threads {threads}");
        }
    }

    #[test]
    fn workers_are_made_only_by_threads_that_take_an_item() {
        let made = AtomicUsize::new(0);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        let total: u32 = pool.install(|| {
            run_shared(
                [5u32, 6],
                || made.fetch_add(1, Ordering::Relaxed),
                |_, x| x,
                |a, b| a + b,
            )
        });
        assert_eq!(total, 11);
        let made = made.into_inner();
        assert!((1..=2).contains(&made), "{made} workers for 2 items");
        let none: u32 = pool.install(|| run_shared([], || (), |_, x: u32| x, |a, b| a + b));
        assert_eq!(none, 0);
    }
}
