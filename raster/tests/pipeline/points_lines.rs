//! Points and lines (GL 3.3 core §3.4, §3.5): which pixel centres they cover, with
//! every expected set computed here from GL's rules, not from the rasterizer.

use crate::support::*;
use csir_raster::*;

const W: u32 = 16;
const H: u32 = 16;

/// Draws the triples `indices` of window-space vertices `points` with `topology` in
/// additive white, and returns the covered pixels as (x, y), window space (y up).
fn covered(points: &[[f32; 3]], indices: &[u32], topology: Topology) -> Vec<(u32, u32)> {
    let mesh = Mesh::from_window(points, W, H);
    let mut fb = framebuffer(W, H);
    let call = DrawCall {
        vertex_stage: &mesh,
        fragment_stage: &Flat::new([0.25, 0.0, 0.0, 1.0]),
        vertex_count: mesh.positions.len() as u32,
        indices: Some(Indices::new(indices)),
        state: additive(),
        topology,
    };
    Renderer::new().draw(&mut fb, &call).unwrap();
    let r = red(&fb);
    let mut out = Vec::new();
    for (y, row) in r.iter().enumerate() {
        for (x, &v) in row.iter().enumerate() {
            // each pixel covered once at most: 0.25 → 64
            assert!(
                v == 0 || v == 64,
                "pixel ({x}, {y}) covered more than once: {v}"
            );
            if v != 0 {
                out.push((x as u32, y as u32));
            }
        }
    }
    out
}

/// The pixels whose centres lie in [x0, x1) × [y0, y1).
fn centres_in(x0: f32, x1: f32, y0: f32, y1: f32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for y in 0..H {
        for x in 0..W {
            let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
            if cx >= x0 && cx < x1 && cy >= y0 && cy < y1 {
                out.push((x, y));
            }
        }
    }
    out
}

fn points(size: f32) -> Topology {
    Topology::Points(PointRaster {
        size,
        ..PointRaster::default()
    })
}

#[test]
fn a_point_covers_the_centres_in_its_square_left_and_bottom_sides_included() {
    for (x, y, size) in [
        (5.5, 6.5, 1.0),
        (5.0, 6.0, 2.0),
        (5.25, 6.75, 3.0),
        (8.0, 8.0, 4.0),
        (7.3, 4.9, 5.5),
    ] {
        let h = size / 2.0;
        assert_eq!(
            covered(&[[x, y, 0.5]], &[0, 0, 0], points(size)),
            centres_in(x - h, x + h, y - h, y + h),
            "point at ({x}, {y}) of size {size}"
        );
    }
    // below one pixel a point is one pixel wide, as llvmpipe draws it
    assert_eq!(
        covered(&[[3.5, 3.5, 0.5]], &[0, 0, 0], points(0.25)),
        [(3, 3)]
    );
}

#[test]
fn a_point_is_clipped_by_its_centre_only() {
    // centre inside, square past the left edge: drawn (cut by the framebuffer)
    assert_eq!(
        covered(&[[0.5, 8.5, 0.5]], &[0, 0, 0], points(5.0)),
        centres_in(-2.0, 3.0, 6.0, 11.0)
    );
    // centre just outside the view volume: nothing, whatever the size
    assert!(covered(&[[-0.25, 8.5, 0.5]], &[0, 0, 0], points(9.0)).is_empty());
    // and behind the far plane
    assert!(covered(&[[8.5, 8.5, 1.5]], &[0, 0, 0], points(3.0)).is_empty());
}

fn lines(width: f32) -> Topology {
    Topology::Lines(LineRaster { width })
}

#[test]
fn an_x_major_line_covers_one_pixel_per_column_start_in_end_out() {
    // along the row centre line y = 4.5, from x = 2.0 to x = 9.0: centres 2.5 ..= 8.5
    let got = covered(&[[2.0, 4.5, 0.5], [9.0, 4.5, 0.5]], &[0, 1, 1], lines(1.0));
    assert_eq!(got, (2..9).map(|x| (x, 4)).collect::<Vec<_>>());
    // the reverse direction draws the columns whose centres lie in (2.0, 9.0]
    let got = covered(&[[9.0, 4.5, 0.5], [2.0, 4.5, 0.5]], &[0, 1, 1], lines(1.0));
    assert_eq!(got, (2..9).map(|x| (x, 4)).collect::<Vec<_>>());
    // a diagonal x-major line: one pixel per column, the row nearest the line
    let got = covered(&[[1.0, 1.0, 0.5], [13.0, 5.0, 0.5]], &[0, 1, 1], lines(1.0));
    let want: Vec<(u32, u32)> = (1..13)
        .map(|x| {
            let y = 1.0 + (x as f32 + 0.5 - 1.0) * 4.0 / 12.0;
            (x, y.floor() as u32)
        })
        .collect();
    let mut want = want;
    want.sort_by_key(|&(x, y)| (y, x));
    assert_eq!(got, want);
}

#[test]
fn the_diamond_rule_decides_the_end_pixels() {
    // ends inside their pixels' diamonds: start drawn, end not
    let got = covered(&[[2.7, 4.5, 0.5], [8.6, 4.5, 0.5]], &[0, 1, 1], lines(1.0));
    assert_eq!(got, (2..8).map(|x| (x, 4)).collect::<Vec<_>>());
}

#[test]
fn a_y_major_wide_line_covers_width_columns_per_row() {
    let got = covered(&[[6.0, 2.0, 0.5], [6.0, 12.0, 0.5]], &[0, 1, 1], lines(3.0));
    assert_eq!(got, centres_in(4.5, 7.5, 2.0, 12.0));
}

#[test]
fn polygon_line_mode_culls_first_and_draws_the_three_edges() {
    // counter-clockwise (front) and clockwise (back) triangles
    let front = [[2.0, 2.5, 0.5], [12.0, 2.5, 0.5], [2.0, 12.5, 0.5]];
    let back = [front[0], front[2], front[1]];
    let state = |cull| RasterState { cull, ..additive() };
    let draw = |tri: [[f32; 3]; 3], cull| {
        let mesh = Mesh::from_window(&tri, W, H);
        let mut fb = framebuffer(W, H);
        let call = DrawCall {
            vertex_stage: &mesh,
            fragment_stage: &Flat::new([0.25, 0.0, 0.0, 1.0]),
            vertex_count: 3,
            indices: Some(Indices::new(&[0, 1, 2])),
            state: state(cull),
            topology: Topology::PolygonEdges(LineRaster { width: 1.0 }),
        };
        Renderer::new().draw(&mut fb, &call).unwrap();
        red(&fb)
    };
    let drawn = draw(front, CullMode::Back);
    // the bottom edge y = 2.5 from x = 2 to 12 is in row 2, columns 2..12
    assert!((2..12).all(|x| drawn[2][x] > 0));
    // no interior pixel
    assert_eq!(drawn[6][5], 0);
    assert!(draw(back, CullMode::Back).iter().flatten().all(|&v| v == 0));
    assert!(draw(back, CullMode::Front).iter().flatten().any(|&v| v > 0));
}
