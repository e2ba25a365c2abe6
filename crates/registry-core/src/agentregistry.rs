//! The second source of the catalogue: an *AgentRegistry*, a protocol-agnostic discovery service.
//!
//! An AgentRegistry lists agents that speak A2A, MCP, ACP or a protocol of their own, reached
//! over HTTP or through a message queue (AMQP, Azure Service Bus). Agents register themselves,
//! each endpoint declaring its protocol, transport and liveness model: *ephemeral* endpoints
//! register with a TTL and renew it on each call, *persistent* ones send heartbeats. Discovery is
//! public and paged:
//!
//! ```text
//! GET {base}/discover/agents?liveOnly=false&page=1&pageSize=100
//! {"items": [...], "totalCount": 230, "page": 1, "pageSize": 100, "totalPages": 3,
//!  "hasNextPage": true, "hasPreviousPage": false}
//! ```
//!
//! Pages are 1-based and at most 100 items long. Each item is a [`ServiceAgent`]; its endpoints'
//! `protocolMetadata` is a *string* holding the protocol's own card as JSON (for a queue endpoint,
//! the broker, exchange and topics). Besides discovery, the registry serves a protocol-native
//! document per agent ([`ServiceAgent::documents`]).
//!
//! # One catalogue, one adapter per source
//!
//! The catalogue does not know two models: [`ServiceAgent::into_entry`] turns an item into the
//! same [`Entry`] an ACP registry gives, keeping the item in the entry's [`Origin`] for what only this
//! source has (endpoints, capabilities, labels, liveness). Search, facets, the URL codec and
//! [`crate::Catalog`] then work unchanged; the facets add string-valued groups for this source
//! ([`crate::facets::TagGroup`]).
//!
//! # Paging without IO
//!
//! [`Pager`] knows which URL to fetch next and reads each page's text; the caller does the HTTP.
//! As [`crate::load()`] does for a registry, it collects instead of aborting: a malformed item
//! becomes a [`Diagnostic`] at its page and index and the others load; a page that fails (an HTTP
//! error the caller reports with [`Pager::fail`], or a text that is not a page) keeps everything
//! loaded so far, and the same page is asked for again on retry. Values this crate does not know
//! (a transport `Grpc`, a protocol `OpenAI`) are kept and shown as written.

use std::collections::BTreeMap;
use std::collections::hash_map::{Entry as Slot, HashMap};
use std::fmt;
use std::sync::Arc;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::Deserialize;
use serde::de::{DeserializeOwned, Deserializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::load::{
    Diagnostic, Loaded, Location, Problem, Problems, Severity, check_string, check_strings,
    describe, parser_message, position, wrong_type,
};
use crate::model::{Distribution, Entry, Kind, Origin, Registry};

/// The `pageSize` the pager asks for: the registry's maximum.
pub const PAGE_SIZE: u32 = 100;

/// The pager stops after this many pages (100,000 agents at [`PAGE_SIZE`]), whatever the server
/// says about a next page.
pub const MAX_PAGES: u32 = 1000;

/// One agent of a discovery listing, as the registry describes it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceAgent {
    /// The registry's id for it (a GUID in practice).
    pub id: String,
    /// Its name.
    pub name: String,
    /// What it does, when it says.
    #[serde(default)]
    pub description: Option<String>,
    /// Who registered it; empty when the item has none.
    #[serde(default, deserialize_with = "null_as_default")]
    pub owner_id: String,
    /// Free-form `key: value` labels (`team: finance`), by key.
    #[serde(default, deserialize_with = "null_as_default")]
    pub labels: BTreeMap<String, String>,
    /// What it can do.
    #[serde(default, deserialize_with = "null_as_default")]
    pub capabilities: Vec<ServiceCapability>,
    /// How to reach it.
    #[serde(default, deserialize_with = "null_as_default")]
    pub endpoints: Vec<Endpoint>,
    /// When it registered, as written (ISO 8601).
    #[serde(default)]
    pub created_at: Option<String>,
    /// When its registration last changed, as written.
    #[serde(default)]
    pub updated_at: Option<String>,
}

/// Something an agent declares it can do (an A2A skill, an MCP tool, ...).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceCapability {
    /// The registry's id for it; empty when the item has none.
    #[serde(default, deserialize_with = "null_as_default")]
    pub id: String,
    /// Its name (`process-invoice`), the value discovery filters on.
    pub name: String,
    /// What it does.
    #[serde(default)]
    pub description: Option<String>,
    /// Tags (`finance`, `ocr`).
    #[serde(default, deserialize_with = "null_as_default")]
    pub tags: Vec<String>,
}

/// One way to reach an agent: a protocol over a transport at an address.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Endpoint {
    /// The registry's id for it; empty when the item has none.
    #[serde(default, deserialize_with = "null_as_default")]
    pub id: String,
    /// Its name (`primary`, `queue`); empty when the item has none.
    #[serde(default, deserialize_with = "null_as_default")]
    pub name: String,
    /// How messages travel.
    pub transport: Transport,
    /// What is spoken.
    pub protocol: Protocol,
    /// A URL for HTTP; the task topic or queue for a queue transport.
    pub address: String,
    /// How the registry knows it is alive.
    pub liveness_model: LivenessModel,
    /// For an ephemeral endpoint: how long a registration or renewal lasts.
    #[serde(default)]
    pub ttl_seconds: Option<i64>,
    /// For a persistent endpoint: how often it sends a heartbeat.
    #[serde(default)]
    pub heartbeat_interval_seconds: Option<i64>,
    /// Whether the registry has seen it alive recently; `None` when the listing does not say.
    #[serde(default)]
    pub is_live: Option<bool>,
    /// The protocol's own card as a JSON text, as written (see [`Endpoint::protocol_metadata`]).
    #[serde(default)]
    pub protocol_metadata: Option<String>,
}

/// Defines a wire enum: known words (read in any case, written as listed) and `Other` for any
/// other word, kept exactly as written.
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$variant_meta:meta])* $variant:ident => $word:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name {
            $( $(#[$variant_meta])* $variant, )+
            /// A value this crate does not know, exactly as written.
            Other(String),
        }

        impl $name {
            /// Reads a wire word: a known one in any case, any other kept as written.
            pub fn parse(word: &str) -> $name {
                $( if word.eq_ignore_ascii_case($word) { return $name::$variant; } )+
                $name::Other(word.to_owned())
            }

            /// The wire word, which is also what the catalogue shows (an `Other` value as
            /// written).
            pub fn as_str(&self) -> &str {
                match self {
                    $( $name::$variant => $word, )+
                    $name::Other(word) => word,
                }
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$name, D::Error> {
                String::deserialize(deserializer).map(|word| $name::parse(&word))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

wire_enum! {
    /// How an endpoint's messages travel.
    pub enum Transport {
        /// HTTP(S).
        Http => "Http",
        /// AMQP (RabbitMQ): the address is the task topic.
        Amqp => "Amqp",
        /// Azure Service Bus: the address is the queue or topic.
        AzureServiceBus => "AzureServiceBus",
    }
}

wire_enum! {
    /// What an endpoint speaks.
    pub enum Protocol {
        /// Agent-to-Agent.
        A2a => "A2A",
        /// Model Context Protocol.
        Mcp => "MCP",
        /// Agent Communication Protocol (IBM/BeeAI).
        Acp => "ACP",
        /// The registry's own, protocol-neutral model.
        Generic => "Generic",
    }
}

wire_enum! {
    /// How the registry knows an endpoint is alive.
    pub enum LivenessModel {
        /// Registered with a TTL, renewed on each call (serverless and scaled-to-zero workers).
        Ephemeral => "Ephemeral",
        /// Sends a heartbeat every `heartbeatIntervalSeconds` (long-running services).
        Persistent => "Persistent",
    }
}

impl Transport {
    /// Whether this is a message-queue transport (AMQP, Azure Service Bus).
    pub fn is_queue(&self) -> bool {
        matches!(self, Transport::Amqp | Transport::AzureServiceBus)
    }
}

/// An endpoint's `protocolMetadata`, read leniently.
#[derive(Clone, Debug, PartialEq)]
pub enum ProtocolMetadata<'a> {
    /// The text is a JSON object: the protocol's card, or a queue's connection details.
    Object(Map<String, Value>),
    /// Any other text (not JSON, or JSON but not an object), as written.
    Text(&'a str),
}

/// A document the registry serves about an agent in one protocol's own format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolDocument {
    /// What it is: `A2A agent card`, `Queued A2A agent card`, `MCP server card` or
    /// `ACP agent manifest`.
    pub label: &'static str,
    /// Its path on the registry, the agent's id percent-encoded: `/a2a/agents/<id>`.
    pub path: String,
}

impl ProtocolDocument {
    /// Its URL on the registry at `base_url` (with or without a trailing slash).
    pub fn url(&self, base_url: &str) -> String {
        format!("{}{}", trim_base(base_url), self.path)
    }
}

impl ServiceAgent {
    /// Whether any endpoint is live.
    pub fn is_live(&self) -> bool {
        self.endpoints.iter().any(Endpoint::is_live)
    }

    /// The protocol-native documents the registry serves for this agent, by its endpoints: an A2A
    /// endpoint gives the agent card (and, over a queue transport, the queued agent card too), an
    /// MCP one the server card, an ACP one the manifest. In that order, each once.
    pub fn documents(&self) -> Vec<ProtocolDocument> {
        let speaks = |protocol: Protocol| self.endpoints.iter().any(|e| e.protocol == protocol);
        let queued_a2a = self
            .endpoints
            .iter()
            .any(|e| e.protocol == Protocol::A2a && e.transport.is_queue());
        let id = utf8_percent_encode(&self.id, PATH_SEGMENT);
        [
            (speaks(Protocol::A2a), "A2A agent card", "/a2a/agents/"),
            (queued_a2a, "Queued A2A agent card", "/a2a/async/agents/"),
            (speaks(Protocol::Mcp), "MCP server card", "/mcp/servers/"),
            (speaks(Protocol::Acp), "ACP agent manifest", "/acp/agents/"),
        ]
        .into_iter()
        .filter(|&(relevant, ..)| relevant)
        .map(|(_, label, prefix)| ProtocolDocument {
            label,
            path: format!("{prefix}{id}"),
        })
        .collect()
    }

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

    /// The words search finds this agent by beyond its entry's fields: capability names and
    /// tags, label values and endpoint protocols.
    pub(crate) fn search_texts(&self) -> impl Iterator<Item = &str> {
        let capabilities = self.capabilities.iter().flat_map(|c| {
            std::iter::once(c.name.as_str()).chain(c.tags.iter().map(String::as_str))
        });
        capabilities
            .chain(self.labels.values().map(String::as_str))
            .chain(self.endpoints.iter().map(|e| e.protocol.as_str()))
    }
}

impl Endpoint {
    /// Whether the registry reports it live (`isLive: true`; absent or `false` is not).
    pub fn is_live(&self) -> bool {
        self.is_live == Some(true)
    }

    /// `protocolMetadata` read leniently: its JSON object, or its text when it is not one;
    /// `None` when absent or blank.
    pub fn protocol_metadata(&self) -> Option<ProtocolMetadata<'_>> {
        let text = self.protocol_metadata.as_deref()?;
        if text.trim().is_empty() {
            return None;
        }
        Some(match serde_json::from_str(text) {
            Ok(object) => ProtocolMetadata::Object(object),
            Err(_) => ProtocolMetadata::Text(text),
        })
    }
}

impl Endpoint {
    /// A queue endpoint's connection details, from its `protocolMetadata`: the fields of its
    /// `queueEndpoint` object (as A2A cards over a queue carry them), else of the metadata object
    /// itself; each as `(label, value)`, the label from the key (`taskTopic` → `Task topic`), a
    /// string value as written, any other as JSON. Empty for an HTTP endpoint or without an object.
    pub fn queue_details(&self) -> Vec<(String, String)> {
        if !self.transport.is_queue() {
            return Vec::new();
        }
        let Some(ProtocolMetadata::Object(metadata)) = self.protocol_metadata() else {
            return Vec::new();
        };
        let fields = match metadata.get("queueEndpoint") {
            Some(Value::Object(queue)) => queue,
            _ => &metadata,
        };
        fields
            .iter()
            .map(|(key, value)| {
                let shown = match value {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                };
                (humanize(key), shown)
            })
            .collect()
    }
}

/// `taskTopic` → `Task topic`, `entity_path` → `Entity path`.
fn humanize(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for (i, c) in key.chars().enumerate() {
        if c == '_' || c == '-' {
            out.push(' ');
        } else if c.is_uppercase() && i > 0 {
            out.push(' ');
            out.extend(c.to_lowercase());
        } else if i == 0 {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The top-level fields of an item [`ServiceAgent`] reads (the others are listed by
/// [`Entry::unknown_fields`]).
pub(crate) const KNOWN_FIELDS: [&str; 9] = [
    "id",
    "name",
    "description",
    "ownerId",
    "labels",
    "capabilities",
    "endpoints",
    "createdAt",
    "updatedAt",
];

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
    indices: Vec<usize>,
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

/// Pages through a discovery listing: says which URL to fetch next and reads each page's text,
/// keeping every readable agent and a [`Diagnostic`] for every problem.
///
/// ```
/// use registry_core::Pager;
///
/// let mut pager = Pager::new("https://registry.example.com/");
/// assert_eq!(
///     pager.next_url().as_deref(),
///     Some("https://registry.example.com/discover/agents?liveOnly=false&page=1&pageSize=100")
/// );
/// pager.fail("HTTP 503");
/// assert_eq!(pager.page(), 1); // the same page again on retry
/// let report = pager
///     .accept(r#"{"items": [], "totalCount": 0, "page": 1, "hasNextPage": false}"#)
///     .unwrap();
/// assert!(report.done && pager.next_url().is_none());
/// let loaded = pager.into_loaded();
/// assert!(loaded.registry.entries.is_empty() && loaded.diagnostics.is_empty());
/// ```
///
/// It stops when a page says `hasNextPage: false` (or, without it, at `totalPages`), and, with a
/// warning, when a page that claims a next one has no items or only items already loaded (a
/// server ignoring `page`), or after [`MAX_PAGES`] pages. An id already loaded is left out with
/// an error, the first one kept.
#[derive(Clone, Debug)]
pub struct Pager {
    /// Without trailing slashes.
    base_url: String,
    /// The page to fetch next (the last one fetched, once done).
    page: u32,
    done: bool,
    entries: Vec<Entry>,
    /// Per id loaded, the page and index it came at.
    first_seen: HashMap<String, (u32, usize)>,
    diagnostics: Vec<Diagnostic>,
    /// Items received so far, readable or not.
    received: usize,
    total_count: Option<u64>,
    total_pages: Option<u64>,
    /// Why the current page last failed, until it is read.
    error: Option<PageError>,
}

/// What reading one page did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageReport {
    /// The page read (1-based).
    pub page: u32,
    /// How many items it had, readable or not.
    pub items: usize,
    /// How many agents it added (its readable items minus ids already loaded).
    pub added: usize,
    /// Whether this was the last page.
    pub done: bool,
}

/// A page that could not be used; everything loaded before it is kept, and the pager asks for
/// the same page again.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PageError {
    /// The request failed, as reported by the caller with [`Pager::fail`].
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

impl Pager {
    /// A pager for the registry at `base_url` (with or without a trailing slash), at page 1.
    pub fn new(base_url: &str) -> Pager {
        Pager {
            base_url: trim_base(base_url).to_owned(),
            page: 1,
            done: false,
            entries: Vec::new(),
            first_seen: HashMap::new(),
            diagnostics: Vec::new(),
            received: 0,
            total_count: None,
            total_pages: None,
            error: None,
        }
    }

    /// The registry's URL, without a trailing slash.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The URL of the page to fetch next; `None` once every page is read.
    pub fn next_url(&self) -> Option<String> {
        (!self.done).then(|| {
            format!(
                "{}/discover/agents?liveOnly=false&page={}&pageSize={PAGE_SIZE}",
                self.base_url, self.page
            )
        })
    }

    /// The page to fetch next (1-based), or the last one read once done.
    pub fn page(&self) -> u32 {
        self.page
    }

    /// Whether every page is read.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Reads the text of the page [`Pager::next_url`] named and moves on to the next one. A text
    /// that is not a page is an error that changes nothing but [`Pager::last_error`]: the same
    /// page is asked for again.
    pub fn accept(&mut self, text: &str) -> Result<PageReport, PageError> {
        if self.done {
            return Err(PageError::Finished);
        }
        let page = parse_page(text, self.page).inspect_err(|err| self.error = Some(err.clone()))?;
        self.error = None;
        let readable = page.entries.len();
        let mut added = 0;
        let mut diagnostics = page.diagnostics;
        for (index, entry) in page.indices.into_iter().zip(page.entries) {
            match self.first_seen.entry(entry.id.clone()) {
                Slot::Occupied(first) => {
                    let (first_page, first_index) = *first.get();
                    diagnostics.push(Diagnostic {
                        severity: Severity::Error,
                        location: Location::Item {
                            page: page.page,
                            index,
                            id: Some(entry.id),
                        },
                        message: format!(
                            "duplicate id: page {first_page}, items[{first_index}] already has \
                             it, so this item was left out"
                        ),
                        hint: Some(
                            "the registry listed this agent twice (it may have changed while \
                             being paged through); reload to page through it again"
                                .to_owned(),
                        ),
                    });
                }
                Slot::Vacant(slot) => {
                    slot.insert((page.page, index));
                    self.entries.push(entry);
                    added += 1;
                }
            }
        }
        // In item order: a duplicate among the malformed ones.
        diagnostics.sort_by_key(|d| match d.location {
            Location::Item { index, .. } => index,
            _ => 0,
        });
        self.diagnostics.extend(diagnostics);
        self.received += page.items;
        self.total_count = page.total_count.or(self.total_count);
        self.total_pages = page.total_pages.or(self.total_pages);
        let more = page
            .has_next_page
            .unwrap_or_else(|| self.total_pages.is_some_and(|t| u64::from(page.page) < t));
        let stop = if !more {
            None
        } else if page.items == 0 {
            Some("has no items but says there is a next page")
        } else if readable > 0 && added == 0 {
            Some("repeats only agents already loaded (the registry may be ignoring `page`)")
        } else if page.page >= MAX_PAGES {
            Some("is the last one the catalogue reads")
        } else {
            None
        };
        if let Some(reason) = stop {
            self.diagnostics.push(Diagnostic {
                severity: Severity::Warning,
                location: Location::Registry,
                message: format!("page {} {reason}; paging stopped there", page.page),
                hint: None,
            });
        }
        if more && stop.is_none() {
            self.page += 1;
        } else {
            self.done = true;
        }
        Ok(PageReport {
            page: page.page,
            items: page.items,
            added,
            done: self.done,
        })
    }

    /// Records that fetching the current page failed (`message`: `HTTP 503`, a network error),
    /// and returns the error to show. Nothing loaded is lost; the same page is asked for again.
    pub fn fail(&mut self, message: &str) -> PageError {
        let err = PageError::Request {
            page: self.page,
            message: message.to_owned(),
        };
        self.error = Some(err.clone());
        err
    }

    /// Why the current page last failed, until it is read.
    pub fn last_error(&self) -> Option<&PageError> {
        self.error.as_ref()
    }

    /// Items received so far (readable or not), and the registry's `totalCount` once a page
    /// said it: for a progress bar.
    pub fn progress(&self) -> (usize, Option<u64>) {
        (self.received, self.total_count)
    }

    /// `totalPages`, once a page said it.
    pub fn total_pages(&self) -> Option<u64> {
        self.total_pages
    }

    /// The agents loaded so far, in listing order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The problems found so far, in the order found.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Everything loaded, as [`crate::load()`] gives it: the agents as a [`Registry`] (without a
    /// version), and the diagnostics.
    pub fn into_loaded(self) -> Loaded {
        Loaded {
            registry: Registry {
                version: None,
                entries: self.entries,
            },
            diagnostics: self.diagnostics,
        }
    }
}

/// Path-segment characters left as they are: the unreserved ones of RFC 3986.
const PATH_SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// A base URL without surrounding blanks and trailing slashes.
fn trim_base(base_url: &str) -> &str {
    base_url.trim().trim_end_matches('/')
}

/// `null` read as the type's default (an empty list or map, an empty string).
fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Option::unwrap_or_default)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_words_read_in_any_case_and_keep_unknown_ones() {
        assert_eq!(Transport::parse("Http"), Transport::Http);
        assert_eq!(
            Transport::parse("azureservicebus"),
            Transport::AzureServiceBus
        );
        assert_eq!(
            Transport::parse("Grpc"),
            Transport::Other("Grpc".to_owned())
        );
        assert_eq!(Transport::parse("Grpc").as_str(), "Grpc");
        assert_eq!(Protocol::parse("a2a").as_str(), "A2A");
        assert_eq!(Protocol::parse("OpenAI").as_str(), "OpenAI");
        assert_eq!(
            LivenessModel::parse("PERSISTENT"),
            LivenessModel::Persistent
        );
        assert_eq!(LivenessModel::parse("").as_str(), "");
        assert!(Transport::Amqp.is_queue() && !Transport::Http.is_queue());
        assert!(!Transport::parse("Kafka").is_queue());
    }

    #[test]
    fn base_urls_lose_trailing_slashes() {
        for base in ["http://x", "http://x/", " http://x// "] {
            assert_eq!(
                Pager::new(base).next_url().unwrap(),
                "http://x/discover/agents?liveOnly=false&page=1&pageSize=100"
            );
        }
        let document = ProtocolDocument {
            label: "MCP server card",
            path: "/mcp/servers/a".to_owned(),
        };
        assert_eq!(
            document.url("http://x/registry/"),
            "http://x/registry/mcp/servers/a"
        );
    }
}
