//! The logarithm built-ins of the extended profile: `log2` is LG2 within
//! 1 ulp, `log`, `asinh`, `acosh`, `atanh` compose it, every width gives the same
//! bits, the batch interpreter, the TGSI executor and a CSI v2 round trip agree
//! (`backends::check`), and the seed profile names the function it cannot compile.
//! Likewise its inverse: `exp2` is EX2, `exp` and the hyperbolic functions compose it
//! under the extended profile; the seed profile keeps POW.

mod backends;
mod common;
use csir::exec::NoSamplers;
use csir::{Limits, Shader, Stage, compile};

fn build(body: &str) -> Shader {
    let src = common::frag_src("uniform vec4 w;", body);
    compile(&src, "log.frag", Stage::Fragment, &Limits::EXTENDED).unwrap_or_else(|e| panic!("{e}"))
}

/// `call` (with `X` for the argument) on the four lanes of `u`, as one vec4 and lane
/// by lane: the same bits; returns the vec4 result.
fn eval(call: &str, u: [f32; 4]) -> [f32; 4] {
    let whole = build(&format!("c = {};", call.replace('X', "u")));
    let lanes = build(&format!(
        "c = vec4({}, {}, {}, {});",
        call.replace('X', "u.x"),
        call.replace('X', "u.y"),
        call.replace('X', "u.z"),
        call.replace('X', "u.w")
    ));
    let uniforms = [u, [0.0; 4], [0.0; 4]];
    let mut out = Vec::new();
    for s in [&whole, &lanes] {
        backends::check(s, &uniforms, &[]);
        out.push(common::run(s, &uniforms, &[], &NoSamplers).color);
    }
    assert_eq!(out[0].map(f32::to_bits), out[1].map(f32::to_bits), "{call}");
    out[0]
}

fn near(got: [f32; 4], want: [f64; 4], rel: f64) {
    for i in 0..4 {
        let err = (f64::from(got[i]) - want[i]).abs();
        assert!(
            err <= rel * want[i].abs().max(1e-30) || (got[i].is_nan() && want[i].is_nan()),
            "lane {i}: got {got:?}, want {want:?}"
        );
    }
}

#[test]
fn log2_is_within_one_ulp_and_exact_on_powers_of_two() {
    let got = eval("log2(X)", [8.0, 0.125, 1.0, 3.0]);
    assert_eq!(&got[..3], &[3.0, -3.0, 0.0]);
    near(got, [3.0, -3.0, 0.0, 3f64.log2()], 6e-8);
    let special = eval("log2(X)", [0.0, -1.0, f32::INFINITY, 1e-40]);
    assert_eq!(special[0], f32::NEG_INFINITY);
    assert!(special[1].is_nan());
    assert_eq!(special[2], f32::INFINITY);
    near([special[3]; 4], [f64::from(1e-40f32).log2(); 4], 6e-8);
}

#[test]
fn log_and_the_inverse_hyperbolics_match_f64() {
    let u = [0.5f32, 2.0, 10.0, 1e10];
    near(eval("log(X)", u), u.map(|x| f64::from(x).ln()), 3e-7);
    let s = [-10.0f32, -0.1, 1.0, 1e10];
    near(eval("asinh(X)", s), s.map(|x| f64::from(x).asinh()), 3e-6);
    let c = [1.0f32, 1.5, 10.0, 1e10];
    near(eval("acosh(X)", c), c.map(|x| f64::from(x).acosh()), 3e-6);
    let t = [-0.9f32, -0.1, 0.5, 0.99];
    near(eval("atanh(X)", t), t.map(|x| f64::from(x).atanh()), 3e-6);
}

#[test]
fn constant_arguments_fold_to_the_interpreters_value() {
    let folded = build("c = vec4(log2(3.0), log(10.0), 0.0, 1.0);");
    let run = common::run(&folded, &[[0.0; 4]; 3], &[], &NoSamplers).color;
    assert_eq!(run[0].to_bits(), csir::exec::math::lg2(3.0).to_bits());
    near([run[1]; 4], [10f64.ln(); 4], 3e-7);
}

#[test]
fn exp2_is_ex2_exact_on_integers_and_within_one_ulp() {
    let got = eval("exp2(X)", [3.0, -126.0, -149.0, 0.3]);
    assert_eq!(&got[..3], &[8.0, f32::MIN_POSITIVE, f32::from_bits(1)]);
    near(
        got,
        [8.0, 2f64.powi(-126), 2f64.powi(-149), 0.3f64.exp2()],
        6e-8,
    );
    let special = eval("exp2(X)", [128.0, -200.0, f32::INFINITY, f32::NEG_INFINITY]);
    assert_eq!(special, [f32::INFINITY, 0.0, f32::INFINITY, 0.0]);
    assert!(eval("exp2(X)", [f32::NAN; 4])[0].is_nan());
}

/// GLSL 1.30 §8.2: `exp` within 3 + 2·|x| ulp; the hyperbolic functions are built from
/// it.
#[test]
fn exp_and_the_hyperbolics_match_f64() {
    let u = [-80.0f32, -1.5, 0.7, 88.0];
    let got = eval("exp(X)", u);
    for (g, x) in got.iter().zip(u) {
        let exact = f64::from(x).exp();
        let ulp = f64::from(f32::from_bits((exact as f32).to_bits() + 1) - exact as f32);
        let err = (f64::from(*g) - exact).abs() / ulp;
        assert!(
            err <= 3.0 + 2.0 * f64::from(x.abs()),
            "exp({x}) = {g}: {err} ulp"
        );
    }
    let h = [-3.0f32, -0.5, 0.25, 5.0];
    near(eval("sinh(X)", h), h.map(|x| f64::from(x).sinh()), 3e-6);
    near(eval("cosh(X)", h), h.map(|x| f64::from(x).cosh()), 3e-6);
    near(eval("tanh(X)", h), h.map(|x| f64::from(x).tanh()), 3e-6);
}

/// The extended profile lowers `exp2`/`exp` to EX2 (no POW); the seed profile, which
/// has no EX2, keeps POW.
#[test]
fn exp_uses_ex2_only_under_the_extended_profile() {
    use csir::Op;
    let src = common::frag_src(
        "uniform vec4 w;",
        "c = vec4(exp2(u.x), exp(u.y), sinh(u.z), 1.0);",
    );
    let ops = |limits: &Limits| {
        let shader = compile(&src, "e.frag", Stage::Fragment, limits).unwrap();
        let has = |op: Op| shader.ir.iter().any(|r| r.opcode() == Some(op));
        (has(Op::Ex2), has(Op::Pow))
    };
    assert_eq!(ops(&Limits::EXTENDED), (true, false));
    assert_eq!(ops(&Limits::SEED), (false, true));
}

#[test]
fn constant_exponentials_fold_to_the_interpreters_value() {
    let folded = build("c = vec4(exp2(3.5), exp2(-0.25), 0.0, 1.0);");
    assert!(!folded.ir.iter().any(|r| r.opcode() == Some(csir::Op::Ex2)));
    let run = common::run(&folded, &[[0.0; 4]; 3], &[], &NoSamplers).color;
    assert_eq!(run[0].to_bits(), csir::exec::math::ex2(3.5).to_bits());
    assert_eq!(run[1].to_bits(), csir::exec::math::ex2(-0.25).to_bits());
}

#[test]
fn the_seed_profile_names_the_function() {
    for f in ["log", "log2", "asinh", "acosh", "atanh"] {
        let src = common::frag_src("", &format!("c = vec4({f}(u.x));"));
        let e = compile(&src, "s.frag", Stage::Fragment, &Limits::SEED).unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains(&format!("{f} needs the extended profile")),
            "{m}"
        );
    }
}
