//! Scenes changed in code after loading (or built as struct literals) are checked by
//! `render_scene` as the loader checks a file (`Scene::validate`): each fault here
//! used to render with no error.

use csir_render::pipeline::{RenderError, RenderOptions, render_scene};
use csir_render::scene::{Scene, SceneError};
use std::path::Path;

/// A textured quad: 4 vertices (location 0 size 2, location 2 size 2), 6 indices,
/// one texture, one sampler, one vec4 uniform.
fn quad() -> Scene {
    let json = r#"{"format": "csir-scene/1", "width": 16, "height": 16,
      "textures": {"checker": {"path": "textures/checker.png"}},
      "draws": [{"vertex": "shaders/textured.vert", "fragment": "shaders/textured.frag",
        "attributes": [
          {"location": 0, "size": 2, "data": [-1, -1, 1, -1, 1, 1, -1, 1]},
          {"location": 2, "size": 2, "data": [0, 0, 1, 0, 1, 1, 0, 1]}],
        "indices": [0, 1, 2, 0, 2, 3],
        "uniforms": {"uTint": [1, 1, 1, 1]},
        "samplers": {"uTex": {"texture": "checker"}}}]}"#;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images/quad.json");
    Scene::parse(json, &path).unwrap_or_else(|e| panic!("{e}"))
}

/// The scene error `render_scene` gives for `scene`, or a panic naming what it gave.
fn render_error(scene: &Scene) -> SceneError {
    match render_scene(scene, &RenderOptions::default()) {
        Err(RenderError::Scene(e)) => e,
        Err(other) => panic!("not a scene error: {other}"),
        Ok(_) => panic!("rendered with no error"),
    }
}

#[test]
fn the_unchanged_quad_renders() {
    assert!(render_scene(&quad(), &RenderOptions::default()).is_ok());
    assert!(quad().validate().is_ok());
}

#[test]
fn a_vertex_count_the_attributes_do_not_hold_is_an_error() {
    let mut scene = quad();
    scene.draws[0].vertex_count = 1000;
    let e = render_error(&scene);
    assert_eq!(e.field, "draws[0].vertex_count");
    assert_eq!(
        e.message(),
        "1000 vertices, but attributes[0] (location 0) holds 4"
    );
}

#[test]
fn indices_not_a_multiple_of_3_are_an_error() {
    let mut scene = quad();
    scene.draws[0].indices.push(1);
    let e = render_error(&scene);
    assert_eq!(e.field, "draws[0].indices");
    assert_eq!(e.message(), "length 7 is not a multiple of 3");
}

#[test]
fn a_sampler_naming_a_missing_texture_is_an_error() {
    let mut scene = quad();
    scene.draws[0].samplers[0].texture = 7;
    let e = render_error(&scene);
    assert_eq!(e.field, "draws[0].samplers.uTex.texture");
    assert_eq!(
        e.message(),
        "texture 7 does not exist (the scene has 1 texture)"
    );
}

#[test]
fn an_attribute_size_past_4_is_an_error() {
    let mut scene = quad();
    scene.draws[0].attributes[1].size = 9;
    let e = render_error(&scene);
    assert_eq!(e.field, "draws[0].attributes[1].size");
    assert_eq!(e.message(), "expected an integer in 1..=4, got 9");
}

#[test]
fn a_nan_uniform_is_an_error() {
    let mut scene = quad();
    scene.draws[0].uniforms[0].values[2] = f32::NAN;
    let e = render_error(&scene);
    assert_eq!(e.field, "draws[0].uniforms.uTint[2]");
    assert_eq!(e.message(), "NaN is not a finite 32-bit float");
}
