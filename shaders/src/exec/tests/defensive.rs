//! Unverified IR never makes the interpreter panic or index out of bounds: it stops
//! with an [`ExecError`] (docs/csir.md "Execution versus verification").

use super::*;
use crate::exec::{ExecError, Fault, NearestClampTexture};
use proptest::prelude::*;

fn shader(stage: Stage, ir: Vec<Ir>, imm: Vec<f32>, ntmp: u16) -> Shader {
    Shader {
        name: "bad".into(),
        stage,
        limits: Limits::SEED,
        ir,
        imm,
        ntmp,
        interface: Interface::default(),
    }
}

fn fault_of(s: &Shader) -> Option<(usize, Fault)> {
    let mut out = Outputs::default();
    Machine::unverified(s)
        .run(&Inputs::default(), &mut out)
        .err()
        .map(|e| (e.index, e.fault))
}

fn i(op: Op) -> Ir {
    Ir::new(op, Type::Vec4)
}

#[test]
fn machine_new_verifies() {
    let s = shader(Stage::Fragment, vec![i(Op::Mov).dst(4).a(0)], vec![], 2);
    assert!(Machine::new(&s).is_err());
}

#[test]
fn bad_records_stop_with_a_fault() {
    let frag = |ir: Vec<Ir>| shader(Stage::Fragment, ir, vec![1.0, 2.0], 2);
    assert_eq!(
        fault_of(&frag(vec![i(Op::Nop), i(Op::Mov).dst(2).a(0).ncomp(4)])),
        Some((1, Fault::Temporary(2)))
    );
    assert_eq!(
        fault_of(&frag(vec![i(Op::Add).dst(0).a(-1).b(0)])),
        Some((0, Fault::Temporary(-1)))
    );
    assert_eq!(
        fault_of(&frag(vec![i(Op::Const).dst(0).aux(1).ncomp(2)])),
        Some((0, Fault::Immediate(2)))
    );
    assert_eq!(
        fault_of(&frag(vec![i(Op::Cmp).dst(0).a(0).b(1).aux(9)])),
        Some((0, Fault::CompareCode(9)))
    );
    assert_eq!(
        fault_of(&frag(vec![i(Op::Else)])),
        Some((0, Fault::Unbalanced))
    );
    assert_eq!(
        fault_of(&frag(vec![i(Op::EndIf)])),
        Some((0, Fault::Unbalanced))
    );
    assert_eq!(
        fault_of(&frag(vec![i(Op::If).a(0); 33])),
        Some((32, Fault::IfDepth(32)))
    );
    let mut unknown = i(Op::Nop);
    unknown.op = 99;
    assert_eq!(fault_of(&frag(vec![unknown])), Some((0, Fault::Opcode(99))));
    assert_eq!(
        fault_of(&frag(vec![i(Op::StoreVar).a(0).aux(32)])),
        Some((0, Fault::Slot(32)))
    );
    assert_eq!(
        fault_of(&frag(vec![i(Op::Sample).dst(0).a(0).aux(-1)])),
        Some((0, Fault::Slot(-1)))
    );
    assert_eq!(
        fault_of(&frag(vec![i(Op::MulMm).dst(0).a(0).b(0).aux(3)])),
        Some((0, Fault::Temporary(2)))
    );
    assert_eq!(
        fault_of(&frag(vec![i(Op::LoadUni).dst(1).aux(0).aux2(4)])),
        Some((0, Fault::Temporary(4)))
    );
}

#[test]
fn faults_keep_earlier_outputs_and_report_the_instruction() {
    let s = shader(
        Stage::Fragment,
        vec![
            i(Op::Const).dst(0).aux(0).ncomp(2),
            i(Op::StoreColor).a(0),
            i(Op::Mov).dst(9).a(0),
        ],
        vec![1.0, 2.0],
        1,
    );
    let mut out = Outputs::default();
    let err = Machine::unverified(&s)
        .run(&Inputs::default(), &mut out)
        .unwrap_err();
    assert_eq!(
        err,
        ExecError {
            index: 2,
            op: Op::Mov.code(),
            fault: Fault::Temporary(9)
        }
    );
    assert_eq!(
        err.to_string(),
        "temporary 9 is out of range (instruction 2, opcode 2)"
    );
    assert_eq!(out.color, [1.0, 2.0, 0.0, 0.0]);
}

#[test]
fn a_zero_slot_count_loads_one_uniform() {
    // The original's LOAD_UNI treats aux2 0 as 1; the verifier rejects it.
    let s = shader(
        Stage::Fragment,
        vec![i(Op::LoadUni).dst(0).aux(1).aux2(0), i(Op::StoreColor).a(0)],
        vec![],
        1,
    );
    let uniforms = [[1.0; 4], [2.0; 4]];
    let mut out = Outputs::default();
    let inputs = Inputs {
        uniforms: &uniforms,
        ..Inputs::default()
    };
    Machine::unverified(&s).run(&inputs, &mut out).unwrap();
    assert_eq!(out.color, [2.0; 4]);
}

fn any_record(ntmp: i16) -> impl Strategy<Value = Ir> {
    (
        0u8..36,
        0u8..7,
        -2..ntmp + 3,
        -2..ntmp + 3,
        -2..ntmp + 3,
        -3i16..40,
        -3i16..7,
    )
        .prop_map(|(op, ncomp, dst, a, b, aux, aux2)| Ir {
            op,
            ty: 0,
            ncomp,
            pad: 0,
            dst,
            a,
            b,
            c: -1,
            aux,
            aux2,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_records_never_panic(
        ir in prop::collection::vec(any_record(6), 0..40),
        imm in prop::collection::vec(any::<f32>(), 0..8),
        ntmp in 0u16..6,
        vertex in any::<bool>(),
    ) {
        let stage = if vertex { Stage::Vertex } else { Stage::Fragment };
        let s = shader(stage, ir, imm, ntmp);
        let texture = vec![NearestClampTexture::solid([1, 2, 3, 4])];
        let uniforms = [[0.5; 4]; 3];
        let inputs = Inputs { uniforms: &uniforms, samplers: &texture, ..Inputs::default() };
        let mut out = Outputs::default();
        let _ = Machine::unverified(&s).run(&inputs, &mut out);
    }
}
