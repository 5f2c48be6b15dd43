//! piglit `.shader_test` files through the same entry as `csir-render shader-test`
//! (`run_text`: parse, requirements, script, compile, draw, probe): any text gives a
//! report, never a panic or a hang.
#![no_main]

use csir_render::shader_test::{RunOptions, run_text};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = run_text(Path::new("fuzz.shader_test"), text, &RunOptions::default());
});
