//! The client pages a build writes over the bundled registry and its lists, and an agent page's
//! "In your editor": whole in the HTML, readable without scripts, every verdict the core's. (In
//! the wasm test build this file compiles to nothing.)
#![cfg(not(target_arch = "wasm32"))]

use std::fs;
use std::path::PathBuf;
use std::sync::LazyLock;

use acp_catalog::registry::{LoadedRegistry, registry_url};
use acp_catalog::render::{
    CLIENTS_JSON, Pages, SiteData, Template, Written, bundled_clients, write_site,
};
use registry_core::clients::{Outcome, Profiles, parse_profiles, verdict};
use registry_core::{Arch, Listings, Os, Platform, parse_matrix, parse_quarantine, parse_view};

const REGISTRY: &str = include_str!("../public/registry.json");
const MATRIX: &str = include_str!("../public/protocol-matrix.json");
const JETBRAINS: &str = include_str!("../public/registry-for-jetbrains.json");
const JETBRAINS_PREVIEW: &str = include_str!("../public/registry-for-jetbrains-preview.json");
const QUARANTINE: &str = include_str!("../public/quarantine.json");

/// The bundled registry with its probe and lists, as the default build loads it.
fn loaded() -> LoadedRegistry {
    let (matrix, _) = parse_matrix(MATRIX).unwrap();
    LoadedRegistry::from_text(registry_url(), REGISTRY)
        .unwrap()
        .with_matrix(matrix)
        .with_listings(Listings {
            jetbrains: Some(parse_view(JETBRAINS).unwrap().0),
            jetbrains_preview: Some(parse_view(JETBRAINS_PREVIEW).unwrap().0),
            quarantine: Some(parse_quarantine(QUARANTINE).unwrap().0),
        })
}

/// One build of the site with the profiles, shared by the tests.
static BUILT: LazyLock<(PathBuf, Written, LoadedRegistry, Profiles)> = LazyLock::new(|| {
    let loaded = loaded();
    let profiles = bundled_clients().expect("data/clients.json loads whole");
    let out = std::env::temp_dir().join(format!("acp-clients-{}", std::process::id()));
    let _ = fs::remove_dir_all(&out);
    fs::create_dir_all(&out).unwrap();
    let template = Template::parse("<html><head></head><body></body></html>").unwrap();
    let data = SiteData {
        changes: None,
        clients: Some(&profiles),
    };
    let written = write_site(&template, Some(&loaded), data, &out, Pages::All).unwrap();
    (out, written, loaded, profiles)
});

fn page(path: &str) -> String {
    fs::read_to_string(BUILT.0.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `text` with its tags removed and its spacing made single, as a person reads it.
fn words(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_profile_is_published_with_a_page_and_in_the_sitemap() {
    let (_, written, _, profiles) = &*BUILT;
    assert!(profiles.clients.len() >= 80, "{}", profiles.clients.len());
    assert_eq!(written.clients, profiles.clients.len());
    // The file published is the project's, read back the same by the reader the app uses.
    let published = parse_profiles(&page("clients.json")).unwrap();
    assert_eq!(&published, profiles);
    assert!(page("clients.json").len() < CLIENTS_JSON.len());
    let sitemap = page("sitemap.xml");
    assert!(sitemap.contains("/clients/</loc>"));
    for client in &profiles.clients {
        let html = page(&format!("clients/{}/index.html", client.id));
        assert!(html.contains("<h1"), "{}", client.id);
        assert!(words(&html).contains(&client.name), "{}", client.id);
        assert!(sitemap.contains(&format!("/clients/{}/</loc>", client.id)));
    }
}

#[test]
fn the_clients_page_lists_the_known_ones_with_their_facts_and_the_others_by_name() {
    let (_, _, _, profiles) = &*BUILT;
    let html = page("clients/index.html");
    let text = words(&html);
    assert!(html.contains("data-clients=\"page\""));
    for expected in [
        "ACP clients",
        "Clients with known facts",
        "Zed the ACP registry",
        "6 of 6",
        "Named in the protocol's client list, nothing known yet",
    ] {
        assert!(text.contains(expected), "/clients/ lacks {expected:?}");
    }
    for client in &profiles.clients {
        assert!(
            html.contains(&format!("href=\"/clients/{}/\"", client.id)),
            "/clients/ does not link {}",
            client.id
        );
    }
}

#[test]
fn a_clients_page_gives_each_fact_with_its_source_and_every_agents_verdict() {
    let (_, _, loaded, profiles) = &*BUILT;
    let zed = profiles.get("zed").unwrap();
    let html = page("clients/zed/index.html");
    let text = words(&html);
    // Each known fact's source is a link on the page, with its day.
    let cited = [
        zed.registry.citation(),
        zed.add_by_hand.citation(),
        zed.distributions.citation(),
        zed.auth_methods.citation(),
        zed.protocol_versions.citation(),
        zed.platforms.citation(),
    ];
    for citation in cited.into_iter().flatten() {
        let href = format!("href=\"{}\"", citation.source.replace('&', "&amp;"));
        assert!(html.contains(&href), "no link to {}", citation.source);
        assert!(text.contains(&format!("checked {}", citation.checked)));
    }
    // Every agent has a row, with the core's verdict on each of the three systems, in order.
    let platforms = [
        Platform {
            os: Os::Darwin,
            arch: Arch::Aarch64,
        },
        Platform {
            os: Os::Linux,
            arch: Arch::X86_64,
        },
        Platform {
            os: Os::Windows,
            arch: Arch::X86_64,
        },
    ];
    let catalog = &loaded.catalog;
    let agents: Vec<_> = (catalog.registry.entries.iter())
        .filter(|e| e.kind == registry_core::Kind::Agent)
        .collect();
    let mut outcomes_seen = std::collections::BTreeSet::new();
    for entry in &agents {
        let link = format!("href=\"/agents/{}/#in-your-editor\"", entry.id);
        let at = html
            .find(&link)
            .unwrap_or_else(|| panic!("no row for {}", entry.id));
        let row_end = at + html[at..].find("</tr>").unwrap();
        let row = words(&html[at..row_end]);
        let labels: Vec<&str> = platforms
            .iter()
            .map(|platform| {
                let outcome = verdict(
                    entry,
                    zed,
                    *platform,
                    &catalog.listings,
                    &catalog.facts(entry),
                )
                .outcome;
                outcomes_seen.insert(outcome);
                outcome.label()
            })
            .collect();
        let expected = labels.join(" ");
        assert!(
            row.contains(&expected),
            "{}: {row:?} lacks {expected:?}",
            entry.id
        );
    }
    // The bundled data gives more than one outcome: the table is not one word repeated.
    assert!(outcomes_seen.len() >= 2, "{outcomes_seen:?}");
}

#[test]
fn a_client_with_nothing_known_says_so_instead_of_a_table_of_unknowns() {
    let (_, _, _, profiles) = &*BUILT;
    let unknown = (profiles.clients.iter())
        .find(|c| c.known_facts() == 0)
        .expect("a client with nothing known yet");
    let text = words(&page(&format!("clients/{}/index.html", unknown.id)));
    assert!(text.contains("Nothing is known here yet"), "{text}");
    assert!(text.contains("Not known:"));
    assert!(!text.contains("What stands in the way"));
}

#[test]
fn an_agent_page_gives_its_verdict_in_each_known_client_with_reasons() {
    let (_, _, loaded, profiles) = &*BUILT;
    let html = page("agents/gemini/index.html");
    assert!(html.contains("id=\"in-your-editor\""));
    assert!(html.contains("data-clients=\"agent\""));
    let at = html.find("id=\"in-your-editor\"").unwrap();
    let section = &html[at..at + html[at..].find("</section>").unwrap()];
    let text = words(section);
    // The page is built for Linux on x86-64, said to be assumed.
    assert!(text.contains("Linux · x86-64 (assumed)"), "{text}");
    let entry = loaded
        .catalog
        .registry
        .find(registry_core::Kind::Agent, "gemini")
        .unwrap();
    let linux = Platform {
        os: Os::Linux,
        arch: Arch::X86_64,
    };
    let known: Vec<_> = (profiles.clients.iter())
        .filter(|c| c.known_facts() > 0)
        .collect();
    assert!(known.len() >= 5);
    for client in known {
        let verdict = verdict(
            entry,
            client,
            linux,
            &loaded.catalog.listings,
            &loaded.catalog.facts(entry),
        );
        let row = format!("{} {}", client.name, verdict.outcome.label());
        assert!(text.contains(&row), "no {row:?} in {text}");
        for reason in verdict
            .reasons
            .iter()
            .filter(|r| r.outcome != Outcome::Works)
        {
            assert!(
                text.contains(&reason.text),
                "{}: no {:?}",
                client.id,
                reason.text
            );
        }
    }
    let others = profiles.clients.len()
        - profiles
            .clients
            .iter()
            .filter(|c| c.known_facts() > 0)
            .count();
    assert!(text.contains(&format!("{others} other clients are named")));
}
