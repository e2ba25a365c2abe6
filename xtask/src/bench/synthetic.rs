//! Synthetic registries shaped like the real one, for measuring the site at sizes the real
//! registry has not reached yet.
//!
//! [`Sample`] reads what the real `registry.json` looks like — its names, description words and
//! lengths, authors, licences, distribution methods and platform counts, icons — and
//! [`generate`] draws any number of entries from it with a seeded generator, so every run writes
//! byte-identical files:
//!
//! - names mix the real names' words (`Claude`, `Gemini`, `Bridge`) with invented brands, in the
//!   real shapes (`Brand`, `Brand Suffix`, `brand-suffix`); ids are their slugs, made unique;
//! - descriptions have the word counts of real descriptions, drawn from the real descriptions'
//!   words (at their real frequencies) with a few invented product names mixed in;
//! - authors, licences (so the licence facet has the real distribution, spellings included),
//!   the npx/uvx/binary mix and the number of binary platforms (1–6) follow a randomly chosen
//!   real entry each;
//! - icons point at the real entries' bundled `<id>.svg` files, in the real proportion of entries
//!   with an icon, so each card loads and masks a real SVG.
//!
//! [`service_listing`] writes an AgentRegistry discovery listing of any size the same way: the
//! readable items of `tests/fixtures/agentregistry/` over and over, each with its own id and
//! name, in pages of [`PAGE_SIZE`].

use std::collections::HashSet;

use anyhow::{Context, Result, ensure};
use registry_core::agentregistry::PAGE_SIZE;
use registry_core::id::slugify;
use registry_core::model::Platform;
use serde_json::{Map, Value, json};

/// The six `distribution.binary` platform keys, in the order the real registry lists them.
const PLATFORMS: [&str; 6] = Platform::KEYS;

/// Words that end names of agents and bridges, besides those of the real names.
const NAME_SUFFIXES: [&str; 16] = [
    "Agent",
    "Code",
    "CLI",
    "ACP",
    "Coder",
    "Assistant",
    "Bridge",
    "Pilot",
    "Dev",
    "AI",
    "Studio",
    "Adapter",
    "Harness",
    "Runner",
    "Shell",
    "Copilot",
];

/// Syllables of invented brand names.
const SYLLABLES: [&str; 40] = [
    "ka", "zor", "vex", "lu", "mi", "tra", "no", "qua", "ri", "sen", "dex", "pho", "ly", "ga",
    "bri", "tor", "xa", "wen", "ko", "ra", "fi", "nu", "sto", "vi", "ze", "mo", "cy", "ler", "da",
    "pix", "ta", "gon", "ru", "hel", "io", "ve", "sa", "ny", "lo", "kor",
];

/// First and last names for generated authors.
const FIRST_NAMES: [&str; 20] = [
    "Ada", "Bo", "Chen", "Dana", "Emil", "Farah", "Goran", "Hana", "Ivan", "Jia", "Kofi", "Lena",
    "Mateo", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Yuki",
];
const LAST_NAMES: [&str; 20] = [
    "Andersen", "Baker", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Huang", "Ito",
    "Jensen", "Kowalski", "Li", "Moreau", "Novak", "Okafor", "Petrov", "Rossi", "Silva", "Tanaka",
    "Weber",
];

/// What the real registry looks like, entry by entry.
#[derive(Debug, Clone)]
pub struct Sample {
    /// Words of the real names, as written (`Claude`, `ACP`, `agentty`).
    name_words: Vec<String>,
    /// Words of the real descriptions without surrounding punctuation, one per occurrence.
    description_words: Vec<String>,
    /// Word count of each real description.
    description_lengths: Vec<usize>,
    /// The real author strings, e-mail addresses included.
    authors: Vec<String>,
    /// Number of authors of each real entry.
    author_counts: Vec<usize>,
    /// Licence of each real entry, exactly as written (`None` when absent).
    licenses: Vec<Option<String>>,
    /// Distribution shape of each real entry.
    shapes: Vec<Shape>,
    /// The `icon` of each real entry that has one (`claude-acp.svg`).
    icons: Vec<String>,
    /// How many real entries there are.
    entries: usize,
}

/// Which methods an entry offers and on how many platforms its binary runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shape {
    platforms: usize,
    npx: bool,
    uvx: bool,
}

impl Sample {
    /// Reads the real `registry.json`.
    pub fn from_registry(text: &str) -> Result<Sample> {
        let registry: Value = serde_json::from_str(text).context("the real registry.json")?;
        let agents = registry
            .get("agents")
            .and_then(Value::as_array)
            .context("the real registry.json has no `agents` array")?;
        ensure!(!agents.is_empty(), "the real registry.json has no agents");
        let mut sample = Sample {
            name_words: Vec::new(),
            description_words: Vec::new(),
            description_lengths: Vec::new(),
            authors: Vec::new(),
            author_counts: Vec::new(),
            licenses: Vec::new(),
            shapes: Vec::new(),
            icons: Vec::new(),
            entries: agents.len(),
        };
        for agent in agents {
            let text = |key: &str| agent.get(key).and_then(Value::as_str).unwrap_or("");
            sample.name_words.extend(
                text("name")
                    .split(|c: char| c.is_whitespace() || c == '-')
                    .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
                    .filter(|w| !w.is_empty())
                    .map(str::to_owned),
            );
            let words: Vec<String> = text("description")
                .split_whitespace()
                .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
                .filter(|w| !w.is_empty())
                .map(str::to_owned)
                .collect();
            sample.description_lengths.push(words.len().max(1));
            sample.description_words.extend(words);
            let authors: Vec<String> = agent
                .get("authors")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default();
            sample.author_counts.push(authors.len());
            sample.authors.extend(authors);
            sample.licenses.push(
                agent
                    .get("license")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            );
            let distribution = agent.get("distribution");
            let has = |key: &str| distribution.and_then(|d| d.get(key)).is_some();
            sample.shapes.push(Shape {
                platforms: distribution
                    .and_then(|d| d.get("binary"))
                    .and_then(Value::as_object)
                    .map_or(0, Map::len)
                    .min(PLATFORMS.len()),
                npx: has("npx"),
                uvx: has("uvx"),
            });
            if let Some(icon) = agent.get("icon").and_then(Value::as_str) {
                sample.icons.push(icon.to_owned());
            }
        }
        ensure!(
            !sample.description_words.is_empty() && !sample.name_words.is_empty(),
            "the real registry.json has no names or descriptions to draw words from"
        );
        if sample.authors.is_empty() {
            sample.authors.push("ACP Community".to_owned());
        }
        Ok(sample)
    }
}

/// A `registry.json` text of `entries` agents drawn from `sample`; the same seed gives the same
/// bytes.
pub fn generate(sample: &Sample, entries: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut ids = HashSet::with_capacity(entries);
    let agents: Vec<Value> = (0..entries)
        .map(|_| entry(sample, &mut rng, &mut ids))
        .collect();
    let registry = json!({ "version": "1.0.0", "agents": agents, "extensions": [] });
    let mut text = serde_json::to_string_pretty(&registry).expect("JSON values serialise");
    text.push('\n');
    text
}

/// One agent, with an id not yet in `ids`.
fn entry(sample: &Sample, rng: &mut Rng, ids: &mut HashSet<String>) -> Value {
    let (name, id) = loop {
        let name = name(sample, rng);
        let id = slugify(&name);
        if ids.insert(id.clone()) {
            break (name, id);
        }
    };
    let version = format!(
        "{}.{}.{}",
        usize::from(rng.chance(0.3)),
        rng.below(40),
        rng.below(20)
    );
    let owner = slugify(&brand(rng));
    let mut agent = Map::new();
    agent.insert("id".into(), json!(id));
    agent.insert("name".into(), json!(name));
    agent.insert("version".into(), json!(version));
    agent.insert("description".into(), json!(description(sample, rng)));
    let repository = format!("https://github.com/{owner}/{id}");
    if rng.chance(0.6) {
        agent.insert("website".into(), json!(repository));
    }
    agent.insert("repository".into(), json!(repository));
    let real = rng.below(sample.entries);
    let authors: Vec<String> = (0..sample.author_counts[real])
        .map(|_| author(sample, rng))
        .collect();
    if !authors.is_empty() {
        agent.insert("authors".into(), json!(authors));
    }
    if let Some(license) = &sample.licenses[rng.below(sample.entries)] {
        agent.insert("license".into(), json!(license));
        if rng.chance(0.2) {
            agent.insert(
                "license_url".into(),
                json!(format!("{repository}/blob/main/LICENSE")),
            );
        }
    }
    if !sample.icons.is_empty() && rng.below(sample.entries) < sample.icons.len() {
        agent.insert("icon".into(), json!(rng.pick(&sample.icons)));
    }
    let shape = sample.shapes[rng.below(sample.entries)];
    agent.insert(
        "distribution".into(),
        distribution(shape, &id, &owner, &version, rng),
    );
    Value::Object(agent)
}

/// A name in one of the real shapes: `Brand`, `Brand Suffix`, `Brand Word Suffix`, `brand-suffix`.
fn name(sample: &Sample, rng: &mut Rng) -> String {
    let brand = if rng.chance(0.3) {
        rng.pick(&sample.name_words).clone()
    } else {
        brand(rng)
    };
    let suffix = |rng: &mut Rng| {
        if rng.chance(0.5) {
            rng.pick(&NAME_SUFFIXES).to_string()
        } else {
            rng.pick(&sample.name_words).clone()
        }
    };
    match rng.below(10) {
        0..=2 => brand,
        3..=6 => format!("{brand} {}", suffix(rng)),
        7 => format!("{brand} {} {}", suffix(rng), suffix(rng)),
        _ => format!("{}-{}", brand.to_lowercase(), suffix(rng).to_lowercase()),
    }
}

/// An invented brand name of two or three syllables: `Zorvex`, `Lumitra`.
fn brand(rng: &mut Rng) -> String {
    let syllables = 2 + rng.below(2);
    let word: String = (0..syllables).map(|_| *rng.pick(&SYLLABLES)).collect();
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A description as long as a real one, in sentences of the real words.
fn description(sample: &Sample, rng: &mut Rng) -> String {
    let words = *rng.pick(&sample.description_lengths);
    let mut text = String::new();
    let mut sentence_start = true;
    for i in 0..words {
        let word = if rng.chance(0.03) {
            brand(rng)
        } else {
            rng.pick(&sample.description_words).clone()
        };
        if i > 0 {
            text.push(' ');
        }
        if sentence_start {
            let mut chars = word.chars();
            if let Some(first) = chars.next() {
                text.extend(first.to_uppercase());
                text.push_str(chars.as_str());
            }
        } else {
            text.push_str(&word);
        }
        sentence_start = false;
        if i + 1 < words {
            if rng.chance(0.06) {
                text.push('.');
                sentence_start = true;
            } else if rng.chance(0.08) {
                text.push(',');
            }
        }
    }
    text.push('.');
    text
}

/// A real author (one in five) or an invented person or organisation.
fn author(sample: &Sample, rng: &mut Rng) -> String {
    match rng.below(5) {
        0 => rng.pick(&sample.authors).clone(),
        1 => format!("{} Labs", brand(rng)),
        2 => slugify(&brand(rng)),
        _ => {
            let (first, last) = (rng.pick(&FIRST_NAMES), rng.pick(&LAST_NAMES));
            if rng.chance(0.4) {
                format!(
                    "{first} {last} <{}.{}@example.com>",
                    first.to_lowercase(),
                    last.to_lowercase()
                )
            } else {
                format!("{first} {last}")
            }
        }
    }
}

/// The `distribution` object of a shape: binaries for `platforms` distinct platforms, an npm
/// and a PyPI package as the shape says.
fn distribution(shape: Shape, id: &str, owner: &str, version: &str, rng: &mut Rng) -> Value {
    let mut distribution = Map::new();
    if shape.platforms > 0 {
        let mut chosen = [false; PLATFORMS.len()];
        let mut left = shape.platforms;
        while left > 0 {
            let at = rng.below(PLATFORMS.len());
            if !chosen[at] {
                chosen[at] = true;
                left -= 1;
            }
        }
        let args = rng.chance(0.4).then(|| json!(["acp"]));
        let checksum = rng.chance(0.3);
        let mut binary = Map::new();
        for (platform, _) in PLATFORMS.iter().zip(chosen).filter(|(_, c)| *c) {
            let exe = if platform.starts_with("windows") {
                format!("{id}.exe")
            } else {
                format!("./{id}")
            };
            let mut target = Map::new();
            target.insert(
                "archive".into(),
                json!(format!(
                    "https://github.com/{owner}/{id}/releases/download/v{version}/{id}-{platform}.tar.gz"
                )),
            );
            target.insert("cmd".into(), json!(exe));
            if let Some(args) = &args {
                target.insert("args".into(), args.clone());
            }
            if checksum {
                let hex: String = (0..4).map(|_| format!("{:016x}", rng.next_u64())).collect();
                target.insert("sha256".into(), json!(hex));
            }
            binary.insert((*platform).into(), Value::Object(target));
        }
        distribution.insert("binary".into(), Value::Object(binary));
    }
    if shape.npx {
        let package = if rng.chance(0.5) {
            format!("@{owner}/{id}@{version}")
        } else {
            format!("{id}@{version}")
        };
        let mut npx = Map::new();
        npx.insert("package".into(), json!(package));
        if rng.chance(0.4) {
            npx.insert("args".into(), json!(["--acp"]));
        }
        distribution.insert("npx".into(), Value::Object(npx));
    }
    if shape.uvx {
        distribution.insert(
            "uvx".into(),
            json!({ "package": format!("{id}=={version}"), "args": ["acp"] }),
        );
    }
    if distribution.is_empty() {
        // A real entry always offers something; fall back to the most common method.
        distribution.insert(
            "npx".into(),
            json!({ "package": format!("{id}@{version}") }),
        );
    }
    Value::Object(distribution)
}

/// SplitMix64: a tiny, fast, deterministic generator, plenty for drawing synthetic data.
#[derive(Debug, Clone)]
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`); the modulo bias is negligible for the small `n` used here.
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `p`.
    fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64) < p * (1u64 << 53) as f64
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The pages of a discovery listing of `agents` agents, [`PAGE_SIZE`] to a page: the fixture's
/// readable items in turn, each with an id and a name of its own.
pub fn service_listing(agents: usize) -> Result<Vec<String>> {
    let mut templates = Vec::new();
    for text in crate::agentregistry::PAGES {
        let page: Value = serde_json::from_str(text).context("reading a fixture page")?;
        let items = page["items"]
            .as_array()
            .context("a fixture page without items")?;
        templates.extend(
            items
                .iter()
                .filter(|item| item["name"].is_string())
                .cloned(),
        );
    }
    ensure!(
        !templates.is_empty(),
        "the fixture listing has no readable item"
    );
    let page_size = PAGE_SIZE as usize;
    let pages = agents.div_ceil(page_size);
    let items: Vec<Value> = (0..agents)
        .map(|n| {
            let mut item = templates[n % templates.len()].clone();
            let name = format!("{} {}", item["name"].as_str().unwrap_or("Agent"), n + 1);
            item["id"] = json!(format!("{n:08x}-0000-4000-8000-{n:012x}"));
            item["name"] = json!(name);
            item
        })
        .collect();
    Ok(items
        .chunks(page_size)
        .zip(1..)
        .map(|(chunk, page)| {
            json!({
                "items": chunk, "totalCount": agents, "page": page, "pageSize": page_size,
                "totalPages": pages, "hasNextPage": page < pages, "hasPreviousPage": page > 1,
            })
            .to_string()
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::path::Path;

    fn real_registry() -> String {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        std::fs::read_to_string(root.join("public/registry.json")).unwrap()
    }

    #[test]
    fn a_service_listing_pages_through_whole() {
        let pages = service_listing(250).unwrap();
        assert_eq!(pages.len(), 3);
        let mut pager = registry_core::Pager::new("http://registry.test");
        for text in &pages {
            pager.accept(text).unwrap();
        }
        assert!(pager.is_done());
        let loaded = pager.into_loaded();
        assert_eq!(loaded.diagnostics, Vec::new());
        assert_eq!(loaded.registry.entries.len(), 250);
        let names: HashSet<&str> = loaded
            .registry
            .entries
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        assert_eq!(names.len(), 250, "names are unique");
    }

    #[test]
    fn generation_is_deterministic() {
        let sample = Sample::from_registry(&real_registry()).unwrap();
        assert_eq!(generate(&sample, 200, 7), generate(&sample, 200, 7));
        assert_ne!(generate(&sample, 200, 7), generate(&sample, 200, 8));
    }

    #[test]
    fn a_synthetic_registry_loads_cleanly_and_looks_real() {
        let real = real_registry();
        let sample = Sample::from_registry(&real).unwrap();
        let text = generate(&sample, 2_000, 1);
        let loaded = registry_core::load(&text).unwrap();
        assert_eq!(loaded.diagnostics, Vec::new());
        let entries = &loaded.registry.entries;
        assert_eq!(entries.len(), 2_000);

        let ids: HashSet<&str> = entries.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids.len(), entries.len(), "ids are unique");

        // Every icon is a real bundled file.
        let public = Path::new(env!("CARGO_MANIFEST_DIR")).join("../public");
        let with_icon = entries.iter().filter(|e| e.icon.is_some()).count();
        assert!((1_100..1_650).contains(&with_icon), "{with_icon} icons");
        for icon in entries.iter().filter_map(|e| e.icon.as_deref()) {
            assert!(public.join(icon).is_file(), "{icon}");
        }

        // Licence facet values in about the real proportions.
        let share = |registry: &[registry_core::Entry]| {
            let mut counts: HashMap<String, f64> = HashMap::new();
            for e in registry {
                *counts
                    .entry(registry_core::license::facet_value(e.license.as_deref()))
                    .or_default() += 1.0 / registry.len() as f64;
            }
            counts
        };
        let real_share = share(&registry_core::load(&real).unwrap().registry.entries);
        let synthetic_share = share(entries);
        for license in ["MIT", "Apache-2.0", "Proprietary"] {
            let (r, s) = (real_share[license], synthetic_share[license]);
            assert!(
                (r - s).abs() < 0.05,
                "{license}: real {r:.2}, synthetic {s:.2}"
            );
        }

        // Every method occurs, binaries on one to six platforms.
        for method in registry_core::Method::ALL {
            assert!(
                entries
                    .iter()
                    .any(|e| e.distribution.methods().contains(&method)),
                "{method:?}"
            );
        }
        let platforms: HashSet<usize> = entries
            .iter()
            .map(|e| e.distribution.binary.len())
            .filter(|&n| n > 0)
            .collect();
        assert_eq!(platforms, (1..=6).collect());

        // Descriptions about as long as the real ones.
        let mean = |lengths: Vec<usize>| lengths.iter().sum::<usize>() / lengths.len();
        let real_mean = mean(sample.description_lengths.clone());
        let synthetic_mean = mean(
            entries
                .iter()
                .map(|e| e.description.split_whitespace().count())
                .collect(),
        );
        assert!(
            synthetic_mean.abs_diff(real_mean) <= 3,
            "{synthetic_mean} vs {real_mean}"
        );
    }
}
