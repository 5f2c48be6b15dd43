//! The parity check: emit TGSI, parse it, execute it, and compare with the CSIR
//! interpreter on the same inputs.

use super::exec::{Env, Executor, Run, Semantics};
use super::parse::{Program, parse};
use csir::exec::{Inputs, Machine, NearestClampTexture, Outputs, Samplers};
use csir::ir::{Shader, Stage};
use csir::tgsi::{divergence, emit_listing, emit_tgsi, parity_dump};

/// One invocation's inputs.
#[derive(Clone, Debug, Default)]
pub struct InputSet {
    pub uniforms: Vec<[f32; 4]>,
    pub attributes: Vec<[f32; 4]>,
    /// By vertex slot.
    pub varyings: Vec<[f32; 4]>,
    pub frag_coord: [f32; 4],
    /// `gl_FrontFacing` (the `FACE` input: +1 in front, −1 behind).
    pub front_facing: bool,
}

/// What a parity check saw.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Exceptional-value divergences (all at instructions the parity dump marks).
    pub divergences: usize,
    /// Largest SIN/COS/POW rounding difference seen, in ulps.
    pub max_rounding_ulps: u32,
    /// Rounding differences seen.
    pub roundings: usize,
}

/// Shader text and everything needed to run it; build once, run many inputs.
pub struct Prepared<'s> {
    pub shader: &'s Shader,
    pub remap: Option<&'s [i16]>,
    pub text: String,
    pub program: Program,
    /// CSIR record index of each TGSI instruction line.
    pub origin: Vec<Option<usize>>,
}

/// SIN/COS arguments beyond this magnitude are outside the shared math's documented
/// accuracy (exec::math: 2e-6 up to 1e4), so their rounding is not compared.
const TRIG_RANGE: f32 = 1.0e4;

impl<'s> Prepared<'s> {
    /// Emit and parse; the text must parse.
    pub fn new(shader: &'s Shader, remap: Option<&'s [i16]>) -> Result<Prepared<'s>, String> {
        let listing = emit_listing(shader, remap).map_err(|e| e.to_string())?;
        let text = listing.text();
        assert_eq!(emit_tgsi(shader, remap, None).as_deref(), Ok(text.as_str()));
        let program = parse(&text).map_err(|e| format!("{e}\n{text}"))?;
        hex_immediates_only(&text)?;
        let origin = listing.body.iter().map(|l| l.ir_index).collect();
        Ok(Prepared {
            shader,
            remap,
            text,
            program,
            origin,
        })
    }

    fn context(&self) -> String {
        parity_dump(self.shader, self.remap).unwrap_or_else(|e| e.to_string())
    }

    /// Run the interpreter and the TGSI on `inputs` and compare (module docs).
    pub fn check(&self, inputs: &InputSet, textures: &dyn Samplers) -> Result<Report, String> {
        let fail = |what: String| Err(format!("{what}\ninputs: {inputs:?}\n{}", self.context()));
        let remap = self.remap.unwrap_or(&[]);
        let mut machine = Machine::new(self.shader).map_err(|e| e.to_string())?;
        let mut expected = Outputs::default();
        machine
            .run(
                &Inputs {
                    uniforms: &inputs.uniforms,
                    attributes: &inputs.attributes,
                    varyings: &inputs.varyings,
                    var_remap: remap,
                    frag_coord: inputs.frag_coord,
                    front_facing: inputs.front_facing,
                    samplers: textures,
                },
                &mut expected,
            )
            .map_err(|e| e.to_string())?;
        let env = Env {
            attributes: &inputs.attributes,
            varyings: &inputs.varyings,
            frag_coord: inputs.frag_coord,
            front_facing: inputs.front_facing,
            constants: &inputs.uniforms,
            samplers: textures,
        };
        let executor = Executor::new(&self.program, self.shader.limits.profile);

        // With the interpreter's definitions of the differing operations, the TGSI
        // must reproduce the interpreter exactly on every input.
        let csir = match executor.run(&env, Semantics::Csir) {
            Ok(run) => run,
            Err(e) => return fail(format!("TGSI execution failed: {e}")),
        };
        if let Err(e) = self.compare(&expected, &csir) {
            return fail(format!("CSIR-semantics run differs: {e}"));
        }

        // With TGSI's definitions, every difference must be one the dump marks, and a
        // run without any must match exactly.
        let tgsi = match executor.run(&env, Semantics::Tgsi) {
            Ok(run) => run,
            Err(e) => return fail(format!("TGSI execution failed: {e}")),
        };
        if let Some(p) = tgsi
            .precision
            .iter()
            .find(|p| p.opcode == "POW" || p.inputs[0].abs() <= TRIG_RANGE)
        {
            return fail(format!(
                "{} beyond rounding at line {}: {p:?}",
                p.opcode, p.line
            ));
        }
        for d in &tgsi.divergences {
            let op = self.origin[d.line].and_then(|i| self.shader.ir[i].opcode());
            let profile = self.shader.limits.profile;
            if op.and_then(|op| divergence(op, profile)).is_none() {
                return fail(format!(
                    "undocumented divergence at TGSI line {} (CSIR {:?}): {d:?}",
                    d.line, op
                ));
            }
        }
        if tgsi.divergences.is_empty()
            && let Err(e) = self.compare(&expected, &tgsi)
        {
            return fail(format!(
                "TGSI-semantics run differs without a divergence: {e}"
            ));
        }
        Ok(Report {
            divergences: tgsi.divergences.len(),
            max_rounding_ulps: tgsi.rounding.iter().map(|r| r.3).max().unwrap_or(0),
            roundings: tgsi.rounding.len(),
        })
    }

    /// Bit-exact output comparison (NaN equals NaN, whatever the payload).
    fn compare(&self, expected: &Outputs, run: &Run) -> Result<(), String> {
        let same = |a: [f32; 4], b: [f32; 4]| {
            a.iter()
                .zip(&b)
                .all(|(x, y)| x.to_bits() == y.to_bits() || x.is_nan() && y.is_nan())
        };
        match self.shader.stage {
            Stage::Fragment => {
                if expected.discarded != run.killed {
                    return Err(format!(
                        "discarded: interpreter {}, TGSI {}",
                        expected.discarded, run.killed
                    ));
                }
                if !expected.discarded {
                    match run.color {
                        Some(c) if same(c, expected.color) => {}
                        c => {
                            return Err(format!(
                                "colour: interpreter {:?}, TGSI {c:?}",
                                expected.color
                            ));
                        }
                    }
                }
            }
            Stage::Vertex => {
                match run.position {
                    Some(p) if same(p, expected.position) => {}
                    p => {
                        return Err(format!(
                            "position: interpreter {:?}, TGSI {p:?}",
                            expected.position
                        ));
                    }
                }
                if !run.undefined_varyings.is_empty() {
                    return Err(format!("undefined varyings {:?}", run.undefined_varyings));
                }
                for (&slot, value) in &run.varyings {
                    let want = expected.varyings[slot as usize];
                    if !same(*value, want) {
                        return Err(format!(
                            "varying {slot}: interpreter {want:?}, TGSI {value:?}"
                        ));
                    }
                }
            }
            Stage::Geometry => {
                return Err("the TGSI emitter refuses geometry shaders".to_string());
            }
        }
        Ok(())
    }
}

/// The parser also takes decimal floats (as `tgsi_text` does, through a
/// locale-dependent `atof`); the emitter must write every immediate as `0x` and eight
/// hex digits (docs/tgsi-text.md §1 "Immediates").
fn hex_immediates_only(text: &str) -> Result<(), String> {
    for line in text.lines().filter(|l| l.starts_with("IMM[")) {
        let values = line
            .split_once('{')
            .and_then(|(_, rest)| rest.strip_suffix('}'))
            .ok_or_else(|| format!("malformed immediate: {line}"))?;
        let hex = |v: &str| {
            v.len() == 10 && v.starts_with("0x") && v[2..].bytes().all(|c| c.is_ascii_hexdigit())
        };
        if !values.split(", ").all(hex) {
            return Err(format!("immediate not in hex: {line}"));
        }
    }
    Ok(())
}

/// Random inputs for a shader whose slots are within the random-program bounds.
pub fn random_inputs(
    rng: &mut super::random::Rng,
    value: fn(&mut super::random::Rng) -> f32,
) -> InputSet {
    use super::random::{ATTRIBUTES, UNIFORM_SLOTS};
    InputSet {
        uniforms: (0..UNIFORM_SLOTS.max(32))
            .map(|_| rng.vec4(value))
            .collect(),
        attributes: (0..ATTRIBUTES.max(8)).map(|_| rng.vec4(value)).collect(),
        varyings: (0..8).map(|_| rng.vec4(value)).collect(),
        frag_coord: rng.vec4(value),
        front_facing: rng.percent(50),
    }
}

/// Textures for sampler slots 0 and 1: 4×4 random RGBA8.
pub fn random_textures(rng: &mut super::random::Rng) -> Vec<NearestClampTexture> {
    (0..2)
        .map(|_| {
            let bytes: Vec<u8> = (0..64).map(|_| rng.below(256) as u8).collect();
            NearestClampTexture::new(4, 4, &bytes).expect("4x4 RGBA8")
        })
        .collect()
}
