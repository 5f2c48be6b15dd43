//! Primitive processing, from assembled triangles to set-up triangles: canonical vertex
//! rotation, clipping, the viewport transform, facing and culling, and setup.
//!
//! Triangles are processed in parallel chunks; each chunk keeps its triangles in
//! submission order, and chunks are concatenated in order, so the result does not
//! depend on the thread count.

use std::cmp::Ordering;

use rayon::prelude::*;

use crate::clip::{ClipResult, POLYGON_CAPACITY, clip_triangle};
use crate::depth::DepthPlane;
use crate::setup::{PolygonInfo, SetupTriangle, polygon_double_area, setup_triangle};
use crate::state::CullMode;
use crate::tile::PixelRect;
use crate::vertex::VertexBuffer;
use crate::viewport::{Viewport, WindowVertex};

/// Marks a chunk-local id of a vertex made by clipping, until chunks are merged.
const GENERATED: u32 = 1 << 31;

/// Triangles per parallel work item.
const TRIANGLE_CHUNK: usize = 512;

/// What happened to a draw's input triangles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PrimitiveCounts {
    pub invalid: u64,
    pub clipped_away: u64,
    pub clipped: u64,
    pub culled: u64,
    pub empty: u64,
    pub rasterized: u64,
}

impl PrimitiveCounts {
    fn add(&mut self, o: &PrimitiveCounts) {
        self.invalid += o.invalid;
        self.clipped_away += o.clipped_away;
        self.clipped += o.clipped;
        self.culled += o.culled;
        self.empty += o.empty;
        self.rasterized += o.rasterized;
    }
}

/// The set-up triangles of one chunk and the vertices its clipping made.
#[derive(Default)]
struct SetupChunk {
    triangles: Vec<SetupTriangle>,
    generated: Vec<f32>,
    counts: PrimitiveCounts,
}

/// Fixed inputs of primitive processing for one draw.
struct PrimitiveContext<'a> {
    vertices: &'a VertexBuffer,
    viewport: Viewport,
    bounds: PixelRect,
    cull: CullMode,
}

/// Processes `triangles` (vertex-buffer ids) into `out`, in submission order, appending
/// vertices made by clipping to `vertices`.
pub(crate) fn setup_primitives(
    triangles: &[[u32; 3]],
    vertices: &mut VertexBuffer,
    bounds: PixelRect,
    cull: CullMode,
    out: &mut Vec<SetupTriangle>,
) -> PrimitiveCounts {
    let ctx = PrimitiveContext {
        vertices,
        viewport: Viewport::new(bounds.x1, bounds.y1),
        bounds,
        cull,
    };
    let chunks: Vec<SetupChunk> = triangles
        .par_chunks(TRIANGLE_CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            let mut result = SetupChunk::default();
            for (k, &ids) in chunk.iter().enumerate() {
                ctx.process(ids, (c * TRIANGLE_CHUNK + k) as u32, &mut result);
            }
            result
        })
        .collect();
    out.clear();
    let mut counts = PrimitiveCounts::default();
    for chunk in chunks {
        let base = vertices.len() as u32;
        out.extend(chunk.triangles.into_iter().map(|mut t| {
            for id in &mut t.vertices {
                if *id & GENERATED != 0 {
                    *id = base + (*id & !GENERATED);
                }
            }
            t
        }));
        vertices.append(&chunk.generated);
        counts.add(&chunk.counts);
    }
    counts
}

/// Index of the rotation that starts the triangle at its smallest vertex (by clip
/// position), so every rotation of the same triangle is processed identically.
fn canonical_rotation(p: &[[f32; 4]; 3]) -> usize {
    let order = |a: &[f32; 4], b: &[f32; 4]| {
        a.iter()
            .zip(b)
            .map(|(x, y)| x.total_cmp(y))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    };
    (1..3).fold(0, |best, k| {
        if order(&p[k], &p[best]).is_lt() {
            k
        } else {
            best
        }
    })
}

impl PrimitiveContext<'_> {
    fn process(&self, mut ids: [u32; 3], primitive: u32, out: &mut SetupChunk) {
        let mut p = ids.map(|id| self.vertices.position(id));
        if p.iter().flatten().any(|c| !c.is_finite()) {
            out.counts.invalid += 1;
            return;
        }
        let r = canonical_rotation(&p);
        p.rotate_left(r);
        ids.rotate_left(r);
        let mut window = [WindowVertex::default(); POLYGON_CAPACITY];
        let mut poly_ids = [0u32; POLYGON_CAPACITY];
        let len = match clip_triangle(p) {
            ClipResult::Rejected => {
                out.counts.clipped_away += 1;
                return;
            }
            ClipResult::Unclipped => {
                poly_ids[..3].copy_from_slice(&ids);
                self.project(p.into_iter(), &mut window)
            }
            ClipResult::Clipped(polygon) => {
                out.counts.clipped += 1;
                let vertices = polygon.vertices();
                for (slot, v) in poly_ids.iter_mut().zip(vertices) {
                    *slot = match v.original {
                        Some(k) => ids[k as usize],
                        None => self.generate(v.position, v.weights, &ids, out),
                    };
                }
                self.project(vertices.iter().map(|v| v.position), &mut window)
            }
        };
        match len {
            Some(len) => self.emit_polygon(&window[..len], &poly_ids[..len], primitive, out),
            None => out.counts.invalid += 1,
        }
    }

    /// Projects clip positions into `out`; the count, or `None` if any vertex cannot be
    /// projected.
    fn project(
        &self,
        positions: impl Iterator<Item = [f32; 4]>,
        out: &mut [WindowVertex; POLYGON_CAPACITY],
    ) -> Option<usize> {
        let mut len = 0;
        for (slot, p) in out.iter_mut().zip(positions) {
            *slot = self.viewport.project(p)?;
            len += 1;
        }
        Some(len)
    }

    /// Stores a vertex made by clipping (varyings blended by `weights`, linear in clip
    /// space) and returns its chunk-local id.
    fn generate(
        &self,
        position: [f32; 4],
        weights: [f32; 3],
        ids: &[u32; 3],
        out: &mut SetupChunk,
    ) -> u32 {
        let stride = 4 + self.vertices.varying_count();
        let id = (out.generated.len() / stride) as u32 | GENERATED;
        out.generated.extend_from_slice(&position);
        let sources = ids.map(|id| self.vertices.varyings(id));
        out.generated.extend((0..stride - 4).map(|k| {
            weights[0] * sources[0][k] + weights[1] * sources[1][k] + weights[2] * sources[2][k]
        }));
        id
    }

    /// Culls a convex polygon by its facing, then sets up its triangle fan.
    fn emit_polygon(&self, w: &[WindowVertex], ids: &[u32], primitive: u32, out: &mut SetupChunk) {
        let area = polygon_double_area(w);
        if area == 0 {
            out.counts.empty += 1;
            return;
        }
        let front_facing = area > 0;
        if self.cull.culls(front_facing) {
            out.counts.culled += 1;
            return;
        }
        let mut depth_vertices = [Default::default(); POLYGON_CAPACITY];
        for (d, v) in depth_vertices.iter_mut().zip(w) {
            *d = (v.pos, v.z);
        }
        let depth = DepthPlane::for_polygon(&depth_vertices[..w.len()]);
        let info = PolygonInfo {
            front_facing,
            depth,
            primitive,
        };
        let before = out.triangles.len();
        for i in 1..w.len() - 1 {
            let tri = [w[0], w[i], w[i + 1]];
            let tri_ids = [ids[0], ids[i], ids[i + 1]];
            if let Some(t) = setup_triangle(tri, tri_ids, &info, &self.bounds) {
                out.triangles.push(t);
            }
        }
        let made = (out.triangles.len() - before) as u64;
        out.counts.rasterized += made;
        if made == 0 {
            out.counts.empty += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_starts_at_smallest_vertex() {
        let a = [0.0, 0.0, 0.0, 1.0];
        let b = [1.0, 0.0, 0.0, 1.0];
        let c = [-1.0, 5.0, 0.0, 1.0];
        assert_eq!(canonical_rotation(&[a, b, c]), 2);
        assert_eq!(canonical_rotation(&[c, a, b]), 0);
        assert_eq!(canonical_rotation(&[b, c, a]), 1);
    }
}
