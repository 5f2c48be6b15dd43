//! Triangle setup: winding, fill-rule edge functions, pixel bounds, the depth plane and
//! the per-vertex 1/w used for perspective correction.

use crate::depth::DepthPlane;
use crate::edge::{EdgeFunction, FixedPoint, PIXEL_CENTER, SUBPIXEL_ONE};
use crate::tile::PixelRect;
use crate::viewport::WindowVertex;

/// A triangle ready for rasterization, wound counter-clockwise.
///
/// Two cache lines exactly (128 bytes, 64-aligned): every set-up triangle is written
/// once by setup and read once per tile by the rasterizer, whose first touch of it is
/// a cache miss (a 1M-triangle frame streams all of them), so what can be derived
/// cheaply is derived (the edge steps and bias, `edge.rs`; `1 / (2·area)` from the
/// edges) and the bounds are `u16` (framebuffers are at most
/// [`MAX_FRAMEBUFFER_SIZE`](crate::MAX_FRAMEBUFFER_SIZE) = 16384 pixels wide).
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub(crate) struct SetupTriangle {
    /// Edge `i` is the edge opposite vertex `i` (`v1→v2`, `v2→v0`, `v0→v1`), so its
    /// exact value divided by `2·area` is vertex `i`'s screen-space barycentric.
    pub edges: [EdgeFunction; 3],
    /// Window depth plane.
    pub depth: DepthPlane,
    /// [`SetupTriangle::bbox`] as `[x0, y0, x1, y1]`.
    bounds: [u16; 4],
    /// Vertex-buffer ids of the three vertices, in the same order as `edges`.
    pub vertices: [u32; 3],
    /// 1/w of each vertex divided by the largest of the three (so in (0, 1]).
    pub inv_w: [f32; 3],
    /// The largest 1/w: true 1/w = `inv_w[i] · inv_w_scale`.
    pub inv_w_scale: f32,
    /// Counter-clockwise as submitted (before setup's own reordering).
    pub front_facing: bool,
    /// Input triangle index within the draw.
    pub primitive: u32,
    /// Vertex-buffer id of the input triangle's provoking vertex (its last, GL 3.0
    /// §2.14.7), whose varyings flat varyings take.
    pub provoking: u32,
}

impl SetupTriangle {
    /// Pixels whose centres can be covered, clamped to the framebuffer; not empty.
    #[inline(always)]
    pub fn bbox(&self) -> PixelRect {
        let [x0, y0, x1, y1] = self.bounds.map(u32::from);
        PixelRect { x0, y0, x1, y1 }
    }

    /// 1 / (2·area) in fixed units² (positive): the three exact edge values at any
    /// point sum to twice the counter-clockwise area (each is twice the area of the
    /// triangle the point makes with its edge), exactly in `i64` (each is below 2^61
    /// in magnitude, coordinates being below 2^29), so this is the same `f64` as
    /// `1 / |cross|` of the vertices.
    #[inline(always)]
    pub fn inv_double_area(&self) -> f64 {
        let double_area: i64 = self.edges.iter().map(|e| e.exact_at(0, 0)).sum();
        1.0 / double_area as f64
    }

    /// A placeholder for storage slots that hold no triangle of the current draw
    /// (see [`crate::primitive::setup_primitives`]); never binned, so never read.
    pub fn placeholder() -> Self {
        let origin = FixedPoint::default();
        let edge = EdgeFunction::new(origin, origin);
        SetupTriangle {
            edges: [edge; 3],
            depth: DepthPlane::new([(origin, 0.0); 3]),
            bounds: [0; 4],
            vertices: [0; 3],
            inv_w: [1.0; 3],
            inv_w_scale: 1.0,
            front_facing: true,
            primitive: 0,
            provoking: 0,
        }
    }
}

/// Twice the signed area of a polygon of snapped window positions (positive when
/// counter-clockwise); exact.
pub(crate) fn polygon_double_area(points: &[WindowVertex]) -> i128 {
    let Some((first, rest)) = points.split_first() else {
        return 0;
    };
    rest.windows(2)
        .map(|w| i128::from(first.pos.cross(w[0].pos, w[1].pos)))
        .sum()
}

/// What the triangles of one (possibly clipped) polygon share.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PolygonInfo {
    /// Counter-clockwise in window space.
    pub front_facing: bool,
    /// Window depth plane of the whole polygon.
    pub depth: DepthPlane,
    /// Input triangle index within the draw.
    pub primitive: u32,
    /// Vertex-buffer id of the input triangle's provoking vertex.
    pub provoking: u32,
}

/// Sets up triangle `v` with vertex ids `ids`, one of the fan triangles of `polygon`.
/// A triangle whose own winding disagrees with the polygon's (a sliver made by rounding
/// while clipping) or that has no area returns `None`, as does one covering no pixel
/// centre of `bounds`.
pub(crate) fn setup_triangle(
    mut v: [WindowVertex; 3],
    mut ids: [u32; 3],
    polygon: &PolygonInfo,
    bounds: &PixelRect,
) -> Option<SetupTriangle> {
    let front_facing = polygon.front_facing;
    let double_area = v[0].pos.cross(v[1].pos, v[2].pos);
    if double_area == 0 || (double_area > 0) != front_facing {
        return None;
    }
    if double_area < 0 {
        v.swap(1, 2);
        ids.swap(1, 2);
    }
    let p = v.map(|w| w.pos);
    let bbox = pixel_bounds(&p).intersect(bounds);
    if bbox.is_empty() {
        return None;
    }
    let inv_w_scale = v.iter().map(|w| w.inv_w).fold(0.0f32, f32::max);
    Some(SetupTriangle {
        edges: [
            EdgeFunction::new(p[1], p[2]),
            EdgeFunction::new(p[2], p[0]),
            EdgeFunction::new(p[0], p[1]),
        ],
        depth: polygon.depth,
        // Clamped to `bounds`, the framebuffer (at most 16384 pixels wide).
        bounds: [bbox.x0, bbox.y0, bbox.x1, bbox.y1].map(|v| v as u16),
        vertices: ids,
        inv_w: v.map(|w| w.inv_w / inv_w_scale),
        inv_w_scale,
        front_facing,
        primitive: polygon.primitive,
        provoking: polygon.provoking,
    })
}

/// Pixels whose centres lie inside the bounding box of `p` (possibly empty or
/// negative; the caller clamps).
fn pixel_bounds(p: &[FixedPoint; 3]) -> PixelRect {
    let (min_x, max_x) = (p.iter().map(|q| q.x).min(), p.iter().map(|q| q.x).max());
    let (min_y, max_y) = (p.iter().map(|q| q.y).min(), p.iter().map(|q| q.y).max());
    let first = |v: i64| -(-(v - PIXEL_CENTER)).div_euclid(SUBPIXEL_ONE);
    let end = |v: i64| (v - PIXEL_CENTER).div_euclid(SUBPIXEL_ONE) + 1;
    // Clamp into u32 range; coordinates are below 2^21 pixels in magnitude.
    let clamp = |v: i64| v.clamp(0, i64::from(u32::MAX)) as u32;
    PixelRect {
        x0: clamp(first(min_x.unwrap_or(0))),
        y0: clamp(first(min_y.unwrap_or(0))),
        x1: clamp(end(max_x.unwrap_or(0))),
        y1: clamp(end(max_y.unwrap_or(0))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wv(x: f32, y: f32) -> WindowVertex {
        let snap = |v: f32| (v * 256.0) as i64;
        WindowVertex {
            pos: FixedPoint {
                x: snap(x),
                y: snap(y),
            },
            z: 0.5,
            inv_w: 1.0,
        }
    }

    const BOUNDS: PixelRect = PixelRect {
        x0: 0,
        y0: 0,
        x1: 100,
        y1: 100,
    };

    fn setup(v: [WindowVertex; 3], ids: [u32; 3], front_facing: bool) -> Option<SetupTriangle> {
        let depth = DepthPlane::new(v.map(|w| (w.pos, w.z)));
        setup_triangle(
            v,
            ids,
            &PolygonInfo {
                front_facing,
                depth,
                primitive: 0,
                provoking: ids[2],
            },
            &BOUNDS,
        )
    }

    #[test]
    fn bounds_hold_exactly_the_candidate_centres() {
        // Centres at 2.5 ..= 9.5 in x, 1.5 ..= 5.5 in y.
        let t = setup([wv(2.5, 1.2), wv(9.6, 1.2), wv(3.0, 5.5)], [0, 1, 2], true).unwrap();
        assert_eq!(
            t.bbox(),
            PixelRect {
                x0: 2,
                y0: 1,
                x1: 10,
                y1: 6
            }
        );
    }

    #[test]
    fn clockwise_triangles_are_reordered_and_flagged() {
        let cw = [wv(0.0, 0.0), wv(0.0, 8.0), wv(8.0, 0.0)];
        assert!(setup(cw, [0, 1, 2], true).is_none(), "facing mismatch");
        let t = setup(cw, [0, 1, 2], false).unwrap();
        assert!(!t.front_facing);
        assert_eq!(t.vertices, [0, 2, 1]);
        // Barycentric of vertex 0 at the centre of pixel (0, 0): 1 - 0.5/8 - 0.5/8.
        let l0 = t.edges[0].exact_at(0, 0) as f64 * t.inv_double_area();
        // Twice the area of the 8×8-pixel right triangle, in fixed units².
        assert_eq!(t.inv_double_area(), 1.0 / (64.0 * 65536.0));
        assert!((l0 - 0.875).abs() < 1e-12);
    }

    #[test]
    fn degenerate_and_offscreen_triangles_are_dropped() {
        let line = [wv(0.0, 0.0), wv(4.0, 4.0), wv(8.0, 8.0)];
        assert!(setup(line, [0, 1, 2], true).is_none());
        let off = [wv(200.0, 0.0), wv(208.0, 0.0), wv(200.0, 8.0)];
        assert!(setup(off, [0, 1, 2], true).is_none());
        // Too thin to hold a pixel centre.
        let thin = [wv(1.6, 1.0), wv(1.9, 1.0), wv(1.6, 9.0)];
        assert!(setup(thin, [0, 1, 2], true).is_none());
    }

    #[test]
    fn set_up_triangles_stay_compact() {
        // The tile rasterizer's first touch of each triangle is a cache miss, and the
        // 1M-triangle scene writes and reads every one once per frame.
        eprintln!(
            "SetupTriangle: {} bytes",
            std::mem::size_of::<SetupTriangle>()
        );
        assert_eq!(std::mem::size_of::<SetupTriangle>(), 128);
    }

    #[test]
    fn polygon_area_sign_gives_winding() {
        let square = [(0, 0), (256, 0), (256, 256), (0, 256)].map(|(x, y)| WindowVertex {
            pos: FixedPoint { x, y },
            z: 0.0,
            inv_w: 1.0,
        });
        assert_eq!(polygon_double_area(&square), 2 * 256 * 256);
        let mut rev = square;
        rev.reverse();
        assert_eq!(polygon_double_area(&rev), -2 * 256 * 256);
    }
}
