//! What `trace_pixel` reports: the story of one pixel through every draw of a scene.
//! Plain data with `Serialize` (the `--json` form); `text.rs` prints it for people.
//!
//! Floats are exact (JSON numbers that round-trip to the same `f32`); a NaN or an
//! infinity, which JSON cannot hold, is written as the string `"NaN"`, `"inf"` or
//! `"-inf"`. In an instruction's `values`, a lane the instruction did not write is
//! `null` (for example `pow` writes only x: `[[0.5, null, null, null]]`).

use super::instruction_trace::TracedInstruction;
use super::named_value::NamedValue;
pub use super::sample_trace::{SampleStep, SampleValue};
use csir_raster::{BlendTrace, DepthTrace, StencilTrace};
use serde::{Serialize, Serializer};

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
    /// The scene's first draws, in order, with the fragments they produced here (at
    /// most [`TraceOptions::max_draws`](super::TraceOptions::max_draws)).
    pub draws: Vec<DrawTrace>,
    /// Draws after those in `draws`: drawn (the colour includes them) but not shown.
    pub draws_not_shown: usize,
    /// Fragments those draws produced at the pixel.
    pub fragments_in_draws_not_shown: u64,
    /// For a multisampled scene (`samples` 4), each sample's final value, which
    /// [`color`](Self::color) resolves (their average, as `glBlitFramebuffer` resolves
    /// them); empty for a single-sampled scene.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<SampleValue>,
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
    /// The first fragments the draw produced at the pixel, in the order they reached
    /// it (at most [`TraceOptions::max_fragments`](super::TraceOptions::max_fragments);
    /// empty: no triangle of this draw covered the pixel centre).
    pub fragments: Vec<FragmentTrace>,
    /// Fragments after those in `fragments`: they reached the pixel (the colour
    /// includes them) but are not shown.
    pub fragments_not_shown: u64,
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
    /// [`RasterState::writes_depth`](csir_raster::RasterState::writes_depth)).
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
    /// The depth test (the rasterizer's record); absent when the draw's depth test is
    /// `none`.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "depth_json")]
    pub depth: Option<DepthTrace>,
    /// The stencil test and update (the rasterizer's record); absent without a
    /// stencil test.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "stencil_json"
    )]
    pub stencil: Option<StencilTrace>,
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
    /// Blending into the pixel (the rasterizer's record), when the colour was written.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "blend_json")]
    pub blend: Option<BlendTrace>,
    /// The 2×2 quad the fragment was shaded in, when the fragment shader takes
    /// derivatives (docs/csir.md "Derivatives").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quad: Option<QuadPixels>,
    /// For a multisampled scene, what each of the pixel's 4 samples went through for
    /// this fragment (coverage, depth and stencil tests, blending); `depth`, `stencil`
    /// and `blend` above are then absent, and `shader` is the one run at the pixel
    /// centre. Empty for a single-sampled scene.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<SampleStep>,
}

/// The 2×2 quad a fragment was shaded in: four window pixels in quad order
/// ((x0, y0), (x0 + 1, y0), (x0, y0 + 1), (x0 + 1, y0 + 1), y up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct QuadPixels {
    /// The four pixels `[x, y]`.
    pub pixels: [[u32; 2]; 4],
    /// Which are helper invocations (not covered, or failed the depth test): shaded
    /// for the derivatives, never written.
    pub helpers: [bool; 4],
    /// Which of the four is the traced pixel.
    pub traced: usize,
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

/// `FragmentTrace::depth` in JSON: `{"test": "less", "fragment": 0.5, "fragment_bits":
/// 8388607, "stored": 1.0, "stored_bits": 16777215, "passed": true, "written": true}`,
/// depths in [0, 1] (the 24-bit value / (2^24 − 1)) and as the 24-bit value.
pub(super) fn depth_json<S: Serializer>(
    depth: &Option<DepthTrace>,
    s: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct DepthJson {
        test: &'static str,
        fragment: f64,
        fragment_bits: u32,
        stored: f64,
        stored_bits: u32,
        passed: bool,
        written: bool,
    }
    depth
        .map(|d| DepthJson {
            test: d.test.name(),
            fragment: d.fragment_unorm(),
            fragment_bits: d.fragment,
            stored: d.stored_unorm(),
            stored_bits: d.stored,
            passed: d.passed,
            written: d.written,
        })
        .serialize(s)
}

/// `FragmentTrace::stencil` in JSON: `{"face": "front", "func": "notequal", "ref": 0,
/// "value_mask": 255, "write_mask": 255, "before": 3, "passed": true, "op":
/// "incr_wrap", "after": 4}`.
pub(super) fn stencil_json<S: Serializer>(
    stencil: &Option<StencilTrace>,
    s: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct StencilJson {
        face: &'static str,
        func: &'static str,
        #[serde(rename = "ref")]
        reference: u8,
        value_mask: u8,
        write_mask: u8,
        before: u8,
        passed: bool,
        op: &'static str,
        after: u8,
    }
    stencil
        .map(|t| StencilJson {
            face: if t.front { "front" } else { "back" },
            func: t.face.func.name(),
            reference: t.face.reference,
            value_mask: t.face.value_mask,
            write_mask: t.face.write_mask,
            before: t.before,
            passed: t.passed,
            op: t.op.name(),
            after: t.after,
        })
        .serialize(s)
}

/// `FragmentTrace::blend` in JSON: `{"mode": "alpha", "src_rgb": "src_alpha",
/// "dst_rgb": "one_minus_src_alpha", "src_alpha": ..., "dst_alpha": ...,
/// "equation_rgb": "add", "equation_alpha": "add", "source": [r, g, b, a],
/// "destination": [...], "result": [...]}`, the mode by its scene-format name (`none`
/// for replace, `function` for a blend object) and its factors and equations by
/// theirs (GL 3.3 §4.1.8); `"color"` (unorm8 bytes) when a factor reads the blend
/// colour, `"source1"` when the blend reads the second source colour.
pub(super) fn blend_json<S: Serializer>(
    blend: &Option<BlendTrace>,
    s: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct BlendJson {
        mode: &'static str,
        src_rgb: &'static str,
        dst_rgb: &'static str,
        src_alpha: &'static str,
        dst_alpha: &'static str,
        equation_rgb: &'static str,
        equation_alpha: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        color: Option<[u8; 4]>,
        source: [u8; 4],
        #[serde(skip_serializing_if = "Option::is_none")]
        source1: Option<[u8; 4]>,
        destination: [u8; 4],
        result: [u8; 4],
    }
    blend
        .map(|b| {
            let f = b.mode.function();
            BlendJson {
                mode: b.mode.name(),
                src_rgb: f.src_rgb.name(),
                dst_rgb: f.dst_rgb.name(),
                src_alpha: f.src_alpha.name(),
                dst_alpha: f.dst_alpha.name(),
                equation_rgb: f.equation_rgb.name(),
                equation_alpha: f.equation_alpha.name(),
                color: f.reads_constant().then_some(f.color),
                source: b.source,
                source1: b.source1,
                destination: b.destination,
                result: b.result,
            }
        })
        .serialize(s)
}

/// One line of the streaming JSON form: `record` names the kind, then the fields.
#[derive(Serialize)]
struct Record<'a, T: Serialize> {
    record: &'static str,
    #[serde(flatten)]
    body: &'a T,
}

/// The `pixel` record: what is traced.
#[derive(Serialize)]
struct PixelHeader<'a> {
    scene: &'a str,
    width: u32,
    height: u32,
    pixel: [u32; 2],
    window: [u32; 2],
}

/// The `draw` record: a [`DrawTrace`] without its fragments, which follow it.
#[derive(Serialize)]
struct DrawHeader<'a> {
    index: usize,
    vertex_shader: &'a str,
    fragment_shader: &'a str,
    state: &'a StateTrace,
    before: [u8; 4],
    after: [u8; 4],
    fragments_shown: usize,
    fragments_not_shown: u64,
}

/// A `fragment` record: its draw, its place among the draw's fragments (from 1), and
/// the [`FragmentTrace`] fields.
#[derive(Serialize)]
struct FragmentRecord<'a> {
    draw: usize,
    fragment: usize,
    #[serde(flatten)]
    trace: &'a FragmentTrace,
}

/// The `end` record: the final colour and what was left out.
#[derive(Serialize)]
struct End<'a> {
    color: [u8; 4],
    #[serde(skip_serializing_if = "<[SampleValue]>::is_empty")]
    samples: &'a [SampleValue],
    draws_shown: usize,
    draws_not_shown: usize,
    fragments_in_draws_not_shown: u64,
}

impl PixelTrace {
    /// The streaming JSON form that `trace --json` prints: JSON Lines, one compact
    /// object per line, each with a `record` field naming its kind, in this order:
    ///
    /// ```text
    /// {"record":"pixel","scene":…,"width":…,"height":…,"pixel":[x,y],"window":[x,y]}
    /// {"record":"draw","index":0,…,"before":[…],"after":[…],"fragments_shown":n,"fragments_not_shown":m}
    /// {"record":"fragment","draw":0,"fragment":1,"triangle":…,… (a FragmentTrace)}
    /// …   (each draw's fragments follow it)
    /// {"record":"end","color":[r,g,b,a],"draws_shown":n,"draws_not_shown":m,"fragments_in_draws_not_shown":k}
    /// ```
    ///
    /// A multisampled scene's `end` record also holds `"samples"`: each sample's
    /// final value ([`SampleValue`]), and each `fragment` record its per-sample steps.
    ///
    /// A reader can act on each line as it arrives (`jq -c 'select(.record ==
    /// "fragment")'`), and no line is larger than one fragment's story. Floats follow
    /// the module's rules (NaN and infinities as strings).
    ///
    /// Errors: none in practice (every field serializes); a serializer error is passed
    /// on.
    pub fn json_lines(&self) -> impl Iterator<Item = serde_json::Result<String>> + '_ {
        let header = PixelHeader {
            scene: &self.scene,
            width: self.width,
            height: self.height,
            pixel: self.pixel,
            window: self.window,
        };
        let first = std::iter::once(serde_json::to_string(&Record {
            record: "pixel",
            body: &header,
        }));
        let draws = self.draws.iter().flat_map(|d| {
            let head = DrawHeader {
                index: d.index,
                vertex_shader: &d.vertex_shader,
                fragment_shader: &d.fragment_shader,
                state: &d.state,
                before: d.before,
                after: d.after,
                fragments_shown: d.fragments.len(),
                fragments_not_shown: d.fragments_not_shown,
            };
            std::iter::once(serde_json::to_string(&Record {
                record: "draw",
                body: &head,
            }))
            .chain(d.fragments.iter().enumerate().map(move |(k, f)| {
                serde_json::to_string(&Record {
                    record: "fragment",
                    body: &FragmentRecord {
                        draw: d.index,
                        fragment: k + 1,
                        trace: f,
                    },
                })
            }))
        });
        let end = End {
            color: self.color,
            samples: &self.samples,
            draws_shown: self.draws.len(),
            draws_not_shown: self.draws_not_shown,
            fragments_in_draws_not_shown: self.fragments_in_draws_not_shown,
        };
        first
            .chain(draws)
            .chain(std::iter::once(serde_json::to_string(&Record {
                record: "end",
                body: &end,
            })))
    }
}
