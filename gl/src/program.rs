//! Programs: the driver compiles and links the sources as given, and reports its info
//! log when it refuses them; what the linked program declares (`glGetActiveUniform`)
//! decides how each uniform value is set.

use crate::driver::Driver;
use crate::error::{GlError, Place};
use crate::frame::ShaderDesc;
use glow::HasContext;

/// A linked program and its active uniforms.
pub(crate) struct Program {
    pub program: glow::Program,
    pub uniforms: Vec<ActiveUniform>,
    /// Names the sources declare as uniforms (block names and members too), so that a
    /// value for a uniform the driver optimised away is skipped, not refused.
    pub declared: Vec<String>,
}

/// One entry of `glGetActiveUniform`.
#[derive(Clone, Debug)]
pub(crate) struct ActiveUniform {
    /// Its name without a trailing `[0]`.
    pub name: String,
    /// Whether it is an array (GL names an array `u[0]`), of however many elements.
    pub array: bool,
    /// Array elements (1 for a non-array).
    pub size: i32,
    /// `GL_FLOAT_VEC3`, `GL_SAMPLER_2D`, ...
    pub utype: u32,
    /// The uniform block it belongs to, if any.
    pub block: Option<u32>,
    /// In a block: byte offset, array stride, matrix stride, row-major.
    pub offset: i32,
    pub array_stride: i32,
    pub matrix_stride: i32,
    pub row_major: bool,
}

/// Compile and link `shaders` for draw `draw`.
///
/// # Errors
/// The driver's info log, at the shader that does not compile or at the draw when the
/// program does not link.
pub(crate) fn link(
    driver: &Driver,
    draw: usize,
    shaders: &[ShaderDesc<'_>],
    attribute_bindings: &[(String, u32)],
) -> Result<Program, GlError> {
    let gl = &driver.gl;
    let mut compiled = Vec::new();
    let delete_all = |compiled: &[glow::Shader]| {
        for &s in compiled {
            // SAFETY: `s` is a shader object of the current context.
            unsafe { gl.delete_shader(s) };
        }
    };
    for shader in shaders {
        let place = || Place::Shader(draw, shader.stage);
        // SAFETY: the context is current; glCreateShader takes a valid stage enum.
        let object = unsafe { gl.create_shader(shader.stage.gl()) }
            .map_err(|e| GlError::at(place(), format!("glCreateShader: {e}")))?;
        // SAFETY: `object` is the shader just created; the source is a Rust string
        // glow passes with its length.
        let (ok, log) = unsafe {
            gl.shader_source(object, shader.source);
            gl.compile_shader(object);
            (
                gl.get_shader_compile_status(object),
                gl.get_shader_info_log(object),
            )
        };
        compiled.push(object);
        if !ok {
            delete_all(&compiled);
            return Err(GlError::at(
                place(),
                format!(
                    "{}: the driver does not compile this {} shader:\n{}",
                    shader.name,
                    shader.stage.name(),
                    log.trim_end()
                ),
            ));
        }
    }
    // SAFETY: the context is current.
    let program = unsafe { gl.create_program() }
        .map_err(|e| GlError::at(Place::Draw(draw), format!("glCreateProgram: {e}")))?;
    // SAFETY: `program` and the shaders are objects of the current context; shaders
    // may be deleted once linked (they stay attached until the program goes).
    let (ok, log) = unsafe {
        for &s in &compiled {
            gl.attach_shader(program, s);
        }
        for (name, location) in attribute_bindings {
            gl.bind_attrib_location(program, *location, name);
        }
        gl.link_program(program);
        let status = (
            gl.get_program_link_status(program),
            gl.get_program_info_log(program),
        );
        for &s in &compiled {
            gl.detach_shader(program, s);
        }
        status
    };
    delete_all(&compiled);
    if !ok {
        // SAFETY: `program` is the program object just created.
        unsafe { gl.delete_program(program) };
        let names: Vec<&str> = shaders.iter().map(|s| s.name).collect();
        return Err(GlError::at(
            Place::Draw(draw),
            format!(
                "the driver does not link the program of {}:\n{}",
                names.join(" and "),
                log.trim_end()
            ),
        ));
    }
    let uniforms = active_uniforms(gl, program);
    let declared = shaders
        .iter()
        .flat_map(|s| declared_uniform_names(s.source))
        .collect();
    Ok(Program {
        program,
        uniforms,
        declared,
    })
}

/// Every active uniform of `program`, with its block layout.
fn active_uniforms(gl: &glow::Context, program: glow::Program) -> Vec<ActiveUniform> {
    // SAFETY: `program` is linked; indices below GL_ACTIVE_UNIFORMS are valid
    // (GL 3.3 core §2.11.4).
    unsafe {
        let count = gl.get_active_uniforms(program);
        let indices: Vec<u32> = (0..count).collect();
        let query = |pname| gl.get_active_uniforms_parameter(program, &indices, pname);
        let blocks = query(glow::UNIFORM_BLOCK_INDEX);
        let offsets = query(glow::UNIFORM_OFFSET);
        let array_strides = query(glow::UNIFORM_ARRAY_STRIDE);
        let matrix_strides = query(glow::UNIFORM_MATRIX_STRIDE);
        let row_major = query(glow::UNIFORM_IS_ROW_MAJOR);
        (0..count)
            .filter_map(|i| {
                let u = gl.get_active_uniform(program, i)?;
                let k = i as usize;
                let name = u.name.strip_suffix("[0]").unwrap_or(&u.name).to_string();
                Some(ActiveUniform {
                    array: name.len() != u.name.len(),
                    name,
                    size: u.size,
                    utype: u.utype,
                    block: u32::try_from(*blocks.get(k)?).ok(),
                    offset: *offsets.get(k)?,
                    array_stride: *array_strides.get(k)?,
                    matrix_stride: *matrix_strides.get(k)?,
                    row_major: *row_major.get(k)? != 0,
                })
            })
            .collect()
    }
}

/// The names a GLSL source declares with `uniform`: each variable's name, and for a
/// uniform block its block name, instance name and members. Comments are skipped;
/// the preprocessor is not run (a name a macro makes is missed).
pub(crate) fn declared_uniform_names(source: &str) -> Vec<String> {
    let tokens = tokens(source);
    let mut names = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] != "uniform" {
            i += 1;
            continue;
        }
        let mut depth = 0i32;
        // inside `= initializer` of a declarator (until the next `,` or `;` outside it)
        let mut initializer = false;
        let mut j = i + 1;
        while j < tokens.len() {
            let t = tokens[j];
            match t {
                "{" | "(" | "[" => depth += 1,
                "}" | ")" | "]" => depth -= 1,
                ";" if depth == 0 => break,
                "=" if depth == 0 => initializer = true,
                "," if depth == 0 => initializer = false,
                _ => {}
            }
            let next = tokens.get(j + 1).copied().unwrap_or("");
            let is_name = t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
            let names_something = matches!(next, ";" | "," | "[" | "=" | "{");
            if is_name && names_something && depth <= 1 && !initializer {
                names.push(t.to_string());
            }
            j += 1;
        }
        i = j + 1;
    }
    names
}

/// Identifiers, numbers and single punctuation characters of `source`, comments
/// removed.
fn tokens(source: &str) -> Vec<&str> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                i += 1;
            }
            i += 2;
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push(&source[start..i]);
        } else if c.is_ascii_whitespace() || !c.is_ascii() {
            i += 1;
        } else {
            out.push(&source[i..i + 1]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_names_cover_variables_arrays_structs_and_blocks() {
        let src = "#version 330 core\n\
            // uniform float commented;\n\
            uniform vec3 a, b[2];\n\
            /* uniform int hidden; */\n\
            uniform highp mat4 uMVP;\n\
            uniform float w[3] = float[3](0.25, 0.5, 0.25);\n\
            uniform Light light;\n\
            uniform Colors { vec4 tint; float k[2]; } c;\n\
            void main() { float notUniform; }\n";
        let names = declared_uniform_names(src);
        assert_eq!(
            names,
            ["a", "b", "uMVP", "w", "light", "Colors", "tint", "k", "c"]
        );
    }
}
