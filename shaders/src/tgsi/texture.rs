//! TGSI texture targets and sampler-view return types (tgsi.rst "Texture
//! Sampling and Texture Formats"; `TGSI_TEXTURE_*`, `TGSI_RETURN_TYPE_*`): what a
//! CSIR sampler type ([`SamplerType`]) is declared and sampled as.
//!
//! The coordinate register of a TGSI lookup is laid out as CSIR's TEX operand `a`
//! already is (`sampler_type`): the target's coordinates, an array's layer last, then
//! the shadow reference in `z` (1D, 2D, rectangle and 1D-array shadows) or `w`
//! (cube and 2D-array shadows). A lookup that needs a bias or λ beside a reference in
//! `w` takes it from a second source (`TXB2`, `TXL2`).

use crate::sampler_type::{SampleKind, SamplerType, TexTarget};
use std::fmt;

/// A TGSI texture target (`TGSI_TEXTURE_*`), as TGSI text spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TgsiTarget {
    /// `BUFFER`: a texture buffer, fetched only.
    Buffer,
    /// `1D`.
    D1,
    /// `2D`.
    D2,
    /// `3D`.
    D3,
    /// `CUBE`.
    Cube,
    /// `RECT`: unnormalized coordinates.
    Rect,
    /// `SHADOW1D`: reference in `z`.
    Shadow1D,
    /// `SHADOW2D`: reference in `z`.
    Shadow2D,
    /// `SHADOWRECT`: reference in `z`.
    ShadowRect,
    /// `1D_ARRAY`: layer in `y`.
    D1Array,
    /// `2D_ARRAY`: layer in `z`.
    D2Array,
    /// `SHADOW1D_ARRAY`: layer in `y`, reference in `z`.
    Shadow1DArray,
    /// `SHADOW2D_ARRAY`: layer in `z`, reference in `w`.
    Shadow2DArray,
    /// `SHADOWCUBE`: reference in `w`.
    ShadowCube,
}

impl TgsiTarget {
    /// The target a sampler of type `ty` is declared and sampled with (a shadow
    /// sampler's is the `SHADOW` form of its target).
    pub const fn of(ty: SamplerType) -> TgsiTarget {
        let shadow = matches!(ty.kind, SampleKind::Shadow);
        match (ty.target, shadow) {
            (TexTarget::Buffer, _) => TgsiTarget::Buffer,
            (TexTarget::D1, false) => TgsiTarget::D1,
            (TexTarget::D1, true) => TgsiTarget::Shadow1D,
            (TexTarget::D2, false) => TgsiTarget::D2,
            (TexTarget::D2, true) => TgsiTarget::Shadow2D,
            (TexTarget::D3, _) => TgsiTarget::D3,
            (TexTarget::Cube, false) => TgsiTarget::Cube,
            (TexTarget::Cube, true) => TgsiTarget::ShadowCube,
            (TexTarget::Rect, false) => TgsiTarget::Rect,
            (TexTarget::Rect, true) => TgsiTarget::ShadowRect,
            (TexTarget::D1Array, false) => TgsiTarget::D1Array,
            (TexTarget::D1Array, true) => TgsiTarget::Shadow1DArray,
            (TexTarget::D2Array, false) => TgsiTarget::D2Array,
            (TexTarget::D2Array, true) => TgsiTarget::Shadow2DArray,
        }
    }

    /// The name in TGSI text (`tgsi_texture_names`).
    pub const fn name(self) -> &'static str {
        match self {
            TgsiTarget::Buffer => "BUFFER",
            TgsiTarget::D1 => "1D",
            TgsiTarget::D2 => "2D",
            TgsiTarget::D3 => "3D",
            TgsiTarget::Cube => "CUBE",
            TgsiTarget::Rect => "RECT",
            TgsiTarget::Shadow1D => "SHADOW1D",
            TgsiTarget::Shadow2D => "SHADOW2D",
            TgsiTarget::ShadowRect => "SHADOWRECT",
            TgsiTarget::D1Array => "1D_ARRAY",
            TgsiTarget::D2Array => "2D_ARRAY",
            TgsiTarget::Shadow1DArray => "SHADOW1D_ARRAY",
            TgsiTarget::Shadow2DArray => "SHADOW2D_ARRAY",
            TgsiTarget::ShadowCube => "SHADOWCUBE",
        }
    }

    /// Whether the shadow reference sits in `w` (`SHADOWCUBE`, `SHADOW2D_ARRAY`), so a
    /// bias or λ cannot share the coordinate register.
    pub const fn reference_in_w(self) -> bool {
        matches!(self, TgsiTarget::ShadowCube | TgsiTarget::Shadow2DArray)
    }
}

impl fmt::Display for TgsiTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A sampler view's return type (`TGSI_RETURN_TYPE_*`): what its lookups return,
/// which the host needs to declare `sampler*`, `isampler*` or `usampler*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReturnType {
    /// `FLOAT`: normalized, float and depth textures (and shadow comparisons).
    Float,
    /// `SINT`: signed integer textures (`isampler*`).
    Sint,
    /// `UINT`: unsigned integer textures (`usampler*`).
    Uint,
}

impl ReturnType {
    /// The return type of a sampler of kind `kind`.
    pub const fn of(kind: SampleKind) -> ReturnType {
        match kind {
            SampleKind::Int => ReturnType::Sint,
            SampleKind::Uint => ReturnType::Uint,
            SampleKind::Float | SampleKind::Shadow => ReturnType::Float,
        }
    }

    /// The name in TGSI text.
    pub const fn name(self) -> &'static str {
        match self {
            ReturnType::Float => "FLOAT",
            ReturnType::Sint => "SINT",
            ReturnType::Uint => "UINT",
        }
    }
}

/// How a texture instruction's sampler view is declared: `DCL SVIEW[n], TARGET, RET`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TgsiTexture {
    /// The texture target, also written after the instruction's operands.
    pub target: TgsiTarget,
    /// The view's return type.
    pub ret: ReturnType,
}

impl TgsiTexture {
    /// `sampler2D`'s: `2D`, `FLOAT` (the seed's only sampler).
    pub const SAMPLER_2D: TgsiTexture = TgsiTexture {
        target: TgsiTarget::D2,
        ret: ReturnType::Float,
    };

    /// The declaration of a sampler of type `ty`.
    pub const fn of(ty: SamplerType) -> TgsiTexture {
        TgsiTexture {
            target: TgsiTarget::of(ty),
            ret: ReturnType::of(ty.kind),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glsl_sampler_has_its_tgsi_target_and_return_type() {
        let cases = [
            ("sampler2D", "2D", "FLOAT"),
            ("sampler1D", "1D", "FLOAT"),
            ("sampler3D", "3D", "FLOAT"),
            ("samplerCube", "CUBE", "FLOAT"),
            ("sampler2DRect", "RECT", "FLOAT"),
            ("sampler1DArray", "1D_ARRAY", "FLOAT"),
            ("sampler2DArray", "2D_ARRAY", "FLOAT"),
            ("samplerBuffer", "BUFFER", "FLOAT"),
            ("sampler1DShadow", "SHADOW1D", "FLOAT"),
            ("sampler2DShadow", "SHADOW2D", "FLOAT"),
            ("sampler2DRectShadow", "SHADOWRECT", "FLOAT"),
            ("sampler1DArrayShadow", "SHADOW1D_ARRAY", "FLOAT"),
            ("sampler2DArrayShadow", "SHADOW2D_ARRAY", "FLOAT"),
            ("samplerCubeShadow", "SHADOWCUBE", "FLOAT"),
            ("isampler2DArray", "2D_ARRAY", "SINT"),
            ("usampler3D", "3D", "UINT"),
            ("isamplerBuffer", "BUFFER", "SINT"),
        ];
        for (keyword, target, ret) in cases {
            let ty = SamplerType::from_keyword(keyword).unwrap();
            let t = TgsiTexture::of(ty);
            assert_eq!((t.target.name(), t.ret.name()), (target, ret), "{keyword}");
        }
        // The reference shares `w` with a bias or λ only for cube and 2D-array shadows,
        // whose lookup (coordinates and reference) is 4 wide.
        for ty in SamplerType::all() {
            assert_eq!(
                TgsiTarget::of(ty).reference_in_w(),
                ty.kind == SampleKind::Shadow && ty.lookup_width() == 4,
                "{ty}"
            );
        }
    }
}
