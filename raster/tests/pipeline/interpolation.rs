//! Perspective-correct barycentrics, varyings and `gl_FragCoord`; flat and
//! noperspective varyings.

use std::sync::Mutex;

use crate::support::*;
use csir_raster::*;

/// One shaded fragment: pixel, `gl_FragCoord`, interpolated varyings.
type Record = ([u32; 2], [f32; 4], Vec<f32>);

/// Records every fragment it shades.
struct Recorder(Mutex<Vec<Record>>);

impl FragmentStage for Recorder {
    type Scratch = Vec<LaneArray>;
    fn new_scratch(&self) -> Self::Scratch {
        vec![[0.0; MAX_LANES]; MAX_VARYINGS]
    }
    fn may_discard(&self) -> bool {
        false
    }
    fn shade(
        &self,
        scratch: &mut Self::Scratch,
        tri: &Triangle<'_>,
        batch: &FragmentBatch,
        _: &mut FragmentOutput,
    ) {
        tri.interpolate(batch, scratch);
        let mut records = self.0.lock().unwrap();
        for lane in 0..batch.len {
            let mut single = vec![0.0; tri.varying_count()];
            tri.interpolate_lane(batch, lane, &mut single);
            let batched: Vec<f32> = (0..tri.varying_count()).map(|k| scratch[k][lane]).collect();
            assert_eq!(single, batched, "lane and batch interpolation agree");
            let b: f32 = (0..3).map(|i| batch.barycentric[i][lane]).sum();
            assert!((b - 1.0).abs() < 1e-5);
            records.push((
                [batch.pixel_x[lane], batch.pixel_y[lane]],
                std::array::from_fn(|i| batch.frag_coord[i][lane]),
                single,
            ));
        }
    }
}

fn record(mesh: &Mesh, indices: Option<&[u32]>, w: u32, h: u32) -> Vec<Record> {
    let fs = Recorder(Mutex::new(Vec::new()));
    let mut fb = framebuffer(w, h);
    let state = RasterState {
        depth_test: DepthTest::Always,
        ..RasterState::default()
    };
    draw(&mut fb, mesh, indices, &fs, state);
    fs.0.into_inner().unwrap()
}

fn perspective([x, y, z]: [f32; 3]) -> [f32; 4] {
    let (n, f) = (1.0f32, 100.0f32);
    [x, y, (f + n) / (n - f) * z + 2.0 * f * n / (n - f), -z]
}

#[test]
fn ground_plane_depth_matches_the_analytic_value() {
    // A ground plane y = -1 from z = -2 to z = -8, carrying its eye-space z as a
    // varying. A pixel centre at NDC y sees the ground at z = 1 / y_ndc, with
    // gl_FragCoord.w = 1 / w_clip = -y_ndc. (The vertices land exactly on 1/256 pixel,
    // so snapping does not move them.)
    let eye = [
        [-10.0, -1.0, -2.0],
        [10.0, -1.0, -2.0],
        [10.0, -1.0, -8.0],
        [-10.0, -1.0, -8.0],
    ];
    let mesh = Mesh::with_varyings(
        eye.iter().map(|&p| perspective(p)).collect(),
        eye.iter().map(|p| vec![p[2]]).collect(),
    );
    let records = record(&mesh, Some(&[0, 1, 2, 0, 2, 3]), 64, 64);
    assert_eq!(
        records.len(),
        64 * 12,
        "rows 16..28 (y_ndc from -0.5 to -0.125)"
    );
    for ([x, y], frag, v) in records {
        let y_ndc = (f64::from(y) + 0.5) / 32.0 - 1.0;
        let expect = 1.0 / y_ndc;
        assert!(
            (f64::from(v[0]) - expect).abs() < 2e-6 * expect.abs(),
            "({x}, {y}): {} vs {expect}",
            v[0]
        );
        assert!(
            (f64::from(frag[3]) + y_ndc).abs() < 2e-6 * y_ndc.abs(),
            "gl_FragCoord.w at ({x}, {y}): {} vs {}",
            frag[3],
            -y_ndc
        );
        assert_eq!([frag[0], frag[1]], [x as f32 + 0.5, y as f32 + 0.5]);
    }
}

/// Expected perspective-correct varying at the centre of pixel `(x, y)`: from the
/// snapped window positions, in f64.
fn expected(clip: &[[f32; 4]; 3], u: [f32; 3], size: f64, x: u32, y: u32) -> (f64, f64) {
    let win = clip.map(|[cx, cy, _, w]| {
        let snap = |ndc: f32| ((f64::from(ndc) * size * 0.5 + size * 0.5) * 256.0).round() / 256.0;
        (snap(cx / w), snap(cy / w), 1.0 / f64::from(w))
    });
    let (px, py) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
    let area = |a: (f64, f64), b: (f64, f64), c: (f64, f64)| {
        (b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1)
    };
    let p = |i: usize| (win[i].0, win[i].1);
    let total = area(p(0), p(1), p(2));
    let lambda = [
        area((px, py), p(1), p(2)),
        area(p(0), (px, py), p(2)),
        area(p(0), p(1), (px, py)),
    ]
    .map(|a| a / total);
    let q: Vec<f64> = (0..3).map(|i| lambda[i] * win[i].2).collect();
    let s: f64 = q.iter().sum();
    ((0..3).map(|i| q[i] * f64::from(u[i])).sum::<f64>() / s, s)
}

#[test]
fn random_triangles_interpolate_perspective_correctly() {
    let mut rng = Rng(1234);
    for _ in 0..12 {
        let clip: [[f32; 4]; 3] = std::array::from_fn(|_| {
            let w = rng.range(0.3, 4.0);
            [
                rng.range(-1.0, 1.0) * w,
                rng.range(-1.0, 1.0) * w,
                rng.range(-1.0, 1.0) * w,
                w,
            ]
        });
        let u = [
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
        ];
        let mesh = Mesh::with_varyings(clip.to_vec(), u.iter().map(|&v| vec![v, 1.0]).collect());
        for ([x, y], frag, v) in record(&mesh, None, 32, 32) {
            let (value, inv_w) = expected(&clip, u, 32.0, x, y);
            assert!(
                (f64::from(v[0]) - value).abs() < 1e-4,
                "({x}, {y}): {} vs {value}",
                v[0]
            );
            assert!(
                (f64::from(v[1]) - 1.0).abs() < 1e-5,
                "constant varying stays constant"
            );
            assert!(
                (f64::from(frag[3]) - inv_w).abs() < 1e-5 * inv_w,
                "gl_FragCoord.w"
            );
        }
    }
}

#[test]
fn varying_colours_reach_the_framebuffer() {
    // Vertex colours red, green, blue; the centroid pixel is close to grey.
    let pts = [[0.0, 0.0, 0.5], [48.0, 0.0, 0.5], [0.0, 48.0, 0.5]];
    let mut mesh = Mesh::from_window(&pts, 48, 48);
    mesh.varyings = vec![
        vec![1.0, 0.0, 0.0],
        vec![0.0, 1.0, 0.0],
        vec![0.0, 0.0, 1.0],
    ];
    let mut fb = framebuffer(48, 48);
    draw(&mut fb, &mesh, None, &VaryingColor, RasterState::default());
    // Pixel (15, 15): centre (15.5, 15.5): weights (1 − 31/48, 15.5/48, 15.5/48).
    let c = fb.color(15, 15).unwrap();
    assert_eq!(c, [90, 82, 82, 255]);
}

/// A triangle in perspective (w = 1, 2, 4) carrying its vertex index as varying 0,
/// 10 + index as varying 1 and 20 + index as varying 2.
fn perspective_triangle() -> Mesh {
    let clip = vec![
        [-0.9, -0.9, 0.0, 1.0],
        [1.8, -1.8, 0.0, 2.0],
        [0.0, 3.6, 0.0, 4.0],
    ];
    let v = (0..3).map(|i| [0.0, 10.0, 20.0].map(|b| b + i as f32).to_vec());
    Mesh::with_varyings(clip, v.collect())
}

#[test]
fn flat_varyings_take_the_last_vertex_of_the_input_triangle() {
    let mut mesh = perspective_triangle();
    mesh.interpolation = vec![Interpolation::Flat, Interpolation::Smooth];
    // The same triangle submitted in three rotations: the provoking vertex is the
    // last one as submitted, whatever order setup works in.
    for (indices, last) in [([0, 1, 2], 2.0), ([1, 2, 0], 0.0), ([2, 0, 1], 1.0)] {
        let records = record(&mesh, Some(&indices), 32, 32);
        assert!(records.len() > 100, "{}", records.len());
        for (_, _, v) in &records {
            assert_eq!(v[0], last, "flat");
        }
        // Varying 1 is smooth, varying 2 past the slice's end smooth too: both vary.
        assert!(records.iter().any(|r| r.2[1] != records[0].2[1]));
        assert!(records.iter().any(|r| r.2[2] != records[0].2[2]));
    }
}

#[test]
fn noperspective_varyings_are_linear_in_window_space() {
    let mut mesh = perspective_triangle();
    mesh.interpolation = vec![Interpolation::NoPerspective, Interpolation::Smooth];
    let clip = [mesh.positions[0], mesh.positions[1], mesh.positions[2]];
    let flat_w = clip.map(|[x, y, z, w]| [x / w, y / w, z / w, 1.0]);
    let mut differs = false;
    for ([x, y], _, v) in record(&mesh, None, 32, 32) {
        // With every w = 1 the perspective-correct formula is the window-space one.
        let (linear, _) = expected(&flat_w, [0.0, 1.0, 2.0], 32.0, x, y);
        let (perspective, _) = expected(&clip, [10.0, 11.0, 12.0], 32.0, x, y);
        assert!(
            (f64::from(v[0]) - linear).abs() < 1e-4,
            "({x}, {y}): {} vs {linear}",
            v[0]
        );
        assert!((f64::from(v[1]) - perspective).abs() < 1e-4);
        differs |= (linear - (perspective - 10.0)).abs() > 0.05;
    }
    assert!(
        differs,
        "the two interpolations must differ on this triangle"
    );
}

#[test]
fn clipped_noperspective_and_flat_varyings_keep_their_rules() {
    // The far vertex is beyond the far plane (z > w): clipping makes new vertices,
    // whose noperspective varying must stay linear in window space over the
    // original triangle, and whose flat varying is never read.
    let clip = vec![
        [-0.9, -0.9, 0.0, 1.0],
        [1.8, -1.8, 0.0, 2.0],
        [0.0, 3.6, 8.0, 4.0],
    ];
    let values = [[0.0, 5.0], [1.0, 6.0], [2.0, 7.0]];
    let mut mesh = Mesh::with_varyings(clip.clone(), values.iter().map(|v| v.to_vec()).collect());
    mesh.interpolation = vec![Interpolation::NoPerspective, Interpolation::Flat];
    let flat_w: [[f32; 4]; 3] = std::array::from_fn(|i| {
        let [x, y, z, w] = clip[i];
        [x / w, y / w, z / w, 1.0]
    });
    let records = record(&mesh, None, 32, 32);
    assert!(records.len() > 50);
    for ([x, y], _, v) in records {
        let (linear, _) = expected(&flat_w, [0.0, 1.0, 2.0], 32.0, x, y);
        assert!(
            (f64::from(v[0]) - linear).abs() < 1e-4,
            "({x}, {y}): {} vs {linear}",
            v[0]
        );
        assert_eq!(v[1], 7.0);
    }
}

#[test]
fn too_many_interpolation_entries_is_an_error() {
    let mut mesh = perspective_triangle();
    mesh.interpolation = vec![Interpolation::Flat; 4];
    let fs = Recorder(Mutex::new(Vec::new()));
    let call = DrawCall {
        vertex_stage: &mesh,
        fragment_stage: &fs,
        vertex_count: 3,
        indices: None,
        state: RasterState::default(),
        topology: Default::default(),
    };
    let err = Renderer::new()
        .draw(&mut framebuffer(8, 8), &call)
        .unwrap_err();
    assert_eq!(err, DrawError::Interpolation { len: 4, count: 3 });
    assert_eq!(
        err.to_string(),
        "4 interpolation entries for a vertex stage with 3 varyings"
    );
}
