//! What the temp-to-temp opcodes (CONST, MOV, SWZ, SETLANE, arithmetic, DOT, RSQ, RCP,
//! SIN, COS, POW, TRUNC, CMP, MULMV, MULMM, and the extended profile's DIV) compute: [`execute`] written once over
//! [`Lane`], so that the scalar interpreter and the batch interpreter's binding share
//! their exact semantics, and [`batch_step`], the batch interpreter's step for each
//! (whose lane-wise execution in `batch::run` uses the same [`math`]). Operands and
//! lanes per opcode are in the opcode's description ([`crate::ir::OpInfo`]).
//!
//! The extended profile's integer and bit instructions are functions of the lanes' bit
//! patterns ([`math::int`]), applied lane by lane by both.
//!
//! Per-opcode rules are the original interpreter's (docs/csir-original.md B §4, with the
//! component-count defaults of its source: MOV, the arithmetic family and ABS treat
//! `ncomp` 0 as 4; SWZ, RCP, SIN and COS treat it as 1; DOT's width 0 means 3; MULMV and
//! MULMM's width 0 means 4), with the fixes of docs/csir-original.md A1/A2 (exact math from
//! [`math`], MIN/MAX as `a<b?a:b` / `a>b?a:b` in the seed profile and IEEE minNum/maxNum
//! in the extended one, IEEE comparisons giving 1.0/0.0).
//! Every source is copied before the destination is written, so any aliasing of
//! destination and sources is safe.

use super::batch::step::{Reg, Step};
use super::math::{self, Lane, MinMax};
use super::{Fault, temps};
use crate::ir::{CmpCode, Ir, Op, Profile};

/// Execute one temp-to-temp instruction on `temps`, with `imm` the immediate pool, by
/// the rules of `profile` (MIN and MAX: [`math::MinMax`]).
///
/// Errors: an index outside `temps` or `imm`, a bad CMP code, or an opcode that is not
/// one of this module's ([`Fault::Opcode`]). On error nothing has been written.
pub(crate) fn execute<L: Lane>(
    op: Op,
    ir: &Ir,
    temps: &mut [[L; 4]],
    imm: &[f32],
    profile: Profile,
) -> Result<(), Fault> {
    let zero = L::splat(0.0);
    let (dst, a, b) = (ir.dst as i32, ir.a as i32, ir.b as i32);
    match op {
        Op::Const => {
            let mut v = [zero; 4];
            for (k, lane) in v.iter_mut().enumerate().take(ir.ncomp_lanes(4) as usize) {
                let at = ir.aux as i32 + k as i32;
                let value = usize::try_from(at).ok().and_then(|i| imm.get(i));
                *lane = L::splat(*value.ok_or(Fault::Immediate(at))?);
            }
            *temps::write(temps, dst)? = v;
        }
        Op::Mov => {
            let src = temps::read(temps, a)?;
            let d = temps::write(temps, dst)?;
            let n = ir.ncomp_lanes(4) as usize;
            d[..n].copy_from_slice(&src[..n]);
        }
        Op::Swz => {
            let src = temps::read(temps, a)?;
            let mut v = [zero; 4];
            for (k, lane) in v.iter_mut().enumerate().take(ir.ncomp_lanes(1) as usize) {
                *lane = src[ir.swizzle_selector(k as u8) as usize];
            }
            *temps::write(temps, dst)? = v;
        }
        Op::SetLane => {
            let src = temps::read(temps, a)?;
            temps::write(temps, dst)?[ir.aux as usize & 3] = src[ir.aux2 as usize & 3];
        }
        Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Min | Op::Max => {
            let (x, y) = (temps::read(temps, a)?, temps::read(temps, b)?);
            let f: fn(L, L) -> L = match (op, MinMax::of(profile)) {
                (Op::Add, _) => |p, q| p + q,
                (Op::Sub, _) => |p, q| p - q,
                (Op::Mul, _) => |p, q| p * q,
                (Op::Div, _) => math::div,
                (Op::Min, MinMax::Seed) => math::min,
                (Op::Min, MinMax::Num) => math::min_num,
                (_, MinMax::Seed) => math::max,
                (_, MinMax::Num) => math::max_num,
            };
            let d = temps::write(temps, dst)?;
            for k in 0..ir.ncomp_lanes(4) as usize {
                d[k] = f(x[k], y[k]);
            }
        }
        Op::Abs | Op::Rcp | Op::Sin | Op::Cos => {
            let x = temps::read(temps, a)?;
            let (f, default): (fn(L) -> L, u8) = match op {
                Op::Abs => (math::abs, 4),
                Op::Rcp => (math::rcp, 1),
                Op::Sin => (math::sin, 1),
                _ => (math::cos, 1),
            };
            let d = temps::write(temps, dst)?;
            for k in 0..ir.ncomp_lanes(default) as usize {
                d[k] = f(x[k]);
            }
        }
        Op::Rsq | Op::Trunc => {
            let x = temps::read(temps, a)?[0];
            let f: fn(L) -> L = if op == Op::Rsq {
                math::rsq
            } else {
                math::trunc
            };
            temps::write(temps, dst)?[0] = f(x);
        }
        Op::Pow => {
            let (x, y) = (temps::read(temps, a)?[0], temps::read(temps, b)?[0]);
            temps::write(temps, dst)?[0] = math::pow(x, y);
        }
        Op::Dot => {
            let (x, y) = (temps::read(temps, a)?, temps::read(temps, b)?);
            let mut sum = x[0] * y[0];
            for k in 1..ir.dot_width() as usize {
                sum = sum + x[k] * y[k];
            }
            temps::write(temps, dst)?[0] = sum;
        }
        Op::Cmp => {
            let (x, y) = (temps::read(temps, a)?[0], temps::read(temps, b)?[0]);
            let mask = match CmpCode::from_code(ir.aux).ok_or(Fault::CompareCode(ir.aux))? {
                CmpCode::Lt => x.lt(y),
                CmpCode::Gt => x.gt(y),
                CmpCode::Le => x.le(y),
                CmpCode::Ge => x.ge(y),
                CmpCode::Eq => x.eq(y),
                CmpCode::Ne => x.ne(y),
            };
            temps::write(temps, dst)?[0] = math::from_mask(mask);
        }
        Op::MulMv => {
            let cols = ir.matrix_width() as usize;
            let m = temps::read_columns(temps, a, cols, [zero; 4])?;
            let v = temps::read(temps, b)?;
            *temps::write(temps, dst)? = mat_vec(&m, cols, v);
        }
        Op::MulMm => {
            let cols = ir.matrix_width() as usize;
            let m = temps::read_columns(temps, a, cols, [zero; 4])?;
            let rhs = temps::read_columns(temps, b, cols, [zero; 4])?;
            // Check the whole destination span before writing any column.
            temps::index(temps.len(), dst + cols as i32 - 1)?;
            for (j, column) in rhs.iter().enumerate().take(cols) {
                *temps::write(temps, dst + j as i32)? = mat_vec(&m, cols, *column);
            }
        }
        // The extended profile's integer and bit instructions (and LG2): a function
        // of the lanes' bit patterns on `ncomp` lanes (0 means 4).
        _ => {
            if let Some(f) = math::int::binary(op) {
                let (x, y) = (temps::read(temps, a)?, temps::read(temps, b)?);
                let d = temps::write(temps, dst)?;
                for k in 0..ir.ncomp_lanes(4) as usize {
                    d[k] = x[k].zip_bits(y[k], f);
                }
            } else if let Some(f) = math::int::unary(op) {
                let x = temps::read(temps, a)?;
                let d = temps::write(temps, dst)?;
                for k in 0..ir.ncomp_lanes(4) as usize {
                    d[k] = x[k].map_bits(f);
                }
            } else {
                return Err(Fault::Opcode(op.code()));
            }
        }
    }
    Ok(())
}

/// The batch interpreter's step for a temp-to-temp instruction whose operands `a`, `b`
/// and destination `d` were bound to batch registers (a verified record: its opcode
/// and compare code are valid), by the rules of `profile`. CONST never gets here: its
/// inputs are always known, so binding evaluates it with [`execute`].
pub(super) fn batch_step(ir: &Ir, d: Reg, a: Reg, b: Reg, profile: Profile) -> Step {
    let rule = MinMax::of(profile);
    let op = ir.opcode().expect("verified opcode");
    let n4 = ir.ncomp_lanes(4);
    let n1 = ir.ncomp_lanes(1);
    if math::int::binary(op).is_some() {
        return Step::IntBinary { d, a, b, n: n4, op };
    }
    if math::int::unary(op).is_some() {
        return Step::IntUnary { d, a, n: n4, op };
    }
    match op {
        Op::Mov => Step::Mov { d, a, n: n4 },
        Op::Swz => Step::Swz {
            d,
            a,
            sel: std::array::from_fn(|k| ir.swizzle_selector(k as u8)),
            n: n1,
        },
        Op::SetLane => Step::SetLane {
            d,
            a,
            dl: (ir.aux & 3) as u8,
            sl: (ir.aux2 & 3) as u8,
        },
        Op::Add => Step::Add { d, a, b, n: n4 },
        Op::Sub => Step::Sub { d, a, b, n: n4 },
        Op::Mul => Step::Mul { d, a, b, n: n4 },
        Op::Div => Step::Div { d, a, b, n: n4 },
        Op::Min => Step::Min {
            d,
            a,
            b,
            n: n4,
            rule,
        },
        Op::Max => Step::Max {
            d,
            a,
            b,
            n: n4,
            rule,
        },
        Op::Abs => Step::Abs { d, a, n: n4 },
        Op::Rcp => Step::Rcp { d, a, n: n1 },
        Op::Sin => Step::Sin { d, a, n: n1 },
        Op::Cos => Step::Cos { d, a, n: n1 },
        Op::Rsq => Step::Rsq { d, a },
        Op::Trunc => Step::Trunc { d, a },
        Op::Pow => Step::Pow { d, a, b },
        Op::Dot => Step::Dot {
            d,
            a,
            b,
            w: ir.dot_width(),
        },
        Op::Cmp => Step::Cmp {
            d,
            a,
            b,
            code: CmpCode::from_code(ir.aux).expect("verified compare code"),
        },
        Op::MulMv => Step::MulMv {
            d,
            a,
            b,
            cols: ir.matrix_width(),
        },
        Op::MulMm => Step::MulMm {
            d,
            a,
            b,
            cols: ir.matrix_width(),
        },
        // A CONST always has known inputs: it is evaluated, never emitted.
        _ => unreachable!("not a per-pixel temp-to-temp opcode: {op:?}"),
    }
}

/// `M·v` for the column-major `cols × cols` matrix `m`: lane `i < cols` is
/// `Σ_k m[k][i]·v[k]` summed in order of `k`; lanes from `cols` on are 0.
#[inline]
pub(super) fn mat_vec<L: Lane>(m: &[[L; 4]; 4], cols: usize, v: [L; 4]) -> [L; 4] {
    let mut r = [L::splat(0.0); 4];
    for (i, lane) in r.iter_mut().enumerate().take(cols) {
        let mut sum = m[0][i] * v[0];
        for k in 1..cols {
            sum = sum + m[k][i] * v[k];
        }
        *lane = sum;
    }
    r
}
