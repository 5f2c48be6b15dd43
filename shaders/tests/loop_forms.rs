//! Loops as people write them (issues 8 and 14), unrolled at compile time and executed
//! with asserted values on every back end: `<`, `<=`, `>`, `>=`, `!=` conditions,
//! `i++`, `i--`, `i += k`, `i -= k`, `i *= k` steps, `break` and `continue` (also
//! conditional on run-time values), nested loops whose bounds use outer variables,
//! `while` and `do`/`while`, loop variables assigned in the body, and conditions that
//! depend on run-time values inside a compile-time bound.

mod backends;
mod common;
use backends::eval_u;
use common::messages;
use csir::Stage;

/// Σ f(i) over the iterations a C loop with these parts would run.
fn c_loop(init: i32, cond: impl Fn(i32) -> bool, step: impl Fn(i32) -> i32) -> f32 {
    let mut s = 0.0;
    let mut i = init;
    while cond(i) {
        s += (i * i) as f32 + 1.0;
        i = step(i);
    }
    s
}

#[test]
fn conditions_and_steps() {
    let cases: Vec<(&str, f32)> = vec![
        ("int i = 0; i < 5; i++", c_loop(0, |i| i < 5, |i| i + 1)),
        ("int i = 0; i <= 5; i++", c_loop(0, |i| i <= 5, |i| i + 1)),
        ("int i = 5; i > 0; i--", c_loop(5, |i| i > 0, |i| i - 1)),
        ("int i = 5; i >= 0; --i", c_loop(5, |i| i >= 0, |i| i - 1)),
        (
            "int i = 0; i != 6; i += 2",
            c_loop(0, |i| i != 6, |i| i + 2),
        ),
        (
            "int i = 1; i < 40; i *= 3",
            c_loop(1, |i| i < 40, |i| i * 3),
        ),
        (
            "int i = 10; i >= -4; i -= 7",
            c_loop(10, |i| i >= -4, |i| i - 7),
        ),
        ("int i = 3; i < 3; i++", 0.0),
        ("int i = -2; 0 > i; ++i", c_loop(-2, |i| 0 > i, |i| i + 1)),
    ];
    for (head, want) in cases {
        let body =
            format!("float s = 0.0; for ({head}) {{ s += float(i * i) + u.x; }} c = vec4(s);");
        assert_eq!(eval_u(&body, [1.0, 0.0, 0.0, 0.0]), [want; 4], "{head}");
    }
    // Named constant bounds, a float loop variable, an init that assigns an outer int.
    let body = "const int N = 4; float s = 0.0; for (int i = N - 1; i >= 0; i--) s += float(i);\n\
                for (float f = 0.5; f <= 2.0; f += 0.5) s += f * u.x;\n\
                int k; for (k = 0; k < 3; k++) s += 100.0;\n\
                c = vec4(s, float(k), 0.0, 0.0);";
    assert_eq!(eval_u(body, [2.0, 0.0, 0.0, 0.0]), [316.0, 3.0, 0.0, 0.0]);
}

#[test]
fn break_and_continue_at_run_time() {
    // Stops at the first i with i·u.x ≥ 10, skips odd i.
    let body = "float s = 0.0; int last = -1; for (int i = 0; i < 10; i++) {\n\
                if (float(i) * u.x >= 10.0) break;\n if (i % 2 == 1) continue;\n s += float(i); last = i; }\n\
                c = vec4(s, float(last), 0.0, 0.0);";
    let expect = |x: f32| {
        let (mut s, mut last) = (0.0, -1.0);
        for i in 0..10 {
            if i as f32 * x >= 10.0 {
                break;
            }
            if i % 2 == 1 {
                continue;
            }
            s += i as f32;
            last = i as f32;
        }
        [s, last, 0.0, 0.0]
    };
    for x in [0.5, 1.0, 2.0, 3.0, 100.0] {
        assert_eq!(eval_u(body, [x, 0.0, 0.0, 0.0]), expect(x), "u.x = {x}");
    }
}

#[test]
fn nested_loops() {
    // A triangular nest, an inner break that ends only the inner loop, an outer
    // continue, and a bound taken from the outer variable.
    let body = "float s = 0.0; for (int i = 0; i < 4; i++) {\n\
                if (float(i) == u.y) continue;\n\
                for (int j = i; j <= 4; j += 2) { if (float(j) > u.x) break; s += float(10 * i + j); } }\n\
                c = vec4(s);";
    let expect = |x: f32, y: f32| {
        let mut s = 0.0;
        for i in 0..4 {
            if i as f32 == y {
                continue;
            }
            let mut j = i;
            while j <= 4 {
                if j as f32 > x {
                    break;
                }
                s += (10 * i + j) as f32;
                j += 2;
            }
        }
        [s; 4]
    };
    for (x, y) in [(10.0, -1.0), (2.0, -1.0), (3.0, 1.0), (0.0, 0.0)] {
        assert_eq!(eval_u(body, [x, y, 0.0, 0.0]), expect(x, y), "{x} {y}");
    }
}

#[test]
fn loops_that_cannot_be_unrolled_say_why() {
    for (body, want) in [
        (
            "for (int i = 0; i < int(u.x); i++) {}",
            "CSIR has no loops: the trip count of this loop cannot be determined at compile time",
        ),
        (
            "float s = 0.0; while (s < u.x) { s += 1.0; }",
            "CSIR has no loops: the trip count of this loop cannot be determined at compile time",
        ),
        (
            "for (;;) { if (u.x > 0.0) break; }",
            "CSIR has no loops: the trip count of this loop cannot be determined at compile time",
        ),
        (
            "for (int i = 0; i < 1000; i++) {}",
            "loop bound exceeds the unroll limit: more than 64 iterations",
        ),
        (
            "for (int i = 0; ; i++) {}",
            "loop bound exceeds the unroll limit: more than 64 iterations",
        ),
        (
            "for (int i = 0; i < 4; i++) { if (u.x > 0.0) i = 2; }",
            "CSIR has no loops: the trip count of this loop cannot be determined at compile time",
        ),
        (
            "float s = 0.0; for (int i = 0; i < 60; i++) { s = s * u.x + v.y * float(i) + 0.5; s = s * v.x; } c = vec4(s);",
            "shader needs 487 instructions, the limit is 384",
        ),
        (
            "for (int i = 0, j = 10; i < j; i++) {}",
            "a for loop's init declares one variable, this one declares 2 ('i', 'j'): \
             declare the others before the loop",
        ),
    ] {
        let src = common::frag_src("", body);
        assert_eq!(messages(&src, Stage::Fragment), vec![want], "{body}");
    }
    // The error points at the loop.
    let src = common::frag_src("", "float s = 0.0;\n  while (s < u.x) s += 1.0;");
    let e = csir::compile(&src, "t", Stage::Fragment, &csir::Limits::default()).unwrap_err();
    assert_eq!((e.diagnostics()[0].line, e.diagnostics()[0].col), (8, 3));
    // GLSL ES 1.00 (its Appendix A) forbids assigning the loop variable.
    let es = "#version 100\nprecision mediump float;\nuniform vec4 u;\nvoid main() {\n\
              for (int i = 0; i < 4; i++) { i = 2; }\n gl_FragColor = u; }\n";
    assert_eq!(
        messages(es, Stage::Fragment),
        vec!["cannot assign the loop variable"]
    );
}

/// Runs `f(x)` for each `u.x` and compares with the shader `body`.
fn agrees(body: &str, xs: &[f32], f: impl Fn(f32) -> [f32; 4]) {
    for &x in xs {
        assert_eq!(eval_u(body, [x, 0.0, 0.0, 0.0]), f(x), "u.x = {x}\n{body}");
    }
}

#[test]
fn while_and_do_while() {
    // while: counter in the body; do: the body runs once even when the test is false.
    let body = "int i = 0; float s = 0.0; while (i < 5) { s += float(i) * u.x; i++; }\n\
                int j = 10; float t = 0.0; do { t += 1.0; j++; } while (j < 3);\n\
                int k = 0; do { k += 2; } while (k < 7);\n\
                c = vec4(s, t, float(k), float(i));";
    agrees(body, &[1.0, 2.0, -0.5], |x| [10.0 * x, 1.0, 8.0, 5.0]);
    // continue inside do/while still runs the test (piglit glsl-fs-continue-inside-do-while).
    let body = "int x = 0; int y = 0; do { ++x; if (x >= 4) break; if (float(x) >= u.x) continue; ++y; } while (x < 3);\n\
                c = vec4(float(x), float(y), 0.0, 0.0);";
    agrees(body, &[2.0, 0.0, 10.0], |ux| {
        let (mut x, mut y) = (0, 0);
        loop {
            x += 1;
            if x >= 4 {
                break;
            }
            if x as f32 >= ux {
                if x < 3 {
                    continue;
                }
                break;
            }
            y += 1;
            if x >= 3 {
                break;
            }
        }
        [x as f32, y as f32, 0.0, 0.0]
    });
}

#[test]
fn loop_variable_assigned_in_the_body() {
    let body = "float s = 0.0; for (int i = 0; i < 10; i++) { s += float(i); i += 2; }\n\
                c = vec4(s * u.x);";
    // i = 0, 3, 6, 9.
    agrees(body, &[1.0, 3.0], |x| [18.0 * x; 4]);
}

#[test]
fn run_time_conditions_inside_a_compile_time_bound() {
    // A run-time test that can end the loop early, a counter declared outside the loop
    // whose value after the loop depends on where the loop stopped.
    let body = "int i = 0; float s = 0.0; while (i < 6 && float(i) < u.x) { s += 10.0; i++; }\n\
                c = vec4(s, float(i), 0.0, 0.0);";
    agrees(body, &[-1.0, 0.5, 2.0, 3.5, 100.0], |x| {
        let (mut i, mut s) = (0, 0.0);
        while i < 6 && (i as f32) < x {
            s += 10.0;
            i += 1;
        }
        [s, i as f32, 0.0, 0.0]
    });
    // do/while on a uniform, bounded by a compile-time break (piglit
    // vs-loop-complex-unroll-cf-inside-terminator).
    let body = "int i = 0; float s = 0.0; do { i++; if (i >= 3) break; s += 1.0; } while (u.x > 0.0);\n\
                c = vec4(s, float(i), 0.0, 0.0);";
    agrees(body, &[-1.0, 1.0], |x| {
        if x > 0.0 {
            [2.0, 3.0, 0.0, 0.0]
        } else {
            [1.0, 1.0, 0.0, 0.0]
        }
    });
    // A run-time break followed by an assignment to an outer variable: the value after
    // the loop is that of the iteration that broke.
    let body = "int last = -1; float acc = 1.0; for (int i = 0; i < 8; i++) { if (float(i) * u.x > 5.0) break; last = i; acc *= 2.0; }\n\
                c = vec4(float(last), acc, 0.0, 0.0);";
    agrees(body, &[0.0, 1.0, 2.0, 6.0], |x| {
        let (mut last, mut acc) = (-1, 1.0);
        for i in 0..8 {
            if i as f32 * x > 5.0 {
                break;
            }
            last = i;
            acc *= 2.0;
        }
        [last as f32, acc, 0.0, 0.0]
    });
}

#[test]
fn a_return_that_every_path_in_the_loop_takes_ends_the_unrolling() {
    // piglit vs-nested-return-sibling-loop and fs-nested-return-in-loop-nested_in_if:
    // the loop's own condition is a run-time value, its body returns.
    let decls = "float f(int a) { if (a >= 1) { for (int i = 0; i < a; i++) { return 1.0; } } return 2.0; }\n\
                 float g(float x) { float r = 0.0; while (x > 0.5) { r = 3.0; return r; } return r + 4.0; }";
    for (x, want) in [(0.0, [2.0, 4.0]), (1.0, [1.0, 3.0]), (3.0, [1.0, 3.0])] {
        let got = backends::eval(
            decls,
            "c = vec4(f(int(u.x)), g(u.x), 0.0, 0.0);",
            [x, 0.0, 0.0, 0.0],
            [0.0; 4],
        );
        assert_eq!(got, [want[0], want[1], 0.0, 0.0], "u.x = {x}");
    }
}

/// GLSL 1.10 §6.3: a `while` condition may declare a variable, initialized before every
/// test and in scope in the body; a declaration there needs an initializer.
#[test]
fn while_conditions_may_declare_a_variable() {
    let body = "int i = 0; float s = 0.0;\n\
                while (bool more = i < 3) { s += float(more) * u.x; i++; }\n\
                c = vec4(s, float(i), 0.0, 0.0);";
    assert_eq!(eval_u(body, [0.25, 0.0, 0.0, 0.0]), [0.75, 3.0, 0.0, 0.0]);
    assert_eq!(eval_u(body, [2.0, 0.0, 0.0, 0.0]), [6.0, 3.0, 0.0, 0.0]);
    let src = "#version 130\nout vec4 c;\nvoid main() { int i = 0; while (bool b) { i++; } c = vec4(0.0); }\n";
    assert_eq!(
        messages(src, Stage::Fragment),
        ["a declaration in a while condition needs an initializer: while (bool b = e)"]
    );
}
