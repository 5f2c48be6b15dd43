//! Every construct through every consumer of CSIR: the TGSI text is emitted, parsed
//! back under virglrenderer's rules and executed against the interpreter (the parity
//! harness of `tgsi_common`), and the shader survives a CSI v2 round trip unchanged,
//! with the same outputs.
#![allow(dead_code)]

#[path = "../tgsi_common/mod.rs"]
mod tgsi_common;

use csir::exec::{Inputs, Machine, NearestClampTexture, Outputs};
use csir::{Limits, Shader, load_csi, save_csi};
use tgsi_common::check::{InputSet, Prepared};

/// `common::eval` that also checks the shader on every back end with the same
/// uniforms: compile `frag_src(decls, body)`, check, return the colour for `u`, `v`.
pub fn eval(decls: &str, body: &str, u: [f32; 4], v: [f32; 4]) -> [f32; 4] {
    let s = crate::common::build(&crate::common::frag_src(decls, body), csir::Stage::Fragment);
    check(&s, &[u, v], &[]);
    crate::common::run(&s, &[u, v], &[], &csir::exec::NoSamplers).color
}

/// [`eval`] with no globals and `v` = 0.
pub fn eval_u(body: &str, u: [f32; 4]) -> [f32; 4] {
    eval("", body, u, [0.0; 4])
}

/// Check `shader` on the given inputs (uniform slots, and attributes or varyings by
/// slot): TGSI parity and the CSI v2 round trip. Panics with the reason.
pub fn check(shader: &Shader, uniforms: &[[f32; 4]], io: &[[f32; 4]]) {
    let p = Prepared::new(shader, None).unwrap_or_else(|e| panic!("{}: {e}", shader.name));
    let mut uniforms = uniforms.to_vec();
    uniforms.resize(uniforms.len().max(32), [0.0; 4]);
    let mut io = io.to_vec();
    io.resize(8, [0.0; 4]);
    let mut inputs = InputSet {
        uniforms,
        attributes: io.clone(),
        varyings: io,
        frag_coord: [0.5, 1.5, 0.25, 1.0],
        front_facing: true,
    };
    let textures = vec![
        NearestClampTexture::solid([255, 128, 0, 255]),
        NearestClampTexture::solid([0, 64, 255, 128]),
    ];
    // Both facings: a shader reading gl_FrontFacing must agree for each.
    for front_facing in [true, false] {
        inputs.front_facing = front_facing;
        p.check(&inputs, &textures)
            .unwrap_or_else(|e| panic!("{}: TGSI parity: {e}", shader.name));
    }
    let bytes = save_csi(shader).unwrap_or_else(|e| panic!("{}: {e}", shader.name));
    // Loaded with the largest limits: the shader may be of either profile.
    let back = load_csi(&bytes, &Limits::LARGE).unwrap_or_else(|e| panic!("{}: {e}", shader.name));
    // Immediates compare by their bits: an integer pattern may be a NaN.
    let imm_bits = |s: &Shader| s.imm.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(
        imm_bits(&back),
        imm_bits(shader),
        "{}: CSI v2 round trip changed the immediates",
        shader.name
    );
    let (mut a, mut b) = (back.clone(), shader.clone());
    (a.imm, b.imm) = (Vec::new(), Vec::new());
    assert_eq!(
        a, b,
        "{}: CSI v2 round trip changed the shader",
        shader.name
    );
    let run = |s: &Shader| {
        let mut m = Machine::new(s).expect("verified");
        let mut out = Outputs::default();
        m.run(
            &Inputs {
                uniforms: &inputs.uniforms,
                attributes: &inputs.attributes,
                varyings: &inputs.varyings,
                frag_coord: inputs.frag_coord,
                samplers: &textures,
                ..Inputs::default()
            },
            &mut out,
        )
        .expect("runs");
        out
    };
    let (a, b) = (run(shader), run(&back));
    assert_eq!(
        (
            a.color.map(f32::to_bits),
            a.position.map(f32::to_bits),
            a.discarded
        ),
        (
            b.color.map(f32::to_bits),
            b.position.map(f32::to_bits),
            b.discarded
        ),
        "{}: CSI v2 copy runs differently",
        shader.name
    );
}
