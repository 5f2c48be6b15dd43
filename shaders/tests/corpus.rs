//! The shader corpus: realistic GLSL 3.30 shaders in `tests/corpus/`, written
//! the way people write them (Blinn-Phong over a uniform light array, normal mapping,
//! value and cellular noise, tone mapping, fog, toon shading, SDF shapes, HSV, gamma,
//! dithering, skinning, …). Each one compiles with the seed limits (so the verifier
//! accepted it), links against its vertex or fragment partner, runs on the interpreter
//! for a spread of inputs, emits TGSI that parses back and agrees with the interpreter
//! (`tgsi_common`), and round-trips through CSI v2; and each one is drawn in a scene
//! of `reference-images/corpus/`, which `tests/reference_scenes.rs` of the renderer
//! compares with Mesa llvmpipe's image.

mod backends;
mod common;

use common::compile_path;
use csir::Program;
use csir::ir::SymbolKind;
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// Every `.vert` / `.frag` of the corpus, sorted.
fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("tests/corpus exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("vert" | "frag")
            )
        })
        .collect();
    files.sort();
    files
}

/// A small deterministic generator of ordinary input values.
struct Lcg(u64);

impl Lcg {
    fn unit(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 40) as f32) / (1u64 << 24) as f32
    }

    fn vec4(&mut self, lo: f32, hi: f32) -> [f32; 4] {
        [0; 4].map(|_| lo + (hi - lo) * self.unit())
    }
}

#[test]
fn the_corpus_is_large_enough_and_every_shader_is_in_a_reference_scene() {
    let files = corpus_files();
    let fragments = files
        .iter()
        .filter(|p| p.extension().unwrap() == "frag")
        .count();
    assert!(fragments >= 30, "only {fragments} fragment shaders");
    let scenes_dir = corpus_dir().join("../../../reference-images/corpus");
    let scenes: String = std::fs::read_dir(&scenes_dir)
        .unwrap_or_else(|e| panic!("{scenes_dir:?}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    for f in &files {
        let name = f.file_name().unwrap().to_str().unwrap();
        let reference = format!("shaders/tests/corpus/{name}\"");
        assert!(
            scenes.contains(&reference),
            "{name} is not drawn in any scene of reference-images/corpus/"
        );
    }
}

#[test]
fn every_corpus_shader_compiles_runs_and_agrees_on_every_back_end() {
    let mut rng = Lcg(0x00c0_ffee);
    for path in corpus_files() {
        let s = compile_path(&path);
        assert!(csir::ir::verify(&s).is_ok(), "{}", s.name);
        let slots = (s.interface.uni_hi + 1) as usize;
        for run in 0..6 {
            let uniforms: Vec<[f32; 4]> = (0..slots).map(|_| rng.vec4(-1.0, 1.0)).collect();
            // vUV (or the attributes) across the tile, away from its exact edges.
            let t = (run as f32 + 0.5) / 6.0;
            let mut io = vec![rng.vec4(0.0, 1.0); 8];
            io[0] = [t, 1.0 - t * 0.7, 0.0, 1.0];
            backends::check(&s, &uniforms, &io);
        }
    }
}

/// The `(vertex, fragment)` file names of every draw of the corpus scenes
/// (`reference-images/corpus/*.json`, written by `gen_corpus_scenes.py` with each
/// draw's `"vertex"` key before its `"fragment"` key).
fn scene_pairs() -> Vec<(String, String)> {
    let scenes_dir = corpus_dir().join("../../../reference-images/corpus");
    let mut pairs = Vec::new();
    for entry in std::fs::read_dir(&scenes_dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let value = |key: &str, from: usize| -> Option<(usize, String)> {
            let at = from + text[from..].find(key)? + key.len();
            let start = at + text[at..].find('"')? + 1;
            let end = start + text[start..].find('"')?;
            let name = text[start..end].rsplit('/').next()?.to_string();
            Some((end, name))
        };
        let mut from = 0;
        while let Some((end, vertex)) = value("\"vertex\":", from) {
            let (end, fragment) = value("\"fragment\":", end)
                .unwrap_or_else(|| panic!("{}: a draw without a fragment shader", path.display()));
            pairs.push((vertex, fragment));
            from = end;
        }
    }
    pairs
}

/// The corpus shaders are written against each other: every draw of the corpus scenes
/// links its fragment shader with its vertex shader, and every fragment shader is
/// drawn at least once.
#[test]
fn corpus_fragment_shaders_link_with_their_vertex_shaders() {
    let files = corpus_files();
    let pairs = scene_pairs();
    for (vertex, fragment) in &pairs {
        let v = compile_path(&corpus_dir().join(vertex));
        let f = compile_path(&corpus_dir().join(fragment));
        let program =
            Program::link(v, f).unwrap_or_else(|e| panic!("{vertex} with {fragment}: {e}"));
        for u in &program.uniforms {
            assert!(u.fragment_slot.is_some() || u.vertex_slot.is_some());
        }
    }
    for f in files.iter().filter(|p| p.extension().unwrap() == "frag") {
        let name = f.file_name().unwrap().to_str().unwrap();
        assert!(
            pairs.iter().any(|(_, fragment)| fragment == name),
            "{name} is not drawn by any corpus scene"
        );
    }
    // Uniform arrays keep their lengths in the interface.
    let blinn = compile_path(&corpus_dir().join("blinn_phong_lights.frag"));
    let lights = blinn.interface.find("uLightPos").unwrap();
    assert_eq!(lights.array_len, Some(3));
    assert!(matches!(lights.kind, SymbolKind::Uniform { slot: 0 }));
    let skin = compile_path(&corpus_dir().join("skin.vert"));
    assert_eq!(skin.interface.find("uBones").unwrap().array_len, Some(2));
}
