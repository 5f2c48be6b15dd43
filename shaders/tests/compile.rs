//! Compiles every stock shader in `shaders/glsl/` and checks the IR dumps for
//! recognisable operations (docs/csir-original.md B §3.1, B §9).

use csir::ir::dump;
use csir::{Limits, Stage, compile};
use std::path::Path;

fn stage_of(name: &str) -> Stage {
    if name.ends_with(".frag") {
        Stage::Fragment
    } else {
        Stage::Vertex
    }
}

fn compile_stock(name: &str) -> csir::Shader {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("glsl")
        .join(name);
    let src = std::fs::read_to_string(&path).unwrap();
    match compile(&src, name, stage_of(name), &Limits::default()) {
        Ok(s) => s,
        Err(e) => panic!("{name} failed:\n{e}"),
    }
}

#[test]
fn every_stock_shader_compiles() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("glsl");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert!(names.len() >= 22, "{names:?}");
    for name in names {
        let s = compile_stock(&name);
        if std::env::var("DUMP").is_ok() {
            println!(
                "{}ntmp {} nimm {} live {}\n",
                dump(&s),
                s.ntmp,
                s.imm.len(),
                s.live_instructions()
            );
        }
    }
}

/// docs/csir-original.md B §3.1: the original's dump of `tri.vert`; ours prints CONST
/// without the original's quirky `%0 %0` operands (docs/csir-original.md A1: unused CONST
/// operands are −1).
#[test]
fn tri_vert_dump_matches_the_reference() {
    let expected = [
        "shader tri.vert",
        "stage vertex",
        "input vec4 position",
        "input vec4 color",
        "output vec4 vcolor",
        "block 0:",
        "  %1 = const",
        "  %0 = mov %1",
        "  %2 = load_attr aux 0",
        "  %3 = load_attr aux 1",
        "  %5 = const aux 4",
        "  %4 = mov %5",
        "  %4 = mov %3",
        "  store_var %4",
        "  %0 = mov %2",
        "  store_pos %0",
        "",
    ]
    .join("\n");
    let s = compile_stock("tri.vert");
    assert_eq!(dump(&s), expected);
    let c = s.ir.iter().find(|i| i.op == csir::Op::Const as u8).unwrap();
    assert_eq!((c.a, c.b, c.c), (-1, -1, -1));
}

fn lines(name: &str) -> Vec<String> {
    dump(&compile_stock(name))
        .lines()
        .map(|l| l.trim().to_string())
        .collect()
}

fn count(lines: &[String], needle: &str) -> usize {
    lines.iter().filter(|l| l.contains(needle)).count()
}

#[test]
fn sample_shaders_show_their_features() {
    // mvp.vert: projection·view·model·position = MULMM ×2 then MULMV.
    let l = lines("mvp.vert");
    assert_eq!(count(&l, "= mul_mm"), 2);
    assert_eq!(count(&l, "= mul_mv"), 1);
    assert_eq!(count(&l, "load_uni"), 3);
    // world.vert: the mat3 normal matrix uses MULMV with aux 3; 15 uniform vec4 slots.
    let l = lines("world.vert");
    assert!(
        l.iter()
            .any(|x| x.contains("mul_mv") && x.ends_with("aux 3"))
    );
    let s = compile_stock("world.vert");
    assert_eq!(s.interface.uni_hi, 14);
    assert_eq!(s.interface.attr_hi, 2);
    assert_eq!(s.interface.var_hi, 2);
    // tex.frag: SAMPLE from sampler slot 0.
    let l = lines("tex.frag");
    assert!(l.contains(&"%4 = sample2d %1 aux 0".to_string()), "{l:?}");
    // light.frag: normalize = DOT, RSQ, broadcast, MUL; max against a constant.
    let l = lines("light.frag");
    assert_eq!(count(&l, "= rsq"), 2);
    assert_eq!(count(&l, "= dot"), 3);
    assert_eq!(count(&l, "= max"), 1);
    // vary.frag: vec4(color, 1.0) = CONST (0,0,0,1) and a 3-lane MOV.
    let s = compile_stock("vary.frag");
    assert!(s.imm.ends_with(&[0.0, 0.0, 0.0, 1.0]));
}

#[test]
fn scene_shaders_show_their_features() {
    // lit.frag: the bool uniform drives an IF around the texture mix; reflect and pow.
    let l = lines("lit.frag");
    assert_eq!(count(&l, "if %"), 1);
    assert_eq!(count(&l, "endif"), 1);
    assert_eq!(count(&l, "sample2d"), 1);
    assert_eq!(count(&l, "= pow"), 1);
    // lit.vert: mat3 uniform times vec3.
    let l = lines("lit.vert");
    assert!(
        l.iter()
            .any(|x| x.contains("mul_mv") && x.ends_with("aux 3"))
    );
    // procedural.frag: the loop is unrolled four times (no loop in CSIR), the user
    // function inlined, and float(i) / 3.0 folded.
    let l = lines("procedural.frag");
    assert_eq!(count(&l, "= pow"), 4);
    assert_eq!(count(&l, "= sin"), 6);
    assert_eq!(count(&l, "= cos"), 5);
    assert_eq!(count(&l, "rcp"), 1, "only length(p) needs a reciprocal");
    let s = compile_stock("procedural.frag");
    assert!(s.live_instructions() < 300 && s.ntmp < 64 && s.imm.len() < 100);
    // flat.frag: a conditional discard.
    let l = lines("flat.frag");
    assert_eq!(count(&l, "discard"), 1);
}
