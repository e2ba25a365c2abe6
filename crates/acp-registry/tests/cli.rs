//! The `acp-registry` binary as maintainers run it: exit codes, human and JSON output, `build`
//! writing the published files, and `--check-urls` against a local HTTP server (no test
//! touches the network beyond 127.0.0.1).

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

const ICON: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><path fill="currentColor" d="M0 0h16v16H0z"/></svg>"#;

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(path)
}

fn acp(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_acp-registry"));
    command
        .args(args)
        .env_remove("ACP_REGISTRY_NPM_URL")
        .env_remove("ACP_REGISTRY_PYPI_URL")
        .env_remove("ACP_REGISTRY_ALLOW_LOOPBACK")
        .env("NO_COLOR", "1");
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A registry folder in a temporary directory: the 2026 schema plus `files`.
fn registry(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::copy(
        fixture("real-registry-2026/source/agent.schema.json"),
        dir.path().join("agent.schema.json"),
    )
    .expect("schema copied");
    for (path, text) in files {
        let path = dir.path().join(path);
        fs::create_dir_all(path.parent().expect("in a folder")).expect("folder");
        fs::write(path, text).expect("file written");
    }
    dir
}

fn path(dir: &Path) -> &str {
    dir.to_str().expect("UTF-8 temp path")
}

#[test]
fn the_2026_02_snapshot_passes() {
    let output = acp(
        &["validate", path(&fixture("real-registry-2026-02/source"))],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(
        stdout(&output),
        "11 folders checked, no errors, 0 warnings\n"
    );
}

#[test]
fn the_2026_data_fails_with_excerpts_and_hints() {
    let output = acp(
        &["validate", path(&fixture("real-registry-2026/source"))],
        &[],
    );
    assert_eq!(output.status.code(), Some(1));
    let out = stdout(&output);
    assert!(
        out.ends_with("54 of 143 folders have errors, 35 warnings\n"),
        "{}",
        &out[out.len().saturating_sub(300)..]
    );
    let expected = [
        "error[version-mismatch]",
        "the darwin-aarch64 archive is version 1.18.31.1",
        "╭─[mammouth-code/agent.json:17:20]",
        "help: the CI compares only the first three parts",
        "error[icon-missing]",
        "aider-acp/icon.svg: missing icon.svg",
        "warning[missing-os-family]",
        "╭─[z4code/agent.json:10:5]",
    ];
    for text in expected {
        assert!(out.contains(text), "missing {text:?}");
    }
}

#[test]
fn ids_select_folders() {
    let source = fixture("real-registry-2026/source");
    let output = acp(&["validate", path(&source), "kiro", "auggie"], &[]);
    assert_eq!(output.status.code(), Some(1));
    let out = stdout(&output);
    assert!(out.contains("kiro/agent.json:14:20"), "{out}");
    assert!(
        out.ends_with("2 of 2 folders have errors, 0 warnings\n"),
        "{out}"
    );
    assert!(!out.contains("mammouth-code"));

    let output = acp(&["validate", path(&source), "gemini"], &[]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "gemini has no icon in this data"
    );
    let output = acp(&["validate", path(&source), "kimi"], &[]);
    assert_eq!(output.status.code(), Some(1));
    let output = acp(&["validate", path(&source), "acp-bridge"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(stdout(&output).ends_with("1 folder checked, no errors, 1 warning\n"));
}

#[test]
fn usage_and_io_errors_exit_2() {
    let output = acp(&["validate", "/nonexistent/registry"], &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("cannot read the registry folder /nonexistent/registry"));

    let output = acp(
        &[
            "validate",
            path(&fixture("real-registry-2026/source")),
            "no-such-agent",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("no entry folder `no-such-agent/`"));

    for args in [
        &["frobnicate"][..],
        &["validate"],
        &["validate", ".", "--format", "yaml"],
        &["build", "."],
    ] {
        let output = acp(args, &[]);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
    assert_eq!(acp(&["--help"], &[]).status.code(), Some(0));
    // The one deliberate difference from the CI's output is said where `build` is described.
    let help = acp(&["build", "--help"], &[]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("the icons written are sanitised"));
}

#[test]
fn json_lists_every_problem() {
    let dir = registry(&[
        (
            "a/agent.json",
            "{\n  \"id\": \"a\",\n  \"name\": \"A\",\n  \"version\": \"1.0\",\n  \"description\": \"d\",\n  \"distribution\": {\"npx\": {\"package\": \"a@latest\"}}\n}\n",
        ),
        ("a/icon.svg", ICON),
        (
            "b/agent.json",
            r#"{"id": "b", "name": "B", "version": "1.0.0", "description": "d", "distribution": {"npx": {"package": "b@1.0.0"}}}"#,
        ),
    ]);
    let output = acp(&["validate", path(dir.path()), "--format", "json"], &[]);
    assert_eq!(output.status.code(), Some(1));
    let diagnostics: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    let got: Vec<(String, String, String, Value)> = diagnostics
        .as_array()
        .expect("an array")
        .iter()
        .map(|d| {
            let place = match &d["span"] {
                Value::Null => Value::Null,
                span => serde_json::json!([span["line"], span["column"]]),
            };
            (
                d["severity"].as_str().expect("severity").to_owned(),
                d["rule"].as_str().expect("rule").to_owned(),
                d["file"].as_str().expect("file").to_owned(),
                place,
            )
        })
        .collect();
    let expected = [
        (
            "error",
            "version-format",
            "a/agent.json",
            serde_json::json!([4, 14]),
        ),
        (
            "error",
            "latest-package",
            "a/agent.json",
            serde_json::json!([6, 39]),
        ),
        ("error", "icon-missing", "b/icon.svg", Value::Null),
    ];
    let expected: Vec<(String, String, String, Value)> = expected
        .into_iter()
        .map(|(s, r, f, p)| (s.to_owned(), r.to_owned(), f.to_owned(), p))
        .collect();
    assert_eq!(got, expected);
    for diagnostic in diagnostics.as_array().expect("an array") {
        assert!(diagnostic["message"].is_string() && diagnostic["hint"].is_string());
    }
}

#[test]
fn build_writes_what_the_ci_publishes() {
    let out = tempfile::tempdir().expect("temp dir");
    let dist = out.path().join("dist");
    let source = fixture("real-registry-2026-02/source");
    let output = acp(
        &[
            "build",
            path(&source),
            "--out",
            path(&dist),
            "--rules",
            "2026-02",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(
        stdout(&output).contains(
            "(11 agents, 0 extensions), registry-for-jetbrains.json (9 agents, 0 bundled), \
             11 icons and 2 schemas."
        ),
        "{}",
        stdout(&output)
    );
    let published = fixture("real-registry-2026-02/dist");
    let mut written: Vec<String> = fs::read_dir(&dist)
        .expect("dist written")
        .map(|e| e.expect("entry").file_name().into_string().expect("UTF-8"))
        .collect();
    written.sort();
    assert_eq!(written.len(), 15);
    for name in &written {
        let written = fs::read_to_string(dist.join(name)).expect("written");
        let published = fs::read_to_string(published.join(name)).expect("published");
        if name.ends_with(".svg") {
            // Icons are written sanitised: what the CI publishes, re-written from its tree.
            assert_eq!(
                registry_validate::sanitise_icon(&published).as_ref(),
                Ok(&written),
                "{name}"
            );
        } else {
            assert_eq!(written, published, "{name}");
        }
    }

    let other = out.path().join("cdn");
    let output = acp(
        &[
            "build",
            path(&source),
            "--out",
            path(&other),
            "--base-url",
            "https://example.org/icons/",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(0));
    let registry: Value =
        serde_json::from_slice(&fs::read(other.join("registry.json")).expect("written"))
            .expect("JSON");
    assert_eq!(
        registry["agents"][0]["icon"],
        "https://example.org/icons/auggie.svg"
    );
    // Today's rules write the preview view beside the JetBrains one, icons under the same base.
    let jetbrains: Value = serde_json::from_slice(
        &fs::read(other.join("registry-for-jetbrains.json")).expect("written"),
    )
    .expect("JSON");
    assert_eq!(
        jetbrains["agents"][0]["icon"],
        "https://example.org/icons/auggie.svg"
    );
    let preview = fs::read(other.join("registry-for-jetbrains-preview.json")).expect("written");
    assert_eq!(
        preview,
        fs::read(other.join("registry-for-jetbrains.json")).expect("written"),
        "no agent of the snapshot has a preview block"
    );
    let output = acp(
        &[
            "build",
            path(&source),
            "--out",
            path(&other),
            "--rules",
            "2025",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("`2025` is not a rule set: write `current` or `2026-02`"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn build_writes_nothing_when_there_are_errors() {
    let out = tempfile::tempdir().expect("temp dir");
    let dist = out.path().join("dist");
    let output = acp(
        &[
            "build",
            path(&fixture("real-registry-2026/source")),
            "--out",
            path(&dist),
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).ends_with("Nothing was written: fix the errors above first.\n"));
    assert!(!dist.exists());
}

/// A local HTTP server answering by path: 200 for `ok` paths, 404 otherwise; 405 to HEAD on
/// `get-only` paths; 503 to the first request of a `flaky` path; a 302 from `/redirect/<rest>`
/// to `/<rest>`, and from `/to/<scheme>/<host>/<rest>` to `<scheme>://<host>/<rest>`. Records
/// `METHOD path` lines; stops by itself after 60 s.
fn serve() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("local port");
    let base = format!("http://{}", listener.local_addr().expect("address"));
    listener.set_nonblocking(true).expect("non-blocking");
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            let Ok((stream, _)) = listener.accept() else {
                std::thread::sleep(Duration::from_millis(5));
                continue;
            };
            let _ = stream.set_nonblocking(false);
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let mut reader = BufReader::new(&stream);
            let mut request = String::new();
            if reader.read_line(&mut request).is_err() {
                continue;
            }
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let mut words = request.split_whitespace();
            let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
            let first_time = {
                let mut log = log.lock().expect("log");
                let first_time = !log.iter().any(|seen: &String| seen.ends_with(target));
                log.push(format!("{method} {target}"));
                first_time
            };
            let location = if let Some(rest) = target.strip_prefix("/redirect/") {
                Some(format!("/{rest}"))
            } else if let Some(rest) = target.strip_prefix("/to/") {
                let (scheme, rest) = rest.split_once('/').unwrap_or_default();
                Some(format!("{scheme}://{rest}"))
            } else {
                None
            };
            let status = if location.is_some() {
                "302 Found"
            } else if target.contains("get-only") && method == "HEAD" {
                "405 Method Not Allowed"
            } else if target.contains("flaky") && first_time {
                "503 Service Unavailable"
            } else if target.contains("ok") {
                "200 OK"
            } else {
                "404 Not Found"
            };
            let location = location
                .map(|to| format!("Location: {to}\r\n"))
                .unwrap_or_default();
            let _ = write!(
                &stream,
                "HTTP/1.1 {status}\r\n{location}Content-Length: 0\r\nConnection: close\r\n\r\n"
            );
        }
    });
    (base, seen)
}

/// Each diagnostic of a JSON output: rule, message, line.
fn url_diagnostics(output: &Output) -> Vec<(String, String, u64)> {
    let diagnostics: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    diagnostics
        .as_array()
        .expect("an array")
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().expect("rule").to_owned(),
                d["message"].as_str().expect("message").to_owned(),
                d["span"]["line"].as_u64().expect("a line"),
            )
        })
        .collect()
}

/// An agent `a` with these binary targets (`"<platform>": "<archive>"`) and package specs.
fn url_registry(archives: &[(&str, &str)], npx: &str, uvx: &str) -> tempfile::TempDir {
    let binary: Vec<String> = archives
        .iter()
        .map(|(platform, archive)| {
            format!("    \"{platform}\": {{\"archive\": \"{archive}\", \"cmd\": \"./a\"}}")
        })
        .collect();
    let manifest = format!(
        "{{\"id\": \"a\", \"name\": \"A\", \"version\": \"1.0.0\", \"description\": \"d\", \
         \"distribution\": {{\n  \"binary\": {{\n{}\n  }},\n  \"npx\": {{\"package\": \"{npx}\"}},\n  \
         \"uvx\": {{\"package\": \"{uvx}\"}}\n}}}}",
        binary.join(",\n")
    );
    registry(&[("a/agent.json", &manifest), ("a/icon.svg", ICON)])
}

#[test]
fn check_urls_asks_a_local_server() {
    let (base, seen) = serve();
    let dir = url_registry(
        &[
            ("darwin-aarch64", &format!("{base}/ok/a-darwin.tar.gz")),
            ("linux-x86_64", &format!("{base}/missing/a-linux.tar.gz")),
            ("windows-x86_64", &format!("{base}/ok/get-only/a.zip")),
        ],
        "@s/ok@1.0.0",
        "gone==1.0.0",
    );
    let npm = format!("{base}/npm");
    let pypi = format!("{base}/pypi");
    let env = [
        ("ACP_REGISTRY_NPM_URL", npm.as_str()),
        ("ACP_REGISTRY_PYPI_URL", pypi.as_str()),
        ("ACP_REGISTRY_ALLOW_LOOPBACK", "1"),
    ];

    let output = acp(&["validate", path(dir.path()), "--format", "json"], &env);
    assert_eq!(
        output.status.code(),
        Some(0),
        "URLs are not checked by default"
    );
    assert!(seen.lock().expect("log").is_empty());

    let output = acp(
        &[
            "validate",
            path(dir.path()),
            "--format",
            "json",
            "--check-urls",
        ],
        &env,
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let got = url_diagnostics(&output);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0].0, "url-unreachable");
    assert_eq!(
        got[0].1,
        format!(
            "the linux-x86_64 archive {base}/missing/a-linux.tar.gz does not answer 200 (HTTP 404)"
        )
    );
    assert_eq!(got[0].2, 4);
    assert_eq!(
        got[1].1,
        format!("the PyPI package \"gone\" was not found (HTTP 404 from {base}/pypi/gone/json)")
    );
    assert_eq!(got[1].2, 8);

    // Packages are looked up by name, as the CI does; only 403 and 405 lead to a GET.
    let mut requests = seen.lock().expect("log").clone();
    requests.sort();
    assert_eq!(
        requests,
        [
            "GET /ok/get-only/a.zip",
            "HEAD /missing/a-linux.tar.gz",
            "HEAD /npm/@s/ok",
            "HEAD /ok/a-darwin.tar.gz",
            "HEAD /ok/get-only/a.zip",
            "HEAD /pypi/gone/json",
        ]
    );
}

/// The CI asks only https URLs on public hosts: a local server is refused unasked unless
/// loopback is allowed.
#[test]
fn check_urls_refuses_local_urls_unasked() {
    let (base, seen) = serve();
    let port = base.rsplit(':').next().expect("a port");
    let https = format!("https://127.0.0.1:{port}/ok/b.tar.gz");
    let named = format!("https://localhost:{port}/ok/c.zip");
    let dir = url_registry(
        &[
            ("darwin-aarch64", &format!("{base}/ok/a.tar.gz")),
            ("linux-x86_64", &https),
            ("windows-x86_64", &named),
        ],
        "a@1.0.0",
        "a==1.0.0",
    );
    let npm = format!("{base}/npm");
    let pypi = format!("https://127.0.0.1:{port}/pypi");
    let env = [
        ("ACP_REGISTRY_NPM_URL", npm.as_str()),
        ("ACP_REGISTRY_PYPI_URL", pypi.as_str()),
    ];
    let output = acp(
        &[
            "validate",
            path(dir.path()),
            "--format",
            "json",
            "--check-urls",
        ],
        &env,
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let messages: Vec<String> = url_diagnostics(&output)
        .into_iter()
        .map(|(_, message, _)| message)
        .collect();
    assert_eq!(
        messages,
        [
            format!("the darwin-aarch64 archive {base}/ok/a.tar.gz was not requested (not https)"),
            format!(
                "the linux-x86_64 archive {https} was not requested \
                 (host resolves to a loopback address (127.0.0.1))"
            ),
            format!(
                "the windows-x86_64 archive {named} was not requested (localhost is a local name)"
            ),
            format!("the npm package \"a\" was not looked up (not https: {base}/npm/a)"),
            format!(
                "the PyPI package \"a\" was not looked up \
                 (host resolves to a loopback address (127.0.0.1): {pypi}/a/json)"
            ),
        ]
    );
    assert!(seen.lock().expect("log").is_empty());
}

/// With loopback allowed: each redirect is followed by hand and its target checked first, and
/// a 503 is asked again.
#[test]
fn check_urls_follows_redirects_and_retries() {
    let (base, seen) = serve();
    let dir = url_registry(
        &[
            (
                "darwin-aarch64",
                &format!("{base}/redirect/ok/moved.tar.gz"),
            ),
            (
                "darwin-x86_64",
                &format!("{base}/redirect/missing/a.tar.gz"),
            ),
            (
                "linux-aarch64",
                &format!("{base}/to/http/example.com/a.tar.gz"),
            ),
            (
                "linux-x86_64",
                &format!("{base}/to/https/10.0.0.5/a.tar.gz"),
            ),
            ("windows-x86_64", &format!("{base}/ok/flaky/a.zip")),
        ],
        "ok@1.0.0",
        "ok==1.0.0",
    );
    let npm = format!("{base}/npm");
    let pypi = format!("{base}/pypi");
    let env = [
        ("ACP_REGISTRY_NPM_URL", npm.as_str()),
        ("ACP_REGISTRY_PYPI_URL", pypi.as_str()),
    ];
    let output = acp(
        &[
            "validate",
            path(dir.path()),
            "--format",
            "json",
            "--check-urls",
            "--allow-loopback",
        ],
        &env,
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let messages: Vec<String> = url_diagnostics(&output)
        .into_iter()
        .map(|(_, message, _)| message)
        .collect();
    assert_eq!(
        messages,
        [
            format!(
                "the darwin-x86_64 archive {base}/redirect/missing/a.tar.gz does not answer 200 \
                 (redirected to {base}/missing/a.tar.gz (HTTP 404))"
            ),
            format!(
                "the linux-aarch64 archive {base}/to/http/example.com/a.tar.gz does not answer \
                 200 (redirected to http://example.com/a.tar.gz (not https))"
            ),
            format!(
                "the linux-x86_64 archive {base}/to/https/10.0.0.5/a.tar.gz does not answer 200 \
                 (redirected to https://10.0.0.5/a.tar.gz (host resolves to a private address \
                 (10.0.0.5)))"
            ),
        ]
    );
    let mut requests = seen.lock().expect("log").clone();
    requests.sort();
    assert_eq!(
        requests,
        [
            "HEAD /missing/a.tar.gz",
            "HEAD /npm/ok",
            "HEAD /ok/flaky/a.zip",
            "HEAD /ok/flaky/a.zip",
            "HEAD /ok/moved.tar.gz",
            "HEAD /pypi/ok/json",
            "HEAD /redirect/missing/a.tar.gz",
            "HEAD /redirect/ok/moved.tar.gz",
            "HEAD /to/http/example.com/a.tar.gz",
            "HEAD /to/https/10.0.0.5/a.tar.gz",
        ]
    );
}
