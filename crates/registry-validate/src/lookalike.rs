//! Look-alike warnings: a manifest whose name or id could pass for another folder's entry, or
//! whose name or links do not say what they seem to, found by `registry_core::lookalike` (the
//! same findings the catalogue shows on its cards and pages).

use std::collections::HashSet;

use registry_core::lookalike::{LinkField, Listing, Lookalikes, Publisher, TextField, Warning};
use serde_json::Value;

use crate::Manifest;
use crate::diagnostic::{Diagnostic, Rule};
use crate::manifest::{At, Sink};

/// Adds a [`Rule::Lookalike`] warning to `outs[i]` for each finding about `entries[i]`.
pub(crate) fn check(entries: &[Manifest], outs: &mut [Vec<Diagnostic>]) {
    let values: Vec<Option<&serde_json::Map<String, Value>>> = entries
        .iter()
        .map(|entry| entry.value().and_then(Value::as_object))
        .collect();
    let text = |i: usize, field: &str| {
        values[i]
            .and_then(|v| v.get(field))
            .and_then(Value::as_str)
            .unwrap_or_default()
    };
    let listings: Vec<Listing<'_>> = (0..entries.len())
        .map(|i| Listing {
            id: entries[i].id.as_deref().unwrap_or_default(),
            name: text(i, "name"),
            publisher: Publisher {
                repository: Some(text(i, "repository")).filter(|r| !r.is_empty()),
                authors: values[i]
                    .and_then(|v| v.get("authors"))
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default(),
            },
            links: [
                (LinkField::Repository, "repository"),
                (LinkField::Website, "website"),
                (LinkField::LicenseUrl, "license_url"),
            ]
            .into_iter()
            .map(|(field, key)| (field, text(i, key)))
            .filter(|(_, url)| !url.is_empty())
            .collect(),
        })
        .collect();
    let found = Lookalikes::of_listings(&listings);
    for (index, (entry, out)) in entries.iter().zip(outs.iter_mut()).enumerate() {
        let Some(parsed) = &entry.parsed else {
            continue;
        };
        let mut sink = Sink {
            file: &entry.file,
            parsed,
            out,
            claimed: HashSet::new(),
        };
        for warning in found.warnings(index) {
            let (pointer, hint) = place_and_hint(warning, entries);
            sink.warning(
                Rule::Lookalike,
                pointer,
                At::Value,
                message(warning, &listings, entries),
                hint,
            );
        }
    }
}

/// The sentence for the validator's reader, naming other entries by folder.
fn message(warning: &Warning, listings: &[Listing<'_>], entries: &[Manifest]) -> String {
    let other = |i: usize| (listings[i].name, &entries[i].folder);
    match warning {
        Warning::LooksLike { other: i, .. } => {
            let (name, folder) = other(*i);
            format!("`name` looks like \"{name}\", the name of {folder}/, without being the same")
        }
        Warning::SameName { other: i, .. } => {
            let (_, folder) = other(*i);
            format!("{folder}/ has the same `name` (case and spacing aside)")
        }
        Warning::IdLooksLike { other: i } => {
            let (_, folder) = other(*i);
            format!("`id` looks like the id of {folder}/")
        }
        Warning::MixedScript { word, scripts } => format!(
            "`name` mixes {} letters in \"{word}\", a common way to imitate another name",
            scripts.join(" and ")
        ),
        Warning::Invisible { field, chars } => format!(
            "`{}` holds characters no one can see: {}",
            field.as_str(),
            registry_core::invisible::names(chars)
        ),
        Warning::MisleadingLink {
            field,
            host,
            looks_like,
        } => format!(
            "the {} link shows {host}, which is not {looks_like}: it leads elsewhere",
            field.label()
        ),
    }
}

/// Where the warning points, and its one-line fix.
fn place_and_hint(warning: &Warning, entries: &[Manifest]) -> (&'static str, String) {
    match warning {
        Warning::LooksLike { other, .. } | Warning::SameName { other, .. } => (
            "/name",
            format!(
                "if this is another agent than {}/, give it a name of its own; if it is the same, \
                 keep one folder",
                entries[*other].folder
            ),
        ),
        Warning::IdLooksLike { other } => (
            "/id",
            format!(
                "choose an id that cannot be mistaken for {}/'s",
                entries[*other].folder
            ),
        ),
        Warning::MixedScript { .. } => (
            "/name",
            "write the name in one script (the letters people type for it)".to_owned(),
        ),
        Warning::Invisible { field, .. } => (
            match field {
                TextField::Name => "/name",
                TextField::Id => "/id",
            },
            "remove the invisible characters".to_owned(),
        ),
        Warning::MisleadingLink { field, .. } => (
            match field {
                LinkField::Repository => "/repository",
                LinkField::Website => "/website",
                LinkField::LicenseUrl => "/license_url",
            },
            "link the address as people type it (its ASCII, punycode form)".to_owned(),
        ),
    }
}
