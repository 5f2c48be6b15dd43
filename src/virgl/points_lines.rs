//! GL 3.3's vertex pipeline beyond filled triangle lists as VirGL sends it: the draw
//! command with the scene's primitive type, instances and primitive restart, the
//! rasterizer state of points, lines, polygon modes and the provoking vertex, and the
//! vertex element of each attribute with its divisor and integer format
//! (docs/virgl.md "Points, lines and instancing").

use super::prepare::PreparedDraw;
use crate::scene::{Attribute, AttributeType, Draw, PolygonMode, Primitive, ProvokingVertex};
use csir_virgl::command::IndexedDraw;
use csir_virgl::pipe::{Format, PolygonFill, PrimitiveMode};
use csir_virgl::state::RasterizerState;

/// The wire primitive type of `primitive` (GL 3.3 core §2.6.1; the numbers are GL's).
pub fn primitive_mode(primitive: Primitive) -> PrimitiveMode {
    match primitive {
        Primitive::Triangles => PrimitiveMode::Triangles,
        Primitive::TriangleStrip => PrimitiveMode::TriangleStrip,
        Primitive::TriangleFan => PrimitiveMode::TriangleFan,
        Primitive::TrianglesAdjacency => PrimitiveMode::TrianglesAdjacency,
        Primitive::TriangleStripAdjacency => PrimitiveMode::TriangleStripAdjacency,
        Primitive::Points => PrimitiveMode::Points,
        Primitive::Lines => PrimitiveMode::Lines,
        Primitive::LineStrip => PrimitiveMode::LineStrip,
        Primitive::LineLoop => PrimitiveMode::LineLoop,
        Primitive::LinesAdjacency => PrimitiveMode::LinesAdjacency,
        Primitive::LineStripAdjacency => PrimitiveMode::LineStripAdjacency,
    }
}

/// The vertex list a GL driver is given for `draw` (its `elements` for another
/// primitive type, a restart index or the first-vertex convention, else its triangle
/// indices), as the `--backend gl` draw sends it.
pub fn index_list(draw: &Draw) -> &[u32] {
    draw.elements.as_deref().unwrap_or(&draw.indices)
}

/// The draw command of `draw`: its primitive type and vertex list, its instances
/// (`glDrawElementsInstanced`; `None` for `instances` 0, which draws nothing and
/// which the host would draw once), its restart index (GL 3.1 §2.8.1), no base
/// vertex and no base instance (the scene format has neither, so `gl_VertexID` is
/// the element value, as GL 3.3 core §2.8.2 defines it for `glDrawElements`), and
/// the index bounds `0..=vertex_count − 1`.
pub fn draw_command(draw: &Draw) -> Option<IndexedDraw> {
    if draw.instances == 0 {
        return None;
    }
    Some(IndexedDraw {
        instance_count: draw.instances,
        restart: draw.primitive_restart_index,
        ..IndexedDraw::new(
            primitive_mode(draw.primitive),
            index_list(draw).len() as u32,
            draw.vertex_count.saturating_sub(1),
        )
    })
}

/// `base` (the draw's culling, clipping, scissor and offset) with the draw's points,
/// lines, polygon mode and provoking vertex (GL 3.3 core §3.4–§3.6, §2.18) and the
/// sprite coordinate bit of the fragment shader's `gl_PointCoord`, if it has one.
pub fn rasterizer(base: RasterizerState, prepared: &PreparedDraw) -> RasterizerState {
    let state = &prepared.draw.state;
    let points_lines = &state.points_lines;
    RasterizerState {
        point_size: points_lines.point_size.to_bits(),
        point_size_per_vertex: points_lines.program_point_size,
        line_width: points_lines.line_width.to_bits(),
        fill: match points_lines.polygon_mode {
            PolygonMode::Fill => PolygonFill::Fill,
            PolygonMode::Line => PolygonFill::Line,
            PolygonMode::Point => PolygonFill::Point,
        },
        flatshade_first: state.provoking_vertex == ProvokingVertex::First,
        sprite_coord_enable: prepared.tgsi.point_coord.map_or(0, |k| 1 << k),
        ..base
    }
}

/// The vertex format of `attribute`: 32-bit floats, or for an `int` / `uint` array
/// 32-bit integers the shader reads exactly (`glVertexAttribIPointer`).
pub fn attribute_format(attribute: &Attribute) -> Format {
    let size = attribute.size;
    let format = match attribute.ty {
        AttributeType::Float => Format::float_vector(size),
        AttributeType::Int => Format::int_vector(size, true),
        AttributeType::Uint => Format::int_vector(size, false),
    };
    format.unwrap_or(Format::R32G32B32A32Float)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_primitive_has_gl_s_number() {
        // GL_POINTS .. GL_TRIANGLE_FAN are 0..6, the adjacency modes 0xA..0xD.
        let codes: Vec<(&str, u32)> = Primitive::NAMES
            .iter()
            .map(|&(name, p)| (name, primitive_mode(p).code()))
            .collect();
        assert_eq!(
            codes,
            [
                ("triangles", 4),
                ("triangle_strip", 5),
                ("triangle_fan", 6),
                ("triangles_adjacency", 0xc),
                ("triangle_strip_adjacency", 0xd),
                ("points", 0),
                ("lines", 1),
                ("line_strip", 3),
                ("line_loop", 2),
                ("lines_adjacency", 0xa),
                ("line_strip_adjacency", 0xb),
            ]
        );
    }

    #[test]
    fn integer_arrays_keep_their_32_bit_format() {
        let attribute = |ty, size| Attribute {
            location: 0,
            size,
            data: Vec::new(),
            ty,
            divisor: 0,
        };
        assert_eq!(
            attribute_format(&attribute(AttributeType::Int, 2)).code(),
            198
        );
        assert_eq!(
            attribute_format(&attribute(AttributeType::Uint, 1)).code(),
            193
        );
        assert_eq!(
            attribute_format(&attribute(AttributeType::Float, 3)).code(),
            30
        );
    }
}
