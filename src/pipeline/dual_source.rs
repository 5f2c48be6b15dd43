//! Dual-source blending (GL 3.3 §4.1.8, ARB_blend_func_extended in GL 3.3 core): a
//! blend whose `src1_*` factors read the fragment shader's second source colour, the
//! output declared `layout(location = 0, index = 1)` (GLSL 3.30 §4.3.8.2). The
//! interpreters keep that output beside the colour (`Outputs::color1`,
//! `BoundPlan::run_dual`), the fragment stage hands it to the rasterizer in
//! `FragmentOutput::color1`, and the blend reads it there (docs/scene-format.md
//! "`state.blend` as an object").

use crate::scene::{Draw, Scene, SceneError};
use csir::Program;
use csir::ir::Type;
use csir_raster::BlendMode;

/// `draw`'s blend against its linked `program`: a blend that reads the second source
/// colour needs the fragment shader to declare it, as a `float`/`vecN` (GL leaves
/// the factors' values undefined without one); an error on `draws[i].fragment`
/// naming the rule otherwise.
pub fn check_second_source(
    scene: &Scene,
    draw: &Draw,
    program: &Program,
) -> Result<(), SceneError> {
    let BlendMode::Function(f) = draw.state.raster.blend else {
        return Ok(());
    };
    if !f.reads_src1() {
        return Ok(());
    }
    let message = match program.fragment.interface.second_color_output() {
        None => "the draw's blend reads the second source colour (a `src1_*` factor), and \
                 the fragment shader has none: declare it as `layout(location = 0, index \
                 = 1) out vec4 NAME;` (GL 3.3 §4.1.8, GLSL 3.30 §4.3.8.2)"
            .to_string(),
        Some(s) if !matches!(s.ty, Type::Float | Type::Vec2 | Type::Vec3 | Type::Vec4) => {
            format!(
                "the second source colour '{}' is {}: dual-source blending reads a \
                 float or vecN output (GL 3.3 §4.2.1)",
                s.name, s.ty
            )
        }
        Some(_) => return Ok(()),
    };
    Err(scene.error(draw.fragment_field(), message))
}
