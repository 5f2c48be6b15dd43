//! Sampler types, in one place: a sampler uniform's texture target and result kind
//! ([`SamplerType`], GLSL 3.30 §4.1.7), which its interface entry
//! ([`SymbolKind::Sampler`](crate::ir::SymbolKind::Sampler)) carries, and the operand
//! encoding of the extended profile's TEX instruction family ([`TexLookup`], `aux2`
//! of [`Op::Tex`](crate::ir::Op::Tex)). The front end, the verifier, CSI v2, the
//! interpreters and the renderer's texture bindings all read these definitions.
//!
//! `sampler2D` is [`SamplerType::SAMPLER_2D`], code 0, so a shader that only has
//! `sampler2D` uniforms keeps its interface and CSI bytes.

use std::fmt;

/// A texture target (GL 3.3 §3.8.1, `GL_TEXTURE_1D` … `GL_TEXTURE_BUFFER`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum TexTarget {
    /// `GL_TEXTURE_2D` (code 0).
    #[default]
    D2,
    /// `GL_TEXTURE_1D`.
    D1,
    /// `GL_TEXTURE_3D`.
    D3,
    /// `GL_TEXTURE_CUBE_MAP`.
    Cube,
    /// `GL_TEXTURE_1D_ARRAY`.
    D1Array,
    /// `GL_TEXTURE_2D_ARRAY`.
    D2Array,
    /// `GL_TEXTURE_RECTANGLE`: unnormalized coordinates, one level.
    Rect,
    /// `GL_TEXTURE_BUFFER`: a 1D array of texels, fetched only.
    Buffer,
}

impl TexTarget {
    /// Every target, in code order.
    pub const ALL: [TexTarget; 8] = [
        TexTarget::D2,
        TexTarget::D1,
        TexTarget::D3,
        TexTarget::Cube,
        TexTarget::D1Array,
        TexTarget::D2Array,
        TexTarget::Rect,
        TexTarget::Buffer,
    ];

    /// The scene-format name (`2d`, `1d`, `3d`, `cube`, `1d_array`, `2d_array`,
    /// `rectangle`, `buffer`).
    pub const fn name(self) -> &'static str {
        match self {
            TexTarget::D2 => "2d",
            TexTarget::D1 => "1d",
            TexTarget::D3 => "3d",
            TexTarget::Cube => "cube",
            TexTarget::D1Array => "1d_array",
            TexTarget::D2Array => "2d_array",
            TexTarget::Rect => "rectangle",
            TexTarget::Buffer => "buffer",
        }
    }

    /// The target named `name` ([`TexTarget::name`]).
    pub fn from_name(name: &str) -> Option<TexTarget> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The GLSL suffix of its sampler types (`1D`, `2D`, `3D`, `Cube`, `1DArray`,
    /// `2DArray`, `2DRect`, `Buffer`).
    pub const fn glsl(self) -> &'static str {
        match self {
            TexTarget::D2 => "2D",
            TexTarget::D1 => "1D",
            TexTarget::D3 => "3D",
            TexTarget::Cube => "Cube",
            TexTarget::D1Array => "1DArray",
            TexTarget::D2Array => "2DArray",
            TexTarget::Rect => "2DRect",
            TexTarget::Buffer => "Buffer",
        }
    }

    /// Texture coordinates a lookup takes, the array layer included (GLSL 3.30 §8.7:
    /// 1 for 1D and buffer, 2 for 2D, rectangle and 1D arrays, 3 for 3D, cube and 2D
    /// arrays).
    pub const fn coords(self) -> u8 {
        match self {
            TexTarget::D1 | TexTarget::Buffer => 1,
            TexTarget::D2 | TexTarget::Rect | TexTarget::D1Array => 2,
            TexTarget::D3 | TexTarget::Cube | TexTarget::D2Array => 3,
        }
    }

    /// Dimensions that are filtered and wrapped (the coordinates less an array's
    /// layer): 1, 2 or 3.
    pub const fn dims(self) -> u8 {
        match self {
            TexTarget::D1 | TexTarget::Buffer | TexTarget::D1Array => 1,
            TexTarget::D2 | TexTarget::Rect | TexTarget::D2Array | TexTarget::Cube => 2,
            TexTarget::D3 => 3,
        }
    }

    /// Whether the last coordinate is an array layer.
    pub const fn is_array(self) -> bool {
        matches!(self, TexTarget::D1Array | TexTarget::D2Array)
    }

    /// Whether the target has mip levels (rectangle and buffer textures have one).
    pub const fn has_mipmaps(self) -> bool {
        !matches!(self, TexTarget::Rect | TexTarget::Buffer)
    }

    /// Components of `textureSize`'s result (GLSL 3.30 §8.7: `int` for 1D and
    /// buffer, `ivec2` for 2D, rectangle, cube and 1D arrays, `ivec3` for 3D and 2D
    /// arrays).
    pub const fn size_components(self) -> u8 {
        match self {
            TexTarget::D1 | TexTarget::Buffer => 1,
            TexTarget::D2 | TexTarget::Rect | TexTarget::Cube | TexTarget::D1Array => 2,
            TexTarget::D3 | TexTarget::D2Array => 3,
        }
    }
}

/// What a sampler returns (GLSL 3.30 §4.1.7: `sampler*`, `isampler*`, `usampler*`,
/// `sampler*Shadow`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum SampleKind {
    /// `vec4` of a normalized or float texture (code 0).
    #[default]
    Float,
    /// `ivec4` of a signed integer texture, as `i32` patterns; never filtered.
    Int,
    /// `uvec4` of an unsigned integer texture, as `u32` patterns; never filtered.
    Uint,
    /// `float`: a depth texture compared with a reference (GL 3.3 §3.8.16,
    /// `GL_COMPARE_REF_TO_TEXTURE`).
    Shadow,
}

impl SampleKind {
    /// Every kind, in code order.
    pub const ALL: [SampleKind; 4] = [
        SampleKind::Float,
        SampleKind::Int,
        SampleKind::Uint,
        SampleKind::Shadow,
    ];
}

/// A sampler uniform's type: its target and kind. Packed as one byte, `target |
/// kind << 4` ([`SamplerType::code`]; 0 is `sampler2D`), in the high byte of the
/// slot field of a CSI v2 sampler symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SamplerType {
    /// The texture target the sampler reads.
    pub target: TexTarget,
    /// What it returns.
    pub kind: SampleKind,
}

impl SamplerType {
    /// `sampler2D`.
    pub const SAMPLER_2D: SamplerType = SamplerType {
        target: TexTarget::D2,
        kind: SampleKind::Float,
    };

    /// The byte code: target index | kind index << 4.
    pub const fn code(self) -> u8 {
        self.target as u8 | (self.kind as u8) << 4
    }

    /// The type of a byte code; `None` for a code no GLSL 3.30 sampler has (a
    /// shadow buffer or 3D sampler, bits 6..=7 set, a target past the last).
    pub fn from_code(code: u8) -> Option<SamplerType> {
        let target = *TexTarget::ALL.get(usize::from(code & 0x0f))?;
        let kind = *SampleKind::ALL.get(usize::from(code >> 4))?;
        let ty = SamplerType { target, kind };
        ty.exists().then_some(ty)
    }

    /// Whether GLSL 3.30 has this sampler type (no shadow 3D or buffer sampler).
    pub const fn exists(self) -> bool {
        !matches!(
            (self.kind, self.target),
            (SampleKind::Shadow, TexTarget::D3 | TexTarget::Buffer)
        )
    }

    /// Every GLSL 3.30 sampler type.
    pub fn all() -> impl Iterator<Item = SamplerType> {
        SampleKind::ALL.into_iter().flat_map(|kind| {
            TexTarget::ALL
                .into_iter()
                .map(move |target| SamplerType { target, kind })
                .filter(|t| t.exists())
        })
    }

    /// The GLSL type keyword (`sampler2D`, `isampler3D`, `samplerCubeShadow`, …).
    pub const fn keyword(self) -> &'static str {
        const NAMES: [[&str; 8]; 4] = [
            [
                "sampler2D",
                "sampler1D",
                "sampler3D",
                "samplerCube",
                "sampler1DArray",
                "sampler2DArray",
                "sampler2DRect",
                "samplerBuffer",
            ],
            [
                "isampler2D",
                "isampler1D",
                "isampler3D",
                "isamplerCube",
                "isampler1DArray",
                "isampler2DArray",
                "isampler2DRect",
                "isamplerBuffer",
            ],
            [
                "usampler2D",
                "usampler1D",
                "usampler3D",
                "usamplerCube",
                "usampler1DArray",
                "usampler2DArray",
                "usampler2DRect",
                "usamplerBuffer",
            ],
            [
                "sampler2DShadow",
                "sampler1DShadow",
                "sampler3DShadow",
                "samplerCubeShadow",
                "sampler1DArrayShadow",
                "sampler2DArrayShadow",
                "sampler2DRectShadow",
                "samplerBufferShadow",
            ],
        ];
        NAMES[self.kind as usize][self.target as usize]
    }

    /// The sampler type spelt `keyword`.
    pub fn from_keyword(keyword: &str) -> Option<SamplerType> {
        Self::all().find(|t| t.keyword() == keyword)
    }

    /// Coordinates of a lookup, the shadow reference included (at most 4: the
    /// reference follows the coordinates, GLSL 3.30 §8.7).
    pub const fn lookup_width(self) -> u8 {
        self.target.coords() + (self.kind as u8 == SampleKind::Shadow as u8) as u8
    }
}

impl fmt::Display for SamplerType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}

/// How a TEX instruction ([`Op::Tex`](crate::ir::Op::Tex)) finds its level of
/// detail, or which query it is: bits 0..=2 of `aux2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexMode {
    /// `texture`: the implicit λ (the quad's derivatives of `a`; 0 for a lone
    /// invocation).
    Implicit,
    /// `texture(…, bias)`: the implicit λ plus `b.x`.
    Bias,
    /// `textureLod`: λ = `b.x`.
    Lod,
    /// `textureGrad`: λ from the gradients `b = (dPdx.xy, dPdy.xy)` (targets of one or
    /// two filtered dimensions).
    Grad,
    /// `texelFetch`: the texel at the integer coordinates `a` (`i32` patterns) of level
    /// `b.x` (an `i32` pattern); for a buffer `b` is unread.
    Fetch,
    /// `textureSize`: `dst` ← the size of level `a.x` (an `i32` pattern), `i32`
    /// patterns, components past the target's size 0.
    Size,
    /// `textureGrad` on 3D and cube samplers (three coordinates per gradient): λ from
    /// `b.xyz = dPdx` and `dPdy` in `.xyz` of the temporary after `b` (operand `b`
    /// names two temporaries, [`TexMode::b_temps`]).
    Grad3,
}

impl TexMode {
    const ALL: [TexMode; 7] = [
        TexMode::Implicit,
        TexMode::Bias,
        TexMode::Lod,
        TexMode::Grad,
        TexMode::Fetch,
        TexMode::Size,
        TexMode::Grad3,
    ];

    /// Whether the mode reads `b`.
    pub const fn reads_b(self) -> bool {
        matches!(
            self,
            TexMode::Bias | TexMode::Lod | TexMode::Grad | TexMode::Fetch | TexMode::Grad3
        )
    }

    /// How many consecutive temporaries operand `b` names: 2 for [`TexMode::Grad3`]
    /// (`dPdx`, then `dPdy`), 1 otherwise.
    pub const fn b_temps(self) -> i16 {
        match self {
            TexMode::Grad3 => 2,
            _ => 1,
        }
    }
}

/// A TEX instruction's `aux2`: its [`TexMode`] in bits 0..=2 and its constant texel
/// offset, three 4-bit two's-complement values (-8..=7, GLSL 3.30 §8.7's
/// `MIN_PROGRAM_TEXEL_OFFSET..=MAX_PROGRAM_TEXEL_OFFSET`) for u, v and w in bits
/// 3..=6, 7..=10 and 11..=14.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TexLookup {
    /// Level of detail, or the query.
    pub mode: TexMode,
    /// Texel offset added to the integer coordinates before wrapping.
    pub offset: [i8; 3],
}

impl TexLookup {
    /// The `aux2` value (offsets outside -8..=7 are wrapped into it).
    pub fn encode(self) -> i16 {
        let mode = TexMode::ALL
            .iter()
            .position(|&m| m == self.mode)
            .unwrap_or(0) as u16;
        let o = self.offset.map(|o| (o as u16) & 0xf);
        (mode | o[0] << 3 | o[1] << 7 | o[2] << 11) as i16
    }

    /// Decode `aux2`; `None` for a mode code past the last or bit 15 set.
    pub fn decode(aux2: i16) -> Option<TexLookup> {
        let bits = aux2 as u16;
        if bits >> 15 != 0 {
            return None;
        }
        let mode = *TexMode::ALL.get(usize::from(bits & 7))?;
        let nibble = |shift: u16| ((((bits >> shift) & 0xf) as i8) << 4) >> 4;
        Some(TexLookup {
            mode,
            offset: [nibble(3), nibble(7), nibble(11)],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_keywords_round_trip() {
        assert_eq!(SamplerType::SAMPLER_2D.code(), 0);
        assert_eq!(SamplerType::all().count(), 30);
        for t in SamplerType::all() {
            assert_eq!(SamplerType::from_code(t.code()), Some(t));
            assert_eq!(SamplerType::from_keyword(t.keyword()), Some(t));
        }
        assert_eq!(
            SamplerType::from_keyword("usampler2DArray").map(|t| t.code()),
            Some(5 | 2 << 4)
        );
        assert_eq!(SamplerType::from_keyword("sampler3DShadow"), None);
        assert_eq!(SamplerType::from_code(8), None);
        assert_eq!(SamplerType::from_code(0x40), None);
        let cube_shadow = SamplerType::from_keyword("samplerCubeShadow").unwrap();
        assert_eq!(cube_shadow.lookup_width(), 4);
    }

    #[test]
    fn lookups_round_trip() {
        for mode in TexMode::ALL {
            for o in [[0, 0, 0], [-8, 7, -1], [3, -4, 5]] {
                let l = TexLookup { mode, offset: o };
                assert_eq!(TexLookup::decode(l.encode()), Some(l));
            }
        }
        assert_eq!(TexLookup::decode(7), None);
        assert_eq!(TexLookup::decode(-1), None);
    }
}
