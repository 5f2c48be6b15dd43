//! The GL 3.3 textures and sampler keys of a scene as GL calls (`csir_gl`'s
//! `Gl33Image` and `Gl33SamplerState`): every target and format uploaded as given, the
//! wraps with `GL_CLAMP_TO_BORDER`, the border colour, the comparison and the λ
//! parameters. A scene without them maps as before (`frame.rs`).

use crate::scene::{Draw, Scene};
use crate::texture::gl33::{CompareFunc, GlSampler, GlTexture, GlWrap};
use csir::sampler_type::TexTarget;
use csir_gl::{Gl33Image, Gl33SamplerState, SamplerDesc, glow};

/// The `glTexImage*` of texture `index`, `texture`: its target, formats and level 0;
/// base and max level from the first sampler that reads it.
pub(super) fn image<'s>(
    scene: &Scene,
    index: usize,
    texture: &'s GlTexture,
    mipmapped: bool,
) -> Gl33Image<'s> {
    let state = scene
        .draws
        .iter()
        .flat_map(|d| &d.samplers)
        .find(|b| b.texture == index)
        .and_then(|b| b.gl33);
    let levels = state.map_or([0, 1000], |s| [s.base_level as i32, s.max_level as i32]);
    let (internal_format, format, ty) = texture.format().upload();
    Gl33Image {
        target: target(texture.target()),
        internal_format,
        format,
        ty,
        size: texture.size(),
        data: texture.upload(),
        mipmapped: mipmapped && texture.levels().len() > 1,
        levels,
    }
}

/// `desc` with the binding's GL 3.3 state: its three wraps and the rest.
pub(super) fn sampler<'s>(
    scene: &Scene,
    draw: &Draw,
    mut desc: SamplerDesc<'s>,
) -> SamplerDesc<'s> {
    let Some(binding) = draw.samplers.iter().find(|b| b.name == desc.name) else {
        return desc;
    };
    let textured = scene
        .textures
        .get(binding.texture)
        .is_some_and(|t| t.gl33.is_some());
    if binding.gl33.is_none() && !textured {
        return desc;
    }
    let state = binding
        .gl33
        .unwrap_or(GlSampler::from_sampler(binding.sampler));
    desc.wrap = state.wrap.map(wrap);
    desc.gl33 = Some(Gl33SamplerState {
        border_color: state.border_color,
        compare: state.compare.map(compare),
        lod: [state.min_lod, state.max_lod, state.lod_bias],
    });
    desc
}

/// The GL enum of a target.
fn target(t: TexTarget) -> u32 {
    match t {
        TexTarget::D1 => glow::TEXTURE_1D,
        TexTarget::D2 => glow::TEXTURE_2D,
        TexTarget::D3 => glow::TEXTURE_3D,
        TexTarget::Cube => glow::TEXTURE_CUBE_MAP,
        TexTarget::D1Array => glow::TEXTURE_1D_ARRAY,
        TexTarget::D2Array => glow::TEXTURE_2D_ARRAY,
        TexTarget::Rect => glow::TEXTURE_RECTANGLE,
        TexTarget::Buffer => glow::TEXTURE_BUFFER,
    }
}

/// The `GL_TEXTURE_WRAP_*` value.
fn wrap(w: GlWrap) -> u32 {
    match w {
        GlWrap::ClampToEdge => glow::CLAMP_TO_EDGE,
        GlWrap::Repeat => glow::REPEAT,
        GlWrap::MirroredRepeat => glow::MIRRORED_REPEAT,
        GlWrap::ClampToBorder => glow::CLAMP_TO_BORDER,
    }
}

/// The `GL_TEXTURE_COMPARE_FUNC` value.
fn compare(f: CompareFunc) -> u32 {
    match f {
        CompareFunc::Never => glow::NEVER,
        CompareFunc::Less => glow::LESS,
        CompareFunc::Equal => glow::EQUAL,
        CompareFunc::Lequal => glow::LEQUAL,
        CompareFunc::Greater => glow::GREATER,
        CompareFunc::Notequal => glow::NOTEQUAL,
        CompareFunc::Gequal => glow::GEQUAL,
        CompareFunc::Always => glow::ALWAYS,
    }
}
