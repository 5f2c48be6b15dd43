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
    let text = std::str::from_utf8(bytes)
        .map_err(|_| "not a readable OBJ mesh: not UTF-8 text".to_owned())?;
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
        .map_err(|e| format!("not a readable OBJ mesh: {e}"))?;

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
}
