//! Entry ids: the registry's slug rule, a valid suggestion for any id that breaks it, and what an
//! id may safely become — a file name, a page address.
//!
//! The registry's schema and CI accept an id when it is a *slug*, `^[a-z][a-z0-9-]*$`
//! ([`is_slug`]). A published registry is not bound by its CI (a mirror, a fork or an
//! AgentRegistry service can list anything), so the loader still reads an entry whose id is not
//! a slug, with a warning, and every use of an id goes through one of these:
//!
//! - [`slugify`]: a slug near any text, for hints; always a valid id, never longer than
//!   [`MAX_LEN`];
//! - [`is_file_name`]: whether the id can name a file or folder as it is (the pre-rendered
//!   `agents/<id>/` folder, the `<id>.svg` icon, the install folder of the run snippets);
//! - [`path_segment`] and [`from_path_segment`]: the id as one percent-encoded segment of a page
//!   address, and back. Only `.` and `..` have none: a browser resolves them (even encoded, as
//!   `%2E%2E`) as "this folder" and "the parent folder", so the loader refuses such ids.
//!
//! The maintainer tools (`registry-validate`) check manifests against the same [`is_slug`] and
//! [`MAX_LEN`], so the site and the validator never disagree on what an id may be.
//!
//! `MAX_LEN` is 128 bytes.

use std::borrow::Cow;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};

/// The longest id, in bytes, that [`is_file_name`] accepts and the validator allows: far under
/// the 255-byte name limit of common file systems, leaving room for the suffixes written beside
/// it (`<id>.svg`, a download's `.download`) and for Windows's 260-character paths.
pub const MAX_LEN: usize = 128;

/// What [`slugify`] suggests when the text has no ASCII letter or digit to start from.
const FALLBACK: &str = "agent";

/// Every byte but ASCII letters, digits, `-`, `_` and `.` is percent-encoded in a path segment.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.');

/// Whether `id` follows the registry's rule: a lowercase ASCII letter, then lowercase ASCII
/// letters, digits and `-` (`^[a-z][a-z0-9-]*$`, the schema's `pattern`).
///
/// ```
/// use registry_core::id::is_slug;
/// assert!(is_slug("gemini-cli"));
/// assert!(!is_slug("1agent") && !is_slug("My Agent") && !is_slug("a/b") && !is_slug(""));
/// ```
pub fn is_slug(id: &str) -> bool {
    let mut bytes = id.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_lowercase())
        && bytes.all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A slug near `text`, for a hint: ASCII letters and digits lowercased, every other run of
/// characters one `-`, `agent-` before a leading digit, `agent` when nothing is left, and cut to
/// [`MAX_LEN`]. The result always passes [`is_slug`] and [`is_file_name`].
///
/// ```
/// use registry_core::id::slugify;
/// assert_eq!(slugify("My Agent!"), "my-agent");
/// assert_eq!(slugify("1agent"), "agent-1agent");
/// assert_eq!(slugify("../../.."), "agent");
/// ```
pub fn slugify(text: &str) -> String {
    let mut slug = String::with_capacity(text.len().min(MAX_LEN));
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if slug.is_empty() && c.is_ascii_digit() {
                slug.push_str(FALLBACK);
                slug.push('-');
            }
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
        if slug.len() >= MAX_LEN {
            break;
        }
    }
    slug.truncate(MAX_LEN);
    let slug = slug.trim_end_matches('-');
    if slug.is_empty() {
        FALLBACK.to_owned()
    } else {
        slug.to_owned()
    }
}

/// Whether `id` can name a file or folder as it is, on every common file system and without
/// care in a shell: 1 to [`MAX_LEN`] bytes of ASCII letters, digits, `-`, `_` and `.`, not
/// starting with `.` (so neither `.` nor `..`, nor a hidden file).
///
/// Every slug up to [`MAX_LEN`] bytes is one; so are a few ids the registry would refuse
/// (`Agent`, `v1.2_beta`).
///
/// ```
/// use registry_core::id::is_file_name;
/// assert!(is_file_name("gemini") && is_file_name("v1.2_beta"));
/// assert!(!is_file_name("../x") && !is_file_name(".hidden") && !is_file_name("a b"));
/// assert!(!is_file_name(&"a".repeat(300)));
/// ```
pub fn is_file_name(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_LEN
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// `id` as one segment of a page address: every byte but ASCII letters, digits, `-`, `_` and `.`
/// percent-encoded (`a/b` → `a%2Fb`, `x?q` → `x%3Fq`), so the address names this id's page and
/// no other. A slug is its own segment.
///
/// `None` for `""`, `.` and `..`, which no segment can carry: browsers read `.`, `..` and their
/// encodings (`%2E%2E`) as "this folder" and "the parent folder".
///
/// ```
/// use registry_core::id::path_segment;
/// assert_eq!(path_segment("gemini").as_deref(), Some("gemini"));
/// assert_eq!(path_segment("../../..").as_deref(), Some("..%2F..%2F.."));
/// assert_eq!(path_segment(".."), None);
/// ```
pub fn path_segment(id: &str) -> Option<Cow<'_, str>> {
    if matches!(id, "" | "." | "..") {
        return None;
    }
    Some(utf8_percent_encode(id, SEGMENT).into())
}

/// The id a page address segment names: the inverse of [`path_segment`]. `None` when the
/// segment does not decode to UTF-8.
///
/// ```
/// use registry_core::id::from_path_segment;
/// assert_eq!(from_path_segment("a%2Fb").as_deref(), Some("a/b"));
/// assert_eq!(from_path_segment("gemini").as_deref(), Some("gemini"));
/// ```
pub fn from_path_segment(segment: &str) -> Option<Cow<'_, str>> {
    percent_decode_str(segment).decode_utf8().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_follow_the_registry_pattern() {
        let table = [
            ("a", true),
            ("my-agent", true),
            ("a1-", true),
            ("gemini-cli", true),
            ("", false),
            ("1agent", false),
            ("-a", false),
            ("My-agent", false),
            ("my_agent", false),
            ("my agent", false),
            ("é", false),
            ("a/b", false),
            ("a%2Fb", false),
            ("..", false),
        ];
        for (id, expected) in table {
            assert_eq!(is_slug(id), expected, "{id:?}");
        }
    }

    #[test]
    fn suggestions_are_always_valid_ids() {
        let table = [
            ("My Agent!", "my-agent"),
            ("1agent", "agent-1agent"),
            ("a_b", "a-b"),
            ("agent_x!", "agent-x"),
            ("  Gemini CLI  ", "gemini-cli"),
            ("", "agent"),
            ("!!!", "agent"),
            ("../../..", "agent"),
            ("é", "agent"),
            ("Gémini", "g-mini"),
            ("x?q=1", "x-q-1"),
            ("---a---", "a"),
        ];
        for (text, expected) in table {
            let slug = slugify(text);
            assert_eq!(slug, expected, "{text:?}");
            assert!(is_slug(&slug) && is_file_name(&slug), "{text:?} → {slug:?}");
        }
        let long = slugify(&"ab-".repeat(100));
        assert!(long.len() <= MAX_LEN && is_slug(&long), "{long}");
    }

    #[test]
    fn file_names_are_plain_and_bounded() {
        let table = [
            ("gemini", true),
            ("claude-acp", true),
            ("v1.2_beta", true),
            ("Agent", true),
            ("", false),
            (".", false),
            ("..", false),
            (".hidden", false),
            ("../../etc", false),
            ("a/b", false),
            ("a\\b", false),
            ("my agent", false),
            ("é", false),
            ("a%2Fb", false),
            ("C:", false),
        ];
        for (id, expected) in table {
            assert_eq!(is_file_name(id), expected, "{id:?}");
        }
        assert!(is_file_name(&"a".repeat(MAX_LEN)));
        assert!(!is_file_name(&"a".repeat(MAX_LEN + 1)));
        assert!(!is_file_name(&"a".repeat(300)));
    }

    #[test]
    fn path_segments_name_exactly_one_page() {
        let table = [
            ("gemini", Some("gemini")),
            ("a/b", Some("a%2Fb")),
            ("a%2Fb", Some("a%252Fb")),
            ("x?q=1#y", Some("x%3Fq%3D1%23y")),
            ("../../..", Some("..%2F..%2F..")),
            ("..%2F..", Some("..%252F..")),
            ("a.b", Some("a.b")),
            ("...", Some("...")),
            ("é", Some("%C3%A9")),
            ("a b", Some("a%20b")),
            ("", None),
            (".", None),
            ("..", None),
        ];
        for (id, expected) in table {
            let segment = path_segment(id);
            assert_eq!(segment.as_deref(), expected, "{id:?}");
            if let Some(segment) = segment {
                assert!(
                    segment
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-_.%".contains(&b)),
                    "{segment}"
                );
                assert_eq!(from_path_segment(&segment).as_deref(), Some(id));
            }
        }
        assert_eq!(from_path_segment("%FF"), None);
    }

    proptest::proptest! {
        #[test]
        fn every_id_but_dots_round_trips_through_its_segment(id in "\\PC{0,12}") {
            match path_segment(&id) {
                Some(segment) => {
                    proptest::prop_assert!(!segment.contains(['/', '?', '#', '\\']));
                    let back = from_path_segment(&segment);
                    proptest::prop_assert_eq!(back.as_deref(), Some(id.as_str()));
                }
                None => proptest::prop_assert!(matches!(id.as_str(), "" | "." | "..")),
            }
        }

        #[test]
        fn slugify_always_suggests_a_valid_id(text in "\\PC{0,200}") {
            let slug = slugify(&text);
            proptest::prop_assert!(is_slug(&slug) && is_file_name(&slug), "{:?}", slug);
        }
    }
}
