//! Tiles: the framebuffer is split into square tiles that are rasterized independently
//! (and in parallel); each tile owns its pixels' colour and depth.

use crate::depth::DEPTH_MAX;
use crate::depth_bound::BLOCKS_PER_TILE;

/// Tile edge in pixels. Tiles are aligned to multiples of this; edge tiles are
/// partly outside the framebuffer.
pub const TILE_SIZE: u32 = 64;

/// Pixels stored per tile (edge tiles store the full square too).
pub(crate) const TILE_PIXELS: usize = (TILE_SIZE * TILE_SIZE) as usize;

/// A rectangle of pixels `x0..x1 × y0..y1` (ends exclusive) in window space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PixelRect {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

impl PixelRect {
    pub fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }

    pub fn intersect(&self, other: &PixelRect) -> PixelRect {
        PixelRect {
            x0: self.x0.max(other.x0),
            y0: self.y0.max(other.y0),
            x1: self.x1.min(other.x1),
            y1: self.y1.min(other.y1),
        }
    }
}

/// How a `width × height` framebuffer divides into tiles (row-major, row 0 at the
/// bottom of window space).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TileGrid {
    pub width: u32,
    pub height: u32,
    pub tiles_x: u32,
    pub tiles_y: u32,
}

impl TileGrid {
    pub fn new(width: u32, height: u32) -> Self {
        TileGrid {
            width,
            height,
            tiles_x: width.div_ceil(TILE_SIZE),
            tiles_y: height.div_ceil(TILE_SIZE),
        }
    }

    pub fn tile_count(&self) -> usize {
        (self.tiles_x * self.tiles_y) as usize
    }

    /// The framebuffer's pixels.
    pub fn bounds(&self) -> PixelRect {
        PixelRect {
            x0: 0,
            y0: 0,
            x1: self.width,
            y1: self.height,
        }
    }

    /// Pixels of tile `index` that lie inside the framebuffer.
    pub fn tile_rect(&self, index: usize) -> PixelRect {
        let (tx, ty) = (index as u32 % self.tiles_x, index as u32 / self.tiles_x);
        PixelRect {
            x0: tx * TILE_SIZE,
            y0: ty * TILE_SIZE,
            x1: ((tx + 1) * TILE_SIZE).min(self.width),
            y1: ((ty + 1) * TILE_SIZE).min(self.height),
        }
    }

    /// Index of the tile holding pixel `(x, y)` (which must be inside).
    pub fn tile_of(&self, x: u32, y: u32) -> usize {
        ((y / TILE_SIZE) * self.tiles_x + x / TILE_SIZE) as usize
    }
}

/// Storage index of window pixel `(x, y)` in the tile whose pixels are `rect`.
#[inline(always)]
pub(crate) fn storage_index(rect: &PixelRect, x: u32, y: u32) -> usize {
    ((y - rect.y0) * TILE_SIZE + (x - rect.x0)) as usize
}

/// Values a clear stores into every pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ClearValues {
    pub color: [u8; 4],
    pub depth: u32,
}

/// One tile's pixels: RGBA8 colour and 24-bit depth, row-major from the tile's
/// bottom-left pixel, `TILE_SIZE` pixels per row.
///
/// A clear is only recorded (`pending_color`, `pending_depth`) and applied when the
/// tile is next drawn into, so the fill happens in parallel and right before the pixels
/// are used (as llvmpipe bins clears); the depth fill waits for the first draw that
/// tests depth. Reads see the pending values.
///
/// Storage is allocated when it is first lent out: a new tile holds pending values
/// (colour (0, 0, 0, 0), depth 1.0) and empty storage, so a frame's memory grows with
/// the tiles drawn into (a pixel trace draws one tile of any frame size). Empty
/// storage always has its pending value.
///
/// `depth_bound` holds an upper bound of each 8×8 block's stored depth
/// (`depth_bound.rs`); it is set with the depth storage here and kept by the
/// rasterizer's writes.
#[derive(Clone, Debug)]
pub(crate) struct Tile {
    pub rect: PixelRect,
    color: Box<[[u8; 4]]>,
    depth: Box<[u32]>,
    depth_bound: Box<[u32; BLOCKS_PER_TILE]>,
    pending_color: Option<[u8; 4]>,
    pending_depth: Option<u32>,
    /// The 8-bit stencil buffer beside the depth buffer (`depth24_stencil8`),
    /// allocated by the first draw with a stencil test; until then every value is
    /// `pending_stencil` (or 0).
    stencil: Box<[u8]>,
    pending_stencil: Option<u8>,
    /// A wide target's words (`target_format.rs`), empty for an RGBA8 target.
    wide: Box<[[u32; 4]]>,
    pending_wide: Option<[u32; 4]>,
}

impl Tile {
    pub fn new(rect: PixelRect) -> Self {
        Tile {
            rect,
            color: Box::default(),
            depth: Box::default(),
            depth_bound: Box::new([DEPTH_MAX; BLOCKS_PER_TILE]),
            pending_color: Some([0; 4]),
            pending_depth: Some(DEPTH_MAX),
            stencil: Box::default(),
            pending_stencil: None,
            wide: Box::default(),
            pending_wide: None,
        }
    }

    /// Records a clear of every pixel's stencil value (`glClearStencil`, `glClear`
    /// with `GL_STENCIL_BUFFER_BIT`).
    pub fn clear_stencil(&mut self, value: u8) {
        self.pending_stencil = Some(value);
    }

    /// Stencil value of storage index `i`.
    pub fn stencil(&self, i: usize) -> u8 {
        match self.pending_stencil {
            Some(v) => v,
            None => self.stencil.get(i).copied().unwrap_or(0),
        }
    }

    /// Applies a pending stencil clear (allocating the storage on first use).
    fn apply_stencil_clear(&mut self) {
        if self.stencil.is_empty() {
            self.stencil = vec![self.pending_stencil.unwrap_or(0); TILE_PIXELS].into_boxed_slice();
        } else if let Some(v) = self.pending_stencil {
            self.stencil.fill(v);
        }
        self.pending_stencil = None;
    }

    /// A tile whose colour is a wide target (`target_format.rs`): `[u32; 4]` per
    /// pixel besides the (unused) RGBA8 storage.
    pub fn new_wide(rect: PixelRect) -> Self {
        Tile {
            wide: vec![[0; 4]; TILE_PIXELS].into_boxed_slice(),
            ..Tile::new(rect)
        }
    }

    /// Records a clear of a wide target's words.
    pub fn clear_wide(&mut self, words: [u32; 4]) {
        self.pending_wide = Some(words);
    }

    /// The wide target's words at storage index `i` (all zero for an RGBA8 tile).
    pub fn wide(&self, i: usize) -> [u32; 4] {
        self.pending_wide
            .or_else(|| self.wide.get(i).copied())
            .unwrap_or_default()
    }

    /// Storage index of window pixel `(x, y)`, which must lie in this tile.
    #[inline]
    pub fn index(&self, x: u32, y: u32) -> usize {
        storage_index(&self.rect, x, y)
    }

    /// Records a clear of every pixel.
    pub fn clear(&mut self, values: ClearValues) {
        self.pending_color = Some(values.color);
        self.pending_depth = Some(values.depth);
    }

    /// Colour storage for writing, and depth storage and its per-block bounds if
    /// `with_depth` (else empty slices: a draw that does not test depth neither reads
    /// nor writes them), and the stencil storage if `with_stencil` (else empty), with
    /// any pending clear of what is returned applied first.
    pub fn pixels_mut(&mut self, with_depth: bool, with_stencil: bool) -> TilePixels<'_> {
        if let Some(c) = self.pending_color.take() {
            if self.color.is_empty() {
                self.color = vec![c; TILE_PIXELS].into_boxed_slice();
            } else {
                self.color.fill(c);
            }
        }
        if with_stencil {
            self.apply_stencil_clear();
        }
        let stencil: &mut [u8] = if with_stencil {
            &mut self.stencil
        } else {
            &mut []
        };
        if let Some(w) = self.pending_wide.take() {
            self.wide.fill(w);
        }
        if !with_depth {
            return TilePixels {
                color: &mut self.color,
                depth: &mut [],
                depth_bound: &mut [],
                stencil,
                wide: &mut self.wide,
            };
        }
        if let Some(d) = self.pending_depth.take() {
            if self.depth.is_empty() {
                self.depth = vec![d; TILE_PIXELS].into_boxed_slice();
            } else {
                self.depth.fill(d);
            }
            self.depth_bound.fill(d);
        }
        TilePixels {
            color: &mut self.color,
            depth: &mut self.depth,
            depth_bound: &mut self.depth_bound[..],
            stencil,
            wide: &mut self.wide,
        }
    }

    /// Bytes of colour (RGBA8 and a wide target's), depth and stencil storage
    /// allocated.
    pub fn storage_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.color)
            + std::mem::size_of_val(&*self.depth)
            + std::mem::size_of_val(&*self.stencil)
            + std::mem::size_of_val(&*self.wide)
    }

    /// Colour of storage index `i`.
    pub fn color(&self, i: usize) -> [u8; 4] {
        self.pending_color.unwrap_or_else(|| self.color[i])
    }

    /// Depth of storage index `i`.
    pub fn depth(&self, i: usize) -> u32 {
        self.pending_depth.unwrap_or_else(|| self.depth[i])
    }

    /// Colours of `len` pixels from storage index `start`.
    pub fn color_run(&self, start: usize, len: usize) -> ColorRun<'_> {
        match self.pending_color {
            Some(c) => ColorRun::Uniform(c),
            None => ColorRun::Stored(&self.color[start..start + len]),
        }
    }
}

/// A tile's storage as [`Tile::pixels_mut`] lends it out.
pub(crate) struct TilePixels<'a> {
    pub color: &'a mut [[u8; 4]],
    pub depth: &'a mut [u32],
    /// Upper bound of each block's stored depth (`depth_bound.rs`).
    pub depth_bound: &'a mut [u32],
    /// 8-bit stencil values (empty unless asked for).
    pub stencil: &'a mut [u8],
    /// A wide target's words (`target_format.rs`; empty for RGBA8).
    pub wide: &'a mut [[u32; 4]],
}

/// A run of pixel colours within one tile row.
pub(crate) enum ColorRun<'a> {
    /// Every pixel has this colour (a pending clear).
    Uniform([u8; 4]),
    /// Stored colours.
    Stored(&'a [[u8; 4]]),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_covers_framebuffer_with_partial_edge_tiles() {
        let g = TileGrid::new(130, 64);
        assert_eq!((g.tiles_x, g.tiles_y, g.tile_count()), (3, 1, 3));
        assert_eq!(
            g.tile_rect(2),
            PixelRect {
                x0: 128,
                y0: 0,
                x1: 130,
                y1: 64
            }
        );
        assert_eq!(g.tile_of(129, 63), 2);
        let t = Tile::new(g.tile_rect(1));
        assert_eq!(t.index(64, 0), 0);
        assert_eq!(t.index(65, 1), 65);
    }

    #[test]
    fn storage_is_allocated_when_first_drawn_into() {
        let mut t = Tile::new(TileGrid::new(64, 64).tile_rect(0));
        assert!(t.color.is_empty() && t.depth.is_empty());
        assert_eq!((t.color(4095), t.depth(4095)), ([0; 4], DEPTH_MAX));
        assert_eq!(t.pixels_mut(false, false).color.len(), TILE_PIXELS);
        assert!(
            t.depth.is_empty(),
            "a draw without depth leaves depth unallocated"
        );
        assert_eq!(t.depth(7), DEPTH_MAX);
        let pixels = t.pixels_mut(true, false);
        assert_eq!((pixels.color[9], pixels.depth[9]), ([0; 4], DEPTH_MAX));
    }

    #[test]
    fn pending_clear_is_seen_by_reads_and_applied_before_writes() {
        let mut t = Tile::new(TileGrid::new(64, 64).tile_rect(0));
        t.pixels_mut(true, false).color[5] = [9; 4];
        t.clear(ClearValues {
            color: [1, 2, 3, 4],
            depth: 7,
        });
        assert_eq!((t.color(5), t.depth(5)), ([1, 2, 3, 4], 7));
        // A draw without depth: the colour clear is applied, the depth clear waits.
        let pixels = t.pixels_mut(false, false);
        assert!(pixels.depth.is_empty() && pixels.depth_bound.is_empty());
        pixels.color[6] = [5; 4];
        assert_eq!(
            (t.color(6), t.color(5), t.depth(5)),
            ([5; 4], [1, 2, 3, 4], 7)
        );
        let pixels = t.pixels_mut(true, false);
        assert_eq!((pixels.color[6], pixels.depth[4095]), ([5; 4], 7));
        assert_eq!(
            pixels.depth_bound,
            &[7; BLOCKS_PER_TILE][..],
            "a clear sets the bounds"
        );
    }
}
