//! The `[require]` section: what a test needs, checked against what csir-render
//! provides (docs/conformance.md, "What a test may require").
//!
//! csir-render answers as an OpenGL 3.3 compatibility context with GLSL 1.10 to 3.30
//! (and GLSL ES 1.00 and 3.00) and no extensions, whose implementation limits are the
//! shader [`Limits`] of the profile the tests run under (extended, the default: 16
//! varying vec4s = 64 components, 256 uniform vec4s = 1024 components per stage, 16
//! vertex attributes; seed: 8 varying vec4s = 32 components, 32 uniform vec4s = 128
//! components, 8 vertex attributes). A requirement it does not meet *skips*
//! the test with the reason; a line it does not know skips it too, naming the line.

use super::cursor::Cursor;
use super::error::ParseError;
use super::parse::Line;
use csir::Limits;

/// Highest desktop GLSL version csir-render accepts (`#version 330`).
pub const GLSL_VERSION: u32 = 330;
/// Highest GLSL ES version csir-render accepts (`#version 300 es`).
pub const GLSL_ES_VERSION: u32 = 300;
/// The desktop OpenGL version csir-render answers as (3.3), times 10.
pub const GL_VERSION: u32 = 33;
/// The OpenGL ES version csir-render answers as (3.0), times 10.
pub const GL_ES_VERSION: u32 = 30;
/// shader_runner's window size when `[require]` gives no `SIZE`.
pub const DEFAULT_WINDOW: [u32; 2] = [250, 250];
/// Largest window side `SIZE` may ask for (piglit's windows are a few hundred pixels;
/// the bound keeps a malformed file from allocating gigabytes).
pub const MAX_WINDOW_SIDE: i32 = 4096;

/// What the `[require]` section asks for, once every line is understood and met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirements {
    /// The `GLSL >= X.Y` line: version times 100 (1.10 → 110), whether it is GLSL ES,
    /// and its line. shader_runner adds `#version` from it to a shader without one.
    pub glsl: Option<GlslRequirement>,
    /// Window size (`SIZE W H`, else 250×250).
    pub window: [u32; 2],
    /// `ignore_missing_uniforms`: a `uniform` command naming a uniform the program does
    /// not have is ignored instead of an error.
    pub ignore_missing_uniforms: bool,
}

/// The GLSL version a test requires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlslRequirement {
    /// Version times 100: 110, 120, ..., 330; 100 or 300 for ES.
    pub version: u32,
    /// GLSL ES.
    pub es: bool,
    /// Line of the requirement.
    pub line: u32,
}

impl GlslRequirement {
    /// The `#version` directive shader_runner adds to a shader that has none:
    /// `#version 110`, `#version 300 es` (but `#version 100` for ES 1.00).
    pub fn directive(&self) -> String {
        if self.es && self.version != 100 {
            format!("#version {} es", self.version)
        } else {
            format!("#version {}", self.version)
        }
    }
}

/// Why a test cannot run here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unmet {
    /// Line of the requirement.
    pub line: u32,
    /// The reason, e.g. `needs extension GL_ARB_gpu_shader5`.
    pub reason: String,
}

/// How a requirement line compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Comparison {
    Less,
    LessEqual,
    Equal,
    NotEqual,
    GreaterEqual,
    Greater,
}

impl Comparison {
    const ALL: [(&'static str, Comparison); 6] = [
        ("<=", Comparison::LessEqual),
        (">=", Comparison::GreaterEqual),
        ("==", Comparison::Equal),
        ("!=", Comparison::NotEqual),
        ("<", Comparison::Less),
        (">", Comparison::Greater),
    ];

    fn parse(c: &mut Cursor<'_>) -> Result<Comparison, String> {
        let found = c.found();
        match c.word() {
            Some(w) => Comparison::ALL
                .iter()
                .find(|(s, _)| *s == w)
                .map(|(_, cmp)| *cmp)
                .ok_or_else(|| {
                    format!("expected a comparison (<, <=, ==, !=, >=, >), found {found}")
                }),
            None => Err(format!("expected a comparison, found {found}")),
        }
    }

    fn symbol(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, c)| *c == self)
            .map_or("?", |(s, _)| s)
    }

    /// Whether `have` compares to `want` this way (`have >= want` ...).
    fn holds(self, have: i64, want: i64) -> bool {
        match self {
            Comparison::Less => have < want,
            Comparison::LessEqual => have <= want,
            Comparison::Equal => have == want,
            Comparison::NotEqual => have != want,
            Comparison::GreaterEqual => have >= want,
            Comparison::Greater => have > want,
        }
    }
}

/// The implementation limits a requirement may test, by GL name.
fn limit(name: &str, limits: &Limits) -> Option<i64> {
    let v = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    Some(match name {
        "GL_MAX_VARYING_COMPONENTS" | "GL_MAX_VERTEX_OUTPUT_COMPONENTS" => v(limits.varyings * 4),
        "GL_MAX_VARYING_FLOATS" => v(limits.varyings * 4),
        "GL_MAX_FRAGMENT_UNIFORM_COMPONENTS" | "GL_MAX_VERTEX_UNIFORM_COMPONENTS" => {
            v(limits.uniform_slots * 4)
        }
        "GL_MAX_VERTEX_ATTRIBS" => v(limits.attributes),
        "GL_MAX_GEOMETRY_OUTPUT_VERTICES" => v(usize::from(
            csir::ir::geometry::MAX_GEOMETRY_OUTPUT_VERTICES,
        )),
        "GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS" => {
            v(csir::ir::geometry::MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS as usize)
        }
        "GL_MAX_CLIP_PLANES" | "GL_MAX_CLIP_DISTANCES" => v(crate::scene::MAX_CLIP_PLANES),
        _ => return None,
    })
}

/// Check every `[require]` line against what csir-render provides (under `limits`).
///
/// Returns the requirements when all are met, `Err(Ok(unmet))` for the first one that
/// is not (the test is skipped), `Err(Err(parse error))` for a line that is malformed
/// in a way shader_runner itself rejects (a GLSL comparison other than `>=`, a version
/// that is not `X.Y`).
pub fn check(
    lines: &[Line<'_>],
    limits: &Limits,
) -> Result<Requirements, Result<Unmet, ParseError>> {
    let mut req = Requirements {
        glsl: None,
        window: DEFAULT_WINDOW,
        ignore_missing_uniforms: false,
    };
    for line in lines {
        let unmet = |reason: String| {
            Err(Ok(Unmet {
                line: line.number,
                reason,
            }))
        };
        let bad = |message: String| Err(Err(ParseError::new(line.number, message)));
        let mut c = Cursor::new(line.text);
        let Some(first) = c.word() else { continue };
        match first {
            "GLSL" => match version_line(&mut c, 100) {
                Ok((es, cmp, version)) => {
                    if cmp != Comparison::GreaterEqual {
                        return bad(format!(
                            "a GLSL requirement must use >= (shader_runner adds #version \
                             from it), found {}",
                            cmp.symbol()
                        ));
                    }
                    let max = if es { GLSL_ES_VERSION } else { GLSL_VERSION };
                    if version > max {
                        return unmet(format!(
                            "needs GLSL{} {}.{:02} (csir-render accepts up to {}.{:02})",
                            if es { " ES" } else { "" },
                            version / 100,
                            version % 100,
                            max / 100,
                            max % 100
                        ));
                    }
                    req.glsl = Some(GlslRequirement {
                        version,
                        es,
                        line: line.number,
                    });
                }
                Err(message) => return bad(message),
            },
            "GL" => match version_line(&mut c, 10) {
                Ok((es, cmp, version)) => {
                    let have = if es { GL_ES_VERSION } else { GL_VERSION };
                    if !cmp.holds(i64::from(have), i64::from(version)) {
                        return unmet(format!(
                            "needs GL{} {} {}.{} (csir-render answers as {}.{})",
                            if es { " ES" } else { "" },
                            cmp.symbol(),
                            version / 10,
                            version % 10,
                            have / 10,
                            have % 10
                        ));
                    }
                }
                Err(message) => return bad(message),
            },
            "SIZE" => {
                let size = c.int().and_then(|w| Ok([w, c.int()?]));
                match size {
                    Ok([w, h])
                        if (1..=MAX_WINDOW_SIDE).contains(&w)
                            && (1..=MAX_WINDOW_SIDE).contains(&h) =>
                    {
                        req.window = [w as u32, h as u32];
                    }
                    Ok([w, h]) => {
                        return bad(format!(
                            "window size {w}x{h} is not in 1..={MAX_WINDOW_SIDE} on each side"
                        ));
                    }
                    Err(message) => return bad(format!("SIZE: {message}")),
                }
            }
            "depthbuffer" | "rlimit" => {}
            "ignore_missing_uniforms" => req.ignore_missing_uniforms = true,
            "SSO" | "SEPARABLE" => {
                return unmet("needs separate shader objects (SSO)".to_string());
            }
            "SPIRV" => match c.word() {
                Some("YES") | Some("NO") => {}
                _ => return unmet("needs SPIR-V shaders".to_string()),
            },
            "INT" => {
                let name = c.word().unwrap_or_default();
                match int_limit(&mut c, name, limits) {
                    Ok(None) => {}
                    Ok(Some(reason)) => return unmet(reason),
                    Err(message) => return bad(message),
                }
            }
            name if name.starts_with("GL_") => match int_limit(&mut c, name, limits) {
                Ok(None) => {}
                Ok(Some(reason)) => return unmet(reason),
                Err(message) => return bad(message),
            },
            name if name.starts_with("!GL_") => {
                if SUPPORTED_EXTENSIONS.contains(&&name[1..]) {
                    return unmet(format!("needs no extension {}", &name[1..]));
                }
            }
            _ => {
                return unmet(format!("unknown requirement '{}'", line.text.trim()));
            }
        }
    }
    Ok(req)
}

/// The extensions whose features csir-render has, as a GL 3.3 driver reports the
/// ones GL 3.0 to 3.3 made core: the provoking-vertex convention (GL 3.2 §2.18),
/// instanced drawing and arrays (GL 3.1 §2.8.2, GL 3.3 §2.8), the one- and
/// two-component R and RG texture formats with the `GL_RED` depth texture mode
/// (GL 3.0 §3.8.1; the renderer's `r8`/`rg8` formats, `texparameter ... depth_mode
/// red`), the bit-encoding built-ins (GLSL 3.30 §8.3), explicit attribute locations
/// (GLSL 3.30 §4.3.8.1), uniform blocks (GL 3.1 §2.11.4) and rectangle textures
/// (GL 3.1 §3.8; `texture shadowRect`, the `sampler2DRect*` types) and array
/// textures (GL 3.0 §3.8; `texture rgbw 2DArray`, `texture shadow1DArray`, the array
/// samplers and `GL_EXT_texture_array`'s GLSL 1.10 look-ups).
pub const SUPPORTED_EXTENSIONS: [&str; 10] = [
    "GL_EXT_provoking_vertex",
    "GL_ARB_provoking_vertex",
    "GL_ARB_draw_instanced",
    "GL_ARB_instanced_arrays",
    "GL_ARB_texture_rg",
    "GL_ARB_shader_bit_encoding",
    "GL_ARB_explicit_attrib_location",
    "GL_ARB_uniform_buffer_object",
    "GL_ARB_texture_rectangle",
    "GL_EXT_texture_array",
];

/// A `GL_...` requirement: an extension (met for [`SUPPORTED_EXTENSIONS`]) or a limit
/// comparison (`GL_MAX_VARYING_COMPONENTS >= 64`). `Ok(None)` when met, `Ok(Some(reason))`
/// when not.
fn int_limit(c: &mut Cursor<'_>, name: &str, limits: &Limits) -> Result<Option<String>, String> {
    if c.at_end() && SUPPORTED_EXTENSIONS.contains(&name) {
        return Ok(None);
    }
    if c.at_end() {
        return Ok(Some(format!("needs extension {name}")));
    }
    let cmp = Comparison::parse(c)?;
    let want = c.int()?;
    match limit(name, limits) {
        None => Ok(Some(format!(
            "needs {name} {} {want} (csir-render does not report {name})",
            cmp.symbol()
        ))),
        Some(have) if cmp.holds(have, i64::from(want)) => Ok(None),
        Some(have) => Ok(Some(format!(
            "needs {name} {} {want} (csir-render has {have})",
            cmp.symbol()
        ))),
    }
}

/// The rest of a `GLSL` or `GL` line: `[CORE] [COMPAT] [ES] OP MAJOR.MINOR`, with the
/// version as MAJOR · `scale` + MINOR (GLSL: 1.10 → 110; GL: 3.3 → 33).
fn version_line(c: &mut Cursor<'_>, scale: u32) -> Result<(bool, Comparison, u32), String> {
    let _core = c.eat_word("CORE");
    let _compat = c.eat_word("COMPAT");
    let es = c.eat_word("ES");
    let cmp = Comparison::parse(c)?;
    let found = c.found();
    let word = c.word().unwrap_or_default();
    let version = word
        .split_once('.')
        .and_then(|(major, minor)| {
            let major: u32 = major.parse().ok()?;
            let minor: u32 = minor.parse().ok()?;
            major.checked_mul(scale)?.checked_add(minor)
        })
        .ok_or_else(|| format!("expected a version MAJOR.MINOR, found {found}"))?;
    if !c.at_end() {
        return Err(format!("unexpected '{}' after the version", c.rest()));
    }
    Ok((es, cmp, version))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shader_test::parse::lines;

    fn check_text(text: &str) -> Result<Requirements, Result<Unmet, ParseError>> {
        let lines: Vec<_> = lines(text).filter(|l| !l.text.trim().is_empty()).collect();
        check(&lines, &Limits::default())
    }

    fn unmet(text: &str) -> String {
        match check_text(text) {
            Err(Ok(u)) => format!("{}: {}", u.line, u.reason),
            other => panic!("{text}: expected unmet, got {other:?}"),
        }
    }

    #[test]
    fn met_requirements_give_version_and_window() {
        let r = check_text("GLSL >= 1.30\nGL >= 2.1\nGL_MAX_VARYING_COMPONENTS >= 32\nSIZE 64 32\nrlimit 100\n!GL_ARB_foo").unwrap();
        assert_eq!(
            r.glsl,
            Some(GlslRequirement {
                version: 130,
                es: false,
                line: 1
            })
        );
        assert_eq!(r.glsl.unwrap().directive(), "#version 130");
        assert_eq!(r.window, [64, 32]);
        let r = check_text("GL ES >= 3.0\nGLSL ES >= 3.00").unwrap();
        assert_eq!(r.glsl.unwrap().directive(), "#version 300 es");
        assert_eq!(check_text("").unwrap().window, [250, 250]);
    }

    #[test]
    fn unmet_requirements_name_what_is_missing() {
        assert_eq!(
            unmet("GLSL >= 1.10\nGL_ARB_gpu_shader5"),
            "2: needs extension GL_ARB_gpu_shader5"
        );
        assert_eq!(
            unmet("GLSL >= 4.00"),
            "1: needs GLSL 4.00 (csir-render accepts up to 3.30)"
        );
        assert_eq!(
            unmet("GL >= 4.0"),
            "1: needs GL >= 4.0 (csir-render answers as 3.3)"
        );
        assert_eq!(
            unmet("GL_MAX_VARYING_COMPONENTS >= 64"),
            "1: needs GL_MAX_VARYING_COMPONENTS >= 64 (csir-render has 32)"
        );
        assert_eq!(
            unmet("GL_MAX_CLIP_PLANES >= 9"),
            "1: needs GL_MAX_CLIP_PLANES >= 9 (csir-render has 8)"
        );
        assert_eq!(
            unmet("GL_MAX_TEXTURE_SIZE >= 8"),
            "1: needs GL_MAX_TEXTURE_SIZE >= 8 (csir-render does not report GL_MAX_TEXTURE_SIZE)"
        );
        assert_eq!(
            unmet("SSO ENABLED"),
            "1: needs separate shader objects (SSO)"
        );
        assert_eq!(unmet("frobnicate"), "1: unknown requirement 'frobnicate'");
    }

    #[test]
    fn malformed_requirements_are_errors() {
        let e = |text: &str| match check_text(text) {
            Err(Err(e)) => e.to_string(),
            other => panic!("{text}: expected an error, got {other:?}"),
        };
        assert_eq!(
            e("GLSL == 1.10"),
            "1: a GLSL requirement must use >= (shader_runner adds #version from it), found =="
        );
        assert_eq!(
            e("GLSL >= 1"),
            "1: expected a version MAJOR.MINOR, found '1'"
        );
        assert_eq!(
            e("SIZE 0 10"),
            "1: window size 0x10 is not in 1..=4096 on each side"
        );
    }
}
