//! Differential testing of the CSIR shader compiler (`docs/robustness.md`,
//! "Differential testing").
//!
//! ```text
//! seed ──gen──▶ Program ──source──▶ GLSL 3.30 ──compile (extended profile)──▶ Shader
//!   Shader ──▶ scalar Machine × 16 fragments  ┐
//!   Shader ──▶ batch interpreter, one batch    ├─ same bits, TGSI emits
//!   Shader ──▶ emit_tgsi                       ┘
//!   Program ──transform──▶ Program' ──▶ same bits as Program
//! a disagreement ──reduce──▶ a small program that still disagrees, with its seed
//! ```

pub mod ast;
pub mod generator;
pub mod gpu;
pub mod oracle;
pub mod reduce;
pub mod transform;
pub mod walk;

use ast::Program;
use oracle::{Check, Inputs4, check};
use std::collections::BTreeSet;
use std::path::PathBuf;
use transform::Kind;

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// First seed.
    pub seed: u64,
    /// Programs to generate (seeds `seed..seed + count`).
    pub count: u64,
    /// Also check transformed programs against their originals.
    pub transform: bool,
    /// Folders of `.frag` shaders to check and transform (text-level).
    pub corpus: Vec<PathBuf>,
    /// Candidates the reducer may try per finding.
    pub reduce_budget: usize,
    /// GPU oracles to run every program (and variant) on as well (`gpu.rs`).
    pub backends: Vec<gpu::Backend>,
    /// Programs per GPU frame.
    pub gpu_batch: usize,
}

/// What one GPU oracle did in a run.
#[derive(Clone, Debug, Default)]
pub struct GpuStats {
    /// Programs drawn (generated and transformed).
    pub programs: u64,
    /// Frames drawn (each with up to `gpu_batch` programs).
    pub frames: u64,
    /// Outputs (fragment components) compared within the budget.
    pub compared: u64,
    /// Outputs not compared: unstable under the perturbations, or discarded.
    pub unstable: u64,
    /// Wall time in the back end (scene build, draw, read-back), seconds.
    pub seconds: f64,
}

/// A disagreement, reduced.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The generator seed (or the corpus file).
    pub origin: String,
    /// Which oracle: `scalar-vs-batch`, `tgsi`, `transform:<kind>`, `rejected`, ...
    pub oracle: String,
    /// The first difference on the original program.
    pub detail: String,
    /// Statements before and after reduction.
    pub statements: (usize, usize),
    /// The reduced program's source.
    pub reduced: String,
}

/// The result of a run.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Programs generated.
    pub programs: u64,
    /// Programs that compiled and ran.
    pub ran: u64,
    /// Programs too big for the IR pools (skipped).
    pub too_big: u64,
    /// Transformed variants checked.
    pub transformed: u64,
    /// Transformed variants not checked: the transformation did not apply or made a
    /// program too big.
    pub transform_skipped: u64,
    /// Corpus shaders checked, and their variants.
    pub corpus: (u64, u64),
    /// Findings.
    pub findings: Vec<Finding>,
    /// Constructs the generated programs used.
    pub covered: BTreeSet<&'static str>,
    /// Per construct, the programs that ran and used it (the coverage table of
    /// docs/robustness.md).
    pub coverage: std::collections::BTreeMap<&'static str, u64>,
    /// Per GPU oracle (`gl`, `virgl`), what it did.
    pub gpu: std::collections::BTreeMap<&'static str, GpuStats>,
    /// Programs waiting for the next GPU frame, with the generated program for
    /// reduction (`None` for a transformed variant).
    pub gpu_pending: Vec<(gpu::Case, Option<Program>)>,
}

/// The inputs a generated program reads: its uniforms' values.
pub fn inputs_of(p: &Program) -> Inputs4 {
    let mut uniforms: Vec<(String, [u32; 4])> = p
        .uniforms
        .iter()
        .map(|u| (u.name.clone(), u.lanes))
        .collect();
    uniforms.push(("dt_zero".into(), [0; 4]));
    uniforms.push(("dt_one".into(), [1.0f32.to_bits(), 0, 0, 0]));
    Inputs4 { uniforms }
}

fn same_failure(a: &Check, oracle: &str, first_line: &str) -> bool {
    match a {
        Check::Disagree(o, _) => *o == oracle,
        Check::Rejected(m) => oracle == "rejected" && m.lines().next() == Some(first_line),
        _ => false,
    }
}

/// Check generated program `seed` (and its transformed variants), adding to `sum`.
pub fn check_seed(cfg: &Config, seed: u64, sum: &mut Summary) {
    let (p, covered) = generator::generate(seed);
    sum.programs += 1;
    let inputs = inputs_of(&p);
    let src = p.source();
    let result = check(&src, &inputs);
    let run = match result {
        Check::TooBig => {
            sum.too_big += 1;
            return;
        }
        Check::Agree(run) => run,
        Check::Rejected(msg) => {
            let first = msg.lines().next().unwrap_or("").to_string();
            let reduced = reduce::reduce(
                &p,
                &mut |q| same_failure(&check(&q.source(), &inputs), "rejected", &first),
                cfg.reduce_budget,
            );
            sum.findings.push(Finding {
                origin: format!("seed {seed}"),
                oracle: "rejected".into(),
                detail: first,
                statements: (p.statements(), reduced.statements()),
                reduced: reduced.source(),
            });
            return;
        }
        Check::Disagree(oracle, detail) => {
            let reduced = reduce::reduce(
                &p,
                &mut |q| same_failure(&check(&q.source(), &inputs), oracle, ""),
                cfg.reduce_budget,
            );
            sum.findings.push(Finding {
                origin: format!("seed {seed}"),
                oracle: oracle.into(),
                detail,
                statements: (p.statements(), reduced.statements()),
                reduced: reduced.source(),
            });
            return;
        }
    };
    sum.ran += 1;
    for &c in &covered {
        *sum.coverage.entry(c).or_default() += 1;
    }
    sum.covered.extend(covered);
    if !cfg.backends.is_empty() {
        queue_gpu(format!("seed {seed}"), &src, &inputs, &run, Some(&p), sum);
    }
    if !cfg.transform {
        return;
    }
    // Two transformations per program, rotating through all of them.
    for k in 0..2u64 {
        let kind = Kind::ALL[((seed * 2 + k) % Kind::ALL.len() as u64) as usize];
        let tseed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k;
        let sites = 1 + (tseed % 4) as usize;
        let (_, tsrc) = transform::transform(&p, kind, tseed, sites);
        sum.covered.insert(kind.name());
        *sum.coverage.entry(kind.name()).or_default() += 1;
        let oracle = format!("transform:{}", kind.name());
        match check(&tsrc, &inputs) {
            Check::Agree(trun) => {
                sum.transformed += 1;
                if !cfg.backends.is_empty() {
                    let origin = format!("seed {seed} transform:{}", kind.name());
                    queue_gpu(origin, &tsrc, &inputs, &trun, None, sum);
                }
                if let Some(d) = run.first_difference(&trun) {
                    let mut still = |q: &Program| {
                        let (_, qs) = transform::transform(q, kind, tseed, sites);
                        match (check(&q.source(), &inputs), check(&qs, &inputs)) {
                            (Check::Agree(a), Check::Agree(b)) => !a.same(&b),
                            _ => false,
                        }
                    };
                    let reduced = reduce::reduce(&p, &mut still, cfg.reduce_budget);
                    let (_, rsrc) = transform::transform(&reduced, kind, tseed, sites);
                    sum.findings.push(Finding {
                        origin: format!("seed {seed}"),
                        oracle,
                        detail: d,
                        statements: (p.statements(), reduced.statements()),
                        reduced: format!(
                            "// original:\n{}\n// transformed:\n{rsrc}",
                            reduced.source()
                        ),
                    });
                }
            }
            Check::TooBig => sum.transform_skipped += 1,
            Check::Rejected(msg) => {
                let first = msg.lines().next().unwrap_or("").to_string();
                let mut still = |q: &Program| {
                    let (_, qs) = transform::transform(q, kind, tseed, sites);
                    matches!(check(&q.source(), &inputs), Check::Agree(_))
                        && same_failure(&check(&qs, &inputs), "rejected", &first)
                };
                let reduced = reduce::reduce(&p, &mut still, cfg.reduce_budget);
                let (_, rsrc) = transform::transform(&reduced, kind, tseed, sites);
                sum.findings.push(Finding {
                    origin: format!("seed {seed}"),
                    oracle: format!("{oracle} (rejected)"),
                    detail: first,
                    statements: (p.statements(), reduced.statements()),
                    reduced: rsrc,
                });
            }
            Check::Disagree(o, d) => sum.findings.push(Finding {
                origin: format!("seed {seed}"),
                oracle: format!("{oracle} then {o}"),
                detail: d,
                statements: (p.statements(), p.statements()),
                reduced: tsrc,
            }),
        }
    }
}

/// Queue `src` (which compiled and agreed on the CPU with the run `run`) for the
/// GPU oracles.
fn queue_gpu(
    origin: String,
    src: &str,
    inputs: &Inputs4,
    run: &oracle::Run,
    program: Option<&Program>,
    sum: &mut Summary,
) {
    let Ok(shader) = oracle::compile_frag(src) else {
        return;
    };
    if let Some(c) = gpu::case(origin, src, &shader, inputs, run.clone()) {
        sum.gpu_pending.push((c, program.cloned()));
    }
}

/// Draw the pending programs on every GPU oracle of `cfg`, adding findings (reduced
/// for generated programs) and the oracles' figures to `sum`.
pub fn flush_gpu(cfg: &Config, sum: &mut Summary) {
    let pending = std::mem::take(&mut sum.gpu_pending);
    if pending.is_empty() {
        return;
    }
    let cases: Vec<&gpu::Case> = pending.iter().map(|(c, _)| c).collect();
    for &backend in &cfg.backends {
        let t0 = std::time::Instant::now();
        let verdicts = gpu::check_all(backend, &cases);
        let st = sum.gpu.entry(backend.name()).or_default();
        st.seconds += t0.elapsed().as_secs_f64();
        st.frames += 1;
        st.programs += cases.len() as u64;
        for c in &cases {
            let compared = c.budget.compared() as u64;
            st.compared += compared;
            st.unstable += (gpu::FRAGMENTS_OUTPUTS as u64).saturating_sub(compared);
        }
        for ((case, program), verdict) in pending.iter().zip(verdicts) {
            let Some(detail) = verdict else {
                continue;
            };
            let refused = detail.starts_with("refused: ");
            let reduced = match program {
                Some(p) => {
                    let mut still = |q: &Program| {
                        let src = q.source();
                        let Check::Agree(run) = check(&src, &case.inputs) else {
                            return false;
                        };
                        let Ok(shader) = oracle::compile_frag(&src) else {
                            return false;
                        };
                        let Some(qc) = gpu::case(String::new(), &src, &shader, &case.inputs, run)
                        else {
                            return false;
                        };
                        match &gpu::check_all(backend, &[&qc])[0] {
                            Some(d) => d.starts_with("refused: ") == refused,
                            None => false,
                        }
                    };
                    let r = reduce::reduce(p, &mut still, cfg.reduce_budget.min(400));
                    (p.statements(), r.statements(), r.source())
                }
                None => (0, 0, case.src.clone()),
            };
            sum.findings.push(Finding {
                origin: case.origin.clone(),
                oracle: backend.name().into(),
                detail,
                statements: (reduced.0, reduced.1),
                reduced: reduced.2,
            });
        }
    }
}

/// Check the `.frag` shaders of the corpus folders: both interpreters and TGSI on
/// each, and each text-level transformation against the original.
pub fn check_corpus(cfg: &Config, sum: &mut Summary) {
    let inputs = Inputs4 {
        uniforms: vec![
            ("dt_zero".into(), [0; 4]),
            ("dt_one".into(), [1.0f32.to_bits(), 0, 0, 0]),
        ],
    };
    let mut files = vec![];
    for dir in &cfg.corpus {
        let Ok(rd) = std::fs::read_dir(dir) else {
            continue;
        };
        for e in rd.flatten() {
            let path = e.path();
            if path.extension().is_some_and(|x| x == "frag") {
                files.push(path);
            }
        }
    }
    files.sort();
    for path in files {
        let Ok(src) = std::fs::read_to_string(&path) else {
            continue;
        };
        let origin = path.display().to_string();
        let base = match check(&src, &inputs) {
            Check::Agree(run) => run,
            Check::Disagree(o, d) => {
                sum.findings.push(Finding {
                    origin,
                    oracle: o.into(),
                    detail: d,
                    statements: (0, 0),
                    reduced: src,
                });
                continue;
            }
            // A shader written for another profile or needing a vertex stage.
            Check::TooBig | Check::Rejected(_) => continue,
        };
        sum.corpus.0 += 1;
        for variant in 0..4 {
            let Some((tsrc, name)) = transform::transform_text(&src, variant) else {
                continue;
            };
            match check(&tsrc, &inputs) {
                Check::Agree(run) => {
                    sum.corpus.1 += 1;
                    if let Some(d) = base.first_difference(&run) {
                        sum.findings.push(Finding {
                            origin: origin.clone(),
                            oracle: format!("transform:{name}"),
                            detail: d,
                            statements: (0, 0),
                            reduced: tsrc,
                        });
                    }
                }
                Check::TooBig => sum.transform_skipped += 1,
                Check::Rejected(m) => sum.findings.push(Finding {
                    origin: origin.clone(),
                    oracle: format!("transform:{name} (rejected)"),
                    detail: m.lines().next().unwrap_or("").into(),
                    statements: (0, 0),
                    reduced: tsrc,
                }),
                Check::Disagree(o, d) => sum.findings.push(Finding {
                    origin: origin.clone(),
                    oracle: format!("transform:{name} then {o}"),
                    detail: d,
                    statements: (0, 0),
                    reduced: tsrc,
                }),
            }
        }
    }
}

/// Run everything `cfg` asks for.
pub fn run(cfg: &Config) -> Summary {
    let mut sum = Summary::default();
    for seed in cfg.seed..cfg.seed + cfg.count {
        check_seed(cfg, seed, &mut sum);
        if sum.gpu_pending.len() >= cfg.gpu_batch.max(1) {
            flush_gpu(cfg, &mut sum);
        }
    }
    flush_gpu(cfg, &mut sum);
    if !cfg.corpus.is_empty() {
        check_corpus(cfg, &mut sum);
    }
    sum
}

impl Summary {
    /// The report `difftest` prints.
    pub fn report(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "programs: {} generated, {} ran on both interpreters + TGSI, {} too big for the pools",
            self.programs, self.ran, self.too_big
        );
        let _ = writeln!(
            s,
            "transformed variants: {} checked, {} skipped (too big)",
            self.transformed, self.transform_skipped
        );
        let _ = writeln!(
            s,
            "corpus: {} shaders, {} transformed variants",
            self.corpus.0, self.corpus.1
        );
        let _ = writeln!(
            s,
            "constructs covered ({}): {}",
            self.covered.len(),
            self.covered.iter().copied().collect::<Vec<_>>().join(", ")
        );
        for (name, g) in &self.gpu {
            let _ = writeln!(
                s,
                "{name}: {} programs in {} frames, {:.1} s ({:.1} programs/s), {} outputs compared, {} not compared (unstable or discarded)",
                g.programs,
                g.frames,
                g.seconds,
                g.programs as f64 / g.seconds.max(1e-9),
                g.compared,
                g.unstable
            );
        }
        let _ = writeln!(s, "findings: {}", self.findings.len());
        for f in &self.findings {
            let _ = writeln!(
                s,
                "\n=== {} [{}]: {}\n    reduced from {} to {} statements:\n{}",
                f.origin, f.oracle, f.detail, f.statements.0, f.statements.1, f.reduced
            );
        }
        s
    }
}
