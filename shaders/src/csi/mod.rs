//! CSI: binary persistence of compiled shaders (docs/csir.md "CSI binary format" to
//! "Security and robustness boundary"; docs/csir-original.md A1, B §6, B §10.12).
//!
//! Two versions share a 32-byte header of eight little-endian `u32` words
//! (magic `0x52495343` "CSIR", version, stage, nir, nimm, ntmp, checksum, word 7):
//!
//! - **v1** ([`save_csi_v1`], [`v1`]) is the seed's format, byte for byte: header,
//!   `nir` raw 16-byte records, `nimm` floats. Its checksum is an additive byte sum
//!   over the records only, so a changed immediate goes unnoticed, and it stores no
//!   interface metadata.
//! - **v2** ([`save_csi`], [`v2`]) stores the whole [`Shader`] — name, stage, limits,
//!   IR, immediates, temporary count, interface symbols with names, types, array
//!   lengths and slots, the high-water marks, `writes_position` and `named` — in a
//!   canonical field-by-field encoding with a CRC-32 over every byte but the checksum
//!   itself, so any single-byte change is rejected. `load_csi(&save_csi(s)?, ..)`
//!   equals `s`, and links and runs exactly like it.
//!
//! [`load_csi`] reads either version.
//!
//! # The v1 metadata gap: reconstructed, and marked unnamed
//!
//! v1 cannot carry names, types or slots of the interface. The original left the
//! high-water marks at 0, so loaded shaders using attribute 3 or sampler 1 failed to
//! verify. This loader instead **reconstructs the high-water marks from the IR**
//! (highest LOAD_ATTR, LOAD_VAR/STORE_VAR, SAMPLE and LOAD_UNI slots; `writes_position`
//! from a STORE_POS), so such a shader verifies, runs in the interpreter and emits
//! TGSI by slot. Names and types are unknowable, so its `symbols` are empty and
//! [`Interface::named`](crate::ir::Interface::named) is `false`;
//! [`Program::link`](crate::link::Program::link) rejects it with
//! [`LinkError::NoInterfaceNames`](crate::link::LinkError::NoInterfaceNames) ("CSI v1
//! carries no varying, attribute or uniform names"). Its name is `csi` and its limits
//! are the loader's. Details in [`v1`].
//!
//! # Untrusted input
//!
//! The loaders treat the blob as hostile: every length is checked before use, no
//! allocation is sized by a count whose bytes are not present (and counts are bounded
//! by the limits first), names are bounded UTF-8 ([`MAX_SHADER_NAME`],
//! [`MAX_SYMBOL_NAME`]), enum codes are decoded strictly, the interface metadata must
//! be consistent, and the verifier runs last. The work is linear in the blob's length.
//! No input panics; every failure is a [`CsiError`] naming the problem and its byte
//! offset. A checksum is not a signature: a deliberately crafted blob with a correct
//! CRC is still only as trustworthy as these structural checks.
//!
//! # Limits
//!
//! The caller's [`Limits`] are the largest the caller accepts ([`Limits::SEED`] for
//! seed-sized shaders, [`Limits::LARGE`] for the largest profile the crate ships). They
//! must pass [`Limits::validate`]. v1 counts are checked against them and the loaded
//! shader takes them as its own; v2 stores the shader's limits, and each stored field
//! must be at most the caller's.

mod error;
mod interface;
mod reader;
pub mod v1;
pub mod v2;
mod wire;

#[cfg(test)]
mod tests;

pub use error::{CsiError, CsiErrorKind, InterfaceRule, SaveError};
pub use wire::{HEADER_LEN, MAGIC, RECORD_LEN};

use crate::ir::{Limits, Shader, verify};
use wire::Header;

/// Longest shader name v2 stores, in bytes (the length is one byte).
pub const MAX_SHADER_NAME: usize = 255;
/// Longest interface symbol name v2 stores, in bytes: what its one-byte length holds,
/// as for [`MAX_SHADER_NAME`]. GLSL identifiers may have 255 characters
/// (`lang::lexer::MAX_IDENT_LEN`), and a flattened struct member's name
/// (`lights[2].pos`) joins several, so the compiler refuses an interface name over this
/// length by name instead of producing a shader that cannot be saved.
pub const MAX_SYMBOL_NAME: usize = 255;

/// Encode `shader` as CSI v2 (everything needed to link and run it again).
///
/// Errors: see [`v2::save`].
pub fn save_csi(shader: &Shader) -> Result<Vec<u8>, SaveError> {
    v2::save(shader)
}

/// Encode `shader` as CSI v1, the seed's format (stage, IR, immediates and
/// temporary count only).
///
/// Errors: the shader does not verify.
pub fn save_csi_v1(shader: &Shader) -> Result<Vec<u8>, SaveError> {
    v1::save(shader)
}

/// Decode a CSI v1 or v2 blob into a verified [`Shader`], accepting nothing larger
/// than `limits`.
///
/// Errors: the caller's limits are invalid; otherwise the first check the blob fails,
/// in the order given in [`v1`] and [`v2`], with its byte offset.
pub fn load_csi(bytes: &[u8], limits: &Limits) -> Result<Shader, CsiError> {
    limits
        .validate()
        .map_err(|field| CsiError::new(0, CsiErrorKind::LoaderLimits(field)))?;
    let header = Header::read(bytes)?;
    match header.version {
        1 => v1::load(bytes, &header, limits),
        _ => v2::load(bytes, &header, limits),
    }
}

/// A CSI header as stored, with the checksum recomputed from the bytes: what
/// `csir-render inspect` shows before (and whether or not) the whole blob loads.
///
/// The words are reported as found; only the length, magic and version have been
/// checked ([`read_header`]). Field meanings per version: see the table in the
/// `wire` module docs (v1: docs/csir.md "CSI binary format"; v2: [`v2`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeaderInfo {
    /// 1 or 2.
    pub version: u32,
    /// Stage code as stored (0 vertex, 1 fragment; anything else fails the load).
    pub stage: u32,
    /// Instruction records, as stored (unchecked).
    pub nir: u32,
    /// Immediate floats, as stored (unchecked).
    pub nimm: u32,
    /// Temporaries (vec4 registers), as stored (unchecked).
    pub ntmp: u32,
    /// Word 6: v1, the wrapping byte sum of the records; v2, the CRC-32 of every
    /// other byte.
    pub checksum_stored: u32,
    /// The same checksum computed from the blob; `None` when the blob is too short to
    /// hold the records the header announces (v1), so no sum can be taken.
    pub checksum_computed: Option<u32>,
    /// Word 7: v1, reserved (written 0, not checked); v2, the total blob length.
    pub word7: u32,
}

impl HeaderInfo {
    /// The stored checksum equals the computed one.
    pub fn checksum_ok(&self) -> bool {
        self.checksum_computed == Some(self.checksum_stored)
    }
}

/// Read the 32-byte header of a CSI blob and recompute its checksum, without
/// loading the rest.
///
/// Errors: the blob is shorter than 32 bytes, its magic is not "CSIR" or its
/// version is not 1 or 2 (the same [`CsiError`]s [`load_csi`] gives first).
pub fn read_header(bytes: &[u8]) -> Result<HeaderInfo, CsiError> {
    let header = Header::read(bytes)?;
    let checksum_computed = match header.version {
        1 => usize::try_from(header.nir)
            .ok()
            .and_then(|nir| nir.checked_mul(RECORD_LEN))
            .and_then(|len| bytes.get(HEADER_LEN..HEADER_LEN.checked_add(len)?))
            .map(v1::byte_sum),
        _ => Some(v2::checksum(bytes)),
    };
    Ok(HeaderInfo {
        version: header.version,
        stage: header.stage,
        nir: header.nir,
        nimm: header.nimm,
        ntmp: header.ntmp,
        checksum_stored: header.checksum,
        checksum_computed,
        word7: header.word7,
    })
}

/// `value` as a count, if it is at most `max`.
fn count(offset: usize, what: &'static str, value: u32, max: usize) -> Result<usize, CsiError> {
    match usize::try_from(value) {
        Ok(v) if v <= max => Ok(v),
        _ => Err(CsiError::new(
            offset,
            CsiErrorKind::Count {
                what,
                value: u64::from(value),
                max: max as u64,
            },
        )),
    }
}

/// Run the verifier; a failure points at its record (records start at `ir_start`),
/// or at the end of the records for whole-shader rules.
fn verified(shader: Shader, ir_start: usize) -> Result<Shader, CsiError> {
    match verify(&shader) {
        Ok(_) => Ok(shader),
        Err(e) => {
            let index = e.index.unwrap_or(shader.ir.len());
            Err(CsiError::new(ir_start + RECORD_LEN * index, e.into()))
        }
    }
}
