//! Per-fragment operation keys `--backend virgl` does not send to the host: each is
//! refused by name (`docs/scene-format.md`, "Per-fragment operations").

use crate::scene::{Draw, Scene, SceneError};
use csir_raster::BlendMode;

/// An error naming the first key of `draw.state` this back end does not draw: a
/// `blend` object other than the named modes (the blend state sent to the host holds
/// one factor pair with `add` and no blend colour), a `color_mask`, `scissor`,
/// `viewport`, `depth_range` or `polygon_offset` other than the default. (`stencil`
/// and `depth_clamp` are sent: `state.rs`.)
pub fn refuse_unsent_keys(scene: &Scene, draw: &Draw) -> Result<(), SceneError> {
    if let BlendMode::Function(_) = draw.state.raster.blend {
        return Err(scene.error(
            format!("{}.state.blend", draw.field()),
            "a blend object (separate factors, equations other than add, or a blend \
             colour) is not supported by --backend virgl (this back end sends one factor \
             pair with add and no blend colour); use \"none\", \"alpha\" or \"additive\", \
             or render with the CPU or gl back end",
        ));
    }
    let raster = &draw.state.raster;
    let defaults = csir_raster::RasterState::default();
    let unsent = [
        ("color_mask", raster.color_mask != defaults.color_mask),
        ("scissor", raster.scissor.is_some()),
        ("viewport", raster.viewport.is_some()),
        ("depth_range", raster.depth_range != defaults.depth_range),
        ("polygon_offset", raster.polygon_offset.is_some()),
    ];
    if let Some((key, _)) = unsent.iter().find(|(_, set)| *set) {
        return Err(scene.error(
            format!("{}.state.{key}", draw.field()),
            format!(
                "state.{key} is not supported by --backend virgl (this back end sends \
                 the whole-framebuffer viewport, depth range [0, 1], no scissor, no \
                 polygon offset and every colour channel); leave it at its default, \
                 or render with the CPU or gl back end"
            ),
        ));
    }
    Ok(())
}
