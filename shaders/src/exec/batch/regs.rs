//! The batch register file: per worker thread, reused for every batch.
//!
//! Layout: register `r`, component `c` (0..4), lane group `g` (0..W, 8 lanes each) is
//! the `f32x8` at `(r·4 + c)·W + g`, so one component of one register over a whole
//! chunk of `8·W` lanes is contiguous. `W` is the number of `f32x8` groups one step
//! covers ([`run`](super::run)). Registers are the draw's temporaries, the colour
//! output and the constant registers; the constants are filled once per draw, the rest
//! is never cleared (binding guarantees that every register is written before it is
//! read, see [`bind`](super::bind)).

use super::Draw;
use wide::f32x8;

/// Working memory of the batch interpreter for one worker thread: the register file
/// and the stack of lane masks of open IFs. Make it with [`Draw::registers`]; it can be
/// reused for another draw (it is refilled on first use).
#[derive(Clone, Debug, Default)]
pub struct Registers {
    /// `(Draw::id, W)` the file is laid out and filled for; 0 = none.
    filled_for: (u64, usize),
    pub(super) cells: Vec<f32x8>,
    /// Per open per-pixel IF: the lane mask before it and the lanes that took it
    /// (`2·W` vectors per IF).
    pub(super) masks: Vec<f32x8>,
    /// Per open per-pixel IF: the step that ends its current branch.
    pub(super) ends: Vec<u32>,
}

impl Draw {
    /// A register file for this draw (one per worker thread).
    pub fn registers(&self) -> Registers {
        Registers::default()
    }
}

impl Registers {
    /// Lay the file out for `draw` with `W` groups per step and fill its constant
    /// registers, unless that was already done.
    pub(super) fn prepare<const W: usize>(&mut self, draw: &Draw) {
        if self.filled_for == (draw.id, W) {
            return;
        }
        self.cells.clear();
        self.cells.resize(draw.registers * 4 * W, f32x8::ZERO);
        for &(reg, values) in &draw.constants {
            for (c, &v) in values.iter().enumerate() {
                let at = (reg as usize * 4 + c) * W;
                self.cells[at..at + W].fill(f32x8::splat(v));
            }
        }
        self.masks = Vec::with_capacity(draw.depth * 2 * W);
        self.ends = Vec::with_capacity(draw.depth);
        self.filled_for = (draw.id, W);
    }
}
