//! Per-fragment operation keys `--backend virgl` cannot send to the host: each is
//! refused by name (`docs/scene-format.md`, "Per-fragment operations"). The others
//! travel in VirGL's state objects and commands (`state.rs`).

use crate::scene::{Draw, Scene, SceneError};

/// An error naming the first key of `draw.state` this back end does not draw: a
/// `blend` whose factors read the second source colour (dual-source blending: the
/// TGSI emitter declares one colour output). The blend object, `color_mask`,
/// `scissor`, `viewport`, `depth_range`, `polygon_offset`, `stencil` and
/// `depth_clamp` are sent (`state.rs`).
pub fn refuse_unsent_keys(scene: &Scene, draw: &Draw) -> Result<(), SceneError> {
    if super::state::blend_state(&draw.state.raster).is_none() {
        return Err(scene.error(
            format!("{}.state.blend", draw.field()),
            "a blend factor src1_* (dual-source blending) is not supported by --backend \
             virgl (the TGSI emitter declares one fragment colour output); render with \
             the CPU or gl back end",
        ));
    }
    Ok(())
}
