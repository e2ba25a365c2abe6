//! Release build of the site with Trunk, ready for a static host.
//!
//! [`build`] runs `trunk build --release` for the catalogue and the listing preview, passing the
//! site's settings ([`DistOptions::site_env`]: `PUBLIC_URL`, `REGISTRY_URL`, `REGISTRY_KIND`,
//! `PROTOCOL_MATRIX_URL`, `JETBRAINS_VIEW_URL`, `JETBRAINS_PREVIEW_VIEW_URL`, `QUARANTINE_URL`,
//! `SITE_ORIGIN`) to the Cargo build (the app reads them with `option_env!`), then has the
//! site's own renderer write every page's HTML into Trunk's `index.html` ([`pages`]):
//! `index.html`, `404.html` (which static hosts such as GitHub Pages serve for deep links they
//! do not have), `shell.html`, a page per registry entry and the preview's page. Before that,
//! the Content-Security-Policy of Trunk's pages (their inline scripts' hashes, the registry's
//! origins: [`crate::csp`]) is written into them, so every rendered page carries it; after,
//! every page is checked against it. Then it writes the service worker with the build's files
//! ([`crate::offline`]). Last it measures what a visitor downloads: raw and brotli (quality 11)
//! sizes of the HTML, CSS, JS and wasm.

use std::fmt;
use std::fs;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail, ensure};

use crate::options::{DistOptions, RegistryKind};
use crate::pages;
use crate::setup::{self, Tools};

/// The kinds of file a visitor's browser downloads to start the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssetKind {
    /// `index.html`.
    Html,
    /// The Tailwind stylesheet.
    Css,
    /// The wasm-bindgen JavaScript glue.
    Js,
    /// The app itself.
    Wasm,
}

impl AssetKind {
    const ALL: [AssetKind; 4] = [Self::Html, Self::Css, Self::Js, Self::Wasm];

    /// The file extension, which is also the label in the report.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Html => "html",
            Self::Css => "css",
            Self::Js => "js",
            Self::Wasm => "wasm",
        }
    }
}

/// Sizes of all files of one kind in the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetSize {
    /// Which kind.
    pub kind: AssetKind,
    /// Bytes on disk.
    pub raw: u64,
    /// Bytes after brotli at quality 11.
    pub brotli: u64,
}

/// What [`build`] produced.
#[derive(Debug, Clone)]
pub struct DistReport {
    /// The output directory.
    pub out_dir: PathBuf,
    /// One entry per [`AssetKind`], in the order html, css, js, wasm.
    pub assets: Vec<AssetSize>,
    /// The same for the listing preview (`preview/`), which only its own page loads.
    pub preview: Option<Vec<AssetSize>>,
    /// The look-alike worker's files (raw, brotli), which the app starts once it runs: not a
    /// part of the first load.
    pub worker: (u64, u64),
}

impl DistReport {
    /// The brotli size of everything needed for the first render.
    pub fn total_brotli(&self) -> u64 {
        self.assets.iter().map(|asset| asset.brotli).sum()
    }
}

impl fmt::Display for DistReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "built {}", self.out_dir.display())?;
        writeln!(f, "  {:<6}{:>12}{:>12}", "", "raw", "brotli")?;
        for asset in &self.assets {
            writeln!(
                f,
                "  {:<6}{:>12}{:>12}",
                asset.kind.as_str(),
                asset.raw,
                asset.brotli
            )?;
        }
        writeln!(f, "  {:<6}{:>12}{:>12}", "total", "", self.total_brotli())?;
        let (raw, brotli) = self.worker;
        if raw > 0 {
            writeln!(
                f,
                "  look-alike worker (started by the app once it runs): {raw} raw, {brotli} brotli"
            )?;
        }
        if let Some(preview) = &self.preview {
            let (raw, brotli) = preview
                .iter()
                .fold((0, 0), |(r, b), a| (r + a.raw, b + a.brotli));
            writeln!(
                f,
                "  preview/ (loaded by its own page only): {raw} raw, {brotli} brotli"
            )?;
        }
        Ok(())
    }
}

/// Builds the release site into `options.out_dir` and measures it.
pub fn build(tools: &Tools, options: &DistOptions) -> Result<DistReport> {
    let out_dir = &options.out_dir;
    if tools.root().starts_with(out_dir) {
        bail!(
            "output directory {} contains the repository and Trunk empties it: choose another",
            out_dir.display()
        );
    }
    println!(
        "building the site (public URL {}, registry {}) …",
        options.public_url, options.registry_url
    );
    trunk_build(tools, options, SITE_HTML, &options.public_url, out_dir)?;

    // The listing preview (of ACP manifests): its own package and bundle, in `preview/`, after
    // the catalogue's build (which empties the output directory). Its links to the catalogue use
    // the site's base path.
    let preview_dir = out_dir.join("preview");
    let with_preview = options.registry_kind == RegistryKind::Acp;
    if with_preview {
        let preview_url = format!("{}preview/", options.public_url);
        trunk_build(tools, options, PREVIEW_HTML, &preview_url, &preview_dir)?;
    }
    // The policy comes from Trunk's pages, before any registry text is in them; the renderers
    // copy their head, and so the policy, into every page.
    let policy = crate::csp::write_into_templates(
        out_dir,
        [
            options.registry_url.as_str(),
            &options.protocol_matrix_url,
            &options.jetbrains_view_url,
            &options.jetbrains_preview_view_url,
            &options.quarantine_url,
        ],
    )?;
    pages::render(tools, options, with_preview)?;
    crate::offline::write_service_worker(tools.root(), out_dir)?;
    let pages = crate::csp::check_site(out_dir, &policy)?;
    println!(
        "Content-Security-Policy in all {pages} pages: {} inline scripts allowed by hash",
        policy.script_hashes.len()
    );
    // Hosts that read `_headers` (Netlify, Cloudflare Pages) send the same policy as a header,
    // and `script-src 'none'` with every icon opened on its own; others ignore the file.
    fs::write(out_dir.join("_headers"), crate::csp::headers_file(&policy))
        .with_context(|| format!("writing {}", out_dir.join("_headers").display()))?;
    let mut report = measure(out_dir)?;
    if with_preview {
        report.preview = Some(measure(&preview_dir)?.assets);
    }
    // Last, so that every text file written above gets its `.br` and `.gz` beside it.
    crate::precompress::write_beside(out_dir)?;
    Ok(report)
}

/// Runs a release `trunk build` of the entry point `html`, published at `public_url`, into
/// `out_dir`. Both apps get the site's configuration (`PUBLIC_URL` is the catalogue's base path,
/// which the preview's links lead back to).
fn trunk_build(
    tools: &Tools,
    options: &DistOptions,
    html: &str,
    public_url: &str,
    out_dir: &Path,
) -> Result<()> {
    let mut trunk = tools.command("trunk");
    trunk
        .args(["build", html, "--release", "--public-url", public_url])
        .arg("--dist")
        .arg(out_dir)
        .envs(options.site_env());
    setup::run(&mut trunk)
}

/// The catalogue's Trunk entry point.
const SITE_HTML: &str = "index.html";
/// The listing preview's Trunk entry point.
const PREVIEW_HTML: &str = "crates/site-preview/index.html";

/// The start of the look-alike worker's file names (Trunk names a worker's files after its
/// bin: `acp-lookalikes_loader.js`, `acp-lookalikes.js`, `acp-lookalikes_bg.wasm`).
pub const WORKER_FILES: &str = "acp-lookalikes";

/// Sums the raw and brotli sizes of the top-level files of each [`AssetKind`]; `404.html` is
/// not a page of the first load and not counted, nor is the look-alike worker, counted apart.
fn measure(out_dir: &Path) -> Result<DistReport> {
    let mut worker = (0, 0);
    let mut assets: Vec<AssetSize> = AssetKind::ALL
        .iter()
        .map(|&kind| AssetSize {
            kind,
            raw: 0,
            brotli: 0,
        })
        .collect();
    let entries =
        fs::read_dir(out_dir).with_context(|| format!("listing {}", out_dir.display()))?;
    for entry in entries {
        let path = entry?.path();
        if !path.is_file() || path.file_name().is_some_and(|name| name == "404.html") {
            continue;
        }
        let extension = path.extension().and_then(|ext| ext.to_str()).unwrap_or("");
        let Some(asset) = assets.iter_mut().find(|a| a.kind.as_str() == extension) else {
            continue;
        };
        let bytes = fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        let (raw, brotli) = (bytes.len() as u64, brotli_size(&bytes)?);
        if path
            .file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name.starts_with(WORKER_FILES))
        {
            worker = (worker.0 + raw, worker.1 + brotli);
            continue;
        }
        asset.raw += raw;
        asset.brotli += brotli;
    }
    ensure!(
        assets.iter().all(|asset| asset.raw > 0),
        "{} lacks one of index.html, a .css, a .js or a .wasm file: did Trunk build it?",
        out_dir.display()
    );
    Ok(DistReport {
        out_dir: out_dir.to_path_buf(),
        assets,
        preview: None,
        worker,
    })
}

/// The size of `bytes` compressed with brotli at quality 11, as a static host would serve them.
fn brotli_size(bytes: &[u8]) -> Result<u64> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    let mut compressed = Vec::new();
    brotli::BrotliCompress(&mut Cursor::new(bytes), &mut compressed, &params)?;
    Ok(compressed.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brotli_shrinks_repetitive_text() {
        let text = "<div class=\"flex\">agent</div>\n".repeat(200);
        let size = brotli_size(text.as_bytes()).unwrap();
        assert!(size > 0 && size < 100, "{size}");
    }
}
