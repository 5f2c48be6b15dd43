//! `csir-render run` through the built binary: outputs by name, GL's attribute rule,
//! textures, discard, the instruction trace, JSON, notes and every error path.

mod cli_support;

use cli_support::{bin, reference, stderr, stdout, temp_dir};
use std::process::Output;

fn shader(name: &str) -> String {
    reference(&format!("shaders/{name}"))
}

fn texture(name: &str) -> String {
    reference(&format!("textures/{name}"))
}

fn run(args: &[&str]) -> Output {
    bin(&[&["run"], args].concat())
}

const IDENTITY: &str = "uMVP=1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1";

#[test]
fn a_vertex_shader_prints_gl_position_and_every_out() {
    let vert = shader("color3d.vert");
    let out = run(&[
        &vert,
        "--uniform",
        IDENTITY,
        "--attr",
        "0=0.5,-0.25",
        "--attr",
        "aColor=1,0.5",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("vertex shader"), "{text}");
    // z missing: 0; aColor's b missing: 0, a missing: 1 (GL's default lanes).
    assert!(
        text.contains("gl_Position: vec4 = (0.5, -0.25, 0, 1)"),
        "{text}"
    );
    assert!(text.contains("vColor: vec4 = (1, 0.5, 0, 1)"), "{text}");
    assert!(
        stderr(&out).is_empty(),
        "every input was given: {}",
        stderr(&out)
    );
}

#[test]
fn inputs_not_given_are_noted_on_stderr_and_refused_with_strict() {
    let vert = shader("color3d.vert");
    let out = run(&[&vert, "--attr", "0=1,2,3"]);
    assert!(out.status.success());
    let notes = stderr(&out);
    assert!(
        notes.contains("note: attribute 'aColor' (vec4) not given: reads (0, 0, 0, 1)"),
        "{notes}"
    );
    assert!(
        notes.contains("note: uniform 'uMVP' (mat4) not given"),
        "{notes}"
    );
    assert!(
        stdout(&out).contains("gl_Position: vec4 = (0, 0, 0, 0)"),
        "uMVP = 0"
    );
    let strict = run(&[&vert, "--attr", "0=1,2,3", "--strict"]);
    assert_eq!(strict.status.code(), Some(1));
    assert!(
        stderr(&strict).contains("--strict: every input must be given"),
        "{}",
        stderr(&strict)
    );
    assert!(stderr(&strict).contains("uniform 'uMVP' (mat4, --uniform)"));
}

#[test]
fn a_fragment_shader_prints_its_colour_and_discard() {
    let frag = shader("discard_checker.frag");
    let kept = run(&[
        &frag,
        "--varying",
        "vColor=0.25,0.5,0.75,1",
        "--fragcoord",
        "4.5,4.5,0.5,1",
    ]);
    assert!(kept.status.success(), "{}", stderr(&kept));
    let text = stdout(&kept);
    assert!(
        text.contains("fragColor: vec4 = (0.25, 0.5, 0.75, 1)"),
        "{text}"
    );
    assert!(text.contains("discarded: no"), "{text}");
    // x in the second 16-pixel cell, y in the first: the checker discards.
    let dropped = run(&[
        &frag,
        "--varying",
        "vColor=1,1,1,1",
        "--fragcoord",
        "20.5,4.5,0.5,1",
    ]);
    assert!(dropped.status.success());
    assert!(
        stdout(&dropped).contains("discarded: yes"),
        "{}",
        stdout(&dropped)
    );
}

#[test]
fn textures_are_sampled_nearest_clamp() {
    let frag = shader("textured.frag");
    let base = [
        frag.as_str(),
        "--uniform",
        "uTint=1,1,1,1",
        "--varying",
        "vUV=0.01,0.01",
        "--json",
    ];
    let checker = format!("uTex={}", texture("checker.png"));
    let with = run(&[&base[..], &["--texture", &checker]].concat());
    let without = run(&base);
    assert!(with.status.success(), "{}", stderr(&with));
    assert!(without.status.success());
    let colour = |out: &Output| {
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        json["outputs"][0]["values"].clone()
    };
    assert_eq!(colour(&without), serde_json::json!([0.0, 0.0, 0.0, 0.0]));
    assert_ne!(colour(&with), colour(&without), "the texture is read");
    assert!(stderr(&without).contains("no texture, samples read (0, 0, 0, 0)"));
    // Far outside [0, 1]: clamp-to-edge gives the corner texels, not black.
    let clamped = run(&[
        frag.as_str(),
        "--uniform",
        "uTint=1,1,1,1",
        "--varying",
        "vUV=-7,-7",
        "--texture",
        &checker,
        "--json",
    ]);
    assert_eq!(
        colour(&clamped),
        colour(&with),
        "(0.01, 0.01) and (-7, -7) share the corner texel"
    );
}

#[test]
fn json_and_the_instruction_trace() {
    let frag = shader("discard_checker.frag");
    let args = [
        frag.as_str(),
        "--varying",
        "vColor=1,0,0,1",
        "--fragcoord",
        "4.5,4.5,0.5,1",
    ];
    let plain = run(&[&args[..], &["--json"]].concat());
    let json: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert_eq!(json["stage"], "fragment");
    assert_eq!(json["outputs"][0]["name"], "fragColor");
    assert_eq!(json["discarded"], false);
    assert!(json["executed"].as_u64().unwrap() > 5);
    assert!(json.get("instructions").is_none(), "only with --trace");
    let traced = run(&[&args[..], &["--json", "--trace"]].concat());
    let json: serde_json::Value = serde_json::from_slice(&traced.stdout).unwrap();
    let steps = json["instructions"].as_array().unwrap();
    assert_eq!(steps.len() as u64, json["executed"].as_u64().unwrap());
    assert!(
        steps
            .iter()
            .any(|s| s["flow"]["kind"] == "if" && s["flow"]["taken"] == false)
    );
    let text = stdout(&run(&[&args[..], &["--trace"]].concat()));
    assert!(text.contains("load_fragcoord"), "{text}");
    assert!(text.contains("then skipped"), "{text}");
    assert!(text.contains("end of if @"), "{text}");
    assert!(text.contains("store_color"), "{text}");
}

#[test]
fn bad_arguments_are_usage_errors() {
    let frag = shader("discard_checker.frag");
    for bad in [
        ["--uniform", "uColor"],
        ["--uniform", "=1"],
        ["--uniform", "u=1,x"],
        ["--fragcoord", "1,,2"],
        ["--texture", "uTex"],
        ["--stage", "geometry"],
    ] {
        let out = run(&[&frag, bad[0], bad[1]]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("error:"), "{bad:?}");
    }
    let out = run(&[&frag, "--uniform", "uColor"]);
    assert!(stderr(&out).contains("there is no '='"), "{}", stderr(&out));
}

#[test]
fn values_that_do_not_fit_the_shader_are_errors() {
    let vert = shader("color3d.vert");
    let frag = shader("discard_checker.frag");
    let png = format!("uTex={}", texture("tiny4.png"));
    let cases: [(&[&str], &str); 9] = [
        (
            &[&vert, "--uniform", "uModel=1"],
            "declares no uniform 'uModel'; its uniforms: uMVP (mat4)",
        ),
        (
            &[&vert, "--uniform", "uMVP=1,2,3"],
            "'uMVP' is mat4 and takes 16 floats, got 3",
        ),
        (&[&vert, "--attr", "5=1"], "declares no attribute '5'"),
        (
            &[&vert, "--attr", "aPos=1,2,3,4"],
            "'aPos' is vec3 and takes 1 to 3 floats, got 4",
        ),
        (
            &[&vert, "--varying", "vColor=1,2,3,4"],
            "--varying gives fragment shader inputs",
        ),
        (
            &[&frag, "--attr", "0=1"],
            "--attr gives vertex shader inputs",
        ),
        (
            &[&frag, "--varying", "vColor=1,2"],
            "'vColor' is vec4 and takes 4 floats, got 2",
        ),
        (&[&frag, "--fragcoord", "1,2,3"], "takes 4 floats, got 3"),
        (&[&frag, "--texture", &png], "declares no sampler 'uTex'"),
    ];
    for (args, message) in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(
            stdout(&out).is_empty(),
            "{args:?}: nothing printed on failure"
        );
    }
}

#[test]
fn files_that_cannot_be_used_are_errors() {
    let dir = temp_dir("run-files");
    let missing = dir.join("missing.frag");
    let out = run(&[missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("missing.frag"), "{}", stderr(&out));

    let broken = dir.join("broken.frag");
    std::fs::write(
        &broken,
        "#version 330 core\nout vec4 c;\nvoid main() { c = nope; }\n",
    )
    .unwrap();
    let out = run(&[broken.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("broken.frag:3:"), "{}", stderr(&out));

    let odd = dir.join("shader.glsl");
    std::fs::write(&odd, "").unwrap();
    let out = run(&[odd.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("--stage vert|frag"),
        "{}",
        stderr(&out)
    );

    let frag = shader("textured.frag");
    let no_png = dir.join("none.png");
    let out = run(&[&frag, "--texture", &format!("uTex={}", no_png.display())]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("none.png"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fragment shader whose trace has an instruction that writes only lane x (`pow`)
/// into a temporary an earlier instruction filled, and whose colour is non-finite.
const POW_AND_INF: &str = "#version 330 core
uniform vec4 uV;
uniform float uE;
out vec4 color;
void main() {
    vec4 v = uV * 2.0;
    float p = pow(uV.w, uE);
    color = vec4(v.x - v.x, v.y, p, v.z);
}
";

#[test]
fn the_trace_shows_only_the_lanes_an_instruction_wrote() {
    let dir = temp_dir("run-lanes");
    let path = dir.join("pow.frag");
    std::fs::write(&path, POW_AND_INF).unwrap();
    let path = path.to_str().unwrap();
    let args = [path, "--uniform", "uV=inf,-inf,3,2", "--uniform", "uE=3"];
    let text = stdout(&run(&[&args[..], &["--trace"]].concat()));
    let line = |op: &str| {
        text.lines()
            .find(|l| l.contains(&format!(" = {op} ")))
            .unwrap_or_else(|| panic!("no {op} line in:\n{text}"))
    };
    assert!(line("pow").ends_with("(8, _, _, _)"), "{text}");
    // One lane of `v.x - v.x`, into a temporary a swizzle filled before.
    assert!(line("sub").ends_with("(NaN, _, _, _)"), "{text}");
    // The vec4 constructor writes the lanes one by one.
    assert!(line("lane").ends_with("(_, -inf, _, _)"), "{text}");
    assert!(
        text.contains("color: vec4 = (NaN, -inf, 8, 6)"),
        "inf - inf is NaN:\n{text}"
    );

    let out = run(&[&args[..], &["--trace", "--json"]].concat());
    let _ = std::fs::remove_dir_all(&dir);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let steps = json["instructions"].as_array().unwrap();
    let pow = steps
        .iter()
        .find(|s| s["instruction"].as_str().unwrap().contains(" pow "))
        .unwrap();
    assert_eq!(pow["values"], serde_json::json!([[8.0, null, null, null]]));
    // NaN and the infinities are named, not null.
    assert_eq!(
        json["outputs"][0]["values"],
        serde_json::json!(["NaN", "-inf", 8.0, 6.0])
    );
    let loads = steps
        .iter()
        .find(|s| s["instruction"].as_str().unwrap().contains("load_uni"))
        .unwrap();
    assert_eq!(
        loads["values"],
        serde_json::json!([["inf", "-inf", 3.0, 2.0]])
    );
}

/// Write `source` to `dir/name` and give its path.
fn write_shader(dir: &std::path::Path, name: &str, source: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, source).unwrap();
    path.display().to_string()
}

const INDEXED: &str = "#version 330 core
uniform vec4 uColors[4];
uniform int uIndex;
out vec4 color;
void main() { color = uColors[uIndex]; }
";

const INTEGER_OUTPUTS: &str = "#version 330 core
uniform uint uMax;
uniform int uA;
uniform int uB;
layout(location = 0) in ivec2 aI;
flat out uint vMax;
flat out int vQuot;
flat out ivec2 vI;
void main() {
    vMax = uMax;
    vQuot = uA / uB;
    vI = aI;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
";

#[test]
fn an_int_uniform_indexes_an_array_under_both_profiles() {
    let dir = temp_dir("int-index");
    let frag = write_shader(&dir, "indexed.frag", INDEXED);
    let colors = "uColors=0.1,0,0,1, 0.2,0,0,1, 0.3,0,0,1, 0.4,0,0,1";
    for profile in ["extended", "seed"] {
        for (index, red) in [("2", "0.3"), ("3", "0.4"), ("0", "0.1")] {
            let at = format!("uIndex={index}");
            let out = run(&[
                &frag,
                "--uniform",
                colors,
                "--uniform",
                &at,
                "--profile",
                profile,
            ]);
            assert!(out.status.success(), "{profile}: {}", stderr(&out));
            let expected = format!("color: vec4 = ({red}, 0, 0, 1)");
            assert!(
                stdout(&out).contains(&expected),
                "{profile} {index}: {}",
                stdout(&out)
            );
        }
    }
    // A fraction is refused under the extended profile (the seed truncates, as
    // glUniform1f into an int would be converted).
    let out = run(&[&frag, "--uniform", colors, "--uniform", "uIndex=1.5"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(
            "--uniform uIndex: 'uIndex' is int and takes integers \
             (-2147483648..=4294967295), got 1.5"
        ),
        "{}",
        stderr(&out)
    );
    let seed = run(&[
        &frag,
        "--uniform",
        colors,
        "--uniform",
        "uIndex=1.5",
        "--profile",
        "seed",
    ]);
    assert!(
        stdout(&seed).contains("color: vec4 = (0.2, 0, 0, 1)"),
        "{}",
        stdout(&seed)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn integer_inputs_are_exact_and_integer_outputs_print_as_integers() {
    let dir = temp_dir("int-outputs");
    let vert = write_shader(&dir, "ints.vert", INTEGER_OUTPUTS);
    let args = [
        vert.as_str(),
        "--uniform",
        "uMax=4294967295",
        "--uniform",
        "uA=-7",
        "--uniform",
        "uB=2",
        "--attr",
        "aI=-2147483648,16777217",
    ];
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("vMax: uint = (4294967295)"), "{text}");
    assert!(text.contains("vQuot: int = (-3)"), "GLSL truncates: {text}");
    assert!(
        text.contains("vI: ivec2 = (-2147483648, 16777217)"),
        "{text}"
    );
    let json = run(&[&args[..], &["--json", "--trace"]].concat());
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let outputs = json["outputs"].as_array().unwrap();
    let value = |name: &str| {
        let o = outputs.iter().find(|o| o["name"] == name).unwrap();
        o["values"].clone()
    };
    assert_eq!(value("vMax"), serde_json::json!([4294967295u32]));
    assert_eq!(value("vQuot"), serde_json::json!([-3]));
    assert_eq!(value("vI"), serde_json::json!([-2147483648i32, 16777217]));
    // The division's result in the instruction trace is the integer too.
    let steps = json["instructions"].as_array().unwrap();
    let idiv = steps
        .iter()
        .find(|s| s["instruction"].as_str().unwrap().contains("idiv"))
        .expect("an idiv ran");
    assert_eq!(idiv["values"], serde_json::json!([[-3, null, null, null]]));
    let traced = stdout(&run(&[&args[..], &["--trace"]].concat()));
    assert!(
        traced
            .lines()
            .any(|l| l.contains(" idiv ") && l.ends_with("(-3, _, _, _)")),
        "{traced}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn integer_values_out_of_range_name_the_input() {
    let dir = temp_dir("int-range");
    let vert = write_shader(&dir, "ints.vert", INTEGER_OUTPUTS);
    let frag = write_shader(
        &dir,
        "flat.frag",
        "#version 330 core
flat in uint vU;
out vec4 color;
void main() { color = vec4(vU == 4294967295u ? 1.0 : 0.5); }
",
    );
    let cases: [(&[&str], &str); 4] = [
        (
            &[&vert, "--uniform", "uMax=4294967296"],
            "--uniform uMax: 'uMax' is uint: 4294967296 is outside -2147483648..=4294967295",
        ),
        (
            &[&vert, "--uniform", "uA=-2147483649"],
            "'uA' is int: -2147483649 is outside",
        ),
        (
            &[&vert, "--attr", "aI=1,0.25"],
            "--attr aI: 'aI' is ivec2 and takes integers (-2147483648..=4294967295), got 0.25",
        ),
        (
            &[&frag, "--varying", "vU=NaN"],
            "--varying vU: 'vU' is uint and takes integers (-2147483648..=4294967295), got NaN",
        ),
    ];
    for (args, message) in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
    // The exact pattern arrives: 4294967295 as an f32 would be 2^32.
    let out = run(&[&frag, "--varying", "vU=4294967295"]);
    assert!(
        stdout(&out).contains("color: vec4 = (1, 1, 1, 1)"),
        "{}",
        stdout(&out)
    );
    let out = run(&[&frag, "--varying", "vU=4294967294"]);
    assert!(
        stdout(&out).contains("color: vec4 = (0.5, 0.5, 0.5, 0.5)"),
        "{}",
        stdout(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
