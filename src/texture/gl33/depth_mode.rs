//! `GL_DEPTH_TEXTURE_MODE` (GL 3.0 compatibility profile §3.8.14, Table 3.24): how a
//! depth texture's value — the depth itself, or the result of the depth comparison
//! (§3.8.16) — becomes the RGBA a lookup returns. The core profile has no such state
//! and returns `(d, 0, 0, 1)` (what [`DepthMode::Red`] gives).

/// A depth texture mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DepthMode {
    /// `GL_LUMINANCE` (the compatibility profile's default): `(d, d, d, 1)`.
    Luminance,
    /// `GL_INTENSITY`: `(d, d, d, d)`.
    Intensity,
    /// `GL_ALPHA`: `(0, 0, 0, d)`.
    Alpha,
    /// `GL_RED`: `(d, 0, 0, 1)`.
    Red,
}

impl DepthMode {
    /// Every mode with its name (GL's, lower case, as piglit's `texparameter ...
    /// depth_mode` writes it).
    pub const NAMES: [(&'static str, DepthMode); 4] = [
        ("luminance", DepthMode::Luminance),
        ("intensity", DepthMode::Intensity),
        ("alpha", DepthMode::Alpha),
        ("red", DepthMode::Red),
    ];

    /// The RGBA a depth (or comparison result) `d` is returned as.
    pub const fn expand(self, d: f32) -> [f32; 4] {
        match self {
            DepthMode::Luminance => [d, d, d, 1.0],
            DepthMode::Intensity => [d, d, d, d],
            DepthMode::Alpha => [0.0, 0.0, 0.0, d],
            DepthMode::Red => [d, 0.0, 0.0, 1.0],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_place_the_depth_as_table_3_24_says() {
        assert_eq!(DepthMode::Luminance.expand(0.25), [0.25, 0.25, 0.25, 1.0]);
        assert_eq!(DepthMode::Intensity.expand(0.25), [0.25; 4]);
        assert_eq!(DepthMode::Alpha.expand(0.25), [0.0, 0.0, 0.0, 0.25]);
        assert_eq!(DepthMode::Red.expand(0.25), [0.25, 0.0, 0.0, 1.0]);
    }
}
