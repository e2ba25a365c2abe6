//! Look-alikes (issue 13): the impersonations of the issue flagged, with the sentences the site
//! shows; the real registries' own findings; and the search keeping impostors below originals.

use registry_core::lookalike::{LinkField, Listing, TextField, Warning};
use registry_core::{Catalog, CatalogQuery, Distribution, Entry, Kind, Lookalikes, Registry};

fn entry(id: &str, name: &str, repository: Option<&str>) -> Entry {
    Entry {
        kind: Kind::Agent,
        id: id.to_owned(),
        name: name.to_owned(),
        version: "1.0.0".to_owned(),
        description: String::new(),
        repository: repository.map(str::to_owned),
        website: None,
        authors: Vec::new(),
        license: None,
        license_url: None,
        icon: None,
        distribution: Distribution::default(),
        raw: String::new(),
        origin: Default::default(),
    }
}

const GOOGLE: Option<&str> = Some("https://github.com/google-gemini/gemini-cli");
const MALLORY: Option<&str> = Some("https://github.com/mallory/gemini");

fn gemini() -> Entry {
    entry("gemini", "Gemini CLI", GOOGLE)
}

#[test]
fn the_impersonations_of_the_issue_are_flagged_and_said() {
    struct Case {
        name: &'static str,
        impostor: Entry,
        /// What is said about the impostor.
        said: Vec<&'static str>,
        /// What is said about the original.
        original_said: Vec<&'static str>,
        /// Whether the impostor is kept below the original.
        imitates: bool,
    }
    let cases = [
        Case {
            name: "a Cyrillic е",
            impostor: entry("gemini-cli-2", "G\u{435}mini CLI", MALLORY),
            said: vec![
                "Its name looks like Gemini CLI (gemini), a different agent.",
                "Its name mixes Latin and Cyrillic letters in \"G\u{435}mini\", a common way to imitate another name.",
            ],
            original_said: vec![],
            imitates: true,
        },
        Case {
            name: "the same name under another id",
            impostor: entry("gemini-pro", "Gemini CLI", MALLORY),
            said: vec!["Another agent has the same name: gemini."],
            original_said: vec![],
            imitates: true,
        },
        Case {
            name: "the same name in other case and spacing",
            impostor: entry("x-gemini", "gemini  cli", MALLORY),
            said: vec!["Another agent has the same name: gemini."],
            original_said: vec![],
            imitates: true,
        },
        Case {
            name: "a zero-width space and a bidi mark",
            impostor: entry("gemini-x", "Gemini\u{200B} CLI\u{200E}", MALLORY),
            said: vec![
                "Another agent has the same name: gemini.",
                "Its name holds characters you cannot see: U+200B (zero-width space), U+200E (left-to-right mark).",
            ],
            original_said: vec![],
            imitates: true,
        },
        Case {
            name: "an uppercase I for an l",
            impostor: entry("geminl-cli", "Gemini CLl", MALLORY),
            said: vec!["Its name looks like Gemini CLI (gemini), a different agent."],
            original_said: vec![],
            imitates: true,
        },
        Case {
            name: "a second listing by the same publisher",
            impostor: entry("gemini-cli", "Gemini CLI", GOOGLE),
            said: vec!["Another agent, by the same publisher, has the same name: gemini."],
            original_said: vec![
                "Another agent, by the same publisher, has the same name: gemini-cli.",
            ],
            imitates: false,
        },
        Case {
            name: "an id confusable with the original's",
            impostor: entry("gernini", "Gernini", MALLORY),
            said: vec!["Its id looks like gemini, the id of Gemini CLI, a different agent."],
            original_said: vec!["Its id looks like gernini, the id of Gernini, a different agent."],
            imitates: false,
        },
        Case {
            name: "a different name",
            impostor: entry("claude", "Claude Code", None),
            said: vec![],
            original_said: vec![],
            imitates: false,
        },
    ];
    for case in cases {
        let entries = vec![gemini(), case.impostor];
        let found = Lookalikes::new(&entries);
        let said = |i: usize| -> Vec<String> {
            found
                .warnings(i)
                .iter()
                .map(|w| w.describe(&entries))
                .collect()
        };
        assert_eq!(said(1), case.said, "{}: the impostor", case.name);
        assert_eq!(said(0), case.original_said, "{}: the original", case.name);
        assert_eq!(
            found.original_of(1),
            case.imitates.then_some(0),
            "{}",
            case.name
        );
        assert_eq!(found.original_of(0), None, "{}", case.name);
    }
}

#[test]
fn links_that_lead_elsewhere_are_flagged() {
    let mut apple = entry("apple", "Apple", Some("https://github.com/apple/x"));
    apple.website = Some("https://\u{430}pple.com/".to_owned());
    apple.license_url = Some("https://apple.com/license".to_owned());
    let entries = vec![apple];
    let found = Lookalikes::new(&entries);
    assert_eq!(
        found.warnings(0),
        [Warning::MisleadingLink {
            field: LinkField::Website,
            host: "\u{430}pple.com".to_owned(),
            looks_like: "apple.com".to_owned(),
        }]
    );
    assert_eq!(
        found.warnings(0)[0].describe(&entries),
        "Its website link shows \u{430}pple.com, which is not apple.com: it leads elsewhere."
    );
}

#[test]
fn invisible_ids_are_flagged_too() {
    let entries = vec![entry("ab\u{202E}c", "Abc", None)];
    let found = Lookalikes::new(&entries);
    assert_eq!(
        found.warnings(0),
        [Warning::Invisible {
            field: TextField::Id,
            chars: vec!['\u{202E}'],
        }]
    );
    assert_eq!(
        found.warnings(0)[0].describe(&entries),
        "Its id holds characters you cannot see: U+202E (right-to-left override)."
    );
}

/// The real registries' own findings: three names listed twice or three times, two of them by
/// the same publisher, and no other warning. Of the three DeepSeek listings, `dsh-acp`'s id does
/// not claim the name that `deepseek-acp`'s does: it is flagged beside that one, which is not.
#[test]
fn the_real_registries_have_only_their_true_duplicates() {
    let text = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/real-registry-2026/dist/registry.json"
    ));
    let entries = registry_core::load(text).unwrap().registry.entries;
    let found = Lookalikes::new(&entries);
    let mut said: Vec<(String, String)> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        for warning in found.warnings(i) {
            said.push((entry.id.clone(), warning.describe(&entries)));
        }
    }
    let said: Vec<(&str, &str)> = said.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(
        said,
        [
            (
                "deepseek-acp",
                "Another agent has the same name: deepseek-harness-acp."
            ),
            (
                "deepseek-harness-acp",
                "Another agent has the same name: deepseek-acp."
            ),
            (
                "deepseek-harness-acp",
                "Another agent has the same name: dsh-acp."
            ),
            ("dsh-acp", "Another agent has the same name: deepseek-acp."),
            (
                "dsh-acp",
                "Another agent has the same name: deepseek-harness-acp."
            ),
            (
                "github-copilot",
                "Another agent, by the same publisher, has the same name: github-copilot-cli."
            ),
            (
                "github-copilot-cli",
                "Another agent, by the same publisher, has the same name: github-copilot."
            ),
            (
                "oh-my-pi",
                "Another agent, by the same publisher, has the same name: omp."
            ),
            (
                "omp",
                "Another agent, by the same publisher, has the same name: oh-my-pi."
            ),
        ]
    );
    let impostors: Vec<(&str, &str)> = found
        .impostors()
        .map(|(i, o)| (entries[i].id.as_str(), entries[o].id.as_str()))
        .collect();
    assert_eq!(
        impostors,
        [("dsh-acp", "deepseek-acp")],
        "dsh does not claim the name"
    );
}

/// Issue 13: an impostor never outranks the original for its name, in relevance or name order.
#[test]
fn search_keeps_impostors_below_their_originals() {
    let registry = |entries: Vec<Entry>| Registry {
        version: None,
        entries,
    };
    // `aaa-gemini` comes first by id when names tie; `gemini-cli-pro` would win on its id.
    let entries = vec![
        entry("aaa-gemini", "Gemini CLI", MALLORY),
        gemini(),
        entry("gemini-cli-pro", "Gemini CLI Pro", MALLORY),
        entry("g2", "G\u{435}mini CLI", MALLORY),
    ];
    let catalog = Catalog::new(registry(entries));
    let ids = |query: &str| -> Vec<&str> {
        catalog
            .view(&CatalogQuery::from_query_string(query))
            .results
            .iter()
            .map(|&i| catalog.registry.entries[i].id.as_str())
            .collect()
    };
    assert_eq!(ids("q=gemini+cli")[..2], ["gemini", "aaa-gemini"]);
    assert_eq!(ids("q=gemini")[..2], ["gemini", "aaa-gemini"]);
    assert_eq!(ids("q=aaa"), ["aaa-gemini"], "alone, the impostor is found");
    let by_name = ids("sort=name");
    let position = |id: &str| by_name.iter().position(|&e| e == id).unwrap();
    assert!(position("gemini") < position("aaa-gemini"), "{by_name:?}");
    assert!(position("gemini") < position("g2") || !by_name.contains(&"g2"));
    assert_eq!(catalog.lookalikes.original_of(0), Some(1));
    assert_eq!(catalog.lookalikes.original_of(3), Some(1));

    // Without look-alikes, the tie goes by id: the impostor first. This is what the index
    // prevents.
    let plain = registry_core::SearchIndex::new(&catalog.registry.entries);
    let first = plain.search("gemini cli").hits[0].entry;
    assert_eq!(catalog.registry.entries[first].id, "aaa-gemini");
}

/// The validator reads manifests, not entries: listings give it the same findings.
#[test]
fn listings_give_the_same_findings_as_entries() {
    let entries = vec![gemini(), entry("g2", "G\u{435}mini CLI", MALLORY)];
    let listings: Vec<Listing<'_>> = entries.iter().map(Listing::of).collect();
    assert_eq!(
        Lookalikes::of_listings(&listings),
        Lookalikes::new(&entries)
    );
}

/// The catalogue finds look-alikes in a worker: the entries' texts go there as JSON and the
/// findings come back as JSON, after the page is already searchable. Attached then, they give
/// the very catalogue found at once: the same warnings, and every impostor below its original.
#[test]
fn lookalikes_found_apart_and_attached_later_give_the_same_catalogue() {
    use registry_core::lookalike::ListingText;
    let entries = vec![
        entry("aaa-gemini", "Gemini CLI", MALLORY),
        gemini(),
        entry("gemini-cli-pro", "Gemini CLI Pro", MALLORY),
        entry("g2", "G\u{435}mini CLI", MALLORY),
        entry("quote", "Says \"hi\"\u{200b}\\", None),
    ];
    let registry = Registry {
        version: None,
        entries,
    };
    let at_once = Catalog::new(registry.clone());
    let mut later = Catalog::without_lookalikes(registry.clone());
    assert!(later.lookalikes.is_empty());

    let texts: Vec<ListingText> = registry.entries.iter().map(ListingText::of).collect();
    let sent = serde_json::to_string(&texts).unwrap();
    let received: Vec<ListingText> = serde_json::from_str(&sent).unwrap();
    let answer = serde_json::to_string(&Lookalikes::of_texts(&received)).unwrap();
    let found: Lookalikes = serde_json::from_str(&answer).unwrap();
    assert_eq!(found, at_once.lookalikes);
    assert!(
        found
            .warnings(4)
            .iter()
            .any(|w| matches!(w, Warning::Invisible { .. }))
    );

    let views = |catalog: &Catalog| {
        [
            "",
            "q=gemini",
            "q=gemini+cli",
            "sort=name",
            "q=cli&sort=name",
        ]
        .map(|query| {
            catalog
                .view(&CatalogQuery::from_query_string(query))
                .results
        })
    };
    assert_ne!(
        views(&later),
        views(&at_once),
        "without them the impostor ties first"
    );
    assert!(later.set_lookalikes(found));
    assert_eq!(views(&later), views(&at_once));
    assert_eq!(later.lookalikes, at_once.lookalikes);

    // Findings for other entries are refused, not attached.
    let mut other = Catalog::without_lookalikes(registry);
    assert!(!other.set_lookalikes(Lookalikes::new(&[gemini()])));
    assert!(other.lookalikes.is_empty());
}
