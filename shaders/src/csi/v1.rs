//! CSI v1: the seed's format, byte for byte (docs/csir.md "CSI binary format";
//! docs/csir-original.md B §6, kept by A1).
//!
//! ```text
//! offset 0          32-byte header (see `wire`): magic, version 1, stage, nir, nimm,
//!                   ntmp, checksum, reserved
//! offset 32         nir × 16-byte records, NOPs included
//! offset 32+16·nir  nimm × f32
//! ```
//!
//! All little-endian; the size is exactly `32 + 16·nir + 4·nimm`. The checksum is the
//! wrapping `u32` sum of the record bytes only: the immediates are **not** covered,
//! and neither are the header and the reserved word (which is written as 0 and not
//! checked, as in the original).
//!
//! Loading makes the seed's checks in the seed's order: length ≥ 32, magic, version,
//! stage 0 or 1, `nir`/`nimm`/`ntmp` within the loader's [`Limits`], the exact total
//! length, the checksum, then (after the interface is reconstructed) the verifier.
//!
//! **The metadata gap.** v1 stores no names, no symbols, no high-water marks and no
//! limits. The original left the marks at 0, so a shader reading attribute 3 or
//! sampler 1 failed to verify after loading (docs/csir-original.md B §6, §10.12). Here
//! the marks are reconstructed from the IR, where that is sound:
//! - `attr_hi`: the highest LOAD_ATTR location; `var_hi`: the highest LOAD_VAR /
//!   STORE_VAR slot; `samp_hi`: the highest SAMPLE slot; `uni_hi`: the last slot of
//!   the highest LOAD_UNI span; `writes_position`: a STORE_POS exists. A mark is −1
//!   when nothing uses it. Only live (non-NOP) records count.
//! - `symbols` stays empty and `named` is `false`: names and types are not in the
//!   blob and cannot be guessed, so such a shader verifies, runs and emits TGSI by
//!   slot but [`Program::link`](crate::link::Program::link) refuses it with
//!   [`LinkError::NoInterfaceNames`](crate::link::LinkError::NoInterfaceNames).
//! - The name is `csi` (as in the original) and the limits are the loader's.
//!
//! The reconstructed marks can be lower than the compiled ones where a declaration
//! left no trace in the IR (a sampler never sampled), which changes nothing for
//! execution; they are never higher, because the verifier still bounds every slot by
//! the limits.

use super::error::{CsiError, CsiErrorKind, SaveError};
use super::reader::Reader;
use super::wire::{
    HEADER_LEN, Header, RECORD_LEN, at, patch_u32, read_immediates, read_records, write_immediates,
    write_record,
};
use crate::ir::{
    Aux, Effect, Interface, Interpolation, Ir, Limits, Output, Profile, Shader, verify,
};

/// Name given to every shader loaded from v1 (the original's choice).
pub const V1_NAME: &str = "csi";

/// Encode `shader` as CSI v1. Only the stage, IR, immediates and temporary count are
/// written; everything else is lost (see the module docs).
///
/// Errors: the shader does not verify; it holds an instruction of the extended
/// profile ([`SaveError::V1Extended`]: v1 is the seed's format, and a seed loader
/// could not tell such a blob from a corrupt one); it is an extended-profile shader
/// with MIN or MAX ([`SaveError::V1ProfileMeaning`]: loaded as the seed profile, they
/// would treat a NaN operand the seed's way); it has a `flat` or `noperspective`
/// varying ([`SaveError::V1Interpolation`]: v1 stores no interface, and the varying
/// would come back smooth).
pub fn save(shader: &Shader) -> Result<Vec<u8>, SaveError> {
    verify(shader)?;
    if let Some((sym, q)) = shader
        .interface
        .symbols
        .iter()
        .find_map(|s| match s.interpolation {
            Some(q @ (Interpolation::Flat | Interpolation::NoPerspective)) => Some((s, q)),
            _ => None,
        })
    {
        return Err(SaveError::V1Interpolation {
            name: sym.name.clone(),
            qualifier: q.keyword(),
        });
    }
    if let Some((index, info)) = shader
        .ir
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some((i, r.info()?)))
        .find(|(_, info)| info.profile > Profile::Seed)
    {
        return Err(SaveError::V1Extended {
            index,
            mnemonic: info.mnemonic,
        });
    }
    if shader.limits.profile > Profile::Seed
        && let Some((index, info)) = shader
            .ir
            .iter()
            .enumerate()
            .filter_map(|(i, r)| Some((i, r.info()?)))
            .find(|(_, info)| info.by_profile)
    {
        return Err(SaveError::V1ProfileMeaning {
            index,
            mnemonic: info.mnemonic,
        });
    }
    let mut out =
        Vec::with_capacity(HEADER_LEN + RECORD_LEN * shader.ir.len() + 4 * shader.imm.len());
    Header::of(shader, 1).write(&mut out);
    for ir in &shader.ir {
        write_record(&mut out, ir);
    }
    let sum = byte_sum(&out[HEADER_LEN..]);
    patch_u32(&mut out, at::CHECKSUM, sum);
    write_immediates(&mut out, &shader.imm);
    Ok(out)
}

/// Decode a v1 blob whose common header checks (length, magic, version) passed.
pub(super) fn load(bytes: &[u8], header: &Header, limits: &Limits) -> Result<Shader, CsiError> {
    let stage = header.stage()?;
    let (nir, nimm, ntmp) = header.counts(limits)?;
    let ir_end = HEADER_LEN + RECORD_LEN * nir;
    let expected = ir_end + 4 * nimm;
    if bytes.len() != expected {
        return Err(CsiError::new(
            expected.min(bytes.len()),
            CsiErrorKind::Length {
                expected: expected as u64,
                actual: bytes.len() as u64,
            },
        ));
    }
    header.check_checksum(byte_sum(&bytes[HEADER_LEN..ir_end]))?;
    let mut r = Reader::at(bytes, HEADER_LEN);
    let ir = read_records(&mut r, nir)?;
    let imm = read_immediates(&mut r, nimm)?;
    let interface = reconstruct_interface(&ir);
    let shader = Shader {
        name: V1_NAME.into(),
        stage,
        limits: *limits,
        ir,
        imm,
        ntmp: ntmp as u16,
        interface,
    };
    super::verified(shader, HEADER_LEN)
}

/// The seed's checksum: the wrapping sum of the bytes.
pub(super) fn byte_sum(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(0u32, |sum, &b| sum.wrapping_add(u32::from(b)))
}

/// High-water marks and `writes_position` as the live IR uses them; no symbols.
fn reconstruct_interface(ir: &[Ir]) -> Interface {
    let mut iface = Interface {
        named: false,
        ..Interface::default()
    };
    for r in ir {
        let Some(info) = r.info() else { continue };
        match info.aux {
            Aux::Attribute => iface.attr_hi = iface.attr_hi.max(r.aux),
            Aux::Varying => iface.var_hi = iface.var_hi.max(r.aux),
            Aux::Sampler => iface.samp_hi = iface.samp_hi.max(r.aux),
            Aux::UniformSlots => {
                let last = i32::from(r.aux) + i32::from(r.aux2) - 1;
                let last = last.clamp(-1, i32::from(i16::MAX)) as i16;
                iface.uni_hi = iface.uni_hi.max(last);
            }
            _ => {}
        }
        if info.effect == Effect::Store(Output::Position) {
            iface.writes_position = true;
        }
    }
    iface
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Op, Type};

    #[test]
    fn reconstruction_takes_the_highest_live_slots() {
        let mut nop = Ir::new(Op::LoadAttr, Type::Vec4).dst(0).aux(7);
        nop.op = Op::Nop.code();
        let ir = [
            Ir::new(Op::LoadAttr, Type::Vec4).dst(0).aux(3),
            Ir::new(Op::LoadAttr, Type::Vec4).dst(0).aux(1),
            nop,
            Ir::new(Op::LoadUni, Type::Mat4).dst(0).aux(2).aux2(4),
            Ir::new(Op::LoadUni, Type::Vec4).dst(0).aux(0).aux2(1),
            Ir::new(Op::StoreVar, Type::Vec2).a(0).aux(2),
            Ir::new(Op::StorePos, Type::Vec4).a(0),
        ];
        let i = reconstruct_interface(&ir);
        assert_eq!(
            (i.attr_hi, i.var_hi, i.samp_hi, i.uni_hi, i.writes_position),
            (3, 2, -1, 5, true)
        );
        assert!(!i.named);
        assert!(i.symbols.is_empty());
        let odd = [Ir::new(Op::LoadUni, Type::Vec4)
            .aux(i16::MAX)
            .aux2(i16::MAX)];
        assert_eq!(reconstruct_interface(&odd).uni_hi, i16::MAX);
    }

    #[test]
    fn byte_sum_adds_every_byte() {
        assert_eq!(byte_sum(&[255, 1, 2]), 258);
        assert_eq!(byte_sum(&[]), 0);
    }
}
