//! The catalogue state as a URL query string.
//!
//! `?q=gemini%20cli&kind=agent&dist=npx&dist=uvx&os=windows&arch=aarch64&license=MIT&sort=name`,
//! `?auth=terminal&auth=env_var&cap=load-session&cap=set-model&listed=jetbrains&health=healthy`,
//! `?acp=1&acp=not-probed`,
//! `?protocol=A2A&transport=Amqp&live=live&tag=finance&label=team%3Dfinance`
//!
//! | key       | value                                    | several                     |
//! |-----------|------------------------------------------|-----------------------------|
//! | `q`       | search text, exactly as typed            | the first one counts        |
//! | `kind`    | [`Kind::as_str`](crate::Kind::as_str): `agent`, `extension` | repeated keys or a comma list |
//! | `listed`  | [`ListedFor::as_str`](crate::ListedFor::as_str): `default`, `jetbrains`, `jetbrains-bundled`, `jetbrains-preview` | repeated keys or a comma list |
//! | `health`  | [`Health::as_str`](crate::Health::as_str): `quarantined`, `probe-failed`, `healthy`, `not-probed` | repeated keys or a comma list |
//! | `dist`    | [`Method::as_str`](crate::Method::as_str): `binary`, `npx`, `uvx` | repeated keys or a comma list |
//! | `os`      | [`Os::as_str`](crate::Os::as_str): `darwin`, `linux`, `windows` | repeated keys or a comma list |
//! | `arch`    | [`Arch::as_str`](crate::Arch::as_str): `aarch64`, `x86_64` | repeated keys or a comma list |
//! | `license` | a licence facet value                    | repeated keys only (licences may hold commas) |
//! | `auth`    | [`AuthFilter::as_str`](crate::AuthFilter::as_str): `agent`, `terminal`, `env_var`, another method's name, `not-probed` | repeated keys or a comma list (a comma in a name is `%2C`) |
//! | `cap`     | [`CapabilityFilter::as_str`](crate::CapabilityFilter::as_str): `load-session`, `session-list`, `session-fork`, `session-resume`, `session-stop`, `set-model`, `not-probed` | repeated keys or a comma list |
//! | `acp`     | [`ProtocolVersionFilter::as_str`](crate::ProtocolVersionFilter::as_str): an ACP protocol version as the probe writes it (`1`), `not-probed` | repeated keys or a comma list |
//! | `protocol` | an endpoint protocol as the registry writes it: `A2A`, `MCP`, `ACP`, `Generic`, … | repeated keys only |
//! | `transport` | an endpoint transport: `Http`, `Amqp`, `AzureServiceBus`, … | repeated keys only |
//! | `live`    | `live` or `stale`                        | repeated keys only          |
//! | `capability` | a capability name of an AgentRegistry agent | repeated keys only       |
//! | `tag`     | a capability tag                         | repeated keys only          |
//! | `label`   | a label, as `key=value`                  | repeated keys only          |
//! | `owner`   | an owner id                              | repeated keys only          |
//! | `sort`    | `name` (`relevance`, the default, is left out) | the last one counts   |
//! | `client`  | the id of the visitor's ACP client (`zed`): a slug, not a filter | the last one counts |
//! | `works`   | [`Outcome::as_str`](crate::clients::Outcome::as_str) in that client: `works`, `works-with-step`, `unknown`, `does-not-work` | repeated keys or a comma list |
//!
//! The facet keys, and how their values are written and read, are the rows of
//! [`FACETS`](crate::facets::FACETS): this codec iterates that table and knows no facet itself.
//!
//! Writing is deterministic: keys in the order above (the table's), values in their sets' order, repeated keys
//! for several values, form encoding (a space is `+`, a `+` is `%2B`), nothing for defaults — so
//! the default state is the empty string. Reading is lenient: a leading `?` is skipped, `+` and
//! `%20` both read as a space, keys and enum values are trimmed and compared case-insensitively,
//! unknown keys and values are ignored, licences are trimmed and empty ones dropped. An `auth`
//! value that is not `not-probed` nor a known method is kept, trimmed, as another method's name
//! (compared case-sensitively, like licences), since a matrix may name methods this crate does
//! not know. An `acp` value that is not `not-probed` nor a version (digits in dot-separated
//! parts, like `1`) is ignored: `acp=v1` selects nothing. The search text is kept exactly,
//! spaces included, since it is what the search box shows. The AgentRegistry keys (`protocol`
//! to `owner`, the [`TagGroup`](crate::TagGroup)s) are read like licences: values may hold
//! commas, so only repeated keys separate them; they are trimmed, blank ones dropped, and
//! compared case-sensitively.
//!
//! A comma list is split at its literal commas before its words are decoded, so a comma that is
//! part of a value (a probe file may name an auth method `x,terminal`), which writing encodes as
//! `%2C`, stays in it: `auth=x%2Cterminal` is one method, `auth=agent,terminal` two.
//!
//! Round trip: `CatalogQuery::from_query_string(&q.to_query_string()) == q.normalized()` for every
//! query `q`, where [`CatalogQuery::normalized`] only trims licences and tag values and drops the
//! blank ones (and tag groups left empty), reads each auth option's word back as above
//! (trimmed, blank ones dropped, an other method named like a known one or `not-probed` read as
//! that), and reads each protocol version back (trimmed, dropped when it is not one).

use std::collections::BTreeSet;

use crate::clients::Outcome;
use crate::facets::{Facet, Filters, Several};

/// One form-encoded component decoded: `+` is a space, `%XX` a byte, invalid UTF-8 replaced.
fn decode(component: &str) -> String {
    percent_encoding::percent_decode_str(&component.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned()
}

/// Result order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Sort {
    /// Best match first; by name when there is no search text.
    #[default]
    Relevance,
    /// By name (case-insensitive), then id.
    Name,
    /// Last updated first (the change log's last addition or version change of each entry), then
    /// by name; entries the log has no day for last.
    Updated,
    /// Last added first, then by name; entries listed before the log began last.
    Newest,
}

/// Everything the catalogue page shows depends on this, and it all lives in the URL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CatalogQuery {
    /// Search text, as typed.
    pub q: String,
    /// Filters.
    pub filters: Filters,
    /// Order.
    pub sort: Sort,
    /// The ACP client the visitor chose ("My editor"), by its profile's id: the cards say
    /// whether each agent works in it. Not a filter: the results are the same.
    pub client: Option<String>,
    /// Keeps the entries whose verdict in the visitor's client is one of these (OR-ed), in
    /// [`Outcome`] order; it filters only when the page has the verdicts
    /// ([`Catalog::view_fitted`](crate::Catalog::view_fitted)).
    pub works: BTreeSet<Outcome>,
}

impl Sort {
    /// Every order, in display order.
    pub const ALL: [Sort; 4] = [Sort::Relevance, Sort::Name, Sort::Updated, Sort::Newest];

    /// The query-string word: `relevance`, `name`, `updated` or `newest`.
    pub fn as_str(self) -> &'static str {
        match self {
            Sort::Relevance => "relevance",
            Sort::Name => "name",
            Sort::Updated => "updated",
            Sort::Newest => "newest",
        }
    }

    /// Whether it orders by the change log's days ([`crate::catalog::Dates`]).
    pub fn by_date(self) -> bool {
        matches!(self, Sort::Updated | Sort::Newest)
    }

    /// The inverse of [`Sort::as_str`].
    pub fn parse(s: &str) -> Option<Sort> {
        Sort::ALL.into_iter().find(|o| o.as_str() == s)
    }
}

impl CatalogQuery {
    /// The query string, without a leading `?`; empty for the default state.
    pub fn to_query_string(&self) -> String {
        let mut out = form_urlencoded::Serializer::new(String::new());
        if !self.q.is_empty() {
            out.append_pair(Q, &self.q);
        }
        for value in self.filters.iter() {
            out.append_pair(value.facet().key(), value.as_str());
        }
        if self.sort != Sort::default() {
            out.append_pair(SORT, self.sort.as_str());
        }
        if let Some(client) = &self.client {
            out.append_pair(CLIENT, client);
        }
        for outcome in &self.works {
            out.append_pair(WORKS, outcome.as_str());
        }
        out.finish()
    }

    /// Reads a query string (with or without its leading `?`) leniently. A value of a group
    /// written as a comma list is split at its commas before it is decoded: a comma that is
    /// part of a value (an auth method named `x,terminal`) is written `%2C` and stays in it.
    pub fn from_query_string(query: &str) -> CatalogQuery {
        let query = query.strip_prefix('?').unwrap_or(query);
        let mut pairs: Vec<(String, String)> = Vec::new();
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let key = decode(key);
            let lower = key.trim().to_ascii_lowercase();
            let commas = lower == WORKS
                || Facet::from_key(&lower)
                    .is_some_and(|facet| facet.spec().several == Several::Commas);
            if commas {
                pairs.extend(value.split(',').map(|word| (key.clone(), decode(word))));
            } else {
                pairs.push((key, decode(value)));
            }
        }
        let mut read = CatalogQuery::default();
        let mut q = None;
        for (key, value) in &pairs {
            read.read_pair(key, value, &mut q, |facet, value| {
                facet.parse(value).into_iter().collect()
            });
        }
        read.q = q.unwrap_or_default().to_owned();
        read
    }

    /// Reads decoded key–value pairs as [`CatalogQuery::from_query_string`] does; decoded, a
    /// comma list's value is split at every comma ([`Facet::read`]).
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> CatalogQuery {
        let mut query = CatalogQuery::default();
        let mut q = None;
        for (key, value) in pairs {
            query.read_pair(key, value, &mut q, Facet::read);
        }
        query.q = q.unwrap_or_default().to_owned();
        query
    }

    /// Reads one decoded pair into this query, a facet's value with `values`; the first search
    /// text is kept in `q`.
    fn read_pair<'a>(
        &mut self,
        key: &str,
        value: &'a str,
        q: &mut Option<&'a str>,
        values: impl Fn(Facet, &str) -> Vec<crate::FacetValue>,
    ) {
        match key.trim().to_ascii_lowercase().as_str() {
            Q => {
                q.get_or_insert(value);
            }
            SORT => {
                if let Some(sort) = Sort::parse(&value.trim().to_ascii_lowercase()) {
                    self.sort = sort;
                }
            }
            CLIENT => {
                let client = value.trim().to_ascii_lowercase();
                if crate::id::is_slug(&client) {
                    self.client = Some(client);
                }
            }
            WORKS => {
                for word in value.split(',') {
                    let word = word.trim().to_ascii_lowercase();
                    if let Some(outcome) = Outcome::ALL.into_iter().find(|o| o.as_str() == word) {
                        self.works.insert(outcome);
                    }
                }
            }
            other => {
                if let Some(facet) = Facet::from_key(other) {
                    self.filters.extend(values(facet, value));
                }
            }
        }
    }

    /// This query as its query string reads back: every value read again from its word, so
    /// licences and tag values trimmed and blank ones dropped, an auth word naming a known
    /// method or `not-probed` read as that, a protocol version that is not one dropped.
    pub fn normalized(&self) -> CatalogQuery {
        CatalogQuery {
            filters: self
                .filters
                .iter()
                .flat_map(|v| v.facet().parse(v.as_str()))
                .collect(),
            ..self.clone()
        }
    }

    /// Whether this is the default state (no search, no filter, the default sort, no client).
    pub fn is_default(&self) -> bool {
        *self == CatalogQuery::default()
    }
}

/// The query-string keys besides the facets' ([`FacetSpec::key`](crate::facets::FacetSpec)).
pub mod keys {
    /// The search text.
    pub const Q: &str = "q";
    /// The sort.
    pub const SORT: &str = "sort";
    /// The visitor's ACP client.
    pub const CLIENT: &str = "client";
    /// The verdicts kept, in the visitor's client.
    pub const WORKS: &str = "works";
}

use keys::{CLIENT, Q, SORT, WORKS};
