//! The tolerance rule that decides whether a render matches its reference image (the
//! project's default, or a scene's `expect` block; `docs/scene-format.md`), and the
//! judgement it gives: which bound a render breaks and by how much.

use super::{CompareError, ImageDiff, compare};
use crate::image_io::Rgba8Image;
use serde::{Deserialize, Serialize};
use std::fmt;

/// When a render matches its reference image: the project's tolerance rule, or a
/// scene's own bound (the scene file's `expect` block, `docs/scene-format.md`).
///
/// A render matches when both hold:
/// - at most [`max_over_percent`](Self::max_over_percent) percent of the pixels have a
///   channel (R, G, B or A) more than [`tolerance`](Self::tolerance) steps of 1/255
///   away from the reference;
/// - the mean absolute error over R, G and B ([`ImageDiff::mean_abs_error`]) is
///   **below** [`max_mean_abs_error`](Self::max_mean_abs_error) (in 1/255 units).
///
/// [`ToleranceRule::PROJECT`] is the rule for every scene without an `expect` block
/// (`docs/reference-checks.md` says why these numbers). `csir-render check`, the
/// reference tests and the docs all take it from here.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToleranceRule {
    /// Largest difference a channel may have and still count as equal, 0..=255 (steps
    /// of 1/255; `diff --tolerance`).
    pub tolerance: u8,
    /// Largest share of pixels allowed over `tolerance`, in percent, 0.0..=100.0.
    pub max_over_percent: f64,
    /// The mean absolute error must stay below this, in 1/255 units, > 0.0 (so an
    /// image identical to its reference always passes).
    pub max_mean_abs_error: f64,
}

impl ToleranceRule {
    /// The project's rule: at most 0.5 % of pixels more than 2/255 off in any channel,
    /// and a mean absolute error below 0.5/255.
    pub const PROJECT: ToleranceRule = ToleranceRule {
        tolerance: 2,
        max_over_percent: 0.5,
        max_mean_abs_error: 0.5,
    };

    /// Compares `ours` with `reference` under this rule.
    ///
    /// # Errors
    /// [`CompareError::SizeMismatch`] when the sizes differ.
    pub fn judge(
        &self,
        ours: &Rgba8Image,
        reference: &Rgba8Image,
    ) -> Result<Judgement, CompareError> {
        let diff = compare(ours, reference, self.tolerance)?;
        Ok(self.judge_diff(diff))
    }

    /// Judges metrics already computed. `diff` must have been computed with this rule's
    /// `tolerance` (else the count over it means something else): its own
    /// `tolerance` field is used for the message, and the verdict is then about that
    /// tolerance.
    pub fn judge_diff(&self, diff: ImageDiff) -> Judgement {
        let mut breaches = Vec::new();
        let over_percent = diff.over_tolerance_percent();
        if over_percent > self.max_over_percent {
            breaches.push(Breach::TooManyPixelsOver {
                pixels: diff.over_tolerance_pixels,
                percent: over_percent,
                tolerance: diff.tolerance,
                max_percent: self.max_over_percent,
            });
        }
        if diff.mean_abs_error >= self.max_mean_abs_error {
            breaches.push(Breach::MeanAbsErrorTooLarge {
                mean_abs_error: diff.mean_abs_error,
                max: self.max_mean_abs_error,
            });
        }
        Judgement { diff, breaches }
    }
}

impl Default for ToleranceRule {
    fn default() -> Self {
        Self::PROJECT
    }
}

impl fmt::Display for ToleranceRule {
    /// `at most 0.5% of pixels more than 2/255 off, mean abs error below 0.5/255`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "at most {}% of pixels more than {}/255 off, mean abs error below {}/255",
            self.max_over_percent, self.tolerance, self.max_mean_abs_error
        )
    }
}

/// The outcome of comparing a render with its reference under a [`ToleranceRule`].
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// The metrics, computed with the rule's tolerance.
    pub diff: ImageDiff,
    /// The bounds the render breaks; empty when it matches.
    pub breaches: Vec<Breach>,
}

impl Judgement {
    /// True when the render matches (no bound is broken).
    pub fn passed(&self) -> bool {
        self.breaches.is_empty()
    }
}

/// One bound of a [`ToleranceRule`] that a render breaks.
#[derive(Clone, Debug, PartialEq)]
pub enum Breach {
    /// More pixels than allowed are over the tolerance.
    TooManyPixelsOver {
        /// Pixels over the tolerance.
        pixels: u64,
        /// The same as a percentage of all pixels.
        percent: f64,
        /// The tolerance, in 1/255 steps.
        tolerance: u8,
        /// The rule's bound, in percent.
        max_percent: f64,
    },
    /// The mean absolute error is not below the bound.
    MeanAbsErrorTooLarge {
        /// The measured mean absolute error, 1/255 units.
        mean_abs_error: f64,
        /// The rule's bound, 1/255 units.
        max: f64,
    },
}

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Breach::TooManyPixelsOver {
                pixels,
                percent,
                tolerance,
                max_percent,
            } => write!(
                f,
                "{pixels} pixels ({percent:.3}%) are more than {tolerance}/255 off (at most {max_percent}% allowed)"
            ),
            Breach::MeanAbsErrorTooLarge {
                mean_abs_error,
                max,
            } => write!(
                f,
                "mean abs error {mean_abs_error:.4}/255 is not below {max}/255"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 20×10 grey image with the first `n` pixels' red channel raised by `by`.
    fn off(n: usize, by: u8) -> Rgba8Image {
        let mut image = Rgba8Image::filled(20, 10, [100, 100, 100, 255]).unwrap();
        for p in image.pixels_mut().chunks_exact_mut(4).take(n) {
            p[0] += by;
        }
        image
    }

    #[test]
    fn the_project_rule_allows_half_a_percent_over_two_steps() {
        let reference = off(0, 0);
        // 200 pixels: 1 over 2/255 is 0.5 %, allowed; 2 is 1 %, not
        let one = ToleranceRule::PROJECT
            .judge(&off(1, 3), &reference)
            .unwrap();
        assert!(one.passed(), "{:?}", one.breaches);
        let two = ToleranceRule::PROJECT
            .judge(&off(2, 3), &reference)
            .unwrap();
        assert_eq!(
            two.breaches,
            vec![Breach::TooManyPixelsOver {
                pixels: 2,
                percent: 1.0,
                tolerance: 2,
                max_percent: 0.5
            }]
        );
        assert_eq!(
            two.breaches[0].to_string(),
            "2 pixels (1.000%) are more than 2/255 off (at most 0.5% allowed)"
        );
        // every pixel off by 2 is within the tolerance, but the mean abs error is
        // 2/3 (one channel of three): too large
        let all = ToleranceRule::PROJECT
            .judge(&off(200, 2), &reference)
            .unwrap();
        assert_eq!(all.diff.over_tolerance_pixels, 0);
        assert_eq!(
            all.breaches,
            vec![Breach::MeanAbsErrorTooLarge {
                mean_abs_error: 2.0 / 3.0,
                max: 0.5
            }]
        );
        assert_eq!(
            all.breaches[0].to_string(),
            "mean abs error 0.6667/255 is not below 0.5/255"
        );
    }

    #[test]
    fn a_scene_bound_can_be_tighter_or_looser() {
        let reference = off(0, 0);
        let exact = ToleranceRule {
            tolerance: 0,
            max_over_percent: 0.0,
            max_mean_abs_error: 0.5,
        };
        assert!(exact.judge(&reference, &reference).unwrap().passed());
        assert!(!exact.judge(&off(1, 1), &reference).unwrap().passed());
        let loose = ToleranceRule {
            tolerance: 8,
            max_over_percent: 10.0,
            max_mean_abs_error: 4.0,
        };
        assert!(loose.judge(&off(20, 30), &reference).unwrap().passed());
        assert!(!loose.judge(&off(21, 30), &reference).unwrap().passed());
    }

    #[test]
    fn the_rule_reads_as_a_sentence() {
        assert_eq!(
            ToleranceRule::PROJECT.to_string(),
            "at most 0.5% of pixels more than 2/255 off, mean abs error below 0.5/255"
        );
    }
}
