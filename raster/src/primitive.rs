//! Primitive processing, from assembled triangles to set-up triangles: canonical vertex
//! rotation, clipping, the viewport transform, facing and culling, and setup.
//!
//! Triangles are processed in parallel chunks; each chunk writes its set-up triangles,
//! in submission order, straight into its own slot of the draw's triangle storage
//! (the few past the slot's end after all slots), and the draw's triangles in
//! submission order are the chunks' ranges in chunk order, so the result does not
//! depend on the thread count.

use std::ops::Range;

use std::cmp::Ordering;

use rayon::prelude::*;

use crate::bin::{SPANS_TILES, single_tile};
use crate::clip::{
    ALL_PLANES, ClipResult, NO_DEPTH_PLANES, POLYGON_CAPACITY, UserDistances, clip_triangle_to,
};
use crate::depth::DepthPlane;
use crate::setup::{PolygonInfo, SetupTriangle, polygon_double_area, setup_triangle};
use crate::stage::Interpolation;
use crate::state::{CullMode, PolygonOffset, RasterState};
use crate::tile::{PixelRect, TileGrid};
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

/// What one chunk of input triangles made besides the set-up triangles in its slot:
/// those past the slot's end (clipping can make several triangles of one input) and
/// the vertices its clipping made. The renderer keeps one per chunk from draw to draw,
/// so their buffers are allocated once rather than every frame (fresh per-frame
/// buffers cost a page fault per 4 KiB: about a tenth of a 500k-triangle frame).
#[derive(Debug, Default)]
pub(crate) struct SetupChunk {
    /// Set-up triangles in the slot (its first `placed` entries).
    placed: usize,
    /// Set-up triangles that did not fit in the slot, in order after those in it.
    overflow: Vec<SetupTriangle>,
    /// The [`single_tile`] of each of `overflow`.
    overflow_tiles: Vec<u32>,
    generated: Vec<f32>,
    counts: PrimitiveCounts,
}

impl SetupChunk {
    fn clear(&mut self) {
        self.placed = 0;
        self.overflow.clear();
        self.overflow_tiles.clear();
        self.generated.clear();
        self.counts = PrimitiveCounts::default();
    }
}

/// A draw's set-up triangles, kept by the renderer from draw to draw.
#[derive(Debug, Default)]
pub(crate) struct SetupTriangles {
    /// Storage: chunk slots of [`TRIANGLE_CHUNK`] entries, then the chunks'
    /// overflow; entries outside `ranges` are unused (stale or placeholders).
    pub storage: Vec<SetupTriangle>,
    /// Per entry of `storage`, its [`single_tile`] (read by the binner instead of
    /// the ~200-byte triangle: streaming through those to read the bounds was ~80 %
    /// of binning, cache misses).
    pub tiles: Vec<u32>,
    /// The draw's triangles in submission order: these ranges of `storage`, in order.
    pub ranges: Vec<Range<usize>>,
}

/// Where one chunk's set-up triangles go while it is processed.
struct ChunkOut<'a> {
    chunk: &'a mut SetupChunk,
    /// The chunk's slot in the draw's triangle storage, and of its tiles.
    slot: &'a mut [SetupTriangle],
    tiles: &'a mut [u32],
    /// Tiles per row of the draw's tile grid.
    tiles_x: u32,
}

impl ChunkOut<'_> {
    fn push(&mut self, t: SetupTriangle) {
        let tile = single_tile(self.tiles_x, &t.bbox());
        let at = self.chunk.placed;
        match self.slot.get_mut(at) {
            Some(place) => {
                *place = t;
                self.tiles[at] = tile;
                self.chunk.placed += 1;
            }
            None => {
                self.chunk.overflow.push(t);
                self.chunk.overflow_tiles.push(tile);
            }
        }
    }

    fn len(&self) -> usize {
        self.chunk.placed + self.chunk.overflow.len()
    }
}

/// Fixed inputs of primitive processing for one draw.
struct PrimitiveContext<'a> {
    vertices: &'a VertexBuffer,
    viewport: Viewport,
    bounds: PixelRect,
    cull: CullMode,
    /// `glPolygonOffset`, added to each triangle's depth plane.
    polygon_offset: Option<PolygonOffset>,
    /// The vertex stage's interpolation of each varying (smooth past the end).
    interpolation: &'a [Interpolation],
    /// Number of user clip distances, the last varyings of each vertex
    /// ([`crate::VertexStage::clip_distance_count`]).
    clip_distances: usize,
    /// The view-volume planes clipped against (`clip.rs`; no near/far with
    /// `depth_clamp`).
    view_planes: u8,
}

/// Processes `triangles` (vertex-buffer ids) into `out`, appending vertices made by
/// clipping to `vertices` (their varyings interpolated as `interpolation` says). The
/// last `clip_distances` varyings of each vertex are its user clip distances. The
/// set-up triangles in submission order are those of the index ranges `out.ranges`
/// of `out.storage`, in order; other entries are unused (stale or placeholders).
///
/// Each triangle is clipped and set up exactly once, by one worker: the input is cut
/// into chunks of [`TRIANGLE_CHUNK`] triangles processed in parallel, chunk `c`
/// writing its set-up triangles in order into slot `c` of `out` (entries
/// `c·TRIANGLE_CHUNK ..`, room for one per input triangle) and any past the slot's end
/// into its overflow list in `chunks` (buffers reused across draws), which is then
/// appended after all slots. So each set-up triangle (~200 bytes) is written once, not
/// written into a chunk and copied into one list (that copy was 8 % of a 1M-triangle
/// frame), and `out` and `vertices` hold the same bytes for any number of threads.
/// The pixels a draw may produce fragments in: the framebuffer, the viewport rectangle
/// (primitives are clipped to the view volume, GL 3.3 §2.20, which the guard band
/// leaves to this rectangle) and the scissor rectangle (§4.1.2).
pub(crate) fn draw_bounds(grid: &TileGrid, state: &RasterState) -> PixelRect {
    let mut bounds = grid.bounds();
    if let Some([x, y, w, h]) = state.viewport {
        let clamp = |v: i64| v.clamp(0, i64::from(u32::MAX)) as u32;
        bounds = bounds.intersect(&PixelRect {
            x0: clamp(i64::from(x)),
            y0: clamp(i64::from(y)),
            x1: clamp(i64::from(x) + i64::from(w)),
            y1: clamp(i64::from(y) + i64::from(h)),
        });
    }
    if let Some([x, y, w, h]) = state.scissor {
        bounds = bounds.intersect(&PixelRect {
            x0: x,
            y0: y,
            x1: x.saturating_add(w),
            y1: y.saturating_add(h),
        });
    }
    bounds
}

/// The draw's viewport transform: `state.viewport` (the whole framebuffer when unset)
/// and `state.depth_range` (GL 3.3 §2.13.1).
pub(crate) fn draw_viewport(grid: &TileGrid, state: &RasterState) -> Viewport {
    Viewport::with_rect(
        state
            .viewport
            .unwrap_or([0, 0, grid.width as i32, grid.height as i32]),
        state.depth_range,
    )
    .with_sample_offset(state.sample_offset)
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn setup_primitives(
    triangles: &[[u32; 3]],
    vertices: &mut VertexBuffer,
    grid: &TileGrid,
    state: &RasterState,
    interpolation: &[Interpolation],
    clip_distances: usize,
    chunks: &mut Vec<SetupChunk>,
    out: &mut SetupTriangles,
) -> PrimitiveCounts {
    let bounds = draw_bounds(grid, state);
    let tiles_x = grid.tiles_x;
    let SetupTriangles {
        storage: out,
        tiles,
        ranges,
    } = out;
    let ctx = PrimitiveContext {
        vertices,
        viewport: draw_viewport(grid, state),
        bounds,
        cull: state.cull,
        polygon_offset: state.polygon_offset,
        interpolation,
        clip_distances,
        view_planes: if state.depth_clamp {
            NO_DEPTH_PLANES
        } else {
            ALL_PLANES
        },
    };
    let used = triangles.len().div_ceil(TRIANGLE_CHUNK);
    if chunks.len() < used {
        chunks.resize_with(used, SetupChunk::default);
    }
    // `out` keeps its length from the last draw, so only growth writes placeholders
    // (page faults and a memset once, not per frame).
    out.resize(used * TRIANGLE_CHUNK, SetupTriangle::placeholder());
    tiles.resize(used * TRIANGLE_CHUNK, SPANS_TILES);
    chunks[..used]
        .par_iter_mut()
        .zip(out.par_chunks_mut(TRIANGLE_CHUNK))
        .zip(tiles.par_chunks_mut(TRIANGLE_CHUNK))
        .zip(triangles.par_chunks(TRIANGLE_CHUNK))
        .enumerate()
        // One chunk per rayon job: chunks differ in cost (culled or off-screen
        // parts of a mesh are cheap), and rayon's adaptive splitting otherwise stops
        // at about a quarter of the input per leaf, so the calling worker set up
        // twice the other's share of a 500k-triangle torus at 2 threads.
        .with_max_len(1)
        .for_each(|(c, (((chunk, slot), tiles), input))| {
            chunk.clear();
            let mut sink = ChunkOut {
                chunk,
                slot,
                tiles,
                tiles_x,
            };
            for (k, &ids) in input.iter().enumerate() {
                ctx.process(ids, (c * TRIANGLE_CHUNK + k) as u32, &mut sink);
            }
        });
    let chunks = &mut chunks[..used];
    // The vertex-buffer id each chunk's first generated vertex gets.
    let mut bases = Vec::with_capacity(used);
    let mut base = vertices.len() as u32;
    let mut counts = PrimitiveCounts::default();
    for chunk in chunks.iter() {
        bases.push(base);
        base += (chunk.generated.len() / (4 + vertices.varying_count())) as u32;
        counts.add(&chunk.counts);
    }
    // Chunk-local ids of generated vertices become vertex-buffer ids (only chunks
    // that clipped have any).
    out.par_chunks_mut(TRIANGLE_CHUNK)
        .zip(chunks.par_iter_mut())
        .zip(&bases)
        .filter(|((_, chunk), _)| !chunk.generated.is_empty())
        .for_each(|((slot, chunk), &base)| {
            let placed = chunk.placed;
            let ids = slot[..placed]
                .iter_mut()
                .chain(chunk.overflow.iter_mut())
                .flat_map(|t| &mut t.vertices);
            for id in ids {
                if *id & GENERATED != 0 {
                    *id = base + (*id & !GENERATED);
                }
            }
        });
    ranges.clear();
    for (c, chunk) in chunks.iter().enumerate() {
        let start = c * TRIANGLE_CHUNK;
        ranges.push(start..start + chunk.placed);
        if !chunk.overflow.is_empty() {
            let start = out.len();
            out.extend_from_slice(&chunk.overflow);
            tiles.extend_from_slice(&chunk.overflow_tiles);
            ranges.push(start..out.len());
        }
    }
    ranges.retain(|r| !r.is_empty());
    for chunk in chunks.iter().filter(|c| !c.generated.is_empty()) {
        vertices.append(&chunk.generated);
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

/// `v` rotated left by `r` (`0..3`): `[v[r], v[r + 1], v[r + 2]]` (indices mod 3).
/// The same as `<[T]>::rotate_left`, which calls a general memmove-based rotation:
/// ~2 % of a 500k-triangle frame for three elements.
#[inline(always)]
fn rotate3<T: Copy>(v: [T; 3], r: usize) -> [T; 3] {
    match r {
        0 => v,
        1 => [v[1], v[2], v[0]],
        _ => [v[2], v[0], v[1]],
    }
}

impl PrimitiveContext<'_> {
    fn process(&self, ids: [u32; 3], primitive: u32, out: &mut ChunkOut<'_>) {
        // The last vertex as submitted, before the canonical rotation (GL 3.0 §2.14.7).
        let provoking = ids[2];
        let p = ids.map(|id| self.vertices.position(id));
        if p.iter().flatten().any(|c| !c.is_finite()) {
            out.chunk.counts.invalid += 1;
            return;
        }
        let r = canonical_rotation(&p);
        let p = rotate3(p, r);
        let ids = rotate3(ids, r);
        let input = InputTriangle {
            primitive,
            provoking,
        };
        let user = self.user_distances(&ids);
        match clip_triangle_to(p, &user, self.view_planes) {
            ClipResult::Rejected => out.chunk.counts.clipped_away += 1,
            ClipResult::Unclipped => {
                // Almost every triangle: three window vertices, not a polygon's 24.
                let mut window = [WindowVertex::default(); 3];
                match self.project(p.into_iter(), &mut window) {
                    Some(_) => self.emit_polygon(&window, &ids, input, out),
                    None => out.chunk.counts.invalid += 1,
                }
            }
            ClipResult::Clipped(polygon) => {
                out.chunk.counts.clipped += 1;
                let mut window = [WindowVertex::default(); POLYGON_CAPACITY];
                let mut poly_ids = [0u32; POLYGON_CAPACITY];
                let vertices = polygon.vertices();
                for (slot, v) in poly_ids.iter_mut().zip(vertices) {
                    *slot = match v.original {
                        Some(k) => ids[k as usize],
                        None => self.generate(v.position, v.weights, &ids, out.chunk),
                    };
                }
                match self.project(vertices.iter().map(|v| v.position), &mut window) {
                    Some(len) => self.emit_polygon(&window[..len], &poly_ids[..len], input, out),
                    None => out.chunk.counts.invalid += 1,
                }
            }
        }
    }

    /// The user clip distances of the vertices `ids`, in that order.
    fn user_distances(&self, ids: &[u32; 3]) -> UserDistances {
        let mut user = UserDistances::NONE;
        let n = self.clip_distances;
        if n == 0 {
            return user;
        }
        user.count = n;
        let first = self.vertices.varying_count() - n;
        for (k, &id) in ids.iter().enumerate() {
            let varyings = self.vertices.varyings(id);
            for (j, d) in varyings[first..].iter().enumerate() {
                user.distances[j][k] = *d;
            }
        }
        user
    }

    /// Projects clip positions into `out` (as many as fit); the count, or `None` if
    /// any vertex cannot be projected.
    fn project(
        &self,
        positions: impl Iterator<Item = [f32; 4]>,
        out: &mut [WindowVertex],
    ) -> Option<usize> {
        let mut len = 0;
        for (slot, p) in out.iter_mut().zip(positions) {
            *slot = self.viewport.project(p)?;
            len += 1;
        }
        Some(len)
    }

    /// Stores a vertex made by clipping and returns its chunk-local id. Its varyings
    /// are blended by `weights`, linear in clip space, except the noperspective ones,
    /// which are blended linearly in window space ([`screen_weights`]). Flat varyings
    /// are blended too but never read: fragments take the provoking vertex's.
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
        let screen = screen_weights(weights, ids.map(|id| self.vertices.position(id)[3]));
        out.generated.extend((0..stride - 4).map(|k| {
            let w = match self.interpolation.get(k) {
                Some(Interpolation::NoPerspective) => &screen,
                _ => &weights,
            };
            w[0] * sources[0][k] + w[1] * sources[1][k] + w[2] * sources[2][k]
        }));
        id
    }

    /// Culls a convex polygon by its facing, then sets up its triangle fan.
    fn emit_polygon(
        &self,
        w: &[WindowVertex],
        ids: &[u32],
        input: InputTriangle,
        out: &mut ChunkOut<'_>,
    ) {
        let area = polygon_double_area(w);
        if area == 0 {
            out.chunk.counts.empty += 1;
            return;
        }
        let front_facing = area > 0;
        if self.cull.culls(front_facing) {
            out.chunk.counts.culled += 1;
            return;
        }
        // An unclipped triangle with area: `for_polygon` would pick its three
        // vertices (the smallest, the largest, and the third, the only one off the
        // line between them), and `DepthPlane::new` sorts them itself, so the plane
        // is the same bits without the search.
        let mut depth = if let [p, q, r] = w {
            DepthPlane::new([(p.pos, p.z), (q.pos, q.z), (r.pos, r.z)])
        } else {
            let mut depth_vertices = [Default::default(); POLYGON_CAPACITY];
            for (d, v) in depth_vertices.iter_mut().zip(w) {
                *d = (v.pos, v.z);
            }
            DepthPlane::for_polygon(&depth_vertices[..w.len()])
        };
        if let Some(offset) = self.polygon_offset {
            depth.offset(offset);
        }
        let info = PolygonInfo {
            front_facing,
            depth,
            primitive: input.primitive,
            provoking: input.provoking,
        };
        let before = out.len();
        for i in 1..w.len() - 1 {
            let tri = [w[0], w[i], w[i + 1]];
            let tri_ids = [ids[0], ids[i], ids[i + 1]];
            if let Some(t) = setup_triangle(tri, tri_ids, &info, &self.bounds) {
                out.push(t);
            }
        }
        let made = (out.len() - before) as u64;
        out.chunk.counts.rasterized += made;
        if made == 0 {
            out.chunk.counts.empty += 1;
        }
    }
}

/// Which input triangle a polygon came from.
#[derive(Clone, Copy, Debug)]
struct InputTriangle {
    /// Its index within the draw.
    primitive: u32,
    /// Vertex-buffer id of its provoking vertex.
    provoking: u32,
}

/// The window-space weights of a point whose clip-space weights over three vertices
/// with clip `w` values `w` are `weights`: its projection is
/// `Σ weights_i·x_i / Σ weights_j·w_j = Σ s_i · (x_i / w_i)` with
/// `s_i = weights_i·w_i / Σ weights_j·w_j`, so a value linear in window space over the
/// triangle is `Σ s_i·v_i` there (GL 3.0 §2.20, noperspective varyings of clipped
/// vertices). A point at `w = 0` (only on the near plane's edge case) keeps `weights`.
fn screen_weights(weights: [f32; 3], w: [f32; 3]) -> [f32; 3] {
    let s: [f32; 3] = std::array::from_fn(|i| weights[i] * w[i]);
    let sum = s[0] + s[1] + s[2];
    if sum == 0.0 || !sum.is_finite() {
        return weights;
    }
    s.map(|v| v / sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draw_bounds_are_framebuffer_viewport_and_scissor() {
        let grid = TileGrid::new(100, 80);
        let rect = |x0, y0, x1, y1| PixelRect { x0, y0, x1, y1 };
        let mut state = RasterState::default();
        assert_eq!(draw_bounds(&grid, &state), rect(0, 0, 100, 80));
        state.viewport = Some([-10, 20, 50, 200]);
        assert_eq!(draw_bounds(&grid, &state), rect(0, 20, 40, 80));
        state.scissor = Some([30, 10, 30, 30]);
        assert_eq!(draw_bounds(&grid, &state), rect(30, 20, 40, 40));
        state.viewport = None;
        assert_eq!(draw_bounds(&grid, &state), rect(30, 10, 60, 40));
        state.scissor = Some([5, 5, 0, 10]);
        assert!(draw_bounds(&grid, &state).is_empty());
    }

    #[test]
    fn a_triangle_plane_is_the_polygon_plane_of_its_vertices() {
        use crate::edge::FixedPoint;
        let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15u64);
        let mut checked = 0;
        for _ in 0..5000 {
            // Small coordinates so ties in x, y and z happen often.
            let mut v = [(FixedPoint::default(), 0.0f32); 3];
            for p in &mut v {
                let r = next();
                p.0 = FixedPoint {
                    x: (r % 7) as i64 * 96 - 200,
                    y: (r >> 8) as i64 % 5 * 128,
                };
                p.1 = ((r >> 20) % 4) as f32 * 0.25;
            }
            if v[0].0.cross(v[1].0, v[2].0) == 0 {
                continue;
            }
            checked += 1;
            assert_eq!(DepthPlane::new(v), DepthPlane::for_polygon(&v), "{v:?}");
        }
        assert!(checked > 1000, "{checked}");
    }

    /// Triangles `0..count`, each reaching past the near plane (its third vertex at
    /// z = -2w), so each is clipped to a quad: two set-up triangles per input.
    fn near_clipped(count: usize) -> (VertexBuffer, Vec<[u32; 3]>) {
        let mut data = Vec::new();
        for t in 0..count {
            let dx = (t % 13) as f32 * 0.05 - 0.3;
            let value = t as f32;
            data.extend_from_slice(&[-0.5 + dx, -0.5, 0.0, 1.0, value]);
            data.extend_from_slice(&[0.5 + dx, -0.5, 0.5, 1.0, value + 0.5]);
            data.extend_from_slice(&[dx, 0.5, -2.0, 1.0, value + 0.25]);
        }
        let ids = (0..count as u32)
            .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
            .collect();
        (VertexBuffer::from_records(1, data), ids)
    }

    /// Buffers [`setup_primitives`] reuses from draw to draw.
    #[test]
    fn rotate3_is_rotate_left() {
        for r in 0..3 {
            let mut expected = [10, 11, 12];
            expected.rotate_left(r);
            assert_eq!(rotate3([10, 11, 12], r), expected, "{r}");
        }
    }

    type Buffers = (Vec<SetupChunk>, SetupTriangles);

    /// The draw's set-up triangles in submission order, each as (input triangle,
    /// edges, bounds, its vertices' records).
    #[allow(clippy::type_complexity)]
    fn setup_all(
        buffers: &mut Buffers,
        vertices: &mut VertexBuffer,
        ids: &[[u32; 3]],
    ) -> (
        PrimitiveCounts,
        Vec<(u32, [crate::edge::EdgeFunction; 3], PixelRect, Vec<f32>)>,
    ) {
        let grid = TileGrid::new(100, 100);
        let (chunks, out) = buffers;
        let counts = setup_primitives(
            ids,
            vertices,
            &grid,
            &RasterState::default(),
            &[],
            0,
            chunks,
            out,
        );
        let triangles = out
            .ranges
            .iter()
            .flat_map(|r| r.clone())
            .map(|i| {
                let t = &out.storage[i];
                assert_eq!(out.tiles[i], single_tile(grid.tiles_x, &t.bbox()));
                let records = t
                    .vertices
                    .iter()
                    .flat_map(|&id| {
                        let mut r = vertices.position(id).to_vec();
                        r.extend_from_slice(vertices.varyings(id));
                        r
                    })
                    .collect();
                (t.primitive, t.edges, t.bbox(), records)
            })
            .collect();
        (counts, triangles)
    }

    #[test]
    fn triangles_past_a_chunk_slot_keep_submission_order() {
        // Two set-up triangles per input: every full chunk fills its slot halfway
        // through and puts the rest in its overflow list.
        let count = 2 * TRIANGLE_CHUNK + 7;
        let (mut vertices, ids) = near_clipped(count);
        let mut buffers = Buffers::default();
        let (counts, all) = setup_all(&mut buffers, &mut vertices, &ids);
        assert_eq!(counts.clipped, count as u64);
        assert_eq!(counts.rasterized, 2 * count as u64);
        assert_eq!(all.len(), 2 * count);
        // Each input triangle set up alone (no overflow) gives the same triangles,
        // vertex records included (generated vertices renumbered per draw).
        for (t, tri) in ids.iter().enumerate() {
            let (mut alone, _) = near_clipped(count);
            let (_, expected) = setup_all(&mut Buffers::default(), &mut alone, &[*tri]);
            assert_eq!(expected.len(), 2);
            for (k, (primitive, edges, bbox, records)) in expected.into_iter().enumerate() {
                let got = &all[2 * t + k];
                assert_eq!(got.0, t as u32);
                assert_eq!(primitive, 0);
                assert_eq!((got.1, got.2), (edges, bbox), "triangle {t}.{k}");
                assert_eq!(got.3, records, "triangle {t}.{k}");
            }
        }
        // A smaller draw, then the same draw again, with the buffers reused: stale
        // entries and overflow lists do not leak into the result.
        let (mut small, _) = near_clipped(count);
        assert_eq!(setup_all(&mut buffers, &mut small, &ids[5..9]).1.len(), 8);
        let (mut again, _) = near_clipped(count);
        assert_eq!(setup_all(&mut buffers, &mut again, &ids).1, all);
    }

    #[test]
    fn rotation_starts_at_smallest_vertex() {
        let a = [0.0, 0.0, 0.0, 1.0];
        let b = [1.0, 0.0, 0.0, 1.0];
        let c = [-1.0, 5.0, 0.0, 1.0];
        assert_eq!(canonical_rotation(&[a, b, c]), 2);
        assert_eq!(canonical_rotation(&[c, a, b]), 0);
        assert_eq!(canonical_rotation(&[b, c, a]), 1);
    }

    #[test]
    fn screen_weights_follow_the_projection() {
        // Halfway (in clip space) between a vertex at w = 1 and one at w = 3: the point
        // has w = 2 and projects to (1·x0 + 3·(x1/3)) / 4 of the way, i.e. 3/4 of
        // the way to vertex 1 in window space.
        assert_eq!(
            screen_weights([0.5, 0.5, 0.0], [1.0, 3.0, 7.0]),
            [0.25, 0.75, 0.0]
        );
        // Equal w: window-space and clip-space weights agree.
        assert_eq!(
            screen_weights([0.2, 0.3, 0.5], [2.0, 2.0, 2.0]),
            [0.2, 0.3, 0.5]
        );
        assert_eq!(
            screen_weights([0.5, 0.5, 0.0], [1.0, -1.0, 1.0]),
            [0.5, 0.5, 0.0]
        );
    }
}
