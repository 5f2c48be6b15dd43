//! TGSI instructions as the emitter produces them: an opcode, an optional destination
//! and the sources, printed as `MNEMONIC dst, src0, src1, ...` (docs/tgsi-text.md §1
//! "Instructions").

use super::operand::{Dst, Src};
use super::texture::TgsiTexture;
use std::fmt;

/// The TGSI opcodes the emitter uses. Every one is in virglrenderer's opcode table;
/// `SUB` and `ABS` are deliberately absent (Mesa's current TGSI removed them, so the
/// emitter writes `ADD d, a, -b` and `MOV d, |a|`), and so is `TEX_LZ`, which
/// virglrenderer does not know (docs/tgsi-text.md §1 "Opcodes that come and go").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opcode {
    /// Per lane `src`.
    Mov,
    /// Per lane `src0 + src1`.
    Add,
    /// Per lane `src0 * src1`.
    Mul,
    /// `src0 * src1 + src2`.
    Mad,
    /// Per lane `min(src0, src1)`.
    Min,
    /// Per lane `max(src0, src1)`.
    Max,
    /// `src0.x·src1.x + src0.y·src1.y`, replicated.
    Dp2,
    /// The dot product of x, y, z, replicated.
    Dp3,
    /// The dot product of x, y, z, w, replicated.
    Dp4,
    /// `1 / src.x`, replicated.
    Rcp,
    /// `1 / sqrt(src.x)`, replicated.
    Rsq,
    /// `sin(src.x)`, replicated.
    Sin,
    /// `cos(src.x)`, replicated.
    Cos,
    /// `src0.x ^ src1.x`, replicated.
    Pow,
    /// Per lane, rounded toward zero.
    Trunc,
    /// Per lane `src0 < src1 ? 1.0 : 0.0`.
    Slt,
    /// Per lane `src0 >= src1 ? 1.0 : 0.0`.
    Sge,
    /// Per lane `src0 == src1 ? 1.0 : 0.0`.
    Seq,
    /// Per lane `src0 != src1 ? 1.0 : 0.0` (true for NaN).
    Sne,
    /// Per lane `src0 < 0 ? src1 : src2`, a selection (virglrenderer: GLSL `mix` with
    /// a `bvec4`). Emitted only with a `src0` that cannot be NaN, where the spec and
    /// virglrenderer disagree.
    Cmp,
    /// `TEX dst, coord, SAMP[n], 2D`.
    Tex,
    /// Unconditional discard.
    Kill,
    /// Structured conditional on `src.x != 0.0`.
    If,
    /// The other branch of the innermost open `IF`.
    Else,
    /// Closes the innermost open `IF`.
    EndIf,
    /// The last instruction of every shader.
    End,
    // The integer and bit instructions of the extended profile, per lane
    // on 32-bit patterns; the comparisons give ~0 for true, which the emitter turns
    // into CSIR's 1.0 with an AND.
    /// Per lane `src0 + src1`, wrapping (signed or unsigned alike).
    UAdd,
    /// Per lane `src0 * src1`, the low 32 bits (signed or unsigned alike).
    UMul,
    /// Per lane signed division, rounded toward zero.
    IDiv,
    /// Per lane unsigned division.
    UDiv,
    /// Per lane signed remainder (sign of the dividend).
    Mod,
    /// Per lane unsigned remainder.
    UMod,
    /// Per lane `src0 << (src1 & 31)`.
    Shl,
    /// Per lane arithmetic (sign-filling) `src0 >> (src1 & 31)`.
    IShr,
    /// Per lane logical (zero-filling) `src0 >> (src1 & 31)`.
    UShr,
    /// Per lane bitwise and.
    And,
    /// Per lane bitwise or.
    Or,
    /// Per lane bitwise exclusive or.
    Xor,
    /// Per lane bitwise complement.
    Not,
    /// Per lane signed minimum.
    IMin,
    /// Per lane signed maximum.
    IMax,
    /// Per lane unsigned minimum.
    UMin,
    /// Per lane unsigned maximum.
    UMax,
    /// Per lane signed `src0 < src1`: ~0 or 0.
    ISlt,
    /// Per lane signed `src0 >= src1`: ~0 or 0.
    ISge,
    /// Per lane unsigned `src0 < src1`: ~0 or 0.
    USlt,
    /// Per lane unsigned `src0 >= src1`: ~0 or 0.
    USge,
    /// Per lane `src0 == src1` (bit patterns): ~0 or 0.
    USeq,
    /// Per lane `src0 != src1` (bit patterns): ~0 or 0.
    USne,
    /// Per lane two's-complement negation.
    INeg,
    /// Per lane signed absolute value.
    IAbs,
    /// Per lane signed sign: −1, 0 or 1.
    ISsg,
    /// Per lane signed integer to float.
    I2F,
    /// Per lane unsigned integer to float.
    U2F,
    /// Per lane float to signed integer, rounded toward zero.
    F2I,
    /// Per lane float to unsigned integer, rounded toward zero.
    F2U,
    /// `log2(src.x)`, replicated.
    Lg2,
    /// `2^src.x`, replicated.
    Ex2,
    /// Component-wise `src0 / src1` (float division).
    Div,
    /// `TXQ dst, lod, SAMP[n], 2D`: the size of level `lod.x` (an integer) as
    /// integers, width in `x` and height in `y`.
    Txq,
    /// `TXF dst, src, SAMP[n], 2D`: the texel at integer index `src.xy` of level
    /// `src.w` (integers), unfiltered.
    Txf,
    /// Per lane the derivative in window x across the 2×2 quad (fine: right minus
    /// left pixel of the row; docs/tgsi-text.md "DDX, DDY").
    Ddx,
    /// Per lane the derivative in window y across the 2×2 quad (fine: upper minus
    /// lower pixel of the column, GL's y up).
    Ddy,
    /// `TXL dst, src, SAMP[n], 2D`: sample at `src.xy` at the level of detail `src.w`.
    Txl,
    /// `TXB dst, src, SAMP[n], 2D`: sample at `src.xy` with the level of detail bias
    /// `src.w`.
    Txb,
    /// `TXD dst, src, ddx, ddy, SAMP[n], 2D`: sample at `src.xy` at the level of
    /// detail of the gradients `ddx.xy` (ds/dx, dt/dx) and `ddy.xy`.
    Txd,
    /// `TXB2 dst, coord, bias, SAMP[n], TARGET`: TXB whose coordinate and reference
    /// fill all four lanes (`SHADOWCUBE`, `SHADOW2D_ARRAY`), the bias in `bias.x`.
    Txb2,
    /// `TXL2 dst, coord, lod, SAMP[n], TARGET`: TXL likewise, λ in `lod.x`.
    Txl2,
}

impl Opcode {
    /// The mnemonic as written in TGSI text.
    pub const fn mnemonic(self) -> &'static str {
        match self {
            Opcode::Mov => "MOV",
            Opcode::Add => "ADD",
            Opcode::Mul => "MUL",
            Opcode::Mad => "MAD",
            Opcode::Min => "MIN",
            Opcode::Max => "MAX",
            Opcode::Dp2 => "DP2",
            Opcode::Dp3 => "DP3",
            Opcode::Dp4 => "DP4",
            Opcode::Rcp => "RCP",
            Opcode::Rsq => "RSQ",
            Opcode::Sin => "SIN",
            Opcode::Cos => "COS",
            Opcode::Pow => "POW",
            Opcode::Trunc => "TRUNC",
            Opcode::Slt => "SLT",
            Opcode::Sge => "SGE",
            Opcode::Seq => "SEQ",
            Opcode::Sne => "SNE",
            Opcode::Cmp => "CMP",
            Opcode::Tex => "TEX",
            Opcode::Kill => "KILL",
            Opcode::If => "IF",
            Opcode::Else => "ELSE",
            Opcode::EndIf => "ENDIF",
            Opcode::End => "END",
            Opcode::UAdd => "UADD",
            Opcode::UMul => "UMUL",
            Opcode::IDiv => "IDIV",
            Opcode::UDiv => "UDIV",
            Opcode::Mod => "MOD",
            Opcode::UMod => "UMOD",
            Opcode::Shl => "SHL",
            Opcode::IShr => "ISHR",
            Opcode::UShr => "USHR",
            Opcode::And => "AND",
            Opcode::Or => "OR",
            Opcode::Xor => "XOR",
            Opcode::Not => "NOT",
            Opcode::IMin => "IMIN",
            Opcode::IMax => "IMAX",
            Opcode::UMin => "UMIN",
            Opcode::UMax => "UMAX",
            Opcode::ISlt => "ISLT",
            Opcode::ISge => "ISGE",
            Opcode::USlt => "USLT",
            Opcode::USge => "USGE",
            Opcode::USeq => "USEQ",
            Opcode::USne => "USNE",
            Opcode::INeg => "INEG",
            Opcode::IAbs => "IABS",
            Opcode::ISsg => "ISSG",
            Opcode::I2F => "I2F",
            Opcode::U2F => "U2F",
            Opcode::F2I => "F2I",
            Opcode::F2U => "F2U",
            Opcode::Lg2 => "LG2",
            Opcode::Ex2 => "EX2",
            Opcode::Div => "DIV",
            Opcode::Txq => "TXQ",
            Opcode::Txf => "TXF",
            Opcode::Ddx => "DDX",
            Opcode::Ddy => "DDY",
            Opcode::Txl => "TXL",
            Opcode::Txb => "TXB",
            Opcode::Txd => "TXD",
            Opcode::Txb2 => "TXB2",
            Opcode::Txl2 => "TXL2",
        }
    }

    /// Whether the opcode is a texture instruction, written with its target after
    /// the operands.
    pub const fn is_texture(self) -> bool {
        matches!(
            self,
            Opcode::Tex
                | Opcode::Txq
                | Opcode::Txf
                | Opcode::Txl
                | Opcode::Txb
                | Opcode::Txd
                | Opcode::Txb2
                | Opcode::Txl2
        )
    }

    /// Nesting change as `tgsi_dump` indents: `(levels closed before this line,
    /// levels opened after it)`.
    pub const fn nesting(self) -> (usize, usize) {
        match self {
            Opcode::If => (0, 1),
            Opcode::Else => (1, 1),
            Opcode::EndIf => (1, 0),
            _ => (0, 0),
        }
    }
}

/// One TGSI instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inst {
    /// The operation.
    pub opcode: Opcode,
    /// The destination, for opcodes that write one.
    pub dst: Option<Dst>,
    /// The sources in order (for `TEX`: coordinate, then the `SAMP` register).
    pub src: Vec<Src>,
    /// `TEX`'s texture offset: the register whose `x` and `y` hold the texel offset
    /// as integers (an `IMM` in `INT32` bit patterns), printed after the target as
    /// `, IMM[n].xyz` (tgsi_dump's three-letter offset swizzle; virglrenderer writes
    /// `textureOffset(..., ivec2(x, y))`).
    pub tex_offset: Option<super::operand::Register>,
    /// A texture instruction's target and its sampler view's return type (`None`:
    /// `sampler2D`'s [`TgsiTexture::SAMPLER_2D`]).
    pub texture: Option<TgsiTexture>,
}

impl Inst {
    /// An instruction with a destination.
    pub fn new(opcode: Opcode, dst: Dst, src: &[Src]) -> Inst {
        Inst {
            opcode,
            dst: Some(dst),
            src: src.to_vec(),
            tex_offset: None,
            texture: None,
        }
    }

    /// An instruction without operands (`KILL`, `ELSE`, `ENDIF`, `END`).
    pub fn bare(opcode: Opcode) -> Inst {
        Inst {
            opcode,
            dst: None,
            src: Vec::new(),
            tex_offset: None,
            texture: None,
        }
    }

    /// This texture instruction with the target and return type `texture`.
    pub fn with_texture(mut self, texture: TgsiTexture) -> Inst {
        self.texture = Some(texture);
        self
    }

    /// The texture of a texture instruction (`sampler2D`'s when none was given).
    pub fn texture(&self) -> TgsiTexture {
        self.texture.unwrap_or(TgsiTexture::SAMPLER_2D)
    }

    /// `MOV dst, src`.
    pub fn mov(dst: Dst, src: Src) -> Inst {
        Inst::new(Opcode::Mov, dst, &[src])
    }
}

impl fmt::Display for Inst {
    /// `MNEMONIC dst, src0, ...`, plus the texture target (`, 2D`, `, SHADOWCUBE`, …)
    /// for the texture instructions ([`Opcode::is_texture`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.opcode.mnemonic())?;
        let mut sep = " ";
        if let Some(dst) = &self.dst {
            write!(f, "{sep}{dst}")?;
            sep = ", ";
        }
        for src in &self.src {
            write!(f, "{sep}{src}")?;
            sep = ", ";
        }
        if self.opcode.is_texture() {
            write!(f, ", {}", self.texture().target)?;
        }
        if let Some(offset) = self.tex_offset {
            write!(f, ", {offset}.xyz")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::operand::{File, Register, WriteMask};
    use super::*;
    use crate::sampler_type::SamplerType;

    #[test]
    fn instructions_print_as_tgsi_dump_does() {
        let mad = Inst::new(
            Opcode::Mad,
            Dst::temp(18),
            &[Src::temp(8).lane(1), Src::temp(13), Src::temp(18)],
        );
        assert_eq!(
            mad.to_string(),
            "MAD TEMP[18], TEMP[8].yyyy, TEMP[13], TEMP[18]"
        );
        let tex = Inst::new(
            Opcode::Tex,
            Dst::temp(0),
            &[Src::temp(1), Src::reg(Register::new(File::Samp, 0))],
        );
        assert_eq!(tex.to_string(), "TEX TEMP[0], TEMP[1], SAMP[0], 2D");
        let iff = Inst {
            opcode: Opcode::If,
            dst: None,
            src: vec![Src::temp(4).lane(0)],
            tex_offset: None,
            texture: None,
        };
        assert_eq!(iff.to_string(), "IF TEMP[4].xxxx");
        let offset = Inst {
            tex_offset: Some(Register::new(File::Imm, 3)),
            ..tex.clone()
        };
        assert_eq!(
            offset.to_string(),
            "TEX TEMP[0], TEMP[1], SAMP[0], 2D, IMM[3].xyz"
        );
        let shadow = SamplerType::from_keyword("samplerCubeShadow").unwrap();
        let cube = tex.with_texture(TgsiTexture::of(shadow));
        assert_eq!(
            cube.to_string(),
            "TEX TEMP[0], TEMP[1], SAMP[0], SHADOWCUBE"
        );
        assert_eq!(Inst::bare(Opcode::Kill).to_string(), "KILL");
        let slt = Inst::new(
            Opcode::Slt,
            Dst::temp(7).masked(WriteMask::first(1)),
            &[Src::temp(5).lane(0), Src::temp(6).lane(0)],
        );
        assert_eq!(slt.to_string(), "SLT TEMP[7].x, TEMP[5].xxxx, TEMP[6].xxxx");
    }
}
