//! Budgets: `--max-memory` is checked before the framebuffer or a
//! texture is allocated, with an error naming the need and the limit (a trace needs one
//! tile of the frame); `trace` shows a
//! bounded number of draws and fragments, says how many more there are, and streams
//! `--json` as JSON Lines.

mod cli_support;

use cli_support::{bin, reference, stderr, stdout, temp_dir};
use serde_json::{Value, json};

/// Writes `big.json` in `dir`: an empty 16384×16384 frame, which needs 3 GiB.
fn largest_empty_frame(dir: &std::path::Path) -> std::path::PathBuf {
    let scene = dir.join("big.json");
    std::fs::write(
        &scene,
        r#"{"format": "csir-scene/1", "width": 16384, "height": 16384, "draws": []}"#,
    )
    .unwrap();
    scene
}

#[test]
fn a_frame_over_the_memory_limit_is_a_named_error_and_nothing_is_written() {
    let dir = temp_dir("budget-frame");
    let scene = largest_empty_frame(&dir);
    let png = dir.join("big.png");
    let run = bin(&[
        "render",
        &scene.display().to_string(),
        "-o",
        &png.display().to_string(),
        "--max-memory",
        "1G",
    ]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert_eq!(
        stderr(&run),
        format!(
            "error: {}: height: a 16384x16384 frame does not fit: the render needs about 3.00 GiB (framebuffer 2.00 GiB, read-back 1.00 GiB, textures 0 B), above the memory limit of 1.00 GiB (--max-memory)\n",
            scene.display()
        )
    );
    assert!(!png.exists());
    // trace draws and allocates only the tile holding its pixel (32 KiB of colour and
    // depth), so the same frame is traced within a limit far below the render's.
    let run = bin(&[
        "trace",
        &scene.display().to_string(),
        "--pixel",
        "16383,0",
        "--max-memory",
        "1M",
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(
        stdout(&run).contains(
            "pixel 16383,0 of 16384x16384 (window 16383,16383, y up) is rgba8 (0, 0, 0, 255)"
        ),
        "{}",
        stdout(&run)
    );
    let run = bin(&[
        "trace",
        &scene.display().to_string(),
        "--pixel",
        "0,0",
        "--max-memory",
        "31K",
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(
        stderr(&run),
        format!(
            "error: {}: height: a 16384x16384 frame does not fit: the render needs about 32.00 KiB (framebuffer 32.00 KiB, read-back 0 B, textures 0 B), above the memory limit of 31.00 KiB (--max-memory)\n",
            scene.display()
        )
    );
    // Bad sizes are usage errors.
    for bad in ["0", "1.5G", "lots", "4X"] {
        let run = bin(&["render", "--max-memory", bad]);
        assert_eq!(run.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&run).contains(&format!("'{bad}' is not a memory size")),
            "{}",
            stderr(&run)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_texture_over_the_memory_limit_is_refused_before_it_is_decoded() {
    let dir = temp_dir("budget-texture");
    // 64x64 frame: 32 KiB of tiles + 16 KiB read-back = 48 KiB. checker.png is
    // 64x64 (16 KiB of texels), 32 KiB while it is decoded: 80 KiB in all.
    let scene = dir.join("tex.json");
    let checker = reference("textures/checker.png");
    let image = csir_render::image_io::read_png(std::path::Path::new(&checker)).unwrap();
    assert_eq!((image.width(), image.height()), (64, 64));
    std::fs::write(
        &scene,
        format!(
            r#"{{"format": "csir-scene/1", "width": 64, "height": 64,
                "textures": {{"checker": {{"path": "{checker}"}}}}, "draws": []}}"#
        ),
    )
    .unwrap();
    let out = dir.join("tex.png");
    let render = |limit: &str| render_within(&scene, &out, limit);
    let run = render("79K");
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert_eq!(
        stderr(&run),
        format!(
            "error: {}: textures.checker.path: {checker} is 64x64 (16.00 KiB of RGBA8 texels) and does not fit: the render needs about 80.00 KiB (framebuffer 32.00 KiB, read-back 16.00 KiB, textures 32.00 KiB), above the memory limit of 79.00 KiB (--max-memory)\n",
            scene.display()
        )
    );
    assert!(!out.exists());
    let run = render("80K");
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A 16x16 scene of `draws` draws, each of `triangles` copies of one triangle that
/// covers the whole frame (depth test always, additive blending: every copy reaches
/// every pixel).
fn stacked_scene(draws: usize, triangles: usize) -> Value {
    let mut data = Vec::new();
    for _ in 0..triangles {
        data.extend([-1.0, -1.0, 0.0, 3.0, -1.0, 0.0, -1.0, 3.0, 0.0]);
    }
    let draw = json!({
        "vertex": reference("shaders/flat.vert"),
        "fragment": reference("shaders/flat.frag"),
        "attributes": [{"location": 0, "size": 3, "data": data}],
        "uniforms": {
            "uColor": [0.1, 0.0, 0.0, 0.0],
            "uCutX": [10.0],
            "uMVP": [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
        },
        "state": {"depth_test": "always", "blend": "additive"}
    });
    json!({
        "format": "csir-scene/1",
        "width": 16,
        "height": 16,
        "draws": vec![draw; draws]
    })
}

#[test]
fn trace_shows_a_bounded_number_of_draws_and_fragments_and_counts_the_rest() {
    let dir = temp_dir("budget-trace");
    let scene = dir.join("stacked.json");
    std::fs::write(&scene, stacked_scene(70, 20).to_string()).unwrap();
    let scene = scene.display().to_string();
    let run = bin(&["trace", &scene, "--pixel", "3,4"]);
    assert!(run.status.success(), "{}", stderr(&run));
    let text = stdout(&run);
    // 64 draws shown by default, 16 fragments each.
    assert_eq!(text.matches("\ndraw ").count(), 64, "{text}");
    assert_eq!(text.matches("  fragment ").count(), 64 * 16);
    assert_eq!(
        text.matches("  4 more fragments not shown (--max-fragments shows more)\n")
            .count(),
        64
    );
    assert!(text.contains("; 20 fragments\n"), "{text}");
    assert!(
        text.ends_with(
            "\n6 more draws not shown (120 fragments at this pixel; --max-draws shows more)\n"
        ),
        "{}",
        &text[text.len().saturating_sub(300)..]
    );

    // The options change the bounds; the colour does not change.
    let run = bin(&[
        "trace",
        &scene,
        "--pixel",
        "3,4",
        "--max-draws",
        "2",
        "--max-fragments",
        "1",
        "--json",
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let lines: Vec<Value> = stdout(&run)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = lines
        .iter()
        .map(|r| r["record"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["pixel", "draw", "fragment", "draw", "fragment", "end"]
    );
    assert_eq!(lines[1]["fragments_shown"], 1);
    assert_eq!(lines[1]["fragments_not_shown"], 19);
    assert_eq!(lines[4]["draw"], 1);
    assert_eq!(lines[4]["fragment"], 1);
    let end = &lines[5];
    assert_eq!(end["draws_shown"], 2);
    assert_eq!(end["draws_not_shown"], 68);
    assert_eq!(end["fragments_in_draws_not_shown"], 68 * 20);
    // 1400 additions of red 0.1 onto the clear colour (0, 0, 0, 1): saturated red.
    assert_eq!(end["color"], json!([255, 0, 0, 255]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Geometry counts against `--max-memory` too (`GEOMETRY_BYTES_PER_TRIANGLE`,
/// `GEOMETRY_BYTES_PER_VERTEX`): an OBJ mesh whose faces make too many triangles is
/// refused while it is read, a draw of attributes once its size is known.
#[test]
fn geometry_over_the_memory_limit_is_refused() {
    use csir_render::budget::{
        Bytes, GEOMETRY_BYTES_PER_TRIANGLE, GEOMETRY_BYTES_PER_VERTEX, OBJ_BYTES_PER_NUMBER,
    };
    let dir = temp_dir("budget-geometry");
    let out = dir.join("out.png");
    let render = |scene: &std::path::Path, limit: &str| render_within(scene, &out, limit);
    // 16x16 frame: one 64x64 tile (32 KiB) and a 1 KiB read-back.
    let frame = 32 * 1024 + 1024;
    let stacked = dir.join("stacked.json");
    std::fs::write(&stacked, stacked_scene(1, 100).to_string()).unwrap();
    let geometry = 100 * GEOMETRY_BYTES_PER_TRIANGLE + 300 * GEOMETRY_BYTES_PER_VERTEX;
    let need = frame + geometry;
    let run = render(&stacked, &(need - 1).to_string());
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(
        stderr(&run).starts_with(&format!(
            "error: {}: draws[0].attributes: the draw's 100 triangles and 300 vertices do not fit: the render needs about ",
            stacked.display()
        )),
        "{}",
        stderr(&run)
    );
    assert!(stderr(&run).contains(", geometry "), "{}", stderr(&run));
    assert!(!out.exists());
    let run = render(&stacked, &need.to_string());
    assert!(run.status.success(), "{}", stderr(&run));
    // Two such draws: the second is refused, and the message says the first counts.
    let two = dir.join("two.json");
    std::fs::write(&two, stacked_scene(2, 100).to_string()).unwrap();
    let run = render(&two, &(need + geometry - 1).to_string());
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(
        stderr(&run).contains(
            "draws[1].attributes: the draw's 100 triangles and 300 vertices do not fit beside the earlier draws' geometry: "
        ),
        "{}",
        stderr(&run)
    );

    // 3 vertices, one face of 1002 corners: a fan of 1000 triangles.
    let mesh = dir.join("fan.obj");
    let corners = " 1 2 3".repeat(334);
    let text = format!("v -1 -1 0\nv 1 -1 0\nv 0 1 0\nf{corners}\n");
    std::fs::write(&mesh, &text).unwrap();
    let mut scene = stacked_scene(1, 1);
    scene["draws"][0]
        .as_object_mut()
        .unwrap()
        .remove("attributes");
    scene["draws"][0]["mesh"] = json!(mesh.display().to_string());
    let fan = dir.join("fan.json");
    std::fs::write(&fan, scene.to_string()).unwrap();
    // While it is read, its text and its 9 numbers count too.
    let reading = text.len() as u64 + 9 * OBJ_BYTES_PER_NUMBER;
    let triangles_fit = frame + 1000 * GEOMETRY_BYTES_PER_TRIANGLE + reading;
    let run = render(&fan, &(triangles_fit - 1).to_string());
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("draws[0].mesh: the draw's at least 1000 triangles do not fit: "),
        "{}",
        stderr(&run)
    );
    assert!(
        stderr(&run).contains(&format!(", OBJ reading {}", Bytes(reading))),
        "{}",
        stderr(&run)
    );
    let run = render(
        &fan,
        &(triangles_fit + 3 * GEOMETRY_BYTES_PER_VERTEX).to_string(),
    );
    assert!(run.status.success(), "{}", stderr(&run));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `render SCENE -o OUT --max-memory LIMIT`.
fn render_within(
    scene: &std::path::Path,
    out: &std::path::Path,
    limit: &str,
) -> std::process::Output {
    bin(&[
        "render",
        &scene.display().to_string(),
        "-o",
        &out.display().to_string(),
        "--max-memory",
        limit,
    ])
}

/// `check` takes `--max-memory` as `render` does: a scene over it is an error result
/// whose message names the limit, and the run exits 2.
#[test]
fn check_applies_its_memory_limit_to_every_scene() {
    let triangle = reference("triangle.json");
    let run = bin(&["check", &triangle, "--max-memory", "1K"]);
    assert_eq!(run.status.code(), Some(2), "{}", stdout(&run));
    assert!(
        stdout(&run).contains("above the memory limit of 1.00 KiB (--max-memory)"),
        "{}",
        stdout(&run)
    );
    let run = bin(&["check", &triangle, "--max-memory", "64M"]);
    assert!(run.status.success(), "{}", stdout(&run));
}

/// Without `--max-memory`, the limit follows the machine: under a 2 GiB address-space
/// limit (`ulimit -v`, as a small container gives) a 16384² frame is a named error
/// that says where the default came from, not an abort from a failed allocation.
#[test]
fn the_default_limit_follows_the_machine() {
    let dir = temp_dir("budget-machine");
    let scene = largest_empty_frame(&dir);
    let png = dir.join("big.png");
    let run = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -v 2097152 && exec "$0" render "$1" -o "$2""#)
        .arg(env!("CARGO_BIN_EXE_csir-render"))
        .arg(&scene)
        .arg(&png)
        .output()
        .expect("sh runs");
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "above the memory limit of 1.50 GiB (--max-memory; this machine's default: \
             1.50 GiB (3/4 of RLIMIT_AS, 2.00 GiB))"
        ),
        "{err}"
    );
    assert!(!png.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Writes `numbers.json` in `dir`: one triangle-list draw whose two attributes hold
/// `count` numbers each, written `0.dddddd` (9 bytes with the comma), so the file is
/// about `18 × count` bytes.
fn scene_of_numbers(dir: &std::path::Path, count: usize) -> std::path::PathBuf {
    let shaders = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images/shaders");
    let mut data = String::with_capacity(count * 9);
    let mut state = 1u32;
    for k in 0..count {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        if k > 0 {
            data.push(',');
        }
        data.push_str(&format!("0.{:06}", state % 1_000_000));
    }
    let attribute =
        |location: u32| format!(r#"{{"location": {location}, "size": 3, "data": [{data}]}}"#);
    let text = format!(
        r#"{{"format": "csir-scene/1", "width": 64, "height": 64, "draws": [{{"vertex": "{vs}", "fragment": "{fs}", "attributes": [{a0}, {a1}]}}]}}"#,
        vs = shaders.join("triangle.vert").display(),
        fs = shaders.join("triangle.frag").display(),
        a0 = attribute(0),
        a1 = attribute(1),
    );
    let scene = dir.join("numbers.json");
    std::fs::write(&scene, text).unwrap();
    scene
}

/// Runs `render SCENE -o OUT --max-memory LIMIT` under an address-space limit of
/// `address_space_kib` (`ulimit -v`): a parse that held more than the budget says
/// would fail to allocate and abort.
fn render_in_address_space(
    scene: &std::path::Path,
    out: &std::path::Path,
    limit: &str,
    address_space_kib: u64,
) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            r#"ulimit -v {address_space_kib} && exec "$0" render "$1" -o "$2" --max-memory {limit}"#
        ))
        .arg(env!("CARGO_BIN_EXE_csir-render"))
        .arg(scene)
        .arg(out)
        .output()
        .expect("sh runs")
}

/// A scene file whose numbers alone pass the limit is refused while it is parsed,
/// before its tree is built: 61 MiB of text under `--max-memory 96M`, in an address
/// space of 96 MiB more than that. A tree of one 32-byte value per number (what the
/// parser built before lists of numbers were held as 8-byte doubles, and before the
/// parse was counted) needs about 230 MiB and aborts there.
#[test]
fn a_scene_file_over_the_memory_limit_is_refused_while_it_is_read() {
    let dir = temp_dir("budget-json");
    let scene = scene_of_numbers(&dir, 3_600_000);
    let text_bytes = std::fs::metadata(&scene).unwrap().len();
    assert!(text_bytes > 60 << 20, "{text_bytes}");
    let png = dir.join("numbers.png");
    let run = render_in_address_space(&scene, &png, "96M", (96 + 96) << 10);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with(&format!(
            "error: {}: reading the scene file would go above the memory limit of 96.00 \
             MiB (--max-memory): its text is 61.",
            scene.display()
        )),
        "{err}"
    );
    assert!(!png.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The same kind of scene, small enough to read, counts its text and tree beside the
/// geometry: refused with `scene JSON` among the parts under a limit its geometry
/// alone would fit, and drawn under a larger one within the address space.
#[test]
fn a_scene_files_json_counts_beside_its_geometry() {
    let dir = temp_dir("budget-json-geometry");
    // 900 000 numbers an attribute: 300 000 vertices, 100 000 triangles; geometry is
    // counted as 160 B a triangle and 96 B a vertex (44.8 MiB), the file is 15.5 MiB
    // and its two lists of numbers 2 × 8 MiB (capacity 2^20 doubles each)
    let scene = scene_of_numbers(&dir, 900_000);
    let png = dir.join("numbers.png");
    let run = render_in_address_space(&scene, &png, "64M", (64 + 96) << 10);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(
        err.contains("100000 triangles and 300000 vertices do not fit")
            && err.contains(", scene JSON 31.")
            && err.contains("above the memory limit of 64.00 MiB (--max-memory)"),
        "{err}"
    );
    let run = render_in_address_space(&scene, &png, "96M", (96 + 96) << 10);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(png.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
