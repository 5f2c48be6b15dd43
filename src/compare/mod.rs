//! Image comparison: metrics for the `diff` command and for golden-image tests, a heat
//! map of where two images differ, and the tolerance rule that decides whether a render
//! matches its reference image.
//!
//! Both images are RGBA8 of the same size ([`crate::image_io::Rgba8Image`]); a size
//! mismatch is an error, never a metric. The channel conventions follow
//! `compare_png.py` of the llvmpipe reference renderer (peer-render, kept outside this
//! repository; reference-images/README.md), so the numbers can be checked against it:
//! the maximum difference and the pixel counts look at all four channels, the mean
//! absolute error and the PSNR at R, G and B only (alpha is 255 in almost every frame
//! and would dilute them).

mod heat_map;
mod metrics;
mod targets;
mod tolerance_rule;

pub use heat_map::{DEFAULT_HEAT_GAIN, heat_colour, heat_map};
pub use metrics::{CompareError, ImageDiff, compare};
pub use targets::{TargetDiff, compare_target, floats_equal};
pub use tolerance_rule::{Breach, Judgement, ToleranceRule};
