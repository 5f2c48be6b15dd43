//! Tests of the per-fragment operation keys of a draw's `state`
//! (`docs/scene-format.md`, "Per-fragment operations"): values and error messages.

use serde_json::{Value, json};

use super::load_tests::{error_of, minimal, parse};
use csir_raster::{BlendEquation, BlendFactor, BlendFunction, BlendMode};

fn with_state(state: Value) -> Value {
    let mut v = minimal();
    v["draws"][0]["state"] = state;
    v
}

fn blend_of(blend: Value) -> BlendMode {
    let scene = parse(&with_state(json!({ "blend": blend }))).unwrap_or_else(|e| panic!("{e}"));
    scene.draws[0].state.raster.blend
}

#[test]
fn blend_objects() {
    // `src`/`dst`/`equation` set both parts; the separate keys override them.
    let f = BlendFunction {
        src_rgb: BlendFactor::ConstantColor,
        dst_rgb: BlendFactor::OneMinusDstAlpha,
        src_alpha: BlendFactor::One,
        dst_alpha: BlendFactor::OneMinusDstAlpha,
        equation_rgb: BlendEquation::ReverseSubtract,
        equation_alpha: BlendEquation::Max,
        color: [0, 128, 255, 51],
    };
    assert_eq!(
        blend_of(json!({
            "src": "constant_color", "dst": "one_minus_dst_alpha", "src_alpha": "one",
            "equation": "reverse_subtract", "equation_alpha": "max",
            "color": [-1.0, 0.5, 2.0, 0.2]
        })),
        BlendMode::Function(f)
    );
    // The named modes' functions are the named modes (their loops and bytes).
    assert_eq!(
        blend_of(json!({"src": "src_alpha", "dst": "one_minus_src_alpha"})),
        BlendMode::Alpha
    );
    assert_eq!(
        blend_of(json!({"src": "one", "dst": "one"})),
        BlendMode::Additive
    );
    assert_eq!(blend_of(json!({})), BlendMode::Replace);
    assert_eq!(blend_of(json!("additive")), BlendMode::Additive);
}

#[test]
fn blend_errors_name_the_field_and_suggest() {
    let at = |blend: Value| error_of(|v| v["draws"][0]["state"] = json!({ "blend": blend }));
    assert_eq!(
        at(json!({"src": "one_minus_src_alfa"})),
        (
            "draws[0].state.blend.src".to_owned(),
            "unknown blend factor `one_minus_src_alfa`; did you mean `one_minus_src_alpha`?"
                .to_owned()
        )
    );
    assert_eq!(
        at(json!({"equation_rgb": "reverse_sub"})).1,
        "unknown blend equation `reverse_sub`; did you mean `reverse_subtract`?"
    );
    assert_eq!(at(json!({"scr": "one"})).0, "draws[0].state.blend.scr");
    assert_eq!(
        at(json!({"scr": "one"})).1,
        "unknown key; did you mean `src`?"
    );
    assert_eq!(
        at(json!("aplha")).1,
        "unknown blend mode `aplha`; did you mean `alpha`?"
    );
    assert_eq!(at(json!({"color": [1, 2]})).1, "expected 4 numbers, got 2");
    assert_eq!(
        at(json!({"dst_alpha": "src1_alfa"})).1,
        "unknown blend factor `src1_alfa`; did you mean `src1_alpha`?"
    );
    assert!(
        at(json!(3))
            .1
            .starts_with("expected one of none, alpha, additive or an object")
    );
}

#[test]
fn window_keys() {
    let scene = parse(&with_state(json!({
        "color_mask": [true, false, true, false],
        "scissor": [1, 0, 3, 3],
        "viewport": [-2, 1, 10, 20],
        "depth_range": [0.75, -1.0]
    })))
    .unwrap_or_else(|e| panic!("{e}"));
    let r = scene.draws[0].state.raster;
    assert_eq!(r.color_mask, [true, false, true, false]);
    assert_eq!(r.scissor, Some([1, 0, 3, 3]));
    assert_eq!(r.viewport, Some([-2, 1, 10, 20]));
    assert_eq!(
        r.depth_range,
        [0.75, 0.0],
        "clamped to [0, 1] as glDepthRange does"
    );
    let none = parse(&with_state(json!({"scissor": null, "viewport": null}))).unwrap();
    assert_eq!(none.draws[0].state.raster.scissor, None);
    assert_eq!(none.draws[0].state.raster.viewport, None);
}

#[test]
fn window_key_errors() {
    let at = |state: Value| error_of(|v| v["draws"][0]["state"] = state);
    // The minimal scene is 4 × 3 pixels.
    assert_eq!(
        at(json!({"scissor": [2, 0, 3, 1]})),
        (
            "draws[0].state.scissor".to_owned(),
            "the scissor rectangle [2, 0, 3, 1] reaches outside the 4 × 3 framebuffer (to \
             x 5, y 1); keep x + w ≤ 4 and y + h ≤ 3"
                .to_owned()
        )
    );
    assert_eq!(
        at(json!({"scissor": [-1, 0, 1, 1]})).0,
        "draws[0].state.scissor[0]"
    );
    assert_eq!(
        at(json!({"scissor": [0, 0, 1]})).1,
        "expected [x, y, width, height], got 3 numbers"
    );
    assert_eq!(
        at(json!({"viewport": [0, 0, 0, 4]})).0,
        "draws[0].state.viewport"
    );
    assert_eq!(
        at(json!({"viewport": [0, 0, -3, 4]})).0,
        "draws[0].state.viewport[2]"
    );
    assert_eq!(
        at(json!({"color_mask": [true, 1, true, true]})),
        (
            "draws[0].state.color_mask[1]".to_owned(),
            "expected true or false, got 1".to_owned()
        )
    );
    assert_eq!(
        at(json!({"color_mask": [true]})).0,
        "draws[0].state.color_mask"
    );
    assert_eq!(
        at(json!({"depth_range": [0.5]})).1,
        "expected 2 numbers, got 1"
    );
    assert_eq!(
        at(json!({"scisor": null})).1,
        "unknown key; did you mean `scissor`?"
    );
}

#[test]
fn polygon_offset_key() {
    let scene = parse(&with_state(json!({"polygon_offset": {"factor": -1.5}}))).unwrap();
    assert_eq!(
        scene.draws[0].state.raster.polygon_offset,
        Some(csir_raster::PolygonOffset {
            factor: -1.5,
            units: 0.0
        })
    );
    let none = parse(&with_state(json!({"polygon_offset": null}))).unwrap();
    assert_eq!(none.draws[0].state.raster.polygon_offset, None);
    let at = |state: Value| error_of(|v| v["draws"][0]["state"] = state);
    assert_eq!(
        at(json!({"polygon_offset": {"unit": 1}})),
        (
            "draws[0].state.polygon_offset.unit".to_owned(),
            "unknown key; did you mean `units`?".to_owned()
        )
    );
    assert_eq!(
        at(json!({"polygon_offset": {"factor": "one"}})).0,
        "draws[0].state.polygon_offset.factor"
    );
}
