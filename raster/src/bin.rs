//! Binning: each tile gets the list of triangles that may cover it, in submission
//! order, so a tile can be rasterized on its own without changing the result.
//!
//! The draw's triangles in submission order are given as index ranges of its
//! triangle storage ([`crate::primitive::setup_primitives`] leaves unused entries
//! between them); a tile's list holds storage indices, in submission order.
//!
//! Large draws are binned in parallel: the ranges are cut into consecutive groups,
//! each group is binned into its own per-tile lists, and each tile's list is then the
//! concatenation of its groups' lists in group order. That is the list a single pass
//! over all triangles gives, so the bins do not depend on the number of threads.

use std::ops::Range;

use rayon::prelude::*;

use crate::coverage::rect_outside;
use crate::edge::{EdgeFunction, FixedPoint};
use crate::primitive::SetupTriangles;
use crate::tile::{PixelRect, TILE_SIZE, TileGrid};

/// Draws with fewer set-up triangles than this are binned in one pass.
const PARALLEL_MIN: usize = 8192;

/// Per-tile triangle lists (indices into the draw's set-up triangles), reused across
/// draws.
#[derive(Clone, Debug, Default)]
pub(crate) struct Bins {
    lists: Vec<Vec<u32>>,
    /// For parallel binning: per range of triangles, its per-tile lists (buffers kept
    /// from draw to draw).
    parts: Vec<Vec<Vec<u32>>>,
}

impl Bins {
    /// Bins the draw's set-up triangles `set` (those of `set.ranges`, in that order)
    /// into the tiles of `grid`: a triangle goes to every tile its pixel bounds
    /// overlap, except tiles one of its edges excludes entirely.
    pub fn build(&mut self, grid: &TileGrid, set: &SetupTriangles) {
        let ranges = &set.ranges[..];
        let tiles = grid.tile_count();
        let total: usize = ranges.iter().map(|r| r.len()).sum();
        if total < PARALLEL_MIN {
            reset(&mut self.lists, tiles);
            for r in ranges {
                bin_range(grid, set, r.clone(), &mut self.lists);
            }
            return;
        }
        // Groups of at least PARALLEL_MIN / 2 triangles, about four per worker
        // (ranges counted at their mean length).
        let mean = total.div_ceil(ranges.len());
        let group = ranges
            .len()
            .div_ceil(4 * rayon::current_num_threads())
            .max((PARALLEL_MIN / 2).div_ceil(mean));
        let groups = ranges.len().div_ceil(group);
        if self.parts.len() < groups {
            self.parts.resize_with(groups, Vec::new);
        }
        self.parts[..groups]
            .par_iter_mut()
            .zip(ranges.par_chunks(group))
            // One group per rayon job, so both workers share the groups evenly.
            .with_max_len(1)
            .for_each(|(part, chunk)| {
                reset(part, tiles);
                for r in chunk {
                    bin_range(grid, set, r.clone(), part);
                }
            });
        self.lists.resize_with(tiles, Vec::new);
        self.lists.truncate(tiles);
        let parts = &self.parts[..groups];
        self.lists
            .par_iter_mut()
            .enumerate()
            .for_each(|(tile, list)| {
                list.clear();
                for part in parts {
                    list.extend_from_slice(&part[tile]);
                }
            });
    }

    /// The triangle list of every tile, in tile order.
    pub fn lists(&self) -> &[Vec<u32>] {
        &self.lists
    }
}

/// `tiles` empty lists in `lists`, keeping the buffers it had.
fn reset(lists: &mut Vec<Vec<u32>>, tiles: usize) {
    lists.resize_with(tiles, Vec::new);
    lists.truncate(tiles);
    lists.iter_mut().for_each(Vec::clear);
}

/// Marks a set-up triangle whose pixel bounds span more than one tile.
pub(crate) const SPANS_TILES: u32 = u32::MAX;

/// The tile (of a grid with `tiles_x` tiles per row) that holds all of the non-empty
/// pixel rectangle `b`, or [`SPANS_TILES`]. Such a triangle is binned into that tile
/// alone: no edge test can exclude the one tile its covered centres lie in.
#[inline]
pub(crate) fn single_tile(tiles_x: u32, b: &PixelRect) -> u32 {
    let (tx0, tx1) = (b.x0 / TILE_SIZE, (b.x1 - 1) / TILE_SIZE);
    let (ty0, ty1) = (b.y0 / TILE_SIZE, (b.y1 - 1) / TILE_SIZE);
    if tx0 == tx1 && ty0 == ty1 {
        ty0 * tiles_x + tx0
    } else {
        SPANS_TILES
    }
}

/// Tile-array entries per block of [`bin_range`]'s two phases.
const BIN_BLOCK: usize = 64;

/// Appends to `lists` (one per tile of `grid`) the triangles `set.storage[range]`, in
/// order. Most triangles of a large draw lie in one tile: those are binned from
/// `set.tiles` alone, without reading the triangle.
///
/// The others are read from the draw's triangle storage, which is not in the cache
/// (128 MB for 1M triangles): one miss each, half of this function's samples when it
/// waited for them one at a time. So each block of [`BIN_BLOCK`] entries is binned in
/// two phases: first the edges and bounds of its spanning triangles are copied out
/// (independent loads, whose misses overlap), then every entry is binned in order
/// (the lists stay in submission order).
fn bin_range(grid: &TileGrid, set: &SetupTriangles, range: Range<usize>, lists: &mut [Vec<u32>]) {
    let tiles = &set.tiles[range.clone()];
    let zero = EdgeFunction::new(FixedPoint::default(), FixedPoint::default());
    let mut spans = [([zero; 3], PixelRect::default()); BIN_BLOCK];
    for (b, block) in tiles.chunks(BIN_BLOCK).enumerate() {
        let first = range.start + b * BIN_BLOCK;
        let mut count = 0;
        for (k, &tile) in block.iter().enumerate() {
            if tile == SPANS_TILES {
                let tri = &set.storage[first + k];
                spans[count] = (tri.edges, tri.bbox());
                count += 1;
            }
        }
        let mut spans = spans[..count].iter();
        for (k, &tile) in block.iter().enumerate() {
            let index = (first + k) as u32;
            if tile != SPANS_TILES {
                lists[tile as usize].push(index);
                continue;
            }
            let (edges, b) = spans.next().expect("one copy per spanning entry");
            let (tx0, tx1) = (b.x0 / TILE_SIZE, (b.x1 - 1) / TILE_SIZE);
            let (ty0, ty1) = (b.y0 / TILE_SIZE, (b.y1 - 1) / TILE_SIZE);
            for ty in ty0..=ty1 {
                for tx in tx0..=tx1 {
                    let tile = (ty * grid.tiles_x + tx) as usize;
                    if !rect_outside(edges, &grid.tile_rect(tile).intersect(b)) {
                        lists[tile].push(index);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::primitive::{SetupChunk, setup_primitives};
    use crate::state::RasterState;
    use crate::vertex::VertexBuffer;

    /// The definition: each triangle in submission order goes to every tile its
    /// bounds overlap, unless an edge excludes the overlap and the bounds span more
    /// than one tile ([`single_tile`]).
    fn bins_by_definition(grid: &TileGrid, set: &SetupTriangles) -> Vec<Vec<u32>> {
        let mut lists = vec![Vec::new(); grid.tile_count()];
        for index in set.ranges.iter().flat_map(|r| r.clone()) {
            let tri = &set.storage[index];
            let b = tri.bbox();
            let spans = single_tile(grid.tiles_x, &b) == SPANS_TILES;
            for (tile, list) in lists.iter_mut().enumerate() {
                let rect = grid.tile_rect(tile).intersect(&b);
                if rect.is_empty() || (spans && rect_outside(&tri.edges, &rect)) {
                    continue;
                }
                list.push(index as u32);
            }
        }
        lists
    }

    #[test]
    fn two_phase_binning_is_the_definition() {
        let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15u64);
        let grid = TileGrid::new(300, 200);
        // Small triangles (some across tile borders), a few large ones: more than
        // one block of entries, and more than PARALLEL_MIN for the parallel path.
        for count in [5, 200, 2 * PARALLEL_MIN] {
            let mut data = Vec::new();
            for t in 0..count {
                let big = t % 97 == 0;
                let size = if big { 1.2 } else { 0.04 };
                let cx = (next() % 2000) as f32 / 1000.0 - 1.0;
                let cy = (next() % 2000) as f32 / 1000.0 - 1.0;
                for k in 0..3 {
                    let dx = ((next() % 1000) as f32 / 1000.0 - 0.5) * size;
                    let dy = ((next() % 1000) as f32 / 1000.0 - 0.5) * size;
                    data.extend_from_slice(&[cx + dx, cy + dy, 0.0, 1.0, k as f32]);
                }
            }
            let ids: Vec<[u32; 3]> = (0..count as u32)
                .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
                .collect();
            let mut vertices = VertexBuffer::from_records(1, data);
            let mut chunks: Vec<SetupChunk> = Vec::new();
            let mut set = SetupTriangles::default();
            setup_primitives(
                &ids,
                &mut vertices,
                &grid,
                &RasterState::default(),
                &[],
                0,
                &mut chunks,
                &mut set,
            );
            let spanning = set
                .ranges
                .iter()
                .flat_map(|r| r.clone())
                .filter(|&i| set.tiles[i] == SPANS_TILES)
                .count();
            let mut bins = Bins::default();
            bins.build(&grid, &set);
            assert_eq!(bins.lists(), bins_by_definition(&grid, &set), "{count}");
            if count > 100 {
                assert!(spanning > 10, "{count}: {spanning}");
            }
            let total: usize = set.ranges.iter().map(|r| r.len()).sum();
            assert!(count < PARALLEL_MIN || total >= PARALLEL_MIN, "{total}");
        }
    }
}
