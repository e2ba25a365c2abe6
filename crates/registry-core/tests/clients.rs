//! Client profiles: `data/clients.json` as it is, the reader's diagnostics on broken profiles,
//! and verdicts over the agents, views, quarantine list and probe the site bundles
//! (`public/`).

use std::collections::BTreeSet;
use std::sync::LazyLock;

use proptest::prelude::*;
use registry_core::clients::{
    Basis, ClientFact, ClientProfile, Fact, Outcome, Place, ProfilesError, RegistryView,
    parse_profiles, verdict,
};
use registry_core::edition::Day;
use registry_core::{
    Arch, AuthMethod, Entry, Facts, Listings, Method, Os, Platform, ProtocolMatrix, Registry,
    parse_matrix, parse_quarantine, parse_view,
};
use serde_json::{Value, json};

const CLIENTS: &str = include_str!("../../../data/clients.json");

/// `data/clients.json`, which loads without a diagnostic.
static PROFILES: LazyLock<Vec<ClientProfile>> = LazyLock::new(|| {
    let profiles = parse_profiles(CLIENTS).expect("data/clients.json reads");
    assert_eq!(
        profiles.diagnostics,
        Vec::new(),
        "{:#?}",
        profiles.diagnostics
    );
    profiles.clients
});

fn profiles() -> &'static [ClientProfile] {
    &PROFILES
}

fn client(id: &str) -> ClientProfile {
    profiles()
        .iter()
        .find(|c| c.id == id)
        .cloned()
        .unwrap_or_else(|| panic!("no profile `{id}`"))
}

#[test]
fn every_profile_of_the_data_loads() {
    let clients = profiles();
    assert_eq!(clients.len(), 114);
    let ids: BTreeSet<&str> = clients.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids.len(), clients.len(), "ids are unique");
    let known: Vec<(&str, usize)> = clients
        .iter()
        .filter(|c| c.known_facts() > 0)
        .map(|c| (c.id.as_str(), c.known_facts()))
        .collect();
    assert_eq!(
        known,
        [
            ("zed", 6),
            ("jetbrains", 3),
            ("jetbrains-air", 1),
            ("avante-nvim", 6),
            ("codecompanion-nvim", 5),
            ("agent-shell", 5),
            ("deepchat", 2),
        ]
    );
    for client in clients {
        assert!(
            client.listed_at.source.starts_with("https://"),
            "{}",
            client.id
        );
        if let Some(methods) = client.auth_methods.known() {
            assert!(
                methods
                    .iter()
                    .all(|m| matches!(m, AuthMethod::Agent | AuthMethod::Terminal)),
                "{}",
                client.id
            );
        }
    }
}

#[test]
fn profiles_read_as_typed_values() {
    let zed = client("zed");
    assert_eq!(zed.registry.known(), Some(&RegistryView::Acp));
    assert_eq!(
        zed.distributions.known(),
        Some(&vec![Method::Binary, Method::Npx])
    );
    assert_eq!(
        zed.auth_methods.known(),
        Some(&vec![AuthMethod::Agent, AuthMethod::Terminal])
    );
    assert_eq!(
        zed.platforms.known(),
        Some(&vec![Os::Darwin, Os::Linux, Os::Windows])
    );
    assert_eq!(zed.snippet, Some(registry_core::Client::Zed));
    assert_eq!(zed.listed_at.checked, Day::parse("2026-12-07").unwrap());
    let jetbrains = client("jetbrains");
    assert!(matches!(jetbrains.platforms, Fact::Unknown { .. }));
    assert_eq!(client("anycode").snippet, None);
}

/// A valid profile, as the file writes one.
fn good() -> Value {
    let known = |value: Value| json!({"value": value, "source": "https://example.com/docs", "checked": "2026-12-07"});
    json!({
        "id": "my-editor", "name": "My Editor", "homepage": "https://example.com", "docs": null,
        "snippet": "none",
        "listedAt": {"source": "https://example.com/clients", "checked": "2026-12-07"},
        "registry": known(json!("acp")),
        "addByHand": known(json!(true)),
        "distributions": known(json!(["binary", "npx"])),
        "authMethods": known(json!(["agent"])),
        "protocolVersions": known(json!([1])),
        "platforms": {"unknown": "not documented"},
        "limits": [{"text": "A limit.", "source": "https://example.com/issue", "checked": "2026-12-07"}]
    })
}

fn file(clients: Vec<Value>) -> String {
    json!({"clientsFormat": 1, "clients": clients}).to_string()
}

/// Each broken profile: (what is changed, the field named, words of the message). The broken
/// profile is the second of three; the other two still load.
#[test]
fn a_bad_profile_is_named_and_the_others_load() {
    type Change = fn(&mut Value);
    let table: [(Change, &str, &str); 20] = [
        (|p| p["colour"] = json!("red"), "colour", "unknown key"),
        (
            |p| p["registry"]["note"] = json!("x"),
            "registry.note",
            "unknown key",
        ),
        (
            |p| p["listedAt"]["by"] = json!("me"),
            "listedAt.by",
            "unknown key",
        ),
        (
            |p| p["limits"][0]["seen"] = json!(1),
            "limits[0].seen",
            "unknown key",
        ),
        (
            |p| drop(p["registry"].as_object_mut().unwrap().remove("source")),
            "registry.source",
            "missing",
        ),
        (
            |p| drop(p["addByHand"].as_object_mut().unwrap().remove("checked")),
            "addByHand.checked",
            "missing",
        ),
        (
            |p| p["distributions"]["checked"] = json!("2026-13-01"),
            "distributions.checked",
            "not a day",
        ),
        (
            |p| p["limits"][0]["checked"] = json!("7 Dec 2026"),
            "limits[0].checked",
            "not a day",
        ),
        (
            |p| p["listedAt"]["checked"] = json!("2026-12-07T10:00:00Z"),
            "listedAt.checked",
            "not a day",
        ),
        (
            |p| p["registry"]["value"] = json!("vscode"),
            "registry.value",
            "not a registry view",
        ),
        (
            |p| p["authMethods"]["value"] = json!(["agent", "env_var"]),
            "authMethods.value[1]",
            "removed from ACP on 2026-07-27",
        ),
        (
            |p| p["distributions"]["value"] = json!(["docker"]),
            "distributions.value[0]",
            "not a distribution",
        ),
        (
            |p| p["snippet"] = json!("vim"),
            "snippet",
            "not a snippet format",
        ),
        (
            |p| p["platforms"] = json!({"value": ["darwin"], "source": "https://example.com", "checked": "2026-12-07"}),
            "platforms.value[0]",
            "write macos",
        ),
        (
            |p| p["protocolVersions"]["value"] = json!(["1"]),
            "protocolVersions.value[0]",
            "not a protocol version",
        ),
        (
            |p| p["registry"]["source"] = json!("http://example.com/docs"),
            "registry.source",
            "not an https address",
        ),
        (
            |p| p["limits"][0]["source"] = json!("javascript:alert(1)"),
            "limits[0].source",
            "not an https address",
        ),
        (|p| p["id"] = json!("My Editor"), "id", "not an id"),
        (|p| p["id"] = json!(7), "id", "not a text"),
        (
            |p| p["platforms"] = json!({"unknown": "x", "value": ["linux"]}),
            "platforms",
            "both `value` and `unknown`",
        ),
    ];
    for (change, field, words) in table {
        let mut bad = good();
        bad["id"] = json!("bad-one");
        change(&mut bad);
        let mut last = good();
        last["id"] = json!("last-one");
        let profiles = parse_profiles(&file(vec![good(), bad.clone(), last])).expect("reads");
        let ids: Vec<&str> = profiles.clients.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["my-editor", "last-one"], "{bad}");
        let [diagnostic] = profiles.diagnostics.as_slice() else {
            panic!("one diagnostic for {bad}: {:#?}", profiles.diagnostics);
        };
        let id = bad["id"].as_str().map(str::to_owned);
        assert_eq!(diagnostic.place, Place::Client { index: 1, id }, "{bad}");
        assert_eq!(diagnostic.field, field, "{bad}");
        assert!(diagnostic.message.contains(words), "{diagnostic}");
    }
}

#[test]
fn a_repeated_id_keeps_the_first() {
    let mut second = good();
    second["name"] = json!("Another");
    let profiles = parse_profiles(&file(vec![good(), second])).expect("reads");
    assert_eq!(profiles.clients.len(), 1);
    assert_eq!(profiles.clients[0].name, "My Editor");
    assert_eq!(
        profiles
            .diagnostics
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [
            "clients[1] (my-editor): `id`: `my-editor` is the id of an earlier profile; ids are \
          unique: merge the two, or give this one its own id"
        ]
    );
}

#[test]
fn every_problem_of_a_profile_is_named() {
    let mut bad = good();
    bad["registry"]["checked"] = json!("yesterday");
    bad["platforms"] = json!({"value": ["linux"], "checked": "2026-12-07"});
    bad["extra"] = json!(1);
    let profiles = parse_profiles(&file(vec![bad])).expect("reads");
    let fields: Vec<&str> = profiles
        .diagnostics
        .iter()
        .map(|d| d.field.as_str())
        .collect();
    assert_eq!(fields, ["extra", "registry.checked", "platforms.source"]);
    assert!(profiles.clients.is_empty());
}

#[test]
fn a_profile_that_is_not_an_object_is_named() {
    let profiles = parse_profiles(&file(vec![json!("zed"), good()])).expect("reads");
    assert_eq!(profiles.clients.len(), 1);
    assert_eq!(
        profiles.diagnostics[0].to_string(),
        "clients[0]: `(profile)`: is a string, not an object"
    );
}

#[test]
fn an_unknown_top_level_key_is_named_and_the_profiles_load() {
    let text = json!({"clientsFormat": 1, "clients": [good()], "generated": "today"}).to_string();
    let profiles = parse_profiles(&text).expect("reads");
    assert_eq!(profiles.clients.len(), 1);
    assert_eq!(profiles.diagnostics.len(), 1);
    assert_eq!(profiles.diagnostics[0].place, Place::File);
    assert_eq!(profiles.diagnostics[0].field, "generated");
}

#[test]
fn an_unreadable_file_is_an_error_that_says_why() {
    let table: [(&str, ProfilesError); 6] = [
        ("[]", ProfilesError::NotAnObject { found: "an array" }),
        (
            r#"{"clients": []}"#,
            ProfilesError::Format {
                found: "missing".to_owned(),
            },
        ),
        (
            r#"{"clientsFormat": 2, "clients": []}"#,
            ProfilesError::Format {
                found: "2".to_owned(),
            },
        ),
        (
            r#"{"clientsFormat": "1", "clients": []}"#,
            ProfilesError::Format {
                found: "\"1\"".to_owned(),
            },
        ),
        (
            r#"{"clientsFormat": 1}"#,
            ProfilesError::NoClients { found: "missing" },
        ),
        (
            r#"{"clientsFormat": 1, "clients": {}}"#,
            ProfilesError::NoClients { found: "an object" },
        ),
    ];
    for (text, expected) in table {
        assert_eq!(parse_profiles(text), Err(expected), "{text}");
    }
    let message = parse_profiles("{\n  \"clientsFormat\": 1,\n  \"clients\": [,]\n}")
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with("the client profiles are not valid JSON: ")
            && message.contains("at line 3, column"),
        "{message}"
    );
    assert_eq!(
        ProfilesError::Format {
            found: "2".to_owned()
        }
        .to_string(),
        "the client profiles' `clientsFormat` is 2; this reader knows format 1 only: write \
         \"clientsFormat\": 1 for a file of this shape"
    );
}

/// The registry, views, quarantine list and probe the site bundles.
struct Bundled {
    registry: Registry,
    listings: Listings,
    matrix: ProtocolMatrix,
}

static BUNDLED: LazyLock<Bundled> = LazyLock::new(|| {
    let registry = registry_core::load(include_str!("../../../public/registry.json"))
        .expect("the bundled registry")
        .registry;
    let view = |text: &str| parse_view(text).expect("a view").0;
    let listings = Listings {
        jetbrains: Some(view(include_str!(
            "../../../public/registry-for-jetbrains.json"
        ))),
        jetbrains_preview: Some(view(include_str!(
            "../../../public/registry-for-jetbrains-preview.json"
        ))),
        quarantine: Some(
            parse_quarantine(include_str!("../../../public/quarantine.json"))
                .expect("the quarantine list")
                .0,
        ),
    };
    let matrix = parse_matrix(include_str!("../../../public/protocol-matrix.json"))
        .expect("the probe")
        .0;
    Bundled {
        registry,
        listings,
        matrix,
    }
});

fn bundled() -> &'static Bundled {
    &BUNDLED
}

impl Bundled {
    fn agent(&self, id: &str) -> &Entry {
        self.registry
            .entries
            .iter()
            .find(|e| e.id == id)
            .unwrap_or_else(|| panic!("no agent `{id}` in the bundled registry"))
    }
}

fn platform(key: &str) -> Platform {
    Platform::parse(key).expect("a platform key")
}

const W: Outcome = Outcome::Works;
const S: Outcome = Outcome::WorksWithStep;
const U: Outcome = Outcome::Unknown;
const N: Outcome = Outcome::DoesNotWork;

/// A verdict expected: agent, client, platform key, outcome, and each reason's outcome and
/// text.
type Case = (
    &'static str,
    &'static str,
    &'static str,
    Outcome,
    &'static [(Outcome, &'static str)],
);

/// Real agents of the bundled registry in real client profiles.
#[test]
fn verdicts_over_the_bundled_registry() {
    let bundled = bundled();
    let table: [Case; 7] = [
        // All known, all fine.
        (
            "gemini",
            "zed",
            "darwin-aarch64",
            W,
            &[
                (
                    W,
                    "The registry's daily checks have not set this agent aside.",
                ),
                (W, "Zed runs on macOS."),
                (
                    W,
                    "Zed lists this agent: it is in the ACP registry (registry.json), which Zed reads.",
                ),
                (W, "Zed installs it with npx itself."),
                (W, "It signs in through the agent, which Zed supports."),
                (W, "It speaks ACP version 1, which Zed speaks too."),
            ],
        ),
        // Left out of the JetBrains view: added by hand, with Node.js; JetBrains' platforms,
        // sign-in and protocol versions are not documented.
        (
            "github-copilot-cli",
            "jetbrains",
            "linux-x86_64",
            U,
            &[
                (
                    W,
                    "The registry's daily checks have not set this agent aside.",
                ),
                (
                    U,
                    "Whether JetBrains IDEs (AI Assistant) runs on Linux is not known.",
                ),
                (
                    S,
                    "JetBrains IDEs (AI Assistant) does not list this agent (the registry's \
                     JetBrains list (registry-for-jetbrains.json) leaves it out): add it by hand; \
                     paste its snippet from this agent's page into its settings.",
                ),
                (S, "Install Node.js first: it runs with npx."),
                (
                    U,
                    "Whether JetBrains IDEs (AI Assistant) supports its sign-in is not known.",
                ),
                (
                    U,
                    "Which ACP versions JetBrains IDEs (AI Assistant) speaks is not known.",
                ),
            ],
        ),
        // Binaries for macOS ARM64 only, on Windows.
        (
            "z4code",
            "zed",
            "windows-x86_64",
            N,
            &[
                (
                    W,
                    "The registry's daily checks have not set this agent aside.",
                ),
                (W, "Zed runs on Windows."),
                (
                    W,
                    "Zed lists this agent: it is in the ACP registry (registry.json), which Zed reads.",
                ),
                (N, "There is no build of this agent for Windows x86-64."),
                (
                    U,
                    "This agent was not probed, so how it signs in is not known.",
                ),
                (
                    U,
                    "This agent was not probed, so its ACP version is not known.",
                ),
            ],
        ),
        // Terminal sign-in only, in a client that only sends `authenticate`.
        (
            "claude-acp",
            "avante-nvim",
            "linux-x86_64",
            S,
            &[
                (
                    W,
                    "The registry's daily checks have not set this agent aside.",
                ),
                (W, "avante.nvim runs on Linux."),
                (
                    S,
                    "avante.nvim is configured by hand: paste its snippet from this agent's page into its settings.",
                ),
                (S, "Install Node.js first: it runs with npx."),
                (
                    S,
                    "Sign in from a terminal first: avante.nvim does not run terminal sign-in.",
                ),
                (W, "It speaks ACP version 1, which avante.nvim speaks too."),
            ],
        ),
        // Quarantined.
        (
            "vtcode",
            "zed",
            "linux-x86_64",
            N,
            &[
                (
                    N,
                    "The registry's daily checks have set this agent aside. There is no download \
                     of it for Windows, which the registry requires.",
                ),
                (W, "Zed runs on Linux."),
                (
                    W,
                    "Zed lists this agent: it is in the ACP registry (registry.json), which Zed reads.",
                ),
                (W, "Zed downloads its build for Linux x86-64 itself."),
                (
                    U,
                    "This agent was not probed, so how it signs in is not known.",
                ),
                (
                    U,
                    "This agent was not probed, so its ACP version is not known.",
                ),
            ],
        ),
        // Never probed.
        (
            "pi",
            "zed",
            "darwin-aarch64",
            U,
            &[
                (
                    W,
                    "The registry's daily checks have not set this agent aside.",
                ),
                (W, "Zed runs on macOS."),
                (
                    W,
                    "Zed lists this agent: it is in the ACP registry (registry.json), which Zed reads.",
                ),
                (W, "Zed installs it with npx itself."),
                (
                    U,
                    "This agent was not probed, so how it signs in is not known.",
                ),
                (
                    U,
                    "This agent was not probed, so its ACP version is not known.",
                ),
            ],
        ),
        // Only uvx, which Zed does not install from the registry (registry issue #147).
        (
            "gptme",
            "zed",
            "darwin-aarch64",
            U,
            &[
                (
                    W,
                    "The registry's daily checks have not set this agent aside.",
                ),
                (W, "Zed runs on macOS."),
                (
                    W,
                    "Zed lists this agent: it is in the ACP registry (registry.json), which Zed reads.",
                ),
                (
                    S,
                    "Zed installs only binary and npx agents from its registry, and this agent \
                     has only uvx for macOS ARM64: add it by hand; paste its snippet from this agent's page into \
                     its settings.",
                ),
                (S, "Install uv first: it runs with uvx."),
                (
                    U,
                    "This agent was not probed, so how it signs in is not known.",
                ),
                (
                    U,
                    "This agent was not probed, so its ACP version is not known.",
                ),
            ],
        ),
    ];
    for (agent, client_id, key, outcome, reasons) in table {
        let entry = bundled.agent(agent);
        let found = verdict(
            entry,
            &client(client_id),
            platform(key),
            &bundled.listings,
            &bundled.matrix.facts(agent),
        );
        let got: Vec<(Outcome, &str)> = found
            .reasons
            .iter()
            .map(|r| (r.outcome, r.text.as_str()))
            .collect();
        assert_eq!(got, reasons, "{agent} × {client_id} on {key}");
        assert_eq!(found.outcome, outcome, "{agent} × {client_id} on {key}");
    }
}

#[test]
fn a_failed_probe_is_unknown_with_its_day() {
    let bundled = bundled();
    let found = verdict(
        bundled.agent("cortex-code"),
        &client("zed"),
        platform("darwin-aarch64"),
        &bundled.listings,
        &bundled.matrix.facts("cortex-code"),
    );
    let probe: Vec<(&str, &Basis)> = found
        .reasons
        .iter()
        .filter(|r| matches!(r.basis, Basis::Probe { .. }))
        .map(|r| (r.text.as_str(), &r.basis))
        .collect();
    let day = Basis::Probe {
        day: Day::parse("2026-08-20"),
    };
    assert_eq!(
        probe,
        [
            (
                "The probe failed on 2026-08-20, so how it signs in is not known.",
                &day
            ),
            (
                "The probe failed on 2026-08-20, so its ACP version is not known.",
                &day
            ),
        ]
    );
}

#[test]
fn reasons_name_their_basis() {
    let bundled = bundled();
    let zed = client("zed");
    let found = verdict(
        bundled.agent("claude-acp"),
        &zed,
        platform("windows-aarch64"),
        &bundled.listings,
        &bundled.matrix.facts("claude-acp"),
    );
    let bases: Vec<&Basis> = found.reasons.iter().map(|r| &r.basis).collect();
    let cited = |fact: ClientFact, value: Option<registry_core::clients::Citation>| Basis::Client {
        fact,
        citation: value,
    };
    assert_eq!(
        bases,
        [
            &Basis::Quarantine,
            &cited(ClientFact::Platforms, zed.platforms.citation()),
            &Basis::View(RegistryView::Acp),
            &cited(ClientFact::Distributions, zed.distributions.citation()),
            &cited(ClientFact::AuthMethods, zed.auth_methods.citation()),
            &cited(
                ClientFact::ProtocolVersions,
                zed.protocol_versions.citation()
            ),
        ]
    );
    assert!(zed.auth_methods.citation().is_some_and(|c| {
        c.source
            .starts_with("https://github.com/zed-industries/zed/")
    }));
}

#[test]
fn lists_not_loaded_are_unknown() {
    let bundled = bundled();
    let found = verdict(
        bundled.agent("gemini"),
        &client("jetbrains"),
        platform("linux-x86_64"),
        &Listings::default(),
        &bundled.matrix.facts("gemini"),
    );
    let texts: Vec<&str> = found.reasons.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(
        texts[..3],
        [
            "The registry's quarantine list was not loaded, so whether its daily checks skip \
             this agent is not known.",
            "Whether JetBrains IDEs (AI Assistant) runs on Linux is not known.",
            "registry-for-jetbrains.json was not loaded, so whether JetBrains IDEs (AI \
             Assistant) lists this agent is not known.",
        ]
    );
    assert_eq!(found.outcome, U);
}

/// A fact, known with this value or not.
fn drawn<T>(known: bool, value: T) -> Fact<T> {
    if known {
        Fact::Known {
            value,
            source: "https://example.com".to_owned(),
            checked: Day::parse("2026-12-07").unwrap(),
        }
    } else {
        Fact::Unknown {
            why: "drawn".to_owned(),
        }
    }
}

/// A profile with each fact known or not, as drawn.
fn any_profile() -> impl Strategy<Value = ClientProfile> {
    (
        any::<[bool; 6]>(),
        proptest::sample::select(RegistryView::ALL.to_vec()),
        any::<bool>(),
        proptest::sample::subsequence(Method::ALL.to_vec(), 0..=3),
        proptest::sample::subsequence(vec![AuthMethod::Agent, AuthMethod::Terminal], 0..=2),
        proptest::sample::subsequence(vec![1u32, 2], 1..=2),
        proptest::sample::subsequence(Os::ALL.to_vec(), 1..=3),
    )
        .prop_map(
            move |(known, registry, by_hand, kinds, auth, versions, systems)| {
                let mut profile = client("zed");
                profile.snippet = None;
                profile.registry = drawn(known[0], registry);
                profile.add_by_hand = drawn(known[1], by_hand);
                profile.distributions = drawn(known[2], kinds);
                profile.auth_methods = drawn(known[3], auth);
                profile.protocol_versions = drawn(known[4], versions);
                profile.platforms = drawn(known[5], systems);
                profile
            },
        )
}

/// Probe facts: never probed, failed, or probed with some methods and a version.
fn any_facts() -> impl Strategy<Value = Facts> {
    prop_oneof![
        Just(Facts::NotProbed),
        Just(Facts::ProbeFailed {
            version: None,
            date: "2026-08-20".to_owned(),
            reason: "process_error".to_owned(),
        }),
        (
            proptest::sample::subsequence(
                vec![AuthMethod::Agent, AuthMethod::Terminal, AuthMethod::EnvVar],
                0..=3
            ),
            proptest::option::of(proptest::sample::select(vec!["1", "2", "v1"])),
        )
            .prop_map(|(auth, version)| Facts::Probed {
                version: None,
                date: "2026-08-20".to_owned(),
                auth,
                capabilities: Default::default(),
                protocol_version: version.map(str::to_owned),
            }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn never_works_on_an_unknown_and_is_the_worst_reason(
        profile in any_profile(),
        facts in any_facts(),
        agent in 0usize..129,
        key in proptest::sample::select(Platform::KEYS.to_vec()),
        lists in 0u8..8,
    ) {
        let bundled = bundled();
        let entry = &bundled.registry.entries[agent];
        let listings = Listings {
            jetbrains: bundled.listings.jetbrains.clone().filter(|_| lists & 1 != 0),
            jetbrains_preview: bundled.listings.jetbrains_preview.clone().filter(|_| lists & 2 != 0),
            quarantine: bundled.listings.quarantine.clone().filter(|_| lists & 4 != 0),
        };
        let platform = platform(key);
        let found = verdict(entry, &profile, platform, &listings, &facts);

        let worst = found.reasons.iter().map(|r| r.outcome).max();
        prop_assert_eq!(Some(found.outcome), worst);

        let registry = profile.registry.known().copied();
        let view_loaded = match registry {
            Some(RegistryView::JetBrains) => listings.jetbrains.is_some(),
            Some(RegistryView::JetBrainsPreview) => listings.jetbrains_preview.is_some(),
            _ => true,
        };
        let listed_in = |view: &Option<registry_core::ClientView>| {
            view.as_ref().is_some_and(|v| v.agents.contains_key(&entry.id))
        };
        let listed = match registry {
            Some(RegistryView::JetBrains) => listed_in(&listings.jetbrains),
            Some(RegistryView::JetBrainsPreview) => listed_in(&listings.jetbrains_preview),
            _ => true,
        };
        let installs_from_view = registry.is_some_and(|v| v != RegistryView::None) && listed;
        let probed_fully = matches!(
            &facts,
            Facts::Probed { auth, protocol_version: Some(v), .. }
                if v.parse::<u32>().is_ok()
                    && (auth.contains(&AuthMethod::Agent) || auth.contains(&AuthMethod::Terminal))
        );
        let unknown_needed = !profile.platforms.is_known()
            || registry.is_none()
            || !view_loaded
            || (!listed && !profile.add_by_hand.is_known())
            || (installs_from_view && !profile.distributions.is_known())
            || !profile.auth_methods.is_known()
            || !profile.protocol_versions.is_known()
            || !probed_fully
            || listings.quarantine.is_none();
        if unknown_needed {
            prop_assert_ne!(found.outcome, Outcome::Works, "{:#?}", found);
        }
    }
}

#[test]
fn outcomes_order_from_best_to_worst() {
    let mut all = [N, U, S, W];
    all.sort();
    assert_eq!(all, [W, S, U, N]);
    assert_eq!(
        all.map(Outcome::as_str),
        ["works", "works-with-step", "unknown", "does-not-work"]
    );
}

#[test]
fn architecture_is_part_of_a_binary_platform() {
    // kimi publishes windows-aarch64 but no darwin-x86_64 build: the architecture decides.
    let bundled = bundled();
    let zed = client("zed");
    let on = |os, arch| {
        verdict(
            bundled.agent("kimi"),
            &zed,
            Platform { os, arch },
            &bundled.listings,
            &bundled.matrix.facts("kimi"),
        )
        .reasons[3]
            .text
            .clone()
    };
    assert_eq!(
        on(Os::Darwin, Arch::X86_64),
        "There is no build of this agent for macOS x86-64."
    );
    assert_eq!(
        on(Os::Darwin, Arch::Aarch64),
        "Zed downloads its build for macOS ARM64 itself."
    );
}

/// The verdicts as a filter group of the catalogue (`?works=`): it keeps the entries with the
/// outcomes chosen, counts its outcomes under the other filters, and the other groups are
/// counted under it.
#[test]
fn verdicts_filter_and_count_the_catalogue_like_a_group() {
    use registry_core::facets::{Facet, FacetValue};
    use registry_core::{Catalog, CatalogQuery, Method};

    let bundled = bundled();
    let mut catalog = Catalog::new(bundled.registry.clone());
    catalog.set_sources(Some(bundled.matrix.clone()), bundled.listings.clone());
    let zed = client("zed");
    let linux = platform("linux-x86_64");
    let fits: Vec<Outcome> = (catalog.registry.entries.iter())
        .map(|entry| verdict(entry, &zed, linux, &catalog.listings, &catalog.facts(entry)).outcome)
        .collect();
    let all = CatalogQuery::from_query_string("client=zed");
    let unfiltered = catalog.view_fitted(&all, None, Some(&fits));
    let counts = unfiltered.works.expect("counts with verdicts");
    assert_eq!(counts.iter().sum::<usize>(), catalog.registry.entries.len());
    assert!(counts[0] > 0 && counts[2] > 0, "{counts:?}");
    // Without verdicts the group neither filters nor counts.
    let works = CatalogQuery::from_query_string("client=zed&works=works");
    let plain = catalog.view_dated(&works, None);
    assert_eq!(plain.results.len(), catalog.registry.entries.len());
    assert_eq!(plain.works, None);
    // With them it keeps exactly the agents that work, and counts every outcome as if ticked.
    let kept = catalog.view_fitted(&works, None, Some(&fits));
    let expected: Vec<usize> = (0..fits.len()).filter(|&i| fits[i] == W).collect();
    let mut results = kept.results.clone();
    results.sort_unstable();
    assert_eq!(results, expected);
    assert_eq!(kept.works, Some(counts));
    // Another group is counted under it: npx among the agents that work.
    let npx = (kept.counts.of(Facet::Method).iter())
        .find(|(value, _)| *value == FacetValue::Method(Method::Npx))
        .map_or(0, |(_, count)| *count);
    let by_hand = expected
        .iter()
        .filter(|&&i| catalog.registry.entries[i].distribution.npx.is_some())
        .count();
    assert_eq!(npx, by_hand);
    // And it is counted under the others: only npx agents.
    let npx_only = CatalogQuery::from_query_string("client=zed&dist=npx");
    let counted = catalog
        .view_fitted(&npx_only, None, Some(&fits))
        .works
        .unwrap();
    let npx_works = (0..fits.len())
        .filter(|&i| fits[i] == W && catalog.registry.entries[i].distribution.npx.is_some())
        .count();
    assert_eq!(counted[0], npx_works);
}
