//! An executor for parsed TGSI with **TGSI's** semantics (docs/tgsi-text.md §2), for one
//! vertex or one fragment.
//!
//! - Arithmetic is IEEE f32, one rounding per operation (MAD is a multiply then an add,
//!   DP3 sums left to right), as `tgsi_exec` computes it.
//! - RCP is `1/x` and RSQ `1/sqrt(x)` of `src.x`, replicated (±inf at ±0, NaN below 0);
//!   SIN, COS and POW use the platform's `sinf`/`cosf`/`powf` on `src.x`, replicated,
//!   except that POW is NaN where GLSL leaves it undefined (x < 0, or x = 0 with
//!   y <= 0; what llvmpipe returns); MIN/MAX ignore a NaN operand (`fminf`/`fmaxf`).
//! - Every source is read before the destination is written.
//! - Temporaries and outputs start **undefined**, as GLSL temporaries on the host do:
//!   reading an undefined lane that reaches a written lane is an error, and an output
//!   is reported only if all four of its lanes were written.
//!
//! [`Semantics::Csir`] swaps in the CSIR interpreter's definitions (its shared math)
//! for exactly the operations where the two back ends differ, so that the same run
//! must reproduce the interpreter bit for bit. In [`Semantics::Tgsi`] the executor
//! computes both definitions for those operations and records every place where they
//! differ as a [`Divergence`]; where SIN/COS/POW differ only by rounding it records the
//! distance and carries the interpreter's value on, so that a run without divergences
//! must still match the interpreter exactly.

use super::parse::{Instruction, Processor, Program, Reg, RegFile, SrcOp};
use csir::exec::math;
use csir::exec::{Samplers, TexLod, TexRequest};
use std::collections::BTreeMap;

/// Which definition of the exceptional cases to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Semantics {
    /// TGSI's definitions (docs/tgsi-text.md §2).
    Tgsi,
    /// The CSIR interpreter's definitions (docs/csir-original.md A1/A2).
    Csir,
}

/// What one invocation reads.
#[derive(Clone, Copy)]
pub struct Env<'a> {
    /// Vertex attributes by `IN` index; missing ones read (0, 0, 0, 1).
    pub attributes: &'a [[f32; 4]],
    /// Varyings by `GENERIC` index (the vertex slot); missing ones read zero.
    pub varyings: &'a [[f32; 4]],
    /// The fragment position (`POSITION` input).
    pub frag_coord: [f32; 4],
    /// Whether the primitive is front-facing: the `FACE` input reads (1, 0, 0, 1) if
    /// so and (−1, 0, 0, 1) if not (Gallium's `TGSI_SEMANTIC_FACE`).
    pub front_facing: bool,
    /// `CONST[0][n]`; missing ones read zero.
    pub constants: &'a [[f32; 4]],
    /// Textures by `SAMP` index.
    pub samplers: &'a dyn Samplers,
}

/// A lane where TGSI's and the interpreter's definitions of an operation disagree.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// Instruction index.
    pub line: usize,
    pub opcode: &'static str,
    /// Operands (`src0.x`, `src1.x` or the lane's values).
    pub inputs: [f32; 2],
    pub tgsi: f32,
    pub csir: f32,
}

/// What one invocation wrote.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Run {
    /// `POSITION` output, if all four lanes were written.
    pub position: Option<[f32; 4]>,
    /// `GENERIC[n]` outputs with all four lanes written.
    pub varyings: BTreeMap<u32, [f32; 4]>,
    /// `GENERIC[n]` outputs declared but not (fully) written.
    pub undefined_varyings: Vec<u32>,
    /// `COLOR` output, if all four lanes were written.
    pub color: Option<[f32; 4]>,
    /// A KILL ran.
    pub killed: bool,
    /// Exceptional-value disagreements (Tgsi semantics only).
    pub divergences: Vec<Divergence>,
    /// Rounding differences between TGSI's and the interpreter's SIN/COS/POW on
    /// ordinary values: `(line, opcode, src0.x, ulps)`.
    pub rounding: Vec<(usize, &'static str, f32, u32)>,
    /// SIN/COS/POW results that differ by more than rounding on ordinary values.
    pub precision: Vec<Divergence>,
}

/// A register file of vec4s whose lanes may be undefined.
#[derive(Default)]
struct Regs {
    values: BTreeMap<u32, [f32; 4]>,
    defined: BTreeMap<u32, u8>,
}

impl Regs {
    fn write(&mut self, index: u32, mask: u8, value: [f32; 4]) {
        let v = self.values.entry(index).or_insert([f32::NAN; 4]);
        let d = self.defined.entry(index).or_insert(0);
        for lane in 0..4 {
            if mask & (1 << lane) != 0 {
                v[lane] = value[lane];
                *d |= 1 << lane;
            }
        }
    }

    fn read(&self, index: u32) -> ([f32; 4], u8) {
        (
            self.values.get(&index).copied().unwrap_or([f32::NAN; 4]),
            self.defined.get(&index).copied().unwrap_or(0),
        )
    }

    fn full(&self, index: u32) -> Option<[f32; 4]> {
        (self.read(index).1 == 0b1111).then(|| self.read(index).0)
    }
}

/// Distance in units in the last place between two finite floats of the same sign
/// (or zero), saturating.
pub fn ulps(a: f32, b: f32) -> u32 {
    let key = |x: f32| {
        let bits = x.to_bits() as i64;
        if bits < 0x8000_0000 {
            bits
        } else {
            -(bits - 0x8000_0000)
        }
    };
    (key(a) - key(b)).unsigned_abs().min(u32::MAX as u64) as u32
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan()
}

/// TGSI's POW: `powf`, NaN where GLSL leaves pow undefined.
fn tgsi_pow(x: f32, y: f32) -> f32 {
    if x < 0.0 || x == 0.0 && y <= 0.0 {
        f32::NAN
    } else {
        x.powf(y)
    }
}

/// `fminf`/`fmaxf`: a NaN operand is ignored; otherwise as the interpreter's
/// `a < b ? a : b` (the sign of equal zeros is unspecified for `fminf`).
fn nan_ignoring(a: f32, b: f32, f: fn(f32, f32) -> f32) -> f32 {
    match (a.is_nan(), b.is_nan()) {
        (true, _) => b,
        (false, true) => a,
        _ => f(a, b),
    }
}

/// Executes a parsed [`Program`].
pub struct Executor<'p> {
    program: &'p Program,
    /// The CSIR shader's profile: the rule of MIN and MAX under [`Semantics::Csir`].
    min_max: math::MinMax,
    /// For each IF / ELSE: the index of its ELSE (for IF) or ENDIF.
    jumps: Vec<usize>,
    position_input: Option<u32>,
}

/// SIN/COS/POW on ordinary values may differ from the interpreter's by this many ulps.
const ROUNDING_LIMIT_ULPS: u32 = 1;
/// SIN/COS: the shared math is accurate to 1.2e-7 absolute (exec::math docs), so near
/// the zeros of sin/cos the comparison is absolute rather than in ulps.
const TRIG_ABSOLUTE: f32 = 1.2e-7;

impl<'p> Executor<'p> {
    /// An executor of `program`, emitted from a CSIR shader of `profile`.
    pub fn new(program: &'p Program, profile: csir::Profile) -> Executor<'p> {
        let mut jumps = vec![usize::MAX; program.instructions.len()];
        let mut open: Vec<usize> = Vec::new();
        for (n, inst) in program.instructions.iter().enumerate() {
            match inst.op.name {
                "IF" => open.push(n),
                "ELSE" => {
                    let at = *open.last().expect("sanity-checked");
                    jumps[at] = n;
                    *open.last_mut().expect("sanity-checked") = n;
                }
                "ENDIF" => {
                    let at = open.pop().expect("sanity-checked");
                    jumps[at] = n;
                }
                _ => {}
            }
        }
        let position_input = program
            .declarations
            .iter()
            .find(|d| d.file == RegFile::In && d.semantic.is_some_and(|s| s.0 == "POSITION"))
            .map(|d| d.first);
        Executor {
            program,
            min_max: math::MinMax::of(profile),
            jumps,
            position_input,
        }
    }

    fn input(&self, env: &Env, index: u32) -> [f32; 4] {
        match self.program.processor {
            Processor::Vertex => env
                .attributes
                .get(index as usize)
                .copied()
                .unwrap_or([0.0, 0.0, 0.0, 1.0]),
            _ if Some(index) == self.position_input => env.frag_coord,
            _ => {
                let decl = self
                    .program
                    .declaration(RegFile::In, None, index)
                    .expect("sanity-checked");
                let (name, slot) = decl.semantic.expect("fragment inputs have semantics");
                if name == "FACE" {
                    let face = if env.front_facing { 1.0 } else { -1.0 };
                    return [face, 0.0, 0.0, 1.0];
                }
                env.varyings.get(slot as usize).copied().unwrap_or([0.0; 4])
            }
        }
    }

    /// Fetch a source with swizzle and modifiers; `needed` is the mask of result lanes
    /// whose source lane must be defined.
    fn fetch(
        &self,
        env: &Env,
        temps: &Regs,
        src: &SrcOp,
        needed: u8,
        line: usize,
    ) -> Result<[f32; 4], String> {
        let Reg { file, index, .. } = src.reg;
        let (raw, defined) = match file {
            RegFile::Temp => temps.read(index),
            RegFile::In => (self.input(env, index), 0b1111),
            RegFile::Const => (
                env.constants
                    .get(index as usize)
                    .copied()
                    .unwrap_or([0.0; 4]),
                0b1111,
            ),
            RegFile::Imm => (
                self.program.immediates[index as usize].map(f32::from_bits),
                0b1111,
            ),
            f => return Err(format!("line {line}: cannot read {f:?}")),
        };
        let mut v = [0.0; 4];
        for (lane, out) in v.iter_mut().enumerate() {
            let from = src.swizzle[lane] as usize;
            if needed & (1 << lane) != 0 && defined & (1 << from) == 0 {
                return Err(format!(
                    "line {line}: reads undefined {file:?}[{index}].{}",
                    ['x', 'y', 'z', 'w'][from]
                ));
            }
            let mut x = raw[from];
            if src.abs {
                x = x.abs();
            }
            if src.negate {
                x = -x;
            }
            *out = x;
        }
        Ok(v)
    }

    /// Run one invocation.
    pub fn run(&self, env: &Env, semantics: Semantics) -> Result<Run, String> {
        let mut temps = Regs::default();
        let mut outs = Regs::default();
        let mut run = Run::default();
        let mut pc = 0;
        let insts = &self.program.instructions;
        while pc < insts.len() {
            let inst = &insts[pc];
            let line = pc;
            pc += 1;
            match inst.op.name {
                "END" => break,
                "NOP" | "ENDIF" => continue,
                "KILL" => {
                    run.killed = true;
                    break;
                }
                "ELSE" => {
                    pc = self.jumps[line] + 1;
                    continue;
                }
                "IF" => {
                    let c = self.fetch(env, &temps, &inst.src[0], 0b0001, line)?;
                    if c[0] == 0.0 {
                        pc = self.jumps[line] + 1;
                    }
                    continue;
                }
                _ => {}
            }
            let dst = inst
                .dst
                .ok_or_else(|| format!("line {line}: unsupported {}", inst.op.name))?;
            let value = self.compute(env, &temps, inst, dst.mask, line, semantics, &mut run)?;
            let value = if inst.saturate {
                value.map(|x| {
                    if x > 1.0 {
                        1.0
                    } else if x >= 0.0 {
                        x
                    } else {
                        0.0
                    }
                })
            } else {
                value
            };
            match dst.reg.file {
                RegFile::Temp => temps.write(dst.reg.index, dst.mask, value),
                RegFile::Out => outs.write(dst.reg.index, dst.mask, value),
                f => return Err(format!("line {line}: cannot write {f:?}")),
            }
        }
        for decl in &self.program.declarations {
            if decl.file != RegFile::Out {
                continue;
            }
            let (name, index) = decl.semantic.expect("outputs have semantics");
            let value = outs.full(decl.first);
            match name {
                "POSITION" => run.position = value,
                "COLOR" => run.color = value,
                "GENERIC" => match value {
                    Some(v) => {
                        run.varyings.insert(index, v);
                    }
                    None => run.undefined_varyings.push(index),
                },
                // gl_ClipVertex: the varying slot its register stands for (OUT[s+1]).
                "CLIPVERTEX" => {
                    let slot = decl.first.saturating_sub(1);
                    match value {
                        Some(v) => {
                            run.varyings.insert(slot, v);
                        }
                        None => run.undefined_varyings.push(slot),
                    }
                }
                other => return Err(format!("output semantic {other} is not supported")),
            }
        }
        Ok(run)
    }

    /// The value of one arithmetic or texture instruction (all four lanes).
    #[allow(clippy::too_many_arguments)]
    fn compute(
        &self,
        env: &Env,
        temps: &Regs,
        inst: &Instruction,
        mask: u8,
        line: usize,
        semantics: Semantics,
        run: &mut Run,
    ) -> Result<[f32; 4], String> {
        let name = inst.op.name;
        if inst.op.is_tex && !self.is_sampler_2d(inst) {
            return self.texture_gl33(env, temps, inst, line);
        }
        // Which source lanes reach the written lanes.
        let per_lane = mask;
        let scalar = if mask != 0 { 0b0001 } else { 0 };
        let needed = match name {
            "RCP" | "RSQ" | "SIN" | "COS" | "POW" | "EX2" | "LG2" => scalar,
            "DP2" => {
                if mask != 0 {
                    0b0011
                } else {
                    0
                }
            }
            "DP3" => {
                if mask != 0 {
                    0b0111
                } else {
                    0
                }
            }
            "DP4" => {
                if mask != 0 {
                    0b1111
                } else {
                    0
                }
            }
            "TEX" | "TXD" => 0b0011,
            "TXQ" => 0b0001,
            "TXF" | "TXL" | "TXB" => 0b1011,
            _ => per_lane,
        };
        let mut s = Vec::with_capacity(inst.src.len());
        for src in &inst.src {
            if src.reg.file == RegFile::Samp {
                continue;
            }
            s.push(self.fetch(env, temps, src, needed, line)?);
        }
        let lanewise = |f: &dyn Fn(usize) -> f32| [f(0), f(1), f(2), f(3)];
        let bool_f = |b: bool| if b { 1.0 } else { 0.0 };
        // Both definitions of one lane of an operation whose back ends may differ.
        let candidate = |inputs, tgsi, csir| Divergence {
            line,
            opcode: inst.op.name,
            inputs,
            tgsi,
            csir,
        };
        let value = match name {
            "MOV" => s[0],
            "ABS" => s[0].map(f32::abs),
            // One invocation is its own 2×2 quad (as `Machine::run` defines it), so a
            // fine derivative is the operand minus itself: 0, or NaN for ±inf and NaN.
            "DDX" | "DDY" => {
                let (pixel, neighbour) = (s[0], s[0]);
                lanewise(&|i| neighbour[i] - pixel[i])
            }
            "ADD" => lanewise(&|i| s[0][i] + s[1][i]),
            "SUB" => lanewise(&|i| s[0][i] - s[1][i]),
            "MUL" => lanewise(&|i| s[0][i] * s[1][i]),
            // tgsi.rst: component-wise src0 / src1, IEEE division.
            "DIV" => lanewise(&|i| s[0][i] / s[1][i]),
            "MAD" => lanewise(&|i| s[0][i] * s[1][i] + s[2][i]),
            "TRUNC" => s[0].map(f32::trunc),
            "SLT" => lanewise(&|i| bool_f(s[0][i] < s[1][i])),
            "SGE" => lanewise(&|i| bool_f(s[0][i] >= s[1][i])),
            "SEQ" => lanewise(&|i| bool_f(s[0][i] == s[1][i])),
            "SNE" => lanewise(&|i| bool_f(s[0][i] != s[1][i])),
            "SGT" => lanewise(&|i| bool_f(s[0][i] > s[1][i])),
            "SLE" => lanewise(&|i| bool_f(s[0][i] <= s[1][i])),
            "CMP" => lanewise(&|i| if s[0][i] < 0.0 { s[1][i] } else { s[2][i] }),
            "DP2" | "DP3" | "DP4" => {
                let n = match name {
                    "DP2" => 2,
                    "DP3" => 3,
                    _ => 4,
                };
                let mut sum = s[0][0] * s[1][0];
                for (x, y) in s[0].iter().zip(&s[1]).take(n).skip(1) {
                    sum += x * y;
                }
                [sum; 4]
            }
            "MIN" | "MAX" => {
                let mut v = [0.0; 4];
                for (i, lane) in v.iter_mut().enumerate() {
                    let (a, b) = (s[0][i], s[1][i]);
                    let (tgsi, csir) = if name == "MIN" {
                        (nan_ignoring(a, b, math::min::<f32>), self.min_max.min(a, b))
                    } else {
                        (nan_ignoring(a, b, math::max::<f32>), self.min_max.max(a, b))
                    };
                    let d = candidate([a, b], tgsi, csir);
                    *lane = self.settle(d, semantics, mask & (1 << i) != 0, run);
                }
                v
            }
            "RCP" | "RSQ" => {
                let x = s[0][0];
                let d = if name == "RCP" {
                    candidate([x, 0.0], 1.0 / x, math::rcp(x))
                } else {
                    candidate([x, 0.0], 1.0 / x.sqrt(), math::rsq(x))
                };
                [self.settle(d, semantics, mask != 0, run); 4]
            }
            "SIN" | "COS" | "POW" | "LG2" | "EX2" => {
                let (x, y) = (s[0][0], s.get(1).map_or(0.0, |v| v[0]));
                let d = match name {
                    "SIN" => candidate([x, y], x.sin(), math::sin(x)),
                    "COS" => candidate([x, y], x.cos(), math::cos(x)),
                    "LG2" => candidate([x, y], x.log2(), math::lg2(x)),
                    "EX2" => candidate([x, y], x.exp2(), math::ex2(x)),
                    _ => candidate([x, y], tgsi_pow(x, y), math::pow(x, y)),
                };
                [self.transcendental(d, semantics, mask != 0, run); 4]
            }
            // With a texture offset (tgsi.rst: integer texel offsets in the offset
            // register's x and y), the sampler adds it to the integer texel
            // coordinates before wrapping: `Samplers::sample_offset`.
            "TEX" => {
                let samp = inst.src[1].reg.index as usize;
                match &inst.tex_offset {
                    None => env.samplers.sample(samp, s[0][0], s[0][1]),
                    Some(offset) => {
                        let o = self.fetch(env, temps, offset, 0b0011, line)?;
                        let offset = [o[0].to_bits() as i32, o[1].to_bits() as i32];
                        env.samplers.sample_offset(samp, s[0][0], s[0][1], offset)
                    }
                }
            }
            // tgsi.rst: TXL samples at src.xy at the level of detail src.w, TXB with
            // the bias src.w added to the implicit level of detail (which is 0 here:
            // this executor runs one pixel, with no derivatives), TXD at the level of
            // detail of the gradients src1.xy (d/dx) and src2.xy (d/dy); all three
            // take a texture offset as TEX does.
            "TXL" | "TXB" | "TXD" => {
                let samp = inst.src[inst.src.len() - 1].reg.index as usize;
                let offset = match &inst.tex_offset {
                    None => [0, 0],
                    Some(offset) => {
                        let o = self.fetch(env, temps, offset, 0b0011, line)?;
                        [o[0].to_bits() as i32, o[1].to_bits() as i32]
                    }
                };
                let (x, y) = (s[0][0], s[0][1]);
                if name == "TXD" {
                    let gradients = [s[1][0], s[1][1], s[2][0], s[2][1]];
                    env.samplers.sample_grad(samp, x, y, gradients, offset)
                } else {
                    env.samplers.sample_lod(samp, x, y, s[0][3], offset)
                }
            }
            // tgsi.rst: the size of level src.x (an integer) of the sampler's texture,
            // as integers: each side max(1, side >> level). llvmpipe reports 0 by 0
            // for a level the texture does not have.
            "TXQ" => {
                let samp = inst.src[1].reg.index as usize;
                let level = s[0][0].to_bits();
                let [w, h] = if level < env.samplers.levels(samp) {
                    csir::exec::level_size(env.samplers.size(samp), level)
                } else {
                    [0, 0]
                };
                [f32::from_bits(w), f32::from_bits(h), 0.0, 0.0]
            }
            // tgsi.rst: the texel at integer index src.xy of level src.w, unfiltered.
            // Written here from llvmpipe's behaviour: a level the texture lacks and an
            // index outside the level give (0, 0, 0, 0).
            "TXF" => {
                let samp = inst.src[1].reg.index as usize;
                let [x, y, lod] = [0, 1, 3].map(|i| s[0][i].to_bits() as i32);
                let levels = env.samplers.levels(samp) as i32;
                let size = csir::exec::level_size(env.samplers.size(samp), lod as u32);
                let [w, h] = size.map(|n| n as i32);
                if (0..levels).contains(&lod) && (0..w).contains(&x) && (0..h).contains(&y) {
                    env.samplers
                        .level_texel(samp, lod as u32, x as u32, y as u32)
                } else {
                    [0.0; 4]
                }
            }
            // TGSI's integer instructions (tgsi.rst), written here from its text and
            // llvmpipe's choices where it leaves a case undefined (division by zero,
            // F2I/F2U out of range), independently of `csir::exec::math::int`.
            _ if integer(name, 0, 0).is_some() => {
                let bits = |k: usize, i: usize| s.get(k).map_or(0, |v: &[f32; 4]| v[i].to_bits());
                lanewise(&|i| f32::from_bits(integer(name, bits(0, i), bits(1, i)).unwrap_or(0)))
            }
            other => {
                return Err(format!(
                    "line {line}: {other} is not executed by this test executor"
                ));
            }
        };
        Ok(value)
    }

    /// Whether a texture instruction samples a `2D`, `FLOAT` view (a `sampler2D`,
    /// whose lookups are CSIR's SAMPLE family); other views are the TEX family's.
    fn is_sampler_2d(&self, inst: &Instruction) -> bool {
        let Some(samp) = inst.src.last() else {
            return true;
        };
        let sview = self
            .program
            .declaration(RegFile::Sview, None, samp.reg.index)
            .and_then(|d| d.sview.clone());
        matches!(sview, Some(("2D", types)) if types == ["FLOAT"])
            && !matches!(inst.op.name, "TXB2" | "TXL2")
    }

    /// A texture instruction on a view of another target or return type, from
    /// tgsi.rst's definitions, written here independently of the emitter: the
    /// coordinate lanes of the target (`1D`: x; `2D`, `RECT`: xy; `3D`, `CUBE`: xyz;
    /// `1D_ARRAY`: x and the layer in y; `2D_ARRAY`: xy and the layer in z; the
    /// `SHADOW` forms with the reference in z, or in w for `SHADOWCUBE` and
    /// `SHADOW2D_ARRAY`), the level of detail in `src0.w` (TXB, TXL, TXF) or `src1.x`
    /// (TXB2, TXL2), TXD's gradients in `src1.xy` and `src2.xy`, TXQ's level in
    /// `src0.x`, and the texel offset register's xyz. A shadow lookup's result is the
    /// comparison in every lane (virglrenderer's `vec4(texture(...))`); a lone
    /// invocation's implicit λ is 0.
    fn texture_gl33(
        &self,
        env: &Env,
        temps: &Regs,
        inst: &Instruction,
        line: usize,
    ) -> Result<[f32; 4], String> {
        let target = inst
            .target
            .ok_or(format!("line {line}: no texture target"))?;
        let (coords, reference): (u8, Option<u8>) = match target {
            "1D" | "BUFFER" => (1, None),
            "2D" | "RECT" | "1D_ARRAY" => (2, None),
            "3D" | "CUBE" | "2D_ARRAY" => (3, None),
            "SHADOW1D" => (1, Some(2)),
            "SHADOW2D" | "SHADOWRECT" | "SHADOW1D_ARRAY" => (2, Some(2)),
            "SHADOW2D_ARRAY" | "SHADOWCUBE" => (3, Some(3)),
            other => return Err(format!("line {line}: target {other} is not executed")),
        };
        let coord_mask = ((1u8 << coords) - 1) | reference.map_or(0, |r| 1 << r);
        let samp = inst.src.last().expect("a texture instruction").reg.index as usize;
        let offset = match &inst.tex_offset {
            None => [0; 3],
            Some(o) => {
                let o = self.fetch(env, temps, o, 0b0111, line)?;
                [0, 1, 2].map(|i| o[i].to_bits() as i32 as i8)
            }
        };
        let masked = |v: [f32; 4], mask: u8| {
            let mut out = [0.0; 4];
            for (lane, x) in out.iter_mut().enumerate() {
                if mask & (1 << lane) != 0 {
                    *x = v[lane];
                }
            }
            out
        };
        let name = inst.op.name;
        let lookup = |coord: [f32; 4], lod: TexLod| {
            let v = env
                .samplers
                .lookup(samp, &TexRequest { coord, lod, offset });
            if reference.is_some() { [v[0]; 4] } else { v }
        };
        let src0 = |mask: u8| self.fetch(env, temps, &inst.src[0], mask, line);
        Ok(match name {
            "TEX" => lookup(masked(src0(coord_mask)?, coord_mask), TexLod::Level(0.0)),
            "TXB" | "TXL" => {
                let s = src0(coord_mask | 0b1000)?;
                lookup(masked(s, coord_mask), TexLod::Level(s[3]))
            }
            "TXB2" | "TXL2" => {
                let s = src0(coord_mask)?;
                let lod = self.fetch(env, temps, &inst.src[1], 0b0001, line)?[0];
                lookup(masked(s, coord_mask), TexLod::Level(lod))
            }
            "TXD" => {
                let s = src0(coord_mask)?;
                let ddx = self.fetch(env, temps, &inst.src[1], 0b0011, line)?;
                let ddy = self.fetch(env, temps, &inst.src[2], 0b0011, line)?;
                let lod = TexLod::Derivatives {
                    dx: [ddx[0], ddx[1], 0.0],
                    dy: [ddy[0], ddy[1], 0.0],
                    bias: 0.0,
                };
                lookup(masked(s, coord_mask), lod)
            }
            "TXF" => {
                let buffer = target == "BUFFER";
                let mask = ((1u8 << coords) - 1) | if buffer { 0 } else { 0b1000 };
                let s = src0(mask)?;
                let int = |lane: usize| {
                    if lane < coords as usize {
                        (s[lane].to_bits() as i32).wrapping_add(i32::from(offset[lane]))
                    } else {
                        0
                    }
                };
                let level = if buffer { 0 } else { s[3].to_bits() as i32 };
                env.samplers.fetch(samp, [int(0), int(1), int(2)], level)
            }
            "TXQ" => {
                let level = src0(0b0001)?[0].to_bits() as i32;
                let size = env.samplers.size_of(samp, level);
                [size[0], size[1], size[2], 0].map(|v| f32::from_bits(v as u32))
            }
            other => return Err(format!("line {line}: {other} is not executed")),
        })
    }

    /// Pick TGSI's or CSIR's value of an operation whose definitions differ on
    /// exceptional inputs, recording a divergence where they differ.
    fn settle(&self, d: Divergence, semantics: Semantics, written: bool, run: &mut Run) -> f32 {
        match semantics {
            Semantics::Csir => d.csir,
            Semantics::Tgsi => {
                let tgsi = d.tgsi;
                if written && !same(d.tgsi, d.csir) {
                    run.divergences.push(d);
                }
                tgsi
            }
        }
    }

    /// SIN/COS/POW: where the platform's function and the shared math differ only by
    /// rounding, the distance is recorded and the interpreter's value carried on; POW
    /// outside GLSL's domain is an exceptional divergence; anything else is a
    /// precision failure.
    fn transcendental(
        &self,
        d: Divergence,
        semantics: Semantics,
        written: bool,
        run: &mut Run,
    ) -> f32 {
        let [x, y] = d.inputs;
        let (tgsi, csir) = (d.tgsi, d.csir);
        if semantics == Semantics::Csir || same(tgsi, csir) || !written {
            return csir;
        }
        if d.opcode == "POW" && (x < 0.0 || x == 0.0 && y <= 0.0) {
            return self.settle(d, semantics, written, run);
        }
        let close = tgsi.is_finite()
            && csir.is_finite()
            && (ulps(tgsi, csir) <= ROUNDING_LIMIT_ULPS
                || d.opcode != "POW" && (tgsi - csir).abs() <= TRIG_ABSOLUTE);
        if close {
            run.rounding.push((d.line, d.opcode, x, ulps(tgsi, csir)));
        } else {
            run.precision.push(d);
        }
        csir
    }
}

/// One lane of TGSI integer instruction `name` on bit patterns `a` (and `b`); `None`
/// for any other instruction. Comparisons give ~0 for true, as TGSI's do.
fn integer(name: &str, a: u32, b: u32) -> Option<u32> {
    let (sa, sb) = (a as i32, b as i32);
    let all = |c: bool| if c { u32::MAX } else { 0 };
    Some(match name {
        "UADD" => a.wrapping_add(b),
        "UMUL" => a.wrapping_mul(b),
        "IDIV" if b == 0 => 0,
        "IDIV" => sa.wrapping_div(sb) as u32,
        "UDIV" if b == 0 => u32::MAX,
        "UDIV" => a / b,
        "MOD" if b == 0 => u32::MAX,
        "MOD" => sa.wrapping_rem(sb) as u32,
        "UMOD" if b == 0 => u32::MAX,
        "UMOD" => a % b,
        "SHL" => a.wrapping_shl(b),
        "ISHR" => sa.wrapping_shr(b) as u32,
        "USHR" => a.wrapping_shr(b),
        "AND" => a & b,
        "OR" => a | b,
        "XOR" => a ^ b,
        "IMIN" => sa.min(sb) as u32,
        "IMAX" => sa.max(sb) as u32,
        "UMIN" => a.min(b),
        "UMAX" => a.max(b),
        "ISLT" => all(sa < sb),
        "ISGE" => all(sa >= sb),
        "USLT" => all(a < b),
        "USGE" => all(a >= b),
        "USEQ" => all(a == b),
        "USNE" => all(a != b),
        "NOT" => !a,
        "INEG" => sa.wrapping_neg() as u32,
        "IABS" => sa.wrapping_abs() as u32,
        "ISSG" => sa.signum() as u32,
        "I2F" => (sa as f32).to_bits(),
        "U2F" => (a as f32).to_bits(),
        "F2I" => f32::from_bits(a) as i32 as u32,
        "F2U" => f32::from_bits(a) as u32,
        _ => return None,
    })
}
