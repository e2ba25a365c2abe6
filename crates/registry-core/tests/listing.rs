//! Where agents are listed: the views and quarantine list of `tests/fixtures/listings/` (made
//! by the registry's rules from `accepted.json`), the real quarantine list, broken inputs.

mod common;

use registry_core::{
    Catalog, CatalogQuery, Facet, Facts, Health, ListedFor, Listings, Presence, QuarantineError,
    ReasonKind, load, parse_quarantine, parse_view,
};

const FIXTURES: [&str; 4] = [
    include_str!("../../../tests/fixtures/listings/registry.json"),
    include_str!("../../../tests/fixtures/listings/registry-for-jetbrains.json"),
    include_str!("../../../tests/fixtures/listings/registry-for-jetbrains-preview.json"),
    include_str!("../../../tests/fixtures/listings/quarantine.json"),
];

fn listings() -> Listings {
    let [_, jetbrains, preview, quarantine] = FIXTURES;
    let (jetbrains, problems) = parse_view(jetbrains).expect("a view");
    assert_eq!(problems, []);
    let (preview, problems) = parse_view(preview).expect("a view");
    assert_eq!(problems, []);
    let (quarantine, warnings) = parse_quarantine(quarantine).expect("a list");
    assert_eq!(warnings, Vec::<String>::new());
    Listings {
        jetbrains: Some(jetbrains),
        jetbrains_preview: Some(preview),
        quarantine: Some(quarantine),
    }
}

/// One line per entry of the default view: where it is listed, its preview, its quarantine.
fn summary(listings: &Listings) -> Vec<String> {
    let registry = load(FIXTURES[0]).expect("a registry").registry;
    registry
        .entries
        .iter()
        .map(|entry| {
            let listing = listings.listing(entry);
            let listed: Vec<&str> = listing.listed_for().iter().map(|l| l.as_str()).collect();
            let preview = listing.preview.as_ref().map_or(String::new(), |p| {
                format!(" preview {} via {:?}", p.version, p.distribution.methods())
            });
            let quarantine = listing
                .quarantine
                .as_ref()
                .map_or(String::new(), |q| format!(" quarantined: {}", q.sentence()));
            format!("{} [{}]{preview}{quarantine}", entry.id, listed.join(","))
        })
        .collect()
}

#[test]
fn the_three_views_and_the_quarantine_list() {
    assert_eq!(
        summary(&listings()),
        [
            "claude-acp [default,jetbrains,jetbrains-bundled,jetbrains-preview] preview 0.86.0-preview.3 via [Npx]",
            "codex-acp [default,jetbrains,jetbrains-preview] preview 1.9.0-preview.1 via [Uvx]",
            // Only in the default view: the JetBrains views leave it out.
            "github-copilot-cli [default]",
            // Stable has overtaken its preview line: the preview channel serves stable.
            "stale-preview [default,jetbrains]",
            "vtcode [default,jetbrains] quarantined: There is no download of it for Windows, which the registry requires.",
        ]
    );
    let registry = load(FIXTURES[0]).expect("a registry").registry;
    let claude = listings().listing(&registry.entries[0]);
    let preview = claude.preview.expect("a preview");
    // The preview entry is the JetBrains one: patched, bundled, a complete entry.
    assert!(
        preview.raw.contains("--hide-claude-auth") && preview.raw.contains("\"bundled\": true")
    );
    assert_eq!(preview.name, "Claude Agent");
}

/// The ids a query keeps, and its "Listed for" and "Health" counts.
fn narrowed(catalog: &Catalog, query: &str) -> (Vec<String>, Vec<String>) {
    let view = catalog.view(&CatalogQuery::from_query_string(query));
    let ids = view
        .results
        .iter()
        .map(|&i| catalog.registry.entries[i].id.clone())
        .collect();
    let counts = [Facet::ListedFor, Facet::Health]
        .into_iter()
        .flat_map(|facet| view.counts.of(facet))
        .map(|(v, n)| format!("{} {n}", v.as_str()))
        .collect();
    (ids, counts)
}

#[test]
fn the_listed_for_and_health_facets_narrow_with_their_counts() {
    let registry = load(FIXTURES[0]).expect("a registry").registry;
    let mut catalog = Catalog::new(registry);
    // Nothing loaded but the registry: every entry is in the default view, and health is
    // unknown, so that group has no values.
    assert_eq!(narrowed(&catalog, "").1, ["default 5"]);
    catalog.set_listings(listings());
    let (all, counts) = narrowed(&catalog, "");
    assert_eq!(all.len(), 5);
    assert_eq!(
        counts,
        [
            "default 5",
            "jetbrains 4",
            "jetbrains-bundled 1",
            "jetbrains-preview 2",
            "quarantined 1",
            "not-probed 4",
        ]
    );
    let (ids, counts) = narrowed(&catalog, "listed=jetbrains-preview");
    assert_eq!(ids, ["claude-acp", "codex-acp"]);
    // Counts are disjunctive: the group's own selection leaves its counts as they were.
    assert!(counts.contains(&"jetbrains 4".to_owned()), "{counts:?}");
    assert!(counts.contains(&"not-probed 2".to_owned()), "{counts:?}");
    let (ids, _) = narrowed(
        &catalog,
        "listed=jetbrains-bundled&listed=jetbrains-preview",
    );
    assert_eq!(ids, ["claude-acp", "codex-acp"]);
    let (ids, counts) = narrowed(&catalog, "health=quarantined");
    assert_eq!(ids, ["vtcode"]);
    assert!(
        counts.contains(&"jetbrains-preview 0".to_owned()),
        "{counts:?}"
    );
    let (ids, _) = narrowed(&catalog, "health=not-probed&listed=default");
    assert_eq!(
        ids,
        [
            "claude-acp",
            "codex-acp",
            "github-copilot-cli",
            "stale-preview"
        ]
    );
    // A value whose list is not loaded is not offered, but a selected one stays (at zero).
    catalog.set_listings(Listings {
        jetbrains_preview: None,
        ..listings()
    });
    let (ids, counts) = narrowed(&catalog, "listed=jetbrains-preview");
    assert_eq!(ids, Vec::<String>::new());
    assert!(
        counts.contains(&"jetbrains-preview 0".to_owned()),
        "{counts:?}"
    );
    assert!(
        !narrowed(&catalog, "")
            .1
            .iter()
            .any(|c| c.starts_with("jetbrains-preview"))
    );
    // Read back from the URL as written.
    let query = CatalogQuery::from_query_string("listed=JetBrains,default&health=healthy");
    assert_eq!(
        query.to_query_string(),
        "listed=default&listed=jetbrains&health=healthy"
    );
}

#[test]
fn a_view_that_did_not_load_is_unknown_not_unlisted() {
    let registry = load(FIXTURES[0]).expect("a registry").registry;
    let cli = &registry.entries[2];
    let full = listings();
    assert_eq!(full.listing(cli).jetbrains, Presence::NotListed);
    assert_eq!(full.listing(cli).bundled, Some(false));
    let partial = Listings {
        jetbrains: None,
        ..listings()
    };
    let listing = partial.listing(cli);
    assert_eq!(
        (listing.jetbrains, listing.bundled),
        (Presence::Unknown, None)
    );
    assert_eq!(listing.listed_for(), [ListedFor::Default]);
    // Without the JetBrains view, the preview is compared with the main registry's version.
    let codex = partial.listing(&registry.entries[1]);
    assert_eq!(
        codex.preview.map(|p| p.version).as_deref(),
        Some("1.9.0-preview.1")
    );
    let nothing = Listings::default().listing(&registry.entries[4]);
    assert_eq!(
        (nothing.jetbrains, nothing.preview, nothing.quarantine),
        (Presence::Unknown, None, None)
    );
}

#[test]
fn health_puts_quarantine_first() {
    let registry = load(FIXTURES[0]).expect("a registry").registry;
    let listings = listings();
    let probed = Facts::Probed {
        version: None,
        date: String::new(),
        auth: Vec::new(),
        capabilities: Default::default(),
        protocol_version: None,
    };
    let failed = Facts::ProbeFailed {
        version: None,
        date: String::new(),
        reason: "process_error".to_owned(),
    };
    let vtcode = listings.listing(&registry.entries[4]);
    let codex = listings.listing(&registry.entries[1]);
    for (listing, facts, expected) in [
        (&vtcode, &probed, Health::Quarantined),
        (&vtcode, &Facts::NotProbed, Health::Quarantined),
        (&codex, &failed, Health::ProbeFailed),
        (&codex, &probed, Health::Healthy),
        (&codex, &Facts::NotProbed, Health::NotProbed),
    ] {
        assert_eq!(listing.health(facts), expected);
    }
    for value in Health::ALL {
        assert_eq!(Health::parse(value.as_str()), Some(value));
    }
    for value in ListedFor::ALL {
        assert_eq!(ListedFor::parse(value.as_str()), Some(value));
    }
}

#[test]
fn every_real_quarantine_reason_reads_as_a_sentence() {
    let text = include_str!("../../../public/quarantine.json");
    assert_eq!(
        text,
        include_str!("../../../tests/fixtures/real-registry-2026/source/quarantine.json")
    );
    let (quarantine, warnings) = parse_quarantine(text).expect("a list");
    assert_eq!(warnings, Vec::<String>::new());
    let sentences: Vec<(&str, &str, String)> = quarantine
        .agents
        .iter()
        .map(|(id, reason)| (id.as_str(), reason.raw.as_str(), reason.sentence()))
        .collect();
    let expected = [
        (
            "agoragentic-acp",
            "Postinstall script",
            "Its package needs an install script to run before it works, which the registry's checks do not run.",
        ),
        (
            "codebuddy-code",
            "npx cannot determine executable to run",
            "Its npm package does not say which program to start, so `npx` cannot run it.",
        ),
        (
            "crow-cli",
            "ACP initialize fails in crow-cli 0.1.25",
            "It fails to start an ACP session (its answer to `initialize` is an error) in crow-cli 0.1.25.",
        ),
        (
            "deepagents",
            "Missing npm dependency",
            "One of the packages it depends on is missing or broken, so it does not start.",
        ),
        (
            "fast-agent",
            "Timeout after 120s waiting for initialize response",
            "It does not answer when an editor starts an ACP session (no reply to `initialize` within 120 seconds).",
        ),
        (
            "minion-code",
            "Python dependency issue",
            "One of the packages it depends on is missing or broken, so it does not start.",
        ),
        (
            "mistral-vibe",
            "Binary archive URL not accessible",
            "Its download link does not work.",
        ),
        (
            "qoder",
            "ACP initialize fails in qodercli 0.2.15/0.2.16",
            "It fails to start an ACP session (its answer to `initialize` is an error) in qodercli 0.2.15/0.2.16.",
        ),
        (
            "vtcode",
            "Missing windows builds",
            "There is no download of it for Windows, which the registry requires.",
        ),
    ];
    let expected: Vec<(&str, &str, String)> = expected
        .iter()
        .map(|(a, b, c)| (*a, *b, (*c).to_owned()))
        .collect();
    assert_eq!(sentences, expected);
    // Every one is recognised: none falls back to quoting the raw words.
    assert!(
        !quarantine
            .agents
            .values()
            .any(|r| r.kind == ReasonKind::Other)
    );
}

#[test]
fn unknown_and_odd_reasons_are_kept_as_written() {
    let (quarantine, warnings) = parse_quarantine(
        r#"{"odd": "Maintainer asked for a pause", "blank": " ", "num": 3, " ": "x",
            "done": "Flaky on arm64!"}"#,
    )
    .expect("an object");
    assert_eq!(
        warnings,
        [
            "`num`: the reason is a number, not a text like \"Missing windows builds\"; skipped",
            "an item has a blank agent id; skipped",
        ]
    );
    let sentence = |id: &str| quarantine.agents[id].sentence();
    assert_eq!(
        sentence("odd"),
        "The registry says: Maintainer asked for a pause."
    );
    assert_eq!(sentence("done"), "The registry says: Flaky on arm64!");
    assert_eq!(sentence("blank"), "The registry gives no reason.");
    assert_eq!(quarantine.agents["odd"].raw, "Maintainer asked for a pause");
    for (text, expected) in [
        ("[]", QuarantineError::NotAnObject { found: "an array" }),
        ("\"x\"", QuarantineError::NotAnObject { found: "a string" }),
    ] {
        assert_eq!(parse_quarantine(text), Err(expected), "{text}");
    }
    let message = parse_quarantine("{\"a\": ").unwrap_err().to_string();
    assert!(
        message.starts_with("the quarantine list is not valid JSON: "),
        "{message}"
    );
}

#[test]
fn a_broken_view_keeps_every_readable_agent() {
    let (view, problems) = parse_view(
        r#"{"version": "1.0.0", "agents": [
            {"id": "ok", "name": "Ok", "version": "1.0.0", "description": "d",
             "distribution": {"npx": {"package": "ok@1.0.0"}}, "bundled": true},
            {"id": "broken"},
            {"id": "ok", "name": "Ok again", "version": "2.0.0", "description": "d",
             "distribution": {"npx": {"package": "ok@2.0.0"}}}]}"#,
    )
    .expect("a registry");
    assert_eq!(view.agents.keys().collect::<Vec<_>>(), ["ok"]);
    assert!(view.agents["ok"].bundled);
    assert_eq!(view.agents["ok"].entry.version, "1.0.0");
    let messages: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert_eq!(messages.len(), 5, "{messages:#?}");
    assert!(
        messages[..4]
            .iter()
            .all(|m| m.starts_with("error: agents[1] (broken): missing required field")),
        "{messages:#?}"
    );
    assert!(
        messages[4].starts_with("error: agents[2] (ok): duplicate id `ok`"),
        "{messages:#?}"
    );
    assert!(parse_view("[]").is_err());
}
