//! Property tests: arbitrary triangles, including NaN, infinities and huge values,
//! never panic or hang, and never write outside what they cover.

use proptest::prelude::*;

use crate::support::*;
use csir_raster::*;

fn coordinate() -> impl Strategy<Value = f32> {
    prop_oneof![
        6 => -3.0f32..3.0,
        1 => -1.0e7f32..1.0e7,
        1 => Just(0.0f32),
        1 => prop::sample::select(vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, f32::MAX, f32::MIN, 1.0e-40, -1.0e-40]),
        1 => any::<f32>(),
    ]
}

fn vertex() -> impl Strategy<Value = [f32; 4]> {
    [coordinate(), coordinate(), coordinate(), coordinate()]
}

fn state() -> impl Strategy<Value = RasterState> {
    (
        prop::sample::select(DepthTest::NAMES.map(|(_, t)| t).to_vec()),
        any::<bool>(),
        prop::sample::select(vec![CullMode::Disabled, CullMode::Back, CullMode::Front]),
        prop::sample::select(vec![
            BlendMode::Replace,
            BlendMode::Alpha,
            BlendMode::Additive,
        ]),
    )
        .prop_map(|(depth_test, depth_write, cull, blend)| RasterState {
            depth_test,
            depth_write,
            cull,
            blend,
            ..RasterState::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_triangles_never_panic(
        positions in prop::collection::vec(vertex(), 3..10),
        state in state(),
        size in (1u32..40, 1u32..40),
    ) {
        let n = positions.len();
        let varyings = (0..n).map(|i| vec![i as f32, 0.5]).collect();
        let mesh = Mesh::with_varyings(positions, varyings);
        let mut fb = framebuffer(size.0, size.1);
        let stats = draw(&mut fb, &mesh, None, &VaryingColor, state);
        prop_assert_eq!(stats.triangles_in, (n / 3) as u64);
        prop_assert!(stats.fragments_written <= stats.fragments_covered);
        prop_assert!(stats.fragments_shaded + stats.fragments_depth_failed == stats.fragments_covered);
    }

    #[test]
    fn a_single_triangle_covers_each_pixel_at_most_once(
        positions in prop::collection::vec([-4.0f32..4.0, -4.0f32..4.0, -2.0f32..2.0, 0.1f32..2.0], 3),
    ) {
        let mut fb = framebuffer(24, 20);
        let stats = draw(&mut fb, &Mesh::new(positions), None, &Flat::new([0.5; 4]), additive());
        let pixels: usize = red(&fb).iter().flatten().map(|&r| usize::from(r == 128)).sum();
        prop_assert!(red(&fb).iter().flatten().all(|&r| r == 0 || r == 128));
        prop_assert_eq!(pixels as u64, stats.fragments_written);
    }
}
