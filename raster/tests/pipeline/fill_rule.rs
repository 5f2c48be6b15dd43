//! Fill rule (scene-format.md "Conventions"): centres on left and bottom edges are
//! covered, on right and top edges not; shared edges cover each centre exactly once.

use crate::support::*;
use csir_raster::*;

const HALF: [f32; 4] = [0.5, 0.5, 0.5, 0.5];

/// Draws window-space triangles (CCW or CW) additively with colour 0.5 (→ 128).
fn draw_triangles(fb: &mut Framebuffer, triangles: &[[[f32; 2]; 3]]) -> DrawStats {
    let points: Vec<[f32; 3]> = triangles
        .iter()
        .flatten()
        .map(|&[x, y]| [x, y, 0.5])
        .collect();
    let mesh = Mesh::from_window(&points, fb.width(), fb.height());
    draw(fb, &mesh, None, &Flat::new(HALF), additive())
}

fn covered(fb: &Framebuffer) -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    for y in 0..fb.height() {
        for x in 0..fb.width() {
            match fb.color(x, y).unwrap()[0] {
                0 => {}
                128 => v.push((x, y)),
                other => panic!("pixel ({x}, {y}) = {other}: covered more than once"),
            }
        }
    }
    v
}

#[test]
fn centres_on_left_and_bottom_edges_are_covered() {
    let mut fb = framebuffer(16, 16);
    // Legs on x = 2.5 (left) and y = 2.5 (bottom); hypotenuse x + y = 11 (top-right).
    draw_triangles(&mut fb, &[[[2.5, 2.5], [8.5, 2.5], [2.5, 8.5]]]);
    let expect: Vec<(u32, u32)> = (0..16)
        .flat_map(|y| (0..16).map(move |x| (x, y)))
        .filter(|&(x, y)| x >= 2 && y >= 2 && x + y < 10)
        .collect();
    assert_eq!(covered(&fb), expect);
    assert_eq!(expect.len(), 21);
}

#[test]
fn centres_on_right_and_top_edges_are_not_covered() {
    let mut fb = framebuffer(16, 16);
    // Legs on x = 8.5 (right) and y = 8.5 (top); hypotenuse is its bottom-left edge.
    draw_triangles(&mut fb, &[[[8.5, 8.5], [2.5, 8.5], [8.5, 2.5]]]);
    let expect: Vec<(u32, u32)> = (0..16)
        .flat_map(|y| (0..16).map(move |x| (x, y)))
        .filter(|&(x, y)| x <= 7 && y <= 7 && x + y >= 10)
        .collect();
    assert_eq!(covered(&fb), expect);
    assert_eq!(expect.len(), 15);
}

#[test]
fn square_of_two_triangles_covers_each_centre_once() {
    let mut fb = framebuffer(16, 16);
    // Counter-clockwise and clockwise halves of the square [2.5, 8.5]².
    draw_triangles(
        &mut fb,
        &[
            [[2.5, 2.5], [8.5, 2.5], [2.5, 8.5]],
            [[8.5, 8.5], [8.5, 2.5], [2.5, 8.5]],
        ],
    );
    let expect: Vec<(u32, u32)> = (2..8).flat_map(|y| (2..8).map(move |x| (x, y))).collect();
    assert_eq!(covered(&fb), expect);
}

#[test]
fn horizontal_bottom_and_top_edges() {
    // A triangle whose only horizontal edge is at the bottom, then one with it on top.
    let mut fb = framebuffer(16, 16);
    draw_triangles(&mut fb, &[[[1.5, 4.5], [9.5, 4.5], [5.5, 12.5]]]);
    assert!(
        covered(&fb).iter().any(|&(_, y)| y == 4),
        "bottom row included"
    );
    let mut fb = framebuffer(16, 16);
    draw_triangles(&mut fb, &[[[1.5, 12.5], [5.5, 4.5], [9.5, 12.5]]]);
    let rows: Vec<u32> = covered(&fb).iter().map(|&(_, y)| y).collect();
    assert!(!rows.contains(&12), "top row excluded");
    // The apex centre (5.5, 4.5) lies on the left and the right edge: the right one
    // excludes it.
    assert!(
        rows.contains(&11) && rows.contains(&5) && !rows.contains(&4),
        "{rows:?}"
    );
}

#[test]
fn fan_of_64_thin_triangles_covers_each_pixel_exactly_once() {
    let mut fb = framebuffer(64, 64);
    let (cx, cy, r) = (31.3f32, 32.7f32, 100.0f32);
    let rim: Vec<[f32; 2]> = (0..64)
        .map(|i| {
            let a = i as f32 / 64.0 * std::f32::consts::TAU;
            [cx + r * a.cos(), cy + r * a.sin()]
        })
        .collect();
    let fan: Vec<[[f32; 2]; 3]> = (0..64)
        .map(|i| [[cx, cy], rim[i], rim[(i + 1) % 64]])
        .collect();
    let stats = draw_triangles(&mut fb, &fan);
    assert_eq!(stats.triangles_rasterized, 64);
    assert_eq!(covered(&fb).len(), 64 * 64, "every pixel exactly once");
}

/// A `n × n` grid of vertices spaced `step` pixels apart, starting at `origin`, with
/// each vertex moved by `jitter(i, j)`; triangulated with alternating diagonals and
/// alternating windings.
fn grid_mesh(
    n: usize,
    origin: f32,
    step: f32,
    mut jitter: impl FnMut() -> [f32; 2],
) -> Vec<[[f32; 2]; 3]> {
    let mut v = vec![[0.0f32; 2]; n * n];
    for j in 0..n {
        for i in 0..n {
            let [dx, dy] = jitter();
            v[j * n + i] = [origin + i as f32 * step + dx, origin + j as f32 * step + dy];
        }
    }
    let mut tris = Vec::new();
    for j in 0..n - 1 {
        for i in 0..n - 1 {
            let (a, b, c, d) = (
                v[j * n + i],
                v[j * n + i + 1],
                v[(j + 1) * n + i + 1],
                v[(j + 1) * n + i],
            );
            let pair = if (i + j) % 2 == 0 {
                [[a, b, c], [a, c, d]]
            } else {
                [[a, b, d], [b, c, d]]
            };
            for (k, mut t) in pair.into_iter().enumerate() {
                if (i + 2 * j + k) % 3 == 0 {
                    t.swap(1, 2); // clockwise
                }
                tris.push(t);
            }
        }
    }
    tris
}

#[test]
fn jittered_mesh_covers_each_pixel_exactly_once() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..4 {
        let mut fb = framebuffer(96, 80);
        let mesh = grid_mesh(9, -20.0, 17.0, || {
            [rng.range(-5.0, 5.0), rng.range(-5.0, 5.0)]
        });
        draw_triangles(&mut fb, &mesh);
        assert_eq!(covered(&fb).len(), 96 * 80);
    }
}

/// Triangles of one or two pixels (most inside one 8×8 block, many covering no pixel
/// centre: the rasterizer's single-block path, `rasterize.rs`) still cover every pixel
/// exactly once, and the draw counts exactly the pixels.
#[test]
fn tiny_jittered_mesh_covers_each_pixel_exactly_once() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..4 {
        let mut fb = framebuffer(72, 56);
        let mesh = grid_mesh(45, -4.0, 1.75, || {
            [rng.range(-0.6, 0.6), rng.range(-0.6, 0.6)]
        });
        let stats = draw_triangles(&mut fb, &mesh);
        assert_eq!(covered(&fb).len(), 72 * 56);
        assert_eq!(stats.fragments_covered, 72 * 56);
    }
}

#[test]
fn mesh_with_vertices_on_pixel_centres_covers_each_pixel_exactly_once() {
    // Half-integer steps put vertices on pixel centres and corners, and many centres
    // exactly on edges (including horizontal and vertical ones).
    let mut rng = Rng(42);
    for _ in 0..4 {
        let mut fb = framebuffer(70, 70);
        let mesh = grid_mesh(11, -8.5, 9.0, || {
            [
                (rng.range(-6.0, 6.0)).round() * 0.5,
                (rng.range(-6.0, 6.0)).round() * 0.5,
            ]
        });
        draw_triangles(&mut fb, &mesh);
        assert_eq!(covered(&fb).len(), 70 * 70);
    }
}

#[test]
fn splitting_a_triangle_at_an_inner_point_keeps_its_coverage() {
    let mut rng = Rng(7);
    for _ in 0..40 {
        let p: [[f32; 2]; 3] =
            std::array::from_fn(|_| [rng.range(-5.0, 45.0), rng.range(-5.0, 45.0)]);
        let area =
            (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
        if area.abs() < 200.0 {
            continue;
        }
        let (wa, wb) = (rng.range(0.2, 0.4), rng.range(0.2, 0.4));
        let inner =
            std::array::from_fn(|k| wa * p[0][k] + wb * p[1][k] + (1.0 - wa - wb) * p[2][k]);
        let mut whole = framebuffer(40, 40);
        draw_triangles(&mut whole, &[p]);
        let mut split = framebuffer(40, 40);
        draw_triangles(
            &mut split,
            &[
                [inner, p[0], p[1]],
                [inner, p[1], p[2]],
                [inner, p[2], p[0]],
            ],
        );
        assert_eq!(covered(&split), covered(&whole), "{p:?} split at {inner:?}");
    }
}
