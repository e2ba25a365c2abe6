//! The site's settings, read once when it starts.
//!
//! One compiled site serves every configuration: the build (`cargo xtask dist`) writes the
//! settings into the head of every page as a JSON data block (`registry_core::settings`), and
//! the site reads them from there before anything else: the app in the browser from the page
//! it starts on ([`read_from_page`]), the build's renderer from the page template it writes into
//! (`src/bin/render.rs`). So changing the registry URL, the optional files' URLs, the public
//! URL or the site origin re-renders pages and compiles nothing. There is deliberately no
//! other way in: a query parameter choosing the registry would let anyone show forged install
//! commands under this site's name.
//!
//! The registry kind is the one setting the wasm is also compiled for (the `agentregistry`
//! feature): in an ACP build [`service_of`] is always `None` and the AgentRegistry's views
//! and loader are left out of the bundle. A page whose settings name the other kind is refused
//! with an error saying so. The native renderer reads the kind from the settings, so one
//! renderer writes both kinds of site.
//!
//! Until settings are read (in tests, say) the site has `SiteSettings::default()`: the bundled
//! registry at `/` of `https://agentclientprotocol.com`.

use std::sync::OnceLock;

pub use registry_core::RegistryKind;
use registry_core::SiteSettings;
use registry_core::settings::SettingsError;

/// The kind of registry this wasm was compiled for.
pub const COMPILED_KIND: RegistryKind = if cfg!(feature = "agentregistry") {
    RegistryKind::AgentRegistry
} else {
    RegistryKind::Acp
};

static SETTINGS: OnceLock<SiteSettings> = OnceLock::new();

/// The site's settings: those read at start, else the defaults.
pub fn settings() -> &'static SiteSettings {
    SETTINGS.get_or_init(SiteSettings::default)
}

/// Makes `settings` the site's, once, before anything reads them; refuses settings that do
/// not pass [`SiteSettings::check`], and a second, different set.
pub fn set(settings: SiteSettings) -> Result<(), SettingsError> {
    settings.check()?;
    let wanted = settings.clone();
    if SETTINGS.set(settings).is_err() && SETTINGS.get() != Some(&wanted) {
        return Err(SettingsError::Json(
            "the settings were already read, and differ".to_owned(),
        ));
    }
    Ok(())
}

/// Reads the settings of the page the app starts on (`<script id="acp-settings">`). A page
/// for the other registry kind than the wasm's is refused.
#[cfg(target_arch = "wasm32")]
pub fn read_from_page() -> Result<(), SettingsError> {
    let text = leptos::prelude::document()
        .get_element_by_id(registry_core::settings::SETTINGS_ID)
        .and_then(|block| block.text_content())
        .ok_or(SettingsError::Missing)?;
    let settings = SiteSettings::from_json(&text)?;
    if settings.kind != COMPILED_KIND {
        return Err(SettingsError::Invalid {
            setting: "--registry-kind",
            value: settings.kind.as_str().to_owned(),
            problem: "is not the kind this site's wasm was built for: build it again with \
                      `cargo xtask dist --registry-kind` set to the kind you serve",
        });
    }
    set(settings)
}

/// The kind of registry the site reads: in the browser, the one it was compiled for.
pub fn registry_kind() -> RegistryKind {
    if cfg!(target_arch = "wasm32") {
        COMPILED_KIND
    } else {
        settings().kind
    }
}

/// What the site calls itself.
pub fn site_name() -> &'static str {
    registry_core::settings::site_name(registry_kind())
}

/// The AgentRegistry record of an entry, on a site for an AgentRegistry; always `None` in an
/// ACP wasm, so that the compiler leaves the AgentRegistry's views out of the ACP bundle.
pub fn service_of(
    entry: &registry_core::Entry,
) -> Option<std::sync::Arc<registry_core::ServiceAgent>> {
    match registry_kind() {
        RegistryKind::AgentRegistry => entry.service().cloned(),
        RegistryKind::Acp => None,
    }
}

/// Whether `entry` is an ACP agent (not an extension, not an AgentRegistry service): what a
/// client's verdict judges and a comparison compares.
pub fn is_acp_agent(entry: &registry_core::Entry) -> bool {
    entry.kind == registry_core::Kind::Agent && service_of(entry).is_none()
}

/// The path the site is served under, starting and ending with `/`.
pub fn public_url() -> &'static str {
    &settings().public_url
}

/// The router's base: [`public_url`] without its trailing slash (`""` at the root).
pub fn router_base() -> &'static str {
    settings().router_base()
}

/// An in-site link: `path` (starting with `/`) under the public URL.
pub fn href(path: &str) -> String {
    settings().href(path)
}

/// Where the site is published: origin and public URL, for absolute URLs.
pub fn address() -> registry_core::SiteAddress {
    settings().address()
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
    fn unset_settings_are_the_defaults_and_links_stay_under_them() {
        assert_eq!(settings(), &SiteSettings::default());
        assert_eq!(href("/agents/x"), "/agents/x");
        assert_eq!(
            canonical("/agents/x/"),
            "https://agentclientprotocol.com/agents/x/"
        );
        assert_eq!(site_name(), "ACP Agent Registry");
    }
}
