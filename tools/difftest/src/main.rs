//! `difftest --seed S --count N [--transform] [--corpus] [--print SEED]`: generate
//! random GLSL 3.30 fragment shaders, run them on the scalar and the batch
//! interpreter, emit TGSI, check transformed variants, reduce and print every
//! finding (docs/robustness.md, "Differential testing").

use clap::Parser;
use difftest::{Config, run};
use std::path::PathBuf;
use std::process::ExitCode;

/// Differential testing of the CSIR shader compiler.
#[derive(Parser, Debug)]
#[command(name = "difftest")]
struct Args {
    /// First seed; programs use seeds SEED..SEED+COUNT.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Programs to generate.
    #[arg(long, default_value_t = 200)]
    count: u64,
    /// Also check semantics-preserving transformations of each program (and of the
    /// corpus shaders with --corpus) against the original.
    #[arg(long)]
    transform: bool,
    /// Check the shaders of shaders/tests/corpus and reference-images/shaders too.
    #[arg(long)]
    corpus: bool,
    /// Also draw every program (and variant) on Mesa's llvmpipe through
    /// `--backend gl` and compare within the budget (docs/robustness.md).
    #[arg(long)]
    gl: bool,
    /// Also draw every program (and variant) as our TGSI on virglrenderer through
    /// `--backend virgl` and compare within the budget.
    #[arg(long)]
    virgl: bool,
    /// Programs per GPU frame (one driver context or virgl session each).
    #[arg(long, default_value_t = 256)]
    gpu_batch: usize,
    /// Candidate edits the reducer may try per finding.
    #[arg(long, default_value_t = 4000)]
    reduce_budget: usize,
    /// Check one fragment shader file (both interpreters, TGSI) and print its colour
    /// at the first fragment, then exit. Uniforms read the generator's defaults.
    #[arg(long, value_name = "FILE")]
    run: Option<PathBuf>,
    /// Write the coverage table (construct, programs that used it) to this file as
    /// Markdown rows.
    #[arg(long, value_name = "FILE")]
    coverage: Option<PathBuf>,
    /// Print the program of one seed and exit.
    #[arg(long, value_name = "SEED")]
    print: Option<u64>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(seed) = args.print {
        let (p, _) = difftest::generator::generate(seed);
        print!("{}", p.source());
        return ExitCode::SUCCESS;
    }
    if let Some(path) = &args.run {
        let src =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (p, _) = difftest::generator::generate(0);
        let inputs = difftest::inputs_of(&p);
        match difftest::oracle::check(&src, &inputs) {
            difftest::oracle::Check::Agree(r) => {
                let c = r.color[0].map(f32::from_bits);
                println!("{c:?} bits {:08x?}", r.color[0]);
                return ExitCode::SUCCESS;
            }
            other => {
                println!("{other:?}");
                return ExitCode::FAILURE;
            }
        }
    }
    let mut backends = vec![];
    if args.gl {
        backends.push(difftest::gpu::Backend::Gl);
    }
    if args.virgl {
        backends.push(difftest::gpu::Backend::Virgl);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let corpus = if args.corpus {
        vec![
            root.join("shaders/tests/corpus"),
            root.join("reference-images/shaders"),
        ]
    } else {
        vec![]
    };
    let cfg = Config {
        seed: args.seed,
        count: args.count,
        transform: args.transform,
        corpus,
        reduce_budget: args.reduce_budget,
        backends,
        gpu_batch: args.gpu_batch,
    };
    let sum = run(&cfg);
    print!("{}", sum.report());
    if let Some(path) = &args.coverage {
        let mut rows: Vec<_> = sum.coverage.iter().collect();
        rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let text: String = rows
            .iter()
            .map(|(k, v)| format!("| `{k}` | {v} |\n"))
            .collect();
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("{}: {e}", path.display());
        }
    }
    if sum.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
