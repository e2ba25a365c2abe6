//! `#editors`: the configuration to paste into each ACP client, for the method of `#run`.

use std::sync::Arc;

use leptos::prelude::*;
use registry_core::snippets::{self, Client};
use registry_core::{Entry, Method};

use crate::components::code_block::CodeBlock;
use crate::components::section::Section;
use crate::components::tabs::{Tab, TabList, panel_id, tab_id};
use crate::components::verdicts::EditorTab;
use crate::config;
use crate::visitor::use_visitor;

/// One tab per client, each with its files and snippets.
#[component]
pub(super) fn EditorsSection(
    /// The entry.
    entry: Arc<Entry>,
    /// The method chosen in `#run`, if the visitor chose one.
    chosen: RwSignal<Option<Method>>,
    /// Whether `entry` is the release the JetBrains preview channel serves: then Zed's registry
    /// form, which installs the registry's own release, is left out.
    #[prop(optional)]
    preview: bool,
) -> impl IntoView {
    let visitor = use_visitor();
    // Shared with "In your editor", whose rows open a client's tab.
    let client = use_context::<EditorTab>().map_or_else(|| RwSignal::new(Client::Zed), |tab| tab.0);
    let tabs: Vec<Tab<Client>> = Client::ALL
        .into_iter()
        .map(|c| Tab {
            value: c,
            label: c.label(),
        })
        .collect();
    let selected = Signal::derive(move || client.get());
    let on_select = Callback::new(move |c: Client| client.set(c));
    let panel_entry = entry.clone();
    let blocks = Memo::new(move |_| {
        let platform = visitor.get().platform;
        let dist = &panel_entry.distribution;
        let method = chosen
            .get()
            .filter(|m| dist.methods().contains(m))
            .or_else(|| snippets::preferred_method(dist, Some(platform)));
        let mut out: Vec<_> = method
            .map(|m| snippets::client_snippets(&panel_entry, m, Some(platform)))
            .unwrap_or_default();
        let registry_form = preview
            .then(|| snippets::zed_registry_snippet(&panel_entry))
            .flatten();
        out.retain(|s| s.client == client.get() && Some(s) != registry_form.as_ref());
        out
    });
    view! {
        <Section id="editors" title="Add it to your editor" page=entry.path()>
            <p class="mt-3 text-sm text-slate-600 dark:text-slate-400">
                "Paste the configuration into the file named above it. It runs the method and platform chosen in "
                <a class="underline" href=format!("{}#run", config::href(&entry.path()))>"Run it"</a>"."
            </p>
            <div class="mt-4">
                <TabList label="Editor" id="editors" tabs selected on_select />
                <div role="tabpanel" id=panel_id("editors") aria-labelledby=move || tab_id("editors", selected.get().as_str()) class="pt-2">
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
