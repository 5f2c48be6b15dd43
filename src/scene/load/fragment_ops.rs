//! The per-fragment operation keys of a draw's `state` (`docs/scene-format.md`,
//! "Per-fragment operations"): `blend` as a name or as an object of factors, equations
//! and blend colour (OpenGL 3.3 core §4.1.8).

use super::Loader;
use crate::scene::SceneError;
use crate::scene::json::{Json, get};
use csir_raster::{BlendEquation, BlendFactor, BlendFunction, BlendMode};

/// The keys of a `state.blend` object. `src`, `dst` and `equation` set the RGB and
/// the alpha part at once; the separate keys override them.
const BLEND_KEYS: &[&str] = &[
    "src",
    "dst",
    "equation",
    "src_rgb",
    "dst_rgb",
    "src_alpha",
    "dst_alpha",
    "equation_rgb",
    "equation_alpha",
    "color",
];

impl Loader<'_> {
    /// `state.blend`: `"none"`, `"alpha"`, `"additive"`, or an object
    /// `{ src, dst, equation, src_rgb, …, color }` ([`BLEND_KEYS`]), made a named mode
    /// when it is one ([`BlendMode::from_function`]).
    pub(super) fn blend(&self, value: Option<&Json>, field: &str) -> Result<BlendMode, SceneError> {
        let Some(value) = value else {
            return Ok(BlendMode::default());
        };
        if let Json::String(_) = value {
            return self.named(value, field, &BlendMode::NAMES, "blend mode");
        }
        if !matches!(value, Json::Object(_)) {
            let names: Vec<&str> = BlendMode::NAMES.iter().map(|(n, _)| *n).collect();
            return Err(self.error(
                field,
                format!(
                    "expected one of {} or an object of blend factors and equations, got {}",
                    names.join(", "),
                    value.brief()
                ),
            ));
        }
        let entries = self.record(value, field, BLEND_KEYS)?;
        let defaults = BlendFunction::default();
        let factor = |key: &str, default: BlendFactor| -> Result<BlendFactor, SceneError> {
            match get(entries, key) {
                None => Ok(default),
                Some(v) => self.blend_factor(v, &format!("{field}.{key}")),
            }
        };
        let equation = |key: &str, default: BlendEquation| -> Result<BlendEquation, SceneError> {
            match get(entries, key) {
                None => Ok(default),
                Some(v) => self.named(
                    v,
                    &format!("{field}.{key}"),
                    &BlendEquation::NAMES,
                    "blend equation",
                ),
            }
        };
        let src = factor("src", defaults.src_rgb)?;
        let dst = factor("dst", defaults.dst_rgb)?;
        let eq = equation("equation", defaults.equation_rgb)?;
        let color = match get(entries, "color") {
            None => [0.0; 4],
            Some(v) => {
                let at = format!("{field}.color");
                let c = self.floats(v, &at, Some(4))?;
                [c[0], c[1], c[2], c[3]]
            }
        };
        let function = BlendFunction {
            src_rgb: factor("src_rgb", src)?,
            dst_rgb: factor("dst_rgb", dst)?,
            src_alpha: factor("src_alpha", src)?,
            dst_alpha: factor("dst_alpha", dst)?,
            equation_rgb: equation("equation_rgb", eq)?,
            equation_alpha: equation("equation_alpha", eq)?,
            color: color.map(csir_raster::to_unorm8),
        };
        Ok(BlendMode::from_function(function))
    }

    /// One blend factor by name; GL's dual-source factors are refused by name.
    fn blend_factor(&self, value: &Json, field: &str) -> Result<BlendFactor, SceneError> {
        if let Json::String(name) = value
            && BlendFactor::DUAL_SOURCE_NAMES.contains(&name.as_str())
        {
            return Err(self.error(
                field,
                format!(
                    "blend factor `{name}` is not drawn yet: dual-source blending needs a \
                     second fragment output (layout(location = 0, index = 1)), which \
                     csir-render does not have"
                ),
            ));
        }
        self.named(value, field, &BlendFactor::NAMES, "blend factor")
    }

    /// A value from a `NAMES` table; a misspelt name gets "did you mean" the closest
    /// name, any other value the list of names.
    pub(super) fn named<T: Copy>(
        &self,
        value: &Json,
        field: &str,
        names: &[(&'static str, T)],
        what: &str,
    ) -> Result<T, SceneError> {
        if let Json::String(s) = value {
            if let Some((_, v)) = names.iter().find(|(n, _)| n == s) {
                return Ok(*v);
            }
            let closest = names
                .iter()
                .map(|(n, _)| (strsim::damerau_levenshtein(s, n), *n))
                .min()
                .filter(|(d, n)| *d <= (n.len() / 3).max(2));
            if let Some((_, n)) = closest {
                return Err(self.error(field, format!("unknown {what} `{s}`; did you mean `{n}`?")));
            }
        }
        let list: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
        Err(self.error(
            field,
            format!("expected one of {}, got {}", list.join(", "), value.brief()),
        ))
    }
}
