//! Running one `.shader_test` file: check what it requires, compile and link its
//! shaders, then execute its `[test]` script against a window-sized framebuffer.
//!
//! Order of the verdicts: a file that cannot be read or parsed is an error; then an
//! unmet requirement, a section of another stage, a second shader of a stage or a
//! script command this renderer does not run skips the test (before anything is
//! compiled: it could not run whatever the compiler says); then a shader that does not
//! compile or link, or a command that does not fit the program, is an error; then the
//! first probe that finds a wrong pixel fails the test, and the script stops there.
//!
//! Every draw goes through the ordinary pipeline: it becomes a one-draw
//! [`Scene`] (the program, the attribute arrays, the uniform values set so far, the
//! textures of the units its samplers use) that a [`PreparedScene`] draws on top of
//! the framebuffer, with the program compiled once per file ([`ProgramCache`]). The
//! draws since the last `clear` are kept, so that `--trace-failures` can hand the
//! same scene to [`trace_pixel`].

use super::commands::{self, Capability, Command, DrawMode, ScriptLine, TextureImage};
use super::compile::{CompiledProgram, compile_program};
use super::compiler_test;
use super::error::ParseError;
use super::fixed_function::{CURRENT_NORMAL, INITIAL_COLOR, Transform};
use super::geometry::{
    geometry_mode, ortho_rect, rect_indices, rect_positions, rect_texcoords, triangle_indices,
};
use super::parse::{self, ShaderKind, ShaderSection};
use super::probe::{self, DEFAULT_TOLERANCE};
use super::report::{Outcome, TestReport};
use super::require::{self, Requirements};
use super::textures;
use super::unit_textures::{self, UnitTexture};
use super::vertex_data::{self, VertexData};
use crate::debug::trace_pixel;
use crate::file_read::read_text_bounded;
use crate::pipeline::{PlainDraw, PreparedScene, ProgramCache};
use crate::scene::{
    Attribute, AttributeType, ClipPlanes, Draw, DrawState, GeometryDraw, NamedTexture,
    PointLineState, Primitive, ProvokingVertex, SamplerBinding, Scene, ShadeModel, UniformValue,
};
use csir::{Limits, UniformStorage};
use csir_raster::{DepthTest, Framebuffer, RasterState, Renderer};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Largest `.shader_test` file read, in bytes (16 MiB; the largest in piglit is a few
/// hundred KiB).
pub const MAX_SHADER_TEST_BYTES: u64 = 16 << 20;

/// How to run tests.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Shader limits to compile with (default: the renderer's profile, the extended
    /// one, [`csir::Profile::default`]).
    pub limits: Limits,
    /// Trace the first failing pixel of a failed test ([`TestReport::trace`]).
    pub trace_failures: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            limits: csir::Profile::default().limits(),
            trace_failures: false,
        }
    }
}

/// Read and run the test file at `path`: a piglit compiler test when its extension
/// is a shader stage's ([`compiler_test::stage_of`]), a `.shader_test` file otherwise.
pub fn run_file(path: &Path, options: &RunOptions) -> TestReport {
    match read_text_bounded(path, MAX_SHADER_TEST_BYTES) {
        Ok(text) if compiler_test::stage_of(path).is_some() => {
            compiler_test::run_text(path, &text, options)
        }
        Ok(text) => run_text(path, &text, options),
        Err(e) => TestReport::new(
            path.display().to_string(),
            Outcome::Error {
                line: None,
                message: format!("{}: {e}", path.display()),
                reason: format!("cannot read the file: {e}"),
            },
        ),
    }
}

/// Run the test whose text is `text`; `path` names it in messages.
pub fn run_text(path: &Path, text: &str, options: &RunOptions) -> TestReport {
    let file = path.display().to_string();
    let (outcome, trace) = match prepare(path, text, options) {
        Ok(mut run) => {
            let outcome = run.execute();
            let trace = match (&outcome, options.trace_failures) {
                (Outcome::Fail { probe, .. }, true) => Some(run.trace(probe.pixel)),
                _ => None,
            };
            (outcome, trace)
        }
        Err(outcome) => (outcome, None),
    };
    let mut report = TestReport::new(file, outcome);
    match trace {
        Some(Ok(t)) => report.trace = Some(t),
        Some(Err(e)) => report.trace_error = Some(e),
        None => {}
    }
    report
}

/// An [`Outcome::Error`] for a malformed line of `file`.
fn parse_error(file: &Path, e: ParseError) -> Outcome {
    Outcome::Error {
        line: Some(e.line),
        message: format!("{}:{}: {}", file.display(), e.line, e.message),
        reason: e.message,
    }
}

/// An [`Outcome::Error`] at `line` of `file`.
fn error_at(file: &Path, line: u32, message: impl Into<String>) -> Outcome {
    let message = message.into();
    Outcome::Error {
        line: Some(line),
        message: format!("{}:{line}: {message}", file.display()),
        reason: message,
    }
}

/// A skip at `line`.
fn skip(line: Option<u32>, reason: impl Into<String>) -> Outcome {
    Outcome::Skip {
        line,
        reason: reason.into(),
    }
}

/// Parse, check and compile; the returned [`Run`] executes the script.
fn prepare<'a>(path: &'a Path, text: &str, options: &'a RunOptions) -> Result<Run<'a>, Outcome> {
    let sections = parse::sections(text).map_err(|e| parse_error(path, e))?;
    // The requirements first, as shader_runner reads them: a test that needs what
    // csir-render lacks (an extension, a larger limit) is a skip even when its
    // [vertex data] or [test] section uses what it would provide.
    let requirements = match require::check(&sections.require, &options.limits) {
        Ok(r) => r,
        Err(Ok(unmet)) => return Err(skip(Some(unmet.line), unmet.reason)),
        Err(Err(e)) => return Err(parse_error(path, e)),
    };
    let script = commands::parse_script(&sections.test).map_err(|e| parse_error(path, e))?;
    let vertex_data =
        vertex_data::parse(&sections.vertex_data).map_err(|e| parse_error(path, e))?;
    if sections.require_line.is_none() {
        return Err(Outcome::Error {
            line: None,
            message: format!("{}: no [require] section", path.display()),
            reason: "no [require] section".into(),
        });
    }
    if let Some(s) = sections.unsupported.first() {
        return Err(skip(
            Some(s.line),
            format!("needs {} ({} section)", s.needs, s.header),
        ));
    }
    let vertex = stage_sections(&sections.shaders, ShaderKind::Vertex);
    let fragment = stage_sections(&sections.shaders, ShaderKind::Fragment);
    let geometry = stage_sections(&sections.shaders, ShaderKind::Geometry);
    if fragment.is_empty() && vertex.is_empty() && geometry.is_empty() {
        return Err(skip(
            None,
            "no shader: fixed-function vertex and fragment processing together are not supported",
        ));
    }
    if let Some(s) = script.iter().find_map(|s| match &s.command {
        Command::Unsupported(name) => Some((s.line, name)),
        _ => None,
    }) {
        return Err(skip(
            Some(s.0),
            format!("command '{}' is not supported", s.1),
        ));
    }
    let Some(glsl) = requirements.glsl else {
        return Err(Outcome::Error {
            line: sections.require_line,
            message: format!(
                "{}:{}: no 'GLSL >= X.Y' requirement (shader_runner needs it to compile shaders)",
                path.display(),
                sections.require_line.unwrap_or(1)
            ),
            reason: "no GLSL requirement".into(),
        });
    };
    if vertex.is_empty() && glsl.es {
        return Err(skip(
            None,
            "no vertex shader: OpenGL ES has no fixed-function vertex processing",
        ));
    }
    let stages = [&vertex[..], &geometry[..], &fragment[..]];
    let link_error = script.iter().find_map(|s| match s.command {
        Command::LinkError => Some(s.line),
        _ => None,
    });
    if let Some(line) = link_error {
        return Err(expect_link_error(path, line, stages, text, &glsl, options));
    }
    let compiled = compile_program(path, text, stages, &glsl, &options.limits)?;
    Run::new(path, options, requirements, compiled, vertex_data, script)
}

/// The outcome of a test whose script says `link error` at `line`: a pass when the
/// program does not compile or link for a GLSL rule; a skip when it is refused for
/// something csir-render does not support (the rule the test checks cannot be told
/// apart then); a mismatch when it links.
fn expect_link_error(
    path: &Path,
    line: u32,
    stages: [&[&ShaderSection<'_>]; 3],
    text: &str,
    glsl: &require::GlslRequirement,
    options: &RunOptions,
) -> Outcome {
    match compile_program(path, text, stages, glsl, &options.limits) {
        Ok(_) => Outcome::Mismatch {
            line: Some(line),
            message: format!(
                "{}:{line}: the program linked, but the test expects a link error",
                path.display()
            ),
            reason: "linked, but the test expects a link error".into(),
        },
        Err(Outcome::Error { reason, .. }) if lacks_support(&reason) => skip(
            Some(line),
            format!(
                "link error expected, but the program is refused for what csir-render lacks: {reason}"
            ),
        ),
        Err(Outcome::Error { .. }) => Outcome::Pass,
        Err(other) => other,
    }
}

/// Whether a compiler or linker message says csir-render lacks something ("not
/// supported", "CSIR has no loops", a limit of its own) rather than that the program
/// breaks a GLSL rule.
fn lacks_support(reason: &str) -> bool {
    [
        "supported",
        "CSIR",
        "csir-render",
        "the limit is",
        "limited to",
    ]
    .iter()
    .any(|w| reason.contains(w))
}

/// The sections of `kind` (a passthrough counts as a vertex shader), in file order:
/// several are the compilation units of that stage.
fn stage_sections<'s, 'a>(
    shaders: &'s [ShaderSection<'a>],
    kind: ShaderKind,
) -> Vec<&'s ShaderSection<'a>> {
    shaders
        .iter()
        .filter(|s| match kind {
            ShaderKind::Fragment | ShaderKind::Geometry => s.kind == kind,
            _ => matches!(s.kind, ShaderKind::Vertex | ShaderKind::VertexPassthrough),
        })
        .collect()
}

/// The state of a running script (the GL context of shader_runner).
struct Run<'a> {
    path: &'a Path,
    options: &'a RunOptions,
    requirements: Requirements,
    compiled: CompiledProgram,
    cache: ProgramCache,
    vertex_data: Option<VertexData>,
    script: Vec<ScriptLine>,
    framebuffer: Framebuffer,
    renderer: Renderer,
    /// Uniform values set so far: every element of the uniform, by name.
    uniforms: BTreeMap<String, Vec<f32>>,
    /// The same values as exact integers, for uniforms every command gave integers.
    uniform_ints: BTreeMap<String, Option<Vec<i64>>>,
    /// Where `uniform` commands are checked by the program (the values used are
    /// `uniforms`).
    scratch: UniformStorage,
    /// Texture unit of each sampler given one with `uniform int NAME UNIT`.
    sampler_units: BTreeMap<String, u32>,
    /// The texture bound to each (unit, target) pair, with its sampler state (GL
    /// binds one texture per target on each unit; a sampler reads its type's).
    units: BTreeMap<(u32, u8), UnitTexture>,
    active_unit: u32,
    transform: Transform,
    color: [f32; 4],
    /// `GL_VERTEX_PROGRAM_TWO_SIDE` (off until enabled, as in GL).
    two_side: bool,
    /// `shade model` (smooth until set, as in GL).
    shade_model: ShadeModel,
    /// `enable GL_CLIP_PLANEi` and `clip plane i ...` (none enabled, every equation
    /// zero, as in GL).
    clip_planes: ClipPlanes,
    /// `provoking vertex` (the last until set, as in GL).
    provoking_vertex: ProvokingVertex,
    /// `enable GL_PROGRAM_POINT_SIZE` and `polygon mode` (GL's defaults until set).
    points_lines: PointLineState,
    clear_color: Option<[f32; 4]>,
    tolerance: [f32; 4],
    /// The draws since the framebuffer was last cleared, and the colour it was cleared
    /// to: the frame a failing probe looks at.
    frame: Vec<Scene>,
    frame_clear: [f32; 4],
}

impl<'a> Run<'a> {
    fn new(
        path: &'a Path,
        options: &'a RunOptions,
        requirements: Requirements,
        compiled: CompiledProgram,
        vertex_data: Option<VertexData>,
        script: Vec<ScriptLine>,
    ) -> Result<Self, Outcome> {
        let [w, h] = requirements.window;
        let framebuffer = Framebuffer::new(w, h).map_err(|e| Outcome::Error {
            line: None,
            message: format!("{}: {e}", path.display()),
            reason: e.to_string(),
        })?;
        if let Some(data) = &vertex_data {
            // Under the extended profile an integer attribute takes the exact pattern;
            // a float one fed by an int column, and every one under the seed's, takes
            // the float value, exact within ±(2^24 − 1).
            let exact = |name: &str| {
                compiled.program.vertex.limits.extended_ops()
                    && compiled
                        .program
                        .attributes
                        .iter()
                        .any(|a| a.name == name && a.ty.is_integer())
            };
            let inexact = data
                .columns
                .iter()
                .any(|c| c.ty != super::vertex_data::ColumnType::Float && !exact(&c.name));
            if let (Some(e), true) = (&data.out_of_range, inexact) {
                return Err(parse_error(path, e.clone()));
            }
            for column in &data.columns {
                if !compiled
                    .program
                    .attributes
                    .iter()
                    .any(|a| a.name == column.name)
                {
                    return Err(error_at(
                        path,
                        data.header_line,
                        format!(
                            "vertex data column '{}' names no attribute of the vertex shader \
                             (it declares: {})",
                            column.name,
                            names(compiled.program.attributes.iter().map(|a| a.name.as_str()))
                        ),
                    ));
                }
            }
        }
        let scratch = compiled.program.new_uniforms();
        let mut cache = ProgramCache::new();
        cache.insert(
            compiled.vertex.text.clone(),
            compiled.fragment.text.clone(),
            compiled.geometry.as_ref().map(|g| g.text.clone()),
            compiled.program.clone(),
        );
        Ok(Run {
            path,
            options,
            requirements,
            compiled,
            cache,
            vertex_data,
            script,
            framebuffer,
            renderer: Renderer::new(),
            uniforms: BTreeMap::new(),
            uniform_ints: BTreeMap::new(),
            scratch,
            sampler_units: BTreeMap::new(),
            units: BTreeMap::new(),
            active_unit: 0,
            transform: Transform::default(),
            color: INITIAL_COLOR,
            two_side: false,
            shade_model: ShadeModel::Smooth,
            clip_planes: ClipPlanes::default(),
            provoking_vertex: ProvokingVertex::Last,
            points_lines: PointLineState::default(),
            clear_color: None,
            tolerance: DEFAULT_TOLERANCE,
            frame: Vec::new(),
            frame_clear: [0.0; 4],
        })
    }

    fn window(&self) -> [u32; 2] {
        self.requirements.window
    }

    /// Run the script to its end or to the first failing probe.
    fn execute(&mut self) -> Outcome {
        let script = std::mem::take(&mut self.script);
        for line in &script {
            if let Some(outcome) = self.step(line) {
                return outcome;
            }
        }
        Outcome::Pass
    }

    /// Run one command; `Some` ends the test.
    fn step(&mut self, line: &ScriptLine) -> Option<Outcome> {
        let at = |message: String| Some(error_at(self.path, line.line, message));
        match &line.command {
            Command::ClearColor(c) => self.clear_color = Some(*c),
            Command::ClearDepth(_) => {
                // Depth is never tested (no command enables the depth test), so clearing
                // it has no visible effect.
            }
            Command::Clear => {
                if let Some(color) = self.clear_color {
                    self.framebuffer.clear(color, 1.0);
                    self.frame.clear();
                    self.frame_clear = color;
                }
            }
            Command::Ortho(None) => {
                let [w, h] = self.window();
                self.transform = Transform::ortho(0.0, w as f32, 0.0, h as f32);
            }
            Command::Ortho(Some([l, r, b, t])) => self.transform = Transform::ortho(*l, *r, *b, *t),
            Command::Frustum([l, r, b, t, n, f]) => {
                self.transform = Transform::frustum(*l, *r, *b, *t, *n, *f);
            }
            Command::Color(c) => self.color = *c,
            Command::Tolerance(t) => self.tolerance = *t,
            Command::LinkSuccess | Command::LinkError | Command::DerivativeHint => {}
            Command::ShadeModel(model) => self.shade_model = *model,
            Command::Enable(Capability::VertexProgramTwoSide, on) => self.two_side = *on,
            Command::Enable(Capability::ProgramPointSize, on) => {
                self.points_lines.program_point_size = *on;
            }
            Command::ProvokingVertex(p) => self.provoking_vertex = *p,
            Command::PolygonMode(mode) => self.points_lines.polygon_mode = *mode,
            Command::Enable(Capability::ClipPlane(i), on) => {
                if *on {
                    self.clip_planes.enabled |= 1 << i;
                } else {
                    self.clip_planes.enabled &= !(1 << i);
                }
            }
            Command::ClipPlane(i, equation) => {
                self.clip_planes.equations[usize::from(*i)] = *equation;
            }
            Command::Uniform {
                ty,
                name,
                values,
                ints,
            } => {
                if let Err(message) = self.set_uniform(ty, name, values, ints.as_deref()) {
                    return at(message);
                }
            }
            Command::Texture { unit, image } => self.set_texture(*unit, image),
            Command::TexParameter { target, parameter } => {
                let key = (self.active_unit, *target as u8);
                let Some(bound) = self.units.get_mut(&key) else {
                    return at(format!(
                        "texparameter: texture unit {} has no {} texture (give one with 'texture' first)",
                        self.active_unit,
                        target.name()
                    ));
                };
                bound.set(parameter);
            }
            Command::DrawRect {
                instances,
                ortho,
                rect,
                tex,
            } => {
                let rect = if *ortho {
                    ortho_rect(*rect, self.window())
                } else {
                    *rect
                };
                return self.draw_rect(line.line, rect, *tex, *instances);
            }
            Command::DrawArrays {
                mode,
                first,
                count,
                instances,
            } => {
                return self.draw_arrays(line.line, *mode, *first, *count, *instances);
            }
            Command::Probe(p) => {
                return match probe::run(&self.framebuffer, p, self.tolerance) {
                    Ok(None) => None,
                    Ok(Some(failure)) => Some(Outcome::Fail {
                        line: line.line,
                        command: line.text.clone(),
                        probe: failure,
                    }),
                    Err(message) => at(message),
                };
            }
            Command::OutOfRange(message) => return at(message.clone()),
            Command::Unsupported(_) => {
                unreachable!("unsupported commands skip the test before it runs")
            }
        }
        None
    }

    /// `uniform TYPE NAME VALUES`: the values of one element (`NAME` alone is element 0
    /// of an array, as `glGetUniformLocation` gives it), or the texture unit of a
    /// sampler. The program checks name, element and value count.
    fn set_uniform(
        &mut self,
        ty: &str,
        key: &str,
        values: &[f32],
        ints: Option<&[i64]>,
    ) -> Result<(), String> {
        let program = &self.compiled.program;
        let given = UniformValue {
            key: key.to_string(),
            values: values.to_vec(),
            ints: None,
        };
        // An element of an array of samplers is a sampler of its own (`tex[2]`).
        let name = if program.samplers.iter().any(|s| s.name == key) {
            key
        } else {
            given.name()
        };
        if program.samplers.iter().any(|s| s.name == name) {
            let unit = match values {
                [u] if u.fract() == 0.0 && (0.0..32.0).contains(u) => *u as u32,
                _ => {
                    return Err(format!(
                        "'{name}' is a sampler: give it one texture unit 0..=31 (uniform int {name} UNIT)"
                    ));
                }
            };
            self.sampler_units.insert(name.to_string(), unit);
            return Ok(());
        }
        let Some(record) = program.uniform(name) else {
            if self.requirements.ignore_missing_uniforms {
                return Ok(());
            }
            return Err(format!(
                "the program has no uniform '{name}' (it declares: {})",
                names(
                    program
                        .uniforms
                        .iter()
                        .map(|u| u.name.as_str())
                        .chain(program.samplers.iter().map(|s| s.name.as_str()))
                )
            ));
        };
        let per = record.element_floats();
        // `mat2` and the non-square matrices are recorded as the array of their columns
        // (docs/scene-format.md): a `uniform matCxR` command fills C of those
        // elements, and its element i (always 0: arrays of them do not compile) starts
        // at column i·C.
        let columns = super::commands::matrix_shape(ty)
            .map(|(c, _)| c)
            .filter(|&c| record.array_len.is_some() && values.len() == c * per)
            .unwrap_or(1);
        let element = given.element().unwrap_or(0) * columns;
        for k in 0..columns {
            let one_element = if record.array_len.is_some() {
                format!("{name}[{}]", element + k)
            } else {
                key.to_string()
            };
            let part = if columns > 1 {
                &values[k * per..(k + 1) * per]
            } else {
                values
            };
            let checked = match ints {
                Some(ints) if columns == 1 => {
                    program.set_uniform_ints(&mut self.scratch, &one_element, ints)
                }
                _ => program.set_uniform(&mut self.scratch, &one_element, part),
            };
            checked.map_err(|e| format!("uniform {ty} {key}: {e}"))?;
        }
        let elements = usize::from(record.array_len.unwrap_or(1));
        let storage = self
            .uniforms
            .entry(name.to_string())
            .or_insert_with(|| vec![0.0; per * elements]);
        storage[element * per..element * per + values.len()].copy_from_slice(values);
        let exact = self
            .uniform_ints
            .entry(name.to_string())
            .or_insert_with(|| Some(vec![0; per * elements]));
        match (exact.as_mut(), ints) {
            (Some(all), Some(ints)) => {
                all[element * per..element * per + ints.len()].copy_from_slice(ints)
            }
            _ => *exact = None,
        }
        Ok(())
    }

    /// `texture KIND [TARGET] UNIT ...`: a new texture bound to the image's target on
    /// `unit`, which becomes the active unit (shader_runner calls glActiveTexture).
    /// A depth texture starts in the depth mode of the test's context
    /// ([`UnitTexture::new`]).
    fn set_texture(&mut self, unit: u32, image: &TextureImage) {
        let glsl = self.requirements.glsl.map_or(110, |g| g.version);
        self.units
            .insert((unit, image.target() as u8), UnitTexture::new(image, glsl));
        self.active_unit = unit;
    }

    /// Whether the fragment shader reads `gl_PrimitiveID`.
    fn reads_primitive_id(&self) -> bool {
        self.compiled
            .program
            .fragment
            .interface
            .symbols
            .iter()
            .any(|s| s.name == "gl_PrimitiveID")
    }

    /// The location of vertex shader attribute `name`, if the program declares it.
    fn attribute(&self, name: &str) -> Option<u32> {
        self.compiled
            .program
            .attributes
            .iter()
            .find(|a| a.name == name)
            .map(|a| u32::from(a.location))
    }

    /// `draw rect`: a 4-vertex strip. As in piglit, when the vertex shader declares
    /// `piglit_vertex` the corners feed it (and the texture coordinates
    /// `piglit_texcoord`), otherwise `gl_Vertex` (and `gl_MultiTexCoord0`). A shader
    /// with neither gets the corners in the attribute at location 0: piglit draws
    /// through generic attribute 0 in OpenGL ES (`PIGLIT_ATTRIB_POS`), and in a
    /// compatibility context the vertex array feeds generic attribute 0 too, which
    /// its `attribute0` test checks (GL 2.1 §2.7, "generic attribute zero").
    fn draw_rect(
        &mut self,
        line: u32,
        rect: [f32; 4],
        tex: Option<[f32; 4]>,
        instances: u32,
    ) -> Option<Outcome> {
        let generic = self.attribute("piglit_vertex").is_some();
        let (position, texcoord) = if generic {
            ("piglit_vertex", "piglit_texcoord")
        } else {
            ("gl_Vertex", "gl_MultiTexCoord0")
        };
        let position = self.attribute(position).or_else(|| {
            let at_zero = self
                .compiled
                .program
                .attributes
                .iter()
                .any(|a| a.location == 0);
            at_zero.then_some(0)
        });
        let mut arrays = Vec::new();
        if let Some(location) = position {
            arrays.push(Attribute {
                location,
                size: 4,
                data: rect_positions(rect),
                ..Attribute::default()
            });
        }
        if let (Some(tex), Some(location)) = (tex, self.attribute(texcoord)) {
            arrays.push(Attribute {
                location,
                size: 2,
                data: rect_texcoords(tex),
                ..Attribute::default()
            });
        }
        let shape = Shape {
            primitive: Primitive::Triangles,
            instances,
            geometry_input: ("triangle_strip", vec![0, 1, 2, 3]),
        };
        self.draw(line, arrays, 4, rect_indices(), shape)
    }

    /// `draw arrays MODE FIRST COUNT` with the `[vertex data]` rows.
    fn draw_arrays(
        &mut self,
        line: u32,
        mode: DrawMode,
        first: u32,
        count: u32,
        instances: u32,
    ) -> Option<Outcome> {
        let quads = matches!(mode, DrawMode::Quads | DrawMode::QuadStrip);
        if quads && self.reads_primitive_id() {
            // a quad is one primitive; drawn as two triangles it would count as two
            return Some(skip(
                Some(line),
                "gl_PrimitiveID of GL_QUADS or GL_QUAD_STRIP (csir-render draws a quad as \
                 two triangles, each with its own primitive index)",
            ));
        }
        let mut arrays = Vec::new();
        // Without [vertex data] every attribute holds its current value, (0, 0, 0, 1)
        // (GL 3.3 core §2.7): a shader that draws from gl_VertexID needs none.
        if let Some(data) = &self.vertex_data {
            let rows = data.rows.len();
            if first as usize + count as usize > rows {
                return Some(error_at(
                    self.path,
                    line,
                    format!(
                        "draw arrays reads rows {first}..{} but [vertex data] has {rows}",
                        u64::from(first) + u64::from(count)
                    ),
                ));
            }
            for (i, column) in data.columns.iter().enumerate() {
                if let Some(location) = self.attribute(&column.name) {
                    let patterns = self.compiled.program.vertex.limits.extended_ops()
                        && self
                            .compiled
                            .program
                            .attributes
                            .iter()
                            .any(|a| a.name == column.name && a.ty.is_integer());
                    // rows from 0, so that vertex k of the draw is row (and
                    // gl_VertexID) first + k, as glDrawArrays numbers them
                    let rows = (first + count) as usize;
                    let values = data.column_values(i, 0, rows, patterns);
                    arrays.push(match patterns {
                        // GL fills the missing components of an integer attribute with
                        // the integers (0, 0, 0, 1), not the floats the pipeline pads
                        // with: widened here, as patterns.
                        true => Attribute {
                            location,
                            size: 4,
                            data: integer_attribute(&values, column.count as usize),
                            ty: AttributeType::Int,
                            divisor: 0,
                        },
                        false => Attribute {
                            location,
                            size: column.count,
                            data: values,
                            ..Attribute::default()
                        },
                    });
                }
            }
        }
        let indices = triangle_indices(mode, count, self.provoking_vertex)
            .into_iter()
            .map(|i| i + first)
            .collect();
        let shape = Shape {
            primitive: match mode {
                DrawMode::Primitive(p) => p,
                DrawMode::Quads | DrawMode::QuadStrip => Primitive::Triangles,
            },
            instances,
            geometry_input: (geometry_mode(mode), (first..first + count).collect()),
        };
        self.draw(line, arrays, first + count, indices, shape)
    }

    /// Draw `vertex_count` vertices with `arrays` (plus the current values of
    /// `gl_Color` and `gl_Normal` where no array feeds them) as the triangles
    /// `indices`, with the uniforms, matrices and textures set so far.
    fn draw(
        &mut self,
        line: u32,
        mut arrays: Vec<Attribute>,
        vertex_count: u32,
        indices: Vec<u32>,
        shape: Shape,
    ) -> Option<Outcome> {
        for (name, value) in [("gl_Color", self.color), ("gl_Normal", CURRENT_NORMAL)] {
            if let Some(location) = self.attribute(name)
                && !arrays.iter().any(|a| a.location == location)
            {
                arrays.push(Attribute {
                    location,
                    size: 4,
                    data: value.repeat(vertex_count as usize),
                    ..Attribute::default()
                });
            }
        }
        arrays.sort_by_key(|a| a.location);
        let (textures, samplers) = match self.bound_textures() {
            Ok(t) => t,
            Err(reason) => return Some(skip(Some(line), reason)),
        };
        let draw = Draw {
            index: 0,
            mesh: None,
            vertex: self.compiled.vertex.clone(),
            fragment: self.compiled.fragment.clone(),
            geometry: self.compiled.geometry.clone().map(|shader| {
                let (mode, elements) = shape.geometry_input;
                GeometryDraw::new(shader, mode, &Some(elements), None)
            }),
            attributes: arrays,
            vertex_count,
            indices,
            primitive: shape.primitive,
            instances: shape.instances,
            elements: None,
            primitive_restart_index: None,
            uniforms: self.uniform_values(),
            samplers,
            state: DrawState {
                raster: RasterState {
                    depth_test: DepthTest::Disabled,
                    ..RasterState::default()
                },
                two_sided_color: self.two_side,
                shade_model: self.shade_model,
                clip_planes: self.clip_planes,
                provoking_vertex: self.provoking_vertex,
                points_lines: self.points_lines,
                multisample: Default::default(),
            },
        };
        let scene = Scene {
            path: self.path.to_path_buf(),
            width: self.framebuffer.width(),
            height: self.framebuffer.height(),
            clear_color: self.frame_clear,
            clear_depth: 1.0,
            clear_stencil: 0,
            textures,
            draws: vec![draw],
            expect: None,
            targets: Default::default(),
            seamless_cube_map: false,

            samples: 1,
        };
        let drawn = PreparedScene::with_cache(&scene, &self.options.limits, &mut self.cache)
            .map_err(crate::pipeline::RenderError::from)
            .and_then(|prepared| {
                prepared.draw_with(&mut self.renderer, &mut self.framebuffer, &mut PlainDraw)
            });
        if let Err(e) = drawn {
            return Some(error_at(self.path, line, format!("the draw failed: {e}")));
        }
        self.frame.push(scene);
        None
    }

    /// The uniform values of the next draw: every uniform set so far, then the
    /// built-in matrices the program declares.
    fn uniform_values(&self) -> Vec<UniformValue> {
        let mut values: Vec<UniformValue> = self
            .uniforms
            .iter()
            .map(|(key, values)| UniformValue {
                key: key.clone(),
                values: values.clone(),
                ints: self.uniform_ints.get(key).cloned().flatten(),
            })
            .collect();
        for record in &self.compiled.program.uniforms {
            let Some(element) = self.transform.builtin(&record.name) else {
                continue;
            };
            if element.len() != record.element_floats() || self.uniforms.contains_key(&record.name)
            {
                continue;
            }
            values.push(UniformValue {
                key: record.name.clone(),
                values: element.repeat(usize::from(record.array_len.unwrap_or(1))),
                ints: None,
            });
        }
        values
    }

    /// One texture per program sampler, from the unit the sampler was given (unit 0 if
    /// none) and the target of its type; a unit without a texture there samples as
    /// OpenGL's incomplete texture. Err: a sampler state csir-render's sampler cannot
    /// express (skip reason).
    fn bound_textures(&self) -> Result<(Vec<NamedTexture>, Vec<SamplerBinding>), String> {
        let mut textures = Vec::new();
        let mut bindings = Vec::new();
        for record in &self.compiled.program.samplers {
            let unit = self.sampler_units.get(&record.name).copied().unwrap_or(0);
            let target = unit_textures::sampler_target(&self.compiled.program, &record.name);
            let (texture, gl33, sampler, gl33_sampler) = match self.units.get(&(unit, target as u8))
            {
                Some(bound) => bound.binding(),
                None => (
                    textures::missing(),
                    None,
                    unit_textures::LEGACY_SAMPLER,
                    None,
                ),
            };
            bindings.push(SamplerBinding {
                name: record.name.clone(),
                texture: textures.len(),
                sampler,
                gl33: gl33_sampler,
            });
            textures.push(NamedTexture {
                name: format!("unit {unit}"),
                path: PathBuf::from(format!("texture unit {unit}")),
                texture,
                gl33,
            });
        }
        Ok((textures, bindings))
    }

    /// Trace window pixel `pixel` of the current frame: the draws since the last clear,
    /// on the colour it cleared to.
    fn trace(&self, pixel: [u32; 2]) -> Result<crate::debug::PixelTrace, String> {
        let mut scene = Scene {
            path: self.path.to_path_buf(),
            width: self.framebuffer.width(),
            height: self.framebuffer.height(),
            clear_color: self.frame_clear,
            clear_depth: 1.0,
            clear_stencil: 0,
            textures: Vec::new(),
            draws: Vec::new(),
            expect: None,
            targets: Default::default(),
            seamless_cube_map: false,

            samples: 1,
        };
        for one in &self.frame {
            let offset = scene.textures.len();
            scene.textures.extend(one.textures.iter().cloned());
            for draw in &one.draws {
                let mut draw = draw.clone();
                draw.index = scene.draws.len();
                for s in &mut draw.samplers {
                    s.texture += offset;
                }
                scene.draws.push(draw);
            }
        }
        let image = [pixel[0], scene.height - 1 - pixel[1]];
        trace_pixel(&scene, image).map_err(|e| e.to_string())
    }
}

/// What a draw's index triples are, how many instances it draws, and what a
/// geometry shader takes instead of them.
#[derive(Clone, Debug)]
struct Shape {
    /// The primitive type the triples were assembled from.
    primitive: Primitive,
    /// `glDraw*Instanced`'s instance count.
    instances: u32,
    /// For a program with a geometry shader: the GL mode name and the vertex list it
    /// assembles its input primitives from ([`GeometryDraw::new`]).
    geometry_input: (&'static str, Vec<u32>),
}

/// `a, b, c`, or `nothing`.
fn names<'n>(names: impl Iterator<Item = &'n str>) -> String {
    let list: Vec<&str> = names.collect();
    if list.is_empty() {
        "nothing".to_string()
    } else {
        list.join(", ")
    }
}

/// Integer attribute values of `size` components per vertex (32-bit patterns) widened
/// to 4, missing components from the integers (0, 0, 0, 1).
fn integer_attribute(values: &[f32], size: usize) -> Vec<f32> {
    let fill = csir::exec::DEFAULT_INT_ATTRIBUTE;
    values
        .chunks(size.max(1))
        .flat_map(|v| (0..4).map(move |k| v.get(k).copied().unwrap_or(fill[k])))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const VERTEX: &str = "[vertex shader]\n#version 330 core\nin vec4 piglit_vertex;\n\
        void main() { gl_Position = piglit_vertex; }\n";

    /// A test file with the passthrough-like vertex shader above, `fragment` (a
    /// `#version 330 core` shader body) and the `[test]` script `script`.
    fn file(fragment: &str, script: &str) -> String {
        format!(
            "[require]\nGLSL >= 3.30\n\n{VERTEX}\n[fragment shader]\n#version 330 core\n\
             {fragment}\n[test]\n{script}"
        )
    }

    fn run(text: &str) -> TestReport {
        run_text(Path::new("t.shader_test"), text, &RunOptions::default())
    }

    /// piglit's `draw rect` without `piglit_vertex` or `gl_Vertex`: the corners go to
    /// the attribute at location 0, whatever its name (piglit's `attribute0` test and
    /// the GLSL ES 3.00 `varying-struct-*` tests draw this way). The left half is
    /// drawn, the right half keeps the clear colour.
    #[test]
    fn draw_rect_feeds_location_0_when_no_position_is_named() {
        let text = |input: &str| {
            format!(
                "[require]\nGLSL >= 3.30\n\n[vertex shader]\n#version 330 core\n\
                 in vec4 {input};\nvoid main() {{ gl_Position = {input}; }}\n\n\
                 [fragment shader]\n#version 330 core\nout vec4 c;\n\
                 void main() {{ c = vec4(0.0, 1.0, 0.0, 1.0); }}\n\n[test]\n\
                 clear color 0.0 0.0 1.0 1.0\nclear\ndraw rect -1 -1 1 2\n\
                 probe rect rgba (0, 0, 125, 250) (0.0, 1.0, 0.0, 1.0)\n\
                 probe rect rgba (125, 0, 125, 250) (0.0, 0.0, 1.0, 1.0)\n"
            )
        };
        assert_eq!(status(&text("vertex")), "pass");
        assert_eq!(status(&text("piglit_vertex")), "pass");
    }

    fn status(text: &str) -> String {
        outcome(&run(text))
    }

    /// `[require]` is read before `[vertex data]` and `[test]`: a test needing an
    /// extension csir-render lacks is a skip naming it, even when its vertex data uses a
    /// type only that extension gives (a double attribute) or its script a command
    /// csir-render cannot parse. Without the requirement the same file is an error.
    #[test]
    fn an_unmet_requirement_skips_before_vertex_data_and_commands_are_read() {
        let text = |require: &str, data: &str, script: &str| {
            format!(
                "[require]\nGLSL >= 1.30\n{require}\n[vertex shader passthrough]\n\
                 [fragment shader]\n#version 130\nvoid main() {{ gl_FragColor = vec4(1.0); }}\n\
                 [vertex data]\n{data}[test]\n{script}"
            )
        };
        let data = "piglit_vertex/double/2\n-1 -1\n";
        let needs = text(
            "GL_ARB_vertex_attrib_64bit",
            data,
            "draw arrays GL_POINTS 0 1\n",
        );
        assert_eq!(
            status(&needs),
            "skip Some(3): needs extension GL_ARB_vertex_attrib_64bit"
        );
        let bad_script = text("GL_ARB_vertex_attrib_64bit", "", "uniform dvec2 d 1.0\n");
        assert!(
            status(&bad_script).starts_with("skip Some(3)"),
            "{}",
            status(&bad_script)
        );
        let without = text("", data, "draw arrays GL_POINTS 0 1\n");
        assert!(
            status(&without).starts_with("error t.shader_test:"),
            "{}",
            status(&without)
        );
    }

    /// [`status`] under the seed profile.
    fn seed_status(text: &str) -> String {
        let options = RunOptions {
            limits: csir::Limits::SEED,
            ..RunOptions::default()
        };
        outcome(&run_text(Path::new("t.shader_test"), text, &options))
    }

    fn outcome(r: &TestReport) -> String {
        match &r.outcome {
            Outcome::Pass => "pass".into(),
            Outcome::Fail { line, probe, .. } => {
                format!("fail {line}: {:?} got {:?}", probe.pixel, probe.got)
            }
            Outcome::Skip { line, reason } => format!("skip {line:?}: {reason}"),
            Outcome::Error { message, .. } => format!("error {message}"),
            Outcome::Mismatch { message, .. } => format!("mismatch {message}"),
        }
    }

    /// `link error`: a pass when the program breaks a GLSL rule at compile or link
    /// time, a mismatch when it links, a skip when it is refused for what csir-render
    /// lacks (the rule under test is then not checked).
    #[test]
    fn link_error_expects_the_program_not_to_link() {
        let vs = "in vec4 piglit_vertex;\nout vec3 v;\nvoid main() { gl_Position = piglit_vertex; v = vec3(1.0); }\n";
        let data = "piglit_vertex/float/2\n-1 -1\n";
        // The fragment input is a vec4, the vertex output a vec3 (GLSL 1.30 §4.3.4).
        let mismatch = file_130(
            vs,
            "in vec4 v;\nvoid main() { gl_FragColor = v; }\n",
            data,
            "link error\n",
        );
        assert_eq!(status(&mismatch), "pass");
        let fine = file_130(
            vs,
            "in vec3 v;\nvoid main() { gl_FragColor = vec4(v, 1.0); }\n",
            data,
            "link error\n",
        );
        assert!(
            status(&fine).starts_with(
                "mismatch t.shader_test:20: the program linked, but the test expects a link error"
            ),
            "{}",
            status(&fine)
        );
        let unsupported = file_130(
            vs,
            "in vec3 v;\nuniform int n;\nvoid main() { float s = 0.0; for (int i = 0; i < n; i++) s += 1.0; gl_FragColor = vec4(v, s); }\n",
            data,
            "link error\n",
        );
        let got = status(&unsupported);
        assert!(got.starts_with("skip Some(21): link error expected, but the program is refused for what csir-render lacks"), "{got}");
    }

    /// An integer probe (`relative probe rect rgba int`) skips the test, naming it: the
    /// colour buffer is RGBA8, not the integer one such a probe reads.
    #[test]
    fn integer_probes_skip_naming_the_probe() {
        let fs = "out vec4 o;\nvoid main() { o = vec4(1.0); }\n";
        let script = "draw rect -1 -1 2 2\n\
                      relative probe rect rgba int (0.0, 0.0, 1.0, 1.0) (1, 1, 1, 1)\n";
        assert_eq!(
            status(&file(fs, script)),
            "skip Some(16): command 'relative probe rect rgba int' is not supported"
        );
    }

    /// `uniform uint NAME 4u` sets 4, as shader_runner's `strtoul` reads it.
    #[test]
    fn uint_uniforms_take_glsls_u_suffix() {
        let fs = "uniform uint x;\nuniform uvec2 y;\nout vec4 o;\n\
                  void main() { o = vec4(float(x) / 8.0, float(y.x + y.y) / 16.0, 0.0, 1.0); }\n";
        let script = "uniform uint x 4u\nuniform uvec2 y 3U 0x5u\ndraw rect -1 -1 2 2\n\
                      probe all rgba 0.5 0.5 0.0 1.0\n";
        assert_eq!(status(&file(fs, script)), "pass");
    }

    #[test]
    fn array_uniforms_take_one_element_per_command() {
        let fs = "uniform vec2 a[3];\nout vec4 o;\nvoid main() { o = vec4(a[0], a[2]); }\n";
        // a plain name sets element 0, as glGetUniformLocation("a") does
        let script = "uniform vec2 a 0.0 1.0\nuniform vec2 a[2] 0.5 1.0\n\
                      draw rect -1 -1 2 2\nprobe all rgba 0.0 1.0 0.5 1.0\n";
        assert_eq!(status(&file(fs, script)), "pass");
        let script = "uniform vec2 a[3] 0 0\n";
        assert_eq!(
            status(&file(fs, script)),
            "error t.shader_test:16: uniform vec2 a[3]: 'a' has no element 3"
        );
        let script = "uniform vec4 b 0 0 0 0\n";
        assert_eq!(
            status(&file(fs, script)),
            "error t.shader_test:16: the program has no uniform 'b' (it declares: a)"
        );
        let ignoring =
            file(fs, script).replace("GLSL >= 3.30", "GLSL >= 3.30\nignore_missing_uniforms");
        assert_eq!(status(&ignoring), "pass");
    }

    #[test]
    fn matrix_uniform_commands_fill_every_column() {
        // mat2 and mat2x3 are recorded as arrays of their columns; one command sets all.
        let fs = "uniform mat2 m;\nuniform mat2x3 n;\nout vec4 o;\n\
                  void main() { o = vec4(m[1], n[1].z, n[0].x); }\n";
        let script = "uniform mat2 m 0.1 0.2 0.3 0.4\nuniform mat2x3 n 0.5 0 0 0 0 0.6\n\
                      draw rect -1 -1 2 2\nprobe all rgba 0.3 0.4 0.6 0.5\n";
        assert_eq!(status(&file(fs, script)), "pass");
        let script = "uniform mat2x3 n 0.5 0 0 0 0\n";
        assert_eq!(
            status(&file(fs, script)),
            "error t.shader_test:17: uniform mat2x3 n: value 6 of 6: expected a number, found \
             the end of the line"
        );
    }

    #[test]
    fn samplers_read_their_unit_and_an_empty_unit_reads_black() {
        let fs =
            "uniform sampler2D s;\nout vec4 o;\nvoid main() { o = texture(s, vec2(0.1, 0.9)); }\n";
        // no uniform command: unit 0; rgbw's top-left quadrant is blue
        let script = "texture rgbw 0 (4, 4)\ndraw rect -1 -1 2 2\nprobe all rgba 0 0 1 1\n";
        assert_eq!(status(&file(fs, script)), "pass");
        let script = "texture rgbw 0 (4, 4)\nuniform int s 3\ndraw rect -1 -1 2 2\n\
                      probe all rgba 0 0 0 1\n";
        assert_eq!(status(&file(fs, script)), "pass");
        let script = "uniform float s 0.5\n";
        assert_eq!(
            status(&file(fs, script)),
            "error t.shader_test:16: 's' is a sampler: give it one texture unit 0..=31 \
             (uniform int s UNIT)"
        );
        // Different min and mag filters take the GL 3.3 sampler: magnified, nearest.
        let script = "texture rgbw 0 (4, 4)\ntexparameter 2D min linear\ndraw rect -1 -1 2 2\n\
                      probe all rgba 0 0 1 1\n";
        assert_eq!(status(&file(fs, script)), "pass");
        let script = "texparameter 2D min linear\n";
        assert_eq!(
            status(&file(fs, script)),
            "error t.shader_test:16: texparameter: texture unit 0 has no 2d texture \
             (give one with 'texture' first)"
        );
    }

    /// An element of an array of samplers takes its unit by its own name, as
    /// shader_runner's `uniform int tex[1] 2` sets it with `glUniform1i`.
    #[test]
    fn sampler_array_elements_take_their_own_units() {
        let fs = "uniform sampler2D s[2];\nout vec4 o;\n\
                  void main() { o = texture(s[1], vec2(0.1, 0.9)) + texture(s[0], vec2(0.9)); }\n";
        // s[1] on unit 2 reads rgbw's blue top-left quadrant; s[0] on the empty unit 0
        // reads (0, 0, 0, 1).
        let script = "texture rgbw 2 (4, 4)\nuniform int s[1] 2\ndraw rect -1 -1 2 2\n\
                      probe all rgba 0 0 1 1\n";
        assert_eq!(status(&file(fs, script)), "pass");
        // Both on unit 2: blue plus white.
        let script = "texture rgbw 2 (4, 4)\nuniform int s[1] 2\nuniform int s[0] 2\n\
                      draw rect -1 -1 2 2\nprobe all rgba 1 1 1 1\n";
        assert_eq!(status(&file(fs, script)), "pass");
    }

    /// Each target of a unit holds its own texture; the sampler's type picks it. A 1D
    /// rgbw texture read at s = 0.6 is blue (texel 2 of 4), a 3D one at (0.75, 0.25,
    /// 0.75) magenta (texel (1, 0, 1)), while the 2D rgbw texture on the same unit
    /// reads green at (0.75, 0.25).
    #[test]
    fn samplers_read_the_texture_of_their_target() {
        let fs = "uniform sampler1D a;\nuniform sampler3D b;\nuniform sampler2D c;\n\
                  uniform int which;\nout vec4 o;\nvoid main() {\n\
                  if (which == 0) o = texture(a, 0.6);\n\
                  else if (which == 1) o = texture(b, vec3(0.75, 0.25, 0.75));\n\
                  else o = texture(c, vec2(0.75, 0.25));\n}\n";
        let script = "texture rgbw 1D 0\ntexture rgbw 3D 0\ntexture rgbw 0 (4, 4)\n\
                      uniform int which 0\ndraw rect -1 -1 2 2\nprobe all rgba 0 0 1 1\n\
                      uniform int which 1\ndraw rect -1 -1 2 2\nprobe all rgba 1 0 1 1\n\
                      uniform int which 2\ndraw rect -1 -1 2 2\nprobe all rgba 0 1 0 1\n";
        assert_eq!(status(&file(fs, script)), "pass");
    }

    /// GLSL 1.10's `shadow2D` returns the comparison as the depth mode places it:
    /// the default of the compatibility context is luminance `(r, r, r, 1)`; `alpha`
    /// gives `(0, 0, 0, r)`. The depth texture is 0 at the left, 1 at the right, and
    /// `GL_GREATER` passes where the reference 0.5 is greater than the texel.
    #[test]
    fn shadow_textures_compare_and_follow_the_depth_mode() {
        let text = |script: &str| {
            format!(
                "[require]\nGLSL >= 1.10\n\n[vertex shader]\nvarying vec4 t;\n\
                 void main() {{ gl_Position = gl_Vertex; t = (gl_Vertex + 1.0) / 2.0; }}\n\
                 [fragment shader]\nuniform sampler2DShadow s;\nvarying vec4 t;\n\
                 void main() {{ gl_FragColor = shadow2D(s, vec3(t.x, t.y, 0.5)); }}\n\
                 [test]\ntexture shadow2D 0 (32, 32)\n{script}draw rect -1 -1 2 2\n\
                 relative probe rgba (0.1, 0.5) {{pass}}\nrelative probe rgba (0.9, 0.5) {{fail}}\n"
            )
        };
        let case = |script: &str, pass: &str, fail: &str| {
            text(script).replace("{pass}", pass).replace("{fail}", fail)
        };
        assert_eq!(
            status(&case("", "(1.0, 1.0, 1.0, 1.0)", "(0.0, 0.0, 0.0, 1.0)")),
            "pass"
        );
        assert_eq!(
            status(&case(
                "texparameter 2D depth_mode alpha\n",
                "(0.0, 0.0, 0.0, 1.0)",
                "(0.0, 0.0, 0.0, 0.0)"
            )),
            "pass"
        );
        assert_eq!(
            status(&case(
                "texparameter 2D compare_func less\n",
                "(0.0, 0.0, 0.0, 1.0)",
                "(1.0, 1.0, 1.0, 1.0)"
            )),
            "pass"
        );
    }

    #[test]
    fn clears_follow_the_clear_colour_given() {
        let fs = "out vec4 o;\nvoid main() { o = vec4(1.0); }\n";
        // `clear` without `clear color` clears nothing (no buffer bit is set)
        let script = "clear\nprobe all rgba 0 0 0 0\nclear color 0.0 1.0 0.0 1.0\nclear\n\
                      probe rgba 0 0 0 1 0 1\ndraw rect ortho 0 0 1 1\nprobe rgba 0 0 1 1 1 1\n\
                      probe rgba 1 0 0 1 0 1\n";
        assert_eq!(status(&file(fs, script)), "pass");
    }

    #[test]
    fn a_failure_stops_the_script_and_traces_the_frame_since_the_clear() {
        let fs = "uniform vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n";
        let script = "uniform vec4 c 1 0 0 1\ndraw rect -1 -1 2 2\nclear color 0 0 1 1\nclear\n\
                      uniform vec4 c 0 1 0 1\ndraw rect ortho 0 0 2 2\nprobe rgba 1 1 1 0 0 1\n\
                      probe rgba 9 9 9 9 9 9 # never reached\n";
        let options = RunOptions {
            trace_failures: true,
            ..RunOptions::default()
        };
        let report = run_text(Path::new("t.shader_test"), &file(fs, script), &options);
        let Outcome::Fail { line, probe, .. } = &report.outcome else {
            panic!("{report}");
        };
        assert_eq!(
            (*line, probe.pixel, probe.got),
            (22, [1, 1], [0, 255, 0, 255])
        );
        let trace = report.trace.as_ref().expect("traced");
        assert_eq!(
            trace.color, probe.got,
            "the trace ends in the probed colour"
        );
        assert_eq!(trace.window, [1, 1]);
        assert_eq!(trace.draws.len(), 1, "only the draw after the clear");
        assert_eq!(
            trace.draws[0].before,
            [0, 0, 255, 255],
            "on the clear colour"
        );
    }

    #[test]
    fn integers_csir_cannot_hold_are_errors_at_their_line_unless_the_test_skips() {
        let fs = "uniform int x;\nout vec4 o;\nvoid main() { o = vec4(float(x + 1 <= 0)); }\n";
        // The extended profile holds every 32-bit value; the seed's only ±(2^24 − 1).
        assert_eq!(
            status(&file(fs, "uniform int x 2147483647\ndraw rect -1 -1 2 2\n")),
            "pass"
        );
        assert_eq!(
            seed_status(&file(fs, "uniform int x 2147483647\ndraw rect -1 -1 2 2\n")),
            "error t.shader_test:16: uniform int x: 'x' is int: 2147483647 is outside \
             -16777215..=16777215 (2^24 - 1): CSIR keeps integers in float registers, exact \
             only within that range"
        );
        assert_eq!(
            status(&file(
                fs,
                "uniform int x 2147483647\nenable GL_DEPTH_TEST\n"
            )),
            "skip Some(17): command 'enable GL_DEPTH_TEST' is not supported"
        );
        let data = "[vertex data]\npiglit_vertex/float/2 i/int/1\n-1 -1 0\n3 -1 0x7fffffff\n";
        let text = file("out vec4 o;\nvoid main() { o = vec4(1.0); }\n", "")
            .replace("[test]", &format!("{data}\n[test]"));
        assert_eq!(
            status(&text),
            "error t.shader_test:17: vertex data column 'i' component 1: 2147483647 is \
             outside -16777215..=16777215 (2^24 - 1): CSIR keeps integers in float \
             registers, exact only within that range"
        );
    }

    /// A GLSL 1.30 test file with its own `vertex` and `fragment` shader bodies,
    /// `[vertex data]` rows `data` and the script `script`.
    fn file_130(vertex: &str, fragment: &str, data: &str, script: &str) -> String {
        format!(
            "[require]\nGLSL >= 1.30\n\n[vertex shader]\n#version 130\n{vertex}\n\
             [fragment shader]\n#version 130\n{fragment}\n[vertex data]\n{data}\n\
             [test]\n{script}"
        )
    }

    #[test]
    fn flat_integer_varyings_arrive_bit_for_bit_from_the_provoking_vertex() {
        // GLSL 1.30 §4.3.6: integer varyings are flat; the value is the last vertex's
        // (GL 3.0 §2.14.7), its 32 bits unchanged: 2^24 + 1 (which a float would round
        // to 2^24) and uint patterns that read as NaN, -NaN and infinity as floats.
        let vs = "in vec4 piglit_vertex;\nin int k;\nin uint u;\nflat out ivec2 v;\n\
                  flat out uint w;\n\
                  void main() { gl_Position = piglit_vertex; v = ivec2(k, -k); w = u; }\n";
        let fs = "flat in ivec2 v;\nflat in uint w;\nuniform ivec2 want;\nuniform uint wantu;\n\
                  void main() { gl_FragColor = vec4(float(v == want), float(w == wantu), \
                  float(v.x & 0xFF) / 255.0, 1.0); }\n";
        let data = "piglit_vertex/float/2 k/int/1 u/uint/1\n\
                    -1 -1 16777215 0xFFFFFFFF\n3 -1 16777216 0x7F800000\n-1 3 16777217 0x7FC00001\n\
                    -1 -1 5 0\n-1 3 6 0\n3 -1 2147483647 0xFFC00000\n";
        let draw = |want: &str, wantu: &str, first: u32| {
            format!(
                "uniform ivec2 want {want}\nuniform uint wantu {wantu}\n\
                 draw arrays GL_TRIANGLES {first} 3\n"
            )
        };
        // 16777217 & 0xFF is 1: blue 1/255 in every pixel the triangle covers.
        let script = draw("16777217 -16777217", "0x7FC00001", 0)
            + "probe rgba 0 0 1.0 1.0 0.0039 1.0\nprobe rgba 200 200 1.0 1.0 0.0039 1.0\n\
               probe rgba 10 240 1.0 1.0 0.0039 1.0\n";
        assert_eq!(status(&file_130(vs, fs, data, &script)), "pass");
        // The comparison tells the values apart: the rounded 2^24 is not what arrives.
        let script = draw("16777216 -16777216", "0x7FC00000", 0) + "probe all rgba 0 0 0.0039 1\n";
        assert_eq!(status(&file_130(vs, fs, data, &script)), "pass");
        // The second triangle's last vertex: INT_MAX, and -NaN's pattern.
        let script = draw("2147483647 -2147483647", "0xFFC00000", 3)
            + "probe rgba 0 0 1 1 1 1\nprobe rgba 5 100 1 1 1 1\n";
        assert_eq!(status(&file_130(vs, fs, data, &script)), "pass");
    }

    #[test]
    fn flat_float_varyings_take_the_provoking_vertex_across_the_triangle() {
        let vs = "in vec4 piglit_vertex;\nin float c;\nflat out float f;\nout float s;\n\
                  void main() { gl_Position = piglit_vertex; f = c; s = c; }\n";
        let fs = "flat in float f;\nin float s;\n\
                  void main() { gl_FragColor = vec4(f, s, 0.0, 1.0); }\n";
        let data = "piglit_vertex/float/2 c/float/1\n-1 -1 0.0\n3 -1 0.5\n-1 3 0.25\n";
        // Corners of the window: f is 0.25 everywhere; s blends (0 at the bottom left,
        // towards 0.5 on the right, 0.25 on top).
        let script = "draw arrays GL_TRIANGLES 0 3\nprobe rgba 0 0 0.25 0.0 0 1\n\
                      probe rgba 249 0 0.25 0.25 0 1\nprobe rgba 0 249 0.25 0.125 0 1\n\
                      probe rgba 125 125 0.25 0.1875 0 1\n";
        assert_eq!(status(&file_130(vs, fs, data, script)), "pass");
        // An integer fragment input without `flat` is a located compile error citing
        // the rule.
        let plain = file_130(
            "in vec4 piglit_vertex;\nflat out int k;\nvoid main() { gl_Position = piglit_vertex; k = 1; }\n",
            "in int k;\nvoid main() { gl_FragColor = vec4(float(k)); }\n",
            "piglit_vertex/float/2\n-1 -1\n",
            "",
        );
        assert_eq!(
            status(&plain),
            "error t.shader_test:12:4: error: an integer fragment shader input must be \
             qualified 'flat' (GLSL 1.50 §4.3.4)\nin int k;\n   ^\n"
        );
    }

    #[test]
    fn clip_planes_clip_with_gl_clip_distance_gl_clip_vertex_or_gl_position() {
        // Window 250 × 250, a full-window rectangle. Plane 0 keeps y ≥ 0.5 (NDC), plane
        // 1 keeps x ≤ 0 (NDC): relative (0.25, 0.9) is inside both, (0.75, 0.9)
        // outside plane 1, (0.25, 0.5) outside plane 0.
        let fs = "void main() { gl_FragColor = vec4(1.0); }\n";
        let probes = "relative probe rgba (0.25, 0.9) (1, 1, 1, 1)\n\
                      relative probe rgba (0.75, 0.9) (0, 0, 0, 0)\n\
                      relative probe rgba (0.25, 0.5) (0, 0, 0, 0)\n\
                      relative probe rgba (0.75, 0.2) (0, 0, 0, 0)\n";
        let run_with = |vs: &str, setup: &str| {
            status(&file_130(
                vs,
                fs,
                "piglit_vertex/float/2\n-1 -1\n",
                &format!("{setup}clear color 0 0 0 0\nclear\ndraw rect -1 -1 2 2\n{probes}"),
            ))
        };
        let distance = "in vec4 piglit_vertex;\nvoid main() { gl_Position = piglit_vertex;\n\
                        gl_ClipDistance[0] = piglit_vertex.y - 0.5;\n\
                        gl_ClipDistance[1] = -piglit_vertex.x; }\n";
        let enable = "enable GL_CLIP_PLANE0\nenable GL_CLIP_DISTANCE1\n";
        assert_eq!(run_with(distance, enable), "pass");
        // The equations say the same for gl_ClipVertex and for gl_Position.
        let planes = "clip plane 0 0 1 0 -0.5\nclip plane 1 -1 0 0 0\n";
        let clip_vertex = "in vec4 piglit_vertex;\nvoid main() { gl_Position = piglit_vertex;\n\
                           gl_ClipVertex = piglit_vertex; }\n";
        assert_eq!(run_with(clip_vertex, &format!("{planes}{enable}")), "pass");
        let position = "in vec4 piglit_vertex;\nvoid main() { gl_Position = piglit_vertex; }\n";
        assert_eq!(run_with(position, &format!("{planes}{enable}")), "pass");
        // gl_ClipVertex, not gl_Position, is what is clipped: here it is shifted by
        // 0.5 in x, so plane 1 keeps x ≤ −0.5 only: relative x 0.2 (NDC −0.6) is
        // inside, relative x 0.3 (NDC −0.4) outside.
        let shifted = "in vec4 piglit_vertex;\nvoid main() { gl_Position = piglit_vertex;\n\
                       gl_ClipVertex = piglit_vertex + vec4(0.5, 0.0, 0.0, 0.0); }\n";
        let text = file_130(
            shifted,
            fs,
            "piglit_vertex/float/2\n-1 -1\n",
            &format!(
                "{planes}enable GL_CLIP_PLANE1\nclear color 0 0 0 0\nclear\n\
                 draw rect -1 -1 2 2\nrelative probe rgba (0.2, 0.5) (1, 1, 1, 1)\n\
                 relative probe rgba (0.3, 0.5) (0, 0, 0, 0)\n"
            ),
        );
        assert_eq!(status(&text), "pass");
        // Disabled again: nothing is clipped.
        let text = file_130(
            position,
            fs,
            "piglit_vertex/float/2\n-1 -1\n",
            &format!(
                "{planes}{enable}disable GL_CLIP_PLANE0\ndisable GL_CLIP_PLANE1\n\
                 draw rect -1 -1 2 2\nprobe all rgba 1 1 1 1\n"
            ),
        );
        assert_eq!(status(&text), "pass");
        // Errors: a ninth plane, and a plane gl_ClipDistance has no element for.
        assert_eq!(
            run_with(position, "enable GL_CLIP_PLANE8\n"),
            "error t.shader_test:18: enable: clip plane 8 does not exist: GL_MAX_CLIP_PLANES \
             is 8 (planes 0..=7)"
        );
        let text = run_with(distance, "enable GL_CLIP_PLANE2\n");
        assert!(
            text.contains(
                "clip plane 2 is enabled but the vertex shader's gl_ClipDistance has 2 elements"
            ),
            "{text}"
        );
    }

    #[test]
    fn draw_arrays_needs_rows_and_columns_that_exist() {
        let fs = "out vec4 o;\nvoid main() { o = vec4(1.0); }\n";
        // without [vertex data] the attributes hold (0, 0, 0, 1): nothing is drawn
        assert_eq!(
            status(&file(
                fs,
                "draw arrays GL_TRIANGLES 0 3\nprobe all rgba 0 0 0 0\n"
            )),
            "pass"
        );
        let with_data = |data: &str, script: &str| {
            file(fs, script).replace("[test]", &format!("[vertex data]\n{data}\n[test]"))
        };
        assert_eq!(
            status(&with_data(
                "piglit_vertex/float/2\n-1 -1\n3 -1\n-1 3\n",
                "draw arrays GL_TRIANGLES 1 3\n"
            )),
            "error t.shader_test:21: draw arrays reads rows 1..4 but [vertex data] has 3"
        );
        assert_eq!(
            status(&with_data("pos/float/2\n-1 -1\n", "")),
            "error t.shader_test:15: vertex data column 'pos' names no attribute of the \
             vertex shader (it declares: piglit_vertex)"
        );
        assert_eq!(
            status(&with_data(
                "piglit_vertex/float/2\n-1 -1\n3 -1\n-1 3\n",
                "draw arrays GL_TRIANGLES 0 3\nprobe all rgba 1 1 1 1\n"
            )),
            "pass"
        );
    }

    /// A GLSL 1.10 script with no vertex shader, `fragment` and the script `script`.
    fn fixed_function_file(fragment: &str, script: &str) -> String {
        format!("[require]\nGLSL >= 1.10\n\n[fragment shader]\n{fragment}\n[test]\n{script}")
    }

    #[test]
    fn fixed_function_vertex_processing_feeds_the_fragment_shader() {
        // The colour is clamped to [0, 1] (GL_CLAMP_VERTEX_COLOR), texture set 0 comes
        // from the rectangle's texture coordinates, set 5 is the current (0, 0, 0, 1).
        let fragment = "void main() { gl_FragColor = vec4(gl_Color.r, gl_TexCoord[0].xy, \
                        gl_TexCoord[5].w * 0.5 + gl_Color.g); }";
        let text = fixed_function_file(
            fragment,
            "color 2.0 0.25 0.0 1.0\ndraw rect tex -1 -1 2 2 0.5 0.75 0 0\n\
             probe all rgba 1.0 0.5 0.75 0.75\n",
        );
        assert_eq!(status(&text), "pass");
        // the position goes through the projection matrix: the left half only
        let text = fixed_function_file(
            "void main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }",
            "ortho -1 3 -1 1\ndraw rect -1 -1 2 2\n\
             relative probe rgba (0.25, 0.5) (0.0, 1.0, 0.0, 1.0)\n\
             relative probe rgba (0.75, 0.5) (0.0, 0.0, 0.0, 0.0)\n",
        );
        assert_eq!(status(&text), "pass");
    }

    #[test]
    fn fixed_function_fragment_processing_colours_with_the_primary_colour() {
        // No fragment shader: the fragment is the colour the vertex shader writes
        // (clamped to [0, 1], GL_CLAMP_VERTEX_COLOR), in the left half only.
        let vertex = "[require]\nGLSL >= 1.10\n\n[vertex shader]\nvoid main() {\n\
                      gl_Position = gl_Vertex;\n\
                      gl_FrontColor = vec4(0.0, 2.0, 0.5, 1.0);\n}\n\n[test]\n";
        let text = format!(
            "{vertex}clear color 0 0 0 0\nclear\ndraw rect -1 -1 1 2\n\
             relative probe rgba (0.25, 0.5) (0.0, 1.0, 0.5, 1.0)\n\
             relative probe rgba (0.75, 0.5) (0.0, 0.0, 0.0, 0.0)\n"
        );
        assert_eq!(status(&text), "pass");
        let wrong = text.replace("(0.0, 1.0, 0.5, 1.0)", "(1.0, 1.0, 0.5, 1.0)");
        assert!(status(&wrong).starts_with("fail"), "{}", status(&wrong));
        // A vertex shader that writes no colour still links (the colour is undefined;
        // opaque black here).
        let plain = "[require]\nGLSL >= 1.20\n\n[vertex shader]\n\
                     void main() { gl_Position = gl_Vertex; }\n\n[test]\nlink success\n\
                     draw rect -1 -1 2 2\nprobe all rgba 0.0 0.0 0.0 1.0\n";
        assert_eq!(status(plain), "pass");
        // Without any shader the test is still skipped.
        let none = "[require]\nGLSL >= 1.10\n\n[test]\ndraw rect -1 -1 2 2\n";
        assert!(status(none).starts_with("skip"), "{}", status(none));
    }

    #[test]
    fn core_in_gl33_extensions_run_with_their_directive() {
        // GL_ARB_shader_bit_encoding in GLSL 1.30, required by [require] and #extension.
        let text = "[require]\nGLSL >= 1.30\nGL_ARB_shader_bit_encoding\n\n\
                    [vertex shader passthrough]\n\n[fragment shader]\n\
                    #extension GL_ARB_shader_bit_encoding : require\n\
                    uniform float f;\nout vec4 c;\nvoid main() {\n\
                    c = vec4(0.0, float(floatBitsToInt(f) == 0x3f800000), 0.0, 1.0);\n}\n\n\
                    [test]\nuniform float f 1.0\ndraw rect -1 -1 2 2\n\
                    probe all rgba 0.0 1.0 0.0 1.0\n";
        assert_eq!(status(text), "pass");
        // A rectangle shadow sampler in GLSL 1.10 (GL_ARB_texture_rectangle): the
        // depth texture's column x holds x / (W - 1), compared GL_GREATER with 0.5.
        let rect = "[require]\nGLSL >= 1.10\nGL_ARB_texture_rectangle\n\n\
                    [vertex shader passthrough]\n\n[fragment shader]\n\
                    uniform sampler2DRectShadow s;\nvoid main() {\n\
                    gl_FragColor = shadow2DRect(s, vec3(gl_FragCoord.xy * 0.125, 0.5));\n}\n\n\
                    [test]\nuniform int s 0\ntexture shadowRect 0 (32, 32)\n\
                    draw rect -1 -1 2 2\n\
                    relative probe rgba (0.1, 0.5) (1.0, 1.0, 1.0, 1.0)\n\
                    relative probe rgba (0.9, 0.5) (0.0, 0.0, 0.0, 1.0)\n";
        assert_eq!(status(rect), "pass");
        // GL_EXT_texture_array in GLSL 1.10: layer 1 of an rgbw 2D array is all green,
        // and the array samplers are types only once the extension is enabled.
        let array = "[require]\nGLSL >= 1.10\nGL_EXT_texture_array\n\n\
                     [vertex shader passthrough]\n\n[fragment shader]\n\
                     #extension GL_EXT_texture_array : enable\n\
                     uniform sampler2DArray s;\nvoid main() {\n\
                     gl_FragColor = texture2DArray(s, vec3(0.5, 0.5, 1.0));\n}\n\n\
                     [test]\nuniform int s 0\ntexture rgbw 2DArray 0 (4, 4, 3)\n\
                     draw rect -1 -1 2 2\nprobe all rgba 0.0 1.0 0.0 1.0\n";
        assert_eq!(status(array), "pass");
        let red = array.replace("probe all rgba 0.0 1.0", "probe all rgba 1.0 0.0");
        assert!(status(&red).starts_with("fail"), "{}", status(&red));
        let undeclared = array.replace("#extension GL_EXT_texture_array : enable\n", "");
        assert!(
            status(&undeclared).starts_with("error"),
            "{}",
            status(&undeclared)
        );
    }

    #[test]
    fn several_fragment_sections_are_linked_as_units() {
        let text = "[require]\nGLSL >= 1.10\n\n[vertex shader passthrough]\n\n\
                    [fragment shader]\nvec4 colour();\nvoid main() { gl_FragColor = colour(); }\n\n\
                    [fragment shader]\nvec4 colour() { return vec4(0.0, 1.0, 0.0, 1.0); }\n\n\
                    [test]\ndraw rect -1 -1 2 2\nprobe all rgba 0.0 1.0 0.0 1.0\n";
        assert_eq!(status(text), "pass");
        // an error in the second section points at its line in the file (line 11)
        let broken = text.replace("return vec4", "return vec9");
        let status = status(&broken);
        assert!(status.starts_with("error t.shader_test:11:"), "{status}");
    }

    #[test]
    fn fixed_function_clip_planes_are_in_eye_coordinates() {
        // With `ortho` (window coordinates) the plane -x + 100 >= 0 keeps x < 100 in eye
        // space; tested against clip space it would keep everything.
        let text = fixed_function_file(
            "void main() { gl_FragColor = gl_Color; }",
            "clear color 0 0 0 1\nclear\northo\nenable GL_CLIP_PLANE0\n\
             clip plane 0 -1 0 0 100\ndraw rect 0 0 250 250\n\
             probe rgba 50 50 1 1 1 1\nprobe rgba 150 50 0 0 0 1\n",
        );
        assert_eq!(status(&text), "pass");
    }

    #[test]
    fn fixed_function_vertex_processing_names_what_it_cannot_feed() {
        let text = fixed_function_file(
            "varying vec4 v;\nvoid main() { gl_FragColor = v; }",
            "draw rect -1 -1 2 2\n",
        );
        assert_eq!(
            status(&text),
            "skip None: fixed-function vertex processing does not write the fragment \
             shader's input 'v'"
        );
        let text = fixed_function_file(
            "void main() { gl_FragColor = vec4(gl_FogFragCoord); }",
            "draw rect -1 -1 2 2\n",
        );
        assert!(
            status(&text).contains("gl_FogFragCoord"),
            "{}",
            status(&text)
        );
        let es = "[require]\nGL ES >= 2.0\nGLSL ES >= 1.00\n\n[fragment shader]\n\
                  void main() { gl_FragColor = vec4(1.0); }\n[test]\ndraw rect -1 -1 2 2\n";
        assert_eq!(
            status(es),
            "skip None: no vertex shader: OpenGL ES has no fixed-function vertex processing"
        );
    }

    #[test]
    fn skips_come_before_compiling() {
        // the fragment shader does not compile, but the script cannot run anyway
        let text = file("garbage", "draw rect -1 -1 2 2\nenable GL_DEPTH_TEST\n");
        assert_eq!(
            status(&text),
            "skip Some(14): command 'enable GL_DEPTH_TEST' is not supported"
        );
        let text = file("garbage", "");
        assert!(
            status(&text).starts_with("error t.shader_test:11:1: error:"),
            "{}",
            status(&text)
        );
        let no_glsl =
            file("out vec4 o;\nvoid main() { o = vec4(1.0); }\n", "").replace("GLSL >= 3.30", "");
        assert_eq!(
            status(&no_glsl),
            "error t.shader_test:1: no 'GLSL >= X.Y' requirement (shader_runner needs it to compile shaders)"
        );
    }

    /// A linked program whose vertex shader declares `uniforms` (name, type, array
    /// length) in consecutive slots; the IR is empty (it is never run).
    fn declaring(uniforms: &[(&str, csir::Type, Option<u16>)]) -> CompiledProgram {
        use csir::ir::{Interface, InterfaceSymbol, Shader, SymbolKind};
        let mut slot = 0;
        let symbols = uniforms
            .iter()
            .map(|&(name, ty, array_len)| {
                let s = InterfaceSymbol {
                    name: name.into(),
                    ty,
                    array_len,
                    kind: SymbolKind::Uniform { slot },
                    interpolation: None,
                };
                slot += s.slot_count();
                s
            })
            .collect();
        let shader = |stage, symbols, writes_position| Shader {
            name: "fake".into(),
            stage,
            limits: Limits::SEED,
            ir: vec![],
            imm: vec![],
            ntmp: 0,
            interface: Interface {
                symbols,
                uni_hi: slot as i16 - 1,
                writes_position,
                ..Interface::default()
            },
        };
        let color = vec![InterfaceSymbol {
            name: "o".into(),
            ty: csir::Type::Vec4,
            array_len: None,
            kind: SymbolKind::color_out(0),
            interpolation: None,
        }];
        let program = csir::Program::link(
            shader(csir::Stage::Vertex, symbols, true),
            shader(csir::Stage::Fragment, color, false),
        )
        .unwrap();
        let source = |text: &str| crate::scene::ShaderSource::glsl(text, text);
        CompiledProgram {
            program: std::sync::Arc::new(program),
            vertex: source("vs"),
            fragment: source("fs"),
            geometry: None,
        }
    }

    #[test]
    fn declared_built_in_matrices_follow_ortho_and_frustum() {
        use csir::Type;
        let compiled = declaring(&[
            ("gl_ModelViewProjectionMatrix", Type::Mat4, None),
            ("gl_NormalMatrix", Type::Mat3, None),
            ("gl_TextureMatrix", Type::Mat4, Some(2)),
            ("gl_ProjectionMatrix", Type::Mat4, None),
            ("u", Type::Vec2, Some(2)),
        ]);
        let options = RunOptions::default();
        let requirements = Requirements {
            glsl: None,
            window: [200, 100],
            ignore_missing_uniforms: false,
        };
        let mut run = Run::new(
            Path::new("t"),
            &options,
            requirements,
            compiled,
            None,
            vec![],
        )
        .unwrap();
        let value = |run: &Run<'_>, key: &str| {
            run.uniform_values()
                .into_iter()
                .find(|u| u.key == key)
                .map(|u| u.values)
        };
        let identity = glam::Mat4::IDENTITY.to_cols_array().to_vec();
        assert_eq!(
            value(&run, "gl_ModelViewProjectionMatrix"),
            Some(identity.clone())
        );
        assert_eq!(value(&run, "gl_NormalMatrix").map(|v| v.len()), Some(9));
        assert_eq!(value(&run, "gl_TextureMatrix"), Some(identity.repeat(2)));
        assert_eq!(value(&run, "u"), None, "not set yet: zero in the program");
        let ortho = ScriptLine {
            line: 1,
            text: "ortho".into(),
            command: Command::Ortho(None),
        };
        assert_eq!(run.step(&ortho), None);
        let mvp = value(&run, "gl_ModelViewProjectionMatrix").unwrap();
        assert_eq!((mvp[0], mvp[5], mvp[12], mvp[13]), (0.01, 0.02, -1.0, -1.0));
        assert_eq!(value(&run, "gl_ProjectionMatrix"), Some(mvp));
        run.set_uniform("vec2", "u[1]", &[3.0, 4.0], None).unwrap();
        assert_eq!(value(&run, "u"), Some(vec![0.0, 0.0, 3.0, 4.0]));
        let frustum = ScriptLine {
            line: 2,
            text: "frustum".into(),
            command: Command::Frustum([-1.0, 1.0, -1.0, 1.0, 1.0, 3.0]),
        };
        assert_eq!(run.step(&frustum), None);
        let p = value(&run, "gl_ProjectionMatrix").unwrap();
        assert_eq!((p[0], p[10], p[11], p[14]), (1.0, -2.0, -1.0, -3.0));
    }
}
