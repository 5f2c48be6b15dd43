//! The stencil test and its update of an 8-bit stencil buffer (OpenGL 3.3 core §4.1.4
//! "Stencil Test"), as the scene format's `state.stencil` names it
//! (`docs/scene-format.md`, "Stencil").
//!
//! A fragment passes when `(ref & value_mask) func (stored & value_mask)` holds; then
//! the depth test runs. The stored value becomes
//! `(stored & !write_mask) | (op(stored) & write_mask)`, with `op` the face's `fail`
//! op when the stencil test failed, `depth_fail` when the stencil test passed and the
//! depth test failed, `pass` when both passed (a disabled depth test passes). Which
//! face's state applies is the primitive's facing; points and lines are front facing.

use crate::state::DepthTest;

/// A stencil operation (GL 3.3 §4.1.4, `glStencilOp`), by its scene-format name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StencilOp {
    /// `keep`: the stored value stays.
    #[default]
    Keep,
    /// `zero`: 0.
    Zero,
    /// `replace`: the reference value.
    Replace,
    /// `incr`: stored + 1, clamped at 255.
    Incr,
    /// `incr_wrap`: stored + 1, 255 wraps to 0.
    IncrWrap,
    /// `decr`: stored − 1, clamped at 0.
    Decr,
    /// `decr_wrap`: stored − 1, 0 wraps to 255.
    DecrWrap,
    /// `invert`: the bitwise inverse of the stored value.
    Invert,
}

impl StencilOp {
    /// Every op with its scene-format name (GL's, lower case, without `GL_`).
    pub const NAMES: [(&'static str, StencilOp); 8] = [
        ("keep", StencilOp::Keep),
        ("zero", StencilOp::Zero),
        ("replace", StencilOp::Replace),
        ("incr", StencilOp::Incr),
        ("incr_wrap", StencilOp::IncrWrap),
        ("decr", StencilOp::Decr),
        ("decr_wrap", StencilOp::DecrWrap),
        ("invert", StencilOp::Invert),
    ];

    /// The scene format's name of this op.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, op)| *op == self)
            .map(|(n, _)| *n)
            .expect("NAMES lists every op")
    }

    /// The op applied to the stored value `stored` with reference `reference`, before
    /// the write mask.
    #[inline]
    pub fn apply(self, stored: u8, reference: u8) -> u8 {
        match self {
            StencilOp::Keep => stored,
            StencilOp::Zero => 0,
            StencilOp::Replace => reference,
            StencilOp::Incr => stored.saturating_add(1),
            StencilOp::IncrWrap => stored.wrapping_add(1),
            StencilOp::Decr => stored.saturating_sub(1),
            StencilOp::DecrWrap => stored.wrapping_sub(1),
            StencilOp::Invert => !stored,
        }
    }
}

/// One face's stencil state: `glStencilFuncSeparate(face, func, ref, value_mask)`,
/// `glStencilMaskSeparate(face, write_mask)` and
/// `glStencilOpSeparate(face, fail, depth_fail, pass)`. `Default` is GL's: func
/// `always`, ref 0, both masks 0xff, every op `keep`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StencilFace {
    /// The comparison `(ref & value_mask) func (stored & value_mask)`; never
    /// [`DepthTest::Disabled`] (the loader refuses `"none"`; it would act as `always`).
    pub func: DepthTest,
    /// The reference value, 0..=255 (GL clamps it to the buffer's range).
    pub reference: u8,
    /// The bits the comparison reads.
    pub value_mask: u8,
    /// The bits an op writes.
    pub write_mask: u8,
    /// Op when the stencil test fails.
    pub fail: StencilOp,
    /// Op when the stencil test passes and the depth test fails.
    pub depth_fail: StencilOp,
    /// Op when both tests pass.
    pub pass: StencilOp,
}

impl Default for StencilFace {
    fn default() -> Self {
        StencilFace {
            func: DepthTest::Always,
            reference: 0,
            value_mask: 0xff,
            write_mask: 0xff,
            fail: StencilOp::Keep,
            depth_fail: StencilOp::Keep,
            pass: StencilOp::Keep,
        }
    }
}

impl StencilFace {
    /// Whether a fragment passes the stencil test against the stored value `stored`.
    #[inline]
    pub fn passes(&self, stored: u8) -> bool {
        let m = self.value_mask;
        self.func
            .passes(u32::from(self.reference & m), u32::from(stored & m))
    }

    /// The op a fragment takes: `fail` when the stencil test failed, else
    /// `depth_fail` when the depth test failed, else `pass`.
    #[inline]
    pub fn op(&self, stencil_passed: bool, depth_passed: bool) -> StencilOp {
        match (stencil_passed, depth_passed) {
            (false, _) => self.fail,
            (true, false) => self.depth_fail,
            (true, true) => self.pass,
        }
    }

    /// The stored value after `op`, through the write mask.
    #[inline]
    pub fn update(&self, stored: u8, op: StencilOp) -> u8 {
        let w = self.write_mask;
        (stored & !w) | (op.apply(stored, self.reference) & w)
    }

    /// Whether no op of this face can change the buffer (every op `keep` or a zero
    /// write mask).
    pub fn never_writes(&self) -> bool {
        self.write_mask == 0
            || [self.fail, self.depth_fail, self.pass]
                .iter()
                .all(|&op| op == StencilOp::Keep)
    }
}

/// The stencil test of a draw (`glEnable(GL_STENCIL_TEST)`): the front and the back
/// face's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StencilState {
    /// State for front-facing triangles, points and lines.
    pub front: StencilFace,
    /// State for back-facing triangles.
    pub back: StencilFace,
}

impl StencilState {
    /// The state of a primitive with this facing.
    #[inline]
    pub fn face(&self, front_facing: bool) -> &StencilFace {
        if front_facing {
            &self.front
        } else {
            &self.back
        }
    }
}

/// One fragment's stencil step, for traces: the face's state, the stored value
/// before and after, the test's result and the op taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StencilTrace {
    /// The face's state (front or back by the primitive's facing).
    pub face: StencilFace,
    /// Whether the front face's state applied.
    pub front: bool,
    /// The stored value before the fragment.
    pub before: u8,
    /// Whether the stencil test passed.
    pub passed: bool,
    /// The op taken (`fail`, `depth_fail` or `pass`'s).
    pub op: StencilOp,
    /// The stored value after the op (through the write mask); equal to `before` when
    /// the fragment was later discarded by the shader and the update was withheld.
    pub after: u8,
}

/// The stencil test and update of one block row of 8 pixels: which of `covered`
/// pass the stencil test (bits), given the stored values `stored`, and the new stored
/// values for the pixels in `covered` given which passed the depth test
/// (`depth_passed`). Pixels outside `covered` keep their values.
#[inline]
pub(crate) fn stencil_row(
    face: &StencilFace,
    covered: u8,
    stored: &[u8; 8],
    depth_passed: u8,
) -> (u8, [u8; 8]) {
    let mut passed = 0u8;
    for (c, &s) in stored.iter().enumerate() {
        passed |= u8::from(face.passes(s)) << c;
    }
    let passed = passed & covered;
    let mut out = *stored;
    for c in 0..8 {
        let bit = 1u8 << c;
        if covered & bit != 0 {
            let op = face.op(passed & bit != 0, depth_passed & bit != 0);
            out[c] = face.update(stored[c], op);
        }
    }
    (passed, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ops_give_hand_computed_values() {
        // (op, stored, reference) -> result
        let cases = [
            (StencilOp::Keep, 7, 3, 7),
            (StencilOp::Zero, 7, 3, 0),
            (StencilOp::Replace, 7, 3, 3),
            (StencilOp::Incr, 7, 0, 8),
            (StencilOp::Incr, 255, 0, 255),
            (StencilOp::IncrWrap, 254, 0, 255),
            (StencilOp::IncrWrap, 255, 0, 0),
            (StencilOp::Decr, 1, 0, 0),
            (StencilOp::Decr, 0, 0, 0),
            (StencilOp::DecrWrap, 0, 0, 255),
            (StencilOp::DecrWrap, 1, 0, 0),
            (StencilOp::Invert, 0b1010_0101, 0, 0b0101_1010),
            (StencilOp::Invert, 0, 0, 255),
        ];
        for (op, stored, reference, expect) in cases {
            assert_eq!(op.apply(stored, reference), expect, "{op:?} {stored}");
        }
    }

    #[test]
    fn write_mask_keeps_the_masked_bits() {
        let face = StencilFace {
            reference: 0xf0,
            write_mask: 0x3c,
            ..StencilFace::default()
        };
        // replace: bits 2..6 from 0xf0 (0x30), the rest from 0x0f (0x03).
        assert_eq!(face.update(0x0f, StencilOp::Replace), 0x33);
        // invert of 0x0f is 0xf0: bits 2..6 of it (0x30), others of 0x0f (0x03).
        assert_eq!(face.update(0x0f, StencilOp::Invert), 0x33);
        // incr_wrap of 0xff is 0: bits 2..6 cleared: 0xc3.
        assert_eq!(face.update(0xff, StencilOp::IncrWrap), 0xc3);
    }

    #[test]
    fn comparison_reads_through_the_value_mask() {
        let face = StencilFace {
            func: DepthTest::Equal,
            reference: 0x15,
            value_mask: 0x0f,
            ..StencilFace::default()
        };
        assert!(face.passes(0x05)); // 0x05 == 0x05
        assert!(face.passes(0xf5)); // high bits not compared
        assert!(!face.passes(0x04));
        let less = StencilFace {
            func: DepthTest::Less,
            reference: 2,
            ..StencilFace::default()
        };
        // ref < stored
        assert!(less.passes(3) && !less.passes(2) && !less.passes(1));
    }

    #[test]
    fn ops_follow_stencil_then_depth_results() {
        let face = StencilFace {
            func: DepthTest::NotEqual,
            reference: 1,
            fail: StencilOp::Zero,
            depth_fail: StencilOp::DecrWrap,
            pass: StencilOp::IncrWrap,
            ..StencilFace::default()
        };
        // Pixels: stored 1 (stencil fails) → zero; stored 0 with depth fail →
        // 255; stored 255 with depth pass → 0; pixel 3 not covered keeps 9.
        let stored = [1, 0, 255, 9, 0, 0, 0, 0];
        let (passed, out) = stencil_row(&face, 0b0000_0111, &stored, 0b0000_0100);
        assert_eq!(passed, 0b0000_0110);
        assert_eq!(out, [0, 255, 0, 9, 0, 0, 0, 0]);
    }

    #[test]
    fn names_round_trip() {
        for (name, op) in StencilOp::NAMES {
            assert_eq!(op.name(), name);
        }
        assert!(StencilFace::default().never_writes());
        assert!(
            !StencilFace {
                pass: StencilOp::Invert,
                ..StencilFace::default()
            }
            .never_writes()
        );
    }
}
