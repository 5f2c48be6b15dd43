//! The fragment program as a [`csir_raster::FragmentStage`].

use csir::Program;
use csir::exec::Samplers;
use csir::exec::batch::{BoundPlan, FragmentLanes, Plan, Registers};
use csir_raster::{FragmentBatch, FragmentOutput, FragmentStage, LaneArray, MAX_LANES, Triangle};
use std::borrow::Cow;
use std::ops::Range;

/// Runs a linked program's fragment shader through the SIMD batch interpreter
/// ([`csir::exec::batch`]): the shader is bound to the draw's uniforms once, then each
/// batch of up to 64 fragments is shaded in one pass (same bits per fragment as the
/// scalar interpreter).
///
/// Varyings arrive from [`CsirVertexStage`](super::CsirVertexStage) laid out by
/// fragment slot and are interpolated perspective-correctly by the rasterizer's
/// barycentrics; `gl_FragCoord` is the batch's (window-space pixel centre, depth in
/// [0, 1], 1/w).
pub struct CsirFragmentStage<'a> {
    draw: Cow<'a, BoundPlan>,
    samplers: &'a dyn Samplers,
    /// Varying components the shader can read (fragment slots × 4).
    components: usize,
    /// Where the shader reads `gl_PrimitiveID` (the component, GLSL 1.50 §7.1) and
    /// whether as a 32-bit pattern (extended profile) or a float (seed).
    primitive_id: Option<(usize, bool)>,
}

impl<'a> CsirFragmentStage<'a> {
    /// The fragment stage of `program` with this stage's uniform slots and textures
    /// (decodes and binds the shader: [`plan`](Self::plan) and [`bound`](Self::bound)
    /// do that once for many frames).
    pub fn new(program: &'a Program, uniforms: &'a [[f32; 4]], samplers: &'a dyn Samplers) -> Self {
        let draw = Self::plan(program).bind_lod(uniforms, &[], samplers.needs_lod());
        CsirFragmentStage {
            draw: Cow::Owned(draw),
            samplers,
            components: Self::components(program),
            primitive_id: primitive_id_component(program),
        }
    }

    /// The batch plan of `program`'s fragment shader (made once per program; bind it
    /// to a draw's uniforms with [`Plan::bind`], passing no varying remap).
    pub fn plan(program: &Program) -> Plan {
        Plan::new(&program.fragment)
            .expect("csir::compile and Program::link only give verified fragment shaders")
    }

    /// The fragment stage of `program` running `draw`, its [`plan`](Self::plan) bound
    /// to this stage's uniform slots, with these textures.
    pub fn bound(program: &Program, draw: &'a BoundPlan, samplers: &'a dyn Samplers) -> Self {
        CsirFragmentStage {
            draw: Cow::Borrowed(draw),
            samplers,
            components: Self::components(program),
            primitive_id: primitive_id_component(program),
        }
    }

    /// Varying components the fragment shader can read.
    fn components(program: &Program) -> usize {
        let slots = (program.fragment.interface.var_hi + 1).max(0) as usize;
        slots * 4
    }
}

/// The varying component where `program`'s fragment shader reads `gl_PrimitiveID`,
/// and whether its lanes hold 32-bit patterns.
fn primitive_id_component(program: &Program) -> Option<(usize, bool)> {
    primitive_id_input(&program.fragment)
}

/// The varying component where the fragment shader `fragment` reads `gl_PrimitiveID`
/// (4 × its slot), and whether its lanes hold 32-bit patterns (the extended profile);
/// what the pipeline and `trace`'s re-run write the primitive index into.
pub(crate) fn primitive_id_input(fragment: &csir::Shader) -> Option<(usize, bool)> {
    let slot = fragment
        .interface
        .symbols
        .iter()
        .find_map(|s| match s.kind {
            csir::ir::SymbolKind::VaryingIn { slot } if s.name == "gl_PrimitiveID" => Some(slot),
            _ => None,
        })?;
    Some((4 * usize::from(slot), fragment.limits.extended_ops()))
}

impl CsirFragmentStage<'_> {
    /// Writes `triangle`'s primitive index into the `gl_PrimitiveID` component of
    /// `lanes` (a shader that does not read it costs one check per batch).
    #[inline]
    fn write_primitive_id(
        &self,
        scratch: &mut FragmentScratch,
        primitive: u32,
        lanes: Range<usize>,
    ) {
        if let Some((k, pattern)) = self.primitive_id
            && let Some(a) = scratch.interpolated.get_mut(k)
        {
            let value = if pattern {
                f32::from_bits(primitive)
            } else {
                primitive as f32
            };
            a[lanes].fill(value);
        }
    }

    /// Runs the bound shader on `lanes` into `out`'s colour, and its second source
    /// colour (`layout(location = 0, index = 1)`, dual-source blending) into
    /// `out.color1` when it declares one; returns the discarded lanes.
    #[inline]
    fn run(
        &self,
        registers: &mut Registers,
        lanes: &FragmentLanes<'_>,
        out: &mut FragmentOutput,
    ) -> u64 {
        if self.draw.has_second_color() {
            self.draw
                .run_dual(registers, lanes, &mut out.color, &mut out.color1)
        } else {
            self.draw.run(registers, lanes, &mut out.color)
        }
    }
}

/// Per-thread state of [`CsirFragmentStage`]: the batch registers and the
/// interpolated varyings, one lane array per component.
pub struct FragmentScratch {
    registers: Registers,
    interpolated: Vec<LaneArray>,
}

impl FragmentStage for CsirFragmentStage<'_> {
    type Scratch = FragmentScratch;

    fn new_scratch(&self) -> FragmentScratch {
        FragmentScratch {
            registers: self.draw.registers(),
            interpolated: vec![[0.0; MAX_LANES]; self.components],
        }
    }

    fn may_discard(&self) -> bool {
        self.draw.may_discard()
    }

    /// The shader takes derivatives (DDX, DDY): its batches come in 2×2 quads, in the
    /// lane order both interpreters use ([`csir::exec::QUAD_LANES`]).
    fn needs_quads(&self) -> bool {
        self.draw.needs_quads()
    }

    /// Only when the bound shader loads `gl_FragCoord`.
    fn reads_frag_coord(&self) -> bool {
        self.draw.reads_frag_coord()
    }

    /// Never directly: varyings go through `Triangle::interpolate_selected`.
    fn reads_screen_barycentric(&self) -> bool {
        false
    }

    fn shades_several_triangles(&self) -> bool {
        true
    }

    fn interpolate_lanes(
        &self,
        scratch: &mut FragmentScratch,
        triangle: &Triangle<'_>,
        batch: &FragmentBatch,
        lanes: Range<usize>,
    ) {
        let count = triangle.varying_count().min(scratch.interpolated.len());
        let read = self.draw.varyings_read();
        triangle.interpolate_selected_lanes(
            batch,
            read,
            &mut scratch.interpolated[..count],
            lanes.clone(),
        );
        self.write_primitive_id(scratch, triangle.primitive, lanes);
    }

    /// The padding lanes get the last lane's varyings: what interpolating the last
    /// triangle at the copied pixel gives.
    fn shade_interpolated(
        &self,
        scratch: &mut FragmentScratch,
        front_facing: bool,
        batch: &FragmentBatch,
        out: &mut FragmentOutput,
    ) {
        let (len, padded) = (batch.len, batch.padded_len());
        if len == 0 {
            return;
        }
        let read = self.draw.varyings_read();
        for (k, a) in scratch.interpolated.iter_mut().enumerate() {
            if k < 64 && read & (1 << k) != 0 {
                let last = a[len - 1];
                a[len..padded].fill(last);
            }
        }
        let lanes = FragmentLanes {
            len,
            frag_coord: &batch.frag_coord,
            front_facing,
            varyings: &scratch.interpolated,
            samplers: self.samplers,
        };
        out.discard.0 |= self.run(&mut scratch.registers, &lanes, out);
    }

    fn shade(
        &self,
        scratch: &mut FragmentScratch,
        triangle: &Triangle<'_>,
        batch: &FragmentBatch,
        out: &mut FragmentOutput,
    ) {
        let count = triangle.varying_count().min(scratch.interpolated.len());
        // Only the components the bound shader loads (the rest are never read).
        let read = self.draw.varyings_read();
        triangle.interpolate_selected(batch, read, &mut scratch.interpolated[..count]);
        self.write_primitive_id(scratch, triangle.primitive, 0..batch.padded_len());
        let lanes = FragmentLanes {
            len: batch.len,
            frag_coord: &batch.frag_coord,
            front_facing: triangle.front_facing,
            varyings: &scratch.interpolated,
            samplers: self.samplers,
        };
        out.discard.0 |= self.run(&mut scratch.registers, &lanes, out);
    }
}
