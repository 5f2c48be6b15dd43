//! Rasterizing one tile: walk its bin's triangles in submission order, find covered
//! pixels block by block, test depth before shading, shade in batches, then write
//! depth and blended colour.
//!
//! Per triangle and tile, covered pixels of 8×8 blocks are appended to a batch of up
//! to `MAX_LANES` fragments (a full block fills one batch exactly); the batch is shaded
//! when the next block would not fit and when the triangle is done. A pixel appears at
//! most once per triangle, so testing depth for the whole batch before any of it is
//! written is exact, and the depth test can always run before shading: a discard only
//! removes fragments. What `may_discard` changes is when depth is *written*: before
//! shading when nothing can be discarded, afterwards (for surviving fragments only)
//! otherwise.

use crate::barycentric::BarycentricPlanes;
use crate::batch::{FragmentBatch, FragmentOutput, MAX_LANES};
use crate::blend::{blend, to_unorm8};
use crate::coverage::{BLOCK_SIZE, block_mask, rect_mask};
use crate::depth::quantize_depth;
use crate::setup::SetupTriangle;
use crate::stage::{FragmentStage, Triangle};
use crate::state::RasterState;
use crate::tile::Tile;
use crate::trace::{BlendTrace, DepthTrace, Observer, TraceEvent};
use crate::vertex::VertexBuffer;

/// Everything shared by the tiles of one draw.
pub(crate) struct DrawContext<'a, F> {
    pub triangles: &'a [SetupTriangle],
    pub vertices: &'a VertexBuffer,
    pub stage: &'a F,
    pub state: RasterState,
    /// Depth is written when the test passes, before shading.
    pub early_depth_write: bool,
    /// Depth is written after shading, for fragments not discarded.
    pub late_depth_write: bool,
}

impl<'a, F: FragmentStage> DrawContext<'a, F> {
    pub fn new(
        triangles: &'a [SetupTriangle],
        vertices: &'a VertexBuffer,
        stage: &'a F,
        state: RasterState,
    ) -> Self {
        let writes = state.writes_depth();
        let may_discard = stage.may_discard();
        DrawContext {
            triangles,
            vertices,
            stage,
            state,
            early_depth_write: writes && !may_discard,
            late_depth_write: writes && may_discard,
        }
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
}

impl<S> TileWorker<S> {
    pub fn new(scratch: S) -> Self {
        TileWorker {
            scratch,
            batch: Box::default(),
            output: Box::default(),
            depth: Box::new([0; MAX_LANES]),
        }
    }
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
    let mut raster = TileRaster {
        ctx,
        worker,
        tile,
        observer,
        counts: FragmentCounts::default(),
    };
    for &index in bin {
        raster.triangle(&ctx.triangles[index as usize]);
    }
    raster.counts
}

struct TileRaster<'c, 'w, 't, 'o, F: FragmentStage, O> {
    ctx: &'c DrawContext<'c, F>,
    worker: &'w mut TileWorker<F::Scratch>,
    tile: &'t mut Tile,
    observer: &'o mut O,
    counts: FragmentCounts,
}

impl<'c, F: FragmentStage, O: Observer> TileRaster<'c, '_, '_, '_, F, O> {
    fn triangle(&mut self, setup: &'c SetupTriangle) {
        let rect = setup.bbox.intersect(&self.tile.rect);
        if rect.is_empty() {
            return;
        }
        let current = Current {
            setup,
            planes: BarycentricPlanes::new(setup, rect.x0, rect.y0),
            triangle: Triangle {
                varyings: setup.vertices.map(|id| self.ctx.vertices.varyings(id)),
                front_facing: setup.front_facing,
                primitive: setup.primitive,
            },
        };
        let align = |v: u32| v - v % BLOCK_SIZE;
        for by in (align(rect.y0)..rect.y1).step_by(BLOCK_SIZE as usize) {
            for bx in (align(rect.x0)..rect.x1).step_by(BLOCK_SIZE as usize) {
                let mask = block_mask(&setup.edges, bx, by);
                if mask != 0 {
                    self.block(&current, mask & rect_mask(&rect, bx, by), bx, by);
                }
            }
        }
        self.flush(&current);
    }

    /// Depth-tests the covered pixels `mask` of the block at `(bx, by)` and queues the
    /// survivors for shading.
    fn block(&mut self, cur: &Current<'_>, mask: u64, bx: u32, by: u32) {
        let count = mask.count_ones() as usize;
        if count == 0 {
            return;
        }
        if self.worker.batch.len + count > MAX_LANES {
            self.flush(cur);
        }
        self.counts.covered += count as u64;
        let test = self.ctx.state.depth_test;
        let mut bits = mask;
        while bits != 0 {
            let bit = bits.trailing_zeros();
            bits &= bits - 1;
            let (x, y) = (bx + bit % BLOCK_SIZE, by + bit / BLOCK_SIZE);
            let z = cur.setup.depth.at(x, y);
            let depth = quantize_depth(z);
            let index = self.tile.index(x, y);
            let mut passed = true;
            let stored = self.tile.depth[index];
            if test.is_enabled() {
                passed = test.passes(depth, stored);
                if passed && self.ctx.early_depth_write {
                    self.tile.depth[index] = depth;
                }
            }
            let lane = self.worker.batch.len;
            if O::ENABLED && self.observer.watches(x, y) {
                let (barycentric, w) = cur.planes.at(x, y);
                let event = TraceEvent {
                    primitive: cur.setup.primitive,
                    front_facing: cur.setup.front_facing,
                    frag_coord: [x as f32 + 0.5, y as f32 + 0.5, z as f32, w],
                    barycentric,
                    depth: test.is_enabled().then_some(DepthTrace {
                        fragment: depth,
                        stored,
                        passed,
                        written: passed && self.ctx.early_depth_write,
                    }),
                    shaded: false,
                    color: None,
                    discarded: false,
                    blend: None,
                };
                self.observer.fragment(event, passed.then_some(lane));
            }
            if !passed {
                self.counts.depth_failed += 1;
                continue;
            }
            let batch = &mut self.worker.batch;
            batch.pixel_x[lane] = x;
            batch.pixel_y[lane] = y;
            batch.frag_coord[2][lane] = z as f32;
            self.worker.depth[lane] = depth;
            batch.len += 1;
        }
    }

    /// Shades the queued fragments and writes their results.
    fn flush(&mut self, cur: &Current<'_>) {
        let worker = &mut *self.worker;
        let len = worker.batch.len;
        if len == 0 {
            return;
        }
        worker.batch.pad_positions();
        cur.planes.fill(&mut worker.batch);
        worker.output.discard = Default::default();
        self.ctx.stage.shade(
            &mut worker.scratch,
            &cur.triangle,
            &worker.batch,
            &mut worker.output,
        );
        self.counts.shaded += len as u64;

        let traced = if O::ENABLED {
            self.observer.pending_lane()
        } else {
            None
        };
        let (batch, output) = (&worker.batch, &worker.output);
        let mode = self.ctx.state.blend;
        for lane in 0..len {
            let discarded = output.discard.contains(lane);
            let index = self.tile.index(batch.pixel_x[lane], batch.pixel_y[lane]);
            let mut blend_trace = None;
            if discarded {
                self.counts.discarded += 1;
            } else {
                if self.ctx.late_depth_write {
                    self.tile.depth[index] = worker.depth[lane];
                }
                let source = [0, 1, 2, 3].map(|c| to_unorm8(output.color[c][lane]));
                let destination = self.tile.color[index];
                let result = blend(mode, source, destination);
                self.tile.color[index] = result;
                self.counts.written += 1;
                blend_trace = Some(BlendTrace {
                    source,
                    destination,
                    result,
                });
            }
            if O::ENABLED && traced == Some(lane) {
                let late_write = self.ctx.late_depth_write && !discarded;
                self.observer.complete(|e| {
                    e.shaded = true;
                    e.barycentric = [0, 1, 2].map(|i| batch.barycentric[i][lane]);
                    e.frag_coord[3] = batch.frag_coord[3][lane];
                    e.color = Some([0, 1, 2, 3].map(|c| output.color[c][lane]));
                    e.discarded = discarded;
                    e.blend = blend_trace;
                    if let Some(d) = &mut e.depth {
                        d.written |= late_write;
                    }
                });
            }
        }
        worker.batch.len = 0;
    }
}
