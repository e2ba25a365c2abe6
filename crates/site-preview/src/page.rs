//! `/preview/`: a maintainer pastes or drops `agent.json` (and `icon.svg`) and sees, as they
//! type, what the registry's CI will say and the card and page the catalogue will show.
//!
//! Everything happens in the page: files are read with the File API, checked by
//! `registry-validate` compiled into this bundle, and the icon is shown from an object URL as a
//! CSS mask (like every icon of the catalogue) and only when no rule rejected it; it is never
//! inserted as markup.
//!
//! `PreviewApp` is the whole page, the site's shell around `PreviewPage`: the editors (typed into,
//! filled from the file picker or by a drop), the problems, the card and the page.

use std::sync::Arc;

use acp_catalog::components::card::AgentCard;
use acp_catalog::components::entry::EntryDetails;
use acp_catalog::components::highlight::Highlights;
use acp_catalog::components::shell::SiteShell;
use acp_catalog::config;
use acp_catalog::head::PageHead;
use acp_catalog::visitor::VisitorState;
use leptos::either::Either;
use leptos::prelude::*;
use leptos_meta::{Meta, provide_meta_context};
use leptos_router::components::Router;
use registry_validate::{Diagnostic, Severity};
use wasm_bindgen::JsCast;

use crate::analysis::{Analysis, EXAMPLE_ICON, EXAMPLE_MANIFEST, analyse};
use crate::excerpt::{Excerpt, excerpt, utf16_range};

/// The id of the manifest's editor.
pub const MANIFEST_EDITOR: &str = "manifest-editor";
/// Where the draft is kept between visits (this browser only).
const DRAFT_KEY: &str = "acp-preview-draft";
/// Set while a kept draft is being opened, and cleared once the page has shown it for
/// [`OPENED_AFTER`] or is left: still set at the next visit, the last opening stopped (the tab
/// crashed, or hung and was killed), and the draft is not opened again unless asked.
const OPENING_KEY: &str = "acp-preview-draft-opening";
/// How long a kept draft must have been shown to count as opened.
const OPENED_AFTER: std::time::Duration = std::time::Duration::from_secs(3);
/// The id of the icon's editor.
pub const ICON_EDITOR: &str = "icon-editor";

/// The manifest and icon being edited.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Draft {
    /// The manifest's text.
    pub manifest: String,
    /// The icon's text.
    pub icon: String,
}

/// The draft an earlier visit kept in this browser, as found at the start of this one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    /// The draft to open (empty when there is none, or it is held back).
    pub draft: Draft,
    /// A kept draft not opened, because the last visit that opened it stopped before showing
    /// it: the page offers to open it anyway or to discard it.
    pub held_back: Option<Draft>,
}

impl Draft {
    /// The draft kept in this browser by an earlier visit, unless opening it last time never
    /// finished. Opening it now is recorded, and forgotten once it has been shown.
    pub fn kept() -> Kept {
        let (manifest, icon) = load_draft();
        let draft = Draft { manifest, icon };
        if draft.is_empty() {
            return Kept::default();
        }
        if storage().is_some_and(|s| s.get_item(OPENING_KEY).ok().flatten().is_some()) {
            return Kept {
                draft: Draft::default(),
                held_back: Some(draft),
            };
        }
        opening();
        Kept {
            draft,
            held_back: None,
        }
    }

    /// Neither a manifest nor an icon.
    pub fn is_empty(&self) -> bool {
        self.manifest.is_empty() && self.icon.is_empty()
    }

    /// This draft, with what was typed into the page the build rendered (before the app was
    /// live) in place of its fields: what the visitor sees is what is checked.
    pub fn with_typed(self, typed_manifest: Option<String>, typed_icon: Option<String>) -> Draft {
        Draft {
            manifest: typed_manifest
                .filter(|t| !t.is_empty())
                .unwrap_or(self.manifest),
            icon: typed_icon.filter(|t| !t.is_empty()).unwrap_or(self.icon),
        }
    }
}

/// The preview's whole page: the site's header and footer around [`PreviewPage`].
#[component]
pub fn PreviewApp(
    /// The visitor's platform, for the page's run commands.
    visitor: VisitorState,
    /// What to start with: the kept draft in the browser, nothing at build time.
    draft: Draft,
    /// A kept draft not opened ([`Kept::held_back`]).
    #[prop(optional_no_strip)]
    held_back: Option<Draft>,
) -> impl IntoView {
    provide_meta_context();
    provide_context(visitor);
    view! {
        <PageHead
            title="Preview your listing".to_owned()
            description="Check an ACP agent manifest and icon with the registry's rules and see its card and page before publishing. Nothing leaves your browser."
        />
        <Meta name="robots" content="noindex" />
        // The card uses the router's location; there are no routes here.
        <Router base=config::router_base()>
            <SiteShell>
                <PreviewPage draft held_back />
            </SiteShell>
        </Router>
    }
}

/// The editors, the problems, the card and the page.
#[component]
pub fn PreviewPage(
    /// The texts to start with.
    draft: Draft,
    /// A kept draft not opened ([`Kept::held_back`]).
    #[prop(optional_no_strip)]
    held_back: Option<Draft>,
) -> impl IntoView {
    let manifest = RwSignal::new(draft.manifest);
    let icon = RwSignal::new(draft.icon);
    let held_back = RwSignal::new(held_back);
    // A held-back draft stays kept until it is opened, discarded or replaced by typing.
    Effect::new(move |_| {
        manifest.with(|m| {
            icon.with(|i| {
                if !(m.is_empty() && i.is_empty() && held_back.with_untracked(Option::is_some)) {
                    save_draft(m, i);
                }
            })
        })
    });
    let analysis = Memo::new(move |_| {
        let text = manifest.get();
        if text.trim().is_empty() {
            return None;
        }
        let icon = icon.get();
        let icon = (!icon.trim().is_empty()).then_some(icon.as_str());
        Some(Arc::new(analyse(&text, icon)))
    });
    let icon_url = icon_object_url(analysis);

    view! {
        <div class="py-8">
            <h1 class="text-3xl font-bold tracking-tight">"Preview your listing"</h1>
            <p class="mt-2 max-w-3xl text-slate-700 dark:text-slate-300">
                "Paste or drop your " <code>"agent.json"</code> " (comments allowed) and " <code>"icon.svg"</code>
                ". They are checked with the registry's rules, as " <code>"acp-registry validate"</code>
                " checks them, and shown as the catalogue will show them. Nothing leaves your browser: the draft is kept in it (local storage) until you clear it."
            </p>
        </div>
        <HeldBack held_back manifest icon />
        <div class="grid gap-8 lg:grid-cols-2">
            <Editors manifest icon />
            <Problems analysis manifest icon />
        </div>
        <Listing analysis icon_url />
    }
}

/// The notice of a kept draft not opened, with the choice to open it anyway or discard it.
#[component]
fn HeldBack(
    held_back: RwSignal<Option<Draft>>,
    manifest: RwSignal<String>,
    icon: RwSignal<String>,
) -> impl IntoView {
    let open = move |_| {
        if let Some(draft) = held_back.get_untracked() {
            opening();
            held_back.set(None);
            manifest.set(draft.manifest);
            icon.set(draft.icon);
        }
    };
    let discard = move |_| {
        held_back.set(None);
        if let Some(storage) = storage() {
            let _ = storage.remove_item(DRAFT_KEY);
            let _ = storage.remove_item(OPENING_KEY);
        }
    };
    let button = "rounded-md border border-amber-400 px-3 py-1.5 text-sm font-medium hover:bg-amber-100 focus:outline-none focus:ring-2 focus:ring-indigo-500 dark:border-amber-700 dark:hover:bg-amber-900/60";
    move || {
        held_back.with(Option::is_some).then(|| {
            view! {
                <div role="alert" class="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100">
                    <p>
                        "The draft kept in this browser was not opened: the last time it was, the page stopped before showing it (the tab may have crashed on it)."
                    </p>
                    <div class="mt-3 flex flex-wrap gap-2">
                        <button type="button" class=button on:click=open>"Open it anyway"</button>
                        <button type="button" class=button on:click=discard>"Discard it"</button>
                    </div>
                </div>
            }
        })
    }
}

/// This browser's local storage, when the page may use it.
fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// Records that a kept draft is being opened ([`OPENING_KEY`]), until it has been shown for
/// [`OPENED_AFTER`] or the page is left. The record is this opening's own: another tab's, set
/// since, is left for that tab to clear.
fn opening() {
    let Some(storage) = storage() else {
        return;
    };
    let token = js_sys::Math::random().to_string();
    let _ = storage.set_item(OPENING_KEY, &token);
    let opened = move || {
        if let Some(storage) = self::storage()
            && storage.get_item(OPENING_KEY).ok().flatten().as_deref() == Some(token.as_str())
        {
            let _ = storage.remove_item(OPENING_KEY);
        }
    };
    let on_leave = opened.clone();
    set_timeout(opened, OPENED_AFTER);
    let left = window_event_listener(leptos::ev::pagehide, move |_| on_leave());
    // For the page's lifetime.
    std::mem::forget(left);
}

/// The draft kept by [`save_draft`]: manifest and icon texts (empty when there is none).
fn load_draft() -> (String, String) {
    let text = storage().and_then(|storage| storage.get_item(DRAFT_KEY).ok().flatten());
    let draft: Option<serde_json::Value> = text.and_then(|t| serde_json::from_str(&t).ok());
    let field = |name: &str| {
        draft
            .as_ref()
            .and_then(|d| d.get(name))
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    (field("manifest"), field("icon"))
}

/// Keeps the draft in this browser's local storage, or forgets it when both texts are empty.
fn save_draft(manifest: &str, icon: &str) {
    let Some(storage) = storage() else {
        return;
    };
    if manifest.is_empty() && icon.is_empty() {
        let _ = storage.remove_item(DRAFT_KEY);
    } else {
        let draft = serde_json::json!({ "manifest": manifest, "icon": icon });
        let _ = storage.set_item(DRAFT_KEY, &draft.to_string());
    }
}

/// The icon as an object URL of its sanitised text (what `acp-registry build` publishes), while
/// the analysis accepts it; the previous URL is revoked.
fn icon_object_url(analysis: Memo<Option<Arc<Analysis>>>) -> RwSignal<Option<String>> {
    let url = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        let next = analysis.with(|a| {
            a.as_ref()
                .and_then(|a| a.shown_icon.as_deref())
                .and_then(object_url)
        });
        if let Some(old) = url.get_untracked() {
            let _ = web_sys::Url::revoke_object_url(&old);
        }
        url.set(next);
    });
    url
}

fn object_url(svg: &str) -> Option<String> {
    let parts = js_sys::Array::of1(&svg.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("image/svg+xml");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    web_sys::Url::create_object_url_with_blob(&blob).ok()
}

#[component]
fn Editors(manifest: RwSignal<String>, icon: RwSignal<String>) -> impl IntoView {
    let dragging = RwSignal::new(false);
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        if let Some(files) = ev.data_transfer().and_then(|t| t.files()) {
            read_files(files, manifest, icon);
        }
    };
    let on_pick = move |ev: web_sys::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(files) = input.files() {
            read_files(files, manifest, icon);
        }
        input.set_value("");
    };
    let load_example = move |_| {
        manifest.set(EXAMPLE_MANIFEST.to_owned());
        icon.set(EXAMPLE_ICON.to_owned());
    };
    let clear = move |_| {
        manifest.set(String::new());
        icon.set(String::new());
    };
    let button = "rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 focus:outline-none focus:ring-2 focus:ring-indigo-500 dark:border-slate-700 dark:hover:bg-slate-800";
    view! {
        <section
            aria-labelledby="files-heading"
            class=move || {
                format!(
                    "rounded-xl border-2 border-dashed p-4 {}",
                    if dragging.get() {
                        "border-indigo-500 bg-indigo-50 dark:bg-indigo-950/40"
                    } else {
                        "border-transparent"
                    },
                )
            }
            on:dragover=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                dragging.set(true);
            }
            on:dragleave=move |_| dragging.set(false)
            on:drop=on_drop
        >
            <h2 id="files-heading" class="sr-only">"Your files"</h2>
            <div class="flex flex-wrap items-center gap-2">
                <label class=format!("{button} cursor-pointer focus-within:ring-2 focus-within:ring-indigo-500")>
                    "Open files…"
                    <input
                        type="file"
                        multiple
                        accept=".json,.jsonc,.svg,application/json,image/svg+xml"
                        class="sr-only"
                        on:change=on_pick
                    />
                </label>
                <button type="button" class=button on:click=load_example>"Load an example"</button>
                <button type="button" class=button on:click=clear>"Clear"</button>
                <span class="text-sm text-slate-600 dark:text-slate-400">"or drop files here"</span>
            </div>
            <Editor id=MANIFEST_EDITOR label="agent.json" rows=18 text=manifest placeholder="{\n  \"id\": \"your-agent\",\n  …\n}" />
            <Editor id=ICON_EDITOR label="icon.svg" rows=5 text=icon placeholder="<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"16\" height=\"16\" …>" />
        </section>
    }
}

/// A labelled code editor (a plain `<textarea>`) bound to `text`.
#[component]
fn Editor(
    id: &'static str,
    label: &'static str,
    rows: u32,
    text: RwSignal<String>,
    placeholder: &'static str,
) -> impl IntoView {
    view! {
        <label for=id class="mt-4 block text-sm font-semibold">{label}</label>
        <textarea
            id=id
            class="mt-1 block w-full rounded-lg border border-slate-300 bg-white p-3 font-mono text-sm leading-5 text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
            rows=rows
            spellcheck="false"
            autocomplete="off"
            wrap="off"
            placeholder=placeholder
            prop:value=move || text.get()
            on:input=move |ev| text.set(event_target_value(&ev))
        ></textarea>
    }
}

/// Reads dropped or picked files: `.svg` files into the icon, anything else into the manifest.
fn read_files(files: web_sys::FileList, manifest: RwSignal<String>, icon: RwSignal<String>) {
    for index in 0..files.length() {
        let Some(file) = files.item(index) else {
            continue;
        };
        let is_icon = file.name().to_ascii_lowercase().ends_with(".svg")
            || file.type_().eq_ignore_ascii_case("image/svg+xml");
        let target = if is_icon { icon } else { manifest };
        let text = wasm_bindgen_futures::JsFuture::from(file.text());
        leptos::task::spawn_local(async move {
            if let Ok(text) = text.await
                && let Some(text) = text.as_string()
            {
                target.set(text);
            }
        });
    }
}

#[component]
fn Problems(
    analysis: Memo<Option<Arc<Analysis>>>,
    manifest: RwSignal<String>,
    icon: RwSignal<String>,
) -> impl IntoView {
    let summary = move || {
        analysis.with(|a| match a {
            None => "Paste or drop an agent.json to check it.".to_owned(),
            Some(a) => {
                let (errors, warnings) = (a.count(Severity::Error), a.count(Severity::Warning));
                match (errors, warnings) {
                    (0, 0) => {
                        "No problems: the registry's CI would accept this listing.".to_owned()
                    }
                    (0, w) => format!(
                        "{w} {}; the registry's CI would accept this listing.",
                        plural(w, "warning", "warnings")
                    ),
                    (e, w) => format!(
                        "{e} {}, {w} {}: the registry's CI would reject this listing.",
                        plural(e, "error", "errors"),
                        plural(w, "warning", "warnings")
                    ),
                }
            }
        })
    };
    let items = move || {
        let Some(a) = analysis.get() else {
            return Vec::new();
        };
        let manifest_file = a.manifest_file();
        a.diagnostics
            .iter()
            .map(|d| {
                let source = if d.file == manifest_file {
                    Some((MANIFEST_EDITOR, manifest))
                } else if d.file == a.icon_file() {
                    Some((ICON_EDITOR, icon))
                } else {
                    None
                };
                view! { <Problem diagnostic=d.clone() source /> }
            })
            .collect_view()
            .into_iter()
            .collect::<Vec<_>>()
    };
    view! {
        <section aria-labelledby="problems-heading" class="min-w-0">
            <h2 id="problems-heading" class="text-xl font-semibold">"Problems"</h2>
            <p class="mt-2 text-sm" role="status">{summary}</p>
            <ul class="mt-3 space-y-3" aria-label="Problems">{items}</ul>
        </section>
    }
}

#[component]
fn Problem(
    diagnostic: Diagnostic,
    /// The editor holding the file, and its text.
    source: Option<(&'static str, RwSignal<String>)>,
) -> impl IntoView {
    let (badge, label) = match diagnostic.severity {
        Severity::Error => (
            "bg-red-100 text-red-900 dark:bg-red-900/50 dark:text-red-100",
            "error",
        ),
        Severity::Warning => (
            "bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100",
            "warning",
        ),
    };
    let place = match diagnostic.span {
        Some(span) => format!("{}:{}:{}", diagnostic.file, span.line, span.column),
        None => diagnostic.file.clone(),
    };
    let shown: Option<Excerpt> = match (diagnostic.span, source) {
        (Some(span), Some((_, text))) => text.with_untracked(|t| excerpt(t, span)),
        _ => None,
    };
    let place_view = match (diagnostic.span, source) {
        (Some(span), Some((editor, text))) => {
            let go = move |_| {
                let range = text.with_untracked(|t| utf16_range(t, span.range()));
                select_in(editor, range);
            };
            Either::Left(view! {
                <button
                    type="button"
                    class="font-mono text-indigo-700 underline hover:no-underline dark:text-indigo-300"
                    title="Show in the editor"
                    on:click=go
                >
                    {place}
                </button>
            })
        }
        _ => Either::Right(view! { <span class="font-mono">{place}</span> }),
    };
    view! {
        <li class="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-800">
            <p class="flex flex-wrap items-baseline gap-x-2">
                <span class=format!("rounded px-1.5 text-xs font-semibold leading-5 {badge}")>{label}</span>
                <code class="text-xs text-slate-600 dark:text-slate-400">{diagnostic.rule.as_str()}</code>
                {place_view}
            </p>
            <p class="mt-1">{diagnostic.message}</p>
            {shown.map(|e| view! {
                <pre class="mt-2 overflow-x-auto rounded bg-slate-100 p-2 font-mono text-xs leading-5 dark:bg-slate-900"><code>
                    {format!("{:>4} | {}\n     | {}", e.line, e.text, e.marker)}
                </code></pre>
            })}
            <p class="mt-1 text-slate-600 dark:text-slate-400">"Fix: " {diagnostic.hint}</p>
        </li>
    }
}

/// Focuses an editor and selects `range` (UTF-16 offsets) in it.
fn select_in(editor: &str, range: std::ops::Range<u32>) {
    let Some(area) = document()
        .get_element_by_id(editor)
        .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
    else {
        return;
    };
    let _ = area.focus();
    let _ = area.set_selection_range(range.start, range.end);
}

#[component]
fn Listing(
    analysis: Memo<Option<Arc<Analysis>>>,
    icon_url: RwSignal<Option<String>>,
) -> impl IntoView {
    let listing = move || {
        let analysis = analysis.get()?;
        let icon_note = (!analysis.icon_accepted).then(|| {
            let why = if analysis.diagnostics.iter().any(|d| d.file == analysis.icon_file()) {
                "Your icon is not shown until its errors are fixed; the catalogue shows this monogram instead."
            } else {
                "Without an icon.svg the catalogue shows this monogram (and the registry's CI rejects the listing)."
            };
            view! { <p class="mt-2 text-sm text-slate-600 dark:text-slate-400">{why}</p> }
        });
        let Some(mut entry) = analysis.entry.clone() else {
            let why = analysis.unreadable.clone().unwrap_or_default();
            return Some(Either::Right(view! {
                <p class="mt-3 text-sm text-slate-600 dark:text-slate-400" role="note">
                    "The card and page appear once the manifest can be read. " {why}
                </p>
            }));
        };
        // The uploaded icon is drawn from an object URL of this page, never from the manifest.
        entry.icon = None;
        let entry = Arc::new(entry);
        let icon = icon_url.get();
        Some(Either::Left(view! {
            <h3 class="mt-4 text-sm font-semibold text-slate-600 dark:text-slate-400">"Card"</h3>
            // Links lead nowhere yet: keep the maintainer on their draft.
            <ul
                class="mt-2 grid max-w-xl gap-4"
                aria-label="Card preview"
                on:click=|ev| ev.prevent_default()
            >
                <AgentCard entry=entry.clone() icon=icon.clone() highlights=Highlights::none() />
            </ul>
            {icon_note}
            <h3 class="mt-8 text-sm font-semibold text-slate-600 dark:text-slate-400">"Page"</h3>
            <div
                class="mt-2 rounded-xl border border-slate-200 px-4 dark:border-slate-800 sm:px-6"
                role="region"
                aria-label="Page preview"
            >
                <EntryDetails entry icon report=None matrix_problem=None />
            </div>
        }))
    };
    view! {
        <section aria-labelledby="listing-heading" class="mt-12">
            <h2 id="listing-heading" class="text-xl font-semibold">"Your listing"</h2>
            {listing}
        </section>
    }
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}
