//! Which `.shader_test` files ask for no more than OpenGL 3.3 / GLSL 3.30: the
//! selection of piglit's whole shader_runner corpus that csir-render is measured on
//! (docs/conformance.md, "The GL 3.3 selection of the whole corpus").
//!
//! The rule reads only the `[require]` section, as shader_runner decides whether a test
//! can run, and answers for an OpenGL 3.3 context (core or compatibility, as
//! shader_runner creates for `GL >=`, `GL CORE >=` and `GL COMPAT >=`):
//!
//! * `GL [CORE|COMPAT] OP X.Y` holds for version 3.3 (`GL >= 3.2` is in, `GL >= 4.0`
//!   is out); `GL ES ...` is out (an OpenGL ES context is no GL 3.3 context; on desktop
//!   GL, GLSL ES 1.00 and 3.00 need `GL_ARB_ES2_compatibility` (GL 4.1) and
//!   `GL_ARB_ES3_compatibility` (GL 4.3));
//! * `GLSL >= X.YY` is at most 3.30; `GLSL ES ...` is out;
//! * an extension (`GL_...` alone on its line, or an `ARB_...` name as the ARB
//!   assembly tests write it) is in only when [`CORE_IN_GL33`] lists it; `!GL_X` (the
//!   test needs X to be absent) is out when the list has X, since a GL 3.3 driver
//!   offers it;
//! * `SSO ENABLED`/`SEPARABLE PROGRAM ENABLED` (`GL_ARB_separate_shader_objects`,
//!   GL 4.1) and `SPIRV YES`/`SPIRV ONLY` (`GL_ARB_gl_spirv`, GL 4.6) are out;
//! * implementation limits (`GL_MAX_... >= N`, `INT ...`), `SIZE`, `depthbuffer`,
//!   `rlimit`, `SPIRV NO` and `ignore_missing_uniforms` do not decide.
//!
//! A file whose sections cannot be cut (an unknown header) is in: running it reports
//! the error.

use super::cursor::Cursor;
use super::parse::{Line, sections};

/// The extensions whose functionality is core in OpenGL 3.3 as a GL 3.3 program
/// writes it, by the GL 3.3 compatibility profile specification's Appendices F to J
/// (the extensions each version from 1.2 to 3.3 promoted), each with the version that
/// made it core. Only the names piglit's `[require]` sections use, and their twins,
/// are listed.
///
/// Left out on purpose, though those appendices name them:
/// `GL_ARB_geometry_shader4` and `GL_EXT_geometry_shader4` (GL 3.2 made geometry
/// shaders core with another interface: GLSL 1.50 layout qualifiers and `gl_in[]`
/// instead of program parameters and `gl_PositionIn`/`gl_VerticesIn`) and
/// `GL_EXT_gpu_shader4` (GLSL 1.30 renamed its built-ins: `uint` for `unsigned int`,
/// `texture` for `texture2DArray` ...). Not core in 3.3: `GL_ARB_shader_texture_lod`,
/// `GL_ARB_texture_query_lod` and `GL_ARB_texture_gather` (GL 4.0),
/// `GL_ARB_texture_storage` (GL 4.2), the ARB assembly programs
/// (`GL_ARB_vertex_program`, `GL_ARB_fragment_program`, never core), and
/// `GL_ARB_DRAW_BUFFERS` (no driver reports that spelling).
pub const CORE_IN_GL33: [(&str, &str); 28] = [
    // GL 1.3 .. 2.1 (Appendices F to J of the GL 2.1 specification, kept in 3.3's
    // compatibility profile).
    ("GL_ARB_multitexture", "1.3"),
    ("GL_ARB_texture_cube_map", "1.3"),
    ("GL_ARB_texture_border_clamp", "1.3"),
    ("GL_ARB_depth_texture", "1.4"),
    ("GL_ARB_shadow", "1.4"),
    ("GL_ARB_occlusion_query", "1.5"),
    ("GL_ARB_vertex_buffer_object", "1.5"),
    ("GL_ARB_draw_buffers", "2.0"),
    ("GL_ARB_texture_non_power_of_two", "2.0"),
    ("GL_ARB_point_sprite", "2.0"),
    // GL 3.0 (Appendix H.1).
    ("GL_EXT_texture_array", "3.0"),
    ("GL_EXT_texture_integer", "3.0"),
    ("GL_ARB_texture_rg", "3.0"),
    ("GL_ARB_framebuffer_object", "3.0"),
    ("GL_EXT_transform_feedback", "3.0"),
    // GL 3.1 (Appendix H.2).
    ("GL_ARB_draw_instanced", "3.1"),
    ("GL_ARB_texture_rectangle", "3.1"),
    ("GL_ARB_uniform_buffer_object", "3.1"),
    ("GL_ARB_texture_buffer_object", "3.1"),
    // GL 3.2 (Appendix H.3).
    ("GL_ARB_fragment_coord_conventions", "3.2"),
    ("GL_ARB_provoking_vertex", "3.2"),
    ("GL_EXT_provoking_vertex", "3.2"),
    ("GL_ARB_depth_clamp", "3.2"),
    ("GL_ARB_texture_multisample", "3.2"),
    // GL 3.3 (Appendix H.4).
    ("GL_ARB_explicit_attrib_location", "3.3"),
    ("GL_ARB_shader_bit_encoding", "3.3"),
    ("GL_ARB_instanced_arrays", "3.3"),
    ("GL_ARB_blend_func_extended", "3.3"),
];

/// The version [`CORE_IN_GL33`] gives `extension`, if it lists it.
pub fn core_since(extension: &str) -> Option<&'static str> {
    CORE_IN_GL33
        .iter()
        .find(|(name, _)| *name == extension)
        .map(|(_, version)| *version)
}

/// Why a test is outside the GL 3.3 selection: the `[require]` line and what it asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outside {
    /// Line of the requirement in the file.
    pub line: u32,
    /// What it asks for beyond GL 3.3, e.g. `GL_ARB_gpu_shader5` or `GLSL >= 4.00`.
    pub asks: String,
}

/// `None` when the test `text` asks for no more than GL 3.3 / GLSL 3.30 and the
/// extensions of [`CORE_IN_GL33`] (it is in the selection), else the first
/// requirement that puts it outside (the module's rule).
pub fn outside_gl33(text: &str) -> Option<Outside> {
    let parsed = sections(text).ok()?;
    parsed.require.iter().find_map(outside)
}

/// Whether `text` is in the GL 3.3 selection ([`outside_gl33`] finds nothing).
pub fn within_gl33(text: &str) -> bool {
    outside_gl33(text).is_none()
}

/// Whether one `[require]` line asks for more than GL 3.3 (the module's rule).
fn outside(line: &Line<'_>) -> Option<Outside> {
    let text = line.text.split('#').next().unwrap_or_default().trim();
    let out = || {
        Some(Outside {
            line: line.number,
            asks: text.to_string(),
        })
    };
    let mut c = Cursor::new(text);
    let first = c.word()?;
    match first {
        "GL" | "GLSL" => {
            let _ = c.eat_word("CORE") || c.eat_word("COMPAT");
            if c.eat_word("ES") {
                return out();
            }
            let op = c.word().unwrap_or_default();
            let version = c.word().unwrap_or_default();
            let v = version_of(version, if first == "GL" { 10 } else { 100 })?;
            let have = if first == "GL" { 33 } else { 330 };
            let holds = match op {
                "<" => have < v,
                "<=" => have <= v,
                "==" => have == v,
                "!=" => have != v,
                ">" => have > v,
                _ => have >= v,
            };
            if holds { None } else { out() }
        }
        "SSO" | "SEPARABLE" => out(),
        "SPIRV" if c.word() == Some("NO") => None,
        "SPIRV" => out(),
        name if name.starts_with("!GL_") => core_since(&name[1..]).and_then(|_| out()),
        name if name.starts_with("GL_") || name.starts_with("ARB_") => {
            if !c.at_end() {
                // A limit: GL_MAX_... >= N.
                return None;
            }
            let full = if name.starts_with("GL_") {
                name.to_string()
            } else {
                format!("GL_{name}")
            };
            if core_since(&full).is_some() {
                None
            } else {
                out()
            }
        }
        _ => None,
    }
}

/// `MAJOR.MINOR` as MAJOR · `scale` + MINOR (`3.3` → 33 with scale 10; `1.50` → 150
/// with 100; `4.0` → 400 with 100, as shader_runner reads `GLSL >= 4.0`).
fn version_of(word: &str, scale: u32) -> Option<u32> {
    let (major, minor) = word.split_once('.')?;
    let major: u32 = major.parse().ok()?;
    let mut minor_value: u32 = minor.parse().ok()?;
    // GLSL minors have two digits (1.5 means 1.50); GL minors one (3.10 means 3.1).
    let digits = if scale == 100 { 2 } else { 1 };
    if minor.len() < digits {
        minor_value *= 10;
    } else if minor.len() > digits {
        minor_value /= 10u32.pow((minor.len() - digits) as u32);
    }
    major.checked_mul(scale)?.checked_add(minor_value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asks(require: &str) -> Option<String> {
        outside_gl33(&format!("[require]\n{require}\n[test]\n")).map(|o| o.asks)
    }

    #[test]
    fn versions_up_to_gl_3_3_and_glsl_3_30_are_in() {
        assert_eq!(asks("GLSL >= 1.10"), None);
        assert_eq!(asks("GLSL >= 3.30\nGL >= 3.3"), None);
        assert_eq!(asks("GL COMPAT >= 3.2\nGLSL >= 1.50"), None);
        assert_eq!(asks("GL CORE >= 3.1\nGLSL >= 1.40"), None);
        assert_eq!(asks("GLSL >= 4.00").as_deref(), Some("GLSL >= 4.00"));
        assert_eq!(asks("GLSL >= 4.0").as_deref(), Some("GLSL >= 4.0"));
        assert_eq!(
            asks("GL >= 4.0\nGLSL >= 1.50").as_deref(),
            Some("GL >= 4.0")
        );
        assert_eq!(asks("GL >= 3.10"), None);
        // A test that needs GL below 3.0 cannot run in a 3.3 context.
        assert_eq!(asks("GL < 3.0").as_deref(), Some("GL < 3.0"));
        assert_eq!(
            asks("GL ES >= 3.0\nGLSL ES >= 3.00").as_deref(),
            Some("GL ES >= 3.0")
        );
        assert_eq!(asks("GLSL ES >= 1.00").as_deref(), Some("GLSL ES >= 1.00"));
    }

    #[test]
    fn only_extensions_core_in_gl_3_3_are_in() {
        assert_eq!(asks("GLSL >= 1.30\nGL_ARB_explicit_attrib_location"), None);
        assert_eq!(asks("GLSL >= 1.10\nGL_EXT_texture_array"), None);
        assert_eq!(
            asks("GLSL >= 1.50\nGL_ARB_gpu_shader5").as_deref(),
            Some("GL_ARB_gpu_shader5")
        );
        assert_eq!(
            asks("GLSL >= 1.10\nGL_ARB_geometry_shader4").as_deref(),
            Some("GL_ARB_geometry_shader4")
        );
        assert_eq!(
            asks("GL >= 1.3\nARB_vertex_program").as_deref(),
            Some("ARB_vertex_program")
        );
        assert_eq!(asks("GLSL >= 1.10\n!GL_ARB_gpu_shader5"), None);
        assert_eq!(
            asks("GLSL >= 1.10\n!GL_ARB_texture_rectangle").as_deref(),
            Some("!GL_ARB_texture_rectangle")
        );
    }

    #[test]
    fn limits_and_window_do_not_decide_but_sso_and_spirv_do() {
        assert_eq!(
            asks(
                "GLSL >= 1.10\nGL_MAX_VARYING_COMPONENTS >= 64\nSIZE 10 10\nINT GL_MAX_SAMPLES >= 4"
            ),
            None
        );
        assert_eq!(asks("GLSL >= 1.10\nSPIRV NO"), None);
        assert_eq!(
            asks("GLSL >= 4.50\nSPIRV YES").as_deref(),
            Some("GLSL >= 4.50")
        );
        assert_eq!(
            asks("GLSL >= 1.50\nSPIRV ONLY").as_deref(),
            Some("SPIRV ONLY")
        );
        assert_eq!(
            asks("GLSL >= 1.50\nSSO ENABLED").as_deref(),
            Some("SSO ENABLED")
        );
        assert_eq!(
            asks("GLSL >= 1.50 # a comment\nGL_ARB_uniform_buffer_object # core in 3.1"),
            None
        );
    }
}
