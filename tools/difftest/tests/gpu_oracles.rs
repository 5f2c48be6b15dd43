//! The GPU oracles (`src/gpu.rs`, docs/robustness.md "The GPU oracles"): the
//! wrapper that reads a program's bits back through RGBA8 is checked on the scalar
//! interpreter itself (no driver needed), the budget is checked to catch a wrong
//! value, and, where llvmpipe and `virgl_test_server` are installed, a few dozen
//! programs are drawn on each and must agree, while a program given other uniforms
//! must not.

use csir::exec::{Inputs, Machine, NoSamplers, Outputs};
use difftest::gpu::{self, Backend, Case};
use difftest::oracle::{self, Check};
use std::path::Path;

fn case_of(seed: u64) -> Case {
    let (p, _) = difftest::generator::generate(seed);
    let src = p.source();
    let inputs = difftest::inputs_of(&p);
    let Check::Agree(run) = oracle::check(&src, &inputs) else {
        panic!("seed {seed} does not run");
    };
    let shader = oracle::compile_frag(&src).unwrap();
    gpu::case(format!("seed {seed}"), &src, &shader, &inputs, run).expect("a case")
}

/// The wrapped program, run by the scalar interpreter on the 20 × 4 pixels of its
/// block as a driver runs it, writes bytes that decode to the unwrapped program's
/// bits exactly, and the marker where the fragment was not discarded.
#[test]
fn the_wrapper_writes_the_programs_bits_as_bytes() {
    for seed in [3, 17, 40] {
        let case = case_of(seed);
        let shader = oracle::compile_frag(&case.wrapped).unwrap_or_else(|e| panic!("{e}"));
        let uniforms = oracle::uniform_slots(&shader, &case.inputs);
        let mut m = Machine::new(&shader).unwrap();
        let mut bytes = [[[0u8; 4]; gpu::BLOCK_W]; gpu::BLOCK_H];
        for (y, row) in bytes.iter_mut().enumerate() {
            for (x, px) in row.iter_mut().enumerate() {
                let inp = Inputs {
                    uniforms: &uniforms,
                    varyings: &[],
                    frag_coord: [x as f32 + 0.5, y as f32 + 0.5, 0.5, 1.0],
                    front_facing: true,
                    samplers: &NoSamplers,
                    ..Inputs::default()
                };
                let mut out = Outputs::default();
                m.run(&inp, &mut out).unwrap();
                *px = if out.discarded {
                    [0; 4]
                } else {
                    out.color.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
                };
            }
        }
        let mut discarded = 0;
        for i in 0..oracle::FRAGMENTS {
            let (fx, fy) = (i % 4, i / 4);
            let alive = bytes[fy][fx + 16] == [255; 4];
            assert_eq!(
                !alive, case.reference.discarded[i],
                "seed {seed} fragment {i}"
            );
            if !alive {
                discarded += 1;
                continue;
            }
            for k in 0..4 {
                let got = u32::from_le_bytes(bytes[fy][fx + 4 * k]);
                let want = case.reference.color[i][k];
                let nan = f32::from_bits(got).is_nan() && f32::from_bits(want).is_nan();
                assert!(
                    got == want || nan,
                    "seed {seed} fragment {i} component {k}: {got:08x} vs {want:08x}"
                );
            }
        }
        assert!(
            discarded < oracle::FRAGMENTS,
            "seed {seed}: every fragment discarded"
        );
    }
}

/// The budget takes the reference's own bits and catches a value 1/1000 off.
#[test]
fn a_value_outside_the_budget_is_a_difference() {
    let case = case_of(5);
    assert_eq!(gpu::first_difference(&case, &case.reference), None);
    assert!(case.budget.compared() > 32, "{:?}", case.budget);
    let (i, c) = (0..oracle::FRAGMENTS)
        .flat_map(|i| (0..4).map(move |c| (i, c)))
        .find(|&(i, c)| case.budget.allowed[i][c].is_some() && !case.reference.discarded[i])
        .expect("a compared output");
    let mut wrong = case.reference.clone();
    let x = f32::from_bits(wrong.color[i][c]);
    wrong.color[i][c] = (x + 0.001 * x.abs().max(1.0)).to_bits();
    assert!(gpu::first_difference(&case, &wrong).is_some());
}

fn llvmpipe() -> bool {
    matches!(
        csir_render::gl::driver_info(&csir_render::gl::GlOptions::default()),
        Ok(info) if info.is_llvmpipe()
    )
}

fn virgl_server() -> bool {
    use csir_virgl::server::{DEFAULT_SERVER, SERVER_ENV};
    let program = std::env::var(SERVER_ENV).unwrap_or_else(|_| DEFAULT_SERVER.to_owned());
    if program.contains('/') {
        Path::new(&program).is_file()
    } else {
        std::env::var_os("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(&program).is_file()))
    }
}

fn backends() -> Vec<Backend> {
    let mut b = vec![];
    if llvmpipe() {
        b.push(Backend::Gl);
    }
    if virgl_server() {
        b.push(Backend::Virgl);
    }
    if b.len() < 2 {
        assert!(
            std::env::var_os("CSIR_REQUIRE_TEST_DEPS").is_none(),
            "llvmpipe or virgl_test_server missing and CSIR_REQUIRE_TEST_DEPS is set: run scripts/test-deps.sh"
        );
        eprintln!("gpu_oracles: running on {b:?} only (llvmpipe / virgl_test_server missing)");
    }
    b
}

/// 24 generated programs in one frame agree on each back end; a program whose
/// drawn values have their top mantissa bit flipped (bit 22: a change of a quarter
/// to a half of the value) does not.
#[test]
fn the_back_ends_agree_and_a_wrong_input_is_caught() {
    let cases: Vec<Case> = (200..224).map(case_of).collect();
    let refs: Vec<&Case> = cases.iter().collect();
    let mut wrong = cases[0].clone();
    let encode = "    dtw_out = vec4(uvec4(dtw_b,";
    assert!(wrong.wrapped.contains(encode));
    wrong.wrapped = wrong
        .wrapped
        .replace(encode, &format!("    dtw_b ^= 0x400000u;\n{encode}"));
    for backend in backends() {
        let verdicts = gpu::check_all(backend, &refs);
        assert!(
            verdicts.iter().all(Option::is_none),
            "{backend:?}: {verdicts:#?}"
        );
        let v = gpu::check_all(backend, &[&wrong]);
        assert!(v[0].is_some(), "{backend:?}: a flipped bit went unnoticed");
    }
}

/// The low bits of an inexact value are the implementation's: seed 300120 switches on
/// `floatBitsToInt(pow(...)) & 3`, where llvmpipe's `pow` has other low bits than
/// `exec::math`'s (both within GLSL's precision) and so takes the other case. The
/// budget must not compare the outputs that depend on it (it was a false finding
/// on `gl` and `virgl` before the bits were perturbed).
#[test]
fn the_bits_of_an_inexact_value_are_not_compared() {
    let src = "#version 330 core\nuniform float uf;\nin vec4 vv;\nout vec4 c;\n\
               void main() {\n    vec3 g2 = vec3(0.5, -1.0, 2.0);\n    \
               switch ((floatBitsToInt(pow(abs(uf) + 0.5, clamp(vv.y, -3.0, 3.0))) & 3)) {\n    \
               case 1:\n        break;\n    default:\n        g2 = vec3(0.5);\n        break;\n    }\n    \
               c = vec4(1.0, dot(g2, vec3(1.0, 0.5, 0.25)), 0.0, 0.0);\n}\n";
    let (p, _) = difftest::generator::generate(300120);
    let inputs = difftest::inputs_of(&p);
    let Check::Agree(run) = oracle::check(src, &inputs) else {
        panic!("does not run");
    };
    let shader = oracle::compile_frag(src).unwrap();
    let case = gpu::case("300120".into(), src, &shader, &inputs, run).unwrap();
    for i in 0..oracle::FRAGMENTS {
        assert!(
            case.budget.allowed[i][0].is_some(),
            "fragment {i}: the constant 1.0 is compared"
        );
        assert_eq!(
            case.budget.allowed[i][1], None,
            "fragment {i}: the switch's result is not"
        );
    }
}
