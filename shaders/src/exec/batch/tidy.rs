//! Cleanup of a bound draw's steps, driven by liveness: every step costs a pass over
//! all lanes' registers, so copies and scalar broadcasts that CSIR needs as separate
//! instructions are folded away.
//!
//! Liveness is per register component, computed backwards over the step list. A write
//! inside a per-pixel IF is not a kill (lanes outside the branch keep the old value),
//! and the steps of both branches are treated as one straight line, which only adds
//! uses: the result over-approximates what is live, so every rewrite below is sound.
//! The colour output is live at the end and at every DISCARD (a discarded fragment
//! keeps the colour stored before it).
//!
//! Rewrites, repeated until none applies:
//! - a step that repeats an earlier identical step, with nothing in between writing
//!   what it reads or writes (and no branch boundary), is dropped;
//! - a step whose every written component is dead is dropped; a LOAD_VAR loads only
//!   its live components;
//! - `X → t; MOV u ← t` (X writing exactly the components the MOV copies, `t` dead
//!   afterwards) becomes `X → u`: every step reads its sources before writing, so `u`
//!   may also be a source of X;
//! - `SWZ t ← s.kkkk; MUL d ← t·y` (or `x·t`), `t` dead afterwards, becomes one
//!   [`Step::MulSb`] (or [`Step::MulSa`]) reading `s.k` directly: the same
//!   multiplications in the same operand order;
//! - `MUL t ← x·y` (or `MULSB`); `ADD u ← t + z` (or `z + t`), `t` dead afterwards,
//!   becomes one [`Step::MulAdd`];
//! - `ADD t ← x + y; MUL u ← t·z` (or `z·t`), `t` dead afterwards, becomes one
//!   [`Step::AddMul`];
//! - `MAX t ← x, lo; MIN u ← t, hi`, `t` dead afterwards, becomes one [`Step::Clamp`];
//! - `DOT t ← x·y; MAX u ← t, m`, `t` dead afterwards, becomes one [`Step::DotMax`];
//! - when nothing else applies, a four-component `MOV u ← t` whose `t` was built by
//!   the straight-line steps just before it (which do not touch `u`) and is dead
//!   afterwards goes, those steps writing `u` directly;
//! - `DOT t ← v·v; RSQ r ← t; MULSB d ← v·r.x` (`normalize(v)`), `t` and `r` dead
//!   afterwards and neither being `v`, becomes one [`Step::Normalize`].
//!
//! The fused steps do the same operations in the same order on the same values, so
//! the bits do not change; they save the stores and reloads of the intermediate
//! registers and a dispatch each (measured in `benches/HISTORY.md`).

use super::plan::{Comps, XYZW};
use super::step::{Access, CONSTANT, Reg, Step};
use crate::ir::first_lanes;

/// Tidy `steps` in place; the `outputs` registers from `color` on are the outputs
/// (live at the end).
pub(super) fn tidy(steps: &mut Vec<Step>, color: Reg, outputs: Reg) {
    loop {
        if repeated(steps) {
            continue;
        }
        let after = liveness(steps, color, outputs);
        let dead_at = |i: usize, r: Reg, comps: Comps| {
            r & CONSTANT == 0 && after[i].get(r as usize).is_none_or(|&l| l & comps == 0)
        };
        let mut drop = vec![false; steps.len()];
        let mut changed = false;
        let mut i = 0;
        while i < steps.len() {
            if let Some(w) = steps[i].writes()
                && w.registers().all(|r| dead_at(i, r, w.comps))
            {
                drop[i] = true;
                changed = true;
            } else if let Step::LoadVar { d, comps, .. } = &mut steps[i]
                && let live = *comps & after[i].get(*d as usize).copied().unwrap_or(0)
                && live != *comps
            {
                // Load only the components read later (never none: dropped above).
                *comps = live;
                changed = true;
            } else if i + 2 < steps.len() && normalize(steps, i, |r, c| dead_at(i + 2, r, c)) {
                drop[i + 1] = true;
                drop[i + 2] = true;
                changed = true;
                i += 2;
            } else if i + 1 < steps.len() && fuse(steps, i, |r, c| dead_at(i + 1, r, c)) {
                drop[i + 1] = true;
                changed = true;
                i += 1;
            }
            i += 1;
        }
        if !changed {
            if let Some(mov) = (0..steps.len()).find_map(|i| coalesce(steps, i, &after)) {
                let mut drop = vec![false; steps.len()];
                drop[mov] = true;
                remove(steps, &drop);
                continue;
            }
            return;
        }
        remove(steps, &drop);
    }
}

/// `MOV u ← t` (all four components) at step `i`, where `t` is dead after it: if `t`'s
/// values were all computed by the straight-line steps `k..i` (t dead before `k`, no
/// branch boundary, no matrix span) and those steps neither read nor write `u`, they
/// write `u` instead and the MOV goes (the colour output built in a temporary, then
/// stored). `after[j]` is the liveness after step `j`. Returns the MOV's index.
fn coalesce(steps: &mut [Step], i: usize, after: &[Vec<Comps>]) -> Option<usize> {
    let Step::Mov { d: u, a: t, n: 4 } = steps[i] else {
        return None;
    };
    let live = |j: usize, r: Reg| after[j].get(r as usize).copied().unwrap_or(0);
    if t == u || (t | u) & CONSTANT != 0 || live(i, t) != 0 {
        return None;
    }
    let reg_u = Access {
        first: u,
        count: 1,
        comps: XYZW,
    };
    let mut k = i;
    loop {
        if k == 0 {
            return None; // t read before anything wrote it: keep the MOV
        }
        k -= 1;
        let step = steps[k];
        let w = step.writes()?; // control flow
        if matches!(step, Step::MulMv { .. } | Step::MulMm { .. }) || overlaps(w, reg_u) {
            return None;
        }
        let mut reads_u = false;
        step.reads(|r| reads_u |= overlaps(r, reg_u));
        if reads_u {
            return None;
        }
        if k == 0 || live(k - 1, t) == 0 {
            break;
        }
    }
    for step in &mut steps[k..i] {
        step.rename(|r| if r == t { u } else { r });
    }
    Some(i)
}

/// Drop every step that repeats an earlier identical step when nothing between the
/// two (no other step, no branch boundary) wrote what the step reads or writes, and
/// the step does not read what it writes: its destination already holds the value
/// (the unrolled light loop's `vec3(p, 0.0)`). Returns whether any was dropped.
fn repeated(steps: &mut Vec<Step>) -> bool {
    let mut drop = vec![false; steps.len()];
    let mut any = false;
    for i in 0..steps.len() {
        let step = steps[i];
        let Some(w) = step.writes() else { continue };
        if matches!(step, Step::Sample { .. }) {
            continue; // one sampler call per lane and SAMPLE, as the scalar interpreter
        }
        let mut reads_own_write = false;
        step.reads(|r| reads_own_write |= overlaps(r, w));
        if reads_own_write {
            continue;
        }
        for j in (0..i).rev() {
            if drop[j] {
                continue;
            }
            let earlier = steps[j];
            if earlier == step {
                drop[i] = true;
                any = true;
                break;
            }
            let Some(ew) = earlier.writes() else {
                break; // IF, ELSE, ENDIF, DISCARD: the lane mask may differ
            };
            let mut clash = overlaps(ew, w);
            step.reads(|r| clash |= overlaps(r, ew));
            if clash {
                break;
            }
        }
    }
    if any {
        remove(steps, &drop);
    }
    any
}

/// Whether two accesses share a component of a register.
fn overlaps(x: Access, y: Access) -> bool {
    x.comps & y.comps != 0
        && x.first < y.first + y.count as Reg
        && y.first < x.first + x.count as Reg
}

/// Try to merge step `i + 1` into step `i`; `dead_after(r, comps)` tells whether those
/// components of `r` are dead after step `i + 1`. The rules are tried in this order and
/// the first that applies wins; on success step `i` holds the merged step and step
/// `i + 1` is to be dropped.
fn fuse(steps: &mut [Step], i: usize, dead_after: impl Fn(Reg, Comps) -> bool) -> bool {
    let (x, next) = (steps[i], steps[i + 1]);
    let merged = retarget_copy(x, next, &dead_after)
        .or_else(|| broadcast_multiply(x, next, &dead_after))
        .or_else(|| multiply_add(x, next, &dead_after))
        .or_else(|| add_multiply(x, next, &dead_after))
        .or_else(|| clamp(x, next, &dead_after))
        .or_else(|| dot_max(x, next, &dead_after));
    match merged {
        Some(step) => {
            steps[i] = step;
            true
        }
        None => false,
    }
}

/// `X → t; MOV u ← t` becomes `X → u`, when X writes exactly the components the MOV
/// copies (one register, the first `n`) and `t` is dead after the MOV.
///
/// Exact: the MOV copies bits unchanged, so X writing `u` directly leaves `u` with the
/// same bits, and nothing reads `t` afterwards. `u` may also be a source of X, because
/// every step reads all its sources before it writes.
fn retarget_copy(x: Step, next: Step, dead_after: &impl Fn(Reg, Comps) -> bool) -> Option<Step> {
    let Step::Mov { d: u, a: t, n } = next else {
        return None;
    };
    let copied = first_lanes(n);
    let writes_t = x
        .writes()
        .is_some_and(|w| w.first == t && w.count == 1 && w.comps == copied);
    if t == u || t & CONSTANT != 0 || !writes_t || !dead_after(t, copied) {
        return None;
    }
    let mut merged = x;
    merged.set_destination(u).then_some(merged)
}

/// `SWZ t ← s.kkkk; MUL d ← t·y` (or `x·t`) becomes [`Step::MulSa`] (or
/// [`Step::MulSb`]) reading `s.k` directly, when the SWZ broadcasts one component over
/// at least the MUL's width, `t` is exactly one MUL operand and `t` is dead after the
/// MUL.
///
/// Exact: the broadcast only copies `s.k`, so the fused step multiplies the same
/// values in the same operand order.
fn broadcast_multiply(
    x: Step,
    next: Step,
    dead_after: &impl Fn(Reg, Comps) -> bool,
) -> Option<Step> {
    let Step::Swz {
        d: t,
        a: s,
        sel,
        n: width,
    } = x
    else {
        return None;
    };
    let Step::Mul { d, a, b, n } = next else {
        return None;
    };
    let broadcast = sel[..width as usize].iter().all(|&k| k == sel[0]);
    if t == s || !broadcast || n > width || (a == t) == (b == t) || !dead_after(t, XYZW) {
        return None;
    }
    Some(if a == t {
        Step::MulSa {
            d,
            a: s,
            sa: sel[0],
            b,
            n,
        }
    } else {
        Step::MulSb {
            d,
            a,
            b: s,
            sb: sel[0],
            n,
        }
    })
}

/// `MUL t ← x·y` (or [`Step::MulSb`]); `ADD u ← t + z` (or `z + t`) becomes one
/// [`Step::MulAdd`], when `t` is exactly one ADD operand, the ADD is no wider than the
/// product and `t` is dead after the ADD.
///
/// Exact: the fused step rounds the product to f32 before adding (no fused
/// multiply-add) and keeps the ADD's operand order (`rev`), so the bits are those of
/// the two steps.
fn multiply_add(x: Step, next: Step, dead_after: &impl Fn(Reg, Comps) -> bool) -> Option<Step> {
    let (t, a, b, sb, width) = match x {
        Step::Mul { d, a, b, n } => (d, a, b, 4, n),
        Step::MulSb { d, a, b, sb, n } => (d, a, b, sb, n),
        _ => return None,
    };
    let Step::Add {
        d: u,
        a: p,
        b: q,
        n,
    } = next
    else {
        return None;
    };
    let (e, rev) = other_operand(t, [p, q], n, width, dead_after)?;
    Some(Step::MulAdd {
        d: u,
        a,
        b,
        sb,
        e,
        n,
        rev,
    })
}

/// `ADD t ← x + y; MUL u ← t·z` (or `z·t`) becomes one [`Step::AddMul`], when `t`
/// is exactly one MUL operand, the MUL is no wider than the sum and `t` is dead after
/// the MUL.
///
/// Exact: the fused step rounds the sum to f32 before multiplying and keeps the MUL's
/// operand order (`rev`, as [`Step::MulAdd`] keeps the ADD's), so the values are
/// those of the two steps (bit for bit; a NaN stays a NaN, the interpreters'
/// contract for NaN payloads). Each component reads its own operands before
/// writing its own result, as the two steps do component by component.
fn add_multiply(x: Step, next: Step, dead_after: &impl Fn(Reg, Comps) -> bool) -> Option<Step> {
    let Step::Add {
        d: t,
        a,
        b,
        n: width,
    } = x
    else {
        return None;
    };
    let Step::Mul {
        d: u,
        a: p,
        b: q,
        n,
    } = next
    else {
        return None;
    };
    let (m, rev) = other_operand(t, [p, q], n, width, dead_after)?;
    Some(Step::AddMul {
        d: u,
        a,
        b,
        m,
        n,
        rev,
    })
}

/// The condition both [`multiply_add`] and [`add_multiply`] fuse on: the second
/// step, `n` components wide with the operands `[p, q]`, reads the first step's
/// result `t` as exactly one operand, is no wider than the first step (`width`), and
/// `t` is dead after it. Gives the other operand and whether `t` is the second one
/// (the fused step's `rev`, which keeps the operand order).
fn other_operand(
    t: Reg,
    [p, q]: [Reg; 2],
    n: u8,
    width: u8,
    dead_after: &impl Fn(Reg, Comps) -> bool,
) -> Option<(Reg, bool)> {
    if n > width || (p == t) == (q == t) || !dead_after(t, XYZW) {
        return None;
    }
    Some(if p == t { (q, false) } else { (p, true) })
}

/// `MAX t ← x, lo; MIN u ← t, hi` (`clamp`) becomes one [`Step::Clamp`], when the MIN
/// reads `t` as its first operand only, is no wider than the MAX and `t` is dead after
/// the MIN.
///
/// Exact: the fused step applies MAX's and then MIN's own rules (NaN handling
/// included, the one rule of the shader's profile) to the same operands in the same
/// order.
fn clamp(x: Step, next: Step, dead_after: &impl Fn(Reg, Comps) -> bool) -> Option<Step> {
    let Step::Max {
        d: t,
        a,
        b: lo,
        n: width,
        rule,
    } = x
    else {
        return None;
    };
    let Step::Min {
        d: u,
        a: t2,
        b: hi,
        n,
        rule: min_rule,
    } = next
    else {
        return None;
    };
    if t2 != t || hi == t || n > width || min_rule != rule || !dead_after(t, XYZW) {
        return None;
    }
    Some(Step::Clamp {
        d: u,
        a,
        lo,
        hi,
        n,
        rule,
    })
}

/// `DOT t ← x·y; MAX u ← t, m` (`max(dot(n, l), 0.0)`) becomes one [`Step::DotMax`],
/// when the one-component MAX reads `t` as its first operand only and `t.x` is dead
/// after the MAX.
///
/// Exact: the fused step sums the same products in the same order as DOT, then applies
/// MAX's rule to the sum and `m.x`.
fn dot_max(x: Step, next: Step, dead_after: &impl Fn(Reg, Comps) -> bool) -> Option<Step> {
    let Step::Dot { d: t, a, b, w } = x else {
        return None;
    };
    let Step::Max {
        d: u,
        a: t2,
        b: m,
        n: 1,
        rule,
    } = next
    else {
        return None;
    };
    if t2 != t || m == t || !dead_after(t, 1) {
        return None;
    }
    Some(Step::DotMax {
        d: u,
        a,
        b,
        w,
        m,
        rule,
    })
}

/// Try to merge steps `i..i + 3` into one [`Step::Normalize`] at `i`;
/// `dead_after(r, comps)` tells whether those components of `r` are dead after step
/// `i + 2`.
fn normalize(steps: &mut [Step], i: usize, dead_after: impl Fn(Reg, Comps) -> bool) -> bool {
    if let Step::Dot { d: t, a: v, b, w } = steps[i]
        && b == v
        && let Step::Rsq { d: r, a: t2 } = steps[i + 1]
        && t2 == t
        && let Step::MulSb {
            d,
            a: v2,
            b: r2,
            sb: 0,
            n,
        } = steps[i + 2]
        && v2 == v
        && r2 == r
        && t != v
        && r != v
        && dead_after(t, 1)
        && dead_after(r, 1)
    {
        steps[i] = Step::Normalize { d, a: v, w, n };
        return true;
    }
    false
}

/// For every step, the live components of every register just after it.
fn liveness(steps: &[Step], color: Reg, outputs: Reg) -> Vec<Vec<Comps>> {
    let mut registers = (color + outputs) as usize;
    for step in steps {
        let mut see = |r: Reg| {
            if r & CONSTANT == 0 {
                registers = registers.max(r as usize + 1);
            }
        };
        step.reads(|a| a.registers().for_each(&mut see));
        if let Some(w) = step.writes() {
            w.registers().for_each(&mut see);
        }
    }
    let mut live = vec![0; registers];
    live[color as usize..(color + outputs) as usize].fill(XYZW);
    let mut after = vec![Vec::new(); steps.len()];
    let mut depth = 0usize;
    for (i, step) in steps.iter().enumerate().rev() {
        match step {
            Step::EndIf => depth += 1,
            Step::If { .. } => depth -= 1,
            _ => {}
        }
        after[i] = live.clone();
        if depth == 0
            && let Some(w) = step.writes()
        {
            w.registers().for_each(|r| live[r as usize] &= !w.comps);
        }
        step.reads(|a| {
            for r in a.registers().filter(|r| r & CONSTANT == 0) {
                live[r as usize] |= a.comps;
            }
        });
        if *step == Step::Discard {
            // A discarded fragment's colour is what was stored before the DISCARD.
            live[color as usize] = XYZW;
        }
    }
    after
}

/// Remove the steps marked in `drop` (never IF, ELSE or ENDIF), keeping jumps right.
fn remove(steps: &mut Vec<Step>, drop: &[bool]) {
    let mut new_index = Vec::with_capacity(steps.len() + 1);
    let mut kept = 0u32;
    for &d in drop {
        new_index.push(kept);
        kept += u32::from(!d);
    }
    new_index.push(kept);
    let mut k = 0;
    steps.retain(|_| {
        k += 1;
        !drop[k - 1]
    });
    for s in steps.iter_mut() {
        if let Step::If { next, .. } | Step::Else { next } = s {
            *next = new_index[*next as usize];
        }
    }
}
