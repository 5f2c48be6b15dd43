//! Unit tests of the lexer and its directives.

use super::super::token::Keyword;
use super::super::types::Type;
use super::*;

fn kinds(src: &str) -> (Vec<TokenKind>, Vec<String>) {
    let mut d = Diagnostics::new(8);
    let toks = lex(src, &mut d);
    let e = d.into_errors("t", src);
    (
        toks.into_iter().map(|t| t.kind).collect(),
        e.diagnostics()
            .iter()
            .map(|d| format!("{}:{} {}", d.line, d.col, d.message))
            .collect(),
    )
}

#[test]
fn lexes_a_declaration_with_positions() {
    let mut d = Diagnostics::new(8);
    let toks = lex("#version 330 core\nuniform vec3 uColor;\n", &mut d);
    assert!(d.is_empty());
    assert_eq!(toks[0].kind, TokenKind::Keyword(Keyword::Uniform));
    assert_eq!(toks[0].pos, Pos { line: 2, col: 1 });
    assert_eq!(toks[1].kind, TokenKind::Keyword(Keyword::Type(Type::Vec3)));
    assert_eq!(toks[2].kind, TokenKind::Ident("uColor".into()));
    assert_eq!(toks[2].pos, Pos { line: 2, col: 14 });
    assert_eq!(toks[4].kind, TokenKind::Eof);
}

#[test]
fn numbers() {
    let (k, e) = kinds("1 1.5 .5 1. 2e3 1.0f 0x1F 010 4294967295");
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(
        &k[..9],
        &[
            TokenKind::Int(1),
            TokenKind::Float(1.5),
            TokenKind::Float(0.5),
            TokenKind::Float(1.0),
            TokenKind::Float(2000.0),
            TokenKind::Float(1.0),
            TokenKind::Int(31),
            TokenKind::Int(8),
            TokenKind::Int(-1),
        ]
    );
}

#[test]
fn bad_numbers_are_reported_once() {
    let (_, e) = kinds("1e 2u 1e39 12abc 09 3uu");
    assert_eq!(
        e,
        vec![
            "1:1 invalid numeric literal",
            "1:7 floating-point literal is out of range",
            "1:12 invalid numeric literal",
            "1:18 invalid numeric literal",
            "1:21 invalid numeric literal",
        ]
    );
    let (k, e) = kinds("5u 0xFFFFFFFFu 017U");
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(
        &k[..3],
        &[
            TokenKind::UInt(5),
            TokenKind::UInt(u32::MAX),
            TokenKind::UInt(15)
        ]
    );
}

#[test]
fn directives_and_comments() {
    let (_, e) = kinds(
        "/* a\n b */ #version 330\n  #extension foo\nx # y\n#version 400\n#version\n#pragma x\n",
    );
    assert_eq!(
        e,
        vec![
            "3:3 expected #extension NAME : BEHAVIOR",
            "4:3 invalid token",
            "5:1 #version must come first, once, before anything but comments and blanks",
            "6:1 #version must come first, once, before anything but comments and blanks",
        ]
    );
    let (_, e) = kinds("x /* never");
    assert_eq!(e, vec!["1:3 unterminated block comment"]);
}

#[test]
fn version_lines_are_checked_and_select_the_dialect() {
    let dialect = |src: &str| {
        let mut d = Diagnostics::new(8);
        let (_, dialect) = lex_with_dialect(src, &mut d);
        let e = d.into_errors("t", src);
        let msgs: Vec<String> = e
            .diagnostics()
            .iter()
            .map(|d| format!("{}:{} {}", d.line, d.col, d.message))
            .collect();
        (dialect.to_string(), msgs)
    };
    assert_eq!(dialect("int x;").0, "GLSL 1.10");
    assert_eq!(dialect("// c\n#version 120\n").0, "GLSL 1.20");
    assert_eq!(dialect("#version 300 es\n").0, "GLSL ES 3.00");
    assert_eq!(
        dialect("#version 330 compatibility // yes\n").0,
        "GLSL 3.30 compatibility"
    );
    let (_, e) = dialect("#version 330 core garbage\n");
    assert_eq!(
        e,
        vec!["1:19 unexpected text after #version NUMBER [PROFILE]"]
    );
    let (_, e) = dialect("#version 400\n");
    assert_eq!(
        e,
        vec![
            "1:10 unsupported #version 400: csir-render accepts 100, 110, 120, 130, 140, 150, 300 es and 330"
        ]
    );
    let (_, e) = dialect("#define A 1\n#version 330\n");
    assert_eq!(
        e,
        vec!["2:1 #version must come first, once, before anything but comments and blanks"]
    );
    let (k, e) = kinds("#version 100\n#ifdef GL_ES\nes\n#endif\n__VERSION__\n");
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(k[0], TokenKind::Ident("es".into()));
    assert_eq!(k[1], TokenKind::Int(100));
    let (k, _) = kinds("#ifdef GL_ES\nes\n#endif\n");
    assert_eq!(k[0], TokenKind::Eof, "GL_ES is not defined on the desktop");
}

#[test]
fn extension_directives() {
    let (_, e) = kinds(
        "#extension GL_ARB_foo : enable\n#extension all : warn\n\
         #extension GL_ARB_bar : require\n#extension GL_ARB_baz : maybe\n",
    );
    assert_eq!(
        e,
        vec![
            "3:1 extension GL_ARB_bar is required but not supported by csir-render",
            "4:1 unknown #extension behavior 'maybe' (require, enable, warn or disable)",
        ]
    );
}

#[test]
fn macros_and_conditional_compilation() {
    let src = "#define N 4\n#define TWICE_N (N * 2)\n#define USE_FOG\nTWICE_N\n\
               #ifdef USE_FOG\nfog\n#else\nnofog\n#endif\n\
               #if defined(USE_FOG) && N > 3\n  #if 0\nhidden\n  #elif N == 4\nfour\n  #endif\n#endif\n\
               #undef N\n#ifndef N\ngone\n#endif\nN\n";
    let (k, e) = kinds(src);
    assert!(e.is_empty(), "{e:?}");
    let words: Vec<String> = k
        .iter()
        .map(|t| match t {
            TokenKind::Ident(n) => n.clone(),
            TokenKind::Int(v) => v.to_string(),
            TokenKind::Punct(_, s) => s.to_string(),
            _ => String::new(),
        })
        .collect();
    assert_eq!(
        words.join(" "),
        "( 4 * 2 ) fog four gone N ",
        "tokens {k:?}"
    );
    // Expanded tokens sit at the use.
    let mut d = Diagnostics::new(8);
    let toks = lex(
        "#define K 2.5
x = K;
",
        &mut d,
    );
    assert_eq!(toks[2].kind, TokenKind::Float(2.5));
    assert_eq!(toks[2].pos, Pos { line: 2, col: 5 });
}

#[test]
fn preprocessor_errors_name_the_construct() {
    let (_, e) = kinds(
        "#define F(x) x\n#if 1 +\n#endif\n#endif\n#else\n#error stop here\n#line 3\n#ifdef A\n",
    );
    assert_eq!(
        e,
        vec![
            "1:1 function-like macros are not supported",
            "2:1 invalid #if expression",
            "4:1 #endif without #if",
            "5:1 #else without #if",
            "6:1 #error stop here",
            "7:1 unsupported preprocessor directive",
            "8:1 unterminated #if",
        ]
    );
    // Compiled-out text is not lexed, so it may hold anything.
    let (_, e) = kinds("#if 0\n@ é \"\n#error no\n#endif\n");
    assert!(e.is_empty(), "{e:?}");
    // A macro that multiplies itself is bounded.
    let mut src = String::from("#define A0 x x x x x x x x x x\n");
    for i in 1..8 {
        let p = i - 1;
        src.push_str(&format!(
            "#define A{i} A{p} A{p} A{p} A{p} A{p} A{p} A{p} A{p} A{p} A{p}\n"
        ));
    }
    src.push_str("A7\n");
    let (_, e) = kinds(&src);
    assert_eq!(e, vec!["9:1 macro expansion is too large"]);
}

#[test]
fn operators_and_long_names() {
    let (k, e) = kinds("a += b++ && c ^^ d ? e : f << 1");
    assert!(e.is_empty());
    assert!(k.contains(&TokenKind::Punct(Punct::PlusAssign, "+=")));
    assert!(k.contains(&TokenKind::Punct(Punct::XorXor, "^^")));
    assert!(k.contains(&TokenKind::Punct(Punct::Bitwise, "<<")));
    let long = "a".repeat(MAX_IDENT_LEN + 1);
    let (_, e) = kinds(&long);
    assert_eq!(e, vec!["1:1 identifier exceeds the name limit"]);
    let (_, e) = kinds("\u{feff}x");
    assert!(e.is_empty());
    let (_, e) = kinds("x @ é");
    assert_eq!(e, vec!["1:3 invalid token", "1:5 invalid token"]);
}
