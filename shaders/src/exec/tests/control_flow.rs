//! IF/ELSE/ENDIF, DISCARD and the observer hooks (docs/csir.md "IF semantics", "Discard";
//! docs/csir-original.md A1: IF tests lane 0 against zero, NaN is true).

use super::*;
use crate::exec::{Observer, Step};

/// Records what the interpreter reports.
#[derive(Default)]
struct Trace {
    steps: Vec<(usize, u8, Option<[f32; 4]>)>,
    branches: Vec<(usize, bool)>,
}

impl Observer for Trace {
    fn step(&mut self, step: Step<'_>) {
        self.steps
            .push((step.index, step.ir.op, step.destination()));
    }
    fn branch(&mut self, index: usize, _ir: &Ir, taken: bool) {
        self.branches.push((index, taken));
    }
}

fn set_lane(b: &mut Build, dst: i16, lane: i16, src: i16) {
    b.emit(
        Ir::new(Op::SetLane, Type::Vec4)
            .dst(dst)
            .a(src)
            .aux(lane)
            .aux2(0),
    );
}

/// ```text
/// if (u0.x) { out.x = 1; if (u1.x) out.y = 1; else out.z = 1; }
/// else      { if (u1.x) out.w = 1; else out.w = 2; }
/// color = out;
/// ```
/// Returns the shader and the indices of its six IF/ELSE records, in order.
fn nested() -> (Shader, [usize; 6]) {
    let mut b = Build::new(Stage::Fragment);
    let c = b.load_uni(0, 2);
    let (c1, c2) = (c, c + 1);
    let one = b.konst(&[1.0]);
    let two = b.konst(&[2.0]);
    let out = b.konst(&[0.0; 4]);
    let mut at = [0; 6];
    let mut mark = |b: &mut Build, k: usize| at[k] = b.b.ir().len();
    mark(&mut b, 0);
    b.emit(Ir::new(Op::If, Type::None).a(c1));
    set_lane(&mut b, out, 0, one);
    mark(&mut b, 1);
    b.emit(Ir::new(Op::If, Type::None).a(c2));
    set_lane(&mut b, out, 1, one);
    mark(&mut b, 2);
    b.emit(Ir::new(Op::Else, Type::None));
    set_lane(&mut b, out, 2, one);
    b.emit(Ir::new(Op::EndIf, Type::None));
    mark(&mut b, 3);
    b.emit(Ir::new(Op::Else, Type::None));
    mark(&mut b, 4);
    b.emit(Ir::new(Op::If, Type::None).a(c2));
    set_lane(&mut b, out, 3, one);
    mark(&mut b, 5);
    b.emit(Ir::new(Op::Else, Type::None));
    set_lane(&mut b, out, 3, two);
    b.emit(Ir::new(Op::EndIf, Type::None));
    b.emit(Ir::new(Op::EndIf, Type::None));
    b.emit(Ir::new(Op::StoreColor, Type::Vec4).a(out));
    (b.finish(), at)
}

fn run_nested(c1: [f32; 4], c2: f32) -> (Outputs, Trace) {
    let (shader, _) = nested();
    let uniforms = [c1, [c2, 0.0, 0.0, 0.0]];
    let mut machine = Machine::new(&shader).unwrap();
    let mut out = Outputs::default();
    let mut trace = Trace::default();
    machine
        .run_observed(&with_uniforms(&uniforms), &mut out, &mut trace)
        .unwrap();
    (out, trace)
}

#[test]
fn nested_if_else_runs_exactly_one_path() {
    let t = [1.0, 0.0, 0.0, 0.0];
    let f = [0.0, 1.0, 1.0, 1.0]; // only lane 0 counts
    assert_eq!(run_nested(t, 1.0).0.color, [1.0, 1.0, 0.0, 0.0]);
    assert_eq!(run_nested(t, 0.0).0.color, [1.0, 0.0, 1.0, 0.0]);
    assert_eq!(run_nested(f, 1.0).0.color, [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(run_nested(f, 0.0).0.color, [0.0, 0.0, 0.0, 2.0]);
    // Any non-zero lane 0 is true, NaN included; −0 is zero.
    assert_eq!(
        run_nested([-3.0, 0.0, 0.0, 0.0], 0.0).0.color,
        [1.0, 0.0, 1.0, 0.0]
    );
    assert_eq!(run_nested([f32::NAN; 4], 1.0).0.color, [1.0, 1.0, 0.0, 0.0]);
    assert_eq!(run_nested([-0.0; 4], 1.0).0.color, [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn observer_sees_branch_decisions_and_steps() {
    let (_, at) = nested();
    let (_, trace) = run_nested([0.0; 4], 1.0);
    // The inner IF/ELSE of the skipped THEN branch are not reported.
    assert_eq!(
        trace.branches,
        vec![(at[0], false), (at[3], true), (at[4], true), (at[5], false)]
    );
    let (_, trace) = run_nested([f32::NAN; 4], 0.0);
    assert_eq!(
        trace.branches,
        vec![(at[0], true), (at[1], false), (at[2], true), (at[3], false)]
    );
    // Steps: LOAD_UNI, 3 CONSTs, then SETLANE x, SETLANE z, STORE_COLOR.
    let ops: Vec<u8> = trace.steps.iter().map(|s| s.1).collect();
    let code = |op: Op| op.code();
    assert_eq!(
        ops,
        vec![
            code(Op::LoadUni),
            code(Op::Const),
            code(Op::Const),
            code(Op::Const),
            code(Op::SetLane),
            code(Op::SetLane),
            code(Op::StoreColor),
        ]
    );
    assert_eq!(trace.steps[4].2, Some([1.0, 0.0, 0.0, 0.0]));
    assert_eq!(trace.steps[5].2, Some([1.0, 0.0, 1.0, 0.0]));
    assert_eq!(trace.steps[6].2, None);
}

/// ```text
/// color = (0.25, 0.5, 0.75, 1); if (u0.x) { if (u1.x) discard; } color = (1, 1, 1, 1);
/// ```
fn discard_shader() -> (Shader, usize) {
    let mut b = Build::new(Stage::Fragment);
    let c = b.load_uni(0, 2);
    let first = b.konst(&[0.25, 0.5, 0.75, 1.0]);
    b.emit(Ir::new(Op::StoreColor, Type::Vec4).a(first));
    b.emit(Ir::new(Op::If, Type::None).a(c));
    b.emit(Ir::new(Op::If, Type::None).a(c + 1));
    let discard_at = b.b.ir().len();
    b.emit(Ir::new(Op::Discard, Type::None));
    b.emit(Ir::new(Op::EndIf, Type::None));
    b.emit(Ir::new(Op::EndIf, Type::None));
    let second = b.konst(&[1.0; 4]);
    b.emit(Ir::new(Op::StoreColor, Type::Vec4).a(second));
    (b.finish(), discard_at)
}

#[test]
fn discard_in_a_nested_branch_stops_and_reports() {
    let (shader, discard_at) = discard_shader();
    let mut machine = Machine::new(&shader).unwrap();
    let mut out = Outputs::default();
    let mut trace = Trace::default();
    let taken = [[1.0; 4], [1.0; 4]];
    machine
        .run_observed(&with_uniforms(&taken), &mut out, &mut trace)
        .unwrap();
    assert!(out.discarded);
    assert_eq!(out.color, [0.25, 0.5, 0.75, 1.0]);
    assert_eq!(trace.steps.last().unwrap().0, discard_at);
    assert_eq!(trace.steps.last().unwrap().1, Op::Discard.code());

    // The same machine, inner condition false: no discard, and the flag is reset.
    let not_taken = [[1.0; 4], [0.0; 4]];
    machine.run(&with_uniforms(&not_taken), &mut out).unwrap();
    assert!(!out.discarded);
    assert_eq!(out.color, [1.0; 4]);
}

#[test]
fn thirty_two_nested_ifs_run() {
    let mut b = Build::new(Stage::Fragment);
    let one = b.konst(&[1.0]);
    for _ in 0..32 {
        b.emit(Ir::new(Op::If, Type::None).a(one));
    }
    b.emit(Ir::new(Op::StoreColor, Type::Vec4).a(one));
    for _ in 0..32 {
        b.emit(Ir::new(Op::EndIf, Type::None));
    }
    let (out, _) = run(&b.finish(), &Inputs::default());
    assert_eq!(out.color, [1.0, 0.0, 0.0, 0.0]);
}

#[test]
fn every_run_starts_from_zeroed_temporaries_and_initial_outputs() {
    // if (u0.x) t = (5, 5, 5, 5); color = t; (t is never written when u0.x == 0)
    let mut b = Build::new(Stage::Fragment);
    let c = b.load_uni(0, 1);
    let t = b.temp();
    b.emit(Ir::new(Op::If, Type::None).a(c));
    b.konst_into(t, &[5.0; 4]);
    b.emit(Ir::new(Op::StoreColor, Type::Vec4).a(t));
    b.emit(Ir::new(Op::EndIf, Type::None));
    let shader = b.finish();
    let mut machine = Machine::new(&shader).unwrap();
    let mut out = Outputs::default();
    for (cond, want) in [(1.0, [5.0; 4]), (0.0, [0.0; 4])] {
        let uniforms = [[cond, 0.0, 0.0, 0.0]];
        machine.run(&with_uniforms(&uniforms), &mut out).unwrap();
        assert_eq!(out.color, want);
        assert_eq!(machine.temps()[t as usize], want);
    }
}
