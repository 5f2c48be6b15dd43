//! TGSI operands as text: registers, write masks, source swizzles and modifiers, and
//! hex-encoded floats.
//!
//! Every rule here is one of virglrenderer's parser (`tgsi_text.c`, docs/tgsi-text.md §1):
//! - a **destination write mask** lists its letters in `x, y, z, w` order and is never
//!   empty; the full mask is written as nothing;
//! - a **source swizzle** is absent (identity) or **exactly four letters** — `.x` as a
//!   source is a parse error;
//! - source modifiers are `-` then `|...|` (`-|TEMP[0].xyzx|`);
//! - immediates are written as `0x` plus eight hex digits of the f32 bits, so the host
//!   reads back the same bits whatever its locale, NaN and infinities included
//!   (docs/csir-original.md A5: "Immediates are printed so that they parse back to the same
//!   f32 bits").

use std::fmt;

/// A TGSI register file used by the emitter (docs/tgsi-text.md §1 "Register files").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum File {
    /// `TEMP[n]`: CSIR temporary `n` (or an emitter scratch register above them).
    Temp,
    /// `IN[n]`: vertex attribute, varying or fragment position.
    In,
    /// `OUT[n]`: position, varying or colour.
    Out,
    /// `CONST[0][n]`: uniform vec4 slot `n` of constant buffer 0 (2-D form; a
    /// dimension of 0 is the default uniform block, not a UBO).
    Const,
    /// `IMM[n]`: immediate vector `n`.
    Imm,
    /// `SAMP[n]`: sampler `n` (paired with `SVIEW[n]`).
    Samp,
    /// `SV[n]`: a system value the host computes (`VERTEXID`, `INSTANCEID`).
    SystemValue,
}

impl File {
    /// The file keyword as written in TGSI text.
    pub const fn keyword(self) -> &'static str {
        match self {
            File::Temp => "TEMP",
            File::In => "IN",
            File::Out => "OUT",
            File::Const => "CONST",
            File::Imm => "IMM",
            File::Samp => "SAMP",
            File::SystemValue => "SV",
        }
    }
}

/// One register: a file and an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Register {
    /// Register file.
    pub file: File,
    /// Index inside the file.
    pub index: u16,
}

impl Register {
    /// `TEMP[index]`.
    pub const fn temp(index: u16) -> Register {
        Register {
            file: File::Temp,
            index,
        }
    }

    /// A register of `file` at `index`.
    pub const fn new(file: File, index: u16) -> Register {
        Register { file, index }
    }
}

impl fmt::Display for Register {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.file {
            File::Const => write!(f, "CONST[0][{}]", self.index),
            file => write!(f, "{}[{}]", file.keyword(), self.index),
        }
    }
}

const LANE_LETTERS: [char; 4] = ['x', 'y', 'z', 'w'];

/// A destination write mask: bit `i` set means lane `i` (x, y, z, w) is written.
/// Never empty (tgsi_text: "Writemask expected").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WriteMask(u8);

impl WriteMask {
    /// All four lanes (printed as nothing).
    pub const XYZW: WriteMask = WriteMask(0b1111);

    /// The first `n` lanes (`n` in 1..=4).
    pub fn first(n: u8) -> WriteMask {
        debug_assert!((1..=4).contains(&n));
        WriteMask((1u8 << n.clamp(1, 4)) - 1)
    }

    /// Lanes `from..4` (`from` in 0..=3).
    pub fn from_lane(from: u8) -> WriteMask {
        debug_assert!(from < 4);
        WriteMask(0b1111 & !((1u8 << from.min(3)) - 1))
    }

    /// The single lane `lane` (0..=3).
    pub fn lane(lane: u8) -> WriteMask {
        WriteMask(1 << (lane & 3))
    }

    /// Whether lane `lane` is written.
    pub const fn has(self, lane: u8) -> bool {
        self.0 & (1 << lane) != 0
    }
}

impl fmt::Display for WriteMask {
    /// `.x`, `.xz`, `.yzw`, ... always in `xyzw` order; nothing for all four lanes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == WriteMask::XYZW {
            return Ok(());
        }
        f.write_str(".")?;
        for lane in 0..4 {
            if self.has(lane) {
                write!(f, "{}", LANE_LETTERS[lane as usize])?;
            }
        }
        Ok(())
    }
}

/// A source swizzle: result lane `i` reads source lane `self.0[i]` (0..=3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle(pub [u8; 4]);

impl Swizzle {
    /// `.xyzw` (printed as nothing).
    pub const IDENTITY: Swizzle = Swizzle([0, 1, 2, 3]);

    /// Every lane reads source lane `lane`: `.xxxx`, `.yyyy`, ...
    pub const fn broadcast(lane: u8) -> Swizzle {
        let l = lane & 3;
        Swizzle([l, l, l, l])
    }
}

impl fmt::Display for Swizzle {
    /// Nothing for the identity, otherwise exactly four letters (docs/tgsi-text.md §1).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Swizzle::IDENTITY {
            return Ok(());
        }
        f.write_str(".")?;
        for &lane in &self.0 {
            write!(f, "{}", LANE_LETTERS[(lane & 3) as usize])?;
        }
        Ok(())
    }
}

/// A source operand: register, swizzle and the `-` / `|..|` modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Src {
    /// The register read.
    pub reg: Register,
    /// Lane selection.
    pub swizzle: Swizzle,
    /// `-src` (applied after `abs`).
    pub negate: bool,
    /// `|src|`.
    pub abs: bool,
}

impl Src {
    /// The register with the identity swizzle and no modifiers.
    pub const fn reg(reg: Register) -> Src {
        Src {
            reg,
            swizzle: Swizzle::IDENTITY,
            negate: false,
            abs: false,
        }
    }

    /// `TEMP[index]`, identity swizzle.
    pub const fn temp(index: u16) -> Src {
        Src::reg(Register::temp(index))
    }

    /// The same operand with swizzle `swizzle`.
    pub const fn swizzled(mut self, swizzle: Swizzle) -> Src {
        self.swizzle = swizzle;
        self
    }

    /// The same operand with every lane reading `lane` (`.xxxx` for lane 0).
    pub const fn lane(self, lane: u8) -> Src {
        self.swizzled(Swizzle::broadcast(lane))
    }

    /// `-self`.
    pub const fn negated(mut self) -> Src {
        self.negate = !self.negate;
        self
    }

    /// `|self|`.
    pub const fn absolute(mut self) -> Src {
        self.abs = true;
        self
    }
}

impl fmt::Display for Src {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negate {
            f.write_str("-")?;
        }
        if self.abs {
            f.write_str("|")?;
        }
        write!(f, "{}{}", self.reg, self.swizzle)?;
        if self.abs {
            f.write_str("|")?;
        }
        Ok(())
    }
}

/// A destination operand: register and write mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dst {
    /// The register written.
    pub reg: Register,
    /// The lanes written.
    pub mask: WriteMask,
}

impl Dst {
    /// All four lanes of `reg`.
    pub const fn reg(reg: Register) -> Dst {
        Dst {
            reg,
            mask: WriteMask::XYZW,
        }
    }

    /// All four lanes of `TEMP[index]`.
    pub const fn temp(index: u16) -> Dst {
        Dst::reg(Register::temp(index))
    }

    /// The same register with mask `mask`.
    pub const fn masked(mut self, mask: WriteMask) -> Dst {
        self.mask = mask;
        self
    }
}

impl fmt::Display for Dst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.reg, self.mask)
    }
}

/// An f32 written as its bit pattern, `0x3f800000`: `0x` and exactly eight hex digits,
/// the form Mesa's virgl driver sends (`TGSI_DUMP_FLOAT_AS_HEX`). The host never runs
/// it through a locale-dependent `atof`, and NaN (`0x7fc00000`), infinities
/// (`0x7f800000`) and −0 (`0x80000000`) survive (docs/tgsi-text.md §1 "Immediates").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HexF32(pub f32);

impl fmt::Display for HexF32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x{:08x}", self.0.to_bits())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_are_in_xyzw_order_and_full_masks_are_silent() {
        assert_eq!(WriteMask::first(1).to_string(), ".x");
        assert_eq!(WriteMask::first(3).to_string(), ".xyz");
        assert_eq!(WriteMask::first(4).to_string(), "");
        assert_eq!(WriteMask::from_lane(1).to_string(), ".yzw");
        assert_eq!(WriteMask::from_lane(3).to_string(), ".w");
        assert_eq!(WriteMask::lane(2).to_string(), ".z");
    }

    #[test]
    fn source_swizzles_have_four_letters_or_none() {
        assert_eq!(Src::temp(3).to_string(), "TEMP[3]");
        assert_eq!(Src::temp(3).lane(0).to_string(), "TEMP[3].xxxx");
        assert_eq!(
            Src::temp(2).swizzled(Swizzle([1, 0, 0, 0])).to_string(),
            "TEMP[2].yxxx"
        );
        assert_eq!(
            Src::temp(0)
                .swizzled(Swizzle([0, 1, 2, 0]))
                .negated()
                .absolute()
                .to_string(),
            "-|TEMP[0].xyzx|"
        );
        assert_eq!(
            Src::reg(Register::new(File::Const, 7)).to_string(),
            "CONST[0][7]"
        );
    }

    #[test]
    fn floats_are_eight_hex_digits() {
        assert_eq!(HexF32(1.0).to_string(), "0x3f800000");
        assert_eq!(HexF32(0.0).to_string(), "0x00000000");
        assert_eq!(HexF32(-0.0).to_string(), "0x80000000");
        assert_eq!(HexF32(f32::INFINITY).to_string(), "0x7f800000");
        assert_eq!(HexF32(f32::NAN).to_string(), "0x7fc00000");
        assert_eq!(HexF32(2_000_000.0).to_string(), "0x49f42400");
    }
}
