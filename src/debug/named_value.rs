//! Values by source name: how a vec4 slot layout (uniforms, varyings, outputs) maps
//! to and from the floats of a typed interface variable.
//!
//! A value of type `ty` takes `ty.columns()` consecutive vec4 slots per element (3 for
//! mat3, 4 for mat4, else 1), and `ty.width()` lanes of each (x..), column-major;
//! array elements follow one another. This is the layout the compiler gives uniforms,
//! varyings and outputs, and the one `Program::set_uniform` fills.

use csir::Type;
use serde::Serialize;

/// A typed value by its source name, e.g. `vNormal: vec3 = (0, 0.5, 0.8)`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NamedValue {
    /// Source name (`gl_Position` for the vertex position).
    pub name: String,
    /// Type as written in source (`vec3`, `mat4`, `float[3]`).
    #[serde(rename = "type")]
    pub ty: String,
    /// The floats, column-major, element after element (in JSON, NaN and infinities
    /// as `"NaN"`, `"inf"`, `"-inf"`: see `json_float.rs`).
    #[serde(serialize_with = "super::json_float::floats")]
    pub values: Vec<f32>,
}

impl NamedValue {
    /// The value of `name: ty[array_len]` stored from vec4 slot `base` of `slots`
    /// (slots past the end read zeros).
    pub fn from_slots(
        name: &str,
        ty: Type,
        array_len: Option<u16>,
        slots: &[[f32; 4]],
        base: usize,
    ) -> Self {
        let mut values = Vec::with_capacity(float_count(ty, array_len));
        for slot in slot_range(ty, array_len, base) {
            let lanes = slots.get(slot).copied().unwrap_or([0.0; 4]);
            values.extend_from_slice(&lanes[..ty.width().min(4) as usize]);
        }
        NamedValue {
            name: name.to_string(),
            ty: type_name(ty, array_len),
            values,
        }
    }
}

/// Floats a value of `ty[array_len]` takes (float 1, vec3 3, mat4 16, times elements).
pub fn float_count(ty: Type, array_len: Option<u16>) -> usize {
    ty.float_count() * array_len.unwrap_or(1) as usize
}

/// `vec3`, or `vec3[4]` for an array.
pub fn type_name(ty: Type, array_len: Option<u16>) -> String {
    match array_len {
        Some(n) => format!("{ty}[{n}]"),
        None => ty.to_string(),
    }
}

/// Store `values` (exactly [`float_count`] floats) of `ty[array_len]` into `slots`
/// from slot `base`, growing `slots` with zeros as needed; unused lanes of each slot
/// are left as they were.
pub fn write_slots(
    ty: Type,
    array_len: Option<u16>,
    values: &[f32],
    slots: &mut Vec<[f32; 4]>,
    base: usize,
) {
    let rows = ty.width().min(4) as usize;
    for (k, slot) in slot_range(ty, array_len, base).enumerate() {
        if slots.len() <= slot {
            slots.resize(slot + 1, [0.0; 4]);
        }
        let column = values.get(k * rows..(k + 1) * rows).unwrap_or(&[]);
        slots[slot][..column.len()].copy_from_slice(column);
    }
}

/// The vec4 slots a value of `ty[array_len]` at `base` occupies.
fn slot_range(ty: Type, array_len: Option<u16>, base: usize) -> std::ops::Range<usize> {
    let count = ty.columns() as usize * array_len.unwrap_or(1) as usize;
    base..base + count
}

/// Flat floats (4 per slot, the rasterizer's varying layout) as vec4 slots; a short
/// last slot is padded with zeros.
pub fn slots_of(flat: &[f32]) -> Vec<[f32; 4]> {
    flat.chunks(4)
        .map(|c| std::array::from_fn(|i| c.get(i).copied().unwrap_or(0.0)))
        .collect()
}

/// `(a, b, c)` with each float in Rust's shortest round-trip form, so the text shows
/// exactly the bits that were computed.
pub fn format_floats(values: &[f32]) -> String {
    let parts: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    format!("({})", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrices_take_one_slot_per_column() {
        let mut slots = Vec::new();
        let m3: Vec<f32> = (1..=9).map(|v| v as f32).collect();
        write_slots(Type::Mat3, None, &m3, &mut slots, 1);
        assert_eq!(
            slots,
            vec![
                [0.0; 4],
                [1.0, 2.0, 3.0, 0.0],
                [4.0, 5.0, 6.0, 0.0],
                [7.0, 8.0, 9.0, 0.0]
            ]
        );
        let back = NamedValue::from_slots("uN", Type::Mat3, None, &slots, 1);
        assert_eq!(back.values, m3);
        assert_eq!(back.ty, "mat3");
    }

    #[test]
    fn arrays_and_short_slot_lists() {
        let v = NamedValue::from_slots("uL", Type::Vec2, Some(3), &[[1.0, 2.0, 9.0, 9.0]], 0);
        assert_eq!(v.values, vec![1.0, 2.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(v.ty, "vec2[3]");
        assert_eq!(float_count(Type::Vec2, Some(3)), 6);
        assert_eq!(format_floats(&[0.1, -0.0, 1.0]), "(0.1, -0, 1)");
    }
}
