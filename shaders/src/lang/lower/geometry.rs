//! The geometry stage in the lowering (GLSL 1.50 §7.1, §8.10; what happens before
//! it, the layouts and the sizing of the input arrays, is `lang/geometry.rs`):
//!
//! - a per-vertex input array (`in vec4 v[3]`, `gl_in.gl_Position[3]` from `gl_in[]`)
//!   gets one run of slots for all its elements (the elements are the input
//!   primitive's vertices, not interface slots), and its element `k` is loaded in
//!   the prologue by LOAD_VTX of vertex `k`; `gl_in[k].gl_Position` by LOAD_VTX of
//!   slot −1. The interface records the input as a varying input of its element
//!   type, which linking matches with the vertex shader's output of that name.
//! - `gl_PrimitiveIDIn` is LOAD_PRIMID.
//! - `EmitVertex()` is EMIT and `EndPrimitive()` ENDPRIM; the outputs are stored
//!   (STORE_POS, STORE_VAR) when written, as in a vertex shader, so EMIT finds the
//!   current values.

use super::super::ast::{Decl, Expr, Storage};
use super::super::token::Pos;
use super::super::types::Type;
use super::interface::GlobalEntry;
use super::value::Value;
use super::{LResult, Lowerer};
use crate::ir::geometry::vertex_input;
use crate::ir::{InterfaceSymbol, Ir, Op, Stage, SymbolKind};

impl Lowerer<'_> {
    /// Whether `d` is a member array of the built-in block `gl_in` (declared by
    /// `lang/geometry.rs`), whose `gl_` name is not a reserved-name error.
    pub(super) fn is_gl_in(&self, d: &Decl) -> bool {
        self.stage == Stage::Geometry
            && d.quals.storage == Storage::In
            && d.name.starts_with("gl_in.")
    }

    /// Whether `g` is `gl_in[].gl_Position`, loaded from the vertices' positions.
    pub(super) fn is_gl_in_position(&self, g: &GlobalEntry<'_>) -> bool {
        g.decl
            .is_some_and(|d| self.is_gl_in(d) && d.name == "gl_in.gl_Position")
    }

    /// The interface symbol of per-vertex input `g` at `slot`: a varying input of
    /// the element type (a matrix as its columns, as a vertex output records it).
    pub(super) fn vertex_input_symbol(
        &self,
        g: &GlobalEntry<'_>,
        name: String,
        slot: u16,
    ) -> InterfaceSymbol {
        let ty = self.scopes.var(g.var).ty;
        let (sym_ty, array_len) = if ty.is_matrix() {
            (Type::float_vec(ty.width()).ir(), Some(ty.columns() as u16))
        } else {
            (ty.ir(), None)
        };
        InterfaceSymbol {
            name,
            ty: sym_ty,
            array_len,
            kind: SymbolKind::VaryingIn { slot },
            interpolation: g.interpolation,
        }
    }

    /// The prologue's loads of per-vertex input `var` (an array, one element per
    /// input vertex) from `slot` (−1 for `gl_in[].gl_Position`).
    pub(super) fn load_vertex_input(&mut self, var: usize, ty: Type, slot: i16) -> LResult<()> {
        let Some(arr) = self.scopes.var(var).array else {
            return Ok(());
        };
        let vertices = self.program.geometry.input.map_or(3, |(p, _)| p.vertices());
        if arr.len as usize != vertices {
            let name = self.scopes.var(var).name.clone();
            return self.err(
                Pos::START,
                format!(
                    "the geometry shader input '{name}' has {} elements for {vertices} input \
                     vertices: arrays inside geometry shader input blocks are not supported",
                    arr.len
                ),
            );
        }
        let cols = ty.columns();
        let col_ty = if ty.is_matrix() {
            Type::float_vec(ty.width())
        } else {
            ty
        };
        for k in 0..arr.len as usize {
            let dst = self.em.fixed(cols as u16).map_err(|e| self.pool(e))?;
            for c in 0..cols as i16 {
                let aux = if slot < 0 {
                    vertex_input::POSITION
                } else {
                    slot + c
                };
                self.emit(
                    Ir::new(Op::LoadVtx, col_ty.ir())
                        .dst(dst + c)
                        .aux(aux)
                        .aux2(k as i16)
                        .ncomp(col_ty.width()),
                )?;
            }
            let v = self.scopes.var_mut(arr.first + k);
            v.storage = Some(dst);
            v.owns_storage = false;
        }
        Ok(())
    }

    /// The prologue's LOAD_PRIMID of `gl_PrimitiveIDIn`.
    pub(super) fn load_primitive_id(&mut self, var: usize) -> LResult<()> {
        let dst = self.em.fixed(1).map_err(|e| self.pool(e))?;
        self.emit(Ir::new(Op::LoadPrimId, Type::Int.ir()).dst(dst).ncomp(1))?;
        let v = self.scopes.var_mut(var);
        v.storage = Some(dst);
        v.owns_storage = false;
        Ok(())
    }

    /// `EmitVertex()` and `EndPrimitive()` (GLSL 1.50 §8.10): `None` for another name.
    pub(super) fn geometry_call(
        &mut self,
        name: &str,
        args: &[Expr],
        pos: Pos,
    ) -> Option<LResult<Value>> {
        let op = match name {
            "EmitVertex" => Op::Emit,
            "EndPrimitive" => Op::EndPrim,
            _ => return None,
        };
        if self.stage != Stage::Geometry {
            return Some(self.err(
                pos,
                format!("{name}() is a geometry shader function (GLSL 1.50 §8.10)"),
            ));
        }
        if !args.is_empty() {
            return Some(self.err(pos, format!("{name}() takes no arguments")));
        }
        Some(
            self.emit(Ir::new(op, Type::None.ir()))
                .map(|()| Value::void()),
        )
    }
}
