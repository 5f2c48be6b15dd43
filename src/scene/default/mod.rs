//! The built-in default scene: the starter `lit_cube` (a Phong-lit, checker-textured cube
//! with back-face culling), embedded in the binary so it loads without any file, with the
//! cube's rotation about the y axis as a parameter so a viewer can spin it.
//!
//! The files here are copies of `reference-images/lit_cube.json` (paths flattened),
//! `shaders/lit.vert`, `shaders/lit.frag`, `meshes/cube.obj` and `textures/checker.png`;
//! the scene goes through the same loader and validation as a scene file.

use std::path::{Path, PathBuf};

use glam::camera::rh::{proj::opengl, view::look_at_mat4};
use glam::{Mat3, Mat4, Vec3};

use super::load::{SceneFiles, parse_with};
use super::{Scene, UniformValue};

/// The name the default scene goes by in paths and messages.
pub const DEFAULT_SCENE_NAME: &str = "<default scene>";

/// The rotation (radians about +y) at which the default scene equals the starter
/// `lit_cube` scene and its reference image `reference-images/lit_cube.llvmpipe.png`:
/// 35°.
pub const DEFAULT_CUBE_START_ANGLE: f32 = 35.0 * std::f32::consts::PI / 180.0;

const FILES: [(&str, &[u8]); 5] = [
    ("lit_cube.json", include_bytes!("lit_cube.json")),
    ("lit.vert", include_bytes!("lit.vert")),
    ("lit.frag", include_bytes!("lit.frag")),
    ("cube.obj", include_bytes!("cube.obj")),
    ("checker.png", include_bytes!("checker.png")),
];

/// The embedded files, named `<default scene>/FILE`.
struct Embedded;

impl SceneFiles for Embedded {
    /// The embedded copy; they are all far below any limit, so `_limit` is not checked.
    fn read(&self, path: &Path, _limit: u64) -> std::io::Result<Vec<u8>> {
        path.strip_prefix(DEFAULT_SCENE_NAME)
            .ok()
            .and_then(|rel| FILES.iter().find(|(name, _)| Path::new(name) == rel))
            .map(|(_, bytes)| bytes.to_vec())
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "not a built-in file"))
    }
}

impl Scene {
    /// The built-in default scene with the cube turned `angle_radians` about the y axis
    /// (320×240; at [`DEFAULT_CUBE_START_ANGLE`] it is the starter `lit_cube`). Paths
    /// read `<default scene>/lit.vert` and so on.
    ///
    /// To spin it, load it once and replace draw 0's matrices each frame with
    /// [`default_cube_uniforms`].
    pub fn default_cube(angle_radians: f32) -> Scene {
        let path = PathBuf::from(DEFAULT_SCENE_NAME).join("lit_cube.json");
        let text = std::str::from_utf8(FILES[0].1).expect("the embedded scene is UTF-8");
        let mut scene = parse_with(
            text,
            &path,
            &Embedded,
            crate::budget::DEFAULT_MAX_MEMORY,
            crate::budget::FrameUse::Render,
        )
            .expect("the embedded scene is valid");
        let aspect = scene.width as f32 / scene.height as f32;
        for new in default_cube_uniforms(angle_radians, aspect) {
            if let Some(old) = scene.draws[0]
                .uniforms
                .iter_mut()
                .find(|u| u.key == new.key)
            {
                *old = new;
            }
        }
        scene
    }
}

/// The default scene's matrix uniforms for the cube turned `angle_radians` about +y, for
/// a framebuffer of aspect ratio `aspect` (width / height): `uMVP` (mat4), `uModel`
/// (mat4) and `uNormalMat` (mat3, the inverse transpose of the model's upper 3×3), all
/// column-major.
///
/// The camera is the starter `lit_cube`'s: eye (0, 1.2, 4.5) looking at the origin with
/// +y up, a 45° vertical field of view, near 0.1, far 100 (OpenGL clip space, z in
/// [−w, w]). The model matrix is R_y(angle) · R_x(25°).
pub fn default_cube_uniforms(angle_radians: f32, aspect: f32) -> [UniformValue; 3] {
    let model = Mat4::from_rotation_y(angle_radians) * Mat4::from_rotation_x(25f32.to_radians());
    let view = look_at_mat4(Vec3::new(0.0, 1.2, 4.5), Vec3::ZERO, Vec3::Y);
    let projection = opengl::perspective(45f32.to_radians(), aspect, 0.1, 100.0);
    let normal = Mat3::from_mat4(model).inverse().transpose();
    let value = |key: &str, values: &[f32]| UniformValue::floats(key, values.to_vec());
    [
        value("uMVP", &(projection * view * model).to_cols_array()),
        value("uModel", &model.to_cols_array()),
        value("uNormalMat", &normal.to_cols_array()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_the_start_angle_it_is_the_starter_lit_cube() {
        let builtin = Scene::default_cube(DEFAULT_CUBE_START_ANGLE);
        let starter = Scene::load(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images/lit_cube.json"),
        )
        .unwrap();
        assert_eq!((builtin.width, builtin.height), (320, 240));
        let (a, b) = (&builtin.draws[0], &starter.draws[0]);
        assert_eq!(a.vertex.text, b.vertex.text);
        assert_eq!(a.fragment.text, b.fragment.text);
        assert_eq!(a.attributes, b.attributes);
        assert_eq!(a.indices, b.indices);
        assert_eq!(a.samplers, b.samplers);
        assert_eq!(a.state, b.state);
        assert_eq!(builtin.textures[0].texture, starter.textures[0].texture);
        for (ua, ub) in a.uniforms.iter().zip(&b.uniforms) {
            assert_eq!(ua.key, ub.key);
            assert_eq!(ua.values.len(), ub.values.len(), "{}", ua.key);
            for (x, y) in ua.values.iter().zip(&ub.values) {
                assert!((x - y).abs() < 2e-6, "{}: {x} vs {y}", ua.key);
            }
        }
        assert_eq!(a.vertex.path, Path::new("<default scene>/lit.vert"));
    }

    #[test]
    fn the_angle_turns_the_model_about_y() {
        let [_, model, normal] = default_cube_uniforms(std::f32::consts::FRAC_PI_2, 4.0 / 3.0);
        let m = Mat4::from_cols_array(model.values.as_slice().try_into().unwrap());
        // R_x(25°) keeps +x fixed, then R_y(90°) takes +x to −z
        let x = m.transform_vector3(Vec3::X);
        assert!((x - Vec3::NEG_Z).length() < 1e-6, "{x}");
        // a pure rotation is its own normal matrix
        let n = Mat3::from_cols_array(normal.values.as_slice().try_into().unwrap());
        assert!(n.abs_diff_eq(Mat3::from_mat4(m), 1e-6));
    }

    #[test]
    fn embedded_files_resolve_only_under_the_default_name() {
        assert!(
            Embedded
                .read(Path::new("<default scene>/cube.obj"), u64::MAX)
                .is_ok()
        );
        assert!(Embedded.read(Path::new("cube.obj"), u64::MAX).is_err());
        assert!(
            Embedded
                .read(Path::new("<default scene>/nope"), u64::MAX)
                .is_err()
        );
    }
}
