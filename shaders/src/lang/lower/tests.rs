//! Unit tests of the lowering's own rules, checked on the IR it produces.

use crate::ir::{Op, Shader};
use crate::{Limits, Stage, compile};

fn frag(body: &str, decls: &str) -> Shader {
    let src = format!(
        "#version 330\nuniform vec4 u;\nout vec4 c;\n{decls}\nvoid main() {{\n{body}\n}}\n"
    );
    match compile(&src, "t", Stage::Fragment, &Limits::default()) {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    }
}

fn ops(s: &Shader) -> Vec<Op> {
    s.ir.iter()
        .filter_map(|i| i.opcode())
        .filter(|o| *o != Op::Nop)
        .collect()
}

/// The fragment prologue: LOAD_FCOORD, LOAD_UNI u, CONST 0 + MOV for `c`.
const PROLOGUE: [Op; 4] = [Op::LoadFcoord, Op::LoadUni, Op::Const, Op::Mov];

#[test]
fn known_values_fold_to_one_constant() {
    let s = frag(
        "float a = 2.0; vec3 b = vec3(a, 1.0, 0.5) * 2.0; c = vec4(b.zyx, a / 4.0);",
        "",
    );
    let mut want = PROLOGUE.to_vec();
    want.extend([Op::Const, Op::StoreColor]);
    assert_eq!(ops(&s), want);
    assert_eq!(&s.imm[4..], &[1.0, 2.0, 4.0, 0.5]);
}

#[test]
fn intermediates_are_reused_across_statements() {
    let body: String = (0..40).map(|_| "c = c * u + u;\n").collect();
    let s = frag(&body, "");
    // Prologue temporaries (4) plus two per statement, reused: far below 40 * 2.
    assert!(s.ntmp <= 8, "{}", s.ntmp);
}

#[test]
fn never_called_functions_emit_nothing() {
    let s = frag("c = u;", "vec4 unused(vec4 x) { return x * 2.0 + sin(x); }");
    let mut want = PROLOGUE.to_vec();
    want.extend([Op::Mov, Op::StoreColor]);
    assert_eq!(ops(&s), want);
}

#[test]
fn a_known_variable_is_written_before_a_branch_that_assigns_it() {
    let s = frag(
        "float x = 1.0; if (u.x > 0.0) { x = 2.0; } c = vec4(x);",
        "",
    );
    let o = ops(&s);
    let iff = o.iter().position(|&x| x == Op::If).unwrap();
    // CONST 0.0 and CMP for the condition, CONST 1.0 into x's storage, then IF.
    assert_eq!(&o[4..iff], &[Op::Const, Op::Cmp, Op::Const]);
    assert_eq!(&o[iff + 1..iff + 3], &[Op::Const, Op::EndIf]);
}

#[test]
fn constant_conditions_take_one_branch_without_an_if() {
    let s = frag(
        "const bool FAST = true; if (FAST) { c = u; } else { c = u * 2.0; }",
        "",
    );
    assert!(!ops(&s).contains(&Op::If));
    assert!(!ops(&s).contains(&Op::Mul));
}

#[test]
fn int_division_by_a_constant_folds_the_reciprocal() {
    let s = frag("int i = int(u.x); c = vec4(float(i / 4));", "");
    let o = ops(&s);
    assert!(!o.contains(&Op::Rcp), "{o:?}");
    assert_eq!(o.iter().filter(|&&x| x == Op::Trunc).count(), 2);
}

#[test]
fn extreme_constants_fold_without_panicking() {
    for body in [
        "c = vec4(float(int(-1.0e30) / -1));",
        "c = vec4(float(int(1.0e30) % 7));",
        "c = vec4(float(2147483647 * 2147483647 / 3));",
        "c = vec4(sqrt(-1.0), inversesqrt(0.0), pow(-8.0, 1.0 / 3.0), 1.0e38 * 10.0);",
        "c = vec4(normalize(vec3(0.0)), length(vec2(0.0)));",
    ] {
        let src =
            format!("#version 330\nuniform vec4 u;\nout vec4 c;\nvoid main() {{\n{body}\n}}\n");
        // Integers beyond 2^24 are reported (CSIR's float registers cannot hold them);
        // the float extremes fold. Neither panics.
        match compile(&src, "t", Stage::Fragment, &Limits::default()) {
            Ok(_) => assert!(!body.contains("int"), "{body} compiled"),
            Err(e) => assert!(e.to_string().contains("(2^24 - 1)"), "{body}: {e}"),
        }
    }
}
