//! `acp-registry preview`: the catalogue site, served on 127.0.0.1 over a live build of a
//! registry folder, so maintainers see their listing as it will be published.
//!
//! - The folder is built exactly as `build` does ([`registry_validate::build`]) with the base
//!   URL set to the server's own, so icons load from it; the output stays in memory.
//! - A watcher polls the folder's file sizes and modification times every [`POLL`] and
//!   rebuilds on a change, printing the diagnostics. A build with errors is not served: the
//!   last good one stays, and the terminal says so.
//! - Requests are answered from the build (`registry.json`, `<id>.svg`, schemas) first, then
//!   from the [`Site`]; any other path gets the site's `404.html` with status 404, which the
//!   app routes (`/agents/<id>`), as on the published host.
//! - Text is answered in brotli or gzip when the request accepts it, as a host would
//!   ([`static_host::encoding`]): compressed on the fly, once per file of the site and per build.
//!
//! The server is `local-server`'s, and paths are resolved by `static_host::resolve`, as a static
//! host resolves them. `POLL` is 500 ms.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::io::{Cursor, Write};
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

use anyhow::anyhow;
use local_server::Workers;
use local_server::tiny_http::{Header, Request, Response, ResponseBox, StatusCode};
use registry_validate::views::{JETBRAINS_FILE, JETBRAINS_PREVIEW_FILE};
use registry_validate::{build, is_skipped_folder};
use static_host::encoding;
use static_host::{Resolved, content_type};

use crate::site::Site;

/// The registry's list of agents its daily automation skips, served as the folder has it.
const QUARANTINE_FILE: &str = "quarantine.json";
use crate::{read, render};

/// How often the folder is checked for changes.
pub const POLL: Duration = Duration::from_millis(500);
/// How many requests are answered at once (a browser opens a few connections in parallel).
const WORKERS: usize = 4;

/// A running preview; dropping it stops the server and the watcher.
#[derive(Debug)]
pub struct Preview {
    /// The address the server is bound to (the real port when asked for port 0).
    pub addr: SocketAddr,
    workers: Option<Workers>,
    stop: Arc<AtomicBool>,
    watcher: Option<JoinHandle<()>>,
}

impl Preview {
    /// The site's URL, e.g. `http://127.0.0.1:8080/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Blocks until the server stops (in practice: until Ctrl-C).
    pub fn wait(mut self) {
        if let Some(workers) = self.workers.take() {
            workers.wait();
        }
    }
}

impl Drop for Preview {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        drop(self.workers.take());
        if let Some(watcher) = self.watcher.take() {
            let _ = watcher.join();
        }
    }
}

/// Binds 127.0.0.1:`port` (0 picks a free port), builds `registry_dir` once, then serves `site`
/// over the build and rebuilds on changes, on background threads.
pub fn spawn(site: Site, registry_dir: &Path, port: u16) -> anyhow::Result<Preview> {
    let state = Arc::new(State {
        site,
        build: RwLock::new(None),
        compressed: encoding::Cache::default(),
    });
    let serving = Arc::clone(&state);
    let workers = Workers::spawn(
        SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
        WORKERS,
        local_server::read_only(move |request| serving.respond(request)),
    )
    .map_err(|err| anyhow!("cannot listen on 127.0.0.1:{port}: {err} (try another --port)"))?;
    let addr = workers.addr();
    let mut watcher = Watcher {
        dir: registry_dir.to_path_buf(),
        base_url: format!("http://{addr}"),
        seen: fingerprint(registry_dir),
        state,
    };
    watcher.rebuild();
    let stop = Arc::new(AtomicBool::new(false));
    let watching = Arc::clone(&stop);
    let watcher = std::thread::spawn(move || {
        while !watching.load(Ordering::Relaxed) {
            std::thread::sleep(POLL);
            watcher.poll();
        }
    });
    Ok(Preview {
        addr,
        workers: Some(workers),
        stop,
        watcher: Some(watcher),
    })
}

/// The site and the last good build, shared by the request threads and the watcher.
#[derive(Debug)]
struct State {
    site: Site,
    /// The last build without errors; `None` until there is one.
    build: RwLock<Option<Build>>,
    /// What was compressed on the fly, by the number of the build it came from (`None`: the
    /// site, which never changes).
    compressed: encoding::Cache<Option<u64>>,
}

/// The files of one good build, by path, and its number (counted from 1).
#[derive(Debug)]
struct Build {
    number: u64,
    files: BTreeMap<String, Vec<u8>>,
    /// When it was made, as an HTTP date: its files' `Last-Modified`, which the site shows as
    /// the registry's day.
    made: String,
}

impl State {
    fn respond(&self, request: Request) -> std::io::Result<()> {
        let build = self
            .build
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // The registry folder's build first, then the site; with the version of each.
        let file = |path: &str| -> Option<(&[u8], Option<u64>)> {
            build
                .as_ref()
                .and_then(|build| Some((build.files.get(path)?.as_slice(), Some(build.number))))
                .or_else(|| Some((self.site.asset(path)?, None)))
        };
        let response = match static_host::resolve("/", request.url(), |path| file(path).is_some()) {
            Resolved::File(path) => match file(&path) {
                Some((bytes, Some(version))) => {
                    let made = build.as_ref().map(|b| b.made.as_str()).unwrap_or_default();
                    self.encoded(&request, &path, bytes, Some(version), StatusCode(200))
                        .with_header(header("Last-Modified", made))
                }
                Some((bytes, None)) => self.encoded(&request, &path, bytes, None, StatusCode(200)),
                None => self.missing(&request, &path),
            },
            Resolved::Redirect(location) => {
                Response::from_string(format!("301 Moved Permanently: {location}\n"))
                    .with_status_code(301)
                    .with_header(header("Location", &location))
                    .boxed()
            }
            Resolved::Missing | Resolved::Outside => {
                let target = request.url();
                let path = target[..target.find(['?', '#']).unwrap_or(target.len())]
                    .trim_start_matches('/');
                self.missing(&request, path)
            }
        };
        drop(build);
        request.respond(response.with_header(header("Cache-Control", "no-cache")))
    }

    /// `bytes`, the content of `path` at `version`, with `status`, its content type, and in the
    /// best encoding the request accepts.
    fn encoded(
        &self,
        request: &Request,
        path: &str,
        bytes: &[u8],
        version: Option<u64>,
        status: StatusCode,
    ) -> ResponseBox {
        let negotiated = encoding::negotiate(
            path,
            request_header(request, "Accept-Encoding"),
            request_header(request, "Range").is_some(),
        );
        let response = match negotiated.encodings.first() {
            Some(&best) => {
                let body = self
                    .compressed
                    .get_or_compress(path, &version, best, || Ok::<_, Infallible>(bytes.to_vec()))
                    .unwrap_or_else(|never| match never {});
                let length = body.len();
                Response::new(status, Vec::new(), Cursor::new(body), Some(length), None)
                    .boxed()
                    .with_header(header("Content-Encoding", best.token()))
            }
            None => Response::from_data(bytes.to_vec())
                .with_status_code(status)
                .boxed(),
        };
        let response = response
            // Always a Content-Length, never chunked, like a static host.
            .with_chunked_threshold(usize::MAX)
            .with_header(header("Content-Type", content_type(path)));
        if negotiated.vary {
            response.with_header(header("Vary", "Accept-Encoding"))
        } else {
            response
        }
    }
}

impl State {
    /// The 404 answer for `path`: why there is no `registry.json` yet, else the site's fallback
    /// page (the app routes deep links).
    fn missing(&self, request: &Request, path: &str) -> ResponseBox {
        if path == "registry.json" {
            return Response::from_string(
                "404 Not Found: the registry folder has no good build yet; \
                 fix the errors printed by acp-registry preview\n",
            )
            .with_status_code(404)
            .boxed();
        }
        match self.site.fallback() {
            Some(html) => self.encoded(request, "404.html", html, None, StatusCode(404)),
            None => Response::from_string("404 Not Found\n")
                .with_status_code(404)
                .boxed(),
        }
    }
}

/// Rebuilds the registry folder when its files change.
#[derive(Debug)]
struct Watcher {
    dir: PathBuf,
    base_url: String,
    seen: Vec<Stamp>,
    state: Arc<State>,
}

impl Watcher {
    fn poll(&mut self) {
        let now = fingerprint(&self.dir);
        if now != self.seen {
            self.seen = now;
            say("\nA file changed: rebuilding …\n");
            self.rebuild();
        }
    }

    /// Builds the folder, prints the diagnostics and what is served; keeps the last good
    /// build when this one has errors.
    fn rebuild(&mut self) {
        let files = match read::registry(&self.dir) {
            Ok(files) => files,
            Err(err) => {
                say(&format!("error: {err:#}\n{}\n", self.kept()));
                return;
            }
        };
        let (built, validation) = build(&files, &self.base_url);
        let mut report = render::human(&validation, &files);
        report.push_str(&render::summary(&validation));
        report.push('\n');
        let Some(built) = built else {
            report.push_str(&self.kept());
            report.push('\n');
            say(&report);
            return;
        };
        let mut output = BTreeMap::new();
        output.insert("registry.json".to_owned(), built.registry_json.into_bytes());
        for icon in built.icons {
            output.insert(icon.to, icon.contents.into_bytes());
        }
        output.insert(JETBRAINS_FILE.to_owned(), built.jetbrains_json.into_bytes());
        if let Some(preview) = built.jetbrains_preview_json {
            output.insert(JETBRAINS_PREVIEW_FILE.to_owned(), preview.into_bytes());
        }
        if let Some(quarantine) = files.get(QUARANTINE_FILE) {
            output.insert(QUARANTINE_FILE.to_owned(), quarantine.to_vec());
        }
        for copy in &built.copies {
            let bytes = files.get(&copy.from).unwrap_or_default().to_vec();
            output.insert(copy.to.clone(), bytes);
        }
        let mut build = self
            .state
            .build
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let number = build.as_ref().map_or(1, |last| last.number + 1);
        *build = Some(Build {
            number,
            files: output,
            made: httpdate::fmt_http_date(std::time::SystemTime::now()),
        });
        drop(build);
        report.push_str(&format!(
            "Serving the new build: {} agents, {} extensions.\n",
            built.agents, built.extensions
        ));
        say(&report);
    }

    /// What is served after a failed build.
    fn kept(&self) -> String {
        let has_build = self
            .state
            .build
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .is_some();
        if has_build {
            "Not served: still serving the last good build; fix the errors above and save."
        } else {
            "Not served: there is no good build yet (registry.json answers 404); fix the errors \
             above and save."
        }
        .to_owned()
    }
}

/// A file's path, size and modification time: what the watcher compares.
type Stamp = (PathBuf, u64, Option<SystemTime>);

/// The stamps of the files the build reads: top-level files and one level down.
fn fingerprint(dir: &Path) -> Vec<Stamp> {
    let mut stamps = Vec::new();
    stamp_folder(dir, &mut stamps, true);
    stamps.sort();
    stamps
}

fn stamp_folder(dir: &Path, stamps: &mut Vec<Stamp>, top: bool) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(metadata) = std::fs::metadata(&path) else {
            continue;
        };
        if metadata.is_file() {
            stamps.push((path, metadata.len(), metadata.modified().ok()));
        } else if top
            && metadata.is_dir()
            && !entry.file_name().to_str().is_none_or(is_skipped_folder)
        {
            stamps.push((path.clone(), 0, None));
            stamp_folder(&path, stamps, false);
        }
    }
}

/// Prints to standard output at once; a reader that went away is not an error.
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
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
