//! The compatibility-profile state a shader_runner script can set and a GLSL shader can
//! read through built-in names, and the vertex shader that stands for fixed-function
//! vertex processing ([`vertex_shader`]): the modelview and projection matrices (`ortho`,
//! `frustum`), the matrices derived from them (`gl_ModelViewProjectionMatrix`,
//! `gl_NormalMatrix`, the inverses and transposes; GLSL 1.10 §7.5), and the current
//! values of `gl_Color` and `gl_Normal` that a draw without an array for them reads.
//!
//! The front end declares these built-ins as ordinary uniforms and attributes found by
//! name; the harness sets the ones a program declares before every draw. The
//! matrices are built in f32 as Mesa's `glOrtho` / `glFrustum` build them.

use csir::ir::SymbolKind;
use glam::{Mat3, Mat4, Vec4};

/// The current value of `gl_Color` before any `color` command: opaque white (OpenGL's
/// initial current colour).
pub const INITIAL_COLOR: [f32; 4] = [1.0, 1.0, 1.0, 1.0];
/// The current value of `gl_Normal`: (0, 0, 1), read as a vec4 with w = 1.
pub const CURRENT_NORMAL: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

/// The modelview and projection matrices. Both start as the identity, as in OpenGL.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// `GL_MODELVIEW`.
    pub modelview: Mat4,
    /// `GL_PROJECTION`.
    pub projection: Mat4,
}

impl Default for Transform {
    fn default() -> Self {
        Transform {
            modelview: Mat4::IDENTITY,
            projection: Mat4::IDENTITY,
        }
    }
}

impl Transform {
    /// `ortho L R B T`: projection = glOrtho(L, R, B, T, −1, 1), modelview = identity
    /// (piglit's `piglit_gen_ortho_projection`). `ortho` alone is `ortho 0 W 0 H` for
    /// a W × H window: window coordinates.
    pub fn ortho(left: f32, right: f32, bottom: f32, top: f32) -> Transform {
        let (near, far) = (-1.0f32, 1.0f32);
        let projection = Mat4::from_cols(
            Vec4::new(2.0 / (right - left), 0.0, 0.0, 0.0),
            Vec4::new(0.0, 2.0 / (top - bottom), 0.0, 0.0),
            Vec4::new(0.0, 0.0, -2.0 / (far - near), 0.0),
            Vec4::new(
                -(right + left) / (right - left),
                -(top + bottom) / (top - bottom),
                -(far + near) / (far - near),
                1.0,
            ),
        );
        Transform {
            modelview: Mat4::IDENTITY,
            projection,
        }
    }

    /// `frustum L R B T N F`: projection = glFrustum(L, R, B, T, N, F), modelview =
    /// identity (piglit's `piglit_frustum_projection`).
    pub fn frustum(l: f32, r: f32, b: f32, t: f32, n: f32, f: f32) -> Transform {
        let projection = Mat4::from_cols(
            Vec4::new(2.0 * n / (r - l), 0.0, 0.0, 0.0),
            Vec4::new(0.0, 2.0 * n / (t - b), 0.0, 0.0),
            Vec4::new(
                (r + l) / (r - l),
                (t + b) / (t - b),
                -(f + n) / (f - n),
                -1.0,
            ),
            Vec4::new(0.0, 0.0, -(2.0 * f * n) / (f - n), 0.0),
        );
        Transform {
            modelview: Mat4::IDENTITY,
            projection,
        }
    }

    /// The value of built-in uniform `name` for this state: column-major floats of
    /// one element (16 for a mat4, 9 for `gl_NormalMatrix`), or `None` for a name
    /// that is not one of the built-in matrices. The texture matrices are the
    /// identity (no command sets them).
    pub fn builtin(&self, name: &str) -> Option<Vec<f32>> {
        let mv = self.modelview;
        let p = self.projection;
        let mvp = p * mv;
        let base = |stem: &str| -> Option<Mat4> {
            Some(match stem {
                "gl_ModelViewMatrix" => mv,
                "gl_ProjectionMatrix" => p,
                "gl_ModelViewProjectionMatrix" => mvp,
                "gl_TextureMatrix" => Mat4::IDENTITY,
                _ => return None,
            })
        };
        if name == "gl_NormalMatrix" {
            let normal = Mat3::from_mat4(mv).inverse().transpose();
            return Some(normal.to_cols_array().to_vec());
        }
        let (m, kind) = ["InverseTranspose", "Inverse", "Transpose", ""]
            .iter()
            .find_map(|suffix| {
                let stem = name.strip_suffix(suffix)?;
                Some((base(stem)?, *suffix))
            })?;
        let m = match kind {
            "InverseTranspose" => m.inverse().transpose(),
            "Inverse" => m.inverse(),
            "Transpose" => m.transpose(),
            _ => m,
        };
        Some(m.to_cols_array().to_vec())
    }
}

/// The name a script's fixed-function vertex stage is compiled under, after the file
/// name (`FILE [fixed-function vertex processing]`).
pub const FIXED_FUNCTION_LABEL: &str = "[fixed-function vertex processing]";

/// The name a script's fixed-function fragment stage is compiled under
/// (`FILE [fixed-function fragment processing]`).
pub const FIXED_FUNCTION_FRAGMENT_LABEL: &str = "[fixed-function fragment processing]";

/// The GLSL 1.10 fragment shader that does what fixed-function fragment processing
/// does for a script without a fragment shader, behind `last`, the program's last
/// stage before rasterization: the fragment's colour is the primary colour
/// (`gl_Color`: the front or back colour `last` writes, GL 2.1 §3.10), since every
/// stage that could change it is off in shader_runner's context (texturing, fog, and
/// the colour sum, which a vertex shader leaves to `GL_COLOR_SUM`, off by default: GL
/// 2.1 §3.8 to §3.11). When `last` writes no `gl_FrontColor` the colour is undefined
/// (GL 2.1 §2.20.3); this shader gives opaque black then, and so links (GL links such a
/// program). A core context has no fixed-function fragment processing, and its
/// fragment colour is undefined (GL 3.3 core §3.9): the same shader stands for it.
pub fn fragment_shader(last: Option<&csir::Shader>) -> String {
    let writes_color =
        last.is_some_and(|shader| {
            shader.interface.symbols.iter().any(|s| {
                matches!(s.kind, SymbolKind::VaryingOut { .. }) && s.name == "gl_FrontColor"
            })
        });
    let color = match writes_color {
        true => "gl_Color",
        false => "vec4(0.0, 0.0, 0.0, 1.0)",
    };
    format!("#version 110\nvoid main()\n{{\n    gl_FragColor = {color};\n}}\n")
}

/// The GLSL 1.10 vertex shader that does what fixed-function vertex processing does for
/// a script without a vertex shader, for the inputs `fragment` reads: the position
/// transformed by the modelview and projection matrices (`ftransform()`, GL 2.1
/// §2.11) and the eye-space position as the clip vertex that user clip planes test
/// (GL 2.1 §2.12), the primary and secondary colours with lighting off (GL 2.1 §2.14; the
/// front end clamps the colour outputs to [0, 1] as `GL_CLAMP_VERTEX_COLOR` does,
/// docs/glsl-dialects.md), and each texture
/// coordinate set `gl_TexCoord[i]` from `gl_MultiTexCoord<i>` (GL 2.1 §2.11.4; the
/// texture matrices are the identity, as no shader_runner command changes them).
/// Only sets 0..3 have attributes (docs/glsl-dialects.md); sets 4..7 keep the
/// current texture coordinates, (0, 0, 0, 1) (GL 2.1 §2.7).
///
/// # Errors
/// The reason, for a fragment input that fixed-function processing leaves undefined
/// (a user varying) or that it computes in a way the renderer does not (the fog
/// coordinate); the harness skips the test with it.
pub fn vertex_shader(fragment: &csir::Shader) -> Result<String, String> {
    // User clip planes are tested in eye coordinates (GL 2.1 §2.12): the clip vertex is
    // the eye-space position, not gl_Position.
    let mut body = vec![
        "    gl_Position = ftransform();".to_string(),
        "    gl_ClipVertex = gl_ModelViewMatrix * gl_Vertex;".to_string(),
    ];
    for symbol in &fragment.interface.symbols {
        if !matches!(symbol.kind, SymbolKind::VaryingIn { .. }) {
            continue;
        }
        match symbol.name.as_str() {
            "gl_Color" => body.extend([
                "    gl_FrontColor = gl_Color;".to_string(),
                "    gl_BackColor = gl_Color;".to_string(),
            ]),
            "gl_SecondaryColor" => body.extend([
                "    gl_FrontSecondaryColor = gl_SecondaryColor;".to_string(),
                "    gl_BackSecondaryColor = gl_SecondaryColor;".to_string(),
            ]),
            "gl_TexCoord" => {
                for i in 0..symbol.array_len.unwrap_or(1) {
                    body.push(match i {
                        0..=3 => format!("    gl_TexCoord[{i}] = gl_MultiTexCoord{i};"),
                        _ => format!("    gl_TexCoord[{i}] = vec4(0.0, 0.0, 0.0, 1.0);"),
                    });
                }
            }
            "gl_FogFragCoord" => {
                return Err(
                    "fixed-function vertex processing: the fog coordinate (gl_FogFragCoord) \
                     is not supported"
                        .into(),
                );
            }
            name => {
                return Err(format!(
                    "fixed-function vertex processing does not write the fragment \
                     shader's input '{name}'"
                ));
            }
        }
    }
    Ok(format!(
        "#version 110\nvoid main()\n{{\n{}\n}}\n",
        body.join("\n")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_ortho_maps_window_corners_to_clip_corners() {
        let t = Transform::ortho(0.0, 250.0, 0.0, 250.0);
        let corner = t.projection * Vec4::new(250.0, 0.0, 0.0, 1.0);
        assert_eq!(corner, Vec4::new(1.0, -1.0, 0.0, 1.0));
        let mvp = t.builtin("gl_ModelViewProjectionMatrix").unwrap();
        assert_eq!(mvp, t.projection.to_cols_array().to_vec());
        assert_eq!(mvp[0], 2.0 / 250.0);
        assert_eq!(
            t.builtin("gl_ModelViewMatrix").unwrap(),
            Mat4::IDENTITY.to_cols_array().to_vec()
        );
    }

    #[test]
    fn derived_matrices() {
        let t = Transform::frustum(-1.0, 1.0, -1.0, 1.0, 1.0, 10.0);
        let p = t.projection;
        let clip = p * Vec4::new(0.0, 0.0, -1.0, 1.0);
        assert!(
            (clip.z / clip.w + 1.0).abs() < 1e-6,
            "near plane maps to -1: {clip}"
        );
        assert_eq!(
            t.builtin("gl_ProjectionMatrixTranspose").unwrap(),
            p.transpose().to_cols_array().to_vec()
        );
        assert_eq!(
            t.builtin("gl_ProjectionMatrixInverse").unwrap(),
            p.inverse().to_cols_array().to_vec()
        );
        assert_eq!(
            t.builtin("gl_NormalMatrix").unwrap(),
            Mat3::IDENTITY.to_cols_array().to_vec()
        );
        assert_eq!(
            t.builtin("gl_TextureMatrixInverseTranspose").unwrap(),
            Mat4::IDENTITY.to_cols_array().to_vec()
        );
        assert_eq!(t.builtin("gl_Color"), None);
        assert_eq!(t.builtin("uMVP"), None);
        let d = Transform::default();
        assert_eq!(
            d.builtin("gl_ModelViewProjectionMatrix"),
            d.builtin("gl_TextureMatrix")
        );
    }
}
