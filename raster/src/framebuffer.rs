//! The framebuffer: RGBA8 colour and 24-bit depth, stored tile by tile.

use rayon::prelude::*;

use crate::blend::to_unorm8;
use crate::depth::quantize_depth;
use crate::error::{FramebufferError, MAX_FRAMEBUFFER_SIZE};
use crate::target_format::ColorTarget;
use crate::tile::{ClearValues, ColorRun, Tile, TileGrid};

/// A `width × height` RGBA8 UNORM colour buffer with a 24-bit depth buffer, addressed in
/// OpenGL window space: pixel `(0, 0)` is the **bottom-left** pixel.
///
/// A new framebuffer holds colour (0, 0, 0, 0) and depth 1.0. Depth values are 24-bit
/// unsigned normalized integers (`0..=DEPTH_MAX`, 1.0 = `DEPTH_MAX`), like OpenGL's
/// `GL_DEPTH_COMPONENT24`.
#[derive(Clone, Debug)]
pub struct Framebuffer {
    grid: TileGrid,
    tiles: Vec<Tile>,
    target: ColorTarget,
}

impl Framebuffer {
    /// A framebuffer of `width × height` pixels.
    ///
    /// # Errors
    /// [`FramebufferError::InvalidSize`] unless both sides are in
    /// `1..=MAX_FRAMEBUFFER_SIZE` (16384).
    pub fn new(width: u32, height: u32) -> Result<Self, FramebufferError> {
        Self::with_target(width, height, ColorTarget::RGBA8)
    }

    /// A framebuffer of `width × height` pixels whose colour buffer is `target`
    /// (`target_format.rs`): a wide target also stores `[u32; 4]` per pixel.
    ///
    /// # Errors
    /// As [`Framebuffer::new`].
    pub fn with_target(
        width: u32,
        height: u32,
        target: ColorTarget,
    ) -> Result<Self, FramebufferError> {
        let valid = 1..=MAX_FRAMEBUFFER_SIZE;
        if !valid.contains(&width) || !valid.contains(&height) {
            return Err(FramebufferError::InvalidSize {
                width,
                height,
                max: MAX_FRAMEBUFFER_SIZE,
            });
        }
        let grid = TileGrid::new(width, height);
        let new_tile = if target.is_wide() {
            Tile::new_wide
        } else {
            Tile::new
        };
        let tiles = (0..grid.tile_count())
            .map(|i| new_tile(grid.tile_rect(i)))
            .collect();
        Ok(Framebuffer {
            grid,
            tiles,
            target,
        })
    }

    /// The colour target's format.
    pub fn target(&self) -> ColorTarget {
        self.target
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.grid.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.grid.height
    }

    /// Sets every pixel's colour to `color` (RGBA floats, converted as
    /// `round(clamp(c, 0, 1) · 255)`) and its depth to `depth` (clamped to [0, 1],
    /// quantized to 24 bits), like `glClear` with the depth mask on.
    pub fn clear(&mut self, color: [f32; 4], depth: f32) {
        if self.target != ColorTarget::RGBA8 {
            return self.clear_target(color.map(f64::from), depth);
        }
        let values = ClearValues {
            color: color.map(to_unorm8),
            depth: quantize_depth(f64::from(depth)),
        };
        for tile in &mut self.tiles {
            tile.clear(values);
        }
    }

    /// Bytes of colour, depth and stencil storage allocated so far. Storage is
    /// allocated per 64×64 tile when a draw first writes it (16 KiB colour, 16 KiB
    /// depth once a draw tests depth, 4 KiB stencil once a draw tests stencil); pixels
    /// never drawn into hold their clear values without storage.
    pub fn storage_bytes(&self) -> usize {
        self.tiles.iter().map(Tile::storage_bytes).sum()
    }

    /// Sets every pixel's stencil value to `value` (`glClearStencil` then `glClear`
    /// with `GL_STENCIL_BUFFER_BIT`; GL 3.3 §4.2.3). A new framebuffer holds 0.
    pub fn clear_stencil(&mut self, value: u8) {
        for tile in &mut self.tiles {
            tile.clear_stencil(value);
        }
    }

    /// 8-bit stencil value of window pixel `(x, y)` (y up), or `None` outside.
    pub fn stencil(&self, x: u32, y: u32) -> Option<u8> {
        self.locate(x, y).map(|(tile, i)| tile.stencil(i))
    }

    /// [`Framebuffer::clear`] for any target: `color` converted as the target's
    /// format stores it ([`ColorTarget::clear_value`]: an integer target takes the
    /// integer part of each value exactly, as `glClearBufferiv`/`uiv`).
    pub fn clear_target(&mut self, color: [f64; 4], depth: f32) {
        let values = ClearValues {
            color: self.target.clear_rgba8(color.map(|c| c as f32)),
            depth: quantize_depth(f64::from(depth)),
        };
        let wide = self
            .target
            .is_wide()
            .then(|| self.target.clear_value(color));
        for tile in &mut self.tiles {
            tile.clear(values);
            if let Some(w) = wide {
                tile.clear_wide(w);
            }
        }
    }

    /// The colour buffer's values, top row first, as `glReadPixels` gives them for
    /// the target's format ([`ColorTarget::read`]): unorm channels as bytes 0..=255,
    /// float channels as `f32` bits, integers as they are; a format's missing
    /// channels read (0, 0, 1).
    pub fn target_values_top_down(&self) -> Vec<[u32; 4]> {
        let (w, h) = (self.width(), self.height());
        let target = self.target;
        (0..h)
            .rev()
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| {
                let (tile, i) = self.locate(x, y).expect("inside");
                if target.is_wide() {
                    target.read(tile.wide(i))
                } else {
                    tile.color(i).map(u32::from)
                }
            })
            .collect()
    }

    /// RGBA8 colour of window pixel `(x, y)` (y up), or `None` outside.
    pub fn color(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        self.locate(x, y).map(|(tile, i)| tile.color(i))
    }

    /// 24-bit depth of window pixel `(x, y)` (y up), or `None` outside.
    pub fn depth(&self, x: u32, y: u32) -> Option<u32> {
        self.locate(x, y).map(|(tile, i)| tile.depth(i))
    }

    /// The image as RGBA8 bytes, **top row first** (`width · height · 4` bytes): window
    /// space flipped vertically, exactly like `glReadPixels` followed by a vertical
    /// flip, which is what a PNG wants.
    pub fn to_rgba8_top_down(&self) -> Vec<u8> {
        if self.target.is_wide() {
            return self.wide_to_rgba8_top_down();
        }
        let (w, h) = (self.width() as usize, self.height() as usize);
        let mut out = vec![0u8; w * h * 4];
        out.par_chunks_mut(w * 4)
            .enumerate()
            .for_each(|(row, dst)| {
                let y = (h - 1 - row) as u32;
                let first = self.grid.tile_of(0, y);
                for tile in &self.tiles[first..first + self.grid.tiles_x as usize] {
                    let (x0, x1) = (tile.rect.x0 as usize, tile.rect.x1 as usize);
                    let pixels = dst[x0 * 4..x1 * 4].chunks_exact_mut(4);
                    match tile.color_run(tile.index(tile.rect.x0, y), x1 - x0) {
                        ColorRun::Uniform(c) => pixels.for_each(|d| d.copy_from_slice(&c)),
                        ColorRun::Stored(src) => {
                            pixels.zip(src).for_each(|(d, s)| d.copy_from_slice(s));
                        }
                    }
                }
            });
        out
    }

    /// A wide target as RGBA8 bytes (unorm channels as stored, float ones converted
    /// as fragment colours are, integers clamped to 255), top row first.
    fn wide_to_rgba8_top_down(&self) -> Vec<u8> {
        use crate::target_format::TargetClass;
        let class = self.target.format.class();
        self.target_values_top_down()
            .into_iter()
            .flat_map(|p| {
                p.map(|w| match class {
                    TargetClass::Float => to_unorm8(f32::from_bits(w)),
                    TargetClass::Int => (w as i32).clamp(0, 255) as u8,
                    _ => w.min(255) as u8,
                })
            })
            .collect()
    }

    /// The depth buffer as 24-bit values, top row first (`width · height` values).
    pub fn depth_top_down(&self) -> Vec<u32> {
        let (w, h) = (self.width(), self.height());
        (0..h)
            .rev()
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| self.depth(x, y).expect("inside"))
            .collect()
    }

    pub(crate) fn grid(&self) -> TileGrid {
        self.grid
    }

    pub(crate) fn tiles_mut(&mut self) -> &mut [Tile] {
        &mut self.tiles
    }

    fn locate(&self, x: u32, y: u32) -> Option<(&Tile, usize)> {
        if x >= self.width() || y >= self.height() {
            return None;
        }
        let tile = &self.tiles[self.grid.tile_of(x, y)];
        Some((tile, tile.index(x, y)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::depth::DEPTH_MAX;

    #[test]
    fn size_limits() {
        assert!(Framebuffer::new(1, 1).is_ok());
        assert!(Framebuffer::new(16384, 1).is_ok());
        for (w, h) in [(0, 1), (1, 0), (16385, 4)] {
            assert_eq!(
                Framebuffer::new(w, h).unwrap_err(),
                FramebufferError::InvalidSize {
                    width: w,
                    height: h,
                    max: 16384
                }
            );
        }
    }

    #[test]
    fn clear_converts_colour_and_depth() {
        let mut fb = Framebuffer::new(70, 3).unwrap();
        assert_eq!(fb.depth(0, 0), Some(DEPTH_MAX));
        fb.clear([0.1, 0.5, 1.2, -1.0], 0.5);
        assert_eq!(fb.color(69, 2), Some([26, 128, 255, 0]));
        assert_eq!(fb.depth(65, 1), Some(1 << 23));
        assert_eq!(fb.color(70, 0), None);
    }

    #[test]
    fn readout_is_top_row_first() {
        let mut fb = Framebuffer::new(2, 2).unwrap();
        fb.clear([0.0; 4], 1.0);
        let bottom_left = fb.grid.tile_of(0, 0);
        let i = fb.tiles[bottom_left].index(0, 0);
        fb.tiles[bottom_left].pixels_mut(true, false).color[i] = [1, 2, 3, 4];
        let bytes = fb.to_rgba8_top_down();
        // Window (0, 0) is the bottom-left pixel: the first pixel of the last row.
        assert_eq!(&bytes[8..12], &[1, 2, 3, 4]);
        assert_eq!(&bytes[0..4], &[0, 0, 0, 0]);
        assert_eq!(fb.depth_top_down().len(), 4);
    }
}
