//! PNG decoding and encoding for [`Rgba8Image`](super::Rgba8Image): any PNG colour type
//! in, RGBA8 out, with a size limit checked before pixel memory is allocated; the
//! encoder's settings (compression, filter) are fixed, so the same image always gives
//! the same bytes.

use std::io::Cursor;
use std::path::Path;

use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{
    DynamicImage, ExtendedColorType, ImageDecoder, ImageEncoder, ImageFormat, ImageReader,
};

use super::{ImageIoError, Rgba8Image};
use crate::file_read::{MAX_PNG_BYTES, read_bounded};

/// Largest width or height accepted when decoding a PNG, in pixels (the scene format's
/// framebuffer limit, and llvmpipe's `GL_MAX_TEXTURE_SIZE`). Larger files are rejected
/// before any pixel memory is allocated.
pub const MAX_PNG_SIDE: u32 = 16384;

/// The width and height a PNG's header announces, read without decoding any pixel;
/// `None` when the bytes do not start with a readable PNG header (decoding them will
/// then give the error).
pub fn png_dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    ImageReader::with_format(Cursor::new(bytes), ImageFormat::Png)
        .into_dimensions()
        .ok()
}

/// Decodes PNG bytes to RGBA8, top row first.
///
/// Any PNG colour type and bit depth is accepted: grey and RGB get alpha 255, palettes are
/// expanded, 16-bit channels are reduced to 8 bits. `path` only labels errors (pass
/// `Path::new("")` for in-memory data).
///
/// # Errors
/// [`ImageIoError::TooLarge`] when the header announces a side larger than
/// [`MAX_PNG_SIDE`] (checked before any pixel is decoded); [`ImageIoError::Decode`] for
/// bytes that are not a complete PNG.
pub fn decode_png(bytes: &[u8], path: &Path) -> Result<Rgba8Image, ImageIoError> {
    let decode_error = |message: String| ImageIoError::Decode {
        path: path.to_path_buf(),
        message,
    };
    let decoder = ImageReader::with_format(Cursor::new(bytes), ImageFormat::Png)
        .into_decoder()
        .map_err(|e| decode_error(e.to_string()))?;
    let (width, height) = decoder.dimensions();
    if width.max(height) > MAX_PNG_SIDE {
        return Err(ImageIoError::TooLarge {
            path: path.to_path_buf(),
            width,
            height,
            max: MAX_PNG_SIDE,
        });
    }
    let rgba = DynamicImage::from_decoder(decoder)
        .map_err(|e| decode_error(e.to_string()))?
        .into_rgba8();
    let (width, height) = rgba.dimensions();
    Rgba8Image::new(width, height, rgba.into_raw())
        .ok_or_else(|| decode_error(format!("empty image ({width}x{height})")))
}

/// Reads a PNG file and decodes it to RGBA8, top row first (see [`decode_png`]).
///
/// At most [`MAX_PNG_BYTES`] are read (see [`read_bounded`]).
///
/// # Errors
/// [`ImageIoError::Io`] when the file cannot be read, is not a regular file or pipe, or
/// is larger than [`MAX_PNG_BYTES`]; [`ImageIoError::TooLarge`] and
/// [`ImageIoError::Decode`] as [`decode_png`].
pub fn read_png(path: &Path) -> Result<Rgba8Image, ImageIoError> {
    let bytes = read_bounded(path, MAX_PNG_BYTES).map_err(|source| ImageIoError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    decode_png(&bytes, path)
}

/// Encodes RGBA8 pixels (`width · height · 4` bytes, top row first) as an 8-bit RGBA PNG.
///
/// Uses the fast deflate level (`fdeflate`) with the Paeth row filter. Measured on the
/// 1920×1080 `procedural_1080p` frame (release build): 15 ms and 2.23 MB, against 21 ms
/// for adaptive filters (same size), 14 ms / 2.5–3.0 MB for `Up`/`Sub`, and 595 ms /
/// 1.45 MB for the default deflate level; llvmpipe needs about 37 CPU-ms to render it.
///
/// # Errors
/// [`ImageIoError::BadBuffer`] when the buffer length does not match the size or a side
/// is 0; [`ImageIoError::Encode`] if the encoder fails.
pub fn encode_png(width: u32, height: u32, pixels: &[u8]) -> Result<Vec<u8>, ImageIoError> {
    encode_png_for(width, height, pixels, Path::new(""), Effort::Fast)
}

/// How hard the encoder works on the file's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Effort {
    /// Fast deflate, Paeth filter: output images ([`encode_png`]'s measurements).
    Fast,
    /// Best deflate, adaptive filters: files kept in the repository (reference images:
    /// `triangle.llvmpipe.png` is 22 KB fast and 4 KB small).
    Small,
}

fn encode_png_for(
    width: u32,
    height: u32,
    pixels: &[u8],
    path: &Path,
    effort: Effort,
) -> Result<Vec<u8>, ImageIoError> {
    let expected = (width as usize)
        .checked_mul(height as usize)
        .and_then(|n| n.checked_mul(4));
    if width == 0 || height == 0 || expected != Some(pixels.len()) {
        return Err(ImageIoError::BadBuffer {
            width,
            height,
            len: pixels.len(),
            path: path.to_path_buf(),
        });
    }
    // Deflate output of a rendered frame is typically 5-30% of the raw size.
    let mut out = Vec::with_capacity(pixels.len() / 4 + 1024);
    let (compression, filter) = match effort {
        Effort::Fast => (CompressionType::Fast, FilterType::Paeth),
        Effort::Small => (CompressionType::Best, FilterType::Adaptive),
    };
    PngEncoder::new_with_quality(&mut out, compression, filter)
        .write_image(pixels, width, height, ExtendedColorType::Rgba8)
        .map_err(|e| ImageIoError::Encode {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
    Ok(out)
}

/// Encodes RGBA8 pixels (top row first) as PNG and writes them to `path` by the rules
/// of [`file_write`](crate::file_write) (atomically for a regular file; `-` is
/// standard output).
///
/// # Errors
/// As [`encode_png`], plus [`ImageIoError::Write`] when the file cannot be written; in
/// every error case a regular file at `path` is left as it was.
pub fn write_png(path: &Path, width: u32, height: u32, pixels: &[u8]) -> Result<(), ImageIoError> {
    let bytes = encode_png_for(width, height, pixels, path, Effort::Fast)?;
    Ok(crate::file_write::write_file(path, &bytes)?)
}

/// [`write_png`] for a file that is kept, a reference image: the encoder works for the
/// smallest file (best deflate, adaptive filters) instead of speed. The pixels are the
/// same.
///
/// # Errors
/// As [`write_png`].
pub fn write_png_small(
    path: &Path,
    width: u32,
    height: u32,
    pixels: &[u8],
) -> Result<(), ImageIoError> {
    let bytes = encode_png_for(width, height, pixels, path, Effort::Small)?;
    Ok(crate::file_write::write_file(path, &bytes)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::path::PathBuf;

    fn scratch_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "csir-render-image-io-{name}-{}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn gradient(width: u32, height: u32) -> Vec<u8> {
        let mut px = Vec::new();
        for y in 0..height {
            for x in 0..width {
                px.extend_from_slice(&[(x * 7) as u8, (y * 5) as u8, (x ^ y) as u8, 200]);
            }
        }
        px
    }

    #[test]
    fn encode_then_decode_gives_the_same_pixels() {
        let px = gradient(37, 11);
        let png = encode_png(37, 11, &px).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let img = decode_png(&png, Path::new("")).unwrap();
        assert_eq!((img.width(), img.height()), (37, 11));
        assert_eq!(img.pixels(), &px[..]);
        // top row first: pixel (3, 0) is the first row of the buffer
        assert_eq!(img.pixel(3, 0), Some([21, 0, 3, 200]));
        assert_eq!(img.pixel(3, 10), Some([21, 50, 9, 200]));
    }

    #[test]
    fn encode_rejects_a_buffer_of_the_wrong_size() {
        assert!(matches!(
            encode_png(4, 4, &[0; 63]),
            Err(ImageIoError::BadBuffer { len: 63, .. })
        ));
        assert!(matches!(
            encode_png(0, 4, &[]),
            Err(ImageIoError::BadBuffer { .. })
        ));
    }

    /// A side over `MAX_PNG_SIDE` is refused from the header, with both sizes and the
    /// limit in the message; a side of exactly `MAX_PNG_SIDE` decodes.
    #[test]
    fn decode_names_the_size_and_the_limit_of_a_too_large_png() {
        let side = MAX_PNG_SIDE as usize;
        for (width, height) in [(side + 1, 1), (1, side + 1)] {
            let png =
                encode_png(width as u32, height as u32, &vec![7; width * height * 4]).unwrap();
            let err = decode_png(&png, Path::new("big.png")).unwrap_err();
            assert!(
                matches!(err, ImageIoError::TooLarge { max, .. } if max == MAX_PNG_SIDE),
                "{err}"
            );
            assert_eq!(
                err.to_string(),
                format!(
                    "big.png: the PNG is {width}x{height}; the largest width and height \
                     accepted are {side} pixels (llvmpipe's GL_MAX_TEXTURE_SIZE)"
                )
            );
        }
        let png = encode_png(MAX_PNG_SIDE, 1, &vec![7; side * 4]).unwrap();
        assert_eq!(
            decode_png(&png, Path::new("")).unwrap().width(),
            MAX_PNG_SIDE
        );
    }

    #[test]
    fn decode_rejects_garbage_and_truncated_files() {
        let err = decode_png(b"not a png", Path::new("x.png")).unwrap_err();
        assert!(
            err.to_string().starts_with("x.png: not a readable PNG"),
            "{err}"
        );
        let png = encode_png(8, 8, &gradient(8, 8)).unwrap();
        assert!(decode_png(&png[..png.len() / 2], Path::new("")).is_err());
    }

    #[test]
    fn write_replaces_the_file_and_leaves_no_temporary() {
        let dir = scratch_dir("write");
        let path = dir.join("out.png");
        fs::write(&path, b"old").unwrap();
        write_png(&path, 5, 3, &gradient(5, 3)).unwrap();
        assert_eq!(read_png(&path).unwrap().pixels(), &gradient(5, 3)[..]);
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("out.png")]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn failed_write_leaves_the_old_file_untouched() {
        let dir = scratch_dir("fail");
        let path = dir.join("out.png");
        fs::write(&path, b"old").unwrap();
        // a bad buffer fails before anything is written
        assert!(write_png(&path, 5, 3, &[0; 7]).is_err());
        // a missing folder fails when the temporary file is created
        let missing = dir.join("no-such-folder").join("out.png");
        let err = write_png(&missing, 1, 1, &[1, 2, 3, 4]).unwrap_err();
        assert!(matches!(err, ImageIoError::Write(_)), "{err}");
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn read_refuses_an_endless_device_at_once() {
        let err = read_png(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(err.to_string(), "/dev/zero: not a regular file");
    }

    #[test]
    fn read_refuses_a_file_over_the_limit_without_reading_it() {
        let dir = scratch_dir("huge");
        let path = dir.join("huge.png");
        // Sparse: no disk space, and nothing is read.
        let file = fs::File::create(&path).unwrap();
        file.set_len(MAX_PNG_BYTES + 1).unwrap();
        let err = read_png(&path).unwrap_err();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            err.to_string(),
            format!(
                "{}: 536870913 bytes, larger than the 536870912-byte limit",
                path.display()
            )
        );
    }

    #[test]
    fn read_reports_a_missing_file_with_its_path() {
        let err = read_png(Path::new("/nonexistent/dir/a.png")).unwrap_err();
        assert!(
            err.to_string().starts_with("/nonexistent/dir/a.png: "),
            "{err}"
        );
    }
}
