//! The heat map of where two images differ (`diff --heatmap`, the check report): black
//! where the pixels are equal, then dark red to white as the largest channel difference
//! grows.

use super::CompareError;
use super::metrics::same_size;
use crate::image_io::Rgba8Image;

/// The default heat-map gain: a difference of 16/255 or more is drawn at full heat
/// (`compare_png.py --diff` scales by 16 too).
pub const DEFAULT_HEAT_GAIN: u32 = 16;

/// A heat map of where two same-sized images differ, for writing as a PNG.
///
/// Each pixel shows d = the largest |a − b| over its four channels: **black where
/// d = 0**; otherwise a colour on the ramp dark red → red → yellow → white at
/// heat = min(1, d · `gain` / 255), starting at dark red (96, 0, 0) so a difference of a
/// single step is still visible. Alpha is 255.
///
/// # Errors
/// [`CompareError::SizeMismatch`] when the sizes differ.
pub fn heat_map(a: &Rgba8Image, b: &Rgba8Image, gain: u32) -> Result<Rgba8Image, CompareError> {
    same_size(a, b)?;
    let mut out = Vec::with_capacity(a.pixels().len());
    for (pa, pb) in a.pixels().chunks_exact(4).zip(b.pixels().chunks_exact(4)) {
        let d = (0..4).map(|c| pa[c].abs_diff(pb[c])).max().unwrap_or(0);
        out.extend_from_slice(&heat_colour(d, gain));
    }
    Ok(Rgba8Image::new(a.width(), a.height(), out).expect("same size as the inputs"))
}

/// The heat-map colour (RGBA) for a largest channel difference `d` (0..=255, in 1/255
/// steps) at `gain` (see [`heat_map`]).
pub fn heat_colour(d: u8, gain: u32) -> [u8; 4] {
    if d == 0 {
        return [0, 0, 0, 255];
    }
    let heat = (f64::from(d) * f64::from(gain) / 255.0).min(1.0);
    // three segments: (96,0,0)→(255,0,0), →(255,255,0), →(255,255,255)
    let (r, g, b) = match heat * 3.0 {
        x if x < 1.0 => (96.0 + 159.0 * x, 0.0, 0.0),
        x if x < 2.0 => (255.0, 255.0 * (x - 1.0), 0.0),
        x => (255.0, 255.0, 255.0 * (x - 2.0)),
    };
    [r.round() as u8, g.round() as u8, b.round() as u8, 255]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_pixels_are_black_and_differences_are_hot() {
        let a = Rgba8Image::new(
            4,
            1,
            [
                [0, 0, 0, 255],
                [9, 9, 9, 255],
                [0, 0, 0, 255],
                [50, 50, 50, 255],
            ]
            .concat(),
        )
        .unwrap();
        let b = Rgba8Image::new(
            4,
            1,
            [
                [0, 0, 0, 255],
                [9, 10, 9, 255],
                [0, 0, 0, 0],
                [50, 50, 50, 255],
            ]
            .concat(),
        )
        .unwrap();
        let h = heat_map(&a, &b, DEFAULT_HEAT_GAIN).unwrap();
        assert_eq!(h.pixel(0, 0), Some([0, 0, 0, 255]));
        // d = 1: heat 16/255 → 96 + 159 · 3 · 16/255 = 125.9
        assert_eq!(h.pixel(1, 0), Some([126, 0, 0, 255]));
        // alpha difference of 255 → full heat: white
        assert_eq!(h.pixel(2, 0), Some([255, 255, 255, 255]));
        assert_eq!(h.pixel(3, 0), Some([0, 0, 0, 255]));
    }

    #[test]
    fn the_ramp_passes_through_red_and_yellow() {
        // gain 1: heat = d / 255
        assert_eq!(heat_colour(85, 1), [255, 0, 0, 255]);
        assert_eq!(heat_colour(170, 1), [255, 255, 0, 255]);
        assert_eq!(heat_colour(255, 1), [255, 255, 255, 255]);
        assert_eq!(heat_colour(255, 0), [96, 0, 0, 255]); // any difference stays visible
    }

    #[test]
    fn a_size_mismatch_is_an_error() {
        let a = Rgba8Image::filled(1, 2, [0; 4]).unwrap();
        let b = Rgba8Image::filled(2, 1, [0; 4]).unwrap();
        assert!(heat_map(&a, &b, 16).is_err());
    }
}
