//! The error type of texture construction: a side of 0 texels, or texel data whose
//! length does not match the texture's size.

/// Why texel data does not form a texture.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextureError {
    /// Width or height is 0.
    #[error("a texture must be at least 1x1 texels, got {width}x{height}")]
    Empty {
        /// Width in texels.
        width: u32,
        /// Height in texels.
        height: u32,
    },
    /// The texel count is not width · height.
    #[error("a {width}x{height} texture needs {} texels, got {len}", *width as u64 * *height as u64)]
    SizeMismatch {
        /// Width in texels.
        width: u32,
        /// Height in texels.
        height: u32,
        /// Number of texels given.
        len: usize,
    },
}
