//! Hooks for watching an invocation instruction by instruction (the "trace this
//! pixel" feature). [`Machine::run`](super::Machine::run) uses [`NoObserver`], whose
//! empty methods compile away; [`Machine::run_observed`](super::Machine::run_observed)
//! is monomorphised for the observer it is given.

use super::Outputs;
use crate::ir::Ir;

/// One executed instruction, seen just after it ran.
#[derive(Clone, Copy, Debug)]
pub struct Step<'a> {
    /// Index of the instruction in `Shader::ir`.
    pub index: usize,
    /// The record.
    pub ir: &'a Ir,
    /// The whole temporary file after the instruction.
    pub temps: &'a [[f32; 4]],
    /// The outputs after the instruction.
    pub outputs: &'a Outputs,
}

impl Step<'_> {
    /// The destination temporary's four lanes after the instruction, if it has one
    /// (for LOAD_UNI and MULMM, the first of its temporaries).
    pub fn destination(&self) -> Option<[f32; 4]> {
        let (first, _) = self.ir.writes()?;
        usize::try_from(first)
            .ok()
            .and_then(|t| self.temps.get(t))
            .copied()
    }
}

/// Receives every executed instruction and every branch decision. Both methods do
/// nothing by default.
pub trait Observer {
    /// An instruction other than IF/ELSE/ENDIF ran (NOPs and skipped instructions are
    /// not reported; a DISCARD is reported before execution stops).
    #[inline(always)]
    fn step(&mut self, step: Step<'_>) {
        let _ = step;
    }

    /// An IF or ELSE was reached in a running branch. For an IF, `taken` is whether
    /// the THEN branch runs (lane 0 of the condition is non-zero, NaN included); for
    /// an ELSE, whether the ELSE branch runs. IFs and ELSEs inside skipped branches
    /// are not reported.
    #[inline(always)]
    fn branch(&mut self, index: usize, ir: &Ir, taken: bool) {
        let _ = (index, ir, taken);
    }
}

/// The observer that watches nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {}
