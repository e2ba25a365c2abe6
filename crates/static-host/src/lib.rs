//! How a plain static host (GitHub Pages) answers a request path, without the IO: `xtask serve`
//! (a built folder) and `acp-registry preview` (a build in memory beside the embedded site) both
//! answer requests this way, so what passes locally passes when published.
//!
//! - Only paths under the public URL exist: `/acp/registry/x` is the file `x`, anything else is
//!   [`Resolved::Outside`], and `/acp/registry` redirects to `/acp/registry/`.
//! - A directory path is its `index.html`; a directory named without its trailing slash
//!   redirects to it (`/preview` → `/preview/`), keeping the query.
//! - A path that names no file is [`Resolved::Missing`]: the host answers 404 with its
//!   `404.html`, the app's fallback, so deep links like `/agents/gemini` load the app.
//! - Paths are percent-decoded; `.`/`..` segments, backslashes and NULs never reach a file.
//! - Text is answered in brotli or gzip when the request allows, as hosts do: see [`encoding`].
//!
//! ```
//! use static_host::{Resolved, resolve};
//!
//! let files = ["index.html", "preview/index.html", "app.wasm"];
//! let is_file = |path: &str| files.contains(&path);
//! assert_eq!(resolve("/", "/preview?x=1", is_file), Resolved::Redirect("/preview/?x=1".into()));
//! assert_eq!(resolve("/", "/preview/", is_file), Resolved::File("preview/index.html".into()));
//! assert_eq!(resolve("/", "/agents/gemini", is_file), Resolved::Missing);
//! ```
#![deny(missing_docs)]

pub mod encoding;

/// What a request path maps to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// A file of the site: its path relative to the site's root, `/`-separated.
    File(String),
    /// A permanent redirect to this location (a directory named without its trailing slash).
    Redirect(String),
    /// Under the public URL but not a file: answered with the site's `404.html`.
    Missing,
    /// Outside the public URL altogether: a plain 404.
    Outside,
}

/// Maps a request target (path and query) to what to answer, for a site published under
/// `public_url` (starting and ending with `/`) whose files `is_file` knows by relative path.
pub fn resolve(public_url: &str, target: &str, is_file: impl Fn(&str) -> bool) -> Resolved {
    let (path, query) = match target.find(['?', '#']) {
        Some(at) => target.split_at(at),
        None => (target, ""),
    };
    let Some(rest) = path.strip_prefix(public_url) else {
        return if format!("{path}/") == public_url {
            Resolved::Redirect(format!("{public_url}{query}"))
        } else {
            Resolved::Outside
        };
    };
    let Ok(decoded) = percent_encoding::percent_decode_str(rest).decode_utf8() else {
        return Resolved::Missing;
    };
    let mut segments = Vec::new();
    for segment in decoded.split('/').filter(|segment| !segment.is_empty()) {
        if segment == "." || segment == ".." || segment.contains(['\\', '\0']) {
            return Resolved::Missing;
        }
        segments.push(segment);
    }
    let file = segments.join("/");
    let index = if file.is_empty() {
        "index.html".to_owned()
    } else {
        format!("{file}/index.html")
    };
    if decoded.is_empty() || decoded.ends_with('/') {
        return if is_file(&index) {
            Resolved::File(index)
        } else {
            Resolved::Missing
        };
    }
    if is_file(&file) {
        Resolved::File(file)
    } else if is_file(&index) {
        Resolved::Redirect(format!("{path}/{query}"))
    } else {
        Resolved::Missing
    }
}

/// The `Content-Type` for a file, by extension: the ones browsers insist on (`application/wasm`
/// for streaming compilation, `text/javascript` for modules), `application/octet-stream` else.
pub fn content_type(path: &str) -> &'static str {
    let name = path.rsplit('/').next().unwrap_or(path);
    let extension = name.rsplit_once('.').map_or("", |(_, ext)| ext);
    match extension.to_ascii_lowercase().as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript",
        "wasm" => "application/wasm",
        "css" => "text/css",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "txt" => "text/plain; charset=utf-8",
        "xml" => "application/xml",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILES: [&str; 4] = ["index.html", "404.html", "app.wasm", "agents/x/index.html"];

    fn is_file(path: &str) -> bool {
        FILES.contains(&path)
    }

    #[test]
    fn resolves_paths_like_a_static_host() {
        let file = |path: &str| Resolved::File(path.into());
        let redirect = |to: &str| Resolved::Redirect(to.into());
        let cases = [
            ("/acp/registry/", file("index.html")),
            ("/acp/registry/?q=gemini", file("index.html")),
            ("/acp/registry/app.wasm", file("app.wasm")),
            ("/acp/registry//app.wasm", file("app.wasm")),
            ("/acp/registry/agents/x/", file("agents/x/index.html")),
            (
                "/acp/registry/agents/x",
                redirect("/acp/registry/agents/x/"),
            ),
            (
                "/acp/registry/agents/x?a=1",
                redirect("/acp/registry/agents/x/?a=1"),
            ),
            ("/acp/registry", redirect("/acp/registry/")),
            ("/acp/registry?q=a", redirect("/acp/registry/?q=a")),
            ("/acp/registry/agents/nope", Resolved::Missing),
            ("/acp/registry/agents/", Resolved::Missing),
            ("/acp/registry/%2e%2e/secret", Resolved::Missing),
            ("/acp/registry/../secret", Resolved::Missing),
            ("/acp/registry/a%5c..%5cb", Resolved::Missing),
            ("/acp/registry/%ff", Resolved::Missing),
            ("/app.wasm", Resolved::Outside),
            ("/", Resolved::Outside),
        ];
        for (target, expected) in cases {
            assert_eq!(
                resolve("/acp/registry/", target, is_file),
                expected,
                "{target}"
            );
        }
    }

    #[test]
    fn at_the_root() {
        assert_eq!(
            resolve("/", "/", is_file),
            Resolved::File("index.html".into())
        );
        assert_eq!(
            resolve("/", "/agents/x", is_file),
            Resolved::Redirect("/agents/x/".into())
        );
        assert_eq!(resolve("/", "/agents/gemini", is_file), Resolved::Missing);
    }

    #[test]
    fn content_types_are_the_ones_browsers_need() {
        let cases = [
            ("a.wasm", "application/wasm"),
            ("a.js", "text/javascript"),
            ("gemini.svg", "image/svg+xml"),
            ("registry.json", "application/json"),
            ("preview/main-1.css", "text/css"),
            ("index.html", "text/html; charset=utf-8"),
            ("robots.txt", "text/plain; charset=utf-8"),
            ("LICENSE", "application/octet-stream"),
            ("a.dir/LICENSE", "application/octet-stream"),
        ];
        for (path, expected) in cases {
            assert_eq!(content_type(path), expected, "{path}");
        }
    }
}
