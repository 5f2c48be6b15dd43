//! The two back ends agree: for hand-built shaders and random verified programs, the
//! emitted TGSI parses under virglrenderer's rules, and executing it gives the CSIR
//! interpreter's outputs bit for bit — with the interpreter's definitions of the
//! exceptional cases on every input, and with TGSI's own definitions wherever no
//! documented exceptional case occurs (SIN/COS/POW within rounding).

mod tgsi_common;

use csir::ir::{Ir, Op, Shader, Stage, SymbolKind, Type};
use tgsi_common::check::{InputSet, Prepared, Report, random_inputs, random_textures};
use tgsi_common::hand::{self, Hand};
use tgsi_common::random::{Rng, random_shader};

fn run_many(p: &Prepared, rng: &mut Rng, runs: usize, value: fn(&mut Rng) -> f32) -> Report {
    let textures = random_textures(rng);
    let mut total = Report::default();
    for _ in 0..runs {
        let inputs = random_inputs(rng, value);
        let r = p
            .check(&inputs, &textures)
            .unwrap_or_else(|e| panic!("{e}"));
        total.divergences += r.divergences;
        total.roundings += r.roundings;
        total.max_rounding_ulps = total.max_rounding_ulps.max(r.max_rounding_ulps);
    }
    total
}

#[test]
fn hand_built_shaders_agree_on_ordinary_and_exceptional_inputs() {
    let mut rng = Rng::new(7);
    let remap: &[i16] = &[2, -1, -1, -1, -1, -1, -1, -1];
    let shaders = [
        hand::constant_color(),
        hand::mvp_vertex(),
        hand::textured(),
        hand::lit(),
        hand::branchy(),
    ];
    for shader in &shaders {
        for remap in [None, Some(remap)] {
            let p = Prepared::new(shader, remap).unwrap_or_else(|e| panic!("{e}"));
            let ordinary = run_many(&p, &mut rng, 64, Rng::ordinary);
            assert_eq!(
                ordinary.divergences, 0,
                "{}: ordinary inputs diverged",
                shader.name
            );
            run_many(&p, &mut rng, 64, Rng::mixed);
        }
    }
}

#[test]
fn random_programs_agree() {
    let mut rng = Rng::new(0x5eed);
    let mut divergences = 0;
    let mut max_ulps = 0;
    for n in 0..240 {
        let stage = if n % 2 == 0 {
            Stage::Vertex
        } else {
            Stage::Fragment
        };
        let steps = 10 + rng.below(150);
        let shader = random_shader(&mut rng, stage, steps);
        let remap: Vec<i16> = (0..8).map(|_| rng.below(9) as i16 - 1).collect();
        let remap = (stage == Stage::Fragment && rng.percent(50)).then_some(remap.as_slice());
        let p = Prepared::new(&shader, remap).unwrap_or_else(|e| panic!("program {n}: {e}"));
        let ordinary = run_many(&p, &mut rng, 4, Rng::ordinary);
        let mixed = run_many(&p, &mut rng, 4, Rng::mixed);
        divergences += ordinary.divergences + mixed.divergences;
        max_ulps = max_ulps
            .max(ordinary.max_rounding_ulps)
            .max(mixed.max_rounding_ulps);
    }
    eprintln!("random corpus: {divergences} divergences, max rounding {max_ulps} ulps");
    // The corpus must reach the exceptional cases, or it proves little about them.
    assert!(
        divergences > 100,
        "only {divergences} divergences exercised"
    );
    assert!(max_ulps <= 1);
}

/// A fragment shader computing `op` of uniform slots 0 and 1 into the colour (under
/// the extended profile for its instructions).
fn single_op(op: Op, ncomp: u8, profile: csir::Profile) -> Shader {
    let mut h = Hand::new("op.frag", Stage::Fragment);
    h.symbol("u0", Type::Vec4, SymbolKind::Uniform { slot: 0 })
        .symbol("u1", Type::Vec4, SymbolKind::Uniform { slot: 1 })
        .symbol("c", Type::Vec4, SymbolKind::color_out(0));
    let a = h.load(Op::LoadUni, Type::Vec4, 0, 1);
    let b = h.load(Op::LoadUni, Type::Vec4, 1, 1);
    let r = h.op(op, a, b, ncomp);
    h.push(Ir::new(Op::StoreColor, Type::Vec4).a(r).ncomp(4));
    match op.info().profile.max(profile) {
        csir::Profile::Seed => h.finish(),
        csir::Profile::Extended => h.finish_with(csir::Limits::EXTENDED),
    }
}

/// `(op, a, b)` in a shader of `profile` (the extended one for an extended
/// instruction) → (interpreter's lane x, TGSI's lane x).
fn both(op: Op, a: f32, b: f32, profile: csir::Profile) -> (f32, f32) {
    use tgsi_common::exec::{Env, Executor, Semantics};
    let shader = single_op(op, 1, profile);
    let p = Prepared::new(&shader, None).unwrap();
    let inputs = InputSet {
        uniforms: vec![[a, 0.0, 0.0, 0.0], [b, 0.0, 0.0, 0.0]],
        ..InputSet::default()
    };
    let report = p
        .check(&inputs, &Vec::<csir::exec::NearestClampTexture>::new())
        .unwrap_or_else(|e| panic!("{e}"));
    let env = Env {
        attributes: &[],
        varyings: &[],
        frag_coord: [0.0; 4],
        front_facing: true,
        constants: &inputs.uniforms,
        samplers: &csir::exec::NoSamplers,
    };
    let exec = Executor::new(&p.program, shader.limits.profile);
    let csir = exec.run(&env, Semantics::Csir).unwrap().color.unwrap()[0];
    let tgsi = exec.run(&env, Semantics::Tgsi).unwrap();
    assert_eq!(report.divergences, tgsi.divergences.len());
    (csir, tgsi.color.unwrap()[0])
}

fn bits(x: f32) -> u32 {
    if x.is_nan() { 0x7fc0_0000 } else { x.to_bits() }
}

#[test]
fn exceptional_values_differ_exactly_as_the_semantics_table_says() {
    let nan = f32::NAN;
    let inf = f32::INFINITY;
    use csir::Profile::{Extended, Seed};
    // Each case in a seed-profile shader (an extended instruction in an extended one).
    let cases: &[(Op, f32, f32, f32, f32)] = &[
        // op, a, b, interpreter, TGSI
        (Op::Pow, -2.0, 2.0, 4.0, nan),
        (Op::Pow, 0.0, 0.0, 1.0, nan),
        (Op::Pow, 0.0, -1.0, inf, nan),
        (Op::Pow, 2.0, 3.0, 8.0, 8.0),
        (Op::Min, 1.0, nan, nan, 1.0),
        (Op::Min, nan, 1.0, 1.0, 1.0),
        (Op::Max, 1.0, nan, nan, 1.0),
        (Op::Max, 2.0, 1.0, 2.0, 2.0),
        // Agreeing on exceptional values: no mark needed.
        (Op::Mul, 0.0, inf, nan, nan),
        (Op::Sin, inf, 0.0, nan, nan),
        (Op::Trunc, nan, 0.0, nan, nan),
        (Op::Abs, -0.0, 0.0, 0.0, 0.0),
        (Op::Sub, 0.0, 0.0, 0.0, 0.0),
        // RSQ is emitted with the interpreter's meaning (TGSI's own RSQ gives ±inf or
        // NaN for these): sqrt(x) = x·rsq(x) is then 0 at 0 on the GPU too.
        (Op::Rsq, 0.0, 0.0, 0.0, 0.0),
        (Op::Rsq, -0.0, 0.0, 0.0, 0.0),
        (Op::Rsq, -4.0, 0.0, 0.0, 0.0),
        (Op::Rsq, nan, 0.0, 0.0, 0.0),
        (Op::Rsq, inf, 0.0, 0.0, 0.0),
        (Op::Rsq, 4.0, 0.0, 0.5, 0.5),
        // So is RCP (TGSI's own RCP gives ±inf at ±0): length(v) = rcp(rsq(dot(v, v)))
        // is then 0 for a zero vector on the GPU too.
        (Op::Rcp, 0.0, 0.0, 0.0, 0.0),
        (Op::Rcp, -0.0, 0.0, 0.0, 0.0),
        (Op::Rcp, 4.0, 0.0, 0.25, 0.25),
        (Op::Rcp, -inf, 0.0, -0.0, -0.0),
        (Op::Rcp, nan, 0.0, nan, nan),
        // DIV (extended profile) is IEEE division on both sides, poles included.
        (Op::Div, 0.0, 0.0, nan, nan),
        (Op::Div, 1.0, 0.0, inf, inf),
        (Op::Div, 1.0, -0.0, -inf, -inf),
        (Op::Div, -6.0, 3.0, -2.0, -2.0),
        (Op::Div, inf, inf, nan, nan),
    ];
    // The extended profile's MIN and MAX are IEEE minNum/maxNum: TGSI's, NaN or not.
    let extended: &[(Op, f32, f32, f32, f32)] = &[
        (Op::Min, 1.0, nan, 1.0, 1.0),
        (Op::Min, nan, 1.0, 1.0, 1.0),
        (Op::Min, nan, nan, nan, nan),
        (Op::Min, -inf, nan, -inf, -inf),
        (Op::Max, 1.0, nan, 1.0, 1.0),
        (Op::Max, nan, -0.0, -0.0, -0.0),
        (Op::Max, nan, inf, inf, inf),
        (Op::Max, 2.0, 1.0, 2.0, 2.0),
    ];
    let all = cases.iter().map(|c| (Seed, c));
    for (profile, &(op, a, b, interp, tgsi)) in all.chain(extended.iter().map(|c| (Extended, c))) {
        let (got_interp, got_tgsi) = both(op, a, b, profile);
        assert_eq!(
            (bits(got_interp), bits(got_tgsi)),
            (bits(interp), bits(tgsi)),
            "{op:?}({a}, {b}), {profile:?}: interpreter {got_interp}, TGSI {got_tgsi}"
        );
        let differs = bits(interp) != bits(tgsi);
        if differs {
            assert!(
                csir::tgsi::divergence(op, profile).is_some(),
                "{op:?} differs but is not marked"
            );
        }
    }
    for op in csir::ir::ALL_OPS {
        for profile in [Seed, Extended] {
            let marked = csir::tgsi::divergence(op, profile).is_some();
            let expected = matches!(
                op,
                Op::Pow | Op::IDiv | Op::UDiv | Op::IMod | Op::UMod | Op::F2I | Op::F2U
            ) || (matches!(op, Op::Min | Op::Max) && profile == Seed);
            assert_eq!(marked, expected, "{op:?} {profile:?}");
        }
    }
}

/// Every integer and bit instruction of the extended profile (and LG2 and
/// EX2, whose TGSI differs by rounding only, and DIV, IEEE division on both sides), emitted as
/// TGSI (the comparisons with the `AND` that turns ~0 into 1.0) and run by the TGSI
/// executor, gives the interpreter's bits on edge patterns: zero, ±1, INT_MIN,
/// INT_MAX, shift counts 31 to 33, `INT_MIN / -1`, division by zero, float patterns.
#[test]
fn integer_instructions_agree_bit_for_bit_on_edge_patterns() {
    let edges: [u32; 12] = [
        0,
        1,
        u32::MAX,
        0x8000_0000,
        0x7fff_ffff,
        31,
        32,
        33,
        0xffff_fffe,
        0x3f80_0000,
        0x7fc0_0000,
        0xdead_beef,
    ];
    let f = f32::from_bits;
    let n = edges.len();
    let mut checked = 0;
    for op in csir::ir::ALL_OPS {
        // The extended compute instructions (LOAD_FACE, a load, has its own tests).
        let info = op.info();
        if info.profile != csir::Profile::Extended || info.effect != csir::ir::Effect::Compute {
            continue;
        }
        let mut h = Hand::new("int.frag", Stage::Fragment);
        h.symbol("u0", Type::IVec4, SymbolKind::Uniform { slot: 0 })
            .symbol("u1", Type::IVec4, SymbolKind::Uniform { slot: 1 })
            .symbol("c", Type::Vec4, SymbolKind::color_out(0));
        let a = h.load(Op::LoadUni, Type::IVec4, 0, 1);
        let b = h.load(Op::LoadUni, Type::IVec4, 1, 1);
        let r = h.op(op, a, b, 4);
        h.push(Ir::new(Op::StoreColor, Type::Vec4).a(r).ncomp(4));
        let shader = h.finish_with(csir::Limits::EXTENDED);
        let p = Prepared::new(&shader, None).unwrap_or_else(|e| panic!("{op:?}: {e}"));
        for (i, &x) in edges.iter().enumerate() {
            for &y in &edges {
                let inputs = InputSet {
                    uniforms: vec![
                        [f(x), f(edges[(i + 1) % n]), f(edges[(i + 5) % n]), f(y)],
                        [f(y), f(x), f(0), f(edges[(i + 3) % n])],
                    ],
                    ..InputSet::default()
                };
                let report = p
                    .check(&inputs, &Vec::<csir::exec::NearestClampTexture>::new())
                    .unwrap_or_else(|e| panic!("{op:?}: {e}"));
                assert_eq!(report.divergences, 0, "{op:?}({x:#x}, {y:#x})");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 33 * 144);
}
