//! A card's texts and the early search's fields: the entries rebuilt from the fields a page
//! carries rank and mark exactly as the catalogue does with the whole registry.

mod common;

use common::{agent, extension, real_registry};
use registry_core::card::{self, CardTexts, entries_of_fields, searched_fields};
use registry_core::{Catalog, CatalogQuery, SearchIndex};

/// Queries of every kind: words, prefixes, substrings, typos, several terms, authors, packages,
/// nothing matching, Unicode.
const QUERIES: [&str; 18] = [
    "",
    "gemini",
    "gem",
    "code",
    "claude",
    "gemni",
    "cluade cod",
    "open",
    "google",
    "@zed",
    "npx",
    "agent acp",
    "zzzz",
    "é",
    "GEMINI CLI",
    "fast-agent",
    "kimi",
    "ai",
];

#[test]
fn the_fields_rank_and_mark_as_the_whole_registry_does() {
    let whole = real_registry();
    let fields = searched_fields(&whole.entries);
    assert_eq!(fields.len(), whole.entries.len() * card::SEARCHED_FIELDS);
    let rebuilt = entries_of_fields(&fields);
    let catalog = Catalog::without_lookalikes(whole.clone());
    let early = SearchIndex::new(&rebuilt);
    for q in QUERIES {
        let query = CatalogQuery {
            q: q.to_owned(),
            ..CatalogQuery::default()
        };
        let view = catalog.view(&query);
        let matches = early.search(q);
        let order: Vec<usize> = matches.hits.iter().map(|hit| hit.entry).collect();
        assert_eq!(order, view.results, "{q:?}");
        for &i in &view.results {
            let texts = CardTexts::of(&whole.entries[i]);
            assert_eq!(CardTexts::of(&rebuilt[i]), texts, "{q:?}");
            for text in [&texts.name, &texts.description, &texts.authors] {
                assert_eq!(
                    card::marks(&matches, text),
                    card::marks(&view.matches, text),
                    "{q:?} in {text:?}"
                );
            }
        }
    }
    assert!(
        !catalog
            .view(&CatalogQuery::from_query_string("q=gemini"))
            .results
            .is_empty(),
        "the real registry has a Gemini"
    );
}

#[test]
fn authors_and_packages_survive_the_fields() {
    let mut one = agent("a", "Alpha");
    one.authors = vec!["Jane <jane@x.org>".into(), "".into(), "Acme".into()];
    one.distribution.uvx = Some(registry_core::PackageTarget {
        package: "alpha-acp==1.0".into(),
        ..Default::default()
    });
    let entries = vec![one, extension("b", "Beta")];
    let rebuilt = entries_of_fields(&searched_fields(&entries));
    assert_eq!(rebuilt[0].authors, entries[0].authors);
    assert_eq!(
        rebuilt[0].distribution.uvx.as_ref().map(|t| &t.package),
        Some(&"alpha-acp==1.0".to_owned())
    );
    assert_eq!(CardTexts::of(&rebuilt[0]).authors, "Jane, Acme");
    assert_eq!(rebuilt[1].authors, entries[1].authors);
    let index = SearchIndex::new(&rebuilt);
    assert_eq!(index.search("alpha-acp").hits[0].entry, 0);
    assert_eq!(index.search("jane").hits[0].entry, 0);
}
