//! `csir-render render`, `diff` and `compile` through the built binary: the summary
//! line, refusing to overwrite a scene's inputs, diff's exit codes, and stage
//! detection from the extension.

mod cli_support;

use cli_support::{bin, reference, stderr, stdout, temp_dir};

#[test]
fn render_writes_the_png_and_prints_one_summary_line() {
    let dir = temp_dir("render-summary");
    let png = dir.join("tri.png");
    let out = bin(&[
        "render",
        &reference("triangle.json"),
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains(": 320x240, 1 draw, 1 triangle, "), "{text}");
    let image = csir_render::image_io::read_png(&png).unwrap();
    assert_eq!((image.width(), image.height()), (320, 240));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn render_refuses_to_overwrite_an_input_of_the_scene() {
    let dir = temp_dir("render-overwrite");
    let scene = dir.join("scene.json");
    let text = std::fs::read_to_string(reference("triangle.json"))
        .unwrap()
        .replace(
            "shaders/",
            &format!(
                "{}/shaders/",
                env!("CARGO_MANIFEST_DIR").to_owned() + "/reference-images"
            ),
        );
    std::fs::write(&scene, &text).unwrap();
    let out = bin(&[
        "render",
        scene.to_str().unwrap(),
        "-o",
        scene.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("refusing to write the output over"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(&scene).unwrap(),
        text,
        "scene untouched"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn diff_exits_0_within_1_over_and_2_when_it_cannot_compare() {
    let dir = temp_dir("diff-codes");
    let reference_png = reference("triangle.llvmpipe.png");
    let same = bin(&["diff", &reference_png, &reference_png]);
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    assert!(
        stdout(&same).contains("max channel diff 0"),
        "{}",
        stdout(&same)
    );
    assert!(
        stdout(&same).ends_with(
            "\nproject rule (at most 0.5% of pixels more than 2/255 off, mean abs error below 0.5/255): passes\n"
        ),
        "{}",
        stdout(&same)
    );
    let other = bin(&["diff", &reference_png, &reference("lit_cube.llvmpipe.png")]);
    assert_eq!(other.status.code(), Some(1), "{}", stdout(&other));
    assert!(
        stdout(&other).contains("): fails: 33521 pixels (43.647%) are more than 2/255 off"),
        "{}",
        stdout(&other)
    );
    let sized = bin(&[
        "diff",
        &reference_png,
        &reference("textured_quad.llvmpipe.png"),
    ]);
    assert_eq!(sized.status.code(), Some(2), "{}", stderr(&sized));
    let missing = dir.join("missing.png");
    let missing = bin(&["diff", &reference_png, missing.to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).starts_with("error: "),
        "{}",
        stderr(&missing)
    );
    // A heat map into a missing folder: exit 2 before any result is printed; into
    // an existing one, written.
    let nowhere = dir.join("no-such-folder").join("heat.png");
    let lit = reference("lit_cube.llvmpipe.png");
    let heat_into = |map: &std::path::Path| {
        bin(&[
            "diff",
            &reference_png,
            &lit,
            "--heatmap",
            map.to_str().unwrap(),
        ])
    };
    let heat = heat_into(&nowhere);
    assert_eq!(heat.status.code(), Some(2), "{}", stderr(&heat));
    assert_eq!(stdout(&heat), "");
    assert!(
        stderr(&heat).contains("does not exist"),
        "{}",
        stderr(&heat)
    );
    let here = dir.join("heat.png");
    let heat = heat_into(&here);
    assert_eq!(heat.status.code(), Some(1), "{}", stderr(&heat));
    assert!(here.is_file());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn compile_takes_the_stage_from_the_extension_in_any_case() {
    let dir = temp_dir("compile-ext");
    let shader = dir.join("COLOR.FRAG");
    std::fs::write(
        &shader,
        "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
    )
    .unwrap();
    let out = bin(&["compile", shader.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("fragment shader OK"),
        "{}",
        stdout(&out)
    );
    let unknown = dir.join("color.glsl");
    std::fs::write(&unknown, "void main() {}").unwrap();
    let out = bin(&["compile", unknown.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("use --stage vert|frag"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// `render` notes a vertex input no attribute feeds and an attribute no input reads,
/// on stderr, and still renders (neither is an error in OpenGL).
#[test]
fn unfed_inputs_and_unread_attributes_are_noted() {
    let dir = temp_dir("input-notes");
    let shaders = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images/shaders");
    let scene = dir.join("notes.json");
    std::fs::write(
        &scene,
        format!(
            r#"{{"format": "csir-scene/1", "width": 8, "height": 8, "draws": [{{
              "vertex": "{0}/triangle.vert", "fragment": "{0}/triangle.frag",
              "attributes": [{{"location": 0, "size": 3, "data": [0,0,0, 1,0,0, 0,1,0]}},
                             {{"location": 5, "size": 2, "data": [0,0, 1,0, 0,1]}}]}}]}}"#,
            shaders.display()
        ),
    )
    .unwrap();
    let png = dir.join("notes.png");
    let out = bin(&[
        "render",
        scene.to_str().unwrap(),
        "-o",
        png.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let shown = scene.display();
    assert_eq!(
        stderr(&out),
        format!(
            "note: {shown}: draws[0]: vertex input 'aColor' (location 1) has no attribute: it \
             reads OpenGL's current value, (0, 0, 0, 1)\n\
             note: {shown}: draws[0].attributes: location 5: no vertex input reads it\n"
        )
    );
    assert!(png.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
