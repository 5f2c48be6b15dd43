//! The GL 3.3 sampler state of a binding (GL 3.3 §3.8.8, Table 6.23): three wrap
//! modes with `CLAMP_TO_BORDER` and the border colour, the depth comparison, and the
//! level-of-detail parameters. The scene's `samplers` keys set it
//! (docs/scene-format.md "Samplers").

use super::super::{Filter, MinFilter, Sampler, Wrap};

/// A wrap mode (GL 3.3 §3.8.10, Table 3.22).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GlWrap {
    /// `GL_CLAMP_TO_EDGE` (the scene's `clamp`).
    #[default]
    ClampToEdge,
    /// `GL_REPEAT`.
    Repeat,
    /// `GL_MIRRORED_REPEAT` (the scene's `mirror`).
    MirroredRepeat,
    /// `GL_CLAMP_TO_BORDER`: texels outside the image are the border colour.
    ClampToBorder,
}

impl GlWrap {
    /// Every mode with its scene-format name (the three of [`Wrap`], then
    /// `clamp_to_border`).
    pub const NAMES: [(&'static str, GlWrap); 4] = [
        ("clamp", GlWrap::ClampToEdge),
        ("repeat", GlWrap::Repeat),
        ("mirror", GlWrap::MirroredRepeat),
        ("clamp_to_border", GlWrap::ClampToBorder),
    ];

    /// The mode of a legacy [`Wrap`].
    pub const fn from_wrap(w: Wrap) -> GlWrap {
        match w {
            Wrap::Clamp => GlWrap::ClampToEdge,
            Wrap::Repeat => GlWrap::Repeat,
            Wrap::Mirror => GlWrap::MirroredRepeat,
        }
    }

    /// The texel index of integer coordinate `i` on a side of `size` texels, `None`
    /// for a border texel (GL 3.3 §3.8.11: `repeat` takes `i mod size`,
    /// `mirrored_repeat` `(size − 1) − mirror((i mod 2·size) − size)`,
    /// `clamp_to_edge` clamps, `clamp_to_border` keeps `i` and reads the border
    /// outside 0..size).
    pub fn index(self, i: i64, size: u32) -> Option<u32> {
        let n = i64::from(size.max(1));
        let k = match self {
            GlWrap::ClampToEdge => i.clamp(0, n - 1),
            GlWrap::Repeat => i.rem_euclid(n),
            GlWrap::MirroredRepeat => {
                let m = i.rem_euclid(2 * n) - n;
                let mirror = if m >= 0 { m } else { -(1 + m) };
                (n - 1) - mirror
            }
            GlWrap::ClampToBorder => {
                if !(0..n).contains(&i) {
                    return None;
                }
                i
            }
        };
        Some(k as u32)
    }
}

/// A depth comparison function (`GL_TEXTURE_COMPARE_FUNC`, GL 3.3 §3.8.16): the
/// result is 1 when `D_ref OP D_texel` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareFunc {
    /// `GL_NEVER`.
    Never,
    /// `GL_LESS`.
    Less,
    /// `GL_EQUAL`.
    Equal,
    /// `GL_LEQUAL`.
    Lequal,
    /// `GL_GREATER`.
    Greater,
    /// `GL_NOTEQUAL`.
    Notequal,
    /// `GL_GEQUAL`.
    Gequal,
    /// `GL_ALWAYS`.
    Always,
}

impl CompareFunc {
    /// Every function with its scene-format name (GL's, lower case).
    pub const NAMES: [(&'static str, CompareFunc); 8] = [
        ("never", CompareFunc::Never),
        ("less", CompareFunc::Less),
        ("equal", CompareFunc::Equal),
        ("lequal", CompareFunc::Lequal),
        ("greater", CompareFunc::Greater),
        ("notequal", CompareFunc::Notequal),
        ("gequal", CompareFunc::Gequal),
        ("always", CompareFunc::Always),
    ];

    /// 1.0 when `reference OP texel`, else 0.0.
    pub fn test(self, reference: f32, texel: f32) -> f32 {
        let pass = match self {
            CompareFunc::Never => false,
            CompareFunc::Less => reference < texel,
            CompareFunc::Equal => reference == texel,
            CompareFunc::Lequal => reference <= texel,
            CompareFunc::Greater => reference > texel,
            CompareFunc::Notequal => reference != texel,
            CompareFunc::Gequal => reference >= texel,
            CompareFunc::Always => true,
        };
        f32::from(u8::from(pass))
    }
}

/// The full sampler state of a binding to a GL 3.3 texture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GlSampler {
    /// Magnification filter.
    pub mag_filter: Filter,
    /// Minification filter.
    pub min_filter: MinFilter,
    /// Wrap modes for s, t and r.
    pub wrap: [GlWrap; 3],
    /// `GL_TEXTURE_BORDER_COLOR`, RGBA.
    pub border_color: [f32; 4],
    /// `GL_COMPARE_REF_TO_TEXTURE` with this function, or no comparison.
    pub compare: Option<CompareFunc>,
    /// `GL_TEXTURE_MIN_LOD` (default −1000).
    pub min_lod: f32,
    /// `GL_TEXTURE_MAX_LOD` (default 1000).
    pub max_lod: f32,
    /// `GL_TEXTURE_LOD_BIAS` (default 0).
    pub lod_bias: f32,
    /// `GL_TEXTURE_BASE_LEVEL` (default 0).
    pub base_level: u32,
    /// `GL_TEXTURE_MAX_LEVEL` (default 1000).
    pub max_level: u32,
    /// `GL_TEXTURE_CUBE_MAP_SEAMLESS` is enabled (the scene's `seamless_cube_map`,
    /// default false): linear lookups on a cube map filter across its edges
    /// (docs/csir.md "Seamless cube maps"). Other targets ignore it.
    pub seamless_cube_map: bool,
}

impl Default for GlSampler {
    fn default() -> Self {
        GlSampler::from_sampler(Sampler::default())
    }
}

impl GlSampler {
    /// The state of a legacy [`Sampler`], every other parameter GL's default.
    pub const fn from_sampler(s: Sampler) -> GlSampler {
        let w = GlWrap::from_wrap(s.wrap);
        GlSampler {
            mag_filter: s.mag_filter,
            min_filter: s.min_filter,
            wrap: [w; 3],
            border_color: [0.0; 4],
            compare: None,
            min_lod: -1000.0,
            max_lod: 1000.0,
            lod_bias: 0.0,
            base_level: 0,
            max_level: 1000,
            seamless_cube_map: false,
        }
    }

    /// Whether a lookup's result depends on λ (as [`Sampler::needs_lod`]; a bias
    /// or λ clamp alone changes nothing without mip levels or a second filter).
    pub const fn needs_lod(&self) -> bool {
        Sampler {
            mag_filter: self.mag_filter,
            min_filter: self.min_filter,
            wrap: Wrap::Clamp,
        }
        .needs_lod()
    }
}
