//! One stage compiled from several compilation units (`csir::compile_units`,
//! GLSL 1.20 §2.1): functions declared in one unit and defined in another, globals
//! shared by name, implicitly sized arrays sized across units, and the errors that
//! name the unit they are in.

mod common;
use common::run;
use csir::exec::NoSamplers;
use csir::{Limits, Stage, Unit, compile_unit_alone, compile_units};

fn units<'a>(texts: &'a [(&'a str, &'a str)]) -> Vec<Unit<'a>> {
    texts
        .iter()
        .map(|&(name, source)| Unit { name, source })
        .collect()
}

#[test]
fn functions_and_globals_link_across_units() {
    let a = "float g;\nfloat k[];\nfloat half_of(float x);\nvoid fill();\n\
             void main() { g = 3.0; fill(); gl_FragColor = vec4(half_of(g), k[2], g, 1.0); }\n";
    let b = "float g;\nfloat k[];\nvoid fill() { k[2] = 0.25; g = g + 1.0; }\n\
             float half_of(float x) { return x * 0.5; }\n";
    let shader = compile_units(
        &units(&[("a.frag", a), ("b.frag", b)]),
        Stage::Fragment,
        &Limits::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // g is one variable: main sets 3, fill adds 1 before half_of reads it
    assert_eq!(
        run(&shader, &[], &[], &NoSamplers).color,
        [2.0, 0.25, 4.0, 1.0]
    );
}

#[test]
fn unit_errors_name_their_unit() {
    let compile = |a: &str, b: &str| {
        compile_units(
            &units(&[("a.frag", a), ("b.frag", b)]),
            Stage::Fragment,
            &Limits::default(),
        )
        .unwrap_err()
        .to_string()
    };
    let main = "void f();\nvoid main() { f(); gl_FragColor = vec4(1.0); }\n";
    // a syntax error in the second unit points into it
    assert_eq!(
        compile(main, "void f() {\n  float x = ;\n}\n"),
        "b.frag:2:13: error: expected an expression\n  float x = ;\n            ^\n"
    );
    // one global, two types
    let e = compile(
        &format!("float g;\n{main}"),
        "vec2 g;\nvoid f() { g = vec2(1.0); }\n",
    );
    assert!(
        e.starts_with(
            "b.frag:1:6: error: global 'g' is declared differently here and in unit 1 \
             (storage, type and array size must agree: GLSL 1.20 §4.3)"
        ),
        "{e}"
    );
    // two definitions of one function
    let e = compile(&format!("{main}void f() {{}}\n"), "void f() {}\n");
    assert!(
        e.starts_with(
            "b.frag:1:6: error: function 'f' is defined in more than one compilation unit \
             (also in unit 1; GLSL 1.20 §6.1)"
        ),
        "{e}"
    );
    // a call to a function only the other unit declares
    let e = compile(
        "void f() { g(); }\nvoid main() { f(); gl_FragColor = vec4(1.0); }\n",
        "void g() {}\n",
    );
    assert!(
        e.starts_with("a.frag:1:12: error: function 'g' is not declared in this compilation unit"),
        "{e}"
    );
    // struct definitions in two units
    let e = compile(
        &format!("struct S {{ float x; }};\n{main}"),
        "struct T { float y; };\nvoid f() {}\n",
    );
    assert!(
        e.starts_with(
            "b.frag:1:8: error: structs in more than one compilation unit of a stage are not supported"
        ),
        "{e}"
    );
    // versions differ
    let e = compile(
        &format!("#version 120\n{main}"),
        "#version 110\nvoid f() {}\n",
    );
    assert!(
        e.starts_with("b.frag:1:1: error: this compilation unit is GLSL 1.10"),
        "{e}"
    );
}

#[test]
fn unit_counts_are_bounded() {
    let none = compile_units(&[], Stage::Fragment, &Limits::default()).unwrap_err();
    assert_eq!(
        none.diagnostics()[0].message,
        "a stage is compiled from 1 to 32 compilation units, not 0"
    );
    let one = "void main() { gl_FragColor = vec4(1.0); }\n";
    let many = vec![("u.frag", one); csir::MAX_UNITS + 1];
    let e = compile_units(&units(&many), Stage::Fragment, &Limits::default()).unwrap_err();
    assert_eq!(e.diagnostics().len(), 1);
}

/// `compile_unit_alone` (GLSL 1.10 §6.1): a unit without `main` compiles, a vertex
/// unit need not write `gl_Position`, and every function is still checked.
#[test]
fn a_unit_compiled_alone_needs_no_main() {
    let alone = |src: &str, stage| {
        compile_unit_alone(src, "u.glsl", stage, &Limits::default()).map_err(|e| e.to_string())
    };
    let helper = "#version 120\nfloat twice(float x) { return 2.0 * x; }\n";
    assert!(alone(helper, Stage::Fragment).is_ok());
    assert!(alone(helper, Stage::Vertex).is_ok());
    let no_position = "#version 120\nvoid main() { float x = 1.0; }\n";
    assert!(alone(no_position, Stage::Vertex).is_ok());
    // compile_units keeps both whole-stage rules
    let stage = |src: &str, stage| {
        compile_units(&units(&[("u.glsl", src)]), stage, &Limits::default())
            .map_err(|e| e.to_string())
    };
    assert!(
        stage(helper, Stage::Fragment)
            .unwrap_err()
            .contains("missing main")
    );
    assert!(
        stage(no_position, Stage::Vertex)
            .unwrap_err()
            .contains("gl_Position")
    );
    // an uncalled function is checked all the same
    let bad = "#version 120\nfloat f() { return undeclared; }\n";
    assert_eq!(
        alone(bad, Stage::Fragment).unwrap_err().lines().next(),
        Some("u.glsl:2:20: error: unknown identifier 'undeclared'")
    );
    // a main of the wrong shape is still an error
    let bad_main = "#version 120\nint main() { return 0; }\n";
    assert!(
        alone(bad_main, Stage::Fragment)
            .unwrap_err()
            .contains("main must be void main()")
    );
}

/// GLSL 1.10 and 1.20 §6.1: "If a built-in function is redeclared in a shader (i.e. a
/// prototype is visible) before a call to it, then the linker will only attempt to
/// resolve that call within the set of shaders that are linked with it." A call above
/// a user `abs`, or in a unit that does not declare it, is the built-in's; a call
/// below the declaration is the user's (piglit's `override-builtin-*` linker tests).
#[test]
fn a_user_function_hides_a_builtin_only_where_it_is_declared() {
    let color = |texts: &[(&str, &str)]| {
        let shader = compile_units(&units(texts), Stage::Fragment, &Limits::default())
            .unwrap_or_else(|e| panic!("{e}"));
        run(&shader, &[], &[], &NoSamplers).color
    };
    // one unit: the call above the definition takes the built-in, the one below it
    // (in `later`) the user function
    let one = "float later(float x);\n\
               void main() { gl_FragColor = vec4(abs(-0.5), later(-0.5), 0.0, 1.0); }\n\
               float abs(float x) { return 0.25; }\n\
               float later(float x) { return abs(x); }\n";
    assert_eq!(color(&[("a.frag", one)]), [0.5, 0.25, 0.0, 1.0]);
    // a prototype makes every call below it the user's
    let declared = "float abs(float x);\n\
                    void main() { gl_FragColor = vec4(abs(-0.5)); }\n\
                    float abs(float x) { return 0.25; }\n";
    assert_eq!(color(&[("a.frag", declared)]), [0.25; 4]);
    // two units: the unit that calls abs without declaring it gets the built-in
    let main = "void main() { gl_FragColor = abs(vec4(0.0, -1.0, 0.0, 1.0)); }\n";
    let other = "vec4 abs(vec4 unused) { return vec4(1.0, 0.0, 0.0, 1.0); }\n";
    assert_eq!(
        color(&[("a.frag", main), ("b.frag", other)]),
        [0.0, 1.0, 0.0, 1.0]
    );
}
