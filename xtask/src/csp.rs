//! The site's Content-Security-Policy: built from the pages themselves, so that it allows
//! exactly their inline scripts and the origins the build points them at, and nothing else.
//!
//! - Scripts: `'self'` (the hashed `.js` and `.wasm`), `'wasm-unsafe-eval'` (instantiating the
//!   wasm), and the `'sha256-…'` of each inline `<script>` (Trunk's loader, the theme script),
//!   hashed over the exact text between its tags, as browsers hash it.
//! - Styles: `'self'` only. The app must set icons through the CSSOM (`element.style`), which
//!   the policy allows, not through `style` attributes, which it refuses.
//! - Images: `'self'`, the registry's origin (icons are resolved against its URL) and `blob:`
//!   (the listing preview shows the icon it was given as an object URL).
//! - Connections: `'self'` and the origins of the registry and its optional files.
//! - Nothing else: no plugins (`object-src 'none'`), no `<base>` elsewhere, no form posts, and,
//!   as an HTTP header only, no framing (`frame-ancestors 'none'`; a `<meta>` policy cannot say
//!   it, browsers ignore the directive there).
//!
//! [`Policy::meta`] is for a `<meta http-equiv="Content-Security-Policy">` in every page,
//! [`Policy::header`] for the HTTP header; [`headers_file`] and [`nginx_conf`] write the
//! latter for Netlify or Cloudflare Pages (`_headers`) and nginx, with `script-src 'none'` (and
//! no loads at all) for the `.svg` icons served from the site's own origin.
//!
//! `Policy::for_pages` computes it from the pages' text (data blocks such as JSON-LD are never run,
//! so never hashed); `with_meta` puts it in a page's `<head>` before any script or stylesheet,
//! `write_into_templates` into Trunk's pages before the renderers copy their head into every page,
//! and `check_site` checks every built page against it. `SVG_POLICY` is the icons' own.
//! `cargo xtask csp` prints the policy of `dist/` for a `<meta>` and as `_headers` and nginx text.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use base64::Engine as _;
use clap::Args;
use registry_core::SiteSettings;
use sha2::{Digest, Sha256};

use crate::options::DistOptions;

/// Options of `cargo xtask csp`.
#[derive(Debug, Args)]
pub struct CspArgs {
    /// The built site [default: dist/ in the repository].
    #[arg(long)]
    dir: Option<PathBuf>,
}

/// `cargo xtask csp`: prints the policy of a built site, for a `<meta>` and as the headers of
/// Netlify or Cloudflare Pages (`_headers`) and nginx.
pub fn run(root: &Path, args: &CspArgs) -> Result<()> {
    let dir = args.dir.clone().unwrap_or_else(|| root.join("dist"));
    // The data files' URLs are the settings the build wrote into the site's pages.
    let index = dir.join("index.html");
    let html =
        fs::read_to_string(&index).with_context(|| format!("reading {}", index.display()))?;
    let settings = SiteSettings::from_page(&html).with_context(|| index.display().to_string())?;
    let options = DistOptions::new(settings, dir.clone())?;
    let policy = site_policy(&dir, options.data_urls())?;
    println!(
        "# <meta http-equiv=\"Content-Security-Policy\"> (no frame-ancestors there)\n{}\n",
        policy.meta()
    );
    println!(
        "# _headers (Netlify, Cloudflare Pages)\n{}",
        headers_file(&policy)
    );
    println!("# nginx\n{}", nginx_conf(&policy));
    Ok(())
}

/// The policy of the built site in `dir`: the inline scripts of every `.html` file in it.
pub fn site_policy<'a>(dir: &Path, data_urls: impl IntoIterator<Item = &'a str>) -> Result<Policy> {
    let mut pages = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries =
            fs::read_dir(&folder).with_context(|| format!("reading {}", folder.display()))?;
        for entry in entries {
            let path = entry?.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "html") {
                pages.push(
                    fs::read_to_string(&path)
                        .with_context(|| format!("reading {}", path.display()))?,
                );
            }
        }
    }
    anyhow::ensure!(
        !pages.is_empty(),
        "{} has no pages: build the site first (cargo xtask dist)",
        dir.display()
    );
    Ok(Policy::for_pages(
        pages.iter().map(String::as_str),
        data_urls,
    ))
}

/// What a page may load and run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    /// `'sha256-…'` of each inline script, sorted.
    pub script_hashes: BTreeSet<String>,
    /// Origins (`https://cdn.example.com`) the pages fetch data from, besides their own.
    pub connect: BTreeSet<String>,
    /// Origins images may come from, besides the site's own.
    pub images: BTreeSet<String>,
}

impl Policy {
    /// The policy for `pages` (their HTML text) loading the registry and the protocol matrix
    /// from `data_urls`: inline scripts hashed, absolute data URLs' origins allowed for
    /// connections and, for the registry's icons, images. Relative URLs are the site's own.
    pub fn for_pages<'p, 'd>(
        pages: impl IntoIterator<Item = &'p str>,
        data_urls: impl IntoIterator<Item = &'d str>,
    ) -> Policy {
        let script_hashes = pages
            .into_iter()
            .flat_map(inline_scripts)
            .map(sha256_source)
            .collect();
        let origins: BTreeSet<String> = data_urls.into_iter().filter_map(origin).collect();
        Policy {
            script_hashes,
            images: origins.clone(),
            connect: origins,
        }
    }

    /// The policy for a `<meta http-equiv="Content-Security-Policy">`: everything but
    /// `frame-ancestors`, which browsers ignore there.
    pub fn meta(&self) -> String {
        self.directives().join("; ")
    }

    /// The policy as an HTTP header: [`Policy::meta`] and `frame-ancestors 'none'`.
    pub fn header(&self) -> String {
        let mut directives = self.directives();
        directives.push("frame-ancestors 'none'".to_owned());
        directives.join("; ")
    }

    fn directives(&self) -> Vec<String> {
        let sources = |fixed: &[&str], more: &BTreeSet<String>| {
            fixed
                .iter()
                .map(|s| (*s).to_owned())
                .chain(more.iter().cloned())
                .collect::<Vec<_>>()
                .join(" ")
        };
        vec![
            "default-src 'self'".to_owned(),
            format!(
                "script-src {}",
                sources(&["'self'", "'wasm-unsafe-eval'"], &self.script_hashes)
            ),
            "style-src 'self'".to_owned(),
            format!("img-src {}", sources(&["'self'"], &self.images) + " blob:"),
            format!("connect-src {}", sources(&["'self'"], &self.connect)),
            "object-src 'none'".to_owned(),
            "base-uri 'self'".to_owned(),
            "form-action 'none'".to_owned(),
        ]
    }
}

/// The policy of an SVG served from the site's origin: opened on its own, it is a document that
/// could run script; this one runs none and loads nothing (its own `<style>` still applies).
pub const SVG_POLICY: &str = "default-src 'none'; script-src 'none'; style-src 'unsafe-inline'";

/// The text of each inline `<script>` of `html` that a browser would run (no `src`, and a
/// JavaScript, module or import-map `type`, or none), exactly as between its tags: what a
/// browser hashes for `'sha256-…'`. Data blocks (`application/ld+json`) are never run, so never
/// need a hash: the agent pages' structured data stays out of the policy.
pub fn inline_scripts(html: &str) -> Vec<&str> {
    let lower = html.to_ascii_lowercase();
    let mut scripts = Vec::new();
    let mut from = 0;
    while let Some(at) = lower[from..].find("<script") {
        let start = from + at;
        let Some(tag_end) = tag_end(&lower, start) else {
            break;
        };
        let tag = &lower[start..tag_end];
        let Some(close) = lower[tag_end..].find("</script") else {
            break;
        };
        if !has_attribute(tag, "src") && runs(tag) {
            scripts.push(&html[tag_end..tag_end + close]);
        }
        from = tag_end + close;
    }
    scripts
}

/// Whether a (lowercased) `<script>` start tag is run rather than kept as data: by its `type`,
/// as the HTML standard says (none or empty, a JavaScript MIME type, `module`, `importmap`,
/// `speculationrules`).
fn runs(tag: &str) -> bool {
    let Some(value) = attribute_value(tag, "type") else {
        return true;
    };
    let essence = value.split(';').next().unwrap_or_default().trim();
    essence.is_empty()
        || matches!(essence, "module" | "importmap" | "speculationrules")
        || matches!(
            essence,
            "text/javascript"
                | "application/javascript"
                | "application/ecmascript"
                | "application/x-javascript"
                | "application/x-ecmascript"
                | "text/ecmascript"
                | "text/jscript"
                | "text/livescript"
                | "text/x-javascript"
                | "text/x-ecmascript"
        )
        || essence.starts_with("text/javascript1.")
}

/// The value of the attribute `name` of a (lowercased) start tag: quoted or not; `""` for an
/// attribute without a value.
fn attribute_value<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let (at, _) = tag.match_indices(name).find(|(at, _)| {
        let before = tag[..*at].chars().next_back();
        let after = tag[at + name.len()..].trim_start().chars().next();
        before.is_some_and(char::is_whitespace) && matches!(after, Some('=' | ' ' | '>' | '/'))
    })?;
    let rest = tag[at + name.len()..].trim_start();
    let Some(rest) = rest.strip_prefix('=') else {
        return Some("");
    };
    let rest = rest.trim_start();
    Some(match rest.chars().next() {
        Some(q @ ('"' | '\'')) => rest[1..].split(q).next().unwrap_or_default(),
        _ => rest
            .split(|c: char| c.is_whitespace() || c == '>')
            .next()
            .unwrap_or_default(),
    })
}

/// Just past the `>` ending the tag that starts at `start`, skipping quoted attribute values.
fn tag_end(html: &str, start: usize) -> Option<usize> {
    let mut quote = None;
    for (at, c) in html[start..].char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => return Some(start + at + 1),
            _ => {}
        }
    }
    None
}

/// Whether a (lowercased) start tag has the attribute `name`.
fn has_attribute(tag: &str, name: &str) -> bool {
    attribute_value(tag, name).is_some()
}

/// The opening of the policy's `<meta>`, by which [`with_meta`] finds one it wrote.
const META_START: &str = "<meta http-equiv=\"Content-Security-Policy\" content=\"";

/// `html` with the policy as a `<meta http-equiv="Content-Security-Policy">` first in its
/// `<head>` (after `<meta charset>`, before any script or stylesheet, which it must precede to
/// govern them), replacing one written before.
pub fn with_meta(html: &str, policy: &Policy) -> String {
    let mut html = html.to_owned();
    if let Some(start) = html.find(META_START)
        && let Some(len) = html[start..].find('>')
    {
        html.replace_range(start..=start + len, "");
    }
    let content = policy.meta().replace('&', "&amp;").replace('"', "&quot;");
    let meta = format!("{META_START}{content}\">");
    let lower = html.to_ascii_lowercase();
    let after = lower
        .find("<meta charset")
        .or_else(|| lower.find("<head"))
        .and_then(|start| tag_end(&lower, start))
        .unwrap_or(0);
    html.insert_str(after, &meta);
    html
}

/// The policy of the pages Trunk built (`dir/index.html`, and `dir/preview/index.html` when
/// there is one), written into them as a `<meta>`: the site's renderers copy their `<head>`
/// into every page they write, so every page has it. Only these templates' scripts are hashed,
/// never what a registry puts in a page.
pub fn write_into_templates<'a>(
    dir: &Path,
    data_urls: impl IntoIterator<Item = &'a str>,
) -> Result<Policy> {
    let templates: Vec<PathBuf> = [dir.join("index.html"), dir.join("preview/index.html")]
        .into_iter()
        .filter(|p| p.is_file())
        .collect();
    let mut pages = Vec::new();
    for template in &templates {
        pages.push(
            fs::read_to_string(template)
                .with_context(|| format!("reading {}", template.display()))?,
        );
    }
    let policy = Policy::for_pages(pages.iter().map(String::as_str), data_urls);
    for (template, html) in templates.iter().zip(&pages) {
        fs::write(template, with_meta(html, &policy))
            .with_context(|| format!("writing {}", template.display()))?;
    }
    Ok(policy)
}

/// Checks every page of the built site in `dir` against `policy`: each carries it, and runs no
/// inline script it does not allow. An error names the pages that fail.
pub fn check_site(dir: &Path, policy: &Policy) -> Result<usize> {
    let meta = format!(
        "{META_START}{}\">",
        policy.meta().replace('&', "&amp;").replace('"', "&quot;")
    );
    let mut wrong = Vec::new();
    let mut checked = 0;
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in
            fs::read_dir(&folder).with_context(|| format!("reading {}", folder.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "html") {
                continue;
            }
            let html =
                fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
            checked += 1;
            let allowed = html.contains(&meta)
                && inline_scripts(&html)
                    .into_iter()
                    .all(|script| policy.script_hashes.contains(&sha256_source(script)));
            if !allowed {
                wrong.push(path.display().to_string());
            }
        }
    }
    anyhow::ensure!(
        wrong.is_empty(),
        "pages without the site's Content-Security-Policy, or with inline scripts it does not \
         allow: {}",
        wrong.join(", ")
    );
    Ok(checked)
}

/// `'sha256-<base64>'` of a script's text, the source expression that allows it.
pub fn sha256_source(script: &str) -> String {
    let digest = Sha256::digest(script.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The origin (`https://cdn.example.com`, with a port when given) of an absolute `http(s)` URL;
/// `None` for a relative one, which is the site's own.
pub fn origin(url: &str) -> Option<String> {
    let url = url.trim();
    let (scheme, rest) = url.split_once("://")?;
    if !matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") {
        return None;
    }
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
    (!authority.is_empty()).then(|| {
        format!(
            "{}://{}",
            scheme.to_ascii_lowercase(),
            authority.to_ascii_lowercase()
        )
    })
}

/// A `_headers` file (Netlify, Cloudflare Pages) sending the policy with every page, and the
/// SVG policy with every icon.
pub fn headers_file(policy: &Policy) -> String {
    format!(
        "/*\n  Content-Security-Policy: {}\n  X-Content-Type-Options: nosniff\n\n/*.svg\n  \
         Content-Security-Policy: {SVG_POLICY}\n",
        policy.header()
    )
}

/// The same headers for nginx, inside the site's `server` or `location` block.
pub fn nginx_conf(policy: &Policy) -> String {
    format!(
        "add_header Content-Security-Policy \"{}\" always;\n\
         add_header X-Content-Type-Options nosniff always;\n\
         location ~* \\.svg$ {{\n    \
         add_header Content-Security-Policy \"{SVG_POLICY}\" always;\n    \
         add_header X-Content-Type-Options nosniff always;\n}}\n",
        policy.header()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_those_browsers_compute() {
        // The example of the CSP specification and MDN.
        assert_eq!(
            sha256_source("alert('Hello, world.');"),
            "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"
        );
        assert_eq!(
            sha256_source(""),
            "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"
        );
    }

    #[test]
    fn inline_scripts_are_the_exact_text_between_their_tags() {
        let html = "<head><script>a()</script><SCRIPT type=\"module\">\n  b(\"</x>\")\n</SCRIPT>\
                    <script src=\"/app.js\"></script><script data-src='x'>c()</script>\
                    <script type=module src=/m.js ></script></head><script>unterminated";
        assert_eq!(inline_scripts(html), ["a()", "\n  b(\"</x>\")\n", "c()"]);
        assert_eq!(inline_scripts("<p>no scripts</p>"), Vec::<&str>::new());
    }

    #[test]
    fn data_blocks_are_not_scripts_to_allow() {
        let html = "<script type=\"application/ld+json\">{\"@type\":\"x\"}</script>\
                    <script type=module>m()</script><script type='text/javascript'>j()</script>\
                    <script type=\"\">e()</script><script type=importmap>{}</script>\
                    <script type=\"text/plain\">p()</script><script type=\"TEXT/JavaScript; x\">t()</script>";
        assert_eq!(inline_scripts(html), ["m()", "j()", "e()", "{}", "t()"]);
    }

    #[test]
    fn the_meta_goes_first_in_the_head_once() {
        let policy = Policy::for_pages(["<script>x</script>"], ["https://cdn.example/r.json"]);
        let meta = format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
            policy.meta()
        );
        let page =
            "<!doctype html><html><head><meta charset=\"utf-8\" /><script>x</script></head></html>";
        let written = with_meta(page, &policy);
        assert_eq!(
            written,
            format!(
                "<!doctype html><html><head><meta charset=\"utf-8\" />{meta}<script>x</script></head></html>"
            )
        );
        assert_eq!(with_meta(&written, &policy), written, "written once");
        let other = Policy::for_pages(["<script>y</script>"], ["registry.json"]);
        let replaced = with_meta(&written, &other);
        assert_eq!(replaced.matches("Content-Security-Policy").count(), 1);
        assert!(replaced.contains(&other.meta()), "{replaced}");
        assert_eq!(
            with_meta("<html><HEAD lang=en><title>t</title>", &policy),
            format!("<html><HEAD lang=en>{meta}<title>t</title>")
        );
    }

    #[test]
    fn every_page_carries_the_templates_policy_and_nothing_else_runs() {
        let dir = std::env::temp_dir().join(format!("xtask-csp-site-{}", std::process::id()));
        fs::create_dir_all(dir.join("preview")).unwrap();
        let template = "<head><meta charset=utf-8><script>theme()</script></head><body></body>";
        fs::write(dir.join("index.html"), template).unwrap();
        fs::write(
            dir.join("preview/index.html"),
            "<head><script>preview()</script></head>",
        )
        .unwrap();
        let policy = write_into_templates(&dir, ["registry.json"]).unwrap();
        let expected: BTreeSet<String> = ["theme()", "preview()"]
            .into_iter()
            .map(sha256_source)
            .collect();
        assert_eq!(policy.script_hashes, expected);
        let index = fs::read_to_string(dir.join("index.html")).unwrap();
        assert_eq!(index, with_meta(template, &policy));
        // A page rendered from the template, with the registry's structured data.
        fs::create_dir_all(dir.join("agents/a")).unwrap();
        let page = index.replace(
            "<body>",
            "<body><script type=\"application/ld+json\">{}</script>",
        );
        fs::write(dir.join("agents/a/index.html"), &page).unwrap();
        assert_eq!(check_site(&dir, &policy).unwrap(), 3);
        // A page whose inline script the policy does not allow, and one without the policy.
        fs::write(
            dir.join("agents/a/index.html"),
            page.replace("<body>", "<body><script>evil()</script>"),
        )
        .unwrap();
        fs::write(dir.join("404.html"), template).unwrap();
        let err = format!("{:#}", check_site(&dir, &policy).unwrap_err());
        assert!(
            err.contains("agents/a/index.html") && err.contains("404.html"),
            "{err}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn origins_of_absolute_urls_only() {
        let table = [
            (
                "https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json",
                Some("https://cdn.agentclientprotocol.com"),
            ),
            (
                "HTTP://Example.com:8080/x?y#z",
                Some("http://example.com:8080"),
            ),
            ("https://user@host.example/", Some("https://host.example")),
            ("registry.json", None),
            ("/acp/registry/registry.json", None),
            ("//cdn.example/x", None),
            ("javascript:alert(1)", None),
            ("https://", None),
        ];
        for (url, expected) in table {
            assert_eq!(origin(url).as_deref(), expected, "{url}");
        }
    }

    #[test]
    fn the_policy_allows_the_pages_scripts_and_the_registry_only() {
        let page = "<script>init()</script><script>theme()</script>";
        let preview = "<script>init()</script><script>preview()</script>";
        let policy = Policy::for_pages(
            [page, preview],
            [
                "https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json",
                "protocol-matrix.json",
            ],
        );
        let hashes: Vec<String> = ["init()", "preview()", "theme()"]
            .into_iter()
            .map(sha256_source)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let expected = format!(
            "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {}; style-src 'self'; \
             img-src 'self' https://cdn.agentclientprotocol.com blob:; connect-src 'self' \
             https://cdn.agentclientprotocol.com; object-src 'none'; base-uri 'self'; \
             form-action 'none'",
            hashes.join(" ")
        );
        assert_eq!(policy.meta(), expected);
        assert_eq!(
            policy.header(),
            format!("{expected}; frame-ancestors 'none'")
        );
        assert!(!policy.meta().contains("frame-ancestors"));
        assert!(!policy.meta().contains("unsafe-inline"));
    }

    #[test]
    fn a_bundled_registry_needs_no_other_origin() {
        let policy = Policy::for_pages(["<p/>"], ["registry.json", "protocol-matrix.json"]);
        assert_eq!(
            policy.meta(),
            "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
             img-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'self'; \
             form-action 'none'"
        );
    }

    #[test]
    fn a_built_site_is_read_page_by_page() {
        let dir = std::env::temp_dir().join(format!("xtask-csp-{}", std::process::id()));
        fs::create_dir_all(dir.join("preview")).unwrap();
        fs::create_dir_all(dir.join("agents/gemini")).unwrap();
        fs::write(dir.join("index.html"), "<script>init()</script>").unwrap();
        fs::write(
            dir.join("agents/gemini/index.html"),
            "<script>init()</script>",
        )
        .unwrap();
        fs::write(dir.join("preview/index.html"), "<script>preview()</script>").unwrap();
        fs::write(dir.join("app.js"), "<script>not a page</script>").unwrap();
        let policy = site_policy(&dir, ["registry.json"]).unwrap();
        let expected: BTreeSet<String> = ["init()", "preview()"]
            .into_iter()
            .map(sha256_source)
            .collect();
        assert_eq!(policy.script_hashes, expected);
        fs::remove_dir_all(&dir).unwrap();
        let err = site_policy(&dir, ["registry.json"]).unwrap_err();
        assert!(format!("{err:#}").contains("reading"), "{err:#}");
    }

    #[test]
    fn host_configurations_send_the_same_policy() {
        let policy = Policy::for_pages(["<script>x</script>"], ["https://cdn.example/r.json"]);
        let headers = headers_file(&policy);
        assert!(headers.starts_with(&format!(
            "/*\n  Content-Security-Policy: {}\n",
            policy.header()
        )));
        assert!(
            headers.contains(
                "/*.svg\n  Content-Security-Policy: default-src 'none'; script-src 'none'"
            )
        );
        let nginx = nginx_conf(&policy);
        assert!(nginx.contains(&format!(
            "add_header Content-Security-Policy \"{}\" always;",
            policy.header()
        )));
        assert!(nginx.contains("location ~* \\.svg$ {"));
        assert_eq!(nginx.matches('{').count(), nginx.matches('}').count());
    }
}
