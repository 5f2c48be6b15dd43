//! The per-fragment sample masks of GL 3.3 §4.1.3 ("Multisample Fragment
//! Operations"): `SAMPLE_ALPHA_TO_COVERAGE` and `SAMPLE_COVERAGE`, as llvmpipe and
//! Mesa's state tracker compute them.

use std::ops::Range;

use super::pattern::SAMPLE_COUNT;
use crate::batch::{FragmentBatch, FragmentOutput};
use crate::stage::{FragmentStage, Triangle};

/// The samples `alpha_to_coverage` keeps for a fragment of alpha `alpha` (output 0's):
/// bit `s` is set when `alpha > s / 4` (llvmpipe's `lp_build_sample_alpha_to_coverage`,
/// Mesa 22.3: no dithering), so alpha 0 keeps none, (0, 0.25] one, …, above 0.75 all
/// four. NaN keeps none.
pub fn alpha_coverage_mask(alpha: f32) -> u32 {
    (0..SAMPLE_COUNT)
        .filter(|&s| alpha > s as f32 / SAMPLE_COUNT as f32)
        .fold(0, |m, s| m | 1 << s)
}

/// The samples `glSampleCoverage(value, invert)` keeps (Mesa's state tracker,
/// `st_update_sample_state`): the lowest `⌊value · 4⌋` samples (value clamped to
/// [0, 1] as GL clamps it), or the others when `invert`.
pub fn sample_coverage_mask(value: f32, invert: bool) -> u32 {
    let bits = (value.clamp(0.0, 1.0) * SAMPLE_COUNT as f32) as u32;
    let mask = (1u32 << bits) - 1;
    let all = (1u32 << SAMPLE_COUNT) - 1;
    if invert { !mask & all } else { mask }
}

/// A fragment stage for one sample's pass of a multisampled draw with
/// `alpha_to_coverage`: the inner stage's fragments whose alpha does not keep the
/// sample ([`alpha_coverage_mask`]) are dropped as a discard drops them (before the
/// depth and stencil writes, which wait for the shader: [`FragmentStage::may_discard`]
/// is true). Everything else is the inner stage's.
#[derive(Debug)]
pub struct SampleMaskStage<'a, F> {
    inner: &'a F,
    sample: u32,
}

impl<'a, F: FragmentStage> SampleMaskStage<'a, F> {
    /// `inner` drawn into sample `sample` (0..4) with alpha to coverage.
    pub fn new(inner: &'a F, sample: usize) -> Self {
        SampleMaskStage {
            inner,
            sample: sample as u32,
        }
    }

    fn drop_uncovered(&self, batch: &FragmentBatch, out: &mut FragmentOutput) {
        for lane in 0..batch.len {
            if alpha_coverage_mask(out.color[3][lane]) >> self.sample & 1 == 0 {
                out.discard.insert(lane);
            }
        }
    }
}

impl<F: FragmentStage> FragmentStage for SampleMaskStage<'_, F> {
    type Scratch = F::Scratch;

    fn new_scratch(&self) -> Self::Scratch {
        self.inner.new_scratch()
    }

    fn may_discard(&self) -> bool {
        true
    }

    fn needs_quads(&self) -> bool {
        self.inner.needs_quads()
    }

    fn reads_frag_coord(&self) -> bool {
        self.inner.reads_frag_coord()
    }

    fn reads_screen_barycentric(&self) -> bool {
        self.inner.reads_screen_barycentric()
    }

    fn shades_several_triangles(&self) -> bool {
        self.inner.shades_several_triangles()
    }

    fn interpolate_lanes(
        &self,
        scratch: &mut Self::Scratch,
        triangle: &Triangle<'_>,
        batch: &FragmentBatch,
        lanes: Range<usize>,
    ) {
        self.inner
            .interpolate_lanes(scratch, triangle, batch, lanes);
    }

    fn shade_interpolated(
        &self,
        scratch: &mut Self::Scratch,
        front_facing: bool,
        batch: &FragmentBatch,
        out: &mut FragmentOutput,
    ) {
        self.inner
            .shade_interpolated(scratch, front_facing, batch, out);
        self.drop_uncovered(batch, out);
    }

    fn shade(
        &self,
        scratch: &mut Self::Scratch,
        triangle: &Triangle<'_>,
        batch: &FragmentBatch,
        out: &mut FragmentOutput,
    ) {
        self.inner.shade(scratch, triangle, batch, out);
        self.drop_uncovered(batch, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alpha_keeps_a_sample_per_quarter_above_its_threshold() {
        assert_eq!(alpha_coverage_mask(0.0), 0);
        assert_eq!(alpha_coverage_mask(0.1), 0b0001);
        assert_eq!(alpha_coverage_mask(0.25), 0b0001, "0.25 is not above 1/4");
        assert_eq!(alpha_coverage_mask(0.26), 0b0011);
        assert_eq!(alpha_coverage_mask(0.6), 0b0111);
        assert_eq!(alpha_coverage_mask(0.76), 0b1111);
        assert_eq!(alpha_coverage_mask(2.0), 0b1111);
        assert_eq!(alpha_coverage_mask(f32::NAN), 0);
    }

    #[test]
    fn sample_coverage_takes_the_lowest_samples_or_the_others() {
        assert_eq!(sample_coverage_mask(0.5, false), 0b0011);
        assert_eq!(sample_coverage_mask(0.5, true), 0b1100);
        assert_eq!(sample_coverage_mask(0.74, false), 0b0011, "⌊2.96⌋ = 2");
        assert_eq!(sample_coverage_mask(1.0, false), 0b1111);
        assert_eq!(sample_coverage_mask(0.0, true), 0b1111);
    }
}
