//! What a scene's textures need from its samplers, for a loaded scene and a built one
//! alike: the mip chain of a texture a mipmapped sampler reads (as a program calls
//! `glGenerateMipmap` for it, `docs/scene-format.md` "Samplers"), and a GL 3.3 texture
//! for a 2D RGBA8 texture read with GL 3.3 sampler state.

use std::path::Path;

use super::super::{Draw, NamedTexture, SceneError};
use crate::budget::MemoryEstimate;
use crate::texture::gl33::{GlTexture, TexFormat};
use csir::sampler_type::TexTarget;

/// Memory a texture is about to take on, for the caller's budget.
pub(crate) enum TextureGrowth<'a> {
    /// The mip chain of the RGBA8 texture `texture` (`width × height`), `bytes` more.
    MipChain {
        /// The texture's scene name.
        texture: &'a str,
        /// Level 0's width.
        width: u32,
        /// Level 0's height.
        height: u32,
        /// The chain's bytes.
        bytes: u64,
    },
    /// A GL 3.3 texture's levels past 0: `bytes` more (f32 RGBA texels, 16 bytes each).
    Texels {
        /// The added bytes.
        bytes: u64,
    },
}

/// Gives `textures` what the samplers of `draws` read: RGBA8 mip chains first, then
/// the GL 3.3 textures (and their chains), in draw and sampler order. Before each
/// allocation `charge(field, growth)` may refuse it (the loader's memory budget); the
/// field is the sampler's `min_filter`. A binding whose texture index does not exist
/// is skipped ([`Scene::validate`](super::super::Scene::validate) reports it).
///
/// # Errors
/// What `charge` returns, or a GL 3.3 texture that cannot be made (on
/// `textures.NAME` of `scene_path`).
pub(crate) fn complete_textures(
    scene_path: &Path,
    textures: &mut [NamedTexture],
    draws: &[Draw],
    charge: &mut dyn FnMut(&str, TextureGrowth) -> Result<(), SceneError>,
) -> Result<(), SceneError> {
    for draw in draws {
        for binding in draw.samplers.iter().filter(|b| b.sampler.is_mipmapped()) {
            let Some(named) = textures.get_mut(binding.texture) else {
                continue;
            };
            if named.texture.level_count() == 1 {
                let (width, height) = (named.texture.width(), named.texture.height());
                let field = format!("{}.min_filter", draw.sampler_field(&binding.name));
                let growth = TextureGrowth::MipChain {
                    texture: &named.name,
                    width,
                    height,
                    bytes: MemoryEstimate::mip_chain_bytes(width, height),
                };
                charge(&field, growth)?;
                named.texture = named.texture.clone().with_mipmaps();
            }
        }
    }
    for draw in draws {
        for b in &draw.samplers {
            let Some(named) = textures.get_mut(b.texture) else {
                continue;
            };
            if b.gl33.is_some() && named.gl33.is_none() {
                let t = &named.texture;
                let values: Vec<[f64; 4]> = t.texels().iter().map(|p| p.map(f64::from)).collect();
                let gl = GlTexture::from_values(
                    TexTarget::D2,
                    TexFormat::Rgba8,
                    [t.width(), t.height(), 1],
                    &values,
                )
                .map_err(|e| SceneError::new(scene_path, format!("textures.{}", named.name), e))?;
                named.gl33 = Some(gl);
            }
            if b.sampler.is_mipmapped()
                && let Some(gl) = named.gl33.take()
            {
                let before = gl.memory_bytes();
                let gl = gl.with_mipmaps();
                let extra = gl.memory_bytes().saturating_sub(before);
                named.gl33 = Some(gl);
                let field = format!("{}.min_filter", draw.sampler_field(&b.name));
                charge(&field, TextureGrowth::Texels { bytes: extra })?;
            }
        }
    }
    Ok(())
}
