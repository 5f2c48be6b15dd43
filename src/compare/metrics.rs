//! The metrics of an image comparison: the largest channel difference, how many pixels
//! differ and how many are over a tolerance, the mean absolute error and the PSNR, with
//! the channel conventions of `compare_png.py` (see [`super`]).

use crate::image_io::Rgba8Image;

/// Why two images cannot be compared.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompareError {
    /// The images have different sizes.
    #[error("image sizes differ: {}x{} vs {}x{}", .a.0, .a.1, .b.0, .b.1)]
    SizeMismatch {
        /// Width and height of the first image.
        a: (u32, u32),
        /// Width and height of the second image.
        b: (u32, u32),
    },
}

/// How two same-sized RGBA8 images differ. Differences are in UNORM8 steps (1 = 1/255).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImageDiff {
    /// Width of both images in pixels.
    pub width: u32,
    /// Height of both images in pixels.
    pub height: u32,
    /// width · height.
    pub pixels: u64,
    /// Largest |a − b| over every channel (RGBA) of every pixel, 0..=255.
    pub max_channel_diff: u8,
    /// Mean of |a − b| over the R, G and B channels of every pixel, in 1/255 units
    /// (0.0 = identical, 255.0 = black vs white everywhere).
    pub mean_abs_error: f64,
    /// Peak signal-to-noise ratio over R, G and B in dB: 10 · log10(255² / MSE);
    /// `f64::INFINITY` when the images are identical in R, G and B.
    pub psnr_db: f64,
    /// Pixels where any channel (RGBA) differs at all.
    pub differing_pixels: u64,
    /// The tolerance the comparison was made with, in 1/255 units.
    pub tolerance: u8,
    /// Pixels where any channel (RGBA) differs by more than `tolerance`.
    pub over_tolerance_pixels: u64,
    /// The first pixel, in reading order (top row first, x from the left), whose
    /// largest channel difference is [`ImageDiff::max_channel_diff`], as `[x, y]`;
    /// `None` when the images are identical. The pixel to `trace` first.
    pub worst_pixel: Option<[u32; 2]>,
}

impl ImageDiff {
    /// True when no pixel differs by more than the tolerance.
    pub fn within_tolerance(&self) -> bool {
        self.over_tolerance_pixels == 0
    }

    /// The share of pixels over the tolerance, in percent (0.0..=100.0).
    pub fn over_tolerance_percent(&self) -> f64 {
        if self.pixels == 0 {
            0.0
        } else {
            self.over_tolerance_pixels as f64 * 100.0 / self.pixels as f64
        }
    }
}

/// Checks that two images have the same size.
pub(super) fn same_size(a: &Rgba8Image, b: &Rgba8Image) -> Result<(), CompareError> {
    if (a.width(), a.height()) == (b.width(), b.height()) {
        Ok(())
    } else {
        Err(CompareError::SizeMismatch {
            a: (a.width(), a.height()),
            b: (b.width(), b.height()),
        })
    }
}

/// Compares two RGBA8 images channel by channel. `tolerance` (in 1/255 units) only
/// affects [`ImageDiff::over_tolerance_pixels`]. Whether a render matches its reference
/// is decided from these metrics by [`super::ToleranceRule`].
///
/// # Errors
/// [`CompareError::SizeMismatch`] when the sizes differ.
pub fn compare(a: &Rgba8Image, b: &Rgba8Image, tolerance: u8) -> Result<ImageDiff, CompareError> {
    same_size(a, b)?;
    let mut max_channel_diff = 0u8;
    let mut sum_abs = 0u64;
    let mut sum_sq = 0u64;
    let mut differing_pixels = 0u64;
    let mut over_tolerance_pixels = 0u64;
    let mut worst_index = None;
    for (index, (pa, pb)) in a
        .pixels()
        .chunks_exact(4)
        .zip(b.pixels().chunks_exact(4))
        .enumerate()
    {
        let mut pixel_max = 0u8;
        for c in 0..4 {
            let d = pa[c].abs_diff(pb[c]);
            pixel_max = pixel_max.max(d);
            if c < 3 {
                sum_abs += u64::from(d);
                sum_sq += u64::from(d) * u64::from(d);
            }
        }
        if pixel_max > max_channel_diff {
            max_channel_diff = pixel_max;
            worst_index = Some(index);
        }
        differing_pixels += u64::from(pixel_max > 0);
        over_tolerance_pixels += u64::from(pixel_max > tolerance);
    }
    let pixels = u64::from(a.width()) * u64::from(a.height());
    let samples = (pixels * 3) as f64;
    let mse = sum_sq as f64 / samples;
    let psnr_db = if sum_sq == 0 {
        f64::INFINITY
    } else {
        10.0 * (255.0f64 * 255.0 / mse).log10()
    };
    Ok(ImageDiff {
        width: a.width(),
        height: a.height(),
        pixels,
        max_channel_diff,
        mean_abs_error: sum_abs as f64 / samples,
        psnr_db,
        differing_pixels,
        tolerance,
        over_tolerance_pixels,
        worst_pixel: worst_index.map(|i| {
            let width = a.width() as usize;
            [(i % width) as u32, (i / width) as u32]
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(width: u32, height: u32, pixels: &[[u8; 4]]) -> Rgba8Image {
        Rgba8Image::new(width, height, pixels.concat()).unwrap()
    }

    #[test]
    fn identical_images_have_no_difference_and_infinite_psnr() {
        let a = image(2, 1, &[[1, 2, 3, 255], [200, 100, 0, 255]]);
        let d = compare(&a, &a.clone(), 0).unwrap();
        assert_eq!(d.max_channel_diff, 0);
        assert_eq!(d.mean_abs_error, 0.0);
        assert_eq!(d.psnr_db, f64::INFINITY);
        assert_eq!(d.worst_pixel, None);
        assert_eq!(
            (d.differing_pixels, d.over_tolerance_pixels, d.pixels),
            (0, 0, 2)
        );
        assert!(d.within_tolerance());
    }

    #[test]
    fn known_differences_give_known_metrics() {
        // 4 pixels; differences per pixel (R, G, B, A):
        // p0: (0,0,0,0)  p1: (1,0,0,0)  p2: (3,0,2,0)  p3: (0,0,0,5) (alpha only)
        let a = image(
            2,
            2,
            &[
                [10, 10, 10, 255],
                [10, 10, 10, 255],
                [10, 10, 10, 255],
                [10, 10, 10, 255],
            ],
        );
        let b = image(
            2,
            2,
            &[
                [10, 10, 10, 255],
                [11, 10, 10, 255],
                [7, 10, 12, 255],
                [10, 10, 10, 250],
            ],
        );
        let d = compare(&a, &b, 2).unwrap();
        assert_eq!(d.max_channel_diff, 5);
        assert_eq!(d.differing_pixels, 3);
        assert_eq!(d.over_tolerance_pixels, 2); // p2 (3 > 2) and p3 (5 > 2)
        assert_eq!(d.over_tolerance_percent(), 50.0);
        assert_eq!(d.worst_pixel, Some([1, 1])); // p3: alpha off by 5
        assert!(!d.within_tolerance());
        // RGB only: |1| + |3| + |2| = 6 over 12 samples
        assert_eq!(d.mean_abs_error, 0.5);
        // MSE = (1 + 9 + 4) / 12; PSNR = 10 log10(65025 · 12 / 14)
        let expected = 10.0 * (65025.0f64 * 12.0 / 14.0).log10();
        assert!((d.psnr_db - expected).abs() < 1e-9, "{}", d.psnr_db);
        assert!((d.psnr_db - 47.4613).abs() < 1e-3);
        // the same pair with tolerance 5 is within tolerance
        assert!(compare(&a, &b, 5).unwrap().within_tolerance());
    }

    #[test]
    fn black_against_white_is_the_worst_case() {
        let black = Rgba8Image::filled(3, 3, [0, 0, 0, 255]).unwrap();
        let white = Rgba8Image::filled(3, 3, [255, 255, 255, 255]).unwrap();
        let d = compare(&black, &white, 2).unwrap();
        assert_eq!(d.max_channel_diff, 255);
        assert_eq!(d.mean_abs_error, 255.0);
        assert_eq!(d.psnr_db, 0.0);
        assert_eq!(d.over_tolerance_pixels, 9);
        // every pixel is off by 255: the first one is the worst
        assert_eq!(d.worst_pixel, Some([0, 0]));
    }

    #[test]
    fn a_size_mismatch_is_an_error() {
        let a = Rgba8Image::filled(3, 2, [0; 4]).unwrap();
        let b = Rgba8Image::filled(2, 3, [0; 4]).unwrap();
        let err = compare(&a, &b, 0).unwrap_err();
        assert_eq!(
            err,
            CompareError::SizeMismatch {
                a: (3, 2),
                b: (2, 3)
            }
        );
        assert_eq!(err.to_string(), "image sizes differ: 3x2 vs 2x3");
    }
}
