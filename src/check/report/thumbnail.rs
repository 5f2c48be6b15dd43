//! Thumbnails for the HTML report: an image scaled down to fit a fixed box, keeping its
//! aspect ratio, encoded as PNG; heat maps are reduced by their maximum so a single
//! differing pixel stays visible.

use crate::image_io::{Rgba8Image, encode_png};
use image::RgbaImage;

/// Largest thumbnail width in the report, pixels.
pub const THUMB_WIDTH: u32 = 192;
/// Largest thumbnail height in the report, pixels.
pub const THUMB_HEIGHT: u32 = 128;

/// How a thumbnail combines the source pixels under each of its pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// Their average (image's `thumbnail`): for renders and references.
    Mean,
    /// Their largest value per channel: for heat maps, so that one differing pixel
    /// still shows in the thumbnail. (The heat ramp rises in every channel, so the
    /// per-channel maximum is the colour of the hottest pixel.)
    Max,
}

/// `image` scaled down to fit [`THUMB_WIDTH`] × [`THUMB_HEIGHT`] keeping its aspect
/// ratio (never scaled up), as PNG bytes.
pub fn thumbnail_png(image: &Rgba8Image, reduce: Reduce) -> Vec<u8> {
    let (w, h) = fit(image.width(), image.height());
    let small = if (w, h) == (image.width(), image.height()) {
        image.clone()
    } else {
        match reduce {
            Reduce::Mean => {
                let source =
                    RgbaImage::from_raw(image.width(), image.height(), image.pixels().to_vec())
                        .expect("an Rgba8Image has its size's pixels");
                let out = image::imageops::thumbnail(&source, w, h);
                Rgba8Image::new(w, h, out.into_raw()).expect("thumbnail size")
            }
            Reduce::Max => max_pool(image, w, h),
        }
    };
    encode_png(small.width(), small.height(), small.pixels()).expect("a thumbnail is a valid image")
}

/// The thumbnail size of a `width` × `height` image: the largest that fits the box
/// with the same aspect ratio, at least 1 × 1.
fn fit(width: u32, height: u32) -> (u32, u32) {
    let scale = f64::min(
        f64::from(THUMB_WIDTH) / f64::from(width),
        f64::from(THUMB_HEIGHT) / f64::from(height),
    )
    .min(1.0);
    let w = (f64::from(width) * scale).round().max(1.0) as u32;
    let h = (f64::from(height) * scale).round().max(1.0) as u32;
    (w, h)
}

/// Downscales to `w` × `h`: each output pixel takes the per-channel maximum of the
/// source pixels whose centres fall in it.
fn max_pool(image: &Rgba8Image, w: u32, h: u32) -> Rgba8Image {
    let (sw, sh) = (image.width() as usize, image.height() as usize);
    let mut out = vec![0u8; w as usize * h as usize * 4];
    for sy in 0..sh {
        let ty = sy * h as usize / sh;
        for sx in 0..sw {
            let tx = sx * w as usize / sw;
            let s = (sy * sw + sx) * 4;
            let t = (ty * w as usize + tx) * 4;
            for c in 0..4 {
                out[t + c] = out[t + c].max(image.pixels()[s + c]);
            }
        }
    }
    Rgba8Image::new(w, h, out).expect("the output buffer has w·h pixels")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::image_io::decode_png;
    use std::path::Path;

    #[test]
    fn thumbnails_fit_the_box_and_keep_the_aspect_ratio() {
        assert_eq!(fit(1920, 1080), (192, 108));
        assert_eq!(fit(256, 256), (128, 128));
        assert_eq!(fit(100, 50), (100, 50));
        assert_eq!(fit(10000, 1), (192, 1));
    }

    #[test]
    fn one_hot_pixel_survives_a_heat_map_thumbnail() {
        let mut heat = Rgba8Image::filled(960, 640, [0, 0, 0, 255]).unwrap();
        let i = (321 * 960 + 517) * 4;
        heat.pixels_mut()[i..i + 4].copy_from_slice(&[255, 255, 0, 255]);
        let small = decode_png(&thumbnail_png(&heat, Reduce::Max), Path::new("")).unwrap();
        assert_eq!((small.width(), small.height()), (192, 128));
        // 517 · 192 / 960 = 103.4, 321 · 128 / 640 = 64.2
        assert_eq!(small.pixel(103, 64), Some([255, 255, 0, 255]));
        assert_eq!(small.pixel(102, 64), Some([0, 0, 0, 255]));
        // averaged, the same pixel all but disappears
        let mean = decode_png(&thumbnail_png(&heat, Reduce::Mean), Path::new("")).unwrap();
        assert!(
            mean.pixels().chunks_exact(4).all(|p| p[0] < 32),
            "averaging keeps it faint"
        );
    }
}
