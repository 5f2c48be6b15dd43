//! The encodings both CSI versions share: the 32-byte header of eight little-endian
//! `u32` words and the 16-byte instruction record.
//!
//! Header (offsets in bytes):
//!
//! | offset | word | v1 (seed, docs/csir-original.md B §6)        | v2                                 |
//! |-------:|-----:|----------------------------------|------------------------------------|
//! |      0 |    0 | magic `0x52495343` ("CSIR")       | same                               |
//! |      4 |    1 | version 1                        | version 2                          |
//! |      8 |    2 | stage (0 vertex, 1 fragment)     | same                               |
//! |     12 |    3 | nir, records                     | same                               |
//! |     16 |    4 | nimm, immediate floats           | same                               |
//! |     20 |    5 | ntmp, temporaries                | same                               |
//! |     24 |    6 | byte sum of the IR records       | CRC-32 of every other byte         |
//! |     28 |    7 | reserved, 0 (not checked)        | total blob length in bytes         |
//!
//! Record (the seed's `struct Ir`, written field by field so the bytes do not depend
//! on the host's layout or byte order): op `u8` @0, ty `u8` @1, ncomp `u8` @2,
//! pad `u8` @3, then `i16` dst @4, a @6, b @8, c @10, aux @12, aux2 @14.

use super::error::{CsiError, CsiErrorKind};
use super::reader::Reader;
use crate::ir::{Ir, Limits, Shader, Stage};

/// Magic word 0: the bytes "CSIR" read as a little-endian `u32`.
pub const MAGIC: u32 = 0x5249_5343;
/// Header size shared by both versions.
pub const HEADER_LEN: usize = 32;
/// Size of one encoded instruction record.
pub const RECORD_LEN: usize = 16;

/// Byte offsets of the header words.
pub(super) mod at {
    pub const MAGIC: usize = 0;
    pub const VERSION: usize = 4;
    pub const STAGE: usize = 8;
    pub const NIR: usize = 12;
    pub const NIMM: usize = 16;
    pub const NTMP: usize = 20;
    pub const CHECKSUM: usize = 24;
    pub const WORD7: usize = 28;
}

/// The eight header words, decoded but not yet interpreted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Header {
    pub version: u32,
    pub stage: u32,
    pub nir: u32,
    pub nimm: u32,
    pub ntmp: u32,
    pub checksum: u32,
    pub word7: u32,
}

impl Header {
    /// Read the header and make the checks common to every version, in the seed's
    /// order: at least 32 bytes, the magic, a known version.
    pub(super) fn read(bytes: &[u8]) -> Result<Header, CsiError> {
        let mut r = Reader::at(bytes, 0);
        r.expect(HEADER_LEN, "the 32-byte header")?;
        let magic = r.u32("magic")?;
        if magic != MAGIC {
            return Err(CsiError::new(
                at::MAGIC,
                CsiErrorKind::Magic { found: magic },
            ));
        }
        let version = r.u32("version")?;
        if !(1..=2).contains(&version) {
            return Err(CsiError::new(
                at::VERSION,
                CsiErrorKind::Version { found: version },
            ));
        }
        Ok(Header {
            version,
            stage: r.u32("stage")?,
            nir: r.u32("instruction count")?,
            nimm: r.u32("immediate count")?,
            ntmp: r.u32("temporary count")?,
            checksum: r.u32("checksum")?,
            word7: r.u32("header word 7")?,
        })
    }

    /// The header of `shader` for `version`, with the checksum and word 7 left 0.
    pub(super) fn of(shader: &Shader, version: u32) -> Header {
        Header {
            version,
            stage: shader.stage.code(),
            // Callers verify first: the counts are within limits that fit in i16.
            nir: shader.ir.len() as u32,
            nimm: shader.imm.len() as u32,
            ntmp: u32::from(shader.ntmp),
            checksum: 0,
            word7: 0,
        }
    }

    /// The stage code, decoded (0 vertex, 1 fragment; CSI does not store a geometry
    /// shader's layout yet, so its code 2 is refused as the original refuses it).
    pub(super) fn stage(&self) -> Result<Stage, CsiError> {
        let stored = Stage::from_code(self.stage).filter(|s| *s != Stage::Geometry);
        stored.ok_or(CsiError::new(
            at::STAGE,
            CsiErrorKind::Stage { code: self.stage },
        ))
    }

    /// `(nir, nimm, ntmp)`, each checked against its pool in `limits` before anything
    /// is sized by it.
    pub(super) fn counts(&self, limits: &Limits) -> Result<(usize, usize, usize), CsiError> {
        Ok((
            super::count(at::NIR, "instruction count", self.nir, limits.instructions)?,
            super::count(at::NIMM, "immediate count", self.nimm, limits.immediates)?,
            super::count(at::NTMP, "temporary count", self.ntmp, limits.temporaries)?,
        ))
    }

    /// Compare the stored checksum (word 6) with the one computed from the bytes.
    pub(super) fn check_checksum(&self, computed: u32) -> Result<(), CsiError> {
        if computed != self.checksum {
            return Err(CsiError::new(
                at::CHECKSUM,
                CsiErrorKind::Checksum {
                    stored: self.checksum,
                    computed,
                },
            ));
        }
        Ok(())
    }

    /// Append the 32 header bytes.
    pub(super) fn write(&self, out: &mut Vec<u8>) {
        for word in [
            MAGIC,
            self.version,
            self.stage,
            self.nir,
            self.nimm,
            self.ntmp,
            self.checksum,
            self.word7,
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
    }
}

/// Overwrite the `u32` at `offset` of an encoded blob (for fields computed last).
pub(super) fn patch_u32(out: &mut [u8], offset: usize, value: u32) {
    out[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
}

/// Append one record, field by field, little-endian.
pub(super) fn write_record(out: &mut Vec<u8>, ir: &Ir) {
    out.extend_from_slice(&[ir.op, ir.ty, ir.ncomp, ir.pad]);
    for field in [ir.dst, ir.a, ir.b, ir.c, ir.aux, ir.aux2] {
        out.extend_from_slice(&field.to_le_bytes());
    }
}

/// Read `count` records; the bytes are checked before anything is allocated.
pub(super) fn read_records(r: &mut Reader<'_>, count: usize) -> Result<Vec<Ir>, CsiError> {
    r.expect(count.saturating_mul(RECORD_LEN), "the instruction records")?;
    let mut ir = Vec::with_capacity(count);
    for _ in 0..count {
        ir.push(Ir {
            op: r.u8("op")?,
            ty: r.u8("ty")?,
            ncomp: r.u8("ncomp")?,
            pad: r.u8("pad")?,
            dst: r.i16("dst")?,
            a: r.i16("a")?,
            b: r.i16("b")?,
            c: r.i16("c")?,
            aux: r.i16("aux")?,
            aux2: r.i16("aux2")?,
        });
    }
    Ok(ir)
}

/// Append immediates as little-endian IEEE-754 bits (NaN payloads kept).
pub(super) fn write_immediates(out: &mut Vec<u8>, imm: &[f32]) {
    for v in imm {
        out.extend_from_slice(&v.to_bits().to_le_bytes());
    }
}

/// Read `count` immediates; the bytes are checked before anything is allocated.
pub(super) fn read_immediates(r: &mut Reader<'_>, count: usize) -> Result<Vec<f32>, CsiError> {
    r.expect(count.saturating_mul(4), "the immediates")?;
    (0..count).map(|_| r.f32("immediate")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Op, Type};

    #[test]
    fn record_bytes_equal_the_seed_struct_on_little_endian_hosts() {
        let ir = Ir::new(Op::Cmp, Type::Bool)
            .dst(300)
            .a(-1)
            .b(7)
            .aux(5)
            .aux2(-2)
            .ncomp(1);
        let mut out = Vec::new();
        write_record(&mut out, &ir);
        assert_eq!(
            out,
            [
                18, 2, 1, 0, 0x2c, 0x01, 0xff, 0xff, 7, 0, 0xff, 0xff, 5, 0, 0xfe, 0xff
            ]
        );
        if cfg!(target_endian = "little") {
            assert_eq!(out, bytemuck::bytes_of(&ir));
        }
        let back = read_records(&mut Reader::at(&out, 0), 1).unwrap();
        assert_eq!(back, vec![ir]);
    }

    #[test]
    fn header_checks_length_magic_and_version_in_order() {
        let h = Header {
            version: 2,
            stage: 1,
            nir: 3,
            nimm: 4,
            ntmp: 5,
            checksum: 6,
            word7: 7,
        };
        let mut out = Vec::new();
        h.write(&mut out);
        assert_eq!(&out[..4], b"CSIR");
        assert_eq!(Header::read(&out), Ok(h));
        let e = Header::read(&out[..31]).unwrap_err();
        assert_eq!(e.offset, 0);
        assert!(matches!(
            e.kind,
            CsiErrorKind::Truncated {
                need: 32,
                have: 31,
                ..
            }
        ));
        let mut bad = out.clone();
        bad[0] ^= 1;
        bad[4] = 9; // the magic is checked first
        assert!(matches!(
            Header::read(&bad).unwrap_err().kind,
            CsiErrorKind::Magic { .. }
        ));
        bad[0] ^= 1;
        assert_eq!(
            Header::read(&bad).unwrap_err(),
            CsiError::new(4, CsiErrorKind::Version { found: 9 })
        );
    }
}
