//! Draws with a geometry shader (docs/scene-format.md `geometry`): the emitted
//! vertices and triangles as the pipeline hands them to the rasterizer, and the
//! errors that name a scene field.

use csir::Limits;
use csir_render::pipeline::{PreparedScene, run_geometry};
use csir_render::scene::Scene;
use serde_json::{Value, json};
use std::path::PathBuf;

fn geometry_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("reference-images/geometry")
}

fn parse(v: &Value) -> Scene {
    Scene::parse(&v.to_string(), &geometry_dir().join("t.json")).expect("scene loads")
}

fn sprites(provoking: &str) -> Value {
    json!({
        "format": "csir-scene/1",
        "width": 8,
        "height": 8,
        "draws": [{
            "vertex": "sprite.vert",
            "geometry": "sprites.geom",
            "fragment": "sprite.frag",
            "primitive": "points",
            "attributes": [
                {"location": 0, "size": 2, "data": [0.0, 0.0, 0.5, 0.5]},
                {"location": 1, "size": 4, "data": [1, 0, 0, 1, 0, 1, 0, 1]},
                {"location": 2, "size": 1, "data": [1.0, 2.0]}
            ],
            "uniforms": {"size": [0.25]},
            "state": {"provoking_vertex": provoking}
        }]
    })
}

fn prepare_error(v: &Value) -> (String, String) {
    let scene = parse(v);
    let e = PreparedScene::new(&scene, &Limits::EXTENDED)
        .err()
        .expect("the draw must be refused");
    (e.field.clone(), e.message())
}

#[test]
fn points_become_quads_in_strip_order() {
    for (provoking, expected) in [
        // Strip 0,1,2,3: triangles (0,1,2) and (2,1,3), provoking vertex last.
        ("last", [0, 1, 2, 2, 1, 3]),
        // First convention: the strip's vertex i is the provoking one, rotated last.
        ("first", [1, 2, 0, 3, 2, 1]),
    ] {
        let scene = parse(&sprites(provoking));
        let prepared = PreparedScene::new(&scene, &Limits::EXTENDED).unwrap();
        let program = prepared.program(0).unwrap();
        let draw = &scene.draws[0];
        let storage = {
            let mut s = program.new_uniforms();
            program.set_uniform(&mut s, "size", &[0.25]).unwrap();
            s
        };
        let e = run_geometry(
            program,
            draw,
            draw.geometry.as_ref().unwrap(),
            &storage.vertex,
            &storage.geometry,
            &csir::exec::NoSamplers,
        );
        assert_eq!(e.vertex_count(), 8, "two points, four corners each");
        assert_eq!(&e.primitives[..6], expected, "{provoking}");
        assert_eq!(&e.primitives[6..], expected.map(|v| v + 4), "{provoking}");
        assert_eq!(e.sources[5], (1, 1));
        // Point 1 at (0.5, 0.5), size 2 · 0.25: corner 3 is (+0.5, +0.5) from it.
        let stride = 4 + e.varying_count;
        assert_eq!(&e.records[7 * stride..7 * stride + 4], [1.0, 1.0, 0.0, 1.0]);
    }
}

#[test]
fn a_mode_of_another_input_type_is_an_error_on_primitive() {
    let mut v = sprites("last");
    v["draws"][0]["primitive"] = json!("triangles");
    let (field, message) = prepare_error(&v);
    assert_eq!(field, "draws[0].primitive");
    assert!(message.contains("takes points"), "{message}");
}

#[test]
fn unsupported_geometry_draws_name_their_field() {
    let mut v = sprites("last");
    v["draws"][0]["state"]["two_sided_color"] = json!(true);
    assert_eq!(prepare_error(&v).0, "draws[0].state.two_sided_color");
    let mut v = sprites("last");
    v["draws"][0]["primitive"] = json!("quads");
    let e = Scene::parse(&v.to_string(), &geometry_dir().join("t.json")).unwrap_err();
    assert_eq!(e.field, "draws[0].primitive");
    assert!(e.message().contains("points"), "{}", e.message());
}
