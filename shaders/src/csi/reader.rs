//! A bounded little-endian cursor over an untrusted CSI blob.
//!
//! Every read checks the remaining length first and fails with
//! [`CsiErrorKind::Truncated`] naming the field and its byte offset; nothing here
//! panics or allocates. Callers that are about to allocate for `n` items call
//! [`Reader::expect`] first, so no allocation is ever sized by a count the blob has
//! not backed with bytes.

use super::error::{CsiError, CsiErrorKind};

/// A read position in a byte slice.
#[derive(Clone, Debug)]
pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A cursor at byte `pos` of `bytes` (`pos` may be past the end: every read fails).
    pub(super) fn at(bytes: &'a [u8], pos: usize) -> Reader<'a> {
        Reader { bytes, pos }
    }

    /// Current byte offset from the start of the blob.
    pub(super) fn pos(&self) -> usize {
        self.pos
    }

    /// Bytes left after the cursor.
    pub(super) fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// Fail unless `need` more bytes are present; consumes nothing.
    pub(super) fn expect(&self, need: usize, what: &'static str) -> Result<(), CsiError> {
        let have = self.remaining();
        if need > have {
            return Err(CsiError::new(
                self.pos,
                CsiErrorKind::Truncated { what, need, have },
            ));
        }
        Ok(())
    }

    /// The next `n` bytes.
    pub(super) fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], CsiError> {
        self.expect(n, what)?;
        let end = self.pos.saturating_add(n);
        let out = self.bytes.get(self.pos..end).ok_or(CsiError::new(
            self.pos,
            CsiErrorKind::Truncated {
                what,
                need: n,
                have: 0,
            },
        ))?;
        self.pos = end;
        Ok(out)
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], CsiError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    /// One byte.
    pub(super) fn u8(&mut self, what: &'static str) -> Result<u8, CsiError> {
        Ok(self.array::<1>(what)?[0])
    }

    /// A little-endian `u16`.
    pub(super) fn u16(&mut self, what: &'static str) -> Result<u16, CsiError> {
        self.array(what).map(u16::from_le_bytes)
    }

    /// A little-endian `i16`.
    pub(super) fn i16(&mut self, what: &'static str) -> Result<i16, CsiError> {
        self.array(what).map(i16::from_le_bytes)
    }

    /// A little-endian `u32`.
    pub(super) fn u32(&mut self, what: &'static str) -> Result<u32, CsiError> {
        self.array(what).map(u32::from_le_bytes)
    }

    /// A little-endian IEEE-754 `f32`, bit for bit (NaN payloads kept).
    pub(super) fn f32(&mut self, what: &'static str) -> Result<f32, CsiError> {
        self.u32(what).map(f32::from_bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_and_reports_truncation_with_offset() {
        let bytes = [0x43, 0x53, 0x49, 0x52, 0xfe, 0xff, 7];
        let mut r = Reader::at(&bytes, 0);
        assert_eq!(r.u32("magic").unwrap(), 0x5249_5343);
        assert_eq!(r.i16("dst").unwrap(), -2);
        assert_eq!(r.pos(), 6);
        let e = r.u16("slot").unwrap_err();
        assert_eq!(e.offset, 6);
        assert_eq!(
            e.kind,
            CsiErrorKind::Truncated {
                what: "slot",
                need: 2,
                have: 1
            }
        );
        assert_eq!(r.u8("last").unwrap(), 7);
        assert_eq!(r.remaining(), 0);
        let past = Reader::at(&bytes, 100);
        assert_eq!(past.remaining(), 0);
        assert!(past.expect(1, "x").is_err());
        assert!(Reader::at(&bytes, 100).take(0, "x").is_err());
    }
}
