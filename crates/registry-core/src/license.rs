//! Licence values normalised for faceting.
//!
//! Manifests write one licence many ways (`Apache 2.0`, `Apache-2.0`, `apache2`,
//! `Apache License 2.0`); the licence facet must count them as one. [`normalize`] maps each
//! spelling of a licence it knows to its SPDX id (or to `Proprietary`) and keeps anything else
//! as written, trimmed. [`Entry::license`](crate::model::Entry::license) itself is never changed:
//! the entry page shows what the maintainer wrote.
//!
//! Spellings are compared by a loose key: lower case, without punctuation and spaces, without
//! the words `license`, `licence`, `version` and `the`, and without a `v` before a version
//! number, so `GNU GPL v3` and `gpl-3.0` meet.

use std::collections::HashMap;
use std::sync::LazyLock;

/// The facet value of an entry that names no licence.
pub const NOT_SPECIFIED: &str = "Not specified";

/// The facet value of a licence as a manifest writes it, [`NOT_SPECIFIED`] when it has none.
pub fn facet_value(license: Option<&str>) -> String {
    match license.map(str::trim) {
        None | Some("") => NOT_SPECIFIED.to_owned(),
        Some(license) => normalize(license),
    }
}

/// The facet value for a licence as written: its SPDX id when it is a spelling of a licence this
/// module knows, `Proprietary` for proprietary terms, else the text trimmed.
///
/// The GNU licences map to the explicit SPDX ids: a bare `GPL-3.0`, `LGPL-2.1` or `AGPL-3.0`
/// (ids SPDX has deprecated) means the `-only` licence and is counted with it, while `-or-later`
/// (or a trailing `+`) stays a licence of its own. npm's `UNLICENSED` ("no licence is granted")
/// counts as `Proprietary`, unlike `Unlicense`, the public-domain dedication.
pub fn normalize(license: &str) -> String {
    let trimmed = license.trim();
    let key = squash(trimmed);
    if let Some(gnu) = gnu(&key) {
        return gnu;
    }
    match KNOWN.get(key.as_str()) {
        Some(canonical) => (*canonical).to_owned(),
        None => trimmed.to_owned(),
    }
}

/// Licences matched by their own id, case and punctuation aside, with the other spellings seen
/// for them. The GNU family is handled by [`gnu`].
const CANONICAL: &[(&str, &[&str])] = &[
    ("Proprietary", &["unlicensed", "all rights reserved"]),
    (
        "Apache-2.0",
        &["apache2", "apache v2", "asl 2.0", "apache software 2.0"],
    ),
    ("MIT", &["expat", "mit licence"]),
    ("MIT-0", &[]),
    ("ISC", &[]),
    ("0BSD", &[]),
    ("BSD-2-Clause", &["bsd 2", "simplified bsd"]),
    (
        "BSD-3-Clause",
        &["bsd 3", "new bsd", "modified bsd", "revised bsd"],
    ),
    ("MPL-2.0", &["mpl 2", "mozilla public 2.0"]),
    ("Unlicense", &["the unlicense"]),
    ("CC0-1.0", &["cc0", "cc0 1"]),
    ("CC-BY-4.0", &[]),
    ("CC-BY-SA-4.0", &[]),
    ("CC-BY-NC-4.0", &[]),
    ("CC-BY-NC-SA-4.0", &[]),
    ("CC-BY-NC-ND-4.0", &[]),
    ("BUSL-1.1", &["business source 1.1", "bsl 1.1"]),
    ("BSL-1.0", &["boost software 1.0", "boost 1.0"]),
    ("Elastic-2.0", &["elastic 2", "elv2"]),
    ("SSPL-1.0", &["server side public 1.0"]),
    ("EPL-1.0", &[]),
    ("EPL-2.0", &["eclipse public 2.0"]),
    ("EUPL-1.2", &[]),
    ("Artistic-2.0", &[]),
    ("Zlib", &[]),
    ("WTFPL", &[]),
    ("UPL-1.0", &[]),
    ("MS-PL", &[]),
    ("NCSA", &[]),
    ("OFL-1.1", &[]),
    ("Python-2.0", &[]),
    ("PostgreSQL", &[]),
    ("CDDL-1.0", &[]),
    ("BlueOak-1.0.0", &[]),
    ("PolyForm-Noncommercial-1.0.0", &[]),
    ("PolyForm-Shield-1.0.0", &[]),
    ("FSL-1.1-MIT", &[]),
    ("FSL-1.1-ALv2", &[]),
];

/// Loose key → canonical id, for every id of [`CANONICAL`] and its other spellings.
static KNOWN: LazyLock<HashMap<String, &'static str>> = LazyLock::new(|| {
    CANONICAL
        .iter()
        .flat_map(|&(canonical, aliases)| {
            std::iter::once(canonical)
                .chain(aliases.iter().copied())
                .map(move |spelling| (squash(spelling), canonical))
        })
        .collect()
});

/// The loose key a spelling is compared by (see the module docs).
fn squash(license: &str) -> String {
    const FILLER: [&str; 4] = ["license", "licence", "version", "the"];
    let lower = license.to_lowercase();
    let joined: String = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '+'))
        .filter(|word| !FILLER.contains(word))
        .collect();
    let mut key = String::with_capacity(joined.len());
    let mut chars = joined.chars().filter(|&c| c != '.').peekable();
    while let Some(c) = chars.next() {
        let before_digit = chars.peek().is_some_and(char::is_ascii_digit);
        if !(c == 'v' && before_digit) {
            key.push(c);
        }
    }
    key
}

/// The GNU GPL, LGPL and AGPL by any common spelling, as explicit SPDX ids.
fn gnu(key: &str) -> Option<String> {
    const FAMILIES: [(&str, &str); 8] = [
        ("agpl", "AGPL"),
        ("afferogpl", "AGPL"),
        ("afferogeneralpublic", "AGPL"),
        ("lgpl", "LGPL"),
        ("lessergeneralpublic", "LGPL"),
        ("librarygeneralpublic", "LGPL"),
        ("gpl", "GPL"),
        ("generalpublic", "GPL"),
    ];
    let key = key.strip_prefix("gnu").unwrap_or(key);
    let (family, rest) = FAMILIES
        .iter()
        .find_map(|&(prefix, family)| Some((family, key.strip_prefix(prefix)?)))?;
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let (number, suffix) = rest.split_at(digits);
    let version = match (family, number) {
        ("GPL" | "LGPL", "2" | "20") => "2.0",
        ("LGPL", "21") => "2.1",
        (_, "3" | "30") => "3.0",
        _ => return None,
    };
    let scope = match suffix {
        "" | "only" => "only",
        "+" | "orlater" | "oranylater" => "or-later",
        _ => return None,
    };
    Some(format!("{family}-{version}-{scope}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_meet() {
        let table = [
            // Every licence value of tests/fixtures/real-registry-2026*/dist/registry.json.
            ("AGPL-3.0", "AGPL-3.0-only"),
            ("AGPL-3.0-only", "AGPL-3.0-only"),
            ("AGPL-3.0-or-later", "AGPL-3.0-or-later"),
            ("Apache 2.0", "Apache-2.0"),
            ("Apache-2.0", "Apache-2.0"),
            ("BUSL-1.1", "BUSL-1.1"),
            ("CC-BY-NC-SA-4.0", "CC-BY-NC-SA-4.0"),
            ("GPL-3.0-or-later", "GPL-3.0-or-later"),
            ("ISC", "ISC"),
            ("LGPL-3.0-only", "LGPL-3.0-only"),
            ("MIT", "MIT"),
            ("Proprietary", "Proprietary"),
            ("proprietary", "Proprietary"),
            // Other spellings.
            ("PROPRIETARY", "Proprietary"),
            ("UNLICENSED", "Proprietary"),
            ("apache2", "Apache-2.0"),
            ("Apache License 2.0", "Apache-2.0"),
            ("Apache License, Version 2.0", "Apache-2.0"),
            ("apache-2.0", "Apache-2.0"),
            ("Apache v2", "Apache-2.0"),
            ("MIT License", "MIT"),
            ("mit", "MIT"),
            (" MIT ", "MIT"),
            ("The MIT License", "MIT"),
            ("mit-0", "MIT-0"),
            ("GPL-3.0", "GPL-3.0-only"),
            ("GPLv3", "GPL-3.0-only"),
            ("GNU GPL v3", "GPL-3.0-only"),
            ("GPL-3.0+", "GPL-3.0-or-later"),
            ("GPLv2+", "GPL-2.0-or-later"),
            ("GPL-2.0-only", "GPL-2.0-only"),
            ("gpl-2.0-or-later", "GPL-2.0-or-later"),
            ("GNU General Public License v3.0", "GPL-3.0-only"),
            ("GNU General Public License v3 or later", "GPL-3.0-or-later"),
            ("LGPL-2.1", "LGPL-2.1-only"),
            ("lgpl-2.1-or-later", "LGPL-2.1-or-later"),
            ("GNU Lesser General Public License v3.0", "LGPL-3.0-only"),
            ("agpl-3.0", "AGPL-3.0-only"),
            ("AGPLv3", "AGPL-3.0-only"),
            ("GNU Affero General Public License v3.0", "AGPL-3.0-only"),
            ("bsd-3-clause", "BSD-3-Clause"),
            ("BSD 3-Clause License", "BSD-3-Clause"),
            ("mpl-2.0", "MPL-2.0"),
            ("Mozilla Public License 2.0", "MPL-2.0"),
            ("unlicense", "Unlicense"),
            ("The Unlicense", "Unlicense"),
            ("cc0-1.0", "CC0-1.0"),
            ("busl-1.1", "BUSL-1.1"),
            ("Business Source License 1.1", "BUSL-1.1"),
            ("isc license", "ISC"),
            ("zlib", "Zlib"),
            // Kept as written, trimmed.
            ("License", "License"),
            ("GPL", "GPL"),
            ("AGPL-1.0", "AGPL-1.0"),
            ("GPL-3.0-with-exception", "GPL-3.0-with-exception"),
            ("MIT OR Apache-2.0", "MIT OR Apache-2.0"),
            ("  Custom EULA ", "Custom EULA"),
            ("", ""),
        ];
        for (input, expect) in table {
            assert_eq!(normalize(input), expect, "{input:?}");
        }
    }

    #[test]
    fn facet_values() {
        let table = [
            (None, NOT_SPECIFIED),
            (Some(""), NOT_SPECIFIED),
            (Some("   "), NOT_SPECIFIED),
            (Some("apache2"), "Apache-2.0"),
            (Some("Custom"), "Custom"),
        ];
        for (input, expect) in table {
            assert_eq!(facet_value(input), expect, "{input:?}");
        }
    }

    #[test]
    fn squash_keys() {
        let table = [
            ("Apache License, Version 2.0", "apache20"),
            ("GNU GPL v3+", "gnugpl3+"),
            ("BSD-3-Clause", "bsd3clause"),
            ("Unlicense", "unlicense"),
            ("License", ""),
        ];
        for (input, expect) in table {
            assert_eq!(squash(input), expect, "{input:?}");
        }
    }

    #[test]
    fn canonical_ids_are_fixed_points_and_keys_do_not_collide() {
        let mut owner: HashMap<String, &str> = HashMap::new();
        for &(canonical, aliases) in CANONICAL {
            assert_eq!(normalize(canonical), canonical);
            for spelling in std::iter::once(canonical).chain(aliases.iter().copied()) {
                let key = squash(spelling);
                assert!(!key.is_empty(), "{spelling:?}");
                assert_eq!(gnu(&key), None, "{spelling:?} is taken by the GNU rules");
                if let Some(other) = owner.insert(key, canonical) {
                    assert_eq!(other, canonical, "{spelling:?} is claimed twice");
                }
            }
        }
    }
}
