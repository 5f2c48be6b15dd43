//! Every semantic check of the scene loader has a twin for scenes built in code: for
//! each one, the same fault is built with `Scene::builder` and written as scene JSON,
//! and both must give the same error field and message (`src/scene/rules.rs` holds the
//! one definition of each check). Checks about JSON alone (syntax, key names, value
//! types) and about files have no twin; nor have those a typed builder value cannot
//! break (an `int` attribute's range, a mipmap filter given as `filter`).

use csir_render::compare::ToleranceRule;
use csir_render::scene::{
    Draw, DrawState, GlSampler, Sampler, Scene, SceneBuilder, SceneError, TexFormat, TexTarget,
    Texture,
};
use std::path::Path;

/// A fault: which rule, the scene JSON (`{DRAW}` for the default draw's JSON keys),
/// and the same scene in code.
struct Twin {
    rule: &'static str,
    json: String,
    code: SceneBuilder,
}

/// The JSON keys of a draw of three 2D vertices, plus `extra` (`"key": value, …`).
fn draw_json(extra: &str) -> String {
    let comma = if extra.is_empty() { "" } else { ", " };
    format!(
        r#"{{"vertex": "shaders/color2d.vert", "fragment": "shaders/color.frag",
          "attributes": [{{"location": 0, "size": 2, "data": [0, 0, 1, 0, 0, 1]}}]{comma}{extra}}}"#
    )
}

/// A 16×16 scene of `draws` (JSON list items) with `rest` top-level keys.
fn scene_json(draws: &str, rest: &str) -> String {
    let comma = if rest.is_empty() { "" } else { ", " };
    format!(
        r#"{{"format": "csir-scene/1", "width": 16, "height": 16, "draws": [{draws}]{comma}{rest}}}"#
    )
}

/// The code twin of [`draw_json`]`("")`.
fn draw() -> csir_render::scene::DrawBuilder {
    Draw::new("void main() {}", "void main() {}").attribute(0, 2, &[0.0, 0.0, 1.0, 0.0, 0.0, 1.0])
}

/// The OBJ text of the reference scenes' cube.
const CUBE: &str = include_str!("../reference-images/meshes/cube.obj");

/// A draw of the cube mesh in JSON, plus `extra` keys (`, "key": value`).
fn mesh_json(extra: &str) -> String {
    format!(
        r#"{{"vertex": "shaders/color2d.vert", "fragment": "shaders/color.frag",
          "mesh": "meshes/cube.obj"{extra}}}"#
    )
}

/// The code twin of [`mesh_json`]`("")`.
fn mesh() -> csir_render::scene::DrawBuilder {
    Draw::new("", "").mesh("meshes/cube.obj", CUBE)
}

fn scene() -> SceneBuilder {
    Scene::builder(16, 16)
}

fn checker() -> Texture {
    Texture::from_texels(2, 2, vec![[255; 4]; 4]).unwrap()
}

fn twins() -> Vec<Twin> {
    let one = |extra: &str| scene_json(&draw_json(extra), "");
    let state = |s: &str| one(&format!(r#""state": {{{s}}}"#));
    let with_texture = |extra: &str| {
        scene_json(
            &draw_json(extra),
            r#""textures": {"checker": {"path": "textures/checker.png"}}"#,
        )
    };
    let gl_texture = |keys: &str| {
        scene_json(
            &draw_json(""),
            &format!(r#""textures": {{"t": {{{keys}}}}}"#),
        )
    };
    let attrs = |list: &str| {
        scene_json(
            &format!(
                r#"{{"vertex": "shaders/color2d.vert", "fragment": "shaders/color.frag",
                  "instances": 4, "attributes": [{list}]}}"#
            ),
            "",
        )
    };
    let code_attrs = || Draw::new("", "").instances(4);
    vec![
        Twin {
            rule: "framebuffer width in 1..=16384",
            json: r#"{"format": "csir-scene/1", "width": 0, "height": 16}"#.into(),
            code: Scene::builder(0, 16),
        },
        Twin {
            rule: "framebuffer height in 1..=16384",
            json: r#"{"format": "csir-scene/1", "width": 16, "height": 20000}"#.into(),
            code: Scene::builder(16, 20000),
        },
        Twin {
            rule: "instances in 0..=2^20",
            json: one(r#""instances": 1048577"#),
            code: scene().draw(draw().instances(1 << 20 | 1)),
        },
        Twin {
            rule: "a draw has vertices",
            json: scene_json(
                r#"{"vertex": "shaders/color2d.vert", "fragment": "shaders/color.frag"}"#,
                "",
            ),
            code: scene().draw(Draw::new("", "")),
        },
        Twin {
            rule: "attribute location in 0..=15",
            json: attrs(r#"{"location": 16, "size": 1, "data": [0]}"#),
            code: scene().draw(code_attrs().attribute(16, 1, &[0.0])),
        },
        Twin {
            rule: "attribute location once",
            json: attrs(
                r#"{"location": 1, "size": 1, "data": [0]}, {"location": 1, "size": 1, "data": [0]}"#,
            ),
            code: scene().draw(code_attrs().attribute(1, 1, &[0.0]).attribute(1, 1, &[0.0])),
        },
        Twin {
            rule: "attribute size in 1..=4",
            json: attrs(r#"{"location": 0, "size": 9, "data": [0]}"#),
            code: scene().draw(code_attrs().attribute(0, 9, &[0.0])),
        },
        Twin {
            rule: "attribute size at least 1",
            json: attrs(r#"{"location": 0, "size": 0, "data": [0]}"#),
            code: scene().draw(code_attrs().attribute(0, 0, &[0.0])),
        },
        Twin {
            rule: "attribute data in whole elements",
            json: attrs(r#"{"location": 0, "size": 2, "data": [0, 1, 2]}"#),
            code: scene().draw(code_attrs().attribute(0, 2, &[0.0, 1.0, 2.0])),
        },
        Twin {
            rule: "an instanced array holds what the instances read",
            json: attrs(
                r#"{"location": 0, "size": 1, "data": [0]}, {"location": 1, "size": 1, "divisor": 1, "data": [0, 1]}"#,
            ),
            code: scene().draw(
                code_attrs()
                    .attribute(0, 1, &[0.0])
                    .attribute(1, 1, &[0.0, 1.0])
                    .divisor(1, 1),
            ),
        },
        Twin {
            rule: "per-vertex arrays hold one vertex count",
            json: attrs(
                r#"{"location": 0, "size": 1, "data": [0, 1, 2]}, {"location": 1, "size": 2, "data": [0, 1]}"#,
            ),
            code: scene().draw(code_attrs().attribute(0, 1, &[0.0, 1.0, 2.0]).attribute(
                1,
                2,
                &[0.0, 1.0],
            )),
        },
        Twin {
            rule: "some array is per vertex",
            json: attrs(r#"{"location": 0, "size": 1, "divisor": 1, "data": [0, 1, 2, 3]}"#),
            code: scene().draw(
                code_attrs()
                    .attribute(0, 1, &[0.0, 1.0, 2.0, 3.0])
                    .divisor(0, 1),
            ),
        },
        Twin {
            rule: "a restart index needs indices",
            json: one(r#""primitive": "triangle_strip", "primitive_restart_index": 7"#),
            code: scene().draw(
                draw()
                    .primitive(csir_render::scene::Primitive::TriangleStrip)
                    .primitive_restart_index(7),
            ),
        },
        Twin {
            rule: "a draw has a mesh or attributes, not both",
            json: one(r#""mesh": "meshes/cube.obj""#),
            code: scene().draw(draw().mesh("meshes/cube.obj", CUBE)),
        },
        Twin {
            rule: "a mesh brings its own indices",
            json: scene_json(&mesh_json(r#", "indices": [0, 1, 2]"#), ""),
            code: scene().draw(mesh().indices(&[0, 1, 2])),
        },
        Twin {
            rule: "a mesh is a triangle list",
            json: scene_json(&mesh_json(r#", "primitive": "lines""#), ""),
            code: scene().draw(mesh().primitive(csir_render::scene::Primitive::Lines)),
        },
        Twin {
            rule: "a mesh is not restarted",
            json: scene_json(&mesh_json(r#", "primitive_restart_index": 9"#), ""),
            code: scene().draw(mesh().primitive_restart_index(9)),
        },
        Twin {
            rule: "a triangle list has whole triangles",
            json: one(r#""indices": [0, 1, 2, 0]"#),
            code: scene().draw(draw().indices(&[0, 1, 2, 0])),
        },
        Twin {
            rule: "indices name vertices",
            json: one(r#""indices": [0, 1, 2, 0, 9, 1]"#),
            code: scene().draw(draw().indices(&[0, 1, 2, 0, 9, 1])),
        },
        Twin {
            rule: "indices name vertices (assembled primitive)",
            json: one(r#""primitive": "triangle_strip", "indices": [0, 1, 2, 5]"#),
            code: scene().draw(
                draw()
                    .primitive(csir_render::scene::Primitive::TriangleStrip)
                    .indices(&[0, 1, 2, 5]),
            ),
        },
        Twin {
            rule: "a uniform key is NAME or NAME[INDEX]",
            json: one(r#""uniforms": {"u[x": [1]}"#),
            code: scene().draw(draw().uniform("u[x", &[1.0])),
        },
        Twin {
            rule: "a sampler names a texture of the scene",
            json: with_texture(r#""samplers": {"uTex": {"texture": "nope"}}"#),
            code: scene().texture("checker", checker()).draw(draw().sampler(
                "uTex",
                "nope",
                Sampler::default(),
            )),
        },
        Twin {
            rule: "sampler base_level in 0..=1000",
            json: with_texture(
                r#""samplers": {"uTex": {"texture": "checker", "base_level": 2000}}"#,
            ),
            code: scene()
                .texture("checker", checker())
                .draw(draw().gl_sampler(
                    "uTex",
                    "checker",
                    GlSampler {
                        base_level: 2000,
                        ..GlSampler::from_sampler(Sampler::default())
                    },
                )),
        },
        Twin {
            rule: "point size above 0",
            json: state(r#""point_size": 0"#),
            code: scene().draw(draw().state(DrawState::default().point_size(0.0))),
        },
        Twin {
            rule: "line width above 0",
            json: state(r#""line_width": -1.5"#),
            code: scene().draw(draw().state(DrawState::default().line_width(-1.5))),
        },
        Twin {
            rule: "at most 8 clip planes",
            json: state(
                r#""clip_planes": [null, null, null, null, null, null, null, null, [0, 0, 1, 0]]"#,
            ),
            code: scene().draw(draw().clip_plane(8, [0.0, 0.0, 1.0, 0.0])),
        },
        Twin {
            rule: "scissor sides in 0..=16384",
            json: state(r#""scissor": [0, 0, 20000, 1]"#),
            code: scene().draw(draw().state(DrawState::default().scissor([0, 0, 20000, 1]))),
        },
        Twin {
            rule: "a scene has 1..=8 targets",
            json: scene_json(
                &draw_json(""),
                &format!(
                    r#""targets": [{}]"#,
                    [r#"{"format": "rgba8"}"#; 9].join(", ")
                ),
            ),
            code: (0..9)
                .fold(scene(), |s, _| {
                    s.target(csir_render::scene::TargetFormat::Rgba8, [0.0; 4])
                })
                .draw(draw()),
        },
        Twin {
            rule: "an integer target is never blended",
            json: scene_json(
                &draw_json(r#""state": {"blend": "alpha"}"#),
                r#""targets": [{"format": "rgba8"}, {"format": "rgba32ui"}]"#,
            ),
            code: scene()
                .target(
                    csir_render::scene::TargetFormat::Rgba8,
                    [0.0, 0.0, 0.0, 1.0],
                )
                .target(
                    csir_render::scene::TargetFormat::Rgba32ui,
                    [0.0, 0.0, 0.0, 1.0],
                )
                .draw(draw().state(DrawState::alpha_blend())),
        },
        Twin {
            rule: "dual-source blending draws into one target",
            json: scene_json(
                &draw_json(r#""state": {"blend": {"src": "one", "dst": "src1_color"}}"#),
                r#""targets": [{"format": "rgba8"}, {"format": "rgba8"}]"#,
            ),
            code: scene()
                .target(
                    csir_render::scene::TargetFormat::Rgba8,
                    [0.0, 0.0, 0.0, 1.0],
                )
                .target(
                    csir_render::scene::TargetFormat::Rgba8,
                    [0.0, 0.0, 0.0, 1.0],
                )
                .draw(draw().state(DrawState::default().blend_function(
                    csir_raster::BlendFunction::add(
                        csir_raster::BlendFactor::One,
                        csir_raster::BlendFactor::Src1Color,
                    ),
                ))),
        },
        Twin {
            rule: "samples is 1 or 4",
            json: scene_json(&draw_json(""), r#""samples": 3"#),
            code: scene().samples(3).draw(draw()),
        },
        Twin {
            rule: "sample_coverage.value in 0..=1",
            json: state(r#""sample_coverage": {"value": 1.5}"#),
            code: scene().draw(draw().state(DrawState::default().sample_coverage(1.5, false))),
        },
        Twin {
            rule: "points are not drawn with samples 4",
            json: scene_json(&draw_json(r#""primitive": "points""#), r#""samples": 4"#),
            code: scene()
                .samples(4)
                .draw(draw().primitive(csir_render::scene::Primitive::Points)),
        },
        Twin {
            rule: "an integer target is not resolved",
            json: scene_json(
                &draw_json(""),
                r#""samples": 4, "targets": [{"format": "rgba32ui"}]"#,
            ),
            code: scene()
                .samples(4)
                .target(csir_render::scene::TargetFormat::Rgba32ui, [0.0; 4])
                .draw(draw()),
        },
        Twin {
            rule: "a stencil function is not none",
            json: state(r#""stencil": {"front": {"func": "none"}}"#),
            code: scene().draw(draw().state(DrawState::default().stencil_separate(
                csir_render::scene::StencilFace {
                    func: csir_render::scene::DepthTest::Disabled,
                    ..Default::default()
                },
                Default::default(),
            ))),
        },
        Twin {
            rule: "the scissor lies inside the framebuffer",
            json: state(r#""scissor": [8, 0, 9, 4]"#),
            code: scene().draw(draw().state(DrawState::default().scissor([8, 0, 9, 4]))),
        },
        Twin {
            rule: "viewport x in -16384..=16384",
            json: state(r#""viewport": [-20000, 0, 4, 4]"#),
            code: scene().draw(draw().state(DrawState::default().viewport([-20000, 0, 4, 4]))),
        },
        Twin {
            rule: "the viewport is at least 1 × 1",
            json: state(r#""viewport": [0, 0, 0, 4]"#),
            code: scene().draw(draw().state(DrawState::default().viewport([0, 0, 0, 4]))),
        },
        Twin {
            rule: "a geometry draw's mode is one the stage takes",
            json: one(r#""geometry": "geometry/amplify.geom", "primitive": "quads""#),
            code: scene().draw(draw().geometry("void main() {}", "quads")),
        },
        Twin {
            rule: "expect.max_over_percent in 0..=100",
            json: scene_json(&draw_json(""), r#""expect": {"max_over_percent": 150}"#),
            code: scene().draw(draw()).expect(ToleranceRule {
                max_over_percent: 150.0,
                ..ToleranceRule::PROJECT
            }),
        },
        Twin {
            rule: "expect.max_mean_abs_error in (0, 255]",
            json: scene_json(&draw_json(""), r#""expect": {"max_mean_abs_error": 0}"#),
            code: scene().draw(draw()).expect(ToleranceRule {
                max_mean_abs_error: 0.0,
                ..ToleranceRule::PROJECT
            }),
        },
        Twin {
            rule: "a data texture's sides in 1..=16384",
            json: gl_texture(r#""data": [1, 1, 1, 1], "width": 0"#),
            code: scene().texture_data("t", TexTarget::D2, TexFormat::Rgba8, [0, 1, 1], &[1.0; 4]),
        },
        Twin {
            rule: "a data texture holds its texels",
            json: gl_texture(r#""format": "rgba8", "data": [1, 1, 1], "width": 1"#),
            code: scene().texture_data("t", TexTarget::D2, TexFormat::Rgba8, [1, 1, 1], &[1.0; 3]),
        },
        Twin {
            rule: "a data texture is a valid GL texture (cube faces square)",
            json: gl_texture(&format!(
                r#""target": "cube", "format": "r32f", "width": 2, "height": 1, "data": [{}]"#,
                ["0.5"; 12].join(", ")
            )),
            code: scene().texture_data(
                "t",
                TexTarget::Cube,
                TexFormat::R32f,
                [2, 1, 6],
                &[0.5; 12],
            ),
        },
    ]
}

fn json_error(json: &str) -> SceneError {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images/twin.json");
    match Scene::parse(json, &path) {
        Err(e) => e,
        Ok(_) => panic!("the JSON loads: {json}"),
    }
}

#[test]
fn every_loader_check_gives_the_same_error_in_code() {
    let mut failures = Vec::new();
    let cases = twins();
    let count = cases.len();
    for twin in cases {
        let from_json = json_error(&twin.json);
        let from_code = match twin.code.build() {
            Err(e) => e,
            Ok(_) => {
                failures.push(format!("{}: the code twin builds", twin.rule));
                continue;
            }
        };
        if (from_json.field.as_str(), from_json.message())
            != (from_code.field.as_str(), from_code.message())
        {
            failures.push(format!(
                "{}:\n  json: {}: {}\n  code: {}: {}",
                twin.rule,
                from_json.field,
                from_json.message(),
                from_code.field,
                from_code.message()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(count >= 30, "{count} twins");
}

/// Numbers past f32 are the one rule whose message quotes the value, which JSON gives
/// as a double (1e39) and code as an f32 infinity or NaN: same field, same rule.
#[test]
fn a_number_past_f32_is_refused_in_both() {
    let from_json = json_error(&scene_json(
        &draw_json(r#""uniforms": {"uA": [1, 1e39]}"#),
        "",
    ));
    let from_code = scene()
        .draw(draw().uniform("uA", &[1.0, f32::INFINITY]))
        .build()
        .unwrap_err();
    assert_eq!(from_json.field, "draws[0].uniforms.uA[1]");
    assert_eq!(from_code.field, from_json.field);
    assert_eq!(from_json.message(), "1e39 does not fit in a 32-bit float");
    assert_eq!(from_code.message(), "inf does not fit in a 32-bit float");
    let nan = scene()
        .clear_color([0.0, f32::NAN, 0.0, 1.0])
        .build()
        .unwrap_err();
    assert_eq!(
        (nan.field.as_str(), nan.message().as_str()),
        ("clear.color[1]", "NaN is not a finite 32-bit float")
    );
}
