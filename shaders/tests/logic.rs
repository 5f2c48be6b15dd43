//! Booleans, executed with asserted values and checked on every back end
//! (TGSI parity, CSI v2): scalar conditions as the original accepts them, unary `-`
//! and `!` on vectors, `bvec2..4` with their constructors and conversions, the vector
//! relational built-ins, `any`/`all`/`not`, and `mix` with a boolean selector.

mod backends;
mod common;
use backends::{eval, eval_u};
use common::messages;
use csir::Stage;

const NAN: f32 = f32::NAN;
const INF: f32 = f32::INFINITY;

/// The original tests any scalar in `if` and lowers `&& || !` to MUL, MAX and 1 − x
/// (docs/csir-original.md B §1.13); here an int or float condition means `x != 0`.
#[test]
fn scalar_conditions_are_tested_against_zero() {
    let body = "float f = u.x; int k = int(u.y); float r = 0.0;\n\
                if (f) r += 1.0;\n if (k) r += 10.0;\n if (!f) r += 100.0;\n\
                c = vec4(r, f ? 2.0 : 3.0, float(f && k), float(f || u.z));";
    assert_eq!(eval_u(body, [0.5, 0.0, 0.0, 0.0]), [1.0, 2.0, 0.0, 1.0]);
    assert_eq!(eval_u(body, [0.0, 3.0, 0.0, 0.0]), [110.0, 3.0, 0.0, 0.0]);
    assert_eq!(eval_u(body, [-2.0, -1.0, 0.0, 0.0]), [11.0, 2.0, 1.0, 1.0]);
    // -0.0 is zero; NaN is "nonzero", as IF treats it (and as NaN != 0 is true).
    assert_eq!(eval_u(body, [-0.0, 0.0, 0.0, 0.0]), [100.0, 3.0, 0.0, 0.0]);
    assert_eq!(eval_u(body, [NAN, 1.0, 0.0, 0.0]), [11.0, 2.0, 1.0, 1.0]);
}

#[test]
fn logical_operators_on_the_originals_0_1_values() {
    // What the original computes with MUL, MAX and 1 − x, for 0/1 operands.
    let body = "float a = u.x; float b = u.y;\n\
                c = vec4(float(a && b), float(a || b), float(!a), float(a ^^ b));";
    for (a, b) in [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)] {
        let original = [a * b, f32::max(a, b), 1.0 - a, f32::from(a != b)];
        assert_eq!(eval_u(body, [a, b, 0.0, 0.0]), original, "{a} {b}");
    }
    // Other values are normalized to 0/1 (the original's 2·3 = 6 becomes 1).
    assert_eq!(eval_u(body, [2.0, 3.0, 0.0, 0.0]), [1.0, 1.0, 0.0, 0.0]);
    // Constants fold the same way.
    let body = "c = vec4(float(2.0 && 3), float(0 || 0.0), float(!0.0), 2 ? 1.0 : 0.0);";
    assert_eq!(eval_u(body, [0.0; 4]), [1.0, 0.0, 1.0, 1.0]);
}

/// In the original a comparison result is a number: `float lit = d > 0.0;` and
/// `x * (a > b)` compute with 1.0 / 0.0. A bool scalar is therefore accepted as an int
/// or float (GLSL rejects these programs, so no GLSL program changes meaning).
#[test]
fn bool_scalars_are_numbers_where_the_original_used_them_so() {
    let decls = "float twice(float x) { return 2.0 * x; }\nfloat flag(float x) { return x > 0.0; }";
    let body = "float lit = u.x > 0.0; int k = (u.y < 1.0) + (u.z < 1.0);\n\
                c = vec4(lit, float(k), u.w * (u.w > 0.5) + float(true == 1.0), twice(u.x < 0.0) + flag(u.y));";
    assert_eq!(
        eval(decls, body, [1.0, 0.5, 2.0, 0.75], [0.0; 4]),
        [1.0, 1.0, 1.75, 1.0]
    );
    assert_eq!(
        eval(decls, body, [-1.0, 3.0, 0.0, 0.25], [0.0; 4]),
        [0.0, 1.0, 1.0, 3.0]
    );
    // Not the other way: a number is not a bool, and bvecs are not vectors of numbers.
    let src = common::frag_src("", "bool b = 1.0;");
    assert_eq!(
        messages(&src, Stage::Fragment),
        vec!["type mismatch in assignment: a value of type float cannot become bool"]
    );
    let src = common::frag_src("", "vec2 w = bvec2(true);");
    assert_eq!(
        messages(&src, Stage::Fragment),
        vec!["type mismatch in assignment: a value of type bvec2 cannot become vec2"]
    );
}

#[test]
fn scalar_loop_conditions_unroll() {
    let body = "float s = 0.0; for (float x = 3.0; x; x -= 1.0) { s += x; } c = vec4(s);";
    assert_eq!(eval_u(body, [0.0; 4]), [6.0; 4]);
}

#[test]
fn vectors_are_not_conditions() {
    let src = common::frag_src("", "if (u.xy) c = u;");
    assert_eq!(
        messages(&src, Stage::Fragment),
        vec!["if condition must be a scalar"]
    );
    let src = common::frag_src("", "c = u.xy ? u : v;");
    assert_eq!(
        messages(&src, Stage::Fragment),
        vec!["the condition of ?: must be a scalar"]
    );
    let src = common::frag_src("", "bool b = u.xy && true;");
    assert_eq!(
        messages(&src, Stage::Fragment),
        vec!["operator && expects scalar operands"]
    );
}

#[test]
fn unary_minus_on_vectors_and_matrices() {
    let body = "ivec2 k = -ivec2(int(u.z), 2); mat3 m = -mat3(u.w); vec4 n = -u;\n\
                c = vec4(n.xy, float(k.x + k.y), m[1].y + m[0].y);";
    let got = eval_u(body, [0.0, -1.5, 3.0, 2.0]);
    assert_eq!(got, [-0.0, 1.5, -5.0, -2.0]);
    assert_eq!(got[0].to_bits(), (-0.0f32).to_bits(), "-0.0 keeps its sign");
    let body = "c = -vec4(u.xy, -u.zw);";
    assert_eq!(eval_u(body, [1.0, -2.0, 3.0, -4.0]), [-1.0, 2.0, 3.0, -4.0]);
}

#[test]
fn not_on_bool_and_bvec() {
    let body = "bvec3 b = bvec3(u.xyz); bvec3 n = !b; c = vec4(vec3(n), float(!b.y));";
    assert_eq!(eval_u(body, [0.0, 2.0, -1.0, 0.0]), [1.0, 0.0, 0.0, 0.0]);
    let body = "c = vec4(not(bvec4(u)));";
    assert_eq!(eval_u(body, [0.0, 1.0, 0.0, NAN]), [1.0, 0.0, 1.0, 0.0]);
}

#[test]
fn bvec_constructors_and_conversions() {
    // Number → bool is != 0 per lane (NaN is true); bool → number is 0.0 / 1.0.
    let body = "bvec2 a = bvec2(u.xy); bvec4 t = bvec4(true); bvec3 i = bvec3(ivec3(0, int(u.z), -1));\n\
                c = vec4(vec2(a), float(t.w) + float(i.y) * 2.0, float(ivec2(i.xz).y));";
    assert_eq!(eval_u(body, [0.0, NAN, 3.0, 0.0]), [0.0, 1.0, 3.0, 1.0]);
    let body = "bvec3 b = bvec3(u.x, false, u.y > 0.0); bvec2 s = b.zx; bool f = bool(b);\n\
                bvec4 w = bvec4(s, b.yy);\n\
                c = vec4(float(f), float(w == bvec4(true, true, false, false)), vec2(s));";
    assert_eq!(eval_u(body, [1.0, 1.0, 0.0, 0.0]), [1.0, 1.0, 1.0, 1.0]);
    assert_eq!(eval_u(body, [0.0, -1.0, 0.0, 0.0]), [0.0, 0.0, 0.0, 0.0]);
    // bvec arithmetic is outside GLSL (bvec uniforms: tests/matrices.rs).
    let src = common::frag_src("", "bvec2 b = bvec2(true); bvec2 d = b + b;");
    assert_eq!(messages(&src, Stage::Fragment), vec!["type mismatch"]);
}

#[test]
fn relational_builtins_compare_lane_by_lane() {
    let body = "c = vec4(lessThan(u.xyz, v.xyz), 0.0) + vec4(0.0, 0.0, 0.0, float(all(lessThanEqual(u.xy, v.xy))));";
    assert_eq!(
        eval("", body, [1.0, 2.0, 3.0, 0.0], [2.0, 2.0, NAN, 0.0]),
        [1.0, 0.0, 0.0, 1.0]
    );
    let body = "c = vec4(greaterThan(u, v));";
    assert_eq!(
        eval("", body, [1.0, 2.0, NAN, -0.0], [0.0, 2.0, 1.0, 0.0]),
        [1.0, 0.0, 0.0, 0.0]
    );
    let body = "c = vec4(greaterThanEqual(u, v));";
    assert_eq!(
        eval("", body, [1.0, 2.0, NAN, -0.0], [0.0, 2.0, 1.0, 0.0]),
        [1.0, 1.0, 0.0, 1.0]
    );
    let body = "c = vec4(vec2(equal(u.xy, v.xy)), vec2(notEqual(u.zw, v.zw)));";
    assert_eq!(
        eval("", body, [1.0, NAN, NAN, 5.0], [1.0, NAN, NAN, 5.0]),
        [1.0, 0.0, 1.0, 0.0]
    );
    // ivec, mixed ivec/vec (converted) and bvec equality.
    let body = "ivec3 a = ivec3(u.xyz); c = vec4(lessThan(a, ivec3(1)), float(any(equal(bvec2(u.xy), bvec2(true, false)))));";
    assert_eq!(eval_u(body, [0.0, 1.0, 2.0, 0.0]), [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(eval_u(body, [5.0, 0.0, -2.0, 0.0]), [0.0, 1.0, 1.0, 1.0]);
    let body = "c = vec4(lessThan(ivec2(u.xy), v.xy), notEqual(u.zw, ivec2(2, 3)));";
    assert_eq!(
        eval("", body, [1.0, 3.0, 2.0, 4.0], [1.5, 2.5, 0.0, 0.0]),
        [1.0, 0.0, 0.0, 1.0]
    );
    // Folded when constant.
    let body = "c = vec4(any(bvec3(false)), all(bvec2(true)), any(lessThan(vec2(1.0, 2.0), vec2(0.0, 3.0))), all(not(bvec4(false))));";
    assert_eq!(eval_u(body, [0.0; 4]), [0.0, 1.0, 1.0, 1.0]);
}

#[test]
fn any_all_over_every_width() {
    for (n, lanes) in [(2usize, "xy"), (3, "xyz"), (4, "xyzw")] {
        let body = format!(
            "bvec{n} b = bvec{n}(u.{lanes}); c = vec4(float(any(b)), float(all(b)), 0.0, 0.0);"
        );
        for mask in 0..(1u32 << n) {
            let mut u = [0.0f32; 4];
            for (k, x) in u.iter_mut().enumerate().take(n) {
                *x = ((mask >> k) & 1) as f32 * 3.0;
            }
            let want_any = f32::from(mask != 0);
            let want_all = f32::from(mask == (1 << n) - 1);
            assert_eq!(
                eval_u(&body, u),
                [want_any, want_all, 0.0, 0.0],
                "bvec{n} {mask:b}"
            );
        }
    }
}

#[test]
fn relational_builtin_errors_name_the_function() {
    for (body, want) in [
        (
            "bvec2 b = lessThan(u.x, v.x);",
            "lessThan() expects two vectors of the same type",
        ),
        (
            "bvec2 b = equal(u.xy, v.xyz);",
            "equal() expects two vectors of the same type",
        ),
        (
            "bool b = any(u.xyz);",
            "any() expects a bvec2, bvec3 or bvec4",
        ),
        (
            "bool b = all(true);",
            "all() expects a bvec2, bvec3 or bvec4",
        ),
        (
            "bvec2 b = not(u.xy);",
            "not() expects a bvec2, bvec3 or bvec4",
        ),
    ] {
        let src = common::frag_src("", body);
        assert_eq!(messages(&src, Stage::Fragment), vec![want], "{body}");
    }
}

/// GLSL 3.30 §8.3: with a boolean selector, `mix` selects, so the unselected side may
/// be infinite or NaN without affecting the result.
#[test]
fn mix_with_a_bool_selector_selects_exactly() {
    let body = "c = vec4(mix(u.xyz, v.xyz, lessThan(u.xyz, vec3(0.0))), mix(1.0, v.w, u.w > 0.0));";
    assert_eq!(
        eval("", body, [-1.0, 2.0, -3.0, 0.0], [10.0, INF, 30.0, NAN]),
        [10.0, 2.0, 30.0, 1.0]
    );
    let got = eval("", body, [1.0, -2.0, 3.0, 1.0], [NAN, 20.0, INF, -0.0]);
    assert_eq!(got, [1.0, 20.0, 3.0, -0.0]);
    assert_eq!(got[3].to_bits(), (-0.0f32).to_bits());
    let body = "c = vec4(mix(u.xy, v.xy, bvec2(true, false)), mix(u.zw, v.zw, bvec2(false)));";
    assert_eq!(
        eval("", body, [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]),
        [5.0, 2.0, 3.0, 4.0]
    );
}

/// The extended profile (the renderer's default) compiles GLSL as GLSL defines it: a
/// condition is a `bool` (GLSL 3.30 §5.9, §6.2, §6.3) and nothing converts implicitly
/// from `bool` (§4.1.10). Each rejection names the rule at the offending token; the
/// valid twin, written with explicit comparisons and constructors, runs.
#[test]
fn glsl_booleans_are_strict_under_the_extended_profile() {
    let extended =
        |src: &str| csir::compile(src, "t.glsl", Stage::Fragment, &csir::Limits::EXTENDED);
    let located = |body: &str| {
        let src = common::frag_src("float twice(float x) { return 2.0 * x; }", body);
        common::located_with(&src, Stage::Fragment, &csir::Limits::EXTENDED)
    };
    let cond = |what: &str, ty: &str| {
        format!(
            "{what} must be a bool, found {ty}: GLSL has no implicit conversion to bool \
             (GLSL 3.30 §4.1.10, §5.9, §6.2); compare explicitly (x != 0) or compile \
             with the seed profile, whose conditions are numbers"
        )
    };
    // Line 7 is main's body (frag_src puts five lines before it).
    assert_eq!(
        located("float r = 0.0; if (u.x) r = 1.0; c = vec4(r);"),
        [format!("t.glsl:7:22: {}", cond("if condition", "float"))]
    );
    assert_eq!(
        located("int k = 1; c = vec4(k ? 1.0 : 0.0);"),
        [format!(
            "t.glsl:7:21: {}",
            cond("the condition of ?:", "int")
        )]
    );
    assert_eq!(
        located("bool b = !u.x; c = vec4(b);"),
        [format!(
            "t.glsl:7:10: {}",
            cond("the operand of !", "float")
        )]
    );
    assert_eq!(
        located("bool b = u.x > 0.0 && u.y; c = vec4(b);"),
        [format!(
            "t.glsl:7:20: {}",
            cond("an operand of &&", "float")
        )]
    );
    // A side that `&&` skips (it has effects and the other side decides) is checked
    // by the same rule.
    assert_eq!(
        located("float f = u.x; bool b = true || (f -= 1.0); c = vec4(b);"),
        [format!(
            "t.glsl:7:30: {}",
            cond("an operand of ||", "float")
        )]
    );
    let no_bool = |op: &str, ty: &str, ctor: &str| {
        format!(
            "operator {op} on bool and {ty}: GLSL has no implicit conversion from bool \
             (GLSL 3.30 §4.1.10); convert explicitly ({ctor}(...)) or compile with the \
             seed profile, whose booleans are numbers"
        )
    };
    assert_eq!(
        located("c = vec4(u.w * (u.w > 0.5));"),
        [format!("t.glsl:7:14: {}", no_bool("*", "float", "float"))]
    );
    assert_eq!(
        located("int k = (u.y < 1.0) + 2; c = vec4(k);"),
        [format!("t.glsl:7:21: {}", no_bool("+", "int", "int"))]
    );
    let lit = located("float lit = u.x > 0.0; c = vec4(lit);");
    assert_eq!(lit.len(), 1, "{lit:?}");
    assert!(
        lit[0].contains("a value of type bool cannot become float"),
        "{lit:?}"
    );
    let call = located("c = vec4(twice(u.x < 0.0));");
    assert_eq!(call.len(), 1, "{call:?}");
    assert!(
        call[0].starts_with("t.glsl:7:10: ") && call[0].contains("twice"),
        "{call:?}"
    );

    // The valid twins compile under the extended profile and compute the same values
    // the seed profile gives the numeric forms.
    let decls = "float twice(float x) { return 2.0 * x; }";
    let body = "float r = 0.0; int k = int(u.y);\n\
                if (u.x != 0.0) r += 1.0; if (k != 0) r += 10.0; if (!(u.x != 0.0)) r += 100.0;\n\
                float lit = float(u.x > 0.0);\n\
                c = vec4(r, (k != 0) ? 2.0 : 3.0, u.w * float(u.w > 0.5) + lit, twice(float(u.x < 0.0)));";
    let shader = extended(&common::frag_src(decls, body)).unwrap_or_else(|e| panic!("{e}"));
    let run = |u| common::run(&shader, &[u, [0.0; 4]], &[], &csir::exec::NoSamplers).color;
    assert_eq!(run([0.5, 0.0, 0.0, 0.75]), [1.0, 3.0, 1.75, 0.0]);
    assert_eq!(run([-1.0, 3.0, 0.0, 0.25]), [11.0, 2.0, 0.0, 2.0]);
    assert_eq!(run([0.0, 0.0, 0.0, 0.0]), [100.0, 3.0, 0.0, 0.0]);
}
