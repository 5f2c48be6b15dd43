//! Every temp-to-temp opcode, with edge values (docs/csir-original.md A1/A2, B §4).

use super::*;
use crate::ir::CmpCode;

const NAN: f32 = f32::NAN;
const INF: f32 = f32::INFINITY;

/// Build a fragment shader with `body`, run it with no inputs, return the temps.
fn eval(body: impl FnOnce(&mut Build)) -> Vec<[f32; 4]> {
    let mut b = Build::new(Stage::Fragment);
    body(&mut b);
    run(&b.finish(), &Inputs::default()).1
}

#[test]
fn const_zeroes_unused_lanes() {
    let mut t = 0;
    let temps = eval(|b| {
        t = b.konst(&[1.0, 2.0, 3.0, 4.0]);
        b.konst_into(t, &[7.0, 8.0]);
    });
    assert_bits(temps[t as usize], [7.0, 8.0, 0.0, 0.0]);
}

#[test]
fn mov_copies_ncomp_lanes_and_zero_means_four() {
    let (mut two, mut all) = (0, 0);
    let temps = eval(|b| {
        let src = b.konst(&[1.0, 2.0, 3.0, 4.0]);
        two = b.konst(&[9.0, 9.0, 9.0, 9.0]);
        b.emit(Ir::new(Op::Mov, Type::Vec2).dst(two).a(src).ncomp(2));
        all = b.op(Op::Mov, src, None, 0);
    });
    assert_bits(temps[two as usize], [1.0, 2.0, 9.0, 9.0]);
    assert_bits(temps[all as usize], [1.0, 2.0, 3.0, 4.0]);
}

/// Selector word for SWZ: lane i takes source lane `lanes[i]`.
fn selectors(lanes: &[i16]) -> i16 {
    lanes.iter().enumerate().map(|(i, &l)| l << (2 * i)).sum()
}

#[test]
fn swz_snapshots_its_source_and_zeroes_other_lanes() {
    let (mut alias, mut narrow, mut default) = (0, 0, 0);
    let temps = eval(|b| {
        alias = b.konst(&[1.0, 2.0, 3.0, 4.0]);
        // In place: .wzyx must read the original lanes, not the ones just written.
        b.emit(
            Ir::new(Op::Swz, Type::Vec4)
                .dst(alias)
                .a(alias)
                .aux(selectors(&[3, 2, 1, 0]))
                .ncomp(4),
        );
        let src = b.konst(&[5.0, 6.0, 7.0, 8.0]);
        narrow = b.konst(&[9.0; 4]);
        b.emit(
            Ir::new(Op::Swz, Type::Vec2)
                .dst(narrow)
                .a(src)
                .aux(selectors(&[2, 2]))
                .ncomp(2),
        );
        default = b.temp();
        b.emit(Ir::new(Op::Swz, Type::Float).dst(default).a(src).aux(3));
    });
    assert_bits(temps[alias as usize], [4.0, 3.0, 2.0, 1.0]);
    assert_bits(temps[narrow as usize], [7.0, 7.0, 0.0, 0.0]);
    // ncomp 0 means one lane (the original's default for SWZ).
    assert_bits(temps[default as usize], [8.0, 0.0, 0.0, 0.0]);
}

#[test]
fn setlane_writes_one_lane_and_keeps_the_others() {
    let (mut t, mut own) = (0, 0);
    let temps = eval(|b| {
        let src = b.konst(&[5.0, 6.0, 7.0, 8.0]);
        t = b.konst(&[1.0, 2.0, 3.0, 4.0]);
        b.emit(
            Ir::new(Op::SetLane, Type::Vec4)
                .dst(t)
                .a(src)
                .aux(2)
                .aux2(3),
        );
        own = b.konst(&[1.0, 2.0, 3.0, 4.0]);
        b.emit(
            Ir::new(Op::SetLane, Type::Vec4)
                .dst(own)
                .a(own)
                .aux(0)
                .aux2(1),
        );
    });
    assert_bits(temps[t as usize], [1.0, 2.0, 8.0, 4.0]);
    assert_bits(temps[own as usize], [2.0, 2.0, 3.0, 4.0]);
}

#[test]
fn arithmetic_on_ncomp_lanes() {
    let mut r = [0i16; 6];
    let temps = eval(|b| {
        let x = b.konst(&[1.0, -2.0, 3.0, 4.0]);
        let y = b.konst(&[0.5, 4.0, -3.0, 100.0]);
        for (slot, op) in [Op::Add, Op::Sub, Op::Mul, Op::Min, Op::Max]
            .into_iter()
            .enumerate()
        {
            r[slot] = b.konst(&[-1.0; 4]);
            b.emit(Ir::new(op, Type::Vec3).dst(r[slot]).a(x).b(y).ncomp(3));
        }
        r[5] = b.op(Op::Add, x, Some(y), 0);
    });
    assert_bits(temps[r[0] as usize], [1.5, 2.0, 0.0, -1.0]);
    assert_bits(temps[r[1] as usize], [0.5, -6.0, 6.0, -1.0]);
    assert_bits(temps[r[2] as usize], [0.5, -8.0, -9.0, -1.0]);
    assert_bits(temps[r[3] as usize], [0.5, -2.0, -3.0, -1.0]);
    assert_bits(temps[r[4] as usize], [1.0, 4.0, 3.0, -1.0]);
    assert_bits(temps[r[5] as usize], [1.5, 2.0, 0.0, 104.0]);
}

#[test]
fn min_and_max_follow_the_select_rule_with_nan() {
    let (mut mn, mut mx) = (0, 0);
    let temps = eval(|b| {
        let x = b.konst(&[NAN, 1.0, 0.0, -0.0]);
        let y = b.konst(&[1.0, NAN, -0.0, 0.0]);
        mn = b.op(Op::Min, x, Some(y), 4);
        mx = b.op(Op::Max, x, Some(y), 4);
    });
    // a < b ? a : b and a > b ? a : b: a NaN comparison picks b; ±0 compare equal.
    assert_bits(temps[mn as usize], [1.0, NAN, -0.0, 0.0]);
    assert_bits(temps[mx as usize], [1.0, NAN, -0.0, 0.0]);
}

#[test]
fn abs_clears_the_sign() {
    let mut r = 0;
    let temps = eval(|b| {
        let x = b.konst(&[-3.0, -0.0, -INF, 2.0]);
        r = b.op(Op::Abs, x, None, 0);
    });
    assert_bits(temps[r as usize], [3.0, 0.0, INF, 2.0]);
}

#[test]
fn dot_writes_lane_x_only() {
    let (mut d3, mut d4, mut d2) = (0, 0, 0);
    let temps = eval(|b| {
        let x = b.konst(&[1.0, 2.0, 3.0, 4.0]);
        let y = b.konst(&[5.0, 6.0, 7.0, 8.0]);
        d3 = b.konst(&[-1.0; 4]);
        b.emit(
            Ir::new(Op::Dot, Type::Float)
                .dst(d3)
                .a(x)
                .b(y)
                .aux(3)
                .ncomp(1),
        );
        d4 = b.konst(&[-1.0; 4]);
        b.emit(
            Ir::new(Op::Dot, Type::Float)
                .dst(d4)
                .a(x)
                .b(y)
                .aux(4)
                .ncomp(1),
        );
        d2 = b.temp();
        b.emit(
            Ir::new(Op::Dot, Type::Float)
                .dst(d2)
                .a(x)
                .b(y)
                .aux(2)
                .ncomp(1),
        );
    });
    assert_bits(temps[d3 as usize], [38.0, -1.0, -1.0, -1.0]);
    assert_bits(temps[d4 as usize], [70.0, -1.0, -1.0, -1.0]);
    assert_bits(temps[d2 as usize], [17.0, 0.0, 0.0, 0.0]);
}

#[test]
fn rsq_is_exact_and_zero_outside_its_domain() {
    let inputs = [4.0, 2.0, 0.0, -0.0, -1.0, NAN, INF, -INF];
    let want = [0.5, 1.0 / 2.0f32.sqrt(), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    for (x, want) in inputs.into_iter().zip(want) {
        let mut r = 0;
        let temps = eval(|b| {
            let t = b.konst(&[x, 5.0, 5.0, 5.0]);
            r = b.konst(&[9.0; 4]);
            b.emit(Ir::new(Op::Rsq, Type::Float).dst(r).a(t).ncomp(1));
        });
        assert_bits(temps[r as usize], [want, 9.0, 9.0, 9.0]);
    }
    // The original's approximation gave rsq(2) = 0.71578 and rsq(16) = 0.25307.
    let mut r = 0;
    let temps = eval(|b| {
        let t = b.konst(&[16.0]);
        r = b.op(Op::Rsq, t, None, 1);
    });
    assert_eq!(temps[r as usize][0], 0.25);
}

#[test]
fn rcp_per_lane_with_zero_giving_zero() {
    let (mut all, mut one, mut odd) = (0, 0, 0);
    let temps = eval(|b| {
        let x = b.konst(&[2.0, 0.0, -4.0, -0.0]);
        all = b.op(Op::Rcp, x, None, 4);
        one = b.konst(&[9.0; 4]);
        b.emit(Ir::new(Op::Rcp, Type::Float).dst(one).a(x));
        let t = b.konst(&[INF, NAN, 3.0, 1e-45]);
        odd = b.op(Op::Rcp, t, None, 4);
    });
    assert_bits(temps[all as usize], [0.5, 0.0, -0.25, 0.0]);
    // ncomp 0 means one lane.
    assert_bits(temps[one as usize], [0.5, 9.0, 9.0, 9.0]);
    assert_bits(temps[odd as usize], [0.0, NAN, 1.0 / 3.0, INF]);
}

#[test]
fn sin_and_cos_are_accurate_per_lane() {
    let (mut s, mut c, mut one) = (0, 0, 0);
    let temps = eval(|b| {
        let x = b.konst(&[1.0, 3.0, 1000.0, -0.0]);
        s = b.op(Op::Sin, x, None, 4);
        c = b.op(Op::Cos, x, None, 4);
        one = b.konst(&[9.0; 4]);
        b.emit(Ir::new(Op::Sin, Type::Float).dst(one).a(x));
    });
    let close = |got: [f32; 4], want: [f64; 4]| {
        for (g, w) in got.iter().zip(want) {
            assert!((*g as f64 - w).abs() <= 1e-7, "{g} vs {w}");
        }
    };
    close(
        temps[s as usize],
        [1f64.sin(), 3f64.sin(), 1000f64.sin(), 0.0],
    );
    close(
        temps[c as usize],
        [1f64.cos(), 3f64.cos(), 1000f64.cos(), 1.0],
    );
    assert_eq!(temps[s as usize][3].to_bits(), (-0.0f32).to_bits());
    assert_eq!(temps[one as usize][1..], [9.0; 3]);
}

#[test]
fn pow_follows_c_powf_in_lane_x() {
    let cases = [
        (2.0, 10.0, 1024.0),
        (0.0, 0.0, 1.0),
        (NAN, 0.0, 1.0),
        (1.0, NAN, 1.0),
        (-2.0, 3.0, -8.0),
        (-2.0, 2.0, 4.0),
        (-2.0, 0.5, NAN),
        (0.0, -1.0, INF),
        (0.0, 2.0, 0.0),
        (2.0, 16.0, 65536.0),
        (9.0, 0.5, 3.0),
    ];
    for (x, y, want) in cases {
        let mut r = 0;
        let temps = eval(|b| {
            let tx = b.konst(&[x, 1.0, 1.0, 1.0]);
            let ty = b.konst(&[y, 1.0, 1.0, 1.0]);
            r = b.konst(&[7.0; 4]);
            b.emit(Ir::new(Op::Pow, Type::Float).dst(r).a(tx).b(ty).ncomp(1));
        });
        assert_bits(temps[r as usize], [want, 7.0, 7.0, 7.0]);
    }
}

#[test]
fn trunc_rounds_toward_zero_in_lane_x() {
    for (x, want) in [
        (-2.7, -2.0),
        (2.7, 2.0),
        (-0.5, -0.0),
        (3e9, 3e9),
        (INF, INF),
    ] {
        let mut r = 0;
        let temps = eval(|b| {
            let t = b.konst(&[x, 1.5]);
            r = b.konst(&[7.0; 4]);
            b.emit(Ir::new(Op::Trunc, Type::Int).dst(r).a(t).ncomp(1));
        });
        assert_bits(temps[r as usize], [want, 7.0, 7.0, 7.0]);
    }
}

#[test]
fn cmp_gives_one_or_zero_with_ieee_nan_rules() {
    let codes = [
        CmpCode::Lt,
        CmpCode::Gt,
        CmpCode::Le,
        CmpCode::Ge,
        CmpCode::Eq,
        CmpCode::Ne,
    ];
    // (a, b, [lt, gt, le, ge, eq, ne])
    let cases = [
        (1.0, 2.0, [1.0, 0.0, 1.0, 0.0, 0.0, 1.0]),
        (2.0, 2.0, [0.0, 0.0, 1.0, 1.0, 1.0, 0.0]),
        (0.0, -0.0, [0.0, 0.0, 1.0, 1.0, 1.0, 0.0]),
        (NAN, 2.0, [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]),
        (NAN, NAN, [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]),
    ];
    for (a, b_val, want) in cases {
        let mut r = [0i16; 6];
        let temps = eval(|b| {
            let ta = b.konst(&[a, 5.0, 5.0, 5.0]);
            let tb = b.konst(&[b_val, 6.0, 6.0, 6.0]);
            for (k, code) in codes.iter().enumerate() {
                r[k] = b.konst(&[3.0; 4]);
                b.emit(
                    Ir::new(Op::Cmp, Type::Bool)
                        .dst(r[k])
                        .a(ta)
                        .b(tb)
                        .aux(code.code())
                        .ncomp(1),
                );
            }
        });
        for k in 0..6 {
            assert_bits(temps[r[k] as usize], [want[k], 3.0, 3.0, 3.0]);
        }
    }
}

#[test]
fn unwritten_temporaries_read_zero() {
    let mut r = 0;
    let temps = eval(|b| {
        let fresh = b.temp();
        let one = b.konst(&[1.0, 1.0, 1.0, 1.0]);
        r = b.op(Op::Add, fresh, Some(one), 4);
    });
    assert_bits(temps[r as usize], [1.0; 4]);
}
