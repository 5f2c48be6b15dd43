//! The block pass: interface blocks (GLSL 1.40 §4.3.7 uniform blocks, GLSL 1.50
//! §4.3.7 `in`/`out` blocks) turned into ordinary globals before the struct pass, so
//! that nothing after it knows blocks (docs/glsl-dialects.md "Interface blocks").
//!
//! - A block without an instance name declares its members as globals of their own
//!   (`uniform B { vec4 color; };` is the uniform `color`).
//! - A block with an instance name is a global of an anonymous struct type holding the
//!   members (`uniform B { vec4 color; } c;` is `c` with member `color`), which the
//!   struct pass flattens like any struct (`c.color`), instance arrays included
//!   (`out B { float f; } b[2];` is the array `b.f[2]`).
//! - Interface names follow OpenGL, not the instance name, which only the shader sees
//!   (GL 3.1 §2.11.4): a member of a named uniform block is the uniform `B.color`, one
//!   of a block without an instance name plain `color`. Members of `in`/`out` blocks
//!   are the varyings `B.member` whether or not the block has an instance name, so
//!   that stages match blocks by block name and member (GLSL 1.50 §4.3.7), not by
//!   instance name. [`Decl::iface_root`] carries these names.
//! - The units of a stage may each declare the same block (the same members with the
//!   same types, array sizes and qualifiers, else a named error); a uniform block may
//!   have a different instance name in each unit, each an alias of the same uniforms
//!   (the lowering gives uniforms of one interface name one slot). An `in`/`out` block
//!   must keep its instance name in every unit.
//! - Layout qualifiers: `std140`, `shared`, `packed`, `row_major` and `column_major`
//!   change no value: a uniform is always set by name with its floats in OpenGL's
//!   column-major order (as `glUniformMatrix*fv` with `transpose = false` takes them,
//!   and as piglit's shader_runner writes a block member whatever its matrix layout),
//!   and csir-render has no buffer objects whose bytes a layout would arrange.
//!
//! Each rule the pass cannot follow is a named error: arrays of uniform blocks (each
//! element is a separate buffer binding in OpenGL), samplers in blocks (GLSL 1.40
//! §4.3.7 forbids them), a vertex `in` or fragment `out` block (GLSL 1.50 §4.3.7).

use super::ast::{ArraySize, Block, Decl, Expr, ExprKind, Item, Program, Qualifiers, Storage};
use super::ast::{Member, StructDef};
use super::builtin_vars::visit_stmt;
use super::diagnostic::Diagnostics;
use super::dialect::Profile;
use super::types::Type;
use crate::ir::Stage;

/// One block declaration already turned into globals.
struct Seen {
    storage: Storage,
    name: String,
    members: Vec<Member>,
    instance: Option<String>,
    array: Option<Option<i32>>,
}

/// Replace every [`Item::Block`] of `program` (compiled for `stage`) by the globals it
/// declares; problems are reported in `diags`.
pub(crate) fn lower_blocks(program: &mut Program, stage: Stage, diags: &mut Diagnostics) {
    if !program.items.iter().any(|i| matches!(i, Item::Block(_))) {
        return;
    }
    let items = std::mem::take(&mut program.items);
    let mut seen: Vec<Seen> = Vec::new();
    let mut out = Vec::with_capacity(items.len());
    for item in &items {
        let Item::Block(b) = item else {
            out.push(item.clone());
            continue;
        };
        if b.name == super::geometry::PER_VERTEX
            && b.storage == Storage::Out
            && stage != Stage::Fragment
        {
            // `out gl_PerVertex { vec4 gl_Position; ... };` redeclares the built-in
            // outputs (GLSL 1.50 §7.1; its form is checked by the geometry pass): they
            // stay the built-ins.
            continue;
        }
        if let Err(m) = check_block(b, program, stage) {
            diags.error(m.0, m.1);
            continue;
        }
        let mut b = b.clone();
        if let Err((pos, m)) = size_members(&mut b, &items) {
            diags.error(pos, m);
            continue;
        }
        let instance = b.instance.as_ref().map(|(n, _)| n.clone());
        let array = literal_len(&b.array);
        if let Some(prev) = seen
            .iter()
            .find(|s| s.storage == b.storage && s.name == b.name)
        {
            if !same_members(&prev.members, &b.members) || prev.array != array {
                diags.error(
                    b.pos,
                    format!(
                        "interface block '{}' is declared differently in two places: the \
                         members, their types, array sizes and qualifiers, and the block's \
                         array size must agree (GLSL 1.50 §4.3.7)",
                        b.name
                    ),
                );
                continue;
            }
            match (&prev.instance, &instance) {
                (a, c) if a == c => continue,
                (Some(_), Some(_)) if b.storage == Storage::Uniform => {}
                _ => {
                    diags.error(
                        b.pos,
                        format!(
                            "interface block '{}' is declared with different instance names \
                             in one stage, which csir-render does not support",
                            b.name
                        ),
                    );
                    continue;
                }
            }
        }
        seen.push(Seen {
            storage: b.storage,
            name: b.name.clone(),
            members: b.members.clone(),
            instance,
            array,
        });
        out.extend(
            block_globals(&b, &mut program.structs)
                .into_iter()
                .map(Item::Global),
        );
    }
    program.items = out;
}

/// The rules of a block on its own: dialect, stage, member types, instance arrays.
fn check_block(
    b: &Block,
    program: &Program,
    stage: Stage,
) -> Result<(), (super::token::Pos, String)> {
    let d = program.dialect;
    let uniform = b.storage == Storage::Uniform;
    let allowed = match (uniform, d.profile == Profile::Es) {
        (true, true) => d.version >= 300,
        (true, false) => d.version >= 140,
        (false, true) => false,
        (false, false) => d.version >= 150,
    };
    if !allowed {
        let needs = if uniform {
            "uniform blocks need GLSL 1.40 or GLSL ES 3.00 (GLSL 1.40 §4.3.7)"
        } else {
            "in and out blocks need GLSL 1.50 (GLSL 1.50 §4.3.7)"
        };
        return Err((b.pos, format!("{needs}; this shader is {d}")));
    }
    match (b.storage, stage) {
        (Storage::In, Stage::Vertex) => {
            return Err((
                b.storage_pos,
                "a vertex shader cannot have an input block (GLSL 1.50 §4.3.7)".into(),
            ));
        }
        (Storage::Out, Stage::Fragment) => {
            return Err((
                b.storage_pos,
                "a fragment shader cannot have an output block (GLSL 1.50 §4.3.7)".into(),
            ));
        }
        _ => {}
    }
    if let (true, Some(a)) = (uniform, &b.array) {
        return Err((
            a.pos,
            "arrays of uniform blocks are not supported: each element is a buffer binding \
             of its own, and csir-render sets uniforms by name without buffer objects"
                .into(),
        ));
    }
    for m in &b.members {
        if has_sampler(m.ty, &program.structs) {
            return Err((
                m.pos,
                format!(
                    "block member '{}' is or holds a sampler: samplers cannot be block \
                     members (GLSL 1.40 §4.3.7)",
                    m.name
                ),
            ));
        }
    }
    Ok(())
}

/// Whether `ty` is a sampler or a struct holding one.
fn has_sampler(ty: Type, structs: &[StructDef]) -> bool {
    match ty {
        Type::Struct(k) => structs
            .get(k as usize)
            .is_some_and(|s| s.members.iter().any(|m| has_sampler(m.ty, structs))),
        t => t.is_sampler(),
    }
}

/// Size the members of a named block declared without a size (`float foo[];`) from
/// the largest integer-literal index the shader uses on them (`inst.foo[2]` makes 3),
/// as GLSL 1.50 §4.3.7 sizes an unsized block member at link time. (Members of a block
/// without an instance name are globals: the implicit-size pass sizes them.)
fn size_members(b: &mut Block, items: &[Item]) -> Result<(), (super::token::Pos, String)> {
    let Some((inst, _)) = &b.instance else {
        return Ok(());
    };
    for m in &mut b.members {
        let Some(a) = &mut m.array else { continue };
        if a.len.is_some() {
            continue;
        }
        let mut largest: Option<i32> = None;
        let mut length_call = None;
        let mut other_index = None;
        for item in items {
            let Item::Function(f) = item else { continue };
            for st in &f.body {
                visit_stmt(st, &mut |e| {
                    if let Some(k) = literal_index_of(e, inst, &m.name) {
                        largest = Some(largest.map_or(k, |l| l.max(k)));
                    }
                    if let ExprKind::Length(x) = &e.kind
                        && is_member(x, inst, &m.name)
                    {
                        length_call.get_or_insert(e.pos);
                    }
                    if let ExprKind::Index(base, index) = &e.kind
                        && is_member(base, inst, &m.name)
                        && !matches!(index.kind, ExprKind::Int(_))
                    {
                        other_index.get_or_insert(index.pos);
                    }
                });
            }
        }
        if let Some(pos) = length_call {
            return Err((
                pos,
                format!(
                    "length() of block member '{inst}.{}', which is declared without a size: \
                     length() needs an explicitly sized array (GLSL 1.50 §4.1.9)",
                    m.name
                ),
            ));
        }
        if let Some(pos) = other_index {
            return Err((
                pos,
                format!(
                    "block member '{inst}.{}' is declared without a size and indexed here by \
                     other than an integer literal: such an index needs the size declared \
                     (GLSL 1.50 §4.1.9)",
                    m.name
                ),
            ));
        }
        // An implicitly sized array takes one more than the largest constant index
        // it is used with (GLSL 1.50 §4.1.9); one that is never indexed is never read
        // or written, and one element stands for it.
        let k = largest.unwrap_or(0);
        a.len = Some(Box::new(Expr {
            kind: ExprKind::Int(k + 1),
            pos: a.pos,
        }));
    }
    Ok(())
}

/// Whether `e` is `inst.member` or `inst[i].member`.
fn is_member(e: &Expr, inst: &str, member: &str) -> bool {
    let ExprKind::Field(owner, name) = &e.kind else {
        return false;
    };
    let owner = match &owner.kind {
        ExprKind::Index(o, _) => o,
        _ => owner,
    };
    matches!(&owner.kind, ExprKind::Ident(n) if n == inst && name == member)
}

/// `k` when `e` is `inst.member[k]` or `inst[i].member[k]` with an integer literal `k`.
fn literal_index_of(e: &Expr, inst: &str, member: &str) -> Option<i32> {
    match &e.kind {
        ExprKind::Index(base, index) if is_member(base, inst, member) => match index.kind {
            ExprKind::Int(k) if k >= 0 => Some(k),
            _ => None,
        },
        _ => None,
    }
}

/// The literal size of an array declaration: `None` not an array, `Some(None)` a size
/// that is not an integer literal.
fn literal_len(a: &Option<ArraySize>) -> Option<Option<i32>> {
    a.as_ref().map(|a| match a.len.as_deref().map(|e| &e.kind) {
        Some(ExprKind::Int(n)) => Some(*n),
        _ => None,
    })
}

/// Whether two declarations of a block have the same members (GLSL 1.50 §4.3.7).
fn same_members(a: &[Member], b: &[Member]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.ty == y.ty
                && x.name == y.name
                && literal_len(&x.array) == literal_len(&y.array)
                && x.interpolation.map(|(q, _)| q) == y.interpolation.map(|(q, _)| q)
        })
}

/// The globals block `b` declares (a struct type for a named block goes to `structs`).
fn block_globals(b: &Block, structs: &mut Vec<StructDef>) -> Vec<Decl> {
    let quals = |m: Option<&Member>| Qualifiers {
        storage: b.storage,
        storage_pos: b.storage_pos,
        location: None,
        index: None,
        layout_pos: None,
        interpolation: m.and_then(|m| m.interpolation),
        block_layout: None,
        matrix_layout: None,
        precision: None,
        centroid: None,
        invariant: None,
    };
    let Some((inst, inst_pos)) = &b.instance else {
        return b
            .members
            .iter()
            .map(|m| Decl {
                quals: quals(Some(m)),
                ty: m.ty,
                ty_pos: m.pos,
                name: m.name.clone(),
                pos: m.pos,
                array: m.array.clone(),
                init: None,
                iface_names: Vec::new(),
                iface_root: match b.storage {
                    Storage::Uniform => None,
                    _ => Some(format!("{}.{}", b.name, m.name)),
                },
            })
            .collect();
    };
    structs.push(StructDef {
        name: String::new(),
        pos: b.pos,
        members: b.members.clone(),
    });
    let sid = structs.len() as u16 - 1;
    vec![Decl {
        quals: quals(None),
        ty: Type::Struct(sid),
        ty_pos: b.pos,
        name: inst.clone(),
        pos: *inst_pos,
        array: b.array.clone(),
        init: None,
        iface_names: Vec::new(),
        iface_root: Some(b.name.clone()),
    }]
}
