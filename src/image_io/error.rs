//! The error type of PNG input and output: which file (or in-memory data) and whether
//! reading, decoding, encoding or writing failed.

use std::path::PathBuf;

/// Why a PNG could not be read, decoded, encoded or written.
///
/// The path is the one the caller passed (or empty for in-memory data); the message
/// comes from the operating system or the PNG codec.
#[derive(Debug, thiserror::Error)]
pub enum ImageIoError {
    /// The file could not be opened, read, created, written or renamed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file the operation was about.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The bytes are not a PNG this loader accepts (corrupt, truncated).
    #[error("{}: not a readable PNG: {message}", path.display())]
    Decode {
        /// The file the bytes came from (empty for in-memory data).
        path: PathBuf,
        /// What the decoder reported.
        message: String,
    },
    /// The PNG's header announces a side larger than
    /// [`MAX_PNG_SIDE`](super::MAX_PNG_SIDE); nothing was decoded.
    #[error(
        "{}: the PNG is {width}x{height}; the largest width and height accepted are \
         {max} pixels (llvmpipe's GL_MAX_TEXTURE_SIZE)",
        path.display()
    )]
    TooLarge {
        /// The file the bytes came from (empty for in-memory data).
        path: PathBuf,
        /// Width in pixels, from the header.
        width: u32,
        /// Height in pixels, from the header.
        height: u32,
        /// The largest side accepted ([`MAX_PNG_SIDE`](super::MAX_PNG_SIDE)).
        max: u32,
    },
    /// The encoded image could not be written (see [`crate::file_write`]).
    #[error("{0}")]
    Write(#[from] crate::file_write::WriteError),
    /// The pixel buffer does not describe an image that can be encoded.
    #[error("cannot encode a {width}x{height} RGBA8 image from {len} bytes{}", detail(.path))]
    BadBuffer {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// Length of the pixel buffer in bytes (must be width · height · 4).
        len: usize,
        /// The destination file, if any.
        path: PathBuf,
    },
    /// The PNG encoder failed.
    #[error("cannot encode PNG{}: {message}", detail(.path))]
    Encode {
        /// The destination file, if any.
        path: PathBuf,
        /// What the encoder reported.
        message: String,
    },
}

fn detail(path: &std::path::Path) -> String {
    if path.as_os_str().is_empty() {
        String::new()
    } else {
        format!(" for {}", path.display())
    }
}
