//! Instanced draws (GL 3.3 core §2.8.2) through the whole CPU pipeline: instances,
//! divisors, integer arrays (`glVertexAttribIPointer`), `gl_VertexID` and
//! `gl_InstanceID`, with every expected pixel computed here from GL's rules.

use csir_render::pipeline::{RenderOptions, render_scene};
use csir_render::scene::{Scene, ShaderSource};
use std::path::Path;

const VERTEX: &str = "#version 330 core
layout(location = 0) in vec2 aPos;
layout(location = 1) in int aShift;
layout(location = 2) in uint aBig;
flat out vec4 vColor;
void main() {
    // instance k draws pixel columns 2k and 2k + 1 of an 8x1 frame
    gl_Position = vec4(aPos.x + 0.5 * float(aShift - (1 << 30)), aPos.y, 0.0, 1.0);
    vColor = vec4(float(gl_InstanceID) / 4.0, float(gl_VertexID) / 8.0,
                  float(aBig - 4000000000u) / 8.0, 1.0);
}
";

const FRAGMENT: &str = "#version 330 core
flat in vec4 vColor;
out vec4 fragColor;
void main() { fragColor = vColor; }
";

/// The scene: one quad (vertices 0..3 as two triangles whose provoking vertex is 2),
/// `instances` instances, shifted by the divisor-1 int array.
fn scene(instances: u32, shifts_divisor: u32) -> Scene {
    let json = format!(
        r#"{{"format": "csir-scene/1", "width": 8, "height": 1,
        "draws": [{{"vertex": "shaders/color2d.vert", "fragment": "shaders/color.frag", "instances": {instances},
          "indices": [0, 1, 2, 1, 3, 2],
          "attributes": [
            {{"location": 0, "size": 2, "data": [-1, -1, -0.5, -1, -1, 1, -0.5, 1]}},
            {{"location": 1, "size": 1, "type": "int", "divisor": {shifts_divisor},
              "data": [1073741824, 1073741825, 1073741826, 1073741827]}},
            {{"location": 2, "size": 1, "type": "uint",
              "data": [4000000001, 4000000003, 4000000005, 4000000007]}}
          ],
          "state": {{"depth_test": "none"}}}}]}}"#
    );
    // any shaders that exist; they are replaced below
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images/s.json");
    let mut scene = Scene::parse(&json, &path).unwrap_or_else(|e| panic!("{e}"));
    scene.draws[0].vertex = ShaderSource::glsl("x.vert", VERTEX);
    scene.draws[0].fragment = ShaderSource::glsl("x.frag", FRAGMENT);
    scene
}

fn unorm(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

#[test]
fn each_instance_reads_its_element_and_ids_and_exact_integers() {
    let frame = render_scene(&scene(4, 1), &RenderOptions::default()).unwrap();
    let px = frame.image.pixels();
    for k in 0..4u32 {
        // provoking vertex 2: gl_VertexID 2, aBig 4000000005
        let want = [
            unorm(k as f32 / 4.0),
            unorm(2.0 / 8.0),
            unorm(5.0 / 8.0),
            255,
        ];
        for x in [2 * k, 2 * k + 1] {
            let at = 4 * x as usize;
            assert_eq!(px[at..at + 4], want, "pixel {x}");
        }
    }
    assert_eq!(frame.draws[0].stats.triangles_in, 8);
}

#[test]
fn a_divisor_repeats_an_element_and_zero_instances_draw_nothing() {
    // divisor 2: instances 0, 1 read shift 0 and draw over each other; 2, 3 shift 1
    let frame = render_scene(&scene(4, 2), &RenderOptions::default()).unwrap();
    let px = frame.image.pixels();
    let red = |x: usize| px[4 * x];
    assert_eq!([red(0), red(2), red(4)], [unorm(0.25), unorm(0.75), 0]);
    let empty = render_scene(&scene(0, 1), &RenderOptions::default()).unwrap();
    assert!(empty.image.pixels().chunks(4).all(|p| p == [0, 0, 0, 255]));
}
