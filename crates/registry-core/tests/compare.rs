//! Agents side by side over the bundled registry, probe and lists: the address read, the rows,
//! and which rows differ.

use registry_core::compare::{Compared, MAX_COMPARED, ids_value, read_ids, rows};
use registry_core::{Kind, Listings, Registry, parse_matrix, parse_quarantine, parse_view};

const REGISTRY: &str = include_str!("../../../public/registry.json");
const MATRIX: &str = include_str!("../../../public/protocol-matrix.json");
const JETBRAINS: &str = include_str!("../../../public/registry-for-jetbrains.json");
const QUARANTINE: &str = include_str!("../../../public/quarantine.json");

fn registry() -> Registry {
    registry_core::load(REGISTRY).unwrap().registry
}

fn listings() -> Listings {
    Listings {
        jetbrains: Some(parse_view(JETBRAINS).unwrap().0),
        jetbrains_preview: None,
        quarantine: Some(parse_quarantine(QUARANTINE).unwrap().0),
    }
}

#[test]
fn the_address_keeps_at_most_four_ids_each_once_and_names_what_it_passes_over() {
    let asked = read_ids("gemini,codex-acp,gemini, ,pi,goose,opencode,<b>");
    assert_eq!(asked.ids, ["gemini", "codex-acp", "pi", "goose"]);
    assert_eq!(asked.ids.len(), MAX_COMPARED);
    assert_eq!(asked.passed_over, ["gemini", "opencode", "<b>"]);
    assert_eq!(ids_value(&asked.ids), "gemini,codex-acp,pi,goose");
    assert_eq!(read_ids(&ids_value(&asked.ids)).ids, asked.ids);
    assert_eq!(read_ids("").ids, Vec::<String>::new());
}

#[test]
fn rows_over_real_agents_say_what_each_has_and_which_differ() {
    let registry = registry();
    let (matrix, _) = parse_matrix(MATRIX).unwrap();
    let listings = listings();
    let find = |id: &str| registry.find(Kind::Agent, id).unwrap();
    // An npx agent, a binary-only one for macOS ARM64 only, a quarantined one, an unprobed one.
    let ids = ["gemini", "z4code", "vtcode", "pi"];
    let entries: Vec<_> = ids.iter().map(|id| find(id)).collect();
    let listed: Vec<_> = entries.iter().map(|e| listings.listing(e)).collect();
    let facts: Vec<_> = entries.iter().map(|e| matrix.facts(&e.id)).collect();
    let compared: Vec<Compared<'_>> = (0..ids.len())
        .map(|i| Compared {
            entry: entries[i],
            listing: &listed[i],
            facts: &facts[i],
        })
        .collect();
    let rows = rows(&compared);
    let row = |name: &str| {
        rows.iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("{name}"))
    };
    assert!(rows.iter().all(|r| r.cells.len() == ids.len()));
    assert_eq!(row("Version").cells[0], entries[0].version);
    assert_eq!(row("Runs on").cells[0], "Every platform");
    assert_eq!(row("Runs on").cells[1], "macOS · ARM64");
    assert_eq!(row("Install first").cells[0], "Node.js (for npx)");
    assert_eq!(row("Install first").cells[1], "nothing (a download)");
    assert_eq!(row("Health").cells[2], "Quarantined");
    assert_eq!(row("Sign-in (probed)").cells[3], "Not probed");
    assert_eq!(row("ACP version (probed)").cells[3], "Not probed");
    assert_eq!(row("ACP version (probed)").cells[0], "1");
    assert!(row("Runs on").differs());
    assert!(row("Health").differs());
    // Every agent of the registry's main file is listed for its clients: the same cell, no
    // difference to mark.
    assert!(
        row("Listed for")
            .cells
            .iter()
            .all(|c| c.starts_with("Zed and other clients"))
    );
    // A comparison of an agent with itself differs nowhere.
    let same = registry_core::compare::rows(&[compared[0], compared[0]]);
    assert!(same.iter().all(|r| !r.differs()), "{same:?}");
}
