//! Validation never panics, whatever the bytes of a manifest or an icon.

use proptest::prelude::*;
use registry_validate::{DEFAULT_BASE_URL, Endpoints, Files, build};

const SCHEMA: &str =
    include_str!("../../../tests/fixtures/real-registry-2026/source/agent.schema.json");
const ICON: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><path fill="currentColor" style="fill: currentColor" d="M0 0h16v16H0z"/><style>.a { stroke: none }</style></svg>"#;
const MANIFEST: &str = r#"{"id": "a", "name": "A", "version": "1.0.0", "description": "d", "distribution": {"binary": {"linux-x86_64": {"archive": "https://github.com/o/a/releases/download/v1.0.0/a.tgz", "cmd": "a"}}, "npx": {"package": "a@1.0.0"}, "uvx": {"package": "a==1.0.0"}}}"#;

/// Validates, builds and lists the remote checks: all that matters is that nothing panics.
fn run(manifest: &[u8], icon: &[u8]) {
    let files: Files = [
        ("agent.schema.json", SCHEMA.as_bytes().to_vec()),
        ("a/agent.json", manifest.to_vec()),
        ("a/icon.svg", icon.to_vec()),
        ("a/icon-dark.svg", icon.to_vec()),
    ]
    .into_iter()
    .collect();
    let (_, validation) = build(&files, DEFAULT_BASE_URL);
    let _ = validation.remote_checks(&Endpoints::default());
    for diagnostic in &validation.diagnostics {
        let _ = diagnostic.to_string();
    }
}

/// A text with one character replaced, inserted or removed.
fn mutated(text: &'static str) -> impl Strategy<Value = String> {
    (0..text.len(), any::<char>(), 0..3u8).prop_map(move |(at, c, how)| {
        let mut at = at;
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let mut out = text.to_owned();
        match how {
            0 => out.insert(at, c),
            1 => {
                out.remove(at);
            }
            _ => {
                out.remove(at);
                out.insert(at, c);
            }
        }
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes(manifest in proptest::collection::vec(any::<u8>(), 0..300),
                       icon in proptest::collection::vec(any::<u8>(), 0..300)) {
        run(&manifest, &icon);
    }

    #[test]
    fn json_and_xml_like_text(manifest in r#"[{}\[\]":,a-z0-9 .@/\n-]{0,200}"#,
                              icon in r#"<svg [<>/="' a-zA-Z!:#();{}.0-9\n-]{0,200}"#) {
        run(manifest.as_bytes(), icon.as_bytes());
    }

    #[test]
    fn near_valid_files(manifest in mutated(MANIFEST), icon in mutated(ICON)) {
        run(manifest.as_bytes(), icon.as_bytes());
    }
}
