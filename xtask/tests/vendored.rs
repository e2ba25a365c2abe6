//! Each vendored crate (`vendor/<crate>/`, put in place of the published one by the workspace's
//! `[patch.crates-io]`) is the published crate with its patch applied, and nothing else: the
//! patch in `vendor/patches/` is the whole of what the project changes, and the copy is only what
//! cargo needs to build it (see `vendor/README.md`).
//!
//! The check runs offline, from what `vendor/patches/` records of each published crate:
//! `<crate>-<version>.cargo-checksum.json`, the checksums `cargo vendor` wrote for it (the
//! SHA-256 of the `.crate` and of each of its files), and `<crate>-<version>.patch`. Every file of
//! the copy must hash as published or, for a file the patch changes, hash as published once the
//! patch is taken back out of it. Where cargo's own cache holds the published crate (it seldom
//! does: cargo never downloads a crate that is patched away), the recorded checksums are checked
//! against it too.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use diffy::patch_set::{FileOperation, ParseOptions, PatchKind, PatchSet};
use serde::Deserialize;
use sha2::{Digest, Sha256};

/// Files of a published crate that the vendored copy leaves out: cargo never reads them when it
/// builds the crate as a dependency. A path ending in `/` is a folder.
const OMITTED: [&str; 5] = ["Cargo.lock", ".github/", "benches/", "examples/", "tests/"];

/// Folders of `vendor/` that are not vendored crates.
const NOT_CRATES: [&str; 3] = ["patches", "repro", "reports"];

#[test]
fn each_vendored_crate_is_the_published_one_with_its_patch() {
    let mut problems = Vec::new();
    for patched in patched_crates() {
        let published = patched.checksums().files;
        let patch = fs::read_to_string(patched.patch()).unwrap();
        problems.extend(
            check(&patched.dir(), &published, &patch)
                .into_iter()
                .map(|problem| format!("vendor/{}/{problem}", patched.name)),
        );
    }
    assert!(
        problems.is_empty(),
        "{}\nA vendored crate is changed only through its patch: see vendor/README.md, \
         \"Changing a patch\".",
        problems.join("\n")
    );
}

#[test]
fn every_vendored_crate_has_its_patch_and_is_patched_in() {
    let folders: BTreeSet<String> = fs::read_dir(vendor())
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().unwrap().is_dir())
        .map(|entry| entry.file_name().into_string().unwrap())
        .filter(|name| !NOT_CRATES.contains(&name.as_str()))
        .collect();
    let patched: BTreeSet<String> = patched_crates().map(|crate_| crate_.name).collect();
    assert_eq!(
        folders, patched,
        "folders of vendor/ against vendor/patches/*.patch"
    );

    let manifest: toml::Table =
        toml::from_str(&fs::read_to_string(vendor().join("../Cargo.toml")).unwrap()).unwrap();
    let in_place: BTreeMap<String, String> = manifest["patch"]["crates-io"]
        .as_table()
        .unwrap()
        .iter()
        .map(|(name, source)| (name.clone(), source["path"].as_str().unwrap().to_owned()))
        .collect();
    let expected: BTreeMap<String, String> = patched
        .iter()
        .map(|name| (name.clone(), format!("vendor/{name}")))
        .collect();
    assert_eq!(in_place, expected, "[patch.crates-io] of Cargo.toml");
}

#[test]
fn recorded_checksums_are_those_of_the_published_crates_in_cargos_cache() {
    let Some(registry) = cargo_registry() else {
        println!("skipped: no cargo registry found (CARGO_HOME or ~/.cargo)");
        return;
    };
    for patched in patched_crates() {
        let recorded = patched.checksums();
        let full_name = format!("{}-{}", patched.name, patched.version);
        let mut checked = false;
        for index in subfolders(&registry.join("cache")) {
            let archive = index.join(format!("{full_name}.crate"));
            if let Ok(bytes) = fs::read(&archive) {
                assert_eq!(sha256(&bytes), recorded.package, "{}", archive.display());
                checked = true;
            }
        }
        for index in subfolders(&registry.join("src")) {
            let sources = index.join(&full_name);
            if sources.is_dir() {
                for (path, hash) in &recorded.files {
                    let bytes = fs::read(sources.join(path))
                        .unwrap_or_else(|err| panic!("{}/{path}: {err}", sources.display()));
                    assert_eq!(&sha256(&bytes), hash, "{}/{path}", sources.display());
                }
                checked = true;
            }
        }
        if !checked {
            println!(
                "skipped: {full_name} is not in cargo's cache ({}), so its recorded checksums \
                 were not compared with it",
                registry.display()
            );
        }
    }
}

/// A file of a copy: its path and its text.
type File<'a> = (&'a str, &'a str);

/// What [`check`] finds, on a crate of two files, `a.rs` changed by the patch and `b.rs` not
/// (and a `Cargo.lock`, left out).
#[test]
fn a_copy_that_is_not_the_published_crate_with_its_patch_is_reported() {
    let a = "fn a() {}\nfn b() {}\nfn c() {}\nfn d() {}\nfn e() {}\nfn f() {}\n";
    let a_patched = a.replace("fn b() {}", "fn b() { patched() }");
    let b = "fn g() {}\n";
    let published = BTreeMap::from([
        ("a.rs".to_owned(), sha256(a.as_bytes())),
        ("b.rs".to_owned(), sha256(b.as_bytes())),
        ("Cargo.lock".to_owned(), sha256(b"")),
    ]);
    let patch = "Notes, ignored.\n\ndiff -ruN a/a.rs b/a.rs\n--- a/a.rs\n+++ b/a.rs\n\
                 @@ -1,4 +1,4 @@\n fn a() {}\n-fn b() {}\n+fn b() { patched() }\n fn c() {}\n fn d() {}\n";
    let a_changed_elsewhere = a_patched.replace("fn f() {}", "fn f() { changed() }");
    // (the copy's files, path and text; the problems found)
    let cases: [(&[File], &[&str]); 7] = [
        (&[("a.rs", &a_patched), ("b.rs", b)], &[]),
        (
            &[("a.rs", &a_changed_elsewhere), ("b.rs", b)],
            &["a.rs: not the published file with the patch applied"],
        ),
        (
            &[("a.rs", a), ("b.rs", b)],
            &["a.rs: the patch does not come out of it (error applying hunk #1)"],
        ),
        (
            &[("a.rs", &a_patched), ("b.rs", "fn g() { changed() }\n")],
            &["b.rs: not the published file, and the patch does not change it"],
        ),
        (
            &[("a.rs", &a_patched), ("b.rs", b), ("c.rs", "")],
            &["c.rs: not in the published crate, and the patch does not create it"],
        ),
        (
            &[("a.rs", &a_patched), ("b.rs", b), ("Cargo.lock", "")],
            &[
                "Cargo.lock: left out of vendored crates ([\"Cargo.lock\", \".github/\", \"benches/\", \"examples/\", \"tests/\"])",
            ],
        ),
        (&[("a.rs", &a_patched)], &["b.rs: missing"]),
    ];
    for (files, expected) in cases {
        let dir = tempdir();
        for (path, text) in files {
            fs::write(dir.join(path), text).unwrap();
        }
        assert_eq!(check(&dir, &published, patch), expected, "{files:?}");
        fs::remove_dir_all(&dir).unwrap();
    }
}

/// How the copy in `dir` differs from the crate whose files hash as `published` (path to
/// SHA-256), less [`OMITTED`], with `patch` applied: one line per problem, empty if none.
fn check(dir: &Path, published: &BTreeMap<String, String>, patch: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut patched = BTreeMap::new();
    let mut created = BTreeSet::new();
    for file in PatchSet::parse(patch, ParseOptions::unidiff()) {
        let file = match file {
            Ok(file) => file,
            Err(err) => {
                problems.push(format!("the patch cannot be read: {err}"));
                return problems;
            }
        };
        let path = match file.operation().strip_prefix(1) {
            FileOperation::Modify { original, modified } if original == modified => {
                Some(modified.into_owned())
            }
            FileOperation::Create(path) => {
                created.insert(path.into_owned());
                None
            }
            operation => {
                problems.push(format!(
                    "the patch does more than change or create files: {operation:?}"
                ));
                None
            }
        };
        match (path, file.into_patch()) {
            (Some(path), PatchKind::Text(text)) => {
                patched.insert(path, text);
            }
            (_, PatchKind::Binary(_)) => {
                problems.push("the patch changes a binary file".to_owned())
            }
            (None, _) => {}
        }
    }

    let copy = files(dir, "");
    for path in published.keys().filter(|path| !omitted(path)) {
        if !copy.contains(path) {
            problems.push(format!("{path}: missing"));
        }
    }
    for path in &copy {
        let bytes = fs::read(dir.join(path)).unwrap();
        let Some(hash) = published.get(path) else {
            if !created.contains(path) {
                problems.push(format!(
                    "{path}: not in the published crate, and the patch does not create it"
                ));
            }
            continue;
        };
        if omitted(path) {
            problems.push(format!("{path}: left out of vendored crates ({OMITTED:?})"));
        }
        match patched.get(path) {
            None if &sha256(&bytes) != hash => problems.push(format!(
                "{path}: not the published file, and the patch does not change it"
            )),
            None => {}
            Some(patch) => {
                let text = String::from_utf8_lossy(&bytes);
                match diffy::apply(&text, &patch.reverse()) {
                    Ok(original) if &sha256(original.as_bytes()) == hash => {}
                    Ok(_) => problems.push(format!(
                        "{path}: not the published file with the patch applied"
                    )),
                    Err(err) => {
                        problems.push(format!("{path}: the patch does not come out of it ({err})"))
                    }
                }
            }
        }
    }
    problems
}

/// A vendored crate, as named by its patch `vendor/patches/<name>-<version>.patch`.
#[derive(Debug)]
struct PatchedCrate {
    name: String,
    version: String,
}

impl PatchedCrate {
    fn dir(&self) -> PathBuf {
        vendor().join(&self.name)
    }

    fn patch(&self) -> PathBuf {
        vendor().join(format!("patches/{}-{}.patch", self.name, self.version))
    }

    fn checksums(&self) -> Checksums {
        let path = vendor().join(format!(
            "patches/{}-{}.cargo-checksum.json",
            self.name, self.version
        ));
        let text =
            fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        serde_json::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
    }
}

/// A `.cargo-checksum.json`, as `cargo vendor` writes it beside each crate.
#[derive(Debug, Deserialize)]
struct Checksums {
    /// The SHA-256 of each file, by path in the crate.
    files: BTreeMap<String, String>,
    /// The SHA-256 of the `.crate`, as the registry's index records it.
    package: String,
}

fn patched_crates() -> impl Iterator<Item = PatchedCrate> {
    let mut names: Vec<String> = fs::read_dir(vendor().join("patches"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter_map(|name| name.strip_suffix(".patch").map(str::to_owned))
        .collect();
    names.sort();
    names.into_iter().map(|name| {
        // Versions start with a digit, crate names never do after a `-`.
        let at = name
            .match_indices('-')
            .find(|(at, _)| name[at + 1..].starts_with(|c: char| c.is_ascii_digit()))
            .map(|(at, _)| at)
            .unwrap_or_else(|| panic!("vendor/patches/{name}.patch: not <crate>-<version>.patch"));
        PatchedCrate {
            name: name[..at].to_owned(),
            version: name[at + 1..].to_owned(),
        }
    })
}

fn omitted(path: &str) -> bool {
    OMITTED
        .iter()
        .any(|omitted| path == *omitted || (omitted.ends_with('/') && path.starts_with(omitted)))
}

fn vendor() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vendor")
}

/// The paths of the files under `dir`, `/`-separated, relative to it, each prefixed by `prefix`.
fn files(dir: &Path, prefix: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = format!("{prefix}{}", entry.file_name().to_str().unwrap());
        if entry.file_type().unwrap().is_dir() {
            found.extend(files(&entry.path(), &format!("{path}/")));
        } else {
            found.insert(path);
        }
    }
    found
}

fn cargo_registry() -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))?;
    Some(home.join("registry")).filter(|registry| registry.is_dir())
}

fn subfolders(dir: &Path) -> Vec<PathBuf> {
    fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|entry| Some(entry.ok()?.path()))
                .collect()
        })
        .unwrap_or_default()
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// A new empty folder of its own under the system's temporary folder.
fn tempdir() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "xtask-vendored-{}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}
