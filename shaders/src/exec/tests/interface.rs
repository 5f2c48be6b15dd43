//! Interface loads and stores, and SAMPLE per sampler slot (docs/csir.md "Interface loads",
//! "Interface stores", "Varying remap", "Sampling"; docs/csir-original.md A2, B §4).

use super::*;
use crate::exec::{DEFAULT_ATTRIBUTE, NearestClampTexture, NoSamplers};

#[test]
fn vertex_loads_attributes_and_stores_position_and_varyings() {
    let mut b = Build::new(Stage::Vertex);
    let (p, missing) = (b.load_attr(0), b.load_attr(5));
    b.emit(Ir::new(Op::StoreVar, Type::Vec4).a(p).aux(7));
    b.emit(Ir::new(Op::StoreVar, Type::Vec4).a(missing).aux(2));
    let shader = b.finish();
    let attributes = [[1.0, 2.0, 3.0, 4.0]];
    let inputs = Inputs {
        attributes: &attributes,
        ..Inputs::default()
    };
    let (out, _) = run(&shader, &inputs);
    // Position was never stored: it keeps its initial (0, 0, 0, 1).
    assert_eq!(out.position, [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(out.varyings[7], [1.0, 2.0, 3.0, 4.0]);
    // Location 5 is not supplied: OpenGL's default attribute.
    assert_eq!(out.varyings[2], DEFAULT_ATTRIBUTE);
    assert_eq!(out.varyings[0], [0.0; 4]);

    let mut b = Build::new(Stage::Vertex);
    let p = b.load_attr(0);
    b.emit(Ir::new(Op::StorePos, Type::Vec4).a(p));
    let (out, _) = run(&b.finish(), &inputs);
    assert_eq!(out.position, [1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn load_var_follows_the_remap_and_reads_four_lanes() {
    let mut b = Build::new(Stage::Fragment);
    let (v0, v1, v2) = (b.temp(), b.temp(), b.temp());
    b.emit(Ir::new(Op::LoadVar, Type::Vec2).dst(v0).aux(0).ncomp(2));
    b.emit(Ir::new(Op::LoadVar, Type::Vec4).dst(v1).aux(1).ncomp(4));
    b.emit(Ir::new(Op::LoadVar, Type::Vec4).dst(v2).aux(2).ncomp(4));
    let shader = b.finish();
    let varyings: Vec<[f32; 4]> = (0..8).map(|k| [k as f32, 0.5, 0.25, 1.0]).collect();
    // Fragment slot 0 reads vertex slot 3, slot 1 is unmapped (-1), slot 2 reads 6.
    let remap = [3i16, -1, 6];
    let (_, temps) = run(
        &shader,
        &Inputs {
            varyings: &varyings,
            var_remap: &remap,
            ..Inputs::default()
        },
    );
    assert_eq!(temps[v0 as usize], [3.0, 0.5, 0.25, 1.0]);
    assert_eq!(temps[v1 as usize], [1.0, 0.5, 0.25, 1.0]);
    assert_eq!(temps[v2 as usize], [6.0, 0.5, 0.25, 1.0]);
    // Without a remap every slot reads itself.
    let (_, temps) = run(
        &shader,
        &Inputs {
            varyings: &varyings,
            ..Inputs::default()
        },
    );
    assert_eq!(temps[v0 as usize][0], 0.0);
    assert_eq!(temps[v2 as usize][0], 2.0);
}

#[test]
fn load_fcoord_reads_the_fragment_coordinate() {
    let mut b = Build::new(Stage::Fragment);
    let f = b.temp();
    b.emit(Ir::new(Op::LoadFcoord, Type::Vec4).dst(f).ncomp(4));
    b.emit(Ir::new(Op::StoreColor, Type::Vec4).a(f));
    let inputs = Inputs {
        frag_coord: [10.5, 20.5, 0.25, 0.5],
        ..Inputs::default()
    };
    let (out, _) = run(&b.finish(), &inputs);
    assert_eq!(out.color, [10.5, 20.5, 0.25, 0.5]);
}

/// `color = texture(sampler[slot], u0.xy)`.
fn sample_shader(slot: i16) -> Shader {
    let mut b = Build::new(Stage::Fragment);
    let uv = b.load_uni(0, 1);
    let c = b.temp();
    b.emit(
        Ir::new(Op::Sample, Type::Vec4)
            .dst(c)
            .a(uv)
            .aux(slot)
            .ncomp(4),
    );
    b.emit(Ir::new(Op::StoreColor, Type::Vec4).a(c));
    b.finish()
}

fn sample(shader: &Shader, samplers: &dyn crate::exec::Samplers, s: f32, t: f32) -> [f32; 4] {
    let uniforms = [[s, t, 0.0, 0.0]];
    let inputs = Inputs {
        uniforms: &uniforms,
        samplers,
        ..Inputs::default()
    };
    run(shader, &inputs).0.color
}

/// A 4×2 texture whose texel (i, j) is (i·50, j·100, 7, 255).
fn gradient() -> NearestClampTexture {
    let mut bytes = Vec::new();
    for j in 0..2u8 {
        for i in 0..4u8 {
            bytes.extend_from_slice(&[i * 50, j * 100, 7, 255]);
        }
    }
    NearestClampTexture::new(4, 2, &bytes).unwrap()
}

fn texel(i: u8, j: u8) -> [f32; 4] {
    [
        (i * 50) as f32 / 255.0,
        (j * 100) as f32 / 255.0,
        7.0 / 255.0,
        1.0,
    ]
}

#[test]
fn sample_honours_the_sampler_slot() {
    let textures = vec![
        NearestClampTexture::solid([255, 0, 0, 255]),
        NearestClampTexture::solid([0, 0, 255, 128]),
    ];
    assert_eq!(
        sample(&sample_shader(0), &textures, 0.5, 0.5),
        [1.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        sample(&sample_shader(1), &textures, 0.5, 0.5),
        [0.0, 0.0, 1.0, 128.0 / 255.0]
    );
    // A slot with no texture, and no samplers at all: zeros.
    assert_eq!(sample(&sample_shader(2), &textures, 0.5, 0.5), [0.0; 4]);
    assert_eq!(sample(&sample_shader(0), &NoSamplers, 0.5, 0.5), [0.0; 4]);
}

#[test]
fn sample_is_nearest_with_clamp_at_centres_and_edges() {
    let shader = sample_shader(0);
    let tex = gradient();
    // Texel centres: ((i + 0.5) / 4, (j + 0.5) / 2); row 0 is at t = 0.
    for j in 0..2u8 {
        for i in 0..4u8 {
            let (s, t) = ((i as f32 + 0.5) / 4.0, (j as f32 + 0.5) / 2.0);
            assert_eq!(
                sample(&shader, &tex, s, t),
                texel(i, j),
                "centre ({i}, {j})"
            );
        }
    }
    // Edges: 0.25 starts texel 1; 1.0 and beyond clamp to the last texel.
    assert_eq!(sample(&shader, &tex, 0.25, 0.0), texel(1, 0));
    assert_eq!(sample(&shader, &tex, 0.249_999_99, 0.0), texel(0, 0));
    assert_eq!(sample(&shader, &tex, 1.0, 1.0), texel(3, 1));
    assert_eq!(sample(&shader, &tex, -5.0, 0.5), texel(0, 1));
    assert_eq!(sample(&shader, &tex, 7.0, -1.0), texel(3, 0));
    // Non-finite coordinates never fail.
    assert_eq!(sample(&shader, &tex, f32::NAN, f32::INFINITY), texel(0, 1));
}
