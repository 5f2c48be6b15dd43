//! The one varying limit, `csir::MAX_VARYINGS` (16 vec4 slots, 64 floats): a program
//! that passes exactly that many links and draws; one that passes more fails when it
//! is linked, with a message naming the count and the limit, even when the profile it
//! was compiled under let each shader declare them.

use csir::{Limits, MAX_VARYINGS};
use csir_render::pipeline::{PreparedScene, RenderOptions, render_scene};
use csir_render::scene::{DEFAULT_CUBE_START_ANGLE, Scene, ShaderSource};

/// A vertex shader writing `n` vec4 varyings `v0..`, `vK = (K + 1) / 256` in x, and a
/// fragment shader whose red channel is their sum.
fn shaders(n: usize) -> (String, String) {
    let decls = |q: &str| {
        (0..n)
            .map(|k| format!("{q} vec4 v{k};\n"))
            .collect::<String>()
    };
    let writes: String = (0..n)
        .map(|k| format!("    v{k} = vec4({}.0 / 256.0, 0.0, 0.0, 1.0);\n", k + 1))
        .collect();
    let sum: String = (0..n).map(|k| format!(" + v{k}.x")).collect();
    let vertex = format!(
        "#version 330 core\nlayout(location = 0) in vec3 aPos;\n{}void main() {{\n{writes}    gl_Position = vec4(aPos * 0.5, 1.0);\n}}\n",
        decls("out")
    );
    let fragment = format!(
        "#version 330 core\n{}out vec4 fragColor;\nvoid main() {{\n    fragColor = vec4(0.0{sum}, 0.0, 0.0, 1.0);\n}}\n",
        decls("in")
    );
    (vertex, fragment)
}

/// The built-in cube drawn with `n` varyings, no uniforms, no samplers, no culling.
fn scene(n: usize) -> Scene {
    let mut scene = Scene::default_cube(DEFAULT_CUBE_START_ANGLE);
    let (vertex, fragment) = shaders(n);
    let draw = &mut scene.draws[0];
    draw.vertex = ShaderSource::glsl("varyings.vert", vertex);
    draw.fragment = ShaderSource::glsl("varyings.frag", fragment);
    draw.uniforms.clear();
    draw.samplers.clear();
    draw.state.raster.cull = csir_raster::CullMode::Disabled;
    scene
}

#[test]
fn a_program_at_the_limit_links_and_draws() {
    assert_eq!(MAX_VARYINGS, 16);
    let frame = render_scene(&scene(MAX_VARYINGS), &RenderOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    // Red = (1 + 2 + ... + 16) / 256 = 136 / 256, stored as round(0.53125 · 255) = 135.
    let centre = frame.image.pixel(160, 120).unwrap();
    assert_eq!(centre, [135, 0, 0, 255]);
}

#[test]
fn a_program_over_the_limit_fails_at_link() {
    // A custom profile lets each shader declare 17 varying vec4s (it allows up to
    // csir::MAX_SHADER_VARYINGS); the program may still pass only 16.
    let limits = Limits {
        varyings: MAX_VARYINGS + 1,
        ..Limits::EXTENDED
    };
    assert!(limits.validate().is_ok());
    let scene = scene(MAX_VARYINGS + 1);
    let err = PreparedScene::new(&scene, &limits)
        .err()
        .expect("17 varying vec4s do not link");
    let message = err.to_string();
    assert!(
        message.contains(
            "the fragment shader reads 17 varying vec4 slots (68 floats), more than the \
             limit of 16 (64 floats, GL_MAX_VARYING_COMPONENTS)"
        ),
        "{message}"
    );
}
