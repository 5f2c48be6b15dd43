//! Tracing one pixel through a draw: which triangles covered it and what happened to
//! each fragment (depth test, shading, discard, blending).
//!
//! The rasterizer is generic over an [`Observer`]; the ordinary path uses [`NoTrace`],
//! whose `ENABLED = false` lets the compiler remove every hook, so tracing costs nothing
//! when off. Only the tile holding the traced pixel runs with a [`PixelTracer`].

use crate::depth::DEPTH_MAX;
use crate::state::{BlendMode, DepthTest};
use crate::stencil::StencilTrace;

/// The depth test of a traced fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthTrace {
    /// The draw's comparison (never [`DepthTest::Disabled`]: a fragment of a draw
    /// without depth test has no `DepthTrace`).
    pub test: DepthTest,
    /// The fragment's depth, 24-bit unorm.
    pub fragment: u32,
    /// The depth stored before the test, 24-bit unorm.
    pub stored: u32,
    /// Whether the test passed.
    pub passed: bool,
    /// Whether the fragment's depth was written.
    pub written: bool,
}

impl DepthTrace {
    /// [`DepthTrace::fragment`] in [0, 1]: the 24-bit value / (2^24 − 1).
    pub fn fragment_unorm(&self) -> f64 {
        f64::from(self.fragment) / f64::from(DEPTH_MAX)
    }

    /// [`DepthTrace::stored`] in [0, 1]: the 24-bit value / (2^24 − 1).
    pub fn stored_unorm(&self) -> f64 {
        f64::from(self.stored) / f64::from(DEPTH_MAX)
    }
}

/// Blending of a traced fragment, all RGBA8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlendTrace {
    /// The draw's blend mode ([`BlendMode::Replace`] when it does not blend).
    pub mode: BlendMode,
    /// The fragment colour converted to RGBA8.
    pub source: [u8; 4],
    /// The second source colour converted to RGBA8, when the blend reads it
    /// (dual-source blending, GL 3.3 §4.1.8).
    pub source1: Option<[u8; 4]>,
    /// The colour stored before.
    pub destination: [u8; 4],
    /// The colour stored after.
    pub result: [u8; 4],
}

/// One fragment of the traced pixel, in the order fragments reached it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TraceEvent {
    /// Input triangle index within the draw.
    pub primitive: u32,
    /// `gl_FrontFacing`.
    pub front_facing: bool,
    /// `gl_FragCoord` (x + 0.5, y + 0.5, window depth, 1/w).
    pub frag_coord: [f32; 4],
    /// Perspective-correct barycentrics of the (post-clip) triangle's vertices.
    pub barycentric: [f32; 3],
    /// The depth test, `None` when depth testing is disabled.
    pub depth: Option<DepthTrace>,
    /// The stencil test and update, `None` without a stencil test.
    pub stencil: Option<StencilTrace>,
    /// Whether the fragment stage ran for it (not when the depth test failed first).
    pub shaded: bool,
    /// The fragment stage's colour, when shaded.
    pub color: Option<[f32; 4]>,
    /// Whether the fragment stage discarded it.
    pub discarded: bool,
    /// Blend inputs and output, when the colour was written.
    pub blend: Option<BlendTrace>,
    /// The 2×2 quad the fragment was shaded in, when the fragment stage
    /// [needs quads](crate::FragmentStage::needs_quads) and it was shaded.
    pub quad: Option<QuadTrace>,
}

/// The 2×2 quad a traced fragment was shaded in: its four lanes in quad order
/// ((x0, y0), (x0 + 1, y0), (x0, y0 + 1), (x0 + 1, y0 + 1), window y up), with each
/// lane's shading inputs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuadTrace {
    /// Which of the four lanes is the traced fragment.
    pub lane: usize,
    /// Pixel `(x, y)` of each lane.
    pub pixels: [[u32; 2]; 4],
    /// Whether each lane is a helper (not covered, or failed the depth test): shaded,
    /// never written.
    pub helpers: [bool; 4],
    /// `gl_FragCoord` of each lane.
    pub frag_coord: [[f32; 4]; 4],
    /// Perspective-correct barycentrics of each lane (extrapolated for a helper outside
    /// the triangle).
    pub barycentric: [[f32; 3]; 4],
    /// Window-space barycentrics of each lane.
    pub screen_barycentric: [[f32; 3]; 4],
}

/// Hooks the tile rasterizer calls for watched pixels.
pub(crate) trait Observer {
    /// `false` compiles every hook away.
    const ENABLED: bool;
    /// Whether pixel `(x, y)` is traced.
    fn watches(&self, x: u32, y: u32) -> bool;
    /// A fragment was produced; `lane` is its batch lane when it goes on to shading.
    fn fragment(&mut self, event: TraceEvent, lane: Option<usize>);
    /// The lane of the fragment waiting for its shading results.
    fn pending_lane(&self) -> Option<usize>;
    /// Completes the pending fragment.
    fn complete(&mut self, update: impl FnOnce(&mut TraceEvent));
}

/// The observer that observes nothing.
pub(crate) struct NoTrace;

impl Observer for NoTrace {
    const ENABLED: bool = false;
    #[inline(always)]
    fn watches(&self, _: u32, _: u32) -> bool {
        false
    }
    #[inline(always)]
    fn fragment(&mut self, _: TraceEvent, _: Option<usize>) {}
    #[inline(always)]
    fn pending_lane(&self) -> Option<usize> {
        None
    }
    #[inline(always)]
    fn complete(&mut self, _: impl FnOnce(&mut TraceEvent)) {}
}

/// Records every fragment of one pixel.
pub(crate) struct PixelTracer {
    pixel: [u32; 2],
    pending: Option<(usize, TraceEvent)>,
    pub events: Vec<TraceEvent>,
}

impl PixelTracer {
    pub fn new(pixel: [u32; 2]) -> Self {
        PixelTracer {
            pixel,
            pending: None,
            events: Vec::new(),
        }
    }
}

impl Observer for PixelTracer {
    const ENABLED: bool = true;
    fn watches(&self, x: u32, y: u32) -> bool {
        [x, y] == self.pixel
    }
    fn fragment(&mut self, event: TraceEvent, lane: Option<usize>) {
        match lane {
            Some(lane) => self.pending = Some((lane, event)),
            None => self.events.push(event),
        }
    }
    fn pending_lane(&self) -> Option<usize> {
        self.pending.map(|(lane, _)| lane)
    }
    fn complete(&mut self, update: impl FnOnce(&mut TraceEvent)) {
        if let Some((_, mut event)) = self.pending.take() {
            update(&mut event);
            self.events.push(event);
        }
    }
}
