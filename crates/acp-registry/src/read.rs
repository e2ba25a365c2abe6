//! Reading a registry folder from disk into [`Files`]: the top-level files, and the files of
//! each entry folder one level down (folders the CI skips are not read).
//!
//! Every command reads a registry folder's contents here, and nowhere else.

use std::fs;
use std::path::Path;

use anyhow::Context;
use registry_validate::{Files, is_skipped_folder};

/// Reads `dir` as the validator sees it.
pub fn registry(dir: &Path) -> anyhow::Result<Files> {
    let mut files = Files::new();
    let entries = fs::read_dir(dir)
        .with_context(|| format!("cannot read the registry folder {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        let path = entry.path();
        let metadata =
            fs::metadata(&path).with_context(|| format!("cannot read {}", path.display()))?;
        if metadata.is_file() {
            let bytes =
                fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            files.insert(&name, bytes);
        } else if metadata.is_dir() && !is_skipped_folder(&name) {
            read_folder(&path, &name, &mut files)?;
        }
    }
    Ok(files)
}

fn read_folder(path: &Path, folder: &str, files: &mut Files) -> anyhow::Result<()> {
    let entries =
        fs::read_dir(path).with_context(|| format!("cannot read the folder {}", path.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", path.display()))?;
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        let inner = entry.path();
        if fs::metadata(&inner).is_ok_and(|m| m.is_file()) {
            let bytes =
                fs::read(&inner).with_context(|| format!("cannot read {}", inner.display()))?;
            files.insert(&format!("{folder}/{name}"), bytes);
        }
    }
    Ok(())
}
