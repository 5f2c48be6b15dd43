//! A draw's index list with what the draw's checks need of it, found once.

use rayon::prelude::*;

/// A triangle list's indices, three per triangle (a trailing incomplete triangle is
/// ignored), with what every draw of them checks, found by one scan in
/// [`Indices::new`] instead of one per draw: the largest index (an index at or past
/// the draw's vertex count is [`DrawError::IndexOutOfRange`](crate::DrawError)) and
/// whether the indices are numbered in first-use order (then they are the
/// post-transform vertex ids as they are, see `Assembly::assemble`). Mesa's `vbo`
/// module keeps the same per index buffer (its min/max index cache) for the same
/// reason: a scan of a 1M-triangle list (12 MB) every frame costs ~2 % of a frame of
/// small triangles.
///
/// Make one per mesh and keep it with the mesh: a draw call holds it by value (it is
/// a slice and two numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Indices<'a> {
    /// The whole triangles' indices (a multiple of 3).
    list: &'a [u32],
    /// The largest index; `None` when there is no whole triangle.
    max: Option<u32>,
    /// The number of distinct indices when they are in first-use order.
    first_use: Option<usize>,
}

impl<'a> Indices<'a> {
    /// Scans `list` (in parallel pieces of 32768 indices) for its largest index and
    /// its first-use order. A trailing incomplete triangle is left out of both and of
    /// [`Indices::triangles`].
    pub fn new(list: &'a [u32]) -> Self {
        let list = &list[..list.len() / 3 * 3];
        let pieces: Vec<PieceSummary> = list.par_chunks(INDEX_PIECE).map(summarize).collect();
        Indices {
            list,
            max: pieces.iter().filter_map(|p| p.max).max(),
            first_use: first_use_count(&pieces),
        }
    }

    /// The whole triangles' indices, three per triangle.
    pub fn list(&self) -> &'a [u32] {
        self.list
    }

    /// The triangles' index triples, in order.
    pub fn triangles(&self) -> &'a [[u32; 3]] {
        self.list.as_chunks::<3>().0
    }

    /// The largest index; `None` when there is no whole triangle.
    pub fn max(&self) -> Option<u32> {
        self.max
    }

    /// When the indices are in first-use order (each is one already seen or the
    /// smallest not yet seen: `0, 1, 2, …` in order of first appearance, as OBJ
    /// meshes from the scene loader are), the number of distinct indices.
    pub fn first_use_count(&self) -> Option<usize> {
        self.first_use
    }
}

/// Indices per parallel piece of [`Indices::new`]'s scan.
const INDEX_PIECE: usize = 1 << 15;

/// What [`Indices::new`] needs of one piece of [`INDEX_PIECE`] indices, from a single
/// read of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PieceSummary {
    /// The largest index; `None` for an empty piece.
    max: Option<u32>,
    /// One more than the largest "jump": an index more than one past every index
    /// before it in the piece (the first index counts as a jump when it is not 0);
    /// 0 when there is none.
    jump_end: u64,
}

/// The [`PieceSummary`] of `piece`.
fn summarize(piece: &[u32]) -> PieceSummary {
    // `next`: one more than the largest index so far (0 before any).
    let (mut next, mut jump_end) = (0u64, 0u64);
    for &i in piece {
        let i = u64::from(i);
        jump_end = jump_end.max(if i > next { i + 1 } else { 0 });
        next = next.max(i + 1);
    }
    PieceSummary {
        max: next.checked_sub(1).map(|m| m as u32),
        jump_end,
    }
}

/// The number of distinct indices when the indices summarized by `pieces` (in order)
/// are in first-use order (each index is either one already seen or the smallest not
/// yet seen, i.e. `0, 1, 2, …` in order of first appearance); `None` otherwise.
///
/// Serially only a running count `next` is kept: an index below it has been seen,
/// because every number below it has; `next` is the largest index so far plus one,
/// and an index passes when it is at most `next`. Within a piece that starts with
/// `next = s` (one more than the largest index of the pieces before it, whenever
/// those pass), index `i` passes when `i ≤ max(s, 1 + the largest before it in the
/// piece)`: always unless it is a jump, and then exactly when `i ≤ s`. So the piece
/// passes when its largest jump is at most `s` (`jump_end ≤ s + 1`).
fn first_use_count(pieces: &[PieceSummary]) -> Option<usize> {
    let mut next = 0u64;
    for p in pieces {
        if p.jump_end > next + 1 {
            return None;
        }
        if let Some(m) = p.max {
            next = next.max(u64::from(m) + 1);
        }
    }
    Some(next as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_scans_whole_triangles_only() {
        let i = Indices::new(&[0, 1, 2, 2, 1, 3, 9]);
        assert_eq!(i.list(), [0, 1, 2, 2, 1, 3]);
        assert_eq!(i.triangles(), [[0, 1, 2], [2, 1, 3]]);
        assert_eq!(i.max(), Some(3));
        assert_eq!(i.first_use_count(), Some(4));
        let i = Indices::new(&[7, 2, 9, 9]);
        assert_eq!((i.max(), i.first_use_count()), (Some(9), None));
        let i = Indices::new(&[5, 5]);
        assert_eq!(
            (i.max(), i.first_use_count(), i.list()),
            (None, Some(0), &[][..])
        );
    }

    #[test]
    fn new_agrees_with_the_piecewise_definition_across_pieces() {
        let mut long: Vec<u32> = (0..3 * INDEX_PIECE as u32).map(|i| i / 2).collect();
        let i = Indices::new(&long);
        assert_eq!(i.max(), Some(3 * INDEX_PIECE as u32 / 2 - 1));
        assert_eq!(i.first_use_count(), Some(3 * INDEX_PIECE / 2));
        long[2 * INDEX_PIECE] = u32::MAX;
        let i = Indices::new(&long);
        assert_eq!((i.max(), i.first_use_count()), (Some(u32::MAX), None));
    }

    fn first_use(indices: &[u32]) -> Option<usize> {
        let pieces: Vec<_> = indices.chunks(INDEX_PIECE).map(summarize).collect();
        first_use_count(&pieces)
    }

    /// The definition: a serial scan of every index.
    fn first_use_serial(indices: &[u32]) -> Option<usize> {
        let mut next = 0u64;
        for &i in indices {
            let i = u64::from(i);
            next += u64::from(i == next);
            if i >= next {
                return None;
            }
        }
        Some(next as usize)
    }

    #[test]
    fn first_use_by_pieces_is_the_serial_scan() {
        // Every sequence of up to 6 indices below 5 (pieces of one index would need
        // INDEX_PIECE = 1; these all fit one piece), then sequences spanning pieces.
        let mut seq = Vec::new();
        fn all(seq: &mut Vec<u32>, len: usize, check: &mut dyn FnMut(&[u32])) {
            check(seq);
            if seq.len() == len {
                return;
            }
            for i in 0..5 {
                seq.push(i);
                all(seq, len, check);
                seq.pop();
            }
        }
        all(&mut seq, 6, &mut |s| {
            assert_eq!(first_use(s), first_use_serial(s), "{s:?}")
        });
        for tail in [[0, 1], [5, 6], [6, 5], [7, 0], [4, 6], [u32::MAX, 0]] {
            for head_len in [INDEX_PIECE - 1, INDEX_PIECE, INDEX_PIECE + 1] {
                let mut long: Vec<u32> = (0..head_len as u32).map(|i| i % 6).collect();
                long.extend(tail);
                long.extend([0, 7, 8, 6]);
                assert_eq!(
                    first_use(&long),
                    first_use_serial(&long),
                    "{head_len} {tail:?}"
                );
            }
        }
    }

    #[test]
    fn first_use_order_is_detected_exactly() {
        assert_eq!(first_use(&[]), Some(0));
        assert_eq!(first_use(&[0, 0, 1, 0, 2, 1]), Some(3));
        assert_eq!(first_use(&[1, 0, 2]), None);
        assert_eq!(first_use(&[0, 2, 1]), None);
        assert_eq!(first_use(&[0, 1, 1, 3]), None);
        // Across pieces: a piece may start with old indices or the next new one,
        // never one past it.
        let mut long: Vec<u32> = (0..INDEX_PIECE as u32 + 10).collect();
        assert_eq!(first_use(&long), Some(INDEX_PIECE + 10));
        long.insert(INDEX_PIECE, 3);
        assert_eq!(first_use(&long), Some(INDEX_PIECE + 10));
        long[INDEX_PIECE] = INDEX_PIECE as u32 + 1;
        assert_eq!(first_use(&long), None);
        let mut reused = vec![0u32; INDEX_PIECE];
        reused.extend([1, 2, 0, 3]);
        assert_eq!(first_use(&reused), Some(4));
        reused[INDEX_PIECE] = 2;
        assert_eq!(first_use(&reused), None);
    }
}
