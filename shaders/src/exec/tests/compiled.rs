//! Shaders compiled from source ([`crate::compile`]) and linked ([`Program`]), run the
//! way the renderer runs them: one machine per stage, the vertex outputs fed to the
//! fragment stage through the link's `var_remap`.

use super::*;
use crate::Program;
use crate::exec::{NearestClampTexture, NoSamplers, Observer, Step};
use glam::{Mat4, Vec3, Vec4};

fn compile(source: &str, stage: Stage) -> Shader {
    crate::compile(source, "test", stage, &Limits::SEED)
        .unwrap_or_else(|e| panic!("compile failed:\n{e}"))
}

const VERTEX: &str = "#version 330 core
layout(location = 0) in vec4 position;
layout(location = 1) in vec2 uv;
uniform mat4 mvp;
out vec2 vUV;
out vec4 vTint;
void main() {
    vUV = uv;
    vTint = vec4(0.5, 0.25, 1.0, 1.0);
    gl_Position = mvp * position;
}
";

/// Inputs declared in the other order than the vertex outputs, so the remap is not
/// the identity; the colour comes from the second sampler.
const FRAGMENT: &str = "#version 330 core
in vec4 vTint;
in vec2 vUV;
uniform sampler2D base;
uniform sampler2D detail;
out vec4 color;
void main() {
    color = texture(detail, vUV) * vTint;
}
";

#[test]
fn a_linked_program_runs_vertex_then_fragment() {
    let program = Program::link(
        compile(VERTEX, Stage::Vertex),
        compile(FRAGMENT, Stage::Fragment),
    )
    .unwrap();
    // vUV and vTint are vertex slots 0 and 1; the fragment declares them as 1 and 0.
    assert_eq!(program.var_remap[..2], [1, 0]);
    let mvp = Mat4::from_scale(Vec3::new(0.5, 2.0, 1.0))
        * Mat4::from_translation(Vec3::new(0.25, -1.0, 0.5));
    let mut uniforms = program.new_uniforms();
    program
        .set_uniform(&mut uniforms, "mvp", &mvp.to_cols_array())
        .unwrap();

    let mut vertex = Machine::new(&program.vertex).unwrap();
    let mut fragment = Machine::new(&program.fragment).unwrap();
    let (mut vout, mut fout) = (Outputs::default(), Outputs::default());

    // Texel (1, 0) of the 2×2 detail texture is at uv (0.75, 0.25).
    let attributes = [[1.0, 2.0, 3.0, 1.0], [0.75, 0.25, 0.0, 1.0]];
    let inputs = Inputs {
        uniforms: &uniforms.vertex,
        attributes: &attributes,
        ..Inputs::default()
    };
    vertex.run(&inputs, &mut vout).unwrap();
    let want = mvp * Vec4::new(1.0, 2.0, 3.0, 1.0);
    assert_eq!(vout.position, want.to_array());

    let textures = vec![
        NearestClampTexture::solid([255, 0, 0, 255]),
        NearestClampTexture::new(
            2,
            2,
            &[
                10, 20, 30, 255, 200, 100, 40, 255, //
                0, 0, 0, 255, 0, 0, 0, 255,
            ],
        )
        .unwrap(),
    ];
    let inputs = Inputs {
        uniforms: &uniforms.fragment,
        varyings: &vout.varyings,
        var_remap: &program.var_remap,
        samplers: &textures,
        ..Inputs::default()
    };
    fragment.run(&inputs, &mut fout).unwrap();
    let texel = [200.0 / 255.0, 100.0 / 255.0, 40.0 / 255.0, 1.0];
    let tint = [0.5, 0.25, 1.0, 1.0];
    assert_eq!(fout.color, std::array::from_fn(|i| texel[i] * tint[i]));
    assert!(!fout.discarded);
}

/// Counts executed instructions and records branch decisions.
#[derive(Default)]
struct Count {
    steps: usize,
    branches: Vec<bool>,
}

impl Observer for Count {
    fn step(&mut self, _: Step<'_>) {
        self.steps += 1;
    }
    fn branch(&mut self, _: usize, _: &Ir, taken: bool) {
        self.branches.push(taken);
    }
}

#[test]
fn compiled_math_discard_and_tracing() {
    let source = "#version 330 core
uniform vec4 u;
out vec4 c;
void main() {
    if (u.x < 0.0) {
        discard;
    }
    vec3 n = normalize(vec3(u.y, 0.0, 0.0));
    c = vec4(sin(u.z), pow(u.w, 3.0), pow(u.w, 0.5), n.x);
}
";
    let shader = compile(source, Stage::Fragment);
    let mut machine = Machine::new(&shader).unwrap();
    let mut out = Outputs::default();
    let mut trace = Count::default();

    let uniforms = [[1.0, 0.0, 1000.0, -2.0]];
    let inputs = Inputs {
        uniforms: &uniforms,
        samplers: &NoSamplers,
        ..Inputs::default()
    };
    machine.run_observed(&inputs, &mut out, &mut trace).unwrap();
    assert!(!out.discarded);
    assert!((out.color[0] as f64 - 1000f64.sin()).abs() < 1e-6);
    // C powf: a negative base keeps its sign with an odd integral exponent and gives
    // NaN with a fractional one; normalize of a zero vector is 0 (RSQ(0) = 0).
    assert_eq!(out.color[1], -8.0);
    assert!(out.color[2].is_nan());
    assert_eq!(out.color[3], 0.0);
    assert_eq!(trace.branches, vec![false]);
    assert!(trace.steps > 4);

    let uniforms = [[-1.0, 3.0, 0.0, 4.0]];
    let inputs = Inputs {
        uniforms: &uniforms,
        ..Inputs::default()
    };
    machine.run(&inputs, &mut out).unwrap();
    assert!(out.discarded);
    assert_eq!(out.color, [0.0; 4]);
}
