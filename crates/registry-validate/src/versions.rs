//! Versions written inside archive URLs and package specs, read exactly as the registry's CI
//! reads them, so that "versions must agree" means the same thing here and there.
//!
//! They are the versions inside GitHub release paths (`/download/v1.2.3/`) and npm tarball names,
//! and those of npx specs (`@scope/name@1.2.3`) and uvx specs (`pkg==1.2.3`).

use std::sync::LazyLock;

use regex::Regex;

/// A version found in an archive URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct UrlVersion {
    /// As written in the URL: `1.9`, `0.3.0`.
    pub(crate) written: String,
    /// What the CI compares with `version`: for a release path, the first three parts, padded
    /// with `0` (`1.9` → `1.9.0`, `1.18.31.1` → `1.18.31`).
    pub(crate) compared: String,
    /// Where it was found, for the message: `the GitHub release path /download/v1.9/`.
    pub(crate) source: String,
}

/// `/download/vX/` or `/releases/vX/` (`v` optional).
static RELEASE_PATH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"/(download|releases)/(v?)([\d.]+)/").expect("valid regex"));
/// `/-/name-X.Y.Z.tgz`, an npm tarball.
static NPM_TARBALL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"/-/[^/]+-(\d+\.\d+\.\d+)\.tgz").expect("valid regex"));
/// The version of a uvx spec: after `==`, `>=` or `@`, with a `-preview.N` suffix (the CI's
/// `UVX_VERSION_PATTERN`, `registry_utils.py`).
static UVX_VERSION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[=@]+([\d.]+(?:-preview\.\d+)?)").expect("valid regex"));
/// A preview channel's version: a release or a preview of one (`X.Y.Z`, `X.Y.Z-preview.N`;
/// the CI's `PREVIEW_VERSION_RE`, `registry_utils.py`, and `FORMAT.md`).
static PREVIEW_VERSION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\d+\.\d+\.\d+(?:-preview\.\d+)?$").expect("valid regex"));
/// A release with a prerelease or build suffix: `1.9.0-rc.1`, `1.9.0+build`.
static SUFFIXED_RELEASE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d+\.\d+\.\d+)[-+]").expect("valid regex"));

/// The version an archive URL carries, if any: a GitHub release path first, else an npm
/// tarball name.
pub(crate) fn url_version(url: &str) -> Option<UrlVersion> {
    if let Some(found) = RELEASE_PATH.captures(url) {
        let written = found[3].to_owned();
        return Some(UrlVersion {
            compared: three_parts(&written),
            source: format!("the release path /{}/{}{}/", &found[1], &found[2], written),
            written,
        });
    }
    NPM_TARBALL.captures(url).map(|found| UrlVersion {
        written: found[1].to_owned(),
        compared: found[1].to_owned(),
        source: format!("the npm tarball name {}", &found[0][3..]),
    })
}

/// The first three dot-separated parts, padded with `0`.
fn three_parts(version: &str) -> String {
    let mut parts: Vec<&str> = version.split('.').take(3).collect();
    while parts.len() < 3 {
        parts.push("0");
    }
    parts.join(".")
}

/// An npx spec split into name and version: `@scope/name@1.2.3` → (`@scope/name`, `1.2.3`),
/// `name@1.2.3` → (`name`, `1.2.3`), `name` → (`name`, `None`).
pub(crate) fn npm_spec(spec: &str) -> (&str, Option<&str>) {
    let search_from = usize::from(spec.starts_with('@'));
    match spec[search_from..].find('@') {
        Some(at) => {
            let at = at + search_from;
            let version = &spec[at + 1..];
            // Like the CI, an unscoped `a@b@c` has version `b`.
            let version = if search_from == 0 {
                version.split('@').next().unwrap_or(version)
            } else {
                version
            };
            (&spec[..at], Some(version))
        }
        None => (spec, None),
    }
}

/// The version of a uvx spec (`pkg==1.2.3`, `pkg>=1.2.3`, `pkg@1.2.3`), if it has one.
pub(crate) fn uvx_version(spec: &str) -> Option<&str> {
    UVX_VERSION
        .captures(spec)
        .and_then(|found| found.get(1))
        .map(|m| m.as_str())
}

/// The PyPI project of a uvx spec: `pkg[extra]==1.2` → `pkg`.
pub(crate) fn pypi_name(spec: &str) -> &str {
    let end = spec
        .find(['<', '>', '=', '!', '@', '[', '~', ';', ' '])
        .unwrap_or(spec.len());
    &spec[..end]
}

/// The name the CI looks up on PyPI (`extract_pypi_package_name`): the spec up to the first of
/// `<>=!@`. Unlike [`pypi_name`], extras stay part of it (`pkg[x]==1.2` → `pkg[x]`), as there.
pub(crate) fn ci_pypi_name(spec: &str) -> &str {
    &spec[..spec.find(['<', '>', '=', '!', '@']).unwrap_or(spec.len())]
}

/// Whether a spec pins `@latest` (any case), which the CI refuses.
pub(crate) fn pins_latest(spec: &str) -> bool {
    spec.to_ascii_lowercase().contains("@latest")
}

/// `major.minor.patch[.more]`, the first three all digits: the CI's `version` rule.
pub(crate) fn is_release_version(version: &str) -> bool {
    let parts: Vec<&str> = version.split('.').collect();
    parts.len() >= 3
        && parts[..3]
            .iter()
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `version` may be a `preview.version`: `X.Y.Z` or `X.Y.Z-preview.N`.
pub(crate) fn is_preview_version(version: &str) -> bool {
    PREVIEW_VERSION.is_match(version)
}

/// For a version the CI refuses as the root `version` because it carries a prerelease or
/// build suffix (`1.9.0-preview.1`, `1.9.0+b`), its release (`1.9.0`).
pub(crate) fn prerelease_of(version: &str) -> Option<&str> {
    if is_release_version(version) {
        return None;
    }
    SUFFIXED_RELEASE
        .captures(version)
        .and_then(|found| found.get(1))
        .map(|m| m.as_str())
}

/// The preview version a malformed one most likely meant: `1.9-preview.1` → `1.9.0-preview.1`,
/// `1.9.0-rc.2` → `1.9.0-preview.2`, `1.9.0-preview` → `1.9.0-preview.1`; `None` without digits.
pub(crate) fn suggest_preview(version: &str) -> Option<String> {
    let trimmed = version.trim().trim_start_matches(['v', 'V']);
    let core_end = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let mut core: Vec<&str> = trimmed[..core_end]
        .split('.')
        .filter(|part| !part.is_empty())
        .take(3)
        .collect();
    if core.is_empty() {
        return None;
    }
    while core.len() < 3 {
        core.push("0");
    }
    let rest = &trimmed[core_end..];
    let counter: String = rest
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let counter = if counter.is_empty() { "1" } else { &counter };
    Some(format!("{}-preview.{counter}", core.join(".")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_in_urls() {
        let table: &[(&str, Option<(&str, &str)>)] = &[
            (
                "https://github.com/o/r/releases/download/v0.9.2/x.tar.gz",
                Some(("0.9.2", "0.9.2")),
            ),
            (
                "https://github.com/o/r/releases/download/1.9/x.zip",
                Some(("1.9", "1.9.0")),
            ),
            (
                "https://github.com/o/r/releases/download/v1.18.31.1/x.zip",
                Some(("1.18.31.1", "1.18.31")),
            ),
            ("https://example.com/releases/v2/x", Some(("2", "2.0.0"))),
            (
                "https://github.com/o/r/releases/download/cli-v1.0.0/x.zip",
                None,
            ),
            (
                "https://registry.npmjs.org/pkg/-/pkg-1.2.3.tgz",
                Some(("1.2.3", "1.2.3")),
            ),
            (
                "https://registry.npmjs.org/@s/p/-/p-core-0.1.0.tgz",
                Some(("0.1.0", "0.1.0")),
            ),
            (
                "https://downloads.example.com/lab/2026.10.01-e3/x.tar.gz",
                None,
            ),
            (
                "https://github.com/o/r/releases/latest/download/x.zip",
                None,
            ),
        ];
        for &(url, expect) in table {
            let got = url_version(url);
            let got = got
                .as_ref()
                .map(|v| (v.written.as_str(), v.compared.as_str()));
            assert_eq!(got, expect, "{url}");
        }
    }

    #[test]
    fn preview_versions() {
        // FORMAT.md "Preview Channel" and the CI's `test_malformed_preview_version`.
        for good in [
            "1.9.0-preview.1",
            "1.9.0-preview.10",
            "1.9.1",
            "0.0.0-preview.0",
        ] {
            assert!(is_preview_version(good), "{good}");
        }
        for bad in [
            "1.9-preview.1",
            "1.9.0-preview",
            "1.9.0-rc.1",
            "1.9.0+preview.1",
            "latest",
            "1.0-preview-1",
            "1.9.0.1",
            " 1.9.0",
        ] {
            assert!(!is_preview_version(bad), "{bad}");
        }
        let suggestions = [
            ("1.9-preview.1", Some("1.9.0-preview.1")),
            ("1.9.0-preview", Some("1.9.0-preview.1")),
            ("1.9.0-rc.2", Some("1.9.0-preview.2")),
            ("1.9.0+preview.1", Some("1.9.0-preview.1")),
            ("1.0-preview-1", Some("1.0.0-preview.1")),
            ("latest", None),
        ];
        for (version, expect) in suggestions {
            assert_eq!(suggest_preview(version).as_deref(), expect, "{version}");
        }
        assert_eq!(prerelease_of("1.9.0-preview.1"), Some("1.9.0"));
        assert_eq!(prerelease_of("1.9.0+build.2"), Some("1.9.0"));
        assert_eq!(prerelease_of("1.9.0"), None);
        assert_eq!(prerelease_of("1.9"), None);
        assert_eq!(
            uvx_version("acp-a==1.9.0-preview.1"),
            Some("1.9.0-preview.1")
        );
        assert_eq!(uvx_version("acp-a==1.9.0rc1"), Some("1.9.0"));
    }

    #[test]
    fn npm_specs() {
        let table = [
            ("@scope/name@1.2.3", ("@scope/name", Some("1.2.3"))),
            ("@scope/name", ("@scope/name", None)),
            ("name@1.2.3", ("name", Some("1.2.3"))),
            ("name", ("name", None)),
            ("a@b@c", ("a", Some("b"))),
            ("@s/n@latest", ("@s/n", Some("latest"))),
        ];
        for (spec, expect) in table {
            assert_eq!(npm_spec(spec), expect, "{spec}");
        }
    }

    #[test]
    fn uvx_specs() {
        let table = [
            ("pkg==1.2.3", Some("1.2.3"), "pkg", "pkg"),
            ("pkg>=1.2", Some("1.2"), "pkg", "pkg"),
            ("pkg@0.4.0", Some("0.4.0"), "pkg", "pkg"),
            ("pkg!=1.0", Some("1.0"), "pkg", "pkg"),
            ("pkg[extra]==2.0.0", Some("2.0.0"), "pkg", "pkg[extra]"),
            ("pkg~=2.0", Some("2.0"), "pkg", "pkg~"),
            ("pkg", None, "pkg", "pkg"),
            ("pkg@latest", None, "pkg", "pkg"),
        ];
        for (spec, version, name, ci_name) in table {
            assert_eq!(uvx_version(spec), version, "{spec}");
            assert_eq!(pypi_name(spec), name, "{spec}");
            assert_eq!(ci_pypi_name(spec), ci_name, "{spec}");
        }
    }

    #[test]
    fn release_versions() {
        let table = [
            ("1.2.3", true),
            ("1.2.3.4", true),
            ("0.0.0", true),
            ("2026.10.01", true),
            ("1.2", false),
            ("1.2.3-beta", false),
            ("v1.2.3", false),
            ("1..3", false),
            ("", false),
        ];
        for (version, expect) in table {
            assert_eq!(is_release_version(version), expect, "{version}");
        }
    }
}
