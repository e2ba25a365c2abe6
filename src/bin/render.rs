//! `acp-catalog-render`: writes the site's pages as HTML, rendered by the site's own components
//! (see the library's `render` module). `cargo xtask dist` builds and runs it after Trunk,
//! once for every configuration.
//!
//! ```text
//! acp-catalog-render --out dist [--registry dist/registry.json] [--matrix dist/protocol-matrix.json]
//!     [--jetbrains-view dist/registry-for-jetbrains.json]
//!     [--jetbrains-preview-view dist/registry-for-jetbrains-preview.json]
//!     [--quarantine dist/quarantine.json] [--history DIR] [--previous-changes FILE]
//!     [--index-only]
//! ```
//!
//! `--out` holds Trunk's `index.html` (or a page this command wrote, so a built site's pages can
//! be rendered again from a newer registry), which every page is written into; the site's
//! settings are read from it (`Template::settings`), as the app reads them in the browser. Without
//! `--registry` the pages are the loading shell; the matrix, the JetBrains views and the
//! quarantine list, each optional, are what the pages say about probes, listings and quarantine
//! (a page rendered without one says what the browser's app says until it has loaded it);
//! `--index-only` writes `index.html` and `404.html` only.
//!
//! With a registry, the change log is written too (`changes.json`, `/changes/` and the Atom
//! feeds, see the library's `history` and `feeds` modules): carried forward from
//! `--previous-changes` (the last published site's `changes.json`), with the snapshots of
//! `--history` and the build's own files added; with neither, it starts at this build.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    match native::run(std::env::args().skip(1).collect()) {
        Ok(summary) => {
            println!("{summary}");
            std::process::ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            std::process::ExitCode::from(2)
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::fs;
    use std::path::PathBuf;

    use acp_catalog::history::Current;
    use acp_catalog::registry::{LoadedRegistry, registry_url};
    use acp_catalog::render::{Pages, SiteData, Template, write_site};
    use registry_core::Listings;
    use registry_core::changes::Stamp;

    /// Reads the arguments, renders, and says what was written.
    pub fn run(args: Vec<String>) -> Result<String, String> {
        let mut out = None;
        let mut registry = None;
        let mut matrix = None;
        let mut jetbrains = None;
        let mut jetbrains_preview = None;
        let mut quarantine = None;
        let mut history = None;
        let mut previous_changes = None;
        let mut pages = Pages::All;
        let mut args = args.into_iter();
        while let Some(flag) = args.next() {
            if flag == "--index-only" {
                pages = Pages::IndexOnly;
                continue;
            }
            let mut value = || {
                args.next()
                    .map(PathBuf::from)
                    .ok_or_else(|| format!("{flag} needs a path"))
            };
            match flag.as_str() {
                "--out" => out = Some(value()?),
                "--registry" => registry = Some(value()?),
                "--matrix" => matrix = Some(value()?),
                "--jetbrains-view" => jetbrains = Some(value()?),
                "--jetbrains-preview-view" => jetbrains_preview = Some(value()?),
                "--quarantine" => quarantine = Some(value()?),
                "--history" => history = Some(value()?),
                "--previous-changes" => previous_changes = Some(value()?),
                other => return Err(format!("unknown argument `{other}`")),
            }
        }
        let out = out.ok_or("--out <dir> is required")?;
        let index = out.join("index.html");
        let html =
            fs::read_to_string(&index).map_err(|e| format!("reading {}: {e}", index.display()))?;
        let template = Template::parse(&html).map_err(|e| e.to_string())?;
        let settings = template
            .settings()
            .map_err(|e| format!("{}: {e}", index.display()))?;
        acp_catalog::config::set(settings).map_err(|e| e.to_string())?;
        // Each file read once: the pages and the change log read the same texts.
        let optional = |file: &Option<PathBuf>| -> Result<Option<(String, PathBuf)>, String> {
            file.as_ref()
                .map(|file| read(file).map(|text| (text, file.clone())))
                .transpose()
        };
        let (matrix, jetbrains, jetbrains_preview, quarantine) = (
            optional(&matrix)?,
            optional(&jetbrains)?,
            optional(&jetbrains_preview)?,
            optional(&quarantine)?,
        );
        let Some(file) = registry else {
            let written = write_site(&template, None, SiteData::default(), &out, pages)
                .map_err(|e| format!("writing into {}: {e}", out.display()))?;
            return Ok(written.to_string());
        };
        let text = read(&file)?;
        let loaded = LoadedRegistry::from_text(registry_url(), &text)
            .map_err(|e| format!("{}: {e}", file.display()))?;
        let log_started = std::time::Instant::now();
        let changes = (pages == Pages::All)
            .then(|| -> Result<_, String> {
                let history = match &history {
                    Some(dir) => acp_catalog::history::read_folder(dir)?,
                    None => Vec::new(),
                };
                let previous = previous_changes.as_ref().map(read).transpose()?;
                let edition = &loaded.edition;
                let stamp = match (&edition.snapshot, edition.published) {
                    (Some(snapshot), _) => Stamp::parse(&snapshot.name),
                    (None, Some(day)) => Some(Stamp::of_day(day)),
                    (None, None) => None,
                };
                let built = acp_catalog::history::build(
                    previous.as_deref(),
                    &history,
                    &Current {
                        stamp,
                        registry: &text,
                        jetbrains: text_of(&jetbrains),
                        jetbrains_preview: text_of(&jetbrains_preview),
                        quarantine: text_of(&quarantine),
                        matrix: text_of(&matrix),
                    },
                );
                for note in &built.notes {
                    eprintln!("note: {note}");
                }
                Ok(built.log)
            })
            .transpose()?;
        let log_took = log_started.elapsed();
        let loaded = match matrix {
            None => loaded,
            Some((text, file)) => {
                let (matrix, _warnings) = registry_core::protocol::parse_matrix(&text)
                    .map_err(|e| format!("{}: {e}", file.display()))?;
                loaded.with_matrix(matrix)
            }
        };
        let view = |file: Option<(String, PathBuf)>| -> Result<_, String> {
            file.map(|(text, file)| {
                registry_core::parse_view(&text)
                    .map(|(view, _problems)| view)
                    .map_err(|e| format!("{}: {e}", file.display()))
            })
            .transpose()
        };
        let listings = Listings {
            jetbrains: view(jetbrains)?,
            jetbrains_preview: view(jetbrains_preview)?,
            quarantine: quarantine
                .map(|(text, file)| {
                    registry_core::parse_quarantine(&text)
                        .map(|(list, _warnings)| list)
                        .map_err(|e| format!("{}: {e}", file.display()))
                })
                .transpose()?,
        };
        let loaded = if listings == Listings::default() {
            loaded
        } else {
            loaded.with_listings(listings)
        };
        // Whether an agent works in a client is a question of the ACP registry's agents.
        let acp = acp_catalog::config::registry_kind() == acp_catalog::config::RegistryKind::Acp;
        let clients = (pages == Pages::All && acp)
            .then(acp_catalog::render::bundled_clients)
            .transpose()?;
        let data = SiteData {
            changes: changes.as_ref(),
            clients: clients.as_ref(),
        };
        let pages_started = std::time::Instant::now();
        let written = write_site(&template, Some(&loaded), data, &out, pages)
            .map_err(|e| format!("writing into {}: {e}", out.display()))?;
        let mut summary = written.to_string();
        if changes.is_some() {
            // What the log costs beside the pages, in the same run.
            summary.push_str(&format!(
                "\nthe change log took {} ms to build, the pages {} ms to render",
                log_took.as_millis(),
                pages_started.elapsed().as_millis()
            ));
        }
        Ok(summary)
    }

    /// The text of an optional file read.
    fn text_of(file: &Option<(String, PathBuf)>) -> Option<&str> {
        file.as_ref().map(|(text, _)| text.as_str())
    }

    fn read(file: &PathBuf) -> Result<String, String> {
        fs::read_to_string(file).map_err(|e| format!("reading {}: {e}", file.display()))
    }
}
