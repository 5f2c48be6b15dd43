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
use super::{Emitted, ExecError, Fault, Inputs, Outputs, PrimitiveInput, alu, temps};
use crate::ir::{Effect, Ir, Op, SECOND_SOURCE_AUX, Shader, ShaderInfo, VerifyError, verify};
use crate::sampler_type::TexLookup;

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
    /// Geometry stage: the running invocation's input primitive (owned copies) and
    /// emitted vertices.
    geometry: GeometryRun,
}

/// The geometry-stage state of a [`Machine`] during [`Machine::run_geometry`].
#[derive(Clone, Debug, Default)]
struct GeometryRun {
    positions: Vec<[f32; 4]>,
    varyings: Vec<[f32; 4]>,
    stride: usize,
    primitive_id: u32,
    emitted: Emitted,
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
            geometry: GeometryRun::default(),
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
        self.start(outputs);
        for (index, ir) in self.shader.ir.iter().enumerate() {
            self.instruction(index, ir, inputs, outputs, None, observer)?;
            if outputs.discarded {
                break;
            }
        }
        Ok(())
    }

    /// Run one geometry-stage invocation on `primitive` (a geometry shader only; in
    /// another stage LOAD_VTX cannot appear and nothing is emitted): read `inputs`
    /// (uniforms, samplers) and the primitive's vertices, and replace `emitted` with
    /// the vertices EMIT appended, grouped into complete strips (module
    /// [`geometry`](super::geometry)); `outputs` ends as the last values stored.
    ///
    /// Errors: as [`Machine::run`].
    pub fn run_geometry(
        &mut self,
        inputs: &Inputs<'_>,
        primitive: &PrimitiveInput<'_>,
        outputs: &mut Outputs,
        emitted: &mut Emitted,
    ) -> Result<(), ExecError> {
        self.run_geometry_observed(inputs, primitive, outputs, emitted, &mut NoObserver)
    }

    /// [`Machine::run_geometry`], reporting every executed instruction and branch
    /// decision to `observer`.
    pub fn run_geometry_observed<O: Observer>(
        &mut self,
        inputs: &Inputs<'_>,
        primitive: &PrimitiveInput<'_>,
        outputs: &mut Outputs,
        emitted: &mut Emitted,
        observer: &mut O,
    ) -> Result<(), ExecError> {
        let g = &mut self.geometry;
        g.positions.clear();
        g.positions.extend_from_slice(primitive.positions);
        g.varyings.clear();
        g.varyings.extend_from_slice(primitive.varyings);
        g.stride = primitive.stride;
        g.primitive_id = primitive.primitive_id;
        std::mem::swap(&mut g.emitted, emitted);
        g.emitted.clear();
        g.emitted.stride = (self.shader.interface.var_hi.max(-1) + 1) as usize;
        let result = self.run_observed(inputs, outputs, observer);
        if let Some(layout) = &self.shader.interface.geometry {
            self.geometry.emitted.end_primitive(layout);
        }
        std::mem::swap(&mut self.geometry.emitted, emitted);
        result
    }

    /// Zero the temporaries, close every IF and reset `outputs`: the state every
    /// invocation starts from.
    fn start(&mut self, outputs: &mut Outputs) {
        self.temps.fill([0.0; 4]);
        self.branches.clear();
        *outputs = Outputs::INITIAL;
    }

    /// Run instruction `index` (`ir`) for this invocation, unless a branch skips it.
    /// `quad` is operand `a` of the quad's four invocations for a derivative (DDX,
    /// DDY), read before any of them wrote; `None` for a lone invocation, whose quad
    /// is four copies of itself.
    fn instruction<O: Observer>(
        &mut self,
        index: usize,
        ir: &Ir,
        inputs: &Inputs<'_>,
        outputs: &mut Outputs,
        quad: Option<&QuadOperand>,
        observer: &mut O,
    ) -> Result<(), ExecError> {
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
                return Ok(());
            }
            Op::Else => {
                if let Some(taken) = self.branches.flip().map_err(fail)? {
                    observer.branch(index, ir, taken);
                }
                return Ok(());
            }
            Op::EndIf => {
                self.branches.close().map_err(fail)?;
                return Ok(());
            }
            Op::Nop => return Ok(()),
            _ if self.branches.skipping() => return Ok(()),
            Op::Discard => outputs.discarded = true,
            Op::Ddx | Op::Ddy => {
                let own;
                let quad = match quad {
                    Some(q) => q,
                    None => {
                        own = QuadOperand::alone(
                            temps::read(&self.temps, ir.a as i32).map_err(fail)?,
                        );
                        &own
                    }
                };
                let n = ir.ncomp_lanes(4) as usize;
                let d = temps::write(&mut self.temps, ir.dst as i32).map_err(fail)?;
                d[..n].copy_from_slice(&quad.derivative(op)[..n]);
            }
            Op::Tex => {
                let lookup = TexLookup::decode(ir.aux2).ok_or(fail(Fault::Slot(ir.aux2)))?;
                let a = temps::read(&self.temps, ir.a as i32).map_err(fail)?;
                let b = temps::read(&self.temps, ir.b as i32).map_err(fail)?;
                let b_next = if lookup.mode.b_temps() == 2 {
                    temps::read(&self.temps, ir.b as i32 + 1).map_err(fail)?
                } else {
                    b
                };
                let slot = slot(ir.aux).map_err(fail)?;
                let value = super::tex_lane(
                    inputs.samplers,
                    slot,
                    lookup,
                    a,
                    [b, b_next],
                    quad.map(|q| &q.values),
                );
                *temps::write(&mut self.temps, ir.dst as i32).map_err(fail)? = value;
            }
            _ if quad.is_some() && ir.info().is_some_and(|i| i.implicit_lod) => {
                let quad = quad.expect("checked");
                let bias = match op {
                    Op::SampleBias => temps::read(&self.temps, ir.b as i32).map_err(fail)?[0],
                    _ => 0.0,
                };
                let offset = match op {
                    Op::Sample => [0, 0],
                    _ => ir.texel_offset(),
                };
                let value = quad.sample(inputs, slot(ir.aux).map_err(fail)?, bias, offset);
                *temps::write(&mut self.temps, ir.dst as i32).map_err(fail)? = value;
            }
            _ => self.execute(op, ir, inputs, outputs).map_err(fail)?,
        }
        observer.step(Step {
            index,
            ir,
            temps: &self.temps,
            outputs,
        });
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
                // A lone invocation's implicit level of detail is 0 (op.rs), so
                // SAMPLE_BIAS's λ is the bias; in a quad, `QuadOperand::sample`.
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
            Op::LoadVtx => {
                let g = &self.geometry;
                let input = PrimitiveInput {
                    positions: &g.positions,
                    varyings: &g.varyings,
                    stride: g.stride,
                    primitive_id: g.primitive_id,
                };
                *temps::write(temps, dst)? = input.load(ir.aux2 as usize, ir.aux);
            }
            Op::LoadPrimId => {
                temps::write(temps, dst)?[0] = f32::from_bits(self.geometry.primitive_id);
            }
            Op::Emit => {
                if let Some(layout) = &self.shader.interface.geometry {
                    self.geometry
                        .emitted
                        .emit(layout, outputs.position, &outputs.varyings);
                }
            }
            Op::EndPrim => {
                if let Some(layout) = &self.shader.interface.geometry {
                    self.geometry.emitted.end_primitive(layout);
                }
            }
            Op::StorePos => outputs.position = temps::read(temps, a)?,
            // `outputs.color` is draw buffer 0's (docs/csir.md "Interface stores").
            Op::StoreColor if ir.aux == 0 => outputs.color = temps::read(temps, a)?,
            Op::StoreColor if ir.aux == SECOND_SOURCE_AUX => {
                outputs.color1 = temps::read(temps, a)?;
            }
            Op::StoreColor => {}
            Op::StoreVar => {
                let value = temps::read(temps, a)?;
                let target = outputs.varyings.get_mut(slot(ir.aux)?);
                *target.ok_or(Fault::Slot(ir.aux))? = value;
            }
            _ => alu::execute(op, ir, temps, &self.shader.imm, self.shader.limits.profile)?,
        }
        Ok(())
    }
}

/// A slot field (`aux`) as an index; negative slots are a fault.
#[inline]
fn slot(aux: i16) -> Result<usize, Fault> {
    usize::try_from(aux).map_err(|_| Fault::Slot(aux))
}

/// Operand `a` of a derivative (DDX, DDY) in the four invocations of one quad, in the
/// quad's lane order ([`QUAD_LANES`](super::QUAD_LANES)), and which of them is running
/// the instruction.
#[derive(Clone, Copy, Debug)]
struct QuadOperand {
    values: [[f32; 4]; 4],
    /// The lane being computed.
    lane: usize,
}

impl QuadOperand {
    /// A lone invocation: its quad is four copies of it.
    fn alone(value: [f32; 4]) -> Self {
        QuadOperand {
            values: [value; 4],
            lane: 0,
        }
    }

    /// An implicit-LOD lookup (SAMPLE, SAMPLE_OFFSET, SAMPLE_BIAS) for `self.lane`,
    /// the operand being the coordinate: λ from the quad's coarse gradients
    /// ([`lod_gradients`](super::quad::lod_gradients)) plus `bias`.
    fn sample(&self, inputs: &Inputs<'_>, slot: usize, bias: f32, offset: [i32; 2]) -> [f32; 4] {
        let gradients =
            super::quad::lod_gradients(self.values.map(|v| v[0]), self.values.map(|v| v[1]));
        let [s, t, ..] = self.values[self.lane];
        super::quad::sample_in_quad(inputs.samplers, slot, [s, t], gradients, bias, offset)
    }

    /// DDX or DDY of the operand for `self.lane`, all four components.
    fn derivative(&self, op: Op) -> [f32; 4] {
        let (hi, lo) = super::quad::pair(op, self.lane);
        std::array::from_fn(|c| super::quad::difference(self.values[hi][c], self.values[lo][c]))
    }
}

/// The four invocations of one 2×2 fragment quad, run in lock step: the scalar
/// definition of what DDX and DDY compute (docs/csir.md "Derivatives").
///
/// Lane `k` of the quad is the pixel of [`QUAD_LANES`](super::QUAD_LANES)`[k]`. Every
/// instruction runs for lane 0, 1, 2, 3 in turn before the next instruction starts,
/// each lane with its own temporaries and IF stack (a lane in a skipped branch does
/// not run it, but its temporaries stay readable by its neighbours' derivatives).
/// DISCARD marks a lane's outputs discarded without stopping it (it keeps computing
/// values its neighbours' derivatives read, as llvmpipe's lanes do); a discarded
/// lane's colour output is unspecified. The caller decides which lanes are helper
/// invocations: they run like any other, and it ignores their outputs.
#[derive(Clone, Debug)]
pub struct QuadMachine<'s> {
    lanes: [Machine<'s>; 4],
}

impl<'s> QuadMachine<'s> {
    /// Verify `shader` and allocate four invocations' registers.
    ///
    /// Errors: the first rule `shader` breaks ([`verify`]).
    pub fn new(shader: &'s Shader) -> Result<Self, VerifyError> {
        let machine = Machine::new(shader)?;
        Ok(QuadMachine {
            lanes: [machine.clone(), machine.clone(), machine.clone(), machine],
        })
    }

    /// What the verifier found out about the shader (its IF/ELSE/ENDIF partners).
    pub fn info(&self) -> &ShaderInfo {
        self.lanes[0].info()
    }

    /// The shader this quad runs.
    pub fn shader(&self) -> &'s Shader {
        self.lanes[0].shader
    }

    /// Lane `k`'s temporaries as the last run left them.
    pub fn temps(&self, lane: usize) -> &[[f32; 4]] {
        self.lanes[lane].temps()
    }

    /// Run the quad: lane `k` reads `inputs[k]` and fills `outputs[k]`.
    ///
    /// Errors: as [`Machine::run`], for the first lane that faults.
    pub fn run(
        &mut self,
        inputs: &[Inputs<'_>; 4],
        outputs: &mut [Outputs; 4],
    ) -> Result<(), ExecError> {
        self.run_observed(inputs, outputs, 0, &mut NoObserver)
    }

    /// [`QuadMachine::run`], reporting lane `watched`'s instructions and branch
    /// decisions to `observer`.
    pub fn run_observed<O: Observer>(
        &mut self,
        inputs: &[Inputs<'_>; 4],
        outputs: &mut [Outputs; 4],
        watched: usize,
        observer: &mut O,
    ) -> Result<(), ExecError> {
        for (lane, out) in self.lanes.iter_mut().zip(outputs.iter_mut()) {
            lane.start(out);
        }
        let shader = self.lanes[0].shader;
        for (index, ir) in shader.ir.iter().enumerate() {
            let mut quad = None;
            if ir
                .info()
                .is_some_and(|i| i.effect == Effect::Derivative || i.implicit_lod)
            {
                let mut values = [[0.0; 4]; 4];
                for (v, lane) in values.iter_mut().zip(&self.lanes) {
                    *v = temps::read(&lane.temps, ir.a as i32).map_err(|fault| ExecError {
                        index,
                        op: ir.op,
                        fault,
                    })?;
                }
                quad = Some(QuadOperand { values, lane: 0 });
            }
            for (k, (lane, out)) in self.lanes.iter_mut().zip(outputs.iter_mut()).enumerate() {
                let quad = quad.map(|q| QuadOperand { lane: k, ..q });
                if k == watched {
                    lane.instruction(index, ir, &inputs[k], out, quad.as_ref(), observer)?;
                } else {
                    lane.instruction(index, ir, &inputs[k], out, quad.as_ref(), &mut NoObserver)?;
                }
            }
        }
        Ok(())
    }
}
