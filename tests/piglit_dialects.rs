//! GLSL as written: every piglit test of the selection that passes after a mechanical
//! rewrite of its shaders into `#version 330 core` must pass as written too
//! (docs/conformance.md, "Shaders as written and rewritten into 330 core").
//!
//! The rewrite is what a user porting a GLSL 1.10-1.50 shader to the core profile
//! does: `attribute` → `in`, `varying` → `out`/`in`, `gl_FragColor` → a declared
//! output, `texture2D` → `texture`, the compatibility attributes and varyings →
//! declared ones (`gl_Vertex` → `piglit_vertex`, which shader_runner feeds), the
//! built-in matrices → their default value, the identity. A test whose meaning the
//! core profile cannot keep (it sets a built-in matrix, uses two-sided colour, a
//! compatibility built-in with no core twin, or a name that is a keyword in 3.30) is
//! not rewritten, and counted by reason.
//!
//! With `CSIR_PIGLIT_REWRITE_DIR=DIR` the rewritten tests are also written under DIR
//! (by their path in the corpus), to run or read them. With
//! `CSIR_PIGLIT_WRITE_BASELINE=1` (`scripts/update-piglit-baseline.sh`) the counts
//! are written into docs/conformance.md between its `piglit-dialects` markers.

mod common;

use common::piglit::{
    SELECTION, corpus_or_skip, selection_files, today, version, write_doc_block, writing_baseline,
};
use csir_render::shader_test::{RunOptions, TestReport, run_text};
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Words that may be names in GLSL 1.10 and 1.20 but are keywords in GLSL 3.30
/// (GLSL 3.30 §3.6): a shader older than 1.30 using one as a name cannot be rewritten
/// by renaming alone.
const KEYWORDS_330: [&str; 20] = [
    "flat",
    "smooth",
    "noperspective",
    "layout",
    "uint",
    "uvec2",
    "uvec3",
    "uvec4",
    "isampler1D",
    "isampler2D",
    "isampler3D",
    "isamplerCube",
    "usampler1D",
    "usampler2D",
    "usampler3D",
    "usamplerCube",
    "samplerBuffer",
    "sampler1DArray",
    "sampler2DArray",
    "patch",
];

/// Compatibility built-ins the rewrite maps, and to what: a declared global of the
/// same meaning. `(name, stage-independent replacement, declaration)`. The vertex
/// attributes become `in`s named as shader_runner and `[vertex data]` feed them; the
/// colour and fog varyings become declared varyings.
const ATTRIBUTES: [(&str, &str, &str); 8] = [
    ("gl_Vertex", "piglit_vertex", "vec4"),
    ("gl_MultiTexCoord0", "piglit_texcoord", "vec4"),
    ("gl_Normal", "csir_Normal", "vec3"),
    ("gl_Color", "csir_Color", "vec4"),
    ("gl_SecondaryColor", "csir_SecondaryColor", "vec4"),
    ("gl_MultiTexCoord1", "csir_MultiTexCoord1", "vec4"),
    ("gl_MultiTexCoord2", "csir_MultiTexCoord2", "vec4"),
    ("gl_MultiTexCoord3", "csir_MultiTexCoord3", "vec4"),
];

/// Vertex outputs and the fragment inputs that read them: `(vertex name, fragment
/// name, varying, type)`.
const VARYINGS: [(&str, &str, &str, &str); 3] = [
    ("gl_FrontColor", "gl_Color", "csir_FrontColor", "vec4"),
    (
        "gl_FrontSecondaryColor",
        "gl_SecondaryColor",
        "csir_FrontSecondaryColor",
        "vec4",
    ),
    (
        "gl_FogFragCoord",
        "gl_FogFragCoord",
        "csir_FogFragCoord",
        "float",
    ),
];

/// The built-in matrices and what the rewrite makes of them. shader_runner's `ortho`
/// and `frustum` set the projection and leave the modelview matrix the identity, so the
/// modelview family stays the identity; the two matrices those commands set become
/// declared uniforms the rewritten script sets; their inverses and transposes are not
/// rewritten when the script sets them.
const MATRICES: [(&str, Matrix); 12] = [
    ("gl_ModelViewMatrix", Matrix::Identity("mat4(1.0)")),
    ("gl_ModelViewMatrixInverse", Matrix::Identity("mat4(1.0)")),
    ("gl_ModelViewMatrixTranspose", Matrix::Identity("mat4(1.0)")),
    (
        "gl_ModelViewMatrixInverseTranspose",
        Matrix::Identity("mat4(1.0)"),
    ),
    ("gl_NormalMatrix", Matrix::Identity("mat3(1.0)")),
    ("gl_TextureMatrix", Matrix::Identity("mat4(1.0)")),
    ("gl_ProjectionMatrix", Matrix::Uniform(PROJECTION)),
    ("gl_ModelViewProjectionMatrix", Matrix::Uniform(MVP)),
    ("gl_ProjectionMatrixInverse", Matrix::Derived),
    ("gl_ProjectionMatrixTranspose", Matrix::Derived),
    ("gl_ModelViewProjectionMatrixInverse", Matrix::Derived),
    ("gl_ModelViewProjectionMatrixTranspose", Matrix::Derived),
];

/// The uniform standing for `gl_ModelViewProjectionMatrix`.
const MVP: &str = "csir_ModelViewProjectionMatrix";
/// The uniform standing for `gl_ProjectionMatrix`.
const PROJECTION: &str = "csir_ProjectionMatrix";

/// What a built-in matrix becomes.
#[derive(Clone, Copy)]
enum Matrix {
    /// Always the identity under shader_runner's commands: this constant.
    Identity(&'static str),
    /// Set by `ortho`/`frustum`: a declared `mat4` uniform, the identity until set.
    Uniform(&'static str),
    /// Derived from the projection: the identity unless the script sets it.
    Derived,
}

/// What a rewritten shader reads of the built-in matrices.
#[derive(Default)]
struct MatrixUse {
    /// The uniforms it declares for them ([`MVP`], [`PROJECTION`]).
    uniforms: Vec<&'static str>,
    /// Whether it reads an inverse or transpose of the projection.
    derived: bool,
}

/// The texture look-ups of GLSL 1.10 and their 3.30 names (GLSL 3.30 §8.7).
const TEXTURE_RENAMES: [(&str, &str); 16] = [
    ("texture1D", "texture"),
    ("texture2D", "texture"),
    ("texture3D", "texture"),
    ("textureCube", "texture"),
    ("texture1DProj", "textureProj"),
    ("texture2DProj", "textureProj"),
    ("texture3DProj", "textureProj"),
    ("texture1DLod", "textureLod"),
    ("texture2DLod", "textureLod"),
    ("texture3DLod", "textureLod"),
    ("textureCubeLod", "textureLod"),
    ("texture1DProjLod", "textureProjLod"),
    ("texture2DProjLod", "textureProjLod"),
    ("texture3DProjLod", "textureProjLod"),
    ("texture2DRect", "texture"),
    ("texture2DRectProj", "textureProj"),
];

/// The `gl_` names GLSL 3.30 core still has (GLSL 3.30 §7): left as they are.
const CORE_BUILTINS: [&str; 13] = [
    "gl_Position",
    "gl_PointSize",
    "gl_ClipDistance",
    "gl_VertexID",
    "gl_InstanceID",
    "gl_FragCoord",
    "gl_FrontFacing",
    "gl_PointCoord",
    "gl_FragDepth",
    "gl_PrimitiveID",
    "gl_DepthRange",
    "gl_DepthRangeParameters",
    "gl_PerVertex",
];

/// Which stage a shader text is for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Vertex,
    Fragment,
}

/// The length of the number at the start of `text` (`1`, `1.5e-3`, `0x1F`, `2u`,
/// `1.0f`), so that its letters are not taken for names.
fn number_len(text: &str) -> usize {
    let b = text.as_bytes();
    let hex = text.starts_with("0x") || text.starts_with("0X");
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let exponent_sign =
            (c == b'+' || c == b'-') && !hex && i > 0 && (b[i - 1] == b'e' || b[i - 1] == b'E');
        if c.is_ascii_alphanumeric() || c == b'.' || c == b'_' || exponent_sign {
            i += 1;
        } else {
            break;
        }
    }
    i
}

/// If `text`, after white space, starts with `what`, the bytes that covers.
fn eat(text: &str, what: &str) -> Option<usize> {
    let trimmed = text.trim_start();
    trimmed
        .starts_with(what)
        .then(|| text.len() - trimmed.len() + what.len())
}

/// If `text`, after white space, is `[N]` with a decimal N: N and the bytes covered.
fn constant_index(text: &str) -> Option<(u32, usize)> {
    let open = eat(text, "[")?;
    let close = text[open..].find(']')?;
    let n = text[open..open + close].trim().parse().ok()?;
    Some((n, open + close + 1))
}

/// Rewrite one shader into `#version 330 core`, or say why it cannot be.
/// `default_version` is the version of a shader without a `#version` line: shader_runner
/// gives it the `[require]` section's GLSL version. The result also says which built-in
/// matrices the shader reads (directly or through `ftransform`).
fn rewrite_shader(
    text: &str,
    stage: Stage,
    default_version: u32,
) -> Result<(String, MatrixUse), String> {
    let mut matrices = MatrixUse::default();
    let mut body = String::new();
    let mut declarations: Vec<String> = Vec::new();
    let declare = |d: String, declarations: &mut Vec<String>| {
        if !declarations.contains(&d) {
            declarations.push(d);
        }
    };
    // The version the shader is written in.
    let version: u32 = text
        .lines()
        .find_map(|l| {
            let rest = l.trim_start().strip_prefix('#')?.trim_start();
            rest.strip_prefix("version")?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or(default_version);
    // Declarations go after the leading `#version`/`#extension` lines.
    let mut declarations_at = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix('#') {
            let rest = rest.trim_start();
            if rest.starts_with("version") {
                body.push('\n');
            } else {
                body.push_str(line);
            }
            if rest.starts_with("version") || rest.starts_with("extension") {
                declarations_at = body.len();
            }
            continue;
        }
        let mut pos = 0;
        while pos < line.len() {
            let rest = &line[pos..];
            let c = rest.as_bytes()[0];
            let next_is_digit = rest.as_bytes().get(1).is_some_and(u8::is_ascii_digit);
            if c.is_ascii_digit() || (c == b'.' && next_is_digit) {
                let n = number_len(rest);
                body.push_str(&rest[..n]);
                pos += n;
                continue;
            }
            if !(c.is_ascii_alphabetic() || c == b'_') {
                let ch = rest.chars().next().unwrap_or(' ');
                body.push(ch);
                pos += ch.len_utf8();
                continue;
            }
            let n = rest
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                .count();
            let word = &rest[..n];
            pos += n;
            let after = &line[pos..];
            let replacement: String = match word {
                "attribute" => "in".into(),
                "varying" => match stage {
                    Stage::Vertex => "out".into(),
                    Stage::Fragment => "in".into(),
                },
                "ftransform" => {
                    // ftransform() is MVP · gl_Vertex.
                    let Some(call) = eat(after, "(").and_then(|o| Some(o + eat(&after[o..], ")")?))
                    else {
                        return Err("ftransform written other than as `ftransform()`".into());
                    };
                    pos += call;
                    declare("in vec4 piglit_vertex;".into(), &mut declarations);
                    declare(
                        format!("uniform mat4 {MVP} = mat4(1.0);"),
                        &mut declarations,
                    );
                    if !matrices.uniforms.contains(&MVP) {
                        matrices.uniforms.push(MVP);
                    }
                    format!("({MVP} * piglit_vertex)")
                }
                "gl_FragColor" if stage == Stage::Fragment => {
                    declare("out vec4 csir_FragColor;".into(), &mut declarations);
                    "csir_FragColor".into()
                }
                "gl_FragData" if stage == Stage::Fragment => match constant_index(after) {
                    Some((0, covered)) => {
                        pos += covered;
                        declare("out vec4 csir_FragColor;".into(), &mut declarations);
                        "csir_FragColor".into()
                    }
                    _ => return Err("gl_FragData with an index other than [0]".into()),
                },
                "gl_TexCoord" => {
                    // gl_TexCoord[N] with a constant N → a varying per coordinate.
                    let Some((n, covered)) = constant_index(after) else {
                        return Err("gl_TexCoord with a non-constant index".into());
                    };
                    pos += covered;
                    let name = format!("csir_TexCoord{n}");
                    let qualifier = if stage == Stage::Vertex { "out" } else { "in" };
                    declare(format!("{qualifier} vec4 {name};"), &mut declarations);
                    name
                }
                w if w.starts_with("gl_") => {
                    let varying = VARYINGS.iter().find(|(v, f, _, _)| match stage {
                        Stage::Vertex => *v == w,
                        Stage::Fragment => *f == w,
                    });
                    let attribute = ATTRIBUTES.iter().find(|(a, _, _)| *a == w);
                    let matrix = MATRICES.iter().find(|(m, _)| *m == w);
                    if let Some((_, _, name, ty)) = varying {
                        let qualifier = if stage == Stage::Vertex { "out" } else { "in" };
                        declare(format!("{qualifier} {ty} {name};"), &mut declarations);
                        (*name).into()
                    } else if let (Stage::Vertex, Some((_, name, ty))) = (stage, attribute) {
                        declare(format!("in {ty} {name};"), &mut declarations);
                        (*name).into()
                    } else if let Some((_, m)) = matrix {
                        match m {
                            Matrix::Identity(value) => (*value).into(),
                            Matrix::Uniform(name) => {
                                declare(
                                    format!("uniform mat4 {name} = mat4(1.0);"),
                                    &mut declarations,
                                );
                                if !matrices.uniforms.contains(name) {
                                    matrices.uniforms.push(name);
                                }
                                (*name).into()
                            }
                            Matrix::Derived => {
                                matrices.derived = true;
                                "mat4(1.0)".into()
                            }
                        }
                    } else if CORE_BUILTINS.contains(&w) || w.starts_with("gl_Max") {
                        w.into()
                    } else {
                        return Err(format!("uses {w}, which 330 core does not have"));
                    }
                }
                w => {
                    if let Some((_, new)) = TEXTURE_RENAMES.iter().find(|(old, _)| *old == w) {
                        (*new).into()
                    } else if version < 130 && KEYWORDS_330.contains(&w) {
                        return Err(format!("uses '{w}', a keyword in GLSL 3.30, as a name"));
                    } else if w == "texture" && version < 130 && eat(after, "(").is_none() {
                        return Err(
                            "uses 'texture', a built-in function in GLSL 3.30, as a name".into(),
                        );
                    } else if w.starts_with("shadow") && w.len() > 6 {
                        // shadow2D returns a vec4, texture() on a shadow sampler a float.
                        return Err(format!("uses {w}"));
                    } else {
                        w.into()
                    }
                }
            };
            body.push_str(&replacement);
        }
    }
    let mut text = String::from("#version 330 core\n");
    text.push_str(&body[..declarations_at]);
    for d in &declarations {
        text.push_str(d);
        text.push('\n');
    }
    text.push_str(&body[declarations_at..]);
    Ok((text, matrices))
}

/// glOrtho(l, r, b, t, -1, 1), column by column (GL 2.1 §2.11.2), as shader_runner's
/// `ortho` sets it.
fn ortho(l: f32, r: f32, b: f32, t: f32) -> [f32; 16] {
    let (n, f) = (-1.0f32, 1.0f32);
    [
        2.0 / (r - l),
        0.0,
        0.0,
        0.0,
        0.0,
        2.0 / (t - b),
        0.0,
        0.0,
        0.0,
        0.0,
        -2.0 / (f - n),
        0.0,
        -(r + l) / (r - l),
        -(t + b) / (t - b),
        -(f + n) / (f - n),
        1.0,
    ]
}

/// glFrustum(l, r, b, t, n, f), column by column (GL 2.1 §2.11.2).
fn frustum(l: f32, r: f32, b: f32, t: f32, n: f32, f: f32) -> [f32; 16] {
    [
        2.0 * n / (r - l),
        0.0,
        0.0,
        0.0,
        0.0,
        2.0 * n / (t - b),
        0.0,
        0.0,
        (r + l) / (r - l),
        (t + b) / (t - b),
        -(f + n) / (f - n),
        -1.0,
        0.0,
        0.0,
        -(2.0 * f * n) / (f - n),
        0.0,
    ]
}

/// Rewrite a whole `.shader_test` file: its shaders into 330 core, its `[require]`
/// GLSL version to 3.30, and `[vertex data]` columns of compatibility attributes to the
/// declared names. `Err` says why the test cannot be rewritten.
fn rewrite_test(text: &str) -> Result<String, String> {
    #[derive(PartialEq)]
    enum In {
        Other,
        Require,
        Shader(Stage),
        VertexData,
        Test,
    }
    let mut out = String::new();
    let mut section = In::Other;
    let mut shader = String::new();
    let mut vertex_data_header = true;
    let mut glsl_version = 110;
    let mut window = (250.0f32, 250.0f32);
    let mut matrices = MatrixUse::default();
    let flush = |section: &In,
                 shader: &mut String,
                 out: &mut String,
                 glsl_version: u32,
                 matrices: &mut MatrixUse|
     -> Result<(), String> {
        if let In::Shader(stage) = section {
            let (text, used) = rewrite_shader(shader, *stage, glsl_version)?;
            out.push_str(&text);
            matrices.derived |= used.derived;
            for u in used.uniforms {
                if !matrices.uniforms.contains(&u) {
                    matrices.uniforms.push(u);
                }
            }
            shader.clear();
        }
        Ok(())
    };
    for line in text.split_inclusive('\n') {
        if section == In::Test {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["ortho", rest @ ..] | ["frustum", rest @ ..] => {
                    if matrices.derived {
                        return Err("sets the projection and reads its inverse or transpose".into());
                    }
                    let v: Vec<f32> = rest.iter().filter_map(|w| w.parse().ok()).collect();
                    let projection = match (words[0], v.as_slice()) {
                        ("ortho", []) => ortho(0.0, window.0, 0.0, window.1),
                        ("ortho", [l, r, b, t]) => ortho(*l, *r, *b, *t),
                        ("frustum", [l, r, b, t, n, f]) => frustum(*l, *r, *b, *t, *n, *f),
                        _ => return Err(format!("a malformed '{}'", line.trim())),
                    };
                    // The modelview matrix stays the identity: MVP = projection.
                    for name in &matrices.uniforms {
                        let values: Vec<String> =
                            projection.iter().map(|x| format!("{x:?}")).collect();
                        out.push_str(&format!("uniform mat4 {name} {}\n", values.join(" ")));
                    }
                    continue;
                }
                ["uniform", _, name, ..] if name.starts_with("gl_") => {
                    return Err(format!("sets the built-in uniform {name}"));
                }
                ["enable", cap] | ["disable", cap] if cap.starts_with("GL_CLIP_PLANE") => {
                    return Err("uses a user clip plane".into());
                }
                ["enable", "GL_VERTEX_PROGRAM_TWO_SIDE"] => {
                    return Err("uses two-sided colour".into());
                }
                _ => {}
            }
            out.push_str(line);
            continue;
        }
        if line.starts_with('[') {
            flush(&section, &mut shader, &mut out, glsl_version, &mut matrices)?;
            let header = line.trim_end();
            section = match header {
                "[require]" => In::Require,
                "[vertex shader]" => In::Shader(Stage::Vertex),
                "[fragment shader]" => In::Shader(Stage::Fragment),
                "[vertex data]" => {
                    vertex_data_header = true;
                    In::VertexData
                }
                "[test]" => In::Test,
                _ => In::Other,
            };
            out.push_str(line);
            continue;
        }
        match section {
            In::Shader(_) => shader.push_str(line),
            In::Require if line.trim_start().starts_with("SIZE") => {
                let v: Vec<f32> = line
                    .split_whitespace()
                    .filter_map(|w| w.parse().ok())
                    .collect();
                if let [w, h] = v.as_slice() {
                    window = (*w, *h);
                }
                out.push_str(line);
            }
            In::Require if line.trim_start().starts_with("GLSL >=") => {
                // "GLSL >= 1.30" → 130.
                let number = line.trim_start()["GLSL >=".len()..].trim();
                if let Some((major, minor)) = number.split_once('.')
                    && let (Ok(major), Ok(minor)) = (major.parse::<u32>(), minor.parse::<u32>())
                {
                    glsl_version = major * 100 + minor;
                }
                out.push_str("GLSL >= 3.30\n");
            }
            In::VertexData if vertex_data_header && !line.trim().is_empty() => {
                if line.trim_start().starts_with('#') {
                    out.push_str(line);
                    continue;
                }
                vertex_data_header = false;
                let mut header = line.to_string();
                for (old, new, _) in ATTRIBUTES {
                    header = header.replace(&format!("{old}/"), &format!("{new}/"));
                }
                out.push_str(&header);
            }
            _ => out.push_str(line),
        }
    }
    flush(&section, &mut shader, &mut out, glsl_version, &mut matrices)?;
    Ok(out)
}

#[test]
fn the_rewrite_turns_a_glsl_110_pair_into_330_core() {
    let test = "[require]\nGLSL >= 1.10\n\n[vertex shader]\nattribute vec4 pos;\n\
                varying vec4 c;\nvoid main() { gl_Position = gl_ModelViewProjectionMatrix * \
                gl_Vertex; c = gl_Color; gl_FrontColor = pos; }\n\n[fragment shader]\n\
                #version 110\nvarying vec4 c;\nuniform sampler2D s;\nvoid main() {\n  \
                gl_FragColor = c * texture2D(s, gl_Color.xy) * 1e5;\n}\n\n[vertex data]\n\
                gl_Vertex/float/4 gl_Color/float/4\n1 2 3 4 5 6 7 8\n\n[test]\n\
                draw arrays GL_TRIANGLES 0 3\n";
    let got = rewrite_test(test).unwrap();
    let want = "[require]\nGLSL >= 3.30\n\n[vertex shader]\n#version 330 core\n\
                uniform mat4 csir_ModelViewProjectionMatrix = mat4(1.0);\n\
                in vec4 piglit_vertex;\nin vec4 csir_Color;\nout vec4 csir_FrontColor;\n\
                in vec4 pos;\nout vec4 c;\nvoid main() { gl_Position = csir_ModelViewProjectionMatrix * \
                piglit_vertex; c = csir_Color; csir_FrontColor = pos; }\n\n\
                [fragment shader]\n#version 330 core\n\nout vec4 csir_FragColor;\n\
                in vec4 csir_FrontColor;\nin vec4 c;\nuniform sampler2D s;\nvoid main() {\n  \
                csir_FragColor = c * texture(s, csir_FrontColor.xy) * 1e5;\n}\n\n\
                [vertex data]\npiglit_vertex/float/4 csir_Color/float/4\n1 2 3 4 5 6 7 8\n\n\
                [test]\ndraw arrays GL_TRIANGLES 0 3\n";
    assert_eq!(got, want);
}

#[test]
fn the_rewrite_refuses_what_core_cannot_say() {
    let with = |vs: &str, script: &str| {
        rewrite_test(&format!(
            "[require]\nGLSL >= 1.10\n[vertex shader]\n{vs}\n[fragment shader]\n\
             void main() {{ gl_FragColor = vec4(1.0); }}\n[test]\n{script}\n"
        ))
    };
    let plain = "void main() { gl_Position = gl_Vertex; }";
    let mvp = "void main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex; }";
    let inverse = "void main() { gl_Position = gl_ProjectionMatrixInverse * gl_Vertex; }";
    assert_eq!(
        with(inverse, "ortho\ndraw rect 0 0 10 10"),
        Err("sets the projection and reads its inverse or transpose".to_string())
    );
    let ortho = with(mvp, "ortho 0 4 0 8\ndraw rect 0 0 10 10").unwrap();
    assert!(
        ortho.contains(
            "\nuniform mat4 csir_ModelViewProjectionMatrix = mat4(1.0);\n\
             in vec4 piglit_vertex;\nvoid main() { \
             gl_Position = csir_ModelViewProjectionMatrix * piglit_vertex; }"
        ),
        "{ortho}"
    );
    assert!(
        ortho.ends_with(
            "[test]\nuniform mat4 csir_ModelViewProjectionMatrix 0.5 0.0 0.0 0.0 0.0 0.25 \
             0.0 0.0 0.0 0.0 -1.0 0.0 -1.0 -1.0 -0.0 1.0\ndraw rect 0 0 10 10\n"
        ),
        "{ortho}"
    );
    assert_eq!(
        with(
            "void main() { gl_Position = gl_Vertex; gl_BackColor = vec4(1.0); }",
            ""
        ),
        Err("uses gl_BackColor, which 330 core does not have".to_string())
    );
    assert_eq!(
        with(
            "void main() { float flat = 1.0; gl_Position = vec4(flat); }",
            ""
        ),
        Err("uses 'flat', a keyword in GLSL 3.30, as a name".to_string())
    );
    assert!(with(plain, "draw rect -1 -1 2 2").is_ok());
}

/// Whether a test passed.
fn is_pass(r: &TestReport) -> bool {
    r.status() == "pass"
}

#[test]
fn shaders_as_written_pass_whenever_their_330_core_rewrite_passes() {
    let Some(root) = corpus_or_skip("the GLSL-as-written test") else {
        return;
    };
    let version = version(&root);
    let files = selection_files(&root);
    let options = RunOptions::default();
    struct Row {
        dir: &'static str,
        file: String,
        written: TestReport,
        rewritten: Result<TestReport, String>,
    }
    let rows: Vec<Row> = files
        .par_iter()
        .map(|(dir, path)| {
            let file = path
                .strip_prefix(&root)
                .unwrap_or(path)
                .display()
                .to_string();
            let text = std::fs::read_to_string(path).expect("a corpus file is readable");
            let written = run_text(path, &text, &options);
            let rewritten = rewrite_test(&text).map(|t| {
                if let Some(dir) = std::env::var_os("CSIR_PIGLIT_REWRITE_DIR") {
                    let out = std::path::Path::new(&dir).join(&file);
                    if let Some(parent) = out.parent() {
                        std::fs::create_dir_all(parent).expect("create the rewrite folder");
                    }
                    std::fs::write(&out, &t).expect("write a rewritten test");
                }
                run_text(path, &t, &options)
            });
            Row {
                dir,
                file,
                written,
                rewritten,
            }
        })
        .collect();

    // Per directory: tests, rewritten, passed as written (of the rewritten ones),
    // passed rewritten.
    let mut per_dir: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    let mut not_rewritten: BTreeMap<String, usize> = BTreeMap::new();
    let mut worse = Vec::new();
    let mut better = Vec::new();
    for row in &rows {
        let counts = per_dir.entry(row.dir).or_default();
        counts[0] += 1;
        match &row.rewritten {
            Ok(r) => {
                counts[1] += 1;
                counts[2] += usize::from(is_pass(&row.written));
                counts[3] += usize::from(is_pass(r));
                if is_pass(&row.written) && !is_pass(r) {
                    better.push(format!("{}: {}", row.file, r.status()));
                }
                if is_pass(r) && !is_pass(&row.written) {
                    worse.push(format!(
                        "{}: passes rewritten into 330 core, but as written: {}",
                        row.file, row.written
                    ));
                }
            }
            Err(why) => {
                let reason = if why.starts_with("uses gl_") || why.starts_with("uses '") {
                    why.split(',').next().unwrap_or(why).to_string()
                } else {
                    why.clone()
                };
                *not_rewritten.entry(reason).or_default() += 1;
            }
        }
    }
    let mut table = String::from(
        "| directory | tests | rewritten | of these, pass as written | pass rewritten |\n\
         |---|---:|---:|---:|---:|\n",
    );
    let mut total = [0usize; 4];
    for dir in SELECTION {
        if let Some(c) = per_dir.get(dir) {
            table += &format!("| {dir} | {} | {} | {} | {} |\n", c[0], c[1], c[2], c[3]);
            for (t, v) in total.iter_mut().zip(c) {
                *t += v;
            }
        }
    }
    table += &format!(
        "| **all** | {} | {} | {} | {} |\n",
        total[0], total[1], total[2], total[3]
    );
    let mut reasons: Vec<(&String, &usize)> = not_rewritten.iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let mut why = String::from("| tests | not rewritten because the test |\n|---:|---|\n");
    for (reason, count) in &reasons {
        why += &format!("| {count} | {reason} |\n");
    }
    eprintln!("piglit {version}, GLSL as written vs. rewritten into 330 core:\n\n{table}\n{why}");
    better.sort();
    eprintln!(
        "{} tests pass as written but not rewritten:\n{}",
        better.len(),
        better.join("\n")
    );

    assert!(
        total[1] * 2 > total[0],
        "only {} of {} tests could be rewritten: the rewrite is broken",
        total[1],
        total[0]
    );
    assert!(
        worse.is_empty(),
        "{} tests pass rewritten into 330 core but not as written (issue: GLSL as \
         written must pass at least as often):\n{}",
        worse.len(),
        worse.join("\n")
    );
    if writing_baseline() {
        write_doc_block(
            "piglit-dialects",
            &format!(
                "Measured {} with piglit `{version}`: of the tests that could be rewritten, \
                 every test that passes rewritten also passes as written.\n\n{table}\n{why}",
                today()
            ),
        );
    }
}
