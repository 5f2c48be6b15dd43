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
            "4:3 '#' here is not a GLSL token: GLSL has no '#' (stringizing) or '##' (token pasting) operator (GLSL 4.60 §3.3)",
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

/// The tokens of `src` as text, one space apart (literals and names only).
fn text(src: &str) -> (String, Vec<String>) {
    let (k, e) = kinds(src);
    let words: Vec<String> = k
        .iter()
        .filter_map(|t| match t {
            TokenKind::Ident(n) => Some(n.clone()),
            TokenKind::Int(v) => Some(v.to_string()),
            TokenKind::Punct(_, s) => Some(s.to_string()),
            TokenKind::Eof => None,
            other => Some(format!("{other}")),
        })
        .collect();
    (words.join(" "), e)
}

#[test]
fn line_splices_come_before_comments_and_tokens() {
    // Translation phase 2 before phase 3: a `\` ending a `//` comment continues it.
    let (t, e) = text("a // note \\\nb\nc\n");
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(t, "a c", "b is part of the comment");
    // A splice inside a word, a number and an operator joins them.
    let (t, _) = text("ab\\\ncd 1\\\n2 +\\\n= x\n");
    assert_eq!(t, "abcd 12 += x");
    // The token after a splice sits on its physical line.
    let mut d = Diagnostics::new(8);
    let toks = lex("#define A \\\n  1\nA x\n", &mut d);
    assert!(d.is_empty());
    assert_eq!(toks[0].kind, TokenKind::Int(1));
    assert_eq!(toks[1].pos, Pos { line: 3, col: 3 });
    // A `\` not before a line end stays an invalid token.
    let (_, e) = text("a \\ b\n");
    assert_eq!(e, vec!["1:3 invalid token"]);
}

#[test]
fn function_like_macros_follow_c99() {
    let (t, e) = text(
        "#define SQ(x) ((x) * (x))\n#define PAIR(a, b) a + b\nSQ(u + 1) PAIR((p, q), SQ(r))\n",
    );
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(t, "( ( u + 1 ) * ( u + 1 ) ) ( p , q ) + ( ( r ) * ( r ) )");
    // A name without `(` is not an invocation; the `(` may follow on a later line.
    let (t, _) = text("#define F(x) [x]\nF + F\n(1)\n");
    assert_eq!(t, "F + [ 1 ]");
    // Arguments may span directives (C99 §6.10.3 leaves it undefined; the directive
    // takes effect, as in GCC and Mesa).
    let (t, e) = text("#define P(a, b) a b\nP((1,\n#define B 2\n2), B)\n#undef B\nP(3, 4)\n");
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(t, "( 1 , 2 ) 2 3 4");
    // Painted blue: a macro's name in its own expansion never expands, even when
    // an argument list follows later.
    let (t, _) = text("#define f(x) x f\nf(1)(2)\n#define g g + 1\ng\n");
    assert_eq!(t, "1 f ( 2 ) g + 1");
    // The example of C99 §6.10.3.5 (EXAMPLE 3) without its `##` and `#` lines.
    let src = "#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n\
               #define z z[0]\n#define h g(~\n#define m(a) a(w)\n#define w 0,1\n\
               #define t(a) a\n#define p() int\n#define q(x) x\n\
               f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\ng(x+(3,4)-w) | h 5) & m\n(f)^m(m);\n";
    let (t, e) = text(src);
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(
        t,
        "f ( 2 * ( y + 1 ) ) + f ( 2 * ( f ( 2 * ( z [ 0 ] ) ) ) ) % f ( 2 * ( 0 ) ) + t ( 1 ) ; \
         f ( 2 * ( 2 + ( 3 , 4 ) - 0 , 1 ) ) | f ( 2 * ( ~ 5 ) ) & f ( 2 * ( 0 , 1 ) ) ^ m ( 0 , 1 ) ;"
    );
    // #undef, then an identical redefinition, then a different one.
    let (t, e) = text("#define F(a) a\n#undef F\nF(1)\n#define G(a) a+1\n#define G(a) a+1\nG(2)\n");
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(t, "F ( 1 ) 2 + 1");
    let (_, e) = text("#define G(a) a+1\n#define G(b) b+1\n");
    assert_eq!(
        e,
        vec![
            "2:9 macro 'G' redefined differently (C99 §6.10.3: a redefinition must be identical; #undef it first)"
        ]
    );
    // The first error of a stretch of text between directives stops its expansion.
    let (_, e) =
        text("#define F(a, b) a\nF(1) F(2)\n#define E() 1\nF(1, 2, 3)\n#undef X\nE() E(2)\n");
    assert_eq!(
        e,
        vec![
            "2:1 macro 'F' takes 2 arguments, 1 given (C99 §6.10.3)",
            "4:1 macro 'F' takes 2 arguments, 3 given (C99 §6.10.3)",
            "6:5 macro 'E' takes 0 arguments, 1 given (C99 §6.10.3)",
        ]
    );
    let (_, e) =
        text("#define F(a, a) a\n#define G(a b) a\n#define H(a,) a\nvoid\n#define K(a) a\nK((1)\n");
    assert_eq!(
        e,
        vec![
            "1:14 parameter 'a' appears twice in macro 'F' (C99 §6.10.3)",
            "2:13 expected ',' or ')' in the parameter list of macro 'G', found 'b'",
            "3:13 expected a parameter name in the parameter list of macro 'H', found ')'",
            "6:1 unterminated argument list invoking macro 'K' (a '(' without its ')')",
        ]
    );
    // `#` and `##` are not GLSL (GLSL 4.60 §3.3).
    let (_, e) = text("#define S(a) #a\n#define C(a, b) a ## b\n");
    let msg = "'#' here is not a GLSL token: GLSL has no '#' (stringizing) or '##' (token pasting) operator (GLSL 4.60 §3.3)";
    assert_eq!(e, vec![format!("1:14 {msg}"), format!("2:19 {msg}")]);
}

#[test]
fn preprocessor_errors_name_the_construct() {
    let (_, e) = kinds(
        "#define F(x) x\n#if 1 +\n#endif\n#endif\n#else\n#error stop here\n#line x\n#ifdef A\n#foo\n",
    );
    assert_eq!(
        e,
        vec![
            "2:8 invalid #if expression: expected an integer, '(' or a unary operator, found the end of the line",
            "4:1 #endif without #if",
            "5:1 #else without #if",
            "6:1 #error stop here",
            "7:7 #line expects LINE [SOURCE-STRING] as non-negative integers (GLSL 3.30 §3.3), found 'x'",
            "8:1 unterminated #if",
        ],
        "#foo is in the group of #ifdef A, compiled out"
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
    assert_eq!(
        e,
        vec!["9:1 macro expansion is too large (more than 100000 tokens)"]
    );
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
    assert_eq!(
        e,
        vec!["1:1 identifier exceeds the name limit (255 characters)"]
    );
    let (_, e) = kinds("\u{feff}x");
    assert!(e.is_empty());
    let (_, e) = kinds("x @ é");
    assert_eq!(e, vec!["1:3 invalid token", "1:5 invalid token"]);
}
