//! Interpreter tests on IR built directly with [`IrBuilder`], with asserted values.

mod compiled;
mod control_flow;
mod defensive;
mod interface;
mod matrices;
mod operations;

use super::{Inputs, Machine, Outputs};
use crate::Limits;
use crate::ir::{Interface, Ir, IrBuilder, Op, Shader, Stage, Type};

/// A shader under construction.
struct Build {
    b: IrBuilder,
    stage: Stage,
}

impl Build {
    fn new(stage: Stage) -> Self {
        Build {
            b: IrBuilder::new(Limits::SEED),
            stage,
        }
    }

    /// A fresh temporary.
    fn temp(&mut self) -> i16 {
        self.b.alloc_temps(1).unwrap()
    }

    /// `n` consecutive fresh temporaries.
    fn temps(&mut self, n: u16) -> i16 {
        self.b.alloc_temps(n).unwrap()
    }

    /// A fresh temporary holding `values` (CONST).
    fn konst(&mut self, values: &[f32]) -> i16 {
        self.b
            .emit_const(values, Type::float_vec(values.len() as u8))
            .unwrap()
    }

    /// CONST `values` into the existing temporary `dst`.
    fn konst_into(&mut self, dst: i16, values: &[f32]) {
        let first = self.b.add_immediates(values).unwrap();
        self.emit(
            Ir::new(Op::Const, Type::Vec4)
                .dst(dst)
                .aux(first)
                .ncomp(values.len() as u8),
        );
    }

    fn emit(&mut self, ir: Ir) {
        self.b.emit(ir).unwrap();
    }

    /// `count` fresh temporaries loaded from uniform slots `slot..slot + count`.
    fn load_uni(&mut self, slot: i16, count: u16) -> i16 {
        let dst = self.temps(count);
        let ty = match count {
            3 => Type::Mat3,
            4 => Type::Mat4,
            _ => Type::Vec4,
        };
        self.emit(
            Ir::new(Op::LoadUni, ty)
                .dst(dst)
                .aux(slot)
                .aux2(count as i16)
                .ncomp(4),
        );
        dst
    }

    /// A fresh temporary loaded from attribute `location`.
    fn load_attr(&mut self, location: i16) -> i16 {
        let dst = self.temp();
        self.emit(
            Ir::new(Op::LoadAttr, Type::Vec4)
                .dst(dst)
                .aux(location)
                .ncomp(4),
        );
        dst
    }

    /// MULMV `dst ← M·v` with M in `cols` temporaries from `m`.
    fn mul_mv(&mut self, dst: i16, m: i16, v: i16, cols: u8) {
        let ir = Ir::new(Op::MulMv, Type::float_vec(cols));
        self.emit(ir.dst(dst).a(m).b(v).aux(cols as i16).ncomp(cols));
    }

    /// MULMM `dst.. ← A·B` on `cols × cols` matrices.
    fn mul_mm(&mut self, dst: i16, a: i16, b: i16, cols: u8) {
        let ty = if cols == 3 { Type::Mat3 } else { Type::Mat4 };
        let ir = Ir::new(Op::MulMm, ty);
        self.emit(ir.dst(dst).a(a).b(b).aux(cols as i16).ncomp(cols));
    }

    /// Emit `op dst, a[, b]` with `ncomp` into a fresh temporary; returns it.
    fn op(&mut self, op: Op, a: i16, b: Option<i16>, ncomp: u8) -> i16 {
        let dst = self.temp();
        let mut ir = Ir::new(op, Type::Vec4).dst(dst).a(a).ncomp(ncomp);
        if let Some(b) = b {
            ir = ir.b(b);
        }
        self.emit(ir);
        dst
    }

    fn finish(self) -> Shader {
        let (ir, imm, ntmp) = self.b.finish();
        Shader {
            name: "test".into(),
            stage: self.stage,
            limits: Limits::SEED,
            ir,
            imm,
            ntmp,
            interface: Interface {
                attr_hi: 7,
                samp_hi: 3,
                ..Interface::default()
            },
        }
    }
}

/// Run `shader` once; returns the outputs and the final temporaries.
fn run(shader: &Shader, inputs: &Inputs<'_>) -> (Outputs, Vec<[f32; 4]>) {
    let mut machine = Machine::new(shader).expect("shader verifies");
    let mut out = Outputs::default();
    machine.run(inputs, &mut out).expect("runs");
    (out, machine.temps().to_vec())
}

/// Inputs with only uniforms.
fn with_uniforms(uniforms: &[[f32; 4]]) -> Inputs<'_> {
    Inputs {
        uniforms,
        ..Inputs::default()
    }
}

/// Bit-exact comparison of two lane arrays (NaN == NaN, −0 != +0).
#[track_caller]
fn assert_bits(got: [f32; 4], want: [f32; 4]) {
    assert_eq!(
        got.map(f32::to_bits),
        want.map(f32::to_bits),
        "got {got:?}, want {want:?}"
    );
}
