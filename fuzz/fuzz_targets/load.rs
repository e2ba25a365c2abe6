//! `registry_core::load` on any text, then everything the site does with what loads: page
//! paths, look-alikes, the catalogue, and every snippet, which must hold no raw invisible
//! character and never run outside the install folder.
#![no_main]

use libfuzzer_sys::fuzz_target;
use registry_core::{
    Arch, Catalog, CatalogQuery, Method, Os, Platform, client_snippets, invisible, launch_command,
    refusal, run_snippets,
};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(loaded) = registry_core::load(text) else {
        return;
    };
    let platforms: Vec<Option<Platform>> = std::iter::once(None)
        .chain(Os::ALL.into_iter().flat_map(|os| {
            Arch::ALL
                .into_iter()
                .map(move |arch| Some(Platform { os, arch }))
        }))
        .collect();
    for entry in &loaded.registry.entries {
        let path = entry.path();
        assert_eq!(path.matches('/').count(), 2, "one segment per id: {path}");
        assert!(!path.ends_with("/.") && !path.ends_with("/.."), "{path}");
        for method in Method::ALL {
            for &platform in &platforms {
                for snippet in run_snippets(entry, method, platform) {
                    assert!(
                        !snippet
                            .code
                            .chars()
                            .any(|c| c != '\n' && invisible::classify(c).is_some()),
                        "a raw invisible character in {:?}",
                        snippet.code
                    );
                }
                if refusal(entry, method, platform).is_some() {
                    assert!(run_snippets(entry, method, platform).is_empty());
                    assert!(launch_command(entry, method, platform).is_none());
                }
                for snippet in client_snippets(entry, method, platform) {
                    assert!(
                        !snippet
                            .code
                            .chars()
                            .any(|c| c != '\n' && invisible::classify(c).is_some()),
                        "a raw invisible character in {:?}",
                        snippet.code
                    );
                }
            }
        }
    }
    let catalog = Catalog::new(loaded.registry);
    for (entry, warning) in (0..catalog.registry.entries.len())
        .flat_map(|i| catalog.lookalikes.warnings(i).iter().map(move |w| (i, w)))
    {
        let _ = (entry, warning.describe(&catalog.registry.entries));
    }
    let query: String = text.chars().take(24).collect();
    let view = catalog.view(&CatalogQuery::from_query_string(&format!("q={query}")));
    for &i in &view.results {
        let _ = view.matches.highlight(&catalog.registry.entries[i].name);
    }
});
