//! Regression tests for values that came out wrong on Mesa's piglit GLSL execution
//! tests, one cause per test; each fails on the code
//! before its fix. The rasterizer's cause (a varying equal at the three vertices must
//! interpolate exactly) is tested in `csir-raster` (`stage.rs`).

mod common;
use common::eval;

/// piglit `op-mod-ivec2-int` and friends: the vector `%` used lane x's dividend in
/// every lane (`ivec2(38, 35) % 12` gave (2, 14)).
#[test]
fn vector_modulo_uses_each_lanes_own_dividend() {
    // Run-time operands (uniforms) and folded ones must agree.
    let body = "ivec2 a = ivec2(u.xy); ivec2 r = a % int(v.x); \
                ivec3 b = ivec3(u.xyz) % ivec3(v.yzw); \
                ivec2 s = int(u.w) % ivec2(v.yz); \
                c = vec4(r, b.z, s.y);";
    let got = eval("", body, [38.0, 35.0, 30.0, 17.0], [12.0, 5.0, 7.0, 4.0]);
    // (38 % 12, 35 % 12, 30 % 4, 17 % 7)
    assert_eq!(got, [2.0, 11.0, 2.0, 3.0]);
    let folded = eval(
        "",
        "ivec2 r = ivec2(38, 35) % 12; ivec3 b = ivec3(38, 35, 30) % ivec3(5, 7, 4); \
         c = vec4(r, b.yz);",
        [0.0; 4],
        [0.0; 4],
    );
    assert_eq!(folded, [2.0, 11.0, 0.0, 2.0]);
    let assign = eval(
        "",
        "ivec3 a = ivec3(u.xyz); a %= ivec3(v.xyz); c = vec4(a, 1.0);",
        [38.0, 35.0, 30.0, 0.0],
        [12.0, 5.0, 7.0, 0.0],
    );
    assert_eq!(assign, [2.0, 0.0, 2.0, 1.0]);
}

/// piglit tests that need 32-bit wrapping (`0x69c477b9 * x`, `1 + 2147483647`) got a
/// rounded number: an integer constant CSIR's float registers cannot hold exactly is
/// now an error naming the limit, never a silently different value.
#[test]
fn integers_beyond_two_to_the_24_are_errors_not_wrong_numbers() {
    use common::messages;
    let limit = "is outside -16777215..=16777215 (2^24 - 1)";
    for (body, value) in [
        ("int x = 0x69c477b9 * int(u.x);", "1774483385"),
        ("int x = 1 + 2147483647;", "2147483647"),
        ("int x = 16777216;", "16777216"),
        // Folded results too, not only literals.
        ("int x = 4096 * 4097;", "16781312"),
        ("int x = 16777215 + 2;", "16777216"),
        ("int x = int(3.0e9);", "3000000000"),
    ] {
        let src = common::frag_src("", &format!("{body} c = vec4(float(x));"));
        let m = messages(&src, csir::Stage::Fragment);
        assert!(
            m.iter()
                .any(|m| m.contains(&format!("integer constant {value} {limit}"))),
            "{body}: {m:?}"
        );
    }
    // The largest exact ones still compile and keep their value.
    let got = eval(
        "",
        "int a = 16777215; int b = -16777215; c = vec4(float(a), float(b), 0.0, 1.0);",
        [0.0; 4],
        [0.0; 4],
    );
    assert_eq!(got, [16777215.0, -16777215.0, 0.0, 1.0]);
}
