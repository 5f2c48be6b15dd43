//! Built-in functions against values computed in f64: each one applied to
//! `float`, `vec2`, `vec3` and `vec4` gives the same bits lane for lane
//! (component-wise), within a stated bound of the f64 result, on every back end.
//! Exactness where GLSL or the renderer relies on it: `sqrt(0) = 0`, `floor`, `ceil`,
//! `trunc`, `fract` and `round` exact for every finite f32 tried (huge values,
//! tiny negatives, −0.0, values next to .5).

mod backends;
mod common;
use common::{build, run};
use csir::Stage;
use csir::exec::NoSamplers;

/// How close to the f64 result a lane must be.
#[derive(Clone, Copy, Debug)]
enum Bound {
    /// Bit for bit (the f64 result rounded to f32; −0.0 and +0.0 differ).
    Exact,
    /// Within this many f32 ulps of the f64 result.
    Ulps(u32),
    /// Within this absolute error.
    Abs(f64),
}

fn ulps_between(a: f32, b: f32) -> u32 {
    let key = |x: f32| {
        let i = x.to_bits() as i32;
        if i < 0 { i32::MIN - i } else { i }
    };
    (key(a) as i64 - key(b) as i64).unsigned_abs() as u32
}

fn within(got: f32, want: f64, bound: Bound) -> bool {
    let w = want as f32;
    if want.is_nan() {
        return got.is_nan();
    }
    match bound {
        Bound::Exact => got.to_bits() == w.to_bits(),
        Bound::Ulps(n) => got == w || ulps_between(got, w) <= n,
        Bound::Abs(e) => (got as f64 - want).abs() <= e,
    }
}

/// The four shader bodies that apply `call` (with `X` for the argument list built
/// from `args`) to lanes of u (and v, w) one width at a time.
fn bodies(call: &str, args: usize) -> Vec<String> {
    let arg = |lanes: &str| -> String {
        ["u", "v", "w"][..args]
            .iter()
            .map(|n| format!("{n}.{lanes}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let f = |lanes: &str| call.replace('X', &arg(lanes));
    vec![
        format!("c = vec4({}, {}, {}, {});", f("x"), f("y"), f("z"), f("w")),
        format!("c = vec4({}, {});", f("xy"), f("zw")),
        format!("c = vec4({}, {});", f("xyz"), f("w")),
        format!("c = {};", f("xyzw")),
    ]
}

/// Check `call` on `inputs` (each one argument tuple) against `reference`.
fn check(call: &str, args: usize, inputs: &[[f32; 3]], reference: fn(&[f64]) -> f64, bound: Bound) {
    let shaders: Vec<_> = bodies(call, args)
        .iter()
        .map(|b| build(&common::frag_src("uniform vec4 w;", b), Stage::Fragment))
        .collect();
    for chunk in inputs.chunks(4) {
        let mut uni = [[0.0f32; 4]; 3];
        for (lane, input) in chunk.iter().enumerate() {
            for a in 0..3 {
                uni[a][lane] = input[a];
            }
        }
        let outs: Vec<[f32; 4]> = shaders
            .iter()
            .map(|s| {
                backends::check(s, &uni, &[]);
                run(s, &uni, &[], &NoSamplers).color
            })
            .collect();
        for (lane, input) in chunk.iter().enumerate() {
            let bits: Vec<u32> = outs.iter().map(|o| o[lane].to_bits()).collect();
            assert!(
                bits.iter().all(|b| *b == bits[0]),
                "{call} {input:?}: widths disagree: {:?}",
                outs.iter().map(|o| o[lane]).collect::<Vec<_>>()
            );
            let x: Vec<f64> = input[..args].iter().map(|&v| v as f64).collect();
            let want = reference(&x);
            let got = outs[0][lane];
            assert!(
                within(got, want, bound),
                "{call} {:?}: got {got:e}, want {want:e} ({bound:?})",
                &input[..args]
            );
        }
    }
}

fn one(xs: &[f32]) -> Vec<[f32; 3]> {
    xs.iter().map(|&x| [x, 0.0, 0.0]).collect()
}

/// Finite values across the range: huge, tiny, negative zero, near .5 and integers.
const ROUNDING_INPUTS: &[f32] = &[
    0.0,
    -0.0,
    0.5,
    -0.5,
    1.5,
    2.5,
    -2.5,
    0.49999997,
    -0.49999997,
    1.0e30,
    -1.0e30,
    1.0e-30,
    -1.0e-30,
    8388608.0, // 2^23
    8388609.0, // 2^23 + 1
    4194304.5, // 2^22 + 0.5
    -4194304.5,
    8388607.5,  // 2^23 − 0.5
    16777215.0, // 2^24 − 1
    3.4028235e38,
    -3.4028235e38,
    f32::MIN_POSITIVE,
    -7.25,
    123.75,
];

#[test]
fn rounding_functions_are_exact_for_all_finite_values() {
    let xs = one(ROUNDING_INPUTS);
    check("floor(X)", 1, &xs, |x| x[0].floor(), Bound::Exact);
    check("ceil(X)", 1, &xs, |x| x[0].ceil(), Bound::Exact);
    check("trunc(X)", 1, &xs, |x| x[0].trunc(), Bound::Exact);
    // GLSL: round's direction at .5 is implementation-defined; we round half to even
    // like llvmpipe, and roundEven must.
    let even = |x: &[f64]| {
        let r = x[0].round();
        if (x[0] - x[0].trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
            r - x[0].signum()
        } else {
            r
        }
    };
    // −0.0, −0.5 and −0.49999997 round to −0.0 in f64 but to +0.0 here (r + 1 with
    // r = −1): GLSL does not specify the sign of a zero result, so compare as values.
    let xs_nonneg: Vec<[f32; 3]> = xs
        .iter()
        .copied()
        .filter(|x| !(x[0] > -1.0 && x[0].is_sign_negative()))
        .collect();
    check("round(X)", 1, &xs_nonneg, even, Bound::Exact);
    check("roundEven(X)", 1, &xs_nonneg, even, Bound::Exact);
    check(
        "(round(X) + 0.0)",
        1,
        &one(&[-0.5, -0.49999997, -1.0e-30, -0.0]),
        |_| 0.0,
        Bound::Exact,
    );
    // fract = x − floor(x), in f32 (it is 1.0 for tiny negatives, as in GLSL's formula).
    check(
        "fract(X)",
        1,
        &xs,
        |x| (x[0] as f32 - (x[0] as f32).floor()) as f64,
        Bound::Exact,
    );
}

#[test]
fn sqrt_of_zero_is_zero_and_roots_are_close() {
    check(
        "sqrt(X)",
        1,
        &one(&[0.0, 0.0, 0.0, 0.0]),
        |_| 0.0,
        Bound::Exact,
    );
    let xs = one(&[1.0, 2.0, 0.25, 1.0e-20, 1.0e20, 3.0, 1.0e30, 7.0]);
    check("sqrt(X)", 1, &xs, |x| x[0].sqrt(), Bound::Ulps(2));
    check(
        "inversesqrt(X)",
        1,
        &xs,
        |x| 1.0 / x[0].sqrt(),
        Bound::Ulps(1),
    );
}

#[test]
fn exponential_and_trigonometric_functions_are_close() {
    let xs = one(&[-3.0, -0.5, 0.0, 0.25, 1.0, 2.5, 10.0, -10.0]);
    // exp(x) is POW(e_f32, x): GLSL's bound is 3 + 2|x| ulp.
    check("exp(X)", 1, &xs, |x| x[0].exp(), Bound::Ulps(3 + 2 * 10));
    check("exp2(X)", 1, &xs, |x| x[0].exp2(), Bound::Ulps(2));
    let angles = one(&[0.0, 0.5, -1.0, 3.0, 100.0, -250.5, 1.5707964, 6.2831855]);
    check("sin(X)", 1, &angles, |x| x[0].sin(), Bound::Abs(2e-6));
    check("cos(X)", 1, &angles, |x| x[0].cos(), Bound::Abs(2e-6));
    let small = one(&[0.0, 0.5, -1.0, 1.2, -0.3, 0.785, 1.0e-3, 2.0]);
    check("tan(X)", 1, &small, |x| x[0].tan(), Bound::Abs(2e-5));
    check(
        "radians(X)",
        1,
        &one(&[180.0, -90.0, 45.0, 0.0]),
        |x| x[0].to_radians(),
        Bound::Ulps(1),
    );
    check(
        "degrees(X)",
        1,
        &one(&[std::f32::consts::PI, -1.0, 0.5, 0.0]),
        |x| x[0].to_degrees(),
        Bound::Ulps(1),
    );
    let pairs: Vec<[f32; 3]> = [
        [2.0, 10.0],
        [0.5, 0.5],
        [9.0, 0.5],
        [3.0, -2.0],
        [0.0, 2.0],
        [1.5, 2.2],
        [10.0, 3.0],
        [0.1, 0.0],
    ]
    .iter()
    .map(|p| [p[0], p[1], 0.0])
    .collect();
    check("pow(X)", 2, &pairs, |x| x[0].powf(x[1]), Bound::Ulps(2));
}

#[test]
fn common_functions_are_componentwise_and_close() {
    let xs = one(&[-2.5, -0.0, 0.0, 0.75, 3.0, -1.0e-30, 1.0e30, 42.0]);
    check("abs(X)", 1, &xs, |x| x[0].abs(), Bound::Exact);
    check(
        "sign(X)",
        1,
        &one(&[-2.5, 0.75, 3.0, -1.0e-30, 1.0e30, 42.0, -7.0, 0.5]),
        |x| x[0].signum(),
        Bound::Exact,
    );
    check(
        "(sign(X) + 0.0)",
        1,
        &one(&[0.0, -0.0, 0.0, -0.0]),
        |_| 0.0,
        Bound::Exact,
    );
    let pairs: Vec<[f32; 3]> = [
        [1.0, 2.0],
        [-3.0, -4.0],
        [0.5, 0.25],
        [7.0, 7.0],
        [-1.0, 1.0],
        [2.0, -2.0],
        [1e30, -1e30],
        [0.0, 3.0],
    ]
    .iter()
    .map(|p| [p[0], p[1], 0.0])
    .collect();
    check("min(X)", 2, &pairs, |x| x[0].min(x[1]), Bound::Exact);
    check("max(X)", 2, &pairs, |x| x[0].max(x[1]), Bound::Exact);
    check(
        "step(X)",
        2,
        &pairs,
        |x| if x[1] < x[0] { 0.0 } else { 1.0 },
        Bound::Exact,
    );
    // mod(x, y) = x − y·floor(x/y), with x/y = x·rcp(y) (the seed's division).
    let mods: Vec<[f32; 3]> = [
        [5.5, 2.0],
        [-1.0, 3.0],
        [7.0, 0.5],
        [9.0, 3.0],
        [-7.25, 2.0],
        [100.0, 7.0],
        [0.3, 0.1],
        [1.0, -3.0],
    ]
    .iter()
    .map(|p| [p[0], p[1], 0.0])
    .collect();
    check(
        "mod(X)",
        2,
        &mods,
        |x| x[0] - x[1] * (x[0] / x[1]).floor(),
        Bound::Abs(1e-6),
    );
    let triples: Vec<[f32; 3]> = vec![
        [0.5, 0.0, 1.0],
        [-1.0, 0.0, 1.0],
        [2.0, 0.0, 1.0],
        [0.25, -1.0, 0.5],
        [3.0, 1.0, 2.0],
        [1.0, 1.0, 1.0],
        [-0.5, -1.0, 0.0],
        [10.0, 20.0, 30.0],
    ];
    check(
        "clamp(X)",
        3,
        &triples,
        |x| x[0].max(x[1]).min(x[2]),
        Bound::Exact,
    );
    check(
        "mix(X)",
        3,
        &triples,
        |x| x[0] * (1.0 - x[2]) + x[1] * x[2],
        Bound::Ulps(2),
    );
    let steps: Vec<[f32; 3]> = vec![
        [0.0, 1.0, 0.5],
        [0.0, 1.0, -1.0],
        [0.0, 1.0, 2.0],
        [1.0, 3.0, 1.5],
        [-1.0, 1.0, 0.25],
        [0.2, 0.4, 0.3],
        [0.0, 2.0, 2.0],
        [5.0, 6.0, 5.9],
    ];
    check(
        "smoothstep(X)",
        3,
        &steps,
        |x| {
            let t = ((x[2] - x[0]) / (x[1] - x[0])).clamp(0.0, 1.0);
            t * t * (3.0 - 2.0 * t)
        },
        Bound::Abs(1e-6),
    );
}

#[test]
fn inverse_trigonometric_and_hyperbolic_functions_are_close() {
    let ts = one(&[0.0, 0.5, -1.0, 3.0, -100.0, 1.0e-3, 0.999, -7.5]);
    check("atan(X)", 1, &ts, |x| x[0].atan(), Bound::Abs(3e-7));
    let pairs: Vec<[f32; 3]> = [
        [1.0, 1.0],
        [1.0, -1.0],
        [-1.0, -1.0],
        [-2.0, 0.5],
        [0.0, -3.0],
        [3.0, 0.0],
        [-0.25, 10.0],
        [5.0, -0.1],
    ]
    .iter()
    .map(|p| [p[0], p[1], 0.0])
    .collect();
    check("atan(X)", 2, &pairs, |x| x[0].atan2(x[1]), Bound::Abs(5e-7));
    let unit = one(&[0.0, 0.5, -0.5, 0.9, -0.99, 1.0, -1.0, 0.1]);
    check("asin(X)", 1, &unit, |x| x[0].asin(), Bound::Abs(5e-4));
    check("acos(X)", 1, &unit, |x| x[0].acos(), Bound::Abs(5e-4));
    let inner = one(&[0.0, 0.5, -0.5, 0.3, -0.8, 0.7, -0.1, 0.25]);
    check("asin(X)", 1, &inner, |x| x[0].asin(), Bound::Abs(5e-7));
    check("acos(X)", 1, &inner, |x| x[0].acos(), Bound::Abs(5e-7));
    let xs = one(&[0.0, 0.5, -1.0, 2.0, -3.0, 10.0, 0.01, -0.25]);
    check("sinh(X)", 1, &xs, |x| x[0].sinh(), Bound::Ulps(64));
    check("cosh(X)", 1, &xs, |x| x[0].cosh(), Bound::Ulps(64));
    check("tanh(X)", 1, &xs, |x| x[0].tanh(), Bound::Abs(3e-7));
    check(
        "tanh(X)",
        1,
        &one(&[100.0, -100.0, 50.0, -50.0]),
        |x| x[0].tanh(),
        Bound::Exact,
    );
}
