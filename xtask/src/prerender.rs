//! Pre-rendered entry pages, so that `/agents/<id>/` answers 200 on any static host, shows the
//! agent without JavaScript, and previews well when the link is shared.
//!
//! [`write_pages`] reads the registry the site shows when it is built (the bundled copy in the
//! output directory, or the file given with `--prerender-registry` when the site fetches a remote
//! registry; never the network), and writes `agents/<id>/index.html` or
//! `extensions/<id>/index.html` for every entry that loads. Each page is Trunk's `index.html`
//! (hashed scripts, stylesheet, `<base href>`) with:
//!
//! - the entry's `<title>` and description in place of the generic ones, a canonical link and
//!   OpenGraph and Twitter tags, all pointing at `{SITE_ORIGIN}{PUBLIC_URL}agents/<id>/`;
//! - a `<div id="prerendered">` at the start of `<body>`: name, version, id, description,
//!   authors, licence, links and the main run command as plain HTML. The app removes it before
//!   it mounts and renders the page itself.
//!
//! Registry data is untrusted: every string from it passes through [`escape_html`], in text and
//! in (always double-quoted) attributes alike, and only `http(s)` URLs become links.

use std::fs;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use registry_core::snippets::{self, binary_target};
use registry_core::{Entry, Kind, Method, Platform, Severity};

use crate::dist::DistOptions;

/// The site's name, after the entry's in titles.
const SITE_NAME: &str = "ACP Agent Registry";

/// The binary target a pre-rendered page shows when the entry has one: the most common platform.
const PREFERRED_BINARY_PLATFORM: &str = "linux-x86_64";

/// Writes a page for every entry of the registry known at build time into `options.out_dir`,
/// which must hold Trunk's `index.html`, and prints a one-line summary (or why there are none).
pub fn write_pages(options: &DistOptions) -> Result<()> {
    let file = match source(options) {
        Source::File(file) => file,
        Source::None { reason } => {
            println!("no pre-rendered entry pages: {reason}");
            return Ok(());
        }
    };
    let text = fs::read_to_string(&file)
        .with_context(|| format!("reading the registry to pre-render, {}", file.display()))?;
    let loaded =
        registry_core::load(&text).with_context(|| format!("loading {}", file.display()))?;
    let index = options.out_dir.join("index.html");
    let html =
        fs::read_to_string(&index).with_context(|| format!("reading {}", index.display()))?;
    let template = Template::parse(&html)
        .with_context(|| format!("pre-rendering from {}", index.display()))?;
    let site = Site {
        origin: &options.site_origin,
        public_url: &options.public_url,
    };

    let mut written = [0_usize; 2];
    let mut unfit_ids = Vec::new();
    for entry in &loaded.registry.entries {
        if !is_file_name(&entry.id) {
            unfit_ids.push(entry.id.as_str());
            continue;
        }
        let dir = options
            .out_dir
            .join(entry.kind.path_segment())
            .join(&entry.id);
        fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let path = dir.join("index.html");
        fs::write(&path, page(&template, site, entry))
            .with_context(|| format!("writing {}", path.display()))?;
        written[usize::from(entry.kind == Kind::Extension)] += 1;
    }

    let count = |severity| {
        loaded
            .diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    };
    let mut summary = format!(
        "pre-rendered {} agent and {} extension pages from {} ({} left out by errors, {} warnings",
        written[0],
        written[1],
        file.display(),
        count(Severity::Error),
        count(Severity::Warning),
    );
    if !unfit_ids.is_empty() {
        summary.push_str(&format!(
            "; not pre-rendered, ids unfit for a file name: {}",
            unfit_ids.join(", ")
        ));
    }
    println!("{summary})");
    Ok(())
}

/// `s` with `& < > " '` replaced by character references: safe as HTML text and inside a quoted
/// attribute value.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Where the entries to pre-render come from.
#[derive(Debug, PartialEq, Eq)]
enum Source {
    /// This registry file.
    File(PathBuf),
    /// Nothing to pre-render, for this reason.
    None { reason: String },
}

/// The file given with `--prerender-registry`, else the registry file of the build when the
/// registry URL is a relative path (the default `registry.json` is the copy Trunk put beside
/// `index.html`), else none: a remote registry is never fetched at build time.
fn source(options: &DistOptions) -> Source {
    if let Some(file) = &options.prerender_registry {
        return Source::File(file.clone());
    }
    let url = options.registry_url.trim();
    let relative_path = !url.contains([':', '?', '#']) && !url.starts_with('/');
    let bundled = options.out_dir.join(url);
    if relative_path && bundled.is_file() {
        Source::File(bundled)
    } else {
        Source::None {
            reason: format!(
                "the registry `{url}` is not a file of this build; pass \
                 --prerender-registry <PATH> (or PRERENDER_REGISTRY) with a local copy of it"
            ),
        }
    }
}

/// Whether an id can name a directory as is: ASCII letters, digits, `-`, `_` and `.`, not
/// starting with `.` (so neither `.` nor `..`), and no path separator.
fn is_file_name(id: &str) -> bool {
    !id.is_empty()
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// Where the site is published.
#[derive(Debug, Clone, Copy)]
struct Site<'a> {
    /// `https://agentclientprotocol.com`: scheme and host, no trailing slash.
    origin: &'a str,
    /// `/` or `/acp/registry/`.
    public_url: &'a str,
}

impl Site<'_> {
    /// The absolute URL of an entry's page: `{origin}{public_url}agents/<id>/`.
    fn canonical_url(self, entry: &Entry) -> String {
        format!(
            "{}{}{}/{}/",
            self.origin,
            self.public_url,
            entry.kind.path_segment(),
            entry.id
        )
    }
}

/// Trunk's `index.html`, cut where an entry's page differs: the `<title>` (the generic
/// description removed) and the start of `<body>`.
#[derive(Debug)]
struct Template {
    /// Up to `<title>`.
    head_start: String,
    /// After `</title>`, up to and including the `<body …>` tag.
    head_end: String,
    /// Trunk's content of `<body>` and the rest.
    body: String,
}

impl Template {
    /// Cuts `html`, minified or not; fails when it has no `<title>…</title>` or `<body>`.
    fn parse(html: &str) -> Result<Template> {
        let html = without_description_meta(html);
        let Some(title_start) = html.find("<title>") else {
            bail!("index.html has no <title>: keep one in the repository's index.html");
        };
        let Some(title_end) = html[title_start..]
            .find("</title>")
            .map(|at| title_start + at + "</title>".len())
        else {
            bail!("index.html has a <title> without </title>");
        };
        let Some(body_open) = html[title_end..].find("<body").map(|at| title_end + at) else {
            bail!("index.html has no <body> after its <title>");
        };
        let Some(body_start) = html[body_open..].find('>').map(|at| body_open + at + 1) else {
            bail!("index.html has an unterminated <body> tag");
        };
        Ok(Template {
            head_start: html[..title_start].to_owned(),
            head_end: html[title_end..body_start].to_owned(),
            body: html[body_start..].to_owned(),
        })
    }

    /// The page with `head` in place of the title and `body` first in `<body>`.
    fn render(&self, head: &str, body: &str) -> String {
        [
            self.head_start.as_str(),
            head,
            &self.head_end,
            body,
            &self.body,
        ]
        .concat()
    }
}

/// `html` without its first `<meta name="description" …>` tag (quoted or not, as a minifier
/// writes it).
fn without_description_meta(html: &str) -> String {
    let mut from = 0;
    while let Some(at) = html[from..].find("<meta").map(|at| from + at) {
        let Some(end) = html[at..].find('>').map(|end| at + end + 1) else {
            break;
        };
        let tag = html[at..end].to_ascii_lowercase().replace(['"', '\''], "");
        let is_description = tag.match_indices("name=description").any(|(i, m)| {
            let before = tag[..i].ends_with(char::is_whitespace);
            let after = tag[i + m.len()..].starts_with(|c: char| c.is_whitespace() || c == '>');
            before && after
        });
        if is_description {
            return [&html[..at], &html[end..]].concat();
        }
        from = end;
    }
    html.to_owned()
}

/// One entry's page.
fn page(template: &Template, site: Site, entry: &Entry) -> String {
    template.render(&head(site, entry), &body(site, entry))
}

/// Title, description, canonical link, OpenGraph and Twitter tags.
fn head(site: Site, entry: &Entry) -> String {
    let title = escape_html(&format!("{} · {SITE_NAME}", entry.name));
    let name = escape_html(&entry.name);
    let description = escape_html(&entry.description);
    let url = escape_html(&site.canonical_url(entry));
    format!(
        "<title>{title}</title>\
         <meta name=\"description\" content=\"{description}\">\
         <link rel=\"canonical\" href=\"{url}\">\
         <meta property=\"og:type\" content=\"website\">\
         <meta property=\"og:site_name\" content=\"{SITE_NAME}\">\
         <meta property=\"og:title\" content=\"{name}\">\
         <meta property=\"og:description\" content=\"{description}\">\
         <meta property=\"og:url\" content=\"{url}\">\
         <meta name=\"twitter:card\" content=\"summary\">\
         <meta name=\"twitter:title\" content=\"{name}\">\
         <meta name=\"twitter:description\" content=\"{description}\">"
    )
}

/// Classes of the site's own links, so the static page looks like the app's.
const LINK_CLASS: &str = "text-indigo-700 underline hover:no-underline dark:text-indigo-300";

/// The `<div id="prerendered">`: what the app's page header and run section say, as plain HTML.
fn body(site: Site, entry: &Entry) -> String {
    let mut facts = String::new();
    let authors = entry.author_names().collect::<Vec<_>>().join(", ");
    if !authors.is_empty() {
        facts.push_str(&fact("Authors", &escape_html(&authors)));
    }
    if let Some(license) = &entry.license {
        let license = link_or_text(entry.license_url.as_deref(), license);
        facts.push_str(&fact("License", &license));
    }
    for (label, url) in [
        ("Repository", &entry.repository),
        ("Website", &entry.website),
    ] {
        if let Some(url) = url {
            facts.push_str(&fact(label, &link_or_text(Some(url), url)));
        }
    }
    let run = match install_command(entry) {
        Some(command) => format!(
            "<h2 class=\"text-xl font-semibold\">Run it</h2>\
             <p class=\"mt-2 text-sm font-semibold\">{}</p>\
             <pre class=\"mt-2 overflow-x-auto rounded-lg border border-slate-200 bg-slate-50 p-3 \
             text-sm leading-6 dark:border-slate-800 dark:bg-slate-900\"><code>{}</code></pre>",
            escape_html(&command.label),
            escape_html(&command.code)
        ),
        None => String::new(),
    };
    format!(
        "<div id=\"prerendered\" class=\"mx-auto max-w-6xl px-4 pb-16 sm:px-6\">\
         <main>\
         <nav class=\"pt-6 text-sm\"><a class=\"{LINK_CLASS}\" href=\"{home}\">← All agents</a></nav>\
         <header class=\"py-8\">\
         <h1 class=\"text-3xl font-bold tracking-tight\">{name}</h1>\
         <p class=\"mt-1 text-sm text-slate-600 dark:text-slate-400\">v{version} · <code>{id}</code></p>\
         <p class=\"mt-3 max-w-3xl text-lg text-slate-700 dark:text-slate-300\">{description}</p>\
         <dl class=\"mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm\">{facts}</dl>\
         </header>\
         {run}\
         </main>\
         </div>",
        home = escape_html(site.public_url),
        name = escape_html(&entry.name),
        version = escape_html(&entry.version),
        id = escape_html(&entry.id),
        description = escape_html(&entry.description),
    )
}

/// A `<dt>`/`<dd>` pair; `value` is HTML already escaped.
fn fact(label: &str, value: &str) -> String {
    format!(
        "<dt class=\"text-slate-600 dark:text-slate-400\">{label}</dt>\
         <dd class=\"break-all\">{value}</dd>"
    )
}

/// `text` as a link to `url` when that is an `http(s)` URL, as plain text otherwise.
fn link_or_text(url: Option<&str>, text: &str) -> String {
    match url.and_then(registry_core::url::safe_link) {
        Some(url) => format!(
            "<a class=\"{LINK_CLASS}\" href=\"{}\" rel=\"noopener noreferrer\">{}</a>",
            escape_html(url),
            escape_html(text)
        ),
        None => escape_html(text),
    }
}

/// The command a pre-rendered page shows, and what it is for.
#[derive(Debug, PartialEq, Eq)]
struct InstallCommand {
    /// `Run with npx (macOS / Linux)`, `Install the binary (Linux x86_64)`.
    label: String,
    /// The snippet's code.
    code: String,
}

/// The first snippet of the entry's preferred method for no platform in particular; for an
/// entry with only binaries, the first snippet of its `linux-x86_64` target, or else of its
/// first target.
fn install_command(entry: &Entry) -> Option<InstallCommand> {
    let dist = &entry.distribution;
    let method = snippets::preferred_method(dist, None)?;
    let platform = match method {
        Method::Npx | Method::Uvx => None,
        Method::Binary => Some(
            Platform::parse(PREFERRED_BINARY_PLATFORM)
                .filter(|&p| binary_target(dist, p).is_some())
                .or_else(|| dist.binary.keys().find_map(|key| key.platform()))?,
        ),
    };
    let snippet = snippets::run_snippets(entry, method, platform)
        .into_iter()
        .next()?;
    let label = match platform {
        Some(p) => format!(
            "{} the binary ({} {})",
            snippet.title,
            p.os.label(),
            p.arch.as_str()
        ),
        None => format!(
            "{} with {} ({})",
            snippet.title,
            method.as_str(),
            snippet.shell.label()
        ),
    };
    Some(InstallCommand {
        label,
        code: snippet.code,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Trunk's minified output, as `dist` finds it.
    const MINIFIED: &str = "<!doctype html><html lang=en><meta charset=utf-8><base href=/acp/registry/>\
        <title>ACP Agent Registry</title><meta content=\"Browse agents.\" name=description>\
        <meta content=\"light dark\" name=color-scheme><script type=module>import init from '/a.js';</script>\
        </head><body class=\"min-h-screen bg-white\"><noscript>needs JS</noscript></body></html>";

    /// The repository's `index.html` before minification.
    const PRETTY: &str = "<!doctype html>\n<html lang=\"en\">\n  <head>\n    <base href=\"/\" />\n    \
        <title>ACP Agent Registry</title>\n    <meta name=\"description\" content=\"Browse agents.\" />\n  \
        </head>\n  <body>\n    <noscript>needs JS</noscript>\n  </body>\n</html>";

    const ROOT: Site = Site {
        origin: "https://agentclientprotocol.com",
        public_url: "/",
    };

    const SUB: Site = Site {
        origin: "https://agentclientprotocol.com",
        public_url: "/acp/registry/",
    };

    /// The one entry of a registry text (`agents` or `extensions`).
    fn entry(registry: &str) -> Entry {
        let loaded = registry_core::load(registry).unwrap();
        assert!(!loaded.has_errors(), "{registry}: {:?}", loaded.diagnostics);
        loaded.registry.entries.into_iter().next().unwrap()
    }

    fn agent(distribution: &str) -> Entry {
        entry(&format!(
            r#"{{"agents": [{{"id": "demo", "name": "Demo", "version": "1.0.0",
                "description": "A demo agent.", "distribution": {distribution}}}]}}"#
        ))
    }

    const HOSTILE: &str = r#"{"agents": [{
        "id": "evil",
        "name": "</title><script>alert(1)</script>",
        "version": "1\"><svg onload=alert(1)>",
        "description": "\"><img src=x onerror=alert(1)> & 'quoted'",
        "authors": ["<script>alert(2)</script> <x@y.z>", "' onmouseover='alert(3)"],
        "license": "<b onclick=alert(4)>MIT</b>",
        "license_url": "javascript:alert(5)",
        "repository": "https://example.com/\"><script>alert(6)</script>",
        "website": "https://example.com/?a=1&b='2'",
        "distribution": {"npx": {"package": "</code></pre><script>alert(7)</script>",
                                 "args": ["\" onerror=\"alert(8)"]}}
    }]}"#;

    #[test]
    fn escape_html_escapes_the_five_special_characters() {
        let cases = [
            ("plain text · é", "plain text · é"),
            ("a & b", "a &amp; b"),
            ("</title><script>", "&lt;/title&gt;&lt;script&gt;"),
            (
                "\"><img src=x onerror=alert(1)>",
                "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;",
            ),
            ("' onmouseover='x'", "&#39; onmouseover=&#39;x&#39;"),
            ("&amp;", "&amp;amp;"),
            ("", ""),
        ];
        for (input, expected) in cases {
            assert_eq!(escape_html(input), expected, "{input:?}");
        }
    }

    /// Every tag of `html` as (name, attribute names), read the way a browser tokenises it:
    /// attribute values in double quotes, single quotes or bare.
    fn tags(html: &str) -> Vec<(String, Vec<String>)> {
        let mut out = Vec::new();
        let mut rest = html;
        while let Some(at) = rest.find('<') {
            rest = rest[at + 1..].trim_start_matches('/');
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

    #[test]
    fn a_hostile_entry_adds_no_markup_of_its_own() {
        let template = Template::parse(MINIFIED).unwrap();
        let entry = entry(HOSTILE);
        let html = page(&template, ROOT, &entry);
        let added = html
            .strip_prefix(template.head_start.as_str())
            .unwrap()
            .strip_suffix(template.body.as_str())
            .unwrap()
            .replace(template.head_end.as_str(), "");

        let allowed_tags = [
            "title", "meta", "link", "div", "main", "nav", "a", "header", "h1", "h2", "p", "code",
            "dl", "dt", "dd", "pre",
        ];
        let allowed_attributes = ["name", "content", "property", "rel", "href", "id", "class"];
        for (tag, attributes) in tags(&added) {
            assert!(allowed_tags.contains(&tag.as_str()), "<{tag}> in {added}");
            for attribute in attributes {
                assert!(
                    allowed_attributes.contains(&attribute.as_str()),
                    "{attribute}= on <{tag}> in {added}"
                );
            }
        }
        assert_eq!(html.matches("<script").count(), 1, "{html}");
        for injected in ["<img", "<svg", "<b ", "</title><script", "javascript:"] {
            assert!(!html.contains(injected), "{injected} in {html}");
        }
        assert!(html.contains(
            "<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; · ACP Agent Registry</title>"
        ));
        assert!(html.contains("&lt;b onclick=alert(4)&gt;MIT&lt;/b&gt;"));
        // The repository URL is not a safe link: text only. The website is, escaped in `href`.
        assert!(!html.contains("href=\"https://example.com/&quot;"));
        assert!(html.contains("href=\"https://example.com/?a=1&amp;b=&#39;2&#39;\""));
    }

    #[test]
    fn the_page_replaces_the_generic_title_and_description() {
        for template in [MINIFIED, PRETTY] {
            let html = page(&Template::parse(template).unwrap(), ROOT, &agent(NPX));
            assert_eq!(html.matches("<title>").count(), 1, "{html}");
            assert!(html.contains("<title>Demo · ACP Agent Registry</title>"));
            assert!(!html.contains("Browse agents."), "{html}");
            assert_eq!(html.matches("name=\"description\"").count(), 1, "{html}");
            assert!(html.contains("<meta name=\"description\" content=\"A demo agent.\">"));
            for tag in [
                "<meta property=\"og:type\" content=\"website\">",
                "<meta property=\"og:site_name\" content=\"ACP Agent Registry\">",
                "<meta property=\"og:title\" content=\"Demo\">",
                "<meta property=\"og:description\" content=\"A demo agent.\">",
                "<meta property=\"og:url\" content=\"https://agentclientprotocol.com/agents/demo/\">",
                "<meta name=\"twitter:card\" content=\"summary\">",
                "<meta name=\"twitter:title\" content=\"Demo\">",
                "<meta name=\"twitter:description\" content=\"A demo agent.\">",
            ] {
                assert!(html.contains(tag), "{tag} in {html}");
            }
            // The pre-rendered content comes first in <body>, Trunk's after it.
            let body = html.find("<div id=\"prerendered\"").unwrap();
            assert!(html[..body].ends_with('>') && html[..body].contains("<body"));
            assert!(body < html.find("<noscript>").unwrap());
            assert!(html.contains("<h1 class=\"text-3xl font-bold tracking-tight\">Demo</h1>"));
        }
    }

    #[test]
    fn a_template_without_title_or_body_is_an_error() {
        for html in ["<html><body></body>", "<title>x</title>", "<title>x<body>"] {
            assert!(Template::parse(html).is_err(), "{html}");
        }
    }

    #[test]
    fn canonical_urls_follow_the_origin_and_the_public_url() {
        let agent = agent(NPX);
        let extension = Entry {
            kind: Kind::Extension,
            ..agent.clone()
        };
        let cases = [
            (ROOT, &agent, "https://agentclientprotocol.com/agents/demo/"),
            (
                SUB,
                &agent,
                "https://agentclientprotocol.com/acp/registry/agents/demo/",
            ),
            (
                SUB,
                &extension,
                "https://agentclientprotocol.com/acp/registry/extensions/demo/",
            ),
        ];
        for (site, entry, expected) in cases {
            assert_eq!(site.canonical_url(entry), expected);
            let html = page(&Template::parse(MINIFIED).unwrap(), site, entry);
            assert!(
                html.contains(&format!("<link rel=\"canonical\" href=\"{expected}\">")),
                "{html}"
            );
            let home = format!("href=\"{}\">← All agents</a>", site.public_url);
            assert!(html.contains(&home), "{html}");
        }
    }

    const NPX: &str = r#"{"npx": {"package": "@scope/demo@1.0.0", "args": ["--acp"]}}"#;

    fn binary(key: &str) -> String {
        format!(
            r#""{key}": {{"archive": "https://example.com/demo-{key}.tar.gz", "cmd": "./demo"}}"#
        )
    }

    #[test]
    fn the_install_command_is_the_preferred_method_for_no_platform() {
        let linux_and_mac = format!(
            r#"{{"binary": {{{}, {}}}}}"#,
            binary("darwin-aarch64"),
            binary("linux-x86_64")
        );
        let windows_and_mac = format!(
            r#"{{"binary": {{{}, {}}}}}"#,
            binary("windows-x86_64"),
            binary("darwin-aarch64")
        );
        let binary_and_npx = format!(
            r#"{{"binary": {{{}}}, "npx": {{"package": "demo@1"}}}}"#,
            binary("linux-x86_64")
        );
        let cases: [(&str, Option<&str>, Option<&str>); 6] = [
            (
                NPX,
                Some("Run with npx (macOS / Linux)"),
                Some("npx -y @scope/demo@1.0.0 --acp"),
            ),
            (
                r#"{"uvx": {"package": "demo==1.0", "args": ["acp"]}}"#,
                Some("Run with uvx (macOS / Linux)"),
                Some("uvx demo==1.0 acp"),
            ),
            (
                &binary_and_npx,
                Some("Run with npx (macOS / Linux)"),
                Some("npx -y demo@1"),
            ),
            (
                &linux_and_mac,
                Some("Install the binary (Linux x86_64)"),
                Some("demo-linux-x86_64.tar.gz"),
            ),
            (
                &windows_and_mac,
                Some("Install the binary (macOS aarch64)"),
                Some("demo-darwin-aarch64.tar.gz"),
            ),
            (
                &format!(r#"{{"binary": {{{}}}}}"#, binary("freebsd-x86_64")),
                None,
                None,
            ),
        ];
        for (distribution, label, code) in cases {
            let command = install_command(&agent(distribution));
            assert_eq!(
                command.as_ref().map(|c| c.label.as_str()),
                label,
                "{distribution}"
            );
            if let (Some(command), Some(code)) = (command, code) {
                assert!(command.code.contains(code), "{code} in {}", command.code);
            }
        }
    }

    #[test]
    fn ids_name_directories_only_when_they_are_plain_file_names() {
        let cases = [
            ("gemini", true),
            ("claude-acp", true),
            ("v1.2_beta", true),
            ("Agent", true),
            ("", false),
            (".", false),
            ("..", false),
            (".hidden", false),
            ("../../etc", false),
            ("a/b", false),
            ("a\\b", false),
            ("my agent", false),
            ("é", false),
        ];
        for (id, expected) in cases {
            assert_eq!(is_file_name(id), expected, "{id:?}");
        }
    }

    #[test]
    fn the_registry_is_the_bundled_file_the_given_file_or_none() {
        let out = std::env::temp_dir().join(format!("xtask-prerender-{}", std::process::id()));
        fs::create_dir_all(&out).unwrap();
        fs::write(out.join("registry.json"), "{}").unwrap();
        let options = |registry_url: &str, file: Option<&str>| {
            DistOptions::new("/".into(), registry_url.into(), out.clone())
                .unwrap()
                .with_prerender_registry(file.map(PathBuf::from))
        };
        let remote = "https://cdn.example.com/registry.json";
        let bundled = Source::File(out.join("registry.json"));
        let given = Source::File("copy.json".into());
        assert_eq!(source(&options("registry.json", None)), bundled);
        assert_eq!(source(&options(remote, Some("copy.json"))), given);
        assert_eq!(source(&options("registry.json", Some("copy.json"))), given);
        for url in [
            remote,
            "/registry.json",
            "missing.json",
            "registry.json?v=2",
        ] {
            assert!(
                matches!(source(&options(url, None)), Source::None { reason } if reason.contains(url)),
                "{url}"
            );
        }
        fs::remove_dir_all(&out).unwrap();
    }
}
