//! The geometry stage's layout: the input primitive type, the output primitive type
//! and the most vertices one invocation emits (GLSL 1.50 §4.3.8.1 and §4.3.8.2,
//! GL 3.2 §2.12), and the limits GL 3.2 gives it (table 6.49's minimums).
//!
//! A geometry shader declares `layout(triangles) in;` and `layout(triangle_strip,
//! max_vertices = 4) out;`; [`GeometryLayout`] is what the two say, carried in the
//! shader's [`Interface::geometry`](super::Interface::geometry), read by linking, the
//! interpreters (which drop the vertices past `max_vertices`, GL 3.2 §2.12.4), the
//! TGSI emitter's `PROPERTY` lines, CSI v2 and the renderer's primitive assembly.

use std::fmt;

/// `gl_MaxGeometryOutputVertices` (GL 3.2 table 6.49: at least 256): the largest
/// `max_vertices` a geometry shader may declare.
pub const MAX_GEOMETRY_OUTPUT_VERTICES: u16 = 256;

/// `gl_MaxGeometryTotalOutputComponents` (GL 3.2 table 6.49: at least 1024): the
/// most components one invocation may emit, `max_vertices` times the components of
/// one output vertex (4 for `gl_Position`, 4 per varying vec4 slot written).
pub const MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS: u32 = 1024;

/// The most vertices an input primitive has (`triangles_adjacency`).
pub const MAX_INPUT_VERTICES: usize = 6;

/// The input primitive type of `layout(...) in;` (GLSL 1.50 §4.3.8.1), and so the
/// size of every per-vertex input array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputPrimitive {
    /// `points`: 1 vertex.
    Points,
    /// `lines`: 2 vertices.
    Lines,
    /// `lines_adjacency`: 4 vertices, the line's two between the two adjacent ones.
    LinesAdjacency,
    /// `triangles`: 3 vertices.
    Triangles,
    /// `triangles_adjacency`: 6 vertices, the triangle's at 0, 2, 4.
    TrianglesAdjacency,
}

impl InputPrimitive {
    /// Every input type, in code order.
    pub const ALL: [InputPrimitive; 5] = [
        InputPrimitive::Points,
        InputPrimitive::Lines,
        InputPrimitive::LinesAdjacency,
        InputPrimitive::Triangles,
        InputPrimitive::TrianglesAdjacency,
    ];

    /// The layout qualifier's name, as GLSL spells it (`lines_adjacency`).
    pub const fn name(self) -> &'static str {
        match self {
            InputPrimitive::Points => "points",
            InputPrimitive::Lines => "lines",
            InputPrimitive::LinesAdjacency => "lines_adjacency",
            InputPrimitive::Triangles => "triangles",
            InputPrimitive::TrianglesAdjacency => "triangles_adjacency",
        }
    }

    /// The qualifier named `name`, if any.
    pub fn from_name(name: &str) -> Option<InputPrimitive> {
        InputPrimitive::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Vertices per input primitive: the size of `gl_in[]` and of every input array
    /// (GLSL 1.50 §4.3.8.1's table).
    pub const fn vertices(self) -> usize {
        match self {
            InputPrimitive::Points => 1,
            InputPrimitive::Lines => 2,
            InputPrimitive::LinesAdjacency => 4,
            InputPrimitive::Triangles => 3,
            InputPrimitive::TrianglesAdjacency => 6,
        }
    }

    /// The code CSI v2 stores (0..=4, in [`InputPrimitive::ALL`]'s order).
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// Decode [`InputPrimitive::code`].
    pub fn from_code(code: u8) -> Option<InputPrimitive> {
        InputPrimitive::ALL.get(code as usize).copied()
    }

    /// The TGSI / Gallium `PIPE_PRIM_*` number (`PROPERTY GS_INPUT_PRIMITIVE`).
    pub const fn pipe_prim(self) -> u32 {
        match self {
            InputPrimitive::Points => 0,
            InputPrimitive::Lines => 1,
            InputPrimitive::LinesAdjacency => 10,
            InputPrimitive::Triangles => 4,
            InputPrimitive::TrianglesAdjacency => 12,
        }
    }

    /// The TGSI text name (`PROPERTY GS_INPUT_PRIMITIVE TRIANGLES`).
    pub const fn tgsi_name(self) -> &'static str {
        match self {
            InputPrimitive::Points => "POINTS",
            InputPrimitive::Lines => "LINES",
            InputPrimitive::LinesAdjacency => "LINES_ADJACENCY",
            InputPrimitive::Triangles => "TRIANGLES",
            InputPrimitive::TrianglesAdjacency => "TRIANGLES_ADJACENCY",
        }
    }
}

/// The output primitive type of `layout(...) out;` (GLSL 1.50 §4.3.8.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputPrimitive {
    /// `points`.
    Points,
    /// `line_strip`.
    LineStrip,
    /// `triangle_strip`.
    TriangleStrip,
}

impl OutputPrimitive {
    /// Every output type, in code order.
    pub const ALL: [OutputPrimitive; 3] = [
        OutputPrimitive::Points,
        OutputPrimitive::LineStrip,
        OutputPrimitive::TriangleStrip,
    ];

    /// The layout qualifier's name (`triangle_strip`).
    pub const fn name(self) -> &'static str {
        match self {
            OutputPrimitive::Points => "points",
            OutputPrimitive::LineStrip => "line_strip",
            OutputPrimitive::TriangleStrip => "triangle_strip",
        }
    }

    /// The qualifier named `name`, if any.
    pub fn from_name(name: &str) -> Option<OutputPrimitive> {
        OutputPrimitive::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The code CSI v2 stores (0..=2).
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// Decode [`OutputPrimitive::code`].
    pub fn from_code(code: u8) -> Option<OutputPrimitive> {
        OutputPrimitive::ALL.get(code as usize).copied()
    }

    /// The TGSI text name (`PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP`).
    pub const fn tgsi_name(self) -> &'static str {
        match self {
            OutputPrimitive::Points => "POINTS",
            OutputPrimitive::LineStrip => "LINE_STRIP",
            OutputPrimitive::TriangleStrip => "TRIANGLE_STRIP",
        }
    }

    /// Vertices a strip needs before it makes its first primitive (1, 2, 3).
    pub const fn min_vertices(self) -> usize {
        match self {
            OutputPrimitive::Points => 1,
            OutputPrimitive::LineStrip => 2,
            OutputPrimitive::TriangleStrip => 3,
        }
    }
}

/// What a geometry shader's two layout declarations say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GeometryLayout {
    /// The input primitive type.
    pub input: InputPrimitive,
    /// The output primitive type.
    pub output: OutputPrimitive,
    /// The most vertices one invocation emits, 0..=[`MAX_GEOMETRY_OUTPUT_VERTICES`];
    /// an EMIT past it is dropped (GL 3.2 §2.12.4: "the results are undefined"; Mesa
    /// drops them too).
    pub max_vertices: u16,
}

impl fmt::Display for InputPrimitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for OutputPrimitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The special `aux` values of LOAD_VTX (the varyings are slots 0 and up).
pub mod vertex_input {
    /// `gl_in[i].gl_Position`.
    pub const POSITION: i16 = -1;
    /// `gl_in[i].gl_PointSize` (lane x).
    pub const POINT_SIZE: i16 = -2;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_codes_and_sizes_round_trip() {
        let sizes: Vec<usize> = InputPrimitive::ALL.iter().map(|p| p.vertices()).collect();
        assert_eq!(sizes, [1, 2, 4, 3, 6]);
        for p in InputPrimitive::ALL {
            assert_eq!(InputPrimitive::from_name(p.name()), Some(p));
            assert_eq!(InputPrimitive::from_code(p.code()), Some(p));
        }
        for p in OutputPrimitive::ALL {
            assert_eq!(OutputPrimitive::from_name(p.name()), Some(p));
            assert_eq!(OutputPrimitive::from_code(p.code()), Some(p));
        }
        assert_eq!(InputPrimitive::from_name("triangle"), None);
        assert_eq!(OutputPrimitive::from_code(3), None);
        assert_eq!(InputPrimitive::TrianglesAdjacency.pipe_prim(), 12);
    }
}
