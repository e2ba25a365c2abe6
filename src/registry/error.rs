//! Why a download failed, named truly, with what to do.
//!
//! A browser reports most failures of `fetch` as one `TypeError` ("Failed to fetch"), whether
//! the machine is offline, the server is down, a redirect loops or CORS blocks the answer;
//! [`super::http`] tells them apart by asking again in ways that reveal the cause, and reads the
//! body itself so that a stall, a broken-off download and a corrupt compression are seen as
//! such. The body's own faults (empty, an HTML page, nesting too deep, not JSON) come from
//! [`registry_core::LoadError`]. Each [`FetchError`] says what happened, to which URL, and
//! what to do; [`FetchError::headline`] is its few-word form for banners.

use std::time::Duration;

use registry_core::{LoadError, PageError};

/// Why a file could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// The browser says it is offline.
    #[error(
        "{url} could not be reached: this browser is offline. It is asked for again as soon as \
         the connection is back; or press Retry."
    )]
    Offline {
        /// The URL asked for.
        url: String,
    },
    /// No answer at all: the name does not resolve, the connection is refused or reset.
    #[error(
        "Could not reach {url}: the server did not answer ({message}). It may be down, the \
         address may be wrong, or a firewall, proxy or browser extension may block it. Check \
         your connection and retry."
    )]
    Network {
        /// The URL asked for.
        url: String,
        /// What the browser said.
        message: String,
    },
    /// Nothing arrived for too long: no answer, or a download that stopped.
    #[error("{}", timeout_sentence(url, *waited, *received))]
    Timeout {
        /// The URL asked for.
        url: String,
        /// How long nothing arrived, in seconds.
        waited: u32,
        /// Bytes received before it stalled.
        received: usize,
    },
    /// The server answered, but not to this site: the answer lacks the CORS header.
    #[error("{}", cors_sentence(url, origin, *redirected))]
    Cors {
        /// The URL asked for.
        url: String,
        /// This site's origin, which the header must allow.
        origin: String,
        /// Whether the URL redirects to the server that refused.
        redirected: bool,
    },
    /// The URL redirects, and following its redirects never ends (or ends nowhere).
    #[error(
        "{url} redirects in a loop (or to a server that does not answer): the browser stopped \
         following its redirects. The server's redirects need fixing, or the site built with \
         the file's final address."
    )]
    RedirectLoop {
        /// The URL asked for.
        url: String,
    },
    /// The answer began but its body could not be read: cut off, or corrupt compression.
    #[error("{}", body_sentence(url, *received, encoding.as_deref()))]
    Body {
        /// The URL asked for.
        url: String,
        /// Bytes read before it failed.
        received: usize,
        /// The `Content-Encoding` the server declared, when the browser lets the page see it.
        encoding: Option<String>,
    },
    /// The body is not UTF-8 text.
    #[error(
        "{url} is not UTF-8 text (an invalid byte at offset {at}): it must be UTF-8 JSON; the \
         server sends another encoding, or a binary file."
    )]
    NotUtf8 {
        /// The URL asked for.
        url: String,
        /// The offset of the first invalid byte.
        at: usize,
    },
    /// The server answered with an error status.
    #[error("{}", http_sentence(url, *status, status_text, *retry_after))]
    Http {
        /// The URL asked for.
        url: String,
        /// HTTP status code.
        status: u16,
        /// Its reason phrase, when the server sent one.
        status_text: String,
        /// How long the server asks to wait before asking again (`Retry-After`), in seconds.
        retry_after: Option<u64>,
    },
    /// The body is not a registry.
    #[error("{url} is not a valid registry: {source}.")]
    Parse {
        /// The URL asked for.
        url: String,
        /// What is wrong with it.
        source: LoadError,
    },
    /// The first page of an AgentRegistry's listing failed, so there is nothing to show.
    #[error("The agents of {url} could not be listed: {source}")]
    Listing {
        /// The registry's base URL.
        url: String,
        /// What went wrong with the page.
        source: PageError,
    },
}

impl FetchError {
    /// The URL the error is about.
    pub fn url(&self) -> &str {
        match self {
            FetchError::Offline { url }
            | FetchError::Network { url, .. }
            | FetchError::Timeout { url, .. }
            | FetchError::Cors { url, .. }
            | FetchError::RedirectLoop { url }
            | FetchError::Body { url, .. }
            | FetchError::NotUtf8 { url, .. }
            | FetchError::Http { url, .. }
            | FetchError::Parse { url, .. }
            | FetchError::Listing { url, .. } => url,
        }
    }

    /// A few words for a banner: "registry.json could not be reached".
    pub fn headline(&self) -> String {
        let file = file_name(self.url());
        match self {
            FetchError::Offline { .. } => "this browser is offline".to_owned(),
            FetchError::Network { .. } => format!("{file} could not be reached"),
            FetchError::Timeout { waited, .. } => {
                format!("{file} did not answer for {waited} seconds")
            }
            FetchError::Cors { .. } => format!("{file} is not shared with this site (CORS)"),
            FetchError::RedirectLoop { .. } => format!("{file} redirects in a loop"),
            FetchError::Body {
                encoding: Some(_), ..
            } => format!("{file} could not be decoded"),
            FetchError::Body { .. } => format!("the download of {file} broke off"),
            FetchError::NotUtf8 { .. } => format!("{file} is not UTF-8 text"),
            FetchError::Http { status, .. } => format!("{file} answered HTTP {status}"),
            FetchError::Parse { .. } => format!("{file} is not a valid registry"),
            FetchError::Listing { source, .. } => match source {
                PageError::Request { page, .. }
                | PageError::Json { page, .. }
                | PageError::Shape { page, .. } => format!("page {page} of the listing failed"),
                PageError::Finished => "the listing failed".to_owned(),
            },
        }
    }

    /// How long the server asked to wait before the next attempt, if it did.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            FetchError::Http {
                retry_after: Some(seconds),
                ..
            } => Some(Duration::from_secs(*seconds)),
            _ => None,
        }
    }

    /// Whether asking again later may well succeed by itself (the network or the server, not
    /// the file, is at fault).
    pub fn is_transient(&self) -> bool {
        match self {
            FetchError::Offline { .. }
            | FetchError::Network { .. }
            | FetchError::Timeout { .. }
            | FetchError::Body { .. } => true,
            FetchError::Http { status, .. } => *status == 408 || *status == 429 || *status >= 500,
            FetchError::Listing { source, .. } => matches!(source, PageError::Request { .. }),
            FetchError::Cors { .. }
            | FetchError::RedirectLoop { .. }
            | FetchError::NotUtf8 { .. }
            | FetchError::Parse { .. } => false,
        }
    }
}

/// The last path segment of `url` (`registry.json`), or its host when it has none.
pub fn file_name(url: &str) -> &str {
    let without_query = url.split(['?', '#']).next().unwrap_or(url);
    let after_scheme = without_query
        .split_once("://")
        .map_or(without_query, |(_, rest)| rest);
    let (host, path) = after_scheme.split_once('/').unwrap_or((after_scheme, ""));
    path.rsplit('/')
        .find(|segment| !segment.is_empty())
        .unwrap_or(host)
}

/// The scheme, host and port of `url` (`https://cdn.example`), or `None` for a relative URL.
pub fn origin_of(url: &str) -> Option<&str> {
    let (scheme, rest) = url.split_once("://")?;
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some(&url[..scheme.len() + 3 + host_end])
}

/// `3.2 MB`, `12.5 KB`, `512 bytes`: tenths rounded to the nearest, half up.
///
/// In integers: formatting a float links the float-printing code into the wasm (11 KB), and
/// nothing else of the app needs it.
pub fn size_words(bytes: usize) -> String {
    const KB: u64 = 1000;
    let n = bytes as u64;
    let tenths = |unit: u64| (n * 10 + unit / 2) / unit;
    if n >= KB * KB {
        let t = tenths(KB * KB);
        format!("{}.{} MB", t / 10, t % 10)
    } else if n >= KB {
        let t = tenths(KB);
        format!("{}.{} KB", t / 10, t % 10)
    } else if bytes == 1 {
        "1 byte".to_owned()
    } else {
        format!("{bytes} bytes")
    }
}

/// `880,000`: a count with thousands separated.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// `2 minutes`, `1 hour`, `45 seconds`: a wait, rounded up to the unit it is said in.
pub fn duration_words(seconds: u64) -> String {
    let (n, unit) = match seconds {
        0..=89 => (seconds, "second"),
        90..=5399 => (seconds.div_ceil(60), "minute"),
        _ => (seconds.div_ceil(3600), "hour"),
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

/// How long ago something was kept, for "as of 3 hours ago": `age` in milliseconds.
pub fn age_words(age: f64) -> String {
    let minutes = (age.max(0.0) / 60_000.0).floor() as u64;
    let plural = |n: u64, unit: &str| format!("{n} {unit}{} ago", if n == 1 { "" } else { "s" });
    match minutes {
        0 => "less than a minute ago".to_owned(),
        1..=59 => plural(minutes, "minute"),
        60..=2879 => plural(minutes / 60, "hour"),
        _ => plural(minutes / 1440, "day"),
    }
}

/// A `Retry-After` header as seconds to wait: a number of seconds, or an HTTP date (`now` is
/// the current time in milliseconds since the Unix epoch). `None` when it cannot be read.
pub fn retry_after_seconds(header: &str, now: f64) -> Option<u64> {
    let header = header.trim();
    if let Ok(seconds) = header.parse::<u64>() {
        return Some(seconds);
    }
    let date = httpdate::parse_http_date(header).ok()?;
    let at = date.duration_since(std::time::UNIX_EPOCH).ok()?.as_millis() as f64;
    Some(((at - now).max(0.0) / 1000.0).ceil() as u64)
}

fn timeout_sentence(url: &str, waited: u32, received: usize) -> String {
    if received == 0 {
        format!(
            "{url} did not answer within {waited} seconds: the server or the connection is very \
             slow, or stalled. Retry, or try again later."
        )
    } else {
        format!(
            "The download of {url} stopped after {}: nothing more arrived for {waited} seconds. \
             The server or the connection stalled; retry, or try again later.",
            size_words(received)
        )
    }
}

fn cors_sentence(url: &str, origin: &str, redirected: bool) -> String {
    let header = format!("`Access-Control-Allow-Origin: {origin}` (or `*`)");
    if redirected {
        format!(
            "{url} redirects to another server, which answered but does not let this site read \
             the file (CORS): that server must send the header {header} with it."
        )
    } else {
        let host = origin_of(url).unwrap_or(url);
        format!(
            "{host} answered, but does not let this site read {url} (CORS): the server must send \
             the header {header} with it."
        )
    }
}

fn body_sentence(url: &str, received: usize, encoding: Option<&str>) -> String {
    match encoding {
        Some(encoding) => format!(
            "{url} could not be decoded: the server says it is compressed ({encoding}), but the \
             data is corrupt or was cut short after {}. Retry; if it happens again, the server's \
             compression is broken.",
            size_words(received)
        ),
        None => format!(
            "The download of {url} broke off after {}: the connection was reset, or the data \
             could not be decoded. Retry.",
            size_words(received)
        ),
    }
}

fn http_sentence(url: &str, status: u16, status_text: &str, retry_after: Option<u64>) -> String {
    let reason = if status_text.trim().is_empty() {
        String::new()
    } else {
        format!(" {}", status_text.trim())
    };
    let advice = match status {
        404 | 410 => {
            "there is no file at this address: check that it was published, and the address \
             the site was built with"
        }
        401 | 403 => "the server refuses to give it to this site: the file must be public",
        408 | 429 => "the server is too busy to answer this site now",
        500..=599 => "the server has a problem, or is down for maintenance",
        _ => "the server did not send the file",
    };
    let then = match retry_after {
        Some(seconds) => format!(
            " It asks to be asked again in {}; the page will retry by itself then.",
            duration_words(seconds)
        ),
        None if status == 429 || status >= 500 => " Retry in a moment.".to_owned(),
        None => String::new(),
    };
    format!("{url} answered HTTP {status}{reason}: {advice}.{then}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "https://cdn.example/registry/v1/registry.json";

    #[test]
    fn file_names_and_origins() {
        for (url, file, origin) in [
            (URL, "registry.json", Some("https://cdn.example")),
            (
                "https://cdn.example/r.json?x=1#y",
                "r.json",
                Some("https://cdn.example"),
            ),
            (
                "http://127.0.0.1:8090/",
                "127.0.0.1:8090",
                Some("http://127.0.0.1:8090"),
            ),
            (
                "https://a.example/agents/",
                "agents",
                Some("https://a.example"),
            ),
            ("registry.json", "registry.json", None),
        ] {
            assert_eq!(file_name(url), file, "{url}");
            assert_eq!(origin_of(url), origin, "{url}");
        }
    }

    #[test]
    fn every_cause_has_its_own_words_and_what_to_do() {
        let url = URL.to_owned();
        let origin = "https://site.example".to_owned();
        let table: Vec<(FetchError, &str, &[&str])> = vec![
            (
                FetchError::Offline { url: url.clone() },
                "this browser is offline",
                &["as soon as the connection is back"],
            ),
            (
                FetchError::Network {
                    url: url.clone(),
                    message: "Failed to fetch".into(),
                },
                "registry.json could not be reached",
                &["Could not reach", "Check your connection"],
            ),
            (
                FetchError::Timeout {
                    url: url.clone(),
                    waited: 12,
                    received: 0,
                },
                "registry.json did not answer for 12 seconds",
                &["did not answer within 12 seconds", "Retry"],
            ),
            (
                FetchError::Timeout {
                    url: url.clone(),
                    waited: 12,
                    received: 2_500_000,
                },
                "registry.json did not answer for 12 seconds",
                &["stopped after 2.5 MB", "nothing more arrived"],
            ),
            (
                FetchError::Cors {
                    url: url.clone(),
                    origin: origin.clone(),
                    redirected: false,
                },
                "registry.json is not shared with this site (CORS)",
                &[
                    "https://cdn.example answered",
                    "`Access-Control-Allow-Origin: https://site.example`",
                ],
            ),
            (
                FetchError::Cors {
                    url: url.clone(),
                    origin,
                    redirected: true,
                },
                "registry.json is not shared with this site (CORS)",
                &["redirects to another server", "that server must send"],
            ),
            (
                FetchError::RedirectLoop { url: url.clone() },
                "registry.json redirects in a loop",
                &["stopped following its redirects", "need fixing"],
            ),
            (
                FetchError::Body {
                    url: url.clone(),
                    received: 0,
                    encoding: Some("gzip".into()),
                },
                "registry.json could not be decoded",
                &["compressed (gzip)", "corrupt"],
            ),
            (
                FetchError::Body {
                    url: url.clone(),
                    received: 1500,
                    encoding: None,
                },
                "the download of registry.json broke off",
                &["broke off after 1.5 KB"],
            ),
            (
                FetchError::NotUtf8 {
                    url: url.clone(),
                    at: 7,
                },
                "registry.json is not UTF-8 text",
                &["offset 7"],
            ),
            (
                FetchError::Http {
                    url: url.clone(),
                    status: 503,
                    status_text: "Service Unavailable".into(),
                    retry_after: Some(120),
                },
                "registry.json answered HTTP 503",
                &[
                    "HTTP 503 Service Unavailable",
                    "down for maintenance",
                    "asked again in 2 minutes",
                    "retry by itself",
                ],
            ),
            (
                FetchError::Http {
                    url: url.clone(),
                    status: 404,
                    status_text: String::new(),
                    retry_after: None,
                },
                "registry.json answered HTTP 404",
                &["HTTP 404: there is no file", "check that it was published"],
            ),
            (
                FetchError::Parse {
                    url: url.clone(),
                    source: LoadError::Empty { bytes: 0 },
                },
                "registry.json is not a valid registry",
                &["the registry is empty"],
            ),
        ];
        for (error, headline, sentences) in table {
            assert_eq!(error.headline(), headline, "{error:?}");
            let message = error.to_string();
            assert!(
                message.contains(URL) || message.contains("cdn.example"),
                "{message}"
            );
            for sentence in sentences {
                assert!(message.contains(sentence), "{sentence:?} in {message}");
            }
        }
    }

    #[test]
    fn only_network_and_server_troubles_are_transient() {
        let http = |status| FetchError::Http {
            url: URL.into(),
            status,
            status_text: String::new(),
            retry_after: None,
        };
        for (error, transient) in [
            (http(503), true),
            (http(429), true),
            (http(404), false),
            (http(403), false),
            (FetchError::RedirectLoop { url: URL.into() }, false),
            (FetchError::Offline { url: URL.into() }, true),
        ] {
            assert_eq!(error.is_transient(), transient, "{error:?}");
        }
    }

    #[test]
    fn words_for_sizes_waits_and_ages() {
        for (bytes, words) in [
            (0, "0 bytes"),
            (1, "1 byte"),
            (999, "999 bytes"),
            (1000, "1.0 KB"),
            (1049, "1.0 KB"),
            (1050, "1.1 KB"),
            (12_500, "12.5 KB"),
            (999_949, "999.9 KB"),
            (999_999, "1000.0 KB"),
            (1_000_000, "1.0 MB"),
            (5_242_880, "5.2 MB"),
            (2_500_000_000, "2500.0 MB"),
        ] {
            assert_eq!(size_words(bytes), words);
        }
        for (n, words) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (880_000, "880,000"),
        ] {
            assert_eq!(thousands(n), words);
        }
        for (seconds, words) in [
            (1, "1 second"),
            (30, "30 seconds"),
            (90, "2 minutes"),
            (120, "2 minutes"),
            (3600, "60 minutes"),
            (5400, "2 hours"),
        ] {
            assert_eq!(duration_words(seconds), words);
        }
        let minute = 60_000.0;
        for (age, words) in [
            (-5.0, "less than a minute ago"),
            (59_000.0, "less than a minute ago"),
            (minute, "1 minute ago"),
            (59.0 * minute, "59 minutes ago"),
            (3.0 * 60.0 * minute + 1.0, "3 hours ago"),
            (47.0 * 60.0 * minute, "47 hours ago"),
            (3.0 * 1440.0 * minute, "3 days ago"),
        ] {
            assert_eq!(age_words(age), words, "{age}");
        }
    }

    #[test]
    fn retry_after_is_seconds_or_a_date() {
        // Wed, 21 Oct 2015 07:28:00 GMT
        let at = 1_445_412_480_000.0;
        for (header, now, expected) in [
            ("120", 0.0, Some(120)),
            (" 5 ", 0.0, Some(5)),
            ("Wed, 21 Oct 2015 07:28:00 GMT", at - 90_500.0, Some(91)),
            ("Wed, 21 Oct 2015 07:28:00 GMT", at + 10_000.0, Some(0)),
            ("soon", 0.0, None),
            ("-1", 0.0, None),
        ] {
            assert_eq!(retry_after_seconds(header, now), expected, "{header:?}");
        }
    }
}
