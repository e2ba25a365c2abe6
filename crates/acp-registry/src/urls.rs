//! `--check-urls`: each archive, npm package and PyPI package is asked as the registry's CI asks
//! (`url_exists` in `.github/workflows/build_registry.py`):
//!
//! - before each request the URL must pass the [`policy`]: https, a host whose addresses are
//!   all public (looked up on every attempt);
//! - `HEAD`, and `GET` when the server answers 403 or 405 to it;
//! - redirects (301, 302, 303, 307, 308) are followed by hand, at most 5, and each target must
//!   pass the policy before it is asked; after a 303 the request is a `GET`;
//! - up to 3 attempts, 1 s then 2 s apart, when the lookup or the connection fails, the request
//!   times out, or the server answers 429, 500, 502, 503 or 504;
//! - the last answer must be 200.
//!
//! The host is looked up here, for the policy, and the connection is made to those addresses
//! only ([`Vetted`]): a name that answers a public address to the check and a private one to
//! the connection (DNS rebinding) gets nowhere. (The CI's `urllib` looks up twice.)
//!
//! A URL refused before any request is reported with `RemoteCheck::refused`, every other
//! failure with `RemoteCheck::failure`. Requests run on at most 8 threads, each with a 20 s
//! timeout; a URL named twice is asked once.

pub mod policy;

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::net::{IpAddr, ToSocketAddrs};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use registry_validate::{Diagnostic, RemoteCheck};
use url::{Host, Url};

pub use policy::Policy;
use policy::Refusal;

/// At most this many requests at once.
const CONCURRENCY: usize = 8;
/// Per request, connection to last byte of the headers.
const TIMEOUT: Duration = Duration::from_secs(20);
/// Attempts per URL (and method) before giving up on a transient failure.
const ATTEMPTS: u32 = 3;
/// The wait after the first failed attempt; it doubles after each.
const BACKOFF: Duration = Duration::from_secs(1);
/// Redirects followed from one URL.
const MAX_REDIRECTS: u32 = 5;
/// Statuses worth another attempt.
const TRANSIENT_STATUSES: [u16; 5] = [429, 500, 502, 503, 504];

/// Runs the checks; a diagnostic per check whose URL failed or was refused.
pub fn check(checks: &[RemoteCheck], policy: Policy) -> Vec<Diagnostic> {
    let net = Internet::new();
    let urls: Vec<&str> = checks
        .iter()
        .map(|c| c.url.as_str())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(BTreeMap::new());
    std::thread::scope(|scope| {
        for _ in 0..CONCURRENCY.min(urls.len()) {
            scope.spawn(|| {
                while let Some(url) = urls.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let outcome = probe(&net, policy, url);
                    results
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .insert(*url, outcome);
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    checks
        .iter()
        .filter_map(|check| match results.get(check.url.as_str()) {
            Some(Err(failure)) if failure.refused => Some(check.refused(&failure.to_string())),
            Some(Err(failure)) => Some(check.failure(&failure.to_string())),
            _ => None,
        })
        .collect()
}

/// What probing needs from the outside: name lookups, requests and waiting (tests stand in).
trait Net: Sync {
    /// The addresses `host` resolves to; an error when it resolves to none.
    fn lookup(&self, host: &str, port: u16) -> io::Result<Vec<IpAddr>>;
    /// One request to one of `addresses` (those the policy checked), its redirect not followed.
    fn ask(&self, method: Method, url: &Url, addresses: &[IpAddr]) -> Result<Answer, Trouble>;
    /// Waits before the next attempt.
    fn pause(&self, delay: Duration);
}

/// The request method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    Head,
    Get,
}

/// What a server answered.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Answer {
    status: u16,
    /// The `Location` header, as written.
    location: Option<String>,
}

/// A lookup or request that got no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Trouble {
    /// Lookup failed, connection refused or reset, timeout, TLS failure: worth another attempt.
    Transient(String),
    /// The request cannot be made (a URL the HTTP client cannot send).
    Fatal(String),
}

/// Why a URL failed: where (the URL itself, or a redirect's target) and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Failure {
    /// The redirect's target the failure is about, when not the URL itself.
    redirected_to: Option<String>,
    /// Refused by the policy (or unreadable) before any request was sent.
    refused: bool,
    reason: Reason,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.redirected_to {
            Some(to) => write!(f, "redirected to {to} ({})", self.reason),
            None => write!(f, "{}", self.reason),
        }
    }
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum Reason {
    #[error("{0}")]
    Refused(Refusal),
    #[error("not a URL: {0}")]
    NotAUrl(String),
    #[error("HTTP {0}")]
    Status(u16),
    #[error("did not answer 200 after {ATTEMPTS} attempts ({0})")]
    GaveUp(String),
    #[error("{0}")]
    Fatal(String),
    #[error("more than {MAX_REDIRECTS} redirects")]
    TooManyRedirects,
    #[error("HTTP {0} without a Location")]
    NoLocation(u16),
    #[error("a redirect to {0:?}, which is not a URL")]
    BadLocation(String),
}

/// Asks `url` as the CI does: `Ok` when it ends in HTTP 200.
fn probe(net: &impl Net, policy: Policy, url: &str) -> Result<(), Failure> {
    let url = Url::parse(url).map_err(|err| Failure {
        redirected_to: None,
        refused: true,
        reason: Reason::NotAUrl(err.to_string()),
    })?;
    let mut walk = Walk {
        url,
        method: Method::Head,
        redirected: false,
        asked: false,
    };
    match walk.run(net, policy) {
        Ok(()) => Ok(()),
        Err(reason) => Err(Failure {
            refused: !walk.asked && matches!(reason, Reason::Refused(_)),
            redirected_to: walk.redirected.then(|| walk.url.into()),
            reason,
        }),
    }
}

/// A probe under way: the URL and method being asked, and whether a redirect led there and a
/// request was sent.
struct Walk {
    url: Url,
    method: Method,
    redirected: bool,
    asked: bool,
}

/// An attempt that got no answer: refused by the policy, or the network's trouble.
enum Miss {
    Refused(Refusal),
    Trouble(Trouble),
}

impl Walk {
    fn run(&mut self, net: &impl Net, policy: Policy) -> Result<(), Reason> {
        let mut redirects = 0;
        // Attempts made at this URL.
        let mut attempt = 0;
        loop {
            policy.check_url(&self.url).map_err(Reason::Refused)?;
            attempt += 1;
            let last = match self.attempt(net, policy) {
                Ok(Answer { status: 200, .. }) => return Ok(()),
                Ok(Answer {
                    status: status @ (301 | 302 | 303 | 307 | 308),
                    location,
                }) => {
                    redirects += 1;
                    if redirects > MAX_REDIRECTS {
                        return Err(Reason::TooManyRedirects);
                    }
                    let location = location.ok_or(Reason::NoLocation(status))?;
                    self.url = self
                        .url
                        .join(&location)
                        .map_err(|_| Reason::BadLocation(location))?;
                    self.redirected = true;
                    if status == 303 {
                        self.method = Method::Get;
                    }
                    attempt = 0;
                    continue;
                }
                // Some servers refuse HEAD: ask with GET, with the attempts left.
                Ok(Answer {
                    status: 403 | 405, ..
                }) if self.method == Method::Head => {
                    self.method = Method::Get;
                    attempt -= 1;
                    continue;
                }
                Ok(Answer { status, .. }) if TRANSIENT_STATUSES.contains(&status) => {
                    format!("HTTP {status}")
                }
                Ok(Answer { status, .. }) => return Err(Reason::Status(status)),
                Err(Miss::Refused(refusal)) => return Err(Reason::Refused(refusal)),
                Err(Miss::Trouble(Trouble::Fatal(message))) => return Err(Reason::Fatal(message)),
                Err(Miss::Trouble(Trouble::Transient(message))) => message,
            };
            if attempt >= ATTEMPTS {
                return Err(Reason::GaveUp(last));
            }
            net.pause(BACKOFF * 2u32.pow(attempt - 1));
        }
    }

    /// One attempt: look the host up, check its addresses, ask.
    fn attempt(&mut self, net: &impl Net, policy: Policy) -> Result<Answer, Miss> {
        let addresses = match self.url.host() {
            Some(Host::Ipv4(ip)) => vec![IpAddr::V4(ip)],
            Some(Host::Ipv6(ip)) => vec![IpAddr::V6(ip)],
            Some(Host::Domain(name)) => {
                let port = self.url.port_or_known_default().unwrap_or(443);
                net.lookup(name, port).map_err(|err| {
                    Miss::Trouble(Trouble::Transient(format!("cannot resolve {name}: {err}")))
                })?
            }
            None => return Err(Miss::Refused(Refusal::NoHost)),
        };
        policy.check_addresses(&addresses).map_err(Miss::Refused)?;
        self.asked = true;
        net.ask(self.method, &self.url, &addresses)
            .map_err(Miss::Trouble)
    }
}

/// The real network: the system's resolver, `ureq`, `thread::sleep`.
#[derive(Debug)]
struct Internet {
    config: ureq::config::Config,
}

impl Internet {
    fn new() -> Internet {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(TIMEOUT))
            .http_status_as_error(false)
            .max_redirects(0)
            .user_agent(concat!("acp-registry/", env!("CARGO_PKG_VERSION")))
            .build();
        Internet { config }
    }
}

/// A resolver that answers with the addresses the policy checked, and nothing else: the
/// connection goes where the check looked. (`ureq`'s resolver trait is not covered by its
/// semver; `Cargo.lock` pins the version this is written for.)
#[derive(Debug)]
struct Vetted(Vec<IpAddr>);

impl ureq::unversioned::resolver::Resolver for Vetted {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        _config: &ureq::config::Config,
        _timeout: ureq::unversioned::transport::NextTimeout,
    ) -> Result<ureq::unversioned::resolver::ResolvedSocketAddrs, ureq::Error> {
        let port = uri
            .port_u16()
            .unwrap_or(if uri.scheme_str() == Some("http") {
                80
            } else {
                443
            });
        let mut resolved = self.empty();
        for ip in self.0.iter().take(16) {
            resolved.push(std::net::SocketAddr::new(*ip, port));
        }
        if resolved.is_empty() {
            return Err(ureq::Error::HostNotFound);
        }
        Ok(resolved)
    }
}

impl Net for Internet {
    fn lookup(&self, host: &str, port: u16) -> io::Result<Vec<IpAddr>> {
        let addresses: Vec<IpAddr> = (host, port).to_socket_addrs()?.map(|a| a.ip()).collect();
        if addresses.is_empty() {
            return Err(io::Error::new(io::ErrorKind::NotFound, "no address"));
        }
        Ok(addresses)
    }

    fn ask(&self, method: Method, url: &Url, addresses: &[IpAddr]) -> Result<Answer, Trouble> {
        let agent = ureq::Agent::with_parts(
            self.config.clone(),
            ureq::unversioned::transport::DefaultConnector::new(),
            Vetted(addresses.to_vec()),
        );
        let request = match method {
            Method::Head => agent.head(url.as_str()),
            Method::Get => agent.get(url.as_str()),
        };
        match request.call() {
            Ok(response) => Ok(Answer {
                status: response.status().as_u16(),
                location: response
                    .headers()
                    .get("location")
                    .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned()),
            }),
            Err(err @ (ureq::Error::BadUri(_) | ureq::Error::Http(_))) => {
                Err(Trouble::Fatal(err.to_string()))
            }
            Err(err) => Err(Trouble::Transient(err.to_string())),
        }
    }

    fn pause(&self, delay: Duration) {
        std::thread::sleep(delay);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_goes_to_the_addresses_checked() {
        use std::io::{Read, Write};
        // A name that resolves nowhere: only the checked address can make the request land.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
        let port = listener.local_addr().expect("an address").port();
        let server = std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().expect("a connection");
            let mut request = [0u8; 1024];
            let read = stream.read(&mut request).expect("a request");
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            String::from_utf8_lossy(&request[..read]).into_owned()
        });
        let url = Url::parse(&format!("http://checked.invalid:{port}/a.tar.gz")).expect("a URL");
        let answer = Internet::new()
            .ask(Method::Head, &url, &[IpAddr::from([127, 0, 0, 1])])
            .expect("answered");
        assert_eq!(answer.status, 200);
        let request = server.join().expect("the server");
        assert!(request.starts_with("HEAD /a.tar.gz"), "{request}");
        assert!(
            request.contains(&format!("host: checked.invalid:{port}")),
            "{request}"
        );
    }

    /// Each request (`"<METHOD> <url>"`) with its answers in turn, the last repeating: the
    /// status (0 for a connection refused) and the `Location`.
    type Answers = &'static [(&'static str, &'static [(u16, Option<&'static str>)])];

    /// A probe in a table: URL, answers, outcome and log.
    type Case = (
        &'static str,
        Answers,
        Result<(), &'static str>,
        &'static [&'static str],
    );

    /// A network in a table: each name's addresses, each request's answers, the number of
    /// lookups that fail first; it logs `lookup <host>`, `<METHOD> <url>` and `pause <secs>s`.
    struct Stub {
        hosts: &'static [(&'static str, &'static str)],
        answers: Answers,
        failing_lookups: AtomicUsize,
        log: Mutex<Vec<String>>,
    }

    impl Stub {
        fn new(hosts: &'static [(&'static str, &'static str)], answers: Answers) -> Stub {
            Stub {
                hosts,
                answers,
                failing_lookups: AtomicUsize::new(0),
                log: Mutex::new(Vec::new()),
            }
        }

        fn log(&self) -> Vec<String> {
            self.log.lock().expect("log").clone()
        }
    }

    impl Net for Stub {
        fn lookup(&self, host: &str, _port: u16) -> io::Result<Vec<IpAddr>> {
            self.log.lock().expect("log").push(format!("lookup {host}"));
            if self
                .failing_lookups
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                .is_ok()
            {
                return Err(io::Error::other("Temporary failure in name resolution"));
            }
            let addresses: Vec<IpAddr> = self
                .hosts
                .iter()
                .filter(|(name, _)| *name == host)
                .map(|(_, address)| address.parse().expect("an address"))
                .collect();
            if addresses.is_empty() {
                return Err(io::Error::new(io::ErrorKind::NotFound, "unknown host"));
            }
            Ok(addresses)
        }

        fn ask(&self, method: Method, url: &Url, _: &[IpAddr]) -> Result<Answer, Trouble> {
            let method = match method {
                Method::Head => "HEAD",
                Method::Get => "GET",
            };
            let request = format!("{method} {url}");
            let mut log = self.log.lock().expect("log");
            let before = log.iter().filter(|line| **line == request).count();
            log.push(request.clone());
            let Some((_, answers)) = self.answers.iter().find(|(r, _)| *r == request) else {
                return Ok(Answer {
                    status: 404,
                    location: None,
                });
            };
            let (status, location) = answers[before.min(answers.len() - 1)];
            if status == 0 {
                return Err(Trouble::Transient("connection refused".to_owned()));
            }
            Ok(Answer {
                status,
                location: location.map(str::to_owned),
            })
        }

        fn pause(&self, delay: Duration) {
            let line = format!("pause {}s", delay.as_secs());
            self.log.lock().expect("log").push(line);
        }
    }

    const HOSTS: &[(&str, &str)] = &[
        ("example.com", "93.184.216.34"),
        ("mirror.example", "93.184.216.35"),
        ("mirror.example", "2606:2800:220:1::1"),
        ("internal.example", "10.0.0.5"),
        ("split.example", "93.184.216.36"),
        ("split.example", "fd00::5"),
        ("cgnat.example", "100.64.0.1"),
    ];

    const A: &str = "https://example.com/a.tar.gz";

    /// `(url, answers, outcome, log)`: every case of the CI's `url_exists`.
    #[test]
    fn probes() {
        let table: &[Case] = &[
            (
                A,
                &[("HEAD https://example.com/a.tar.gz", &[(200, None)])],
                Ok(()),
                &["lookup example.com", "HEAD https://example.com/a.tar.gz"],
            ),
            (
                "http://example.com/archive.tar.gz",
                &[],
                Err("not https"),
                &[],
            ),
            (
                "https://internal.example/a",
                &[],
                Err("host resolves to a private address (10.0.0.5)"),
                &["lookup internal.example"],
            ),
            (
                "https://split.example/a",
                &[],
                Err("host resolves to a private address (fd00::5)"),
                &["lookup split.example"],
            ),
            (
                "https://cgnat.example/a",
                &[],
                Err("host resolves to a shared address (100.64.0.1)"),
                &["lookup cgnat.example"],
            ),
            (
                "https://localhost:8443/a",
                &[],
                Err("localhost is a local name"),
                &[],
            ),
            (
                "https://[::ffff:127.0.0.1]/a",
                &[],
                Err("host resolves to a loopback address (::ffff:127.0.0.1)"),
                &[],
            ),
            (
                A,
                &[("HEAD https://example.com/a.tar.gz", &[(404, None)])],
                Err("HTTP 404"),
                &["lookup example.com", "HEAD https://example.com/a.tar.gz"],
            ),
            (
                A,
                &[
                    ("HEAD https://example.com/a.tar.gz", &[(405, None)]),
                    ("GET https://example.com/a.tar.gz", &[(200, None)]),
                ],
                Ok(()),
                &[
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "lookup example.com",
                    "GET https://example.com/a.tar.gz",
                ],
            ),
            (
                A,
                &[
                    (
                        "HEAD https://example.com/a.tar.gz",
                        &[(302, Some("/releases/a.tar.gz"))],
                    ),
                    (
                        "HEAD https://example.com/releases/a.tar.gz",
                        &[(307, Some("https://mirror.example/a.tar.gz"))],
                    ),
                    ("HEAD https://mirror.example/a.tar.gz", &[(200, None)]),
                ],
                Ok(()),
                &[
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "lookup example.com",
                    "HEAD https://example.com/releases/a.tar.gz",
                    "lookup mirror.example",
                    "HEAD https://mirror.example/a.tar.gz",
                ],
            ),
            (
                A,
                &[(
                    "HEAD https://example.com/a.tar.gz",
                    &[(301, Some("http://example.com/a.tar.gz"))],
                )],
                Err("redirected to http://example.com/a.tar.gz (not https)"),
                &["lookup example.com", "HEAD https://example.com/a.tar.gz"],
            ),
            (
                A,
                &[(
                    "HEAD https://example.com/a.tar.gz",
                    &[(302, Some("https://internal.example/a.tar.gz"))],
                )],
                Err("redirected to https://internal.example/a.tar.gz \
                     (host resolves to a private address (10.0.0.5))"),
                &[
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "lookup internal.example",
                ],
            ),
            (
                A,
                &[
                    (
                        "HEAD https://example.com/a.tar.gz",
                        &[(303, Some("https://example.com/b"))],
                    ),
                    ("GET https://example.com/b", &[(200, None)]),
                ],
                Ok(()),
                &[
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "lookup example.com",
                    "GET https://example.com/b",
                ],
            ),
            (
                A,
                &[(
                    "HEAD https://example.com/a.tar.gz",
                    &[(302, Some("/a.tar.gz"))],
                )],
                Err("redirected to https://example.com/a.tar.gz (more than 5 redirects)"),
                &[
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                ],
            ),
            (
                A,
                &[("HEAD https://example.com/a.tar.gz", &[(302, None)])],
                Err("HTTP 302 without a Location"),
                &["lookup example.com", "HEAD https://example.com/a.tar.gz"],
            ),
            (
                A,
                &[(
                    "HEAD https://example.com/a.tar.gz",
                    &[(503, None), (200, None)],
                )],
                Ok(()),
                &[
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "pause 1s",
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                ],
            ),
            (
                A,
                &[("HEAD https://example.com/a.tar.gz", &[(503, None)])],
                Err("did not answer 200 after 3 attempts (HTTP 503)"),
                &[
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "pause 1s",
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "pause 2s",
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                ],
            ),
            (
                A,
                &[(
                    "HEAD https://example.com/a.tar.gz",
                    &[(0, None), (429, None), (200, None)],
                )],
                Ok(()),
                &[
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "pause 1s",
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "pause 2s",
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                ],
            ),
            (
                A,
                &[
                    (
                        "HEAD https://example.com/a.tar.gz",
                        &[(503, None), (405, None)],
                    ),
                    ("GET https://example.com/a.tar.gz", &[(503, None)]),
                ],
                Err("did not answer 200 after 3 attempts (HTTP 503)"),
                &[
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "pause 1s",
                    "lookup example.com",
                    "HEAD https://example.com/a.tar.gz",
                    "lookup example.com",
                    "GET https://example.com/a.tar.gz",
                    "pause 2s",
                    "lookup example.com",
                    "GET https://example.com/a.tar.gz",
                ],
            ),
        ];
        for (url, answers, expect, log) in table {
            let stub = Stub::new(HOSTS, answers);
            let got = probe(&stub, Policy::Public, url).map_err(|f| f.to_string());
            assert_eq!(got, expect.map_err(str::to_owned), "{url} {answers:?}");
            assert_eq!(stub.log(), *log, "{url} {answers:?}");
        }
    }

    /// The CI's test: the first lookup fails with a temporary resolver error, the second
    /// answers, so the URL passes after 2 lookups.
    #[test]
    fn a_failed_lookup_is_tried_again() {
        let stub = Stub::new(
            HOSTS,
            &[("HEAD https://example.com/a.tar.gz", &[(200, None)])],
        );
        stub.failing_lookups.store(1, Ordering::Relaxed);
        assert_eq!(probe(&stub, Policy::Public, A), Ok(()));
        assert_eq!(
            stub.log(),
            [
                "lookup example.com",
                "pause 1s",
                "lookup example.com",
                "HEAD https://example.com/a.tar.gz"
            ]
        );

        let stub = Stub::new(HOSTS, &[]);
        stub.failing_lookups.store(3, Ordering::Relaxed);
        let got = probe(&stub, Policy::Public, A).map_err(|f| f.to_string());
        assert_eq!(
            got,
            Err(
                "did not answer 200 after 3 attempts (cannot resolve example.com: \
                 Temporary failure in name resolution)"
                    .to_owned()
            )
        );
        assert_eq!(
            stub.log(),
            [
                "lookup example.com",
                "pause 1s",
                "lookup example.com",
                "pause 2s",
                "lookup example.com",
            ]
        );
    }

    #[test]
    fn loopback_is_asked_only_when_allowed() {
        let answers: Answers = &[
            ("HEAD http://127.0.0.1:8080/a", &[(302, Some("/b"))]),
            ("HEAD http://127.0.0.1:8080/b", &[(200, None)]),
        ];
        let stub = Stub::new(HOSTS, answers);
        let got = probe(&stub, Policy::Public, "http://127.0.0.1:8080/a");
        let got = got.map_err(|f| (f.refused, f.to_string()));
        assert_eq!(got, Err((true, "not https".to_owned())));
        assert!(stub.log().is_empty());

        let stub = Stub::new(HOSTS, answers);
        assert_eq!(
            probe(&stub, Policy::AllowLoopback, "http://127.0.0.1:8080/a"),
            Ok(())
        );
        assert_eq!(
            stub.log(),
            [
                "HEAD http://127.0.0.1:8080/a",
                "HEAD http://127.0.0.1:8080/b"
            ]
        );
    }
}
