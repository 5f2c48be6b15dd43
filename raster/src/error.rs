//! Errors of the raster API.

use thiserror::Error;

/// Largest framebuffer edge in pixels (the scene format's limit).
pub const MAX_FRAMEBUFFER_SIZE: u32 = 16384;

/// A framebuffer that cannot be created.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum FramebufferError {
    /// Width or height outside `1..=MAX_FRAMEBUFFER_SIZE`.
    #[error("framebuffer size {width}x{height} is outside 1..={max} per side")]
    InvalidSize {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
        /// [`MAX_FRAMEBUFFER_SIZE`].
        max: u32,
    },
}

/// A draw call that cannot be executed; nothing was drawn.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum DrawError {
    /// `indices[position]` is not below the draw's vertex count.
    #[error("index {index} at position {position} is out of range (vertex count {vertex_count})")]
    IndexOutOfRange {
        /// Position in the index list.
        position: usize,
        /// The offending index.
        index: u32,
        /// The draw's vertex count.
        vertex_count: u32,
    },
    /// The vertex stage declares more varyings than [`crate::MAX_VARYINGS`].
    #[error("vertex stage outputs {count} varyings, more than the limit of {max}")]
    TooManyVaryings {
        /// `VertexStage::varying_count()`.
        count: usize,
        /// [`crate::MAX_VARYINGS`].
        max: usize,
    },
    /// A pair of [`VertexStage::back_face_varyings`](crate::VertexStage) names a
    /// varying the vertex stage does not output.
    #[error(
        "two-sided varying {varying} (back: {back}) is not below the vertex stage's varying count {count}"
    )]
    BackFaceVarying {
        /// The varying read.
        varying: u16,
        /// Its back-face source.
        back: u16,
        /// `VertexStage::varying_count()`.
        count: usize,
    },
    /// [`VertexStage::interpolation`](crate::VertexStage) has more entries than the
    /// vertex stage has varyings.
    #[error("{len} interpolation entries for a vertex stage with {count} varyings")]
    Interpolation {
        /// `VertexStage::interpolation().len()`.
        len: usize,
        /// `VertexStage::varying_count()`.
        count: usize,
    },
    /// [`VertexStage::clip_distance_count`](crate::VertexStage) is above
    /// [`crate::MAX_CLIP_DISTANCES`] or the vertex stage's varying count.
    #[error(
        "{clip} user clip distances for a vertex stage with {count} varyings (at most {max} clip distances)"
    )]
    ClipDistances {
        /// `VertexStage::clip_distance_count()`.
        clip: usize,
        /// `VertexStage::varying_count()`.
        count: usize,
        /// [`crate::MAX_CLIP_DISTANCES`].
        max: usize,
    },
}
