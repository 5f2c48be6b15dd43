//! Property tests: whatever the input, `compile` returns (never panics), and whatever
//! it accepts verifies and runs.

mod common;
use common::run;
use csir::exec::NoSamplers;
use csir::{Limits, Stage, compile};
use proptest::prelude::*;

const VOCAB: &[&str] = &[
    "#version 330 core\n",
    "\n#define",
    "\n#undef",
    "\n#if",
    "\n#ifdef",
    "\n#elif",
    "\n#else",
    "\n#endif",
    "defined",
    "in",
    "out",
    "uniform",
    "const",
    "layout",
    "(",
    "location",
    "=",
    "0",
    ")",
    "smooth",
    "void",
    "bool",
    "int",
    "float",
    "vec2",
    "vec3",
    "vec4",
    "ivec2",
    "ivec3",
    "ivec4",
    "mat3",
    "mat4",
    "mat2",
    "bvec2",
    "bvec3",
    "sampler2D",
    "if",
    "else",
    "for",
    "while",
    "return",
    "discard",
    "break",
    "continue",
    "true",
    "false",
    "main",
    "x",
    "y",
    "c",
    "f",
    "m",
    "s",
    "i",
    "gl_Position",
    "gl_FragCoord",
    "texture",
    "normalize",
    "dot",
    "cross",
    "mix",
    "clamp",
    "pow",
    "floor",
    "mod",
    "length",
    "reflect",
    "lessThan",
    "equal",
    "any",
    "not",
    "atan",
    "round",
    "float[3]",
    "float[]",
    "length()",
    "x[2]",
    "x[i]",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    ".",
    "xyz",
    "rgba",
    "stp",
    "x",
    "+",
    "-",
    "*",
    "/",
    "%",
    "++",
    "--",
    "+=",
    "-=",
    "*=",
    "/=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "!",
    "&&",
    "||",
    "^^",
    "?",
    ":",
    "1",
    "2.5",
    "0.0",
    "1e3",
    "0x10",
    "int",
    "inout",
    "\n",
    " ",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(VOCAB), 0..120).prop_map(|t| t.join(" "))
}

/// The stock shaders and the front end's corpus.
fn stock() -> Vec<(String, Stage)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let entries = std::fs::read_dir(root.join("glsl"))
        .unwrap()
        .chain(std::fs::read_dir(root.join("tests/corpus")).unwrap());
    for e in entries {
        let p = e.unwrap().path();
        let stage = if p.extension().is_some_and(|x| x == "frag") {
            Stage::Fragment
        } else {
            Stage::Vertex
        };
        out.push((std::fs::read_to_string(&p).unwrap(), stage));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Compile for both stages; anything accepted must run.
fn check(src: &str) {
    for stage in [Stage::Vertex, Stage::Fragment] {
        match compile(src, "fuzz", stage, &Limits::default()) {
            Ok(s) => {
                let io = [[0.5f32, -1.0, 2.0, 1.0]; 8];
                let _ = run(&s, &io, &io, &NoSamplers);
            }
            Err(e) => assert!(!e.to_string().contains("internal error"), "{e}\n{src}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        check(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn token_soups_never_panic(body in soup()) {
        check(&body);
        check(&format!("#version 330\nout vec4 c;\nuniform vec4 u;\nvoid main() {{ {body} }}\n"));
    }

    #[test]
    fn tiny_limits_never_panic(
        which in 0usize..64,
        pools in prop::array::uniform4(0usize..40),
        small in prop::array::uniform4(0usize..6),
    ) {
        let shaders = stock();
        let (src, stage) = &shaders[which % shaders.len()];
        let limits = Limits {
            instructions: pools[0] * 10,
            immediates: pools[1] * 4,
            temporaries: pools[2] * 2,
            if_depth: small[0],
            attributes: small[1],
            varyings: small[2],
            uniform_slots: pools[3],
            samplers: small[3],
            unroll: small[0],
            errors: small[1],
            ..Limits::default()
        };
        if let Ok(s) = compile(src, "tiny", *stage, &limits) {
            let io = [[0.5f32, -1.0, 2.0, 1.0]; 8];
            let _ = run(&s, &io, &io, &NoSamplers);
        }
    }

    #[test]
    fn mutated_stock_shaders_never_panic(
        which in 0usize..64,
        edits in prop::collection::vec((0usize..4000, prop::sample::select(VOCAB), 0u8..3), 1..6),
    ) {
        let shaders = stock();
        let (src, _) = &shaders[which % shaders.len()];
        let mut words: Vec<String> = src.split_inclusive(|c: char| !c.is_alphanumeric() && c != '_' && c != '.').map(String::from).collect();
        for (at, tok, kind) in edits {
            if words.is_empty() {
                break;
            }
            let i = at % words.len();
            match kind {
                0 => { words.remove(i); }
                1 => words.insert(i, format!("{tok} ")),
                _ => words[i] = format!("{tok} "),
            }
        }
        check(&words.concat());
    }
}

#[test]
#[ignore]
fn mutation_stats() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::default();
    let shaders = stock();
    let (mut ok, mut lex_parse, mut sem) = (0, 0, 0);
    let mut msgs = std::collections::BTreeMap::new();
    for _ in 0..20000 {
        let which = (0usize..64).new_tree(&mut runner).unwrap().current();
        let edits =
            prop::collection::vec((0usize..4000, prop::sample::select(VOCAB), 0u8..3), 1..3)
                .new_tree(&mut runner)
                .unwrap()
                .current();
        let (src, stage) = &shaders[which % shaders.len()];
        let mut words: Vec<String> = src
            .split_inclusive(|c: char| !c.is_alphanumeric() && c != '_' && c != '.')
            .map(String::from)
            .collect();
        for (at, tok, kind) in edits {
            let i = at % words.len();
            match kind {
                0 => {
                    words.remove(i);
                }
                1 => words.insert(i, format!("{tok} ")),
                _ => words[i] = format!("{tok} "),
            }
        }
        match compile(&words.concat(), "f", *stage, &Limits::default()) {
            Ok(_) => ok += 1,
            Err(e) => {
                let m = e.diagnostics()[0].message.clone();
                if m.starts_with("expected") || m.contains("token") {
                    lex_parse += 1
                } else {
                    sem += 1
                }
                *msgs.entry(m).or_insert(0) += 1;
            }
        }
    }
    println!("ok {ok} parse {lex_parse} sem {sem}");
    for (m, n) in msgs {
        println!("{n:6} {m}");
    }
}
