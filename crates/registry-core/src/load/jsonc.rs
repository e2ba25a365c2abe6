//! JSONC to JSON: comments and trailing commas blanked out, so every line and column of the
//! text the maintainer wrote stays where it was.

/// JSONC to JSON: comments and trailing commas become spaces, so every other byte keeps its
/// offset and every line and column stays where it was. `None` when there was nothing to strip.
///
/// Public so the maintainer tools (`registry-validate`) read manifests exactly as the site does
/// and can point at a place in the text the maintainer wrote.
pub fn strip_jsonc(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    let mut in_string = false;
    let mut pending_comma = None;
    let mut changed = false;
    while let Some((_, c)) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => {
                    if let Some((_, escaped)) = chars.next() {
                        out.push(escaped);
                    }
                }
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        let comment_end = match (c, chars.peek()) {
            ('/', Some((_, '/'))) => Some("\n"),
            ('/', Some((_, '*'))) => Some("*/"),
            _ => None,
        };
        if let Some(end) = comment_end {
            changed = true;
            out.push(' ');
            let (_, opener) = chars.next().unwrap_or((0, ' '));
            blank(&mut out, opener);
            let mut last = ' ';
            for (_, c) in chars.by_ref() {
                if end == "\n" && c == '\n' {
                    out.push('\n');
                    break;
                }
                blank(&mut out, c);
                if end == "*/" && last == '*' && c == '/' {
                    break;
                }
                last = c;
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            ',' => {
                pending_comma = Some(out.len());
                out.push(c);
                continue;
            }
            ']' | '}' => {
                if let Some(at) = pending_comma {
                    out.replace_range(at..at + 1, " ");
                    changed = true;
                }
            }
            _ => {}
        }
        if !c.is_whitespace() {
            pending_comma = None;
        }
        out.push(c);
    }
    changed.then_some(out)
}

/// Replaces a character by as many spaces as it has bytes, keeping line breaks.
fn blank(out: &mut String, c: char) {
    if c == '\n' || c == '\r' {
        out.push(c);
    } else {
        out.extend(std::iter::repeat_n(' ', c.len_utf8()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_strip(input: &str, expect: Option<&str>) {
        let got = strip_jsonc(input);
        assert_eq!(got.as_deref(), expect, "input: {input:?}");
        if let Some(got) = got {
            assert_eq!(got.len(), input.len(), "byte length kept: {input:?}");
            let lines = |s: &str| s.match_indices('\n').map(|(i, _)| i).collect::<Vec<_>>();
            assert_eq!(lines(&got), lines(input), "line breaks kept: {input:?}");
        }
    }

    #[test]
    fn strips_comments_and_trailing_commas() {
        let table: &[(&str, Option<&str>)] = &[
            (r#"{"a": 1}"#, None),
            (r#"{"a": "// not a comment /* nor this */"}"#, None),
            (r#"{"a": "x\"// still a string"}"#, None),
            ("{\"a\": 1} // note", Some("{\"a\": 1}        ")),
            ("{\"a\": 1, // note\n}", Some("{\"a\": 1         \n}")),
            ("/* é */{}", Some("        {}")),
            ("{/* a\nb */}", Some("{    \n    }")),
            ("[1, 2,]", Some("[1, 2 ]")),
            ("[1, 2, /* c */ ]", Some("[1, 2          ]")),
            ("{\"a\": [1,],}", Some("{\"a\": [1 ] }")),
            ("[1 /* unterminated", Some("[1                ")),
            ("[\"a,\"]", None),
            ("// only\n", Some("       \n")),
            ("a/b", None),
        ];
        for &(input, expect) in table {
            check_strip(input, expect);
        }
    }

    proptest::proptest! {
        #[test]
        fn stripping_keeps_every_offset(text in "[ -~\n\t é]{0,80}") {
            if let Some(stripped) = strip_jsonc(&text) {
                proptest::prop_assert_eq!(stripped.len(), text.len());
                for (a, b) in stripped.bytes().zip(text.bytes()) {
                    proptest::prop_assert!(a == b || a == b' ', "only blanked: {:?}", text);
                }
            }
        }
    }
}
