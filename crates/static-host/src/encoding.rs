//! Compression as static hosts serve it: brotli or gzip when the request's `Accept-Encoding`
//! allows, for text only, never for ranges.
//!
//! - [`negotiate`] reads a request (its path, `Accept-Encoding`, whether it asks for a range)
//!   and says which encodings may answer it, best first, and whether the answer varies with
//!   `Accept-Encoding` (it does for every text file, compressed or not, so caches keep the two
//!   apart).
//! - A server first looks for a copy compressed at build time beside the file
//!   (`<file>` + [`Encoding::suffix`], what nginx's `brotli_static`/`gzip_static` serve), and
//!   otherwise compresses on the fly at [`Effort::OnTheFly`], remembering the result in a
//!   [`Cache`] until the file changes.
//! - Images, fonts and archives are already compressed and are served as they are.
//!
//! ```
//! use static_host::encoding::{Encoding, negotiate};
//!
//! let answer = negotiate("app.wasm", Some("gzip, deflate, br"), false);
//! assert_eq!(answer.encodings, [Encoding::Brotli, Encoding::Gzip]);
//! assert!(answer.vary);
//! assert!(negotiate("icon.png", Some("br"), false).encodings.is_empty());
//! assert!(negotiate("app.wasm", Some("br"), true).encodings.is_empty());
//! ```

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A content coding a static host answers text with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Brotli (`br`): the smallest, what browsers ask for first.
    Brotli,
    /// Gzip (`gzip`): what every client understands.
    Gzip,
}

impl Encoding {
    /// Every encoding, in the server's order of preference when the client ranks them equally.
    pub const ALL: [Encoding; 2] = [Encoding::Brotli, Encoding::Gzip];

    /// The token of `Accept-Encoding` and `Content-Encoding`.
    pub fn token(self) -> &'static str {
        match self {
            Encoding::Brotli => "br",
            Encoding::Gzip => "gzip",
        }
    }

    /// What a copy compressed at build time adds to the file's name: `.br` or `.gz`.
    pub fn suffix(self) -> &'static str {
        match self {
            Encoding::Brotli => ".br",
            Encoding::Gzip => ".gz",
        }
    }

    /// `bytes` compressed in this encoding.
    pub fn compress(self, bytes: &[u8], effort: Effort) -> Vec<u8> {
        // Writing into a `Vec` cannot fail, so neither can the encoders.
        const INFALLIBLE: &str = "compressing into memory cannot fail";
        match self {
            Encoding::Brotli => {
                let params = brotli::enc::BrotliEncoderParams {
                    quality: effort.brotli_quality(),
                    lgwin: 22,
                    size_hint: bytes.len(),
                    ..Default::default()
                };
                let mut out = Vec::with_capacity(bytes.len() / 4);
                brotli::BrotliCompress(&mut &bytes[..], &mut out, &params).expect(INFALLIBLE);
                out
            }
            Encoding::Gzip => {
                let level = flate2::Compression::new(effort.gzip_level());
                let mut encoder =
                    flate2::write::GzEncoder::new(Vec::with_capacity(bytes.len() / 3), level);
                encoder.write_all(bytes).expect(INFALLIBLE);
                encoder.finish().expect(INFALLIBLE)
            }
        }
    }
}

/// How hard to compress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    /// While a request waits: brotli quality 5, gzip level 6, about what hosts that compress
    /// dynamically use (a 9 MB registry takes well under a second).
    OnTheFly,
    /// Once, at build time: brotli quality 11, gzip level 9, the smallest either makes.
    Best,
}

impl Effort {
    fn brotli_quality(self) -> i32 {
        match self {
            Effort::OnTheFly => 5,
            Effort::Best => 11,
        }
    }

    fn gzip_level(self) -> u32 {
        match self {
            Effort::OnTheFly => 6,
            Effort::Best => 9,
        }
    }
}

/// Whether a host compresses this file: text (`html`, `css`, `js`, `wasm`, `json`, `svg`,
/// `xml`, `txt`, `webmanifest`…), by extension. Images, fonts and archives are compressed
/// already.
pub fn is_compressible(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let extension = name.rsplit_once('.').map_or("", |(_, ext)| ext);
    matches!(
        extension.to_ascii_lowercase().as_str(),
        "html"
            | "htm"
            | "css"
            | "js"
            | "mjs"
            | "wasm"
            | "json"
            | "map"
            | "svg"
            | "xml"
            | "txt"
            | "webmanifest"
    )
}

/// How to answer one request for a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Negotiated {
    /// The encodings the answer may use, the best first; empty: the file as it is.
    pub encodings: Vec<Encoding>,
    /// Whether the answer depends on `Accept-Encoding` (`Vary: Accept-Encoding`): true for
    /// every compressible file, even when this answer is not compressed.
    pub vary: bool,
}

/// How to answer a request for `path` that sent `accept_encoding` (the header's value, if any)
/// and, when `range` is true, a `Range` header: ranges are always of the file as it is.
///
/// Encodings the header does not name, or names with `q=0`, are not used; a `*` stands for
/// every encoding it does not name. The client's q-values rank the rest, and the server's
/// preference (brotli, then gzip) breaks ties.
pub fn negotiate(path: &str, accept_encoding: Option<&str>, range: bool) -> Negotiated {
    let vary = is_compressible(path);
    let encodings = match accept_encoding {
        Some(header) if vary && !range => accepted(header),
        _ => Vec::new(),
    };
    Negotiated { encodings, vary }
}

/// The encodings an `Accept-Encoding` value accepts, best first.
fn accepted(header: &str) -> Vec<Encoding> {
    let mut named: HashMap<Encoding, f32> = HashMap::new();
    let mut any = None;
    for item in header.split(',') {
        let mut parts = item.split(';');
        let token = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let mut quality = Some(1.0);
        for parameter in parts {
            if let Some((name, value)) = parameter.split_once('=')
                && name.trim().eq_ignore_ascii_case("q")
            {
                quality = value
                    .trim()
                    .parse::<f32>()
                    .ok()
                    .filter(|q| (0.0..=1.0).contains(q));
            }
        }
        // An element with a q-value that is not one is ignored, as if absent.
        let Some(quality) = quality else { continue };
        match token.as_str() {
            "br" => {
                named.insert(Encoding::Brotli, quality);
            }
            "gzip" | "x-gzip" => {
                named.insert(Encoding::Gzip, quality);
            }
            "*" => any = Some(quality),
            _ => {}
        }
    }
    let mut ranked: Vec<(Encoding, f32)> = Encoding::ALL
        .into_iter()
        .filter_map(|encoding| Some((encoding, named.get(&encoding).copied().or(any)?)))
        .filter(|&(_, quality)| quality > 0.0)
        .collect();
    // Stable: equal q-values keep the server's order.
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked.into_iter().map(|(encoding, _)| encoding).collect()
}

/// Bodies compressed on the fly, kept per path and encoding together with the version of the
/// content they were made from (a file's modification time and length, a build's number), so
/// that each version is compressed once.
#[derive(Debug)]
pub struct Cache<V> {
    entries: Mutex<Entries<V>>,
}

/// Per path and encoding: the version compressed, and the body.
type Entries<V> = HashMap<(String, Encoding), (V, Arc<[u8]>)>;

impl<V> Default for Cache<V> {
    fn default() -> Self {
        Cache {
            entries: Mutex::new(HashMap::new()),
        }
    }
}

impl<V: PartialEq + Clone> Cache<V> {
    /// The content of `path` at `version` in `encoding`: remembered, or `read` and compressed
    /// at [`Effort::OnTheFly`] (and remembered in place of any older version).
    pub fn get_or_compress<E>(
        &self,
        path: &str,
        version: &V,
        encoding: Encoding,
        read: impl FnOnce() -> Result<Vec<u8>, E>,
    ) -> Result<Arc<[u8]>, E> {
        let key = (path.to_owned(), encoding);
        if let Some((held, body)) = self.lock().get(&key)
            && held == version
        {
            return Ok(Arc::clone(body));
        }
        // Compressed without the lock: other files are answered meanwhile.
        let body: Arc<[u8]> = encoding.compress(&read()?, Effort::OnTheFly).into();
        self.lock()
            .insert(key, (version.clone(), Arc::clone(&body)));
        Ok(body)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries<V>> {
        self.entries
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;
    use std::io::Read;

    use super::*;

    const BR: Encoding = Encoding::Brotli;
    const GZ: Encoding = Encoding::Gzip;

    #[test]
    fn accept_encoding_is_read_as_rfc_9110_says() {
        let cases: [(&str, &[Encoding]); 16] = [
            ("gzip, deflate, br, zstd", &[BR, GZ]),
            ("br", &[BR]),
            ("gzip", &[GZ]),
            ("x-gzip", &[GZ]),
            ("GZIP, BR", &[BR, GZ]),
            ("deflate", &[]),
            ("identity", &[]),
            ("", &[]),
            ("*", &[BR, GZ]),
            ("gzip;q=1.0, br;q=0.5", &[GZ, BR]),
            ("gzip; q=0.8, *;q=0.9", &[BR, GZ]),
            ("br;q=0, *", &[GZ]),
            ("*;q=0", &[]),
            ("br;q=0.000, gzip", &[GZ]),
            ("br;q=2, gzip", &[GZ]),
            ("br;q=abc, gzip;level=9", &[GZ]),
        ];
        for (header, expected) in cases {
            assert_eq!(accepted(header), expected, "{header:?}");
        }
    }

    #[test]
    fn only_text_is_compressed_and_never_a_range() {
        let cases = [
            ("index.html", Some("br"), false, vec![BR], true),
            ("agents/x/index.html", Some("gzip"), false, vec![GZ], true),
            ("app-1_bg.wasm", Some("br, gzip"), false, vec![BR, GZ], true),
            ("main.CSS", Some("br"), false, vec![BR], true),
            ("site.webmanifest", Some("br"), false, vec![BR], true),
            ("robots.txt", Some("br"), false, vec![BR], true),
            ("gemini.svg", Some("br"), false, vec![BR], true),
            ("index.html", None, false, vec![], true),
            ("index.html", Some("br"), true, vec![], true),
            ("icon.png", Some("br, gzip"), false, vec![], false),
            ("font.woff2", Some("br"), false, vec![], false),
            ("LICENSE", Some("br"), false, vec![], false),
            ("registry.json.br", Some("br"), false, vec![], false),
        ];
        for (path, header, range, encodings, vary) in cases {
            assert_eq!(
                negotiate(path, header, range),
                Negotiated { encodings, vary },
                "{path} {header:?} range={range}"
            );
        }
    }

    fn decode(encoding: Encoding, bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        match encoding {
            Encoding::Brotli => brotli::Decompressor::new(bytes, 4096)
                .read_to_end(&mut out)
                .unwrap(),
            Encoding::Gzip => flate2::read::GzDecoder::new(bytes)
                .read_to_end(&mut out)
                .unwrap(),
        };
        out
    }

    #[test]
    fn compressed_text_decodes_to_itself_and_is_smaller() {
        let text = "<li class=\"card\">agent · ünïcode</li>\n".repeat(500);
        for encoding in Encoding::ALL {
            for effort in [Effort::OnTheFly, Effort::Best] {
                let compressed = encoding.compress(text.as_bytes(), effort);
                assert!(
                    compressed.len() < text.len() / 10,
                    "{encoding:?} {effort:?}"
                );
                assert_eq!(decode(encoding, &compressed), text.as_bytes());
            }
        }
        // Gzip's magic number; brotli has none, but decodes above.
        assert_eq!(&GZ.compress(b"", Effort::Best)[..2], [0x1f, 0x8b]);
    }

    #[test]
    fn the_cache_compresses_each_version_once() {
        let cache = Cache::default();
        let mut reads = 0;
        let mut get = |version: u32, encoding: Encoding, text: &'static str| {
            cache
                .get_or_compress("a.js", &version, encoding, || {
                    reads += 1;
                    Ok::<_, Infallible>(text.as_bytes().to_vec())
                })
                .unwrap()
        };
        let first = get(1, BR, "one");
        assert_eq!(decode(BR, &get(1, BR, "changed but same version")), b"one");
        assert!(Arc::ptr_eq(&first, &get(1, BR, "")));
        assert_eq!(decode(GZ, &get(1, GZ, "one")), b"one");
        assert_eq!(decode(BR, &get(2, BR, "two")), b"two");
        assert_eq!(decode(BR, &get(2, BR, "")), b"two");
        assert_eq!(reads, 3, "one read per version and encoding");

        let failed = cache.get_or_compress("b.js", &1, BR, || Err("unreadable"));
        assert_eq!(failed.err(), Some("unreadable"));
    }
}
