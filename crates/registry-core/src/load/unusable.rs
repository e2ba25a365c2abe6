//! Naming a text that cannot be used at all: nothing, an HTML page, nesting deeper than the
//! parser reads, a syntax error, or valid JSON of the wrong shape, each as a [`LoadError`].

use serde_json::Value;

use super::diagnostic::{LoadError, describe, parser_message, position};

/// A syntax error, with its position in characters.
pub(super) fn json_error(text: &str, err: &serde_json::Error) -> LoadError {
    let (line, column) = position(text, err);
    LoadError::Json {
        line,
        column,
        message: parser_message(err),
    }
}

/// How deep serde_json reads nested arrays and objects into a [`Value`].
const DEPTH_LIMIT: usize = 128;

/// A text that is plainly not a registry, named before any parsing: nothing, an HTML page, or
/// a top-level array (which serde would otherwise read as the fields of a struct, in order).
pub(super) fn unusable(text: &str) -> Option<LoadError> {
    let body = text.trim_start_matches('\u{feff}').trim_start();
    match body.as_bytes().first() {
        None => Some(LoadError::Empty { bytes: text.len() }),
        Some(b'<') => Some(LoadError::Html {
            title: html_title(body),
        }),
        Some(b'[') => Some(too_deep(text).unwrap_or(LoadError::NotAnObject { found: "an array" })),
        _ => None,
    }
}

/// The `<title>` of an HTML text, white space collapsed, cut to 80 characters; looked for in
/// its first 4 KiB only.
fn html_title(html: &str) -> Option<String> {
    let mut head = html.len().min(4096);
    while !html.is_char_boundary(head) {
        head -= 1;
    }
    let head = &html[..head];
    let lower = head.to_ascii_lowercase();
    let open = lower.find("<title")?;
    let start = open + lower[open..].find('>')? + 1;
    let end = start + lower[start..].find("</title")?;
    let words: Vec<&str> = head[start..end].split_whitespace().collect();
    let title = words.join(" ");
    let cut: String = title.chars().take(80).collect();
    match (cut.is_empty(), cut.len() < title.len()) {
        (true, _) => None,
        (false, true) => Some(format!("{cut}…")),
        (false, false) => Some(cut),
    }
}

/// Where `text` nests arrays and objects deeper than [`DEPTH_LIMIT`], if it does (brackets in
/// strings do not count).
fn too_deep(text: &str) -> Option<LoadError> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let (mut line, mut line_start) = (1usize, 0usize);
    for (at, byte) in text.bytes().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > DEPTH_LIMIT {
                    let column = text[line_start..=at].chars().count();
                    return Some(LoadError::TooDeep {
                        limit: DEPTH_LIMIT,
                        line,
                        column,
                    });
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'\n' => {
                line += 1;
                line_start = at + 1;
            }
            _ => {}
        }
    }
    None
}

/// A valid JSON text of the wrong shape; the slow path, so it may parse again.
pub(super) fn shape_error(text: &str, err: &serde_json::Error) -> LoadError {
    if let Some(deep) = too_deep(text) {
        return deep;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(top)) => {
            for key in ["agents", "extensions"] {
                match top.get(key) {
                    None | Some(Value::Array(_)) => {}
                    Some(other) => {
                        return LoadError::NotAnArray {
                            key,
                            found: describe(other),
                        };
                    }
                }
            }
        }
        Ok(other) => {
            return LoadError::NotAnObject {
                found: describe(&other),
            };
        }
        Err(_) => {}
    }
    let (line, column) = position(text, err);
    LoadError::Structure {
        line,
        column,
        message: parser_message(err),
    }
}
