//! Settings fixed when the site is built.
//!
//! `cargo xtask dist` passes them as environment variables to both compilations of the site:
//! the wasm the browser runs and the native renderer that writes the pages' HTML, so the two
//! always agree.
//!
//! - `REGISTRY_KIND`: `acp` (the default) for an ACP `registry.json`, or `agentregistry` for
//!   the discovery API of an AgentRegistry service ([`RegistryKind`]).
//! - `REGISTRY_URL`: where the registry is fetched from: the `registry.json` file, or the
//!   AgentRegistry's base URL; relative URLs resolve against the page's base (so the default
//!   `registry.json` is the file beside `index.html`). There is deliberately no run-time
//!   override: a query parameter choosing the registry would let anyone show forged install
//!   commands under this site's name.
//! - `PROTOCOL_MATRIX_URL`: the registry's probe results (auth methods, capabilities);
//!   optional: when it cannot be loaded, pages say "not probed".
//! - `JETBRAINS_VIEW_URL`, `JETBRAINS_PREVIEW_VIEW_URL`, `QUARANTINE_URL`: the registry's
//!   other lists (which agents JetBrains IDEs list, bundle or serve a preview of; which agents
//!   its automation skips); optional, like the matrix.
//! - `PUBLIC_URL`: the path the site is served under (`/` or e.g. `/acp/registry/`); every
//!   link and asset is prefixed with it.
//! - `SITE_ORIGIN`: the scheme and host the site is published at, for canonical and
//!   link-preview URLs.
//!
//! `REGISTRY_KIND` is read into a `registry_core::RegistryKind`. `href` writes an in-site link
//! under `PUBLIC_URL`, `canonical` its absolute URL, and `service_of` gives an entry's
//! AgentRegistry record only in a build for an AgentRegistry, so the ACP bundle leaves those views
//! out.

pub use registry_core::RegistryKind;

/// The registry kind as given at build time (`cargo xtask dist` checks the word).
pub const REGISTRY_KIND: RegistryKind = match option_env!("REGISTRY_KIND") {
    Some(word) => match RegistryKind::parse(word) {
        Some(kind) => kind,
        None => RegistryKind::Acp,
    },
    None => RegistryKind::Acp,
};

/// What the site calls itself.
pub const SITE_NAME: &str = match REGISTRY_KIND {
    RegistryKind::Acp => "ACP Agent Registry",
    RegistryKind::AgentRegistry => "Agent Registry",
};

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

/// The registry's JetBrains view as given at build time; optional.
pub const JETBRAINS_VIEW_URL: &str = match option_env!("JETBRAINS_VIEW_URL") {
    Some(url) if !url.is_empty() => url,
    _ => "registry-for-jetbrains.json",
};

/// The registry's JetBrains preview view as given at build time; optional.
pub const JETBRAINS_PREVIEW_VIEW_URL: &str = match option_env!("JETBRAINS_PREVIEW_VIEW_URL") {
    Some(url) if !url.is_empty() => url,
    _ => "registry-for-jetbrains-preview.json",
};

/// The registry's quarantine list as given at build time; optional.
pub const QUARANTINE_URL: &str = match option_env!("QUARANTINE_URL") {
    Some(url) if !url.is_empty() => url,
    _ => "quarantine.json",
};

/// The base path as given at build time, always starting and ending with `/`.
pub const PUBLIC_URL: &str = match option_env!("PUBLIC_URL") {
    Some(path) if !path.is_empty() => path,
    _ => "/",
};

/// Scheme and host the site is published at, without a trailing slash.
pub const SITE_ORIGIN: &str = match option_env!("SITE_ORIGIN") {
    Some(origin) if !origin.is_empty() => origin,
    _ => "https://agentclientprotocol.com",
};

/// The AgentRegistry record of an entry, in a build for an AgentRegistry; always `None` in an
/// ACP build, so that the compiler leaves the AgentRegistry's views out of the ACP bundle.
pub fn service_of(
    entry: &registry_core::Entry,
) -> Option<std::sync::Arc<registry_core::ServiceAgent>> {
    match REGISTRY_KIND {
        RegistryKind::AgentRegistry => entry.service().cloned(),
        RegistryKind::Acp => None,
    }
}

/// The router's base: [`PUBLIC_URL`] without its trailing slash (`""` at the root).
pub fn router_base() -> &'static str {
    PUBLIC_URL.strip_suffix('/').unwrap_or(PUBLIC_URL)
}

/// An in-site link: `path` (starting with `/`) under the base path.
pub fn href(path: &str) -> String {
    format!("{}{}", router_base(), path)
}

/// Where the site is published: origin and base path, for absolute URLs.
pub fn address() -> registry_core::SiteAddress {
    registry_core::SiteAddress::new(SITE_ORIGIN, PUBLIC_URL)
}

/// The canonical, absolute URL of an in-site `path` (starting with `/`), for link previews and
/// search engines.
pub fn canonical(path: &str) -> String {
    address().url(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_stay_under_the_base_path() {
        assert!(PUBLIC_URL.starts_with('/') && PUBLIC_URL.ends_with('/'));
        assert_eq!(href("/agents/x"), format!("{}agents/x", PUBLIC_URL));
        assert_eq!(
            canonical("/agents/x/"),
            format!("{SITE_ORIGIN}{PUBLIC_URL}agents/x/")
        );
        assert!(!SITE_ORIGIN.ends_with('/'));
    }
}
