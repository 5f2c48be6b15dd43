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
