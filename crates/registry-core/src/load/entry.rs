//! Reading one array's entries, each on its own: a good one becomes an [`Entry`], a bad one
//! [`Diagnostic`]s located at its index, and a later duplicate of an id is left out. A
//! [`ListReader`] reads them a few at a time, so that a page can read a large array between
//! frames.

use rustc_hash::FxHashMap;

use super::diagnostic::{Diagnostic, Location, Severity};
use super::explain::explain;
use super::wire::WireEntry;
use crate::model::{Entry, Kind};

/// One array's entries, read a few at a time into the registry's `entries`; once all are read,
/// [`ListReader::finish`] drops later duplicates of an id.
#[derive(Debug)]
pub(super) struct ListReader<'t> {
    kind: Kind,
    texts: Vec<&'t str>,
    /// The next text to read.
    next: usize,
    /// Where this array's entries start in `entries`.
    start: usize,
    /// Per entry read, its index in the array.
    indices: Vec<usize>,
}

impl<'t> ListReader<'t> {
    /// A reader of `texts`, an array of `kind` whose entries go after those of `entries`.
    pub(super) fn new(kind: Kind, texts: Vec<&'t str>, entries: &[Entry]) -> ListReader<'t> {
        ListReader {
            kind,
            indices: Vec::with_capacity(texts.len()),
            texts,
            next: 0,
            start: entries.len(),
        }
    }

    /// How many entries are left to read.
    pub(super) fn remaining(&self) -> usize {
        self.texts.len() - self.next
    }

    /// Reads up to `count` more entries; `true` once every one is read.
    pub(super) fn read(
        &mut self,
        count: usize,
        entries: &mut Vec<Entry>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> bool {
        let end = self.next.saturating_add(count).min(self.texts.len());
        for index in self.next..end {
            if let Some(entry) = read_entry(self.texts[index], self.kind, index, diagnostics) {
                entries.push(entry);
                self.indices.push(index);
            }
        }
        self.next = end;
        self.next == self.texts.len()
    }

    /// Drops later duplicates of an id among this array's entries, each with an error.
    pub(super) fn finish(self, entries: &mut Vec<Entry>, diagnostics: &mut Vec<Diagnostic>) {
        let ListReader {
            kind,
            start,
            indices,
            ..
        } = self;
        let mut first_index: FxHashMap<&str, usize> =
            FxHashMap::with_capacity_and_hasher(indices.len(), Default::default());
        let mut duplicates = Vec::new();
        for (position, entry) in entries[start..].iter().enumerate() {
            let index = indices[position];
            if let Some(&first) = first_index.get(entry.id.as_str()) {
                duplicates.push(position);
                diagnostics.push(Diagnostic {
                    severity: Severity::Error,
                    location: Location::Entry {
                        kind,
                        index,
                        id: Some(entry.id.clone()),
                    },
                    message: format!(
                        "duplicate id `{}`: {}[{first}] already has it, so this entry was left out",
                        entry.id,
                        kind.path_segment()
                    ),
                    hint: Some(format!(
                        "ids must be unique: pages are addressed by id (/{}/<id>); rename one",
                        kind.path_segment()
                    )),
                });
            } else {
                first_index.insert(&entry.id, index);
            }
        }
        if !duplicates.is_empty() {
            let mut tail = entries.split_off(start);
            let mut duplicates = duplicates.into_iter().peekable();
            let mut position = 0;
            tail.retain(|_| {
                let duplicate = duplicates.next_if_eq(&position).is_some();
                position += 1;
                !duplicate
            });
            entries.append(&mut tail);
        }
    }
}

/// Reads one entry, or says why it cannot be shown.
fn read_entry(
    raw: &str,
    kind: Kind,
    index: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Entry> {
    let mut problems = Vec::new();
    let (entry, id) = match serde_json::from_str::<WireEntry>(raw) {
        Ok(wire) => {
            let entry = wire.into_entry(kind, raw, &mut problems);
            let id = Some(entry.id.trim())
                .filter(|id| !id.is_empty())
                .map(str::to_owned);
            (Some(entry), id)
        }
        Err(err) => (None, explain(raw, &err, &mut problems)),
    };
    let has_error = problems.iter().any(|p| p.severity == Severity::Error);
    if !problems.is_empty() {
        let location = Location::Entry { kind, index, id };
        diagnostics.extend(problems.into_iter().map(|p| Diagnostic {
            severity: p.severity,
            location: location.clone(),
            message: p.message,
            hint: p.hint,
        }));
    }
    entry.filter(|_| !has_error)
}
