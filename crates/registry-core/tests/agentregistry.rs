//! The AgentRegistry source: its pages read item by item, the adapter to `Entry`, the pager's
//! stops and retries, and the catalogue (search, facets, URL) over its agents, on the synthetic
//! listing of `tests/fixtures/agentregistry/`.

mod common;

use common::{AGENTREGISTRY_PAGES, agentregistry, listed, naive_counts, real_registry, registry};
use proptest::prelude::*;
use registry_core::agentregistry::{LivenessModel, MAX_PAGES, Protocol, Transport};
use registry_core::{
    Catalog, CatalogQuery, Diagnostic, Distribution, Entry, EntryFacets, Facet, FacetCounts,
    FacetValue, Filters, Kind, Location, Method, PageError, PageReport, Pager, ProtocolMetadata,
    Severity, Sort, TagGroup, parse_page,
};

/// The readable agent named `name`.
fn agent(name: &str) -> Entry {
    let loaded = agentregistry();
    loaded
        .registry
        .entries
        .into_iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("no agent named {name:?}"))
}

/// A page of these items, saying whether there is a next one.
fn page(items: &[String], has_next_page: bool) -> String {
    format!(
        r#"{{"items": [{}], "totalCount": 99, "page": 1, "pageSize": 100, "totalPages": 9,
            "hasNextPage": {has_next_page}, "hasPreviousPage": false}}"#,
        items.join(", ")
    )
}

/// A minimal readable item.
fn item(id: &str) -> String {
    format!(
        r#"{{"id": "{id}", "name": "Agent {id}", "ownerId": "ops", "endpoints": [{{
            "transport": "Http", "protocol": "A2A", "address": "https://{id}.test/",
            "livenessModel": "Persistent", "isLive": true}}]}}"#
    )
}

/// Page `number` of the fixture: its item count, the names it gives, its diagnostic count and
/// whether it says there is a next page.
fn check_page(number: u32, items: usize, names: &[&str], diagnostics: usize, has_next: bool) {
    let page = parse_page(AGENTREGISTRY_PAGES[number as usize - 1], number).unwrap();
    let got: Vec<&str> = page.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(page.page, number);
    assert_eq!(page.items, items, "page {number}");
    assert_eq!(got, names, "page {number}");
    assert_eq!(page.diagnostics.len(), diagnostics, "page {number}");
    assert_eq!(page.has_next_page, Some(has_next), "page {number}");
    assert_eq!((page.total_count, page.total_pages), (Some(13), Some(3)));
}

#[test]
fn each_fixture_page_reads_item_by_item() {
    let page_1 = [
        "Invoice Extractor",
        "Weather MCP Server",
        "Research Agent",
        "Invoice Processor",
        "Code Review Assistant",
    ];
    check_page(1, 5, &page_1, 0, true);
    let page_2 = [
        "Meeting Summarizer",
        "Translation Gateway",
        "Telemetry Relay",
        "Ticket Triage",
    ];
    check_page(2, 5, &page_2, 1, true);
    let page_3 = ["Document Search", "Batch Scheduler", "Payments Agent"];
    check_page(3, 3, &page_3, 0, false);
}

#[test]
fn the_malformed_item_is_a_diagnostic_at_its_page_and_index() {
    let loaded = agentregistry();
    assert_eq!(
        loaded.diagnostics,
        [Diagnostic {
            severity: Severity::Error,
            location: Location::Item {
                page: 2,
                index: 1,
                id: Some("2f7c5a0e-9b4d-4d8f-8e6b-1c3d5f7a9b07".to_owned()),
            },
            message: "`name` must be a string, found a number".to_owned(),
            hint: Some("quote it: \"42\"".to_owned()),
        }]
    );
    assert_eq!(
        loaded.diagnostics[0].to_string(),
        "error: page 2, items[1] (2f7c5a0e-9b4d-4d8f-8e6b-1c3d5f7a9b07): `name` must be a \
         string, found a number (hint: quote it: \"42\")"
    );
}

#[test]
fn broken_items_say_what_is_wrong() {
    let check = |item: &str, expected: &[&str]| {
        let page = parse_page(&page(&[item.to_owned(), self::item("ok")], false), 4).unwrap();
        assert_eq!(page.entries.len(), 1, "{item}");
        let got: Vec<String> = page
            .diagnostics
            .iter()
            .map(|d| {
                assert_eq!(d.severity, Severity::Error);
                let Location::Item { page, index, .. } = d.location else {
                    panic!("{d}")
                };
                assert_eq!((page, index), (4, 0));
                d.message.clone()
            })
            .collect();
        assert_eq!(got, expected, "{item}");
    };
    check("[1]", &["the item is an array, not an object"]);
    check(r#"{"name": "x"}"#, &["missing required field `id`"]);
    check(r#"{"id": " ", "name": "x"}"#, &["`id` is empty"]);
    check(r#"{"id": "a", "name": ""}"#, &["`name` is empty"]);
    check(
        r#"{"id": "a", "name": "x", "labels": {"team": 1}, "capabilities": [{"tags": "a"}]}"#,
        &[
            "`labels.team` must be a string, found a number",
            "missing required field `capabilities[0].name`",
            "`capabilities[0].tags` must be an array of strings, found a string",
        ],
    );
    check(
        r#"{"id": "a", "name": "x", "endpoints": [{"transport": "Http", "protocol": 2,
            "livenessModel": "Ephemeral", "ttlSeconds": "60", "isLive": "yes"}, 3]}"#,
        &[
            "`endpoints[0].protocol` must be a string, found a number",
            "missing required field `endpoints[0].address`",
            "`endpoints[0].ttlSeconds` must be a whole number, found a string",
            "`endpoints[0].isLive` must be a boolean, found a string",
            "`endpoints[1]` must be an object, found a number",
        ],
    );
    // Nulls stand for absent optional values.
    let nulls = r#"{"id": "a", "name": "x", "description": null, "ownerId": null, "labels": null,
        "capabilities": [{"name": "c", "tags": null, "description": null}], "endpoints": null}"#;
    let page = parse_page(&page(&[nulls.to_owned()], false), 1).unwrap();
    assert_eq!((page.entries.len(), page.diagnostics.len()), (1, 0));
    let agent = page.entries[0].service().unwrap();
    assert!(agent.owner_id.is_empty() && agent.capabilities[0].tags.is_empty());
}

#[test]
fn items_become_entries_that_keep_the_item() {
    let entry = agent("Invoice Extractor");
    assert_eq!(entry.kind, Kind::Agent);
    assert_eq!(entry.id, "5f0c2a9e-3b1d-4c7a-9e21-7d4b8a6f1c01");
    assert_eq!(entry.path(), "/agents/5f0c2a9e-3b1d-4c7a-9e21-7d4b8a6f1c01");
    assert_eq!(
        entry.description,
        "Extracts line items, totals and VAT numbers from PDF and scanned invoices."
    );
    assert_eq!(entry.authors, ["finance-platform"]);
    assert_eq!(entry.version, "");
    assert_eq!(entry.distribution, Distribution::default());
    assert_eq!(
        (&entry.license, &entry.icon, &entry.website),
        (&None, &None, &None)
    );
    assert_eq!(entry.unknown_fields(), Vec::<String>::new());
    // The raw text is the item's, exactly as it was on the page.
    assert!(AGENTREGISTRY_PAGES[0].contains(&entry.raw));
    assert!(entry.raw.starts_with("{\n      \"id\": \"5f0c2a9e"));
    let service = entry.service().unwrap();
    assert_eq!(service.labels["team"], "finance");
    assert_eq!(service.capabilities[0].tags, ["finance", "ocr", "pdf"]);
    let endpoint = &service.endpoints[0];
    assert_eq!(
        (
            &endpoint.transport,
            &endpoint.protocol,
            &endpoint.liveness_model
        ),
        (&Transport::Http, &Protocol::A2a, &LivenessModel::Persistent)
    );
    assert_eq!(
        (endpoint.heartbeat_interval_seconds, endpoint.ttl_seconds),
        (Some(30), None)
    );
    assert!(endpoint.is_live() && service.is_live());
    assert_eq!(
        service.created_at.as_deref(),
        Some("2026-03-02T09:14:00+00:00")
    );
}

#[test]
fn missing_optionals_and_unknown_values_are_kept_as_given() {
    let triage = agent("Ticket Triage");
    let service = triage.service().unwrap();
    assert_eq!(triage.description, "");
    assert!(service.description.is_none() && service.labels.is_empty());
    assert!(service.capabilities.is_empty());
    let endpoint = &service.endpoints[0];
    assert_eq!((endpoint.id.as_str(), endpoint.name.as_str()), ("", ""));
    assert_eq!((endpoint.ttl_seconds, endpoint.is_live), (None, None));
    assert!(!endpoint.is_live() && !service.is_live());
    assert_eq!(endpoint.protocol_metadata(), None);

    let gateway = agent("Translation Gateway");
    let endpoint = &gateway.service().unwrap().endpoints[0];
    assert_eq!(endpoint.protocol, Protocol::Other("OpenAI".to_owned()));
    assert_eq!(endpoint.protocol.as_str(), "OpenAI");
    assert_eq!(endpoint.ttl_seconds, Some(120));

    let relay = agent("Telemetry Relay");
    let endpoint = &relay.service().unwrap().endpoints[0];
    assert_eq!(endpoint.transport.to_string(), "Grpc");
    assert!(!endpoint.transport.is_queue());
    assert_eq!(
        endpoint.protocol_metadata(),
        Some(ProtocolMetadata::Text(
            "service=opentelemetry.proto.collector.trace.v1; compression=gzip"
        ))
    );
}

#[test]
fn queue_details_come_from_protocol_metadata() {
    let research = agent("Research Agent");
    let endpoint = &research.service().unwrap().endpoints[0];
    assert_eq!(endpoint.transport, Transport::Amqp);
    assert_eq!(endpoint.address, "agent.task.ResearchAgent");
    let Some(ProtocolMetadata::Object(metadata)) = endpoint.protocol_metadata() else {
        panic!("{:?}", endpoint.protocol_metadata)
    };
    let queue = &metadata["queueEndpoint"];
    assert_eq!(queue["technology"], "rabbitmq");
    assert_eq!(queue["exchange"], "rockbot");
    assert_eq!(queue["responseTopic"], "agent.response.{callerName}");

    let details = endpoint.queue_details();
    let shown: Vec<(&str, &str)> = details
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        shown,
        [
            ("Technology", "rabbitmq"),
            ("Host", "rabbitmq.example.com"),
            ("Port", "5672"),
            ("Virtual host", "/"),
            ("Exchange", "rockbot"),
            ("Task topic", "agent.task.ResearchAgent"),
            ("Response topic", "agent.response.{callerName}"),
        ]
    );
    // HTTP endpoints have no queue details, whatever their metadata.
    let extractor = agent("Invoice Extractor");
    assert_eq!(
        extractor.service().unwrap().endpoints[0].queue_details(),
        vec![]
    );
    // Metadata that is not JSON gives none either.
    let relay = agent("Telemetry Relay");
    assert_eq!(
        relay.service().unwrap().endpoints[0].queue_details(),
        vec![]
    );
}

#[test]
fn protocol_documents_follow_the_endpoints() {
    let table: &[(&str, &[&str])] = &[
        ("Invoice Extractor", &["A2A agent card /a2a/agents/"]),
        ("Weather MCP Server", &["MCP server card /mcp/servers/"]),
        (
            "Research Agent",
            &[
                "A2A agent card /a2a/agents/",
                "Queued A2A agent card /a2a/async/agents/",
            ],
        ),
        (
            "Code Review Assistant",
            &["ACP agent manifest /acp/agents/"],
        ),
        (
            "Meeting Summarizer",
            &[
                "A2A agent card /a2a/agents/",
                "MCP server card /mcp/servers/",
            ],
        ),
        // ACP over a queue has no queued card: that is A2A's.
        ("Batch Scheduler", &["ACP agent manifest /acp/agents/"]),
        (
            "Payments Agent",
            &[
                "A2A agent card /a2a/agents/",
                "Queued A2A agent card /a2a/async/agents/",
            ],
        ),
        ("Translation Gateway", &[]),
        ("Ticket Triage", &[]),
    ];
    for &(name, expected) in table {
        let entry = agent(name);
        let got: Vec<String> = entry
            .service()
            .unwrap()
            .documents()
            .iter()
            .map(|d| format!("{} {}", d.label, d.path.strip_suffix(&entry.id).unwrap()))
            .collect();
        assert_eq!(got, expected, "{name}");
    }
    // Ids are percent-encoded in paths.
    let odd = r#"{"id": "a b/c?d#é", "name": "Odd", "endpoints": [{"transport": "Http",
        "protocol": "MCP", "address": "x", "livenessModel": "Ephemeral"}]}"#;
    let entry = &parse_page(&page(&[odd.to_owned()], false), 1)
        .unwrap()
        .entries[0];
    let documents = entry.service().unwrap().documents();
    assert_eq!(documents[0].path, "/mcp/servers/a%20b%2Fc%3Fd%23%C3%A9");
    assert_eq!(
        documents[0].url("http://registry.test/"),
        "http://registry.test/mcp/servers/a%20b%2Fc%3Fd%23%C3%A9"
    );
}

#[test]
fn the_pager_walks_the_pages_and_reports_progress() {
    let mut pager = Pager::new("http://registry.test/");
    assert_eq!(pager.progress(), (0, None));
    let mut reports = Vec::new();
    while let Some(url) = pager.next_url() {
        let n = pager.page();
        assert_eq!(
            url,
            format!("http://registry.test/discover/agents?liveOnly=false&page={n}&pageSize=100")
        );
        reports.push(pager.accept(AGENTREGISTRY_PAGES[n as usize - 1]).unwrap());
        assert_eq!(pager.progress().1, Some(13));
    }
    assert_eq!(
        reports,
        [
            PageReport {
                page: 1,
                items: 5,
                added: 5,
                done: false
            },
            PageReport {
                page: 2,
                items: 5,
                added: 4,
                done: false
            },
            PageReport {
                page: 3,
                items: 3,
                added: 3,
                done: true
            },
        ]
    );
    assert_eq!(pager.progress(), (13, Some(13)));
    assert_eq!(pager.total_pages(), Some(3));
    assert_eq!(pager.entries().len(), 12);
    assert_eq!(
        pager.accept(AGENTREGISTRY_PAGES[2]),
        Err(PageError::Finished)
    );
}

#[test]
fn a_failed_page_keeps_what_was_loaded_and_is_asked_for_again() {
    let mut pager = Pager::new("http://registry.test");
    pager.accept(AGENTREGISTRY_PAGES[0]).unwrap();
    let url = pager.next_url().unwrap();

    let err = pager.fail("HTTP 503 Service Unavailable");
    assert_eq!(
        err.to_string(),
        "page 2 of the agent listing could not be fetched: HTTP 503 Service Unavailable; retry \
         to ask for it again"
    );
    assert_eq!(pager.last_error(), Some(&err));
    assert_eq!(pager.next_url().as_deref(), Some(url.as_str()));
    assert_eq!(pager.entries().len(), 5);

    // A truncated body: not JSON, with its place.
    let truncated = &AGENTREGISTRY_PAGES[1][..200];
    let Err(PageError::Json { page: 2, line, .. }) = pager.accept(truncated) else {
        panic!("{:?}", pager.last_error())
    };
    assert!(line > 1);
    // JSON, but not a page.
    for (text, message) in [
        ("[]", "it is an array, not an object"),
        (r#"{"error": "busy"}"#, "it has no `items`"),
        (
            r#"{"items": {"a": 1}}"#,
            "`items` is an object, not an array",
        ),
    ] {
        let err = pager.accept(text).unwrap_err();
        assert_eq!(
            err,
            PageError::Shape {
                page: 2,
                message: message.to_owned()
            }
        );
        assert_eq!(pager.last_error(), Some(&err));
    }
    assert_eq!(pager.next_url().as_deref(), Some(url.as_str()));
    assert_eq!((pager.entries().len(), pager.progress().0), (5, 5));
    assert!(pager.diagnostics().is_empty());

    // The retry succeeds and paging goes on.
    pager.accept(AGENTREGISTRY_PAGES[1]).unwrap();
    assert_eq!(pager.last_error(), None);
    pager.accept(AGENTREGISTRY_PAGES[2]).unwrap();
    assert_eq!(pager.into_loaded(), agentregistry());
}

#[test]
fn pages_ahead_are_named_once_the_listing_says_how_many() {
    let pages_of = |pager: &Pager| -> Vec<u32> {
        pager
            .urls_ahead()
            .map(|url| {
                let page = url
                    .split("page=")
                    .nth(1)
                    .unwrap()
                    .split('&')
                    .next()
                    .unwrap();
                page.parse().unwrap()
            })
            .collect()
    };
    let mut pager = Pager::new("http://registry.test");
    // Before a page has said how many there are: the first one only.
    assert_eq!(pages_of(&pager), [1]);
    assert_eq!(pager.urls_ahead().next(), pager.next_url());
    pager.accept(AGENTREGISTRY_PAGES[0]).unwrap();
    assert_eq!(pages_of(&pager), [2, 3]);
    // A failed page is still the first ahead.
    pager.fail("HTTP 503");
    assert_eq!(pages_of(&pager), [2, 3]);
    pager.accept(AGENTREGISTRY_PAGES[1]).unwrap();
    assert_eq!(pages_of(&pager), [3]);
    pager.accept(AGENTREGISTRY_PAGES[2]).unwrap();
    assert_eq!(pages_of(&pager), [] as [u32; 0]);

    // A server that said 9 pages but has more: the rest one at a time, after the ninth.
    let mut pager = Pager::new("http://registry.test");
    let items: Vec<String> = (0..20).map(|n| item(&format!("agent-{n}"))).collect();
    pager.accept(&page(&items[..2], true)).unwrap();
    assert_eq!(pages_of(&pager), (2..=9).collect::<Vec<_>>());
    for n in 2..=9 {
        pager.accept(&page(&items[2 * n - 2..2 * n], true)).unwrap();
    }
    assert_eq!(pages_of(&pager), [10]);

    // A claim of more pages than the catalogue reads is cut at MAX_PAGES.
    let mut pager = Pager::new("http://registry.test");
    let huge = page(&items[..1], true).replace(r#""totalPages": 9"#, r#""totalPages": 5000000"#);
    pager.accept(&huge).unwrap();
    let ahead = pages_of(&pager);
    assert_eq!(
        (ahead.len(), ahead.last()),
        (MAX_PAGES as usize - 1, Some(&MAX_PAGES))
    );
}

#[test]
fn paging_stops_on_a_server_that_never_ends() {
    let check = |pages: &[String], agents: usize, pages_read: u32, warnings: &[&str]| {
        let mut pager = Pager::new("http://registry.test");
        for text in pages {
            if pager.next_url().is_none() {
                break;
            }
            pager.accept(text).unwrap();
        }
        assert!(pager.is_done(), "{pages:?}");
        assert_eq!(pager.page(), pages_read);
        let loaded = pager.into_loaded();
        assert_eq!(loaded.registry.entries.len(), agents);
        let got: Vec<String> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .map(|d| {
                assert_eq!(d.location, Location::Registry);
                d.message.clone()
            })
            .collect();
        assert_eq!(got, warnings);
    };
    // An empty page that claims a next one.
    check(
        &[
            page(&[item("a")], true),
            page(&[], true),
            page(&[item("b")], false),
        ],
        1,
        2,
        &["page 2 has no items but says there is a next page; paging stopped there"],
    );
    // A server ignoring `page` serves page 1 again: every item a duplicate.
    let first = page(&[item("a"), item("b")], true);
    check(
        &[first.clone(), first.clone(), first],
        2,
        2,
        &[
            "page 2 repeats only agents already loaded (the registry may be ignoring `page`); \
             paging stopped there",
        ],
    );
    // New items forever: stopped at the cap.
    let endless: Vec<String> = (0..MAX_PAGES + 5)
        .map(|n| page(&[item(&n.to_string())], true))
        .collect();
    check(
        &endless,
        MAX_PAGES as usize,
        MAX_PAGES,
        &[&format!(
            "page {MAX_PAGES} is the last one the catalogue reads; paging stopped there"
        )],
    );
    // Without `hasNextPage`, `totalPages` decides; without either, one page is all.
    let counted = |n: u32| {
        format!(
            r#"{{"items": [{}], "totalPages": 2}}"#,
            item(&n.to_string())
        )
    };
    check(&[counted(1), counted(2), counted(3)], 2, 2, &[]);
    check(
        &[r#"{"items": []}"#.to_owned(), page(&[item("a")], false)],
        0,
        1,
        &[],
    );
}

#[test]
fn a_duplicate_id_keeps_the_first() {
    let mut pager = Pager::new("http://registry.test");
    pager
        .accept(&page(&[item("a"), item("b"), item("a")], true))
        .unwrap();
    let report = pager.accept(&page(&[item("c"), item("b")], false)).unwrap();
    assert_eq!((report.items, report.added, report.done), (2, 1, true));
    let ids: Vec<&str> = pager.entries().iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["a", "b", "c"]);
    let duplicates: Vec<String> = pager
        .diagnostics()
        .iter()
        .map(ToString::to_string)
        .collect();
    let hint = "the registry listed this agent twice (it may have changed while being paged \
                through); reload to page through it again";
    assert_eq!(
        duplicates,
        [
            format!(
                "error: page 1, items[2] (a): duplicate id: page 1, items[0] already has it, so \
                 this item was left out (hint: {hint})"
            ),
            format!(
                "error: page 2, items[1] (b): duplicate id: page 1, items[1] already has it, so \
                 this item was left out (hint: {hint})"
            ),
        ]
    );
}

/// The tag groups' counts as one line: `protocol A2A=5 … | live … | …`.
fn show_tags(counts: &FacetCounts) -> String {
    show_groups(counts, |_| true)
}

/// The counts of the tag groups `keep` keeps, as [`show_tags`] writes them.
fn show_groups(counts: &FacetCounts, keep: impl Fn(TagGroup) -> bool) -> String {
    tag_groups(counts)
        .filter(|(group, _)| keep(*group))
        .map(|(group, values)| {
            let values = values.iter().map(|(v, n)| format!("{}={n}", v.as_str()));
            std::iter::once(group.as_str().to_owned())
                .chain(values)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The listed tag groups with their options.
fn tag_groups(counts: &FacetCounts) -> impl Iterator<Item = (TagGroup, &[(FacetValue, usize)])> {
    counts.groups().filter_map(|(facet, options)| match facet {
        Facet::Tag(group) => Some((group, options)),
        _ => None,
    })
}

/// An entry's values in a tag group.
fn tags(facets: &EntryFacets, group: TagGroup) -> Vec<&str> {
    facets
        .values_in(Facet::Tag(group))
        .map(FacetValue::as_str)
        .collect()
}

fn fixture_catalog() -> Catalog {
    Catalog::new(agentregistry().registry)
}

/// Result names and the protocol, transport and live counts of `query`.
fn check(catalog: &Catalog, query: &str, names: &str, counts: &str) {
    let view = catalog.view(&CatalogQuery::from_query_string(query));
    let got: Vec<&str> = view
        .results
        .iter()
        .map(|&i| catalog.registry.entries[i].name.as_str())
        .collect();
    assert_eq!(got.join(", "), names, "results of {query:?}");
    let shown = show_groups(&view.counts, |g| {
        [TagGroup::Protocol, TagGroup::Transport, TagGroup::Live].contains(&g)
    });
    assert_eq!(shown, counts, "counts of {query:?}");
}

#[test]
fn facet_counts_by_hand() {
    let catalog = fixture_catalog();
    check(
        &catalog,
        "",
        "Batch Scheduler, Code Review Assistant, Document Search, Invoice Extractor, \
         Invoice Processor, Meeting Summarizer, Payments Agent, Research Agent, Telemetry Relay, \
         Ticket Triage, Translation Gateway, Weather MCP Server",
        "protocol A2A=5 MCP=3 ACP=2 Generic=2 OpenAI=1 \
         | transport Http=8 Amqp=2 AzureServiceBus=2 Grpc=1 | live live=8 stale=4",
    );
    // Within a group values are OR-ed, and the group's own counts do not change.
    check(
        &catalog,
        "protocol=MCP&protocol=ACP",
        "Batch Scheduler, Code Review Assistant, Document Search, Meeting Summarizer, \
         Weather MCP Server",
        "protocol A2A=5 MCP=3 ACP=2 Generic=2 OpenAI=1 \
         | transport Http=4 Amqp=1 | live live=4 stale=1",
    );
    // Groups are AND-ed; each is counted under the others' filters.
    check(
        &catalog,
        "transport=Amqp&transport=AzureServiceBus&live=live",
        "Batch Scheduler, Invoice Processor, Payments Agent",
        "protocol A2A=2 ACP=1 | transport Http=6 AzureServiceBus=2 Amqp=1 | live live=3 stale=1",
    );
    // A value nobody has is listed at zero while selected; the live group keeps its order; a
    // group left with no option (no transport has a result, none is selected) is not listed.
    check(
        &catalog,
        "protocol=Smoke&live=stale",
        "",
        "protocol Generic=2 A2A=1 MCP=1 Smoke=0 | live stale=0",
    );
    // Search narrows the counts.
    check(
        &catalog,
        "q=invoice",
        "Invoice Extractor, Invoice Processor",
        "protocol A2A=2 | transport AzureServiceBus=1 Http=1 | live live=2",
    );
}

#[test]
fn every_tag_group_is_counted() {
    let catalog = fixture_catalog();
    let view = catalog.view(&CatalogQuery::from_query_string(
        "tag=finance&label=env%3Dprod",
    ));
    let names: Vec<&str> = view
        .results
        .iter()
        .map(|&i| catalog.registry.entries[i].name.as_str())
        .collect();
    assert_eq!(
        names,
        ["Invoice Extractor", "Invoice Processor", "Payments Agent"]
    );
    // Per group: how many values, and the first.
    let groups: Vec<String> = tag_groups(&view.counts)
        .map(|(g, values)| {
            let (value, n) = &values[0];
            format!("{} {}: {}={n}", g.as_str(), values.len(), value.as_str())
        })
        .collect();
    assert_eq!(
        groups,
        [
            "protocol 1: A2A=3",
            "transport 2: AzureServiceBus=2",
            "live 1: live=3",
            "capability 4: check-payment-status=1",
            "tag 13: finance=3",
            "label 3: env=prod=3",
            "owner 1: finance-platform=3",
        ]
    );
    // The label group, counted without its own filter: every agent with a finance tag.
    let labels: Vec<(&str, usize)> = view
        .counts
        .of(Facet::Tag(TagGroup::Label))
        .iter()
        .map(|(v, n)| (v.as_str(), *n))
        .collect();
    assert_eq!(
        labels,
        [("env=prod", 3), ("team=finance", 3), ("pci=true", 1)]
    );
}

#[test]
fn acp_groups_count_nothing_for_service_entries() {
    let catalog = fixture_catalog();
    let view = catalog.view(&CatalogQuery::default());
    let counts = &view.counts;
    // Without an ACP entry the ACP groups are not listed at all.
    let listed: Vec<Facet> = counts.groups().map(|(facet, _)| facet).collect();
    assert!(listed.iter().all(|f| f.is_tag()), "{listed:?}");
    for facet in [
        Facet::Kind,
        Facet::Method,
        Facet::Os,
        Facet::Arch,
        Facet::License,
    ] {
        assert_eq!(counts.of(facet), [], "{facet:?}");
    }
    assert_eq!(
        (
            counts.of(Facet::Auth).len(),
            counts.of(Facet::Capability).len(),
            counts.of(Facet::ProtocolVersion).len()
        ),
        (0, 0, 0)
    );
    assert_eq!(catalog.facets.licenses().count(), 0);
    // An ACP filter from a URL keeps none of them.
    for query in [
        "kind=agent",
        "dist=npx",
        "license=MIT",
        "license=Not%20specified",
    ] {
        let view = catalog.view(&CatalogQuery::from_query_string(query));
        assert_eq!(view.total(), 0, "{query}");
    }
    let facets = EntryFacets::of(&catalog.registry.entries[0]);
    assert_eq!(facets.license(), "");
    assert!(
        !facets.has(&FacetValue::Kind(Kind::Agent))
            && !facets.has(&FacetValue::Method(Method::Npx))
    );
    // And ACP entries have no tag values: a registry of them lists no tag group.
    let acp = Catalog::new(real_registry());
    assert_eq!(
        tag_groups(&acp.view(&CatalogQuery::default()).counts).count(),
        0
    );
    assert_eq!(
        show_tags(&acp.view(&CatalogQuery::from_query_string("owner=x")).counts),
        "owner x=0"
    );
}

#[test]
fn entry_facets_hold_the_tag_values() {
    let entry = agent("Meeting Summarizer");
    let facets = EntryFacets::of(&entry);
    let values = |group| tags(&facets, group);
    assert_eq!(values(TagGroup::Protocol), ["A2A", "MCP"]);
    assert_eq!(values(TagGroup::Transport), ["Http"]);
    assert_eq!(values(TagGroup::Live), ["live"]);
    assert_eq!(values(TagGroup::Capability), ["action-items", "summarize"]);
    assert_eq!(values(TagGroup::Tag), ["meetings", "nlp", "text"]);
    assert_eq!(values(TagGroup::Label), ["env=prod", "team=platform"]);
    assert_eq!(values(TagGroup::Owner), ["platform-team"]);
    let tag = |v: &str| FacetValue::Tag(TagGroup::Tag, v.into());
    assert!(facets.has(&tag("nlp")) && !facets.has(&tag("NLP")));
    let triage = EntryFacets::of(&agent("Ticket Triage"));
    assert_eq!(tags(&triage, TagGroup::Live), ["stale"]);
    assert_eq!(tags(&triage, TagGroup::Capability).len(), 0);
}

#[test]
fn search_finds_capabilities_tags_labels_and_protocols_below_names() {
    let catalog = fixture_catalog();
    let names = |q: &str| -> Vec<String> {
        let view = catalog.view(&CatalogQuery::from_query_string(q));
        view.results
            .iter()
            .map(|&i| catalog.registry.entries[i].name.clone())
            .collect()
    };
    // A name match ranks above the same word as a protocol.
    assert_eq!(
        names("q=mcp"),
        [
            "Weather MCP Server",
            "Document Search",
            "Meeting Summarizer"
        ]
    );
    // Tags, owners (as authors) and label values.
    assert_eq!(names("q=ocr"), ["Invoice Extractor", "Invoice Processor"]);
    assert_eq!(names("q=rockbot"), ["Research Agent"]);
    assert_eq!(names("q=staging"), ["Document Search"]);
    assert_eq!(names("q=scheduling"), ["Batch Scheduler"]);
    // Capability names, with typos too.
    assert_eq!(names("q=refund"), ["Payments Agent"]);
    assert_eq!(names("q=trnaslate"), ["Translation Gateway"]);
    // Filters and sorting work as for ACP entries.
    assert_eq!(
        names("q=finance&live=live&sort=name"),
        ["Invoice Extractor", "Invoice Processor", "Payments Agent"]
    );
    let view = catalog.view(&CatalogQuery::from_query_string("q=ocr"));
    assert_eq!(view.matches.highlight("ocr, finance, OCR"), [0..3, 14..17]);
}

#[test]
fn the_catalogue_takes_service_entries_unchanged() {
    let catalog = fixture_catalog();
    assert_eq!(catalog.index.len(), 12);
    let id = "3b8f0d6c-7e2a-4b5d-8c4f-9a1b3d5e7f05";
    let entry = catalog.registry.find(Kind::Agent, id).unwrap();
    assert_eq!(entry.name, "Code Review Assistant");
    assert_eq!(catalog.facts(entry), registry_core::Facts::NotProbed);
    let query = CatalogQuery::from_query_string("protocol=ACP&sort=name");
    assert_eq!(query.sort, Sort::Name);
    let view = catalog.view(&query);
    assert_eq!(view.total(), 2);
    assert_eq!(
        CatalogQuery::from_query_string(&query.to_query_string()),
        query
    );
}

/// Filters over the mixed catalogue: ACP groups and tag groups, values the fixture has plus one
/// nobody has.
fn any_filters() -> impl Strategy<Value = Filters> {
    let catalog = fixture_catalog();
    let mut tags: Vec<(TagGroup, String)> = (0..catalog.registry.entries.len())
        .flat_map(|i| {
            let facets = catalog.facets.facets(i);
            TagGroup::ALL
                .into_iter()
                .flat_map(|g| {
                    tags(&facets, g)
                        .into_iter()
                        .map(|v| (g, v.to_owned()))
                        .collect::<Vec<_>>()
                })
                .collect::<Vec<_>>()
        })
        .collect();
    tags.push((TagGroup::Protocol, "Smoke".to_owned()));
    tags.sort();
    tags.dedup();
    (
        proptest::sample::subsequence(Kind::ALL.to_vec(), 0..=1),
        proptest::sample::subsequence(Method::ALL.to_vec(), 0..=1),
        proptest::sample::subsequence(vec!["MIT".to_owned(), "Apache-2.0".to_owned()], 0..=1),
        proptest::sample::subsequence(tags, 0..=4),
    )
        .prop_map(|(kinds, methods, licenses, tags)| {
            let mut filters: Filters = kinds
                .into_iter()
                .map(FacetValue::Kind)
                .chain(methods.into_iter().map(FacetValue::Method))
                .chain(licenses.into_iter().map(|l| FacetValue::License(l.into())))
                .collect();
            for (group, value) in tags {
                filters.toggle(FacetValue::Tag(group, value.into()));
            }
            filters
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// On ACP and AgentRegistry entries together, the one-pass results and counts are those of
    /// the rules read naively.
    #[test]
    fn one_pass_agrees_with_the_rules_on_a_mixed_catalogue(
        filters in any_filters(),
        q in proptest::sample::select(vec!["", "invoice", "agent", "finance", "code", "zzzz"]),
    ) {
        let mut entries = real_registry().entries;
        entries.extend(agentregistry().registry.entries);
        let catalog = Catalog::new(registry(entries));
        let query = CatalogQuery { q: q.to_owned(), filters: filters.clone(), sort: Sort::Relevance, ..CatalogQuery::default() };
        let view = catalog.view(&query);
        let hits: Vec<usize> = catalog.index.search(q).hits.iter().map(|h| h.entry).collect();
        let expected: Vec<usize> = hits
            .iter()
            .copied()
            .filter(|&i| filters.matches(&EntryFacets::of(&catalog.registry.entries[i])))
            .collect();
        prop_assert_eq!(&view.results, &expected);
        prop_assert_eq!(listed(&view.counts), naive_counts(&catalog, &hits, &filters));
    }

    /// Any text as a page: an error or a page, never a panic, and a failed page changes nothing.
    #[test]
    fn pages_never_panic(text in prop_oneof![
        any::<String>(),
        "[{}\\[\\]\":, a-zA-Z0-9]{0,40}",
        Just(AGENTREGISTRY_PAGES[1].to_owned()),
    ]) {
        let mut pager = Pager::new("http://registry.test");
        pager.accept(AGENTREGISTRY_PAGES[0]).unwrap();
        let before = pager.entries().len();
        if pager.accept(&text).is_err() {
            prop_assert_eq!(pager.entries().len(), before);
            prop_assert_eq!(pager.page(), 2);
        }
    }
}
