//! The texture functions of GLSL 3.30 §8.7 on every sampler type but `sampler2D`
//! (whose lookups keep their own instructions, `builtins.rs`), and the GLSL 1.10
//! forms (`texture1D`, `texture3D`, `textureCube`, `shadow2D`, `texture2DRect`, …):
//! each becomes one TEX instruction ([`Op::Tex`]) whose `aux2` is the
//! [`TexLookup`] and whose sampler slot's interface entry carries the sampler's
//! target and kind (`sampler_type`).
//!
//! Operand `a` is the coordinate vector as GLSL gives it (the shadow reference in
//! lane `max(coords, 2)`: `P.z` for 1D, 2D, rectangle and 1D-array shadows, `P.w`
//! for cube and 2D-array shadows), divided by `q` for the projective forms; `b` the
//! bias, λ, packed gradients or level (`a` when unread).

use super::super::token::Pos;
use super::super::types::{self, Base, Type};
use super::value::{Repr, Value};
use super::{LResult, Lowerer};
use crate::ir::{Ir, Op, Stage};
use crate::sampler_type::{SampleKind, SamplerType, TexLookup, TexMode, TexTarget};

/// The GLSL 1.10 names of lookups on other samplers than `sampler2D`, with the sampler
/// type each takes. `texture2D*` on `sampler2D` stays in `builtins.rs`.
/// The array forms (`GL_EXT_texture_array`) come before the names they start with.
const LEGACY: &[(&str, TexTarget, SampleKind)] = &[
    ("texture1DArray", TexTarget::D1Array, SampleKind::Float),
    ("texture2DArray", TexTarget::D2Array, SampleKind::Float),
    ("shadow1DArray", TexTarget::D1Array, SampleKind::Shadow),
    ("shadow2DArray", TexTarget::D2Array, SampleKind::Shadow),
    ("texture2DRect", TexTarget::Rect, SampleKind::Float),
    ("texture1D", TexTarget::D1, SampleKind::Float),
    ("texture3D", TexTarget::D3, SampleKind::Float),
    ("textureCube", TexTarget::Cube, SampleKind::Float),
    ("shadow2DRect", TexTarget::Rect, SampleKind::Shadow),
    ("shadow1D", TexTarget::D1, SampleKind::Shadow),
    ("shadow2D", TexTarget::D2, SampleKind::Shadow),
];

/// Every built-in function name this module lowers besides the GLSL 3.30 ones
/// `builtins.rs` already lists.
pub(crate) const LEGACY_FUNCTIONS: &[&str] = &[
    "texture1D",
    "texture1DProj",
    "texture1DLod",
    "texture1DProjLod",
    "texture3D",
    "texture3DProj",
    "texture3DLod",
    "texture3DProjLod",
    "textureCube",
    "textureCubeLod",
    "shadow1D",
    "shadow1DProj",
    "shadow1DLod",
    "shadow1DProjLod",
    "shadow2D",
    "shadow2DProj",
    "shadow2DLod",
    "shadow2DProjLod",
    "texture2DRect",
    "texture2DRectProj",
    "texture1DArray",
    "texture1DArrayLod",
    "texture2DArray",
    "texture2DArrayLod",
    "shadow1DArray",
    "shadow1DArrayLod",
    "shadow2DArray",
    "shadow2DRect",
    "shadow2DRectProj",
    "textureProjGrad",
    "textureProjGradOffset",
];

/// A lookup's form, from its name.
#[derive(Clone, Copy, Debug, Default)]
struct Form {
    proj: bool,
    lod: bool,
    grad: bool,
    offset: bool,
    /// A GLSL 1.10 name: the sampler type it requires; a shadow returns `vec4`.
    legacy: Option<(TexTarget, SampleKind)>,
}

impl Form {
    /// The form of a lookup named `name` (`texture[Proj][Lod|Grad][Offset]` or a
    /// [`LEGACY`] name with `[Proj][Lod]`); `None` for another name.
    fn parse(name: &str) -> Option<Form> {
        let (rest, legacy) = match LEGACY.iter().find(|(n, ..)| name.starts_with(n)) {
            Some(&(n, target, kind)) => (&name[n.len()..], Some((target, kind))),
            None => (name.strip_prefix("texture")?, None),
        };
        let mut form = Form {
            legacy,
            ..Form::default()
        };
        let mut rest = rest;
        for (word, flag) in [("Proj", 0), ("Lod", 1), ("Grad", 2), ("Offset", 3)] {
            if let Some(r) = rest.strip_prefix(word) {
                rest = r;
                match flag {
                    0 => form.proj = true,
                    1 => form.lod = true,
                    2 => form.grad = true,
                    _ => form.offset = true,
                }
            }
        }
        (rest.is_empty() && !(form.lod && form.grad) && !(legacy.is_some() && form.offset))
            .then_some(form)
    }
}

impl Lowerer<'_> {
    /// Whether a texture built-in call on `v` goes to [`Lowerer::texture_gl33`]: its
    /// first argument is a sampler other than `sampler2D`, or its name is a GLSL 1.10
    /// lookup of another sampler.
    pub(crate) fn is_gl33_lookup(name: &str, v: &[Value]) -> bool {
        matches!(v.first().map(|s| s.ty), Some(Type::Sampler(_)))
            || LEGACY_FUNCTIONS.contains(&name)
    }

    /// A texture built-in on a sampler other than `sampler2D` (GLSL 3.30 §8.7):
    /// `texture`, `textureProj`, `textureLod`, `textureOffset`, `texelFetch`,
    /// `textureSize`, `textureGrad` and their combinations as §8.7 lists them for each
    /// sampler type, and the GLSL 1.10 forms; one TEX instruction.
    ///
    /// Errors: the seed profile ("needs the extended profile"); a combination §8.7
    /// does not give the sampler type ("wrong arguments: no 'NAME' takes (TYPES)" or a
    /// sentence naming the rule); a bias outside a fragment shader; a non-constant or
    /// out-of-range offset.
    pub(crate) fn texture_gl33(&mut self, name: &str, v: &[Value], pos: Pos) -> LResult<Value> {
        if !self.limits.extended_ops() {
            return self.err(
                pos,
                format!(
                    "`{name}` needs the extended profile (the seed's CSIR samples sampler2D \
                     only; --profile extended)"
                ),
            );
        }
        let (slot, st) = match v.first() {
            Some(&Value {
                ty,
                repr: Repr::Sampler(slot),
            }) => match ty.sampler_type() {
                Some(st) => (slot, st),
                None => return self.wrong_arguments(pos),
            },
            _ => return self.wrong_arguments(pos),
        };
        if st == SamplerType::SAMPLER_2D {
            // sampler2D's lookups are `builtins.rs`'s; these names have none there.
            return self.err(pos, format!("`{name}` is not supported on sampler2D"));
        }
        let lookup = match name {
            "textureSize" => return self.tex_size(slot, st, v, pos),
            "texelFetch" | "texelFetchOffset" => {
                return self.tex_fetch(slot, st, v, name == "texelFetchOffset", pos);
            }
            _ => Form::parse(name),
        };
        let Some(form) = lookup else {
            return self.wrong_arguments(pos);
        };
        self.tex_lookup(name, slot, st, form, v, pos)
    }

    /// The filtered lookups.
    fn tex_lookup(
        &mut self,
        name: &str,
        slot: u16,
        st: SamplerType,
        form: Form,
        v: &[Value],
        pos: Pos,
    ) -> LResult<Value> {
        let target = st.target;
        let shadow = st.kind == SampleKind::Shadow;
        if let Some((t, k)) = form.legacy
            && (t, k) != (target, st.kind)
        {
            return self.wrong_arguments(pos);
        }
        let refuse =
            |why: &str| format!("`{name}` is not defined for {st}: {why} (GLSL 3.30 §8.7)");
        if target == TexTarget::Buffer {
            return self.err(pos, refuse("a buffer texture is read with texelFetch only"));
        }
        if form.proj
            && (target.is_array()
                || target == TexTarget::Cube
                || (shadow && target == TexTarget::Rect && form.lod))
        {
            return self.err(pos, refuse("no projective form"));
        }
        if form.offset && target == TexTarget::Cube {
            return self.err(pos, refuse("cube maps take no texel offset"));
        }
        if form.lod && target == TexTarget::Rect {
            return self.err(pos, refuse("a rectangle texture has one level"));
        }
        if form.lod && shadow && matches!(target, TexTarget::Cube | TexTarget::D2Array) {
            return self.err(pos, refuse("no explicit level of detail"));
        }
        let dims = target.dims();
        // dPdx and dPdy have a component per coordinate less the layer: three for a
        // cube map (the direction), though it filters two (GLSL 3.30 §8.7).
        let grad_width = if target == TexTarget::Cube { 3 } else { dims };
        // Arguments: sampler, P, [lod | dPdx, dPdy], [offset], [bias].
        let mut at = 2;
        let lod = if form.lod {
            at += 1;
            v.get(at - 1).copied()
        } else {
            None
        };
        let grads = if form.grad {
            at += 2;
            Some((v.get(at - 2).copied(), v.get(at - 1).copied()))
        } else {
            None
        };
        let offset = if form.offset {
            at += 1;
            v.get(at - 1).copied()
        } else {
            None
        };
        let bias_allowed = !form.lod && !form.grad && target != TexTarget::Rect;
        let bias = if bias_allowed && v.len() == at + 1 {
            at += 1;
            v.get(at - 1).copied()
        } else {
            None
        };
        if v.len() != at || v.len() < 2 {
            return self.wrong_arguments(pos);
        }
        if bias.is_some() && self.stage != Stage::Fragment {
            return self.err(
                pos,
                format!(
                    "the bias argument of `{name}` is available only in fragment shaders \
                     (GLSL 1.30 §8.7)"
                ),
            );
        }
        // P's width: the coordinates (and reference), plus q for a projective form.
        let coords = target.coords();
        let ref_lane = coords.max(2);
        let width = if shadow { ref_lane + 1 } else { coords };
        let p = v[1];
        let p_ok = types::base(p.ty) == Base::Float && !p.ty.is_matrix();
        let p_width = p.ty.width();
        let width_ok = if form.proj {
            if shadow {
                p_width == 4
            } else {
                p_width == coords + 1 || p_width == 4
            }
        } else {
            p_width == width
        };
        if !p_ok || !width_ok {
            return self.wrong_arguments(pos);
        }
        let a = if form.proj {
            let q = self.lane(&p, p_width - 1)?;
            let r = self.unary_op(Op::Rcp, &q, Type::Float)?;
            let mut lanes: Vec<u8> = (0..coords).collect();
            if shadow {
                lanes.push(2);
            }
            let kept = self.swizzle(&p, &lanes, Type::float_vec(lanes.len() as u8))?;
            let divided = self.widen_op(Op::Mul, &kept, &r, kept.ty)?;
            let out_width = lanes.iter().copied().max().unwrap_or(0) + 1;
            let comps: Vec<(Value, u8)> = (0..out_width)
                .map(|l| {
                    let k = lanes.iter().position(|&x| x == l).unwrap_or(0);
                    (divided, k as u8)
                })
                .collect();
            let mark = self.em.mark();
            self.assemble(&comps, Type::float_vec(out_width), mark)?
        } else {
            p
        };
        let a = self.materialize(&a)?;
        let float_arg = |s: &mut Self, x: Option<Value>, w: u8| -> LResult<Option<Value>> {
            match x {
                None => Ok(None),
                Some(x)
                    if types::base(x.ty) != Base::Bool
                        && !x.ty.is_matrix()
                        && x.ty.width() == w =>
                {
                    Ok(Some(s.gen_type(&x, false, pos)?))
                }
                Some(_) => s.wrong_arguments(pos),
            }
        };
        let lod = float_arg(self, lod, 1)?;
        let bias = float_arg(self, bias, 1)?;
        let grads = match grads {
            Some((x, y)) if grad_width == 3 => {
                let (Some(x), Some(y)) = (
                    float_arg(self, x, grad_width)?,
                    float_arg(self, y, grad_width)?,
                ) else {
                    return self.wrong_arguments(pos);
                };
                // TEX's Grad3 reads dPdx from `b` and dPdy from the temporary after it.
                let (x, y) = (self.materialize(&x)?, self.materialize(&y)?);
                let pair = self.temp(2)?;
                for (k, g) in [x, y].into_iter().enumerate() {
                    let mov = Ir::new(Op::Mov, Type::Vec3.ir()).dst(pair + k as i16);
                    self.emit(mov.a(g).ncomp(3))?;
                }
                Some(Value::temp(Type::Vec4, pair))
            }
            Some((x, y)) => {
                let (Some(x), Some(y)) = (float_arg(self, x, dims)?, float_arg(self, y, dims)?)
                else {
                    return self.wrong_arguments(pos);
                };
                let lane = |g: Value, k: u8| (g, k.min(g.ty.width() - 1));
                let zero = Value::float(0.0);
                let pick = |g: Value, k: u8| if k < dims { lane(g, k) } else { (zero, 0) };
                let mark = self.em.mark();
                Some(self.assemble(
                    &[pick(x, 0), pick(x, 1), pick(y, 0), pick(y, 1)],
                    Type::Vec4,
                    mark,
                )?)
            }
            None => None,
        };
        let offset = match offset {
            Some(o) => Some(self.offset_gl33(name, &o, dims, pos)?),
            None => None,
        };
        let (mode, b) = match (lod, bias, grads) {
            (Some(l), ..) => (TexMode::Lod, Some(l)),
            (_, Some(b), _) => (TexMode::Bias, Some(b)),
            (.., Some(g)) if grad_width == 3 => (TexMode::Grad3, Some(g)),
            (.., Some(g)) => (TexMode::Grad, Some(g)),
            _ => (TexMode::Implicit, None),
        };
        let b = match b {
            Some(b) => self.materialize(&b)?,
            None => a,
        };
        let lookup = TexLookup {
            mode,
            offset: offset.unwrap_or([0; 3]),
        };
        let ty = match st.kind {
            SampleKind::Float | SampleKind::Shadow => Type::Vec4,
            SampleKind::Int => Type::IVec4,
            SampleKind::Uint => Type::UVec4,
        };
        let dst = self.emit_tex(slot, lookup, a, b, ty)?;
        let result = Value::temp(ty, dst);
        if shadow && form.legacy.is_none() {
            return self.lane(&result, 0);
        }
        Ok(result)
    }

    /// `texelFetch(gsampler, P, lod)` and `texelFetchOffset` (no `lod` for rectangle
    /// and buffer samplers): TEX's fetch mode.
    fn tex_fetch(
        &mut self,
        slot: u16,
        st: SamplerType,
        v: &[Value],
        with_offset: bool,
        pos: Pos,
    ) -> LResult<Value> {
        let name = if with_offset {
            "texelFetchOffset"
        } else {
            "texelFetch"
        };
        let target = st.target;
        if st.kind == SampleKind::Shadow || target == TexTarget::Cube {
            return self.err(
                pos,
                format!("`{name}` is not defined for {st} (GLSL 3.30 §8.7)"),
            );
        }
        let has_lod = target.has_mipmaps();
        let n = 2 + usize::from(has_lod) + usize::from(with_offset);
        if v.len() != n || (with_offset && target == TexTarget::Buffer) {
            return self.wrong_arguments(pos);
        }
        let int_of = |w: u8| {
            if w == 1 {
                Type::Int
            } else {
                types::with_base(Base::Int, w).unwrap_or(Type::Int)
            }
        };
        if v[1].ty != int_of(target.coords()) || (has_lod && v[2].ty != Type::Int) {
            return self.wrong_arguments(pos);
        }
        let offset = if with_offset {
            self.offset_gl33(name, &v[n - 1], target.dims(), pos)?
        } else {
            [0; 3]
        };
        let a = self.materialize(&v[1])?;
        let b = if has_lod { self.materialize(&v[2])? } else { a };
        let ty = match st.kind {
            SampleKind::Int => Type::IVec4,
            SampleKind::Uint => Type::UVec4,
            _ => Type::Vec4,
        };
        let lookup = TexLookup {
            mode: TexMode::Fetch,
            offset,
        };
        if !has_lod {
            // Level 0: `b` is a constant 0 pattern.
            let zero = self.materialize(&Value::konst(
                Type::Int,
                super::super::consteval::ConstData::ZERO,
            ))?;
            let dst = self.emit_tex(slot, lookup, a, zero, ty)?;
            return Ok(Value::temp(ty, dst));
        }
        let dst = self.emit_tex(slot, lookup, a, b, ty)?;
        Ok(Value::temp(ty, dst))
    }

    /// `textureSize(gsampler, lod)` (no `lod` for rectangle and buffer samplers):
    /// `int`, `ivec2` or `ivec3` as §8.7 gives the target.
    fn tex_size(&mut self, slot: u16, st: SamplerType, v: &[Value], pos: Pos) -> LResult<Value> {
        let has_lod = st.target.has_mipmaps();
        let ok = match v {
            [_] => !has_lod,
            [_, lod] => has_lod && lod.ty == Type::Int,
            _ => false,
        };
        if !ok {
            return self.wrong_arguments(pos);
        }
        let lod = match v.get(1) {
            Some(l) => self.materialize(l)?,
            None => self.materialize(&Value::konst(
                Type::Int,
                super::super::consteval::ConstData::ZERO,
            ))?,
        };
        let lookup = TexLookup {
            mode: TexMode::Size,
            offset: [0; 3],
        };
        let n = st.target.size_components();
        let ty = types::with_base(Base::Int, n).unwrap_or(Type::Int);
        let dst = self.emit_tex(slot, lookup, lod, lod, ty)?;
        Ok(Value::temp(ty, dst))
    }

    /// A constant texel offset of `dims` components (`int` for one) within -8..=7.
    fn offset_gl33(&mut self, name: &str, o: &Value, dims: u8, pos: Pos) -> LResult<[i8; 3]> {
        let expected = types::with_base(Base::Int, dims).unwrap_or(Type::Int);
        if o.ty != expected {
            return self.wrong_arguments(pos);
        }
        let Some(data) = o.as_const() else {
            return self.err(
                pos,
                format!("the offset of `{name}` must be a constant expression (GLSL 1.30 §8.7)"),
            );
        };
        let mut out = [0i8; 3];
        for (k, slot) in out.iter_mut().enumerate().take(dims as usize) {
            let x = data.0[k].to_bits() as i32;
            if !super::builtins::TEXEL_OFFSETS.contains(&x) {
                return self.err(
                    pos,
                    format!(
                        "texel offset {x} of `{name}` is out of range: each component must \
                         lie in -8..=7 (MIN_PROGRAM_TEXEL_OFFSET..=MAX_PROGRAM_TEXEL_OFFSET)"
                    ),
                );
            }
            *slot = x as i8;
        }
        Ok(out)
    }

    /// Emit TEX into a new temporary.
    fn emit_tex(&mut self, slot: u16, lookup: TexLookup, a: i16, b: i16, ty: Type) -> LResult<i16> {
        let dst = self.temp(1)?;
        self.emit(
            Ir::new(Op::Tex, ty.ir())
                .dst(dst)
                .a(a)
                .b(b)
                .aux(slot as i16)
                .aux2(lookup.encode())
                .ncomp(4),
        )?;
        Ok(dst)
    }
}
