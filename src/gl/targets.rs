//! The scene's colour targets as GL attachments (docs/scene-format.md "Render
//! targets"): each format's sized internal format and how it is cleared and read.

use crate::pipeline::TargetImage;
use crate::scene::Scene;
use csir_gl::glow;
use csir_gl::{PreparedFrame, TargetDesc, TargetKind};
use csir_raster::{TargetClass, TargetFormat};

/// The GL sized internal format of `format` (GL 3.3 §3.8.1 Table 3.12).
pub fn internal_format(format: TargetFormat) -> u32 {
    match format {
        TargetFormat::Rgba8 => glow::RGBA8,
        TargetFormat::Srgb8Alpha8 => glow::SRGB8_ALPHA8,
        TargetFormat::R8 => glow::R8,
        TargetFormat::Rg8 => glow::RG8,
        TargetFormat::Rgba16f => glow::RGBA16F,
        TargetFormat::Rgba32f => glow::RGBA32F,
        TargetFormat::R32f => glow::R32F,
        TargetFormat::Rgba8ui => glow::RGBA8UI,
        TargetFormat::Rgba32ui => glow::RGBA32UI,
        TargetFormat::Rgba32i => glow::RGBA32I,
    }
}

/// The scene's attachments for [`csir_gl::FrameDesc::targets`]: empty for a scene
/// without `targets` and `framebuffer_srgb` (the one RGBA8 attachment).
pub fn target_descs(scene: &Scene) -> Vec<TargetDesc> {
    let targets = &scene.targets;
    if !targets.given {
        return Vec::new();
    }
    targets
        .list
        .iter()
        .zip(&targets.clear)
        .map(|(t, &clear)| TargetDesc {
            internal_format: internal_format(t.format),
            kind: match t.format.class() {
                TargetClass::Unorm => TargetKind::Unorm,
                TargetClass::Float => TargetKind::Float,
                TargetClass::Uint => TargetKind::Uint,
                TargetClass::Int => TargetKind::Int,
            },
            clear,
        })
        .collect()
}

/// Every target of `scene` read back from `prepared` in our [`TargetImage`] form
/// (unorm bytes, float bits, integers; a format's missing channels as GL's
/// read-back gives them: (0, 0, 1)).
pub fn read_targets(scene: &Scene, prepared: &PreparedFrame<'_>) -> Vec<TargetImage> {
    let (width, height) = prepared.size();
    (0..scene.targets.len())
        .filter_map(|k| {
            let values = prepared.read_target(k)?;
            Some(TargetImage {
                target: scene.targets.list[k],
                width,
                height,
                values,
            })
        })
        .collect()
}
