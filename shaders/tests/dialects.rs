//! GLSL as written: the dialects of `#version 100` to
//! `330` and `300 es`, `attribute`/`varying`, the compatibility built-ins and their
//! fixed locations, `gl_FragColor`/`gl_FragData[0]`, the texture lookups of every
//! version, and the rules that differ by version (docs/glsl-dialects.md).

mod common;
use common::{build, located, messages, run};
use csir::exec::{Inputs, Machine, NearestClampTexture, NoSamplers, Outputs, Samplers};
use csir::ir::SymbolKind;
use csir::{Limits, Program, Stage, compile};

/// Run a linked program once: the vertex shader on `attributes`, then the fragment
/// shader on its outputs (no interpolation: every fragment sees the vertex's values).
fn run_pair(program: &Program, attributes: &[[f32; 4]], samplers: &dyn Samplers) -> [f32; 4] {
    let uniforms = program.new_uniforms();
    let mut vs = Machine::new(&program.vertex).unwrap();
    let mut v_out = Outputs::default();
    vs.run(
        &Inputs {
            uniforms: &uniforms.vertex,
            attributes,
            ..Inputs::default()
        },
        &mut v_out,
    )
    .unwrap();
    let mut fs = Machine::new(&program.fragment).unwrap();
    let mut f_out = Outputs::default();
    fs.run(
        &Inputs {
            uniforms: &uniforms.fragment,
            varyings: &v_out.varyings,
            var_remap: &program.var_remap,
            samplers,
            ..Inputs::default()
        },
        &mut f_out,
    )
    .unwrap();
    f_out.color
}

fn link(vs: &str, fs: &str) -> Program {
    Program::link(build(vs, Stage::Vertex), build(fs, Stage::Fragment)).unwrap()
}

/// piglit's most common shape: no `#version` (GLSL 1.10), `attribute`-less
/// `gl_Vertex`, a `varying`, `gl_FragColor`.
#[test]
fn glsl_110_with_compatibility_builtins_links_and_runs() {
    let vs = "uniform vec2 arg0;\nvarying vec4 color;\n\
              void main() { gl_Position = gl_Vertex; color = vec4(arg0, gl_Vertex.xy); }\n";
    let fs = "varying vec4 color;\nvoid main() { gl_FragColor = color * 2.0; }\n";
    let p = link(vs, fs);
    let v = &p.vertex.interface;
    assert_eq!(
        v.find("gl_Vertex").map(|s| s.kind),
        Some(SymbolKind::Attribute { location: 0 })
    );
    let color = p.fragment.interface.color_output().unwrap();
    assert_eq!(color.name, "gl_FragColor");
    let mut u = p.new_uniforms();
    p.set_uniform(&mut u, "arg0", &[0.25, 0.5]).unwrap();
    let mut vs = Machine::new(&p.vertex).unwrap();
    let mut out = Outputs::default();
    vs.run(
        &Inputs {
            uniforms: &u.vertex,
            attributes: &[[3.0, 4.0, 0.0, 1.0]],
            ..Inputs::default()
        },
        &mut out,
    )
    .unwrap();
    assert_eq!(out.position, [3.0, 4.0, 0.0, 1.0]);
    let mut fs = Machine::new(&p.fragment).unwrap();
    let mut f = Outputs::default();
    fs.run(
        &Inputs {
            varyings: &out.varyings,
            var_remap: &p.var_remap,
            ..Inputs::default()
        },
        &mut f,
    )
    .unwrap();
    assert_eq!(f.color, [0.5, 1.0, 6.0, 8.0]);
}

#[test]
fn compatibility_attributes_sit_at_the_meshs_locations() {
    let vs = "#version 120\nattribute vec3 extra;\nvarying vec4 v;\n\
              void main() { gl_Position = gl_Vertex; \
              v = vec4(gl_Normal.x, gl_MultiTexCoord0.y, gl_Color.z, extra.x); }\n";
    let s = build(vs, Stage::Vertex);
    let loc = |n: &str| match s.interface.find(n).map(|s| s.kind) {
        Some(SymbolKind::Attribute { location }) => location,
        other => panic!("{n}: {other:?}"),
    };
    assert_eq!(
        [
            loc("gl_Vertex"),
            loc("gl_Normal"),
            loc("gl_MultiTexCoord0"),
            loc("gl_Color")
        ],
        [0, 1, 2, 3]
    );
    assert_eq!(
        loc("extra"),
        4,
        "a user attribute takes the first free location"
    );
    let out = run(
        &s,
        &[],
        &[
            [1.0, 2.0, 3.0, 1.0],
            [0.5, 0.0, 0.0, 0.0],
            [0.0, 0.25, 0.0, 0.0],
            [0.0, 0.0, 0.75, 0.0],
            [9.0, 0.0, 0.0, 0.0],
        ],
        &NoSamplers,
    );
    assert_eq!(out.varyings[0], [0.5, 0.25, 0.75, 9.0]);
}

#[test]
fn gl_color_in_the_fragment_shader_reads_gl_front_color() {
    let vs = "void main() { gl_Position = gl_Vertex; gl_FrontColor = gl_Color.bgra; \
              gl_BackColor = vec4(1.0); }\n";
    let fs = "void main() { gl_FragColor = gl_Color; }\n";
    let p = link(vs, fs);
    assert_eq!(p.varyings.len(), 1);
    assert_eq!(p.varyings[0].name, "gl_Color");
    let got = run_pair(
        &p,
        &[[0.0; 4], [0.0; 4], [0.0; 4], [0.1, 0.2, 0.3, 0.4]],
        &NoSamplers,
    );
    assert_eq!(got, [0.3, 0.2, 0.1, 0.4]);
}

#[test]
fn compatibility_matrices_are_identity_until_set_and_ftransform_uses_them() {
    let vs = "#version 110\nvoid main() { gl_Position = ftransform(); \
              gl_FrontColor = vec4(gl_NormalMatrix * vec3(0.25, 0.5, 0.75), 1.0); }\n";
    let fs = "void main() { gl_FragColor = gl_Color; }\n";
    let p = link(vs, fs);
    let u = p.new_uniforms();
    let mut vs = Machine::new(&p.vertex).unwrap();
    let mut out = Outputs::default();
    let run_vs = |vs: &mut Machine, out: &mut Outputs, u: &csir::UniformStorage| {
        vs.run(
            &Inputs {
                uniforms: &u.vertex,
                attributes: &[[1.5, -2.0, 0.25, 1.0]],
                ..Inputs::default()
            },
            out,
        )
        .unwrap()
    };
    run_vs(&mut vs, &mut out, &u);
    assert_eq!(out.position, [1.5, -2.0, 0.25, 1.0], "identity by default");
    assert_eq!(out.varyings[0], [0.25, 0.5, 0.75, 1.0]);
    let mut u = p.new_uniforms();
    let scale: Vec<f32> = (0..16)
        .map(|i| if i % 5 == 0 { 2.0 } else { 0.0 })
        .collect();
    p.set_uniform(&mut u, "gl_ModelViewProjectionMatrix", &scale)
        .unwrap();
    run_vs(&mut vs, &mut out, &u);
    assert_eq!(out.position, [3.0, -4.0, 0.5, 2.0]);
}

#[test]
fn gl_frag_data_0_is_the_colour_output() {
    let fs = "#version 120\nvoid main() { gl_FragData[0] = vec4(0.25, 0.5, 0.75, 1.0); }\n";
    let s = build(fs, Stage::Fragment);
    assert_eq!(s.interface.color_output().unwrap().name, "gl_FragData");
    let out = run(&s, &[], &[], &NoSamplers);
    assert_eq!(out.color, [0.25, 0.5, 0.75, 1.0]);
    let m = messages(
        "void main() { gl_FragData[1] = vec4(1.0); }\n",
        Stage::Fragment,
    );
    assert_eq!(
        m,
        vec![
            "array index 1 is out of range for gl_FragData (1 element): the renderer has one \
             colour output, gl_FragData[0]"
        ]
    );
}

#[test]
fn gl_frag_color_works_in_330_and_a_discard_only_shader_links() {
    let fs = "#version 330 core\nuniform vec4 c;\nvoid main() { gl_FragColor = c; }\n";
    let s = build(fs, Stage::Fragment);
    let out = run(&s, &[[0.5, 0.25, 1.0, 1.0]], &[], &NoSamplers);
    assert_eq!(out.color, [0.5, 0.25, 1.0, 1.0]);
    let p = link(
        "void main() { gl_Position = gl_Vertex; }\n",
        "void main() { discard; }\n",
    );
    assert!(p.fragment.interface.color_output().is_none());
}

#[test]
fn es_dialects() {
    let fs = "#version 100\nprecision mediump float;\nvarying vec2 uv;\nuniform sampler2D s;\n\
              void main() { gl_FragColor = texture2D(s, uv); }\n";
    build(fs, Stage::Fragment);
    let fs3 = "#version 300 es\nprecision highp float;\nin vec2 uv;\nout vec4 o;\n\
               void main() { o = vec4(uv, 0.0, 1.0); }\n";
    build(fs3, Stage::Fragment);
    let m = messages(
        "#version 300 es\nprecision highp float;\nvoid main() { gl_FragColor = vec4(1.0); }\n",
        Stage::Fragment,
    );
    assert_eq!(
        m,
        vec!["gl_FragColor is not available in GLSL ES 3.00: declare an output (out vec4 NAME;)"]
    );
}

#[test]
fn implicit_int_to_float_follows_the_version() {
    let body = "float x = 1; gl_FragColor = vec4(x + 2);";
    let m = messages(
        &format!("#version 110\nvoid main() {{ {body} }}\n"),
        Stage::Fragment,
    );
    assert_eq!(
        m,
        vec![
            "type mismatch in assignment: a value of type int cannot become float (GLSL 1.10 \
             has no implicit int to float conversion; write float(...))"
        ]
    );
    let m = messages(
        "#version 100\nprecision mediump float;\nvoid main() { gl_FragColor = vec4(1.0) * 2; }\n",
        Stage::Fragment,
    );
    assert_eq!(
        m,
        vec![
            "operator * on vec4 and int: GLSL ES 1.00 has no implicit int to float conversion; \
             convert explicitly (float(...))"
        ]
    );
    let s = build(
        &format!("#version 120\nvoid main() {{ {body} }}\n"),
        Stage::Fragment,
    );
    assert_eq!(run(&s, &[], &[], &NoSamplers).color, [3.0; 4]);
}

#[test]
fn storage_qualifiers_follow_the_version() {
    let m = messages(
        "#version 120\nin vec4 p;\nvoid main() { gl_Position = p; }\n",
        Stage::Vertex,
    );
    assert_eq!(
        m,
        vec![
            "'in' at global scope needs GLSL 1.30 or GLSL ES 3.00; GLSL 1.20 declares this with 'attribute'"
        ]
    );
    let m = messages(
        "attribute vec4 p;\nvoid main() { gl_FragColor = p; }\n",
        Stage::Fragment,
    );
    assert_eq!(
        m,
        vec![
            "'attribute' declares a vertex shader input; a fragment shader reads 'varying' (or 'in') variables"
        ]
    );
    // Deprecated but still accepted later, as drivers do.
    build(
        "#version 130\nattribute vec4 p;\nvarying vec2 q;\ninvariant varying vec3 r;\n\
         centroid varying float f;\ninvariant gl_Position;\n\
         void main() { gl_Position = p; q = p.xy; r = p.xyz; f = p.w; }\n",
        Stage::Vertex,
    );
}

#[test]
fn compatibility_builtins_need_a_compatibility_dialect() {
    let m = messages(
        "#version 330 core\nvoid main() { gl_Position = gl_Vertex; }\n",
        Stage::Vertex,
    );
    assert_eq!(
        m,
        vec![
            "gl_Vertex is not available in GLSL 3.30 core: it is a compatibility built-in, \
             available up to GLSL 1.30 and with #version 150 compatibility or #version 330 \
             compatibility"
        ]
    );
    build(
        "#version 330 compatibility\nvoid main() { gl_Position = gl_ModelViewMatrix * gl_Vertex; }\n",
        Stage::Vertex,
    );
    // GLSL 1.40 removed them (piglit's glsl-1.40/compiler/gl_Vertex.vert); 1.30 has them.
    let m = messages(
        "#version 140\nvoid main() { gl_Position = gl_Vertex; }\n",
        Stage::Vertex,
    );
    assert_eq!(
        m,
        vec![
            "gl_Vertex is not available in GLSL 1.40: it is a compatibility built-in, \
             available up to GLSL 1.30 and with #version 150 compatibility or #version 330 \
             compatibility"
        ]
    );
    build(
        "#version 130\nvoid main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex; }\n",
        Stage::Vertex,
    );
    let m = messages(
        "void main() { gl_Position = vec4(float(gl_SampleID)); }\n",
        Stage::Vertex,
    );
    assert_eq!(
        m,
        vec!["gl_SampleID is not supported: there is no multisampling"]
    );
}

#[test]
fn gl_front_facing_reads_the_primitive_facing_in_every_dialect() {
    for version in ["#version 110\n", "#version 330 core\nout vec4 color;\n"] {
        let body = if version.contains("330") {
            "void main() { color = gl_FrontFacing ? vec4(1.0, 0.5, 0.0, 1.0) \
             : vec4(0.0, 0.25, 1.0, 1.0); }\n"
        } else {
            "void main() { gl_FragColor = gl_FrontFacing ? vec4(1.0, 0.5, 0.0, 1.0) \
             : vec4(0.0, 0.25, 1.0, 1.0); }\n"
        };
        let source = format!("{version}{body}");
        let shader = csir::compile(&source, "ff", Stage::Fragment, &csir::Limits::EXTENDED)
            .unwrap_or_else(|e| panic!("{e}"));
        // The seed's CSIR has no front-facing input.
        assert_eq!(
            messages(&source, Stage::Fragment),
            vec![
                "gl_FrontFacing needs the extended profile (the seed's CSIR has no \
                 front-facing input; LOAD_FACE is an extended instruction)"
            ]
        );
        let ops: Vec<_> = shader.ir.iter().filter_map(|i| i.opcode()).collect();
        assert!(ops.contains(&csir::Op::LoadFace), "{version}");
        let mut machine = Machine::new(&shader).unwrap();
        for (front_facing, want) in [(true, [1.0, 0.5, 0.0, 1.0]), (false, [0.0, 0.25, 1.0, 1.0])] {
            let mut out = Outputs::default();
            let inputs = Inputs {
                front_facing,
                ..Inputs::default()
            };
            machine.run(&inputs, &mut out).unwrap();
            assert_eq!(out.color, want, "{version} front_facing={front_facing}");
        }
    }
    let m = messages(
        "void main() { gl_Position = vec4(float(gl_FrontFacing)); }\n",
        Stage::Vertex,
    );
    assert_eq!(
        m,
        vec!["gl_FrontFacing is not available in a vertex shader"]
    );
    let e = csir::compile(
        "void main() { gl_FrontFacing = true; gl_FragColor = vec4(1.0); }\n",
        "ff",
        Stage::Fragment,
        &csir::Limits::EXTENDED,
    )
    .unwrap_err();
    assert!(e.to_string().contains("invalid assignment"), "{e}");
}

/// texture2D, the Lod and projective forms: a one-level texture gives every level
/// of detail the same texel, and the projective forms divide by the last coordinate.
#[test]
fn texture_lookups_of_every_version() {
    let texels = [
        [255, 0, 0, 255],
        [0, 255, 0, 255],
        [0, 0, 255, 255],
        [255, 255, 255, 255],
    ];
    let bytes: Vec<u8> = texels.iter().flatten().copied().collect();
    let tex = NearestClampTexture::new(2, 2, &bytes).unwrap();
    let fs = "#version 120\nuniform sampler2D s;\nuniform vec4 p;\n\
              void main() { gl_FragColor = texture2D(s, p.xy) + 2.0 * texture2DProj(s, p.xyz) \
              + 4.0 * texture2DProj(s, vec4(p.xy, 0.0, p.w)) + 8.0 * texture2D(s, p.xy, 3.0) \
              + 16.0 * texture2DLod(s, p.xy, 2.0); }\n";
    let s = build(fs, Stage::Fragment);
    // p.xy = (0.75, 0.25): texel (1, 0) green; /z = 1.5 → (0.5, 0.17) texel (1, 0);
    // /w = 0.5 → (1.5, 0.5) clamps to texel (1, 1) white.
    let out = run(&s, &[[0.75, 0.25, 1.5, 0.5]], &[], &tex);
    assert_eq!(out.color, [4.0, 31.0, 4.0, 31.0]);
}

/// piglit `glsl-clamp-vertex-color`: GL's compatibility profile clamps the vertex
/// colour outputs to [0, 1] (vertex colour clamping is on by default); other varyings
/// are not clamped.
#[test]
fn compatibility_vertex_colours_are_clamped() {
    use csir::exec::{Inputs, Machine, Outputs};
    let vs = "varying vec4 raw;\nvoid main() { gl_Position = gl_Vertex; \
              gl_FrontColor = vec4(2.0, -1.0, 0.5, gl_Vertex.x);\n\
              gl_FrontSecondaryColor = vec4(-0.25); raw = vec4(2.0, -1.0, 0.5, 3.0); }\n";
    let s = csir::compile(vs, "c.vert", csir::Stage::Vertex, &csir::Limits::default()).unwrap();
    let slot = |name: &str| match s.interface.find(name).unwrap().kind {
        csir::ir::SymbolKind::VaryingOut { slot } => slot as usize,
        k => panic!("{k:?}"),
    };
    let mut m = Machine::new(&s).unwrap();
    let mut out = Outputs::default();
    let attrs = [[7.0, 0.0, 0.0, 1.0]];
    let inputs = Inputs {
        attributes: &attrs,
        ..Inputs::default()
    };
    m.run(&inputs, &mut out).unwrap();
    assert_eq!(out.varyings[slot("gl_FrontColor")], [1.0, 0.0, 0.5, 1.0]);
    assert_eq!(out.varyings[slot("gl_FrontSecondaryColor")], [0.0; 4]);
    assert_eq!(out.varyings[slot("raw")], [2.0, -1.0, 0.5, 3.0]);
}

/// `gl_TexCoord[]` (GLSL 1.10 §7.6) is sized in each shader by the largest constant
/// index it uses; the fragment shader may read fewer coordinates than the vertex
/// shader writes, never more.
#[test]
fn gl_tex_coord_is_sized_by_its_constant_indexes() {
    let vs = "void main() { gl_Position = gl_Vertex; gl_TexCoord[0] = gl_Vertex.yxwz; \
              gl_TexCoord[1] = vec4(0.5, 0.25, 0.125, 2.0); }\n";
    let fs = "void main() { gl_FragColor = gl_TexCoord[1] + gl_TexCoord[0].x; }\n";
    let p = link(vs, fs);
    let tex = p.varyings.iter().find(|v| v.name == "gl_TexCoord").unwrap();
    assert_eq!(tex.ty, csir::ir::Type::Vec4);
    let got = run_pair(&p, &[[1.0, 2.0, 3.0, 4.0]], &NoSamplers);
    assert_eq!(got, [2.5, 2.25, 2.125, 4.0]);

    let only_first = "void main() { gl_FragColor = gl_TexCoord[0]; }\n";
    let p = link(vs, only_first);
    assert_eq!(
        run_pair(&p, &[[1.0, 2.0, 3.0, 4.0]], &NoSamplers),
        [2.0, 1.0, 4.0, 3.0]
    );

    let too_far = "void main() { gl_FragColor = gl_TexCoord[2]; }\n";
    let e = Program::link(build(vs, Stage::Vertex), build(too_far, Stage::Fragment)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "array length mismatch for varying 'gl_TexCoord': vertex 2 elements, fragment 3"
    );
    let core = "#version 330 core\nout vec4 c;\nvoid main() { c = gl_TexCoord[0]; }\n";
    let m = messages(core, Stage::Fragment);
    assert!(
        m.iter()
            .any(|m| m.starts_with("gl_TexCoord is not available in GLSL 3.30 core")),
        "{m:?}"
    );
}

/// GLSL 1.10 §7.6: `gl_TexCoord` may be redeclared with a size; no other built-in
/// may be declared.
#[test]
fn gl_tex_coord_can_be_redeclared_with_a_size() {
    let vs = "varying vec4 gl_TexCoord[3];\nvoid main() { gl_Position = gl_Vertex; \
              gl_TexCoord[2] = vec4(0.5); gl_TexCoord[0] = vec4(0.25); }\n";
    let fs = "void main() { gl_FragColor = gl_TexCoord[0] + gl_TexCoord[2]; }\n";
    let p = link(vs, fs);
    assert_eq!(run_pair(&p, &[[0.0; 4]], &NoSamplers), [0.75; 4]);
    let other = "varying vec4 gl_FrontColor;\nvoid main() { gl_Position = gl_Vertex; }\n";
    assert_eq!(
        messages(other, Stage::Vertex),
        vec!["names starting with gl_ are reserved".to_string()]
    );
}

/// Words later versions made keywords are names in the versions before (GLSL 1.20
/// §3.6 adds the non-square matrix types, `invariant` and `centroid`; GLSL 1.30 adds
/// `smooth` and `layout`); piglit glsl-mat-110.
#[test]
fn later_keywords_are_names_in_earlier_versions() {
    let fs = "float mat4x2 = 0.25;\nvoid main() { float invariant = 0.5; \
              float smooth = 0.125; gl_FragColor = vec4(mat4x2, invariant, smooth, 1.0); }\n";
    let s = build(fs, Stage::Fragment);
    assert_eq!(
        run(&s, &[], &[], &NoSamplers).color,
        [0.25, 0.5, 0.125, 1.0]
    );
    let m = messages(&format!("#version 120\n{fs}"), Stage::Fragment);
    assert_eq!(m[0], "expected a name, found the keyword 'mat4x2'");
    // The precision words stay keywords everywhere (ES-style shaders without #version).
    let m = messages(
        "void main() { float lowp = 1.0; gl_FragColor = vec4(lowp); }\n",
        Stage::Fragment,
    );
    assert!(
        m[0].starts_with("a precision word (precision, lowp, mediump, highp) cannot be a name"),
        "{m:?}"
    );
    let es_style = "precision mediump float;\nvoid main() { gl_FragColor = vec4(1.0); }\n";
    assert_eq!(
        run(&build(es_style, Stage::Fragment), &[], &[], &NoSamplers).color,
        [1.0; 4]
    );
}

/// An `out` parameter converts back to its argument's type on return (GLSL 1.20
/// §6.1.1): `out int` into a float, `out ivec2` into a vec2.
#[test]
fn out_parameters_convert_to_their_argument() {
    let fs = "#version 120\nvoid f(out int x, out ivec2 v) { x = 4; v = ivec2(-3, 7); }\n\
              void main() { float y; vec2 w; f(y, w); gl_FragColor = vec4(y, w, 1.0) / 8.0; }\n";
    assert_eq!(
        run(&build(fs, Stage::Fragment), &[], &[], &NoSamplers).color,
        [0.5, -0.375, 0.875, 0.125]
    );
}

/// A call no overload fits names the function and the argument types; an argument of
/// a type that converts only the other way says which rule it breaks.
#[test]
fn argument_mismatches_name_the_function_and_types() {
    let fs = "#version 120\nvoid f(inout int x) { x = 1; }\n\
              void main() { float y = 0.0; f(y); gl_FragColor = vec4(y); }\n";
    let m = messages(fs, Stage::Fragment);
    assert_eq!(
        m[0],
        "argument type mismatch: no 'f' takes (float): an inout argument must have its \
         parameter's exact type, and an out parameter's type must convert to its \
         argument's (GLSL 1.20 §6.1.1)"
    );
    let fs = "#version 120\nvoid f(out float x) { x = 1.0; }\n\
              void main() { int y; f(y); gl_FragColor = vec4(y); }\n";
    assert!(
        messages(fs, Stage::Fragment)[0]
            .starts_with("argument type mismatch: no 'f' takes (int): an inout")
    );
    let fs = "void f(vec2 x) {}\nvoid main() { f(vec3(1.0)); gl_FragColor = vec4(1.0); }\n";
    assert_eq!(
        messages(fs, Stage::Fragment)[0],
        "argument type mismatch: no 'f' takes (vec3)"
    );
    let fs = "vec4 f(gl_LightSourceParameters l) { return l.ambient; }\n\
              void main() { gl_FragColor = vec4(1.0); }\n";
    assert!(
        messages(fs, Stage::Fragment)[0].starts_with("gl_LightSourceParameters is not supported"),
    );
}

#[test]
fn words_reserved_for_future_use_follow_the_version() {
    let frag = |head: &str, word: &str| {
        let prec = if head.contains("es") {
            "precision mediump float;\n"
        } else {
            ""
        };
        format!(
            "{head}\n{prec}out vec4 o;\nvoid main() {{\n  float {word} = 2.0;\n  o = vec4({word});\n}}\n"
        )
    };
    for word in [
        "resource",
        "atomic_uint",
        "patch",
        "sample",
        "common",
        "partition",
        "active",
    ] {
        let es = frag("#version 300 es", word);
        let want = format!(
            "'{word}' is reserved for future use in GLSL ES 3.00 (GLSL ES 3.00 §3.7): it cannot be a name"
        );
        assert_eq!(
            messages(&es, Stage::Fragment),
            vec![want.clone(), want],
            "{word}"
        );
    }
    for word in ["common", "partition", "active"] {
        let src = frag("#version 330 core", word);
        let want = format!(
            "'{word}' is reserved for future use in GLSL 3.30 core (GLSL 1.30 §3.6): it cannot be a name"
        );
        assert_eq!(
            messages(&src, Stage::Fragment),
            vec![want.clone(), want],
            "{word}"
        );
        // Before GLSL 1.30 it is an ordinary name.
        let src = frag("#version 120", word)
            .replace("out vec4 o;\n", "")
            .replace("o =", "gl_FragColor =");
        assert_eq!(
            run(&build(&src, Stage::Fragment), &[], &[], &NoSamplers).color,
            [2.0; 4]
        );
    }
    // The valid twins: desktop GLSL up to 3.30 leaves these free.
    for word in ["resource", "atomic_uint", "patch", "sample"] {
        let src = frag("#version 330 core", word);
        assert_eq!(
            run(&build(&src, Stage::Fragment), &[], &[], &NoSamplers).color,
            [2.0; 4],
            "{word}"
        );
    }
    // Words every version reserves.
    for head in ["#version 130", "#version 330 core", "#version 300 es"] {
        let src = frag(head, "input");
        assert_eq!(
            messages(&src, Stage::Fragment)[0],
            "'input' is a reserved word",
            "{head}"
        );
    }
    // The position is the word's.
    let src = frag("#version 300 es", "sample");
    let e = common::located(&src, Stage::Fragment);
    assert!(e[0].starts_with("t.glsl:5:9: 'sample'"), "{e:?}");
}

/// GLSL ES 1.00 §4.3 and GLSL ES 3.00 §4.3: a global's initializer is a constant
/// expression; desktop GLSL allows any expression. GLSL ES 3.00 §4.3.3 leaves the
/// sequence operator out of constant expressions, where ES 1.00 and desktop GLSL up to
/// 4.20 keep it.
#[test]
fn es_global_initializers_are_constant_expressions() {
    let es3 = |decls: &str| {
        format!(
            "#version 300 es\nprecision mediump float;\nuniform float u;\n{decls}\n\
             out vec4 o;\nvoid main() {{ o = vec4(g, 0.0, 0.0, 1.0); }}\n"
        )
    };
    assert_eq!(
        located(&es3("float g = u;"), Stage::Fragment),
        vec![
            "t.glsl:4:11: the initializer of global 'g' must be a constant expression in \
             GLSL ES 3.00 (GLSL ES 1.00 §4.3, GLSL ES 3.00 §4.3): literals, const variables, \
             and operators, constructors and built-in functions of those"
        ]
    );
    let m = messages(&es3("float f = 1.0;\nfloat g = f * 2.0;"), Stage::Fragment);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(
        m[0].starts_with("the initializer of global 'g' must be a constant"),
        "{m:?}"
    );
    let es1 = "#version 100\nprecision mediump float;\nuniform float u;\nfloat g = u;\n\
               void main() { gl_FragColor = vec4(g); }\n";
    assert_eq!(
        messages(es1, Stage::Fragment),
        vec![
            "the initializer of global 'g' must be a constant expression in GLSL ES 1.00 \
             (GLSL ES 1.00 §4.3, GLSL ES 3.00 §4.3): literals, const variables, and \
             operators, constructors and built-in functions of those"
        ]
    );
    // The sequence operator in ES 3.00, globally and in a local const.
    assert_eq!(
        located(&es3("float g = 3.0 + (1.0, 2.0);"), Stage::Fragment),
        vec![
            "t.glsl:4:15: the initializer of 'g' must be a constant expression, and the \
             sequence operator (,) is not one in GLSL ES 3.00 (GLSL ES 3.00 §4.3.3)"
        ]
    );
    let local = "#version 300 es\nprecision mediump float;\nout vec4 o;\n\
                 void main() { const float k = (1.0, 2.0); o = vec4(k); }\n";
    assert_eq!(
        messages(local, Stage::Fragment),
        vec![
            "the initializer of 'k' must be a constant expression, and the sequence \
             operator (,) is not one in GLSL ES 3.00 (GLSL ES 3.00 §4.3.3)"
        ]
    );

    // Valid twins: constant initializers in ES (a const global, built-ins of
    // constants), any initializer on the desktop, and the sequence operator in a
    // constant expression of ES 1.00.
    let ok = es3("const float k = 0.5;\nfloat g = k * 2.0 + abs(-0.25);");
    let shader = csir::compile(&ok, "t", Stage::Fragment, &csir::Limits::EXTENDED)
        .unwrap_or_else(|e| panic!("{e}"));
    let out = common::run(&shader, &[[0.0; 4]], &[], &csir::exec::NoSamplers);
    assert_eq!(out.color, [1.25, 0.0, 0.0, 1.0]);
    let desktop = "#version 330 core\nuniform vec4 u;\nfloat g = u.x * 2.0;\nout vec4 o;\n\
                   void main() { o = vec4(g); }\n";
    let shader = build(desktop, Stage::Fragment);
    let out = common::run(
        &shader,
        &[[0.75, 0.0, 0.0, 0.0]],
        &[],
        &csir::exec::NoSamplers,
    );
    assert_eq!(out.color, [1.5; 4]);
    build(
        "#version 100\nprecision mediump float;\nconst float k = (1.0, 2.0);\n\
         float g = (0.5, k);\nvoid main() { gl_FragColor = vec4(g); }\n",
        Stage::Fragment,
    );
}

/// GLSL ES has no implicitly sized arrays (GLSL ES 1.00 and 3.00 §4.1.9): `float a[];`
/// is an error there, sized later or not; an initializer may give the size in ES 3.00,
/// and desktop GLSL sizes `float a[];` from its uses (docs/glsl-dialects.md,
/// "Implicitly sized arrays").
#[test]
fn es_arrays_need_a_size() {
    let src = "#version 300 es\nvoid main() {\n  float a[];\n  float a[5];\n  gl_Position = vec4(0.);\n}\n";
    assert_eq!(
        located(src, Stage::Vertex),
        vec![
            "t.glsl:3:9: array 'a' needs a size: GLSL ES 3.00 has no implicitly sized arrays \
             (GLSL ES 1.00 §4.1.9, GLSL ES 3.00 §4.1.9: an array without a size needs an \
             initializer)"
        ]
    );
    let src = "#version 100\nuniform float u[];\nvoid main() { gl_Position = vec4(u[1]); }\n";
    let m = messages(src, Stage::Vertex);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(
        m[0].starts_with("array 'u' needs a size: GLSL ES 1.00"),
        "{m:?}"
    );
    // Valid twins: ES 3.00 sized by an initializer, desktop sized by the uses.
    let es = "#version 300 es\nprecision mediump float;\nout vec4 o;\n\
              void main() { float a[] = float[](0.25, 0.5); o = vec4(a[0], a[1], a.length(), 1.0); }\n";
    let shader = build(es, Stage::Fragment);
    assert_eq!(
        run(&shader, &[], &[], &NoSamplers).color,
        [0.25, 0.5, 2.0, 1.0]
    );
    let desktop = "#version 120\nvoid main() { float a[]; a[0] = 0.5; a[2] = 1.0; \
                   gl_FragColor = vec4(a[0], a[2], 0.0, 1.0); }\n";
    let shader = build(desktop, Stage::Fragment);
    assert_eq!(
        run(&shader, &[], &[], &NoSamplers).color,
        [0.5, 1.0, 0.0, 1.0]
    );
}

/// The later qualifier words are reserved where each dialect says (GLSL 1.10 §3.6,
/// GLSL ES 3.00 §3.7): `buffer` and `precise` are names in every dialect here,
/// `readonly` is a name in GLSL 3.30 but reserved in GLSL ES 3.00, `volatile` is
/// reserved everywhere.
#[test]
fn later_qualifier_words_are_reserved_by_dialect() {
    let vs = |version: &str, name: &str| {
        format!(
            "#version {version}\nin vec4 p;\nvoid main() {{ float {name} = 2.0; gl_Position = p * {name}; }}\n"
        )
    };
    for (version, name) in [
        ("300 es", "buffer"),
        ("300 es", "precise"),
        ("330", "readonly"),
        ("330", "buffer"),
    ] {
        let src = vs(version, name);
        compile(&src, "t", Stage::Vertex, &Limits::EXTENDED)
            .unwrap_or_else(|e| panic!("{e}\n{src}"));
    }
    for (version, name) in [
        ("300 es", "readonly"),
        ("330", "volatile"),
        ("300 es", "subroutine"),
    ] {
        let src = vs(version, name);
        let e = compile(&src, "t", Stage::Vertex, &Limits::EXTENDED)
            .unwrap_err()
            .to_string();
        assert!(e.contains(&format!("'{name}'")), "{e}\n{src}");
    }
}
