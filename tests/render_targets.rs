//! Scenes with several colour targets (docs/scene-format.md "Render targets"): the
//! value each format stores, checked against hand-computed conversions, and the errors
//! that name a scene field.

use csir_render::pipeline::{RenderOptions, render_scene};
use csir_render::scene::Scene;
use serde_json::{Value, json};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("reference-images/framebuffer")
}

fn parse(v: &Value) -> Result<Scene, String> {
    Scene::parse(&v.to_string(), &dir().join("t.json")).map_err(|e| e.to_string())
}

fn scene(targets: Value, fragment: &str, extra: Value) -> Value {
    let mut v = json!({
        "format": "csir-scene/1",
        "width": 4,
        "height": 4,
        "targets": targets,
        "draws": [{
            "vertex": "color.vert",
            "fragment": fragment,
            "attributes": [
                {"location": 0, "size": 3, "data": [-1, -1, 0, 3, -1, 0, -1, 3, 0]},
                {"location": 1, "size": 4, "data": [0.5, 0.5, 0.5, 1, 0.5, 0.5, 0.5, 1, 0.5, 0.5, 0.5, 1]}
            ],
            "state": {"depth_test": "none"}
        }]
    });
    if let (Value::Object(o), Value::Object(e)) = (&mut v, extra) {
        o.extend(e);
    }
    v
}

#[test]
fn each_target_stores_its_formats_conversion() {
    let targets = json!([{"format": "rgba8"}, {"format": "rgba16f"}, {"format": "rgba32i"}]);
    let s = parse(&scene(targets, "constant.frag", json!({}))).unwrap();
    let frame = render_scene(&s, &RenderOptions::default()).unwrap();
    assert_eq!(frame.targets.len(), 3);
    // unorm8: round(clamp(c) · 255): 0.5 → 128 (127.5 ties to even), 0.25 → 64.
    assert_eq!(frame.targets[0].values[5], [128, 64, 255, 0]);
    assert_eq!(&frame.image.pixels()[..4], &[128, 64, 255, 0]);
    // half: 1 + 2^-12 ties to even → 1.0; -2.5 exact; 70000 overflows to +inf.
    let half = frame.targets[1].values[5].map(f32::from_bits);
    assert_eq!(half, [1.0, -2.5, f32::INFINITY, 0.5]);
    // integers as written.
    let ints = frame.targets[2].values[5].map(|w| w as i32);
    assert_eq!(ints, [-7, 2147483647, 0, 1]);
}

#[test]
fn srgb_targets_encode_only_with_framebuffer_srgb() {
    let targets = json!([{"format": "srgb8_alpha8"}]);
    for (srgb, expected) in [(true, 188), (false, 128)] {
        let s = parse(&scene(
            targets.clone(),
            "color.frag",
            json!({"framebuffer_srgb": srgb}),
        ))
        .unwrap();
        let frame = render_scene(&s, &RenderOptions::default()).unwrap();
        // 0.5 linear: 1.055 · 0.5^(1/2.4) − 0.055 = 0.7354, · 255 = 187.5 → 188.
        assert_eq!(
            frame.targets[0].values[0],
            [expected, expected, expected, 255]
        );
    }
}

#[test]
fn integer_clears_are_exact() {
    let targets = json!([{"format": "rgba8"}, {"format": "rgba32ui"}]);
    let extra = json!({"clear": {"color": [[0, 0, 0, 1], [4294967295u64, 16777217, 0, 1]]}});
    let mut v = scene(targets, "color.frag", extra);
    v["draws"] = json!([]);
    let frame = render_scene(&parse(&v).unwrap(), &RenderOptions::default()).unwrap();
    assert_eq!(frame.targets[1].values[0], [u32::MAX, 16_777_217, 0, 1]);
}

#[test]
fn bad_values_name_the_field() {
    let e = parse(&scene(
        json!([{"format": "rgba16"}]),
        "color.frag",
        json!({}),
    ))
    .unwrap_err();
    assert!(
        e.contains("targets[0].format") && e.contains("did you mean `rgba16f`?"),
        "{e}"
    );
    let two = json!([{"format": "rgba8"}, {"format": "r8"}]);
    let extra = json!({"clear": {"color": [[0, 0, 0, 1]]}});
    let e = parse(&scene(two.clone(), "color.frag", extra)).unwrap_err();
    assert!(
        e.contains("clear.color") && e.contains("1 colours for 2 targets"),
        "{e}"
    );
    let ints = json!([{"format": "rgba8"}, {"format": "rgba32ui"}]);
    let mut v = scene(ints, "color.frag", json!({}));
    v["draws"][0]["state"]["blend"] = json!("alpha");
    let e = parse(&v).unwrap_err();
    assert!(
        e.contains("draws[0].state.blend") && e.contains("targets[1] is rgba32ui"),
        "{e}"
    );
    let e = parse(&scene(json!([{"fromat": "r8"}]), "color.frag", json!({}))).unwrap_err();
    assert!(
        e.contains("targets[0].fromat") && e.contains("did you mean `format`?"),
        "{e}"
    );
    // An output at a location with no target, and an integer output to a float target:
    // errors of the draw's fragment shader, when the scene is prepared.
    let one = parse(&scene(
        json!([{"format": "rgba8"}]),
        "constant.frag",
        json!({}),
    ))
    .unwrap();
    let e = render_scene(&one, &RenderOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("draws[0].fragment") && e.contains("output 'wide' at location 1 has no target"),
        "{e}"
    );
    let float3 = json!([{"format": "rgba8"}, {"format": "rgba16f"}, {"format": "rgba32f"}]);
    let s = parse(&scene(float3, "constant.frag", json!({}))).unwrap();
    let e = render_scene(&s, &RenderOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("output 'signed' (ivec4) writes targets[2], which is rgba32f"),
        "{e}"
    );
}
