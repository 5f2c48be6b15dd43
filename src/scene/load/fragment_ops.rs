//! The per-fragment operation keys of a draw's `state` (`docs/scene-format.md`,
//! "Per-fragment operations"): `blend` as a name or as an object of factors, equations
//! and blend colour (OpenGL 3.3 core §4.1.8); `color_mask`, `scissor`, `viewport` and
//! `depth_range`; `polygon_offset`.

use super::{Entries, Loader};
use crate::scene::json::{Json, get};
use crate::scene::rules;
use crate::scene::{Draw, SceneError};
use csir_raster::{
    BlendEquation, BlendFactor, BlendFunction, BlendMode, PolygonOffset, RasterState,
};

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

    /// One blend factor by name.
    fn blend_factor(&self, value: &Json, field: &str) -> Result<BlendFactor, SceneError> {
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
            let closest = crate::scene::closest_name(s, names.iter().map(|(n, _)| *n));
            if let Some(n) = closest {
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

impl Loader<'_> {
    /// `state.color_mask`, `state.scissor`, `state.viewport`, `state.depth_range` and
    /// `state.polygon_offset`
    /// (the other fields of the result are the defaults). The scissor is checked
    /// against the framebuffer by [`Loader::check_window_rects`].
    pub(super) fn window_state(
        &self,
        entries: &Entries,
        field: &str,
    ) -> Result<RasterState, SceneError> {
        let defaults = RasterState::default();
        let color_mask = match get(entries, "color_mask") {
            None => defaults.color_mask,
            Some(v) => self.color_mask(v, &format!("{field}.color_mask"))?,
        };
        let scissor = match get(entries, "scissor") {
            None | Some(Json::Null) => None,
            Some(v) => {
                let [x, y, w, h] = self.rect(v, &format!("{field}.scissor"), &rules::SCISSOR_XY)?;
                Some([x, y, w, h].map(|k| k as u32))
            }
        };
        let viewport = match get(entries, "viewport") {
            None | Some(Json::Null) => None,
            Some(v) => {
                let at = format!("{field}.viewport");
                let [x, y, w, h] = self.rect(v, &at, &rules::VIEWPORT_XY)?;
                rules::viewport_size(w, h).map_err(|m| self.error(&at, m))?;
                Some([x, y, w, h].map(|k| k as i32))
            }
        };
        let depth_range = match get(entries, "depth_range") {
            None => defaults.depth_range,
            Some(v) => {
                // glDepthRange clamps both values to [0, 1] (GL 3.3 §2.13.1).
                let r = self.floats(v, &format!("{field}.depth_range"), Some(2))?;
                [r[0].clamp(0.0, 1.0), r[1].clamp(0.0, 1.0)]
            }
        };
        let polygon_offset = match get(entries, "polygon_offset") {
            None | Some(Json::Null) => None,
            Some(v) => Some(self.polygon_offset(v, &format!("{field}.polygon_offset"))?),
        };
        Ok(RasterState {
            color_mask,
            scissor,
            viewport,
            depth_range,
            polygon_offset,
            ..defaults
        })
    }

    /// `{ "factor", "units" }`, each a number, default 0.
    fn polygon_offset(&self, value: &Json, field: &str) -> Result<PolygonOffset, SceneError> {
        let entries = self.record(value, field, &["factor", "units"])?;
        let number = |key: &str| match get(entries, key) {
            None => Ok(0.0),
            Some(v) => Ok(self.floats(v, &format!("{field}.{key}"), Some(1))?[0]),
        };
        Ok(PolygonOffset {
            factor: number("factor")?,
            units: number("units")?,
        })
    }

    /// `[r, g, b, a]`, four booleans.
    fn color_mask(&self, value: &Json, field: &str) -> Result<[bool; 4], SceneError> {
        let bad = || {
            self.error(
                field,
                format!(
                    "expected four booleans [r, g, b, a] (glColorMask), got {}",
                    value.brief()
                ),
            )
        };
        let Some(list) = value.items() else {
            return Err(bad());
        };
        if list.len() != 4 {
            return Err(bad());
        }
        let mut mask = [true; 4];
        for (k, v) in list.iter().enumerate() {
            mask[k] = match v {
                Json::Bool(b) => *b,
                other => {
                    return Err(self.error(
                        format!("{field}[{k}]"),
                        format!("expected true or false, got {}", other.brief()),
                    ));
                }
            };
        }
        Ok(mask)
    }

    /// `[x, y, w, h]`: four integers, x and y in `xy`, `w` and `h` in 0..=16384
    /// ([`rules::rect_component`]).
    fn rect(
        &self,
        value: &Json,
        field: &str,
        xy: &std::ops::RangeInclusive<i64>,
    ) -> Result<[i64; 4], SceneError> {
        let Some(list) = value.items() else {
            return Err(self.error(
                field,
                format!(
                    "expected [x, y, width, height] or null, got {}",
                    value.brief()
                ),
            ));
        };
        if list.len() != 4 {
            return Err(self.error(
                field,
                format!("expected [x, y, width, height], got {} numbers", list.len()),
            ));
        }
        let mut out = [0i64; 4];
        for (k, v) in list.iter().enumerate() {
            let at = format!("{field}[{k}]");
            out[k] = self.integer(Some(v), &at, rules::rect_component(xy, k), None)?;
        }
        Ok(out)
    }

    /// The scissor rectangle of `draw` lies inside the `width × height` framebuffer
    /// ([`rules::scissor_inside`]).
    pub(super) fn check_window_rects(
        &self,
        draw: &Draw,
        width: u32,
        height: u32,
    ) -> Result<(), SceneError> {
        match draw.state.raster.scissor {
            Some(rect) => rules::scissor_inside(rect, width, height)
                .map_err(|m| self.error(format!("{}.state.scissor", draw.field()), m)),
            None => Ok(()),
        }
    }
}
