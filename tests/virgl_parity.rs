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
            // Mipmapped samplers too (docs/virgl.md: level 0 only is uploaded).
            Err(e)
                if scene.draws.iter().any(|d| {
                    d.samplers.iter().any(|b| {
                        b.sampler.min_filter.texel_filter() != b.sampler.mag_filter
                            || b.sampler.is_mipmapped()
                    })
                }) && e
                    .to_string()
                    .contains("is not supported by --backend virgl") =>
            {
                println!("{}: refused (mipmapped sampler)", path.display());
                continue;
            }
            // And the vertex pipeline beyond filled, non-instanced triangles of float
            // arrays (src/virgl/vertex_pipeline.rs).
            Err(e)
                if uses_refused_vertex_pipeline(&scene)
                    && e.to_string().contains("not supported by --backend virgl") =>
            {
                println!("{}: refused (vertex pipeline)", path.display());
                continue;
            }
            // And per-fragment state it does not send (docs/scene-format.md
            // "Per-fragment operations"; the fragment/ scenes).
            Err(e)
                if scene.draws.iter().any(|d| {
                    let r = &d.state.raster;
                    let defaults = csir_raster::RasterState::default();
                    matches!(r.blend, csir_raster::BlendMode::Function(_))
                        || r.color_mask != defaults.color_mask
                        || r.scissor.is_some()
                        || r.viewport.is_some()
                        || r.depth_range != defaults.depth_range
                        || r.polygon_offset.is_some()
                }) && e
                    .to_string()
                    .contains("is not supported by --backend virgl") =>
            {
                println!("{}: refused (per-fragment state)", path.display());
                continue;
            }
            // Render targets and sRGB framebuffers, which virgl's one RGBA8 surface
            // does not have.
            Err(e)
                if scene.targets.given
                    && e.to_string()
                        .contains("is not supported by --backend virgl") =>
            {
                println!("{}: refused (render targets)", path.display());
                continue;
            }
            // Multisampling, which virgl's single-sampled surface does not have.
            Err(e)
                if scene.samples > 1
                    && e.to_string()
                        .contains("is not supported by --backend virgl") =>
            {
                println!("{}: refused (multisampling)", path.display());
                continue;
            }
            // And geometry shaders and GL 3.3 textures (targets, formats, sampler keys),
            // which the virgl path does not send yet.
            Err(e)
                if (scene.draws.iter().any(|d| d.geometry.is_some())
                    && e.to_string().contains("not supported by --backend virgl"))
                    || e.to_string()
                        .contains("--backend virgl uploads 2D RGBA8 textures") =>
            {
                println!(
                    "{}: refused (geometry shader or GL 3.3 texture)",
                    path.display()
                );
                continue;
            }
            Err(e) => {
                failures.push(format!("{}: not rendered: {e}", path.display()));
                continue;
            }
        };
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
}

/// Whether a draw of `scene` uses what `--backend virgl` refuses by name in the
/// vertex pipeline: points, lines, a polygon mode, instances, divisors, integer
/// arrays, or the built-ins the TGSI emitter does not declare as system values.
fn uses_refused_vertex_pipeline(scene: &Scene) -> bool {
    use csir_render::scene::{PolygonMode, PrimitiveKind};
    let names = [
        "gl_VertexID",
        "gl_InstanceID",
        "gl_PrimitiveID",
        "gl_PointCoord",
    ];
    scene.draws.iter().any(|d| {
        d.primitive.kind() != PrimitiveKind::Triangles
            || d.instances != 1
            || d.state.points_lines.polygon_mode != PolygonMode::Fill
            || d.attributes
                .iter()
                .any(|a| a.divisor != 0 || a.ty.is_integer())
            || names
                .iter()
                .any(|n| d.vertex.text.contains(n) || d.fragment.text.contains(n))
    })
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
