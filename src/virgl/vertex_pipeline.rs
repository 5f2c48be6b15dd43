//! What `--backend virgl` refuses of GL's vertex pipeline: `gl_PointCoord` read in a
//! draw that is not of `points`. The host replaces the sprite coordinate input only
//! in draws whose primitive type is points (virglrenderer keys `coord_replace` on
//! the draw's mode), so a triangle drawn as points by `polygon_mode: point` would
//! read a varying instead, and GL leaves the value undefined outside points. Every
//! other primitive type, polygon mode, instancing, divisor, integer array and
//! system value is sent (`points_lines.rs`, docs/virgl.md).

use crate::scene::{Draw, Primitive};
use csir::Program;

/// The field and the reason, when `draw` (with its linked `program`) uses one of the
/// features above; `None` when this back end can draw it.
pub fn refusal(draw: &Draw, program: &Program) -> Option<(String, String)> {
    let reads_point_coord = program
        .fragment
        .interface
        .symbols
        .iter()
        .any(|s| s.name == "gl_PointCoord");
    if reads_point_coord && draw.primitive != Primitive::Points {
        return Some((
            draw.fragment_field(),
            format!(
                "gl_PointCoord in a draw of primitive `{}` is not supported by --backend \
                 virgl (the host replaces the point sprite coordinate only in draws of \
                 `points`)",
                draw.primitive.name()
            ),
        ));
    }
    None
}
