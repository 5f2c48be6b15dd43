//! The batch interpreter gives the scalar interpreter's bits for every TEX lookup
//! (docs/architecture.md: one definition per lane, `csir::exec::tex_lane`), and for
//! `sampler2D`'s own lookups on a GL 3.3 binding: a property test over every target
//! (1D, 2D, 3D, cube, 1D and 2D arrays, rectangle), shadow and integer samplers, the
//! lookup forms (`textureGrad` on 3D and cube maps included), wraps, filters, seamless
//! cube maps, comparisons and coordinates that include NaN, ±∞, huge, subnormal and
//! cube-edge values, each shader run as two 2×2 quads by `QuadMachine` and by the
//! batch interpreter bound with the samplers' own `needs_lod`.

use super::*;
use crate::pipeline::SlotSamplers;
use crate::texture::{Filter, MinFilter};
use csir::exec::batch::{FragmentLanes, MAX_LANES, Plan};
use csir::exec::{Inputs, Outputs, QuadMachine, Samplers};
use csir::{Limits, Shader, Stage, compile};
use proptest::prelude::*;

/// (sampler type, target, format, main's body reading `vec4 p`).
const CASES: &[(&str, TexTarget, TexFormat, &str)] = &[
    (
        "sampler2DArray",
        TexTarget::D2Array,
        TexFormat::Rgba8,
        "c = texture(uTex, p.xyz);",
    ),
    (
        "sampler2DArray",
        TexTarget::D2Array,
        TexFormat::Rgba8,
        "c = textureLod(uTex, p.xyz, p.w);",
    ),
    (
        "sampler2DArray",
        TexTarget::D2Array,
        TexFormat::Rgba8,
        "c = textureGrad(uTex, p.xyz, p.xy, p.zw);",
    ),
    (
        "sampler2DArray",
        TexTarget::D2Array,
        TexFormat::Rgba8,
        "c = textureOffset(uTex, p.xyz, ivec2(-3, 2), p.w);",
    ),
    (
        "sampler3D",
        TexTarget::D3,
        TexFormat::Rgba32f,
        "c = texture(uTex, p.xyz, p.w);",
    ),
    (
        "sampler3D",
        TexTarget::D3,
        TexFormat::Rgba32f,
        "c = vec4(textureSize(uTex, int(p.w)), 1.0);",
    ),
    (
        "samplerCube",
        TexTarget::Cube,
        TexFormat::Rgba8,
        "c = texture(uTex, p.xyz);",
    ),
    (
        "samplerCube",
        TexTarget::Cube,
        TexFormat::Rgba8,
        "c = textureLod(uTex, p.xyz, p.w);",
    ),
    (
        "sampler2DShadow",
        TexTarget::D2,
        TexFormat::Depth32f,
        "c = vec4(texture(uTex, p.xyz));",
    ),
    (
        "sampler2DShadow",
        TexTarget::D2,
        TexFormat::Depth32f,
        "c = shadow2DProj(uTex, p);",
    ),
    (
        "sampler1D",
        TexTarget::D1,
        TexFormat::Rgba16f,
        "c = texture(uTex, p.x, p.y);",
    ),
    (
        "sampler1DArray",
        TexTarget::D1Array,
        TexFormat::R8,
        "c = texture(uTex, p.xy);",
    ),
    (
        "sampler2DRect",
        TexTarget::Rect,
        TexFormat::Rg8,
        "c = texture(uTex, p.xy * 4.0);",
    ),
    (
        "isampler2DArray",
        TexTarget::D2Array,
        TexFormat::Rgba32i,
        "c = vec4(texelFetch(uTex, ivec3(p.xyz * 3.0), int(p.w)));",
    ),
    // sampler2D's own instructions on a GL 3.3 binding.
    (
        "sampler2D",
        TexTarget::D2,
        TexFormat::Rgba8,
        "c = texture(uTex, p.xy);",
    ),
    (
        "sampler2D",
        TexTarget::D2,
        TexFormat::Rgba8,
        "c = textureLod(uTex, p.xy, p.z);",
    ),
    (
        "sampler2D",
        TexTarget::D2,
        TexFormat::Rgba16f,
        "c = textureGrad(uTex, p.xy, p.zw, p.wz);",
    ),
    (
        "sampler1D",
        TexTarget::D1,
        TexFormat::Rgba8,
        "c = textureGrad(uTex, p.x, p.y, p.z);",
    ),
    (
        "sampler3D",
        TexTarget::D3,
        TexFormat::Rgba8,
        "c = textureGrad(uTex, p.xyz, p.wxy, p.zwx);",
    ),
    (
        "sampler3D",
        TexTarget::D3,
        TexFormat::Rgba16f,
        "c = textureGradOffset(uTex, p.xyz, p.wxy, p.zwx * 4.0, ivec3(1, -2, 3));",
    ),
    (
        "sampler3D",
        TexTarget::D3,
        TexFormat::Rgba8,
        "c = textureProjGrad(uTex, p, p.xyz * 0.1, p.zzz);",
    ),
    (
        "samplerCube",
        TexTarget::Cube,
        TexFormat::Rgba32f,
        "c = textureGrad(uTex, p.xyz, p.wxy, p.zwx * 0.25);",
    ),
    (
        "samplerCube",
        TexTarget::Cube,
        TexFormat::Rgba8,
        "c = texture(uTex, p.xyz, p.w);",
    ),
    (
        "samplerCubeShadow",
        TexTarget::Cube,
        TexFormat::Depth32f,
        "c = vec4(texture(uTex, p));",
    ),
    (
        "samplerCubeShadow",
        TexTarget::Cube,
        TexFormat::Depth32f,
        "c = vec4(textureGrad(uTex, p, p.wxy, p.zwx));",
    ),
    (
        "sampler1DShadow",
        TexTarget::D1,
        TexFormat::Depth32f,
        "c = vec4(texture(uTex, p.xyz));",
    ),
    (
        "sampler1DArrayShadow",
        TexTarget::D1Array,
        TexFormat::Depth32f,
        "c = vec4(texture(uTex, p.xyz));",
    ),
    (
        "sampler2DArrayShadow",
        TexTarget::D2Array,
        TexFormat::Depth32f,
        "c = vec4(texture(uTex, p));",
    ),
    (
        "sampler2DRectShadow",
        TexTarget::Rect,
        TexFormat::Depth32f,
        "c = vec4(texture(uTex, p.xyz * vec3(5.0, 4.0, 1.0)));",
    ),
    (
        "usampler3D",
        TexTarget::D3,
        TexFormat::Rgba8ui,
        "c = vec4(texture(uTex, p.xyz));",
    ),
    (
        "isamplerCube",
        TexTarget::Cube,
        TexFormat::Rgba32i,
        "c = vec4(textureLod(uTex, p.xyz, p.w));",
    ),
    (
        "usampler1DArray",
        TexTarget::D1Array,
        TexFormat::Rgba32ui,
        "c = vec4(textureOffset(uTex, p.xy, -2));",
    ),
    (
        "isampler2DRect",
        TexTarget::Rect,
        TexFormat::Rgba32i,
        "c = vec4(texture(uTex, p.xy * 6.0));",
    ),
];

/// A texture of `target` and `format`, 5×4 (×3 layers or slices; 4×4 cube faces),
/// its texels a function of their index, with its mip chain.
fn texture(target: TexTarget, format: TexFormat) -> GlTexture {
    let size = match target {
        TexTarget::D1 | TexTarget::Buffer => [5, 1, 1],
        TexTarget::D2 | TexTarget::Rect | TexTarget::D1Array => [5, 4, 1],
        TexTarget::Cube => [4, 4, 6],
        TexTarget::D3 | TexTarget::D2Array => [5, 4, 3],
    };
    let n = size.iter().product::<u32>() as usize;
    let values: Vec<[f64; 4]> = (0..n)
        .map(|i| {
            let v = |k: usize| ((i * (37 + 11 * k) + 13 * k) % 256) as f64;
            match format.class() {
                FormatClass::Depth => [v(0) / 255.0, 0.0, 0.0, 0.0],
                _ if format == TexFormat::Rgba32f || format == TexFormat::Rgba16f => {
                    [v(0) / 97.0, v(1) / 255.0, -v(2) / 50.0, 1.0]
                }
                _ => [v(0), v(1), v(2), v(3)],
            }
        })
        .collect();
    GlTexture::from_values(target, format, size, &values)
        .unwrap()
        .with_mipmaps()
}

fn shader(ty: &str, body: &str) -> Shader {
    let src = format!(
        "#version 330 core\nuniform {ty} uTex;\nin vec4 p;\nout vec4 c;\nvoid main() {{ {body} }}\n"
    );
    compile(&src, "tex.frag", Stage::Fragment, &Limits::EXTENDED).unwrap_or_else(|e| panic!("{e}"))
}

/// Colours of the 8 lanes (two quads) from `QuadMachine`.
fn scalar(s: &Shader, samplers: &dyn Samplers, p: &[[f32; 4]; 8]) -> [[f32; 4]; 8] {
    let mut out = [[0.0; 4]; 8];
    let mut machine = QuadMachine::new(s).unwrap();
    for q in 0..2 {
        let varyings: [Vec<[f32; 4]>; 4] = std::array::from_fn(|k| vec![p[4 * q + k]]);
        let inputs: [Inputs; 4] = std::array::from_fn(|k| Inputs {
            varyings: &varyings[k],
            samplers,
            ..Inputs::default()
        });
        let mut o: [Outputs; 4] = std::array::from_fn(|_| Outputs::default());
        machine.run(&inputs, &mut o).unwrap();
        for (slot, o) in out[4 * q..4 * q + 4].iter_mut().zip(&o) {
            *slot = o.color;
        }
    }
    out
}

/// The same lanes through the batch interpreter.
fn batch(s: &Shader, samplers: &dyn Samplers, p: &[[f32; 4]; 8]) -> [[f32; 4]; 8] {
    let plan = Plan::new(s).unwrap();
    let draw = plan.bind_lod(&[], &[], samplers.needs_lod());
    let mut varyings = vec![[0.0f32; MAX_LANES]; 4];
    for (c, comp) in varyings.iter_mut().enumerate() {
        for (k, lane) in p.iter().enumerate() {
            comp[k] = lane[c];
        }
    }
    let frag_coord = [[0.0; MAX_LANES]; 4];
    let lanes = FragmentLanes {
        len: 8,
        frag_coord: &frag_coord,
        front_facing: true,
        varyings: &varyings,
        samplers,
    };
    let mut regs = draw.registers();
    let mut color = [[0.0; MAX_LANES]; 4];
    draw.run(&mut regs, &lanes, &mut color);
    std::array::from_fn(|k| std::array::from_fn(|c| color[c][k]))
}

fn coordinate() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -2.0f32..3.0,
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(0.5f32),
        // Exactly on a cube edge and corner, where seamless filtering reads across.
        1 => Just(1.0f32),
        1 => Just(-1.0f32),
        // Huge: past every texture and past i32 once scaled to texels.
        1 => prop::sample::select(vec![3.0e9f32, -7.5e12, 1.0e30, f32::MAX, -f32::MAX]),
        // Tiny and subnormal (a cube direction's minor axes, λ's gradients).
        1 => prop::sample::select(vec![1.0e-40f32, -0.0, 1.0e-20]),
    ]
}

fn wrap() -> impl Strategy<Value = GlWrap> {
    prop::sample::select(GlWrap::NAMES.map(|(_, w)| w).to_vec())
}

fn state() -> impl Strategy<Value = GlSampler> {
    (
        prop::sample::select(vec![Filter::Nearest, Filter::Linear]),
        prop::sample::select(MinFilter::NAMES.map(|(_, f)| f).to_vec()),
        [wrap(), wrap(), wrap()],
        -1.0f32..1.0,
        prop::sample::select(vec![
            None,
            Some(CompareFunc::Lequal),
            Some(CompareFunc::Greater),
        ]),
        0u32..2,
        any::<bool>(),
    )
        .prop_map(
            |(mag, min, wrap, bias, compare, base, seamless)| GlSampler {
                mag_filter: mag,
                min_filter: min,
                wrap,
                border_color: [0.25, 0.5, 0.75, 1.0],
                compare,
                lod_bias: bias,
                base_level: base,
                seamless_cube_map: seamless,
                ..GlSampler::default()
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn batch_gives_the_scalar_bits_for_every_lookup(
        case in 0..CASES.len(),
        state in state(),
        p in prop::array::uniform8(prop::array::uniform4(coordinate())),
    ) {
        let (ty, target, format, body) = CASES[case];
        let s = shader(ty, body);
        let tex = texture(target, format);
        let mut slots = SlotSamplers::default();
        slots.bind_gl33(0, &tex, state);
        let want = scalar(&s, &slots, &p);
        let got = batch(&s, &slots, &p);
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            prop_assert_eq!(
                g.map(f32::to_bits),
                w.map(f32::to_bits),
                "{} lane {} p {:?}", body, k, p[k]
            );
        }
    }
}

#[test]
fn lookups_see_the_texture() {
    // A sanity check of the harness: the 3D size query reads level 0's 5×4×3.
    let s = shader("sampler3D", "c = vec4(textureSize(uTex, int(p.w)), 1.0);");
    let tex = texture(TexTarget::D3, TexFormat::Rgba32f);
    let mut slots = SlotSamplers::default();
    slots.bind_gl33(0, &tex, GlSampler::default());
    let p = [[0.0; 4]; 8];
    let got = batch(&s, &slots, &p);
    assert_eq!(got[0], [5.0, 4.0, 3.0, 1.0]);
    assert_eq!(
        scalar(&s, &slots, &p)[0].map(f32::to_bits),
        got[0].map(f32::to_bits)
    );
}
