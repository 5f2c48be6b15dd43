//! Vertex processing: primitive assembly of a triangle list, one vertex-stage call per
//! distinct vertex index (in parallel), and the buffer of post-transform vertices.

use rayon::prelude::*;

use crate::MAX_LANES as LANES;
use crate::clip::MAX_CLIP_DISTANCES;
use crate::error::DrawError;
use crate::stage::VertexStage;

/// Most f32 varyings a vertex stage may output ([`VertexStage::varying_count`]), 80:
/// the 64 of GL 3.0's `GL_MAX_VARYING_COMPONENTS` (what a linked CSIR program passes,
/// `csir::MAX_VARYINGS` vec4 slots), plus two back-face colours (8 floats, see
/// [`VertexStage::back_face_varyings`]) and [`MAX_CLIP_DISTANCES`] clip distances,
/// which a vertex stage outputs after them. csir-render checks at compile time that a
/// linked program's varyings with those additions fit.
pub const MAX_VARYINGS: usize = 64 + 2 * 4 + MAX_CLIP_DISTANCES;

/// Vertices shaded per parallel work item (a multiple of [`LANES`]).
const VERTEX_CHUNK: usize = 256;
const _: () = assert!(VERTEX_CHUNK.is_multiple_of(LANES));

/// Post-transform vertices: per vertex the clip-space position (4 f32) followed by its
/// varyings. Ids `0..shaded` are vertex-stage outputs; clipping appends new vertices.
#[derive(Clone, Debug, Default)]
pub(crate) struct VertexBuffer {
    stride: usize,
    data: Vec<f32>,
}

impl VertexBuffer {
    /// Makes the buffer hold exactly `count` vertices of `varying_count` varyings.
    /// Their contents are unspecified (what the last draw left, zeros where the
    /// buffer grew): every record is written whole by the vertex stage
    /// ([`VertexStage::shade_vertices`] writes the position and all varyings), so
    /// clearing first would only add a memset of the whole buffer per draw (1.4 % of
    /// a 500k-triangle frame, all on the calling thread).
    fn reset(&mut self, varying_count: usize, count: usize) {
        self.stride = 4 + varying_count;
        let len = count * self.stride;
        self.data.truncate(len);
        self.data.resize(len, 0.0);
    }

    pub fn varying_count(&self) -> usize {
        self.stride - 4
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.data.len() / self.stride
    }

    #[inline]
    pub fn position(&self, id: u32) -> [f32; 4] {
        let at = id as usize * self.stride;
        [
            self.data[at],
            self.data[at + 1],
            self.data[at + 2],
            self.data[at + 3],
        ]
    }

    #[inline]
    pub fn varyings(&self, id: u32) -> &[f32] {
        let at = id as usize * self.stride + 4;
        &self.data[at..at + self.stride - 4]
    }

    /// A buffer of the vertex records `data` (position + `varying_count` varyings
    /// each), for tests of the stages after vertex shading.
    #[cfg(test)]
    pub fn from_records(varying_count: usize, data: Vec<f32>) -> Self {
        let stride = 4 + varying_count;
        assert_eq!(data.len() % stride, 0);
        Self { stride, data }
    }

    /// Appends whole vertex records (position + varyings each).
    pub fn append(&mut self, records: &[f32]) {
        debug_assert_eq!(records.len() % self.stride, 0);
        self.data.extend_from_slice(records);
    }
}

/// A draw's triangles as vertex-buffer ids, with the vertex index each id shades.
#[derive(Clone, Debug, Default)]
pub(crate) struct Assembly {
    /// Vertex-buffer id of each vertex index, `u32::MAX` when unused (indexed draws).
    slots: Vec<u32>,
    /// Vertex index of each vertex-buffer id; empty for non-indexed draws (id = index).
    unique: Vec<u32>,
    /// Number of distinct vertices.
    vertex_total: usize,
    /// Each triangle's three vertex-buffer ids, in submission order, unless
    /// `in_indices` (see [`Assembly::triangles`]).
    triangles: Vec<[u32; 3]>,
    /// The ids are the draw's indices themselves (first-use order): the triangles
    /// are read from the index buffer, not copied (12 MB per frame for 1M
    /// triangles).
    in_indices: bool,
}

impl Assembly {
    /// Assembles a triangle list: `indices` taken three at a time, or, without indices,
    /// vertices `0, 1, 2, 3, …`; a trailing incomplete triangle is ignored.
    ///
    /// # Errors
    /// [`DrawError::IndexOutOfRange`] for an index `>= vertex_count`.
    pub fn assemble(
        &mut self,
        vertex_count: u32,
        indices: Option<&[u32]>,
    ) -> Result<(), DrawError> {
        self.triangles.clear();
        self.unique.clear();
        self.in_indices = false;
        let Some(indices) = indices else {
            let count = vertex_count / 3;
            self.triangles
                .extend((0..count).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]));
            self.vertex_total = 3 * count as usize;
            return Ok(());
        };
        let used = &indices[..indices.len() / 3 * 3];
        // One read of the indices, in parallel pieces: the largest index (the range
        // check) and what the first-use check needs ([`PieceSummary`]).
        let pieces: Vec<PieceSummary> = used.par_chunks(INDEX_PIECE).map(summarize).collect();
        let max = pieces.iter().filter_map(|p| p.max).max();
        if max.is_some_and(|m| m >= vertex_count) {
            let (position, &index) = used
                .iter()
                .enumerate()
                .find(|&(_, &i)| i >= vertex_count)
                .expect("the largest index is out of range");
            return Err(DrawError::IndexOutOfRange {
                position,
                index,
                vertex_count,
            });
        }
        if let Some(distinct) = first_use_count(&pieces) {
            // Already numbered by first use (as OBJ meshes are: tobj's `single_index`
            // gives each new vertex the next number), so the renumbering below would
            // be the identity: id = index, and `unique` stays empty.
            self.in_indices = true;
            self.vertex_total = distinct;
            return Ok(());
        }
        let max = max.map_or(0, |m| m as usize + 1);
        self.slots.clear();
        self.slots.resize(max, u32::MAX);
        for tri in used.chunks_exact(3) {
            let ids = [0, 1, 2].map(|k| {
                let slot = &mut self.slots[tri[k] as usize];
                if *slot == u32::MAX {
                    *slot = self.unique.len() as u32;
                    self.unique.push(tri[k]);
                }
                *slot
            });
            self.triangles.push(ids);
        }
        self.vertex_total = self.unique.len();
        Ok(())
    }

    /// Each triangle's three vertex-buffer ids, in submission order. `indices` must be
    /// the draw's indices given to the last [`Assembly::assemble`] (they are the ids
    /// when already in first-use order).
    pub fn triangles<'a>(&'a self, indices: Option<&'a [u32]>) -> &'a [[u32; 3]] {
        match indices {
            Some(indices) if self.in_indices => indices.as_chunks::<3>().0,
            _ => &self.triangles,
        }
    }

    /// The vertex index that vertex-buffer id `id` holds.
    fn vertex_index(&self, id: usize) -> u32 {
        if self.unique.is_empty() {
            id as u32
        } else {
            self.unique[id]
        }
    }
}

/// Indices per parallel piece of the checks in [`Assembly::assemble`].
const INDEX_PIECE: usize = 1 << 15;

/// What [`Assembly::assemble`]'s checks need of one piece of [`INDEX_PIECE`] indices,
/// from a single read of it.
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

/// Runs `stage` once for each distinct vertex of `assembly`, in parallel, filling
/// `buffer` (ids as in `assembly.triangles`): [`VertexStage::shade_vertices`] on
/// batches of up to [`LANES`] consecutive ids.
pub(crate) fn shade_vertices<V: VertexStage>(
    stage: &V,
    assembly: &Assembly,
    buffer: &mut VertexBuffer,
) {
    buffer.reset(stage.varying_count(), assembly.vertex_total);
    let stride = buffer.stride;
    buffer
        .data
        .par_chunks_mut(stride * VERTEX_CHUNK)
        .enumerate()
        .for_each_init(
            || stage.new_scratch(),
            |scratch, (chunk, records)| {
                let mut indices = [0u32; LANES];
                for (b, batch) in records.chunks_mut(stride * LANES).enumerate() {
                    let first = chunk * VERTEX_CHUNK + b * LANES;
                    let indices = &mut indices[..batch.len() / stride];
                    for (k, index) in indices.iter_mut().enumerate() {
                        *index = assembly.vertex_index(first + k);
                    }
                    stage.shade_vertices(scratch, indices, batch);
                }
            },
        );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_indexed_drops_trailing_vertices() {
        let mut a = Assembly::default();
        a.assemble(8, None).unwrap();
        assert_eq!(a.triangles(None), [[0, 1, 2], [3, 4, 5]]);
        assert_eq!(a.vertex_total, 6);
    }

    #[test]
    fn indexed_deduplicates_vertices() {
        let mut a = Assembly::default();
        let indices = [7, 2, 9, 9, 2, 5, 1];
        a.assemble(10, Some(&indices)).unwrap();
        assert_eq!(a.triangles(Some(&indices)), [[0, 1, 2], [2, 1, 3]]);
        assert_eq!(a.unique, vec![7, 2, 9, 5]);
        assert_eq!(a.vertex_index(3), 5);
    }

    #[test]
    fn first_use_ordered_indices_keep_their_numbers() {
        let mut a = Assembly::default();
        let indices = [0, 1, 2, 2, 1, 3, 3, 0, 4, 9];
        a.assemble(10, Some(&indices)).unwrap();
        assert_eq!(
            a.triangles(Some(&indices)),
            [[0, 1, 2], [2, 1, 3], [3, 0, 4]]
        );
        assert!(a.unique.is_empty());
        assert_eq!(a.vertex_total, 5);
        assert_eq!(a.vertex_index(4), 4);
        // The same triangles after a draw that needed renumbering.
        a.assemble(10, Some(&[7, 2, 9])).unwrap();
        assert_eq!(a.unique, vec![7, 2, 9]);
        assert_eq!(a.triangles(Some(&[7, 2, 9])), [[0, 1, 2]]);
        let indices = [0, 1, 2, 2, 1, 3];
        a.assemble(10, Some(&indices)).unwrap();
        assert_eq!(a.triangles(Some(&indices)), [[0, 1, 2], [2, 1, 3]]);
        assert!(a.unique.is_empty());
        assert_eq!(a.vertex_total, 4);
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

    #[test]
    fn out_of_range_index_is_an_error() {
        let mut a = Assembly::default();
        let err = a.assemble(3, Some(&[0, 1, 2, 2, 3, 0])).unwrap_err();
        assert_eq!(
            err,
            DrawError::IndexOutOfRange {
                position: 4,
                index: 3,
                vertex_count: 3
            }
        );
        // An index in the ignored trailing part is not checked.
        assert!(a.assemble(3, Some(&[0, 1, 2, 7])).is_ok());
    }
}
