//! `cargo xtask agentregistry-server`: a stand-in AgentRegistry on 127.0.0.1, for the tests of
//! the catalogue's AgentRegistry source.
//!
//! It serves the synthetic listing of `tests/fixtures/agentregistry/` (compiled in) as a real
//! registry would, whatever `pageSize` is asked for:
//!
//! - `GET /discover/agents?page=N` → `page-N.json` (pages are 1-based, `page` below 1 reads as 1
//!   like the real API, past the last page an empty page);
//! - `GET /a2a/agents/{id}`, `/a2a/async/agents/{id}`, `/mcp/servers/{id}`, `/acp/agents/{id}` →
//!   a small protocol-native document made from the agent, for the documents
//!   [`ServiceAgent::documents`] lists for it; 404 (JSON) for any other id;
//! - every answer with `Access-Control-Allow-Origin: *`, and `OPTIONS` preflights answered, since
//!   the catalogue fetches it from another origin.
//!
//! Test controls: one page is slow (page 2 by default, `--slow-ms`, 800 ms by default), and
//! `POST /__control/fail?page=N&times=K` makes the next K requests for page N (K = 1 when
//! omitted) answer 503 with a JSON error, `POST /__control/no-cors?page=N&times=K` answer the
//! page without `Access-Control-Allow-Origin` (as a server that forgot CORS), and
//! `POST /__control/reset` forgets them.
//!
//! For the benchmark, [`ServerOptions::listing`] serves other pages in place of the fixture's
//! (the pages of a synthetic listing of 10,000 agents), each after [`ServerOptions::latency`],
//! and [`RegistryServer::most_at_once`] says how many page requests it answered at once.
//!
//! The command prints `listening on http://127.0.0.1:PORT` as its first line of output, so a test
//! can start it with `--port 0` and read the port; [`start`] does the same for Rust tests.

use std::collections::HashMap;
use std::io::Cursor;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use clap::Args;
use local_server::Workers;
use local_server::tiny_http::{Header, Method, Request, Response};
use percent_encoding::percent_decode_str;
use registry_core::agentregistry::{ProtocolMetadata, Transport};
use registry_core::{Endpoint, ServiceAgent, parse_page};
use serde_json::{Map, Value, json};

/// The fixture pages, in order.
pub(crate) const PAGES: [&str; 3] = [
    include_str!("../../tests/fixtures/agentregistry/page-1.json"),
    include_str!("../../tests/fixtures/agentregistry/page-2.json"),
    include_str!("../../tests/fixtures/agentregistry/page-3.json"),
];

/// How many requests are answered at once (a slow page must not hold up the others).
const WORKERS: usize = 4;

/// `cargo xtask agentregistry-server` options.
#[derive(Debug, Args)]
pub struct ServerArgs {
    /// Port on 127.0.0.1 (0 picks a free one; the first line printed says which).
    #[arg(long, default_value_t = 8090)]
    port: u16,
    /// How long the slow page takes to answer, in milliseconds.
    #[arg(long, default_value_t = 800)]
    slow_ms: u64,
    /// Which page is slow.
    #[arg(long, default_value_t = 2)]
    slow_page: u32,
}

/// How the server behaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerOptions {
    /// The page that answers late.
    pub slow_page: u32,
    /// How late.
    pub slow: Duration,
    /// How long every page takes to answer (a round trip to a real service), besides the slow
    /// page's delay.
    pub latency: Duration,
    /// The pages to serve in place of the fixture's, in order; their agents' documents are
    /// served too.
    pub listing: Option<Arc<Vec<String>>>,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            slow_page: 2,
            slow: Duration::from_millis(800),
            latency: Duration::ZERO,
            listing: None,
        }
    }
}

/// A running server; dropping it stops the server.
#[derive(Debug)]
pub struct RegistryServer {
    workers: Workers,
    registry: Arc<FixtureRegistry>,
}

impl RegistryServer {
    /// The registry's base URL, `http://127.0.0.1:PORT` (no trailing slash).
    pub fn url(&self) -> String {
        format!("http://{}", self.workers.addr())
    }

    /// The most page requests it has been answering at once.
    pub fn most_at_once(&self) -> usize {
        self.registry.most_at_once.load(Ordering::Relaxed)
    }

    /// Blocks until the server stops (for the command, that is Ctrl-C or a kill).
    pub fn wait(self) {
        self.workers.wait();
    }
}

/// `cargo xtask agentregistry-server`: serves until killed.
pub fn run(args: &ServerArgs) -> Result<()> {
    let options = ServerOptions {
        slow_page: args.slow_page,
        slow: Duration::from_millis(args.slow_ms),
        ..ServerOptions::default()
    };
    let server = start(
        SocketAddr::from((Ipv4Addr::LOCALHOST, args.port)),
        options.clone(),
    )?;
    // The first line is read by the end-to-end tests: keep its shape.
    println!("listening on {}", server.url());
    println!(
        "page {} answers after {} ms; POST /__control/fail?page=N&times=K makes page N fail, \
         POST /__control/no-cors?page=N&times=K answers it without CORS, \
         POST /__control/reset undoes it; Ctrl-C stops",
        options.slow_page, args.slow_ms
    );
    server.wait();
    Ok(())
}

/// Serves the fixture registry on `addr` (port 0 picks a free one, see [`RegistryServer::url`]).
pub fn start(addr: SocketAddr, options: ServerOptions) -> Result<RegistryServer> {
    let registry = Arc::new(FixtureRegistry::new(options)?);
    let serving = Arc::clone(&registry);
    let workers = Workers::spawn(addr, WORKERS, move |request| serving.respond(request))
        .map_err(|err| anyhow!("cannot listen on {addr}: {err} (try another --port)"))?;
    Ok(RegistryServer { workers, registry })
}

/// The fixture listing, its agents, and the test controls' state.
#[derive(Debug)]
struct FixtureRegistry {
    options: ServerOptions,
    /// The pages served, and how many items they hold in all.
    pages: Arc<Vec<String>>,
    items: usize,
    agents: Vec<ServiceAgent>,
    /// Per page, how the next requests fail, and how many more do.
    failures: Mutex<HashMap<u32, (Fault, u32)>>,
    /// Page requests being answered now, and the most there have been.
    at_once: AtomicUsize,
    most_at_once: AtomicUsize,
}

/// How a page fails on purpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    /// 503 with a JSON error.
    Unavailable,
    /// The page, without the CORS header.
    NoCors,
}

type Answer = Response<Cursor<Vec<u8>>>;

impl FixtureRegistry {
    fn new(options: ServerOptions) -> Result<FixtureRegistry> {
        let pages = options
            .listing
            .clone()
            .unwrap_or_else(|| Arc::new(PAGES.map(str::to_owned).to_vec()));
        let mut agents = Vec::new();
        let mut items = 0;
        for (n, text) in (1..).zip(pages.iter()) {
            let page = parse_page(text, n).with_context(|| format!("page {n} served"))?;
            items += page.items;
            agents.extend(
                page.entries
                    .into_iter()
                    .filter_map(|e| e.service().map(|agent| ServiceAgent::clone(agent))),
            );
        }
        Ok(FixtureRegistry {
            options,
            pages,
            items,
            agents,
            failures: Mutex::default(),
            at_once: AtomicUsize::new(0),
            most_at_once: AtomicUsize::new(0),
        })
    }

    fn respond(&self, request: Request) -> std::io::Result<()> {
        let answer = self.answer(&request);
        if self.take_fault(&request, Fault::NoCors) {
            return request.respond(answer.with_header(header("Cache-Control", "no-store")));
        }
        request.respond(cors(answer))
    }

    /// Whether `request` is for a page that has `fault` to give, counting it given.
    fn take_fault(&self, request: &Request, fault: Fault) -> bool {
        let target = request.url();
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        if path != "/discover/agents" || request.method() == &Method::Options {
            return false;
        }
        let page = parameter(query, "page")
            .and_then(|p| p.parse::<i64>().ok())
            .map_or(1, |p| p.clamp(1, i64::from(u32::MAX)) as u32);
        match self.failures().get_mut(&page) {
            Some((kind, left)) if *kind == fault && *left > 0 => {
                *left -= 1;
                true
            }
            _ => false,
        }
    }

    fn answer(&self, request: &Request) -> Answer {
        let target = request.url();
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        match (request.method(), path) {
            (Method::Options, _) => preflight(request),
            (Method::Get | Method::Head, "/discover/agents") => self.page(query),
            (Method::Post, "/__control/fail") => self.fail(query, Fault::Unavailable),
            (Method::Post, "/__control/no-cors") => self.fail(query, Fault::NoCors),
            (Method::Post, "/__control/reset") => {
                self.failures().clear();
                json_answer(200, &json!({"reset": true}))
            }
            (Method::Get | Method::Head, _) => match self.document(path) {
                Some(document) => json_answer(200, &document),
                None => error(404, &format!("nothing at {path}")),
            },
            (method, _) => error(405, &format!("{method} is not served here")),
        }
    }

    /// `GET /discover/agents`: a fixture page, late or failing as the controls say.
    fn page(&self, query: &str) -> Answer {
        let page = match parameter(query, "page").map(|p| p.parse::<i64>()) {
            None => 1,
            Some(Ok(page)) => page.clamp(1, i64::from(u32::MAX)) as u32,
            Some(Err(_)) => return error(400, "`page` must be a whole number"),
        };
        if let Some((_, left)) = self
            .failures()
            .get_mut(&page)
            .filter(|(fault, left)| *fault == Fault::Unavailable && *left > 0)
        {
            *left -= 1;
            return error(
                503,
                &format!("page {page} failed on purpose (test control)"),
            );
        }
        let now = self.at_once.fetch_add(1, Ordering::Relaxed) + 1;
        self.most_at_once.fetch_max(now, Ordering::Relaxed);
        std::thread::sleep(self.options.latency);
        if page == self.options.slow_page {
            std::thread::sleep(self.options.slow);
        }
        self.at_once.fetch_sub(1, Ordering::Relaxed);
        match self.pages.get(page as usize - 1) {
            Some(text) => Response::from_string(text.as_str()).with_header(json_type()),
            None => json_answer(
                200,
                &json!({
                    "items": [], "totalCount": self.items, "page": page,
                    "totalPages": self.pages.len(), "hasNextPage": false, "hasPreviousPage": true
                }),
            ),
        }
    }

    /// `POST /__control/fail?page=N&times=K`, `POST /__control/no-cors?page=N&times=K`.
    fn fail(&self, query: &str, fault: Fault) -> Answer {
        let page = parameter(query, "page").and_then(|p| p.parse::<u32>().ok());
        let times = match parameter(query, "times") {
            None => Some(1),
            Some(times) => times.parse::<u32>().ok(),
        };
        let (Some(page), Some(times)) = (page, times) else {
            return error(400, "use ?page=N&times=K (K defaults to 1)");
        };
        self.failures().insert(page, (fault, times));
        json_answer(200, &json!({"page": page, "times": times}))
    }

    fn failures(&self) -> std::sync::MutexGuard<'_, HashMap<u32, (Fault, u32)>> {
        self.failures.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The protocol-native document at `path`, if the agent it names has it.
    fn document(&self, path: &str) -> Option<Value> {
        let agent = self
            .agents
            .iter()
            .find(|agent| agent.documents().iter().any(|d| same_path(&d.path, path)))?;
        let (prefix, _) = path.rsplit_once('/')?;
        Some(match prefix {
            "/a2a/agents" => a2a_card(agent),
            "/a2a/async/agents" => queued_a2a_card(agent),
            "/mcp/servers" => mcp_server_card(agent),
            "/acp/agents" => acp_manifest(agent),
            _ => return None,
        })
    }
}

/// Whether two paths are the same once percent-decoded.
fn same_path(a: &str, b: &str) -> bool {
    percent_decode_str(a).decode_utf8().ok() == percent_decode_str(b).decode_utf8().ok()
}

/// The first value of `key` in a query string, decoded.
fn parameter(query: &str, key: &str) -> Option<String> {
    form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.into_owned())
}

/// An A2A agent card: the first A2A endpoint's metadata, with the registry's facts over it.
fn a2a_card(agent: &ServiceAgent) -> Value {
    let endpoint = agent
        .endpoints
        .iter()
        .find(|e| e.protocol.as_str() == "A2A");
    let mut card = endpoint.map(metadata_object).unwrap_or_default();
    card.remove("queueEndpoint");
    card.entry("version").or_insert_with(|| json!("1.0"));
    card.entry("defaultInputModes")
        .or_insert_with(|| json!(["application/json"]));
    card.entry("defaultOutputModes")
        .or_insert_with(|| json!(["application/json"]));
    card.extend(identity(agent));
    card.insert(
        "url".to_owned(),
        json!(endpoint.map_or("", |e| e.address.as_str())),
    );
    card.insert("skills".to_owned(), skills(agent));
    card.insert(
        "isLive".to_owned(),
        json!(endpoint.is_some_and(Endpoint::is_live)),
    );
    Value::Object(card)
}

/// A queued A2A card: the agent card with the queue's connection details.
fn queued_a2a_card(agent: &ServiceAgent) -> Value {
    let endpoint = agent
        .endpoints
        .iter()
        .find(|e| e.protocol.as_str() == "A2A" && e.transport.is_queue());
    let mut card = match a2a_card(agent) {
        Value::Object(card) => card,
        _ => Map::new(),
    };
    card.remove("url");
    let queue = endpoint.map_or(Value::Null, |e| {
        metadata_object(e)
            .remove("queueEndpoint")
            .unwrap_or_else(|| {
                let technology = match e.transport {
                    Transport::Amqp => "rabbitmq",
                    _ => "azure-service-bus",
                };
                json!({"technology": technology, "taskTopic": e.address})
            })
    });
    card.insert("queueEndpoint".to_owned(), queue);
    card.insert(
        "isLive".to_owned(),
        json!(endpoint.is_some_and(Endpoint::is_live)),
    );
    Value::Object(card)
}

/// An MCP server card: the MCP endpoint's URL, its tools and server info.
fn mcp_server_card(agent: &ServiceAgent) -> Value {
    let endpoint = agent
        .endpoints
        .iter()
        .find(|e| e.protocol.as_str() == "MCP");
    let metadata = endpoint.map(metadata_object).unwrap_or_default();
    let mut card = identity(agent);
    card.insert(
        "serverInfo".to_owned(),
        metadata
            .get("serverInfo")
            .cloned()
            .unwrap_or_else(|| json!({"name": agent.name, "version": "1.0"})),
    );
    card.insert(
        "remotes".to_owned(),
        json!([{"type": "streamable-http", "url": endpoint.map_or("", |e| e.address.as_str())}]),
    );
    card.insert(
        "tools".to_owned(),
        metadata.get("tools").cloned().unwrap_or_else(|| json!([])),
    );
    card.insert(
        "isLive".to_owned(),
        json!(endpoint.is_some_and(Endpoint::is_live)),
    );
    Value::Object(card)
}

/// An ACP agent manifest: the name as a DNS label, the ACP endpoint's metadata.
fn acp_manifest(agent: &ServiceAgent) -> Value {
    let endpoint = agent
        .endpoints
        .iter()
        .find(|e| e.protocol.as_str() == "ACP");
    let mut manifest = endpoint.map(metadata_object).unwrap_or_default();
    manifest.remove("queueEndpoint");
    manifest.insert("name".to_owned(), json!(dns_label(&agent.name)));
    manifest.insert(
        "description".to_owned(),
        json!(agent.description.as_deref().unwrap_or("")),
    );
    manifest.insert(
        "url".to_owned(),
        json!(endpoint.map_or("", |e| e.address.as_str())),
    );
    manifest.insert(
        "isLive".to_owned(),
        json!(endpoint.is_some_and(Endpoint::is_live)),
    );
    Value::Object(manifest)
}

/// The fields every card shares: id, name, description.
fn identity(agent: &ServiceAgent) -> Map<String, Value> {
    let mut fields = Map::new();
    fields.insert("id".to_owned(), json!(agent.id));
    fields.insert("name".to_owned(), json!(agent.name));
    fields.insert(
        "description".to_owned(),
        json!(agent.description.as_deref().unwrap_or("")),
    );
    fields
}

/// The capabilities as A2A skills.
fn skills(agent: &ServiceAgent) -> Value {
    agent
        .capabilities
        .iter()
        .map(
            |c| json!({"id": c.name, "name": c.name, "description": c.description, "tags": c.tags}),
        )
        .collect()
}

/// An endpoint's metadata object (empty when it has none or it is not a JSON object).
fn metadata_object(endpoint: &Endpoint) -> Map<String, Value> {
    match endpoint.protocol_metadata() {
        Some(ProtocolMetadata::Object(object)) => object,
        _ => Map::new(),
    }
}

/// `Code Review Assistant` → `code-review-assistant` (RFC 1123 label, as the registry does).
fn dns_label(name: &str) -> String {
    let mut label = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            label.push(c.to_ascii_lowercase());
        } else if !label.is_empty() && !label.ends_with('-') {
            label.push('-');
        }
    }
    label.truncate(63);
    label.trim_end_matches('-').to_owned()
}

/// The answer to a CORS preflight: any origin, the methods served, the headers asked for.
fn preflight(request: &Request) -> Answer {
    let asked = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Access-Control-Request-Headers"))
        .map_or("*".to_owned(), |h| h.value.to_string());
    Response::from_data(Vec::new())
        .with_status_code(204)
        .with_header(header(
            "Access-Control-Allow-Methods",
            "GET, HEAD, POST, OPTIONS",
        ))
        .with_header(header("Access-Control-Allow-Headers", &asked))
        .with_header(header("Access-Control-Max-Age", "600"))
}

/// Adds the headers every answer has.
fn cors(answer: Answer) -> Answer {
    answer
        .with_header(header("Access-Control-Allow-Origin", "*"))
        .with_header(header("Cache-Control", "no-store"))
}

fn json_answer(status: u16, value: &Value) -> Answer {
    Response::from_string(value.to_string())
        .with_status_code(status)
        .with_header(json_type())
}

/// A JSON error body, `{"error": ..., "status": ...}`.
fn error(status: u16, message: &str) -> Answer {
    json_answer(status, &json!({"error": message, "status": status}))
}

fn json_type() -> Header {
    header("Content-Type", "application/json; charset=utf-8")
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("valid header")
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use registry_core::{Loaded, Pager};

    use super::*;

    fn server(slow: Duration) -> RegistryServer {
        let options = ServerOptions {
            slow_page: 2,
            slow,
            ..ServerOptions::default()
        };
        start(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)), options).unwrap()
    }

    fn client() -> ureq::Agent {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into()
    }

    /// GETs `url`: status, `Access-Control-Allow-Origin`, body.
    fn get(client: &ureq::Agent, url: &str) -> (u16, String, String) {
        let mut response = client.get(url).call().unwrap();
        let origin = response
            .headers()
            .get("access-control-allow-origin")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        let body = response.body_mut().read_to_string().unwrap();
        (response.status().as_u16(), origin, body)
    }

    fn post(client: &ureq::Agent, url: &str) -> u16 {
        client.post(url).send_empty().unwrap().status().as_u16()
    }

    /// Fetches the pager's next page over HTTP and gives it the answer; the status.
    fn step(client: &ureq::Agent, pager: &mut Pager) -> u16 {
        let url = pager.next_url().unwrap();
        let (status, origin, body) = get(client, &url);
        assert_eq!(origin, "*", "{url}");
        if status == 200 {
            pager.accept(&body).unwrap();
        } else {
            pager.fail(&format!("HTTP {status}: {body}"));
        }
        status
    }

    #[test]
    fn the_pager_pages_through_the_server_with_the_slow_page() {
        let server = server(Duration::from_millis(300));
        let client = client();
        let mut pager = Pager::new(&format!("{}/", server.url()));
        let mut times = Vec::new();
        while !pager.is_done() {
            let started = Instant::now();
            assert_eq!(step(&client, &mut pager), 200);
            times.push(started.elapsed());
        }
        assert_eq!(times.len(), 3);
        assert!(times[1] >= Duration::from_millis(300), "{times:?}");
        assert_eq!(pager.progress(), (13, Some(13)));
        let Loaded {
            registry,
            diagnostics,
        } = pager.into_loaded();
        assert_eq!(registry.entries.len(), 12);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    }

    #[test]
    fn a_failing_page_keeps_what_was_loaded_and_a_retry_completes() {
        let server = server(Duration::ZERO);
        let client = client();
        let base = server.url();
        assert_eq!(
            post(&client, &format!("{base}/__control/fail?page=3&times=2")),
            200
        );
        let mut pager = Pager::new(&base);
        assert_eq!(step(&client, &mut pager), 200);
        assert_eq!(step(&client, &mut pager), 200);
        assert_eq!(pager.entries().len(), 9);
        for _ in 0..2 {
            let url = pager.next_url();
            assert_eq!(step(&client, &mut pager), 503);
            assert_eq!(pager.next_url(), url, "the same page again");
            assert_eq!(pager.entries().len(), 9, "nothing lost");
            let message = pager.last_error().unwrap().to_string();
            assert!(
                message.contains("page 3") && message.contains("HTTP 503"),
                "{message}"
            );
        }
        assert_eq!(step(&client, &mut pager), 200);
        assert!(pager.is_done() && pager.last_error().is_none());
        assert_eq!(pager.entries().len(), 12);

        // The error body is JSON; reset forgets failures still pending.
        assert_eq!(post(&client, &format!("{base}/__control/fail?page=1")), 200);
        let (status, _, body) = get(&client, &format!("{base}/discover/agents?page=1"));
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!((status, &body["status"]), (503, &json!(503)));
        assert_eq!(
            post(&client, &format!("{base}/__control/fail?page=1&times=9")),
            200
        );
        assert_eq!(post(&client, &format!("{base}/__control/reset")), 200);
        let (status, _, _) = get(&client, &format!("{base}/discover/agents?page=1"));
        assert_eq!(status, 200);
        assert_eq!(post(&client, &format!("{base}/__control/fail?page=x")), 400);
    }

    #[test]
    fn a_page_can_be_answered_without_cors_on_purpose() {
        let server = server(Duration::ZERO);
        let client = client();
        let base = server.url();
        assert_eq!(
            post(&client, &format!("{base}/__control/no-cors?page=1")),
            200
        );
        let (status, allowed, body) = get(&client, &format!("{base}/discover/agents?page=1"));
        assert_eq!(
            (status, allowed.as_str()),
            (200, ""),
            "the page, without the header"
        );
        assert!(body.contains("\"items\""));
        let (_, allowed, _) = get(&client, &format!("{base}/discover/agents?page=1"));
        assert_eq!(allowed, "*", "once only");
    }

    #[test]
    fn every_answer_allows_any_origin_and_preflights_are_answered() {
        let server = server(Duration::ZERO);
        let client = client();
        let url = format!("{}/discover/agents?page=1&pageSize=100", server.url());
        let response = client
            .options(&url)
            .header("Origin", "http://127.0.0.1:9999")
            .header("Access-Control-Request-Method", "GET")
            .header("Access-Control-Request-Headers", "accept")
            .call()
            .unwrap();
        let headers = response.headers();
        let value = |name: &str| headers.get(name).unwrap().to_str().unwrap().to_owned();
        assert_eq!(response.status().as_u16(), 204);
        assert_eq!(value("access-control-allow-origin"), "*");
        assert!(value("access-control-allow-methods").contains("GET"));
        assert_eq!(value("access-control-allow-headers"), "accept");
        for path in ["/discover/agents?page=9", "/nowhere", "/mcp/servers/nobody"] {
            let (status, origin, _) = get(&client, &format!("{}{path}", server.url()));
            assert_eq!(origin, "*", "{path}");
            assert_eq!(status, if path.contains("page=9") { 200 } else { 404 });
        }
    }

    #[test]
    fn protocol_documents_are_served_for_the_agents_that_have_them() {
        let server = server(Duration::ZERO);
        let client = client();
        let base = server.url();
        let registry = FixtureRegistry::new(ServerOptions::default()).unwrap();
        let mut served = 0;
        for agent in &registry.agents {
            for document in agent.documents() {
                let (status, _, body) = get(&client, &document.url(&base));
                assert_eq!(status, 200, "{} of {}", document.label, agent.name);
                let body: Value = serde_json::from_str(&body).unwrap();
                assert!(body["isLive"].is_boolean(), "{body}");
                served += 1;
            }
        }
        assert_eq!(served, 13);
        let card = |path: &str| -> Value {
            let (status, _, body) = get(&client, &format!("{base}{path}"));
            assert_eq!(status, 200, "{path}");
            serde_json::from_str(&body).unwrap()
        };
        let research = card("/a2a/async/agents/1e6b3f8a-2c4d-4e9f-8a1b-5c7d9e0f2a03");
        assert_eq!(research["queueEndpoint"]["exchange"], "rockbot");
        assert_eq!(research["skills"][0]["tags"], json!(["search", "web"]));
        let weather = card("/mcp/servers/9a4d7c21-6e0b-4f83-b2c5-1d8e3f6a7b02");
        assert_eq!(weather["tools"][0]["name"], "get_forecast");
        let review = card("/acp/agents/3b8f0d6c-7e2a-4b5d-8c4f-9a1b3d5e7f05");
        assert_eq!(review["name"], "code-review-assistant");
        // An agent without that protocol, or no such agent: 404.
        for path in [
            "/mcp/servers/5f0c2a9e-3b1d-4c7a-9e21-7d4b8a6f1c01",
            "/a2a/async/agents/5f0c2a9e-3b1d-4c7a-9e21-7d4b8a6f1c01",
            "/a2a/agents/00000000-0000-0000-0000-000000000000",
        ] {
            let (status, _, body) = get(&client, &format!("{base}{path}"));
            assert_eq!(status, 404, "{path}");
            assert!(body.contains("\"error\""), "{body}");
        }
    }

    #[test]
    fn names_become_dns_labels() {
        for (name, label) in [
            ("Code Review Assistant", "code-review-assistant"),
            ("  A2A -- agent! ", "a2a-agent"),
            ("Été", "t"),
        ] {
            assert_eq!(dns_label(name), label);
        }
    }
}
