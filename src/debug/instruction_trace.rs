//! The CSIR instruction trace of one invocation: an [`Observer`] on the scalar
//! interpreter ([`Machine::run_observed`]) that records every executed instruction as
//! the IR dump prints it, with the values it produced, and every IF/ELSE/ENDIF with the
//! branch taken.
//!
//! The interpreter reports IF and ELSE decisions but not ENDIF (it has nothing to
//! decide); the recorder finds, among the instructions between two reports, the
//! ENDIFs whose IF (the verifier's [`IfTable`]) was reported, so the trace shows
//! every control-flow marker of the running path and none of the skipped ones.

use super::named_value::LaneValue;
use csir::exec::{ExecError, Inputs, Machine, Observer, Outputs, QuadMachine, Step};
use csir::ir::{Control, Effect, IfTable, dump_instruction};
use csir::{Ir, Shader, Type};
use serde::Serialize;

/// A control-flow marker on the executed path and what it decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Flow {
    /// An IF: whether its THEN branch runs (lane 0 of the condition is non-zero).
    If {
        /// THEN runs.
        taken: bool,
    },
    /// An ELSE: whether its ELSE branch runs.
    Else {
        /// ELSE runs.
        taken: bool,
    },
    /// An ENDIF closing the IF at `if_index`, with the branch that ran.
    Endif {
        /// Instruction index of the matching IF.
        if_index: usize,
        /// Which branch ran.
        ran: Branch,
    },
}

/// Which branch of an IF ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Branch {
    /// The THEN branch.
    Then,
    /// The ELSE branch.
    Else,
    /// Neither: the condition was false and there is no ELSE.
    Neither,
}

/// One executed instruction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TracedInstruction {
    /// Index in the shader's instruction list (as in `compile --ir`, counting NOPs).
    pub index: usize,
    /// The instruction as the IR dump prints it (`%5 = dot %3 %4`).
    pub instruction: String,
    /// Every temporary it wrote, after it ran (one for most instructions, one per
    /// column for a matrix LOAD_UNI or MUL_MM), lane by lane: `None` for a lane the
    /// instruction did not write ([`Ir::written_lanes`]: `pow` writes only x, `mov`
    /// with `ncomp` 2 only x and y), so no lane shows a value an earlier instruction
    /// left. For STORE_POS, STORE_VAR and STORE_COLOR the four lanes stored. Empty for
    /// control flow and DISCARD. Each lane is read as the record's `ty` says
    /// ([`LaneValue::read`]: an `int`/`uint` result of the extended profile as its
    /// integer). In JSON a lane not written is `null` and a NaN or an infinity is
    /// `"NaN"`, `"inf"` or `"-inf"`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<[Option<LaneValue>; 4]>,
    /// For IF, ELSE and ENDIF: the branch decision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flow: Option<Flow>,
}

/// An IF that was reported and not yet closed.
#[derive(Clone, Copy, Debug)]
struct OpenIf {
    index: usize,
    then_taken: bool,
    else_taken: Option<bool>,
}

impl OpenIf {
    fn branch(self) -> Branch {
        match (self.then_taken, self.else_taken) {
            (true, _) => Branch::Then,
            (false, Some(true)) => Branch::Else,
            (false, _) => Branch::Neither,
        }
    }
}

/// Records an invocation instruction by instruction (see the module docs).
#[derive(Clone, Debug)]
pub struct InstructionRecorder<'s> {
    ir: &'s [Ir],
    /// Registers hold integers as 32-bit patterns (the extended profile).
    patterns: bool,
    /// The verifier's IF/ELSE/ENDIF partners of the shader.
    ifs: &'s IfTable,
    /// The first instruction not yet accounted for.
    next: usize,
    /// Reported IFs not yet closed, innermost last.
    open: Vec<OpenIf>,
    steps: Vec<TracedInstruction>,
}

impl<'s> InstructionRecorder<'s> {
    /// A recorder for one run of `shader`, whose IF/ELSE/ENDIF partners are `ifs` (the
    /// table [`verify`](csir::ir::verify) returned for it: [`Machine::info`]).
    pub fn new(shader: &'s Shader, ifs: &'s IfTable) -> Self {
        InstructionRecorder {
            ir: &shader.ir,
            patterns: shader.limits.extended_ops(),
            ifs,
            next: 0,
            open: Vec::new(),
            steps: Vec::new(),
        }
    }

    /// The trace, once the run is over. `ran_to_end` is false when a DISCARD or a
    /// fault stopped the run (the ENDIFs after it did not run).
    pub fn finish(mut self, ran_to_end: bool) -> Vec<TracedInstruction> {
        if ran_to_end {
            self.catch_up(self.ir.len());
        }
        self.steps
    }

    /// Account for the instructions before `index` that were not reported: an ENDIF
    /// whose IF was reported closes it (it is the innermost open one) and is recorded;
    /// the markers of IFs inside skipped code are not.
    fn catch_up(&mut self, index: usize) {
        let end = index.min(self.ir.len());
        for i in self.next..end {
            let Some(block) = self.ifs.block_at(i) else {
                continue;
            };
            if block.endif_at == i
                && let Some(open) = self.open.pop_if(|open| open.index == block.if_at)
            {
                self.steps.push(TracedInstruction {
                    index: i,
                    instruction: dump_instruction(&self.ir[i]),
                    values: Vec::new(),
                    flow: Some(Flow::Endif {
                        if_index: open.index,
                        ran: open.branch(),
                    }),
                });
            }
        }
        self.next = self.next.max(index.saturating_add(1));
    }
}

impl Observer for InstructionRecorder<'_> {
    fn step(&mut self, step: Step<'_>) {
        self.catch_up(step.index);
        self.steps.push(TracedInstruction {
            index: step.index,
            instruction: dump_instruction(step.ir),
            values: produced_values(&step, self.patterns),
            flow: None,
        });
    }

    fn branch(&mut self, index: usize, ir: &Ir, taken: bool) {
        self.catch_up(index);
        let control = ir.info().map(|info| info.effect);
        let flow = if control == Some(Effect::Control(Control::If)) {
            self.open.push(OpenIf {
                index,
                then_taken: taken,
                else_taken: None,
            });
            Flow::If { taken }
        } else {
            if let Some(open) = self.open.last_mut() {
                open.else_taken = Some(taken);
            }
            Flow::Else { taken }
        };
        self.steps.push(TracedInstruction {
            index,
            instruction: dump_instruction(ir),
            values: Vec::new(),
            flow: Some(flow),
        });
    }
}

/// What `step` produced: the lanes it wrote of the temporaries it wrote, or the value
/// a store stored, read as the record's type (`patterns`: the extended profile's
/// integers are 32-bit patterns).
fn produced_values(step: &Step<'_>, patterns: bool) -> Vec<[Option<LaneValue>; 4]> {
    let ty = Type::from_code(step.ir.ty).unwrap_or(Type::Float);
    let lanes = |t: i32, mask: u8| {
        let value = usize::try_from(t).ok().and_then(|t| step.temps.get(t))?;
        Some(std::array::from_fn(|lane| {
            (mask & (1 << lane) != 0).then(|| LaneValue::read(value[lane], ty, patterns))
        }))
    };
    match step.ir.writes() {
        Some((first, count)) => {
            let mask = step.ir.written_lanes();
            (0..count as i32)
                .filter_map(|k| lanes(first as i32 + k, mask))
                .collect()
        }
        None => match step.ir.info().map(|info| info.effect) {
            Some(Effect::Store(_)) => lanes(step.ir.a as i32, 0b1111).into_iter().collect(),
            _ => Vec::new(),
        },
    }
}

/// One invocation of `shader`, run through the scalar interpreter with an
/// [`InstructionRecorder`] watching.
#[derive(Clone, Debug)]
pub struct RecordedRun {
    /// What the invocation wrote.
    pub outputs: Outputs,
    /// Every executed instruction.
    pub instructions: Vec<TracedInstruction>,
    /// Why the interpreter stopped early, if it did (never for a verified shader).
    pub fault: Option<String>,
}

/// Run `shader` once on `inputs` with the instruction trace on.
///
/// The outputs are those [`Machine::run`] gives for the same inputs: the observer only
/// watches. A shader that does not verify, or a fault of the interpreter's defensive
/// checks, is reported in [`RecordedRun::fault`] rather than as a panic.
pub fn run_recorded(shader: &Shader, inputs: &Inputs<'_>) -> RecordedRun {
    match Machine::new(shader) {
        Ok(mut machine) => record_run(&mut machine, inputs),
        Err(e) => RecordedRun {
            outputs: Outputs::INITIAL,
            instructions: Vec::new(),
            fault: Some(format!("the shader does not verify: {e}")),
        },
    }
}

/// [`run_recorded`] on a machine made already (its shader verified).
pub fn record_run(machine: &mut Machine<'_>, inputs: &Inputs<'_>) -> RecordedRun {
    let mut outputs = Outputs::INITIAL;
    let ifs = machine.info().ifs.clone();
    let mut recorder = InstructionRecorder::new(machine.shader(), &ifs);
    let result = machine.run_observed(inputs, &mut outputs, &mut recorder);
    let fault = result.err().map(|e: ExecError| e.to_string());
    let ran_to_end = fault.is_none() && !outputs.discarded;
    RecordedRun {
        outputs,
        instructions: recorder.finish(ran_to_end),
        fault,
    }
}

/// [`record_run`] for lane `watched` of a 2×2 quad ([`QuadMachine`]: a shader that
/// takes derivatives runs its quad's four invocations in lock step). A DISCARD does
/// not stop the lane there (it keeps computing for its neighbours' derivatives), so
/// the trace runs to the end.
pub fn record_quad_run(
    machine: &mut QuadMachine<'_>,
    inputs: &[Inputs<'_>; 4],
    watched: usize,
) -> RecordedRun {
    let mut outputs: [Outputs; 4] = std::array::from_fn(|_| Outputs::INITIAL);
    let ifs = machine.info().ifs.clone();
    let mut recorder = InstructionRecorder::new(machine.shader(), &ifs);
    let result = machine.run_observed(inputs, &mut outputs, watched, &mut recorder);
    let fault = result.err().map(|e: ExecError| e.to_string());
    let ran_to_end = fault.is_none();
    RecordedRun {
        outputs: outputs[watched].clone(),
        instructions: recorder.finish(ran_to_end),
        fault,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csir::{Limits, Op, Stage};

    fn fragment(source: &str) -> Shader {
        csir::compile(source, "t.frag", Stage::Fragment, &Limits::default())
            .unwrap_or_else(|e| panic!("{e}"))
    }

    const NESTED: &str = "#version 330 core
uniform float uA;
uniform float uB;
out vec4 color;
void main() {
    vec4 c = vec4(0.0);
    if (uA > 0.5) {
        if (uB > 0.5) { c = vec4(1.0); } else { c = vec4(0.5); }
    } else {
        if (uB > 0.5) { c = vec4(0.25); }
        c.g = 0.75;
    }
    color = c;
}
";

    fn flows(run: &RecordedRun) -> Vec<Flow> {
        run.instructions.iter().filter_map(|s| s.flow).collect()
    }

    #[test]
    fn every_marker_on_the_running_path_is_shown_with_its_branch() {
        let shader = fragment(NESTED);
        let uniforms = [[0.0; 4], [1.0, 0.0, 0.0, 0.0]]; // uA = 0, uB = 1
        let run = run_recorded(
            &shader,
            &Inputs {
                uniforms: &uniforms,
                ..Inputs::default()
            },
        );
        assert_eq!(run.fault, None);
        assert_eq!(run.outputs.color, [0.25, 0.75, 0.25, 0.25]);
        let flows = flows(&run);
        let kinds: Vec<&str> = flows
            .iter()
            .map(|f| match f {
                Flow::If { taken: true } => "if+",
                Flow::If { taken: false } => "if-",
                Flow::Else { taken: true } => "else+",
                Flow::Else { taken: false } => "else-",
                Flow::Endif {
                    ran: Branch::Then, ..
                } => "endif:then",
                Flow::Endif {
                    ran: Branch::Else, ..
                } => "endif:else",
                Flow::Endif {
                    ran: Branch::Neither,
                    ..
                } => "endif:neither",
            })
            .collect();
        // The outer IF is false; its skipped THEN holds a whole IF/ELSE/ENDIF that
        // must not appear; inside the ELSE, the inner IF is true.
        assert_eq!(
            kinds,
            ["if-", "else+", "if+", "endif:then", "endif:else"],
            "{:#?}",
            run.instructions
        );
        // Indices increase and each ENDIF names its IF.
        assert!(run.instructions.windows(2).all(|w| w[0].index < w[1].index));
        let ifs: Vec<usize> = run
            .instructions
            .iter()
            .filter(|s| matches!(s.flow, Some(Flow::If { .. })))
            .map(|s| s.index)
            .collect();
        let closes: Vec<usize> = flows
            .iter()
            .filter_map(|f| match f {
                Flow::Endif { if_index, .. } => Some(*if_index),
                _ => None,
            })
            .collect();
        assert_eq!(closes, [ifs[1], ifs[0]]);
    }

    #[test]
    fn values_are_the_destination_after_the_instruction_and_what_a_store_stored() {
        let shader = fragment(NESTED);
        let uniforms = [[1.0, 0.0, 0.0, 0.0], [0.0; 4]]; // uA = 1, uB = 0
        let inputs = Inputs {
            uniforms: &uniforms,
            ..Inputs::default()
        };
        let run = run_recorded(&shader, &inputs);
        let mut plain = Outputs::INITIAL;
        Machine::new(&shader)
            .unwrap()
            .run(&inputs, &mut plain)
            .unwrap();
        assert_eq!(run.outputs, plain, "the observer only watches");
        let store = run
            .instructions
            .iter()
            .find(|s| s.instruction.starts_with("store_color"))
            .expect("a colour store ran");
        assert_eq!(store.values, vec![[Some(LaneValue::Float(0.5)); 4]]);
        for s in &run.instructions {
            let op = s
                .instruction
                .split_whitespace()
                .find(|w| !w.starts_with('%'));
            let has_dst = s.instruction.starts_with('%');
            assert_eq!(
                !s.values.is_empty(),
                has_dst || s.instruction.starts_with("store"),
                "{op:?}"
            );
        }
    }

    #[test]
    fn only_the_lanes_an_instruction_wrote_are_shown() {
        let shader = fragment(
            "#version 330 core
uniform vec4 uV;
out vec4 color;
void main() {
    vec4 v = uV * 3.0;
    v.y = pow(uV.x, uV.w);
    color = v;
}
",
        );
        let uniforms = [[2.0, 5.0, 7.0, 3.0]];
        let run = run_recorded(
            &shader,
            &Inputs {
                uniforms: &uniforms,
                ..Inputs::default()
            },
        );
        let mut shown = 0;
        for s in &run.instructions {
            let ir = &shader.ir[s.index];
            let mask = match ir.opcode() {
                Some(Op::StoreColor) => 0b1111,
                _ => ir.written_lanes(),
            };
            for lanes in &s.values {
                for (lane, value) in lanes.iter().enumerate() {
                    assert_eq!(value.is_some(), mask & (1 << lane) != 0, "{s:?}");
                }
                shown += 1;
            }
        }
        assert!(shown > 3);
        let pow = run
            .instructions
            .iter()
            .find(|s| s.instruction.contains(" pow "))
            .expect("a pow ran");
        assert_eq!(
            pow.values,
            vec![[Some(LaneValue::Float(8.0)), None, None, None]]
        );
        assert_eq!(run.outputs.color, [6.0, 8.0, 21.0, 9.0]);
    }

    #[test]
    fn a_discard_ends_the_trace() {
        let shader = fragment(
            "#version 330 core
uniform float uA;
out vec4 color;
void main() {
    if (uA > 0.5) { discard; }
    color = vec4(1.0);
}
",
        );
        let uniforms = [[1.0, 0.0, 0.0, 0.0]];
        let run = run_recorded(
            &shader,
            &Inputs {
                uniforms: &uniforms,
                ..Inputs::default()
            },
        );
        assert!(run.outputs.discarded);
        let last = run.instructions.last().unwrap();
        assert_eq!(last.instruction, "discard");
        assert!(
            !run.instructions
                .iter()
                .any(|s| matches!(s.flow, Some(Flow::Endif { .. })))
        );
    }
}
