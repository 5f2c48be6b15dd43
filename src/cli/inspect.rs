//! `csir-render inspect FILE.csi [--profile seed|extended]`: what a CSI file holds.
//!
//! Prints the header as stored (version, stage, counts, word 7), the checksum's
//! status (stored against computed), then loads the blob through the untrusted loader
//! ([`csir::load_csi`], under the `--profile` limits) and prints the profile, flags,
//! limits, interface and the IR dump. A blob the loader rejects prints whatever of the
//! header could be read and then the loader's error (byte offset and reason), and exits
//! 1; nothing panics. Formats: shaders/src/csi (v1: docs/csir.md "CSI binary format", v2:
//! `csir::csi::v2`).

use super::fail;
use clap::Args;
use csir::csi::{HeaderInfo, read_header};
use csir::ir::{Interface, Shader, SymbolKind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Largest CSI file `inspect` reads: a v2 blob of the largest profile is well under
/// 1 MiB (4096 records × 16 bytes plus immediates and names); anything bigger is
/// rejected before it is read whole.
pub const MAX_CSI_FILE_BYTES: u64 = 16 << 20;

/// Arguments of `inspect`.
#[derive(Args, Debug)]
pub struct InspectArgs {
    /// A CSI file (v1 or v2), as `compile --csi` writes.
    pub file: PathBuf,
    #[command(flatten)]
    pub profile: super::ProfileArgs,
}

/// Run `inspect`: print the report and exit 0, or print what could be read, then the
/// loader's error, and exit 1.
pub fn run(args: &InspectArgs) -> ExitCode {
    let bytes = match read_csi_file(&args.file) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    let name = args.file.display();
    let header = match read_header(&bytes) {
        Ok(h) => h,
        Err(e) => return fail(format!("{name}: {e}")),
    };
    outln!("{name}: CSI v{}, {} bytes", header.version, bytes.len());
    print_header(&header);
    let limits = args.profile.limits();
    let shader = match csir::load_csi(&bytes, &limits) {
        Ok(s) => s,
        Err(e) => return fail(format!("{name}: {e}")),
    };
    print_shader(&shader, header.version);
    ExitCode::SUCCESS
}

/// The bytes of the CSI file `path`, read with a size limit
/// ([`MAX_CSI_FILE_BYTES`]) from a regular file or a pipe only.
///
/// Errors: a `PATH: what is wrong` message (cannot be read, not a regular file or
/// pipe, larger than the limit).
pub fn read_csi_file(path: &Path) -> Result<Vec<u8>, String> {
    csir_render::file_read::read_bounded(path, MAX_CSI_FILE_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn print_header(h: &HeaderInfo) {
    let stage = match h.stage {
        0 => "vertex",
        1 => "fragment",
        _ => "invalid",
    };
    outln!("header:");
    outln!("  magic       0x52495343 \"CSIR\"");
    outln!("  version     {}", h.version);
    outln!("  stage       {} ({stage})", h.stage);
    outln!("  records     {}", h.nir);
    outln!("  immediates  {}", h.nimm);
    outln!("  temporaries {}", h.ntmp);
    if h.version == 1 {
        outln!("  word 7      {} (reserved, not checked)", h.word7);
    } else {
        outln!("  length      {} bytes (word 7)", h.word7);
    }
    let kind = if h.version == 1 {
        "byte sum of the records; the immediates are not covered"
    } else {
        "CRC-32 of every other byte"
    };
    match h.checksum_computed {
        Some(c) if c == h.checksum_stored => {
            outln!("checksum: ok, {c:#010x} ({kind})")
        }
        Some(c) => outln!(
            "checksum: MISMATCH, stored {:#010x}, computed {c:#010x} ({kind})",
            h.checksum_stored
        ),
        None => outln!(
            "checksum: not computed, the file is shorter than the records its header announces (stored {:#010x})",
            h.checksum_stored
        ),
    }
}

fn print_shader(shader: &Shader, version: u32) {
    let iface = &shader.interface;
    outln!("name: {}", shader.name);
    outln!(
        "profile: {}{}",
        shader.limits.profile.name(),
        if version == 1 {
            " (v1 stores none: the loader's)"
        } else {
            ""
        }
    );
    let mut flags = Vec::new();
    if iface.writes_position {
        flags.push("writes gl_Position");
    }
    flags.push(if iface.named {
        "named interface"
    } else {
        "unnamed interface"
    });
    if !iface.uniform_initializers.is_empty() {
        flags.push("uniform initializers");
    }
    outln!("flags: {}", flags.join(", "));
    let l = &shader.limits;
    outln!(
        "limits: {} instructions, {} immediates, {} temporaries, if depth {}, {} attributes, {} varyings, {} uniform vec4s, {} samplers",
        l.instructions,
        l.immediates,
        l.temporaries,
        l.if_depth,
        l.attributes,
        l.varyings,
        l.uniform_slots,
        l.samplers
    );
    outln!(
        "counts: {} instructions ({} live), {} immediates, {} temporaries",
        shader.ir.len(),
        shader.live_instructions(),
        shader.imm.len(),
        shader.ntmp
    );
    print_interface(iface);
    outln!("ir:");
    out!("{}", csir::ir::dump(shader));
}

fn print_interface(iface: &Interface) {
    let mark = |m: i16| {
        if m < 0 {
            "none".to_string()
        } else {
            m.to_string()
        }
    };
    outln!(
        "high-water marks: attribute {}, varying {}, sampler {}, uniform slot {}",
        mark(iface.attr_hi),
        mark(iface.var_hi),
        mark(iface.samp_hi),
        mark(iface.uni_hi)
    );
    if !iface.named {
        outln!(
            "interface: not stored (CSI v1 carries no names; the marks above are reconstructed from the IR, and a program cannot link it)"
        );
        return;
    }
    outln!("interface: {} symbols", iface.symbols.len());
    for s in &iface.symbols {
        let name = match s.array_len {
            Some(n) => format!("{}[{n}]", s.name),
            None => s.name.clone(),
        };
        let (kind, slot) = match s.kind {
            SymbolKind::Uniform { slot } => ("uniform", format!("slot {slot}")),
            SymbolKind::Sampler { slot, .. } => ("sampler", format!("unit {slot}")),
            SymbolKind::Attribute { location } => ("attribute", format!("location {location}")),
            SymbolKind::VaryingIn { slot } => ("varying in", format!("slot {slot}")),
            SymbolKind::VaryingOut { slot } => ("varying out", format!("slot {slot}")),
            SymbolKind::ColorOut { .. } => ("colour output", String::new()),
        };
        let line = format!("  {kind:<13} {} {name} {slot}", s.ty);
        outln!("{}", line.trim_end());
    }
    for (name, values) in &iface.uniform_initializers {
        let values: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
        outln!("  initializer   {name} = [{}]", values.join(", "));
    }
}
