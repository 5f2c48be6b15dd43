//! Fixed-function state of one draw: depth test, depth write, face culling, blending.
//!
//! The names and defaults are the scene format's `state` object
//! (`docs/scene-format.md`); the behaviour is OpenGL 3.3 core's
//! ("Depth Buffer Test", "Blending", "Basic Polygon Rasterization" for culling).

pub use crate::blend_func::{BlendEquation, BlendFactor, BlendFunction};
pub use crate::stencil::{StencilFace, StencilOp, StencilState};

/// Depth comparison applied to each fragment before its colour is written.
///
/// A fragment passes when `fragment <op> stored` holds, both as 24-bit unsigned
/// normalized depth values (see [`crate::Framebuffer`]). `Disabled` is the scene format's
/// `"none"`: no test **and no depth write**, as `glDisable(GL_DEPTH_TEST)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DepthTest {
    /// `"none"`: every fragment passes, depth is neither read nor written.
    Disabled,
    /// `"less"` (the scene default): `fragment < stored`.
    #[default]
    Less,
    /// `"lequal"`: `fragment <= stored`.
    LessEqual,
    /// `"greater"`: `fragment > stored`.
    Greater,
    /// `"gequal"`: `fragment >= stored`.
    GreaterEqual,
    /// `"equal"`: `fragment == stored`.
    Equal,
    /// `"notequal"`: `fragment != stored`.
    NotEqual,
    /// `"always"`: every fragment passes; depth is written if `depth_write` is set.
    Always,
    /// `"never"`: no fragment passes.
    Never,
}

impl DepthTest {
    /// Every depth test with its scene-format name (`docs/scene-format.md`, `state`), in
    /// the order the scene loader lists them in an error.
    pub const NAMES: [(&'static str, DepthTest); 9] = [
        ("none", DepthTest::Disabled),
        ("less", DepthTest::Less),
        ("lequal", DepthTest::LessEqual),
        ("greater", DepthTest::Greater),
        ("gequal", DepthTest::GreaterEqual),
        ("equal", DepthTest::Equal),
        ("notequal", DepthTest::NotEqual),
        ("always", DepthTest::Always),
        ("never", DepthTest::Never),
    ];

    /// The test the scene format spells `name` (`"none"`, `"less"`, `"lequal"`, ...;
    /// see [`DepthTest::NAMES`]), or `None` for an unknown name.
    pub fn from_name(name: &str) -> Option<Self> {
        from_name(&Self::NAMES, name)
    }

    /// The scene format's name of this test (from [`DepthTest::NAMES`]).
    pub fn name(self) -> &'static str {
        name_of(&Self::NAMES, self)
    }

    /// Whether the depth buffer takes part at all (everything but `Disabled`).
    pub fn is_enabled(self) -> bool {
        self != DepthTest::Disabled
    }

    /// Whether a fragment of 24-bit depth `fragment` passes against `stored`.
    #[inline]
    pub fn passes(self, fragment: u32, stored: u32) -> bool {
        match self {
            DepthTest::Disabled | DepthTest::Always => true,
            DepthTest::Less => fragment < stored,
            DepthTest::LessEqual => fragment <= stored,
            DepthTest::Greater => fragment > stored,
            DepthTest::GreaterEqual => fragment >= stored,
            DepthTest::Equal => fragment == stored,
            DepthTest::NotEqual => fragment != stored,
            DepthTest::Never => false,
        }
    }
}

/// Which triangles are discarded by facing. Front faces are counter-clockwise in window
/// space (y up), OpenGL's default `glFrontFace(GL_CCW)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CullMode {
    /// `"none"` (default): draw both windings.
    #[default]
    Disabled,
    /// `"back"`: discard clockwise triangles.
    Back,
    /// `"front"`: discard counter-clockwise triangles.
    Front,
}

impl CullMode {
    /// Every cull mode with its scene-format name (`docs/scene-format.md`, `state`).
    pub const NAMES: [(&'static str, CullMode); 3] = [
        ("none", CullMode::Disabled),
        ("back", CullMode::Back),
        ("front", CullMode::Front),
    ];

    /// The mode the scene format spells `name` (`"none"`, `"back"`, `"front"`), or
    /// `None` for an unknown name.
    pub fn from_name(name: &str) -> Option<Self> {
        from_name(&Self::NAMES, name)
    }

    /// The scene format's name of this mode (from [`CullMode::NAMES`]).
    pub fn name(self) -> &'static str {
        name_of(&Self::NAMES, self)
    }

    /// Whether a triangle with this facing is discarded.
    #[inline]
    pub fn culls(self, front_facing: bool) -> bool {
        match self {
            CullMode::Disabled => false,
            CullMode::Back => !front_facing,
            CullMode::Front => front_facing,
        }
    }
}

/// How a fragment's colour combines with the RGBA8 colour already stored.
///
/// Blending happens in RGBA8, as llvmpipe does for a UNORM8 target: the fragment colour
/// is first converted to RGBA8 (`round(clamp(c, 0, 1) * 255)`), then combined in 8-bit
/// fixed point (see `blend.rs`, `blend_func.rs`). The three named modes have loops of
/// their own; [`BlendMode::Function`] is every other `glBlendFuncSeparate` /
/// `glBlendEquationSeparate` / `glBlendColor` state (build it with
/// [`BlendMode::from_function`], which turns the named modes' functions into them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BlendMode {
    /// `"none"` (default): the fragment colour replaces the stored one.
    #[default]
    Replace,
    /// `"alpha"`: `src·a + dst·(1 − a)` on RGB and on A, `a` = the fragment's alpha
    /// (`glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA)`).
    Alpha,
    /// `"additive"`: `src + dst`, saturating at 1 (`glBlendFunc(GL_ONE, GL_ONE)`).
    Additive,
    /// The scene format's `blend` object: any factors, equations and blend colour
    /// (OpenGL 3.3 §4.1.8).
    Function(BlendFunction),
}

impl BlendMode {
    /// Every blend mode with its scene-format name (`docs/scene-format.md`, `state`):
    /// [`BlendMode::Replace`] is `"none"`.
    pub const NAMES: [(&'static str, BlendMode); 3] = [
        ("none", BlendMode::Replace),
        ("alpha", BlendMode::Alpha),
        ("additive", BlendMode::Additive),
    ];

    /// The mode the scene format spells `name` (`"none"`, `"alpha"`, `"additive"`), or
    /// `None` for an unknown name.
    pub fn from_name(name: &str) -> Option<Self> {
        from_name(&Self::NAMES, name)
    }

    /// The scene format's name of this mode (from [`BlendMode::NAMES`]); a
    /// [`BlendMode::Function`] is `"function"` (the scene writes it as an object).
    pub fn name(self) -> &'static str {
        match self {
            BlendMode::Function(_) => "function",
            mode => name_of(&Self::NAMES, mode),
        }
    }

    /// The scene format's name of a named mode, the factors and equations of a
    /// [`BlendMode::Function`] (its `Display`), for traces.
    pub fn describe(self) -> String {
        match self {
            BlendMode::Function(f) => f.to_string(),
            mode => mode.name().to_string(),
        }
    }

    /// The mode of `function`: one of the named modes when it is theirs (`one, zero,
    /// add` is `Replace`; `src_alpha, one_minus_src_alpha, add` for RGB and A is
    /// `Alpha`; `one, one, add` is `Additive`: the same bytes, and their faster
    /// loops), else [`BlendMode::Function`].
    pub fn from_function(function: BlendFunction) -> Self {
        let unfactored = BlendFunction {
            color: [0; 4],
            ..function
        };
        if unfactored == BlendFunction::default() {
            BlendMode::Replace
        } else if unfactored
            == BlendFunction::add(BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha)
        {
            BlendMode::Alpha
        } else if unfactored == BlendFunction::add(BlendFactor::One, BlendFactor::One) {
            BlendMode::Additive
        } else {
            BlendMode::Function(function)
        }
    }

    /// The mode as factors, equations and colour (the named modes' `glBlendFunc`).
    pub fn function(self) -> BlendFunction {
        match self {
            BlendMode::Replace => BlendFunction::default(),
            BlendMode::Alpha => {
                BlendFunction::add(BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha)
            }
            BlendMode::Additive => BlendFunction::add(BlendFactor::One, BlendFactor::One),
            BlendMode::Function(f) => f,
        }
    }
}

/// The value named `name` in a `NAMES` table.
fn from_name<T: Copy>(names: &[(&'static str, T)], name: &str) -> Option<T> {
    names.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// The name of `value` in a `NAMES` table that lists every variant.
fn name_of<T: Copy + PartialEq>(names: &[(&'static str, T)], value: T) -> &'static str {
    names
        .iter()
        .find(|(_, v)| *v == value)
        .map(|(n, _)| *n)
        .expect("a NAMES table lists every variant")
}

/// The fixed-function state of one draw. `Default` is the scene format's default state:
/// depth `less`, depth write on, no culling, no blending, every channel written, no
/// scissor, the viewport the whole framebuffer, depth range [0, 1].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RasterState {
    /// Depth comparison; `Disabled` also disables depth writes.
    pub depth_test: DepthTest,
    /// Whether passing fragments store their depth (only when the test is enabled).
    pub depth_write: bool,
    /// Facing-based culling.
    pub cull: CullMode,
    /// Colour blending.
    pub blend: BlendMode,
    /// `glColorMask(r, g, b, a)`: which channels of the colour buffer a fragment writes
    /// (GL 3.3 §4.2.2); a masked channel keeps its stored value.
    pub color_mask: [bool; 4],
    /// `glScissor(x, y, w, h)` with `GL_SCISSOR_TEST` (GL 3.3 §4.1.2) as `[x, y, w, h]`
    /// in window pixels (y up), or `None` (no scissor test). Fragments outside are
    /// not produced.
    pub scissor: Option<[u32; 4]>,
    /// `glViewport(x, y, w, h)` (GL 3.3 §2.13.1) as `[x, y, w, h]` in window pixels,
    /// `w` and `h` at least 1, or `None` for the whole framebuffer. Primitives are
    /// clipped to it, as to the view volume.
    pub viewport: Option<[i32; 4]>,
    /// `glDepthRange(near, far)` (GL 3.3 §2.13.1), each clamped to [0, 1]:
    /// `z_w = z_ndc · (far − near)/2 + (near + far)/2`.
    pub depth_range: [f32; 2],
    /// `glPolygonOffset(factor, units)` with `GL_POLYGON_OFFSET_FILL` (GL 3.3 §3.6.4),
    /// or `None` (no offset).
    pub polygon_offset: Option<PolygonOffset>,
    /// `glEnable(GL_STENCIL_TEST)` with its state (GL 3.3 §4.1.4; `stencil.rs`), or
    /// `None` (no test, the stencil buffer is neither read nor written).
    pub stencil: Option<StencilState>,
    /// `glEnable(GL_DEPTH_CLAMP)` (GL 3.3 §2.20): no near/far clipping; each
    /// fragment's depth is clamped to the depth range before the depth test.
    pub depth_clamp: bool,
    /// The sample this draw rasterizes, as its offset from the pixel centre in
    /// 1/256 pixel ([`SUBPIXEL_BITS`](crate::SUBPIXEL_BITS)); `[0, 0]` (the default)
    /// for a single-sampled framebuffer. A multisampled frame is drawn once per
    /// sample ([`SamplePattern`](crate::SamplePattern)): coverage and depth are those
    /// of the sample position, the fragment inputs those of the pixel centre
    /// (`multisample/`, docs/scene-format.md "Multisampling").
    pub sample_offset: [i32; 2],
}

/// `glPolygonOffset(factor, units)` (GL 3.3 §3.6.4): each fragment's window depth of a
/// triangle gains `factor · m + units · r`, where `m = max(|∂z/∂x|, |∂z/∂y|)` is the
/// triangle's largest depth slope in window space and `r = 2^-24` the smallest
/// resolvable difference of the 24-bit depth buffer; the result is clamped to [0, 1]
/// when it is quantized.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PolygonOffset {
    /// The slope factor.
    pub factor: f32,
    /// The constant, in units of `r`.
    pub units: f32,
}

impl Default for RasterState {
    fn default() -> Self {
        RasterState {
            depth_test: DepthTest::Less,
            depth_write: true,
            cull: CullMode::Disabled,
            blend: BlendMode::Replace,
            color_mask: [true; 4],
            scissor: None,
            viewport: None,
            depth_range: [0.0, 1.0],
            polygon_offset: None,
            stencil: None,
            depth_clamp: false,
            sample_offset: [0, 0],
        }
    }
}

impl RasterState {
    /// Whether passing fragments write depth: `depth_write` and an enabled test.
    pub fn writes_depth(&self) -> bool {
        self.depth_write && self.depth_test.is_enabled()
    }

    /// [`RasterState::color_mask`] as a mask of the bytes of a packed RGBA8 pixel
    /// (`0xff` in byte `c` where channel `c` is written).
    pub fn color_write_bits(&self) -> u32 {
        let mut bits = 0;
        for (c, &on) in self.color_mask.iter().enumerate() {
            if on {
                bits |= 0xff << (8 * c);
            }
        }
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_functions_compare_as_named() {
        let cases = [
            (DepthTest::Disabled, [true, true, true]),
            (DepthTest::Less, [true, false, false]),
            (DepthTest::LessEqual, [true, true, false]),
            (DepthTest::Greater, [false, false, true]),
            (DepthTest::GreaterEqual, [false, true, true]),
            (DepthTest::Equal, [false, true, false]),
            (DepthTest::NotEqual, [true, false, true]),
            (DepthTest::Always, [true, true, true]),
            (DepthTest::Never, [false, false, false]),
        ];
        for (test, expect) in cases {
            // fragment 5 against stored 6, 5, 4
            assert_eq!(
                [test.passes(5, 6), test.passes(5, 5), test.passes(5, 4)],
                expect,
                "{test:?}"
            );
        }
    }

    #[test]
    fn names_round_trip() {
        for (name, t) in DepthTest::NAMES {
            assert_eq!((DepthTest::from_name(name), t.name()), (Some(t), name));
        }
        for (name, c) in CullMode::NAMES {
            assert_eq!((CullMode::from_name(name), c.name()), (Some(c), name));
        }
        for (name, b) in BlendMode::NAMES {
            assert_eq!((BlendMode::from_name(name), b.name()), (Some(b), name));
        }
        assert_eq!(DepthTest::from_name("lessequal"), None);
        assert_eq!(CullMode::from_name("back"), Some(CullMode::Back));
        assert_eq!(BlendMode::from_name("additive"), Some(BlendMode::Additive));
        assert_eq!(BlendMode::from_name("add"), None);
    }

    #[test]
    fn named_modes_are_their_functions() {
        for (_, mode) in BlendMode::NAMES {
            assert_eq!(BlendMode::from_function(mode.function()), mode);
        }
        let mut f = BlendFunction::add(BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha);
        f.color = [1, 2, 3, 4]; // unread by these factors
        assert_eq!(BlendMode::from_function(f), BlendMode::Alpha);
        f.dst_alpha = BlendFactor::One;
        assert_eq!(BlendMode::from_function(f), BlendMode::Function(f));
        assert_eq!(BlendMode::Function(f).name(), "function");
    }

    #[test]
    fn disabled_test_never_writes_depth() {
        let s = RasterState {
            depth_test: DepthTest::Disabled,
            ..RasterState::default()
        };
        assert!(!s.writes_depth());
        assert!(RasterState::default().writes_depth());
    }

    #[test]
    fn culling_by_facing() {
        assert!(!CullMode::Disabled.culls(true) && !CullMode::Disabled.culls(false));
        assert!(CullMode::Back.culls(false) && !CullMode::Back.culls(true));
        assert!(CullMode::Front.culls(true) && !CullMode::Front.culls(false));
    }
}
