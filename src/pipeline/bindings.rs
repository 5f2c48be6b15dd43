//! A draw's uniform values and textures, checked against the linked program
//! (scene-format.md "Errors"; peer-render "GL behaviours": unknown uniform = error,
//! sampler without a texture = error, sampler given values = error).

use crate::scene::{Draw, Scene, SceneError};
use crate::texture::{Sampler, Texture};
use csir::exec::Samplers;
use csir::{Program, UniformStorage};

/// Textures bound to one stage's sampler slots.
#[derive(Clone, Default)]
pub struct SlotSamplers<'a> {
    slots: Vec<Option<(&'a Texture, Sampler)>>,
}

impl<'a> SlotSamplers<'a> {
    /// Bind `texture`, sampled with `sampler`, to sampler slot `slot` (replacing what
    /// was there); slots below it that are still unbound sample (0, 0, 0, 0).
    pub fn bind(&mut self, slot: u16, texture: &'a Texture, sampler: Sampler) {
        let slot = slot as usize;
        if self.slots.len() <= slot {
            self.slots.resize(slot + 1, None);
        }
        self.slots[slot] = Some((texture, sampler));
    }
}

impl Samplers for SlotSamplers<'_> {
    /// The bound texture's sample (GL filtering and wrapping, see
    /// [`Texture::sample`]); an unbound slot gives (0, 0, 0, 0).
    #[inline]
    fn sample(&self, slot: usize, s: f32, t: f32) -> [f32; 4] {
        match self.slots.get(slot) {
            Some(Some((texture, sampler))) => texture.sample(*sampler, s, t),
            _ => [0.0; 4],
        }
    }
}

/// Everything a draw binds to its program: uniform slots and textures per stage.
pub struct DrawBindings<'a> {
    /// Uniform vec4 slots of both stages.
    pub uniforms: UniformStorage,
    /// Textures of the vertex stage's sampler slots.
    pub vertex_samplers: SlotSamplers<'a>,
    /// Textures of the fragment stage's sampler slots.
    pub fragment_samplers: SlotSamplers<'a>,
}

impl<'a> DrawBindings<'a> {
    /// Set every uniform `draw` gives and bind every sampler the program declares.
    ///
    /// Errors (on `draws[i].uniforms.KEY` / `draws[i].samplers.NAME`): a key the
    /// program does not declare, a sampler given values, a wrong float count, an
    /// element past the end of an array; a program sampler with no `samplers` entry; a
    /// `samplers` entry the program does not declare.
    pub fn new(scene: &'a Scene, draw: &'a Draw, program: &Program) -> Result<Self, SceneError> {
        let mut bindings = DrawBindings {
            uniforms: program.new_uniforms(),
            vertex_samplers: SlotSamplers::default(),
            fragment_samplers: SlotSamplers::default(),
        };
        for value in &draw.uniforms {
            bindings.set_uniform(scene, draw, program, &value.key, &value.values)?;
        }
        for binding in scene.sampler_bindings(draw) {
            let Some(rec) = program.samplers.iter().find(|s| s.name == binding.name) else {
                return Err(scene.error(
                    draw.sampler_field(binding.name),
                    format!("the program does not declare sampler '{}'", binding.name),
                ));
            };
            if let Some(slot) = rec.vertex_slot {
                bindings
                    .vertex_samplers
                    .bind(slot, binding.texture, binding.sampler);
            }
            if let Some(slot) = rec.fragment_slot {
                bindings
                    .fragment_samplers
                    .bind(slot, binding.texture, binding.sampler);
            }
        }
        if let Some(missing) = program
            .samplers
            .iter()
            .find(|s| !draw.samplers.iter().any(|b| b.name == s.name))
        {
            return Err(scene.error(
                draw.sampler_field(&missing.name),
                format!(
                    "the program uses sampler '{}' but the draw binds no texture to it",
                    missing.name
                ),
            ));
        }
        Ok(bindings)
    }

    /// Set uniform `key` (`NAME` or `NAME[INDEX]`) to `values`, as the draw's
    /// `uniforms` entry `key` would; errors name `draws[i].uniforms.KEY`.
    pub fn set_uniform(
        &mut self,
        scene: &Scene,
        draw: &Draw,
        program: &Program,
        key: &str,
        values: &[f32],
    ) -> Result<(), SceneError> {
        program
            .set_uniform(&mut self.uniforms, key, values)
            .map_err(|e| scene.error(draw.uniform_field(key), e.to_string()))
    }
}
