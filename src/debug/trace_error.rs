//! Why a pixel could not be traced.

use crate::pipeline::RenderError;
use crate::scene::SceneError;
use thiserror::Error;

/// Why [`trace_pixel`](super::trace_pixel) failed.
#[derive(Debug, Error)]
pub enum TraceError {
    /// The pixel is not in the image.
    #[error(
        "{scene}: pixel {x},{y} is outside the {width}x{height} image \
         (x counts from 0 at the left and must be below {width}, \
         y from 0 at the top and must be below {height})"
    )]
    PixelOutside {
        /// The scene file.
        scene: String,
        /// Column asked for.
        x: u32,
        /// Row asked for (0 = top).
        y: u32,
        /// Image width.
        width: u32,
        /// Image height.
        height: u32,
    },
    /// Target 0 is stored in a format other than RGBA8 bytes (a float, integer or
    /// `framebuffer_srgb` sRGB target): the trace's blend steps are RGBA8 ones, so
    /// it would not explain the stored value.
    #[error(
        "{scene}: trace explains RGBA8 target 0 only; this scene's target 0 is {format}{srgb} \
         (use render and diff for it)"
    )]
    TargetNotTraced {
        /// The scene file.
        scene: String,
        /// Target 0's format name.
        format: &'static str,
        /// `" with framebuffer_srgb"` when that makes the target non-RGBA8, else empty.
        srgb: &'static str,
    },
    /// The scene does not render (a shader does not compile, a uniform does not
    /// match, ...); the error names the file and the JSON field.
    #[error(transparent)]
    Render(#[from] RenderError),
}

impl From<SceneError> for TraceError {
    fn from(e: SceneError) -> Self {
        TraceError::Render(RenderError::Scene(e))
    }
}
