//! `textureOffset`, `textureProjOffset`, `textureLodOffset` and `textureProjLodOffset`
//! (GLSL 1.30 §8.7) under the extended profile: SAMPLE_OFFSET adds the constant texel
//! offset to the integer texel coordinates before the wrap (here the test texture's
//! nearest clamp-to-edge), at constant and run-time coordinates; the TGSI executor
//! (TEX with a texture offset) and a CSI v2 round trip agree (`backends::check`); the
//! offset must be a constant expression within -8..=7; the seed profile names the
//! function.

mod backends;
mod common;
use csir::exec::NearestClampTexture;
use csir::ir::Op;
use csir::{Limits, Stage, compile};

/// A 4×3 texture: row 0 (t = 0) first, texel (i, j) = (40·i, 100 + j, 5, 255 − i − j).
fn texture() -> NearestClampTexture {
    let mut bytes = Vec::new();
    for j in 0..3u8 {
        for i in 0..4u8 {
            bytes.extend([40 * i, 100 + j, 5, 255 - i - j]);
        }
    }
    NearestClampTexture::new(4, 3, &bytes).unwrap()
}

fn texel(i: u8, j: u8) -> [f32; 4] {
    [40 * i, 100 + j, 5, 255 - i - j].map(|c| f32::from(c) / 255.0)
}

/// `c = CALL` on the texture of [`texture`] at slot 0, checked on every back end.
fn sample(call: &str, u: [f32; 4]) -> [f32; 4] {
    let body = format!("c = {call};");
    let src = common::frag_src("uniform sampler2D s;", &body);
    let shader = compile(&src, "offset.frag", Stage::Fragment, &Limits::EXTENDED)
        .unwrap_or_else(|e| panic!("{call}: {e}"));
    assert!(
        shader.ir.iter().any(|i| matches!(
            i.opcode(),
            Some(Op::SampleOffset | Op::SampleLod | Op::SampleBias)
        )),
        "{call}: no SAMPLE_OFFSET, SAMPLE_LOD or SAMPLE_BIAS"
    );
    backends::check(&shader, &[u, [0.0; 4]], &[]);
    common::run(&shader, &[u, [0.0; 4]], &[], &vec![texture()]).color
}

/// The centre of texel (i, j) as a texture coordinate.
fn centre(i: f32, j: f32) -> [f32; 4] {
    [(i + 0.5) / 4.0, (j + 0.5) / 3.0, 0.0, 0.0]
}

#[test]
fn the_offset_moves_the_texel_before_the_clamp() {
    // From texel (1, 1): every offset within the texture reaches its texel.
    for (dx, dy) in [(0, 0), (1, 0), (2, 1), (-1, -1), (1, -1), (-1, 1)] {
        let call = format!("textureOffset(s, u.xy, ivec2({dx}, {dy}))");
        let (i, j) = ((1 + dx) as u8, (1 + dy) as u8);
        assert_eq!(sample(&call, centre(1.0, 1.0)), texel(i, j), "{call}");
    }
    // Past the edges the clamp applies to the moved index: (0, 2) + (-8, 7) is (0, 2),
    // (3, 0) + (7, -8) is (3, 0).
    assert_eq!(
        sample("textureOffset(s, u.xy, ivec2(-8, 7))", centre(0.0, 2.0)),
        texel(0, 2)
    );
    assert_eq!(
        sample("textureOffset(s, u.xy, ivec2(7, -8))", centre(0.0, 2.0)),
        texel(3, 0)
    );
    // The offset applies to the texel the coordinate selects, even one outside [0, 1]
    // (clamped after the offset: ⌊-0.3·4⌋ = -2, + 3 = 1).
    assert_eq!(
        sample("textureOffset(s, u.xy, ivec2(3, 0))", [-0.3, 0.5, 0.0, 0.0]),
        texel(1, 1)
    );
}

#[test]
fn constant_coordinates_bias_projective_and_lod_forms() {
    let u = [0.0; 4];
    assert_eq!(
        sample("textureOffset(s, vec2(0.1, 0.1), ivec2(2, 1), 1.5)", u),
        texel(2, 1)
    );
    // (0.3, 0.5, 2) projects to (0.15, 0.25): texel (0, 0), moved by (3, 2).
    assert_eq!(
        sample("textureProjOffset(s, vec3(0.3, 0.5, 2.0), ivec2(3, 2))", u),
        texel(3, 2)
    );
    assert_eq!(
        sample(
            "textureProjOffset(s, vec4(0.3, 0.5, 7.0, 2.0), ivec2(1, 1), 0.0)",
            u
        ),
        texel(1, 1)
    );
    assert_eq!(
        sample(
            "textureLodOffset(s, u.xy + vec2(0.9, 0.1), 0.0, ivec2(-2, 0))",
            u
        ),
        texel(1, 0)
    );
    assert_eq!(
        sample(
            "textureProjLodOffset(s, vec3(0.3, 1.5, 1.0), 0.0, ivec2(2, -2))",
            u
        ),
        texel(3, 2)
    );
}

/// Compile `c = CALL;` with the constant `k` declared; the first error message.
fn error(call: &str, limits: &Limits) -> Result<(), String> {
    let src = common::frag_src(
        "uniform sampler2D s;\nconst ivec2 k = ivec2(3, -2);",
        &format!("c = {call};"),
    );
    compile(&src, "o.frag", Stage::Fragment, limits)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[test]
fn offsets_must_be_constant_and_within_minus_8_to_7() {
    // Valid twins: a named constant and the range's ends compile, and compute.
    assert_eq!(
        error("textureOffset(s, u.xy, k)", &Limits::EXTENDED),
        Ok(())
    );
    assert_eq!(
        sample("textureOffset(s, u.xy, ivec2(-2, 2) - 1)", centre(3.0, 0.0)),
        texel(0, 1)
    );
    assert_eq!(
        error(
            "textureLodOffset(s, u.xy, 0.0, ivec2(-8, 7))",
            &Limits::EXTENDED
        ),
        Ok(())
    );
    for (call, name, what) in [
        (
            "textureOffset(s, u.xy, ivec2(8, 0))",
            "textureOffset",
            "texel offset (8, 0)",
        ),
        (
            "textureLodOffset(s, u.xy, 0.0, ivec2(0, -9))",
            "textureLodOffset",
            "texel offset (0, -9)",
        ),
        (
            "textureProjOffset(s, u.xyz, ivec2(-9, 9))",
            "textureProjOffset",
            "texel offset (-9, 9)",
        ),
        (
            "textureOffset(s, u.xy, ivec2(u.zw))",
            "textureOffset",
            "must be a constant expression",
        ),
        (
            "textureProjLodOffset(s, u.xyz, 0.0, ivec2(int(u.x), 0))",
            "textureProjLodOffset",
            "must be a constant expression",
        ),
    ] {
        let m = error(call, &Limits::EXTENDED).unwrap_err();
        assert!(
            m.contains(what) && m.contains(&format!("`{name}`")),
            "{call}: {m}"
        );
        if what.starts_with("texel offset") {
            assert!(
                m.contains("-8..=7 (MIN_PROGRAM_TEXEL_OFFSET..=MAX_PROGRAM_TEXEL_OFFSET)"),
                "{m}"
            );
        } else {
            assert!(m.contains("(GLSL 1.30 §8.7)"), "{m}");
        }
    }
}

#[test]
fn the_seed_profile_names_the_function() {
    for name in [
        "textureOffset(s, u.xy, ivec2(1))",
        "textureProjOffset(s, u.xyz, ivec2(1))",
        "textureLodOffset(s, u.xy, 0.0, ivec2(1))",
        "textureProjLodOffset(s, u.xyz, 0.0, ivec2(1))",
    ] {
        let m = error(name, &Limits::SEED).unwrap_err();
        let function = &name[..name.find('(').unwrap()];
        assert!(
            m.contains(&format!("`{function}` needs the extended profile")),
            "{m}"
        );
    }
}

#[test]
fn wrong_arguments_are_named() {
    for call in [
        "textureOffset(s, u.xy)",
        "textureOffset(s, u.xy, vec2(1.0))",
        "textureOffset(s, u.xy, ivec3(1))",
        "textureOffset(s, u.xyz, ivec2(1))",
        "textureOffset(s, u.xy, ivec2(1), 0.0, 1.0)",
        "textureLodOffset(s, u.xy, ivec2(1))",
        "textureLodOffset(s, u.xy, ivec2(1), 0.0)",
        "textureProjOffset(s, u.xy, ivec2(1))",
    ] {
        let m = error(call, &Limits::EXTENDED).unwrap_err();
        let function = &call[..call.find('(').unwrap()];
        assert!(
            m.contains(&format!("{function}() expects a sampler2D")),
            "{call}: {m}"
        );
    }
}
