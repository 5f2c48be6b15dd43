//! The hook through which [`PreparedScene::render_with`](super::PreparedScene::render_with)
//! hands each draw to the rasterizer: [`PlainDraw`] calls [`Renderer::draw`]; a tracer
//! (`crate::debug`) wraps the stages and calls [`Renderer::draw_traced`] instead.
//!
//! It exists so that a traced render runs the very same draw loop, stages, uniforms
//! and textures as a plain one, and so that tracing costs nothing when it is off: the
//! plain path is monomorphised for [`PlainDraw`] and never sees a tracer.

use super::bindings::DrawBindings;
use crate::scene::Draw;
use csir::Program;
use csir_raster::{
    DrawCall, DrawError, DrawStats, FragmentStage, Framebuffer, Renderer, VertexStage,
};

/// One prepared draw as a [`DrawRunner`] sees it: the scene's draw, its linked program
/// and what is bound to it.
#[derive(Clone, Copy)]
pub struct DrawParts<'a> {
    /// The draw as the scene gives it (index, indices, state, ...).
    pub draw: &'a Draw,
    /// Its compiled and linked program.
    pub program: &'a Program,
    /// Its uniform slots and textures per stage.
    pub bindings: &'a DrawBindings<'a>,
}

/// Runs one draw of a prepared scene into the framebuffer.
pub trait DrawRunner {
    /// Draw `call` (the pipeline's stages for `parts`) into `framebuffer`, as
    /// [`Renderer::draw`] would, and return its statistics.
    ///
    /// # Errors
    /// What the rasterizer reports ([`DrawError`]).
    fn run_draw<V: VertexStage, F: FragmentStage>(
        &mut self,
        renderer: &mut Renderer,
        framebuffer: &mut Framebuffer,
        parts: DrawParts<'_>,
        call: &DrawCall<'_, V, F>,
    ) -> Result<DrawStats, DrawError>;
}

/// The ordinary runner: [`Renderer::draw`], nothing else.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlainDraw;

impl DrawRunner for PlainDraw {
    #[inline]
    fn run_draw<V: VertexStage, F: FragmentStage>(
        &mut self,
        renderer: &mut Renderer,
        framebuffer: &mut Framebuffer,
        _parts: DrawParts<'_>,
        call: &DrawCall<'_, V, F>,
    ) -> Result<DrawStats, DrawError> {
        renderer.draw(framebuffer, call)
    }
}
