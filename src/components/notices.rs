//! What went wrong while loading, said plainly.
//!
//! In the page: [`LoadErrorPanel`] (nothing could be loaded), [`IncompleteNotice`] (paging
//! stopped at a failed page), [`DiagnosticsNotice`] (entries left out), [`ScriptNeeded`] (what
//! the page cannot do without its script, said where it would be done). Beside every page,
//! fixed at the bottom of the window and mounted apart from the app by [`crate::boot`]:
//! [`NetworkNotices`], how the network is going: still waiting (and for what), the copy kept
//! from an earlier visit and its age, the built page standing in for a registry that failed,
//! the progress of paging, and one quiet line per optional file that could not be loaded.

use leptos::prelude::*;
use registry_core::{Diagnostic, Location, Severity};

use crate::registry::{
    FetchError, OptionalStatus, Phase, RegistryState, Status, Waiting, age_words, file_name,
    size_words, use_registry,
};
use crate::timing::now;

/// The attribute of the notice the start-up script (`src/start.js`) shows when the app cannot
/// start: its script or its wasm failed to load or to run.
pub const APP_FAILED: &str = "data-app-failed";

/// Says, beside controls that need the app (`what`: "Search, filters and sorting"), that they
/// cannot work without it, and what still does (`still`): to a browser without JavaScript (the
/// line is hidden on a page with it, from before its first paint: `styles/theme.js` marks the
/// page `js`), and, in a hidden line the start-up script shows ([`APP_FAILED`]), when the app
/// fails to start. While the app loads and once it is live, neither takes any room.
#[component]
pub fn ScriptNeeded(
    /// The controls, as the start of a sentence.
    what: &'static str,
    /// What still works without them, as a sentence.
    still: &'static str,
) -> impl IntoView {
    const CLASS: &str = "mt-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100";
    view! {
        <p class=format!("{CLASS} [.js_&]:hidden")>{format!("{what} need JavaScript. {still}")}</p>
        <p role="status" class=CLASS hidden data-app-failed="">
            {format!("{what} could not start: this page's script did not load. {still} Reloading the page tries again.")}
        </p>
    }
}

/// The registry could not be loaded at all: the URL, the cause and a retry button.
#[component]
pub fn LoadErrorPanel(
    /// What failed.
    error: FetchError,
) -> impl IntoView {
    let registry = use_registry();
    view! {
        <div role="alert" class="mt-8 rounded-xl border border-red-300 bg-red-50 p-6 text-red-950 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100">
            <h2 class="text-lg font-semibold">"The registry could not be loaded"</h2>
            <p class="mt-2 break-words">{error.to_string()}</p>
            <Attempts registry />
            <RetryButton registry class="mt-4 rounded-md bg-red-700 px-4 py-2 text-sm font-medium text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:opacity-60" />
        </div>
    }
}

/// A Retry button that says when it is retrying.
#[component]
fn RetryButton(registry: RegistryState, class: &'static str) -> impl IntoView {
    let retrying = move || registry.status() == Status::Loading;
    view! {
        <button
            type="button"
            class=class
            disabled=retrying
            aria-busy=move || retrying().to_string()
            on:click=move |_| registry.retry()
        >
            {move || if retrying() { "Retrying…" } else { "Retry" }}
        </button>
    }
}

/// What the attempts so far came to, once the registry was asked for again: "Attempt 3
/// failed at 14:03:12."
#[component]
fn Attempts(registry: RegistryState) -> impl IntoView {
    move || {
        let attempts = registry.attempts();
        let failed = matches!(registry.status(), Status::Failed(_));
        (attempts > 0 && failed).then(|| {
            view! {
                <p class="mt-1 text-sm opacity-90">
                    {format!("Attempt {} failed at {}.", attempts + 1, clock(registry.failed_at()))}
                </p>
            }
        })
    }
}

/// `14:03:12`, in the visitor's time zone.
fn clock(at: f64) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(at));
        format!(
            "{:02}:{:02}:{:02}",
            date.get_hours(),
            date.get_minutes(),
            date.get_seconds()
        )
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = at;
        String::new()
    }
}

/// "Still waiting for registry.json… (5 s, 1.2 MB so far)".
pub fn waiting_sentence(url: &str, waiting: Waiting) -> String {
    let so_far = if waiting.received > 0 {
        format!(", {} so far", size_words(waiting.received))
    } else {
        String::new()
    };
    format!(
        "Still waiting for {}… ({} s{so_far})",
        file_name(url),
        waiting.seconds
    )
}

/// How the network is going, beside every page (see the module's doc).
#[component]
pub fn NetworkNotices(
    /// The registry state the app shows.
    registry: RegistryState,
    /// Whether the page the HTML brought is a whole page (it stays while nothing loaded).
    prerendered: bool,
) -> impl IntoView {
    let url = crate::registry::registry_url();
    let main = move || {
        let url = url.clone();
        let status = registry.status();
        let waiting = registry.waiting();
        match (registry.kept(), registry.phase(), status) {
            (Some(fetched_at), _, status) => {
                Some(view! { <KeptNotice registry fetched_at status waiting url /> }.into_any())
            }
            (None, Phase::Failed, _) if prerendered => registry
                .failure()
                .map(|error| view! { <StaticCopyNotice error registry /> }.into_any()),
            (None, Phase::Ready, Status::Loading) => registry.progress().map(|progress| {
                let text = match waiting {
                    Some(waiting) => format!(
                        "{} — waiting for {} s",
                        progress.sentence(),
                        waiting.seconds
                    ),
                    None => progress.sentence(),
                };
                view! { <p role="status" class=STATUS_CLASS>{text}</p> }.into_any()
            }),
            (None, _, Status::Loading) => waiting.map(|waiting| {
                let built = (prerendered && registry.phase() == Phase::Loading)
                    .then_some(" This page shows the registry as it was when the site was built.");
                view! {
                    <p role="status" class=STATUS_CLASS>
                        <strong class="font-semibold">{waiting_sentence(&url, waiting)}</strong>
                        {built}
                    </p>
                }
                .into_any()
            }),
            _ => None,
        }
    };
    view! {
        <div class="pointer-events-none fixed inset-x-0 bottom-0 z-40 flex flex-col items-stretch">
            <div class="pointer-events-auto">{main}</div>
            <OptionalNotices registry />
        </div>
    }
}

const STATUS_CLASS: &str = "border-t border-slate-300 bg-white px-4 py-3 text-sm text-slate-800 shadow-lg dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200";

const BANNER_CLASS: &str = "border-t border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 shadow-lg dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100";

const BANNER_BUTTON: &str = "rounded-md bg-amber-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-amber-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-700 disabled:opacity-60";

/// The registry on screen is the copy kept from an earlier visit: its age, why, and a retry.
#[component]
fn KeptNotice(
    registry: RegistryState,
    fetched_at: f64,
    status: Status,
    waiting: Option<Waiting>,
    url: String,
) -> impl IntoView {
    let age = format!(
        "Showing the registry as of {}",
        age_words(now() - fetched_at)
    );
    let (why, details) = match &status {
        Status::Failed(error) => (error.headline(), Some(error.to_string())),
        Status::Loading => (
            match waiting {
                Some(waiting) => waiting_sentence(&url, waiting).replacen("Still", "still", 1),
                None => format!("asking for {} again…", file_name(&url)),
            },
            None,
        ),
        Status::Done => (String::new(), None),
    };
    let role = if matches!(status, Status::Failed(_)) {
        "alert"
    } else {
        "status"
    };
    view! {
        <div role=role class=BANNER_CLASS>
            <div class="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3">
                <div class="min-w-0 break-words">
                    <p>
                        <strong class="font-semibold">{age}</strong>
                        {(!why.is_empty()).then(|| format!(": {why}"))}
                    </p>
                    {details.map(|d| view! { <p class="mt-1 text-xs opacity-90">{d}</p> })}
                    <Attempts registry />
                </div>
                {matches!(status, Status::Failed(_) | Status::Loading).then(|| view! { <RetryButton registry class=BANNER_BUTTON /> })}
            </div>
        </div>
    }
}

/// The pre-rendered page is what the build saw; the live registry could not be loaded.
#[component]
fn StaticCopyNotice(error: FetchError, registry: RegistryState) -> impl IntoView {
    view! {
        <div role="alert" class=BANNER_CLASS>
            <div class="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3">
                <div class="min-w-0 break-words">
                    <p>
                        <strong class="font-semibold">"This page shows the registry as it was when the site was built. "</strong>
                        {format!("The live registry could not be loaded: {error}")}
                    </p>
                    <Attempts registry />
                </div>
                <RetryButton registry class=BANNER_BUTTON />
            </div>
        </div>
    }
}

/// One quiet line per optional file that could not be loaded (or is a kept copy), until
/// dismissed.
#[component]
fn OptionalNotices(registry: RegistryState) -> impl IntoView {
    let dismissed = RwSignal::new(false);
    let lines = Memo::new(move |_| {
        registry
            .optional()
            .into_iter()
            .filter_map(|(source, status)| match status {
                OptionalStatus::Failed(why) => Some(format!(
                    "{} could not be loaded: {why} Meanwhile {}.",
                    source.what(),
                    source.without()
                )),
                OptionalStatus::Kept { fetched_at, why } => Some(format!(
                    "{}: using the copy kept {}. {why}",
                    source.what(),
                    age_words(now() - fetched_at)
                )),
                OptionalStatus::Pending | OptionalStatus::Loaded | OptionalStatus::Off => None,
            })
            .collect::<Vec<_>>()
    });
    move || {
        let lines = lines.get();
        (!lines.is_empty() && !dismissed.get()).then(|| {
            view! {
                <div role="status" aria-label="Optional files" class="pointer-events-auto border-t border-slate-200 bg-slate-50 px-4 py-2 text-xs text-slate-700 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-300">
                    <div class="mx-auto flex max-w-6xl items-start justify-between gap-3">
                        <ul class="min-w-0 space-y-1 break-words">
                            {lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
                        </ul>
                        <button
                            type="button"
                            class="shrink-0 rounded px-2 py-0.5 underline hover:no-underline"
                            on:click=move |_| dismissed.set(true)
                        >
                            "Dismiss"
                        </button>
                    </div>
                </div>
            }
        })
    }
}

/// Paging through the registry stopped at a failed page: what is shown, why the rest is missing,
/// and a retry that resumes at that page.
#[component]
pub fn IncompleteNotice(
    /// Why the rest is missing.
    why: String,
    /// How many entries are shown.
    loaded: usize,
) -> impl IntoView {
    let registry = use_registry();
    view! {
        <div role="alert" class="mt-4 flex flex-wrap items-start justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100">
            <div class="min-w-0">
                <p class="font-medium">{format!("Only part of the registry could be loaded: showing the {loaded} {} loaded so far.", plural(loaded, "agent", "agents"))}</p>
                <p class="mt-1 break-words">{why}</p>
            </div>
            <button
                type="button"
                class="rounded-md bg-amber-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-amber-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-700"
                on:click=move |_| registry.retry()
            >
                "Load the rest"
            </button>
        </div>
    }
}

/// Entries left out or oddities found: a collapsible notice listing each with where it is.
#[component]
pub fn DiagnosticsNotice(
    /// Every problem found while loading.
    diagnostics: Vec<Diagnostic>,
) -> impl IntoView {
    let summary = summary(&diagnostics);
    view! {
        // A live region around the disclosure: `status` is not a role a <details> may take.
        <div role="status" class="mt-4">
            <details class="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100">
                <summary class="cursor-pointer font-medium">{summary}</summary>
                <ul class="mt-2 list-disc space-y-1 pl-5">
                    {diagnostics.into_iter().map(|d| view! { <li>{describe(&d)}</li> }).collect_view()}
                </ul>
            </details>
        </div>
    }
}

/// "2 entries could not be shown, and 1 warning": entries left out are counted once however
/// many errors each has; warnings are counted one by one.
fn summary(diagnostics: &[Diagnostic]) -> String {
    let mut left_out: Vec<&Location> = Vec::new();
    for d in diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        if !left_out.contains(&&d.location) {
            left_out.push(&d.location);
        }
    }
    let warnings = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    match (left_out.len(), warnings) {
        (0, w) => format!("{w} {} in the registry", plural(w, "warning", "warnings")),
        (e, 0) => format!("{e} {} could not be shown", plural(e, "entry", "entries")),
        (e, w) => format!(
            "{e} {} could not be shown, and {w} {}",
            plural(e, "entry", "entries"),
            plural(w, "warning", "warnings")
        ),
    }
}

/// One line per diagnostic: `agents[3] (id "foo"): error: missing field "name"`.
pub fn describe(diagnostic: &Diagnostic) -> String {
    let place = match &diagnostic.location {
        Location::Registry => "registry".to_owned(),
        Location::Entry { kind, index, id } => {
            let array = kind.path_segment();
            match id {
                Some(id) => format!("{array}[{index}] (id \"{id}\")"),
                None => format!("{array}[{index}]"),
            }
        }
        Location::Item { page, index, id } => match id {
            Some(id) => format!("page {page}, items[{index}] (id \"{id}\")"),
            None => format!("page {page}, items[{index}]"),
        },
    };
    let severity = match diagnostic.severity {
        Severity::Error => "left out",
        Severity::Warning => "warning",
    };
    match &diagnostic.hint {
        Some(hint) => format!("{place}, {severity}: {} (fix: {hint})", diagnostic.message),
        None => format!("{place}, {severity}: {}", diagnostic.message),
    }
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

#[cfg(test)]
mod tests {
    use registry_core::Kind;

    use super::*;

    fn at(index: usize, severity: Severity) -> Diagnostic {
        Diagnostic {
            severity,
            location: Location::Entry {
                kind: Kind::Agent,
                index,
                id: None,
            },
            message: "m".to_owned(),
            hint: None,
        }
    }

    #[test]
    fn an_entry_with_several_errors_is_one_entry_left_out() {
        let errors = [
            at(1, Severity::Error),
            at(1, Severity::Error),
            at(1, Severity::Error),
        ];
        assert_eq!(summary(&errors), "1 entry could not be shown");
        let mixed = [
            at(1, Severity::Error),
            at(4, Severity::Error),
            at(1, Severity::Error),
            at(2, Severity::Warning),
            at(2, Severity::Warning),
        ];
        assert_eq!(
            summary(&mixed),
            "2 entries could not be shown, and 2 warnings"
        );
        assert_eq!(
            summary(&[at(0, Severity::Warning)]),
            "1 warning in the registry"
        );
    }
}
