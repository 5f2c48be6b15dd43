//! A frame as OpenGL is asked to draw it: a framebuffer, textures and draws, each
//! field standing for the GL call that sets it. Plain data borrowed from the caller
//! (a scene loader, a test), with no file or format behind it.

/// One frame: an RGBA8 colour attachment and a 24-bit depth + 8-bit stencil attachment of
/// `width × height`, cleared, then the draws in order.
#[derive(Clone, Debug)]
pub struct FrameDesc<'a> {
    /// Framebuffer width in pixels, 1..=16384.
    pub width: u32,
    /// Framebuffer height in pixels, 1..=16384.
    pub height: u32,
    /// `glClearColor`.
    pub clear_color: [f32; 4],
    /// `glClearDepth`, in [0, 1].
    pub clear_depth: f32,
    /// `glClearStencil` (the depth attachment is `GL_DEPTH24_STENCIL8`).
    pub clear_stencil: u8,
    /// Textures the draws' samplers name by index.
    pub textures: Vec<TextureDesc<'a>>,
    /// The draws, in order.
    pub draws: Vec<DrawDesc<'a>>,
    /// Colour attachments of given formats (`targets.rs`), each cleared to its own
    /// value (`clear_color` is then not used); empty: the one RGBA8 attachment.
    pub targets: Vec<crate::TargetDesc>,
    /// `glEnable(GL_FRAMEBUFFER_SRGB)` for the whole frame.
    pub framebuffer_srgb: bool,
    /// `glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS)` for the whole frame (GL 3.3 §3.8.7).
    pub seamless_cube_map: bool,

    /// Samples per pixel of every attachment: 0 or 1 single-sampled; more draws into
    /// multisampled renderbuffers resolved by `glBlitFramebuffer` (`multisample.rs`).
    pub samples: u32,
}

/// A 2D RGBA8 texture (`glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, …, GL_RGBA,
/// GL_UNSIGNED_BYTE, …)` with an unpack alignment of 1).
#[derive(Clone, Copy, Debug)]
pub struct TextureDesc<'a> {
    /// Width in texels, ≥ 1.
    pub width: u32,
    /// Height in texels, ≥ 1.
    pub height: u32,
    /// `width × height × 4` bytes, RGBA, row 0 first (row 0 is t = 0).
    pub rgba8: &'a [u8],
    /// Whether some sampler reads it with a mipmapped minification filter: then
    /// `glGenerateMipmap` makes its chain.
    pub mipmapped: bool,
    /// A texture of another target or format (`texture33.rs`): uploaded from this
    /// instead of `rgba8`.
    pub gl33: Option<crate::texture33::Gl33Image<'a>>,
}

/// A shader stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// `GL_VERTEX_SHADER`.
    Vertex,
    /// `GL_FRAGMENT_SHADER`.
    Fragment,
    /// `GL_GEOMETRY_SHADER` (GL 3.2 §2.12).
    Geometry,
}

impl Stage {
    /// The `glCreateShader` enum.
    pub fn gl(self) -> u32 {
        match self {
            Stage::Vertex => glow::VERTEX_SHADER,
            Stage::Fragment => glow::FRAGMENT_SHADER,
            Stage::Geometry => glow::GEOMETRY_SHADER,
        }
    }

    /// `vertex` or `fragment`.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::Fragment => "fragment",
            Stage::Geometry => "geometry",
        }
    }
}

/// A shader's source as the driver receives it, unchanged.
#[derive(Clone, Copy, Debug)]
pub struct ShaderDesc<'a> {
    /// Its stage.
    pub stage: Stage,
    /// The file it came from, for messages.
    pub name: &'a str,
    /// The GLSL source.
    pub source: &'a str,
}

/// One draw: `glDrawElements(mode, indices.len(), GL_UNSIGNED_INT, …)` with its
/// program, vertex arrays, uniforms, samplers and state.
#[derive(Clone, Debug)]
pub struct DrawDesc<'a> {
    /// The vertex and fragment shaders (one each).
    pub shaders: Vec<ShaderDesc<'a>>,
    /// Compatibility profile: the built-in vertex inputs the vertex shader reads
    /// (`gl_Normal`, `gl_Color`, ...), each fed from the attribute at the given
    /// location through its own array (`glNormalPointer`, `glColorPointer`, ...), or,
    /// when the draw has no attribute there, held at (0, 0, 0, 1) (`glNormal3f`,
    /// `glColor4f`, ...). `gl_Vertex` needs none: generic attribute 0 is it.
    pub conventional: Vec<(Conventional, u32)>,
    /// `glBindAttribLocation(program, location, name)` before the link, for each
    /// `(name, location)`: the locations of vertex inputs declared without
    /// `layout(location)`, which GL otherwise leaves to the linker (GL 3.3 core
    /// §2.11.3). An explicit `layout(location)` overrides a binding.
    pub attribute_bindings: Vec<(String, u32)>,
    /// Vertex arrays (`glVertexAttribPointer(location, size, GL_FLOAT, …)`, or
    /// `glVertexAttribIPointer` for integers), with their divisors.
    pub attributes: Vec<AttributeDesc<'a>>,
    /// `glDrawElementsInstanced`'s instance count (1: `glDrawElements`; 0 draws
    /// nothing).
    pub instances: u32,
    /// `glDrawElements`'s `mode` (`GL_TRIANGLES`, `GL_TRIANGLE_STRIP`, ...).
    pub mode: u32,
    /// The vertex indices for `mode`, each below every attribute's vertex count or
    /// equal to `restart`.
    pub indices: &'a [u32],
    /// `glEnable(GL_PRIMITIVE_RESTART)` + `glPrimitiveRestartIndex(index)` when `Some`.
    pub restart: Option<u32>,
    /// Uniform values by the names `glGetUniformLocation` takes.
    pub uniforms: Vec<UniformDesc<'a>>,
    /// Sampler uniforms; sampler `k` reads texture unit `k`.
    pub samplers: Vec<SamplerDesc<'a>>,
    /// Fixed-function state.
    pub state: DrawState,
}

/// One vertex array.
#[derive(Clone, Copy, Debug)]
pub struct AttributeDesc<'a> {
    /// `layout(location = N)`, 0..=15.
    pub location: u32,
    /// Values per element, 1..=4.
    pub size: u32,
    /// The values, element after element: 32-bit floats, or for an integer
    /// `ty` the 32-bit integers' bit patterns.
    pub data: &'a [f32],
    /// `GL_FLOAT` (`glVertexAttribPointer`), or `GL_INT` / `GL_UNSIGNED_INT`
    /// (`glVertexAttribIPointer`: the integers reach `int`/`uint` inputs exactly).
    pub ty: u32,
    /// `glVertexAttribDivisor(location, divisor)`: 0 per vertex, `d` per `d`
    /// instances.
    pub divisor: u32,
}

/// A uniform value: a key and its numbers in GL's order (column-major matrices, the
/// elements of an array one after another).
#[derive(Clone, Copy, Debug)]
pub struct UniformDesc<'a> {
    /// The uniform's name as `glGetUniformLocation` takes it (`u`, `u[2]`,
    /// `light.color`, `Block.member` for a member of a uniform block). For `mat2` and
    /// the non-square matrices, `m[i]` is column `i` of the whole array of matrices
    /// (the CSIR convention: such a matrix is stored as the array of its columns).
    pub key: &'a str,
    /// The numbers as floats.
    pub values: &'a [f32],
    /// The same numbers as exact integers, when all were given as integers: an
    /// integer uniform takes these (so that values past 2^24 are exact); otherwise
    /// the floats truncated toward zero.
    pub ints: Option<&'a [i64]>,
}

/// A sampler uniform bound to a texture unit, with a sampler object.
#[derive(Clone, Copy, Debug)]
pub struct SamplerDesc<'a> {
    /// The sampler uniform's name.
    pub name: &'a str,
    /// Index into [`FrameDesc::textures`].
    pub texture: usize,
    /// `GL_TEXTURE_MIN_FILTER`: `GL_NEAREST`, `GL_LINEAR` or a mipmapped filter.
    pub min_filter: u32,
    /// `GL_TEXTURE_MAG_FILTER`: `GL_NEAREST` or `GL_LINEAR`.
    pub mag_filter: u32,
    /// `GL_TEXTURE_WRAP_S`, `_T` and `_R`: `GL_CLAMP_TO_EDGE`, `GL_REPEAT`,
    /// `GL_MIRRORED_REPEAT` or `GL_CLAMP_TO_BORDER`.
    pub wrap: [u32; 3],
    /// GL 3.3 sampler state beyond filters and wraps (`texture33.rs`).
    pub gl33: Option<crate::texture33::Gl33SamplerState>,
}

/// A built-in vertex input of the compatibility profile with an array of its own
/// (GL 2.1 §2.8, §2.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conventional {
    /// `gl_Normal`: `glNormalPointer` (3 floats).
    Normal,
    /// `gl_Color`: `glColorPointer` (3 or 4 floats).
    Color,
    /// `gl_SecondaryColor`: `glSecondaryColorPointer` (3 floats).
    SecondaryColor,
    /// `gl_MultiTexCoordN`: `glClientActiveTexture(GL_TEXTUREN)` + `glTexCoordPointer`.
    TexCoord(u32),
}

/// A draw's fixed-function state: every field is the argument of the GL call it
/// names; the defaults are GL's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawState {
    /// `glEnable(GL_DEPTH_TEST)` + `glDepthFunc(f)` when `Some(f)`.
    pub depth_func: Option<u32>,
    /// `glDepthMask`.
    pub depth_mask: bool,
    /// `glEnable(GL_CULL_FACE)` + `glCullFace(face)` when `Some(face)`; front faces
    /// are counter-clockwise (`glFrontFace(GL_CCW)`).
    pub cull_face: Option<u32>,
    /// `glEnable(GL_BLEND)` + `glBlendEquationSeparate` + `glBlendFuncSeparate` when
    /// `Some`.
    pub blend: Option<Blend>,
    /// `glColorMask(r, g, b, a)`.
    pub color_mask: [bool; 4],
    /// `glEnable(GL_SCISSOR_TEST)` + `glScissor(x, y, w, h)` when `Some`.
    pub scissor: Option<[i32; 4]>,
    /// `glViewport(x, y, w, h)`; `None` is the whole framebuffer.
    pub viewport: Option<[i32; 4]>,
    /// `glDepthRange(near, far)`.
    pub depth_range: [f32; 2],
    /// `glEnable(GL_POLYGON_OFFSET_FILL)` + `glPolygonOffset(factor, units)` when
    /// `Some([factor, units])`.
    pub polygon_offset: Option<[f32; 2]>,
    /// `glEnable(GL_STENCIL_TEST)` with `[front, back]` state when `Some`.
    pub stencil: Option<[crate::StencilFaceDesc; 2]>,
    /// `glEnable(GL_DEPTH_CLAMP)`.
    pub depth_clamp: bool,
    /// `glEnable(GL_VERTEX_PROGRAM_TWO_SIDE)` (compatibility profile).
    pub two_sided_color: bool,
    /// `glShadeModel(GL_FLAT)` when true (compatibility profile).
    pub flat_shading: bool,
    /// `glProvokingVertex(GL_FIRST_VERTEX_CONVENTION)` when true, else the last.
    pub provoking_first: bool,
    /// `glPointSize` (default 1).
    pub point_size: f32,
    /// `glEnable(GL_PROGRAM_POINT_SIZE)`: points take the vertex shader's
    /// `gl_PointSize`.
    pub program_point_size: bool,
    /// `glLineWidth` (default 1; a core context that is not forward-compatible, as
    /// this crate makes it, takes widths above 1, GL 3.3 core §E.2.2).
    pub line_width: f32,
    /// `glPolygonMode(GL_FRONT_AND_BACK, mode)`: `GL_FILL` (default), `GL_LINE` or
    /// `GL_POINT`.
    pub polygon_mode: u32,
    /// User clip planes 0..8: `glEnable(GL_CLIP_DISTANCEi)` for each `Some`, and in a
    /// compatibility context `glClipPlane(GL_CLIP_PLANEi, equation)` too (with the
    /// identity modelview matrix, so the equation is stored as given).
    pub clip_planes: [Option<[f32; 4]>; 8],
    /// Compatibility profile: the modelview and projection matrices, column-major
    /// (`glMatrixMode` + `glLoadMatrixf`; GL derives `gl_ModelViewProjectionMatrix`,
    /// `gl_NormalMatrix` and the rest from them).
    pub matrices: [[f32; 16]; 2],
    /// `glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE)` (GL 3.3 §4.1.3; acts on multisampled
    /// frames only).
    pub alpha_to_coverage: bool,
    /// `glEnable(GL_SAMPLE_COVERAGE)` + `glSampleCoverage(value, invert)` when
    /// `Some((value, invert))`.
    pub sample_coverage: Option<(f32, bool)>,
}

/// The 4×4 identity, column-major.
pub const IDENTITY: [f32; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

impl Default for DrawState {
    fn default() -> Self {
        DrawState {
            depth_func: None,
            depth_mask: true,
            cull_face: None,
            blend: None,
            color_mask: [true; 4],
            scissor: None,
            viewport: None,
            depth_range: [0.0, 1.0],
            polygon_offset: None,
            stencil: None,
            depth_clamp: false,
            two_sided_color: false,
            flat_shading: false,
            provoking_first: false,
            point_size: 1.0,
            program_point_size: false,
            line_width: 1.0,
            polygon_mode: glow::FILL,
            clip_planes: [None; 8],
            matrices: [IDENTITY; 2],
            alpha_to_coverage: false,
            sample_coverage: None,
        }
    }
}

/// Blend equations, factors (for RGB and for alpha) and the blend colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blend {
    /// `glBlendEquationSeparate`'s RGB equation (`GL_FUNC_ADD`, …).
    pub equation_rgb: u32,
    /// Its alpha equation.
    pub equation_alpha: u32,
    /// `glBlendFuncSeparate`'s source RGB factor.
    pub src_rgb: u32,
    /// Its destination RGB factor.
    pub dst_rgb: u32,
    /// Its source alpha factor.
    pub src_alpha: u32,
    /// Its destination alpha factor.
    pub dst_alpha: u32,
    /// `glBlendColor(r, g, b, a)`; GL's initial value is (0, 0, 0, 0).
    pub color: [f32; 4],
}

impl Blend {
    /// `glBlendEquation(GL_FUNC_ADD)` + `glBlendFunc(src, dst)`: the same for RGB and
    /// alpha.
    pub fn add(src: u32, dst: u32) -> Blend {
        Blend {
            equation_rgb: glow::FUNC_ADD,
            equation_alpha: glow::FUNC_ADD,
            src_rgb: src,
            dst_rgb: dst,
            src_alpha: src,
            dst_alpha: dst,
            color: [0.0; 4],
        }
    }
}
