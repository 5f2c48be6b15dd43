//! Fragment batches: the structure-of-arrays blocks of pixels a fragment stage shades.
//!
//! Every per-lane field is a contiguous `[f32; MAX_LANES]` (or `[u32; MAX_LANES]`), so a
//! SIMD shader can load 8 lanes of one field with one aligned load. Lanes
//! `len..padded_len()` hold copies of the last real lane, so code may always run whole
//! groups of [`LANE_GROUP`] lanes without reading garbage (their results are ignored).

/// Most fragments in one batch. A batch mixes triangles only as `rasterize.rs`
/// allows (one facing, each pixel at most once).
pub const MAX_LANES: usize = 64;

/// SIMD group width the padding guarantees (8 × f32 = one 256-bit register).
pub const LANE_GROUP: usize = 8;

/// One f32 per lane: the unit every per-lane field and interpolated varying comes in.
pub type LaneArray = [f32; MAX_LANES];

/// A set of lanes as bits: bit `i` stands for lane `i` (`MAX_LANES` = 64 bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LaneMask(pub u64);

impl LaneMask {
    /// No lane.
    pub const NONE: LaneMask = LaneMask(0);

    /// Adds `lane` (0..64) to the set.
    #[inline]
    pub fn insert(&mut self, lane: usize) {
        debug_assert!(lane < MAX_LANES);
        self.0 |= 1u64 << lane;
    }

    /// Whether `lane` (0..64) is in the set.
    #[inline]
    pub fn contains(self, lane: usize) -> bool {
        lane < MAX_LANES && self.0 & (1u64 << lane) != 0
    }

    /// Whether no lane is set.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of lanes in the set.
    #[inline]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }
}

/// Inputs of up to [`MAX_LANES`] fragments, one lane each (of one triangle, or of
/// several small ones of one facing: see [`crate::FragmentStage::shades_several_triangles`]).
///
/// Coordinates are OpenGL window space (y up, `scene-format.md` "Conventions"):
/// pixel `(x, y)` has its centre at `(x + 0.5, y + 0.5)`.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct FragmentBatch {
    /// Number of real lanes, `0..=MAX_LANES`.
    pub len: usize,
    /// Pixel column of each lane, `0..width`.
    pub pixel_x: [u32; MAX_LANES],
    /// Pixel row of each lane in window space (row 0 is the bottom), `0..height`.
    pub pixel_y: [u32; MAX_LANES],
    /// `gl_FragCoord` per lane as four lane arrays: `[0]` = x + 0.5, `[1]` = y + 0.5,
    /// `[2]` = window depth in [0, 1] (linear in window space), `[3]` = 1 / clip w,
    /// interpolated linearly in window space.
    pub frag_coord: [LaneArray; 4],
    /// Perspective-correct barycentric weights of the triangle's three vertices per lane
    /// (`b0 + b1 + b2 = 1` up to rounding; each in [0, 1] up to rounding inside the
    /// triangle). Varying `k` of a lane is `b0·v0[k] + b1·v1[k] + b2·v2[k]`.
    pub barycentric: [LaneArray; 3],
    /// Window-space (screen-linear) barycentric weights of the same vertices per lane,
    /// before perspective correction: what [`Interpolation::NoPerspective`](crate::Interpolation)
    /// varyings are interpolated with (GL 3.0 §3.5.1).
    pub screen_barycentric: [LaneArray; 3],
    /// Helper lanes of a quad batch ([`FragmentStage::needs_quads`](crate::FragmentStage::needs_quads)):
    /// shaded for their neighbours' derivatives, never written. Always empty when the
    /// stage does not need quads.
    pub helpers: LaneMask,
}

impl Default for FragmentBatch {
    fn default() -> Self {
        FragmentBatch {
            len: 0,
            pixel_x: [0; MAX_LANES],
            pixel_y: [0; MAX_LANES],
            frag_coord: [[0.0; MAX_LANES]; 4],
            barycentric: [[0.0; MAX_LANES]; 3],
            screen_barycentric: [[0.0; MAX_LANES]; 3],
            helpers: LaneMask::NONE,
        }
    }
}

impl FragmentBatch {
    /// `len` rounded up to a multiple of [`LANE_GROUP`]: lanes up to here hold valid
    /// (copied) inputs.
    #[inline]
    pub fn padded_len(&self) -> usize {
        self.len.next_multiple_of(LANE_GROUP).min(MAX_LANES)
    }

    /// Copies the last real lane's pixel position and depth into the padding lanes.
    /// Barycentrics and `frag_coord.xyw` are derived from these afterwards.
    pub(crate) fn pad_positions(&mut self) {
        if self.len == 0 {
            return;
        }
        let last = self.len - 1;
        for lane in self.len..self.padded_len() {
            self.pixel_x[lane] = self.pixel_x[last];
            self.pixel_y[lane] = self.pixel_y[last];
            self.frag_coord[2][lane] = self.frag_coord[2][last];
        }
    }
}

impl FragmentBatch {
    /// Copies every per-lane input of the last real lane (pixel, `frag_coord`, both
    /// barycentrics) into the padding lanes `len..padded_len()`: for a batch of
    /// several triangles, whose inputs were filled triangle by triangle, this gives
    /// the padding exactly what [`FragmentBatch::pad_positions`] and filling from the
    /// last triangle's planes would.
    pub(crate) fn pad_inputs(&mut self) {
        if self.len == 0 {
            return;
        }
        let (last, padded) = (self.len - 1, self.padded_len());
        for lane in self.len..padded {
            self.pixel_x[lane] = self.pixel_x[last];
            self.pixel_y[lane] = self.pixel_y[last];
            for a in self
                .frag_coord
                .iter_mut()
                .chain(&mut self.barycentric)
                .chain(&mut self.screen_barycentric)
            {
                a[lane] = a[last];
            }
        }
    }
}

/// What a fragment stage returns for a batch.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct FragmentOutput {
    /// RGBA colour per lane as four lane arrays (`[0]` = red ... `[3]` = alpha), any
    /// f32; the framebuffer clamps to [0, 1] when storing (NaN stores as 0).
    pub color: [LaneArray; 4],
    /// The second source colour per lane (the fragment shader's
    /// `layout(location = 0, index = 1)` output), which a blend's `src1_*` factors
    /// read (dual-source blending, GL 3.3 §4.1.8). Read only in a draw whose blend
    /// reads it ([`crate::BlendFunction::reads_src1`]); the stage writes it then.
    pub color1: [LaneArray; 4],
    /// Lanes the shader discarded: they write neither colour nor depth. The renderer
    /// clears this before every call.
    pub discard: LaneMask,
}

impl Default for FragmentOutput {
    fn default() -> Self {
        FragmentOutput {
            color: [[0.0; MAX_LANES]; 4],
            color1: [[0.0; MAX_LANES]; 4],
            discard: LaneMask::NONE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_mask_sets_and_counts() {
        let mut m = LaneMask::NONE;
        assert!(m.is_empty());
        m.insert(0);
        m.insert(63);
        assert!(m.contains(0) && m.contains(63) && !m.contains(1) && !m.contains(64));
        assert_eq!(m.count(), 2);
    }

    #[test]
    fn padding_copies_last_lane() {
        let mut b = FragmentBatch {
            len: 3,
            ..FragmentBatch::default()
        };
        b.pixel_x[2] = 7;
        b.pixel_y[2] = 9;
        b.frag_coord[2][2] = 0.25;
        b.pad_positions();
        assert_eq!(b.padded_len(), 8);
        assert_eq!(
            (b.pixel_x[7], b.pixel_y[7], b.frag_coord[2][7]),
            (7, 9, 0.25)
        );
        assert_eq!(b.pixel_x[8], 0);
        let full = FragmentBatch {
            len: 64,
            ..FragmentBatch::default()
        };
        assert_eq!(full.padded_len(), 64);
    }
}
