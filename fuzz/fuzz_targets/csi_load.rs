//! The untrusted CSI loader: any bytes load or give a `CsiError`, never a panic; a blob
//! that loads verifies, dumps, and saves again as v2 into bytes that load to the same
//! bytes (the loader accepts only what it can reproduce).
#![no_main]

use csir::{Limits, load_csi, save_csi};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for limits in [Limits::SEED, Limits::LARGE] {
        let Ok(shader) = load_csi(data, &limits) else {
            continue;
        };
        csir::ir::verify(&shader).expect("a loaded shader verifies");
        let _ = csir::ir::dump(&shader);
        let _ = csir::emit_tgsi(&shader, None, None);
        let blob = save_csi(&shader).expect("a loaded shader saves as CSI v2");
        let again = load_csi(&blob, &limits).expect("a re-saved shader loads");
        assert_eq!(save_csi(&again).expect("saves"), blob, "CSI v2 round trip");
    }
});
