//! Face culling: counter-clockwise in window space is front (scene-format.md `cull`).

use crate::support::*;
use csir_raster::*;

fn draw_winding(ccw: bool, cull: CullMode) -> (DrawStats, usize) {
    let mut fb = framebuffer(16, 16);
    let mut pts = vec![[2.0, 2.0, 0.5], [14.0, 2.0, 0.5], [8.0, 14.0, 0.5]];
    if !ccw {
        pts.swap(1, 2);
    }
    let mesh = Mesh::from_window(&pts, 16, 16);
    let state = RasterState {
        cull,
        ..RasterState::default()
    };
    let stats = draw(&mut fb, &mesh, None, &Flat::new([1.0; 4]), state);
    let lit = red(&fb).iter().flatten().filter(|&&r| r == 255).count();
    (stats, lit)
}

#[test]
fn back_and_front_culling_for_both_windings() {
    let (_, reference) = draw_winding(true, CullMode::Disabled);
    assert!(reference > 50);
    for (ccw, cull, drawn) in [
        (true, CullMode::Disabled, true),
        (false, CullMode::Disabled, true),
        (true, CullMode::Back, true),
        (false, CullMode::Back, false),
        (true, CullMode::Front, false),
        (false, CullMode::Front, true),
    ] {
        let (stats, lit) = draw_winding(ccw, cull);
        assert_eq!(lit > 0, drawn, "ccw={ccw} {cull:?}");
        assert_eq!(stats.triangles_culled, u64::from(!drawn));
        if drawn {
            assert_eq!(lit, reference, "same coverage for both windings");
        }
    }
}

#[test]
fn front_facing_reaches_the_fragment_stage() {
    struct Facing;
    impl FragmentStage for Facing {
        type Scratch = ();
        fn new_scratch(&self) {}
        fn may_discard(&self) -> bool {
            false
        }
        fn shade(
            &self,
            _: &mut (),
            tri: &Triangle<'_>,
            batch: &FragmentBatch,
            out: &mut FragmentOutput,
        ) {
            for lane in 0..batch.len {
                out.color[0][lane] = if tri.front_facing { 1.0 } else { 0.5 };
            }
        }
    }
    for (ccw, expect) in [(true, 255), (false, 128)] {
        let mut fb = framebuffer(16, 16);
        let mut pts = vec![[2.0, 2.0, 0.5], [14.0, 2.0, 0.5], [8.0, 14.0, 0.5]];
        if !ccw {
            pts.swap(0, 1);
        }
        draw(
            &mut fb,
            &Mesh::from_window(&pts, 16, 16),
            None,
            &Facing,
            RasterState::default(),
        );
        assert_eq!(fb.color(8, 6).unwrap()[0], expect);
    }
}

/// A mesh whose vertex stage also names two-sided varyings.
struct TwoSided {
    mesh: Mesh,
    pairs: Vec<BackFaceVarying>,
}

impl VertexStage for TwoSided {
    type Scratch = ();
    fn new_scratch(&self) {}
    fn varying_count(&self) -> usize {
        self.mesh.varying_count()
    }
    fn shade_vertex(&self, _: &mut (), index: u32, position: &mut [f32; 4], varyings: &mut [f32]) {
        self.mesh.shade_vertex(&mut (), index, position, varyings);
    }
    fn back_face_varyings(&self) -> &[BackFaceVarying] {
        &self.pairs
    }
}

#[test]
fn back_facing_triangles_read_the_back_varyings_even_when_clipped() {
    // Varyings 0..3: the front colour (red), 4..7: the back colour (blue). The
    // triangles reach past the near plane, so clipping makes vertices whose back
    // colour must be blended like the front one.
    let pairs = (0..4)
        .map(|c| BackFaceVarying {
            varying: c,
            back: 4 + c,
        })
        .collect();
    let colors = vec![1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0];
    for (ccw, expect) in [(true, [255, 0, 0, 255]), (false, [0, 0, 255, 255])] {
        let mut positions = vec![
            [-0.8, -0.8, -2.0, 1.0],
            [0.8, -0.8, 0.0, 1.0],
            [0.0, 0.8, 0.0, 1.0],
        ];
        if !ccw {
            positions.swap(1, 2);
        }
        let mesh = Mesh::with_varyings(positions, vec![colors.clone(); 3]);
        let stage = TwoSided {
            mesh,
            pairs: Vec::clone(&pairs),
        };
        let mut fb = framebuffer(16, 16);
        let call = DrawCall {
            vertex_stage: &stage,
            fragment_stage: &VaryingColor,
            vertex_count: 3,
            indices: None,
            state: RasterState::default(),
            topology: Default::default(),
        };
        let stats = Renderer::new().draw(&mut fb, &call).unwrap();
        assert_eq!(stats.triangles_clipped, 1);
        assert_eq!(fb.color(8, 6).unwrap(), expect, "ccw={ccw}");
    }
}

#[test]
fn a_two_sided_varying_past_the_varying_count_fails_the_draw() {
    let stage = TwoSided {
        mesh: Mesh::with_varyings(vec![[0.0; 4]; 3], vec![vec![0.0; 4]; 3]),
        pairs: vec![BackFaceVarying {
            varying: 0,
            back: 4,
        }],
    };
    let call = DrawCall {
        vertex_stage: &stage,
        fragment_stage: &VaryingColor,
        vertex_count: 3,
        indices: None,
        state: RasterState::default(),
        topology: Default::default(),
    };
    let e = Renderer::new()
        .draw(&mut framebuffer(4, 4), &call)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "two-sided varying 0 (back: 4) is not below the vertex stage's varying count 4"
    );
}
