//! Lookups on GL 3.3 targets against values worked out by hand.

use super::*;
use crate::texture::{Filter, MinFilter};
use csir::exec::{TexLod, TexRequest};

fn req(coord: [f32; 4]) -> TexRequest {
    TexRequest {
        coord,
        lod: TexLod::Level(0.0),
        offset: [0; 3],
    }
}

fn linear() -> GlSampler {
    GlSampler {
        mag_filter: Filter::Linear,
        min_filter: MinFilter::Linear,
        ..GlSampler::default()
    }
}

/// A `w × h × d` texture whose texel (x, y, z) is (x, y, z, 1).
fn ramp(target: TexTarget, format: TexFormat, [w, h, d]: [u32; 3]) -> GlTexture {
    let mut texels = Vec::new();
    for z in 0..d {
        for y in 0..h {
            for x in 0..w {
                texels.push([x as f32, y as f32, z as f32, 1.0]);
            }
        }
    }
    GlTexture::new(target, format, [w, h, d], texels).unwrap()
}

#[test]
fn array_layers_round_and_clamp() {
    let t = ramp(TexTarget::D2Array, TexFormat::Rgba32f, [2, 2, 3]);
    let s = GlSampler::default();
    // floor(r + 0.5): 1.49 → 1, 1.5 → 2, −7 → 0, 9 → 2.
    for (r, layer) in [
        (1.49, 1.0),
        (1.5, 2.0),
        (-7.0, 0.0),
        (9.0, 2.0),
        (f32::NAN, 0.0),
    ] {
        assert_eq!(
            t.lookup(&s, &req([0.75, 0.25, r, 0.0])),
            [1.0, 0.0, layer, 1.0],
            "r = {r}"
        );
    }
}

#[test]
fn three_d_filters_trilinearly() {
    let t = ramp(TexTarget::D3, TexFormat::Rgba32f, [2, 2, 2]);
    // The centre of the texture is the mean of all 8 texels.
    assert_eq!(
        t.lookup(&linear(), &req([0.5, 0.5, 0.5, 0.0])),
        [0.5, 0.5, 0.5, 1.0]
    );
    // Along r only: a quarter of the way from layer 0's centre to layer 1's.
    let v = t.lookup(&linear(), &req([0.25, 0.25, 0.375, 0.0]));
    assert_eq!(v, [0.0, 0.0, 0.25, 1.0]);
}

#[test]
fn cube_faces_follow_the_major_axis() {
    // +x: sc = −rz, tc = −ry; −y: sc = rx, tc = −rz; z wins ties over x and y.
    assert_eq!(cube_face([1.0, 0.5, 0.25]).0, 0);
    let (face, s, t, _) = cube_face([1.0, 0.5, 0.25]);
    assert_eq!((face, s, t), (0, 0.5 - 0.125, 0.5 - 0.25));
    let (face, s, t, _) = cube_face([0.5, -1.0, 0.25]);
    assert_eq!((face, s, t), (3, 0.75, 0.5 - 0.125));
    assert_eq!(cube_face([1.0, 1.0, 1.0]).0, 4);
    assert_eq!(cube_face([-1.0, 1.0, -1.0]).0, 5);
    assert_eq!(cube_face([1.0, 1.0, 0.0]).0, 2);
    let faces: Vec<[f32; 4]> = (0..6).map(|f| [f as f32, 0.0, 0.0, 1.0]).collect();
    let cube = GlTexture::new(TexTarget::Cube, TexFormat::Rgba32f, [1, 1, 6], faces).unwrap();
    let s = GlSampler::default();
    for (dir, face) in [
        ([2.0, 0.1, 0.1], 0.0),
        ([-2.0, 0.1, 0.1], 1.0),
        ([0.1, 2.0, 0.1], 2.0),
        ([0.1, -2.0, 0.1], 3.0),
        ([0.1, 0.1, 2.0], 4.0),
        ([0.1, 0.1, -2.0], 5.0),
    ] {
        let v = cube.lookup(&s, &req([dir[0], dir[1], dir[2], 0.0]));
        assert_eq!(v[0], face, "{dir:?}");
    }
}

#[test]
fn shadow_compares_each_tap_then_filters() {
    // 2×1 depths 0.2 and 0.8, reference 0.5 with LEQUAL: taps give 0 and 1.
    let t = GlTexture::new(
        TexTarget::D2,
        TexFormat::Depth32f,
        [2, 1, 1],
        vec![[0.2, 0.0, 0.0, 1.0], [0.8, 0.0, 0.0, 1.0]],
    )
    .unwrap();
    let s = GlSampler {
        compare: Some(CompareFunc::Lequal),
        ..linear()
    };
    // s = 0.5 is half way between the texel centres: (0 + 1) / 2.
    assert_eq!(
        t.lookup(&s, &req([0.5, 0.5, 0.5, 0.0])),
        [0.5, 0.5, 0.5, 1.0]
    );
    // s = 0.375: a quarter of the way.
    assert_eq!(t.lookup(&s, &req([0.375, 0.5, 0.5, 0.0]))[0], 0.25);
    // Comparing the filtered depth (0.5 <= 0.5) would give 1 instead.
    let nearest = GlSampler {
        compare: Some(CompareFunc::Greater),
        ..GlSampler::default()
    };
    assert_eq!(t.lookup(&nearest, &req([0.1, 0.5, 0.5, 0.0]))[0], 1.0);
}

#[test]
fn border_colour_is_converted_to_the_format() {
    let t = GlTexture::new(
        TexTarget::D2,
        TexFormat::R8,
        [1, 1, 1],
        vec![[1.0, 0.0, 0.0, 1.0]],
    )
    .unwrap();
    let s = GlSampler {
        wrap: [GlWrap::ClampToBorder; 3],
        border_color: [0.25, 0.5, 0.75, 0.0],
        ..GlSampler::default()
    };
    assert_eq!(
        t.lookup(&s, &req([1.5, 0.5, 0.0, 0.0])),
        [64.0 / 255.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        t.lookup(&s, &req([0.5, 0.5, 0.0, 0.0])),
        [1.0, 0.0, 0.0, 1.0]
    );
    // Linear at the edge: half texel, half border.
    let v = t.lookup(
        &GlSampler {
            mag_filter: Filter::Linear,
            ..s
        },
        &req([1.0, 0.5, 0.0, 0.0]),
    );
    assert_eq!(v[0], 0.5 * (1.0 + 64.0 / 255.0));
}

#[test]
fn wraps_index_as_gl_says() {
    assert_eq!(GlWrap::Repeat.index(-1, 4), Some(3));
    assert_eq!(GlWrap::MirroredRepeat.index(4, 4), Some(3));
    assert_eq!(GlWrap::MirroredRepeat.index(-1, 4), Some(0));
    assert_eq!(GlWrap::MirroredRepeat.index(-5, 4), Some(3));
    assert_eq!(GlWrap::ClampToBorder.index(4, 4), None);
    assert_eq!(GlWrap::ClampToEdge.index(-9, 4), Some(0));
}

#[test]
fn mip_chains_halve_and_fetch_and_size_read_them() {
    let t = ramp(TexTarget::D2Array, TexFormat::Rgba32f, [4, 2, 3]).with_mipmaps();
    assert_eq!(t.levels().len(), 3);
    let s = GlSampler::default();
    assert_eq!(t.size_of(&s, 1), [2, 1, 3]);
    assert_eq!(t.size_of(&s, 3), [0, 0, 0]);
    // Level 1 texel 0 of layer 2: the mean of x 0..2 and y 0..2.
    assert_eq!(t.fetch(&s, [0, 0, 2], 1), [0.5, 0.5, 2.0, 1.0]);
    assert_eq!(t.fetch(&s, [2, 0, 0], 1), [0.0; 4]);
    assert_eq!(t.fetch(&s, [0, 0, 3], 0), [0.0; 4]);
    let lod1 = TexRequest {
        lod: TexLod::Level(1.0),
        ..req([0.1, 0.1, 1.0, 0.0])
    };
    let mip = GlSampler {
        min_filter: MinFilter::NearestMipmapNearest,
        ..s
    };
    assert_eq!(t.lookup(&mip, &lod1), [0.5, 0.5, 1.0, 1.0]);
}

#[test]
fn odd_coordinates_never_panic() {
    let odd = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1e30,
        -1e30,
        -0.0,
    ];
    let targets = [
        ramp(TexTarget::D3, TexFormat::Rgba32f, [3, 2, 5]),
        ramp(TexTarget::D2Array, TexFormat::Rgba32f, [3, 2, 5]),
        ramp(TexTarget::D1Array, TexFormat::Rgba32f, [3, 2, 1]),
    ];
    for t in &targets {
        for w in [
            GlWrap::ClampToEdge,
            GlWrap::Repeat,
            GlWrap::MirroredRepeat,
            GlWrap::ClampToBorder,
        ] {
            let s = GlSampler {
                wrap: [w; 3],
                ..linear()
            };
            for &a in &odd {
                for &b in &odd {
                    let v = t.lookup(&s, &req([a, b, a, b]));
                    assert!(v.iter().all(|c| c.is_finite()), "{v:?}");
                }
            }
        }
    }
}

#[test]
fn depth_mode_places_the_depth_and_the_comparison() {
    // A 2×1 depth texture (0.25, 0.75); nearest lookups at s = 0.25 and 0.75.
    let t = GlTexture::new(
        TexTarget::D2,
        TexFormat::Depth32f,
        [2, 1, 1],
        vec![[0.25, 0.0, 0.0, 1.0], [0.75, 0.0, 0.0, 1.0]],
    )
    .unwrap();
    let plain = GlSampler::default();
    assert_eq!(
        t.lookup(&plain, &req([0.25, 0.5, 0.0, 0.0])),
        [0.25, 0.0, 0.0, 1.0]
    );
    let alpha = t.clone().with_depth_mode(DepthMode::Alpha);
    assert_eq!(
        alpha.lookup(&plain, &req([0.75, 0.5, 0.0, 0.0])),
        [0.0, 0.0, 0.0, 0.75]
    );
    // GL_GREATER with reference 0.5: 0.5 > 0.25 passes (1), 0.5 > 0.75 fails (0).
    let greater = GlSampler {
        compare: Some(CompareFunc::Greater),
        ..GlSampler::default()
    };
    let lum = t.clone().with_depth_mode(DepthMode::Luminance);
    assert_eq!(
        lum.lookup(&greater, &req([0.25, 0.5, 0.5, 0.0])),
        [1.0, 1.0, 1.0, 1.0]
    );
    let intensity = t.clone().with_depth_mode(DepthMode::Intensity);
    assert_eq!(
        intensity.lookup(&greater, &req([0.75, 0.5, 0.5, 0.0])),
        [0.0; 4]
    );
    let red = t.clone().with_depth_mode(DepthMode::Red);
    assert_eq!(
        red.lookup(&greater, &req([0.25, 0.5, 0.5, 0.0])),
        [1.0, 0.0, 0.0, 1.0]
    );
    let alpha_cmp = t.with_depth_mode(DepthMode::Alpha);
    assert_eq!(
        alpha_cmp.lookup(&greater, &req([0.25, 0.5, 0.5, 0.0])),
        [0.0, 0.0, 0.0, 1.0]
    );
}

#[test]
fn explicit_levels_are_read_by_lod() {
    // 4×4 level 0 red, then a 2×2 green and a 1×1 blue level given by hand.
    let red = [1.0, 0.0, 0.0, 1.0];
    let green = [0.0, 1.0, 0.0, 1.0];
    let blue = [0.0, 0.0, 1.0, 1.0];
    let t = GlTexture::new(TexTarget::D2, TexFormat::Rgba8, [4, 4, 1], vec![red; 16])
        .unwrap()
        .with_levels(vec![vec![green; 4], vec![blue; 1]])
        .unwrap();
    assert_eq!(t.levels().len(), 3);
    let s = GlSampler {
        min_filter: MinFilter::NearestMipmapNearest,
        ..GlSampler::default()
    };
    let at = |lod: f32| {
        t.lookup(
            &s,
            &TexRequest {
                coord: [0.5, 0.5, 0.0, 0.0],
                lod: TexLod::Level(lod),
                offset: [0; 3],
            },
        )
    };
    assert_eq!(at(0.0), red);
    assert_eq!(at(1.0), green);
    assert_eq!(at(2.0), blue);
    assert_eq!(at(9.0), blue);
    // Wrong sizes and a level past 1×1 are errors, not panics.
    let base = GlTexture::new(TexTarget::D2, TexFormat::Rgba8, [2, 2, 1], vec![red; 4]).unwrap();
    assert!(base.clone().with_levels(vec![vec![green; 2]]).is_err());
    assert!(
        base.with_levels(vec![vec![green; 1], vec![blue; 1]])
            .is_err()
    );
    let rect = GlTexture::new(TexTarget::Rect, TexFormat::Rgba8, [2, 2, 1], vec![red; 4]).unwrap();
    assert!(rect.with_levels(vec![vec![green; 1]]).is_err());
}

#[test]
fn fixed_point_depth_clamps_the_reference() {
    // Texels 0 and 1; GL_EQUAL with references −1 and 2: a float depth texture
    // compares them as they are (never equal), a fixed-point one clamps them to 0
    // and 1 first (equal at the matching texel).
    let t = GlTexture::new(
        TexTarget::D2,
        TexFormat::Depth32f,
        [2, 1, 1],
        vec![[0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 1.0]],
    )
    .unwrap();
    let equal = GlSampler {
        compare: Some(CompareFunc::Equal),
        ..GlSampler::default()
    };
    assert_eq!(t.lookup(&equal, &req([0.25, 0.5, -1.0, 0.0]))[0], 0.0);
    assert_eq!(t.lookup(&equal, &req([0.75, 0.5, 2.0, 0.0]))[0], 0.0);
    let fixed = t.with_fixed_point_depth();
    assert!(fixed.is_fixed_point_depth());
    assert_eq!(fixed.lookup(&equal, &req([0.25, 0.5, -1.0, 0.0]))[0], 1.0);
    assert_eq!(fixed.lookup(&equal, &req([0.75, 0.5, 2.0, 0.0]))[0], 1.0);
    assert_eq!(fixed.lookup(&equal, &req([0.25, 0.5, 2.0, 0.0]))[0], 0.0);
}
