//! What `--backend virgl` refuses of the render targets (docs/scene-format.md
//! "Render targets"): its surface is one RGBA8 colour buffer and the TGSI emitter
//! writes `OUT[0]` only, so `targets` and `framebuffer_srgb` are refused by name.

use crate::scene::Scene;

/// The field and message refusing a scene's targets, or `None` for a scene without
/// `targets` and `framebuffer_srgb`.
pub fn refusal(scene: &Scene) -> Option<(String, String)> {
    if !scene.targets.given {
        return None;
    }
    let field = if scene.targets.len() > 1 || scene.targets.format(0).name() != "rgba8" {
        "targets"
    } else {
        "framebuffer_srgb"
    };
    Some((
        field.to_string(),
        format!(
            "`{field}` is not supported by --backend virgl (its surface is one RGBA8 \
             colour buffer, and the TGSI emitter writes the fragment output OUT[0] only); \
             render the scene with --backend cpu or gl"
        ),
    ))
}
