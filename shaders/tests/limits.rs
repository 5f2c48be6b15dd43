//! Pool limits (docs/csir-original.md A3): exactly at the limit compiles, one past it fails
//! with the pool's message; the front end stays bounded on pathological input.

mod common;
use common::*;
use csir::exec::NoSamplers;
use csir::{Limits, Stage, compile};

fn fails_with(src: &str, limits: &Limits, message: &str) {
    let e = compile(src, "t", Stage::Fragment, limits).expect_err("must fail");
    assert_eq!(e.diagnostics().len(), 1, "{e}");
    assert_eq!(e.diagnostics()[0].message, message, "{e}");
}

/// Fragment prologue (5 records) + MOV + `n` MULs + MOV + STORE_COLOR.
fn muls(n: usize) -> String {
    let body: String = (0..n).map(|_| "a = a * v;\n").collect();
    frag_src("", &format!("vec4 a = u;\n{body}c = a;"))
}

#[test]
fn instruction_limit() {
    let ok = compile(&muls(376), "t", Stage::Fragment, &Limits::default()).unwrap();
    assert_eq!(ok.ir.len(), 384);
    fails_with(
        &muls(377),
        &Limits::default(),
        "shader needs 385 instructions, the limit is 384",
    );
    assert!(compile(&muls(377), "t", Stage::Fragment, &Limits::LARGE).is_ok());
}

/// 4 prologue immediates (the zeroed output) + `n` distinct scalars.
fn immediates(n: usize) -> String {
    let body: String = (0..n).map(|i| format!("s = s + {}.5;\n", i + 1)).collect();
    frag_src("", &format!("float s = u.x;\n{body}c = vec4(s);"))
}

#[test]
fn immediate_limit() {
    let ok = compile(&immediates(156), "t", Stage::Fragment, &Limits::default()).unwrap();
    assert_eq!(ok.imm.len(), 160);
    fails_with(
        &immediates(157),
        &Limits::default(),
        "shader needs 161 constants (immediate floats), the limit is 160",
    );
}

/// `n` variables live at once.
fn live(n: usize) -> String {
    let decls: String = (0..n)
        .map(|i| format!("float t{i} = u.x * {i}.5;\n"))
        .collect();
    let sums: String = (0..n).map(|i| format!("s += t{i};\n")).collect();
    frag_src("", &format!("{decls}float s = 0.0;\n{sums}c = vec4(s);"))
}

#[test]
fn temporary_limit() {
    // Prologue: fragment coordinate, u, v, c and its zero = 5; each variable one
    // more; the running sum needs two (its storage and the next sum).
    let ok = compile(&live(89), "t", Stage::Fragment, &Limits::default()).unwrap();
    assert_eq!(ok.ntmp, 96);
    fails_with(
        &live(90),
        &Limits::default(),
        "shader needs 97 temporaries, the limit is 96",
    );
    let e = compile(&live(90), "t", Stage::Fragment, &Limits::default()).unwrap_err();
    // Reported at `s += t0`, where the 97th temporary is needed: `0.0 + t0` is an
    // addition, not `t0` (it is +0 where t0 is −0; IEEE 754 §6.3).
    assert_eq!(e.diagnostics()[0].line, 6 + 90 + 2, "{e}");
}

#[test]
fn source_size_limit() {
    let small = Limits {
        source_bytes: 32,
        ..Limits::default()
    };
    fails_with(
        &frag_src("", ""),
        &small,
        "shader source exceeds the size limit (80 bytes, the limit is 32)",
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for depth in [10, 40, 200, 5000] {
        let e = format!("{}u.x{}", "(".repeat(depth), ")".repeat(depth));
        let _ = compile(
            &frag_src("", &format!("c = vec4({e});")),
            "t",
            Stage::Fragment,
            &Limits::default(),
        );
        let blocks = format!(
            "{}c = u;{}",
            "{ if (u.x > 0.0) ".repeat(depth),
            "}".repeat(depth)
        );
        let _ = compile(
            &frag_src("", &blocks),
            "t",
            Stage::Fragment,
            &Limits::default(),
        );
        let sum = format!("c = u{};", " + u".repeat(depth));
        let _ = compile(
            &frag_src("", &sum),
            "t",
            Stage::Fragment,
            &Limits::default(),
        );
    }
    let deep = format!("{}u.x{}", "(".repeat(5000), ")".repeat(5000));
    let e = compile(
        &frag_src("", &format!("c = vec4({deep});")),
        "t",
        Stage::Fragment,
        &Limits::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.diagnostics()[0].message,
        "nesting limit exceeded: more than 64 levels of nested parentheses, calls, unary \
         operators, members, indexes and blocks here, the limit is 64"
    );
}

/// A flat sum is not nesting: 257 terms, the most `MAX_OPERATOR_CHAIN`
/// allows, compile and add up, on a thread with the renderer's small stack. (The
/// extended profile's temporaries: each partial sum takes one, past the seed's 96.)
#[test]
fn a_long_flat_sum_compiles_and_adds_up() {
    let src = frag_src("", &format!("c = vec4(u.x{});", " + u.x".repeat(256)));
    let r = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let shader = compile(&src, "t", Stage::Fragment, &Limits::EXTENDED)
                .unwrap_or_else(|e| panic!("{e}"));
            run(&shader, &[[0.5; 4], [0.0; 4]], &[], &NoSamplers).color
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(r, [128.5; 4]);
}

#[test]
fn deeply_nested_calls_stay_within_the_stack() {
    // Eight functions each calling the next inside nested expressions and blocks.
    let mut decls = String::from("float f0(float x) { return x + 1.0; }\n");
    let inner = |k: usize| format!("{}f{k}(x){}", "(1.0 + ".repeat(20), ")".repeat(20));
    for k in 1..8 {
        decls.push_str(&format!(
            "float f{}(float x) {{ {{ {{ if (x > 0.0) {{ return {}; }} }} }} return x; }}\n",
            k,
            inner(k - 1)
        ));
    }
    let src = frag_src(&decls, "c = vec4(f7(u.x));");
    let s = build(&src, Stage::Fragment);
    let o = run(&s, &[[1.0, 0.0, 0.0, 0.0]], &[], &csir::exec::NoSamplers);
    assert_eq!(o.color[0], 1.0 + 1.0 + 20.0 * 7.0);
}

#[test]
fn loops_that_fold_away_are_bounded_in_work() {
    let body = "float s = 0.0; for (int i = 0; i < 64; i++) { for (int j = 0; j < 64; j++) { for (int k = 0; k < 64; k++) { s += 1.0; } } } c = vec4(s);";
    let e = compile(
        &frag_src("", body),
        "t",
        Stage::Fragment,
        &Limits::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.diagnostics()[0].message,
        "shader exceeds the compile-time work limit (200000 units: statements and expression nodes lowered, unrolled and inlined copies included)"
    );
    // Two nested 64-iteration loops fold to one constant.
    let body = "float s = 0.0; for (int i = 0; i < 64; i++) { for (int j = 0; j < 64; j++) { s += 1.0; } } c = vec4(s);";
    assert_eq!(eval_u(body, [0.0; 4]), [4096.0; 4]);
}

#[test]
fn the_lowering_nesting_limit_is_reached_before_the_stack_runs_out() {
    // Eight nested calls (the seed's call depth), each 55 parentheses deep: past the
    // lowering's limit of 400 levels.
    let mut decls = String::from("float f0(float x) { return x; }\n");
    for k in 1..8 {
        let e = format!("{}f{}(x){}", "(1.0 + ".repeat(55), k - 1, ")".repeat(55));
        decls.push_str(&format!("float f{k}(float x) {{ return {e}; }}\n"));
    }
    let src = frag_src(&decls, "c = vec4(f7(u.x));");
    let run = move || {
        compile(&src, "t", Stage::Fragment, &Limits::default())
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    // A thread with a small stack, like the renderer's worker threads.
    let r = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
    let e = r.unwrap_err();
    assert!(e.contains("nesting limit exceeded"), "{e}");
}

/// A binary call tree `depth` deep (`f1` calls `f2` twice, ..., the last writes `c`).
fn call_tree(depth: usize) -> String {
    let mut decls = format!("void f{depth}() {{ c = c * 0.5 + 0.25; }}\n");
    for k in (1..depth).rev() {
        decls.push_str(&format!("void f{k}() {{ f{}(); f{}(); }}\n", k + 1, k + 1));
    }
    decls
}

/// Code that is never emitted (a function nobody calls, a branch never taken) is
/// checked once per function, not once per call: a call tree with 2^23 leaves
/// compiles when nothing runs it (a fuzzing finding: it used to reach the
/// compile-time work limit, so a valid shader was refused). Inlined from `main`, the
/// same tree is still past a limit, the instruction pool's, and says so.
#[test]
fn call_trees_that_never_run_are_checked_once_per_function() {
    let tree = call_tree(24);
    let uncalled = frag_src(&tree, "c = u;");
    assert!(compile(&uncalled, "t", Stage::Fragment, &Limits::EXTENDED).is_ok());
    let untaken = frag_src(&tree, "c = u; if (false) { f1(); }");
    let shader = compile(&untaken, "t", Stage::Fragment, &Limits::EXTENDED)
        .unwrap_or_else(|e| panic!("{e}"));
    let out = run(&shader, &[[0.5; 4], [0.0; 4]], &[], &NoSamplers).color;
    assert_eq!(out, [0.5; 4]);
    let called = frag_src(&tree, "c = u; f1();");
    let e = compile(&called, "t", Stage::Fragment, &Limits::EXTENDED).unwrap_err();
    assert!(
        e.to_string()
            .contains("shader needs more than 32767 instructions, the limit is 4096"),
        "{e}"
    );
    // Errors inside such code are still found, once.
    let broken = frag_src(&tree.replace("c = c * 0.5", "c = zz * 0.5"), "c = u;");
    let e = compile(&broken, "t", Stage::Fragment, &Limits::EXTENDED).unwrap_err();
    assert_eq!(e.diagnostics().len(), 1, "{e}");
    assert!(e.to_string().contains("unknown identifier 'zz'"), "{e}");
}

/// Whatever compiles can be saved as CSI v2 (a fuzzing finding: a 69-character output
/// name compiled, and `save_csi` then refused it). A 255-character name, the longest
/// identifier, is an interface name v2 stores; a struct member's flattened name that
/// joins two long identifiers is over the limit and refused at compile time, by name.
#[test]
fn every_interface_name_the_compiler_accepts_can_be_saved() {
    let long = "n".repeat(255);
    let src = format!(
        "#version 330 core\nuniform vec4 {long};\nout vec4 c;\nvoid main() {{ c = {long}; }}\n"
    );
    let shader = compile(&src, "t", Stage::Fragment, &Limits::EXTENDED).unwrap();
    let blob = csir::csi::save_csi(&shader).expect("a 255-byte name is stored");
    let back = csir::csi::load_csi(&blob, &Limits::EXTENDED).unwrap();
    assert_eq!(back.interface.symbols[0].name, long);

    let member = "m".repeat(250);
    let src = format!(
        "#version 330 core\nstruct S {{ vec4 {member}; }};\nuniform S light;\nout vec4 c;\n\
         void main() {{ c = light.{member}; }}\n"
    );
    let e = compile(&src, "t", Stage::Fragment, &Limits::EXTENDED).expect_err("too long");
    let d = &e.diagnostics()[0];
    assert_eq!((d.line, d.col), (3, 11), "{e}");
    assert!(
        d.message.starts_with("interface name `light.mmm")
            && d.message.contains("is 256 bytes long")
            && d.message.contains("at most 255 bytes"),
        "{e}"
    );
}
