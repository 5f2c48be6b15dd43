//! 32-bit integers (GLSL 1.30 §4.1.3, §4.1.10, §5.4.1, §5.9) under the extended
//! profile; the rules are in `docs/glsl-dialects.md`, "32-bit integers".
//!
//! Under the extended profile a register lane of an `int`/`ivecN` holds the `i32`
//! two's-complement pattern and one of a `uint`/`uvecN` the `u32` pattern, as TGSI
//! does; a compile-time constant of those types holds the same pattern in its `f32`
//! carrier (`f32::from_bits`), so a folded value has exactly the bits the run-time
//! instruction would give (folding calls the interpreters' own functions,
//! `exec::math::int`). `bool`s stay the seed's 1.0 / 0.0 floats.
//!
//! The lowering keeps writing the seed's float opcodes (ADD, MUL, MIN, CMP, ...) and
//! this module maps them to the integer instructions when the operands are integers
//! ([`Lowerer::int_lanes`]): ADD → UADD, SUB → UADD of INEG, MUL → UMUL, MIN/MAX →
//! IMIN/IMAX or UMIN/UMAX, ABS → IABS, CMP → ISLT/ISGE/USLT/USGE (operands swapped for
//! `>` and `<=`) or USEQ/USNE. Conversions between the representations are
//! instructions ([`Lowerer::convert`]): I2F, U2F, F2I, F2U, `bool` → number by F2I of
//! 1.0 / 0.0, number → `bool` by `!= 0`.
//!
//! Under the seed profile nothing here changes the seed's lowering: integers are
//! float values, exact below 2^24, and `uint` is an error.

use super::super::consteval::ConstData;
use super::super::token::Pos;
use super::super::types::{self, Base, Type};
use super::value::Value;
use super::{LResult, Lowerer};
use crate::exec::math::int;
use crate::ir::{CmpCode, Ir, Op};

/// How the lanes of a value hold its numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lanes {
    /// `f32` values: floats, bools, and every integer under the seed profile.
    Float,
    /// `i32` patterns (`int`, `ivecN` under the extended profile).
    Signed,
    /// `u32` patterns (`uint`, `uvecN`).
    Unsigned,
}

/// The `f32` carrier of a 32-bit pattern.
pub(crate) fn bits(v: u32) -> f32 {
    f32::from_bits(v)
}

impl Lowerer<'_> {
    /// Whether integers are 32-bit patterns (the extended profile).
    pub(crate) fn exact_ints(&self) -> bool {
        self.limits.extended_ops()
    }

    /// How the lanes of a value of type `t` hold numbers.
    pub(crate) fn int_lanes(&self, t: Type) -> Lanes {
        match types::base(t) {
            Base::Int if self.exact_ints() => Lanes::Signed,
            Base::Uint => Lanes::Unsigned,
            _ => Lanes::Float,
        }
    }

    /// A scalar `int` constant.
    pub(crate) fn int(&self, v: i32) -> Value {
        let lane = if self.exact_ints() {
            bits(v as u32)
        } else {
            v as f32
        };
        Value::konst(Type::Int, ConstData::scalar(lane))
    }

    /// A scalar `uint` constant (extended profile).
    pub(crate) fn uint(&self, v: u32) -> Value {
        Value::konst(Type::Uint, ConstData::scalar(bits(v)))
    }

    /// A numeric constant of the given component kind (`1` as int, uint or float).
    pub(crate) fn number(&self, base: Base, v: f32) -> Value {
        match base {
            Base::Int => self.int(v as i32),
            Base::Uint => self.uint(v as i32 as u32),
            _ => Value::float(v),
        }
    }

    /// Lane `lane` of a constant of type `ty` as the integer it means (ints and uints
    /// in either profile; floats and bools by value).
    pub(crate) fn const_lane_int(&self, ty: Type, c: &ConstData, lane: usize) -> i64 {
        let x = c.0[lane];
        match self.int_lanes(ty) {
            Lanes::Signed => i64::from(x.to_bits() as i32),
            Lanes::Unsigned => i64::from(x.to_bits()),
            Lanes::Float => x as i64,
        }
    }

    /// The integer value of a known `int`/`uint` scalar.
    pub(crate) fn known_int(&self, v: &Value) -> Option<i64> {
        if !matches!(v.ty, Type::Int | Type::Uint) {
            return None;
        }
        v.as_const().map(|c| self.const_lane_int(v.ty, &c, 0))
    }

    /// An index must be an `int` (or a `uint` under the extended profile, GLSL 1.30
    /// §5.7); `pos` is the index.
    pub(crate) fn check_index(&mut self, i: &Value, pos: Pos) -> LResult<()> {
        match i.ty {
            Type::Int => Ok(()),
            Type::Uint if self.exact_ints() => Ok(()),
            _ => self.err(pos, "an index must be an int"),
        }
    }

    /// A known index as the float the range checks compare (exact below 2^24, and
    /// every index past that is out of range anyway).
    pub(crate) fn known_index(&self, i: &Value) -> Option<f32> {
        self.known_int(i).map(|k| k as f32)
    }

    /// Whether lane `lane` of constant `c` of type `ty` is zero (the pattern 0 for
    /// integers, so that `INT_MIN`, whose carrier is −0.0, is not).
    pub(crate) fn const_lane_is_zero(&self, ty: Type, c: &ConstData, lane: usize) -> bool {
        match self.int_lanes(ty) {
            Lanes::Float => c.0[lane] == 0.0,
            _ => c.0[lane].to_bits() == 0,
        }
    }

    /// `v` as a value of type `to` of the same shape (GLSL 1.30 §5.4.1 for
    /// constructors, §4.1.10 for implicit conversions): an instruction where the
    /// representation changes (I2F, U2F, F2I, F2U; bool → number is F2I of 1.0 / 0.0,
    /// number → bool is `!= 0`), a reinterpretation otherwise (`int` ↔ `uint` keep the
    /// pattern, GLSL 1.30 §5.4.1). Under the seed profile every integer is a float
    /// value and this is a reinterpretation, as before the profiles (float → int
    /// truncates with TRUNC in [`Lowerer::convert_lane`]).
    pub(crate) fn convert(&mut self, v: &Value, to: Type) -> LResult<Value> {
        if v.ty == to || v.ty == Type::None || to == Type::None || !self.exact_ints() {
            return Ok(v.retyped(to));
        }
        let (from_b, to_b) = (types::base(v.ty), types::base(to));
        let op = match (from_b, to_b) {
            (Base::Int, Base::Int)
            | (Base::Uint, Base::Uint)
            | (Base::Float, Base::Float)
            | (Base::Bool, Base::Bool) => None,
            (Base::Int, Base::Uint) | (Base::Uint, Base::Int) => None,
            (Base::Int, Base::Float) => Some(Op::I2F),
            (Base::Uint, Base::Float) => Some(Op::U2F),
            (Base::Float | Base::Bool, Base::Int) => Some(Op::F2I),
            (Base::Float | Base::Bool, Base::Uint) => Some(Op::F2U),
            (Base::Bool, Base::Float) | (Base::Other, _) | (_, Base::Other) => None,
            (_, Base::Bool) => {
                return self.per_lane(to, |s, k| {
                    let x = s.lane(v, k)?;
                    let zero = s.number(types::base(x.ty), 0.0);
                    let ne = CmpCode::Ne.code();
                    s.scalar_op(Op::Cmp, &x, Some(&zero), ne, Type::Bool)
                });
            }
        };
        match op {
            None => Ok(v.retyped(to)),
            Some(op) => self.convert_op(op, v, to),
        }
    }

    /// A conversion instruction on every lane (every column of a matrix).
    fn convert_op(&mut self, op: Op, v: &Value, to: Type) -> LResult<Value> {
        if let Some(c) = v.as_const() {
            let f = int::unary(op).expect("a conversion is a one-operand function of the bits");
            return Ok(Value::konst(to, c.map(|x| bits(f(x.to_bits())))));
        }
        let t = self.materialize(v)?;
        let n = types::cols(to);
        let dst = self.temp(n)?;
        let col_ty = if to.is_matrix() {
            types::column_type(to)
        } else {
            to
        };
        for k in 0..n as i16 {
            let ir = Ir::new(op, col_ty.ir()).dst(dst + k).a(t + k);
            self.emit(ir.ncomp(types::width(to)))?;
        }
        Ok(Value::temp(to, dst))
    }

    /// `v` with components of kind `base` (a matrix stays as it is), by
    /// [`Lowerer::convert`].
    /// Under the seed profile `v` is returned as it is (its type included, which CONST
    /// records).
    pub(crate) fn convert_base(&mut self, v: &Value, base: Base) -> LResult<Value> {
        if !self.exact_ints() || types::base(v.ty) == base || v.ty.is_matrix() {
            return Ok(*v);
        }
        match types::with_base(base, v.ty.width()) {
            Some(to) => self.convert(v, to),
            None => Ok(*v),
        }
    }

    /// The integer instruction that does the seed's float opcode `op` on integer
    /// lanes `lanes` (`None` where the opcode is kept or has no integer meaning).
    pub(crate) fn int_opcode(op: Op, lanes: Lanes) -> Option<Op> {
        let signed = lanes == Lanes::Signed;
        Some(match op {
            Op::Add => Op::UAdd,
            Op::Mul => Op::UMul,
            Op::Min if signed => Op::IMin,
            Op::Min => Op::UMin,
            Op::Max if signed => Op::IMax,
            Op::Max => Op::UMax,
            Op::Abs => Op::IAbs,
            _ => return None,
        })
    }

    /// A comparison `CMP code` of integer lanes as `(instruction, swapped)`: the
    /// operands swap for `>` and `<=` (GLSL's `a > b` is `b < a`).
    pub(crate) fn int_compare(code: CmpCode, lanes: Lanes) -> (Op, bool) {
        let signed = lanes == Lanes::Signed;
        let (lt, ge) = if signed {
            (Op::ISlt, Op::ISge)
        } else {
            (Op::USlt, Op::USge)
        };
        match code {
            CmpCode::Lt => (lt, false),
            CmpCode::Gt => (lt, true),
            CmpCode::Ge => (ge, false),
            CmpCode::Le => (ge, true),
            CmpCode::Eq => (Op::USeq, false),
            CmpCode::Ne => (Op::USne, false),
        }
    }

    /// Whether an integer division or remainder by the constant `b` divides by zero
    /// in some lane (GLSL leaves it undefined; a known zero is an error, as for floats).
    pub(crate) fn divides_by_zero(&self, b: &Value) -> bool {
        let Some(c) = b.as_const() else {
            return false;
        };
        let lanes = types::cols(b.ty) as usize * 4;
        let w = types::width(b.ty) as usize;
        (0..lanes).any(|i| i % 4 < w && self.const_lane_is_zero(b.ty, &c, i))
    }

    /// The error for a type the profile lacks: "`uint` needs the extended profile"
    /// for `uint`/`uvecN` under the seed profile.
    pub(crate) fn missing_type(&self, ty: Type) -> Option<String> {
        (types::base(ty) == Base::Uint && !self.exact_ints()).then(|| {
            format!(
                "`{ty}` needs the extended profile (the seed's CSIR keeps integers in \
                 float registers; --profile extended)"
            )
        })
    }

    /// `floatBitsToInt`, `floatBitsToUint`, `intBitsToFloat`, `uintBitsToFloat`
    /// (GLSL 3.30 §8.3): the lanes unchanged, read as the other type (no instruction:
    /// under the extended profile a register already holds the 32-bit pattern).
    pub(crate) fn bits_builtin(&mut self, name: &str, v: &[Value], pos: Pos) -> LResult<Value> {
        if !self.exact_ints() {
            return self.needs_exact_ints(&format!("{name} needs"), pos);
        }
        if v.len() != 1 {
            return self.err(pos, format!("{name}() expects 1 argument"));
        }
        let x = v[0];
        let (from, to, word) = match name {
            "floatBitsToInt" => (Base::Float, Base::Int, "float"),
            "floatBitsToUint" => (Base::Float, Base::Uint, "float"),
            "intBitsToFloat" => (Base::Int, Base::Float, "int"),
            _ => (Base::Uint, Base::Float, "uint"),
        };
        if types::base(x.ty) != from || x.ty.is_matrix() {
            let m = format!("{name} takes a {word} scalar or vector, not {}", x.ty);
            return self.err(pos, m);
        }
        let ty = types::with_base(to, x.ty.width()).unwrap_or(Type::Float);
        Ok(x.retyped(ty))
    }

    /// The "needs the extended profile" error for an integer construct under the seed
    /// profile (`what_needs` names it with its verb: "`uint` needs", "bitwise
    /// operators need").
    pub(crate) fn needs_exact_ints<T>(&mut self, what_needs: &str, pos: Pos) -> LResult<T> {
        self.err(
            pos,
            format!(
                "{what_needs} the extended profile (the seed's CSIR keeps integers in \
                 float registers; --profile extended)"
            ),
        )
    }
}

/// Fold one lane of an integer instruction on the carriers' bit patterns (the
/// interpreters' functions, so folding gives the run-time bits).
pub(crate) fn fold_int_lane(op: Op, a: f32, b: f32) -> Option<f32> {
    if let Some(f) = int::binary(op) {
        return Some(bits(f(a.to_bits(), b.to_bits())));
    }
    int::unary(op).map(|f| bits(f(a.to_bits())))
}
