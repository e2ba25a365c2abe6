//! Every URL the real registry publishes may become a link.

use registry_core::load;
use registry_core::url::safe_link;

const REAL_2026: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/real-registry-2026/dist/registry.json"
));
const REAL_2026_02: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/real-registry-2026-02/dist/registry.json"
));

#[test]
fn real_urls_are_safe_links() {
    for text in [REAL_2026, REAL_2026_02] {
        let mut checked = 0;
        for entry in load(text).unwrap().registry.entries {
            let archives = entry.distribution.binary.values().map(|t| Some(&t.archive));
            let fields = [
                entry.repository.as_ref(),
                entry.website.as_ref(),
                entry.license_url.as_ref(),
                entry.icon.as_ref(),
            ];
            for url in fields.into_iter().chain(archives).flatten() {
                assert_eq!(safe_link(url), Some(url.as_str()), "{}: {url}", entry.id);
                checked += 1;
            }
        }
        assert!(checked > 0);
    }
}
