//! The wire model of a discovery listing: an item ([`ServiceAgent`]), its endpoints and
//! capabilities, the words it uses (unknown ones kept), and the protocol documents served for it.
//!
//! A `ServiceAgent` holds its endpoints, capabilities and labels; the words of `Transport`,
//! `Protocol` and `LivenessModel` that this crate does not know are kept as `Other`, as written;
//! `ServiceAgent::documents` lists the protocol-native cards the registry serves for it.

use std::collections::BTreeMap;
use std::fmt;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::Deserialize;
use serde::de::Deserializer;
use serde_json::{Map, Value};

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

/// Path-segment characters left as they are: the unreserved ones of RFC 3986.
const PATH_SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// A base URL without surrounding blanks and trailing slashes.
pub(super) fn trim_base(base_url: &str) -> &str {
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
