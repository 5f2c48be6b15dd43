//! Golden tests: the exact TGSI text for a few small shaders — built by hand as CSIR,
//! and compiled from the stock sources (these follow the front end's lowering, so a
//! change there shows up here) — the parity dump, the byte budget and invalid input.

mod tgsi_common;

use csir::ir::{Ir, Op, Type};
use csir::tgsi::{TgsiError, VIRGL_BUDGET, emit_tgsi, parity_dump};
use csir::{Limits, Program, Shader, Stage, compile};
use tgsi_common::hand;

/// Fragment slot 0 linked to vertex slot 2.
const REMAP: &[i16] = &[2, -1, -1, -1, -1, -1, -1, -1];

/// `out vec4 c; c = vec4(1, 0, 0, 1);` — the unread fragment position is not declared, and
/// the constant is one hex immediate (deduplicated with the prologue's zero).
const CONSTANT_COLOR: &str = r#"FRAG
DCL OUT[0], COLOR
DCL TEMP[0..3]
IMM[0] FLT32 {0x00000000, 0x00000000, 0x00000000, 0x00000000}
IMM[1] FLT32 {0x3f800000, 0x00000000, 0x00000000, 0x3f800000}
  0: MOV TEMP[2], IMM[0]
  1: MOV TEMP[1], TEMP[2]
  2: MOV TEMP[3], IMM[1]
  3: MOV TEMP[1], TEMP[3]
  4: MOV OUT[0], TEMP[1]
  5: END
"#;

/// `gl_Position = uMVP * vec4(aPos, 1.0); vPos = aPos;` — MULMV as MUL + 3 MAD over the
/// matrix columns in `CONST[0][0..3]`, one column per slot.
const MVP_VERTEX: &str = r#"VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[0][0..3]
DCL TEMP[0..12]
IMM[0] FLT32 {0x00000000, 0x00000000, 0x00000000, 0x00000000}
IMM[1] FLT32 {0x3f800000, 0x00000000, 0x00000000, 0x00000000}
  0: MOV TEMP[1], IMM[0]
  1: MOV TEMP[0], TEMP[1]
  2: MOV TEMP[2], CONST[0][0]
  3: MOV TEMP[3], CONST[0][1]
  4: MOV TEMP[4], CONST[0][2]
  5: MOV TEMP[5], CONST[0][3]
  6: MOV TEMP[6], IN[0]
  7: MOV TEMP[8], IMM[0]
  8: MOV TEMP[7], TEMP[8]
  9: MOV TEMP[9], IMM[1]
 10: MOV TEMP[11], IMM[0]
 11: MOV TEMP[10], TEMP[11]
 12: MOV TEMP[10].x, TEMP[6].xxxx
 13: MOV TEMP[10].y, TEMP[6].yyyy
 14: MOV TEMP[10].z, TEMP[6].zzzz
 15: MOV TEMP[10].w, TEMP[9].xxxx
 16: MUL TEMP[12], TEMP[10].xxxx, TEMP[2]
 17: MAD TEMP[12], TEMP[10].yyyy, TEMP[3], TEMP[12]
 18: MAD TEMP[12], TEMP[10].zzzz, TEMP[4], TEMP[12]
 19: MAD TEMP[12], TEMP[10].wwww, TEMP[5], TEMP[12]
 20: MOV TEMP[0], TEMP[12]
 21: MOV OUT[0], TEMP[0]
 22: MOV TEMP[7].xyz, TEMP[6].xyzx
 23: MOV OUT[1], TEMP[7]
 24: END
"#;

/// `fragColor = texture(uTex, vUV) * uTint;` linked with `vUV` at vertex slot 2: the input is
/// `IN[2], GENERIC[2]`, the sampler and its view are declared in the stage that samples.
const TEXTURED_REMAPPED: &str = r#"FRAG
DCL IN[2], GENERIC[2], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL CONST[0][0]
DCL TEMP[0..6]
IMM[0] FLT32 {0x00000000, 0x00000000, 0x00000000, 0x00000000}
  0: MOV TEMP[1], IN[2]
  1: MOV TEMP[2], CONST[0][0]
  2: MOV TEMP[4], IMM[0]
  3: MOV TEMP[3], TEMP[4]
  4: TEX TEMP[5], TEMP[1], SAMP[0], 2D
  5: MUL TEMP[6], TEMP[5], TEMP[2]
  6: MOV TEMP[3], TEMP[6]
  7: MOV OUT[0], TEMP[3]
  8: END
"#;

/// `max(dot(normalize(vN), uL), 0.0)` — DP3, RSQ guarded to the interpreter's RSQ(x ≤ 0) = 0
/// (SLT, CMP, RSQ, MUL in the scratch TEMP[18]), broadcast SWZ with its lane w
/// zeroed, and the vec4 constructor through CONST + MOV + SETLANE.
const LIT: &str = r#"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL CONST[0][0..1]
DCL TEMP[0..18]
IMM[0] FLT32 {0x00000000, 0x00000000, 0x00000000, 0x00000000}
IMM[1] FLT32 {0x3f800000, 0x00000000, 0x00000000, 0x00000000}
  0: MOV TEMP[1], IN[0]
  1: MOV TEMP[2], CONST[0][0]
  2: MOV TEMP[3], CONST[0][1]
  3: MOV TEMP[5], IMM[0]
  4: MOV TEMP[4], TEMP[5]
  5: DP3 TEMP[6].x, TEMP[1], TEMP[1]
  6: SLT TEMP[18].y, IMM[0].xxxx, TEMP[6].xxxx
  7: CMP TEMP[18].x, -TEMP[18].yyyy, TEMP[6].xxxx, IMM[1].xxxx
  8: RSQ TEMP[18].x, TEMP[18].xxxx
  9: MUL TEMP[7].x, TEMP[18].xxxx, TEMP[18].yyyy
 10: MOV TEMP[8].xyz, TEMP[7].xxxx
 11: MOV TEMP[8].w, IMM[0]
 12: MUL TEMP[9].xyz, TEMP[1], TEMP[8]
 13: DP3 TEMP[10].x, TEMP[9], TEMP[2]
 14: MOV TEMP[11], IMM[0]
 15: MAX TEMP[12].x, TEMP[10], TEMP[11]
 16: MOV TEMP[13].xyz, TEMP[12].xxxx
 17: MOV TEMP[13].w, IMM[0]
 18: MUL TEMP[14].xyz, TEMP[3], TEMP[13]
 19: MOV TEMP[15], IMM[1]
 20: MOV TEMP[17], IMM[0]
 21: MOV TEMP[16], TEMP[17]
 22: MOV TEMP[16].x, TEMP[14].xxxx
 23: MOV TEMP[16].y, TEMP[14].yyyy
 24: MOV TEMP[16].z, TEMP[14].zzzz
 25: MOV TEMP[16].w, TEMP[15].xxxx
 26: MOV TEMP[4], TEMP[16]
 27: MOV OUT[0], TEMP[4]
 28: END
"#;

/// IF/ELSE with KILL, and `gl_FragCoord`, declared at `IN[0]` because the remapped varying
/// took `IN[2]`; no `FS_COORD_ORIGIN` property (TGSI's default counts y from row 0, OpenGL's
/// bottom row in a framebuffer-object-like target); IFs read `.xxxx`.
const BRANCHY_REMAPPED: &str = r#"FRAG
DCL IN[0], POSITION, LINEAR
DCL IN[2], GENERIC[2], PERSPECTIVE
DCL OUT[0], COLOR
DCL CONST[0][0..1]
DCL TEMP[0..13]
IMM[0] FLT32 {0x00000000, 0x00000000, 0x00000000, 0x00000000}
IMM[1] FLT32 {0x3f000000, 0x00000000, 0x00000000, 0x00000000}
IMM[2] FLT32 {0x3f800000, 0x00000000, 0x00000000, 0x00000000}
  0: MOV TEMP[0], IN[0]
  1: MOV TEMP[1], IN[2]
  2: MOV TEMP[2], CONST[0][0]
  3: MOV TEMP[3], CONST[0][1]
  4: MOV TEMP[5], IMM[0]
  5: MOV TEMP[4], TEMP[5]
  6: MOV TEMP[6].x, TEMP[1].xxxx
  7: MOV TEMP[6].yzw, IMM[0]
  8: SLT TEMP[7].x, TEMP[3].xxxx, TEMP[6].xxxx
  9: IF TEMP[7].xxxx
 10:   KILL
 11: ELSE
 12:   MOV TEMP[8], IMM[1]
 13:   MOV TEMP[9], TEMP[8].xxxx
 14:   MUL TEMP[10], TEMP[2], TEMP[9]
 15:   MOV TEMP[4], TEMP[10]
 16: ENDIF
 17: MOV TEMP[11].x, TEMP[0].yxxx
 18: MOV TEMP[11].yzw, IMM[0]
 19: MOV TEMP[12], IMM[2]
 20: SLT TEMP[13].x, TEMP[11].xxxx, TEMP[12].xxxx
 21: IF TEMP[13].xxxx
 22:   MOV TEMP[4], TEMP[2]
 23: ENDIF
 24: MOV OUT[0], TEMP[4]
 25: END
"#;

/// The parity dump of the lit shader: MAX is marked; RSQ, guarded, agrees.
const LIT_PARITY: &str = r#"parity lit.frag (fragment): CSIR | TGSI
                         | FRAG
                         | DCL IN[0], GENERIC[0], PERSPECTIVE
                         | DCL OUT[0], COLOR
                         | DCL CONST[0][0..1]
                         | DCL TEMP[0..18]
                         | IMM[0] FLT32 {0x00000000, 0x00000000, 0x00000000, 0x00000000}
                         | IMM[1] FLT32 {0x3f800000, 0x00000000, 0x00000000, 0x00000000}
  %0 = load_fragcoord    | (not emitted: nothing reads %0)
  %1 = load_var          |   0: MOV TEMP[1], IN[0]
  %2 = load_uni aux 0    |   1: MOV TEMP[2], CONST[0][0]
  %3 = load_uni aux 1    |   2: MOV TEMP[3], CONST[0][1]
  %5 = const             |   3: MOV TEMP[5], IMM[0]
  %4 = mov %5            |   4: MOV TEMP[4], TEMP[5]
  %6 = dot %1 %1 aux 3   |   5: DP3 TEMP[6].x, TEMP[1], TEMP[1]
  %7 = rsq %6            |   6: SLT TEMP[18].y, IMM[0].xxxx, TEMP[6].xxxx
                         |   7: CMP TEMP[18].x, -TEMP[18].yyyy, TEMP[6].xxxx, IMM[1].xxxx
                         |   8: RSQ TEMP[18].x, TEMP[18].xxxx
                         |   9: MUL TEMP[7].x, TEMP[18].xxxx, TEMP[18].yyyy
  %8 = swz %7            |  10: MOV TEMP[8].xyz, TEMP[7].xxxx
                         |  11: MOV TEMP[8].w, IMM[0]
  %9 = mul %1 %8         |  12: MUL TEMP[9].xyz, TEMP[1], TEMP[8]
  %10 = dot %9 %2 aux 3  |  13: DP3 TEMP[10].x, TEMP[9], TEMP[2]
  %11 = const aux 4      |  14: MOV TEMP[11], IMM[0]
! %12 = max %10 %11      |  15: MAX TEMP[12].x, TEMP[10], TEMP[11]
!     MAX(a, NaN): interpreter NaN (a > b ? a : b), TGSI a (NaN ignored)
  %13 = swz %12          |  16: MOV TEMP[13].xyz, TEMP[12].xxxx
                         |  17: MOV TEMP[13].w, IMM[0]
  %14 = mul %3 %13       |  18: MUL TEMP[14].xyz, TEMP[3], TEMP[13]
  %15 = const aux 5      |  19: MOV TEMP[15], IMM[1]
  %17 = const aux 6      |  20: MOV TEMP[17], IMM[0]
  %16 = mov %17          |  21: MOV TEMP[16], TEMP[17]
  %16 = lane %14         |  22: MOV TEMP[16].x, TEMP[14].xxxx
  %16 = lane %14 aux 1   |  23: MOV TEMP[16].y, TEMP[14].yyyy
  %16 = lane %14 aux 2   |  24: MOV TEMP[16].z, TEMP[14].zzzz
  %16 = lane %15 aux 3   |  25: MOV TEMP[16].w, TEMP[15].xxxx
  %4 = mov %16           |  26: MOV TEMP[4], TEMP[16]
  store_color %4         |  27: MOV OUT[0], TEMP[4]
                         |  28: END
1 of 24 CSIR instructions differ from TGSI on exceptional values (marked !)
"#;

/// tri.vert (docs/csir-original.md B §3.1 / §5): attributes in, one varying and the
/// position out.
const TRI_VERT: &str = r#"VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0..5]
IMM[0] FLT32 {0x00000000, 0x00000000, 0x00000000, 0x00000000}
  0: MOV TEMP[1], IMM[0]
  1: MOV TEMP[0], TEMP[1]
  2: MOV TEMP[2], IN[0]
  3: MOV TEMP[3], IN[1]
  4: MOV TEMP[5], IMM[0]
  5: MOV TEMP[4], TEMP[5]
  6: MOV TEMP[4], TEMP[3]
  7: MOV OUT[1], TEMP[4]
  8: MOV TEMP[0], TEMP[2]
  9: MOV OUT[0], TEMP[0]
 10: END
"#;

/// tri.frag linked with tri.vert (docs/csir-original.md B §5 example 3), without the
/// original's always-declared `IN[7], POSITION`: nothing reads `gl_FragCoord`.
const TRI_FRAG: &str = r#"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..3]
IMM[0] FLT32 {0x00000000, 0x00000000, 0x00000000, 0x00000000}
  0: MOV TEMP[1], IN[0]
  1: MOV TEMP[3], IMM[0]
  2: MOV TEMP[2], TEMP[3]
  3: MOV TEMP[2], TEMP[1]
  4: MOV OUT[0], TEMP[2]
  5: END
"#;

/// mvp.vert (docs/csir-original.md B §5 example 2): (P·V)·M as two 16-line MULMM chains,
/// then MULMV.
const MVP_VERT: &str = r#"VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[0][0..11]
DCL TEMP[0..26]
IMM[0] FLT32 {0x00000000, 0x00000000, 0x00000000, 0x00000000}
  0: MOV TEMP[1], IMM[0]
  1: MOV TEMP[0], TEMP[1]
  2: MOV TEMP[2], IN[0]
  3: MOV TEMP[3], IN[1]
  4: MOV TEMP[4], CONST[0][0]
  5: MOV TEMP[5], CONST[0][1]
  6: MOV TEMP[6], CONST[0][2]
  7: MOV TEMP[7], CONST[0][3]
  8: MOV TEMP[8], CONST[0][4]
  9: MOV TEMP[9], CONST[0][5]
 10: MOV TEMP[10], CONST[0][6]
 11: MOV TEMP[11], CONST[0][7]
 12: MOV TEMP[12], CONST[0][8]
 13: MOV TEMP[13], CONST[0][9]
 14: MOV TEMP[14], CONST[0][10]
 15: MOV TEMP[15], CONST[0][11]
 16: MOV TEMP[17], IMM[0]
 17: MOV TEMP[16], TEMP[17]
 18: MOV TEMP[16], TEMP[3]
 19: MOV OUT[1], TEMP[16]
 20: MUL TEMP[18], TEMP[8].xxxx, TEMP[12]
 21: MAD TEMP[18], TEMP[8].yyyy, TEMP[13], TEMP[18]
 22: MAD TEMP[18], TEMP[8].zzzz, TEMP[14], TEMP[18]
 23: MAD TEMP[18], TEMP[8].wwww, TEMP[15], TEMP[18]
 24: MUL TEMP[19], TEMP[9].xxxx, TEMP[12]
 25: MAD TEMP[19], TEMP[9].yyyy, TEMP[13], TEMP[19]
 26: MAD TEMP[19], TEMP[9].zzzz, TEMP[14], TEMP[19]
 27: MAD TEMP[19], TEMP[9].wwww, TEMP[15], TEMP[19]
 28: MUL TEMP[20], TEMP[10].xxxx, TEMP[12]
 29: MAD TEMP[20], TEMP[10].yyyy, TEMP[13], TEMP[20]
 30: MAD TEMP[20], TEMP[10].zzzz, TEMP[14], TEMP[20]
 31: MAD TEMP[20], TEMP[10].wwww, TEMP[15], TEMP[20]
 32: MUL TEMP[21], TEMP[11].xxxx, TEMP[12]
 33: MAD TEMP[21], TEMP[11].yyyy, TEMP[13], TEMP[21]
 34: MAD TEMP[21], TEMP[11].zzzz, TEMP[14], TEMP[21]
 35: MAD TEMP[21], TEMP[11].wwww, TEMP[15], TEMP[21]
 36: MUL TEMP[22], TEMP[4].xxxx, TEMP[18]
 37: MAD TEMP[22], TEMP[4].yyyy, TEMP[19], TEMP[22]
 38: MAD TEMP[22], TEMP[4].zzzz, TEMP[20], TEMP[22]
 39: MAD TEMP[22], TEMP[4].wwww, TEMP[21], TEMP[22]
 40: MUL TEMP[23], TEMP[5].xxxx, TEMP[18]
 41: MAD TEMP[23], TEMP[5].yyyy, TEMP[19], TEMP[23]
 42: MAD TEMP[23], TEMP[5].zzzz, TEMP[20], TEMP[23]
 43: MAD TEMP[23], TEMP[5].wwww, TEMP[21], TEMP[23]
 44: MUL TEMP[24], TEMP[6].xxxx, TEMP[18]
 45: MAD TEMP[24], TEMP[6].yyyy, TEMP[19], TEMP[24]
 46: MAD TEMP[24], TEMP[6].zzzz, TEMP[20], TEMP[24]
 47: MAD TEMP[24], TEMP[6].wwww, TEMP[21], TEMP[24]
 48: MUL TEMP[25], TEMP[7].xxxx, TEMP[18]
 49: MAD TEMP[25], TEMP[7].yyyy, TEMP[19], TEMP[25]
 50: MAD TEMP[25], TEMP[7].zzzz, TEMP[20], TEMP[25]
 51: MAD TEMP[25], TEMP[7].wwww, TEMP[21], TEMP[25]
 52: MUL TEMP[26], TEMP[2].xxxx, TEMP[22]
 53: MAD TEMP[26], TEMP[2].yyyy, TEMP[23], TEMP[26]
 54: MAD TEMP[26], TEMP[2].zzzz, TEMP[24], TEMP[26]
 55: MAD TEMP[26], TEMP[2].wwww, TEMP[25], TEMP[26]
 56: MOV TEMP[0], TEMP[26]
 57: MOV OUT[0], TEMP[0]
 58: END
"#;

/// flat.frag linked with flat.vert: `if (vP.x > uCutX) discard;` as SLT with swapped operands,
/// `IF ... .xxxx` and KILL.
const FLAT_FRAG: &str = r#"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL CONST[0][0..1]
DCL TEMP[0..6]
IMM[0] FLT32 {0x00000000, 0x00000000, 0x00000000, 0x00000000}
  0: MOV TEMP[1], IN[0]
  1: MOV TEMP[2], CONST[0][0]
  2: MOV TEMP[3], CONST[0][1]
  3: MOV TEMP[5], IMM[0]
  4: MOV TEMP[4], TEMP[5]
  5: SLT TEMP[6].x, TEMP[3].xxxx, TEMP[1].xxxx
  6: IF TEMP[6].xxxx
  7:   KILL
  8: ENDIF
  9: MOV TEMP[4], TEMP[2]
 10: MOV OUT[0], TEMP[4]
 11: END
"#;

/// tex.frag linked with tex.vert: TEX with the sampler and its view declared in this stage.
const TEX_FRAG: &str = r#"FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0..4]
IMM[0] FLT32 {0x00000000, 0x00000000, 0x00000000, 0x00000000}
  0: MOV TEMP[1], IN[0]
  1: MOV TEMP[3], IMM[0]
  2: MOV TEMP[2], TEMP[3]
  3: TEX TEMP[4], TEMP[1], SAMP[0], 2D
  4: MOV TEMP[2], TEMP[4]
  5: MOV OUT[0], TEMP[2]
  6: END
"#;

#[test]
fn constant_colour() {
    assert_eq!(
        emit_tgsi(&hand::constant_color(), None, None).unwrap(),
        CONSTANT_COLOR
    );
}

#[test]
fn mvp_vertex_shader() {
    assert_eq!(
        emit_tgsi(&hand::mvp_vertex(), None, None).unwrap(),
        MVP_VERTEX
    );
}

#[test]
fn textured_with_a_linked_remap() {
    let text = emit_tgsi(&hand::textured(), Some(REMAP), None).unwrap();
    assert_eq!(text, TEXTURED_REMAPPED);
}

#[test]
fn lit() {
    assert_eq!(emit_tgsi(&hand::lit(), None, None).unwrap(), LIT);
}

#[test]
fn if_else_discard_and_frag_coord_with_a_remap() {
    let text = emit_tgsi(&hand::branchy(), Some(REMAP), None).unwrap();
    assert_eq!(text, BRANCHY_REMAPPED);
}

#[test]
fn parity_dump_marks_max_and_not_the_guarded_rsq() {
    assert_eq!(parity_dump(&hand::lit(), None).unwrap(), LIT_PARITY);
}

#[test]
fn the_byte_budget_counts_the_text_and_its_nul() {
    let shader = hand::lit();
    let len = LIT.len();
    assert_eq!(emit_tgsi(&shader, None, Some(len + 1)).unwrap(), LIT);
    let err = emit_tgsi(&shader, None, Some(len)).unwrap_err();
    assert_eq!(err, TgsiError::Budget { len, budget: len });
    assert!(
        err.to_string()
            .starts_with("TGSI exceeds the VirGL command budget")
    );
    assert!(emit_tgsi(&shader, None, Some(VIRGL_BUDGET)).is_ok());
}

#[test]
fn invalid_shaders_and_remaps_are_errors() {
    let mut shader = hand::lit();
    shader
        .ir
        .push(Ir::new(Op::Mov, Type::Vec4).dst(500).a(0).ncomp(4));
    assert!(matches!(
        emit_tgsi(&shader, None, None),
        Err(TgsiError::Invalid(_))
    ));
    let bad: &[i16] = &[8];
    assert_eq!(
        emit_tgsi(&hand::textured(), Some(bad), None),
        Err(TgsiError::Remap {
            slot: 0,
            target: 8,
            varyings: 8
        })
    );
}

fn stock(name: &str) -> Shader {
    let path = format!("{}/glsl/{name}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(path).unwrap();
    let stage = if name.ends_with(".frag") {
        Stage::Fragment
    } else {
        Stage::Vertex
    };
    compile(&source, name, stage, &Limits::default()).unwrap()
}

fn linked(stem: &str) -> Program {
    Program::link(
        stock(&format!("{stem}.vert")),
        stock(&format!("{stem}.frag")),
    )
    .unwrap()
}

#[test]
fn tri_from_source() {
    let p = linked("tri");
    assert_eq!(emit_tgsi(&p.vertex, None, None).unwrap(), TRI_VERT);
    let fragment = emit_tgsi(&p.fragment, Some(&p.var_remap), None).unwrap();
    assert_eq!(fragment, TRI_FRAG);
}

#[test]
fn mvp_from_source() {
    assert_eq!(emit_tgsi(&stock("mvp.vert"), None, None).unwrap(), MVP_VERT);
}

#[test]
fn flat_discard_from_source() {
    let p = linked("flat");
    let fragment = emit_tgsi(&p.fragment, Some(&p.var_remap), None).unwrap();
    assert_eq!(fragment, FLAT_FRAG);
}

#[test]
fn tex_from_source() {
    let p = linked("tex");
    let fragment = emit_tgsi(&p.fragment, Some(&p.var_remap), None).unwrap();
    assert_eq!(fragment, TEX_FRAG);
}

/// IMOD differs from TGSI on a negative operand as well as on a zero divisor (GLSL
/// 1.30 §5.9 leaves `%` of negative operands undefined; the interpreter gives the sign
/// of `a`): its note says both, IDIV's only the division by zero.
#[test]
fn parity_dump_marks_imod_for_negative_operands_too() {
    let src = "#version 330 core\nuniform ivec2 k;\nout vec4 o;\n\
               void main() { o = vec4(float(k.x % k.y), float(k.x / k.y), 0.0, 1.0); }\n";
    let shader = csir::compile(
        src,
        "t.frag",
        csir::Stage::Fragment,
        &csir::Limits::EXTENDED,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let dump = parity_dump(&shader, None).unwrap();
    let note = |op: &str| {
        let mut lines = dump.lines();
        let marked = format!("= {op} ");
        lines
            .by_ref()
            .find(|l| l.starts_with('!') && l.contains(&marked))
            .unwrap_or_else(|| panic!("{op} not marked in\n{dump}"));
        lines.next().unwrap().to_string()
    };
    assert!(note("imod").contains("a negative operand"), "{dump}");
    assert!(note("imod").contains("division by 0"), "{dump}");
    assert!(!note("idiv").contains("negative"), "{dump}");
}
