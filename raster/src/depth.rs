//! Depth values: 24-bit quantization and the depth plane of a triangle.
//!
//! The depth buffer behaves like OpenGL's `GL_DEPTH_COMPONENT24` (llvmpipe's D24): a
//! fragment's window depth is quantized to 24 bits before it is compared or stored
//! (GL 3.3 core "Depth Buffer Test" compares in the buffer's format).
//!
//! Window depth is linear in window space, so it is interpolated with a plane
//! `z(x, y)`. The plane is computed from the triangle's vertices in a canonical order
//! (sorted by snapped position), so the same triangle drawn again with its vertices in
//! any order produces bit-identical depth: a second pass with `equal` leaves no holes
//! (`scene-format.md` "Conventions").

use crate::edge::{FixedPoint, PIXEL_CENTER, SUBPIXEL_ONE};

/// Largest stored depth value: 1.0 as 24-bit unsigned normalized.
pub const DEPTH_MAX: u32 = (1 << 24) - 1;

/// Converts a depth in [0, 1] (clamped; NaN → 0) to 24-bit unorm, rounding to nearest
/// (ties to even).
#[inline(always)]
pub fn quantize_depth(z: f64) -> u32 {
    // Adding 2^52 to a value in [0, 2^24) rounds it to an integer held in the low
    // mantissa bits: no saturating float-to-int cast, so loops vectorize. `max` returns
    // the other operand for NaN.
    #[allow(clippy::manual_clamp)]
    let scaled = z.max(0.0).min(1.0) * f64::from(DEPTH_MAX);
    ((scaled + 4_503_599_627_370_496.0).to_bits() & u64::from(DEPTH_MAX)) as u32
}

/// Window depth of a triangle as a plane over fixed-point window positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct DepthPlane {
    /// The plane's origin vertex in fixed units, `[x, y]` (`i32`: snapped coordinates
    /// stay below 2^28 in magnitude, `clip.rs` guard band; 8 bytes instead of 16 in
    /// every set-up triangle).
    origin: [i32; 2],
    z0: f64,
    /// dz per fixed-point unit in x.
    dzdx: f64,
    /// dz per fixed-point unit in y.
    dzdy: f64,
}

impl DepthPlane {
    /// The plane of a convex polygon's (snapped position, window depth) vertices, given
    /// in any order: through its smallest and largest vertex (by position) and the one
    /// farthest from the line between them. A polygon clipped from a triangle gets the
    /// same vertex set however the triangle's vertices were ordered, and so the same
    /// plane for all of its fan triangles.
    pub fn for_polygon(vertices: &[(FixedPoint, f32)]) -> Self {
        let key = |v: &&(FixedPoint, f32)| (v.0, v.1.to_bits());
        let a = *vertices
            .iter()
            .min_by_key(key)
            .expect("three or more vertices");
        let c = *vertices
            .iter()
            .max_by_key(key)
            .expect("three or more vertices");
        let b = vertices
            .iter()
            .map(|v| (a.0.cross(v.0, c.0).unsigned_abs(), key(&v), *v))
            .max_by(|x, y| x.0.cmp(&y.0).then(y.1.cmp(&x.1)))
            .expect("three or more vertices")
            .2;
        Self::new([a, b, c])
    }

    /// The plane through three (snapped position, window depth) vertices, in any order.
    pub fn new(vertices: [(FixedPoint, f32); 3]) -> Self {
        let [(a, za), (b, zb), (c, zc)] = sort3(vertices);
        let (e1x, e1y) = ((b.x - a.x) as f64, (b.y - a.y) as f64);
        let (e2x, e2y) = ((c.x - a.x) as f64, (c.y - a.y) as f64);
        let det = a.cross(b, c) as f64;
        let (dz1, dz2) = (f64::from(zb) - f64::from(za), f64::from(zc) - f64::from(za));
        let (dzdx, dzdy) = if det == 0.0 {
            (0.0, 0.0)
        } else {
            ((dz1 * e2y - dz2 * e1y) / det, (e1x * dz2 - e2x * dz1) / det)
        };
        debug_assert!(i32::try_from(a.x).is_ok() && i32::try_from(a.y).is_ok());
        DepthPlane {
            origin: [a.x as i32, a.y as i32],
            z0: f64::from(za),
            dzdx,
            dzdy,
        }
    }

    /// Adds `glPolygonOffset`'s `factor · m + units · 2^-24` to the plane (GL 3.3
    /// §3.6.4; [`crate::PolygonOffset`]), `m` the larger of the plane's depth slopes
    /// per pixel in x and y.
    pub fn offset(&mut self, offset: crate::PolygonOffset) {
        let per_pixel = SUBPIXEL_ONE as f64;
        let m = self.dzdx.abs().max(self.dzdy.abs()) * per_pixel;
        let r = 1.0 / f64::from(1u32 << 24);
        self.z0 += f64::from(offset.factor) * m + f64::from(offset.units) * r;
    }

    /// Window depth at the centre of pixel `(px, py)` (not clamped):
    /// `row(py) + column(px)`, the formula the rasterizer evaluates row by row.
    #[cfg(test)]
    pub fn at(&self, px: u32, py: u32) -> f64 {
        self.row(py) + self.column(px)
    }

    /// The part of the depth that depends on the row: `z0 + dz/dy · Δy`.
    #[inline]
    pub fn row(&self, py: u32) -> f64 {
        let dy = i64::from(py) * SUBPIXEL_ONE + PIXEL_CENTER - i64::from(self.origin[1]);
        self.z0 + self.dzdy * dy as f64
    }

    /// The smallest `row(y) + column(x)` over the pixel centres `x0..=x1 × y0..=y1`,
    /// exactly: each term is monotonic in its coordinate (a product with a fixed
    /// slope) and f64 addition is monotonic in each operand, so the minimum is the
    /// evaluation at the corner the slopes' signs pick, bit for bit what the per-pixel
    /// formula gives there. `None` when a slope or the origin depth is not finite
    /// (then `0 · ∞` could break the monotonicity).
    #[inline]
    pub fn min_over(&self, x0: u32, x1: u32, y0: u32, y1: u32) -> Option<f64> {
        if !(self.z0.is_finite() && self.dzdx.is_finite() && self.dzdy.is_finite()) {
            return None;
        }
        let x = if self.dzdx >= 0.0 { x0 } else { x1 };
        let y = if self.dzdy >= 0.0 { y0 } else { y1 };
        let z = self.row(y) + self.column(x);
        (!z.is_nan()).then_some(z)
    }

    /// The part of the depth that depends on the column: `dz/dx · Δx`.
    #[inline]
    pub fn column(&self, px: u32) -> f64 {
        let dx = i64::from(px) * SUBPIXEL_ONE + PIXEL_CENTER - i64::from(self.origin[0]);
        self.dzdx * dx as f64
    }
}

/// `vertices` sorted by (snapped position, depth bits): the order `DepthPlane::new`
/// computes the plane in. Three compare-exchanges (a sorting network) instead of a
/// general sort, which was ~4 % of a frame of 1M tiny triangles; the keys are a total
/// order and equal keys are equal vertices, so the result is exactly the sorted array.
#[inline(always)]
fn sort3(mut v: [(FixedPoint, f32); 3]) -> [(FixedPoint, f32); 3] {
    let key = |v: &(FixedPoint, f32)| (v.0, v.1.to_bits());
    let mut exchange = |i: usize, j: usize| {
        if key(&v[j]) < key(&v[i]) {
            v.swap(i, j);
        }
    };
    exchange(0, 1);
    exchange(1, 2);
    exchange(0, 1);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polygon_offset_adds_slope_and_units() {
        // z = 0.5 + x/64 + y/128 over pixels: m = 1/64 per pixel.
        let fp = |x: i64, y: i64| FixedPoint {
            x: x * 256,
            y: y * 256,
        };
        let mut plane = DepthPlane::new([
            (fp(0, 0), 0.5),
            (fp(64, 0), 0.5 + 1.0),
            (fp(0, 128), 0.5 + 1.0),
        ]);
        let before = plane.at(3, 5);
        plane.offset(crate::PolygonOffset {
            factor: 2.0,
            units: -4.0,
        });
        let expected = before + 2.0 / 64.0 - 4.0 / 16_777_216.0;
        assert!(
            (plane.at(3, 5) - expected).abs() < 1e-12,
            "{}",
            plane.at(3, 5)
        );
        assert!(
            (plane.at(40, 9) - (0.5 + 40.5 / 64.0 + 9.5 / 128.0 + 2.0 / 64.0 - 4.0 / 16_777_216.0))
                .abs()
                < 1e-12
        );
    }

    #[test]
    fn sort3_is_the_general_sort() {
        // Every order of three vertices drawn from a small set with equal positions,
        // equal depths, -0.0 and NaN depths (keys compare the bits).
        let pool = [
            (FixedPoint { x: 0, y: 0 }, 0.5f32),
            (FixedPoint { x: 0, y: 0 }, -0.0),
            (FixedPoint { x: 1, y: 0 }, 0.5),
            (FixedPoint { x: -1, y: 1 }, f32::NAN),
            (FixedPoint { x: 0, y: -1 }, f32::INFINITY),
        ];
        let bits = |v: [(FixedPoint, f32); 3]| v.map(|(p, z)| (p, z.to_bits()));
        for i in 0..pool.len() {
            for j in 0..pool.len() {
                for k in 0..pool.len() {
                    let v = [pool[i], pool[j], pool[k]];
                    let mut sorted = v;
                    sorted.sort_by_key(|v| (v.0, v.1.to_bits()));
                    assert_eq!(bits(sort3(v)), bits(sorted), "{i} {j} {k}");
                }
            }
        }
    }

    #[test]
    fn quantization_rounds_and_clamps() {
        assert_eq!(quantize_depth(1.0), DEPTH_MAX);
        assert_eq!(quantize_depth(0.0), 0);
        assert_eq!(quantize_depth(0.5), 1 << 23);
        assert_eq!(quantize_depth(2.0), DEPTH_MAX);
        assert_eq!(quantize_depth(-1.0), 0);
        assert_eq!(quantize_depth(f64::NAN), 0);
        for i in 0..=10_000 {
            let z = i as f64 / 10_000.0;
            assert_eq!(
                quantize_depth(z),
                (z * f64::from(DEPTH_MAX)).round_ties_even() as u32
            );
        }
    }

    fn fp(x: i64, y: i64) -> FixedPoint {
        FixedPoint {
            x: x * 256,
            y: y * 256,
        }
    }

    #[test]
    fn plane_interpolates_linearly() {
        // z = 0.1 + 0.01·x + 0.02·y (x, y in pixels)
        let z = |x: i64, y: i64| (0.1 + 0.01 * x as f64 + 0.02 * y as f64) as f32;
        let plane = DepthPlane::new([
            (fp(0, 0), z(0, 0)),
            (fp(10, 0), z(10, 0)),
            (fp(0, 10), z(0, 10)),
        ]);
        // Pixel (3, 4) has its centre at (3.5, 4.5).
        assert!((plane.at(3, 4) - (0.1 + 0.035 + 0.09)).abs() < 1e-7);
    }

    #[test]
    fn min_over_is_the_smallest_pixel_depth() {
        let planes = [
            DepthPlane::new([(fp(0, 0), 0.5), (fp(40, 3), 0.25), (fp(7, 33), 0.875)]),
            DepthPlane::new([(fp(0, 0), 0.5), (fp(40, 3), 0.75), (fp(7, 33), 0.125)]),
            DepthPlane::new([(fp(0, 0), 0.3), (fp(40, 0), 0.3), (fp(0, 33), 0.3)]),
        ];
        for plane in planes {
            let min = plane.min_over(8, 15, 16, 23).expect("finite plane");
            let mut smallest = f64::INFINITY;
            for y in 16..=23 {
                for x in 8..=15 {
                    smallest = smallest.min(plane.at(x, y));
                }
            }
            assert_eq!(min.to_bits(), smallest.to_bits());
        }
    }

    #[test]
    fn polygon_plane_does_not_depend_on_vertex_order() {
        let v = [
            (fp(0, 0), 0.5f32),
            (fp(9, 1), 0.25),
            (fp(10, 8), 0.75),
            (fp(2, 11), 0.5),
            (fp(-1, 5), 0.625),
        ];
        let reference = DepthPlane::for_polygon(&v);
        let mut rotated = v;
        for _ in 0..5 {
            rotated.rotate_left(1);
            assert_eq!(DepthPlane::for_polygon(&rotated), reference);
            let mut reversed = rotated;
            reversed.reverse();
            assert_eq!(DepthPlane::for_polygon(&reversed), reference);
        }
        let tri = [v[0], v[1], v[2]];
        assert_eq!(DepthPlane::for_polygon(&tri), DepthPlane::new(tri));
    }

    #[test]
    fn plane_is_bit_identical_for_any_vertex_order() {
        let v = [(fp(1, 2), 0.3f32), (fp(17, 5), 0.71), (fp(6, 19), 0.123)];
        let reference = DepthPlane::new(v);
        for order in [[1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]] {
            let p = DepthPlane::new(order.map(|i| v[i]));
            assert_eq!(p, reference);
            assert_eq!(p.at(7, 8).to_bits(), reference.at(7, 8).to_bits());
        }
    }
}
