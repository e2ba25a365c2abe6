//! The source line a diagnostic points at, and offsets for the browser's text selection.
//!
//! The line comes with a `^` marker under the span; byte spans become UTF-16 offsets, as the
//! textarea's `setSelectionRange` counts them.

use std::ops::Range;

use registry_validate::Span;

/// Lines longer than this are cut around the place, so the excerpt stays readable.
const MAX_CHARS: usize = 120;

/// One line of a file with a marker under the span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Excerpt {
    /// 1-based line number.
    pub line: usize,
    /// The line (or a window of it), tabs shown as spaces.
    pub text: String,
    /// Spaces, then `^` under the span's characters on this line (at least one).
    pub marker: String,
}

/// The excerpt of `text` at `span`, or `None` when the span is past the text's end.
pub fn excerpt(text: &str, span: Span) -> Option<Excerpt> {
    let line_text = text.split('\n').nth(span.line.checked_sub(1)?)?;
    let line_text = line_text.strip_suffix('\r').unwrap_or(line_text);
    let chars: Vec<char> = line_text
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let start = span.column.saturating_sub(1).min(chars.len());
    let span_chars = text
        .get(span.start..span.end)
        .map_or(1, |s| s.split('\n').next().unwrap_or("").chars().count())
        .max(1);
    // Show a window of the line when it is long (minified JSON is one long line).
    let first = if chars.len() > MAX_CHARS {
        start.saturating_sub(MAX_CHARS / 3)
    } else {
        0
    };
    let last = chars.len().min(first + MAX_CHARS);
    let mut shown: String = chars[first..last].iter().collect();
    let mut offset = start - first;
    if first > 0 {
        shown.insert(0, '…');
        offset += 1;
    }
    if last < chars.len() {
        shown.push('…');
    }
    let width = span_chars.min(last.saturating_sub(start)).max(1);
    Some(Excerpt {
        line: span.line,
        text: shown,
        marker: format!("{}{}", " ".repeat(offset), "^".repeat(width)),
    })
}

/// `range` (byte offsets into `text`) as UTF-16 offsets, as `setSelectionRange` counts them.
pub fn utf16_range(text: &str, range: Range<usize>) -> Range<u32> {
    let at = |byte: usize| -> u32 {
        let mut byte = byte.min(text.len());
        while !text.is_char_boundary(byte) {
            byte -= 1;
        }
        u32::try_from(text[..byte].encode_utf16().count()).unwrap_or(u32::MAX)
    };
    at(range.start)..at(range.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_the_span_on_its_line() {
        let text = "{\n  \"version\": \"1.2\",\n}";
        let start = text.find("\"1.2\"").unwrap();
        let span = Span::new(text, start..start + 5);
        let e = excerpt(text, span).unwrap();
        assert_eq!(e.line, 2);
        assert_eq!(e.text, "  \"version\": \"1.2\",");
        assert_eq!(e.marker, "             ^^^^^");
    }

    #[test]
    fn long_lines_are_windowed_around_the_place() {
        let text = format!("{{\"a\": \"{}\", \"id\": \"Bad\"}}", "x".repeat(300));
        let start = text.find("\"Bad\"").unwrap();
        let e = excerpt(&text, Span::new(&text, start..start + 5)).unwrap();
        assert!(e.text.starts_with('…') && e.text.chars().count() <= MAX_CHARS + 2);
        let caret = e.marker.find('^').unwrap();
        let under: String = e.text.chars().skip(caret).take(5).collect();
        assert_eq!(under, "\"Bad\"");
    }

    #[test]
    fn whole_file_spans_and_past_the_end() {
        let text = "<svg/>";
        let e = excerpt(text, Span::new(text, 0..0)).unwrap();
        assert_eq!((e.text.as_str(), e.marker.as_str()), ("<svg/>", "^"));
        let mut span = Span::new(text, 0..0);
        span.line = 9;
        assert_eq!(excerpt(text, span), None);
    }

    #[test]
    fn selection_counts_utf16_units() {
        let text = "é😀x";
        assert_eq!(utf16_range(text, 0..2), 0..1);
        assert_eq!(utf16_range(text, 2..6), 1..3);
        assert_eq!(utf16_range(text, 6..99), 3..4);
        assert_eq!(
            utf16_range(text, 3..3),
            1..1,
            "inside a character: its start"
        );
    }
}
