//! The oracles: compile a fragment shader, run it on a fixed set of fragments with
//! the scalar interpreter ([`csir::exec::Machine`]) and the batch interpreter
//! ([`csir::exec::batch`]), and emit TGSI.
//!
//! Both interpreters promise the same bits in every lane (`shaders/src/exec/batch/mod.rs`,
//! docs/architecture.md), NaN payloads excepted: results are compared bit for bit,
//! any NaN equal to any NaN.

use csir::exec::batch::{FragmentLanes, LaneArray, MAX_LANES, Plan};
use csir::exec::{Inputs, Machine, NoSamplers, Outputs};
use csir::ir::SymbolKind;
use csir::{Limits, Shader, Stage, Type, compile, emit_tgsi};

/// Fragments each program runs on (a 4×4 block of pixels, one batch).
pub const FRAGMENTS: usize = 16;

/// What one run of a shader gave: per fragment, the colour bits and whether it was
/// discarded.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Colour bits per fragment.
    pub color: Vec<[u32; 4]>,
    /// Discard flag per fragment.
    pub discarded: Vec<bool>,
}

impl Run {
    /// Whether `self` and `other` agree: same discards, and for the fragments not
    /// discarded the same colour bits (any NaN matches any NaN).
    pub fn same(&self, other: &Run) -> bool {
        self.first_difference(other).is_none()
    }

    /// The first fragment where `self` and `other` disagree, described.
    pub fn first_difference(&self, other: &Run) -> Option<String> {
        for i in 0..self.color.len().min(other.color.len()) {
            if self.discarded[i] != other.discarded[i] {
                return Some(format!(
                    "fragment {i}: discarded {} vs {}",
                    self.discarded[i], other.discarded[i]
                ));
            }
            if self.discarded[i] {
                continue;
            }
            let (a, b) = (self.color[i], other.color[i]);
            let eq = (0..4).all(|c| {
                let (x, y) = (f32::from_bits(a[c]), f32::from_bits(b[c]));
                a[c] == b[c] || (x.is_nan() && y.is_nan())
            });
            if !eq {
                return Some(format!(
                    "fragment {i}: {:?} vs {:?}",
                    a.map(f32::from_bits),
                    b.map(f32::from_bits)
                ));
            }
        }
        None
    }
}

/// The inputs of a run: uniform values by name (register bits) and the per-fragment
/// `gl_FragCoord` and varyings.
#[derive(Clone, Debug)]
pub struct Inputs4 {
    /// `(name, lane bits)` of uniforms; each fills its symbol's first slot. A name the
    /// shader does not declare is ignored; a declared uniform without a value gets
    /// [`fill`]'s value.
    pub uniforms: Vec<(String, [u32; 4])>,
}

/// Default lanes for a declared uniform with no given value: small values that
/// depend on the uniform's name and the slot within it (floats in [-1, 1], integers
/// in -8..8, bools 0/1), so adding a uniform to a shader changes no other's value.
pub fn fill(name: &str, ty: Type, slot: usize, lane: usize) -> u32 {
    let h = name
        .bytes()
        .fold(2166136261u32, |h, b| (h ^ b as u32).wrapping_mul(16777619));
    let k = (h as usize % 1000 + slot * 4 + lane) as i32;
    match ty {
        Type::Int | Type::IVec2 | Type::IVec3 | Type::IVec4 => ((k * 5) % 17 - 8) as u32,
        Type::Uint | Type::UVec2 | Type::UVec3 | Type::UVec4 => ((k * 5) % 17) as u32,
        Type::Bool => ((k % 2) as f32).to_bits(),
        _ => (((k * 7) % 17 - 8) as f32 / 8.0).to_bits(),
    }
}

/// Uniform slots for `shader` from `inputs`.
pub fn uniform_slots(shader: &Shader, inputs: &Inputs4) -> Vec<[f32; 4]> {
    let mut slots = vec![[0.0f32; 4]; 64];
    for sym in &shader.interface.symbols {
        if let SymbolKind::Uniform { slot } = sym.kind {
            let base = slot as usize;
            let n = sym.slot_count() as usize;
            for s in base..(base + n).min(slots.len()) {
                slots[s] =
                    std::array::from_fn(|l| f32::from_bits(fill(&sym.name, sym.ty, s - base, l)));
            }
            if let Some((_, lanes)) = inputs.uniforms.iter().find(|u| u.0 == sym.name)
                && base < slots.len()
            {
                slots[base] = lanes.map(f32::from_bits);
            }
        }
    }
    slots
}

/// The varying lanes of fragment `i` for varying slot `slot` (values in [-1, 1]).
pub fn varying(i: usize, slot: usize) -> [f32; 4] {
    std::array::from_fn(|c| (((i * 3 + slot * 5 + c * 7) % 17) as f32 - 8.0) / 8.0)
}

/// `gl_FragCoord` of fragment `i`: pixel centres of a 4×4 block at (2, 3), depth
/// 0.5, 1/w 1.
pub fn frag_coord(i: usize) -> [f32; 4] {
    [2.5 + (i % 4) as f32, 3.5 + (i / 4) as f32, 0.5, 1.0]
}

/// Compile GLSL under the extended profile (the renderer's).
pub fn compile_frag(src: &str) -> Result<Shader, String> {
    compile(src, "difftest.frag", Stage::Fragment, &Limits::EXTENDED).map_err(|e| e.to_string())
}

/// Whether a compile error is a size limit (the program is too big for the pools;
/// not a finding).
pub fn is_size_limit(msg: &str) -> bool {
    msg.contains("shader needs ")
        || msg.contains("exceeds the instruction limit")
        || msg.contains("compile-time work limit")
        || msg.contains("nested too deeply")
        || msg.contains("temporar")
}

/// Run `shader` on the [`FRAGMENTS`] with the scalar interpreter.
pub fn run_scalar(shader: &Shader, inputs: &Inputs4) -> Result<Run, String> {
    let uniforms = uniform_slots(shader, inputs);
    run_scalar_with(shader, &uniforms, &varying, &frag_coord)
}

/// Run `shader` on the [`FRAGMENTS`] with the scalar interpreter, given the uniform
/// slots and the per-fragment varyings (`varying(fragment, slot)`) and
/// `gl_FragCoord` (`frag_coord(fragment)`): the GPU oracles' tolerance runs the
/// program on perturbed copies of the inputs (`gpu.rs`).
pub fn run_scalar_with(
    shader: &Shader,
    uniforms: &[[f32; 4]],
    varying: &dyn Fn(usize, usize) -> [f32; 4],
    frag_coord: &dyn Fn(usize) -> [f32; 4],
) -> Result<Run, String> {
    let mut m = Machine::new(shader).map_err(|e| format!("Machine::new: {e}"))?;
    let mut run = Run {
        color: vec![],
        discarded: vec![],
    };
    for i in 0..FRAGMENTS {
        let varyings: Vec<[f32; 4]> = (0..csir::MAX_VARYINGS).map(|s| varying(i, s)).collect();
        let inp = Inputs {
            uniforms,
            varyings: &varyings,
            frag_coord: frag_coord(i),
            front_facing: true,
            samplers: &NoSamplers,
            ..Inputs::default()
        };
        let mut out = Outputs::default();
        m.run(&inp, &mut out)
            .map_err(|e| format!("Machine::run: {e}"))?;
        run.color.push(out.color.map(f32::to_bits));
        run.discarded.push(out.discarded);
    }
    Ok(run)
}

/// Run `shader` on the [`FRAGMENTS`] as one batch of the batch interpreter.
pub fn run_batch(shader: &Shader, inputs: &Inputs4) -> Result<Run, String> {
    let uniforms = uniform_slots(shader, inputs);
    let plan = Plan::new(shader).map_err(|e| format!("Plan::new: {e}"))?;
    let draw = plan.bind(&uniforms, &[]);
    let mut fc: [LaneArray; 4] = [[0.0; MAX_LANES]; 4];
    let mut varyings: Vec<LaneArray> = vec![[0.0; MAX_LANES]; 4 * csir::MAX_VARYINGS];
    for i in 0..FRAGMENTS {
        let f = frag_coord(i);
        for c in 0..4 {
            fc[c][i] = f[c];
        }
        for s in 0..csir::MAX_VARYINGS {
            let v = varying(i, s);
            for c in 0..4 {
                varyings[4 * s + c][i] = v[c];
            }
        }
    }
    let lanes = FragmentLanes {
        len: FRAGMENTS,
        frag_coord: &fc,
        front_facing: true,
        varyings: &varyings,
        samplers: &NoSamplers,
    };
    let mut regs = draw.registers();
    let mut color: [LaneArray; 4] = [[0.0; MAX_LANES]; 4];
    let discarded = draw.run(&mut regs, &lanes, &mut color);
    Ok(Run {
        color: (0..FRAGMENTS)
            .map(|i| std::array::from_fn(|c| color[c][i].to_bits()))
            .collect(),
        discarded: (0..FRAGMENTS).map(|i| discarded >> i & 1 != 0).collect(),
    })
}

/// Emit TGSI for `shader` (must succeed for every program the front end accepts).
pub fn tgsi(shader: &Shader) -> Result<(), String> {
    emit_tgsi(shader, None, None)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The outcome of checking one source.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// Compiled and every oracle agreed; the scalar run.
    Agree(Run),
    /// The program is too large for the pools (skipped).
    TooBig,
    /// The front end rejected it (a generator bug or a front-end bug).
    Rejected(String),
    /// An oracle disagreed or failed: `(oracle, detail)`.
    Disagree(&'static str, String),
}

/// Compile `src`, run both interpreters, emit TGSI.
pub fn check(src: &str, inputs: &Inputs4) -> Check {
    let shader = match compile_frag(src) {
        Ok(s) => s,
        Err(e) if is_size_limit(&e) => return Check::TooBig,
        Err(e) => return Check::Rejected(e),
    };
    if let Err(e) = tgsi(&shader) {
        return Check::Disagree("tgsi", e);
    }
    let scalar = match run_scalar(&shader, inputs) {
        Ok(r) => r,
        Err(e) => return Check::Disagree("scalar-run", e),
    };
    let batch = match run_batch(&shader, inputs) {
        Ok(r) => r,
        Err(e) => return Check::Disagree("batch-run", e),
    };
    if let Some(d) = scalar.first_difference(&batch) {
        return Check::Disagree("scalar-vs-batch", d);
    }
    Check::Agree(scalar)
}
