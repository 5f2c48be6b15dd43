//! Multisampling in a scene (docs/scene-format.md "Multisampling"): the scene's
//! `samples` and a draw's `alpha_to_coverage` and `sample_coverage` (GL 3.3 §3.3.1,
//! §4.1.3).

/// The sample counts a scene may ask for: 1 (the default, single-sampled) and 4
/// (llvmpipe's standard 4-sample pattern, [`csir_raster::SamplePattern`]).
pub const SAMPLE_COUNTS: [u32; 2] = [1, 4];

/// `glSampleCoverage(value, invert)` with `GL_SAMPLE_COVERAGE` enabled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleCoverage {
    /// The fraction of samples kept, 0..=1.
    pub value: f32,
    /// Keep the other samples instead.
    pub invert: bool,
}

/// A draw's multisample fragment operations (GL 3.3 §4.1.3); both off by default. On
/// a single-sampled scene they change nothing, as in GL (the operations apply only
/// where `SAMPLE_BUFFERS` is 1).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MultisampleState {
    /// `glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE)`: output 0's alpha chooses the samples a
    /// fragment covers ([`csir_raster::alpha_coverage_mask`]).
    pub alpha_to_coverage: bool,
    /// `glEnable(GL_SAMPLE_COVERAGE)` with its value, or `None`.
    pub sample_coverage: Option<SampleCoverage>,
}

impl MultisampleState {
    /// The samples (bit `s` for sample `s`) the draw may write at all: every one, or
    /// those `sample_coverage` keeps ([`csir_raster::sample_coverage_mask`]).
    pub fn coverage_mask(&self) -> u32 {
        match self.sample_coverage {
            None => (1 << csir_raster::SAMPLE_COUNT) - 1,
            Some(c) => csir_raster::sample_coverage_mask(c.value, c.invert),
        }
    }

    /// Whether either operation is on.
    pub fn is_enabled(&self) -> bool {
        self.alpha_to_coverage || self.sample_coverage.is_some()
    }
}
