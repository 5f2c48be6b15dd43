//! Scene files through the same entry as `csir-render render` (`Scene::load`, then
//! `render_scene` for small frames): any JSON, OBJ mesh and PNG texture load or give a
//! `SceneError`, and a scene that loads renders or gives a `RenderError`, never a
//! panic, a hang or an abort.
//!
//! Input: `JSON <SEP> OBJ <SEP> PNG` with `SEP` = [`SEP`] (a missing part is empty).
//! The parts are written into a private folder laid out like `reference-images/`
//! (`scene.json`, `meshes/cube.obj`, `textures/{checker,npot5x3,tiny4}.png`, and the
//! reference shaders copied into `shaders/`), so the seed scenes resolve unchanged.
#![no_main]

use csir_render::pipeline::{RenderOptions, render_scene};
use csir_render::scene::Scene;
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Separates the three parts of an input (see the module docs and fuzz/seed.sh).
const SEP: &[u8] = b"\n--csir-fuzz-part--\n";
/// Largest frame rendered, in pixels (bigger scenes are loaded only).
const MAX_RENDER_PIXELS: u64 = 128 * 128;
const TEXTURES: [&str; 3] = ["checker.png", "npot5x3.png", "tiny4.png"];

fn folder() -> &'static PathBuf {
    static FOLDER: OnceLock<PathBuf> = OnceLock::new();
    FOLDER.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("csir-fuzz-scene-{}", std::process::id()));
        for sub in ["shaders", "meshes", "textures"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let shaders = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../reference-images/shaders");
        for entry in std::fs::read_dir(&shaders).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), dir.join("shaders").join(entry.file_name())).unwrap();
        }
        dir
    })
}

fn split(data: &[u8]) -> (&[u8], &[u8]) {
    match data.windows(SEP.len()).position(|w| w == SEP) {
        Some(i) => (&data[..i], &data[i + SEP.len()..]),
        None => (data, &[]),
    }
}

fuzz_target!(|data: &[u8]| {
    let dir = folder();
    let (json, rest) = split(data);
    let (obj, png) = split(rest);
    std::fs::write(dir.join("scene.json"), json).unwrap();
    std::fs::write(dir.join("meshes/cube.obj"), obj).unwrap();
    for t in TEXTURES {
        std::fs::write(dir.join("textures").join(t), png).unwrap();
    }
    let Ok(scene) = Scene::load(dir.join("scene.json")) else {
        return;
    };
    if u64::from(scene.width) * u64::from(scene.height) <= MAX_RENDER_PIXELS {
        let options = RenderOptions {
            threads: Some(1),
            ..RenderOptions::default()
        };
        let _ = render_scene(&scene, &options);
    }
});
