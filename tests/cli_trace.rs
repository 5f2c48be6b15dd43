//! `csir-render trace` through the built binary: the reported colour is the byte
//! `render` writes to the PNG, text and JSON forms, and the error paths.

mod cli_support;

use cli_support::{bin, reciprocal_of_zero_scene, reference as scene, stderr, stdout, temp_dir};
use csir_render::image_io::read_png;
use std::path::Path;

/// The records of `trace --json` (JSON Lines: one object per line).
fn records(stdout: &[u8]) -> Vec<serde_json::Value> {
    std::str::from_utf8(stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The `color` of `trace --json` at `pixel`, and the PNG's bytes there after `render`.
fn traced_and_rendered(scene: Option<&str>, pixel: [u32; 2], dir: &Path) -> ([u8; 4], [u8; 4]) {
    traced_and_rendered_with(scene, pixel, dir, &[])
}

/// [`traced_and_rendered`] with `extra` options given to both commands.
fn traced_and_rendered_with(
    scene: Option<&str>,
    pixel: [u32; 2],
    dir: &Path,
    extra: &[&str],
) -> ([u8; 4], [u8; 4]) {
    let png = dir.join("out.png");
    let at = format!("{},{}", pixel[0], pixel[1]);
    let mut render = vec!["render", "-o", png.to_str().unwrap()];
    let mut trace = vec!["trace", "--pixel", &at, "--json"];
    render.extend_from_slice(extra);
    trace.extend_from_slice(extra);
    if let Some(s) = scene {
        render.push(s);
        trace.push(s);
    }
    let out = bin(&render);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = bin(&trace);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = records(&out.stdout);
    let end = lines.last().unwrap();
    assert_eq!(end["record"], "end");
    let traced: Vec<u8> = end["color"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u8)
        .collect();
    let image = read_png(&png).unwrap();
    let rendered = image.pixel(pixel[0], pixel[1]).unwrap();
    (traced.try_into().unwrap(), rendered)
}

#[test]
fn the_traced_colour_is_the_png_byte() {
    let dir = temp_dir("trace-bytes");
    for pixel in [[160, 120], [120, 150], [2, 2], [319, 239]] {
        let (traced, rendered) = traced_and_rendered(None, pixel, &dir);
        assert_eq!(traced, rendered, "default scene {pixel:?}");
    }
    let wrap = scene("wrap_blend.json");
    for pixel in [[10, 10], [64, 64], [100, 30]] {
        let (traced, rendered) = traced_and_rendered(Some(&wrap), pixel, &dir);
        assert_eq!(traced, rendered, "wrap_blend {pixel:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn text_tells_the_whole_story() {
    let out = bin(&["trace", "--pixel", "160,120"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for expected in [
        "<default scene>/lit_cube.json: pixel 160,120 of 320x240 (window 160,119, y up) is rgba8 (",
        "draw 0: <default scene>/lit.vert + <default scene>/lit.frag (depth less, write on, cull back, blend none)",
        "fragment 1: triangle ",
        "gl_FragCoord (160.5, 119.5, ",
        "depth test less: fragment ",
        "vNormal: vec3 = (",
        "instructions executed:",
        "then taken",
        "end of if @",
        "store_color",
        "fragColor: vec4 = (",
        "blend none (rgb add(one, zero), alpha add(one, zero)): source (",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

#[test]
fn json_is_machine_readable() {
    let out = bin(&[
        "trace",
        &scene("discard_depth.json"),
        "--pixel",
        "100,100",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = records(&out.stdout);
    let kinds: Vec<&str> = lines
        .iter()
        .map(|r| r["record"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["pixel", "draw", "fragment", "draw", "fragment", "end"]
    );
    let json = &lines[0];
    assert_eq!(json["width"], 256);
    assert_eq!(json["window"], serde_json::json!([100, 155]));
    let draws = [&lines[1], &lines[3]];
    assert_eq!(draws[0]["index"], 0);
    assert_eq!(draws[0]["fragments_shown"], 1);
    assert_eq!(draws[0]["fragments_not_shown"], 0);
    let first = &lines[2];
    assert_eq!(first["draw"], 0);
    assert_eq!(first["fragment"], 1);
    assert_eq!(first["discarded"], true);
    assert_eq!(
        first["shader"]["instructions"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()["instruction"],
        "discard"
    );
    assert_eq!(
        draws[0]["before"], draws[0]["after"],
        "a discard leaves the pixel"
    );
    assert_eq!(draws[1]["after"], lines[5]["color"]);
    assert_eq!(lines[5]["draws_shown"], 2);
    assert_eq!(lines[5]["draws_not_shown"], 0);
}

#[test]
fn errors_are_reported_not_panicked() {
    let out = bin(&["trace", "--pixel", "320,0"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("pixel 320,0 is outside the 320x240 image"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());

    let out = bin(&["trace", &scene("triangle.json"), "--pixel", "0,100000"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("outside"), "{}", stderr(&out));

    let dir = temp_dir("trace-errors");
    let missing = dir.join("missing.json");
    let out = bin(&["trace", missing.to_str().unwrap(), "--pixel", "1,1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("missing.json"), "{}", stderr(&out));

    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{ \"format\": \"csir-scene/1\", ").unwrap();
    let out = bin(&["trace", broken.to_str().unwrap(), "--pixel", "1,1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("broken.json"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);

    for bad in ["1", "1,2,3", "-1,5", "x,y", ""] {
        let out = bin(&["trace", "--pixel", bad]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "--pixel {bad:?}: {}",
            stderr(&out)
        );
    }
    let out = bin(&["trace"]);
    assert_eq!(out.status.code(), Some(2), "--pixel is required");
}

#[test]
fn the_usage_shows_the_scene_as_optional() {
    let triangle = scene("triangle.json");
    for args in [
        vec!["trace"],
        vec!["trace", triangle.as_str()],
        vec!["trace", "--json"],
    ] {
        let out = bin(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains("--pixel <X,Y>"), "{args:?}: {err}");
        assert!(
            err.contains("Usage: csir-render trace [OPTIONS] --pixel <X,Y> [SCENE]"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("<SCENE>"), "{args:?}: {err}");
    }
    let help = stdout(&bin(&["trace", "--help"]));
    assert!(help.contains("[SCENE]"), "{help}");
}

#[test]
fn flat_integer_varyings_and_integer_registers_print_as_integers() {
    // corpus_raster's flat_int tile: pixel (500, 120) lies in the quad's first
    // triangle, whose provoking vertex is corner 2: vBig = 16777217 + 2·3 and
    // vBits = (3 · 2654435769 mod 2^32, 0x7FC00000 + 2), a NaN pattern as a float.
    let corpus = scene("corpus/corpus_raster.json");
    let out = bin(&["trace", &corpus, "--pixel", "500,120"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("vBig: int = (16777223)"), "{text}");
    assert!(
        text.contains("vBits: uvec2 = (3668340011, 2143289346)"),
        "{text}"
    );
    // `d = vBig - uBase` is 6 and `d / 3` is 2, both shown as integers.
    assert!(
        text.lines()
            .any(|l| l.contains(" idiv ") && l.ends_with("(2, _, _, _)")),
        "{text}"
    );
    let out = bin(&["trace", &corpus, "--pixel", "500,120", "--json"]);
    let lines = records(&out.stdout);
    let fragment = lines
        .iter()
        .find(|r| r["record"] == "fragment" && r["draw"] == 3)
        .expect("draw 3 shades the pixel");
    let varying = |name: &str| {
        let list = fragment["varyings"].as_array().unwrap();
        list.iter().find(|v| v["name"] == name).unwrap()["values"].clone()
    };
    assert_eq!(varying("vBig"), serde_json::json!([16777223]));
    assert_eq!(
        varying("vBits"),
        serde_json::json!([3668340011u32, 2143289346u32])
    );
}

/// `trace --profile` traces the scene as `render --profile` draws it: `1.0 / z` with
/// `z = 0` is +inf in the extended profile (red 255 after clamping) and 0 in the seed
/// profile (RCP(0) = 0), and each trace gives its render's byte.
#[test]
fn trace_takes_the_profile_render_took() {
    let dir = temp_dir("trace-profile");
    let scene_path = reciprocal_of_zero_scene(&dir);
    let scene_arg = scene_path.to_str().unwrap();
    for (profile, red) in [("extended", 255), ("seed", 0)] {
        let (traced, rendered) =
            traced_and_rendered_with(Some(scene_arg), [2, 2], &dir, &["--profile", profile]);
        assert_eq!(traced, [red, 0, 0, 255], "{profile}");
        assert_eq!(rendered, traced, "{profile}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
