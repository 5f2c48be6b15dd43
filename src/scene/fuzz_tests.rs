//! Property tests: no input makes scene loading (or the OBJ and PNG readers under it)
//! panic, and every scene that loads satisfies the invariants `Scene` documents.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde_json::Value;

use super::Scene;
use super::obj::parse_obj;
use crate::image_io::decode_png;

const STARTERS: [&str; 6] = [
    "triangle",
    "textured_quad",
    "lit_cube",
    "procedural_1080p",
    "wrap_blend",
    "clip_cull",
];

fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images")
}

fn starter_text(i: usize) -> String {
    std::fs::read_to_string(reference_dir().join(format!("{}.json", STARTERS[i % STARTERS.len()])))
        .unwrap()
}

/// Loads `text` as a scene in `reference-images/`; a loaded scene must keep its promises.
fn check(text: &str) {
    if let Ok(scene) = Scene::parse(text, &reference_dir().join("fuzz.json")) {
        assert!((1..=16384).contains(&scene.width) && (1..=16384).contains(&scene.height));
        assert!((0.0..=1.0).contains(&scene.clear_depth));
        for d in &scene.draws {
            assert!(!d.attributes.is_empty());
            assert!(
                d.attributes
                    .windows(2)
                    .all(|w| w[0].location < w[1].location)
            );
            for a in &d.attributes {
                assert!(a.location <= 15 && (1..=4).contains(&a.size));
                assert_eq!(a.data.len(), d.vertex_count as usize * a.size as usize);
                assert!(a.data.iter().all(|x| x.is_finite()));
            }
            assert_eq!(d.indices.len() % 3, 0);
            assert!(d.indices.iter().all(|&i| i < d.vertex_count));
            assert!(d.samplers.iter().all(|s| s.texture < scene.textures.len()));
            assert!(
                d.uniforms
                    .iter()
                    .all(|u| u.values.iter().all(|x| x.is_finite()))
            );
        }
    }
}

/// A JSON value biased towards what scenes contain.
fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        prop::sample::select(vec![
            -1.0,
            0.0,
            1.0,
            2.5,
            3.0,
            15.0,
            16.0,
            16384.0,
            16385.0,
            1e39,
            -1e39,
            4294967296.0
        ])
        .prop_map(Value::from),
        "[a-z/._\\[\\]0-9 ]{0,12}".prop_map(Value::from),
        prop::sample::select(vec![
            "csir-scene/1",
            "textures/checker.png",
            "textures/tiny4.png",
            "meshes/cube.obj",
            "shaders/flat.vert",
            "shaders/lit.frag",
            "nope",
            "",
            "less",
            "none",
            "linear",
            "mirror",
            "alpha",
            "checker",
            "tiny",
            "uTex[1]",
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        let key = prop_oneof![
            prop::sample::select(vec![
                "format",
                "width",
                "height",
                "clear",
                "color",
                "depth",
                "textures",
                "path",
                "draws",
                "vertex",
                "fragment",
                "mesh",
                "attributes",
                "location",
                "size",
                "data",
                "indices",
                "uniforms",
                "samplers",
                "texture",
                "filter",
                "wrap",
                "state",
                "depth_test",
                "depth_write",
                "cull",
                "blend",
                "two_sided_color",
            ])
            .prop_map(String::from),
            "[a-zA-Z_\\[\\]0-9]{1,6}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::from),
            prop::collection::vec((key, inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Every JSON pointer in `v` ("" is the root).
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                pointers(item, format!("{at}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                pointers(
                    item,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        _ => {}
    }
    out.push(at);
}

/// Text edits for byte-level mutation: (position, deleted length, inserted text).
fn arb_edits() -> impl Strategy<Value = Vec<(usize, usize, String)>> {
    let insert = prop_oneof![
        prop::sample::select(vec![
            "",
            "-1",
            "1e39",
            "0.5",
            "\"x\"",
            "[]",
            "{}",
            "null",
            "true",
            ",",
            ":",
            "[",
            "]",
            "{",
            "}",
            "\"",
            "16385",
            "99",
            "\"mesh\": \"meshes/cube.obj\",",
            "\"indices\": [0, 1, 7],",
            "\u{0}",
            "\u{feff}",
            "é",
        ])
        .prop_map(String::from),
        "[ -~]{0,8}",
    ];
    prop::collection::vec((any::<usize>(), 0usize..6, insert), 1..5)
}

fn apply_edits(text: &str, edits: &[(usize, usize, String)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for (pos, del, ins) in edits {
        let at = pos % (chars.len() + 1);
        let end = (at + del).min(chars.len());
        chars.splice(at..end, ins.chars());
    }
    chars.into_iter().collect()
}

proptest! {

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        check(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_json_never_panics(v in arb_json()) {
        check(&v.to_string());
    }

    #[test]
    fn text_mutations_of_starter_scenes_never_panic(scene in 0usize..6, edits in arb_edits()) {
        check(&apply_edits(&starter_text(scene), &edits));
    }

    #[test]
    fn value_mutations_of_starter_scenes_never_panic(
        scene in 0usize..6,
        picks in prop::collection::vec((any::<usize>(), arb_json()), 1..4),
    ) {
        let mut doc: Value = serde_json::from_str(&starter_text(scene)).unwrap();
        for (pick, replacement) in picks {
            let mut all = Vec::new();
            pointers(&doc, String::new(), &mut all);
            let target = &all[pick % all.len()];
            if let Some(slot) = doc.pointer_mut(target) {
                *slot = replacement;
            }
        }
        check(&doc.to_string());
    }

    #[test]
    fn obj_text_never_panics(
        edits in arb_edits(),
        lines in prop::collection::vec(
            "(v|vt|vn|f|o|g|s|l|p|usemtl|mtllib)( [-0-9./e]{0,6}){0,5}",
            0..12,
        ),
    ) {
        let _ = parse_obj(lines.join("\n").as_bytes(), u64::MAX);
        let cube = std::fs::read_to_string(reference_dir().join("meshes/cube.obj")).unwrap();
        let _ = parse_obj(apply_edits(&cube, &edits).as_bytes(), u64::MAX);
    }

    #[test]
    fn png_bytes_never_panic(flips in prop::collection::vec((any::<usize>(), any::<u8>()), 1..8), cut in any::<usize>()) {
        let mut png = std::fs::read(reference_dir().join("textures/checker.png")).unwrap();
        for (at, byte) in flips {
            let i = at % png.len();
            png[i] = byte;
        }
        let _ = decode_png(&png, Path::new(""));
        let _ = decode_png(&png[..cut % png.len()], Path::new(""));
    }
}
