//! Compiles every stock shader in `shaders/glsl/` and checks the IR dumps for
//! recognisable operations (reference B §3.1, B §9).

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
