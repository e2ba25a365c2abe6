//! The catalogue site that `preview` serves: the release build embedded at compile time (see
//! `build.rs`), or a built folder given with `--site-dir`.
//!
//! The embedded build carries the bundled registry (`registry.json`, `<id>.svg`,
//! `REGISTRY-NOTICE.txt`, pre-rendered `agents/<id>/` pages); [`Site::asset`] never answers
//! with those, so the preview's own build is the only registry a maintainer sees. The copies
//! compressed beside text files for static hosts (`<file>.br`, `<file>.gz`) are not read.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/site.rs"));
}

/// The files of a built site, by `/`-separated path relative to its root.
#[derive(Debug, Clone, Default)]
pub struct Site {
    files: BTreeMap<String, Vec<u8>>,
}

impl Site {
    /// The site compiled into this binary, if it was built with `ACP_REGISTRY_SITE_DIR`.
    pub fn embedded() -> Option<Self> {
        if embedded::FILES.is_empty() {
            return None;
        }
        let files = embedded::FILES
            .iter()
            .map(|(path, bytes)| ((*path).to_owned(), served(path, bytes.to_vec())))
            .collect();
        Some(Self { files })
    }

    /// A site from a built folder (`dist/`): every file, recursively.
    pub fn from_dir(dir: &Path) -> anyhow::Result<Self> {
        let mut site = Self::default();
        site.read(dir, "")?;
        anyhow::ensure!(
            site.files.contains_key("index.html"),
            "{} has no index.html: give a built site (`cargo xtask dist --out <dir>`)",
            dir.display()
        );
        Ok(site)
    }

    /// A site from a list of files.
    #[cfg(test)]
    pub fn from_files<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> Self {
        let files = files
            .into_iter()
            .map(|(path, bytes)| (path.to_owned(), bytes.to_vec()))
            .collect();
        Self { files }
    }

    /// A file of the site proper: `None` for missing files and for the bundled registry's.
    pub fn asset(&self, path: &str) -> Option<&[u8]> {
        if is_registry_file(path) {
            return None;
        }
        self.files.get(path).map(Vec::as_slice)
    }

    /// The page for unknown paths: `404.html`, else `index.html` (the app routes deep links).
    pub fn fallback(&self) -> Option<&[u8]> {
        self.asset("404.html").or_else(|| self.asset("index.html"))
    }

    fn read(&mut self, dir: &Path, prefix: &str) -> anyhow::Result<()> {
        let entries =
            std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
        for entry in entries {
            let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            let path = entry.path();
            let relative = format!("{prefix}{name}");
            if path.is_dir() {
                self.read(&path, &format!("{relative}/"))?;
            } else if !is_precompressed_copy(&path) {
                let bytes = std::fs::read(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                let bytes = served(&relative, bytes);
                self.files.insert(relative, bytes);
            }
        }
        Ok(())
    }
}

/// Whether `path` is one of the copies `dist` compresses beside a text file for static hosts,
/// `<file>.br` or `<file>.gz` with `<file>` beside it: left out, since `preview` compresses
/// what it serves itself (and such a copy of `registry.json` is the bundled registry's).
fn is_precompressed_copy(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("");
    name.strip_suffix(".br")
        .or_else(|| name.strip_suffix(".gz"))
        .is_some_and(|file| path.with_file_name(file).is_file())
}

/// Whether a path of a site build belongs to the bundled registry rather than to the app.
/// A file as the preview serves it: a page without the `registryEdition` of its settings, so
/// that the site dates the registry by the build's `Last-Modified`, never by the day of the
/// registry the site was built with.
fn served(path: &str, bytes: Vec<u8>) -> Vec<u8> {
    const KEY: &str = ",\"registryEdition\":\"";
    if !path.ends_with(".html") {
        return bytes;
    }
    let Ok(mut text) = String::from_utf8(bytes) else {
        return Vec::new();
    };
    if let Some(start) = text.find(KEY)
        && let Some(length) = text[start + KEY.len()..].find('"')
    {
        text.replace_range(start..start + KEY.len() + length + 1, "");
    }
    text.into_bytes()
}

fn is_registry_file(path: &str) -> bool {
    let top_level_icon = !path.contains('/') && path.ends_with(".svg") && path != "favicon.svg";
    top_level_icon
        || path.starts_with("agents/")
        || matches!(
            path,
            "registry.json"
                | "registry-for-jetbrains.json"
                | "registry-for-jetbrains-preview.json"
                | "quarantine.json"
                | "REGISTRY-NOTICE.txt"
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_served_without_the_registry_edition() {
        let page = r#"<script type="application/json" id="acp-settings">{"kind":"acp","siteOrigin":"https://x","registryEdition":"2026-08-20"}</script><p>"registryEdition"</p>"#;
        let served =
            String::from_utf8(served("agents/a/index.html", page.as_bytes().to_vec())).unwrap();
        assert_eq!(
            served,
            r#"<script type="application/json" id="acp-settings">{"kind":"acp","siteOrigin":"https://x"}</script><p>"registryEdition"</p>"#
        );
        assert_eq!(served_unchanged("app.js", page), page);
        let without = r#"{"kind":"acp"}"#;
        assert_eq!(served_unchanged("index.html", without), without);
    }

    fn served_unchanged(path: &str, text: &str) -> String {
        String::from_utf8(served(path, text.as_bytes().to_vec())).unwrap()
    }

    #[test]
    fn the_bundled_registry_is_never_served_from_the_site() {
        let cases = [
            ("index.html", false),
            ("404.html", false),
            ("acp-catalog-1.js", false),
            ("acp-catalog-1_bg.wasm", false),
            ("main-1.css", false),
            ("favicon.svg", false),
            ("robots.txt", false),
            ("protocol-matrix.json", false),
            ("registry.json", true),
            ("registry-for-jetbrains.json", true),
            ("registry-for-jetbrains-preview.json", true),
            ("quarantine.json", true),
            ("REGISTRY-NOTICE.txt", true),
            ("gemini.svg", true),
            ("agents/gemini/index.html", true),
        ];
        for (path, bundled) in cases {
            assert_eq!(is_registry_file(path), bundled, "{path}");
        }
        let site = Site::from_files([("registry.json", &b"{}"[..]), ("index.html", b"<p>")]);
        assert_eq!(site.asset("registry.json"), None);
        assert_eq!(site.asset("index.html"), Some(&b"<p>"[..]));
        assert_eq!(site.fallback(), Some(&b"<p>"[..]));
    }
}
