//! `dFdx`, `dFdy` and `fwidth` (GLSL 1.10 §8.8) under the extended profile: DDX and
//! DDY are fine derivatives across the 2×2 quad (docs/csir.md "Derivatives"), run by
//! the scalar [`QuadMachine`]; a lone invocation is its own quad; TGSI parity and the
//! CSI v2 round trip (`backends::check`); the seed profile and the vertex stage name
//! the function and the rule, each with a valid twin.

mod backends;
mod common;
use csir::exec::{Inputs, Machine, NoSamplers, Outputs, QUAD_LANES, QuadMachine};
use csir::{Limits, Shader, Stage, compile};

fn extended(body: &str) -> Shader {
    let src = common::frag_src("in vec2 uv;", body);
    compile(&src, "d.frag", Stage::Fragment, &Limits::EXTENDED).unwrap_or_else(|e| panic!("{e}"))
}

/// Run `shader` on the quad whose lower-left pixel is `(x0, y0)`, with `uv` the given
/// function of the pixel centre and `u` uniform 0: the four colours in quad order.
fn quad(shader: &Shader, x0: f32, y0: f32, uv: impl Fn(f32, f32) -> [f32; 2]) -> [Outputs; 4] {
    let uniforms = [[3.0, 0.5, 0.0, 0.0], [0.0; 4]];
    let centre = |k: usize| {
        let (dx, dy) = QUAD_LANES[k];
        (x0 + dx as f32 + 0.5, y0 + dy as f32 + 0.5)
    };
    let varyings: [Vec<[f32; 4]>; 4] = std::array::from_fn(|k| {
        let (x, y) = centre(k);
        let [s, t] = uv(x, y);
        vec![[s, t, 0.0, 0.0]]
    });
    let inputs: [Inputs; 4] = std::array::from_fn(|k| {
        let (x, y) = centre(k);
        Inputs {
            uniforms: &uniforms,
            varyings: &varyings[k],
            frag_coord: [x, y, 0.5, 1.0],
            samplers: &NoSamplers,
            ..Inputs::default()
        }
    });
    let mut out: [Outputs; 4] = std::array::from_fn(|_| Outputs::default());
    QuadMachine::new(shader)
        .expect("verified")
        .run(&inputs, &mut out)
        .expect("runs");
    out
}

#[test]
fn the_window_coordinate_grows_by_one_per_pixel() {
    let s = extended("c = vec4(dFdx(gl_FragCoord.xy), dFdy(gl_FragCoord.xy));");
    for out in quad(&s, 10.0, 6.0, |x, y| [x, y]) {
        assert_eq!(out.color, [1.0, 0.0, 0.0, 1.0]);
    }
    let s = extended("c = vec4(fwidth(gl_FragCoord.xy), fwidth(-3.0 * gl_FragCoord.y), 0.0);");
    for out in quad(&s, 0.0, 0.0, |x, y| [x, y]) {
        assert_eq!(out.color, [1.0, 1.0, 3.0, 0.0]);
    }
}

#[test]
fn a_linear_varying_gives_its_slopes_and_y_is_up() {
    // uv = (0.25·x − 0.5·y, 2·y): dFdx = (0.25, 0), dFdy = (−0.5, 2), window y up.
    let s = extended("c = vec4(dFdx(uv), dFdy(uv));");
    for out in quad(&s, 4.0, 8.0, |x, y| [0.25 * x - 0.5 * y, 2.0 * y]) {
        assert_eq!(out.color, [0.25, 0.0, -0.5, 2.0]);
    }
}

#[test]
fn derivatives_are_fine_per_row_and_column() {
    // f = x·y: dFdx = y of the lane's row, dFdy = x of its column (pixel centres).
    let s = extended(
        "float f = gl_FragCoord.x * gl_FragCoord.y; c = vec4(dFdx(f), dFdy(f), 0.0, 0.0);",
    );
    let out = quad(&s, 2.0, 4.0, |_, _| [0.0, 0.0]);
    let want = [[4.5, 2.5], [4.5, 3.5], [5.5, 2.5], [5.5, 3.5]];
    for (k, o) in out.iter().enumerate() {
        assert_eq!([o.color[0], o.color[1]], want[k], "lane {k}");
    }
}

#[test]
fn a_discarded_lane_keeps_computing_for_its_neighbours() {
    // Lane 1 (x = 1.5) discards before f is computed; lane 0's dFdx still reads it.
    let s = extended(
        "if (gl_FragCoord.x > 1.0 && gl_FragCoord.y < 1.0) discard;\n\
         float f = gl_FragCoord.x * gl_FragCoord.x;\n\
         c = vec4(dFdx(f), 0.0, 0.0, 1.0);",
    );
    let out = quad(&s, 0.0, 0.0, |_, _| [0.0, 0.0]);
    assert!(out[1].discarded && !out[0].discarded && !out[2].discarded);
    assert_eq!(out[0].color, [1.5 * 1.5 - 0.5 * 0.5, 0.0, 0.0, 1.0]);
    assert_eq!(out[3].color, out[2].color);
}

#[test]
fn a_lone_invocation_is_its_own_quad() {
    let s = extended("c = vec4(dFdx(uv.x), dFdy(u.x * uv.y), fwidth(uv.x), 1.0);");
    let out = common::run(
        &s,
        &[[3.0, 0.0, 0.0, 0.0]],
        &[[0.7, 0.2, 0.0, 0.0]],
        &NoSamplers,
    );
    assert_eq!(out.color, [0.0, 0.0, 0.0, 1.0]);
    backends::check(&s, &[[3.0, 0.0, 0.0, 0.0]], &[[0.7, 0.2, 0.0, 0.0]]);
    // Of a constant: folded to c − c, NaN for an infinity.
    let s = extended("c = vec4(dFdx(2.0), dFdy(vec2(1.0, -4.0)), fwidth(1.0 / 0.0));");
    let mut out = Outputs::default();
    Machine::new(&s)
        .unwrap()
        .run(&Inputs::default(), &mut out)
        .unwrap();
    assert_eq!(&out.color[..3], &[0.0, 0.0, 0.0]);
    assert!(out.color[3].is_nan());
}

#[test]
fn tgsi_and_csi_carry_ddx_and_ddy() {
    let s = extended("c = vec4(dFdx(uv * u.x), dFdy(uv.yx));");
    let tgsi = csir::emit_tgsi(&s, None, None).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        tgsi.contains("DDX TEMP[") && tgsi.contains("DDY TEMP["),
        "{tgsi}"
    );
    backends::check(&s, &[[2.0, 0.0, 0.0, 0.0]], &[[0.25, 0.5, 0.0, 0.0]]);
    let v1 = csir::save_csi_v1(&s);
    assert!(v1.is_err(), "CSI v1 cannot hold an extended instruction");
}

#[test]
fn the_seed_profile_names_the_function_and_its_valid_twin_compiles() {
    for f in ["dFdx", "dFdy", "fwidth"] {
        let src = common::frag_src("in vec2 uv;", &format!("c = vec4({f}(uv.x));"));
        let m = common::messages(&src, Stage::Fragment);
        assert_eq!(
            m,
            vec![format!(
                "`{f}` needs the extended profile (the seed's CSIR has no derivatives; \
                 --profile extended)"
            )]
        );
        compile(&src, "d.frag", Stage::Fragment, &Limits::EXTENDED)
            .unwrap_or_else(|e| panic!("{f}: {e}"));
    }
}

#[test]
fn a_vertex_shader_has_no_derivatives() {
    let src = "#version 330 core\nin vec4 p;\nout float w;\nvoid main() {\n    w = dFdy(p.x);\n    gl_Position = p;\n}\n";
    let m = common::located_with(src, Stage::Vertex, &Limits::EXTENDED);
    assert_eq!(
        m,
        vec![
            "t.glsl:5:9: `dFdy` is available only in fragment shaders (GLSL 1.10 §8.8: \
             derivatives are taken across a fragment quad)"
                .to_string()
        ]
    );
    let twin = src.replace("dFdy(p.x)", "p.x");
    compile(&twin, "d.vert", Stage::Vertex, &Limits::EXTENDED).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn the_verifier_keeps_ddx_out_of_vertex_shaders_and_the_seed() {
    use csir::ir::{Ir, Op, Type, VerifyRule, verify};
    let mut s = extended("c = vec4(dFdx(uv), 0.0, 1.0);");
    assert!(s.uses_derivatives());
    verify(&s).expect("the fragment shader verifies");
    let mut seed = s.clone();
    seed.limits = Limits {
        profile: csir::Profile::Seed,
        ..s.limits
    };
    assert_eq!(verify(&seed).unwrap_err().rule, VerifyRule::Profile);
    s.stage = Stage::Vertex;
    // Only DDX left of the fragment-only instructions.
    for ir in &mut s.ir {
        let fragment_only = ir.info().is_some_and(|i| i.stage.is_some());
        if fragment_only && ir.opcode() != Some(Op::Ddx) {
            *ir = Ir::new(Op::Nop, Type::None);
        }
    }
    let err = verify(&s).unwrap_err();
    assert_eq!(err.rule, VerifyRule::DerivativeStage);
}
