//! Filters and disjunctive facet counts, on a registry small enough to count by hand, and
//! checked against a naive reading of the rules on the real one.

mod common;

use common::{With, agent, extension, listed, naive_counts, real_matrix, real_registry, registry};
use proptest::prelude::*;
use registry_core::{
    Arch, AuthFilter, AuthMethod, Capability, CapabilityFilter, Catalog, CatalogQuery, EntryFacets,
    Facet, FacetCounts, FacetValue, Facts, Filters, Health, Kind, ListedFor, Listings, Method, Os,
    ProbeStatus, ProtocolMatrix, ProtocolVersionFilter, Sort, parse_quarantine, parse_view,
};

/// Six entries whose facet values are easy to tabulate:
///
/// | id | kind      | methods      | OS                     | arch            | licence     |
/// |----|-----------|--------------|------------------------|-----------------|-------------|
/// | a  | agent     | npx          | all                    | all             | MIT         |
/// | b  | agent     | binary       | darwin, linux          | aarch64, x86_64 | Apache-2.0  |
/// | c  | agent     | uvx          | all                    | all             | (none)      |
/// | d  | extension | binary, npx  | all (npx)              | all (npx)       | MIT         |
/// | e  | agent     | binary       | linux                  | aarch64         | MIT         |
/// | f  | extension | binary       | darwin                 | x86_64          | Apache-2.0  |
fn small_catalog() -> Catalog {
    Catalog::new(registry(vec![
        agent("a", "Alpha")
            .description("fast")
            .npx("alpha@1.0.0")
            .license("MIT"),
        agent("b", "Bravo")
            .binary(&["darwin-aarch64", "linux-x86_64"])
            .license("Apache-2.0"),
        agent("c", "Charlie").uvx("charlie==2.0"),
        extension("d", "Delta")
            .description("fast")
            .binary(&["windows-x86_64"])
            .npx("delta")
            .license("MIT"),
        agent("e", "Echo").binary(&["linux-aarch64"]).license("MIT"),
        extension("f", "Foxtrot")
            .binary(&["darwin-x86_64"])
            .license("Apache-2.0"),
    ]))
}

/// Counts as one line: `kind agent=4 extension=2 | dist … | os … | arch … | license …`.
fn show(counts: &FacetCounts) -> String {
    fn group<'a>(name: &str, values: impl Iterator<Item = (&'a str, usize)>) -> String {
        let values: Vec<String> = values.map(|(v, n)| format!("{v}={n}")).collect();
        format!("{name} {}", values.join(" "))
    }
    [
        group("kind", words(counts, Facet::Kind)),
        group("dist", words(counts, Facet::Method)),
        group("os", words(counts, Facet::Os)),
        group("arch", words(counts, Facet::Arch)),
        group("license", words(counts, Facet::License)),
    ]
    .join(" | ")
}

/// A group's options as their query-string words, with their counts.
fn words(counts: &FacetCounts, facet: Facet) -> impl Iterator<Item = (&str, usize)> {
    counts.of(facet).iter().map(|(v, n)| (v.as_str(), *n))
}

/// Views the small catalogue for `query` (a query string) and checks the result ids and counts.
fn check(query: &str, expected_ids: &str, expected_counts: &str) {
    let catalog = small_catalog();
    let view = catalog.view(&CatalogQuery::from_query_string(query));
    let ids: Vec<&str> = view
        .results
        .iter()
        .map(|&i| catalog.registry.entries[i].id.as_str())
        .collect();
    assert_eq!(ids.join(" "), expected_ids, "results of {query:?}");
    assert_eq!(view.total(), ids.len());
    assert_eq!(show(&view.counts), expected_counts, "counts of {query:?}");
}

#[test]
fn counts_by_hand() {
    for (query, ids, counts) in [
        (
            "",
            "a b c d e f",
            "kind agent=4 extension=2 | dist binary=4 npx=2 uvx=1 | os darwin=5 linux=5 windows=3 \
             | arch aarch64=5 x86_64=5 | license MIT=3 Apache-2.0=2 Not specified=1",
        ),
        // Selecting npx leaves the other methods' counts as they were: what ticking them adds.
        (
            "dist=npx",
            "a d",
            "kind agent=1 extension=1 | dist binary=4 npx=2 uvx=1 | os darwin=2 linux=2 windows=2 \
             | arch aarch64=2 x86_64=2 | license MIT=2",
        ),
        // Values of one group are OR-ed.
        (
            "dist=npx&dist=uvx",
            "a c d",
            "kind agent=2 extension=1 | dist binary=4 npx=2 uvx=1 | os darwin=3 linux=3 windows=3 \
             | arch aarch64=3 x86_64=3 | license MIT=2 Not specified=1",
        ),
        // Groups are AND-ed; each group is counted under the others' filters only. A package
        // runs everywhere, so `d` (npx) runs on every OS and architecture.
        (
            "dist=binary&os=windows",
            "d",
            "kind agent=0 extension=1 | dist binary=1 npx=2 uvx=1 | os darwin=3 linux=3 windows=1 \
             | arch aarch64=1 x86_64=1 | license MIT=1",
        ),
        (
            "kind=extension&arch=aarch64",
            "d",
            "kind agent=4 extension=1 | dist binary=1 npx=1 uvx=0 | os darwin=1 linux=1 windows=1 \
             | arch aarch64=1 x86_64=2 | license MIT=1",
        ),
        (
            "os=linux&os=windows&license=MIT",
            "a d e",
            "kind agent=2 extension=1 | dist binary=2 npx=2 uvx=0 | os darwin=2 linux=3 windows=2 \
             | arch aarch64=3 x86_64=2 | license MIT=3 Apache-2.0=1 Not specified=1",
        ),
        // A selected licence is listed even when nothing has it.
        (
            "license=Apache-2.0&license=GPL-3.0",
            "b f",
            "kind agent=1 extension=1 | dist binary=2 npx=0 uvx=0 | os darwin=2 linux=1 windows=0 \
             | arch aarch64=1 x86_64=2 | license MIT=3 Apache-2.0=2 Not specified=1 GPL-3.0=0",
        ),
        (
            "license=Not%20specified",
            "c",
            "kind agent=1 extension=0 | dist binary=0 npx=0 uvx=1 | os darwin=1 linux=1 windows=1 \
             | arch aarch64=1 x86_64=1 | license MIT=3 Apache-2.0=2 Not specified=1",
        ),
        // Counts are of the entries matching the search text.
        (
            "q=fast",
            "a d",
            "kind agent=1 extension=1 | dist binary=1 npx=2 uvx=0 | os darwin=2 linux=2 windows=2 \
             | arch aarch64=2 x86_64=2 | license MIT=2",
        ),
        (
            "q=fast&dist=binary",
            "d",
            "kind agent=0 extension=1 | dist binary=1 npx=2 uvx=0 | os darwin=1 linux=1 windows=1 \
             | arch aarch64=1 x86_64=1 | license MIT=1",
        ),
        (
            "q=nothing&license=MIT",
            "",
            "kind agent=0 extension=0 | dist binary=0 npx=0 uvx=0 | os darwin=0 linux=0 windows=0 \
             | arch aarch64=0 x86_64=0 | license MIT=0",
        ),
    ] {
        check(query, ids, counts);
    }
}

#[test]
fn results_are_ordered_by_sort() {
    let catalog = Catalog::new(real_registry());
    let ids = |query: &str| -> Vec<String> {
        let view = catalog.view(&CatalogQuery::from_query_string(query));
        view.results
            .iter()
            .map(|&i| catalog.registry.entries[i].id.clone())
            .collect()
    };
    let by_name = |ids: &[String]| -> Vec<String> {
        let mut sorted = ids.to_vec();
        let entry = |id: &str| {
            catalog
                .registry
                .entries
                .iter()
                .find(|e| e.id == id)
                .unwrap()
        };
        sorted.sort_by_key(|id| (entry(id).name.to_lowercase(), id.clone()));
        sorted
    };
    // No search text: relevance means by name.
    let all = ids("");
    assert_eq!(all.len(), 130);
    assert_eq!(all, by_name(&all));
    assert_eq!(ids("sort=name"), all);
    // With search text: best match first, or by name when asked.
    let relevant = ids("q=codex");
    assert_eq!(relevant[..2], ["codex-acp", "codex-acp-bridge"]);
    let named = ids("q=codex&sort=name");
    assert_eq!(named, by_name(&relevant));
    assert_ne!(named, relevant);
    // Filters keep the order.
    let npx = ids("q=codex&dist=npx");
    let kept: Vec<String> = relevant
        .iter()
        .filter(|id| npx.contains(id))
        .cloned()
        .collect();
    assert_eq!(npx, kept);
}

#[test]
fn view_keeps_matches_for_highlighting() {
    let catalog = small_catalog();
    let view = catalog.view(&CatalogQuery::from_query_string("q=fas&kind=extension"));
    assert_eq!(view.results, [3]);
    // The matches are the search's, before filtering.
    assert_eq!(view.matches.hits.len(), 2);
    assert_eq!(view.matches.highlight("Fast and faster"), [0..3, 9..12]);
}

#[test]
fn entry_facets() {
    let catalog = small_catalog();
    let facets = |id: &str| {
        let i = catalog
            .registry
            .entries
            .iter()
            .position(|e| e.id == id)
            .unwrap();
        let indexed = catalog.facets.facets(i);
        assert_eq!(indexed, EntryFacets::of(&catalog.registry.entries[i]));
        indexed
    };
    let d = facets("d");
    let has = |f: &EntryFacets, v: FacetValue| f.has(&v);
    assert!(has(&d, FacetValue::Kind(Kind::Extension)) && !has(&d, FacetValue::Kind(Kind::Agent)));
    assert!(
        has(&d, FacetValue::Method(Method::Binary))
            && has(&d, FacetValue::Method(Method::Npx))
            && !has(&d, FacetValue::Method(Method::Uvx))
    );
    assert!(Os::ALL.iter().all(|&o| has(&d, FacetValue::Os(o))));
    assert!(Arch::ALL.iter().all(|&a| has(&d, FacetValue::Arch(a))));
    assert_eq!(d.license(), "MIT");
    let e = facets("e");
    assert_eq!(
        Os::ALL.map(|o| has(&e, FacetValue::Os(o))),
        [false, true, false]
    );
    assert_eq!(
        Arch::ALL.map(|a| has(&e, FacetValue::Arch(a))),
        [true, false]
    );
    assert_eq!(facets("c").license(), "Not specified");
    let licenses: Vec<&str> = catalog.facets.licenses().collect();
    assert_eq!(licenses, ["Apache-2.0", "MIT", "Not specified"]);
}

#[test]
fn filters_toggle_and_clear() {
    let mut filters = Filters::default();
    assert!(filters.is_empty());
    filters.toggle(FacetValue::Kind(Kind::Agent));
    filters.toggle(FacetValue::Method(Method::Npx));
    filters.toggle(FacetValue::Os(Os::Linux));
    filters.toggle(FacetValue::Arch(Arch::X86_64));
    filters.toggle(FacetValue::License("MIT".into()));
    filters.toggle(FacetValue::License("Apache-2.0".into()));
    filters.toggle(FacetValue::Auth(AuthFilter::NotProbed));
    filters.toggle(FacetValue::Capability(CapabilityFilter::Supports(
        Capability::SetModel,
    )));
    assert_eq!(filters.len(), 8);
    filters.toggle(FacetValue::License("MIT".into()));
    filters.toggle(FacetValue::Method(Method::Npx));
    filters.toggle(FacetValue::Auth(AuthFilter::NotProbed));
    assert_eq!(filters.len(), 5);
    let licenses: Vec<&str> = filters.of(Facet::License).map(FacetValue::as_str).collect();
    assert_eq!(licenses, ["Apache-2.0"]);
    assert!(filters.of(Facet::Method).next().is_none() && filters.of(Facet::Auth).next().is_none());
    filters.clear();
    assert!(filters.is_empty());
    assert_eq!(filters, Filters::default());
}

/// Seven entries and a matrix whose protocol facets are easy to tabulate:
///
/// | id | kind      | dist   | matrix                | auth           | capabilities      | acp     |
/// |----|-----------|--------|-----------------------|----------------|-------------------|---------|
/// | a  | agent     | npx    | probed                | terminal       | load, list        | 1       |
/// | b  | agent     | npx    | probed                | agent, env_var | load, set-model   | 2       |
/// | c  | agent     | binary | probed                | agent          | (all false)       | (none)  |
/// | d  | agent     | binary | probe failed          | unknown        | unknown           | unknown |
/// | e  | agent     | binary | not listed            | unknown        | unknown           | unknown |
/// | f  | extension | npx    | listed, but extension | unknown        | unknown           | unknown |
/// | g  | agent     | uvx    | probed                | oauth (other)  | load (list: null) | (`v1`)  |
///
/// `c`'s probe records no protocol version and `g`'s one that is not a version (`v1`); `d`'s
/// failed probe and the extension `f` record version 1, which is not read.
fn protocol_registry() -> registry_core::Registry {
    registry(vec![
        agent("a", "Alpha").npx("alpha"),
        agent("b", "Bravo").npx("bravo"),
        agent("c", "Charlie").binary(&["linux-x86_64"]),
        agent("d", "Delta").binary(&["linux-x86_64"]),
        agent("e", "Echo").binary(&["linux-x86_64"]),
        extension("f", "Foxtrot").npx("foxtrot"),
        agent("g", "Golf").uvx("golf"),
    ])
}

fn protocol_matrix() -> ProtocolMatrix {
    let ok = r#""initialize": {"status": "success"}"#;
    let text = format!(
        r#"{{"date": "2026-08-20", "agents": [
            {{"id": "a", {ok}, "authMethods": ["terminal"], "protocolVersion": 1,
              "capabilities": {{"loadSession": true, "sessionList": true, "setModel": false}}}},
            {{"id": "b", {ok}, "authMethods": ["agent", "env_var"], "protocolVersion": "2",
              "capabilities": {{"loadSession": true, "sessionList": false, "setModel": true}}}},
            {{"id": "c", {ok}, "authMethods": ["agent"],
              "capabilities": {{"loadSession": false, "sessionList": false, "setModel": false}}}},
            {{"id": "d", "initialize": {{"status": "process_error"}}, "authMethods": [],
              "protocolVersion": 1, "capabilities": {{"loadSession": false}}}},
            {{"id": "f", {ok}, "authMethods": ["terminal"], "protocolVersion": 1,
              "capabilities": {{"loadSession": true}}}},
            {{"id": "g", {ok}, "authMethods": ["oauth"], "protocolVersion": "v1",
              "capabilities": {{"loadSession": true, "sessionList": null}}}}
        ]}}"#
    );
    let (matrix, warnings) = registry_core::parse_matrix(&text).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    matrix
}

/// The distribution and protocol counts as one line: `dist … | auth … | cap …`.
fn show_protocol(counts: &FacetCounts) -> String {
    fn group<'a>(name: &str, values: impl Iterator<Item = (&'a str, usize)>) -> String {
        let values: Vec<String> = values.map(|(v, n)| format!("{v}={n}")).collect();
        format!("{name} {}", values.join(" "))
    }
    [
        group("dist", words(counts, Facet::Method)),
        group("auth", words(counts, Facet::Auth)),
        group("cap", words(counts, Facet::Capability)),
    ]
    .join(" | ")
}

/// Results of `query` on `catalog`, as ids.
fn result_ids(catalog: &Catalog, query: &str) -> String {
    let view = catalog.view(&CatalogQuery::from_query_string(query));
    let ids: Vec<&str> = view
        .results
        .iter()
        .map(|&i| catalog.registry.entries[i].id.as_str())
        .collect();
    ids.join(" ")
}

#[test]
fn protocol_counts_by_hand() {
    let catalog = Catalog::with_matrix(protocol_registry(), Some(protocol_matrix()));
    for (query, ids, counts) in [
        (
            "",
            "a b c d e f g",
            "dist binary=3 npx=3 uvx=1 | auth agent=2 terminal=1 env_var=1 oauth=1 not-probed=3 \
             | cap load-session=3 session-list=1 session-fork=0 session-resume=0 session-stop=0 \
             set-model=1 not-probed=3",
        ),
        // Capabilities are AND-ed; each count is the number of results if it were ticked.
        (
            "cap=load-session",
            "a b g",
            "dist binary=0 npx=2 uvx=1 | auth agent=1 terminal=1 env_var=1 oauth=1 not-probed=0 \
             | cap load-session=3 session-list=1 session-fork=0 session-resume=0 session-stop=0 \
             set-model=1 not-probed=6",
        ),
        (
            "cap=load-session&cap=set-model",
            "b",
            "dist binary=0 npx=1 uvx=0 | auth agent=1 terminal=0 env_var=1 oauth=0 not-probed=0 \
             | cap load-session=1 session-list=0 session-fork=0 session-resume=0 session-stop=0 \
             set-model=1 not-probed=4",
        ),
        // `not-probed` keeps the unknown entries: failed (d), unlisted (e), extension (f).
        (
            "cap=not-probed",
            "d e f",
            "dist binary=2 npx=1 uvx=0 | auth agent=0 terminal=0 env_var=0 oauth=0 not-probed=3 \
             | cap load-session=6 session-list=4 session-fork=3 session-resume=3 session-stop=3 \
             set-model=4 not-probed=3",
        ),
        // ... in addition to the agents supporting every selected capability.
        (
            "cap=load-session&cap=not-probed",
            "a b d e f g",
            "dist binary=2 npx=3 uvx=1 | auth agent=1 terminal=1 env_var=1 oauth=1 not-probed=3 \
             | cap load-session=6 session-list=4 session-fork=3 session-resume=3 session-stop=3 \
             set-model=4 not-probed=6",
        ),
        // Auth methods are OR-ed, `not-probed` among them; their counts are disjunctive.
        (
            "auth=agent&auth=not-probed",
            "b c d e f",
            "dist binary=3 npx=2 uvx=0 | auth agent=2 terminal=1 env_var=1 oauth=1 not-probed=3 \
             | cap load-session=1 session-list=0 session-fork=0 session-resume=0 session-stop=0 \
             set-model=1 not-probed=3",
        ),
        (
            "auth=terminal&dist=npx",
            "a",
            "dist binary=0 npx=1 uvx=0 | auth agent=1 terminal=1 env_var=1 oauth=0 not-probed=1 \
             | cap load-session=1 session-list=1 session-fork=0 session-resume=0 session-stop=0 \
             set-model=0 not-probed=0",
        ),
        // A method nobody has is listed at zero while selected, before `not-probed`.
        (
            "auth=saml",
            "",
            "dist binary=0 npx=0 uvx=0 | auth agent=2 terminal=1 env_var=1 oauth=1 saml=0 \
             not-probed=3 | cap load-session=0 session-list=0 session-fork=0 session-resume=0 \
             session-stop=0 set-model=0 not-probed=0",
        ),
        // `g` reported `sessionList: null`: unknown, so not kept; ticking "Load session" too
        // would not bring it back.
        (
            "auth=oauth&cap=session-list",
            "",
            "dist binary=0 npx=0 uvx=0 | auth agent=0 terminal=1 env_var=0 oauth=0 not-probed=0 \
             | cap load-session=0 session-list=0 session-fork=0 session-resume=0 session-stop=0 \
             set-model=0 not-probed=0",
        ),
    ] {
        let view = catalog.view(&CatalogQuery::from_query_string(query));
        assert_eq!(result_ids(&catalog, query), ids, "results of {query:?}");
        assert_eq!(show_protocol(&view.counts), counts, "counts of {query:?}");
    }
}

#[test]
fn protocol_version_counts_by_hand() {
    let catalog = Catalog::with_matrix(protocol_registry(), Some(protocol_matrix()));
    let show = |counts: &FacetCounts| {
        let group = |facet| {
            let values: Vec<String> = words(counts, facet)
                .map(|(v, n)| format!("{v}={n}"))
                .collect();
            values.join(" ")
        };
        format!(
            "dist {} | acp {}",
            group(Facet::Method),
            group(Facet::ProtocolVersion)
        )
    };
    for (query, ids, counts) in [
        // `c` (no version) and `g` (`v1`, not a version) are probed, so in no option; the
        // failed probe's and the extension's versions are not read.
        (
            "",
            "a b c d e f g",
            "dist binary=3 npx=3 uvx=1 | acp 1=1 2=1 not-probed=3",
        ),
        // Versions are OR-ed with each other and with `not-probed`; counts are disjunctive.
        (
            "acp=1",
            "a",
            "dist binary=0 npx=1 uvx=0 | acp 1=1 2=1 not-probed=3",
        ),
        (
            "acp=1&acp=not-probed",
            "a d e f",
            "dist binary=2 npx=2 uvx=0 | acp 1=1 2=1 not-probed=3",
        ),
        (
            "acp=2&dist=binary",
            "",
            "dist binary=0 npx=1 uvx=0 | acp 1=0 2=0 not-probed=2",
        ),
        // A version nobody has is listed at zero while selected, in number order.
        (
            "acp=10",
            "",
            "dist binary=0 npx=0 uvx=0 | acp 1=1 2=1 10=0 not-probed=3",
        ),
        (
            "cap=load-session",
            "a b g",
            "dist binary=0 npx=2 uvx=1 | acp 1=1 2=1 not-probed=0",
        ),
    ] {
        let view = catalog.view(&CatalogQuery::from_query_string(query));
        assert_eq!(result_ids(&catalog, query), ids, "results of {query:?}");
        assert_eq!(show(&view.counts), counts, "counts of {query:?}");
    }
    // Without a matrix the group is not listed, and `not-probed` keeps everything.
    let unprobed = Catalog::new(protocol_registry());
    assert_eq!(
        unprobed
            .view(&CatalogQuery::default())
            .counts
            .of(Facet::ProtocolVersion),
        []
    );
    assert_eq!(result_ids(&unprobed, "acp=1"), "");
    assert_eq!(result_ids(&unprobed, "acp=not-probed"), "a b c d e f g");
}

#[test]
fn without_a_matrix_nothing_is_probed() {
    let catalog = Catalog::new(protocol_registry());
    assert!(!catalog.facets.has_matrix());
    for (query, ids) in [
        ("", "a b c d e f g"),
        ("auth=agent", ""),
        ("cap=load-session", ""),
        ("auth=not-probed", "a b c d e f g"),
        ("cap=not-probed&dist=uvx", "g"),
        ("cap=load-session&cap=not-probed", "a b c d e f g"),
    ] {
        let view = catalog.view(&CatalogQuery::from_query_string(query));
        assert_eq!(result_ids(&catalog, query), ids, "results of {query:?}");
        // The UI hides the protocol groups.
        assert_eq!(view.counts.of(Facet::Auth), [], "{query:?}");
        assert_eq!(view.counts.of(Facet::Capability), [], "{query:?}");
    }
}

#[test]
fn a_matrix_attached_later_gives_the_same_views() {
    let mut later = Catalog::new(protocol_registry());
    later.set_matrix(protocol_matrix());
    let at_once = Catalog::with_matrix(protocol_registry(), Some(protocol_matrix()));
    assert!(later.facets.has_matrix());
    assert_eq!(later.matrix, at_once.matrix);
    for query in [
        "",
        "q=alpha",
        "cap=load-session&auth=terminal",
        "cap=not-probed",
    ] {
        let query = CatalogQuery::from_query_string(query);
        assert_eq!(later.view(&query), at_once.view(&query), "{query:?}");
    }
    assert_eq!(
        later.facets.auth_methods(),
        [
            AuthMethod::Agent,
            AuthMethod::Terminal,
            AuthMethod::EnvVar,
            AuthMethod::Other("oauth".to_owned())
        ]
    );
}

#[test]
fn protocol_entry_facets() {
    let entries = protocol_registry().entries;
    let matrix = protocol_matrix();
    let facets = |id: &str| {
        let entry = entries.iter().find(|e| e.id == id).unwrap();
        EntryFacets::with_matrix(entry, Some(&matrix))
    };
    let b = facets("b");
    assert!(b.is_probed());
    assert_eq!(b.auth_methods(), [AuthMethod::Agent, AuthMethod::EnvVar]);
    assert_eq!(
        Capability::ALL.map(|c| b.has(&supports(c))),
        [true, false, false, false, false, true]
    );
    assert!(b.has(&FacetValue::Auth(AuthFilter::Method(AuthMethod::EnvVar))));
    assert!(!b.has(&FacetValue::Auth(AuthFilter::NotProbed)));
    for unknown in ["d", "e", "f"] {
        let f = facets(unknown);
        assert!(!f.is_probed(), "{unknown}");
        assert!(f.auth_methods().is_empty(), "{unknown}");
        assert!(f.has(&FacetValue::Auth(AuthFilter::NotProbed)), "{unknown}");
        assert!(
            !Capability::ALL.iter().any(|&c| f.has(&supports(c))),
            "{unknown}"
        );
    }
    let versions = |f: &EntryFacets| -> Vec<FacetValue> {
        f.values_in(Facet::ProtocolVersion).cloned().collect()
    };
    assert_eq!(
        versions(&b),
        [FacetValue::ProtocolVersion(ProtocolVersionFilter::Version(
            "2".to_owned()
        ))]
    );
    // Probed without a version, or with one that is not a version: no value in the group.
    for unversioned in ["c", "g"] {
        let f = facets(unversioned);
        assert!(f.is_probed() && versions(&f).is_empty(), "{unversioned}");
    }
    // Without a matrix, the same entry is not probed.
    assert!(!EntryFacets::of(&entries[1]).is_probed());
    assert_eq!(
        versions(&EntryFacets::of(&entries[1])),
        [FacetValue::ProtocolVersion(
            ProtocolVersionFilter::NotProbed
        )]
    );
}

/// The registry and probe the site bundles.
fn bundled_catalog() -> Catalog {
    let registry = registry_core::load(include_str!("../../../public/registry.json"))
        .expect("the bundled registry")
        .registry;
    let (matrix, _) =
        registry_core::parse_matrix(include_str!("../../../public/protocol-matrix.json"))
            .expect("the bundled probe");
    Catalog::with_matrix(registry, Some(matrix))
}

/// The ids of the bundled agents whose facts pass `keep`, sorted.
fn bundled_ids(catalog: &Catalog, keep: impl Fn(&Facts) -> bool) -> Vec<&str> {
    let mut ids: Vec<&str> = catalog
        .registry
        .entries
        .iter()
        .filter(|e| keep(&catalog.facts(e)))
        .map(|e| e.id.as_str())
        .collect();
    ids.sort_unstable();
    ids
}

/// The ids of the results of `query`, sorted.
fn sorted_results<'a>(catalog: &'a Catalog, query: &str) -> Vec<&'a str> {
    let view = catalog.view(&CatalogQuery::from_query_string(query));
    let mut ids: Vec<&str> = view
        .results
        .iter()
        .map(|&i| catalog.registry.entries[i].id.as_str())
        .collect();
    ids.sort_unstable();
    ids
}

#[test]
fn the_bundled_probe_offers_version_1_and_not_probed() {
    let catalog = bundled_catalog();
    let version = |facts: &Facts| match facts {
        Facts::Probed {
            protocol_version, ..
        } => protocol_version.clone(),
        _ => None,
    };
    let versioned = bundled_ids(&catalog, |facts| version(facts).is_some());
    let not_probed = bundled_ids(&catalog, |facts| !matches!(facts, Facts::Probed { .. }));
    // Every bundled agent the probe reached recorded version 1.
    let speaks_1 = bundled_ids(&catalog, |facts| version(facts).as_deref() == Some("1"));
    assert_eq!(speaks_1, versioned);
    assert!(!versioned.is_empty() && !not_probed.is_empty());

    let view = catalog.view(&CatalogQuery::default());
    let options: Vec<(&str, usize)> = words(&view.counts, Facet::ProtocolVersion).collect();
    assert_eq!(
        options,
        [("1", versioned.len()), ("not-probed", not_probed.len())]
    );
    assert_eq!(
        view.counts
            .of(Facet::ProtocolVersion)
            .iter()
            .map(|(v, _)| v.label())
            .collect::<Vec<_>>(),
        ["Version 1", "Not probed"]
    );
    assert_eq!(Facet::ProtocolVersion.legend(), "ACP version (probed)");

    assert_eq!(sorted_results(&catalog, "acp=1"), speaks_1);
    assert_eq!(sorted_results(&catalog, "acp=not-probed"), not_probed);
    // A version no agent speaks keeps none; a word that is not a version filters nothing.
    assert_eq!(sorted_results(&catalog, "acp=2"), Vec::<&str>::new());
    for bad in ["acp=v1", "acp=%3Cx%3E", "acp=<x>"] {
        assert_eq!(
            sorted_results(&catalog, bad).len(),
            catalog.registry.entries.len(),
            "{bad}"
        );
    }
}

/// Filters drawn from every value of every group, and from the real licences plus one nobody has.
fn any_filters() -> impl Strategy<Value = Filters> {
    let licenses: Vec<String> = {
        let catalog = Catalog::new(real_registry());
        catalog
            .facets
            .licenses()
            .map(str::to_owned)
            .chain(["GPL-9.0".to_owned()])
            .collect()
    };
    let auth: Vec<AuthFilter> = AuthMethod::KNOWN
        .into_iter()
        .chain([AuthMethod::Other("oauth".to_owned())])
        .map(AuthFilter::Method)
        .chain([AuthFilter::NotProbed])
        .collect();
    (
        proptest::sample::subsequence(Kind::ALL.to_vec(), 0..=Kind::ALL.len()),
        proptest::sample::subsequence(Method::ALL.to_vec(), 0..=Method::ALL.len()),
        proptest::sample::subsequence(Os::ALL.to_vec(), 0..=Os::ALL.len()),
        proptest::sample::subsequence(Arch::ALL.to_vec(), 0..=Arch::ALL.len()),
        proptest::sample::subsequence(licenses.clone(), 0..=3),
        proptest::sample::subsequence(auth.clone(), 0..=3),
        proptest::sample::subsequence(CapabilityFilter::ALL.to_vec(), 0..=3),
        proptest::sample::subsequence(ListedFor::ALL.to_vec(), 0..=2),
        proptest::sample::subsequence(Health::ALL.to_vec(), 0..=2),
        proptest::sample::subsequence(any_versions(), 0..=3),
    )
        .prop_map(
            |(
                kinds,
                methods,
                os,
                arch,
                licenses,
                auth,
                capabilities,
                listed_for,
                health,
                versions,
            )| {
                let kinds = kinds.into_iter().map(FacetValue::Kind);
                let methods = methods.into_iter().map(FacetValue::Method);
                let os = os.into_iter().map(FacetValue::Os);
                let arch = arch.into_iter().map(FacetValue::Arch);
                let licenses = licenses.into_iter().map(|l| FacetValue::License(l.into()));
                let auth = auth.into_iter().map(FacetValue::Auth);
                let capabilities = capabilities.into_iter().map(FacetValue::Capability);
                let listed_for = listed_for.into_iter().map(FacetValue::ListedFor);
                let health = health.into_iter().map(FacetValue::Health);
                let versions = versions.into_iter().map(FacetValue::ProtocolVersion);
                kinds
                    .chain(methods)
                    .chain(os)
                    .chain(arch)
                    .chain(licenses)
                    .chain(auth)
                    .chain(capabilities)
                    .chain(listed_for)
                    .chain(health)
                    .chain(versions)
                    .collect::<Filters>()
            },
        )
}

/// The protocol versions [`versioned`] writes (`9` only for failed probes), one nobody has, and
/// `not-probed`.
fn any_versions() -> Vec<ProtocolVersionFilter> {
    ["1", "2", "10", "9", "7"]
        .map(|v| ProtocolVersionFilter::Version(v.to_owned()))
        .into_iter()
        .chain([ProtocolVersionFilter::NotProbed])
        .collect()
}

/// What a matrix's probes may record as the protocol version: a version, none, or a word that
/// is not a version.
fn any_protocol_version() -> impl Strategy<Value = Option<String>> {
    proptest::sample::select(vec![None, Some("1"), Some("2"), Some("10"), Some("v1")])
        .prop_map(|v| v.map(str::to_owned))
}

/// `matrix` with its agents' protocol versions replaced, in id order, by `versions` (the
/// agents past its end with none), and each failed probe's by `9`, which no other agent has
/// and the catalogue must ignore.
fn versioned(mut matrix: ProtocolMatrix, versions: &[Option<String>]) -> ProtocolMatrix {
    let mut versions = versions.iter();
    for probe in matrix.agents.values_mut() {
        let version = versions.next().cloned().flatten();
        probe.protocol_version = match probe.status {
            ProbeStatus::Succeeded => version,
            ProbeStatus::Failed(_) => Some("9".to_owned()),
        };
    }
    matrix
}

/// The bundled JetBrains views and quarantine list, those of `loaded` (bits: JetBrains view,
/// preview view, quarantine list).
fn bundled_listings(loaded: u8) -> Listings {
    let view = |text: &str| parse_view(text).expect("a view").0;
    Listings {
        jetbrains: (loaded & 1 != 0)
            .then(|| view(include_str!("../../../public/registry-for-jetbrains.json"))),
        jetbrains_preview: (loaded & 2 != 0).then(|| {
            view(include_str!(
                "../../../public/registry-for-jetbrains-preview.json"
            ))
        }),
        quarantine: (loaded & 4 != 0).then(|| {
            parse_quarantine(include_str!("../../../public/quarantine.json"))
                .expect("a list")
                .0
        }),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn one_pass_agrees_with_the_rules(
        filters in any_filters(),
        q in proptest::sample::select(vec!["", "code", "agent", "gemni", "claude code", "zzzz"]),
        by_name in any::<bool>(),
        with_matrix in any::<bool>(),
        versions in proptest::collection::vec(any_protocol_version(), 30),
        lists in 0u8..8,
        step in proptest::sample::select(vec![1usize, 7, 64, usize::MAX]),
    ) {
        let matrix = with_matrix.then(|| versioned(real_matrix(), &versions));
        let mut catalog = Catalog::with_matrix(real_registry(), matrix.clone());
        let listings = bundled_listings(lists);
        catalog.set_listings(listings.clone());
        let sort = if by_name { Sort::Name } else { Sort::Relevance };
        let query = CatalogQuery { q: q.to_owned(), filters: filters.clone(), sort, ..CatalogQuery::default() };
        let view = catalog.view(&query);
        let hits: Vec<usize> = catalog.index.search(q).hits.iter().map(|h| h.entry).collect();
        let mut expected: Vec<usize> = hits
            .iter()
            .copied()
            .filter(|&i| {
                let entry = &catalog.registry.entries[i];
                filters.matches(&EntryFacets::with_sources(entry, matrix.as_ref(), &listings))
            })
            .collect();
        if sort == Sort::Name {
            expected.sort_by_key(|&i| catalog.index.name_rank(i));
        }
        prop_assert_eq!(&view.results, &expected);
        prop_assert_eq!(listed(&view.counts), naive_counts(&catalog, &hits, &filters));

        // The sources attached at once, as the page attaches those loaded before the registry.
        let mut at_once = Catalog::without_lookalikes(real_registry());
        at_once.set_sources(matrix.clone(), listings.clone());
        let mut one_by_one = Catalog::without_lookalikes(real_registry());
        if let Some(matrix) = matrix.clone() {
            one_by_one.set_matrix(matrix);
        }
        one_by_one.set_listings(listings.clone());
        prop_assert_eq!(at_once.view(&query), one_by_one.view(&query));
        prop_assert_eq!(at_once.matrix.is_some(), with_matrix);

        // Indexed with the sources a few entries at a time, or given them a few at a time.
        let mut indexing = registry_core::catalog::Indexing::with_sources(
            real_registry(),
            matrix.clone(),
            listings.clone(),
        );
        while !indexing.step(step) {}
        let indexed = indexing.finish();
        prop_assert!(indexed.has_sources(matrix.as_ref(), &listings));
        prop_assert_eq!(indexed.view(&query), at_once.view(&query));
        let mut attached = Catalog::without_lookalikes(real_registry());
        let mut attaching = attached.attaching(matrix.clone(), listings.clone());
        while !attaching.step(step) {}
        prop_assert!(attaching.attach_to(&mut attached));
        prop_assert_eq!(attached.view(&query), at_once.view(&query));
        // Sources computed for another registry (an equal one) are not attached to this one.
        let mut other = Catalog::without_lookalikes(real_registry());
        let before = other.view(&query);
        prop_assert!(!attached.attaching(None, listings.clone()).attach_to(&mut other));
        prop_assert_eq!(other.view(&query), before);
        prop_assert!(!other.has_sources(matrix.as_ref(), &listings) || (matrix.is_none() && listings == Listings::default()));
    }
}

/// The value of a probed capability.
fn supports(capability: Capability) -> FacetValue {
    FacetValue::Capability(CapabilityFilter::Supports(capability))
}
