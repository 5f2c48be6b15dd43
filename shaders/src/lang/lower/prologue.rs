//! The semantic prologue (docs/csir.md "Semantic prologue"; docs/csir-original.md B §2.4):
//! before `main`, in symbol order, uniforms are loaded (LOAD_UNI, one vec4 slot per
//! column), attributes (LOAD_ATTR) and fragment varyings (LOAD_VAR), the fragment
//! coordinate (LOAD_FCOORD), `gl_FrontFacing` where used (LOAD_FACE), and every output
//! including `gl_Position` gets a temporary zeroed by `CONST 0` + `MOV`. These temporaries
//! are never reused, so the numbering matches the original (in a vertex shader TEMP[0] is
//! `gl_Position`, in a fragment shader TEMP[0] is the fragment coordinate).

use super::super::scope::VarKind;
use super::super::types::Type;
use super::interface::Role;
use super::value::Value;
use super::{LResult, Lowerer};
use crate::ir::{CmpCode, Ir, Op};

impl Lowerer<'_> {
    pub(super) fn prologue(&mut self) -> LResult<()> {
        for i in 0..self.globals.len() {
            let (var, role, slot) = (
                self.globals[i].var,
                self.globals[i].role,
                self.globals[i].slot,
            );
            let v = self.scopes.var(var);
            let (ty, kind) = (v.ty, v.kind);
            if kind == VarKind::Unavailable {
                continue;
            }
            if role == Role::VertexIn {
                let slot = slot.map_or(-1, |s| s as i16);
                self.load_vertex_input(var, ty, slot)?;
                continue;
            }
            if role == Role::PrimitiveIdIn {
                self.load_primitive_id(var)?;
                continue;
            }
            let slot = slot.unwrap_or(0) as i16;
            if let (Role::Uniform, Some(arr)) = (role, v.array) {
                // One element per vec4 slot group (mat3 3, mat4 4 slots).
                let n = ty.columns() as i16;
                for k in 0..arr.len as usize {
                    self.load_uniform(arr.first + k, ty, slot + k as i16 * n)?;
                }
                continue;
            }
            if matches!(role, Role::VaryingIn | Role::VaryingOut)
                && (v.array.is_some() || ty.is_matrix())
            {
                self.varying_slots(var, role, ty, slot)?;
                continue;
            }
            let load = match role {
                Role::Uniform => {
                    self.load_uniform(var, ty, slot)?;
                    continue;
                }
                Role::Attribute => Ir::new(Op::LoadAttr, ty.ir())
                    .dst(self.fixed(1)?)
                    .aux(slot)
                    .ncomp(4),
                Role::VaryingIn => Ir::new(Op::LoadVar, ty.ir())
                    .dst(self.fixed(1)?)
                    .aux(slot)
                    .ncomp(ty.width()),
                Role::FragCoord => Ir::new(Op::LoadFcoord, Type::Vec4.ir())
                    .dst(self.fixed(1)?)
                    .ncomp(4),
                Role::FrontFacing => Ir::new(Op::LoadFace, Type::Bool.ir())
                    .dst(self.fixed(1)?)
                    .ncomp(1),
                Role::Position | Role::VaryingOut | Role::Color => {
                    let dst = self.fixed(1)?;
                    let zero = self.fixed(1)?;
                    self.em
                        .const_into_fresh(zero, &[0.0; 4], Type::Vec4)
                        .map_err(|e| self.pool(e))?;
                    Ir::new(Op::Mov, ty.ir()).dst(dst).a(zero).ncomp(4)
                }
                Role::Sampler
                | Role::Private
                | Role::Const
                | Role::VertexIn
                | Role::PrimitiveIdIn => continue,
            };
            let dst = load.dst;
            self.emit(load)?;
            let v = self.scopes.var_mut(var);
            v.storage = Some(dst);
            v.owns_storage = false;
        }
        Ok(())
    }

    /// LOAD_UNI of one uniform (or array element) of type `ty` from `slot` into fresh
    /// fixed temporaries, which become variable `var`'s storage.
    fn load_uniform(&mut self, var: usize, ty: Type, slot: i16) -> LResult<()> {
        let n = ty.columns();
        let dst = self.fixed(n)?;
        let ncomp = if ty.is_matrix() { 4 } else { ty.width() };
        self.emit(
            Ir::new(Op::LoadUni, ty.ir())
                .dst(dst)
                .aux(slot)
                .aux2(n as i16)
                .ncomp(ncomp),
        )?;
        if !matches!(ty, Type::BVec2 | Type::BVec3 | Type::BVec4) {
            let v = self.scopes.var_mut(var);
            v.storage = Some(dst);
            v.owns_storage = false;
            return Ok(());
        }
        // A `bvecN` uniform is recorded as a `vecN` (CSIR has no bool vectors): any
        // non-zero lane a scene sets is true (GL 3.3 §2.11.4, as for a `bool`, which
        // the linker turns into 0/1), so the lanes become 1.0 / 0.0 here, once.
        let n = ty.width();
        let raw = Value::temp(Type::float_vec(n), dst);
        let zero = Value::float(0.0);
        let truth = self.compare_lanes(CmpCode::Ne, &raw, &zero, ty)?;
        let t = self.materialize(&truth)?;
        let norm = self.fixed(1)?;
        self.emit(Ir::new(Op::Mov, ty.ir()).dst(norm).a(t).ncomp(n))?;
        let v = self.scopes.var_mut(var);
        v.storage = Some(norm);
        v.owns_storage = false;
        Ok(())
    }

    /// An array or matrix varying: one varying slot per matrix column and array
    /// element, in order from `slot`; each element gets fixed temporaries, loaded
    /// (LOAD_VAR per column) in a fragment shader or zeroed in a vertex shader.
    fn varying_slots(&mut self, var: usize, role: Role, ty: Type, slot: i16) -> LResult<()> {
        let elements: Vec<usize> = match self.scopes.var(var).array {
            Some(arr) => (0..arr.len as usize).map(|k| arr.first + k).collect(),
            None => vec![var],
        };
        let cols = ty.columns();
        let col_ty = if ty.is_matrix() {
            Type::float_vec(ty.width())
        } else {
            ty
        };
        let zero = if role == Role::VaryingOut {
            let z = self.fixed(1)?;
            self.em
                .const_into_fresh(z, &[0.0; 4], Type::Vec4)
                .map_err(|e| self.pool(e))?;
            Some(z)
        } else {
            None
        };
        for (k, id) in elements.into_iter().enumerate() {
            let first = slot + (k * cols as usize) as i16;
            let dst = self.fixed(cols)?;
            for c in 0..cols as i16 {
                let ir = match zero {
                    None => Ir::new(Op::LoadVar, col_ty.ir())
                        .dst(dst + c)
                        .aux(first + c)
                        .ncomp(col_ty.width()),
                    Some(z) => Ir::new(Op::Mov, col_ty.ir()).dst(dst + c).a(z).ncomp(4),
                };
                self.emit(ir)?;
            }
            let v = self.scopes.var_mut(id);
            v.storage = Some(dst);
            v.owns_storage = false;
        }
        Ok(())
    }

    /// Temporaries that are never reused.
    fn fixed(&mut self, n: u8) -> LResult<i16> {
        self.em.fixed(n as u16).map_err(|e| self.pool(e))
    }
}
