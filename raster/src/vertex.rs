//! Vertex processing: primitive assembly of a triangle list, one vertex-stage call per
//! distinct vertex index (in parallel), and the buffer of post-transform vertices.

use rayon::prelude::*;

use crate::MAX_LANES as LANES;
use crate::clip::MAX_CLIP_DISTANCES;
use crate::error::DrawError;
use crate::indices::Indices;
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
        indices: Option<Indices<'_>>,
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
        let used = indices.list();
        if indices.max().is_some_and(|m| m >= vertex_count) {
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
        if let Some(distinct) = indices.first_use_count() {
            // Already numbered by first use (as OBJ meshes are: the scene loader gives
            // each new `v/vt/vn` triple the next number), so the renumbering below would
            // be the identity: id = index, and `unique` stays empty.
            self.in_indices = true;
            self.vertex_total = distinct;
            return Ok(());
        }
        let max = indices.max().map_or(0, |m| m as usize + 1);
        self.slots.clear();
        self.slots.resize(max, u32::MAX);
        for tri in indices.triangles() {
            let ids = tri.map(|index| {
                let slot = &mut self.slots[index as usize];
                if *slot == u32::MAX {
                    *slot = self.unique.len() as u32;
                    self.unique.push(index);
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
    pub fn triangles<'a>(&'a self, indices: Option<Indices<'a>>) -> &'a [[u32; 3]] {
        match indices {
            Some(indices) if self.in_indices => indices.triangles(),
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
        a.assemble(10, Some(Indices::new(&indices))).unwrap();
        assert_eq!(
            a.triangles(Some(Indices::new(&indices))),
            [[0, 1, 2], [2, 1, 3]]
        );
        assert_eq!(a.unique, vec![7, 2, 9, 5]);
        assert_eq!(a.vertex_index(3), 5);
    }

    #[test]
    fn first_use_ordered_indices_keep_their_numbers() {
        let mut a = Assembly::default();
        let indices = [0, 1, 2, 2, 1, 3, 3, 0, 4, 9];
        a.assemble(10, Some(Indices::new(&indices))).unwrap();
        assert_eq!(
            a.triangles(Some(Indices::new(&indices))),
            [[0, 1, 2], [2, 1, 3], [3, 0, 4]]
        );
        assert!(a.unique.is_empty());
        assert_eq!(a.vertex_total, 5);
        assert_eq!(a.vertex_index(4), 4);
        // The same triangles after a draw that needed renumbering.
        a.assemble(10, Some(Indices::new(&[7, 2, 9]))).unwrap();
        assert_eq!(a.unique, vec![7, 2, 9]);
        assert_eq!(a.triangles(Some(Indices::new(&[7, 2, 9]))), [[0, 1, 2]]);
        let indices = [0, 1, 2, 2, 1, 3];
        a.assemble(10, Some(Indices::new(&indices))).unwrap();
        assert_eq!(
            a.triangles(Some(Indices::new(&indices))),
            [[0, 1, 2], [2, 1, 3]]
        );
        assert!(a.unique.is_empty());
        assert_eq!(a.vertex_total, 4);
    }

    #[test]
    fn out_of_range_index_is_an_error() {
        let mut a = Assembly::default();
        let err = a
            .assemble(3, Some(Indices::new(&[0, 1, 2, 2, 3, 0])))
            .unwrap_err();
        assert_eq!(
            err,
            DrawError::IndexOutOfRange {
                position: 4,
                index: 3,
                vertex_count: 3
            }
        );
        // An index in the ignored trailing part is not checked.
        assert!(a.assemble(3, Some(Indices::new(&[0, 1, 2, 7]))).is_ok());
    }
}
