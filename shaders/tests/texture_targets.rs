//! GLSL 3.30 sampler types and their lookups (GLSL 3.30 §4.1.7, §8.7): each becomes
//! one TEX instruction whose sampler slot's interface entry carries the target and
//! kind, which CSI v2 keeps; `sampler2D` keeps its own instructions and bytes.

use csir::exec::{Inputs, Machine, Outputs, Samplers, TexLod, TexRequest};
use csir::ir::{Op, SymbolKind};
use csir::sampler_type::{SampleKind, SamplerType, TexLookup, TexMode, TexTarget};
use csir::{Limits, Shader, Stage, compile, load_csi, save_csi};

fn frag(decl: &str, body: &str) -> Result<Shader, String> {
    let src =
        format!("#version 330 core\n{decl}\nin vec4 p;\nout vec4 c;\nvoid main() {{ {body} }}\n");
    compile(&src, "t.frag", Stage::Fragment, &Limits::EXTENDED).map_err(|e| e.to_string())
}

fn tex_records(s: &Shader) -> Vec<TexLookup> {
    s.ir.iter()
        .filter(|i| i.op == Op::Tex.code())
        .map(|i| TexLookup::decode(i.aux2).unwrap())
        .collect()
}

fn sampler_of(s: &Shader, name: &str) -> SamplerType {
    s.interface
        .symbols
        .iter()
        .find_map(|sym| match sym.kind {
            SymbolKind::Sampler { sampler, .. } if sym.name == name => Some(sampler),
            _ => None,
        })
        .unwrap()
}

#[test]
fn each_lookup_is_one_tex_with_its_mode_and_offset() {
    let cases: &[(&str, &str, TexMode, [i8; 3])] = &[
        (
            "uniform sampler2DArray t;",
            "c = texture(t, p.xyz);",
            TexMode::Implicit,
            [0; 3],
        ),
        (
            "uniform sampler3D t;",
            "c = texture(t, p.xyz, 1.5);",
            TexMode::Bias,
            [0; 3],
        ),
        (
            "uniform samplerCube t;",
            "c = textureLod(t, p.xyz, p.w);",
            TexMode::Lod,
            [0; 3],
        ),
        (
            "uniform sampler3D t;",
            "c = textureOffset(t, p.xyz, ivec3(1, -2, 7));",
            TexMode::Implicit,
            [1, -2, 7],
        ),
        (
            "uniform sampler2DArray t;",
            "c = textureGrad(t, p.xyz, p.xy, p.zw);",
            TexMode::Grad,
            [0; 3],
        ),
        (
            "uniform sampler3D t;",
            "c = textureGrad(t, p.xyz, p.xyz, p.zyx);",
            TexMode::Grad3,
            [0; 3],
        ),
        (
            "uniform sampler3D t;",
            "c = textureGradOffset(t, p.xyz, p.xyz, p.zyx, ivec3(1, 0, -1));",
            TexMode::Grad3,
            [1, 0, -1],
        ),
        (
            "uniform isampler3D t;",
            "c = vec4(textureProjGrad(t, p, p.xyz, p.zyx));",
            TexMode::Grad3,
            [0; 3],
        ),
        (
            "uniform samplerCube t;",
            "c = textureGrad(t, p.xyz, p.xyz, p.zyx);",
            TexMode::Grad3,
            [0; 3],
        ),
        (
            "uniform samplerCubeShadow t;",
            "c = vec4(textureGrad(t, p, p.xyz, p.zyx));",
            TexMode::Grad3,
            [0; 3],
        ),
        (
            "uniform usampler2DArray t;",
            "c = vec4(texelFetch(t, ivec3(1, 2, 0), 0));",
            TexMode::Fetch,
            [0; 3],
        ),
        (
            "uniform isamplerBuffer t;",
            "c = vec4(texelFetch(t, 5));",
            TexMode::Fetch,
            [0; 3],
        ),
        (
            "uniform sampler1D t;",
            "c = vec4(textureSize(t, 0));",
            TexMode::Size,
            [0; 3],
        ),
        (
            "uniform sampler2DShadow t;",
            "c = vec4(texture(t, p.xyz));",
            TexMode::Implicit,
            [0; 3],
        ),
        (
            "uniform sampler2DShadow t;",
            "c = shadow2D(t, p.xyz);",
            TexMode::Implicit,
            [0; 3],
        ),
        (
            "uniform sampler1D t;",
            "c = texture1DProj(t, p);",
            TexMode::Implicit,
            [0; 3],
        ),
        (
            "uniform samplerCube t;",
            "c = textureCube(t, p.xyz);",
            TexMode::Implicit,
            [0; 3],
        ),
        (
            "uniform sampler2DRect t;",
            "c = texture2DRect(t, p.xy);",
            TexMode::Implicit,
            [0; 3],
        ),
        (
            "uniform sampler2DArrayShadow t;",
            "c = vec4(texture(t, p));",
            TexMode::Implicit,
            [0; 3],
        ),
    ];
    for &(decl, body, mode, offset) in cases {
        let s = frag(decl, body).unwrap_or_else(|e| panic!("{body}: {e}"));
        assert_eq!(tex_records(&s), vec![TexLookup { mode, offset }], "{body}");
        let keyword = decl.split_whitespace().nth(1).unwrap();
        assert_eq!(sampler_of(&s, "t").keyword(), keyword);
        // CSI v2 keeps the sampler type.
        let back = load_csi(&save_csi(&s).unwrap(), &Limits::EXTENDED).unwrap();
        assert_eq!(back.interface, s.interface, "{body}");
    }
}

#[test]
fn combinations_that_glsl_does_not_give_are_errors() {
    for (decl, body, needle) in [
        (
            "uniform samplerCube t;",
            "c = textureOffset(t, p.xyz, ivec2(1));",
            "no texel offset",
        ),
        (
            "uniform samplerCube t;",
            "c = textureOffset(t, p.xyz, ivec3(1));",
            "no texel offset",
        ),
        (
            "uniform sampler2DRect t;",
            "c = textureLod(t, p.xy, 1.0);",
            "one level",
        ),
        (
            "uniform samplerBuffer t;",
            "c = texture(t, p.x);",
            "texelFetch only",
        ),
        (
            "uniform sampler3D t;",
            "c = texture(t, p.xy);",
            "wrong arguments",
        ),
        (
            "uniform sampler2DShadow t;",
            "c = texelFetch(t, ivec2(0), 0);",
            "not defined",
        ),
        (
            "uniform sampler3D t;",
            "c = textureGrad(t, p.xyz, p.xy, p.xy);",
            "wrong arguments",
        ),
        (
            "uniform samplerCube t;",
            "c = textureGrad(t, p.xyz, p.xy, p.zw);",
            "wrong arguments",
        ),
        (
            "uniform samplerCube t;",
            "c = textureProjGrad(t, p, p.xyz, p.xyz);",
            "no projective form",
        ),
        (
            "uniform sampler3D t;",
            "c = texture2D(t, p.xy);",
            "wrong arguments",
        ),
        (
            "uniform sampler2DArray t;",
            "c = textureOffset(t, p.xyz, ivec2(9, 0));",
            "out of range",
        ),
    ] {
        let e = frag(decl, body).expect_err(body);
        assert!(e.contains(needle), "{body}: {e}");
    }
    let seed = compile(
        "#version 130\nuniform sampler3D t;\nin vec3 p;\nvoid main() { gl_FragColor = texture(t, p); }",
        "s.frag",
        Stage::Fragment,
        &Limits::SEED,
    )
    .expect_err("the seed profile has no TEX")
    .to_string();
    assert!(
        seed.contains("`texture` needs the extended profile"),
        "{seed}"
    );
}

#[test]
fn sampler2d_keeps_its_instructions_and_the_seed_keeps_four_units() {
    let s = frag("uniform sampler2D t;", "c = texture(t, p.xy);").unwrap();
    assert!(tex_records(&s).is_empty());
    assert!(s.ir.iter().any(|i| i.op == Op::Sample.code()));
    assert_eq!(sampler_of(&s, "t"), SamplerType::SAMPLER_2D);
    assert_eq!(Limits::EXTENDED.samplers, 16);
    assert_eq!(Limits::SEED.samplers, 4);
}

/// Echoes what TEX asks for: the request's coordinates and λ.
struct Echo;

impl Samplers for Echo {
    fn sample(&self, _: usize, _: f32, _: f32) -> [f32; 4] {
        [0.0; 4]
    }
    fn sample_offset(&self, _: usize, _: f32, _: f32, _: [i32; 2]) -> [f32; 4] {
        [0.0; 4]
    }
    fn lookup(&self, slot: usize, r: &TexRequest) -> [f32; 4] {
        let lod = match r.lod {
            TexLod::Level(l) => l,
            TexLod::Derivatives { bias, .. } => 100.0 + bias,
        };
        [
            r.coord[0],
            r.coord[2],
            lod,
            slot as f32 + f32::from(r.offset[2]),
        ]
    }
}

#[test]
fn the_interpreter_passes_coordinates_reference_and_projection() {
    let run = |decl: &str, body: &str, p: [f32; 4]| {
        let s = frag(decl, body).unwrap();
        let varyings = [p];
        let inputs = Inputs {
            varyings: &varyings,
            samplers: &Echo,
            ..Inputs::default()
        };
        let mut out = Outputs::default();
        Machine::new(&s).unwrap().run(&inputs, &mut out).unwrap();
        out.color
    };
    // textureProj on a 3D sampler divides s, t, r by q; a lone invocation's λ is the bias.
    let c = run(
        "uniform sampler3D t;",
        "c = textureProj(t, p, 0.5);",
        [1.0, 2.0, 3.0, 4.0],
    );
    assert_eq!(c, [0.25, 0.75, 0.5, 0.0]);
    // the 1D shadow reference is P.z, and shadow1DProj divides it by q
    let c = run(
        "uniform sampler1DShadow t;",
        "c = shadow1DProj(t, p);",
        [1.0, 9.0, 3.0, 2.0],
    );
    assert_eq!([c[0], c[1]], [0.5, 1.5]);
    let st = SamplerType::from_keyword("sampler1DShadow").unwrap();
    assert_eq!((st.target, st.kind), (TexTarget::D1, SampleKind::Shadow));
}

/// Echoes a lookup's gradients: `(dPdx.z, dPdy.x, dPdy.y, dPdy.z)`.
struct EchoGradients;

impl Samplers for EchoGradients {
    fn sample(&self, _: usize, _: f32, _: f32) -> [f32; 4] {
        [0.0; 4]
    }
    fn sample_offset(&self, _: usize, _: f32, _: f32, _: [i32; 2]) -> [f32; 4] {
        [0.0; 4]
    }
    fn lookup(&self, _: usize, r: &TexRequest) -> [f32; 4] {
        match r.lod {
            TexLod::Derivatives { dx, dy, bias } => {
                assert_eq!((dx[0], dx[1], bias), (r.coord[1], r.coord[0], 0.0));
                [dx[2], dy[0], dy[1], dy[2]]
            }
            TexLod::Level(_) => [-1.0; 4],
        }
    }
}

#[test]
fn grad_on_3d_and_cube_samplers_passes_three_components_per_direction() {
    for (decl, body) in [
        (
            "uniform sampler3D t;",
            "c = textureGrad(t, p.xyz, p.yxz, p.wzy * 2.0);",
        ),
        (
            "uniform samplerCube t;",
            "c = textureGrad(t, p.xyz, p.yxz, p.wzy * 2.0);",
        ),
        (
            "uniform sampler3D t;",
            "c = textureProjGrad(t, vec4(p.xyz, 1.0), p.yxz, p.wzy * 2.0);",
        ),
    ] {
        let s = frag(decl, body).unwrap_or_else(|e| panic!("{body}: {e}"));
        let varyings = [[1.0, 2.0, 3.0, 4.0]];
        let inputs = Inputs {
            varyings: &varyings,
            samplers: &EchoGradients,
            ..Inputs::default()
        };
        let mut out = Outputs::default();
        Machine::new(&s).unwrap().run(&inputs, &mut out).unwrap();
        // dPdx = p.yxz = (2, 1, 3), dPdy = 2·p.wzy = (8, 6, 4)
        assert_eq!(out.color, [3.0, 8.0, 6.0, 4.0], "{body}");
        let back = load_csi(&save_csi(&s).unwrap(), &Limits::EXTENDED).unwrap();
        assert_eq!(back.ir, s.ir, "{body}");
    }
}

fn sampler_slot(s: &Shader, name: &str) -> Option<u16> {
    s.interface.symbols.iter().find_map(|sym| match sym.kind {
        SymbolKind::Sampler { slot, .. } if sym.name == name => Some(slot),
        _ => None,
    })
}

#[test]
fn an_array_of_samplers_takes_a_unit_per_element_indexed_by_constants() {
    let s = frag(
        "uniform sampler2D tex[3];\nuniform samplerCube env;\nuniform sampler3D vol[2];\n\
         const int K = 1;\nvec4 look(sampler2D t, vec2 uv) { return texture(t, uv); }",
        "c = texture(tex[2], p.xy) + look(tex[K], p.zw) + texture(vol[1], p.xyz) \
         + texture(env, p.xyz);",
    )
    .unwrap();
    // GLSL 3.30 §4.1.7: each element its own sampler, named as OpenGL names it.
    for (name, slot) in [
        ("tex[0]", 0),
        ("tex[1]", 1),
        ("tex[2]", 2),
        ("env", 3),
        ("vol[0]", 4),
        ("vol[1]", 5),
    ] {
        assert_eq!(sampler_slot(&s, name), Some(slot), "{name}");
    }
    assert_eq!(sampler_slot(&s, "tex"), None);
    assert_eq!(sampler_of(&s, "vol[1]").keyword(), "sampler3D");
    assert_eq!(s.interface.samp_hi, 5);
    // The lookups read units 2 (tex[2]), 1 (tex[K] through the function), 5 and 3.
    let mut units: Vec<i16> =
        s.ir.iter()
            .filter(|i| i.op == Op::Sample.code() || i.op == Op::Tex.code())
            .map(|i| i.aux)
            .collect();
    units.sort();
    assert_eq!(units, vec![1, 2, 3, 5]);
    let back = load_csi(&save_csi(&s).unwrap(), &Limits::EXTENDED).unwrap();
    assert_eq!(back.interface, s.interface);
}

#[test]
fn a_sampler_array_index_that_is_not_constant_is_an_error_naming_the_rule() {
    let e = frag(
        "uniform sampler2D tex[4];\nuniform int k;",
        "c = texture(tex[k], p.xy);",
    )
    .unwrap_err();
    assert!(
        e.contains(
            "an array of samplers can only be indexed with a constant integral expression \
             (GLSL 3.30 §4.1.7)"
        ),
        "{e}"
    );
    // A loop index is no constant expression in GLSL 1.30 and later (piglit's
    // glsl-1.30 sampler-array-index-03), though unrolling knows its value.
    let e = frag(
        "uniform sampler2D tex[4];",
        "c = vec4(0.0); for (int i = 0; i < 4; i++) c += texture(tex[i], p.xy);",
    )
    .unwrap_err();
    assert!(e.contains("constant integral expression"), "{e}");
    // GLSL 1.10 takes it (glsl-1.10 sampler-array-index-02): one lookup per unit.
    let s = compile(
        "#version 110
uniform sampler2D tex[4];
void main() { vec4 c = vec4(0.0); \
         for (int i = 0; i < 4; i++) c += texture2D(tex[i], vec2(0.5)); gl_FragColor = c; }",
        "old.frag",
        Stage::Fragment,
        &Limits::EXTENDED,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut units: Vec<i16> =
        s.ir.iter()
            .filter(|i| i.op == Op::Sample.code())
            .map(|i| i.aux)
            .collect();
    units.sort();
    assert_eq!(units, vec![0, 1, 2, 3]);
    let e = frag("uniform sampler2D tex[4];", "c = texture(tex[4], p.xy);").unwrap_err();
    assert!(e.contains("out of range") || e.contains("index"), "{e}");
    // 16 units per stage: an array past them is refused by name.
    let e = frag("uniform sampler2D many[17];", "c = texture(many[0], p.xy);").unwrap_err();
    assert!(e.contains("too many samplers"), "{e}");
}

#[test]
fn an_array_of_samplers_passes_whole_to_a_function() {
    // GLSL 1.10's execution/samplers/in-parameter-array: `sampler2D t[2]` as a parameter.
    let s = frag(
        "uniform sampler2D tex[2];\n\
         vec4 pick(in sampler2D t[2], vec2 uv) { return uv.x < 0.5 ? texture(t[0], uv) : texture(t[1], uv); }",
        "c = pick(tex, p.xy);",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut units: Vec<i16> =
        s.ir.iter()
            .filter(|i| i.op == Op::Sample.code())
            .map(|i| i.aux)
            .collect();
    units.sort();
    assert_eq!(units, vec![0, 1]);
}
