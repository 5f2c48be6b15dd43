//! The GLSL dialect a shader is written in, from its `#version` line (GLSL 1.10 §3.3,
//! GLSL 3.30 §3.3, GLSL ES 3.00 §3.4; summarised in `docs/glsl-dialects.md`).
//!
//! | `#version` line | dialect |
//! |---|---|
//! | none | desktop GLSL 1.10 (the specification's default) |
//! | `110`, `120`, `130`, `140` | desktop, with the compatibility built-ins |
//! | `150`, `330` (optionally `core`) | desktop core |
//! | `150 compatibility`, `330 compatibility` | desktop, with the compatibility built-ins |
//! | `100` | OpenGL ES 1.00 |
//! | `300 es` | OpenGL ES 3.00 |
//!
//! What depends on it: implicit int → float conversions (desktop 1.20 and later;
//! never in ES), the compatibility built-ins (`gl_Vertex`,
//! `gl_ModelViewProjectionMatrix`, `gl_FrontColor`, ...; see `builtin_vars.rs`),
//! and the predefined macros `__VERSION__`, `GL_ES`, `GL_core_profile` and
//! `GL_compatibility_profile`.

use std::fmt;

/// Which API family and profile a `#version` selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    /// Desktop GLSL 1.10 to 1.40 (no profiles yet: everything is available) or an
    /// explicit `compatibility` profile.
    Compatibility,
    /// Desktop GLSL 1.50 or 3.30 without a profile word, or with `core`.
    Core,
    /// OpenGL ES (`#version 100`, `#version 300 es`).
    Es,
}

/// A shader's language version and profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dialect {
    /// The number of the `#version` line: 100, 110, 120, 130, 140, 150, 300 or 330.
    pub version: u16,
    /// Desktop compatibility, desktop core, or ES.
    pub profile: Profile,
}

/// The image types GLSL 1.30 (§3.6) and GLSL ES 3.00 (§3.7) reserve for future use
/// (keywords from GLSL 4.20 and GLSL ES 3.10 on).
pub const IMAGE_TYPES: [&str; 25] = [
    "image1D",
    "image2D",
    "image3D",
    "imageCube",
    "iimage1D",
    "iimage2D",
    "iimage3D",
    "iimageCube",
    "uimage1D",
    "uimage2D",
    "uimage3D",
    "uimageCube",
    "image1DArray",
    "image2DArray",
    "iimage1DArray",
    "iimage2DArray",
    "uimage1DArray",
    "uimage2DArray",
    "image1DShadow",
    "image2DShadow",
    "image1DArrayShadow",
    "image2DArrayShadow",
    "imageBuffer",
    "iimageBuffer",
    "uimageBuffer",
];

/// Versions a `#version` line may name, in the message that lists them.
pub const SUPPORTED_VERSIONS: &str = "100, 110, 120, 130, 140, 150, 300 es and 330";

impl Default for Dialect {
    /// GLSL 1.10, what a shader without `#version` is (GLSL 1.10 §3.3).
    fn default() -> Self {
        Dialect {
            version: 110,
            profile: Profile::Compatibility,
        }
    }
}

impl Dialect {
    /// The dialect of `#version VERSION [PROFILE]`, or the message saying why the line
    /// is not accepted. `profile` is the word after the number, if any.
    pub fn from_directive(version: u32, profile: Option<&str>) -> Result<Dialect, String> {
        let desktop = |v: u32| matches!(v, 110 | 120 | 130 | 140 | 150 | 330);
        let dialect = |profile| Dialect {
            version: version as u16,
            profile,
        };
        match (version, profile) {
            (100, None) => Ok(dialect(Profile::Es)),
            (300, Some("es")) => Ok(dialect(Profile::Es)),
            (300, _) => Err("#version 300 needs the 'es' profile (#version 300 es)".into()),
            (v, Some("es")) => Err(format!(
                "#version {v} es: only 300 is an OpenGL ES version here ({SUPPORTED_VERSIONS})"
            )),
            (v, None) if desktop(v) && v >= 150 => Ok(dialect(Profile::Core)),
            (v, None) if desktop(v) => Ok(dialect(Profile::Compatibility)),
            (150 | 330, Some("core")) => Ok(dialect(Profile::Core)),
            (150 | 330, Some("compatibility")) => Ok(dialect(Profile::Compatibility)),
            (v, Some(p @ ("core" | "compatibility"))) if desktop(v) => Err(format!(
                "#version {v} {p}: profiles exist from GLSL 1.50 on; write #version {v}"
            )),
            (v, Some(word)) if desktop(v) || v == 100 => Err(format!(
                "unknown profile '{word}' in #version (core, compatibility or es)"
            )),
            (v, _) => Err(format!(
                "unsupported #version {v}: csir-render accepts {SUPPORTED_VERSIONS}"
            )),
        }
    }

    /// OpenGL ES.
    pub fn is_es(self) -> bool {
        self.profile == Profile::Es
    }

    /// Whether the compatibility built-ins (`gl_Vertex`, `gl_FrontColor`,
    /// `gl_ModelViewProjectionMatrix`, `ftransform()`, ...) exist: desktop GLSL 1.10 to
    /// 1.30, and the `compatibility` profile of 1.50 and 3.30. GLSL 1.40 removes what
    /// GLSL 1.30 deprecated; only `GL_ARB_compatibility`, which csir-render does not
    /// offer, brings it back there (piglit's glsl-1.40 compiler tests expect these
    /// names to be errors).
    pub fn has_compatibility_builtins(self) -> bool {
        self.profile == Profile::Compatibility && self.version != 140
    }

    /// Whether an `int` (or `ivecN`) converts implicitly to `float` (`vecN`): desktop
    /// GLSL 1.20 and later (GLSL 1.20 §4.1.10); never in GLSL 1.10 or ES.
    pub fn implicit_int_to_float(self) -> bool {
        !self.is_es() && self.version >= 120
    }

    /// Whether `word`, a keyword of later GLSL versions, is still an ordinary name in
    /// this dialect: the non-square matrix types (`mat2x3`, ...), `invariant` and
    /// `centroid` before desktop GLSL 1.20 (GLSL 1.20 §3.6 adds them); `smooth`,
    /// `flat`, `noperspective` and `layout` before desktop GLSL 1.30. The precision words (`precision`, `lowp`,
    /// `mediump`, `highp`) stay keywords in every dialect, although GLSL 1.10 §3.6
    /// neither uses nor reserves them, so that ES-style shaders without a `#version`
    /// line compile (docs/glsl-dialects.md). ES keeps them all (GLSL ES 1.00 §3.6).
    pub fn is_name_here(self, word: &str) -> bool {
        if self.is_es() {
            return false;
        }
        let from_120 = matches!(
            word,
            "mat2x2"
                | "mat2x3"
                | "mat2x4"
                | "mat3x2"
                | "mat3x3"
                | "mat3x4"
                | "mat4x2"
                | "mat4x3"
                | "mat4x4"
                | "invariant"
                | "centroid"
        );
        let from_130 = matches!(word, "smooth" | "flat" | "noperspective" | "layout");
        (from_120 && self.version < 120) || (from_130 && self.version < 130)
    }

    /// The rule that reserves `word` in this dialect, for the words reserved for future
    /// use from some version on (the words every dialect reserves, such as `input` or
    /// `superp`, are keywords of the lexer instead): `common`, `partition`, `active` and
    /// the image types ([`IMAGE_TYPES`]) from desktop GLSL 1.30 (GLSL 1.30 §3.6);
    /// those and `resource`, `atomic_uint`, `patch` and `sample` in GLSL ES 3.00 (GLSL
    /// ES 3.00 §3.7). Desktop GLSL up to 3.30 leaves the last four free as names (they
    /// become keywords in GLSL 4.x). `row_major` is reserved in GLSL 1.30 only: GLSL
    /// 1.40 makes it a layout qualifier name (§4.3.8), which is not a keyword.
    pub fn reserved_for_future_use(self, word: &str) -> Option<&'static str> {
        let from_130 =
            matches!(word, "common" | "partition" | "active") || IMAGE_TYPES.contains(&word);
        let es_300 = matches!(word, "resource" | "atomic_uint" | "patch" | "sample");
        match self.profile {
            Profile::Es if self.version >= 300 && (from_130 || es_300) => Some("GLSL ES 3.00 §3.7"),
            Profile::Core | Profile::Compatibility
                if self.version >= 130 && from_130
                    || self.version == 130 && word == "row_major" =>
            {
                Some("GLSL 1.30 §3.6")
            }
            _ => None,
        }
    }

    /// Whether the `in`/`out` storage qualifiers exist at global scope (GLSL 1.30,
    /// ES 3.00); before, `attribute` and `varying` are the only way.
    pub fn has_in_out_globals(self) -> bool {
        if self.is_es() {
            self.version >= 300
        } else {
            self.version >= 130
        }
    }

    /// Whether an array of samplers takes only integral constant expressions as
    /// indexes (GLSL 1.30 §4.1.7, ES 3.00 §4.1.7.1); GLSL 1.10, 1.20 and ES 1.00 also
    /// take an index known once loops are unrolled (ES 1.00 Appendix A's
    /// constant-index-expressions).
    pub fn samplers_indexed_by_constants(self) -> bool {
        self.has_in_out_globals()
    }

    /// The specification this dialect's rules are cited from, without the profile:
    /// `GLSL 1.30`, `GLSL ES 3.00` (the [`Display`](fmt::Display) form adds `core` or
    /// `compatibility`).
    pub fn spec(self) -> String {
        let (major, minor) = (self.version / 100, self.version % 100);
        match self.is_es() {
            true => format!("GLSL ES {major}.{minor:02}"),
            false => format!("GLSL {major}.{minor:02}"),
        }
    }

    /// The macros predefined for this dialect (GLSL 3.30 §3.3, GLSL ES 3.00 §3.4):
    /// `__VERSION__`, `GL_ES` (ES only), `GL_FRAGMENT_PRECISION_HIGH` (ES, and desktop
    /// 1.30 and later),
    /// `GL_core_profile` (desktop 1.50 and later) and
    /// `GL_compatibility_profile` (the compatibility profile of 1.50 and later).
    pub fn predefined_macros(self) -> Vec<(&'static str, i32)> {
        let mut m = vec![("__VERSION__", self.version as i32)];
        if self.is_es() {
            m.push(("GL_ES", 1));
            // highp is supported in the fragment language, in both stages' macros
            // (GLSL ES 1.00 §4.5.4; always 1 in GLSL ES 3.00 §4.5.4).
            m.push(("GL_FRAGMENT_PRECISION_HIGH", 1));
        } else {
            // GLSL 1.30 §4.5.4 (and every later version): "available in both the
            // vertex and fragment languages".
            if self.version >= 130 {
                m.push(("GL_FRAGMENT_PRECISION_HIGH", 1));
            }
            if self.version >= 150 {
                m.push(("GL_core_profile", 1));
                if self.profile == Profile::Compatibility {
                    m.push(("GL_compatibility_profile", 1));
                }
            }
        }
        m
    }
}

impl fmt::Display for Dialect {
    /// `GLSL 1.10`, `GLSL 3.30 core`, `GLSL 1.50 compatibility`, `GLSL ES 3.00`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (major, minor) = (self.version / 100, self.version % 100);
        match self.profile {
            Profile::Es => write!(f, "GLSL ES {major}.{minor:02}"),
            Profile::Core => write!(f, "GLSL {major}.{minor:02} core"),
            Profile::Compatibility if self.version >= 150 => {
                write!(f, "GLSL {major}.{minor:02} compatibility")
            }
            Profile::Compatibility => write!(f, "GLSL {major}.{minor:02}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_lines_select_dialects() {
        let d = |v, p| Dialect::from_directive(v, p).map(|d| d.to_string());
        assert_eq!(d(110, None).unwrap(), "GLSL 1.10");
        assert_eq!(d(130, None).unwrap(), "GLSL 1.30");
        assert_eq!(d(150, None).unwrap(), "GLSL 1.50 core");
        assert_eq!(d(330, Some("core")).unwrap(), "GLSL 3.30 core");
        assert_eq!(
            d(330, Some("compatibility")).unwrap(),
            "GLSL 3.30 compatibility"
        );
        assert_eq!(d(100, None).unwrap(), "GLSL ES 1.00");
        assert_eq!(d(300, Some("es")).unwrap(), "GLSL ES 3.00");
        assert!(d(300, None).unwrap_err().contains("300 es"));
        assert!(d(330, Some("garbage")).unwrap_err().contains("'garbage'"));
        assert!(
            d(120, Some("core"))
                .unwrap_err()
                .contains("from GLSL 1.50 on")
        );
        assert!(
            d(400, None)
                .unwrap_err()
                .contains("unsupported #version 400")
        );
        assert!(d(330, Some("es")).unwrap_err().contains("only 300"));
        assert_eq!(Dialect::default().to_string(), "GLSL 1.10");
    }

    #[test]
    fn rules_follow_the_version() {
        let d = |v, p| Dialect::from_directive(v, p).unwrap();
        assert!(!d(110, None).implicit_int_to_float());
        assert!(d(120, None).implicit_int_to_float());
        assert!(!d(300, Some("es")).implicit_int_to_float());
        assert!(d(130, None).has_compatibility_builtins());
        assert!(!d(140, None).has_compatibility_builtins());
        assert!(!d(330, None).has_compatibility_builtins());
        assert!(d(330, Some("compatibility")).has_compatibility_builtins());
        assert!(!d(100, None).has_compatibility_builtins());
        assert!(!d(120, None).has_in_out_globals());
        assert!(d(130, None).has_in_out_globals());
        assert!(!d(100, None).has_in_out_globals());
        let es3 = d(300, Some("es"));
        assert_eq!(
            es3.reserved_for_future_use("sample"),
            Some("GLSL ES 3.00 §3.7")
        );
        assert_eq!(
            es3.reserved_for_future_use("active"),
            Some("GLSL ES 3.00 §3.7")
        );
        assert_eq!(d(330, None).reserved_for_future_use("sample"), None);
        assert_eq!(
            d(130, None).reserved_for_future_use("partition"),
            Some("GLSL 1.30 §3.6")
        );
        assert_eq!(d(120, None).reserved_for_future_use("common"), None);
        assert_eq!(d(100, None).reserved_for_future_use("patch"), None);
        assert_eq!(
            d(100, None).predefined_macros(),
            vec![
                ("__VERSION__", 100),
                ("GL_ES", 1),
                ("GL_FRAGMENT_PRECISION_HIGH", 1)
            ]
        );
        assert_eq!(
            d(150, Some("compatibility")).predefined_macros(),
            vec![
                ("__VERSION__", 150),
                ("GL_FRAGMENT_PRECISION_HIGH", 1),
                ("GL_core_profile", 1),
                ("GL_compatibility_profile", 1)
            ]
        );
    }
}
