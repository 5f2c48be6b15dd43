//! The shader corpus (issue 8): realistic GLSL 3.30 shaders in `tests/corpus/`, written
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

/// The corpus shaders are written against each other: every fragment shader links
/// with the vertex shader its scene pairs it with.
#[test]
fn corpus_fragment_shaders_link_with_their_vertex_shaders() {
    let files = corpus_files();
    let tile = compile_path(&corpus_dir().join("tile.vert"));
    let mesh = compile_path(&corpus_dir().join("wave.vert"));
    let interpolation = compile_path(&corpus_dir().join("interpolation.vert"));
    let flat_int = compile_path(&corpus_dir().join("flat_int.vert"));
    for f in files.iter().filter(|p| p.extension().unwrap() == "frag") {
        let frag = compile_path(f);
        let vertex = if frag.interface.find("vBig").is_some() {
            &flat_int
        } else if frag.interface.find("vUV").is_some() {
            &tile
        } else if frag.interface.find("vFlat").is_some() {
            &interpolation
        } else {
            &mesh
        };
        let program =
            Program::link(vertex.clone(), frag).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for u in &program.uniforms {
            assert!(u.fragment_slot.is_some() || u.vertex_slot.is_some());
        }
    }
    // Uniform arrays keep their lengths in the interface.
    let blinn = compile_path(&corpus_dir().join("blinn_phong_lights.frag"));
    let lights = blinn.interface.find("uLightPos").unwrap();
    assert_eq!(lights.array_len, Some(3));
    assert!(matches!(lights.kind, SymbolKind::Uniform { slot: 0 }));
    let skin = compile_path(&corpus_dir().join("skin.vert"));
    assert_eq!(skin.interface.find("uBones").unwrap().array_len, Some(2));
}
