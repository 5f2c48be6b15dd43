//! Comparing a float or integer render target with its reference (docs/scene-format.md
//! "Render targets", docs/reference-checks.md): the values themselves, not bytes.
//!
//! - **Float** channels are equal when `|ours − reference| ≤ (tolerance / 255) ·
//!   max(1, |reference|)`: the RGBA8 rule's steps of 1/255 for values in [0, 1], and the
//!   same relative precision above 1 (an `rgba16f` value has 11 significant bits, so a
//!   difference of rounding stays well inside 2/255 of it). Two NaNs are equal; two
//!   infinities of one sign are equal.
//! - **Integer** channels must be equal.
//!
//! A target passes when at most `max_over_percent` percent of its pixels have a channel
//! that is not equal (the project's [`ToleranceRule`] numbers, or the scene's `expect`).

use super::ToleranceRule;
use crate::pipeline::TargetImage;
use csir_raster::TargetClass;

/// How a target compared with its reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TargetDiff {
    /// Pixels with a channel that is not equal by the module doc's rule.
    pub pixels_over: usize,
    /// Pixels compared.
    pub pixels: usize,
    /// The largest absolute difference of any channel (as a float for float
    /// targets; as an integer difference for integer ones).
    pub max_diff: f64,
    /// Whether the share of `pixels_over` is within the rule's `max_over_percent`.
    pub passed: bool,
}

/// Whether float values `a` and `b` (reference) count as equal under `tolerance`.
pub fn floats_equal(a: f32, b: f32, tolerance: u8) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a.is_infinite() || b.is_infinite() {
        return a == b;
    }
    let bound = f64::from(tolerance) / 255.0 * f64::from(b.abs()).max(1.0);
    (f64::from(a) - f64::from(b)).abs() <= bound
}

/// Compares `ours` (a float or integer target) with the reference values
/// `reference` (top row first, as [`TargetImage::values`]), or `None` when the sizes
/// differ.
pub fn compare_target(
    ours: &TargetImage,
    reference: &[[u32; 4]],
    rule: &ToleranceRule,
) -> Option<TargetDiff> {
    if ours.values.len() != reference.len() {
        return None;
    }
    let float = ours.target.format.class() == TargetClass::Float;
    let signed = ours.target.format.class() == TargetClass::Int;
    let (mut over, mut max_diff) = (0usize, 0f64);
    for (a, b) in ours.values.iter().zip(reference) {
        let mut equal = true;
        for c in 0..4 {
            let (d, same) = if float {
                let (x, y) = (f32::from_bits(a[c]), f32::from_bits(b[c]));
                let d = (f64::from(x) - f64::from(y)).abs();
                (
                    if d.is_nan() { 0.0 } else { d },
                    floats_equal(x, y, rule.tolerance),
                )
            } else if signed {
                let d = (i64::from(a[c] as i32) - i64::from(b[c] as i32)).abs();
                (d as f64, d == 0)
            } else {
                let d = (i64::from(a[c]) - i64::from(b[c])).abs();
                (d as f64, d == 0)
            };
            max_diff = max_diff.max(d);
            equal &= same;
        }
        over += usize::from(!equal);
    }
    let pixels = reference.len();
    let share = if pixels == 0 {
        0.0
    } else {
        over as f64 * 100.0 / pixels as f64
    };
    Some(TargetDiff {
        pixels_over: over,
        pixels,
        max_diff,
        passed: share <= rule.max_over_percent,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use csir_raster::{ColorTarget, TargetFormat};

    #[test]
    fn float_tolerance_is_relative_above_one() {
        assert!(floats_equal(0.5, 0.5 + 2.0 / 255.0, 2));
        assert!(!floats_equal(0.5, 0.5 + 2.5 / 255.0, 2));
        // At 100 the bound is 100 · 2/255 = 0.784.
        assert!(floats_equal(100.7, 100.0, 2));
        assert!(!floats_equal(101.0, 100.0, 2));
        assert!(floats_equal(f32::NAN, f32::NAN, 0));
        assert!(!floats_equal(f32::INFINITY, 1e30, 2));
    }

    #[test]
    fn integer_targets_must_match_exactly() {
        let image = |v: u32| TargetImage {
            target: ColorTarget {
                format: TargetFormat::Rgba32ui,
                framebuffer_srgb: false,
            },
            width: 2,
            height: 1,
            values: vec![[v, 0, 0, 1], [5, 0, 0, 1]],
        };
        let rule = ToleranceRule::PROJECT;
        let same = compare_target(&image(7), &image(7).values, &rule).unwrap();
        assert_eq!((same.pixels_over, same.passed), (0, true));
        let off = compare_target(&image(8), &image(7).values, &rule).unwrap();
        assert_eq!((off.pixels_over, off.max_diff, off.passed), (1, 1.0, false));
    }
}
