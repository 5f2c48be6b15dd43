//! Variables and lexical scopes (docs/csir-original.md B §1.5, with A2's lexical scoping:
//! an inlined function sees the globals and its own scopes, never its caller's locals).

use super::consteval::ConstData;
use super::token::Pos;
use super::types::Type;

/// Which stage output a variable is, and so which store follows each write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// `gl_Position` (STORE_POS).
    Position,
    /// A vertex `out` at a varying slot (STORE_VAR).
    Varying(u16),
    /// A fragment colour output at its `layout(location)` (STORE_COLOR with `aux` =
    /// the location, the draw buffer it writes: GL 3.3 §4.2.1).
    Color(u16),
}

/// What a variable is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// A local variable or parameter.
    Local,
    /// A private global variable or global constant.
    Global,
    /// A uniform, attribute, varying input or `gl_FragCoord`: loaded by the prologue.
    Input,
    /// A sampler uniform at a sampler slot.
    Sampler(u16),
    /// A stage output: written through its storage, then stored.
    Output(Output),
    /// A built-in variable of the other stage (using it is an error).
    Unavailable,
}

/// Why a variable cannot be assigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Assignable.
    ReadWrite,
    /// `const`: "cannot assign to const".
    Const,
    /// Uniforms, inputs, samplers, `gl_FragCoord`: "invalid assignment".
    ReadOnly,
    /// The variable of a `for` loop inside its body: "cannot assign the loop variable".
    LoopVariable,
}

/// One declared variable.
#[derive(Clone, Debug)]
pub struct Var {
    /// Source name.
    pub name: String,
    /// Declared type.
    pub ty: Type,
    /// Kind.
    pub kind: VarKind,
    /// Assignability.
    pub access: Access,
    /// First storage temporary (columns follow), once it has one.
    pub storage: Option<i16>,
    /// Whether the storage is this variable's own (freed when its scope closes) rather
    /// than an alias of an argument or interface register.
    pub owns_storage: bool,
    /// The value, while it is known at compile time (docs/csir-original.md B §1.11
    /// "known", tracked here with respect to control flow, A2).
    pub known: Option<ConstData>,
    /// The storage holds the known value (it was materialized before a branch).
    pub synced: bool,
    /// Conditional depth at the declaration: writes at a deeper depth happen in a
    /// branch and must go through the storage.
    pub depth: u32,
    /// Speculative loop wraps open at the declaration (`Lowerer::spec_open`): a
    /// variable declared outside one never moves to a new temporary inside it.
    pub spec: u32,
    /// An error was reported for its declaration: uses are silently poisoned.
    pub poisoned: bool,
    /// Where it was declared.
    pub pos: Pos,
    /// An array: its elements are the variables declared right after it.
    pub array: Option<ArrayInfo>,
}

/// The elements of an array variable (GLSL 3.30 §4.1.9). Each element is a variable of
/// its own, named `name[k]` (a name no source identifier can take), declared in the
/// same scope right after the array, so known values, storage and branch
/// materialization work per element exactly as for scalars and vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrayInfo {
    /// Number of elements.
    pub len: u16,
    /// Id of element 0; element k is `first + k`.
    pub first: VarId,
}

/// The source name a variable belongs to: `a` for the element `a[2]`.
pub fn root_name(name: &str) -> &str {
    name.split('[').next().unwrap_or(name)
}

impl Var {
    /// A fresh variable with no storage and no known value.
    pub fn new(name: &str, ty: Type, kind: VarKind, pos: Pos, depth: u32) -> Var {
        Var {
            name: name.to_string(),
            ty,
            kind,
            access: Access::ReadWrite,
            storage: None,
            owns_storage: false,
            known: None,
            synced: false,
            depth,
            spec: 0,
            poisoned: false,
            pos,
            array: None,
        }
    }
}

/// Index of a variable in [`Scopes::vars`].
pub type VarId = usize;

/// All variables ever declared plus the stack of open scopes (scope 0 = globals).
#[derive(Clone, Debug, Default)]
pub struct Scopes {
    /// Every variable, by id.
    pub vars: Vec<Var>,
    /// Open scopes, innermost last; each lists its variables in declaration order.
    pub open: Vec<Vec<VarId>>,
}

/// Redeclaration in the same scope ("duplicate symbol").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Duplicate;

impl Scopes {
    /// Only the global scope.
    pub fn new() -> Scopes {
        Scopes {
            vars: Vec::new(),
            open: vec![Vec::new()],
        }
    }

    /// Declare `var` in the innermost scope.
    pub fn declare(&mut self, var: Var) -> Result<VarId, Duplicate> {
        let scope = self.open.last().expect("global scope");
        if scope.iter().any(|&id| self.vars[id].name == var.name) {
            return Err(Duplicate);
        }
        let id = self.vars.len();
        self.vars.push(var);
        self.open.last_mut().expect("global scope").push(id);
        Ok(id)
    }

    /// Declare an array of `len` elements shaped like `var` (an element is `var` with
    /// the name `NAME[k]`); returns the array's id.
    pub fn declare_array(&mut self, var: Var, len: u16) -> Result<VarId, Duplicate> {
        let element = var.clone();
        let id = self.declare(var)?;
        let first = self.vars.len();
        for k in 0..len {
            let mut e = element.clone();
            e.name = format!("{}[{k}]", element.name);
            self.declare(e)?;
        }
        self.vars[id].array = Some(ArrayInfo { len, first });
        Ok(id)
    }

    /// The innermost visible variable called `name`.
    pub fn lookup(&self, name: &str) -> Option<VarId> {
        self.open
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .copied()
            .find(|&id| self.vars[id].name == name)
    }

    /// Open a scope.
    pub fn push(&mut self) {
        self.open.push(Vec::new());
    }

    /// Close the innermost scope (never the global one); returns its variables.
    pub fn pop(&mut self) -> Vec<VarId> {
        if self.open.len() > 1 {
            self.open.pop().unwrap_or_default()
        } else {
            Vec::new()
        }
    }

    /// Hide every scope but the globals (entering an inlined function); returns them
    /// for [`Scopes::restore`].
    pub fn hide_locals(&mut self) -> Vec<Vec<VarId>> {
        self.open.split_off(1)
    }

    /// Close whatever the callee left open and bring back the caller's scopes.
    pub fn restore(&mut self, saved: Vec<Vec<VarId>>) {
        self.open.truncate(1);
        self.open.extend(saved);
    }

    /// The variable with id `id`.
    pub fn var(&self, id: VarId) -> &Var {
        &self.vars[id]
    }

    /// The variable with id `id`, mutably.
    pub fn var_mut(&mut self, id: VarId) -> &mut Var {
        &mut self.vars[id]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(name: &str) -> Var {
        Var::new(name, Type::Float, VarKind::Local, Pos::START, 0)
    }

    #[test]
    fn shadowing_duplicates_and_lexical_hiding() {
        let mut s = Scopes::new();
        let g = s.declare(v("g")).unwrap();
        s.push();
        let a = s.declare(v("a")).unwrap();
        assert_eq!(s.declare(v("a")), Err(Duplicate));
        s.push();
        let a2 = s.declare(v("a")).unwrap();
        assert_eq!(s.lookup("a"), Some(a2));
        let saved = s.hide_locals();
        assert_eq!(s.lookup("a"), None);
        assert_eq!(s.lookup("g"), Some(g));
        s.restore(saved);
        assert_eq!(s.pop(), vec![a2]);
        assert_eq!(s.lookup("a"), Some(a));
    }

    #[test]
    fn array_elements_follow_their_array() {
        let mut s = Scopes::new();
        let a = s.declare_array(v("arr"), 3).unwrap();
        let info = s.var(a).array.unwrap();
        assert_eq!(info.len, 3);
        assert_eq!(s.var(info.first + 2).name, "arr[2]");
        assert_eq!(root_name(&s.var(info.first + 2).name), "arr");
        assert_eq!(s.lookup("arr"), Some(a));
        assert_eq!(s.declare(v("arr")), Err(Duplicate));
    }
}
