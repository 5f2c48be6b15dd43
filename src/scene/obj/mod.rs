//! Wavefront OBJ meshes, as the scene format's `mesh` field reads them.
//!
//! The subset read (docs/scene-format.md, `mesh`), the same as the llvmpipe reference
//! tool's reader:
//! - Lines end with `\n`, `\r\n` or `\r`; a `#` starts a comment that runs to the end
//!   of its line; words are separated by whitespace; a UTF-8 byte-order mark at the
//!   start is skipped.
//! - `v x y z`: a position. Further numbers (a `w`, a vertex colour) are ignored.
//! - `vt u [v]`: a texture coordinate, `v` 0 when absent; a third number is ignored.
//!   Values pass through unchanged (v = 0 is the bottom of the image, which is where
//!   the scene format puts t = 0).
//! - `vn x y z`: a normal.
//! - `f c1 c2 c3 …`: a polygon of at least 3 corners, triangulated as a fan
//!   (`c1 ck ck+1`). A corner is `v`, `v/vt`, `v//vn` or `v/vt/vn`; each index counts
//!   the lines of its kind *before* the face, from 1, or back from the last with a
//!   negative number.
//! - Every other line (`o`, `g`, `s`, `l`, `p`, `usemtl`, `mtllib`, …) is ignored.
//!
//! Each distinct `v/vt/vn` triple becomes one vertex, numbered in the order the faces
//! first use it. A corner without `vt` or `vn` gets zeros there; a file whose faces
//! never give one leaves that attribute out.
//!
//! Big files are read in ~1 MiB chunks of whole lines on the worker threads
//! ([`lines::Chunk`]); the chunks are then joined in file order, where the indices are
//! resolved and the vertices numbered, so the mesh is the same on any thread count.

mod lines;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::model::Attribute;
use crate::budget::{GEOMETRY_BYTES_PER_TRIANGLE, OBJ_BYTES_PER_NUMBER as BYTES_PER_DATA_NUMBER};
use lines::{Chunk, KINDS, RawCorner, line_chunks};

/// Chunks of about this many bytes are read in parallel (a 50 MB mesh makes ~50).
const CHUNK_BYTES: usize = 1 << 20;

/// An OBJ mesh as vertex attributes and a triangle index list.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Mesh {
    /// Location 0 = position (size 3); 1 = normal (size 3) and 2 = texcoord (size 2) when
    /// some face gives them. Sorted by location.
    pub(crate) attributes: Vec<Attribute>,
    /// Number of vertices in every attribute.
    pub(crate) vertex_count: u32,
    /// Triangle list, each index < vertex_count.
    pub(crate) indices: Vec<u32>,
}

/// Parses OBJ text (the module's subset) into a mesh whose reading takes at most
/// `max_bytes` (the memory budget's share for it: `crate::budget`): each triangle
/// counts [`GEOMETRY_BYTES_PER_TRIANGLE`] and each number of a `v`, `vt` or `vn` line
/// [`OBJ_BYTES_PER_NUMBER`](crate::budget::OBJ_BYTES_PER_NUMBER).
///
/// # Errors
/// [`ObjError::Invalid`]: a message for the first line that cannot be read, as
/// `line N: …` (N from 1): a missing or malformed number (`a vertex position needs 3
/// numbers, this one has 2`), a number that is not finite, a face with fewer than 3
/// corners, a malformed corner, or an index out of range (`vertex index 5 is out of
/// range (4 defined)`). Also text that is not UTF-8 (with the line of the first bad
/// byte) and a file without faces.
/// [`ObjError::OverBudget`] when the faces and data lines read take more than
/// `max_bytes`; reading stops soon after the count goes over, so a hostile file cannot
/// take more memory than the budget allows.
pub(crate) fn parse_obj(bytes: &[u8], max_bytes: u64) -> Result<Mesh, ObjError> {
    let budget = ReadBudget::new(max_bytes);
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => return Err(not_utf8(bytes, e.valid_up_to(), &budget)),
    };
    let mesh = read(text, &budget)?;
    if mesh.indices.is_empty() {
        return Err(ObjError::Invalid("the mesh has no faces".to_owned()));
    }
    Ok(mesh)
}

/// Why an OBJ file gives no mesh.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ObjError {
    /// The file is not valid in the module's subset: the message.
    Invalid(String),
    /// The faces and data lines read so far already make `triangles` triangles and
    /// `data_bytes` bytes of numbers ([`OBJ_BYTES_PER_NUMBER`](crate::budget::OBJ_BYTES_PER_NUMBER) each), more than
    /// allowed.
    OverBudget { triangles: u64, data_bytes: u64 },
}

impl From<String> for ObjError {
    fn from(message: String) -> Self {
        ObjError::Invalid(message)
    }
}

/// The triangles and data numbers the chunks read so far make, against the most bytes
/// allowed.
struct ReadBudget {
    max_bytes: u64,
    triangles: AtomicU64,
    floats: AtomicU64,
}

impl ReadBudget {
    fn new(max_bytes: u64) -> Self {
        ReadBudget {
            max_bytes,
            triangles: 0.into(),
            floats: 0.into(),
        }
    }

    fn data_bytes(&self) -> u64 {
        self.floats
            .load(Ordering::Relaxed)
            .saturating_mul(BYTES_PER_DATA_NUMBER)
    }

    fn used(&self) -> u64 {
        self.triangles
            .load(Ordering::Relaxed)
            .saturating_mul(GEOMETRY_BYTES_PER_TRIANGLE)
            .saturating_add(self.data_bytes())
    }

    fn over(&self) -> bool {
        self.used() > self.max_bytes
    }

    /// Records `triangles` more triangles and `floats` more numbers; whether all
    /// recorded so far are within the budget.
    fn spend(&self, triangles: u64, floats: u64) -> bool {
        self.triangles.fetch_add(triangles, Ordering::Relaxed);
        self.floats.fetch_add(floats, Ordering::Relaxed);
        !self.over()
    }

    /// Reads `text` unless the chunks read so far are already over the budget (then
    /// an empty chunk: the result is an error anyway), spending its triangles and
    /// numbers as they are read.
    fn read(&self, text: &str) -> Chunk {
        if self.over() {
            return Chunk::default();
        }
        Chunk::read(text, &|triangles, floats| self.spend(triangles, floats))
    }
}

/// Reads `text` in chunks on the worker threads and joins them (a mesh without faces
/// is not an error here).
fn read(text: &str, budget: &ReadBudget) -> Result<Mesh, ObjError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let chunks: Vec<Chunk> = line_chunks(text, CHUNK_BYTES)
        .par_iter()
        .map(|c| budget.read(c))
        .collect();
    if budget.over() {
        return Err(ObjError::OverBudget {
            triangles: budget.triangles.load(Ordering::Relaxed),
            data_bytes: budget.data_bytes(),
        });
    }
    Ok(join(&chunks)?)
}

/// The error for a file whose bytes are UTF-8 only up to `valid`: the first error of
/// the whole lines before that byte's line, if any, else `line N: not UTF-8 text` with
/// N counted as every other error counts lines.
fn not_utf8(bytes: &[u8], valid: usize, budget: &ReadBudget) -> ObjError {
    let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
    let whole = &prefix[..prefix.rfind(['\n', '\r']).map_or(0, |end| end + 1)];
    match read(whole, budget) {
        Err(earlier) => earlier,
        Ok(_) => ObjError::Invalid(format!(
            "line {}: not UTF-8 text",
            lines::lines(whole).count() + 1
        )),
    }
}

/// Joins the chunks of a file, in order: resolves every face's indices against the
/// data lines before it, numbers the distinct corners, and triangulates (a file
/// without faces gives a mesh without triangles).
fn join(chunks: &[Chunk]) -> Result<Mesh, String> {
    let data = |f: fn(&Chunk) -> &Vec<f32>| chunks.iter().flat_map(f).copied().collect();
    let positions: Vec<f32> = data(|c| &c.positions);
    let texcoords: Vec<f32> = data(|c| &c.texcoords);
    let normals: Vec<f32> = data(|c| &c.normals);
    let mut vertices = Vertices::new(positions.len() / 3);
    let mut indices = Vec::new();
    let (mut lines_before, mut earlier) = (0u64, [0u32; 3]);
    for chunk in chunks {
        // Line `n` of the chunk (from 0) as the file numbers it (from 1).
        let file_line = |n: u32| lines_before + u64::from(n) + 1;
        for face in &chunk.faces {
            let line = file_line(face.line);
            let counts: [u32; 3] = std::array::from_fn(|k| earlier[k] + face.before[k]);
            let corners = &chunk.corners[face.first as usize..][..face.count as usize];
            let mut resolved = Vec::with_capacity(corners.len());
            for corner in corners {
                let key = resolve(corner, counts).map_err(|e| format!("line {line}: {e}"))?;
                resolved.push(vertices.index(key)?);
            }
            for k in 1..resolved.len() - 1 {
                indices.extend([resolved[0], resolved[k], resolved[k + 1]]);
            }
        }
        if let Some((line, message)) = &chunk.error {
            return Err(format!("line {}: {message}", file_line(*line)));
        }
        lines_before += u64::from(chunk.lines);
        for (earlier, count) in earlier.iter_mut().zip(chunk.counts()) {
            *earlier += count;
        }
    }
    Ok(vertices.mesh(&positions, &texcoords, &normals, indices))
}

/// A corner's `v`, `vt` and `vn` as 0-based indices ([`NONE`] for a part not given),
/// given `counts` lines of each kind before its face.
fn resolve(corner: &RawCorner, counts: [u32; 3]) -> Result<[u32; 3], String> {
    let mut key = [NONE; 3];
    for (kind, (&index, count)) in corner.iter().zip(counts).enumerate() {
        if index == 0 {
            continue; // not given (a written 0 was refused when the line was read)
        }
        let count = i64::from(count);
        let at = if index > 0 { index - 1 } else { count + index };
        if !(0..count).contains(&at) {
            return Err(format!(
                "{} index {index} is out of range ({count} defined)",
                KINDS[kind]
            ));
        }
        key[kind] = at as u32;
    }
    Ok(key)
}

/// Marks a `vt` or `vn` that a corner does not give.
const NONE: u32 = u32::MAX;

/// The distinct corners (`v`, `vt`, `vn` triples) in the order faces first use them.
struct Vertices {
    /// Per position: the first vertex made from it (`NONE` if none yet).
    first: Vec<u32>,
    /// Triples whose position already had another vertex first.
    others: HashMap<[u32; 3], u32>,
    /// Each vertex's triple.
    keys: Vec<[u32; 3]>,
}

impl Vertices {
    fn new(positions: usize) -> Self {
        Vertices {
            first: vec![NONE; positions],
            others: HashMap::new(),
            keys: Vec::new(),
        }
    }

    /// The vertex of `key`, made if new.
    fn index(&mut self, key: [u32; 3]) -> Result<u32, String> {
        let next = u32::try_from(self.keys.len())
            .ok()
            .filter(|&n| n != NONE)
            .ok_or("the mesh has more than 4294967294 distinct vertices")?;
        let first = &mut self.first[key[0] as usize];
        let index = if *first == NONE {
            *first = next;
            next
        } else if self.keys[*first as usize] == key {
            return Ok(*first);
        } else {
            *self.others.entry(key).or_insert(next)
        };
        if index == next {
            self.keys.push(key);
        }
        Ok(index)
    }

    /// The mesh of these vertices: positions, and normals and texture coordinates
    /// when some vertex has them (zeros for those that do not).
    fn mesh(
        self,
        positions: &[f32],
        texcoords: &[f32],
        normals: &[f32],
        indices: Vec<u32>,
    ) -> Mesh {
        let gather = |kind: usize, size: usize, from: &[f32]| -> Option<Vec<f32>> {
            self.keys.iter().any(|k| k[kind] != NONE).then(|| {
                self.keys
                    .iter()
                    .flat_map(|k| match k[kind] {
                        NONE => &[0.0f32; 3][..size],
                        i => &from[i as usize * size..][..size],
                    })
                    .copied()
                    .collect()
            })
        };
        let mut attributes = vec![Attribute {
            location: 0,
            size: 3,
            data: gather(0, 3, positions).unwrap_or_default(),
            ..Attribute::default()
        }];
        for (location, kind, size, from) in [(1, 2, 3, normals), (2, 1, 2, texcoords)] {
            if let Some(data) = gather(kind, size, from) {
                attributes.push(Attribute {
                    location,
                    size: size as u32,
                    data,
                    ..Attribute::default()
                });
            }
        }
        Mesh {
            attributes,
            vertex_count: self.keys.len() as u32,
            indices,
        }
    }
}
