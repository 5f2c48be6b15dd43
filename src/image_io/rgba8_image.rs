//! [`Rgba8Image`], the one image type of the project: 8-bit RGBA, row-major, top row
//! first (PNG order), with its size invariant checked on construction.

/// An 8-bit RGBA image, row-major, **top row first** (PNG order).
///
/// Invariant: `pixels.len() == width · height · 4`, width and height ≥ 1. Channel values
/// are UNORM8: 0 = 0.0, 255 = 1.0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgba8Image {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Rgba8Image {
    /// Wraps a pixel buffer (`width · height · 4` bytes, top row first).
    ///
    /// Returns `None` when a side is 0 or the buffer length does not match.
    pub fn new(width: u32, height: u32, pixels: Vec<u8>) -> Option<Self> {
        let expected = (width as usize)
            .checked_mul(height as usize)?
            .checked_mul(4)?;
        (width >= 1 && height >= 1 && pixels.len() == expected).then_some(Self {
            width,
            height,
            pixels,
        })
    }

    /// An image of one colour.
    ///
    /// Returns `None` when a side is 0 or the image would not fit in memory addressing.
    pub fn filled(width: u32, height: u32, rgba: [u8; 4]) -> Option<Self> {
        let count = (width as usize).checked_mul(height as usize)?;
        let mut pixels = Vec::new();
        pixels.try_reserve_exact(count.checked_mul(4)?).ok()?;
        for _ in 0..count {
            pixels.extend_from_slice(&rgba);
        }
        Self::new(width, height, pixels)
    }

    /// Width in pixels (≥ 1).
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels (≥ 1).
    pub fn height(&self) -> u32 {
        self.height
    }

    /// All pixels, RGBA8, top row first; `width · height · 4` bytes.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// All pixels, mutable (the length cannot change).
    pub fn pixels_mut(&mut self) -> &mut [u8] {
        &mut self.pixels
    }

    /// Gives the pixel buffer back.
    pub fn into_pixels(self) -> Vec<u8> {
        self.pixels
    }

    /// The pixel at column `x` (0 = left) and row `y` (0 = **top**), or `None` outside.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        let p = &self.pixels[i..i + 4];
        Some([p[0], p[1], p[2], p[3]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_checks_the_buffer_length_and_sides() {
        assert!(Rgba8Image::new(2, 3, vec![0; 24]).is_some());
        assert!(Rgba8Image::new(2, 3, vec![0; 23]).is_none());
        assert!(Rgba8Image::new(0, 3, vec![]).is_none());
        assert!(Rgba8Image::new(u32::MAX, u32::MAX, vec![]).is_none());
    }

    #[test]
    fn pixel_is_addressed_top_row_first() {
        let mut img = Rgba8Image::filled(3, 2, [1, 2, 3, 4]).unwrap();
        img.pixels_mut()[(3 + 2) * 4] = 200; // row 1 (bottom), column 2
        assert_eq!(img.pixel(2, 1), Some([200, 2, 3, 4]));
        assert_eq!(img.pixel(2, 0), Some([1, 2, 3, 4]));
        assert_eq!(img.pixel(3, 0), None);
        assert_eq!(img.pixel(0, 2), None);
    }
}
