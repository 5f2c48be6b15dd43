//! General blending: `glBlendFuncSeparate`, `glBlendEquationSeparate` and
//! `glBlendColor` on an RGBA8 UNORM target (OpenGL 3.3 core §4.1.8 "Blending").
//!
//! The arithmetic is the one llvmpipe uses for a UNORM8 colour buffer: source,
//! destination, constant colour and every factor are 8-bit unorm values; each term
//! `x · factor` is `round(x · factor / 255)`; `add` saturates at 255, `subtract` and
//! `reverse_subtract` clamp at 0, `min` and `max` take the source and destination
//! themselves (their factors are ignored, §4.1.8 Table 4.1). The three preset modes of
//! [`crate::BlendMode`] are special cases of this arithmetic, with the same bytes.

/// A blend factor (OpenGL 3.3 core §4.1.8, Table 4.2), as the scene format names it
/// (`docs/scene-format.md`, `state.blend`). The dual-source factors (`src1_*`, GL 3.3
/// §4.1.8 and ARB_blend_func_extended) read the fragment's second source colour, the
/// output of `layout(location = 0, index = 1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlendFactor {
    /// `zero`: (0, 0, 0, 0).
    Zero,
    /// `one`: (1, 1, 1, 1).
    One,
    /// `src_color`: (Rs, Gs, Bs, As).
    SrcColor,
    /// `one_minus_src_color`: 1 − (Rs, Gs, Bs, As).
    OneMinusSrcColor,
    /// `dst_color`: (Rd, Gd, Bd, Ad).
    DstColor,
    /// `one_minus_dst_color`: 1 − (Rd, Gd, Bd, Ad).
    OneMinusDstColor,
    /// `src_alpha`: As.
    SrcAlpha,
    /// `one_minus_src_alpha`: 1 − As.
    OneMinusSrcAlpha,
    /// `dst_alpha`: Ad.
    DstAlpha,
    /// `one_minus_dst_alpha`: 1 − Ad.
    OneMinusDstAlpha,
    /// `constant_color`: the blend colour (Rc, Gc, Bc, Ac).
    ConstantColor,
    /// `one_minus_constant_color`: 1 − (Rc, Gc, Bc, Ac).
    OneMinusConstantColor,
    /// `constant_alpha`: Ac.
    ConstantAlpha,
    /// `one_minus_constant_alpha`: 1 − Ac.
    OneMinusConstantAlpha,
    /// `src_alpha_saturate`: min(As, 1 − Ad) for RGB, 1 for alpha.
    SrcAlphaSaturate,
    /// `src1_color`: the second source colour (Rs1, Gs1, Bs1, As1).
    Src1Color,
    /// `one_minus_src1_color`: 1 − (Rs1, Gs1, Bs1, As1).
    OneMinusSrc1Color,
    /// `src1_alpha`: As1.
    Src1Alpha,
    /// `one_minus_src1_alpha`: 1 − As1.
    OneMinusSrc1Alpha,
}

impl BlendFactor {
    /// Every drawn factor with its scene-format name (GL's name, lower case, without
    /// the `GL_` prefix).
    pub const NAMES: [(&'static str, BlendFactor); 19] = [
        ("zero", BlendFactor::Zero),
        ("one", BlendFactor::One),
        ("src_color", BlendFactor::SrcColor),
        ("one_minus_src_color", BlendFactor::OneMinusSrcColor),
        ("dst_color", BlendFactor::DstColor),
        ("one_minus_dst_color", BlendFactor::OneMinusDstColor),
        ("src_alpha", BlendFactor::SrcAlpha),
        ("one_minus_src_alpha", BlendFactor::OneMinusSrcAlpha),
        ("dst_alpha", BlendFactor::DstAlpha),
        ("one_minus_dst_alpha", BlendFactor::OneMinusDstAlpha),
        ("constant_color", BlendFactor::ConstantColor),
        (
            "one_minus_constant_color",
            BlendFactor::OneMinusConstantColor,
        ),
        ("constant_alpha", BlendFactor::ConstantAlpha),
        (
            "one_minus_constant_alpha",
            BlendFactor::OneMinusConstantAlpha,
        ),
        ("src_alpha_saturate", BlendFactor::SrcAlphaSaturate),
        ("src1_color", BlendFactor::Src1Color),
        ("one_minus_src1_color", BlendFactor::OneMinusSrc1Color),
        ("src1_alpha", BlendFactor::Src1Alpha),
        ("one_minus_src1_alpha", BlendFactor::OneMinusSrc1Alpha),
    ];

    /// The scene format's name of this factor (from [`BlendFactor::NAMES`]).
    pub fn name(self) -> &'static str {
        name_in(&Self::NAMES, self)
    }

    /// Whether the factor reads the blend colour.
    pub fn reads_constant(self) -> bool {
        matches!(
            self,
            BlendFactor::ConstantColor
                | BlendFactor::OneMinusConstantColor
                | BlendFactor::ConstantAlpha
                | BlendFactor::OneMinusConstantAlpha
        )
    }

    /// Whether the factor reads the second source colour (dual-source blending, GL 3.3
    /// §4.1.8).
    pub fn reads_src1(self) -> bool {
        matches!(
            self,
            BlendFactor::Src1Color
                | BlendFactor::OneMinusSrc1Color
                | BlendFactor::Src1Alpha
                | BlendFactor::OneMinusSrc1Alpha
        )
    }

    /// The factor's unorm8 value for channel `channel` (0..4, 3 = alpha) given the
    /// source `s`, second source `s1`, destination `d` and constant `c` colours.
    #[inline(always)]
    fn value(self, channel: usize, [s, s1, d, c]: [[u8; 4]; 4]) -> u8 {
        match self {
            BlendFactor::Zero => 0,
            BlendFactor::One => 255,
            BlendFactor::SrcColor => s[channel],
            BlendFactor::OneMinusSrcColor => 255 - s[channel],
            BlendFactor::DstColor => d[channel],
            BlendFactor::OneMinusDstColor => 255 - d[channel],
            BlendFactor::SrcAlpha => s[3],
            BlendFactor::OneMinusSrcAlpha => 255 - s[3],
            BlendFactor::DstAlpha => d[3],
            BlendFactor::OneMinusDstAlpha => 255 - d[3],
            BlendFactor::ConstantColor => c[channel],
            BlendFactor::OneMinusConstantColor => 255 - c[channel],
            BlendFactor::ConstantAlpha => c[3],
            BlendFactor::OneMinusConstantAlpha => 255 - c[3],
            BlendFactor::SrcAlphaSaturate if channel == 3 => 255,
            BlendFactor::SrcAlphaSaturate => s[3].min(255 - d[3]),
            BlendFactor::Src1Color => s1[channel],
            BlendFactor::OneMinusSrc1Color => 255 - s1[channel],
            BlendFactor::Src1Alpha => s1[3],
            BlendFactor::OneMinusSrc1Alpha => 255 - s1[3],
        }
    }
}

/// A blend equation (OpenGL 3.3 core §4.1.8, Table 4.1), by its scene-format name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BlendEquation {
    /// `add`: `s·Sf + d·Df`, saturating at 1.
    #[default]
    Add,
    /// `subtract`: `s·Sf − d·Df`, clamped at 0.
    Subtract,
    /// `reverse_subtract`: `d·Df − s·Sf`, clamped at 0.
    ReverseSubtract,
    /// `min`: `min(s, d)`; the factors are not used.
    Min,
    /// `max`: `max(s, d)`; the factors are not used.
    Max,
}

impl BlendEquation {
    /// Every equation with its scene-format name.
    pub const NAMES: [(&'static str, BlendEquation); 5] = [
        ("add", BlendEquation::Add),
        ("subtract", BlendEquation::Subtract),
        ("reverse_subtract", BlendEquation::ReverseSubtract),
        ("min", BlendEquation::Min),
        ("max", BlendEquation::Max),
    ];

    /// The scene format's name of this equation (from [`BlendEquation::NAMES`]).
    pub fn name(self) -> &'static str {
        name_in(&Self::NAMES, self)
    }

    /// One channel: source `s`, destination `d`, and their factors `sf`, `df`.
    #[inline(always)]
    fn apply(self, s: u8, d: u8, sf: u8, df: u8) -> u8 {
        match self {
            BlendEquation::Add => mul_unorm8(s, sf).saturating_add(mul_unorm8(d, df)),
            BlendEquation::Subtract => mul_unorm8(s, sf).saturating_sub(mul_unorm8(d, df)),
            BlendEquation::ReverseSubtract => mul_unorm8(d, df).saturating_sub(mul_unorm8(s, sf)),
            BlendEquation::Min => s.min(d),
            BlendEquation::Max => s.max(d),
        }
    }
}

/// `glBlendFuncSeparate(src_rgb, dst_rgb, src_alpha, dst_alpha)`,
/// `glBlendEquationSeparate(equation_rgb, equation_alpha)` and `glBlendColor(color)`:
/// the scene format's `state.blend` object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlendFunction {
    /// Source factor of R, G and B.
    pub src_rgb: BlendFactor,
    /// Destination factor of R, G and B.
    pub dst_rgb: BlendFactor,
    /// Source factor of A.
    pub src_alpha: BlendFactor,
    /// Destination factor of A.
    pub dst_alpha: BlendFactor,
    /// Equation of R, G and B.
    pub equation_rgb: BlendEquation,
    /// Equation of A.
    pub equation_alpha: BlendEquation,
    /// The blend colour as RGBA8 UNORM (`glBlendColor`'s floats converted as fragment
    /// colours are, [`crate::to_unorm8`]: the colour buffer's format decides the
    /// precision of the constant, §4.1.8).
    pub color: [u8; 4],
}

impl Default for BlendFunction {
    /// GL's initial values: `one`, `zero`, `add`, colour (0, 0, 0, 0): the source
    /// replaces the destination.
    fn default() -> Self {
        BlendFunction {
            src_rgb: BlendFactor::One,
            dst_rgb: BlendFactor::Zero,
            src_alpha: BlendFactor::One,
            dst_alpha: BlendFactor::Zero,
            equation_rgb: BlendEquation::Add,
            equation_alpha: BlendEquation::Add,
            color: [0; 4],
        }
    }
}

impl BlendFunction {
    /// `src` and `dst` for RGB and alpha, with `add`: `glBlendFunc(src, dst)`.
    pub fn add(src: BlendFactor, dst: BlendFactor) -> Self {
        BlendFunction {
            src_rgb: src,
            dst_rgb: dst,
            src_alpha: src,
            dst_alpha: dst,
            ..BlendFunction::default()
        }
    }

    /// Whether any factor reads the blend colour (of an equation that uses factors).
    pub fn reads_constant(&self) -> bool {
        self.some_factor(BlendFactor::reads_constant)
    }

    /// Whether some factor of an equation that uses its factors (not `min`, `max`)
    /// is one `test` picks.
    fn some_factor(&self, test: fn(BlendFactor) -> bool) -> bool {
        let factored = |e: BlendEquation| !matches!(e, BlendEquation::Min | BlendEquation::Max);
        (factored(self.equation_rgb) && (test(self.src_rgb) || test(self.dst_rgb)))
            || (factored(self.equation_alpha) && (test(self.src_alpha) || test(self.dst_alpha)))
    }

    /// Whether any factor reads the second source colour (of an equation that uses
    /// factors): the draw blends with two source colours (GL 3.3 §4.1.8).
    pub fn reads_src1(&self) -> bool {
        self.some_factor(BlendFactor::reads_src1)
    }

    /// Blends the RGBA8 source `s` over the RGBA8 destination `d`, with a second
    /// source colour of (0, 0, 0, 0) (a function that reads none: see
    /// [`BlendFunction::apply_dual`]).
    #[inline]
    pub fn apply(&self, s: [u8; 4], d: [u8; 4]) -> [u8; 4] {
        self.apply_dual(s, [0; 4], d)
    }

    /// Blends the RGBA8 source `s` over the RGBA8 destination `d`, the `src1_*`
    /// factors reading the RGBA8 second source colour `s1` (dual-source blending,
    /// GL 3.3 §4.1.8).
    #[inline]
    pub fn apply_dual(&self, s: [u8; 4], s1: [u8; 4], d: [u8; 4]) -> [u8; 4] {
        let colours = [s, s1, d, self.color];
        std::array::from_fn(|ch| {
            let (src, dst, equation) = if ch == 3 {
                (self.src_alpha, self.dst_alpha, self.equation_alpha)
            } else {
                (self.src_rgb, self.dst_rgb, self.equation_rgb)
            };
            equation.apply(s[ch], d[ch], src.value(ch, colours), dst.value(ch, colours))
        })
    }

    /// [`BlendFunction::apply`] on RGBA8 packed in `u32`s (bytes R, G, B, A in memory
    /// order, as `u32::from_le_bytes`).
    #[inline]
    pub(crate) fn apply_packed(&self, s: u32, d: u32) -> u32 {
        u32::from_le_bytes(self.apply(s.to_le_bytes(), d.to_le_bytes()))
    }
}

impl std::fmt::Display for BlendFunction {
    /// `rgb add(src_alpha, one), alpha max(one, zero), color [r, g, b, a]` (the colour
    /// as unorm8 bytes, only when a factor reads it).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let part = |e: BlendEquation, s: BlendFactor, d: BlendFactor| match e {
            BlendEquation::Min | BlendEquation::Max => e.name().to_string(),
            _ => format!("{}({}, {})", e.name(), s.name(), d.name()),
        };
        write!(
            f,
            "rgb {}, alpha {}",
            part(self.equation_rgb, self.src_rgb, self.dst_rgb),
            part(self.equation_alpha, self.src_alpha, self.dst_alpha)
        )?;
        if self.reads_constant() {
            write!(f, ", color {:?}", self.color)?;
        }
        Ok(())
    }
}

/// The name of `value` in a `NAMES` table that lists every variant.
fn name_in<T: Copy + PartialEq>(names: &[(&'static str, T)], value: T) -> &'static str {
    names
        .iter()
        .find(|(_, v)| *v == value)
        .map(|(n, _)| *n)
        .expect("a NAMES table lists every variant")
}

/// `round(a · b / 255)` for 8-bit unorm values, exactly (`(t + (t >> 8)) >> 8` with
/// `t = a·b + 128` is exact for every `a·b ≤ 255²`).
#[inline(always)]
pub(crate) fn mul_unorm8(a: u8, b: u8) -> u8 {
    let t = u32::from(a) * u32::from(b) + 128;
    ((t + (t >> 8)) >> 8) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use BlendFactor as F;

    /// Each factor on known colours, computed by hand in real numbers then rounded:
    /// s = (0.8, 0.4, 0.2, 0.6), d = (0.2, 0.6, 1.0, 0.5), c = (0.5, 0.25, 0.0, 0.75),
    /// as unorm8 (204, 102, 51, 153), (51, 153, 255, 128), (128, 64, 0, 191); the
    /// source factor multiplies s with `add` and a `zero` destination factor.
    #[test]
    fn each_factor_on_known_colours() {
        let s = [204u8, 102, 51, 153];
        let d = [51u8, 153, 255, 128];
        let c = [128u8, 64, 0, 191];
        let exact = |x: [f64; 4]| -> [u8; 4] {
            std::array::from_fn(|i| (f64::from(s[i]) * x[i]).round() as u8)
        };
        let f = |v: [u8; 4]| v.map(|x| f64::from(x) / 255.0);
        let one_minus = |v: [f64; 4]| v.map(|x| 1.0 - x);
        let splat = |x: f64| [x; 4];
        let (sf, df, cf) = (f(s), f(d), f(c));
        let saturate = (sf[3]).min(1.0 - df[3]);
        let cases: [(BlendFactor, [f64; 4]); 15] = [
            (F::Zero, splat(0.0)),
            (F::One, splat(1.0)),
            (F::SrcColor, sf),
            (F::OneMinusSrcColor, one_minus(sf)),
            (F::DstColor, df),
            (F::OneMinusDstColor, one_minus(df)),
            (F::SrcAlpha, splat(sf[3])),
            (F::OneMinusSrcAlpha, splat(1.0 - sf[3])),
            (F::DstAlpha, splat(df[3])),
            (F::OneMinusDstAlpha, splat(1.0 - df[3])),
            (F::ConstantColor, cf),
            (F::OneMinusConstantColor, one_minus(cf)),
            (F::ConstantAlpha, splat(cf[3])),
            (F::OneMinusConstantAlpha, splat(1.0 - cf[3])),
            (F::SrcAlphaSaturate, [saturate, saturate, saturate, 1.0]),
        ];
        for (factor, value) in cases {
            let func = BlendFunction {
                color: c,
                ..BlendFunction::add(factor, F::Zero)
            };
            assert_eq!(func.apply(s, d), exact(value), "{factor:?}");
        }
        // A few spelled out: src_color gives s² = (163, 41, 10, 92).
        let square = BlendFunction::add(F::SrcColor, F::Zero).apply(s, d);
        assert_eq!(square, [163, 41, 10, 92]);
        // src_alpha_saturate: min(0.6, 0.498) = 127/255 on RGB; A keeps 153.
        let sat = BlendFunction::add(F::SrcAlphaSaturate, F::Zero).apply(s, d);
        assert_eq!(sat, [102, 51, 25, 153]);
    }

    #[test]
    fn equations_saturate_clamp_and_ignore_factors() {
        let s = [200u8, 50, 0, 255];
        let d = [100u8, 100, 255, 0];
        let with = |e: BlendEquation| BlendFunction {
            equation_rgb: e,
            equation_alpha: e,
            ..BlendFunction::add(F::One, F::One)
        };
        assert_eq!(with(BlendEquation::Add).apply(s, d), [255, 150, 255, 255]);
        assert_eq!(with(BlendEquation::Subtract).apply(s, d), [100, 0, 0, 255]);
        assert_eq!(
            with(BlendEquation::ReverseSubtract).apply(s, d),
            [0, 50, 255, 0]
        );
        // min/max with zero factors still see s and d.
        let zero = |e: BlendEquation| BlendFunction {
            equation_rgb: e,
            equation_alpha: e,
            ..BlendFunction::add(F::Zero, F::Zero)
        };
        assert_eq!(zero(BlendEquation::Min).apply(s, d), [100, 50, 0, 0]);
        assert_eq!(zero(BlendEquation::Max).apply(s, d), [200, 100, 255, 255]);
    }

    #[test]
    fn separate_alpha_parts() {
        // RGB: s·1 − d·1, clamped at 0; A: d·(1 − As) − s·0.
        let func = BlendFunction {
            src_rgb: F::One,
            dst_rgb: F::One,
            src_alpha: F::Zero,
            dst_alpha: F::OneMinusSrcAlpha,
            equation_rgb: BlendEquation::Subtract,
            equation_alpha: BlendEquation::ReverseSubtract,
            color: [0; 4],
        };
        // A: 200 · (255 − 64) / 255 = 149.8 → 150.
        assert_eq!(
            func.apply([90, 10, 255, 64], [30, 20, 5, 200]),
            [60, 0, 250, 150]
        );
    }

    #[test]
    fn constant_reads() {
        assert!(BlendFunction::add(F::ConstantAlpha, F::One).reads_constant());
        assert!(!BlendFunction::add(F::SrcAlpha, F::One).reads_constant());
        let min = BlendFunction {
            equation_rgb: BlendEquation::Min,
            equation_alpha: BlendEquation::Max,
            ..BlendFunction::add(F::ConstantColor, F::Zero)
        };
        assert!(!min.reads_constant());
        assert_eq!(min.to_string(), "rgb min, alpha max");
        let f = BlendFunction {
            color: [1, 2, 3, 4],
            ..BlendFunction::add(F::ConstantAlpha, F::OneMinusSrcColor)
        };
        assert_eq!(
            f.to_string(),
            "rgb add(constant_alpha, one_minus_src_color), \
             alpha add(constant_alpha, one_minus_src_color), color [1, 2, 3, 4]"
        );
    }

    /// The dual-source factors read the second source colour `s1` (GL 3.3 §4.1.8):
    /// s = (204, 102, 51, 153), s1 = (51, 255, 0, 64), d = (100, 200, 50, 255).
    #[test]
    fn dual_source_factors_read_the_second_source() {
        let s = [204u8, 102, 51, 153];
        let s1 = [51u8, 255, 0, 64];
        let d = [100u8, 200, 50, 255];
        // src1_color on s: round(s · s1 / 255) = (41, 102, 0, 38); zero on d.
        let f = BlendFunction::add(F::Src1Color, F::Zero);
        assert_eq!(f.apply_dual(s, s1, d), [41, 102, 0, 38]);
        // one_minus_src1_alpha on d: d · 191/255 = (75, 150, 37, 191), plus s · 0.
        let f = BlendFunction::add(F::Zero, F::OneMinusSrc1Alpha);
        assert_eq!(f.apply_dual(s, s1, d), [75, 150, 37, 191]);
        // s · src1_alpha + d · one_minus_src1_color = (51 + 80, 26 + 0, 13 + 50,
        // 38 + 190): 64/255 of s, (204, 0, 255, 191)/255 of d.
        let f = BlendFunction::add(F::Src1Alpha, F::OneMinusSrc1Color);
        assert_eq!(f.apply_dual(s, s1, d), [131, 26, 63, 229]);
        assert!(f.reads_src1() && !BlendFunction::add(F::One, F::Zero).reads_src1());
        let min = BlendFunction {
            equation_rgb: BlendEquation::Min,
            equation_alpha: BlendEquation::Max,
            ..f
        };
        assert!(!min.reads_src1(), "min and max use no factor");
        assert_eq!(F::OneMinusSrc1Alpha.name(), "one_minus_src1_alpha");
    }
}
