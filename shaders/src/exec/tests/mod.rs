//! Interpreter tests on IR built directly with [`IrBuilder`], with asserted values.

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

/// Bit-exact comparison of two lane arrays (NaN == NaN, −0 != +0).
#[track_caller]
fn assert_bits(got: [f32; 4], want: [f32; 4]) {
    assert_eq!(
        got.map(f32::to_bits),
        want.map(f32::to_bits),
        "got {got:?}, want {want:?}"
    );
}
