//! The early search answers as the catalogue does: the same results in the same order, the
//! same count, the same marks (as UTF-16 offsets), over the fields a page carries.

use acp_early::Early;
use registry_core::card::{self, CardTexts, searched_fields};
use registry_core::{Catalog, CatalogQuery};

fn bundled() -> registry_core::Registry {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../public/registry.json"
    ))
    .expect("the bundled registry");
    registry_core::load(&text).expect("it loads").registry
}

/// `text`'s byte ranges as UTF-16 offsets, computed the slow way.
fn utf16(text: &str, ranges: Vec<std::ops::Range<usize>>) -> Vec<[usize; 2]> {
    let units = |byte: usize| text[..byte].chars().map(char::len_utf16).sum::<usize>();
    ranges
        .into_iter()
        .map(|r| [units(r.start), units(r.end)])
        .collect()
}

#[test]
fn it_answers_as_the_catalogue_does() {
    let registry = bundled();
    let early = Early::new(&searched_fields(&registry.entries), false);
    let catalog = Catalog::without_lookalikes(registry.clone());
    for q in [
        "",
        "gemini",
        "gemni",
        "claude agent",
        "cod",
        "zzqqxx",
        "Ünïcödé",
    ] {
        let view = catalog.view(&CatalogQuery {
            q: q.to_owned(),
            ..CatalogQuery::default()
        });
        let answer = early.search(q, 48);
        assert_eq!(answer.total, view.results.len(), "{q:?}");
        assert_eq!(answer.count, card::count_label(view.results.len(), false));
        assert_eq!(
            answer.results,
            view.results.iter().take(48).copied().collect::<Vec<_>>()
        );
        for (&i, marks) in answer.results.iter().zip(&answer.marks) {
            let texts = CardTexts::of(&registry.entries[i]);
            let expected = [&texts.name, &texts.description, &texts.authors]
                .map(|text| utf16(text, card::marks(&view.matches, text)));
            assert_eq!(marks, &expected, "{q:?}: {}", registry.entries[i].id);
        }
    }
    assert_eq!(early.search("gemini", 48).count, "3 agents");
    assert_eq!(early.search("gemini", 1).results.len(), 1);
}
