//! Tests of scene loading: the starter scenes, every validation rule and its message.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::*;
use crate::texture::{Filter, Wrap};
use csir_raster::{BlendMode, CullMode, DepthTest, RasterState};

fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images")
}

/// A scene path inside `reference-images/`, so relative paths find its shaders and
/// textures.
fn scene_path() -> PathBuf {
    reference_dir().join("s.json")
}

pub(super) fn minimal() -> Value {
    json!({
        "format": "csir-scene/1",
        "width": 4,
        "height": 3,
        "textures": {"checker": {"path": "textures/checker.png"}},
        "draws": [{
            "vertex": "shaders/flat.vert",
            "fragment": "shaders/flat.frag",
            "attributes": [{"location": 0, "size": 3, "data": [0, 0, 0, 1, 0, 0, 0, 1, 0]}]
        }]
    })
}

pub(super) fn parse(v: &Value) -> Result<Scene, SceneError> {
    Scene::parse(&v.to_string(), &scene_path())
}

/// (field, message) of the error `edit` provokes in the minimal scene.
pub(super) fn error_of(edit: impl FnOnce(&mut Value)) -> (String, String) {
    let mut v = minimal();
    edit(&mut v);
    let e = parse(&v).expect_err("the scene should be rejected");
    (e.field.clone(), e.message())
}

fn assert_error(edit: impl FnOnce(&mut Value), field: &str, message: &str) {
    assert_eq!(error_of(edit), (field.to_owned(), message.to_owned()));
}

#[test]
fn every_reference_scene_loads() {
    let mut loaded = 0;
    for entry in std::fs::read_dir(reference_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let scene = Scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
            assert!(!scene.draws.is_empty(), "{}", path.display());
            assert!(
                path.with_extension("llvmpipe.png").exists(),
                "{}",
                path.display()
            );
            loaded += 1;
        }
    }
    assert!(loaded >= 14, "{loaded}");
}

#[test]
fn the_triangle_scene_resolves_to_plain_data() {
    let scene = Scene::load(reference_dir().join("triangle.json")).unwrap();
    assert_eq!((scene.width, scene.height), (320, 240));
    assert_eq!(scene.clear_color, [0.1, 0.1, 0.12, 1.0]);
    assert_eq!(scene.clear_depth, 1.0);
    let d = &scene.draws[0];
    assert_eq!(d.field(), "draws[0]");
    assert_eq!(d.vertex.path, reference_dir().join("shaders/triangle.vert"));
    assert!(d.vertex.text.starts_with("#version 330 core"));
    assert_eq!(d.vertex_count, 3);
    assert_eq!(d.indices, vec![0, 1, 2]); // generated
    assert_eq!(d.attribute(1).unwrap().fetch(2), [0.0, 0.0, 1.0, 1.0]);
    assert_eq!(d.attribute(0).unwrap().data[..3], [0.0, 0.8, 0.0]);
    assert_eq!(d.state, DrawState::default());
}

#[test]
fn the_lit_cube_scene_has_a_mesh_uniforms_in_order_and_a_sampler() {
    let scene = Scene::load(reference_dir().join("lit_cube.json")).unwrap();
    let d = &scene.draws[0];
    assert_eq!((d.vertex_count, d.indices.len()), (24, 36));
    let keys: Vec<_> = d.uniforms.iter().map(|u| u.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "uMVP",
            "uModel",
            "uNormalMat",
            "uLightDir",
            "uViewPos",
            "uColor",
            "uShininess",
            "uUseTexture"
        ]
    );
    assert_eq!(d.uniform("uNormalMat").unwrap().values.len(), 9);
    assert_eq!(d.uniform("uShininess").unwrap().values, vec![32.0]);
    assert_eq!(d.samplers.len(), 1);
    assert_eq!(d.samplers[0].name, "uTex");
    assert_eq!(scene.textures[d.samplers[0].texture].name, "checker");
    assert_eq!(d.samplers[0].sampler.mag_filter, Filter::Nearest);
    let bound: Vec<_> = scene
        .sampler_bindings(d)
        .map(|b| (b.name, b.texture.width()))
        .collect();
    assert_eq!(bound, [("uTex", 64)]);
    assert_eq!(d.state.raster.cull, CullMode::Back);
}

#[test]
fn the_wrap_blend_scene_reads_every_sampler_and_state() {
    let scene = Scene::load(reference_dir().join("wrap_blend.json")).unwrap();
    assert_eq!(scene.draws.len(), 8);
    let wraps: Vec<_> = scene.draws[..6]
        .iter()
        .map(|d| d.samplers[0].sampler)
        .collect();
    assert_eq!(wraps[1].wrap, Wrap::Repeat);
    assert_eq!(
        (wraps[5].mag_filter, wraps[5].wrap),
        (Filter::Linear, Wrap::Mirror)
    );
    assert_eq!(
        scene.textures[scene.draws[5].samplers[0].texture].name,
        "tiny"
    );
    let alpha = scene.draws[6].state.raster;
    assert_eq!(
        (alpha.depth_test, alpha.blend),
        (DepthTest::Disabled, BlendMode::Alpha)
    );
    assert!(!alpha.writes_depth());
    let additive = scene.draws[7].state.raster;
    assert_eq!(
        (additive.depth_test, additive.depth_write, additive.blend),
        (DepthTest::Always, false, BlendMode::Additive)
    );
}

#[test]
fn defaults_and_integral_floats() {
    let mut v = minimal();
    v["width"] = json!(4.0);
    v["draws"][0]["attributes"][0]["location"] = json!(0.0);
    let scene = parse(&v).unwrap();
    assert_eq!(scene.width, 4);
    assert_eq!(scene.clear_color, [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(scene.clear_depth, 1.0);
    let d = &scene.draws[0];
    assert!(d.uniforms.is_empty() && d.samplers.is_empty());
    assert_eq!(d.state, DrawState::default());
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let text = format!("\u{feff}{}", minimal());
    let scene = Scene::parse(&text, &reference_dir().join("bom.json")).unwrap();
    assert_eq!(scene.draws.len(), 1);
}

/// A misspelled or unknown key is an error at its field, suggesting the closest key.
#[test]
fn unknown_keys_are_errors_that_suggest_the_closest() {
    assert_error(
        |v| v["draws"][0]["uniform"] = json!({}),
        "draws[0].uniform",
        "unknown key; did you mean `uniforms`?",
    );
    assert_error(
        |v| v["draws"][0]["indicies"] = json!([0, 1, 2]),
        "draws[0].indicies",
        "unknown key; did you mean `indices`?",
    );
    assert_error(
        |v| v["draws"][0]["stat"] = json!({}),
        "draws[0].stat",
        "unknown key; did you mean `state`?",
    );
    assert_error(
        |v| v["comment"] = json!("a note"),
        "comment",
        "unknown key (expected one of format, width, height, clear, textures, draws, expect, targets, \
         framebuffer_srgb, seamless_cube_map, samples)",
    );
    assert_error(
        |v| v["seamless_cubemap"] = json!(true),
        "seamless_cubemap",
        "unknown key; did you mean `seamless_cube_map`?",
    );
    assert_error(
        |v| v["draws"][0]["attributes"][0]["sise"] = json!(2),
        "draws[0].attributes[0].sise",
        "unknown key; did you mean `size`?",
    );
}

#[test]
fn trailing_vertices_without_indices_are_dropped() {
    let mut v = minimal();
    v["draws"][0]["attributes"][0] =
        json!({"location": 0, "size": 2, "data": [0, 0, 1, 0, 0, 1, 1, 1, 2, 2]});
    let d = &parse(&v).unwrap().draws[0];
    assert_eq!(d.vertex_count, 5);
    assert_eq!(d.indices, vec![0, 1, 2]);
}

#[test]
fn clear_values_and_depth_clamp() {
    let mut v = minimal();
    v["clear"] = json!({"color": [0.5, 2, -1, 0], "depth": 7});
    let scene = parse(&v).unwrap();
    assert_eq!(scene.clear_color, [0.5, 2.0, -1.0, 0.0]);
    assert_eq!(scene.clear_depth, 1.0);
    v["clear"] = json!({"depth": [0.25]});
    assert_eq!(parse(&v).unwrap().clear_depth, 0.25);
}

#[test]
fn uniform_values_and_keys() {
    let mut v = minimal();
    v["draws"][0]["uniforms"] =
        json!({"uColor": [1, 0.5, 0, 1], "uCutX": 0.25, "uL[2]": [1, 2, 3], "uEmpty": []});
    let d = &parse(&v).unwrap().draws[0];
    assert_eq!(
        d.uniform("uColor").unwrap().values,
        vec![1.0, 0.5, 0.0, 1.0]
    );
    assert_eq!(d.uniform("uCutX").unwrap().values, vec![0.25]);
    let element = d.uniform("uL[2]").unwrap();
    assert_eq!((element.name(), element.element()), ("uL", Some(2)));
    assert!(d.uniform("uEmpty").unwrap().values.is_empty());
    assert_eq!(d.uniform_field("uL[2]"), "draws[0].uniforms.uL[2]");
}

#[test]
fn samplers_keep_document_order_and_defaults() {
    let mut v = minimal();
    v["textures"]["b"] = json!({"path": "textures/tiny4.png"});
    // document order b, a: serde_json::Value would sort them, so write the text by hand
    let text = v.to_string().replacen(
        "\"attributes\"",
        r#""samplers": {"zTex": {"texture": "b", "wrap": "mirror"}, "aTex": {"texture": "checker", "filter": "linear"}}, "attributes""#,
        1,
    );
    let scene = Scene::parse(&text, &scene_path()).unwrap();
    let s = &scene.draws[0].samplers;
    let texture_name = |i: usize| scene.textures[s[i].texture].name.as_str();
    assert_eq!(s[0].name, "zTex");
    assert_eq!(
        (texture_name(0), s[0].sampler.mag_filter, s[0].sampler.wrap),
        ("b", Filter::Nearest, Wrap::Mirror)
    );
    assert_eq!(s[1].name, "aTex");
    assert_eq!(
        (texture_name(1), s[1].sampler.mag_filter, s[1].sampler.wrap),
        ("checker", Filter::Linear, Wrap::Clamp)
    );
}

#[test]
fn top_level_errors() {
    assert_error(
        |v| v["format"] = json!("csir-scene/2"),
        "format",
        "unsupported format \"csir-scene/2\" (expected \"csir-scene/1\")",
    );
    assert_error(
        |v| v["format"] = json!(1),
        "format",
        "unsupported format 1 (expected \"csir-scene/1\")",
    );
    assert_error(
        |v| {
            v.as_object_mut().unwrap().remove("format");
        },
        "format",
        "missing (expected \"csir-scene/1\")",
    );
    assert_error(
        |v| v["width"] = json!(0),
        "width",
        "expected an integer in 1..=16384, got 0",
    );
    assert_error(
        |v| v["width"] = json!(16385),
        "width",
        "expected an integer in 1..=16384, got 16385",
    );
    assert_error(
        |v| v["width"] = json!(2.5),
        "width",
        "expected an integer in 1..=16384, got 2.5",
    );
    assert_error(
        |v| v["height"] = json!("3"),
        "height",
        "expected an integer in 1..=16384, got \"3\"",
    );
    assert_error(
        |v| {
            v.as_object_mut().unwrap().remove("height");
        },
        "height",
        "missing (an integer in 1..=16384)",
    );
    assert_error(
        |v| v["clear"] = json!([1]),
        "clear",
        "expected an object, got a list",
    );
    assert_error(
        |v| v["clear"] = json!({"color": [1, 2]}),
        "clear.color",
        "expected 4 numbers, got 2",
    );
    assert_error(
        |v| v["clear"] = json!({"color": [1, 2, "x", 1]}),
        "clear.color[2]",
        "expected a number, got \"x\"",
    );
    assert_error(
        |v| v["clear"] = json!({"depth": true}),
        "clear.depth",
        "expected a number or a list of numbers, got a boolean",
    );
    assert_error(
        |v| v["draws"] = json!({}),
        "draws",
        "expected a list, got an object",
    );
    assert_error(
        |v| v["draws"] = json!([3]),
        "draws[0]",
        "expected an object, got a number",
    );
    assert_error(
        |v| v["textures"] = json!([]),
        "textures",
        "expected an object, got a list",
    );
}

#[test]
fn a_document_that_is_not_an_object_or_not_json() {
    let e = Scene::parse("[1, 2]", Path::new("s.json")).unwrap_err();
    assert_eq!(e.to_string(), "s.json: expected an object, got a list");
    let e = Scene::parse(
        "{\n  \"format\": \"csir-scene/1\",\n  \"width\": 4,,\n}",
        Path::new("s.json"),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "s.json: line 3, column 14: invalid JSON: key must be a string"
    );
    assert!(matches!(
        e.kind,
        SceneErrorKind::Syntax {
            line: 3,
            column: 14,
            ..
        }
    ));
    let bad =
        std::env::temp_dir().join(format!("csir-render-not-utf8-{}.json", std::process::id()));
    std::fs::write(&bad, b"{\"format\": \"\xff\"}").unwrap();
    let e = Scene::load(&bad).unwrap_err();
    std::fs::remove_file(&bad).unwrap();
    assert_eq!(
        e.message(),
        "the scene is not UTF-8 text (invalid byte at line 1, column 13)"
    );
    let e = Scene::load("/nonexistent/scene.json").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("/nonexistent/scene.json: cannot read the scene: "),
        "{e}"
    );
}

#[test]
fn texture_errors() {
    let (field, message) =
        error_of(|v| v["textures"]["checker"]["path"] = json!("textures/nope.png"));
    assert_eq!(field, "textures.checker.path");
    assert!(
        message.starts_with("cannot read ") && message.contains("nope.png"),
        "{message}"
    );
    let (field, message) =
        error_of(|v| v["textures"]["checker"]["path"] = json!("shaders/flat.vert"));
    assert_eq!(field, "textures.checker.path");
    assert!(
        message.contains("flat.vert: not a readable PNG"),
        "{message}"
    );
    assert_error(
        |v| v["textures"]["checker"] = json!({}),
        "textures.checker.path",
        "missing (a PNG file path)",
    );
    assert_error(
        |v| v["textures"]["checker"] = json!("x.png"),
        "textures.checker",
        "expected an object, got a string",
    );
}

#[test]
fn shader_and_geometry_source_errors() {
    assert_error(
        |v| {
            v["draws"][0].as_object_mut().unwrap().remove("vertex");
        },
        "draws[0].vertex",
        "missing (a shader file path)",
    );
    assert_error(
        |v| v["draws"][0]["fragment"] = json!(7),
        "draws[0].fragment",
        "expected a shader file path, got 7",
    );
    let (field, message) = error_of(|v| v["draws"][0]["fragment"] = json!("shaders/none.frag"));
    assert_eq!(field, "draws[0].fragment");
    assert!(message.contains("none.frag"), "{message}");
    let (field, message) = error_of(|v| v["draws"][0]["vertex"] = json!("textures/checker.png"));
    assert_eq!(field, "draws[0].vertex");
    assert!(
        message.ends_with("checker.png is not UTF-8 text (invalid byte at line 1, column 1)"),
        "{message}"
    );
    assert_error(
        |v| v["draws"][0]["mesh"] = json!("meshes/cube.obj"),
        "draws[0].mesh",
        "give either mesh or attributes, not both",
    );
    assert_error(
        |v| {
            v["draws"][0].as_object_mut().unwrap().remove("attributes");
        },
        "draws[0]",
        "needs mesh or attributes",
    );
    assert_error(
        |v| {
            let d = v["draws"][0].as_object_mut().unwrap();
            d.remove("attributes");
            d.insert("mesh".into(), json!("meshes/cube.obj"));
            d.insert("indices".into(), json!([0, 1, 2]));
        },
        "draws[0].indices",
        "not allowed with mesh (the mesh has its own index list)",
    );
    let (field, message) = error_of(|v| {
        let d = v["draws"][0].as_object_mut().unwrap();
        d.remove("attributes");
        d.insert("mesh".into(), json!("shaders/flat.vert"));
    });
    assert_eq!(field, "draws[0].mesh");
    assert!(message.ends_with("the mesh has no faces"), "{message}");
}

#[test]
fn attribute_errors() {
    let attr = |v: &mut Value, a: Value| v["draws"][0]["attributes"] = a;
    assert_error(
        |v| attr(v, json!([])),
        "draws[0].attributes",
        "must not be empty",
    );
    assert_error(
        |v| attr(v, json!({})),
        "draws[0].attributes",
        "expected a list, got an object",
    );
    assert_error(
        |v| attr(v, json!([1])),
        "draws[0].attributes[0]",
        "expected an object, got a number",
    );
    assert_error(
        |v| attr(v, json!([{"location": 16, "size": 3, "data": []}])),
        "draws[0].attributes[0].location",
        "expected an integer in 0..=15, got 16",
    );
    assert_error(
        |v| attr(v, json!([{"location": -1, "size": 3, "data": []}])),
        "draws[0].attributes[0].location",
        "expected an integer in 0..=15, got -1",
    );
    assert_error(
        |v| attr(v, json!([{"location": 0, "size": 5, "data": []}])),
        "draws[0].attributes[0].size",
        "expected an integer in 1..=4, got 5",
    );
    assert_error(
        |v| attr(v, json!([{"location": 0, "data": []}])),
        "draws[0].attributes[0].size",
        "missing (an integer in 1..=4)",
    );
    assert_error(
        |v| attr(v, json!([{"location": 0, "size": 3}])),
        "draws[0].attributes[0].data",
        "missing (a list of numbers)",
    );
    assert_error(
        |v| {
            attr(
                v,
                json!([{"location": 0, "size": 3, "data": [0, 0, 0, 1, 0, 0, 0, 1]}]),
            )
        },
        "draws[0].attributes[0].data",
        "length 8 is not a multiple of size 3",
    );
    assert_error(
        |v| attr(v, json!([{"location": 0, "size": 3, "data": [0, 0, "x"]}])),
        "draws[0].attributes[0].data[2]",
        "expected a number, got \"x\"",
    );
    assert_error(
        |v| attr(v, json!([{"location": 0, "size": 1, "data": [1e39]}])),
        "draws[0].attributes[0].data[0]",
        "1e39 does not fit in a 32-bit float",
    );
    assert_error(
        |v| {
            attr(
                v,
                json!([
                    {"location": 0, "size": 3, "data": [0, 0, 0, 1, 0, 0, 0, 1, 0]},
                    {"location": 1, "size": 2, "data": [0, 0, 1, 1]}
                ]),
            )
        },
        "draws[0].attributes[1].data",
        "holds 2 vertices, attributes[0] holds 3",
    );
    assert_error(
        |v| {
            attr(
                v,
                json!([
                    {"location": 3, "size": 1, "data": [0, 0, 0]},
                    {"location": 3, "size": 1, "data": [0, 0, 0]}
                ]),
            )
        },
        "draws[0].attributes[1].location",
        "location 3 is given twice",
    );
}

#[test]
fn attributes_are_sorted_by_location() {
    let mut v = minimal();
    v["draws"][0]["attributes"] = json!([
        {"location": 5, "size": 1, "data": [7, 8, 9]},
        {"location": 0, "size": 2, "data": [0, 0, 1, 0, 0, 1]}
    ]);
    let d = &parse(&v).unwrap().draws[0];
    let locations: Vec<_> = d.attributes.iter().map(|a| a.location).collect();
    assert_eq!(locations, [0, 5]);
    assert_eq!(d.attribute(5).unwrap().fetch(1), [8.0, 0.0, 0.0, 1.0]);
}

#[test]
fn index_errors() {
    let idx = |v: &mut Value, i: Value| v["draws"][0]["indices"] = i;
    assert_error(
        |v| idx(v, json!([0, 1, 2, 0])),
        "draws[0].indices",
        "length 4 is not a multiple of 3",
    );
    assert_error(
        |v| idx(v, json!([0, 1, 9])),
        "draws[0].indices[2]",
        "index 9 is out of range (3 vertices)",
    );
    assert_error(
        |v| idx(v, json!([0, 1, 3])),
        "draws[0].indices[2]",
        "index 3 is out of range (3 vertices)",
    );
    assert_error(
        |v| idx(v, json!([0, -1, 2])),
        "draws[0].indices[1]",
        "expected a non-negative integer, got -1",
    );
    assert_error(
        |v| idx(v, json!([0, 1.5, 2])),
        "draws[0].indices[1]",
        "expected a non-negative integer, got 1.5",
    );
    assert_error(
        |v| idx(v, json!([0, null, 2])),
        "draws[0].indices[1]",
        "expected a non-negative integer, got null",
    );
    assert_error(
        |v| idx(v, json!("0 1 2")),
        "draws[0].indices",
        "expected a list of integers, got a string",
    );
    let mut v = minimal();
    idx(&mut v, json!([2, 1, 0, 0.0, 1.0, 2.0]));
    assert_eq!(parse(&v).unwrap().draws[0].indices, vec![2, 1, 0, 0, 1, 2]);
}

#[test]
fn uniform_and_sampler_errors() {
    assert_error(
        |v| v["draws"][0]["uniforms"] = json!({"uNope": "x"}),
        "draws[0].uniforms.uNope",
        "expected a number or a list of numbers, got a string",
    );
    assert_error(
        |v| v["draws"][0]["uniforms"] = json!({"uC": [1, true]}),
        "draws[0].uniforms.uC[1]",
        "expected a number, got true",
    );
    assert_error(
        |v| v["draws"][0]["uniforms"] = json!({"u L": 1}),
        "draws[0].uniforms.u L",
        "not a uniform name (expected NAME or NAME[INDEX])",
    );
    assert_error(
        |v| v["draws"][0]["uniforms"] = json!({"uL[x]": 1}),
        "draws[0].uniforms.uL[x]",
        "not a uniform name (expected NAME or NAME[INDEX])",
    );
    assert_error(
        |v| v["draws"][0]["uniforms"] = json!([1]),
        "draws[0].uniforms",
        "expected an object, got a list",
    );
    assert_error(
        |v| v["draws"][0]["samplers"] = json!({"uTex": {"texture": "nope"}}),
        "draws[0].samplers.uTex.texture",
        "no texture named \"nope\" in textures",
    );
    assert_error(
        |v| v["draws"][0]["samplers"] = json!({"uTex": {}}),
        "draws[0].samplers.uTex.texture",
        "missing (a texture name)",
    );
    assert_error(
        |v| {
            v["draws"][0]["samplers"] =
                json!({"uTex": {"texture": "checker", "filter": "bilinear"}})
        },
        "draws[0].samplers.uTex.filter",
        "expected one of nearest, linear, got \"bilinear\"",
    );
    assert_error(
        |v| v["draws"][0]["samplers"] = json!({"uTex": {"texture": "checker", "wrap": "edge"}}),
        "draws[0].samplers.uTex.wrap",
        "expected one of clamp, repeat, mirror, got \"edge\"",
    );
}

#[test]
fn min_and_mag_filters_and_the_mip_chain() {
    use crate::texture::MinFilter;
    let sampler_of = |entry: Value| {
        let mut v = minimal();
        v["textures"]["b"] = json!({"path": "textures/npot5x3.png"});
        v["draws"][0]["samplers"] = json!({ "uTex": entry });
        let scene = parse(&v).unwrap();
        let binding = scene.draws[0].samplers[0].clone();
        let levels: Vec<u32> = scene
            .textures
            .iter()
            .map(|t| t.texture.level_count())
            .collect();
        (binding.sampler, levels)
    };
    // `filter` sets both; no chain for a non-mipmapped sampler
    let (s, levels) = sampler_of(json!({"texture": "checker", "filter": "linear"}));
    assert_eq!(
        (s.min_filter, s.mag_filter),
        (MinFilter::Linear, Filter::Linear)
    );
    assert_eq!(levels, [1, 1]);
    // min_filter and mag_filter override it; a mipmapped sampler gives its texture
    // the full chain (64x64: 7 levels), the other texture keeps one (serde_json
    // sorts the textures: b, then checker)
    let (s, levels) = sampler_of(json!({
        "texture": "checker", "filter": "linear", "min_filter": "nearest_mipmap_linear"
    }));
    assert_eq!(
        (s.min_filter, s.mag_filter),
        (MinFilter::NearestMipmapLinear, Filter::Linear)
    );
    assert_eq!(levels, [1, 7]);
    let (s, levels) = sampler_of(json!({
        "texture": "b", "min_filter": "linear_mipmap_nearest", "mag_filter": "linear"
    }));
    assert_eq!(
        (s.min_filter, s.mag_filter),
        (MinFilter::LinearMipmapNearest, Filter::Linear)
    );
    // 5x3 -> 2x1 -> 1x1
    assert_eq!(levels, [3, 1]);
    for (name, filter) in MinFilter::NAMES {
        let (s, _) = sampler_of(json!({"texture": "checker", "min_filter": name}));
        assert_eq!((s.min_filter, s.mag_filter), (filter, Filter::Nearest));
    }
}

#[test]
fn filter_key_errors_name_the_key_and_the_allowed_values() {
    let sampler = |v: &mut Value, e: Value| v["draws"][0]["samplers"] = json!({ "uTex": e });
    assert_error(
        |v| sampler(v, json!({"texture": "checker", "min_filter": "trilinear"})),
        "draws[0].samplers.uTex.min_filter",
        "expected one of nearest, linear, nearest_mipmap_nearest, linear_mipmap_nearest, \
         nearest_mipmap_linear, linear_mipmap_linear, got \"trilinear\"",
    );
    assert_error(
        |v| {
            sampler(
                v,
                json!({"texture": "checker", "mag_filter": "linear_mipmap_linear"}),
            )
        },
        "draws[0].samplers.uTex.mag_filter",
        "expected one of nearest, linear, got \"linear_mipmap_linear\"",
    );
    assert_error(
        |v| sampler(v, json!({"texture": "checker", "min_filter": 3})),
        "draws[0].samplers.uTex.min_filter",
        "expected one of nearest, linear, nearest_mipmap_nearest, linear_mipmap_nearest, \
         nearest_mipmap_linear, linear_mipmap_linear, got 3",
    );
    // a mipmapped filter under `filter` is told where it goes
    assert_error(
        |v| {
            sampler(
                v,
                json!({"texture": "checker", "filter": "linear_mipmap_linear"}),
            )
        },
        "draws[0].samplers.uTex.filter",
        "\"linear_mipmap_linear\" is a minification filter: give it as \"min_filter\" \
         (\"filter\" sets magnification too, which has no mip levels: nearest or linear)",
    );
    // the valid twins
    let mut v = minimal();
    sampler(
        &mut v,
        json!({"texture": "checker", "min_filter": "linear_mipmap_linear", "mag_filter": "linear"}),
    );
    parse(&v).unwrap();
}

/// `seamless_cube_map`: false unless given, a boolean (docs/scene-format.md).
#[test]
fn seamless_cube_map_is_a_boolean_defaulting_to_false() {
    let mut v = minimal();
    assert!(!parse(&v).unwrap().seamless_cube_map);
    v["seamless_cube_map"] = json!(true);
    assert!(parse(&v).unwrap().seamless_cube_map);
    assert_error(
        |v| v["seamless_cube_map"] = json!(1),
        "seamless_cube_map",
        "expected true or false, got 1",
    );
    assert_error(
        |v| v["seamless_cube_map"] = json!("true"),
        "seamless_cube_map",
        "expected true or false, got \"true\"",
    );
}

#[test]
fn state_errors() {
    let st = |v: &mut Value, s: Value| v["draws"][0]["state"] = s;
    assert_error(
        |v| st(v, json!({"depth_test": "lesss"})),
        "draws[0].state.depth_test",
        "expected one of none, less, lequal, greater, gequal, equal, notequal, always, never, got \"lesss\"",
    );
    assert_error(
        |v| st(v, json!({"depth_write": 1})),
        "draws[0].state.depth_write",
        "expected true or false, got 1",
    );
    assert_error(
        |v| st(v, json!({"two_sided_color": "yes"})),
        "draws[0].state.two_sided_color",
        "expected true or false, got \"yes\"",
    );
    assert_error(
        |v| st(v, json!({"shade_model": "gouraud"})),
        "draws[0].state.shade_model",
        "expected one of smooth, flat, got \"gouraud\"",
    );
    assert_error(
        |v| st(v, json!({"clip_planes": [null, [1, 2, 3]]})),
        "draws[0].state.clip_planes[1]",
        "expected 4 numbers, got 3",
    );
    assert_error(
        |v| {
            st(
                v,
                json!({"clip_planes": [null, null, null, null, null, null, null, null, null]}),
            )
        },
        "draws[0].state.clip_planes",
        "9 clip planes, more than GL_MAX_CLIP_PLANES (8)",
    );
    assert_error(
        |v| st(v, json!({"clip_planes": {"0": [1, 0, 0, 0]}})),
        "draws[0].state.clip_planes",
        "expected a list of clip planes (null or [a, b, c, d] each), got an object",
    );
    assert_error(
        |v| st(v, json!({"cull": "left"})),
        "draws[0].state.cull",
        "expected one of none, back, front, got \"left\"",
    );
    assert_error(
        |v| st(v, json!({"blend": null})),
        "draws[0].state.blend",
        "expected one of none, alpha, additive or an object of blend factors and equations, got null",
    );
    assert_error(
        |v| st(v, json!("none")),
        "draws[0].state",
        "expected an object, got a string",
    );
    let mut v = minimal();
    st(
        &mut v,
        json!({"depth_test": "gequal", "depth_write": false, "cull": "front", "blend": "additive",
               "two_sided_color": true, "shade_model": "flat",
               "clip_planes": [null, [0.5, -1, 0, 0.25], null, [0, 0, 0, 0]]}),
    );
    let s = parse(&v).unwrap().draws[0].state;
    let mut equations = [[0.0; 4]; MAX_CLIP_PLANES];
    equations[1] = [0.5, -1.0, 0.0, 0.25];
    let clip_planes = ClipPlanes {
        enabled: 0b1010,
        equations,
    };
    assert_eq!(clip_planes.enabled_planes().collect::<Vec<_>>(), [1, 3]);
    assert_eq!(
        s,
        DrawState {
            raster: RasterState {
                depth_test: DepthTest::GreaterEqual,
                depth_write: false,
                cull: CullMode::Front,
                blend: BlendMode::Additive,
                ..RasterState::default()
            },
            two_sided_color: true,
            shade_model: ShadeModel::Flat,
            clip_planes,
            provoking_vertex: ProvokingVertex::Last,
            points_lines: PointLineState::default(),
            multisample: Default::default(),
        }
    );
}

#[test]
fn the_expect_block_gives_the_scene_its_own_tolerance_rule() {
    use crate::compare::ToleranceRule;
    let scene = parse(&minimal()).unwrap();
    assert_eq!(scene.expect, None);
    assert_eq!(scene.tolerance_rule(), ToleranceRule::PROJECT);

    let mut v = minimal();
    v["expect"] = json!({"tolerance": 0, "max_over_percent": 0, "max_mean_abs_error": 0.25});
    let scene = parse(&v).unwrap();
    let exact = ToleranceRule {
        tolerance: 0,
        max_over_percent: 0.0,
        max_mean_abs_error: 0.25,
    };
    assert_eq!(scene.expect, Some(exact));
    assert_eq!(scene.tolerance_rule(), exact);

    // keys left out keep the project rule's values
    let mut v = minimal();
    v["expect"] = json!({"max_over_percent": 12.5});
    assert_eq!(
        parse(&v).unwrap().tolerance_rule(),
        ToleranceRule {
            max_over_percent: 12.5,
            ..ToleranceRule::PROJECT
        }
    );
    let mut v = minimal();
    v["expect"] = json!({});
    assert_eq!(parse(&v).unwrap().expect, Some(ToleranceRule::PROJECT));
}

#[test]
fn expect_errors() {
    let ex = |v: &mut Value, e: Value| v["expect"] = e;
    assert_error(
        |v| ex(v, json!({"tolerance": 256})),
        "expect.tolerance",
        "expected an integer in 0..=255, got 256",
    );
    assert_error(
        |v| ex(v, json!({"tolerance": 1.5})),
        "expect.tolerance",
        "expected an integer in 0..=255, got 1.5",
    );
    assert_error(
        |v| ex(v, json!({"max_over_percent": 101})),
        "expect.max_over_percent",
        "expected a percentage from 0 to 100, got 101",
    );
    assert_error(
        |v| ex(v, json!({"max_over_percent": "1%"})),
        "expect.max_over_percent",
        "expected a percentage from 0 to 100, got \"1%\"",
    );
    assert_error(
        |v| ex(v, json!({"max_mean_abs_error": 0})),
        "expect.max_mean_abs_error",
        "expected a number above 0 and at most 255 (1/255 units), got 0",
    );
    assert_error(
        |v| ex(v, json!({"tolerence": 3})),
        "expect.tolerence",
        "unknown key; did you mean `tolerance`?",
    );
    assert_error(
        |v| ex(v, json!([2])),
        "expect",
        "expected an object, got a list",
    );
}

#[test]
fn the_first_bad_draw_is_reported() {
    let mut v = minimal();
    let good = v["draws"][0].clone();
    let mut bad = good.clone();
    bad["indices"] = json!([0, 1, 5]);
    v["draws"] = json!([good, good, bad]);
    let e = parse(&v).unwrap_err();
    assert_eq!(e.field, "draws[2].indices[2]");
    assert_eq!(
        e.to_string(),
        format!(
            "{}: draws[2].indices[2]: index 5 is out of range (3 vertices)",
            scene_path().display()
        )
    );
}

#[cfg(target_os = "linux")]
#[test]
fn endless_files_are_refused_not_read() {
    // Each of these used to read /dev/zero forever.
    let e = Scene::load("/dev/zero").unwrap_err();
    assert_eq!(
        e.to_string(),
        "/dev/zero: cannot read the scene: not a regular file"
    );
    type Edit = fn(&mut Value);
    let cases: [(Edit, &str); 4] = [
        (
            |v| v["textures"]["checker"]["path"] = json!("/dev/zero"),
            "textures.checker.path",
        ),
        (
            |v| v["draws"][0]["vertex"] = json!("/dev/zero"),
            "draws[0].vertex",
        ),
        (
            |v| v["draws"][0]["fragment"] = json!("/dev/zero"),
            "draws[0].fragment",
        ),
        (
            |v| {
                let draw = v["draws"][0].as_object_mut().unwrap();
                draw.remove("attributes");
                draw.insert("mesh".into(), json!("/dev/zero"));
            },
            "draws[0].mesh",
        ),
    ];
    for (edit, field) in cases {
        assert_error(edit, field, "cannot read /dev/zero: not a regular file");
    }
}

#[test]
fn files_over_their_limit_are_refused_without_reading() {
    let dir = std::env::temp_dir().join(format!("csir-render-huge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Sparse files: no disk space, and the size alone refuses them.
    let sparse = |name: &str, len: u64| {
        let path = dir.join(name);
        std::fs::File::create(&path).unwrap().set_len(len).unwrap();
        path
    };
    let scene = sparse("huge.json", crate::file_read::MAX_SCENE_BYTES + 1);
    let shader = sparse("huge.frag", crate::file_read::MAX_SCENE_SHADER_BYTES + 1);
    let e = Scene::load(&scene).unwrap_err();
    let mut v = minimal();
    v["draws"][0]["fragment"] = json!(shader.to_str().unwrap());
    let shader_error = parse(&v).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        e.message(),
        "cannot read the scene: 268435457 bytes, larger than the 268435456-byte limit"
    );
    assert_eq!(
        shader_error.message(),
        format!(
            "cannot read {}: 16777217 bytes, larger than the 16777216-byte limit",
            shader.display()
        )
    );
}

#[test]
fn primitives_are_assembled_into_triangles_with_the_provoking_vertex_last() {
    let mut v = minimal();
    v["draws"][0]["attributes"][0]["data"] = json!([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 2, 0, 0]);
    v["draws"][0]["primitive"] = json!("triangle_strip");
    let scene = parse(&v).unwrap();
    let d = &scene.draws[0];
    assert_eq!(d.primitive, Primitive::TriangleStrip);
    assert_eq!(d.elements.as_deref(), Some(&[0, 1, 2, 3, 4][..]));
    assert_eq!(d.indices, [0, 1, 2, 2, 1, 3, 2, 3, 4]);

    v["draws"][0]["indices"] = json!([4, 3, 65535, 0, 1, 2]);
    v["draws"][0]["primitive_restart_index"] = json!(65535);
    v["draws"][0]["state"] = json!({"provoking_vertex": "first"});
    let scene = parse(&v).unwrap();
    let d = &scene.draws[0];
    assert_eq!(d.primitive_restart_index, Some(65535));
    assert_eq!(d.state.provoking_vertex, ProvokingVertex::First);
    // the run [4, 3] makes no triangle; [0, 1, 2] with its first vertex last
    assert_eq!(d.indices, [1, 2, 0]);

    // a plain triangle list keeps its list as given, with no second copy
    let scene = parse(&minimal()).unwrap();
    assert_eq!(
        (
            scene.draws[0].indices.len(),
            scene.draws[0].elements.is_none()
        ),
        (3, true)
    );
}

#[test]
fn primitive_errors_name_the_field() {
    assert_error(
        |v| v["draws"][0]["state"] = json!({"line_width": 0}),
        "draws[0].state.line_width",
        "expected a number above 0, got 0",
    );
    assert_error(
        |v| v["draws"][0]["state"] = json!({"point_size": "big"}),
        "draws[0].state.point_size",
        "expected a number above 0, got \"big\"",
    );
    let (field, message) = error_of(|v| v["draws"][0]["primitive"] = json!("triangle_stirp"));
    assert_eq!(field, "draws[0].primitive");
    assert!(
        message.starts_with("expected one of triangles, triangle_strip"),
        "{message}"
    );
    let (field, _) = error_of(|v| v["draws"][0]["primitive_restart_index"] = json!(-1));
    assert_eq!(field, "draws[0].primitive_restart_index");
    assert_error(
        |v| {
            v["draws"][0]["primitive"] = json!("triangle_strip");
            v["draws"][0]["primitive_restart_index"] = json!(1);
        },
        "draws[0].primitive_restart_index",
        "restarts an indexed draw (glDrawElements): give indices",
    );
    let (field, message) = error_of(|v| {
        v["draws"][0]["primitive"] = json!("triangle_fan");
        v["draws"][0]["indices"] = json!([0, 1, 7]);
    });
    assert_eq!(
        (field.as_str(), message.as_str()),
        (
            "draws[0].indices[2]",
            "index 7 is out of range (3 vertices)"
        )
    );
    let (field, _) = error_of(|v| v["draws"][0]["state"] = json!({"provoking_vertex": "middle"}));
    assert_eq!(field, "draws[0].state.provoking_vertex");
    let (field, message) = error_of(|v| {
        let d = v["draws"][0].as_object_mut().unwrap();
        d.remove("attributes");
        d.insert("mesh".into(), json!("meshes/cube.obj"));
        d.insert("primitive".into(), json!("triangle_strip"));
    });
    assert_eq!(field, "draws[0].primitive");
    assert!(
        message.starts_with("a mesh is a triangle list"),
        "{message}"
    );
}

/// The example at the top of `docs/scene-format.md` loads as it stands and is the
/// `textured_quad` reference scene it says it is.
#[test]
fn the_format_docs_example_loads_as_it_stands() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/scene-format.md"))
            .unwrap();
    let start = docs.find("```json\n").expect("a JSON block") + "```json\n".len();
    let end = start + docs[start..].find("```").unwrap();
    let example = Scene::parse(&docs[start..end], &scene_path()).unwrap();
    let reference = Scene::load(reference_dir().join("textured_quad.json")).unwrap();
    assert_eq!((example.width, example.height), (256, 256));
    assert_eq!(example.draws.len(), 1);
    assert_eq!(example.draws[0].indices, reference.draws[0].indices);
    assert_eq!(example.draws[0].attributes, reference.draws[0].attributes);
    assert_eq!(example.clear_color, reference.clear_color);
}

#[test]
fn instances_divisors_and_integer_arrays_load() {
    let mut v = minimal();
    v["draws"][0]["instances"] = json!(5);
    v["draws"][0]["attributes"].as_array_mut().unwrap().extend([
        json!({"location": 1, "size": 2, "type": "int", "divisor": 2,
                   "data": [-2147483648, 2147483647, 16777217, 0, 7, 8]}),
        json!({"location": 2, "size": 1, "type": "uint", "data": [4294967295u32, 0, 3]}),
    ]);
    let scene = parse(&v).unwrap();
    let d = &scene.draws[0];
    assert_eq!((d.instances, d.vertex_count), (5, 3));
    let a = d.attribute(1).unwrap();
    assert_eq!((a.ty, a.divisor), (AttributeType::Int, 2));
    // instance 3 reads element 1: (16777217, 0), widened with the integers 0, 1
    let bits = a.fetch_instanced(2, 3).map(f32::to_bits);
    assert_eq!(bits, [16_777_217, 0, 0, 1]);
    assert_eq!(a.fetch_instanced(0, 0)[0].to_bits(), 0x8000_0000);
    let u = d.attribute(2).unwrap();
    assert_eq!(u.fetch_instanced(0, 4)[0].to_bits(), u32::MAX);
    assert_eq!(parse(&minimal()).unwrap().draws[0].instances, 1);
}

#[test]
fn instancing_errors_name_their_field() {
    let add =
        |a: Value| move |v: &mut Value| v["draws"][0]["attributes"].as_array_mut().unwrap().push(a);
    assert_error(
        |v| v["draws"][0]["instances"] = json!(-1),
        "draws[0].instances",
        "expected an integer in 0..=1048576, got -1",
    );
    assert_error(
        add(json!({"location": 1, "size": 1, "type": "int", "data": [0, 1, 2147483648u32]})),
        "draws[0].attributes[1].data[2]",
        "expected an integer in -2147483648..=2147483647 (type int), got 2147483648",
    );
    assert_error(
        add(json!({"location": 1, "size": 1, "type": "uint", "data": [0, 1.5, 2]})),
        "draws[0].attributes[1].data[1]",
        "expected an integer in 0..=4294967295 (type uint), got 1.5",
    );
    assert_error(
        add(json!({"location": 1, "size": 1, "type": "double", "data": [0, 1, 2]})),
        "draws[0].attributes[1].type",
        "expected one of float, int, uint, got \"double\"",
    );
    let (field, message) = error_of(|v| {
        v["draws"][0]["instances"] = json!(7);
        add(json!({"location": 1, "size": 2, "divisor": 3, "data": [0, 0, 1, 1]}))(v);
    });
    assert_eq!(field, "draws[0].attributes[1].data");
    assert_eq!(
        message,
        "holds 2 elements; 7 instances with divisor 3 read 3"
    );
    assert_error(
        |v| v["draws"][0]["attributes"][0]["divisor"] = json!(1),
        "draws[0].attributes",
        "every attribute has a divisor: give at least one per-vertex array (divisor 0), \
         whose length sets the vertex count",
    );
}
