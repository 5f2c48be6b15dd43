//! Bounded construction of IR: every append checks its pool (docs/csir.md "Instruction
//! emission"; docs/csir-original.md A3).

use super::{Ir, Limits, Op, Type};
use thiserror::Error;

/// A pool overflowed while building IR. The messages are the seed's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PoolError {
    /// More than `Limits::instructions` records.
    #[error("shader exceeds the instruction limit")]
    Instructions,
    /// More than `Limits::immediates` floats.
    #[error("too many constants")]
    Immediates,
    /// More than `Limits::temporaries` temporaries.
    #[error("shader exceeds the temporary limit")]
    Temporaries,
}

/// Growing IR, immediate pool and temporary counter, each bounded by [`Limits`].
#[derive(Clone, Debug)]
pub struct IrBuilder {
    limits: Limits,
    ir: Vec<Ir>,
    imm: Vec<f32>,
    ntmp: u16,
}

impl IrBuilder {
    /// An empty builder for the given limits.
    pub fn new(limits: Limits) -> IrBuilder {
        IrBuilder {
            limits,
            ir: Vec::new(),
            imm: Vec::new(),
            ntmp: 0,
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Append one record; returns its index.
    pub fn emit(&mut self, ir: Ir) -> Result<usize, PoolError> {
        if self.ir.len() >= self.limits.instructions {
            return Err(PoolError::Instructions);
        }
        self.ir.push(ir);
        Ok(self.ir.len() - 1)
    }

    /// Allocate `count` consecutive temporaries (1, or 3/4 for matrices); returns the first.
    pub fn alloc_temps(&mut self, count: u16) -> Result<i16, PoolError> {
        let first = self.ntmp as usize;
        if first + count as usize > self.limits.temporaries {
            return Err(PoolError::Temporaries);
        }
        self.ntmp += count;
        Ok(first as i16)
    }

    /// Append `values` (1..=4 floats) to the immediate pool; returns the first index.
    pub fn add_immediates(&mut self, values: &[f32]) -> Result<i16, PoolError> {
        let first = self.imm.len();
        if first + values.len() > self.limits.immediates {
            return Err(PoolError::Immediates);
        }
        self.imm.extend_from_slice(values);
        Ok(first as i16)
    }

    /// Allocate a temporary and emit `CONST` of `values` (1..=4) into it.
    pub fn emit_const(&mut self, values: &[f32], ty: Type) -> Result<i16, PoolError> {
        let dst = self.alloc_temps(1)?;
        let first = self.add_immediates(values)?;
        self.emit(
            Ir::new(Op::Const, ty)
                .dst(dst)
                .aux(first)
                .ncomp(values.len() as u8),
        )?;
        Ok(dst)
    }

    /// Records emitted so far.
    pub fn ir(&self) -> &[Ir] {
        &self.ir
    }

    /// Mutable access to emitted records (e.g. to patch a record).
    pub fn ir_mut(&mut self) -> &mut [Ir] {
        &mut self.ir
    }

    /// Immediates so far.
    pub fn immediates(&self) -> &[f32] {
        &self.imm
    }

    /// Temporaries allocated so far.
    pub fn temp_count(&self) -> u16 {
        self.ntmp
    }

    /// Take the parts: `(ir, imm, ntmp)`.
    pub fn finish(self) -> (Vec<Ir>, Vec<f32>, u16) {
        (self.ir, self.imm, self.ntmp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_pool_reports_its_own_overflow() {
        let mut b = IrBuilder::new(Limits::SEED);
        for _ in 0..384 {
            b.emit(Ir::new(Op::Nop, Type::None)).unwrap();
        }
        assert_eq!(
            b.emit(Ir::new(Op::Nop, Type::None)),
            Err(PoolError::Instructions)
        );
        assert_eq!(
            PoolError::Instructions.to_string(),
            "shader exceeds the instruction limit"
        );
        let mut b = IrBuilder::new(Limits::SEED);
        assert_eq!(b.alloc_temps(96), Ok(0));
        assert_eq!(b.alloc_temps(1), Err(PoolError::Temporaries));
        let mut b = IrBuilder::new(Limits::SEED);
        for _ in 0..40 {
            b.add_immediates(&[0.0; 4]).unwrap();
        }
        assert_eq!(b.add_immediates(&[1.0]), Err(PoolError::Immediates));
    }
}
