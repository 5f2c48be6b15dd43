//! Parity of the two back ends on the real consumer of the second: every scene in
//! `reference-images/` (the reference set and the corpus scenes) rendered by a private
//! `virgl_test_server` from our TGSI must match the CPU render under the scene's
//! tolerance rule (`docs/virgl.md`, "Parity").
//!
//! The tests need Debian's `virgl-server`. Without it they skip, unless
//! `CSIR_REQUIRE_TEST_DEPS` is set (as `scripts/test.sh` and CI set it, after
//! `scripts/test-deps.sh` installed the package): then a missing server fails them.

use csir_render::pipeline::{RenderOptions, render_scene};
use csir_render::scene::Scene;
use csir_render::virgl::{VirglOptions, render_scene_virgl};
use csir_virgl::server::{DEFAULT_SERVER, SERVER_ENV};
use std::path::Path;

mod common;
use common::{reference_dir, reference_scenes};

/// Whether the server program can be run; `false` means skip, unless the test
/// dependencies are required, in which case the test fails here.
fn server_available(test: &str) -> bool {
    let program = std::env::var(SERVER_ENV).unwrap_or_else(|_| DEFAULT_SERVER.to_owned());
    let found = if program.contains('/') {
        Path::new(&program).is_file()
    } else {
        std::env::var_os("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(&program).is_file()))
    };
    if !found {
        assert!(
            std::env::var_os("CSIR_REQUIRE_TEST_DEPS").is_none(),
            "{program} is missing and CSIR_REQUIRE_TEST_DEPS is set: run scripts/test-deps.sh \
             (apt-get install virgl-server)"
        );
        eprintln!("{test}: skipped, {program} is not installed (apt-get install virgl-server)");
    }
    found
}

#[test]
fn every_reference_and_corpus_scene_renders_through_virgl_like_the_cpu() {
    if !server_available("every_reference_and_corpus_scene_renders_through_virgl_like_the_cpu") {
        return;
    }
    let scenes = reference_scenes();
    assert!(
        scenes.len() >= 20,
        "expected the reference set, found {scenes:?}"
    );
    let corpus = scenes
        .iter()
        .filter(|s| s.parent().is_some_and(|p| p.ends_with("corpus")));
    assert!(
        corpus.count() >= 5,
        "expected the corpus scenes, found {scenes:?}"
    );
    let mut failures = Vec::new();
    let mut drawn = Vec::new();
    for path in &scenes {
        let scene = Scene::load(path).unwrap_or_else(|e| panic!("{e}"));
        let cpu = render_scene(&scene, &RenderOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let virgl = match render_scene_virgl(&scene, &VirglOptions::default()) {
            Ok(frame) => frame,
            // The back end refuses user clip planes by name (docs/virgl.md); such a
            // scene (corpus_clip) has nothing to compare.
            Err(e)
                if scene.draws.iter().any(|d| d.state.clip_planes.any())
                    && e.to_string()
                        .contains("user clip planes are not supported by --backend virgl") =>
            {
                println!("{}: refused (user clip planes)", path.display());
                continue;
            }
            // And geometry shaders, which the virgl path does not send yet.
            Err(e)
                if scene.draws.iter().any(|d| d.geometry.is_some())
                    && e.to_string().contains("not supported by --backend virgl") =>
            {
                println!("{}: refused (geometry shader)", path.display());
                continue;
            }
            Err(e) => {
                failures.push(format!("{}: not rendered: {e}", path.display()));
                continue;
            }
        };
        drawn.push(path.clone());
        let rule = scene.tolerance_rule();
        let judgement = rule
            .judge(&virgl.image, &cpu.image)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let d = judgement.diff;
        println!(
            "{}: max {} mean {:.4}/255, {} pixels differ, {} over {}/255 ({})",
            path.display(),
            d.max_channel_diff,
            d.mean_abs_error,
            d.differing_pixels,
            d.over_tolerance_pixels,
            rule.tolerance,
            if judgement.passed() { "pass" } else { "FAIL" }
        );
        for failure in target_failures(&scene, &virgl.targets, &cpu.targets) {
            failures.push(format!("{}: {failure}", path.display()));
        }
        if !judgement.passed() {
            let breaches: Vec<String> = judgement.breaches.iter().map(|b| b.to_string()).collect();
            failures.push(format!(
                "{}: {} (worst pixel {:?}; `csir-render trace` it, and see the shader's \
                 `compile --parity` dump)",
                path.display(),
                breaches.join("; "),
                d.worst_pixel
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "scenes whose virgl render is off the CPU render:\n{}",
        failures.join("\n")
    );
    // Every GL 3.3 texture scene (each target, format family, shadow sampler and
    // border colour) and every mipmapped one is drawn, none refused.
    let textured: Vec<_> = scenes
        .iter()
        .filter(|p| {
            p.parent().is_some_and(|d| d.ends_with("textures_gl33")) || {
                let scene = Scene::load(p).unwrap_or_else(|e| panic!("{e}"));
                scene
                    .draws
                    .iter()
                    .any(|d| d.samplers.iter().any(|b| b.sampler.is_mipmapped()))
            }
        })
        .collect();
    assert!(
        textured.len() >= 18,
        "expected the textures_gl33 and mip scenes, found {textured:?}"
    );
    let refused: Vec<_> = textured.iter().filter(|p| !drawn.contains(p)).collect();
    assert!(
        refused.is_empty(),
        "texture scenes virgl did not draw: {refused:?}"
    );
    // Every per-fragment, framebuffer and GL 3.3 texture scene (render targets,
    // sRGB, multisampling, alpha-to-coverage, dual-source blending, buffer textures,
    // textureGrad on 3D and cube samplers) is drawn, none refused.
    let families = ["fragment", "framebuffer", "textures_gl33"];
    let family: Vec<_> = scenes
        .iter()
        .filter(|p| {
            p.parent()
                .is_some_and(|d| families.iter().any(|f| d.ends_with(f)))
        })
        .collect();
    assert!(
        family.len() >= 25,
        "expected the fragment, framebuffer and textures_gl33 scenes, found {family:?}"
    );
    for must in [
        "framebuffer/msaa_edges.json",
        "framebuffer/alpha_to_coverage.json",
        "framebuffer/srgb_on.json",
        "fragment/dual_source.json",
        "textures_gl33/volume3d_grad.json",
        "textures_gl33/cube_grad.json",
    ] {
        assert!(
            drawn.iter().any(|p| p.ends_with(must)),
            "{must} was not drawn through virgl"
        );
    }
    let refused: Vec<_> = family.iter().filter(|p| !drawn.contains(p)).collect();
    assert!(
        refused.is_empty(),
        "fragment, framebuffer and texture scenes virgl did not draw: {refused:?}"
    );
    // Every primitives scene (points, lines, strips, fans, adjacency, restart,
    // polygon modes, instancing, gl_PrimitiveID, gl_PointCoord) is drawn, none
    // refused (docs/virgl.md "Points, lines and instancing").
    let primitives: Vec<_> = scenes
        .iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("primitives")))
        .collect();
    assert!(
        primitives.len() >= 6,
        "expected the primitives scenes, found {primitives:?}"
    );
    let refused: Vec<_> = primitives.iter().filter(|p| !drawn.contains(p)).collect();
    assert!(
        refused.is_empty(),
        "primitives scenes virgl did not draw: {refused:?}"
    );
}

/// Each target of a scene with `targets` after target 0's image (which the caller
/// compares) and target 0 when it is not unorm, compared as `check` compares them
/// (docs/reference-checks.md "Render targets": unorm targets by the scene's rule,
/// floats within the tolerance, integers exactly): one message per failing target.
fn target_failures(
    scene: &Scene,
    virgl: &[csir_render::pipeline::TargetImage],
    cpu: &[csir_render::pipeline::TargetImage],
) -> Vec<String> {
    use csir_raster::TargetClass;
    if virgl.len() != cpu.len() {
        return vec![format!(
            "virgl read back {} targets, the CPU renderer {}",
            virgl.len(),
            cpu.len()
        )];
    }
    let rule = scene.tolerance_rule();
    let mut failures = Vec::new();
    for (k, (ours, theirs)) in virgl.iter().zip(cpu).enumerate() {
        let class = ours.target.format.class();
        let name = ours.target.format.name();
        if class == TargetClass::Unorm {
            if k == 0 {
                continue;
            }
            let image = |t: &csir_render::pipeline::TargetImage| {
                csir_render::image_io::Rgba8Image::new(t.width, t.height, t.to_rgba8())
                    .expect("a target is width x height")
            };
            let judgement = rule.judge(&image(ours), &image(theirs)).unwrap();
            println!(
                "  targets[{k}] ({name}): max {} over {}/255 in {} pixels",
                judgement.diff.max_channel_diff,
                rule.tolerance,
                judgement.diff.over_tolerance_pixels
            );
            if !judgement.passed() {
                failures.push(format!("targets[{k}] ({name}) off the CPU render"));
            }
            continue;
        }
        match csir_render::compare::compare_target(ours, &theirs.values, &rule) {
            Some(d) => {
                println!(
                    "  targets[{k}] ({name}): {} of {} pixels over the tolerance (largest \
                     difference {})",
                    d.pixels_over, d.pixels, d.max_diff
                );
                if !d.passed {
                    failures.push(format!(
                        "targets[{k}] ({name}): {} of {} pixels differ beyond the target \
                         tolerance (largest difference {})",
                        d.pixels_over, d.pixels, d.max_diff
                    ));
                }
            }
            None => failures.push(format!("targets[{k}] ({name}): the sizes differ")),
        }
    }
    failures
}

#[test]
fn a_shader_longer_than_one_guest_packet_goes_in_continuations() {
    if !server_available("a_shader_longer_than_one_guest_packet_goes_in_continuations") {
        return;
    }
    // procedural.frag's TGSI is several times the ChrisOS guest's 3600-byte budget.
    let scene = Scene::load(reference_dir().join("procedural_1080p.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    let frame =
        render_scene_virgl(&scene, &VirglOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (frame.image.width(), frame.image.height(), frame.draws),
        (1920, 1080, 1)
    );
    assert!(
        frame.shader_packets > 3,
        "one vertex packet and several fragment packets, got {}",
        frame.shader_packets
    );
    // The same text in one packet per shader renders the same pixels.
    let one_packet = VirglOptions {
        shader_packet_bytes: usize::MAX,
        ..VirglOptions::default()
    };
    let whole = render_scene_virgl(&scene, &one_packet).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(whole.shader_packets, 2);
    assert!(
        whole.image == frame.image,
        "continuations changed the image"
    );
}

#[test]
fn a_texture_buffer_is_refused_by_name() {
    // Refused before any server is started, so this runs without one.
    let dir = std::env::temp_dir().join(format!("csir-virgl-buffer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fragment = dir.join("buffer.frag");
    std::fs::write(
        &fragment,
        "#version 330 core\nin vec2 vUV;\nout vec4 c;\nuniform samplerBuffer uTex;\n\
         void main() { c = texelFetch(uTex, int(vUV.x * 4.0)); }\n",
    )
    .unwrap();
    let scene = serde_json::json!({
        "format": "csir-scene/1", "width": 8, "height": 8,
        "textures": {"buf": {"target": "buffer", "format": "rgba32f", "width": 4,
                             "data": vec![0.0; 16]}},
        "draws": [{
            "vertex": reference_dir().join("shaders/textured.vert").display().to_string(),
            "fragment": fragment.display().to_string(),
            "attributes": [
                {"location": 0, "size": 2, "data": [-1, -1, 1, -1, 1, 1]},
                {"location": 2, "size": 2, "data": [0, 0, 1, 0, 1, 1]},
            ],
            "samplers": {"uTex": {"texture": "buf"}},
        }],
    });
    let path = dir.join("buffer.json");
    std::fs::write(&path, scene.to_string()).unwrap();
    let scene = Scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let err = render_scene_virgl(&scene, &VirglOptions::default())
        .expect_err("a texture buffer is refused");
    assert!(
        err.to_string().contains(
            "draws[0].samplers.uTex: sampler 'uTex': texture 'buf' is a buffer texture, which \
             --backend virgl does not draw"
        ),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gl_point_coord_outside_points_is_refused_by_name() {
    // Refused before any server is started, so this runs without one.
    let primitives = reference_dir().join("primitives");
    let scene = serde_json::json!({
        "format": "csir-scene/1", "width": 8, "height": 8,
        "draws": [{
            "vertex": reference_dir().join("shaders/color2d.vert").display().to_string(),
            "fragment": primitives.join("point_coord.frag").display().to_string(),
            "attributes": [
                {"location": 0, "size": 2, "data": [-1, -1, 1, -1, 1, 1]},
                {"location": 1, "size": 4, "data": [1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1]},
            ],
            "state": {"polygon_mode": "point", "point_size": 4},
        }],
    });
    let dir = std::env::temp_dir().join(format!("csir-virgl-pcoord-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("pcoord.json");
    std::fs::write(&path, scene.to_string()).unwrap();
    let scene = Scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let err = render_scene_virgl(&scene, &VirglOptions::default())
        .expect_err("gl_PointCoord in a triangles draw is refused");
    assert!(
        err.to_string().contains(
            "draws[0].fragment: gl_PointCoord in a draw of primitive `triangles` is not \
             supported by --backend virgl"
        ),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_server_says_how_to_install_it() {
    // Runs without the server: the program named here does not exist.
    let scene =
        Scene::load(reference_dir().join("triangle.json")).unwrap_or_else(|e| panic!("{e}"));
    // The variable is set for a child process only: the other tests of this file
    // read it in this process.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_csir-render"))
        .args(["render", "--backend", "virgl", "-o"])
        .arg(std::env::temp_dir().join("csir-virgl-missing-server.png"))
        .arg(&scene.path)
        .env(SERVER_ENV, "csir-no-such-virgl-server")
        .output()
        .expect("run csir-render");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("csir-no-such-virgl-server not found")
            && stderr.contains("apt-get install --no-install-recommends virgl-server"),
        "{stderr}"
    );
}

/// One draw of [`format_scene`]: its fragment shader, its texture and sampler keys.
struct FormatDraw {
    fragment: &'static str,
    texture: serde_json::Value,
    sampler: serde_json::Value,
}

/// A 160×64 frame of ten 32×32 quads, each sampling its own texture of a format,
/// target or sampler kind the reference scenes do not have (`rg8`, `rgba16f`, `r32f`,
/// `rgba8ui`, `rgba32ui`, `rgba32i` 3D, a mipmapped `rgba16f` with the λ and base
/// level keys, a cube and a 2D-array shadow sampler, offsets and size queries),
/// written to `dir`.
fn format_scene(dir: &Path) -> std::path::PathBuf {
    use serde_json::json;
    let header = "#version 330 core\nin vec2 vUV;\nout vec4 c;\n";
    let ramp = |n: usize, k: usize, scale: f64| -> Vec<f64> {
        (0..n * k)
            .map(|i| ((i * 37 + i / k * 11) % 97) as f64 / 96.0 * scale)
            .collect()
    };
    let depth_ramp = |n: usize| -> Vec<f64> { (0..n).map(|i| (i % 7) as f64 / 6.0).collect() };
    let draws = [
        FormatDraw {
            fragment: "uniform sampler2D uTex;\nvoid main() { c = texture(uTex, vUV * 1.5); }",
            texture: json!({"format": "rg8", "width": 4, "height": 4, "data": ramp(16, 2, 255.0)}),
            sampler: json!({"filter": "linear", "wrap": "repeat"}),
        },
        FormatDraw {
            fragment: "uniform sampler2D uTex;\nvoid main() { c = texture(uTex, vUV); }",
            texture: json!({"format": "rgba16f", "width": 4, "height": 4, "data": ramp(16, 4, 1.0)}),
            sampler: json!({"filter": "linear", "wrap_s": "mirror", "wrap_t": "clamp"}),
        },
        FormatDraw {
            fragment: "uniform sampler2D uTex;\nvoid main() { c = texture(uTex, vUV * 2.0 - 0.5); }",
            texture: json!({"format": "r32f", "width": 4, "height": 4, "data": ramp(16, 1, 1.0)}),
            sampler: json!({"filter": "nearest", "wrap": "clamp_to_border",
                            "border_color": [0.25, 0.5, 0.75, 1.0]}),
        },
        FormatDraw {
            fragment: "uniform usampler2D uTex;\nvoid main() {\n    uvec4 t = texelFetch(uTex, ivec2(vUV * 4.0), 0);\n    c = vec4(t) / 255.0;\n}",
            texture: json!({"format": "rgba8ui", "width": 4, "height": 4, "data": ramp(16, 4, 255.0).iter().map(|v| v.round()).collect::<Vec<_>>()}),
            sampler: json!({"filter": "nearest"}),
        },
        FormatDraw {
            fragment: "uniform usampler2D uTex;\nvoid main() {\n    uvec4 t = texelFetchOffset(uTex, ivec2(vUV * 3.0), 0, ivec2(1, 0));\n    c = vec4(t % 200u) / 200.0;\n}",
            texture: json!({"format": "rgba32ui", "width": 4, "height": 4, "data": ramp(16, 4, 100000.0).iter().map(|v| v.round()).collect::<Vec<_>>()}),
            sampler: json!({"filter": "nearest"}),
        },
        FormatDraw {
            fragment: "uniform isampler3D uTex;\nvoid main() {\n    ivec4 t = texelFetch(uTex, ivec3(vUV * 2.0, int(vUV.x * 2.0)), 0);\n    ivec3 s = textureSize(uTex, 0);\n    c = vec4(t + 300) / 600.0 + vec4(s, 0) * 0.01;\n}",
            texture: json!({"target": "3d", "format": "rgba32i", "width": 2, "height": 2, "depth": 2, "data": ramp(8, 4, 500.0).iter().map(|v| (v - 250.0).round()).collect::<Vec<_>>()}),
            sampler: json!({"filter": "nearest"}),
        },
        FormatDraw {
            fragment: "uniform sampler2D uTex;\nvoid main() { c = texture(uTex, vUV * 3.0); }",
            texture: json!({"format": "rgba16f", "width": 8, "height": 8, "data": ramp(64, 4, 1.0)}),
            sampler: json!({"min_filter": "linear_mipmap_linear", "mag_filter": "linear",
                            "wrap": "repeat", "lod_bias": 0.5, "min_lod": 0.5,
                            "max_lod": 2.0, "base_level": 1}),
        },
        FormatDraw {
            fragment: "uniform samplerCubeShadow uTex;\nvoid main() {\n    vec2 p = vUV * 1.6 - 0.8;\n    float s = texture(uTex, vec4(p.x, 1.0, p.y, vUV.x), 0.5);\n    c = vec4(s, 1.0 - s, float(textureSize(uTex, 0).x) * 0.1, 1.0);\n}",
            texture: json!({"target": "cube", "format": "depth32f", "width": 2, "height": 2, "data": depth_ramp(24)}),
            sampler: json!({"filter": "nearest", "compare": "lequal"}),
        },
        FormatDraw {
            fragment: "uniform sampler2DArrayShadow uTex;\nvoid main() {\n    float s = texture(uTex, vec4(vUV, floor(vUV.x * 2.0), vUV.y));\n    c = vec4(s, s * 0.5, 0.25, 1.0);\n}",
            texture: json!({"target": "2d_array", "format": "depth32f", "width": 4, "height": 4, "depth": 2, "data": depth_ramp(32)}),
            sampler: json!({"filter": "linear", "compare": "greater"}),
        },
        FormatDraw {
            fragment: "uniform sampler1DArray uTex;\nvoid main() {\n    c = textureLodOffset(uTex, vec2(vUV.x, 1.0), 0.0, -1) * 0.5\n      + textureGrad(uTex, vec2(vUV.x, 0.0), 0.0, 0.0) * 0.5;\n}",
            texture: json!({"target": "1d_array", "width": 8, "height": 2, "data": ramp(16, 4, 255.0).iter().map(|v| v.round()).collect::<Vec<_>>()}),
            sampler: json!({"filter": "nearest", "wrap": "repeat"}),
        },
    ];
    let vertex = reference_dir().join("shaders/textured.vert");
    let mut textures = serde_json::Map::new();
    let mut scene_draws = Vec::new();
    for (i, d) in draws.iter().enumerate() {
        let fragment = dir.join(format!("format{i}.frag"));
        std::fs::write(&fragment, format!("{header}{}\n", d.fragment)).unwrap();
        textures.insert(format!("t{i}"), d.texture.clone());
        let (x0, y0) = ((i % 5) as f64 * 0.4 - 1.0, (i / 5) as f64 - 1.0);
        let (x1, y1) = (x0 + 0.4, y0 + 1.0);
        let mut sampler = d.sampler.clone();
        sampler["texture"] = json!(format!("t{i}"));
        scene_draws.push(json!({
            "vertex": vertex.display().to_string(),
            "fragment": fragment.display().to_string(),
            "attributes": [
                {"location": 0, "size": 2, "data": [x0, y0, x1, y0, x1, y1, x0, y1]},
                {"location": 2, "size": 2, "data": [0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0]},
            ],
            "indices": [0, 1, 2, 0, 2, 3],
            "samplers": {"uTex": sampler},
            "state": {"depth_test": "none"},
        }));
    }
    let scene = json!({
        "format": "csir-scene/1",
        "width": 160,
        "height": 64,
        "clear": {"color": [0.1, 0.1, 0.1, 1.0]},
        "textures": textures,
        "draws": scene_draws,
    });
    let path = dir.join("formats.json");
    std::fs::write(&path, serde_json::to_string_pretty(&scene).unwrap()).unwrap();
    path
}

#[test]
fn every_texture_format_and_sampler_kind_draws_through_virgl_like_the_cpu() {
    if !server_available("every_texture_format_and_sampler_kind_draws_through_virgl_like_the_cpu") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("csir-virgl-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = format_scene(&dir);
    let scene = Scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let cpu = render_scene(&scene, &RenderOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let virgl =
        render_scene_virgl(&scene, &VirglOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let rule = scene.tolerance_rule();
    let judgement = rule.judge(&virgl.image, &cpu.image).unwrap();
    let d = judgement.diff;
    println!(
        "formats: max {} mean {:.4}/255, {} pixels differ, {} over {}/255",
        d.max_channel_diff,
        d.mean_abs_error,
        d.differing_pixels,
        d.over_tolerance_pixels,
        rule.tolerance
    );
    // Every quad was drawn: none is left at the clear colour.
    for i in 0..10u32 {
        let (x, y) = (i % 5 * 32 + 16, 63 - (i / 5 * 32 + 16));
        let p = virgl.image.pixel(x, y);
        assert!(
            !matches!(p, Some([25 | 26, 25 | 26, 25 | 26, 255])),
            "quad {i} at ({x}, {y}) not drawn: {p:?}"
        );
    }
    assert!(
        judgement.passed(),
        "virgl off the CPU: {:?} (worst pixel {:?})",
        judgement
            .breaches
            .iter()
            .map(|b| b.to_string())
            .collect::<Vec<_>>(),
        d.worst_pixel
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A quad over NDC `[x0, x1] × [y0, y1]` at depth `z`, one colour per corner, for
/// `reference-images/framebuffer/color.vert`.
fn color_quad(fragment: &Path, [x0, y0, x1, y1]: [f64; 4], colors: [[f64; 4]; 4]) -> Value {
    let vertex = reference_dir().join("framebuffer/color.vert");
    let corners = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
    serde_json::json!({
        "vertex": vertex.display().to_string(),
        "fragment": fragment.display().to_string(),
        "attributes": [
            {"location": 0, "size": 3,
             "data": corners.iter().flat_map(|[x, y]| [*x, *y, 0.5]).collect::<Vec<_>>()},
            {"location": 1, "size": 4, "data": colors.concat()},
        ],
        "indices": [0, 1, 2, 0, 2, 3],
    })
}

use serde_json::Value;

/// Renders the scene `json` (written into `dir` as `name.json`) by the CPU and
/// through virgl and compares the frame and every target as `check` does; returns
/// the virgl frame.
fn render_both_and_compare(dir: &Path, name: &str, json: &Value) -> csir_render::virgl::VirglFrame {
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, json.to_string()).unwrap();
    let scene = Scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let cpu = render_scene(&scene, &RenderOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let virgl = render_scene_virgl(&scene, &VirglOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let rule = scene.tolerance_rule();
    let judgement = rule.judge(&virgl.image, &cpu.image).unwrap();
    println!(
        "{name}: max {} over {}/255 in {} pixels",
        judgement.diff.max_channel_diff, rule.tolerance, judgement.diff.over_tolerance_pixels
    );
    let mut failures = target_failures(&scene, &virgl.targets, &cpu.targets);
    if !judgement.passed() {
        failures.push(format!("the frame: {:?}", judgement.breaches));
    }
    assert!(failures.is_empty(), "{name}: {}", failures.join("; "));
    virgl
}

#[test]
fn every_target_format_draws_through_virgl_like_the_cpu() {
    if !server_available("every_target_format_draws_through_virgl_like_the_cpu") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("csir-virgl-targets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let corners = [
        [0.9, 0.1, 0.2, 1.0],
        [0.1, 0.8, 0.3, 0.6],
        [0.2, 0.3, 0.9, 0.2],
        [1.0, 1.0, 0.1, 0.9],
    ];
    let flat = [[0.3, 0.6, 0.6, 0.5]; 4];
    // Seven targets of the unorm, sRGB and float formats, two draws, the second
    // alpha-blended over the first; with and without GL_FRAMEBUFFER_SRGB.
    let seven = dir.join("seven.frag");
    std::fs::write(
        &seven,
        "#version 330 core\nin vec4 vColor;\n\
         layout(location = 0) out vec4 o0;\nlayout(location = 1) out vec4 o1;\n\
         layout(location = 2) out vec4 o2;\nlayout(location = 3) out vec4 o3;\n\
         layout(location = 4) out vec4 o4;\nlayout(location = 5) out vec4 o5;\n\
         layout(location = 6) out float o6;\n\
         void main() {\n    o0 = vColor;\n    o1 = vColor.bgra;\n    o2 = vColor.gbra;\n\
             o3 = vColor.brga;\n    o4 = vColor * 4.0 - 1.0;\n    o5 = vColor * -3.5;\n\
             o6 = dot(vColor, vec4(100.0));\n}\n",
    )
    .unwrap();
    let formats = [
        "rgba8",
        "srgb8_alpha8",
        "r8",
        "rg8",
        "rgba16f",
        "rgba32f",
        "r32f",
    ];
    let mut blended = color_quad(&seven, [-0.3, -0.5, 0.9, 0.9], flat);
    blended["state"] = serde_json::json!({"blend": "alpha"});
    for srgb in [false, true] {
        let scene = serde_json::json!({
            "format": "csir-scene/1", "width": 48, "height": 32,
            "targets": formats.iter().map(|f| serde_json::json!({"format": f})).collect::<Vec<_>>(),
            "framebuffer_srgb": srgb,
            "clear": {"color": [[0.1, 0.2, 0.3, 1.0], [0.5, 0.5, 0.5, 0.5], [0.25, 0, 0, 0],
                                [0.75, 0.125, 0, 0], [-2.0, 0.5, 100.0, 1.0],
                                [1e6, -1e-6, 0.0, 3.0], [7.0, 0, 0, 0]]},
            "draws": [
                color_quad(&seven, [-0.9, -0.9, 0.5, 0.6], corners),
                blended.clone(),
            ],
        });
        let frame = render_both_and_compare(&dir, &format!("seven_srgb_{srgb}"), &scene);
        assert_eq!(frame.targets.len(), 7);
    }
    // The integer formats, their clears, and locations 2 and 3 placed by the host's
    // linker. The integers come from the pixel position, which both renderers
    // compute exactly (a float colour times 4e9 would differ in its last bits).
    let ints = dir.join("ints.frag");
    std::fs::write(
        &ints,
        "#version 330 core\nin vec4 vColor;\n\
         layout(location = 0) out uvec4 u;\nlayout(location = 1) out ivec4 i;\n\
         layout(location = 2) out vec4 c;\nlayout(location = 3) out uvec4 b;\n\
         void main() {\n    u = uvec4(uvec2(gl_FragCoord.xy), 7u, 4000000000u);\n\
             i = ivec4(gl_FragCoord.xy, 0, 0) - ivec4(100, 50, 2000000000, -7);\n\
             c = vColor;\n    b = uvec4(uvec2(gl_FragCoord.xy) * 9u, 200u, 300u);\n}\n",
    )
    .unwrap();
    let scene = serde_json::json!({
        "format": "csir-scene/1", "width": 40, "height": 24,
        "targets": [{"format": "rgba32ui"}, {"format": "rgba32i"}, {"format": "rgba8"},
                    {"format": "rgba8ui"}],
        "clear": {"color": [[1, 2, 3, 4000000000u32], [-5, 6, -7, 8], [0.0, 0.0, 0.0, 1.0],
                            [9, 8, 7, 6]]},
        "draws": [color_quad(&ints, [-0.8, -0.8, 0.6, 0.7], corners)],
    });
    let frame = render_both_and_compare(&dir, "ints", &scene);
    // The clear of rgba32ui at a corner (row 0 is the top row), exactly.
    assert_eq!(frame.targets[0].values[0], [1, 2, 3, 4_000_000_000]);
    assert_eq!(frame.targets[1].values[0].map(|w| w as i32), [-5, 6, -7, 8]);
    // Two targets, location 1 written last: target 0 holds location 0.
    let two = dir.join("two.frag");
    std::fs::write(
        &two,
        "#version 330 core\nin vec4 vColor;\n\
         layout(location = 0) out vec4 first;\nlayout(location = 1) out vec4 second;\n\
         void main() {\n    first = vColor;\n    second = vec4(1.0, 0.0, 1.0, 1.0);\n}\n",
    )
    .unwrap();
    let scene = serde_json::json!({
        "format": "csir-scene/1", "width": 32, "height": 32,
        "targets": [{"format": "rgba8"}, {"format": "rgba8"}],
        "draws": [color_quad(&two, [-0.8, -0.8, 0.8, 0.8], corners)],
    });
    let frame = render_both_and_compare(&dir, "two_outputs", &scene);
    assert_ne!(frame.image.pixel(16, 16), Some([255, 0, 255, 255]));
    assert_eq!(frame.targets[1].values[16 * 32 + 16], [255, 0, 255, 255]);
    let _ = std::fs::remove_dir_all(&dir);
}
