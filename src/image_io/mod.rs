//! PNG in and out for RGBA8 images; OpenEXR for float and integer render targets
//! (`exr.rs`).
//!
//! Everything the renderer writes or compares is an [`Rgba8Image`]: 8-bit RGBA, row-major,
//! **top row first** (the order of a PNG file, and of `glReadPixels` output flipped
//! vertically). Textures use the opposite row order; see [`crate::texture::Texture`].
//!
//! Writing uses fast deflate settings, because a frame is written once and re-encoding it
//! must not cost more than rendering it (a busy 1920×1080 frame encodes in about 15 ms in a
//! release build, a flat one in 3 ms), and it is atomic: the bytes go to a temporary file in the destination
//! folder, which is then renamed over the destination, so a failed write never leaves a
//! half-written PNG behind.

mod error;
mod exr;
mod png;
mod rgba8_image;

pub use error::ImageIoError;
pub use exr::{decode_exr, encode_exr, exr_holds_integers, target_file_path, write_exr};
pub use png::{
    MAX_PNG_SIDE, decode_png, encode_png, png_dimensions, read_png, write_png, write_png_small,
};
pub use rgba8_image::Rgba8Image;
