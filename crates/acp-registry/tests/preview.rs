//! `acp-registry preview` as maintainers run it: the binary, on an ephemeral port of
//! 127.0.0.1, serving a small stand-in site (`--site-dir`) over a registry folder in a temporary
//! directory, rebuilding when a manifest changes and keeping the last good build on errors.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

const ICON: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><path fill="currentColor" d="M0 0h16v16H0z"/></svg>"#;

/// How long to wait for the server to start or a rebuild to show (polls are every 500 ms).
const PATIENCE: Duration = Duration::from_secs(30);

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(path)
}

fn manifest(id: &str, description: &str) -> String {
    format!(
        r#"{{"id": "{id}", "name": "Agent {id}", "version": "1.0.0", "description": "{description}", "distribution": {{"npx": {{"package": "{id}@1.0.0"}}}}}}"#
    )
}

/// A registry folder with one agent, `alpha`.
fn registry() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::copy(
        fixture("real-registry-2026/source/agent.schema.json"),
        dir.path().join("agent.schema.json"),
    )
    .expect("schema copied");
    fs::create_dir(dir.path().join("alpha")).expect("folder");
    fs::write(
        dir.path().join("alpha/agent.json"),
        manifest("alpha", "first"),
    )
    .expect("manifest");
    fs::write(dir.path().join("alpha/icon.svg"), ICON).expect("icon");
    dir
}

/// A stand-in for the built site, with a bundled registry and icon the preview must hide.
fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, text) in [
        ("index.html", "<title>app</title>"),
        ("404.html", "<title>app 404</title>"),
        ("app_bg.wasm", "\0asm"),
        ("favicon.svg", "<svg/>"),
        ("registry.json", r#"{"bundled": true}"#),
        ("registry-for-jetbrains.json", r#"{"bundled": true}"#),
        ("quarantine.json", r#"{"bundled": "yes"}"#),
        ("bundled.svg", "<svg/>"),
        ("preview/index.html", "<title>listing preview</title>"),
    ] {
        let file = dir.path().join(path);
        fs::create_dir_all(file.parent().expect("a parent")).expect("site folder");
        fs::write(file, text).expect("site file");
    }
    dir
}

/// The running binary; killed when dropped.
struct Running {
    child: Child,
    lines: Receiver<String>,
    /// Lines read while looking for another, oldest first (the first build prints before the
    /// URL does).
    backlog: Vec<String>,
    port: u16,
}

impl Running {
    fn start(registry: &Path, site: &Path) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_acp-registry"))
            .arg("preview")
            .arg(registry)
            .args(["--port", "0", "--site-dir"])
            .arg(site)
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary runs");
        let stdout = child.stdout.take().expect("piped");
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut running = Self {
            child,
            lines,
            backlog: Vec::new(),
            port: 0,
        };
        let line = running.read_until("Previewing ");
        let url = line.split(" at ").nth(1).expect("a URL").split(' ').next();
        let port = url
            .and_then(|url| url.strip_prefix("http://127.0.0.1:"))
            .and_then(|rest| rest.trim_end_matches('/').parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        running.port = port;
        running
    }

    /// The first output line not yet waited for that contains `text` (waiting for more
    /// output if needed); the lines before it are passed over.
    fn wait_for(&mut self, text: &str) -> String {
        if let Some(at) = self.backlog.iter().position(|line| line.contains(text)) {
            return self
                .backlog
                .drain(..=at)
                .next_back()
                .expect("at least one line");
        }
        let line = self.read_until(text);
        self.backlog.clear();
        line
    }

    /// Reads output until a line contains `text`, keeping the lines before it in the backlog.
    fn read_until(&mut self, text: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) if line.contains(text) => return line,
                Ok(line) => self.backlog.push(line),
                Err(_) => break,
            }
        }
        panic!("no line with {text:?} in:\n{}", self.backlog.join("\n"));
    }

    /// Status code, head (in lower case) and body of a GET.
    fn get(&self, path: &str) -> (u16, String, String) {
        let (status, head, body) = self.get_with(path, "");
        (status, head, String::from_utf8(body).expect("a text body"))
    }

    /// Status code, head (in lower case) and raw body of a GET with `headers` (each line ending
    /// in `\r\n`).
    fn get_with(&self, path: &str, headers: &str) -> (u16, String, Vec<u8>) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connects");
        write!(
            stream,
            "GET {path} HTTP/1.0\r\nHost: localhost\r\n{headers}\r\n"
        )
        .expect("request");
        let mut response = Vec::new();
        stream.read_to_end(&mut response).expect("response");
        let split = response
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("head and body");
        let head = String::from_utf8(response[..split].to_vec()).expect("an ASCII head");
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .expect("a status");
        (
            status,
            head.to_ascii_lowercase(),
            response[split + 4..].to_vec(),
        )
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Writes a file so that its size or modification time differs from before.
fn rewrite(path: &Path, text: &str) {
    std::thread::sleep(Duration::from_millis(20));
    fs::write(path, text).expect("file rewritten");
}

#[test]
fn serves_the_folder_s_build_over_the_site() {
    let registry = registry();
    let site = site();
    let mut running = Running::start(registry.path(), site.path());
    running.wait_for("Serving the new build: 1 agents, 0 extensions.");

    let (status, head, body) = running.get("/registry.json");
    assert_eq!(status, 200, "{body}");
    assert!(head.contains("content-type: application/json"), "{head}");
    // Dated by when it was built, which the site shows as the registry's day.
    let modified = head
        .lines()
        .find_map(|line| line.strip_prefix("last-modified: "))
        .expect("a Last-Modified");
    // (The head is read in lower case: compare the day, today or two minutes ago.)
    let day =
        |at: std::time::SystemTime| httpdate::fmt_http_date(at).to_lowercase()[..16].to_owned();
    let now = std::time::SystemTime::now();
    assert!(
        [day(now), day(now - Duration::from_secs(120))].contains(&modified.trim()[..16].to_owned()),
        "{modified}"
    );
    let json: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    let alpha = &json["agents"][0];
    assert_eq!(alpha["id"], "alpha");
    let icon_url = format!("http://127.0.0.1:{}/alpha.svg", running.port);
    assert_eq!(alpha["icon"], icon_url.as_str());

    // The JetBrains views are the folder's too, never the site's bundled ones; the folder has
    // no quarantine list, so the bundled one is not served either.
    for view in [
        "/registry-for-jetbrains.json",
        "/registry-for-jetbrains-preview.json",
    ] {
        let (status, _, body) = running.get(view);
        assert_eq!(status, 200, "{view}");
        let json: serde_json::Value = serde_json::from_str(&body).expect("JSON");
        assert_eq!(json["agents"][0]["id"], "alpha", "{view}");
    }
    assert_ne!(running.get("/quarantine.json").2, r#"{"bundled": "yes"}"#);

    // Served as `build` writes it: sanitised (here, the same markup and a final newline).
    let (status, head, body) = running.get("/alpha.svg");
    assert_eq!((status, body.as_str()), (200, format!("{ICON}\n").as_str()));
    assert!(head.contains("content-type: image/svg+xml"), "{head}");

    let (status, head, body) = running.get("/");
    assert_eq!((status, body.as_str()), (200, "<title>app</title>"));
    assert!(head.contains("text/html"), "{head}");
    assert!(
        !head.contains("last-modified"),
        "the site's own files are not the build's: {head}"
    );
    let (status, head, _) = running.get("/app_bg.wasm");
    assert_eq!(status, 200);
    assert!(head.contains("content-type: application/wasm"), "{head}");
    assert_eq!(running.get("/favicon.svg").0, 200);

    // The listing preview is a folder of the site, answered like a static host does.
    let (status, head, body) = running.get("/preview/");
    assert_eq!(
        (status, body.as_str()),
        (200, "<title>listing preview</title>")
    );
    assert!(head.contains("text/html"), "{head}");
    let (status, head, _) = running.get("/preview?x=1");
    assert_eq!(status, 301);
    assert!(head.contains("location: /preview/?x=1"), "{head}");

    let (status, head, body) = running.get("/agents/alpha?x=1");
    assert_eq!((status, body.as_str()), (404, "<title>app 404</title>"));
    assert!(head.contains("text/html"), "{head}");
    // The site's bundled registry icons are not the folder's.
    let (status, head, _) = running.get("/bundled.svg");
    assert_eq!(status, 404);
    assert!(head.contains("text/html"), "{head}");
}

/// `body` decoded as `head`'s `Content-Encoding` says.
fn decoded(head: &str, body: &[u8]) -> String {
    let mut text = String::new();
    if head.contains("content-encoding: br") {
        brotli::Decompressor::new(body, 4096)
            .read_to_string(&mut text)
            .expect("brotli");
    } else if head.contains("content-encoding: gzip") {
        flate2::read::GzDecoder::new(body)
            .read_to_string(&mut text)
            .expect("gzip");
    } else {
        text = String::from_utf8(body.to_vec()).expect("text");
    }
    text
}

#[test]
fn answers_text_compressed_as_a_host_does() {
    let registry = registry();
    let site = site();
    // Copies like those `dist` writes beside each text file, here of the bundled registry,
    // which the preview must hide too.
    let mut bundled = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    bundled.write_all(br#"{"bundled": true}"#).expect("gzip");
    let bundled = bundled.finish().expect("gzip");
    fs::write(site.path().join("registry.json.gz"), &bundled).expect("copy");
    fs::write(site.path().join("index.html.gz"), &bundled).expect("copy");
    let mut running = Running::start(registry.path(), site.path());
    running.wait_for("Serving the new build: 1 agents, 0 extensions.");

    // (path, Accept-Encoding, status, Content-Encoding, what it decodes to)
    let cases = [
        ("/", "br", 200, Some("br"), "<title>app</title>"),
        ("/", "gzip", 200, Some("gzip"), "<title>app</title>"),
        ("/", "gzip;q=0.5, br", 200, Some("br"), "<title>app</title>"),
        ("/", "identity", 200, None, "<title>app</title>"),
        (
            "/agents/alpha",
            "br",
            404,
            Some("br"),
            "<title>app 404</title>",
        ),
        ("/registry.json", "gzip", 200, Some("gzip"), "\"alpha\""),
    ];
    for (path, accept, status, encoding, text) in cases {
        let (got, head, body) = running.get_with(path, &format!("Accept-Encoding: {accept}\r\n"));
        assert_eq!(got, status, "{path} {accept}: {head}");
        let content_encoding = head
            .lines()
            .find_map(|line| line.strip_prefix("content-encoding: "));
        assert_eq!(content_encoding, encoding, "{path} {accept}: {head}");
        assert!(
            head.contains("vary: accept-encoding"),
            "{path} {accept}: {head}"
        );
        assert!(
            head.contains(&format!("content-length: {}", body.len())),
            "{path} {accept}: {head}"
        );
        assert!(decoded(&head, &body).contains(text), "{path} {accept}");
    }
    // SVG is text; the copies `dist` compressed beside the site's files are not served, even
    // asked for by name (`/` above was compressed afresh, not read from `index.html.gz`).
    let (status, head, _) = running.get_with("/favicon.svg", "Accept-Encoding: br\r\n");
    assert_eq!(status, 200);
    assert!(head.contains("content-encoding: br"), "{head}");
    let (status, head, _) = running.get_with("/registry.json.gz", "");
    assert_eq!(status, 404, "{head}");
}

#[test]
fn rebuilds_on_change_and_keeps_the_last_good_build_on_errors() {
    let registry = registry();
    let site = site();
    let mut running = Running::start(registry.path(), site.path());
    running.wait_for("Serving the new build");
    let manifest_path = registry.path().join("alpha/agent.json");

    rewrite(&manifest_path, &manifest("alpha", "second, longer"));
    running.wait_for("Serving the new build");
    let (_, _, body) = running.get("/registry.json");
    assert!(body.contains("second, longer"), "{body}");

    rewrite(&manifest_path, r#"{"id": "alpha", "#);
    let line = running.wait_for("Not served");
    assert!(line.contains("still serving the last good build"), "{line}");
    let (status, _, body) = running.get("/registry.json");
    assert_eq!(status, 200);
    assert!(body.contains("second, longer"), "{body}");

    rewrite(&manifest_path, &manifest("alpha", "third"));
    running.wait_for("Serving the new build");
    assert!(running.get("/registry.json").2.contains("third"));
}

#[test]
fn a_folder_with_errors_from_the_start_serves_no_registry() {
    let registry = registry();
    fs::write(registry.path().join("alpha/agent.json"), "{").expect("broken");
    let site = site();
    let mut running = Running::start(registry.path(), site.path());
    running.wait_for("there is no good build yet");
    let (status, _, body) = running.get("/registry.json");
    assert_eq!(status, 404);
    assert!(body.contains("no good build yet"), "{body}");
    assert_eq!(running.get("/").0, 200);
}

#[test]
fn without_an_embedded_site_preview_says_how_to_get_one() {
    if option_env!("ACP_REGISTRY_SITE_DIR").is_some_and(|dir| !dir.is_empty()) {
        return;
    }
    let registry = registry();
    let output = Command::new(env!("CARGO_BIN_EXE_acp-registry"))
        .arg("preview")
        .arg(registry.path())
        .args(["--port", "0"])
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("built without the catalogue site") && stderr.contains("cargo xtask cli"),
        "{stderr}"
    );
}
