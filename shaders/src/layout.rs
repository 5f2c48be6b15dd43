//! The interface layout, in one place: how a uniform key (`NAME` or `NAME[INDEX]`) is
//! read, how a typed value occupies vec4 slots, how many floats it takes and how its
//! type is written. Linking ([`Program::set_uniform`](crate::Program::set_uniform)),
//! a stage on its own ([`Interface::set_uniform`]), scene loading and the debug
//! tools' `run`/`trace` binding all call these functions.
//!
//! A value of type `ty` takes `ty.columns()` consecutive vec4 slots per element (3 for
//! mat3, 4 for mat4, else 1) and lanes `0..ty.width()` of each, column-major; array
//! elements follow one another; the other lanes of its slots are zero. This is the
//! layout the compiler gives uniforms, varyings and outputs (`docs/architecture.md`,
//! "The interface layout").

use crate::ir::{Interface, InterfaceSymbol, MAX_EXACT_INT, SymbolKind, Type};
use thiserror::Error;

/// Why a uniform value could not be set.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum UniformError {
    /// No stage declares the name (or the key is not `NAME` or `NAME[INDEX]`).
    #[error("the program does not declare uniform '{0}'")]
    Unknown(String),
    /// The name is a sampler; samplers are bound to textures, not given values.
    #[error("'{0}' is a sampler: bind a texture to it instead of giving values")]
    Sampler(String),
    /// `name[i]` with `i` out of range or on a non-array.
    #[error("'{name}' has no element {index}")]
    Index {
        /// The uniform's name.
        name: String,
        /// The element asked for.
        index: usize,
    },
    /// Wrong number of floats.
    #[error("'{name}' is {ty} and takes {expected} floats, got {got}")]
    Count {
        /// The key as given.
        name: String,
        /// The type of what the key names (`vec3`, or `vec3[4]` for a whole array).
        ty: String,
        /// Floats it takes.
        expected: usize,
        /// Floats given.
        got: usize,
    },
    /// An int or ivecN value CSIR's float registers cannot hold exactly.
    #[error(
        "'{name}' is {ty}: {value} is outside -16777215..=16777215 (2^24 - 1): CSIR keeps \
         integers in float registers, exact only within that range"
    )]
    IntegerRange {
        /// The key as given.
        name: String,
        /// The uniform's type.
        ty: String,
        /// The value given (truncated toward zero; a NaN or infinity reads as 0 or as the
        /// nearest i64).
        value: i64,
    },
    /// An integer value outside what a 32-bit int or uint holds.
    #[error("'{name}' is {ty}: {value} is outside -2147483648..=4294967295 (a 32-bit int or uint)")]
    Integer32Range {
        /// The key as given.
        name: String,
        /// The uniform's type.
        ty: String,
        /// The value given.
        value: i64,
    },
}

/// A uniform key: `NAME` (the whole uniform) or `NAME[INDEX]` (one array element),
/// INDEX decimal digits that fit a `u32`. NAME is a GLSL identifier, or for a member
/// of a struct uniform OpenGL's name for it: identifiers joined by `.`, each but the
/// last possibly indexed (`light.color`, `lights[2].pos`, `s[0].v` whose element 1
/// is the key `s[0].v[1]`; `docs/scene-format.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UniformKey<'k> {
    /// The uniform's name (the interface symbol's).
    pub name: &'k str,
    /// The element, for `NAME[INDEX]`.
    pub element: Option<usize>,
}

impl<'k> UniformKey<'k> {
    /// Parse `key`; `None` when it is not `NAME` or `NAME[INDEX]`.
    pub fn parse(key: &'k str) -> Option<UniformKey<'k>> {
        let (name, element) = match key.strip_suffix(']') {
            None => (key, None),
            Some(rest) => {
                let (name, digits) = rest.rsplit_once('[')?;
                (name, Some(index(digits)?))
            }
        };
        let segments_ok = name.split('.').enumerate().all(|(k, seg)| {
            let last = k == name.split('.').count() - 1;
            match seg.split_once('[') {
                Some((id, rest)) if !last => {
                    is_identifier(id) && rest.strip_suffix(']').and_then(index).is_some()
                }
                Some(_) => false,
                None => is_identifier(seg),
            }
        });
        segments_ok.then_some(UniformKey { name, element })
    }
}

/// Decimal digits that fit a `u32`.
fn index(digits: &str) -> Option<usize> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.parse::<u32>().ok()? as usize)
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// How a value of `ty` (an array of `array_len` elements, or one value) lies in vec4
/// slots (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Element type.
    pub ty: Type,
    /// `Some(n)` for an array of `n` elements.
    pub array_len: Option<u16>,
}

impl Layout {
    /// The layout of `ty[array_len]`.
    pub const fn new(ty: Type, array_len: Option<u16>) -> Layout {
        Layout { ty, array_len }
    }

    /// The layout of a declared symbol.
    pub fn of(symbol: &InterfaceSymbol) -> Layout {
        Layout::new(symbol.ty, symbol.array_len)
    }

    /// The layout of one element.
    pub const fn element(self) -> Layout {
        Layout::new(self.ty, None)
    }

    /// How many elements (1 for a value that is not an array).
    pub fn elements(self) -> usize {
        self.array_len.unwrap_or(1) as usize
    }

    /// Floats it takes: float 1, vecN N, mat3 9, mat4 16, times the elements.
    pub fn float_count(self) -> usize {
        self.ty.float_count() * self.elements()
    }

    /// Vec4 slots it occupies: the columns of each element, times the elements.
    pub fn slot_count(self) -> usize {
        self.ty.columns() as usize * self.elements()
    }

    /// The type as written in source: `vec3`, or `vec3[4]` for an array.
    pub fn type_name(self) -> String {
        match self.array_len {
            Some(n) => format!("{}[{n}]", self.ty),
            None => self.ty.to_string(),
        }
    }

    /// Lanes used of each slot (the type's width, at most 4).
    fn rows(self) -> usize {
        (self.ty.width() as usize).min(4)
    }

    /// Store `values` (at most [`Layout::float_count`] floats, column after column)
    /// into `slots` from slot `base`: lanes `0..width` of each slot get the values, the
    /// other lanes zero. Slots past the end of `slots` are skipped.
    pub fn write(self, values: &[f32], slots: &mut [[f32; 4]], base: usize) {
        let rows = self.rows();
        for k in 0..self.slot_count() {
            let Some(slot) = slots.get_mut(base + k) else {
                continue;
            };
            *slot = [0.0; 4];
            let column = values.get(k * rows..(k + 1) * rows).unwrap_or(&[]);
            slot[..column.len()].copy_from_slice(column);
        }
    }

    /// The floats stored from slot `base` of `slots`, column after column (slots past
    /// the end read as zeros).
    pub fn read(self, slots: &[[f32; 4]], base: usize) -> Vec<f32> {
        let rows = self.rows();
        let mut values = Vec::with_capacity(self.float_count());
        for k in 0..self.slot_count() {
            let lanes = slots.get(base + k).copied().unwrap_or([0.0; 4]);
            values.extend_from_slice(&lanes[..rows]);
        }
        values
    }
}

/// How the values given for an `int`/`ivecN`/`uint`/`uvecN` uniform become the
/// lanes a shader reads (`docs/architecture.md`, "Profiles").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntLanes {
    /// Seed profile: integers are float values; a value is truncated toward zero and
    /// must be within ±(2^24 − 1).
    Values,
    /// Extended profile, values given as floats: truncated toward zero and stored as
    /// the 32-bit pattern of that integer (so exact within ±(2^24 − 1), the floats
    /// that are integers; a larger magnitude is [`UniformError::IntegerRange`]).
    Patterns,
    /// The lanes exactly as given: initializers, which the compiler already wrote in
    /// the shader's representation, and [`uniform_lanes_from_ints`]'s result.
    AsStored,
}

/// The lanes for integer values `ints` given to a uniform of type `ty`
/// (`glUniform*i`/`glUniform*ui`, scene JSON integers): for `int`/`uint` types the
/// 32-bit pattern under the extended profile (`patterns`; each value within
/// −2^31..=2^32 − 1) or the float value under the seed's (within ±(2^24 − 1)); for
/// float types the nearest float; for `bool` 1.0 when nonzero. Store the result with
/// [`IntLanes::AsStored`]. Errors name the first value out of range. The one
/// integer-to-lane conversion: scene loading,
/// [`Program::set_uniform_ints`](crate::Program::set_uniform_ints), shader_test and the
/// `run` command's integer uniforms, attributes and varyings all use it.
pub fn uniform_lanes_from_ints(
    key: &str,
    ty: Type,
    ints: &[i64],
    patterns: bool,
) -> Result<Vec<f32>, UniformError> {
    let range = |value: i64| UniformError::IntegerRange {
        name: key.to_string(),
        ty: ty.to_string(),
        value,
    };
    let range32 = |value: i64| UniformError::Integer32Range {
        name: key.to_string(),
        ty: ty.to_string(),
        value,
    };
    ints.iter()
        .map(|&v| {
            if ty.is_integer() {
                if patterns {
                    if !(i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&v) {
                        return Err(range32(v));
                    }
                    Ok(f32::from_bits(v as u32))
                } else if v.unsigned_abs() > MAX_EXACT_INT as u64 {
                    Err(range(v))
                } else {
                    Ok(v as f32)
                }
            } else if ty == Type::Bool {
                Ok(if v != 0 { 1.0 } else { 0.0 })
            } else {
                Ok(v as f32)
            }
        })
        .collect()
}

/// A value for a uniform key, checked against the uniform's declaration and converted
/// as GL converts it, ready to store in each stage that declares the uniform.
#[derive(Clone, Debug, PartialEq)]
pub struct UniformWrite {
    /// What the key names: the whole uniform, or one element.
    layout: Layout,
    /// The slot, relative to the uniform's first, where it starts.
    offset: usize,
    /// The converted floats.
    values: Vec<f32>,
}

impl UniformWrite {
    /// `values` for `key`, a key of the uniform declared as `declared`, as
    /// `glUniform*fv`/`glUniformMatrix*fv(transpose = false)` take them: per element,
    /// 1 float for float/int/bool, N for vecN/ivecN, 9 for mat3 and 16 for mat4,
    /// column-major. int and ivecN values are truncated toward zero, bool values
    /// become 1.0 when nonzero.
    ///
    /// Errors: an element of a non-array or past the end ([`UniformError::Index`]),
    /// the wrong number of floats ([`UniformError::Count`], naming `key`), an int
    /// value of magnitude above [`MAX_EXACT_INT`] ([`UniformError::IntegerRange`]:
    /// rounded, it would be a silently wrong number).
    pub fn new(
        key: &str,
        parsed: UniformKey<'_>,
        declared: Layout,
        values: &[f32],
    ) -> Result<UniformWrite, UniformError> {
        UniformWrite::with_ints(key, parsed, declared, values, IntLanes::Values)
    }

    /// [`UniformWrite::new`] with integer values turned into lanes as `ints` says.
    pub fn with_ints(
        key: &str,
        parsed: UniformKey<'_>,
        declared: Layout,
        values: &[f32],
        ints: IntLanes,
    ) -> Result<UniformWrite, UniformError> {
        let (layout, first) = match parsed.element {
            None => (declared, 0),
            Some(i) if declared.array_len.is_some() && i < declared.elements() => {
                (declared.element(), i)
            }
            Some(index) => {
                return Err(UniformError::Index {
                    name: parsed.name.to_string(),
                    index,
                });
            }
        };
        if values.len() != layout.float_count() {
            return Err(UniformError::Count {
                name: key.to_string(),
                ty: layout.type_name(),
                expected: layout.float_count(),
                got: values.len(),
            });
        }
        if declared.ty.is_integer()
            && ints != IntLanes::AsStored
            && let Some(&v) = values
                .iter()
                .find(|v| v.is_nan() || v.trunc().abs() > MAX_EXACT_INT)
        {
            return Err(UniformError::IntegerRange {
                name: key.to_string(),
                ty: declared.ty.to_string(),
                value: v.trunc() as i64,
            });
        }
        Ok(UniformWrite {
            layout,
            offset: first * declared.ty.columns() as usize,
            values: values
                .iter()
                .map(|&v| match ints {
                    IntLanes::AsStored => v,
                    IntLanes::Patterns if declared.ty.is_integer() => {
                        f32::from_bits(v.trunc() as i32 as u32)
                    }
                    _ => convert(declared.ty, v),
                })
                .collect(),
        })
    }

    /// Store it into one stage's uniform `slots`, the uniform starting at vec4 slot
    /// `first_slot` (slots past the end are skipped).
    pub fn store(&self, slots: &mut [[f32; 4]], first_slot: u16) {
        self.layout
            .write(&self.values, slots, first_slot as usize + self.offset);
    }
}

/// GL's conversion of a float given for an int/bool uniform.
fn convert(ty: Type, v: f32) -> f32 {
    if ty.is_integer() {
        v.trunc()
    } else if ty == Type::Bool {
        if v != 0.0 { 1.0 } else { 0.0 }
    } else {
        v
    }
}

impl Interface {
    /// This stage's uniform vec4 slots (`uni_hi + 1` of them) holding every
    /// uniform's value before it is set: its initializer's value
    /// ([`Interface::uniform_initializers`]), else zero, except the compatibility
    /// built-in matrices, which are identity as in GL
    /// ([`builtin_vars::uniform_default`](crate::lang::builtin_vars::uniform_default)).
    pub fn new_uniforms(&self) -> Vec<[f32; 4]> {
        let mut slots = vec![[0.0; 4]; (self.uni_hi + 1).max(0) as usize];
        for symbol in &self.symbols {
            if let SymbolKind::Uniform { .. } = symbol.kind
                && let Some(values) = crate::lang::builtin_vars::uniform_default(&symbol.name)
            {
                // A uniform of that name but another type (possible only in a crafted
                // CSI v2 blob) keeps zero.
                let _ = self.set_uniform(&mut slots, &symbol.name, values);
            }
        }
        for (name, values) in &self.uniform_initializers {
            // Checked when compiled or loaded from CSI v2; already in the shader's
            // representation (integer patterns under the extended profile).
            let _ = self.set_uniform_lanes(&mut slots, name, values, IntLanes::AsStored);
        }
        slots
    }

    /// Set uniform `key` in this stage's `slots` (see
    /// [`Program::set_uniform`](crate::Program::set_uniform), which does the same for
    /// both stages of a program).
    ///
    /// Errors: the key names no uniform of this stage, or is a sampler; the element or
    /// the float count is wrong ([`UniformWrite::new`]).
    pub fn set_uniform(
        &self,
        slots: &mut [[f32; 4]],
        key: &str,
        values: &[f32],
    ) -> Result<(), UniformError> {
        self.set_uniform_lanes(slots, key, values, IntLanes::Values)
    }

    /// [`Interface::set_uniform`] with integer values turned into lanes as `ints`
    /// says.
    pub fn set_uniform_lanes(
        &self,
        slots: &mut [[f32; 4]],
        key: &str,
        values: &[f32],
        ints: IntLanes,
    ) -> Result<(), UniformError> {
        let parsed = UniformKey::parse(key).ok_or_else(|| UniformError::Unknown(key.into()))?;
        let symbol = self
            .find(parsed.name)
            .ok_or_else(|| UniformError::Unknown(parsed.name.into()))?;
        match symbol.kind {
            SymbolKind::Uniform { slot } => {
                UniformWrite::with_ints(key, parsed, Layout::of(symbol), values, ints)?
                    .store(slots, slot);
                Ok(())
            }
            SymbolKind::Sampler { .. } => Err(UniformError::Sampler(parsed.name.into())),
            _ => Err(UniformError::Unknown(parsed.name.into())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Interface, InterfaceSymbol};

    #[test]
    fn keys_are_a_name_and_an_optional_element() {
        let parse = |k| UniformKey::parse(k).map(|k| (k.name, k.element));
        assert_eq!(parse("uMVP"), Some(("uMVP", None)));
        assert_eq!(parse("_l2[12]"), Some(("_l2", Some(12))));
        assert_eq!(parse("uL[4294967295]"), Some(("uL", Some(4_294_967_295))));
        assert_eq!(parse("light.color"), Some(("light.color", None)));
        assert_eq!(parse("lights[2].pos"), Some(("lights[2].pos", None)));
        assert_eq!(parse("s[0].v[1]"), Some(("s[0].v", Some(1))));
        assert_eq!(parse("s.t.f"), Some(("s.t.f", None)));
        for bad in [
            "",
            "2x",
            "u L",
            "uL[]",
            "uL[x]",
            "uL[+1]",
            "uL[1",
            "uL[1]x",
            "uL[4294967296]",
            "[1]",
            "a..b",
            "a.",
            ".a",
            "a[1]b.c",
            "a.2b",
            "a[1][2]",
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn counts_and_names_follow_the_type() {
        let m3 = Layout::new(Type::Mat3, Some(2));
        assert_eq!((m3.float_count(), m3.slot_count()), (18, 6));
        assert_eq!(m3.type_name(), "mat3[2]");
        assert_eq!(m3.element().type_name(), "mat3");
        assert_eq!(Layout::new(Type::Vec2, None).float_count(), 2);
    }

    #[test]
    fn write_zeroes_unused_lanes_and_read_gives_the_values_back() {
        let mut slots = vec![[7.0; 4]; 3];
        let l = Layout::new(Type::Vec3, Some(2));
        l.write(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &mut slots, 1);
        assert_eq!(
            slots,
            [[7.0; 4], [1.0, 2.0, 3.0, 0.0], [4.0, 5.0, 6.0, 0.0]]
        );
        assert_eq!(l.read(&slots, 1), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        // Past the end: skipped when writing, zeros when reading.
        l.write(&[9.0; 6], &mut slots, 2);
        assert_eq!(slots[2], [9.0, 9.0, 9.0, 0.0]);
        assert_eq!(l.read(&slots, 2), [9.0, 9.0, 9.0, 0.0, 0.0, 0.0]);
    }

    fn stage() -> Interface {
        let sym = |name: &str, ty, array_len, kind| InterfaceSymbol {
            name: name.into(),
            ty,
            array_len,
            kind,
            interpolation: None,
        };
        Interface {
            symbols: vec![
                sym("uK", Type::IVec2, Some(3), SymbolKind::Uniform { slot: 1 }),
                sym("uB", Type::Bool, None, SymbolKind::Uniform { slot: 0 }),
                sym("uTex", Type::Sampler2D, None, SymbolKind::sampler_2d(0)),
                sym(
                    "aPos",
                    Type::Vec2,
                    None,
                    SymbolKind::Attribute { location: 0 },
                ),
            ],
            uni_hi: 3,
            ..Interface::default()
        }
    }

    #[test]
    fn one_stage_sets_uniforms_as_gl_converts_them() {
        let stage = stage();
        let mut slots = stage.new_uniforms();
        assert_eq!(slots.len(), 4);
        stage
            .set_uniform(&mut slots, "uK[1]", &[2.7, -3.9])
            .unwrap();
        stage.set_uniform(&mut slots, "uB", &[0.25]).unwrap();
        assert_eq!(slots[2], [2.0, -3.0, 0.0, 0.0]);
        assert_eq!(slots[0], [1.0, 0.0, 0.0, 0.0]);
        stage.set_uniform(&mut slots, "uK", &[1.0; 6]).unwrap();
        assert_eq!(slots[1..], [[1.0, 1.0, 0.0, 0.0]; 3]);
    }

    #[test]
    fn int_values_beyond_the_exact_range_are_refused() {
        let stage = stage();
        let mut slots = stage.new_uniforms();
        stage
            .set_uniform(&mut slots, "uK[0]", &[16_777_215.0, -2.9])
            .unwrap();
        assert_eq!(slots[1], [16_777_215.0, -2.0, 0.0, 0.0]);
        // 2147483647 as given to glUniform1i: its nearest f32 is 2^31
        let err = stage
            .set_uniform(&mut slots, "uK[1]", &[1.0, 2_147_483_647.0])
            .unwrap_err();
        assert_eq!(
            err,
            UniformError::IntegerRange {
                name: "uK[1]".into(),
                ty: "ivec2".into(),
                value: 2_147_483_648,
            }
        );
        assert_eq!(
            err.to_string(),
            "'uK[1]' is ivec2: 2147483648 is outside -16777215..=16777215 (2^24 - 1): CSIR \
             keeps integers in float registers, exact only within that range"
        );
        assert_eq!(slots[2], [0.0; 4], "nothing is stored");
        assert!(matches!(
            stage.set_uniform(&mut slots, "uK[2]", &[f32::NAN, 0.0]),
            Err(UniformError::IntegerRange { .. })
        ));
        // bool and float uniforms take any value
        stage.set_uniform(&mut slots, "uB", &[1e30]).unwrap();
    }

    #[test]
    fn one_stage_refuses_what_a_program_refuses() {
        let stage = stage();
        let mut slots = stage.new_uniforms();
        let mut set = |key: &str, values: &[f32]| stage.set_uniform(&mut slots, key, values);
        assert_eq!(
            set("uTex", &[0.0]),
            Err(UniformError::Sampler("uTex".into()))
        );
        assert_eq!(
            set("aPos", &[0.0]),
            Err(UniformError::Unknown("aPos".into()))
        );
        assert_eq!(
            set("uK[x]", &[0.0]),
            Err(UniformError::Unknown("uK[x]".into()))
        );
        assert_eq!(
            set("uK[3]", &[0.0; 2]),
            Err(UniformError::Index {
                name: "uK".into(),
                index: 3
            })
        );
        assert_eq!(
            set("uB[0]", &[0.0]),
            Err(UniformError::Index {
                name: "uB".into(),
                index: 0
            })
        );
        assert_eq!(
            set("uK", &[0.0; 2]).unwrap_err().to_string(),
            "'uK' is ivec2[3] and takes 6 floats, got 2"
        );
        assert_eq!(
            set("uK[0]", &[0.0; 6]).unwrap_err().to_string(),
            "'uK[0]' is ivec2 and takes 2 floats, got 6"
        );
    }
}
