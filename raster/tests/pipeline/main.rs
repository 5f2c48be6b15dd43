//! Whole-pipeline behaviour of csir-raster through its public API: fill rule and
//! watertightness, clipping, culling, depth, blending, interpolation, threads, tracing.

// Lane loops index several per-lane arrays at once.
#![allow(clippy::needless_range_loop)]

mod blending;
mod clipping;
mod culling;
mod depth;
mod fill_rule;
mod interpolation;
mod multisample;
mod points_lines;
mod properties;
mod quads;
mod several;
mod stencil;
mod support;
mod threads;
mod trace;
