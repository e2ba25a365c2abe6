//! Reading one page of a discovery listing, item by item, and the adapter from an item to the
//! catalogue's [`Entry`].
//!
//! `parse_page` reads a page's text; `ServiceAgent::into_entry` is the adapter.

use std::sync::Arc;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::service::ServiceAgent;
use crate::load::{
    Diagnostic, Location, Problem, Problems, check_string, check_strings, describe, parser_message,
    position, wrong_type,
};
use crate::model::{Distribution, Entry, Kind, Origin};

impl ServiceAgent {
    /// The catalogue entry for this item, whose JSON text is `raw`: its id, name and description
    /// (empty when absent), the owner as the only author (so it is shown and searched), no
    /// version, licence or distribution, and the item itself in its [`Origin`]. Its page is
    /// `/agents/<id>`, like an ACP agent's.
    pub fn into_entry(self, raw: &str) -> Entry {
        let owner = self.owner_id.trim();
        Entry {
            kind: Kind::Agent,
            id: self.id.clone(),
            name: self.name.clone(),
            version: String::new(),
            description: self.description.clone().unwrap_or_default(),
            repository: None,
            website: None,
            authors: if owner.is_empty() {
                Vec::new()
            } else {
                vec![owner.to_owned()]
            },
            license: None,
            license_url: None,
            icon: None,
            distribution: Distribution::default(),
            raw: raw.to_owned(),
            origin: Origin::AgentRegistry(Arc::new(self)),
        }
    }
}

/// One page of a discovery listing, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    /// The page number it was asked for (1-based).
    pub page: u32,
    /// How many items it had, readable or not.
    pub items: usize,
    /// The readable items, in page order.
    pub entries: Vec<Entry>,
    /// One per problem with an item, in page order.
    pub diagnostics: Vec<Diagnostic>,
    /// `totalCount`, when it is a count.
    pub total_count: Option<u64>,
    /// `totalPages`, when it is a count.
    pub total_pages: Option<u64>,
    /// `hasNextPage`, when it is a boolean.
    pub has_next_page: Option<bool>,
    /// The index in `items` of each of `entries`.
    pub(super) indices: Vec<usize>,
}

/// Reads the text of page `page` of a discovery listing: item by item, so that a malformed item
/// becomes a [`Diagnostic`] and the others are read. Fails only when the text is not a page (not
/// JSON, not an object, or `items` not an array).
pub fn parse_page(text: &str, page: u32) -> Result<Page, PageError> {
    let wire: WirePage<'_> = serde_json::from_str(text).map_err(|err| {
        if err.is_data() {
            shape_error(text, page, &err)
        } else {
            let (line, column) = position(text, &err);
            PageError::Json {
                page,
                line,
                column,
                message: parser_message(&err),
            }
        }
    })?;
    let mut out = Page {
        page,
        items: wire.items.len(),
        entries: Vec::with_capacity(wire.items.len()),
        diagnostics: Vec::new(),
        total_count: lenient(wire.total_count),
        total_pages: lenient(wire.total_pages),
        has_next_page: lenient(wire.has_next_page),
        indices: Vec::with_capacity(wire.items.len()),
    };
    for (index, raw) in wire.items.iter().enumerate() {
        let raw = raw.get();
        let (agent, id, problems) = read_item(raw);
        out.diagnostics
            .extend(problems.into_iter().map(|problem| Diagnostic {
                severity: problem.severity,
                location: Location::Item {
                    page,
                    index,
                    id: id.clone(),
                },
                message: problem.message,
                hint: problem.hint,
            }));
        if let Some(agent) = agent {
            out.entries.push(agent.into_entry(raw));
            out.indices.push(index);
        }
    }
    Ok(out)
}

/// The page's fields; the counts are read on their own so a wrong one is only ignored.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WirePage<'a> {
    #[serde(borrow)]
    items: Vec<&'a RawValue>,
    #[serde(default, borrow)]
    total_count: Option<&'a RawValue>,
    #[serde(default, borrow)]
    total_pages: Option<&'a RawValue>,
    #[serde(default, borrow)]
    has_next_page: Option<&'a RawValue>,
}

/// A value of the expected type, or `None`.
fn lenient<T: DeserializeOwned>(raw: Option<&RawValue>) -> Option<T> {
    raw.and_then(|raw| serde_json::from_str(raw.get()).ok())
}

/// JSON, but not a page; the slow path, so it may parse again.
fn shape_error(text: &str, page: u32, err: &serde_json::Error) -> PageError {
    let message = match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(top)) => match top.get("items") {
            None => "it has no `items`".to_owned(),
            Some(items) => format!("`items` is {}, not an array", describe(items)),
        },
        Ok(other) => format!("it is {}, not an object", describe(&other)),
        Err(_) => parser_message(err),
    };
    PageError::Shape { page, message }
}

/// Reads one item: the agent, or why it cannot be shown; with its id when one is readable.
fn read_item(raw: &str) -> (Option<ServiceAgent>, Option<String>, Problems) {
    let mut problems = Problems::new();
    match serde_json::from_str::<ServiceAgent>(raw) {
        Ok(agent) => {
            let id = Some(agent.id.trim())
                .filter(|id| !id.is_empty())
                .map(str::to_owned);
            if id.is_none() {
                problems.push(Problem::error(
                    "`id` is empty".to_owned(),
                    Some("the registry must give every agent an id".to_owned()),
                ));
            } else if crate::id::path_segment(&agent.id).is_none() {
                problems.push(Problem::error(
                    format!(
                        "id `{}` cannot be a page address: /agents/{} is another page",
                        agent.id, agent.id
                    ),
                    Some("the registry must give every agent an id other than . and ..".to_owned()),
                ));
            }
            if agent.name.trim().is_empty() {
                problems.push(Problem::error(
                    "`name` is empty".to_owned(),
                    Some("register the agent with the name people know it by".to_owned()),
                ));
            }
            let agent = problems.is_empty().then_some(agent);
            (agent, id, problems)
        }
        Err(err) => {
            let id = explain_item(raw, &err, &mut problems);
            (None, id, problems)
        }
    }
}

/// Why an item could not be read, along the rules [`ServiceAgent`] reads by; the parser's own
/// message when that finds nothing. Returns the item's id if it has one.
fn explain_item(raw: &str, err: &serde_json::Error, problems: &mut Problems) -> Option<String> {
    let id = match serde_json::from_str::<Value>(raw) {
        Ok(Value::Object(item)) => {
            check_item(&item, problems);
            item.get("id")
                .and_then(Value::as_str)
                .filter(|id| !id.trim().is_empty())
                .map(str::to_owned)
        }
        Ok(other) => {
            problems.push(Problem::error(
                format!("the item is {}, not an object", describe(&other)),
                None,
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

fn check_item(item: &Map<String, Value>, problems: &mut Problems) {
    check_string(
        item,
        "id",
        "id",
        Some("the registry must give every agent an id"),
        problems,
    );
    check_string(
        item,
        "name",
        "name",
        Some("register the agent with a name"),
        problems,
    );
    for field in ["description", "ownerId", "createdAt", "updatedAt"] {
        check_string(item, field, field, None, problems);
    }
    match item.get("labels") {
        None | Some(Value::Null) => {}
        Some(Value::Object(labels)) => {
            for (key, value) in labels {
                if !value.is_string() {
                    problems.push(wrong_type(&format!("labels.{key}"), "a string", value));
                }
            }
        }
        Some(other) => problems.push(wrong_type("labels", "an object of strings", other)),
    }
    for_each_object(
        item,
        "capabilities",
        problems,
        |capability, path, problems| {
            check_string(
                capability,
                "name",
                &format!("{path}.name"),
                Some("name it"),
                problems,
            );
            for field in ["id", "description"] {
                check_string(
                    capability,
                    field,
                    &format!("{path}.{field}"),
                    None,
                    problems,
                );
            }
            if capability.get("tags") != Some(&Value::Null) {
                check_strings(capability, "tags", &format!("{path}.tags"), problems);
            }
        },
    );
    for_each_object(item, "endpoints", problems, |endpoint, path, problems| {
        for (field, hint) in [
            ("transport", "Http, Amqp or AzureServiceBus"),
            ("protocol", "A2A, MCP, ACP or Generic"),
            ("address", "a URL, or a queue's task topic"),
            ("livenessModel", "Ephemeral or Persistent"),
        ] {
            let hint = format!("register the endpoint with its {field}: {hint}");
            check_string(
                endpoint,
                field,
                &format!("{path}.{field}"),
                Some(&hint),
                problems,
            );
        }
        for field in ["id", "name", "protocolMetadata"] {
            check_string(endpoint, field, &format!("{path}.{field}"), None, problems);
        }
        for (field, expected, ok) in [
            (
                "ttlSeconds",
                "a whole number",
                Value::is_i64 as fn(&Value) -> bool,
            ),
            ("heartbeatIntervalSeconds", "a whole number", Value::is_i64),
            ("isLive", "a boolean", Value::is_boolean),
        ] {
            match endpoint.get(field) {
                None | Some(Value::Null) => {}
                Some(value) if ok(value) => {}
                Some(value) => {
                    problems.push(wrong_type(&format!("{path}.{field}"), expected, value))
                }
            }
        }
    });
}

/// Calls `check` on each object of the optional array `item[field]`, with its path; reports
/// what is not an array or not an object.
fn for_each_object(
    item: &Map<String, Value>,
    field: &str,
    problems: &mut Problems,
    mut check: impl FnMut(&Map<String, Value>, &str, &mut Problems),
) {
    match item.get(field) {
        None | Some(Value::Null) => {}
        Some(Value::Array(values)) => {
            for (i, value) in values.iter().enumerate() {
                let path = format!("{field}[{i}]");
                match value {
                    Value::Object(object) => check(object, &path, problems),
                    other => problems.push(wrong_type(&path, "an object", other)),
                }
            }
        }
        Some(other) => problems.push(wrong_type(field, "an array", other)),
    }
}

/// A page that could not be used; everything loaded before it is kept, and the pager asks for
/// the same page again.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PageError {
    /// The request failed, as reported by the caller with [`Pager::fail`](super::Pager::fail).
    #[error(
        "page {page} of the agent listing could not be fetched: {message}; retry to ask for it again"
    )]
    Request {
        /// The page.
        page: u32,
        /// What went wrong (`HTTP 503`, a network error).
        message: String,
    },
    /// The text is not JSON.
    #[error(
        "page {page} of the agent listing is not valid JSON: {message} at line {line}, column \
         {column}; the registry (or a proxy before it) sent something else, retry or check its URL"
    )]
    Json {
        /// The page.
        page: u32,
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// The text is JSON, but not a page of agents.
    #[error(
        "page {page} of the agent listing is not a page of agents: {message}; check that the URL \
         is an AgentRegistry's (it should answer /discover/agents with {{\"items\": [...], ...}})"
    )]
    Shape {
        /// The page.
        page: u32,
        /// What is wrong with it.
        message: String,
    },
    /// Every page was already read.
    #[error("every page of the agent listing was already read; there is nothing more to accept")]
    Finished,
}
