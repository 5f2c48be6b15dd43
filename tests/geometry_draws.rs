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

/// `n` points on a diagonal, each with its own colour and size.
fn many_sprites(n: usize) -> Value {
    let mut v = sprites("last");
    let position: Vec<f32> = (0..n)
        .flat_map(|i| {
            let t = i as f32 / n as f32 * 1.8 - 0.9;
            [t, -t]
        })
        .collect();
    let color: Vec<f32> = (0..n)
        .flat_map(|i| [(i % 7) as f32 / 7.0, (i % 3) as f32 / 3.0, 0.5, 1.0])
        .collect();
    let size: Vec<f32> = (0..n).map(|i| 1.0 + (i % 5) as f32).collect();
    v["draws"][0]["attributes"] = json!([
        {"location": 0, "size": 2, "data": position},
        {"location": 1, "size": 4, "data": color},
        {"location": 2, "size": 1, "data": size}
    ]);
    v
}

#[test]
fn geometry_batches_give_the_same_vertices_on_any_thread_count() {
    // 200 points: four batches of up to 64 primitives, the last one partial.
    let scene = parse(&many_sprites(200));
    let prepared = PreparedScene::new(&scene, &Limits::EXTENDED).unwrap();
    let program = prepared.program(0).unwrap();
    let draw = &scene.draws[0];
    let mut storage = program.new_uniforms();
    program.set_uniform(&mut storage, "size", &[0.25]).unwrap();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            run_geometry(
                program,
                draw,
                draw.geometry.as_ref().unwrap(),
                &storage.vertex,
                &storage.geometry,
                &csir::exec::NoSamplers,
            )
        })
    };
    let one = run(1);
    assert_eq!(one, run(7));
    assert_eq!(one.vertex_count(), 800);
    assert_eq!(one.primitives.len(), 200 * 6);
    // Point 150 (in the third batch): its corner 3 is vertex 603, at its position
    // plus (h, h) with h = 0.25 · size, size = 1 + 150 % 5 = 1.
    let stride = 4 + one.varying_count;
    let t = 150.0 / 200.0 * 1.8 - 0.9;
    let h = 0.25 * 1.0;
    assert_eq!(one.sources[603], (150, 3));
    assert_eq!(
        &one.records[603 * stride..603 * stride + 2],
        [t + h, -t + h]
    );
    assert_eq!(
        &one.primitives[150 * 6..150 * 6 + 6],
        [600, 601, 602, 602, 601, 603]
    );
}

#[test]
fn a_geometry_shader_that_could_emit_past_the_memory_limit_is_refused() {
    let dir = std::env::temp_dir().join(format!("csir-geometry-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["sprite.vert", "sprite.frag"] {
        std::fs::copy(geometry_dir().join(name), dir.join(name)).unwrap();
    }
    let geom = std::fs::read_to_string(geometry_dir().join("sprites.geom")).unwrap();
    let geom = geom.replace("max_vertices = 4", "max_vertices = 80");
    std::fs::write(dir.join("sprites.geom"), geom).unwrap();
    let mut v = sprites("last");
    // 300 000 points (indices into two vertices), up to 80 vertices each (12 output
    // components each: 80 is below the 1024 components GL 3.2 table 6.49 allows).
    v["draws"][0]["indices"] = json!(vec![0u32; 300_000]);
    let scene = Scene::parse(&v.to_string(), &dir.join("t.json")).expect("scene loads");
    let e = PreparedScene::new(&scene, &Limits::EXTENDED)
        .err()
        .expect("over the budget");
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(e.field, "draws[0].geometry");
    assert!(
        e.message().contains(
            "can emit up to 24000000 vertices (300000 input primitives × max_vertices 80)"
        ),
        "{}",
        e.message()
    );
}
