//! The AgentRegistry page parser on any text, then the entries it gives through the catalogue:
//! search, look-alikes and their protocol documents and snippets.
#![no_main]

use libfuzzer_sys::fuzz_target;
use registry_core::snippets::service_snippets;
use registry_core::{Catalog, CatalogQuery, Registry};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(page) = registry_core::parse_page(text, 1) else {
        return;
    };
    assert_eq!(page.page, 1);
    for entry in &page.entries {
        let path = entry.path();
        assert_eq!(path.matches('/').count(), 2, "{path}");
        if let Some(agent) = entry.service() {
            let _ = service_snippets(agent, "https://agents.example");
            let _ = agent.documents();
        }
    }
    let catalog = Catalog::new(Registry {
        version: None,
        entries: page.entries,
    });
    let _ = catalog.view(&CatalogQuery::from_query_string("q=agent"));
});
