//! The preview channel's rules (`FORMAT.md`, "Preview Channel"; the CI's `validate_preview`,
//! its schema's `preview` definition and `registry_utils.py`): an optional `preview` block
//! holding exactly `version` and `distribution`;
//!
//! - `version` is a release `X.Y.Z` or a preview `X.Y.Z-preview.N`, nothing else;
//! - `distribution` is non-empty and has `npx` and `uvx` packages only (no `binary`), each under
//!   the package rules of the root, its pinned version equal to `preview.version`;
//! - there is no ordering against the stable `version`: a preview at or below it is served as
//!   the stable entry ([`crate::views`]), so a stale block heals itself.
//!
//! The CI checks the block's shape with its schema and the versions in code; here all are
//! built-in rules, so they hold whichever `agent.schema.json` the folder has. A preview's URLs
//! are never probed (`--check-urls` reads the root `distribution` only), as in the CI.

use registry_core::load::describe;
use serde_json::Value;

use crate::diagnostic::Rule;
use crate::manifest::{At, Channel, Sink, check_package_in};
use crate::spans::escape;
use crate::versions;

/// The only keys of a `preview` block.
const KEYS: [&str; 2] = ["version", "distribution"];
/// The only methods of `preview.distribution`.
const METHODS: [&str; 2] = ["npx", "uvx"];
/// The keys of a package distribution (the schema's `packageDistribution`).
const PACKAGE_KEYS: [&str; 3] = ["package", "args", "env"];
/// An example block, for hints.
const EXAMPLE: &str = "\"preview\": {\"version\": \"1.9.0-preview.1\", \"distribution\": {\"npx\": \
                       {\"package\": \"name@1.9.0-preview.1\"}}}";

/// The preview rules on a manifest's `preview` value.
pub(crate) fn check(preview: &Value, sink: &mut Sink<'_>) {
    let Value::Object(block) = preview else {
        sink.error(
            Rule::PreviewShape,
            "/preview",
            At::Value,
            format!("`preview` is {}, not an object", describe(preview)),
            format!("write it as {EXAMPLE}"),
        );
        return;
    };
    for key in block.keys().filter(|key| !KEYS.contains(&key.as_str())) {
        let hint = if key == "name" || key == "description" || key == "repository" {
            format!(
                "remove `preview.{key}`: the top-level `{key}` is shared by both channels and \
                 must not be repeated"
            )
        } else {
            format!("remove `preview.{key}`")
        };
        sink.error(
            Rule::PreviewShape,
            &format!("/preview/{}", escape(key)),
            At::Key,
            format!(
                "`preview.{key}` is not allowed: a preview block holds exactly `version` and \
                 `distribution`, and shares everything else with the stable entry"
            ),
            hint,
        );
    }
    let version = match block.get("version") {
        None => {
            sink.error(
                Rule::PreviewShape,
                "/preview/version",
                At::Missing,
                "`preview` has no `version`".to_owned(),
                "add \"version\": \"X.Y.Z-preview.N\", the version the preview packages pin"
                    .to_owned(),
            );
            None
        }
        Some(Value::String(version)) if versions::is_preview_version(version) => {
            Some(version.as_str())
        }
        Some(Value::String(version)) => {
            let hint = match versions::suggest_preview(version) {
                Some(meant) => format!(
                    "write \"{meant}\" (X.Y.Z-preview.N, N counting from 1), or a plain release \
                     X.Y.Z"
                ),
                None => "write the exact version the preview package is published at: \
                         X.Y.Z-preview.N, or a plain release X.Y.Z"
                    .to_owned(),
            };
            sink.error(
                Rule::PreviewVersion,
                "/preview/version",
                At::Value,
                format!(
                    "`preview.version` \"{version}\" is neither a release (X.Y.Z) nor a preview \
                     (X.Y.Z-preview.N)"
                ),
                hint,
            );
            None
        }
        Some(other) => {
            sink.error(
                Rule::WrongType,
                "/preview/version",
                At::Value,
                format!("`preview.version` is {}, not a string", describe(other)),
                "write it as a string: \"1.9.0-preview.1\"".to_owned(),
            );
            None
        }
    };
    match block.get("distribution") {
        None => sink.error(
            Rule::PreviewShape,
            "/preview/distribution",
            At::Missing,
            "`preview` has no `distribution`".to_owned(),
            "add \"distribution\": {\"npx\": {\"package\": \"name@<preview.version>\"}} (or \
             \"uvx\")"
                .to_owned(),
        ),
        Some(distribution) => check_distribution(distribution, version, sink),
    }
}

fn check_distribution(distribution: &Value, version: Option<&str>, sink: &mut Sink<'_>) {
    let pointer = "/preview/distribution";
    let methods = match distribution {
        Value::Object(methods) if !methods.is_empty() => methods,
        other => {
            let what = match other {
                Value::Object(_) => "empty".to_owned(),
                other => format!("{}, not an object", describe(other)),
            };
            sink.error(
                Rule::PreviewDistribution,
                pointer,
                At::Value,
                format!("`preview.distribution` is {what}; a preview needs an npx or uvx package"),
                "add \"npx\": {\"package\": \"name@<preview.version>\"} (or \"uvx\") under it, or \
                 remove the `preview` block"
                    .to_owned(),
            );
            return;
        }
    };
    let channel = Channel {
        base: "/preview",
        version_field: "preview.version",
        version,
    };
    for (method, value) in methods {
        let at = format!("{pointer}/{}", escape(method));
        match method.as_str() {
            "npx" | "uvx" => {
                check_package_in(channel, method, value, sink);
                check_package_keys(method, value, sink);
            }
            "binary" => sink.error(
                Rule::PreviewDistribution,
                &at,
                At::Key,
                "a preview cannot be a binary: the preview channel serves npx and uvx packages \
                 only"
                    .to_owned(),
                "publish the preview to npm (npx) or PyPI (uvx) and declare it there, or remove \
                 `preview.distribution.binary`"
                    .to_owned(),
            ),
            _ => sink.error(
                Rule::PreviewDistribution,
                &at,
                At::Key,
                format!("`preview.distribution.{method}` is not a preview distribution method"),
                format!("use {}", METHODS.map(|m| format!("\"{m}\"")).join(" or ")),
            ),
        }
    }
}

/// What the schema's `packageDistribution` says of the other keys: only `package`, `args` (an
/// array of strings) and `env` (an object of strings).
fn check_package_keys(method: &str, value: &Value, sink: &mut Sink<'_>) {
    let Value::Object(package) = value else {
        return;
    };
    let base = format!("/preview/distribution/{method}");
    for (key, value) in package {
        let pointer = format!("{base}/{}", escape(key));
        let place = format!("preview.distribution.{method}.{key}");
        match key.as_str() {
            "package" => {}
            "args" => {
                let strings = value
                    .as_array()
                    .is_some_and(|args| args.iter().all(Value::is_string));
                if !strings {
                    sink.error(
                        Rule::WrongType,
                        &pointer,
                        At::Value,
                        format!("`{place}` is {}, not an array of strings", describe(value)),
                        "write it as [\"--acp\"]".to_owned(),
                    );
                }
            }
            "env" => {
                let strings = value
                    .as_object()
                    .is_some_and(|env| env.values().all(Value::is_string));
                if !strings {
                    sink.error(
                        Rule::WrongType,
                        &pointer,
                        At::Value,
                        format!("`{place}` is {}, not an object of strings", describe(value)),
                        "write it as {\"NAME\": \"value\"}".to_owned(),
                    );
                }
            }
            _ => sink.error(
                Rule::PreviewShape,
                &pointer,
                At::Key,
                format!(
                    "`{place}` is not allowed: a package has only {}",
                    PACKAGE_KEYS.map(|k| format!("`{k}`")).join(", ")
                ),
                format!("remove `{key}`"),
            ),
        }
    }
}
