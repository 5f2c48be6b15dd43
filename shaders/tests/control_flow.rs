//! Differential property test for control flow: a random program whose inputs are
//! uniforms (run-time IFs, early-exit flags, values written before branches) must
//! compute what the same program computes when its inputs are literals (every
//! condition known, so the front end folds it straight through: the reference).

mod common;
use common::{frag_src, run};
use csir::exec::NoSamplers;
use csir::{Limits, Stage, compile};
use proptest::prelude::*;

const HELPERS: &str = "float g = 0.5;\n\
float h1(float x) { if (x > 0.0) return x * 2.0; g += 1.0; return -x; }\n\
void h2(inout float y) { if (y < 1.0) { y = y + 3.0; return; } y = y * 0.5; g -= y; }\n\
float h3(float x) { for (int k = 0; k < 3; k++) { if (x > float(k)) { g += x; continue; } if (x < -2.0) return x; x += 1.0; } return x + g; }\n\
void h4(out vec3 o, float x) { o = vec3(x, x * 2.0, 0.5); if (x > 1.0) return; o.z = g; g = o.y; }";

fn expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        prop::sample::select(vec![
            "a",
            "b",
            "d",
            "g",
            "u.x",
            "u.y",
            "u.z",
            "float(i)",
            "w.x",
            "w.z",
            "dot(w, vec3(0.5, 1.0, -1.0))",
            "float(int(a * 3.0) / 2)",
            "float(int(b) % 3)"
        ])
        .prop_map(String::from),
        (-4i32..5).prop_map(|n| format!("{:?}", n as f32 * 0.5)),
    ];
    leaf.prop_recursive(2, 8, 2, |e| {
        prop_oneof![
            (
                e.clone(),
                prop::sample::select(vec!["+", "-", "*"]),
                e.clone()
            )
                .prop_map(|(x, o, y)| format!("({x} {o} {y})")),
            (
                prop::sample::select(vec!["min", "max"]),
                e.clone(),
                e.clone()
            )
                .prop_map(|(f, x, y)| format!("{f}({x}, {y})")),
            e.clone().prop_map(|x| format!("h1({x})")),
            e.clone().prop_map(|x| format!("h3({x})")),
            (e.clone(), e.clone(), e.clone())
                .prop_map(|(c, x, y)| format!("({c} > 0.0 ? {x} : {y})")),
            (
                e.clone(),
                prop::sample::select(vec!["&&", "||"]),
                e.clone(),
                e.clone()
            )
                .prop_map(|(c, o, x, y)| format!("(({c} > 0.0 {o} h1({x}) > 1.0) ? {x} : {y})")),
        ]
    })
}

fn var() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["a", "b", "d", "g"])
}

fn stmt() -> impl Strategy<Value = String> {
    let simple = prop_oneof![
        (
            var(),
            prop::sample::select(vec!["=", "+=", "-=", "*="]),
            expr()
        )
            .prop_map(|(v, o, e)| format!("{v} {o} {e};")),
        var().prop_map(|v| format!("h2({v});")),
        var().prop_map(|v| format!("{v}++;")),
        expr().prop_map(|e| format!("w.x = {e};")),
        (expr(), expr()).prop_map(|(x, y)| format!("w.zy += vec2({x}, {y});")),
        expr().prop_map(|e| format!("w = w.yzx * {e};")),
        expr().prop_map(|e| format!("h4(w, {e});")),
    ];
    simple.prop_recursive(3, 24, 4, |s| {
        let block = prop::collection::vec(s.clone(), 0..4).prop_map(|v| v.join(" "));
        prop_oneof![
            (expr(), expr(), block.clone(), block.clone()).prop_map(|(x, y, t, e)| format!("if ({x} < {y}) {{ {t} }} else {{ {e} }}")),
            (1u8..4, block.clone(), expr()).prop_map(|(n, b, c)| format!(
                "for (int i = 0; i < {n}; i++) {{ {b} if ({c} > 1.0) break; if ({c} < -1.0) continue; a += 0.25; }}"
            )),
            (expr(), block.clone()).prop_map(|(c, b)| format!("if ({c} > 2.0) {{ {b} c = vec4(a, b, d + w.x, g); return; }}")),
            block.prop_map(|b| format!("{{ float a = d; {b} d = a; }}")),
        ]
    })
}

fn program() -> impl Strategy<Value = String> {
    prop::collection::vec(stmt(), 1..5).prop_map(|v| v.join("\n"))
}

fn outputs(src: &str, u: [f32; 4]) -> Option<[f32; 4]> {
    match compile(src, "p", Stage::Fragment, &Limits::LARGE) {
        Ok(s) => Some(run(&s, &[u], &[], &NoSamplers).color),
        Err(e)
            if e
                .diagnostics()
                .iter()
                .any(|d| d.message.starts_with("shader needs "))
                || e.has("conditionals are nested too deeply")
                || e.has("shader exceeds the compile-time work limit")
                // Folding can reach an int CSIR cannot hold exactly (the run-time
                // program then has an overflowed int(), undefined in GLSL too).
                || e.diagnostics().iter().any(|d| d.message.contains("(2^24 - 1)")) =>
        {
            None
        }
        Err(e) => panic!("{e}\n{src}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn run_time_control_flow_matches_folded(body in program(), u in prop::array::uniform3(-6i32..7)) {
        let u = [u[0] as f32 * 0.5, u[1] as f32 * 0.5, u[2] as f32 * 0.5, 0.0];
        let main = format!("float a = u.x; float b = u.y; float d = 1.0; int i = 0; vec3 w = vec3(u.z, 1.0, -0.5);\n{body}\nc = vec4(a + w.x, b + w.y, d + w.z, g);");
        let runtime = frag_src(HELPERS, &main);
        let lit = |v: f32| format!("{v:?}");
        let folded = runtime.replace("u.x", &lit(u[0])).replace("u.y", &lit(u[1])).replace("u.z", &lit(u[2]));
        let folded = folded.replace("uniform vec4 u;", "");
        let (Some(got), Some(want)) = (outputs(&runtime, u), outputs(&folded, u)) else {
            return Ok(());
        };
        for k in 0..4 {
            prop_assert!(got[k] == want[k] || (got[k].is_nan() && want[k].is_nan()),
                "lane {} differs: run time {:?}, folded {:?}\n{}", k, got, want, runtime);
        }
    }
}
