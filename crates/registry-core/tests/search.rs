//! Search: matching, ranking, typo tolerance and highlighting, on the real registry and on
//! small synthetic ones built to isolate one rule.

mod common;

use std::ops::Range;

use common::{With, agent, real_registry};
use proptest::prelude::*;
use registry_core::{Entry, SearchIndex};

/// Searches `entries` for `query` and checks the ids of the first hits, in order (all hits when
/// `expected` ends with `"$"`).
fn check(entries: &[Entry], query: &str, expected: &[&str]) {
    let index = SearchIndex::new(entries);
    let matches = index.search(query);
    let ids: Vec<&str> = matches
        .hits
        .iter()
        .map(|hit| entries[hit.entry].id.as_str())
        .collect();
    let (expected, all) = match expected.split_last() {
        Some((&"$", rest)) => (rest, true),
        _ => (expected, false),
    };
    let shown = if all {
        &ids[..]
    } else {
        &ids[..expected.len().min(ids.len())]
    };
    assert_eq!(shown, expected, "query {query:?}: all hits {ids:?}");
    let scores: Vec<u32> = matches.hits.iter().map(|h| h.score).collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "scores descend: {scores:?}"
    );
}

#[test]
fn real_registry_queries() {
    let entries = real_registry().entries;
    for (query, expected) in [
        // Exact name and id, whatever the case or punctuation.
        ("gemini", &["gemini"][..]),
        ("Gemini CLI", &["gemini"]),
        ("GEMINI-cli", &["gemini"]),
        ("claude-acp", &["claude-acp"]),
        ("codex-acp", &["codex-acp", "codex-acp-bridge"]),
        ("opencode", &["opencode", "$"]),
        ("goose", &["goose"]),
        // A name that begins with the query beats a name that only contains the word.
        (
            "codex",
            &["codex-acp", "codex-acp-bridge", "neoncodex-acp-agent"],
        ),
        ("claude", &["claude-acp", "claudexor"]),
        (
            "pi",
            &[
                "pi",
                "pi-acp",
                "pi-acp-jetbrain",
                "pixir",
                "oh-my-pi",
                "omp",
            ],
        ),
        // Prefixes while typing.
        ("gemin", &["gemini"]),
        ("gemi", &["gemini"]),
        ("oh my p", &["oh-my-pi", "omp", "nolotus-omp", "$"]),
        (
            "antigrav",
            &["agy-acp", "antigravity", "antigravity-acp", "$"],
        ),
        // Typos.
        ("gemni", &["gemini"]),
        ("opnecode", &["opencode", "$"]),
        ("cluade", &["claude-acp", "claudexor"]),
        (
            "antigravty",
            &["agy-acp", "antigravity", "antigravity-acp", "$"],
        ),
        ("gemn", &["gemini"]),
        // Authors, without their e-mail addresses.
        ("anthropic", &["claude-acp"]),
        ("moonshot", &["kimi", "$"]),
        ("snowflake", &["cortex-code", "$"]),
        ("gmail", &["$"]),
        // Package names, without their versions.
        ("clawdbot", &["moltbot", "$"]),
        ("qodercli", &["qoder", "$"]),
        ("copilot-language-server", &["github-copilot", "$"]),
        ("deepseekharness", &["dsh-acp-interactive", "$"]),
        ("0.45.3", &["$"]),
        // Every term must match (AND), in any field.
        ("deepseek interactive", &["dsh-acp-interactive", "$"]),
        (
            "google antigravity",
            &["antigravity-acp", "antigravity", "agy-acp", "$"],
        ),
        ("claude zed", &["claude-acp"]),
        ("gemini zzzzqqq", &["$"]),
        // Ties in name order (case-insensitive), then by id.
        (
            "deepseek harness",
            &[
                "deepseek-acp",
                "deepseek-harness-acp",
                "dsh-acp",
                "dsh-acp-interactive",
            ],
        ),
        (
            "kiro",
            &["kiro-acp-bridge", "kiro-cli-agent", "kiro-gateway", "$"],
        ),
        // Nothing.
        ("zzzzqqq", &["$"]),
        ("xq", &["$"]),
    ] {
        check(&entries, query, expected);
    }
}

#[test]
fn empty_queries_list_everything_by_name() {
    let entries = real_registry().entries;
    let index = SearchIndex::new(&entries);
    let mut by_name: Vec<usize> = (0..entries.len()).collect();
    by_name.sort_by_key(|&i| (entries[i].name.to_lowercase(), entries[i].id.clone()));
    for query in ["", "   ", "-/-", "—"] {
        let matches = index.search(query);
        assert!(matches.is_empty_query(), "{query:?}");
        let hits: Vec<usize> = matches.hits.iter().map(|h| h.entry).collect();
        assert_eq!(hits, by_name, "{query:?}");
        assert!(matches.hits.iter().all(|h| h.score == 0));
        assert_eq!(matches.highlight("Gemini CLI"), Vec::<Range<usize>>::new());
    }
    let first_names: Vec<&str> = by_name[..3]
        .iter()
        .map(|&i| entries[i].name.as_str())
        .collect();
    assert_eq!(first_names, ["5dive", "9Router", "ACP Bridge"]);
}

#[test]
fn hits_are_distinct_best_first_and_ties_in_name_order() {
    let entries = real_registry().entries;
    let index = SearchIndex::new(&entries);
    let name_key = |i: usize| (entries[i].name.to_lowercase(), entries[i].id.clone());
    // Broad one-letter queries tie most of the registry; the others mix scores.
    for query in [
        "a",
        "c",
        "g",
        "code",
        "agent cli",
        "gemni",
        "claude code",
        "rust",
    ] {
        let hits = index.search(query).hits;
        assert!(!hits.is_empty(), "{query:?}");
        let mut seen = vec![false; entries.len()];
        for hit in &hits {
            assert!(
                !seen[hit.entry],
                "{query:?}: {} twice",
                entries[hit.entry].id
            );
            seen[hit.entry] = true;
            assert!(hit.score > 0, "{query:?}: {}", entries[hit.entry].id);
        }
        for pair in hits.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            assert!(
                a.score > b.score || (a.score == b.score && name_key(a.entry) < name_key(b.entry)),
                "{query:?}: {} ({}) before {} ({})",
                entries[a.entry].id,
                a.score,
                entries[b.entry].id,
                b.score
            );
        }
    }
}
#[test]
fn fields_rank_in_order() {
    // Each entry has `spark` in a different place, from best to worst.
    let entries = [
        agent("ember", "Ember").description("A spark of genius."),
        agent("spark", "Spark"),
        agent("big-spark", "Big Spark"),
        agent("sparkle", "Sparkle"),
        agent("firesparks", "Firesparks"),
        agent("flint", "Flint").author("Spark Labs <hi@spark.dev>"),
        agent("steel", "Steel").npx("@forge/sparkplug@1.0.0"),
        agent("spork", "Spork"),
    ];
    for (query, expected) in [
        // Exact name > name prefix > name word > name substring > other fields. `Spork` is
        // one typo away, and typo matches only count when nothing matches without one.
        // Among the other fields an earlier word ranks first: `Spark Labs` before `A spark`.
        (
            "spark",
            &[
                "spark",
                "sparkle",
                "big-spark",
                "firesparks",
                "flint",
                "ember",
                "steel",
                "$",
            ][..],
        ),
        // An id is as good as a name.
        ("firesparks", &["firesparks", "$"]),
        // With a typo: whole-word typos first, then a word beginning with a typo.
        (
            "sprak",
            &[
                "spark",
                "big-spark",
                "sparkle",
                "flint",
                "ember",
                "steel",
                "$",
            ],
        ),
        ("sporkk", &["spork", "$"]),
        // Package names count, minus the scope and version.
        ("sparkplug", &["steel", "$"]),
        ("forge", &["steel", "$"]),
    ] {
        check(&entries, query, expected);
    }
}

#[test]
fn name_beats_description() {
    let entries = [
        agent("a-tool", "A Tool").description("Talks to Ollama on your machine."),
        agent("z-ollama", "Ollama Bridge").description("A bridge."),
        agent("m-tool", "Middle").description("ollama"),
    ];
    check(&entries, "ollama", &["z-ollama", "m-tool", "a-tool", "$"]);
    check(&entries, "ollama bridge", &["z-ollama", "$"]);
    check(&entries, "ollama machine", &["a-tool", "$"]);
}

#[test]
fn typo_bounds_grow_with_the_term() {
    let entries = [
        agent("cat", "Cat"),
        agent("kettle", "Kettle"),
        agent("orchestrator", "Orchestrator"),
    ];
    for (query, expected) in [
        // Under four characters: no typo.
        ("cot", &["$"][..]),
        // Four to seven: one typo.
        ("kettel", &["kettle", "$"]),
        ("kettl", &["kettle", "$"]),
        ("kitle", &["$"]),
        // Eight and more: two.
        ("orkestrator", &["orchestrator", "$"]),
        ("orcestratr", &["orchestrator", "$"]),
        ("orkestratr", &["$"]),
        // A transposition is one typo.
        ("ocrhestartor", &["orchestrator", "$"]),
    ] {
        check(&entries, query, expected);
    }
}

#[test]
fn every_term_may_be_a_prefix() {
    let entries = [agent("gemini", "Gemini CLI"), agent("gem", "Gem Tool")];
    check(&entries, "gem cl", &["gemini", "$"]);
    check(&entries, "cli gem", &["gemini", "$"]);
    check(&entries, "to ge", &["gem", "$"]);
}

/// The parts of `text` that searching `entries` for `query` highlights.
fn marks<'t>(entries: &[Entry], query: &str, text: &'t str) -> Vec<&'t str> {
    let matches = SearchIndex::new(entries).search(query);
    matches
        .highlight(text)
        .into_iter()
        .map(|range| &text[range])
        .collect()
}

#[test]
fn highlights_what_matched() {
    let entries = real_registry().entries;
    for (query, text, expected) in [
        ("gemini", "Gemini CLI", &["Gemini"][..]),
        ("gemin", "Gemini CLI", &["Gemin"]),
        ("cli gem", "Gemini CLI", &["Gem", "CLI"]),
        ("GEMINI-CLI", "Gemini CLI", &["Gemini", "CLI"]),
        ("claude-acp", "claude-acp", &["claude", "acp"]),
        // A substring match marks the substring.
        ("code", "OpenCode and Codex", &["Code", "Code"]),
        // A typo marks the whole word.
        ("gemni", "Gemini CLI", &["Gemini"]),
        ("cluade", "Claude Code, Claudexor", &["Claude", "Claudexor"]),
        // Authors and descriptions are marked the same way.
        ("anthropic", "Anthropic, Zed Industries", &["Anthropic"]),
        ("bölük", "Can Bölük <can.boluk89@gmail.com>", &["Bölük"]),
        ("google", "Google’s AI coding agent", &["Google"]),
        // Words that do not match are left alone.
        ("gemini", "Germany", &[]),
        ("pi", "Spin an API", &[]),
        ("pi", "Pi pipes", &["Pi", "pi"]),
        // Text that is not indexed is marked by the same rules.
        ("fas", "Fast and faster", &["Fas", "fas"]),
    ] {
        assert_eq!(
            marks(&entries, query, text),
            expected,
            "{query:?} in {text:?}"
        );
    }
}

#[test]
fn highlights_survive_case_mapping() {
    // `İ` folds to `i`, and a final `ς` to `σ`.
    let entries = [
        agent("istanbul", "İstanbul Agent"),
        agent("odysseus", "ΟΔΥΣΣΕΥΣ"),
    ];
    for (query, text, expected) in [
        ("istanbul", "İstanbul Agent", &["İstanbul"][..]),
        ("İST", "İstanbul Agent", &["İst"]),
        ("stanbul", "İstanbul Agent", &["stanbul"]),
        ("Οδυσσευς", "ΟΔΥΣΣΕΥΣ", &["ΟΔΥΣΣΕΥΣ"]),
        ("σευσ", "Οδυσσευς", &["σευς"]),
    ] {
        assert_eq!(
            marks(&entries, query, text),
            expected,
            "{query:?} in {text:?}"
        );
        let index = SearchIndex::new(&entries);
        assert!(
            !index.search(query).hits.is_empty(),
            "{query:?} finds nothing"
        );
    }
}

proptest! {
    #[test]
    fn highlight_ranges_are_sorted_disjoint_char_ranges(
        text in "\\PC{0,40}",
        query in "[a-zA-Zéİ -]{0,12}",
    ) {
        let entries = [agent("x", "X").description(&text)];
        let matches = SearchIndex::new(&entries).search(&query);
        let ranges = matches.highlight(&text);
        let mut end = 0;
        for range in &ranges {
            prop_assert!(range.start >= end && range.start < range.end && range.end <= text.len());
            prop_assert!(text.is_char_boundary(range.start) && text.is_char_boundary(range.end));
            end = range.end;
        }
    }
}

#[test]
fn every_name_and_id_finds_its_entry_first() {
    let entries = real_registry().entries;
    let index = SearchIndex::new(&entries);
    for (i, entry) in entries.iter().enumerate() {
        for query in [entry.name.as_str(), entry.id.as_str()] {
            let matches = index.search(query);
            let top = matches.hits.first().map(|h| h.score);
            // Several entries share a name (`DeepSeek Harness`, `Oh My Pi`): a tie is fine.
            assert!(
                matches
                    .hits
                    .iter()
                    .any(|h| h.entry == i && Some(h.score) == top),
                "{query:?} does not rank {} first",
                entry.id
            );
        }
    }
}

#[test]
fn empty_indexes_find_nothing() {
    for index in [SearchIndex::new(&[]), SearchIndex::default()] {
        assert!(index.is_empty());
        for query in ["", "gemini", "gemni", "opnecode x"] {
            assert_eq!(index.search(query).hits, [], "{query:?}");
        }
    }
}

#[test]
fn repeated_and_long_queries() {
    let entries = real_registry().entries;
    check(&entries, "gemini gemini GEMINI", &["gemini"]);
    let long = "a coding agent for the terminal ".repeat(20);
    let index = SearchIndex::new(&entries);
    assert_eq!(index.search(&long).terms().len(), 120);
}

#[test]
fn an_index_built_in_slices_answers_as_one_built_at_once() {
    use registry_core::catalog::Indexing;
    use registry_core::search::SearchIndexBuilder;
    use registry_core::{Catalog, CatalogQuery};

    let registry = real_registry();
    let entries = &registry.entries;
    let whole = SearchIndex::new(entries);
    let queries = [
        "",
        "gemini",
        "claude code",
        "gemni",
        "rust cli",
        "pyhton",
        "a",
        "zzzq",
    ];
    for count in [1, 3, 50, usize::MAX] {
        let mut building = SearchIndexBuilder::default();
        let mut calls = 0;
        while !building.step(entries, count) {
            calls += 1;
        }
        // The entries' words, then the vocabulary's layout, then the entries' keys.
        assert!(
            calls >= 2 * entries.len().div_ceil(count),
            "{count} at a time: {calls} steps"
        );
        let sliced = building.finish(entries, &Default::default());
        for query in queries {
            assert_eq!(
                sliced.search(query),
                whole.search(query),
                "{query:?}, {count} at a time"
            );
        }
    }
    // Finishing does what was not done yet.
    let early = SearchIndexBuilder::default().finish(entries, &Default::default());
    assert_eq!(early.search("gemini"), whole.search("gemini"));

    let at_once = Catalog::without_lookalikes(registry.clone());
    let mut indexing = Indexing::new(registry.clone());
    while !indexing.step(7) {}
    let sliced = indexing.finish();
    assert_eq!(sliced.registry, at_once.registry);
    for query in ["", "q=gemini", "q=agent&dist=npx", "sort=name&os=windows"] {
        let query = CatalogQuery::from_query_string(query);
        assert_eq!(sliced.view(&query), at_once.view(&query), "{query:?}");
    }
}
