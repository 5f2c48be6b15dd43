//! The 2×2 fragment quad both interpreters run derivatives over (docs/csir.md
//! "Derivatives"): its lane order, and which two lanes a DDX or DDY subtracts.

use crate::ir::Op;

/// The pixel of each lane of a quad, as `(dx, dy)` from its lower-left pixel
/// `(x0, y0)` (`x0`, `y0` even, window y up): lane `k` is `(k & 1, k >> 1)`, so lanes
/// 0, 1 are the lower row left to right and lanes 2, 3 the row above. The batch
/// interpreter and the rasterizer keep a quad's lanes consecutive in this order, at
/// batch lanes `4q .. 4q + 4`.
pub const QUAD_LANES: [(u32, u32); 4] = [(0, 0), (1, 0), (0, 1), (1, 1)];

/// The lanes `(hi, lo)` whose difference `a[hi] − a[lo]` is DDX or DDY at quad lane
/// `lane` (0..4): fine derivatives, as llvmpipe computes them (docs/csir.md
/// "Derivatives"). DDX pairs the two pixels of `lane`'s row, right minus left; DDY the
/// two of its column, upper (window y + 1) minus lower.
///
/// # Panics
/// If `op` is neither DDX nor DDY.
#[inline]
pub(crate) fn pair(op: Op, lane: usize) -> (usize, usize) {
    match op {
        Op::Ddx => (lane | 1, lane & !1),
        Op::Ddy => (lane | 2, lane & !2),
        _ => panic!("{op:?} is not a derivative"),
    }
}

/// A derivative's value from its pair of lanes: `hi − lo` (IEEE, round to nearest).
/// A lone invocation, or a constant, is its own pair: `x − x`, 0 or NaN.
#[inline(always)]
pub(crate) fn difference(hi: f32, lo: f32) -> f32 {
    hi - lo
}

/// The coordinate gradients `[ds/dx, dt/dx, ds/dy, dt/dy]` of an implicit level of
/// detail from the coordinates `(s[k], t[k])` of the quad's four lanes: one set per
/// quad (coarse), from lane 0's row and column (lane 1 − lane 0 along x, lane 2 −
/// lane 0 along y), as llvmpipe computes a quad's level of detail (docs/csir.md
/// "Level of detail"). Both interpreters call this, so they agree bit for bit.
#[inline]
pub(crate) fn lod_gradients(s: [f32; 4], t: [f32; 4]) -> [f32; 4] {
    [
        difference(s[1], s[0]),
        difference(t[1], t[0]),
        difference(s[2], s[0]),
        difference(t[2], t[0]),
    ]
}

/// An implicit-LOD lookup ([`OpInfo::implicit_lod`](crate::ir::OpInfo::implicit_lod):
/// SAMPLE, SAMPLE_OFFSET, SAMPLE_BIAS) at `(s, t)` in a quad whose coordinate
/// gradients are `gradients` ([`lod_gradients`]): λ = the gradients' level of detail
/// for the texture bound to `slot` ([`lod_from_gradients`](super::lod_from_gradients))
/// plus `bias` (SAMPLE_BIAS's `b.x`, else 0), through
/// [`Samplers::sample_lod`](super::Samplers::sample_lod).
#[inline]
pub(crate) fn sample_in_quad(
    samplers: &dyn super::Samplers,
    slot: usize,
    [s, t]: [f32; 2],
    gradients: [f32; 4],
    bias: f32,
    offset: [i32; 2],
) -> [f32; 4] {
    let lod = super::lod_from_gradients(samplers.size(slot), gradients) + bias;
    samplers.sample_lod(slot, s, t, lod, offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_follow_the_lane_order() {
        for (lane, &(x, y)) in QUAD_LANES.iter().enumerate() {
            let (hi, lo) = pair(Op::Ddx, lane);
            assert_eq!((QUAD_LANES[hi], QUAD_LANES[lo]), ((1, y), (0, y)));
            let (hi, lo) = pair(Op::Ddy, lane);
            assert_eq!((QUAD_LANES[hi], QUAD_LANES[lo]), ((x, 1), (x, 0)));
        }
    }
}
