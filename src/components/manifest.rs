//! `#manifest`: an entry exactly as published.

use std::sync::Arc;

use leptos::prelude::*;
use registry_core::Entry;

use crate::components::copy_button::CopyButton;
use crate::components::section::Section;

/// The entry's JSON as published, re-indented, with the fields the model does not know named.
#[component]
pub fn ManifestSection(
    /// The entry.
    entry: Arc<Entry>,
) -> impl IntoView {
    let pretty = pretty_json(&entry.raw);
    let unknown = entry.unknown_fields();
    view! {
        <Section id="manifest" title="Manifest" page=entry.path()>
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
pub fn pretty_json(raw: &str) -> String {
    serde_json::from_str::<serde_json::Value>(raw)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| raw.to_owned())
}
