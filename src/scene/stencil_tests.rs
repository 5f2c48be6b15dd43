//! Tests of the stencil and depth-clamp keys (`docs/scene-format.md`, "Stencil and
//! depth clamp"): values and error messages.

use serde_json::{Value, json};

use super::load_tests::{error_of, minimal, parse};
use csir_raster::{DepthTest, StencilFace, StencilOp, StencilState};

fn state_of(state: Value) -> csir_raster::RasterState {
    let mut v = minimal();
    v["draws"][0]["state"] = state;
    parse(&v).unwrap_or_else(|e| panic!("{e}")).draws[0]
        .state
        .raster
}

fn stencil_error(stencil: Value) -> (String, String) {
    error_of(|v| v["draws"][0]["state"] = json!({ "stencil": stencil }))
}

#[test]
fn stencil_faces_and_defaults() {
    assert_eq!(state_of(json!({})).stencil, None);
    assert_eq!(state_of(json!({"stencil": null})).stencil, None);
    assert!(!state_of(json!({})).depth_clamp);
    assert!(state_of(json!({"depth_clamp": true})).depth_clamp);
    // One face object is both faces; missing keys are GL's defaults.
    let both = StencilFace {
        func: DepthTest::NotEqual,
        reference: 200,
        value_mask: 0x0f,
        write_mask: 0x3c,
        fail: StencilOp::Zero,
        depth_fail: StencilOp::DecrWrap,
        pass: StencilOp::Invert,
    };
    assert_eq!(
        state_of(json!({"stencil": {
            "func": "notequal", "ref": 200, "value_mask": 15, "write_mask": 60,
            "fail": "zero", "depth_fail": "decr_wrap", "pass": "invert"
        }}))
        .stencil,
        Some(StencilState {
            front: both,
            back: both
        })
    );
    let sided = state_of(json!({"stencil": {"front": {"pass": "incr_wrap"}}}))
        .stencil
        .expect("a stencil test");
    assert_eq!(sided.front.pass, StencilOp::IncrWrap);
    assert_eq!(sided.back, StencilFace::default());
    assert_eq!(
        (
            sided.back.func,
            sided.back.value_mask,
            sided.back.write_mask
        ),
        (DepthTest::Always, 255, 255)
    );
}

#[test]
fn clear_stencil_is_a_byte() {
    let mut v = minimal();
    v["clear"] = json!({"stencil": 7});
    assert_eq!(parse(&v).unwrap().clear_stencil, 7);
    assert_eq!(parse(&minimal()).unwrap().clear_stencil, 0);
    let e = error_of(|v| v["clear"] = json!({"stencil": 256}));
    assert_eq!(
        e,
        (
            "clear.stencil".to_owned(),
            "expected an integer in 0..=255, got 256".to_owned()
        )
    );
}

#[test]
fn stencil_errors_name_the_field_and_suggest() {
    assert_eq!(
        stencil_error(json!({"pass": "incr_wrp"})),
        (
            "draws[0].state.stencil.pass".to_owned(),
            "unknown stencil op `incr_wrp`; did you mean `incr_wrap`?".to_owned()
        )
    );
    assert_eq!(
        stencil_error(json!({"back": {"func": "notequl"}})),
        (
            "draws[0].state.stencil.back.func".to_owned(),
            "unknown stencil function `notequl`; did you mean `notequal`?".to_owned()
        )
    );
    assert_eq!(
        stencil_error(json!({"front": {"ref": 256}})),
        (
            "draws[0].state.stencil.front.ref".to_owned(),
            "expected an integer in 0..=255 (the reference value of the 8-bit stencil \
             buffer), got 256"
                .to_owned()
        )
    );
    assert_eq!(
        stencil_error(json!({"ref": -1})).0,
        "draws[0].state.stencil.ref"
    );
    assert_eq!(
        stencil_error(json!({"write_mask": 1.5})).0,
        "draws[0].state.stencil.write_mask"
    );
    // `none` is the depth test's, not a stencil function.
    assert_eq!(
        stencil_error(json!({"func": "none"})).0,
        "draws[0].state.stencil.func"
    );
    assert_eq!(
        stencil_error(json!({"front": {}, "pass": "keep"})),
        (
            "draws[0].state.stencil.pass".to_owned(),
            "unknown key (expected one of front, back)".to_owned()
        )
    );
    assert_eq!(
        stencil_error(json!({"passs": "keep"})),
        (
            "draws[0].state.stencil.passs".to_owned(),
            "unknown key; did you mean `pass`?".to_owned()
        )
    );
    assert_eq!(
        error_of(|v| v["draws"][0]["state"] = json!({"depth_clamp": 1})),
        (
            "draws[0].state.depth_clamp".to_owned(),
            "expected true or false, got 1".to_owned()
        )
    );
}
