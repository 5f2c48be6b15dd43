use super::lines::{Chunk, line_chunks, lines};
use super::*;
use proptest::prelude::*;

fn parse(text: &str) -> Result<Mesh, String> {
    parse_bytes(text.as_bytes())
}

/// [`parse_obj`] without a triangle limit, its errors as messages.
fn parse_bytes(bytes: &[u8]) -> Result<Mesh, String> {
    parse_obj(bytes, u64::MAX).map_err(|e| match e {
        ObjError::Invalid(message) => message,
        ObjError::OverBudget { triangles, .. } => format!("{triangles} triangles"),
    })
}

/// [`parse_obj`] with chunks of about `size` bytes (0: one line each).
fn parse_in_chunks(text: &str, size: usize) -> Result<Mesh, String> {
    let chunks: Vec<Chunk> = line_chunks(text, size)
        .iter()
        .map(|c| Chunk::read(c, &|_, _| true))
        .collect();
    join(&chunks).and_then(|mesh| match mesh.indices.is_empty() {
        true => Err("the mesh has no faces".to_owned()),
        false => Ok(mesh),
    })
}

fn data(mesh: &Mesh, location: u32) -> &[f32] {
    let a = mesh.attributes.iter().find(|a| a.location == location);
    &a.expect("attribute present").data
}

const TRIANGLE: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";

#[test]
fn a_quad_becomes_a_triangle_fan_with_all_three_attributes() {
    let obj = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\n\
               f 1/1/1 2/2/1 3/3/1 4/4/1\n";
    let mesh = parse(obj).unwrap();
    assert_eq!(mesh.vertex_count, 4);
    assert_eq!(mesh.indices, vec![0, 1, 2, 0, 2, 3]);
    let locations: Vec<_> = mesh
        .attributes
        .iter()
        .map(|a| (a.location, a.size))
        .collect();
    assert_eq!(locations, vec![(0, 3), (1, 3), (2, 2)]);
    assert_eq!(data(&mesh, 0)[6..9], [1.0, 1.0, 0.0]);
    assert_eq!(data(&mesh, 2)[4..6], [1.0, 1.0]); // vt passed through
    assert_eq!(data(&mesh, 1)[9..12], [0.0, 0.0, 1.0]);
}

#[test]
fn missing_normals_and_texcoords_are_left_out() {
    let mesh = parse(&format!("{TRIANGLE}f 1 2 3\n")).unwrap();
    assert_eq!(mesh.attributes.len(), 1);
    assert_eq!(mesh.attributes[0].location, 0);
    let mesh = parse(&format!("{TRIANGLE}vt 0.5 0.25\nf 1/1 2/1 3/1\n")).unwrap();
    let locations: Vec<_> = mesh.attributes.iter().map(|a| a.location).collect();
    assert_eq!(locations, vec![0, 2]);
}

/// Faces with and without `vt` or `vn` mix, in one object and within one face: the
/// corners without them read zeros.
#[test]
fn corners_without_normals_or_texcoords_read_zeros() {
    let obj =
        format!("{TRIANGLE}vt 0.5 0.25\nvn 0 0 1\nf 1/1/1 2/1/1 3/1/1\nf 1 2 3\nf 1/1 2//1 3\n");
    let mesh = parse(&obj).unwrap();
    // (v, vt, vn): (1,1,1) (2,1,1) (3,1,1) (1,-,-) (2,-,-) (3,-,-) (1,1,-) (2,-,1); the
    // last corner repeats (3,-,-).
    assert_eq!(mesh.vertex_count, 8);
    assert_eq!(mesh.indices, vec![0, 1, 2, 3, 4, 5, 6, 7, 5]);
    assert_eq!(data(&mesh, 1)[..3], [0.0, 0.0, 1.0]);
    assert_eq!(data(&mesh, 1)[9..12], [0.0; 3]);
    assert_eq!(data(&mesh, 1)[21..24], [0.0, 0.0, 1.0]);
    assert_eq!(data(&mesh, 2)[12..14], [0.5, 0.25]);
    assert_eq!(data(&mesh, 2)[14..16], [0.0; 2]);
}

#[test]
fn objects_and_groups_are_concatenated_and_vertices_shared() {
    let obj = "o a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\ng b\nusemtl red\nv 0 0 1\nf 2 3 4\n";
    let mesh = parse(obj).unwrap();
    assert_eq!(mesh.vertex_count, 4);
    assert_eq!(mesh.indices, vec![0, 1, 2, 1, 2, 3]);
    assert_eq!(data(&mesh, 0)[9..12], [0.0, 0.0, 1.0]);
}

#[test]
fn the_starter_cube_has_24_vertices_and_12_triangles() {
    let cube = include_bytes!("../../../reference-images/meshes/cube.obj");
    let mesh = parse_bytes(cube).unwrap();
    assert_eq!(mesh.vertex_count, 24);
    assert_eq!(mesh.indices.len(), 36);
    assert_eq!(mesh.attributes.len(), 3);
}

/// What the reference tool also reads: comments at line ends, a `w` or a colour after
/// a position (ignored, not applied), `vt u`, CR line ends, a byte-order mark, and
/// lines of any other keyword.
#[test]
fn lenient_lines_read_as_the_reference_reads_them() {
    let plain = parse(&format!("{TRIANGLE}vt 0.5 0\nf 1/1 2/1 3/1\n")).unwrap();
    let variants = [
        "v 0 0 0 # origin\nv 1 0 0 2\nv 0 1 0 0.5 0.5 0.5\nvt 0.5\nf 1/1 2/1 3/1 # face\n",
        "v 0 0 0\rv 1 0 0\rv 0 1 0\rvt 0.5 0 7\rf 1/1 2/1 3/1\r",
        "\u{feff}v 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nvt 0.5 0\r\nf 1/1 2/1 3/1",
        "mtllib x.mtl\nv 0 0 0\nvp 1\nv 1 0 0\nl 1 2\np 1\ns off\nv 0 1 0\nvt 0.5 0\nf 1/1 2/1 3/1\n",
        "v 0 0 0\n\n#\n   \nv 1 0 0\nv 0 1 0#c\nvt 0.5 0\nf\t1/1   2/1\t3/1\n",
    ];
    for text in variants {
        assert_eq!(parse(text), Ok(plain.clone()), "{text:?}");
    }
}

#[test]
fn errors_name_the_line_and_what_is_wrong() {
    let head = "# a triangle\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n";
    let cases = [
        ("v 1 2 x", "a vertex position: 'x' is not a number"),
        ("v 1 2", "a vertex position needs 3 numbers, this one has 2"),
        (
            "v 1 2 1e40",
            "a vertex position: '1e40' is too large for a 32-bit float",
        ),
        (
            "v 1 2 -inf",
            "a vertex position: '-inf' is not a finite number",
        ),
        ("vt", "a texture coordinate needs 1 number, this one has 0"),
        ("vn 0 1 nan", "a normal: 'nan' is not a finite number"),
        ("f 1 2", "a face needs at least 3 corners, this one has 2"),
        (
            "f 1/1/1 2/x/1 3/1/1",
            "face corner '2/x/1': texture coordinate index 'x' is not an integer",
        ),
        (
            "f 1/1/1/1 2 3",
            "face corner '1/1/1/1' has more than three parts (v/vt/vn)",
        ),
        ("f 1 2 /3", "face corner '/3' has no vertex index"),
        (
            "f 1 2 3/0",
            "face corner '3/0': texture coordinate index 0 (indices count from 1, or back from -1)",
        ),
        (
            "f 1 2 \\",
            "face corner '\\': vertex index '\\' is not an integer",
        ),
        ("f 1 2 4", "vertex index 4 is out of range (3 defined)"),
        ("f 1 2 -4", "vertex index -4 is out of range (3 defined)"),
        (
            "f 1 2 9223372036854775808",
            "face corner '9223372036854775808': vertex index '9223372036854775808' is out of range",
        ),
        (
            "f 1 2 3\u{1b}[31m",
            "face corner '3\\u{1b}[31m': vertex index '3\\u{1b}[31m' is not an integer",
        ),
        ("f 1 2 3//2", "normal index 2 is out of range (1 defined)"),
        (
            "f 1/-9223372036854775807 2/1 3/1",
            "texture coordinate index -9223372036854775807 is out of range (1 defined)",
        ),
    ];
    for (bad, message) in cases {
        let text = format!("{head}{bad}\nf 1 2 3\nf 1 2 9\n");
        assert_eq!(
            parse(&text).unwrap_err(),
            format!("line 7: {message}"),
            "{bad:?}"
        );
    }
    assert_eq!(parse("").unwrap_err(), "the mesh has no faces");
    assert_eq!(parse(TRIANGLE).unwrap_err(), "the mesh has no faces");
    assert_eq!(
        parse_bytes(b"v 0 0 0\nv 1 \xff 0\n").unwrap_err(),
        "line 2: not UTF-8 text"
    );
    assert!(parse(&format!("{TRIANGLE}f -1 -2 -3\n")).is_ok());
}

/// Long words are cut in messages; a byte that is not UTF-8 is placed on its line as
/// every other error is (CR and CRLF line ends too), unless an earlier line has an
/// error of its own.
#[test]
fn long_words_are_cut_and_bad_bytes_placed() {
    let long = format!("v 0 1 {}x\n", "1".repeat(100));
    let quoted = format!("'{}…'", "1".repeat(40));
    assert_eq!(
        parse(&long).unwrap_err(),
        format!("line 1: a vertex position: {quoted} is not a number")
    );
    let cases: [(&[u8], &str); 4] = [
        (
            b"v 0 0 0\rv 1 0 0\rv 0 1 0\r# \xff\rf 1 2 3\r",
            "line 4: not UTF-8 text",
        ),
        (b"\r\r\r\n\xff", "line 4: not UTF-8 text"),
        (b"v 0 0 0\r\nf 1 2 3 # caf\xe9\n", "line 2: not UTF-8 text"),
        (
            b"v 0 0 0\nf 1 2 9\n# \xff\n",
            "line 2: vertex index 2 is out of range (1 defined)",
        ),
    ];
    for (bytes, message) in cases {
        assert_eq!(parse_bytes(bytes).unwrap_err(), message, "{bytes:?}");
    }
}

#[test]
fn line_ends_and_chunks() {
    let split: Vec<_> = lines("a\nb\r\nc\rd\n\ne").collect();
    assert_eq!(split, ["a", "b", "c", "d", "", "e"]);
    assert_eq!(lines("a\n").count(), 1);
    assert_eq!(lines("").count(), 0);
    let text = "v 1 2 3\nvt 0 0\r\nf 1/1 1/1 1/1\n\nlast";
    for size in [0, 1, 3, 8, 9, 100] {
        let chunks = line_chunks(text, size);
        assert_eq!(chunks.concat(), text, "size {size}");
        assert!(chunks[..chunks.len() - 1].iter().all(|c| c.ends_with('\n')));
        let per_chunk: Vec<_> = chunks.iter().flat_map(|c| lines(c)).collect();
        assert_eq!(per_chunk, lines(text).collect::<Vec<_>>(), "size {size}");
    }
    assert!(line_chunks("", 4).is_empty());
}

/// One OBJ-like line: data lines, faces with small indices (so that both valid and
/// invalid files are common), comments and other keywords.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[ ]?(v|vn)( 0){3}( 1)?",
        6 => "[ ]?v( 0){3}",
        3 => "vt( 0){1,2}",
        6 => "[ \t]?f([ \t]-?[1-3](/1?(/1)?)?){3,4}(# c)?",
        1 => "f( -?[0-4]){2}( /1)?",
        1 => "f 1 2 (0|/1|x|1/1/1/1)",
        2 => "(#|g|o|s|vp|l|p)( 1)?",
        1 => "v 0 x 0",
    ]
}

/// A file's lines: mostly data first (so that many faces are in range), then any.
fn file() -> impl Strategy<Value = Vec<String>> {
    let data = prop_oneof![4 => "v( 0){3}", 1 => "vt 0 1", 1 => "vn 0 0 1"];
    (
        prop::collection::vec(data, 0..10),
        prop::collection::vec(line(), 0..10),
    )
        .prop_map(|(mut head, body)| {
            head.extend(body);
            head
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Reading in chunks gives the same mesh, or the same first error, whatever the
    /// chunk size: one line per chunk, a few lines, the whole text.
    #[test]
    fn chunks_of_any_size_give_the_same_mesh(
        lines in file(),
        crlf in any::<bool>(),
    ) {
        let text = lines.join(if crlf { "\r\n" } else { "\n" });
        let whole = parse_in_chunks(&text, 1 << 20);
        for size in [0, 1, 5, 16] {
            prop_assert_eq!(&parse_in_chunks(&text, size), &whole, "size {}: {:?}", size, text);
        }
        prop_assert_eq!(&parse(&text), &whole);
    }
}

/// The generator above gives meshes and errors often, so the agreement test means
/// something.
#[test]
fn sample_files_both_parse_and_fail() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = file();
    let parsed = (0..400)
        .filter(|_| parse(&strategy.new_tree(&mut runner).unwrap().current().join("\n")).is_ok())
        .count();
    assert!((40..360).contains(&parsed), "{parsed} of 400 parsed");
}

/// Reading stops once the faces make more triangles than allowed, within a long face
/// too (checked every `CORNERS_PER_CHECK` corners), and a file that fits is read whole.
#[test]
fn reading_stops_when_the_triangle_budget_runs_out() {
    let t = GEOMETRY_BYTES_PER_TRIANGLE;
    // TRIANGLE's 3 positions hold 9 numbers.
    let data = 9 * BYTES_PER_DATA_NUMBER;
    let long_face = format!("{TRIANGLE}f{}\n", " 1 2 3".repeat(4000));
    assert_eq!(
        parse_obj(long_face.as_bytes(), data + 100 * t),
        Err(ObjError::OverBudget {
            triangles: 4094,
            data_bytes: data
        })
    );
    let many_faces = format!("{TRIANGLE}{}", "f 1 2 3\n".repeat(300));
    assert_eq!(
        parse_obj(many_faces.as_bytes(), data + 299 * t),
        Err(ObjError::OverBudget {
            triangles: 300,
            data_bytes: data
        })
    );
    assert_eq!(
        parse_obj(many_faces.as_bytes(), data + 300 * t)
            .unwrap()
            .indices
            .len(),
        900
    );
    assert_eq!(
        parse_obj(long_face.as_bytes(), data + 11_998 * t)
            .unwrap()
            .indices
            .len(),
        3 * 11_998
    );
}

/// Vertex data counts too: a file of many `v` lines and one face stops within a few
/// thousand lines of the budget's end (its 1.6 MB are 2 chunks, each checked every
/// 4096 data lines).
#[test]
fn reading_stops_when_vertex_data_runs_out() {
    let lines = "v 0.25 0.5 0.75\n".repeat(100_000) + "f 1 2 3\n";
    let budget = 30_000 * 3 * BYTES_PER_DATA_NUMBER;
    match parse_obj(lines.as_bytes(), budget) {
        Err(ObjError::OverBudget {
            triangles: 0,
            data_bytes,
        }) => {
            assert!(data_bytes > budget, "{data_bytes}");
            assert!(
                data_bytes <= budget + 2 * 4096 * 3 * BYTES_PER_DATA_NUMBER,
                "{data_bytes}: stops within a check's lines of each of the 2 chunks"
            );
        }
        other => panic!("{other:?}"),
    }
    let fits = 100_000 * 3 * BYTES_PER_DATA_NUMBER + GEOMETRY_BYTES_PER_TRIANGLE;
    assert_eq!(parse_obj(lines.as_bytes(), fits).unwrap().indices, [0, 1, 2]);
}
