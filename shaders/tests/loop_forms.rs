//! `for` loops as people write them (issue 8), unrolled at compile time and executed
//! with asserted values on every back end: `<`, `<=`, `>`, `>=`, `!=` conditions,
//! `i++`, `i--`, `i += k`, `i -= k`, `i *= k` steps, `break` and `continue` (also
//! conditional on run-time values), nested loops whose bounds use outer variables.

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
            "unsupported loop condition",
        ),
        (
            "for (int i = 0; i < 1000; i++) {}",
            "loop bound exceeds the unroll limit",
        ),
        (
            "for (int i = 0; ; i++) {}",
            "loop bound exceeds the unroll limit",
        ),
        (
            "for (int i = 0; i < 4; i++) { i = 2; }",
            "cannot assign the loop variable",
        ),
        (
            "int i = 0; while (i < 4) { i++; }",
            "while loops are not supported: loops must have constant bounds",
        ),
        (
            "int i = 0; do { i++; } while (i < 4);",
            "do-while loops are not supported: loops must have constant bounds",
        ),
    ] {
        let src = common::frag_src("", body);
        assert_eq!(messages(&src, Stage::Fragment), vec![want], "{body}");
    }
}
