//! Rasterizing one tile: walk its bin's triangles in submission order, find covered
//! pixels block by block, test depth before shading, shade in batches, then write
//! depth and blended colour.
//!
//! Per triangle and tile, covered pixels of 8×8 blocks are appended to a batch of up
//! to `MAX_LANES` fragments (a full block fills one batch exactly); the batch is shaded
//! when the next block would not fit and when the triangle is done (or, batching
//! several triangles as below, when it is full or would take a pixel twice). A pixel
//! appears at most once per triangle, so testing depth for the whole batch before any
//! of it is written is exact, and the depth test can always run before shading: a
//! discard only removes fragments. What `may_discard` changes is when depth is
//! *written*: before shading when nothing can be discarded, afterwards (for surviving
//! fragments only) otherwise.
//!
//! Small triangles cover a few pixels each, so one shader run per triangle would
//! shade a handful of lanes. Where the stage allows it
//! ([`FragmentStage::shades_several_triangles`]) and the draw needs no quads and no
//! trace, a batch instead gathers the fragments of consecutive small triangles (whose
//! rectangle in the tile holds at most `SEVERAL_MAX_PIXELS`; a larger triangle shades
//! the pending batch first and then fills batches of its own): each triangle's lanes
//! get their barycentrics and varyings when the triangle ends, and the shader runs
//! once per full batch. This is exact because the batch never holds
//! a pixel twice (a block whose covered pixels meet the batch's flushes it first) and
//! never mixes facings: every depth test, blend gather and write touches pixels no
//! other lane of the batch touches, so the order in which pixels are tested and
//! written does not matter; each pixel still sees the triangles in submission order.

use crate::barycentric::{BarycentricPlanes, BatchInputs};
use crate::batch::{FragmentBatch, FragmentOutput, LaneArray, LaneMask, MAX_LANES};
use crate::blend::{
    blend, blend_dual, blend_lanes, blend_row_from_float, mask_lanes, masked, pack_unorm8,
};
use crate::blend_dual::blend_dual_lanes;
use crate::coverage::{BLOCK_SIZE, block_mask_rows, low_bits, rect_mask};

const BLOCK: usize = BLOCK_SIZE as usize;
use crate::depth::quantize_depth;
use crate::depth_bound::{block_fails, block_max, block_of_pixel, block_of_storage};
use crate::setup::SetupTriangle;
use crate::stage::{BackFaceVarying, FragmentStage, Interpolation, Triangle};
use crate::state::{BlendMode, DepthTest, RasterState, StencilState};
use crate::stencil::{StencilTrace, stencil_row};
use crate::target_format::ColorTarget;
use crate::tile::{PixelRect, TILE_SIZE, Tile, storage_index};
use crate::trace::{BlendTrace, DepthTrace, Observer, QuadTrace, TraceEvent};
use crate::vertex::VertexBuffer;

/// Everything shared by the tiles of one draw.
pub(crate) struct DrawContext<'a, F> {
    pub triangles: &'a [SetupTriangle],
    pub vertices: &'a VertexBuffer,
    pub stage: &'a F,
    pub state: RasterState,
    /// The vertex stage's two-sided varyings (checked against the varying count).
    pub back_face: &'a [BackFaceVarying],
    /// The vertex stage's interpolation of each varying (checked against the count).
    pub interpolation: &'a [Interpolation],
    /// Depth is written when the test passes, before shading.
    pub early_depth_write: bool,
    /// Depth is written after shading, for fragments not discarded.
    pub late_depth_write: bool,
    /// The stage needs whole 2×2 quads ([`FragmentStage::needs_quads`]).
    pub quads: bool,
    /// The optional batch inputs to fill: `frag_coord` x, y, w when the stage reads
    /// them ([`FragmentStage::reads_frag_coord`]), screen barycentrics when the stage
    /// reads them or a varying is noperspective.
    pub inputs: BatchInputs,
    /// Batches may hold several triangles (the module doc): the stage can, and the
    /// draw needs no quads.
    pub several: bool,
    /// [`RasterState::color_write_bits`]: the bytes of a pixel a fragment writes.
    pub color_bits: u32,
    /// Some channel is masked (`color_bits` is not every byte): the colour write
    /// merges the stored bytes back, a step the unmasked draws skip.
    pub masks_color: bool,
    /// The stencil test ([`RasterState::stencil`]): each block row's stencil step
    /// ([`TileRaster::stencil_step`]) runs only when this is set.
    pub stencil: Option<StencilState>,
    /// The stencil `pass` op waits until after shading (the stage may discard: a
    /// discarded fragment must not update the stencil buffer by passing).
    pub late_stencil: bool,
    /// `depth_clamp`'s range `[min, max]` of the depth range, or `None`: fragment
    /// depths are clamped to it before the depth test (GL 3.3 §2.20).
    pub depth_clamp: Option<[f64; 2]>,
    /// The block-wise depth-bound rejection may run ([`TileRaster::block_fails_depth`]):
    /// the test is `less` or `lequal`, and no stencil op needs the failing fragments.
    pub bound_test: bool,
    /// Neither a depth nor a stencil test: a fully covered block is queued whole.
    pub untested: bool,
    /// The framebuffer's target when it is wide (`target_format.rs`): every batch
    /// is then written by [`TileRaster::resolve_wide`] instead of the RGBA8 path.
    pub wide: Option<ColorTarget>,
    /// The blend reads the second source colour ([`crate::BlendFunction::reads_src1`],
    /// dual-source blending): an RGBA8 target's batches are blended from
    /// [`FragmentOutput::color1`] as well, all lanes at once (`blend_dual.rs`).
    pub dual_source: bool,

    /// Where fragments are shaded relative to the (shifted) pixel centres: minus
    /// [`RasterState::sample_offset`], so a multisampled draw's sample pass shades at
    /// the real pixel centre (`[0, 0]` single-sampled).
    pub shading_shift: [i64; 2],
}

impl<'a, F: FragmentStage> DrawContext<'a, F> {
    pub fn new(
        triangles: &'a [SetupTriangle],
        vertices: &'a VertexBuffer,
        stage: &'a F,
        state: RasterState,
        back_face: &'a [BackFaceVarying],
        interpolation: &'a [Interpolation],
    ) -> Self {
        let writes = state.writes_depth();
        let may_discard = stage.may_discard();
        DrawContext {
            triangles,
            vertices,
            stage,
            state,
            back_face,
            interpolation,
            early_depth_write: writes && !may_discard,
            late_depth_write: writes && may_discard,
            quads: stage.needs_quads(),
            inputs: BatchInputs {
                frag_coord: stage.reads_frag_coord(),
                screen_barycentric: stage.reads_screen_barycentric()
                    || interpolation.contains(&Interpolation::NoPerspective),
            },
            several: stage.shades_several_triangles() && !stage.needs_quads(),
            color_bits: state.color_write_bits(),
            masks_color: state.color_write_bits() != u32::MAX,
            stencil: state.stencil,
            late_stencil: state.stencil.is_some() && may_discard,
            depth_clamp: state.depth_clamp.then(|| {
                let [n, f] = state.depth_range.map(f64::from);
                [n.min(f), n.max(f)]
            }),
            bound_test: matches!(state.depth_test, DepthTest::Less | DepthTest::LessEqual)
                && state.stencil.is_none(),
            untested: !state.depth_test.is_enabled() && state.stencil.is_none(),
            wide: None,
            dual_source: matches!(state.blend, BlendMode::Function(f) if f.reads_src1()),

            shading_shift: state.sample_offset.map(|o| -i64::from(o)),
        }
    }

    /// Draws into a framebuffer whose colour target is `target`: an RGBA8-stored
    /// `r8` or `rg8` writes only its channels (joined to the colour mask), a wide
    /// target goes through [`TileRaster::resolve_wide`].
    pub fn set_target(&mut self, target: ColorTarget) {
        self.color_bits &= target.channel_bits();
        self.masks_color = self.color_bits != u32::MAX;
        self.wide = target.is_wide().then_some(target);
    }
}

/// Fragment counts of a tile (and, summed, of a draw).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct FragmentCounts {
    pub covered: u64,
    pub depth_failed: u64,
    pub shaded: u64,
    pub discarded: u64,
    pub written: u64,
}

impl FragmentCounts {
    pub fn add(mut self, o: FragmentCounts) -> Self {
        self.covered += o.covered;
        self.depth_failed += o.depth_failed;
        self.shaded += o.shaded;
        self.discarded += o.discarded;
        self.written += o.written;
        self
    }
}

/// One worker thread's reusable memory: the shader's scratch and the batch buffers.
pub(crate) struct TileWorker<S> {
    scratch: S,
    batch: Box<FragmentBatch>,
    output: Box<FragmentOutput>,
    /// 24-bit depth of each lane.
    depth: Box<[u32; MAX_LANES]>,
    /// Each lane's colour converted to RGBA8 (bytes R, G, B, A in memory order).
    rgba: Box<[u32; MAX_LANES]>,
    /// Each lane's stored colour, then the blend result (same packing as `rgba`).
    dst: Box<[u32; MAX_LANES]>,
    /// Each lane's second source colour converted to RGBA8, for a dual-source blend
    /// (same packing as `rgba`).
    rgba1: Box<[u32; MAX_LANES]>,
    /// Each lane's pixel as a tile storage index (`storage_index`), set when queued.
    index: Box<[u32; MAX_LANES]>,
    /// The batch is one whole block queued by `queue_whole_block`: lanes `8r..8r + 8`
    /// are the block's row `r`, left to right.
    whole_block: bool,
    /// Batching several triangles: the pixels in the batch, per block of the tile
    /// (`block_of_pixel`; bit `row · 8 + column` as in a block mask).
    queued: Box<[u64; BLOCKS_PER_TILE]>,
    /// The blocks with bits in `queued` (bit = block).
    queued_blocks: u64,
    /// Batching several triangles: the first lane of the current triangle (lanes
    /// below have their barycentrics and varyings).
    segment: usize,
    /// Batching several triangles: the facing of every lane in the batch.
    front_facing: bool,
}

/// Blocks per tile: one bit each in a `u64`.
const BLOCKS_PER_TILE: usize = ((TILE_SIZE / BLOCK_SIZE) * (TILE_SIZE / BLOCK_SIZE)) as usize;
const _: () = assert!(BLOCKS_PER_TILE == 64);

impl<S> TileWorker<S> {
    pub fn new(scratch: S) -> Self {
        TileWorker {
            scratch,
            batch: Box::default(),
            output: Box::default(),
            depth: Box::new([0; MAX_LANES]),
            rgba: Box::new([0; MAX_LANES]),
            dst: Box::new([0; MAX_LANES]),
            rgba1: Box::new([0; MAX_LANES]),
            index: Box::new([0; MAX_LANES]),
            whole_block: false,
            queued: Box::new([0; BLOCKS_PER_TILE]),
            queued_blocks: 0,
            segment: 0,
            front_facing: true,
        }
    }
}

/// Converts every lane's colour to RGBA8 packed in a `u32` (bytes R, G, B, A in memory
/// order). All `MAX_LANES` lanes, with no aliasing between input and output, so the
/// loop vectorizes across lanes; unused lanes convert whatever they hold.
fn pack_rgba8(color: &[LaneArray; 4], out: &mut [u32; MAX_LANES]) {
    let [r, g, b, a] = color;
    for lane in 0..MAX_LANES {
        out[lane] = pack_unorm8(r[lane], g[lane], b[lane], a[lane]);
    }
}

/// Which of 8 fragments with 24-bit depths `depth` pass `test` against `stored`, as
/// bits (the comparison is chosen once per row, so each arm is a loop that vectorizes).
#[inline(always)]
fn depth_mask(test: DepthTest, depth: &[u32; BLOCK], stored: &[u32; BLOCK]) -> u8 {
    #[inline(always)]
    fn compare(depth: &[u32; BLOCK], stored: &[u32; BLOCK], op: impl Fn(u32, u32) -> bool) -> u8 {
        let mut bits = 0u8;
        for c in 0..BLOCK {
            bits |= u8::from(op(depth[c], stored[c])) << c;
        }
        bits
    }
    match test {
        DepthTest::Disabled | DepthTest::Always => 0xff,
        DepthTest::Never => 0,
        DepthTest::Less => compare(depth, stored, |f, s| f < s),
        DepthTest::LessEqual => compare(depth, stored, |f, s| f <= s),
        DepthTest::Greater => compare(depth, stored, |f, s| f > s),
        DepthTest::GreaterEqual => compare(depth, stored, |f, s| f >= s),
        DepthTest::Equal => compare(depth, stored, |f, s| f == s),
        DepthTest::NotEqual => compare(depth, stored, |f, s| f != s),
    }
}

/// The storage index of lane `lane` if lanes `lane..lane + 8` (all below `len`) are 8
/// neighbouring pixels of one tile row, as `queue_row` adds a fully covered block row:
/// then their colours move as one 8-pixel copy.
#[inline(always)]
fn row_run(index: &[u32; MAX_LANES], len: usize, lane: usize) -> Option<usize> {
    if lane + BLOCK > len {
        return None;
    }
    let first = index[lane];
    let run: &[u32; BLOCK] = index[lane..lane + BLOCK].try_into().unwrap();
    let mut same = true;
    for (k, &i) in run.iter().enumerate() {
        same &= i == first.wrapping_add(k as u32);
    }
    same.then_some(first as usize)
}

/// Keeps the bound of the block holding storage index `index` above a late depth write
/// of `value` there (`depth_bound.rs`).
#[inline(always)]
fn raise_depth_bound(bound: &mut [u32], index: usize, value: u32) {
    let b = &mut bound[block_of_storage(index)];
    *b = (*b).max(value);
}

/// The 2×2 quads of an 8×8 block mask (bit `row·8 + column`) with at least one pixel
/// set, as 16 bits: bit `qx + 4·qy` for the quad at columns `2qx, 2qx + 1` and rows
/// `2qy, 2qy + 1`.
fn quad_mask(mask: u64) -> u16 {
    // Fold each row pair, then each column pair, onto the quad's lower-left pixel.
    let rows = (mask | mask >> BLOCK_SIZE) & 0x00ff_00ff_00ff_00ff;
    let cols = (rows | rows >> 1) & 0x0055_0055_0055_0055;
    let mut quads = 0u16;
    for q in 0..16 {
        let (qx, qy) = (q % 4, q / 4);
        if cols & (1 << (2 * qy * BLOCK_SIZE + 2 * qx)) != 0 {
            quads |= 1 << q;
        }
    }
    quads
}

/// The quad of batch lane `lane` (lanes `lane & !3 ..`), for the observer.
fn quad_trace(batch: &FragmentBatch, lane: usize) -> QuadTrace {
    let first = lane & !3;
    let at = |k: usize| first + k;
    QuadTrace {
        lane: lane - first,
        pixels: std::array::from_fn(|k| [batch.pixel_x[at(k)], batch.pixel_y[at(k)]]),
        helpers: std::array::from_fn(|k| batch.helpers.contains(at(k))),
        frag_coord: std::array::from_fn(|k| std::array::from_fn(|c| batch.frag_coord[c][at(k)])),
        barycentric: std::array::from_fn(|k| std::array::from_fn(|i| batch.barycentric[i][at(k)])),
        screen_barycentric: std::array::from_fn(|k| {
            std::array::from_fn(|i| batch.screen_barycentric[i][at(k)])
        }),
    }
}

/// One block row's depth test: the covered pixels, those that passed, window depth
/// `z`, its 24-bit value and the stored value it was compared with (0 without a test).
#[derive(Clone, Copy)]
struct RowDepth {
    covered: u8,
    passed: u8,
    z: [f64; BLOCK],
    depth: [u32; BLOCK],
    stored: [u32; BLOCK],
    /// The stencil step's result (all zero without a stencil test).
    stencil: RowStencil,
}

/// One block row's stencil test: the stored values before it and which covered
/// pixels passed it.
#[derive(Clone, Copy, Default)]
struct RowStencil {
    before: [u8; BLOCK],
    passed: u8,
}

/// The triangle being rasterized in the current tile.
struct Current<'a> {
    setup: &'a SetupTriangle,
    planes: BarycentricPlanes,
    triangle: Triangle<'a>,
}

/// Rasterizes the triangles `bin` (indices into `ctx.triangles`, in submission order)
/// into `tile`.
pub(crate) fn rasterize_tile<F: FragmentStage, O: Observer>(
    ctx: &DrawContext<'_, F>,
    worker: &mut TileWorker<F::Scratch>,
    tile: &mut Tile,
    bin: &[u32],
    observer: &mut O,
) -> FragmentCounts {
    let rect = tile.rect;
    let pixels = tile.pixels_mut(ctx.state.depth_test.is_enabled(), ctx.stencil.is_some());
    let mut raster = TileRaster {
        ctx,
        worker,
        rect,
        color: pixels.color,
        depth: pixels.depth,
        depth_bound: pixels.depth_bound,
        stencil: pixels.stencil,
        wide: pixels.wide,
        observer,
        counts: FragmentCounts::default(),
        batching: false,
        stale_bounds: 0,
    };
    for &index in bin {
        raster.triangle(&ctx.triangles[index as usize]);
    }
    if raster.batching {
        raster.shade_batch();
    }
    raster.refresh_stale_bounds(u64::MAX);
    raster.counts
}

struct TileRaster<'c, 'w, 't, 'o, F: FragmentStage, O> {
    ctx: &'c DrawContext<'c, F>,
    worker: &'w mut TileWorker<F::Scratch>,
    /// The tile's pixels in window space.
    rect: PixelRect,
    /// The tile's colour and depth storage (see `storage_index`).
    color: &'t mut [[u8; 4]],
    depth: &'t mut [u32],
    /// Upper bound of each block's stored depth (`depth_bound.rs`; empty without depth).
    depth_bound: &'t mut [u32],
    /// The tile's 8-bit stencil values (empty without a stencil test).
    stencil: &'t mut [u8],
    /// A wide target's words (`target_format.rs`; empty for an RGBA8 target).
    wide: &'t mut [[u32; 4]],
    observer: &'o mut O,
    counts: FragmentCounts,
    /// The current triangle's fragments join a batch of several triangles (the
    /// module doc): the draw allows it, nothing is traced, and the triangle is small
    /// ([`SEVERAL_MAX_PIXELS`]).
    batching: bool,
    /// Blocks (bit = block, as `block_of_pixel`) with early depth writes since their
    /// bound was last recomputed: each is recomputed when a test next reads it and
    /// when the tile ends ([`TileRaster::refresh_stale_bounds`]), not after every
    /// triangle that writes there (a block of small triangles took ~30 recomputations
    /// of its 64-depth maximum where one serves). The rule of `depth_bound.rs` holds
    /// meanwhile: a draw has one depth test, and only `less` / `lequal` read the
    /// bound, whose passing writes only lower stored depths, so a stale bound is
    /// still above them all. A test raising stored depths (`greater`, `always`) is
    /// another draw, which the refresh at the tile's end keeps correct.
    stale_bounds: u64,
}

/// Triangles whose rectangle in the tile holds at most this many pixels (one block's
/// worth) share shader batches when the draw allows it; larger ones fill batches of
/// their own, whose full-batch barycentric and varying loops are faster than the
/// per-triangle lane ranges (blend16: 96 against 113 CPU ms per frame at 1 thread).
const SEVERAL_MAX_PIXELS: u32 = 64;

impl<'c, F: FragmentStage, O: Observer> TileRaster<'c, '_, '_, '_, F, O> {
    /// Whether the current triangle's fragments join a batch of several triangles.
    #[inline(always)]
    fn several(&self) -> bool {
        !O::ENABLED && self.batching
    }

    fn triangle(&mut self, setup: &'c SetupTriangle) {
        // `PixelRect::intersect` spelled out: called out of line (another module),
        // it read the just-built bounding box back from the stack with wider loads
        // than the stores that wrote it (a store-forwarding stall per triangle).
        let (b, t) = (setup.bbox(), self.rect);
        let rect = PixelRect {
            x0: b.x0.max(t.x0),
            y0: b.y0.max(t.y0),
            x1: b.x1.min(t.x1),
            y1: b.y1.min(t.y1),
        };
        if rect.is_empty() {
            return;
        }
        let small = (rect.x1 - rect.x0) * (rect.y1 - rect.y0) <= SEVERAL_MAX_PIXELS;
        let batching = !O::ENABLED && self.ctx.several && small;
        if self.batching && !batching {
            // A large triangle after small ones: their batch is shaded first.
            self.shade_batch();
        }
        self.batching = batching;
        if self.several() {
            if self.worker.batch.len != 0 && self.worker.front_facing != setup.front_facing {
                self.shade_batch();
            }
            self.worker.front_facing = setup.front_facing;
        }
        let align = |v: u32| v - v % BLOCK_SIZE;
        let (bx0, by0) = (align(rect.x0), align(rect.y0));
        if rect.x1 - bx0 <= BLOCK_SIZE && rect.y1 - by0 <= BLOCK_SIZE {
            // The rectangle lies in one block (a small triangle's usual case): its
            // coverage first, so that a triangle covering no pixel centre (common at
            // one or two pixels of area) builds no planes and ends no batch segment
            // (with no lanes queued, both would leave everything as it is).
            let rows = rect.y0 - by0..rect.y1 - by0;
            let mask = block_mask_rows(&setup.edges, bx0, by0, rows) & rect_mask(&rect, bx0, by0);
            if mask == 0 {
                return;
            }
            let current = self.current(setup, &rect);
            self.block(&current, mask, bx0, by0);
            self.end_triangle(&current);
            return;
        }
        let current = self.current(setup, &rect);
        for by in (by0..rect.y1).step_by(BLOCK_SIZE as usize) {
            // The block rows inside the rectangle: the only ones tested per pixel.
            let rows = rect.y0.saturating_sub(by)..(rect.y1 - by).min(BLOCK_SIZE);
            for bx in (bx0..rect.x1).step_by(BLOCK_SIZE as usize) {
                let mask = block_mask_rows(&setup.edges, bx, by, rows.clone());
                if mask != 0 {
                    self.block(&current, mask & rect_mask(&rect, bx, by), bx, by);
                }
            }
        }
        self.end_triangle(&current);
    }

    /// The triangle `setup` rasterized in `rect`: its barycentric planes anchored at
    /// the rectangle's corner, and the stage's view of it.
    #[inline(always)]
    fn current(&self, setup: &'c SetupTriangle, rect: &PixelRect) -> Current<'c> {
        Current {
            setup,
            planes: BarycentricPlanes::new(setup, rect.x0, rect.y0, self.ctx.shading_shift),
            triangle: Triangle {
                varyings: setup.vertices.map(|id| self.ctx.vertices.varyings(id)),
                front_facing: setup.front_facing,
                primitive: setup.primitive,
                back_face: self.ctx.back_face,
                provoking: self.ctx.vertices.varyings(setup.provoking),
                interpolation: self.ctx.interpolation,
            },
        }
    }

    /// After the current triangle's blocks: its batch segment ends (several
    /// triangles per batch) or its batch is shaded.
    #[inline(always)]
    fn end_triangle(&mut self, current: &Current<'_>) {
        if self.several() {
            self.end_segment(current);
        } else {
            self.flush(current);
        }
    }

    /// Depth-tests the covered pixels `mask` of the block at `(bx, by)` and queues the
    /// survivors for shading, one block row (8 pixels, contiguous in the tile) at a time;
    /// with quads, whole 2×2 quads ([`TileRaster::block_quads`]).
    fn block(&mut self, cur: &Current<'_>, mask: u64, bx: u32, by: u32) {
        let count = mask.count_ones() as usize;
        if count == 0 {
            return;
        }
        // A small triangle (one batched with others) skips the whole-block test: it
        // covers a few pixels of the block, whose per-pixel tests cost about what
        // the bound's test does, and over the whole 8×8 block its depth plane's
        // minimum rarely clears the bound anyway. The test is only a shortcut (it
        // rejects exactly fragments the per-pixel test fails), so skipping it
        // changes no output and no count.
        if !O::ENABLED && !self.batching && self.block_fails_depth(cur, bx, by) {
            // Exactly what the per-pixel test would count; nothing is queued or written.
            self.counts.covered += count as u64;
            self.counts.depth_failed += count as u64;
            return;
        }
        if self.ctx.quads {
            self.block_quads(cur, mask, bx, by);
            return;
        }
        if self.worker.batch.len + count > MAX_LANES || self.meets_batch(mask, bx, by) {
            self.flush(cur);
        }
        if self.several() {
            let block = block_of_pixel(&self.rect, bx, by);
            self.worker.queued[block] |= mask;
            self.worker.queued_blocks |= 1 << block;
        }
        if !O::ENABLED && mask == u64::MAX && self.ctx.untested {
            self.counts.covered += count as u64;
            self.queue_whole_block(cur, bx, by);
            return;
        }
        self.counts.covered += count as u64;
        let columns = self.depth_columns(cur, bx);
        let mut passed = 0u8;
        // Only the rows from the first to the last with a covered pixel (a small
        // triangle's one or two): skipping the empty ones one by one was a
        // data-dependent branch per row, mispredicted from triangle to triangle.
        let rows =
            mask.trailing_zeros() / BLOCK_SIZE..BLOCK_SIZE - mask.leading_zeros() / BLOCK_SIZE;
        for row in rows {
            let covered = (mask >> (row * BLOCK_SIZE)) as u8;
            if covered == 0 {
                continue;
            }
            let y = by + row;
            let r = self.depth_row(cur, &columns, covered, bx, y);
            passed |= r.passed;
            if O::ENABLED {
                let mut lane = self.worker.batch.len;
                let lanes = std::array::from_fn(|c| {
                    let at = lane;
                    lane += usize::from(r.passed & (1 << c) != 0);
                    at
                });
                self.trace_row(cur, bx, y, &r, &lanes);
            }
            self.queue_row(r.passed, bx, y, &r.z, &r.depth);
        }
        if passed != 0 {
            self.tighten_depth_bound(bx, by);
        }
    }

    /// Batching several triangles: whether some of the pixels `mask` of the block at
    /// `(bx, by)` are already in the batch (then it is shaded first: a batch holds
    /// each pixel at most once).
    #[inline(always)]
    fn meets_batch(&self, mask: u64, bx: u32, by: u32) -> bool {
        self.several() && self.worker.queued[block_of_pixel(&self.rect, bx, by)] & mask != 0
    }

    /// Whether every fragment of the block at `(bx, by)` fails the depth test by the
    /// block's bound (`depth_bound.rs`): the triangle's smallest depth over the block
    /// cannot pass against the largest stored one.
    #[inline(always)]
    fn block_fails_depth(&mut self, cur: &Current<'_>, bx: u32, by: u32) -> bool {
        let test = self.ctx.state.depth_test;
        if !self.ctx.bound_test {
            return false;
        }
        let last = BLOCK_SIZE - 1;
        let Some(min) = cur.setup.depth.min_over(bx, bx + last, by, by + last) else {
            return false;
        };
        let block = block_of_pixel(&self.rect, bx, by);
        self.refresh_stale_bounds(1 << block);
        block_fails(test, quantize_depth(min), self.depth_bound[block])
    }

    /// After early depth writes into the block at `(bx, by)`: its bound is to become
    /// the block's exact largest stored depth (the writes can only have lowered it
    /// under `less`, but any test may write here, so it is recomputed, not assumed).
    /// The recomputation waits until the bound is read or the tile ends
    /// ([`TileRaster::stale_bounds`]): the bound is then what recomputing after every
    /// write would have left, since it is recomputed from the stored depths alone.
    #[inline(always)]
    fn tighten_depth_bound(&mut self, bx: u32, by: u32) {
        if self.ctx.early_depth_write {
            self.stale_bounds |= 1 << block_of_pixel(&self.rect, bx, by);
        }
    }

    /// Recomputes the bounds of the stale blocks among `blocks` (bit = block) as
    /// each block's exact largest stored depth.
    #[inline(always)]
    fn refresh_stale_bounds(&mut self, blocks: u64) {
        let mut stale = self.stale_bounds & blocks;
        self.stale_bounds &= !blocks;
        while stale != 0 {
            let block = stale.trailing_zeros() as usize;
            stale &= stale - 1;
            self.depth_bound[block] = block_max(self.depth, block);
        }
    }

    /// The stencil test and update of the covered pixels `covered` of the row at
    /// `(bx, y)` (`stencil.rs`), given which passed the depth test (`depth_passed`).
    /// The ops are written now, except with [`DrawContext::late_stencil`] the `pass`
    /// op, which [`TileRaster::late_stencil_pass`] applies to the fragments that
    /// survive the shader. Out of line: draws without a stencil test never call it.
    #[inline(never)]
    fn stencil_step(
        &mut self,
        front_facing: bool,
        covered: u8,
        depth_passed: u8,
        bx: u32,
        y: u32,
    ) -> RowStencil {
        let Some(state) = &self.ctx.stencil else {
            return RowStencil::default();
        };
        let face = state.face(front_facing);
        let start = storage_index(&self.rect, bx, y);
        let row: &mut [u8; BLOCK] = (&mut self.stencil[start..start + BLOCK])
            .try_into()
            .unwrap();
        let before = *row;
        let (passed, mut after) = stencil_row(face, covered, &before, depth_passed);
        if self.ctx.late_stencil {
            let both = passed & depth_passed;
            for c in 0..BLOCK {
                if both & (1 << c) != 0 {
                    after[c] = before[c];
                }
            }
        }
        *row = after;
        RowStencil { before, passed }
    }

    /// With [`DrawContext::late_stencil`]: the `pass` op of the face `front_facing`
    /// on the pixels of the lanes in `writes` (which passed both tests and were not
    /// discarded).
    #[inline(never)]
    fn late_stencil_pass(&mut self, front_facing: bool, writes: u64) {
        let Some(state) = &self.ctx.stencil else {
            return;
        };
        let face = state.face(front_facing);
        let index = &*self.worker.index;
        let mut rest = writes;
        while rest != 0 {
            let lane = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let i = index[lane] as usize;
            self.stencil[i] = face.update(self.stencil[i], face.pass);
        }
    }

    /// The depth plane's column terms of the block at `bx`.
    #[inline(always)]
    fn depth_columns(&self, cur: &Current<'_>, bx: u32) -> [f64; BLOCK] {
        let mut columns = [0.0f64; BLOCK];
        for (c, column) in columns.iter_mut().enumerate() {
            *column = cur.setup.depth.column(bx + c as u32);
        }
        columns
    }

    /// Window depth and its 24-bit value for the 8 pixels of the row at `(bx, y)`, and
    /// which of `covered` pass the depth test (written early when the draw does).
    #[inline(always)]
    fn depth_row(
        &mut self,
        cur: &Current<'_>,
        columns: &[f64; BLOCK],
        covered: u8,
        bx: u32,
        y: u32,
    ) -> RowDepth {
        let test = self.ctx.state.depth_test;
        let base = cur.setup.depth.row(y);
        let mut z = [0.0f64; BLOCK];
        for c in 0..BLOCK {
            z[c] = base + columns[c];
        }
        if let Some([lo, hi]) = self.ctx.depth_clamp {
            for v in &mut z {
                *v = v.max(lo).min(hi);
            }
        }
        let mut depth = [0u32; BLOCK];
        let mut stored = [0u32; BLOCK];
        let mut passed = covered;
        let mut stencil = RowStencil::default();
        if test.is_enabled() {
            for c in 0..BLOCK {
                depth[c] = quantize_depth(z[c]);
            }
            // A block row never crosses the tile's storage (tiles are whole blocks).
            let start = storage_index(&self.rect, bx, y);
            stored.copy_from_slice(&self.depth[start..start + BLOCK]);
            passed &= depth_mask(test, &depth, &stored);
            if self.ctx.stencil.is_some() {
                stencil = self.stencil_step(cur.setup.front_facing, covered, passed, bx, y);
                passed &= stencil.passed;
            }
            let row_depth = &mut self.depth[start..start + BLOCK];
            if self.ctx.early_depth_write && passed != 0 {
                // A select per pixel (the new depth where it passed, the stored one
                // elsewhere) and one 8-pixel store: branch-free, it vectorizes, where
                // a branch per pixel mispredicted on the irregular masks of small
                // triangles.
                let written: [u32; BLOCK] = std::array::from_fn(|c| {
                    if passed & (1 << c) != 0 {
                        depth[c]
                    } else {
                        stored[c]
                    }
                });
                row_depth.copy_from_slice(&written);
            }
        } else if self.ctx.stencil.is_some() {
            stencil = self.stencil_step(cur.setup.front_facing, covered, passed, bx, y);
            passed &= stencil.passed;
        }
        let r = RowDepth {
            covered,
            passed,
            z,
            depth,
            stored,
            stencil,
        };
        self.counts.depth_failed += u64::from((covered & !r.passed).count_ones());
        r
    }

    /// Quads: depth-tests the covered pixels `mask` of the block at `(bx, by)`, then
    /// queues each 2×2 quad with a surviving pixel as four lanes in quad order
    /// ([`FragmentStage::needs_quads`]), its other pixels as helpers.
    fn block_quads(&mut self, cur: &Current<'_>, mask: u64, bx: u32, by: u32) {
        // At most the quads of the covered pixels: flush first if they might not fit
        // (the previous batch's late depth writes touch other pixels of the triangle).
        if self.worker.batch.len + quad_mask(mask).count_ones() as usize * 4 > MAX_LANES {
            self.flush(cur);
        }
        self.counts.covered += u64::from(mask.count_ones());
        let columns = self.depth_columns(cur, bx);
        let mut rows: [Option<RowDepth>; BLOCK] = [None; BLOCK];
        let mut live = 0u64;
        for row in 0..BLOCK_SIZE {
            let covered = (mask >> (row * BLOCK_SIZE)) as u8;
            let pair = (mask >> ((row & !1) * BLOCK_SIZE)) & 0xffff;
            if pair == 0 {
                continue;
            }
            let r = self.depth_row(cur, &columns, covered, bx, by + row);
            live |= u64::from(r.passed) << (row * BLOCK_SIZE);
            rows[row as usize] = Some(r);
        }
        if live != 0 {
            self.tighten_depth_bound(bx, by);
        }
        let quads = quad_mask(live);
        let first = self.worker.batch.len;
        if O::ENABLED {
            for (row, r) in rows.iter().enumerate() {
                if let Some(r) = r {
                    let lanes = std::array::from_fn(|c| {
                        let q = c / 2 + 4 * (row / 2);
                        let rank = (quads & ((1u16 << q) - 1)).count_ones() as usize;
                        first + 4 * rank + (c & 1) + 2 * (row & 1)
                    });
                    self.trace_row(cur, bx, by + row as u32, r, &lanes);
                }
            }
        }
        let base = storage_index(&self.rect, bx, by) as u32;
        let worker = &mut *self.worker;
        let batch = &mut *worker.batch;
        let mut rest = quads;
        while rest != 0 {
            let q = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            for k in 0..4 {
                let (c, row) = (2 * (q % 4) + (k & 1), 2 * (q / 4) + k / 2);
                let r = rows[row]
                    .as_ref()
                    .expect("both rows of a queued quad were tested");
                let lane = batch.len;
                batch.pixel_x[lane] = bx + c as u32;
                batch.pixel_y[lane] = by + row as u32;
                batch.frag_coord[2][lane] = r.z[c] as f32;
                worker.depth[lane] = r.depth[c];
                worker.index[lane] = base + (row * TILE_SIZE as usize + c) as u32;
                if r.passed & (1 << c) == 0 {
                    batch.helpers.insert(lane);
                }
                batch.len += 1;
            }
        }
    }

    /// Appends all 64 pixels of the block at `(bx, y)`, fully covered, to the batch with
    /// no depth test: what [`TileRaster::queue_row`] does for its 8 rows with every bit
    /// set (the same lanes in the same order, the same `z = row(y) + column(x)` in f64
    /// rounded to f32), without the per-row mask, depth and count work. The lanes'
    /// 24-bit depths are not written: without a depth test nothing reads them
    /// (`RasterState::writes_depth` is false).
    fn queue_whole_block(&mut self, cur: &Current<'_>, bx: u32, by: u32) {
        if self.ctx.inputs.frag_coord {
            self.queue_whole_block_lanes::<true>(cur, bx, by);
        } else {
            self.queue_whole_block_lanes::<false>(cur, bx, by);
        }
    }

    /// [`TileRaster::queue_whole_block`], with `frag_coord.z` only when `Z`: a stage
    /// that does not read `gl_FragCoord` ([`FragmentStage::reads_frag_coord`]) has no
    /// use for it here, since without a depth test nothing else reads it.
    #[inline(always)]
    fn queue_whole_block_lanes<const Z: bool>(&mut self, cur: &Current<'_>, bx: u32, by: u32) {
        let columns = self.depth_columns(cur, bx);
        let start = storage_index(&self.rect, bx, by) as u32;
        let worker = &mut *self.worker;
        let batch = &mut *worker.batch;
        let first = batch.len;
        for row in 0..BLOCK {
            let lanes = first + row * BLOCK..first + (row + 1) * BLOCK;
            let y = by + row as u32;
            let row_start = start + (row as u32) * TILE_SIZE;
            let px: &mut [u32; BLOCK] = (&mut batch.pixel_x[lanes.clone()]).try_into().unwrap();
            let py: &mut [u32; BLOCK] = (&mut batch.pixel_y[lanes.clone()]).try_into().unwrap();
            let fz: &mut [f32; BLOCK] = (&mut batch.frag_coord[2][lanes.clone()])
                .try_into()
                .unwrap();
            let index: &mut [u32; BLOCK] = (&mut worker.index[lanes]).try_into().unwrap();
            *px = std::array::from_fn(|c| bx + c as u32);
            *py = [y; BLOCK];
            if Z {
                let base = cur.setup.depth.row(y);
                *fz = std::array::from_fn(|c| (base + columns[c]) as f32);
            }
            *index = std::array::from_fn(|c| row_start + c as u32);
        }
        batch.len += BLOCK * BLOCK;
        worker.whole_block = true;
    }

    /// Appends the pixels `bits` of the row of 8 starting at `(bx, y)` to the batch.
    #[inline(always)]
    fn queue_row(&mut self, bits: u8, bx: u32, y: u32, z: &[f64; BLOCK], depth: &[u32; BLOCK]) {
        let start = storage_index(&self.rect, bx, y) as u32;
        let worker = &mut *self.worker;
        let batch = &mut *worker.batch;
        let lane = batch.len;
        if bits == 0xff {
            // Whole-row slices (one bounds check each) so the stores vectorize.
            let row = lane..lane + BLOCK;
            let px: &mut [u32; BLOCK] = (&mut batch.pixel_x[row.clone()]).try_into().unwrap();
            let py: &mut [u32; BLOCK] = (&mut batch.pixel_y[row.clone()]).try_into().unwrap();
            let fz: &mut [f32; BLOCK] = (&mut batch.frag_coord[2][row.clone()]).try_into().unwrap();
            let d: &mut [u32; BLOCK] = (&mut worker.depth[row.clone()]).try_into().unwrap();
            let index: &mut [u32; BLOCK] = (&mut worker.index[row]).try_into().unwrap();
            *px = std::array::from_fn(|c| bx + c as u32);
            *py = [y; BLOCK];
            *fz = z.map(|v| v as f32);
            *d = *depth;
            *index = std::array::from_fn(|c| start + c as u32);
            batch.len += BLOCK;
            return;
        }
        let mut rest = bits;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let lane = batch.len;
            batch.pixel_x[lane] = bx + c as u32;
            batch.pixel_y[lane] = y;
            batch.frag_coord[2][lane] = z[c] as f32;
            worker.depth[lane] = depth[c];
            worker.index[lane] = start + c as u32;
            batch.len += 1;
        }
    }

    /// Reports the covered pixels of a block row to the observer; `lanes[c]` is the
    /// batch lane of pixel `c` if it passed.
    fn trace_row(
        &mut self,
        cur: &Current<'_>,
        bx: u32,
        y: u32,
        row: &RowDepth,
        lanes: &[usize; BLOCK],
    ) {
        let test = self.ctx.state.depth_test;
        for (c, &lane) in lanes.iter().enumerate() {
            let (x, bit) = (bx + c as u32, 1u8 << c);
            if row.covered & bit == 0 {
                continue;
            }
            let ok = row.passed & bit != 0;
            if self.observer.watches(x, y) {
                let depth_ok = !test.is_enabled() || test.passes(row.depth[c], row.stored[c]);
                let stencil = self.ctx.stencil.map(|state| {
                    let face = *state.face(cur.setup.front_facing);
                    let passed = row.stencil.passed & bit != 0;
                    let op = face.op(passed, depth_ok);
                    let before = row.stencil.before[c];
                    let late = self.ctx.late_stencil && passed && depth_ok;
                    StencilTrace {
                        face,
                        front: cur.setup.front_facing,
                        before,
                        passed,
                        op,
                        after: if late {
                            before
                        } else {
                            face.update(before, op)
                        },
                    }
                });
                let (barycentric, w) = cur.planes.at(x, y);
                let event = TraceEvent {
                    primitive: cur.setup.primitive,
                    front_facing: cur.setup.front_facing,
                    frag_coord: [x as f32 + 0.5, y as f32 + 0.5, row.z[c] as f32, w],
                    barycentric,
                    depth: test.is_enabled().then_some(DepthTrace {
                        test,
                        fragment: row.depth[c],
                        stored: row.stored[c],
                        passed: depth_ok,
                        written: ok && self.ctx.early_depth_write,
                    }),
                    stencil,
                    shaded: false,
                    color: None,
                    discarded: false,
                    blend: None,
                    quad: None,
                };
                self.observer.fragment(event, ok.then_some(lane));
            }
        }
    }

    /// Batching several triangles: fills the barycentrics and varyings of the current
    /// triangle's lanes (from `segment` to the batch's end).
    fn end_segment(&mut self, cur: &Current<'_>) {
        let worker = &mut *self.worker;
        let lanes = worker.segment..worker.batch.len;
        if !lanes.is_empty() {
            cur.planes
                .fill_range(&mut worker.batch, self.ctx.inputs, lanes.clone());
            self.ctx.stage.interpolate_lanes(
                &mut worker.scratch,
                &cur.triangle,
                &worker.batch,
                lanes,
            );
        }
        worker.segment = worker.batch.len;
    }

    /// Batching several triangles: shades the batch (every triangle's lanes already
    /// interpolated by [`TileRaster::end_segment`]) and writes the results.
    fn shade_batch(&mut self) {
        let worker = &mut *self.worker;
        let len = worker.batch.len;
        if len == 0 {
            return;
        }
        worker.batch.pad_inputs();
        worker.output.discard = Default::default();
        self.ctx.stage.shade_interpolated(
            &mut worker.scratch,
            worker.front_facing,
            &worker.batch,
            &mut worker.output,
        );
        self.counts.shaded += len as u64;
        let front_facing = self.worker.front_facing;
        self.resolve(len, front_facing);
        let worker = &mut *self.worker;
        worker.batch.len = 0;
        worker.whole_block = false;
        worker.segment = 0;
        let mut blocks = worker.queued_blocks;
        while blocks != 0 {
            worker.queued[blocks.trailing_zeros() as usize] = 0;
            blocks &= blocks - 1;
        }
        worker.queued_blocks = 0;
    }

    /// Shades the queued fragments and writes their results.
    fn flush(&mut self, cur: &Current<'_>) {
        if self.several() {
            self.end_segment(cur);
            self.shade_batch();
            return;
        }
        let worker = &mut *self.worker;
        let len = worker.batch.len;
        if len == 0 {
            return;
        }
        worker.batch.pad_positions();
        let inputs = if O::ENABLED {
            BatchInputs::ALL
        } else {
            self.ctx.inputs
        };
        cur.planes.fill(&mut worker.batch, inputs);
        worker.output.discard = Default::default();
        self.ctx.stage.shade(
            &mut worker.scratch,
            &cur.triangle,
            &worker.batch,
            &mut worker.output,
        );
        self.counts.shaded += (len - worker.batch.helpers.count() as usize) as u64;

        self.resolve(len, cur.setup.front_facing);
        self.worker.batch.len = 0;
        self.worker.batch.helpers = LaneMask::NONE;
        self.worker.whole_block = false;
    }

    /// Writes the shaded lanes `0..len`: late depth, blended colour, trace.
    /// `front_facing` is the facing of the batch's fragments (for the stencil's face).
    fn resolve(&mut self, len: usize, front_facing: bool) {
        if let Some(target) = self.ctx.wide {
            self.resolve_wide(target, len, front_facing);
        } else if O::ENABLED {
            self.resolve_traced(len, front_facing);
        } else {
            self.resolve_lanes(len, front_facing);
        }
    }

    /// [`TileRaster::resolve`] without an observer, a step at a time over all lanes:
    /// gather the stored colours, blend every lane ([`blend_lanes`]), write back the
    /// lanes neither discarded nor helpers. Exact because a batch holds each pixel at
    /// most once (a pixel is queued once per triangle, and a batch of several
    /// triangles is shaded before it would take a pixel twice), so no lane reads
    /// a colour another lane of the batch writes. A whole block whose every lane
    /// writes is converted and blended row by row straight into the tile
    /// ([`blend_row_from_float`], the same arithmetic).
    fn resolve_lanes(&mut self, len: usize, front_facing: bool) {
        let worker = &mut *self.worker;
        let (batch, output, index) = (&worker.batch, &worker.output, &*worker.index);
        let mode = self.ctx.state.blend;
        let live = low_bits(len as u32);
        let writes = live & !(output.discard.0 | batch.helpers.0);
        if worker.whole_block
            && writes == u64::MAX
            && !self.ctx.masks_color
            && !self.ctx.dual_source
        {
            for row in 0..BLOCK {
                let start = index[row * BLOCK] as usize;
                let pixels: &mut [[u8; 4]; BLOCK] =
                    (&mut self.color[start..start + BLOCK]).try_into().unwrap();
                blend_row_from_float(mode, &output.color, row * BLOCK, pixels);
            }
        } else {
            pack_rgba8(&output.color, &mut worker.rgba);
            self.write_colors(len, writes);
        }
        let worker = &*self.worker;
        let index = &*worker.index;
        if self.ctx.late_depth_write {
            let (depth, bound) = (&mut *self.depth, &mut *self.depth_bound);
            let mut rest = writes;
            while rest != 0 {
                let lane = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let i = index[lane] as usize;
                depth[i] = worker.depth[lane];
                raise_depth_bound(bound, i, worker.depth[lane]);
            }
        }
        if self.ctx.late_stencil {
            self.late_stencil_pass(front_facing, writes);
        }
        let (batch, output) = (&self.worker.batch, &self.worker.output);
        self.counts.written += u64::from(writes.count_ones());
        self.counts.discarded +=
            u64::from((output.discard.0 & !batch.helpers.0 & live).count_ones());
    }

    /// Blends the packed colours `worker.rgba` of lanes `0..len` over their stored
    /// pixels and writes back the lanes in `writes` (whole rows of 8 as one copy).
    fn write_colors(&mut self, len: usize, writes: u64) {
        let worker = &mut *self.worker;
        let index = &*worker.index;
        let color = &mut *self.color;
        let mode = self.ctx.state.blend;
        let result = if mode == BlendMode::Replace && !self.ctx.masks_color {
            &*worker.rgba
        } else {
            let dst = &mut *worker.dst;
            let mut lane = 0;
            while lane < len {
                if let Some(start) = row_run(index, len, lane) {
                    for k in 0..BLOCK {
                        dst[lane + k] = u32::from_le_bytes(color[start + k]);
                    }
                    lane += BLOCK;
                } else {
                    dst[lane] = u32::from_le_bytes(color[index[lane] as usize]);
                    lane += 1;
                }
            }
            // the single-source arms are the loops they were before dual-source
            // blending had its own, so their code stays as it was
            match mode {
                BlendMode::Function(f) if self.ctx.dual_source => {
                    let stored = *dst;
                    pack_rgba8(&worker.output.color1, &mut worker.rgba1);
                    blend_dual_lanes(&f, &worker.rgba, &worker.rgba1, dst);
                    if self.ctx.masks_color {
                        mask_lanes(self.ctx.color_bits, &stored, dst);
                    }
                }
                _ if self.ctx.masks_color => {
                    let stored = *dst;
                    blend_lanes(mode, &worker.rgba, dst);
                    mask_lanes(self.ctx.color_bits, &stored, dst);
                }
                _ => blend_lanes(mode, &worker.rgba, dst),
            }
            &*worker.dst
        };
        let mut lane = 0;
        while lane < len {
            let row = (writes >> lane) as u8;
            match row_run(index, len, lane) {
                Some(start) if row == 0xff => {
                    for k in 0..BLOCK {
                        color[start + k] = result[lane + k].to_le_bytes();
                    }
                    lane += BLOCK;
                }
                _ => {
                    if row & 1 != 0 {
                        color[index[lane] as usize] = result[lane].to_le_bytes();
                    }
                    lane += 1;
                }
            }
        }
    }

    /// [`TileRaster::resolve`] for a wide target, lane by lane: late depth, each
    /// written lane's output converted and blended by [`ColorTarget::write`], the
    /// colour mask per channel, and the observer told (without a [`BlendTrace`],
    /// which holds RGBA8 bytes).
    fn resolve_wide(&mut self, target: ColorTarget, len: usize, front_facing: bool) {
        let worker = &*self.worker;
        let (batch, output, index) = (&worker.batch, &worker.output, &*worker.index);
        let live = low_bits(len as u32);
        let writes = live & !(output.discard.0 | batch.helpers.0);
        let (mode, mask) = (self.ctx.state.blend, self.ctx.state.color_mask);
        let mut rest = writes;
        while rest != 0 {
            let lane = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let i = index[lane] as usize;
            if self.ctx.late_depth_write {
                self.depth[i] = worker.depth[lane];
                raise_depth_bound(self.depth_bound, i, worker.depth[lane]);
            }
            let src = [0, 1, 2, 3].map(|c| output.color[c][lane]);
            let src1 = [0, 1, 2, 3].map(|c| output.color1[c][lane]);
            let stored = self.wide[i];
            let result = target.write_dual(mode, [src, src1], stored);
            self.wide[i] = std::array::from_fn(|c| if mask[c] { result[c] } else { stored[c] });
        }
        if self.ctx.late_stencil {
            self.late_stencil_pass(front_facing, writes);
        }
        let (batch, output) = (&self.worker.batch, &self.worker.output);
        self.counts.written += u64::from(writes.count_ones());
        self.counts.discarded +=
            u64::from((output.discard.0 & !batch.helpers.0 & live).count_ones());
        if O::ENABLED
            && let Some(lane) = self.observer.pending_lane()
            && lane < len
        {
            let discarded = output.discard.contains(lane);
            let late_write = self.ctx.late_depth_write && !discarded;
            let quads = self.ctx.quads;
            self.observer.complete(|e| {
                e.shaded = true;
                e.barycentric = [0, 1, 2].map(|i| batch.barycentric[i][lane]);
                e.frag_coord[3] = batch.frag_coord[3][lane];
                e.color = Some([0, 1, 2, 3].map(|c| output.color[c][lane]));
                e.discarded = discarded;
                e.quad = quads.then(|| quad_trace(batch, lane));
                if let Some(d) = &mut e.depth {
                    d.written |= late_write;
                }
            });
        }
    }

    /// [`TileRaster::resolve`] lane by lane with the observer told about the traced
    /// fragment (the per-pixel [`blend`], whose result [`blend_lanes`] matches; a
    /// dual-source draw's per-pixel [`blend_dual`], whose result `blend_dual_lanes`
    /// matches, reads the second source colour [`FragmentOutput::color1`]).
    fn resolve_traced(&mut self, len: usize, front_facing: bool) {
        pack_rgba8(&self.worker.output.color, &mut self.worker.rgba);
        let worker = &*self.worker;
        let (batch, output, rgba) = (&worker.batch, &worker.output, &worker.rgba);
        let (rect, color, depth) = (&self.rect, &mut *self.color, &mut *self.depth);
        let bound = &mut *self.depth_bound;
        let mode = self.ctx.state.blend;
        let helpers = batch.helpers;
        let quads = self.ctx.quads;
        let traced = self.observer.pending_lane();
        for lane in 0..len {
            if helpers.contains(lane) {
                continue;
            }
            let discarded = output.discard.contains(lane);
            let index = storage_index(rect, batch.pixel_x[lane], batch.pixel_y[lane]);
            let mut blend_trace = None;
            if discarded {
                self.counts.discarded += 1;
            } else {
                if self.ctx.late_depth_write {
                    depth[index] = worker.depth[lane];
                    raise_depth_bound(bound, index, worker.depth[lane]);
                }
                if let (true, Some(state)) = (self.ctx.late_stencil, &self.ctx.stencil) {
                    let face = state.face(front_facing);
                    self.stencil[index] = face.update(self.stencil[index], face.pass);
                }
                let (source, destination) = (rgba[lane].to_le_bytes(), color[index]);
                let source1 = self.ctx.dual_source.then(|| {
                    let c = &output.color1;
                    pack_unorm8(c[0][lane], c[1][lane], c[2][lane], c[3][lane]).to_le_bytes()
                });
                let blended = match source1 {
                    Some(s1) => blend_dual(mode, source, s1, destination),
                    None => blend(mode, source, destination),
                };
                let result = masked(self.ctx.color_bits, blended, destination);
                color[index] = result;
                self.counts.written += 1;
                if O::ENABLED {
                    blend_trace = Some(BlendTrace {
                        mode,
                        source,
                        source1,
                        destination,
                        result,
                    });
                }
            }
            if O::ENABLED && traced == Some(lane) {
                let late_write = self.ctx.late_depth_write && !discarded;
                let late_write_stencil = self.ctx.late_stencil && !discarded;
                self.observer.complete(|e| {
                    e.shaded = true;
                    e.barycentric = [0, 1, 2].map(|i| batch.barycentric[i][lane]);
                    e.frag_coord[3] = batch.frag_coord[3][lane];
                    e.color = Some([0, 1, 2, 3].map(|c| output.color[c][lane]));
                    e.discarded = discarded;
                    e.blend = blend_trace;
                    e.quad = quads.then(|| quad_trace(batch, lane));
                    if let Some(d) = &mut e.depth {
                        d.written |= late_write;
                    }
                    if let Some(s) = &mut e.stencil
                        && late_write_stencil
                    {
                        s.after = s.face.update(s.before, s.op);
                    }
                });
            }
        }
    }
}
