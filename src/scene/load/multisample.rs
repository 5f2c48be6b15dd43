//! The multisampling keys (`docs/scene-format.md` "Multisampling"): the scene's
//! `samples` and a draw's `state.alpha_to_coverage` and `state.sample_coverage`
//! (GL 3.3 §3.3.1, §4.1.3).

use super::{Entries, Loader};
use crate::scene::json::{Json, get};
use crate::scene::{MultisampleState, SampleCoverage, SceneError, rules};

impl Loader<'_> {
    /// The scene's `samples`: absent 1, else 1 or 4 ([`rules::samples`]).
    pub(super) fn samples(&self, root: &Entries) -> Result<u32, SceneError> {
        match get(root, "samples") {
            None => Ok(1),
            Some(Json::Number(n)) if n.fract() == 0.0 && n.abs() < 1e15 => {
                rules::samples(*n as i64).map_err(|m| self.error("samples", m))
            }
            Some(other) => Err(self.error(
                "samples",
                rules::samples(-1)
                    .unwrap_err()
                    .replace("got -1", &format!("got {}", other.brief())),
            )),
        }
    }

    /// Counts a multisampled frame's framebuffers against the memory limit: one per
    /// sample, all held until they are resolved (a pixel trace refuses such a scene
    /// before it allocates anything).
    pub(super) fn reserve_samples(&mut self, samples: u32) -> Result<(), SceneError> {
        if samples <= 1 || self.frame_use != crate::budget::FrameUse::Render {
            return Ok(());
        }
        let need = crate::budget::MemoryEstimate {
            framebuffer: self.memory.framebuffer.saturating_mul(u64::from(samples)),
            ..self.memory
        };
        need.check(self.max_memory).map_err(|e| {
            self.error(
                "samples",
                format!("{samples} framebuffers (one per sample) do not fit: {e}"),
            )
        })?;
        self.memory = need;
        Ok(())
    }

    /// A draw's `alpha_to_coverage` (a boolean, default false) and `sample_coverage`
    /// (absent or `null`, or `{ "value": 0..=1, "invert": bool }`).
    pub(super) fn multisample_state(
        &self,
        entries: &Entries,
        field: &str,
    ) -> Result<MultisampleState, SceneError> {
        let alpha_to_coverage = match get(entries, "alpha_to_coverage") {
            None => false,
            Some(Json::Bool(b)) => *b,
            Some(v) => {
                return Err(self.error(
                    format!("{field}.alpha_to_coverage"),
                    format!("expected true or false, got {}", v.brief()),
                ));
            }
        };
        let sample_coverage = match get(entries, "sample_coverage") {
            None | Some(Json::Null) => None,
            Some(v) => {
                let at = format!("{field}.sample_coverage");
                let keys = self.record(v, &at, &["value", "invert"])?;
                let value = match get(keys, "value") {
                    None => {
                        return Err(self.error(
                            format!("{at}.value"),
                            format!("missing ({})", rules::SAMPLE_COVERAGE_VALUE.0),
                        ));
                    }
                    Some(v) => self.number_in(
                        v,
                        &format!("{at}.value"),
                        rules::SAMPLE_COVERAGE_VALUE.0,
                        rules::SAMPLE_COVERAGE_VALUE.1,
                    )? as f32,
                };
                let invert = match get(keys, "invert") {
                    None => false,
                    Some(Json::Bool(b)) => *b,
                    Some(v) => {
                        return Err(self.error(
                            format!("{at}.invert"),
                            format!("expected true or false, got {}", v.brief()),
                        ));
                    }
                };
                Some(SampleCoverage { value, invert })
            }
        };
        Ok(MultisampleState {
            alpha_to_coverage,
            sample_coverage,
        })
    }
}
