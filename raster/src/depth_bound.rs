//! Coarse depth rejection: an upper bound of the stored depth of each 8×8 block of a
//! tile, so a block whose fragments all fail a `less` / `lequal` test is skipped
//! without touching its 64 stored depths (hierarchical Z, one level).
//!
//! The rule (what keeps the results identical to the per-pixel test of GL 3.3 core
//! "Depth Buffer Test"): `bound[block] ≥ stored depth` of every pixel of the block, at
//! every moment a test reads it. A triangle's smallest 24-bit depth over the block's
//! pixel centres ([`DepthPlane::min_over`](crate::depth::DepthPlane::min_over)) is at most
//! the depth of each of its fragments there, so if it already fails against the bound
//! (`less`: `min ≥ bound`; `lequal`: `min > bound`), every fragment fails against its
//! own stored depth. Keeping the bound:
//! - a clear sets every bound to the cleared depth, and a new tile's to `DEPTH_MAX`;
//! - early depth writes (before shading) recompute the written block's exact maximum,
//!   which is what makes the bound tight enough to reject anything; the tile
//!   rasterizer does it when a test next reads the bound or the tile ends, not after
//!   every write (`rasterize.rs`, `stale_bounds`: within a draw only `less` /
//!   `lequal` read it, and their writes only lower stored depths);
//! - late depth writes (after shading) raise the bound to the written value if larger.
//!
//! The other tests never reject here; they keep the bound up to date all the same.

use crate::coverage::BLOCK_SIZE;
use crate::state::DepthTest;
use crate::tile::{PixelRect, TILE_SIZE};

/// Blocks along a tile's edge.
const BLOCKS_PER_ROW: usize = (TILE_SIZE / BLOCK_SIZE) as usize;

/// Blocks per tile (one bound each).
pub(crate) const BLOCKS_PER_TILE: usize = BLOCKS_PER_ROW * BLOCKS_PER_ROW;

/// The block of tile storage index `index` (row-major, `TILE_SIZE` per row).
#[inline(always)]
pub(crate) fn block_of_storage(index: usize) -> usize {
    let (row, column) = (index / TILE_SIZE as usize, index % TILE_SIZE as usize);
    (row / BLOCK_SIZE as usize) * BLOCKS_PER_ROW + column / BLOCK_SIZE as usize
}

/// The block whose bottom-left pixel is window pixel `(bx, by)` in the tile `rect`.
#[inline(always)]
pub(crate) fn block_of_pixel(rect: &PixelRect, bx: u32, by: u32) -> usize {
    (((by - rect.y0) / BLOCK_SIZE) as usize) * BLOCKS_PER_ROW
        + ((bx - rect.x0) / BLOCK_SIZE) as usize
}

/// The largest stored depth of `block` in a tile's depth storage (`TILE_SIZE` per row).
pub(crate) fn block_max(depth: &[u32], block: usize) -> u32 {
    let size = BLOCK_SIZE as usize;
    let (row0, column0) = (
        (block / BLOCKS_PER_ROW) * size,
        (block % BLOCKS_PER_ROW) * size,
    );
    let mut max = 0;
    for row in row0..row0 + size {
        let start = row * TILE_SIZE as usize + column0;
        for &d in &depth[start..start + size] {
            max = max.max(d);
        }
    }
    max
}

/// Whether every fragment of a block fails `test` when the smallest 24-bit fragment
/// depth there is `min` and the stored depths are at most `bound` (only `less` and
/// `lequal` decide anything; the other tests answer `false`).
#[inline(always)]
pub(crate) fn block_fails(test: DepthTest, min: u32, bound: u32) -> bool {
    match test {
        DepthTest::Less => min >= bound,
        DepthTest::LessEqual => min > bound,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::depth::DEPTH_MAX;

    #[test]
    fn blocks_of_storage_and_pixels_agree() {
        let rect = PixelRect {
            x0: 64,
            y0: 128,
            x1: 128,
            y1: 192,
        };
        assert_eq!(block_of_pixel(&rect, 64, 128), 0);
        assert_eq!(block_of_pixel(&rect, 72, 136), 9);
        assert_eq!(block_of_storage(8 * 64 + 8), 9);
        assert_eq!(block_of_storage(15 * 64 + 15), 9);
        assert_eq!(block_of_storage(63 * 64 + 63), BLOCKS_PER_TILE - 1);
    }

    #[test]
    fn block_max_reads_only_its_block() {
        let mut depth = vec![5u32; (TILE_SIZE * TILE_SIZE) as usize];
        depth[9 * 64 + 10] = 700; // block 9 (rows 8..16, columns 8..16)
        depth[16 * 64 + 8] = 900; // block 17
        assert_eq!(block_max(&depth, 9), 700);
        assert_eq!(block_max(&depth, 17), 900);
        assert_eq!(block_max(&depth, 0), 5);
    }

    #[test]
    fn only_less_and_lequal_reject() {
        assert!(block_fails(DepthTest::Less, 10, 10));
        assert!(!block_fails(DepthTest::Less, 9, 10));
        assert!(block_fails(DepthTest::LessEqual, 11, 10));
        assert!(!block_fails(DepthTest::LessEqual, 10, 10));
        for test in [
            DepthTest::Greater,
            DepthTest::GreaterEqual,
            DepthTest::Equal,
            DepthTest::NotEqual,
            DepthTest::Always,
            DepthTest::Never,
        ] {
            assert!(!block_fails(test, DEPTH_MAX, 0), "{test:?}");
        }
    }
}
