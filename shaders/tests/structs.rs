//! Structs (GLSL 1.10 §4.1.8, §5.4.3, §5.7, §6.1), flattened into their
//! members by the struct pass (`lang/structs.rs`): executed with asserted values on
//! every back end (interpreter, TGSI parity, CSI v2 round trip), the interface names
//! of struct uniforms, and the named errors.

mod backends;
mod common;
use backends::eval;
use common::messages;
use csir::{Limits, Program, Stage, compile};

const S: &str = "struct Inner { float f; vec2 v; };\n\
                 struct S { int i; Inner inner; vec3 arr[3]; };\n";

#[test]
fn constructors_members_nested_and_assignment() {
    let body = "S a = S(2, Inner(u.x, vec2(3.0, 4.0)), vec3[3](vec3(1.0), vec3(u.y), vec3(5.0, 6.0, 7.0)));\n\
                S b;\n\
                b = a;\n\
                b.inner.v.y += 10.0;\n\
                b.arr[2].z = 70.0;\n\
                c = vec4(float(b.i) + b.inner.f, b.inner.v.y, b.arr[1].x + a.arr[2].z, b.arr[2].z);";
    assert_eq!(
        eval(S, body, [0.5, 9.0, 0.0, 0.0], [0.0; 4]),
        [2.5, 14.0, 16.0, 70.0]
    );
}

#[test]
fn equality_compares_every_member() {
    let body = "S a = S(1, Inner(u.x, vec2(1.0)), vec3[3](vec3(0.0), vec3(1.0), vec3(2.0)));\n\
                S b = a;\n\
                bool same = a == b;\n\
                b.arr[1].y = u.y;\n\
                c = vec4(float(same), float(a == b), float(a != b), float(b.inner == a.inner));";
    assert_eq!(
        eval(S, body, [0.5, 1.0, 0.0, 0.0], [0.0; 4]),
        [1.0, 1.0, 0.0, 1.0]
    );
    assert_eq!(
        eval(S, body, [0.5, 3.0, 0.0, 0.0], [0.0; 4]),
        [1.0, 0.0, 1.0, 1.0]
    );
}

#[test]
fn parameters_in_out_inout_and_return_values() {
    let decls = "struct P { vec2 xy; float w; };\n\
                 P make(float a) { return P(vec2(a, a + 1.0), a * 2.0); }\n\
                 float sum(P p) { return p.xy.x + p.xy.y + p.w; }\n\
                 void grow(inout P p, out P q) { p.w += 100.0; q = P(p.xy * 2.0, -1.0); }\n";
    let body = "P p = make(u.x);\n\
                P q;\n\
                grow(p, q);\n\
                c = vec4(sum(p), q.xy, q.w + make(3.0).w);";
    // p = ((1, 2), 2) → w 102; q = ((2, 4), -1); make(3).w = 6.
    assert_eq!(
        eval(decls, body, [1.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [105.0, 2.0, 4.0, 5.0]
    );
}

#[test]
fn arrays_of_structs_with_run_time_indexes() {
    let decls = "struct L { vec3 pos; float k[2]; };\n";
    let body = "L ls[3];\n\
                for (int j = 0; j < 3; j++) { ls[j].pos = vec3(float(j)); ls[j].k[0] = float(j) * 10.0; ls[j].k[1] = -1.0; }\n\
                int i = int(u.x);\n\
                int m = int(u.y);\n\
                ls[i].k[m] = 42.0;\n\
                ls[i].pos.y = 7.0;\n\
                c = vec4(ls[i].pos.x, ls[2].pos.y, ls[i].k[0], ls[2].k[1]);";
    assert_eq!(
        eval(decls, body, [2.0, 1.0, 0.0, 0.0], [0.0; 4]),
        [2.0, 7.0, 20.0, 42.0]
    );
    assert_eq!(
        eval(decls, body, [1.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [1.0, 2.0, 42.0, -1.0]
    );
}

#[test]
fn an_inner_index_out_of_range_stays_inside_its_element() {
    // docs/glsl-dialects.md "Run-time indexes": reads give element 0, writes nothing;
    // ls[0].k[2] must not reach ls[1].k[0] of the flattened ls.k[6].
    let decls = "struct L { float k[2]; };\n";
    let body = "L ls[3];\n\
                for (int j = 0; j < 3; j++) { ls[j].k[0] = float(j) + 1.0; ls[j].k[1] = -1.0; }\n\
                int m = int(u.x);\n\
                ls[0].k[m] = 42.0;\n\
                c = vec4(ls[0].k[m], ls[1].k[0], ls[0].k[0], ls[2].k[1]);";
    assert_eq!(
        eval(decls, body, [2.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [1.0, 2.0, 1.0, -1.0]
    );
    assert_eq!(
        eval(decls, body, [-1.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [1.0, 2.0, 1.0, -1.0]
    );
}

#[test]
fn struct_array_constructors_and_const_arrays() {
    let decls = "struct F { int value; ivec2 value2; };\n\
                 const F table[2] = F[2](F(100, ivec2(200, 300)), F(400, ivec2(500, 600)));\n";
    let body = "int i = int(u.x);\n\
                ivec2 a = F[2](F(1, ivec2(2, 3)), F(4, ivec2(5, 6)))[i].value2;\n\
                F t = table[i];\n\
                c = vec4(vec2(a), float(t.value), float(table.length()));";
    assert_eq!(
        eval(decls, body, [1.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [5.0, 6.0, 400.0, 2.0]
    );
    assert_eq!(
        eval(decls, body, [0.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [2.0, 3.0, 100.0, 2.0]
    );
}

#[test]
fn ternary_selects_whole_structs_and_local_definitions() {
    let body = "struct T { float a; vec2 b; };\n\
                T x = T(1.0, vec2(2.0));\n\
                T y = T(5.0, vec2(6.0, 7.0));\n\
                T z = u.x > 0.0 ? y : x;\n\
                c = vec4(z.a, z.b, 0.0);";
    assert_eq!(
        eval("", body, [1.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [5.0, 6.0, 7.0, 0.0]
    );
    assert_eq!(
        eval("", body, [-1.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [1.0, 2.0, 2.0, 0.0]
    );
}

const UNIFORMS: &str = "#version 120\n\
    struct Light { vec3 color; float k[2]; };\n\
    uniform Light light;\n\
    uniform Light lights[2];\n\
    uniform struct { mat2 m; bool on; } misc;\n\
    void main() {\n\
      gl_FragColor = vec4(light.color.r + lights[1].color.g, light.k[1], lights[0].k[1] + misc.m[1].x, float(misc.on));\n\
    }\n";

#[test]
fn uniform_structs_are_named_as_opengl_names_them() {
    let f = compile(UNIFORMS, "u.frag", Stage::Fragment, &Limits::default()).unwrap();
    let names: Vec<(String, Option<u16>)> = f
        .interface
        .symbols
        .iter()
        .map(|s| (s.name.clone(), s.array_len))
        .collect();
    let want = [
        ("light.color", None),
        ("light.k", Some(2)),
        ("lights[0].color", None),
        ("lights[1].color", None),
        ("lights[0].k", Some(2)),
        ("lights[1].k", Some(2)),
        ("misc.m", Some(2)),
        ("misc.on", None),
    ];
    for (n, len) in want {
        assert!(
            names.contains(&(n.to_string(), len)),
            "{n} {len:?} missing from {names:?}"
        );
    }
    let v = compile(
        "#version 120\nvoid main() { gl_Position = gl_Vertex; }\n",
        "u.vert",
        Stage::Vertex,
        &Limits::default(),
    )
    .unwrap();
    let p = Program::link(v, f.clone()).unwrap();
    let mut u = p.new_uniforms();
    p.set_uniform(&mut u, "light.color", &[0.25, 0.0, 0.0])
        .unwrap();
    p.set_uniform(&mut u, "lights[1].color", &[0.0, 0.5, 0.0])
        .unwrap();
    p.set_uniform(&mut u, "light.k[1]", &[3.0]).unwrap();
    p.set_uniform(&mut u, "lights[0].k", &[8.0, 9.0]).unwrap();
    p.set_uniform(&mut u, "misc.m", &[1.0, 2.0, 3.0, 4.0])
        .unwrap();
    p.set_uniform(&mut u, "misc.on", &[1.0]).unwrap();
    assert!(p.set_uniform(&mut u, "lights[2].color", &[0.0; 3]).is_err());
    let out = common::run(&f, &u.fragment, &[], &csir::exec::NoSamplers);
    assert_eq!(out.color, [0.75, 3.0, 12.0, 1.0]);
    backends::check(&f, &u.fragment, &[]);
}

#[test]
fn uniform_struct_initializers_split_by_element() {
    let src = "#version 120\n\
        struct S { int i; vec2 v[2]; };\n\
        uniform S s[2] = S[2](S(1, vec2[2](vec2(2.0), vec2(3.0))), S(4, vec2[2](vec2(5.0), vec2(6.0, 7.0))));\n\
        void main() { gl_FragColor = vec4(float(s[1].i), s[1].v[1], s[0].v[0].x); }\n";
    let f = compile(src, "i.frag", Stage::Fragment, &Limits::default()).unwrap();
    let inits = &f.interface.uniform_initializers;
    assert!(
        inits.contains(&("s[1].v".to_string(), vec![5.0, 5.0, 6.0, 7.0])),
        "{inits:?}"
    );
    assert!(
        inits.contains(&("s[0].i".to_string(), vec![1.0])),
        "{inits:?}"
    );
    let v = compile(
        "#version 120\nvoid main() { gl_Position = gl_Vertex; }\n",
        "i.vert",
        Stage::Vertex,
        &Limits::default(),
    )
    .unwrap();
    let p = Program::link(v, f.clone()).unwrap();
    let uniforms = p.new_uniforms().fragment;
    let out = common::run(&f, &uniforms, &[], &csir::exec::NoSamplers);
    assert_eq!(out.color, [4.0, 6.0, 7.0, 2.0]);
}

#[test]
fn struct_varyings_link_by_member_from_glsl_150() {
    let vs = "#version 150\nstruct V { vec3 a; mat2 m; float g; };\nin vec4 p;\nout V o;\n\
              void main() { gl_Position = p; o.a = vec3(1.0, 2.0, 3.0); o.m = mat2(4.0, 5.0, 6.0, 7.0); o.g = 8.0; }\n";
    let fs = "#version 150\nstruct V { vec3 a; mat2 m; float g; };\nin V o;\nout vec4 c;\n\
              void main() { c = vec4(o.a.z, o.m[1], o.g); }\n";
    let v = compile(vs, "s.vert", Stage::Vertex, &Limits::default()).unwrap();
    let f = compile(fs, "s.frag", Stage::Fragment, &Limits::default()).unwrap();
    assert!(v.varying_output("o.a").is_some());
    Program::link(v, f).unwrap();
    let old =
        "#version 130\nstruct V { vec3 a; };\nout V o;\nvoid main() { gl_Position = vec4(0.0); }\n";
    let m = messages(old, Stage::Vertex);
    assert!(
        m[0].contains("structs cannot be varyings before GLSL 1.50"),
        "{m:?}"
    );
}

#[test]
fn named_errors() {
    let cases = [
        (
            "struct T { float a; };\nvoid main() { T t = T(1.0, 2.0); c = vec4(0.0); }",
            "takes 1 argument",
        ),
        (
            "struct T { float a; };\nvoid main() { T t; c = vec4(t.b); }",
            "struct T has no member 'b'",
        ),
        (
            "struct T { float a; };\nvoid main() { T t; t += t; c = vec4(0.0); }",
            "compound assignment to a struct",
        ),
        (
            "struct T { float a; };\nvoid main() { T t; c = vec4(t); }",
            "cannot be used here",
        ),
        (
            "struct T { float a; };\nstruct U { float a; };\nvoid main() { T t; U x; t = x; c = vec4(0.0); }",
            "type mismatch in assignment",
        ),
        (
            "struct T { float a; };\nT f() { return T(1.0); }\nvoid main() { float x = u.x > 0.0 ? f().a : 0.0; c = vec4(x); }",
            "evaluated unconditionally",
        ),
        (
            "struct T { float a; };\nin T t;\nvoid main() { c = vec4(t.a); }",
            "structs cannot be varyings before GLSL 1.50",
        ),
        (
            "struct T { float a[u]; };\nvoid main() { c = vec4(0.0); }",
            "array size must be a constant",
        ),
    ];
    for (src, want) in cases {
        let full = format!("#version 130\nuniform vec4 u;\nout vec4 c;\n{src}\n");
        let m = messages(&full, Stage::Fragment);
        assert!(
            m.iter().any(|x| x.contains(want)),
            "{want:?} not in {m:?}\n{full}"
        );
    }
}

/// GLSL 1.10 §4.2.2: a local variable or parameter hides a struct type of its name in
/// its block (there the name is the variable); outside that block it is the type again.
#[test]
fn variables_and_parameters_hide_a_struct_name_in_their_block() {
    let src = "#version 120\nstruct S { float a; };\nuniform float u;\n\
               float twice(float S) { return S * 2.0; }\n\
               void main() { float r; { float S = u; r = S * 3.0; } S s = S(r);\n\
               gl_FragColor = vec4(s.a + twice(u)); }\n";
    let shader = common::build(src, Stage::Fragment);
    let out = common::run(
        &shader,
        &[[0.5, 0.0, 0.0, 0.0]],
        &[],
        &csir::exec::NoSamplers,
    );
    assert_eq!(out.color, [2.5; 4]);
}
