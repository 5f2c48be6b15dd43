//! Why TGSI could not be emitted.

use crate::ir::VerifyError;
use thiserror::Error;

/// A failure of [`emit_tgsi`](super::emit_tgsi) or [`parity_dump`](super::parity_dump).
/// The emitter never returns partial text (docs/csir-original.md A5: "No silent
/// truncation").
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TgsiError {
    /// The shader does not pass the verifier, which every back end relies on.
    #[error("shader is not valid CSIR: {0}")]
    Invalid(#[from] VerifyError),
    /// A geometry shader: the emitter writes VERT and FRAG programs only so far.
    #[error("the TGSI emitter does not support the geometry stage (GEOM) yet")]
    GeometryStage,
    /// A `var_remap` entry is neither −1 nor a varying slot.
    #[error("var_remap maps fragment varying slot {slot} to {target}, not a slot in 0..{varyings}")]
    Remap {
        /// Fragment-local slot (index into the remap table).
        slot: usize,
        /// The entry found there.
        target: i16,
        /// The shader's varying slot count.
        varyings: usize,
    },
    /// The text, with the NUL terminator virgl requires, does not fit the byte budget
    /// (the original's message, B §5 "Budget").
    #[error(
        "TGSI exceeds the VirGL command budget: {len} bytes of text and a NUL do not fit in {budget}"
    )]
    Budget {
        /// Length of the complete text in bytes (without the NUL).
        len: usize,
        /// The budget in bytes (NUL included).
        budget: usize,
    },
    /// A fragment shader with both a colour output at `layout(location = 1)` and the
    /// second source colour (`layout(location = 0, index = 1)`): both would be
    /// TGSI's `COLOR[1]`, which the host reads as the second source colour.
    #[error(
        "the fragment shader writes both location 1 and the second source colour \
         (location 0, index 1), which TGSI declares alike (COLOR[1])"
    )]
    ColorOutputs,
    /// A TEX lookup TGSI cannot be given: `textureGrad` on a 3D or cube sampler
    /// (TXD reads three gradient components per direction; CSIR's TEX packs two). The
    /// shader is refused, naming the sampler.
    #[error(
        "sampler '{name}' is a {ty}: textureGrad on a 3D or cube sampler is not emitted as \
         TGSI (TXD reads three gradient components per direction, CSIR's TEX carries two)"
    )]
    TextureTarget {
        /// The sampler uniform's name.
        name: String,
        /// Its GLSL type.
        ty: String,
    },
}
