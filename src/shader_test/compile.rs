//! Compiling and linking a test's shaders, with compiler messages that point at the
//! `.shader_test` file, the file a user edits.
//!
//! As shader_runner does, a shader whose text does not contain `#version ` gets the
//! directive of the `GLSL >= X.Y` requirement added as a first line
//! ([`GlslRequirement::directive`]); `[vertex shader passthrough]` compiles
//! shader_runner's built-in vertex shader. A compiler message at line L of a section
//! is reported at the section's header line + L (minus the added line); a message
//! about the added `#version` line points at the `GLSL` requirement, and one about the
//! built-in passthrough shader at its section header.

use super::fixed_function;
use super::parse::{ShaderKind, ShaderSection};
use super::report::Outcome;
use super::require::GlslRequirement;
use crate::scene::ShaderSource;
use csir::{CompileErrors, Diagnostic, Limits, Program, Stage, Unit};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// shader_runner's vertex shader for `[vertex shader passthrough]`: it copies the
/// attribute `piglit_vertex` to `gl_Position`.
pub const PASSTHROUGH_VERTEX_SHADER: &str = "#if __VERSION__ >= 130\n\
in vec4 piglit_vertex;\n\
#else\n\
attribute vec4 piglit_vertex;\n\
#endif\n\
void main() { gl_Position = piglit_vertex; }\n";

/// A linked program with the exact texts it was compiled from (the pipeline's program
/// cache is keyed by them).
pub struct CompiledProgram {
    /// The linked program.
    pub program: Arc<Program>,
    /// The vertex shader's text as compiled, named `FILE [vertex shader]`.
    pub vertex: ShaderSource,
    /// The fragment shader's text as compiled, named `FILE [fragment shader]`.
    pub fragment: ShaderSource,
    /// The geometry shader's text as compiled, named `FILE [geometry shader]`, if the
    /// test has one.
    pub geometry: Option<ShaderSource>,
}

/// The text a section compiles as, and whether shader_runner's `#version` line was
/// added in front of it.
fn section_text(section: &ShaderSection<'_>, glsl: &GlslRequirement) -> (String, bool) {
    let body = match section.kind {
        ShaderKind::VertexPassthrough => PASSTHROUGH_VERTEX_SHADER,
        _ => section.text.as_str(),
    };
    match body.contains("#version ") {
        false => (format!("{}\n{body}", glsl.directive()), true),
        true => (body.to_string(), false),
    }
}

/// Compile the sections of one stage: one, or several compilation units linked
/// together ([`csir::compile_units`]). `file` and `file_text` are the `.shader_test`
/// file (for messages), `glsl` its GLSL requirement. The returned source is named
/// `FILE [vertex shader]` (or the section's header); for several units its text is
/// theirs joined, a key for the program cache only.
fn compile_stage(
    file: &Path,
    file_text: &str,
    sections: &[&ShaderSection<'_>],
    glsl: &GlslRequirement,
    limits: &Limits,
    before_geometry: bool,
) -> Result<(ShaderSource, csir::Shader), Outcome> {
    let texts: Vec<(String, bool)> = sections.iter().map(|s| section_text(s, glsl)).collect();
    let (stage, label) = match sections.first().map(|s| s.kind) {
        Some(ShaderKind::Fragment) => (Stage::Fragment, "[fragment shader]"),
        Some(ShaderKind::VertexPassthrough) => (Stage::Vertex, "[vertex shader passthrough]"),
        Some(ShaderKind::Geometry) => (Stage::Geometry, "[geometry shader]"),
        _ => (Stage::Vertex, "[vertex shader]"),
    };
    let name = file.display().to_string();
    let units: Vec<Unit<'_>> = texts
        .iter()
        .map(|(text, _)| Unit {
            name: &name,
            source: text,
        })
        .collect();
    let compiled = match (stage, before_geometry) {
        (Stage::Vertex, true) => csir::compile_vertex_for_geometry(&units, limits),
        _ => csir::compile_units(&units, stage, limits),
    };
    match compiled {
        Ok(shader) => {
            let key = texts
                .iter()
                .map(|(t, _)| t.as_str())
                .collect::<Vec<_>>()
                .join("\n// next compilation unit\n");
            Ok((
                ShaderSource::glsl(PathBuf::from(format!("{name} {label}")), key),
                shader,
            ))
        }
        Err(errors) => {
            let prefixed: Vec<u32> = texts.iter().map(|(_, p)| u32::from(*p)).collect();
            Err(compile_error(
                &name, file_text, sections, &prefixed, glsl, &errors,
            ))
        }
    }
}

/// The compiler's `errors` renumbered into the `.shader_test` file.
///
/// `sections` are the stage's compilation units in order (a diagnostic's `unit`
/// indexes them) and `prefix_lines[k]` the lines added in front of unit k.
fn compile_error(
    name: &str,
    file_text: &str,
    sections: &[&ShaderSection<'_>],
    prefix_lines: &[u32],
    glsl: &GlslRequirement,
    errors: &CompileErrors,
) -> Outcome {
    let directive = glsl.directive();
    let mapped: Vec<Diagnostic> = errors
        .diagnostics()
        .iter()
        .map(|d| {
            let k = d.unit.min(sections.len().saturating_sub(1));
            let (section, prefix_lines) = (sections[k], prefix_lines.get(k).copied().unwrap_or(0));
            if section.kind == ShaderKind::VertexPassthrough && d.line > prefix_lines {
                Diagnostic {
                    unit: 0,
                    line: section.header_line,
                    col: 1,
                    message: format!(
                        "{} (line {} of shader_runner's built-in passthrough vertex shader)",
                        d.message,
                        d.line - prefix_lines
                    ),
                }
            } else if d.line <= prefix_lines {
                Diagnostic {
                    unit: 0,
                    line: glsl.line,
                    col: 1,
                    message: format!(
                        "{} (in the '{directive}' line shader_runner adds from this GLSL requirement)",
                        d.message
                    ),
                }
            } else {
                Diagnostic {
                    unit: 0,
                    line: section.header_line + (d.line - prefix_lines),
                    col: d.col,
                    message: d.message.clone(),
                }
            }
        })
        .collect();
    let first = mapped.first().map(|d| d.line);
    let reason = errors.diagnostics().first().map_or_else(
        || "compile error".to_string(),
        |d| reason_of(d, mapped_source(file_text, &mapped, d)),
    );
    let message = CompileErrors::new(name, file_text, mapped, errors.total()).to_string();
    Outcome::Error {
        line: first,
        message,
        reason,
    }
}

/// The text of the file line the first mapped diagnostic points at (for
/// [`reason_of`]); empty when it is not a line of the section.
fn mapped_source<'t>(file_text: &'t str, mapped: &[Diagnostic], original: &Diagnostic) -> &'t str {
    match mapped.first() {
        Some(m) if m.col == original.col => file_text
            .split('\n')
            .nth(m.line.saturating_sub(1) as usize)
            .unwrap_or_default(),
        _ => "",
    }
}

/// The grouping reason of a compile error: its message, and for an `unknown ...`
/// message that names nothing (`unknown identifier`), the identifier at the error's
/// column (`unknown identifier 'gl_Vertex'`), so that reasons group by the construct
/// the compiler did not know.
pub(super) fn reason_of(d: &Diagnostic, line: &str) -> String {
    if !d.message.starts_with("unknown") || d.message.contains('\'') {
        return d.message.clone();
    }
    let word: String = line
        .chars()
        .skip(d.col.saturating_sub(1) as usize)
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        format!("{} '{word}'", d.message)
    } else {
        d.message.clone()
    }
}

/// Compile the vertex, geometry (if any) and fragment sections, `stages` in that
/// order (each stage from one or more compilation units) and link them. Without a
/// vertex section, fixed-function vertex processing feeds the fragment shader
/// ([`fixed_function::vertex_shader`]); without a fragment section, fixed-function
/// fragment processing colours the fragments ([`fixed_function::fragment_shader`]).
///
/// # Errors
/// [`Outcome::Error`] with the compiler's messages in the file's numbering, or the
/// linker's message; [`Outcome::Skip`] for a fragment input fixed-function vertex
/// processing does not provide as the renderer does.
pub fn compile_program(
    file: &Path,
    file_text: &str,
    [vertex, geometry, fragment]: [&[&ShaderSection<'_>]; 3],
    glsl: &GlslRequirement,
    limits: &Limits,
) -> Result<CompiledProgram, Outcome> {
    let geometry = match geometry.is_empty() {
        false => Some(compile_stage(
            file, file_text, geometry, glsl, limits, false,
        )?),
        true => None,
    };
    // Without a fragment section the vertex section is compiled first: fixed-function
    // fragment processing reads what the last stage before it writes.
    let vertex_first = match (fragment.is_empty(), vertex.is_empty()) {
        (true, false) => Some(compile_stage(
            file,
            file_text,
            vertex,
            glsl,
            limits,
            geometry.is_some(),
        )?),
        _ => None,
    };
    let (fragment_source, fs) = match fragment.is_empty() {
        false => compile_stage(file, file_text, fragment, glsl, limits, false)?,
        true => {
            let last = geometry
                .as_ref()
                .or(vertex_first.as_ref())
                .map(|(_, shader)| shader);
            fixed_function_fragment(file, last, limits)?
        }
    };
    let (vertex_source, vs) = match (vertex_first, vertex.is_empty()) {
        (Some(compiled), _) => compiled,
        (None, false) => compile_stage(file, file_text, vertex, glsl, limits, geometry.is_some())?,
        (None, true) => fixed_function_vertex(file, &fs, limits)?,
    };
    let (geometry_source, gs) = geometry.unzip();
    let linked = match gs {
        Some(gs) => Program::link_geometry(vs, gs, fs),
        None => Program::link(vs, fs),
    };
    let program = linked.map_err(|e| Outcome::Error {
        line: None,
        message: format!("{}: the program does not link: {e}", file.display()),
        reason: format!("link: {e}"),
    })?;
    Ok(CompiledProgram {
        program: Arc::new(program),
        vertex: vertex_source,
        fragment: fragment_source,
        geometry: geometry_source,
    })
}

/// Compile the fragment shader that stands for fixed-function fragment processing
/// behind `last` (the geometry or vertex shader), named `FILE [fixed-function fragment
/// processing]` ([`fixed_function::fragment_shader`]).
fn fixed_function_fragment(
    file: &Path,
    last: Option<&csir::Shader>,
    limits: &Limits,
) -> Result<(ShaderSource, csir::Shader), Outcome> {
    let text = fixed_function::fragment_shader(last);
    let name = format!(
        "{} {}",
        file.display(),
        fixed_function::FIXED_FUNCTION_FRAGMENT_LABEL
    );
    match csir::compile(&text, &name, Stage::Fragment, limits) {
        Ok(shader) => Ok((ShaderSource::glsl(PathBuf::from(name), text), shader)),
        Err(errors) => Err(Outcome::Error {
            line: None,
            message: format!("{}: {errors}", file.display()),
            reason: format!(
                "fixed-function fragment processing: {}",
                errors
                    .diagnostics()
                    .first()
                    .map_or("compile error", |d| d.message.as_str())
            ),
        }),
    }
}

/// Compile the vertex shader that stands for fixed-function vertex processing in front
/// of `fragment`, named `FILE [fixed-function vertex processing]`.
fn fixed_function_vertex(
    file: &Path,
    fragment: &csir::Shader,
    limits: &Limits,
) -> Result<(ShaderSource, csir::Shader), Outcome> {
    let text = fixed_function::vertex_shader(fragment)
        .map_err(|reason| Outcome::Skip { line: None, reason })?;
    let name = format!(
        "{} {}",
        file.display(),
        fixed_function::FIXED_FUNCTION_LABEL
    );
    match csir::compile(&text, &name, Stage::Vertex, limits) {
        Ok(shader) => Ok((ShaderSource::glsl(PathBuf::from(name), text), shader)),
        Err(errors) => Err(Outcome::Error {
            line: None,
            message: format!("{}: {errors}", file.display()),
            reason: format!(
                "fixed-function vertex processing: {}",
                errors
                    .diagnostics()
                    .first()
                    .map_or("compile error", |d| d.message.as_str())
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shader_test::parse::sections;

    const FILE: &str = "[require]\nGLSL >= 1.10\n\n[vertex shader passthrough]\n\n\
                        [fragment shader]\nvoid main()\n{\n\tgl_FragColor = vec4(1.0);\n}\n\n[test]\n";

    fn error_of(section: usize, prefix_lines: u32, diagnostics: Vec<Diagnostic>) -> Outcome {
        let s = sections(FILE).unwrap();
        let glsl = GlslRequirement {
            version: 110,
            es: false,
            line: 2,
        };
        let errors = CompileErrors::new("x", "", diagnostics, 1);
        compile_error(
            "t.shader_test",
            FILE,
            &[&s.shaders[section]],
            &[prefix_lines],
            &glsl,
            &errors,
        )
    }

    fn diagnostic(line: u32, col: u32, message: &str) -> Diagnostic {
        Diagnostic {
            unit: 0,
            line,
            col,
            message: message.into(),
        }
    }

    #[test]
    fn lines_are_renumbered_into_the_file() {
        // shader line 3 after the added #version line is file line 6 + 3 - 1 = 9
        let Outcome::Error {
            line,
            message,
            reason,
        } = error_of(1, 1, vec![diagnostic(4, 2, "unknown identifier")])
        else {
            panic!()
        };
        assert_eq!(line, Some(9));
        assert_eq!(
            message,
            "t.shader_test:9:2: error: unknown identifier\n\tgl_FragColor = vec4(1.0);\n\t^\n"
        );
        assert_eq!(reason, "unknown identifier 'gl_FragColor'");
    }

    #[test]
    fn the_added_version_line_points_at_the_requirement() {
        let Outcome::Error { line, message, .. } =
            error_of(1, 1, vec![diagnostic(1, 10, "unsupported version 110")])
        else {
            panic!()
        };
        assert_eq!(line, Some(2));
        assert_eq!(
            message.lines().next().unwrap(),
            "t.shader_test:2:1: error: unsupported version 110 (in the '#version 110' line \
             shader_runner adds from this GLSL requirement)"
        );
        assert_eq!(message.lines().nth(1), Some("GLSL >= 1.10"));
    }

    #[test]
    fn passthrough_errors_point_at_its_header() {
        let Outcome::Error { line, message, .. } =
            error_of(0, 1, vec![diagnostic(3, 1, "unsupported qualifier 'in'")])
        else {
            panic!()
        };
        assert_eq!(line, Some(4));
        assert!(
            message.starts_with(
                "t.shader_test:4:1: error: unsupported qualifier 'in' (line 2 of \
                 shader_runner's built-in passthrough vertex shader)"
            ),
            "{message}"
        );
    }

    #[test]
    fn unknown_names_get_the_identifier_at_the_column() {
        let line = "  x = gl_Vertex + 1;";
        let d = |col, message: &str| reason_of(&diagnostic(1, col, message), line);
        assert_eq!(d(7, "unknown identifier"), "unknown identifier 'gl_Vertex'");
        assert_eq!(
            d(7, "unknown identifier 'gl_Vertex'"),
            "unknown identifier 'gl_Vertex'"
        );
        assert_eq!(d(7, "unknown function"), "unknown function 'gl_Vertex'");
        assert_eq!(
            d(3, "uniforms cannot have an initializer"),
            "uniforms cannot have an initializer"
        );
        assert_eq!(d(17, "unknown odd"), "unknown odd");
        assert_eq!(d(19, "unknown number"), "unknown number");
    }
}
