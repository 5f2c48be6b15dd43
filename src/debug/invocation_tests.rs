//! `run_invocation`: values bound by name, GL's defaults and the error for every way a
//! value can fail to fit the shader.

use super::*;
use crate::texture::Texture;
use csir::{Limits, Shader, Stage};

fn compile(source: &str, stage: Stage) -> Shader {
    let name = match stage {
        Stage::Vertex => "t.vert",
        Stage::Fragment => "t.frag",
        Stage::Geometry => "t.geom",
    };
    csir::compile(source, name, stage, &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

const VERT: &str = "#version 330 core
layout(location = 0) in vec4 aPos;
layout(location = 3) in vec2 aUV;
uniform mat4 uM;
uniform vec2 uOffset;
out vec2 vUV;
out float vSum;
void main() {
    gl_Position = uM * aPos;
    vUV = aUV + uOffset;
    vSum = aPos.x + aPos.y + aPos.z + aPos.w;
}
";

const FRAG: &str = "#version 330 core
in vec2 vUV;
uniform float uCut;
uniform sampler2D uTex;
out vec4 color;
void main() {
    vec4 t = texture(uTex, vUV);
    if (gl_FragCoord.x > uCut) { discard; }
    color = t * vec4(1.0, 1.0, 1.0, 0.5);
}
";

fn assign(text: &str) -> Assignment {
    text.parse().unwrap()
}

/// The lanes of output `name` (these shaders have float outputs only).
fn output(inv: &Invocation, name: &str) -> Vec<f32> {
    let values = &inv.outputs.iter().find(|o| o.name == name).unwrap().values;
    values.iter().map(|v| v.carrier()).collect()
}

#[test]
fn vertex_outputs_by_name_with_column_major_matrices_and_gl_attribute_lanes() {
    let shader = compile(VERT, Stage::Vertex);
    let request = InvocationRequest {
        // Column-major: the last column is the translation (10, 20, 30).
        uniforms: vec![assign("uM=1,0,0,0, 0,1,0,0, 0,0,1,0, 10,20,30,1")],
        // Only x and y: z = 0 and w = 1, as in GL.
        attributes: vec![assign("0=1,2"), assign("aUV=0.5")],
        ..InvocationRequest::default()
    };
    let inv = run_invocation(&shader, &request).unwrap();
    assert_eq!(inv.stage, "vertex");
    assert_eq!(inv.outputs[0].name, "gl_Position");
    assert_eq!(output(&inv, "gl_Position"), [11.0, 22.0, 30.0, 1.0]);
    assert_eq!(output(&inv, "vSum"), [4.0]);
    assert_eq!(
        output(&inv, "vUV"),
        [0.5, 0.0],
        "aUV = (0.5, 0), uOffset = 0"
    );
    assert_eq!(inv.discarded, None);
    let defaulted: Vec<&str> = inv.defaulted.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(defaulted, ["uOffset"]);
    assert!(inv.executed > 0 && inv.executed == inv.instructions.len());
}

#[test]
fn missing_inputs_read_gl_defaults_and_are_listed_in_declaration_order() {
    let shader = compile(VERT, Stage::Vertex);
    let inv = run_invocation(&shader, &InvocationRequest::default()).unwrap();
    let listed: Vec<(InputKind, &str, &[f32])> = inv
        .defaulted
        .iter()
        .map(|d| (d.kind, d.name.as_str(), d.value.as_slice()))
        .collect();
    assert_eq!(
        listed,
        [
            (InputKind::Attribute, "aPos", &[0.0, 0.0, 0.0, 1.0][..]),
            (InputKind::Attribute, "aUV", &[0.0, 0.0][..]),
            (InputKind::Uniform, "uM", &[0.0; 16][..]),
            (InputKind::Uniform, "uOffset", &[0.0; 2][..]),
        ]
    );
    assert_eq!(
        inv.defaulted[0].to_string(),
        "attribute 'aPos' (vec4) not given: reads (0, 0, 0, 1)"
    );
    assert_eq!(
        output(&inv, "vSum"),
        [1.0],
        "the default attribute's w is 1"
    );
    let strict = InvocationRequest {
        strict: true,
        ..InvocationRequest::default()
    };
    let err = run_invocation(&shader, &strict).unwrap_err();
    assert_eq!(
        err.to_string(),
        "--strict: every input must be given, and these are not: \
         attribute 'aPos' (vec4, --attr), attribute 'aUV' (vec2, --attr), \
         uniform 'uM' (mat4, --uniform), uniform 'uOffset' (vec2, --uniform)"
    );
}

#[test]
fn fragment_inputs_texture_and_discard() {
    let shader = compile(FRAG, Stage::Fragment);
    // 2x1 texture after the flip: texel 0 red, texel 1 green.
    let texture = Texture::from_texels(2, 1, vec![[255, 0, 0, 255], [0, 255, 0, 255]]).unwrap();
    let request = |x: f32| InvocationRequest {
        uniforms: vec![assign("uCut=100")],
        varyings: vec![assign("vUV=0.75,0.5")],
        frag_coord: Some(vec![x, 0.5, 0.5, 1.0]),
        textures: vec![("uTex".into(), texture.clone())],
        ..InvocationRequest::default()
    };
    let kept = run_invocation(&shader, &request(10.5)).unwrap();
    assert!(kept.defaulted.is_empty(), "{:?}", kept.defaulted);
    assert_eq!(kept.discarded, Some(false));
    assert_eq!(output(&kept, "color"), [0.0, 1.0, 0.0, 0.5]);
    let dropped = run_invocation(&shader, &request(100.5)).unwrap();
    assert_eq!(dropped.discarded, Some(true));
    assert_eq!(dropped.instructions.last().unwrap().instruction, "discard");
    assert_eq!(
        output(&dropped, "color"),
        [0.0; 4],
        "nothing was stored before the discard"
    );
}

#[test]
fn unset_samplers_and_frag_coord_are_noted() {
    let shader = compile(FRAG, Stage::Fragment);
    let inv = run_invocation(&shader, &InvocationRequest::default()).unwrap();
    let notes: Vec<String> = inv.defaulted.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        notes,
        [
            "varying 'vUV' (vec2) not given: reads (0, 0)",
            "uniform 'uCut' (float) not given: reads (0)",
            "sampler 'uTex' (sampler2D) not given: no texture, samples read (0, 0, 0, 0)",
            "fragcoord 'gl_FragCoord' (vec4) not given: reads (0.5, 0.5, 0.5, 1)",
        ]
    );
    assert_eq!(inv.discarded, Some(true), "0.5 > 0: discarded");
}

#[test]
fn every_bad_value_is_a_clear_error() {
    let vert = compile(VERT, Stage::Vertex);
    let frag = compile(FRAG, Stage::Fragment);
    let err = |shader: &Shader, request: InvocationRequest| {
        run_invocation(shader, &request).unwrap_err().to_string()
    };
    let uniforms = |list: &[&str]| InvocationRequest {
        uniforms: list.iter().map(|s| assign(s)).collect(),
        ..InvocationRequest::default()
    };
    assert_eq!(
        err(&vert, uniforms(&["uMVP=1"])),
        "t.vert declares no uniform 'uMVP'; its uniforms: uM (mat4), uOffset (vec2)"
    );
    assert_eq!(
        err(&vert, uniforms(&["uM=1,2,3"])),
        "--uniform uM: 'uM' is mat4 and takes 16 floats, got 3"
    );
    assert_eq!(
        err(&vert, uniforms(&["uOffset[0]=1,2"])),
        "--uniform uOffset[0]: 'uOffset' has no element 0"
    );
    assert!(err(&vert, uniforms(&["uOffset[x]=1,2"])).contains("declares no uniform 'uOffset[x]'"));
    // Samplers are uniforms too: listed, marked as samplers.
    assert_eq!(
        err(&frag, uniforms(&["uNope=1"])),
        "t.frag declares no uniform 'uNope'; its uniforms: uCut (float), \
         uTex (sampler2D, a sampler: give it a texture with --texture)"
    );
    assert_eq!(
        err(&frag, uniforms(&["uCut=1", "uCut=2"])),
        "uniform 'uCut' is given twice"
    );
    assert_eq!(
        err(&frag, uniforms(&["uTex=1"])),
        "--uniform uTex: 'uTex' is a sampler: bind a texture to it instead of giving values"
    );
    let attrs = |list: &[&str]| InvocationRequest {
        attributes: list.iter().map(|s| assign(s)).collect(),
        ..InvocationRequest::default()
    };
    assert_eq!(
        err(&vert, attrs(&["1=0"])),
        "t.vert declares no attribute '1'; its attributes: 0 aPos (vec4), 3 aUV (vec2)"
    );
    assert_eq!(
        err(&vert, attrs(&["aUV=1,2,3"])),
        "attribute 'aUV' is vec2 and takes 1 to 2 floats, got 3"
    );
    assert_eq!(
        err(&vert, attrs(&["3=1", "aUV=2"])),
        "attribute 'aUV' is given twice"
    );
    assert_eq!(
        err(&frag, attrs(&["0=1"])),
        "--attr gives vertex shader inputs, but t.frag is a fragment shader"
    );
    let varyings = InvocationRequest {
        varyings: vec![assign("vUV=1")],
        ..InvocationRequest::default()
    };
    assert_eq!(
        err(&frag, varyings.clone()),
        "varying 'vUV' is vec2 and takes 2 floats, got 1"
    );
    assert_eq!(
        err(&vert, varyings),
        "--varying gives fragment shader inputs, but t.vert is a vertex shader"
    );
    let unknown_varying = InvocationRequest {
        varyings: vec![assign("vColor=1,2,3,4")],
        ..InvocationRequest::default()
    };
    assert_eq!(
        err(&frag, unknown_varying),
        "t.frag declares no varying 'vColor'; its varyings: vUV (vec2)"
    );
    let coord = InvocationRequest {
        frag_coord: Some(vec![1.0, 2.0]),
        ..InvocationRequest::default()
    };
    assert_eq!(
        err(&frag, coord.clone()),
        "fragcoord 'gl_FragCoord' is vec4 and takes 4 floats, got 2"
    );
    assert!(err(&vert, coord).starts_with("--fragcoord gives fragment shader inputs"));
    let texture = Texture::from_texels(1, 1, vec![[0; 4]]).unwrap();
    let textures = |name: &str| InvocationRequest {
        textures: vec![(name.into(), texture.clone())],
        ..InvocationRequest::default()
    };
    assert_eq!(
        err(&frag, textures("uCut")),
        "--texture uCut: 'uCut' is a float uniform, not a sampler2D"
    );
    assert_eq!(
        err(&frag, textures("uNope")),
        "t.frag declares no sampler 'uNope'; its samplers: uTex (sampler2D)"
    );
    assert_eq!(
        err(&vert, textures("uTex")),
        "t.vert declares no sampler 'uTex'; it declares no samplers"
    );
}

#[test]
fn frag_coord_is_noted_only_when_the_shader_uses_it() {
    // Every fragment shader's prologue loads gl_FragCoord; this one never reads it.
    let shader = compile(
        "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
        Stage::Fragment,
    );
    let inv = run_invocation(&shader, &InvocationRequest::default()).unwrap();
    assert!(inv.defaulted.is_empty(), "{:?}", inv.defaulted);
    assert_eq!(output(&inv, "c"), [1.0; 4]);
}
