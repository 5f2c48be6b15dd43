//! `texelFetch` and `texelFetchOffset` (GLSL 1.30 §8.7) under the extended profile: TEXFETCH reads the texel at
//! an integer index of level 0, unfiltered, and gives (0, 0, 0, 0) for an index outside
//! the texture or a level it does not have (as llvmpipe does), at constant and
//! run-time indexes; the TGSI executor and a CSI v2 round trip agree
//! (`backends::check`); the seed profile names the function.

mod backends;
mod common;
use csir::exec::NearestClampTexture;
use csir::{Limits, Stage, compile};

/// A 3×2 texture: row 0 (t = 0) first, texel (i, j) = (10·i, 100 + j, 5, 255 − i − j).
fn texture() -> NearestClampTexture {
    let mut bytes = Vec::new();
    for j in 0..2u8 {
        for i in 0..3u8 {
            bytes.extend([10 * i, 100 + j, 5, 255 - i - j]);
        }
    }
    NearestClampTexture::new(3, 2, &bytes).unwrap()
}

/// `c = texelFetch(s, P, LOD)` with `P` and `LOD` given as GLSL over the uniform `u`.
fn fetch(p: &str, lod: &str, u: [f32; 4]) -> [f32; 4] {
    fetch_call(&format!("texelFetch(s, {p}, {lod})"), u)
}

/// `c = CALL` on the texture of [`texture`] at slot 0, checked on every back end.
fn fetch_call(call: &str, u: [f32; 4]) -> [f32; 4] {
    let body = format!("c = {call};");
    let src = common::frag_src("uniform sampler2D s;", &body);
    let shader = compile(&src, "fetch.frag", Stage::Fragment, &Limits::EXTENDED)
        .unwrap_or_else(|e| panic!("{e}"));
    backends::check(&shader, &[u, [0.0; 4]], &[]);
    common::run(&shader, &[u, [0.0; 4]], &[], &vec![texture()]).color
}

fn texel(i: u8, j: u8) -> [f32; 4] {
    [10 * i, 100 + j, 5, 255 - i - j].map(|c| f32::from(c) / 255.0)
}

#[test]
fn every_texel_by_its_index() {
    for j in 0..2u8 {
        for i in 0..3u8 {
            let u = [f32::from(i), f32::from(j), 0.0, 0.0];
            assert_eq!(fetch("ivec2(u.xy)", "0", u), texel(i, j), "({i}, {j})");
            assert_eq!(
                fetch(&format!("ivec2({i}, {j})"), "int(u.z)", u),
                texel(i, j)
            );
        }
    }
}

#[test]
fn out_of_range_indexes_and_levels_give_zero() {
    for (x, y) in [
        (-1.0, 0.0),
        (3.0, 0.0),
        (0.0, -1.0),
        (0.0, 2.0),
        (-2e9, 1.0),
        (2e9, 1.0),
    ] {
        assert_eq!(
            fetch("ivec2(u.xy)", "0", [x, y, 0.0, 0.0]),
            [0.0; 4],
            "({x}, {y})"
        );
    }
    for lod in [1.0, -1.0, 12.0] {
        assert_eq!(
            fetch("ivec2(0)", "int(u.z)", [0.0, 0.0, lod, 0.0]),
            [0.0; 4],
            "{lod}"
        );
    }
    assert_eq!(fetch("ivec2(1, 1)", "1", [0.0; 4]), [0.0; 4]);
}

#[test]
fn the_seed_profile_names_the_function() {
    let src = common::frag_src("uniform sampler2D s;", "c = texelFetch(s, ivec2(0), 0);");
    let e = compile(&src, "s.frag", Stage::Fragment, &Limits::SEED).unwrap_err();
    let m = e.to_string();
    assert!(m.contains("`texelFetch` needs the extended profile"), "{m}");
}

#[test]
fn wrong_arguments_are_named() {
    for call in [
        "texelFetch(s, ivec2(0))",
        "texelFetch(s, vec2(0.0), 0)",
        "texelFetch(s, ivec2(0), 0.0)",
        "texelFetch(s, ivec3(0), 0)",
        "texelFetch(u, ivec2(0), 0)",
    ] {
        let src = common::frag_src("uniform sampler2D s;", &format!("vec4 t = {call};"));
        let e = compile(&src, "w.frag", Stage::Fragment, &Limits::EXTENDED).unwrap_err();
        let m = e.to_string();
        assert!(m.contains("no 'texelFetch' takes"), "{call}: {m}");
    }
}

/// `c = texelFetchOffset(s, P, 0, OFFSET)`.
fn fetch_offset(p: &str, offset: &str, u: [f32; 4]) -> [f32; 4] {
    fetch_call(&format!("texelFetchOffset(s, {p}, 0, {offset})"), u)
}

#[test]
fn texel_fetch_offset_adds_the_offset_to_the_index() {
    let u = [1.0, 0.0, 0.0, 0.0];
    assert_eq!(fetch_offset("ivec2(u.xy)", "ivec2(1, 1)", u), texel(2, 1));
    assert_eq!(fetch_offset("ivec2(u.xy)", "ivec2(-1, 0)", u), texel(0, 0));
    assert_eq!(fetch_offset("ivec2(2, 1)", "ivec2(-2, -1)", u), texel(0, 0));
    // The sum is range-checked: (1, 0) + (2, 0) is past the last column.
    assert_eq!(fetch_offset("ivec2(u.xy)", "ivec2(2, 0)", u), [0.0; 4]);
    assert_eq!(fetch_offset("ivec2(u.xy)", "ivec2(-8, 7)", u), [0.0; 4]);
}

#[test]
fn texel_offsets_must_be_constant_and_within_minus_8_to_7() {
    let error = |call: &str| {
        let src = common::frag_src(
            "uniform sampler2D s;\nconst ivec2 k = ivec2(3, -2);",
            &format!("c = {call};"),
        );
        compile(&src, "o.frag", Stage::Fragment, &Limits::EXTENDED).map(|_| ())
    };
    assert!(error("texelFetchOffset(s, ivec2(0), 0, k)").is_ok());
    assert!(error("texelFetchOffset(s, ivec2(0), 0, ivec2(-8, 7))").is_ok());
    for (call, what) in [
        (
            "texelFetchOffset(s, ivec2(0), 0, ivec2(8, 0))",
            "texel offset (8, 0)",
        ),
        (
            "texelFetchOffset(s, ivec2(0), 0, ivec2(0, -9))",
            "texel offset (0, -9)",
        ),
        (
            "texelFetchOffset(s, ivec2(0), 0, ivec2(u.xy))",
            "must be a constant expression",
        ),
    ] {
        let m = error(call).unwrap_err().to_string();
        assert!(
            m.contains(what) && m.contains("`texelFetchOffset`"),
            "{call}: {m}"
        );
        if what.starts_with("texel offset") {
            assert!(
                m.contains("-8..=7 (MIN_PROGRAM_TEXEL_OFFSET..=MAX_PROGRAM_TEXEL_OFFSET)"),
                "{m}"
            );
        }
    }
    let src = common::frag_src(
        "uniform sampler2D s;",
        "c = texelFetchOffset(s, ivec2(0), 0, ivec2(1));",
    );
    let m = compile(&src, "s.frag", Stage::Fragment, &Limits::SEED)
        .unwrap_err()
        .to_string();
    assert!(
        m.contains("`texelFetchOffset` needs the extended profile"),
        "{m}"
    );
}
