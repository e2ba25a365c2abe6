//! The slow path: an entry that did not parse, walked again as a [`Value`] to say precisely what
//! is wrong with it, field by field, each problem with a hint.

use serde_json::Value;

use super::diagnostic::{Problem, Problems, describe, parser_message};
use super::wire::DistributionKey;

/// Why an entry could not be read: adds every problem found, each with a hint, and returns the
/// entry's id if it has one.
///
/// Walks the entry as a [`Value`] along the same rules as [`WireEntry`]; when that finds nothing
/// (a key written twice, say), the parser's own message is used.
///
/// [`WireEntry`]: super::wire::WireEntry
pub(super) fn explain(
    raw: &str,
    err: &serde_json::Error,
    problems: &mut Problems,
) -> Option<String> {
    let id = match serde_json::from_str::<Value>(raw) {
        Ok(Value::Object(entry)) => {
            check_entry(&entry, problems);
            entry
                .get("id")
                .and_then(Value::as_str)
                .filter(|id| !id.trim().is_empty())
                .map(str::to_owned)
        }
        Ok(other) => {
            problems.push(Problem::error(
                format!("the entry is {}, not an object", describe(&other)),
                Some(
                    "each entry must be an object with id, name, version, description and \
                     distribution"
                        .to_owned(),
                ),
            ));
            None
        }
        Err(_) => None,
    };
    if problems.is_empty() {
        problems.push(Problem::error(parser_message(err), None));
    }
    id
}

/// Checks an entry object against the shape [`WireEntry`](super::wire::WireEntry) reads.
fn check_entry(entry: &serde_json::Map<String, Value>, problems: &mut Problems) {
    for (field, hint) in [
        ("id", "add \"id\": \"my-agent\" (a lowercase slug)"),
        ("name", "add \"name\": \"My Agent\""),
        ("version", "add \"version\": \"1.0.0\""),
        (
            "description",
            "add \"description\": \"what it does, in one sentence\"",
        ),
    ] {
        check_string(entry, field, field, Some(hint), problems);
    }
    for field in [
        "repository",
        "website",
        "homepage",
        "license",
        "license_url",
        "icon",
    ] {
        check_string(entry, field, field, None, problems);
    }
    check_strings(entry, "authors", "authors", problems);
    match entry.get("distribution") {
        None => problems.push(missing(
            "distribution",
            "add \"distribution\" with at least one of binary, npx or uvx",
        )),
        Some(Value::Object(distribution)) => check_distribution(distribution, problems),
        Some(other) => problems.push(wrong_type("distribution", "an object", other)),
    }
}

fn check_distribution(distribution: &serde_json::Map<String, Value>, problems: &mut Problems) {
    for (key, value) in distribution {
        let path = format!("distribution.{key}");
        match DistributionKey::classify(key) {
            DistributionKey::Binary => match value {
                Value::Object(targets) => {
                    for (platform, target) in targets {
                        check_target(&format!("{path}.{platform}"), target, problems);
                    }
                }
                other => problems.push(wrong_type(&path, "an object of platform targets", other)),
            },
            DistributionKey::Npx | DistributionKey::Uvx => match value {
                Value::Null => {}
                Value::Object(package) => {
                    check_string(
                        package,
                        "package",
                        &format!("{path}.package"),
                        Some("add the package spec, e.g. \"package\": \"my-agent@1.0.0\""),
                        problems,
                    );
                    check_strings(package, "args", &format!("{path}.args"), problems);
                    check_env(package, &path, problems);
                }
                other => problems.push(wrong_type(&path, "an object", other)),
            },
            DistributionKey::Target(_) => check_target(&path, value, problems),
            DistributionKey::Unknown(_) => {}
        }
    }
}

fn check_target(path: &str, target: &Value, problems: &mut Problems) {
    let Value::Object(target) = target else {
        problems.push(wrong_type(path, "an object", target));
        return;
    };
    check_string(
        target,
        "archive",
        &format!("{path}.archive"),
        Some("add the download URL as \"archive\""),
        problems,
    );
    check_string(
        target,
        "cmd",
        &format!("{path}.cmd"),
        Some("add the executable's path in the archive, e.g. \"cmd\": \"./my-agent\""),
        problems,
    );
    check_strings(target, "args", &format!("{path}.args"), problems);
    check_env(target, path, problems);
    check_string(target, "sha256", &format!("{path}.sha256"), None, problems);
}

/// A string field: required when `missing_hint` is given, else optional (`null` allowed).
pub(crate) fn check_string(
    object: &serde_json::Map<String, Value>,
    field: &str,
    path: &str,
    missing_hint: Option<&str>,
    problems: &mut Problems,
) {
    match (object.get(field), missing_hint) {
        (Some(Value::String(_)), _) | (None | Some(Value::Null), None) => {}
        (None, Some(hint)) => problems.push(missing(path, hint)),
        (Some(other), _) => problems.push(wrong_type(path, "a string", other)),
    }
}

/// An optional array of strings (`authors`, `args`).
pub(crate) fn check_strings(
    object: &serde_json::Map<String, Value>,
    field: &str,
    path: &str,
    problems: &mut Problems,
) {
    match object.get(field) {
        None => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if !item.is_string() {
                    problems.push(wrong_type(&format!("{path}[{i}]"), "a string", item));
                }
            }
        }
        Some(Value::String(s)) => problems.push(Problem::error(
            format!("`{path}` must be an array of strings, found a string"),
            Some(format!("write it as a list: \"{field}\": [{s:?}]")),
        )),
        Some(other) => problems.push(wrong_type(path, "an array of strings", other)),
    }
}

/// An optional `env` object of string values.
fn check_env(object: &serde_json::Map<String, Value>, path: &str, problems: &mut Problems) {
    match object.get("env") {
        None => {}
        Some(Value::Object(vars)) => {
            for (name, value) in vars {
                if !value.is_string() {
                    problems.push(wrong_type(&format!("{path}.env.{name}"), "a string", value));
                }
            }
        }
        Some(other) => problems.push(wrong_type(
            &format!("{path}.env"),
            "an object of strings",
            other,
        )),
    }
}

fn missing(path: &str, hint: &str) -> Problem {
    Problem::error(
        format!("missing required field `{path}`"),
        Some(hint.to_owned()),
    )
}

pub(crate) fn wrong_type(path: &str, expected: &str, found: &Value) -> Problem {
    let hint = match found {
        Value::Number(n) if expected == "a string" => format!("quote it: \"{n}\""),
        _ => format!("make `{path}` {expected}"),
    };
    Problem::error(
        format!("`{path}` must be {expected}, found {}", describe(found)),
        Some(hint),
    )
}
