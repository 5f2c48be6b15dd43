//! Uniform arrays end to end through a scene: the corpus' Blinn-Phong tile
//! gives `uLightPos` as one key with all elements (the form the llvmpipe reference
//! uses); giving the same values element by element (`"uLightPos[0]"`, …, as the scene
//! format allows) renders the same bytes, and a wrong element or count is an error
//! naming the key.

use csir_render::pipeline::{RenderOptions, render_scene};
use csir_render::scene::{Scene, UniformValue};
use std::path::Path;

fn lighting_scene() -> Scene {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images/corpus/corpus_lighting.json");
    let mut scene = Scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
    scene.draws.truncate(1);
    assert!(
        scene.draws[0]
            .fragment
            .path
            .ends_with("blinn_phong_lights.frag")
    );
    scene
}

/// The draw's uniforms with `uLightPos` split into one key per element.
fn split_elements(uniforms: &[UniformValue]) -> Vec<UniformValue> {
    let mut out = Vec::new();
    for u in uniforms {
        if u.key != "uLightPos" {
            out.push(u.clone());
            continue;
        }
        for (k, chunk) in u.values.chunks(3).enumerate() {
            out.push(UniformValue {
                key: format!("uLightPos[{k}]"),
                values: chunk.to_vec(),
                ints: None,
            });
        }
    }
    out
}

#[test]
fn array_elements_by_name_render_like_the_whole_array() {
    let whole = lighting_scene();
    let mut by_element = whole.clone();
    by_element.draws[0].uniforms = split_elements(&whole.draws[0].uniforms);
    assert!(by_element.draws[0].uniforms.len() > whole.draws[0].uniforms.len());
    let a = render_scene(&whole, &RenderOptions::default()).unwrap();
    let b = render_scene(&by_element, &RenderOptions::default()).unwrap();
    assert!(a.image == b.image, "element keys render differently");
    // Element 1 changed alone changes the picture.
    let mut moved = by_element.clone();
    for u in &mut moved.draws[0].uniforms {
        if u.key == "uLightPos[1]" {
            u.values = vec![0.0, 3.0, 1.0];
        }
    }
    let c = render_scene(&moved, &RenderOptions::default()).unwrap();
    assert!(c.image != b.image);
}

#[test]
fn a_bad_element_is_an_error_naming_the_key() {
    for (key, values) in [
        ("uLightPos[3]", vec![0.0; 3]),
        ("uLightPos[0]", vec![0.0; 4]),
    ] {
        let mut scene = lighting_scene();
        scene.draws[0].uniforms.push(UniformValue {
            key: key.to_string(),
            values,
            ints: None,
        });
        let e = render_scene(&scene, &RenderOptions::default())
            .err()
            .unwrap_or_else(|| panic!("{key} was accepted"));
        assert!(e.to_string().contains(key), "{e}");
    }
}
