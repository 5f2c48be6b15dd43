//! `textureLod`, a bias, `textureGrad` and the levels of `textureSize` / `texelFetch`
//! (GLSL 1.30 §8.7) under the extended profile: SAMPLE_LOD, SAMPLE_BIAS and
//! SAMPLE_GRAD hand the sampler the level of detail (λ from the gradients by
//! `lod_from_gradients`) and the texel offset; TEXSIZE and TEXFETCH read mip levels.
//! The TGSI executor (TXL, TXB, TXD) and a CSI v2 round trip agree
//! (`backends::check`). The seed profile keeps SAMPLE, which ignores the level, and
//! names `textureGrad`.

mod backends;
mod common;
use csir::exec::{Samplers, lod_from_gradients};
use csir::ir::Op;
use csir::{Limits, Stage, compile};

/// A 64×16 texture of 7 levels that echoes what it is asked: `sample_lod` gives `(λ,
/// s + dx, t + dy, 1)`, `sample` and `sample_offset` the same with λ = −1, and a
/// texel of level `k` at (i, j) is `(k, i, j, 0.5)`.
struct Echo;

impl Samplers for Echo {
    fn sample(&self, slot: usize, s: f32, t: f32) -> [f32; 4] {
        self.sample_offset(slot, s, t, [0, 0])
    }

    fn sample_offset(&self, _slot: usize, s: f32, t: f32, [dx, dy]: [i32; 2]) -> [f32; 4] {
        [-1.0, s + dx as f32, t + dy as f32, 1.0]
    }

    fn sample_lod(&self, _: usize, s: f32, t: f32, lod: f32, [dx, dy]: [i32; 2]) -> [f32; 4] {
        [lod, s + dx as f32, t + dy as f32, 1.0]
    }

    fn size(&self, _slot: usize) -> [u32; 2] {
        [64, 16]
    }

    fn levels(&self, _slot: usize) -> u32 {
        7
    }

    fn level_texel(&self, _slot: usize, level: u32, i: u32, j: u32) -> [f32; 4] {
        [level as f32, i as f32, j as f32, 0.5]
    }
}

/// `c = BODY` compiled under the extended profile, checked on every back end, run on
/// [`Echo`] with `u` as the first uniform; also returns the opcodes it has.
fn run(body: &str, u: [f32; 4]) -> ([f32; 4], Vec<Op>) {
    let src = common::frag_src("uniform sampler2D s;", &format!("c = {body};"));
    let shader = compile(&src, "lod.frag", Stage::Fragment, &Limits::EXTENDED)
        .unwrap_or_else(|e| panic!("{body}: {e}"));
    backends::check(&shader, &[u, [0.0; 4]], &[]);
    let ops = shader.ir.iter().filter_map(|i| i.opcode()).collect();
    (common::run(&shader, &[u, [0.0; 4]], &[], &Echo).color, ops)
}

#[test]
fn texture_lod_passes_the_level_and_the_offset() {
    let u = [0.25, 0.5, 2.75, 0.0];
    let (c, ops) = run("textureLod(s, u.xy, u.z)", u);
    assert_eq!(c, [2.75, 0.25, 0.5, 1.0]);
    assert!(ops.contains(&Op::SampleLod));
    let (c, _) = run("textureLodOffset(s, u.xy, -u.z, ivec2(3, -2))", u);
    assert_eq!(c, [-2.75, 3.25, -1.5, 1.0]);
    // projective: (0.5, 1.0) / 2
    let (c, _) = run("textureProjLod(s, vec3(0.5, 1.0, 2.0), 1.0)", u);
    assert_eq!(c, [1.0, 0.25, 0.5, 1.0]);
    // the legacy name, and an int level converted
    let (c, _) = run("texture2DLod(s, u.xy, 3)", u);
    assert_eq!(c, [3.0, 0.25, 0.5, 1.0]);
}

#[test]
fn a_bias_is_the_level_until_quads_give_an_implicit_one() {
    let u = [0.25, 0.5, 1.5, 0.0];
    let (c, ops) = run("texture(s, u.xy, u.z)", u);
    assert_eq!(c, [1.5, 0.25, 0.5, 1.0]);
    assert!(ops.contains(&Op::SampleBias));
    let (c, _) = run("textureOffset(s, u.xy, ivec2(1, 1), -0.5)", u);
    assert_eq!(c, [-0.5, 1.25, 1.5, 1.0]);
    // without a bias, SAMPLE as before
    let (c, ops) = run("texture(s, u.xy)", u);
    assert_eq!(c, [-1.0, 0.25, 0.5, 1.0]);
    assert!(ops.contains(&Op::Sample) && !ops.contains(&Op::SampleBias));
}

#[test]
fn texture_grad_gives_the_level_of_its_gradients() {
    let u = [0.25, 0.5, 0.0, 0.0];
    // 64×16: ds/dx = 4/64 is 4 texels per pixel: λ = 2
    let (c, ops) = run(
        "textureGrad(s, u.xy, vec2(4.0 / 64.0, 0.0), vec2(0.0, 1.0 / 16.0))",
        u,
    );
    assert_eq!(c, [2.0, 0.25, 0.5, 1.0]);
    assert!(ops.contains(&Op::SampleGrad));
    // dt/dy = 8/16 is 8 texels: λ = 3; the order of dPdx and dPdy does not matter for ρ
    let (c, _) = run("textureGrad(s, u.xy, vec2(0.0, 0.0), vec2(0.0, 0.5))", u);
    assert_eq!(c, [3.0, 0.25, 0.5, 1.0]);
    // run-time gradients, each lane where it belongs: (3/64, 4/64) is (3, 1) texels
    // on 64×16, ρ² = 10 = 1.25·2³: λ = ½·(3 + 0.25)
    let v = [0.25, 0.5, 3.0 / 64.0, 4.0 / 64.0];
    let (c, _) = run(
        "textureGradOffset(s, u.xy, u.zw, vec2(0.0), ivec2(-1, 2))",
        v,
    );
    let lod = lod_from_gradients([64, 16], [3.0 / 64.0, 4.0 / 64.0, 0.0, 0.0]);
    assert_eq!(lod, 1.625);
    assert_eq!(c, [lod, -0.75, 2.5, 1.0]);
    let (c, _) = run("textureGrad(s, u.xy, vec2(0.0), u.zw)", v);
    assert_eq!(c[0], lod);
}

#[test]
fn texture_size_and_texel_fetch_read_the_levels() {
    let u = [0.0; 4];
    let size = |lod: i32| {
        let (c, _) = run(&format!("vec4(textureSize(s, {lod}), 0, 0)"), u);
        [c[0], c[1]]
    };
    assert_eq!(size(0), [64.0, 16.0]);
    assert_eq!(size(3), [8.0, 2.0]);
    assert_eq!(size(5), [2.0, 1.0]);
    assert_eq!(size(6), [1.0, 1.0]);
    assert_eq!(size(7), [0.0, 0.0]);
    assert_eq!(size(-1), [0.0, 0.0]);
    let fetch =
        |x: i32, y: i32, lod: i32| run(&format!("texelFetch(s, ivec2({x}, {y}), {lod})"), u).0;
    assert_eq!(fetch(7, 1, 3), [3.0, 7.0, 1.0, 0.5]);
    assert_eq!(fetch(8, 1, 3), [0.0; 4]); // level 3 is 8×2
    assert_eq!(fetch(0, 2, 3), [0.0; 4]);
    assert_eq!(fetch(0, 0, 6), [6.0, 0.0, 0.0, 0.5]);
    assert_eq!(fetch(0, 0, 7), [0.0; 4]);
}

#[test]
fn the_seed_profile_keeps_sample_and_names_texture_grad() {
    let lod = common::frag_src("uniform sampler2D s;", "c = textureLod(s, u.xy, 2.0);");
    let shader = compile(&lod, "t.glsl", Stage::Fragment, &Limits::SEED).expect("compiles");
    assert!(shader.ir.iter().any(|i| i.op == Op::Sample.code()));
    assert!(!shader.ir.iter().any(|i| i.op == Op::SampleLod.code()));
    let grad = common::frag_src(
        "uniform sampler2D s;",
        "c = textureGrad(s, u.xy, u.zw, u.zw);",
    );
    let errors = common::located_with(&grad, Stage::Fragment, &Limits::SEED);
    assert!(
        errors[0].contains("`textureGrad` needs the extended profile"),
        "{errors:?}"
    );
    // the valid twin
    compile(&grad, "t.glsl", Stage::Fragment, &Limits::EXTENDED).expect("compiles");
}

#[test]
fn texture_grad_rejects_wrong_arguments() {
    let bad = [
        (
            "textureGrad(s, u.xy, u.x, u.zw)",
            "wrong arguments: no 'textureGrad' takes (sampler2D, vec2, float, vec2)",
        ),
        (
            "textureGrad(s, u.xy, u.zw)",
            "wrong arguments: no 'textureGrad' takes (sampler2D, vec2, vec2)",
        ),
        (
            "textureGradOffset(s, u.xy, u.zw, u.zw, ivec2(u.xy))",
            "textureGradOffset",
        ),
        (
            "textureGradOffset(s, u.xy, u.zw, u.zw, ivec2(9, 0))",
            "textureGradOffset",
        ),
    ];
    for (call, want) in bad {
        let src = common::frag_src("uniform sampler2D s;", &format!("c = {call};"));
        let errors = common::located_with(&src, Stage::Fragment, &Limits::EXTENDED);
        assert!(errors[0].contains(want), "{call}: {errors:?}");
    }
    // valid twins
    for call in [
        "textureGrad(s, u.xy, u.zw, u.zw)",
        "textureGradOffset(s, u.xy, u.zw, u.zw, ivec2(7, -8))",
    ] {
        let src = common::frag_src("uniform sampler2D s;", &format!("c = {call};"));
        compile(&src, "t.glsl", Stage::Fragment, &Limits::EXTENDED).expect(call);
    }
}

#[test]
fn a_bias_is_refused_outside_the_fragment_stage() {
    let vert = |call: &str| {
        format!(
            "#version 330 core\nuniform sampler2D t;\nin vec2 uv;\nout vec4 c;\n\
             void main() {{ c = {call}; gl_Position = vec4(uv, 0.0, 1.0); }}\n"
        )
    };
    for (call, hint) in [
        ("texture(t, uv, 1.0)", "use textureLod)"),
        (
            "textureOffset(t, uv, ivec2(1, 0), 2.0)",
            "use textureLodOffset)",
        ),
    ] {
        let e = csir::compile(
            &vert(call),
            "b.vert",
            csir::Stage::Vertex,
            &csir::Limits::EXTENDED,
        )
        .err()
        .unwrap_or_else(|| panic!("{call} compiled in a vertex shader"))
        .to_string();
        assert!(e.contains("bias argument of `texture"), "{e}");
        assert!(e.contains("GLSL 1.30 §8.7") && e.contains(hint), "{e}");
    }
    // the valid twins: an explicit level in the vertex shader, a bias in a fragment one
    csir::compile(
        &vert("textureLod(t, uv, 1.0)"),
        "l.vert",
        csir::Stage::Vertex,
        &csir::Limits::EXTENDED,
    )
    .unwrap();
    let frag = "#version 330 core\nuniform sampler2D t;\nin vec2 uv;\nout vec4 c;\n\
                void main() { c = texture(t, uv, 1.0); }\n";
    csir::compile(
        frag,
        "b.frag",
        csir::Stage::Fragment,
        &csir::Limits::EXTENDED,
    )
    .unwrap();
}
