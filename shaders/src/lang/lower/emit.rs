//! Bounded emission with temporary reuse.
//!
//! [`IrBuilder`] owns the pools; this wrapper adds what lowering needs on top:
//! - **Temporary reuse.** Expression intermediates live in the *frame* of the
//!   statement that computed them and return to a free set when that statement ends;
//!   variables keep *storage* temporaries until their scope ends. The IR is not SSA,
//!   so a freed temporary may be written again later (docs/csir.md "Not SSA"); without
//!   reuse an unrolled loop such as `procedural.frag`'s would need far more than 96.
//! - **Pools counted past their limits.** The builder's own capacity is the `i16`
//!   range; the seed's pools are checked here, so that a shader that does not fit
//!   is still lowered to the end and the error says how much it needs ("shader needs
//!   412 instructions, the limit is 384"), at the construct that crossed the limit.
//! - **Dry mode.** While checking code that is never executed (uncalled functions,
//!   statements after a `return`, the untaken side of a constant `if`), nothing is
//!   emitted and every temporary is the placeholder 0; the checks still run.

use super::super::token::Pos;
use super::super::types::Type;
use crate::ir::{Ir, IrBuilder, Limits, Op, PoolError};

/// The builder's capacity for each pool while counting: every index still fits the
/// `i16` fields of a record.
const COUNTING: usize = i16::MAX as usize;

/// The pools, in the order of [`Emitter::overflows`].
const POOLS: [&str; 3] = [
    "instructions",
    "constants (immediate floats)",
    "temporaries",
];
use std::collections::BTreeSet;

/// Builder, free temporaries, statement frames and the dry-mode depth.
#[derive(Clone, Debug)]
pub(crate) struct Emitter {
    builder: IrBuilder,
    free: BTreeSet<i16>,
    frames: Vec<Vec<i16>>,
    dry: u32,
    /// The pools the shader must fit (instructions, immediates, temporaries).
    pools: [usize; 3],
    /// The construct being lowered (set by the lowering).
    pub pos: Pos,
    /// Where each pool first went past its limit.
    over: [Option<Pos>; 3],
}

impl Emitter {
    pub(crate) fn new(limits: Limits) -> Emitter {
        let counting = Limits {
            instructions: limits.instructions.max(COUNTING),
            immediates: limits.immediates.max(COUNTING),
            temporaries: limits.temporaries.max(COUNTING),
            ..limits
        };
        Emitter {
            builder: IrBuilder::new(counting),
            free: BTreeSet::new(),
            frames: vec![Vec::new()],
            dry: 0,
            pools: [limits.instructions, limits.immediates, limits.temporaries],
            pos: Pos::START,
            over: [None; 3],
        }
    }

    /// What each pool holds so far.
    fn used(&self) -> [usize; 3] {
        [
            self.builder.ir().len(),
            self.builder.immediates().len(),
            self.builder.temp_count() as usize,
        ]
    }

    /// Record where a pool first went past its limit.
    fn note(&mut self) {
        let used = self.used();
        for ((u, limit), over) in used.iter().zip(self.pools).zip(&mut self.over) {
            if *u > limit && over.is_none() {
                *over = Some(self.pos);
            }
        }
    }

    /// The pools the shader does not fit: where each first overflowed and the message
    /// ("shader needs N instructions, the limit is L").
    pub(crate) fn overflows(&self) -> Vec<(Pos, String)> {
        let used = self.used();
        (0..3)
            .filter_map(|k| {
                let pos = self.over[k]?;
                let m = format!(
                    "shader needs {} {}, the limit is {}",
                    used[k], POOLS[k], self.pools[k]
                );
                Some((pos, m))
            })
            .collect()
    }

    /// The message for a pool that reached the counting capacity itself.
    pub(crate) fn exhausted(&self, e: PoolError) -> String {
        let k = match e {
            PoolError::Instructions => 0,
            PoolError::Immediates => 1,
            PoolError::Temporaries => 2,
        };
        format!(
            "shader needs more than {} {}, the limit is {}",
            COUNTING, POOLS[k], self.pools[k]
        )
    }

    /// Whether emission is suppressed.
    pub(crate) fn is_dry(&self) -> bool {
        self.dry > 0
    }

    pub(crate) fn enter_dry(&mut self) {
        self.dry += 1;
    }

    pub(crate) fn leave_dry(&mut self) {
        self.dry -= 1;
    }

    /// Append one record.
    pub(crate) fn emit(&mut self, ir: Ir) -> Result<(), PoolError> {
        if self.is_dry() {
            return Ok(());
        }
        self.builder.emit(ir)?;
        self.note();
        Ok(())
    }

    /// `n` consecutive temporaries, reused from the free set when possible.
    fn take(&mut self, n: u16) -> Result<i16, PoolError> {
        if self.is_dry() {
            return Ok(0);
        }
        let n = n.max(1) as i16;
        let run = self
            .free
            .iter()
            .copied()
            .find(|&t| (0..n).all(|k| self.free.contains(&(t + k))));
        if let Some(t) = run {
            for k in 0..n {
                self.free.remove(&(t + k));
            }
            return Ok(t);
        }
        let t = self.builder.alloc_temps(n as u16)?;
        self.note();
        Ok(t)
    }

    /// `n` consecutive temporaries owned by the current statement.
    pub(crate) fn temp(&mut self, n: u16) -> Result<i16, PoolError> {
        let t = self.take(n)?;
        if !self.is_dry() {
            let frame = self.frames.last_mut().expect("a frame is always open");
            frame.extend((0..n.max(1) as i16).map(|k| t + k));
        }
        Ok(t)
    }

    /// `n` consecutive temporaries for a variable (freed with [`Emitter::release`]).
    pub(crate) fn storage(&mut self, n: u16) -> Result<i16, PoolError> {
        self.take(n)
    }

    /// `n` consecutive temporaries that are never reused (the prologue keeps the
    /// original's temporary numbering, docs/csir-original.md B §2.4).
    pub(crate) fn fixed(&mut self, n: u16) -> Result<i16, PoolError> {
        let t = self.builder.alloc_temps(n)?;
        self.note();
        Ok(t)
    }

    /// Return temporaries to the free set.
    pub(crate) fn release(&mut self, first: i16, n: u16) {
        if self.is_dry() {
            return;
        }
        for k in 0..n.max(1) as i16 {
            self.free.insert(first + k);
        }
    }

    /// Open a statement frame.
    pub(crate) fn push_frame(&mut self) {
        if !self.is_dry() {
            self.frames.push(Vec::new());
        }
    }

    /// Close the current statement frame, freeing what it still owns.
    pub(crate) fn pop_frame(&mut self) {
        if self.is_dry() {
            return;
        }
        if self.frames.len() > 1 {
            let frame = self.frames.pop().expect("checked");
            self.free.extend(frame);
        }
    }

    /// Index of the current frame (to hand temporaries to an outer statement).
    pub(crate) fn frame_index(&self) -> usize {
        self.frames.len() - 1
    }

    /// Instructions and immediates emitted so far (what a copy of the emitter copies).
    pub(crate) fn state_len(&self) -> usize {
        self.builder.ir().len() + self.builder.immediates().len()
    }

    /// Position in the current frame, for [`Emitter::is_fresh`].
    pub(crate) fn mark(&self) -> usize {
        self.frames.last().map_or(0, Vec::len)
    }

    /// Whether the `n` temporaries from `t` were all allocated in the current frame
    /// after `mark` (nothing else can refer to them).
    pub(crate) fn is_fresh(&self, t: i16, n: u16, mark: usize) -> bool {
        if self.is_dry() {
            return false;
        }
        let frame = self.frames.last().expect("a frame is always open");
        let recent = frame.get(mark..).unwrap_or(&[]);
        (0..n.max(1) as i16).all(|k| recent.contains(&(t + k)))
    }

    /// Take `n` temporaries from `t` out of the current frame (a variable adopts an
    /// intermediate); false if they are not all owned by the current frame.
    pub(crate) fn adopt(&mut self, t: i16, n: u16) -> bool {
        if !self.is_fresh(t, n, 0) {
            return false;
        }
        let frame = self.frames.last_mut().expect("a frame is always open");
        frame.retain(|x| !(t..t + n.max(1) as i16).contains(x));
        true
    }

    /// Move temporaries `t..t+n` from wherever they are owned (a frame deeper than
    /// `target`, or the free set after their variable's scope closed) into frame
    /// `target`. Used for the value of an inlined call.
    pub(crate) fn hand_to(&mut self, t: i16, n: u16, target: usize) {
        if self.is_dry() {
            return;
        }
        for x in t..t + n.max(1) as i16 {
            let mut found = self.free.remove(&x);
            for frame in self.frames.iter_mut().skip(target + 1) {
                let before = frame.len();
                frame.retain(|y| *y != x);
                found |= frame.len() != before;
            }
            if found && let Some(f) = self.frames.get_mut(target) {
                f.push(x);
            }
        }
    }

    /// Emit `CONST` of `values` (1..=4 floats) into `dst`, reusing identical
    /// immediates already in the pool (bit for bit) to spare the 160-float pool.
    pub(crate) fn const_into(
        &mut self,
        dst: i16,
        values: &[f32],
        ty: Type,
    ) -> Result<(), PoolError> {
        self.konst(dst, values, ty, true)
    }

    /// Emit `CONST` of `values` into `dst` with fresh immediates (the prologue keeps
    /// the original's immediate numbering, docs/csir-original.md B §2.4).
    pub(crate) fn const_into_fresh(
        &mut self,
        dst: i16,
        values: &[f32],
        ty: Type,
    ) -> Result<(), PoolError> {
        self.konst(dst, values, ty, false)
    }

    fn konst(&mut self, dst: i16, values: &[f32], ty: Type, share: bool) -> Result<(), PoolError> {
        if self.is_dry() {
            return Ok(());
        }
        let same = |w: &[f32]| {
            w.iter()
                .zip(values)
                .all(|(a, b)| a.to_bits() == b.to_bits())
        };
        let found = match share {
            true => self
                .builder
                .immediates()
                .windows(values.len())
                .position(same),
            false => None,
        };
        let first = match found {
            Some(i) => i as i16,
            None => self.builder.add_immediates(values)?,
        };
        self.emit_const(dst, first, values.len(), ty)
    }

    fn emit_const(&mut self, dst: i16, first: i16, n: usize, ty: Type) -> Result<(), PoolError> {
        let ir = Ir::new(Op::Const, ty.ir())
            .dst(dst)
            .aux(first)
            .ncomp(n as u8);
        self.builder.emit(ir)?;
        self.note();
        Ok(())
    }

    /// Finish: `(ir, imm, ntmp)`.
    pub(crate) fn finish(self) -> (Vec<Ir>, Vec<f32>, u16) {
        self.builder.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_free_their_temporaries_for_reuse() {
        let mut e = Emitter::new(Limits::SEED);
        e.push_frame();
        let a = e.temp(1).unwrap();
        let m = e.temp(4).unwrap();
        assert_eq!((a, m), (0, 1));
        e.pop_frame();
        e.push_frame();
        assert_eq!(e.temp(3).unwrap(), 0);
        assert_eq!(e.temp(1).unwrap(), 3);
        assert_eq!(e.temp(2).unwrap(), 5);
        e.pop_frame();
    }

    #[test]
    fn adoption_and_hand_over() {
        let mut e = Emitter::new(Limits::SEED);
        e.push_frame();
        let outer = e.frame_index();
        let mark = e.mark();
        let t = e.temp(1).unwrap();
        assert!(e.is_fresh(t, 1, mark));
        e.push_frame();
        let u = e.temp(1).unwrap();
        e.hand_to(u, 1, outer);
        e.pop_frame();
        assert_ne!(e.temp(1).unwrap(), u);
        assert!(e.adopt(t, 1));
        e.pop_frame();
        assert_ne!(e.storage(1).unwrap(), t);
    }

    #[test]
    fn constants_share_immediates() {
        let mut e = Emitter::new(Limits::SEED);
        e.const_into(0, &[1.0, 2.0], Type::Vec2).unwrap();
        e.const_into(1, &[2.0], Type::Float).unwrap();
        e.const_into(2, &[-0.0], Type::Float).unwrap();
        e.const_into_fresh(3, &[1.0], Type::Float).unwrap();
        let (ir, imm, _) = e.finish();
        assert_eq!(imm, vec![1.0, 2.0, -0.0, 1.0]);
        assert_eq!(
            ir.iter().map(|i| i.aux).collect::<Vec<_>>(),
            vec![0, 1, 2, 3]
        );
    }

    #[test]
    fn dry_mode_emits_nothing() {
        let mut e = Emitter::new(Limits::SEED);
        e.enter_dry();
        e.emit(Ir::new(Op::Discard, Type::None.ir())).unwrap();
        e.const_into(0, &[1.0], Type::Float).unwrap();
        assert_eq!(e.temp(4).unwrap(), 0);
        e.leave_dry();
        let (ir, imm, ntmp) = e.finish();
        assert!(ir.is_empty() && imm.is_empty());
        assert_eq!(ntmp, 0);
    }
}
