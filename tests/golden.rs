//! Byte-for-byte guards against unintended change: the bytes we render for
//! every scene under `reference-images/` (and the built-in default scene), and what
//! `csir-render compile --ir --tgsi` prints (and the CSI file it saves) for every
//! shader the repository ships, are compared with the committed files in
//! `tests/golden/`.
//!
//! These are not correctness checks (`reference_scenes.rs` compares with llvmpipe, the
//! TGSI tests check the text's meaning); they say *that* something changed, so that a
//! refactor can show it changed nothing. When a change is intended, regenerate the
//! files and commit them with the change:
//!
//! ```sh
//! CSIR_BLESS=1 cargo test --test golden
//! git diff tests/golden/    # review what changed
//! ```

use csir_render::pipeline::{RenderOptions, render_scene};
use csir_render::scene::{DEFAULT_CUBE_START_ANGLE, Scene};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::reference_scenes;

/// The checkout.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `tests/golden/` in the checkout.
fn golden_dir() -> PathBuf {
    root().join("tests/golden")
}

/// Regenerate instead of compare (`CSIR_BLESS=1`).
fn blessing() -> bool {
    std::env::var_os("CSIR_BLESS").is_some_and(|v| v != "0")
}

const BLESS_HINT: &str = "If the change is intended, regenerate the golden files with \
`CSIR_BLESS=1 cargo test --test golden`, review `git diff tests/golden/` and commit them \
with the change; otherwise this is a regression.";

/// `path` relative to the checkout, with `/` separators.
fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// One line per rendered scene: `PATH WIDTHxHEIGHT crc32:XXXXXXXX` over the RGBA8
/// bytes, top row first (the bytes `render` writes into the PNG).
fn render_lines() -> String {
    let mut scenes: Vec<(String, Scene)> = reference_scenes()
        .iter()
        .map(|path| {
            let scene = Scene::load(path).unwrap_or_else(|e| panic!("{e}"));
            (relative(path), scene)
        })
        .collect();
    scenes.push((
        "<default scene>".into(),
        Scene::default_cube(DEFAULT_CUBE_START_ANGLE),
    ));
    let mut out = String::new();
    for (name, scene) in &scenes {
        let frame =
            render_scene(scene, &RenderOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let image = &frame.image;
        let crc = crc32fast::hash(image.pixels());
        let _ = writeln!(
            out,
            "{name} {}x{} crc32:{crc:08x}",
            image.width(),
            image.height()
        );
    }
    out
}

#[test]
fn rendered_bytes_of_every_reference_scene_are_unchanged() {
    let path = golden_dir().join("renders.txt");
    let now = render_lines();
    if blessing() {
        std::fs::create_dir_all(golden_dir()).expect("create tests/golden");
        std::fs::write(&path, &now).expect("write tests/golden/renders.txt");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let committed: Vec<&str> = committed.lines().collect();
    let changed: Vec<String> = now
        .lines()
        .filter(|line| !committed.contains(line))
        .map(|line| format!("  now {line}"))
        .chain(
            committed
                .iter()
                .filter(|line| !now.lines().any(|l| l == **line))
                .map(|line| format!("  was {line}")),
        )
        .collect();
    assert!(
        changed.is_empty(),
        "the rendered bytes differ from tests/golden/renders.txt:\n{}\n{BLESS_HINT}",
        changed.join("\n")
    );
}

/// Every shader source the repository ships: the stock shaders, the reference scenes'
/// shaders, the corpus and the default scene's, sorted.
fn shader_sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [
        "shaders/glsl",
        "shaders/tests/corpus",
        "reference-images/shaders",
        "reference-images/derivatives",
        "src/scene/default",
    ] {
        for entry in std::fs::read_dir(root().join(dir)).expect("shader folder exists") {
            let path = entry.expect("readable entry").path();
            if path.extension().is_some_and(|e| e == "vert" || e == "frag") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// What `csir-render compile REL --profile seed --ir --tgsi --csi OUT` prints (the seed
/// profile: its IR and CSI bytes stay the seed's), run from the checkout
/// (so the dump names the shader by its relative path), then a line with the CRC-32 of
/// the CSI file it saved (every field of every record, which the dump does not all
/// print), or its exit status and errors when it fails.
fn compile_output(rel: &str, scratch: &Path) -> String {
    let csi = scratch.join("shader.csi");
    let out = Command::new(env!("CARGO_BIN_EXE_csir-render"))
        .current_dir(root())
        .args([
            "compile",
            rel,
            "--profile",
            "seed",
            "--ir",
            "--tgsi",
            "--csi",
        ])
        .arg(&csi)
        .output()
        .expect("the binary runs");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.success() {
        let bytes = std::fs::read(&csi).expect("compile --csi wrote the file");
        let _ = writeln!(text, "csi crc32:{:08x}", crc32fast::hash(&bytes));
        // The seed's own format, CSI v1, of the same shader (its records and
        // immediates byte for byte; these stay unchanged under the seed
        // profile). A shader v1 cannot hold (a flat or noperspective varying) records
        // the save error instead.
        let shader = csir::load_csi(&bytes, &csir::Limits::LARGE).expect("the saved file loads");
        let _ = match csir::save_csi_v1(&shader) {
            Ok(v1) => writeln!(text, "csi-v1 crc32:{:08x}", crc32fast::hash(&v1)),
            Err(e) => writeln!(text, "csi-v1 error: {e}"),
        };
    } else {
        let _ = write!(
            text,
            "exit status {:?}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    text
}

#[test]
fn compile_ir_and_tgsi_of_every_shipped_shader_are_unchanged() {
    let files = shader_sources();
    assert!(
        files.len() >= 70,
        "expected every shipped shader, found {files:?}"
    );
    let dir = golden_dir().join("compile");
    let scratch = std::env::temp_dir().join(format!("csir-render-golden-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch folder");
    let mut changed = Vec::new();
    for path in &files {
        let rel = relative(path);
        let golden = dir.join(format!("{rel}.txt"));
        let now = compile_output(&rel, &scratch);
        if blessing() {
            std::fs::create_dir_all(golden.parent().expect("has a parent")).expect("mkdir");
            std::fs::write(&golden, &now).expect("write golden file");
            continue;
        }
        match std::fs::read_to_string(&golden) {
            Ok(committed) if committed == now => {}
            Ok(committed) => {
                let line = committed
                    .lines()
                    .zip(now.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(committed.lines().count().min(now.lines().count()));
                changed.push(format!(
                    "  {rel}: first difference at line {} of {}",
                    line + 1,
                    relative(&golden)
                ));
            }
            Err(_) => changed.push(format!("  {rel}: no {}", relative(&golden))),
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        changed.is_empty(),
        "`compile --ir --tgsi` output differs from tests/golden/compile/:\n{}\n{BLESS_HINT}",
        changed.join("\n")
    );
}
