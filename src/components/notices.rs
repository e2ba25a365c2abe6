//! What went wrong while loading, said plainly.

use leptos::prelude::*;
use registry_core::{Diagnostic, Location, Severity};

use crate::registry::{FetchError, use_registry};

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
            <button
                type="button"
                class="mt-4 rounded-md bg-red-700 px-4 py-2 text-sm font-medium text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700"
                on:click=move |_| registry.retry()
            >
                "Retry"
            </button>
        </div>
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
