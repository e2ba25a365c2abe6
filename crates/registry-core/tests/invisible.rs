//! The invisible-character ranges of `registry_core::invisible`, written out to keep the site's
//! wasm small, checked against Unicode's own tables for every code point.

use registry_core::invisible::classify;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Whether Unicode says `c` is one `classify` must name: a control, a format character, a line or
/// paragraph separator, a space other than U+0020, or a default-ignorable code point (which the
/// TR39 skeleton drops, leaving nothing).
fn unicode_says_invisible(c: char) -> bool {
    let category = c.general_category();
    matches!(
        category,
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    ) || (category == GeneralCategory::SpaceSeparator && c != ' ')
        || unicode_security::skeleton(&c.to_string()).next().is_none()
}

#[test]
fn the_ranges_are_exactly_unicodes() {
    let mut missing = Vec::new();
    let mut extra = Vec::new();
    for c in (0..=0x10FFFF).filter_map(char::from_u32) {
        match (unicode_says_invisible(c), classify(c).is_some()) {
            (true, false) => missing.push(format!("U+{:04X}", u32::from(c))),
            (false, true) => extra.push(format!("U+{:04X}", u32::from(c))),
            _ => {}
        }
    }
    assert_eq!(
        missing,
        Vec::<String>::new(),
        "invisible but not classified"
    );
    assert_eq!(extra, Vec::<String>::new(), "classified but visible");
}
