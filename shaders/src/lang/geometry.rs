//! The geometry stage's front-end pass (GLSL 1.50 §4.3.4, §4.3.8, §7.1), run before
//! the block pass so that nothing after it needs to know the stage's array rules:
//!
//! - the layout declarations (`layout(triangles) in;`, `layout(triangle_strip,
//!   max_vertices = 4) out;`) are checked: only a geometry shader has them, it needs
//!   both, `max_vertices` is at most `gl_MaxGeometryOutputVertices` (256);
//! - every input of a geometry shader is an array with one element per vertex of the
//!   input primitive (`in vec4 v[];`, `in Block { ... } b[];`): an unsized one takes
//!   the primitive's vertex count, a sized one must have it;
//! - `gl_in[]` is the block `in gl_PerVertex { vec4 gl_Position; } gl_in[N];`,
//!   declared when the shader uses it, so the block and struct passes turn
//!   `gl_in[i].gl_Position` into the input array `gl_in.gl_Position[i]` like any
//!   other block array; the lowering loads its elements from the vertices'
//!   positions (LOAD_VTX with slot −1).
//!
//! The lowering's side (roles, LOAD_VTX, EMIT, ENDPRIM, the output limits) is
//! `lower/geometry.rs`.

use super::ast::{ArraySize, Block, Expr, ExprKind, Item, Member, Program, Storage};
use super::builtin_vars::{self, Availability, Binding, BuiltinVar, Lookup};
use super::diagnostic::Diagnostics;
use super::token::Pos;
use super::types::Type;
use crate::ir::geometry::MAX_GEOMETRY_OUTPUT_VERTICES;
use crate::ir::{GeometryLayout, InputPrimitive, OutputPrimitive, Stage};

/// The name of the built-in input block (GLSL 1.50 §7.1).
pub(crate) const PER_VERTEX: &str = "gl_PerVertex";

/// Check `program`'s geometry layouts for `stage` and, in a geometry shader, size its
/// input arrays and declare `gl_in`. Returns the layout of a geometry shader; a unit
/// compiled alone (`whole_stage` false) may leave the layouts to another unit, and
/// then gets `triangles`, `triangle_strip` and the most vertices in their place.
pub(crate) fn prepare(
    program: &mut Program,
    stage: Stage,
    whole_stage: bool,
    extended: bool,
    diags: &mut Diagnostics,
) -> Option<GeometryLayout> {
    let g = program.geometry;
    per_vertex_redeclarations(program, diags);
    if stage == Stage::Geometry && !extended {
        diags.error(
            Pos::START,
            "the geometry stage needs the extended profile (GLSL 1.50; --profile extended)",
        );
        return None;
    }
    if stage == Stage::Geometry && (program.dialect.is_es() || program.dialect.version < 150) {
        diags.error(
            Pos::START,
            format!(
                "a geometry shader needs GLSL 1.50 or later (GLSL 1.50 §2.2); this is {}",
                program.dialect
            ),
        );
        return None;
    }
    if stage != Stage::Geometry {
        let first = [
            g.input.map(|(p, pos)| (p.name(), "in", pos)),
            g.output.map(|(p, pos)| (p.name(), "out", pos)),
            g.max_vertices.map(|(_, pos)| ("max_vertices", "out", pos)),
        ]
        .into_iter()
        .flatten()
        .next();
        if let Some((word, io, pos)) = first {
            diags.error(
                pos,
                format!(
                    "layout({word}) {io} declares a geometry shader's primitives (GLSL 1.50 \
                     §4.3.8); this is a {stage} shader"
                ),
            );
        }
        return None;
    }
    let missing = |diags: &mut Diagnostics, what: &str| {
        if whole_stage {
            diags.error(
                Pos::START,
                format!("a geometry shader must declare {what} (GLSL 1.50 §4.3.8)"),
            );
        }
    };
    let input = match g.input {
        Some((p, _)) => p,
        None => {
            missing(
                diags,
                "its input primitive type: layout(points | lines | lines_adjacency | \
                 triangles | triangles_adjacency) in;",
            );
            InputPrimitive::Triangles
        }
    };
    let output = match g.output {
        Some((p, _)) => p,
        None => {
            missing(
                diags,
                "its output primitive type: layout(points | line_strip | triangle_strip, \
                 max_vertices = N) out;",
            );
            OutputPrimitive::TriangleStrip
        }
    };
    let max_vertices = match g.max_vertices {
        Some((n, pos)) if n > u32::from(MAX_GEOMETRY_OUTPUT_VERTICES) => {
            diags.error(
                pos,
                format!(
                    "max_vertices = {n} is more than gl_MaxGeometryOutputVertices \
                     ({MAX_GEOMETRY_OUTPUT_VERTICES}, GL 3.2 table 6.49)"
                ),
            );
            MAX_GEOMETRY_OUTPUT_VERTICES
        }
        Some((n, _)) => n as u16,
        None => {
            missing(
                diags,
                "the most vertices it emits: layout(..., max_vertices = N) out;",
            );
            MAX_GEOMETRY_OUTPUT_VERTICES
        }
    };
    if let Some(before) = g.input_items_before {
        length_before_layout(program, before, diags);
    }
    let n = input.vertices();
    let uses_gl_in = builtin_vars::names_used(program).contains(&"gl_in");
    let mut declares_gl_in = false;
    for item in &mut program.items {
        let (array, name, pos) = match item {
            Item::Global(d) if d.quals.storage == Storage::In => {
                (&mut d.array, d.name.clone(), d.pos)
            }
            Item::Block(b) if b.storage == Storage::In => {
                declares_gl_in |= b.name == PER_VERTEX;
                let name = b
                    .instance
                    .as_ref()
                    .map_or(b.name.clone(), |(i, _)| i.clone());
                (&mut b.array, name, b.pos)
            }
            _ => continue,
        };
        size_input(array, &name, pos, input, diags);
    }
    if uses_gl_in && !declares_gl_in {
        program.items.insert(0, Item::Block(gl_in(n)));
    }
    Some(GeometryLayout {
        input,
        output,
        max_vertices,
    })
}

/// GLSL 1.50 §7.1: the built-in block `gl_PerVertex` is redeclared as an input as
/// `in gl_PerVertex { ... } gl_in[];`, and as an output without an instance name or
/// array, each with a subset of the built-in members. (Once each: the parser's rule
/// for every block name, GLSL 1.50 §4.3.7.)
fn per_vertex_redeclarations(program: &Program, diags: &mut Diagnostics) {
    const CORE: [&str; 3] = ["gl_Position", "gl_PointSize", "gl_ClipDistance"];
    // GLSL 1.50 §7.1's compatibility-profile members.
    const COMPATIBILITY: [&str; 7] = [
        "gl_ClipVertex",
        "gl_FrontColor",
        "gl_BackColor",
        "gl_FrontSecondaryColor",
        "gl_BackSecondaryColor",
        "gl_TexCoord",
        "gl_FogFragCoord",
    ];
    let compatibility = program.dialect.has_compatibility_builtins();
    let members: Vec<&str> = match compatibility {
        true => CORE.iter().chain(&COMPATIBILITY).copied().collect(),
        false => CORE.to_vec(),
    };
    for item in &program.items {
        let Item::Block(b) = item else { continue };
        if b.name != PER_VERTEX {
            continue;
        }
        let instance = b.instance.as_ref().map(|(i, _)| i.as_str());
        let wrong = match b.storage {
            Storage::In if instance != Some("gl_in") || b.array.is_none() => {
                Some("an input redeclaration of gl_PerVertex is 'in gl_PerVertex { ... } gl_in[];'")
            }
            Storage::Out if instance.is_some() || b.array.is_some() => Some(
                "an output redeclaration of gl_PerVertex has no instance name and is not an \
                 array: 'out gl_PerVertex { ... };'",
            ),
            _ => None,
        };
        if let Some(rule) = wrong {
            diags.error(b.pos, format!("{rule} (GLSL 1.50 §7.1)"));
        }
        for m in &b.members {
            if !members.contains(&m.name.as_str()) {
                diags.error(
                    m.pos,
                    format!(
                        "'{}' is not a member of the built-in gl_PerVertex ({}), and a \
                         redeclaration may only keep some of those (GLSL 1.50 §7.1)",
                        m.name,
                        members.join(", ")
                    ),
                );
            }
        }
    }
}

/// GLSL 1.50 §4.3.8.1: an unsized input array has no size before the input layout
/// declaration sizes it, so `length()` of it in the first `before` items is an error.
fn length_before_layout(program: &Program, before: usize, diags: &mut Diagnostics) {
    let unsized_inputs: Vec<&str> = program
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Global(d) if d.quals.storage == Storage::In => {
                let a = d.array.as_ref()?;
                a.len.is_none().then_some(d.name.as_str())
            }
            Item::Block(b) if b.storage == Storage::In => {
                let a = b.array.as_ref()?;
                let (inst, _) = b.instance.as_ref()?;
                a.len.is_none().then_some(inst.as_str())
            }
            _ => None,
        })
        .collect();
    if unsized_inputs.is_empty() {
        return;
    }
    let mut found: Option<(Pos, String)> = None;
    for item in program.items.iter().take(before) {
        let Item::Function(f) = item else { continue };
        for st in &f.body {
            builtin_vars::visit_stmt(st, &mut |e| {
                if let ExprKind::Length(x) = &e.kind
                    && let ExprKind::Ident(name) = &x.kind
                    && unsized_inputs.contains(&name.as_str())
                {
                    found.get_or_insert((x.pos, name.clone()));
                }
            });
        }
    }
    if let Some((pos, name)) = found {
        diags.error(
            pos,
            format!(
                "length() of the geometry shader input '{name}', declared without a size, \
                 before the input layout declaration gives it one (GLSL 1.50 §4.3.8.1)"
            ),
        );
    }
}

/// Give input `name`'s array the vertex count of `input`, or report why it cannot.
fn size_input(
    array: &mut Option<ArraySize>,
    name: &str,
    pos: Pos,
    input: InputPrimitive,
    diags: &mut Diagnostics,
) {
    let n = input.vertices();
    match array {
        None => diags.error(
            pos,
            format!(
                "the geometry shader input '{name}' must be an array, one element per vertex \
                 of the input primitive: '{name}[]' ({n} for {input}; GLSL 1.50 §4.3.4)"
            ),
        ),
        Some(size) => match size.len.as_deref().map(|e| &e.kind) {
            None => size.len = Some(Box::new(int(n as i32, size.pos))),
            Some(ExprKind::Int(k)) if *k as usize == n => {}
            Some(ExprKind::Int(k)) => diags.error(
                size.pos,
                format!(
                    "the geometry shader input '{name}' has {k} elements but the input \
                     primitive {input} has {n} vertices (GLSL 1.50 §4.3.8.1)"
                ),
            ),
            Some(_) => {}
        },
    }
}

fn int(v: i32, pos: Pos) -> Expr {
    Expr {
        kind: ExprKind::Int(v),
        pos,
    }
}

/// `in gl_PerVertex { vec4 gl_Position; } gl_in[n];`
fn gl_in(n: usize) -> Block {
    let pos = Pos::START;
    Block {
        storage: Storage::In,
        storage_pos: pos,
        name: PER_VERTEX.to_string(),
        pos,
        members: vec![Member {
            ty: Type::Vec4,
            name: "gl_Position".to_string(),
            pos,
            array: None,
            interpolation: None,
        }],
        instance: Some(("gl_in".to_string(), pos)),
        array: Some(ArraySize {
            len: Some(Box::new(int(n as i32, pos))),
            pos,
        }),
    }
}

/// GL 3.2 table 6.49's `gl_MaxGeometryTotalOutputComponents` rule for a compiled
/// geometry shader: `max_vertices` times the components of one emitted vertex (4 for
/// `gl_Position` and 4 per varying vec4 slot up to the highest written) must be at
/// most 1024. The error names the numbers.
pub(crate) fn check_output_components(layout: &GeometryLayout, var_hi: i16) -> Option<String> {
    use crate::ir::geometry::MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS as MAX;
    let per_vertex = 4 * (1 + (var_hi.max(-1) + 1) as u32);
    let total = u32::from(layout.max_vertices) * per_vertex;
    (total > MAX).then(|| {
        format!(
            "max_vertices = {} vertices of {per_vertex} output components each make \
             {total} components, more than gl_MaxGeometryTotalOutputComponents ({MAX}, GL \
             3.2 table 6.49)",
            layout.max_vertices
        )
    })
}

/// The geometry stage's built-in variables (GLSL 1.50 §7.1), for
/// [`builtin_vars::lookup`]: `None` when `name` is not one of them in `stage`.
/// `gl_PrimitiveIDIn` is LOAD_PRIMID; the outputs `gl_PrimitiveID` and `gl_Layer`
/// are written like private globals and reach nothing: the fragment stage has no
/// `gl_PrimitiveID` input here, and a framebuffer of one layer ignores `gl_Layer`
/// (GL 3.2 §2.12.4). `gl_in` itself is the block [`prepare`] declares.
pub(crate) fn lookup(name: &str, stage: Stage) -> Option<Result<Lookup, String>> {
    let var = |ty: Type, binding: Binding| BuiltinVar {
        name: match name {
            "gl_PrimitiveIDIn" => "gl_PrimitiveIDIn",
            "gl_PrimitiveID" => "gl_PrimitiveID",
            _ => "gl_Layer",
        },
        ty,
        array: None,
        stage: Stage::Geometry,
        binding,
        availability: Availability::All,
    };
    match (name, stage) {
        ("gl_PrimitiveIDIn", Stage::Geometry) => {
            Some(Ok(Lookup::Mapped(var(Type::Int, Binding::PrimitiveIdIn))))
        }
        ("gl_PrimitiveID" | "gl_Layer", Stage::Geometry) => {
            Some(Ok(Lookup::Mapped(var(Type::Int, Binding::NoEffect))))
        }
        ("gl_in" | "gl_PrimitiveIDIn", _) => Some(Err(format!(
            "{name} is an input of the geometry shader only (GLSL 1.50 §7.1)"
        ))),
        _ => None,
    }
}
