//! The batch register file: per worker thread, reused for every batch.
//!
//! Layout: register `r`, component `c` (0..4), lane group `g` (0..8, 8 lanes each) is
//! the `f32x8` at `(r·4 + c)·8 + g`, so one component of one register over a whole
//! batch of 64 lanes is contiguous (1 KiB per register); a step over a chunk of `W`
//! groups ([`run`](super::run)) uses groups `0..W`. Registers are the draw's
//! temporaries and the colour output; they are never cleared (binding guarantees that
//! every register is written before it is read, see [`bind`](super::bind)).

use super::{BoundPlan, LANE_GROUP, MAX_LANES};
use wide::f32x8;

/// Lane groups per register component: a whole batch.
pub(super) const GROUPS: usize = MAX_LANES / LANE_GROUP;

/// Working memory of the batch interpreter for one worker thread: the register file
/// and the stack of lane masks of open IFs. Make it with [`BoundPlan::registers`]; it can be
/// reused for another draw (it grows when that draw needs more registers).
#[derive(Clone, Debug, Default)]
pub struct Registers {
    pub(super) cells: Vec<f32x8>,
    /// Per open per-pixel IF: the lane mask before it and the lanes that took it
    /// (`2·W` vectors per IF for chunks of `W` groups).
    pub(super) masks: Vec<f32x8>,
    /// Per open per-pixel IF: the step that ends its current branch.
    pub(super) ends: Vec<u32>,
}

impl BoundPlan {
    /// A register file for this draw (one per worker thread).
    pub fn registers(&self) -> Registers {
        let mut regs = Registers::default();
        regs.prepare(self);
        regs
    }
}

impl Registers {
    /// Make room for `draw`'s registers and IF nesting.
    pub(super) fn prepare(&mut self, draw: &BoundPlan) {
        let cells = draw.registers * 4 * GROUPS;
        if self.cells.len() < cells {
            self.cells.resize(cells, f32x8::ZERO);
        }
        self.masks.reserve(draw.depth * 2 * GROUPS);
        self.ends.reserve(draw.depth);
    }
}
