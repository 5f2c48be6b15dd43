//! OpenEXR out and in for float and integer render targets (docs/scene-format.md
//! "Render targets"), through the `exr` crate.
//!
//! A target is written as one layer of four channels `R`, `G`, `B`, `A` (a format's
//! missing channels hold GL's read-back values 0, 0, 1), top row first, losslessly
//! (ZIP): a float target as 32-bit float samples (an `rgba16f` value widened
//! exactly), an integer target as 32-bit unsigned samples (an `rgba32i` value as its
//! two's-complement bit pattern).

use std::io::Cursor;
use std::path::{Path, PathBuf};

use exr::prelude::*;

use super::ImageIoError;
use crate::pipeline::TargetImage;
use csir_raster::TargetClass;

/// The file a target is written to next to `output` (`OUT.png`): target 0 is
/// `OUT.png`, target `k` `OUT.k.png`; a float or integer target takes `.exr`
/// instead (`OUT.exr`, `OUT.k.exr`).
pub fn target_file_path(output: &Path, k: usize, class: TargetClass) -> PathBuf {
    let ext = match class {
        TargetClass::Unorm => "png",
        _ => "exr",
    };
    let stem = output.with_extension("");
    let name = stem
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = if k == 0 {
        format!("{name}.{ext}")
    } else {
        format!("{name}.{k}.{ext}")
    };
    stem.with_file_name(file)
}

/// `image` encoded as an OpenEXR file (the module doc's layout).
///
/// # Errors
/// [`ImageIoError::Encode`] from the encoder.
pub fn encode_exr(image: &TargetImage) -> std::result::Result<Vec<u8>, ImageIoError> {
    let integer = matches!(
        image.target.format.class(),
        TargetClass::Uint | TargetClass::Int
    );
    let channel = |c: usize| -> AnyChannel<FlatSamples> {
        let name = ["R", "G", "B", "A"][c];
        let words = image.values.iter().map(|p| p[c]);
        let samples = if integer {
            FlatSamples::U32(words.collect())
        } else {
            FlatSamples::F32(words.map(f32::from_bits).collect())
        };
        AnyChannel::new(name, samples)
    };
    let channels = AnyChannels::sort(SmallVec::from_vec((0..4).map(channel).collect()));
    let size = (image.width as usize, image.height as usize);
    let layer = Layer::new(
        size,
        LayerAttributes::default(),
        Encoding::SMALL_LOSSLESS,
        channels,
    );
    let mut bytes = Vec::new();
    Image::from_layer(layer)
        .write()
        .to_buffered(Cursor::new(&mut bytes))
        .map_err(|e| ImageIoError::Encode {
            path: PathBuf::new(),
            message: format!("OpenEXR: {e}"),
        })?;
    Ok(bytes)
}

/// Writes `image` to `path` as OpenEXR (whole or nothing, as [`super::write_png`]).
///
/// # Errors
/// Encoding or writing fails.
pub fn write_exr(path: &Path, image: &TargetImage) -> std::result::Result<(), ImageIoError> {
    let bytes = encode_exr(image)?;
    Ok(crate::file_write::write_file(path, &bytes)?)
}

/// An OpenEXR file's first layer read back as [`encode_exr`] wrote it: width, height
/// and each pixel's `R`, `G`, `B`, `A` as 32-bit words (float samples as `f32` bits,
/// half samples widened, unsigned samples as they are), top row first. A missing
/// channel reads 0 (1.0 for `A`). [`exr_holds_integers`] tells which kind it holds.
///
/// # Errors
/// [`ImageIoError::Decode`] when the bytes are not an OpenEXR file the crate reads.
pub fn decode_exr(
    bytes: &[u8],
    path: &Path,
) -> std::result::Result<(u32, u32, Vec<[u32; 4]>), ImageIoError> {
    let fail = |message: String| ImageIoError::Decode {
        path: path.to_path_buf(),
        message,
    };
    let image = read()
        .no_deep_data()
        .largest_resolution_level()
        .all_channels()
        .first_valid_layer()
        .all_attributes()
        .from_buffered(Cursor::new(bytes))
        .map_err(|e| fail(e.to_string()))?;
    let layer = &image.layer_data;
    let (w, h) = (layer.size.width(), layer.size.height());
    let mut values = vec![[0, 0, 0, 1.0f32.to_bits()]; w * h];
    for channel in &layer.channel_data.list {
        let c = match channel.name.to_string().as_str() {
            "R" => 0,
            "G" => 1,
            "B" => 2,
            "A" => 3,
            _ => continue,
        };
        match &channel.sample_data {
            FlatSamples::U32(v) => {
                if c == 3 {
                    values.iter_mut().for_each(|p| p[3] = 0);
                }
                for (p, s) in values.iter_mut().zip(v) {
                    p[c] = *s;
                }
            }
            FlatSamples::F32(v) => {
                for (p, s) in values.iter_mut().zip(v) {
                    p[c] = s.to_bits();
                }
            }
            FlatSamples::F16(v) => {
                for (p, s) in values.iter_mut().zip(v) {
                    p[c] = s.to_f32().to_bits();
                }
            }
        }
    }
    Ok((w as u32, h as u32, values))
}

/// Whether an OpenEXR file's `R` channel holds 32-bit unsigned samples (an integer
/// target, as [`encode_exr`] writes it) rather than floats.
///
/// # Errors
/// As [`decode_exr`].
pub fn exr_holds_integers(bytes: &[u8], path: &Path) -> std::result::Result<bool, ImageIoError> {
    let meta = MetaData::read_from_buffered(Cursor::new(bytes), false).map_err(|e| {
        ImageIoError::Decode {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    })?;
    Ok(meta.headers.first().is_some_and(|h| {
        h.channels
            .list
            .first()
            .is_some_and(|c| c.sample_type == SampleType::U32)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use csir_raster::{ColorTarget, TargetFormat};

    #[test]
    fn float_and_integer_targets_round_trip() {
        for (format, values) in [
            (
                TargetFormat::Rgba32f,
                [1.5f32, -0.25, 1e-7, 65504.0].map(f32::to_bits),
            ),
            (TargetFormat::Rgba32i, [(-7i32) as u32, 1 << 31, 0, 42]),
        ] {
            let image = TargetImage {
                target: ColorTarget {
                    format,
                    framebuffer_srgb: false,
                },
                width: 3,
                height: 2,
                values: (0..6).map(|i| values.map(|v| v ^ i)).collect(),
            };
            let bytes = encode_exr(&image).unwrap();
            let (w, h, back) = decode_exr(&bytes, Path::new("t.exr")).unwrap();
            assert_eq!((w, h), (3, 2));
            assert_eq!(back, image.values, "{format:?}");
        }
    }

    #[test]
    fn target_files_sit_next_to_the_output() {
        let out = Path::new("dir/frame.png");
        assert_eq!(
            target_file_path(out, 0, TargetClass::Unorm),
            Path::new("dir/frame.png")
        );
        assert_eq!(
            target_file_path(out, 2, TargetClass::Unorm),
            Path::new("dir/frame.2.png")
        );
        assert_eq!(
            target_file_path(out, 0, TargetClass::Float),
            Path::new("dir/frame.exr")
        );
        assert_eq!(
            target_file_path(out, 3, TargetClass::Uint),
            Path::new("dir/frame.3.exr")
        );
    }
}
