//! Checking manifests against the registry's own `agent.schema.json`, with the `jsonschema`
//! crate (no network: the schema's `$ref`s are local).
//!
//! Like the CI (Python's `jsonschema.validate` without a format checker), `format` keywords are
//! not checked. An error the built-in rules already reported at the same place is dropped, so
//! a missing `version` is said once, with the built-in rule's hint.

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{ValidationError, Validator};
use registry_core::load::describe;
use serde_json::Value;

use crate::diagnostic::{Diagnostic, Rule, Severity};
use crate::manifest::{At, Sink};
use crate::spans::{dotted, escape, parent};

/// The schema file, at the top of the registry folder.
pub const AGENT_SCHEMA: &str = "agent.schema.json";

/// A compiled `agent.schema.json`.
pub(crate) struct Schema {
    validator: Validator,
    raw: Value,
}

impl Schema {
    /// Compiles the schema text; a diagnostic when it is not JSON or not a schema.
    pub(crate) fn compile(bytes: &[u8]) -> Result<Schema, Diagnostic> {
        let invalid = |message: String| Diagnostic {
            severity: Severity::Error,
            rule: Rule::SchemaInvalid,
            file: AGENT_SCHEMA.to_owned(),
            span: None,
            message,
            hint: "restore agent.schema.json from the registry repository".to_owned(),
        };
        let raw: Value = serde_json::from_slice(bytes)
            .map_err(|err| invalid(format!("agent.schema.json is not valid JSON: {err}")))?;
        let validator = jsonschema::options()
            .should_validate_formats(false)
            .build(&raw)
            .map_err(|err| {
                invalid(format!(
                    "agent.schema.json is not a usable JSON Schema: {err}"
                ))
            })?;
        Ok(Schema { validator, raw })
    }

    /// Adds a diagnostic per schema violation not already reported by a built-in rule.
    pub(crate) fn check(&self, sink: &mut Sink<'_>) {
        let value = &sink.parsed.value;
        for error in self.validator.iter_errors(value) {
            for (pointer, at, message, hint) in self.explain(&error) {
                // A built-in rule's error at this place, or around it, already says it.
                let said = sink.claimed.iter().any(|claimed| {
                    pointer == *claimed
                        || pointer
                            .strip_prefix(claimed.as_str())
                            .is_some_and(|rest| rest.starts_with('/'))
                });
                if said {
                    continue;
                }
                sink.error(Rule::Schema, &pointer, at, message, hint);
            }
        }
    }

    /// The place(s) an error is about, each with a message and a hint.
    fn explain(&self, error: &ValidationError<'_>) -> Vec<(String, At, String, String)> {
        let path = error.instance_path().as_str().to_owned();
        let name = match dotted(&path) {
            name if name.is_empty() => "the manifest".to_owned(),
            name => format!("`{name}`"),
        };
        let by_schema = "(agent.schema.json)";
        match error.kind() {
            ValidationErrorKind::Required { property } => {
                let property = property.as_str().unwrap_or_default();
                vec![(
                    format!("{path}/{}", escape(property)),
                    At::Missing,
                    format!("{name} has no `{property}`, which is required {by_schema}"),
                    format!("add \"{property}\""),
                )]
            }
            ValidationErrorKind::AdditionalProperties { unexpected } => {
                let allowed = self.allowed_keys(error);
                unexpected
                    .iter()
                    .map(|key| {
                        let hint = match &allowed {
                            Some(allowed) => {
                                format!("remove `{key}` (allowed here: {})", allowed.join(", "))
                            }
                            None => format!("remove `{key}`"),
                        };
                        (
                            format!("{path}/{}", escape(key)),
                            At::Key,
                            format!("{name} may not have the key `{key}` {by_schema}"),
                            hint,
                        )
                    })
                    .collect()
            }
            ValidationErrorKind::PropertyNames { error: inner } => {
                let key = inner.instance().as_str().unwrap_or_default().to_owned();
                vec![(
                    format!("{path}/{}", escape(&key)),
                    At::Key,
                    format!("{name} may not have the key `{key}` {by_schema}: {inner}"),
                    format!("rename or remove `{key}`"),
                )]
            }
            ValidationErrorKind::Type { kind } => {
                let wanted = match kind {
                    TypeKind::Single(single) => single.to_string(),
                    TypeKind::Multiple(set) => set
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(" or "),
                };
                vec![(
                    path,
                    At::Value,
                    format!(
                        "{name} is {}, but must be a {wanted} {by_schema}",
                        describe(error.instance())
                    ),
                    format!("write {name} as a {wanted}"),
                )]
            }
            ValidationErrorKind::MinLength { limit: 1 } => vec![(
                path,
                At::Value,
                format!("{name} is empty {by_schema}"),
                format!("give {name} a value"),
            )],
            ValidationErrorKind::Pattern { pattern } => vec![(
                path,
                At::Value,
                format!("{name} does not match the pattern {pattern} {by_schema}"),
                format!("make {name} match {pattern}"),
            )],
            _ => vec![(
                path,
                At::Value,
                format!("{name}: {} {by_schema}", error.masked()),
                format!(
                    "see agent.schema.json at {}",
                    error.schema_path().as_str().trim_start_matches('/')
                ),
            )],
        }
    }

    /// The keys an `additionalProperties: false` object allows, read from the schema beside it.
    fn allowed_keys(&self, error: &ValidationError<'_>) -> Option<Vec<String>> {
        let keyword = error.schema_path().as_str();
        let object = self.raw.pointer(parent(keyword)?)?;
        let properties = object.get("properties")?.as_object()?;
        Some(properties.keys().cloned().collect())
    }
}
