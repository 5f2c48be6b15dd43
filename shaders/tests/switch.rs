//! `switch` (GLSL 1.30 §6.2): fallthrough, `break` (also conditional on
//! run-time values), `default` anywhere, a selector evaluated once, `continue` and
//! `return` through a switch, known selectors; executed with asserted values on
//! every back end. And the named errors for what §6.2 rejects.

mod backends;
mod common;
use backends::eval_u;
use common::messages;
use csir::Stage;

/// The shader `body` against `f(u.x)` for each `u.x` in `xs`.
fn agrees(body: &str, xs: &[f32], f: impl Fn(f32) -> [f32; 4]) {
    for &x in xs {
        assert_eq!(eval_u(body, [x, 0.5, 0.0, 0.0]), f(x), "u.x = {x}\n{body}");
    }
}

#[test]
fn fallthrough_break_and_default_anywhere() {
    let body = "float r = 0.0;\n\
                switch (int(u.x)) {\n\
                case 0: r += 1.0;\n\
                case 1: r += 10.0; break;\n\
                default: r += 100.0;\n\
                case 2: case 3: r += 1000.0; break;\n\
                case 4: r = -1.0;\n\
                }\n\
                c = vec4(r, 0.0, 0.0, 0.0);";
    agrees(body, &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, -7.0], |x| {
        let r = match x as i32 {
            0 => 11.0,
            1 => 10.0,
            2 | 3 => 1000.0,
            4 => -1.0,
            _ => 1100.0,
        };
        [r, 0.0, 0.0, 0.0]
    });
}

#[test]
fn conditional_break_and_the_selector_read_once() {
    // piglit fs-conditional-break: a break inside an if, statements after a break.
    let body = "int s = int(u.x); float r = 0.0;\n\
                switch (s) {\n\
                case 0:\n\
                  s = 3;\n\
                  if (u.y > 1.0) { r = 5.0; break; }\n\
                  r = 7.0;\n\
                  if (u.y > 0.0) break;\n\
                  r = 9.0;\n\
                case 3:\n\
                  r += 20.0;\n\
                }\n\
                c = vec4(r, float(s), 0.0, 0.0);";
    agrees(body, &[0.0, 3.0, 1.0], |x| match x as i32 {
        0 => [7.0, 3.0, 0.0, 0.0],
        3 => [20.0, 3.0, 0.0, 0.0],
        _ => [0.0, 1.0, 0.0, 0.0],
    });
}

#[test]
fn continue_and_return_through_a_switch() {
    // piglit glsl-fs-continue-in-switch-in-do-while.
    let body = "int w = 0; int x = 0; int y = 0; int z = 0;\n\
                do { ++w;\n\
                  switch (w + int(u.x)) { case 1: ++x; break; case 2: continue; case 3: ++y; break; }\n\
                  ++z;\n\
                } while (w < 2);\n\
                c = vec4(float(w), float(x), float(y), float(z));";
    agrees(body, &[0.0, 1.0, 2.0], |ux| {
        let (mut w, mut x, mut y, mut z) = (0, 0, 0, 0);
        loop {
            w += 1;
            let mut cont = false;
            match w + ux as i32 {
                1 => x += 1,
                2 => cont = true,
                3 => y += 1,
                _ => {}
            }
            if !cont {
                z += 1;
            }
            if w >= 2 {
                break;
            }
        }
        [w as f32, x as f32, y as f32, z as f32]
    });
    let decls =
        "float f(int k) { switch (k) { case 1: return 10.0; default: break; } return 20.0; }";
    for (x, want) in [(1.0, 10.0), (2.0, 20.0)] {
        let got = backends::eval(
            decls,
            "c = vec4(f(int(u.x)));",
            [x, 0.0, 0.0, 0.0],
            [0.0; 4],
        );
        assert_eq!(got, [want; 4]);
    }
}

#[test]
fn known_selectors_fold() {
    let body = "float r = 0.0; const int k = 2;\n\
                switch (k) { case 1: r = 1.0; break; case 2: r = 2.0; case 3: r += u.x; break; default: r = 9.0; }\n\
                c = vec4(r);";
    agrees(body, &[0.5], |x| [2.0 + x; 4]);
    let body = "float r = 0.0; for (int i = 0; i < 4; i++) {\n\
                switch (i) { case 0: r += 1.0; break; case 2: continue; default: r += 10.0; }\n\
                r *= 2.0; }\n\
                c = vec4(r * u.x);";
    agrees(body, &[1.0], |_| {
        [((1.0 * 2.0 + 10.0) * 2.0 * 1.0 + 10.0) * 2.0; 4]
    });
}

#[test]
fn switch_errors_are_named() {
    for (body, want) in [
        (
            "switch (u.x) { case 0: break; }",
            "a switch selector must be an int scalar, not float",
        ),
        (
            "switch (1) { case 0: break; case 0: break; }",
            "duplicate case label 0 in a switch",
        ),
        (
            "switch (1) { default: break; default: break; }",
            "more than one default label in a switch",
        ),
        (
            "switch (1) { case int(u.x): break; }",
            "a case label must be a constant integer expression (GLSL 1.30 §6.2)",
        ),
        (
            "switch (1) { c = u; case 0: break; }",
            "a switch body must start with a case or default label (GLSL 1.30 §6.2)",
        ),
        (
            "case 0: c = u;",
            "a case or default label must be directly in the body of a switch",
        ),
    ] {
        let src = common::frag_src("", body);
        assert_eq!(messages(&src, Stage::Fragment), vec![want], "{body}");
    }
    let old =
        "#version 120\nvoid main() { switch (1) { default: break; } gl_FragColor = vec4(1.0); }\n";
    assert_eq!(
        messages(old, Stage::Fragment),
        vec![
            "switch is a reserved word in GLSL 1.20: switch statements need GLSL 1.30 or GLSL ES 3.00"
        ]
    );
}
