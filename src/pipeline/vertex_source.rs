//! Where each vertex shader input's value comes from for one vertex of one instance:
//! a vertex array (per vertex, or per instance through its divisor, GL 3.3 core
//! §2.8.2), or a value the renderer computes, `gl_VertexID` (GLSL 1.30 §7.1: the
//! vertex's index, for an indexed draw the element value) or `gl_InstanceID` (GLSL
//! 1.40 §7.1: the instance number).

use crate::scene::Attribute;
use csir::exec::DEFAULT_ATTRIBUTE;

/// The source of one attribute location's values.
#[derive(Clone, Copy, Debug)]
pub enum VertexSource<'a> {
    /// The draw's array at that location (`None`: none, the input reads
    /// (0, 0, 0, 1)), and whether its integers are turned into float values (an
    /// integer array under the seed profile, whose `int` lanes are floats).
    Array(Option<&'a Attribute>, bool),
    /// `gl_VertexID`; `true`: as a 32-bit pattern (extended profile), else a float.
    VertexId(bool),
    /// `gl_InstanceID`, likewise.
    InstanceId(bool),
}

impl<'a> VertexSource<'a> {
    /// The source of the linked attribute `name` at a location where the draw gives
    /// `array`, under a profile with 32-bit integer lanes (`extended`) or without.
    pub fn of(name: &str, array: Option<&'a Attribute>, extended: bool) -> Self {
        match name {
            "gl_VertexID" => VertexSource::VertexId(extended),
            "gl_InstanceID" => VertexSource::InstanceId(extended),
            _ => VertexSource::Array(array, !extended && array.is_some_and(|a| a.ty.is_integer())),
        }
    }

    /// No array: (0, 0, 0, 1).
    pub const NONE: VertexSource<'static> = VertexSource::Array(None, false);

    /// The value vertex `index` of instance `instance` reads, 4 lanes.
    #[inline]
    pub fn fetch(self, index: u32, instance: u32) -> [f32; 4] {
        let id = |value: u32, pattern: bool| {
            let lane = if pattern {
                f32::from_bits(value)
            } else {
                value as i32 as f32
            };
            [lane, 0.0, 0.0, 0.0]
        };
        match self {
            VertexSource::Array(None, _) => DEFAULT_ATTRIBUTE,
            VertexSource::Array(Some(a), false) => a.fetch_instanced(index, instance),
            VertexSource::Array(Some(a), true) => {
                let signed = a.ty == crate::scene::AttributeType::Int;
                a.fetch_instanced(index, instance).map(|c| {
                    let bits = c.to_bits();
                    if signed {
                        bits as i32 as f32
                    } else {
                        bits as f32
                    }
                })
            }
            VertexSource::VertexId(pattern) => id(index, pattern),
            VertexSource::InstanceId(pattern) => id(instance, pattern),
        }
    }
}

/// The field and message when an integer array of `draw` feeds a float input of the
/// linked `program`. Nothing else is checked: GL leaves a
/// type mismatch undefined (GL 3.3 core §2.8), and a float array read by an integer
/// input keeps the behaviour scenes had before integer arrays existed. An integer
/// array read as floats would show its bit patterns, so it is refused by name.
pub fn attribute_type_error(
    program: &csir::Program,
    draw: &crate::scene::Draw,
) -> Option<(String, String)> {
    program.attributes.iter().find_map(|rec| {
        let i = draw
            .attributes
            .iter()
            .position(|a| a.location == u32::from(rec.location))?;
        let a = &draw.attributes[i];
        (a.ty.is_integer() && !rec.ty.is_integer()).then(|| {
            (
                format!("{}.attributes[{i}].type", draw.field()),
                format!(
                    "an {} array feeds the float input '{}' (location {}): integer arrays \
                     (glVertexAttribIPointer) are for int, ivecN, uint and uvecN inputs",
                    a.ty.name(),
                    rec.name,
                    rec.location
                ),
            )
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::AttributeType;

    #[test]
    fn ids_are_patterns_in_the_extended_profile_and_floats_in_the_seeds() {
        let bits = |v: [f32; 4]| v.map(f32::to_bits);
        assert_eq!(bits(VertexSource::VertexId(true).fetch(7, 3)), [7, 0, 0, 0]);
        assert_eq!(
            VertexSource::InstanceId(false).fetch(7, 3),
            [3.0, 0.0, 0.0, 0.0]
        );
        assert_eq!(VertexSource::NONE.fetch(1, 1), [0.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn seed_profile_integer_arrays_read_float_values() {
        let a = Attribute {
            location: 0,
            size: 1,
            data: vec![f32::from_bits(-5i32 as u32), f32::from_bits(9)],
            ty: AttributeType::Int,
            divisor: 2,
        };
        // instance 2 reads element 1; the widened w is the integer 1 → 1.0
        assert_eq!(
            VertexSource::of("k", Some(&a), false).fetch(0, 2),
            [9.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(
            VertexSource::of("k", Some(&a), false).fetch(5, 1),
            [-5.0, 0.0, 0.0, 1.0]
        );
        let bits = VertexSource::of("k", Some(&a), true)
            .fetch(0, 0)
            .map(f32::to_bits);
        assert_eq!(bits, [-5i32 as u32, 0, 0, 1]);
    }
}
