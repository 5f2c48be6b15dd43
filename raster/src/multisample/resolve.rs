//! Averaging a pixel's samples into one value, as `glBlitFramebuffer` from a
//! multisampled to a single-sampled buffer does it on llvmpipe (GL 3.3 §4.3.2: the
//! samples "are converted to a single sample"; Mesa's blitter resolve shader,
//! `util_make_fs_msaa_resolve`: each sample read as a float, multiplied by 1/4, the
//! products added in sample order, the sum stored as the target stores a colour).

use super::pattern::SAMPLE_COUNT;
use crate::blend::to_unorm8;

/// The sum of `values[s] · 1/4` in f32, in sample order.
fn average(values: [f32; SAMPLE_COUNT]) -> f32 {
    let quarter = 1.0 / SAMPLE_COUNT as f32;
    values.iter().fold(0.0f32, |sum, v| sum + v * quarter)
}

/// Resolves unorm8 channels: `samples[s]` holds sample `s`'s bytes of every pixel (the
/// same length each); each output byte is [`to_unorm8`] of the average of the four
/// bytes read as `b / 255`. Panics if the lengths differ.
pub fn resolve_unorm8(samples: [&[u8]; SAMPLE_COUNT]) -> Vec<u8> {
    let len = samples[0].len();
    assert!(samples.iter().all(|s| s.len() == len));
    (0..len)
        .map(|i| to_unorm8(average(samples.map(|s| f32::from(s[i]) / 255.0))))
        .collect()
}

/// Resolves float channels (the `f32` values of a float target, a half float widened):
/// the average of the four, which the caller stores as its format stores a colour.
pub fn resolve_float(values: [f32; SAMPLE_COUNT]) -> f32 {
    average(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unorm8_average_rounds_to_nearest() {
        // Half the samples covered: 255 and 0 average to 127.5, which is stored
        // as 128 (to_unorm8 rounds ties to even: 127.5 → 128).
        let on = [255u8, 10, 0, 7];
        let off = [0u8, 10, 0, 0];
        let got = resolve_unorm8([&on, &on, &off, &off]);
        assert_eq!(got, vec![128, 10, 0, 4]);
        // One of four: 63.75 → 64; three of four: 191.25 → 191.
        let one = resolve_unorm8([&on, &off, &off, &off]);
        assert_eq!(one[0], 64);
        let three = resolve_unorm8([&on, &on, &on, &off]);
        assert_eq!(three[0], 191);
    }

    #[test]
    fn float_average_is_the_mean() {
        assert_eq!(resolve_float([1.0, 0.0, 0.5, 0.5]), 0.5);
        assert_eq!(resolve_float([4.0, 4.0, 4.0, 4.0]), 4.0);
        assert_eq!(resolve_float([-2.0, 0.0, 0.0, 0.0]), -0.5);
    }
}
