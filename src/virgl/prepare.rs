//! Everything about a scene's draws that needs no host: programs compiled and linked,
//! their TGSI text, uniform values as constant-buffer floats, textures per sampler
//! slot, and which scene attribute feeds each vertex input.
//!
//! The checks are the CPU renderer's own ([`ProgramCache`], [`DrawBindings`]), so a
//! scene that renders on the CPU prepares here, and a broken one fails with the same
//! error before any server is started.

use crate::pipeline::{DrawBindings, ProgramCache, SlotSamplers};
use crate::scene::{Draw, Scene, SceneError, ShadeModel};
use crate::texture::Sampler;
use csir::{Limits, Program};
use std::collections::HashMap;
use std::sync::Arc;

/// A texture bound to a sampler slot: the scene texture's index and how to sample it.
pub type SlotTexture = Option<(usize, Sampler)>;

/// One program's TGSI text, emitted once however many draws use it.
pub struct ProgramTgsi {
    /// The vertex shader's TGSI.
    pub vertex: String,
    /// The fragment shader's TGSI (inputs remapped to the vertex shader's slots).
    pub fragment: String,
}

/// One draw, ready to be encoded.
pub struct PreparedDraw<'s> {
    /// The scene's draw.
    pub draw: &'s Draw,
    /// The program's TGSI (shared by the draws of one program).
    pub tgsi: Arc<ProgramTgsi>,
    /// Vertex-stage constants: uniform vec4 slot `n` is floats `4n..4n+4`.
    pub vertex_constants: Vec<f32>,
    /// Fragment-stage constants, laid out the same way.
    pub fragment_constants: Vec<f32>,
    /// Vertex-stage sampler slots `0..`.
    pub vertex_textures: Vec<SlotTexture>,
    /// Fragment-stage sampler slots `0..`.
    pub fragment_textures: Vec<SlotTexture>,
    /// Per vertex input `IN[n]` (attribute location `n`), `0..=` the highest location
    /// the program declares: the index into `draw.attributes` that feeds it, or `None`
    /// for an input the draw gives no data for (it reads (0, 0, 0, 1), as in GL).
    pub inputs: Vec<Option<usize>>,
}

/// Compile, link, bind and emit TGSI for every draw of `scene`, in draw order.
///
/// Errors: the first [`SceneError`] in draw order: those of the CPU renderer
/// (compile, link, uniforms, samplers), a TGSI emission failure, reported on
/// `draws[i].vertex` or `draws[i].fragment`, and two-sided colour
/// (`draws[i].state.two_sided_color`), the flat shade model
/// (`draws[i].state.shade_model`), user clip planes (`draws[i].state.clip_planes`)
/// and a sampler whose minification filter is mipmapped or differs from its
/// magnification filter (`draws[i].samplers.NAME.min_filter`),
/// which this back end does not send: the
/// emitter gives every varying a `GENERIC` semantic, not `COLOR`/`BCOLOR`, and the
/// host's flat shading applies to colours only. (Interpolation qualifiers do reach
/// the host, as the TGSI declarations' interpolation.)
pub fn prepare<'s>(scene: &'s Scene, limits: &Limits) -> Result<Vec<PreparedDraw<'s>>, SceneError> {
    let mut programs = ProgramCache::new();
    let mut tgsi: HashMap<*const Program, Arc<ProgramTgsi>> = HashMap::new();
    let mut draws = Vec::with_capacity(scene.draws.len());
    if let Some((field, message)) = super::targets::refusal(scene) {
        return Err(scene.error(field, message));
    }
    if let Some((field, message)) = super::targets::multisample_refusal(scene) {
        return Err(scene.error(field, message));
    }
    for draw in &scene.draws {
        if draw.geometry.is_some() {
            return Err(scene.error(
                format!("{}.geometry", draw.field()),
                "a geometry shader is not supported by --backend virgl yet (the TGSI \
                 emitter writes VERT and FRAG programs only)",
            ));
        }
        let program = programs.get(scene, draw, limits)?;
        crate::pipeline::check_outputs(scene, draw, &program)?;
        if let Some((field, message)) = super::vertex_pipeline::refusal(draw, &program) {
            return Err(scene.error(field, message));
        }
        if draw.state.two_sided_color {
            return Err(scene.error(
                format!("{}.state.two_sided_color", draw.field()),
                "two-sided colour is not supported by --backend virgl (the TGSI emitter \
                 sends every varying as GENERIC, with no COLOR/BCOLOR pair for the host \
                 to select from)",
            ));
        }
        if draw.state.shade_model == ShadeModel::Flat {
            return Err(scene.error(
                format!("{}.state.shade_model", draw.field()),
                "the flat shade model is not supported by --backend virgl (the TGSI \
                 emitter sends the built-in colours as GENERIC varyings, which the host's \
                 flat shading does not touch); qualify the colours 'flat' instead",
            ));
        }
        super::fragment_ops::refuse_unsent_keys(scene, draw)?;
        if draw.state.clip_planes.any() {
            return Err(scene.error(
                format!("{}.state.clip_planes", draw.field()),
                "user clip planes are not supported by --backend virgl (the plane \
                 enables and equations are draw state this back end does not send to \
                 the host)",
            ));
        }
        if let Some(binding) = draw
            .samplers
            .iter()
            .find(|b| b.gl33.is_some() || scene.textures[b.texture].gl33.is_some())
        {
            let texture = &scene.textures[binding.texture];
            let what = match &texture.gl33 {
                Some(t) => format!(
                    "texture '{}' is a {} {} texture",
                    texture.name,
                    t.target().name(),
                    t.format().name()
                ),
                None => "it has GL 3.3 sampler state".to_string(),
            };
            return Err(scene.error(
                draw.sampler_field(&binding.name),
                format!(
                    "sampler '{}': {what}; --backend virgl uploads 2D RGBA8 textures with \
                     the clamp, repeat and mirror wraps only (GL 3.3 targets, formats and \
                     sampler keys are drawn by the CPU and gl back ends)",
                    binding.name
                ),
            ));
        }
        if let Some(binding) = draw.samplers.iter().find(|b| {
            b.sampler.is_mipmapped() || b.sampler.min_filter.texel_filter() != b.sampler.mag_filter
        }) {
            let sampler = binding.sampler;
            let message = if sampler.is_mipmapped() {
                format!(
                    "sampler '{}': the mipmapped min_filter {} is not supported by \
                     --backend virgl (this back end uploads level 0 only); render it \
                     with the CPU back end, or use min_filter {} for level 0 alone",
                    binding.name,
                    sampler.min_filter.name(),
                    sampler.min_filter.texel_filter().name()
                )
            } else {
                format!(
                    "sampler '{}': min_filter {} with mag_filter {} is not supported by \
                     --backend virgl (this back end sends one filter for minification \
                     and magnification); use filter",
                    binding.name,
                    sampler.min_filter.name(),
                    sampler.mag_filter.name()
                )
            };
            return Err(scene.error(
                format!("{}.min_filter", draw.sampler_field(&binding.name)),
                message,
            ));
        }
        let bindings = DrawBindings::new(scene, draw, &program)?;
        let text = match tgsi.get(&Arc::as_ptr(&program)) {
            Some(text) => text.clone(),
            None => {
                let text = Arc::new(emit(scene, draw, &program)?);
                tgsi.insert(Arc::as_ptr(&program), text.clone());
                text
            }
        };
        let highest = program.attributes.iter().map(|a| a.location).max();
        let inputs = highest.map_or(Vec::new(), |h| {
            (0..=u32::from(h))
                .map(|location| draw.attributes.iter().position(|a| a.location == location))
                .collect()
        });
        draws.push(PreparedDraw {
            draw,
            tgsi: text,
            vertex_constants: bindings.uniforms.vertex.concat(),
            fragment_constants: bindings.uniforms.fragment.concat(),
            vertex_textures: slot_textures(scene, &bindings.vertex_samplers),
            fragment_textures: slot_textures(scene, &bindings.fragment_samplers),
            inputs,
        });
    }
    Ok(draws)
}

/// The program's TGSI, without the ChrisOS byte budget (long shaders are sent in
/// continuations).
fn emit(scene: &Scene, draw: &Draw, program: &Program) -> Result<ProgramTgsi, SceneError> {
    let tgsi_error =
        |field: String, e: csir::TgsiError| scene.error(field, format!("cannot emit TGSI: {e}"));
    let vertex = csir::emit_tgsi(&program.vertex, None, None)
        .map_err(|e| tgsi_error(draw.vertex_field(), e))?;
    let fragment = csir::emit_tgsi(&program.fragment, Some(&program.var_remap), None)
        .map_err(|e| tgsi_error(draw.fragment_field(), e))?;
    Ok(ProgramTgsi { vertex, fragment })
}

/// Each slot of `samplers` as the index of its texture in `scene.textures` (the
/// binding itself is [`DrawBindings`]'s).
fn slot_textures(scene: &Scene, samplers: &SlotSamplers) -> Vec<SlotTexture> {
    samplers
        .slots()
        .map(|slot| {
            let (texture, sampler) = slot?;
            let index = scene
                .textures
                .iter()
                .position(|t| std::ptr::eq(&t.texture, texture))?;
            Some((index, sampler))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn mipmapped_samplers_are_refused_by_name() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images");
        let scene = Scene::load(dir.join("texture_lod_strip.json")).unwrap();
        let err = prepare(&scene, &Limits::EXTENDED)
            .err()
            .expect("a mipmapped sampler is refused");
        assert_eq!(err.field, "draws[0].samplers.uTex.min_filter");
        assert!(
            err.message().contains(
                "sampler 'uTex': the mipmapped min_filter nearest_mipmap_nearest is not \
                 supported by --backend virgl (this back end uploads level 0 only); render \
                 it with the CPU back end, or use min_filter nearest for level 0 alone"
            ),
            "{}",
            err.message()
        );
        // the valid twin: one filter, no mipmaps
        let scene = Scene::load(dir.join("texture_filter_grid.json")).unwrap();
        assert!(prepare(&scene, &Limits::EXTENDED).is_ok());
    }
}
