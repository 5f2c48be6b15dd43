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
