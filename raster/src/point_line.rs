//! Points and line segments (GL 3.3 core §3.4, §3.5), rasterized as the window-space
//! quads that cover exactly their fragments, each quad set up as two triangles of the
//! ordinary triangle path (so depth, the fragment stage, blending and the tile loops
//! are the triangles' own, and the fill rule, `edge.rs`, decides centres on an edge).
//!
//! A draw of points or lines hands the rasterizer the same index triples as a
//! triangle draw ([`crate::DrawCall::indices`]): a point is `[v, v, v]` (its first
//! index is used), a segment `[a, b, p]`, from `a` to `b`, whose flat varyings come
//! from vertex `p` (its provoking vertex, GL 3.3 core §2.18: `a` or `b`, or a vertex
//! of another primitive, as a polygon drawn in `GL_LINE` mode gives its edges its own
//! provoking vertex). Whatever produced those vertices (a vertex stage, later a
//! geometry stage) feeds this module the same way.
//!
//! **Points** (§3.4, point sprites, the only points of a core profile): a point is
//! discarded when its centre lies outside the view volume or a user clip plane (GL 3.3
//! core §2.20: "if the vertex lies outside the clip volume, the point is discarded";
//! a point whose centre is inside is drawn whole, its square cut only by the
//! framebuffer). Otherwise it covers the pixel centres inside the square of side
//! `size` centred on it (snapped to 1/256 pixel as llvmpipe snaps it, at least one
//! pixel wide; a centre on the left or bottom side is inside, on the right or top
//! side outside, the triangles' fill rule). Every varying takes the point's value
//! (in polygon point mode, flat ones the triangle's provoking vertex's);
//! `gl_PointCoord` runs from (0, 0) at the square's upper-left corner to (1, 1) at its
//! lower-right (GL 3.3 core §3.4, `GL_POINT_SPRITE_COORD_ORIGIN` `GL_UPPER_LEFT`).
//!
//! **Lines** (§3.5, aliased): a segment is clipped against the view volume and the user
//! clip planes in clip space (its clipped ends take varyings interpolated there, as
//! triangles' clipped vertices do). Along its major axis (x when |Δx| ≥ |Δy|) it covers
//! the columns (rows) whose pixel centres it passes, start included and end
//! excluded, by the diamond-exit rule (§3.5.1): the fragment at a column is produced
//! when the segment leaves that fragment's diamond |x − x_c| + |y − y_c| < ½, so a
//! segment starting inside a diamond draws that fragment, and one ending inside a
//! diamond does not. Across, it covers the `width` rows (columns) whose centres lie
//! within `width / 2` of the segment (width rounded to an integer, at least 1: GL's
//! aliased wide lines, §3.5.2, as llvmpipe draws them). Varyings are interpolated
//! along the segment as GL's line formula gives (perspective-correct in `t`, linear
//! in window space for `noperspective`), constant across it; flat ones take the
//! provoking vertex's.
//!
//! Points and lines are always front-facing (`gl_FrontFacing` is true, GL 3.3 core
//! §3.6.1 applies facing to polygons only) and face culling does not apply to them.

use crate::bin::single_tile;
use crate::clip::MAX_CLIP_DISTANCES;
use crate::depth::DepthPlane;
use crate::edge::{FixedPoint, SUBPIXEL_ONE};
use crate::primitive::{PrimitiveCounts, SetupTriangles, draw_bounds, draw_viewport};
use crate::setup::{PolygonInfo, setup_triangle};
use crate::stage::Interpolation;
use crate::state::{CullMode, RasterState};
use crate::tile::{PixelRect, TileGrid};
use crate::vertex::VertexBuffer;
use crate::viewport::{Viewport, WindowVertex, snap};

/// The largest point size and line width, in pixels: llvmpipe's
/// (`GL_ALIASED_POINT_SIZE_RANGE`, `GL_ALIASED_LINE_WIDTH_RANGE` end at 255 there); a
/// larger size or width draws at this one.
pub const MAX_POINT_SIZE: f32 = 255.0;

/// How a draw's primitives are rasterized.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Topology {
    /// Triangles (the default): each index triple is a triangle.
    #[default]
    Triangles,
    /// Points: each triple's first index is a point.
    Points(PointRaster),
    /// Line segments: triple `[a, b, p]` is the segment from `a` to `b` with
    /// provoking vertex `p`.
    Lines(LineRaster),
    /// Triangles drawn as their edges (`glPolygonMode(GL_LINE)`, GL 3.3 core
    /// §3.6.4): each triple `[a, b, c]` (provoking vertex `c`) that survives the
    /// draw's face culling is drawn as the segments `a→b`, `b→c`, `c→a`, each with
    /// provoking vertex `c`; each segment is clipped alone, so clipping adds no edge.
    PolygonEdges(LineRaster),
    /// Triangles drawn as their vertices (`glPolygonMode(GL_POINT)`): `a`, `b`, `c` of
    /// each triple that survives culling.
    PolygonVertices(PointRaster),
}

/// How points are drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointRaster {
    /// The size in pixels when `size_varying` is `None` (`glPointSize`, default 1).
    pub size: f32,
    /// The varying (index into a vertex's varyings) holding each point's size
    /// (`gl_PointSize` with `GL_PROGRAM_POINT_SIZE` enabled), or `None`.
    pub size_varying: Option<usize>,
    /// The varying the rasterizer writes `gl_PointCoord` into, s then t (two
    /// consecutive varyings), or `None` when the fragment stage does not read it.
    pub coord_varying: Option<usize>,
}

impl Default for PointRaster {
    fn default() -> Self {
        PointRaster {
            size: 1.0,
            size_varying: None,
            coord_varying: None,
        }
    }
}

/// How lines are drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineRaster {
    /// `glLineWidth` in pixels (default 1), rounded to an integer, at least 1 and at
    /// most [`MAX_POINT_SIZE`].
    pub width: f32,
}

impl Default for LineRaster {
    fn default() -> Self {
        LineRaster { width: 1.0 }
    }
}

/// The interpolation a draw of `topology` gives its `count` varyings, when it is not
/// the vertex stage's `interpolation`: a points draw reads every varying from the
/// point itself (flat, its own vertex provoking), polygon point mode keeps the
/// stage's (the corners hold the point's own values, flat ones the triangle's
/// provoking vertex's); in both `gl_PointCoord`'s two are linear across the square.
pub(crate) fn point_interpolation(
    topology: &Topology,
    count: usize,
    interpolation: &[Interpolation],
) -> Option<Vec<Interpolation>> {
    let (points, mut modes) = match topology {
        Topology::Points(p) => (p, vec![Interpolation::Flat; count]),
        Topology::PolygonVertices(p) => {
            let mut modes = interpolation.to_vec();
            modes.resize(count, Interpolation::Smooth);
            (p, modes)
        }
        _ => return None,
    };
    if let Some(c) = points.coord_varying {
        for m in modes.iter_mut().skip(c).take(2) {
            *m = Interpolation::NoPerspective;
        }
    }
    Some(modes)
}

/// Sets up the points or lines `primitives` (index triples as the module docs say,
/// vertex-buffer ids) of a [`Topology::Points`] or [`Topology::Lines`] draw into
/// `out`, appending the quads' corner vertices to `vertices`. `interpolation` is the
/// draw's (smooth past its end), `clip_distances` the number of user clip distances
/// (the last varyings). Sequential: the set-up triangles are in primitive order.
#[allow(clippy::too_many_arguments)]
pub(crate) fn setup_points_lines(
    topology: Topology,
    primitives: &[[u32; 3]],
    vertices: &mut VertexBuffer,
    grid: &TileGrid,
    state: &RasterState,
    interpolation: &[Interpolation],
    clip_distances: usize,
    out: &mut SetupTriangles,
) -> PrimitiveCounts {
    let cull = state.cull;
    let mut setup = QuadSetup {
        vertices,
        viewport: draw_viewport(grid, state),
        bounds: draw_bounds(grid, state),
        interpolation,
        clip_distances: clip_distances.min(MAX_CLIP_DISTANCES),
        generated: Vec::new(),
        base: vertices.len() as u32,
        counts: PrimitiveCounts::default(),
        out,
        grid,
        depth_clamp: state.depth_clamp,
    };
    setup.out.storage.clear();
    setup.out.tiles.clear();
    setup.out.ranges.clear();
    for (k, &triple) in primitives.iter().enumerate() {
        match topology {
            Topology::Points(points) => setup.point(triple[0], triple[0], k as u32, &points),
            Topology::Lines(lines) => setup.line(triple, k as u32, &lines),
            Topology::PolygonEdges(lines) => {
                if setup.culled(triple, cull) {
                    continue;
                }
                let [a, b, c] = triple;
                for [p, q] in [[a, b], [b, c], [c, a]] {
                    setup.line([p, q, c], k as u32, &lines);
                }
            }
            Topology::PolygonVertices(points) => {
                if setup.culled(triple, cull) {
                    continue;
                }
                // the triangle's provoking vertex gives every point its flat values
                for v in triple {
                    setup.point(v, triple[2], k as u32, &points);
                }
            }
            Topology::Triangles => {}
        }
    }
    let counts = setup.counts;
    let generated = std::mem::take(&mut setup.generated);
    let len = setup.out.storage.len();
    if len > 0 {
        setup.out.ranges.push(0..len);
    }
    vertices.append(&generated);
    counts
}

/// The state of one draw's point or line setup.
struct QuadSetup<'a> {
    vertices: &'a VertexBuffer,
    viewport: Viewport,
    interpolation: &'a [Interpolation],
    clip_distances: usize,
    /// Corner vertex records made so far, to append to the vertex buffer.
    generated: Vec<f32>,
    /// The vertex-buffer id of the first generated record.
    base: u32,
    counts: PrimitiveCounts,
    out: &'a mut SetupTriangles,
    grid: &'a TileGrid,
    /// The pixels the draw may touch: framebuffer, viewport and scissor.
    bounds: PixelRect,
    /// `depth_clamp` (GL 3.3 §2.20): no clipping at the near and far planes.
    depth_clamp: bool,
}

/// One end of a (clipped) segment: clip position and varyings.
struct End {
    position: [f32; 4],
    varyings: Vec<f32>,
}

impl QuadSetup<'_> {
    /// Whether `cull` removes triangle `ids` (GL 3.3 core §3.6.1: facing by the sign
    /// of its window-space area, counter-clockwise front). The sign comes from the
    /// clip positions, `det[x y w]` of the three vertices, which has the window
    /// area's sign wherever the w are positive and needs no projection. A triangle
    /// without area or with a non-finite position counts as front-facing.
    fn culled(&mut self, ids: [u32; 3], cull: CullMode) -> bool {
        if cull == CullMode::Disabled {
            return false;
        }
        let p = ids.map(|id| self.vertices.position(id).map(f64::from));
        let det = p[0][0] * (p[1][1] * p[2][3] - p[2][1] * p[1][3])
            - p[1][0] * (p[0][1] * p[2][3] - p[2][1] * p[0][3])
            + p[2][0] * (p[0][1] * p[1][3] - p[1][1] * p[0][3]);
        let area = det * p[0][3] * p[1][3] * p[2][3];
        let front = area >= 0.0 || area.is_nan();
        let culled = cull.culls(front);
        if culled {
            self.counts.culled += 1;
        }
        culled
    }

    /// The distances of clip position `p` to the view volume's six planes (x, y, then
    /// near and far; with `depth_clamp` the near and far ones are `w`, which only
    /// keeps `w ≥ 0`, as the x and y planes do already).
    fn volume_distances(&self, p: [f32; 4]) -> [f32; 6] {
        let [x, y, z, w] = p;
        let (near, far) = if self.depth_clamp {
            (w, w)
        } else {
            (w + z, w - z)
        };
        [w + x, w - x, w + y, w - y, near, far]
    }

    /// Whether clip position `p` with varyings `v` is inside the view volume and every
    /// user clip plane (a NaN is outside).
    fn inside(&self, p: [f32; 4], v: &[f32]) -> bool {
        let volume = self.volume_distances(p);
        let user = &v[v.len() - self.clip_distances..];
        volume.iter().chain(user).all(|&d| d >= 0.0)
    }

    /// A new vertex record (clip position, then varyings); its vertex-buffer id.
    fn generate(&mut self, position: [f32; 4], varyings: impl IntoIterator<Item = f32>) -> u32 {
        let stride = 4 + self.vertices.varying_count();
        let id = self.base + (self.generated.len() / stride) as u32;
        self.generated.extend_from_slice(&position);
        self.generated.extend(varyings);
        id
    }

    /// Sets up the convex counter-clockwise quad `corners` (vertex ids `ids`) as two
    /// triangles of primitive `primitive` with provoking vertex `provoking`.
    fn emit_quad(
        &mut self,
        corners: [WindowVertex; 4],
        ids: [u32; 4],
        primitive: u32,
        provoking: u32,
    ) {
        let depth = DepthPlane::for_polygon(&corners.map(|c| (c.pos, c.z)));
        let info = PolygonInfo {
            front_facing: true,
            depth,
            primitive,
            provoking,
        };
        let bounds = self.bounds;
        let mut made = 0;
        for [i, j, k] in [[0, 1, 2], [0, 2, 3]] {
            let tri = [corners[i], corners[j], corners[k]];
            if let Some(t) = setup_triangle(tri, [ids[i], ids[j], ids[k]], &info, &bounds) {
                self.out
                    .tiles
                    .push(single_tile(self.grid.tiles_x, &t.bbox()));
                self.out.storage.push(t);
                made += 1;
            }
        }
        self.counts.rasterized += made;
        if made == 0 {
            self.counts.empty += 1;
        }
    }

    /// Point `id` of primitive `primitive` whose flat varyings come from vertex
    /// `provoking`: itself in a points draw (which reads every varying flat, and
    /// `gl_PointCoord` from the corners), the triangle's provoking vertex in polygon
    /// point mode (whose other varyings are the point's own, on every corner).
    fn point(&mut self, id: u32, provoking: u32, primitive: u32, points: &PointRaster) {
        let p = self.vertices.position(id);
        if p.iter().any(|c| !c.is_finite()) {
            self.counts.invalid += 1;
            return;
        }
        if !self.inside(p, self.vertices.varyings(id)) {
            self.counts.clipped_away += 1;
            return;
        }
        let Some(centre) = self.viewport.project(p) else {
            self.counts.invalid += 1;
            return;
        };
        let size = match points.size_varying {
            Some(k) => self.vertices.varyings(id).get(k).copied().unwrap_or(1.0),
            None => points.size,
        };
        // at least one pixel, as llvmpipe's fixed-point width (a NaN size too)
        let size = if size >= 1.0 {
            size.min(MAX_POINT_SIZE)
        } else {
            1.0
        };
        let width = snap(size).unwrap_or(SUBPIXEL_ONE).max(SUBPIXEL_ONE);
        let (x0, y0) = (centre.pos.x - width / 2, centre.pos.y - width / 2);
        let (x1, y1) = (x0 + width, y0 + width);
        let corner = |x: i64, y: i64| WindowVertex {
            pos: FixedPoint { x, y },
            ..centre
        };
        let corners = [
            corner(x0, y0),
            corner(x1, y0),
            corner(x1, y1),
            corner(x0, y1),
        ];
        // (s, t) at each corner: s left to right, t top (y1) to bottom (y0)
        // Corners of their own when the point's values are not its provoking
        // vertex's (polygon point mode) or gl_PointCoord varies across them.
        let ids = match (points.coord_varying, provoking == id) {
            (None, true) => [id; 4],
            (coord, _) => [[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]].map(|st| {
                let mut v = self.vertices.varyings(id).to_vec();
                if let Some(slot) = coord.and_then(|c| v.get_mut(c..c + 2)) {
                    slot.copy_from_slice(&st);
                }
                self.generate(p, v)
            }),
        };
        self.emit_quad(corners, ids, primitive, provoking);
    }

    /// The segment `[a, b]` clipped (Liang–Barsky in clip space against the view
    /// volume's six planes and the user clip distances): its ends, or `None` when
    /// nothing of it is inside. A NaN distance rejects it.
    fn clip_segment(&mut self, a: u32, b: u32) -> Option<[End; 2]> {
        let (pa, pb) = (self.vertices.position(a), self.vertices.position(b));
        let (va, vb) = (self.vertices.varyings(a), self.vertices.varyings(b));
        let distances = |p: [f32; 4], v: &[f32]| {
            let mut d = self.volume_distances(p).to_vec();
            d.extend_from_slice(&v[v.len() - self.clip_distances..]);
            d
        };
        let (da, db) = (distances(pa, va), distances(pb, vb));
        let (mut t0, mut t1) = (0.0f32, 1.0f32);
        for (&a, &b) in da.iter().zip(&db) {
            if a.is_nan() || b.is_nan() || (a < 0.0 && b < 0.0) {
                return None;
            }
            if a < 0.0 {
                t0 = t0.max(a / (a - b));
            } else if b < 0.0 {
                t1 = t1.min(a / (a - b));
            }
        }
        if t0 > t1 {
            return None;
        }
        if t0 > 0.0 || t1 < 1.0 {
            self.counts.clipped += 1;
        }
        let end = |t: f32| {
            if t == 0.0 {
                return End {
                    position: pa,
                    varyings: va.to_vec(),
                };
            }
            if t == 1.0 {
                return End {
                    position: pb,
                    varyings: vb.to_vec(),
                };
            }
            let position = std::array::from_fn(|c| pa[c] + t * (pb[c] - pa[c]));
            // noperspective varyings blend linearly in window space (GL 3.3 core §2.20)
            let s = {
                let (wa, wb) = ((1.0 - t) * pa[3], t * pb[3]);
                if wa + wb != 0.0 { wb / (wa + wb) } else { t }
            };
            let varyings = (0..va.len())
                .map(|k| {
                    let u = match self.interpolation.get(k) {
                        Some(Interpolation::NoPerspective) => s,
                        _ => t,
                    };
                    va[k] + u * (vb[k] - va[k])
                })
                .collect();
            End { position, varyings }
        };
        Some([end(t0), end(t1)])
    }

    fn line(&mut self, [a, b, provoking]: [u32; 3], primitive: u32, lines: &LineRaster) {
        let (pa, pb) = (self.vertices.position(a), self.vertices.position(b));
        if pa.iter().chain(&pb).any(|c| !c.is_finite()) {
            self.counts.invalid += 1;
            return;
        }
        let Some(ends) = self.clip_segment(a, b) else {
            self.counts.clipped_away += 1;
            return;
        };
        let (Some(wa), Some(wb)) = (
            self.viewport.project(ends[0].position),
            self.viewport.project(ends[1].position),
        ) else {
            self.counts.invalid += 1;
            return;
        };
        let one = SUBPIXEL_ONE as f64;
        let (xa, ya) = (wa.pos.x as f64 / one, wa.pos.y as f64 / one);
        let (xb, yb) = (wb.pos.x as f64 / one, wb.pos.y as f64 / one);
        let x_major = (xb - xa).abs() >= (yb - ya).abs();
        // (major, minor) coordinates of each end
        let (ma, na, mb, nb) = match x_major {
            true => (xa, ya, xb, yb),
            false => (ya, xa, yb, xb),
        };
        if ma == mb {
            self.counts.empty += 1;
            return;
        }
        let Some((first, last)) = major_span(ma, na, mb, nb) else {
            self.counts.empty += 1;
            return;
        };
        let width = lines.width.round().clamp(1.0, MAX_POINT_SIZE) as f64;
        let width = if width.is_nan() { 1.0 } else { width };
        let (m0, m1) = (first as f64, (last + 1) as f64);
        let slope = (nb - na) / (mb - ma);
        let minor = |m: f64| na + (m - ma) * slope;
        // corners counter-clockwise in window space (y up), as (major, minor)
        let quad = match x_major {
            true => [
                (m0, minor(m0) - width / 2.0),
                (m1, minor(m1) - width / 2.0),
                (m1, minor(m1) + width / 2.0),
                (m0, minor(m0) + width / 2.0),
            ],
            false => [
                (m0, minor(m0) + width / 2.0),
                (m1, minor(m1) + width / 2.0),
                (m1, minor(m1) - width / 2.0),
                (m0, minor(m0) - width / 2.0),
            ],
        };
        let mut corners = [WindowVertex::default(); 4];
        let mut ids = [0u32; 4];
        for (k, &(m, n)) in quad.iter().enumerate() {
            let u = ((m - ma) / (mb - ma)) as f32;
            let (x, y) = if x_major { (m, n) } else { (n, m) };
            let fixed = |v: f64| (v * one).round() as i64;
            let lerp = |p: f32, q: f32| p + u * (q - p);
            let mut inv_w = lerp(wa.inv_w, wb.inv_w);
            if !(inv_w > 0.0 && inv_w.is_finite()) {
                inv_w = if u < 0.5 { wa.inv_w } else { wb.inv_w };
            }
            corners[k] = WindowVertex {
                pos: FixedPoint {
                    x: fixed(x),
                    y: fixed(y),
                },
                z: lerp(wa.z, wb.z),
                inv_w,
            };
            let (va, vb) = (&ends[0].varyings, &ends[1].varyings);
            let varyings: Vec<f32> = (0..va.len())
                .map(|j| match self.interpolation.get(j) {
                    Some(Interpolation::NoPerspective) => lerp(va[j], vb[j]),
                    Some(Interpolation::Flat) => va[j],
                    _ => lerp(va[j] * wa.inv_w, vb[j] * wb.inv_w) / inv_w,
                })
                .collect();
            let position = [x as f32, y as f32, corners[k].z, 1.0 / inv_w];
            ids[k] = self.generate(position, varyings);
        }
        self.emit_quad(corners, ids, primitive, provoking);
    }
}

/// The first and last pixel (column of an x-major segment, row of a y-major one) that
/// a segment from `(ma, na)` to `(mb, nb)` (major, minor window coordinates, pixel
/// centres at `k + ½`) draws along its major axis: those whose centres it passes,
/// start included, end excluded, with GL's diamond-exit rule at the two ends (GL 3.3
/// core §3.5.1): the start pixel is drawn when the start lies inside its diamond, the
/// end pixel is not when the end lies inside its diamond. `None`: no pixel.
fn major_span(ma: f64, na: f64, mb: f64, nb: f64) -> Option<(i64, i64)> {
    let forward = mb > ma;
    let (mut first, mut last) = if forward {
        // centres in [ma, mb)
        ((ma - 0.5).ceil() as i64, (mb - 0.5).ceil() as i64 - 1)
    } else {
        // centres in (mb, ma]
        ((mb - 0.5).floor() as i64 + 1, (ma - 0.5).floor() as i64)
    };
    let in_diamond =
        |m: f64, n: f64| (m - (m.floor() + 0.5)).abs() + (n - (n.floor() + 0.5)).abs() < 0.5;
    if in_diamond(ma, na) {
        let start = ma.floor() as i64;
        first = first.min(start);
        last = last.max(start);
    }
    if in_diamond(mb, nb) {
        let end = mb.floor() as i64;
        if forward {
            last = last.min(end - 1);
        } else {
            first = first.max(end + 1);
        }
    }
    (first <= last).then_some((first, last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_major_span_keeps_the_centres_passed_with_the_diamond_rule_at_the_ends() {
        // from x = 1.2 to 5.7 on a row centre line: centres 1.5 ..= 5.5 (pixels 1..=5)
        // — but 5.7 lies inside pixel 5's diamond (|0.2| + 0 < ½): pixel 5 is not drawn
        assert_eq!(major_span(1.2, 3.5, 5.7, 3.5), Some((1, 4)));
        // off the centre line by 0.4, the end is outside the diamond: pixel 5 drawn
        assert_eq!(major_span(1.2, 3.5, 5.7, 3.9), Some((1, 5)));
        // starting at 1.7 inside pixel 1's diamond: pixel 1 drawn though 1.5 < 1.7
        assert_eq!(major_span(1.7, 3.5, 5.0, 3.5), Some((1, 4)));
        // the same segments reversed: pixel 1 ends, pixel 5 starts
        assert_eq!(major_span(5.7, 3.5, 1.2, 3.5), Some((2, 5)));
        assert_eq!(major_span(5.0, 3.5, 1.7, 3.5), Some((2, 4)));
        // within one pixel, starting and ending in the same diamond: nothing
        assert_eq!(major_span(2.4, 0.5, 2.6, 0.5), None);
    }

    #[test]
    fn a_points_draw_is_flat_but_for_the_point_coordinate() {
        let p = PointRaster {
            coord_varying: Some(4),
            ..PointRaster::default()
        };
        let m = point_interpolation(&Topology::Points(p), 7, &[]).unwrap();
        assert_eq!(m[3], Interpolation::Flat);
        assert_eq!(m[4..6], [Interpolation::NoPerspective; 2]);
        assert_eq!(m[6], Interpolation::Flat);
        // polygon point mode keeps the stage's, smooth past its end
        let stage = [Interpolation::Flat, Interpolation::Smooth];
        let m = point_interpolation(&Topology::PolygonVertices(p), 7, &stage).unwrap();
        assert_eq!(m[..2], stage);
        assert_eq!(m[3], Interpolation::Smooth);
        assert_eq!(m[4..6], [Interpolation::NoPerspective; 2]);
        assert!(point_interpolation(&Topology::Triangles, 7, &stage).is_none());
    }
}
