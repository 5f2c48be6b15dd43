//! Calls: built-ins first resolved by name (a user function of the same name hides
//! the built-in), user functions inlined (docs/csir-original.md B §1.12, with A2: void
//! functions can be called as statements, matrix parameters work, the return type is
//! checked, scoping is lexical, and every function is checked even if never called).
//!
//! Overloads are resolved like GLSL: an exact match, else the one match with implicit
//! int → float conversions. `in` parameters that the body never assigns alias their
//! argument (no copy); the others get their own storage. `out`/`inout` parameters are
//! copied back to their argument at the end of the call.

use super::super::ast::{Expr, Param, ParamDir};
use super::super::scope::{Access, VarKind};
use super::super::token::Pos;
use super::super::types;
use super::super::types::Type;
use super::arrays::ArrayRef;
use super::assign::{Place, Target};
use super::builtins::UNSUPPORTED;
use super::flow::has_early_return;
use super::value::{Repr, Value};
use super::{CallCtx, Fail, LResult, Lowerer};

/// A call's evaluated arguments: values, array arguments and `out`/`inout` l-values,
/// one of each per argument ([`Lowerer::call_args`]).
type CallArgs = (Vec<Value>, Vec<Option<ArrayArg>>, Vec<Option<ArgPlace>>);

/// The l-value of an argument some overload writes, resolved when the argument was
/// evaluated; `checked`: it was checked writable then.
#[derive(Clone, Debug)]
struct ArgPlace {
    target: Target,
    checked: bool,
}

/// An array argument: its element type, its elements, and the array variable it
/// names (`None` for a constructor), which an `out`/`inout` parameter writes back.
#[derive(Clone, Debug)]
pub(crate) struct ArrayArg {
    ty: Type,
    elems: Vec<Value>,
    var: Option<usize>,
}

impl Lowerer<'_> {
    /// `name(args)`.
    pub(crate) fn call(&mut self, name: &str, args: &[Expr], pos: Pos) -> LResult<Value> {
        let candidates = self.overloads(name);
        // A user function hides a built-in of its name only from its first declaration
        // on: a call above it is the built-in's (GLSL 1.10 and 1.20 §6.1: "If a built-in
        // function is redeclared in a shader (i.e. a prototype is visible) before a
        // call to it, then the linker will only attempt to resolve that call within the
        // set of shaders that are linked with it").
        let hidden = !candidates.is_empty() && self.declared_before(name, pos);
        if !hidden && !candidates.is_empty() && !super::builtins::is_builtin(name) {
            // GLSL 1.10 §6.1: "All functions must be either declared with a prototype
            // or defined with a body before they are called."
            return self.err(
                pos,
                format!(
                    "function '{name}' is called before it is declared: define it or \
                     declare a prototype above the call (GLSL 1.10 §6.1)"
                ),
            );
        }
        if !hidden && (candidates.is_empty() || super::builtins::is_builtin(name)) {
            if name == "modf" {
                return self.modf(args, pos);
            }
            if let Some(r) = self.geometry_call(name, args, pos) {
                return r;
            }
            if let Some(r) = self.builtin(name, args, pos) {
                return r;
            }
            if UNSUPPORTED.contains(&name) {
                return self.err(pos, format!("{name} is not supported"));
            }
            if self.scopes.lookup(name).is_some() {
                return self.err(pos, format!("'{name}' is not a function"));
            }
            let declared = self
                .program
                .items
                .iter()
                .any(|i| matches!(i, super::super::ast::Item::Prototype(p) if p.name == name));
            if declared {
                return self.err(
                    pos,
                    format!("function '{name}' is declared but never defined"),
                );
            }
            return self.err(pos, format!("unknown function '{name}'"));
        }
        let (vals, arrays, places) = self.call_args(&candidates, args)?;
        let f = self.resolve(&candidates, &vals, &arrays, pos)?;
        if self.funcs[f].def.ret_array.is_some() {
            return self.err(
                pos,
                format!(
                    "function '{name}' returns an array, which is not a value here: an \
                     array can be indexed, compared, assigned or passed whole (GLSL 1.20 §5.7)"
                ),
            );
        }
        self.inline(f, &vals, &arrays, &places, args, pos)
            .map(|(v, _)| v)
    }

    /// Whether a function named `name` is declared (defined or prototyped) above `pos`
    /// in the same compilation unit (a unit's positions carry its index,
    /// `diagnostic::unit_line`).
    fn declared_before(&self, name: &str, pos: Pos) -> bool {
        let unit = |p: Pos| super::super::diagnostic::split_unit_line(p.line).0;
        self.program.items.iter().any(|item| match item {
            super::super::ast::Item::Function(f) | super::super::ast::Item::Prototype(f) => {
                f.name == name && unit(f.ret_pos) == unit(pos) && f.ret_pos < pos
            }
            _ => false,
        })
    }

    /// Whether a user function named `name` returns an array (GLSL 1.20 §6.1).
    /// The user functions named `name` (indexes into `funcs`), in declaration order.
    fn overloads(&self, name: &str) -> Vec<usize> {
        (0..self.funcs.len())
            .filter(|&i| self.funcs[i].def.name == name)
            .collect()
    }

    /// Whether a user function named `name` returns an array (GLSL 1.20 §6.1).
    pub(crate) fn returns_array(&self, name: &str) -> bool {
        self.funcs
            .iter()
            .any(|f| f.def.name == name && f.def.ret_array.is_some())
    }

    /// `name(args)` of a function returning an array: the returned elements.
    pub(crate) fn call_array(&mut self, name: &str, args: &[Expr], pos: Pos) -> LResult<ArrayRef> {
        let candidates = self.overloads(name);
        let (vals, arrays, places) = self.call_args(&candidates, args)?;
        let f = self.resolve(&candidates, &vals, &arrays, pos)?;
        let ty = self.funcs[f].def.ret;
        match self.inline(f, &vals, &arrays, &places, args, pos)? {
            (_, Some(elems)) => Ok(ArrayRef::Values(ty, elems)),
            (_, None) => self.err(
                pos,
                format!(
                    "this overload of '{name}' does not return an array, and another one \
                     does: not supported"
                ),
            ),
        }
    }

    /// The length of function `fi`'s array return type (`None`: not an array).
    fn ret_len(&mut self, fi: usize) -> LResult<Option<usize>> {
        match self.funcs[fi].def.ret_array.as_ref() {
            Some(a) => match a.len.as_deref() {
                Some(e) => self.local_array_len(e).map(Some),
                None => self.err(a.pos, "an array return type needs a size"),
            },
            None => Ok(None),
        }
    }

    /// `return e;` in a function returning `ret[len]`: the elements of `e`, an array of
    /// exactly that type and size (GLSL 1.20 §6.1: arrays do not convert).
    pub(crate) fn array_return(&mut self, e: &Expr, ret: Type, len: usize) -> LResult<Vec<Value>> {
        let Some(r) = self.array_ref(e) else {
            let v = self.operand(e)?;
            let m = format!(
                "return type mismatch: the function returns {ret}[{len}], not {} (GLSL 1.20 \
                 §6.1)",
                v.ty
            );
            return self.err(e.pos, m);
        };
        let r = r?;
        let (ety, n) = self.array_shape(&r);
        if ety != ret || n != len {
            let m = format!(
                "return type mismatch: the function returns {ret}[{len}], not {ety}[{n}]: \
                 arrays must match in element type and size (GLSL 1.20 §6.1)"
            );
            return self.err(e.pos, m);
        }
        self.elements(&r, e.pos)
    }

    /// The arguments of a user-function call to one of `candidates`, each evaluated
    /// once, in order (GLSL 1.30 §6.1.1, ES 3.00 §6.1.1): values, for an array argument
    /// (an array variable or constructor) its elements with a void placeholder among
    /// the values, and for an argument some candidate writes (`out`/`inout`) the
    /// l-value it names, its indexes evaluated now, which the call copies back to.
    /// Every argument's errors are reported before failing.
    fn call_args(&mut self, candidates: &[usize], args: &[Expr]) -> LResult<CallArgs> {
        let mut vals = Vec::with_capacity(args.len());
        let mut arrays = Vec::with_capacity(args.len());
        let mut places = Vec::with_capacity(args.len());
        let mut failed = None;
        for (i, a) in args.iter().enumerate() {
            // A value that aliases a variable is copied when a later argument may
            // change that variable (`f(x, x++)` passes x's old value).
            let later_effects = args[i + 1..].iter().any(|b| self.has_effects(b));
            let r = self.call_arg(candidates, args.len(), i, a, later_effects);
            match r {
                Ok((v, arr, place)) => {
                    vals.push(v);
                    arrays.push(arr);
                    places.push(place);
                }
                Err(Fail::Fatal) => return Err(Fail::Fatal),
                Err(f) => failed = Some(f),
            }
        }
        match failed {
            Some(f) => Err(f),
            None => Ok((vals, arrays, places)),
        }
    }

    /// Argument `i` of `n` (see [`Lowerer::call_args`]); `copy`: a later argument has
    /// effects, so a value read from a variable is copied.
    fn call_arg(
        &mut self,
        candidates: &[usize],
        n: usize,
        i: usize,
        a: &Expr,
        copy: bool,
    ) -> LResult<(Value, Option<ArrayArg>, Option<ArgPlace>)> {
        if let Some(r) = self.array_ref(a) {
            let r = r?;
            let (ty, _) = self.array_shape(&r);
            let mut elems = self.elements(&r, a.pos)?;
            if copy {
                // A sampler names a unit: there is no value to snapshot.
                for e in elems
                    .iter_mut()
                    .filter(|e| !matches!(e.repr, Repr::Sampler(_)))
                {
                    *e = self.snapshot(e)?;
                }
            }
            let var = match r {
                ArrayRef::Var(id) => Some(id),
                ArrayRef::Values(..) => None,
            };
            return Ok((Value::void(), Some(ArrayArg { ty, elems, var }), None));
        }
        let dirs: Vec<ParamDir> = candidates
            .iter()
            .filter(|&&f| self.funcs[f].def.params.len() == n)
            .map(|&f| self.funcs[f].def.params[i].dir)
            .collect();
        let writes = dirs.iter().filter(|&&d| d != ParamDir::In).count();
        let named = a
            .root_name()
            .is_some_and(|r| self.scopes.lookup(r).is_some());
        if writes == 0 || !named {
            let v = self.operands(&[a], true)?[0];
            let v = if copy { self.snapshot(&v)? } else { v };
            return Ok((v, None, None));
        }
        // Overloads differ in type, never in direction alone (GLSL 1.30 §6.1): when
        // only some write here, whether the variable may be written is checked once
        // the call's overload is known.
        let checked = writes == dirs.len();
        let target = self.resolve_target(a, checked)?;
        let v = if dirs.iter().all(|&d| d == ParamDir::Out) {
            // Only `out` parameters here: the callee starts from zero, not the value.
            Value::konst(target.ty(), super::super::consteval::ConstData::ZERO)
        } else {
            let v = self.read_target(&target)?;
            if copy { self.snapshot(&v)? } else { v }
        };
        Ok((v, None, Some(ArgPlace { target, checked })))
    }

    /// The length of an array parameter (its size: a constant int expression).
    fn param_len(&mut self, p: &Param) -> LResult<Option<usize>> {
        match p.array.as_ref().and_then(|a| a.len.as_deref()) {
            Some(e) => self.local_array_len(e).map(Some),
            None => Ok(None),
        }
    }

    /// `modf(x, out i)` (GLSL 1.30 §8.3): `i` = trunc(x), the value x − i (both with
    /// x's sign).
    fn modf(&mut self, args: &[Expr], pos: Pos) -> LResult<Value> {
        if args.len() != 2 {
            return self.err(pos, "modf() expects 2 arguments");
        }
        let x = self.operand(&args[0])?;
        let place = self.target(&args[1])?;
        let x = self.float_arg(&x)?;
        if types::base(x.ty) != types::Base::Float || x.ty.is_matrix() || place.ty() != x.ty {
            let m = format!(
                "modf takes a float scalar or vector and an out argument of its type, not {} and {}",
                x.ty,
                place.ty()
            );
            return self.err(pos, m);
        }
        let i = self.lanes1(crate::ir::Op::Trunc, &x)?;
        let f = self.lanewise(crate::ir::Op::Sub, &x, &i, x.ty)?;
        self.write_target(&place, &i, args[1].pos)?;
        Ok(f)
    }

    fn resolve(
        &mut self,
        candidates: &[usize],
        vals: &[Value],
        arrays: &[Option<ArrayArg>],
        pos: Pos,
    ) -> LResult<usize> {
        let arity: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&i| self.funcs[i].def.params.len() == vals.len())
            .collect();
        if arity.is_empty() {
            return self.err(pos, "wrong argument count");
        }
        // Array parameters take an array of exactly their element type and length
        // (GLSL 1.20 §6.1: no conversion of arrays); other parameters no array.
        let mut lens = Vec::with_capacity(arity.len());
        for &i in &arity {
            let def = self.funcs[i].def;
            let mut l = Vec::with_capacity(def.params.len());
            for p in &def.params {
                l.push(self.param_len(p)?);
            }
            lens.push((i, l));
        }
        let arrays_fit = |i: usize| {
            let l = &lens.iter().find(|(j, _)| *j == i).expect("measured").1;
            self.funcs[i]
                .def
                .params
                .iter()
                .zip(arrays)
                .zip(l)
                .all(|((p, a), len)| match (a, len) {
                    (Some(a), Some(n)) => a.ty == p.ty && a.elems.len() == *n,
                    (None, None) => true,
                    _ => false,
                })
        };
        let fits = |i: usize, exact: bool| {
            arrays_fit(i)
                && self.funcs[i]
                    .def
                    .params
                    .iter()
                    .zip(vals)
                    .zip(arrays)
                    .all(|((p, v), a)| {
                        if a.is_some() {
                            true
                        } else if exact {
                            p.ty == v.ty
                        } else {
                            // GLSL 1.20 §6.1.1: an `in` argument converts to the
                            // parameter's type, an `out` parameter converts back to the
                            // argument's on return; `inout` needs both, so only the
                            // exact type fits.
                            match p.dir {
                                ParamDir::In => types::converts_to(v.ty, p.ty, self.conversions()),
                                ParamDir::Out => types::converts_to(p.ty, v.ty, self.conversions()),
                                ParamDir::InOut => p.ty == v.ty,
                            }
                        }
                    })
        };
        if let Some(&i) = arity.iter().find(|&&i| fits(i, true)) {
            return Ok(i);
        }
        let loose: Vec<usize> = arity.iter().copied().filter(|&i| fits(i, false)).collect();
        match loose.len() {
            1 => Ok(loose[0]),
            0 => {
                let def = self.funcs[arity[0]].def;
                let got: Vec<String> = vals.iter().map(|v| v.ty.to_string()).collect();
                // An argument whose type converts one way only, where its direction
                // needs the other (or both): named with the rule.
                let out_conversion = arity.iter().any(|&i| {
                    self.funcs[i].def.params.iter().zip(vals).all(|(p, v)| {
                        p.ty == v.ty
                            || (types::converts_to(v.ty, p.ty, self.conversions())
                                || types::converts_to(p.ty, v.ty, self.conversions()))
                    })
                });
                let why = if out_conversion {
                    ": an inout argument must have its parameter's exact type, and an out \
                     parameter's type must convert to its argument's (GLSL 1.20 §6.1.1)"
                } else {
                    ""
                };
                self.err(
                    pos,
                    format!(
                        "argument type mismatch: no '{}' takes ({}){why}",
                        def.name,
                        got.join(", ")
                    ),
                )
            }
            _ => self.err(pos, "ambiguous function call"),
        }
    }

    /// Inline user function `fi` with evaluated arguments `vals`, `arrays` and the
    /// l-values `resolved` for `out`/`inout` parameters (expressions `args`): its
    /// value, and the elements of a returned array.
    fn inline(
        &mut self,
        fi: usize,
        vals: &[Value],
        arrays: &[Option<ArrayArg>],
        resolved: &[Option<ArgPlace>],
        args: &[Expr],
        pos: Pos,
    ) -> LResult<(Value, Option<Vec<Value>>)> {
        if self.funcs[fi].broken {
            return Err(Fail::Reported);
        }
        if self.calls.iter().any(|c| c.func == Some(fi)) {
            let name = self.funcs[fi].def.name.clone();
            return self.err(
                pos,
                format!("recursion is not supported: '{name}' is called while it runs"),
            );
        }
        // calls[0] is main (or the function being checked on its own).
        if self.calls.len().saturating_sub(1) >= self.limits.call_depth() {
            return self.err(
                pos,
                format!(
                    "call depth limit: user function calls nest at most {} deep",
                    self.limits.call_depth()
                ),
            );
        }
        let lowered_before = self.funcs[fi].called;
        self.funcs[fi].called = true;
        let def = self.funcs[fi].def;
        let mut places = Vec::with_capacity(vals.len());
        for (((p, a), arr), place) in def.params.iter().zip(args).zip(arrays).zip(resolved) {
            places.push(match (p.dir, arr) {
                (ParamDir::In, _) => None,
                (_, Some(arr)) => {
                    // An out array argument is an array variable, written back whole.
                    let Some(id) = arr.var else {
                        return self.err(
                            a.pos,
                            "an out or inout array argument must be an array variable",
                        );
                    };
                    let name = self.scopes.var(id).name.clone();
                    self.check_writable(id, &name, a.pos)?;
                    None
                }
                _ => match place {
                    Some(ArgPlace { target, checked }) => {
                        if !checked {
                            self.check_target_writable(a)?;
                        }
                        Some(target.clone())
                    }
                    // Not a variable: the error target() gives.
                    None => Some(self.target(a)?),
                },
            });
        }
        if lowered_before && self.em.is_dry() {
            // Code that emits nothing (a branch never taken, a function checked on its
            // own) needs a callee's errors, and the callee's body already reported them
            // the first time it was lowered. Lowering it again at every call would take
            // time exponential in the depth of a call tree (a fuzzing finding,
            // docs/robustness.md): a value of the return type stands for the result.
            if def.ret_array.is_some() {
                let n = self.ret_len(fi)?;
                return Ok((Value::void(), n.map(|n| vec![Value::temp(def.ret, 0); n])));
            }
            return Ok((
                match def.ret {
                    Type::Void => Value::void(),
                    ty => Value::temp(ty, 0),
                },
                None,
            ));
        }
        let errors = self.diags.count();
        let saved = self.scopes.hide_locals();
        self.scopes.push();
        let r = self.inline_body(fi, vals, arrays, &places);
        self.close_scope();
        self.scopes.restore(saved);
        let ctx = self.calls.pop();
        let result = r.and_then(|_| self.call_result(ctx));
        if self.diags.count() > errors && !self.em.is_dry() {
            self.funcs[fi].broken = true;
        }
        match result {
            Err(Fail::Fatal) => Err(Fail::Fatal),
            Err(_) => Err(Fail::Reported),
            Ok(_) if self.diags.count() > errors => Err(Fail::Reported),
            Ok(v) => Ok(v),
        }
    }

    /// Set up the callee context and parameters, lower the body, copy `out`
    /// parameters back. The context stays pushed for [`Lowerer::call_result`].
    fn inline_body(
        &mut self,
        fi: usize,
        vals: &[Value],
        arrays: &[Option<ArrayArg>],
        places: &[Option<Target>],
    ) -> LResult<()> {
        let def = self.funcs[fi].def;
        let frame = self.em.frame_index();
        self.calls
            .push(CallCtx::new(Some(fi), def.ret, self.cond_depth, frame));
        if let Some(n) = self.ret_len(fi)? {
            let mut temps = Vec::with_capacity(n);
            for _ in 0..n {
                temps.push(self.temp(types::cols(def.ret))?);
            }
            self.ctx().ret_elems = Some(temps);
        }
        if has_early_return(&def.body) {
            let flag = self.new_flag()?;
            self.ctx().alive = Some(flag);
            if def.ret != Type::Void && def.ret_array.is_none() {
                let t = self.temp(types::cols(def.ret))?;
                self.ctx().ret_temp = Some(t);
            }
        }
        let assigned = {
            let refs: Vec<&super::super::ast::Stmt> = def.body.iter().collect();
            self.assigned_in_stmts(&refs)
        };
        let mut params = Vec::new();
        let mut array_params = Vec::new();
        for (i, p) in def.params.iter().enumerate() {
            if let Some(Some(arr)) = arrays.get(i) {
                let id = self.bind_array_param(p, arr)?;
                array_params.push((id, arr.var.filter(|_| p.dir != ParamDir::In)));
                params.push(None);
                continue;
            }
            let v = vals.get(i).copied().unwrap_or(Value::float(0.0));
            // An `inout` parameter starts from the value its argument had when it was
            // evaluated ([`Lowerer::call_args`]).
            let initial = match p.dir {
                ParamDir::Out => Value::konst(p.ty, super::super::consteval::ConstData::ZERO),
                _ => v,
            };
            let id = self.bind_param(
                p,
                initial,
                assigned.contains(&p.name) || p.dir != ParamDir::In,
            )?;
            params.push(id);
        }
        self.block_in_scope(&def.body)?;
        // A returned variable (`return g;`) whose storage an `out`/`inout` argument is
        // copied back into below must keep the value it had at the return: the copies
        // happen after the callee returns (GLSL 1.30 §6.1.1), so give it a temporary of
        // its own (docs/robustness.md, "Differential testing", finding 3).
        if let Some(
            v @ Value {
                ty: _,
                repr: Repr::Temp(t),
            },
        ) = self.ctx().result
        {
            let mut aliased = false;
            for place in places.iter().flatten() {
                place.for_each_place(&mut |p| {
                    let var = self.scopes.var(p.var);
                    if let Some(s) = var.storage {
                        let n = types::cols(var.ty) as i16;
                        aliased |= (s..s + n.max(1)).contains(&t);
                    }
                });
            }
            if aliased {
                let own = self.snapshot(&v)?;
                self.ctx().result = Some(own);
            }
        }
        // Claim the value of an unconditional return before the copies below
        // allocate (it may sit in a temporary its statement already freed).
        if let Some(Value {
            ty,
            repr: Repr::Temp(t),
        }) = self.ctx().result
        {
            let frame = self.ctx().call_frame;
            self.em.hand_to(t, types::cols(ty) as u16, frame);
        }
        for (i, place) in places.iter().enumerate() {
            let (Some(place), Some(Some(id))) = (place, params.get(i)) else {
                continue;
            };
            let var = self.scopes.var(*id);
            let v = match (var.known, var.storage) {
                (Some(c), _) => Value::konst(var.ty, c),
                (None, Some(t)) => Value::temp(var.ty, t),
                (None, None) => Value::konst(var.ty, super::super::consteval::ConstData::ZERO),
            };
            let pos = var.pos;
            self.write_target(place, &v, pos)?;
        }
        // Out and inout arrays: element by element.
        for (id, target) in array_params {
            let (Some(id), Some(target)) = (id, target) else {
                continue;
            };
            let (Some(from), Some(to)) = (self.scopes.var(id).array, self.scopes.var(target).array)
            else {
                continue;
            };
            for k in 0..from.len as usize {
                let pos = self.scopes.var(id).pos;
                let v = self.read_var(from.first + k, pos)?;
                let ty = self.scopes.var(to.first + k).ty;
                let place = Place {
                    var: to.first + k,
                    col: None,
                    lanes: None,
                    ty,
                };
                self.write(&place, &v, pos)?;
            }
        }
        Ok(())
    }

    /// Declare an array parameter with its elements' initial values (zero for `out`).
    fn bind_array_param(&mut self, p: &Param, arr: &ArrayArg) -> LResult<Option<usize>> {
        if p.name.is_empty() {
            return Ok(None);
        }
        let mut var = self.new_var(&p.name, p.ty, VarKind::Local, p.pos);
        if p.is_const {
            var.access = Access::Const;
        }
        let Ok(id) = self.scopes.declare_array(var, arr.elems.len() as u16) else {
            return self.err(p.pos, format!("duplicate symbol '{}'", p.name));
        };
        let first = self.scopes.var(id).array.map_or(id, |a| a.first);
        for (k, e) in arr.elems.iter().enumerate() {
            if let (Repr::Sampler(slot), true) = (e.repr, p.ty.is_sampler() && e.ty == p.ty) {
                // An array of samplers passed whole (GLSL 3.30 §6.1.1: samplers are `in`
                // parameters): each element names its unit, as a sampler argument does.
                let element = self.scopes.var_mut(first + k);
                element.kind = VarKind::Sampler(slot);
                element.access = Access::ReadOnly;
                continue;
            }
            let v = match p.dir {
                ParamDir::Out => Value::konst(p.ty, super::super::consteval::ConstData::ZERO),
                _ => self.convert(e, p.ty)?,
            };
            let place = Place {
                var: first + k,
                col: None,
                lanes: None,
                ty: p.ty,
            };
            self.write(&place, &v, p.pos)?;
        }
        Ok(Some(id))
    }

    /// Declare one parameter with its initial value. Unassigned `in` parameters alias
    /// their argument unless it lives in a global the body could change.
    fn bind_param(
        &mut self,
        p: &super::super::ast::Param,
        v: Value,
        assigned: bool,
    ) -> LResult<Option<usize>> {
        if p.name.is_empty() {
            return Ok(None);
        }
        let ty = p.ty;
        let mut var = self.new_var(&p.name, ty, VarKind::Local, p.pos);
        if p.is_const {
            var.access = Access::Const;
        }
        let v = self.convert(&v, ty)?;
        let mut copy = None;
        match v.repr {
            Repr::Sampler(slot) => {
                var.kind = VarKind::Sampler(slot);
                var.access = Access::ReadOnly;
            }
            Repr::Const(c) => var.known = Some(c),
            Repr::Temp(t) => {
                if assigned || self.is_global_storage(t) {
                    copy = Some(v);
                } else {
                    var.storage = Some(t);
                }
            }
        }
        let Ok(id) = self.scopes.declare(var) else {
            return self.err(p.pos, format!("duplicate symbol '{}'", p.name));
        };
        if let Some(v) = copy {
            let t = self.ensure_storage(id)?;
            self.store_into(t, &v, ty)?;
        }
        Ok(Some(id))
    }

    /// [`Lowerer::param_len`] for a function checked on its own: a bad size is reported
    /// there and counts as one element.
    fn dry_param_len(&mut self, p: &Param) -> LResult<Option<usize>> {
        match self.param_len(p) {
            Ok(n) => Ok(n),
            Err(Fail::Fatal) => Err(Fail::Fatal),
            Err(_) => Ok(Some(1)),
        }
    }

    /// Whether temporary `t` is the storage of a global that code can assign.
    fn is_global_storage(&self, t: i16) -> bool {
        self.scopes.open[0].iter().any(|&id| {
            let v = self.scopes.var(id);
            v.access == Access::ReadWrite
                && v.storage
                    .is_some_and(|s| (s..s + types::cols(v.ty) as i16).contains(&t))
        })
    }

    /// The value of a finished call (its context popped into `ctx`), and the elements
    /// of a returned array.
    fn call_result(&mut self, ctx: Option<CallCtx>) -> LResult<(Value, Option<Vec<Value>>)> {
        let Some(ctx) = ctx else {
            return Ok((Value::void(), None));
        };
        if let Some(temps) = ctx.ret_elems {
            let n = types::cols(ctx.ret) as u16;
            let mut elems = Vec::with_capacity(temps.len());
            for t in temps {
                self.em.hand_to(t, n, ctx.call_frame);
                elems.push(Value::temp(ctx.ret, t));
            }
            return Ok((Value::void(), Some(elems)));
        }
        if ctx.ret == Type::Void {
            return Ok((Value::void(), None));
        }
        let n = types::cols(ctx.ret) as u16;
        let v = match (ctx.epoch, ctx.result, ctx.ret_temp) {
            (0, Some(v), _) => v,
            (_, _, Some(t)) => Value::temp(ctx.ret, t),
            (_, Some(v), None) => v,
            (_, None, None) => Value::konst(ctx.ret, super::super::consteval::ConstData::ZERO),
        };
        if let Repr::Temp(t) = v.repr {
            self.em.hand_to(t, n, ctx.call_frame);
        }
        Ok((v, None))
    }

    /// Check every function that was never inlined, with unknown arguments and
    /// nothing emitted.
    pub(super) fn check_uncalled(&mut self) -> LResult<()> {
        for fi in 0..self.funcs.len() {
            if self.funcs[fi].called || self.funcs[fi].broken {
                continue;
            }
            let def = self.funcs[fi].def;
            let vals: Vec<Value> = def
                .params
                .iter()
                .map(|p| match p.ty {
                    Type::Sampler2D | Type::Sampler(_) => Value {
                        ty: p.ty,
                        repr: Repr::Sampler(0),
                    },
                    ty => Value::temp(ty, 0),
                })
                .collect();
            let mut arrays = Vec::with_capacity(def.params.len());
            for p in &def.params {
                let len = self.dry_param_len(p)?;
                arrays.push(len.map(|n| ArrayArg {
                    ty: p.ty,
                    elems: vec![Value::temp(p.ty, 0); n],
                    var: None,
                }));
            }
            self.dry(|me| {
                me.funcs[fi].called = true;
                let saved = me.scopes.hide_locals();
                me.scopes.push();
                let places = vec![None; vals.len()];
                let r = me.inline_body(fi, &vals, &arrays, &places);
                me.scopes.restore(saved);
                r
            })?;
            self.funcs[fi].called = true;
        }
        Ok(())
    }
}
