//! Globals, functions and interface slot assignment (docs/csir-original.md B §1.5 and
//! §1.6).
//!
//! Symbol order is `gl_Position`, `gl_FragCoord`, then the globals in declaration
//! order; the prologue follows it. Slots: explicit `layout(location = N)` first
//! (attributes and varyings), then the lowest free location for the rest; samplers
//! take slots 0.. in order; other uniforms take consecutive vec4 slots (mat3 3,
//! mat4 4). Slot errors point at the declaration (or its location number).

use super::super::ast::{Decl, Function, Item, Param, ParamDir, Storage};
use super::super::builtin_vars::{self, Binding, Lookup};
use super::super::scope::{Access, Output, Var, VarId, VarKind};
use super::super::token::Pos;
use super::super::types;
use super::super::types::Type;
use super::super::units::same_signature;
use super::color_outputs::ColorOutputError;
use super::{FuncInfo, Lowerer};
use crate::ir::{InterfaceSymbol, Interpolation, Stage, SymbolKind};

/// The built-in functions of GLSL ES 3.00 (§8), which a shader cannot redefine or
/// overload (§6.1).
const ES3_BUILTINS: &[&str] = &[
    "radians",
    "degrees",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "pow",
    "exp",
    "log",
    "exp2",
    "log2",
    "sqrt",
    "inversesqrt",
    "abs",
    "sign",
    "floor",
    "trunc",
    "round",
    "roundEven",
    "ceil",
    "fract",
    "mod",
    "modf",
    "min",
    "max",
    "clamp",
    "mix",
    "step",
    "smoothstep",
    "isnan",
    "isinf",
    "floatBitsToInt",
    "floatBitsToUint",
    "intBitsToFloat",
    "uintBitsToFloat",
    "packSnorm2x16",
    "unpackSnorm2x16",
    "packUnorm2x16",
    "unpackUnorm2x16",
    "packHalf2x16",
    "unpackHalf2x16",
    "length",
    "distance",
    "dot",
    "cross",
    "normalize",
    "faceforward",
    "reflect",
    "refract",
    "matrixCompMult",
    "outerProduct",
    "transpose",
    "determinant",
    "inverse",
    "lessThan",
    "lessThanEqual",
    "greaterThan",
    "greaterThanEqual",
    "equal",
    "notEqual",
    "any",
    "all",
    "not",
    "textureSize",
    "texture",
    "textureProj",
    "textureLod",
    "textureOffset",
    "texelFetch",
    "texelFetchOffset",
    "textureProjOffset",
    "textureLodOffset",
    "textureProjLod",
    "textureProjLodOffset",
    "textureGrad",
    "textureGradOffset",
    "textureProjGrad",
    "textureProjGradOffset",
    "dFdx",
    "dFdy",
    "fwidth",
];

fn is_es3_builtin(name: &str) -> bool {
    ES3_BUILTINS.contains(&name)
}

/// What a global is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    Position,
    FragCoord,
    /// `gl_FrontFacing` (LOAD_FACE).
    FrontFacing,
    Uniform,
    Sampler,
    Attribute,
    VaryingIn,
    VaryingOut,
    Color,
    Private,
    Const,
    /// A geometry shader's per-vertex input array (`in vec4 v[]`, `gl_in[]`): element
    /// `k` is LOAD_VTX of vertex `k` (`lower/geometry.rs`).
    VertexIn,
    /// `gl_PrimitiveIDIn` (LOAD_PRIMID).
    PrimitiveIdIn,
}

/// One global symbol in symbol order.
#[derive(Clone, Debug)]
pub(crate) struct GlobalEntry<'a> {
    pub var: VarId,
    pub role: Role,
    pub decl: Option<&'a Decl>,
    /// Assigned slot/location (uniform vec4 slot, sampler slot, attribute location,
    /// varying slot).
    pub slot: Option<u16>,
    /// A varying's interpolation qualifier, if declared (GLSL 1.30 §4.3.6).
    pub interpolation: Option<Interpolation>,
}

impl<'a> Lowerer<'a> {
    pub(super) fn register_functions(&mut self) {
        let program = self.program;
        for item in &program.items {
            let Item::Function(f) = item else { continue };
            if f.name.starts_with("gl_") {
                self.diags
                    .error(f.pos, "names starting with gl_ are reserved");
            }
            let same = self.funcs.iter().find(|g| same_signature(g.def, f));
            if same.is_some() {
                let spec = self.program.dialect.spec();
                self.diags.error(
                    f.pos,
                    format!(
                        "duplicate symbol '{}': a function with these parameter types is \
                         already defined ({spec} §6.1)",
                        f.name
                    ),
                );
                continue;
            }
            if let Some(m) = self.missing_type(f.ret) {
                self.diags.error(f.ret_pos, m);
            }
            for p in &f.params {
                if let Some(m) = self.missing_type(p.ty) {
                    self.diags.error(p.pos, m);
                }
                self.check_array_param(p);
            }
            if f.ret.is_sampler() {
                self.diags
                    .error(f.ret_pos, "functions cannot return a sampler");
            }
            if f.ret != Type::Void && !f.body.iter().any(super::flow::contains_return) {
                self.diags
                    .error(f.pos, "function is missing a return value");
            }
            self.funcs.push(FuncInfo {
                def: f,
                called: false,
                broken: false,
            });
        }
        for item in &program.items {
            let Item::Prototype(p) = item else { continue };
            for param in &p.params {
                self.check_array_param(param);
            }
        }
        self.check_declarations();
    }

    /// The rules between the declarations of functions (prototypes and definitions),
    /// in source order:
    ///
    /// * declarations with the same parameter types are one function, and agree in
    ///   return type and in every parameter's qualifiers (GLSL 1.10 §6.1: "If a
    ///   function name is declared twice with the same parameter types, then the
    ///   return types and all qualifiers must also match");
    /// * GLSL ES 1.00 allows one prototype and one definition of a function, not two
    ///   prototypes (GLSL ES 1.00 §4.2.7);
    /// * GLSL ES 3.00 functions cannot redefine or overload a built-in function (GLSL
    ///   ES 3.00 §6.1), prototypes included. Desktop GLSL and GLSL ES 1.00 overloads
    ///   are accepted, as Mesa and glslang accept them.
    ///
    /// Two definitions of one function are reported by [`Self::register_functions`].
    /// The array sizes of `f`'s and `g`'s return types (`"[3]"`, `""` for no array)
    /// when they differ; sizes that do not fold are reported elsewhere.
    fn ret_array_mismatch(&self, f: &Function, g: &Function) -> Option<(String, String)> {
        let len = |f: &Function| {
            f.ret_array.as_ref().map(|a| {
                a.len
                    .as_deref()
                    .and_then(|e| self.global_const_int(e, &mut 0))
            })
        };
        let (a, b) = (len(f), len(g));
        let show = |n: Option<Option<i64>>| match n {
            None => String::new(),
            Some(Some(n)) => format!("[{n}]"),
            Some(None) => "[]".into(),
        };
        match (a, b) {
            (None, None) => None,
            (Some(Some(x)), Some(Some(y))) if x != y => Some((show(a), show(b))),
            (Some(_), Some(_)) => None,
            _ => Some((show(a), show(b))),
        }
    }

    fn check_declarations(&mut self) {
        let dialect = self.program.dialect;
        let spec = dialect.spec();
        let mut seen: Vec<(&Function, bool)> = Vec::new();
        for item in &self.program.items {
            let (f, is_def) = match item {
                Item::Function(f) => (f, true),
                Item::Prototype(f) => (f, false),
                _ => continue,
            };
            if dialect.is_es() && dialect.version >= 300 && is_es3_builtin(&f.name) {
                let what = if is_def { "defined" } else { "declared" };
                self.diags.error(
                    f.pos,
                    format!(
                        "function '{}' is {what} here, but '{}' is a built-in function: a \
                         shader cannot redefine or overload built-in functions (GLSL ES 3.00 \
                         §6.1)",
                        f.name, f.name
                    ),
                );
                continue;
            }
            for &(g, g_def) in &seen {
                if !same_signature(f, g) || is_def && g_def {
                    continue;
                }
                if f.ret != g.ret {
                    self.diags.error(
                        f.ret_pos,
                        format!(
                            "function return type mismatch: '{}' returns {} here and {} in \
                             its declaration at line {}; declarations with the same parameter \
                             types must agree in return type ({spec} §6.1)",
                            f.name, f.ret, g.ret, g.pos.line
                        ),
                    );
                    break;
                }
                if let Some((here, there)) = self.ret_array_mismatch(f, g) {
                    self.diags.error(
                        f.ret_pos,
                        format!(
                            "function return type mismatch: '{}' returns {}{here} here and \
                             {}{there} in its declaration at line {}; declarations with the \
                             same parameter types must agree in return type ({spec} §6.1)",
                            f.name, f.ret, g.ret, g.pos.line
                        ),
                    );
                    break;
                }
                let differs = f
                    .params
                    .iter()
                    .zip(&g.params)
                    .find(|(a, b)| a.dir != b.dir || a.is_const != b.is_const);
                if let Some((a, b)) = differs {
                    let quals = |p: &Param| {
                        let dir = match p.dir {
                            ParamDir::In => "in",
                            ParamDir::Out => "out",
                            ParamDir::InOut => "inout",
                        };
                        if p.is_const {
                            format!("const {dir}")
                        } else {
                            dir.to_string()
                        }
                    };
                    let which = match a.name.is_empty() {
                        true => String::new(),
                        false => format!(" '{}'", a.name),
                    };
                    self.diags.error(
                        a.pos,
                        format!(
                            "parameter{which} of '{}' is '{}' here and '{}' in its declaration \
                             at line {}; declarations with the same parameter types must agree \
                             in every qualifier ({spec} §6.1)",
                            f.name,
                            quals(a),
                            quals(b),
                            g.pos.line
                        ),
                    );
                    break;
                }
                if !is_def && !g_def && dialect.is_es() && dialect.version == 100 {
                    self.diags.error(
                        f.pos,
                        format!(
                            "function '{}' is declared twice (also at line {}): GLSL ES 1.00 \
                             allows one prototype and one definition of a function (GLSL ES \
                             1.00 §4.2.7)",
                            f.name, g.pos.line
                        ),
                    );
                    break;
                }
            }
            seen.push((f, is_def));
        }
    }

    /// A fragment shader writes `gl_FragColor` or `gl_FragData`, not both (GLSL 1.10
    /// §7.2: "if a shader statically assigns a value to gl_FragColor, it may not
    /// assign a value to any element of gl_FragData"); a write in dead code counts.
    pub(super) fn check_colour_writes(&mut self) {
        if self.stage != Stage::Fragment {
            return;
        }
        let [Some(color), Some(data)] = builtin_vars::colour_writes(self.program) else {
            return;
        };
        let spec = self.program.dialect.spec();
        let (pos, m) = match color < data {
            true => (
                data,
                format!(
                    "gl_FragData is written here, and gl_FragColor at line {}",
                    color.line
                ),
            ),
            false => (
                color,
                format!(
                    "gl_FragColor is written here, and gl_FragData at line {}",
                    data.line
                ),
            ),
        };
        self.diags.error(
            pos,
            format!(
                "{m}: a fragment shader that assigns gl_FragColor may not assign any \
                 element of gl_FragData ({spec} §7.2)"
            ),
        );
    }

    /// Index of `void main()`, reporting "missing main" (only for a whole stage,
    /// [`Lowerer::whole_stage`]) / "main must be void main()".
    pub(super) fn find_main(&mut self) -> Option<usize> {
        let Some(i) = self.funcs.iter().position(|f| f.def.name == "main") else {
            if self.whole_stage {
                self.diags.error(Pos::START, "missing main");
            }
            return None;
        };
        let def = self.funcs[i].def;
        if def.ret != Type::Void || !def.params.is_empty() {
            self.diags.error(def.pos, "main must be void main()");
            return None;
        }
        if self.funcs.iter().filter(|f| f.def.name == "main").count() > 1 {
            let pos = self
                .funcs
                .iter()
                .filter(|f| f.def.name == "main")
                .nth(1)
                .map(|f| f.def.pos);
            self.diags
                .error(pos.unwrap_or(Pos::START), "main must be void main()");
        }
        Some(i)
    }

    fn builtin_var(&mut self, name: &str, stage: Stage, kind: VarKind, role: Role) {
        // The geometry stage writes gl_Position as the vertex stage does.
        let available =
            self.stage == stage || (self.stage == Stage::Geometry && role == Role::Position);
        let mut v = Var::new(
            name,
            Type::Vec4,
            if available {
                kind
            } else {
                VarKind::Unavailable
            },
            Pos::START,
            0,
        );
        if role == Role::FragCoord {
            v.access = Access::ReadOnly;
        }
        let id = self.scopes.declare(v).expect("first globals");
        self.globals.push(GlobalEntry {
            var: id,
            role,
            decl: None,
            slot: None,
            interpolation: None,
        });
    }

    pub(super) fn register_globals(&mut self) {
        self.builtin_var(
            "gl_Position",
            Stage::Vertex,
            VarKind::Output(Output::Position),
            Role::Position,
        );
        self.builtin_var(
            "gl_FragCoord",
            Stage::Fragment,
            VarKind::Input,
            Role::FragCoord,
        );
        self.register_used_builtins();
        let program = self.program;
        for item in &program.items {
            let Item::Global(d) = item else { continue };
            if self.colour_redeclaration(d) {
                continue;
            }
            match self.global_role(d) {
                Some(role) => self.declare_global(d, role),
                None => {
                    // Declared but poisoned: its uses do not repeat the error.
                    let mut v = Var::new(&d.name, d.ty, VarKind::Global, d.pos, 0);
                    v.poisoned = true;
                    let _ = self.scopes.declare(v);
                }
            }
        }
    }

    /// Declare the built-in variables ([`builtin_vars`]) the program uses, in order of
    /// first use, with their roles and fixed attribute locations. Names that cannot be
    /// used are left undeclared: a use reports why ([`Self::unknown_name`]).
    fn register_used_builtins(&mut self) {
        let (stage, dialect) = (self.stage, self.program.dialect);
        let redeclared = |name: &str| {
            self.program
                .items
                .iter()
                .any(|i| matches!(i, Item::Global(d) if d.name == name))
        };
        for name in builtin_vars::names_used(self.program) {
            let Ok(Lookup::Mapped(b)) = builtin_vars::lookup(name, stage, dialect) else {
                continue;
            };
            if b.binding == Binding::FrontFacing && !self.limits.extended_ops() {
                // Undeclared: a use reports the profile (`Self::unknown_name`).
                continue;
            }
            if b.array == Some(0) && redeclared(name) {
                // A sized redeclaration (GLSL 1.10 §7.6) declares it instead.
                continue;
            }
            let (role, kind, access) = match b.binding {
                Binding::Attribute(_) | Binding::VertexInput => {
                    (Role::Attribute, VarKind::Input, Access::ReadOnly)
                }
                Binding::Varying if stage == Stage::Vertex => (
                    Role::VaryingOut,
                    VarKind::Output(Output::Varying(0)),
                    Access::ReadWrite,
                ),
                Binding::Varying => (Role::VaryingIn, VarKind::Input, Access::ReadOnly),
                Binding::Uniform => (Role::Uniform, VarKind::Input, Access::ReadOnly),
                Binding::Color => (
                    Role::Color,
                    VarKind::Output(Output::Color(0)),
                    Access::ReadWrite,
                ),
                Binding::FrontFacing => (Role::FrontFacing, VarKind::Input, Access::ReadOnly),
                Binding::NoEffect => (Role::Private, VarKind::Global, Access::ReadWrite),
                Binding::PrimitiveIdIn => (Role::PrimitiveIdIn, VarKind::Input, Access::ReadOnly),
            };
            let mut v = Var::new(b.name, b.ty, kind, Pos::START, 0);
            v.access = access;
            let declared = match b.array {
                Some(0) => {
                    let len = builtin_vars::implicit_len(self.program, name);
                    self.scopes.declare_array(v, len)
                }
                Some(len) => self.scopes.declare_array(v, len),
                None => self.scopes.declare(v),
            };
            let Ok(id) = declared else { continue };
            let slot = match b.binding {
                Binding::Attribute(location) => Some(location),
                _ => None,
            };
            // A colour redeclared with an interpolation qualifier (checked by
            // `colour_redeclaration`) takes it.
            let interpolation = match role {
                Role::VaryingIn | Role::VaryingOut => self.program.items.iter().find_map(|i| {
                    match i {
                        Item::Global(d) if d.name == name => d.quals.interpolation,
                        _ => None,
                    }
                    .map(|(q, _)| q)
                }),
                _ => None,
            };
            self.globals.push(GlobalEntry {
                var: id,
                role,
                decl: None,
                slot,
                interpolation,
            });
        }
    }

    /// Whether `d` redeclares one of the built-in colours the shade model governs
    /// (`gl_FrontColor`, ... in the vertex shader, `gl_Color`, `gl_SecondaryColor` in
    /// the fragment shader), which GLSL 1.30 allows in order to give it an
    /// interpolation qualifier: `flat out vec4 gl_FrontColor;`, `flat in vec4
    /// gl_Color;`. Such a declaration declares nothing new (the built-in takes its
    /// qualifier when used); one of the wrong shape is reported here.
    fn colour_redeclaration(&mut self, d: &Decl) -> bool {
        let vertex = self.stage == Stage::Vertex;
        let colour = if vertex {
            builtin_vars::is_clamped_color(&d.name)
        } else {
            matches!(d.name.as_str(), "gl_Color" | "gl_SecondaryColor")
        };
        let dialect = self.program.dialect;
        // Only to give an interpolation qualifier, which GLSL 1.30 introduced; any
        // other redeclaration stays "names starting with gl_ are reserved".
        let qualified = d.quals.interpolation.is_some() && dialect.version >= 130;
        if !colour || !dialect.has_compatibility_builtins() || !qualified {
            return false;
        }
        let q = &d.quals;
        let storage_ok = match q.storage {
            Storage::Varying => true,
            Storage::Out => vertex,
            Storage::In => !vertex,
            _ => false,
        };
        let shape_ok = storage_ok
            && d.ty == Type::Vec4
            && d.array.is_none()
            && d.init.is_none()
            && q.location.is_none();
        if !shape_ok {
            let storage = if vertex { "out" } else { "in" };
            let m = format!(
                "{} may only be redeclared as '[smooth|flat|noperspective] {storage} vec4 {};' \
                 (GLSL 1.30 §4.3.6)",
                d.name, d.name
            );
            self.diags.error(d.pos, m);
        } else if let Some((q, pos)) = q.interpolation {
            self.check_interpolation_dialect(q, pos);
        }
        true
    }

    /// Reports an interpolation qualifier the dialect does not have: GLSL ES has
    /// `smooth` and `flat` from 3.00 and no `noperspective` (GLSL ES 3.00 §4.3.9).
    /// (Before desktop GLSL 1.30 the three words are ordinary names.)
    fn check_interpolation_dialect(&mut self, q: Interpolation, pos: Pos) {
        let dialect = self.program.dialect;
        if !dialect.is_es() {
            return;
        }
        if q == Interpolation::NoPerspective {
            self.diags.error(
                pos,
                "'noperspective' is not part of GLSL ES (GLSL ES 3.00 §4.3.9 has smooth \
                 and flat only)",
            );
        } else if dialect.version < 300 {
            let m = format!("'{}' needs GLSL ES 3.00", q.keyword());
            self.diags.error(pos, m);
        }
    }

    /// Check a global declaration's qualifiers and type; its role, or `None` after an error.
    fn global_role(&mut self, d: &Decl) -> Option<Role> {
        let q = &d.quals;
        let err = |s: &mut Self, pos: Pos, m: &str| {
            s.diags.error(pos, m);
            None
        };
        if d.ty == Type::Void {
            return err(self, d.ty_pos, "void variable");
        }
        if let Some(m) = self.missing_type(d.ty) {
            return err(self, d.ty_pos, &m);
        }
        // GLSL 1.10 §7.6: gl_TexCoord may be redeclared, as a varying array, to size it.
        let texcoord_size = d.name == "gl_TexCoord"
            && self.program.dialect.has_compatibility_builtins()
            && matches!(q.storage, Storage::Varying | Storage::In | Storage::Out)
            && d.ty == Type::Vec4
            && d.array.is_some();
        // GLSL 1.30 §7.1: so may gl_ClipDistance, as a vertex output float array.
        let clip_size = d.name == "gl_ClipDistance"
            && self.stage == Stage::Vertex
            && !self.program.dialect.is_es()
            && self.program.dialect.version >= 130
            && matches!(q.storage, Storage::Varying | Storage::Out)
            && d.ty == Type::Float
            && d.array.is_some();
        if d.name == "gl_ClipDistance" && self.stage == Stage::Fragment {
            return err(
                self,
                d.pos,
                "gl_ClipDistance is not supported in a fragment shader: the clip distances \
                 are used by the clipper and do not reach the fragment stage",
            );
        }
        if d.name.starts_with("gl_") && !texcoord_size && !clip_size && !self.is_gl_in(d) {
            return err(self, d.pos, "names starting with gl_ are reserved");
        }
        let sampler = d.ty.is_sampler();
        if sampler && q.storage != Storage::Uniform {
            return err(self, d.ty_pos, "sampler2D must be a uniform");
        }
        if let (Some(lp), Storage::Uniform | Storage::Const | Storage::None) =
            (q.layout_pos, q.storage)
        {
            return err(
                self,
                lp,
                "layout(location) is only supported on inputs and outputs",
            );
        }
        let io = matches!(
            q.storage,
            Storage::In | Storage::Out | Storage::Attribute | Storage::Varying
        );
        if let Some(init) = &d.init {
            if q.storage == Storage::Uniform && d.ty.is_sampler() {
                return err(self, init.pos, "a sampler cannot have an initializer");
            }
            if io {
                return err(
                    self,
                    init.pos,
                    "shader inputs and outputs cannot have an initializer",
                );
            }
        }
        let vertex = self.stage == Stage::Vertex;
        let dialect = self.program.dialect;
        match q.storage {
            Storage::Attribute if !vertex => {
                return err(
                    self,
                    q.storage_pos,
                    "'attribute' declares a vertex shader input; a fragment shader reads \
                     'varying' (or 'in') variables",
                );
            }
            Storage::In | Storage::Out if !dialect.has_in_out_globals() => {
                let word = if q.storage == Storage::In {
                    "in"
                } else {
                    "out"
                };
                let instead = match (q.storage, vertex) {
                    (Storage::In, true) => "attribute",
                    _ => "varying",
                };
                let m = format!(
                    "'{word}' at global scope needs GLSL 1.30 or GLSL ES 3.00; {dialect} \
                     declares this with '{instead}'"
                );
                return err(self, q.storage_pos, &m);
            }
            _ => {}
        }
        let role = match q.storage {
            Storage::Attribute => Role::Attribute,
            Storage::Varying if vertex => Role::VaryingOut,
            Storage::Varying => Role::VaryingIn,
            Storage::Uniform if sampler => Role::Sampler,
            Storage::Uniform => Role::Uniform,
            Storage::In if self.stage == Stage::Geometry => Role::VertexIn,
            Storage::Out if self.stage == Stage::Geometry => Role::VaryingOut,
            Storage::In if vertex => Role::Attribute,
            Storage::In => Role::VaryingIn,
            Storage::Out if vertex => Role::VaryingOut,
            Storage::Out => Role::Color,
            Storage::Const => Role::Const,
            Storage::None => Role::Private,
        };
        if let Some(pos) = q.centroid
            && matches!(role, Role::Attribute | Role::Color)
        {
            let (what, rule) = match role {
                Role::Attribute => ("centroid in' in a vertex shader", "§4.3.4"),
                _ => ("centroid out' in a fragment shader", "§4.3.6"),
            };
            let spec = dialect.spec();
            let m = format!(
                "'{}' cannot be declared '{what}: centroid qualifies interpolated values, \
                 the vertex shader's outputs and the fragment shader's inputs ({spec} {rule})",
                d.name
            );
            return err(self, pos, &m);
        }
        if let Some((which, pos)) = q.interpolation {
            if !matches!(role, Role::VaryingIn | Role::VaryingOut | Role::VertexIn) {
                let m = format!(
                    "'{}' qualifies the outputs of a vertex shader and the inputs of a \
                     fragment shader only (GLSL 1.30 §4.3.6)",
                    which.keyword()
                );
                return err(self, pos, &m);
            }
            self.check_interpolation_dialect(which, pos);
        }
        if let Some(size) = &d.array {
            match role {
                Role::Attribute | Role::Color => {
                    return err(
                        self,
                        size.pos,
                        "arrays of vertex inputs and fragment outputs are not supported",
                    );
                }
                _ => {}
            }
        }
        if let (Some((_, pos)), false) = (q.index, role == Role::Color) {
            return err(
                self,
                pos,
                "layout(index = N) is only allowed on a fragment shader output \
                 (GLSL 3.30 §4.3.8.2)",
            );
        }
        match role {
            Role::Attribute if d.ty.is_matrix() => {
                return err(self, d.ty_pos, "matrix attributes are not supported");
            }
            Role::Attribute if types::is_boolean(d.ty) => {
                return err(self, d.ty_pos, "vertex inputs cannot be bool");
            }
            Role::VaryingIn | Role::VaryingOut | Role::VertexIn => {
                if types::is_boolean(d.ty) {
                    return err(self, d.ty_pos, "varyings cannot be bool");
                }
                // GLSL 1.50 §4.3.4 asks it of fragment inputs (GLSL 1.30 §4.3.6 asked
                // it of vertex outputs; piglit and Mesa apply the 1.50 rule to 1.30
                // too, as a fix made for geometry shaders); GLSL ES 3.00 §4.3.6 of
                // both vertex outputs and fragment inputs.
                let fragment_input = role == Role::VaryingIn && self.stage == Stage::Fragment;
                let es_vertex_output = role == Role::VaryingOut
                    && self.stage == Stage::Vertex
                    && self.program.dialect.is_es();
                if d.ty.is_integer()
                    && (fragment_input || es_vertex_output)
                    && q.interpolation.map(|(q, _)| q) != Some(Interpolation::Flat)
                {
                    let (what, rule) = match fragment_input {
                        true if self.program.dialect.is_es() => {
                            ("fragment shader input", "GLSL ES 3.00 §4.3.4")
                        }
                        true => ("fragment shader input", "GLSL 1.50 §4.3.4"),
                        false => ("vertex shader output", "GLSL ES 3.00 §4.3.6"),
                    };
                    return err(
                        self,
                        d.ty_pos,
                        &format!("an integer {what} must be qualified 'flat' ({rule})"),
                    );
                }
            }
            Role::Color => {
                match q.index {
                    Some((index, pos)) if index > 1 => {
                        return err(
                            self,
                            pos,
                            &format!(
                                "layout(index = {index}): a fragment output's index is 0 \
                                 or 1 (GLSL 3.30 §4.3.8.2; 1 is the second source of \
                                 dual-source blending)"
                            ),
                        );
                    }
                    Some((1, pos)) if q.location.map(|(l, _)| l) != Some(0) => {
                        return err(
                            self,
                            pos,
                            "layout(index = 1), the second source of dual-source blending, \
                             needs layout(location = 0) (GL 3.3 §4.1.8: \
                             GL_MAX_DUAL_SOURCE_DRAW_BUFFERS is 1)",
                        );
                    }
                    _ => {}
                }
                if let Some(m) = self.color_output_error(d, q.location) {
                    let at = match m {
                        ColorOutputError::Type(_) => d.ty_pos,
                        ColorOutputError::Location(_, pos) => pos,
                        ColorOutputError::Other(_) => d.pos,
                    };
                    return err(self, at, &m.message());
                }
            }
            Role::Const if d.init.is_none() => {
                return err(self, d.pos, "a const variable needs an initializer");
            }
            _ => {}
        }
        Some(role)
    }

    fn declare_global(&mut self, d: &'a Decl, role: Role) {
        let (kind, access) = match role {
            Role::Uniform | Role::Attribute | Role::VaryingIn | Role::VertexIn => {
                (VarKind::Input, Access::ReadOnly)
            }
            Role::Sampler => (VarKind::Sampler(0), Access::ReadOnly),
            Role::VaryingOut => (VarKind::Output(Output::Varying(0)), Access::ReadWrite),
            Role::Color => (VarKind::Output(Output::Color(0)), Access::ReadWrite),
            Role::Const => (VarKind::Global, Access::Const),
            _ => (VarKind::Global, Access::ReadWrite),
        };
        let mut v = Var::new(&d.name, d.ty, kind, d.pos, 0);
        v.access = access;
        if matches!(role, Role::Private | Role::Const) {
            // Never-assigned privates read as zero, like the original's zeroed temps.
            v.known = Some(super::super::consteval::ConstData::ZERO);
        }
        if self.funcs.iter().any(|f| f.def.name == d.name) {
            self.diags.error(
                d.pos,
                format!("duplicate symbol '{}': a function has this name", d.name),
            );
            return;
        }
        let declared = match &d.array {
            Some(size) => match self.global_array_len(d, size) {
                Some(len)
                    if d.name == "gl_ClipDistance" && len > builtin_vars::MAX_CLIP_DISTANCES
                        || d.name == "gl_TexCoord" && len > builtin_vars::MAX_TEXTURE_COORDS =>
                {
                    let (limit, most, rule) = match d.name.as_str() {
                        "gl_ClipDistance" => (
                            "gl_MaxClipDistances",
                            builtin_vars::MAX_CLIP_DISTANCES,
                            "GLSL 1.30 §7.1",
                        ),
                        _ => (
                            "gl_MaxTextureCoords",
                            builtin_vars::MAX_TEXTURE_COORDS,
                            "GLSL 1.10 §7.6",
                        ),
                    };
                    let m = format!(
                        "{} has at most {limit} ({most}) elements, not {len} ({rule})",
                        d.name
                    );
                    self.diags.error(size.pos, m);
                    v.poisoned = true;
                    let _ = self.scopes.declare(v);
                    return;
                }
                Some(len) => self.scopes.declare_array(v, len),
                None => {
                    v.poisoned = true;
                    let _ = self.scopes.declare(v);
                    return;
                }
            },
            None => self.scopes.declare(v),
        };
        match declared {
            Ok(id) => self.globals.push(GlobalEntry {
                var: id,
                role,
                decl: Some(d),
                slot: None,
                interpolation: d.quals.interpolation.map(|(q, _)| q),
            }),
            Err(_) => self
                .diags
                .error(d.pos, format!("duplicate symbol '{}'", d.name)),
        }
    }

    /// docs/csir-original.md B §1.6: explicit locations, then free ones, samplers,
    /// uniforms.
    pub(super) fn assign_slots(&mut self) {
        let n_attr = self.limits.attributes;
        let n_var = self.limits.varyings;
        let mut attr_used = vec![false; n_attr];
        let mut var_used = vec![false; n_var];
        // A geometry shader's inputs are slots of their own, apart from its outputs.
        let mut vtx_used = vec![false; n_var];
        for g in &self.globals {
            // Built-in attributes sit at fixed locations (builtin_vars.rs).
            if let (None, Role::Attribute, Some(loc)) = (g.decl, g.role, g.slot)
                && let Some(used) = attr_used.get_mut(loc as usize)
            {
                *used = true;
            }
        }
        for i in 0..self.globals.len() {
            let g = &self.globals[i];
            let Some((loc, pos)) = g.decl.and_then(|d| d.quals.location) else {
                continue;
            };
            if g.role == Role::Color {
                // Checked when declared (`color_output_error`): below the draw-buffer
                // count, one output per location.
                let index = g
                    .decl
                    .and_then(|d| d.quals.index)
                    .map_or(0, |(x, _)| x as u16);
                self.globals[i].slot = Some(SymbolKind::color_store_aux(loc as u16, index) as u16);
                continue;
            }
            let (used, message) = match g.role {
                Role::Attribute => (&mut attr_used, "attribute location conflict"),
                Role::VaryingIn | Role::VaryingOut => (&mut var_used, "location conflict"),
                Role::VertexIn => (&mut vtx_used, "location conflict"),
                _ => continue,
            };
            let loc = loc as usize;
            if loc >= used.len() || used[loc] {
                self.diags.error(pos, message);
                continue;
            }
            used[loc] = true;
            self.globals[i].slot = Some(loc as u16);
        }
        let (mut next_sampler, mut next_uniform) = (0usize, 0usize);
        for i in 0..self.globals.len() {
            let g = &self.globals[i];
            let pos = g.decl.map_or(Pos::START, |d| d.pos);
            let ty = self.scopes.var(g.var).ty;
            let slot = match g.role {
                Role::VertexIn if self.is_gl_in_position(g) => None,
                Role::Attribute | Role::VaryingIn | Role::VaryingOut | Role::VertexIn
                    if g.slot.is_none() =>
                {
                    let (used, message) = match g.role {
                        Role::Attribute => (&mut attr_used, "too many attributes"),
                        Role::VertexIn => (&mut vtx_used, "too many varyings"),
                        _ => (&mut var_used, "too many varyings"),
                    };
                    // A matrix takes a slot per column, an array a run per element
                    // (a geometry input's elements are vertices: one run for all).
                    let len = match g.role {
                        Role::VertexIn => 1,
                        _ => self.scopes.var(g.var).array.map_or(1, |a| a.len as usize),
                    };
                    let n = ty.columns() as usize * len;
                    let free = (0..used.len().saturating_sub(n - 1))
                        .find(|&s| used[s..s + n].iter().all(|u| !u));
                    match free {
                        Some(s) => {
                            used[s..s + n].iter_mut().for_each(|u| *u = true);
                            Some(s)
                        }
                        None => {
                            let limit = used.len();
                            let m = if n > 1 {
                                format!(
                                    "{message}: '{}' needs {n} consecutive slots and the \
                                     limit is {limit}",
                                    self.scopes.var(g.var).name
                                )
                            } else {
                                format!("{message} (the limit is {limit})")
                            };
                            self.diags.error(pos, m);
                            None
                        }
                    }
                }
                Role::Sampler => {
                    // An array of samplers takes a unit per element (GLSL 3.30 §4.1.7).
                    let len = self.scopes.var(g.var).array.map_or(1, |a| a.len as usize);
                    next_sampler += len;
                    if next_sampler > self.limits.samplers {
                        let name = &self.scopes.var(g.var).name;
                        let m = format!(
                            "too many samplers: '{name}' would be sampler {next_sampler} and \
                             the limit is {}",
                            self.limits.samplers
                        );
                        self.diags.error(pos, m);
                        None
                    } else {
                        Some(next_sampler - len)
                    }
                }
                Role::Uniform if self.uniform_alias(i).is_some() => {
                    self.uniform_alias(i).map(|s| s as usize)
                }
                Role::Uniform => {
                    let first = next_uniform;
                    let len = self.scopes.var(g.var).array.map_or(1, |a| a.len as usize);
                    next_uniform += ty.columns() as usize * len;
                    if next_uniform > self.limits.uniform_slots {
                        let m = format!(
                            "too many uniforms: with '{}' they take {next_uniform} vec4 slots \
                             and the limit is {}",
                            self.scopes.var(g.var).name,
                            self.limits.uniform_slots
                        );
                        self.diags.error(pos, m);
                        None
                    } else {
                        Some(first)
                    }
                }
                _ => g.slot.map(|s| s as usize),
            };
            self.globals[i].slot = slot.map(|s| s as u16);
            let var = self.globals[i].var;
            let v = self.scopes.var_mut(var);
            match (self.globals[i].role, slot) {
                (Role::Sampler, Some(s)) => {
                    v.kind = VarKind::Sampler(s as u16);
                    if let Some(arr) = v.array {
                        for k in 0..arr.len as usize {
                            self.scopes.var_mut(arr.first + k).kind =
                                VarKind::Sampler((s + k) as u16);
                        }
                    }
                }
                (Role::Color, _) => {
                    v.kind = VarKind::Output(Output::Color(self.globals[i].slot.unwrap_or(0)));
                }
                (Role::VaryingOut, Some(s)) => {
                    v.kind = VarKind::Output(Output::Varying(s as u16));
                    if let Some(arr) = v.array {
                        let cols = v.ty.columns() as usize;
                        for k in 0..arr.len as usize {
                            let slot = (s + k * cols) as u16;
                            self.scopes.var_mut(arr.first + k).kind =
                                VarKind::Output(Output::Varying(slot));
                        }
                    }
                }
                _ => {}
            }
        }
        self.build_interface();
    }

    /// The name global `g` has in the interface: its declaration's
    /// [`Decl::iface_root`] (a variable made from an interface block) or its own.
    fn interface_name(&self, g: &GlobalEntry<'_>) -> String {
        match g.decl.and_then(|d| d.iface_root.as_ref()) {
            Some(root) => root.clone(),
            None => self.scopes.var(g.var).name.clone(),
        }
    }

    /// The slot of an earlier uniform that global `i` (a uniform) is another name of:
    /// one with the same interface name, type and size, as a uniform block declared in
    /// several compilation units with different instance names is (`lang/blocks.rs`).
    fn uniform_alias(&self, i: usize) -> Option<u16> {
        let g = &self.globals[i];
        let d = g.decl?;
        d.iface_root.as_ref()?;
        let (var, key) = (self.scopes.var(g.var), Self::alias_key(d));
        self.globals[..i].iter().find_map(|h| {
            let e = h.decl?;
            let other = self.scopes.var(h.var);
            let same = h.role == Role::Uniform
                && e.iface_root.is_some()
                && Self::alias_key(e) == key
                && other.ty == var.ty
                && other.array.map(|a| a.len) == var.array.map(|a| a.len);
            if same { h.slot } else { None }
        })
    }

    /// What makes two block uniforms the same: their interface names.
    fn alias_key(d: &Decl) -> (Option<&String>, Vec<&str>) {
        let names = d.iface_names.iter().map(|n| n.name.as_str()).collect();
        (d.iface_root.as_ref(), names)
    }

    fn build_interface(&mut self) {
        let mut iface = crate::ir::Interface::default();
        for (i, g) in self.globals.iter().enumerate() {
            if g.role == Role::Uniform && self.uniform_alias(i).is_some() {
                // Another name of an earlier uniform: its symbol is there already.
                continue;
            }
            let var = self.scopes.var(g.var);
            let (name, ty) = (self.interface_name(g), var.ty);
            if g.role == Role::Color {
                // A colour output at its location (`gl_FragData` is its one-element
                // array, at location 0).
                iface.symbols.push(InterfaceSymbol {
                    name,
                    ty: ty.ir(),
                    array_len: None,
                    kind: SymbolKind::ColorOut {
                        location: g.slot.unwrap_or(0) % 8,
                        index: g.slot.unwrap_or(0) / 8,
                    },
                    interpolation: None,
                });
                continue;
            }
            let Some(slot) = g.slot else {
                continue;
            };
            if g.role == Role::VertexIn {
                iface.symbols.push(self.vertex_input_symbol(g, name, slot));
                continue;
            }
            let hi = |h: &mut i16, v: i16| *h = (*h).max(v);
            // `mat2` and the non-square matrices are not CSIR types: such a uniform (or
            // an array of them) is recorded as the array of its columns (the same vec4
            // slots, column-major, so a scene sets it by name with its floats in GL's
            // order).
            let varying = matches!(g.role, Role::VaryingIn | Role::VaryingOut);
            let array_len = match var.array {
                // A varying matrix takes one slot per column, like an array of them.
                a if varying && ty.is_matrix() => {
                    Some(ty.columns() as u16 * a.map_or(1, |a| a.len))
                }
                // An array of them is the array of all their columns, element k's
                // first at k·columns (GL's order for the whole array's floats).
                a if ty.stored_by_column() => Some(ty.columns() as u16 * a.map_or(1, |a| a.len)),
                a => a.map(|a| a.len),
            };
            let sym_ty = if varying && ty.is_matrix() {
                Type::float_vec(ty.width()).ir()
            } else {
                ty.ir()
            };
            let kind = match g.role {
                Role::Uniform => {
                    let slots = ty.ir().columns() as u16 * array_len.unwrap_or(1);
                    hi(&mut iface.uni_hi, (slot + slots - 1) as i16);
                    SymbolKind::Uniform { slot }
                }
                Role::Sampler => {
                    let sampler = ty.sampler_type().unwrap_or_default();
                    if let Some(len) = var.array.map(|a| a.len) {
                        // An array of samplers: a symbol per element, by OpenGL's name
                        // (`tex[2]`), each its own unit (GLSL 3.30 §4.1.7).
                        hi(&mut iface.samp_hi, (slot + len - 1) as i16);
                        for k in 0..len {
                            iface.symbols.push(InterfaceSymbol {
                                name: format!("{name}[{k}]"),
                                ty: sym_ty,
                                array_len: None,
                                kind: SymbolKind::Sampler {
                                    slot: slot + k,
                                    sampler,
                                },
                                interpolation: None,
                            });
                        }
                        continue;
                    }
                    hi(&mut iface.samp_hi, slot as i16);
                    SymbolKind::Sampler { slot, sampler }
                }
                Role::Attribute => {
                    hi(&mut iface.attr_hi, slot as i16);
                    SymbolKind::Attribute { location: slot }
                }
                Role::VaryingIn => {
                    hi(
                        &mut iface.var_hi,
                        (slot + array_len.unwrap_or(1) - 1) as i16,
                    );
                    SymbolKind::VaryingIn { slot }
                }
                Role::VaryingOut => {
                    hi(
                        &mut iface.var_hi,
                        (slot + array_len.unwrap_or(1) - 1) as i16,
                    );
                    SymbolKind::VaryingOut { slot }
                }
                _ => continue,
            };
            let names = g.decl.map_or(&[][..], |d| &d.iface_names[..]);
            if let (SymbolKind::Uniform { slot }, false) = (kind, names.is_empty()) {
                // A member of an array of structs: one symbol per element, by OpenGL's
                // name (`lights[2].pos`), over its part of the flattened array's slots.
                let cols = ty.columns() as u16;
                for n in names {
                    let array_len = if ty.stored_by_column() {
                        Some(cols * n.len.unwrap_or(1))
                    } else {
                        n.len
                    };
                    iface.symbols.push(InterfaceSymbol {
                        name: n.name.clone(),
                        ty: sym_ty,
                        array_len,
                        kind: SymbolKind::Uniform {
                            slot: slot + n.first * cols,
                        },
                        interpolation: None,
                    });
                }
                continue;
            }
            iface.symbols.push(InterfaceSymbol {
                name,
                ty: sym_ty,
                array_len,
                kind,
                interpolation: if varying { g.interpolation } else { None },
            });
        }
        self.check_interface_names(&iface);
        self.interface = iface;
    }

    /// Every interface name must fit CSI v2's one-byte length
    /// ([`crate::csi::MAX_SYMBOL_NAME`] bytes), so that whatever compiles can be saved.
    /// A declared name is at most 255 characters (the lexer's limit), but a flattened
    /// struct member's (`lights[2].material.diffuse`) joins several.
    fn check_interface_names(&mut self, iface: &crate::ir::Interface) {
        let max = crate::csi::MAX_SYMBOL_NAME;
        for sym in iface.symbols.iter().filter(|s| s.name.len() > max) {
            let pos = self
                .globals
                .iter()
                .filter_map(|g| g.decl)
                .find(|d| d.name == sym.name || d.iface_names.iter().any(|n| n.name == sym.name))
                .map_or_else(Default::default, |d| d.pos);
            let shown: String = sym.name.chars().take(40).collect();
            self.diags.error(
                pos,
                format!(
                    "interface name `{shown}...` is {} bytes long; a shader's uniform, \
                     input and output names are at most {max} bytes (CSI v2 stores each \
                     with a one-byte length)",
                    sym.name.len()
                ),
            );
        }
    }
}
