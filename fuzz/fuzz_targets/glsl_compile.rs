//! The GLSL front end: any text compiles or gives diagnostics, never a panic or a hang;
//! a shader that compiles verifies, dumps, emits TGSI (or a named TGSI error), and
//! survives a CSI v2 round trip byte for byte.
//!
//! Input: byte 0 picks the stage (bit 0) and the profile (bit 1); the rest is the
//! source (UTF-8 only: the CLI rejects other bytes before the compiler sees them).
#![no_main]

use csir::{Limits, Stage, compile, emit_tgsi, load_csi, save_csi};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(source) = std::str::from_utf8(rest) else {
        return;
    };
    let stage = if selector & 1 == 0 {
        Stage::Vertex
    } else {
        Stage::Fragment
    };
    let limits = if selector & 2 == 0 {
        Limits::SEED
    } else {
        Limits::EXTENDED
    };
    let Ok(shader) = compile(source, "fuzz", stage, &limits) else {
        return;
    };
    csir::ir::verify(&shader).expect("a compiled shader verifies");
    let _ = csir::ir::dump(&shader);
    let _ = emit_tgsi(&shader, None, None);
    let blob = save_csi(&shader).expect("a compiled shader saves as CSI v2");
    let loaded = load_csi(&blob, &limits).expect("a saved shader loads");
    assert_eq!(
        save_csi(&loaded).expect("a loaded shader saves"),
        blob,
        "CSI v2 round trip changed the bytes"
    );
});
