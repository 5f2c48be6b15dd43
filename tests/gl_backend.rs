//! `--backend gl` on Mesa's llvmpipe: the project makes its own reference images
//! (docs/gl-backend.md). Every committed `*.llvmpipe.png` is what the driver draws
//! today, pixel for pixel; `check --against gl` gives `check`'s verdicts; the driver's
//! thread count does not change a byte; scenes built on uniform blocks, matrices set
//! by column, integer uniforms and the compatibility profile draw as the CPU renderer
//! draws them; errors name the field, the file and the driver's info log.
//!
//! The tests need EGL and Mesa's llvmpipe (Debian's `libegl1`, `libegl-mesa0`,
//! `libgl1-mesa-dri`). Without them they skip, unless `CSIR_REQUIRE_TEST_DEPS` is set
//! (as `scripts/test.sh` and CI set it, after `scripts/test-deps.sh` installed them):
//! then a missing driver fails them.

use csir_render::check::{CheckOptions, Renderers, Status, check_scenes};
use csir_render::compare::compare;
use csir_render::gl::{GlOptions, driver_info, render_scene_gl};
use csir_render::image_io::read_png;
use csir_render::pipeline::{RenderOptions, render_scene};
use csir_render::scene::Scene;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod cli_support;
mod common;
use cli_support::{bin, stderr, stdout, temp_dir};
use common::reference_scenes;

/// Whether a GL driver can be opened, and it is llvmpipe; `false` means skip, unless
/// the test dependencies are required, in which case the test fails here.
fn llvmpipe(test: &str) -> bool {
    let why = match driver_info(&GlOptions::default()) {
        Ok(info) if info.is_llvmpipe() => return true,
        Ok(info) => format!("the GL driver is {}, not llvmpipe", info.renderer),
        Err(e) => e.to_string(),
    };
    assert!(
        std::env::var_os("CSIR_REQUIRE_TEST_DEPS").is_none(),
        "{why}; CSIR_REQUIRE_TEST_DEPS is set: run scripts/test-deps.sh"
    );
    eprintln!("{test}: skipped: {why}");
    false
}

/// `csir-render ARGS...` with extra environment variables.
fn bin_with(env: &[(&str, &str)], args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_csir-render"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("the binary runs")
}

#[test]
fn every_reference_image_is_what_llvmpipe_draws() {
    if !llvmpipe("every_reference_image_is_what_llvmpipe_draws") {
        return;
    }
    let scenes = reference_scenes();
    assert!(
        scenes.len() >= 31,
        "expected the reference set, found {scenes:?}"
    );
    let mut different = Vec::new();
    for path in &scenes {
        let scene = Scene::load(path).unwrap_or_else(|e| panic!("{e}"));
        let render =
            render_scene_gl(&scene, &GlOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let reference =
            read_png(&path.with_extension("llvmpipe.png")).unwrap_or_else(|e| panic!("{e}"));
        let diff = compare(&render.image, &reference, 0).unwrap_or_else(|e| panic!("{e}"));
        if diff.differing_pixels != 0 {
            different.push(format!(
                "{}: {} pixels differ",
                path.display(),
                diff.differing_pixels
            ));
        }
    }
    assert!(different.is_empty(), "{different:#?}");
}

#[test]
fn check_against_gl_gives_the_verdicts_of_check() {
    if !llvmpipe("check_against_gl_gives_the_verdicts_of_check") {
        return;
    }
    let scenes = reference_scenes();
    let verdicts = |renderers: Renderers| -> Vec<Status> {
        let options = CheckOptions {
            renderers,
            ..CheckOptions::default()
        };
        check_scenes(&scenes, &options, &|_| {})
            .into_iter()
            .map(|r| {
                assert_ne!(r.status, Status::Error, "{}: {:?}", r.scene, r.message);
                r.status
            })
            .collect()
    };
    let against_files = verdicts(Renderers::CpuAgainstFile);
    let against_gl = verdicts(Renderers::CpuAgainstGl(GlOptions::default()));
    assert_eq!(against_gl, against_files);
    assert!(
        against_gl.iter().all(|s| *s == Status::Passed),
        "{against_gl:?}"
    );
}

#[test]
fn llvmpipe_threads_do_not_change_a_byte() {
    if !llvmpipe("llvmpipe_threads_do_not_change_a_byte") {
        return;
    }
    let dir = temp_dir("gl-threads");
    for scene in [
        "lit_cube.json",
        "derivatives/fwidth_sdf.json",
        "wrap_blend.json",
    ] {
        let mut images = Vec::new();
        for threads in ["1", "2"] {
            let out = dir.join(format!("t{threads}.png"));
            let o = bin_with(
                &[("LP_NUM_THREADS", threads)],
                &[
                    "render",
                    &cli_support::reference(scene),
                    "--backend",
                    "gl",
                    "-o",
                    out.to_str().unwrap(),
                ],
            );
            assert!(o.status.success(), "{}", stderr(&o));
            images.push(std::fs::read(&out).unwrap());
        }
        assert_eq!(
            images[0], images[1],
            "{scene}: LP_NUM_THREADS=1 and 2 differ"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes `NAME.json` with one full-screen draw of `vertex` and `fragment` (files
/// `NAME.vert`, `NAME.frag`), the attributes, uniforms and state given as JSON text.
fn scene(dir: &Path, name: &str, vertex: &str, fragment: &str, draw: &str) -> PathBuf {
    std::fs::write(dir.join(format!("{name}.vert")), vertex).unwrap();
    std::fs::write(dir.join(format!("{name}.frag")), fragment).unwrap();
    let path = dir.join(format!("{name}.json"));
    std::fs::write(
        &path,
        format!(
            r#"{{"format": "csir-scene/1", "width": 32, "height": 32,
                "draws": [{{"vertex": "{name}.vert", "fragment": "{name}.frag", {draw}}}]}}"#
        ),
    )
    .unwrap();
    path
}

/// The CPU renderer's and the driver's images of `path` are the same, pixel for pixel.
fn same_as_cpu(path: &Path) {
    let scene = Scene::load(path).unwrap_or_else(|e| panic!("{e}"));
    let cpu = render_scene(&scene, &RenderOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let gl = render_scene_gl(&scene, &GlOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let diff = compare(&cpu.image, &gl.image, 0).unwrap();
    assert_eq!(diff.differing_pixels, 0, "{}: {diff:?}", path.display());
    // and the picture is not empty: something was drawn over the clear colour
    let distinct: std::collections::HashSet<&[u8]> = gl.image.pixels().chunks(4).collect();
    assert!(
        distinct.len() > 2,
        "{}: {} colours",
        path.display(),
        distinct.len()
    );
}

#[test]
fn uniform_blocks_matrices_by_column_and_integers_draw_as_on_the_cpu() {
    if !llvmpipe("uniform_blocks_matrices_by_column_and_integers_draw_as_on_the_cpu") {
        return;
    }
    let dir = temp_dir("gl-uniforms");
    let path = scene(
        &dir,
        "u",
        "#version 330 core\nlayout(location = 0) in vec2 pos;\nout vec2 uv;\n\
         void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }\n",
        "#version 330 core\nin vec2 uv;\nout vec4 color;\n\
         layout(std140) uniform Colors { vec4 tint; mat2 turn; float k[2]; } c;\n\
         uniform Named { vec3 shade; };\n\
         uniform mat2 uM[2];\nuniform mat2x3 uMix;\nuniform ivec2 uI;\nuniform uint uU;\nuniform bool uB;\n\
         void main() {\n\
           vec2 p = c.turn * (uv - 0.5) + uM[1] * uv + uM[0] * uv.yx;\n\
           color = vec4(c.tint.rgb * (0.5 + 0.5 * p.x) + shade * c.k[1] + 0.1 * (uMix * p), 1.0);\n\
           if (uI.y == -3 && uU == 4000000000u && uB) color.a = 0.5;\n\
         }\n",
        r#""attributes": [{"location": 0, "size": 2, "data": [-1, -1, 3, -1, -1, 3]}],
           "uniforms": {"Colors.tint": [0.8, 0.4, 0.2, 1], "Colors.turn": [0, 1, -1, 0],
             "Colors.k": [0.1, 0.3], "shade": [0.2, 0.5, 0.1],
             "uM[0]": [0.25, 0.5], "uM[2]": [0.5, 0], "uM[3]": [0.25, 0.25],
             "uMix[1]": [1, 0.5, 0.25], "uI": [7, -3], "uU": 4000000000, "uB": 1}"#,
    );
    same_as_cpu(&path);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn glsl_1_10_draws_two_sided_flat_and_clipped_in_a_compatibility_context() {
    if !llvmpipe("glsl_1_10_draws_two_sided_flat_and_clipped_in_a_compatibility_context") {
        return;
    }
    let dir = temp_dir("gl-compatibility");
    // `col` is declared first: location 0 by declaration order, as this renderer
    // gives it, whatever the driver's linker would have chosen.
    let path = scene(
        &dir,
        "c",
        "attribute vec3 col;\nattribute vec4 pos;\n\
         void main() { gl_Position = pos; gl_FrontColor = vec4(col, 1.0);\n\
           gl_BackColor = vec4(1.0) - vec4(col, 0.0); }\n",
        "void main() { gl_FragColor = gl_Color; }\n",
        r#""attributes": [
             {"location": 0, "size": 3, "data": [1,0,0, 0,1,0, 0,0,1, 1,0,0, 0,1,0, 0,0,1]},
             {"location": 1, "size": 4, "data": [-1,-1,0,1, 0,-1,0,1, -1,1,0,1,
                                                  0.2,-1,0,1, 0.2,1,0,1, 1,-1,0,1]}],
           "state": {"two_sided_color": true, "shade_model": "flat",
                     "clip_planes": [[1, 0, 0, 0.5]]}"#,
    );
    same_as_cpu(&path);
    // the built-in inputs with arrays of their own, fed or held at (0, 0, 0, 1), and
    // the matrices GL keeps
    let builtins = scene(
        &dir,
        "b",
        "varying vec3 n;\nvarying vec2 tc;\n\
         void main() { gl_Position = ftransform(); gl_FrontColor = gl_Color;\n\
           gl_FrontSecondaryColor = gl_SecondaryColor; n = gl_NormalMatrix * gl_Normal;\n\
           tc = gl_MultiTexCoord0.xy + gl_MultiTexCoord1.xy; }\n",
        "varying vec3 n;\nvarying vec2 tc;\n\
         void main() { gl_FragColor = gl_Color * 0.5 + vec4(abs(n), 0.0) * 0.3\n\
           + vec4(tc, 0.0, 0.0) * 0.2 + gl_SecondaryColor * 0.1; }\n",
        r#""attributes": [
             {"location": 0, "size": 3, "data": [-1,-1,0, 1,-1,0, -1,1,0]},
             {"location": 1, "size": 3, "data": [0,0,1, 1,0,0, 0,1,0]},
             {"location": 2, "size": 2, "data": [0,0, 1,0, 0,1]},
             {"location": 3, "size": 4, "data": [1,0,0,1, 0,1,0,1, 0,0,1,1]}],
           "uniforms": {"gl_ModelViewProjectionMatrix": [0.8,0,0,0, 0,0.8,0,0, 0,0,-1,0, 0.1,0,0,1]}"#,
    );
    same_as_cpu(&builtins);
    let out = bin(&[
        "render",
        path.to_str().unwrap(),
        "--backend",
        "gl",
        "-o",
        dir.join("c.png").to_str().unwrap(),
    ]);
    assert!(
        stdout(&out).contains("Compatibility Profile"),
        "{}",
        stdout(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn errors_name_the_field_the_file_and_the_driver_s_log() {
    if !llvmpipe("errors_name_the_field_the_file_and_the_driver_s_log") {
        return;
    }
    let dir = temp_dir("gl-errors");
    let vertex = "#version 330 core\nlayout(location = 0) in vec2 pos;\n\
                  void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
    let triangle = r#""attributes": [{"location": 0, "size": 2, "data": [-1, -1, 3, -1, -1, 3]}]"#;
    let render = |path: &Path, extra: &[&str]| {
        let out = dir.join("out.png");
        let mut args = vec![
            "render",
            path.to_str().unwrap(),
            "--backend",
            "gl",
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = bin(&args);
        assert!(!out.exists(), "nothing is written on an error");
        (o.status.code(), stderr(&o))
    };

    let bad = scene(
        &dir,
        "bad",
        vertex,
        "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(nope); }\n",
        triangle,
    );
    let (code, err) = render(&bad, &[]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("draws[0].fragment: ")
            && err.contains("bad.frag: the driver does not compile"),
        "{err}"
    );
    assert!(
        err.contains("nope"),
        "the driver's info log names the symbol: {err}"
    );

    let undeclared = scene(
        &dir,
        "undeclared",
        vertex,
        "#version 330 core\nuniform vec3 uUsed;\nuniform float uDead;\nout vec4 c;\n\
         void main() { c = vec4(uUsed, 1.0); }\n",
        &format!(r#"{triangle}, "uniforms": {{"uUsed": [1, 0, 0], "uDead": 2, "uNope": 1}}"#),
    );
    let (code, err) = render(&undeclared, &[]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("draws[0].uniforms.uNope: the program does not declare uniform 'uNope'"),
        "{err}"
    );
    assert!(
        !err.contains("uniforms.uDead"),
        "a declared uniform the driver dropped is no error: {err}"
    );

    // what the CPU renderer refuses, the GL back end refuses alike, before the driver
    // draws a frame OpenGL leaves undefined
    let block = scene(
        &dir,
        "block",
        vertex,
        "#version 330 core\nuniform Light { vec4 color; };\nout vec4 c;\n\
         void main() { c = color; }\n",
        &format!(r#"{triangle}, "uniforms": {{"Light.color": [1, 0, 0, 1]}}"#),
    );
    let (code, err) = render(&block, &[]);
    assert_eq!(code, Some(1));
    assert!(err.contains("draws[0].uniforms.Light.color: "), "{err}");
    let nul = scene(
        &dir,
        "nul",
        vertex,
        "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n\0junk\n",
        triangle,
    );
    let (code, err) = render(&nul, &[]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("draws[0].fragment: ") && err.contains("NUL"),
        "{err}"
    );

    let valid = scene(
        &dir,
        "valid",
        vertex,
        "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
        triangle,
    );
    let missing_folder = dir.join("no/such/x.png");
    let o = bin(&[
        "render",
        valid.to_str().unwrap(),
        "--backend",
        "gl",
        "-o",
        missing_folder.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
    if !Path::new("/tmp/.virgl_test").exists() {
        let v = dir.join("v.png");
        let o = bin_with(
            &[("GALLIUM_DRIVER", "virpipe")],
            &[
                "render",
                valid.to_str().unwrap(),
                "--backend",
                "gl",
                "-o",
                v.to_str().unwrap(),
            ],
        );
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("GALLIUM_DRIVER=virpipe draws through a running virgl_test_server"),
            "{}",
            stderr(&o)
        );
    }

    let (code, err) = render(&valid, &["--gl-device", "99"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("there is no EGL device 99; the devices are: 0: "),
        "{err}"
    );
    assert!(
        !err.contains("EGL_EXT_"),
        "devices are named, not listed by extension: {err}"
    );

    let (code, err) = render(&undeclared, &["--profile", "seed"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--profile seed"), "{err}");

    let csi = dir.join("v.csi");
    let vert = dir.join("bad.vert");
    let o = bin(&[
        "compile",
        vert.to_str().unwrap(),
        "--csi",
        csi.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csi_scene = dir.join("csi.json");
    std::fs::write(
        &csi_scene,
        format!(
            r#"{{"format": "csir-scene/1", "width": 8, "height": 8,
                "draws": [{{"vertex": "v.csi", "fragment": "undeclared.frag", {triangle},
                            "uniforms": {{"uUsed": [1, 0, 0]}}}}]}}"#
        ),
    )
    .unwrap();
    let (code, err) = render(&csi_scene, &[]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("draws[0].vertex: ") && err.contains("compiled CSI shader"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_backend_gl_update_rewrites_stale_references_only() {
    if !llvmpipe("check_backend_gl_update_rewrites_stale_references_only") {
        return;
    }
    let dir = temp_dir("gl-update");
    std::fs::create_dir_all(dir.join("shaders")).unwrap();
    let refs = common::reference_dir();
    for f in ["triangle.vert", "triangle.frag"] {
        std::fs::copy(refs.join("shaders").join(f), dir.join("shaders").join(f)).unwrap();
    }
    for name in ["a", "b"] {
        std::fs::copy(refs.join("triangle.json"), dir.join(format!("{name}.json"))).unwrap();
    }
    let kept = refs.join("triangle.llvmpipe.png");
    std::fs::copy(&kept, dir.join("a.llvmpipe.png")).unwrap();
    // b's reference is stale: one pixel changed
    let mut stale = read_png(&kept).unwrap();
    stale.pixels_mut()[0] ^= 0x40;
    let b = dir.join("b.llvmpipe.png");
    csir_render::image_io::write_png(&b, stale.width(), stale.height(), stale.pixels()).unwrap();

    let update = || {
        bin(&[
            "check",
            dir.to_str().unwrap(),
            "--backend",
            "gl",
            "--update",
        ])
    };
    let o = update();
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("b.json: reference rewritten from this render (it differed"),
        "{text}"
    );
    assert!(text.contains("1 reference image written"), "{text}");
    assert_eq!(
        std::fs::read(dir.join("a.llvmpipe.png")).unwrap(),
        std::fs::read(&kept).unwrap()
    );
    assert_eq!(read_png(&b).unwrap(), read_png(&kept).unwrap());
    let again = stdout(&update());
    assert!(!again.contains("written"), "{again}");

    // softpipe may not write llvmpipe's references
    let o = bin_with(
        &[
            ("GALLIUM_DRIVER", "softpipe"),
            ("LIBGL_ALWAYS_SOFTWARE", "1"),
        ],
        &[
            "check",
            dir.to_str().unwrap(),
            "--backend",
            "gl",
            "--update",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("not llvmpipe"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn render_frames_times_the_driver() {
    if !llvmpipe("render_frames_times_the_driver") {
        return;
    }
    let dir = temp_dir("gl-frames");
    let out = dir.join("t.png");
    let o = bin(&[
        "render",
        &cli_support::reference("triangle.json"),
        "--backend",
        "gl",
        "--frames",
        "3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("llvmpipe (LLVM"), "{text}");
    assert!(text.contains("frames: 3, median "), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
