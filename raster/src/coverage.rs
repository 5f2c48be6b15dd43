//! Coverage of 8×8 pixel blocks by a triangle's three edge functions.
//!
//! A block is first classified per edge from its extreme pixel centres: if an edge is
//! negative at the block's most-inside centre the whole block is outside; if it is
//! non-negative at the most-outside centre the edge passes every pixel and needs no
//! per-pixel test. Only edges that cut the block are evaluated per pixel, so blocks
//! fully inside a triangle cost three comparisons.

use std::ops::Range;

use crate::edge::EdgeFunction;
use crate::tile::PixelRect;

/// Block edge in pixels; a block's coverage is one `u64` (bit `row · 8 + column`).
pub(crate) const BLOCK_SIZE: u32 = 8;

/// Smallest and largest offset of `e` from its value at a rectangle's first pixel
/// centre, over a rectangle `w × h` pixel centres large (offsets `0..w`, `0..h`).
#[inline]
fn extent(e: &EdgeFunction, w: i64, h: i64) -> (i64, i64) {
    let (ax, by) = (e.a() * (w - 1), e.b() * (h - 1));
    (ax.min(0) + by.min(0), ax.max(0) + by.max(0))
}

/// Covered pixels of the 8×8 block whose bottom-left pixel is `(bx, by)`, in the
/// block rows `rows` (`0..=8`, relative to `by`) only: the other rows come out
/// empty. A small triangle's bounding box spans a few rows of its block, and the
/// per-pixel edge test then runs on those rows alone.
#[inline]
pub(crate) fn block_mask_rows(
    edges: &[EdgeFunction; 3],
    bx: u32,
    by: u32,
    rows: Range<u32>,
) -> u64 {
    let mut mask = low_bits(rows.end * BLOCK_SIZE) & !low_bits(rows.start * BLOCK_SIZE);
    for e in edges {
        let origin = e.at(i64::from(bx), i64::from(by));
        let (lo, hi) = extent(e, BLOCK_SIZE.into(), BLOCK_SIZE.into());
        if origin + hi < 0 {
            return 0;
        }
        if origin + lo < 0 {
            mask &= edge_mask(e, origin, rows.clone());
        }
    }
    mask
}

/// Per-pixel test of one edge over the rows `rows` of a block (the others come out
/// 0), given its value at the block's origin.
#[inline]
fn edge_mask(e: &EdgeFunction, origin: i64, rows: Range<u32>) -> u64 {
    let columns: [i64; BLOCK_SIZE as usize] = std::array::from_fn(|c| e.a() * c as i64);
    let mut mask = 0u64;
    for row in rows {
        let row = i64::from(row);
        let base = origin + e.b() * row;
        let mut bits = 0u64;
        for (c, offset) in columns.iter().enumerate() {
            bits |= u64::from(base + offset >= 0) << c;
        }
        mask |= bits << (row * BLOCK_SIZE as i64);
    }
    mask
}

/// Whether some edge is negative at every pixel centre of `rect` (so the triangle
/// covers none of it). `rect` must not be empty.
pub(crate) fn rect_outside(edges: &[EdgeFunction; 3], rect: &PixelRect) -> bool {
    let (w, h) = (i64::from(rect.x1 - rect.x0), i64::from(rect.y1 - rect.y0));
    edges.iter().any(|e| {
        let (_, hi) = extent(e, w, h);
        e.at(i64::from(rect.x0), i64::from(rect.y0)) + hi < 0
    })
}

/// `n` low bits set, for `n` in `0..=64`.
#[inline]
pub(crate) fn low_bits(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// Pixels of the block at `(bx, by)` that lie inside `rect` (which overlaps the block).
#[inline]
pub(crate) fn rect_mask(rect: &PixelRect, bx: u32, by: u32) -> u64 {
    let span = |lo: u32, hi: u32, base: u32| {
        (
            lo.saturating_sub(base).min(BLOCK_SIZE),
            hi.saturating_sub(base).min(BLOCK_SIZE),
        )
    };
    let (c0, c1) = span(rect.x0, rect.x1, bx);
    let (r0, r1) = span(rect.y0, rect.y1, by);
    let row = low_bits(c1) & !low_bits(c0);
    let rows = low_bits(r1 * BLOCK_SIZE) & !low_bits(r0 * BLOCK_SIZE);
    (row * 0x0101_0101_0101_0101) & rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edge::FixedPoint;

    fn ccw_edges(p: [(i64, i64); 3]) -> [EdgeFunction; 3] {
        let v = p.map(|(x, y)| FixedPoint { x, y });
        assert!(v[0].cross(v[1], v[2]) > 0);
        [
            EdgeFunction::new(v[1], v[2]),
            EdgeFunction::new(v[2], v[0]),
            EdgeFunction::new(v[0], v[1]),
        ]
    }

    /// Reference: test every pixel centre directly.
    fn brute_force(edges: &[EdgeFunction; 3], bx: u32, by: u32) -> u64 {
        let mut m = 0;
        for bit in 0..64 {
            let (x, y) = (i64::from(bx) + bit % 8, i64::from(by) + bit / 8);
            if edges.iter().all(|e| e.at(x, y) >= 0) {
                m |= 1 << bit;
            }
        }
        m
    }

    #[test]
    fn block_mask_rows_matches_per_pixel_test() {
        let edges = ccw_edges([(100, 37), (5000, 1200), (1900, 4321)]);
        for by in (0..24).step_by(8) {
            for bx in (0..24).step_by(8) {
                let all = brute_force(&edges, bx, by);
                assert_eq!(block_mask_rows(&edges, bx, by, 0..8), all);
                for (r0, r1) in [(0, 8), (2, 5), (7, 8), (0, 1), (3, 3)] {
                    let rows = low_bits(r1 * BLOCK_SIZE) & !low_bits(r0 * BLOCK_SIZE);
                    assert_eq!(block_mask_rows(&edges, bx, by, r0..r1), all & rows);
                }
            }
        }
        // A block fully inside a large triangle is all ones without per-pixel work.
        let big = ccw_edges([(-100_000, -100_000), (100_000, -100_000), (0, 100_000)]);
        assert_eq!(block_mask_rows(&big, 0, 0, 0..8), u64::MAX);
    }

    #[test]
    fn rect_mask_selects_columns_and_rows() {
        let r = PixelRect {
            x0: 2,
            y0: 1,
            x1: 4,
            y1: 3,
        };
        let m = rect_mask(&r, 0, 0);
        assert_eq!(m, (0b1100 << 8) | (0b1100 << 16));
        let all = PixelRect {
            x0: 0,
            y0: 0,
            x1: 100,
            y1: 100,
        };
        assert_eq!(rect_mask(&all, 8, 8), u64::MAX);
    }

    #[test]
    fn rect_outside_rejects_far_rects_only() {
        let edges = ccw_edges([(0, 0), (2560, 0), (0, 2560)]); // 10-pixel right triangle
        assert!(rect_outside(
            &edges,
            &PixelRect {
                x0: 20,
                y0: 0,
                x1: 30,
                y1: 10
            }
        ));
        assert!(!rect_outside(
            &edges,
            &PixelRect {
                x0: 0,
                y0: 0,
                x1: 64,
                y1: 64
            }
        ));
    }
}
