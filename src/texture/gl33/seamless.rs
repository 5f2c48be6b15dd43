//! Seamless cube map filtering (`GL_TEXTURE_CUBE_MAP_SEAMLESS`, GL 3.3 core §3.8.7
//! "Cube Map Texture Selection"; the scene key `seamless_cube_map`): a linear lookup
//! near a face's edge takes the texels past the edge from the adjacent face, and at a
//! corner, where one of the four texels lies on no face, that texel's weight goes to
//! the other three. GL leaves the corner texel's value open ("may be … the average of
//! the three"); the rules below are llvmpipe's, written down in docs/csir.md
//! "Texture targets" ("Seamless cube maps").

/// The face and texel across the edge of `face` (a cube level of `max + 1` texels a
/// side) for the texel `(x, y)` that lies off the face on one side only: `x < 0`,
/// `x > max`, else `y < 0` or `y > max` (the other coordinate in `0..=max`). The edges
/// meet as GL 3.3 Table 3.21 puts the faces on the cube (faces +x, −x, +y, −y, +z, −z
/// are 0..=5; `x` grows with s and `y` with t).
pub(super) fn across_edge(face: u32, x: i64, y: i64, max: i64) -> (u32, i64, i64) {
    if x < 0 {
        // The left edge of each face, with `t` its row.
        let t = y;
        match face {
            0 => (4, max, t),
            1 => (5, max, t),
            2 => (1, t, 0),
            3 => (1, max - t, max),
            4 => (1, max, t),
            _ => (0, max, t),
        }
    } else if x > max {
        let t = y;
        match face {
            0 => (5, 0, t),
            1 => (4, 0, t),
            2 => (0, max - t, 0),
            3 => (0, t, max),
            4 => (0, 0, t),
            _ => (1, 0, t),
        }
    } else if y < 0 {
        // The bottom edge (t = 0), with `s` its column.
        let s = x;
        match face {
            0 => (2, max, max - s),
            1 => (2, 0, s),
            2 => (5, max - s, 0),
            3 => (4, s, max),
            4 => (2, s, max),
            _ => (2, max - s, 0),
        }
    } else {
        let s = x;
        match face {
            0 => (3, max, s),
            1 => (3, 0, max - s),
            2 => (4, s, 0),
            3 => (5, max - s, max),
            4 => (3, s, 0),
            _ => (3, max - s, max),
        }
    }
}

/// The seamless linear filter on a cube level of `size` texels a side, at the face
/// coordinates `(s, t)` of `face` (from [`cube_face`](super::cube_face)); `fetch` reads
/// the texel (or comparison result) at `(face, x, y)`, all in range.
///
/// As llvmpipe: `u = max(s, 0)·size − ½` (NaN counts as 0), `x0 = ⌊u⌋`, `x1 = x0 + 1`,
/// weight `u − x0`, the same in t. A texel off the face in x is read across that edge
/// (its row clamped to the face), one off in y only across the y edge. Without a
/// corner texel (off in both) the four are lerped along x, then y, as the 2D filter
/// does; with one, the result is `Σ wᵢ·cᵢ` in the order 00, 01, 10, 11 with the
/// bilinear weights, where the corner's weight times ⅓ (f32) is added to every weight
/// and the corner's then set to 0. (llvmpipe takes the weighted sum for all pixels of
/// a SIMD vector that holds a corner pixel; here only the corner pixel does, a
/// difference in the last bits of the other pixels.)
pub(super) fn seamless_linear(
    size: u32,
    face: u32,
    [s, t]: [f32; 2],
    fetch: impl Fn(u32, u32, u32) -> [f32; 4],
) -> [f32; 4] {
    let n = size.max(1);
    let max = i64::from(n) - 1;
    let split = |c: f32| {
        let c = if c.is_nan() { 0.0 } else { c.max(0.0) };
        let u = c * n as f32 - 0.5;
        let whole = u.floor();
        // s and t lie in [0, 1] for every direction: ⌊u⌋ is a small integer.
        (whole as i64, u - whole)
    };
    let ((x0, ws), (y0, wt)) = (split(s), split(t));
    let xs = [x0, x0 + 1];
    let ys = [y0, y0 + 1];
    // Texels 00, 01, 10, 11: (x index, y index) into xs and ys.
    const TEXELS: [(usize, usize); 4] = [(0, 0), (1, 0), (0, 1), (1, 1)];
    let off_x = |i: usize| if i == 0 { xs[0] < 0 } else { xs[1] > max };
    let off_y = |j: usize| if j == 0 { ys[0] < 0 } else { ys[1] > max };
    let colours = TEXELS.map(|(i, j)| {
        let (x, y) = (xs[i], ys[j]);
        let (f, x, y) = if off_x(i) {
            across_edge(face, x, y.clamp(0, max), max)
        } else if off_y(j) {
            across_edge(face, x, y, max)
        } else {
            (face, x, y)
        };
        let inside = |v: i64| u32::try_from(v.clamp(0, max)).unwrap_or(0);
        fetch(f, inside(x), inside(y))
    });
    let corners = TEXELS.map(|(i, j)| off_x(i) && off_y(j));
    if !corners.contains(&true) {
        let lerp = |a: [f32; 4], b: [f32; 4], w: f32| -> [f32; 4] {
            std::array::from_fn(|c| a[c] + w * (b[c] - a[c]))
        };
        let low = lerp(colours[0], colours[1], ws);
        let high = lerp(colours[2], colours[3], ws);
        return lerp(low, high, wt);
    }
    let (wx0, wy0) = (1.0 - ws, 1.0 - wt);
    let mut weights = [wx0 * wy0, ws * wy0, wx0 * wt, ws * wt];
    // The last corner in the order 00, 01, 10, 11 gives its weight (several are
    // corners only on a 1×1 face).
    let corner_weight = (0..4)
        .rev()
        .find(|&k| corners[k])
        .map_or(0.0, |k| weights[k])
        * (1.0f32 / 3.0);
    for (w, &corner) in weights.iter_mut().zip(&corners) {
        *w = if corner { 0.0 } else { *w + corner_weight };
    }
    std::array::from_fn(|c| {
        (0..4).fold(0.0f32, |sum, k| {
            let term = weights[k] * colours[k][c];
            if k == 0 { term } else { term + sum }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The direction of the centre of texel `(x, y)` of `face` on a cube of `n`
    /// texels a side (GL 3.3 Table 3.21 backwards), scaled to `ma = 1`.
    fn direction(face: u32, x: i64, y: i64, n: i64) -> [f32; 3] {
        let sc = 2.0 * (x as f32 + 0.5) / n as f32 - 1.0;
        let tc = 2.0 * (y as f32 + 0.5) / n as f32 - 1.0;
        match face {
            0 => [1.0, -tc, -sc],
            1 => [-1.0, -tc, sc],
            2 => [sc, 1.0, tc],
            3 => [sc, -1.0, -tc],
            4 => [sc, -tc, 1.0],
            _ => [-sc, -tc, -1.0],
        }
    }

    #[test]
    fn the_texel_across_an_edge_is_its_neighbour_on_the_cube() {
        // For every edge texel just off a face, the texel returned lies next to it
        // on the cube: its centre's direction is within one texel of the direction
        // one texel past the face (computed from GL's face table, independently of
        // `across_edge`'s table).
        let n = 4i64;
        let max = n - 1;
        for face in 0..6u32 {
            for k in 0..n {
                for (x, y) in [(-1, k), (n, k), (k, -1), (k, n)] {
                    let (f, nx, ny) = across_edge(face, x, y, max);
                    assert!(
                        (0..n).contains(&nx) && (0..n).contains(&ny),
                        "{face} {x} {y}"
                    );
                    assert_ne!(f, face);
                    // The direction one texel past the face, projected onto face f.
                    let d = direction(face, x, y, n);
                    let (face_of_d, s, t, _) = super::super::cube_face(d);
                    assert_eq!(face_of_d, f, "face {face} texel ({x}, {y})");
                    let want = ((s * n as f32).floor() as i64, (t * n as f32).floor() as i64);
                    assert_eq!(
                        (nx, ny),
                        (want.0.clamp(0, max), want.1.clamp(0, max)),
                        "face {face} texel ({x}, {y})"
                    );
                }
            }
        }
    }

    #[test]
    fn inside_a_face_the_filter_is_bilinear_and_at_a_corner_the_weights_move() {
        // A face of 4 texels whose value is 10·x + y (face 0), 100 on other faces.
        let fetch = |f: u32, x: u32, y: u32| {
            let v = if f == 0 { (10 * x + y) as f32 } else { 100.0 };
            [v, 0.0, 0.0, 1.0]
        };
        // (s, t) = (0.5, 0.5): the centre, between texels 1 and 2 both ways.
        assert_eq!(seamless_linear(4, 0, [0.5, 0.5], fetch)[0], 16.5);
        // Near the left edge, off in x only: half of texel (−1, 1) across the edge.
        let near = seamless_linear(4, 0, [0.0, 0.375], fetch)[0];
        // u = −0.5 → x0 = −1, weight 0.5; v = 1.0 → y0 = 1, weight 0: (100 + 1)/2
        assert_eq!(near, 50.5);
        // A corner: u = v = −0.5, weights ¼ each; texel 00 is the corner, whose ¼/3
        // goes to the other three: (01: 100, 10: 100 across edges, 11: value 0).
        let corner = seamless_linear(4, 0, [0.0, 0.0], fetch)[0];
        let w = 0.25f32 + 0.25 * (1.0 / 3.0);
        assert_eq!(corner, w * 0.0 + w * 100.0 + w * 100.0);
    }
}
