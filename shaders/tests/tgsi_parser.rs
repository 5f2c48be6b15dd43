//! The test-only TGSI parser accepts what virglrenderer's `tgsi_text` parser accepts
//! and rejects what it (or `tgsi_sanity`) rejects (docs/tgsi-text.md §1), so that the
//! other TGSI tests can trust "it parses".

mod tgsi_common;

use tgsi_common::parse::{RegFile, parse};

/// docs/tgsi-text.md §3, first example (with `CONST[0..3]` 1-D constants).
const NOTES_VERTEX: &str = "VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[0..3]
DCL TEMP[0], LOCAL
  0: MUL TEMP[0], CONST[0], IN[0].xxxx
  1: MAD TEMP[0], CONST[1], IN[0].yyyy, TEMP[0]
  2: MAD TEMP[0], CONST[2], IN[0].zzzz, TEMP[0]
  3: MAD OUT[0], CONST[3], IN[0].wwww, TEMP[0]
  4: MOV OUT[1], IN[1]
  5: END
";

/// docs/tgsi-text.md §3, second example.
const NOTES_FRAGMENT: &str = "FRAG
PROPERTY FS_COORD_ORIGIN LOWER_LEFT
PROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL CONST[0]
DCL TEMP[0..1], LOCAL
IMM[0] FLT32 {0x3f800000, 0x00000000, 0x3f000000, 0x00000000}
  0: TEX TEMP[0], IN[0].xyyy, SAMP[0], 2D
  1: SLT TEMP[1].x, TEMP[0].wwww, IMM[0].zzzz
  2: IF TEMP[1].xxxx :4
  3:   KILL
  4: ENDIF
  5: MUL OUT[0], TEMP[0], CONST[0]
  6: END
";

fn rejects(text: &str, message: &str) {
    match parse(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => assert!(
            e.message.contains(message),
            "expected `{message}`, got `{e}` for:\n{text}"
        ),
    }
}

#[test]
fn the_notes_examples_parse() {
    let vs = parse(NOTES_VERTEX).unwrap();
    assert_eq!(vs.instructions.len(), 6);
    assert_eq!(vs.declarations.len(), 6);
    let fs = parse(NOTES_FRAGMENT).unwrap();
    assert_eq!(fs.immediates, vec![[0x3f800000, 0, 0x3f000000, 0]]);
    assert_eq!(fs.instructions[2].label, Some(4));
    assert_eq!(
        fs.properties[0],
        ("FS_COORD_ORIGIN".into(), "LOWER_LEFT".into())
    );
    let sview = fs
        .declarations
        .iter()
        .find(|d| d.file == RegFile::Sview)
        .unwrap();
    assert_eq!(sview.sview, Some(("2D", vec!["FLOAT"])));
}

#[test]
fn modifiers_two_dimensional_constants_and_saturate_parse() {
    let text = "FRAG
DCL IN[0], GENERIC[3], PERSPECTIVE, CENTROID
DCL IN[1], POSITION, LINEAR
DCL OUT[0], COLOR
DCL CONST[0][0..1]
DCL TEMP[0]
IMM[0] FLT32 {1.0, -.5, 2., 0x7fc00000}
  0: ADD TEMP[0].xz, IN[0], -|CONST[0][1].xyzx|
  1: MAD_SAT OUT[0], TEMP[0], IMM[0], IN[1]
  2: END
";
    let p = parse(text).unwrap();
    let add = &p.instructions[0];
    assert_eq!(add.dst.unwrap().mask, 0b0101);
    assert!(add.src[1].negate && add.src[1].abs);
    assert_eq!(add.src[1].reg.dim, Some(0));
    assert_eq!(add.src[1].swizzle, [0, 1, 2, 0]);
    assert!(p.instructions[1].saturate);
    assert_eq!(
        p.immediates[0],
        [
            1.0f32.to_bits(),
            (-0.5f32).to_bits(),
            2.0f32.to_bits(),
            0x7fc00000
        ]
    );
}

#[test]
fn one_letter_source_swizzles_are_rejected() {
    rejects(
        "VERT\nDCL OUT[0], POSITION\nDCL TEMP[0]\n  0: MOV OUT[0], TEMP[0].x\n  1: END\n",
        "swizzle component",
    );
    rejects(
        "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  0: IF TEMP[0].x\n  1: ENDIF\n  2: END\n",
        "swizzle component",
    );
}

#[test]
fn reordered_or_empty_write_masks_are_rejected() {
    rejects(
        "VERT\nDCL OUT[0], POSITION\nDCL TEMP[0..1]\n  0: MOV TEMP[0].yx, TEMP[1]\n  1: END\n",
        "Expected `,'",
    );
    rejects(
        "VERT\nDCL OUT[0], POSITION\nDCL TEMP[0..1]\n  0: MOV TEMP[0]., TEMP[1]\n  1: END\n",
        "Writemask expected",
    );
}

#[test]
fn declarations_after_instructions_are_rejected() {
    rejects(
        "VERT\nDCL OUT[0], POSITION\nDCL TEMP[0]\n  0: MOV TEMP[0], TEMP[0]\nDCL TEMP[1]\n  1: END\n",
        "Instruction expected but declaration found",
    );
    rejects(
        "VERT\nDCL OUT[0], POSITION\nDCL TEMP[0]\n  0: MOV TEMP[0], TEMP[0]\nIMM[0] FLT32 {0x00000000, 0x00000000, 0x00000000, 0x00000000}\n  1: END\n",
        "Instruction expected but immediate found",
    );
}

#[test]
fn end_must_be_present_once_and_last() {
    rejects("VERT\nDCL OUT[0], POSITION\n", "Missing END");
    rejects(
        "VERT\nDCL TEMP[0]\n  0: MOV TEMP[0], TEMP[0]\n",
        "Missing END",
    );
    rejects("VERT\n  0: END\n  1: END\n", "Too many END");
    rejects(
        "VERT\nDCL TEMP[0]\n  0: END\n  1: MOV TEMP[0], TEMP[0]\n",
        "Instruction after END",
    );
}

#[test]
fn floats_must_be_hex_or_plain_decimals_and_immediates_four_and_sorted() {
    let imm = |values: &str| format!("VERT\nIMM[0] FLT32 {{{values}}}\n  0: END\n");
    assert!(parse(&imm("0x3f800000, 1.5, -2.25e3, .5")).is_ok());
    rejects(
        &imm("inf, 0x00000000, 0x00000000, 0x00000000"),
        "Expected immediate constant",
    );
    rejects(
        &imm("nan, 0x00000000, 0x00000000, 0x00000000"),
        "Expected immediate constant",
    );
    rejects(
        &imm("0x3f80, 0x00000000, 0x00000000, 0x00000000"),
        "eight hex digits",
    );
    rejects(
        &imm("0x3f8000000, 0x00000000, 0x00000000, 0x00000000"),
        "eight hex digits",
    );
    rejects(
        &imm("1e, 0x00000000, 0x00000000, 0x00000000"),
        "Expected immediate constant",
    );
    rejects(&imm("1.0, 2.0, 3.0"), "Expected `,'");
    rejects(&imm("1.0, 2.0, 3.0, 4.0, 5.0"), "Expected `}'");
    rejects(
        "VERT\nIMM[1] FLT32 {1.0, 2.0, 3.0, 4.0}\n  0: END\n",
        "Immediates must be sorted",
    );
}

#[test]
fn undeclared_or_doubly_declared_registers_are_rejected() {
    rejects(
        "VERT\nDCL OUT[0], POSITION\n  0: MOV OUT[0], TEMP[0]\n  1: END\n",
        "Undeclared Temp",
    );
    rejects(
        "VERT\nDCL OUT[0], POSITION\nDCL TEMP[0]\n  0: MOV OUT[0], IMM[0]\n  1: END\n",
        "Undeclared Imm",
    );
    rejects(
        "VERT\nDCL OUT[0], POSITION\nDCL CONST[0][0..3]\n  0: MOV OUT[0], CONST[4]\n  1: END\n",
        "Undeclared Const",
    );
    rejects(
        "VERT\nDCL TEMP[0..3]\nDCL TEMP[2]\n  0: END\n",
        "declared more than once",
    );
    rejects(
        "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nDCL SAMP[0]\n  0: TEX TEMP[0], TEMP[0], SAMP[0], 2D\n  1: END\n",
        "no sampler view",
    );
}

#[test]
fn carriage_returns_unknown_opcodes_and_bad_semantics_are_rejected() {
    rejects("VERT\r\n  0: END\r\n", "Syntax error");
    rejects(
        "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n  0: TEX_LZ TEMP[0], TEMP[0], SAMP[0], 2D\n  1: END\n",
        "Unknown opcode",
    );
    rejects("VERT\nDCL IN[0], POSITION\n  0: END\n", "Syntax error");
    rejects("FRAG\nDCL IN[0]\n  0: END\n", "needs a semantic");
    rejects(
        "VERT\nPROPERTY FS_COORD_ORIGIN BOTTOM\n  0: END\n",
        "coord origin",
    );
    rejects("FRAG\n  0: IF TEMP[0].xxxx\n  1: END\n", "Undeclared");
    rejects(
        "FRAG\nDCL TEMP[0]\n  0: IF TEMP[0].xxxx\n  1: END\n",
        "Unbalanced IF",
    );
    rejects(
        "FRAG\nDCL TEMP[0]\n  0: MOV TEMP[0] TEMP[0]\n  1: END\n",
        "Expected `,'",
    );
}
