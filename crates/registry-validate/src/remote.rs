//! What `--check-urls` should try: each archive URL, each npm and PyPI package, with the place
//! in the manifest to blame when it fails. The requests themselves are the caller's (IO).
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
    /// An npm package (at a version, when the spec pins one).
    NpmPackage {
        /// `@scope/name@1.2.3`.
        spec: String,
    },
    /// A PyPI package (at a version, when the spec pins one).
    PypiPackage {
        /// `name==1.2.3`.
        spec: String,
    },
}

/// One URL to try: it must answer HTTP 200.
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
    /// The diagnostic for a failed check; `reason` says what happened (`HTTP 404`, `timed out`).
    pub fn failure(&self, reason: &str) -> Diagnostic {
        let (message, hint) = match &self.remote {
            Remote::Archive { platform } => (
                format!(
                    "the {platform} archive {} does not answer 200 ({reason})",
                    self.url
                ),
                "check the release exists and the asset name is exact".to_owned(),
            ),
            Remote::NpmPackage { spec } => (
                format!(
                    "the npm package \"{spec}\" was not found ({reason} from {})",
                    self.url
                ),
                "publish that version to npm, or fix the package name and version".to_owned(),
            ),
            Remote::PypiPackage { spec } => (
                format!(
                    "the PyPI package \"{spec}\" was not found ({reason} from {})",
                    self.url
                ),
                "publish that version to PyPI, or fix the package name and version".to_owned(),
            ),
        };
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
    /// The URLs the CI checks when online, for every readable manifest: each binary archive,
    /// `<npm>/<name>/<version>` for npx and `<pypi>/<name>/<version>/json` for uvx (without the
    /// version when the spec has none).
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
                let npm = endpoints.npm.trim_end_matches('/');
                let url = match versions::npm_spec(spec) {
                    (name, Some(version)) => format!("{npm}/{name}/{version}"),
                    (name, None) => format!("{npm}/{name}"),
                };
                let remote = Remote::NpmPackage {
                    spec: spec.to_owned(),
                };
                check(url, remote, "/distribution/npx/package");
            }
            if let Some(spec) = package("uvx") {
                let pypi = endpoints.pypi.trim_end_matches('/');
                let name = versions::pypi_name(spec);
                let url = match versions::uvx_version(spec) {
                    Some(version) => format!("{pypi}/{name}/{version}/json"),
                    None => format!("{pypi}/{name}/json"),
                };
                let remote = Remote::PypiPackage {
                    spec: spec.to_owned(),
                };
                check(url, remote, "/distribution/uvx/package");
            }
        }
        checks
    }
}
