//! Wavefront OBJ meshes (through `tobj`), as the scene format's `mesh` field reads them.

use std::io::BufReader;

use super::model::Attribute;
use super::obj_indices::check_element_indices;

/// An OBJ mesh as vertex attributes and a triangle index list.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Mesh {
    /// Location 0 = position (size 3); 1 = normal (size 3) and 2 = texcoord (size 2) when
    /// the file has them. Sorted by location.
    pub(crate) attributes: Vec<Attribute>,
    /// Number of vertices in every attribute.
    pub(crate) vertex_count: u32,
    /// Triangle list, each index < vertex_count.
    pub(crate) indices: Vec<u32>,
}

/// Parses OBJ text: `v`, `vt`, `vn` and `f` (polygons triangulated as fans, one index per
/// distinct `v/vt/vn` triple); objects and groups are concatenated; materials, lines and
/// points are ignored. `vt` values pass through unchanged (v = 0 is the bottom of the
/// image, which is where the scene format puts t = 0). Normals or texture coordinates
/// that no face references are left out; if only some objects have them, the others get
/// zeros.
///
/// # Errors
/// A message for an unparsable file, an index out of range, or a file without faces.
pub(crate) fn parse_obj(bytes: &[u8]) -> Result<Mesh, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = 1 + bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        format!("not a readable OBJ mesh: line {line}: not UTF-8 text")
    })?;
    check_element_indices(text)?;
    let options = tobj::LoadOptions {
        single_index: true,
        triangulate: true,
        ignore_points: true,
        ignore_lines: true,
    };
    let (models, _materials) =
        tobj::load_obj_buf(&mut BufReader::new(text.as_bytes()), &options, |_| {
            Err(tobj::LoadError::OpenFileFailed)
        })
        .map_err(|e| match first_line_failing(text, e) {
            Some((number, line)) => {
                format!("not a readable OBJ mesh: line {number}: {e} in {line:?}")
            }
            None => format!("not a readable OBJ mesh: {e}"),
        })?;

    let with_normals = models.iter().any(|m| !m.mesh.normals.is_empty());
    let with_texcoords = models.iter().any(|m| !m.mesh.texcoords.is_empty());
    let mut positions = Vec::new();
    let mut normals = Vec::new();
    let mut texcoords = Vec::new();
    let mut indices = Vec::new();
    for model in &models {
        let mesh = &model.mesh;
        let count = mesh.positions.len() / 3;
        let base = positions.len() / 3;
        if mesh.positions.len() % 3 != 0
            || (!mesh.normals.is_empty() && mesh.normals.len() != count * 3)
            || (!mesh.texcoords.is_empty() && mesh.texcoords.len() != count * 2)
        {
            return Err(format!(
                "object '{}' has inconsistent positions, normals and texture coordinates",
                model.name
            ));
        }
        for &i in &mesh.indices {
            if i as usize >= count {
                return Err(format!(
                    "object '{}': vertex index {i} is out of range",
                    model.name
                ));
            }
            indices.push(
                u32::try_from(base + i as usize).map_err(|_| "too many vertices".to_owned())?,
            );
        }
        positions.extend_from_slice(&mesh.positions);
        if with_normals {
            match mesh.normals.is_empty() {
                true => normals.resize(normals.len() + count * 3, 0.0),
                false => normals.extend_from_slice(&mesh.normals),
            }
        }
        if with_texcoords {
            match mesh.texcoords.is_empty() {
                true => texcoords.resize(texcoords.len() + count * 2, 0.0),
                false => texcoords.extend_from_slice(&mesh.texcoords),
            }
        }
    }
    if indices.is_empty() {
        return Err("the mesh has no faces".to_owned());
    }
    if let Some(bad) = positions
        .iter()
        .chain(&normals)
        .chain(&texcoords)
        .find(|x| !x.is_finite())
    {
        return Err(format!("the mesh has a non-finite number ({bad})"));
    }
    let vertex_count =
        u32::try_from(positions.len() / 3).map_err(|_| "too many vertices".to_owned())?;
    let mut attributes = vec![Attribute {
        location: 0,
        size: 3,
        data: positions,
    }];
    if with_normals {
        attributes.push(Attribute {
            location: 1,
            size: 3,
            data: normals,
        });
    }
    if with_texcoords {
        attributes.push(Attribute {
            location: 2,
            size: 2,
            data: texcoords,
        });
    }
    Ok(Mesh {
        attributes,
        vertex_count,
        indices,
    })
}

/// The line `tobj` stopped at with `error`, as its number (from 1) and its text (cut
/// to 60 characters): the first line that, read alone by tobj 4.0.5's rules for `v`,
/// `vt`, `vn`, `f` and `l` lines, fails with `error`. `None` for an error those rules do
/// not give (e.g. one about the whole mesh).
fn first_line_failing(text: &str, error: tobj::LoadError) -> Option<(usize, String)> {
    let (number, line) = text
        .lines()
        .enumerate()
        .find(|(_, line)| line_error(line) == Some(error))?;
    let mut shown: String = line.trim().chars().take(60).collect();
    if shown.len() < line.trim().len() {
        shown.push('…');
    }
    Some((number + 1, shown))
}

/// What tobj 4.0.5 makes of one line alone (its `parse_obj_line`): three numbers after
/// `v`, then nothing, a non-zero `w` that scales them, or three colour values; two
/// after `vt`; three after `vn`; and `f` or `l` words of up to three `/`-separated
/// parts, each empty or an integer. Index ranges are checked before
/// (`obj_indices.rs`).
fn line_error(line: &str) -> Option<tobj::LoadError> {
    use tobj::LoadError as E;
    let mut words = line.split_whitespace();
    let numbers = |words: &mut std::str::SplitWhitespace<'_>, n: usize| {
        let parsed: Vec<f32> = words.take(n).map_while(|w| w.parse().ok()).collect();
        parsed.len() == n
    };
    match words.next()? {
        "v" => {
            if !numbers(&mut words, 3) {
                return Some(E::PositionParseError);
            }
            let rest: Vec<&str> = words.collect();
            match rest[..] {
                [] | [_, _, _] => None,
                [w] => match w.parse::<f32>() {
                    Err(_) => Some(E::PositionParseError),
                    Ok(0.0) => Some(E::ScalingByZeroError),
                    Ok(_) => None,
                },
                _ => Some(E::ColorParseError),
            }
        }
        "vt" => (!numbers(&mut words, 2)).then_some(E::TexcoordParseError),
        "vn" => (!numbers(&mut words, 3)).then_some(E::NormalParseError),
        "f" | "l" => {
            let bad_word = |w: &str| {
                let parts: Vec<&str> = w.split('/').collect();
                parts.len() > 3
                    || parts
                        .iter()
                        .any(|p| !p.is_empty() && p.parse::<isize>().is_err())
            };
            words.any(bad_word).then_some(E::FaceParseError)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quad_becomes_a_triangle_fan_with_all_three_attributes() {
        let obj = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\n\
                   f 1/1/1 2/2/1 3/3/1 4/4/1\n";
        let mesh = parse_obj(obj.as_bytes()).unwrap();
        assert_eq!(mesh.vertex_count, 4);
        assert_eq!(mesh.indices, vec![0, 1, 2, 0, 2, 3]);
        let locations: Vec<_> = mesh
            .attributes
            .iter()
            .map(|a| (a.location, a.size))
            .collect();
        assert_eq!(locations, vec![(0, 3), (1, 3), (2, 2)]);
        assert_eq!(mesh.attributes[0].data[6..9], [1.0, 1.0, 0.0]);
        assert_eq!(mesh.attributes[2].data[4..6], [1.0, 1.0]); // vt passed through
        assert_eq!(mesh.attributes[1].data[9..12], [0.0, 0.0, 1.0]);
    }

    #[test]
    fn missing_normals_and_texcoords_are_left_out() {
        let mesh = parse_obj(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
        assert_eq!(mesh.attributes.len(), 1);
        assert_eq!(mesh.attributes[0].location, 0);
        let mesh = parse_obj(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0.5 0.25\nf 1/1 2/1 3/1\n").unwrap();
        let locations: Vec<_> = mesh.attributes.iter().map(|a| a.location).collect();
        assert_eq!(locations, vec![0, 2]);
    }

    #[test]
    fn objects_are_concatenated() {
        let obj =
            "o a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\no b\nv 0 0 1\nv 1 0 1\nv 0 1 1\nf 4 5 6\n";
        let mesh = parse_obj(obj.as_bytes()).unwrap();
        assert_eq!(mesh.vertex_count, 6);
        assert_eq!(mesh.indices, vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(mesh.attributes[0].data[9..12], [0.0, 0.0, 1.0]);
    }

    #[test]
    fn the_starter_cube_has_24_vertices_and_12_triangles() {
        let cube = include_bytes!("../../reference-images/meshes/cube.obj");
        let mesh = parse_obj(cube).unwrap();
        assert_eq!(mesh.vertex_count, 24);
        assert_eq!(mesh.indices.len(), 36);
        assert_eq!(mesh.attributes.len(), 3);
    }

    #[test]
    fn bad_files_are_errors() {
        assert!(parse_obj(b"").unwrap_err().contains("no faces"));
        assert!(parse_obj(b"v 0 0 0\nf 1 2 3\n").is_err());
        assert!(parse_obj(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/4 2/1 3/1\n").is_err());
        assert!(parse_obj(b"v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").is_err());
        assert!(parse_obj(&[0xff, 0xfe, b'v', b' ']).is_err());
        assert_eq!(
            parse_obj(b"v 0 0 0\nv 1 \xff 0\n").unwrap_err(),
            "not a readable OBJ mesh: line 2: not UTF-8 text"
        );
        // indices tobj would overflow on
        let err =
            parse_obj(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/-9223372036854775807 2/1 3/1\n")
                .unwrap_err();
        assert_eq!(
            err,
            "line 5: texture coordinate index -9223372036854775807 is out of range (1 defined)"
        );
        assert!(parse_obj(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n").is_err());
        assert!(parse_obj(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -3\n").is_ok());
        assert!(parse_obj(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n").is_err());
    }

    /// Each of tobj's line errors is reported with the line it stopped at and that
    /// line's text; an error no single line explains keeps tobj's message alone.
    #[test]
    fn parse_errors_name_the_line() {
        let head = "# a triangle\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n";
        let cases = [
            ("v 1 2 x", "position parse error"),
            ("v 1 2", "position parse error"),
            ("v 1 2 3 q", "position parse error"),
            ("v 1 2 3 0", "scaling (w) by zero"),
            ("v 1 2 3 0.5 0.5", "color parse error"),
            ("vt 0.5", "texcoord parse error"),
            ("vn 0 1 y", "normal parse error"),
            ("f 1/1/1 2/x/1 3/1/1", "face parse error"),
            ("f 1/1/1/1 2 3", "face parse error"),
        ];
        for (bad, what) in cases {
            let text = format!("{head}{bad}\nf 1 2 3\n");
            let err = parse_obj(text.as_bytes()).unwrap_err();
            let expected = format!("not a readable OBJ mesh: line 7: {what}");
            assert!(err.starts_with(&expected), "{bad:?}: {err}");
            assert!(err.ends_with(&format!(" in {bad:?}")), "{bad:?}: {err}");
        }
        // Lines that read well alone are not blamed.
        for good in [
            "v 1 2 3",
            "v 1 2 3 2",
            "v 1 2 3 0.1 0.2 0.3",
            "f 1//1 2//1 3//1",
            "vt 0 1",
        ] {
            assert_eq!(line_error(good), None, "{good}");
        }
        let long = format!("v 1 2 {}", "9".repeat(80) + "x");
        let err = parse_obj(format!("{long}\n").as_bytes()).unwrap_err();
        assert!(
            err.contains("line 1: position parse error in \"v 1 2 999"),
            "{err}"
        );
        assert!(err.ends_with("…\""), "{err}");
    }
}
