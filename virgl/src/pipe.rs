//! Gallium's enumerations as VirGL carries them on the wire: formats, resource
//! targets and bind flags, shader stages, comparison functions, blend factors, face
//! culling, texture wrap and filter modes, primitive types and clear bits.
//!
//! The numbers are the host's (virglrenderer's `virgl_hw.h` and Gallium's
//! `p_defines.h`); docs/virgl.md lists the ones this crate sends. Each enum holds only
//! the values a renderer of `csir-scene/1` files needs.

/// A resource or view format (`enum virgl_formats`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// 8-bit RGBA, normalized; byte order R, G, B, A in memory.
    R8G8B8A8Unorm,
    /// 24-bit normalized depth (in the low 24 bits), 8 bits unused.
    Z24X8Unorm,
    /// Packed 24-bit normalized depth and 8-bit stencil (`S8_UINT_Z24_UNORM`, 20): the
    /// depth/stencil format virglrenderer's format table takes (it reports
    /// `Z24_UNORM_S8_UINT`, 19, as an unknown format).
    S8UintZ24Unorm,
    /// One byte: the format of buffers (vertex, index, constant).
    R8Unorm,
    /// One 32-bit float.
    R32Float,
    /// Two 32-bit floats.
    R32G32Float,
    /// Three 32-bit floats.
    R32G32B32Float,
    /// Four 32-bit floats.
    R32G32B32A32Float,
    /// Two 8-bit normalized channels (`GL_RG8`).
    R8G8Unorm,
    /// Four half floats (`GL_RGBA16F`).
    R16G16B16A16Float,
    /// 8-bit sRGB colour and linear alpha (`GL_SRGB8_ALPHA8`).
    R8G8B8A8Srgb,
    /// A 32-bit float depth (`GL_DEPTH_COMPONENT32F`).
    Z32Float,
    /// Four 8-bit unsigned integers (`GL_RGBA8UI`).
    R8G8B8A8Uint,
    /// Four 32-bit signed integers (`GL_RGBA32I`).
    R32G32B32A32Sint,
    /// Four 32-bit unsigned integers (`GL_RGBA32UI`).
    R32G32B32A32Uint,
    /// One 32-bit signed integer (an `int` vertex array of size 1).
    R32Sint,
    /// Two 32-bit signed integers.
    R32G32Sint,
    /// Three 32-bit signed integers.
    R32G32B32Sint,
    /// One 32-bit unsigned integer (a `uint` vertex array of size 1).
    R32Uint,
    /// Two 32-bit unsigned integers.
    R32G32Uint,
    /// Three 32-bit unsigned integers.
    R32G32B32Uint,
}

impl Format {
    /// The wire value.
    pub const fn code(self) -> u32 {
        match self {
            Format::R8G8B8A8Unorm => 67,
            Format::Z24X8Unorm => 21,
            Format::S8UintZ24Unorm => 20,
            Format::R8Unorm => 64,
            Format::R32Float => 28,
            Format::R32G32Float => 29,
            Format::R32G32B32Float => 30,
            Format::R32G32B32A32Float => 31,
            Format::R8G8Unorm => 65,
            Format::R16G16B16A16Float => 94,
            Format::R8G8B8A8Srgb => 104,
            Format::Z32Float => 18,
            Format::R8G8B8A8Uint => 180,
            Format::R32G32B32A32Sint => 200,
            Format::R32G32B32A32Uint => 196,
            Format::R32Uint => 193,
            Format::R32G32Uint => 194,
            Format::R32G32B32Uint => 195,
            Format::R32Sint => 197,
            Format::R32G32Sint => 198,
            Format::R32G32B32Sint => 199,
        }
    }

    /// Bytes per texel (per element of a buffer view).
    pub const fn bytes(self) -> u32 {
        match self {
            Format::R8Unorm => 1,
            Format::R8G8Unorm => 2,
            Format::R8G8B8A8Unorm
            | Format::R8G8B8A8Srgb
            | Format::R8G8B8A8Uint
            | Format::Z24X8Unorm
            | Format::S8UintZ24Unorm
            | Format::R32Float
            | Format::R32Sint
            | Format::R32Uint
            | Format::Z32Float => 4,
            Format::R32G32Float
            | Format::R32G32Sint
            | Format::R32G32Uint
            | Format::R16G16B16A16Float => 8,
            Format::R32G32B32Float | Format::R32G32B32Sint | Format::R32G32B32Uint => 12,
            Format::R32G32B32A32Float | Format::R32G32B32A32Sint | Format::R32G32B32A32Uint => 16,
        }
    }

    /// The float vertex format with `components` (1..=4) 32-bit floats, `None` for
    /// any other count.
    pub const fn float_vector(components: u32) -> Option<Format> {
        match components {
            1 => Some(Format::R32Float),
            2 => Some(Format::R32G32Float),
            3 => Some(Format::R32G32B32Float),
            4 => Some(Format::R32G32B32A32Float),
            _ => None,
        }
    }

    /// The pure-integer vertex format with `components` (1..=4) 32-bit integers,
    /// signed or unsigned (`glVertexAttribIPointer` with `GL_INT` / `GL_UNSIGNED_INT`:
    /// the shader reads the exact 32-bit values), `None` for any other count.
    pub const fn int_vector(components: u32, signed: bool) -> Option<Format> {
        Some(match (components, signed) {
            (1, true) => Format::R32Sint,
            (2, true) => Format::R32G32Sint,
            (3, true) => Format::R32G32B32Sint,
            (4, true) => Format::R32G32B32A32Sint,
            (1, false) => Format::R32Uint,
            (2, false) => Format::R32G32Uint,
            (3, false) => Format::R32G32B32Uint,
            (4, false) => Format::R32G32B32A32Uint,
            _ => return None,
        })
    }
}

/// What kind of resource: a buffer or a texture of one of GL 3.3's targets
/// (`enum pipe_texture_target`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A linear buffer of bytes (vertex, index and constant data, texture buffers).
    Buffer,
    /// A 1D texture.
    Texture1d,
    /// A 2D texture or render target.
    Texture2d,
    /// A 3D texture.
    Texture3d,
    /// A cube map: 6 layers, the faces +x, −x, +y, −y, +z, −z.
    TextureCube,
    /// A rectangle texture (unnormalized coordinates, one level).
    TextureRect,
    /// A 1D array texture (its layers are the array size).
    Texture1dArray,
    /// A 2D array texture.
    Texture2dArray,
}

impl Target {
    /// The wire value.
    pub const fn code(self) -> u32 {
        match self {
            Target::Buffer => 0,
            Target::Texture1d => 1,
            Target::Texture2d => 2,
            Target::Texture3d => 3,
            Target::TextureCube => 4,
            Target::TextureRect => 5,
            Target::Texture1dArray => 6,
            Target::Texture2dArray => 7,
        }
    }
}

/// How a resource will be bound (`VIRGL_BIND_*`), as a bit set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bind(u32);

impl Bind {
    /// A depth/stencil attachment.
    pub const DEPTH_STENCIL: Bind = Bind(1 << 0);
    /// A colour attachment.
    pub const RENDER_TARGET: Bind = Bind(1 << 1);
    /// A texture read through a sampler view.
    pub const SAMPLER_VIEW: Bind = Bind(1 << 3);
    /// Vertex attribute data.
    pub const VERTEX_BUFFER: Bind = Bind(1 << 4);
    /// Index data.
    pub const INDEX_BUFFER: Bind = Bind(1 << 5);
    /// Constant (uniform) data.
    pub const CONSTANT_BUFFER: Bind = Bind(1 << 6);

    /// The wire value.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Both sets of bindings.
    pub const fn with(self, other: Bind) -> Bind {
        Bind(self.0 | other.0)
    }
}

/// A shader stage (`PIPE_SHADER_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderStage {
    /// The vertex shader.
    Vertex,
    /// The fragment shader.
    Fragment,
}

impl ShaderStage {
    /// The wire value.
    pub const fn code(self) -> u32 {
        match self {
            ShaderStage::Vertex => 0,
            ShaderStage::Fragment => 1,
        }
    }
}

/// A comparison function for the depth test (`PIPE_FUNC_*`): the fragment passes
/// when `fragment OP stored` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareFunc {
    /// Never passes.
    Never,
    /// `<`.
    Less,
    /// `==`.
    Equal,
    /// `<=`.
    LessEqual,
    /// `>`.
    Greater,
    /// `!=`.
    NotEqual,
    /// `>=`.
    GreaterEqual,
    /// Always passes.
    Always,
}

impl CompareFunc {
    /// The wire value (3 bits).
    pub const fn code(self) -> u32 {
        match self {
            CompareFunc::Never => 0,
            CompareFunc::Less => 1,
            CompareFunc::Equal => 2,
            CompareFunc::LessEqual => 3,
            CompareFunc::Greater => 4,
            CompareFunc::NotEqual => 5,
            CompareFunc::GreaterEqual => 6,
            CompareFunc::Always => 7,
        }
    }
}

/// A stencil operation (`PIPE_STENCIL_OP_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StencilOp {
    /// Keep the stored value.
    Keep,
    /// Store 0.
    Zero,
    /// Store the reference value.
    Replace,
    /// Add 1, saturating.
    Incr,
    /// Subtract 1, saturating.
    Decr,
    /// Add 1, wrapping.
    IncrWrap,
    /// Subtract 1, wrapping.
    DecrWrap,
    /// Invert every bit.
    Invert,
}

impl StencilOp {
    /// The wire value (3 bits).
    pub const fn code(self) -> u32 {
        match self {
            StencilOp::Keep => 0,
            StencilOp::Zero => 1,
            StencilOp::Replace => 2,
            StencilOp::Incr => 3,
            StencilOp::Decr => 4,
            StencilOp::IncrWrap => 5,
            StencilOp::DecrWrap => 6,
            StencilOp::Invert => 7,
        }
    }
}

/// A blend factor (`PIPE_BLENDFACTOR_*`; p_state.h's `pipe_rt_blend_state`), the
/// ones GL 3.3 §4.1.8 names, with the second source colour's of dual-source
/// blending (the host links the fragment shader's `COLOR[1]` to it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlendFactor {
    /// 1.
    One,
    /// The source colour.
    SrcColor,
    /// The source alpha.
    SrcAlpha,
    /// The destination alpha.
    DstAlpha,
    /// The destination colour.
    DstColor,
    /// min(source alpha, 1 − destination alpha); 1 for alpha.
    SrcAlphaSaturate,
    /// The blend colour.
    ConstColor,
    /// The blend colour's alpha.
    ConstAlpha,
    /// 0.
    Zero,
    /// 1 − the source colour.
    InvSrcColor,
    /// 1 − the source alpha.
    InvSrcAlpha,
    /// 1 − the destination alpha.
    InvDstAlpha,
    /// 1 − the destination colour.
    InvDstColor,
    /// 1 − the blend colour.
    InvConstColor,
    /// 1 − the blend colour's alpha.
    InvConstAlpha,
    /// The second source colour (`GL_SRC1_COLOR`).
    Src1Color,
    /// The second source colour's alpha (`GL_SRC1_ALPHA`).
    Src1Alpha,
    /// 1 − the second source colour.
    InvSrc1Color,
    /// 1 − the second source colour's alpha.
    InvSrc1Alpha,
}

impl BlendFactor {
    /// The wire value (5 bits).
    pub const fn code(self) -> u32 {
        match self {
            BlendFactor::One => 0x01,
            BlendFactor::SrcColor => 0x02,
            BlendFactor::SrcAlpha => 0x03,
            BlendFactor::DstAlpha => 0x04,
            BlendFactor::DstColor => 0x05,
            BlendFactor::SrcAlphaSaturate => 0x06,
            BlendFactor::ConstColor => 0x07,
            BlendFactor::ConstAlpha => 0x08,
            BlendFactor::Zero => 0x11,
            BlendFactor::InvSrcColor => 0x12,
            BlendFactor::InvSrcAlpha => 0x13,
            BlendFactor::InvDstAlpha => 0x14,
            BlendFactor::InvDstColor => 0x15,
            BlendFactor::InvConstColor => 0x17,
            BlendFactor::InvConstAlpha => 0x18,
            BlendFactor::Src1Color => 0x09,
            BlendFactor::Src1Alpha => 0x0a,
            BlendFactor::InvSrc1Color => 0x19,
            BlendFactor::InvSrc1Alpha => 0x1a,
        }
    }
}

/// A blend equation (`PIPE_BLEND_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlendFunc {
    /// `src · sf + dst · df`.
    Add,
    /// `src · sf − dst · df`.
    Subtract,
    /// `dst · df − src · sf`.
    ReverseSubtract,
    /// `min(src, dst)`.
    Min,
    /// `max(src, dst)`.
    Max,
}

impl BlendFunc {
    /// The wire value (3 bits).
    pub const fn code(self) -> u32 {
        match self {
            BlendFunc::Add => 0,
            BlendFunc::Subtract => 1,
            BlendFunc::ReverseSubtract => 2,
            BlendFunc::Min => 3,
            BlendFunc::Max => 4,
        }
    }
}

/// Which faces culling removes (`PIPE_FACE_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CullFace {
    /// Nothing is culled.
    None,
    /// Front faces are culled.
    Front,
    /// Back faces are culled.
    Back,
}

impl CullFace {
    /// The wire value (2 bits).
    pub const fn code(self) -> u32 {
        match self {
            CullFace::None => 0,
            CullFace::Front => 1,
            CullFace::Back => 2,
        }
    }
}

/// A texture wrap mode (`PIPE_TEX_WRAP_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wrap {
    /// `GL_REPEAT`.
    Repeat,
    /// `GL_CLAMP_TO_EDGE`.
    ClampToEdge,
    /// `GL_MIRRORED_REPEAT`.
    MirrorRepeat,
    /// `GL_CLAMP_TO_BORDER`.
    ClampToBorder,
}

impl Wrap {
    /// The wire value (3 bits).
    pub const fn code(self) -> u32 {
        match self {
            Wrap::Repeat => 0,
            Wrap::ClampToEdge => 2,
            Wrap::ClampToBorder => 3,
            Wrap::MirrorRepeat => 4,
        }
    }
}

/// A texel filter within one level (`PIPE_TEX_FILTER_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Filter {
    /// The nearest texel.
    Nearest,
    /// Bilinear.
    Linear,
}

impl Filter {
    /// The wire value (1 bit).
    pub const fn code(self) -> u32 {
        match self {
            Filter::Nearest => 0,
            Filter::Linear => 1,
        }
    }
}

/// `PIPE_TEX_MIPFILTER_NONE`: sample level 0 only.
pub const MIPFILTER_NONE: u32 = 2;

/// How levels are chosen and blended (`PIPE_TEX_MIPFILTER_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MipFilter {
    /// The nearest level.
    Nearest,
    /// The two nearest levels, blended.
    Linear,
    /// The base level only ([`MIPFILTER_NONE`]).
    None,
}

impl MipFilter {
    /// The wire value (2 bits).
    pub const fn code(self) -> u32 {
        match self {
            MipFilter::Nearest => 0,
            MipFilter::Linear => 1,
            MipFilter::None => MIPFILTER_NONE,
        }
    }
}

/// A draw's primitive type (`enum pipe_prim_type`): GL 3.3 core's eleven modes
/// (§2.6.1), whose numbers are OpenGL's (`GL_POINTS` 0 … `GL_TRIANGLE_STRIP_ADJACENCY`
/// 13), which virglrenderer passes to the host's `glDrawElements` unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrimitiveMode {
    /// `PIPE_PRIM_POINTS` (0).
    Points,
    /// `PIPE_PRIM_LINES` (1).
    Lines,
    /// `PIPE_PRIM_LINE_LOOP` (2).
    LineLoop,
    /// `PIPE_PRIM_LINE_STRIP` (3).
    LineStrip,
    /// `PIPE_PRIM_TRIANGLES` (4).
    Triangles,
    /// `PIPE_PRIM_TRIANGLE_STRIP` (5).
    TriangleStrip,
    /// `PIPE_PRIM_TRIANGLE_FAN` (6).
    TriangleFan,
    /// `PIPE_PRIM_LINES_ADJACENCY` (10).
    LinesAdjacency,
    /// `PIPE_PRIM_LINE_STRIP_ADJACENCY` (11).
    LineStripAdjacency,
    /// `PIPE_PRIM_TRIANGLES_ADJACENCY` (12).
    TrianglesAdjacency,
    /// `PIPE_PRIM_TRIANGLE_STRIP_ADJACENCY` (13).
    TriangleStripAdjacency,
}

impl PrimitiveMode {
    /// The wire value.
    pub const fn code(self) -> u32 {
        match self {
            PrimitiveMode::Points => 0,
            PrimitiveMode::Lines => 1,
            PrimitiveMode::LineLoop => 2,
            PrimitiveMode::LineStrip => 3,
            PrimitiveMode::Triangles => 4,
            PrimitiveMode::TriangleStrip => 5,
            PrimitiveMode::TriangleFan => 6,
            PrimitiveMode::LinesAdjacency => 10,
            PrimitiveMode::LineStripAdjacency => 11,
            PrimitiveMode::TrianglesAdjacency => 12,
            PrimitiveMode::TriangleStripAdjacency => 13,
        }
    }
}

/// How the faces of a polygon are rasterized (`PIPE_POLYGON_MODE_*`, the rasterizer
/// state's `fill_front` and `fill_back`; `glPolygonMode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PolygonFill {
    /// `PIPE_POLYGON_MODE_FILL` (0): the interior.
    #[default]
    Fill,
    /// `PIPE_POLYGON_MODE_LINE` (1): the edges.
    Line,
    /// `PIPE_POLYGON_MODE_POINT` (2): the vertices.
    Point,
}

impl PolygonFill {
    /// The wire value.
    pub const fn code(self) -> u32 {
        match self {
            PolygonFill::Fill => 0,
            PolygonFill::Line => 1,
            PolygonFill::Point => 2,
        }
    }
}

/// Which buffers a clear writes (`PIPE_CLEAR_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClearBuffers(u32);

impl ClearBuffers {
    /// The depth buffer.
    pub const DEPTH: ClearBuffers = ClearBuffers(1 << 0);
    /// The stencil buffer.
    pub const STENCIL: ClearBuffers = ClearBuffers(1 << 1);
    /// Colour attachment 0.
    pub const COLOR0: ClearBuffers = ClearBuffers(1 << 2);

    /// Colour attachment `k` (`PIPE_CLEAR_COLOR0 << k`, `k < 8`).
    pub const fn color(k: u32) -> ClearBuffers {
        ClearBuffers(1 << (2 + k))
    }

    /// The wire value.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Both sets of buffers.
    pub const fn with(self, other: ClearBuffers) -> ClearBuffers {
        ClearBuffers(self.0 | other.0)
    }
}
