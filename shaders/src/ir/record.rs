//! The 16-byte CSIR instruction record (seed "Instruction record"; reference B §2.2).

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

    /// The decoded opcode, `None` for an invalid byte.
    pub fn opcode(&self) -> Option<Op> {
        Op::from_code(self.op)
    }

    /// Every temporary this instruction reads, including all matrix columns of
    /// MULMV/MULMM and the destination of SETLANE (which keeps its other lanes).
    /// Used by the optimizer's use counts (reference A2: every column counts).
    ///
    /// Spans use `aux` as given; an unverified record may name negative or huge
    /// temporaries, which callers must range-check.
    pub fn reads(&self) -> impl Iterator<Item = i16> + '_ {
        let (first, len_a, second, len_b): (i16, i16, i16, i16) = match self.opcode() {
            Some(
                Op::Mov
                | Op::Swz
                | Op::Abs
                | Op::Rsq
                | Op::Rcp
                | Op::Sin
                | Op::Cos
                | Op::Trunc
                | Op::Sample
                | Op::StorePos
                | Op::StoreVar
                | Op::StoreColor
                | Op::If,
            ) => (self.a, 1, -1, 0),
            Some(Op::SetLane) => (self.a, 1, self.dst, 1),
            Some(Op::Add | Op::Sub | Op::Mul | Op::Max | Op::Min | Op::Dot | Op::Pow | Op::Cmp) => {
                (self.a, 1, self.b, 1)
            }
            Some(Op::MulMv) => (self.a, matrix_span(self.aux), self.b, 1),
            Some(Op::MulMm) => (self.a, matrix_span(self.aux), self.b, matrix_span(self.aux)),
            _ => (-1, 0, -1, 0),
        };
        let span = |base: i16, len: i16| (0..len).map(move |k| base.saturating_add(k));
        span(first, if first >= 0 { len_a } else { 0 })
            .chain(span(second, if second >= 0 { len_b } else { 0 }))
    }

    /// The temporaries this instruction writes as `(first, count)`: LOAD_UNI writes
    /// `aux2` consecutive temps and MULMM `aux`; stores and control flow write none.
    pub fn writes(&self) -> Option<(i16, i16)> {
        match self.opcode()? {
            Op::Nop
            | Op::StorePos
            | Op::StoreVar
            | Op::StoreColor
            | Op::If
            | Op::Else
            | Op::EndIf
            | Op::Discard => None,
            Op::LoadUni => Some((self.dst, self.aux2.max(1))),
            Op::MulMm => Some((self.dst, matrix_span(self.aux))),
            _ => Some((self.dst, 1)),
        }
    }

    /// How many lanes an `ncomp`-driven opcode covers: `ncomp` (at most 4), with 0
    /// meaning `zero_means` — 4 for MOV, ADD, SUB, MUL, MIN, MAX and ABS, 1 for SWZ,
    /// RCP, SIN and COS (reference B §4, with the component-count defaults of the
    /// original's source). Never more than 4, whatever the record or `zero_means`.
    pub const fn ncomp_lanes(&self, zero_means: u8) -> u8 {
        let n = if self.ncomp == 0 {
            zero_means
        } else {
            self.ncomp
        };
        if n > 4 { 4 } else { n }
    }

    /// The lanes of its destination this instruction writes, as a mask (bit `i` = lane
    /// `i`), the same for each destination temporary when it writes several (LOAD_UNI's
    /// slots, MULMM's columns: see [`Ir::writes`]); 0 when it has no destination or its
    /// opcode byte is invalid. Lanes outside the mask keep their value.
    ///
    /// The interpreter's rules (reference B §4):
    /// * MOV, ADD, SUB, MUL, MIN, MAX, ABS: lanes `0..ncomp`, `ncomp` 0 meaning 4;
    /// * RCP, SIN, COS: lanes `0..ncomp`, `ncomp` 0 meaning 1;
    /// * DOT, RSQ, POW, TRUNC, CMP: lane x only;
    /// * SETLANE: lane `aux & 3`;
    /// * all four lanes: CONST and SWZ (which zero the destination, then fill `ncomp`
    ///   lanes), MULMV and MULMM (lanes past the matrix width become 0), SAMPLE and the
    ///   loads LOAD_ATTR, LOAD_VAR, LOAD_UNI and LOAD_FCOORD (whole vec4 slots).
    ///
    /// The TGSI emitter's initialisation analysis and `csir-render trace` read this;
    /// the interpreter (`exec`) applies the same rules as it executes.
    pub fn written_lanes(&self) -> u8 {
        // Lanes 0..n; n <= 4.
        let first = |n: u8| (1u8 << n) - 1;
        match self.opcode() {
            Some(
                Op::Const
                | Op::Swz
                | Op::MulMv
                | Op::MulMm
                | Op::Sample
                | Op::LoadAttr
                | Op::LoadVar
                | Op::LoadUni
                | Op::LoadFcoord,
            ) => 0b1111,
            Some(Op::Mov | Op::Add | Op::Sub | Op::Mul | Op::Min | Op::Max | Op::Abs) => {
                first(self.ncomp_lanes(4))
            }
            Some(Op::Rcp | Op::Sin | Op::Cos) => first(self.ncomp_lanes(1)),
            Some(Op::SetLane) => 1 << (self.aux & 3),
            Some(Op::Dot | Op::Rsq | Op::Pow | Op::Trunc | Op::Cmp) => 0b0001,
            Some(
                Op::Nop
                | Op::StorePos
                | Op::StoreVar
                | Op::StoreColor
                | Op::If
                | Op::Else
                | Op::EndIf
                | Op::Discard,
            )
            | None => 0,
        }
    }
}

/// Column count of a matrix operation's `aux` (3 or 4; anything else is clamped into
/// 1..=4 so that callers iterating an unverified record stay bounded).
fn matrix_span(aux: i16) -> i16 {
    aux.clamp(1, 4)
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

    #[test]
    fn reads_cover_matrix_columns_and_setlane_destination() {
        let mv = Ir::new(Op::MulMv, Type::Vec4).dst(9).a(4).b(8).aux(4);
        assert_eq!(mv.reads().collect::<Vec<_>>(), vec![4, 5, 6, 7, 8]);
        let mm = Ir::new(Op::MulMm, Type::Mat3).dst(20).a(1).b(10).aux(3);
        assert_eq!(mm.reads().collect::<Vec<_>>(), vec![1, 2, 3, 10, 11, 12]);
        assert_eq!(mm.writes(), Some((20, 3)));
        let sl = Ir::new(Op::SetLane, Type::Vec4).dst(3).a(2).aux(1);
        assert_eq!(sl.reads().collect::<Vec<_>>(), vec![2, 3]);
        let c = Ir::new(Op::Const, Type::Float).dst(1).aux(0).ncomp(1);
        assert_eq!(c.reads().count(), 0);
    }

    #[test]
    fn written_lanes_follow_the_interpreter() {
        let ir = |op| Ir::new(op, Type::Vec4).dst(0).a(1).b(2);
        // ncomp 0 means 4 for the copy/arithmetic family, 1 for RCP/SIN/COS.
        for op in [
            Op::Mov,
            Op::Add,
            Op::Sub,
            Op::Mul,
            Op::Min,
            Op::Max,
            Op::Abs,
        ] {
            assert_eq!(ir(op).written_lanes(), 0b1111, "{op:?}");
            assert_eq!(ir(op).ncomp(2).written_lanes(), 0b0011, "{op:?}");
            assert_eq!(ir(op).ncomp(9).written_lanes(), 0b1111, "{op:?}");
        }
        for op in [Op::Rcp, Op::Sin, Op::Cos] {
            assert_eq!(ir(op).written_lanes(), 0b0001, "{op:?}");
            assert_eq!(ir(op).ncomp(3).written_lanes(), 0b0111, "{op:?}");
        }
        for op in [Op::Dot, Op::Rsq, Op::Pow, Op::Trunc, Op::Cmp] {
            assert_eq!(ir(op).ncomp(4).aux(4).written_lanes(), 0b0001, "{op:?}");
        }
        assert_eq!(ir(Op::SetLane).aux(2).aux2(0).written_lanes(), 0b0100);
        assert_eq!(ir(Op::SetLane).aux(7).written_lanes(), 0b1000);
        // These zero what they do not fill, or load whole slots.
        for op in [
            Op::Const,
            Op::Swz,
            Op::MulMv,
            Op::MulMm,
            Op::Sample,
            Op::LoadAttr,
            Op::LoadVar,
            Op::LoadUni,
            Op::LoadFcoord,
        ] {
            assert_eq!(ir(op).ncomp(1).aux(3).written_lanes(), 0b1111, "{op:?}");
        }
        for op in [Op::Nop, Op::StoreColor, Op::If, Op::EndIf, Op::Discard] {
            assert_eq!(ir(op).written_lanes(), 0, "{op:?}");
        }
        let mut invalid = ir(Op::Mov);
        invalid.op = 200;
        assert_eq!(invalid.written_lanes(), 0);
    }
}
