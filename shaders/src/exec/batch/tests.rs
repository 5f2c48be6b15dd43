//! The batch interpreter against the scalar one: random verified fragment programs
//! (property test) and the stock shaders give the same colour bits and discard flags
//! in every lane, at every chunk width; plus the binding's hoisting and branch skipping.

use super::*;
use crate::exec::{Inputs, Machine, NearestClampTexture, Outputs, QuadMachine, Samplers};
use crate::ir::{CmpCode, Interface, Ir, IrBuilder, Op, Shader, Stage, Type};
use crate::{Limits, compile};
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

mod geometry;

/// Deterministic textures for SAMPLE: slot 0 a 3×2 RGBA8 texture (nearest, clamp),
/// slot 1 echoes the coordinate (NaN and infinities included), slot 2 mixes it, slot 3
/// is unbound (0, 0, 0, 0). Counts its calls.
struct TestSamplers {
    texture: NearestClampTexture,
    calls: AtomicUsize,
}

impl TestSamplers {
    fn new() -> Self {
        #[rustfmt::skip]
        let bytes = [
            255, 0, 0, 255,   0, 255, 0, 128,   0, 0, 255, 0,
            10, 20, 30, 40,   200, 100, 50, 25, 1, 2, 3, 4,
        ];
        TestSamplers {
            texture: NearestClampTexture::new(3, 2, &bytes).unwrap(),
            calls: AtomicUsize::new(0),
        }
    }
}

impl Samplers for TestSamplers {
    fn sample(&self, slot: usize, s: f32, t: f32) -> [f32; 4] {
        self.calls.fetch_add(1, Ordering::Relaxed);
        match slot {
            0 => self.texture.sample(s, t),
            1 => [s, t, -s, 0.5],
            2 => [s * t, s - t, t, s],
            _ => [0.0; 4],
        }
    }

    /// Slot 0 the texture's offset sample; slots 1 and 2 move `(s, t)` by the offset,
    /// so a lost or swapped offset shows.
    fn sample_offset(&self, slot: usize, s: f32, t: f32, [dx, dy]: [i32; 2]) -> [f32; 4] {
        if slot == 0 {
            self.calls.fetch_add(1, Ordering::Relaxed);
            return self.texture.sample_offset(s, t, [dx, dy]);
        }
        self.sample(slot, s + dx as f32, t + 0.5 * dy as f32)
    }

    /// A function of the level of detail, so that a lost or wrong λ shows: the
    /// offset sample with λ added to green (SAMPLE_GRAD reaches this through the
    /// default `sample_grad`, which computes λ from `size`).
    fn sample_lod(&self, slot: usize, s: f32, t: f32, lod: f32, offset: [i32; 2]) -> [f32; 4] {
        let [r, g, b, a] = self.sample_offset(slot, s, t, offset);
        [r, g + lod, b, a]
    }

    fn size(&self, slot: usize) -> [u32; 2] {
        match slot {
            0 => [3, 2],
            1 => [1024, 7],
            _ => [0, 0],
        }
    }

    /// Slot 0's texels; slot 1 a function of the index, so that lanes differ.
    fn texel(&self, slot: usize, i: u32, j: u32) -> [f32; 4] {
        match slot {
            0 => self.texture.texel(i, j),
            1 => [i as f32, j as f32, 0.25, 1.0],
            _ => [0.0; 4],
        }
    }
}

/// One batch's inputs.
struct Batch {
    len: usize,
    frag_coord: [LaneArray; 4],
    /// `gl_FrontFacing` of the batch's triangle.
    front_facing: bool,
    /// By vertex slot × 4 + component.
    varyings: Vec<LaneArray>,
}

impl Batch {
    /// Lane `lane`'s varyings as vec4 slots, for the scalar interpreter.
    fn lane_varyings(&self, lane: usize) -> Vec<[f32; 4]> {
        self.varyings
            .chunks(4)
            .map(|slot| std::array::from_fn(|c| slot.get(c).map_or(0.0, |v| v[lane])))
            .collect()
    }
}

/// [`BoundPlan::run_width`] at one width.
type RunFn = fn(&BoundPlan, &mut Registers, &FragmentLanes, &mut [LaneArray; 4]) -> u64;

/// Run `shader` on every lane through the scalar interpreter and through the batch
/// interpreter at widths 1, 2, 4 and 8; assert the same colour bits and discards.
fn assert_same(shader: &Shader, uniforms: &[[f32; 4]], remap: &[i16], batch: &Batch) {
    let samplers = TestSamplers::new();
    let varyings: Vec<Vec<[f32; 4]>> = (0..MAX_LANES).map(|l| batch.lane_varyings(l)).collect();
    let inputs = |lane: usize| Inputs {
        uniforms,
        varyings: &varyings[lane],
        var_remap: remap,
        frag_coord: std::array::from_fn(|c| batch.frag_coord[c][lane]),
        front_facing: batch.front_facing,
        samplers: &samplers,
        ..Inputs::default()
    };
    let quads = shader.uses_derivatives();
    let mut want = Vec::new();
    if quads {
        // Lanes 4q..4q + 4 are one quad (the last one partly past `len`: those lanes
        // run with their inputs too, as the batch interpreter's do).
        let mut quad = QuadMachine::new(shader).expect("verified");
        for first in (0..batch.len).step_by(4) {
            let ins: [Inputs; 4] = std::array::from_fn(|k| inputs(first + k));
            let mut out: [Outputs; 4] = std::array::from_fn(|_| Outputs::default());
            quad.run(&ins, &mut out).expect("runs");
            want.extend(out.iter().map(|o| (o.color, o.discarded)));
        }
        want.truncate(batch.len);
    } else {
        let mut machine = Machine::new(shader).expect("verified");
        for lane in 0..batch.len {
            let mut out = Outputs::default();
            machine.run(&inputs(lane), &mut out).expect("runs");
            want.push((out.color, out.discarded));
        }
    }
    let draw = Plan::new(shader).expect("plan").bind(uniforms, remap);
    let lanes = FragmentLanes {
        len: batch.len,
        frag_coord: &batch.frag_coord,
        front_facing: batch.front_facing,
        varyings: &batch.varyings,
        samplers: &samplers,
    };
    let mut regs = draw.registers();
    let runs: [(usize, RunFn); 4] = [
        (1, BoundPlan::run_width::<1>),
        (2, BoundPlan::run_width::<2>),
        (4, BoundPlan::run_width::<4>),
        (8, BoundPlan::run_width::<8>),
    ];
    for (width, run) in runs {
        // Twice, so the second run starts from the first one's stale registers.
        for pass in 0..2 {
            let mut color = [[f32::from_bits(0x7fc0_dead); MAX_LANES]; 4];
            let discarded = run(&draw, &mut regs, &lanes, &mut color);
            for (lane, &(want_color, want_discard)) in want.iter().enumerate() {
                let mut got: [f32; 4] = std::array::from_fn(|c| color[c][lane]);
                if quads && want_discard {
                    // A demoted lane's colour is unspecified (`QuadMachine`).
                    got = want_color;
                }
                assert_eq!(
                    (got.map(bits), discarded >> lane & 1 != 0),
                    (want_color.map(bits), want_discard),
                    "lane {lane} of {}, width {width}, pass {pass}: got {got:?}, want {want_color:?}",
                    batch.len
                );
            }
            assert_eq!(
                discarded.checked_shr(batch.len as u32).unwrap_or(0),
                0,
                "discard bits past the batch"
            );
        }
    }
}

/// The bits of `v`, with every NaN as the canonical quiet NaN.
///
/// NaN payloads are not compared: Rust (like C) leaves the payload of an arithmetic
/// result unspecified when an operand is NaN (RFC 3514), and LLVM does commute
/// `a + b` differently in the `f32` and `f32x8` instantiations of the same generic
/// code (a MULMM sum of a NaN with a payload and an `inf·0` NaN gave each path a
/// different NaN). Whether a value is NaN is deterministic and compared; copies
/// (MOV, SWZ, SETLANE, loads, stores) keep payloads in both interpreters.
fn bits(v: f32) -> u32 {
    if v.is_nan() { 0x7fc0_0000 } else { v.to_bits() }
}

/// Edge values mixed into every random input.
const EDGES: [f32; 24] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -2.5,
    3.0,
    1000.5,
    1e-40,  // subnormal
    -1e-45, // smallest negative subnormal
    f32::MIN_POSITIVE,
    f32::MAX,
    f32::MIN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    -f32::NAN,
    f32::from_bits(0x7fc0_1234), // quiet NaN with a payload
    f32::from_bits(0x7f80_0001), // signalling NaN
    std::f32::consts::PI,
    1e10,
    -7.0,
    0.999_999_94,
    16_777_217.0,
];

/// A small deterministic generator for input values.
struct Values(u64);

impl Values {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Edge values a third of the time, raw bit patterns sometimes, else moderate values.
    fn value(&mut self) -> f32 {
        let r = self.next();
        match r % 8 {
            0..=2 => EDGES[(r >> 8) as usize % EDGES.len()],
            3 => f32::from_bits((r >> 16) as u32),
            _ => ((r >> 32) as u32 as f32 / u32::MAX as f32 - 0.5) * 8.0,
        }
    }

    /// Coordinates: mostly in [-0.2, 1.2], sometimes edge values.
    fn coord(&mut self) -> f32 {
        let r = self.next();
        if r.is_multiple_of(6) {
            EDGES[(r >> 8) as usize % EDGES.len()]
        } else {
            (r >> 32) as u32 as f32 / u32::MAX as f32 * 1.4 - 0.2
        }
    }

    fn batch(&mut self, len: usize, slots: usize) -> Batch {
        let lanes = || -> LaneArray { std::array::from_fn(|_| 0.0) };
        let mut frag_coord = [lanes(), lanes(), lanes(), lanes()];
        let mut varyings = vec![lanes(); slots * 4];
        for lane in 0..MAX_LANES {
            for fc in frag_coord.iter_mut() {
                fc[lane] = self.value();
            }
            for v in varyings.iter_mut() {
                v[lane] = if self.next().is_multiple_of(2) {
                    self.coord()
                } else {
                    self.value()
                };
            }
        }
        Batch {
            len,
            frag_coord,
            front_facing: self.next().is_multiple_of(2),
            varyings,
        }
    }
}

/// Temporaries of a generated program.
const NT: u16 = 14;

/// Build a verified fragment shader from `choices`: a fixed prologue (LOAD_FCOORD,
/// LOAD_VARs, LOAD_UNIs including a mat4, CONSTs of edge values), then one
/// instruction per choice with operands picked among all temporaries, IFs nested up to
/// 6 deep (closed at the end), and a final STORE_COLOR of temporary `last`.
/// The seed's pools with the extended instructions (LOAD_FACE, DIV, TEXSIZE, TEXFETCH,
/// SAMPLE_OFFSET) of random programs.
const RANDOM_LIMITS: Limits = Limits {
    profile: crate::ir::Profile::Extended,
    ..Limits::SEED
};

fn program(choices: &[(u8, u16, u16, u16)], last: u16) -> Shader {
    let mut b = IrBuilder::new(RANDOM_LIMITS);
    b.alloc_temps(NT).unwrap();
    let emit = |b: &mut IrBuilder, ir: Ir| {
        b.emit(ir).unwrap();
    };
    let t = |x: u16| (x % NT) as i16;
    let konst = |b: &mut IrBuilder, dst: i16, values: &[f32]| {
        let first = b.add_immediates(values).unwrap();
        let ir = Ir::new(Op::Const, Type::Vec4).dst(dst).aux(first);
        b.emit(ir.ncomp(values.len() as u8)).unwrap();
    };
    emit(&mut b, Ir::new(Op::LoadFcoord, Type::Vec4).dst(0).ncomp(4));
    for slot in 0..3 {
        emit(
            &mut b,
            Ir::new(Op::LoadVar, Type::Vec4)
                .dst(1 + slot)
                .aux(slot)
                .ncomp(4),
        );
    }
    emit(
        &mut b,
        Ir::new(Op::LoadUni, Type::Vec4)
            .dst(4)
            .aux(0)
            .aux2(1)
            .ncomp(4),
    );
    emit(
        &mut b,
        Ir::new(Op::LoadUni, Type::Mat4)
            .dst(5)
            .aux(1)
            .aux2(4)
            .ncomp(4),
    );
    emit(
        &mut b,
        Ir::new(Op::LoadUni, Type::Vec4)
            .dst(9)
            .aux(5)
            .aux2(1)
            .ncomp(4),
    );
    konst(&mut b, 10, &[0.0, -0.0, f32::NAN, f32::INFINITY]);
    konst(&mut b, 11, &[1e-40, -3.5, 0.25, 2.0]);

    let mut open: Vec<bool> = Vec::new(); // per open IF: ELSE seen
    for &(kind, x, y, z) in choices {
        let (d, a, bb) = (t(x), t(y), t(z));
        let n = (z % 5) as u8;
        let ir = |op| Ir::new(op, Type::Vec4).dst(d).a(a).b(bb).ncomp(n);
        let unary = |op| Ir::new(op, Type::Vec4).dst(d).a(a).ncomp(n);
        match kind % 36 {
            0 => {
                let values: Vec<f32> = (0..1 + (z % 4) as usize)
                    .map(|k| EDGES[(y as usize * 7 + k * 5) % EDGES.len()])
                    .collect();
                konst(&mut b, d, &values);
            }
            1 => emit(&mut b, unary(Op::Mov)),
            2 => emit(&mut b, unary(Op::Swz).aux((y >> 5) as i16 & 0xff)),
            3 => emit(
                &mut b,
                Ir::new(Op::SetLane, Type::Vec4)
                    .dst(d)
                    .a(a)
                    .aux((z % 4) as i16)
                    .aux2((z / 4 % 4) as i16),
            ),
            4 => emit(&mut b, ir(Op::Add)),
            5 => emit(&mut b, ir(Op::Sub)),
            6 if z % 4 == 3 => emit(&mut b, ir(Op::Div)),
            6 => emit(&mut b, ir(Op::Mul)),
            7 => emit(&mut b, ir(Op::Min)),
            8 => emit(&mut b, ir(Op::Max)),
            // ABS, and the extended profile's derivatives across the quad.
            9 if z % 3 == 1 => emit(&mut b, unary(Op::Ddx)),
            9 if z % 3 == 2 => emit(&mut b, unary(Op::Ddy)),
            9 => emit(&mut b, unary(Op::Abs)),
            10 => emit(&mut b, unary(Op::Rcp)),
            11 => emit(&mut b, unary(Op::Sin)),
            12 => emit(&mut b, unary(Op::Cos)),
            13 => emit(&mut b, unary(Op::Rsq).ncomp(1)),
            14 => emit(&mut b, unary(Op::Trunc).ncomp(1)),
            // POW, and the extended profile's per-lane LG2 and EX2.
            15 if z % 3 == 1 => emit(&mut b, unary(Op::Ex2)),
            15 if z % 3 == 2 => emit(&mut b, unary(Op::Lg2)),
            15 => emit(&mut b, ir(Op::Pow).ncomp(1)),
            16 => emit(&mut b, ir(Op::Dot).ncomp(1).aux(2 + (z % 3) as i16)),
            17 => {
                let code = CmpCode::from_code(1 + (z % 6) as i16).unwrap();
                emit(&mut b, ir(Op::Cmp).ncomp(1).aux(code.code()));
            }
            18 | 19 => {
                let cols = 3 + (z % 2) as i16;
                let base = |v: u16| (v % (NT - cols as u16 + 1)) as i16;
                let (op, dst) = if kind % 36 == 18 {
                    (Op::MulMv, d)
                } else {
                    (Op::MulMm, base(x))
                };
                let rec = Ir::new(op, Type::Vec4).dst(dst).a(base(y)).aux(cols);
                let b_operand = if op == Op::MulMv { bb } else { base(z / 2) };
                emit(&mut b, rec.b(b_operand).ncomp(cols as u8));
            }
            21 if z % 5 == 0 => emit(
                &mut b,
                Ir::new(Op::TexSize, Type::IVec2)
                    .dst(d)
                    .a(a)
                    .aux((z / 5 % 4) as i16)
                    .ncomp(2),
            ),
            // Indexes from TEXSIZE results and 0.0 fall inside the textures.
            21 if z % 5 == 1 => emit(
                &mut b,
                Ir::new(Op::TexFetch, Type::Vec4)
                    .dst(d)
                    .a(a)
                    .b(bb)
                    .aux((z / 5 % 4) as i16)
                    .ncomp(4),
            ),
            // Offsets -8..=7 on both axes, from the same draw.
            21 if z % 5 == 2 => emit(
                &mut b,
                Ir::new(Op::SampleOffset, Type::Vec4)
                    .dst(d)
                    .a(a)
                    .aux((z / 5 % 4) as i16)
                    .with_texel_offset([(z / 20 % 16) as i8 - 8, (z / 320 % 16) as i8 - 8])
                    .ncomp(4),
            ),
            // SAMPLE_LOD / SAMPLE_BIAS with λ from `b.x` (EDGES included), with and
            // without an offset; SAMPLE_GRAD with the gradients in `b`.
            21 if z % 5 == 3 => emit(
                &mut b,
                Ir::new(
                    [Op::SampleLod, Op::SampleBias, Op::SampleGrad][(z / 5 % 3) as usize],
                    Type::Vec4,
                )
                .dst(d)
                .a(a)
                .b(bb)
                .aux((z / 15 % 4) as i16)
                .with_texel_offset([(z / 60 % 3) as i8 - 1, (z / 180 % 3) as i8 - 1])
                .ncomp(4),
            ),
            20 | 21 => emit(
                &mut b,
                Ir::new(Op::Sample, Type::Vec4)
                    .dst(d)
                    .a(a)
                    .aux((z % 4) as i16)
                    .ncomp(4),
            ),
            22 | 23 if open.len() < 6 => {
                emit(&mut b, Ir::new(Op::If, Type::None).a(a));
                open.push(false);
            }
            24 if open.last() == Some(&false) => {
                emit(&mut b, Ir::new(Op::Else, Type::None));
                *open.last_mut().unwrap() = true;
            }
            25 | 26 if !open.is_empty() => {
                emit(&mut b, Ir::new(Op::EndIf, Type::None));
                open.pop();
            }
            // Mostly inside IFs: a DISCARD outside discards every lane.
            27 if !open.is_empty() || z % 8 == 0 => emit(&mut b, Ir::new(Op::Discard, Type::None)),
            28 => emit(&mut b, Ir::new(Op::StoreColor, Type::None).a(a)),
            29 => emit(
                &mut b,
                Ir::new(Op::LoadVar, Type::Vec4)
                    .dst(d)
                    .aux((z % 8) as i16)
                    .ncomp(4),
            ),
            30 if z % 3 == 0 => emit(&mut b, Ir::new(Op::LoadFace, Type::Bool).dst(d).ncomp(1)),
            30 => emit(&mut b, Ir::new(Op::LoadFcoord, Type::Vec4).dst(d).ncomp(4)),
            31 => {
                let count = [1, 3, 4][z as usize % 3];
                let dst = (x % (NT - count + 1)) as i16;
                emit(
                    &mut b,
                    Ir::new(Op::LoadUni, Type::Vec4)
                        .dst(dst)
                        .aux((y % 8) as i16)
                        .aux2(count as i16)
                        .ncomp(4),
                );
            }
            // Shapes the step tidying rewrites: a result copied by MOV, and a scalar
            // broadcast by SWZ into a MUL.
            32 => {
                let u = t(z / 5);
                emit(&mut b, ir(Op::Add));
                emit(&mut b, Ir::new(Op::Mov, Type::Vec4).dst(u).a(d).ncomp(n));
            }
            33 => {
                let k = (z / 5 % 4) as i16;
                let swz = Ir::new(Op::Swz, Type::Vec3).dst(d).a(a).ncomp(3);
                emit(&mut b, swz.aux(k | k << 2 | k << 4));
                let other = t(z / 20);
                let (x, y) = if z % 2 == 0 { (d, other) } else { (other, d) };
                let mul = Ir::new(Op::Mul, Type::Vec3).dst(t(z / 7)).a(x).b(y);
                emit(&mut b, mul.ncomp(1 + (z / 3 % 3) as u8));
            }
            // normalize(a): DOT, RSQ, SWZ, MUL; and max(dot(a, b), c).
            34 => {
                let (dot, r, s) = (t(z / 5), t(z / 7), t(z / 11));
                let w = 2 + (z % 3) as i16;
                emit(
                    &mut b,
                    Ir::new(Op::Dot, Type::Float)
                        .dst(dot)
                        .a(a)
                        .b(a)
                        .aux(w)
                        .ncomp(1),
                );
                emit(&mut b, Ir::new(Op::Rsq, Type::Float).dst(r).a(dot).ncomp(1));
                emit(&mut b, Ir::new(Op::Swz, Type::Vec3).dst(s).a(r).ncomp(3));
                let mul = Ir::new(Op::Mul, Type::Vec3).dst(d).a(a).b(s);
                emit(&mut b, mul.ncomp(1 + (z / 3 % 4) as u8));
            }
            35 => {
                let dot = t(z / 5);
                let w = 2 + (z % 3) as i16;
                emit(
                    &mut b,
                    Ir::new(Op::Dot, Type::Float)
                        .dst(dot)
                        .a(a)
                        .b(bb)
                        .aux(w)
                        .ncomp(1),
                );
                let max = Ir::new(Op::Max, Type::Float).dst(d).a(dot).b(t(z / 7));
                emit(&mut b, max.ncomp(1));
            }
            _ => emit(&mut b, Ir::new(Op::Nop, Type::None).dst(d).a(a)),
        }
    }
    for _ in open {
        emit(&mut b, Ir::new(Op::EndIf, Type::None));
    }
    emit(&mut b, Ir::new(Op::StoreColor, Type::None).a(t(last)));
    let (ir, imm, ntmp) = b.finish();
    Shader {
        name: "generated".into(),
        stage: Stage::Fragment,
        limits: RANDOM_LIMITS,
        ir,
        imm,
        ntmp,
        interface: Interface {
            samp_hi: 3,
            var_hi: 7,
            uni_hi: 11,
            ..Interface::default()
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn random_programs_match_the_scalar_interpreter(
        choices in prop::collection::vec((any::<u8>(), any::<u16>(), any::<u16>(), any::<u16>()), 0..80),
        last in any::<u16>(),
        len in 1usize..=MAX_LANES,
        seed in any::<u64>(),
        remap in prop::collection::vec(-1i16..8, 0..8),
    ) {
        let shader = program(&choices, last);
        let mut values = Values(seed | 1);
        let uniforms: Vec<[f32; 4]> =
            (0..12).map(|_| std::array::from_fn(|_| values.value())).collect();
        let batch = values.batch(len, 8);
        assert_same(&shader, &uniforms, &remap, &batch);
    }
}

/// 32-bit patterns the integer programs start from: zero, ±1, the extremes, shift
/// counts around 32, divisors that trap in C (`INT_MIN / -1`), and float patterns.
const INT_EDGES: [u32; 16] = [
    0,
    1,
    u32::MAX, // -1
    0x8000_0000,
    0x7fff_ffff,
    31,
    32,
    33,
    0xffff_fffe, // -2
    0x8000_0001,
    0x3f80_0000, // 1.0
    0x7fc0_0000, // NaN
    0x4b80_0001, // 16777217.0
    65_536,
    0xdead_beef,
    7,
];

/// The extended profile's integer and bit instructions, for the random programs.
const INT_BINARY: [Op; 22] = [
    Op::UAdd,
    Op::UMul,
    Op::IDiv,
    Op::UDiv,
    Op::IMod,
    Op::UMod,
    Op::Shl,
    Op::IShr,
    Op::UShr,
    Op::And,
    Op::Or,
    Op::Xor,
    Op::IMin,
    Op::IMax,
    Op::UMin,
    Op::UMax,
    Op::ISlt,
    Op::ISge,
    Op::USlt,
    Op::USge,
    Op::USeq,
    Op::USne,
];
/// The one-operand integer instructions, and LG2 and EX2: also functions of one
/// lane's pattern, whose NaN results are the canonical NaN, so their bits compare
/// exactly on every pattern.
const INT_UNARY: [Op; 10] = [
    Op::Lg2,
    Op::Ex2,
    Op::Not,
    Op::INeg,
    Op::IAbs,
    Op::ISsg,
    Op::I2F,
    Op::U2F,
    Op::F2I,
    Op::F2U,
];

/// An extended-profile fragment shader of integer and bit instructions from
/// `choices`: the prologue of [`program`] with integer edge patterns
/// ([`INT_EDGES`]) in constants, then integer operations, moves, swizzles, lane
/// writes, conversions and IFs (no float arithmetic, whose NaN payloads are not
/// compared), and a STORE_COLOR of `last`.
fn integer_program(choices: &[(u8, u16, u16, u16)], last: u16) -> Shader {
    let mut b = IrBuilder::new(Limits::EXTENDED);
    b.alloc_temps(NT).unwrap();
    let emit = |b: &mut IrBuilder, ir: Ir| {
        b.emit(ir).unwrap();
    };
    let t = |x: u16| (x % NT) as i16;
    let konst = |b: &mut IrBuilder, dst: i16, values: &[f32]| {
        let first = b.add_immediates(values).unwrap();
        let ir = Ir::new(Op::Const, Type::IVec4).dst(dst).aux(first);
        b.emit(ir.ncomp(values.len() as u8)).unwrap();
    };
    emit(&mut b, Ir::new(Op::LoadFcoord, Type::Vec4).dst(0).ncomp(4));
    for slot in 0..3 {
        let load = Ir::new(Op::LoadVar, Type::Vec4).dst(1 + slot).aux(slot);
        emit(&mut b, load.ncomp(4));
    }
    let uniform = Ir::new(Op::LoadUni, Type::IVec4).dst(4).aux(0).aux2(1);
    emit(&mut b, uniform.ncomp(4));
    for (k, dst) in (5..NT as i16).enumerate() {
        let values: Vec<f32> = (0..4)
            .map(|i| f32::from_bits(INT_EDGES[(k * 4 + i) % INT_EDGES.len()]))
            .collect();
        konst(&mut b, dst, &values);
    }
    let mut open: Vec<bool> = Vec::new();
    for &(kind, x, y, z) in choices {
        let (d, a, bb) = (t(x), t(y), t(z));
        let n = (z % 5) as u8;
        match kind % 12 {
            0 => {
                let values: Vec<f32> = (0..1 + (z % 4) as usize)
                    .map(|k| f32::from_bits(INT_EDGES[(y as usize * 7 + k * 5) % INT_EDGES.len()]))
                    .collect();
                konst(&mut b, d, &values);
            }
            1 => emit(&mut b, Ir::new(Op::Mov, Type::IVec4).dst(d).a(a).ncomp(n)),
            2 => {
                let swz = Ir::new(Op::Swz, Type::IVec4).dst(d).a(a).ncomp(n);
                emit(&mut b, swz.aux((y >> 5) as i16 & 0xff));
            }
            3..=6 => {
                let op = INT_BINARY[(y / 16) as usize % INT_BINARY.len()];
                emit(&mut b, Ir::new(op, Type::IVec4).dst(d).a(a).b(bb).ncomp(n));
            }
            7 | 8 => {
                let op = INT_UNARY[(z / 16) as usize % INT_UNARY.len()];
                emit(&mut b, Ir::new(op, Type::IVec4).dst(d).a(a).ncomp(n));
            }
            9 if open.len() < 6 => {
                emit(&mut b, Ir::new(Op::If, Type::None).a(a));
                open.push(false);
            }
            10 if open.last() == Some(&false) => {
                emit(&mut b, Ir::new(Op::Else, Type::None));
                *open.last_mut().unwrap() = true;
            }
            10 if !open.is_empty() => {
                emit(&mut b, Ir::new(Op::EndIf, Type::None));
                open.pop();
            }
            11 => emit(
                &mut b,
                Ir::new(Op::SetLane, Type::IVec4)
                    .dst(d)
                    .a(a)
                    .aux((z % 4) as i16)
                    .aux2((z / 4 % 4) as i16),
            ),
            _ => {}
        }
    }
    for _ in open {
        emit(&mut b, Ir::new(Op::EndIf, Type::None));
    }
    emit(&mut b, Ir::new(Op::StoreColor, Type::None).a(t(last)));
    let (ir, imm, ntmp) = b.finish();
    Shader {
        name: "generated-int".into(),
        stage: Stage::Fragment,
        limits: Limits::EXTENDED,
        ir,
        imm,
        ntmp,
        interface: Interface {
            var_hi: 7,
            uni_hi: 0,
            ..Interface::default()
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// The batch interpreter gives the scalar interpreter's bits on random
    /// integer programs, with edge patterns (INT_MIN / -1, shifts by 31..33, division
    /// by zero, NaN and float patterns) in constants and as integer uniforms.
    #[test]
    fn random_integer_programs_match_the_scalar_interpreter(
        choices in prop::collection::vec((any::<u8>(), any::<u16>(), any::<u16>(), any::<u16>()), 0..80),
        last in any::<u16>(),
        len in 1usize..=MAX_LANES,
        seed in any::<u64>(),
    ) {
        let shader = integer_program(&choices, last);
        crate::ir::verify(&shader).expect("generated programs verify");
        let mut values = Values(seed | 1);
        let uniforms: Vec<[f32; 4]> = vec![std::array::from_fn(|_| {
            f32::from_bits(INT_EDGES[values.next() as usize % INT_EDGES.len()])
        })];
        let batch = values.batch(len, 8);
        assert_same(&shader, &uniforms, &[], &batch);
    }
}

#[test]
fn integer_programs_reach_every_integer_instruction() {
    let choices: Vec<(u8, u16, u16, u16)> = (0..INT_BINARY.len() as u16)
        .map(|k| (3, k, k * 16, k + 1))
        .chain((0..INT_UNARY.len() as u16).map(|k| (7, k, k + 2, k * 16)))
        .collect();
    let shader = integer_program(&choices, 3);
    let used: Vec<Op> = shader.ir.iter().filter_map(|r| r.opcode()).collect();
    for op in INT_BINARY.iter().chain(&INT_UNARY) {
        assert!(used.contains(op), "{op:?}");
    }
    let mut values = Values(99);
    let batch = values.batch(MAX_LANES, 8);
    assert_same(&shader, &[[f32::from_bits(0x8000_0000); 4]], &[], &batch);
}

/// Compile a stock fragment shader of `shaders/glsl/`.
fn stock(source: &str) -> Shader {
    compile(source, "stock.frag", Stage::Fragment, &Limits::SEED).expect("compiles")
}

#[test]
fn stock_shaders_match_the_scalar_interpreter() {
    let shaders = [
        include_str!("../../../glsl/flat.frag"),
        include_str!("../../../glsl/textured.frag"),
        include_str!("../../../glsl/lit.frag"),
        include_str!("../../../glsl/procedural.frag"),
        include_str!("../../../glsl/light.frag"),
    ];
    let mut values = Values(0x1234_5678);
    for source in shaders {
        let shader = stock(source);
        for (k, len) in [64, 1, 7, 9, 33, 63].into_iter().enumerate() {
            let uniforms: Vec<[f32; 4]> = (0..8)
                .map(|slot| {
                    if k % 2 == 0 {
                        std::array::from_fn(|_| values.value())
                    } else {
                        [0.3 + slot as f32 * 0.1, -0.4, 0.8, 1.0]
                    }
                })
                .collect();
            let batch = values.batch(len, 3);
            assert_same(&shader, &uniforms, &[], &batch);
        }
    }
}

#[test]
fn uniform_work_is_done_once_per_draw() {
    let shader = stock(include_str!("../../../glsl/lit.frag"));
    let plan = Plan::new(&shader).unwrap();
    // uLightDir, uViewPos, uColor, uShininess, uUseTexture.
    let uniforms = [
        [0.0, 0.6, 0.8, 0.0],
        [0.0, 0.0, 5.0, 0.0],
        [1.0; 4],
        [32.0; 4],
    ];
    let untextured = plan.bind(&uniforms, &[]);
    let mut textured_uniforms = uniforms.to_vec();
    textured_uniforms.push([1.0; 4]);
    let textured = plan.bind(&textured_uniforms, &[]);
    // normalize(uLightDir) and the uniform IF are gone; the texture IF is resolved.
    assert!(untextured.steps() < textured.steps());
    assert!(
        textured.steps() < plan.len() - 10,
        "{} of {}",
        textured.steps(),
        plan.len()
    );
    assert!(
        !untextured
            .steps
            .iter()
            .any(|s| matches!(s, step::Step::If { .. }))
    );
    assert!(
        !untextured
            .steps
            .iter()
            .any(|s| matches!(s, step::Step::Sample { .. }))
    );
    assert!(!untextured.may_discard());

    // flat.frag: the whole colour is a uniform; only the cut test runs per pixel.
    let flat = Plan::new(&stock(include_str!("../../../glsl/flat.frag"))).unwrap();
    let draw = flat.bind(&[[0.1, 0.2, 0.3, 1.0], [10.0; 4]], &[]);
    assert!(draw.may_discard());
    assert!(draw.steps() <= 6, "{:?}", draw.steps);
}

#[test]
fn reads_frag_coord_only_with_a_live_load() {
    let plan = |source: &str| Plan::new(&stock(source)).unwrap().bind(&[], &[]);
    let reads = plan(
        "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(gl_FragCoord.xy * 0.01, 0.0, 1.0); }\n",
    );
    assert!(reads.reads_frag_coord());
    let ignores = plan("#version 330 core\nin vec4 v;\nout vec4 c;\nvoid main() { c = v; }\n");
    assert!(!ignores.reads_frag_coord());
}

#[test]
fn a_branch_no_lane_takes_is_skipped() {
    // if (v0.x < 0) colour = texture(1, v0.xy) else colour = v0
    let mut b = IrBuilder::new(Limits::SEED);
    let v = b.alloc_temps(1).unwrap();
    b.emit(Ir::new(Op::LoadVar, Type::Vec4).dst(v).aux(0).ncomp(4))
        .unwrap();
    let zero = b.emit_const(&[0.0], Type::Float).unwrap();
    let cond = b.alloc_temps(1).unwrap();
    let cmp = Ir::new(Op::Cmp, Type::Bool).dst(cond).a(v).b(zero).ncomp(1);
    b.emit(cmp.aux(CmpCode::Lt.code())).unwrap();
    let texel = b.alloc_temps(1).unwrap();
    b.emit(Ir::new(Op::If, Type::None).a(cond)).unwrap();
    b.emit(
        Ir::new(Op::Sample, Type::Vec4)
            .dst(texel)
            .a(v)
            .aux(1)
            .ncomp(4),
    )
    .unwrap();
    b.emit(Ir::new(Op::StoreColor, Type::None).a(texel))
        .unwrap();
    b.emit(Ir::new(Op::Else, Type::None)).unwrap();
    b.emit(Ir::new(Op::StoreColor, Type::None).a(v)).unwrap();
    b.emit(Ir::new(Op::EndIf, Type::None)).unwrap();
    let (ir, imm, ntmp) = b.finish();
    let shader = Shader {
        name: "skip".into(),
        stage: Stage::Fragment,
        limits: Limits::SEED,
        ir,
        imm,
        ntmp,
        interface: Interface {
            samp_hi: 3,
            ..Interface::default()
        },
    };
    let draw = Plan::new(&shader).unwrap().bind(&[], &[]);
    let samplers = TestSamplers::new();
    let mut varyings = vec![[0.0; MAX_LANES]; 4];
    varyings[0] = std::array::from_fn(|i| i as f32); // x >= 0 everywhere
    let frag_coord = [[0.0; MAX_LANES]; 4];
    let lanes = FragmentLanes {
        len: 64,
        frag_coord: &frag_coord,
        front_facing: true,
        varyings: &varyings,
        samplers: &samplers,
    };
    let mut regs = draw.registers();
    let mut color = [[0.0; MAX_LANES]; 4];
    assert_eq!(draw.run(&mut regs, &lanes, &mut color), 0);
    assert_eq!(samplers.calls.load(Ordering::Relaxed), 0);
    assert_eq!(color[0][5], 5.0);
    // Two lanes take the branch: exactly two sampler calls; the others keep v.
    let mut varyings = varyings.clone();
    varyings[0][3] = -1.0;
    varyings[0][60] = -2.0;
    let lanes = FragmentLanes {
        varyings: &varyings,
        ..lanes
    };
    draw.run(&mut regs, &lanes, &mut color);
    assert_eq!(samplers.calls.load(Ordering::Relaxed), 2);
    assert_eq!((color[0][3], color[1][3]), (-1.0, 0.0));
    assert_eq!((color[0][60], color[2][60]), (-2.0, 2.0));
    assert_eq!(color[0][59], 59.0);
}

#[test]
fn constant_integral_exponents_take_the_squaring_step() {
    let source = |e: &str| {
        format!(
            "#version 330 core\nin vec2 vUV;\nuniform float uE;\nout vec4 c;\n\
             void main() {{ c = vec4(pow(vUV.x, {e}), pow(vUV.y, uE), pow(vUV.x, 2.5), 1.0); }}\n"
        )
    };
    let mut values = Values(0xfeed_beef);
    for e in ["48.0", "-3.0", "0.0", "1023.0", "1024.0", "uE * 2.0"] {
        let shader =
            compile(&source(e), "pow.frag", Stage::Fragment, &Limits::SEED).expect("compiles");
        let plan = Plan::new(&shader).unwrap();
        for u in [16.0, -7.0, 0.5, 2000.0, f32::NAN] {
            let uniforms = [[u; 4]];
            let draw = plan.bind(&uniforms, &[]);
            let ints = draw
                .steps
                .iter()
                .filter(|s| matches!(s, step::Step::PowInt { .. }))
                .count();
            let int = |v: f32| v.trunc() == v && v.abs() <= 1023.0;
            let expected = usize::from(e != "1024.0" && e != "uE * 2.0")
                + usize::from(int(u))
                + usize::from(e == "uE * 2.0" && int(2.0 * u));
            assert_eq!(ints, expected, "pow(x, {e}), uE = {u}: {:?}", draw.steps);
            for len in [64, 13] {
                let batch = values.batch(len, 1);
                assert_same(&shader, &uniforms, &[], &batch);
            }
        }
    }
}

#[test]
fn each_plan_takes_its_own_stage_only() {
    let src = "#version 330\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
    let shader = compile(src, "v.vert", Stage::Vertex, &Limits::SEED).unwrap();
    assert_eq!(Plan::new(&shader).unwrap_err(), PlanError::Stage);
    assert!(Plan::new_vertex(&shader).is_ok());
    let frag = stock(include_str!("../../../glsl/flat.frag"));
    assert_eq!(Plan::new_vertex(&frag).unwrap_err(), PlanError::Stage);
    assert!(Plan::new(&frag).is_ok());
}

/// Run vertex shader `shader` on every lane of `batch` (its varyings are the
/// attributes: location `l` component `c` at `4·l + c`) through the scalar
/// interpreter and through [`BoundPlan::run_vertices`]; assert the same position and
/// varying bits, every output slot, twice (stale registers the second time).
fn assert_same_vertices(shader: &Shader, uniforms: &[[f32; 4]], batch: &Batch) {
    let samplers = TestSamplers::new();
    let mut machine = Machine::new(shader).expect("verified");
    let mut want = Vec::new();
    for lane in 0..batch.len {
        let attributes = batch.lane_varyings(lane);
        let inputs = Inputs {
            uniforms,
            attributes: &attributes,
            samplers: &samplers,
            ..Inputs::default()
        };
        let mut out = Outputs::default();
        machine.run(&inputs, &mut out).expect("runs");
        want.push(out);
    }
    let draw = Plan::new_vertex(shader).expect("plan").bind(uniforms, &[]);
    let outputs = draw.vertex_outputs();
    let mut regs = draw.registers();
    for pass in 0..2 {
        let mut out = vec![[f32::from_bits(0x7fc0_dead); MAX_LANES]; 4 * outputs];
        draw.run_vertices(&mut regs, batch.len, &batch.varyings, &samplers, &mut out);
        for (lane, w) in want.iter().enumerate() {
            let got = |k: usize| -> [f32; 4] { std::array::from_fn(|c| out[4 * k + c][lane]) };
            assert_eq!(
                got(0).map(bits),
                w.position.map(bits),
                "position, lane {lane} of {}, pass {pass}",
                batch.len
            );
            for (slot, v) in w.varyings.iter().enumerate() {
                let g = if slot + 1 < outputs {
                    got(slot + 1)
                } else {
                    [0.0; 4]
                };
                assert_eq!(
                    g.map(bits),
                    v.map(bits),
                    "varying slot {slot}, lane {lane} of {}, pass {pass}",
                    batch.len
                );
            }
        }
    }
}

/// [`program`] made a vertex shader: its loads of `gl_FragCoord` and varyings read
/// attributes 3 and 0..8, the fragment-only instructions go (a DISCARD becomes a
/// STORE_VAR of its slot choice, so stores happen under lane masks), and the final
/// STORE_COLOR becomes STORE_POS plus a STORE_VAR of slot 2.
fn vertex_program(choices: &[(u8, u16, u16, u16)], last: u16) -> Shader {
    let mut shader = program(choices, last);
    shader.stage = Stage::Vertex;
    let mut stores = 0i16;
    let mut ir = Vec::new();
    for mut r in std::mem::take(&mut shader.ir) {
        match r.opcode() {
            Some(Op::LoadFcoord) => {
                r.op = Op::LoadAttr.code();
                r.aux = 3;
            }
            Some(Op::LoadVar) => r.op = Op::LoadAttr.code(),
            Some(Op::LoadFace | Op::Ddx | Op::Ddy) => r = Ir::new(Op::Nop, Type::None),
            Some(Op::Discard) => {
                stores += 1;
                r = Ir::new(Op::StoreVar, Type::Vec4)
                    .a(stores % NT as i16)
                    .aux(stores % 4);
            }
            Some(Op::StoreColor) => {
                ir.push(
                    Ir::new(Op::StoreVar, Type::Vec4)
                        .a((r.a + 1) % NT as i16)
                        .aux(2),
                );
                r.op = Op::StorePos.code();
            }
            _ => {}
        }
        ir.push(r);
    }
    shader.ir = ir;
    shader.interface.attr_hi = 7;
    shader.interface.var_hi = -1;
    shader.interface.writes_position = true;
    shader
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn random_vertex_programs_match_the_scalar_interpreter(
        choices in prop::collection::vec((any::<u8>(), any::<u16>(), any::<u16>(), any::<u16>()), 0..80),
        last in any::<u16>(),
        len in 1usize..=MAX_LANES,
        seed in any::<u64>(),
    ) {
        let shader = vertex_program(&choices, last);
        let mut values = Values(seed | 1);
        let uniforms: Vec<[f32; 4]> =
            (0..12).map(|_| std::array::from_fn(|_| values.value())).collect();
        let batch = values.batch(len, 8);
        assert_same_vertices(&shader, &uniforms, &batch);
    }
}

#[test]
fn vertex_outputs_start_from_the_scalar_initial_values() {
    // gl_Position and slot 1 stored only where attribute 0's x is non-zero: the other
    // lanes keep (0, 0, 0, 1) and zeros; slot 0 is never stored (zeros).
    let mut b = IrBuilder::new(RANDOM_LIMITS);
    b.alloc_temps(2).unwrap();
    for ir in [
        Ir::new(Op::LoadAttr, Type::Vec4).dst(0).aux(0).ncomp(4),
        Ir::new(Op::If, Type::None).a(0),
        Ir::new(Op::StorePos, Type::None).a(0),
        Ir::new(Op::StoreVar, Type::Vec4).a(0).aux(1),
        Ir::new(Op::EndIf, Type::None),
    ] {
        b.emit(ir).unwrap();
    }
    let (ir, imm, ntmp) = b.finish();
    let shader = Shader {
        name: "partial".into(),
        stage: Stage::Vertex,
        limits: RANDOM_LIMITS,
        ir,
        imm,
        ntmp,
        interface: Interface {
            attr_hi: 0,
            writes_position: true,
            ..Interface::default()
        },
    };
    let mut batch = Values(7).batch(21, 1);
    for lane in 0..MAX_LANES {
        batch.varyings[0][lane] = (lane % 3) as f32;
    }
    assert_same_vertices(&shader, &[], &batch);
    let draw = Plan::new_vertex(&shader).unwrap().bind(&[], &[]);
    assert_eq!(draw.vertex_outputs(), 3);
    let mut out = vec![[9.0; MAX_LANES]; 12];
    draw.run_vertices(
        &mut draw.registers(),
        21,
        &batch.varyings,
        &TestSamplers::new(),
        &mut out,
    );
    assert_eq!(
        [out[0][3], out[1][3], out[2][3], out[3][3]],
        [0.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(out[8][3], 0.0);
    assert_eq!(out[4][4], 0.0);
    assert_eq!(out[0][4], 1.0);
    assert_eq!(out[8][4], 1.0);
}

#[test]
fn stock_vertex_shaders_match_the_scalar_interpreter() {
    for (name, src) in [
        ("lit.vert", include_str!("../../../glsl/lit.vert")),
        ("light.vert", include_str!("../../../glsl/light.vert")),
        ("mvp.vert", include_str!("../../../glsl/mvp.vert")),
        ("tex.vert", include_str!("../../../glsl/tex.vert")),
        ("textured.vert", include_str!("../../../glsl/textured.vert")),
        ("vary.vert", include_str!("../../../glsl/vary.vert")),
        ("world.vert", include_str!("../../../glsl/world.vert")),
        ("ground.vert", include_str!("../../../glsl/ground.vert")),
        (
            "lit.vert (reference images)",
            include_str!("../../../../reference-images/shaders/lit.vert"),
        ),
    ] {
        let shader = compile(src, name, Stage::Vertex, &Limits::EXTENDED).unwrap();
        let mut values = Values(0x5eed);
        let uniforms: Vec<[f32; 4]> = (0..16)
            .map(|_| std::array::from_fn(|_| values.value()))
            .collect();
        for len in [64, 13, 1] {
            let batch = values.batch(len, 4);
            assert_same_vertices(&shader, &uniforms, &batch);
        }
    }
}

#[test]
fn empty_batches_do_nothing() {
    let draw = Plan::new(&stock(include_str!("../../../glsl/flat.frag")))
        .unwrap()
        .bind(&[], &[]);
    let frag_coord = [[0.0; MAX_LANES]; 4];
    let lanes = FragmentLanes {
        len: 0,
        frag_coord: &frag_coord,
        front_facing: true,
        varyings: &[],
        samplers: &crate::exec::NoSamplers,
    };
    let mut color = [[7.0; MAX_LANES]; 4];
    assert_eq!(draw.run(&mut draw.registers(), &lanes, &mut color), 0);
    assert_eq!(color[0][0], 7.0);
}

#[test]
fn fused_and_repeated_steps_keep_the_bits() {
    // MUL+ADD (both operand orders, a broadcast factor), MAX+MIN, and a repeated
    // vec3(p, 0.0), at top level and inside a per-pixel IF (masked writes).
    let source = "#version 330 core
in vec4 vA;
in vec4 vB;
uniform vec3 uK;
out vec4 c;
void main() {
    vec3 acc = vec3(0.0);
    vec2 p = vA.xy * 2.0 - 1.0;
    acc += uK * (0.3 * vB.x + 0.6 * vB.y);
    vec3 l = normalize(uK - vec3(p, 0.0));
    vec3 m = normalize(uK.zyx - vec3(p, 0.0));
    if (vA.z > 0.25) {
        acc = vB.w * acc + vec3(p, 0.0);
        acc += l * vA.w;
        acc = clamp(acc, 0.1, 0.9);
    }
    c = vec4(clamp(acc + m, 0.0, 1.0), 1.0);
}
";
    let shader = compile(source, "fuse.frag", Stage::Fragment, &Limits::SEED).expect("compiles");
    let plan = Plan::new(&shader).unwrap();
    let mut values = Values(0xabcd_ef01);
    for k in 0..6 {
        let uniforms: Vec<[f32; 4]> = (0..4)
            .map(|_| {
                if k % 2 == 0 {
                    std::array::from_fn(|_| values.value())
                } else {
                    [0.4, -0.7, 0.9, 0.0]
                }
            })
            .collect();
        let draw = plan.bind(&uniforms, &[]);
        let count = |f: fn(&step::Step) -> bool| draw.steps.iter().filter(|s| f(s)).count();
        assert!(
            count(|s| matches!(s, step::Step::MulAdd { .. })) >= 2,
            "{:?}",
            draw.steps
        );
        assert!(
            count(|s| matches!(s, step::Step::Clamp { .. })) >= 2,
            "{:?}",
            draw.steps
        );
        for len in [64, 37, 8, 3] {
            let batch = values.batch(len, 2);
            assert_same(&shader, &uniforms, &[], &batch);
        }
    }
}

#[test]
fn fused_add_multiply_keeps_the_bits() {
    // ADD then MUL of the sum (`(x + y) * k`, both MUL operand orders, a uniform and a
    // varying factor, narrower than the sum), at top level and inside a per-pixel IF
    // (masked writes), on values with ±0, ±inf, NaN and random bit patterns.
    let source = "#version 330 core
in vec4 vA;
in vec4 vB;
uniform vec4 uK;
out vec4 c;
void main() {
    vec4 s = (vA + vB) * uK;
    vec2 t = vB.zw * (vA.xy + uK.yx);
    if (vA.z > 0.25) {
        s = (s + vA) * vB;
        t = vA.xy * (t + vB.xy);
    }
    c = s + vec4(t, t);
}
";
    let shader = compile(source, "addmul.frag", Stage::Fragment, &Limits::SEED).expect("compiles");
    let plan = Plan::new(&shader).unwrap();
    let mut values = Values(0x5eed_add1);
    for k in 0..6 {
        let uniforms: Vec<[f32; 4]> = (0..2)
            .map(|_| {
                if k % 2 == 0 {
                    std::array::from_fn(|_| values.value())
                } else {
                    [0.25, -0.7, f32::NAN, 3.0]
                }
            })
            .collect();
        let draw = plan.bind(&uniforms, &[]);
        let fused = |rev: bool| {
            draw.steps
                .iter()
                .filter(|s| matches!(s, step::Step::AddMul { rev: r, .. } if *r == rev))
                .count()
        };
        assert!(fused(false) >= 1 && fused(true) >= 1, "{:?}", draw.steps);
        for len in [64, 37, 8, 3] {
            let batch = values.batch(len, 2);
            assert_same(&shader, &uniforms, &[], &batch);
        }
    }
}

#[test]
fn only_the_varying_components_read_are_loaded() {
    let source = "#version 330 core
in vec4 vA;
in vec4 vB;
out vec4 c;
void main() {
    c = vec4(vA.x * vB.y, vA.z, 0.5, 1.0);
}
";
    let shader = compile(source, "vary.frag", Stage::Fragment, &Limits::SEED).expect("compiles");
    let draw = Plan::new(&shader).unwrap().bind(&[], &[]);
    let slot = |name: &str| match shader.interface.find(name).map(|s| s.kind) {
        Some(crate::ir::SymbolKind::VaryingIn { slot }) => slot as usize,
        other => panic!("{name}: {other:?}"),
    };
    let (a, b) = (slot("vA") * 4, slot("vB") * 4);
    let want = 1u64 << a | 1 << (a + 2) | 1 << (b + 1);
    assert_eq!(draw.varyings_read(), want, "{:?}", draw.steps);
    // The other arrays may hold anything.
    let mut values = Values(0x5eed);
    let batch = values.batch(64, 2);
    assert_same(&shader, &[], &[], &batch);
    let run = |varyings: &[LaneArray]| {
        let lanes = FragmentLanes {
            len: 64,
            frag_coord: &batch.frag_coord,
            front_facing: batch.front_facing,
            varyings,
            samplers: &crate::exec::NoSamplers,
        };
        let mut color = [[0.0; MAX_LANES]; 4];
        draw.run(&mut draw.registers(), &lanes, &mut color);
        color.map(|c| c.map(bits))
    };
    let mut garbage = batch.varyings.clone();
    for (k, v) in garbage.iter_mut().enumerate() {
        if want & (1 << k) == 0 {
            *v = [f32::NAN; MAX_LANES];
        }
    }
    assert_eq!(run(&batch.varyings), run(&garbage));
}

/// The denormal policy (docs/conformance.md, "Denormals"): results below the smallest
/// normal float are kept as IEEE subnormals, never flushed to zero, and both
/// interpreters give the same bits. piglit's `fs-underflow-mul-compare-zero` multiplies
/// (2^-61 + ε)(2^-28 + ε)ε with ε = 2^-61: the exact product is just above 2^-150, so it
/// rounds to the smallest subnormal 2^-149 (llvmpipe flushes it to 0).
#[test]
fn subnormal_results_are_kept_in_both_interpreters() {
    let source = "#version 330 core\nin vec2 vUV;\nout vec4 c;\n\
                  const float e = 0.000000000000000000433681;\n\
                  void main() { c = vec4((abs(vUV.x) + e) * (abs(vUV.y) + e) * e,\n\
                  vUV.x * vUV.y, vUV.x - vUV.y, vUV.x / 4.0); }\n";
    let shader = compile(source, "under.frag", Stage::Fragment, &Limits::SEED).expect("compiles");
    let lanes = || -> LaneArray { std::array::from_fn(|_| 0.0) };
    let mut varyings = vec![lanes(), lanes(), lanes(), lanes()];
    let tiny = f32::from_bits(1); // 2^-149
    let pairs = [
        (0.000_000_000_000_000_000_433_681, 0.000_000_003_725_290_3),
        (f32::MIN_POSITIVE, 0.5),
        (tiny * 3.0, tiny),
        (f32::MIN_POSITIVE, f32::MIN_POSITIVE),
    ];
    for (lane, &(x, y)) in pairs.iter().enumerate() {
        varyings[0][lane] = x;
        varyings[1][lane] = y;
    }
    let batch = Batch {
        len: pairs.len(),
        frag_coord: [lanes(), lanes(), lanes(), lanes()],
        front_facing: true,
        varyings,
    };
    assert_same(&shader, &[], &[], &batch);
    let samplers = TestSamplers::new();
    let mut machine = Machine::new(&shader).unwrap();
    let mut color = |lane: usize| {
        let varyings = batch.lane_varyings(lane);
        let inputs = Inputs {
            varyings: &varyings,
            samplers: &samplers,
            ..Inputs::default()
        };
        let mut out = Outputs::default();
        machine.run(&inputs, &mut out).unwrap();
        out.color.map(bits)
    };
    // The piglit product, MIN_POSITIVE × 0.5, 3·2^-149 − 2^-149 and MIN_POSITIVE / 4
    // are all subnormal, not zero.
    assert_eq!(color(0)[0], 1);
    assert_eq!(color(1)[1], bits(f32::MIN_POSITIVE) / 2);
    assert_eq!(color(2)[2], 2);
    assert_eq!(color(3)[3], bits(f32::MIN_POSITIVE) / 4);
}

#[test]
fn texture_offsets_match_the_scalar_interpreter() {
    // The corpus shader: every SAMPLE_OFFSET form, on slot 0 (a texture) and slot 1
    // (coordinates moved by the offset), under divergent control flow.
    let source = include_str!("../../../tests/corpus/texture_offset.frag");
    let shader = compile(
        source,
        "texture_offset.frag",
        Stage::Fragment,
        &Limits::EXTENDED,
    )
    .expect("compiles");
    assert!(
        shader
            .ir
            .iter()
            .filter(|i| matches!(
                i.opcode(),
                Some(Op::SampleOffset | Op::SampleLod | Op::SampleBias)
            ))
            .count()
            >= 8
    );
    let mut values = Values(0x7e_0ff5);
    for len in [64, 1, 9, 33] {
        let batch = values.batch(len, 1);
        assert_same(&shader, &[], &[], &batch);
    }
}

/// MIN and MAX follow the shader's profile in both interpreters, fused or not
/// (`clamp` is a [`step::Step::Clamp`], `max(dot(...), k)` a [`step::Step::DotMax`]): the
/// seed's `a < b ? a : b` / `a > b ? a : b` (a NaN operand gives `b`), the extended
/// profile's IEEE minNum/maxNum (a NaN operand gives the other). Every pair of edge
/// values (NaN, ±0, ±inf) is one lane.
#[test]
fn min_and_max_follow_the_profile_in_both_interpreters() {
    use crate::exec::math::{max, max_num, min, min_num};
    let source = "#version 330 core
in vec4 vA;
in vec4 vB;
uniform vec4 uK;
out vec4 c;
void main() {
    c = vec4(min(vA.x, vB.x), max(vA.x, vB.x), clamp(vA.x, vB.x, uK.y),
             max(dot(vA.yz, vB.yz), uK.x));
}
";
    let edges = [
        f32::NAN,
        -0.0,
        0.0,
        1.5,
        -2.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::from_bits(0x7fc0_1234),
    ];
    let lanes = || -> LaneArray { std::array::from_fn(|_| 0.0) };
    let mut varyings = vec![lanes(); 8];
    for lane in 0..MAX_LANES {
        let (a, b) = (edges[lane % 8], edges[lane / 8 % 8]);
        // vA = (a, a, 1, _), vB = (b, b, 0, _): dot(vA.yz, vB.yz) = a·b + 1·0.
        for (c, v) in [a, a, 1.0, 0.0, b, b, 0.0, 0.0].into_iter().enumerate() {
            varyings[c][lane] = v;
        }
    }
    let batch = Batch {
        len: MAX_LANES,
        frag_coord: [lanes(), lanes(), lanes(), lanes()],
        front_facing: true,
        varyings,
    };
    for (limits, lo, hi) in [
        (
            Limits::SEED,
            min as fn(f32, f32) -> f32,
            max as fn(f32, f32) -> f32,
        ),
        (Limits::EXTENDED, min_num, max_num),
    ] {
        let shader = compile(source, "minmax.frag", Stage::Fragment, &limits).expect("compiles");
        for k in [[f32::NAN, 0.5, 0.0, 0.0], [0.0, f32::NAN, 0.0, 0.0]] {
            let uniforms = [k];
            let draw = Plan::new(&shader).unwrap().bind(&uniforms, &[]);
            let has = |f: fn(&step::Step) -> bool| draw.steps.iter().any(f);
            assert!(
                has(|s| matches!(s, step::Step::Clamp { .. })),
                "{:?}",
                draw.steps
            );
            assert!(
                has(|s| matches!(s, step::Step::DotMax { .. })),
                "{:?}",
                draw.steps
            );
            assert_same(&shader, &uniforms, &[], &batch);
            // And the scalar interpreter (which assert_same holds the batch to) gives
            // the rule's values.
            let mut machine = Machine::new(&shader).expect("verified");
            for lane in 0..MAX_LANES {
                let (a, b) = (edges[lane % 8], edges[lane / 8 % 8]);
                let mut out = Outputs::default();
                let varyings = batch.lane_varyings(lane);
                let inputs = Inputs {
                    uniforms: &uniforms,
                    varyings: &varyings,
                    ..Inputs::default()
                };
                machine.run(&inputs, &mut out).expect("runs");
                let want = [
                    lo(a, b),
                    hi(a, b),
                    lo(hi(a, b), k[1]),
                    hi(a * b + 0.0, k[0]),
                ];
                assert_eq!(
                    out.color.map(bits),
                    want.map(bits),
                    "{:?}: a = {a}, b = {b}, k = {k:?}",
                    limits.profile
                );
            }
        }
    }
}

/// The second source colour of dual-source blending (`layout(location = 0, index =
/// 1)`, STORE_COLOR `aux` 8): `run_dual` gives every lane the bits the scalar
/// interpreter's `Outputs::color1` holds, through a per-pixel branch and a discard,
/// at every chunk width (the batch is 37 lanes); a shader without one gives zeros.
#[test]
fn second_source_colour_matches_the_scalar_interpreter() {
    let source = "#version 330\nin vec4 vA;\n\
                  layout(location = 0) out vec4 c;\n\
                  layout(location = 0, index = 1) out vec4 f;\n\
                  void main() {\n\
                      c = vA * 0.5;\n\
                      if (vA.x > 0.5) { f = vec4(vA.yzw, 1.0) * 2.0; } else { f = vA.wzyx; }\n\
                      if (vA.y < 0.1) discard;\n\
                  }\n";
    let shader = compile(source, "dual.frag", Stage::Fragment, &Limits::EXTENDED).unwrap();
    let second = shader
        .interface
        .second_color_output()
        .map(|s| s.name.as_str());
    assert_eq!(second, Some("f"));
    let mut values = Values(0x5eed_0001);
    let len = 37;
    let mut varyings = vec![[0.0f32; MAX_LANES]; 4];
    for lane in 0..MAX_LANES {
        for v in varyings.iter_mut() {
            v[lane] = (values.next() % 1000) as f32 / 1000.0;
        }
    }
    let samplers = TestSamplers::new();
    let mut machine = Machine::new(&shader).unwrap();
    let draw = Plan::new(&shader).unwrap().bind(&[], &[]);
    assert!(draw.has_second_color());
    let lanes = FragmentLanes {
        len,
        frag_coord: &[[0.0; MAX_LANES]; 4],
        front_facing: true,
        varyings: &varyings,
        samplers: &samplers,
    };
    let mut regs = draw.registers();
    let mut color = [[0.0; MAX_LANES]; 4];
    let mut color1 = [[f32::NAN; MAX_LANES]; 4];
    let discarded = draw.run_dual(&mut regs, &lanes, &mut color, &mut color1);
    let mut seen_discard = false;
    for lane in 0..len {
        let slot: [f32; 4] = std::array::from_fn(|c| varyings[c][lane]);
        let inputs = Inputs {
            varyings: &[slot],
            samplers: &samplers,
            ..Inputs::default()
        };
        let mut out = Outputs::default();
        machine.run(&inputs, &mut out).unwrap();
        let got =
            |a: &[LaneArray; 4]| -> [u32; 4] { std::array::from_fn(|c| a[c][lane].to_bits()) };
        assert_eq!(got(&color), out.color.map(f32::to_bits), "lane {lane}");
        assert_eq!(got(&color1), out.color1.map(f32::to_bits), "lane {lane}");
        assert_eq!(discarded >> lane & 1 != 0, out.discarded, "lane {lane}");
        seen_discard |= out.discarded;
        // The value itself, computed here: f = (y, z, w, 1)·2 or (w, z, y, x).
        let want = if slot[0] > 0.5 {
            [slot[1] * 2.0, slot[2] * 2.0, slot[3] * 2.0, 2.0]
        } else {
            [slot[3], slot[2], slot[1], slot[0]]
        };
        assert_eq!(out.color1, want, "lane {lane}");
    }
    assert!(seen_discard, "the values exercise the discard");
    // A shader with one output: no second colour, zeros from run_dual.
    let plain = compile(
        "#version 330\nin vec4 vA;\nout vec4 c;\nvoid main() { c = vA; }\n",
        "plain.frag",
        Stage::Fragment,
        &Limits::EXTENDED,
    )
    .unwrap();
    let draw = Plan::new(&plain).unwrap().bind(&[], &[]);
    assert!(!draw.has_second_color());
    let mut regs = draw.registers();
    draw.run_dual(&mut regs, &lanes, &mut color, &mut color1);
    assert!(color1.iter().all(|a| a.iter().all(|&v| v == 0.0)));
}
