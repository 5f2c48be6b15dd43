//! Uniform values: each key resolved against the program's active uniforms into the
//! `glUniform*` call (or the uniform buffer bytes) that sets it, once at prepare
//! time, so that a frame only replays the calls.

use crate::driver::Driver;
use crate::error::{GlError, Place};
use crate::frame::UniformDesc;
use crate::program::{ActiveUniform, Program};
use glow::HasContext;

/// What a uniform's components hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Float,
    Int,
    Uint,
    Bool,
    Sampler,
    Other,
}

/// A uniform type's kind, columns and rows (rows = components for a vector).
#[allow(
    non_upper_case_globals,
    reason = "glow spells GL_FLOAT_MAT2x3 as GL does"
)]
pub(crate) fn shape(utype: u32) -> (Kind, usize, usize) {
    use glow::*;
    match utype {
        FLOAT => (Kind::Float, 1, 1),
        FLOAT_VEC2 => (Kind::Float, 1, 2),
        FLOAT_VEC3 => (Kind::Float, 1, 3),
        FLOAT_VEC4 => (Kind::Float, 1, 4),
        INT => (Kind::Int, 1, 1),
        INT_VEC2 => (Kind::Int, 1, 2),
        INT_VEC3 => (Kind::Int, 1, 3),
        INT_VEC4 => (Kind::Int, 1, 4),
        UNSIGNED_INT => (Kind::Uint, 1, 1),
        UNSIGNED_INT_VEC2 => (Kind::Uint, 1, 2),
        UNSIGNED_INT_VEC3 => (Kind::Uint, 1, 3),
        UNSIGNED_INT_VEC4 => (Kind::Uint, 1, 4),
        BOOL => (Kind::Bool, 1, 1),
        BOOL_VEC2 => (Kind::Bool, 1, 2),
        BOOL_VEC3 => (Kind::Bool, 1, 3),
        BOOL_VEC4 => (Kind::Bool, 1, 4),
        FLOAT_MAT2 => (Kind::Float, 2, 2),
        FLOAT_MAT3 => (Kind::Float, 3, 3),
        FLOAT_MAT4 => (Kind::Float, 4, 4),
        FLOAT_MAT2x3 => (Kind::Float, 2, 3),
        FLOAT_MAT2x4 => (Kind::Float, 2, 4),
        FLOAT_MAT3x2 => (Kind::Float, 3, 2),
        FLOAT_MAT3x4 => (Kind::Float, 3, 4),
        FLOAT_MAT4x2 => (Kind::Float, 4, 2),
        FLOAT_MAT4x3 => (Kind::Float, 4, 3),
        t if is_sampler(t) => (Kind::Sampler, 1, 1),
        _ => (Kind::Other, 1, 1),
    }
}

/// Whether `utype` is a sampler type of GLSL 3.30 (`sampler*`, `isampler*`,
/// `usampler*`, the shadow samplers).
pub(crate) fn is_sampler(utype: u32) -> bool {
    matches!(utype, 0x8B5D..=0x8B64 | 0x8DC0..=0x8DC5 | 0x8DC9..=0x8DD8 | 0x9108..=0x910D)
        && !matches!(utype, 0x8DC6..=0x8DC8)
}

/// One prepared uniform write, replayed before each draw.
pub(crate) enum UniformWrite {
    /// `glUniform{1,2,3,4}fv`.
    Float {
        location: glow::UniformLocation,
        rows: usize,
        data: Vec<f32>,
    },
    /// `glUniform{1,2,3,4}iv` (int and bool).
    Int {
        location: glow::UniformLocation,
        rows: usize,
        data: Vec<i32>,
    },
    /// `glUniform{1,2,3,4}uiv`.
    Uint {
        location: glow::UniformLocation,
        rows: usize,
        data: Vec<u32>,
    },
    /// `glUniformMatrix{C}x{R}fv(transpose = false)`.
    Matrix {
        location: glow::UniformLocation,
        columns: usize,
        rows: usize,
        data: Vec<f32>,
    },
}

/// `glUniform{1,2,3,4}{f,i,ui}v` by the number of rows: the call of `$suffix`'s family
/// for `$rows` components.
macro_rules! uniform_by_rows {
    ($gl:ident, $rows:expr, $location:expr, $data:expr, $one:ident, $two:ident, $three:ident, $four:ident) => {
        match $rows {
            1 => $gl.$one($location, $data),
            2 => $gl.$two($location, $data),
            3 => $gl.$three($location, $data),
            _ => $gl.$four($location, $data),
        }
    };
}

impl UniformWrite {
    /// Issue the call.
    pub fn apply(&self, gl: &glow::Context) {
        // SAFETY: the program the location belongs to is current (the draw binds it
        // first), and every slice holds whole elements of the uniform's type, no more
        // elements than it has (checked when the write was made).
        unsafe {
            match self {
                UniformWrite::Float {
                    location,
                    rows,
                    data,
                } => uniform_by_rows!(
                    gl,
                    rows,
                    Some(location),
                    data,
                    uniform_1_f32_slice,
                    uniform_2_f32_slice,
                    uniform_3_f32_slice,
                    uniform_4_f32_slice
                ),
                UniformWrite::Int {
                    location,
                    rows,
                    data,
                } => uniform_by_rows!(
                    gl,
                    rows,
                    Some(location),
                    data,
                    uniform_1_i32_slice,
                    uniform_2_i32_slice,
                    uniform_3_i32_slice,
                    uniform_4_i32_slice
                ),
                UniformWrite::Uint {
                    location,
                    rows,
                    data,
                } => uniform_by_rows!(
                    gl,
                    rows,
                    Some(location),
                    data,
                    uniform_1_u32_slice,
                    uniform_2_u32_slice,
                    uniform_3_u32_slice,
                    uniform_4_u32_slice
                ),
                UniformWrite::Matrix {
                    location,
                    columns,
                    rows,
                    data,
                } => {
                    let l = Some(location);
                    match (columns, rows) {
                        (2, 2) => gl.uniform_matrix_2_f32_slice(l, false, data),
                        (2, 3) => gl.uniform_matrix_2x3_f32_slice(l, false, data),
                        (2, 4) => gl.uniform_matrix_2x4_f32_slice(l, false, data),
                        (3, 2) => gl.uniform_matrix_3x2_f32_slice(l, false, data),
                        (3, 3) => gl.uniform_matrix_3_f32_slice(l, false, data),
                        (3, 4) => gl.uniform_matrix_3x4_f32_slice(l, false, data),
                        (4, 2) => gl.uniform_matrix_4x2_f32_slice(l, false, data),
                        (4, 3) => gl.uniform_matrix_4x3_f32_slice(l, false, data),
                        _ => gl.uniform_matrix_4_f32_slice(l, false, data),
                    }
                }
            }
        }
    }
}

/// A uniform block's buffer: its bytes (members the draw sets, zeros elsewhere) and
/// the binding point it is read through.
pub(crate) struct BlockBuffer {
    pub index: u32,
    pub bytes: Vec<u8>,
}

/// What a draw's uniform values become.
#[derive(Default)]
pub(crate) struct UniformPlan {
    pub writes: Vec<UniformWrite>,
    pub blocks: Vec<BlockBuffer>,
    /// Matrix uniforms set by column (`mat2`, non-square): name → its write.
    pub matrices: Vec<(String, usize)>,
}

/// Resolve every value of draw `draw` against `program`.
///
/// # Errors
/// At the uniform: a name the sources do not declare, a sampler given as a value, a
/// type the renderer cannot set, or a number count that does not fit the type.
pub(crate) fn plan(
    driver: &Driver,
    program: &Program,
    draw: usize,
    values: &[UniformDesc<'_>],
) -> Result<UniformPlan, GlError> {
    let mut plan = UniformPlan::default();
    for value in values {
        let place = || Place::Uniform(draw, value.key.to_string());
        let (base, index) = split_index(value.key);
        let found = program
            .uniforms
            .iter()
            .find(|u| u.name == value.key)
            .map(|u| (u, None))
            .or_else(|| {
                program
                    .uniforms
                    .iter()
                    .find(|u| Some(u.name.as_str()) == base)
                    .map(|u| (u, index))
            });
        let Some((uniform, index)) = found else {
            if is_declared(program, value.key) {
                continue; // declared, but the driver optimised it away: nothing to set
            }
            return Err(GlError::at(
                place(),
                format!("the program does not declare uniform '{}'", value.key),
            ));
        };
        let (kind, columns, rows) = shape(uniform.utype);
        match kind {
            Kind::Sampler => {
                return Err(GlError::at(
                    place(),
                    format!("'{}' is a sampler; give it under samplers", value.key),
                ));
            }
            Kind::Other => {
                return Err(GlError::at(
                    place(),
                    format!(
                        "'{}' has a type this renderer cannot set (GL type 0x{:04X})",
                        value.key, uniform.utype
                    ),
                ));
            }
            _ => {}
        }
        let by_column = columns > 1 && !(columns == rows && columns > 2);
        if let Some(block) = uniform.block {
            let bytes = block_bytes(driver, program, &mut plan, block);
            write_block_member(
                bytes,
                uniform,
                index.unwrap_or(0),
                value,
                kind,
                columns,
                rows,
            )
            .map_err(|m| GlError::at(place(), m))?;
            continue;
        }
        let written = if by_column {
            column_write(driver, program, &mut plan, uniform, index, value, rows)
        } else {
            element_write(program, uniform, value, index, kind, columns, rows, driver)
                .map(|w| plan.writes.extend(w))
        };
        written.map_err(|m| GlError::at(place(), m))?;
    }
    Ok(plan)
}

/// `name[digits]` → (`name`, digits); anything else → (`None`, `None`).
fn split_index(key: &str) -> (Option<&str>, Option<usize>) {
    let Some(open) = key.strip_suffix(']').and_then(|k| k.rfind('[')) else {
        return (None, None);
    };
    match key[open + 1..key.len() - 1].parse() {
        Ok(i) => (Some(&key[..open]), Some(i)),
        Err(_) => (None, None),
    }
}

/// Whether the sources declare the uniform `key` names (its first name before a `.`
/// or `[`, or its last member name for a block member without an instance name).
fn is_declared(program: &Program, key: &str) -> bool {
    let root = key.split(['.', '[']).next().unwrap_or(key);
    let last = key.rsplit('.').next().unwrap_or(key);
    let last = last.split('[').next().unwrap_or(last);
    program.declared.iter().any(|d| d == root || d == last)
}

/// The number of whole elements `value` holds for a type of `per_element` numbers, at
/// most `available` (elements past the driver's active ones are dropped: GL may trim
/// the unused tail of an array); `whole`: exactly one. An error when the count is not a
/// positive multiple of `per_element`, or not one element where one is named.
fn element_count(
    value: &UniformDesc<'_>,
    per_element: usize,
    available: usize,
    whole: bool,
) -> Result<usize, String> {
    let n = value.values.len();
    let plural = if per_element == 1 { "" } else { "s" };
    if n == 0 || !n.is_multiple_of(per_element) {
        return Err(format!(
            "expected {per_element} number{plural} per element of this uniform's type, got {n}"
        ));
    }
    if whole && n != per_element {
        return Err(format!(
            "expected {per_element} number{plural} for this uniform's type, got {n}"
        ));
    }
    Ok((n / per_element).min(available))
}

/// The numbers of `value` as the integers an int uniform takes: the exact integers
/// when given, otherwise the floats truncated toward zero.
fn integers(value: &UniformDesc<'_>) -> Vec<i64> {
    match value.ints {
        Some(ints) => ints.to_vec(),
        None => value.values.iter().map(|&v| v as i64).collect(),
    }
}

/// A write of whole elements (from element `index` on, or the whole uniform).
#[expect(clippy::too_many_arguments, reason = "one uniform's resolved facts")]
fn element_write(
    program: &Program,
    uniform: &ActiveUniform,
    value: &UniformDesc<'_>,
    index: Option<usize>,
    kind: Kind,
    columns: usize,
    rows: usize,
    driver: &Driver,
) -> Result<Option<UniformWrite>, String> {
    let first = index.unwrap_or(0);
    let size = uniform.size.max(1) as usize;
    if first >= size {
        return Ok(None); // an element the driver dropped as unused
    }
    // `u` of a non-array, and `u[i]`, name one element (docs/scene-format.md
    // `uniforms`); `u` of an array takes elements from the first on.
    let whole = !uniform.array || index.is_some();
    let per_element = columns * rows;
    let count = element_count(value, per_element, size - first, whole)? * per_element;
    let name = if first == 0 {
        uniform.name.clone()
    } else {
        format!("{}[{first}]", uniform.name)
    };
    // SAFETY: `program.program` is a linked program of the current context.
    let location = unsafe { driver.gl.get_uniform_location(program.program, &name) }
        .ok_or_else(|| format!("the driver gives no location for '{name}'"))?;
    let floats = || value.values[..count].to_vec();
    let ints = || integers(value)[..count].to_vec();
    Ok(Some(match kind {
        Kind::Float if columns > 1 => UniformWrite::Matrix {
            location,
            columns,
            rows,
            data: floats(),
        },
        Kind::Float => UniformWrite::Float {
            location,
            rows,
            data: floats(),
        },
        Kind::Int => UniformWrite::Int {
            location,
            rows,
            data: ints().iter().map(|&v| v as i32).collect(),
        },
        Kind::Bool => UniformWrite::Int {
            location,
            rows,
            data: floats().iter().map(|&v| i32::from(v != 0.0)).collect(),
        },
        _ => UniformWrite::Uint {
            location,
            rows,
            data: ints().iter().map(|&v| v as u32).collect(),
        },
    }))
}

/// A `mat2` or non-square matrix (or an array of them), which CSIR stores as the
/// array of its columns: `m` sets whole matrices from the first, `m[i]` sets column
/// `i` of the whole array. Every key of one uniform goes into one copy of it, started
/// from the values the program holds after linking (its initializers), and set with
/// one call.
fn column_write(
    driver: &Driver,
    program: &Program,
    plan: &mut UniformPlan,
    uniform: &ActiveUniform,
    index: Option<usize>,
    value: &UniformDesc<'_>,
    rows: usize,
) -> Result<(), String> {
    let (_, columns, _) = shape(uniform.utype);
    let elements = uniform.size.max(1) as usize;
    let total_columns = elements * columns;
    let at = match plan.matrices.iter().find(|(name, _)| *name == uniform.name) {
        Some(&(_, at)) => at,
        None => {
            let data = initial_values(driver, program, uniform, columns * rows);
            // SAFETY: the program is linked; the name is one of its active uniforms.
            let location = unsafe {
                driver
                    .gl
                    .get_uniform_location(program.program, &uniform.name)
            }
            .ok_or_else(|| format!("the driver gives no location for '{}'", uniform.name))?;
            plan.writes.push(UniformWrite::Matrix {
                location,
                columns,
                rows,
                data,
            });
            plan.matrices
                .push((uniform.name.clone(), plan.writes.len() - 1));
            plan.writes.len() - 1
        }
    };
    let UniformWrite::Matrix { data, .. } = &mut plan.writes[at] else {
        unreachable!("plan.matrices names matrix writes only");
    };
    let (first, count) = match index {
        Some(column) if column >= total_columns => return Ok(()), // dropped as unused
        Some(column) => (
            column * rows,
            element_count(value, rows, total_columns - column, true)? * rows,
        ),
        None => {
            let per_matrix = columns * rows;
            (
                0,
                element_count(value, per_matrix, elements, !uniform.array)? * per_matrix,
            )
        }
    };
    data[first..first + count].copy_from_slice(&value.values[..count]);
    Ok(())
}

/// The values of every element of a matrix uniform as the program holds them.
fn initial_values(
    driver: &Driver,
    program: &Program,
    uniform: &ActiveUniform,
    per_matrix: usize,
) -> Vec<f32> {
    let elements = uniform.size.max(1) as usize;
    let mut data = vec![0.0f32; elements * per_matrix];
    for (e, matrix) in data.chunks_mut(per_matrix).enumerate() {
        let name = if uniform.array {
            format!("{}[{e}]", uniform.name)
        } else {
            uniform.name.clone()
        };
        // SAFETY: the program is linked; the slice holds one whole matrix, what
        // glGetUniformfv writes for a matrix location.
        unsafe {
            if let Some(l) = driver.gl.get_uniform_location(program.program, &name) {
                driver.gl.get_uniform_f32(program.program, &l, matrix);
            }
        }
    }
    data
}

/// The bytes of uniform block `block` in `plan`, made (zeros, the block's size) the
/// first time.
fn block_bytes<'p>(
    driver: &Driver,
    program: &Program,
    plan: &'p mut UniformPlan,
    block: u32,
) -> &'p mut Vec<u8> {
    let at = match plan.blocks.iter().position(|b| b.index == block) {
        Some(at) => at,
        None => {
            // SAFETY: `block` is a block index glGetActiveUniformsiv reported for this
            // linked program.
            let size = unsafe {
                driver.gl.get_active_uniform_block_parameter_i32(
                    program.program,
                    block,
                    glow::UNIFORM_BLOCK_DATA_SIZE,
                )
            };
            plan.blocks.push(BlockBuffer {
                index: block,
                bytes: vec![0; size.max(0) as usize],
            });
            plan.blocks.len() - 1
        }
    };
    &mut plan.blocks[at].bytes
}

/// Store `value` into a block member's bytes at its offset, by its strides (GL 3.3
/// core §2.11.4, "Uniform Buffer Object Storage"): floats and integers as 32-bit
/// words, booleans as 0 or 1.
fn write_block_member(
    bytes: &mut [u8],
    member: &ActiveUniform,
    first: usize,
    value: &UniformDesc<'_>,
    kind: Kind,
    columns: usize,
    rows: usize,
) -> Result<(), String> {
    let size = member.size.max(1) as usize;
    if first >= size {
        return Err(format!(
            "element {first} is past the end of '{}' ({size} elements)",
            member.name
        ));
    }
    let elements = element_count(value, columns * rows, size - first, false)?;
    let ints = integers(value);
    for e in 0..elements {
        for c in 0..columns {
            for r in 0..rows {
                let k = (e * columns + c) * rows + r;
                let word: u32 = match kind {
                    Kind::Float => value.values[k].to_bits(),
                    Kind::Bool => u32::from(value.values[k] != 0.0),
                    _ => ints[k] as u32,
                };
                let (major, minor) = if member.row_major { (r, c) } else { (c, r) };
                let at = member.offset as usize
                    + (first + e) * member.array_stride.max(0) as usize
                    + major * member.matrix_stride.max(0) as usize
                    + minor * 4;
                let Some(slot) = bytes.get_mut(at..at + 4) else {
                    return Err(format!(
                        "'{}' lies outside its block's storage",
                        member.name
                    ));
                };
                slot.copy_from_slice(&word.to_le_bytes());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_split_into_name_and_index() {
        assert_eq!(split_index("uL[12]"), (Some("uL"), Some(12)));
        assert_eq!(split_index("s[0].v[1]"), (Some("s[0].v"), Some(1)));
        assert_eq!(split_index("light.color"), (None, None));
        assert_eq!(split_index("u[x]"), (None, None));
    }

    #[test]
    fn sampler_types_are_recognised() {
        assert!(is_sampler(glow::SAMPLER_2D));
        assert!(is_sampler(glow::UNSIGNED_INT_SAMPLER_BUFFER));
        assert!(is_sampler(glow::SAMPLER_2D_MULTISAMPLE));
        assert!(!is_sampler(glow::UNSIGNED_INT_VEC3));
        assert_eq!(shape(glow::FLOAT_MAT2x3), (Kind::Float, 2, 3));
    }

    #[test]
    fn block_members_follow_offsets_and_strides() {
        let member = ActiveUniform {
            name: "Colors.m".into(),
            array: false,
            size: 1,
            utype: glow::FLOAT_MAT2,
            block: Some(0),
            offset: 16,
            array_stride: 0,
            matrix_stride: 16,
            row_major: true,
        };
        let mut bytes = vec![0u8; 64];
        let values = [1.0, 2.0, 3.0, 4.0];
        let value = UniformDesc {
            key: "Colors.m",
            values: &values,
            ints: None,
        };
        write_block_member(&mut bytes, &member, 0, &value, Kind::Float, 2, 2).unwrap();
        let word = |at: usize| f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        // row-major: row r at offset + r * 16, column c at + c * 4; input column-major
        assert_eq!(
            [word(16), word(20), word(32), word(36)],
            [1.0, 3.0, 2.0, 4.0]
        );
    }
}
