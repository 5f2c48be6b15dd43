//! Semantic analysis and lowering to CSIR in one walk (docs/csir-original.md B §1.5–§1.12
//! and the docs/csir.md "Semantic prologue", with the fixes of docs/csir-original.md A2).
//!
//! The walk checks every construct and emits CSIR for it, folding what is known at
//! compile time (constants are materialized only when an instruction needs them),
//! unrolling `for` loops, and inlining user functions. Control flow is structured
//! (IF/ELSE/ENDIF): early `return`, `break` and `continue` clear an "alive" flag and
//! the statements after them are wrapped in `IF alive`.
//!
//! Errors: each statement that fails is reported and skipped ([`Fail::Reported`]); a
//! pool overflow or the error limit stops everything ([`Fail::Fatal`]). A variable
//! whose declaration failed is *poisoned*: uses fail silently, so one mistake gives one
//! diagnostic.

mod arith;
mod arrays;
mod assign;
mod builtins;
pub(crate) use builtins::is_builtin;
mod call;
mod color_outputs;
mod const_expr;
mod constructors;
mod emit;
mod expr;
mod flow;
mod geometry;
mod global_const;
mod interface;
mod ints;
mod logic;
mod logs;
mod loops;
mod math;
mod ops;
mod prologue;
mod stmt;
mod switch;
#[cfg(test)]
mod tests;
mod texture_gl33;
mod trig;
mod value;

use super::ast::{Function, Program};
use super::diagnostic::Diagnostics;
use super::scope::Scopes;
use super::token::Pos;
use super::types::{self, Type};
use crate::ir::{Interface, Ir, Limits, PoolError, Stage};
use emit::Emitter;
use value::Value;

/// Most statements and expression nodes lowered per compile (unrolled and inlined
/// copies included): bounds compile time for loops whose bodies fold away.
pub const MAX_WORK: u64 = 200_000;

/// Variables, instructions and immediates whose copy counts as one unit of
/// [`MAX_WORK`] ([`Lowerer::charge_copy`]).
pub const COPY_ITEMS_PER_UNIT: u64 = 64;

/// Deepest recursion of the lowering (expressions, statements and inlined calls
/// together): bounds stack use whatever the input. Above what one function body can
/// reach ([`crate::lang::parser::MAX_NESTING`] levels plus
/// [`crate::lang::parser::MAX_OPERATOR_CHAIN`] chained operators), so only inlined
/// calls nested inside deep expressions meet it.
pub const MAX_LOWER_NESTING: usize = 400;

/// How a lowering step failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fail {
    /// An error was reported; skip the current statement and go on.
    Reported,
    /// Stop lowering altogether (pool overflow, error limit, work limit).
    Fatal,
}

pub(crate) type LResult<T> = Result<T, Fail>;

/// A user function and what the lowering learned about it.
#[derive(Debug)]
pub(crate) struct FuncInfo<'a> {
    pub def: &'a Function,
    /// Inlined (or checked) at least once.
    pub called: bool,
    /// Its body produced errors: later calls fail silently.
    pub broken: bool,
}

/// State of the function being inlined (or `main`).
#[derive(Clone, Debug)]
pub(crate) struct CallCtx {
    /// Index in `funcs`, `None` for `main` and the global initializers.
    pub func: Option<usize>,
    /// Declared return type.
    pub ret: Type,
    /// Conditional depth at entry: a `return` at this depth is unconditional.
    pub base_depth: u32,
    /// The caller's statement frame (receives the call's value).
    pub call_frame: usize,
    /// "Still running" flag, when the body has early returns.
    pub alive: Option<i16>,
    /// Where early returns leave their value.
    pub ret_temp: Option<i16>,
    /// For a function returning an array: one temporary per element, where every
    /// `return` leaves the elements (GLSL 1.20 §6.1).
    pub ret_elems: Option<Vec<i16>>,
    /// The value of an unconditional `return`.
    pub result: Option<Value>,
    /// An unconditional `return` was lowered: the rest is dead.
    pub returned: bool,
    /// Bumped at every early return (the enclosing blocks must wrap their rest).
    pub epoch: u32,
    /// Open loops of this function, innermost last.
    pub loops: Vec<LoopCtx>,
}

/// State of one loop (`for`, `while`, `do`) being unrolled.
#[derive(Clone, Debug)]
pub(crate) struct LoopCtx {
    /// Conditional depth of the current iteration's body.
    pub base_depth: u32,
    /// Cleared by `break` (and early `return`): later iterations are skipped.
    pub loop_alive: Option<i16>,
    /// Cleared by `continue`, `break` and `return`: the rest of the iteration is skipped.
    pub iter_alive: Option<i16>,
    /// Bumped whenever `iter_alive` is cleared.
    pub epoch: u32,
    /// Bumped whenever `loop_alive` is cleared.
    pub loop_epoch: u32,
    /// An unconditional `break` ended the loop.
    pub broke: bool,
    /// An unconditional `continue` ended the iteration.
    pub continued: bool,
    /// A conditional `continue` happened in the current iteration: the paths that
    /// took it rejoin at its end, so what follows is a real branch (see `flow.rs`).
    pub cont_cond: bool,
    /// `spec_open` when the current iteration's body started.
    pub spec_base: u32,
    /// Variables with a smaller id were declared before the loop.
    pub first_var: usize,
    /// Names the loop may assign (condition, step and body, following calls).
    pub names: std::rc::Rc<std::collections::HashSet<String>>,
    /// Some test of the condition, or some `break`, depended on run-time values.
    pub runtime: bool,
    /// A `switch` (see `switch.rs`): the target of `break` but not of `continue`.
    pub switch: bool,
}

/// The lowering state for one compile.
pub(crate) struct Lowerer<'a> {
    pub stage: Stage,
    pub limits: Limits,
    pub diags: Diagnostics,
    pub em: Emitter,
    pub scopes: Scopes,
    pub funcs: Vec<FuncInfo<'a>>,
    pub calls: Vec<CallCtx>,
    /// Open IFs, emitted or not (a write deeper than a variable's declaration goes
    /// through its storage).
    pub cond_depth: u32,
    /// Emitted IFs currently open (bounded by `Limits::if_depth`).
    pub if_depth: usize,
    /// Open "speculative" IFs: the wraps that skip the rest of a loop for the paths
    /// that left it (`break`, `return`). They do not deepen `cond_depth` for writes:
    /// a variable keeps its compile-time value on the paths still running, and every
    /// exit first stores the values its path leaves with (see `flow.rs`).
    pub spec_open: u32,
    /// Position used for pool errors: the construct being lowered.
    pub pos: Pos,
    pub work: u64,
    pub nesting: usize,
    /// The built-in call being expanded, with its argument types: what "wrong
    /// arguments" names ([`Lowerer::wrong_arguments`]).
    pub builtin_call: Option<(&'static str, Vec<Type>)>,
    pub interface: Interface,
    pub program: &'a Program,
    /// Globals in symbol order, with their roles and slots.
    pub globals: Vec<interface::GlobalEntry<'a>>,
    /// Variables that a call in the current statement may assign (a global written
    /// by the callee, an `out` argument): reads of their storage are copied so that
    /// operands evaluated before the call keep their value (GLSL evaluation order).
    pub volatile: std::collections::HashSet<String>,
    /// Whether the rules of a whole stage apply: `main` must be defined and a vertex
    /// shader must write `gl_Position`. `false` for a compilation unit compiled alone
    /// ([`crate::compile_unit_alone`]).
    pub whole_stage: bool,
    /// Open contexts whose expression GLSL requires to be a constant expression (a
    /// `const` or ES global initializer, an array size, a case label): a division by
    /// a known zero there is "division by zero" under every profile.
    pub constant_required: u32,
}

/// A saved lowering state ([`Lowerer::checkpoint`]).
pub(crate) struct Checkpoint<'a> {
    em: Emitter,
    scopes: Scopes,
    calls: Vec<CallCtx>,
    depths: (u32, usize, u32),
    diags: Diagnostics,
    funcs: Vec<(bool, bool)>,
    interface: Interface,
    volatile: std::collections::HashSet<String>,
    _marker: std::marker::PhantomData<&'a ()>,
}

/// What [`lower`] produces for a program without errors.
pub(crate) struct Lowered {
    pub ir: Vec<Ir>,
    pub imm: Vec<f32>,
    pub ntmp: u16,
    pub interface: Interface,
}

/// Check and lower a parsed program. Errors go to `diags`; `None` when any was found.
pub(crate) fn lower(
    program: &Program,
    stage: Stage,
    limits: &Limits,
    diags: Diagnostics,
    whole_stage: bool,
    needs_position: bool,
) -> (Option<Lowered>, Diagnostics) {
    let mut lw = Lowerer {
        stage,
        limits: *limits,
        diags,
        em: Emitter::new(*limits),
        scopes: Scopes::new(),
        funcs: Vec::new(),
        calls: Vec::new(),
        cond_depth: 0,
        if_depth: 0,
        spec_open: 0,
        pos: Pos::START,
        work: 0,
        nesting: 0,
        builtin_call: None,
        interface: Interface::default(),
        program,
        globals: Vec::new(),
        volatile: Default::default(),
        whole_stage,
        constant_required: 0,
    };
    let _ = lw.run();
    if lw.diags.is_empty() {
        for (pos, m) in lw.em.overflows() {
            lw.diags.error(pos, m);
        }
    }
    if whole_stage
        && needs_position
        && lw.diags.is_empty()
        && stage == Stage::Vertex
        && !lw.interface.writes_position
    {
        // GLSL 1.10 §7.1: gl_Position "must" be written; its value is undefined
        // otherwise, so every vertex would land somewhere undefined.
        let main = lw.funcs.iter().find(|f| f.def.name == "main");
        let pos = main.map_or(Pos::START, |f| f.def.pos);
        lw.diags.error(
            pos,
            "the vertex shader never writes gl_Position (GLSL 1.10 §7.1: its value, \
             and so every vertex's position, would be undefined)",
        );
    }
    if !lw.diags.is_empty() {
        return (None, lw.diags);
    }
    let (ir, imm, ntmp) = lw.em.finish();
    let out = Lowered {
        ir,
        imm,
        ntmp,
        interface: lw.interface,
    };
    (Some(out), lw.diags)
}

impl<'a> Lowerer<'a> {
    /// The whole compile after parsing: globals and slots, the prologue, global
    /// initializers, `main`, then every function that was never inlined.
    fn run(&mut self) -> LResult<()> {
        self.register_functions();
        self.register_globals();
        self.check_colour_writes();
        self.assign_slots();
        let main = self.find_main();
        if !self.diags.is_empty() {
            // Interface errors make the prologue meaningless; still check the bodies.
            self.em.enter_dry();
        }
        self.prologue()?;
        self.calls.push(CallCtx::new(None, Type::Void, 0, 0));
        self.global_initializers()?;
        if let Some(main) = main {
            self.funcs[main].called = true;
            self.ctx().func = Some(main);
            let body = &self.funcs[main].def.body;
            if flow::has_early_return(body) {
                let flag = self.new_flag()?;
                self.ctx().alive = Some(flag);
            }
            self.scopes.push();
            self.block_in_scope(body)?;
            self.close_scope();
        }
        self.calls.pop();
        self.check_uncalled()?;
        Ok(())
    }

    /// Report `message` at `pos` and fail the current statement.
    pub(crate) fn err<T>(&mut self, pos: Pos, message: impl Into<String>) -> LResult<T> {
        self.diags.error(pos, message);
        if self.diags.full() {
            return Err(Fail::Fatal);
        }
        Err(Fail::Reported)
    }

    /// Report a pool that reached even the counting capacity (the seed's pools are
    /// checked at the end, see `emit.rs`) at the construct being lowered.
    pub(crate) fn pool(&mut self, e: PoolError) -> Fail {
        let pos = self.pos;
        let m = self.em.exhausted(e);
        self.diags.error(pos, m);
        Fail::Fatal
    }

    /// Emit one record.
    pub(crate) fn emit(&mut self, ir: Ir) -> LResult<()> {
        self.em.emit(ir).map_err(|e| self.pool(e))
    }

    /// `n` temporaries owned by the current statement.
    pub(crate) fn temp(&mut self, n: u8) -> LResult<i16> {
        self.em.temp(n as u16).map_err(|e| self.pool(e))
    }

    /// Count one unit of work; fails past [`MAX_WORK`].
    pub(crate) fn tick(&mut self, pos: Pos) -> LResult<()> {
        self.pos = pos;
        self.em.pos = pos;
        self.add_work(pos, 1)
    }

    /// Count the work of copying the lowering's state (a [`Lowerer::checkpoint`]
    /// before a loop, a [`Lowerer::dry`] run): one unit plus one per
    /// [`COPY_ITEMS_PER_UNIT`] variables, instructions and immediates copied. A loop
    /// whose body folds away still declares its variables again in every unrolled
    /// iteration, so the state grows and each copy costs more than the last: counted
    /// this way, nested loops around such a body meet the work limit in time as well
    /// as in units (a `shader_test` fuzzing finding, docs/robustness.md).
    pub(crate) fn charge_copy(&mut self, pos: Pos) -> LResult<()> {
        let items = (self.scopes.vars.len() + self.em.state_len()) as u64;
        self.add_work(pos, 1 + items / COPY_ITEMS_PER_UNIT)
    }

    fn add_work(&mut self, pos: Pos, units: u64) -> LResult<()> {
        self.work += units;
        if self.work > MAX_WORK {
            self.diags.error(
                pos,
                format!(
                    "shader exceeds the compile-time work limit ({MAX_WORK} units: statements and \
                         expression nodes lowered, unrolled and inlined copies included)"
                ),
            );
            return Err(Fail::Fatal);
        }
        Ok(())
    }

    /// Enter one level of recursion; fails past [`MAX_LOWER_NESTING`].
    pub(crate) fn enter(&mut self, pos: Pos) -> LResult<()> {
        self.nesting += 1;
        if self.nesting > MAX_LOWER_NESTING {
            self.nesting -= 1;
            self.diags.error(
                pos,
                format!(
                    "nesting limit exceeded: expressions, statements and the bodies of \
                     the functions they call nest more than {MAX_LOWER_NESTING} levels \
                     deep here, the limit is {MAX_LOWER_NESTING}"
                ),
            );
            return Err(Fail::Fatal);
        }
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.nesting -= 1;
    }

    /// Run `f` without emitting anything (checking code that never executes), then
    /// restore every variable and function state. Only a fatal failure propagates.
    pub(crate) fn dry(&mut self, f: impl FnOnce(&mut Self) -> LResult<()>) -> LResult<()> {
        self.charge_copy(self.pos)?;
        let scopes = self.scopes.clone();
        let calls = self.calls.clone();
        let (cond, ifs) = (self.cond_depth, self.if_depth);
        self.em.enter_dry();
        let r = f(self);
        self.em.leave_dry();
        self.scopes = scopes;
        self.calls = calls;
        self.cond_depth = cond;
        self.if_depth = ifs;
        match r {
            Err(Fail::Fatal) => Err(Fail::Fatal),
            _ => Ok(()),
        }
    }

    /// The conditional depth that decides whether a write is a branch of its
    /// variable's declaration: IFs minus the speculative loop wraps.
    pub(crate) fn write_depth(&self) -> u32 {
        self.cond_depth - self.spec_open
    }

    /// A new variable declared here (its depth for writes and the speculative wraps
    /// open at its declaration).
    pub(crate) fn new_var(
        &self,
        name: &str,
        ty: Type,
        kind: super::scope::VarKind,
        pos: Pos,
    ) -> super::scope::Var {
        let mut v = super::scope::Var::new(name, ty, kind, pos, self.write_depth());
        v.spec = self.spec_open;
        v
    }

    /// Save everything the lowering of a statement can change, to lower it again
    /// differently (a loop that turns out to need its exit flags).
    pub(crate) fn checkpoint(&self) -> Checkpoint<'a> {
        Checkpoint {
            em: self.em.clone(),
            scopes: self.scopes.clone(),
            calls: self.calls.clone(),
            depths: (self.cond_depth, self.if_depth, self.spec_open),
            diags: self.diags.clone(),
            funcs: self.funcs.iter().map(|f| (f.called, f.broken)).collect(),
            interface: self.interface.clone(),
            volatile: self.volatile.clone(),
            _marker: std::marker::PhantomData,
        }
    }

    /// Go back to a [`Lowerer::checkpoint`] (the work counter keeps counting).
    pub(crate) fn restore(&mut self, c: Checkpoint<'a>) {
        self.em = c.em;
        self.scopes = c.scopes;
        self.calls = c.calls;
        (self.cond_depth, self.if_depth, self.spec_open) = c.depths;
        self.diags = c.diags;
        for (f, (called, broken)) in self.funcs.iter_mut().zip(c.funcs) {
            f.called = called;
            f.broken = broken;
        }
        self.interface = c.interface;
        self.volatile = c.volatile;
    }

    /// "`what`: a FROM value cannot become TO", with the dialect's rule when the missing
    /// implicit int → float conversion is why.
    pub(crate) fn mismatch(&self, what: &str, from: Type, to: Type) -> String {
        let int_to_float = super::types::base(from) == super::types::Base::Int
            && super::types::base(to) == super::types::Base::Float
            && from.width() == to.width()
            && !to.is_matrix();
        let mut m = format!("{what}: a value of type {from} cannot become {to}");
        if int_to_float && !self.int_to_float() {
            m += &format!(
                " ({} has no implicit int to float conversion; write {to}(...))",
                self.program.dialect
            );
        }
        m
    }

    /// Whether this shader's dialect converts int to float implicitly.
    pub(crate) fn int_to_float(&self) -> bool {
        self.program.dialect.implicit_int_to_float()
    }

    /// The implicit conversions in effect: the dialect's int → float, and the seed's
    /// numeric booleans under the seed profile only ([`types::Conversions`]).
    pub(crate) fn conversions(&self) -> types::Conversions {
        types::Conversions {
            int_to_float: self.int_to_float(),
            numeric_bools: !self.limits.extended_ops(),
        }
    }

    /// The innermost function context.
    pub(crate) fn ctx(&mut self) -> &mut CallCtx {
        self.calls.last_mut().expect("a function context is open")
    }
}

impl CallCtx {
    pub(crate) fn new(
        func: Option<usize>,
        ret: Type,
        base_depth: u32,
        call_frame: usize,
    ) -> CallCtx {
        CallCtx {
            func,
            ret,
            base_depth,
            call_frame,
            alive: None,
            ret_temp: None,
            ret_elems: None,
            result: None,
            returned: false,
            epoch: 0,
            loops: Vec::new(),
        }
    }
}
