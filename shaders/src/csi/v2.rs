//! CSI v2: a canonical, checksummed encoding of a whole [`Shader`], safe to load from
//! untrusted bytes.
//!
//! Every field is written explicitly little-endian; nothing depends on the host's
//! struct layout. Byte layout (`M = 76 + 16·nir + 4·nimm`):
//!
//! ```text
//! offset  size       field
//!      0  4          magic 0x52495343 ("CSIR")
//!      4  4          version 2
//!      8  4          stage: 0 vertex, 1 fragment
//!     12  4          nir, instruction records
//!     16  4          nimm, immediate floats
//!     20  4          ntmp, temporaries
//!     24  4          CRC-32 (IEEE, as crc32fast/zlib) of bytes 0..24 followed by 28..end
//!     28  4          total length of the blob in bytes
//!     32  11 × 4     limits: instructions, immediates, temporaries, if_depth, attributes,
//!                    varyings, uniform_slots, samplers, source_bytes, unroll, errors
//!     76  nir × 16   records: op u8, ty u8, ncomp u8, pad u8, dst a b c aux aux2 as i16
//!  76+16·nir  nimm × 4   immediates, IEEE-754 bits
//!      M  1          shader name length n (0..=255), then n bytes of UTF-8
//!         4 × 2      attr_hi, var_hi, samp_hi, uni_hi (i16, −1 = none)
//!         1          flags: bit 0 writes_position, bit 1 named, bit 2 uniform
//!                      initializers follow the symbols, bit 3 the extended
//!                      profile (`Limits::profile`; clear: the seed's, so a
//!                      seed-profile shader keeps the bytes it had before
//!                      profiles existed); other bits 0
//!         2          nsym, interface symbols (≤ attributes+varyings+uniform_slots+samplers+1)
//!         nsym ×     kind u8: bits 0..=3 the kind (0 uniform, 1 sampler,
//!                      2 attribute, 3 varying in, 4 varying out, 5 colour
//!                      output); bits 4..=5 a varying's interpolation qualifier
//!                      (0 none, 1 smooth, 2 flat, 3 noperspective; GLSL 1.30
//!                      §4.3.6), 0 for every other kind; bits 6..=7 0. A shader
//!                      without qualifiers keeps the bytes it had before they
//!                      existed.
//!                    type u8 (Type code 0..=13)
//!                    slot u16 (uniform vec4 slot, sampler slot, attribute location or
//!                      varying slot; 0 for the colour output); a sampler's high
//!                      byte is its `SamplerType::code` (0 for `sampler2D`, so
//!                      such a shader keeps its bytes)
//!                    array length u16 (0 = not an array)
//!                    name length u8 (1..=255), then that many bytes of UTF-8
//!         (flag bit 2 only)
//!         2          ninit, uniform initializers (1..=nsym)
//!         ninit ×    symbol index u16 (a uniform; ascending), float count u16, then
//!                      that many floats, IEEE-754 bits, in `Interface::set_uniform`'s
//!                      order
//!    end             nothing follows
//! ```
//!
//! The encoding is canonical: each shader has exactly one, and every blob the loader
//! accepts re-saves to the same bytes.
//!
//! Loading checks, in order (each failure is a [`CsiError`] with the byte offset):
//! length ≥ 32, magic, version (shared with v1); total length (word 7) equals the
//! blob's length; the CRC; the stage; each stored limit ≤ the loader's and
//! [`Limits::validate`]; `nir`, `nimm`, `ntmp` within the stored limits; the records,
//! immediates and name (length and UTF-8); the flags; `nsym` within its bound and
//! backed by bytes; each symbol's kind, type, colour-output slot and name; no trailing
//! bytes; the interface rules ([`InterfaceRule`](super::InterfaceRule)); the
//! verifier. No count is used to allocate before the bytes it describes are known to
//! be present.

use super::MAX_SHADER_NAME;
use super::MAX_SYMBOL_NAME;
use super::error::{CsiError, CsiErrorKind, SaveError};
use super::interface;
use super::reader::Reader;
use super::wire::{
    HEADER_LEN, Header, at, patch_u32, read_immediates, read_records, write_immediates,
    write_record,
};
use crate::ir::{
    Interface, InterfaceSymbol, Interpolation, Limits, Profile, Shader, SymbolKind, Type, verify,
};
use crate::sampler_type::SamplerType;

/// Byte offset of the first instruction record.
pub(super) const IR_START: usize = HEADER_LEN + 4 * LIMIT_FIELDS.len();

/// Smallest encoded symbol: kind, type, slot, array length, name length, one name byte.
const MIN_SYMBOL_LEN: usize = 8;

const FLAG_WRITES_POSITION: u8 = 1;
const FLAG_NAMED: u8 = 2;
const FLAG_INITIALIZERS: u8 = 4;
const FLAG_EXTENDED: u8 = 8;

/// The stored [`Limits`] fields, in order.
const LIMIT_FIELDS: [&str; 11] = [
    "instructions",
    "immediates",
    "temporaries",
    "if_depth",
    "attributes",
    "varyings",
    "uniform_slots",
    "samplers",
    "source_bytes",
    "unroll",
    "errors",
];

fn limits_to_array(l: &Limits) -> [usize; 11] {
    [
        l.instructions,
        l.immediates,
        l.temporaries,
        l.if_depth,
        l.attributes,
        l.varyings,
        l.uniform_slots,
        l.samplers,
        l.source_bytes,
        l.unroll,
        l.errors,
    ]
}

fn limits_from_array(a: [usize; 11]) -> Limits {
    let [
        instructions,
        immediates,
        temporaries,
        if_depth,
        attributes,
        varyings,
        uniform_slots,
        samplers,
        source_bytes,
        unroll,
        errors,
    ] = a;
    Limits {
        instructions,
        immediates,
        temporaries,
        if_depth,
        attributes,
        varyings,
        uniform_slots,
        samplers,
        source_bytes,
        unroll,
        errors,
        // Flag bit 3 of the metadata; set by the loader once the flags are read.
        profile: Profile::Seed,
    }
}

/// Encode the whole of `shader` as CSI v2.
///
/// Errors: the shader does not verify, its interface breaks a rule the loader
/// enforces ([`InterfaceRule`](super::InterfaceRule)), a name is too long (or a
/// symbol name empty), or a front-end limit does not fit in 32 bits.
pub fn save(shader: &Shader) -> Result<Vec<u8>, SaveError> {
    verify(shader)?;
    if shader.stage == crate::ir::Stage::Geometry {
        return Err(SaveError::Geometry);
    }
    interface::check(shader).map_err(|(_, rule)| SaveError::Interface(rule))?;
    name_fits("shader name", &shader.name, 0, MAX_SHADER_NAME)?;
    for sym in &shader.interface.symbols {
        name_fits("symbol name", &sym.name, 1, MAX_SYMBOL_NAME)?;
    }
    let mut limit_words = [0u32; 11];
    for ((word, value), field) in limit_words
        .iter_mut()
        .zip(limits_to_array(&shader.limits))
        .zip(LIMIT_FIELDS)
    {
        *word = u32::try_from(value).map_err(|_| SaveError::Limit { field, value })?;
    }
    let mut out = Vec::new();
    Header::of(shader, 2).write(&mut out);
    for word in limit_words {
        out.extend_from_slice(&word.to_le_bytes());
    }
    for ir in &shader.ir {
        write_record(&mut out, ir);
    }
    write_immediates(&mut out, &shader.imm);
    write_name(&mut out, &shader.name);
    let iface = &shader.interface;
    for mark in [iface.attr_hi, iface.var_hi, iface.samp_hi, iface.uni_hi] {
        out.extend_from_slice(&mark.to_le_bytes());
    }
    let mut flags = 0;
    if iface.writes_position {
        flags |= FLAG_WRITES_POSITION;
    }
    if iface.named {
        flags |= FLAG_NAMED;
    }
    if !iface.uniform_initializers.is_empty() {
        flags |= FLAG_INITIALIZERS;
    }
    if shader.limits.profile == Profile::Extended {
        flags |= FLAG_EXTENDED;
    }
    out.push(flags);
    // interface::check bounds the count by max_symbols, at most 32767 + 3·32 + 1 for
    // valid limits, so it fits the u16 field.
    out.extend_from_slice(&(iface.symbols.len() as u16).to_le_bytes());
    for sym in &iface.symbols {
        let (kind, slot) = kind_code(sym.kind);
        let kind = kind | interpolation_code(sym.interpolation) << 4;
        out.extend_from_slice(&[kind, sym.ty.code()]);
        out.extend_from_slice(&slot.to_le_bytes());
        out.extend_from_slice(&sym.array_len.unwrap_or(0).to_le_bytes());
        write_name(&mut out, &sym.name);
    }
    if !iface.uniform_initializers.is_empty() {
        // interface::check: each names a uniform symbol, in order, with its floats.
        if let Some((name, _)) = iface
            .uniform_initializers
            .iter()
            .find(|(_, v)| v.len() > usize::from(u16::MAX))
        {
            return Err(SaveError::Interface(super::InterfaceRule::Initializer {
                name: name.clone(),
                reason: "more than 65535 floats".into(),
            }));
        }
        out.extend_from_slice(&(iface.uniform_initializers.len() as u16).to_le_bytes());
        for (name, values) in &iface.uniform_initializers {
            let index = iface.symbols.iter().position(|s| &s.name == name);
            out.extend_from_slice(&(index.unwrap_or(0) as u16).to_le_bytes());
            out.extend_from_slice(&(values.len() as u16).to_le_bytes());
            write_immediates(&mut out, values);
        }
    }
    let len = out.len() as u32;
    patch_u32(&mut out, at::WORD7, len);
    let crc = checksum(&out);
    patch_u32(&mut out, at::CHECKSUM, crc);
    Ok(out)
}

/// Decode a v2 blob whose common header checks (length, magic, version) passed.
pub(super) fn load(bytes: &[u8], header: &Header, loader: &Limits) -> Result<Shader, CsiError> {
    if u64::from(header.word7) != bytes.len() as u64 {
        return Err(CsiError::new(
            at::WORD7,
            CsiErrorKind::Length {
                expected: u64::from(header.word7),
                actual: bytes.len() as u64,
            },
        ));
    }
    header.check_checksum(checksum(bytes))?;
    let stage = header.stage()?;
    let mut r = Reader::at(bytes, HEADER_LEN);
    let mut limits = read_limits(&mut r, loader)?;
    let (nir, nimm, ntmp) = header.counts(&limits)?;
    let ir = read_records(&mut r, nir)?;
    let imm = read_immediates(&mut r, nimm)?;
    let name = read_name(&mut r, "shader name", 0, MAX_SHADER_NAME)?;
    let marks_at = r.pos();
    let attr_hi = r.i16("attr_hi")?;
    let var_hi = r.i16("var_hi")?;
    let samp_hi = r.i16("samp_hi")?;
    let uni_hi = r.i16("uni_hi")?;
    let flags_at = r.pos();
    let flags = r.u8("flags")?;
    if flags & !(FLAG_WRITES_POSITION | FLAG_NAMED | FLAG_INITIALIZERS | FLAG_EXTENDED) != 0 {
        return Err(CsiError::new(
            flags_at,
            CsiErrorKind::Code {
                what: "flags",
                value: u32::from(flags),
            },
        ));
    }
    if flags & FLAG_EXTENDED != 0 {
        if loader.profile < Profile::Extended {
            return Err(CsiError::new(flags_at, CsiErrorKind::Profile));
        }
        limits.profile = Profile::Extended;
    }
    let nsym_at = r.pos();
    let nsym = super::count(
        nsym_at,
        "symbol count",
        u32::from(r.u16("symbol count")?),
        interface::max_symbols(&limits),
    )?;
    r.expect(nsym * MIN_SYMBOL_LEN, "the interface symbols")?;
    let mut symbols = Vec::with_capacity(nsym);
    let mut symbol_at = Vec::with_capacity(nsym);
    for _ in 0..nsym {
        symbol_at.push(r.pos());
        symbols.push(read_symbol(&mut r)?);
    }
    let mut uniform_initializers = Vec::new();
    if flags & FLAG_INITIALIZERS != 0 {
        let count_at = r.pos();
        let count = super::count(
            count_at,
            "uniform initializer count",
            u32::from(r.u16("uniform initializer count")?),
            nsym,
        )?;
        if count == 0 {
            return Err(CsiError::new(
                count_at,
                CsiErrorKind::Code {
                    what: "uniform initializer count",
                    value: 0,
                },
            ));
        }
        for _ in 0..count {
            let at = r.pos();
            let index = usize::from(r.u16("uniform initializer symbol")?);
            let Some(sym) = symbols.get(index) else {
                return Err(CsiError::new(
                    at,
                    CsiErrorKind::Code {
                        what: "uniform initializer symbol",
                        value: index as u32,
                    },
                ));
            };
            let n = usize::from(r.u16("uniform initializer float count")?);
            let values = read_immediates(&mut r, n)?;
            uniform_initializers.push((sym.name.clone(), values));
        }
    }
    if r.remaining() != 0 {
        return Err(CsiError::new(
            r.pos(),
            CsiErrorKind::Trailing(r.remaining()),
        ));
    }
    let shader = Shader {
        name,
        stage,
        limits,
        ir,
        imm,
        ntmp: ntmp as u16,
        interface: Interface {
            symbols,
            attr_hi,
            var_hi,
            samp_hi,
            uni_hi,
            writes_position: flags & FLAG_WRITES_POSITION != 0,
            named: flags & FLAG_NAMED != 0,
            uniform_initializers,
            geometry: None,
        },
    };
    if let Err((index, rule)) = interface::check(&shader) {
        let offset = index
            .and_then(|i| symbol_at.get(i).copied())
            .unwrap_or(marks_at);
        return Err(CsiError::new(offset, rule.into()));
    }
    super::verified(shader, IR_START)
}

/// CRC-32 of the blob with the checksum word (bytes 24..28) left out.
pub(super) fn checksum(bytes: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(bytes.get(..at::CHECKSUM).unwrap_or(bytes));
    h.update(bytes.get(at::CHECKSUM + 4..).unwrap_or(&[]));
    h.finalize()
}

fn read_limits(r: &mut Reader<'_>, loader: &Limits) -> Result<Limits, CsiError> {
    let start = r.pos();
    let mut values = [0usize; 11];
    for ((value, max), what) in values
        .iter_mut()
        .zip(limits_to_array(loader))
        .zip(LIMIT_FIELDS)
    {
        *value = super::count(r.pos(), what, r.u32(what)?, max)?;
    }
    let limits = limits_from_array(values);
    limits
        .validate()
        .map_err(|field| CsiError::new(start, CsiErrorKind::Limits(field)))?;
    Ok(limits)
}

fn read_symbol(r: &mut Reader<'_>) -> Result<InterfaceSymbol, CsiError> {
    let at = r.pos();
    let kind = r.u8("symbol kind")?;
    let ty_code = r.u8("symbol type")?;
    let slot = r.u16("symbol slot")?;
    let array_len = r.u16("symbol array length")?;
    let (kind, qualifier) = (kind & 0x0f, kind >> 4);
    let interpolation = match (kind, qualifier) {
        (_, 0) => None,
        (3 | 4, q @ 1..=3) => Some(Interpolation::ALL[usize::from(q) - 1]),
        _ => {
            return Err(CsiError::new(
                at,
                CsiErrorKind::Code {
                    what: "symbol interpolation qualifier",
                    value: u32::from(qualifier),
                },
            ));
        }
    };
    let kind = match kind {
        0 => SymbolKind::Uniform { slot },
        1 => SymbolKind::Sampler {
            slot: slot & 0xff,
            sampler: SamplerType::from_code((slot >> 8) as u8).ok_or(CsiError::new(
                at + 3,
                CsiErrorKind::Code {
                    what: "sampler type",
                    value: u32::from(slot >> 8),
                },
            ))?,
        },
        2 => SymbolKind::Attribute { location: slot },
        3 => SymbolKind::VaryingIn { slot },
        4 => SymbolKind::VaryingOut { slot },
        // Location + 8 · index; the second source is location 0 only.
        5 if slot <= 8 => SymbolKind::ColorOut {
            location: slot % 8,
            index: slot / 8,
        },
        5 => {
            return Err(CsiError::new(
                at + 2,
                CsiErrorKind::Code {
                    what: "colour output slot",
                    value: u32::from(slot),
                },
            ));
        }
        code => {
            return Err(CsiError::new(
                at,
                CsiErrorKind::Code {
                    what: "symbol kind",
                    value: u32::from(code),
                },
            ));
        }
    };
    let ty = Type::from_code(ty_code).ok_or(CsiError::new(
        at + 1,
        CsiErrorKind::Code {
            what: "symbol type",
            value: u32::from(ty_code),
        },
    ))?;
    let name = read_name(r, "symbol name", 1, MAX_SYMBOL_NAME)?;
    Ok(InterfaceSymbol {
        name,
        ty,
        array_len: (array_len != 0).then_some(array_len),
        kind,
        interpolation,
    })
}

/// The 2-bit code of an interpolation qualifier (0 for none).
fn interpolation_code(q: Option<Interpolation>) -> u8 {
    q.map_or(0, |q| match q {
        Interpolation::Smooth => 1,
        Interpolation::Flat => 2,
        Interpolation::NoPerspective => 3,
    })
}

/// The kind code and slot field of a symbol.
fn kind_code(kind: SymbolKind) -> (u8, u16) {
    match kind {
        SymbolKind::Uniform { slot } => (0, slot),
        SymbolKind::Sampler { slot, sampler } => (1, slot | u16::from(sampler.code()) << 8),
        SymbolKind::Attribute { location } => (2, location),
        SymbolKind::VaryingIn { slot } => (3, slot),
        SymbolKind::VaryingOut { slot } => (4, slot),
        SymbolKind::ColorOut { location, index } => {
            (5, SymbolKind::color_store_aux(location, index) as u16)
        }
    }
}

fn name_fits(what: &'static str, name: &str, min: usize, max: usize) -> Result<(), SaveError> {
    let len = name.len();
    if len < min || len > max {
        return Err(SaveError::NameLength {
            what,
            len,
            min,
            max,
        });
    }
    Ok(())
}

/// Length byte, then the UTF-8 bytes (the length was checked by `name_fits`).
fn write_name(out: &mut Vec<u8>, name: &str) {
    out.push(name.len() as u8);
    out.extend_from_slice(name.as_bytes());
}

fn read_name(
    r: &mut Reader<'_>,
    what: &'static str,
    min: usize,
    max: usize,
) -> Result<String, CsiError> {
    let at = r.pos();
    let len = usize::from(r.u8(what)?);
    if len < min || len > max {
        return Err(CsiError::new(
            at,
            CsiErrorKind::NameLength {
                what,
                len,
                min,
                max,
            },
        ));
    }
    let bytes = r.take(len, what)?;
    std::str::from_utf8(bytes)
        .map(str::to_owned)
        .map_err(|_| CsiError::new(at + 1, CsiErrorKind::NameUtf8 { what }))
}
