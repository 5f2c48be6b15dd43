//! `csir-render check`: exit status, the closing line, a broken reference first in the
//! report with its heat map, `--update`, and shares merged into the same results as one
//! run.

use csir_render::check::{CheckResults, Status};
use csir_render::image_io::{read_png, write_png};
use std::path::{Path, PathBuf};

mod cli_support;
use cli_support::{bin, reciprocal_of_zero_scene, stderr, stdout, temp_dir};

/// `reference-images/` in the checkout.
fn reference_images() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images")
}

/// A scratch suite: the shaders, textures and meshes of `reference-images/` and the
/// given scenes with their references.
fn suite(test: &str, scenes: &[&str]) -> (PathBuf, PathBuf) {
    let root = temp_dir(test);
    let _ = std::fs::remove_dir_all(&root);
    let suite = root.join("suite");
    for folder in ["shaders", "textures", "meshes"] {
        let to = suite.join(folder);
        std::fs::create_dir_all(&to).unwrap();
        for entry in std::fs::read_dir(reference_images().join(folder)).unwrap() {
            let entry = entry.unwrap();
            // Subfolders (shaders/extended/) serve scenes these tests do not copy.
            if entry.file_type().unwrap().is_file() {
                std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
            }
        }
    }
    for scene in scenes {
        for file in [format!("{scene}.json"), format!("{scene}.llvmpipe.png")] {
            std::fs::copy(reference_images().join(&file), suite.join(&file)).unwrap();
        }
    }
    (root, suite)
}

/// Paints a white square of `side` pixels at (`x`, `y`) into the PNG at `path`.
fn break_reference(path: &Path, x: u32, y: u32, side: u32) {
    let mut image = read_png(path).unwrap();
    let width = image.width();
    for py in y..y + side {
        for px in x..x + side {
            let i = ((py * width + px) * 4) as usize;
            image.pixels_mut()[i..i + 4].copy_from_slice(&[255, 255, 255, 255]);
        }
    }
    write_png(path, image.width(), image.height(), image.pixels()).unwrap();
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn a_broken_reference_exits_1_and_leads_the_report_with_its_heat_map() {
    let (root, suite) = suite("check-broken", &["triangle", "lit_cube", "textured_quad"]);
    break_reference(&suite.join("lit_cube.llvmpipe.png"), 140, 100, 30);
    let report = root.join("report");
    let junit = root.join("junit.xml");
    let out = bin(&[
        "check",
        s(&suite),
        "--report",
        s(&report),
        "--junit",
        s(&junit),
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(text.ends_with("\n2 passed, 1 failed, 0 errors\n"), "{text}");
    let lit_cube = suite.join("lit_cube.json");
    assert!(
        text.starts_with(&format!("FAIL  {}: ", lit_cube.display())),
        "{text}"
    );

    // results.json: lit_cube failed, worst pixel in the square, a heat map kept
    let results = CheckResults::read_json(&report).unwrap();
    assert_eq!(results.results.len(), 3);
    let first = results.in_report_order()[0].clone();
    assert_eq!(
        (first.scene.as_str(), first.status),
        (s(&lit_cube), Status::Failed)
    );
    let metrics = first.metrics.as_ref().unwrap();
    let [x, y] = metrics.worst_pixel.unwrap();
    assert!(
        (140..170).contains(&x) && (100..130).contains(&y),
        "{x},{y}"
    );
    assert!(metrics.over_tolerance_pixels > 450, "{metrics:?}");
    assert_eq!(
        first.trace.as_deref(),
        Some(format!("csir-render trace {} --pixel {x},{y}", lit_cube.display()).as_str())
    );
    // the heat map is hot inside the square where the cube is, black far from it
    let heat = read_png(first.images.as_ref().unwrap().heat_map.as_ref().unwrap()).unwrap();
    assert_eq!(heat.pixel(x, y), Some([255, 255, 255, 255]));
    assert_eq!(heat.pixel(10, 10), Some([0, 0, 0, 255]));
    let hot = heat.pixels().chunks_exact(4).filter(|p| p[0] > 0).count();
    assert!((450..=900 + 3).contains(&hot), "{hot} hot pixels");

    // report.html: the first row is lit_cube, failed, with three thumbnails and the
    // trace command; the passed rows follow
    let page = std::fs::read_to_string(report.join("report.html")).unwrap();
    let rows: Vec<&str> = page.split("<tr class=\"row ").skip(1).collect();
    assert_eq!(rows.len(), 3);
    assert!(rows[0].starts_with("failed\""), "{}", &rows[0][..80]);
    assert!(rows[0].contains(&format!("data-scene=\"{}\"", lit_cube.display())));
    assert_eq!(
        rows[0].matches("<img src=\"data:image/png;base64,").count(),
        3
    );
    assert!(rows[0].contains("<td class=\"thumb heat\"><img src=\"data:image/png;base64,"));
    assert!(rows[0].contains(&format!("--pixel {x},{y}</code>")));
    assert!(rows[1].starts_with("passed\"") && rows[2].starts_with("passed\""));
    assert!(page.contains("<title>csir-render check: 2 passed, 1 failed, 0 errors</title>"));
    assert!(
        !page.contains("src=\"images/"),
        "self-contained: no links to files"
    );

    let junit = std::fs::read_to_string(&junit).unwrap();
    assert!(
        junit.contains("tests=\"3\" failures=\"1\" errors=\"0\""),
        "{junit}"
    );
    assert!(
        junit.contains("<failure type=\"tolerance\" message=\""),
        "{junit}"
    );
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn update_writes_missing_references_and_replaces_only_with_force() {
    let (root, suite) = suite("check-update", &["triangle", "textured_quad"]);
    let triangle_ref = suite.join("triangle.llvmpipe.png");
    std::fs::remove_file(&triangle_ref).unwrap();
    let quad_ref = suite.join("textured_quad.llvmpipe.png");
    break_reference(&quad_ref, 0, 0, 64);
    let broken = std::fs::read(&quad_ref).unwrap();

    // without --update: a missing reference is an error (exit 2)
    let out = bin(&["check", s(&suite)]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stdout(&out).contains("(run with --update to write it from this render)"));
    assert!(
        stdout(&out).ends_with("0 passed, 1 failed, 1 errors\n"),
        "{}",
        stdout(&out)
    );
    assert!(!triangle_ref.exists());

    // --update writes the missing one, keeps the broken one
    let out = bin(&["check", s(&suite), "--update"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).ends_with("1 reference image written\n1 passed, 1 failed, 0 errors\n"),
        "{}",
        stdout(&out)
    );
    let written = read_png(&triangle_ref).unwrap();
    let expected = read_png(&reference_images().join("triangle.llvmpipe.png")).unwrap();
    assert_eq!(
        written.pixels(),
        expected.pixels(),
        "our render of the triangle is llvmpipe's"
    );
    assert_eq!(
        std::fs::read(&quad_ref).unwrap(),
        broken,
        "not overwritten without --force"
    );

    // --force needs --update; with it, the failing reference is replaced
    let out = bin(&["check", s(&suite), "--force"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = bin(&["check", s(&suite), "--update", "--force"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("reference replaced by this render (it failed: "),
        "{}",
        stdout(&out)
    );
    let out = bin(&["check", s(&suite)]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out), "2 passed, 0 failed, 0 errors\n");
    let _ = std::fs::remove_dir_all(root);
}

/// The results without what differs between runs of the same scenes: the wall times
/// and where the images were kept.
fn comparable(mut results: CheckResults) -> CheckResults {
    for r in &mut results.results {
        r.seconds = 0.0;
        r.images = None;
    }
    results
}

#[test]
fn three_shares_merged_give_the_results_of_one_run() {
    let scenes = [
        "triangle",
        "lit_cube",
        "textured_quad",
        "clip_planes",
        "discard_depth",
        "alpha_overlap",
        "shared_edges_additive",
    ];
    let (root, suite) = suite("check-shards", &scenes);
    break_reference(&suite.join("clip_planes.llvmpipe.png"), 10, 10, 40);
    std::fs::remove_file(suite.join("alpha_overlap.llvmpipe.png")).unwrap();

    let whole = root.join("whole");
    let out = bin(&["check", s(&suite), "--report", s(&whole), "--jobs", "1"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let closing = stdout(&out).lines().last().unwrap().to_owned();
    assert_eq!(closing, "5 passed, 1 failed, 1 errors");

    let mut shares = Vec::new();
    let mut taken = Vec::new();
    for i in 1..=3 {
        let dir = root.join(format!("share-{i}"));
        let out = bin(&[
            "check",
            s(&suite),
            "--shard",
            &format!("{i}/3"),
            "--report",
            s(&dir),
        ]);
        assert!(
            stderr(&out).contains(&format!("shard {i}/3: ")),
            "{}",
            stderr(&out)
        );
        let part = CheckResults::read_json(&dir).unwrap();
        assert_eq!(part.scenes_found, 7);
        taken.extend(part.results.iter().map(|r| r.scene.clone()));
        shares.push(dir);
    }
    // the shares are 3 + 2 + 2 scenes, each scene in exactly one
    taken.sort();
    let mut all: Vec<String> = scenes
        .iter()
        .map(|n| s(&suite.join(format!("{n}.json"))).to_owned())
        .collect();
    all.sort();
    assert_eq!(taken, all);

    let merged = root.join("merged");
    let json = root.join("merged.json");
    let mut args = vec!["check", "--merge"];
    args.extend(shares.iter().rev().map(|p| s(p)));
    args.extend(["--report", s(&merged), "--json", s(&json)]);
    let out = bin(&args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert_eq!(stdout(&out).lines().last().unwrap(), closing);

    let one_run = CheckResults::read_json(&whole).unwrap();
    let merged_results = CheckResults::read_json(&merged).unwrap();
    assert_eq!(
        comparable(merged_results.clone()),
        comparable(one_run.clone())
    );
    assert_eq!(
        comparable(CheckResults::read_json(&json).unwrap()),
        comparable(one_run.clone())
    );

    // the renders are byte-identical whatever the sharding; the merged folder holds
    // its own copies of every image
    for (a, b) in one_run.results.iter().zip(&merged_results.results) {
        let (Some(a), Some(b)) = (&a.images, &b.images) else {
            panic!("{}: images kept in both", a.scene)
        };
        let (a, b) = (a.ours.as_ref().unwrap(), b.ours.as_ref().unwrap());
        assert!(
            b.starts_with(merged.canonicalize().unwrap()) || b.starts_with(&merged),
            "{}",
            b.display()
        );
        assert_eq!(
            std::fs::read(a).unwrap(),
            std::fs::read(b).unwrap(),
            "{}",
            a.display()
        );
    }
    let page = std::fs::read_to_string(merged.join("report.html")).unwrap();
    assert_eq!(page.matches("<tr class=\"row ").count(), 7);
    assert!(page.contains("<tr class=\"row failed\" id=\"row-0\""));

    // a missing share is an error that names it
    let out = bin(&["check", "--merge", s(&shares[0]), s(&shares[2])]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), "error: cannot merge: missing share 2/3\n");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn bad_inputs_are_clear_errors() {
    let dir = temp_dir("check-inputs");
    let missing = dir.join("nope");
    let out = bin(&["check", s(&missing)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(&format!("error: {}: ", missing.display())),
        "{}",
        stderr(&out)
    );
    let out = bin(&["check", s(&dir), "--shard", "4/3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("'4/3' is not a shard I/N (I counts from 1 to N)"),
        "{}",
        stderr(&out)
    );
    // a scene that does not load is an error result naming the file and the field
    let scene = dir.join("bad.json");
    std::fs::write(
        &scene,
        r#"{"format": "csir-scene/1", "width": 0, "height": 4}"#,
    )
    .unwrap();
    let out = bin(&["check", s(&scene)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stdout(&out),
        format!(
            "ERROR {}: width: expected an integer in 1..=16384, got 0\n0 passed, 0 failed, 1 errors\n",
            scene.display()
        )
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// README "Output files": check's reports are never written over an input of the
/// command. Each refusal exits 2 before writing anything and leaves the input as it
/// was; the same run with a new output path passes.
#[test]
fn reports_are_never_written_over_the_command_s_inputs() {
    let (root, suite) = suite("check-over-inputs", &["triangle"]);
    let scene = suite.join("triangle.json");
    let shader = suite.join("shaders").join("triangle.vert");
    let reference = suite.join("triangle.llvmpipe.png");
    let read = |p: &Path| std::fs::read(p).unwrap();
    let (scene_bytes, shader_bytes, reference_bytes) =
        (read(&scene), read(&shader), read(&reference));
    let refused = |args: &[&str], input: &Path, role: &str| {
        let out = bin(args);
        let err = stderr(&out);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {err}{}",
            stdout(&out)
        );
        assert!(
            err.contains("refusing to write the output over")
                && err.contains(&input.file_name().unwrap().to_string_lossy().into_owned())
                && err.contains(role),
            "{args:?}: {err}"
        );
    };
    // the scene itself and its reference image, found before rendering
    refused(
        &["check", s(&scene), "--json", s(&scene)],
        &scene,
        "a scene",
    );
    refused(
        &["check", s(&suite), "--junit", s(&reference)],
        &reference,
        "the reference image of a scene",
    );
    // a shader of the scene (an existing file, so the scenes are loaded again)
    refused(
        &["check", s(&scene), "--junit", s(&shader)],
        &shader,
        "a shader of the scene",
    );
    // a report folder whose results file is the scene
    let scene_as_results = suite.join("results.json");
    std::fs::copy(&scene, &scene_as_results).unwrap();
    std::fs::copy(&reference, suite.join("results.llvmpipe.png")).unwrap();
    refused(
        &["check", s(&scene_as_results), "--report", s(&suite)],
        &scene_as_results,
        "a scene",
    );
    assert_eq!(read(&scene), scene_bytes);
    assert_eq!(read(&shader), shader_bytes);
    assert_eq!(read(&reference), reference_bytes);
    assert!(!suite.join("report.html").exists());

    // the valid twin: a new file is written; merging it into itself is refused
    let results = root.join("share.json");
    let out = bin(&["check", s(&scene), "--json", s(&results)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let share = read(&results);
    refused(
        &["check", "--merge", s(&results), "--json", s(&results)],
        &results,
        "a share's results",
    );
    assert_eq!(read(&results), share);
    let merged = root.join("merged.json");
    let out = bin(&["check", "--merge", s(&results), "--json", s(&merged)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// `check DIR --report DIR`: the folder is searched (it was skipped whole, "no scene
/// files found"), and a second run does not take the first report's `results.json`
/// for a scene; nor does a run without --report take a report in a subfolder.
#[test]
fn report_folders_are_never_read_back_as_scenes() {
    let (_root, suite) = suite("check-report-in-place", &["triangle"]);
    for run in 0..2 {
        let out = bin(&["check", s(&suite), "--report", s(&suite)]);
        let text = stdout(&out);
        assert_eq!(
            out.status.code(),
            Some(0),
            "run {run}: {text}{}",
            stderr(&out)
        );
        assert!(
            text.ends_with("\n1 passed, 0 failed, 0 errors\n"),
            "run {run}: {text}"
        );
    }
    let results = CheckResults::read_json(&suite).unwrap();
    assert_eq!(results.results.len(), 1);
    assert!(results.results[0].scene.ends_with("triangle.json"));
    // a report in a subfolder, then the folder checked without --report: the earlier
    // report is not read as a scene
    let nested = suite.join("out");
    let out = bin(&["check", s(&suite), "--report", s(&nested)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = bin(&["check", s(&suite)]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert_eq!(text, "1 passed, 0 failed, 0 errors\n");
}

/// `check --profile seed` renders as `render --profile seed` does: a reference made
/// under the seed profile passes with it and fails under the default (1.0 / 0 is 0 in
/// the seed profile, +inf in the extended one), and a failure's trace command carries
/// the profile.
#[test]
fn check_takes_the_profile_render_took() {
    let dir = temp_dir("check-profile");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let scene = reciprocal_of_zero_scene(&dir);
    let reference = dir.join("p.llvmpipe.png");
    let out = bin(&[
        "render",
        s(&scene),
        "-o",
        s(&reference),
        "--profile",
        "seed",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = bin(&["check", s(&scene), "--profile", "seed"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let out = bin(&["check", s(&scene)]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let out = bin(&["render", s(&scene), "-o", s(&reference)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = bin(&["check", s(&scene), "--profile", "seed"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).contains(" --profile seed"),
        "the trace command names the profile: {}",
        stdout(&out)
    );
    let _ = std::fs::remove_dir_all(dir);
}
