//! Pages rendered to HTML at build time, by the same components the browser runs.
//!
//! Natively the site compiles with Leptos's `ssr` feature: [`render_page`] renders [`App`] for
//! one address into the `<body>` and collects the head tags its pages set with `leptos_meta`.
//! [`write_site`] does that for every page of the registry known at build time and writes each
//! into Trunk's `index.html` ([`Template`]):
//!
//! - `index.html`: the catalogue, as it opens (heading, search box, facets with their counts,
//!   the count and the first page of cards);
//! - `agents/<id>/index.html` and `extensions/<id>/index.html`: every entry's page;
//! - `404.html`: the not-found page, which static hosts serve for any other address;
//! - `shell.html`: the loading shell of an entry's page, whatever the registry, which the
//!   service worker serves offline for a page never visited (the app then renders the page
//!   from the registry it kept);
//!
//! and beside them `icons.css`, the rules giving the icons those pages show their URL (pages
//! carry no `style` attribute, which the site's Content-Security-Policy refuses: see
//! [`crate::components::icon::build_time`]), and what the world links to: `badge/<id>.svg` (an entry's badge, for READMEs),
//! `og/<id>.png` (its link-preview image, drawn from its icon by `og_image`), `sitemap.xml`
//! listing every page, and `robots.txt` pointing at it.
//!
//! With no registry known at build time (a remote registry without a local copy, or an
//! AgentRegistry, which is only ever read live), `index.html` and `404.html` are the loading
//! shell and no entry page is written.
//!
//! The body goes inside `<div id="app">`, marked `data-prerendered` when it is a whole page
//! (see [`crate::boot`] for how the browser takes it over); the head tags go between the
//! [`HEAD_START`] and [`HEAD_END`] comments. Registry text reaches the HTML only through Leptos's
//! rendering, which escapes text and attribute values.
//!
//! `render_view` renders any app the same way (the listing preview renders its own with it),
//! without Leptos's hydration comments: the browser renders its own view and never hydrates.
//! `Template` is Trunk's `index.html` as `cargo xtask dist` leaves it, its Content-Security-Policy
//! `<meta>` included; `Template::with_late_stylesheet` links `icons.css` after the page, applied
//! once it has been painted. An entry whose id is not a file name (`registry_core::id::is_file_name`)
//! gets no page; `write_site` names it in its summary and writes the rest.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use std::sync::Arc;

use any_spawner::Executor;
use futures::StreamExt;
use hydration_context::SsrSharedContext;
use leptos::prelude::*;
use leptos_meta::ServerMetaContext;
use leptos_router::location::RequestUrl;
use registry_core::changes::ChangeLog;
use registry_core::clients::Profiles;
use registry_core::id::is_file_name;
use registry_core::settings::SettingsError;
use registry_core::{Entry, Kind, Severity};

use crate::app::{App, SiteFiles};
use crate::boot::{HEAD_END, HEAD_START, PRERENDERED, ROOT_ID};
use crate::changes::{CHANGES_FILE, CHANGES_PAGE};
use crate::clients::{CLIENTS_FILE, CLIENTS_PAGE, client_page};
use crate::components::icon::build_time::{ICONS_CSS, note_read_by_build, rendered_icons_css};
use crate::config;
use crate::registry::{LoadedRegistry, RegistryState};
use crate::visitor::VisitorState;

/// leptos_meta's marker: its head tags go right after it.
const META_MARKER: &str = "<!--HEAD-->";
/// The attribute of a stylesheet the start-up script applies once the page has been painted
/// ([`Template::with_late_stylesheet`]).
pub const AFTER_PAINT: &str = "data-after-paint";
/// The comment after the root element of a written page, so a page can be written again.
const ROOT_END: &str = "<!--/app-->";

/// The client profiles the project keeps (see `registry_core::clients`), which every build
/// publishes.
pub const CLIENTS_JSON: &str = include_str!("../data/clients.json");

/// [`CLIENTS_JSON`], read; an error names each profile that does not load (the project's own
/// file must load whole: `tests/clients.rs`).
pub fn bundled_clients() -> Result<Profiles, String> {
    let profiles = registry_core::clients::parse_profiles(CLIENTS_JSON)
        .map_err(|error| format!("data/clients.json: {error}"))?;
    match profiles.diagnostics.as_slice() {
        [] => Ok(profiles),
        problems => Err(problems
            .iter()
            .map(|problem| format!("data/clients.json: {problem}"))
            .collect::<Vec<_>>()
            .join("\n")),
    }
}

/// [`CLIENTS_JSON`] as published: the same profiles without the spacing.
fn published_clients() -> String {
    serde_json::from_str::<serde_json::Value>(CLIENTS_JSON)
        .map_or_else(|_| CLIENTS_JSON.to_owned(), |value| value.to_string())
}

/// The file of the loading shell the service worker serves offline for pages never visited.
pub const SHELL: &str = "shell.html";

/// The file holding what the catalogue's early search shows (its template's content,
/// `EarlyCards`, as one JSON string), beside `index.html`: in the page, its bytes put the first
/// paint off.
pub const EARLY_CARDS: &str = "early-cards.json";

/// The page `html` with its early search's template emptied (left as the start-up script's
/// marker), and what the template held, when the page has one.
pub fn split_early_cards(html: &str) -> (String, Option<String>) {
    use crate::routes::catalogue::EARLY_ID;
    let open = format!("<template id=\"{EARLY_ID}\">");
    let Some(start) = html.find(&open).map(|at| at + open.len()) else {
        return (html.to_owned(), None);
    };
    let Some(len) = html[start..].find("</template>") else {
        return (html.to_owned(), None);
    };
    let page = format!("{}{}", &html[..start], &html[start + len..]);
    (page, Some(html[start..start + len].to_owned()))
}

/// A page, rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedPage {
    /// The tags of `<head>` the page sets: title, description, canonical and link-preview tags.
    pub head: String,
    /// The app's markup, for inside the root element.
    pub body: String,
}

/// Renders the app at `path` (under the base path, with its query if any, e.g.
/// `/agents/gemini/`), over `registry` when one is known, else as the loading shell.
pub fn render_page(path: &str, registry: Option<&LoadedRegistry>) -> RenderedPage {
    render_page_with(path, registry, SiteData::default())
}

/// The files only some pages show, as the build writes them beside the pages.
#[derive(Clone, Copy, Debug, Default)]
pub struct SiteData<'a> {
    /// The registry's change log, when the build has its history.
    pub changes: Option<&'a ChangeLog>,
    /// The client profiles.
    pub clients: Option<&'a Profiles>,
}

/// [`render_page`], with the files the build wrote beside the pages.
pub fn render_page_with(
    path: &str,
    registry: Option<&LoadedRegistry>,
    data: SiteData<'_>,
) -> RenderedPage {
    let registry = registry.cloned();
    let changes = data.changes.cloned();
    let clients = data.clients.cloned();
    render_view(path, move || {
        let registry = match registry {
            Some(loaded) => RegistryState::ready(loaded),
            None => RegistryState::shell(),
        };
        let visitor = VisitorState::assumed();
        let files = SiteFiles::ready(changes, clients);
        view! { <App registry visitor files /> }
    })
}

/// Renders the view `app` makes, as a request for `path` would see it: the markup of its body
/// and the head tags it sets with `leptos_meta`. The listing preview renders its own app with
/// it.
pub fn render_view<V: IntoView + 'static>(path: &str, app: impl FnOnce() -> V) -> RenderedPage {
    let _ = Executor::init_futures_executor();
    // A server-side context, so Leptos knows it renders on the server (window listeners and
    // other browser-only work are then skipped).
    let owner = Owner::new_root(Some(Arc::new(SsrSharedContext::new())));
    let (body, output) = owner.with(|| {
        let (meta, output) = ServerMetaContext::new();
        provide_context(meta);
        provide_context(RequestUrl::new(path));
        (app().into_view().to_html(), output)
    });
    let shell = format!("<head>{META_MARKER}</head>");
    let injected = futures::executor::block_on(async move {
        output
            .inject_meta_context(futures::stream::iter([shell]))
            .await
            .collect::<String>()
            .await
    });
    let head = injected
        .trim_start_matches("<head>")
        .trim_end_matches("</head>")
        .replacen(META_MARKER, "", 1);
    owner.cleanup();
    RenderedPage {
        head,
        body: without_hydration_markers(&body),
    }
}

/// Leptos's HTML without the comments it writes for hydration (`<!>` between text nodes,
/// `<!--<() />-->` for empty views): the browser renders its own view and never hydrates,
/// so they are bytes for nothing (about 4% of the catalogue's page). Text is escaped in that
/// HTML, so a literal `<!` is always a marker, except in the body of a `<script>`, which is left
/// as it is.
pub fn without_hydration_markers(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while !rest.is_empty() {
        let (outside, script) = match rest.find("<script") {
            Some(at) => {
                let end = rest[at..]
                    .find("</script>")
                    .map_or(rest.len(), |e| at + e + "</script>".len());
                (&rest[..at], &rest[at..end])
            }
            None => (rest, ""),
        };
        out.push_str(&outside.replace("<!>", "").replace("<!--<() />-->", ""));
        out.push_str(script);
        rest = &rest[outside.len() + script.len()..];
    }
    out
}

/// Trunk's `index.html`: the document every page is written into.
#[derive(Debug, Clone)]
pub struct Template {
    /// Up to (excluding) `</head>`.
    head: String,
    /// From `</head>` up to and including the `<body …>` tag.
    body_open: String,
    /// What follows the `<body …>` tag.
    rest: String,
}

/// Why Trunk's `index.html` cannot hold the pages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// It has no `</head>`.
    #[error("index.html has no </head> to write the page's head tags before")]
    NoHead,
    /// It has no `<body>` tag.
    #[error("index.html has no <body> tag to write the page into")]
    NoBody,
    /// It still has tags that the pages set themselves.
    #[error(
        "index.html has its own {0}: remove it from the repository's index.html, the pages set it"
    )]
    OwnTag(&'static str),
}

impl Template {
    /// Cuts `html` where a page's head tags and body go: Trunk's `index.html`, or a page
    /// [`Template::document`] wrote (its head tags and root taken out), so that a built site's
    /// pages can be rendered again from another registry.
    pub fn parse(html: &str) -> Result<Template, TemplateError> {
        let html = &without_page(html);
        for (needle, what) in [
            ("<title", "<title>"),
            ("name=\"description\"", "description"),
            ("name=description", "description"),
        ] {
            if html.contains(needle) {
                return Err(TemplateError::OwnTag(what));
            }
        }
        let head_end = html.find("</head>").ok_or(TemplateError::NoHead)?;
        let body_start = html[head_end..]
            .find("<body")
            .map(|at| head_end + at)
            .ok_or(TemplateError::NoBody)?;
        let body_open_end = html[body_start..]
            .find('>')
            .map(|at| body_start + at + 1)
            .ok_or(TemplateError::NoBody)?;
        Ok(Template {
            head: html[..head_end].to_owned(),
            body_open: html[head_end..body_open_end].to_owned(),
            rest: html[body_open_end..].to_owned(),
        })
    }

    /// The template with a stylesheet applied once the page has been painted (`href` resolved
    /// against the page's `<base>`), unless it is already: linked after the page with
    /// `media="print"`, so that it is fetched without holding up the first paint, which the
    /// stylesheets of the head do; the start-up script (`src/start.js`) applies it
    /// ([`AFTER_PAINT`]) once the page has been painted, and without JavaScript a
    /// `<noscript>` copy of the link applies it at once. The icons' masks are such a
    /// stylesheet: each icon is a file of its own, painted when it arrives, whatever the sheet.
    pub fn with_late_stylesheet(&self, href: &str) -> Template {
        let link = format!(
            "<link rel=\"stylesheet\" href=\"{href}\" media=\"print\" {AFTER_PAINT}>\
             <noscript><link rel=\"stylesheet\" href=\"{href}\"></noscript>"
        );
        let mut template = self.clone();
        if !template.rest.contains(&link) {
            template.rest.insert_str(0, &link);
        }
        template
    }

    /// The site's settings the build wrote into the template's head
    /// (`<script type="application/json" id="acp-settings">`), which the pages copy and the
    /// app reads in the browser: the renderer reads them from here, so both agree.
    pub fn settings(&self) -> Result<registry_core::SiteSettings, SettingsError> {
        registry_core::SiteSettings::from_page(&self.head)
    }

    /// The whole document of a page; `whole` marks the body as a page to take over.
    pub fn document(&self, page: &RenderedPage, whole: bool) -> String {
        let marker = if whole {
            format!(" {PRERENDERED}")
        } else {
            String::new()
        };
        format!(
            "{}<!--{HEAD_START}-->{}<!--{HEAD_END}-->{}<div id=\"{ROOT_ID}\"{marker}>{}</div>{ROOT_END}{}",
            self.head, page.head, self.body_open, page.body, self.rest
        )
    }
}

/// `html` without what [`Template::document`] wrote into it, if it did.
fn without_page(html: &str) -> String {
    let head = (
        html.find(&format!("<!--{HEAD_START}-->")),
        html.find(&format!("<!--{HEAD_END}-->")),
    );
    let root = (
        html.find(&format!("<div id=\"{ROOT_ID}\"")),
        html.find(ROOT_END),
    );
    match (head, root) {
        ((Some(a), Some(b)), (Some(c), Some(d))) if a < b && b < c && c < d => format!(
            "{}{}{}",
            &html[..a],
            &html[b + HEAD_END.len() + 7..c],
            &html[d + ROOT_END.len()..]
        ),
        _ => html.to_owned(),
    }
}

/// What [`write_site`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// Link-preview images drawn with the monogram, the entry's icon missing or unusable.
    pub monogram_images: usize,
    /// Whether the pages have content (a registry was known), or are the loading shell.
    pub with_registry: bool,
    /// Agent pages written.
    pub agents: usize,
    /// Extension pages written.
    pub extensions: usize,
    /// Entries left out of the registry by errors, and warnings.
    pub errors: usize,
    /// Warnings about the registry.
    pub warnings: usize,
    /// Entries with no page, their ids unfit for a file name (see [`is_file_name`]).
    pub unfit_ids: Vec<String>,
    /// Events in the change log written, when one was.
    pub changes: usize,
    /// Atom feeds written.
    pub feeds: usize,
    /// Client profiles published, each with its page, when they were.
    pub clients: usize,
}

impl fmt::Display for Written {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.with_registry {
            return write!(
                f,
                "rendered the loading shell (index.html, 404.html, shell.html): no registry to \
                 pre-render"
            );
        }
        write!(
            f,
            "rendered index.html, 404.html, shell.html, {} agent and {} extension pages with \
             their badges and link-preview images ({} with the monogram), sitemap.xml and \
             robots.txt ({} entries left out by errors, {} warnings",
            self.agents, self.extensions, self.monogram_images, self.errors, self.warnings
        )?;
        if self.feeds > 0 {
            write!(
                f,
                "; changes.json with {} changes, /changes/ and {} Atom feeds",
                self.changes, self.feeds
            )?;
        }
        if self.clients > 0 {
            write!(
                f,
                "; clients.json with {} client profiles, /clients/ and a page each",
                self.clients
            )?;
        }
        if !self.unfit_ids.is_empty() {
            write!(
                f,
                "; no page for ids unfit for a file name: {}",
                self.unfit_ids.join(", ")
            )?;
        }
        write!(f, ")")
    }
}

/// Which pages [`write_site`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pages {
    /// Every page (see the module docs).
    All,
    /// `index.html` and `404.html` only (a benchmark's large synthetic registries).
    IndexOnly,
}

/// Renders the pages into `out_dir` (which holds Trunk's output): see the module docs.
pub fn write_site(
    template: &Template,
    registry: Option<&LoadedRegistry>,
    data: SiteData<'_>,
    out_dir: &Path,
    pages: Pages,
) -> std::io::Result<Written> {
    let write = |relative: PathBuf, html: String| -> std::io::Result<()> {
        let path = out_dir.join(relative);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        fs::write(path, html)
    };
    let whole = registry.is_some();
    let template = &template.with_late_stylesheet(ICONS_CSS);
    let page =
        |path: &str| template.document(&render_page_with(&href(path), registry, data), whole);
    // The icons of the pages written, for their stylesheet: none from an earlier call.
    let _ = rendered_icons_css();
    // What the pages may draw: the icons the build reads and measures itself (read once, for
    // the pages and the link-preview images), by entry.
    let icons: Vec<Option<String>> = registry.map_or_else(Vec::new, |loaded| {
        loaded
            .catalog
            .registry
            .entries
            .iter()
            .map(|entry| {
                let url = crate::components::icon::icon_url(entry, &loaded.url)?;
                let text = local_icon(&url, out_dir);
                note_read_by_build(&url, text.as_deref());
                text
            })
            .collect()
    });
    let (index, early) = split_early_cards(&page("/"));
    write("index.html".into(), index)?;
    if let Some(early) = early {
        let json = serde_json::to_string(&early).expect("a string is JSON");
        write(EARLY_CARDS.into(), json)?;
    }
    write("404.html".into(), page("/404.html"))?;
    write(
        SHELL.into(),
        template.document(&render_page(&href("/agents/shell/"), None), false),
    )?;
    let mut written = Written {
        with_registry: whole,
        ..Written::default()
    };
    let Some(loaded) = registry else {
        write(ICONS_CSS.into(), rendered_icons_css())?;
        return Ok(written);
    };
    if pages == Pages::IndexOnly {
        write(ICONS_CSS.into(), rendered_icons_css())?;
        return Ok(written);
    }
    written.errors = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    written.warnings = loaded.diagnostics.len() - written.errors;
    let address = config::address();
    let mut pages = vec!["".to_owned()];
    for (entry, icon) in loaded.catalog.registry.entries.iter().zip(&icons) {
        if !is_file_name(&entry.id) {
            written.unfit_ids.push(entry.id.clone());
            continue;
        }
        let path = entry_page(entry);
        write(
            PathBuf::from(path.trim_start_matches('/')).join("index.html"),
            page(&path),
        )?;
        write(
            registry_core::badge_path(entry).into(),
            registry_core::badge_svg(&entry.version),
        )?;
        match og_image::render_entry(entry, icon.as_deref(), address.origin()) {
            Ok(image) => {
                if image.icon != og_image::IconUse::Icon {
                    written.monogram_images += 1;
                }
                let file = out_dir.join(registry_core::og_image_path(entry));
                if let Some(dir) = file.parent() {
                    fs::create_dir_all(dir)?;
                }
                fs::write(file, image.png)?;
            }
            Err(error) => return Err(std::io::Error::other(format!("{}: {error}", entry.id))),
        }
        pages.push(registry_core::page_path(entry));
        match entry.kind {
            Kind::Agent => written.agents += 1,
            Kind::Extension => written.extensions += 1,
        }
    }
    if let Some(log) = data.changes {
        write(CHANGES_FILE.into(), log.to_json())?;
        write("changes/index.html".into(), page(CHANGES_PAGE))?;
        pages.push(CHANGES_PAGE.trim_start_matches('/').to_owned());
        let names = log.names();
        let agents: Vec<&str> = (loaded.catalog.registry.entries.iter())
            .filter(|e| e.kind == Kind::Agent && is_file_name(&e.id))
            .map(|e| e.id.as_str())
            .collect();
        let name = |id: &str| names.get(id).cloned().unwrap_or_else(|| id.to_owned());
        for feed in crate::feeds::feeds(log, &name, &agents) {
            write(feed.path.trim_start_matches('/').into(), feed.xml)?;
            written.feeds += 1;
        }
        written.changes = log.events().len();
    }
    write(
        "compare/index.html".into(),
        page(crate::components::compare::COMPARE_PAGE),
    )?;
    if let Some(profiles) = data.clients {
        write(CLIENTS_FILE.into(), published_clients())?;
        write("clients/index.html".into(), page(CLIENTS_PAGE))?;
        pages.push(CLIENTS_PAGE.trim_start_matches('/').to_owned());
        for client in &profiles.clients {
            if !is_file_name(&client.id) {
                continue;
            }
            let path = client_page(&client.id);
            write(
                PathBuf::from(path.trim_start_matches('/')).join("index.html"),
                page(&path),
            )?;
            pages.push(path.trim_start_matches('/').to_owned());
        }
        written.clients = profiles.clients.len();
    }
    write(ICONS_CSS.into(), rendered_icons_css())?;
    write(
        registry_core::sitemap::SITEMAP.into(),
        registry_core::sitemap::sitemap_xml(&address, pages.iter().map(String::as_str)),
    )?;
    write(
        "robots.txt".into(),
        registry_core::sitemap::robots_txt(&address),
    )?;
    Ok(written)
}

/// The text of the icon at `url` (as [`icon_url`](crate::components::icon::icon_url) gives it)
/// when it is a file of the build (the bundled registry's icons are beside `registry.json`);
/// `None` for an icon elsewhere: the build fetches nothing.
fn local_icon(url: &str, out_dir: &Path) -> Option<String> {
    let relative = url.strip_prefix("./")?;
    let relative = relative.split(['?', '#']).next()?;
    let path = Path::new(relative);
    let inside = path
        .components()
        .all(|c| matches!(c, std::path::Component::Normal(_)));
    inside
        .then(|| fs::read_to_string(out_dir.join(path)).ok())
        .flatten()
}

/// An entry's page address (without the base path): `/agents/<id>/`.
pub fn entry_page(entry: &Entry) -> String {
    format!("{}/", entry.path())
}

/// `path` under the site's base path, as the router sees a request for it.
fn href(path: &str) -> String {
    config::href(path)
}
