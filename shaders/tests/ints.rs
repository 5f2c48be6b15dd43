//! 32-bit integers in the GLSL front end under the extended profile (see
//! docs/glsl-dialects.md, "32-bit integers"): `int`/`uint` registers hold 32-bit
//! patterns, arithmetic wraps, division and `%` follow GLSL with the edge rules of
//! `exec::math::int`, shifts and bit operators, conversions at every boundary, and
//! the bit-cast built-ins. Every case runs with run-time operands (uniforms holding
//! the patterns) and with the same values as constants (folded): the same bits; the
//! TGSI executor and a CSI v2 round trip agree (`backends::check`). The seed profile
//! names what it cannot compile.

mod backends;
mod common;
use csir::exec::NoSamplers;
use csir::{Limits, Shader, Stage, compile};

const MIN: i32 = i32::MIN;

fn build(src: &str) -> Shader {
    compile(src, "ints.frag", Stage::Fragment, &Limits::EXTENDED)
        .unwrap_or_else(|e| panic!("{e}\n{src}"))
}

fn bits(v: [i32; 4]) -> [f32; 4] {
    v.map(|x| f32::from_bits(x as u32))
}

/// `expr` (an `ivec4` of `a` and `b`) with `a`, `b` as `ivec4` uniforms and as
/// constants: both give the same bits, which are returned as `i32`s.
fn ivec(expr: &str, a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    let body = format!("c = intBitsToFloat(ivec4({expr}));");
    let run_time = build(&format!(
        "#version 330 core\nuniform ivec4 a;\nuniform ivec4 b;\nout vec4 c;\nvoid main() {{ {body} }}\n"
    ));
    let lit = |v: [i32; 4]| format!("ivec4({}, {}, {}, {})", v[0], v[1], v[2], v[3]);
    let folded = build(&format!(
        "#version 330 core\nout vec4 c;\nconst ivec4 a = {};\nconst ivec4 b = {};\nvoid main() {{ {body} }}\n",
        lit(a).replace("-2147483648", "(-2147483647 - 1)"),
        lit(b).replace("-2147483648", "(-2147483647 - 1)")
    ));
    let uniforms = [bits(a), bits(b)];
    backends::check(&run_time, &uniforms, &[]);
    let got = common::run(&run_time, &uniforms, &[], &NoSamplers).color;
    let want = common::run(&folded, &[[0.0; 4]; 2], &[], &NoSamplers).color;
    assert_eq!(
        got.map(f32::to_bits),
        want.map(f32::to_bits),
        "{expr}: run time vs folded"
    );
    got.map(|x| x.to_bits() as i32)
}

/// A fragment shader body's `c` as raw bits (no uniforms).
fn raw(decls: &str, body: &str) -> [u32; 4] {
    let s = build(&format!(
        "#version 330 core\nout vec4 c;\n{decls}\nvoid main() {{ {body} }}\n"
    ));
    backends::check(&s, &[], &[]);
    common::run(&s, &[[0.0; 4]; 1], &[], &NoSamplers)
        .color
        .map(f32::to_bits)
}

#[test]
fn arithmetic_wraps_and_division_follows_glsl() {
    let (a, b) = ([MIN, 7, -7, i32::MAX], [-1, 2, 2, 2]);
    assert_eq!(ivec("a + b", a, b), [i32::MAX, 9, -5, MIN + 1]);
    assert_eq!(ivec("a - b", a, b), [MIN + 1, 5, -9, i32::MAX - 2]);
    assert_eq!(ivec("a * b", a, b), [MIN, 14, -14, -2]);
    // Toward zero; INT_MIN / -1 wraps to INT_MIN (exec::math::int).
    assert_eq!(ivec("a / b", a, b), [MIN, 3, -3, i32::MAX / 2]);
    // The remainder has the dividend's sign.
    assert_eq!(ivec("a % b", a, b), [0, 1, -1, 1]);
    assert_eq!(ivec("-a", a, b), [MIN, -7, 7, -i32::MAX]);
    assert_eq!(ivec("abs(a)", a, b), [MIN, 7, 7, i32::MAX]);
    assert_eq!(ivec("sign(a)", a, b), [-1, 1, -1, 1]);
    assert_eq!(ivec("min(a, b)", a, b), [MIN, 2, -7, 2]);
    assert_eq!(ivec("max(a, b)", a, b), [-1, 7, 2, i32::MAX]);
    assert_eq!(ivec("clamp(a, -3, 3)", a, b), [-3, 3, -3, 3]);
}

#[test]
fn division_by_a_run_time_zero_is_defined() {
    // GLSL leaves it undefined; CSIR gives x / 0 = 0 and x % 0 = -1 (exec::math::int).
    let s = build(
        "#version 330 core\nuniform ivec4 a;\nuniform ivec4 b;\nout vec4 c;\n\
         void main() { c = intBitsToFloat(ivec4(a.x / b.x, a.y % b.y, 0, 0)); }\n",
    );
    let got = common::run(&s, &[bits([5, 5, 0, 0]), [0.0; 4]], &[], &NoSamplers).color;
    assert_eq!([got[0].to_bits() as i32, got[1].to_bits() as i32], [0, -1]);
}

#[test]
fn shifts_and_bit_operators() {
    let (a, b) = ([1, -8, 0x0f0f, -1], [31, 1, 4, 32]);
    assert_eq!(ivec("a << b", a, b), [MIN, -16, 0xf0f0, -1]);
    // >> on int is arithmetic; a count of 32 is a count of 0 (taken modulo 32).
    assert_eq!(ivec("a >> b", a, b), [0, -4, 0xf0, -1]);
    assert_eq!(ivec("a & b", a, b), [1, 0, 4, 32]);
    assert_eq!(ivec("a | b", a, b), [31, -7, 0x0f0f, -1]);
    assert_eq!(ivec("a ^ b", a, b), [30, -7, 0x0f0b, -33]);
    assert_eq!(ivec("~a", a, b), [-2, 7, !0x0f0f, 0]);
    assert_eq!(ivec("a << 2", a, b), [4, -32, 0x3c3c, -4]);
}

#[test]
fn unsigned_integers_are_32_bit() {
    let got = raw(
        "uniform uint z;",
        "uint m = 0xFFFFFFFFu + z; \
         c = uintBitsToFloat(uvec4(m + 1u, m >> 28, m / 16u, uint(m > 1u)));",
    );
    assert_eq!(got, [0, 15, 0x0FFF_FFFF, 1]);
    // Comparisons are unsigned: 0xFFFFFFFFu is the largest.
    let got = raw(
        "uniform uint z;",
        "uint m = 4294967295u + z; \
         c = vec4(m < 2u ? 1.0 : 0.0, m > 2u ? 1.0 : 0.0, float(m), float(int(m)));",
    );
    assert_eq!(got.map(f32::from_bits), [0.0, 1.0, 4294967296.0, -1.0]);
}

#[test]
fn conversions_at_every_boundary() {
    let got = raw(
        "uniform float z;",
        "c = intBitsToFloat(ivec4(int(-0.5 + z), int(2.9 + z), int(-2.9 + z), int(1e10 + z)));",
    );
    // Toward zero, saturating at the int range (exec::math::int: F2I).
    assert_eq!(got.map(|x| x as i32), [0, 2, -2, i32::MAX]);
    let got = raw(
        "uniform float z;",
        "c = uintBitsToFloat(uvec4(uint(3.7 + z), uint(-1.0 + z), uint(5e9 + z), uint(-7)));",
    );
    // uint(-1.0) is undefined in GLSL: CSIR saturates it to 0 (F2U); uint(int) keeps
    // the pattern.
    assert_eq!(got, [3, 0, u32::MAX, (-7i32) as u32]);
    let got = raw(
        "uniform int z;",
        "int big = 16777217 + z; int m = (-2147483647 - 1) + z; \
         c = vec4(float(big), float(m), bool(m) ? 1.0 : 0.0, float(true) + float(z));",
    );
    assert_eq!(
        got.map(f32::from_bits),
        [16777216.0, -2147483648.0, 1.0, 1.0]
    );
    // Implicit int -> float (GLSL 1.20 and later) converts the value.
    let got = raw(
        "uniform int z;",
        "int k = 3 + z; c = vec4(k * 0.5, k + 0.25, 1, k);",
    );
    assert_eq!(got.map(f32::from_bits), [1.5, 3.25, 1.0, 3.0]);
}

#[test]
fn bit_casts_keep_the_pattern() {
    let got = raw(
        "uniform float z;",
        "c = intBitsToFloat(ivec4(floatBitsToInt(-0.0 * (1.0 + z)), floatBitsToInt(1.0), \
         int(floatBitsToUint(2.0) >> 23u), 0x7f800000));",
    );
    assert_eq!(got, [0x8000_0000, 0x3f80_0000, 128, 0x7f80_0000]);
}

#[test]
fn large_literals_are_exact() {
    let got = raw(
        "",
        "c = intBitsToFloat(ivec4(2147483647, 0x7fffffff, 0xffffffff, 16777217));",
    );
    assert_eq!(got, [0x7fff_ffff, 0x7fff_ffff, 0xffff_ffff, 16_777_217]);
}

#[test]
fn run_time_integer_indexes_select_the_element() {
    let s = build(
        "#version 330 core\nuniform ivec4 a;\nuniform uvec4 b;\nout vec4 c;\n\
         void main() { float t[4] = float[4](10.0, 20.0, 30.0, 40.0); \
         vec4 v = vec4(1.0, 2.0, 3.0, 4.0); c = vec4(t[a.x], v[a.y], t[b.x], v[b.y]); }\n",
    );
    let uniforms = [bits([3, 1, 0, 0]), bits([2, 0, 0, 0])];
    backends::check(&s, &uniforms, &[]);
    let got = common::run(&s, &uniforms, &[], &NoSamplers).color;
    assert_eq!(got, [40.0, 2.0, 30.0, 1.0]);
}

#[test]
fn mixing_int_and_uint_is_an_error() {
    let src = "#version 330 core\nuniform int i;\nuniform uint u;\nout vec4 c;\n\
               void main() { c = vec4(float(i + u)); }\n";
    let e = compile(src, "m.frag", Stage::Fragment, &Limits::EXTENDED).unwrap_err();
    assert!(
        e.to_string()
            .contains("int and uint do not convert implicitly"),
        "{e}"
    );
}

#[test]
fn the_seed_profile_names_what_it_lacks() {
    let cases = [
        (
            "uniform uint u;",
            "c = vec4(1.0);",
            "`uint` needs the extended profile",
        ),
        (
            "",
            "c = vec4(float(5u));",
            "`uint` needs the extended profile",
        ),
        (
            "uniform int i;",
            "c = vec4(float(i & 1));",
            "bitwise operators need the extended profile",
        ),
        (
            "uniform int i;",
            "c = vec4(float(~i));",
            "bitwise operators need the extended profile",
        ),
        (
            "",
            "c = vec4(intBitsToFloat(1));",
            "intBitsToFloat needs the extended profile",
        ),
    ];
    for (decls, body, want) in cases {
        let src = format!("#version 330 core\nout vec4 c;\n{decls}\nvoid main() {{ {body} }}\n");
        let e = compile(&src, "s.frag", Stage::Fragment, &Limits::SEED).unwrap_err();
        assert!(e.to_string().contains(want), "{body}: {e}");
    }
}
