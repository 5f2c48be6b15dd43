//! Primitive assembly (GL 3.3 core §2.6.1): a draw's vertex list, as the scene gives
//! it for its `primitive`, becomes the index triples the rasterizer draws
//! (`csir_raster::Topology`): independent triangles, each in the vertex order GL gives
//! it and rotated so that its provoking vertex (GL 3.3 core §2.18, table 2.12) comes
//! last, where the rasterizer takes flat values from (a rotation keeps a triangle's
//! winding, and the rasterizer's coverage and depth do not depend on which vertex
//! comes first); points `[v, v, v]`; line segments `[a, b, p]` from `a` to `b` with
//! provoking vertex `p`.

/// A draw's primitive type (`glDrawElements`'s `mode`), by its scene-format name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Primitive {
    /// `triangles` (the default): vertices 3i, 3i+1, 3i+2.
    #[default]
    Triangles,
    /// `triangle_strip`: each vertex after the second makes a triangle with the two
    /// before it; every other triangle's first two are swapped to keep the winding.
    TriangleStrip,
    /// `triangle_fan`: vertex 0 with each pair of neighbours after it.
    TriangleFan,
    /// `triangles_adjacency`: six vertices a triangle, 0, 2 and 4 its corners (the
    /// others are the adjacent vertices a geometry shader could read).
    TrianglesAdjacency,
    /// `triangle_strip_adjacency`: a strip of the even vertices, the odd ones adjacent.
    TriangleStripAdjacency,
    /// `points`: every vertex a point.
    Points,
    /// `lines`: vertices 2i, 2i+1.
    Lines,
    /// `line_strip`: each vertex after the first with the one before it.
    LineStrip,
    /// `line_loop`: a strip closed by a segment from the last vertex to the first.
    LineLoop,
    /// `lines_adjacency`: four vertices a segment, 1 to 2 (0 and 3 adjacent).
    LinesAdjacency,
    /// `line_strip_adjacency`: a strip of the vertices but the first and last.
    LineStripAdjacency,
}

/// What a primitive type rasterizes as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrimitiveKind {
    /// Triangles.
    Triangles,
    /// Points.
    Points,
    /// Line segments.
    Lines,
}

impl Primitive {
    /// Every primitive type this renderer draws, with its scene-format name (GL's,
    /// lower case).
    pub const NAMES: [(&'static str, Primitive); 11] = [
        ("triangles", Primitive::Triangles),
        ("triangle_strip", Primitive::TriangleStrip),
        ("triangle_fan", Primitive::TriangleFan),
        ("triangles_adjacency", Primitive::TrianglesAdjacency),
        (
            "triangle_strip_adjacency",
            Primitive::TriangleStripAdjacency,
        ),
        ("points", Primitive::Points),
        ("lines", Primitive::Lines),
        ("line_strip", Primitive::LineStrip),
        ("line_loop", Primitive::LineLoop),
        ("lines_adjacency", Primitive::LinesAdjacency),
        ("line_strip_adjacency", Primitive::LineStripAdjacency),
    ];

    /// What it rasterizes as.
    pub fn kind(self) -> PrimitiveKind {
        use Primitive::*;
        match self {
            Points => PrimitiveKind::Points,
            Lines | LineStrip | LineLoop | LinesAdjacency | LineStripAdjacency => {
                PrimitiveKind::Lines
            }
            _ => PrimitiveKind::Triangles,
        }
    }

    /// The scene format's name of this primitive.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, p)| *p == self)
            .map_or("triangles", |(n, _)| n)
    }

    /// The number of primitives a run of `n` vertices makes (an incomplete last
    /// primitive makes none, as GL ignores it; a line loop of one vertex draws
    /// nothing, of two the segment twice, GL 3.3 core §2.6.1).
    pub fn primitives(self, n: usize) -> usize {
        match self {
            Primitive::Triangles => n / 3,
            Primitive::TriangleStrip | Primitive::TriangleFan => n.saturating_sub(2),
            Primitive::TrianglesAdjacency => n / 6,
            Primitive::TriangleStripAdjacency => n.saturating_sub(4) / 2,
            Primitive::Points => n,
            Primitive::Lines => n / 2,
            Primitive::LineStrip => n.saturating_sub(1),
            Primitive::LineLoop if n >= 2 => n,
            Primitive::LineLoop => 0,
            Primitive::LinesAdjacency => n / 4,
            Primitive::LineStripAdjacency => n.saturating_sub(3),
        }
    }

    /// Segment `i` of a line run `v` as `[a, b, provoking]` (table 2.12: the segment's
    /// second vertex under the last-vertex convention, its first under the first).
    fn segment(self, v: &[u32], i: usize, provoking: ProvokingVertex) -> [u32; 3] {
        let [a, b] = match self {
            Primitive::Lines => [v[2 * i], v[2 * i + 1]],
            Primitive::LineLoop => [v[i], v[(i + 1) % v.len()]],
            Primitive::LinesAdjacency => [v[4 * i + 1], v[4 * i + 2]],
            Primitive::LineStripAdjacency => [v[i + 1], v[i + 2]],
            _ => [v[i], v[i + 1]],
        };
        match provoking {
            ProvokingVertex::Last => [a, b, b],
            ProvokingVertex::First => [a, b, a],
        }
    }

    /// Triangle `i` of a run `v` (at least [`Primitive::triangles`] long), in the
    /// vertex order GL gives it, and which of its three positions is the provoking
    /// vertex under `provoking` (GL 3.3 core §2.6.1 and table 2.12; the first-vertex
    /// convention swaps an odd strip triangle's two other vertices instead of its first
    /// two, so that the provoking vertex leads and the winding is kept).
    fn triangle(self, v: &[u32], i: usize, provoking: ProvokingVertex) -> ([u32; 3], usize) {
        let first = provoking == ProvokingVertex::First;
        match self {
            Primitive::Triangles => (
                [v[3 * i], v[3 * i + 1], v[3 * i + 2]],
                if first { 0 } else { 2 },
            ),
            Primitive::TriangleStrip => match (i % 2, first) {
                (0, _) => ([v[i], v[i + 1], v[i + 2]], if first { 0 } else { 2 }),
                (_, false) => ([v[i + 1], v[i], v[i + 2]], 2),
                (_, true) => ([v[i], v[i + 2], v[i + 1]], 0),
            },
            Primitive::TriangleFan => ([v[0], v[i + 1], v[i + 2]], if first { 1 } else { 2 }),
            Primitive::TrianglesAdjacency => (
                [v[6 * i], v[6 * i + 2], v[6 * i + 4]],
                if first { 0 } else { 2 },
            ),
            Primitive::TriangleStripAdjacency => match (i % 2, first) {
                (0, _) => (
                    [v[2 * i], v[2 * i + 2], v[2 * i + 4]],
                    if first { 0 } else { 2 },
                ),
                (_, false) => ([v[2 * i + 2], v[2 * i], v[2 * i + 4]], 2),
                (_, true) => ([v[2 * i], v[2 * i + 4], v[2 * i + 2]], 0),
            },
            // not triangles: `assemble_primitives` takes them apart
            _ => ([v[i]; 3], 2),
        }
    }
}

/// Which vertex of a primitive its flat values come from (`glProvokingVertex`,
/// GL 3.3 core §2.18).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ProvokingVertex {
    /// `last` (the default, `GL_LAST_VERTEX_CONVENTION`).
    #[default]
    Last,
    /// `first` (`GL_FIRST_VERTEX_CONVENTION`).
    First,
}

impl ProvokingVertex {
    /// Both conventions with their scene-format names.
    pub const NAMES: [(&'static str, ProvokingVertex); 2] = [
        ("last", ProvokingVertex::Last),
        ("first", ProvokingVertex::First),
    ];
}

/// The index triples `vertices` makes as `primitive` (the module docs): for a
/// triangle type the independent triangles with the provoking vertex last, for
/// `points` `[v, v, v]` each, for a line type the segments `[a, b, provoking]`. Runs
/// between `restart` values (primitive restart, GL 3.3 core §2.8.1) are assembled
/// apart, and a run's incomplete last primitive is dropped. For `triangles` with the
/// last-vertex convention and no restart value, this is the list itself (up to its
/// last whole triangle).
pub fn assemble_primitives(
    primitive: Primitive,
    vertices: &[u32],
    restart: Option<u32>,
    provoking: ProvokingVertex,
) -> Vec<u32> {
    let mut out = Vec::new();
    let runs: Box<dyn Iterator<Item = &[u32]>> = match restart {
        Some(r) => Box::new(vertices.split(move |&v| v == r)),
        None => Box::new(std::iter::once(vertices)),
    };
    for run in runs {
        let count = primitive.primitives(run.len());
        out.reserve(count * 3);
        for i in 0..count {
            match primitive.kind() {
                PrimitiveKind::Triangles => {
                    let (t, p) = primitive.triangle(run, i, provoking);
                    // rotate so that position p comes last: (t[p+1], t[p+2], t[p])
                    out.extend([t[(p + 1) % 3], t[(p + 2) % 3], t[p]]);
                }
                PrimitiveKind::Points => out.extend([run[i]; 3]),
                PrimitiveKind::Lines => out.extend(primitive.segment(run, i, provoking)),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ProvokingVertex::{First, Last};

    #[test]
    fn plain_triangles_are_the_list_itself() {
        let v: Vec<u32> = (0..8).collect();
        assert_eq!(
            assemble_primitives(Primitive::Triangles, &v, None, Last),
            &v[..6]
        );
        // first convention: the first vertex rotated to the end, winding kept
        assert_eq!(
            assemble_primitives(Primitive::Triangles, &v, None, First),
            [1, 2, 0, 4, 5, 3]
        );
    }

    #[test]
    fn strips_keep_their_winding_and_provoking_vertex() {
        let v = [10, 11, 12, 13, 14];
        // GL: (10 11 12), (12 11 13) by its first two swapped, (12 13 14); last = i + 2
        assert_eq!(
            assemble_primitives(Primitive::TriangleStrip, &v, None, Last),
            [10, 11, 12, 12, 11, 13, 12, 13, 14]
        );
        // first convention: provoking vertex i, odd triangles (11 13 12)
        assert_eq!(
            assemble_primitives(Primitive::TriangleStrip, &v, None, First),
            [11, 12, 10, 13, 12, 11, 13, 14, 12]
        );
    }

    #[test]
    fn fans_turn_around_vertex_0() {
        let v = [7, 1, 2, 3];
        assert_eq!(
            assemble_primitives(Primitive::TriangleFan, &v, None, Last),
            [7, 1, 2, 7, 2, 3]
        );
        // first convention: provoking vertex i + 1, the triangle's second
        assert_eq!(
            assemble_primitives(Primitive::TriangleFan, &v, None, First),
            [2, 7, 1, 3, 7, 2]
        );
    }

    #[test]
    fn restart_splits_the_list_and_drops_incomplete_primitives() {
        let r = u32::MAX;
        let v = [0, 1, 2, 3, r, 4, 5, r, 6, 7, 8];
        assert_eq!(
            assemble_primitives(Primitive::TriangleStrip, &v, Some(r), Last),
            [0, 1, 2, 2, 1, 3, 6, 7, 8]
        );
        assert!(assemble_primitives(Primitive::TriangleFan, &[0, 1], None, Last).is_empty());
    }

    #[test]
    fn adjacency_keeps_the_even_vertices() {
        let v: Vec<u32> = (0..8).collect();
        assert_eq!(
            assemble_primitives(Primitive::TrianglesAdjacency, &v, None, Last),
            [0, 2, 4]
        );
        // a strip with adjacency of 8 vertices: 2 triangles, (0 2 4) and (4 2 6)
        assert_eq!(
            assemble_primitives(Primitive::TriangleStripAdjacency, &v, None, Last),
            [0, 2, 4, 4, 2, 6]
        );
        assert_eq!(
            assemble_primitives(Primitive::TriangleStripAdjacency, &v, None, First),
            [2, 4, 0, 6, 4, 2]
        );
    }

    #[test]
    fn points_and_lines_become_triples_with_table_2_12s_provoking_vertex() {
        let v = [10, 11, 12, 13, 14];
        assert_eq!(
            assemble_primitives(Primitive::Points, &v[..2], None, Last),
            [10, 10, 10, 11, 11, 11]
        );
        assert_eq!(
            assemble_primitives(Primitive::Lines, &v, None, Last),
            [10, 11, 11, 12, 13, 13]
        );
        assert_eq!(
            assemble_primitives(Primitive::LineStrip, &v[..3], None, First),
            [10, 11, 10, 11, 12, 11]
        );
        // the loop closes from the last vertex to the first, provoking the first
        assert_eq!(
            assemble_primitives(Primitive::LineLoop, &v[..3], None, Last),
            [10, 11, 11, 11, 12, 12, 12, 10, 10]
        );
        assert!(assemble_primitives(Primitive::LineLoop, &v[..1], None, Last).is_empty());
        assert_eq!(
            assemble_primitives(Primitive::LinesAdjacency, &v, None, First),
            [11, 12, 11]
        );
        assert_eq!(
            assemble_primitives(Primitive::LineStripAdjacency, &v, None, Last),
            [11, 12, 12, 12, 13, 13]
        );
        let r = u32::MAX;
        assert_eq!(
            assemble_primitives(Primitive::LineStrip, &[1, 2, r, 3, r, 4, 5], Some(r), Last),
            [1, 2, 2, 4, 5, 5]
        );
    }

    #[test]
    fn names_round_trip() {
        for (name, p) in Primitive::NAMES {
            assert_eq!(p.name(), name);
        }
    }
}
