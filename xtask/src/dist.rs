//! Release build of the site, ready for a static host.
//!
//! The site is compiled once per registry kind and laid out for each configuration from that:
//!
//! 1. [`compile`]: `trunk build --release` of the catalogue and the listing preview into
//!    `target/site/<kind>/`, published at a placeholder public URL ([`PLACEHOLDER_URL`]), with
//!    the `agentregistry` feature for an AgentRegistry (the one setting compiled in: see
//!    `src/config.rs`). It is skipped when nothing it is built from has changed: the sources it
//!    reads are hashed ([`fingerprint`]) and the hash kept beside the build.
//! 2. [`lay_out`]: the compiled site copied into the output directory, the placeholder replaced
//!    by the public URL in every file that names it, and the site's settings
//!    (`registry_core::SiteSettings`) written into its pages' templates, where the app and the
//!    renderer read them. Changing a setting re-renders pages and compiles nothing.
//! 3. The Content-Security-Policy of the templates (their inline scripts' hashes, the data
//!    files' origins: [`crate::csp`]) written into them, so every rendered page carries it.
//! 4. The site's own renderer writes every page's HTML into the template ([`pages`]):
//!    `index.html`, `404.html` (which static hosts such as GitHub Pages serve for deep links
//!    they do not have), `shell.html`, a page per registry entry and the preview's page; every
//!    page is then checked against the policy.
//! 5. The service worker with the build's files ([`crate::offline`]), `_headers`, the sizes of
//!    what a visitor downloads (raw and brotli at quality 11), and `.br`/`.gz` copies of every
//!    text file.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail, ensure};
use sha2::{Digest, Sha256};

use crate::options::{DistOptions, RegistryKind};
use crate::pages;
use crate::setup::{self, Output, Tools};
use crate::start_script;

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
    let settings = &options.settings;
    println!(
        "building the site (public URL {}, {} registry {}) …",
        settings.public_url,
        settings.kind.as_str(),
        settings.registry_url
    );
    let compiled = compile(tools, settings.kind, Output::Terminal)?;
    // Read before the output folder is emptied: the previous site may be that folder.
    let previous_changes = pages::keep_previous_changes(tools.root(), options)?;
    lay_out(tools.root(), &compiled, options)?;
    let with_preview = settings.kind == RegistryKind::Acp;
    let preview_dir = out_dir.join("preview");
    // The policy comes from the templates, before any registry text is in them; the renderers
    // copy their head, and so the policy, into every page.
    let policy = crate::csp::write_into_templates(out_dir, options.data_urls())?;
    pages::render(tools, options, with_preview, previous_changes.as_deref())?;
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
    let cache = crate::precompress::cache_dir(tools.root());
    let mut report = measure(out_dir, &cache)?;
    if with_preview {
        report.preview = Some(measure(&preview_dir, &cache)?.assets);
    }
    // Last, so that every text file written above gets its `.br` and `.gz` beside it.
    crate::precompress::write_beside(out_dir, &cache)?;
    Ok(report)
}

/// The public URL the site is compiled under: every file naming it gets the real one when the
/// site is laid out ([`lay_out`]). Trunk writes it into the pages' `<base>`, their links and
/// the start-up script.
pub const PLACEHOLDER_URL: &str = "/__acp_public_url__/";

/// The file beside a compiled site holding the [`fingerprint`] of what it was compiled from.
const FINGERPRINT_FILE: &str = ".fingerprint";

/// Where Cargo compiles the release site: a target directory of its own, so that the release
/// build can run beside the native and test builds of `target/` (they share no artifact, and
/// Cargo locks a whole target directory while it builds).
pub const RELEASE_TARGET_DIR: &str = "target/site-build";

/// Compiles the site for registries of `kind` into `target/site/<kind>/`, unless what is there
/// was compiled from the same sources; returns the folder.
pub fn compile(tools: &Tools, kind: RegistryKind, output: Output) -> Result<PathBuf> {
    start_script::check(tools.root())?;
    let dir = tools.root().join("target").join("site").join(kind.as_str());
    let fingerprint = fingerprint(tools.root(), kind)?;
    let stamp = dir.join(FINGERPRINT_FILE);
    if fs::read_to_string(&stamp).is_ok_and(|kept| kept == fingerprint) {
        println!(
            "✓ the site for {} registries is compiled from these sources ({})",
            kind.as_str(),
            dir.display()
        );
        return Ok(dir);
    }
    let features = match kind {
        RegistryKind::Acp => None,
        RegistryKind::AgentRegistry => Some("agentregistry"),
    };
    fs::remove_file(&stamp).ok();
    trunk_build(tools, SITE_HTML, PLACEHOLDER_URL, features, &dir, output)?;
    // The listing preview (of ACP manifests): its own package and bundle, in `preview/`, after
    // the catalogue's build (which empties the folder).
    if kind == RegistryKind::Acp {
        let preview_url = format!("{PLACEHOLDER_URL}preview/");
        trunk_build(
            tools,
            PREVIEW_HTML,
            &preview_url,
            None,
            &dir.join("preview"),
            output,
        )?;
    }
    fs::write(&stamp, fingerprint).with_context(|| format!("writing {}", stamp.display()))?;
    Ok(dir)
}

/// Runs a release `trunk build` of the entry point `html`, published at `public_url`, with the
/// app's `features`, into `out_dir`.
fn trunk_build(
    tools: &Tools,
    html: &str,
    public_url: &str,
    features: Option<&str>,
    out_dir: &Path,
    output: Output,
) -> Result<()> {
    let mut trunk = tools.command("trunk");
    trunk
        .args(["build", html, "--release", "--public-url", public_url])
        .arg("--dist")
        .arg(out_dir)
        .env("CARGO_TARGET_DIR", tools.root().join(RELEASE_TARGET_DIR));
    if let Some(features) = features {
        trunk.args(["--features", features]);
    }
    output.apply(&mut trunk)?;
    setup::run(&mut trunk)
}

/// What the wasm, its glue, the stylesheet and the copied files are made from: the files Trunk
/// reads and the crates compiled into the wasm (with their Cargo manifests, lock file, tool
/// versions and compiler settings), not their tests.
const COMPILED_FROM: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    "Trunk.toml",
    "index.html",
    "package-lock.json",
    "rust-toolchain.toml",
    ".cargo/config.toml",
    "src",
    "styles",
    "public",
    "vendor",
    "crates/registry-core/Cargo.toml",
    "crates/registry-core/src",
    "crates/lookalike-worker/Cargo.toml",
    "crates/lookalike-worker/src",
    "crates/registry-validate/Cargo.toml",
    "crates/registry-validate/src",
    "crates/site-preview",
];

/// A hash of every file the site for `kind` is compiled from ([`COMPILED_FROM`], recursively,
/// in a fixed order, with its path), of the kind and of the placeholder: equal hashes, equal
/// builds.
pub fn fingerprint(root: &Path, kind: RegistryKind) -> Result<String> {
    let mut files = Vec::new();
    for source in COMPILED_FROM {
        collect_files(&root.join(source), &mut files)?;
    }
    files.sort();
    let mut hash = Sha256::new();
    hash.update(kind.as_str());
    hash.update(PLACEHOLDER_URL);
    for file in files {
        let bytes = fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
        let name = file.strip_prefix(root).unwrap_or(&file);
        hash.update(name.to_string_lossy().as_bytes());
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(&bytes);
    }
    Ok(format!("{:x}", hash.finalize()))
}

/// Every file at or below `path` (nothing when it does not exist).
fn collect_files(path: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    if path.is_file() {
        files.push(path.to_path_buf());
    } else if path.is_dir() {
        for entry in fs::read_dir(path).with_context(|| format!("listing {}", path.display()))? {
            collect_files(&entry?.path(), files)?;
        }
    }
    Ok(())
}

/// Lays the site compiled in `compiled` out in `options.out_dir` for its settings: a copy, with
/// [`PLACEHOLDER_URL`] replaced by the public URL wherever a text file names it, and the
/// settings block written into the templates (`index.html`, `preview/index.html`) before
/// `</head>`. The output directory is emptied first, if it is one this command could have
/// written (it holds an `index.html`, or nothing).
pub fn lay_out(root: &Path, compiled: &Path, options: &DistOptions) -> Result<()> {
    let out_dir = &options.out_dir;
    if root.starts_with(out_dir) || out_dir.starts_with(compiled) {
        bail!(
            "output directory {} contains the repository or its compiled site, and would be \
             emptied: choose another",
            out_dir.display()
        );
    }
    if out_dir.exists() {
        let empty = fs::read_dir(out_dir)
            .with_context(|| format!("listing {}", out_dir.display()))?
            .next()
            .is_none();
        ensure!(
            empty || out_dir.join("index.html").is_file(),
            "output directory {} is neither empty nor a built site (it has no index.html): \
             it is emptied before a build, so choose another",
            out_dir.display()
        );
        fs::remove_dir_all(out_dir).with_context(|| format!("emptying {}", out_dir.display()))?;
    }
    copy_dir(compiled, out_dir)?;
    fs::remove_file(out_dir.join(FINGERPRINT_FILE)).ok();
    let public_url = &options.settings.public_url;
    let block = options.settings.to_html();
    let mut rest = Vec::new();
    relocate(out_dir, public_url, &mut rest)?;
    ensure!(
        rest.is_empty(),
        "the compiled site names its placeholder public URL `{PLACEHOLDER_URL}` in files that \
         are not text: {}",
        rest.iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    for template in [
        out_dir.join("index.html"),
        out_dir.join("preview/index.html"),
    ] {
        if !template.is_file() {
            continue;
        }
        let html = fs::read_to_string(&template)
            .with_context(|| format!("reading {}", template.display()))?;
        let Some(head_end) = html.find("</head>") else {
            bail!("{} has no </head>", template.display());
        };
        let html = format!("{}{block}{}", &html[..head_end], &html[head_end..]);
        fs::write(&template, html).with_context(|| format!("writing {}", template.display()))?;
    }
    Ok(())
}

/// Replaces [`PLACEHOLDER_URL`] by `public_url` in the HTML, JavaScript and CSS files below
/// `dir`; collects the other files that name it into `rest`.
fn relocate(dir: &Path, public_url: &str, rest: &mut Vec<PathBuf>) -> Result<()> {
    for entry in fs::read_dir(dir).with_context(|| format!("listing {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            relocate(&path, public_url, rest)?;
            continue;
        }
        let bytes = fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        if !bytes
            .windows(PLACEHOLDER_URL.len())
            .any(|window| window == PLACEHOLDER_URL.as_bytes())
        {
            continue;
        }
        let text_file = matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("html" | "js" | "css")
        );
        match String::from_utf8(bytes) {
            Ok(text) if text_file => {
                fs::write(&path, text.replace(PLACEHOLDER_URL, public_url))
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            _ => rest.push(path),
        }
    }
    Ok(())
}

/// Copies the directory tree `from` to `to`.
pub fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    fs::create_dir_all(to).with_context(|| format!("creating {}", to.display()))?;
    for entry in fs::read_dir(from).with_context(|| format!("listing {}", from.display()))? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), &target)
                .with_context(|| format!("copying {}", entry.path().display()))?;
        }
    }
    Ok(())
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
fn measure(out_dir: &Path, cache: &Path) -> Result<DistReport> {
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
        let (raw, brotli) = (
            bytes.len() as u64,
            crate::precompress::brotli_size(&bytes, cache)?,
        );
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::SiteSettings;

    /// A fresh folder under the temp dir.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-dist-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write(path: &Path, text: impl AsRef<[u8]>) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    #[test]
    fn a_compiled_site_is_laid_out_under_its_public_url_with_its_settings() {
        let root = scratch("lay-out");
        let compiled = root.join("compiled");
        let p = PLACEHOLDER_URL;
        write(
            &compiled.join("index.html"),
            format!(
                "<html><head><base href={p}><link href=\"{p}app.css\"><script>import(\"{p}app.js\")</script></head><body></body></html>"
            ),
        );
        write(
            &compiled.join("preview/index.html"),
            format!("<head><base href={p}preview/></head>"),
        );
        write(
            &compiled.join("loader.js"),
            format!("importScripts('{p}worker.js')"),
        );
        write(&compiled.join("app_bg.wasm"), [0u8, 97, 115, 109, 0xff]);
        write(&compiled.join(FINGERPRINT_FILE), "hash");
        let out = root.join("out");
        write(&out.join("index.html"), "an earlier build");
        write(&out.join("stale.txt"), "left by the earlier build");
        let settings = SiteSettings {
            public_url: "/acp/registry/".into(),
            ..SiteSettings::default()
        };
        let options = DistOptions::new(settings.clone(), out.clone()).unwrap();
        lay_out(&root.join("repo"), &compiled, &options).unwrap();

        let index = fs::read_to_string(out.join("index.html")).unwrap();
        assert!(!index.contains(p), "{index}");
        assert!(index.contains("<base href=/acp/registry/>"), "{index}");
        assert!(
            index.contains("import(\"/acp/registry/app.js\")"),
            "{index}"
        );
        assert!(
            index.contains(&format!("{}</head>", settings.to_html())),
            "{index}"
        );
        assert_eq!(SiteSettings::from_page(&index), Ok(settings.clone()));
        let preview = fs::read_to_string(out.join("preview/index.html")).unwrap();
        assert!(
            preview.contains("<base href=/acp/registry/preview/>"),
            "{preview}"
        );
        assert_eq!(SiteSettings::from_page(&preview), Ok(settings));
        assert_eq!(
            fs::read_to_string(out.join("loader.js")).unwrap(),
            "importScripts('/acp/registry/worker.js')"
        );
        assert_eq!(
            fs::read(out.join("app_bg.wasm")).unwrap(),
            [0, 97, 115, 109, 0xff]
        );
        assert!(!out.join(FINGERPRINT_FILE).exists());
        assert!(
            !out.join("stale.txt").exists(),
            "the output was emptied first"
        );
        // The compiled site is left as it was, for the next configuration.
        assert!(
            fs::read_to_string(compiled.join("index.html"))
                .unwrap()
                .contains(p)
        );

        // A folder that is not a built site is not emptied.
        let documents = root.join("documents");
        write(&documents.join("notes.txt"), "mine");
        let options = DistOptions::bundled("/", documents.clone()).unwrap();
        let error = lay_out(&root.join("repo"), &compiled, &options).unwrap_err();
        assert!(
            error.to_string().contains("neither empty nor a built site"),
            "{error}"
        );
        assert!(documents.join("notes.txt").exists());

        // A binary file naming the placeholder cannot be relocated: refused, not shipped.
        write(&compiled.join("odd.png"), format!("\u{0}{p}"));
        let options = DistOptions::bundled("/", out.clone()).unwrap();
        let error = lay_out(&root.join("repo"), &compiled, &options).unwrap_err();
        assert!(error.to_string().contains("odd.png"), "{error}");
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_fingerprint_follows_the_sources_the_site_is_compiled_from() {
        let root = scratch("fingerprint");
        write(&root.join("src/app.rs"), "fn app() {}");
        write(
            &root.join("crates/registry-core/src/lib.rs"),
            "pub fn core() {}",
        );
        write(
            &root.join("crates/registry-core/tests/core.rs"),
            "#[test] fn t() {}",
        );
        write(&root.join("Cargo.lock"), "lock");
        let acp = fingerprint(&root, RegistryKind::Acp).unwrap();
        assert_eq!(
            fingerprint(&root, RegistryKind::Acp).unwrap(),
            acp,
            "stable"
        );
        assert_ne!(
            fingerprint(&root, RegistryKind::AgentRegistry).unwrap(),
            acp
        );
        // A test, or anything not compiled into the site, changes nothing.
        write(
            &root.join("crates/registry-core/tests/core.rs"),
            "#[test] fn u() {}",
        );
        write(&root.join("xtask/src/main.rs"), "fn main() {}");
        assert_eq!(fingerprint(&root, RegistryKind::Acp).unwrap(), acp);
        for (file, text) in [
            ("src/app.rs", "fn app() { }"),
            ("crates/registry-core/src/new.rs", ""),
            ("Cargo.lock", "lock 2"),
        ] {
            let before = fingerprint(&root, RegistryKind::Acp).unwrap();
            write(&root.join(file), text);
            assert_ne!(
                fingerprint(&root, RegistryKind::Acp).unwrap(),
                before,
                "{file}"
            );
        }
        // A file moved with the same content is another source.
        let before = fingerprint(&root, RegistryKind::Acp).unwrap();
        fs::rename(root.join("src/app.rs"), root.join("src/page.rs")).unwrap();
        assert_ne!(fingerprint(&root, RegistryKind::Acp).unwrap(), before);
        fs::remove_dir_all(&root).unwrap();
    }
}
