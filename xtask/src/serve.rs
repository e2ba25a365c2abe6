//! A small static file server that behaves like a plain static host (GitHub Pages), so that what
//! passes locally passes when published: paths are answered as [`static_host::resolve`] says
//! (files under the public URL, directories by their `index.html`, a directory named without its
//! trailing slash redirected, anything else 404 with the content of `404.html`, the SPA fallback
//! that `dist` writes), with [`static_host::content_type`].
//!
//! Text is compressed as real hosts compress it, so local figures (Lighthouse's transferred
//! bytes) match production: when the request's `Accept-Encoding` allows, a text file (and the
//! `404.html` fallback) is answered in brotli or gzip ([`static_host::encoding::negotiate`]),
//! from the `<file>.br`/`<file>.gz` that `dist` writes beside it when there is one (as nginx's
//! `brotli_static`/`gzip_static` do, trusting it to be of the file), else compressed on the fly
//! and kept until the file changes. Every text answer carries `Vary: Accept-Encoding`; ranges
//! and images are answered as they are.
//!
//! [`spawn`] runs it on background threads and returns at once with the bound address, so the
//! tests can serve a build on an ephemeral port (port 0) and stop it by dropping the handle.
//!
//! The server is `local-server`'s; what is compressed on the fly is kept per file, modification
//! time and size.
//!
//! [`spawn_on_link`] serves behind a slow [`Link`] that every response shares, as one phone's
//! connection: each answer waits the link's latency, then its body takes its turn on the link's
//! bandwidth, a few kilobytes at a time, interleaved with the other answers under way. It paces
//! the requests a page's workers make as well as its own, which Chromium's per-page network
//! emulation does not.

use std::fs::{self, File, Metadata};
use std::io::{Cursor, Read};
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Result, anyhow, ensure};
use local_server::Workers;
use local_server::tiny_http::{Header, Request, Response, ResponseBox, StatusCode};
use static_host::encoding::{self, Encoding};
use static_host::{Resolved, content_type};

/// How many requests are answered at once: a browser opens up to six connections to a host, and
/// the end-to-end tests run several browsers at a time; a slow reader holds its worker.
const WORKERS: usize = 16;

/// A running server; dropping it stops the server.
#[derive(Debug)]
pub struct ServerHandle {
    /// The address the server is bound to (with the real port when asked for port 0).
    pub addr: SocketAddr,
    public_url: String,
    workers: Workers,
}

impl ServerHandle {
    /// The site's URL, e.g. `http://127.0.0.1:8080/acp/registry/`.
    pub fn url(&self) -> String {
        format!("http://{}{}", self.addr, self.public_url)
    }

    /// Blocks until the server stops (for `cargo xtask serve`, that is Ctrl-C).
    pub fn wait(self) {
        self.workers.wait();
    }
}

/// Serves `dir` under `public_url` (starting and ending with `/`) on `127.0.0.1:port`; port 0
/// picks a free port, see [`ServerHandle::addr`].
pub fn spawn(dir: &Path, public_url: &str, port: u16) -> Result<ServerHandle> {
    serve(dir, public_url, port, None)
}

/// Like [`spawn`], every answer sent over `link`.
pub fn spawn_on_link(dir: &Path, public_url: &str, link: Link) -> Result<ServerHandle> {
    serve(dir, public_url, 0, Some(Arc::new(link)))
}

fn serve(dir: &Path, public_url: &str, port: u16, link: Option<Arc<Link>>) -> Result<ServerHandle> {
    ensure!(
        public_url.starts_with('/') && public_url.ends_with('/'),
        "public URL `{public_url}` must start and end with `/`"
    );
    ensure!(
        dir.is_dir(),
        "{} is not a directory: build the site first",
        dir.display()
    );
    let site = Site {
        dir: dir.to_path_buf(),
        public_url: public_url.to_owned(),
        compressed: encoding::Cache::default(),
        link,
    };
    let workers = Workers::spawn(
        SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
        WORKERS,
        local_server::read_only(move |request| site.respond(request)),
    )
    .map_err(|err| anyhow!("cannot listen on 127.0.0.1:{port}: {err} (try another --port)"))?;
    Ok(ServerHandle {
        addr: workers.addr(),
        public_url: public_url.to_owned(),
        workers,
    })
}

/// A file's version, as far as the compression cache is concerned.
type Version = (SystemTime, u64);

/// A built site, the path it is published under, and what was compressed on the fly.
#[derive(Debug)]
struct Site {
    dir: PathBuf,
    public_url: String,
    compressed: encoding::Cache<Version>,
    /// The slow link every answer shares, if any.
    link: Option<Arc<Link>>,
}

/// A slow connection: `latency` before each answer starts, then `bytes_per_second` shared by
/// every answer's body.
#[derive(Debug)]
pub struct Link {
    latency: Duration,
    bytes_per_second: f64,
    /// When the link has sent everything taken so far.
    free_at: Mutex<Instant>,
}

impl Link {
    /// A link of `kilobits_per_second` (1,000 bits) whose answers each start `latency` late.
    pub fn new(kilobits_per_second: u32, latency: Duration) -> Link {
        Link {
            latency,
            bytes_per_second: f64::from(kilobits_per_second) * 1000.0 / 8.0,
            free_at: Mutex::new(Instant::now()),
        }
    }

    /// Waits until `bytes` more have gone over the link, after everything taken before.
    fn send(&self, bytes: usize) {
        let done = {
            let mut free_at = self.free_at.lock().unwrap_or_else(|e| e.into_inner());
            let start = (*free_at).max(Instant::now());
            *free_at = start + Duration::from_secs_f64(bytes as f64 / self.bytes_per_second);
            *free_at
        };
        std::thread::sleep(done.saturating_duration_since(Instant::now()));
    }
}

/// A body read through a [`Link`], a few kilobytes at a time, so that answers under way at once
/// share it.
struct Paced<R> {
    body: R,
    link: Arc<Link>,
}

impl<R: Read> Read for Paced<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        /// Ten milliseconds of a 1.6 Mbit/s link.
        const PIECE: usize = 2 * 1024;
        let len = buf.len().min(PIECE);
        let read = self.body.read(&mut buf[..len])?;
        self.link.send(read);
        Ok(read)
    }
}

impl Site {
    fn respond(&self, request: Request) -> std::io::Result<()> {
        let response = match self.resolve(request.url()) {
            Resolved::File(path) => self
                .file(&request, &path, StatusCode(200))
                .unwrap_or_else(|| self.missing(&request)),
            Resolved::Redirect(location) => {
                Response::from_string(format!("301 Moved Permanently: {location}\n"))
                    .with_status_code(301)
                    .with_header(header("Location", &location))
                    .boxed()
            }
            Resolved::Missing => self.missing(&request),
            Resolved::Outside => Response::from_string(format!(
                "404 Not Found: this server only serves {}\n",
                self.public_url
            ))
            .with_status_code(404)
            .boxed(),
        };
        match &self.link {
            None => request.respond(response),
            Some(link) => {
                std::thread::sleep(link.latency);
                let (status, headers, length) = (
                    response.status_code(),
                    response.headers().to_vec(),
                    response.data_length(),
                );
                let body = Paced {
                    body: response.into_reader(),
                    link: Arc::clone(link),
                };
                request.respond(
                    Response::new(status, headers, body, length, None)
                        .with_chunked_threshold(usize::MAX),
                )
            }
        }
    }

    /// The 404 answer: the content of `404.html`, or a line of text when there is none.
    fn missing(&self, request: &Request) -> ResponseBox {
        self.file(request, "404.html", StatusCode(404))
            .unwrap_or_else(|| {
                Response::from_string("404 Not Found\n")
                    .with_status_code(404)
                    .boxed()
            })
    }

    /// The file at `path` (relative to the site) with `status`, in the best encoding the request
    /// accepts (see [`Site::encoded`]); `None` when it cannot be read.
    fn file(&self, request: &Request, path: &str, status: StatusCode) -> Option<ResponseBox> {
        let full = self.dir.join(path);
        let metadata = fs::metadata(&full).ok().filter(Metadata::is_file)?;
        let negotiated = encoding::negotiate(
            path,
            request_header(request, "Accept-Encoding"),
            request_header(request, "Range").is_some(),
        );
        let response = match self.encoded(path, &full, &metadata, &negotiated.encodings) {
            Some((body, encoding)) => {
                body.with_header(header("Content-Encoding", encoding.token()))
            }
            None => Response::from_file(File::open(&full).ok()?).boxed(),
        };
        let response = response
            .with_status_code(status)
            // Always a Content-Length, never chunked, like a static host.
            .with_chunked_threshold(usize::MAX)
            .with_header(header("Content-Type", content_type(path)))
            .with_header(header("Cache-Control", "no-cache"));
        Some(if negotiated.vary {
            response.with_header(header("Vary", "Accept-Encoding"))
        } else {
            response
        })
    }

    /// The file at `full` in the first of `encodings` that has a copy compressed at build time
    /// beside it (`<file>.br`, `<file>.gz`), else compressed on the fly in the first of
    /// `encodings` (kept until the file changes); `None` when `encodings` is empty or the file
    /// cannot be read.
    fn encoded(
        &self,
        path: &str,
        full: &Path,
        metadata: &Metadata,
        encodings: &[Encoding],
    ) -> Option<(ResponseBox, Encoding)> {
        for &encoding in encodings {
            let mut beside = full.as_os_str().to_owned();
            beside.push(encoding.suffix());
            if fs::metadata(&beside).is_ok_and(|m| m.is_file())
                && let Ok(file) = File::open(&beside)
            {
                return Some((Response::from_file(file).boxed(), encoding));
            }
        }
        let &best = encodings.first()?;
        let version = (metadata.modified().ok()?, metadata.len());
        let body = self
            .compressed
            .get_or_compress(path, &version, best, || fs::read(full))
            .ok()?;
        Some((bytes_response(body), best))
    }

    /// Maps a request target (path and query) to what to answer.
    fn resolve(&self, target: &str) -> Resolved {
        static_host::resolve(&self.public_url, target, |path| {
            self.dir.join(path).is_file()
        })
    }
}

/// A 200 answer with `body`, its length known.
fn bytes_response(body: Arc<[u8]>) -> ResponseBox {
    let length = body.len();
    Response::new(
        StatusCode(200),
        Vec::new(),
        Cursor::new(body),
        Some(length),
        None,
    )
    .boxed()
}

/// The value of the request's header `name`, if it has one.
fn request_header<'a>(request: &'a Request, name: &'static str) -> Option<&'a str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str())
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes())
        .expect("header names and values here are ASCII without line breaks")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpStream;

    use static_host::encoding::Effort;

    /// Text that compresses well, as the site's files do.
    const SCRIPT: &str = "export function card(entry) { return entry.name; }\n";

    /// A throwaway site: `index.html`, `404.html`, `app.wasm`, `agents/x/index.html`, a script,
    /// an image, and `pre.js` with a brotli copy beside it that says where it came from.
    fn fixture(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-serve-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("agents/x")).unwrap();
        fs::write(dir.join("index.html"), "<title>home</title>").unwrap();
        fs::write(dir.join("404.html"), "<title>fallback</title>".repeat(50)).unwrap();
        fs::write(dir.join("app.wasm"), b"\0asm").unwrap();
        fs::write(dir.join("agents/x/index.html"), "agent x").unwrap();
        // Above tiny_http's chunking threshold (32 KB), so a Content-Length has to be asked for.
        fs::write(dir.join("app.js"), SCRIPT.repeat(1_000)).unwrap();
        fs::write(dir.join("icon.png"), b"\x89PNG\r\n\x1a\n not compressible").unwrap();
        fs::write(dir.join("pre.js"), SCRIPT).unwrap();
        let precompressed = Encoding::Brotli.compress(b"from pre.js.br", Effort::Best);
        fs::write(dir.join("pre.js.br"), precompressed).unwrap();
        dir
    }

    /// One answer as it came over the wire: status, headers (names in lower case), body bytes.
    #[derive(Debug)]
    struct Answer {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    }

    impl Answer {
        fn header(&self, name: &str) -> Option<&str> {
            self.headers
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        }

        /// The body decoded as its `Content-Encoding` says.
        fn decoded(&self) -> Vec<u8> {
            let mut out = Vec::new();
            match self.header("content-encoding") {
                None => out.clone_from(&self.body),
                Some("br") => {
                    brotli::Decompressor::new(&self.body[..], 4096)
                        .read_to_end(&mut out)
                        .unwrap();
                }
                Some("gzip") => {
                    flate2::read::GzDecoder::new(&self.body[..])
                        .read_to_end(&mut out)
                        .unwrap();
                }
                Some(other) => panic!("unexpected Content-Encoding {other}"),
            }
            out
        }
    }

    /// A GET over HTTP/1.1 with the given headers, read raw: an HTTP client would decode gzip
    /// and drop the headers that show it, and these tests are about exactly those bytes.
    fn get(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> Answer {
        let mut stream = TcpStream::connect(addr).unwrap();
        let mut request =
            format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n");
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        stream.write_all(request.as_bytes()).unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).unwrap();
        let split = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a head");
        let head = String::from_utf8(raw[..split].to_vec()).unwrap();
        let mut lines = head.lines();
        let status = lines
            .next()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        let headers = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let answer = Answer {
            status,
            headers,
            body: raw[split + 4..].to_vec(),
        };
        assert_eq!(answer.header("transfer-encoding"), None, "{path}: chunked");
        assert_eq!(
            answer.header("content-length"),
            Some(answer.body.len().to_string().as_str()),
            "{path}: Content-Length"
        );
        answer
    }

    #[test]
    fn serves_files_and_the_fallback_over_http() {
        let dir = fixture("http");
        let server = spawn(&dir, "/", 0).unwrap();
        assert!(server.url().starts_with("http://127.0.0.1:"));

        let home = get(server.addr, "/", &[]);
        assert_eq!(home.status, 200);
        assert_eq!(
            home.header("content-type"),
            Some("text/html; charset=utf-8")
        );
        assert_eq!(home.body, b"<title>home</title>");

        let wasm = get(server.addr, "/app.wasm", &[]);
        assert_eq!(wasm.header("content-type"), Some("application/wasm"));

        let deep = get(server.addr, "/agents/gemini", &[]);
        assert_eq!(deep.status, 404);
        assert_eq!(deep.body, "<title>fallback</title>".repeat(50).as_bytes());
        drop(server);
    }

    #[test]
    fn answers_on_a_link_wait_its_latency_and_share_its_bandwidth() {
        let dir = fixture("link");
        // 50 KB of incompressible bytes: 0.5 s alone at 800 kbit/s (100 KB/s).
        let noise: Vec<u8> = (0..50_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        fs::write(dir.join("noise.png"), &noise).unwrap();
        let server = spawn_on_link(&dir, "/", Link::new(800, Duration::from_millis(100))).unwrap();

        let started = Instant::now();
        let small = get(server.addr, "/", &[]);
        let small_took = started.elapsed();
        assert_eq!(small.body, b"<title>home</title>");
        assert!(
            (Duration::from_millis(100)..Duration::from_millis(400)).contains(&small_took),
            "{small_took:?}"
        );

        // Two at once take about as long as both one after the other: they share the link.
        let started = Instant::now();
        let addr = server.addr;
        let other = std::thread::spawn(move || get(addr, "/noise.png", &[]));
        let first = get(server.addr, "/noise.png", &[]);
        let second = other.join().unwrap();
        let both_took = started.elapsed();
        assert_eq!((first.body, second.body), (noise.clone(), noise));
        assert!(
            (Duration::from_millis(1_000)..Duration::from_millis(2_000)).contains(&both_took),
            "{both_took:?}"
        );
    }

    #[test]
    fn text_is_answered_in_the_encoding_the_request_accepts() {
        let dir = fixture("encodings");
        let server = spawn(&dir, "/", 0).unwrap();
        let script = SCRIPT.repeat(1_000).into_bytes();
        // (Accept-Encoding, Range, the Content-Encoding expected)
        let cases = [
            (Some("br"), None, Some("br")),
            (Some("gzip, deflate, br, zstd"), None, Some("br")),
            (Some("gzip"), None, Some("gzip")),
            (Some("gzip;q=1, br;q=0.5"), None, Some("gzip")),
            (Some("deflate"), None, None),
            (Some("identity"), None, None),
            (None, None, None),
            (Some("br, gzip"), Some("bytes=0-9"), None),
        ];
        for (accept, range, expected) in cases {
            let mut headers = Vec::new();
            headers.extend(accept.map(|value| ("Accept-Encoding", value)));
            headers.extend(range.map(|value| ("Range", value)));
            // Twice: compressed on the fly, then from the cache.
            for round in ["first", "cached"] {
                let answer = get(server.addr, "/app.js", &headers);
                let case = format!("{accept:?} {range:?} ({round})");
                assert_eq!(answer.status, 200, "{case}");
                assert_eq!(answer.header("content-encoding"), expected, "{case}");
                assert_eq!(answer.header("vary"), Some("Accept-Encoding"), "{case}");
                assert_eq!(
                    answer.header("content-type"),
                    Some("text/javascript"),
                    "{case}"
                );
                assert_eq!(answer.decoded(), script, "{case}");
                if expected.is_some() {
                    assert!(answer.body.len() < script.len() / 10, "{case}");
                }
            }
        }
    }

    #[test]
    fn a_fresh_copy_compressed_beside_the_file_is_preferred() {
        let dir = fixture("precompressed");
        let server = spawn(&dir, "/", 0).unwrap();
        // (Accept-Encoding, the encoding answered, what it decodes to)
        let cases: [(&str, &str, &[u8]); 4] = [
            ("br, gzip", "br", b"from pre.js.br"),
            ("gzip;q=1, br;q=0.9", "br", b"from pre.js.br"),
            ("br", "br", b"from pre.js.br"),
            // No .gz beside it: compressed from the file itself.
            ("gzip", "gzip", SCRIPT.as_bytes()),
        ];
        for (accept, encoding, text) in cases {
            let answer = get(server.addr, "/pre.js", &[("Accept-Encoding", accept)]);
            assert_eq!(
                answer.header("content-encoding"),
                Some(encoding),
                "{accept}"
            );
            assert_eq!(answer.header("vary"), Some("Accept-Encoding"), "{accept}");
            assert_eq!(answer.decoded(), text, "{accept}");
        }
        let plain = get(server.addr, "/pre.js", &[]);
        assert_eq!(plain.body, SCRIPT.as_bytes());
        // Asked for by name, a copy is a file like any other (as on nginx).
        let copy = get(server.addr, "/pre.js.br", &[("Accept-Encoding", "br")]);
        assert_eq!(
            (copy.header("content-encoding"), copy.header("vary")),
            (None, None)
        );
    }

    #[test]
    fn the_fallback_is_compressed_and_images_never_are() {
        let dir = fixture("fallback");
        let server = spawn(&dir, "/", 0).unwrap();
        let deep = get(server.addr, "/agents/gemini", &[("Accept-Encoding", "br")]);
        assert_eq!(deep.status, 404);
        assert_eq!(deep.header("content-encoding"), Some("br"));
        assert_eq!(deep.header("vary"), Some("Accept-Encoding"));
        assert_eq!(
            deep.header("content-type"),
            Some("text/html; charset=utf-8")
        );
        assert_eq!(
            deep.decoded(),
            "<title>fallback</title>".repeat(50).as_bytes()
        );

        let image = get(server.addr, "/icon.png", &[("Accept-Encoding", "br, gzip")]);
        assert_eq!(image.status, 200);
        assert_eq!(
            (image.header("content-encoding"), image.header("vary")),
            (None, None)
        );
        assert_eq!(image.body, b"\x89PNG\r\n\x1a\n not compressible");
    }
}
