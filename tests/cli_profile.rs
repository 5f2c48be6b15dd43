//! `--profile seed|extended` (docs/architecture.md, "Profiles"): the seed
//! profile keeps the seed's limits, the extended one (the default) has GL 3.0's
//! interface sizes, and CSI v1 (the seed's format) can be saved from either.

mod cli_support;

use cli_support::{bin, stderr, stdout, temp_dir};

/// A vertex shader with `n` vec4 outputs.
fn varyings(n: usize) -> String {
    let outs: String = (0..n).map(|i| format!("out vec4 v{i};\n")).collect();
    let sets: String = (0..n).map(|i| format!("v{i} = p * {i}.0;\n")).collect();
    format!("#version 130\nin vec4 p;\n{outs}void main() {{\ngl_Position = p;\n{sets}}}\n")
}

#[test]
fn the_seed_profile_keeps_eight_varyings_and_the_default_allows_sixteen() {
    let dir = temp_dir("profile-varyings");
    let ten = dir.join("ten.vert");
    std::fs::write(&ten, varyings(10)).unwrap();
    let ten = ten.display().to_string();

    let seed = bin(&["compile", &ten, "--profile", "seed"]);
    assert_eq!(seed.status.code(), Some(1));
    assert!(
        stderr(&seed).contains("ten.vert:11:10: error: too many varyings (the limit is 8)"),
        "{}",
        stderr(&seed)
    );

    for args in [vec![], vec!["--profile", "extended"]] {
        let out = bin(&[&["compile", ten.as_str()][..], &args].concat());
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stdout(&out).contains("vertex shader OK"),
            "{}",
            stdout(&out)
        );
    }

    let seventeen = dir.join("seventeen.vert");
    std::fs::write(&seventeen, varyings(17)).unwrap();
    let out = bin(&["compile", &seventeen.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("error: too many varyings (the limit is 16)"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn csi_v1_of_a_seed_instruction_shader_is_the_same_under_both_profiles() {
    let dir = temp_dir("profile-v1");
    let src = dir.join("four.vert");
    std::fs::write(&src, varyings(4)).unwrap();
    let src = src.display().to_string();
    let mut saved = Vec::new();
    for profile in ["seed", "extended"] {
        let v1 = dir.join(format!("{profile}.csi"));
        let v2 = dir.join(format!("{profile}.v2.csi"));
        let out = bin(&[
            "compile",
            &src,
            "--profile",
            profile,
            "--csi-v1",
            &v1.display().to_string(),
            "--csi",
            &v2.display().to_string(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        saved.push((std::fs::read(&v1).unwrap(), std::fs::read(&v2).unwrap()));
    }
    // v1 holds no profile or limits: the same bytes. v2 records the profile's limits.
    assert_eq!(saved[0].0, saved[1].0);
    assert_eq!(&saved[0].0[0..8], b"CSIR\x01\x00\x00\x00");
    assert_ne!(saved[0].1, saved[1].1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_profile_is_a_usage_error() {
    let out = bin(&["compile", "x.frag", "--profile", "large"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("[possible values: seed, extended]"),
        "{}",
        stderr(&out)
    );
}
