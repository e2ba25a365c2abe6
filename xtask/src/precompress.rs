//! Copies compressed at build time beside each text asset, for static hosts that serve them
//! (nginx `brotli_static on; gzip_static on;`, and `cargo xtask serve`): `<file>.br` (brotli
//! quality 11) and `<file>.gz` (gzip level 9), which a host sends as they are instead of
//! compressing on every request, and smaller than it would on the fly.
//!
//! Text is what [`static_host::encoding::is_compressible`] says (html, css, js, wasm, json,
//! svg, xml, txt, webmanifest…), anywhere under the output directory. A copy that would not be
//! smaller than its file is not written (a host then sends the file itself), and one left from
//! an earlier build is removed, so every copy there is of the file beside it.
//!
//! `dist` calls it last, so that every text file it writes gets its copies. Compressing is the
//! slow part (brotli at quality 11: seconds for a wasm), and most files are the same from one
//! build to the next and from one site to another (the compiled site, the registry, its icons),
//! so the copies are kept in a cache named by the hash of what they compress, and a file seen
//! before is compressed again never.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};
use static_host::encoding::{self, Effort, Encoding};

/// What [`write_beside`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Precompressed {
    /// Text files found.
    pub files: usize,
    /// Their bytes.
    pub raw: u64,
    /// Bytes of the `.br` copies written.
    pub brotli: u64,
    /// Bytes of the `.gz` copies written.
    pub gzip: u64,
    /// Copies not written because they were not smaller than their file.
    pub not_smaller: usize,
}

/// Writes `<file>.br` and `<file>.gz` beside every text file under `dir` (on every core: brotli
/// at quality 11 takes a while), taking copies of files seen before from `cache` (a folder of
/// compressed files named by the SHA-256 of their content and their encoding's suffix), and
/// says what it did.
pub fn write_beside(dir: &Path, cache: &Path) -> Result<Precompressed> {
    fs::create_dir_all(cache).with_context(|| format!("creating {}", cache.display()))?;
    let mut files = Vec::new();
    text_files(dir, &mut files)?;
    let next = Mutex::new(files.iter());
    let total = Mutex::new(Precompressed::default());
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| -> Result<()> {
                    loop {
                        let Some(file) = next.lock().expect("no worker panics").next() else {
                            return Ok(());
                        };
                        let done = compress_beside(file, cache)?;
                        let mut total = total.lock().expect("no worker panics");
                        total.files += 1;
                        total.raw += done.raw;
                        total.brotli += done.brotli;
                        total.gzip += done.gzip;
                        total.not_smaller += done.not_smaller;
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .try_for_each(|handle| handle.join().expect("no worker panics"))
    })?;
    let total = total.into_inner().expect("no worker panics");
    println!("{}", summary(&total));
    Ok(total)
}

/// One line for the build's output.
fn summary(done: &Precompressed) -> String {
    let skipped = match done.not_smaller {
        0 => String::new(),
        n => format!("; {n} copies not written, no smaller than their file"),
    };
    format!(
        "precompressed {} text files beside themselves (.br, .gz): {} raw, {} brotli, {} gzip{skipped}",
        done.files, done.raw, done.brotli, done.gzip
    )
}

/// Every compressible file under `dir`, recursively.
fn text_files(dir: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    for entry in fs::read_dir(dir).with_context(|| format!("listing {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            text_files(&path, files)?;
        } else if path
            .file_name()
            .and_then(|name| name.to_str())
            .is_some_and(encoding::is_compressible)
        {
            files.push(path);
        }
    }
    Ok(())
}

/// Writes the copies of one file; counts it as [`write_beside`] does.
fn compress_beside(file: &Path, cache: &Path) -> Result<Precompressed> {
    let bytes = fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let hash = format!("{:x}", Sha256::digest(&bytes));
    let mut done = Precompressed {
        files: 1,
        raw: bytes.len() as u64,
        ..Precompressed::default()
    };
    for encoding in Encoding::ALL {
        let mut copy = file.as_os_str().to_owned();
        copy.push(encoding.suffix());
        let copy = PathBuf::from(copy);
        let compressed = cached(&cache.join(format!("{hash}{}", encoding.suffix())), || {
            encoding.compress(&bytes, Effort::Best)
        })?;
        if compressed.len() < bytes.len() {
            fs::write(&copy, &compressed).with_context(|| format!("writing {}", copy.display()))?;
            let size = compressed.len() as u64;
            match encoding {
                Encoding::Brotli => done.brotli += size,
                Encoding::Gzip => done.gzip += size,
            }
        } else {
            done.not_smaller += 1;
            if copy.exists() {
                fs::remove_file(&copy).with_context(|| format!("removing {}", copy.display()))?;
            }
        }
    }
    Ok(done)
}

/// The folder of compressed copies under the workspace `root`, named by content: what the build
/// measured or compressed once is not compressed again.
pub fn cache_dir(root: &Path) -> PathBuf {
    root.join("target").join("site").join("compressed")
}

/// The size of `bytes` in brotli at quality 11, as [`write_beside`] writes it: from the copy in
/// `cache`, else compressed and kept there (for `write_beside` to take).
pub fn brotli_size(bytes: &[u8], cache: &Path) -> Result<u64> {
    fs::create_dir_all(cache).with_context(|| format!("creating {}", cache.display()))?;
    let hash = format!("{:x}", Sha256::digest(bytes));
    let kept = cache.join(format!("{hash}{}", Encoding::Brotli.suffix()));
    let compressed = cached(&kept, || Encoding::Brotli.compress(bytes, Effort::Best))?;
    Ok(compressed.len() as u64)
}

/// What `kept` holds, else what `make` makes, kept there (written whole under another name
/// first, so a reader never sees half a file).
fn cached(kept: &Path, make: impl FnOnce() -> Vec<u8>) -> Result<Vec<u8>> {
    if let Ok(bytes) = fs::read(kept) {
        return Ok(bytes);
    }
    let bytes = make();
    let mut partial = kept.as_os_str().to_owned();
    partial.push(format!(".{:?}.partial", std::thread::current().id()));
    fs::write(&partial, &bytes).with_context(|| format!("writing {}", kept.display()))?;
    fs::rename(&partial, kept).with_context(|| format!("writing {}", kept.display()))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    #[test]
    fn text_files_get_smaller_copies_beside_them() {
        let dir = std::env::temp_dir().join(format!("xtask-precompress-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("agents/x")).unwrap();
        let page = "<p class=\"card\">agent</p>\n".repeat(100);
        fs::write(dir.join("index.html"), &page).unwrap();
        fs::write(dir.join("agents/x/index.html"), &page).unwrap();
        fs::write(dir.join("tiny.txt"), "a").unwrap();
        fs::write(dir.join("icon.png"), "png ".repeat(100)).unwrap();
        // Left by an earlier build whose tiny.txt compressed well.
        fs::write(dir.join("tiny.txt.br"), "old").unwrap();
        let cache = dir.with_extension("cache");
        let _ = fs::remove_dir_all(&cache);

        let done = write_beside(&dir, &cache).unwrap();
        assert_eq!(
            (done.files, done.raw, done.not_smaller),
            (3, 2 * page.len() as u64 + 1, 2)
        );
        for html in ["index.html", "agents/x/index.html"] {
            let br = fs::read(dir.join(format!("{html}.br"))).unwrap();
            let mut text = String::new();
            brotli::Decompressor::new(&br[..], 4096)
                .read_to_string(&mut text)
                .unwrap();
            assert_eq!(text, page, "{html}.br");
            let gz = fs::read(dir.join(format!("{html}.gz"))).unwrap();
            let mut text = String::new();
            flate2::read::GzDecoder::new(&gz[..])
                .read_to_string(&mut text)
                .unwrap();
            assert_eq!(text, page, "{html}.gz");
            assert!(br.len() < gz.len() && gz.len() < page.len() / 10, "{html}");
        }
        assert_eq!(
            done.brotli,
            fs::metadata(dir.join("index.html.br")).unwrap().len() * 2
        );
        for absent in ["tiny.txt.br", "tiny.txt.gz", "icon.png.br", "icon.png.gz"] {
            assert!(!dir.join(absent).exists(), "{absent}");
        }
        // Run again over its own output: the copies are not compressed in turn.
        assert_eq!(write_beside(&dir, &cache).unwrap(), done);
        // The two pages are one content: one copy per encoding in the cache, with tiny.txt's
        // (kept though not written beside it).
        let kept = fs::read_dir(&cache).unwrap().count();
        assert_eq!(kept, 2 * 2, "{cache:?}");
        // A copy is taken from the cache, not compressed again.
        let page_hash = format!("{:x}", Sha256::digest(page.as_bytes()));
        fs::write(cache.join(format!("{page_hash}.br")), "kept").unwrap();
        fs::remove_file(dir.join("index.html.br")).unwrap();
        write_beside(&dir, &cache).unwrap();
        assert_eq!(fs::read(dir.join("index.html.br")).unwrap(), b"kept");
        fs::remove_dir_all(&dir).unwrap();
        fs::remove_dir_all(&cache).unwrap();
    }

    #[test]
    fn sizes_are_measured_once_and_kept_for_the_copies() {
        let cache = std::env::temp_dir().join(format!("xtask-size-{}", std::process::id()));
        let _ = fs::remove_dir_all(&cache);
        let text = "<div class=\"flex\">agent</div>\n".repeat(200);
        let size = brotli_size(text.as_bytes(), &cache).unwrap();
        assert!(size > 0 && size < 100, "{size}");
        let hash = format!("{:x}", Sha256::digest(text.as_bytes()));
        let kept = cache.join(format!("{hash}.br"));
        assert_eq!(fs::read(&kept).unwrap().len() as u64, size);
        // The next measure of the same bytes reads the kept copy.
        fs::write(&kept, "xx").unwrap();
        assert_eq!(brotli_size(text.as_bytes(), &cache).unwrap(), 2);
        fs::remove_dir_all(&cache).unwrap();
    }

    #[test]
    fn the_summary_says_what_was_skipped() {
        let done = Precompressed {
            files: 3,
            raw: 1000,
            brotli: 100,
            gzip: 150,
            not_smaller: 0,
        };
        assert_eq!(
            summary(&done),
            "precompressed 3 text files beside themselves (.br, .gz): 1000 raw, 100 brotli, 150 gzip"
        );
        let done = Precompressed {
            not_smaller: 2,
            ..done
        };
        assert!(
            summary(&done).ends_with("150 gzip; 2 copies not written, no smaller than their file")
        );
    }
}
