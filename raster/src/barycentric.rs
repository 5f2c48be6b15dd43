//! Perspective-correct barycentrics and `gl_FragCoord.w` for the lanes of a batch.
//!
//! Screen-space barycentrics `λ_i` are linear in window space; they are evaluated as
//! planes relative to a reference pixel near the triangle (the corner of its bounding
//! box inside the current tile), so f32 keeps its precision however far from the
//! origin the triangle is. Perspective correction (GL 3.3 core, "Polygon
//! Rasterization", equation for perspective-correct interpolation):
//! `q_i = λ_i / w_i`, `b_i = q_i / Σq`, and `gl_FragCoord.w = Σq` (1/w interpolated
//! linearly in window space). The `λ_i` themselves are the window-space barycentrics
//! `noperspective` varyings use.

use std::ops::Range;

use crate::batch::FragmentBatch;
use crate::setup::SetupTriangle;

/// Which optional per-lane inputs a batch needs filled (besides the perspective
/// barycentrics, always filled).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BatchInputs {
    /// `frag_coord` x, y and w.
    pub frag_coord: bool,
    /// `screen_barycentric`.
    pub screen_barycentric: bool,
}

impl BatchInputs {
    /// Everything (for traced tiles: the trace reports all of it).
    pub const ALL: BatchInputs = BatchInputs {
        frag_coord: true,
        screen_barycentric: true,
    };
}

/// A triangle's barycentric planes anchored at one reference pixel.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BarycentricPlanes {
    origin: [i32; 2],
    at_origin: [f32; 3],
    step_x: [f32; 3],
    step_y: [f32; 3],
    inv_w: [f32; 3],
    inv_w_scale: f32,
}

impl BarycentricPlanes {
    /// Planes of `tri` anchored at pixel `(x, y)`, evaluated at the pixel centres
    /// moved by `shift` (x, y in fixed units; `[0, 0]` but in a multisampled draw,
    /// whose triangles are moved by minus its sample offset while their fragments
    /// are shaded at the real pixel centres: `shift` is then that offset negated).
    pub fn new(tri: &SetupTriangle, x: u32, y: u32, shift: [i64; 2]) -> Self {
        let s = tri.inv_double_area();
        let e = &tri.edges;
        BarycentricPlanes {
            origin: [x as i32, y as i32],
            at_origin: std::array::from_fn(|i| {
                let exact = e[i].exact_at(i64::from(x), i64::from(y)) + e[i].change_over(shift);
                (exact as f64 * s) as f32
            }),
            step_x: std::array::from_fn(|i| (e[i].a() as f64 * s) as f32),
            step_y: std::array::from_fn(|i| (e[i].b() as f64 * s) as f32),
            inv_w: tri.inv_w,
            inv_w_scale: tri.inv_w_scale,
        }
    }

    /// Perspective-correct barycentrics and `gl_FragCoord.w` at the centre of pixel
    /// `(x, y)`.
    #[inline(always)]
    pub fn at(&self, x: u32, y: u32) -> ([f32; 3], f32) {
        let (b, _, w) = self.weights_at(x, y);
        (b, w)
    }

    /// Perspective-correct barycentrics, window-space barycentrics `λ` and
    /// `gl_FragCoord.w` at the centre of pixel `(x, y)`.
    #[inline(always)]
    fn weights_at(&self, x: u32, y: u32) -> ([f32; 3], [f32; 3], f32) {
        let dx = (x as i32 - self.origin[0]) as f32;
        let dy = (y as i32 - self.origin[1]) as f32;
        let lambda: [f32; 3] =
            std::array::from_fn(|i| self.at_origin[i] + self.step_x[i] * dx + self.step_y[i] * dy);
        let q: [f32; 3] = std::array::from_fn(|i| lambda[i] * self.inv_w[i]);
        let sum = q[0] + q[1] + q[2];
        let r = 1.0 / sum;
        (
            [q[0] * r, q[1] * r, q[2] * r],
            lambda,
            sum * self.inv_w_scale,
        )
    }

    /// Fills `barycentric` of lanes `0..padded_len()` from their pixel positions, and
    /// `frag_coord` x, y, w and `screen_barycentric` when `inputs` asks for them
    /// (`frag_coord.z` is set when lanes are added). One loop per combination, each
    /// vectorized across lanes: a stage that reads neither skips six of the nine
    /// stores per lane.
    pub fn fill(&self, batch: &mut FragmentBatch, inputs: BatchInputs) {
        match (inputs.frag_coord, inputs.screen_barycentric) {
            (true, true) => self.fill_padded::<true, true>(batch),
            (true, false) => self.fill_padded::<true, false>(batch),
            (false, true) => self.fill_padded::<false, true>(batch),
            (false, false) => self.fill_padded::<false, false>(batch),
        }
    }

    /// [`fill`](Self::fill)'s loop over `0..padded_len()`, a whole number of 8-lane
    /// groups, which vectorizes without a remainder: kept apart from
    /// [`fill_lanes`](Self::fill_lanes), whose arbitrary ranges made a batch of one
    /// large triangle ~50 % slower to fill (blend16 1 thread: 96 against 108 CPU ms per
    /// frame). Same arithmetic ([`weights_at`](Self::weights_at)).
    #[inline(always)]
    fn fill_padded<const FRAG_COORD: bool, const SCREEN: bool>(&self, batch: &mut FragmentBatch) {
        let lanes = batch.padded_len();
        let FragmentBatch {
            pixel_x,
            pixel_y,
            frag_coord,
            barycentric,
            screen_barycentric,
            ..
        } = batch;
        for lane in 0..lanes {
            let (x, y) = (pixel_x[lane], pixel_y[lane]);
            let (b, lambda, w) = self.weights_at(x, y);
            if FRAG_COORD {
                frag_coord[0][lane] = x as f32 + 0.5;
                frag_coord[1][lane] = y as f32 + 0.5;
                frag_coord[3][lane] = w;
            }
            barycentric[0][lane] = b[0];
            barycentric[1][lane] = b[1];
            barycentric[2][lane] = b[2];
            if SCREEN {
                for (s, l) in screen_barycentric.iter_mut().zip(lambda) {
                    s[lane] = l;
                }
            }
        }
    }

    /// [`BarycentricPlanes::fill`] for the lanes `lanes` only (each lane's values
    /// depend on its own pixel alone): one triangle's lanes of a batch that holds
    /// several triangles.
    pub fn fill_range(&self, batch: &mut FragmentBatch, inputs: BatchInputs, lanes: Range<usize>) {
        match (inputs.frag_coord, inputs.screen_barycentric) {
            (true, true) => self.fill_lanes::<true, true>(batch, lanes),
            (true, false) => self.fill_lanes::<true, false>(batch, lanes),
            (false, true) => self.fill_lanes::<false, true>(batch, lanes),
            (false, false) => self.fill_lanes::<false, false>(batch, lanes),
        }
    }

    #[inline(always)]
    fn fill_lanes<const FRAG_COORD: bool, const SCREEN: bool>(
        &self,
        batch: &mut FragmentBatch,
        lanes: Range<usize>,
    ) {
        let FragmentBatch {
            pixel_x,
            pixel_y,
            frag_coord,
            barycentric,
            screen_barycentric,
            ..
        } = batch;
        // Every array sliced to the range first, so the loop runs without bounds
        // checks and vectorizes for any range (indexing the whole arrays by a lane in
        // `start..end` kept per-lane checks and made a full-batch fill ~3× slower).
        let n = lanes.len();
        let (px, py) = (&pixel_x[lanes.clone()], &pixel_y[lanes.clone()]);
        let [f0, f1, _, f3] = frag_coord;
        let (f0, f1, f3) = (
            &mut f0[lanes.clone()],
            &mut f1[lanes.clone()],
            &mut f3[lanes.clone()],
        );
        let [b0, b1, b2] = barycentric;
        let (b0, b1, b2) = (
            &mut b0[lanes.clone()],
            &mut b1[lanes.clone()],
            &mut b2[lanes.clone()],
        );
        let [s0, s1, s2] = screen_barycentric;
        let (s0, s1, s2) = (
            &mut s0[lanes.clone()],
            &mut s1[lanes.clone()],
            &mut s2[lanes],
        );
        for i in 0..n {
            let (x, y) = (px[i], py[i]);
            let (b, lambda, w) = self.weights_at(x, y);
            if FRAG_COORD {
                f0[i] = x as f32 + 0.5;
                f1[i] = y as f32 + 0.5;
                f3[i] = w;
            }
            b0[i] = b[0];
            b1[i] = b[1];
            b2[i] = b[2];
            if SCREEN {
                s0[i] = lambda[0];
                s1[i] = lambda[1];
                s2[i] = lambda[2];
            }
        }
    }
}
