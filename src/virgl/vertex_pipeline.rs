//! The parts of GL's vertex pipeline beyond a non-instanced draw of float arrays that
//! `--backend virgl` does not send to its host, each refused by the field that asks
//! for it: instancing (`instances`, an attribute `divisor`), integer vertex arrays
//! (`type` `int`/`uint`), and the vertex shader inputs `gl_VertexID` and
//! `gl_InstanceID` (the TGSI emitter declares them as ordinary inputs `IN[n]`, not the
//! host's `SV[n]` system values), points, lines and polygon modes (this back end
//! encodes filled triangle draws only) and the fragment inputs `gl_PointCoord` and
//! `gl_PrimitiveID`.

use crate::scene::{Draw, PolygonMode, PrimitiveKind};
use csir::Program;

/// The field and the reason, when `draw` (with its linked `program`) uses one of the
/// features above; `None` when this back end can draw it.
pub fn refusal(draw: &Draw, program: &Program) -> Option<(String, String)> {
    let at = draw.field();
    if draw.primitive.kind() != PrimitiveKind::Triangles {
        return Some((
            format!("{at}.primitive"),
            format!(
                "primitive `{}` is not supported by --backend virgl (this back end \
                 encodes triangle draws only)",
                draw.primitive.name()
            ),
        ));
    }
    if draw.state.points_lines.polygon_mode != PolygonMode::Fill {
        return Some((
            format!("{at}.state.polygon_mode"),
            "polygon modes other than fill are not supported by --backend virgl (this \
             back end sends no rasterizer state for them)"
                .into(),
        ));
    }
    if draw.instances != 1 {
        return Some((
            format!("{at}.instances"),
            "instanced drawing is not supported by --backend virgl (this back end \
             encodes one non-instanced draw per scene draw)"
                .into(),
        ));
    }
    let attribute = |i: usize| {
        let location = draw.attributes[i].location;
        format!("{at}.attributes (location {location})")
    };
    if let Some(i) = draw.attributes.iter().position(|a| a.divisor != 0) {
        return Some((
            format!("{}.divisor", attribute(i)),
            "instanced arrays are not supported by --backend virgl".into(),
        ));
    }
    if let Some(i) = draw.attributes.iter().position(|a| a.ty.is_integer()) {
        return Some((
            format!("{}.type", attribute(i)),
            format!(
                "integer vertex arrays (type {}) are not supported by --backend virgl \
                 (this back end sends float vertex elements only)",
                draw.attributes[i].ty.name()
            ),
        ));
    }
    let system = ["gl_VertexID", "gl_InstanceID"];
    if let Some(a) = program
        .attributes
        .iter()
        .find(|a| system.contains(&a.name.as_str()))
    {
        return Some((
            draw.vertex_field(),
            format!(
                "{} is not supported by --backend virgl (the TGSI emitter declares it \
                 as a vertex input, not the host's system value)",
                a.name
            ),
        ));
    }
    if let Some(s) = program
        .fragment
        .interface
        .symbols
        .iter()
        .find(|s| matches!(s.name.as_str(), "gl_PointCoord" | "gl_PrimitiveID"))
    {
        return Some((
            draw.fragment_field(),
            format!(
                "{} is not supported by --backend virgl (the TGSI emitter declares it as \
                 an ordinary input)",
                s.name
            ),
        ));
    }
    None
}
