//! The scalar CSIR interpreter: the executable reference for CSIR semantics
//! (docs/csir.md "Software execution"; docs/csir-original.md B §4 with the A1/A2 fixes).
//!
//! A [`Machine`] is made once per shader (it verifies the shader and allocates the
//! temporary file and the IF stack) and then runs any number of invocations, one
//! vertex or one pixel each, without allocating. Each run starts from zeroed
//! temporaries and [`Outputs::INITIAL`], walks the instructions in order, skips the
//! branches whose IF condition is false, and stops after the last instruction or at
//! the first DISCARD.

use super::control::Branches;
use super::observer::{NoObserver, Observer, Step};
use super::{ExecError, Fault, Inputs, Outputs, alu, temps};
use crate::ir::{Ir, Op, Shader, ShaderInfo, VerifyError, verify};

/// A verified shader with its reusable registers. Create one per shader (and per
/// thread: [`Machine::run`] needs `&mut self`; `clone` is cheap), then call
/// [`Machine::run`] for every vertex or pixel.
#[derive(Clone, Debug)]
pub struct Machine<'s> {
    shader: &'s Shader,
    /// What the verifier returned for `shader`.
    info: ShaderInfo,
    temps: Vec<[f32; 4]>,
    branches: Branches,
}

impl<'s> Machine<'s> {
    /// Verify `shader` and allocate `shader.ntmp` temporaries and an IF stack of
    /// `shader.limits.if_depth` entries.
    ///
    /// Errors: the first rule `shader` breaks ([`verify`]); only verified shaders run.
    pub fn new(shader: &'s Shader) -> Result<Self, VerifyError> {
        let info = verify(shader)?;
        Ok(Machine {
            info,
            ..Machine::unverified(shader)
        })
    }

    /// Allocate without verifying (tests use it to reach the defensive checks); its
    /// [`Machine::info`] is empty.
    pub(crate) fn unverified(shader: &'s Shader) -> Self {
        Machine {
            shader,
            info: ShaderInfo::default(),
            temps: vec![[0.0; 4]; shader.ntmp as usize],
            branches: Branches::new(shader.limits.if_depth),
        }
    }

    /// The shader this machine runs.
    pub fn shader(&self) -> &'s Shader {
        self.shader
    }

    /// What the verifier found out about the shader (its IF/ELSE/ENDIF partners).
    pub fn info(&self) -> &ShaderInfo {
        &self.info
    }

    /// The temporary file as the last run left it (for debugging and tests).
    pub fn temps(&self) -> &[[f32; 4]] {
        &self.temps
    }

    /// Run one invocation: read `inputs`, reset and fill `outputs`.
    /// `outputs.discarded` tells whether a DISCARD stopped it.
    ///
    /// Errors: none for a verified shader (which [`Machine::new`] guarantees); the
    /// defensive checks of [`ExecError`] stop execution instead of panicking.
    #[inline]
    pub fn run(&mut self, inputs: &Inputs<'_>, outputs: &mut Outputs) -> Result<(), ExecError> {
        self.run_observed(inputs, outputs, &mut NoObserver)
    }

    /// [`Machine::run`], reporting every executed instruction and branch decision to
    /// `observer`.
    pub fn run_observed<O: Observer>(
        &mut self,
        inputs: &Inputs<'_>,
        outputs: &mut Outputs,
        observer: &mut O,
    ) -> Result<(), ExecError> {
        let shader = self.shader;
        self.temps.fill([0.0; 4]);
        self.branches.clear();
        *outputs = Outputs::INITIAL;
        for (index, ir) in shader.ir.iter().enumerate() {
            let fail = |fault| ExecError {
                index,
                op: ir.op,
                fault,
            };
            let op = ir.opcode().ok_or(fail(Fault::Opcode(ir.op)))?;
            match op {
                Op::If => {
                    let temps = &self.temps;
                    let taken = self
                        .branches
                        .open(|| Ok(temps::read(temps, ir.a as i32)?[0] != 0.0))
                        .map_err(fail)?;
                    if let Some(taken) = taken {
                        observer.branch(index, ir, taken);
                    }
                    continue;
                }
                Op::Else => {
                    if let Some(taken) = self.branches.flip().map_err(fail)? {
                        observer.branch(index, ir, taken);
                    }
                    continue;
                }
                Op::EndIf => {
                    self.branches.close().map_err(fail)?;
                    continue;
                }
                Op::Nop => continue,
                _ if self.branches.skipping() => continue,
                Op::Discard => outputs.discarded = true,
                _ => self.execute(op, ir, inputs, outputs).map_err(fail)?,
            }
            observer.step(Step {
                index,
                ir,
                temps: &self.temps,
                outputs,
            });
            if outputs.discarded {
                break;
            }
        }
        Ok(())
    }

    /// One instruction other than control flow and DISCARD.
    #[inline]
    fn execute(
        &mut self,
        op: Op,
        ir: &Ir,
        inputs: &Inputs<'_>,
        outputs: &mut Outputs,
    ) -> Result<(), Fault> {
        let temps = &mut self.temps;
        let (dst, a) = (ir.dst as i32, ir.a as i32);
        match op {
            Op::LoadAttr => *temps::write(temps, dst)? = inputs.attribute(slot(ir.aux)?),
            Op::LoadVar => *temps::write(temps, dst)? = inputs.varying(slot(ir.aux)?),
            Op::LoadFcoord => *temps::write(temps, dst)? = inputs.frag_coord,
            Op::LoadFace => temps::write(temps, dst)?[0] = f32::from(u8::from(inputs.front_facing)),
            Op::LoadUni => {
                let base = slot(ir.aux)?;
                let count = ir.aux2.max(1) as usize;
                temps::index(temps.len(), dst + count as i32 - 1)?;
                for k in 0..count {
                    *temps::write(temps, dst + k as i32)? = inputs.uniform(base + k);
                }
            }
            Op::Sample => {
                let coord = temps::read(temps, a)?;
                let value = inputs.samplers.sample(slot(ir.aux)?, coord[0], coord[1]);
                *temps::write(temps, dst)? = value;
            }
            Op::SampleOffset => {
                let coord = temps::read(temps, a)?;
                let offset = ir.texel_offset();
                let value =
                    inputs
                        .samplers
                        .sample_offset(slot(ir.aux)?, coord[0], coord[1], offset);
                *temps::write(temps, dst)? = value;
            }
            Op::SampleLod | Op::SampleBias => {
                // SAMPLE_BIAS's implicit level of detail is 0 until fragments run in
                // quads (op.rs), so its λ is the bias.
                let coord = temps::read(temps, a)?;
                let lod = temps::read(temps, ir.b as i32)?[0];
                let value = inputs.samplers.sample_lod(
                    slot(ir.aux)?,
                    coord[0],
                    coord[1],
                    lod,
                    ir.texel_offset(),
                );
                *temps::write(temps, dst)? = value;
            }
            Op::SampleGrad => {
                let coord = temps::read(temps, a)?;
                let gradients = temps::read(temps, ir.b as i32)?;
                let value = inputs.samplers.sample_grad(
                    slot(ir.aux)?,
                    coord[0],
                    coord[1],
                    gradients,
                    ir.texel_offset(),
                );
                *temps::write(temps, dst)? = value;
            }
            Op::TexSize => {
                let lod = temps::read(temps, a)?[0].to_bits();
                let size = super::texture_size(inputs.samplers, slot(ir.aux)?, lod);
                let d = temps::write(temps, dst)?;
                d[0] = f32::from_bits(size[0]);
                d[1] = f32::from_bits(size[1]);
            }
            Op::TexFetch => {
                let p = temps::read(temps, a)?;
                let lod = temps::read(temps, ir.b as i32)?[0].to_bits();
                let index = [p[0].to_bits(), p[1].to_bits()];
                let value = super::texel_fetch(inputs.samplers, slot(ir.aux)?, index, lod);
                *temps::write(temps, dst)? = value;
            }
            Op::StorePos => outputs.position = temps::read(temps, a)?,
            Op::StoreColor => outputs.color = temps::read(temps, a)?,
            Op::StoreVar => {
                let value = temps::read(temps, a)?;
                let target = outputs.varyings.get_mut(slot(ir.aux)?);
                *target.ok_or(Fault::Slot(ir.aux))? = value;
            }
            _ => alu::execute(op, ir, temps, &self.shader.imm)?,
        }
        Ok(())
    }
}

/// A slot field (`aux`) as an index; negative slots are a fault.
#[inline]
fn slot(aux: i16) -> Result<usize, Fault> {
    usize::try_from(aux).map_err(|_| Fault::Slot(aux))
}
