//! MULMV and MULMM against glam, with matrices loaded by LOAD_UNI (docs/csir.md "Matrix
//! operations": column-major, one column per temporary).

use super::*;
use glam::{EulerRot, Mat3, Mat4, Quat, Vec3, Vec4};

/// OpenGL's perspective projection (gluPerspective), right-handed, depth to [−1, 1].
fn perspective_gl(fov_y: f32, aspect: f32, near: f32, far: f32) -> Mat4 {
    let f = 1.0 / (fov_y * 0.5).tan();
    Mat4::from_cols(
        Vec4::new(f / aspect, 0.0, 0.0, 0.0),
        Vec4::new(0.0, f, 0.0, 0.0),
        Vec4::new(0.0, 0.0, (far + near) / (near - far), -1.0),
        Vec4::new(0.0, 0.0, 2.0 * far * near / (near - far), 0.0),
    )
}

#[track_caller]
fn assert_close(name: &str, got: [f32; 4], want: [f32; 4]) {
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= 1e-5 * w.abs().max(1.0),
            "{name}: got {got:?}, want {want:?}"
        );
    }
}

/// Uniform slots of a mat4: its four columns.
fn columns(m: Mat4) -> Vec<[f32; 4]> {
    m.to_cols_array_2d().to_vec()
}

/// Uniform slots of a mat3: its three columns with w = 0.
fn columns3(m: Mat3) -> Vec<[f32; 4]> {
    m.to_cols_array_2d()
        .iter()
        .map(|c| [c[0], c[1], c[2], 0.0])
        .collect()
}

fn test_matrices() -> Vec<(&'static str, Mat4)> {
    vec![
        ("identity", Mat4::IDENTITY),
        (
            "translation",
            Mat4::from_translation(Vec3::new(1.5, -2.0, 3.25)),
        ),
        (
            "rotation",
            Mat4::from_axis_angle(Vec3::new(1.0, 2.0, -0.5).normalize(), 0.7),
        ),
        ("rotation_z", Mat4::from_rotation_z(2.1)),
        ("scale", Mat4::from_scale(Vec3::new(2.0, 0.5, -3.0))),
        (
            "perspective",
            perspective_gl(60f32.to_radians(), 16.0 / 9.0, 0.1, 100.0),
        ),
        (
            "view",
            Mat4::from_rotation_translation(
                Quat::from_euler(EulerRot::YXZ, 0.4, -0.3, 0.1),
                Vec3::new(3.0, 4.0, 5.0),
            )
            .inverse(),
        ),
    ]
}

#[test]
fn mulmv_matches_glam() {
    // gl_Position = M · attribute0, M in uniform slots 0..4.
    let mut b = Build::new(Stage::Vertex);
    let m = b.load_uni(0, 4);
    let v = b.load_attr(0);
    let r = b.temp();
    b.mul_mv(r, m, v, 4);
    b.emit(Ir::new(Op::StorePos, Type::Vec4).a(r));
    let shader = b.finish();

    let mut machine = Machine::new(&shader).unwrap();
    let mut out = Outputs::default();
    let vectors = [
        Vec4::new(1.0, 2.0, 3.0, 1.0),
        Vec4::new(-0.5, 0.25, -10.0, 1.0),
        Vec4::new(0.0, 1.0, 0.0, 0.0),
    ];
    for (name, m) in test_matrices() {
        let uniforms = columns(m);
        for v in vectors {
            let attributes = [v.to_array()];
            let inputs = Inputs {
                uniforms: &uniforms,
                attributes: &attributes,
                ..Inputs::default()
            };
            machine.run(&inputs, &mut out).unwrap();
            assert_close(name, out.position, (m * v).to_array());
        }
    }
}

#[test]
fn mulmv_with_three_columns_zeroes_lane_w() {
    let mut b = Build::new(Stage::Vertex);
    let m = b.load_uni(0, 3);
    let v = b.konst(&[1.0, -2.0, 0.5, 99.0]);
    let r = b.konst(&[7.0; 4]);
    b.mul_mv(r, m, v, 3);
    let shader = b.finish();
    let n = Mat3::from_axis_angle(Vec3::new(0.0, 0.6, 0.8), 1.1)
        * Mat3::from_diagonal(Vec3::new(2.0, 3.0, 4.0));
    let uniforms = columns3(n);
    let (_, temps) = run(&shader, &with_uniforms(&uniforms));
    let want = n * Vec3::new(1.0, -2.0, 0.5);
    assert_close("mat3", temps[r as usize], [want.x, want.y, want.z, 0.0]);
    assert_eq!(temps[r as usize][3], 0.0);
}

#[test]
fn load_uni_loads_a_mat4_into_consecutive_temporaries() {
    let mut b = Build::new(Stage::Vertex);
    let m = b.load_uni(1, 4);
    let single = b.load_uni(0, 1);
    let shader = b.finish();
    let uniforms: Vec<[f32; 4]> = (0..4)
        .map(|k| [k as f32, 10.0 + k as f32, 20.0, 30.0])
        .collect();
    let (_, temps) = run(&shader, &with_uniforms(&uniforms));
    assert_eq!(temps[m as usize], uniforms[1]);
    assert_eq!(temps[m as usize + 2], uniforms[3]);
    // Slot 4 is past the supplied uniforms: zeros.
    assert_eq!(temps[m as usize + 3], [0.0; 4]);
    assert_eq!(temps[single as usize], uniforms[0]);
}

#[test]
fn mulmm_chain_matches_glam() {
    // gl_Position = P · V · M · attribute0, the products by MULMM.
    let mut b = Build::new(Stage::Vertex);
    let (p, v, m) = (b.load_uni(0, 4), b.load_uni(4, 4), b.load_uni(8, 4));
    let pv = b.temps(4);
    b.mul_mm(pv, p, v, 4);
    // In place: the destination is the left operand.
    b.mul_mm(pv, pv, m, 4);
    let pos = b.load_attr(0);
    let r = b.temp();
    b.mul_mv(r, pv, pos, 4);
    b.emit(Ir::new(Op::StorePos, Type::Vec4).a(r));
    let shader = b.finish();

    let mats = test_matrices();
    let (proj, view) = (mats[5].1, mats[6].1);
    let model = Mat4::from_translation(Vec3::new(0.5, 0.0, -1.0)) * mats[2].1 * mats[4].1;
    let uniforms: Vec<[f32; 4]> = [proj, view, model].into_iter().flat_map(columns).collect();
    let attributes = [[0.3, -0.7, 1.2, 1.0]];
    let inputs = Inputs {
        uniforms: &uniforms,
        attributes: &attributes,
        ..Inputs::default()
    };
    let (out, temps) = run(&shader, &inputs);
    let pvm = proj * view * model;
    for (j, col) in pvm.to_cols_array_2d().into_iter().enumerate() {
        assert_close("P·V·M", temps[pv as usize + j], col);
    }
    let want = pvm * Vec4::from_array(attributes[0]);
    assert_close("P·V·M·v", out.position, want.to_array());
}

#[test]
fn mulmm_is_alias_safe_with_the_right_operand() {
    let mut b = Build::new(Stage::Vertex);
    let (a, m) = (b.load_uni(0, 3), b.load_uni(3, 3));
    b.mul_mm(m, a, m, 3);
    let shader = b.finish();
    let ma = Mat3::from_cols_array(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0]);
    let mb = Mat3::from_cols_array(&[0.5, -1.0, 2.0, 0.0, 3.0, 1.0, -2.0, 0.25, 1.5]);
    let uniforms: Vec<[f32; 4]> = [ma, mb].into_iter().flat_map(columns3).collect();
    let (_, temps) = run(&shader, &with_uniforms(&uniforms));
    for (j, col) in columns3(ma * mb).into_iter().enumerate() {
        assert_close("A·B", temps[m as usize + j], col);
    }
}
