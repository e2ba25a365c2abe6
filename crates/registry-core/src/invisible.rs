//! Characters a reader cannot see: controls, bidi controls, zero-width and other invisible
//! characters, and spaces that are not the space.
//!
//! Registry text is written by strangers, and some characters change what a reader sees
//! without being seen themselves: a bidi override makes `--safe -- && rm -rf ~` display in
//! another order, a zero-width space splits a word without a gap, a control character in a
//! pasted command edits the line it is typed into (`\x15` erases it, `\x1b[201~` ends bracketed
//! paste). [`classify`] names them, [`reveal`] shows them as escapes, and the snippets write
//! them in each language's own escape syntax so that what is shown is what is copied.
//!
//! The set is Unicode's `Cc` (controls), `Cf` (format characters, bidi controls among them),
//! `Zl`/`Zp` (line and paragraph separators), every `Zs` space but U+0020, and
//! `Default_Ignorable_Code_Point`. It is written out here, a few dozen ranges, rather than
//! brought in with a general-category table the site's wasm would carry; a test checks it
//! against `unicode-properties` and `unicode-security` for every code point.
//!
//! An invisible character is a control, a bidi control, a format character or a space
//! (`Invisible`); `collect` gathers those of several texts, each once, `reveal` writes each as a
//! `\u{…}` escape for display, and `name`/`names` name them for sentences (`U+202E
//! (right-to-left override)`).

use std::borrow::Cow;
use std::fmt::Write as _;

/// What kind of invisible character a character is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Invisible {
    /// A C0 or C1 control character or DEL (tab and line feed included: they look like spaces
    /// and line breaks, and a terminal acts on the others).
    Control,
    /// A bidirectional control (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069): it
    /// reorders the text around it on screen.
    Bidi,
    /// A zero-width or otherwise invisible format character (U+200B zero-width space, U+2060 word
    /// joiner, U+FEFF, U+00AD soft hyphen, variation selectors, tag characters…).
    Format,
    /// A space or line break that is not U+0020 or a line feed (U+00A0 no-break space, U+2028
    /// line separator, U+3000…): it looks like one but is not.
    Space,
}

impl Invisible {
    /// `a control character`, `a bidi control`, … for sentences.
    pub fn describe(self) -> &'static str {
        match self {
            Invisible::Control => "a control character",
            Invisible::Bidi => "a bidi control, which reorders the text around it",
            Invisible::Format => "an invisible character",
            Invisible::Space => "a space that is not a plain space",
        }
    }
}

/// What kind of invisible character `c` is, if it is one.
///
/// ```
/// use registry_core::invisible::{Invisible, classify};
/// assert_eq!(classify('\u{202E}'), Some(Invisible::Bidi));
/// assert_eq!(classify('\u{200B}'), Some(Invisible::Format));
/// assert_eq!(classify('\u{15}'), Some(Invisible::Control));
/// assert_eq!(classify('é'), None);
/// assert_eq!(classify(' '), None);
/// ```
pub fn classify(c: char) -> Option<Invisible> {
    if c.is_ascii() {
        return c.is_ascii_control().then_some(Invisible::Control);
    }
    let code = u32::from(c);
    if c.is_control() {
        Some(Invisible::Control)
    } else if BIDI.iter().any(|&(low, high)| (low..=high).contains(&code)) {
        Some(Invisible::Bidi)
    } else if SPACES
        .iter()
        .any(|&(low, high)| (low..=high).contains(&code))
    {
        Some(Invisible::Space)
    } else if FORMAT
        .iter()
        .any(|&(low, high)| (low..=high).contains(&code))
    {
        Some(Invisible::Format)
    } else {
        None
    }
}

/// Whether `text` holds any character [`classify`] names.
pub fn contains(text: &str) -> bool {
    if text.is_ascii() {
        return text.bytes().any(|b| b.is_ascii_control());
    }
    text.chars().any(|c| classify(c).is_some())
}

/// The distinct invisible characters of `texts`, in the order they first appear.
pub fn collect<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<char> {
    let mut found = Vec::new();
    for text in texts.into_iter().filter(|text| contains(text)) {
        for c in text.chars() {
            if classify(c).is_some() && !found.contains(&c) {
                found.push(c);
            }
        }
    }
    found
}

/// `text` with each invisible character shown as `\u{…}` (and `\` itself as `\\`, so that the
/// shown text reads back unambiguously), for displaying registry text as it really is.
///
/// ```
/// use registry_core::invisible::reveal;
/// assert_eq!(reveal("Gemini\u{200B} CLI"), r"Gemini\u{200B} CLI");
/// assert_eq!(reveal("plain"), "plain");
/// ```
pub fn reveal(text: &str) -> Cow<'_, str> {
    if !contains(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\\' => out.push_str(r"\\"),
            c if classify(c).is_some() => {
                let _ = write!(out, "\\u{{{:04X}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `U+202E (right-to-left override)` or `U+0015 (a control character)`: a character named for a
/// sentence.
pub fn name(c: char) -> String {
    let code = u32::from(c);
    let what = NAMES
        .iter()
        .find(|&&(named, _)| named == c)
        .map(|&(_, name)| name)
        .or_else(|| classify(c).map(Invisible::describe))
        .unwrap_or("a visible character");
    format!("U+{code:04X} ({what})")
}

/// [`name`] of each character, joined with commas.
pub fn names(chars: &[char]) -> String {
    chars
        .iter()
        .map(|&c| name(c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Names of the invisible characters people meet most.
const NAMES: [(char, &str); 22] = [
    ('\t', "tab"),
    ('\n', "line feed"),
    ('\r', "carriage return"),
    ('\u{1b}', "escape, which starts terminal control sequences"),
    ('\u{7f}', "delete"),
    ('\u{a0}', "no-break space"),
    ('\u{ad}', "soft hyphen"),
    ('\u{61c}', "Arabic letter mark"),
    ('\u{200b}', "zero-width space"),
    ('\u{200c}', "zero-width non-joiner"),
    ('\u{200d}', "zero-width joiner"),
    ('\u{200e}', "left-to-right mark"),
    ('\u{200f}', "right-to-left mark"),
    ('\u{202a}', "left-to-right embedding"),
    ('\u{202b}', "right-to-left embedding"),
    ('\u{202c}', "pop directional formatting"),
    ('\u{202d}', "left-to-right override"),
    ('\u{202e}', "right-to-left override"),
    ('\u{2066}', "left-to-right isolate"),
    ('\u{2067}', "right-to-left isolate"),
    ('\u{2068}', "first strong isolate"),
    ('\u{2069}', "pop directional isolate"),
];

/// Bidi_Control.
const BIDI: [(u32, u32); 4] = [
    (0x061C, 0x061C),
    (0x200E, 0x200F),
    (0x202A, 0x202E),
    (0x2066, 0x2069),
];

/// Zs but U+0020, Zl and Zp.
const SPACES: [(u32, u32); 7] = [
    (0x00A0, 0x00A0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
];

/// Cf and Default_Ignorable_Code_Point, bidi controls and spaces left to the lists above.
const FORMAT: [(u32, u32); 24] = [
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x0600, 0x0605),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200D),
    (0x2060, 0x2065),
    (0x206A, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_characters_of_the_issue_are_invisible() {
        let table = [
            ('\u{0}', Some(Invisible::Control)),
            ('\u{15}', Some(Invisible::Control)),
            ('\u{1b}', Some(Invisible::Control)),
            ('\t', Some(Invisible::Control)),
            ('\n', Some(Invisible::Control)),
            ('\u{7f}', Some(Invisible::Control)),
            ('\u{85}', Some(Invisible::Control)),
            ('\u{9b}', Some(Invisible::Control)),
            ('\u{202a}', Some(Invisible::Bidi)),
            ('\u{202e}', Some(Invisible::Bidi)),
            ('\u{2066}', Some(Invisible::Bidi)),
            ('\u{2069}', Some(Invisible::Bidi)),
            ('\u{200e}', Some(Invisible::Bidi)),
            ('\u{200f}', Some(Invisible::Bidi)),
            ('\u{61c}', Some(Invisible::Bidi)),
            ('\u{200b}', Some(Invisible::Format)),
            ('\u{200d}', Some(Invisible::Format)),
            ('\u{2060}', Some(Invisible::Format)),
            ('\u{feff}', Some(Invisible::Format)),
            ('\u{ad}', Some(Invisible::Format)),
            ('\u{e0041}', Some(Invisible::Format)),
            ('\u{fe0f}', Some(Invisible::Format)),
            ('\u{a0}', Some(Invisible::Space)),
            ('\u{2028}', Some(Invisible::Space)),
            ('\u{3000}', Some(Invisible::Space)),
            (' ', None),
            ('a', None),
            ('~', None),
            ('é', None),
            ('е', None),
            ('中', None),
            ('🦀', None),
            ('\u{301}', None),
        ];
        for (c, expected) in table {
            assert_eq!(classify(c), expected, "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn revealed_text_shows_every_invisible_character() {
        let table = [
            ("plain text", "plain text"),
            (
                "--safe\u{202E}-- && rm -rf ~",
                r"--safe\u{202E}-- && rm -rf ~",
            ),
            ("a\u{15}b\u{1b}[201~", r"a\u{0015}b\u{001B}[201~"),
            ("a\\u{41}\u{200B}", r"a\\u{41}\u{200B}"),
            ("Gemini\u{a0}CLI", r"Gemini\u{00A0}CLI"),
        ];
        for (text, expected) in table {
            assert_eq!(reveal(text), expected, "{text:?}");
            assert!(!contains(&reveal(text)), "{text:?}");
        }
        assert!(matches!(reveal("x"), Cow::Borrowed(_)));
    }

    #[test]
    fn characters_are_named_for_sentences() {
        assert_eq!(name('\u{202E}'), "U+202E (right-to-left override)");
        assert_eq!(name('\u{15}'), "U+0015 (a control character)");
        assert_eq!(name('\u{e0041}'), "U+E0041 (an invisible character)");
        assert_eq!(
            names(&collect(["a\u{200B}b", "\u{200B}\u{a0}"])),
            "U+200B (zero-width space), U+00A0 (no-break space)"
        );
    }
}
