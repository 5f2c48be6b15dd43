//! `textureSize` (GLSL 1.30 §8.7) under the extended profile: TEXSIZE gives the bound
//! texture's width and height at level 0, and 0 by 0 at a level the one-level texture
//! does not have (as llvmpipe does), at a constant or a run-time level; the TGSI
//! executor and a CSI v2 round trip agree (`backends::check`); the seed profile names
//! the function.

mod backends;
mod common;
use csir::exec::NearestClampTexture;
use csir::{Limits, Stage, compile};

/// `c = vec4(textureSize(s, LOD), textureSize(t, LOD))` with `LOD` given as GLSL,
/// on a 5×3 texture at `s` (slot 0) and a 1×1 at `t` (slot 1).
fn sizes(lod: &str, u: [f32; 4]) -> [f32; 4] {
    let body = format!("c = vec4(textureSize(s, {lod}), textureSize(t, {lod}));");
    let src = common::frag_src("uniform sampler2D s;\nuniform sampler2D t;", &body);
    let shader = compile(&src, "size.frag", Stage::Fragment, &Limits::EXTENDED)
        .unwrap_or_else(|e| panic!("{e}"));
    backends::check(&shader, &[u, [0.0; 4]], &[]);
    let textures = vec![
        NearestClampTexture::new(5, 3, &[7; 5 * 3 * 4]).unwrap(),
        NearestClampTexture::solid([1, 2, 3, 4]),
    ];
    common::run(&shader, &[u, [0.0; 4]], &[], &textures).color
}

#[test]
fn level_0_is_the_texture_size_and_other_levels_are_empty() {
    assert_eq!(sizes("0", [0.0; 4]), [5.0, 3.0, 1.0, 1.0]);
    assert_eq!(sizes("1", [0.0; 4]), [0.0; 4]);
    assert_eq!(sizes("int(u.x)", [0.0; 4]), [5.0, 3.0, 1.0, 1.0]);
    assert_eq!(sizes("int(u.x)", [2.0; 4]), [0.0; 4]);
    assert_eq!(sizes("int(u.x)", [-1.0; 4]), [0.0; 4]);
}

#[test]
fn the_seed_profile_names_the_function() {
    let src = common::frag_src(
        "uniform sampler2D s;",
        "c = vec4(vec2(textureSize(s, 0)), 0.0, 1.0);",
    );
    let e = compile(&src, "s.frag", Stage::Fragment, &Limits::SEED).unwrap_err();
    let m = e.to_string();
    assert!(
        m.contains("`textureSize` needs the extended profile"),
        "{m}"
    );
}

#[test]
fn wrong_arguments_are_named() {
    for call in ["textureSize(s)", "textureSize(s, 0.5)", "textureSize(u, 0)"] {
        let src = common::frag_src("uniform sampler2D s;", &format!("ivec2 n = {call};"));
        let e = compile(&src, "w.frag", Stage::Fragment, &Limits::EXTENDED).unwrap_err();
        assert!(e.to_string().contains("textureSize"), "{call}: {e}");
    }
}
