//! Textures and texture sampling, as OpenGL 3.3 defines them for `texture(sampler2D, uv)`
//! on an RGBA8 texture, with or without a mip chain.
//!
//! * [`Texture`] holds RGBA8 texels with **row 0 at the bottom** (t = 0): a PNG is
//!   flipped on load, as the scene format (`csir-scene/1`) and most OpenGL programs do.
//! * [`Sampler`] is the sampler state, a [`Filter`] and a [`Wrap`] mode applied to both s
//!   and t. [`Texture::sample`] returns RGBA in 0..=1.
//! * A sampler's [`MinFilter`] may be mipmapped: the texture then gets its chain
//!   ([`Texture::with_mipmaps`], as `glGenerateMipmap` makes it) and
//!   [`Texture::sample_lod`] picks and blends levels by the level of detail
//!   (`mipmap.rs`).
//!
//! The reference renderer is Mesa llvmpipe, and sampling reproduces its arithmetic, not
//! just the GL formulas: bilinear filtering with `clamp` and `repeat` runs in 8.8 fixed
//! point (weights in 1/256 steps, 8-bit lerps) as llvmpipe's AoS sampler does, and `mirror`
//! filters in f32 as its SoA sampler does. Every pixel of
//! `reference-images/texture_filter_grid` (5×3 and 64×64 textures, linear, all three
//! wraps, magnified and minified) is reproduced bit for bit (`llvmpipe_tests.rs`); on
//! larger exploratory grids (1024×1024 samples each of 5×3, 4×4 and 7×6 textures, all six
//! filter/wrap pairs) nearest and linear clamp/repeat were bit-identical and linear mirror
//! was off by 1/255 on at most 16 pixels per million.
//!
//! The batch interpreter samples 8 lanes at a time through [`Texture::sample_group`]
//! (`lanes.rs`): the same arithmetic in `f32x8`/`i32x8`, bit for bit, with only the
//! texel loads done lane by lane.

mod error;
pub mod gl33;
mod lanes;
#[cfg(test)]
mod llvmpipe_tests;
mod mipmap;
mod sampler;
mod texels;

pub use error::TextureError;
pub use sampler::{Filter, MinFilter, Sampler, Wrap};
pub use texels::Texture;
