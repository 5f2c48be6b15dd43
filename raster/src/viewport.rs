//! Viewport transform: clip space → NDC → window space, and snapping to fixed point.
//!
//! OpenGL's rules with the viewport covering the whole framebuffer and `glDepthRange(0,
//! 1)` (GL 3.3 core "Controlling the Viewport"; `scene-format.md` "Conventions"):
//! `x_w = x_ndc · W/2 + W/2`, `y_w = y_ndc · H/2 + H/2` (y up), `z_w = z_ndc · ½ + ½`.

use crate::edge::{FixedPoint, SUBPIXEL_ONE};

/// Largest snapped coordinate accepted, in fixed units (2^21 pixels). The guard band
/// (`clip.rs`) keeps real coordinates below 2^20 pixels; this is the safety net that
/// keeps every edge-function product inside i64.
const MAX_FIXED: i64 = 1 << 29;

/// A vertex after the perspective divide and viewport transform.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct WindowVertex {
    /// Snapped window position.
    pub pos: FixedPoint,
    /// Window depth, [0, 1] for vertices inside the view volume.
    pub z: f32,
    /// 1 / clip w (> 0).
    pub inv_w: f32,
}

/// The viewport transform of a `width × height` framebuffer, or of a viewport
/// rectangle and depth range (GL 3.3 §2.13.1).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Viewport {
    half_width: f32,
    half_height: f32,
    /// Window x and y of NDC (0, 0).
    center: [f32; 2],
    /// `(far − near) / 2` and `near + (far − near) / 2` (Mesa's viewport scale and
    /// translate; 0.5 and 0.5 for the default range).
    depth: [f32; 2],
    /// Subtracted from every snapped position: the draw's sample offset
    /// ([`RasterState::sample_offset`](crate::RasterState::sample_offset)), so that
    /// pixel centres of the shifted primitive are the sample positions of the real one.
    sample_shift: [i64; 2],
}

impl Viewport {
    /// The whole `width × height` framebuffer, depth range [0, 1].
    #[cfg(test)]
    pub fn new(width: u32, height: u32) -> Self {
        Self::with_rect([0, 0, width as i32, height as i32], [0.0, 1.0])
    }

    /// `glViewport(x, y, w, h)` as `rect` and `glDepthRange(near, far)` as `range`:
    /// `x_w = x_ndc · w/2 + (x + w/2)`, likewise y, `z_w = z_ndc · (f − n)/2 +
    /// (n + (f − n)/2)`. For the whole framebuffer and [0, 1] the same floats as
    /// `x_ndc · W/2 + W/2`, `z_ndc · ½ + ½`.
    pub fn with_rect(rect: [i32; 4], range: [f32; 2]) -> Self {
        let [x, y, w, h] = rect;
        let (half_width, half_height) = (w as f32 * 0.5, h as f32 * 0.5);
        let half_depth = (range[1] - range[0]) * 0.5;
        Viewport {
            half_width,
            half_height,
            center: [half_width + x as f32, half_height + y as f32],
            depth: [half_depth, range[0] + half_depth],
            sample_shift: [0, 0],
        }
    }

    /// This transform with every snapped position moved by `-offset` (1/256 pixel):
    /// a pixel centre then tests the sample at `offset` from it (exact: the shift is
    /// whole fixed-point units, applied after snapping).
    pub fn with_sample_offset(mut self, offset: [i32; 2]) -> Self {
        self.sample_shift = offset.map(i64::from);
        self
    }

    /// Divides by w and maps to window space. `None` when w ≤ 0 or any result is not
    /// finite or lies outside the fixed-point range: such a vertex is never divided by
    /// or rasterized.
    pub fn project(self, clip: [f32; 4]) -> Option<WindowVertex> {
        let [x, y, z, w] = clip;
        if w.is_nan() || w <= 0.0 {
            return None;
        }
        let inv_w = 1.0 / w;
        let xw = (x * inv_w) * self.half_width + self.center[0];
        let yw = (y * inv_w) * self.half_height + self.center[1];
        let zw = (z * inv_w) * self.depth[0] + self.depth[1];
        if !(inv_w.is_finite() && zw.is_finite()) {
            return None;
        }
        Some(WindowVertex {
            pos: FixedPoint {
                x: snap(xw)? - self.sample_shift[0],
                y: snap(yw)? - self.sample_shift[1],
            },
            z: zw,
            inv_w,
        })
    }
}

/// Rounds a window coordinate to 1/256 pixel (ties to even, like llvmpipe's
/// `util_iround` on x86), or `None` outside ±2^21 pixels or for NaN.
pub(crate) fn snap(v: f32) -> Option<i64> {
    let scaled = (v * SUBPIXEL_ONE as f32).round_ties_even();
    // The comparison is false for NaN.
    if scaled.abs() <= MAX_FIXED as f32 {
        Some(scaled as i64)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ndc_corners_map_to_framebuffer_corners() {
        let vp = Viewport::new(320, 240);
        let v = vp.project([-1.0, -1.0, -1.0, 1.0]).unwrap();
        assert_eq!((v.pos.x, v.pos.y, v.z, v.inv_w), (0, 0, 0.0, 1.0));
        let v = vp.project([2.0, 2.0, 2.0, 2.0]).unwrap();
        assert_eq!(
            (v.pos.x, v.pos.y, v.z, v.inv_w),
            (320 * 256, 240 * 256, 1.0, 0.5)
        );
        let v = vp.project([0.0, 0.0, 0.0, 4.0]).unwrap();
        assert_eq!((v.pos.x, v.pos.y, v.z), (160 * 256, 120 * 256, 0.5));
    }

    #[test]
    fn viewport_rect_and_depth_range() {
        // glViewport(10, -20, 100, 50), glDepthRange(0.25, 0.75): NDC (-1, -1, -1)
        // is window (10, -20, 0.25), (1, 1, 1) is (110, 30, 0.75), (0.5, 0, 0) is
        // (10 + 75, -20 + 25, 0.5).
        let vp = Viewport::with_rect([10, -20, 100, 50], [0.25, 0.75]);
        let v = vp.project([-1.0, -1.0, -1.0, 1.0]).unwrap();
        assert_eq!((v.pos.x, v.pos.y, v.z), (10 * 256, -20 * 256, 0.25));
        let v = vp.project([1.0, 1.0, 1.0, 1.0]).unwrap();
        assert_eq!((v.pos.x, v.pos.y, v.z), (110 * 256, 30 * 256, 0.75));
        let v = vp.project([1.0, 0.0, 0.0, 2.0]).unwrap();
        assert_eq!((v.pos.x, v.pos.y, v.z), (85 * 256, 5 * 256, 0.5));
        // A reversed range turns depth over: NDC -1 is 1, NDC 1 is 0.
        let rev = Viewport::with_rect([0, 0, 8, 8], [1.0, 0.0]);
        assert_eq!(rev.project([0.0, 0.0, -1.0, 1.0]).unwrap().z, 1.0);
        assert_eq!(rev.project([0.0, 0.0, 1.0, 1.0]).unwrap().z, 0.0);
        assert_eq!(rev.project([0.0, 0.0, 0.5, 1.0]).unwrap().z, 0.25);
    }

    #[test]
    fn snapping_rounds_to_nearest_256th() {
        assert_eq!(snap(1.0 / 512.0 + 1.0 / 1024.0), Some(1));
        assert_eq!(snap(2.5 / 256.0), Some(2), "ties to even");
        assert_eq!(snap(-3.5 / 256.0), Some(-4));
        assert_eq!(snap(f32::NAN), None);
        assert_eq!(snap(f32::INFINITY), None);
        assert_eq!(snap(3.0e6), None);
    }

    #[test]
    fn nonpositive_w_is_rejected() {
        let vp = Viewport::new(8, 8);
        assert!(vp.project([0.0, 0.0, 0.0, 0.0]).is_none());
        assert!(vp.project([0.0, 0.0, 0.0, -1.0]).is_none());
        assert!(vp.project([0.0, 0.0, 0.0, f32::NAN]).is_none());
        assert!(
            vp.project([0.0, 0.0, 0.0, 1e-45]).is_none(),
            "1/w overflows"
        );
    }
}
