//! Fragment colour outputs in TGSI (GLSL 3.30 §4.3.8.2, GL 3.3 §4.1.8): the output
//! of `layout(location = k)` is `OUT[k], COLOR[k]`, every location up to the highest
//! is declared (in order, so a host that leaves locations past 1 to its linker
//! places each at its own), and the second source colour of dual-source blending
//! (`layout(location = 0, index = 1)`) is `OUT[1], COLOR[1]`, as Gallium declares it.

use csir::tgsi::TgsiError;
use csir::{Limits, Stage, compile, emit_tgsi};

/// The TGSI of fragment shader `src`, compiled under the extended profile (the
/// seed's allows one output at location 0).
fn tgsi(src: &str) -> Result<String, TgsiError> {
    let shader = compile(src, "test", Stage::Fragment, &Limits::EXTENDED)
        .unwrap_or_else(|e| panic!("compile failed:\n{e}\n{src}"));
    emit_tgsi(&shader, None, None)
}

#[test]
fn each_location_writes_its_own_colour_output() {
    let text = tgsi(
        "#version 330 core\nlayout(location = 0) out vec4 a;\nlayout(location = 2) out vec4 b;\n\
         void main() { a = vec4(0.25); b = vec4(0.5); }\n",
    )
    .unwrap();
    let decls: Vec<&str> = text.lines().filter(|l| l.starts_with("DCL OUT")).collect();
    assert_eq!(
        decls,
        [
            "DCL OUT[0], COLOR",
            "DCL OUT[1], COLOR[1]",
            "DCL OUT[2], COLOR[2]"
        ]
    );
    // Each output is written once; location 1, which the shader does not write, is
    // zero.
    let mov_to = |k: usize| -> Vec<&str> {
        text.lines()
            .filter(|l| l.contains(&format!("MOV OUT[{k}]")))
            .collect()
    };
    assert_eq!(mov_to(0).len(), 1, "{text}");
    assert_eq!(mov_to(1).len(), 1, "{text}");
    assert_eq!(mov_to(2).len(), 1, "{text}");
    let imm_of = |line: &str| {
        line.rsplit("IMM[")
            .next()
            .unwrap()
            .split(']')
            .next()
            .unwrap()
            .to_owned()
    };
    let zero_imm = imm_of(mov_to(1)[0]);
    let imm_line = |k: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("IMM[{k}]")))
            .unwrap()
            .to_owned()
    };
    assert!(imm_line(&zero_imm).contains("0x00000000, 0x00000000, 0x00000000, 0x00000000"));
}

#[test]
fn a_single_output_keeps_its_one_colour_declaration() {
    let text = tgsi("#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n").unwrap();
    let decls: Vec<&str> = text.lines().filter(|l| l.starts_with("DCL OUT")).collect();
    assert_eq!(decls, ["DCL OUT[0], COLOR"]);
}

#[test]
fn the_second_source_colour_is_color_1() {
    let text = tgsi(
        "#version 330 core\nlayout(location = 0, index = 0) out vec4 c;\n\
         layout(location = 0, index = 1) out vec4 f;\n\
         void main() { c = vec4(0.25); f = vec4(0.75); }\n",
    )
    .unwrap();
    let decls: Vec<&str> = text.lines().filter(|l| l.starts_with("DCL OUT")).collect();
    assert_eq!(decls, ["DCL OUT[0], COLOR", "DCL OUT[1], COLOR[1]"]);
    assert!(text.contains("MOV OUT[1], "), "{text}");
}

#[test]
fn location_1_beside_a_second_source_colour_is_refused() {
    let err = tgsi(
        "#version 330 core\nlayout(location = 0, index = 0) out vec4 c;\n\
         layout(location = 0, index = 1) out vec4 f;\nlayout(location = 1) out vec4 g;\n\
         void main() { c = vec4(0.25); f = vec4(0.75); g = vec4(1.0); }\n",
    );
    assert_eq!(err, Err(TgsiError::ColorOutputs));
}
