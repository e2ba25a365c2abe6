//! The table of facets: every group's URL key, legend, how its values combine and are listed,
//! and the typed values it holds.
//!
//! The URL codec ([`crate::query`]), the counting ([`FacetIndex`](super::FacetIndex)) and the
//! site's filter panel all iterate [`FACETS`]; a group's values are [`FacetValue`]s, parsed once
//! from the query string and passed typed from then on. What an entry *has* in each group is the
//! one predicate of [`super::entry`].

use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::Arc;

use crate::listing::{Health, ListedFor};
use crate::model::{Arch, Kind, Method, Os};
use crate::protocol::{AuthMethod, Capability, NOT_PROBED};

/// The `live` group's value for an agent with a live endpoint.
pub const LIVE: &str = "live";
/// The `live` group's value for an agent without one.
pub const STALE: &str = "stale";

/// A facet group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Facet {
    /// Agent or extension.
    Kind,
    /// The clients' views listing the entry.
    ListedFor,
    /// Quarantine, then the probe.
    Health,
    /// Distribution methods.
    Method,
    /// Operating systems the entry runs on.
    Os,
    /// Architectures the entry runs on.
    Arch,
    /// Licence facet values (see [`crate::license::facet_value`]).
    License,
    /// Auth methods the probe found.
    Auth,
    /// Capabilities the probe found.
    Capability,
    /// The ACP protocol version the probe found.
    ProtocolVersion,
    /// A string-valued group of [AgentRegistry](crate::agentregistry) entries.
    Tag(TagGroup),
}

/// A string-valued facet group of [AgentRegistry](crate::agentregistry) entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TagGroup {
    /// Endpoint protocols: `A2A`, `MCP`, `ACP`, `Generic`, or another as written.
    Protocol,
    /// Endpoint transports: `Http`, `Amqp`, `AzureServiceBus`, or another as written.
    Transport,
    /// [`LIVE`] when an endpoint is live, else [`STALE`].
    Live,
    /// Capability names.
    Capability,
    /// Capability tags.
    Tag,
    /// Labels, as `key=value`.
    Label,
    /// The owner's id.
    Owner,
}

/// One row of [`FACETS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FacetSpec {
    /// The group.
    pub facet: Facet,
    /// Its query-string key.
    pub key: &'static str,
    /// What people read above its options.
    pub legend: &'static str,
    /// How several values are written in the query string.
    pub several: Several,
    /// How its selected values combine.
    pub within: Within,
    /// Which values its counts list, beside those it offers and those selected.
    pub found: Found,
    /// The order of its options.
    pub order: Order,
}

/// How several values of a group are written in a query string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Several {
    /// Repeated keys or a comma list (`dist=npx,uvx`); words are trimmed and compared
    /// case-insensitively.
    Commas,
    /// Repeated keys only, since values may hold commas; values are trimmed and compared
    /// case-sensitively.
    Repeated,
}

/// How the selected values of a group combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Within {
    /// An entry passes with any of them (OR); each count is of the entries having the value.
    Any,
    /// An entry passes with every one of them (AND), or with the group's
    /// [alternative](FacetValue::is_alternative) when that is selected; each count is the number
    /// of results there would be if the value were ticked.
    All,
}

/// Which values a group's counts list beside the ones its group offers and the selected ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// None: the group offers every value it can have.
    No,
    /// The values some entry among the results has.
    WithResults,
    /// The values some entry of the catalogue has, even at zero.
    Always,
}

/// The order of a group's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The values' own order ([`FacetValue`]'s `Ord`: each enum's `ALL` order).
    Value,
    /// By count descending, then case-insensitively by value, then by value.
    Count,
    /// These values first, in this order, then the others by count as [`Order::Count`].
    Pinned(&'static [&'static str]),
}

/// Every facet group, in the order the filter panel shows them and the query string writes them.
pub const FACETS: [FacetSpec; 17] = [
    FacetSpec {
        facet: Facet::Kind,
        key: "kind",
        legend: "Kind",
        several: Several::Commas,
        within: Within::Any,
        found: Found::No,
        order: Order::Value,
    },
    FacetSpec {
        facet: Facet::ListedFor,
        key: "listed",
        legend: "Listed for",
        several: Several::Commas,
        within: Within::Any,
        found: Found::No,
        order: Order::Value,
    },
    FacetSpec {
        facet: Facet::Health,
        key: "health",
        legend: "Health",
        several: Several::Commas,
        within: Within::Any,
        found: Found::No,
        order: Order::Value,
    },
    FacetSpec {
        facet: Facet::Method,
        key: "dist",
        legend: "Distribution",
        several: Several::Commas,
        within: Within::Any,
        found: Found::No,
        order: Order::Value,
    },
    FacetSpec {
        facet: Facet::Os,
        key: "os",
        legend: "Operating system",
        several: Several::Commas,
        within: Within::Any,
        found: Found::No,
        order: Order::Value,
    },
    FacetSpec {
        facet: Facet::Arch,
        key: "arch",
        legend: "Architecture",
        several: Several::Commas,
        within: Within::Any,
        found: Found::No,
        order: Order::Value,
    },
    FacetSpec {
        facet: Facet::License,
        key: "license",
        legend: "License",
        several: Several::Repeated,
        within: Within::Any,
        found: Found::WithResults,
        order: Order::Count,
    },
    FacetSpec {
        facet: Facet::Auth,
        key: "auth",
        legend: "Authentication (probed)",
        several: Several::Commas,
        within: Within::Any,
        found: Found::Always,
        order: Order::Value,
    },
    FacetSpec {
        facet: Facet::Capability,
        key: "cap",
        legend: "Capabilities (probed)",
        several: Several::Commas,
        within: Within::All,
        found: Found::No,
        order: Order::Value,
    },
    FacetSpec {
        facet: Facet::ProtocolVersion,
        key: "acp",
        legend: "ACP version (probed)",
        several: Several::Commas,
        within: Within::Any,
        found: Found::Always,
        order: Order::Value,
    },
    tag(TagGroup::Protocol, "protocol", "Protocol", Order::Count),
    tag(TagGroup::Transport, "transport", "Transport", Order::Count),
    tag(
        TagGroup::Live,
        "live",
        "Liveness",
        Order::Pinned(&[LIVE, STALE]),
    ),
    tag(
        TagGroup::Capability,
        "capability",
        "Capability",
        Order::Count,
    ),
    tag(TagGroup::Tag, "tag", "Tag", Order::Count),
    tag(TagGroup::Label, "label", "Label", Order::Count),
    tag(TagGroup::Owner, "owner", "Owner", Order::Count),
];

/// A tag group's row: its values OR-ed, written as the registry wrote them, listed when some
/// result has them.
const fn tag(group: TagGroup, key: &'static str, legend: &'static str, order: Order) -> FacetSpec {
    FacetSpec {
        facet: Facet::Tag(group),
        key,
        legend,
        several: Several::Repeated,
        within: Within::Any,
        found: Found::WithResults,
        order,
    }
}

/// A value of a facet group, typed.
///
/// The derived order is the table's: by group in [`FACETS`] order, then by value (each enum in
/// its `ALL` order, strings as strings); the query string and [`Filters`](super::Filters) keep
/// values in it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FacetValue {
    /// A kind.
    Kind(Kind),
    /// A client view.
    ListedFor(ListedFor),
    /// A health.
    Health(Health),
    /// A distribution method.
    Method(Method),
    /// An operating system.
    Os(Os),
    /// An architecture.
    Arch(Arch),
    /// A licence facet value.
    License(Arc<str>),
    /// An auth option.
    Auth(AuthFilter),
    /// A capability option.
    Capability(CapabilityFilter),
    /// An ACP protocol version option.
    ProtocolVersion(ProtocolVersionFilter),
    /// A tag-group value, trimmed.
    Tag(TagGroup, Arc<str>),
}

/// An option of the auth facet.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AuthFilter {
    /// Probed agents advertising this method.
    Method(AuthMethod),
    /// Entries whose auth methods are unknown (see the module docs).
    NotProbed,
}

/// An option of the ACP protocol version facet.
///
/// Versions sort by their dot-separated numbers (`1` before `2` before `10`), before
/// `NotProbed`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ProtocolVersionFilter {
    /// Probed agents that answered `initialize` with this version, as the matrix writes it
    /// (`1`): digits, in dot-separated parts.
    Version(String),
    /// Entries whose protocol version is unknown (see the module docs).
    NotProbed,
}

/// An option of the capability facet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CapabilityFilter {
    /// Probed agents reporting this capability.
    Supports(Capability),
    /// Entries whose capabilities are unknown (see the module docs).
    NotProbed,
}

impl Facet {
    /// Every group, in [`FACETS`] order.
    pub fn all() -> impl Iterator<Item = Facet> {
        FACETS.iter().map(|spec| spec.facet)
    }

    /// Its row of [`FACETS`].
    pub fn spec(self) -> &'static FacetSpec {
        &FACETS[self.index()]
    }

    /// Its position in [`FACETS`].
    pub fn index(self) -> usize {
        match self {
            Facet::Kind => 0,
            Facet::ListedFor => 1,
            Facet::Health => 2,
            Facet::Method => 3,
            Facet::Os => 4,
            Facet::Arch => 5,
            Facet::License => 6,
            Facet::Auth => 7,
            Facet::Capability => 8,
            Facet::ProtocolVersion => 9,
            Facet::Tag(group) => 10 + group as usize,
        }
    }

    /// Its query-string key.
    pub fn key(self) -> &'static str {
        self.spec().key
    }

    /// What people read above its options.
    pub fn legend(self) -> &'static str {
        self.spec().legend
    }

    /// The group of a query-string key, as written (callers trim and lowercase).
    pub fn from_key(key: &str) -> Option<Facet> {
        FACETS
            .iter()
            .find(|spec| spec.key == key)
            .map(|spec| spec.facet)
    }

    /// Whether it is a group of AgentRegistry entries.
    pub fn is_tag(self) -> bool {
        matches!(self, Facet::Tag(_))
    }

    /// The values of one query-string value: split at commas or not (see [`Several`]), each
    /// read by [`Facet::parse`], the unknown and blank ones dropped.
    pub fn read(self, value: &str) -> Vec<FacetValue> {
        match self.spec().several {
            Several::Commas => value.split(',').filter_map(|w| self.parse(w)).collect(),
            Several::Repeated => self.parse(value).into_iter().collect(),
        }
    }

    /// One value of this group from its query-string word, trimmed; words of the enum groups
    /// are compared case-insensitively. `None` when blank or unknown. An auth word that is not
    /// `not-probed` nor a known method is another method's name (see [`AuthMethod::parse`]); a
    /// protocol version is one only when written as one (see [`ProtocolVersionFilter::version`]).
    pub fn parse(self, word: &str) -> Option<FacetValue> {
        let word = word.trim();
        let lower = || word.to_ascii_lowercase();
        match self {
            Facet::Kind => Kind::parse(&lower()).map(FacetValue::Kind),
            Facet::ListedFor => ListedFor::parse(&lower()).map(FacetValue::ListedFor),
            Facet::Health => Health::parse(&lower()).map(FacetValue::Health),
            Facet::Method => Method::parse(&lower()).map(FacetValue::Method),
            Facet::Os => Os::parse(&lower()).map(FacetValue::Os),
            Facet::Arch => Arch::parse(&lower()).map(FacetValue::Arch),
            Facet::License => (!word.is_empty()).then(|| FacetValue::License(word.into())),
            Facet::Auth => AuthFilter::parse(word).map(FacetValue::Auth),
            Facet::Capability => CapabilityFilter::parse(&lower()).map(FacetValue::Capability),
            Facet::ProtocolVersion => {
                ProtocolVersionFilter::parse(word).map(FacetValue::ProtocolVersion)
            }
            Facet::Tag(group) => (!word.is_empty()).then(|| FacetValue::Tag(group, word.into())),
        }
    }
}

impl FacetValue {
    /// Its group.
    pub fn facet(&self) -> Facet {
        match self {
            FacetValue::Kind(_) => Facet::Kind,
            FacetValue::ListedFor(_) => Facet::ListedFor,
            FacetValue::Health(_) => Facet::Health,
            FacetValue::Method(_) => Facet::Method,
            FacetValue::Os(_) => Facet::Os,
            FacetValue::Arch(_) => Facet::Arch,
            FacetValue::License(_) => Facet::License,
            FacetValue::Auth(_) => Facet::Auth,
            FacetValue::Capability(_) => Facet::Capability,
            FacetValue::ProtocolVersion(_) => Facet::ProtocolVersion,
            FacetValue::Tag(group, _) => Facet::Tag(*group),
        }
    }

    /// Its query-string word; [`Facet::parse`] reads it back.
    pub fn as_str(&self) -> &str {
        match self {
            FacetValue::Kind(v) => v.as_str(),
            FacetValue::ListedFor(v) => v.as_str(),
            FacetValue::Health(v) => v.as_str(),
            FacetValue::Method(v) => v.as_str(),
            FacetValue::Os(v) => v.as_str(),
            FacetValue::Arch(v) => v.as_str(),
            FacetValue::License(v) => v,
            FacetValue::Auth(v) => v.as_str(),
            FacetValue::Capability(v) => v.as_str(),
            FacetValue::ProtocolVersion(v) => v.as_str(),
            FacetValue::Tag(_, v) => v,
        }
    }

    /// What people read: `macOS`, `Load session`, `Version 1`, `Live now`, `HTTP`; a licence or
    /// another tag value as written. Only a protocol version's label is made for the occasion.
    pub fn label(&self) -> Cow<'_, str> {
        let label: &str = match self {
            FacetValue::Kind(v) => v.label(),
            FacetValue::ListedFor(v) => v.label(),
            FacetValue::Health(v) => v.label(),
            FacetValue::Method(v) => v.label(),
            FacetValue::Os(v) => v.label(),
            FacetValue::Arch(v) => v.label(),
            FacetValue::License(v) => v,
            FacetValue::Auth(v) => v.label(),
            FacetValue::Capability(v) => v.label(),
            FacetValue::ProtocolVersion(v) => return v.label(),
            FacetValue::Tag(group, v) => match (group, &**v) {
                (TagGroup::Live, LIVE) => "Live now",
                (TagGroup::Live, STALE) => "Stale",
                (TagGroup::Transport, "Http") => "HTTP",
                (TagGroup::Transport, "Amqp") => "AMQP",
                (TagGroup::Transport, "AzureServiceBus") => "Azure Service Bus",
                _ => v,
            },
        };
        Cow::Borrowed(label)
    }

    /// Whether, in a [`Within::All`] group, it is OR-ed with the others instead of AND-ed:
    /// the capability group's `not-probed`.
    pub fn is_alternative(&self) -> bool {
        matches!(self, FacetValue::Capability(CapabilityFilter::NotProbed))
    }
}

impl AuthFilter {
    /// The query-string word: the method's name ([`AuthMethod::as_str`]) or `not-probed`.
    pub fn as_str(&self) -> &str {
        match self {
            AuthFilter::Method(method) => method.as_str(),
            AuthFilter::NotProbed => NOT_PROBED,
        }
    }

    /// What people read: the method's label or `Not probed`.
    pub fn label(&self) -> &str {
        match self {
            AuthFilter::Method(method) => method.label(),
            AuthFilter::NotProbed => "Not probed",
        }
    }

    /// Reads a query-string word, trimmed: `not-probed` (any case) or an auth method name (see
    /// [`AuthMethod::parse`]); `None` when blank.
    pub fn parse(word: &str) -> Option<AuthFilter> {
        if word.trim().eq_ignore_ascii_case(NOT_PROBED) {
            Some(AuthFilter::NotProbed)
        } else {
            AuthMethod::parse(word).map(AuthFilter::Method)
        }
    }
}

impl ProtocolVersionFilter {
    /// The query-string word: the version as written, or `not-probed`.
    pub fn as_str(&self) -> &str {
        match self {
            ProtocolVersionFilter::Version(version) => version,
            ProtocolVersionFilter::NotProbed => NOT_PROBED,
        }
    }

    /// What people read: `Version 1` or `Not probed`.
    pub fn label(&self) -> Cow<'static, str> {
        match self {
            ProtocolVersionFilter::Version(version) => Cow::Owned(format!("Version {version}")),
            ProtocolVersionFilter::NotProbed => Cow::Borrowed("Not probed"),
        }
    }

    /// Reads a query-string word, trimmed: `not-probed` (any case) or a version (see
    /// [`ProtocolVersionFilter::version`]); `None` for anything else.
    pub fn parse(word: &str) -> Option<ProtocolVersionFilter> {
        if word.trim().eq_ignore_ascii_case(NOT_PROBED) {
            Some(ProtocolVersionFilter::NotProbed)
        } else {
            ProtocolVersionFilter::version(word)
        }
    }

    /// The option of a version as written, trimmed, when it is one: digits in dot-separated
    /// parts (`1`, `0.2`); `None` for anything else (`v1`, `1.`, `2025-06-18`, blank).
    pub fn version(written: &str) -> Option<ProtocolVersionFilter> {
        let written = written.trim();
        written
            .split('.')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
            .then(|| ProtocolVersionFilter::Version(written.to_owned()))
    }
}

impl Ord for ProtocolVersionFilter {
    /// Versions by their parts as numbers, then as written (so `01` and `1` stay apart), before
    /// `NotProbed`.
    fn cmp(&self, other: &Self) -> Ordering {
        /// A part's number as digits without leading zeros: a longer one is larger, one as long
        /// compares as text, so no part can overflow.
        fn numbers(version: &str) -> impl Iterator<Item = (usize, &str)> {
            version.split('.').map(|part| {
                let digits = part.trim_start_matches('0');
                (digits.len(), digits)
            })
        }
        match (self, other) {
            (ProtocolVersionFilter::Version(a), ProtocolVersionFilter::Version(b)) => {
                numbers(a).cmp(numbers(b)).then_with(|| a.cmp(b))
            }
            (ProtocolVersionFilter::Version(_), ProtocolVersionFilter::NotProbed) => Ordering::Less,
            (ProtocolVersionFilter::NotProbed, ProtocolVersionFilter::Version(_)) => {
                Ordering::Greater
            }
            (ProtocolVersionFilter::NotProbed, ProtocolVersionFilter::NotProbed) => Ordering::Equal,
        }
    }
}

impl PartialOrd for ProtocolVersionFilter {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl CapabilityFilter {
    /// Every option, in display order.
    pub const ALL: [CapabilityFilter; 7] = [
        CapabilityFilter::Supports(Capability::LoadSession),
        CapabilityFilter::Supports(Capability::SessionList),
        CapabilityFilter::Supports(Capability::SessionFork),
        CapabilityFilter::Supports(Capability::SessionResume),
        CapabilityFilter::Supports(Capability::SessionStop),
        CapabilityFilter::Supports(Capability::SetModel),
        CapabilityFilter::NotProbed,
    ];

    /// The query-string word: [`Capability::as_str`] or `not-probed`.
    pub fn as_str(self) -> &'static str {
        match self {
            CapabilityFilter::Supports(capability) => capability.as_str(),
            CapabilityFilter::NotProbed => NOT_PROBED,
        }
    }

    /// What people read: [`Capability::label`] or `Not probed`.
    pub fn label(self) -> &'static str {
        match self {
            CapabilityFilter::Supports(capability) => capability.label(),
            CapabilityFilter::NotProbed => "Not probed",
        }
    }

    /// The inverse of [`CapabilityFilter::as_str`].
    pub fn parse(word: &str) -> Option<CapabilityFilter> {
        CapabilityFilter::ALL
            .into_iter()
            .find(|c| c.as_str() == word)
    }
}

impl TagGroup {
    /// Every group, in display order.
    pub const ALL: [TagGroup; 7] = [
        TagGroup::Protocol,
        TagGroup::Transport,
        TagGroup::Live,
        TagGroup::Capability,
        TagGroup::Tag,
        TagGroup::Label,
        TagGroup::Owner,
    ];

    /// The query-string key: `protocol`, `transport`, `live`, `capability`, `tag`, `label`,
    /// `owner`.
    pub fn as_str(self) -> &'static str {
        Facet::Tag(self).key()
    }

    /// What people read: `Protocol`, `Transport`, `Liveness`, `Capability`, `Tag`, `Label`,
    /// `Owner`.
    pub fn label(self) -> &'static str {
        Facet::Tag(self).legend()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_at_its_facets_index_and_keys_are_distinct() {
        for (i, spec) in FACETS.iter().enumerate() {
            assert_eq!(spec.facet.index(), i, "{spec:?}");
            assert_eq!(Facet::from_key(spec.key), Some(spec.facet));
        }
        let mut keys: Vec<_> = FACETS.iter().map(|s| s.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), FACETS.len());
        assert!(!keys.contains(&"q") && !keys.contains(&"sort"));
    }

    #[test]
    fn values_sort_in_table_order() {
        let mut values = [
            FacetValue::Tag(TagGroup::Owner, "a".into()),
            FacetValue::Method(Method::Npx),
            FacetValue::Health(Health::Healthy),
            FacetValue::Tag(TagGroup::Protocol, "b".into()),
            FacetValue::Kind(Kind::Extension),
        ];
        values.sort();
        let order: Vec<usize> = values.iter().map(|v| v.facet().index()).collect();
        assert_eq!(order, [0, 2, 3, 10, 16]);
    }

    #[test]
    fn every_value_reads_back_from_its_word() {
        let values = [
            FacetValue::Kind(Kind::Agent),
            FacetValue::ListedFor(ListedFor::JetBrainsBundled),
            FacetValue::Health(Health::ProbeFailed),
            FacetValue::Method(Method::Uvx),
            FacetValue::Os(Os::Windows),
            FacetValue::Arch(Arch::X86_64),
            FacetValue::License("Apache-2.0, MIT".into()),
            FacetValue::Auth(AuthFilter::Method(AuthMethod::Other("sso".into()))),
            FacetValue::Auth(AuthFilter::NotProbed),
            FacetValue::Capability(CapabilityFilter::Supports(Capability::SetModel)),
            FacetValue::Capability(CapabilityFilter::NotProbed),
            FacetValue::ProtocolVersion(ProtocolVersionFilter::Version("1".into())),
            FacetValue::ProtocolVersion(ProtocolVersionFilter::Version("0.10".into())),
            FacetValue::ProtocolVersion(ProtocolVersionFilter::NotProbed),
            FacetValue::Tag(TagGroup::Label, "team=a,b".into()),
        ];
        for value in values {
            assert_eq!(
                value.facet().read(value.as_str()),
                std::slice::from_ref(&value)
            );
        }
    }

    #[test]
    fn protocol_versions_read_as_written_and_sort_by_number() {
        let version = |v: &str| ProtocolVersionFilter::Version(v.to_owned());
        for (word, expected) in [
            ("1", Some(version("1"))),
            (" 0.2 ", Some(version("0.2"))),
            ("01", Some(version("01"))),
            ("not-probed", Some(ProtocolVersionFilter::NotProbed)),
            (" Not-Probed ", Some(ProtocolVersionFilter::NotProbed)),
            ("v1", None),
            ("1.", None),
            (".1", None),
            ("1..2", None),
            ("2025-06-18", None),
            ("<x>", None),
            ("", None),
        ] {
            assert_eq!(ProtocolVersionFilter::parse(word), expected, "{word:?}");
        }
        assert_eq!(ProtocolVersionFilter::version("not-probed"), None);
        let mut options = [
            ProtocolVersionFilter::NotProbed,
            version("10"),
            version("2"),
            version("1.10"),
            version("01"),
            version("1.9"),
            version("1"),
        ];
        options.sort();
        let words: Vec<&str> = options.iter().map(ProtocolVersionFilter::as_str).collect();
        assert_eq!(words, ["01", "1", "1.9", "1.10", "2", "10", "not-probed"]);
        let labels: Vec<Cow<'_, str>> = [version("1"), ProtocolVersionFilter::NotProbed]
            .iter()
            .map(ProtocolVersionFilter::label)
            .collect();
        assert_eq!(labels, ["Version 1", "Not probed"]);
    }
}
