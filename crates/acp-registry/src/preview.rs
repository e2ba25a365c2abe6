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

use std::collections::BTreeMap;
use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

use anyhow::anyhow;
use local_server::Workers;
use local_server::tiny_http::{Header, Method, Request, Response};
use registry_validate::{build, is_skipped_folder};
use static_host::{Resolved, content_type};

use crate::site::Site;
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
    });
    let serving = Arc::clone(&state);
    let workers = Workers::spawn(
        SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
        WORKERS,
        move |request| serving.respond(request),
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
    /// The files of the last build without errors, by path; `None` until there is one.
    build: RwLock<Option<BTreeMap<String, Vec<u8>>>>,
}

impl State {
    fn respond(&self, request: Request) -> std::io::Result<()> {
        if !matches!(request.method(), Method::Get | Method::Head) {
            let response = Response::from_string("405 Method Not Allowed\n")
                .with_status_code(405)
                .with_header(header("Allow", "GET, HEAD"));
            return request.respond(response);
        }
        let build = self
            .build
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // The registry folder's build first, then the site.
        let file = |path: &str| -> Option<Vec<u8>> {
            build
                .as_ref()
                .and_then(|files| files.get(path).cloned())
                .or_else(|| self.site.asset(path).map(<[u8]>::to_vec))
        };
        let response = match static_host::resolve("/", request.url(), |path| file(path).is_some()) {
            Resolved::File(path) => match file(&path) {
                Some(bytes) => Response::from_data(bytes)
                    .with_header(header("Content-Type", content_type(&path))),
                None => self.missing(&path),
            },
            Resolved::Redirect(location) => {
                Response::from_string(format!("301 Moved Permanently: {location}\n"))
                    .with_status_code(301)
                    .with_header(header("Location", &location))
            }
            Resolved::Missing | Resolved::Outside => {
                let target = request.url();
                let path = target[..target.find(['?', '#']).unwrap_or(target.len())]
                    .trim_start_matches('/');
                self.missing(path)
            }
        };
        drop(build);
        request.respond(response.with_header(header("Cache-Control", "no-cache")))
    }
}

impl State {
    /// The 404 answer for `path`: why there is no `registry.json` yet, else the site's fallback
    /// page (the app routes deep links).
    fn missing(&self, path: &str) -> Response<std::io::Cursor<Vec<u8>>> {
        if path == "registry.json" {
            return Response::from_string(
                "404 Not Found: the registry folder has no good build yet; \
                 fix the errors printed by acp-registry preview\n",
            )
            .with_status_code(404);
        }
        match self.site.fallback() {
            Some(html) => Response::from_data(html.to_vec())
                .with_status_code(404)
                .with_header(header("Content-Type", "text/html; charset=utf-8")),
            None => Response::from_string("404 Not Found\n").with_status_code(404),
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
        for copy in &built.copies {
            let bytes = files.get(&copy.from).unwrap_or_default().to_vec();
            output.insert(copy.to.clone(), bytes);
        }
        *self
            .state
            .build
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(output);
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

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes())
        .expect("header names and values here are ASCII without line breaks")
}
