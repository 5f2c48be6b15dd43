//! Memory budgets: what a render will allocate for its framebuffer and textures,
//! estimated before anything is allocated, and checked against a limit
//! (`--max-memory`), so a scene too large for the machine is a clear error naming the
//! need and the limit, never an abort from a failed allocation.
//!
//! The estimate counts the large buffers, which dominate for every big scene:
//!
//! - the framebuffer: RGBA8 colour and 24-bit depth (stored as `u32`), 8 bytes per
//!   pixel, padded to whole 64×64 tiles ([`csir_raster::TILE_SIZE`]);
//! - the read-back: the finished image as RGBA8 rows for the PNG, 4 bytes per pixel;
//! - the textures: 4 bytes per texel each (RGBA8), plus, while one is being decoded, a
//!   second copy of it (the decoder's buffer before it is flipped into texel order);
//! - the geometry: [`GEOMETRY_BYTES_PER_TRIANGLE`] per triangle and
//!   [`GEOMETRY_BYTES_PER_VERTEX`] per vertex of every draw (a mesh of a few vertices
//!   can still make tens of millions of triangles).
//!
//! Shaders and the PNG encoder's output are not counted: they are small next to these
//! for any scene large enough to matter (docs/scene-format.md, "Memory").

use std::fmt;
use std::sync::OnceLock;

pub mod machine;

/// The largest default limit: 4 GiB, room for the largest frame, 16384×16384 RGBA8
/// colour and depth (2 GiB) with its read-back (1 GiB), plus 1 GiB of textures. On a
/// machine with less, the default is lower ([`default_max_memory`]).
pub const DEFAULT_MAX_MEMORY: u64 = 4 << 30;

/// The default limit on this machine and why: [`DEFAULT_MAX_MEMORY`], or less where the
/// machine gives the process less ([`machine::machine_bounds`]): 7/8 of the cgroup's
/// memory limit and of `MemAvailable`, 3/4 of `RLIMIT_AS` (which also counts code,
/// thread stacks and reserved address space). The fraction left is room for what the
/// estimate does not count (the program, shaders, the PNG encoder).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefaultLimit {
    /// The limit in bytes.
    pub bytes: u64,
    /// The machine bound that set it, when it is below [`DEFAULT_MAX_MEMORY`].
    pub set_by: Option<machine::MemoryBound>,
}

impl DefaultLimit {
    /// The default for `bounds` (see the type's docs for the fractions).
    pub fn from_bounds(bounds: &[machine::MemoryBound]) -> DefaultLimit {
        let mut limit = DefaultLimit {
            bytes: DEFAULT_MAX_MEMORY,
            set_by: None,
        };
        for bound in bounds {
            let usable = if bound.source == "RLIMIT_AS" {
                bound.bytes / 4 * 3
            } else {
                bound.bytes / 8 * 7
            };
            if usable < limit.bytes {
                limit = DefaultLimit {
                    bytes: usable.max(1),
                    set_by: Some(bound.clone()),
                };
            }
        }
        limit
    }
}

impl fmt::Display for DefaultLimit {
    /// `4.00 GiB`, or `1.75 GiB (7/8 of the cgroup's memory.max, 2.00 GiB)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Bytes(self.bytes))?;
        if let Some(bound) = &self.set_by {
            let part = if bound.source == "RLIMIT_AS" {
                "3/4"
            } else {
                "7/8"
            };
            write!(f, " ({part} of {}, {})", bound.source, Bytes(bound.bytes))?;
        }
        Ok(())
    }
}

/// This machine's default limit, read once per process ([`DefaultLimit`]).
pub fn machine_default() -> &'static DefaultLimit {
    static DEFAULT: OnceLock<DefaultLimit> = OnceLock::new();
    DEFAULT.get_or_init(|| DefaultLimit::from_bounds(&machine::machine_bounds()))
}

/// This machine's default limit in bytes ([`machine_default`]): what
/// `Scene::load`, `check` and the command line use when no limit is given.
pub fn default_max_memory() -> u64 {
    machine_default().bytes
}

/// Bytes per framebuffer pixel: RGBA8 colour (4) and depth as `u32` (4).
pub const FRAMEBUFFER_BYTES_PER_PIXEL: u64 = 8;
/// Bytes per pixel of the read-back image and per texel of a texture (RGBA8).
pub const RGBA8_BYTES: u64 = 4;
/// Bytes counted per triangle of a draw: the index triple, the clipped and set-up
/// triangle, its bin entries and, for an OBJ mesh, the reader's corners. Measured
/// (2026-12-04, `render` of 64×64 frames, peak resident memory of meshes of 0.97 M and
/// 3.88 M triangles on 3 vertices): 144 bytes per triangle; counted with some room.
pub const GEOMETRY_BYTES_PER_TRIANGLE: u64 = 160;
/// Bytes counted per number of an OBJ mesh's `v`, `vt` and `vn` lines while the mesh
/// is read: an `f32` held three times (in the reader's chunk, in the joined list, in
/// the mesh's attribute). The mesh's text counts too, 1 byte per byte, until it is
/// parsed.
pub const OBJ_BYTES_PER_NUMBER: u64 = 3 * 4;
/// Bytes counted per vertex of a draw: its attributes and its shaded outputs.
/// Measured as for [`GEOMETRY_BYTES_PER_TRIANGLE`] (300 k triangles with 3 own
/// vertices each against the same triangles on 3 shared ones): 54–66 bytes for a
/// position-only mesh; counted with room for normals, texture coordinates and
/// varyings.
pub const GEOMETRY_BYTES_PER_VERTEX: u64 = 96;

/// What a frame's pixels are allocated for, which sets the framebuffer part of a
/// [`MemoryEstimate`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FrameUse {
    /// A render: every tile of the framebuffer and the read-back image.
    #[default]
    Render,
    /// A pixel trace (`trace`): only the 64×64 tile holding the pixel is drawn and
    /// allocated, and nothing is read back.
    PixelTrace,
}

/// An estimate of a render's large allocations, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryEstimate {
    /// Framebuffer tiles (colour and depth).
    pub framebuffer: u64,
    /// The RGBA8 image read back for the PNG.
    pub readback: u64,
    /// Textures kept for the render, and the transient copy of the one being decoded.
    pub textures: u64,
    /// Every draw's triangles and vertices ([`MemoryEstimate::geometry_bytes`]).
    pub geometry: u64,
    /// The OBJ mesh being read: its text, held whole while it is parsed, and the
    /// numbers parsed from it (0 at other times).
    pub mesh_reading: u64,
    /// The scene file's text and the JSON tree parsed from it, both held while the
    /// scene is loaded (0 at other times; counted as the parse reads it, so a scene
    /// file too large for the limit is refused before its tree is built). Both are
    /// freed before the framebuffer is allocated, so [`total`](Self::total) counts the
    /// larger of the two.
    pub scene_json: u64,
}

impl MemoryEstimate {
    /// The framebuffer and read-back of a `width × height` frame (each side
    /// 1..=16384 in a scene; larger values saturate at `u64::MAX`, never overflow).
    pub fn frame(width: u32, height: u32) -> MemoryEstimate {
        let tile = u64::from(csir_raster::TILE_SIZE);
        let tiles = u64::from(width).div_ceil(tile) * u64::from(height).div_ceil(tile);
        MemoryEstimate {
            framebuffer: tiles
                .saturating_mul(tile * tile)
                .saturating_mul(FRAMEBUFFER_BYTES_PER_PIXEL),
            readback: (u64::from(width) * u64::from(height)).saturating_mul(RGBA8_BYTES),
            textures: 0,
            geometry: 0,
            mesh_reading: 0,
            scene_json: 0,
        }
    }

    /// The framebuffer (and read-back) a `width × height` frame needs for `frame_use`:
    /// [`MemoryEstimate::frame`] for a render, one tile for a pixel trace.
    pub fn frame_for(width: u32, height: u32, frame_use: FrameUse) -> MemoryEstimate {
        match frame_use {
            FrameUse::Render => Self::frame(width, height),
            FrameUse::PixelTrace => {
                let tile = u64::from(csir_raster::TILE_SIZE);
                MemoryEstimate {
                    framebuffer: tile * tile * FRAMEBUFFER_BYTES_PER_PIXEL,
                    ..MemoryEstimate::default()
                }
            }
        }
    }

    /// Bytes counted for a draw of `triangles` triangles and `vertices` vertices
    /// (saturating).
    pub fn geometry_bytes(triangles: u64, vertices: u64) -> u64 {
        triangles
            .saturating_mul(GEOMETRY_BYTES_PER_TRIANGLE)
            .saturating_add(vertices.saturating_mul(GEOMETRY_BYTES_PER_VERTEX))
    }

    /// Bytes of one `width × height` RGBA8 texture (saturating).
    pub fn texture_bytes(width: u32, height: u32) -> u64 {
        (u64::from(width) * u64::from(height)).saturating_mul(RGBA8_BYTES)
    }

    /// Bytes of the mip levels 1, 2, … of a `width × height` RGBA8 texture (each side
    /// `max(1, ⌊side/2⌋)` of the one before, down to 1×1; saturating): what a mipmapped
    /// sampler adds to its texture (scene-format.md "Samplers").
    pub fn mip_chain_bytes(width: u32, height: u32) -> u64 {
        let (mut w, mut h, mut bytes) = (width, height, 0u64);
        while w > 1 || h > 1 {
            (w, h) = ((w / 2).max(1), (h / 2).max(1));
            bytes = bytes.saturating_add(Self::texture_bytes(w, h));
        }
        bytes
    }

    /// The sum of the parts (saturating), counting the larger of the frame
    /// (framebuffer and read-back) and the scene JSON, which are never held together.
    pub fn total(&self) -> u64 {
        self.frame_or_json()
            .saturating_add(self.textures)
            .saturating_add(self.geometry)
            .saturating_add(self.mesh_reading)
    }

    /// The larger of the frame's bytes (framebuffer and read-back) and the scene
    /// JSON's.
    fn frame_or_json(&self) -> u64 {
        self.frame_bytes().max(self.scene_json)
    }

    /// The frame's bytes: framebuffer and read-back.
    fn frame_bytes(&self) -> u64 {
        self.framebuffer.saturating_add(self.readback)
    }

    /// `Ok` when [`total`](Self::total) is at most `limit` bytes.
    ///
    /// # Errors
    /// [`OverBudget`] naming the need, its parts and the limit.
    pub fn check(&self, limit: u64) -> Result<(), OverBudget> {
        if self.total() <= limit {
            Ok(())
        } else {
            Err(OverBudget { need: *self, limit })
        }
    }
}

/// A render that would need more memory than its limit allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverBudget {
    /// What it would need.
    pub need: MemoryEstimate,
    /// The limit, in bytes.
    pub limit: u64,
}

impl fmt::Display for OverBudget {
    /// `the render needs about 3.00 GiB (framebuffer 2.00 GiB, read-back 1.00 GiB,
    /// textures 0 B), above the memory limit of 1.00 GiB (--max-memory)`, with
    /// `, geometry N` after the textures when the draws so far count any, and
    /// `, OBJ reading N` while an OBJ mesh is read, and `, scene JSON N, counted
    /// instead of the frame, …` while a scene file larger than the frame is loaded.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = &self.need;
        write!(
            f,
            "the render needs about {} (framebuffer {}, read-back {}, textures {}",
            Bytes(n.total()),
            Bytes(n.framebuffer),
            Bytes(n.readback),
            Bytes(n.textures),
        )?;
        if n.geometry > 0 {
            write!(f, ", geometry {}", Bytes(n.geometry))?;
        }
        if n.mesh_reading > 0 {
            write!(f, ", OBJ reading {}", Bytes(n.mesh_reading))?;
        }
        if n.scene_json > n.frame_bytes() {
            write!(
                f,
                ", scene JSON {}, counted instead of the frame, which is allocated after \
                 it is freed",
                Bytes(n.scene_json)
            )?;
        }
        write!(
            f,
            "), above the memory limit of {} (--max-memory",
            Bytes(self.limit)
        )?;
        // Name the machine's bound when the limit is the default it lowered.
        let default = machine_default();
        match &default.set_by {
            Some(_) if default.bytes == self.limit => {
                write!(f, "; this machine's default: {default})")
            }
            _ => write!(f, ")"),
        }
    }
}

impl std::error::Error for OverBudget {}

/// A byte count for people: `0 B`, `512 B`, `1.50 KiB`, `3.00 GiB` (binary units,
/// two decimals).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bytes(pub u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
        if self.0 < 1024 {
            return write!(f, "{} B", self.0);
        }
        let mut value = self.0 as f64 / 1024.0;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        write!(f, "{value:.2} {}", UNITS[unit])
    }
}

/// Parse a `--max-memory` value: a whole number of bytes, optionally followed by a
/// binary unit `K`, `M`, `G` or `T` (KiB, MiB, GiB, TiB; any case, an optional `iB`
/// or `B`): `4G`, `512M`, `1073741824`, `1.5G` is not accepted (whole numbers only).
///
/// # Errors
/// A message naming the text, for an empty or non-numeric value, an unknown unit, zero,
/// or a value above `u64::MAX` bytes.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let bad = |why: &str| format!("'{text}' is not a memory size ({why}; e.g. 4G, 512M, 1048576)");
    let t = text.trim();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(bad("it must start with a whole number"));
    }
    let (number, unit) = t.split_at(digits);
    if unit.starts_with(['.', ',']) {
        return Err(bad("whole numbers only"));
    }
    let number: u64 = number.parse().map_err(|_| bad("the number is too large"))?;
    let unit = unit.trim().to_ascii_lowercase();
    let shift = match unit.trim_end_matches("ib").trim_end_matches('b') {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => return Err(bad("unknown unit; use K, M, G or T")),
    };
    let bytes = number
        .checked_mul(1u64 << shift)
        .ok_or_else(|| bad("the size is too large"))?;
    if bytes == 0 {
        return Err(bad("it must be more than 0"));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_follows_the_smallest_machine_bound() {
        let bound = |bytes, source| machine::MemoryBound { bytes, source };
        let none = DefaultLimit::from_bounds(&[]);
        assert_eq!(none.bytes, DEFAULT_MAX_MEMORY);
        assert_eq!(none.to_string(), "4.00 GiB");
        let big = DefaultLimit::from_bounds(&[bound(64 << 30, "MemAvailable")]);
        assert_eq!(big.bytes, DEFAULT_MAX_MEMORY);
        let limited = DefaultLimit::from_bounds(&[
            bound(8 << 30, "MemAvailable"),
            bound(2 << 30, "the cgroup's memory.max"),
            bound(3 << 30, "RLIMIT_AS"),
        ]);
        assert_eq!(limited.bytes, (2u64 << 30) / 8 * 7);
        assert_eq!(
            limited.to_string(),
            "1.75 GiB (7/8 of the cgroup's memory.max, 2.00 GiB)"
        );
        let address = DefaultLimit::from_bounds(&[bound(2 << 30, "RLIMIT_AS")]);
        assert_eq!(address.bytes, 3 << 29);
        // A 16384² frame (3 GiB with its read-back) is over a 2 GiB container's default.
        let frame = MemoryEstimate::frame(16384, 16384);
        assert!(frame.check(limited.bytes).is_err());
    }

    #[test]
    fn the_largest_frame_needs_three_gib_and_fits_the_default() {
        let e = MemoryEstimate::frame(16384, 16384);
        assert_eq!(e.framebuffer, 2 << 30);
        assert_eq!(e.readback, 1 << 30);
        assert_eq!(e.total(), 3 << 30);
        assert!(e.check(DEFAULT_MAX_MEMORY).is_ok());
        // Room left for 1 GiB of textures, not one byte more.
        let with = MemoryEstimate {
            textures: 1 << 30,
            ..e
        };
        assert!(with.check(DEFAULT_MAX_MEMORY).is_ok());
        let over = MemoryEstimate {
            textures: (1 << 30) + 1,
            ..e
        };
        assert_eq!(
            over.check(DEFAULT_MAX_MEMORY).unwrap_err().to_string(),
            "the render needs about 4.00 GiB (framebuffer 2.00 GiB, read-back 1.00 GiB, textures 1.00 GiB), above the memory limit of 4.00 GiB (--max-memory)"
        );
    }

    #[test]
    fn frames_are_padded_to_whole_tiles() {
        // 65×1: two 64×64 tiles of 8 bytes per pixel; read-back 65·4.
        let e = MemoryEstimate::frame(65, 1);
        assert_eq!(e.framebuffer, 2 * 64 * 64 * 8);
        assert_eq!(e.readback, 260);
        assert_eq!(MemoryEstimate::texture_bytes(3, 5), 60);
        // 4x4 -> 2x2 -> 1x1; 5x3 -> 2x1 -> 1x1
        assert_eq!(MemoryEstimate::mip_chain_bytes(4, 4), (4 + 1) * 4);
        assert_eq!(MemoryEstimate::mip_chain_bytes(5, 3), (2 + 1) * 4);
        assert_eq!(MemoryEstimate::mip_chain_bytes(1, 1), 0);
        // No overflow even far past the format's limits.
        let e = MemoryEstimate::frame(u32::MAX, u32::MAX);
        assert_eq!(e.total(), u64::MAX);
        assert_eq!(MemoryEstimate::geometry_bytes(2, 3), 2 * 160 + 3 * 96);
        assert_eq!(MemoryEstimate::geometry_bytes(u64::MAX, 1), u64::MAX);
        let frame = MemoryEstimate::frame(64, 64); // 32 KiB + 16 KiB
        assert_eq!(frame.total(), 48 * 1024);
        let reading = MemoryEstimate {
            mesh_reading: 1000,
            ..frame
        };
        assert_eq!(reading.total(), 48 * 1024 + 1000);
    }

    #[test]
    fn byte_counts_print_in_binary_units() {
        assert_eq!(Bytes(0).to_string(), "0 B");
        assert_eq!(Bytes(1023).to_string(), "1023 B");
        assert_eq!(Bytes(1536).to_string(), "1.50 KiB");
        assert_eq!(Bytes(3 << 30).to_string(), "3.00 GiB");
        assert_eq!(Bytes(u64::MAX).to_string(), "16.00 EiB");
    }

    #[test]
    fn memory_sizes_parse_with_binary_units() {
        assert_eq!(parse_bytes("4G"), Ok(4 << 30));
        assert_eq!(parse_bytes("512m"), Ok(512 << 20));
        assert_eq!(parse_bytes("2GiB"), Ok(2 << 30));
        assert_eq!(parse_bytes("64KB"), Ok(64 << 10));
        assert_eq!(parse_bytes("1T"), Ok(1 << 40));
        assert_eq!(parse_bytes("1048576"), Ok(1 << 20));
        assert_eq!(parse_bytes(" 7 "), Ok(7));
        for bad in [
            "",
            "G",
            "1.5G",
            "-1",
            "0",
            "0G",
            "3X",
            "99999999999999999999",
            "17179869184T",
        ] {
            let e = parse_bytes(bad).unwrap_err();
            assert!(
                e.starts_with(&format!("'{bad}' is not a memory size (")),
                "{e}"
            );
        }
    }
}
