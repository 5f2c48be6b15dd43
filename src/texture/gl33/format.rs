//! Internal formats of GL 3.3 textures (GL 3.3 §3.8.3, Table 3.12–3.13) as the scene
//! format names them, and how a texel of each is read: what a texel's four stored
//! values are, and how the border colour is converted to the format
//! (docs/csir.md "Texture targets").

pub use csir_raster::srgb_to_linear;

/// An internal format (`GL_RGBA8`, `GL_SRGB8_ALPHA8`, …).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TexFormat {
    /// `GL_RGBA8`, normalized 8-bit.
    #[default]
    Rgba8,
    /// `GL_SRGB8_ALPHA8`: 8-bit sRGB colour decoded to linear when sampled
    /// (GL 3.3 §3.8.15), linear alpha.
    Srgb8Alpha8,
    /// `GL_R8`: red only; green, blue 0 and alpha 1 when sampled.
    R8,
    /// `GL_RG8`.
    Rg8,
    /// `GL_RGBA16F`: half floats.
    Rgba16f,
    /// `GL_RGBA32F`.
    Rgba32f,
    /// `GL_R32F`.
    R32f,
    /// `GL_DEPTH_COMPONENT32F`: a depth `d`, sampled as `(d, 0, 0, 1)` or compared
    /// (GL 3.3 §3.8.16).
    Depth32f,
    /// `GL_RGBA8UI`: unsigned integers, sampled by `usampler*`.
    Rgba8ui,
    /// `GL_RGBA32I`: signed integers, sampled by `isampler*`.
    Rgba32i,
    /// `GL_RGBA32UI`.
    Rgba32ui,
}

/// What a format's texels hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatClass {
    /// Normalized or float values: filtered in f32.
    Float,
    /// Signed integers (`i32` patterns), never filtered.
    Int,
    /// Unsigned integers (`u32` patterns), never filtered.
    Uint,
    /// Depth values.
    Depth,
}

impl TexFormat {
    /// Every format with its scene-format name.
    pub const NAMES: [(&'static str, TexFormat); 11] = [
        ("rgba8", TexFormat::Rgba8),
        ("srgb8_alpha8", TexFormat::Srgb8Alpha8),
        ("r8", TexFormat::R8),
        ("rg8", TexFormat::Rg8),
        ("rgba16f", TexFormat::Rgba16f),
        ("rgba32f", TexFormat::Rgba32f),
        ("r32f", TexFormat::R32f),
        ("depth32f", TexFormat::Depth32f),
        ("rgba8ui", TexFormat::Rgba8ui),
        ("rgba32i", TexFormat::Rgba32i),
        ("rgba32ui", TexFormat::Rgba32ui),
    ];

    /// The scene-format name.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("rgba8", |(n, _)| n)
    }

    /// The class of its texels.
    pub const fn class(self) -> FormatClass {
        match self {
            TexFormat::Rgba8ui | TexFormat::Rgba32ui => FormatClass::Uint,
            TexFormat::Rgba32i => FormatClass::Int,
            TexFormat::Depth32f => FormatClass::Depth,
            _ => FormatClass::Float,
        }
    }

    /// Components stored per texel (what inline `data` gives per texel).
    pub const fn components(self) -> usize {
        match self {
            TexFormat::R8 | TexFormat::R32f | TexFormat::Depth32f => 1,
            TexFormat::Rg8 => 2,
            _ => 4,
        }
    }

    /// Whether the format's stored values are 8-bit normalized (inline data 0..=255).
    pub const fn is_unorm8(self) -> bool {
        matches!(
            self,
            TexFormat::Rgba8 | TexFormat::Srgb8Alpha8 | TexFormat::R8 | TexFormat::Rg8
        )
    }

    /// The sampled RGBA of a texel whose stored components are `c` (first
    /// [`components`](Self::components) used): unorm8 values `n` are `n / 255` (sRGB
    /// colour decoded to linear, GL 3.3 eq. 3.24), half floats rounded to f16, missing
    /// components 0 and alpha 1 (GL 3.3 Table 3.20); integers are their 32-bit
    /// patterns (`rgba8ui` clamped to 0..=255, the others wrapped to 32 bits).
    pub fn texel(self, c: [f64; 4]) -> [f32; 4] {
        let unorm = |v: f64| (v.clamp(0.0, 255.0).round() / 255.0) as f32;
        match self {
            TexFormat::Rgba8 => c.map(unorm),
            TexFormat::Srgb8Alpha8 => {
                let [r, g, b, a] = c.map(unorm);
                [srgb_to_linear(r), srgb_to_linear(g), srgb_to_linear(b), a]
            }
            TexFormat::R8 => [unorm(c[0]), 0.0, 0.0, 1.0],
            TexFormat::Rg8 => [unorm(c[0]), unorm(c[1]), 0.0, 1.0],
            TexFormat::Rgba16f => c.map(|v| half_round(v as f32)),
            TexFormat::Rgba32f => c.map(|v| v as f32),
            TexFormat::R32f => [c[0] as f32, 0.0, 0.0, 1.0],
            TexFormat::Depth32f => [c[0] as f32, 0.0, 0.0, 1.0],
            TexFormat::Rgba8ui => c.map(|v| f32::from_bits(v.clamp(0.0, 255.0) as u32)),
            TexFormat::Rgba32i => c.map(|v| f32::from_bits(v as i64 as i32 as u32)),
            TexFormat::Rgba32ui => c.map(|v| f32::from_bits(v as i64 as u32)),
        }
    }

    /// The value's bytes as a driver takes them (`glTexImage*` with
    /// [`upload`](Self::upload)'s format and type): the format's components, unorm8
    /// and `rgba8ui` as bytes (rounded, clamped), floats as f32, `rgba32i`/`rgba32ui` as
    /// 32-bit integers, little-endian.
    pub fn bytes(self, c: [f64; 4]) -> Vec<u8> {
        let n = self.components();
        let byte = |v: f64| v.clamp(0.0, 255.0).round() as u8;
        match self {
            f if f.is_unorm8() => c[..n].iter().map(|&v| byte(v)).collect(),
            TexFormat::Rgba8ui => c.iter().map(|&v| byte(v)).collect(),
            TexFormat::Rgba32i => c
                .iter()
                .flat_map(|&v| (v as i64 as i32).to_le_bytes())
                .collect(),
            TexFormat::Rgba32ui => c
                .iter()
                .flat_map(|&v| (v as i64 as u32).to_le_bytes())
                .collect(),
            _ => c[..n]
                .iter()
                .flat_map(|&v| (v as f32).to_le_bytes())
                .collect(),
        }
    }

    /// `(internal format, format, type)` of `glTexImage*` for this format.
    pub const fn upload(self) -> (u32, u32, u32) {
        const UB: u32 = 0x1401; // GL_UNSIGNED_BYTE
        const FLOAT: u32 = 0x1406;
        const INT: u32 = 0x1404;
        const UINT: u32 = 0x1405;
        const RGBA: u32 = 0x1908;
        const RED: u32 = 0x1903;
        const RG: u32 = 0x8227;
        const RGBA_INTEGER: u32 = 0x8D99;
        match self {
            TexFormat::Rgba8 => (0x8058, RGBA, UB),
            TexFormat::Srgb8Alpha8 => (0x8C43, RGBA, UB),
            TexFormat::R8 => (0x8229, RED, UB),
            TexFormat::Rg8 => (0x822B, RG, UB),
            TexFormat::Rgba16f => (0x881A, RGBA, FLOAT),
            TexFormat::Rgba32f => (0x8814, RGBA, FLOAT),
            TexFormat::R32f => (0x822E, RED, FLOAT),
            TexFormat::Depth32f => (0x8CAC, 0x1902, FLOAT),
            TexFormat::Rgba8ui => (0x8D7C, RGBA_INTEGER, UB),
            TexFormat::Rgba32i => (0x8D82, RGBA_INTEGER, INT),
            TexFormat::Rgba32ui => (0x8D70, RGBA_INTEGER, UINT),
        }
    }

    /// The border colour `border` (`TEXTURE_BORDER_COLOR`, RGBA floats) as a texel of
    /// this format, as llvmpipe applies it: clamped to [0, 1] for normalized formats
    /// (not decoded for sRGB), missing components 0 and alpha 1, integers truncated;
    /// a depth format reads the red component as its depth.
    pub fn border(self, border: [f32; 4]) -> [f32; 4] {
        let b = border.map(f64::from);
        match self {
            TexFormat::Srgb8Alpha8 => border.map(|v| v.clamp(0.0, 1.0)),
            f if f.is_unorm8() => f.texel(b.map(|v| v * 255.0)),
            f => f.texel(b),
        }
    }
}

/// `v` rounded to the nearest half float (ties to even), overflow to ±∞, through
/// the `half` crate (the render targets' conversion too); a NaN passes unchanged.
pub fn half_round(v: f32) -> f32 {
    if v.is_nan() {
        return v;
    }
    half::f16::from_f32(v).to_f32()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texels_and_borders_follow_the_format() {
        assert_eq!(
            TexFormat::R8.texel([255.0, 9.0, 9.0, 9.0]),
            [1.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(
            TexFormat::R8.border([0.5, 0.25, 0.75, 0.0]),
            [128.0 / 255.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(
            TexFormat::Rgba32f.border([2.0, -1.0, 0.5, 3.0]),
            [2.0, -1.0, 0.5, 3.0]
        );
        assert_eq!(TexFormat::Rgba8.border([2.0, -1.0, 0.5, 1.0])[0], 1.0);
        assert_eq!(half_round(1.0 + 1.0 / 4096.0), 1.0);
        assert_eq!(half_round(1.0 + 3.0 / 2048.0), 1.0 + 2.0 / 1024.0);
        assert_eq!(half_round(70000.0), f32::INFINITY);
        assert!((srgb_to_linear(0.5) - 0.214_041_14).abs() < 1e-6);
        let i = TexFormat::Rgba32i.texel([-3.0, 7.0, 0.0, 1.0]);
        assert_eq!(i[0].to_bits() as i32, -3);
    }
}
