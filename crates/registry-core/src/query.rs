//! The catalogue state as a URL query string.
//!
//! `?q=gemini%20cli&kind=agent&dist=npx&dist=uvx&os=windows&arch=aarch64&license=MIT&sort=name`,
//! `?auth=terminal&auth=env_var&cap=load-session&cap=set-model&listed=jetbrains&health=healthy`,
//! `?protocol=A2A&transport=Amqp&live=live&tag=finance&label=team%3Dfinance`
//!
//! | key       | value                                    | several                     |
//! |-----------|------------------------------------------|-----------------------------|
//! | `q`       | search text, exactly as typed            | the first one counts        |
//! | `kind`    | [`Kind::as_str`]: `agent`, `extension`   | repeated keys or a comma list |
//! | `dist`    | [`Method::as_str`]: `binary`, `npx`, `uvx` | repeated keys or a comma list |
//! | `os`      | [`Os::as_str`]: `darwin`, `linux`, `windows` | repeated keys or a comma list |
//! | `arch`    | [`Arch::as_str`]: `aarch64`, `x86_64`    | repeated keys or a comma list |
//! | `license` | a licence facet value                    | repeated keys only (licences may hold commas) |
//! | `auth`    | [`AuthFilter::as_str`]: `agent`, `terminal`, `env_var`, another method's name, `not-probed` | repeated keys or a comma list |
//! | `cap`     | [`CapabilityFilter::as_str`]: `load-session`, `session-list`, `session-fork`, `session-resume`, `session-stop`, `set-model`, `not-probed` | repeated keys or a comma list |
//! | `listed`  | [`ListedFor::as_str`]: `default`, `jetbrains`, `jetbrains-bundled`, `jetbrains-preview` | repeated keys or a comma list |
//! | `health`  | [`Health::as_str`]: `quarantined`, `probe-failed`, `healthy`, `not-probed` | repeated keys or a comma list |
//! | `protocol` | an endpoint protocol as the registry writes it: `A2A`, `MCP`, `ACP`, `Generic`, … | repeated keys only |
//! | `transport` | an endpoint transport: `Http`, `Amqp`, `AzureServiceBus`, … | repeated keys only |
//! | `live`    | `live` or `stale`                        | repeated keys only          |
//! | `capability` | a capability name of an AgentRegistry agent | repeated keys only       |
//! | `tag`     | a capability tag                         | repeated keys only          |
//! | `label`   | a label, as `key=value`                  | repeated keys only          |
//! | `owner`   | an owner id                              | repeated keys only          |
//! | `sort`    | `name` (`relevance`, the default, is left out) | the last one counts   |
//!
//! Writing is deterministic: keys in the order above, values in their sets' order, repeated keys
//! for several values, form encoding (a space is `+`, a `+` is `%2B`), nothing for defaults — so
//! the default state is the empty string. Reading is lenient: a leading `?` is skipped, `+` and
//! `%20` both read as a space, keys and enum values are trimmed and compared case-insensitively,
//! unknown keys and values are ignored, licences are trimmed and empty ones dropped. An `auth`
//! value that is not `not-probed` nor a known method is kept, trimmed, as another method's name
//! (compared case-sensitively, like licences), since a matrix may name methods this crate does
//! not know. The search text is kept exactly, spaces included, since it is what the search box
//! shows. The AgentRegistry keys (`protocol` to `owner`, the [`TagGroup`]s) are read like
//! licences: values may hold commas, so only repeated keys separate them; they are trimmed,
//! blank ones dropped, and compared case-sensitively.
//!
//! Round trip: `CatalogQuery::from_query_string(&q.to_query_string()) == q.normalized()` for every
//! query `q`, where [`CatalogQuery::normalized`] only trims licences and tag values and drops the
//! blank ones (and tag groups left empty), and reads each auth option's word back as above
//! (trimmed, split at commas, blank ones dropped, an other method named like a known one or
//! `not-probed` read as that).

use std::collections::{BTreeMap, BTreeSet};

use crate::facets::{AuthFilter, CapabilityFilter, Filters, TagGroup};
use crate::listing::{Health, ListedFor};
use crate::model::{Arch, Kind, Method, Os};

/// Result order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Sort {
    /// Best match first; by name when there is no search text.
    #[default]
    Relevance,
    /// By name (case-insensitive), then id.
    Name,
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
}

impl Sort {
    /// Both orders, in display order.
    pub const ALL: [Sort; 2] = [Sort::Relevance, Sort::Name];

    /// The query-string word: `relevance` or `name`.
    pub fn as_str(self) -> &'static str {
        match self {
            Sort::Relevance => "relevance",
            Sort::Name => "name",
        }
    }

    /// The inverse of [`Sort::as_str`].
    pub fn parse(s: &str) -> Option<Sort> {
        Sort::ALL.into_iter().find(|o| o.as_str() == s)
    }
}

impl CatalogQuery {
    /// The query string of this state, without the leading `?`; empty for the default state.
    pub fn to_query_string(&self) -> String {
        let mut out = form_urlencoded::Serializer::new(String::new());
        if !self.q.is_empty() {
            out.append_pair(Q, &self.q);
        }
        let f = &self.filters;
        for kind in &f.kinds {
            out.append_pair(KIND, kind.as_str());
        }
        for method in &f.methods {
            out.append_pair(DIST, method.as_str());
        }
        for os in &f.os {
            out.append_pair(OS, os.as_str());
        }
        for arch in &f.arch {
            out.append_pair(ARCH, arch.as_str());
        }
        for license in &f.licenses {
            out.append_pair(LICENSE, license);
        }
        for auth in &f.auth {
            out.append_pair(AUTH, auth.as_str());
        }
        for capability in &f.capabilities {
            out.append_pair(CAP, capability.as_str());
        }
        for view in &f.listed_for {
            out.append_pair(LISTED, view.as_str());
        }
        for health in &f.health {
            out.append_pair(HEALTH, health.as_str());
        }
        for (group, values) in &f.tags {
            for value in values {
                out.append_pair(group.as_str(), value);
            }
        }
        if self.sort != Sort::default() {
            out.append_pair(SORT, self.sort.as_str());
        }
        out.finish()
    }

    /// Reads a query string (with or without its leading `?`), leniently: see the module docs.
    pub fn from_query_string(query: &str) -> CatalogQuery {
        let query = query.strip_prefix('?').unwrap_or(query);
        let pairs: Vec<_> = form_urlencoded::parse(query.as_bytes()).collect();
        CatalogQuery::from_pairs(pairs.iter().map(|(k, v)| (k.as_ref(), v.as_ref())))
    }

    /// Reads already decoded key–value pairs (a router's parameter map), leniently: see the
    /// module docs.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> CatalogQuery {
        let mut query = CatalogQuery::default();
        let mut q = None;
        for (key, value) in pairs {
            let f = &mut query.filters;
            match key.trim().to_ascii_lowercase().as_str() {
                Q => {
                    q.get_or_insert(value);
                }
                KIND => insert_words(&mut f.kinds, value, Kind::parse),
                DIST => insert_words(&mut f.methods, value, Method::parse),
                OS => insert_words(&mut f.os, value, Os::parse),
                ARCH => insert_words(&mut f.arch, value, Arch::parse),
                LICENSE => {
                    let license = value.trim();
                    if !license.is_empty() {
                        f.licenses.insert(license.to_owned());
                    }
                }
                AUTH => insert_auth(&mut f.auth, value),
                CAP => insert_words(&mut f.capabilities, value, CapabilityFilter::parse),
                LISTED => insert_words(&mut f.listed_for, value, ListedFor::parse),
                HEALTH => insert_words(&mut f.health, value, Health::parse),
                SORT => {
                    if let Some(sort) = Sort::parse(&value.trim().to_ascii_lowercase()) {
                        query.sort = sort;
                    }
                }
                other => {
                    if let Some(group) = TagGroup::parse(other) {
                        insert_tag(&mut f.tags, group, value);
                    }
                }
            }
        }
        query.q = q.unwrap_or_default().to_owned();
        query
    }

    /// This state as reading it back from its query string gives it: licences and tag values
    /// trimmed, blank ones dropped (and tag groups left empty), auth options read back from their
    /// words (see the module docs).
    pub fn normalized(&self) -> CatalogQuery {
        let mut out = self.clone();
        out.filters.licenses = self
            .filters
            .licenses
            .iter()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect();
        out.filters.auth.clear();
        for auth in &self.filters.auth {
            insert_auth(&mut out.filters.auth, auth.as_str());
        }
        out.filters.tags.clear();
        for (&group, values) in &self.filters.tags {
            for value in values {
                insert_tag(&mut out.filters.tags, group, value);
            }
        }
        out
    }

    /// Toggles one filter value named as in the query string (`dist`, `npx`; `auth`,
    /// `not-probed`; `protocol`, `A2A`); unknown keys and values are ignored, tag values are
    /// taken as given.
    pub fn toggle_filter(&mut self, key: &str, value: &str) {
        let f = &mut self.filters;
        match key {
            KIND => Kind::parse(value)
                .into_iter()
                .for_each(|k| f.toggle_kind(k)),
            DIST => Method::parse(value)
                .into_iter()
                .for_each(|m| f.toggle_method(m)),
            OS => Os::parse(value).into_iter().for_each(|o| f.toggle_os(o)),
            ARCH => Arch::parse(value)
                .into_iter()
                .for_each(|a| f.toggle_arch(a)),
            LICENSE => f.toggle_license(value),
            AUTH => AuthFilter::parse(value)
                .into_iter()
                .for_each(|a| f.toggle_auth(a)),
            CAP => CapabilityFilter::parse(value)
                .into_iter()
                .for_each(|c| f.toggle_capability(c)),
            LISTED => ListedFor::parse(value)
                .into_iter()
                .for_each(|v| f.toggle_listed_for(v)),
            HEALTH => Health::parse(value)
                .into_iter()
                .for_each(|h| f.toggle_health(h)),
            other => {
                if let Some(group) = TagGroup::parse(other) {
                    f.toggle_tag(group, value);
                }
            }
        }
    }

    /// Whether this is the default state: no search text, no filter, relevance order.
    pub fn is_default(&self) -> bool {
        *self == CatalogQuery::default()
    }
}

use keys::*;

/// The query-string keys.
pub mod keys {
    /// Search text.
    pub const Q: &str = "q";
    /// Kind filter.
    pub const KIND: &str = "kind";
    /// Distribution-method filter.
    pub const DIST: &str = "dist";
    /// Operating-system filter.
    pub const OS: &str = "os";
    /// Architecture filter.
    pub const ARCH: &str = "arch";
    /// Licence filter.
    pub const LICENSE: &str = "license";
    /// Auth-method filter.
    pub const AUTH: &str = "auth";
    /// Capability filter.
    pub const CAP: &str = "cap";
    /// Client-view filter ("Listed for").
    pub const LISTED: &str = "listed";
    /// Health filter.
    pub const HEALTH: &str = "health";
    // The AgentRegistry filters' keys are the tag groups' names: see `TagGroup::as_str`.
    /// Order.
    pub const SORT: &str = "sort";
}

/// Adds each comma-separated word of `value` that `parse` knows, trimmed and lowercased.
fn insert_words<T: Ord>(set: &mut BTreeSet<T>, value: &str, parse: fn(&str) -> Option<T>) {
    set.extend(
        value
            .split(',')
            .filter_map(|word| parse(&word.trim().to_ascii_lowercase())),
    );
}

/// Adds a tag value, trimmed, unless it is blank.
fn insert_tag(tags: &mut BTreeMap<TagGroup, BTreeSet<String>>, group: TagGroup, value: &str) {
    let value = value.trim();
    if !value.is_empty() {
        tags.entry(group).or_default().insert(value.to_owned());
    }
}

/// Adds each comma-separated auth option of `value` (see [`AuthFilter::parse`]).
fn insert_auth(set: &mut BTreeSet<AuthFilter>, value: &str) {
    set.extend(value.split(',').filter_map(AuthFilter::parse));
}
