//! Scenes with `samples: 4` (docs/scene-format.md "Multisampling").
//!
//! Each colour target (the one RGBA8 buffer, or each of `targets` as
//! `pipeline/targets.rs` draws them) is drawn four times, once per sample of
//! llvmpipe's pattern, into a single-sampled framebuffer of its own with its own
//! depth and stencil buffers ([`PreparedScene::draw_sample_with`]; the raster crate's
//! `multisample` module says why that is the multisampled frame, sample by sample).
//! The four are then resolved to one value per pixel as `glBlitFramebuffer` resolves
//! a multisampled buffer: [`csir_raster::resolve_unorm8`] for unorm channels,
//! [`csir_raster::resolve_float`] for float ones (rounded to a half float again for
//! `rgba16f`). A scene with `samples: 1` never comes here.

use super::program::ProgramCache;
use super::render::{DrawSummary, Frame, PreparedScene, RenderError};
use super::targets::TargetImage;
use crate::image_io::Rgba8Image;
use crate::scene::Scene;
use csir_raster::{
    ColorTarget, Framebuffer, Renderer, SAMPLE_COUNT, TargetClass, TargetFormat, resolve_float,
    resolve_unorm8,
};

/// Renders the multisampled scene of `prepared`: every target's four sample passes,
/// resolved. The frame's `draws` are sample 0's pass of target 0 (a draw whose
/// `sample_coverage` drops sample 0 shows empty counts).
pub(super) fn render_multisampled(
    prepared: &PreparedScene<'_>,
    renderer: &mut Renderer,
) -> Result<Frame, RenderError> {
    let scene = prepared.scene();
    let targets = &scene.targets;
    let mut cache = ProgramCache::new();
    let mut images = Vec::with_capacity(targets.len());
    let mut first: Option<(Rgba8Image, Vec<DrawSummary>)> = None;
    for (k, &target) in targets.list.iter().enumerate() {
        let variant;
        let pass = if k == 0 {
            prepared
        } else {
            variant = PreparedScene::for_output(scene, prepared.limits(), &mut cache, k as u16)?;
            &variant
        };
        let mut samples = Vec::with_capacity(SAMPLE_COUNT);
        let mut draws = Vec::new();
        for s in 0..SAMPLE_COUNT {
            let mut fb = sample_framebuffer(scene, k)?;
            let summaries = pass.draw_sample_with(
                renderer,
                &mut fb,
                &mut super::draw_runner::PlainDraw,
                Some(s),
            )?;
            if s == 0 {
                draws = summaries;
            }
            samples.push(fb);
        }
        let samples: [Framebuffer; SAMPLE_COUNT] = samples
            .try_into()
            .unwrap_or_else(|_| unreachable!("one framebuffer per sample"));
        let values = resolve_target(target, &samples);
        if k == 0 {
            let rgba = if targets.given {
                TargetImage {
                    target,
                    width: scene.width,
                    height: scene.height,
                    values: values.clone(),
                }
                .to_rgba8()
            } else {
                values.iter().flat_map(|p| p.map(|c| c as u8)).collect()
            };
            let image = Rgba8Image::new(scene.width, scene.height, rgba)
                .expect("a framebuffer is at least 1x1 and reads back all its pixels");
            first = Some((image, draws));
        }
        if targets.given {
            images.push(TargetImage {
                target,
                width: scene.width,
                height: scene.height,
                values,
            });
        }
    }
    let (image, draws) = first.expect("a scene has at least one target");
    Ok(Frame {
        image,
        draws,
        targets: images,
    })
}

/// A new framebuffer for one sample's pass of target `k` of `scene`, cleared as the
/// scene clears that target (its `targets` clear value, else `clear`), with the
/// scene's depth and stencil clear values.
///
/// # Errors
/// [`RenderError`] for a frame size the rasterizer does not allocate.
pub(crate) fn sample_framebuffer(scene: &Scene, k: usize) -> Result<Framebuffer, RenderError> {
    let targets = &scene.targets;
    let mut fb = Framebuffer::with_target(scene.width, scene.height, targets.list[k])?;
    if targets.given {
        fb.clear_target(targets.clear[k], scene.clear_depth);
    } else {
        fb.clear(scene.clear_color, scene.clear_depth);
    }
    fb.clear_stencil(scene.clear_stencil);
    Ok(fb)
}

/// The four samples of `target` resolved, top row first, as
/// [`Framebuffer::target_values_top_down`] gives a single-sampled target's values
/// (unorm channels 0..=255, float channels as `f32` bits). Integer and sRGB targets
/// are refused before rendering (`scene/rules.rs` `multisample_support`).
fn resolve_target(target: ColorTarget, samples: &[Framebuffer; SAMPLE_COUNT]) -> Vec<[u32; 4]> {
    let values = samples.each_ref().map(Framebuffer::target_values_top_down);
    match target.format.class() {
        TargetClass::Float => (0..values[0].len())
            .map(|i| {
                std::array::from_fn(|c| {
                    let avg = resolve_float(values.each_ref().map(|v| f32::from_bits(v[i][c])));
                    store_float(target.format, avg).to_bits()
                })
            })
            .collect(),
        _ => {
            let bytes = values.each_ref().map(|v| {
                v.iter()
                    .flat_map(|p| p.map(|c| c.min(255) as u8))
                    .collect::<Vec<u8>>()
            });
            resolve_unorm8(bytes.each_ref().map(Vec::as_slice))
                .chunks_exact(4)
                .map(|p| [0, 1, 2, 3].map(|c| u32::from(p[c])))
                .collect()
        }
    }
}

/// A resolved float as `format` stores it: the nearest half float for `rgba16f`
/// (ties to even), the f32 itself otherwise.
fn store_float(format: TargetFormat, value: f32) -> f32 {
    if format == TargetFormat::Rgba16f {
        half::f16::from_f32(value).to_f32()
    } else {
        value
    }
}
