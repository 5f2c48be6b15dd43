//! A draw's uniform values and textures, checked against the linked program
//! (scene-format.md "Errors"; peer-render "GL behaviours": unknown uniform = error,
//! sampler without a texture = error, sampler given values = error).

use crate::scene::{Draw, Scene, SceneError};
use crate::texture::gl33::{GlSampler, GlTexture};
use crate::texture::{Sampler, Texture};
use csir::exec::{Samplers, TexLod, TexRequest, sample_groups_one_by_one};
use csir::{Program, UniformStorage};
use std::cell::Cell;
use wide::f32x8;

/// Textures bound to one stage's sampler slots.
#[derive(Clone, Default)]
pub struct SlotSamplers<'a> {
    slots: Vec<Option<(&'a Texture, Sampler)>>,
    /// The slots bound to GL 3.3 textures (`texture::gl33`); a slot is in one list or
    /// the other.
    gl33: Vec<Option<(&'a GlTexture, GlSampler)>>,
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

    /// Bind the GL 3.3 `texture`, sampled with `state`, to sampler slot `slot`.
    pub fn bind_gl33(&mut self, slot: u16, texture: &'a GlTexture, state: GlSampler) {
        let slot = slot as usize;
        if self.gl33.len() <= slot {
            self.gl33.resize(slot + 1, None);
        }
        self.gl33[slot] = Some((texture, state));
    }

    /// The GL 3.3 texture bound to `slot`, if any.
    #[inline]
    fn gl(&self, slot: usize) -> Option<&(&'a GlTexture, GlSampler)> {
        self.gl33.get(slot).and_then(Option::as_ref)
    }

    /// A `sampler2D` lookup on a GL 3.3 texture: TEX's lookup at λ `lod` (or the
    /// derivatives of `grad`), through the same rules.
    fn gl_lookup(&self, slot: usize, s: f32, t: f32, lod: TexLod, offset: [i32; 2]) -> [f32; 4] {
        match self.gl(slot) {
            Some((texture, state)) => texture.lookup(
                state,
                &TexRequest {
                    coord: [s, t, 0.0, 0.0],
                    lod,
                    offset: [offset[0] as i8, offset[1] as i8, 0],
                },
            ),
            None => [0.0; 4],
        }
    }

    /// Every slot from 0 up to the highest bound one: its texture and sampler, or
    /// `None` for a slot left unbound.
    pub fn slots(&self) -> impl Iterator<Item = Option<(&'a Texture, Sampler)>> + '_ {
        self.slots.iter().copied()
    }

    /// Every slot from 0 up to the highest one bound to a GL 3.3 texture: that
    /// texture and its sampler state, or `None` (a slot unbound or in
    /// [`slots`](Self::slots)).
    pub fn gl33_slots(&self) -> impl Iterator<Item = Option<(&'a GlTexture, GlSampler)>> + '_ {
        self.gl33.iter().copied()
    }
}

impl Samplers for SlotSamplers<'_> {
    /// The bound texture's sample (GL filtering and wrapping, see
    /// [`Texture::sample`]); an unbound slot gives (0, 0, 0, 0).
    #[inline]
    fn sample(&self, slot: usize, s: f32, t: f32) -> [f32; 4] {
        match self.slots.get(slot) {
            Some(Some((texture, sampler))) => texture.sample(*sampler, s, t),
            _ => self.gl_lookup(slot, s, t, TexLod::Level(0.0), [0, 0]),
        }
    }

    /// The bound texture's samples of one group of lanes, computed together
    /// ([`Texture::sample_group`], the same bits as [`Texture::sample`] per lane).
    #[inline]
    fn sample_group(
        &self,
        slot: usize,
        s: &[f32; 8],
        t: &[f32; 8],
        lanes: u8,
        out: &mut [[f32; 8]; 4],
    ) {
        match self.slots.get(slot) {
            Some(Some((texture, sampler))) => texture.sample_group(*sampler, s, t, lanes, out),
            _ => {
                for i in (0..8).filter(|i| lanes >> i & 1 != 0) {
                    let v = self.sample(slot, s[i], t[i]);
                    out.iter_mut().zip(v).for_each(|(c, v)| c[i] = v);
                }
            }
        }
    }

    /// The bound texture's samples of a SAMPLE step's groups
    /// ([`Texture::sample_groups`]: the slot looked up once, full groups written
    /// straight into `out`); an unbound slot goes group by group.
    #[inline]
    fn sample_groups(
        &self,
        slot: usize,
        s: &[f32x8],
        t: &[f32x8],
        lanes: u64,
        out: [&[Cell<f32x8>]; 4],
    ) {
        match self.slots.get(slot) {
            Some(Some((texture, sampler))) => texture.sample_groups(*sampler, s, t, lanes, out),
            _ => sample_groups_one_by_one(self, slot, s, t, lanes, out),
        }
    }

    /// The bound texture's sample with a texel offset ([`Texture::sample_offset`]);
    /// an unbound slot gives (0, 0, 0, 0).
    #[inline]
    fn sample_offset(&self, slot: usize, s: f32, t: f32, offset: [i32; 2]) -> [f32; 4] {
        match self.slots.get(slot) {
            Some(Some((texture, sampler))) => texture.sample_offset(*sampler, s, t, offset),
            _ => self.gl_lookup(slot, s, t, TexLod::Level(0.0), offset),
        }
    }

    /// The bound texture sampled at level of detail `lod` ([`Texture::sample_lod`]:
    /// mip levels for a mipmapped sampler); an unbound slot gives (0, 0, 0, 0).
    #[inline]
    fn sample_lod(&self, slot: usize, s: f32, t: f32, lod: f32, offset: [i32; 2]) -> [f32; 4] {
        match self.slots.get(slot) {
            Some(Some((texture, sampler))) => texture.sample_lod(*sampler, s, t, lod, offset),
            _ => self.gl_lookup(slot, s, t, TexLod::Level(lod), offset),
        }
    }

    /// The bound texture's level count ([`Texture::level_count`]); 1 for an unbound
    /// slot.
    #[inline]
    fn levels(&self, slot: usize) -> u32 {
        match self.slots.get(slot) {
            Some(Some((texture, _))) => texture.level_count(),
            _ => self.gl(slot).map_or(1, |(t, _)| t.levels().len() as u32),
        }
    }

    /// The texel of level `level` of the bound texture ([`Texture::fetch`]).
    #[inline]
    fn level_texel(&self, slot: usize, level: u32, i: u32, j: u32) -> [f32; 4] {
        match self.slots.get(slot) {
            Some(Some((texture, _))) => texture.level(level).fetch(i, j),
            _ => match self.gl(slot) {
                Some((t, state)) => t.fetch(state, [i as i32, j as i32, 0], level as i32),
                None => [0.0; 4],
            },
        }
    }

    /// Whether some bound sampler's lookups depend on the level of detail
    /// ([`Sampler::needs_lod`]).
    fn needs_lod(&self) -> bool {
        self.slots
            .iter()
            .flatten()
            .any(|(_, sampler)| sampler.needs_lod())
            || self
                .gl33
                .iter()
                .flatten()
                .any(|(_, state)| state.needs_lod())
    }

    /// The bound texture's width and height in texels; an unbound slot is 0×0.
    #[inline]
    fn size(&self, slot: usize) -> [u32; 2] {
        match self.slots.get(slot) {
            Some(Some((texture, _))) => [texture.width(), texture.height()],
            _ => self
                .gl(slot)
                .map_or([0, 0], |(t, _)| [t.size()[0], t.size()[1]]),
        }
    }

    /// The bound texture's texel ([`Texture::fetch`]): the sampler state does not
    /// apply to a fetch.
    #[inline]
    fn texel(&self, slot: usize, i: u32, j: u32) -> [f32; 4] {
        match self.slots.get(slot) {
            Some(Some((texture, _))) => texture.fetch(i, j),
            _ => match self.gl(slot) {
                Some((t, state)) => t.fetch(state, [i as i32, j as i32, 0], 0),
                None => [0.0; 4],
            },
        }
    }

    /// TEX's lookup on the bound GL 3.3 texture ([`GlTexture::lookup`]); (0, 0, 0, 0)
    /// for a slot without one.
    fn lookup(&self, slot: usize, request: &TexRequest) -> [f32; 4] {
        self.gl(slot)
            .map_or([0.0; 4], |(t, state)| t.lookup(state, request))
    }

    /// TEX's fetch ([`GlTexture::fetch`]).
    fn fetch(&self, slot: usize, p: [i32; 3], level: i32) -> [f32; 4] {
        self.gl(slot)
            .map_or([0.0; 4], |(t, state)| t.fetch(state, p, level))
    }

    /// TEX's size query ([`GlTexture::size_of`]).
    fn size_of(&self, slot: usize, level: i32) -> [i32; 3] {
        self.gl(slot)
            .map_or([0; 3], |(t, state)| t.size_of(state, level))
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
        for (i, value) in draw.uniforms.iter().enumerate() {
            if let Some(earlier) = draw.uniforms[..i].iter().find(|e| overlaps(e, value)) {
                return Err(scene.error(
                    draw.uniform_field(&value.key),
                    format!(
                        "sets the same uniform value as the earlier key '{}'; give each element once",
                        earlier.key
                    ),
                ));
            }
            match &value.ints {
                Some(ints) if is_integer_uniform(program, value.name()) => {
                    program
                        .set_uniform_ints(&mut bindings.uniforms, &value.key, ints)
                        .map_err(|e| {
                            scene.error(draw.uniform_field(&value.key), uniform_error(program, &e))
                        })?;
                }
                _ => bindings.set_uniform(scene, draw, program, &value.key, &value.values)?,
            }
        }
        for binding in scene.sampler_bindings(draw) {
            let Some(rec) = program.samplers.iter().find(|s| s.name == binding.name) else {
                let message = match program.uniform(binding.name) {
                    Some(u) => format!(
                        "'{}' is a {} uniform, not a sampler: give its value under uniforms",
                        binding.name,
                        u.type_name()
                    ),
                    None => format!(
                        "the program does not declare sampler '{}'{}",
                        binding.name,
                        declared_names(binding.name, program.samplers.iter().map(|s| &*s.name))
                    ),
                };
                return Err(scene.error(draw.sampler_field(binding.name), message));
            };
            check_target(scene, draw, program, &binding)?;
            for (slot, samplers) in [
                (rec.vertex_slot, &mut bindings.vertex_samplers),
                (rec.fragment_slot, &mut bindings.fragment_samplers),
            ] {
                match (slot, binding.gl33) {
                    (Some(slot), Some((texture, state))) => {
                        let state = crate::texture::gl33::GlSampler {
                            seamless_cube_map: scene.seamless_cube_map,
                            ..state
                        };
                        samplers.bind_gl33(slot, texture, state)
                    }
                    (Some(slot), None) => samplers.bind(slot, binding.texture, binding.sampler),
                    (None, _) => {}
                }
            }
        }
        if let Some(missing) = program.samplers.iter().find(|s| {
            (samples_from(&program.vertex, s.vertex_slot)
                || samples_from(&program.fragment, s.fragment_slot))
                && !draw.samplers.iter().any(|b| b.name == s.name)
        }) {
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
            .map_err(|e| scene.error(draw.uniform_field(key), uniform_error(program, &e)))
    }
}

/// The message of a uniform error; for a name the program does not declare, with the
/// names it does ([`declared_names`]).
fn uniform_error(program: &Program, e: &csir::UniformError) -> String {
    match e {
        csir::UniformError::Unknown(key) => format!(
            "{e}{}",
            declared_names(key, program.uniforms.iter().map(|u| &*u.name))
        ),
        _ => e.to_string(),
    }
}

/// Names listed at most in an error, and the characters kept of each.
const LISTED_NAMES: usize = 12;
const NAME_CHARS: usize = 40;

/// `; did you mean 'uLightDir'? (declared: uColor, uLightDir, …)` for a `wrong` name
/// among `declared` (the scene loader's "did you mean" rule, `closest_name`), or
/// `; the program declares none`. Lists at most
/// [`LISTED_NAMES`] names, sorted, each cut to [`NAME_CHARS`] characters.
fn declared_names<'n>(wrong: &str, declared: impl Iterator<Item = &'n str>) -> String {
    let mut names: Vec<&str> = declared.collect();
    names.sort_unstable();
    names.dedup();
    if names.is_empty() {
        return "; the program declares none".into();
    }
    let base = wrong.split(['[', '.']).next().unwrap_or(wrong);
    let closest = crate::scene::closest_name(base, names.iter().copied());
    let cut = |n: &str| {
        if n.chars().count() > NAME_CHARS {
            format!("{}…", n.chars().take(NAME_CHARS).collect::<String>())
        } else {
            n.to_string()
        }
    };
    let mut listed: Vec<String> = names.iter().take(LISTED_NAMES).map(|n| cut(n)).collect();
    if names.len() > LISTED_NAMES {
        listed.push(format!("and {} more", names.len() - LISTED_NAMES));
    }
    let suggestion = closest.map_or(String::new(), |n| format!("; did you mean '{}'?", cut(n)));
    format!("{suggestion} (declared: {})", listed.join(", "))
}

/// A sampler's texture must have its target and a format its kind reads (GL 3.3
/// §3.8: a texture of another target is not the one a sampler of that type reads; an
/// integer sampler reads an integer format, a shadow sampler a depth format with a
/// comparison): otherwise an error on `draws[i].samplers.NAME` naming both.
fn check_target(
    scene: &Scene,
    draw: &Draw,
    program: &Program,
    binding: &crate::scene::SamplerBindingRef<'_>,
) -> Result<(), SceneError> {
    use crate::texture::gl33::FormatClass;
    use csir::ir::SymbolKind;
    use csir::sampler_type::{SampleKind, TexTarget};
    let declared = [&program.vertex, &program.fragment]
        .into_iter()
        .flat_map(|s| s.interface.symbols.iter())
        .find_map(|sym| match sym.kind {
            SymbolKind::Sampler { sampler, .. } if sym.name == binding.name => Some(sampler),
            _ => None,
        });
    let Some(ty) = declared else {
        return Ok(());
    };
    let (target, class, compare) = match binding.gl33 {
        Some((t, state)) => (t.target(), t.format().class(), state.compare.is_some()),
        None => (TexTarget::D2, FormatClass::Float, false),
    };
    let kind_ok = match ty.kind {
        SampleKind::Float => matches!(class, FormatClass::Float | FormatClass::Depth),
        SampleKind::Int => class == FormatClass::Int,
        SampleKind::Uint => class == FormatClass::Uint,
        SampleKind::Shadow => class == FormatClass::Depth && compare,
    };
    if target == ty.target && kind_ok {
        return Ok(());
    }
    let format = binding.gl33.map_or("rgba8", |(t, _)| t.format().name());
    let need = match ty.kind {
        SampleKind::Shadow => " (a shadow sampler reads a depth32f texture with `compare`)",
        SampleKind::Int => " (an isampler reads rgba32i)",
        SampleKind::Uint => " (a usampler reads rgba8ui or rgba32ui)",
        SampleKind::Float => "",
    };
    Err(scene.error(
        draw.sampler_field(binding.name),
        format!(
            "'{}' is a {} but texture '{}' is a {} {} texture{need}",
            binding.name,
            ty.keyword(),
            binding.texture_name,
            target.name(),
            format
        ),
    ))
}

/// Whether the program's uniform `name` is an int/uint scalar or vector, which takes
/// exact integer values ([`Program::set_uniform_ints`]).
fn is_integer_uniform(program: &Program, name: &str) -> bool {
    program
        .uniform(name)
        .is_some_and(|u| u.layout().ty.is_integer())
}

/// Whether `shader` reads sampler `slot` (a SAMPLE or TEXSIZE record with that slot
/// survived optimization). A declared but unused sampler needs no texture, as in
/// OpenGL, where the linker drops it.
fn samples_from(shader: &csir::Shader, slot: Option<u16>) -> bool {
    let reads_texture = |i: &csir::Ir| {
        i.info()
            .is_some_and(|info| info.effect == csir::ir::Effect::Load(csir::ir::Input::Texture))
    };
    slot.is_some_and(|slot| {
        shader
            .ir
            .iter()
            .any(|i| reads_texture(i) && i.aux == slot as i16)
    })
}

/// Whether two `uniforms` entries set some of the same floats: the same name with
/// the same element, or a whole array and one of its elements.
fn overlaps(a: &crate::scene::UniformValue, b: &crate::scene::UniformValue) -> bool {
    a.name() == b.name()
        && match (a.element(), b.element()) {
            (Some(x), Some(y)) => x == y,
            _ => true,
        }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::{RenderOptions, render_scene};
    use std::path::PathBuf;

    const VERT: &str = "#version 330 core
layout(location = 0) in vec2 aPos;
void main() { gl_Position = vec4(aPos, 0.0, 1.0); }
";

    /// Writes `frag` and a one-draw scene whose draw has `extra` JSON fields into a
    /// fresh folder; returns the scene path.
    fn scene_with(name: &str, frag: &str, extra: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("csir-bindings-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("s.vert"), VERT).unwrap();
        std::fs::write(dir.join("s.frag"), frag).unwrap();
        let png = crate::image_io::encode_png(1, 1, &[255, 0, 0, 255]).unwrap();
        std::fs::write(dir.join("t.png"), png).unwrap();
        let json = format!(
            r#"{{"format": "csir-scene/1", "width": 4, "height": 4,
              "textures": {{"t": {{"path": "t.png"}}}},
              "draws": [{{"vertex": "s.vert", "fragment": "s.frag",
                "attributes": [{{"location": 0, "size": 2, "data": [-1,-1, 3,-1, -1,3]}}]{extra}}}]}}"#
        );
        let path = dir.join("scene.json");
        std::fs::write(&path, json).unwrap();
        path
    }

    fn error_of(path: &PathBuf) -> SceneError {
        let scene = Scene::load(path).unwrap();
        match render_scene(&scene, &RenderOptions::default()) {
            Err(crate::pipeline::RenderError::Scene(e)) => e,
            Err(e) => panic!("unexpected error {e}"),
            Ok(_) => panic!("rendered but should not"),
        }
    }

    #[test]
    fn an_undeclared_name_lists_the_declared_ones_and_the_closest() {
        let frag = "#version 330 core
uniform vec3 uLightDir;
uniform float uShininess;
uniform sampler2D uTex;
out vec4 c;
void main() { c = texture(uTex, vec2(0.5)) * vec4(uLightDir, uShininess); }
";
        let path = scene_with(
            "undeclared",
            frag,
            r#", "uniforms": {"uLightDirr": [1, 2, 3], "uShininess": 4},
                "samplers": {"uTex": {"texture": "t"}}"#,
        );
        let e = error_of(&path);
        assert_eq!(e.field, "draws[0].uniforms.uLightDirr");
        assert_eq!(
            e.message(),
            "the program does not declare uniform 'uLightDirr'; did you mean 'uLightDir'? \
             (declared: uLightDir, uShininess)"
        );
        let path = scene_with(
            "undeclared-sampler",
            frag,
            r#", "uniforms": {"uLightDir": [1, 2, 3], "uShininess": 4},
                "samplers": {"uTex": {"texture": "t"}, "zzz": {"texture": "t"}}"#,
        );
        let e = error_of(&path);
        assert_eq!(e.field, "draws[0].samplers.zzz");
        assert_eq!(
            e.message(),
            "the program does not declare sampler 'zzz' (declared: uTex)"
        );
        let long = "a".repeat(60);
        assert_eq!(
            declared_names("b", [long.as_str()].into_iter()),
            format!(" (declared: {}…)", "a".repeat(40))
        );
        assert_eq!(
            declared_names("b", std::iter::empty()),
            "; the program declares none"
        );
    }

    #[test]
    fn a_declared_but_unused_sampler_needs_no_texture() {
        let frag = "#version 330 core
uniform sampler2D uUnused;
out vec4 c;
void main() { c = vec4(0.0, 1.0, 0.0, 1.0); }
";
        let scene = Scene::load(scene_with("unused", frag, "")).unwrap();
        let frame = render_scene(&scene, &RenderOptions::default()).unwrap();
        assert_eq!(frame.image.pixel(0, 0), Some([0, 255, 0, 255]));
    }

    #[test]
    fn a_sampled_sampler_without_a_texture_is_an_error() {
        let frag = "#version 330 core
uniform sampler2D uTex;
out vec4 c;
void main() { c = texture(uTex, vec2(0.5)); }
";
        let e = error_of(&scene_with("missing", frag, ""));
        assert_eq!(e.field, "draws[0].samplers.uTex");
        assert!(e.message().contains("binds no texture"), "{e}");
    }

    #[test]
    fn a_texture_bound_to_a_non_sampler_uniform_says_what_it_is() {
        let frag = "#version 330 core
uniform vec4 uTint;
out vec4 c;
void main() { c = uTint; }
";
        let extra =
            r#", "uniforms": {"uTint": [1,1,1,1]}, "samplers": {"uTint": {"texture": "t"}}"#;
        let e = error_of(&scene_with("nonsampler", frag, extra));
        assert_eq!(e.field, "draws[0].samplers.uTint");
        assert_eq!(
            e.message(),
            "'uTint' is a vec4 uniform, not a sampler: give its value under uniforms"
        );
    }

    #[test]
    fn uniform_keys_that_set_the_same_floats_twice_are_an_error() {
        let frag = "#version 330 core
uniform vec3 uL[3];
out vec4 c;
void main() { c = vec4(uL[0] + uL[1] + uL[2], 1.0); }
";
        for (name, uniforms, field, earlier) in [
            (
                "whole-then-element",
                r#""uL": [0,0,0, 0,0,0, 0,0,0], "uL[1]": [1,1,1]"#,
                "uL[1]",
                "uL",
            ),
            (
                "element-then-whole",
                r#""uL[2]": [1,1,1], "uL": [0,0,0, 0,0,0, 0,0,0]"#,
                "uL",
                "uL[2]",
            ),
            (
                "same-element",
                r#""uL[1]": [1,1,1], "uL[01]": [1,1,1]"#,
                "uL[01]",
                "uL[1]",
            ),
        ] {
            let extra = format!(r#", "uniforms": {{{uniforms}}}"#);
            let e = error_of(&scene_with(name, frag, &extra));
            assert_eq!(e.field, format!("draws[0].uniforms.{field}"), "{name}");
            assert!(e.message().contains(&format!("'{earlier}'")), "{name}: {e}");
        }
        let extra = r#", "uniforms": {"uL[0]": [1,0,0], "uL[1]": [0,1,0], "uL[2]": [0,0,1]}"#;
        let scene = Scene::load(scene_with("distinct", frag, extra)).unwrap();
        let frame = render_scene(&scene, &RenderOptions::default()).unwrap();
        assert_eq!(frame.image.pixel(0, 0), Some([255, 255, 255, 255]));
    }
}
