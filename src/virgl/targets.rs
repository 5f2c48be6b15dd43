//! The scene's colour targets as VirGL surfaces (docs/scene-format.md "Render
//! targets", docs/virgl.md "Render targets"): one colour resource per target in its
//! format, a surface of it, the clear value the host writes and how the bytes read
//! back become the CPU renderer's [`TargetImage`] values.
//!
//! `GL_FRAMEBUFFER_SRGB` is the surface's format: an `srgb8_alpha8` target is an
//! `R8G8B8A8_SRGB` resource, and its surface is `R8G8B8A8_SRGB` (the host encodes
//! writes and decodes the destination for blending, GL 3.3 §4.1.8) with
//! `framebuffer_srgb`, `R8G8B8A8_UNORM` (a texture view storing the linear bytes)
//! without, as Gallium expresses the enable.

use crate::pipeline::TargetImage;
use crate::scene::Scene;
use csir_raster::{ColorTarget, TargetClass, TargetFormat};
use csir_virgl::pipe::Format;

/// One colour attachment: its target, resource and surface formats, and its clear.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attachment {
    /// The scene's target (format and `framebuffer_srgb`).
    pub target: ColorTarget,
    /// The resource's format.
    pub resource_format: Format,
    /// The surface's format: the resource's, but `R8G8B8A8_UNORM` for an sRGB
    /// target without `framebuffer_srgb`.
    pub surface_format: Format,
    /// The clear value as the four dwords of Gallium's `pipe_color_union`: floats
    /// for unorm and float targets, integers for integer targets.
    pub clear: [u32; 4],
}

/// The attachments of `scene`: its `targets`, or the one RGBA8 target cleared to
/// `clear.color`.
pub fn attachments(scene: &Scene) -> Vec<Attachment> {
    if !scene.targets.given {
        return vec![Attachment {
            target: ColorTarget::RGBA8,
            resource_format: Format::R8G8B8A8Unorm,
            surface_format: Format::R8G8B8A8Unorm,
            clear: scene.clear_color.map(f32::to_bits),
        }];
    }
    scene
        .targets
        .list
        .iter()
        .zip(&scene.targets.clear)
        .map(|(&target, &clear)| {
            let resource_format = format(target.format);
            let surface_format =
                if target.format == TargetFormat::Srgb8Alpha8 && !target.framebuffer_srgb {
                    Format::R8G8B8A8Unorm
                } else {
                    resource_format
                };
            let clear = match target.format.class() {
                // glClearBufferuiv / iv take integers: each number's integer part.
                TargetClass::Uint | TargetClass::Int => clear.map(|c| c as i64 as u32),
                TargetClass::Unorm | TargetClass::Float => clear.map(|c| (c as f32).to_bits()),
            };
            Attachment {
                target,
                resource_format,
                surface_format,
                clear,
            }
        })
        .collect()
}

/// The resource format of a target format (the same Gallium formats as the
/// textures', `textures::format`).
pub fn format(f: TargetFormat) -> Format {
    match f {
        TargetFormat::Rgba8 => Format::R8G8B8A8Unorm,
        TargetFormat::Srgb8Alpha8 => Format::R8G8B8A8Srgb,
        TargetFormat::R8 => Format::R8Unorm,
        TargetFormat::Rg8 => Format::R8G8Unorm,
        TargetFormat::Rgba16f => Format::R16G16B16A16Float,
        TargetFormat::Rgba32f => Format::R32G32B32A32Float,
        TargetFormat::R32f => Format::R32Float,
        TargetFormat::Rgba8ui => Format::R8G8B8A8Uint,
        TargetFormat::Rgba32ui => Format::R32G32B32A32Uint,
        TargetFormat::Rgba32i => Format::R32G32B32A32Sint,
    }
}

/// The bytes of a target read back (`width · height` texels of the resource format,
/// row 0, OpenGL's bottom row, first) as [`TargetImage`] values, top row first:
/// unorm channels as their bytes, floats as `f32` bits (a half float widened
/// exactly), integers as they are; a format's missing channels as GL reads them back
/// ((0, 0, 1): 255 for unorm, 1.0 for float, 1 for integers), as the CPU renderer's
/// `ColorTarget::read` gives them.
pub fn target_image(target: ColorTarget, width: u32, height: u32, bytes: &[u8]) -> TargetImage {
    let f = target.format;
    let texel = format(f).bytes() as usize;
    let word = |b: &[u8], i: usize| {
        u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
    };
    let half = |b: &[u8], i: usize| {
        half::f16::from_le_bytes([b[2 * i], b[2 * i + 1]])
            .to_f32()
            .to_bits()
    };
    let one = 1f32.to_bits();
    let pixel = |b: &[u8]| -> [u32; 4] {
        match f {
            TargetFormat::Rgba8 | TargetFormat::Srgb8Alpha8 | TargetFormat::Rgba8ui => {
                [0, 1, 2, 3].map(|c| u32::from(b[c]))
            }
            TargetFormat::R8 => [u32::from(b[0]), 0, 0, 255],
            TargetFormat::Rg8 => [u32::from(b[0]), u32::from(b[1]), 0, 255],
            TargetFormat::Rgba16f => [0, 1, 2, 3].map(|c| half(b, c)),
            TargetFormat::R32f => [word(b, 0), 0, 0, one],
            TargetFormat::Rgba32f | TargetFormat::Rgba32ui | TargetFormat::Rgba32i => {
                [0, 1, 2, 3].map(|c| word(b, c))
            }
        }
    };
    let row = width as usize * texel;
    let values = bytes
        .chunks_exact(row)
        .rev()
        .flat_map(|r| r.chunks_exact(texel).map(pixel))
        .collect();
    TargetImage {
        target,
        width,
        height,
        values,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(format: TargetFormat) -> ColorTarget {
        ColorTarget {
            format,
            framebuffer_srgb: false,
        }
    }

    #[test]
    fn read_back_bytes_become_the_cpu_renderers_values_top_row_first() {
        // 1×2 r32f: bottom row 2.5, top row −1.
        let mut bytes = 2.5f32.to_le_bytes().to_vec();
        bytes.extend((-1f32).to_le_bytes());
        let image = target_image(target(TargetFormat::R32f), 1, 2, &bytes);
        assert_eq!(
            image.values,
            [
                [(-1f32).to_bits(), 0, 0, 1f32.to_bits()],
                [2.5f32.to_bits(), 0, 0, 1f32.to_bits()]
            ]
        );
        // rgba16f: 1.5 is 0x3e00, −2 is 0xc000.
        let half = [0x00, 0x3e, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x3c];
        let image = target_image(target(TargetFormat::Rgba16f), 1, 1, &half);
        assert_eq!(image.values[0].map(f32::from_bits), [1.5, -2.0, 0.0, 1.0]);
        let image = target_image(target(TargetFormat::Rg8), 1, 1, &[7, 200]);
        assert_eq!(image.values[0], [7, 200, 0, 255]);
        let ints: Vec<u8> = [4_000_000_000u32, 1, 2, 3]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let image = target_image(target(TargetFormat::Rgba32ui), 1, 1, &ints);
        assert_eq!(image.values[0], [4_000_000_000, 1, 2, 3]);
    }
}
