//! Primitive assembly for a draw with a geometry shader (GL 3.2 §2.12.1): the draw's
//! vertex list, as the scene gives it for its `primitive`, becomes the input
//! primitives the geometry shader runs on, each as the vertices `gl_in[]` holds, in
//! GL's order. Which draw modes feed which input type is GL 3.2 table 2.? (§2.12.1):
//! `points`; `lines`, `line_strip`, `line_loop`; `lines_adjacency`,
//! `line_strip_adjacency`; `triangles`, `triangle_strip`, `triangle_fan`;
//! `triangles_adjacency`, `triangle_strip_adjacency`. A draw whose mode is not one the
//! shader's input type takes is an error (`GL_INVALID_OPERATION`), reported on the
//! draw's `primitive` by the pipeline.

use super::ShaderSource;
use csir::ir::InputPrimitive;

/// A draw's geometry stage: its shader and the input primitives.
#[derive(Clone, Debug)]
pub struct GeometryDraw {
    /// The geometry shader (`geometry`).
    pub shader: ShaderSource,
    /// The draw mode's GL name (`primitive`, lower case): one of [`MODES`].
    pub mode: &'static str,
    /// The input primitive type the mode makes.
    pub input: InputPrimitive,
    /// The input primitives, [`InputPrimitive::vertices`] vertex indices each, in
    /// `gl_in[]` order; primitive `k` is `gl_PrimitiveIDIn` `k`.
    pub primitives: Vec<u32>,
}

impl GeometryDraw {
    /// The geometry stage of a draw whose mode is `mode` (one of [`MODES`]) over the
    /// vertex list `elements` (`None`: none) with restart index `restart`.
    pub fn new(
        shader: ShaderSource,
        mode: &'static str,
        elements: &Option<Vec<u32>>,
        restart: Option<u32>,
    ) -> GeometryDraw {
        let input = MODES
            .iter()
            .find(|(n, _)| *n == mode)
            .map_or(InputPrimitive::Triangles, |(_, p)| *p);
        let primitives = assemble(mode, elements.as_deref().unwrap_or(&[]), restart);
        GeometryDraw {
            shader,
            mode,
            input,
            primitives,
        }
    }

    /// Number of input primitives.
    pub fn primitive_count(&self) -> usize {
        self.primitives.len() / self.input.vertices()
    }
}

/// Every draw mode a geometry shader takes, with the input type it makes.
pub const MODES: [(&str, InputPrimitive); 11] = [
    ("points", InputPrimitive::Points),
    ("lines", InputPrimitive::Lines),
    ("line_strip", InputPrimitive::Lines),
    ("line_loop", InputPrimitive::Lines),
    ("lines_adjacency", InputPrimitive::LinesAdjacency),
    ("line_strip_adjacency", InputPrimitive::LinesAdjacency),
    ("triangles", InputPrimitive::Triangles),
    ("triangle_strip", InputPrimitive::Triangles),
    ("triangle_fan", InputPrimitive::Triangles),
    ("triangles_adjacency", InputPrimitive::TrianglesAdjacency),
    (
        "triangle_strip_adjacency",
        InputPrimitive::TrianglesAdjacency,
    ),
];

/// [`MODES`] by name, for the scene loader's choice of `primitive`.
pub const MODE_NAMES: [(&str, &str); 11] = {
    let mut names = [("", ""); 11];
    let mut i = 0;
    while i < 11 {
        names[i] = (MODES[i].0, MODES[i].0);
        i += 1;
    }
    names
};

/// The input primitives draw mode `mode` (one of [`MODES`]) makes of `vertices`,
/// split into runs at `restart` (GL 3.1 §2.8.1), in `gl_in[]` order; an incomplete
/// last primitive of a run makes none.
pub fn assemble(mode: &str, vertices: &[u32], restart: Option<u32>) -> Vec<u32> {
    let mut out = Vec::new();
    let runs: Box<dyn Iterator<Item = &[u32]>> = match restart {
        Some(r) => Box::new(vertices.split(move |&v| v == r)),
        None => Box::new(std::iter::once(vertices)),
    };
    for v in runs {
        let n = v.len();
        match mode {
            "points" => out.extend_from_slice(v),
            "lines" => out.extend_from_slice(&v[..n / 2 * 2]),
            "line_strip" | "line_loop" => {
                for i in 0..n.saturating_sub(1) {
                    out.extend([v[i], v[i + 1]]);
                }
                if mode == "line_loop" && n >= 2 {
                    out.extend([v[n - 1], v[0]]);
                }
            }
            "lines_adjacency" => out.extend_from_slice(&v[..n / 4 * 4]),
            "line_strip_adjacency" => {
                for i in 0..n.saturating_sub(3) {
                    out.extend_from_slice(&v[i..i + 4]);
                }
            }
            "triangles" => out.extend_from_slice(&v[..n / 3 * 3]),
            "triangle_strip" => {
                // GL 3.2 §2.6.1: every other triangle's first two swapped, so each
                // keeps the strip's winding.
                for i in 0..n.saturating_sub(2) {
                    match i % 2 {
                        0 => out.extend([v[i], v[i + 1], v[i + 2]]),
                        _ => out.extend([v[i + 1], v[i], v[i + 2]]),
                    }
                }
            }
            "triangle_fan" => {
                for i in 0..n.saturating_sub(2) {
                    out.extend([v[0], v[i + 1], v[i + 2]]);
                }
            }
            "triangles_adjacency" => out.extend_from_slice(&v[..n / 6 * 6]),
            "triangle_strip_adjacency" => strip_adjacency(v, &mut out),
            _ => {}
        }
    }
    out
}

/// `triangle_strip_adjacency` (GL 3.2 §2.6.1, table 2.4): triangle `i` of a run of
/// `n ≥ 6` vertices, as `gl_in[]` takes it (corner, adjacent, corner, adjacent,
/// corner, adjacent).
fn strip_adjacency(v: &[u32], out: &mut Vec<u32>) {
    let n = v.len();
    if n < 6 {
        return;
    }
    let count = (n - 4) / 2;
    // Table 2.4 in 1-based vertex numbers: corners (a, b, c), adjacent to the edges
    // a-b, b-c, c-a.
    for i in 0..count {
        let last = i + 1 == count;
        let ([a, b, c], [ab, bc, ca]) = if count == 1 {
            ([1, 3, 5], [2, 6, 4])
        } else if i == 0 {
            ([1, 3, 5], [2, 7, 4])
        } else {
            let j = 2 * i;
            let odd = i % 2 == 1;
            let corners = if odd {
                [j + 3, j + 1, j + 5]
            } else {
                [j + 1, j + 3, j + 5]
            };
            let adjacent = match (odd, last) {
                (true, false) => [j - 1, j + 4, j + 7],
                (false, false) => [j - 1, j + 7, j + 4],
                (true, true) => [j - 1, j + 4, j + 6],
                (false, true) => [j - 1, j + 6, j + 4],
            };
            (corners, adjacent)
        };
        let at = |k: usize| v[(k - 1).min(n - 1)];
        out.extend([at(a), at(ab), at(b), at(bc), at(c), at(ca)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_assemble_in_gl_order() {
        let v: Vec<u32> = (0..5).collect();
        assert_eq!(assemble("points", &v, None), v);
        assert_eq!(assemble("lines", &v, None), [0, 1, 2, 3]);
        assert_eq!(assemble("line_loop", &v[..3], None), [0, 1, 1, 2, 2, 0]);
        assert_eq!(
            assemble("triangle_strip", &v, None),
            [0, 1, 2, 2, 1, 3, 2, 3, 4]
        );
        assert_eq!(assemble("triangle_fan", &v[..4], None), [0, 1, 2, 0, 2, 3]);
        assert_eq!(
            assemble("triangles", &[0, 1, 2, 9, 3, 4, 5], Some(9)),
            [0, 1, 2, 3, 4, 5]
        );
        assert_eq!(
            assemble("line_strip_adjacency", &v, None),
            [0, 1, 2, 3, 1, 2, 3, 4]
        );
        // One triangle with adjacency from six vertices: corners 0, 2, 4.
        let six: Vec<u32> = (0..6).collect();
        assert_eq!(
            assemble("triangle_strip_adjacency", &six, None),
            [0, 1, 2, 5, 4, 3]
        );
        assert_eq!(assemble("triangles_adjacency", &six, None), six);
        // Four triangles (piglit's triangle-strip-adj layout): the middle even one,
        // corners 5, 7, 9 (1-based), has 3, 11 and 8 across its edges.
        let twelve: Vec<u32> = (0..12).collect();
        let strip = assemble("triangle_strip_adjacency", &twelve, None);
        assert_eq!(&strip[12..18], [4, 2, 6, 10, 8, 7]);
        assert_eq!(&strip[..6], [0, 1, 2, 6, 4, 3]);
    }
}
