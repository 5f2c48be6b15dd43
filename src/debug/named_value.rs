//! Values by source name, read from vec4 slots (uniforms, varyings, outputs) with the
//! interface layout of [`csir::layout`], and their text form.

use csir::{Layout, Type};
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
        let layout = Layout::new(ty, array_len);
        NamedValue {
            name: name.to_string(),
            ty: layout.type_name(),
            values: layout.read(slots, base),
        }
    }
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
        let mut slots = vec![[9.0; 4]; 4];
        let m3: Vec<f32> = (1..=9).map(|v| v as f32).collect();
        Layout::new(Type::Mat3, None).write(&m3, &mut slots, 1);
        assert_eq!(
            slots,
            vec![
                [9.0; 4],
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
        assert_eq!(format_floats(&[0.1, -0.0, 1.0]), "(0.1, -0, 1)");
    }
}
