//! The vertices shader_runner draws: `draw rect` rectangles (piglit's
//! `piglit_draw_rect`, `piglit_draw_rect_tex`) and the triangles of `draw arrays`
//! primitives, as triangle-list indices for the rasterizer.

use super::commands::DrawMode;
use crate::scene::{Primitive as ScenePrimitive, ProvokingVertex, assemble_primitives};

/// A rectangle's four corners in piglit's order, a triangle strip: (x, y), (x + w, y),
/// (x, y + h), (x + w, y + h). Positions have z = 0 and w = 1.
pub fn rect_positions([x, y, w, h]: [f32; 4]) -> Vec<f32> {
    let (x1, y1) = (x + w, y + h);
    vec![
        x, y, 0.0, 1.0, //
        x1, y, 0.0, 1.0, //
        x, y1, 0.0, 1.0, //
        x1, y1, 0.0, 1.0,
    ]
}

/// Texture coordinates of `draw rect tex`, corner for corner with [`rect_positions`].
pub fn rect_texcoords([s, t, w, h]: [f32; 4]) -> Vec<f32> {
    let (s1, t1) = (s + w, t + h);
    vec![s, t, s1, t, s, t1, s1, t1]
}

/// `draw rect ortho X Y W H`: window pixels to clip coordinates for a `window`-sized
/// window, computed as shader_runner computes it (`-1 + 2 · (x / width)` with the
/// division in f32 and the rest in f64, then rounded to f32).
pub fn ortho_rect([x, y, w, h]: [f32; 4], [width, height]: [u32; 2]) -> [f32; 4] {
    let (fw, fh) = (width as f32, height as f32);
    let position = |v: f32, size: f32| (-1.0 + 2.0 * f64::from(v / size)) as f32;
    let extent = |v: f32, size: f32| (2.0 * f64::from(v / size)) as f32;
    [
        position(x, fw),
        position(y, fh),
        extent(w, fw),
        extent(h, fh),
    ]
}

/// The index triples (into the drawn vertices `0..count`) for `count` vertices of
/// `mode`, with OpenGL's vertex order and the provoking vertex (`provoking`) last in
/// each triangle: the primitives as a scene's are assembled ([`assemble_primitives`],
/// GL 3.3 core §2.6.1: points and line segments too), quads with the last vertex of
/// each quad provoking whatever the convention (GL 2.1 §2.6.1; GL 3.2's
/// `QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION` leaves it to the implementation).
/// Vertices that do not complete a primitive are ignored, as OpenGL ignores them.
pub fn triangle_indices(mode: DrawMode, count: u32, provoking: ProvokingVertex) -> Vec<u32> {
    let mut out = Vec::new();
    match mode {
        DrawMode::Primitive(primitive) => {
            let vertices: Vec<u32> = (0..count).collect();
            return assemble_primitives(primitive, &vertices, None, provoking);
        }
        DrawMode::Quads => {
            for q in 0..count / 4 {
                let [a, b, c, d] = [4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 3];
                out.extend([a, b, d, b, c, d]);
            }
        }
        DrawMode::QuadStrip => {
            for q in 0..count.saturating_sub(2) / 2 {
                // quad (2q, 2q + 1, 2q + 3, 2q + 2); 2q + 3 is provoking
                let [a, b, c, d] = [2 * q, 2 * q + 1, 2 * q + 3, 2 * q + 2];
                out.extend([a, b, c, d, a, c]);
            }
        }
    }
    out
}

/// The GL name of `mode` for a draw with a geometry shader (`GeometryDraw::mode`;
/// quads, which a geometry shader cannot take, as their triangles).
pub fn geometry_mode(mode: DrawMode) -> &'static str {
    match mode {
        DrawMode::Primitive(primitive) => primitive.name(),
        DrawMode::Quads | DrawMode::QuadStrip => "triangles",
    }
}

/// The indices of a rectangle's two triangles (a 4-vertex triangle strip).
pub fn rect_indices() -> Vec<u32> {
    triangle_indices(
        DrawMode::Primitive(ScenePrimitive::TriangleStrip),
        4,
        ProvokingVertex::Last,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primitives_become_triangles() {
        assert_eq!(rect_indices(), vec![0, 1, 2, 2, 1, 3]);
        assert_eq!(
            triangle_indices(
                DrawMode::Primitive(ScenePrimitive::Triangles),
                7,
                ProvokingVertex::Last
            ),
            vec![0, 1, 2, 3, 4, 5]
        );
        assert_eq!(
            triangle_indices(
                DrawMode::Primitive(ScenePrimitive::TriangleFan),
                5,
                ProvokingVertex::Last
            ),
            vec![0, 1, 2, 0, 2, 3, 0, 3, 4]
        );
        assert_eq!(
            triangle_indices(DrawMode::Quads, 9, ProvokingVertex::Last),
            vec![0, 1, 3, 1, 2, 3, 4, 5, 7, 5, 6, 7]
        );
        assert_eq!(
            triangle_indices(DrawMode::QuadStrip, 6, ProvokingVertex::Last),
            vec![0, 1, 3, 2, 0, 3, 2, 3, 5, 4, 2, 5]
        );
        assert!(
            triangle_indices(
                DrawMode::Primitive(ScenePrimitive::TriangleStrip),
                2,
                ProvokingVertex::Last
            )
            .is_empty()
        );
    }

    #[test]
    fn ortho_rects_cover_window_pixels() {
        assert_eq!(
            ortho_rect([0.0, 0.0, 250.0, 125.0], [250, 250]),
            [-1.0, -1.0, 2.0, 1.0]
        );
        assert_eq!(ortho_rect([4.0, 0.0, 4.0, 4.0], [250, 250])[0], -0.968);
        assert_eq!(
            rect_positions([0.0, 0.0, 1.0, 2.0])[12..],
            [1.0, 2.0, 0.0, 1.0]
        );
        assert_eq!(
            rect_texcoords([0.0, 0.0, 1.0, 1.0]),
            vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0]
        );
    }
}
