//! What stops an interpreter on IR that [`verify`](crate::ir::verify) would have
//! rejected. A verified shader never produces one of these; they exist so that the
//! interpreters stay panic-free and in bounds whatever records they are given
//! (docs/csir.md "Execution versus verification": the original also kept defensive checks).

use thiserror::Error;

/// The defect found in one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum Fault {
    /// The opcode byte is not a CSIR opcode.
    #[error("unknown opcode {0}")]
    Opcode(u8),
    /// A temporary index (including a matrix column or uniform span) is outside the
    /// temporary file.
    #[error("temporary {0} is out of range")]
    Temporary(i32),
    /// An immediate index is outside the pool.
    #[error("immediate {0} is out of range")]
    Immediate(i32),
    /// CMP with a code outside 1..=6.
    #[error("invalid comparison code {0}")]
    CompareCode(i16),
    /// A negative or too large sampler, varying or uniform slot.
    #[error("slot {0} is out of range")]
    Slot(i16),
    /// More IFs open than the shader's `Limits::if_depth`.
    #[error("IF nesting deeper than {0}")]
    IfDepth(usize),
    /// ELSE or ENDIF without an open IF, or a second ELSE.
    #[error("unbalanced IF/ELSE/ENDIF")]
    Unbalanced,
}

/// An interpreter stopped at instruction `index` (opcode byte `op`) because of `fault`.
/// Outputs written before the fault are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("{fault} (instruction {index}, opcode {op})")]
pub struct ExecError {
    /// Index of the instruction in `Shader::ir`.
    pub index: usize,
    /// Its opcode byte.
    pub op: u8,
    /// What is wrong with it.
    pub fault: Fault,
}
