//! Colour target formats besides RGBA8: what a fragment's value becomes when it is
//! written to a target of each format (GL 3.3 §4.1.8 "Blending" and "sRGB
//! Conversion", §4.2.1, §2.1.1 for the float conversions), and how it blends there.
//!
//! A [`Framebuffer`](crate::Framebuffer) holds one colour target. Three ways to store it:
//!
//! - **RGBA8 bytes** (the fast path, `blend.rs`, untouched): `rgba8`, and
//!   `srgb8_alpha8` without `GL_FRAMEBUFFER_SRGB` (then GL neither encodes nor
//!   decodes: it is a UNORM8 buffer). `r8` and `rg8` too: they are RGBA8 whose
//!   missing channels hold GL's read-back values (0 for G and B, 1 for A) and are
//!   never written ([`ColorTarget::channel_bits`] joins the colour mask), so blending
//!   reads a destination alpha of 1 as GL defines for a format without alpha.
//! - **Wide** (`[u32; 4]` per pixel, [`ColorTarget::is_wide`]): the float and integer
//!   formats, and `srgb8_alpha8` with `GL_FRAMEBUFFER_SRGB`. Each write goes through
//!   [`ColorTarget::write`]: one branch per batch in the rasterizer (`rasterize.rs`
//!   `resolve`), so the RGBA8 loops are as they were.
//!
//! Stored words, per format: `rgba16f` the half-float bits, `rgba32f`/`r32f` the
//! `f32` bits, the integer formats the integer (bit pattern for `rgba32i`), sRGB the
//! encoded byte. Channels a format lacks read back as (0, 0, 1) for G, B, A
//! (`glReadPixels` with `GL_RGBA`, GL 3.3 §4.3.2 Table 3.? "conversion from RGBA"),
//! which [`ColorTarget::read`] gives.

use crate::blend::to_unorm8;
use crate::blend_func::{BlendEquation, BlendFactor, BlendFunction};
use crate::state::BlendMode;

/// A colour target's internal format (GL 3.3 §3.8.1 Table 3.12 names), as the scene
/// format spells it (`docs/scene-format.md` "Render targets").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TargetFormat {
    /// `GL_RGBA8`, 8-bit unsigned normalized.
    #[default]
    Rgba8,
    /// `GL_SRGB8_ALPHA8`: sRGB-encoded RGB, linear alpha.
    Srgb8Alpha8,
    /// `GL_R8`.
    R8,
    /// `GL_RG8`.
    Rg8,
    /// `GL_RGBA16F`, half floats.
    Rgba16f,
    /// `GL_RGBA32F`.
    Rgba32f,
    /// `GL_R32F`.
    R32f,
    /// `GL_RGBA8UI`, unsigned 8-bit integers.
    Rgba8ui,
    /// `GL_RGBA32UI`.
    Rgba32ui,
    /// `GL_RGBA32I`.
    Rgba32i,
}

/// How a format's values are written and read: GL's classes of colour buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TargetClass {
    /// Fixed point (unsigned normalized): a float output, clamped to [0, 1].
    Unorm,
    /// Floating point: a float output, unclamped.
    Float,
    /// Unsigned integer: an unsigned integer output, no blending.
    Uint,
    /// Signed integer: a signed integer output, no blending.
    Int,
}

impl TargetFormat {
    /// Every format with its scene-format name (GL's `GL_` name in lower case
    /// without the prefix).
    pub const NAMES: [(&'static str, TargetFormat); 10] = [
        ("rgba8", TargetFormat::Rgba8),
        ("srgb8_alpha8", TargetFormat::Srgb8Alpha8),
        ("r8", TargetFormat::R8),
        ("rg8", TargetFormat::Rg8),
        ("rgba16f", TargetFormat::Rgba16f),
        ("rgba32f", TargetFormat::Rgba32f),
        ("r32f", TargetFormat::R32f),
        ("rgba8ui", TargetFormat::Rgba8ui),
        ("rgba32ui", TargetFormat::Rgba32ui),
        ("rgba32i", TargetFormat::Rgba32i),
    ];

    /// The scene format's name of this format.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, f)| *f == self)
            .map(|(n, _)| *n)
            .expect("NAMES lists every format")
    }

    /// The format named `name`, if any.
    pub fn from_name(name: &str) -> Option<TargetFormat> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f)
    }

    /// Channels the format stores: 1 (`r8`, `r32f`), 2 (`rg8`) or 4.
    pub fn components(self) -> usize {
        match self {
            TargetFormat::R8 | TargetFormat::R32f => 1,
            TargetFormat::Rg8 => 2,
            _ => 4,
        }
    }

    /// The format's class.
    pub fn class(self) -> TargetClass {
        match self {
            TargetFormat::Rgba8
            | TargetFormat::Srgb8Alpha8
            | TargetFormat::R8
            | TargetFormat::Rg8 => TargetClass::Unorm,
            TargetFormat::Rgba16f | TargetFormat::Rgba32f | TargetFormat::R32f => {
                TargetClass::Float
            }
            TargetFormat::Rgba8ui | TargetFormat::Rgba32ui => TargetClass::Uint,
            TargetFormat::Rgba32i => TargetClass::Int,
        }
    }

    /// Whether the format holds integers (`*ui`, `*i`), which take integer outputs
    /// and are never blended (GL 3.3 §4.1.8).
    pub fn is_integer(self) -> bool {
        matches!(self.class(), TargetClass::Uint | TargetClass::Int)
    }
}

/// One colour target: its format, and whether `GL_FRAMEBUFFER_SRGB` is enabled (it
/// acts on `srgb8_alpha8` targets only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ColorTarget {
    /// The internal format.
    pub format: TargetFormat,
    /// `glEnable(GL_FRAMEBUFFER_SRGB)`: writes to an sRGB target are encoded, and
    /// blending there decodes the destination first (GL 3.3 §4.1.8).
    pub framebuffer_srgb: bool,
}

/// Channels (0..4) that exist in a format: bit `c`.
fn present(format: TargetFormat) -> [bool; 4] {
    std::array::from_fn(|c| c < format.components())
}

impl ColorTarget {
    /// The plain RGBA8 target every scene without `targets` draws into.
    pub const RGBA8: ColorTarget = ColorTarget {
        format: TargetFormat::Rgba8,
        framebuffer_srgb: false,
    };

    /// Whether the target is stored as `[u32; 4]` per pixel and written through
    /// [`ColorTarget::write`] (else as RGBA8 bytes on the fast path).
    pub fn is_wide(self) -> bool {
        match self.format {
            TargetFormat::Rgba8 | TargetFormat::R8 | TargetFormat::Rg8 => false,
            TargetFormat::Srgb8Alpha8 => self.framebuffer_srgb,
            _ => true,
        }
    }

    /// The bytes of an RGBA8-stored pixel (packed as `u32::from_le_bytes`) that the
    /// format has: every byte but for `r8` (R) and `rg8` (R, G).
    pub fn channel_bits(self) -> u32 {
        match self.format {
            TargetFormat::R8 => 0x0000_00ff,
            TargetFormat::Rg8 => 0x0000_ffff,
            _ => u32::MAX,
        }
    }

    /// The stored value of a clear to `color` (RGBA floats; for an integer format
    /// each value's integer part, as `glClearBufferuiv`/`iv` take integers): the
    /// missing channels of a format hold (0, 0, 1).
    pub fn clear_value(self, color: [f64; 4]) -> [u32; 4] {
        match self.format.class() {
            TargetClass::Uint | TargetClass::Int => {
                let ints = color.map(|c| c as i64 as u32);
                self.write(BlendMode::Replace, ints.map(f32::from_bits), [0; 4])
            }
            _ => {
                let floats = color.map(|c| c as f32);
                self.write(BlendMode::Replace, floats, [0; 4])
            }
        }
    }

    /// The RGBA8 bytes of a clear to `color` on an RGBA8-stored target (not wide).
    pub fn clear_rgba8(self, color: [f32; 4]) -> [u8; 4] {
        let bytes = color.map(to_unorm8);
        let keep = present(self.format);
        let missing = [0, 0, 0, 255];
        std::array::from_fn(|c| if keep[c] { bytes[c] } else { missing[c] })
    }

    /// The stored words after a fragment whose output is `src` (4 lanes of 32 bits:
    /// floats, or integer patterns for an integer format) is written over `stored`
    /// with `mode` (ignored for an integer format). Not for RGBA8-stored targets.
    ///
    /// Conversions (GL 3.3 §2.1.1, §4.1.8):
    /// - `srgb8_alpha8` with `GL_FRAMEBUFFER_SRGB`: clamp to [0, 1]; blending decodes
    ///   the stored RGB to linear ([`srgb_decode`]) and works in float; the result's
    ///   RGB is encoded ([`srgb_encode`]), its alpha stored as unorm8.
    /// - float formats: no clamping; blending in `f32`; `rgba16f` rounds to the
    ///   nearest half float (ties to even, overflow to infinity).
    /// - `rgba8ui` clamps to 0..=255 (llvmpipe clamps integer writes to the format's
    ///   range; GL leaves values that do not fit undefined); `rgba32ui`/`rgba32i`
    ///   store the 32-bit value as it is.
    pub fn write(self, mode: BlendMode, src: [f32; 4], stored: [u32; 4]) -> [u32; 4] {
        self.write_dual(mode, [src, [0.0; 4]], stored)
    }

    /// [`ColorTarget::write`] with the second source colour of dual-source blending:
    /// `sources` is the fragment's colour and its `layout(location = 0, index = 1)`
    /// output, which the `src1_*` factors read (GL 3.3 §4.1.8; clamped to [0, 1]
    /// with the colour for a unorm target).
    pub fn write_dual(self, mode: BlendMode, sources: [[f32; 4]; 2], stored: [u32; 4]) -> [u32; 4] {
        let [src, src1] = sources;
        let keep = present(self.format);
        let result: [u32; 4] = match self.format.class() {
            TargetClass::Uint | TargetClass::Int => {
                let bits = src.map(f32::to_bits);
                match self.format {
                    TargetFormat::Rgba8ui => bits.map(|v| v.min(255)),
                    _ => bits,
                }
            }
            TargetClass::Unorm => {
                let clamp =
                    |v: [f32; 4]| v.map(|c| if c.is_nan() { 0.0 } else { c.clamp(0.0, 1.0) });
                let src = clamp(src);
                let linear = if mode == BlendMode::Replace {
                    src
                } else {
                    let dst = self.read_f32(stored);
                    blend_f32_dual(mode, [src, clamp(src1)], dst).map(|c| c.clamp(0.0, 1.0))
                };
                let srgb = self.format == TargetFormat::Srgb8Alpha8 && self.framebuffer_srgb;
                std::array::from_fn(|c| {
                    if srgb && c < 3 {
                        u32::from(srgb_encode(linear[c]))
                    } else {
                        u32::from(to_unorm8(linear[c]))
                    }
                })
            }
            TargetClass::Float => {
                let value = if mode == BlendMode::Replace {
                    src
                } else {
                    blend_f32_dual(mode, [src, src1], self.read_f32(stored))
                };
                match self.format {
                    TargetFormat::Rgba16f => {
                        value.map(|c| u32::from(half::f16::from_f32(c).to_bits()))
                    }
                    _ => value.map(f32::to_bits),
                }
            }
        };
        let missing = self.missing_words();
        std::array::from_fn(|c| if keep[c] { result[c] } else { missing[c] })
    }

    /// The words a format's missing channels hold: 0, 0 and 1 for G, B, A.
    fn missing_words(self) -> [u32; 4] {
        match self.format.class() {
            TargetClass::Float => [0, 0, 0, 1.0f32.to_bits()],
            TargetClass::Unorm => [0, 0, 0, 255],
            _ => [0, 0, 0, 1],
        }
    }

    /// Stored words as the float values blending reads (GL 3.3 §4.1.8: the
    /// destination of an sRGB target with `GL_FRAMEBUFFER_SRGB` decoded to linear).
    fn read_f32(self, stored: [u32; 4]) -> [f32; 4] {
        match self.format {
            TargetFormat::Rgba16f => stored.map(|w| half::f16::from_bits(w as u16).to_f32()),
            TargetFormat::Rgba32f | TargetFormat::R32f => stored.map(f32::from_bits),
            TargetFormat::Srgb8Alpha8 if self.framebuffer_srgb => std::array::from_fn(|c| {
                if c < 3 {
                    srgb_decode(stored[c] as u8)
                } else {
                    f32::from(stored[c] as u8) / 255.0
                }
            }),
            _ => stored.map(|w| (w & 0xff) as f32 / 255.0),
        }
    }

    /// A pixel's stored words as `glReadPixels` returns them for the format's class:
    /// unorm formats (also RGBA8-stored ones, whose bytes the caller passes as
    /// words) their bytes; float formats `f32` bits (a half float widened exactly);
    /// integer formats the integers. Missing channels read (0, 0, 1).
    pub fn read(self, stored: [u32; 4]) -> [u32; 4] {
        match self.format {
            TargetFormat::Rgba16f => {
                stored.map(|w| half::f16::from_bits(w as u16).to_f32().to_bits())
            }
            _ => stored,
        }
    }
}

/// GL's sRGB decode of an 8-bit value to linear: [`srgb_to_linear`] of `v / 255`.
pub fn srgb_decode(v: u8) -> f32 {
    srgb_to_linear(f32::from(v) / 255.0)
}

/// GL's sRGB to linear conversion in f32 (GL 3.3 §3.8.15 eq. 3.24): `c / 12.92` for
/// `c ≤ 0.04045`, else `((c + 0.055) / 1.055)^2.4`. Texture sampling and sRGB render
/// targets both use it.
pub fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.040_45 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// GL's sRGB encode of a linear value in [0, 1] to 8 bits (GL 3.3 §4.1.8 "sRGB
/// Conversion"): `12.92·l` for `l < 0.0031308`, else `1.055·l^(1/2.4) − 0.055`, then
/// stored as unorm8 (`round(c · 255)`). 0.5 encodes to 188 (0.7354 · 255 = 187.5…).
pub fn srgb_encode(l: f32) -> u8 {
    let l = if l.is_nan() { 0.0 } else { l.clamp(0.0, 1.0) };
    let c = if l < 0.003_130_8 {
        12.92 * l
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    };
    to_unorm8(c)
}

/// Blends `src` over `dst` in `f32` (GL 3.3 §4.1.8 for a floating-point buffer, and
/// for an sRGB one after the decode): the named modes and the general function,
/// with the blend colour's unorm8 bytes as values in [0, 1].
pub fn blend_f32(mode: BlendMode, src: [f32; 4], dst: [f32; 4]) -> [f32; 4] {
    blend_f32_dual(mode, [src, [0.0; 4]], dst)
}

/// [`blend_f32`] with the second source colour of dual-source blending: `sources`
/// is the colour and the `src1_*` factors' colour (GL 3.3 §4.1.8).
pub fn blend_f32_dual(mode: BlendMode, sources: [[f32; 4]; 2], dst: [f32; 4]) -> [f32; 4] {
    let [src, src1] = sources;
    let function = match mode {
        BlendMode::Replace => return src,
        BlendMode::Alpha => {
            BlendFunction::add(BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha)
        }
        BlendMode::Additive => BlendFunction::add(BlendFactor::One, BlendFactor::One),
        BlendMode::Function(f) => f,
    };
    let constant = function.color.map(|c| f32::from(c) / 255.0);
    std::array::from_fn(|ch| {
        let (sf, df, equation) = if ch == 3 {
            (
                function.src_alpha,
                function.dst_alpha,
                function.equation_alpha,
            )
        } else {
            (function.src_rgb, function.dst_rgb, function.equation_rgb)
        };
        let colours = [src, src1, dst, constant];
        let s = src[ch] * factor_f32(sf, ch, colours);
        let d = dst[ch] * factor_f32(df, ch, colours);
        match equation {
            BlendEquation::Add => s + d,
            BlendEquation::Subtract => s - d,
            BlendEquation::ReverseSubtract => d - s,
            BlendEquation::Min => src[ch].min(dst[ch]),
            BlendEquation::Max => src[ch].max(dst[ch]),
        }
    })
}

/// A blend factor's value for channel `ch` (GL 3.3 §4.1.8 Table 4.2), in `f32`, of
/// the source, second source, destination and constant colours.
fn factor_f32(f: BlendFactor, ch: usize, [s, s1, d, c]: [[f32; 4]; 4]) -> f32 {
    match f {
        BlendFactor::Zero => 0.0,
        BlendFactor::One => 1.0,
        BlendFactor::SrcColor => s[ch],
        BlendFactor::OneMinusSrcColor => 1.0 - s[ch],
        BlendFactor::DstColor => d[ch],
        BlendFactor::OneMinusDstColor => 1.0 - d[ch],
        BlendFactor::SrcAlpha => s[3],
        BlendFactor::OneMinusSrcAlpha => 1.0 - s[3],
        BlendFactor::DstAlpha => d[3],
        BlendFactor::OneMinusDstAlpha => 1.0 - d[3],
        BlendFactor::ConstantColor => c[ch],
        BlendFactor::OneMinusConstantColor => 1.0 - c[ch],
        BlendFactor::ConstantAlpha => c[3],
        BlendFactor::OneMinusConstantAlpha => 1.0 - c[3],
        BlendFactor::SrcAlphaSaturate if ch == 3 => 1.0,
        BlendFactor::SrcAlphaSaturate => s[3].min(1.0 - d[3]),
        BlendFactor::Src1Color => s1[ch],
        BlendFactor::OneMinusSrc1Color => 1.0 - s1[ch],
        BlendFactor::Src1Alpha => s1[3],
        BlendFactor::OneMinusSrc1Alpha => 1.0 - s1[3],
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
    fn unorm_and_srgb_conversions() {
        assert_eq!(srgb_encode(0.5), 188);
        assert_eq!(srgb_encode(0.0), 0);
        assert_eq!(srgb_encode(1.0), 255);
        // 0.002 is on the linear segment: 12.92 · 0.002 · 255 = 6.59 → 7.
        assert_eq!(srgb_encode(0.002), 7);
        // 188 / 255 = 0.737; ((0.737 + 0.055) / 1.055)^2.4 = 0.5029.
        assert!((srgb_decode(188) - 0.502_886).abs() < 1e-5);
        for v in 0..=255u8 {
            assert_eq!(srgb_encode(srgb_decode(v)), v, "sRGB round trip of {v}");
        }
        let srgb = ColorTarget {
            format: TargetFormat::Srgb8Alpha8,
            framebuffer_srgb: true,
        };
        assert!(srgb.is_wide());
        assert!(
            !ColorTarget {
                framebuffer_srgb: false,
                ..srgb
            }
            .is_wide()
        );
        assert_eq!(
            srgb.write(BlendMode::Replace, [0.5, 0.0, 2.0, 0.5], [0; 4]),
            [188, 0, 255, 128]
        );
        // Blending in linear: 0.5 · 1 + 0.5 · decode(0) = 0.5 → 188, not the
        // (255 + 0) / 2 = 128 of blending the encoded bytes.
        let white_half = [1.0, 1.0, 1.0, 0.5];
        assert_eq!(
            srgb.write(BlendMode::Alpha, white_half, [0, 0, 0, 255]),
            [188, 188, 188, 191]
        );
        assert_eq!(
            target(TargetFormat::R8).clear_rgba8([0.5, 0.7, 0.2, 0.3]),
            [128, 0, 0, 255]
        );
        assert_eq!(target(TargetFormat::Rg8).channel_bits(), 0xffff);
    }

    #[test]
    fn float_and_integer_conversions() {
        let half = target(TargetFormat::Rgba16f);
        // 1 + 1/4096 is half way between 1 and 1 + 1/1024's neighbour below: ties to
        // even give 1.0 (0x3c00); 1 + 3/2048 rounds up to 1 + 2/1024 (0x3c02).
        let w = half.write(
            BlendMode::Replace,
            [1.0 + 1.0 / 4096.0, 1.0 + 3.0 / 2048.0, 70000.0, -2.5],
            [0; 4],
        );
        assert_eq!(w, [0x3c00, 0x3c02, 0x7c00, 0xc100]);
        assert_eq!(
            half.read(w).map(f32::from_bits),
            [1.0, 1.0 + 2.0 / 1024.0, f32::INFINITY, -2.5]
        );
        let r32 = target(TargetFormat::R32f);
        let w = r32.write(BlendMode::Replace, [3.25, 9.0, 9.0, 9.0], [0; 4]);
        assert_eq!(w.map(f32::from_bits), [3.25, 0.0, 0.0, 1.0]);
        // Float blending is not clamped: 2.0 + 1.5 = 3.5.
        let full = target(TargetFormat::Rgba32f);
        let stored = [1.5f32, 0.0, 0.0, 1.0].map(f32::to_bits);
        let w = full.write(BlendMode::Additive, [2.0, -1.0, 0.0, 0.0], stored);
        assert_eq!(w.map(f32::from_bits), [3.5, -1.0, 0.0, 1.0]);
        let ui8 = target(TargetFormat::Rgba8ui);
        let src = [7u32, 300, 0, 255].map(f32::from_bits);
        assert_eq!(ui8.write(BlendMode::Replace, src, [0; 4]), [7, 255, 0, 255]);
        let i32t = target(TargetFormat::Rgba32i);
        let src = [(-5i32) as u32, 1 << 31, 0, 1].map(f32::from_bits);
        assert_eq!(
            i32t.write(BlendMode::Replace, src, [0; 4]),
            [(-5i32) as u32, 1 << 31, 0, 1]
        );
        assert_eq!(
            i32t.clear_value([-3.0, 2.0, 0.0, 1.0]),
            [(-3i32) as u32, 2, 0, 1]
        );
        assert_eq!(
            TargetFormat::from_name("rgba32ui"),
            Some(TargetFormat::Rgba32ui)
        );
        assert!(TargetFormat::Rgba32i.is_integer() && !TargetFormat::R32f.is_integer());
    }

    /// A whole-framebuffer quad of one colour drawn into each kind of target.
    mod draws {
        use crate::*;

        struct Quad;
        impl VertexStage for Quad {
            type Scratch = ();
            fn new_scratch(&self) {}
            fn varying_count(&self) -> usize {
                0
            }
            fn shade_vertex(&self, _: &mut (), i: u32, p: &mut [f32; 4], _: &mut [f32]) {
                let corners = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
                let [x, y] = corners[[0, 1, 2, 0, 2, 3][i as usize]];
                *p = [x, y, 0.0, 1.0];
            }
        }

        struct Constant([f32; 4]);
        impl FragmentStage for Constant {
            type Scratch = ();
            fn new_scratch(&self) {}
            fn may_discard(&self) -> bool {
                false
            }
            fn shade(
                &self,
                _: &mut (),
                _: &Triangle<'_>,
                b: &FragmentBatch,
                out: &mut FragmentOutput,
            ) {
                for c in 0..4 {
                    out.color[c][..b.len].fill(self.0[c]);
                }
            }
        }

        fn draw(
            target: ColorTarget,
            clear: [f64; 4],
            color: [f32; 4],
            blend: BlendMode,
        ) -> [u32; 4] {
            let mut fb = Framebuffer::with_target(70, 9, target).unwrap();
            fb.clear_target(clear, 1.0);
            let state = RasterState {
                depth_test: DepthTest::Disabled,
                blend,
                ..Default::default()
            };
            let call = DrawCall {
                vertex_stage: &Quad,
                fragment_stage: &Constant(color),
                vertex_count: 6,
                indices: None,
                state,
                topology: Default::default(),
            };
            Renderer::new().draw(&mut fb, &call).unwrap();
            let values = fb.target_values_top_down();
            assert!(
                values.iter().all(|v| *v == values[0]),
                "one value everywhere"
            );
            values[0]
        }

        #[test]
        fn each_kind_of_target_stores_its_conversion() {
            let of = |format, srgb| ColorTarget {
                format,
                framebuffer_srgb: srgb,
            };
            let c = [0.5, 0.25, 2.0, 0.5];
            let add = BlendMode::Additive;
            let r8 = draw(of(TargetFormat::R8, false), [0.1, 0.9, 0.9, 0.0], c, add);
            assert_eq!(
                r8,
                [26 + 128, 0, 0, 255],
                "r8 blends R only; G, B, A read 0, 0, 1"
            );
            let f16 = draw(of(TargetFormat::Rgba16f, false), [0.25; 4], c, add);
            assert_eq!(f16.map(f32::from_bits), [0.75, 0.5, 2.25, 0.75]);
            let srgb = draw(
                of(TargetFormat::Srgb8Alpha8, true),
                [0.0, 0.0, 0.0, 1.0],
                c,
                BlendMode::Replace,
            );
            assert_eq!(srgb, [188, 137, 255, 128]);
            let plain = draw(
                of(TargetFormat::Srgb8Alpha8, false),
                [0.0, 0.0, 0.0, 1.0],
                c,
                BlendMode::Replace,
            );
            assert_eq!(
                plain,
                [128, 64, 255, 128],
                "without GL_FRAMEBUFFER_SRGB: unorm8"
            );
            let ints = [4_000_000_000u32, 5, 0, 1].map(f32::from_bits);
            let ui = draw(
                of(TargetFormat::Rgba32ui, false),
                [0.0; 4],
                ints,
                BlendMode::Replace,
            );
            assert_eq!(ui, [4_000_000_000, 5, 0, 1]);
        }
    }
}
