//! What the build publishes beside the pages: badges and their snippets, JSON-LD, the sitemap
//! and `robots.txt`, for real entries and for a hostile one whose every field tries to break out.

mod common;

use std::collections::BTreeSet;

use common::{agent, real_registry};
use registry_core::badge::{LABEL_COLOR, MESSAGE_COLOR, badge_message};
use registry_core::jsonld::software_application;
use registry_core::{
    Distribution, Entry, PackageTarget, SiteAddress, badge_snippets, badge_svg, robots_txt,
    sitemap_xml,
};
use serde_json::{Value, json};

const HOSTILE: &str = "</script><!--\"'&<b onload=alert(1)>]]>";

fn hostile() -> Entry {
    Entry {
        version: "1.0\"><script>&'".to_owned(),
        description: format!("desc {HOSTILE} \u{2028}"),
        repository: Some("https://example.org/r?a=1&b=2".to_owned()),
        website: Some("javascript:alert(1)".to_owned()),
        license: Some(HOSTILE.to_owned()),
        distribution: Distribution {
            npx: Some(PackageTarget {
                package: "x@1.0".to_owned(),
                args: Vec::new(),
                env: Default::default(),
            }),
            ..Distribution::default()
        },
        ..agent("evil", &format!("Evil]({HOSTILE})[x\n\n# heading"))
    }
}

fn address() -> SiteAddress {
    SiteAddress::new("https://agentclientprotocol.com", "/acp/registry/")
}

/// Every element, as `name attr=value …`, in document order.
fn elements(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    doc.descendants()
        .filter(|n| n.is_element())
        .map(|n| {
            let mut line = n.tag_name().name().to_owned();
            for a in n.attributes() {
                line.push_str(&format!(" {}={}", a.name(), a.value()));
            }
            line
        })
        .collect()
}

#[test]
fn a_hostile_badge_parses_back_to_its_own_elements_and_exact_text() {
    let entry = hostile();
    let svg = badge_svg(&entry.version);
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let allowed_elements: BTreeSet<&str> = [
        "svg",
        "title",
        "linearGradient",
        "stop",
        "clipPath",
        "rect",
        "g",
        "text",
    ]
    .into();
    let allowed_attributes: BTreeSet<&str> = [
        "width",
        "height",
        "role",
        "aria-label",
        "id",
        "x2",
        "y2",
        "offset",
        "stop-color",
        "stop-opacity",
        "rx",
        "fill",
        "clip-path",
        "x",
        "text-anchor",
        "font-family",
        "text-rendering",
        "font-size",
        "aria-hidden",
        "y",
        "fill-opacity",
        "transform",
        "textLength",
    ]
    .into();
    for node in doc.descendants().filter(|n| n.is_element()) {
        assert!(
            allowed_elements.contains(node.tag_name().name()),
            "{}",
            node.tag_name().name()
        );
        assert_eq!(
            node.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        for attribute in node.attributes() {
            assert!(
                allowed_attributes.contains(attribute.name()),
                "{}",
                attribute.name()
            );
            if attribute.value().contains("url(") {
                assert!(
                    ["url(#r)", "url(#s)"].contains(&attribute.value()),
                    "{}",
                    attribute.value()
                );
            }
        }
    }
    let message = "v1.0\"><script>&'";
    assert_eq!(badge_message(&entry.version), message);
    let title = format!("ACP Registry: {message}");
    let root = doc.root_element();
    assert_eq!(root.attribute("aria-label"), Some(title.as_str()));
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("title") || n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or(""))
        .collect();
    assert_eq!(
        texts,
        [
            title.as_str(),
            "ACP Registry",
            "ACP Registry",
            message,
            message
        ]
    );
    assert!(!svg.to_ascii_lowercase().contains("<script"));
}

#[test]
fn a_badge_is_laid_out_like_shields_io() {
    assert_eq!(
        elements(&badge_svg("1.2.3")),
        [
            "svg width=126 height=20 role=img aria-label=ACP Registry: v1.2.3",
            "title",
            "linearGradient id=s x2=0 y2=100%",
            "stop offset=0 stop-color=#bbb stop-opacity=.1",
            "stop offset=1 stop-opacity=.1",
            "clipPath id=r",
            "rect width=126 height=20 rx=3 fill=#fff",
            "g clip-path=url(#r)",
            "rect width=81 height=20 fill=#555",
            "rect x=81 width=45 height=20 fill=#4f46e5",
            "rect width=126 height=20 fill=url(#s)",
            "g fill=#fff text-anchor=middle font-family=Verdana,Geneva,DejaVu Sans,sans-serif \
             text-rendering=geometricPrecision font-size=110",
            "text aria-hidden=true x=415 y=150 fill=#010101 fill-opacity=.3 transform=scale(.1) textLength=710",
            "text x=415 y=140 transform=scale(.1) fill=#fff textLength=710",
            "text aria-hidden=true x=1025 y=150 fill=#010101 fill-opacity=.3 transform=scale(.1) textLength=350",
            "text x=1025 y=140 transform=scale(.1) fill=#fff textLength=350",
        ]
    );
}

/// WCAG contrast ratio of two `#rgb`/`#rrggbb` colours.
fn contrast(a: &str, b: &str) -> f64 {
    let luminance = |hex: &str| {
        let hex = hex.trim_start_matches('#');
        let hex: String = if hex.len() == 3 {
            hex.chars().flat_map(|c| [c, c]).collect()
        } else {
            hex.to_owned()
        };
        let channel = |i: usize| {
            let c = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).expect("hex")) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
    };
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn badge_text_is_legible_on_both_halves() {
    for background in [LABEL_COLOR, MESSAGE_COLOR] {
        let ratio = contrast("#fff", background);
        assert!(ratio >= 4.5, "white on {background}: {ratio:.2}");
    }
}

#[test]
fn snippets_link_the_badge_to_the_canonical_page_in_three_syntaxes() {
    let registry = real_registry();
    let gemini = registry
        .entries
        .iter()
        .find(|e| e.id == "gemini")
        .expect("gemini");
    let snippets = badge_snippets(gemini, &address());
    let page = "https://agentclientprotocol.com/acp/registry/agents/gemini/";
    let badge = "https://agentclientprotocol.com/acp/registry/badge/gemini.svg";
    assert_eq!(
        snippets.markdown,
        format!("[![Gemini CLI on the ACP Registry]({badge})]({page})")
    );
    assert_eq!(
        snippets.html,
        format!(
            "<a href=\"{page}\"><img src=\"{badge}\" alt=\"Gemini CLI on the ACP Registry\" /></a>"
        )
    );
    assert_eq!(
        snippets.rst,
        format!(".. image:: {badge}\n   :target: {page}\n   :alt: Gemini CLI on the ACP Registry")
    );
}

#[test]
fn hostile_text_stays_text_in_every_snippet() {
    let snippets = badge_snippets(&hostile(), &address());
    let name = "Evil](</script><!--\"'&<b onload=alert(1)>]]>)[x # heading";
    // Markdown: every ASCII punctuation escaped, so the alternative text is one run of text.
    let escaped: String = name
        .chars()
        .flat_map(|c| {
            if c.is_ascii_punctuation() {
                vec!['\\', c]
            } else {
                vec![c]
            }
        })
        .collect();
    assert_eq!(
        snippets.markdown,
        format!(
            "[![{escaped} on the ACP Registry](https://agentclientprotocol.com/acp/registry/badge/evil.svg)]\
             (https://agentclientprotocol.com/acp/registry/agents/evil/)"
        )
    );
    // HTML: one element each, the alternative text read back exactly.
    let html = roxmltree::Document::parse(&snippets.html).expect("well-formed");
    assert_eq!(
        elements(&snippets.html),
        [
            "a href=https://agentclientprotocol.com/acp/registry/agents/evil/".to_owned(),
            format!(
                "img src=https://agentclientprotocol.com/acp/registry/badge/evil.svg alt={name} on the ACP Registry"
            ),
        ]
    );
    assert_eq!(html.descendants().filter(|n| n.is_text()).count(), 0);
    // reStructuredText: three lines, the options never broken by a newline.
    let lines: Vec<&str> = snippets.rst.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2], format!("   :alt: {name} on the ACP Registry"));
}

#[test]
fn json_ld_of_a_hostile_entry_reads_back_exactly() {
    let entry = hostile();
    let text = software_application(
        &entry,
        "https://acp.dev/agents/evil/",
        Some("https://acp.dev/og/evil.png"),
    );
    let lower = text.to_ascii_lowercase();
    for forbidden in ["</script", "<!--", "<", ">", "&", "\u{2028}"] {
        assert!(!lower.contains(forbidden), "{forbidden:?} in {text}");
    }
    let value: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(
        value,
        json!({
            "@context": "https://schema.org",
            "@type": ["SoftwareApplication", "SoftwareSourceCode"],
            "name": entry.name,
            "softwareVersion": entry.version,
            "description": entry.description,
            "url": "https://acp.dev/agents/evil/",
            "applicationCategory": "DeveloperApplication",
            "operatingSystem": ["macOS", "Linux", "Windows"],
            "license": HOSTILE,
            "codeRepository": "https://example.org/r?a=1&b=2",
            "image": "https://acp.dev/og/evil.png",
        })
    );
}

#[test]
fn json_ld_follows_the_distribution_and_the_licence_link() {
    let registry = real_registry();
    let mut by_systems = std::collections::BTreeMap::<String, usize>::new();
    for entry in &registry.entries {
        let value: Value =
            serde_json::from_str(&software_application(entry, "https://acp.dev/x/", None))
                .expect("JSON");
        assert_eq!(value["name"], entry.name.as_str());
        assert_eq!(value["applicationCategory"], "DeveloperApplication");
        let systems = value
            .get("operatingSystem")
            .map_or("-".to_owned(), ToString::to_string);
        *by_systems.entry(systems).or_default() += 1;
        if let Some(url) = entry
            .license_url
            .as_deref()
            .filter(|u| u.starts_with("https://"))
        {
            assert_eq!(value["license"], url, "{}", entry.id);
        }
    }
    // Every real entry runs somewhere; most everywhere (npx, uvx, or binaries for all three).
    assert!(!by_systems.contains_key("-"), "{by_systems:?}");
    assert_eq!(by_systems.values().sum::<usize>(), registry.entries.len());
    let plain = agent("plain", "Plain");
    let value: Value =
        serde_json::from_str(&software_application(&plain, "u", None)).expect("JSON");
    assert_eq!(
        value,
        json!({"@context": "https://schema.org", "@type": "SoftwareApplication", "name": "Plain",
               "softwareVersion": "1.0.0", "url": "u", "applicationCategory": "DeveloperApplication"})
    );
}

#[test]
fn sitemap_lists_canonical_urls_once_escaped() {
    let xml = sitemap_xml(
        &address(),
        ["", "agents/gemini/", "/agents/gemini/", "agents/a&b'c/"],
    );
    assert_eq!(
        xml,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n  \
         <url><loc>https://agentclientprotocol.com/acp/registry/</loc></url>\n  \
         <url><loc>https://agentclientprotocol.com/acp/registry/agents/gemini/</loc></url>\n  \
         <url><loc>https://agentclientprotocol.com/acp/registry/agents/a%26b%27c/</loc></url>\n\
         </urlset>\n"
    );
    let doc = roxmltree::Document::parse(&xml).expect("well-formed");
    assert_eq!(
        doc.descendants().filter(|n| n.has_tag_name("loc")).count(),
        3
    );
    // Every real agent page, as the build pre-renders them.
    let registry = real_registry();
    let paths: Vec<String> = registry
        .entries
        .iter()
        .map(registry_core::page_path)
        .collect();
    let xml = sitemap_xml(
        &SiteAddress::new("https://acp.dev", "/"),
        std::iter::once("").chain(paths.iter().map(String::as_str)),
    );
    let doc = roxmltree::Document::parse(&xml).expect("well-formed");
    let locs: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("loc"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(locs.len(), 131);
    assert_eq!(
        locs[1],
        format!("https://acp.dev/agents/{}/", registry.entries[0].id)
    );
}

#[test]
fn robots_points_at_the_sitemap() {
    for (public_url, sitemap) in [
        ("/", "https://agentclientprotocol.com/sitemap.xml"),
        (
            "/acp/registry/",
            "https://agentclientprotocol.com/acp/registry/sitemap.xml",
        ),
    ] {
        assert_eq!(
            robots_txt(&SiteAddress::new(
                "https://agentclientprotocol.com",
                public_url
            )),
            format!("User-agent: *\nAllow: /\n\nSitemap: {sitemap}\n")
        );
    }
}
