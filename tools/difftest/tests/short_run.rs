//! The short differential run CI does (`cargo test --workspace`): a few hundred
//! generated programs through both interpreters and TGSI, each with two transformed
//! variants, and the corpus shaders with their text-level variants. Any finding fails
//! the test with its reduced program.

use difftest::{Config, run};
use std::path::PathBuf;

#[test]
fn a_short_run_finds_nothing() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cfg = Config {
        seed: 1,
        count: 300,
        transform: true,
        corpus: vec![
            root.join("shaders/tests/corpus"),
            root.join("reference-images/shaders"),
        ],
        reduce_budget: 300,
        backends: vec![],
        gpu_batch: 256,
    };
    let sum = run(&cfg);
    assert!(sum.findings.is_empty(), "{}", sum.report());
    // The run really ran: every program compiled and ran, the corpus was found.
    assert_eq!(sum.programs, 300);
    assert!(sum.ran >= 290, "{}", sum.report());
    assert!(sum.transformed >= 550, "{}", sum.report());
    assert!(sum.corpus.0 >= 40, "{}", sum.report());
    assert!(sum.covered.len() >= 120, "{}", sum.report());
}

/// The generator is deterministic: the same seed gives the same source.
#[test]
fn the_same_seed_gives_the_same_program() {
    for seed in [0, 7, 12345] {
        let a = difftest::generator::generate(seed).0.source();
        let b = difftest::generator::generate(seed).0.source();
        assert_eq!(a, b);
    }
    assert_ne!(
        difftest::generator::generate(1).0.source(),
        difftest::generator::generate(2).0.source()
    );
}

/// The reducer shrinks a program while a predicate holds: "the source mentions
/// `acos`" keeps at most the statements needed for one `acos`.
#[test]
fn the_reducer_keeps_what_the_predicate_needs() {
    let seed = (0..200)
        .find(|&s| {
            let src = difftest::generator::generate(s).0.source();
            src.contains("acos(") && src.len() > 1500
        })
        .expect("some program calls acos");
    let (p, _) = difftest::generator::generate(seed);
    let reduced = difftest::reduce::reduce(&p, &mut |q| q.source().contains("acos("), 5000);
    assert!(reduced.source().contains("acos("));
    assert!(
        reduced.statements() < p.statements() && reduced.source().len() < p.source().len() / 2,
        "{} -> {} statements",
        p.statements(),
        reduced.statements()
    );
}

/// A transformation that changes the value is caught: replacing `fone` (1.0) by
/// 2.0 in a program that reads it changes the colour bits.
#[test]
fn a_wrong_transformation_is_a_difference() {
    let src = "#version 330 core\nuniform float fone;\nout vec4 c;\nvoid main() { c = vec4(fone * 0.5); }\n";
    let (p, _) = difftest::generator::generate(0);
    let inputs = difftest::inputs_of(&p);
    let a = match difftest::oracle::check(src, &inputs) {
        difftest::oracle::Check::Agree(r) => r,
        other => panic!("{other:?}"),
    };
    let b = match difftest::oracle::check(&src.replace("fone * 0.5", "fone * 0.25"), &inputs) {
        difftest::oracle::Check::Agree(r) => r,
        other => panic!("{other:?}"),
    };
    assert_eq!(f32::from_bits(a.color[0][0]), 0.5);
    assert!(!a.same(&b));
}
