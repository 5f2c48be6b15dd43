//! Clipping: near and far planes exactly, the guard band, invalid vertices.

use crate::support::*;
use csir_raster::*;

/// OpenGL perspective projection (fovy 90°, aspect 1, near 1, far 100) of an eye-space
/// point.
fn perspective([x, y, z]: [f32; 3]) -> [f32; 4] {
    let (n, f) = (1.0f32, 100.0f32);
    [x, y, (f + n) / (n - f) * z + 2.0 * f * n / (n - f), -z]
}

/// Covered rows of column `x` (pixels with red > 0).
fn rows_covered(fb: &Framebuffer, x: u32) -> Vec<u32> {
    (0..fb.height())
        .filter(|&y| fb.color(x, y).unwrap()[0] > 0)
        .collect()
}

#[test]
fn triangle_crossing_the_near_plane_draws_its_visible_part() {
    // A ground triangle (y = -1) whose third vertex is behind the eye (w = -2). Its
    // visible part (z_eye in [-2, -1]) projects to the trapezoid
    // (-1, -0.5) (1, -0.5) (1.5, -1) (-1.5, -1) in NDC: in a 64 × 64 framebuffer,
    // every pixel of rows 0..16 and nothing above.
    let mesh = Mesh::new(vec![
        perspective([-2.0, -1.0, -2.0]),
        perspective([2.0, -1.0, -2.0]),
        perspective([0.0, -1.0, 2.0]),
    ]);
    assert!(mesh.positions[2][3] < 0.0);
    let mut fb = framebuffer(64, 64);
    let stats = draw(&mut fb, &mesh, None, &Flat::new([1.0; 4]), additive());
    assert_eq!((stats.triangles_clipped, stats.triangles_invalid), (1, 0));
    for x in 0..64 {
        assert_eq!(
            rows_covered(&fb, x),
            (0..16).collect::<Vec<_>>(),
            "column {x}"
        );
    }
    assert_eq!(stats.fragments_written, 64 * 16, "each pixel once");
}

#[test]
fn far_plane_cuts_the_triangle() {
    // A quad whose depth grows from z_ndc = -0.5 at the left edge to 3 at the right; the
    // far plane z = 1 crosses at x_w = 64 · 1.5 / 3.5 ≈ 27.43.
    let mesh = Mesh::new(vec![
        [-1.0, -1.0, -0.5, 1.0],
        [1.0, -1.0, 3.0, 1.0],
        [1.0, 1.0, 3.0, 1.0],
        [-1.0, 1.0, -0.5, 1.0],
    ]);
    let mut fb = framebuffer(64, 8);
    draw(
        &mut fb,
        &mesh,
        Some(&[0, 1, 2, 0, 2, 3]),
        &Flat::new([0.5; 4]),
        additive(),
    );
    for y in 0..8 {
        for x in 0..64 {
            let expect = if x <= 26 { 128 } else { 0 };
            assert_eq!(fb.color(x, y).unwrap()[0], expect, "({x}, {y})");
        }
    }
}

#[test]
fn huge_triangles_are_clipped_to_the_guard_band() {
    // Covers the whole framebuffer from far outside: every pixel exactly once.
    let mesh = Mesh::new(vec![
        [-1.0e6, -1.0e6, 0.0, 1.0],
        [1.0e6, -1.0e6, 0.0, 1.0],
        [0.0, 3.0e7, 0.0, 1.0],
    ]);
    let mut fb = framebuffer(40, 30);
    let stats = draw(&mut fb, &mesh, None, &Flat::new([0.5; 4]), additive());
    assert_eq!(stats.triangles_clipped, 1);
    assert!(red(&fb).iter().flatten().all(|&r| r == 128));
}

#[test]
fn edge_shared_with_a_guard_band_clipped_triangle_stays_watertight() {
    // T1 has a vertex far outside (clipped in x), T2 does not; they share edge a-b.
    let a = [-0.3, -0.9, 0.0, 1.0];
    let b = [0.4, 0.8, 0.0, 1.0];
    let far = [5000.0, -37.0, 0.0, 1.0];
    let near = [-0.9, 0.7, 0.0, 1.0];
    let mesh = Mesh::new(vec![a, far, b, a, b, near]);
    let mut fb = framebuffer(48, 48);
    let stats = draw(&mut fb, &mesh, None, &Flat::new([0.5; 4]), additive());
    assert_eq!(stats.triangles_clipped, 1);
    assert!(
        red(&fb).iter().flatten().all(|&r| r == 0 || r == 128),
        "overlap on the shared edge"
    );
    // The column through the middle has no gap between the two triangles.
    let rows = rows_covered(&fb, 24);
    assert_eq!(rows.len() as u32, rows.last().unwrap() - rows[0] + 1);
}

#[test]
fn invalid_vertices_drop_only_their_triangles() {
    let good = [
        [-0.5, -0.5, 0.0, 1.0],
        [0.5, -0.5, 0.0, 1.0],
        [0.0, 0.5, 0.0, 1.0],
    ];
    let bad_vertices = [
        [f32::NAN, 0.0, 0.0, 1.0],
        [0.0, f32::INFINITY, 0.0, 1.0],
        [0.0, 0.0, 0.0, f32::NEG_INFINITY],
        [0.0, 0.0, 0.0, 0.0],
    ];
    let mut positions = good.to_vec();
    for bad in bad_vertices {
        positions.extend([good[0], good[1], bad]);
    }
    let mut fb = framebuffer(16, 16);
    let stats = draw(
        &mut fb,
        &Mesh::new(positions),
        None,
        &Flat::new([0.5; 4]),
        additive(),
    );
    assert_eq!(stats.triangles_in, 5);
    assert_eq!(stats.triangles_rasterized, 1);
    assert_eq!(stats.triangles_invalid, 4);
    assert!(red(&fb).iter().flatten().all(|&r| r == 0 || r == 128));
}

#[test]
fn triangles_behind_the_eye_or_outside_are_rejected() {
    let mesh = Mesh::new(vec![
        [0.0, 0.0, 0.0, -1.0],
        [1.0, 0.0, 0.0, -1.0],
        [0.0, 1.0, 0.0, -1.0],
        [2.0, 0.0, 0.0, 1.0],
        [3.0, 0.0, 0.0, 1.0],
        [2.0, 1.0, 0.0, 1.0],
    ]);
    let mut fb = framebuffer(8, 8);
    let stats = draw(&mut fb, &mesh, None, &Flat::new([1.0; 4]), additive());
    assert_eq!(
        (stats.triangles_clipped_away, stats.fragments_covered),
        (2, 0)
    );
}

/// A full-window quad (two triangles) whose vertices carry `distances(x, y)` (NDC) as
/// their user clip distances.
fn clipped_quad(planes: usize, distances: impl Fn(f32, f32) -> Vec<f32>) -> Mesh {
    let corners = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
    let mut mesh = Mesh::with_varyings(
        corners.iter().map(|&[x, y]| [x, y, 0.0, 1.0]).collect(),
        corners.iter().map(|&[x, y]| distances(x, y)).collect(),
    );
    mesh.clip_distances = planes;
    mesh
}

#[test]
fn user_clip_distances_keep_the_non_negative_side() {
    // d = x − 0.5 (NDC): in a 64 × 8 framebuffer the pixel centres with x_w ≥ 48 stay,
    // every row, each pixel once.
    let mesh = clipped_quad(1, |x, _| vec![x - 0.5]);
    let mut fb = framebuffer(64, 8);
    let stats = draw(
        &mut fb,
        &mesh,
        Some(&[0, 1, 2, 0, 2, 3]),
        &Flat::new([0.5; 4]),
        additive(),
    );
    for row in red(&fb) {
        let covered: Vec<usize> = (0..64).filter(|&x| row[x] > 0).collect();
        assert_eq!(covered, (48..64).collect::<Vec<_>>());
        assert!(
            row[48..].iter().all(|&r| r == 128),
            "each pixel once: {row:?}"
        );
    }
    assert_eq!(stats.triangles_clipped, 2);
    // Two planes, d0 = x − 0.5 and d1 = 0.25 − y: the corner x ≥ 0.5, y ≤ 0.25 (rows
    // 0..5 of 8).
    let mesh = clipped_quad(2, |x, y| vec![x - 0.5, 0.25 - y]);
    let mut fb = framebuffer(64, 8);
    draw(
        &mut fb,
        &mesh,
        Some(&[0, 1, 2, 0, 2, 3]),
        &Flat::new([1.0; 4]),
        additive(),
    );
    for (y, row) in red(&fb).iter().enumerate() {
        let covered: Vec<usize> = (0..64).filter(|&x| row[x] > 0).collect();
        let want: Vec<usize> = if y < 5 { (48..64).collect() } else { vec![] };
        assert_eq!(covered, want, "row {y}");
    }
    // A plane every vertex is outside of removes the draw; one that keeps all does not
    // clip at all.
    let mesh = clipped_quad(1, |_, _| vec![-1.0]);
    let mut fb = framebuffer(8, 8);
    let stats = draw(
        &mut fb,
        &mesh,
        Some(&[0, 1, 2, 0, 2, 3]),
        &Flat::new([1.0; 4]),
        additive(),
    );
    assert_eq!(
        (stats.triangles_clipped_away, stats.fragments_covered),
        (2, 0)
    );
    let mesh = clipped_quad(1, |_, _| vec![0.0]);
    let stats = draw(
        &mut fb,
        &mesh,
        Some(&[0, 1, 2, 0, 2, 3]),
        &Flat::new([1.0; 4]),
        additive(),
    );
    assert_eq!((stats.triangles_clipped, stats.fragments_covered), (0, 64));
}

#[test]
fn clipped_vertices_interpolate_varyings_at_the_plane() {
    // Varying 0 is x in [0, 1] across the window, varying 4 the distance −x_ndc;
    // the left half stays and its colour still ramps 0 .. 0.5 as without clipping.
    let mut mesh = clipped_quad(1, |x, _| vec![(x + 1.0) / 2.0, 0.0, 0.0, 1.0, -x]);
    mesh.clip_distances = 1;
    let mut fb = framebuffer(64, 4);
    draw(
        &mut fb,
        &mesh,
        Some(&[0, 1, 2, 0, 2, 3]),
        &VaryingColor,
        additive(),
    );
    let row = &red(&fb)[1];
    for x in 0..64 {
        let want = if x < 32 {
            to_unorm8((x as f32 + 0.5) / 64.0)
        } else {
            0
        };
        assert!(
            row[x].abs_diff(want) <= 1,
            "pixel {x}: {} vs {want}",
            row[x]
        );
    }
}

#[test]
fn too_many_clip_distances_is_an_error() {
    let mut mesh = clipped_quad(1, |_, _| vec![0.0; 9]);
    mesh.clip_distances = 9;
    let mut fb = framebuffer(8, 8);
    let call = DrawCall {
        vertex_stage: &mesh,
        fragment_stage: &Flat::new([1.0; 4]),
        vertex_count: 4,
        indices: None,
        state: additive(),
        topology: Default::default(),
    };
    assert_eq!(
        Renderer::new().draw(&mut fb, &call).unwrap_err(),
        DrawError::ClipDistances {
            clip: 9,
            count: 9,
            max: MAX_CLIP_DISTANCES
        }
    );
    let mut narrow = clipped_quad(2, |_, _| vec![0.0]);
    narrow.clip_distances = 2;
    let call = DrawCall {
        vertex_stage: &narrow,
        fragment_stage: &Flat::new([1.0; 4]),
        vertex_count: 4,
        indices: None,
        state: additive(),
        topology: Default::default(),
    };
    assert!(matches!(
        Renderer::new().draw(&mut fb, &call),
        Err(DrawError::ClipDistances {
            clip: 2,
            count: 1,
            ..
        })
    ));
}
