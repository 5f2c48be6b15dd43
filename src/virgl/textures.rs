//! A scene's textures and samplers as VirGL resources, sampler views and sampler
//! states (docs/scene-format.md "Textures", "Samplers"): every target (array layers,
//! cube faces, 3D slices, texture buffers) and every `format` uploaded with its whole
//! mip chain, the sampler's three wraps, border colour, comparison and λ keys, and a
//! view from the sampler's base level.
//!
//! Texel row 0 (t = 0) goes to texture row 0, as OpenGL stores it; a level's layers
//! (a cube's faces +x, −x, +y, −y, +z, −z) follow one another as the scene gives them.
//! The mip levels are the CPU renderer's own (`Texture::with_mipmaps`,
//! `GlTexture::with_mipmaps`, as `glGenerateMipmap` makes them), so both back ends
//! sample the same texels.

use crate::scene::{CompareFunc, GlSampler, GlTexture, GlWrap, Scene, TexFormat};
use crate::texture::gl33::FormatClass;
use crate::texture::{Filter, MinFilter, Sampler, Texture, Wrap};
use csir::sampler_type::TexTarget;
use csir_virgl::ResourceDesc;
use csir_virgl::command::ResourceHandle;
use csir_virgl::pipe::{self, Bind, Format, MipFilter, Target};
use csir_virgl::sampler::{SamplerState, SamplerView};

/// How a slot samples its texture: the RGBA8 path's filter and wrap, or the GL 3.3
/// sampler state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SlotSampler {
    /// A 2D RGBA8 texture's [`Sampler`].
    Rgba8(Sampler),
    /// A GL 3.3 texture's [`GlSampler`].
    Gl33(GlSampler),
}

/// A texture bound to a sampler slot: the scene texture's index and how to sample it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlotTexture {
    /// Index into [`Scene::textures`].
    pub texture: usize,
    /// The sampler state.
    pub sampler: SlotSampler,
}

/// One transfer of texel data into a texture: level `level`, layers (or 3D slices)
/// from 0, `size = [w, h, layers or depth]`, tightly packed bytes.
pub struct LevelUpload {
    /// The mip level.
    pub level: u32,
    /// `[width, height, depth]` in texels (depth: layers, faces or slices).
    pub size: [u32; 3],
    /// Bytes, x fastest, then y, then layers.
    pub bytes: Vec<u8>,
}

/// A scene texture as a VirGL resource: how to create it, what to write into it and
/// its format and target for views.
pub struct TextureUpload {
    /// The resource to create.
    pub desc: ResourceDesc,
    /// The view's target.
    pub target: Target,
    /// The view's format: the texture's texel format (for a texture buffer not the
    /// buffer resource's, which is bytes).
    pub format: Format,
    /// Bytes per texel of `desc.format`.
    pub texel_bytes: u32,
    /// The view's layers: `[0, layers − 1]` (a cube's 6 faces; a buffer's elements).
    pub layers: [u32; 2],
    /// Levels `0..levels.len()`, or for a texture buffer its one "level" of bytes.
    pub levels: Vec<LevelUpload>,
}

impl TextureUpload {
    /// Scene texture `index`: the GL 3.3 texture when it has one, else its RGBA8 2D
    /// texture (with its mip chain when a sampler made one).
    pub fn of(scene: &Scene, index: usize) -> TextureUpload {
        let named = &scene.textures[index];
        match &named.gl33 {
            Some(gl) => gl33_upload(gl),
            None => rgba8_upload(&named.texture),
        }
    }

    /// The sampler view of `resource` for a sampler whose base and max level are
    /// `base` and `max` (clamped to the levels uploaded).
    pub fn view(&self, resource: ResourceHandle, base: u32, max: u32) -> SamplerView {
        let last = self.desc.last_level;
        let first = base.min(last);
        SamplerView {
            resource,
            format: self.format,
            target: self.target,
            layers: self.layers,
            levels: [first, max.clamp(first, last)],
        }
    }
}

/// The field and message refusing a sampler of `draw` whose texture
/// `--backend virgl` does not draw: a texture buffer (`target: buffer`), whose
/// `BUFFER` sampler view virglrenderer 0.10.4 turns into
/// `glTexBufferRange(size = 0)` (`GL_INVALID_VALUE`, the context is lost on
/// `SET_SAMPLER_VIEWS`; docs/virgl.md "Texture buffers" has the evidence); `None`
/// when every sampler's texture is drawn.
pub fn refusal(scene: &Scene, draw: &crate::scene::Draw) -> Option<(String, String)> {
    let binding = draw.samplers.iter().find(|b| {
        scene.textures[b.texture]
            .gl33
            .as_ref()
            .is_some_and(|g| g.target() == TexTarget::Buffer)
    })?;
    Some((
        draw.sampler_field(&binding.name),
        format!(
            "sampler '{}': texture '{}' is a buffer texture, which --backend virgl does not \
             draw (virglrenderer 0.10.4 binds its BUFFER sampler view with \
             glTexBufferRange(size = 0), GL_INVALID_VALUE); render it with --backend cpu or gl",
            binding.name, scene.textures[binding.texture].name
        ),
    ))
}

/// The RGBA8 2D texture `texture` and its levels.
fn rgba8_upload(texture: &Texture) -> TextureUpload {
    let count = texture.level_count();
    let levels = (0..count)
        .map(|k| {
            let level = texture.level(k);
            LevelUpload {
                level: k,
                size: [level.width(), level.height(), 1],
                bytes: level.texels().iter().flatten().copied().collect(),
            }
        })
        .collect();
    TextureUpload {
        desc: ResourceDesc::texture(
            Target::Texture2d,
            Format::R8G8B8A8Unorm,
            [texture.width(), texture.height(), 1],
            1,
            count - 1,
            Bind::SAMPLER_VIEW,
        ),
        target: Target::Texture2d,
        format: Format::R8G8B8A8Unorm,
        texel_bytes: 4,
        layers: [0, 0],
        levels,
    }
}

/// The GL 3.3 texture `gl`: its target, format and every level.
fn gl33_upload(gl: &GlTexture) -> TextureUpload {
    let format = format(gl.format());
    let texel_bytes = format.bytes();
    let [w, h, d] = gl.size();
    let levels: Vec<LevelUpload> = gl
        .levels()
        .iter()
        .enumerate()
        .map(|(k, level)| {
            let (height, depth) = match gl.target() {
                // a 1D array keeps its layers in `height`
                TexTarget::D1Array => (1, level.height),
                _ => (level.height, level.depth),
            };
            LevelUpload {
                level: k as u32,
                size: [level.width, height, depth],
                bytes: level
                    .texels
                    .iter()
                    .flat_map(|&t| texel_bytes_of(gl.format(), t))
                    .collect(),
            }
        })
        .collect();
    let last_level = levels.len() as u32 - 1;
    let (target, size, array_size) = match gl.target() {
        TexTarget::D1 => (Target::Texture1d, [w, 1, 1], 1),
        TexTarget::D2 => (Target::Texture2d, [w, h, 1], 1),
        TexTarget::D3 => (Target::Texture3d, [w, h, d], 1),
        TexTarget::Cube => (Target::TextureCube, [w, h, 1], 6),
        TexTarget::D1Array => (Target::Texture1dArray, [w, 1, 1], h),
        TexTarget::D2Array => (Target::Texture2dArray, [w, h, 1], d),
        TexTarget::Rect => (Target::TextureRect, [w, h, 1], 1),
        TexTarget::Buffer => {
            let bytes = levels.into_iter().next().map_or(Vec::new(), |l| l.bytes);
            let elements = bytes.len() as u32 / texel_bytes;
            return TextureUpload {
                desc: ResourceDesc::buffer(bytes.len().max(4) as u32, Bind::SAMPLER_VIEW),
                target: Target::Buffer,
                format,
                texel_bytes,
                layers: [0, elements.saturating_sub(1)],
                levels: vec![LevelUpload {
                    level: 0,
                    size: [elements, 1, 1],
                    bytes,
                }],
            };
        }
    };
    TextureUpload {
        desc: ResourceDesc::texture(
            target,
            format,
            size,
            array_size,
            last_level,
            Bind::SAMPLER_VIEW,
        ),
        target,
        format,
        texel_bytes,
        layers: [0, array_size - 1],
        levels,
    }
}

/// The resource format of a scene texture format.
pub fn format(f: TexFormat) -> Format {
    match f {
        TexFormat::Rgba8 => Format::R8G8B8A8Unorm,
        TexFormat::Srgb8Alpha8 => Format::R8G8B8A8Srgb,
        TexFormat::R8 => Format::R8Unorm,
        TexFormat::Rg8 => Format::R8G8Unorm,
        TexFormat::Rgba16f => Format::R16G16B16A16Float,
        TexFormat::Rgba32f => Format::R32G32B32A32Float,
        TexFormat::R32f => Format::R32Float,
        TexFormat::Depth32f => Format::Z32Float,
        TexFormat::Rgba8ui => Format::R8G8B8A8Uint,
        TexFormat::Rgba32i => Format::R32G32B32A32Sint,
        TexFormat::Rgba32ui => Format::R32G32B32A32Uint,
    }
}

/// The stored bytes of a texel whose sampled value is `t` ([`TexFormat::texel`]'s
/// inverse): unorm8 `round(v · 255)` (sRGB colour encoded back, GL 3.3 §4.1.8),
/// half floats rounded to f16, floats as f32, integers as their patterns, the
/// format's components only, little-endian.
fn texel_bytes_of(f: TexFormat, t: [f32; 4]) -> Vec<u8> {
    let unorm = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    let floats = |n: usize| t[..n].iter().flat_map(|v| v.to_le_bytes()).collect();
    match f {
        TexFormat::Rgba8 => t.map(unorm).to_vec(),
        TexFormat::Srgb8Alpha8 => {
            let e = csir_raster::srgb_encode;
            vec![e(t[0]), e(t[1]), e(t[2]), unorm(t[3])]
        }
        TexFormat::R8 => vec![unorm(t[0])],
        TexFormat::Rg8 => vec![unorm(t[0]), unorm(t[1])],
        TexFormat::Rgba16f => t
            .iter()
            .flat_map(|&v| half::f16::from_f32(v).to_le_bytes())
            .collect(),
        TexFormat::Rgba32f => floats(4),
        TexFormat::R32f | TexFormat::Depth32f => floats(1),
        TexFormat::Rgba8ui => t.map(|v| v.to_bits() as u8).to_vec(),
        TexFormat::Rgba32i | TexFormat::Rgba32ui => {
            t.iter().flat_map(|v| v.to_bits().to_le_bytes()).collect()
        }
    }
}

/// The sampler state of a slot reading a texture of `format` (`None`: the RGBA8
/// path): filters and mip filter, three wraps, the comparison, λ bias and clamps, and
/// the border colour (an integer format's as its integers, [`TexFormat::border`];
/// any other's as given, which the host converts to the format as GL does).
pub fn sampler_state(sampler: SlotSampler, format: Option<TexFormat>) -> SamplerState {
    let filter = |f: Filter| match f {
        Filter::Nearest => pipe::Filter::Nearest,
        Filter::Linear => pipe::Filter::Linear,
    };
    let filters = |min: MinFilter, mag: Filter| {
        let mip = match min.mip_filter() {
            None => MipFilter::None,
            Some(Filter::Nearest) => MipFilter::Nearest,
            Some(Filter::Linear) => MipFilter::Linear,
        };
        (filter(min.texel_filter()), mip, filter(mag))
    };
    match sampler {
        SlotSampler::Rgba8(s) => {
            let wrap = match s.wrap {
                Wrap::Clamp => pipe::Wrap::ClampToEdge,
                Wrap::Repeat => pipe::Wrap::Repeat,
                Wrap::Mirror => pipe::Wrap::MirrorRepeat,
            };
            let (min_filter, mip_filter, mag_filter) = filters(s.min_filter, s.mag_filter);
            SamplerState {
                min_filter,
                mip_filter,
                mag_filter,
                ..SamplerState::simple(filter(s.mag_filter), wrap)
            }
        }
        SlotSampler::Gl33(s) => {
            let (min_filter, mip_filter, mag_filter) = filters(s.min_filter, s.mag_filter);
            let integer =
                format.is_some_and(|f| matches!(f.class(), FormatClass::Int | FormatClass::Uint));
            let border_color = match format {
                Some(f) if integer => f.border(s.border_color).map(f32::to_bits),
                _ => s.border_color.map(f32::to_bits),
            };
            SamplerState {
                wrap: s.wrap.map(wrap),
                min_filter,
                mip_filter,
                mag_filter,
                compare: s.compare.map(compare),
                lod_bias: s.lod_bias.to_bits(),
                min_lod: s.min_lod.to_bits(),
                max_lod: s.max_lod.to_bits(),
                border_color,
                seamless_cube_map: s.seamless_cube_map,
            }
        }
    }
}

/// The wire wrap mode of a GL 3.3 wrap.
fn wrap(w: GlWrap) -> pipe::Wrap {
    match w {
        GlWrap::ClampToEdge => pipe::Wrap::ClampToEdge,
        GlWrap::Repeat => pipe::Wrap::Repeat,
        GlWrap::MirroredRepeat => pipe::Wrap::MirrorRepeat,
        GlWrap::ClampToBorder => pipe::Wrap::ClampToBorder,
    }
}

/// The wire function of a depth comparison.
fn compare(f: CompareFunc) -> pipe::CompareFunc {
    match f {
        CompareFunc::Never => pipe::CompareFunc::Never,
        CompareFunc::Less => pipe::CompareFunc::Less,
        CompareFunc::Equal => pipe::CompareFunc::Equal,
        CompareFunc::Lequal => pipe::CompareFunc::LessEqual,
        CompareFunc::Greater => pipe::CompareFunc::Greater,
        CompareFunc::Notequal => pipe::CompareFunc::NotEqual,
        CompareFunc::Gequal => pipe::CompareFunc::GreaterEqual,
        CompareFunc::Always => pipe::CompareFunc::Always,
    }
}

/// The base and max level of a slot's sampler (`GL_TEXTURE_BASE_LEVEL`,
/// `GL_TEXTURE_MAX_LEVEL`; the RGBA8 path's are GL's defaults, 0 and 1000).
pub fn level_range(sampler: SlotSampler) -> (u32, u32) {
    match sampler {
        SlotSampler::Rgba8(_) => (0, 1000),
        SlotSampler::Gl33(s) => (s.base_level, s.max_level),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texels_go_back_to_their_stored_bytes() {
        for (f, stored) in [
            (TexFormat::Rgba8, [0.0, 51.0, 128.0, 255.0]),
            (TexFormat::Srgb8Alpha8, [0.0, 51.0, 188.0, 255.0]),
            (TexFormat::Rgba8ui, [0.0, 7.0, 200.0, 255.0]),
        ] {
            let bytes = texel_bytes_of(f, f.texel(stored));
            assert_eq!(bytes, stored.map(|v| v as u8).to_vec(), "{}", f.name());
        }
        assert_eq!(
            texel_bytes_of(TexFormat::Rg8, TexFormat::Rg8.texel([3.0, 250.0, 0.0, 0.0])),
            [3, 250]
        );
        // 1.5 as a half float is 0x3e00.
        let half = texel_bytes_of(TexFormat::Rgba16f, [1.5, 0.0, -2.0, 1.0]);
        assert_eq!(half[..2], [0x00, 0x3e]);
        assert_eq!(half[4..6], [0x00, 0xc0]);
        let int = texel_bytes_of(
            TexFormat::Rgba32i,
            TexFormat::Rgba32i.texel([-3.0, 7.0, 0.0, 1.0]),
        );
        assert_eq!(int[..4], (-3i32).to_le_bytes());
        assert_eq!(
            texel_bytes_of(TexFormat::Depth32f, [0.25, 0.0, 0.0, 1.0]),
            0.25f32.to_le_bytes()
        );
    }

    #[test]
    fn gl33_samplers_keep_every_key() {
        let s = GlSampler {
            mag_filter: Filter::Linear,
            min_filter: MinFilter::NearestMipmapLinear,
            wrap: [
                GlWrap::ClampToBorder,
                GlWrap::MirroredRepeat,
                GlWrap::Repeat,
            ],
            border_color: [0.5, -1.0, 2.0, 1.0],
            compare: Some(CompareFunc::Gequal),
            min_lod: 0.5,
            max_lod: 3.0,
            lod_bias: -1.0,
            base_level: 1,
            max_level: 2,
            seamless_cube_map: true,
        };
        let state = sampler_state(SlotSampler::Gl33(s), Some(TexFormat::Rgba8));
        assert_eq!(
            state.wrap,
            [
                pipe::Wrap::ClampToBorder,
                pipe::Wrap::MirrorRepeat,
                pipe::Wrap::Repeat
            ]
        );
        assert_eq!(
            (state.min_filter, state.mip_filter, state.mag_filter),
            (
                pipe::Filter::Nearest,
                MipFilter::Linear,
                pipe::Filter::Linear
            )
        );
        assert_eq!(state.compare, Some(pipe::CompareFunc::GreaterEqual));
        assert!(state.seamless_cube_map);
        assert_eq!(state.dwords()[0] >> 19 & 1, 1);
        assert_eq!(
            [state.lod_bias, state.min_lod, state.max_lod].map(f32::from_bits),
            [-1.0, 0.5, 3.0]
        );
        assert_eq!(
            state.border_color.map(f32::from_bits),
            [0.5, -1.0, 2.0, 1.0]
        );
        // An integer texture's border is its integers (truncated).
        let int = sampler_state(SlotSampler::Gl33(s), Some(TexFormat::Rgba32i));
        assert_eq!(int.border_color.map(|b| b as i32), [0, -1, 2, 1]);
        assert_eq!(level_range(SlotSampler::Gl33(s)), (1, 2));
        // The RGBA8 path: one wrap, its filters, no comparison.
        let legacy = sampler_state(
            SlotSampler::Rgba8(Sampler::new(Filter::Nearest, Wrap::Repeat)),
            None,
        );
        assert_eq!(legacy.wrap, [pipe::Wrap::Repeat; 3]);
        assert_eq!(legacy.mip_filter, MipFilter::None);
        assert_eq!(legacy.compare, None);
    }
}
