//! Multisampling (GL 3.3 §3.3.1, §4.1.3): llvmpipe's standard 4-sample pattern, the
//! sample masks of `alpha_to_coverage` and `sample_coverage`, and the resolve.
//!
//! How a 4-sample frame is drawn: once per sample, each pass into a single-sampled
//! [`Framebuffer`](crate::Framebuffer) of its own with
//! [`RasterState::sample_offset`](crate::RasterState::sample_offset) set to that
//! sample's offset from the pixel centre. The rasterizer moves each primitive by
//! minus the offset after snapping (whole 1/256-pixel units, so exactly), which makes
//! its pixel-centre tests the sample's: coverage with the fill rule per sample, the
//! depth plane at the sample, and the stencil and depth tests, writes and blending on
//! that sample's own buffers. The fragment inputs are evaluated at the real pixel
//! centre in every pass (the barycentric planes are moved back, `barycentric.rs`), so
//! each pass computes the colour the one per-pixel invocation of GL computes (the
//! shader is a function of its inputs; the passes differ only in which samples they
//! cover). The samples are then averaged ([`resolve_unorm8`], [`resolve_float`]) as
//! `glBlitFramebuffer` does into a single-sampled buffer. No single-sampled draw
//! takes any of these steps: its offset is `[0, 0]`.

mod coverage_stage;
mod pattern;
mod resolve;

pub use coverage_stage::{SampleMaskStage, alpha_coverage_mask, sample_coverage_mask};
pub use pattern::{SAMPLE_COUNT, SamplePattern};
pub use resolve::{resolve_float, resolve_unorm8};
