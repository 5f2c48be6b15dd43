//! What `trace_pixel` reports: the story of one pixel through every draw of a scene.
//! Plain data with `Serialize` (the `--json` form); `text.rs` prints it for people.
//!
//! Floats are exact (JSON numbers that round-trip to the same `f32`); a NaN or an
//! infinity, which JSON cannot hold, is written as the string `"NaN"`, `"inf"` or
//! `"-inf"`. In an instruction's `values`, a lane the instruction did not write is
//! `null` (for example `pow` writes only x: `[[0.5, null, null, null]]`).

use super::instruction_trace::TracedInstruction;
use super::named_value::NamedValue;
use serde::Serialize;

/// One pixel of a rendered scene, explained.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PixelTrace {
    /// The scene file (`<default scene>/lit_cube.json` for the built-in one).
    pub scene: String,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// The pixel in image coordinates: x right, y down from the top row (the PNG's).
    pub pixel: [u32; 2],
    /// The same pixel in window coordinates (y up from the bottom row), as
    /// `gl_FragCoord` sees it (its centre is at + 0.5).
    pub window: [u32; 2],
    /// The pixel's final RGBA8 colour: the byte `render` writes to the PNG.
    pub color: [u8; 4],
    /// Every draw of the scene, in order, with the fragments it produced here.
    pub draws: Vec<DrawTrace>,
}

/// One draw's effect on the pixel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DrawTrace {
    /// Position in the scene's `draws`.
    pub index: usize,
    /// Vertex shader file.
    pub vertex_shader: String,
    /// Fragment shader file.
    pub fragment_shader: String,
    /// Depth test, depth write, cull and blend state, by their scene-format names.
    pub state: StateTrace,
    /// The pixel's RGBA8 colour before the draw.
    pub before: [u8; 4],
    /// The pixel's RGBA8 colour after the draw.
    pub after: [u8; 4],
    /// Every fragment the draw produced at the pixel, in the order they reached it
    /// (empty: no triangle of this draw covered the pixel centre).
    pub fragments: Vec<FragmentTrace>,
}

/// A draw's fixed-function state as the scene names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StateTrace {
    /// `less`, `lequal`, ..., `none`.
    pub depth_test: String,
    /// The depth mask, as the scene gives it.
    pub depth_write: bool,
    /// Whether passing fragments write depth: the depth mask, and a depth test other
    /// than `none` (as in OpenGL, disabling the depth test disables depth writes; see
    /// [`DrawState::writes_depth`](crate::scene::DrawState::writes_depth)).
    pub writes_depth: bool,
    /// `none`, `back` or `front`.
    pub cull: String,
    /// `none`, `alpha` or `additive`.
    pub blend: String,
}

/// One fragment: a triangle covering the pixel centre, and what happened to it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FragmentTrace {
    /// Input triangle index within the draw (`indices[3t..3t+3]`).
    pub triangle: u32,
    /// The input triangle's three vertices as the vertex shader output them.
    pub vertices: Vec<VertexTrace>,
    /// `gl_FrontFacing` (counter-clockwise in window space).
    pub front_facing: bool,
    /// `gl_FragCoord`: window-space pixel centre, depth in [0, 1], 1/w.
    #[serde(serialize_with = "super::json_float::floats")]
    pub frag_coord: [f32; 4],
    /// Perspective-correct barycentric weights of the rasterized triangle's vertices.
    /// They are of `vertices` in order unless clipping cut the triangle (a vertex
    /// behind the near plane, say), when they weigh the clipped piece's corners.
    #[serde(serialize_with = "super::json_float::floats")]
    pub barycentric: [f32; 3],
    /// The depth test; absent when the draw's depth test is `none`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<DepthTestTrace>,
    /// Whether the fragment shader ran (not when the depth test failed first).
    pub shaded: bool,
    /// The interpolated varyings the fragment shader read, by name (empty when not
    /// shaded).
    pub varyings: Vec<NamedValue>,
    /// The fragment shader's run, when shaded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shader: Option<ShaderTrace>,
    /// Whether the fragment shader discarded it.
    pub discarded: bool,
    /// Blending into the pixel, when the colour was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blend: Option<BlendStep>,
}

/// One vertex of a traced triangle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VertexTrace {
    /// Vertex index (into the draw's attributes).
    pub index: u32,
    /// `gl_Position` (clip space).
    #[serde(serialize_with = "super::json_float::floats")]
    pub position: [f32; 4],
    /// The varyings the fragment shader reads, by name.
    pub varyings: Vec<NamedValue>,
}

/// A fragment's depth test against the 24-bit depth buffer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DepthTestTrace {
    /// The comparison (`less`, ...).
    pub test: String,
    /// The fragment's depth in [0, 1] (its 24-bit value / 2^24 − 1).
    pub fragment: f64,
    /// The fragment's 24-bit depth.
    pub fragment_bits: u32,
    /// The stored depth before the test in [0, 1].
    pub stored: f64,
    /// The stored 24-bit depth.
    pub stored_bits: u32,
    /// Whether the test passed.
    pub passed: bool,
    /// Whether the fragment's depth was written.
    pub written: bool,
}

/// The fragment shader's run for one fragment, instruction by instruction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShaderTrace {
    /// The fragment shader file.
    pub shader: String,
    /// The colour output, by name, as the shader wrote it (before clamping to RGBA8).
    pub output: NamedValue,
    /// Whether a `discard` ran.
    pub discarded: bool,
    /// Every executed instruction.
    pub instructions: Vec<TracedInstruction>,
    /// Why the interpreter stopped early (never for a compiled shader).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
    /// Set when the pipeline's fragment stage, which produced the image, gave another
    /// colour or discard decision than this traced run (the interpreters must agree bit
    /// for bit; this would be a bug, and the image shows the stage's result).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disagreement: Option<String>,
}

/// Blending of a fragment into the pixel, all RGBA8.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BlendStep {
    /// `none` (replace), `alpha` or `additive`.
    pub mode: String,
    /// The fragment colour, converted to RGBA8.
    pub source: [u8; 4],
    /// The colour in the pixel before.
    pub destination: [u8; 4],
    /// The colour written.
    pub result: [u8; 4],
}
