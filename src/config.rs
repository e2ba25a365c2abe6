//! Settings fixed when the site is built.
//!
//! `cargo xtask dist` passes them as environment variables to the compiler:
//!
//! - `REGISTRY_URL`: where the registry is fetched from; relative URLs resolve against the
//!   page's base (so the default `registry.json` is the file beside `index.html`). There is
//!   deliberately no run-time override: a query parameter choosing the registry would let
//!   anyone show forged install commands under this site's name.
//! - `PROTOCOL_MATRIX_URL`: the registry's probe results (auth methods, capabilities);
//!   optional: when it cannot be loaded, pages say "not probed".
//! - `PUBLIC_URL`: the path the site is served under (`/` or e.g. `/acp/registry/`); every
//!   link and asset is prefixed with it.

/// The registry URL as given at build time.
pub const REGISTRY_URL: &str = match option_env!("REGISTRY_URL") {
    Some(url) if !url.is_empty() => url,
    _ => "registry.json",
};

/// The protocol matrix (the registry's daily probe of each agent) as given at build time; the
/// site works without it.
pub const PROTOCOL_MATRIX_URL: &str = match option_env!("PROTOCOL_MATRIX_URL") {
    Some(url) if !url.is_empty() => url,
    _ => "protocol-matrix.json",
};

/// The base path as given at build time, always starting and ending with `/`.
pub const PUBLIC_URL: &str = match option_env!("PUBLIC_URL") {
    Some(path) if !path.is_empty() => path,
    _ => "/",
};

/// The router's base: [`PUBLIC_URL`] without its trailing slash (`""` at the root).
pub fn router_base() -> &'static str {
    PUBLIC_URL.strip_suffix('/').unwrap_or(PUBLIC_URL)
}

/// An in-site link: `path` (starting with `/`) under the base path.
pub fn href(path: &str) -> String {
    format!("{}{}", router_base(), path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_stay_under_the_base_path() {
        assert!(PUBLIC_URL.starts_with('/') && PUBLIC_URL.ends_with('/'));
        assert_eq!(href("/agents/x"), format!("{}agents/x", PUBLIC_URL));
    }
}
