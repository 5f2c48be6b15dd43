//! A scene's colour targets: `targets`, `framebuffer_srgb` and a per-target
//! `clear.color` (docs/scene-format.md "Render targets").

use csir_raster::{ColorTarget, TargetFormat};

/// Colour attachments a scene may have: GL 3.3's minimum `GL_MAX_DRAW_BUFFERS` (and
/// `GL_MAX_COLOR_ATTACHMENTS`).
pub const MAX_TARGETS: usize = 8;

/// The colour targets of a scene: target `k` is colour attachment `k`, which the
/// fragment output at `layout(location = k)` writes (GL 3.3 §4.2.1, with the draw
/// buffers `GL_COLOR_ATTACHMENT0 + k` in order).
#[derive(Clone, Debug, PartialEq)]
pub struct Targets {
    /// The targets in attachment order (at least one), each with the scene's
    /// `framebuffer_srgb`.
    pub list: Vec<ColorTarget>,
    /// Each target's clear value (RGBA; an integer target takes each number's
    /// integer part, exactly, as `glClearBufferiv`/`uiv`).
    pub clear: Vec<[f64; 4]>,
    /// `GL_FRAMEBUFFER_SRGB` (scene key `framebuffer_srgb`, default false).
    pub framebuffer_srgb: bool,
    /// The scene gave `targets` or `framebuffer_srgb`: it renders through the
    /// per-target path (`pipeline/targets.rs`); otherwise it is the single RGBA8
    /// target every older scene draws, byte for byte as before.
    pub given: bool,
}

impl Default for Targets {
    /// One `rgba8` target cleared to (0, 0, 0, 1), not given.
    fn default() -> Self {
        Targets {
            list: vec![ColorTarget::RGBA8],
            clear: vec![[0.0, 0.0, 0.0, 1.0]],
            framebuffer_srgb: false,
            given: false,
        }
    }
}

impl Targets {
    /// Number of targets.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Always false: a scene has at least one target.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Target `k`'s format.
    pub fn format(&self, k: usize) -> TargetFormat {
        self.list[k].format
    }
}
