//! The scalar and SIMD instantiations of every shared function give the same bits,
//! lane by lane, for edge values and random values (architecture.md).

use super::*;
use wide::f32x8;

fn edge_values() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        3.0,
        -3.0,
        1.0 / 3.0,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x8000_0001),
        f32::from_bits(0x007f_ffff),
        f32::MAX,
        f32::MIN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7fc0_1234),
        f32::from_bits(0x7f80_0001),
        std::f32::consts::PI,
        std::f32::consts::FRAC_PI_2,
        -std::f32::consts::FRAC_PI_4,
        1000.0,
        -1000.0,
        1e5,
        1e10,
        -1e30,
        8_388_608.0,
        16_777_217.0,
        0.999_999_94,
        1.000_000_1,
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for i in 0..4000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        v.push(match i % 3 {
            0 => f32::from_bits(state as u32),
            1 => (state as u32 as f32 / u32::MAX as f32 - 0.5) * 2000.0,
            _ => (state as u32 as f32 / u32::MAX as f32 - 0.5) * 8.0,
        });
    }
    v
}

/// Run `scalar` on each value and `simd` on groups of eight; compare bits.
fn check_unary(name: &str, scalar: fn(f32) -> f32, simd: fn(f32x8) -> f32x8) {
    let values = edge_values();
    for chunk in values.chunks(8) {
        let mut lanes = [0.0f32; 8];
        lanes[..chunk.len()].copy_from_slice(chunk);
        let wide = simd(f32x8::new(lanes)).to_array();
        for (i, &x) in lanes.iter().enumerate() {
            assert_eq!(
                scalar(x).to_bits(),
                wide[i].to_bits(),
                "{name}({x:?} = {:#010x})",
                x.to_bits()
            );
        }
    }
}

fn check_binary(name: &str, scalar: fn(f32, f32) -> f32, simd: fn(f32x8, f32x8) -> f32x8) {
    let values = edge_values();
    let edges = &values[..35];
    let mut pairs: Vec<(f32, f32)> = edges
        .iter()
        .flat_map(|&a| edges.iter().map(move |&b| (a, b)))
        .collect();
    pairs.extend(values.windows(2).map(|w| (w[0], w[1] * 0.01)));
    pairs.extend(values.windows(2).map(|w| (w[0].abs(), w[1] * 0.003)));
    for chunk in pairs.chunks(8) {
        let mut a = [0.0f32; 8];
        let mut b = [0.0f32; 8];
        for (i, &(x, y)) in chunk.iter().enumerate() {
            a[i] = x;
            b[i] = y;
        }
        let wide = simd(f32x8::new(a), f32x8::new(b)).to_array();
        for i in 0..8 {
            assert_eq!(
                scalar(a[i], b[i]).to_bits(),
                wide[i].to_bits(),
                "{name}({:?}, {:?})",
                a[i],
                b[i]
            );
        }
    }
}

#[test]
fn unary_functions_match_bit_for_bit() {
    check_unary("sin", sin::<f32>, sin::<f32x8>);
    check_unary("cos", cos::<f32>, cos::<f32x8>);
    check_unary("rsq", rsq::<f32>, rsq::<f32x8>);
    check_unary("rcp", rcp::<f32>, rcp::<f32x8>);
    check_unary("trunc", trunc::<f32>, trunc::<f32x8>);
    check_unary("abs", abs::<f32>, abs::<f32x8>);
}

#[test]
fn binary_functions_match_bit_for_bit() {
    check_binary("pow", pow::<f32>, pow::<f32x8>);
    check_binary("min", min::<f32>, min::<f32x8>);
    check_binary("max", max::<f32>, max::<f32x8>);
}

#[test]
fn pow_int_matches_bit_for_bit() {
    let values = edge_values();
    for n in (-40..=70).chain([-1023, -300, 127, 128, 255, 256, 1000, 1023]) {
        for chunk in values.chunks(8) {
            let mut lanes = [0.0f32; 8];
            lanes[..chunk.len()].copy_from_slice(chunk);
            let wide = pow_int(f32x8::new(lanes), n).to_array();
            let general = pow(f32x8::new(lanes), f32x8::splat(n as f32)).to_array();
            for (i, &x) in lanes.iter().enumerate() {
                let scalar = pow_int(x, n);
                assert_eq!(scalar.to_bits(), wide[i].to_bits(), "pow_int({x:?}, {n})");
                assert_eq!(scalar.to_bits(), general[i].to_bits(), "pow({x:?}, {n})");
            }
        }
    }
}

#[test]
fn pow_with_mixed_exponents_matches_bit_for_bit() {
    // Lanes of one vector mixing integral and other exponents take both paths.
    let values = edge_values();
    let exponents = [48.0, 0.5, -3.0, 1e10, 1023.0, 1024.0, -1023.0, 2.5];
    for chunk in values.chunks(8) {
        let mut lanes = [0.0f32; 8];
        lanes[..chunk.len()].copy_from_slice(chunk);
        let wide = pow(f32x8::new(lanes), f32x8::new(exponents)).to_array();
        for i in 0..8 {
            assert_eq!(
                pow(lanes[i], exponents[i]).to_bits(),
                wide[i].to_bits(),
                "pow({:?}, {})",
                lanes[i],
                exponents[i]
            );
        }
    }
}
