//! `texture()`'s implicit level of detail (docs/csir.md "Level of detail"): in a 2×2
//! quad, SAMPLE, SAMPLE_OFFSET and SAMPLE_BIAS take λ from the quad's coarse
//! coordinate gradients (lane 1 − lane 0 along x, lane 2 − lane 0 along y) plus the
//! bias; a lone invocation takes λ = 0 (+ bias). The scalar `QuadMachine` defines it,
//! the batch interpreter bound with `Plan::bind_lod(.., true)` gives the same bits, and
//! a draw whose samplers do not depend on λ keeps the lanes compact.

mod common;
use csir::exec::batch::{FragmentLanes, MAX_LANES, Plan};
use csir::exec::{Inputs, Machine, Outputs, QUAD_LANES, QuadMachine, Samplers};
use csir::{Limits, Shader, Stage, compile};

/// A 64×64 texture whose every lookup returns `(λ, s, t, offset x)`: what the
/// sampler was asked for, so the tests can read λ back.
struct LodProbe;

impl Samplers for LodProbe {
    fn sample(&self, slot: usize, s: f32, t: f32) -> [f32; 4] {
        self.sample_lod(slot, s, t, 0.0, [0, 0])
    }
    fn sample_offset(&self, slot: usize, s: f32, t: f32, offset: [i32; 2]) -> [f32; 4] {
        self.sample_lod(slot, s, t, 0.0, offset)
    }
    fn sample_lod(&self, _slot: usize, s: f32, t: f32, lod: f32, offset: [i32; 2]) -> [f32; 4] {
        [lod, s, t, offset[0] as f32]
    }
    fn needs_lod(&self) -> bool {
        true
    }
    fn size(&self, _slot: usize) -> [u32; 2] {
        [64, 64]
    }
}

fn shader(body: &str) -> Shader {
    let src = common::frag_src("uniform sampler2D tex;\nin vec2 uv;", body);
    compile(&src, "lod.frag", Stage::Fragment, &Limits::EXTENDED).unwrap_or_else(|e| panic!("{e}"))
}

/// `uv` of quad lane `k` of the quad at (8, 4) for texel steps `kx` along x and `ky`
/// along y of a 64-texel texture (pixel centres).
fn uv(k: usize, kx: f32, ky: f32) -> [f32; 2] {
    let (dx, dy) = QUAD_LANES[k];
    let (x, y) = (8.0 + dx as f32 + 0.5, 4.0 + dy as f32 + 0.5);
    [x * kx / 64.0, y * ky / 64.0]
}

/// The quad's four colours from the scalar `QuadMachine`.
fn scalar_quad(s: &Shader, kx: f32, ky: f32) -> [[f32; 4]; 4] {
    let varyings: [Vec<[f32; 4]>; 4] = std::array::from_fn(|k| {
        let [s, t] = uv(k, kx, ky);
        vec![[s, t, 0.0, 0.0]]
    });
    let inputs: [Inputs; 4] = std::array::from_fn(|k| Inputs {
        varyings: &varyings[k],
        samplers: &LodProbe,
        ..Inputs::default()
    });
    let mut out: [Outputs; 4] = std::array::from_fn(|_| Outputs::default());
    QuadMachine::new(s).unwrap().run(&inputs, &mut out).unwrap();
    out.map(|o| o.color)
}

/// The same quad through the batch interpreter, bound for samplers that need λ
/// (`lod`) or not; also whether the bound plan runs quads.
fn batch_quad(s: &Shader, kx: f32, ky: f32, lod: bool) -> ([[f32; 4]; 4], bool) {
    let plan = Plan::new(s).unwrap();
    let draw = plan.bind_lod(&[[0.0; 4]; 2], &[], lod);
    let mut varyings = vec![[0.0f32; MAX_LANES]; 4];
    let (s_lanes, rest) = varyings.split_at_mut(1);
    for (k, (s, t)) in s_lanes[0]
        .iter_mut()
        .zip(rest[0].iter_mut())
        .take(4)
        .enumerate()
    {
        [*s, *t] = uv(k, kx, ky);
    }
    let frag_coord = [[0.0; MAX_LANES]; 4];
    let lanes = FragmentLanes {
        len: 4,
        frag_coord: &frag_coord,
        front_facing: true,
        varyings: &varyings,
        samplers: &LodProbe,
    };
    let mut regs = draw.registers();
    let mut color = [[0.0; MAX_LANES]; 4];
    draw.run(&mut regs, &lanes, &mut color);
    (
        std::array::from_fn(|k| std::array::from_fn(|c| color[c][k])),
        draw.needs_quads(),
    )
}

#[test]
fn a_quad_takes_lambda_from_its_coordinate_gradients() {
    let s = shader("c = texture(tex, uv);");
    // 4 texels per pixel along x, 1 along y: ρ = 4, λ = 2.
    for (k, c) in scalar_quad(&s, 4.0, 1.0).iter().enumerate() {
        assert_eq!(c[0], 2.0, "lane {k}");
        assert_eq!([c[1], c[2]], uv(k, 4.0, 1.0), "lane {k} samples its own uv");
    }
    // The longer gradient wins: 8 texels per pixel along y, λ = 3.
    for c in scalar_quad(&s, 1.0, 8.0) {
        assert_eq!(c[0], 3.0);
    }
    // Magnified: half a texel per pixel, λ = −1.
    for c in scalar_quad(&s, 0.5, 0.5) {
        assert_eq!(c[0], -1.0);
    }
}

#[test]
fn bias_and_offset_lookups_take_the_quads_lambda_too() {
    let s = shader("c = texture(tex, uv, 1.5);");
    for c in scalar_quad(&s, 4.0, 1.0) {
        assert_eq!(c[0], 3.5);
    }
    let s = shader("c = textureOffset(tex, uv, ivec2(3, -2));");
    for c in scalar_quad(&s, 2.0, 2.0) {
        assert_eq!([c[0], c[3]], [1.0, 3.0]);
    }
}

#[test]
fn a_lone_invocation_takes_lambda_zero_plus_the_bias() {
    let s = shader("c = texture(tex, uv) + texture(tex, uv, 2.0);");
    let varyings = [[0.3, 0.7, 0.0, 0.0]];
    let inputs = Inputs {
        varyings: &varyings,
        samplers: &LodProbe,
        ..Inputs::default()
    };
    let mut out = Outputs::default();
    Machine::new(&s).unwrap().run(&inputs, &mut out).unwrap();
    assert_eq!(out.color[0], 0.0 + 2.0);
}

#[test]
fn the_batch_interpreter_gives_the_quad_machines_bits() {
    for body in [
        "c = texture(tex, uv);",
        "c = texture(tex, uv * uv, -0.75);",
        "c = textureOffset(tex, uv, ivec2(1, 0)) * 0.5;",
        // the lookup inside a per-pixel branch still reads all four lanes' uv: with
        // 4 texels per pixel along x, uv.x is 0.53 in lanes 0, 2 and 0.59 in 1, 3
        "c = vec4(0.0); if (uv.x > 0.56) { c = texture(tex, uv * 3.0); }",
    ] {
        let s = shader(body);
        for (kx, ky) in [(4.0, 1.0), (0.5, 3.0), (7.0, 7.0)] {
            let want = scalar_quad(&s, kx, ky);
            if body.contains("0.56") && kx == 4.0 {
                assert_eq!(want[0], [0.0; 4], "lane 0 skips the branch");
                assert!(
                    want[1][0] > 3.0,
                    "lane 1 samples at the quad's λ: {:?}",
                    want[1]
                );
            }
            let (got, quads) = batch_quad(&s, kx, ky, true);
            assert!(quads, "{body}: samplers that need λ run quads");
            for k in 0..4 {
                assert_eq!(
                    got[k].map(f32::to_bits),
                    want[k].map(f32::to_bits),
                    "{body} ({kx}, {ky}) lane {k}"
                );
            }
        }
    }
}

#[test]
fn samplers_that_ignore_lambda_keep_compact_lanes() {
    let s = shader("c = texture(tex, uv);");
    let (got, quads) = batch_quad(&s, 4.0, 1.0, false);
    assert!(!quads);
    // each lane a lone invocation: λ = 0
    assert!(got.iter().all(|c| c[0] == 0.0));
}
