//! The stock shaders (`shaders/glsl/`, the original's samples and ours) and the
//! reference scenes' shaders (`reference-images/shaders/`), compiled from source:
//! every one emits TGSI that parses, and agrees with the interpreter alone and, where
//! a scene or a shared file stem pairs them, linked (fragment inputs remapped).

mod tgsi_common;

use csir::tgsi::{VIRGL_BUDGET, emit_tgsi};
use csir::{Limits, Program, Shader, Stage, compile};
use std::path::{Path, PathBuf};
use tgsi_common::check::{Prepared, random_inputs, random_textures};
use tgsi_common::random::Rng;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Every `.vert` / `.frag` in the two shader folders, sorted.
fn shader_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [
        root().join("glsl"),
        root().join("../reference-images/shaders"),
    ] {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir:?}: {e}")) {
            let path = entry.unwrap().path();
            if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("vert" | "frag")
            ) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn compile_file(path: &Path) -> Shader {
    let source = std::fs::read_to_string(path).unwrap();
    let name = path.file_name().unwrap().to_str().unwrap();
    let stage = if name.ends_with(".frag") {
        Stage::Fragment
    } else {
        Stage::Vertex
    };
    compile(&source, name, stage, &Limits::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Vertex/fragment pairs: same stem in one folder, and every `"vertex"` /
/// `"fragment"` pair of the reference scenes but those of `shaders/extended/` (shaders
/// that need the extended profile; these tests compile under the seed's).
fn pairs() -> Vec<(PathBuf, PathBuf)> {
    let mut pairs = Vec::new();
    for vert in shader_files()
        .iter()
        .filter(|p| p.extension().unwrap() == "vert")
    {
        let frag = vert.with_extension("frag");
        if frag.exists() {
            pairs.push((vert.clone(), frag));
        }
    }
    let scenes = root().join("../reference-images");
    for entry in std::fs::read_dir(&scenes).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let value = |line: &str| line.split('"').nth(3).map(|v| scenes.join(v));
        let mut vertex = None;
        for line in text.lines() {
            if line.contains("\"vertex\"") {
                vertex = value(line);
            } else if line.contains("\"fragment\"")
                && let (Some(v), Some(f)) = (vertex.take(), value(line))
                && !f.starts_with(scenes.join("shaders/extended"))
            {
                pairs.push((v, f));
            }
        }
    }
    pairs.sort();
    pairs.dedup();
    pairs
}

fn agree(p: &Prepared, rng: &mut Rng) {
    let textures = random_textures(rng);
    for value in [Rng::ordinary as fn(&mut Rng) -> f32, Rng::mixed] {
        for _ in 0..24 {
            let inputs = random_inputs(rng, value);
            if let Err(e) = p.check(&inputs, &textures) {
                panic!("{}: {e}", p.shader.name);
            }
        }
    }
}

#[test]
fn every_stock_shader_agrees_with_the_interpreter() {
    let mut rng = Rng::new(33);
    let files = shader_files();
    assert!(files.len() >= 30, "{files:?}");
    for path in files {
        let shader = compile_file(&path);
        let p = Prepared::new(&shader, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        agree(&p, &mut rng);
    }
}

#[test]
fn linked_pairs_agree_with_the_interpreter() {
    let mut rng = Rng::new(34);
    let pairs = pairs();
    assert!(pairs.len() >= 15, "{pairs:?}");
    for (vert, frag) in pairs {
        let program = Program::link(compile_file(&vert), compile_file(&frag))
            .unwrap_or_else(|e| panic!("{} + {}: {e}", vert.display(), frag.display()));
        let vs = Prepared::new(&program.vertex, None).unwrap();
        agree(&vs, &mut rng);
        let remap = Some(program.var_remap.as_slice());
        let fs = Prepared::new(&program.fragment, remap).unwrap();
        agree(&fs, &mut rng);
    }
}

/// The original's sample shaders (docs/csir-original.md B §9) fit its 3600-byte TGSI budget
/// here too; the others are reported (the budget is optional, and `procedural.frag`, with
/// its unrolled loop of four lights, does not fit).
#[test]
fn the_original_samples_fit_the_virgl_budget() {
    const ORIGINAL: [&str; 11] = [
        "tri.vert",
        "tri.frag",
        "vary.vert",
        "vary.frag",
        "mvp.vert",
        "tex.vert",
        "tex.frag",
        "light.vert",
        "light.frag",
        "world.vert",
        "world.frag",
    ];
    for path in shader_files() {
        let shader = compile_file(&path);
        let len = emit_tgsi(&shader, None, None).unwrap().len();
        let fits = emit_tgsi(&shader, None, Some(VIRGL_BUDGET)).is_ok();
        eprintln!(
            "{:>24} {len:6} bytes{}",
            shader.name,
            if fits { "" } else { ", over budget" }
        );
        if ORIGINAL.contains(&shader.name.as_str()) {
            assert!(fits, "{} takes {len} bytes", shader.name);
        }
    }
}
