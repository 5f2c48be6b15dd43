//! Loading `targets`, `framebuffer_srgb` and a per-target `clear.color`
//! (docs/scene-format.md "Render targets"); the model is `scene/targets.rs`.

use super::{Entries, Loader};
use crate::scene::json::{Json, get};
use crate::scene::rules;
use crate::scene::targets::Targets;
use crate::scene::{Draw, SceneError};
use csir_raster::{ColorTarget, TargetFormat};

impl Loader<'_> {
    /// The scene's targets from its root entries; `clear` is the `clear` object's
    /// entries, if any. Without `targets` and `framebuffer_srgb` the default single
    /// RGBA8 target (whose clear colour the caller reads as before).
    pub(super) fn targets(
        &self,
        root: &Entries,
        clear: Option<&Entries>,
    ) -> Result<Targets, SceneError> {
        let list_json = get(root, "targets");
        let srgb_json = get(root, "framebuffer_srgb");
        if list_json.is_none() && srgb_json.is_none() {
            return Ok(Targets::default());
        }
        let framebuffer_srgb = match srgb_json {
            None => false,
            Some(Json::Bool(b)) => *b,
            Some(other) => {
                return Err(self.error(
                    "framebuffer_srgb",
                    format!("expected true or false, got {}", other.brief()),
                ));
            }
        };
        let formats = match list_json {
            None => vec![TargetFormat::Rgba8],
            Some(v) => self.target_formats(v)?,
        };
        let list: Vec<ColorTarget> = formats
            .iter()
            .map(|&format| ColorTarget {
                format,
                framebuffer_srgb,
            })
            .collect();
        let clear = self.target_clears(clear.and_then(|c| get(c, "color")), list.len())?;
        Ok(Targets {
            list,
            clear,
            framebuffer_srgb,
            given: true,
        })
    }

    /// `targets`: a list of 1..=8 objects `{ "format": F }`.
    fn target_formats(&self, value: &Json) -> Result<Vec<TargetFormat>, SceneError> {
        let Some(items) = value.items() else {
            return Err(self.error(
                "targets",
                format!(
                    "expected a list of {{\"format\": …}} objects, got {}",
                    value.brief()
                ),
            ));
        };
        rules::target_count(items.len()).map_err(|m| self.error("targets", m))?;
        let mut formats = Vec::with_capacity(items.len());
        for (k, item) in items.iter().enumerate() {
            let field = format!("targets[{k}]");
            let entries = self.record(item, &field, &["format"])?;
            let format = match get(entries, "format") {
                None => TargetFormat::Rgba8,
                Some(v) => self.named(
                    v,
                    &format!("{field}.format"),
                    &TargetFormat::NAMES,
                    "target format",
                )?,
            };
            formats.push(format);
        }
        Ok(formats)
    }

    /// `clear.color` for `count` targets: one RGBA list for every target, or a list of
    /// `count` of them; default (0, 0, 0, 1). Numbers are kept as JSON's doubles, so
    /// an integer target's clear value is exact up to 2^32.
    fn target_clears(
        &self,
        value: Option<&Json>,
        count: usize,
    ) -> Result<Vec<[f64; 4]>, SceneError> {
        let Some(value) = value else {
            return Ok(vec![[0.0, 0.0, 0.0, 1.0]; count]);
        };
        let rgba = |v: &Json, field: &str| -> Result<[f64; 4], SceneError> {
            let numbers: Option<Vec<f64>> = match v {
                Json::Numbers(a) if a.len() == 4 => Some(a.clone()),
                _ => None,
            };
            numbers.map(|n| [n[0], n[1], n[2], n[3]]).ok_or_else(|| {
                self.error(
                    field,
                    format!("expected 4 numbers (RGBA), got {}", v.brief()),
                )
            })
        };
        match value {
            Json::Array(items)
                if items
                    .iter()
                    .all(|i| matches!(i, Json::Array(_) | Json::Numbers(_)))
                    && !items.is_empty() =>
            {
                rules::target_clear_count(items.len(), count)
                    .map_err(|m| self.error("clear.color", m))?;
                items
                    .iter()
                    .enumerate()
                    .map(|(k, v)| rgba(v, &format!("clear.color[{k}]")))
                    .collect()
            }
            v => Ok(vec![rgba(v, "clear.color")?; count]),
        }
    }

    /// A draw that blends while a target holds integers, or with two source colours
    /// while there are several targets: an error on its `state.blend` (GL 3.3 §4.1.8
    /// blends fixed- and floating-point buffers only, and one target with two
    /// sources).
    pub(super) fn check_integer_blending(
        &self,
        targets: &Targets,
        draw: &Draw,
    ) -> Result<(), SceneError> {
        let blend = draw.state.raster.blend;
        rules::integer_blending(targets, blend)
            .and_then(|()| rules::dual_source_targets(targets, blend))
            .map_err(|m| self.error(format!("{}.state.blend", draw.field()), m))
    }
}
