//! CSIR opcodes with the seed's numeric values (chrisos-reference.md B §2.1).

use std::fmt;

/// One CSIR operation. The discriminants are the on-disk/`Ir::op` byte values and
/// never change (seed "Instruction record"; reference B §2.1).
///
/// Operand meaning per opcode is documented on each variant; `aux`/`aux2` change
/// meaning by opcode (seed: "The record is deliberately generic").
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Removed instruction; only the opcode was rewritten by the optimizer.
    Nop = 0,
    /// `dst ← imm[aux .. aux+ncomp]`, unused lanes zeroed.
    Const = 1,
    /// `dst ← a` on the first `ncomp` lanes (0 means 4); other lanes untouched.
    Mov = 2,
    /// Swizzle: lane i ← `a[(aux >> 2i) & 3]` for i < ncomp; other lanes zeroed.
    Swz = 3,
    /// `dst[aux & 3] ← a[aux2 & 3]` (read-modify-write of `dst`).
    SetLane = 4,
    /// Component-wise `a + b` on `ncomp` lanes.
    Add = 5,
    /// Component-wise `a - b` on `ncomp` lanes.
    Sub = 6,
    /// Component-wise `a * b` on `ncomp` lanes.
    Mul = 7,
    /// Component-wise `a > b ? a : b` on `ncomp` lanes.
    Max = 8,
    /// Component-wise `a < b ? a : b` on `ncomp` lanes.
    Min = 9,
    /// Component-wise `|a|` on `ncomp` lanes.
    Abs = 10,
    /// `dst.x ← Σ a[i]·b[i]` over `aux` lanes (2..=4).
    Dot = 11,
    /// `dst.x ← 1/sqrt(a.x)`, 0 for `a.x <= 0` or NaN.
    Rsq = 12,
    /// Per lane (ncomp, 0 means 1): `1/a`, 0 where `a == 0`.
    Rcp = 13,
    /// Component-wise sine on `ncomp` lanes.
    Sin = 14,
    /// Component-wise cosine on `ncomp` lanes.
    Cos = 15,
    /// `dst.x ← powf(a.x, b.x)`.
    Pow = 16,
    /// `dst.x ← trunc(a.x)` (toward zero).
    Trunc = 17,
    /// `dst.x ← compare(a.x, b.x) ? 1.0 : 0.0` with `aux` a [`CmpCode`](super::CmpCode).
    Cmp = 18,
    /// `dst ← M·b` where M is the matrix in temps `a .. a+aux` (columns), aux 3 or 4.
    MulMv = 19,
    /// Column j of `dst .. dst+aux` ← A·(column j of B); A at `a..`, B at `b..`; aux 3 or 4.
    MulMm = 20,
    /// `dst ← texture(sampler aux, a.xy)`.
    Sample = 21,
    /// `dst ← attribute[aux]` (vertex stage).
    LoadAttr = 22,
    /// `dst ← varying[remap(aux)]` (fragment stage).
    LoadVar = 23,
    /// `dst .. dst+aux2 ← uniform vec4 slots aux .. aux+aux2`.
    LoadUni = 24,
    /// `dst ← gl_FragCoord` (fragment stage).
    LoadFcoord = 25,
    /// `gl_Position ← a` (vertex stage only).
    StorePos = 26,
    /// `varying[aux] ← a` (vertex stage).
    StoreVar = 27,
    /// `colour ← a` (fragment stage only).
    StoreColor = 28,
    /// Open a structured conditional on `a.x != 0` (NaN is true).
    If = 29,
    /// Switch to the other branch of the innermost IF.
    Else = 30,
    /// Close the innermost IF.
    EndIf = 31,
    /// Discard the fragment and stop (fragment stage only).
    Discard = 32,
}

/// Every opcode in numeric order; `ALL_OPS[n as usize].code() == n`.
pub const ALL_OPS: [Op; 33] = [
    Op::Nop,
    Op::Const,
    Op::Mov,
    Op::Swz,
    Op::SetLane,
    Op::Add,
    Op::Sub,
    Op::Mul,
    Op::Max,
    Op::Min,
    Op::Abs,
    Op::Dot,
    Op::Rsq,
    Op::Rcp,
    Op::Sin,
    Op::Cos,
    Op::Pow,
    Op::Trunc,
    Op::Cmp,
    Op::MulMv,
    Op::MulMm,
    Op::Sample,
    Op::LoadAttr,
    Op::LoadVar,
    Op::LoadUni,
    Op::LoadFcoord,
    Op::StorePos,
    Op::StoreVar,
    Op::StoreColor,
    Op::If,
    Op::Else,
    Op::EndIf,
    Op::Discard,
];

impl Op {
    /// The opcode byte stored in [`Ir::op`](super::Ir).
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// Decode an opcode byte; `None` for values above 32 (verifier: "invalid IR opcode").
    pub fn from_code(code: u8) -> Option<Op> {
        ALL_OPS.get(code as usize).copied()
    }

    /// Mnemonic used by the IR dump (reference B §3.1).
    pub const fn mnemonic(self) -> &'static str {
        match self {
            Op::Nop => "nop",
            Op::Const => "const",
            Op::Mov => "mov",
            Op::Swz => "swz",
            Op::SetLane => "lane",
            Op::Add => "add",
            Op::Sub => "sub",
            Op::Mul => "mul",
            Op::Max => "max",
            Op::Min => "min",
            Op::Abs => "abs",
            Op::Dot => "dot",
            Op::Rsq => "rsq",
            Op::Rcp => "rcp",
            Op::Sin => "sin",
            Op::Cos => "cos",
            Op::Pow => "pow",
            Op::Trunc => "trunc",
            Op::Cmp => "cmp",
            Op::MulMv => "mul_mv",
            Op::MulMm => "mul_mm",
            Op::Sample => "sample2d",
            Op::LoadAttr => "load_attr",
            Op::LoadVar => "load_var",
            Op::LoadUni => "load_uni",
            Op::LoadFcoord => "load_fragcoord",
            Op::StorePos => "store_pos",
            Op::StoreVar => "store_var",
            Op::StoreColor => "store_color",
            Op::If => "if",
            Op::Else => "else",
            Op::EndIf => "endif",
            Op::Discard => "discard",
        }
    }

    /// The optimizer's removable set (seed "Optimization"; reference B §2.5): pure
    /// instructions whose only effect is their destination temporary.
    pub const fn is_removable(self) -> bool {
        matches!(
            self,
            Op::Const
                | Op::Mov
                | Op::Swz
                | Op::Add
                | Op::Sub
                | Op::Mul
                | Op::Max
                | Op::Min
                | Op::Abs
                | Op::Dot
                | Op::Rsq
                | Op::Rcp
                | Op::Sin
                | Op::Cos
                | Op::Pow
                | Op::Trunc
                | Op::Cmp
                | Op::MulMv
        )
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mnemonic())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_match_the_seed() {
        for (n, op) in ALL_OPS.iter().enumerate() {
            assert_eq!(op.code() as usize, n);
            assert_eq!(Op::from_code(n as u8), Some(*op));
        }
        assert_eq!(Op::from_code(33), None);
        assert_eq!(Op::MulMv.code(), 19);
        assert_eq!(Op::Discard.code(), 32);
        assert_eq!(Op::Sample.mnemonic(), "sample2d");
    }
}
