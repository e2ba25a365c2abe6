//! Pages rendered to HTML natively, as `cargo xtask dist` writes them: what they say, and that
//! registry text never becomes markup. (In the wasm test build this file compiles to nothing.)
#![cfg(not(target_arch = "wasm32"))]

use std::fs;

use acp_catalog::registry::{LoadedRegistry, registry_url};
use acp_catalog::render::{
    Pages, SiteData, Template, TemplateError, render_page, without_hydration_markers, write_site,
};
use registry_core::id::is_file_name;
use registry_core::{CatalogQuery, Facet};

const REGISTRY: &str = include_str!("../public/registry.json");
const MATRIX: &str = include_str!("../public/protocol-matrix.json");

fn bundled() -> LoadedRegistry {
    let loaded = LoadedRegistry::from_text(registry_url(), REGISTRY).unwrap();
    let (matrix, _) = registry_core::protocol::parse_matrix(MATRIX).unwrap();
    loaded.with_matrix(matrix)
}

/// Text as Leptos writes it into HTML.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[test]
fn the_catalogue_renders_its_first_page_with_counts() {
    let loaded = bundled();
    let page = render_page("/", Some(&loaded));
    let view = loaded.catalog.view(&CatalogQuery::default());
    let total = loaded.catalog.registry.entries.len();
    for expected in [
        "<h1 class=\"text-3xl font-bold tracking-tight sm:text-4xl\">Find an ACP agent",
        "Search agents",
        &format!(">{total} agents"),
        ">Distribution",
        ">Operating system",
        ">Authentication (probed)",
    ] {
        assert!(page.body.contains(expected), "{expected} missing");
    }
    // The distribution facet's counts are the core's.
    let npx = view
        .counts
        .of(Facet::Method)
        .iter()
        .find(|(m, _)| m.as_str() == "npx")
        .unwrap()
        .1;
    assert!(page.body.contains(&format!("npx (Node.js)</span><span class=\"tabular-nums text-slate-500 dark:text-slate-400\">{npx}")), "npx count {npx}");
    // The first page of cards, in the default order, each a link to its page (the early
    // search's copies of every card follow, in a template).
    let (shown, early) = page
        .body
        .split_once("<template id=\"acp-early\">")
        .expect("the catalogue carries its early search");
    let links: Vec<&str> = shown
        .match_indices("<a href=\"/agents/")
        .map(|(at, _)| {
            let rest = &shown[at + "<a href=\"/agents/".len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert_eq!(early.matches("<a href=\"/agents/").count(), total);
    let expected: Vec<&str> = view
        .results
        .iter()
        .take(48)
        .map(|&i| loaded.catalog.registry.entries[i].id.as_str())
        .collect();
    assert_eq!(links, expected);
    assert!(page.head.contains("<title>ACP Agent Registry</title>"));
    assert!(
        page.head
            .contains("<link href=\"https://agentclientprotocol.com/\" rel=\"canonical\">")
    );
    assert_eq!(page.head.matches("<meta name=\"description\"").count(), 1);
}

#[test]
fn an_agent_page_has_its_facts_run_command_and_snippets() {
    let loaded = bundled();
    let gemini = loaded
        .catalog
        .registry
        .entries
        .iter()
        .find(|e| e.id == "gemini")
        .unwrap();
    let npx = gemini.distribution.npx.as_ref().unwrap();
    let page = render_page("/agents/gemini/", Some(&loaded));
    let command = format!("npx -y {} {}", npx.package, npx.args.join(" "));
    for expected in [
        "<h1 class=\"text-3xl font-bold tracking-tight\">Gemini CLI".to_owned(),
        escaped(&gemini.description),
        escaped(&command),
        ">Run it".to_owned(),
        ">Add it to your editor".to_owned(),
        "agent_servers".to_owned(),
        ">Protocol support".to_owned(),
        format!(
            "href=\"{}\" rel=\"noopener noreferrer\"",
            gemini.repository.as_deref().unwrap()
        ),
    ] {
        assert!(page.body.contains(&expected), "{expected} missing");
    }
    assert!(
        page.head
            .contains("<title>Gemini CLI · ACP Agent Registry</title>")
    );
    assert!(page.head.contains(
        "<link href=\"https://agentclientprotocol.com/agents/gemini/\" rel=\"canonical\">"
    ));
    assert!(
        page.head
            .contains("<meta property=\"og:title\" content=\"Gemini CLI\">")
    );
    assert!(
        page.head.contains(&format!(
            "<meta name=\"description\" content=\"{}\">",
            escaped(&gemini.description)
        )),
        "{}",
        page.head
    );
}

#[test]
fn other_addresses_render_the_not_found_page_and_without_a_registry_the_shell() {
    let loaded = bundled();
    let missing = render_page("/404.html", Some(&loaded));
    assert!(missing.body.contains(">Page not found"));
    assert!(
        missing
            .head
            .contains("<title>Page not found · ACP Agent Registry</title>")
    );
    let unknown = render_page("/agents/no-such-agent/", Some(&loaded));
    assert!(unknown.body.contains(">Agent not found"));

    let shell = render_page("/", None);
    assert!(shell.body.contains("Loading agents…"));
    assert!(!shell.body.contains("agents</p>"));
    assert!(render_page("/404.html", None).body.contains("Loading…"));
}

const HOSTILE: &str = r#"{"version": "1.0.0", "agents": [{
  "id": "evil",
  "name": "</title><script>alert(1)</script>",
  "version": "1.0.0\"><img src=x onerror=alert(5)>",
  "description": "<img src=x onerror=alert(2)> & \"quotes\" 'too'",
  "authors": ["<b onclick=alert(3)>me</b>"],
  "license": "<b onclick=alert(4)>MIT</b>",
  "repository": "javascript:alert(6)",
  "website": "https://example.com/?a=1&b='2'",
  "icon": "javascript:alert(7)",
  "distribution": {"npx": {"package": "demo@1.0.0", "args": ["</pre><script>alert(8)</script>", "$(rm -rf ~)"],
    "env": {"KEY\"><svg onload=alert(9)>": "v"}}}
}]}"#;

/// Every tag of `html` as (name, attribute names), read the way a browser tokenises it:
/// attribute values in double quotes, single quotes or bare; comments skipped.
fn tags(html: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        if let Some(comment) = rest.strip_prefix("!--") {
            rest = &comment[comment.find("-->").map_or(comment.len(), |i| i + 3)..];
            continue;
        }
        if let Some(marker) = rest.strip_prefix("!>") {
            rest = marker;
            continue;
        }
        rest = rest.trim_start_matches('/');
        let name_len = rest
            .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .unwrap_or(rest.len());
        let name = rest[..name_len].to_ascii_lowercase();
        rest = &rest[name_len..];
        let mut attributes = Vec::new();
        loop {
            rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
            if rest.is_empty() || rest.starts_with('>') {
                break;
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '=' || c == '>')
                .unwrap_or(rest.len());
            attributes.push(rest[..end].to_ascii_lowercase());
            rest = &rest[end..];
            if let Some(value) = rest.strip_prefix('=') {
                let len = match value.chars().next() {
                    Some(q @ ('"' | '\'')) => value[1..].find(q).map_or(value.len(), |i| i + 2),
                    _ => value
                        .find(|c: char| c.is_whitespace() || c == '>')
                        .unwrap_or(value.len()),
                };
                rest = &value[len..];
            }
        }
        out.push((name, attributes));
    }
    out
}

/// The same entry as [`HOSTILE`], every string harmless (and as unfit for a link, where the
/// hostile one is).
const BENIGN: &str = r#"{"version": "1.0.0", "agents": [{
  "id": "evil",
  "name": "Plain name",
  "version": "1.0.0",
  "description": "A plain description",
  "authors": ["me"],
  "license": "MIT",
  "repository": "not a link",
  "website": "https://example.com/?a=1",
  "icon": "ftp://example.com/icon.svg",
  "distribution": {"npx": {"package": "demo@1.0.0", "args": ["--acp", "--quiet"],
    "env": {"KEY=1": "v"}}}
}]}"#;

#[test]
fn hostile_registry_text_adds_no_markup() {
    let hostile = LoadedRegistry::from_text(registry_url(), HOSTILE).unwrap();
    let benign = LoadedRegistry::from_text(registry_url(), BENIGN).unwrap();
    assert_eq!(
        hostile.catalog.registry.entries.len(),
        1,
        "{:?}",
        hostile.diagnostics
    );
    for path in ["/", "/agents/evil/"] {
        let page = render_page(path, Some(&hostile));
        let html = format!("{}{}", page.head, page.body);
        let plain = render_page(path, Some(&benign));
        // Exactly the tags and attributes of the harmless entry's page: the hostile strings
        // added none, whatever they hold.
        assert_eq!(
            tags(&html),
            tags(&format!("{}{}", plain.head, plain.body)),
            "{path}"
        );
        // A `javascript:` URL is shown as text, never as a link or a source.
        assert!(
            !html.contains("=\"javascript:"),
            "a javascript: URL on {path}"
        );
        assert!(
            html.contains("&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{path}"
        );
    }
    let page = render_page("/agents/evil/", Some(&hostile));
    assert!(page.head.contains(
        "<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; · ACP Agent Registry</title>"
    ));
    assert!(
        page.body
            .contains("&lt;b onclick=alert(4)&gt;MIT&lt;/b&gt;")
    );
    assert!(
        page.body
            .contains("&lt;/pre&gt;&lt;script&gt;alert(8)&lt;/script&gt;")
    );
    // The website is a link, its `&` escaped inside the attribute.
    assert!(
        page.body
            .contains("href=\"https://example.com/?a=1&amp;b='2'\" rel=\"noopener noreferrer\""),
        "{}",
        page.body
    );
}

#[test]
fn the_template_takes_pages_and_refuses_tags_the_pages_set() {
    let html = "<!doctype html><html><head><meta charset=utf-8></head><body class=x><script>s</script></body></html>";
    let template = Template::parse(html).unwrap();
    let page = acp_catalog::render::RenderedPage {
        head: "<title>T</title>".into(),
        body: "<main>M</main>".into(),
    };
    assert_eq!(
        template.document(&page, true),
        "<!doctype html><html><head><meta charset=utf-8><!--page-head--><title>T</title><!--/page-head--></head><body class=x><div id=\"app\" data-prerendered><main>M</main></div><!--/app--><script>s</script></body></html>"
    );
    // A written page is a template again: its own head tags and root taken out.
    let written = template.document(&page, true);
    let again = Template::parse(&written).unwrap();
    assert_eq!(
        again.document(&page, false),
        template.document(&page, false)
    );
    assert!(!template.document(&page, false).contains("data-prerendered"));
    for (html, error) in [
        ("<html><body></body>", TemplateError::NoHead),
        ("<head></head>", TemplateError::NoBody),
        (
            "<head><title>x</title></head><body>",
            TemplateError::OwnTag("<title>"),
        ),
        (
            "<head><meta name=\"description\" content=x></head><body>",
            TemplateError::OwnTag("description"),
        ),
    ] {
        assert_eq!(Template::parse(html).unwrap_err(), error, "{html}");
    }
}

/// The catalogue's early search reads, from its template: every card in the registry's order,
/// unmarked, each text a search marks in a `data-marks` span, and the fields the core wrote.
#[test]
fn the_catalogue_carries_every_card_and_the_fields_for_its_early_search() {
    let loaded = bundled();
    let entries = &loaded.catalog.registry.entries;
    let body = render_page("/", Some(&loaded)).body;
    let template = &body[body.find("<template id=\"acp-early\">").unwrap()..];
    let template = &template[..template.find("</template>").unwrap()];
    let ids: Vec<&str> = template
        .match_indices("<a href=\"/agents/")
        .map(|(at, _)| {
            let rest = &template[at + "<a href=\"/agents/".len()..];
            rest[..rest.find('"').unwrap()].trim_end_matches('/')
        })
        .collect();
    let expected: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, expected);
    let (list, samples) = template.split_once("<div data-early=\"mark\">").unwrap();
    let cards = (list.split("<li class=\"[content-visibility:auto]").skip(1)).collect::<Vec<_>>();
    assert_eq!(cards.len(), entries.len());
    for (card, entry) in cards.iter().zip(entries) {
        let texts = registry_core::card::CardTexts::of(entry);
        let spans = card.matches("<span data-marks=\"\">").count();
        assert_eq!(
            spans,
            if texts.authors.is_empty() { 2 } else { 3 },
            "{}",
            entry.id
        );
        assert!(!card.contains("<mark"), "{} is marked", entry.id);
    }
    assert_eq!(samples.matches("<mark").count(), 1, "one mark to copy");
    assert!(samples.contains("No agents match “<span data-words=\"\">…</span>”."));
    let open = "<script type=\"application/json\" data-early=\"fields\">";
    let json = &template[template.find(open).unwrap() + open.len()..];
    let json = &json[..json.find("</script>").unwrap()];
    let read: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(read["anyExtension"], false);
    assert_eq!(
        read["fields"],
        serde_json::json!(registry_core::card::searched_fields(entries))
    );
    // Registry text in the data block can neither close it nor be read as markup.
    let hostile = LoadedRegistry::from_text(registry_url(), HOSTILE).unwrap();
    let body = render_page("/", Some(&hostile)).body;
    let json = &body[body.find(open).unwrap() + open.len()..];
    let json = &json[..json.find("</script>").unwrap()];
    assert!(!json.contains('<') && !json.contains('&'), "{json}");
    let read: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(read["fields"][0], "</title><script>alert(1)</script>");
}

#[test]
fn the_site_has_a_page_per_entry_whose_id_fits_a_file_name() {
    let long = "a".repeat(300);
    let registry = format!(
        r#"{{"version": "1.0.0", "agents": [
            {{"id": "ok", "name": "Ok", "version": "1", "description": "d", "distribution": {{"npx": {{"package": "ok@1"}}}}}},
            {{"id": "{long}", "name": "Long", "version": "1", "description": "d", "distribution": {{"npx": {{"package": "l@1"}}}}}}
        ], "extensions": [
            {{"id": "ext", "name": "Ext", "version": "1", "description": "d", "distribution": {{"npx": {{"package": "e@1"}}}}}}
        ]}}"#
    );
    let loaded = LoadedRegistry::from_text(registry_url(), &registry).unwrap();
    let out = std::env::temp_dir().join(format!("acp-render-{}", std::process::id()));
    fs::create_dir_all(&out).unwrap();
    let template = Template::parse("<html><head></head><body></body></html>").unwrap();
    let written = write_site(
        &template,
        Some(&loaded),
        SiteData::default(),
        &out,
        Pages::All,
    )
    .unwrap();
    assert_eq!((written.agents, written.extensions), (1, 1));
    assert_eq!(written.unfit_ids, std::slice::from_ref(&long));
    for file in [
        "index.html",
        "404.html",
        "agents/ok/index.html",
        "extensions/ext/index.html",
    ] {
        let html = fs::read_to_string(out.join(file)).unwrap();
        assert!(html.contains("<div id=\"app\" data-prerendered>"), "{file}");
    }
    assert!(!out.join("agents").join(&long).exists());
    fs::remove_dir_all(&out).unwrap();

    for (id, fits) in [
        ("gemini", true),
        ("v1.2_beta", true),
        ("", false),
        ("..", false),
        (".hidden", false),
        ("a/b", false),
        ("a\\b", false),
        ("my agent", false),
        ("é", false),
        (&"a".repeat(128), true),
        (&"a".repeat(129), false),
        (long.as_str(), false),
    ] {
        assert_eq!(is_file_name(id), fits, "{id:?}");
    }
}

#[test]
fn pages_draw_only_the_icons_the_build_read_and_measured() {
    let registry = r#"{"version": "1.0.0", "agents": [
        {"id": "good", "name": "Good", "version": "1", "description": "d", "icon": "good.svg", "distribution": {"npx": {"package": "g@1"}}},
        {"id": "bomb", "name": "Bomb", "version": "1", "description": "d", "icon": "bomb.svg", "distribution": {"npx": {"package": "b@1"}}},
        {"id": "remote", "name": "Remote", "version": "1", "description": "d", "icon": "https://cdn.example.com/remote.svg", "distribution": {"npx": {"package": "r@1"}}}
    ]}"#;
    let loaded = LoadedRegistry::from_text(registry_url(), registry).unwrap();
    let out = std::env::temp_dir().join(format!("acp-render-icons-{}", std::process::id()));
    fs::create_dir_all(&out).unwrap();
    let square = r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path fill="currentColor" d="M0 0h16v16H0z"/></svg>"#;
    fs::write(out.join("good.svg"), square).unwrap();
    let bomb = format!(
        r#"<!DOCTYPE svg [<!ENTITY a "{}">]><svg xmlns="http://www.w3.org/2000/svg">&a;&a;</svg>"#,
        "x".repeat(100)
    );
    fs::write(out.join("bomb.svg"), bomb).unwrap();
    let template = Template::parse("<html><head></head><body></body></html>").unwrap();
    write_site(
        &template,
        Some(&loaded),
        SiteData::default(),
        &out,
        Pages::All,
    )
    .unwrap();
    let page = |id: &str| fs::read_to_string(out.join(format!("agents/{id}/index.html"))).unwrap();
    let css = fs::read_to_string(out.join("icons.css")).unwrap();
    // Within the bounds, a file of the build: drawn by its rule in icons.css, no fetch by the app.
    assert!(page("good").contains("icon-mask"));
    assert!(
        css.contains("good.svg") && css.lines().count() == 1,
        "{css}"
    );
    // Refused by the build: the monogram and the reason, no mask.
    let refused = page("bomb");
    assert!(!refused.contains("icon-mask"));
    assert!(
        refused.contains("declares entities, which can hide markup"),
        "{refused}"
    );
    // On another host the build cannot read it: nothing drawn until the browser has measured it.
    let remote = page("remote");
    assert!(!remote.contains("icon-mask") && !remote.contains("cdn.example.com/remote.svg\")"));
    assert!(!css.contains("cdn.example.com"));
    let index = fs::read_to_string(out.join("index.html")).unwrap();
    // The early search's copies of the cards are beside the page, its template left empty.
    assert!(index.contains("<template id=\"acp-early\"></template>"));
    let early: String =
        serde_json::from_str(&fs::read_to_string(out.join("early-cards.json")).unwrap()).unwrap();
    assert!(
        early.starts_with("<ul data-early=\"cards\">"),
        "{early:.80}"
    );
    for cards in [index.as_str(), early.as_str()] {
        assert_eq!(
            cards.matches("icon-mask").count(),
            1,
            "only Good's card draws its icon"
        );
    }
    fs::remove_dir_all(&out).unwrap();
}

#[test]
fn pages_carry_no_hydration_markers_but_scripts_keep_their_text() {
    let loaded = bundled();
    for path in ["/", "/agents/gemini/"] {
        let page = render_page(path, Some(&loaded));
        assert!(!page.body.contains("<!>"), "{path}");
        assert!(!page.body.contains("<!--<() />-->"), "{path}");
    }
    assert_eq!(
        without_hydration_markers(
            "<p>a<!>b</p><!--<() />--><script>x=\"<!>\"</script><i>c<!></i><script>y"
        ),
        "<p>ab</p><script>x=\"<!>\"</script><i>c</i><script>y"
    );
}
