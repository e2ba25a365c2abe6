//! The protocol-matrix reader on any text, and the facts it gives for its own agents.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok((matrix, _warnings)) = registry_core::parse_matrix(text) {
        for id in ["gemini", "", "a"] {
            let _ = matrix.facts(id);
        }
    }
});
