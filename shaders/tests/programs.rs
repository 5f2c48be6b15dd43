//! Whole shader programs compiled from GLSL and run through the scalar interpreter
//! with concrete inputs (matrix transforms against glam, texture
//! sampling, Lambert + Phong lighting, nested conditionals, unrolled loops, user
//! functions, discard in a nested branch, sin/cos/pow).

use csir::exec::{Inputs, Machine, NearestClampTexture, NoSamplers, Outputs, Samplers};
use csir::{Limits, Program, Shader, Stage, compile};
use glam::{Mat4, Vec3, Vec4};

fn build(src: &str, stage: Stage) -> Shader {
    compile(src, "program", stage, &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn run(shader: &Shader, inputs: &Inputs<'_>) -> Outputs {
    let mut machine = Machine::new(shader).expect("compiled shaders verify");
    let mut out = Outputs::default();
    machine.run(inputs, &mut out).expect("verified shaders run");
    out
}

fn cols(m: Mat4) -> Vec<[f32; 4]> {
    m.to_cols_array_2d().to_vec()
}

fn assert_close(got: [f32; 4], want: [f32; 4], tol: f32, what: &str) {
    for i in 0..4 {
        assert!(
            (got[i] - want[i]).abs() <= tol * want[i].abs().max(1.0),
            "{what}: lane {i}: got {got:?}, want {want:?}"
        );
    }
}

const MVP_VERT: &str = "#version 330 core
layout(location = 0) in vec4 position;
uniform mat4 model;
uniform mat4 view;
uniform mat4 projection;
void main() { gl_Position = projection * view * model * position; }
";

#[test]
fn matrix_transforms_match_glam() {
    let shader = build(MVP_VERT, Stage::Vertex);
    let eye = Vec3::new(1.5, 2.0, 4.0);
    let view = glam::camera::rh::view::look_at_mat4(eye, Vec3::ZERO, Vec3::Y);
    let projection =
        glam::camera::rh::proj::opengl::perspective(60f32.to_radians(), 4.0 / 3.0, 0.1, 50.0);
    let models = [
        ("identity", Mat4::IDENTITY),
        (
            "translation",
            Mat4::from_translation(Vec3::new(1.0, -2.0, 0.5)),
        ),
        ("rotation x", Mat4::from_rotation_x(0.7)),
        ("rotation y", Mat4::from_rotation_y(-1.2)),
        ("rotation z", Mat4::from_rotation_z(2.5)),
        ("scale", Mat4::from_scale(Vec3::new(2.0, 0.5, -3.0))),
    ];
    let points = [
        Vec4::new(0.0, 0.0, 0.0, 1.0),
        Vec4::new(1.0, -1.0, 0.5, 1.0),
        Vec4::new(-0.3, 0.8, -2.0, 1.0),
    ];
    for (name, model) in models {
        let mut uniforms = cols(model);
        uniforms.extend(cols(view));
        uniforms.extend(cols(projection));
        for p in points {
            let out = run(
                &shader,
                &Inputs {
                    uniforms: &uniforms,
                    attributes: &[p.to_array()],
                    ..Inputs::default()
                },
            );
            let want = projection * view * model * p;
            assert_close(out.position, want.to_array(), 1e-5, name);
        }
    }
}

#[test]
fn texture_sampling_is_nearest_and_clamped_per_slot() {
    let src = "#version 330 core
uniform sampler2D uA;
uniform sampler2D uB;
uniform vec2 uv;
out vec4 color;
void main() { color = texture(uA, uv) + texture(uB, uv) * 2.0; }
";
    let shader = build(src, Stage::Fragment);
    // 2x2 texture: row 0 (t < 0.5) red, green; row 1 blue, white.
    let a = NearestClampTexture::new(
        2,
        2,
        &[
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
        ],
    )
    .unwrap();
    let b = NearestClampTexture::solid([0, 0, 51, 0]);
    let textures = vec![a, b];
    let cases = [
        ([0.25, 0.25], [1.0, 0.0, 0.4, 1.0]), // texel centre (0,0)
        ([0.75, 0.25], [0.0, 1.0, 0.4, 1.0]), // texel centre (1,0)
        ([0.25, 0.75], [0.0, 0.0, 1.4, 1.0]), // texel centre (0,1)
        ([0.5, 0.5], [1.0, 1.0, 1.4, 1.0]),   // edge: floor(0.5 * 2) = texel 1
        ([-3.0, 9.0], [0.0, 0.0, 1.4, 1.0]),  // clamped to (0, 1)
    ];
    for (uv, want) in cases {
        let uniforms = [[uv[0], uv[1], 0.0, 0.0]];
        let samplers: &dyn Samplers = &textures;
        let out = run(
            &shader,
            &Inputs {
                uniforms: &uniforms,
                samplers,
                ..Inputs::default()
            },
        );
        assert_close(out.color, want, 1e-6, &format!("uv {uv:?}"));
    }
}

#[test]
fn lambert_and_phong_lighting_match_a_reference() {
    let vert = "#version 330 core
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec3 aNormal;
out vec3 vN;
out vec3 vP;
void main() { vN = aNormal; vP = aPos; gl_Position = vec4(aPos, 1.0); }
";
    let frag = "#version 330 core
in vec3 vN;
in vec3 vP;
uniform vec3 uLight;
uniform vec3 uEye;
uniform float uShininess;
out vec4 color;
void main() {
    vec3 n = normalize(vN);
    vec3 l = normalize(uLight - vP);
    vec3 v = normalize(uEye - vP);
    float lambert = max(dot(n, l), 0.0);
    vec3 r = reflect(-l, n);
    float phong = pow(max(dot(r, v), 0.0), uShininess);
    color = vec4(lambert, phong, lambert * 0.5 + phong, 1.0);
}
";
    let program =
        Program::link(build(vert, Stage::Vertex), build(frag, Stage::Fragment)).expect("links");
    let (light, eye, shininess) = ([1.0, 3.0, 2.0], [0.0, 1.0, 5.0], 16.0f32);
    let mut uniforms = program.new_uniforms();
    program
        .set_uniform(&mut uniforms, "uLight", &light)
        .unwrap();
    program.set_uniform(&mut uniforms, "uEye", &eye).unwrap();
    program
        .set_uniform(&mut uniforms, "uShininess", &[shininess])
        .unwrap();
    for (pos, normal) in [
        ([0.0, 0.0, 0.0], [0.0, 2.0, 0.0]),
        ([0.5, -0.2, 0.3], [0.3, 0.9, 0.4]),
        ([0.0, 0.0, 0.0], [0.0, -1.0, 0.0]), // facing away: both terms 0
    ] {
        let vs = run(
            &program.vertex,
            &Inputs {
                uniforms: &uniforms.vertex,
                attributes: &[
                    [pos[0], pos[1], pos[2], 1.0],
                    [normal[0], normal[1], normal[2], 1.0],
                ],
                ..Inputs::default()
            },
        );
        let fs = run(
            &program.fragment,
            &Inputs {
                uniforms: &uniforms.fragment,
                varyings: &vs.varyings,
                var_remap: &program.var_remap,
                ..Inputs::default()
            },
        );
        let f = |v: [f32; 3]| v.map(f64::from);
        let (p, n0) = (f(pos), f(normal));
        let norm = |v: [f64; 3]| {
            let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            v.map(|c| c / l)
        };
        let sub = |a: [f64; 3], b: [f64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
        let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        let n = norm(n0);
        let l = norm(sub(f(light), p));
        let v = norm(sub(f(eye), p));
        let lambert = dot(n, l).max(0.0);
        let d = dot(n, l);
        let r = [
            -l[0] - 2.0 * d * n[0],
            -l[1] - 2.0 * d * n[1],
            -l[2] - 2.0 * d * n[2],
        ];
        let phong = dot(r, v).max(0.0).powf(shininess as f64);
        let want = [lambert, phong, lambert * 0.5 + phong, 1.0].map(|x| x as f32);
        assert_close(fs.color, want, 1e-5, "lighting");
    }
}

#[test]
fn nested_conditionals_pick_one_path() {
    let src = "#version 330 core
uniform vec2 u;
out vec4 color;
void main() {
    if (u.x > 0.0) {
        if (u.y > 0.0) { color = vec4(1.0); } else { color = vec4(2.0); }
    } else {
        if (u.y > 0.0) { color = vec4(3.0); } else { color = vec4(4.0); }
    }
}
";
    let shader = build(src, Stage::Fragment);
    for (u, want) in [
        ([1.0, 1.0], 1.0),
        ([1.0, -1.0], 2.0),
        ([-1.0, 1.0], 3.0),
        ([-1.0, -1.0], 4.0),
    ] {
        let out = run(
            &shader,
            &Inputs {
                uniforms: &[[u[0], u[1], 0.0, 0.0]],
                ..Inputs::default()
            },
        );
        assert_eq!(out.color, [want; 4], "u = {u:?}");
    }
}

#[test]
fn unrolled_loop_assigns_vector_lanes() {
    let src = "#version 330 core
uniform float u;
out vec4 color;
void main() {
    vec4 v = vec4(0.0);
    for (int i = 0; i < 4; i++) {
        v[i] = u * float(i + 1);
    }
    color = v;
}
";
    let shader = build(src, Stage::Fragment);
    let out = run(
        &shader,
        &Inputs {
            uniforms: &[[0.5, 0.0, 0.0, 0.0]],
            ..Inputs::default()
        },
    );
    assert_eq!(out.color, [0.5, 1.0, 1.5, 2.0]);
}

#[test]
fn user_functions_nest_and_return_early() {
    let src = "#version 330 core
uniform float u;
out vec4 color;
float clampUnit(float x) {
    if (x < 0.0) { return 0.0; }
    if (x > 1.0) { return 1.0; }
    return x;
}
float twice(float x) { return clampUnit(x) * 2.0; }
void main() { color = vec4(twice(u), twice(u - 1.0), twice(u + 1.0), 1.0); }
";
    let shader = build(src, Stage::Fragment);
    for (u, want) in [(0.25, [0.5, 0.0, 2.0, 1.0]), (1.5, [2.0, 1.0, 2.0, 1.0])] {
        let out = run(
            &shader,
            &Inputs {
                uniforms: &[[u, 0.0, 0.0, 0.0]],
                ..Inputs::default()
            },
        );
        assert_eq!(out.color, want, "u = {u}");
    }
}

#[test]
fn discard_in_a_nested_branch_stops_the_invocation() {
    let src = "#version 330 core
uniform vec2 u;
out vec4 color;
void main() {
    color = vec4(1.0, 0.0, 0.0, 1.0);
    if (u.x > 0.0) {
        if (u.y > 0.0) {
            discard;
        }
        color = vec4(0.0, 1.0, 0.0, 1.0);
    }
}
";
    let shader = build(src, Stage::Fragment);
    let go = |u: [f32; 2]| {
        run(
            &shader,
            &Inputs {
                uniforms: &[[u[0], u[1], 0.0, 0.0]],
                ..Inputs::default()
            },
        )
    };
    let kept = go([1.0, -1.0]);
    assert!(!kept.discarded);
    assert_eq!(kept.color, [0.0, 1.0, 0.0, 1.0]);
    assert!(go([1.0, 1.0]).discarded);
    let outer = go([-1.0, 1.0]);
    assert!(!outer.discarded);
    assert_eq!(outer.color, [1.0, 0.0, 0.0, 1.0]);
}

#[test]
fn sin_cos_and_pow_are_accurate() {
    let src = "#version 330 core
uniform vec3 u;
out vec4 color;
void main() { color = vec4(sin(u.x), cos(u.x), pow(u.y, u.z), sin(u.x) * sin(u.x) + cos(u.x) * cos(u.x)); }
";
    let shader = build(src, Stage::Fragment);
    for u in [
        [0.5f32, 2.0, 10.0],
        [-3.0, 0.5, 0.5],
        [100.0, 10.0, -2.0],
        [1.0e3, 1.5, 3.0],
    ] {
        let out = run(
            &shader,
            &Inputs {
                uniforms: &[[u[0], u[1], u[2], 0.0]],
                samplers: &NoSamplers,
                ..Inputs::default()
            },
        );
        let x = u[0] as f64;
        assert!(
            (out.color[0] as f64 - x.sin()).abs() <= 1e-6,
            "sin {x}: {}",
            out.color[0]
        );
        assert!(
            (out.color[1] as f64 - x.cos()).abs() <= 1e-6,
            "cos {x}: {}",
            out.color[1]
        );
        let p = (u[1] as f64).powf(u[2] as f64);
        assert!(
            ((out.color[2] as f64) - p).abs() <= p * 2.5e-7,
            "pow {u:?}: {}",
            out.color[2]
        );
        assert!((out.color[3] - 1.0).abs() <= 1e-6);
    }
}
