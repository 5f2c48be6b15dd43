//! A texture bound on a unit of shader_runner's GL context with its sampler state
//! (`glTexParameter` state is the texture's in GL 3.3 without sampler objects), and
//! how it becomes a scene binding: csir-render's RGBA8 2D path when the state fits
//! it (so the tests that only ever used that path draw as before), else the GL 3.3
//! texture with its full [`GlSampler`] (docs/conformance.md "Textures").

use super::texture_commands::{TexParameter, TextureImage};
use super::textures;
use crate::texture::gl33::{CompareFunc, DepthMode, FormatClass, GlSampler, GlTexture, TexFormat};
use crate::texture::{Filter, MinFilter, Sampler, Texture, Wrap};
use csir::Program;
use csir::ir::SymbolKind;
use csir::sampler_type::TexTarget;

/// The RGBA8 sampler a binding carries beside its GL 3.3 state (unused when the
/// binding has one).
pub const LEGACY_SAMPLER: Sampler = Sampler::new(Filter::Nearest, Wrap::Clamp);

/// The `GL_DEPTH_TEXTURE_MODE` a depth texture starts with in the context piglit's
/// shader_runner makes for a test needing GLSL `glsl` (times 100): a compatibility
/// context below GLSL 1.40 (GL 3.1), whose default is `GL_LUMINANCE`; a core context
/// from 1.40 on, which has no depth mode and returns `(d, 0, 0, 1)` (GL 3.3 core
/// §3.8.16; [`DepthMode::Red`]).
pub fn initial_depth_mode(glsl: u32) -> DepthMode {
    if glsl < 140 {
        DepthMode::Luminance
    } else {
        DepthMode::Red
    }
}

/// The target sampler uniform `name` of `program` reads (its type's,
/// GLSL 3.30 §4.1.7); `sampler2D`'s for a name no stage declares.
pub fn sampler_target(program: &Program, name: &str) -> TexTarget {
    [&program.vertex, &program.fragment]
        .into_iter()
        .flat_map(|s| s.interface.symbols.iter())
        .find_map(|sym| match sym.kind {
            SymbolKind::Sampler { sampler, .. } if sym.name == name => Some(sampler.target),
            _ => None,
        })
        .unwrap_or(TexTarget::D2)
}

/// A texture and its sampler state.
#[derive(Clone, Debug)]
pub struct UnitTexture {
    texture: GlTexture,
    sampler: GlSampler,
    /// `GL_TEXTURE_COMPARE_FUNC` (kept while the mode is off, as GL keeps it).
    compare_func: CompareFunc,
    /// `GL_TEXTURE_COMPARE_MODE` is `GL_COMPARE_REF_TO_TEXTURE`.
    compare_mode: bool,
    /// The test's shaders are GLSL 1.30 or later, whose shadow lookups return the
    /// comparison result as a float: the depth mode does not apply to it.
    scalar_shadow: bool,
}

impl UnitTexture {
    /// The texture `image` makes, with the sampler state piglit leaves it with
    /// ([`textures::initial_sampler`]), for a test needing GLSL `glsl` (times 100): a
    /// depth texture is fixed point (`GL_DEPTH_COMPONENT`) in the context's depth
    /// mode ([`initial_depth_mode`]).
    pub fn new(image: &TextureImage, glsl: u32) -> UnitTexture {
        let mut texture = textures::create(image);
        if texture.format().class() == FormatClass::Depth {
            texture = texture
                .with_depth_mode(initial_depth_mode(glsl))
                .with_fixed_point_depth();
        }
        let sampler = textures::initial_sampler(image);
        UnitTexture {
            texture,
            sampler,
            compare_func: sampler.compare.unwrap_or(CompareFunc::Lequal),
            compare_mode: sampler.compare.is_some(),
            scalar_shadow: glsl >= 130,
        }
    }

    /// Apply a `texparameter` setting.
    pub fn set(&mut self, parameter: &TexParameter) {
        let s = &mut self.sampler;
        match *parameter {
            TexParameter::CompareFunc(f) => self.compare_func = f,
            TexParameter::CompareMode(on) => self.compare_mode = on,
            TexParameter::DepthMode(mode) => {
                self.texture = self.texture.clone().with_depth_mode(mode);
            }
            TexParameter::MinFilter(f) => s.min_filter = f,
            TexParameter::MagFilter(f) => s.mag_filter = f,
            TexParameter::Wrap(axis, w) => s.wrap[axis.min(2)] = w,
            TexParameter::LodBias(v) => s.lod_bias = v,
            TexParameter::MinLod(v) => s.min_lod = v,
            TexParameter::MaxLod(v) => s.max_lod = v,
            TexParameter::BaseLevel(v) => s.base_level = v,
            TexParameter::MaxLevel(v) => s.max_level = v,
            TexParameter::BorderColor(c) => s.border_color = c,
        }
        self.sampler.compare = self.compare_mode.then_some(self.compare_func);
    }

    /// The sampler state.
    #[cfg(test)]
    pub fn sampler(&self) -> GlSampler {
        self.sampler
    }

    /// Whether the texture is complete for its sampler state (GL 3.3 §3.8.14): the
    /// base level exists, and a mipmapped minification filter finds every level from
    /// the base down to 1×1 (or to `max_level`).
    pub fn is_complete(&self) -> bool {
        let have = self.texture.levels().len() as u64;
        let base = u64::from(self.sampler.base_level);
        if base >= have || self.sampler.max_level < self.sampler.base_level {
            return false;
        }
        if self.sampler.min_filter.mip_filter().is_none() {
            return true;
        }
        let [w, h, d] = self.texture.size();
        let largest = match self.texture.target() {
            TexTarget::D3 => w.max(h).max(d),
            TexTarget::D1 | TexTarget::D1Array => w,
            _ => w.max(h),
        };
        let chain_last = u64::from(31 - largest.max(1).leading_zeros());
        let last = chain_last.min(u64::from(self.sampler.max_level));
        last < have
    }

    /// The binding: the RGBA8 [`Texture`] (a 1×1 stand-in when the GL 3.3 texture
    /// holds it), the GL 3.3 texture, the RGBA8 sampler and the GL 3.3 sampler state.
    /// A one-level RGBA8 2D texture whose state is one filter for both and one
    /// non-border wrap for s, t and r takes the RGBA8 path (no GL 3.3 parts). An
    /// incomplete texture reads `(0, 0, 0, 1)` (GL 3.3 §3.8.14, as a unit without a
    /// texture).
    pub fn binding(&self) -> (Texture, Option<GlTexture>, Sampler, Option<GlSampler>) {
        let s = self.sampler;
        if !self.is_complete() {
            return self.incomplete();
        }
        if let Some(rgba8) = textures::as_rgba8(&self.texture) {
            for wrap in [Wrap::Clamp, Wrap::Repeat, Wrap::Mirror] {
                let legacy = Sampler::new(s.mag_filter, wrap);
                if GlSampler::from_sampler(legacy) == s {
                    return (rgba8, None, legacy, None);
                }
            }
        }
        // GLSL 1.30's shadow lookups return r itself: luminance puts it in x (as
        // Mesa ignores the depth mode for them).
        let texture = if self.scalar_shadow && s.compare.is_some() {
            self.texture.clone().with_depth_mode(DepthMode::Luminance)
        } else {
            self.texture.clone()
        };
        (textures::missing(), Some(texture), LEGACY_SAMPLER, Some(s))
    }

    /// What an incomplete texture binds as: the RGBA8 black texel for a 2D colour
    /// texture, else a 1×1 texture of the same target and format class holding
    /// `(0, 0, 0, 1)` (0 for a depth) with its sampler (no mip filter).
    fn incomplete(&self) -> (Texture, Option<GlTexture>, Sampler, Option<GlSampler>) {
        let target = self.texture.target();
        let format = self.texture.format();
        if target == TexTarget::D2 && format.class() == FormatClass::Float {
            return (textures::missing(), None, LEGACY_SAMPLER, None);
        }
        let format = match format.class() {
            FormatClass::Float => TexFormat::Rgba8,
            _ => format,
        };
        let faces = if target == TexTarget::Cube { 6 } else { 1 };
        let black = format.texel([
            0.0,
            0.0,
            0.0,
            if format == TexFormat::Rgba8 {
                255.0
            } else {
                1.0
            },
        ]);
        let texture = GlTexture::new(target, format, [1, 1, faces], vec![black; faces as usize])
            .expect("1x1 of every target but buffer");
        let texture = match self.texture.depth_mode() {
            Some(mode) => texture.with_depth_mode(mode),
            None => texture,
        };
        let mut s = self.sampler;
        s.min_filter = MinFilter::from_filter(s.min_filter.texel_filter());
        s.base_level = 0;
        (textures::missing(), Some(texture), LEGACY_SAMPLER, Some(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texture::gl33::GlWrap;

    fn rgbw() -> UnitTexture {
        UnitTexture::new(
            &TextureImage::Rgbw {
                width: 4,
                height: 4,
            },
            110,
        )
    }

    #[test]
    fn plain_rgba8_state_keeps_the_rgba8_path() {
        let mut u = rgbw();
        let (t, gl, s, gls) = u.binding();
        assert_eq!((t.width(), gl, s, gls), (4, None, LEGACY_SAMPLER, None));
        u.set(&TexParameter::Wrap(0, GlWrap::Repeat));
        u.set(&TexParameter::Wrap(1, GlWrap::Repeat));
        u.set(&TexParameter::Wrap(2, GlWrap::Repeat));
        u.set(&TexParameter::MinFilter(MinFilter::Linear));
        u.set(&TexParameter::MagFilter(Filter::Linear));
        let (_, gl, s, _) = u.binding();
        assert!(gl.is_none());
        assert_eq!(s, Sampler::new(Filter::Linear, Wrap::Repeat));
        // Different filters need the GL 3.3 sampler.
        u.set(&TexParameter::MinFilter(MinFilter::Nearest));
        let (_, gl, _, gls) = u.binding();
        assert!(gl.is_some());
        assert_eq!(gls.unwrap().mag_filter, Filter::Linear);
    }

    #[test]
    fn compare_func_and_mode_combine() {
        let image = TextureImage::Shadow {
            target: TexTarget::D2,
            width: 4,
            height: 4,
            layers: 1,
        };
        let mut u = UnitTexture::new(&image, 110);
        assert_eq!(u.sampler().compare, Some(CompareFunc::Greater));
        u.set(&TexParameter::CompareFunc(CompareFunc::Never));
        assert_eq!(u.sampler().compare, Some(CompareFunc::Never));
        u.set(&TexParameter::CompareMode(false));
        assert_eq!(u.sampler().compare, None);
        u.set(&TexParameter::CompareMode(true));
        assert_eq!(u.sampler().compare, Some(CompareFunc::Never));
        u.set(&TexParameter::DepthMode(DepthMode::Alpha));
        let (_, gl, _, _) = u.binding();
        let gl = gl.unwrap();
        assert_eq!(gl.depth_mode(), Some(DepthMode::Alpha));
        assert!(gl.is_fixed_point_depth());
        // GLSL 1.30's float-returning shadow lookups ignore the depth mode.
        let mut u = UnitTexture::new(&image, 130);
        u.set(&TexParameter::DepthMode(DepthMode::Alpha));
        let (_, gl, _, _) = u.binding();
        assert_eq!(gl.unwrap().depth_mode(), Some(DepthMode::Luminance));
        u.set(&TexParameter::CompareMode(false));
        let (_, gl, _, _) = u.binding();
        assert_eq!(gl.unwrap().depth_mode(), Some(DepthMode::Alpha));
        assert_eq!(initial_depth_mode(130), DepthMode::Luminance);
        assert_eq!(initial_depth_mode(140), DepthMode::Red);
    }

    #[test]
    fn mipmapped_filters_need_the_whole_chain() {
        let mut u = rgbw();
        assert!(u.is_complete());
        u.set(&TexParameter::MinFilter(MinFilter::LinearMipmapLinear));
        assert!(!u.is_complete());
        let (t, gl, _, _) = u.binding();
        assert_eq!((t.texel(0, 0), gl), ([0, 0, 0, 255], None));
        // max_level 0 asks for level 0 only.
        u.set(&TexParameter::MaxLevel(0));
        assert!(u.is_complete());
        let mut m = UnitTexture::new(&TextureImage::Miptree, 110);
        assert!(m.is_complete());
        m.set(&TexParameter::BaseLevel(4));
        assert!(!m.is_complete());
        m.set(&TexParameter::BaseLevel(3));
        assert!(m.is_complete());
    }
}
