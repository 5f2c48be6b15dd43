//! Multisampled scenes (docs/scene-format.md "Multisampling"): resolved values
//! computed by hand, determinism across thread counts, the loader's errors naming the
//! field, and the back ends that refuse it.

use csir_render::debug::trace_pixel;
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

/// A 16×16 scene of one white quad `x0..x1` (window pixels) over black, all rows,
/// with `state` and the top-level keys `extra`.
fn scene(x0: f32, x1: f32, state: Value, extra: Value) -> Value {
    let ndc = |x: f32| x / 8.0 - 1.0;
    let (a, b) = (ndc(x0), ndc(x1));
    let mut v = json!({
        "format": "csir-scene/1",
        "width": 16,
        "height": 16,
        "clear": {"color": [0, 0, 0, 1]},
        "draws": [{
            "vertex": "color.vert",
            "fragment": "color.frag",
            "attributes": [
                {"location": 0, "size": 3, "data": [a, -1, 0, b, -1, 0, b, 1, 0, a, 1, 0]},
                {"location": 1, "size": 4, "data": [1, 1, 1, 0.6, 1, 1, 1, 0.6, 1, 1, 1, 0.6, 1, 1, 1, 0.6]}
            ],
            "indices": [0, 1, 2, 0, 2, 3],
            "state": state
        }]
    });
    if let (Value::Object(o), Value::Object(e)) = (&mut v, extra) {
        o.extend(e);
    }
    v
}

fn red_row(s: &Scene, threads: Option<usize>) -> Vec<u8> {
    let options = RenderOptions {
        threads,
        ..RenderOptions::default()
    };
    let frame = render_scene(s, &options).unwrap();
    // row 8 from the top, the red channel of each pixel
    frame.image.pixels()[8 * 16 * 4..9 * 16 * 4]
        .chunks_exact(4)
        .map(|p| p[0])
        .collect()
}

#[test]
fn edges_resolve_to_the_share_of_covered_samples() {
    // Left edge at x = 2.5 covers samples at x ≥ 2.5 of pixel 2 (samples 1 and 3 at
    // 2.875 and 2.625: 2 of 4 → 127.5 → 128); right edge at x = 5.25 covers, in pixel
    // 5, samples 0 and 2 (5.375 is past it, 5.125 is not): 0.125 at 5.125 only → 1 of 4
    // → 63.75 → 64.
    let s = parse(&scene(
        2.5,
        5.25,
        json!({"depth_test": "none"}),
        json!({"samples": 4}),
    ))
    .unwrap();
    let row = red_row(&s, None);
    assert_eq!(&row[..8], &[0, 0, 128, 255, 255, 64, 0, 0]);
    // The same scene single-sampled: pixel centres only.
    let one = parse(&scene(2.5, 5.25, json!({"depth_test": "none"}), json!({}))).unwrap();
    assert_eq!(&red_row(&one, None)[..8], &[0, 0, 255, 255, 255, 0, 0, 0]);
}

#[test]
fn alpha_to_coverage_and_sample_coverage_mask_samples() {
    // Alpha 0.6 keeps samples 0, 1, 2: 3 of 4 → 191.25 → 191.
    let a2c = json!({"depth_test": "none", "alpha_to_coverage": true});
    let s = parse(&scene(0.0, 16.0, a2c, json!({"samples": 4}))).unwrap();
    assert_eq!(red_row(&s, None)[7], 191);
    // sample_coverage 0.5 keeps samples 0 and 1 → 128; inverted, 2 and 3 → 128 too;
    // 0.3 keeps ⌊1.2⌋ = 1 sample → 64.
    for (value, invert, want) in [(0.5, false, 128), (0.5, true, 128), (0.3, false, 64)] {
        let state =
            json!({"depth_test": "none", "sample_coverage": {"value": value, "invert": invert}});
        let s = parse(&scene(0.0, 16.0, state, json!({"samples": 4}))).unwrap();
        assert_eq!(red_row(&s, None)[7], want, "{value} {invert}");
    }
    // Without samples the states change nothing, as in GL.
    let state =
        json!({"depth_test": "none", "alpha_to_coverage": true, "sample_coverage": {"value": 0.0}});
    let s = parse(&scene(0.0, 16.0, state, json!({}))).unwrap();
    assert_eq!(red_row(&s, None)[7], 255);
}

#[test]
fn the_reference_scenes_render_the_same_bytes_on_any_thread_count() {
    for name in ["msaa_edges.json", "alpha_to_coverage.json"] {
        let s = Scene::load(dir().join(name)).unwrap();
        let render = |threads| {
            let options = RenderOptions {
                threads: Some(threads),
                ..RenderOptions::default()
            };
            render_scene(&s, &options).unwrap().image
        };
        assert_eq!(render(1), render(7), "{name}");
    }
}

#[test]
fn bad_values_are_errors_naming_the_field() {
    let cases = [
        (json!({"samples": 3}), json!({}), "samples: expected 1 or 4"),
        (
            json!({"samples": "4"}),
            json!({}),
            "samples: expected 1 or 4",
        ),
        (
            json!({"samples": 4.5}),
            json!({}),
            "samples: expected 1 or 4",
        ),
        (
            json!({}),
            json!({"alpha_to_coverage": 1}),
            "draws[0].state.alpha_to_coverage: expected true or false",
        ),
        (
            json!({}),
            json!({"sample_coverage": {"value": 1.5}}),
            "draws[0].state.sample_coverage.value: expected a number from 0 to 1, got 1.5",
        ),
        (
            json!({}),
            json!({"sample_coverage": {}}),
            "draws[0].state.sample_coverage.value: missing",
        ),
        (
            json!({}),
            json!({"sample_coverage": 0.5}),
            "draws[0].state.sample_coverage: expected",
        ),
        (
            json!({}),
            json!({"sample_coverage": {"value": 0.5, "invrt": true}}),
            "did you mean `invert`",
        ),
        (
            json!({}),
            json!({"alpha_to_coverag": true}),
            "did you mean `alpha_to_coverage`",
        ),
        (json!({"sample": 4}), json!({}), "did you mean `samples`"),
        (
            json!({"samples": 4}),
            json!({"polygon_mode": "line"}),
            "draws[0].state.polygon_mode: polygon modes line and point are not drawn yet with samples 4",
        ),
        (
            json!({"samples": 4, "targets": [{"format": "srgb8_alpha8"}]}),
            json!({}),
            "samples: not drawn yet with a srgb8_alpha8 target",
        ),
    ];
    for (extra, state, want) in cases {
        let mut st = json!({"depth_test": "none"});
        if let (Value::Object(o), Value::Object(e)) = (&mut st, state) {
            o.extend(e);
        }
        let err = parse(&scene(0.0, 8.0, st, extra.clone())).unwrap_err();
        assert!(err.contains(want), "{extra} → {err}");
    }
}

#[test]
fn trace_refuses_a_multisampled_scene_by_name() {
    let s = parse(&scene(0.0, 8.0, json!({}), json!({"samples": 4}))).unwrap();
    let err = trace_pixel(&s, [2, 2]).unwrap_err().to_string();
    assert!(err.contains("`samples` 4"), "{err}");
}
