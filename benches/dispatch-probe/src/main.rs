//! The batch interpreter's shape in miniature: a register file of 8-lane groups in
//! memory, a step loop that matches on the step, and every step over 8 groups (64
//! lanes), written twice:
//!
//! - over `wide::f32x8`, whose code path is fixed when it is compiled
//!   (`cfg(target_feature)`: AVX under `-C target-cpu=x86-64-v3`, else two SSE2 halves);
//! - over `fearless_simd::f32x8<S>`, generic over the SIMD level `S`, with one
//!   `dispatch!` per batch and everything below it `#[inline(always)]`, so that the
//!   level's target features reach every operation.
//!
//! ```sh
//! dispatch-probe wide       # wide, as built
//! dispatch-probe dispatch   # fearless_simd, the best level of this CPU
//! dispatch-probe baseline   # fearless_simd, the build's baseline level (SSE2)
//! ```
//!
//! Prints the time of 200 000 batches and a checksum of every register's bits after
//! each batch: the same on every path (the steps are IEEE-exact: no FMA, no
//! approximations).

use fearless_simd::{Level, Select, Simd, SimdBase, SimdFloat, dispatch};
use std::time::Instant;

/// One step of the probe's program: registers `d ← f(a, b)`.
#[derive(Clone, Copy)]
enum Step {
    Add(u8, u8, u8),
    Sub(u8, u8, u8),
    Mul(u8, u8, u8),
    Div(u8, u8, u8),
    Floor(u8, u8),
    /// `sqrt(|a|)`.
    SqrtAbs(u8, u8),
    /// `a − floor(a)`.
    Fract(u8, u8),
    /// `a < b ? b : a`.
    MaxLt(u8, u8, u8),
}

/// Groups of 8 lanes per register component: one batch of 64 lanes.
const GROUPS: usize = 8;
/// Registers of the probe's program.
const REGISTERS: usize = 13;
/// Batches per run.
const BATCHES: usize = 200_000;

/// 60 steps mixing the interpreter's common float operations.
fn program() -> Vec<Step> {
    use Step::*;
    (0..6)
        .flat_map(|_| {
            [
                Mul(4, 0, 1),
                Add(5, 4, 2),
                Fract(6, 5),
                Sub(7, 6, 3),
                Mul(8, 7, 7),
                SqrtAbs(9, 8),
                Div(10, 9, 5),
                MaxLt(11, 10, 6),
                Floor(12, 11),
                Add(0, 12, 10),
            ]
        })
        .collect()
}

/// The index of group `g` of register `r`.
fn at(r: u8, g: usize) -> usize {
    r as usize * GROUPS + g
}

/// Register `i`'s starting value in batch `b`.
fn start(i: usize, b: usize) -> f32 {
    ((i + b) * 7919 % 1000) as f32 * 0.37 - 50.0
}

/// Fold one more lane's bits into a checksum.
fn fold(h: u64, x: f32) -> u64 {
    h.wrapping_mul(31).wrapping_add(u64::from(x.to_bits()))
}

/// The steps over `wide::f32x8`.
#[inline(never)]
fn run_wide(regs: &mut [wide::f32x8], steps: &[Step]) {
    for &s in steps {
        for g in 0..GROUPS {
            let r = |k: u8| regs[at(k, g)];
            let (d, v) = match s {
                Step::Add(d, a, b) => (d, r(a) + r(b)),
                Step::Sub(d, a, b) => (d, r(a) - r(b)),
                Step::Mul(d, a, b) => (d, r(a) * r(b)),
                Step::Div(d, a, b) => (d, r(a) / r(b)),
                Step::Floor(d, a) => (d, r(a).floor()),
                Step::SqrtAbs(d, a) => (d, r(a).abs().sqrt()),
                Step::Fract(d, a) => (d, r(a) - r(a).floor()),
                Step::MaxLt(d, a, b) => (d, r(a).simd_lt(r(b)).select(r(b), r(a))),
            };
            regs[at(d, g)] = v;
        }
    }
}

/// The steps over `fearless_simd::f32x8<S>` (inlined into each level's copy).
#[inline(always)]
fn run_generic<S: Simd>(simd: S, regs: &mut [[f32; 8]], steps: &[Step]) {
    use fearless_simd::f32x8;
    for &s in steps {
        for g in 0..GROUPS {
            let r = |k: u8| f32x8::from_slice(simd, &regs[at(k, g)]);
            let (d, v) = match s {
                Step::Add(d, a, b) => (d, r(a) + r(b)),
                Step::Sub(d, a, b) => (d, r(a) - r(b)),
                Step::Mul(d, a, b) => (d, r(a) * r(b)),
                Step::Div(d, a, b) => (d, r(a) / r(b)),
                Step::Floor(d, a) => (d, r(a).floor()),
                Step::SqrtAbs(d, a) => (d, r(a).abs().sqrt()),
                Step::Fract(d, a) => (d, r(a) - r(a).floor()),
                Step::MaxLt(d, a, b) => (d, r(a).simd_lt(r(b)).select(r(b), r(a))),
            };
            v.store_slice(&mut regs[at(d, g)]);
        }
    }
}

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| "dispatch".into());
    let steps = program();
    let started = Instant::now();
    let mut sum = 0u64;
    match path.as_str() {
        "wide" => {
            let mut regs = vec![wide::f32x8::ZERO; REGISTERS * GROUPS];
            for b in 0..BATCHES {
                for (i, r) in regs.iter_mut().enumerate() {
                    *r = wide::f32x8::splat(start(i, b));
                }
                run_wide(&mut regs, &steps);
                sum = regs.iter().flat_map(|r| r.to_array()).fold(sum, fold);
            }
        }
        "dispatch" | "baseline" => {
            let level = if path == "baseline" {
                Level::baseline()
            } else {
                Level::new()
            };
            eprintln!("level: {level:?}");
            let mut regs = vec![[0.0f32; 8]; REGISTERS * GROUPS];
            for b in 0..BATCHES {
                for (i, r) in regs.iter_mut().enumerate() {
                    *r = [start(i, b); 8];
                }
                dispatch!(level, simd => run_generic(simd, &mut regs, &steps));
                sum = regs.iter().flatten().copied().fold(sum, fold);
            }
        }
        other => panic!("unknown path {other:?}: wide, dispatch or baseline"),
    }
    println!(
        "{path}: {:.1} ms, checksum {sum:016x}",
        started.elapsed().as_secs_f64() * 1e3
    );
}
