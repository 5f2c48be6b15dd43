//! Fixed-point window coordinates, edge functions and the fill rule.
//!
//! Vertices are snapped to 1/256 pixel ([`SUBPIXEL_BITS`] = 8), as llvmpipe does, and
//! every coverage decision is exact integer arithmetic on those snapped positions.
//!
//! Fill rule (`scene-format.md` "Conventions", llvmpipe's rule for OpenGL): a pixel
//! centre exactly on an edge is covered when that edge is a **left** edge or a
//! horizontal **bottom** edge in window space (y up); right and top edges exclude it.
//! With the triangle wound counter-clockwise (interior to the left of each directed
//! edge), a left edge runs downwards (`dy < 0`) and a bottom edge runs rightwards
//! (`dy == 0 && dx > 0`). Because two triangles sharing an edge traverse it in
//! opposite directions, exactly one of them includes it: every pixel centre on a
//! shared edge is covered exactly once.

/// Sub-pixel precision of snapped vertex positions, in bits.
pub const SUBPIXEL_BITS: u32 = 8;

/// One pixel in fixed-point units.
pub(crate) const SUBPIXEL_ONE: i64 = 1 << SUBPIXEL_BITS;

/// Offset of a pixel centre from its corner in fixed-point units.
pub(crate) const PIXEL_CENTER: i64 = SUBPIXEL_ONE / 2;

/// A snapped window-space position in 1/256 pixel (y up).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct FixedPoint {
    pub y: i64,
    pub x: i64,
}

impl FixedPoint {
    /// Twice the signed area of triangle `(self, b, c)` in fixed units² (positive when
    /// counter-clockwise in y-up window space). Exact for coordinates below 2^30.
    #[inline]
    pub fn cross(self, b: FixedPoint, c: FixedPoint) -> i64 {
        (b.x - self.x) * (c.y - self.y) - (c.x - self.x) * (b.y - self.y)
    }
}

/// The edge function of one directed triangle edge, evaluated at pixel centres.
///
/// For an edge from `p` to `q` and the pixel centre `P = (256·px + 128, 256·py + 128)`:
/// `E(P) = (q.x − p.x)(P.y − p.y) − (q.y − p.y)(P.x − p.x)` in fixed units² (2^-16
/// pixel²), positive on the interior side of a counter-clockwise triangle. The value
/// is `c + a·px + b·py` with the fill-rule bias folded into `c`, so a pixel centre is
/// covered by the edge exactly when that value is `>= 0`.
///
/// Stored in 16 bytes (a set-up triangle holds three, and the rasterizer's first touch
/// of each triangle is a cache miss): `c` and the edge's extent `dx`, `dy` in fixed
/// units, which fit `i32` because snapped coordinates stay below 2^28 in magnitude
/// (the clipper's guard band, `clip.rs`); the steps `a = −256·dy`, `b = 256·dx` and
/// the bias follow from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EdgeFunction {
    /// Biased value at pixel (0, 0).
    pub c: i64,
    /// `q.x − p.x` in fixed units.
    dx: i32,
    /// `q.y − p.y` in fixed units.
    dy: i32,
}

impl EdgeFunction {
    /// The edge from `p` to `q` of a counter-clockwise triangle. Coordinates must be
    /// below 2^29 in magnitude (the guard band keeps them below 2^28), so the extents
    /// fit `i32`.
    pub fn new(p: FixedPoint, q: FixedPoint) -> Self {
        let dx = q.x - p.x;
        let dy = q.y - p.y;
        debug_assert!(i32::try_from(dx).is_ok() && i32::try_from(dy).is_ok());
        let (dx, dy) = (dx as i32, dy as i32);
        let c = i64::from(dx) * (PIXEL_CENTER - p.y) - i64::from(dy) * (PIXEL_CENTER - p.x);
        EdgeFunction {
            c: c + Self::bias_of(dx, dy),
            dx,
            dy,
        }
    }

    /// Fill rule: a left edge (running down) or a bottom edge (running right) of a
    /// counter-clockwise triangle includes pixel centres lying exactly on it: bias
    /// `0`; any other edge excludes them: bias `-1`.
    #[inline(always)]
    fn bias_of(dx: i32, dy: i32) -> i64 {
        if dy < 0 || (dy == 0 && dx > 0) { 0 } else { -1 }
    }

    /// `0` for an edge that includes centres lying on it, `-1` for one that excludes them.
    #[inline(always)]
    pub fn bias(&self) -> i64 {
        Self::bias_of(self.dx, self.dy)
    }

    /// Change per pixel step in x.
    #[inline(always)]
    pub fn a(&self) -> i64 {
        -i64::from(self.dy) * SUBPIXEL_ONE
    }

    /// Change per pixel step in y.
    #[inline(always)]
    pub fn b(&self) -> i64 {
        i64::from(self.dx) * SUBPIXEL_ONE
    }

    /// Biased value at the centre of pixel `(px, py)`: covered when `>= 0`.
    #[inline]
    pub fn at(&self, px: i64, py: i64) -> i64 {
        self.c + self.a() * px + self.b() * py
    }

    /// How much the exact value changes when the point moves by `d` (x, y) in fixed
    /// units: `−dy·d.x + dx·d.y`, exact.
    #[inline]
    pub fn change_over(&self, d: [i64; 2]) -> i64 {
        -i64::from(self.dy) * d[0] + i64::from(self.dx) * d[1]
    }

    /// Exact (unbiased) edge function value at the centre of pixel `(px, py)`.
    #[inline]
    pub fn exact_at(&self, px: i64, py: i64) -> i64 {
        self.at(px, py) - self.bias()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(x: i64, y: i64) -> FixedPoint {
        FixedPoint { x, y }
    }

    #[test]
    fn left_and_bottom_edges_include_centres() {
        // CCW triangle in y-up space: bottom (0,0)->(4,0), right/top (4,0)->(0,4),
        // left (0,4)->(0,0), in pixels.
        let (a, b, c) = (fp(0, 0), fp(4 * 256, 0), fp(0, 4 * 256));
        assert!(a.cross(b, c) > 0);
        assert_eq!(EdgeFunction::new(a, b).bias(), 0, "bottom edge");
        assert_eq!(EdgeFunction::new(b, c).bias(), -1, "top-right edge");
        assert_eq!(EdgeFunction::new(c, a).bias(), 0, "left edge");
        // A horizontal top edge runs leftwards in a CCW triangle.
        assert_eq!(EdgeFunction::new(fp(4 * 256, 0), fp(0, 0)).bias(), -1);
        // A vertical right edge runs upwards.
        assert_eq!(EdgeFunction::new(fp(0, 0), fp(0, 256)).bias(), -1);
    }

    #[test]
    fn edge_values_at_pixel_centres() {
        // Vertical edge through x = 2.5 (the centre column of pixel 2), running down:
        // interior to its left... in a CCW triangle a downward edge has interior on +x.
        let e = EdgeFunction::new(fp(640, 1024), fp(640, 0));
        assert_eq!(e.exact_at(2, 1), 0);
        assert!(e.at(2, 1) >= 0, "on a left edge: covered");
        assert!(e.at(3, 1) > 0 && e.at(1, 1) < 0);
        assert_eq!(e.exact_at(3, 7) - e.exact_at(2, 7), 1024 * 256);
    }
}
