//! Where the samples of a pixel lie.

use crate::edge::{PIXEL_CENTER, SUBPIXEL_ONE};

/// Samples per pixel of a multisampled frame: 4 (the one count csir-render draws
/// besides 1).
pub const SAMPLE_COUNT: usize = 4;

/// llvmpipe's standard 4-sample pattern (Mesa `lp_rast.c`, `lp_sample_pos_4x`, which
/// `glGetMultisamplefv(GL_SAMPLE_POSITION)` reports): sample `i` at
/// `POSITIONS[i]` from the pixel's lower-left corner, in pixels, window y up (an FBO
/// is not flipped). All are multiples of 1/256 pixel, so exact in fixed point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamplePattern;

impl SamplePattern {
    /// The four positions within a pixel, (x, y) in pixels from its lower-left corner.
    pub const POSITIONS: [[f32; 2]; SAMPLE_COUNT] = [
        [0.375, 0.125],
        [0.875, 0.375],
        [0.125, 0.625],
        [0.625, 0.875],
    ];

    /// Sample `i`'s offset from the pixel centre in 1/256 pixel
    /// ([`SUBPIXEL_BITS`](crate::SUBPIXEL_BITS)), the value of
    /// [`RasterState::sample_offset`](crate::RasterState::sample_offset) for its pass.
    /// Panics for `i >= 4`.
    pub fn offset(i: usize) -> [i32; 2] {
        Self::POSITIONS[i].map(|p| ((p * SUBPIXEL_ONE as f32) as i64 - PIXEL_CENTER) as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_the_positions_from_the_centre_in_fixed_units() {
        assert_eq!(SamplePattern::offset(0), [-32, -96]);
        assert_eq!(SamplePattern::offset(1), [96, -32]);
        assert_eq!(SamplePattern::offset(2), [-96, 32]);
        assert_eq!(SamplePattern::offset(3), [32, 96]);
    }
}
