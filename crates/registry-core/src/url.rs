//! Which URLs may become links (API contract; implementation in progress).

/// The URL when it is an absolute `http:` or `https:` URL, else `None`.
pub fn safe_link(url: &str) -> Option<&str> {
    Some(url)
}
