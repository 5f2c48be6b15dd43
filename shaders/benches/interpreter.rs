//! Interpreter throughput on the stock fragment shaders (flat colour, textured,
//! Lambert and Phong lit, the 1080p procedural shader) through the scalar interpreter
//! one pixel at a time, the batch interpreter, and a hand-written native Rust (glam)
//! version of the same shader one pixel at a time. Results and how to run:
//! `benches/README.md`.
//!
//! Groups:
//! - `fragments/<shader>`: throughput in fragments (16 batches of 64 per iteration);
//! - `instructions/<shader>`: the same runs with throughput in CSIR instructions, as
//!   many as the scalar interpreter executes (NOPs and skipped branches not counted);
//! - `width/<shader>`: the batch interpreter with 1, 2, 4 or 8 `f32x8` per step.

use criterion::{Criterion, Throughput, criterion_group};
use csir::exec::batch::{BoundPlan, FragmentLanes, LaneArray, MAX_LANES, Plan, Registers};
use csir::exec::{Inputs, Machine, NearestClampTexture, Observer, Outputs, Samplers, Step};
use csir::ir::{Ir, SymbolKind};
use csir::{Limits, Shader, Stage, compile};
use glam::{Vec2, Vec3, Vec4};
use std::hint::black_box;

/// Batches per iteration (each a full 8×8 tile of 64 fragments).
const BATCHES: usize = 16;

/// One batch of inputs: `gl_FragCoord` and varyings as lane arrays (slot·4 + component).
struct Batch {
    frag_coord: [LaneArray; 4],
    varyings: Vec<LaneArray>,
}

/// A native shader: shades all 64 lanes of a batch one at a time, returns discard bits.
type Native = Box<dyn Fn(&Batch, &mut [LaneArray; 4]) -> u64>;

struct Workload {
    name: &'static str,
    shader: Shader,
    uniforms: Vec<[f32; 4]>,
    samplers: Vec<NearestClampTexture>,
    batches: Vec<Batch>,
    native: Native,
}

/// A 64×64 RGBA8 checker with 8×8-texel cells.
fn checker() -> NearestClampTexture {
    let mut bytes = Vec::with_capacity(64 * 64 * 4);
    for y in 0..64u32 {
        for x in 0..64u32 {
            let on = (x / 8 + y / 8) % 2 == 0;
            bytes.extend_from_slice(&if on {
                [230, 220, 40, 255]
            } else {
                [30, 60, 200, 255]
            });
        }
    }
    NearestClampTexture::new(64, 64, &bytes).unwrap()
}

fn stock(source: &str, name: &str) -> Shader {
    compile(source, name, Stage::Fragment, &Limits::SEED).expect("stock shader compiles")
}

/// Uniform vec4 slots with `values` stored under their names (the shader's layout).
fn uniforms(shader: &Shader, values: &[(&str, &[f32])]) -> Vec<[f32; 4]> {
    let mut slots = vec![[0.0; 4]; 32];
    for (name, v) in values {
        let symbol = shader.interface.find(name).expect("uniform declared");
        let SymbolKind::Uniform { slot } = symbol.kind else {
            panic!("{name} is not a uniform")
        };
        for (c, &x) in v.iter().enumerate() {
            slots[slot as usize + c / 4][c % 4] = x;
        }
    }
    slots
}

/// Varying slot of `name`.
fn slot(shader: &Shader, name: &str) -> usize {
    match shader.interface.find(name).map(|s| s.kind) {
        Some(SymbolKind::VaryingIn { slot }) => slot as usize,
        _ => panic!("{name} is not a fragment input"),
    }
}

/// `BATCHES` 8×8 tiles spread over a `width`×`height` screen; `varying(x, y)` gives the
/// varyings of pixel (x, y) as (slot, values).
fn tiles(
    width: f32,
    height: f32,
    slots: usize,
    varying: impl Fn(f32, f32) -> Vec<(usize, Vec<f32>)>,
) -> Vec<Batch> {
    (0..BATCHES)
        .map(|tile| {
            let x0 = (tile % 4) as f32 * width / 4.0 + width / 16.0;
            let y0 = (tile / 4) as f32 * height / 4.0 + height / 16.0;
            let mut batch = Batch {
                frag_coord: [[0.0; MAX_LANES]; 4],
                varyings: vec![[0.0; MAX_LANES]; slots * 4],
            };
            for lane in 0..MAX_LANES {
                let (x, y) = (x0 + (lane % 8) as f32 + 0.5, y0 + (lane / 8) as f32 + 0.5);
                batch.frag_coord[0][lane] = x;
                batch.frag_coord[1][lane] = y;
                batch.frag_coord[2][lane] = 0.5;
                batch.frag_coord[3][lane] = 1.0;
                for (s, values) in varying(x, y) {
                    for (c, v) in values.into_iter().enumerate() {
                        batch.varyings[s * 4 + c][lane] = v;
                    }
                }
            }
            batch
        })
        .collect()
}

fn lane_vec2(b: &Batch, slot: usize, lane: usize) -> Vec2 {
    Vec2::new(b.varyings[slot * 4][lane], b.varyings[slot * 4 + 1][lane])
}

fn lane_vec3(b: &Batch, slot: usize, lane: usize) -> Vec3 {
    Vec3::new(
        b.varyings[slot * 4][lane],
        b.varyings[slot * 4 + 1][lane],
        b.varyings[slot * 4 + 2][lane],
    )
}

fn store(color: &mut [LaneArray; 4], lane: usize, c: Vec4) {
    for (k, v) in c.to_array().into_iter().enumerate() {
        color[k][lane] = v;
    }
}

fn flat() -> Workload {
    let shader = stock(include_str!("../glsl/flat.frag"), "flat.frag");
    let (color, cut) = ([0.2f32, 0.6, 0.9, 1.0], 10.0f32);
    let uniforms = uniforms(&shader, &[("uColor", &color), ("uCutX", &[cut])]);
    let p = slot(&shader, "vP");
    let batches = tiles(320.0, 240.0, p + 1, |x, y| {
        vec![(p, vec![x / 160.0 - 1.0, y / 120.0 - 1.0])]
    });
    let (color, cut) = (Vec4::from_array(black_box(color)), black_box(cut));
    let native: Native = Box::new(move |b, out| {
        let mut discard = 0;
        for lane in 0..MAX_LANES {
            if lane_vec2(b, p, lane).x > cut {
                discard |= 1 << lane;
                continue;
            }
            store(out, lane, color);
        }
        discard
    });
    Workload {
        name: "flat",
        shader,
        uniforms,
        samplers: vec![],
        batches,
        native,
    }
}

fn textured() -> Workload {
    let shader = stock(include_str!("../glsl/textured.frag"), "textured.frag");
    let tint = [1.0f32, 0.9, 0.8, 1.0];
    let uniforms = uniforms(&shader, &[("uTint", &tint)]);
    let uv = slot(&shader, "vUV");
    let batches = tiles(256.0, 256.0, uv + 1, |x, y| {
        vec![(uv, vec![x / 256.0, y / 256.0])]
    });
    let tint = Vec4::from_array(black_box(tint));
    let texture = checker();
    let native: Native = Box::new(move |b, out| {
        for lane in 0..MAX_LANES {
            let st = lane_vec2(b, uv, lane);
            let texel = Vec4::from_array(texture.sample(st.x, st.y));
            store(out, lane, texel * tint);
        }
        0
    });
    Workload {
        name: "textured",
        shader,
        uniforms,
        samplers: vec![checker()],
        batches,
        native,
    }
}

fn lit() -> Workload {
    let shader = stock(include_str!("../glsl/lit.frag"), "lit.frag");
    // The lit_cube scene's values.
    let (light, view, albedo, shininess) = (
        [0.4f32, 0.8, 0.6],
        [0.0f32, 1.2, 4.5],
        [0.9f32, 0.55, 0.2],
        32.0f32,
    );
    let uniforms = uniforms(
        &shader,
        &[
            ("uLightDir", &light),
            ("uViewPos", &view),
            ("uColor", &albedo),
            ("uShininess", &[shininess]),
            ("uUseTexture", &[1.0]),
        ],
    );
    let (n, w, uv) = (
        slot(&shader, "vNormal"),
        slot(&shader, "vWorldPos"),
        slot(&shader, "vUV"),
    );
    let slots = n.max(w).max(uv) + 1;
    let batches = tiles(320.0, 240.0, slots, |x, y| {
        let (s, t) = (x / 320.0, y / 240.0);
        vec![
            (n, vec![0.3 + 0.4 * s, 0.9 - 0.3 * t, 0.35 + 0.2 * s * t]),
            (w, vec![2.0 * s - 1.0, 1.0, 2.0 * t - 1.0]),
            (uv, vec![s, t]),
        ]
    });
    let light = Vec3::from_array(black_box(light));
    let view = Vec3::from_array(black_box(view));
    let albedo_u = Vec3::from_array(black_box(albedo));
    let (shininess, use_texture) = (black_box(shininess), black_box(true));
    let texture = checker();
    let native: Native = Box::new(move |b, out| {
        for lane in 0..MAX_LANES {
            let normal = lane_vec3(b, n, lane).normalize();
            let l = light.normalize();
            let v = (view - lane_vec3(b, w, lane)).normalize();
            let r = (-l).reflect(normal);
            let diff = normal.dot(l).max(0.0);
            let spec = r.dot(v).max(0.0).powf(shininess);
            let mut albedo = albedo_u;
            if use_texture {
                let st = lane_vec2(b, uv, lane);
                let texel = Vec3::from_slice(&texture.sample(st.x, st.y)[..3]);
                albedo *= Vec3::splat(0.55) + (Vec3::ONE - Vec3::splat(0.55)) * texel;
            }
            let c = albedo * (0.15 + 0.85 * diff) + Vec3::splat(0.6) * spec;
            store(out, lane, c.clamp(Vec3::ZERO, Vec3::ONE).extend(1.0));
        }
        0
    });
    Workload {
        name: "lit",
        shader,
        uniforms,
        samplers: vec![checker()],
        batches,
        native,
    }
}

fn procedural() -> Workload {
    let shader = stock(include_str!("../glsl/procedural.frag"), "procedural.frag");
    // The procedural_1080p scene's values.
    let (time, aspect, base) = (0.7f32, 1.777_777_8f32, [0.25f32, 0.3, 0.45]);
    let uniforms = uniforms(
        &shader,
        &[("uTime", &[time]), ("uAspect", &[aspect]), ("uBase", &base)],
    );
    let uv = slot(&shader, "vUV");
    let batches = tiles(1920.0, 1080.0, uv + 1, |x, y| {
        vec![(uv, vec![x / 1920.0, y / 1080.0])]
    });
    let (time, aspect) = (black_box(time), black_box(aspect));
    let base = Vec3::from_array(black_box(base));
    let native: Native = Box::new(move |b, out| {
        for lane in 0..MAX_LANES {
            let mut p = lane_vec2(b, uv, lane) * 2.0 - 1.0;
            p.x *= aspect;
            let r = p.length();
            let ring = 0.5 + 0.5 * (r * 40.0 - time * 3.0).sin();
            let n = Vec3::new((p.x * 9.0).sin() * 0.35, (p.y * 7.0).cos() * 0.35, 1.0).normalize();
            let v = Vec3::Z;
            let mut acc = Vec3::ZERO;
            for i in 0..4 {
                let a = i as f32 * 1.570_796_4 + time;
                let lp = Vec3::new(a.cos() * 1.2, a.sin() * 0.8, 0.9);
                let l = (lp - p.extend(0.0)).normalize();
                let h = (l + v).normalize();
                let diff = n.dot(l).max(0.0);
                let spec = n.dot(h).max(0.0).powf(48.0);
                let lc = Vec3::new(1.0, 0.45, 0.2).lerp(Vec3::new(0.2, 0.55, 1.0), i as f32 / 3.0);
                acc += lc * (0.3 * diff + 0.6 * spec);
            }
            let mut col = acc * base.lerp(Vec3::ONE, ring);
            if r > 1.6 {
                col *= 0.5;
            }
            store(out, lane, col.clamp(Vec3::ZERO, Vec3::ONE).extend(1.0));
        }
        0
    });
    Workload {
        name: "procedural",
        shader,
        uniforms,
        samplers: vec![],
        batches,
        native,
    }
}

/// Counts the instructions the scalar interpreter executes.
#[derive(Default)]
struct Count(u64);

impl Observer for Count {
    fn step(&mut self, _: Step<'_>) {
        self.0 += 1;
    }
    fn branch(&mut self, _: usize, _: &Ir, _: bool) {
        self.0 += 1;
    }
}

/// Per-lane scalar interpreter over every batch (as a fragment stage would drive it);
/// returns the number of discarded fragments.
fn run_scalar<O: Observer>(
    w: &Workload,
    machine: &mut Machine<'_>,
    colors: &mut [LaneArray; 4],
    observer: &mut O,
) -> u32 {
    let slots = w.batches[0].varyings.len() / 4;
    let mut varyings = vec![[0.0f32; 4]; slots];
    let mut out = Outputs::default();
    let mut discarded = 0;
    for batch in &w.batches {
        for lane in 0..MAX_LANES {
            for (k, v) in batch.varyings.iter().enumerate() {
                varyings[k / 4][k % 4] = v[lane];
            }
            let inputs = Inputs {
                uniforms: &w.uniforms,
                varyings: &varyings,
                frag_coord: std::array::from_fn(|c| batch.frag_coord[c][lane]),
                samplers: &w.samplers as &dyn Samplers,
                ..Inputs::default()
            };
            machine.run_observed(&inputs, &mut out, observer).unwrap();
            discarded += out.discarded as u32;
            for (c, color) in colors.iter_mut().enumerate() {
                color[lane] = out.color[c];
            }
        }
    }
    discarded
}

fn run_batch<const W: usize>(
    w: &Workload,
    draw: &BoundPlan,
    regs: &mut Registers,
    colors: &mut [LaneArray; 4],
) -> u64 {
    let mut discarded = 0;
    for batch in &w.batches {
        let lanes = FragmentLanes {
            len: MAX_LANES,
            frag_coord: &batch.frag_coord,
            front_facing: true,
            varyings: &batch.varyings,
            samplers: &w.samplers,
        };
        discarded |= draw.run_width::<W>(regs, &lanes, colors);
    }
    discarded
}

/// The batch interpreter as the pipeline calls it ([`BoundPlan::run`] picks the width).
fn run_batch_auto(
    w: &Workload,
    draw: &BoundPlan,
    regs: &mut Registers,
    colors: &mut [LaneArray; 4],
) -> u64 {
    let mut discarded = 0;
    for batch in &w.batches {
        let lanes = FragmentLanes {
            len: MAX_LANES,
            frag_coord: &batch.frag_coord,
            front_facing: true,
            varyings: &batch.varyings,
            samplers: &w.samplers,
        };
        discarded |= draw.run(regs, &lanes, colors);
    }
    discarded
}

fn run_native(w: &Workload, colors: &mut [LaneArray; 4]) -> u64 {
    w.batches
        .iter()
        .fold(0, |d, batch| d | (w.native)(batch, colors))
}

fn bench(c: &mut Criterion) {
    // `ONLY=<shader>` keeps one row, for profiling one shader (`perf record`).
    let only = std::env::var("ONLY").ok();
    for w in [flat(), textured(), lit(), procedural()] {
        if only.as_deref().is_some_and(|name| name != w.name) {
            continue;
        }
        let mut machine = Machine::new(&w.shader).unwrap();
        let draw = Plan::new(&w.shader).unwrap().bind(&w.uniforms, &[]);
        let mut regs = draw.registers();
        let mut colors = [[0.0f32; MAX_LANES]; 4];
        let mut count = Count::default();
        run_scalar(&w, &mut machine, &mut colors, &mut count);
        let fragments = (BATCHES * MAX_LANES) as u64;
        eprintln!(
            "{}: {} instructions, {} executed per fragment (scalar), {} steps per batch",
            w.name,
            w.shader.live_instructions(),
            count.0 as f64 / fragments as f64,
            draw.steps()
        );

        for (group, elements) in [("fragments", fragments), ("instructions", count.0)] {
            let mut g = c.benchmark_group(format!("{group}/{}", w.name));
            g.throughput(Throughput::Elements(elements));
            g.bench_function("scalar", |b| {
                b.iter(|| run_scalar(&w, &mut machine, &mut colors, &mut csir::exec::NoObserver))
            });
            g.bench_function("batch", |b| {
                b.iter(|| run_batch_auto(&w, &draw, &mut regs, &mut colors))
            });
            if group == "fragments" {
                g.bench_function("native", |b| b.iter(|| run_native(&w, &mut colors)));
            }
            g.finish();
        }

        let mut g = c.benchmark_group(format!("width/{}", w.name));
        g.throughput(Throughput::Elements(fragments));
        g.bench_function("1", |b| {
            b.iter(|| run_batch::<1>(&w, &draw, &mut regs, &mut colors))
        });
        g.bench_function("2", |b| {
            b.iter(|| run_batch::<2>(&w, &draw, &mut regs, &mut colors))
        });
        g.bench_function("4", |b| {
            b.iter(|| run_batch::<4>(&w, &draw, &mut regs, &mut colors))
        });
        g.bench_function("8", |b| {
            b.iter(|| run_batch::<8>(&w, &draw, &mut regs, &mut colors))
        });
        g.finish();
    }
}

/// Best-of-`reps` throughput table (`MIN_OF=reps cargo bench --bench interpreter`): on
/// a shared, loaded machine the fastest run is the most repeatable figure.
fn min_of(reps: usize) {
    fn best(reps: usize, mut f: impl FnMut()) -> f64 {
        (0..reps)
            .map(|_| {
                let t = std::time::Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .fold(f64::MAX, f64::min)
    }
    println!(
        "shader      | scalar | batch  | native | batch/scalar | batch/native | W=1    W=2    W=4    W=8    (Mfragments/s)"
    );
    // `ONLY=<shader>` keeps one row, for profiling one shader (`perf record`).
    let only = std::env::var("ONLY").ok();
    for w in [flat(), textured(), lit(), procedural()] {
        if only.as_deref().is_some_and(|name| name != w.name) {
            continue;
        }
        let mut machine = Machine::new(&w.shader).unwrap();
        let draw = Plan::new(&w.shader).unwrap().bind(&w.uniforms, &[]);
        let mut regs = draw.registers();
        let mut colors = [[0.0f32; MAX_LANES]; 4];
        let rate = |t: f64| (BATCHES * MAX_LANES) as f64 / t / 1e6;
        let mut none = csir::exec::NoObserver;
        let scalar = best(reps / 10 + 1, || {
            black_box(run_scalar(&w, &mut machine, &mut colors, &mut none));
        });
        let batch = best(reps, || {
            black_box(run_batch_auto(&w, &draw, &mut regs, &mut colors));
        });
        let native = best(reps, || {
            black_box(run_native(&w, &mut colors));
        });
        let widths = [
            best(reps, || {
                black_box(run_batch::<1>(&w, &draw, &mut regs, &mut colors));
            }),
            best(reps, || {
                black_box(run_batch::<2>(&w, &draw, &mut regs, &mut colors));
            }),
            best(reps, || {
                black_box(run_batch::<4>(&w, &draw, &mut regs, &mut colors));
            }),
            best(reps, || {
                black_box(run_batch::<8>(&w, &draw, &mut regs, &mut colors));
            }),
        ];
        println!(
            "{:11} | {:6.2} | {:6.2} | {:6.2} | {:11.1}x | {:11.2}x | {:6.2} {:6.2} {:6.2} {:6.2}",
            w.name,
            rate(scalar),
            rate(batch),
            rate(native),
            scalar / batch,
            native / batch,
            rate(widths[0]),
            rate(widths[1]),
            rate(widths[2]),
            rate(widths[3]),
        );
    }
}

criterion_group!(benches, bench);

fn main() {
    if let Some(reps) = std::env::var("MIN_OF").ok().and_then(|v| v.parse().ok()) {
        min_of(reps);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
