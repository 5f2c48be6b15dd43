//! The optimizer: use-count dead-code elimination (docs/csir.md "Optimization";
//! docs/csir-original.md B §2.5, with the fixes of A2).
//!
//! Four passes; each counts, per temporary, the reads of every live (non-NOP)
//! instruction — every column a MULMV/MULMM reads, and the destination of SETLANE,
//! which keeps the lanes it does not write — then rewrites to NOP each instruction of
//! the removable set ([`OpInfo::removable`](super::OpInfo::removable)) whose
//! destination nobody reads. Unlike the original, NOP'd instructions no longer count
//! as uses, so a dead chain disappears one link per pass. Counting is per temporary,
//! not per definition (the IR is not SSA): if a temporary is read anywhere, all of its
//! writers survive. The array is not compacted; only the opcode byte changes.

use super::{Op, Shader};

/// Passes run by [`optimize`] (seed: four).
pub const PASSES: usize = 4;

/// Run the seed's passes over `shader` in place. Returns the number of records
/// turned into NOP.
pub fn optimize(shader: &mut Shader) -> usize {
    let mut removed = 0;
    let mut uses = vec![0u32; shader.ntmp as usize];
    for _ in 0..PASSES {
        count_uses(shader, &mut uses);
        let mut changed = false;
        for ir in shader.ir.iter_mut() {
            let removable = ir.info().is_some_and(|info| info.removable);
            let dead = usize::try_from(ir.dst)
                .ok()
                .and_then(|d| uses.get(d))
                .is_some_and(|&u| u == 0);
            if removable && dead {
                ir.op = Op::Nop.code();
                removed += 1;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    removed
}

/// Count, per temporary, the reads of every live (non-NOP) instruction into `uses`
/// (indexed by temporary; reads outside it are ignored): every column a MULMV/MULMM
/// reads and a destination the instruction keeps lanes of count
/// ([`Ir::reads`](super::Ir::reads)).
/// Shared by the optimizer and the TGSI emitter, which drops loads nobody reads.
pub fn count_uses(shader: &Shader, uses: &mut [u32]) {
    uses.iter_mut().for_each(|u| *u = 0);
    for ir in shader.ir.iter().filter(|i| i.op != Op::Nop.code()) {
        for t in ir.reads() {
            if let Some(u) = usize::try_from(t).ok().and_then(|t| uses.get_mut(t)) {
                *u += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Interface, Ir, Limits, Stage, Type};
    use super::*;

    fn shader(ir: Vec<Ir>) -> Shader {
        Shader {
            name: "t".into(),
            stage: Stage::Fragment,
            limits: Limits::SEED,
            ir,
            imm: vec![1.0; 8],
            ntmp: 10,
            interface: Interface::default(),
        }
    }

    fn ops(s: &Shader) -> Vec<Op> {
        s.ir.iter().map(|i| i.opcode().unwrap()).collect()
    }

    #[test]
    fn dead_chains_are_removed_across_passes() {
        // %0 = const; %1 = mov %0; %2 = add %1 %1; %3 = mul %2 %2 — nothing stored.
        let mut s = shader(vec![
            Ir::new(Op::Const, Type::Float).dst(0).aux(0).ncomp(1),
            Ir::new(Op::Mov, Type::Float).dst(1).a(0).ncomp(1),
            Ir::new(Op::Add, Type::Float).dst(2).a(1).b(1).ncomp(1),
            Ir::new(Op::Mul, Type::Float).dst(3).a(2).b(2).ncomp(1),
            Ir::new(Op::Const, Type::Vec4).dst(4).aux(4).ncomp(4),
            Ir::new(Op::StoreColor, Type::Vec4).a(4),
        ]);
        assert_eq!(optimize(&mut s), 4);
        assert_eq!(
            ops(&s),
            vec![
                Op::Nop,
                Op::Nop,
                Op::Nop,
                Op::Nop,
                Op::Const,
                Op::StoreColor
            ]
        );
    }

    #[test]
    fn setlane_keeps_the_earlier_value_of_its_destination() {
        // %5 = const (1,1,1,1); %5.y = %6.x; store %5 — the const must survive.
        let mut s = shader(vec![
            Ir::new(Op::Const, Type::Vec4).dst(5).aux(0).ncomp(4),
            Ir::new(Op::Const, Type::Float).dst(6).aux(4).ncomp(1),
            Ir::new(Op::SetLane, Type::Vec4).dst(5).a(6).aux(1).aux2(0),
            Ir::new(Op::StoreColor, Type::Vec4).a(5),
        ]);
        assert_eq!(optimize(&mut s), 0);
        assert_eq!(ops(&s)[0], Op::Const);
    }

    #[test]
    fn every_matrix_column_counts_as_a_use() {
        // Columns %1..%4 built by MOVs, then mul_mv reads all four
        // (docs/csir-original.md B §10.2).
        let mut ir = vec![Ir::new(Op::Const, Type::Vec4).dst(0).aux(0).ncomp(4)];
        for c in 1..=4 {
            ir.push(Ir::new(Op::Mov, Type::Vec4).dst(c).a(0).ncomp(4));
        }
        ir.push(
            Ir::new(Op::MulMv, Type::Vec4)
                .dst(5)
                .a(1)
                .b(0)
                .aux(4)
                .ncomp(4),
        );
        ir.push(Ir::new(Op::StoreColor, Type::Vec4).a(5));
        let mut s = shader(ir);
        assert_eq!(optimize(&mut s), 0);
    }
}
