//! A scene built in code, no files read: a lit, checker-textured torus generated here
//! (vertex arrays and an index buffer), depth-tested with back faces culled, under a
//! translucent alpha-blended band, rendered to PNG (`docs/scene-in-code.md`).
//!
//! ```sh
//! cargo run --release --example scene_in_code -- torus.png
//! ```

use csir_render::image_io::write_png;
use csir_render::pipeline::{RenderOptions, render_scene};
use csir_render::scene::{Draw, DrawState, Filter, MinFilter, Sampler, Scene, Texture, Wrap};
use glam::camera::rh::{proj::opengl, view::look_at_mat4};
use glam::{Mat3, Mat4, Vec3};
use std::f32::consts::TAU;

const VERTEX: &str = "#version 330 core
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec2 aUV;
uniform mat4 uMVP;
uniform mat4 uModel;
uniform mat3 uNormalMat;
out vec3 vNormal;
out vec3 vWorld;
out vec2 vUV;
void main() {
    vNormal = uNormalMat * aNormal;
    vWorld = (uModel * vec4(aPos, 1.0)).xyz;
    vUV = aUV;
    gl_Position = uMVP * vec4(aPos, 1.0);
}";

const FRAGMENT: &str = "#version 330 core
in vec3 vNormal;
in vec3 vWorld;
in vec2 vUV;
uniform sampler2D uTex;
uniform vec3 uLight;
uniform vec3 uEye;
out vec4 fragColor;
void main() {
    vec3 n = normalize(vNormal);
    vec3 l = normalize(uLight - vWorld);
    vec3 v = normalize(uEye - vWorld);
    vec3 h = normalize(l + v);
    vec3 albedo = texture(uTex, vUV).rgb;
    float diffuse = max(dot(n, l), 0.0);
    float specular = pow(max(dot(n, h), 0.0), 48.0);
    fragColor = vec4(albedo * (0.15 + 0.85 * diffuse) + vec3(0.5) * specular, 1.0);
}";

const BAND_VERTEX: &str = "#version 330 core
layout(location = 0) in vec2 aPos;
void main() { gl_Position = vec4(aPos, 0.0, 1.0); }";

const BAND_FRAGMENT: &str = "#version 330 core
uniform vec4 uColor;
out vec4 fragColor;
void main() { fragColor = uColor; }";

/// A torus of major radius `big` and tube radius `small` around +z, `rings` ×
/// `sides` quads: positions, normals, texture coordinates and the triangle indices.
fn torus(big: f32, small: f32, rings: u32, sides: u32) -> [Vec<f32>; 3] {
    let (mut pos, mut normal, mut uv) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..=rings {
        let u = i as f32 / rings as f32;
        let (su, cu) = (u * TAU).sin_cos();
        for j in 0..=sides {
            let v = j as f32 / sides as f32;
            let (sv, cv) = (v * TAU).sin_cos();
            let n = [cu * cv, su * cv, sv];
            pos.extend([(big + small * cv) * cu, (big + small * cv) * su, small * sv]);
            normal.extend(n);
            uv.extend([u * 8.0, v * 3.0]);
        }
    }
    [pos, normal, uv]
}

/// The torus's index buffer: two counter-clockwise triangles per quad.
fn torus_indices(rings: u32, sides: u32) -> Vec<u32> {
    let row = sides + 1;
    let mut indices = Vec::new();
    for i in 0..rings {
        for j in 0..sides {
            let (a, b) = (i * row + j, (i + 1) * row + j);
            indices.extend([a, b, a + 1, a + 1, b, b + 1]);
        }
    }
    indices
}

/// An 8×8 checker of orange and cream texels, made in code.
fn checker() -> Texture {
    let texels = (0..64)
        .map(|k| match (k % 8 + k / 8) % 2 {
            0 => [235, 120, 40, 255],
            _ => [245, 235, 210, 255],
        })
        .collect();
    Texture::from_texels(8, 8, texels).expect("8x8 texels")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or("scene_in_code.png".into());
    let (width, height) = (480, 360);
    let (rings, sides) = (64, 32);
    let [pos, normal, uv] = torus(1.0, 0.38, rings, sides);

    let eye = Vec3::new(0.0, 1.8, 3.6);
    let model = Mat4::from_rotation_x(-1.0) * Mat4::from_rotation_z(0.4);
    let view = look_at_mat4(eye, Vec3::ZERO, Vec3::Y);
    let projection =
        opengl::perspective(45f32.to_radians(), width as f32 / height as f32, 0.1, 50.0);
    let normal_mat = Mat3::from_mat4(model).inverse().transpose();

    let torus = Draw::new(VERTEX, FRAGMENT)
        .attribute(0, 3, &pos)
        .attribute(1, 3, &normal)
        .attribute(2, 2, &uv)
        .indices(&torus_indices(rings, sides))
        .uniform("uMVP", &(projection * view * model).to_cols_array())
        .uniform("uModel", &model.to_cols_array())
        .uniform("uNormalMat", &normal_mat.to_cols_array())
        .uniform("uLight", &[3.0, 4.0, 5.0])
        .uniform("uEye", &eye.to_array())
        .sampler(
            "uTex",
            "checker",
            Sampler {
                mag_filter: Filter::Nearest,
                min_filter: MinFilter::LinearMipmapLinear,
                wrap: Wrap::Repeat,
            },
        )
        .state(DrawState::cull_back());
    // a translucent band across the middle, blended over the torus, no depth write
    let band = Draw::new(BAND_VERTEX, BAND_FRAGMENT)
        .attribute(0, 2, &[-1.0, -0.15, 1.0, -0.15, 1.0, 0.15, -1.0, 0.15])
        .indices(&[0, 1, 2, 0, 2, 3])
        .uniform("uColor", &[0.2, 0.5, 1.0, 0.45])
        .state(DrawState::alpha_blend().depth_write(false));

    let scene = Scene::builder(width, height)
        .name("scene_in_code")
        .clear_color([0.08, 0.09, 0.12, 1.0])
        .texture("checker", checker())
        .draw(torus)
        .draw(band)
        .build()?;
    let frame = render_scene(&scene, &RenderOptions::default())?;
    let image = &frame.image;
    write_png(out.as_ref(), image.width(), image.height(), image.pixels())?;
    println!(
        "{}x{}, {} triangles -> {out}",
        image.width(),
        image.height(),
        frame.triangles()
    );
    Ok(())
}
