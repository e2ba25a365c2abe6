//! The validator on a manifest and an icon made of the input (split at its first two bytes),
//! and `build`: it builds exactly when nothing is an error, and what it writes is sanitised.
#![no_main]

use libfuzzer_sys::fuzz_target;
use registry_validate::{Files, build, sanitise_icon, validate};

const SCHEMA: &str =
    include_str!("../../tests/fixtures/real-registry-2026/source/agent.schema.json");

fuzz_target!(|data: &[u8]| {
    let Some((split, rest)) = data.split_first_chunk::<2>() else {
        return;
    };
    let at = usize::from(u16::from_le_bytes(*split)).min(rest.len());
    let (manifest, icon) = rest.split_at(at);
    let mut files = Files::new();
    files.insert("agent.schema.json", SCHEMA.as_bytes().to_vec());
    files.insert("a/agent.json", manifest.to_vec());
    files.insert("a/icon.svg", icon.to_vec());
    let validation = validate(&files);
    let _ = validation.remote_checks(&Default::default());
    let (built, again) = build(&files, "https://cdn.example/registry");
    assert_eq!(built.is_some(), !again.has_errors());
    assert_eq!(
        validation.diagnostics, again.diagnostics,
        "validation is deterministic"
    );
    if let Some(built) = built {
        for icon in &built.icons {
            assert_eq!(sanitise_icon(&icon.contents).as_ref(), Ok(&icon.contents));
        }
    }
});
