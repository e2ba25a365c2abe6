//! Reading a registry text (API contract; implementation in progress).

use crate::model::{Kind, Registry};

/// Everything that could be read, plus every problem found on the way.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Loaded {
    /// The entries that could be read.
    pub registry: Registry,
    /// One per problem, in file order.
    pub diagnostics: Vec<Diagnostic>,
}

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The entry was left out.
    Error,
    /// The entry was read, but something about it is off.
    Warning,
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
}

/// A registry that could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The text is not JSON.
    #[error("invalid JSON at line {line}, column {column}: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser said.
        message: String,
    },
}

/// Reads a registry text.
pub fn load(_text: &str) -> Result<Loaded, LoadError> {
    Ok(Loaded::default())
}
