//! Differential property test: an expression over uniforms computed at run time gives
//! the same value as the same expression with the uniforms written as literals, which
//! the front end folds at compile time (docs/csir-original.md B §1.7). Only operations
//! whose folding is exact are generated, so the results must be equal, not just close.

mod common;
use common::{frag_src, run};
use csir::exec::NoSamplers;
use csir::{Limits, Stage, compile};
use proptest::prelude::*;

fn lit(v: f32) -> String {
    format!("{v:?}")
}

/// A float expression over `u.x .. u.w`.
fn float_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        prop::sample::select(vec!["u.x", "u.y", "u.z", "u.w"]).prop_map(String::from),
        (-8i32..8, 0u32..4).prop_map(|(n, d)| lit(n as f32 / (1 << d) as f32)),
    ];
    leaf.prop_recursive(4, 24, 3, |e| {
        prop_oneof![
            (
                e.clone(),
                prop::sample::select(vec!["+", "-", "*", "/"]),
                e.clone()
            )
                .prop_map(|(a, o, b)| format!("({a} {o} {b})")),
            (
                prop::sample::select(vec!["min", "max", "step", "mod"]),
                e.clone(),
                e.clone()
            )
                .prop_map(|(f, a, b)| format!("{f}({a}, {b})")),
            (
                prop::sample::select(vec!["abs", "floor", "ceil", "fract", "sign", "trunc", "-"]),
                e.clone()
            )
                .prop_map(|(f, a)| format!("{f}({a})")),
            (e.clone(), e.clone(), e.clone())
                .prop_map(|(a, b, c)| format!("clamp({a}, min({b}, {c}), max({b}, {c}))")),
            (e.clone(), e.clone(), e.clone()).prop_map(|(a, b, t)| format!("mix({a}, {b}, {t})")),
            (e.clone(), e.clone(), e.clone(), e.clone())
                .prop_map(|(a, b, x, y)| format!("({a} < {b} ? {x} : {y})")),
            e.clone().prop_map(|a| format!("sqrt(abs({a}))")),
            (e.clone(), e.clone()).prop_map(|(a, b)| format!("length(vec2({a}, {b}))")),
            (e.clone(), e.clone())
                .prop_map(|(a, b)| format!("dot(vec3({a}, 1.0, {b}), vec3({b}, {a}, 0.5))")),
        ]
    })
}

/// An int expression over `i.x .. i.w` (an `ivec4` built from `u`).
fn int_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        prop::sample::select(vec!["i.x", "i.y", "i.z", "i.w"]).prop_map(String::from),
        (-20i32..20).prop_map(|n| n.to_string()),
    ];
    leaf.prop_recursive(3, 12, 2, |e| {
        (
            e.clone(),
            prop::sample::select(vec!["+", "-", "*", "/", "%"]),
            e,
        )
            .prop_map(|(a, o, b)| format!("({a} {o} {b})"))
    })
}

fn both(decls: &str, expr: &str, u: [f32; 4]) -> Option<([f32; 4], [f32; 4])> {
    let runtime = frag_src(decls, &format!("c = vec4({expr});"));
    let s = compile_or_div0(&runtime)?;
    let got = run(&s, &[u], &[], &NoSamplers).color;
    let folded_decls = decls
        .replace("u.x", &lit(u[0]))
        .replace("u.y", &lit(u[1]))
        .replace("u.z", &lit(u[2]))
        .replace("u.w", &lit(u[3]));
    let folded_expr = expr
        .replace("u.x", &lit(u[0]))
        .replace("u.y", &lit(u[1]))
        .replace("u.z", &lit(u[2]))
        .replace("u.w", &lit(u[3]));
    let src = frag_src(&folded_decls, &format!("c = vec4({folded_expr});"));
    match compile(&src, "folded", Stage::Fragment, &Limits::LARGE) {
        Ok(f) => {
            // Fully folded: no arithmetic left.
            assert!(f.live_instructions() <= 8, "{src}\n{}", csir::ir::dump(&f));
            Some((got, run(&f, &[], &[], &NoSamplers).color))
        }
        Err(e) if e.has("division by zero") => None,
        Err(e) => panic!("{e}"),
    }
}

/// The compiled shader, or `None` when a constant divisor is zero.
fn compile_or_div0(src: &str) -> Option<csir::Shader> {
    match compile(src, "t", Stage::Fragment, &Limits::LARGE) {
        Ok(s) => Some(s),
        Err(e) if e.has("division by zero") => None,
        Err(e) => panic!("{e}"),
    }
}

fn same(a: f32, b: f32) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn float_folding_matches_run_time(expr in float_expr(), u in prop::array::uniform4(-16i32..16)) {
        let u = u.map(|n| n as f32 / 4.0);
        if let Some((run_time, folded)) = both("", &expr, u) {
            prop_assert!(same(run_time[0], folded[0]), "{expr} with u = {u:?}: run time {run_time:?}, folded {folded:?}");
        }
    }

    #[test]
    fn int_folding_matches_run_time(expr in int_expr(), u in prop::array::uniform4(-40i32..40)) {
        let u = u.map(|n| n as f32);
        let body = format!("float({expr})");
        let runtime = frag_src("", &format!("ivec4 i = ivec4(u); c = vec4({body});"));
        let Some(s) = compile_or_div0(&runtime) else {
            return Ok(());
        };
        let got = run(&s, &[u], &[], &NoSamplers).color[0];
        let folded = frag_src("", &format!("ivec4 i = ivec4({}, {}, {}, {}); c = vec4({body});", u[0] as i32, u[1] as i32, u[2] as i32, u[3] as i32));
        match compile(&folded, "folded", Stage::Fragment, &Limits::LARGE) {
            Ok(f) => {
                let want = run(&f, &[], &[], &NoSamplers).color[0];
                prop_assert_eq!(got, want, "{} with i = {:?}", expr, u);
            }
            Err(e) => prop_assert!(e.has("division by zero"), "{}", e),
        }
    }
}

/// MIN and MAX with a NaN operand fold to the value the interpreter computes, by
/// profile: the seed's `a < b ? a : b` / `a > b ? a : b` gives `b`, the extended
/// profile's IEEE minNum/maxNum the number (docs/csir.md "MIN and MAX"). The NaN is
/// `inf - inf`, folded, or `u.x` at run time; ±0 and ±inf keep their signs.
#[test]
fn min_and_max_with_nan_fold_as_they_run_in_each_profile() {
    let body = |n: &str| {
        format!(
            "float n = {n};\n\
             c = vec4(max(n, 3.0) + max(3.0, n) * 10.0, min(n, -0.0), min(-0.0, n),\n\
                      clamp(n, -1.0, 1.0) + max(min(2.0, n), -{INF}) * 100.0);"
        )
    };
    const INF: &str = "(1.0e38 * 10.0)";
    let nan = f32::NAN;
    for (limits, want) in [
        // Seed: max(n, 3) = 3, max(3, n) = n, min(n, -0) = -0, min(-0, n) = n; clamp(n)
        // = min(max(n, -1), 1) = -1; min(2, n) = n, max(n, -inf) = -inf.
        (Limits::SEED, [nan, -0.0, nan, f32::NEG_INFINITY]),
        // Extended: the number every time (clamp(n) = -1 as well).
        (Limits::EXTENDED, [33.0, -0.0, -0.0, -1.0 + 2.0 * 100.0]),
    ] {
        let folded = compile(
            &frag_src("", &body(&format!("{INF} - {INF}"))),
            "t",
            Stage::Fragment,
            &limits,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let at_run_time = compile(&frag_src("", &body("u.x")), "t", Stage::Fragment, &limits)
            .unwrap_or_else(|e| panic!("{e}"));
        let u = [[nan, 0.0, 0.0, 0.0], [0.0; 4]];
        let bits = |c: [f32; 4]| c.map(|x| if x.is_nan() { u32::MAX } else { x.to_bits() });
        let f = run(&folded, &u, &[], &NoSamplers).color;
        let r = run(&at_run_time, &u, &[], &NoSamplers).color;
        assert_eq!(bits(f), bits(want), "{:?} folded: {f:?}", limits.profile);
        assert_eq!(
            bits(r),
            bits(want),
            "{:?} at run time: {r:?}",
            limits.profile
        );
    }
}
