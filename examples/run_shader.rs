//! Compile a fragment shader and run one invocation through the CSIR interpreter.
//!
//! ```sh
//! cargo run --example run_shader
//! ```

use csir::exec::{Inputs, Machine, Outputs};
use csir::{Limits, Stage};

const SOURCE: &str = "#version 330 core
in vec2 vUV;
uniform vec3 uTint;
out vec4 fragColor;
void main() {
    float d = length(vUV - vec2(0.5));
    fragColor = vec4(uTint * (1.0 - d), 1.0);
}
";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Lex, parse, check, lower to CSIR, optimize and verify.
    let shader = csir::compile(SOURCE, "example.frag", Stage::Fragment, &Limits::default())?;
    print!("{}", csir::ir::dump(&shader));

    // Uniform vec4 slots and varying slots as the interface assigned them (slot 0 each).
    let uniforms = [[1.0, 0.5, 0.25, 0.0]];
    let varyings = [[0.8, 0.5, 0.0, 0.0]];
    let mut machine = Machine::new(&shader)?; // allocate once, run per pixel
    let mut out = Outputs::default();
    machine.run(
        &Inputs {
            uniforms: &uniforms,
            varyings: &varyings,
            ..Inputs::default()
        },
        &mut out,
    )?;
    println!("fragColor = {:?} (discarded: {})", out.color, out.discarded);
    Ok(())
}
