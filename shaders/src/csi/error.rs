//! What can go wrong saving or loading CSI.
//!
//! A load error always names the byte offset of the field it concerns (or, for a
//! missing field, where it should have started), so a bad blob can be inspected with
//! a hex dump. A save error names the part of the [`Shader`](crate::ir::Shader) that
//! CSI cannot store or that would not load back.

use crate::ir::{Stage, Type, VerifyError};
use thiserror::Error;

/// A rejected CSI blob: what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid CSI blob at byte {offset}: {kind}")]
pub struct CsiError {
    /// Byte offset of the offending field from the start of the blob.
    pub offset: usize,
    /// What is wrong.
    pub kind: CsiErrorKind,
}

impl CsiError {
    pub(crate) fn new(offset: usize, kind: CsiErrorKind) -> CsiError {
        CsiError { offset, kind }
    }
}

/// The reasons a blob is rejected, in the order the loaders check them (see the
/// [module docs](super)).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CsiErrorKind {
    /// The caller's own limits fail [`Limits::validate`](crate::ir::Limits::validate).
    #[error("the loader's limits are invalid ({0})")]
    LoaderLimits(&'static str),
    /// The blob ends inside a field.
    #[error("truncated: {what} needs {need} bytes, {have} left")]
    Truncated {
        /// The field being read (`"header"`, `"IR record 3"`, ...).
        what: &'static str,
        /// Bytes the field needs.
        need: usize,
        /// Bytes left in the blob at that offset.
        have: usize,
    },
    /// Word 0 is not `0x52495343` ("CSIR").
    #[error("bad magic {found:#010x} (expected 0x52495343, \"CSIR\")")]
    Magic {
        /// Word 0 as read (little-endian).
        found: u32,
    },
    /// Word 1 is neither 1 nor 2.
    #[error("unsupported version {found} (this loader reads versions 1 and 2)")]
    Version {
        /// Word 1 as read.
        found: u32,
    },
    /// The stage code is not 0 (vertex) or 1 (fragment).
    #[error("invalid shader stage {code}")]
    Stage {
        /// The stored stage code.
        code: u32,
    },
    /// A count or stored limit is above what the loader accepts.
    #[error("{what} is {value}, above the loader's limit {max}")]
    Count {
        /// The count or limit (`"instruction count"`, `"limits.temporaries"`, ...).
        what: &'static str,
        /// Its stored value.
        value: u64,
        /// The most the loader's limits accept.
        max: u64,
    },
    /// The blob's length is not the one its header describes.
    #[error("the blob is {actual} bytes but its header describes {expected}")]
    Length {
        /// Bytes the header's counts add up to.
        expected: u64,
        /// Bytes given.
        actual: u64,
    },
    /// The stored checksum does not match the bytes.
    #[error("checksum mismatch: stored {stored:#010x}, computed {computed:#010x}")]
    Checksum {
        /// The CRC-32 stored in the blob.
        stored: u32,
        /// The CRC-32 of the bytes it covers, as computed on load.
        computed: u32,
    },
    /// The stored limits fail [`Limits::validate`](crate::ir::Limits::validate).
    #[error("the stored limits are invalid ({0})")]
    Limits(&'static str),
    /// The shader is an extended-profile one (v2 flag bit 3) and the loader accepts
    /// the seed profile only.
    #[error("the shader needs the extended profile; the loader accepts the seed profile only")]
    Profile,
    /// A name's length is outside its bounds.
    #[error("{what} is {len} bytes; CSI allows {min}..={max}")]
    NameLength {
        /// Which name (`"shader name"`, `"symbol 2's name"`, ...).
        what: &'static str,
        /// Its stored length in bytes.
        len: usize,
        /// The shortest allowed, in bytes.
        min: usize,
        /// The longest allowed, in bytes.
        max: usize,
    },
    /// A name is not valid UTF-8.
    #[error("{what} is not valid UTF-8")]
    NameUtf8 {
        /// Which name.
        what: &'static str,
    },
    /// An enum or flag field holds a value with no meaning.
    #[error("invalid {what} {value}")]
    Code {
        /// The field (`"symbol kind"`, `"type"`, `"flags"`, ...).
        what: &'static str,
        /// The stored value.
        value: u32,
    },
    /// Bytes remain after the last field.
    #[error("{0} unexpected bytes after the metadata")]
    Trailing(usize),
    /// The interface metadata is inconsistent with itself or the stage.
    #[error("{0}")]
    Interface(#[from] InterfaceRule),
    /// The IR fails the verifier (offset: the record, or the end of the IR).
    #[error("{0}")]
    Verify(#[from] VerifyError),
}

/// Why a [`Shader`](crate::ir::Shader) cannot be stored.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SaveError {
    /// A geometry shader: CSI has no place for its layout (input and output
    /// primitive, `max_vertices`) yet, so a loader could not run it.
    #[error("CSI cannot store a geometry shader yet (its layout has no place in the format)")]
    Geometry,
    /// Only verified shaders are stored (the loader would reject anything else).
    #[error("the shader does not verify: {0}")]
    Verify(#[from] VerifyError),
    /// The interface metadata would be rejected by the loader.
    #[error("the shader's interface cannot be stored: {0}")]
    Interface(#[from] InterfaceRule),
    /// A name is too long (or a symbol name empty) for CSI v2.
    #[error("{what} is {len} bytes; CSI allows {min}..={max}")]
    NameLength {
        /// Which name (`"shader name"`, `"symbol 2's name"`, ...).
        what: &'static str,
        /// Its length in bytes.
        len: usize,
        /// The shortest allowed, in bytes.
        min: usize,
        /// The longest allowed, in bytes.
        max: usize,
    },
    /// CSI v1 is the seed's format: it cannot hold an instruction of the extended
    /// profile (`index` is the first such record).
    #[error(
        "CSI v1 is the seed's format and cannot hold instruction {index} ({mnemonic}), \
         which needs the extended profile; save as CSI v2"
    )]
    V1Extended {
        /// The record's index.
        index: usize,
        /// Its dump mnemonic.
        mnemonic: &'static str,
    },
    /// CSI v1 is the seed's format, read as the seed profile: an extended-profile
    /// shader cannot hold an instruction whose meaning the extended profile changes
    /// (`OpInfo::by_profile` in `ir/op.rs`; `index` is the first such record).
    #[error(
        "CSI v1 is the seed's format and cannot hold instruction {index} ({mnemonic}) of \
         an extended-profile shader: a v1 loader would give it the seed profile's meaning \
         (NaN operands: docs/csir.md \"MIN and MAX\"); save as CSI v2"
    )]
    V1ProfileMeaning {
        /// The record's index.
        index: usize,
        /// Its dump mnemonic.
        mnemonic: &'static str,
    },
    /// CSI v1 stores no interface, so no interpolation qualifier (GLSL 1.30 §4.3.6):
    /// a shader with a `flat` or `noperspective` varying would load back as a smooth
    /// one.
    #[error(
        "CSI v1 stores no interpolation qualifiers and cannot hold the {qualifier} varying \
         '{name}'; save as CSI v2"
    )]
    V1Interpolation {
        /// The varying's name.
        name: String,
        /// Its qualifier's keyword (`flat`, `noperspective`).
        qualifier: &'static str,
    },
    /// A limit does not fit the format's 32-bit field.
    #[error("limit {field} = {value} does not fit in 32 bits")]
    Limit {
        /// The [`Limits`](crate::ir::Limits) field.
        field: &'static str,
        /// Its value, above `u32::MAX`.
        value: usize,
    },
}

/// A rule of interface metadata that CSI v2 enforces on save and on load, so that the
/// linker and the uniform setter can trust what a loaded shader says about its slots.
/// A compiled shader satisfies all of them. For a shader with limits `L`:
/// - each high-water mark is in `-1..L.<pool>` (attributes, varyings, samplers,
///   uniform slots);
/// - at most `L.attributes + L.varyings + L.uniform_slots + L.samplers + 1` symbols,
///   names unique, and none at all when `named` is false;
/// - no array of zero elements;
/// - uniforms have a value type and occupy `slot .. slot + columns·len ≤ uni_hi + 1`;
///   samplers are `sampler2D` at `slot .. slot + len ≤ samp_hi + 1`;
/// - attributes (vertex only) at `location .. location + len ≤ attr_hi + 1`; varying
///   inputs (fragment only) and outputs (vertex only) at `slot .. slot + len ≤
///   var_hi + 1`; all with a value type (not void, none or sampler2D);
/// - at most one colour output, fragment only, with a value type.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum InterfaceRule {
    /// A high-water mark is outside `-1..limit`.
    #[error("{mark} is {value}, outside -1..{limit}")]
    Mark {
        /// The mark (`"attr_hi"`, `"var_hi"`, `"samp_hi"`, `"uni_hi"`).
        mark: &'static str,
        /// Its value.
        value: i16,
        /// The pool's size in the shader's limits (the mark must be below it).
        limit: usize,
    },
    /// More symbols than the limits leave room for.
    #[error("{count} interface symbols, more than the {max} the limits allow")]
    TooManySymbols {
        /// Symbols listed.
        count: usize,
        /// `L.attributes + L.varyings + L.uniform_slots + L.samplers + 1`.
        max: usize,
    },
    /// `named` is false but symbols are listed.
    #[error("a shader without a named interface lists symbols")]
    SymbolsWithoutNames,
    /// Two symbols share a name.
    #[error("duplicate interface symbol '{0}'")]
    DuplicateName(String),
    /// `array_len` is `Some(0)`.
    #[error("'{0}' is an array of zero elements")]
    EmptyArray(String),
    /// A symbol kind cannot have this type.
    #[error("{kind} '{name}' cannot have type {ty}")]
    Type {
        /// The symbol kind (`"uniform"`, `"sampler"`, `"attribute"`, ...).
        kind: &'static str,
        /// The symbol's name.
        name: String,
        /// The type it was given.
        ty: Type,
    },
    /// A symbol kind does not exist in this stage.
    #[error("{kind} '{name}' in a {stage} shader")]
    Stage {
        /// The symbol kind (`"attribute"`, `"varying input"`, `"colour output"`, ...).
        kind: &'static str,
        /// The symbol's name.
        name: String,
        /// The shader's stage.
        stage: Stage,
    },
    /// A symbol's slots go past the stage's high-water mark.
    #[error("{kind} '{name}' occupies slots {first}..{end}, past {mark} {hi}")]
    Slot {
        /// The symbol kind.
        kind: &'static str,
        /// The symbol's name.
        name: String,
        /// Its first slot (or location).
        first: u32,
        /// One past its last slot.
        end: u32,
        /// The high-water mark it must stay within (`"var_hi"`, ...).
        mark: &'static str,
        /// That mark's value: slots must end at or before `hi + 1`.
        hi: i16,
    },
    /// A second fragment colour output at one location.
    #[error("second colour output '{0}' at one location (one per draw buffer)")]
    SecondColorOutput(String),
    /// An interpolation qualifier on a symbol that is not a varying (GLSL 1.30
    /// §4.3.6 qualifies shader inputs and outputs between the stages only).
    #[error("{kind} '{name}' cannot have an interpolation qualifier")]
    Interpolation {
        /// The symbol kind.
        kind: &'static str,
        /// The symbol's name.
        name: String,
    },
    /// A uniform initializer that names no uniform, comes out of symbol order, or
    /// holds the wrong number of floats.
    #[error("uniform initializer for '{name}': {reason}")]
    Initializer {
        /// The name the initializer gives.
        name: String,
        /// What is wrong with it, in words.
        reason: String,
    },
}
