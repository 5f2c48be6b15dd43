//! Expressions with effects: `++`/`--` inside expressions (GLSL 1.10 §5.7),
//! assignment as an expression (§5.8), the comma operator (§5.9), and `&&`, `||`,
//! `?:` whose skipped side has effects (§5.9: the skipped side does not run). Values
//! asserted on every back end, for known and run-time operands.

mod backends;
mod common;
use backends::eval_u;

#[test]
fn increments_inside_expressions() {
    // Postfix gives the old value, prefix the new one; the variable changes either way.
    let body = "int i = int(u.x); int a = i++; int b = ++i; int d = i-- * 10; float f = u.y; float g = --f;\n\
                c = vec4(float(a), float(b), float(d + i), g + f);";
    for x in [0.0, 3.0, -2.0] {
        let i = x as i32;
        let (a, b) = (i, i + 2);
        let d = (i + 2) * 10;
        let got = eval_u(body, [x, 5.0, 0.0, 0.0]);
        assert_eq!(
            got,
            [a as f32, b as f32, (d + i + 1) as f32, 8.0],
            "u.x = {x}"
        );
    }
    // In a loop condition and as an index.
    let body = "int i = 0; float s = 0.0; while (i++ < 4) s += float(i) * u.x;\n\
                float a[3] = float[3](1.0, 2.0, 3.0); int k = 0; float t = a[k++] + a[k++] * 10.0;\n\
                c = vec4(s, float(i), t, float(k));";
    assert_eq!(eval_u(body, [1.0, 0.0, 0.0, 0.0]), [10.0, 5.0, 21.0, 2.0]);
}

#[test]
fn assignments_and_commas_as_expressions() {
    let body = "float a; float b; float d = (a = u.x * 2.0) + 1.0;\n\
                a = b = u.y;\n\
                float e = (b += 1.0, b * 3.0);\n\
                int i, j; for (i = 0, j = 10; i < 3; i++, j--) {}\n\
                c = vec4(d, a, e, float(i * 100 + j));";
    assert_eq!(eval_u(body, [2.0, 4.0, 0.0, 0.0]), [5.0, 4.0, 15.0, 307.0]);
}

#[test]
fn skipped_sides_do_not_run() {
    // `n` counts the evaluations of the right side / chosen branch.
    let body = "int n = 0; float x = u.x;\n\
                bool p = x > 0.0 && (n++ > -100);\n\
                bool q = x > 0.0 || (++n > 100);\n\
                float r = x > 1.0 ? float(n += 10) : float(n -= 1);\n\
                c = vec4(float(n), p ? 1.0 : 0.0, q ? 1.0 : 0.0, r);";
    for x in [-1.0f32, 0.5, 2.0] {
        let mut n = 0;
        let p = x > 0.0 && {
            n += 1;
            true
        };
        let q = x > 0.0 || {
            n += 1;
            n > 100
        };
        let r = if x > 1.0 {
            n += 10;
            n
        } else {
            n -= 1;
            n
        };
        let want = [n as f32, p as i32 as f32, q as i32 as f32, r as f32];
        assert_eq!(eval_u(body, [x, 0.0, 0.0, 0.0]), want, "u.x = {x}");
    }
    // Known conditions skip the effects at compile time.
    let body = "int n = 0; bool p = false && (n++ > 0); bool q = true || (n++ > 0);\n\
                float r = true ? 1.0 : float(n++); c = vec4(float(n), r * u.x, 0.0, 0.0);";
    assert_eq!(eval_u(body, [3.0, 0.0, 0.0, 0.0]), [0.0, 3.0, 0.0, 0.0]);
}
