//! The text form of a [`PixelTrace`] and an [`Invocation`] (what `trace` and `run`
//! print without `--json`). Floats print in Rust's shortest round-trip form, so the
//! text shows exactly the bits computed.

use super::instruction_trace::{Branch, Flow, TracedInstruction};
use super::invocation::{DefaultedInput, Invocation};
use super::named_value::{LaneValue, NamedValue, format_values};
use super::pixel_trace::{DrawTrace, FragmentTrace, PixelTrace, SampleStep, ShaderTrace};
use csir_raster::{BlendMode, BlendTrace, DepthTrace, SamplePattern, StencilTrace};
use std::fmt::{self, Display, Formatter, Write};

impl Display for PixelTrace {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let [x, y] = self.pixel;
        let [wx, wy] = self.window;
        writeln!(
            f,
            "{}: pixel {x},{y} of {}x{} (window {wx},{wy}, y up) is rgba8 {}",
            self.scene,
            self.width,
            self.height,
            bytes(self.color)
        )?;
        for draw in &self.draws {
            writeln!(f)?;
            write_draw(draw, f, !self.samples.is_empty())?;
        }
        if !self.samples.is_empty() {
            writeln!(f)?;
            let values: Vec<String> = self
                .samples
                .iter()
                .map(|s| format!("{} {}", sample_name(s.sample), bytes(s.color)))
                .collect();
            writeln!(
                f,
                "resolve (the average of the samples, as glBlitFramebuffer resolves them): {} \
                 give {}",
                values.join(", "),
                bytes(self.color)
            )?;
        }
        if self.draws_not_shown > 0 {
            writeln!(f)?;
            writeln!(
                f,
                "{} more draw{} not shown ({} fragment{} at this pixel; --max-draws shows more)",
                self.draws_not_shown,
                if self.draws_not_shown == 1 { "" } else { "s" },
                self.fragments_in_draws_not_shown,
                if self.fragments_in_draws_not_shown == 1 {
                    ""
                } else {
                    "s"
                },
            )?;
        }
        Ok(())
    }
}

impl Display for DrawTrace {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_draw(self, f, false)
    }
}

/// A draw's lines; `multisampled`: its fragments cover samples, not the pixel centre.
fn write_draw(draw: &DrawTrace, f: &mut Formatter<'_>, multisampled: bool) -> fmt::Result {
    let this = draw;
    let s = &this.state;
    writeln!(
        f,
        "draw {}: {} + {} (depth {}, write {}, cull {}, blend {})",
        this.index,
        this.vertex_shader,
        this.fragment_shader,
        s.depth_test,
        match (s.writes_depth, s.depth_write) {
            (true, _) => "on",
            (false, true) => "off (depth test none)",
            (false, false) => "off",
        },
        s.cull,
        s.blend
    )?;
    let n = this.fragments.len() as u64 + this.fragments_not_shown;
    writeln!(
        f,
        "  pixel before {}, after {}; {n} fragment{}{}",
        bytes(this.before),
        bytes(this.after),
        if n == 1 { "" } else { "s" },
        if n == 0 {
            if multisampled {
                " (no triangle covers a sample of the pixel)"
            } else {
                " (no triangle covers the pixel centre)"
            }
        } else {
            ""
        }
    )?;
    for (k, fragment) in this.fragments.iter().enumerate() {
        write!(f, "  fragment {}: ", k + 1)?;
        fragment.fmt(f)?;
    }
    if this.fragments_not_shown > 0 {
        writeln!(
            f,
            "  {} more fragment{} not shown (--max-fragments shows more)",
            this.fragments_not_shown,
            if this.fragments_not_shown == 1 {
                ""
            } else {
                "s"
            }
        )?;
    }
    Ok(())
}

impl Display for FragmentTrace {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "triangle {}, {}",
            self.triangle,
            if self.front_facing {
                "front-facing"
            } else {
                "back-facing"
            }
        )?;
        writeln!(f, "    vertices:")?;
        for v in &self.vertices {
            write!(
                f,
                "      {}: gl_Position {}",
                v.index,
                format_values(&v.position)
            )?;
            for value in &v.varyings {
                write!(f, "; {} {}", value.name, format_values(&value.values))?;
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "    gl_FragCoord {}, barycentric {}",
            format_values(&self.frag_coord),
            format_values(&self.barycentric)
        )?;
        if self.samples.is_empty() {
            match &self.depth {
                Some(d) => writeln!(f, "    {}", depth_line(d))?,
                None => writeln!(f, "    depth test none")?,
            }
            if let Some(s) = &self.stencil {
                writeln!(f, "    {}", stencil_line(s))?;
            }
        } else {
            sample_tests(f, &self.samples)?;
        }
        if !self.shaded {
            let stencil =
                self.stencil.is_some() || self.samples.iter().any(|s| s.stencil.is_some());
            return match (self.samples.iter().any(|s| s.covered), stencil) {
                (false, _) if !self.samples.is_empty() => {
                    writeln!(f, "    not shaded: no sample kept")
                }
                (_, true) => writeln!(f, "    not shaded: the stencil or depth test failed"),
                (_, false) => writeln!(f, "    not shaded: the depth test failed"),
            };
        }
        if let Some(q) = &self.quad {
            write!(f, "    shaded in the 2x2 quad")?;
            for (k, [x, y]) in q.pixels.iter().enumerate() {
                let role = match (k == q.traced, q.helpers[k]) {
                    (true, _) => "this pixel",
                    (false, true) => "helper",
                    (false, false) => "fragment",
                };
                write!(f, "{} ({x}, {y}) {role}", if k == 0 { "" } else { "," })?;
            }
            writeln!(f)?;
        }
        writeln!(f, "    varyings (interpolated):")?;
        for v in &self.varyings {
            writeln!(f, "      {}", value_line(v))?;
        }
        if let Some(shader) = &self.shader {
            shader.fmt(f)?;
        }
        if !self.samples.is_empty() {
            return sample_blends(f, &self.samples, self.discarded);
        }
        match &self.blend {
            Some(b) => writeln!(f, "    {}", blend_line(b)),
            None if self.discarded => writeln!(f, "    discarded: the pixel keeps its colour"),
            None => writeln!(f, "    colour not written"),
        }
    }
}

/// `depth test less: fragment 0.5 (8388607) against stored 1 (16777215): passed,
/// depth written`.
fn depth_line(d: &DepthTrace) -> String {
    format!(
        "depth test {}: fragment {} ({}) against stored {} ({}): {}{}",
        d.test.name(),
        d.fragment_unorm(),
        d.fragment,
        d.stored_unorm(),
        d.stored,
        if d.passed { "passed" } else { "failed" },
        if d.written {
            ", depth written"
        } else {
            ", depth not written"
        }
    )
}

/// `stencil test (front face) equal: ref 1 & mask 0xff against stored 1: passed, op
/// keep through write mask 0xff: stencil 1 -> 1`.
fn stencil_line(s: &StencilTrace) -> String {
    format!(
        "stencil test ({} face) {}: ref {} & mask {:#04x} against stored {}: {}, \
         op {} through write mask {:#04x}: stencil {} -> {}",
        if s.front { "front" } else { "back" },
        s.face.func.name(),
        s.face.reference,
        s.face.value_mask,
        s.before,
        if s.passed { "passed" } else { "failed" },
        s.op.name(),
        s.face.write_mask,
        s.before,
        s.after
    )
}

/// `blend alpha (...): source (..) onto (..) gives (..)`.
fn blend_line(b: &BlendTrace) -> String {
    format!(
        "blend {}: source {}{} onto {} gives {}",
        blend_function(b.mode),
        bytes(b.source),
        b.source1
            .map(|s1| format!(", second source {}", bytes(s1)))
            .unwrap_or_default(),
        bytes(b.destination),
        bytes(b.result)
    )
}

/// `sample 1 at (0.875, 0.375)`.
fn sample_name(s: usize) -> String {
    let [x, y] = SamplePattern::POSITIONS[s];
    format!("sample {s} at ({x}, {y})")
}

/// Each sample's coverage and its depth and stencil tests.
fn sample_tests(f: &mut Formatter<'_>, samples: &[SampleStep]) -> fmt::Result {
    let covered: Vec<String> = samples
        .iter()
        .filter(|s| s.covered)
        .map(|s| s.sample.to_string())
        .collect();
    writeln!(
        f,
        "    covers sample{} {} of 4",
        if covered.len() == 1 { "" } else { "s" },
        if covered.is_empty() {
            "none".to_string()
        } else {
            covered.join(", ")
        }
    )?;
    for s in samples {
        write!(f, "    {}: ", sample_name(s.sample))?;
        if !s.covered {
            end_line(
                f,
                match s.dropped_by {
                    Some(by) => format!("not rasterized ({by} drops it)"),
                    None => "not covered".to_string(),
                },
            )?;
            continue;
        }
        let mut parts = vec!["covered".to_string()];
        if let Some(st) = &s.stencil {
            parts.push(stencil_line(st));
        }
        parts.push(
            s.depth
                .as_ref()
                .map_or_else(|| "depth test none".to_string(), depth_line),
        );
        end_line(f, parts.join("; "))?;
    }
    Ok(())
}

/// Each covered sample's write: blended, dropped by alpha_to_coverage, or failed.
fn sample_blends(f: &mut Formatter<'_>, samples: &[SampleStep], discarded: bool) -> fmt::Result {
    for s in samples.iter().filter(|s| s.covered) {
        write!(f, "    {}: ", sample_name(s.sample))?;
        match (&s.blend, s.dropped_by) {
            (Some(b), _) => end_line(f, blend_line(b))?,
            (None, Some(by)) => end_line(f, format!("{by} drops it: the sample keeps its value"))?,
            (None, None) if discarded => {
                end_line(f, "discarded: the sample keeps its value".into())?
            }
            (None, None) => end_line(f, "colour not written".into())?,
        }
    }
    Ok(())
}

/// Writes `line` and ends it.
fn end_line(f: &mut Formatter<'_>, line: String) -> fmt::Result {
    writeln!(f, "{line}")
}

impl Display for ShaderTrace {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "    {}, {} instructions executed:",
            self.shader,
            self.instructions.len()
        )?;
        f.write_str(&instruction_listing(&self.instructions, 6))?;
        if let Some(fault) = &self.fault {
            writeln!(f, "    interpreter stopped: {fault}")?;
        }
        writeln!(
            f,
            "    {}{}",
            value_line(&self.output),
            if self.discarded { ", discarded" } else { "" }
        )?;
        if let Some(d) = &self.disagreement {
            writeln!(f, "    warning: {d}")?;
        }
        Ok(())
    }
}

impl Display for Invocation {
    /// A header, the instruction listing (when [`Invocation::instructions`] is not
    /// empty), the outputs (`name: type = (values)`) and, for a fragment shader,
    /// whether it discarded. The notes on defaulted inputs are [`DefaultedInput`]'s
    /// `Display`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} shader, {} instructions executed",
            self.shader, self.stage, self.executed
        )?;
        f.write_str(&instruction_listing(&self.instructions, 2))?;
        for output in &self.outputs {
            writeln!(f, "{}", value_line(output))?;
        }
        if let Some(discarded) = self.discarded {
            writeln!(f, "discarded: {}", if discarded { "yes" } else { "no" })?;
        }
        if let Some(fault) = &self.fault {
            writeln!(f, "interpreter stopped: {fault}")?;
        }
        Ok(())
    }
}

impl Display for DefaultedInput {
    /// `uniform 'uLightDir' (vec3) not given: reads (0, 0, 0)`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} '{}' ({}) not given: ", self.kind, self.name, self.ty)?;
        if self.value.is_empty() {
            f.write_str("no texture, samples read (0, 0, 0, 0)")
        } else {
            write!(f, "reads {}", format_values(&self.value))
        }
    }
}

/// `name: type = (values)`.
fn value_line(v: &NamedValue) -> String {
    format!("{}: {} = {}", v.name, v.ty, format_values(&v.values))
}

/// Four lanes as `(x, y, z, w)`, `_` for a lane not written: `(0.5, _, _, _)`.
fn format_lanes(lanes: &[Option<LaneValue>; 4]) -> String {
    let parts: Vec<String> = lanes
        .iter()
        .map(|lane| lane.map_or_else(|| "_".to_string(), |v| v.to_string()))
        .collect();
    format!("({})", parts.join(", "))
}

/// RGBA8 bytes as `(r, g, b, a)`.
/// A blend mode with its factors and equations (GL 3.3 §4.1.8): `alpha (rgb
/// add(src_alpha, one_minus_src_alpha), alpha add(src_alpha, one_minus_src_alpha))`
/// for a named mode, the function alone for a blend object.
fn blend_function(mode: BlendMode) -> String {
    match mode {
        BlendMode::Function(f) => f.to_string(),
        named => format!("{} ({})", named.name(), named.function()),
    }
}

fn bytes(c: [u8; 4]) -> String {
    format!("({}, {}, {}, {})", c[0], c[1], c[2], c[3])
}

/// The instruction trace, one line each, indented by `indent` spaces: index, the
/// instruction as the IR dump prints it, then the values it produced, `_` for a lane
/// it did not write (or the branch decision for IF/ELSE/ENDIF).
pub fn instruction_listing(steps: &[TracedInstruction], indent: usize) -> String {
    let width = steps.iter().map(|s| s.instruction.len()).max().unwrap_or(0);
    let digits = steps.last().map_or(1, |s| s.index.to_string().len());
    let mut out = String::new();
    for s in steps {
        let detail = match s.flow {
            Some(Flow::If { taken }) => {
                format!("then {}", if taken { "taken" } else { "skipped" })
            }
            Some(Flow::Else { taken }) => {
                format!("else {}", if taken { "taken" } else { "skipped" })
            }
            Some(Flow::Endif { if_index, ran }) => format!(
                "end of if @{if_index}: {}",
                match ran {
                    Branch::Then => "then ran",
                    Branch::Else => "else ran",
                    Branch::Neither => "neither branch ran",
                }
            ),
            None => s
                .values
                .iter()
                .map(format_lanes)
                .collect::<Vec<_>>()
                .join(" "),
        };
        let line = format!(
            "{:indent$}{:>digits$}  {:width$}  {detail}",
            "", s.index, s.instruction
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}
