//! The 16-byte CSIR instruction record (docs/csir.md "Instruction record";
//! docs/csir-original.md B §2.2).

use super::{Op, Type};
use bytemuck::{Pod, Zeroable};

/// One CSIR instruction: 16 bytes, `#[repr(C)]`, laid out exactly as the seed's
/// `struct Ir` (op, ty, ncomp, pad, then six little-endian `i16`: dst, a, b, c, aux,
/// aux2). Unused operand fields hold −1. `c` is never an operand.
///
/// Field meaning per opcode is documented on [`Op`]. The record is plain data:
/// anything may be stored in it, and [`verify`](super::verify) decides whether a
/// shader made of such records is safe to run.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Pod, Zeroable)]
pub struct Ir {
    /// Opcode byte ([`Op::code`]); values above 32 are rejected by the verifier.
    pub op: u8,
    /// Semantic type code ([`Type::code`]), informational.
    pub ty: u8,
    /// Component count, 0..=4 (meaning per opcode; 0 often means 4).
    pub ncomp: u8,
    /// Always 0 when written by this crate.
    pub pad: u8,
    /// Destination temporary, or −1.
    pub dst: i16,
    /// First source temporary, or −1.
    pub a: i16,
    /// Second source temporary, or −1.
    pub b: i16,
    /// Unused (−1), except that the original's CONST stored 0 here.
    pub c: i16,
    /// Opcode-specific: immediate index, slot, lane selectors, width or compare code.
    pub aux: i16,
    /// Opcode-specific: source lane of SETLANE, slot count of LOAD_UNI.
    pub aux2: i16,
}

const _: () = assert!(std::mem::size_of::<Ir>() == 16);
const _: () = assert!(std::mem::align_of::<Ir>() == 2);

impl Ir {
    /// A record with every operand −1 and `ncomp` 0.
    pub const fn new(op: Op, ty: Type) -> Ir {
        Ir {
            op: op as u8,
            ty: ty as u8,
            ncomp: 0,
            pad: 0,
            dst: -1,
            a: -1,
            b: -1,
            c: -1,
            aux: 0,
            aux2: 0,
        }
    }

    /// Builder: set `dst`.
    pub const fn dst(mut self, t: i16) -> Ir {
        self.dst = t;
        self
    }

    /// Builder: set `a`.
    pub const fn a(mut self, t: i16) -> Ir {
        self.a = t;
        self
    }

    /// Builder: set `b`.
    pub const fn b(mut self, t: i16) -> Ir {
        self.b = t;
        self
    }

    /// Builder: set `ncomp`.
    pub const fn ncomp(mut self, n: u8) -> Ir {
        self.ncomp = n;
        self
    }

    /// Builder: set `aux`.
    pub const fn aux(mut self, v: i16) -> Ir {
        self.aux = v;
        self
    }

    /// Builder: set `aux2`.
    pub const fn aux2(mut self, v: i16) -> Ir {
        self.aux2 = v;
        self
    }

    /// Builder: SAMPLE_OFFSET's texel offset `(dx, dy)` into `aux2` (`dx` the low
    /// byte, `dy` the high byte).
    pub const fn with_texel_offset(self, [dx, dy]: [i8; 2]) -> Ir {
        self.aux2(i16::from_le_bytes([dx as u8, dy as u8]))
    }

    /// SAMPLE_OFFSET's texel offset `(dx, dy)`: the low and high bytes of `aux2`, each
    /// an `i8`.
    pub const fn texel_offset(&self) -> [i32; 2] {
        let [dx, dy] = self.aux2.to_le_bytes();
        [dx as i8 as i32, dy as i8 as i32]
    }

    /// The decoded opcode, `None` for an invalid byte.
    pub fn opcode(&self) -> Option<Op> {
        Op::from_code(self.op)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_is_sixteen_little_endian_bytes() {
        let ir = Ir::new(Op::Add, Type::Vec3)
            .dst(5)
            .a(1)
            .b(2)
            .ncomp(3)
            .aux(0x0102);
        let bytes = bytemuck::bytes_of(&ir);
        assert_eq!(bytes.len(), 16);
        assert_eq!(bytes[0], 5);
        assert_eq!(bytes[1], Type::Vec3.code());
        assert_eq!(bytes[2], 3);
        if cfg!(target_endian = "little") {
            assert_eq!(&bytes[4..6], &[5, 0]);
            assert_eq!(&bytes[12..14], &[2, 1]);
        }
    }
}
