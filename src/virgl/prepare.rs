//! Everything about a scene's draws that needs no host: programs compiled and linked,
//! their TGSI text, uniform values as constant-buffer floats, textures per sampler
//! slot, and which scene attribute feeds each vertex input.
//!
//! The checks are the CPU renderer's own ([`ProgramCache`], [`DrawBindings`]), so a
//! scene that renders on the CPU prepares here, and a broken one fails with the same
//! error before any server is started.

use super::textures::{SlotSampler, SlotTexture};
use crate::pipeline::{DrawBindings, ProgramCache, SlotSamplers};
use crate::scene::{Draw, Scene, SceneError, ShadeModel};
use csir::{Limits, Program};
use std::collections::HashMap;
use std::sync::Arc;

/// One program's TGSI text, emitted once however many draws use it.
pub struct ProgramTgsi {
    /// The vertex shader's TGSI.
    pub vertex: String,
    /// The fragment shader's TGSI (inputs remapped to the vertex shader's slots).
    pub fragment: String,
    /// The `GENERIC` index of the fragment shader's `gl_PointCoord` input, which the
    /// rasterizer state's `sprite_coord_enable` names
    /// ([`csir::tgsi::point_coord_generic`]); `None` without one.
    pub point_coord: Option<u16>,
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
    /// Vertex-stage sampler slots `0..` (`None`: unbound).
    pub vertex_textures: Vec<Option<SlotTexture>>,
    /// Fragment-stage sampler slots `0..`.
    pub fragment_textures: Vec<Option<SlotTexture>>,
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
/// and a texture buffer (`draws[i].samplers.NAME`), which this back end does not send: the
/// emitter gives every varying a `GENERIC` semantic, not `COLOR`/`BCOLOR`, and the
/// host's flat shading applies to colours only. (Interpolation qualifiers do reach
/// the host, as the TGSI declarations' interpolation.)
pub fn prepare<'s>(scene: &'s Scene, limits: &Limits) -> Result<Vec<PreparedDraw<'s>>, SceneError> {
    let mut programs = ProgramCache::new();
    let mut tgsi: HashMap<*const Program, Arc<ProgramTgsi>> = HashMap::new();
    let mut draws = Vec::with_capacity(scene.draws.len());
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
        if draw.state.clip_planes.any() {
            return Err(scene.error(
                format!("{}.state.clip_planes", draw.field()),
                "user clip planes are not supported by --backend virgl (the plane \
                 enables and equations are draw state this back end does not send to \
                 the host)",
            ));
        }
        if let Some((field, message)) = super::textures::refusal(scene, draw) {
            return Err(scene.error(field, message));
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
    let point_coord = csir::tgsi::point_coord_generic(&program.fragment, Some(&program.var_remap));
    Ok(ProgramTgsi {
        vertex,
        fragment,
        point_coord,
    })
}

/// Each slot of `samplers` as the index of its texture in `scene.textures` and its
/// sampler state (the binding itself is [`DrawBindings`]'s): the RGBA8 slots and the
/// GL 3.3 ones, `None` for a slot in neither.
fn slot_textures(scene: &Scene, samplers: &SlotSamplers) -> Vec<Option<SlotTexture>> {
    let rgba8: Vec<_> = samplers.slots().collect();
    let gl33: Vec<_> = samplers.gl33_slots().collect();
    (0..rgba8.len().max(gl33.len()))
        .map(|slot| {
            if let Some(&Some((texture, sampler))) = rgba8.get(slot) {
                let index = scene
                    .textures
                    .iter()
                    .position(|t| std::ptr::eq(&t.texture, texture))?;
                return Some(SlotTexture {
                    texture: index,
                    sampler: SlotSampler::Rgba8(sampler),
                });
            }
            let (texture, state) = (*gl33.get(slot)?)?;
            let index = scene
                .textures
                .iter()
                .position(|t| t.gl33.as_ref().is_some_and(|g| std::ptr::eq(g, texture)))?;
            Some(SlotTexture {
                texture: index,
                sampler: SlotSampler::Gl33(state),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn mipmapped_and_gl33_samplers_are_prepared_with_their_state() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images");
        let scene = Scene::load(dir.join("texture_lod_strip.json")).unwrap();
        let draws = prepare(&scene, &Limits::EXTENDED).expect("a mipmapped sampler is drawn");
        let slot = draws[0].fragment_textures[0].expect("uTex is bound");
        match slot.sampler {
            SlotSampler::Rgba8(s) => assert!(s.is_mipmapped()),
            other => panic!("an RGBA8 slot, got {other:?}"),
        }
        assert!(scene.textures[slot.texture].texture.level_count() > 1);
        let scene = Scene::load(dir.join("textures_gl33/shadow2d_linear.json")).unwrap();
        let draws = prepare(&scene, &Limits::EXTENDED).expect("a shadow sampler is drawn");
        let slot = draws[0].fragment_textures[0].expect("uTex is bound");
        match slot.sampler {
            SlotSampler::Gl33(s) => {
                assert_eq!(s.compare, Some(crate::scene::CompareFunc::Lequal))
            }
            other => panic!("a GL 3.3 slot, got {other:?}"),
        }
        assert!(
            draws[0]
                .tgsi
                .fragment
                .contains("DCL SVIEW[0], SHADOW2D, FLOAT")
        );
    }
}
