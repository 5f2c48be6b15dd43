//! The executable form of a bound draw: one [`Step`] per instruction that still has
//! per-pixel work, with every operand resolved to a register of the batch register
//! file (a temporary, the colour output, or a per-draw constant register).
//!
//! Register numbers are `u32` (a `u16` could overflow with many constants under a
//! large [`Limits`](crate::Limits) profile); `n` is a component count (1..=4) and `cols` a matrix
//! width (3 or 4). Jump targets are indices into the step list.

use crate::ir::CmpCode;

/// A register of the batch register file.
pub(super) type Reg = u32;

/// One step; see [`run`](super::run) for what each does over the lanes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Step {
    /// `d[c] ← a[c]` for `c < n` (MOV, STORE_COLOR into the colour register, and
    /// materialising a constant register).
    Mov { d: Reg, a: Reg, n: u8 },
    /// `d[k] ← a[sel[k]]` for `k < n`, other components 0.
    Swz { d: Reg, a: Reg, sel: [u8; 4], n: u8 },
    /// `d[dl] ← a[sl]`.
    SetLane { d: Reg, a: Reg, dl: u8, sl: u8 },
    Add { d: Reg, a: Reg, b: Reg, n: u8 },
    Sub { d: Reg, a: Reg, b: Reg, n: u8 },
    Mul { d: Reg, a: Reg, b: Reg, n: u8 },
    Min { d: Reg, a: Reg, b: Reg, n: u8 },
    Max { d: Reg, a: Reg, b: Reg, n: u8 },
    Abs { d: Reg, a: Reg, n: u8 },
    Rcp { d: Reg, a: Reg, n: u8 },
    Sin { d: Reg, a: Reg, n: u8 },
    Cos { d: Reg, a: Reg, n: u8 },
    /// Component 0 only.
    Rsq { d: Reg, a: Reg },
    /// Component 0 only.
    Trunc { d: Reg, a: Reg },
    /// Component 0 only.
    Pow { d: Reg, a: Reg, b: Reg },
    /// `d[0] ← Σ_{k<w} a[k]·b[k]`, summed in order.
    Dot { d: Reg, a: Reg, b: Reg, w: u8 },
    /// `d[0] ← a[0] code b[0] ? 1 : 0`.
    Cmp { d: Reg, a: Reg, b: Reg, code: CmpCode },
    /// `d ← M·b`, M in registers `a..a+cols`.
    MulMv { d: Reg, a: Reg, b: Reg, cols: u8 },
    /// `d+j ← A·(B column j)`, A at `a..`, B at `b..`.
    MulMm { d: Reg, a: Reg, b: Reg, cols: u8 },
    /// `d ← texture(slot, a.xy)`, one [`Samplers`](crate::exec::Samplers) call per lane.
    Sample { d: Reg, a: Reg, slot: u8 },
    /// `d[c] ← varying lane array first + c` (after remapping), 0 past the arrays.
    LoadVar { d: Reg, first: u32 },
    /// `d ← gl_FragCoord`.
    LoadFcoord { d: Reg },
    /// Open a branch for the lanes whose `cond[0] != 0`; if none, jump to `next`
    /// (the ELSE or ENDIF step).
    If { cond: Reg, next: u32 },
    /// Switch to the lanes that did not take the IF; if none, jump to `next` (ENDIF).
    Else { next: u32 },
    /// Close the innermost branch.
    EndIf,
    /// Discard the running lanes, then jump to the end of the current branch.
    Discard,
}

impl Step {
    /// The registers the step writes, as `(first, count)`; `None` for control flow.
    pub(super) fn writes(&self) -> Option<(Reg, u8)> {
        use Step::*;
        match *self {
            Mov { d, .. }
            | Swz { d, .. }
            | SetLane { d, .. }
            | Add { d, .. }
            | Sub { d, .. }
            | Mul { d, .. }
            | Min { d, .. }
            | Max { d, .. }
            | Abs { d, .. }
            | Rcp { d, .. }
            | Sin { d, .. }
            | Cos { d, .. }
            | Rsq { d, .. }
            | Trunc { d, .. }
            | Pow { d, .. }
            | Dot { d, .. }
            | Cmp { d, .. }
            | MulMv { d, .. }
            | Sample { d, .. }
            | LoadVar { d, .. }
            | LoadFcoord { d } => Some((d, 1)),
            MulMm { d, cols, .. } => Some((d, cols)),
            If { .. } | Else { .. } | EndIf | Discard => None,
        }
    }

    /// Call `f` with every register the step reads (a partial or masked write also
    /// keeps its destination's other values, but that is not a read of them).
    pub(super) fn for_each_read(&self, mut f: impl FnMut(Reg)) {
        use Step::*;
        match *self {
            Mov { a, .. }
            | Swz { a, .. }
            | SetLane { a, .. }
            | Abs { a, .. }
            | Rcp { a, .. }
            | Sin { a, .. }
            | Cos { a, .. }
            | Rsq { a, .. }
            | Trunc { a, .. }
            | Sample { a, .. } => f(a),
            Add { a, b, .. }
            | Sub { a, b, .. }
            | Mul { a, b, .. }
            | Min { a, b, .. }
            | Max { a, b, .. }
            | Pow { a, b, .. }
            | Dot { a, b, .. }
            | Cmp { a, b, .. } => {
                f(a);
                f(b);
            }
            MulMv { a, b, cols, .. } => {
                (a..a + cols as Reg).for_each(&mut f);
                f(b);
            }
            MulMm { a, b, cols, .. } => {
                (a..a + cols as Reg).for_each(&mut f);
                (b..b + cols as Reg).for_each(&mut f);
            }
            If { cond, .. } => f(cond),
            LoadVar { .. } | LoadFcoord { .. } | Else { .. } | EndIf | Discard => {}
        }
    }
}
