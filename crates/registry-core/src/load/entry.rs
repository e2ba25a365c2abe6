//! Reading one array's entries, each on its own: a good one becomes an [`Entry`], a bad one
//! [`Diagnostic`]s located at its index, and a later duplicate of an id is left out.

use rustc_hash::FxHashMap;

use super::diagnostic::{Diagnostic, Location, Severity};
use super::explain::explain;
use super::wire::WireEntry;
use crate::model::{Entry, Kind};

/// Reads one array's entries into `entries`, then drops later duplicates of an id.
pub(super) fn read_entries<'t>(
    texts: impl ExactSizeIterator<Item = &'t str>,
    kind: Kind,
    entries: &mut Vec<Entry>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let start = entries.len();
    let mut indices = Vec::with_capacity(texts.len());
    for (index, raw) in texts.enumerate() {
        if let Some(entry) = read_entry(raw, kind, index, diagnostics) {
            entries.push(entry);
            indices.push(index);
        }
    }
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
