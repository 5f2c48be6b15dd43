//! Probes: compare window pixels with an expected colour, with shader_runner's
//! tolerance rule (piglit's `piglit_probe_pixel_rgb(a)` and `probe_rect_ubyte`,
//! restated in docs/conformance.md, "The tolerance rule").
//!
//! The tolerance is a per-channel float, 0.01 unless a `tolerance` command changes it
//! (shader_runner never derives it from the framebuffer's bits). It is applied two
//! ways, as piglit applies it to an RGBA8 window:
//!
//! * **one pixel** (`probe rgb(a) X Y`, `relative probe rgb(a) (X, Y)`): the stored
//!   byte `b` reads back as the float `b / 255`; the channel passes when
//!   `|b / 255 − expected| ≤ tolerance`. With 0.01 that is ±2 steps of 1/255 around
//!   the expected value, since 2/255 ≈ 0.0078 and 3/255 ≈ 0.0118;
//! * **a rectangle** (`probe rect ...`, `relative probe rect ...`, `probe all ...`):
//!   expected and tolerance become bytes first, `e = trunc(expected · 255)` and
//!   `t = ceil(tolerance · 255)` (3 for 0.01), and the channel passes when
//!   `|b − e| < t`. Truncating the expected value makes this test lopsided: 0.5
//!   expects byte 127 and accepts 125..=129.
//!
//! Pixels are scanned row by row from the bottom, left to right, and the first one
//! that fails is reported. Expected values outside [0, 1] saturate to 0 or 255 in the
//! byte rule (C's conversion, which piglit relies on, is undefined there).

use super::commands::{Probe, Region};
use csir_raster::Framebuffer;
use serde::Serialize;

/// shader_runner's default probe tolerance, per channel.
pub const DEFAULT_TOLERANCE: [f32; 4] = [0.01; 4];

/// How a probe compared a pixel.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// One pixel: `|byte / 255 − expected| ≤ tolerance` per channel.
    Float {
        /// The tolerance per channel.
        tolerance: [f32; 4],
    },
    /// A rectangle: `|byte − expected_byte| < tolerance_byte` per channel.
    Byte {
        /// `trunc(expected · 255)` per channel (saturated to 0..=255).
        expected: [u8; 4],
        /// `ceil(tolerance · 255)` per channel.
        tolerance: [u8; 4],
    },
}

/// The first pixel a probe found wrong.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProbeFailure {
    /// The pixel in window coordinates: x from the left, y up from the bottom row (as
    /// the probe command counts).
    pub pixel: [u32; 2],
    /// The expected colour, one value per compared channel.
    pub expected: Vec<f32>,
    /// What the pixel holds: RGBA8 (all four channels, compared or not).
    pub got: [u8; 4],
    /// How it was compared.
    pub rule: Rule,
}

/// A probe's pixels, resolved against the window: `x, y, width, height`.
/// The flag says whether the probe is a rectangle probe (byte rule).
fn resolve(region: Region, window: [u32; 2]) -> ([i64; 4], bool) {
    let [w, h] = window.map(i64::from);
    // C: float · int is a float product, converted to int by truncation.
    let scale = |f: f32, size: i64| (f * size as f32) as i64;
    match region {
        Region::Pixel([x, y]) => ([x as i64, y as i64, 1, 1], false),
        Region::RelativePixel([fx, fy]) => {
            let x = scale(fx, w).min(w - 1);
            let y = scale(fy, h).min(h - 1);
            ([x, y, 1, 1], false)
        }
        Region::Rect([x, y, rw, rh]) => ([x, y, rw, rh].map(i64::from), true),
        Region::RelativeRect([fx, fy, fw, fh]) => (
            [scale(fx, w), scale(fy, h), scale(fw, w), scale(fh, h)],
            true,
        ),
        Region::All => ([0, 0, w, h], true),
    }
}

/// Run `probe` on `framebuffer` with `tolerance`.
///
/// Returns `Ok(None)` when every pixel matches (an empty rectangle matches, as in
/// piglit), `Ok(Some(failure))` for the first pixel that does not.
///
/// # Errors
/// A message when the pixels reach outside the window (piglit would read undefined
/// values there).
pub fn run(
    framebuffer: &Framebuffer,
    probe: &Probe,
    tolerance: [f32; 4],
) -> Result<Option<ProbeFailure>, String> {
    let window = [framebuffer.width(), framebuffer.height()];
    let ([x, y, w, h], rect) = resolve(probe.region, window);
    if w <= 0 || h <= 0 {
        return Ok(None);
    }
    let [ww, wh] = window.map(i64::from);
    if x < 0 || y < 0 || x.saturating_add(w) > ww || y.saturating_add(h) > wh {
        let what = if rect && (w, h) != (1, 1) {
            format!("rectangle ({x}, {y}, {w}, {h})")
        } else {
            format!("pixel ({x}, {y})")
        };
        return Err(format!(
            "the probed {what} is not inside the {ww}x{wh} window"
        ));
    }
    let n = probe.channels.count();
    let rule = if rect {
        Rule::Byte {
            expected: probe.expected.map(|e| (e * 255.0) as u8),
            tolerance: tolerance.map(|t| (t * 255.0).ceil() as u8),
        }
    } else {
        Rule::Float { tolerance }
    };
    for py in y..y + h {
        for px in x..x + w {
            let pixel = [px as u32, py as u32];
            let got = framebuffer.color(pixel[0], pixel[1]).unwrap_or([0; 4]);
            if !matches(got, &probe.expected[..n], rule) {
                return Ok(Some(ProbeFailure {
                    pixel,
                    expected: probe.expected[..n].to_vec(),
                    got,
                    rule,
                }));
            }
        }
    }
    Ok(None)
}

/// Whether pixel `got` matches `expected` (3 or 4 channels) under `rule`.
fn matches(got: [u8; 4], expected: &[f32], rule: Rule) -> bool {
    expected.iter().enumerate().all(|(c, &e)| match rule {
        Rule::Float { tolerance } => (f32::from(got[c]) / 255.0 - e).abs() <= tolerance[c],
        Rule::Byte {
            expected,
            tolerance,
        } => got[c].abs_diff(expected[c]) < tolerance[c],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shader_test::commands::Channels;

    fn fb(color: [f32; 4]) -> Framebuffer {
        let mut fb = Framebuffer::new(4, 4).unwrap();
        fb.clear(color, 1.0);
        fb
    }

    fn probe(region: Region, channels: Channels, expected: [f32; 4]) -> Probe {
        Probe {
            region,
            channels,
            expected,
        }
    }

    #[test]
    fn one_pixel_accepts_two_steps_of_1_255() {
        // 0.5 stores as byte 128 (ties to even); 128/255 = 0.50196
        let f = fb([0.5, 0.0, 0.0, 1.0]);
        let at = |e: f32| {
            run(
                &f,
                &probe(Region::Pixel([1.0, 2.0]), Channels::Rgb, [e, 0.0, 0.0, 0.0]),
                DEFAULT_TOLERANCE,
            )
            .unwrap()
        };
        assert_eq!(at(0.5), None);
        // 128/255 − 0.01 = 0.49196: the lowest expected value that still passes
        assert_eq!(at(0.4920), None);
        let failure = at(0.4919).unwrap();
        assert_eq!(failure.pixel, [1, 2]);
        assert_eq!(failure.got, [128, 0, 0, 255]);
        assert_eq!(failure.expected, vec![0.4919, 0.0, 0.0]);
    }

    #[test]
    fn rectangles_compare_truncated_bytes() {
        let f = fb([0.0, 1.0, 0.0, 1.0]);
        let rect = |e: [f32; 4]| {
            run(
                &f,
                &probe(Region::Rect([0, 0, 4, 4]), Channels::Rgba, e),
                DEFAULT_TOLERANCE,
            )
            .unwrap()
        };
        assert_eq!(rect([0.0, 1.0, 0.0, 1.0]), None);
        // 0.992 · 255 = 252.96 truncates to 252: |255 − 252| = 3 is not < 3
        let failure = rect([0.0, 0.992, 0.0, 1.0]).unwrap();
        assert_eq!(failure.pixel, [0, 0]);
        assert_eq!(
            failure.rule,
            Rule::Byte {
                expected: [0, 252, 0, 255],
                tolerance: [3; 4]
            }
        );
        // 0.9999 truncates to 254: passes
        assert_eq!(rect([0.0, 0.9999, 0.0, 1.0]), None);
        // an empty rectangle passes, one outside the window is an error
        assert_eq!(
            run(
                &f,
                &probe(Region::Rect([0, 0, 0, 4]), Channels::Rgba, [9.0; 4]),
                DEFAULT_TOLERANCE
            )
            .unwrap(),
            None
        );
        assert_eq!(
            run(
                &f,
                &probe(Region::Rect([2, 2, 4, 4]), Channels::Rgba, [0.0; 4]),
                DEFAULT_TOLERANCE
            )
            .unwrap_err(),
            "the probed rectangle (2, 2, 4, 4) is not inside the 4x4 window"
        );
    }

    #[test]
    fn relative_probes_scale_and_clamp_to_the_last_pixel() {
        let mut f = Framebuffer::new(4, 4).unwrap();
        f.clear([0.0, 0.0, 0.0, 1.0], 1.0);
        let rel = |x: f32, y: f32| {
            run(
                &f,
                &probe(
                    Region::RelativePixel([x, y]),
                    Channels::Rgb,
                    [1.0, 1.0, 1.0, 0.0],
                ),
                DEFAULT_TOLERANCE,
            )
            .unwrap()
            .unwrap()
            .pixel
        };
        assert_eq!(rel(0.5, 0.26), [2, 1]);
        assert_eq!(rel(1.0, 1.0), [3, 3]);
        let all = run(
            &f,
            &probe(Region::All, Channels::Rgba, [0.0, 0.0, 0.0, 0.0]),
            DEFAULT_TOLERANCE,
        )
        .unwrap()
        .unwrap();
        assert_eq!((all.pixel, all.got), ([0, 0], [0, 0, 0, 255]));
    }
}
