//! The pure core of the ACP registry catalogue.
//!
//! Everything the site and the maintainer tools share lives here, free of any browser or UI
//! dependency so it is tested natively:
//!
//! - [`model`]: the published `registry.json` shape ([`Registry`], [`Entry`], [`Distribution`]);
//! - [`agentregistry`]: the other source, an AgentRegistry discovery service: its agents, a
//!   sans-IO [`Pager`] over its listing, and the adapter to [`Entry`];
//! - [`load`](mod@load): reading a registry text, collecting a [`Diagnostic`] per bad entry
//!   instead of failing on the first one, and normalising the RFD's older manifest shape;
//! - [`id`]: the registry's slug rule, and what an id may safely become (a file name, a page
//!   address);
//! - [`invisible`]: characters a reader cannot see (controls, bidi controls, zero-width
//!   characters), named and revealed;
//! - [`license`]: licence values normalised for faceting;
//! - [`url`]: which URLs may become links;
//! - [`lookalike`]: entries confusable with another, mixed-script and invisible-character
//!   names, misleading links;
//! - [`search`]: the typo-tolerant, ranked search index;
//! - [`protocol`]: the daily protocol matrix (auth methods and capabilities found by probing
//!   each agent), read leniently;
//! - [`facets`]: filters and their live counts;
//! - [`query`]: the catalogue state as a URL query string;
//! - [`catalog`]: the three put together, as the catalogue page uses them;
//! - [`snippets`]: install, run and client-configuration snippets for an agent page.
#![deny(missing_docs)]

pub mod agentregistry;
pub mod catalog;
pub mod facets;
pub mod id;
pub mod invisible;
pub mod license;
pub mod load;
pub mod lookalike;
pub mod model;
pub mod protocol;
pub mod query;
pub mod search;
pub mod snippets;
pub mod url;

pub use agentregistry::{
    Endpoint, Page, PageError, PageReport, Pager, ProtocolDocument, ProtocolMetadata, ServiceAgent,
    ServiceCapability, parse_page,
};
pub use catalog::{Catalog, CatalogView};
pub use facets::{
    AuthFilter, CapabilityFilter, EntryFacets, FacetCounts, FacetIndex, Filters, TagGroup,
};
pub use load::{Diagnostic, LoadError, Loaded, Location, Severity, load};
pub use lookalike::Lookalikes;
pub use model::{
    Arch, BinaryTarget, CmdProblem, Distribution, Entry, Kind, Method, Os, PackageTarget, Platform,
    PlatformKey, Registry,
};
pub use protocol::{
    AuthMethod, Capability, Facts, MatrixError, ProbeResult, ProbeStatus, ProtocolMatrix,
    parse_matrix,
};
pub use query::{CatalogQuery, Sort};
pub use search::{Hit, Matches, SearchIndex};
pub use snippets::{
    Client, ClientSnippet, InstallSnippet, LaunchCommand, Note, NoteKind, Refusal, Shell,
    client_snippets, launch_command, preferred_method, refusal, run_snippets,
};
