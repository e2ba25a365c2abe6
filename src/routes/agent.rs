//! `/agents/<id>` and `/extensions/<id>`: everything about one entry.
//!
//! Sections, each with a stable anchor: the header (facts and links), `#run` (how to run it,
//! per distribution method, for the visitor's platform), `#editors` (configuration for each
//! ACP client), `#protocol` (what the registry's probe found) and `#manifest` (the raw entry). All text of the snippets comes from
//! `registry_core::snippets`; this file only lays it out.

use std::sync::Arc;

use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_params_map};
use registry_core::protocol::{Capability, Facts};
use registry_core::snippets::{self, Client};
use registry_core::{Entry, Kind, Method, Os, Platform};

use crate::components::card::{MethodBadge, icon_url};
use crate::components::code_block::CodeBlock;
use crate::components::copy_button::CopyButton;
use crate::components::icon::{AgentIcon, IconSize};
use crate::components::notices::LoadErrorPanel;
use crate::components::tabs::{Tab, TabList, panel_id, tab_id};
use crate::config::{self, RegistryKind};
use crate::head::{use_description, use_title};
use crate::registry::{LoadedRegistry, use_registry};
use crate::routes::service::ServiceDetails;
use crate::visitor::{self, Certainty, VisitorPlatform, VisitorState};

/// Where the registry's manifests live, for "Edit this listing".
const MANIFEST_REPOSITORY: &str = "https://github.com/agentclientprotocol/registry/blob/main";

/// The catalogue address to go back to: the search the visitor came from.
#[derive(Clone, Copy, Debug)]
pub struct LastSearch(pub RwSignal<String>);

impl LastSearch {
    /// The link back to the catalogue with that search.
    pub fn href(self) -> String {
        let search = self.0.get_untracked();
        if search.is_empty() {
            config::href("/")
        } else {
            config::href(&format!("/?{search}"))
        }
    }
}

/// The page of one agent or extension.
#[component]
pub fn AgentPage() -> impl IntoView {
    let resource = use_registry();
    let params = use_params_map();
    let location = use_location();
    let kind = Memo::new(move |_| {
        if location.pathname.with(|p| p.contains("/extensions/")) {
            Kind::Extension
        } else {
            Kind::Agent
        }
    });
    let id = Memo::new(move |_| params.with(|p| p.get("id").unwrap_or_default()));
    move || match resource.get() {
        None => {
            EitherOf3::A(view! { <p class="py-16 text-slate-500" role="status">"Loading…"</p> })
        }
        Some(Err(error)) => EitherOf3::B(view! { <LoadErrorPanel error resource /> }),
        Some(Ok(loaded)) => {
            let found = loaded
                .catalog
                .registry
                .entries
                .iter()
                .position(|e| e.kind == kind.get() && e.id == id.get());
            EitherOf3::C(match found {
                Some(index) => Either::Left(view! { <EntryPage loaded index /> }),
                None => Either::Right(view! { <UnknownEntry loaded id=id.get() /> }),
            })
        }
    }
}

#[component]
fn EntryPage(loaded: Arc<LoadedRegistry>, index: usize) -> impl IntoView {
    let entry = &loaded.catalog.registry.entries[index];
    let back = use_context::<LastSearch>()
        .map(LastSearch::href)
        .unwrap_or_else(|| config::href("/"));
    let title = format!("{} · {}", entry.name, config::SITE_NAME);
    use_title(move || title.clone());
    use_description(&entry.description);
    scroll_to_fragment();
    view! {
        <nav class="pt-6 text-sm">
            <a class="text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=back>
                "← All agents"
            </a>
        </nav>
        <EntryDetails loaded index />
    }
}

/// The body of an entry's page (header and sections), without the page's title, description
/// or back link: the listing preview shows it for a manifest being edited.
#[component]
pub fn EntryDetails(
    /// The registry the entry is in.
    loaded: Arc<LoadedRegistry>,
    /// Index of the entry in `loaded.catalog.registry.entries`.
    index: usize,
) -> impl IntoView {
    let entry = Arc::new(loaded.catalog.registry.entries[index].clone());
    // Only a build for an AgentRegistry has such entries; the ACP build leaves the page out.
    if config::REGISTRY_KIND == RegistryKind::AgentRegistry
        && let Some(agent) = entry.service.clone()
    {
        return view! { <ServiceDetails loaded entry agent /> }.into_any();
    }
    let icon = icon_url(&entry, &loaded.url);
    let facts = loaded.catalog.facts(&entry);
    let matrix_problem = loaded.matrix_problem.clone();
    view! {
        <Header entry=entry.clone() icon />
        <RunSection entry=entry.clone() />
        <EditorsSection entry=entry.clone() />
        <ProtocolSection entry=entry.clone() facts matrix_problem />
        <ManifestSection entry />
    }
    .into_any()
}

/// Scrolls to the `#anchor` of the address once the page has rendered (the browser tried
/// before the content existed).
fn scroll_to_fragment() {
    let hash = window().location().hash().unwrap_or_default();
    if let Some(id) = hash
        .strip_prefix('#')
        .filter(|id| !id.is_empty())
        .map(str::to_owned)
    {
        request_animation_frame(move || {
            if let Some(target) = document().get_element_by_id(&id) {
                target.scroll_into_view();
            }
        });
    }
}

#[component]
fn Header(entry: Arc<Entry>, icon: Option<String>) -> impl IntoView {
    let authors = entry.author_names().collect::<Vec<_>>().join(", ");
    let manifest_file = match entry.kind {
        Kind::Agent => "agent.json",
        Kind::Extension => "extension.json",
    };
    let edit = format!("{MANIFEST_REPOSITORY}/{}/{manifest_file}", entry.id);
    let license = entry.license.clone().map(|license| {
        match entry
            .license_url
            .as_deref()
            .and_then(registry_core::url::safe_link)
        {
            Some(url) => Either::Left(view! { <ExternalLink url=url.to_owned() text=license /> }),
            None => Either::Right(view! { <span>{license}</span> }),
        }
    });
    let links = [
        ("Repository", entry.repository.clone()),
        ("Website", entry.website.clone()),
    ];
    view! {
        <header class="flex flex-col gap-5 py-8 sm:flex-row sm:items-start">
            <AgentIcon url=icon name=entry.name.clone() size=IconSize::Page />
            <div class="min-w-0 flex-1">
                <h1 class="text-3xl font-bold tracking-tight">{entry.name.clone()}</h1>
                <p class="mt-1 text-sm text-slate-600 dark:text-slate-400">
                    <span>{format!("v{}", entry.version)}</span>
                    " · "
                    <code>{entry.id.clone()}</code>
                </p>
                <p class="mt-3 max-w-3xl text-lg text-slate-700 dark:text-slate-300">{entry.description.clone()}</p>
                <dl class="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                    {(!authors.is_empty()).then(|| view! {
                        <dt class="text-slate-600 dark:text-slate-400">"Authors"</dt>
                        <dd>{authors}</dd>
                    })}
                    {license.map(|license| view! {
                        <dt class="text-slate-600 dark:text-slate-400">"License"</dt>
                        <dd>{license}</dd>
                    })}
                    {links
                        .into_iter()
                        .filter_map(|(label, url)| url.map(|u| (label, u)))
                        .map(|(label, url)| view! {
                            <dt class="text-slate-600 dark:text-slate-400">{label}</dt>
                            <dd class="break-all"><ExternalLink text=url.clone() url /></dd>
                        })
                        .collect_view()}
                    <dt class="text-slate-600 dark:text-slate-400">"Distribution"</dt>
                    <dd class="flex flex-wrap gap-1.5">
                        {entry.distribution.methods().into_iter().map(|m| view! { <MethodBadge method=m /> }).collect_view()}
                    </dd>
                </dl>
                <p class="mt-4 text-sm">
                    <ExternalLink url=edit text="Edit this listing".to_owned() />
                </p>
            </div>
        </header>
    }
}

/// A link when the URL is `http(s)`, plain text otherwise; external links never get the
/// opener or the referrer.
#[component]
pub fn ExternalLink(
    /// The URL as the manifest gives it.
    url: String,
    /// The link text.
    text: String,
) -> impl IntoView {
    match registry_core::url::safe_link(&url) {
        Some(safe) => Either::Left(view! {
            <a
                class="text-indigo-700 underline hover:no-underline dark:text-indigo-300"
                href=safe.to_owned()
                rel="noopener noreferrer"
            >
                {text}
            </a>
        }),
        None => Either::Right(view! { <span>{text}</span> }),
    }
}

/// A section with a heading that links to its own anchor.
#[component]
pub(crate) fn Section(
    id: &'static str,
    title: &'static str,
    entry: Arc<Entry>,
    children: Children,
) -> impl IntoView {
    let anchor = format!("{}#{id}", config::href(&entry.path()));
    view! {
        <section id=id aria-labelledby=format!("{id}-heading") class="scroll-mt-4 border-t border-slate-200 py-8 dark:border-slate-800">
            <h2 id=format!("{id}-heading") class="group text-xl font-semibold">
                {title}
                <a href=anchor class="ml-2 text-slate-400 opacity-0 group-hover:opacity-100 focus:opacity-100" aria-label=format!("Link to {title}")>
                    "#"
                </a>
            </h2>
            {children()}
        </section>
    }
}

/// The method tab chosen by the visitor, if any (else the best one for their platform).
#[derive(Clone, Copy, Debug)]
struct MethodChoice(RwSignal<Option<Method>>);

#[component]
fn RunSection(entry: Arc<Entry>) -> impl IntoView {
    let visitor = use_context::<VisitorState>()
        .map(|v| v.0)
        .unwrap_or_else(|| RwSignal::new(visitor::initial()));
    let chosen = RwSignal::new(None::<Method>);
    provide_context(MethodChoice(chosen));
    let methods = entry.distribution.methods();
    let dist = entry.distribution.clone();
    let method = Memo::new(move |_| {
        chosen
            .get()
            .or_else(|| snippets::preferred_method(&dist, Some(visitor.get().platform)))
    });
    let tabs: Vec<Tab> = methods
        .iter()
        .map(|m| Tab {
            key: m.as_str().to_owned(),
            label: method_tab_label(*m).to_owned(),
        })
        .collect();
    let selected = Signal::derive(move || {
        method
            .get()
            .map(|m| m.as_str().to_owned())
            .unwrap_or_default()
    });
    let on_select = Callback::new(move |key: String| chosen.set(Method::parse(&key)));
    let panel_entry = entry.clone();
    view! {
        <Section id="run" title="Run it" entry=entry.clone()>
            <div class="mt-3 flex flex-wrap items-center justify-between gap-3">
                <p class="text-sm text-slate-600 dark:text-slate-400">"Start the agent in a terminal to try it, or add it to your editor below."</p>
                <PlatformPicker visitor />
            </div>
            <div class="mt-4">
                <TabList label="Distribution method" id="run" tabs selected on_select />
                <div role="tabpanel" id=panel_id("run") aria-labelledby=move || tab_id("run", &selected.get()) class="pt-2">
                    {move || {
                        let platform = visitor.get().platform;
                        method.get().map(|m| view! { <RunPanel entry=panel_entry.clone() method=m platform /> })
                    }}
                </div>
            </div>
        </Section>
    }
}

fn method_tab_label(method: Method) -> &'static str {
    match method {
        Method::Binary => "Binary",
        Method::Npx => "npx",
        Method::Uvx => "uvx",
    }
}

/// The platform the snippets are written for, with how it was found and a switch.
#[component]
fn PlatformPicker(visitor: RwSignal<VisitorPlatform>) -> impl IntoView {
    let all: Vec<Platform> = Os::ALL
        .into_iter()
        .flat_map(|os| {
            registry_core::Arch::ALL
                .into_iter()
                .map(move |arch| Platform { os, arch })
        })
        .collect();
    let on_change = move |event| {
        if let Some(platform) = Platform::parse(&event_target_value(&event)) {
            visitor::remember(platform);
            visitor.set(VisitorPlatform {
                platform,
                certainty: Certainty::Chosen,
            });
        }
    };
    let how = move || match visitor.get().certainty {
        Certainty::Chosen => "your choice",
        Certainty::Detected => "detected",
        Certainty::Assumed => "assumed: change it if wrong",
    };
    view! {
        <label class="flex flex-wrap items-center gap-2 text-sm">
            "Your platform"
            <select
                class="h-9 rounded-md border border-slate-300 bg-white px-2 dark:border-slate-700 dark:bg-slate-900"
                on:change=on_change
                prop:value=move || visitor.get().platform.key()
            >
                {all.into_iter().map(|p| view! { <option value=p.key()>{platform_label(p)}</option> }).collect_view()}
            </select>
            <span class="text-xs text-slate-600 dark:text-slate-400">{how}</span>
        </label>
    }
}

/// `macOS · ARM64`.
pub fn platform_label(platform: Platform) -> String {
    let arch = match platform.arch {
        registry_core::Arch::Aarch64 => "ARM64",
        registry_core::Arch::X86_64 => "x86-64",
    };
    format!("{} · {arch}", platform.os.label())
}

#[component]
fn RunPanel(entry: Arc<Entry>, method: Method, platform: Platform) -> impl IntoView {
    let blocks = snippets::run_snippets(&entry, method, Some(platform));
    if blocks.is_empty() && method == Method::Binary {
        let available: Vec<String> = entry
            .distribution
            .binary
            .keys()
            .filter_map(|k| k.platform())
            .map(platform_label)
            .collect();
        return Either::Left(view! {
            <p class="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100">
                {format!(
                    "No binary for {}. Builds exist for: {}. Choose one of those platforms above{}.",
                    platform_label(platform),
                    available.join(", "),
                    if entry.distribution.npx.is_some() || entry.distribution.uvx.is_some() { ", or another method" } else { "" },
                )}
            </p>
        });
    }
    Either::Right(
        blocks
            .into_iter()
            .map(|block| {
                let title = format!("{} ({})", block.title, block.shell.label());
                view! { <CodeBlock title code=block.code notes=block.notes /> }
            })
            .collect_view(),
    )
}

#[component]
fn EditorsSection(entry: Arc<Entry>) -> impl IntoView {
    let visitor = use_context::<VisitorState>()
        .map(|v| v.0)
        .unwrap_or_else(|| RwSignal::new(visitor::initial()));
    let chosen = use_context::<MethodChoice>()
        .map(|c| c.0)
        .unwrap_or_else(|| RwSignal::new(None));
    let client = RwSignal::new(Client::Zed);
    let tabs: Vec<Tab> = Client::ALL
        .into_iter()
        .map(|c| Tab {
            key: c.as_str().to_owned(),
            label: c.label().to_owned(),
        })
        .collect();
    let selected = Signal::derive(move || client.get().as_str().to_owned());
    let on_select = Callback::new(move |key: String| {
        if let Some(c) = Client::ALL.into_iter().find(|c| c.as_str() == key) {
            client.set(c);
        }
    });
    let panel_entry = entry.clone();
    let blocks = Memo::new(move |_| {
        let platform = visitor.get().platform;
        let method = chosen
            .get()
            .or_else(|| snippets::preferred_method(&panel_entry.distribution, Some(platform)));
        let mut out: Vec<_> = method
            .map(|m| snippets::client_snippets(&panel_entry, m, Some(platform)))
            .unwrap_or_default();
        out.retain(|s| s.client == client.get());
        out
    });
    view! {
        <Section id="editors" title="Add it to your editor" entry=entry.clone()>
            <p class="mt-3 text-sm text-slate-600 dark:text-slate-400">
                "Paste the configuration into the file named above it. It runs the method and platform chosen in "
                <a class="underline" href=format!("{}#run", config::href(&entry.path()))>"Run it"</a>"."
            </p>
            <div class="mt-4">
                <TabList label="Editor" id="editors" tabs selected on_select />
                <div role="tabpanel" id=panel_id("editors") aria-labelledby=move || tab_id("editors", &selected.get()) class="pt-2">
                    {move || {
                        blocks
                            .get()
                            .into_iter()
                            .map(|s| view! { <CodeBlock title=s.title file=s.file code=s.code notes=s.notes /> })
                            .collect_view()
                    }}
                </div>
            </div>
        </Section>
    }
}

/// What the registry's probe found: auth methods and capabilities, with when and which version.
#[component]
fn ProtocolSection(
    entry: Arc<Entry>,
    facts: Facts,
    matrix_problem: Option<String>,
) -> impl IntoView {
    let listed = entry.version.clone();
    let body = match facts {
        Facts::NotProbed => EitherOf3::A(view! {
            <p class="mt-3 text-sm text-slate-700 dark:text-slate-300">
                "Not probed: the registry's daily probe has no result for this agent, so its authentication and capabilities are unknown (not unsupported)."
                {matrix_problem.map(|p| format!(" The probe data could not be loaded: {p}."))}
            </p>
        }),
        Facts::ProbeFailed {
            version,
            date,
            reason,
        } => EitherOf3::B(view! {
            <p class="mt-3 text-sm text-slate-700 dark:text-slate-300">
                {format!(
                    "The probe of {} on {date} could not start the agent ({reason}), so its authentication and capabilities are unknown (not unsupported).",
                    version.map(|v| format!("v{v}")).unwrap_or_else(|| "this agent".to_owned()),
                )}
            </p>
        }),
        Facts::Probed {
            version,
            date,
            auth,
            capabilities,
        } => {
            let provenance = match &version {
                Some(v) if *v != listed => {
                    format!("Probed v{v} on {date} (the listing is v{listed}).")
                }
                Some(v) => format!("Probed v{v} on {date}."),
                None => format!("Probed on {date}."),
            };
            EitherOf3::C(view! {
                <p class="mt-3 text-sm text-slate-600 dark:text-slate-400">{provenance}</p>
                <dl class="mt-3 grid max-w-xl grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
                    <dt class="text-slate-600 dark:text-slate-400">"Authentication"</dt>
                    <dd>
                        {if auth.is_empty() {
                            "none advertised".to_owned()
                        } else {
                            auth.iter().map(|a| a.label().to_owned()).collect::<Vec<_>>().join(", ")
                        }}
                    </dd>
                    {Capability::ALL.into_iter().map(|cap| {
                        let (mark, text) = match capabilities.get(&cap) {
                            Some(true) => ("✓", "supported"),
                            Some(false) => ("✗", "not supported"),
                            None => ("–", "not reported"),
                        };
                        view! {
                            <dt class="text-slate-600 dark:text-slate-400">{cap.label()}</dt>
                            <dd><span aria-hidden="true">{mark}" "</span>{text}</dd>
                        }
                    }).collect_view()}
                </dl>
            })
        }
    };
    view! {
        <Section id="protocol" title="Protocol support" entry>
            {body}
        </Section>
    }
}

/// `#manifest`: the entry exactly as published, re-indented, with the fields the model does not
/// know named.
#[component]
pub(crate) fn ManifestSection(entry: Arc<Entry>) -> impl IntoView {
    let pretty = pretty_json(&entry.raw);
    let unknown = entry.unknown_fields();
    view! {
        <Section id="manifest" title="Manifest" entry=entry.clone()>
            <details class="mt-3">
                <summary class="cursor-pointer text-sm font-medium">
                    "Show the registry entry as published"
                    {(!unknown.is_empty()).then(|| format!(" (includes {})", unknown.join(", ")))}
                </summary>
                <div class="relative mt-2 flex items-start gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3 dark:border-slate-800 dark:bg-slate-900">
                    <pre tabindex="0" class="min-w-0 flex-1 overflow-x-auto text-sm leading-6 focus-visible:outline-2 focus-visible:outline-indigo-600"><code>{pretty.clone()}</code></pre>
                    <CopyButton text=pretty what="manifest JSON".to_owned() />
                </div>
            </details>
        </Section>
    }
}

/// The entry's JSON, re-indented; the text as published if it cannot be parsed.
fn pretty_json(raw: &str) -> String {
    serde_json::from_str::<serde_json::Value>(raw)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| raw.to_owned())
}

#[component]
fn UnknownEntry(loaded: Arc<LoadedRegistry>, id: String) -> impl IntoView {
    let suggestions: Vec<(String, String)> = loaded
        .catalog
        .index
        .search(&id.replace('-', " "))
        .hits
        .iter()
        .take(5)
        .map(|hit| {
            let e = &loaded.catalog.registry.entries[hit.entry];
            (e.name.clone(), config::href(&e.path()))
        })
        .collect();
    use_title(|| format!("Agent not found · {}", config::SITE_NAME));
    view! {
        <section class="py-16">
            <h1 class="text-3xl font-bold">"Agent not found"</h1>
            <p class="mt-2 text-slate-600 dark:text-slate-400">
                "The registry has no agent with the id " <code>{id}</code> "."
            </p>
            {(!suggestions.is_empty()).then(|| view! {
                <p class="mt-6 font-medium">"Did you mean:"</p>
                <ul class="mt-2 list-disc pl-6">
                    {suggestions
                        .into_iter()
                        .map(|(name, href)| view! {
                            <li><a class="text-indigo-700 underline dark:text-indigo-300" href=href>{name}</a></li>
                        })
                        .collect_view()}
                </ul>
            })}
            <a class="mt-6 inline-block text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=config::href("/")>
                "← All agents"
            </a>
        </section>
    }
}
