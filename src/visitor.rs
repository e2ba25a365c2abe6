//! The visitor's platform: detected from the browser, assumed where it cannot tell, and
//! remembered once the visitor picks one.
//!
//! The operating system comes from `navigator.userAgentData.platform` (Chromium) or the user
//! agent string. The architecture only from `userAgentData.getHighEntropyValues`, when the
//! browser offers it; otherwise the common one is assumed (Apple silicon on macOS, x86-64
//! elsewhere) and the page says so next to a switch.
//!
//! At build time nothing can be detected: pages are rendered for an assumed Linux on x86-64
//! (`VisitorState::assumed`), said to be assumed.

use leptos::prelude::*;
use registry_core::{Arch, Os, Platform};
use wasm_bindgen::{JsCast, JsValue};

const STORAGE_KEY: &str = "acp-platform";
const EDITOR_KEY: &str = "acp-editor";
const COMPARED_KEY: &str = "acp-compare";

/// How sure the page is of the platform it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Certainty {
    /// The visitor chose it.
    Chosen,
    /// The browser said so.
    Detected,
    /// The OS was detected but the architecture assumed, or nothing could be detected.
    Assumed,
}

/// The visitor's platform and how it was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VisitorPlatform {
    /// The platform snippets are written for.
    pub platform: Platform,
    /// How it was found.
    pub certainty: Certainty,
}

/// The OS named by a `userAgentData.platform` value or a user-agent string.
pub fn parse_os(platform: &str, user_agent: &str) -> Option<Os> {
    let p = platform.to_ascii_lowercase();
    let ua = user_agent.to_ascii_lowercase();
    if p.contains("mac")
        || (p.is_empty()
            && ua.contains("mac os x")
            && !ua.contains("iphone")
            && !ua.contains("ipad"))
    {
        Some(Os::Darwin)
    } else if p.contains("win") || (p.is_empty() && ua.contains("windows")) {
        Some(Os::Windows)
    } else if p.contains("linux")
        || p.contains("chrome os")
        || (p.is_empty() && ua.contains("linux") && !ua.contains("android"))
    {
        Some(Os::Linux)
    } else {
        None
    }
}

/// The architecture named by `getHighEntropyValues`' `architecture` (`arm`, `x86`).
pub fn parse_arch(architecture: &str) -> Option<Arch> {
    match architecture.to_ascii_lowercase().as_str() {
        "arm" | "arm64" | "aarch64" => Some(Arch::Aarch64),
        "x86" | "x86_64" | "x64" | "amd64" => Some(Arch::X86_64),
        _ => None,
    }
}

/// The architecture most visitors on `os` have.
pub fn common_arch(os: Os) -> Arch {
    match os {
        Os::Darwin => Arch::Aarch64,
        Os::Linux | Os::Windows => Arch::X86_64,
    }
}

/// The platform to start with: the remembered choice, else what the browser says.
pub fn initial() -> VisitorPlatform {
    if let Some(platform) = remembered() {
        return VisitorPlatform {
            platform,
            certainty: Certainty::Chosen,
        };
    }
    let os = detect_os().unwrap_or(Os::Linux);
    VisitorPlatform {
        platform: Platform {
            os,
            arch: common_arch(os),
        },
        certainty: Certainty::Assumed,
    }
}

/// Remembers the visitor's choice.
pub fn remember(platform: Platform) {
    if let Some(storage) = window().local_storage().ok().flatten() {
        let _ = storage.set_item(STORAGE_KEY, &platform.key());
    }
}

/// Remembers the visitor's client, or forgets it.
pub fn remember_editor(id: Option<&str>) {
    if let Some(storage) = window().local_storage().ok().flatten() {
        let _ = match id {
            Some(id) => storage.set_item(EDITOR_KEY, id),
            None => storage.remove_item(EDITOR_KEY),
        };
    }
}

fn remembered_editor() -> Option<String> {
    let storage = window().local_storage().ok().flatten()?;
    let id = storage.get_item(EDITOR_KEY).ok().flatten()?;
    registry_core::id::is_slug(&id).then_some(id)
}

/// Remembers the agents chosen to compare.
pub fn remember_compared(ids: &[String]) {
    if let Some(storage) = window().local_storage().ok().flatten() {
        let _ = storage.set_item(COMPARED_KEY, &registry_core::compare::ids_value(ids));
    }
}

fn remembered_compared() -> Vec<String> {
    let stored = (window().local_storage().ok().flatten())
        .and_then(|storage| storage.get_item(COMPARED_KEY).ok().flatten());
    stored.map_or_else(Vec::new, |value| {
        registry_core::compare::read_ids(&value).ids
    })
}

fn remembered() -> Option<Platform> {
    let storage = window().local_storage().ok().flatten()?;
    Platform::parse(&storage.get_item(STORAGE_KEY).ok().flatten()?)
}

fn user_agent_data() -> Option<JsValue> {
    let data = js_sys::Reflect::get(&window().navigator(), &"userAgentData".into()).ok()?;
    (!data.is_undefined() && !data.is_null()).then_some(data)
}

fn detect_os() -> Option<Os> {
    let platform = user_agent_data()
        .and_then(|d| js_sys::Reflect::get(&d, &"platform".into()).ok())
        .and_then(|p| p.as_string())
        .unwrap_or_default();
    let user_agent = window().navigator().user_agent().unwrap_or_default();
    parse_os(&platform, &user_agent)
}

/// Asks the browser for the architecture, when it can tell.
pub async fn detect_arch() -> Option<Arch> {
    let data = user_agent_data()?;
    let method = js_sys::Reflect::get(&data, &"getHighEntropyValues".into()).ok()?;
    let method = method.dyn_into::<js_sys::Function>().ok()?;
    let hints = js_sys::Array::of1(&"architecture".into());
    let promise = method
        .call1(&data, &hints)
        .ok()?
        .dyn_into::<js_sys::Promise>()
        .ok()?;
    let values = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let architecture = js_sys::Reflect::get(&values, &"architecture".into())
        .ok()?
        .as_string()?;
    parse_arch(&architecture)
}

/// The visitor's platform, shared by every agent page of the visit.
#[derive(Clone, Copy, Debug)]
pub struct VisitorState {
    /// The platform snippets are written for.
    pub platform: RwSignal<VisitorPlatform>,
    /// Whether detection has finished (the architecture asked for, where the browser can tell).
    pub settled: RwSignal<bool>,
    /// The ACP client the visitor chose as theirs ("My editor"), by its profile's id:
    /// remembered on this device; a page's `?client=` shows another without changing it.
    pub editor: RwSignal<Option<String>>,
    /// The agents chosen to compare, by id, in the order chosen (at most
    /// [`registry_core::compare::MAX_COMPARED`]): remembered on this device.
    pub compared: RwSignal<Vec<String>>,
}

impl VisitorState {
    /// What a page rendered at build time assumes: Linux on x86-64, the most common platform of
    /// the registry's binaries, said to be assumed.
    pub fn assumed() -> VisitorState {
        VisitorState {
            platform: RwSignal::new(VisitorPlatform {
                platform: Platform {
                    os: Os::Linux,
                    arch: Arch::X86_64,
                },
                certainty: Certainty::Assumed,
            }),
            settled: RwSignal::new(true),
            editor: RwSignal::new(None),
            compared: RwSignal::new(Vec::new()),
        }
    }

    /// The visitor's platform in the browser: remembered, else detected, the architecture
    /// refined when the browser can tell.
    pub fn detect() -> VisitorState {
        let state = VisitorState {
            platform: RwSignal::new(initial()),
            settled: RwSignal::new(false),
            editor: RwSignal::new(remembered_editor()),
            compared: RwSignal::new(remembered_compared()),
        };
        if state.platform.get_untracked().certainty == Certainty::Chosen {
            state.settled.set(true);
            return state;
        }
        leptos::task::spawn_local(async move {
            if let Some(arch) = detect_arch().await {
                state.platform.update(|v| {
                    if v.certainty != Certainty::Chosen {
                        v.platform.arch = arch;
                        v.certainty = Certainty::Detected;
                    }
                });
            }
            state.settled.set(true);
        });
        state
    }
}

/// The visitor's platform, as provided to the app.
pub fn use_visitor() -> RwSignal<VisitorPlatform> {
    expect_context::<VisitorState>().platform
}

/// The agents chosen to compare, as provided to the app.
pub fn use_compared() -> RwSignal<Vec<String>> {
    expect_context::<VisitorState>().compared
}

/// The visitor's remembered client, as provided to the app.
pub fn use_editor() -> RwSignal<Option<String>> {
    expect_context::<VisitorState>().editor
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operating_systems_from_browser_strings() {
        let mac_ua = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36";
        let iphone_ua = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)";
        let android_ua = "Mozilla/5.0 (Linux; Android 14; Pixel 8)";
        for (platform, ua, expected) in [
            ("macOS", "", Some(Os::Darwin)),
            ("Windows", "", Some(Os::Windows)),
            ("Linux", "", Some(Os::Linux)),
            ("Chrome OS", "", Some(Os::Linux)),
            ("", mac_ua, Some(Os::Darwin)),
            (
                "",
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64)",
                Some(Os::Windows),
            ),
            ("", "Mozilla/5.0 (X11; Linux x86_64)", Some(Os::Linux)),
            ("", iphone_ua, None),
            ("", android_ua, None),
            ("Android", android_ua, None),
        ] {
            assert_eq!(parse_os(platform, ua), expected, "{platform:?} {ua:?}");
        }
    }

    #[test]
    fn architectures_and_assumptions() {
        assert_eq!(parse_arch("arm"), Some(Arch::Aarch64));
        assert_eq!(parse_arch("x86"), Some(Arch::X86_64));
        assert_eq!(parse_arch(""), None);
        assert_eq!(common_arch(Os::Darwin), Arch::Aarch64);
        assert_eq!(common_arch(Os::Windows), Arch::X86_64);
    }
}
