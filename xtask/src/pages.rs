//! The site's pages as HTML: `cargo xtask dist` runs the site's own renderer after Trunk.
//!
//! The renderer is the site crate compiled natively (`acp-catalog-render`, and
//! `acp-preview-render` for the listing preview), once for every configuration: it reads the
//! site's settings from the template the build laid out, as the app does in the browser, so the
//! pages are the markup the browser's app renders (see `src/render.rs`). This module only
//! decides what it renders from and runs it:
//!
//! - the registry known at build time ([`source`]): the file given with `--prerender-registry`,
//!   else the build's own copy when the registry URL is a file of the build; never the network.
//!   Without one, the pages are the loading shell;
//! - the protocol matrix, the JetBrains views and the quarantine list, each when its URL is a
//!   file of the build (else the pages say what the app says before it has loaded it: "not
//!   probed", no JetBrains listing, no quarantine).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::options::{DistOptions, RegistryKind, Renderers};
use crate::setup::{self, Tools};

/// Renders the catalogue's pages into `options.out_dir` and the preview's shell into its
/// `preview/`; `previous_changes` is the previous site's change log, copied aside
/// ([`keep_previous_changes`]).
pub fn render(
    tools: &Tools,
    options: &DistOptions,
    with_preview: bool,
    previous_changes: Option<&Path>,
) -> Result<()> {
    let mut catalogue = renderer(tools, options, "acp-catalog", "acp-catalog-render");
    catalogue.arg("--out").arg(&options.out_dir);
    match source(options) {
        Source::File(registry) => {
            catalogue.arg("--registry").arg(registry);
            with_lists(&mut catalogue, options);
            if let Some(history) = history(tools.root(), options) {
                catalogue.arg("--history").arg(history);
            }
            if let Some(previous) = previous_changes {
                catalogue.arg("--previous-changes").arg(previous);
            }
        }
        Source::None { reason } => println!("pages rendered as the loading shell: {reason}"),
    }
    setup::run(&mut catalogue).context("rendering the catalogue's pages")?;
    if with_preview {
        let mut preview = renderer(tools, options, "acp-preview", "acp-preview-render");
        preview.arg("--out").arg(options.out_dir.join("preview"));
        setup::run(&mut preview).context("rendering the listing preview's page")?;
    }
    Ok(())
}

/// Renders `index.html` and `404.html` of the site built in `dir` (with `options`) again, from
/// the registry file `registry`: a benchmark's copy of the site over a synthetic registry.
pub fn render_index(
    tools: &Tools,
    options: &DistOptions,
    dir: &Path,
    registry: &Path,
) -> Result<()> {
    let mut catalogue = renderer(tools, options, "acp-catalog", "acp-catalog-render");
    catalogue
        .arg("--out")
        .arg(dir)
        .arg("--registry")
        .arg(registry)
        .arg("--index-only");
    with_lists(&mut catalogue, options);
    setup::run(&mut catalogue).context("rendering the catalogue's first page")
}

/// Passes the renderer the registry's other files that are files of the build.
fn with_lists(renderer: &mut std::process::Command, options: &DistOptions) {
    for (flag, url) in [
        ("--matrix", &options.settings.protocol_matrix_url),
        ("--jetbrains-view", &options.settings.jetbrains_view_url),
        (
            "--jetbrains-preview-view",
            &options.settings.jetbrains_preview_view_url,
        ),
        ("--quarantine", &options.settings.quarantine_url),
    ] {
        if let Some(file) = local_file(options, url) {
            renderer.arg(flag).arg(file);
        }
    }
}

/// A renderer, as `options` says to run it: `cargo run` (compiled natively in the workspace's
/// target directory), or the binary built already.
fn renderer(
    tools: &Tools,
    options: &DistOptions,
    package: &str,
    bin: &str,
) -> std::process::Command {
    match &options.renderers {
        Renderers::CargoRun => {
            let mut cargo = tools.command("cargo");
            cargo.args(["run", "--quiet", "--package", package, "--bin", bin, "--"]);
            cargo
        }
        Renderers::Built(dir) => {
            let mut binary = std::process::Command::new(dir.join(bin));
            binary.current_dir(tools.root());
            binary
        }
    }
}

/// Where the entries to render come from.
#[derive(Debug, PartialEq, Eq)]
pub enum Source {
    /// This registry file.
    File(PathBuf),
    /// Nothing to render from, for this reason.
    None {
        /// Why, and what to do.
        reason: String,
    },
}

/// The history folder the change log is built from: the one given, else the bundled one for
/// the bundled registry.
fn history(root: &Path, options: &DistOptions) -> Option<PathBuf> {
    options.history.clone().or_else(|| {
        let bundled = options.settings.registry_url.trim()
            == registry_core::settings::DEFAULT_REGISTRY_URL
            && options.prerender_registry.is_none();
        bundled.then(|| root.join(BUNDLED_HISTORY))
    })
}

/// The registry's real history, bundled: the default site's change log starts from it.
pub const BUNDLED_HISTORY: &str = "data/history";

/// Copies the previous site's `changes.json` aside (into `target/tmp/`), since the previous site
/// may be the output folder the build empties; `None` without a previous site. A previous site
/// without one is said, and the log starts anew.
pub fn keep_previous_changes(root: &Path, options: &DistOptions) -> Result<Option<PathBuf>> {
    let Some(previous) = &options.previous else {
        return Ok(None);
    };
    let file = previous.join("changes.json");
    if !file.is_file() {
        println!(
            "note: {} has no changes.json: the change log starts anew",
            previous.display()
        );
        return Ok(None);
    }
    let kept = root.join(format!(
        "target/tmp/previous-changes-{}.json",
        std::process::id()
    ));
    std::fs::create_dir_all(root.join("target/tmp"))?;
    std::fs::copy(&file, &kept).with_context(|| format!("copying {} aside", file.display()))?;
    Ok(Some(kept))
}

/// The file given with `--prerender-registry`, else the registry file of the build when the
/// registry URL is a relative path (the default `registry.json` is the copy Trunk put beside
/// `index.html`), else none: a remote registry is never fetched at build time, and an
/// AgentRegistry is only ever read live.
pub fn source(options: &DistOptions) -> Source {
    if !options.prerender {
        return Source::None {
            reason: "this site serves registries it has not seen".to_owned(),
        };
    }
    if options.settings.kind == RegistryKind::AgentRegistry {
        return Source::None {
            reason: "an AgentRegistry is read live, never at build time".to_owned(),
        };
    }
    if let Some(file) = &options.prerender_registry {
        return Source::File(file.clone());
    }
    match local_file(options, &options.settings.registry_url) {
        Some(file) => Source::File(file),
        None => Source::None {
            reason: format!(
                "the registry `{}` is not a file of this build; pass \
                 --prerender-registry <PATH> (or PRERENDER_REGISTRY) with a local copy of it",
                options.settings.registry_url.trim()
            ),
        },
    }
}

/// The file of the build that a relative URL names, if it is one.
fn local_file(options: &DistOptions, url: &str) -> Option<PathBuf> {
    let url = url.trim();
    let relative_path = !url.is_empty() && !url.contains([':', '?', '#']) && !url.starts_with('/');
    let file = options.out_dir.join(url);
    (relative_path && is_inside(&options.out_dir, &file) && file.is_file()).then_some(file)
}

/// Whether `path` stays inside `dir` (no `..` component).
fn is_inside(dir: &Path, path: &Path) -> bool {
    path.strip_prefix(dir).is_ok_and(|rest| {
        rest.components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
    })
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::options::SiteSettings;

    #[test]
    fn the_registry_is_the_bundled_file_the_given_file_or_none() {
        let out = std::env::temp_dir().join(format!("xtask-pages-{}", std::process::id()));
        fs::create_dir_all(&out).unwrap();
        fs::write(out.join("registry.json"), "{}").unwrap();
        let options = |registry_url: &str, file: Option<&str>| {
            let settings = SiteSettings {
                registry_url: registry_url.into(),
                ..SiteSettings::default()
            };
            DistOptions::new(settings, out.clone())
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
            "../registry.json",
        ] {
            assert!(
                matches!(source(&options(url, None)), Source::None { reason } if reason.contains(url)),
                "{url}"
            );
        }
        let service =
            DistOptions::agentregistry("https://agents.example.com", out.clone()).unwrap();
        assert!(matches!(source(&service), Source::None { reason } if reason.contains("live")));
        let shell = options("registry.json", None).shell_only();
        assert!(matches!(source(&shell), Source::None { .. }));
        fs::remove_dir_all(&out).unwrap();
    }
}
