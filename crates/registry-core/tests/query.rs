//! The catalogue state as a URL query string: writing, lenient reading, and the round trip.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use registry_core::clients::Outcome;
use registry_core::{
    Arch, AuthFilter, AuthMethod, Capability, CapabilityFilter, CatalogQuery, Facet, FacetValue,
    Filters, Health, Kind, ListedFor, Method, Os, ProtocolVersionFilter, Sort, TagGroup,
};

/// A state from the parts tests care about.
fn state(q: &str, build: impl FnOnce(&mut Filters), sort: Sort) -> CatalogQuery {
    let mut filters = Filters::default();
    build(&mut filters);
    CatalogQuery {
        q: q.to_owned(),
        filters,
        sort,
        ..CatalogQuery::default()
    }
}

#[test]
fn writes_deterministically() {
    for (query, expected) in [
        (CatalogQuery::default(), ""),
        (state("gemini", |_| {}, Sort::Relevance), "q=gemini"),
        (state("gemini cli", |_| {}, Sort::Relevance), "q=gemini+cli"),
        (
            state("c++ & go=?#%", |_| {}, Sort::Relevance),
            "q=c%2B%2B+%26+go%3D%3F%23%25",
        ),
        (state("né", |_| {}, Sort::Relevance), "q=n%C3%A9"),
        (state("", |_| {}, Sort::Name), "sort=name"),
        (
            state(
                "x",
                |f| {
                    f.insert(FacetValue::License("MIT".into()));
                    f.insert(FacetValue::License("Apache-2.0, with exceptions".into()));
                    f.insert(FacetValue::Arch(Arch::X86_64));
                    f.insert(FacetValue::Os(Os::Windows));
                    f.insert(FacetValue::Os(Os::Darwin));
                    f.insert(FacetValue::Method(Method::Uvx));
                    f.insert(FacetValue::Method(Method::Npx));
                    f.insert(FacetValue::Kind(Kind::Extension));
                    f.insert(FacetValue::Kind(Kind::Agent));
                },
                Sort::Name,
            ),
            "q=x&kind=agent&kind=extension&dist=npx&dist=uvx&os=darwin&os=windows&arch=x86_64\
             &license=Apache-2.0%2C+with+exceptions&license=MIT&sort=name",
        ),
        // Protocol options: known methods first, other methods by name, `not-probed` last.
        (
            state(
                "",
                |f| {
                    f.insert(FacetValue::Capability(CapabilityFilter::NotProbed));
                    f.insert(FacetValue::Capability(CapabilityFilter::Supports(
                        Capability::SetModel,
                    )));
                    f.insert(FacetValue::Capability(CapabilityFilter::Supports(
                        Capability::LoadSession,
                    )));
                    f.insert(FacetValue::Auth(AuthFilter::NotProbed));
                    f.insert(FacetValue::Auth(AuthFilter::Method(AuthMethod::Other(
                        "OAuth 2".into(),
                    ))));
                    f.insert(FacetValue::Auth(AuthFilter::Method(AuthMethod::EnvVar)));
                    f.insert(FacetValue::Auth(AuthFilter::Method(AuthMethod::Agent)));
                    f.insert(FacetValue::License("MIT".into()));
                },
                Sort::Name,
            ),
            "license=MIT&auth=agent&auth=env_var&auth=OAuth+2&auth=not-probed\
             &cap=load-session&cap=set-model&cap=not-probed&sort=name",
        ),
        // AgentRegistry groups: after the others, in `TagGroup::ALL` order, values sorted.
        (
            state(
                "",
                |f| {
                    f.toggle(FacetValue::Tag(TagGroup::Owner, "finance-platform".into()));
                    f.toggle(FacetValue::Tag(TagGroup::Label, "team=finance".into()));
                    f.toggle(FacetValue::Tag(TagGroup::Tag, "ocr".into()));
                    f.toggle(FacetValue::Tag(
                        TagGroup::Capability,
                        "extract, invoice".into(),
                    ));
                    f.toggle(FacetValue::Tag(TagGroup::Live, "live".into()));
                    f.toggle(FacetValue::Tag(TagGroup::Transport, "Http".into()));
                    f.toggle(FacetValue::Tag(TagGroup::Transport, "Amqp".into()));
                    f.toggle(FacetValue::Tag(TagGroup::Protocol, "MCP".into()));
                    f.toggle(FacetValue::Tag(TagGroup::Protocol, "A2A".into()));
                    f.insert(FacetValue::Method(Method::Npx));
                },
                Sort::Name,
            ),
            "dist=npx&protocol=A2A&protocol=MCP&transport=Amqp&transport=Http&live=live\
             &capability=extract%2C+invoice&tag=ocr&label=team%3Dfinance&owner=finance-platform\
             &sort=name",
        ),
    ] {
        assert_eq!(query.to_query_string(), expected, "{query:?}");
        assert_eq!(
            CatalogQuery::from_query_string(expected),
            query,
            "{expected:?}"
        );
    }
}

#[test]
fn reads_leniently() {
    let npx_uvx = |f: &mut Filters| {
        f.insert(FacetValue::Method(Method::Npx));
        f.insert(FacetValue::Method(Method::Uvx));
    };
    for (text, expected) in [
        ("", CatalogQuery::default()),
        ("?", CatalogQuery::default()),
        ("?q=gemini", state("gemini", |_| {}, Sort::Relevance)),
        // Spaces as `+` or `%20`; a `+` only as `%2B`.
        ("q=a+b%20c", state("a b c", |_| {}, Sort::Relevance)),
        ("q=c%2B%2B", state("c++", |_| {}, Sort::Relevance)),
        // The search text is kept as typed, spaces included; the first `q` counts.
        ("q=gemini+", state("gemini ", |_| {}, Sort::Relevance)),
        ("q=first&q=second", state("first", |_| {}, Sort::Relevance)),
        // Several values as repeated keys or comma lists, trimmed, any case.
        ("dist=npx&dist=uvx", state("", npx_uvx, Sort::Relevance)),
        ("dist=npx,uvx", state("", npx_uvx, Sort::Relevance)),
        ("dist=%20NPX%20,+uvx+,", state("", npx_uvx, Sort::Relevance)),
        ("dist=npx&dist=npx,uvx", state("", npx_uvx, Sort::Relevance)),
        // Unknown keys and values are ignored.
        (
            "dist=npx&dist=cargo&dist=uvx&page=2&os=plan9",
            state("", npx_uvx, Sort::Relevance),
        ),
        ("sort=rating", CatalogQuery::default()),
        ("sort=NAME", state("", |_| {}, Sort::Name)),
        ("sort=name&sort=relevance", CatalogQuery::default()),
        // Licences may hold commas: only repeated keys separate them. Blank ones are dropped.
        (
            "license=Apache-2.0,+MIT&license=+MIT+&license=&license=%20",
            state(
                "",
                |f| {
                    f.insert(FacetValue::License("Apache-2.0, MIT".into()));
                    f.insert(FacetValue::License("MIT".into()));
                },
                Sort::Relevance,
            ),
        ),
        (
            "kind=agent&os=linux,darwin&arch=aarch64",
            state(
                "",
                |f| {
                    f.insert(FacetValue::Kind(Kind::Agent));
                    f.insert(FacetValue::Os(Os::Linux));
                    f.insert(FacetValue::Os(Os::Darwin));
                    f.insert(FacetValue::Arch(Arch::Aarch64));
                },
                Sort::Relevance,
            ),
        ),
        // Protocol options: repeated keys or comma lists, any case for the known words; other
        // auth methods are kept by name, trimmed, in their case.
        (
            "auth=Terminal,+SAML+&auth=NOT-PROBED&auth=,&cap=LOAD-SESSION,+not-probed&cap=fly",
            state(
                "",
                |f| {
                    f.insert(FacetValue::Auth(AuthFilter::Method(AuthMethod::Terminal)));
                    f.insert(FacetValue::Auth(AuthFilter::Method(AuthMethod::Other(
                        "SAML".into(),
                    ))));
                    f.insert(FacetValue::Auth(AuthFilter::NotProbed));
                    f.insert(FacetValue::Capability(CapabilityFilter::Supports(
                        Capability::LoadSession,
                    )));
                    f.insert(FacetValue::Capability(CapabilityFilter::NotProbed));
                },
                Sort::Relevance,
            ),
        ),
        // AgentRegistry values: repeated keys only (a comma is part of the value), trimmed, blank
        // ones dropped, case kept; the keys in any case.
        (
            "protocol=A2A,+MCP&PROTOCOL=+mcp+&protocol=&live=%20&tag=a&tag=a&owner=Ops",
            state(
                "",
                |f| {
                    f.toggle(FacetValue::Tag(TagGroup::Protocol, "A2A, MCP".into()));
                    f.toggle(FacetValue::Tag(TagGroup::Protocol, "mcp".into()));
                    f.toggle(FacetValue::Tag(TagGroup::Tag, "a".into()));
                    f.toggle(FacetValue::Tag(TagGroup::Owner, "Ops".into()));
                },
                Sort::Relevance,
            ),
        ),
        // Broken encodings do not fail.
        ("q=%E2%82&dist", state("\u{FFFD}", |_| {}, Sort::Relevance)),
        ("=&&==&q", CatalogQuery::default()),
    ] {
        assert_eq!(CatalogQuery::from_query_string(text), expected, "{text:?}");
    }
}

#[test]
fn reads_decoded_pairs() {
    let query = CatalogQuery::from_pairs([("q", "a+b"), ("dist", "npx"), ("license", "MIT")]);
    assert_eq!(query.q, "a+b");
    let filters: Vec<&FacetValue> = query.filters.iter().collect();
    assert_eq!(
        filters,
        [
            &FacetValue::Method(Method::Npx),
            &FacetValue::License("MIT".into())
        ]
    );
}

#[test]
fn normalizing_reads_auth_options_back() {
    let other = |name: &str| AuthFilter::Method(AuthMethod::Other(name.to_owned()));
    let query = state(
        "",
        |f| {
            f.extend(
                [
                    other(" Agent "),
                    other("saml,oidc"),
                    other(" "),
                    other("Not-Probed"),
                ]
                .map(FacetValue::Auth),
            );
        },
        Sort::Relevance,
    );
    let normalized: Vec<FacetValue> = query.normalized().filters.iter().cloned().collect();
    assert_eq!(
        normalized,
        [
            AuthFilter::Method(AuthMethod::Agent),
            other("saml,oidc"),
            AuthFilter::NotProbed
        ]
        .map(FacetValue::Auth)
    );
}

#[test]
fn a_comma_in_an_auth_method_name_round_trips_and_a_comma_list_still_splits() {
    let other =
        |name: &str| FacetValue::Auth(AuthFilter::Method(AuthMethod::Other(name.to_owned())));
    let query = state("", |f| f.extend([other("x,terminal")]), Sort::Relevance);
    let written = query.to_query_string();
    assert_eq!(written, "auth=x%2Cterminal");
    let read = CatalogQuery::from_query_string(&written);
    assert_eq!(read, query);
    assert_eq!(read.to_query_string(), written);
    // Written by hand, a literal comma still separates values.
    let listed = CatalogQuery::from_query_string("?auth=agent,terminal&dist=npx,uvx");
    let values: Vec<FacetValue> = listed.filters.iter().cloned().collect();
    assert_eq!(
        values,
        [
            FacetValue::Method(Method::Npx),
            FacetValue::Method(Method::Uvx),
            FacetValue::Auth(AuthFilter::Method(AuthMethod::Agent)),
            FacetValue::Auth(AuthFilter::Method(AuthMethod::Terminal)),
        ]
    );
    // A licence's comma never split, written either way.
    for text in ["license=Apache-2.0%2C+MIT", "license=Apache-2.0,+MIT"] {
        let read = CatalogQuery::from_query_string(text);
        let values: Vec<FacetValue> = read.filters.iter().cloned().collect();
        assert_eq!(
            values,
            [FacetValue::License("Apache-2.0, MIT".into())],
            "{text}"
        );
    }
}

#[test]
fn acp_versions_round_trip_and_other_words_are_dropped() {
    let version = |v: &str| FacetValue::ProtocolVersion(ProtocolVersionFilter::Version(v.into()));
    let not_probed = FacetValue::ProtocolVersion(ProtocolVersionFilter::NotProbed);
    let read = CatalogQuery::from_query_string("acp=1,not-probed");
    let values: Vec<FacetValue> = read.filters.iter().cloned().collect();
    assert_eq!(values, [version("1"), not_probed.clone()]);
    // Written as repeated keys, after the capabilities, versions in number order.
    assert_eq!(read.to_query_string(), "acp=1&acp=not-probed");
    assert_eq!(
        CatalogQuery::from_query_string(&read.to_query_string()),
        read
    );
    let many = CatalogQuery::from_query_string("acp=10&acp=2,+NOT-PROBED+&cap=set-model");
    assert_eq!(
        many.to_query_string(),
        "cap=set-model&acp=2&acp=10&acp=not-probed"
    );
    // A word that is not `not-probed` nor digits in dot-separated parts selects nothing.
    for bad in [
        "acp=v1",
        "acp=<x>",
        "acp=%3Cx%3E",
        "acp=",
        "acp=1.",
        "acp=1..2",
        "acp=2025-06-18",
        "acp=1%2C2",
        "acp=%20",
    ] {
        assert!(CatalogQuery::from_query_string(bad).is_default(), "{bad:?}");
    }
    assert_eq!(
        CatalogQuery::from_query_string("acp=v1,+0.2+&acp=<x>").to_query_string(),
        "acp=0.2"
    );
    // Built directly, a word that is not a version is dropped by normalising.
    let query = state(
        "",
        |f| {
            f.extend([version(" 1 "), version("v1"), version("")]);
        },
        Sort::Relevance,
    );
    let normalized: Vec<FacetValue> = query.normalized().filters.iter().cloned().collect();
    assert_eq!(normalized, [version("1")]);
}

#[test]
fn sorts_read_back() {
    for sort in Sort::ALL {
        assert_eq!(Sort::parse(sort.as_str()), Some(sort));
    }
    assert!(CatalogQuery::default().is_default());
    assert!(!state("", |_| {}, Sort::Name).is_default());
}

/// Auth options: the known ones, `not-probed`, and other methods named by any text (including
/// blank ones, commas, and known words in another case).
fn any_auth() -> impl Strategy<Value = AuthFilter> {
    let known: Vec<AuthFilter> = AuthMethod::KNOWN
        .into_iter()
        .map(AuthFilter::Method)
        .chain([AuthFilter::NotProbed])
        .collect();
    let other = prop_oneof![
        any::<String>(),
        "[ a-zA-Z_,-]{0,12}",
        proptest::sample::select(vec![" Agent ", "ENV_VAR", "Not-Probed", "oauth"])
            .prop_map(str::to_owned),
    ];
    prop_oneof![
        proptest::sample::select(known),
        other.prop_map(|name| AuthFilter::Method(AuthMethod::Other(name))),
    ]
}

/// ACP version options: versions, `not-probed`, and any other text as a version (blank,
/// padded, or not one).
fn any_version() -> impl Strategy<Value = ProtocolVersionFilter> {
    prop_oneof![
        proptest::sample::select(vec![
            ProtocolVersionFilter::Version("1".to_owned()),
            ProtocolVersionFilter::Version("0.2".to_owned()),
            ProtocolVersionFilter::NotProbed,
        ]),
        prop_oneof![any::<String>(), "[ 0-9.,v]{0,6}"].prop_map(ProtocolVersionFilter::Version),
    ]
}

/// Tag filters: any text (blank, padded, with commas or `=`) in any group.
fn any_tags() -> impl Strategy<Value = BTreeMap<TagGroup, BTreeSet<String>>> {
    let value = prop_oneof![any::<String>(), "[ a-zA-Z=,-]{0,10}"];
    proptest::collection::btree_map(
        proptest::sample::select(TagGroup::ALL.to_vec()),
        proptest::collection::btree_set(value, 0..3),
        0..4,
    )
}

fn any_query() -> impl Strategy<Value = CatalogQuery> {
    let text = prop_oneof![any::<String>(), "[ a-z&=+%#?,;/é]{0,12}"];
    let filters = (
        proptest::sample::subsequence(Kind::ALL.to_vec(), 0..=Kind::ALL.len()),
        proptest::sample::subsequence(Method::ALL.to_vec(), 0..=Method::ALL.len()),
        proptest::sample::subsequence(Os::ALL.to_vec(), 0..=Os::ALL.len()),
        proptest::sample::subsequence(Arch::ALL.to_vec(), 0..=Arch::ALL.len()),
        proptest::collection::btree_set(text.clone(), 0..4),
        proptest::collection::btree_set(any_auth(), 0..4),
        proptest::sample::subsequence(
            CapabilityFilter::ALL.to_vec(),
            0..=CapabilityFilter::ALL.len(),
        ),
        any_tags(),
        proptest::sample::subsequence(ListedFor::ALL.to_vec(), 0..=ListedFor::ALL.len()),
        proptest::sample::subsequence(Health::ALL.to_vec(), 0..=Health::ALL.len()),
        proptest::collection::btree_set(any_version(), 0..3),
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
                tags,
                listed_for,
                health,
                versions,
            )| {
                let tags = tags.into_iter().flat_map(|(group, values)| {
                    values
                        .into_iter()
                        .map(move |v| FacetValue::Tag(group, v.into()))
                });
                kinds
                    .into_iter()
                    .map(FacetValue::Kind)
                    .chain(methods.into_iter().map(FacetValue::Method))
                    .chain(os.into_iter().map(FacetValue::Os))
                    .chain(arch.into_iter().map(FacetValue::Arch))
                    .chain(licenses.into_iter().map(|l| FacetValue::License(l.into())))
                    .chain(auth.into_iter().map(FacetValue::Auth))
                    .chain(capabilities.into_iter().map(FacetValue::Capability))
                    .chain(tags)
                    .chain(listed_for.into_iter().map(FacetValue::ListedFor))
                    .chain(health.into_iter().map(FacetValue::Health))
                    .chain(versions.into_iter().map(FacetValue::ProtocolVersion))
                    .collect::<Filters>()
            },
        );
    let client = proptest::option::of("[a-z][a-z0-9-]{0,20}");
    let works = proptest::sample::subsequence(Outcome::ALL.to_vec(), 0..=Outcome::ALL.len());
    (
        text,
        filters,
        proptest::sample::select(Sort::ALL.to_vec()),
        client,
        works,
    )
        .prop_map(|(q, filters, sort, client, works)| CatalogQuery {
            q,
            filters,
            sort,
            client,
            works: works.into_iter().collect(),
        })
}

proptest! {
    /// Reading a written state gives it back, up to `normalized` (licences and tag values
    /// trimmed, blank ones and empty tag groups dropped, auth and ACP version options read back
    /// from their words); the search text, whatever it holds, comes back exactly.
    #[test]
    fn round_trip(query in any_query()) {
        let written = query.to_query_string();
        let read = CatalogQuery::from_query_string(&written);
        prop_assert_eq!(&read.q, &query.q);
        prop_assert_eq!(&read, &query.normalized());
        // Normalising is idempotent and what was read writes the same again.
        prop_assert_eq!(read.normalized(), read.clone());
        prop_assert_eq!(read.to_query_string(), query.normalized().to_query_string());
        // As a whole URL's query: nothing that would end it or start a fragment.
        prop_assert!(!written.contains(['#', '?', ' ']), "{}", written);
    }
}

/// Toggles the value a query-string key and word name, as the filter panel's checkbox does;
/// unknown keys and words toggle nothing.
fn toggle(query: &mut CatalogQuery, key: &str, word: &str) {
    if let Some(value) = Facet::from_key(key).and_then(|facet| facet.parse(word)) {
        query.filters.toggle(value);
    }
}

#[test]
fn toggling_a_value_twice_restores_the_query() {
    let mut query = CatalogQuery::default();
    for (key, value) in [
        ("kind", "agent"),
        ("dist", "npx"),
        ("os", "darwin"),
        ("arch", "x86_64"),
        ("license", "MIT"),
        ("auth", "terminal"),
        ("auth", "not-probed"),
        ("cap", "session-fork"),
        ("listed", "jetbrains-bundled"),
        ("health", "quarantined"),
        ("owner", "ops"),
        ("protocol", "A2A"),
        ("label", "team=finance"),
    ] {
        toggle(&mut query, key, value);
    }
    // Keys in the table's order.
    assert_eq!(
        query.to_query_string(),
        "kind=agent&listed=jetbrains-bundled&health=quarantined&dist=npx&os=darwin&arch=x86_64\
         &license=MIT&auth=terminal&auth=not-probed&cap=session-fork&protocol=A2A\
         &label=team%3Dfinance&owner=ops"
    );
    assert_eq!(query.filters.len(), 13);
    toggle(&mut query, "listed", "jetbrains-bundled");
    toggle(&mut query, "health", "quarantined");
    toggle(&mut query, "health", "sickly");
    toggle(&mut query, "protocol", "A2A");
    toggle(&mut query, "label", "team=finance");
    toggle(&mut query, "owner", "ops");
    assert!(query.filters.iter().all(|v| !v.facet().is_tag()));
    toggle(&mut query, "dist", "npx");
    toggle(&mut query, "os", "plan9");
    toggle(&mut query, "colour", "red");
    toggle(&mut query, "auth", "not-probed");
    toggle(&mut query, "cap", "session-fork");
    toggle(&mut query, "cap", "teleport");
    assert_eq!(
        query.to_query_string(),
        "kind=agent&os=darwin&arch=x86_64&license=MIT&auth=terminal"
    );
}

#[test]
fn the_visitors_client_is_a_slug_written_last_and_the_last_one_counts() {
    let query = CatalogQuery {
        client: Some("zed".to_owned()),
        ..state("gemini", |_| {}, Sort::Name)
    };
    assert_eq!(query.to_query_string(), "q=gemini&sort=name&client=zed");
    assert_eq!(
        CatalogQuery::from_query_string("?client=avante-nvim&client=Zed+")
            .client
            .as_deref(),
        Some("zed")
    );
    // Anything but a slug is not a client: ignored, like an unknown value.
    for bad in ["", "1zed", "zed/../x", "<script>", "a b", "z%C3%A9d"] {
        let read = CatalogQuery::from_query_string(&format!("client={bad}"));
        assert_eq!(read.client, None, "{bad:?}");
        assert!(read.is_default(), "{bad:?}");
    }
    // Not a filter: the same results with or without it.
    assert!(
        CatalogQuery::from_query_string("client=zed")
            .filters
            .is_empty()
    );
}

#[test]
fn the_verdicts_kept_are_a_comma_list_written_as_repeated_keys() {
    let read = CatalogQuery::from_query_string("client=zed&works=works,Works-With-Step&works=nope");
    assert_eq!(
        read.works.iter().copied().collect::<Vec<_>>(),
        [Outcome::Works, Outcome::WorksWithStep]
    );
    assert_eq!(
        read.to_query_string(),
        "client=zed&works=works&works=works-with-step"
    );
    assert_eq!(
        CatalogQuery::from_query_string(&read.to_query_string()),
        read
    );
}
