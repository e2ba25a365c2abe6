//! Licence values normalised for faceting (API contract; implementation in progress).

/// The facet value for a licence as written.
pub fn normalize(license: &str) -> String {
    license.trim().to_owned()
}
