//! How a draw's vertex arrays feed the vertex shader beyond plain per-vertex floats:
//! the value type of an array (`glVertexAttribPointer` for floats,
//! `glVertexAttribIPointer` for 32-bit integers, GL 3.3 core §2.8) and instanced
//! arrays (`glVertexAttribDivisor`, GL 3.3 core §2.8.2), with the rule that picks the
//! array element a vertex of an instance reads.

/// The value type of a vertex array (`attributes[i].type`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AttributeType {
    /// `float` (the default): `glVertexAttribPointer(…, GL_FLOAT, …)`; the values are
    /// floats, and a shader input wider than the array gets (0, 0, 0, 1) floats.
    #[default]
    Float,
    /// `int`: `glVertexAttribIPointer(…, GL_INT, …)`; each value an exact 32-bit
    /// signed integer, −2^31..=2^31 − 1, for an `int`/`ivecN` input. The array holds
    /// the `i32` bit patterns in its `f32` carriers (the extended profile's
    /// representation of a 32-bit integer lane, docs/architecture.md "Profiles").
    Int,
    /// `uint`: `glVertexAttribIPointer(…, GL_UNSIGNED_INT, …)`; each value
    /// 0..=2^32 − 1, for a `uint`/`uvecN` input, held as its `u32` bit pattern.
    Uint,
}

impl AttributeType {
    /// Every type with its scene-format name (GLSL's scalar type names).
    pub const NAMES: [(&'static str, AttributeType); 3] = [
        ("float", AttributeType::Float),
        ("int", AttributeType::Int),
        ("uint", AttributeType::Uint),
    ];

    /// The scene format's name of this type.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("float", |(n, _)| n)
    }

    /// Whether the array holds integers (`int` or `uint`).
    pub fn is_integer(self) -> bool {
        self != AttributeType::Float
    }

    /// The range of the JSON integers an array of this type takes (`None` for floats).
    pub fn integer_range(self) -> Option<std::ops::RangeInclusive<i64>> {
        match self {
            AttributeType::Float => None,
            AttributeType::Int => Some(i64::from(i32::MIN)..=i64::from(i32::MAX)),
            AttributeType::Uint => Some(0..=i64::from(u32::MAX)),
        }
    }

    /// The components a shader input wider than the array gets, as this type's lane
    /// values: the floats (0, 0, 0, 1), or for an integer array the integers
    /// (0, 0, 0, 1) as bit patterns (GL 3.3 core §2.8: "the default values for
    /// missing components are 0, 0, 0, 1", in the type the shader reads).
    pub fn default_value(self) -> [f32; 4] {
        match self {
            AttributeType::Float => csir::exec::DEFAULT_ATTRIBUTE,
            _ => csir::exec::DEFAULT_INT_ATTRIBUTE,
        }
    }
}

/// The 32-bit pattern of integer `value` in the `f32` carrier a vertex array holds
/// (the caller checked it is in [`AttributeType::integer_range`]).
pub fn integer_carrier(value: i64) -> f32 {
    f32::from_bits(value as u32)
}

/// The element of an array with `divisor` that vertex `vertex` of instance `instance`
/// reads (GL 3.3 core §2.8.2): `vertex` for a per-vertex array (divisor 0), else
/// `instance / divisor`, the same element for `divisor` consecutive instances.
pub fn attribute_element(divisor: u32, vertex: u32, instance: u32) -> u32 {
    match divisor {
        0 => vertex,
        d => instance / d,
    }
}

/// How many elements an array with `divisor > 0` needs for `instances` instances:
/// ⌈instances / divisor⌉.
pub fn instanced_elements(divisor: u32, instances: u32) -> u32 {
    instances.div_ceil(divisor.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisors_step_the_element_every_divisor_instances() {
        // divisor 0: the vertex; divisor 3: instances 0..=2 read 0, 3..=5 read 1
        assert_eq!(attribute_element(0, 7, 5), 7);
        let read: Vec<u32> = (0..7).map(|i| attribute_element(3, 9, i)).collect();
        assert_eq!(read, [0, 0, 0, 1, 1, 1, 2]);
        assert_eq!(instanced_elements(3, 7), 3);
        assert_eq!(instanced_elements(1, 4), 4);
        assert_eq!(instanced_elements(2, 0), 0);
    }

    #[test]
    fn integer_carriers_keep_all_32_bits() {
        assert_eq!(integer_carrier(-1).to_bits(), 0xffff_ffff);
        assert_eq!(integer_carrier(16_777_217).to_bits(), 16_777_217);
        assert_eq!(integer_carrier(4_294_967_295).to_bits(), u32::MAX);
        assert_eq!(
            AttributeType::Uint.default_value().map(f32::to_bits),
            [0, 0, 0, 1]
        );
        for (name, t) in AttributeType::NAMES {
            assert_eq!(t.name(), name);
        }
    }
}
