//! The icon sanitiser on any text: what it writes is well-formed, is its own sanitised form and
//! breaks no safety rule; and it never refuses an icon the validator accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use registry_validate::{Files, Rule, Severity, sanitise_icon, validate};

const MANIFEST: &[u8] = br#"{"id": "a", "name": "A", "version": "1.0.0", "description": "d", "distribution": {"npx": {"package": "a@1.0.0"}}}"#;

/// The icon errors the validator finds in `icon`.
fn icon_errors(icon: &[u8]) -> Vec<Rule> {
    let mut files = Files::new();
    files.insert("a/agent.json", MANIFEST.to_vec());
    files.insert("a/icon.svg", icon.to_vec());
    validate(&files)
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == Severity::Error && d.file == "a/icon.svg")
        .map(|d| d.rule)
        .collect()
}

const SAFETY: [Rule; 9] = [
    Rule::IconScript,
    Rule::IconEventHandler,
    Rule::IconExternalReference,
    Rule::IconForeignObject,
    Rule::IconDtd,
    Rule::IconAnimation,
    Rule::IconCssEscape,
    Rule::IconTooLarge,
    Rule::IconXml,
];

fuzz_target!(|data: &[u8]| {
    let errors = icon_errors(data);
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let sanitised = sanitise_icon(text);
    if errors.is_empty() {
        assert!(sanitised.is_ok(), "accepted but refused: {sanitised:?}");
    }
    if let Ok(clean) = sanitised {
        roxmltree::Document::parse(&clean).expect("sanitised icons are well-formed");
        assert_eq!(
            sanitise_icon(&clean).as_ref(),
            Ok(&clean),
            "sanitising is idempotent"
        );
        let broken: Vec<Rule> = icon_errors(clean.as_bytes())
            .into_iter()
            .filter(|rule| SAFETY.contains(rule))
            .collect();
        assert_eq!(broken, [], "{clean}");
    }
});
