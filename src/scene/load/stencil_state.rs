//! The stencil and depth-clamp keys of a draw's `state` (`docs/scene-format.md`,
//! "Stencil and depth clamp"): `stencil` (OpenGL 3.3 core §4.1.4) as `null`, one face
//! object for both faces, or `{ "front": …, "back": … }`; `depth_clamp` (GL 3.3
//! §2.20); and the scene's `clear.stencil`.

use super::{Entries, Loader};
use crate::scene::SceneError;
use crate::scene::json::{Json, get};
use crate::scene::rules;
use csir_raster::{DepthTest, StencilFace, StencilOp, StencilState};

/// The keys of one face's stencil state.
const FACE_KEYS: &[&str] = &[
    "func",
    "ref",
    "value_mask",
    "write_mask",
    "fail",
    "depth_fail",
    "pass",
];

impl Loader<'_> {
    /// `state.stencil` (absent or `null`: no stencil test) and `state.depth_clamp`
    /// (a boolean, default false).
    pub(super) fn stencil_state(
        &self,
        entries: &Entries,
        field: &str,
    ) -> Result<(Option<StencilState>, bool), SceneError> {
        let stencil = match get(entries, "stencil") {
            None | Some(Json::Null) => None,
            Some(v) => Some(self.stencil(v, &format!("{field}.stencil"))?),
        };
        let depth_clamp = match get(entries, "depth_clamp") {
            None => false,
            Some(Json::Bool(b)) => *b,
            Some(v) => {
                return Err(self.error(
                    format!("{field}.depth_clamp"),
                    format!("expected true or false, got {}", v.brief()),
                ));
            }
        };
        Ok((stencil, depth_clamp))
    }

    /// `{ "front": S, "back": S }` (each optional, default GL's), or one `S` for both.
    fn stencil(&self, value: &Json, field: &str) -> Result<StencilState, SceneError> {
        let Json::Object(entries) = value else {
            return Err(self.error(
                field,
                format!(
                    "expected null, an object of stencil state ({}) or {{ \"front\": …, \
                     \"back\": … }}, got {}",
                    FACE_KEYS.join(", "),
                    value.brief()
                ),
            ));
        };
        let sided = entries.iter().any(|(k, _)| k == "front" || k == "back");
        if !sided {
            let face = self.stencil_face(value, field)?;
            return Ok(StencilState {
                front: face,
                back: face,
            });
        }
        let entries = self.record(value, field, &["front", "back"])?;
        let face = |key: &str| match get(entries, key) {
            None => Ok(StencilFace::default()),
            Some(v) => self.stencil_face(v, &format!("{field}.{key}")),
        };
        Ok(StencilState {
            front: face("front")?,
            back: face("back")?,
        })
    }

    /// One face: `{ func, ref, value_mask, write_mask, fail, depth_fail, pass }`, each
    /// optional with GL's default (`always`, 0, 255, 255, `keep` ×3).
    fn stencil_face(&self, value: &Json, field: &str) -> Result<StencilFace, SceneError> {
        let entries = self.record(value, field, FACE_KEYS)?;
        let d = StencilFace::default();
        let byte = |key: &str, default: u8, what: &str| -> Result<u8, SceneError> {
            let at = format!("{field}.{key}");
            match get(entries, key) {
                None => Ok(default),
                Some(Json::Number(n)) if n.fract() == 0.0 && (0.0..=255.0).contains(n) => {
                    Ok(*n as u8)
                }
                Some(v) => Err(self.error(
                    at,
                    format!(
                        "expected an integer in 0..=255 ({what} of the 8-bit stencil \
                         buffer), got {}",
                        v.brief()
                    ),
                )),
            }
        };
        let op = |key: &str| -> Result<StencilOp, SceneError> {
            match get(entries, key) {
                None => Ok(StencilOp::Keep),
                Some(v) => self.named(
                    v,
                    &format!("{field}.{key}"),
                    &StencilOp::NAMES,
                    "stencil op",
                ),
            }
        };
        let func = match get(entries, "func") {
            None => d.func,
            Some(v) => {
                let at = format!("{field}.func");
                let func = self.named(v, &at, &DepthTest::NAMES, "stencil function")?;
                rules::stencil_func(func).map_err(|m| self.error(at, m))?;
                func
            }
        };
        Ok(StencilFace {
            func,
            reference: byte("ref", d.reference, "the reference value")?,
            value_mask: byte("value_mask", d.value_mask, "a mask")?,
            write_mask: byte("write_mask", d.write_mask, "a mask")?,
            fail: op("fail")?,
            depth_fail: op("depth_fail")?,
            pass: op("pass")?,
        })
    }

    /// The scene's `clear.stencil`: an integer in 0..=255, default 0.
    pub(super) fn clear_stencil(&self, value: Option<&Json>) -> Result<u8, SceneError> {
        Ok(self.integer(value, "clear.stencil", 0..=255, Some(0))? as u8)
    }
}
