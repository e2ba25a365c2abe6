//! A snippet to copy: its notes first (what is needed, what to fill in), then the code.

use leptos::prelude::*;
use registry_core::{Note, NoteKind};

use crate::components::copy_button::CopyButton;

/// A titled code block with a copy button.
#[component]
pub fn CodeBlock(
    /// What it is ("Run", "Zed: run this command").
    title: String,
    /// Where it goes, when it goes in a file.
    #[prop(optional)]
    file: Option<String>,
    /// The code, copied exactly.
    code: String,
    /// Requirements, things to fill in, caveats.
    #[prop(optional)]
    notes: Vec<Note>,
) -> impl IntoView {
    let what = match &file {
        Some(file) => format!("{title} ({file})"),
        None => title.clone(),
    };
    view! {
        <figure class="mt-4">
            <figcaption class="flex flex-wrap items-baseline justify-between gap-2">
                <span class="text-sm font-semibold">{title}</span>
                {file.map(|f| view! { <code class="text-xs text-slate-600 dark:text-slate-400">{f}</code> })}
            </figcaption>
            <NoteList notes />
            <div class="relative mt-2 flex items-start gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3 dark:border-slate-800 dark:bg-slate-900">
                <pre tabindex="0" class="min-w-0 flex-1 overflow-x-auto text-sm leading-6 focus-visible:outline-2 focus-visible:outline-indigo-600"><code>{code.clone()}</code></pre>
                <CopyButton text=code what />
            </div>
        </figure>
    }
}

/// Notes as a list, each marked with its kind.
#[component]
pub fn NoteList(
    /// The notes.
    notes: Vec<Note>,
) -> impl IntoView {
    (!notes.is_empty()).then(|| {
        view! {
            <ul class="mt-2 space-y-1 text-sm">
                {notes.into_iter().map(|note| {
                    let (label, class) = match note.kind {
                        NoteKind::Requirement => ("Needs", "text-slate-700 dark:text-slate-300"),
                        NoteKind::FillIn => ("Fill in", "text-amber-800 dark:text-amber-300"),
                        NoteKind::Caveat => ("Note", "text-slate-600 dark:text-slate-400"),
                    };
                    view! {
                        <li class=class>
                            <strong class="font-semibold">{label}": "</strong>{note.text}
                        </li>
                    }
                }).collect_view()}
            </ul>
        }
    })
}
