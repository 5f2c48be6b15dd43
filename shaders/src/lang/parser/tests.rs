//! Unit tests of the parser: the constructs the stock shaders use, operator precedence
//! and swizzles, error recovery with several located errors, layout and qualifier
//! errors, the nesting bound, and prototypes, parameters and loop steps.

use super::super::ast::{ExprKind, Item, StmtKind};
use super::super::lexer::lex_with_dialect;
use super::super::types::Type;
use super::*;

fn parse_src(src: &str) -> (Program, Vec<String>) {
    let mut d = Diagnostics::new(8);
    let (toks, dialect) = lex_with_dialect(src, &mut d);
    assert!(d.is_empty(), "lex errors in test source");
    let p = parse_in(&toks, dialect, &mut d);
    let e = d.into_errors("t", src);
    let msgs = e
        .diagnostics()
        .iter()
        .map(|d| format!("{}:{} {}", d.line, d.col, d.message))
        .collect();
    (p, msgs)
}

#[test]
fn parses_the_procedural_constructs() {
    let (p, e) = parse_src(
        "in vec2 vUV; out vec4 c;\nfloat f(float r) { return r; }\nvoid main() {\n\
         vec2 p = vUV * 2.0 - 1.0; p.x = p.x * 2.0; vec3 acc = vec3(0.0);\n\
         for (int i = 0; i < 4; i++) { acc += vec3(float(i) / 3.0); }\n\
         if (p.x > 1.0) { c = vec4(acc, 1.0); } else c = vec4(0.0);\n}\n",
    );
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(p.items.len(), 4);
    let Item::Function(main) = &p.items[3] else {
        panic!("main")
    };
    assert_eq!(main.name, "main");
    assert!(matches!(main.body[1].kind, StmtKind::Assign { .. }));
    assert!(matches!(main.body[3].kind, StmtKind::For { .. }));
}

#[test]
fn precedence_and_swizzles() {
    let (p, e) = parse_src("float x = 1.0 + 2.0 * 3.0 < 4.0 ? a.zyx.r : b.st.y;");
    assert!(e.is_empty(), "{e:?}");
    let Item::Global(d) = &p.items[0] else {
        panic!()
    };
    let init = d.init.as_ref().unwrap();
    let ExprKind::Ternary(c, a, _) = &init.kind else {
        panic!("{init:?}")
    };
    assert!(matches!(c.kind, ExprKind::Binary(BinOp::Lt, _, _)));
    // `.name` is a member or a swizzle: the struct pass decides (`lang/structs.rs`).
    let ExprKind::Field(inner, name) = &a.kind else {
        panic!()
    };
    assert_eq!(name, "r");
    assert!(matches!(&inner.kind, ExprKind::Field(_, n) if n == "zyx"));
}

#[test]
fn struct_definitions_declarations_and_constructors() {
    let (p, e) = parse_src(
        "struct S { float a, b[2]; vec3 c; };
uniform struct { mat2 m; } u;
         S g[2];
void main() { struct T { S s; }; T t = T(S(1.0, float[2](2.0, 3.0), vec3(4.0)));
         S[2] x = S[2](t.s, t.s); x[1].b[0] = 1.0; }
",
    );
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(p.structs.len(), 3);
    assert_eq!(p.structs[0].members.len(), 3);
    assert!(p.structs[0].members[1].array.is_some());
    assert_eq!(p.structs[1].name, "");
    let Item::Global(g) = &p.items[1] else {
        panic!()
    };
    assert_eq!((g.ty, g.array.is_some()), (Type::Struct(0), true));
    let (_, e) =
        parse_src("struct S { float a; float a; };\nstruct T { int b; };\nstruct T { int c; };\n");
    assert_eq!(
        e,
        vec![
            "1:27 duplicate member 'a'",
            "3:8 duplicate symbol 'T': a struct has this name"
        ]
    );
}

#[test]
fn reports_several_errors_with_positions() {
    let (_, e) = parse_src(
        "void main() {\n  float x = ;\n  x = 1.0\n  y = 2.0;\n  do { } until (true);\n  v.xr = 1.0;\n}\n",
    );
    assert_eq!(
        e,
        vec![
            "2:13 expected an expression",
            "4:3 expected ';'",
            "5:10 expected 'while' after the body of a do loop",
        ]
    );
}

#[test]
fn layout_and_qualifier_errors() {
    let (_, e) = parse_src(
        "#version 330\nlayout(binding = 0) in vec3 a;\nlayout(location 1) in vec3 b;\nflat smooth in vec3 c;\n\
         volatile vec3 d;\ndmat3 m;\nuniform float u[4][2];\nint f() { return 1 & 2; }\n",
    );
    assert_eq!(
        e,
        vec![
            "2:8 only layout(location = N), layout(index = N) on a fragment output and the uniform block layouts (std140, shared, packed, row_major, column_major) are supported",
            "3:17 expected '=' in layout",
            "4:6 only one interpolation qualifier is allowed",
            "5:1 unsupported qualifier 'volatile'",
            "6:1 type 'dmat3' is not supported",
            "7:19 arrays of arrays are not supported",
        ]
    );
}

#[test]
fn nesting_is_bounded() {
    let deep = format!("float x = {}1.0{};", "(".repeat(100), ")".repeat(100));
    let (_, e) = parse_src(&deep);
    assert_eq!(e.len(), 1);
    assert!(
        e[0].ends_with(
            "nesting limit exceeded: more than 64 levels of nested parentheses, calls, \
             unary operators, members, indexes and blocks here, the limit is 64"
        ),
        "{e:?}"
    );
    let blocks = format!("void main() {}{}", "{".repeat(100), "}".repeat(101));
    let (_, e) = parse_src(&blocks);
    assert!(e[0].contains("nesting limit exceeded"), "{e:?}");
}

/// A flat chain of operators is not nesting: a sum of 257 terms parses, and
/// only a chain past `MAX_OPERATOR_CHAIN` is refused, by its own message.
#[test]
fn operator_chains_have_their_own_limit() {
    let sum = |terms: usize| format!("float x = 1.0{};", " + 1.0".repeat(terms - 1));
    let (_, e) = parse_src(&sum(MAX_OPERATOR_CHAIN + 1));
    assert!(e.is_empty(), "{e:?}");
    let (_, e) = parse_src(&sum(MAX_OPERATOR_CHAIN + 2));
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].ends_with(
            "expression too long: more than 256 binary operators chained here, the \
             limit is 256 (split the expression over several statements)"
        ),
        "{e:?}"
    );
    // Chains inside parentheses add up along the path; a comma chain counts too.
    let half = " + 1.0".repeat(MAX_OPERATOR_CHAIN / 2);
    let (_, e) = parse_src(&format!("float x = 1.0{half} + (1.0{half} + 1.0);"));
    assert!(e[0].contains("expression too long"), "{e:?}");
    let (_, e) = parse_src(&format!(
        "void f() {{ float x; x = 1.0{}; }}",
        ", 1.0".repeat(MAX_OPERATOR_CHAIN + 1)
    ));
    assert!(e[0].contains("expression too long"), "{e:?}");
}

#[test]
fn prototypes_params_and_steps() {
    let (p, e) =
        parse_src("float f(const in float a, vec2);\nvoid g(void) { i++; --j; k += 2; }\n");
    assert!(e.is_empty(), "{e:?}");
    assert!(
        matches!(&p.items[0], Item::Prototype(f) if f.params.len() == 2 && f.params[0].is_const)
    );
    let Item::Function(g) = &p.items[1] else {
        panic!()
    };
    assert!(matches!(g.body[0].kind, StmtKind::Step { up: true, .. }));
    assert!(matches!(g.body[1].kind, StmtKind::Step { up: false, .. }));
    assert!(matches!(
        g.body[2].kind,
        StmtKind::Assign {
            op: super::super::ast::AssignOp::Compound(BinOp::Add),
            ..
        }
    ));
}

use super::super::ast::BinOp;
