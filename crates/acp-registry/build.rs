//! Embeds the catalogue site into the binary for `acp-registry preview`.
//!
//! When `ACP_REGISTRY_SITE_DIR` names a built release site (`cargo xtask cli` sets it), every
//! file under it becomes an `include_bytes!` entry of `$OUT_DIR/site.rs`; without it the list is
//! empty and `preview` explains how to build a binary that has the site. The copies `dist`
//! compresses beside each text file for static hosts (`<file>.br`, `<file>.gz`) are left out:
//! `preview` compresses what it serves itself.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-env-changed=ACP_REGISTRY_SITE_DIR");
    let mut files = Vec::new();
    if let Some(dir) = std::env::var_os("ACP_REGISTRY_SITE_DIR").filter(|d| !d.is_empty()) {
        let dir = std::path::absolute(PathBuf::from(dir)).expect("ACP_REGISTRY_SITE_DIR resolves");
        println!("cargo:rerun-if-changed={}", dir.display());
        assert!(
            dir.join("index.html").is_file(),
            "ACP_REGISTRY_SITE_DIR={} has no index.html: build the site first (`cargo xtask cli`)",
            dir.display()
        );
        collect(&dir, "", &mut files);
        files.sort();
    }
    let mut code =
        String::from("/// Every file of the embedded site: path relative to it, bytes.\n");
    code.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (relative, path) in &files {
        let path = path.to_str().expect("site paths are UTF-8");
        writeln!(code, "    ({relative:?}, include_bytes!({path:?})),").expect("write to String");
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("site.rs"), code).expect("OUT_DIR is writable");
}

/// Every file under `dir`, with its `/`-separated path relative to the site's root.
fn collect(dir: &Path, prefix: &str, files: &mut Vec<(String, PathBuf)>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.expect("the site folder can be listed");
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        let path = entry.path();
        let relative = format!("{prefix}{name}");
        if path.is_dir() {
            collect(&path, &format!("{relative}/"), files);
        } else if path.is_file() && !is_precompressed_copy(&path) {
            files.push((relative, path));
        }
    }
}

/// Whether `path` is `<file>.br` or `<file>.gz` with `<file>` beside it.
fn is_precompressed_copy(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("");
    name.strip_suffix(".br")
        .or_else(|| name.strip_suffix(".gz"))
        .is_some_and(|file| path.with_file_name(file).is_file())
}
