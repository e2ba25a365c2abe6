//! Filters and facet counts (API contract; implementation in progress).

use std::collections::BTreeSet;

use crate::model::{Arch, Kind, Method, Os};

/// The selected filter values; within a group values are OR-ed, groups are AND-ed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filters {
    /// Kinds.
    pub kinds: BTreeSet<Kind>,
    /// Distribution methods.
    pub methods: BTreeSet<Method>,
    /// Operating systems.
    pub os: BTreeSet<Os>,
    /// Architectures.
    pub arch: BTreeSet<Arch>,
    /// Normalised licences.
    pub licenses: BTreeSet<String>,
}

/// Live counts per facet value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FacetCounts {
    /// Per kind.
    pub kinds: Vec<(Kind, usize)>,
    /// Per method.
    pub methods: Vec<(Method, usize)>,
    /// Per OS.
    pub os: Vec<(Os, usize)>,
    /// Per architecture.
    pub arch: Vec<(Arch, usize)>,
    /// Per normalised licence.
    pub licenses: Vec<(String, usize)>,
}
