//! The diagnostic vocabulary: how bad a problem is ([`Severity`]), where it is ([`Location`]),
//! what is said about it ([`Diagnostic`]), and the [`LoadError`] of a text that cannot be used at
//! all; with the phrasing every reader shares (a value's kind, a parser's message and position).

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::model::Kind;

/// How bad a problem is, for the loader and the validator alike (serialised in lowercase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The entry cannot be used: the loader leaves it out, the registry's CI rejects it.
    Error,
    /// Worth fixing, but the entry is still read and published.
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Where a problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// The registry as a whole.
    Registry,
    /// One entry of `agents[]` or `extensions[]`.
    Entry {
        /// The array it is in.
        kind: Kind,
        /// Its 0-based index in that array.
        index: usize,
        /// Its `id`, when one could be read.
        id: Option<String>,
    },
    /// One item of a page of an [AgentRegistry](crate::agentregistry) discovery listing.
    Item {
        /// The 1-based page it came on.
        page: u32,
        /// Its 0-based index in that page's `items`.
        index: usize,
        /// Its `id`, when one could be read.
        id: Option<String>,
    },
}

impl fmt::Display for Location {
    /// `registry`, `agents[3]`, `agents[3] (my-agent)` or `page 2, items[3] (my-agent)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let id = match self {
            Location::Registry => return f.write_str("registry"),
            Location::Entry { kind, index, id } => {
                write!(f, "{}[{index}]", kind.path_segment())?;
                id
            }
            Location::Item { page, index, id } => {
                write!(f, "page {page}, items[{index}]")?;
                id
            }
        };
        match id {
            Some(id) => write!(f, " ({id})"),
            None => Ok(()),
        }
    }
}

/// One problem found while loading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Where.
    pub location: Location,
    /// What is wrong.
    pub message: String,
    /// A one-line fix, when there is an obvious one.
    pub hint: Option<String>,
}

impl fmt::Display for Diagnostic {
    /// `error: agents[3] (my-agent): missing required field `name` (hint: ...)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}: {}",
            self.severity.as_str(),
            self.location,
            self.message
        )?;
        match &self.hint {
            Some(hint) => write!(f, " (hint: {hint})"),
            None => Ok(()),
        }
    }
}

/// A registry that could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// There is no text at all (or only white space).
    #[error(
        "the registry is empty ({bytes} bytes, nothing but white space): the server sent no \
         content; check that the file was published and that the address is the file's"
    )]
    Empty {
        /// How many bytes there were (white space only).
        bytes: usize,
    },
    /// The text is an HTML page, not JSON.
    #[error(
        "the registry is an HTML page{}, not JSON: the address serves a web page (a sign-in \
         page, an error page, or a site's fallback page) instead of the file; check the address",
        title.as_ref().map(|t| format!(" (titled \"{t}\")")).unwrap_or_default()
    )]
    Html {
        /// The page's `<title>`, when it has one (cut to a readable length).
        title: Option<String>,
    },
    /// The text is nested deeper than any registry is, and deeper than the parser reads.
    #[error(
        "the registry is nested more than {limit} levels deep at line {line}, column {column}, \
         far deeper than a registry ever is: it is not a registry, or it is corrupt"
    )]
    TooDeep {
        /// How deep the parser reads.
        limit: usize,
        /// 1-based line where that depth is passed.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// The text is not JSON (nor JSONC).
    #[error(
        "the registry is not valid JSON: {message} at line {line}, column {column}; \
         fix the syntax there (a missing comma, quote or bracket is the usual cause)"
    )]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// The text is JSON, but not an object.
    #[error(
        "the registry is {found}, not an object; it must look like \
         {{\"version\": \"1.0.0\", \"agents\": [...]}} (or be a single agent manifest)"
    )]
    NotAnObject {
        /// What it is instead: `an array`, `a string`, ...
        found: &'static str,
    },
    /// `agents` or `extensions` is there but is not an array.
    #[error("`{key}` is {found}, not an array; write it as \"{key}\": [{{...}}, {{...}}]")]
    NotAnArray {
        /// `agents` or `extensions`.
        key: &'static str,
        /// What it is instead.
        found: &'static str,
    },
    /// The top-level object is unusable for another reason (for example, a key given twice).
    #[error("the registry object is invalid: {message} at line {line}, column {column}")]
    Structure {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What the parser said.
        message: String,
    },
}

/// A problem with an entry, before it is given its location.
pub(crate) struct Problem {
    pub(crate) severity: Severity,
    pub(crate) message: String,
    pub(crate) hint: Option<String>,
}

impl Problem {
    pub(crate) fn error(message: String, hint: Option<String>) -> Problem {
        Problem {
            severity: Severity::Error,
            message,
            hint,
        }
    }

    pub(crate) fn warning(message: String, hint: String) -> Problem {
        Problem {
            severity: Severity::Warning,
            message,
            hint: Some(hint),
        }
    }
}

pub(crate) type Problems = Vec<Problem>;

/// `a string`, `an array`, ... for messages: what a JSON value is, where it is not what was
/// expected (`` `id` is a number, not a string ``).
pub fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// serde_json's message without its ` at line L column C` suffix, for a message that says the
/// place its own way.
pub fn parser_message(err: &serde_json::Error) -> String {
    let message = err.to_string();
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message,
    }
}

/// serde_json's 1-based line and byte column, as a 1-based character column.
pub(crate) fn position(text: &str, err: &serde_json::Error) -> (usize, usize) {
    let line = err.line().max(1);
    let line_text = text.split('\n').nth(line - 1).unwrap_or("");
    let mut end = err.column().min(line_text.len());
    while !line_text.is_char_boundary(end) {
        end -= 1;
    }
    (line, line_text[..end].chars().count().max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_characters() {
        let table = [
            ("", 1, 1),
            ("{\"a\": x}", 1, 7),
            ("{\n  \"é\": x}", 2, 8),
            ("[1,\n2,\n", 3, 1),
        ];
        for (text, line, column) in table {
            let err = serde_json::from_str::<Value>(text).unwrap_err();
            assert_eq!(position(text, &err), (line, column), "{text:?}");
        }
    }
}
