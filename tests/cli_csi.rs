//! CSI on the command line: `compile --csi-version 1|2`,
//! `inspect FILE.csi`, and scenes whose `vertex`/`fragment` name `.csi` files, loaded
//! through the untrusted loader (docs/scene-format.md "Shaders").

mod cli_support;

use cli_support::{bin, reference, stderr, stdout, temp_dir};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `compile SRC --csi OUT EXTRA...`, which must succeed; the bytes written.
fn compile_csi(src: &str, out: &Path, extra: &[&str]) -> Vec<u8> {
    let out_s = out.display().to_string();
    let run = bin(&[&["compile", src, "--csi", &out_s][..], extra].concat());
    assert!(run.status.success(), "{}", stderr(&run));
    std::fs::read(out).unwrap()
}

/// The number in `... OK: N instructions ...` of `compile`'s summary line.
fn compiled_instructions(src: &str) -> usize {
    let out = stdout(&bin(&["compile", src]));
    let after = out.split("OK: ").nth(1).expect("summary line");
    after.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn csi_version_selects_the_format_of_csi_and_csi_v1_stays_the_same_as_version_1() {
    let dir = temp_dir("csi-version");
    let src = reference("shaders/lit.vert");
    let v2_default = compile_csi(&src, &dir.join("a.csi"), &[]);
    let v2 = compile_csi(&src, &dir.join("b.csi"), &["--csi-version", "2"]);
    let v1 = compile_csi(&src, &dir.join("c.csi"), &["--csi-version", "1"]);
    let old = dir.join("d.csi");
    let run = bin(&["compile", &src, "--csi-v1", &old.display().to_string()]);
    assert!(run.status.success(), "{}", stderr(&run));
    let v1_old = std::fs::read(&old).unwrap();
    // Word 1 is the version.
    assert_eq!(&v2_default[4..8], &2u32.to_le_bytes());
    assert_eq!(v2_default, v2);
    assert_eq!(&v1[4..8], &1u32.to_le_bytes());
    assert_eq!(v1, v1_old);
    // v1 is exactly header + records + immediates.
    let nir = u32::from_le_bytes(v1[12..16].try_into().unwrap()) as usize;
    let nimm = u32::from_le_bytes(v1[16..20].try_into().unwrap()) as usize;
    assert_eq!(v1.len(), 32 + 16 * nir + 4 * nimm);

    // Bad usage: exit 2, nothing written.
    for args in [
        vec!["--csi-version", "3", "--csi", "x.csi"],
        vec!["--csi-version", "0", "--csi", "x.csi"],
        vec!["--csi-version", "1"],
    ] {
        let run = bin(&[&["compile", src.as_str()][..], &args].concat());
        assert_eq!(run.status.code(), Some(2), "{args:?}: {}", stderr(&run));
    }
    assert!(!Path::new("x.csi").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn inspect_shows_header_checksum_profile_interface_and_the_ir() {
    let dir = temp_dir("inspect-v2");
    let src = reference("shaders/lit.frag");
    let file = dir.join("lit.csi");
    let blob = compile_csi(&src, &file, &[]);
    let n = compiled_instructions(&src);
    let run = bin(&["inspect", &file.display().to_string()]);
    assert!(run.status.success(), "{}", stderr(&run));
    let text = stdout(&run);
    let crc = u32::from_le_bytes(blob[24..28].try_into().unwrap());
    for line in [
        format!("{}: CSI v2, {} bytes", file.display(), blob.len()),
        "  version     2".to_string(),
        "  stage       1 (fragment)".to_string(),
        format!("  records     {n}"),
        format!("  length      {} bytes (word 7)", blob.len()),
        format!("checksum: ok, {crc:#010x} (CRC-32 of every other byte)"),
        "profile: extended".to_string(),
        "flags: named interface".to_string(),
        "interface: 10 symbols".to_string(),
        "  varying in    vec3 vNormal slot 0".to_string(),
        "  uniform       float uShininess slot 3".to_string(),
        "  sampler       sampler2D uTex unit 0".to_string(),
        "  colour output vec4 fragColor".to_string(),
        "high-water marks: attribute none, varying 2, sampler 0, uniform slot 4".to_string(),
        "ir:".to_string(),
        "stage fragment".to_string(),
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing line {line:?} in:\n{text}"
        );
    }
    // The IR part is the compiler's dump, instruction for instruction.
    let dump = stdout(&bin(&["compile", &src, "--ir"]));
    let ir_part = text.split("\nir:\n").nth(1).unwrap();
    assert_eq!(
        ir_part.lines().skip(1).collect::<Vec<_>>(),
        dump.lines().skip(1).collect::<Vec<_>>(),
        "the IR dump (after the shader name line)"
    );

    // A vertex shader under the seed profile: the profile and gl_Position flag show.
    let vs = dir.join("flat.csi");
    compile_csi(&reference("shaders/flat.vert"), &vs, &["--profile", "seed"]);
    let text = stdout(&bin(&[
        "inspect",
        &vs.display().to_string(),
        "--profile",
        "seed",
    ]));
    assert!(text.contains("\nprofile: seed\n"), "{text}");
    assert!(
        text.contains("\nflags: writes gl_Position, named interface\n"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn inspect_of_v1_says_the_interface_is_not_stored() {
    let dir = temp_dir("inspect-v1");
    let file = dir.join("lit1.csi");
    // The seed profile: an extended-profile shader with MAX cannot be saved as v1.
    let blob = compile_csi(
        &reference("shaders/lit.frag"),
        &file,
        &["--csi-version", "1", "--profile", "seed"],
    );
    let run = bin(&["inspect", &file.display().to_string()]);
    assert!(run.status.success(), "{}", stderr(&run));
    let text = stdout(&run);
    let sum: u32 = blob
        [32..32 + 16 * u32::from_le_bytes(blob[12..16].try_into().unwrap()) as usize]
        .iter()
        .map(|&b| u32::from(b))
        .sum();
    for line in [
        format!("{}: CSI v1, {} bytes", file.display(), blob.len()),
        "  word 7      0 (reserved, not checked)".to_string(),
        format!(
            "checksum: ok, {sum:#010x} (byte sum of the records; the immediates are not covered)"
        ),
        "name: csi".to_string(),
        "profile: extended (v1 stores none: the loader's)".to_string(),
        "flags: unnamed interface".to_string(),
        "high-water marks: attribute none, varying 2, sampler 0, uniform slot 4".to_string(),
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing line {line:?} in:\n{text}"
        );
    }
    assert!(text.contains("\ninterface: not stored (CSI v1 carries no names"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn inspect_of_a_bad_file_gives_the_loaders_error_and_exit_1_never_a_panic() {
    let dir = temp_dir("inspect-bad");
    let good = compile_csi(&reference("shaders/lit.frag"), &dir.join("good.csi"), &[]);
    let mut flipped = good.clone();
    flipped[200] ^= 0x55;
    let mut v1_flipped = compile_csi(
        &reference("shaders/lit.frag"),
        &dir.join("good1.csi"),
        &["--csi-version", "1", "--profile", "seed"],
    );
    v1_flipped[40] ^= 0x01;
    let cases: [(&str, Vec<u8>, &str); 6] = [
        (
            "empty.csi",
            vec![],
            "invalid CSI blob at byte 0: truncated: the 32-byte header needs 32 bytes, 0 left",
        ),
        (
            "text.csi",
            b"void main() { gl_FragColor = vec4(1.0); }".to_vec(),
            "invalid CSI blob at byte 0: bad magic 0x64696f76",
        ),
        (
            "short.csi",
            good[..100].to_vec(),
            &format!(
                "invalid CSI blob at byte 28: the blob is 100 bytes but its header describes {}",
                good.len()
            ),
        ),
        (
            "flipped.csi",
            flipped,
            "invalid CSI blob at byte 24: checksum mismatch",
        ),
        (
            "v1flipped.csi",
            v1_flipped,
            "invalid CSI blob at byte 24: checksum mismatch",
        ),
        (
            "version9.csi",
            [&good[..4], &9u32.to_le_bytes(), &good[8..]].concat(),
            "invalid CSI blob at byte 4: unsupported version 9",
        ),
    ];
    for (name, bytes, message) in &cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let run = bin(&["inspect", &path.display().to_string()]);
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{name}: {err}");
        assert!(
            err.starts_with(&format!("error: {}: {message}", path.display())),
            "{name}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        if name.contains("flipped") {
            assert!(
                stdout(&run).contains("\nchecksum: MISMATCH, stored 0x"),
                "{}",
                stdout(&run)
            );
        }
    }
    // Not a file at all.
    let run = bin(&["inspect", &dir.display().to_string()]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        stderr(&run).contains("not a regular file"),
        "{}",
        stderr(&run)
    );
    // An extended blob under --profile seed: the stored limits exceed the loader's.
    let run = bin(&[
        "inspect",
        &dir.join("good.csi").display().to_string(),
        "--profile",
        "seed",
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        stderr(&run).contains(
            "invalid CSI blob at byte 32: instructions is 4096, above the loader's limit 384"
        ),
        "{}",
        stderr(&run)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A copy of reference scene `name` (`family/scene` for a family's) in `dir` whose
/// shaders are CSI files compiled from the originals (with `compile EXTRA`), textures
/// and meshes by absolute path.
fn csi_scene(name: &str, dir: &Path, extra: &[&str]) -> PathBuf {
    let original = PathBuf::from(reference(&format!("{name}.json")));
    let folder = original.parent().unwrap().to_path_buf();
    let text = std::fs::read_to_string(&original).unwrap();
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    fn walk(v: &mut Value, folder: &Path, dir: &Path, extra: &[&str]) {
        match v {
            Value::String(s) if s.ends_with(".vert") || s.ends_with(".frag") => {
                let out = dir.join(format!("{}.csi", s.replace('/', "_")));
                if !out.exists() {
                    compile_csi(&folder.join(&*s).display().to_string(), &out, extra);
                }
                *s = out.display().to_string();
            }
            Value::String(s) if s.ends_with(".png") || s.ends_with(".obj") => {
                *s = folder.join(&*s).display().to_string();
            }
            Value::Array(list) => list.iter_mut().for_each(|x| walk(x, folder, dir, extra)),
            Value::Object(map) => map
                .iter_mut()
                .for_each(|(_, x)| walk(x, folder, dir, extra)),
            _ => {}
        }
    }
    walk(&mut doc, &folder, dir, extra);
    let path = dir.join(format!("{}.json", name.replace('/', "_")));
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    path
}

#[test]
fn a_scene_of_csi_v2_shaders_renders_the_same_pixels_as_its_glsl() {
    let dir = temp_dir("scene-csi");
    // clip_cull and discard_depth draw with several shader pairs (one program per
    // pair: CSI files must not share a cache entry); lit_cube has a mesh and texture.
    for name in ["lit_cube", "clip_cull", "discard_depth"] {
        let scene = csi_scene(name, &dir, &[]);
        let text = std::fs::read_to_string(&scene).unwrap();
        assert!(text.contains(".frag.csi") && !text.contains(".frag\""));
        let a = dir.join(format!("{name}.csi.png"));
        let b = dir.join(format!("{name}.glsl.png"));
        let run = bin(&[
            "render",
            &scene.display().to_string(),
            "-o",
            &a.display().to_string(),
        ]);
        assert!(run.status.success(), "{name}: {}", stderr(&run));
        let run = bin(&[
            "render",
            &reference(&format!("{name}.json")),
            "-o",
            &b.display().to_string(),
        ]);
        assert!(run.status.success(), "{name}: {}", stderr(&run));
        let a = csir_render::image_io::read_png(&a).unwrap();
        let b = csir_render::image_io::read_png(&b).unwrap();
        assert_eq!((a.width(), a.height()), (b.width(), b.height()));
        assert!(a.pixels() == b.pixels(), "{name}: the pixels differ");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn csi_v2_keeps_every_texture_target_and_sampler_kind() {
    // One scene per target of the GL 3.3 texture scenes (1D, 1D array, 2D, 2D array,
    // 3D, cube, rectangle), a shadow and an integer sampler: saved as CSI v2 and
    // loaded back, each keeps its sampler type and renders the same pixels.
    let dir = temp_dir("csi-targets");
    for (name, keyword) in [
        ("tex1d_linear_repeat", "sampler1D"),
        ("array1d_linear", "sampler1DArray"),
        ("border_rgba8", "sampler2D"),
        ("array2d_linear", "sampler2DArray"),
        ("volume3d_rgba32f", "sampler3D"),
        ("cube_linear", "samplerCube"),
        ("rect_nearest", "sampler2DRect"),
        ("shadow2d_linear", "sampler2DShadow"),
        ("int_texel_fetch", "isampler2D"),
    ] {
        let scene = csi_scene(
            &format!("textures_gl33/{name}"),
            &dir,
            &["--profile", "extended"],
        );
        let text = std::fs::read_to_string(&scene).unwrap();
        let csi = text
            .split('"')
            .find(|s| s.ends_with(".frag.csi"))
            .unwrap_or_else(|| panic!("{name}: no fragment CSI in {text}"));
        // `inspect` prints the IR type (`sampler2D` for every sampler); the sampler
        // type is the interface entry's, read back by the loader.
        let bytes = std::fs::read(csi).unwrap();
        let shader = csir::load_csi(&bytes, &csir::Limits::EXTENDED).unwrap();
        let kind = shader.interface.symbols.iter().find_map(|s| match s.kind {
            csir::ir::SymbolKind::Sampler { sampler, .. } => Some(sampler),
            _ => None,
        });
        assert_eq!(kind.map(|k| k.keyword()), Some(keyword), "{name}");
        let a = dir.join(format!("{name}.csi.png"));
        let b = dir.join(format!("{name}.glsl.png"));
        for (scene, out) in [
            (scene.display().to_string(), &a),
            (reference(&format!("textures_gl33/{name}.json")), &b),
        ] {
            let run = bin(&["render", &scene, "-o", &out.display().to_string()]);
            assert!(run.status.success(), "{name}: {}", stderr(&run));
        }
        let a = csir_render::image_io::read_png(&a).unwrap();
        let b = csir_render::image_io::read_png(&b).unwrap();
        assert!(a.pixels() == b.pixels(), "{name}: the pixels differ");
    }
    // The targets and kinds no reference scene has: the buffer target, the other
    // shadow samplers and an unsigned one, each saved and loaded back.
    for (keyword, lookup) in [
        ("samplerBuffer", "texelFetch(uTex, 3)"),
        (
            "samplerCubeShadow",
            "vec4(texture(uTex, vec4(1.0, 0.5, 0.2, 0.5)))",
        ),
        (
            "sampler2DArrayShadow",
            "vec4(texture(uTex, vec4(0.5, 0.5, 1.0, 0.5)))",
        ),
        (
            "sampler1DArrayShadow",
            "vec4(texture(uTex, vec3(0.5, 1.0, 0.5)))",
        ),
        (
            "sampler2DRectShadow",
            "vec4(texture(uTex, vec3(2.0, 1.0, 0.5)))",
        ),
        ("usampler3D", "vec4(texelFetch(uTex, ivec3(1, 0, 1), 0))"),
    ] {
        let src = dir.join(format!("{keyword}.frag"));
        std::fs::write(
            &src,
            format!(
                "#version 330 core\nout vec4 c;\nuniform {keyword} uTex;\n\
                 void main() {{ c = {lookup}; }}\n"
            ),
        )
        .unwrap();
        let out = dir.join(format!("{keyword}.csi"));
        let bytes = compile_csi(&src.display().to_string(), &out, &["--profile", "extended"]);
        let shader = csir::load_csi(&bytes, &csir::Limits::EXTENDED).unwrap();
        let kind = shader.interface.symbols.iter().find_map(|s| match s.kind {
            csir::ir::SymbolKind::Sampler { sampler, .. } => Some(sampler),
            _ => None,
        });
        assert_eq!(kind.map(|k| k.keyword()), Some(keyword));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_scene_naming_a_bad_csi_file_gives_a_named_error() {
    let dir = temp_dir("scene-csi-bad");
    let scene = csi_scene("lit_cube", &dir, &[]);
    let text = std::fs::read_to_string(&scene).unwrap();
    let vert = dir.join("shaders_lit.vert.csi").display().to_string();
    let frag = dir.join("shaders_lit.frag.csi").display().to_string();
    let render = |json: &str| {
        let path = dir.join("edited.json");
        std::fs::write(&path, json).unwrap();
        let out = dir.join("edited.png");
        let run = bin(&[
            "render",
            &path.display().to_string(),
            "-o",
            &out.display().to_string(),
        ]);
        assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
        assert!(!out.exists(), "nothing is written on an error");
        stderr(&run)
    };

    // v1: the documented metadata rule, with the way out.
    let v1 = dir.join("lit_v1.csi");
    compile_csi(&reference("shaders/lit.vert"), &v1, &["--csi-version", "1"]);
    let err = render(&text.replace(&vert, &v1.display().to_string()));
    assert!(
        err.contains(&format!(
            "draws[0].vertex: {} is CSI v1, which carries no attribute, varying or uniform names, so a scene cannot link it",
            v1.display()
        )),
        "{err}"
    );

    // The wrong stage.
    let err = render(&text.replace(&vert, &frag));
    assert!(
        err.contains(&format!(
            "draws[0].vertex: {frag} holds a fragment shader; this field needs a vertex shader"
        )),
        "{err}"
    );

    // A corrupt blob: the loader's byte offset and reason.
    let bad = dir.join("bad.csi");
    let mut bytes = std::fs::read(&frag).unwrap();
    bytes[100] ^= 0x10;
    std::fs::write(&bad, &bytes).unwrap();
    let err = render(&text.replace(&frag, &bad.display().to_string()));
    assert!(
        err.contains(&format!(
            "draws[0].fragment: {}: invalid CSI blob at byte 24: checksum mismatch",
            bad.display()
        )),
        "{err}"
    );

    // An extended-profile blob rendered under --profile seed.
    let path = dir.join("ok.json");
    std::fs::write(&path, &text).unwrap();
    let run = bin(&[
        "render",
        &path.display().to_string(),
        "-o",
        &dir.join("seed.png").display().to_string(),
        "--profile",
        "seed",
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        stderr(&run).contains("draws[0].vertex: ")
            && stderr(&run).contains("above the loader's limit 384"),
        "{}",
        stderr(&run)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--csi` and `--csi-v1` naming one file (as two spellings) is an error before
/// anything is written (one file would silently replace the other); two files are
/// written as asked. `compile` of a CSI file points at `inspect`.
#[test]
fn csi_and_csi_v1_cannot_name_the_same_file() {
    let dir = temp_dir("csi-same-file");
    let src = reference("shaders/lit.vert");
    let (a, b) = (dir.join("a.csi"), dir.join("b.csi"));
    // `compile SRC --csi A --csi-v1 V1`
    let compile_both = |v1: &Path| {
        let (a, v1) = (a.display().to_string(), v1.display().to_string());
        bin(&["compile", &src, "--csi", &a, "--csi-v1", &v1])
    };
    let run = compile_both(&dir.join(".").join("a.csi"));
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("name the same file"),
        "{}",
        stderr(&run)
    );
    assert!(!a.exists());
    let run = compile_both(&b);
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(&std::fs::read(&a).unwrap()[4..8], &2u32.to_le_bytes());
    assert_eq!(&std::fs::read(&b).unwrap()[4..8], &1u32.to_le_bytes());
    let run = bin(&["compile", &a.display().to_string()]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("csir-render inspect"),
        "{}",
        stderr(&run)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `compile --csi-version 1` of an extended-profile shader with MAX is an error naming
/// the instruction and the way out (docs/csir.md "MIN and MAX"), with exit status 1
/// and no file written; under `--profile seed` it saves.
#[test]
fn v1_of_an_extended_max_is_an_error_naming_it() {
    let dir = temp_dir("v1-max");
    let out = dir.join("lit1.csi");
    let src = reference("shaders/lit.frag");
    let run = bin(&[
        "compile",
        &src,
        "--csi",
        &out.display().to_string(),
        "--csi-version",
        "1",
    ]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let err = stderr(&run);
    assert!(err.contains("(max) of an extended-profile shader"), "{err}");
    assert!(err.contains("save as CSI v2"), "{err}");
    assert!(!out.exists());
    compile_csi(&src, &out, &["--csi-version", "1", "--profile", "seed"]);
    let _ = std::fs::remove_dir_all(&dir);
}
