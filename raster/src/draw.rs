//! The draw API: a [`Renderer`] runs [`DrawCall`]s into a [`Framebuffer`].
//!
//! One draw, in order: primitive assembly and vertex shading (parallel over vertices,
//! each distinct index shaded once), clipping and setup (parallel over chunks of
//! triangles, once per triangle, kept in submission order), binning into tiles
//! (parallel over ranges of triangles for large draws, merged in order), then
//! rasterization of the tiles in parallel (each worker takes the next tile from a
//! shared queue, `tile_queue.rs`). Inside a tile,
//! triangles keep submission order, so the output bytes do not depend on the number of
//! threads (`architecture.md`). Draws run one after another, each complete before the
//! next starts.

use crate::bin::Bins;
use crate::clip::MAX_CLIP_DISTANCES;
use crate::error::DrawError;
use crate::framebuffer::Framebuffer;
use crate::indices::Indices;
use crate::point_line::{Topology, point_interpolation, setup_points_lines};
use crate::primitive::{SetupChunk, SetupTriangles, setup_primitives};
use crate::rasterize::{DrawContext, TileWorker, rasterize_tile};
use crate::stage::{FragmentStage, VertexStage};
use crate::state::RasterState;
use crate::tile_queue::run_shared;
use crate::trace::{NoTrace, PixelTracer, TraceEvent};
use crate::vertex::{Assembly, MAX_VARYINGS, VertexBuffer, shade_vertices};

/// One draw: a triangle list, its two stages and its fixed-function state.
#[derive(Debug)]
pub struct DrawCall<'a, V, F> {
    /// Computes clip positions and varyings.
    pub vertex_stage: &'a V,
    /// Computes fragment colours.
    pub fragment_stage: &'a F,
    /// Number of vertices the vertex stage can shade (indices `0..vertex_count`).
    pub vertex_count: u32,
    /// Triangle-list indices, three per triangle (a trailing incomplete triangle is
    /// ignored), scanned once by [`Indices::new`] (keep them with the mesh); `None`
    /// draws vertices `0, 1, 2, 3, 4, 5, …`.
    pub indices: Option<Indices<'a>>,
    /// Depth, culling and blending.
    pub state: RasterState,
    /// What each index triple is: a triangle (the default), a point or a line
    /// segment, or a triangle drawn as its edges or vertices ([`Topology`];
    /// `point_line.rs`). Culling applies to triangles only.
    pub topology: Topology,
}

/// Counts of what one draw did, e.g. for a command-line summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawStats {
    /// Distinct vertices shaded.
    pub vertices_shaded: u64,
    /// Input triangles.
    pub triangles_in: u64,
    /// Input triangles dropped for non-finite positions or a vertex that cannot be
    /// projected (w ≤ 0 after clipping).
    pub triangles_invalid: u64,
    /// Input triangles entirely outside the view volume.
    pub triangles_clipped_away: u64,
    /// Input triangles that needed clipping (near/far plane or guard band).
    pub triangles_clipped: u64,
    /// Input triangles removed by face culling.
    pub triangles_culled: u64,
    /// Input triangles with no area or no pixel centre inside the framebuffer.
    pub triangles_empty: u64,
    /// Triangles rasterized, after clipping (one input can give several) and culling.
    pub triangles_rasterized: u64,
    /// Pixel centres covered (before the depth test).
    pub fragments_covered: u64,
    /// Fragments that failed the depth test (not shaded).
    pub fragments_depth_failed: u64,
    /// Fragments the fragment stage shaded.
    pub fragments_shaded: u64,
    /// Fragments the fragment stage discarded.
    pub fragments_discarded: u64,
    /// Fragments whose colour was written.
    pub fragments_written: u64,
}

/// Runs draws. Holds buffers reused from draw to draw; create one and keep it.
#[derive(Debug, Default)]
pub struct Renderer {
    assembly: Assembly,
    vertices: VertexBuffer,
    setup_chunks: Vec<SetupChunk>,
    triangles: SetupTriangles,
    bins: Bins,
}

impl Renderer {
    /// A renderer with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Draws `call` into `framebuffer`, using the current rayon thread pool.
    ///
    /// # Errors
    /// [`DrawError`] for an index out of range or too many varyings; nothing is drawn.
    pub fn draw<V: VertexStage, F: FragmentStage>(
        &mut self,
        framebuffer: &mut Framebuffer,
        call: &DrawCall<'_, V, F>,
    ) -> Result<DrawStats, DrawError> {
        self.run(framebuffer, call, None, false)
            .map(|(stats, _)| stats)
    }

    /// Like [`Renderer::draw`], and also reports every fragment the draw produced at
    /// window pixel `pixel = [x, y]` (y up), in order. A pixel outside the framebuffer
    /// gives no events.
    ///
    /// # Errors
    /// As [`Renderer::draw`].
    pub fn draw_traced<V: VertexStage, F: FragmentStage>(
        &mut self,
        framebuffer: &mut Framebuffer,
        call: &DrawCall<'_, V, F>,
        pixel: [u32; 2],
    ) -> Result<(DrawStats, Vec<TraceEvent>), DrawError> {
        self.run(framebuffer, call, Some(pixel), false)
    }

    /// Like [`Renderer::draw_traced`], but rasterizes only the tile holding `pixel`
    /// (tiles are independent, so that pixel and its tile get the same values as a
    /// whole draw gives them); the other tiles are left as they are and, in a new
    /// framebuffer, never get storage, so tracing one pixel of any frame size needs one
    /// tile's memory. The fragment counts of the returned [`DrawStats`] are that tile's;
    /// the vertex and triangle counts are the whole draw's. A pixel outside the
    /// framebuffer rasterizes nothing and gives no events.
    ///
    /// # Errors
    /// As [`Renderer::draw`].
    pub fn draw_traced_tile<V: VertexStage, F: FragmentStage>(
        &mut self,
        framebuffer: &mut Framebuffer,
        call: &DrawCall<'_, V, F>,
        pixel: [u32; 2],
    ) -> Result<(DrawStats, Vec<TraceEvent>), DrawError> {
        self.run(framebuffer, call, Some(pixel), true)
    }

    fn run<V: VertexStage, F: FragmentStage>(
        &mut self,
        framebuffer: &mut Framebuffer,
        call: &DrawCall<'_, V, F>,
        trace: Option<[u32; 2]>,
        traced_tile_only: bool,
    ) -> Result<(DrawStats, Vec<TraceEvent>), DrawError> {
        let count = call.vertex_stage.varying_count();
        if count > MAX_VARYINGS {
            return Err(DrawError::TooManyVaryings {
                count,
                max: MAX_VARYINGS,
            });
        }
        let back_face = call.vertex_stage.back_face_varyings();
        if let Some(bad) = back_face
            .iter()
            .find(|p| usize::from(p.varying.max(p.back)) >= count)
        {
            return Err(DrawError::BackFaceVarying {
                varying: bad.varying,
                back: bad.back,
                count,
            });
        }
        let interpolation = call.vertex_stage.interpolation();
        if interpolation.len() > count {
            return Err(DrawError::Interpolation {
                len: interpolation.len(),
                count,
            });
        }
        let clip = call.vertex_stage.clip_distance_count();
        if clip > MAX_CLIP_DISTANCES || clip > count {
            return Err(DrawError::ClipDistances {
                clip,
                count,
                max: MAX_CLIP_DISTANCES,
            });
        }
        self.assembly.assemble(call.vertex_count, call.indices)?;
        shade_vertices(call.vertex_stage, &self.assembly, &mut self.vertices);
        let vertices_shaded = self.vertices.len() as u64;

        let grid = framebuffer.grid();
        let triangles = self.assembly.triangles(call.indices);
        let primitives = match call.topology {
            Topology::Triangles => setup_primitives(
                triangles,
                &mut self.vertices,
                &grid,
                &call.state,
                interpolation,
                clip,
                &mut self.setup_chunks,
                &mut self.triangles,
            ),
            other => setup_points_lines(
                other,
                triangles,
                &mut self.vertices,
                &grid,
                &call.state,
                interpolation,
                clip,
                &mut self.triangles,
            ),
        };
        // Points read their varyings as `point_interpolation` says.
        let point_modes = point_interpolation(&call.topology, count, interpolation);
        let interpolation = point_modes.as_deref().unwrap_or(interpolation);
        self.bins.build(&grid, &self.triangles);

        let mut ctx = DrawContext::new(
            &self.triangles.storage,
            &self.vertices,
            call.fragment_stage,
            call.state,
            back_face,
            interpolation,
        );
        ctx.set_target(framebuffer.target());
        let traced_tile = trace
            .filter(|&[x, y]| x < grid.width && y < grid.height)
            .map(|[x, y]| grid.tile_of(x, y));
        let tiles = framebuffer
            .tiles_mut()
            .iter_mut()
            .zip(self.bins.lists())
            .enumerate()
            .filter(|(index, (_, bin))| {
                !bin.is_empty() && (!traced_tile_only || traced_tile == Some(*index))
            });
        let (fragments, events) = run_shared(
            tiles,
            || TileWorker::new(call.fragment_stage.new_scratch()),
            |worker, (index, (tile, bin))| match (traced_tile == Some(index), trace) {
                (true, Some(pixel)) => {
                    let mut tracer = PixelTracer::new(pixel);
                    let counts = rasterize_tile(&ctx, worker, tile, bin, &mut tracer);
                    (counts, tracer.events)
                }
                _ => (
                    rasterize_tile(&ctx, worker, tile, bin, &mut NoTrace),
                    Vec::new(),
                ),
            },
            |(a, mut ea), (b, eb)| {
                ea.extend(eb);
                (a.add(b), ea)
            },
        );

        let stats = DrawStats {
            vertices_shaded,
            triangles_in: triangles.len() as u64,
            triangles_invalid: primitives.invalid,
            triangles_clipped_away: primitives.clipped_away,
            triangles_clipped: primitives.clipped,
            triangles_culled: primitives.culled,
            triangles_empty: primitives.empty,
            triangles_rasterized: primitives.rasterized,
            fragments_covered: fragments.covered,
            fragments_depth_failed: fragments.depth_failed,
            fragments_shaded: fragments.shaded,
            fragments_discarded: fragments.discarded,
            fragments_written: fragments.written,
        };
        Ok((stats, events))
    }
}
