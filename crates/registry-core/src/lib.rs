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
//! - [`listing`]: where each agent is listed (the JetBrains views) and whether it is
//!   quarantined, read leniently;
//! - [`url`]: which URLs may become links;
//! - [`icon_bounds`]: how big an icon may be, checkable without parsing it (shared by the
//!   validator, the site and the link-preview image); [`icon_measure`]: an icon's text measured
//!   against those bounds before the site draws it;
//! - [`lookalike`]: entries confusable with another, mixed-script and invisible-character
//!   names, misleading links;
//! - [`search`]: the typo-tolerant, ranked search index;
//! - [`protocol`]: the daily protocol matrix (auth methods, capabilities and per-method probe
//!   results found by starting each agent), read leniently;
//! - [`facets`]: filters and their live counts;
//! - [`query`]: the catalogue state as a URL query string;
//! - [`catalog`]: the three put together, as the catalogue page uses them; [`card`]: what a
//!   result's card shows that a search marks, and the results' count;
//! - [`snippets`]: install, run and client-configuration snippets for an agent page;
//! - [`clients`]: ACP clients as data (`data/clients.json`, each fact with its source), and
//!   the verdict of whether an agent works in one on a platform, with its reasons;
//! - [`compare`]: agents side by side: the ids a comparison's address asks for, and its rows;
//! - [`source`]: which kind of registry a site reads;
//! - [`edition`]: which registry build is shown, when it was published, and how old the
//!   probe beside it is;
//! - [`changes`]: the change log (`changes.json`): dated registry and probe states turned into
//!   events, carried forward from one build to the next;
//! - [`settings`]: a site's settings (registry URL, public URL…), written into its pages by the
//!   build and read by the app at start;
//! - what the build publishes beside the pages: [`address`] (canonical URLs under
//!   `SITE_ORIGIN` + `PUBLIC_URL`), [`badge`] (an entry's SVG badge and the snippets linking
//!   it), [`jsonld`] (an agent page's structured data), [`sitemap`] (`sitemap.xml`,
//!   `robots.txt`).
#![deny(missing_docs)]

pub mod address;
pub mod agentregistry;
pub mod badge;
pub mod card;
pub mod catalog;
pub mod changes;
pub mod clients;
pub mod compare;
pub mod edition;
pub mod facets;
pub mod icon_bounds;
pub mod icon_measure;
pub mod id;
pub mod invisible;
pub mod jsonld;
pub mod license;
pub mod listing;
pub mod load;
pub mod lookalike;
pub mod model;
pub mod protocol;
pub mod query;
pub mod search;
pub mod settings;
pub mod sitemap;
pub mod snippets;
pub mod source;
pub mod url;

pub use address::{SiteAddress, badge_path, og_image_path, page_path};
pub use agentregistry::{
    Endpoint, Page, PageError, PageReport, Pager, ProtocolDocument, ProtocolMetadata, ServiceAgent,
    ServiceCapability, parse_page,
};
pub use badge::{BadgeSnippets, badge_snippets, badge_svg};
pub use catalog::{Catalog, CatalogView, Dates};
pub use clients::{ClientProfile, Fact, Profiles, ProfilesError, parse_profiles};
pub use facets::{
    AuthFilter, CapabilityFilter, EntryFacets, Facet, FacetCounts, FacetIndex, FacetValue, Filters,
    ProtocolVersionFilter, TagGroup,
};
pub use listing::{
    ClientView, Health, ListedFor, Listing, Listings, Presence, Quarantine, QuarantineError,
    QuarantineReason, ReasonKind, ViewEntry, parse_quarantine, parse_view,
};
pub use load::{Diagnostic, LoadError, Loaded, Location, Severity, load};
pub use lookalike::Lookalikes;
pub use model::{
    Arch, BinaryTarget, CmdProblem, Distribution, Entry, Kind, Method, Origin, Os, PackageTarget,
    Platform, PlatformKey, Registry,
};
pub use protocol::{
    AuthMethod, Capability, Facts, Feature, MatrixError, MethodProbe, MethodStatus, ProbeResult,
    ProbeStatus, ProtocolMatrix, Report, Verdict, parse_matrix,
};
pub use query::{CatalogQuery, Sort};
pub use search::{Hit, Matches, SearchIndex};
pub use settings::SiteSettings;
pub use sitemap::{robots_txt, sitemap_xml};
pub use snippets::{
    Client, ClientSnippet, InstallSnippet, LaunchCommand, Note, NoteKind, Refusal, Shell,
    client_snippets, launch_command, preferred_method, refusal, run_snippets,
};
pub use source::RegistryKind;
