//! Interface blocks (GLSL 1.40 §4.3.7 uniform blocks, GLSL 1.50 §4.3.7 `in`/`out`
//! blocks), turned into globals by the block pass (`lang/blocks.rs`): the
//! interface names OpenGL gives block members, uniforms set by those names, varyings
//! carried from a vertex block to a fragment block by block name and member (whatever
//! the instance names), the checks linking makes, and the named errors.

mod backends;
mod common;
use common::messages;
use csir::exec::{Inputs, Machine, NoSamplers, Outputs};
use csir::{Limits, LinkError, Program, Shader, Stage, compile, compile_units};

fn build(src: &str, stage: Stage) -> Shader {
    compile(src, "b.glsl", stage, &Limits::EXTENDED).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// Link `vs` and `fs`, set `uniforms` by name, run the vertex shader once and the
/// fragment shader on its varyings (as the rasterizer passes them at a vertex), and
/// return the colour.
fn draw(vs: &str, fs: &str, uniforms: &[(&str, &[f32])]) -> [f32; 4] {
    let p = Program::link(build(vs, Stage::Vertex), build(fs, Stage::Fragment))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut u = p.new_uniforms();
    for (name, values) in uniforms {
        p.set_uniform(&mut u, name, values)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let mut vm = Machine::new(&p.vertex).unwrap();
    let mut vout = Outputs::default();
    let attributes = [[0.0, 0.0, 0.0, 1.0]; 8];
    vm.run(
        &Inputs {
            uniforms: &u.vertex,
            attributes: &attributes,
            ..Inputs::default()
        },
        &mut vout,
    )
    .unwrap();
    let varyings: Vec<[f32; 4]> = p
        .var_remap
        .iter()
        .map(|&v| match v {
            -1 => [0.0; 4],
            v => vout.varyings[v as usize],
        })
        .collect();
    let out = common::run(&p.fragment, &u.fragment, &varyings, &NoSamplers);
    backends::check(&p.fragment, &u.fragment, &varyings);
    out.color
}

const VS_HEAD: &str = "#version 150\nin vec4 p;\n";

#[test]
fn uniform_block_members_are_named_block_dot_member() {
    // GL 3.1 §2.11.4: a member of a block with an instance name is `Block.member`, of
    // one without `member`; the instance name is the shader's own.
    let fs = "#version 140\n\
              layout(std140) uniform Colors { vec4 tint; layout(row_major) mat2 m; float k[2]; } col;\n\
              uniform Extra { uniform vec2 shift; };\n\
              out vec4 c;\n\
              void main() { c = col.tint * col.k[1] + vec4(shift, col.m[1]); }\n";
    let vs = "#version 140\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
    let f = build(fs, Stage::Fragment);
    let names: Vec<(&str, Option<u16>)> = f
        .interface
        .symbols
        .iter()
        .map(|s| (s.name.as_str(), s.array_len))
        .collect();
    for want in [
        ("Colors.tint", None),
        ("Colors.m", Some(2)),
        ("Colors.k", Some(2)),
        ("shift", None),
    ] {
        assert!(names.contains(&want), "{want:?} not in {names:?}");
    }
    // mat2 columns (5, 6) and (7, 8) as glUniformMatrix2fv(transpose = false) gives
    // them, whatever the member's row_major layout: col.m[1] is (7, 8).
    let got = draw(
        vs,
        fs,
        &[
            ("Colors.tint", &[1.0, 2.0, 3.0, 4.0]),
            ("Colors.k", &[10.0, 0.5]),
            ("Colors.m", &[5.0, 6.0, 7.0, 8.0]),
            ("shift", &[100.0, 200.0]),
        ],
    );
    assert_eq!(got, [100.5, 201.0, 8.5, 10.0]);
}

#[test]
fn one_uniform_block_in_several_units_is_one_set_of_uniforms() {
    // Each unit may name its instance differently (piglit's
    // interface-blocks-complex-vs-fs): every name reads the same uniform `B.v`.
    let a = "#version 150\nuniform B { vec4 v; } first;\nin vec4 p;\nout vec4 o;\nfloat half_w();\n\
             void main() { gl_Position = p; o = first.v + vec4(half_w()); }\n";
    let b = "#version 150\nuniform B { vec4 v; } second;\nfloat half_w() { return second.v.w * 0.5; }\n";
    let units = [
        csir::Unit {
            name: "a.vert",
            source: a,
        },
        csir::Unit {
            name: "b.vert",
            source: b,
        },
    ];
    let v =
        compile_units(&units, Stage::Vertex, &Limits::EXTENDED).unwrap_or_else(|e| panic!("{e}"));
    let uniforms: Vec<&str> = v
        .interface
        .symbols
        .iter()
        .filter(|s| matches!(s.kind, csir::ir::SymbolKind::Uniform { .. }))
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(uniforms, ["B.v"]);
    let f = build(
        "#version 150\nin vec4 o;\nout vec4 c;\nvoid main() { c = o; }\n",
        Stage::Fragment,
    );
    let p = Program::link(v, f).unwrap();
    let mut u = p.new_uniforms();
    p.set_uniform(&mut u, "B.v", &[1.0, 2.0, 3.0, 8.0]).unwrap();
    let mut vm = Machine::new(&p.vertex).unwrap();
    let mut out = Outputs::default();
    let attributes = [[0.0; 4]; 8];
    vm.run(
        &Inputs {
            uniforms: &u.vertex,
            attributes: &attributes,
            ..Inputs::default()
        },
        &mut out,
    )
    .unwrap();
    let slot = p.varyings[0].vertex_slot as usize;
    assert_eq!(out.varyings[slot], [5.0, 6.0, 7.0, 12.0]);
    let differs =
        "#version 150\nuniform B { vec3 v; } second;\nfloat half_w() { return second.v.x; }\n";
    let units = [
        csir::Unit {
            name: "a.vert",
            source: a,
        },
        csir::Unit {
            name: "b.vert",
            source: differs,
        },
    ];
    let e = compile_units(&units, Stage::Vertex, &Limits::EXTENDED).unwrap_err();
    assert!(
        e.to_string()
            .contains("interface block 'B' is declared differently"),
        "{e}"
    );
}

#[test]
fn out_and_in_blocks_match_by_block_name_not_instance_name() {
    // The vertex block has no instance name, the fragment one has; members carry
    // their own interpolation, arrays and structs.
    let vs = format!(
        "{VS_HEAD}struct A {{ float b[2]; }};\n\
         out Blk {{ flat float f; vec2 pair; A a; A aa[2]; float sized[]; }};\n\
         void main() {{ gl_Position = p; f = 1.0; pair = vec2(2.0, 3.0); a.b[1] = 4.0;\n\
         aa[1].b[0] = 5.0; aa[0].b[1] = 6.0; sized[2] = 7.0; }}\n"
    );
    let fs = "#version 150\nstruct A { float b[2]; };\n\
              in Blk { flat float f; vec2 pair; A a; A aa[2]; float sized[3]; } ib;\n\
              out vec4 c;\n\
              void main() { c = vec4(ib.f + ib.pair.x, ib.pair.y + ib.a.b[1], ib.aa[1].b[0] + ib.aa[0].b[1], ib.sized[2]); }\n";
    assert_eq!(draw(&vs, fs, &[]), [3.0, 7.0, 11.0, 7.0]);
    let v = build(&vs, Stage::Vertex);
    let outs: Vec<&str> = v
        .interface
        .symbols
        .iter()
        .filter(|s| matches!(s.kind, csir::ir::SymbolKind::VaryingOut { .. }))
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(
        outs,
        ["Blk.f", "Blk.pair", "Blk.a.b", "Blk.aa.b", "Blk.sized"]
    );
}

#[test]
fn arrays_of_blocks_with_run_time_indexes() {
    let vs = format!(
        "{VS_HEAD}uniform int n;\nout V {{ float x; vec2 y; }} v[3];\n\
         void main() {{ gl_Position = p; for (int i = 0; i < 3; i++) {{ v[i].x = float(i) * 10.0; v[i].y = vec2(float(i)); }}\n\
         v[n].y.y = -1.0; }}\n"
    );
    let fs = "#version 150\nuniform int m;\nin V { float x; vec2 y; } w[3];\nout vec4 c;\n\
              void main() { c = vec4(w[m].x, w[2].x, w[1].y.y, w[m].y.y); }\n";
    // `set_uniform` gives an int uniform the integer of each float (1 and 2).
    assert_eq!(
        draw(&vs, fs, &[("n", &[1.0]), ("m", &[2.0])]),
        [20.0, 20.0, -1.0, 2.0]
    );
}

#[test]
fn linking_names_the_block_member_that_differs() {
    let vs = format!(
        "{VS_HEAD}out B {{ vec4 a; float b; }};\nvoid main() {{ gl_Position = p; a = p; b = 1.0; }}\n"
    );
    let cases = [
        (
            "in B { vec4 a; vec2 b; };",
            "type mismatch for varying 'B.b'",
        ),
        ("in B { vec4 a; float d; };", "missing varying 'B.d'"),
        (
            "in B { vec4 a; flat float b; };",
            "interpolation mismatch for varying 'B.b'",
        ),
        (
            "in B { vec4 a; float b; } x[2];",
            "array length mismatch for varying 'B.a'",
        ),
        // A varying outside a block does not match a block member of the same name.
        ("in vec4 a;", "missing varying 'a'"),
    ];
    for (decl, want) in cases {
        let fs =
            format!("#version 150\n{decl}\nout vec4 col;\nvoid main() {{ col = vec4(0.0); }}\n");
        let v = build(&vs, Stage::Vertex);
        let f = build(&fs, Stage::Fragment);
        // Inputs the fragment shader never reads are linked all the same.
        let e: LinkError = Program::link(v, f).expect_err(decl);
        assert!(e.to_string().contains(want), "{decl}: {e}");
    }
}

#[test]
fn named_errors() {
    let cases = [
        (
            "#version 130\nuniform B { vec4 v; };\n",
            Stage::Fragment,
            "uniform blocks need GLSL 1.40",
        ),
        (
            "#version 140\nout B { vec4 v; };\n",
            Stage::Vertex,
            "in and out blocks need GLSL 1.50",
        ),
        (
            "#version 150\nin B { vec4 v; };\n",
            Stage::Vertex,
            "a vertex shader cannot have an input block",
        ),
        (
            "#version 150\nout B { vec4 v; };\n",
            Stage::Fragment,
            "a fragment shader cannot have an output block",
        ),
        (
            "#version 150\nuniform B { vec4 v; } b[2];\n",
            Stage::Fragment,
            "arrays of uniform blocks are not supported",
        ),
        (
            "#version 150\nuniform B { sampler2D s; };\n",
            Stage::Fragment,
            "samplers cannot be block members",
        ),
        (
            "#version 150\nflat out B { vec4 v; };\n",
            Stage::Vertex,
            "interpolation qualifiers go on the members",
        ),
        (
            "#version 150\nuniform B { flat vec4 v; };\n",
            Stage::Fragment,
            "apply to in and out blocks",
        ),
        (
            "#version 150\nout B { in vec4 v; };\n",
            Stage::Vertex,
            "must be its block's",
        ),
        (
            "#version 150\nlayout(std140) out B { vec4 v; };\n",
            Stage::Vertex,
            "only uniform blocks take a layout",
        ),
        (
            "#version 150\nlayout(std140) uniform vec4 v;\n",
            Stage::Fragment,
            "qualify uniform blocks and their members only",
        ),
        (
            "#version 150\nlayout(row_major) uniform;\n",
            Stage::Fragment,
            "default row_major layout",
        ),
        (
            "#version 150\nlayout(binding = 1) uniform B { vec4 v; };\n",
            Stage::Fragment,
            "only layout(location = N), layout(index = N) on a fragment output and the uniform block layouts",
        ),
        (
            "#version 150\nout B { float f[]; } b;\nfloat g() { return float(b.f.length()); }\n",
            Stage::Vertex,
            "length() of block member 'b.f', which is declared without a size",
        ),
    ];
    for (src, stage, want) in cases {
        let full = format!("{src}void main() {{}}\n");
        let m = messages(&full, stage);
        assert!(
            m.iter().any(|x| x.contains(want)),
            "{want:?} not in {m:?}\n{full}"
        );
    }
    // Two declarations of one out block with different instance names.
    let units = [
        csir::Unit {
            name: "a.vert",
            source: "#version 150\nout B { vec4 v; } x;\nvoid f();\nvoid main() { gl_Position = vec4(0.0); f(); }\n",
        },
        csir::Unit {
            name: "b.vert",
            source: "#version 150\nout B { vec4 v; } y;\nvoid f() { y.v = vec4(1.0); }\n",
        },
    ];
    let e = compile_units(&units, Stage::Vertex, &Limits::EXTENDED).unwrap_err();
    assert!(e.to_string().contains("different instance names"), "{e}");
    // std140, shared, packed and column_major are accepted and change nothing.
    let ok = "#version 150\nlayout(shared, column_major) uniform;\nlayout(packed) uniform P { vec4 v; };\n\
              out vec4 c;\nvoid main() { c = v; }\n";
    build(ok, Stage::Fragment);
}

/// GLSL 1.50 §4.3.7: a block name is declared once per storage qualifier in a shader,
/// and a block's instance name is a global name no other global may have.
#[test]
fn block_names_and_instance_names_are_declared_once() {
    let cases = [
        (
            "#version 150\nout block { vec4 a; } inst;\nout block { vec4 a; } inst;\n",
            "interface block 'block' is declared a second time in this shader (the first at \
             2:5; GLSL 1.50 §4.3.7)",
        ),
        (
            "#version 150\nout vec4 foo;\nout block { vec4 a; } foo;\n",
            "redeclaration of 'foo': the instance name of block 'block' is a global name, \
             already declared at 2:10 (GLSL 1.50 §4.3.7)",
        ),
    ];
    for (decls, want) in cases {
        let src = format!("{decls}void main() {{ gl_Position = vec4(0.0); }}\n");
        let m = messages(&src, Stage::Vertex);
        assert!(m.iter().any(|x| x == want), "{want:?} not in {m:?}\n{src}");
    }
    // The twin: an `in` and an `out` block may share a block name (another storage),
    // and two blocks differ in instance name.
    let ok = "#version 150\nout block { vec4 a; } inst;\nout other { vec4 b; } inst2;\n\
              void main() { inst.a = inst2.b = vec4(1.0); gl_Position = vec4(0.0); }\n";
    build(ok, Stage::Vertex);
    let geom = "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n\
                in block { vec4 a; } i[];\nout block { vec4 a; } o;\n\
                void main() { o.a = i[0].a; gl_Position = vec4(0.0); EmitVertex(); }\n";
    compile(geom, "t.geom", Stage::Geometry, &Limits::EXTENDED).unwrap();
}

/// GLSL 1.40 §4.3.7: two blocks may not share an instance name (it is a global name).
#[test]
fn two_blocks_may_not_share_an_instance_name() {
    let src = "#version 150\nuniform A { vec4 x; } blk;\nuniform B { vec4 y; } blk;\nout vec4 c;\n\
               void main() { c = blk.x; }\n";
    let m = messages(src, Stage::Fragment);
    assert!(
        m.iter().any(|x| x
            == "redeclaration of 'blk': the instance name of block 'B' is a global \
                              name, already declared at 2:23 (GLSL 1.50 §4.3.7)"),
        "{m:?}"
    );
    let ok = "#version 150\nuniform A { vec4 x; } a;\nuniform B { vec4 y; } b;\nout vec4 c;\n\
              void main() { c = a.x + b.y; }\n";
    build(ok, Stage::Fragment);
}

/// GLSL 1.50 §4.1.9: an implicitly sized block member is indexed by integer literals
/// only; §4.3.7: a fragment shader has no output blocks, `gl_PerVertex` included.
#[test]
fn unsized_members_need_literal_indexes_and_fragment_shaders_have_no_out_blocks() {
    let src = "#version 150\nin block { float foo[]; } inst;\nuniform int bar;\nout vec4 c;\n\
               void main() { c = vec4(inst.foo[bar]); }\n";
    let m = messages(src, Stage::Fragment);
    assert!(
        m.iter().any(|x| x.starts_with("block member 'inst.foo' is declared without a size and indexed here by other than an integer literal")),
        "{m:?}"
    );
    build(
        &src.replace("inst.foo[bar]", "inst.foo[2]"),
        Stage::Fragment,
    );
    let src = "#version 150\nout gl_PerVertex { vec4 gl_Position; };\nvoid main() {}\n";
    let m = messages(src, Stage::Fragment);
    assert!(
        m.iter()
            .any(|x| x.contains("a fragment shader cannot have an output block")),
        "{m:?}"
    );
}
