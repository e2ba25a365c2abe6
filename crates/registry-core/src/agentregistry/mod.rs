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
//! same [`Entry`](crate::Entry) an ACP registry gives, keeping the item in the entry's
//! [`Origin`](crate::Origin) for what only this source has (endpoints, capabilities, labels, liveness). Search, facets, the URL codec and
//! [`crate::Catalog`] then work unchanged; the facets add string-valued groups for this source
//! ([`crate::facets::TagGroup`]).
//!
//! # Paging without IO
//!
//! [`Pager`] knows which URL to fetch next and reads each page's text; the caller does the HTTP.
//! As [`crate::load()`] does for a registry, it collects instead of aborting: a malformed item
//! becomes a [`Diagnostic`](crate::Diagnostic) at its page and index and the others load; a page that fails (an HTTP
//! error the caller reports with [`Pager::fail`], or a text that is not a page) keeps everything
//! loaded so far, and the same page is asked for again on retry. Values this crate does not know
//! (a transport `Grpc`, a protocol `OpenAI`) are kept and shown as written.
//!
//! # Modules
//!
//! `service.rs` holds the wire model (what an item says, with no knowledge of the catalogue's
//! model), `page.rs` reads a page's text into entries and diagnostics (the adapter to
//! [`Entry`](crate::Entry) lives there), and `pager.rs` says what to fetch next.

mod page;
mod pager;
mod service;

pub use page::{Page, PageError, parse_page};
pub use pager::{PageReport, Pager};
pub(crate) use service::KNOWN_FIELDS;
pub use service::{
    Endpoint, LivenessModel, Protocol, ProtocolDocument, ProtocolMetadata, ServiceAgent,
    ServiceCapability, Transport,
};

/// The `pageSize` the pager asks for: the registry's maximum.
pub const PAGE_SIZE: u32 = 100;

/// The pager stops after this many pages (100,000 agents at [`PAGE_SIZE`]), whatever the server
/// says about a next page.
pub const MAX_PAGES: u32 = 1000;

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
