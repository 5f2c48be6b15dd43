//! GLSL's built-in variables beyond `gl_Position` and `gl_FragCoord`: which exist in
//! which dialect and stage, and how each maps onto CSIR's interface (GLSL 1.10 §7,
//! GLSL 1.30 §7, GLSL 3.30 §7; how a scene feeds them: `docs/glsl-dialects.md`).
//!
//! A built-in is declared only when a shader uses it, so a shader that does not use
//! one compiles exactly as before. The mapping:
//!
//! - **attributes** at fixed locations, the same as a scene's mesh: `gl_Vertex` 0,
//!   `gl_Normal` 1, `gl_MultiTexCoord0` 2, `gl_Color` 3, `gl_SecondaryColor` 4,
//!   `gl_MultiTexCoord1..3` 5..7 (a user attribute without a location takes a free
//!   one around them);
//! - **varyings** by name, as user varyings are: the vertex outputs `gl_FrontColor`,
//!   `gl_BackColor`, `gl_FrontSecondaryColor`, `gl_BackSecondaryColor`,
//!   `gl_FogFragCoord`; the fragment inputs `gl_Color` and `gl_SecondaryColor` read the
//!   front colours (two-sided colour selection is off, as GL's default is; a draw that
//!   enables it gives back-facing triangles the back colours, [`back_face_source`]) and
//!   `gl_FogFragCoord` reads its vertex output;
//! - **uniforms**, set by name like any uniform: the matrices (`gl_ModelViewMatrix`,
//!   `gl_ProjectionMatrix`, `gl_ModelViewProjectionMatrix`, their `Inverse`,
//!   `Transpose` and `InverseTranspose` forms, `gl_NormalMatrix`), identity until set,
//!   as in GL; `gl_NormalScale`, 1 until set;
//! - `gl_TexCoord[]`, varyings like a user array varying, sized in each shader by
//!   the largest constant index it uses (`implicit_len`); the fragment shader's may
//!   be shorter than the vertex shader's;
//! - the **colour output** `gl_FragColor`, or `gl_FragData[0]` (one render target);
//! - `gl_FrontFacing` (fragment stage, every dialect; GLSL 1.10 §7.2): LOAD_FACE, true
//!   for a primitive that is counter-clockwise in window coordinates (GL 2.1 §3.5.1,
//!   front face `GL_CCW`);
//! - `gl_VertexID` and `gl_InstanceID` (GLSL 1.30 §7.1, GLSL 1.40): `int` vertex
//!   inputs the renderer computes, given the lowest free attribute location (so they
//!   count toward the attribute limit) and fed by name: the vertex's index (for an
//!   indexed draw the element value) and the instance number;
//! - `gl_PointSize` (vertex) is a vertex output like a varying, which the fragment
//!   shader cannot read: with `GL_PROGRAM_POINT_SIZE` the renderer sizes points by
//!   it; `gl_PointCoord` (fragment) is an input the rasterizer fills for points and
//!   `gl_PrimitiveID` (fragment, `int`) one the fragment stage fills with the
//!   primitive's index within the draw; the link leaves both without a vertex
//!   output ([`rasterizer_input`]);
//! - the user clipping outputs of the vertex shader (GL 3.0 §2.17), varyings the
//!   fragment shader never reads, which the renderer turns into clip distances for
//!   the enabled clip planes (`docs/scene-format.md`, `state.clip_planes`):
//!   `gl_ClipVertex` (compatibility) and `gl_ClipDistance[]` (GLSL 1.30 §7.1, desktop
//!   GLSL 1.30 and later), a float array sized like `gl_TexCoord` (`implicit_len`,
//!   at most [`MAX_CLIP_DISTANCES`]) or by a redeclaration
//!   (`out float gl_ClipDistance[4];`). The fragment shader's `gl_ClipDistance` input
//!   is not supported.
//!
//! The rest are reported by name with the reason (the `UNSUPPORTED` table).

use super::ast::{Decl, Expr, ExprKind, Item, Program, Stmt, StmtKind};
use super::dialect::Dialect;
use super::token::Pos;
use super::types::Type;
use crate::ir::Stage;

/// How a built-in variable maps onto CSIR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Binding {
    /// A vertex attribute at this fixed location.
    Attribute(u16),
    /// A vertex output or fragment input, linked by its interface name (see
    /// [`link_names`]).
    Varying,
    /// A uniform, set by name.
    Uniform,
    /// The fragment colour output (`len` 1 for the array `gl_FragData`).
    Color,
    /// `gl_FrontFacing`, loaded by LOAD_FACE.
    FrontFacing,
    /// A vertex input the renderer computes per vertex (`gl_VertexID`,
    /// `gl_InstanceID`): an attribute at the lowest free location, found by name in
    /// the linked program's attributes.
    VertexInput,
    /// Written and read like a private global; nothing consumes it (the geometry
    /// stage's `gl_PrimitiveID` and `gl_Layer` outputs).
    NoEffect,
    /// `gl_PrimitiveIDIn`, loaded by LOAD_PRIMID (geometry stage, `lang/geometry.rs`).
    PrimitiveIdIn,
}

/// Which dialects have a built-in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Availability {
    /// Every dialect except OpenGL ES 3.00 (`gl_FragColor`, `gl_FragData`).
    NotEs3,
    /// Every dialect.
    All,
    /// The compatibility built-ins: desktop GLSL up to 1.40 and the `compatibility`
    /// profile ([`Dialect::has_compatibility_builtins`]).
    Compatibility,
    /// Desktop GLSL 1.30 and later (`gl_ClipDistance`), not GLSL ES.
    Desktop130,
}

/// One built-in variable the front end maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BuiltinVar {
    pub name: &'static str,
    pub ty: Type,
    /// `Some(n)`: an array of `n` elements (`gl_FragData`, with one); `Some(0)`: an
    /// implicitly sized array (`gl_TexCoord`, sized by [`texcoord_len`]).
    pub array: Option<u16>,
    pub stage: Stage,
    pub binding: Binding,
    pub availability: Availability,
}

use Availability::{All, Compatibility, Desktop130, NotEs3};
use Binding::{Attribute, Color, FrontFacing, Uniform, Varying, VertexInput};
use Stage::{Fragment, Vertex};

const fn var(
    name: &'static str,
    ty: Type,
    stage: Stage,
    binding: Binding,
    availability: Availability,
) -> BuiltinVar {
    BuiltinVar {
        name,
        ty,
        array: None,
        stage,
        binding,
        availability,
    }
}

/// `gl_TexCoord[]`, the compatibility texture-coordinate varyings (GLSL 1.10 §7.6): an
/// implicitly sized array; [`texcoord_len`] sizes it in each shader.
const fn texcoord(stage: Stage) -> BuiltinVar {
    BuiltinVar {
        array: Some(0),
        ..var("gl_TexCoord", Type::Vec4, stage, Varying, Compatibility)
    }
}

/// GL's `gl_MaxTextureCoords`, the size of `gl_TexCoord` when a shader indexes it with
/// a run-time value (GL 2.1 table 6.45 requires at least 2; Mesa has 8).
pub(crate) const MAX_TEXTURE_COORDS: u16 = 8;

/// `gl_MaxClipDistances` (and `gl_MaxClipPlanes`): the user clip planes the renderer
/// has (GL 3.0 table 6.46 requires at least 8; `csir_raster::MAX_CLIP_DISTANCES`), the
/// largest size of `gl_ClipDistance` and its size when a shader indexes it with a
/// run-time value.
pub const MAX_CLIP_DISTANCES: u16 = 8;

/// `gl_ClipDistance[]` (GLSL 1.30 §7.1): a vertex output float array, implicitly sized.
const CLIP_DISTANCE: BuiltinVar = BuiltinVar {
    array: Some(0),
    ..var("gl_ClipDistance", Type::Float, Vertex, Varying, Desktop130)
};

/// The built-in variables the front end maps, per stage (uniforms exist in both).
pub(crate) const BUILTIN_VARS: &[BuiltinVar] = &[
    var("gl_Vertex", Type::Vec4, Vertex, Attribute(0), Compatibility),
    var("gl_Normal", Type::Vec3, Vertex, Attribute(1), Compatibility),
    var(
        "gl_MultiTexCoord0",
        Type::Vec4,
        Vertex,
        Attribute(2),
        Compatibility,
    ),
    var("gl_Color", Type::Vec4, Vertex, Attribute(3), Compatibility),
    var(
        "gl_SecondaryColor",
        Type::Vec4,
        Vertex,
        Attribute(4),
        Compatibility,
    ),
    var(
        "gl_MultiTexCoord1",
        Type::Vec4,
        Vertex,
        Attribute(5),
        Compatibility,
    ),
    var(
        "gl_MultiTexCoord2",
        Type::Vec4,
        Vertex,
        Attribute(6),
        Compatibility,
    ),
    var(
        "gl_MultiTexCoord3",
        Type::Vec4,
        Vertex,
        Attribute(7),
        Compatibility,
    ),
    var("gl_FrontColor", Type::Vec4, Vertex, Varying, Compatibility),
    var("gl_BackColor", Type::Vec4, Vertex, Varying, Compatibility),
    var(
        "gl_FrontSecondaryColor",
        Type::Vec4,
        Vertex,
        Varying,
        Compatibility,
    ),
    var(
        "gl_BackSecondaryColor",
        Type::Vec4,
        Vertex,
        Varying,
        Compatibility,
    ),
    var(
        "gl_FogFragCoord",
        Type::Float,
        Vertex,
        Varying,
        Compatibility,
    ),
    var("gl_PointSize", Type::Float, Vertex, Varying, All),
    var("gl_VertexID", Type::Int, Vertex, VertexInput, All),
    var("gl_InstanceID", Type::Int, Vertex, VertexInput, All),
    var("gl_ClipVertex", Type::Vec4, Vertex, Varying, Compatibility),
    CLIP_DISTANCE,
    var("gl_Color", Type::Vec4, Fragment, Varying, Compatibility),
    var(
        "gl_SecondaryColor",
        Type::Vec4,
        Fragment,
        Varying,
        Compatibility,
    ),
    var(
        "gl_FogFragCoord",
        Type::Float,
        Fragment,
        Varying,
        Compatibility,
    ),
    var("gl_FrontFacing", Type::Bool, Fragment, FrontFacing, All),
    var("gl_PointCoord", Type::Vec2, Fragment, Varying, All),
    var("gl_PrimitiveID", Type::Int, Fragment, Varying, All),
    var("gl_FragColor", Type::Vec4, Fragment, Color, NotEs3),
    BuiltinVar {
        array: Some(1),
        ..var("gl_FragData", Type::Vec4, Fragment, Color, NotEs3)
    },
    texcoord(Vertex),
    texcoord(Fragment),
];

/// Whether a fragment input is made by the rasterizer, not read from a vertex
/// output: `gl_PointCoord` (GL 3.3 core §3.4; zero outside points) and
/// `gl_PrimitiveID` (GLSL 1.50 §7.1: the primitive's index within the draw).
pub fn rasterizer_input(name: &str) -> bool {
    matches!(name, "gl_PointCoord" | "gl_PrimitiveID")
}

/// Whether a vertex output is one of the colours GL clamps to [0, 1] before
/// interpolation: `gl_FrontColor`, `gl_BackColor`, `gl_FrontSecondaryColor`,
/// `gl_BackSecondaryColor` (vertex colour clamping, `GL_CLAMP_VERTEX_COLOR`, is on by
/// default in the compatibility profile; GL 3.3 compatibility §2.19.6).
pub(crate) fn is_clamped_color(name: &str) -> bool {
    matches!(
        name,
        "gl_FrontColor" | "gl_BackColor" | "gl_FrontSecondaryColor" | "gl_BackSecondaryColor"
    )
}

/// Whether a built-in varying is one of the colours GL's shade model governs (GL 3.0
/// §2.14.7): the vertex outputs `gl_FrontColor`, `gl_BackColor`,
/// `gl_FrontSecondaryColor`, `gl_BackSecondaryColor` and the fragment inputs
/// `gl_Color`, `gl_SecondaryColor`. These are also the built-ins a shader may
/// redeclare with an interpolation qualifier (GLSL 1.30 §7.3 of the compatibility
/// variables), which then decides instead of the shade model.
pub fn follows_shade_model(name: &str) -> bool {
    is_clamped_color(name) || matches!(name, "gl_Color" | "gl_SecondaryColor")
}

/// The uniform matrices of the compatibility profile (GLSL 1.10 §7.5), identity until
/// set. Both stages have them.
pub(crate) const BUILTIN_MATRICES: &[(&str, Type)] = &[
    ("gl_ModelViewMatrix", Type::Mat4),
    ("gl_ProjectionMatrix", Type::Mat4),
    ("gl_ModelViewProjectionMatrix", Type::Mat4),
    ("gl_ModelViewMatrixInverse", Type::Mat4),
    ("gl_ProjectionMatrixInverse", Type::Mat4),
    ("gl_ModelViewProjectionMatrixInverse", Type::Mat4),
    ("gl_ModelViewMatrixTranspose", Type::Mat4),
    ("gl_ProjectionMatrixTranspose", Type::Mat4),
    ("gl_ModelViewProjectionMatrixTranspose", Type::Mat4),
    ("gl_ModelViewMatrixInverseTranspose", Type::Mat4),
    ("gl_ProjectionMatrixInverseTranspose", Type::Mat4),
    ("gl_ModelViewProjectionMatrixInverseTranspose", Type::Mat4),
    ("gl_NormalMatrix", Type::Mat3),
];

/// Built-in names GLSL has that this renderer cannot provide, with the reason.
const UNSUPPORTED: &[(&str, &str)] = &[
    (
        "gl_FragDepth",
        "a fragment shader cannot write depth (CSIR has no depth output)",
    ),
    (
        "gl_FogCoord",
        "attribute locations 0..7 are taken by the other compatibility attributes",
    ),
    (
        "gl_TextureMatrix",
        "arrays of built-in matrices are not supported yet",
    ),
    (
        "gl_DepthRange",
        "built-in uniform structs are not supported yet",
    ),
    ("gl_SampleID", "there is no multisampling"),
    ("gl_Layer", "there are no layered framebuffers"),
    (
        "gl_LightSource",
        "fixed-function lighting state is not provided",
    ),
    (
        "gl_LightModel",
        "fixed-function lighting state is not provided",
    ),
    (
        "gl_FrontMaterial",
        "fixed-function lighting state is not provided",
    ),
    (
        "gl_BackMaterial",
        "fixed-function lighting state is not provided",
    ),
    ("gl_Fog", "fixed-function fog state is not provided"),
    (
        "gl_ClipPlane",
        "the clip plane equations are not provided as a uniform array",
    ),
];

/// Where `name` stands for `stage` in `dialect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// A built-in this front end maps.
    Mapped(BuiltinVar),
    /// Not a built-in GLSL variable this front end knows.
    Unknown,
}

/// The value of the built-in constant `name` (GLSL 1.10 §7.4, GLSL 1.30 §7.4, GLSL
/// ES 3.00 §7.3), if `dialect` has it. Where csir-render has the limit, the constant is
/// that limit, the same number `shader-test` reports for the GL query: vertex
/// attributes, varying components (4 per slot) and uniform components (4 per slot) of
/// `limits`, `samplers` texture image units per stage (both stages, so twice that
/// combined), one draw buffer, [`MAX_TEXTURE_COORDS`] texture coordinates (the size
/// of `gl_TexCoord`). The other fixed-function ones (lights, clip planes, texture
/// units) are the minimums GLSL 1.10 §7.4 requires.
pub(crate) fn constant(name: &str, dialect: Dialect, limits: &crate::ir::Limits) -> Option<i32> {
    let n = |v: usize| i32::try_from(v).unwrap_or(i32::MAX);
    let compat = dialect.has_compatibility_builtins();
    let es = dialect.profile == super::dialect::Profile::Es;
    let v130 = !es && dialect.version >= 130;
    Some(match name {
        "gl_MaxVertexAttribs" => n(limits.attributes),
        "gl_MaxVertexUniformComponents" | "gl_MaxFragmentUniformComponents" if !es => {
            n(limits.uniform_slots * 4)
        }
        "gl_MaxVertexUniformVectors" | "gl_MaxFragmentUniformVectors" if es => {
            n(limits.uniform_slots)
        }
        "gl_MaxVaryingFloats" if !es => n(limits.varyings * 4),
        "gl_MaxVaryingComponents" if v130 => n(limits.varyings * 4),
        "gl_MaxVaryingVectors" if es => n(limits.varyings),
        "gl_MaxVertexOutputComponents" | "gl_MaxFragmentInputComponents"
            if !es && dialect.version >= 150 =>
        {
            n(limits.varyings * 4)
        }
        // GLSL 1.50 §7.4: the geometry stage's, with the numbers the stage has here
        // (its inputs and outputs are varying slots; GL 3.2 table 6.49's output
        // vertex and total component minimums are this compiler's limits).
        "gl_MaxGeometryInputComponents"
        | "gl_MaxGeometryOutputComponents"
        | "gl_MaxGeometryVaryingComponents"
            if !es && dialect.version >= 150 =>
        {
            n(limits.varyings * 4)
        }
        "gl_MaxGeometryUniformComponents" if !es && dialect.version >= 150 => {
            n(limits.uniform_slots * 4)
        }
        "gl_MaxGeometryTextureImageUnits" if !es && dialect.version >= 150 => n(limits.samplers),
        "gl_MaxGeometryOutputVertices" if !es && dialect.version >= 150 => {
            i32::from(crate::ir::geometry::MAX_GEOMETRY_OUTPUT_VERTICES)
        }
        "gl_MaxGeometryTotalOutputComponents" if !es && dialect.version >= 150 => {
            n(crate::ir::geometry::MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS as usize)
        }
        "gl_MaxVertexTextureImageUnits" | "gl_MaxTextureImageUnits" => n(limits.samplers),
        "gl_MaxCombinedTextureImageUnits" => n(limits.samplers * 2),
        "gl_MaxDrawBuffers" => 1,
        "gl_MaxLights" if compat => 8,
        "gl_MaxClipPlanes" if compat => i32::from(MAX_CLIP_DISTANCES),
        "gl_MaxClipDistances" if v130 => i32::from(MAX_CLIP_DISTANCES),
        "gl_MaxTextureUnits" if compat => 2,
        "gl_MaxTextureCoords" if compat => i32::from(MAX_TEXTURE_COORDS),
        _ => return None,
    })
}

/// The built-in `name` as `stage` of `dialect` sees it, or why it cannot be used: the
/// message names the variable and the reason ("gl_Vertex is not available in GLSL
/// 3.30 core: ...").
pub(crate) fn lookup(name: &str, stage: Stage, dialect: Dialect) -> Result<Lookup, String> {
    if let Some(found) = super::geometry::lookup(name, stage) {
        return found;
    }
    if let Some((_, reason)) = UNSUPPORTED.iter().find(|(n, _)| *n == name) {
        return Err(format!("{name} is not supported: {reason}"));
    }
    if name == "gl_ClipDistance" && stage == Fragment && !dialect.is_es() && dialect.version >= 130
    {
        return Err(format!(
            "{name} is not supported in a fragment shader: the clip distances are used by \
             the clipper and do not reach the fragment stage"
        ));
    }
    let compat_only = |what: &str| {
        format!(
            "{name} is not available in {dialect}: it is a compatibility {what}, available \
             up to GLSL 1.30 and with #version 150 compatibility or #version 330 \
             compatibility"
        )
    };
    let uniform = BUILTIN_MATRICES
        .iter()
        .chain(&[("gl_NormalScale", Type::Float)])
        .find(|(n, _)| *n == name);
    if let Some(&(name, ty)) = uniform {
        if !dialect.has_compatibility_builtins() {
            return Err(compat_only("uniform"));
        }
        return Ok(Lookup::Mapped(var(name, ty, stage, Uniform, Compatibility)));
    }
    let mut other_stage = None;
    for b in BUILTIN_VARS.iter().filter(|b| b.name == name) {
        if b.stage != stage {
            other_stage = Some(b.stage);
            continue;
        }
        return match b.availability {
            Compatibility if !dialect.has_compatibility_builtins() => Err(compat_only("built-in")),
            NotEs3 if dialect.is_es() && dialect.version >= 300 => Err(format!(
                "{name} is not available in {dialect}: declare an output (out vec4 NAME;)"
            )),
            Desktop130 if dialect.is_es() || dialect.version < 130 => Err(format!(
                "{name} is not available in {dialect}: it needs GLSL 1.30 (GLSL 1.30 §7.1)"
            )),
            _ => Ok(Lookup::Mapped(*b)),
        };
    }
    match other_stage {
        Some(_) => Err(format!("{name} is not available in a {stage} shader")),
        None => Ok(Lookup::Unknown),
    }
}

/// The `gl_` names `program` uses (as variables; `ftransform()` counts as a use of
/// `gl_ModelViewProjectionMatrix` and `gl_Vertex`), in order of first use, without
/// `gl_Position` and `gl_FragCoord`, which every shader has.
pub(crate) fn names_used(program: &Program) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    let mut found: Vec<&str> = Vec::new();
    visit_program(program, &mut |e| match &e.kind {
        ExprKind::Ident(n) if n.starts_with("gl_") => found.push(n),
        ExprKind::Call { name, .. } if name == "ftransform" => found.push(name),
        _ => {}
    });
    for n in found {
        match n {
            "gl_Position" | "gl_FragCoord" => {}
            "ftransform" => {
                for implied in ["gl_ModelViewProjectionMatrix", "gl_Vertex"] {
                    if !names.contains(&implied) {
                        names.push(implied);
                    }
                }
            }
            n if !names.contains(&n) => names.push(n),
            _ => {}
        }
    }
    names
}

/// The size the implicitly sized built-in array `name` (`gl_TexCoord`,
/// `gl_ClipDistance`) has in `program`: one more than the largest index it is used
/// with when every use is indexed by an integer literal (GLSL 1.10 §4.1.9: an
/// implicitly sized array is sized by the largest constant index), otherwise the size
/// GL declares it with: [`MAX_TEXTURE_COORDS`] (GLSL 1.10 §7.6) or
/// [`MAX_CLIP_DISTANCES`] (GLSL 1.30 §7.1).
pub(crate) fn implicit_len(program: &Program, name: &str) -> u16 {
    let max = if name == "gl_ClipDistance" {
        MAX_CLIP_DISTANCES
    } else {
        MAX_TEXTURE_COORDS
    };
    let mut indexed = 0usize;
    let mut uses = 0usize;
    let mut len = 0u16;
    visit_program(program, &mut |e| match &e.kind {
        ExprKind::Ident(n) if n == name => uses += 1,
        ExprKind::Index(a, b) if matches!(&a.kind, ExprKind::Ident(n) if n == name) => {
            if let ExprKind::Int(k) = b.kind
                && let Ok(k) = u16::try_from(k)
                && k < max
            {
                indexed += 1;
                len = len.max(k + 1);
            }
        }
        _ => {}
    });
    if uses > 0 && uses == indexed {
        len
    } else {
        max
    }
}

/// Where `program` first writes `gl_FragColor` and `gl_FragData` (an assignment,
/// compound assignment, `++` or `--` of the variable, an element or components), each
/// `None` if it never does: what GLSL 1.10 §7.2 calls statically assigning, dead code
/// included.
pub(crate) fn colour_writes(program: &Program) -> [Option<Pos>; 2] {
    fn root(e: &Expr) -> Option<&str> {
        match &e.kind {
            ExprKind::Ident(n) => Some(n),
            ExprKind::Index(x, _) | ExprKind::Swizzle(x, _) | ExprKind::Field(x, _) => root(x),
            _ => None,
        }
    }
    fn statements<'a>(st: &'a Stmt, f: &mut dyn FnMut(&'a Stmt)) {
        f(st);
        match &st.kind {
            StmtKind::Block(body) | StmtKind::Switch { body, .. } => {
                body.iter().for_each(|s| statements(s, f))
            }
            StmtKind::If {
                then, otherwise, ..
            } => {
                statements(then, f);
                if let Some(o) = otherwise {
                    statements(o, f);
                }
            }
            StmtKind::For {
                init, step, body, ..
            } => {
                for s in [init, step].into_iter().flatten() {
                    statements(s, f);
                }
                statements(body, f);
            }
            _ => {}
        }
    }
    let mut targets: Vec<(&Expr, Pos)> = Vec::new();
    for item in &program.items {
        let Item::Function(func) = item else { continue };
        for st in &func.body {
            statements(st, &mut |s| match &s.kind {
                StmtKind::Assign { target, .. } | StmtKind::Step { target, .. } => {
                    targets.push((target, s.pos))
                }
                _ => {}
            });
            visit_stmt(st, &mut |e| match &e.kind {
                ExprKind::Assign { target, .. } | ExprKind::Step(target, ..) => {
                    targets.push((target, e.pos))
                }
                _ => {}
            });
        }
    }
    targets.sort_by_key(|(_, pos)| *pos);
    let first = |name: &str| {
        targets
            .iter()
            .find(|(t, _)| root(t) == Some(name))
            .map(|(_, pos)| *pos)
    };
    [first("gl_FragColor"), first("gl_FragData")]
}

/// Call `f` on every expression of `program`, outer before inner.
fn visit_program<'a>(program: &'a Program, f: &mut dyn FnMut(&'a Expr)) {
    for item in &program.items {
        match item {
            Item::Global(d) => visit_decl(d, f),
            Item::Function(func) | Item::Prototype(func) => {
                for st in &func.body {
                    visit_stmt(st, f);
                }
            }
            Item::Block(_) => {}
        }
    }
}

fn visit_decl<'a>(d: &'a Decl, f: &mut dyn FnMut(&'a Expr)) {
    if let Some(size) = d.array.as_ref().and_then(|a| a.len.as_deref()) {
        visit_expr(size, f);
    }
    if let Some(init) = &d.init {
        visit_expr(init, f);
    }
}

/// Call `f` on every expression of `st` and its nested statements, outer before inner.
pub(crate) fn visit_stmt<'a>(st: &'a Stmt, f: &mut dyn FnMut(&'a Expr)) {
    match &st.kind {
        StmtKind::Empty | StmtKind::Discard | StmtKind::Break | StmtKind::Continue => {}
        StmtKind::Block(body) => body.iter().for_each(|s| visit_stmt(s, f)),
        StmtKind::Decl(d) => visit_decl(d, f),
        StmtKind::Assign { target, value, .. } => {
            visit_expr(target, f);
            visit_expr(value, f);
        }
        StmtKind::Step { target, .. } => visit_expr(target, f),
        StmtKind::Expr(e) | StmtKind::Case(Some(e)) => visit_expr(e, f),
        StmtKind::Case(None) => {}
        StmtKind::Switch { selector, body } => {
            visit_expr(selector, f);
            body.iter().for_each(|s| visit_stmt(s, f));
        }
        StmtKind::Return(e) => {
            if let Some(e) = e {
                visit_expr(e, f);
            }
        }
        StmtKind::If {
            cond,
            then,
            otherwise,
        } => {
            visit_expr(cond, f);
            visit_stmt(then, f);
            if let Some(o) = otherwise {
                visit_stmt(o, f);
            }
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
            ..
        } => {
            if let Some(i) = init {
                visit_stmt(i, f);
            }
            if let Some(c) = cond {
                visit_expr(c, f);
            }
            if let Some(s) = step {
                visit_stmt(s, f);
            }
            visit_stmt(body, f);
        }
    }
}

/// Call `f` on `e` and every expression inside it, outer before inner.
pub(crate) fn visit_expr<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Int(_)
        | ExprKind::UInt(_)
        | ExprKind::Float(_)
        | ExprKind::Bool(_)
        | ExprKind::Ident(_) => {}
        ExprKind::Call { args, .. } | ExprKind::Construct { args, .. } => {
            args.iter().for_each(|a| visit_expr(a, f));
        }
        ExprKind::ArrayConstruct { size, args, .. } => {
            if let Some(len) = &size.len {
                visit_expr(len, f);
            }
            args.iter().for_each(|a| visit_expr(a, f));
        }
        ExprKind::Length(x)
        | ExprKind::Unary(_, x)
        | ExprKind::Swizzle(x, _)
        | ExprKind::Field(x, _) => visit_expr(x, f),
        ExprKind::Step(x, ..) => visit_expr(x, f),
        ExprKind::Assign { target, value, .. } => {
            visit_expr(target, f);
            visit_expr(value, f);
        }
        ExprKind::Comma(a, b) => {
            visit_expr(a, f);
            visit_expr(b, f);
        }
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
            visit_expr(a, f);
            visit_expr(b, f);
        }
        ExprKind::Ternary(c, a, b) => {
            visit_expr(c, f);
            visit_expr(a, f);
            visit_expr(b, f);
        }
    }
}

/// The vertex outputs a fragment input links to, in order of preference: `gl_Color`
/// reads `gl_FrontColor` and `gl_SecondaryColor` reads `gl_FrontSecondaryColor` (the
/// front colours: GL's two-sided colour selection is off by default), or the back
/// colour when the vertex shader writes only that one (the front colour is then
/// undefined, GL 2.1 §2.15.3, and this is the value a two-sided draw gives back
/// faces); every other input links to its own name only.
pub fn link_names(fragment_input: &str) -> Vec<&str> {
    match fragment_input {
        "gl_Color" => vec!["gl_FrontColor", "gl_BackColor"],
        "gl_SecondaryColor" => vec!["gl_FrontSecondaryColor", "gl_BackSecondaryColor"],
        other => vec![other],
    }
}

/// The vertex output a two-sided draw feeds fragment input `fragment_input` from on
/// back-facing primitives (GL 2.1 §2.14.1: with `VERTEX_PROGRAM_TWO_SIDE` enabled,
/// back-facing primitives take the back colours): `gl_BackColor` for `gl_Color`,
/// `gl_BackSecondaryColor` for `gl_SecondaryColor`, `None` for every other input.
pub fn back_face_source(fragment_input: &str) -> Option<&'static str> {
    match fragment_input {
        "gl_Color" => Some("gl_BackColor"),
        "gl_SecondaryColor" => Some("gl_BackSecondaryColor"),
        _ => None,
    }
}

/// The value a built-in uniform has until it is set, as the floats a scene gives
/// (column-major): identity for the matrices, 1 for `gl_NormalScale`. `None` for every
/// other name (a user uniform starts at zero).
pub fn uniform_default(name: &str) -> Option<&'static [f32]> {
    const IDENTITY4: [f32; 16] = [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    const IDENTITY3: [f32; 9] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    match BUILTIN_MATRICES.iter().find(|(n, _)| *n == name) {
        Some((_, Type::Mat3)) => Some(&IDENTITY3),
        Some(_) => Some(&IDENTITY4),
        None if name == "gl_NormalScale" => Some(&[1.0]),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dialect(v: u32, p: Option<&str>) -> Dialect {
        Dialect::from_directive(v, p).unwrap()
    }

    #[test]
    fn compatibility_builtins_follow_the_dialect() {
        let old = dialect(120, None);
        let core = dialect(330, None);
        let compat = dialect(330, Some("compatibility"));
        let mapped = |n, s, d| match lookup(n, s, d) {
            Ok(Lookup::Mapped(b)) => Some(b.binding),
            _ => None,
        };
        assert_eq!(mapped("gl_Vertex", Vertex, old), Some(Attribute(0)));
        assert_eq!(mapped("gl_Vertex", Vertex, compat), Some(Attribute(0)));
        let e = lookup("gl_Vertex", Vertex, core).unwrap_err();
        assert!(
            e.starts_with("gl_Vertex is not available in GLSL 3.30 core"),
            "{e}"
        );
        assert_eq!(mapped("gl_Color", Vertex, old), Some(Attribute(3)));
        assert_eq!(mapped("gl_Color", Fragment, old), Some(Varying));
        assert_eq!(mapped("gl_FragColor", Fragment, core), Some(Color));
        let e = lookup("gl_FragColor", Vertex, core).unwrap_err();
        assert_eq!(e, "gl_FragColor is not available in a vertex shader");
        let es3 = dialect(300, Some("es"));
        assert!(lookup("gl_FragColor", Fragment, es3).is_err());
        assert_eq!(
            mapped("gl_FragColor", Fragment, dialect(100, None)),
            Some(Color)
        );
        assert_eq!(
            mapped("gl_ModelViewProjectionMatrix", Vertex, old),
            Some(Uniform)
        );
        assert!(lookup("gl_ModelViewProjectionMatrix", Vertex, core).is_err());
        assert_eq!(mapped("gl_FrontFacing", Fragment, core), Some(FrontFacing));
        assert_eq!(mapped("gl_FrontFacing", Fragment, old), Some(FrontFacing));
        assert_eq!(
            mapped("gl_FrontFacing", Fragment, dialect(300, Some("es"))),
            Some(FrontFacing)
        );
        let e = lookup("gl_FrontFacing", Vertex, core).unwrap_err();
        assert_eq!(e, "gl_FrontFacing is not available in a vertex shader");
        assert_eq!(mapped("gl_ClipVertex", Vertex, old), Some(Varying));
        assert!(lookup("gl_ClipVertex", Vertex, core).is_err());
        let v130 = dialect(130, None);
        assert_eq!(mapped("gl_ClipDistance", Vertex, v130), Some(Varying));
        assert_eq!(mapped("gl_ClipDistance", Vertex, core), Some(Varying));
        let e = lookup("gl_ClipDistance", Vertex, old).unwrap_err();
        assert_eq!(
            e,
            "gl_ClipDistance is not available in GLSL 1.20: it needs GLSL 1.30 (GLSL 1.30 §7.1)"
        );
        let e = lookup("gl_ClipDistance", Fragment, v130).unwrap_err();
        assert!(
            e.starts_with("gl_ClipDistance is not supported in a fragment shader"),
            "{e}"
        );
        assert_eq!(lookup("gl_Foo", Fragment, core), Ok(Lookup::Unknown));
        assert_eq!(lookup("uColor", Fragment, core), Ok(Lookup::Unknown));
    }

    #[test]
    fn defaults_and_link_names() {
        assert_eq!(uniform_default("gl_NormalMatrix").unwrap().len(), 9);
        assert_eq!(uniform_default("gl_ModelViewMatrix").unwrap()[5], 1.0);
        assert_eq!(uniform_default("gl_NormalScale"), Some(&[1.0][..]));
        assert_eq!(uniform_default("uMVP"), None);
        assert_eq!(link_names("gl_Color"), ["gl_FrontColor", "gl_BackColor"]);
        assert_eq!(
            link_names("gl_SecondaryColor"),
            ["gl_FrontSecondaryColor", "gl_BackSecondaryColor"]
        );
        assert_eq!(link_names("vUV"), ["vUV"]);
        assert_eq!(back_face_source("gl_Color"), Some("gl_BackColor"));
        assert_eq!(back_face_source("vUV"), None);
    }
}
