//! Licence facet values over the real registry.

use std::collections::BTreeMap;

use registry_core::license::{NOT_SPECIFIED, facet_value};
use registry_core::load;

const REAL_2026: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/real-registry-2026/dist/registry.json"
));
const REAL_2026_02: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/real-registry-2026-02/dist/registry.json"
));

fn facet_counts(text: &str) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for entry in load(text).unwrap().registry.entries {
        *counts
            .entry(facet_value(entry.license.as_deref()))
            .or_default() += 1;
    }
    counts
}

#[test]
fn real_licences_group_under_their_spdx_ids() {
    let table: [(&str, &[(&str, usize)]); 2] = [
        (
            REAL_2026,
            &[
                ("AGPL-3.0-only", 4),
                ("AGPL-3.0-or-later", 1),
                ("Apache-2.0", 41),
                ("BUSL-1.1", 1),
                ("CC-BY-NC-SA-4.0", 1),
                ("GPL-3.0-or-later", 1),
                ("ISC", 1),
                ("LGPL-3.0-only", 1),
                ("MIT", 49),
                (NOT_SPECIFIED, 3),
                ("Proprietary", 27),
            ],
        ),
        (
            REAL_2026_02,
            &[("Apache-2.0", 4), ("MIT", 2), ("Proprietary", 5)],
        ),
    ];
    for (text, expect) in table {
        let got: Vec<(String, usize)> = facet_counts(text).into_iter().collect();
        let expect: Vec<(String, usize)> = expect.iter().map(|&(l, n)| (l.to_owned(), n)).collect();
        assert_eq!(got, expect);
    }
}
