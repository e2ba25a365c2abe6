//! What `--check-urls` should try: each archive URL, each npm and PyPI package, with the place
//! in the manifest to blame when it fails. The requests themselves are the caller's (IO).
//!
//! As the CI (`validate_distribution_urls` in `.github/workflows/build_registry.py`), only the
//! root `distribution` is listed: a `preview` block's packages are never probed. Packages are
//! looked up by name, not version: `<npm>/<name>` and `<pypi>/<name>/json`.
//!
//! Each is a `RemoteCheck`; the npm and PyPI base URLs (`Endpoints`) can be overridden, so tests
//! use a local server.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Rule, Severity, Span};
use crate::manifest::At;
use crate::spans::escape;
use crate::{Validation, versions};

/// The package registries' base URLs (overridable, so tests can use a local server).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoints {
    /// npm: `https://registry.npmjs.org`.
    pub npm: String,
    /// PyPI's JSON API: `https://pypi.org/pypi`.
    pub pypi: String,
}

impl Default for Endpoints {
    fn default() -> Endpoints {
        Endpoints {
            npm: "https://registry.npmjs.org".to_owned(),
            pypi: "https://pypi.org/pypi".to_owned(),
        }
    }
}

/// What a URL stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Remote {
    /// A binary archive, for this platform.
    Archive {
        /// `linux-x86_64`, ...
        platform: String,
    },
    /// An npm package.
    NpmPackage {
        /// `@scope/name`, the spec without its version.
        name: String,
    },
    /// A PyPI package.
    PypiPackage {
        /// The spec up to the first of `<>=!@`, as the CI cuts it.
        name: String,
    },
}

/// One URL to try: it must answer HTTP 200 (after redirects).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteCheck {
    /// The URL to request.
    pub url: String,
    /// What it stands for.
    pub remote: Remote,
    /// The manifest that names it.
    pub file: String,
    /// The value naming it (`archive` or `package`).
    pub span: Option<Span>,
}

impl RemoteCheck {
    /// "was not found" when the registry said so (404 or 410), else "could not be confirmed".
    fn verdict(&self, reason: &str) -> &'static str {
        if reason.contains("HTTP 404") || reason.contains("HTTP 410") {
            "was not found"
        } else {
            "could not be confirmed"
        }
    }

    /// The diagnostic for a URL that was asked and failed; `reason` says what happened
    /// (`HTTP 404`, `redirected to http://… (not https)`).
    pub fn failure(&self, reason: &str) -> Diagnostic {
        let (message, hint) = match &self.remote {
            Remote::Archive { platform } => (
                format!(
                    "the {platform} archive {} does not answer 200 ({reason})",
                    self.url
                ),
                "check the release exists and the asset name is exact".to_owned(),
            ),
            Remote::NpmPackage { name } => (
                format!(
                    "the npm package \"{name}\" {} ({reason} from {})",
                    self.verdict(reason),
                    self.url
                ),
                "publish the package to npm, or fix its name".to_owned(),
            ),
            Remote::PypiPackage { name } => (
                format!(
                    "the PyPI package \"{name}\" {} ({reason} from {})",
                    self.verdict(reason),
                    self.url
                ),
                "publish the package to PyPI, or fix its name".to_owned(),
            ),
        };
        self.diagnostic(message, hint)
    }

    /// The diagnostic for a URL that was not asked at all; `reason` says why (`not https`,
    /// `host resolves to a private address (10.0.0.5)`).
    pub fn refused(&self, reason: &str) -> Diagnostic {
        let (message, hint) = match &self.remote {
            Remote::Archive { platform } => (
                format!(
                    "the {platform} archive {} was not requested ({reason})",
                    self.url
                ),
                "the CI only requests https URLs on public hosts: publish the archive on one"
                    .to_owned(),
            ),
            Remote::NpmPackage { name } => (
                format!(
                    "the npm package \"{name}\" was not looked up ({reason}: {})",
                    self.url
                ),
                "look packages up on an https registry on a public host".to_owned(),
            ),
            Remote::PypiPackage { name } => (
                format!(
                    "the PyPI package \"{name}\" was not looked up ({reason}: {})",
                    self.url
                ),
                "look packages up on an https registry on a public host".to_owned(),
            ),
        };
        self.diagnostic(message, hint)
    }

    fn diagnostic(&self, message: String, hint: String) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            rule: Rule::UrlUnreachable,
            file: self.file.clone(),
            span: self.span,
            message,
            hint,
        }
    }
}

impl Validation {
    /// The URLs the CI checks when online, for every readable manifest's root `distribution`
    /// (never its `preview`): each binary archive, `<npm>/<name>` for npx and
    /// `<pypi>/<name>/json` for uvx.
    pub fn remote_checks(&self, endpoints: &Endpoints) -> Vec<RemoteCheck> {
        let mut checks = Vec::new();
        for entry in &self.entries {
            let Some(parsed) = &entry.parsed else {
                continue;
            };
            let Some(distribution) = parsed.value.get("distribution") else {
                continue;
            };
            let mut check = |url: String, remote: Remote, pointer: &str| {
                checks.push(RemoteCheck {
                    url,
                    remote,
                    file: entry.file.clone(),
                    span: parsed.span(pointer, At::Value),
                });
            };
            if let Some(Value::Object(targets)) = distribution.get("binary") {
                for (platform, target) in targets {
                    if let Some(Value::String(archive)) = target.get("archive") {
                        check(
                            archive.clone(),
                            Remote::Archive {
                                platform: platform.clone(),
                            },
                            &format!("/distribution/binary/{}/archive", escape(platform)),
                        );
                    }
                }
            }
            let package = |method: &str| {
                distribution
                    .get(method)
                    .and_then(|m| m.get("package"))
                    .and_then(Value::as_str)
                    .filter(|spec| !spec.trim().is_empty())
            };
            if let Some(spec) = package("npx") {
                let name = versions::npm_spec(spec).0;
                let url = format!("{}/{name}", endpoints.npm.trim_end_matches('/'));
                let remote = Remote::NpmPackage {
                    name: name.to_owned(),
                };
                check(url, remote, "/distribution/npx/package");
            }
            if let Some(spec) = package("uvx") {
                let name = versions::ci_pypi_name(spec);
                let url = format!("{}/{name}/json", endpoints.pypi.trim_end_matches('/'));
                let remote = Remote::PypiPackage {
                    name: name.to_owned(),
                };
                check(url, remote, "/distribution/uvx/package");
            }
        }
        checks
    }
}
