//! Multisampled scenes (docs/scene-format.md "Multisampling"): resolved values
//! computed by hand, determinism across thread counts, the loader's errors naming the
//! field, and the back ends that refuse it.

use csir_render::debug::{PixelTrace, trace_pixel};
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

/// The trace of image pixel `[x, 8]` of `s`, checked to end at the rendered byte.
fn traced(s: &Scene, x: u32) -> PixelTrace {
    let trace = trace_pixel(s, [x, 8]).unwrap_or_else(|e| panic!("{e}"));
    let rendered = render_scene(s, &RenderOptions::default()).unwrap();
    assert_eq!(
        trace.color,
        rendered.image.pixel(x, 8).unwrap(),
        "pixel {x}: the traced colour is the rendered byte"
    );
    trace
}

#[test]
fn trace_shows_each_sample_and_the_resolve() {
    // Pixel 2 of the quad from x = 2.5: samples 1 and 3 (x 2.875, 2.625) covered,
    // 0 and 2 (x 2.375, 2.125) not; white over black resolves to 128.
    let s = parse(&scene(
        2.5,
        5.25,
        json!({"depth_test": "less"}),
        json!({"samples": 4}),
    ))
    .unwrap();
    let trace = traced(&s, 2);
    // alpha: 0.6 → 153 on the covered samples, the clear's 255 on the others → 204
    assert_eq!(trace.color, [128, 128, 128, 204]);
    let values: Vec<[u8; 4]> = trace.samples.iter().map(|v| v.color).collect();
    let (white, black) = ([255, 255, 255, 153], [0, 0, 0, 255]);
    assert_eq!(values, [black, white, black, white]);
    assert_eq!(trace.samples[1].position, [0.875, 0.375]);
    let draw = &trace.draws[0];
    assert_eq!((draw.before, draw.after), (black, [128, 128, 128, 204]));
    // The quad's second triangle (0, 2, 3) holds pixel row 8's left part; one
    // fragment, shaded once, with a step per sample.
    assert_eq!(draw.fragments.len(), 1, "{trace}");
    let f = &draw.fragments[0];
    assert!(f.shaded && f.shader.is_some() && f.depth.is_none() && f.blend.is_none());
    assert_eq!(f.shader.as_ref().unwrap().disagreement, None);
    let covered: Vec<bool> = f.samples.iter().map(|s| s.covered).collect();
    assert_eq!(covered, [false, true, false, true]);
    for s in [1, 3] {
        let step = &f.samples[s];
        let depth = step.depth.expect("depth tested per sample");
        assert!(depth.passed && depth.written);
        let blend = step.blend.expect("written");
        assert_eq!((blend.destination, blend.result), (black, white));
    }
    let text = trace.to_string();
    assert!(text.contains("covers samples 1, 3 of 4"), "{text}");
    assert!(
        text.contains("sample 0 at (0.375, 0.125): not covered"),
        "{text}"
    );
    assert!(text.contains("give (128, 128, 128, 204)"), "{text}");
    // The streaming JSON's end record holds the sample values.
    let end = trace.json_lines().last().unwrap().unwrap();
    assert!(end.contains(r#""samples":[{"sample":0"#), "{end}");
}

#[test]
fn trace_tells_which_mask_dropped_a_sample() {
    // alpha 0.6 keeps samples 0, 1, 2; sample 3 is dropped by alpha_to_coverage.
    let a2c = json!({"depth_test": "none", "alpha_to_coverage": true});
    let s = parse(&scene(0.0, 16.0, a2c, json!({"samples": 4}))).unwrap();
    // pixel 2 of row 8 lies inside the quad's upper-left triangle: one fragment
    let trace = traced(&s, 2);
    assert_eq!(trace.color[0], 191);
    let f = &trace.draws[0].fragments[0];
    let dropped: Vec<Option<&str>> = f.samples.iter().map(|s| s.dropped_by).collect();
    assert_eq!(
        dropped,
        [None, None, None, Some("alpha_to_coverage")],
        "{trace}"
    );
    assert!(f.samples.iter().all(|s| s.covered && !s.discarded));
    assert_eq!(f.shader.as_ref().unwrap().disagreement, None);
    // sample_coverage 0.5 inverted keeps samples 2 and 3.
    let state = json!({"depth_test": "none", "sample_coverage": {"value": 0.5, "invert": true}});
    let s = parse(&scene(0.0, 16.0, state, json!({"samples": 4}))).unwrap();
    let trace = traced(&s, 2);
    assert_eq!(trace.color[0], 128);
    let f = &trace.draws[0].fragments[0];
    let dropped: Vec<Option<&str>> = f.samples.iter().map(|s| s.dropped_by).collect();
    assert_eq!(
        dropped,
        [Some("sample_coverage"), Some("sample_coverage"), None, None]
    );
}
