//! Settings fixed when the site is built.
//!
//! `cargo xtask dist` passes them as environment variables to the compiler:
//!
//! - `REGISTRY_KIND`: `acp` (the default) for an ACP `registry.json`, or `agentregistry` for
//!   the discovery API of an AgentRegistry service.
//! - `REGISTRY_URL`: where the registry is fetched from: the `registry.json` file, or the
//!   AgentRegistry's base URL; relative URLs resolve against the page's base (so the default
//!   `registry.json` is the file beside `index.html`). There is deliberately no run-time
//!   override: a query parameter choosing the registry would let anyone show forged install
//!   commands under this site's name.
//! - `PROTOCOL_MATRIX_URL`: the registry's probe results (auth methods, capabilities);
//!   optional: when it cannot be loaded, pages say "not probed".
//! - `PUBLIC_URL`: the path the site is served under (`/` or e.g. `/acp/registry/`); every
//!   link and asset is prefixed with it.

/// Which kind of registry [`REGISTRY_URL`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegistryKind {
    /// An ACP registry's `registry.json`.
    Acp,
    /// An AgentRegistry service's discovery API.
    AgentRegistry,
}

/// The registry kind as given at build time (`cargo xtask dist` checks the word).
pub const REGISTRY_KIND: RegistryKind = match option_env!("REGISTRY_KIND") {
    Some(kind) if same(kind, "agentregistry") => RegistryKind::AgentRegistry,
    _ => RegistryKind::Acp,
};

/// What the site calls itself.
pub const SITE_NAME: &str = match REGISTRY_KIND {
    RegistryKind::Acp => "ACP Agent Registry",
    RegistryKind::AgentRegistry => "Agent Registry",
};

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

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
