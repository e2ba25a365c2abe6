//! The build's service worker: `src/service-worker.js` with the build's files filled in.
//!
//! [`write_service_worker`] lists the files the app needs to open offline (the pages as built
//! at the top level, the loading shell, the wasm and its glue, the styles, the favicon), puts
//! them and a digest of their contents into the worker's `FILES` and `BUILD`, and writes it as
//! `service-worker.js` beside `index.html`. A new build whose files differ is a new worker,
//! which the browser installs on the next visit; one that does not is byte-identical, and
//! nothing is fetched again.

use std::fs;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

use anyhow::{Context, Result, ensure};

/// The worker's source in the repository.
pub const SOURCE: &str = "src/service-worker.js";
/// What the worker is called in the build (the app registers it under this name).
pub const FILE: &str = "service-worker.js";

/// Writes `service-worker.js` into `out_dir` from the repository's source at `root`, and
/// returns the files it keeps (URLs relative to the site's base).
pub fn write_service_worker(root: &Path, out_dir: &Path) -> Result<Vec<String>> {
    let source = root.join(SOURCE);
    let template =
        fs::read_to_string(&source).with_context(|| format!("reading {}", source.display()))?;
    ensure!(
        template.contains("'__BUILD__'") && template.contains("__FILES__"),
        "{} lacks its '__BUILD__' or __FILES__ placeholder",
        source.display()
    );
    let files = app_files(out_dir)?;
    let mut digest = DefaultHasher::new();
    for file in &files {
        file.hash(&mut digest);
        let path = out_dir.join(if file == "./" { "index.html" } else { file });
        fs::read(&path)
            .with_context(|| format!("reading {}", path.display()))?
            .hash(&mut digest);
    }
    let worker = template
        .replace("'__BUILD__'", &format!("'{:016x}'", digest.finish()))
        .replace("__FILES__", &serde_json::to_string(&files)?);
    let target = out_dir.join(FILE);
    fs::write(&target, worker).with_context(|| format!("writing {}", target.display()))?;
    Ok(files)
}

/// The top-level files the app opens with, in a fixed order: `./` (the catalogue's page),
/// the other pages as built, then the wasm, scripts and styles Trunk wrote (their names carry
/// a hash) and the favicon.
fn app_files(out_dir: &Path) -> Result<Vec<String>> {
    let mut files = vec!["./".to_owned()];
    let mut names: Vec<String> = fs::read_dir(out_dir)
        .with_context(|| format!("listing {}", out_dir.display()))?
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().is_file())
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| is_app_file(name))
        .collect();
    names.sort();
    files.extend(names);
    Ok(files)
}

fn is_app_file(name: &str) -> bool {
    match name {
        FILE | "index.html" => false,
        "404.html" | "shell.html" | "favicon.svg" => true,
        _ => [".wasm", ".js", ".css"]
            .iter()
            .any(|ext| name.ends_with(ext)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_lists_the_app_files_and_changes_with_them() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let out = std::env::temp_dir().join(format!("acp-sw-{}", std::process::id()));
        let _ = fs::remove_dir_all(&out);
        fs::create_dir_all(out.join("agents/gemini")).unwrap();
        for (name, text) in [
            ("index.html", "<html>"),
            ("404.html", "<html>404"),
            ("shell.html", "<html>shell"),
            ("acp-catalog-1a2b_bg.wasm", "wasm"),
            ("acp-catalog-1a2b.js", "js"),
            ("main-3c4d.css", "css"),
            ("favicon.svg", "<svg/>"),
            ("registry.json", "{}"),
            ("gemini.svg", "<svg/>"),
            ("acp-catalog-1a2b.js.br", "br"),
            ("agents/gemini/index.html", "<html>gemini"),
        ] {
            fs::write(out.join(name), text).unwrap();
        }
        let files = write_service_worker(root, &out).unwrap();
        assert_eq!(
            files,
            [
                "./",
                "404.html",
                "acp-catalog-1a2b.js",
                "acp-catalog-1a2b_bg.wasm",
                "favicon.svg",
                "main-3c4d.css",
                "shell.html"
            ]
        );
        let worker = fs::read_to_string(out.join(FILE)).unwrap();
        assert!(worker.contains(&format!(
            "const FILES = {};",
            serde_json::to_string(&files).unwrap()
        )));
        assert!(!worker.contains("__BUILD__") && !worker.contains("__FILES__"));
        let build = |worker: &str| worker.split("const BUILD = '").nth(1).unwrap()[..16].to_owned();
        let first = build(&worker);
        // The same files: the same worker, byte for byte.
        write_service_worker(root, &out).unwrap();
        assert_eq!(fs::read_to_string(out.join(FILE)).unwrap(), worker);
        // A file that changes: another build.
        fs::write(out.join("main-3c4d.css"), "css, changed").unwrap();
        write_service_worker(root, &out).unwrap();
        assert_ne!(build(&fs::read_to_string(out.join(FILE)).unwrap()), first);
        fs::remove_dir_all(&out).unwrap();
    }
}
