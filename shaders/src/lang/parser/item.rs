//! Global items: declarations, functions, prototypes, qualifiers and types.

use super::super::ast::{
    ArraySize, Block, Decl, Function, Item, Member, Param, ParamDir, Program, Qualifiers, Storage,
    StructDef,
};
use super::super::token::{Keyword, Pos, Punct, TokenKind, keyword_text};
use super::super::types::Type;
use super::{PResult, Parser};
use crate::ir::Interpolation;

/// `layout(row_major) uniform;`: a default every later block would inherit.
const ROW_MAJOR_DEFAULT: &str = "a default row_major layout for uniform blocks is not \
                                 supported; qualify the block or its members instead";

/// The message for a layout qualifier csir-render does not know.
const LAYOUT_ONLY: &str = "only layout(location = N), layout(index = N) on a fragment \
                           output and the uniform block layouts (std140, shared, packed, \
                           row_major, column_major) are supported";

impl Parser<'_, '_> {
    pub(super) fn program(&mut self) -> Program {
        let mut items = Vec::new();
        let mut geometry = super::super::ast::GeometryDecls::default();
        while !self.at_eof() && !self.diags.full() {
            if self.eat_punct(Punct::Semi) {
                continue;
            }
            if self.at_geometry_layout() {
                if self.geometry_layout(&mut geometry, items.len()).is_err() {
                    self.recover();
                }
                continue;
            }
            if self.is_punct(Punct::RBrace) {
                let _ = self.fail::<()>("unexpected '}'");
                self.advance();
                continue;
            }
            let before = self.at;
            match self.global_item(&mut items) {
                Ok(()) => {}
                Err(_) => {
                    self.recover();
                    if self.at == before {
                        self.advance();
                    }
                }
            }
        }
        self.block_names(&items);
        Program {
            items,
            dialect: Default::default(),
            structs: std::mem::take(&mut self.structs),
            float_without_precision: std::mem::take(&mut self.float_without_precision),
            geometry,
        }
    }

    /// GLSL 1.50 §4.3.7: a block name is declared once per storage qualifier in a
    /// shader, and an instance name is a variable name of the global scope, which no
    /// other global may have.
    fn block_names(&mut self, items: &[Item]) {
        let spec = self.spec();
        for (k, item) in items.iter().enumerate() {
            let Item::Block(b) = item else { continue };
            let twin = items[..k].iter().find_map(|i| match i {
                Item::Block(a) if a.name == b.name && a.storage == b.storage => Some(a.pos),
                _ => None,
            });
            if let Some(first) = twin {
                self.diags.error(
                    b.pos,
                    format!(
                        "interface block '{}' is declared a second time in this shader (the \
                         first at {}:{}; {spec} §4.3.7)",
                        b.name, first.line, first.col
                    ),
                );
                continue;
            }
            let Some((inst, inst_pos)) = &b.instance else {
                continue;
            };
            let clash = items.iter().enumerate().find_map(|(j, i)| match i {
                Item::Global(d) if d.name == *inst => Some(d.pos),
                Item::Function(f) | Item::Prototype(f) if f.name == *inst => Some(f.pos),
                Item::Block(a) if j < k && a.instance.as_ref().is_some_and(|(n, _)| n == inst) => {
                    a.instance.as_ref().map(|(_, p)| *p)
                }
                _ => None,
            });
            if let Some(other) = clash {
                self.diags.error(
                    *inst_pos,
                    format!(
                        "redeclaration of '{inst}': the instance name of block '{}' is a \
                         global name, already declared at {}:{} ({spec} §4.3.7)",
                        b.name, other.line, other.col
                    ),
                );
            }
        }
    }

    fn global_item(&mut self, items: &mut Vec<Item>) -> PResult<()> {
        if self.is_keyword(Keyword::Precision) {
            return self.precision_statement();
        }
        if self.is_keyword(Keyword::Invariant)
            && matches!(self.peek_kind(1), TokenKind::Ident(_))
            && matches!(
                self.peek_kind(2),
                TokenKind::Punct(Punct::Semi | Punct::Comma, _)
            )
        {
            // `invariant gl_Position;` redeclares outputs as invariant (GLSL 3.30
            // §4.6.1): no effect here (see `Keyword::Invariant`), but a name declared
            // before as something other than an input or output cannot be.
            self.advance();
            loop {
                let (name, pos) = self.name()?;
                let earlier = items.iter().find_map(|i| match i {
                    Item::Global(d) if d.name == name => Some(d.quals.storage),
                    _ => None,
                });
                if let Some(storage) = earlier
                    && !matches!(storage, Storage::In | Storage::Out | Storage::Varying)
                {
                    let spec = self.spec();
                    return self.fail_at(
                        pos,
                        format!(
                            "'invariant {name}': '{name}' is not an input or output of the \
                             shader, and only those can be invariant ({spec} §4.6.1)"
                        ),
                    );
                }
                if !self.eat_punct(Punct::Comma) {
                    break;
                }
            }
            return self.expect(Punct::Semi, "expected ';'");
        }
        let quals = self.qualifiers(true)?;
        if let TokenKind::Ident(n) = self.kind()
            && self.struct_named(n).is_none()
            && matches!(self.peek_kind(1), TokenKind::Punct(Punct::LBrace, _))
        {
            let block = self.interface_block(quals)?;
            items.push(Item::Block(block));
            return Ok(());
        }
        if let Some(pos) = quals.centroid
            && !matches!(quals.storage, Storage::In | Storage::Out | Storage::Varying)
        {
            // (Not for block members, which have their block's storage.)
            let spec = self.spec();
            return self.fail_at(
                pos,
                format!(
                    "'centroid' qualifies in, out and varying declarations only, and stands \
                     just before them ({spec} §4.3)"
                ),
            );
        }
        if let Some(pos) = quals.invariant
            && !matches!(quals.storage, Storage::In | Storage::Out | Storage::Varying)
        {
            let spec = self.spec();
            let what = match quals.storage {
                Storage::Uniform => "a uniform",
                Storage::Const => "a constant",
                Storage::Attribute => "a vertex attribute",
                _ => "a variable that is neither an input nor an output",
            };
            return self.fail_at(
                pos,
                format!(
                    "'invariant' cannot qualify {what}: only the outputs of a shader (and \
                     the inputs that receive them) can be invariant ({spec} §4.6.1)"
                ),
            );
        }
        if quals.storage == Storage::Uniform
            && (quals.block_layout.is_some() || quals.matrix_layout.is_some())
            && self.eat_punct(Punct::Semi)
        {
            // `layout(std140) uniform;` sets the default layout of later blocks (GLSL
            // 1.40 §4.3.8); only `row_major` would change a value.
            if let Some((true, pos)) = quals.matrix_layout {
                return self.fail_at(pos, ROW_MAJOR_DEFAULT);
            }
            return Ok(());
        }
        if let Some(pos) = quals.block_layout.or(quals.matrix_layout.map(|(_, p)| p)) {
            return self.fail_at(
                pos,
                "std140, shared, packed, row_major and column_major qualify uniform blocks \
                 and their members only (GLSL 1.40 §4.3.8)",
            );
        }
        let (ty, ty_pos) = self.type_name()?;
        let type_array = self.opt_array_size()?;
        if matches!(ty, Type::Struct(_)) && type_array.is_none() && self.eat_punct(Punct::Semi) {
            // `struct S { ... };` defines the type only.
            self.check_precision(quals.precision, ty, ty_pos, "variable", "")?;
            if quals.storage != Storage::None {
                return self.fail_at(
                    quals.storage_pos,
                    "a struct definition without a variable cannot have qualifiers",
                );
            }
            return Ok(());
        }
        let (name, pos) = self.name()?;
        let what = match self.is_punct(Punct::LParen) {
            true => "return type of function",
            false => "variable",
        };
        self.check_precision(quals.precision, ty, ty_pos, what, &name)?;
        self.one_declaration_per_name(&name, pos)?;
        if self.is_punct(Punct::LParen) {
            if quals.storage != Storage::None
                || quals.layout_pos.is_some()
                || quals.interpolation.is_some()
            {
                return self.fail_at(quals.storage_pos, "functions cannot have qualifiers");
            }
            if let Some(a) = &type_array {
                let d = self.dialect;
                if d.version <= 110 || (d.is_es() && d.version == 100) {
                    return self.fail_at(
                        a.pos,
                        format!(
                            "function '{name}' returns an array: {d} allows arrays as \
                             arguments but not as the return type ({d} §6.1; GLSL 1.20 \
                             and GLSL ES 3.00 allow it)"
                        ),
                    );
                }
                if matches!(ty, Type::Struct(_)) {
                    return self.fail_at(
                        a.pos,
                        format!("function '{name}' returns an array of structs: not supported"),
                    );
                }
                if a.len.is_none() {
                    return self.fail_at(
                        a.pos,
                        format!(
                            "function '{name}' returns an array without a size: a return \
                             type's array size is a constant expression (GLSL 1.20 §4.1.9, §6.1)"
                        ),
                    );
                }
            }
            self.global_names.push(name.clone());
            let f = self.function(ty, ty_pos, type_array, name, pos)?;
            items.push(f);
            return Ok(());
        }
        let first = items.len();
        let declared = self.declarators(quals, (ty, ty_pos, type_array), name, pos, |d| {
            items.push(Item::Global(d))
        });
        for item in &items[first..] {
            if let Item::Global(d) = item {
                self.one_declaration_per_name(&d.name, d.pos)?;
                self.global_names.push(d.name.clone());
            }
        }
        declared
    }

    /// GLSL ES 1.00 §4.2.7: a name is declared once per scope, so a global variable or
    /// function cannot have the name of a struct declared at global scope, nor a
    /// global struct the name of a variable or function declared before it.
    fn one_declaration_per_name(&mut self, name: &str, pos: Pos) -> PResult<()> {
        if !(self.dialect.is_es() && self.dialect.version == 100) {
            return Ok(());
        }
        if self.global_structs.iter().any(|s| s == name) {
            return self.fail_at(
                pos,
                format!(
                    "'{name}' is already the name of a struct in this scope: GLSL ES 1.00 \
                     declares a name once per scope (GLSL ES 1.00 §4.2.7)"
                ),
            );
        }
        Ok(())
    }

    /// Parse `name [size] [= init] {, name [size] [= init]} ;` after the first name,
    /// calling `out` for each declarator. `ty` is the type, its position and the size
    /// written after it (`float[3] a;`), which every declarator shares.
    pub(super) fn declarators(
        &mut self,
        quals: Qualifiers,
        ty: (Type, Pos, Option<ArraySize>),
        mut name: String,
        mut pos: Pos,
        mut out: impl FnMut(Decl),
    ) -> PResult<()> {
        let (ty, ty_pos, type_array) = ty;
        loop {
            let mut array = type_array.clone();
            if let Some(own) = self.opt_array_size()? {
                if array.is_some() {
                    return self.fail_at(own.pos, "arrays of arrays are not supported");
                }
                array = Some(own);
            }
            let init = if self.eat_punct(Punct::Assign) {
                Some(self.expr()?)
            } else {
                None
            };
            out(Decl {
                quals,
                ty,
                ty_pos,
                name,
                pos,
                array,
                init,
                iface_names: Vec::new(),
                iface_root: None,
            });
            if self.eat_punct(Punct::Comma) {
                (name, pos) = self.name()?;
                continue;
            }
            return self.expect(Punct::Semi, "expected ';'");
        }
    }

    /// `[N]` or `[]` if the next token is `[` (a second one is an array of arrays).
    pub(super) fn opt_array_size(&mut self) -> PResult<Option<ArraySize>> {
        if !self.is_punct(Punct::LBracket) {
            return Ok(None);
        }
        let pos = self.pos();
        self.advance();
        let len = if self.eat_punct(Punct::RBracket) {
            None
        } else {
            let e = self.expr()?;
            self.expect(Punct::RBracket, "expected ']'")?;
            Some(Box::new(e))
        };
        if self.is_punct(Punct::LBracket) {
            return self.fail("arrays of arrays are not supported");
        }
        Ok(Some(ArraySize { len, pos }))
    }

    /// Qualifiers: `invariant`, `layout(...)`, one interpolation qualifier (`smooth`,
    /// `flat`, `noperspective`), `centroid`, one of `in out uniform const attribute
    /// varying`, precision qualifiers. `global` is false for locals, where only `const`
    /// and precision are accepted.
    ///
    /// Before GLSL 4.20 the qualifiers come in a fixed order (GLSL 1.20 to 3.30 and
    /// GLSL ES §4.7): invariant, interpolation, storage, precision, with `centroid`
    /// just before `in`, `out` or `varying` (§4.3) and `layout(...)` anywhere before
    /// the storage qualifier (as Mesa and glslang accept). Interpolation qualifiers do
    /// not apply to `varying` (GLSL 1.30 §4.3).
    pub(super) fn qualifiers(&mut self, global: bool) -> PResult<Qualifiers> {
        let mut q = Qualifiers {
            storage: Storage::None,
            storage_pos: self.pos(),
            location: None,
            index: None,
            layout_pos: None,
            interpolation: None,
            block_layout: None,
            matrix_layout: None,
            precision: None,
            centroid: None,
            invariant: None,
        };
        // The latest class of qualifier seen and its word, for the order.
        let mut last: Option<(Rank, &'static str)> = None;
        loop {
            let pos = self.pos();
            let rank = match self.kind() {
                TokenKind::Keyword(Keyword::Invariant) => Some((Rank::Invariant, "invariant")),
                TokenKind::Keyword(Keyword::Interpolation(w)) => {
                    Some((Rank::Interpolation, w.keyword()))
                }
                TokenKind::Keyword(Keyword::Layout) => Some((Rank::Interpolation, "layout")),
                TokenKind::Keyword(Keyword::Centroid) => Some((Rank::Centroid, "centroid")),
                TokenKind::Keyword(Keyword::PrecisionQualifier) if self.has_precision() => {
                    Some((Rank::Precision, "the precision qualifier"))
                }
                TokenKind::Keyword(
                    k @ (Keyword::In
                    | Keyword::Out
                    | Keyword::Uniform
                    | Keyword::Const
                    | Keyword::Attribute
                    | Keyword::Varying),
                ) => Some((Rank::Storage, keyword_text(*k))),
                _ => None,
            };
            if let Some((rank, word)) = rank {
                if let Some((before, prev)) = last
                    && rank < before
                {
                    let rule = self.order_rule();
                    let prev = match prev.starts_with("the ") {
                        true => prev.to_string(),
                        false => format!("'{prev}'"),
                    };
                    return self.fail(format!(
                        "'{word}' cannot follow {prev}: qualifiers come in the order \
                         invariant, interpolation, storage, precision, with centroid just \
                         before in, out or varying ({rule})"
                    ));
                }
                // `layout(...)` goes anywhere before the storage qualifier.
                if word != "layout" {
                    last = Some((rank, word));
                }
            }
            let storage = match self.kind() {
                TokenKind::Keyword(Keyword::In) => Storage::In,
                TokenKind::Keyword(Keyword::Out) => Storage::Out,
                TokenKind::Keyword(Keyword::Uniform) => Storage::Uniform,
                TokenKind::Keyword(Keyword::Const) => Storage::Const,
                TokenKind::Keyword(Keyword::Attribute) => Storage::Attribute,
                TokenKind::Keyword(Keyword::Varying) => Storage::Varying,
                TokenKind::Keyword(Keyword::InOut) => return self.fail("unsupported qualifier"),
                TokenKind::Keyword(Keyword::Interpolation(which)) => {
                    let which = *which;
                    if !global {
                        return self.fail("qualifiers are only valid at global scope");
                    }
                    if q.interpolation.is_some() {
                        return self.fail("only one interpolation qualifier is allowed");
                    }
                    q.interpolation = Some((which, pos));
                    self.advance();
                    continue;
                }
                TokenKind::Keyword(Keyword::PrecisionQualifier) => {
                    q.precision = Some(pos);
                    self.advance();
                    continue;
                }
                TokenKind::Keyword(k @ (Keyword::Invariant | Keyword::Centroid)) => {
                    if !global {
                        return self.fail("qualifiers are only valid at global scope");
                    }
                    if *k == Keyword::Centroid {
                        q.centroid = Some(pos);
                    } else {
                        q.invariant = Some(pos);
                    }
                    self.advance();
                    continue;
                }
                TokenKind::Keyword(Keyword::Layout) => {
                    if !global {
                        return self.fail("qualifiers are only valid at global scope");
                    }
                    if q.layout_pos.is_some() {
                        return self.fail("duplicate layout qualifier");
                    }
                    q.layout_pos = Some(pos);
                    self.layout(&mut q)?;
                    continue;
                }
                TokenKind::Reserved(r, w) => {
                    if *r == super::super::token::Reserved::Qualifier {
                        return self.fail(format!("unsupported qualifier '{w}'"));
                    }
                    break;
                }
                _ => break,
            };
            if !global && storage != Storage::Const {
                return self.fail("qualifiers are only valid at global scope");
            }
            if q.storage != Storage::None {
                if q.storage == Storage::Const && storage == Storage::Const {
                    // `const const` is tolerated, as in the original.
                    self.advance();
                    continue;
                }
                return self.fail("only one storage qualifier is allowed");
            }
            q.storage = storage;
            q.storage_pos = pos;
            self.advance();
        }
        if q.storage == Storage::None {
            q.storage_pos = self.pos();
        }
        let spec = self.spec();
        if let (Some((which, pos)), Storage::Varying) = (q.interpolation, q.storage) {
            return self.fail_at(
                pos,
                format!(
                    "'{}' cannot qualify 'varying': interpolation qualifiers apply to in and \
                     out declarations, not to the deprecated varying ({spec} §4.3)",
                    which.keyword()
                ),
            );
        }
        Ok(q)
    }

    /// `layout ( QUALIFIER {, QUALIFIER} )` into `q`: `location = INT`, the block
    /// layouts `std140`, `shared`, `packed` and the matrix layouts `row_major`,
    /// `column_major` (GLSL 1.40 §4.3.8; where they are allowed is checked by the
    /// declaration that carries them).
    fn layout(&mut self, q: &mut Qualifiers) -> PResult<()> {
        self.advance();
        self.expect(Punct::LParen, "expected '(' after layout")?;
        loop {
            let pos = self.pos();
            let word = match self.kind() {
                // GLSL 1.40 §4.3.8: "these identifiers are not case sensitive"; GLSL
                // ES 3.00 §4.3.8 makes them case sensitive.
                TokenKind::Ident(k) if self.dialect.is_es() => k.clone(),
                TokenKind::Ident(k) => k.to_ascii_lowercase(),
                // A reserved word, and a block layout name (GLSL 1.40 §4.3.8).
                TokenKind::Reserved(_, "packed") => "packed".to_string(),
                _ => return self.fail(LAYOUT_ONLY),
            };
            self.advance();
            match word.as_str() {
                "location" => {
                    self.expect(Punct::Assign, "expected '=' in layout")?;
                    let pos = self.pos();
                    let value = match self.kind() {
                        TokenKind::Int(v) if *v >= 0 => *v as u32,
                        _ => return self.fail("expected an integer location"),
                    };
                    self.advance();
                    q.location = Some((value, pos));
                }
                "index" => {
                    // GLSL 3.30 §4.3.8.2: a fragment output's blend source index;
                    // where it may appear and its value are checked by the declaration.
                    self.expect(Punct::Assign, "expected '=' in layout")?;
                    let pos = self.pos();
                    let value = match self.kind() {
                        TokenKind::Int(v) if *v >= 0 => *v as u32,
                        _ => return self.fail("expected an integer index (0 or 1)"),
                    };
                    self.advance();
                    q.index = Some((value, pos));
                }
                "std140" | "shared" | "packed" => q.block_layout = Some(pos),
                "row_major" => q.matrix_layout = Some((true, pos)),
                "column_major" => q.matrix_layout = Some((false, pos)),
                _ => return self.fail_at(pos, LAYOUT_ONLY),
            }
            if !self.eat_punct(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RParen, "expected ')' after layout")
    }

    /// A type keyword, a struct's name or a struct definition; reserved types give
    /// "type 'X' is not supported".
    pub(super) fn type_name(&mut self) -> PResult<(Type, Pos)> {
        let pos = self.pos();
        match self.kind() {
            TokenKind::Keyword(Keyword::Type(t)) => {
                self.advance();
                Ok((*t, pos))
            }
            TokenKind::Reserved(_, "struct") => self.struct_definition(),
            TokenKind::Ident(n) if self.struct_named(n).is_some() => {
                let t = self.struct_named(n).unwrap_or(Type::None);
                self.advance();
                Ok((t, pos))
            }
            TokenKind::Reserved(r, w) => {
                let m = Self::reserved_message(*r, w);
                self.fail(m)
            }
            TokenKind::Ident(_)
                if matches!(self.peek_kind(1), TokenKind::Punct(Punct::LBrace, _)) =>
            {
                self.fail("an interface block is declared at global scope only")
            }
            _ => self.fail("expected a type"),
        }
    }

    /// An interface block after its qualifiers, at its name: `NAME { members }
    /// [instance [N]] ;` (GLSL 1.40 §4.3.7 for `uniform`, GLSL 1.50 §4.3.7 for `in`
    /// and `out`). Members may repeat the block's storage qualifier and carry
    /// interpolation qualifiers (`in`/`out` blocks) or matrix layouts (`uniform`).
    fn interface_block(&mut self, quals: Qualifiers) -> PResult<Block> {
        let storage = match quals.storage {
            Storage::Uniform | Storage::In | Storage::Out => quals.storage,
            Storage::None => {
                return self.fail("an interface block needs 'uniform', 'in' or 'out'");
            }
            _ => {
                return self.fail_at(
                    quals.storage_pos,
                    "an interface block is 'uniform', 'in' or 'out' (GLSL 1.50 §4.3.7)",
                );
            }
        };
        if let Some((_, pos)) = quals.location {
            return self.fail_at(pos, "an interface block cannot have a location");
        }
        if let Some((_, pos)) = quals.interpolation {
            return self.fail_at(
                pos,
                "interpolation qualifiers go on the members of a block, not on the block",
            );
        }
        if storage != Storage::Uniform
            && let Some(pos) = quals.block_layout.or(quals.matrix_layout.map(|(_, p)| p))
        {
            return self.fail_at(pos, "only uniform blocks take a layout (GLSL 1.40 §4.3.8)");
        }
        let (name, pos) = self.name()?;
        self.advance(); // {
        self.enter(1)?;
        let members = self.block_members(storage);
        self.leave(1);
        let members = members?;
        if members.is_empty() {
            return self.fail_at(pos, "an interface block needs at least one member");
        }
        let (instance, array) = match self.kind() {
            TokenKind::Punct(Punct::Semi, _) => (None, None),
            _ => {
                let (n, p) = self.name()?;
                (Some((n, p)), self.opt_array_size()?)
            }
        };
        self.expect(Punct::Semi, "expected ';' after an interface block")?;
        Ok(Block {
            storage,
            storage_pos: quals.storage_pos,
            name,
            pos,
            members,
            instance,
            array,
        })
    }

    /// The members of an interface block up to and including its `}`.
    fn block_members(&mut self, storage: Storage) -> PResult<Vec<Member>> {
        let mut members: Vec<Member> = Vec::new();
        while !self.eat_punct(Punct::RBrace) {
            if self.at_eof() {
                return self.fail("expected '}'");
            }
            let q = self.qualifiers(true)?;
            if q.storage != Storage::None && q.storage != storage {
                return self.fail_at(
                    q.storage_pos,
                    "a block member's storage qualifier must be its block's (GLSL 1.50 §4.3.7)",
                );
            }
            if let Some((_, pos)) = q.location {
                return self.fail_at(pos, "a block member cannot have a location");
            }
            if let Some(pos) = q.block_layout {
                return self.fail_at(pos, "std140, shared and packed qualify whole blocks");
            }
            if let (Some((_, pos)), false) = (q.matrix_layout, storage == Storage::Uniform) {
                return self.fail_at(pos, "only uniform block members take a matrix layout");
            }
            if let (Some((_, pos)), true) = (q.interpolation, storage == Storage::Uniform) {
                return self.fail_at(
                    pos,
                    "interpolation qualifiers apply to in and out blocks, not uniform blocks",
                );
            }
            self.member_declarators(&mut members, q.interpolation)?;
        }
        Ok(members)
    }

    /// `struct [NAME] { TYPE member [N] {, member [N]} ; ... }` (GLSL 1.10 §4.1.8),
    /// starting at `struct`; the new type and the position of its name.
    fn struct_definition(&mut self) -> PResult<(Type, Pos)> {
        let start = self.pos();
        self.advance();
        let (name, pos) = match self.kind() {
            TokenKind::Ident(_) => self.name()?,
            _ => (String::new(), start),
        };
        if name.starts_with("gl_") {
            let spec = self.spec();
            let section = if self.dialect.is_es() { "3.8" } else { "3.7" };
            return self.fail_at(
                pos,
                format!(
                    "struct '{name}': names starting with gl_ are reserved ({spec} §{section})"
                ),
            );
        }
        if self.depth == 0 && self.dialect.is_es() && self.dialect.version == 100 {
            if self.global_names.contains(&name) {
                return self.fail_at(
                    pos,
                    format!(
                        "struct '{name}': a function or variable of this name is already \
                         declared in this scope, and GLSL ES 1.00 declares a name once per \
                         scope (GLSL ES 1.00 §4.2.7)"
                    ),
                );
            }
            self.global_structs.push(name.clone());
        }
        if !name.is_empty() && self.structs.iter().any(|s| s.name == name && s.pos != pos) {
            return self.fail_at(
                pos,
                format!("duplicate symbol '{name}': a struct has this name"),
            );
        }
        self.expect(Punct::LBrace, "expected '{' after struct")?;
        self.enter(1)?;
        let members = self.struct_members();
        self.leave(1);
        let Ok(members) = members else {
            // Skip the rest of the definition: the next error is a real one.
            let mut depth = 1usize;
            while depth > 0 && !self.at_eof() {
                match self.kind() {
                    TokenKind::Punct(Punct::LBrace, _) => depth += 1,
                    TokenKind::Punct(Punct::RBrace, _) => depth -= 1,
                    _ => {}
                }
                self.advance();
            }
            return Err(super::Reported);
        };
        if members.is_empty() {
            return self.fail_at(pos, "a struct needs at least one member");
        }
        if self.structs.len() >= u16::MAX as usize {
            return self.fail_at(pos, format!("too many structs (the limit is {})", u16::MAX));
        }
        self.structs.push(StructDef { name, pos, members });
        Ok((Type::Struct(self.structs.len() as u16 - 1), pos))
    }

    /// The error for a struct definition inside a struct (at `struct`): GLSL 1.10 and
    /// every later version, GLSL ES 1.00 and 3.00 §4.1.8, "Embedded structure
    /// definitions are not supported".
    fn embedded_struct_message(&self) -> String {
        let what = match self.peek_kind(1) {
            TokenKind::Ident(n) => format!("struct '{n}'"),
            _ => "an anonymous struct".to_string(),
        };
        format!(
            "embedded structure definitions are not supported: {what} is defined inside \
                 another struct; define it at global scope and declare the member with its \
                 name (GLSL 1.10 §4.1.8)"
        )
    }

    /// Member declarations up to and including the `}` of a struct.
    fn struct_members(&mut self) -> PResult<Vec<Member>> {
        let mut members: Vec<Member> = Vec::new();
        while !self.eat_punct(Punct::RBrace) {
            if self.at_eof() {
                return self.fail("expected '}'");
            }
            while self.is_keyword(Keyword::PrecisionQualifier) {
                self.advance();
            }
            if matches!(
                self.kind(),
                TokenKind::Keyword(
                    Keyword::Const
                        | Keyword::In
                        | Keyword::Out
                        | Keyword::Uniform
                        | Keyword::Layout
                )
            ) {
                return self.fail("struct members cannot have qualifiers");
            }
            if matches!(self.kind(), TokenKind::Reserved(_, "struct")) {
                let m = self.embedded_struct_message();
                return self.fail(m);
            }
            self.member_declarators(&mut members, None)?;
        }
        Ok(members)
    }

    /// One member line of a struct or an interface block, after its qualifiers:
    /// `TYPE [N] name [N] {, name [N]} ;`, each declarator appended to `members` with
    /// `interpolation`. Errors: an array of arrays, a member name already in `members`.
    fn member_declarators(
        &mut self,
        members: &mut Vec<Member>,
        interpolation: Option<(Interpolation, Pos)>,
    ) -> PResult<()> {
        let (ty, _) = self.type_name()?;
        let type_array = self.opt_array_size()?;
        loop {
            let (name, pos) = self.name()?;
            let array = match (type_array.clone(), self.opt_array_size()?) {
                (Some(a), Some(_)) => {
                    return self.fail_at(a.pos, "arrays of arrays are not supported");
                }
                (a, b) => a.or(b),
            };
            if members.iter().any(|m| m.name == name) {
                return self.fail_at(pos, format!("duplicate member '{name}'"));
            }
            members.push(Member {
                ty,
                name,
                pos,
                array,
                interpolation,
            });
            if !self.eat_punct(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::Semi, "expected ';'")
    }

    /// An identifier (declaration name).
    pub(super) fn name(&mut self) -> PResult<(String, Pos)> {
        let pos = self.pos();
        match self.kind() {
            TokenKind::Ident(n) => {
                self.advance();
                Ok((n.clone(), pos))
            }
            TokenKind::Reserved(r, w) => {
                let m = Self::reserved_message(*r, w);
                self.fail(m)
            }
            TokenKind::Keyword(Keyword::PrecisionQualifier | Keyword::Precision) => {
                // GLSL 1.10 neither uses nor reserves these words; csir-render keeps them
                // keywords in every dialect so that ES-style shaders without a
                // `#version` line compile (docs/glsl-dialects.md).
                self.fail(
                    "a precision word (precision, lowp, mediump, highp) cannot be a name: \
                     csir-render treats them as keywords in every GLSL version",
                )
            }
            TokenKind::Keyword(k) => {
                let word = keyword_text(*k);
                self.fail(format!("expected a name, found the keyword '{word}'"))
            }
            _ => self.fail("expected a name"),
        }
    }

    fn function(
        &mut self,
        ret: Type,
        ret_pos: Pos,
        ret_array: Option<ArraySize>,
        name: String,
        pos: Pos,
    ) -> PResult<Item> {
        self.advance(); // (
        let params = self.params()?;
        let mut f = Function {
            ret,
            ret_pos,
            ret_array,
            name,
            pos,
            params,
            body: Vec::new(),
            end: pos,
        };
        if self.eat_punct(Punct::Semi) {
            return Ok(Item::Prototype(f));
        }
        if !self.is_punct(Punct::LBrace) {
            return self.fail("expected a function body");
        }
        // The parameters are declared in the body's block.
        let depth = self.block_depth() + 1;
        for p in &f.params {
            self.hide_struct(&p.name, depth);
        }
        let (body, end) = self.block_body()?;
        f.body = body;
        f.end = end;
        Ok(Item::Function(f))
    }

    /// Parameters after `(` up to and including `)`.
    fn params(&mut self) -> PResult<Vec<Param>> {
        let mut params = Vec::new();
        if self.eat_punct(Punct::RParen) {
            return Ok(params);
        }
        if self.is_keyword(Keyword::Type(Type::Void))
            && matches!(self.peek_kind(1), TokenKind::Punct(Punct::RParen, _))
        {
            self.advance();
            self.advance();
            return Ok(params);
        }
        loop {
            let mut is_const = false;
            let mut dir = ParamDir::In;
            // The direction word and the precision qualifier, once seen (order, GLSL
            // 1.30 §4.7: const, then in/out/inout, then precision).
            let mut dir_word: Option<(&'static str, Pos)> = None;
            let mut precision: Option<Pos> = None;
            loop {
                let word = match self.kind() {
                    TokenKind::Keyword(
                        k @ (Keyword::Const | Keyword::In | Keyword::Out | Keyword::InOut),
                    ) => Some(keyword_text(*k)),
                    _ => None,
                };
                if let Some(word) = word {
                    let rule = self.order_rule();
                    if precision.is_some() && self.has_precision() {
                        return self.fail(format!(
                            "'{word}' cannot follow the precision qualifier: a parameter's \
                             qualifiers come in the order const, in/out/inout, precision ({rule})"
                        ));
                    }
                    if let Some((prev, _)) = dir_word {
                        let m = match word {
                            "const" => format!(
                                "'const' cannot follow '{prev}': a parameter's qualifiers \
                                 come in the order const, in/out/inout, precision ({rule})"
                            ),
                            _ => format!(
                                "'{word}' after '{prev}': a parameter takes one of in, out \
                                 and inout (GLSL 1.10 §6.1.1)"
                            ),
                        };
                        return self.fail(m);
                    }
                }
                match self.kind() {
                    TokenKind::Keyword(Keyword::Const) => is_const = true,
                    TokenKind::Keyword(Keyword::In) => dir = ParamDir::In,
                    TokenKind::Keyword(Keyword::Out) => dir = ParamDir::Out,
                    TokenKind::Keyword(Keyword::InOut) => dir = ParamDir::InOut,
                    TokenKind::Keyword(Keyword::PrecisionQualifier) => precision = Some(self.pos()),
                    TokenKind::Keyword(Keyword::Interpolation(q)) => {
                        let m = format!(
                            "'{}' qualifies shader inputs and outputs, not parameters \
                             (GLSL 1.30 §4.3.6)",
                            q.keyword()
                        );
                        return self.fail(m);
                    }
                    TokenKind::Reserved(super::super::token::Reserved::Qualifier, w) => {
                        let m = format!("unsupported qualifier '{w}'");
                        return self.fail(m);
                    }
                    _ => break,
                }
                if let (Some(word), None) = (word, dir_word)
                    && word != "const"
                {
                    dir_word = Some((word, self.pos()));
                }
                self.advance();
            }
            if let (true, Some((word, pos))) = (is_const, dir_word)
                && word != "in"
            {
                return self.fail_at(
                    pos,
                    format!(
                        "a parameter cannot be both 'const' and '{word}': const qualifies \
                         in parameters only (GLSL 1.10 §6.1.1)"
                    ),
                );
            }
            let pos = self.pos();
            let ty = match self.kind() {
                TokenKind::Keyword(Keyword::Type(t)) if *t != Type::Void => *t,
                TokenKind::Ident(n) if self.struct_named(n).is_some() => {
                    self.struct_named(n).unwrap_or(Type::None)
                }
                TokenKind::Reserved(r, w) => {
                    let m = Self::reserved_message(*r, w);
                    return self.fail(m);
                }
                TokenKind::Ident(n) if n.starts_with("gl_") => {
                    let m = format!(
                        "{n} is not supported: the compatibility state structs \
                         (gl_LightSourceParameters, gl_MaterialParameters, ...) are not \
                         provided"
                    );
                    return self.fail(m);
                }
                TokenKind::Ident(n) => {
                    let m = format!("expected a parameter type, found '{n}', which is not a type");
                    return self.fail(m);
                }
                _ => return self.fail("expected a parameter type"),
            };
            let ty_pos = pos;
            self.advance();
            let type_array = self.opt_array_size()?;
            let (name, pos) = match self.kind() {
                TokenKind::Ident(n) => {
                    let p = self.pos();
                    self.advance();
                    (n.clone(), p)
                }
                TokenKind::Punct(Punct::Comma | Punct::RParen, _) => (String::new(), pos),
                _ => return self.fail("expected a parameter name"),
            };
            self.check_precision(precision, ty, ty_pos, "parameter", &name)?;
            let name_array = self.opt_array_size()?;
            let array = match (type_array, name_array) {
                (Some(a), Some(_)) => {
                    return self.fail_at(a.pos, "arrays of arrays are not supported");
                }
                (a, b) => a.or(b),
            };
            if let Some(a) = &array
                && a.len.is_none()
            {
                return self.fail_at(a.pos, "an array parameter needs a size");
            }
            if dir != ParamDir::In
                && let Some(what) = self.sampler_in(ty)
            {
                let word = if dir == ParamDir::Out { "out" } else { "inout" };
                return self.fail_at(
                    pos,
                    format!(
                        "parameter '{name}' cannot be '{word}': {what}, and samplers are not \
                         l-values (GLSL 1.20 §4.1.7)"
                    ),
                );
            }
            params.push(Param {
                ty,
                name,
                pos,
                dir,
                is_const,
                array,
            });
            if self.eat_punct(Punct::Comma) {
                continue;
            }
            self.expect(Punct::RParen, "expected ')'")?;
            return Ok(params);
        }
    }
}

impl Parser<'_, '_> {
    /// What makes `ty` hold a sampler, if it does: "it is a sampler" or "its type 'S'
    /// holds one" (a struct with a sampler member, at any depth).
    fn sampler_in(&self, ty: Type) -> Option<String> {
        fn holds(structs: &[StructDef], ty: Type, depth: usize) -> bool {
            match ty {
                Type::Sampler2D | Type::Sampler(_) => true,
                Type::Struct(k) if depth < 64 => structs
                    .get(k as usize)
                    .is_some_and(|s| s.members.iter().any(|m| holds(structs, m.ty, depth + 1))),
                _ => false,
            }
        }
        match ty {
            Type::Sampler2D | Type::Sampler(_) => Some("it is a sampler".to_string()),
            Type::Struct(k) if holds(&self.structs, ty, 0) => {
                let name = self.structs.get(k as usize).map_or("", |s| s.name.as_str());
                Some(format!("its type, struct '{name}', holds a sampler"))
            }
            _ => None,
        }
    }
}

/// The classes of qualifiers, in the order GLSL requires them before 4.20 (GLSL 1.30
/// §4.7); `layout(...)` ranks with the interpolation qualifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Invariant,
    Interpolation,
    Centroid,
    Storage,
    Precision,
}

impl Parser<'_, '_> {
    /// Whether the dialect has precision qualifiers (GLSL 1.30 §4.5, GLSL ES 1.00
    /// §4.5); csir-render also accepts them, without rules, in GLSL 1.10 and 1.20.
    fn has_precision(&self) -> bool {
        self.dialect.is_es() || self.dialect.version >= 130
    }

    /// The specification of the dialect, as rules name it ([`Dialect::spec`]).
    pub(super) fn spec(&self) -> String {
        self.dialect.spec()
    }

    /// The rule that fixes the order of qualifiers: §4.7 from GLSL 1.20 and in GLSL ES;
    /// GLSL 1.10 has only `const` before a parameter's direction (§6.1.1).
    fn order_rule(&self) -> String {
        match self.dialect.is_es() || self.dialect.version >= 120 {
            true => format!("{} §4.7", self.spec()),
            false => "GLSL 1.10 §6.1.1".to_string(),
        }
    }
}
