//! The temporaries a shader may read before writing, and the outputs it may leave
//! unwritten, from the lanes each instruction reads and writes as its opcode's
//! description gives them ([`Ir::sources`], [`Ir::destination`]: the interpreter's
//! rules) and the verifier's [`IfTable`].
//!
//! The interpreter starts with every temporary zero and every output at its initial
//! value; virglrenderer declares TGSI temporaries as GLSL `vec4 temp[N]` arrays and
//! outputs as GLSL `out` variables, which start **undefined**. So a lane that CSIR may
//! read before any write (an uninitialised local reads as zero), and an output that
//! some run may not write, must be initialised explicitly in the TGSI (the emitter's
//! module docs, `tgsi/emit.rs`). Masks are bit `i` = lane `i`.

use crate::ir::{Control, Effect, IfTable, Ir, Shader};

/// What a shader may leave unwritten where it is read or where it ends.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unwritten {
    /// Temporaries some lane of which may be read before any write.
    pub temps: Vec<u16>,
    /// Outputs (indices as given by the `output` callback of [`unwritten`]) that some
    /// run reaching the end may not have written.
    pub outputs: Vec<u16>,
}

/// Lanes certainly written so far, per temporary and per output.
#[derive(Clone)]
struct Written {
    temps: Vec<u8>,
    outputs: Vec<u8>,
}

impl Written {
    /// After a DISCARD nothing runs, so everything counts as written there.
    fn unreachable(&mut self) {
        self.temps.iter_mut().for_each(|m| *m = 0b1111);
        self.outputs.iter_mut().for_each(|m| *m = 0b1111);
    }

    /// Written on both paths.
    fn meet(&mut self, other: &Written) {
        for (a, b) in self.temps.iter_mut().zip(&other.temps) {
            *a &= b;
        }
        for (a, b) in self.outputs.iter_mut().zip(&other.outputs) {
            *a &= b;
        }
    }
}

/// Definite-initialisation analysis over the structured control flow: a lane counts
/// as written after an instruction that writes it on every path to the current point
/// (an IF saves the state, its ELSE restarts from it, its ENDIF keeps what both
/// branches wrote, DISCARD ends its path). There are no loops or jumps. `ifs` is the
/// verifier's table for `shader`.
///
/// `emitted(ir)` says whether the instruction is emitted at all (dropped loads write
/// nothing, but nothing reads them either); `output(ir)` gives the output a store
/// writes; `outputs` lists every output whose final state is wanted.
pub fn unwritten(
    shader: &Shader,
    ifs: &IfTable,
    emitted: impl Fn(&Ir) -> bool,
    output: impl Fn(&Ir) -> Option<u16>,
    outputs: &[u16],
) -> Unwritten {
    let n = shader.ntmp as usize;
    let nout = outputs.iter().map(|&o| o as usize + 1).max().unwrap_or(0);
    let mut state = Written {
        temps: vec![0; n],
        outputs: vec![0; nout],
    };
    // Per IF block: the state at the IF, and the state at the end of THEN once its
    // ELSE was reached.
    let mut at_if: Vec<Option<Written>> = vec![None; ifs.blocks().len()];
    let mut then_end: Vec<Option<Written>> = vec![None; ifs.blocks().len()];
    let mut needs_zero = vec![false; n];
    for (index, ir) in shader.ir.iter().enumerate() {
        if !emitted(ir) {
            continue;
        }
        for read in ir.sources().into_iter().flatten() {
            for t in read.temps() {
                if let Ok(t) = usize::try_from(t)
                    && t < n
                    && read.lanes & !state.temps[t] != 0
                {
                    needs_zero[t] = true;
                }
            }
        }
        let block = ifs.block_index_at(index);
        match ir.info().map(|info| info.effect) {
            Some(Effect::Control(Control::If)) => {
                if let Some(k) = block {
                    at_if[k] = Some(state.clone());
                }
            }
            Some(Effect::Control(Control::Else)) => {
                if let Some(k) = block
                    && let Some(saved) = at_if[k].clone()
                {
                    then_end[k] = Some(std::mem::replace(&mut state, saved));
                }
            }
            Some(Effect::Control(Control::EndIf)) => {
                if let Some(k) = block {
                    let other = then_end[k].take().or_else(|| at_if[k].take());
                    if let Some(other) = other {
                        state.meet(&other);
                    }
                }
            }
            Some(Effect::Control(Control::Discard)) => state.unreachable(),
            _ => {}
        }
        if let Some(out) = output(ir).and_then(|o| state.outputs.get_mut(o as usize)) {
            *out = 0b1111;
        }
        if let Some(written) = ir.destination() {
            for t in written.temps() {
                if let Some(w) = usize::try_from(t).ok().and_then(|t| state.temps.get_mut(t)) {
                    *w |= written.lanes;
                }
            }
        }
    }
    Unwritten {
        temps: (0..n as u16).filter(|&t| needs_zero[t as usize]).collect(),
        outputs: outputs
            .iter()
            .copied()
            .filter(|&o| state.outputs[o as usize] != 0b1111)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Interface, Limits, Op, Stage, Type, verify};

    /// `unwritten` with the table the verifier builds for `s`.
    fn unwritten_in(s: &Shader, output: impl Fn(&Ir) -> Option<u16>, outputs: &[u16]) -> Unwritten {
        let info = verify(s).expect("test shaders verify");
        unwritten(s, &info.ifs, |_| true, output, outputs)
    }

    fn shader(ir: Vec<Ir>, ntmp: u16) -> Shader {
        Shader {
            name: "t".into(),
            stage: Stage::Fragment,
            limits: Limits::SEED,
            ir,
            imm: vec![0.0; 4],
            ntmp,
            interface: Interface::default(),
        }
    }

    #[test]
    fn scalar_results_read_through_lane_x_need_no_zeroing() {
        let s = shader(
            vec![
                Ir::new(Op::Const, Type::Vec4).dst(0).aux(0).ncomp(4),
                Ir::new(Op::Dot, Type::Float).dst(1).a(0).b(0).aux(3),
                Ir::new(Op::Rsq, Type::Float).dst(2).a(1),
                Ir::new(Op::Swz, Type::Vec3).dst(3).a(2).ncomp(3),
                Ir::new(Op::StoreColor, Type::Vec4).a(3),
            ],
            4,
        );
        assert_eq!(unwritten_in(&s, |_| None, &[]), Unwritten::default());
    }

    fn colour(ir: &Ir) -> Option<u16> {
        (ir.opcode() == Some(Op::StoreColor)).then_some(0)
    }

    #[test]
    fn reads_of_unwritten_lanes_or_branch_only_writes_need_zeroing() {
        let s = shader(
            vec![
                // %0 is never written; %1 gets lane x only; %2 only inside a branch.
                Ir::new(Op::SetLane, Type::Vec4).dst(1).a(0).aux(0).aux2(0),
                Ir::new(Op::If, Type::None).a(1),
                Ir::new(Op::Const, Type::Vec4).dst(2).aux(0).ncomp(4),
                Ir::new(Op::EndIf, Type::None),
                Ir::new(Op::StoreColor, Type::Vec4).a(1),
                Ir::new(Op::StoreColor, Type::Vec4).a(2),
            ],
            3,
        );
        let found = unwritten_in(&s, colour, &[0]);
        assert_eq!(found.temps, vec![0, 1, 2]);
        assert_eq!(found.outputs, Vec::<u16>::new());
    }

    #[test]
    fn writes_on_both_branches_or_before_a_discard_count() {
        let s = shader(
            vec![
                Ir::new(Op::Const, Type::Vec4).dst(0).aux(0).ncomp(4),
                Ir::new(Op::If, Type::None).a(0),
                Ir::new(Op::Const, Type::Vec4).dst(1).aux(0).ncomp(4),
                Ir::new(Op::Mov, Type::Vec4).dst(2).a(1).ncomp(4),
                Ir::new(Op::StoreColor, Type::Vec4).a(2),
                Ir::new(Op::Else, Type::None),
                Ir::new(Op::Discard, Type::None),
                Ir::new(Op::EndIf, Type::None),
                // %1 and %2 are written on every path that gets here, and so is the colour.
                Ir::new(Op::Add, Type::Vec4).dst(2).a(1).b(2).ncomp(4),
                Ir::new(Op::If, Type::None).a(0),
                Ir::new(Op::Const, Type::Vec4).dst(3).aux(0).ncomp(4),
                Ir::new(Op::EndIf, Type::None),
                Ir::new(Op::StoreColor, Type::Vec4).a(3),
            ],
            4,
        );
        assert_eq!(unwritten_in(&s, colour, &[0]).temps, vec![3]);
        // Colour stored in THEN, ELSE discards: written whenever the end is reached.
        let discard_else = shader(s.ir[..8].to_vec(), 4);
        assert!(unwritten_in(&discard_else, colour, &[0]).outputs.is_empty());
        // Colour stored in THEN only: the default is needed.
        let mut then_only = s.ir[..5].to_vec();
        then_only.push(Ir::new(Op::EndIf, Type::None));
        let then_only = shader(then_only, 4);
        assert_eq!(unwritten_in(&then_only, colour, &[0]).outputs, vec![0]);
    }
}
