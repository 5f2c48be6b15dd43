//! The geometry stage end to end in the compiler crate: the front end's rules and
//! limits (GLSL 1.50 §4.3.8, §7.1, §8.10; GL 3.2 table 6.49), the scalar
//! interpreter's emitted strips, and linking vertex → geometry → fragment.

use csir::exec::{Emitted, Inputs, Machine, Outputs, PrimitiveInput};
use csir::ir::{InputPrimitive, OutputPrimitive};
use csir::{Limits, Op, Program, Stage, compile};

const VS: &str = "#version 150\nin vec4 pos;\nout vec3 vcolor;\n\
                  void main() { gl_Position = pos; vcolor = pos.xyz; }\n";
const FS: &str = "#version 150\nin vec3 color;\nout vec4 frag;\n\
                  void main() { frag = vec4(color, 1.0); }\n";

/// One triangle in, three copies out, each scaled and shifted (the reference scene's
/// amplification shader).
const AMPLIFY: &str = "#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 9) out;
in vec3 vcolor[];
out vec3 color;
uniform float scale;
void main() {
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 3; i++) {
            gl_Position = gl_in[i].gl_Position * scale + vec4(float(k), 0.0, 0.0, 0.0);
            color = vcolor[i] + vec3(0.0, 0.0, float(gl_PrimitiveIDIn));
            EmitVertex();
        }
        EndPrimitive();
    }
}
";

fn geom(src: &str) -> Result<csir::Shader, String> {
    compile(src, "t.geom", Stage::Geometry, &Limits::EXTENDED).map_err(|e| e.to_string())
}

fn error_of(src: &str) -> String {
    geom(src).expect_err("must not compile")
}

#[test]
fn the_layout_and_inputs_reach_the_interface() {
    let s = geom(AMPLIFY).unwrap();
    let g = s.interface.geometry.expect("layout recorded");
    assert_eq!(g.input, InputPrimitive::Triangles);
    assert_eq!(g.output, OutputPrimitive::TriangleStrip);
    assert_eq!(g.max_vertices, 9);
    let emits = s.ir.iter().filter(|i| i.opcode() == Some(Op::Emit)).count();
    let ends =
        s.ir.iter()
            .filter(|i| i.opcode() == Some(Op::EndPrim))
            .count();
    assert_eq!((emits, ends), (9, 3));
    // vcolor[0..3] and gl_in[0..3].gl_Position: one LOAD_VTX per element.
    let loads: Vec<(i16, i16)> =
        s.ir.iter()
            .filter(|i| i.opcode() == Some(Op::LoadVtx))
            .map(|i| (i.aux, i.aux2))
            .collect();
    for v in 0..3 {
        assert!(loads.contains(&(-1, v)), "{loads:?}");
        assert!(loads.contains(&(0, v)), "{loads:?}");
    }
}

#[test]
fn the_scalar_interpreter_emits_three_strips() {
    let s = geom(AMPLIFY).unwrap();
    let mut m = Machine::new(&s).unwrap();
    let positions = [
        [1.0, 2.0, 0.0, 1.0],
        [3.0, 4.0, 0.0, 1.0],
        [5.0, 6.0, 0.0, 1.0],
    ];
    let varyings = [
        [0.1, 0.2, 0.3, 0.0],
        [0.4, 0.5, 0.6, 0.0],
        [0.7, 0.8, 0.9, 0.0],
    ];
    let prim = PrimitiveInput {
        positions: &positions,
        varyings: &varyings,
        stride: 1,
        primitive_id: 7,
    };
    let uniforms = [[2.0, 0.0, 0.0, 0.0]];
    let inputs = Inputs {
        uniforms: &uniforms,
        ..Inputs::default()
    };
    let mut out = Outputs::default();
    let mut emitted = Emitted::default();
    m.run_geometry(&inputs, &prim, &mut out, &mut emitted)
        .unwrap();
    assert_eq!(emitted.strips, [0..3, 3..6, 6..9]);
    assert_eq!(emitted.len(), 9);
    // Copy k = 2, vertex 1: position * 2 + (2, 0, 0, 0).
    assert_eq!(emitted.positions[7], [8.0, 8.0, 0.0, 2.0]);
    // The colour plus gl_PrimitiveIDIn in z.
    assert_eq!(emitted.vertex_varyings(7)[0], [0.4, 0.5, 0.6 + 7.0, 0.0]);
}

#[test]
fn emits_past_max_vertices_are_dropped() {
    let src = AMPLIFY.replace("max_vertices = 9", "max_vertices = 7");
    let s = geom(&src).unwrap();
    let mut m = Machine::new(&s).unwrap();
    let positions = [[0.0; 4]; 3];
    let prim = PrimitiveInput {
        positions: &positions,
        varyings: &[],
        stride: 0,
        primitive_id: 0,
    };
    let (mut out, mut emitted) = (Outputs::default(), Emitted::default());
    m.run_geometry(&Inputs::default(), &prim, &mut out, &mut emitted)
        .unwrap();
    // Strips of 3, 3 and 1 (the last too short for a triangle, dropped).
    assert_eq!(emitted.strips, [0..3, 3..6]);
}

#[test]
fn limits_and_rules_are_errors_naming_the_number() {
    let big = AMPLIFY.replace("max_vertices = 9", "max_vertices = 300");
    let e = error_of(&big);
    assert!(
        e.contains("max_vertices = 300") && e.contains("(256"),
        "{e}"
    );
    // 200 vertices of gl_Position + 1 varying slot = 8 components: 1600 > 1024.
    let many = AMPLIFY.replace("max_vertices = 9", "max_vertices = 200");
    let e = error_of(&many);
    assert!(e.contains("1600") && e.contains("1024"), "{e}");
    assert!(geom(&AMPLIFY.replace("max_vertices = 9", "max_vertices = 128")).is_ok());
    let e = error_of(&AMPLIFY.replace("layout(triangles) in;\n", ""));
    assert!(e.contains("input primitive type"), "{e}");
    let e = error_of(&AMPLIFY.replace("in vec3 vcolor[];", "in vec3 vcolor[4];"));
    assert!(e.contains("4 elements") && e.contains("3 vertices"), "{e}");
    let e = error_of(&AMPLIFY.replace("in vec3 vcolor[];", "in vec3 vcolor;"));
    assert!(e.contains("must be an array"), "{e}");
    let e = error_of(&AMPLIFY.replace("layout(triangles)", "layout(quads)"));
    assert!(e.contains("'quads'"), "{e}");
    let vs = "#version 150\nlayout(points) in;\nvoid main() { gl_Position = vec4(0.0); }\n";
    let e = compile(vs, "t.vert", Stage::Vertex, &Limits::EXTENDED)
        .unwrap_err()
        .to_string();
    assert!(e.contains("geometry shader"), "{e}");
    let e = compile(AMPLIFY, "t.geom", Stage::Geometry, &Limits::SEED)
        .unwrap_err()
        .to_string();
    assert!(e.contains("extended profile"), "{e}");
    let fs = "#version 150\nout vec4 c;\nvoid main() { EmitVertex(); c = vec4(1.0); }\n";
    let e = compile(fs, "t.frag", Stage::Fragment, &Limits::EXTENDED)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("EmitVertex() is a geometry shader function"),
        "{e}"
    );
}

#[test]
fn input_blocks_and_adjacency_size_by_the_primitive() {
    let src = "#version 150
layout(lines_adjacency) in;
layout(line_strip, max_vertices = 2) out;
in Data { vec3 c; } d[];
out vec3 color;
void main() {
    for (int i = 1; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        color = d[i].c;
        EmitVertex();
    }
}
";
    let s = geom(src).unwrap();
    let sym = s.interface.find("Data.c").expect("block member input");
    assert_eq!(sym.array_len, None);
    let max_vertex =
        s.ir.iter()
            .filter(|i| i.opcode() == Some(Op::LoadVtx))
            .map(|i| i.aux2)
            .max();
    assert_eq!(max_vertex, Some(3));
}

#[test]
fn vertex_geometry_and_fragment_link() {
    let vs = compile(VS, "t.vert", Stage::Vertex, &Limits::EXTENDED).unwrap();
    let gs = geom(AMPLIFY).unwrap();
    let fs = compile(FS, "t.frag", Stage::Fragment, &Limits::EXTENDED).unwrap();
    let p = Program::link_geometry(vs.clone(), gs.clone(), fs.clone()).unwrap();
    let g = p.geometry.as_ref().unwrap();
    let vslot = match vs.varying_output("vcolor").unwrap().kind {
        csir::ir::SymbolKind::VaryingOut { slot } => slot as i16,
        _ => unreachable!(),
    };
    assert_eq!(g.input_remap[0], vslot);
    assert_eq!(p.uniform("scale").unwrap().geometry_slot, Some(0));
    let mut storage = p.new_uniforms();
    p.set_uniform(&mut storage, "scale", &[3.0]).unwrap();
    assert_eq!(storage.geometry[0][0], 3.0);
    // The fragment shader's input must be a geometry output.
    let fs2 = FS.replace("color", "vcolor");
    let fs2 = compile(&fs2, "t.frag", Stage::Fragment, &Limits::EXTENDED).unwrap();
    assert!(Program::link_geometry(vs.clone(), gs.clone(), fs2).is_err());
    // And the geometry input a vertex output.
    let vs2 = VS.replace("vcolor", "other");
    let vs2 = compile(&vs2, "t.vert", Stage::Vertex, &Limits::EXTENDED).unwrap();
    let e = Program::link_geometry(vs2, gs, fs).unwrap_err().to_string();
    assert!(e.contains("vcolor"), "{e}");
}

/// GLSL 1.50 §4.3.8: layout identifiers are not case sensitive; one primitive type per
/// input or output declaration; every declaration agrees with the earlier ones;
/// `max_vertices` may be declared apart from the output primitive; an unsized input's
/// `length()` is unknown before the input layout declaration.
#[test]
fn layout_declarations_agree_and_size_inputs_in_order() {
    let ok = "#version 150\nlayout(maX_VERTices = 4) out;\nlayout(TriAngleS) in;\n\
              layout(triangle_strip) out;\nlayout(triangles) in;\n\
              layout(triangle_strip, max_vertices = 4) out;\nin vec4 c[];\nout vec4 v;\n\
              void main() { v = c[0] * float(c.length()); EmitVertex(); }\n";
    let s = geom(ok).unwrap();
    let g = s.interface.geometry.expect("layout recorded");
    assert_eq!(g.input, InputPrimitive::Triangles);
    assert_eq!(g.output, OutputPrimitive::TriangleStrip);
    assert_eq!(g.max_vertices, 4);
    let body = "void main() {}\n";
    let cases = [
        (
            "layout(points, triangles_adjacency) in;\nlayout(points, max_vertices = 1) out;\n",
            "t.geom:2:16: layout(points, triangles_adjacency) in: a geometry shader input \
             layout takes one primitive type (GLSL 1.50 §4.3.8.1)",
        ),
        (
            "layout(lines) in;\nlayout(triangles) in;\nlayout(points, max_vertices = 1) out;\n",
            "t.geom:3:8: layout(triangles) in does not match the earlier layout(lines) in at \
             2:8: every input layout declaration of a geometry shader names the same \
             primitive type (GLSL 1.50 §4.3.8.1)",
        ),
        (
            "layout(lines) in;\nlayout(line_strip, max_vertices=2) out;\n\
             layout(triangle_strip, max_vertices=2) out;\n",
            "t.geom:4:8: layout(triangle_strip) out does not match the earlier \
             layout(line_strip) out at 3:8: all output layout declarations of a geometry \
             shader declare the same primitive type (GLSL 1.50 §4.3.8.2)",
        ),
        (
            "layout(lines) in;\nlayout(line_strip, max_vertices=2) out;\n\
             layout(line_strip, max_vertices=3) out;\n",
            "t.geom:4:33: max_vertices = 3 does not match the earlier max_vertices = 2 at \
             3:33: all output layout declarations of a geometry shader declare the same \
             value (GLSL 1.50 §4.3.8.2)",
        ),
        (
            "in vec4 c[];\nint f() { return c.length(); }\nlayout(lines) in;\n\
             layout(points, max_vertices = 1) out;\n",
            "t.geom:3:18: length() of the geometry shader input 'c', declared without a \
             size, before the input layout declaration gives it one (GLSL 1.50 §4.3.8.1)",
        ),
    ];
    for (decls, want) in cases {
        let src = format!("#version 150\n{decls}{body}");
        let e = error_of(&src);
        let first = e
            .lines()
            .next()
            .unwrap_or_default()
            .replacen(": error: ", ": ", 1);
        assert_eq!(first, want, "{src}");
    }
    // The twin of the last case: length() after the layout is the primitive's count.
    let src = "#version 150\nin vec4 c[];\nlayout(lines) in;\nlayout(points, max_vertices = 1) out;\n\
               out float n;\nvoid main() { n = float(c.length()); EmitVertex(); }\n";
    assert!(geom(src).is_ok());
}

/// GLSL 1.50 §7.1: `gl_PerVertex` is redeclared once per direction, as `gl_in[]` for
/// the input and without an instance name for the output, keeping only built-in
/// members; §7.4: the geometry stage's built-in constants.
#[test]
fn per_vertex_redeclarations_and_geometry_constants() {
    let head =
        "#version 150\nlayout(triangles) in;\nlayout(triangle_strip, max_vertices = 3) out;\n";
    let cases = [
        (
            "in gl_PerVertex { vec4 gl_Position; } gl_in[];\n\
             in gl_PerVertex { vec4 gl_Position; } gl_in[];\n",
            "interface block 'gl_PerVertex' is declared a second time in this shader (the \
             first at 4:4; GLSL 1.50 §4.3.7)",
        ),
        (
            "in gl_PerVertex { vec4 gl_Position; float gl_PointSize; vec4 t; } gl_in[];\n",
            "'t' is not a member of the built-in gl_PerVertex (gl_Position, gl_PointSize, \
             gl_ClipDistance), and a redeclaration may only keep some of those (GLSL 1.50 \
             §7.1)",
        ),
        (
            "in gl_PerVertex { vec4 gl_Position; } foo[];\n",
            "an input redeclaration of gl_PerVertex is 'in gl_PerVertex { ... } gl_in[];' \
             (GLSL 1.50 §7.1)",
        ),
        (
            "out gl_PerVertex { vec4 gl_Position; } foo;\n",
            "an output redeclaration of gl_PerVertex has no instance name and is not an \
             array: 'out gl_PerVertex { ... };' (GLSL 1.50 §7.1)",
        ),
    ];
    for (decls, want) in cases {
        let src = format!("{head}{decls}void main() {{}}\n");
        let e = error_of(&src);
        assert!(e.contains(want), "{want:?} not in {e}\n{src}");
    }
    let ok = format!(
        "{head}in gl_PerVertex {{ vec4 gl_Position; }} gl_in[];\n\
         out gl_PerVertex {{ vec4 gl_Position; }};\nout float n;\n\
         void main() {{ n = float(gl_MaxGeometryOutputVertices + \
         gl_MaxGeometryTotalOutputComponents); gl_Position = gl_in[0].gl_Position; \
         EmitVertex(); }}\n"
    );
    let s = geom(&ok).unwrap();
    // 256 + 1024, folded into the constant the output is written from.
    assert!(s.imm.contains(&1280.0), "{:?}", s.imm);
}
