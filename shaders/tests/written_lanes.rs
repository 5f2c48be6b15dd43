//! `Ir::written_lanes` against the interpreter: on every instruction of the stock
//! shaders, the corpus and a shader using every opcode, run on non-trivial inputs, the
//! only lanes that change are lanes of the instruction's destination temporaries that
//! `written_lanes` names. (`csir-render trace` shows exactly those lanes, so a lane the
//! mask left out would hide a change, and the TGSI emitter's initialisation analysis
//! would believe a lane written that is not.)

use csir::exec::{Inputs, Machine, Observer, Outputs, Samplers, Step};
use csir::{Ir, Limits, Op, Shader, Stage, compile};
use std::path::{Path, PathBuf};

/// Every opcode the front end emits: constants, swizzles, lane writes, arithmetic,
/// DOT, RSQ, RCP, SIN, COS, POW, TRUNC, CMP, MULMV, MULMM, SAMPLE and the loads.
const EVERY_OPCODE: &str = "#version 330 core
in vec3 vN;
in vec2 vUV;
uniform mat4 uM;
uniform mat3 uR;
uniform vec4 uV;
uniform float uK;
uniform sampler2D uTex;
out vec4 color;
void main() {
    vec4 v = uV;
    v.y = uK;
    v.zw = vUV.yx;
    vec3 n = normalize(vN) + uR * vN;
    mat3 r2 = uR * uR;
    float d = dot(n, v.xyz) / uK + inversesqrt(abs(uK) + 1.0);
    float s = sin(d) + cos(uK) + pow(abs(d), 1.5) + float(int(d * 3.0));
    vec4 t = texture(uTex, vUV * 2.0);
    if (s > 0.5) { t = t.wzyx; }
    color = uM * vec4(min(n, r2 * vec3(s)), 1.0) + max(t, v) - gl_FragCoord;
}
";

/// Samples derived from the coordinate, so SAMPLE writes varied values.
struct Ramp;

impl Samplers for Ramp {
    fn sample(&self, slot: usize, s: f32, t: f32) -> [f32; 4] {
        [s, t, s * t + slot as f32, 0.75]
    }

    fn sample_offset(&self, slot: usize, s: f32, t: f32, [dx, dy]: [i32; 2]) -> [f32; 4] {
        self.sample(slot, s + dx as f32, t + dy as f32)
    }
}

/// Checks each step against the temporaries as they were before it.
struct Checker {
    before: Vec<[f32; 4]>,
    checked: usize,
    failures: Vec<String>,
}

impl Observer for Checker {
    fn step(&mut self, step: Step<'_>) {
        self.check(step.index, step.ir, step.temps);
        self.before.clear();
        self.before.extend_from_slice(step.temps);
    }
}

impl Checker {
    fn check(&mut self, index: usize, ir: &Ir, after: &[[f32; 4]]) {
        let (first, count) = ir.writes().unwrap_or((-1, 0));
        let mask = ir.written_lanes();
        for (t, (old, new)) in self.before.iter().zip(after).enumerate() {
            for lane in 0..4 {
                if old[lane].to_bits() == new[lane].to_bits() {
                    continue;
                }
                self.checked += 1;
                let in_span = (first as i64..first as i64 + count as i64).contains(&(t as i64));
                if !in_span || mask & (1 << lane) == 0 {
                    self.failures.push(format!(
                        "#{index} {ir:?}: %{t} lane {lane} changed ({} -> {}) but written_lanes is {mask:#06b} of {first}..+{count}",
                        old[lane], new[lane]
                    ));
                }
            }
        }
    }
}

fn compile_file(path: &Path) -> Option<Shader> {
    let stage = match path.extension()?.to_str()? {
        "vert" => Stage::Vertex,
        "frag" => Stage::Fragment,
        _ => return None,
    };
    let source = std::fs::read_to_string(path).ok()?;
    let name = path.display().to_string();
    Some(compile(&source, &name, stage, &Limits::LARGE).unwrap_or_else(|e| panic!("{e}")))
}

fn shaders() -> Vec<Shader> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = ["glsl", "tests/corpus"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(root.join(dir)).expect("shader folder"))
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let mut shaders: Vec<Shader> = files.iter().filter_map(|p| compile_file(p)).collect();
    let every = compile(EVERY_OPCODE, "every.frag", Stage::Fragment, &Limits::LARGE)
        .unwrap_or_else(|e| panic!("{e}"));
    shaders.push(every);
    shaders
}

/// Varied, finite values: slot `k` lane `l`.
fn slots(n: usize, seed: f32) -> Vec<[f32; 4]> {
    (0..n)
        .map(|k| std::array::from_fn(|l| seed + 0.37 * k as f32 - 0.61 * l as f32))
        .collect()
}

#[test]
fn only_the_written_lanes_of_the_destination_change() {
    let mut checked = 0;
    let mut opcodes = std::collections::BTreeSet::new();
    for shader in shaders() {
        let mut machine = Machine::new(&shader).expect("compiled shaders verify");
        for seed in [0.3f32, -1.7, 2.9] {
            let uniforms = slots(shader.limits.uniform_slots, seed);
            let io = slots(16, -seed);
            let inputs = Inputs {
                uniforms: &uniforms,
                attributes: &io,
                varyings: &io,
                frag_coord: [10.5, 3.5, 0.25, 0.5],
                samplers: &Ramp,
                ..Inputs::default()
            };
            let mut checker = Checker {
                before: vec![[0.0; 4]; shader.ntmp as usize],
                checked: 0,
                failures: Vec::new(),
            };
            let mut outputs = Outputs::default();
            machine
                .run_observed(&inputs, &mut outputs, &mut checker)
                .expect("runs");
            assert!(
                checker.failures.is_empty(),
                "{}:\n{}",
                shader.name,
                checker.failures.join("\n")
            );
            checked += checker.checked;
        }
        opcodes.extend(shader.ir.iter().filter_map(Ir::opcode).map(|op| op as u8));
    }
    assert!(checked > 1000, "only {checked} lane changes seen");
    for op in [
        Op::Const,
        Op::Swz,
        Op::SetLane,
        Op::Rcp,
        Op::Sin,
        Op::Cos,
        Op::Pow,
        Op::Trunc,
        Op::Cmp,
        Op::Dot,
        Op::Rsq,
        Op::MulMv,
        Op::MulMm,
        Op::Sample,
        Op::LoadUni,
        Op::LoadVar,
        Op::LoadAttr,
        Op::LoadFcoord,
    ] {
        assert!(opcodes.contains(&(op as u8)), "no shader uses {op:?}");
    }
}
