//! The badge an agent's README shows, "ACP Registry | v1.2.3", and the snippets that link it to
//! the agent's page.
//!
//! [`badge_svg`] draws a flat badge the way shields.io does: text as real `<text>` (so it
//! reads in any SVG viewer, selectable and accessible, with a `<title>` and an `aria-label`),
//! each half as wide as its text measured with shields.io's character-width table of Verdana
//! at 11px (the `anafanafo` package, MIT; its Latin part is copied below, other characters
//! count as wide as `m`, as its consumer guesses), `textLength` making any fallback
//! font fit that width. Both halves are opaque, white text on `#555` and on indigo, so the badge
//! reads the same on light and dark pages. It has no script, no link, no external reference:
//! the only references are its own gradient and clip path.
//!
//! The version is registry text: control characters are dropped (XML cannot carry them),
//! whitespace is collapsed, a long one is cut with `…`, and it is escaped as XML text.
//!
//! [`badge_snippets`] gives the Markdown, HTML and reStructuredText that show the badge linked
//! to the page's canonical URL, with the entry's name in the alternative text, escaped for each
//! syntax (URLs are percent-encoded by [`SiteAddress`]).

use crate::address::SiteAddress;
use crate::model::Entry;

/// The left half's text.
pub const LABEL: &str = "ACP Registry";
/// The left half's colour.
pub const LABEL_COLOR: &str = "#555";
/// The right half's colour (white text on it has a contrast of 6.3:1).
pub const MESSAGE_COLOR: &str = "#4f46e5";
/// The longest version shown, in characters, before it is cut.
pub const MAX_VERSION_CHARS: usize = 32;

/// Widths of the characters from U+0020 to U+017F (Basic Latin, Latin-1 and Latin Extended-A)
/// in Verdana at 11px, in pixels, as shields.io measures them (`anafanafo`'s
/// `verdana-11px-normal.json`); control characters are 0, and `ÿ` and `ſ`, which the table
/// lacks, count as `m`.
const VERDANA_11: [f64; 352] = [
    3.87, 4.33, 5.05, 9.0, 6.99, 11.84, 7.99, 2.95, 5.0, 5.0, //
    6.99, 9.0, 4.0, 5.0, 4.0, 5.0, 6.99, 6.99, 6.99, 6.99, //
    6.99, 6.99, 6.99, 6.99, 6.99, 6.99, 5.0, 5.0, 9.0, 9.0, //
    9.0, 6.0, 11.0, 7.52, 7.54, 7.68, 8.48, 6.96, 6.32, 8.53, //
    8.27, 4.63, 5.0, 7.62, 6.12, 9.27, 8.23, 8.66, 6.63, 8.66, //
    7.65, 7.52, 6.78, 8.05, 7.52, 10.88, 7.54, 6.77, 7.54, 5.0, //
    5.0, 5.0, 9.0, 6.99, 6.99, 6.61, 6.85, 5.73, 6.85, 6.55, //
    3.87, 6.85, 6.96, 3.02, 3.79, 6.51, 3.02, 10.7, 6.96, 6.68, //
    6.85, 6.85, 4.69, 5.73, 4.33, 6.96, 6.51, 9.0, 6.51, 6.51, //
    5.78, 6.98, 5.0, 6.98, 9.0, 0.0, 0.0, 0.0, 0.0, 0.0, //
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, //
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, //
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.87, 4.33, //
    6.99, 6.99, 6.99, 6.99, 5.0, 6.99, 6.99, 11.0, 6.0, 7.09, //
    9.0, 0.0, 11.0, 6.99, 5.96, 9.0, 5.96, 5.96, 6.99, 7.06, //
    6.99, 4.0, 6.99, 5.96, 6.0, 7.09, 11.0, 11.0, 11.0, 6.0, //
    7.52, 7.52, 7.52, 7.52, 7.52, 7.52, 10.83, 7.68, 6.96, 6.96, //
    6.96, 6.96, 4.63, 4.63, 4.63, 4.63, 8.53, 8.23, 8.66, 8.66, //
    8.66, 8.66, 8.66, 9.0, 8.66, 8.05, 8.05, 8.05, 8.05, 6.77, //
    6.66, 6.82, 6.61, 6.61, 6.61, 6.61, 6.61, 6.61, 10.51, 5.73, //
    6.55, 6.55, 6.55, 6.55, 3.02, 3.02, 3.02, 3.02, 6.73, 6.96, //
    6.68, 6.68, 6.68, 6.68, 6.68, 9.0, 6.68, 6.96, 6.96, 6.96, //
    6.96, 6.51, 6.85, 10.7, 7.52, 6.61, 7.52, 6.61, 7.52, 6.61, //
    7.68, 5.73, 7.68, 5.73, 7.68, 5.73, 7.68, 5.73, 8.48, 7.12, //
    8.53, 6.85, 6.96, 6.55, 6.96, 6.55, 6.96, 6.55, 6.96, 6.55, //
    6.96, 6.55, 8.53, 6.85, 8.53, 6.85, 8.53, 6.85, 8.53, 6.85, //
    8.27, 6.96, 8.27, 6.96, 4.63, 3.02, 4.63, 3.02, 4.63, 3.02, //
    4.63, 3.02, 4.63, 3.02, 9.58, 6.75, 5.0, 3.79, 7.62, 6.51, //
    6.51, 6.12, 3.02, 6.12, 3.02, 6.12, 3.25, 6.12, 5.04, 6.18, //
    3.13, 8.23, 6.96, 8.23, 6.96, 8.23, 6.96, 8.04, 8.23, 6.96, //
    8.66, 6.68, 8.66, 6.68, 8.66, 6.68, 11.77, 10.8, 7.65, 4.69, //
    7.65, 4.69, 7.65, 4.69, 7.52, 5.73, 7.52, 5.73, 7.52, 5.73, //
    7.52, 5.73, 6.78, 4.33, 6.78, 4.33, 6.78, 4.33, 8.05, 6.96, //
    8.05, 6.96, 8.05, 6.93, 8.05, 6.96, 8.05, 6.96, 8.05, 6.93, //
    10.88, 9.0, 6.77, 6.51, 6.77, 7.54, 5.78, 7.54, 5.78, 7.54, //
    5.78, 10.7, //
];

/// The width of `m`: what a character missing from the table counts as.
const EM: f64 = 10.7;

/// The Markdown, HTML and reStructuredText that show an entry's badge linked to its page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadgeSnippets {
    /// `[![Gemini CLI on the ACP Registry](…/badge/gemini.svg)](…/agents/gemini/)`.
    pub markdown: String,
    /// `<a href="…"><img src="…" alt="…" /></a>` (well-formed XML too).
    pub html: String,
    /// An `.. image::` directive with `:target:` and `:alt:`.
    pub rst: String,
}

/// The text width shields.io gives `text` in Verdana 11px, rounded down to a whole pixel, then
/// up to an odd one (for the pixel grid).
pub fn text_width(text: &str) -> u32 {
    let width: f64 = text
        .chars()
        .map(|c| match u32::from(c) {
            code @ 32..=0x17F => VERDANA_11[(code - 32) as usize],
            code if code < 32 => 0.0,
            _ => EM,
        })
        .sum();
    let whole = width.floor() as u32;
    if whole.is_multiple_of(2) {
        whole + 1
    } else {
        whole
    }
}

/// The message of an entry's badge: its version as shown (`v1.2.3`; a leading `v` kept, not
/// doubled), cleaned and cut as the module docs say.
pub fn badge_message(version: &str) -> String {
    let version = clean(version);
    let version = match version.chars().next() {
        Some('v' | 'V') => version,
        _ => format!("v{version}"),
    };
    if version.chars().count() > MAX_VERSION_CHARS {
        let cut: String = version.chars().take(MAX_VERSION_CHARS - 1).collect();
        format!("{}…", cut.trim_end())
    } else {
        version
    }
}

/// The badge of an entry at this version, as an SVG document.
pub fn badge_svg(version: &str) -> String {
    let message = badge_message(version);
    let label_width = text_width(LABEL);
    let message_width = text_width(&message);
    let left = label_width + 10;
    let right = message_width + 10;
    let width = left + right;
    let title = escape_xml(&format!("{LABEL}: {message}"));
    let label_x = 10 * (1 + 5) + 5 * label_width;
    let message_x = 10 * (left - 1 + 5) + 5 * message_width;
    let texts = [
        (label_x, label_width * 10, escape_xml(LABEL)),
        (message_x, message_width * 10, escape_xml(&message)),
    ]
    .iter()
    .map(|(x, length, text)| {
        format!(
            "<text aria-hidden=\"true\" x=\"{x}\" y=\"150\" fill=\"#010101\" fill-opacity=\".3\" \
             transform=\"scale(.1)\" textLength=\"{length}\">{text}</text>\
             <text x=\"{x}\" y=\"140\" transform=\"scale(.1)\" fill=\"#fff\" \
             textLength=\"{length}\">{text}</text>"
        )
    })
    .collect::<String>();
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"20\" role=\"img\" \
         aria-label=\"{title}\"><title>{title}</title>\
         <linearGradient id=\"s\" x2=\"0\" y2=\"100%\"><stop offset=\"0\" stop-color=\"#bbb\" \
         stop-opacity=\".1\"/><stop offset=\"1\" stop-opacity=\".1\"/></linearGradient>\
         <clipPath id=\"r\"><rect width=\"{width}\" height=\"20\" rx=\"3\" fill=\"#fff\"/></clipPath>\
         <g clip-path=\"url(#r)\"><rect width=\"{left}\" height=\"20\" fill=\"{LABEL_COLOR}\"/>\
         <rect x=\"{left}\" width=\"{right}\" height=\"20\" fill=\"{MESSAGE_COLOR}\"/>\
         <rect width=\"{width}\" height=\"20\" fill=\"url(#s)\"/></g>\
         <g fill=\"#fff\" text-anchor=\"middle\" font-family=\"Verdana,Geneva,DejaVu Sans,sans-serif\" \
         text-rendering=\"geometricPrecision\" font-size=\"110\">{texts}</g></svg>\n"
    )
}

/// The snippets that show `entry`'s badge linked to its page on the site at `address`.
pub fn badge_snippets(entry: &Entry, address: &SiteAddress) -> BadgeSnippets {
    let page = address.page(entry);
    let badge = address.badge(entry);
    let alt = format!("{} on the ACP Registry", clean(&entry.name));
    BadgeSnippets {
        markdown: format!("[![{}]({badge})]({page})", escape_markdown(&alt)),
        html: format!(
            "<a href=\"{}\"><img src=\"{}\" alt=\"{}\" /></a>",
            escape_xml(&page),
            escape_xml(&badge),
            escape_xml(&alt)
        ),
        rst: format!(".. image:: {badge}\n   :target: {page}\n   :alt: {alt}"),
    }
}

/// Registry text for one line: control and other non-characters dropped, whitespace runs made
/// one space, trimmed.
pub(crate) fn clean(text: &str) -> String {
    text.split(|c: char| c.is_whitespace())
        .filter(|word| !word.is_empty())
        .map(|word| {
            word.chars()
                .filter(|&c| !c.is_control() && c != '\u{FFFE}' && c != '\u{FFFF}')
                .collect::<String>()
        })
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Text for XML or HTML, in element content or a double- or single-quoted attribute.
pub(crate) fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Text for Markdown: every ASCII punctuation character backslash-escaped (CommonMark allows
/// it for each), so none opens a link, an emphasis or an HTML tag.
fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_follow_the_verdana_table() {
        // Sums of the table (anafanafo's own results): "ACP Registry" is 71.03 px → 71, odd.
        for (text, expected) in [
            ("ACP Registry", 71),
            ("v1.2.3", 35),
            ("", 1),
            ("é", 7),
            ("ÿ", 11),
            ("漢", 11),
            ("a\u{7}b", 13),
        ] {
            assert_eq!(text_width(text), expected, "{text:?}");
        }
    }

    #[test]
    fn messages() {
        for (version, expected) in [
            ("1.2.3", "v1.2.3"),
            ("v2.0.0", "v2.0.0"),
            ("V2", "V2"),
            (" 1.0\n\t-beta\u{0}  ", "v1.0 -beta"),
            (
                "1.0.0-preview.1234567890123456789012345",
                "v1.0.0-preview.1234567890123456…",
            ),
        ] {
            assert_eq!(badge_message(version), expected, "{version:?}");
        }
    }
}
