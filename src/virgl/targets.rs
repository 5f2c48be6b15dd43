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

/// The field and message refusing a scene's multisampling: `samples` above 1, or a
/// draw's `alpha_to_coverage` or `sample_coverage` (docs/scene-format.md
/// "Multisampling"); its surface is single-sampled. `None` for a scene without them.
pub fn multisample_refusal(scene: &Scene) -> Option<(String, String)> {
    let why = "is not supported by --backend virgl (its surface is single-sampled); \
               render the scene with --backend cpu or gl";
    if scene.samples > 1 {
        return Some(("samples".into(), format!("`samples` {why}")));
    }
    scene.draws.iter().find_map(|d| {
        let m = &d.state.multisample;
        let key = if m.alpha_to_coverage {
            "alpha_to_coverage"
        } else if m.sample_coverage.is_some() {
            "sample_coverage"
        } else {
            return None;
        };
        Some((
            format!("{}.state.{key}", d.field()),
            format!("`state.{key}` {why}"),
        ))
    })
}
