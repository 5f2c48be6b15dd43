//! The temp-to-temp opcodes (CONST, MOV, SWZ, SETLANE, arithmetic, DOT, RSQ, RCP,
//! SIN, COS, POW, TRUNC, CMP, MULMV, MULMM), written once over [`Lane`] so that the
//! scalar interpreter and the batch interpreter share their exact semantics.
//!
//! Per-opcode rules are the original interpreter's (reference B §4, with the
//! component-count defaults of its source: MOV, the arithmetic family and ABS treat
//! `ncomp` 0 as 4; SWZ, RCP, SIN and COS treat it as 1; DOT's width 0 means 3; MULMV and
//! MULMM's width 0 means 4), with the fixes of reference A1/A2 (exact math from
//! [`math`], MIN/MAX as `a<b?a:b` / `a>b?a:b`, IEEE comparisons giving 1.0/0.0).
//! Every source is copied before the destination is written, so any aliasing of
//! destination and sources is safe.

use super::math::{self, Lane};
use super::{Fault, temps};
use crate::ir::{CmpCode, Ir, Op};

/// Execute one temp-to-temp instruction on `temps`, with `imm` the immediate pool.
///
/// Errors: an index outside `temps` or `imm`, a bad CMP code, or an opcode that is not
/// one of this module's ([`Fault::Opcode`]). On error nothing has been written.
pub(crate) fn execute<L: Lane>(
    op: Op,
    ir: &Ir,
    temps: &mut [[L; 4]],
    imm: &[f32],
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
                *lane = src[(ir.aux as u16 >> (2 * k)) as usize & 3];
            }
            *temps::write(temps, dst)? = v;
        }
        Op::SetLane => {
            let src = temps::read(temps, a)?;
            temps::write(temps, dst)?[ir.aux as usize & 3] = src[ir.aux2 as usize & 3];
        }
        Op::Add | Op::Sub | Op::Mul | Op::Min | Op::Max => {
            let (x, y) = (temps::read(temps, a)?, temps::read(temps, b)?);
            let f: fn(L, L) -> L = match op {
                Op::Add => |p, q| p + q,
                Op::Sub => |p, q| p - q,
                Op::Mul => |p, q| p * q,
                Op::Min => math::min,
                _ => math::max,
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
            let width = match ir.aux {
                0 => 3,
                w => w.clamp(1, 4) as usize,
            };
            let mut sum = x[0] * y[0];
            for k in 1..width {
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
            let cols = matrix_width(ir.aux);
            let m = temps::read_columns(temps, a, cols, [zero; 4])?;
            let v = temps::read(temps, b)?;
            *temps::write(temps, dst)? = mat_vec(&m, cols, v);
        }
        Op::MulMm => {
            let cols = matrix_width(ir.aux);
            let m = temps::read_columns(temps, a, cols, [zero; 4])?;
            let rhs = temps::read_columns(temps, b, cols, [zero; 4])?;
            // Check the whole destination span before writing any column.
            temps::index(temps.len(), dst + cols as i32 - 1)?;
            for (j, column) in rhs.iter().enumerate().take(cols) {
                *temps::write(temps, dst + j as i32)? = mat_vec(&m, cols, *column);
            }
        }
        _ => return Err(Fault::Opcode(op.code())),
    }
    Ok(())
}

/// Columns of MULMV / MULMM: `aux` (verified 3 or 4), 0 meaning 4, clamped to 1..=4.
#[inline]
pub(super) fn matrix_width(aux: i16) -> usize {
    match aux {
        0 => 4,
        n => n.clamp(1, 4) as usize,
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
