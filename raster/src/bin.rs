//! Binning: each tile gets the list of triangles that may cover it, in submission
//! order, so a tile can be rasterized on its own without changing the result.

use crate::coverage::rect_outside;
use crate::setup::SetupTriangle;
use crate::tile::{TILE_SIZE, TileGrid};

/// Per-tile triangle lists (indices into the draw's set-up triangles), reused across
/// draws.
#[derive(Clone, Debug, Default)]
pub(crate) struct Bins {
    lists: Vec<Vec<u32>>,
}

impl Bins {
    /// Bins `triangles` into the tiles of `grid`: a triangle goes to every tile its pixel
    /// bounds overlap, except tiles one of its edges excludes entirely.
    pub fn build(&mut self, grid: &TileGrid, triangles: &[SetupTriangle]) {
        self.lists.resize_with(grid.tile_count(), Vec::new);
        self.lists.truncate(grid.tile_count());
        self.lists.iter_mut().for_each(Vec::clear);
        for (index, tri) in triangles.iter().enumerate() {
            let b = &tri.bbox;
            let (tx0, tx1) = (b.x0 / TILE_SIZE, (b.x1 - 1) / TILE_SIZE);
            let (ty0, ty1) = (b.y0 / TILE_SIZE, (b.y1 - 1) / TILE_SIZE);
            let single = tx0 == tx1 && ty0 == ty1;
            for ty in ty0..=ty1 {
                for tx in tx0..=tx1 {
                    let tile = (ty * grid.tiles_x + tx) as usize;
                    if single || !rect_outside(&tri.edges, &grid.tile_rect(tile).intersect(b)) {
                        self.lists[tile].push(index as u32);
                    }
                }
            }
        }
    }

    /// The triangle list of every tile, in tile order.
    pub fn lists(&self) -> &[Vec<u32>] {
        &self.lists
    }
}
