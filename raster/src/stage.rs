//! The two programmable stages, as traits: raster knows nothing about shaders.
//!
//! Both traits are `Sync` because the renderer calls them from several threads at once;
//! per-thread mutable state (an interpreter's registers, say) lives in the associated
//! `Scratch`, created once per worker and reused for every call that worker makes.

use std::ops::Range;

use crate::batch::{FragmentBatch, FragmentOutput, LaneArray};

/// Computes each vertex's clip-space position and varyings.
pub trait VertexStage: Sync {
    /// Per-thread working memory.
    type Scratch: Send;

    /// Makes one worker's scratch (called a few times per draw, never per vertex).
    fn new_scratch(&self) -> Self::Scratch;

    /// Number of f32 varyings every vertex outputs (at most
    /// [`crate::MAX_VARYINGS`]); the fragment stage receives them interpolated.
    fn varying_count(&self) -> usize;

    /// Shades vertex `index` (`0..vertex_count` of the draw; called once per index the
    /// draw uses, in any order and from any thread): writes the clip-space position
    /// `(x, y, z, w)` (OpenGL's clip space) and `varyings` (length `varying_count()`).
    /// It must write every element of both: they arrive holding whatever an earlier
    /// draw left there (the vertex buffer is not cleared between draws), so an
    /// element left unwritten would make the output depend on the previous draw.
    fn shade_vertex(
        &self,
        scratch: &mut Self::Scratch,
        index: u32,
        position: &mut [f32; 4],
        varyings: &mut [f32],
    );

    /// Shades the vertices `indices` at once (at most [`crate::MAX_LANES`] of them):
    /// vertex `indices[k]` writes record `k` of `records`, which holds
    /// `indices.len()` records of `4 + varying_count()` floats (the position, then
    /// the varyings), exactly as [`VertexStage::shade_vertex`] would. A stage with a
    /// SIMD interpreter overrides it to shade many vertices per instruction dispatch;
    /// the default calls `shade_vertex` once per vertex.
    fn shade_vertices(&self, scratch: &mut Self::Scratch, indices: &[u32], records: &mut [f32]) {
        let stride = 4 + self.varying_count();
        for (&index, record) in indices.iter().zip(records.chunks_exact_mut(stride)) {
            let (position, varyings) = record.split_first_chunk_mut::<4>().expect("stride ≥ 4");
            self.shade_vertex(scratch, index, position, varyings);
        }
    }

    /// Varyings that back-facing triangles read from other varyings: for each pair,
    /// the fragments of a back-facing triangle get [`BackFaceVarying::back`]
    /// interpolated where they would get [`BackFaceVarying::varying`]. This is GL's
    /// two-sided colour selection (GL 2.1 §2.14.1, `GL_VERTEX_PROGRAM_TWO_SIDE`): the
    /// vertex stage outputs the front and the back colour, and the facing of the
    /// primitive picks one. Both indices must be below `varying_count()` (else the
    /// draw fails with [`DrawError::BackFaceVarying`](crate::DrawError)). Default:
    /// none, every triangle reads every varying as written.
    fn back_face_varyings(&self) -> &[BackFaceVarying] {
        &[]
    }

    /// How each varying is interpolated: entry `k` is varying `k`'s [`Interpolation`];
    /// varyings past the slice's end are [`Interpolation::Smooth`]. The slice may not
    /// be longer than `varying_count()` (else the draw fails with
    /// [`DrawError::Interpolation`](crate::DrawError)). Default: empty, every varying
    /// smooth.
    fn interpolation(&self) -> &[Interpolation] {
        &[]
    }

    /// Number of user clip distances (GL 3.0 §2.17: the enabled clip planes'
    /// `gl_ClipDistance`, or the plane equations applied to `gl_ClipVertex`): the
    /// **last** `clip_distance_count()` varyings of every vertex. The clipper keeps the
    /// part of each triangle where every one of them is `≥ 0` (a NaN distance is
    /// outside), the distances interpolated linearly in clip space like the position.
    /// They stay ordinary varyings otherwise (the fragment stage receives them). At most
    /// [`MAX_CLIP_DISTANCES`](crate::MAX_CLIP_DISTANCES) and at most `varying_count()`
    /// (else the draw fails with [`DrawError::ClipDistances`](crate::DrawError)).
    /// Default: 0, the view volume only.
    fn clip_distance_count(&self) -> usize {
        0
    }
}

/// How a varying's value at a fragment follows from its values at the triangle's
/// vertices: GLSL 1.30 §4.3.6's interpolation qualifiers (GL 3.0 §3.5.1 gives the
/// formulas, §2.14.7 the provoking vertex).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// Perspective-correct (`smooth`, the default): linear in clip space, with
    /// [`FragmentBatch::barycentric`].
    #[default]
    Smooth,
    /// Constant over the triangle (`flat`): the provoking vertex's value, bit for
    /// bit. The provoking vertex is the last vertex of the input triangle as the draw
    /// submitted it (GL 3.0 §2.14.7, "last vertex convention"); clipped pieces of a
    /// triangle keep their input triangle's.
    Flat,
    /// Linear in window space (`noperspective`), with
    /// [`FragmentBatch::screen_barycentric`]. A vertex made by clipping gets the value
    /// that is linear in window space along the clipped edge (GL 3.0 §2.20).
    NoPerspective,
}

/// One two-sided varying: see [`VertexStage::back_face_varyings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BackFaceVarying {
    /// The varying (index into a vertex's varyings) the fragment stage reads.
    pub varying: u16,
    /// The varying whose values a back-facing triangle's fragments get instead.
    pub back: u16,
}

/// Shades batches of fragments: of one triangle ([`FragmentStage::shade`]), or of
/// several small ones when the stage allows it
/// ([`FragmentStage::shades_several_triangles`]).
pub trait FragmentStage: Sync {
    /// Per-thread working memory.
    type Scratch: Send;

    /// Makes one worker's scratch (a few times per draw, never per batch).
    fn new_scratch(&self) -> Self::Scratch;

    /// Whether `shade` may set bits of `FragmentOutput::discard` (or otherwise needs its
    /// fragments' depth written only after it ran). When `false`, depth is tested *and
    /// written* before shading; when `true`, depth is still tested before shading (a
    /// discard can only remove fragments, so this is exact) but written afterwards, and
    /// only for fragments that were not discarded.
    fn may_discard(&self) -> bool;

    /// Whether the shader needs its fragments in whole 2×2 quads (it takes derivatives
    /// across them: GLSL's `dFdx`, `dFdy`, `fwidth`). When `true`, the rasterizer
    /// queues every quad (aligned to even window x and y) that has at least one
    /// covered fragment passing the early depth test as four consecutive lanes
    /// `4q .. 4q + 4` in the order (x0, y0), (x0 + 1, y0), (x0, y0 + 1),
    /// (x0 + 1, y0 + 1) (window y up), and marks the other lanes of such a quad
    /// [`FragmentBatch::helpers`]: their inputs are the triangle's planes evaluated
    /// at their pixel centres (extrapolated outside the triangle), they are shaded,
    /// and they never write colour or depth, whatever `shade` returns for them.
    /// Default: `false`, covered fragments only, in any order.
    fn needs_quads(&self) -> bool {
        false
    }

    /// Whether `shade` reads [`FragmentBatch::frag_coord`] (any of x, y, z, w). When
    /// `false` the rasterizer may leave x, y and w (`[0]`, `[1]`, `[3]`) holding
    /// anything, and z (`[2]`) too in a draw without a depth test; with one, z is
    /// always set. Default: `true`.
    fn reads_frag_coord(&self) -> bool {
        true
    }

    /// Whether `shade` reads [`FragmentBatch::screen_barycentric`] itself. The
    /// [`Triangle`] interpolation methods do not count: the rasterizer fills the
    /// screen barycentrics whenever a varying is [`Interpolation::NoPerspective`].
    /// When `false` (and no varying is noperspective) they may hold anything.
    /// Default: `true`.
    fn reads_screen_barycentric(&self) -> bool {
        true
    }

    /// Whether the stage can shade one batch holding the fragments of several
    /// triangles: it interpolates each triangle's lanes into its scratch as the
    /// rasterizer finishes that triangle ([`FragmentStage::interpolate_lanes`]), then
    /// shades the whole batch at once ([`FragmentStage::shade_interpolated`]). The
    /// rasterizer batches small triangles this way (one shader run per 64 lanes
    /// instead of one per triangle) only where it is exact (`rasterize.rs`). Default:
    /// `false`, one [`FragmentStage::shade`] per triangle's batch.
    fn shades_several_triangles(&self) -> bool {
        false
    }

    /// Interpolates `triangle`'s varyings for the lanes `lanes` of `batch` (whose
    /// barycentrics are filled there) into the scratch, with exactly the arithmetic
    /// [`FragmentStage::shade`] would use. Called only when
    /// [`FragmentStage::shades_several_triangles`]; the default does nothing.
    fn interpolate_lanes(
        &self,
        _scratch: &mut Self::Scratch,
        _triangle: &Triangle<'_>,
        _batch: &FragmentBatch,
        _lanes: Range<usize>,
    ) {
    }

    /// Shades lanes `0..batch.len` whose varyings [`FragmentStage::interpolate_lanes`]
    /// filled, every lane with `gl_FrontFacing` = `front_facing` (the rasterizer never
    /// mixes facings in one batch), and writes their colour and discard bits into
    /// `out` as [`FragmentStage::shade`] does. The padding lanes up to
    /// `batch.padded_len()` hold copies of the last lane's inputs; the stage copies
    /// that lane's varyings into them. Called only when
    /// [`FragmentStage::shades_several_triangles`]; the default does nothing.
    fn shade_interpolated(
        &self,
        _scratch: &mut Self::Scratch,
        _front_facing: bool,
        _batch: &FragmentBatch,
        _out: &mut FragmentOutput,
    ) {
    }

    /// Shades lanes `0..batch.len` (it may also compute the padding lanes up to
    /// `batch.padded_len()`; those results are ignored) and writes their colour and
    /// discard bits into `out`. `out.discard` is empty on entry.
    fn shade(
        &self,
        scratch: &mut Self::Scratch,
        triangle: &Triangle<'_>,
        batch: &FragmentBatch,
        out: &mut FragmentOutput,
    );
}

/// The triangle a batch belongs to, as the fragment stage sees it.
#[derive(Clone, Copy, Debug)]
pub struct Triangle<'a> {
    /// Varyings of the triangle's three (post-clip) vertices, each of length
    /// `varying_count()`, in the order of `FragmentBatch::barycentric`.
    pub varyings: [&'a [f32]; 3],
    /// `gl_FrontFacing`: counter-clockwise in window space.
    pub front_facing: bool,
    /// Which input triangle of the draw this came from (`0..triangle count`); clipped
    /// pieces of one triangle share it.
    pub primitive: u32,
    /// The draw's two-sided varyings ([`VertexStage::back_face_varyings`]), applied by
    /// the interpolation methods when the triangle is back-facing.
    pub back_face: &'a [BackFaceVarying],
    /// Varyings of the input triangle's provoking vertex (its last), which
    /// [`Interpolation::Flat`] varyings take; the same length as `varyings[i]`.
    pub provoking: &'a [f32],
    /// The draw's [`VertexStage::interpolation`]: entry `k` for varying `k`, smooth
    /// past the end.
    pub interpolation: &'a [Interpolation],
}

impl Triangle<'_> {
    /// Number of varyings per vertex.
    pub fn varying_count(&self) -> usize {
        self.varyings[0].len()
    }

    /// The varying whose vertex values varying `k` interpolates: `k` itself, or for a
    /// back-facing triangle its [`BackFaceVarying::back`].
    #[inline]
    pub fn source_of(&self, k: usize) -> usize {
        if self.front_facing {
            return k;
        }
        self.back_face
            .iter()
            .find(|p| usize::from(p.varying) == k)
            .map_or(k, |p| usize::from(p.back))
    }

    /// Varying `k`'s values at the three vertices (after the back-face substitution).
    #[inline]
    fn vertex_values(&self, k: usize) -> [f32; 3] {
        let j = self.source_of(k);
        let [v0, v1, v2] = self.varyings;
        [v0[j], v1[j], v2[j]]
    }

    /// Varying `k`'s [`Interpolation`].
    #[inline]
    pub fn interpolation_of(&self, k: usize) -> Interpolation {
        self.interpolation.get(k).copied().unwrap_or_default()
    }

    /// Varying `k` for lanes `0..batch.padded_len()` of `dst`, as its interpolation
    /// says: the provoking vertex's value, or `interpolate_one` with the
    /// perspective-correct or the window-space barycentrics.
    #[inline]
    fn fill_varying(&self, batch: &FragmentBatch, k: usize, dst: &mut LaneArray) {
        self.fill_varying_lanes(batch, k, dst, 0..batch.padded_len());
    }

    /// [`Triangle::fill_varying`] for the lanes `lanes` only (each lane's value
    /// depends on that lane's barycentrics alone).
    #[inline]
    fn fill_varying_lanes(
        &self,
        batch: &FragmentBatch,
        k: usize,
        dst: &mut LaneArray,
        lanes: Range<usize>,
    ) {
        let weights = match self.interpolation_of(k) {
            Interpolation::Flat => {
                dst[lanes].fill(self.provoking[self.source_of(k)]);
                return;
            }
            Interpolation::Smooth => &batch.barycentric,
            Interpolation::NoPerspective => &batch.screen_barycentric,
        };
        let vertex_values = self.vertex_values(k);
        let [_, b1, b2] = weights;
        // Sliced to the range first: a loop without bounds checks, vectorized.
        let (b1, b2) = (&b1[lanes.clone()], &b2[lanes.clone()]);
        for ((d, &u), &v) in dst[lanes].iter_mut().zip(b1).zip(b2) {
            *d = interpolate_one(vertex_values, u, v);
        }
    }

    /// Interpolates every varying for lanes `0..batch.padded_len()`, each as its
    /// [`Interpolation`] says; a smooth one perspective-correctly:
    /// `out[k][lane] = v0[k] + b1·(v1[k] − v0[k]) + b2·(v2[k] − v0[k])` (see
    /// `interpolate_one`: a varying equal at the three vertices comes out exactly).
    /// A back-facing triangle's two-sided varyings read their back values
    /// ([`Triangle::back_face`]).
    /// Fills `out[k]` for `k` below both `out.len()` and `varying_count()` (a stage
    /// that reads fewer varyings than the vertex stage outputs passes fewer arrays).
    pub fn interpolate(&self, batch: &FragmentBatch, out: &mut [LaneArray]) {
        for (k, dst) in out.iter_mut().take(self.varying_count()).enumerate() {
            self.fill_varying(batch, k, dst);
        }
    }

    /// [`Triangle::interpolate`] for the varyings `k` whose bit `k` is set in `which`
    /// only (the others in `out` are left as they are), with the same arithmetic.
    /// Fills `out[k]` for `k` below both `out.len()` and `varying_count()` (a stage
    /// that reads fewer varyings than the vertex stage outputs passes fewer arrays).
    pub fn interpolate_selected(&self, batch: &FragmentBatch, which: u64, out: &mut [LaneArray]) {
        for (k, dst) in out.iter_mut().take(self.varying_count()).enumerate() {
            if k < 64 && which & (1 << k) != 0 {
                self.fill_varying(batch, k, dst);
            }
        }
    }

    /// [`Triangle::interpolate_selected`] for the lanes `lanes` of `batch` only (the
    /// other lanes of `out` are left as they are), with the same arithmetic: a batch
    /// holding several triangles' fragments gets each triangle's lanes this way.
    pub fn interpolate_selected_lanes(
        &self,
        batch: &FragmentBatch,
        which: u64,
        out: &mut [LaneArray],
        lanes: Range<usize>,
    ) {
        for (k, dst) in out.iter_mut().take(self.varying_count()).enumerate() {
            if k < 64 && which & (1 << k) != 0 {
                self.fill_varying_lanes(batch, k, dst, lanes.clone());
            }
        }
    }

    /// Interpolates every varying for one lane into `out` (as many as it holds, up to
    /// `varying_count()`), with the same arithmetic as [`Triangle::interpolate`].
    pub fn interpolate_lane(&self, batch: &FragmentBatch, lane: usize, out: &mut [f32]) {
        for (k, dst) in out.iter_mut().take(self.varying_count()).enumerate() {
            let weights = match self.interpolation_of(k) {
                Interpolation::Flat => {
                    *dst = self.provoking[self.source_of(k)];
                    continue;
                }
                Interpolation::Smooth => &batch.barycentric,
                Interpolation::NoPerspective => &batch.screen_barycentric,
            };
            *dst = interpolate_one(self.vertex_values(k), weights[1][lane], weights[2][lane]);
        }
    }
}

/// One varying at one fragment from its three vertex values and the fragment's
/// perspective-correct barycentrics `b1`, `b2` of vertices 1 and 2, as a plane
/// anchored at vertex 0: `v0 + b1·(v1 − v0) + b2·(v2 − v0)`.
///
/// Anchoring at a vertex (as a GPU's attribute plane equations `a0 + dadx·x + dady·y`
/// do) makes a varying that is the same at all three vertices come out exactly that
/// value whatever the barycentrics: the differences are 0. The symmetric
/// `b0·v0 + b1·v1 + b2·v2` rounds a constant 13.0 to 12.999999 where the weights do not
/// sum to exactly 1, and `equal()` on it then fails (piglit's
/// `fs-equal-of-expression`).
#[inline(always)]
pub fn interpolate_one(v: [f32; 3], b1: f32, b2: f32) -> f32 {
    v[0] + b1 * (v[1] - v[0]) + b2 * (v[2] - v[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolation_weights_vertices() {
        let (v0, v1, v2) = ([1.0, 10.0], [2.0, 20.0], [4.0, 40.0]);
        let tri = Triangle {
            varyings: [&v0, &v1, &v2],
            front_facing: true,
            primitive: 0,
            back_face: &[],
            provoking: &v2,
            interpolation: &[],
        };
        let mut batch = FragmentBatch {
            len: 2,
            ..FragmentBatch::default()
        };
        batch.barycentric[0][0] = 1.0;
        batch.barycentric[0][1] = 0.25;
        batch.barycentric[1][1] = 0.25;
        batch.barycentric[2][1] = 0.5;
        let mut out = [[0.0; crate::MAX_LANES]; 2];
        tri.interpolate(&batch, &mut out);
        assert_eq!((out[0][0], out[1][0]), (1.0, 10.0));
        assert_eq!((out[0][1], out[1][1]), (2.75, 27.5));
        let mut lane = [0.0; 2];
        tri.interpolate_lane(&batch, 1, &mut lane);
        assert_eq!(lane, [2.75, 27.5]);
        let mut some = [[-1.0; crate::MAX_LANES]; 2];
        tri.interpolate_selected(&batch, 0b10, &mut some);
        assert_eq!((some[0][1], some[1][1]), (-1.0, 27.5));
    }

    #[test]
    fn back_facing_triangles_read_the_back_varyings() {
        // Varyings: front colour (0), back colour (1), an ordinary varying (2).
        let (v0, v1, v2) = ([1.0, 10.0, 5.0], [2.0, 20.0, 6.0], [4.0, 40.0, 7.0]);
        let pairs = [BackFaceVarying {
            varying: 0,
            back: 1,
        }];
        let mut batch = FragmentBatch {
            len: 1,
            ..FragmentBatch::default()
        };
        batch.barycentric[0][0] = 0.25;
        batch.barycentric[1][0] = 0.25;
        batch.barycentric[2][0] = 0.5;
        for front_facing in [true, false] {
            let tri = Triangle {
                varyings: [&v0, &v1, &v2],
                front_facing,
                primitive: 0,
                back_face: &pairs,
                provoking: &v2,
                interpolation: &[],
            };
            let want = if front_facing {
                [2.75, 27.5, 6.25]
            } else {
                [27.5, 27.5, 6.25]
            };
            let mut out = [[0.0; crate::MAX_LANES]; 3];
            tri.interpolate(&batch, &mut out);
            assert_eq!([out[0][0], out[1][0], out[2][0]], want);
            let mut some = [[-1.0; crate::MAX_LANES]; 3];
            tri.interpolate_selected(&batch, 0b101, &mut some);
            assert_eq!(
                [some[0][0], some[1][0], some[2][0]],
                [want[0], -1.0, want[2]]
            );
            let mut lane = [0.0; 3];
            tri.interpolate_lane(&batch, 0, &mut lane);
            assert_eq!(lane, want);
            assert_eq!(tri.source_of(0), if front_facing { 0 } else { 1 });
            assert_eq!(tri.source_of(2), 2);
        }
    }

    #[test]
    fn a_varying_equal_at_the_vertices_interpolates_exactly() {
        // piglit fs-equal-of-expression: 13.0 at every vertex must stay 13.0 however the
        // perspective-correct weights round (the symmetric weighted sum gives
        // 12.999999 for some of these).
        let mut symmetric_was_inexact = false;
        for i in 0..=64 {
            for j in 0..=(64 - i) {
                let b1 = i as f32 / 64.0 * 0.999_7;
                let b2 = j as f32 / 64.0 * 1.000_3;
                let b0 = 1.0 - b1 - b2;
                for v in [13.0f32, -0.1, 38.2, 1.0e-3] {
                    assert_eq!(interpolate_one([v; 3], b1, b2), v, "b = ({b1}, {b2})");
                    symmetric_was_inexact |= b0 * v + b1 * v + b2 * v != v;
                }
            }
        }
        assert!(
            symmetric_was_inexact,
            "the grid exercises weights that round"
        );
    }
}
