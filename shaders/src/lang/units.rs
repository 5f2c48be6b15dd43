//! Joining the compilation units of one stage into one program (GLSL 1.20 §2.1: the
//! shaders of a stage attached to one program object are linked into one executable).
//! Each unit was parsed on its own, its positions carrying its unit
//! ([`diagnostic::unit_line`]); the joined program is lowered as one:
//!
//! - every unit uses the same `#version` (GLSL 1.30 §3.3 lets some versions be linked
//!   together; csir-render takes one);
//! - at most one unit defines structs (a named error otherwise);
//! - globals of one name are one variable (GLSL 1.20 §4.3: a global of one name in
//!   several units names the same object): the declarations must agree in storage,
//!   type and array size, at most one has an initializer, and an array declared
//!   without a size in one unit takes its size from another or from its uses;
//! - a function may be declared in one unit and defined in another; one defined in two
//!   units is an error (GLSL 1.20 §6.1: one definition per signature);
//! - a unit may call only the functions it declares (GLSL 1.20 §6.1): a call to a
//!   function declared only in another unit is an error naming it, except that a
//!   built-in's name is the built-in there. A user function hides a built-in of its
//!   name only below its first declaration in its own unit (GLSL 1.10 §6.1: a call
//!   resolves to the redefinition when "a prototype is visible" before it).

use super::ast::{Decl, ExprKind, Function, Item, Program};
use super::builtin_vars::visit_stmt;
use super::diagnostic::{Diagnostics, split_unit_line, unit_line};
use super::token::Pos;
use std::collections::{HashMap, HashSet};

/// Join `programs` (one per unit, in order) into one; the problems are reported in
/// `diags`.
pub(crate) fn join(programs: Vec<Program>, diags: &mut Diagnostics) -> Program {
    let dialect = programs.first().map(|p| p.dialect).unwrap_or_default();
    for (k, p) in programs.iter().enumerate().skip(1) {
        if p.dialect != dialect {
            diags.error(
                Pos {
                    line: unit_line(k, 1),
                    col: 1,
                },
                format!(
                    "this compilation unit is {} but the first unit of the stage is \
                     {dialect}: csir-render links units of one version only",
                    p.dialect
                ),
            );
        }
    }
    // `Type::Struct(k)` indexes its own unit's definitions: one unit may define
    // structs, not several.
    let with_structs: Vec<usize> = (0..programs.len())
        .filter(|&k| !programs[k].structs.is_empty())
        .collect();
    if let [_, second, ..] = with_structs[..] {
        diags.error(
            programs[second].structs[0].pos,
            "structs in more than one compilation unit of a stage are not supported",
        );
    }
    // GLSL 1.50 §4.3.8: the layouts may be declared in any unit of the stage.
    let mut geometry = super::ast::GeometryDecls::default();
    // Every declaration in the program names the same primitive types and
    // max_vertices (GLSL 1.50 §4.3.8.1, §4.3.8.2): each unit's parser checked its own.
    for p in &programs {
        let g = p.geometry;
        let differ = [
            g.input
                .zip(geometry.input)
                .filter(|((a, _), (b, _))| a != b)
                .map(|((a, pos), (b, _))| {
                    (pos, format!("layout({a}) in"), format!("layout({b}) in"))
                }),
            g.output
                .zip(geometry.output)
                .filter(|((a, _), (b, _))| a != b)
                .map(|((a, pos), (b, _))| {
                    (pos, format!("layout({a}) out"), format!("layout({b}) out"))
                }),
            g.max_vertices
                .zip(geometry.max_vertices)
                .filter(|((a, _), (b, _))| a != b)
                .map(|((a, pos), (b, _))| {
                    (
                        pos,
                        format!("max_vertices = {a}"),
                        format!("max_vertices = {b}"),
                    )
                }),
        ];
        for (pos, this, other) in differ.into_iter().flatten() {
            diags.error(
                pos,
                format!(
                    "{this} does not match {other} of another compilation unit of the \
                     geometry stage (GLSL 1.50 §4.3.8.1, §4.3.8.2)"
                ),
            );
        }
        geometry.input = g.input.or(geometry.input);
        geometry.output = g.output.or(geometry.output);
        geometry.max_vertices = g.max_vertices.or(geometry.max_vertices);
    }
    let structs = with_structs
        .first()
        .map(|&k| programs[k].structs.clone())
        .unwrap_or_default();
    check_calls(&programs, diags);
    let mut items: Vec<Item> = Vec::new();
    let mut globals: HashMap<String, usize> = HashMap::new();
    let mut defined: Vec<(usize, &Function)> = Vec::new();
    for (k, p) in programs.iter().enumerate() {
        for item in &p.items {
            match item {
                Item::Global(d) => match globals.get(&d.name) {
                    Some(&i) => {
                        if let Item::Global(first) = &mut items[i] {
                            merge_global(first, d, diags);
                        }
                    }
                    None => {
                        globals.insert(d.name.clone(), items.len());
                        items.push(item.clone());
                    }
                },
                Item::Function(f) => {
                    if let Some((j, _)) = defined
                        .iter()
                        .find(|(j, g)| *j != k && same_signature(g, f))
                    {
                        diags.error(
                            f.pos,
                            format!(
                                "function '{}' is defined in more than one compilation unit \
                                 (also in unit {}; GLSL 1.20 §6.1)",
                                f.name,
                                j + 1
                            ),
                        );
                    }
                    defined.push((k, f));
                    items.push(item.clone());
                }
                // The block pass merges the declarations of one block.
                Item::Prototype(_) | Item::Block(_) => items.push(item.clone()),
            }
        }
    }
    Program {
        items,
        dialect,
        structs,
        // Each unit's were reported before the join.
        float_without_precision: Vec::new(),
        geometry,
    }
}

/// Whether `a` and `b` declare the same function: name and parameter types (an array
/// parameter differs from a scalar one of its element type). Used by the unit join
/// and by the lowering's rules between a function's declarations.
pub(super) fn same_signature(a: &Function, b: &Function) -> bool {
    a.name == b.name
        && a.params.len() == b.params.len()
        && a.params
            .iter()
            .zip(&b.params)
            .all(|(p, q)| p.ty == q.ty && same_array(&p.array, &q.array))
}

/// Whether two parameters' array sizes make one signature: both plain, or both
/// arrays whose sizes do not differ as integer literals (GLSL 1.20 §6.1: array sizes
/// are part of the parameter type, so `f(float[2])` and `f(float[3])` are
/// overloads; sizes given by other constant expressions are taken as equal here).
fn same_array(a: &Option<super::ast::ArraySize>, b: &Option<super::ast::ArraySize>) -> bool {
    let literal = |s: &super::ast::ArraySize| match s.len.as_deref().map(|e| &e.kind) {
        Some(ExprKind::Int(n)) => Some(*n),
        _ => None,
    };
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => match (literal(x), literal(y)) {
            (Some(m), Some(n)) => m == n,
            _ => true,
        },
        _ => false,
    }
}

/// Fold a later declaration `d` of the global `first` declares into it.
fn merge_global(first: &mut Decl, d: &Decl, diags: &mut Diagnostics) {
    let len_of = |d: &Decl| {
        d.array
            .as_ref()
            .map(|a| match a.len.as_deref().map(|e| &e.kind) {
                Some(ExprKind::Int(n)) => Some(*n),
                _ => None,
            })
    };
    let (a, b) = (len_of(first), len_of(d));
    let arrays_agree = match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => x.is_none() || y.is_none() || x == y,
        _ => false,
    };
    if first.ty != d.ty || first.quals.storage != d.quals.storage || !arrays_agree {
        let (unit, _) = split_unit_line(first.pos.line);
        diags.error(
            d.pos,
            format!(
                "global '{}' is declared differently here and in unit {} (storage, type \
                 and array size must agree: GLSL 1.20 §4.3)",
                d.name,
                unit + 1
            ),
        );
        return;
    }
    if let (Some(first_array), Some(array)) = (&mut first.array, &d.array)
        && first_array.len.is_none()
    {
        first_array.len = array.len.clone();
    }
    match (&first.init, &d.init) {
        (Some(_), Some(init)) => diags.error(
            init.pos,
            format!(
                "global '{}' has an initializer in more than one compilation unit",
                d.name
            ),
        ),
        (None, Some(init)) => first.init = Some(init.clone()),
        _ => {}
    }
}

/// Report every call in a unit to a user function that unit does not declare.
fn check_calls(programs: &[Program], diags: &mut Diagnostics) {
    let declared: Vec<HashSet<&str>> = programs
        .iter()
        .map(|p| {
            p.items
                .iter()
                .filter_map(|item| match item {
                    Item::Function(f) | Item::Prototype(f) => Some(f.name.as_str()),
                    Item::Global(_) | Item::Block(_) => None,
                })
                .collect()
        })
        .collect();
    let anywhere: HashSet<&str> = declared.iter().flatten().copied().collect();
    for (p, own) in programs.iter().zip(&declared) {
        for item in &p.items {
            let Item::Function(f) = item else { continue };
            for st in &f.body {
                visit_stmt(st, &mut |e| {
                    // A built-in's name is the built-in where the unit does not
                    // declare it (GLSL 1.10 and 1.20 §6.1).
                    if let ExprKind::Call { name, .. } = &e.kind
                        && anywhere.contains(name.as_str())
                        && !own.contains(name.as_str())
                        && !super::lower::is_builtin(name)
                    {
                        diags.error(
                            e.pos,
                            format!(
                                "function '{name}' is not declared in this compilation unit \
                                 (it is declared in another; a unit declares the functions \
                                 it calls, GLSL 1.20 §6.1)"
                            ),
                        );
                    }
                });
            }
        }
    }
}
