//! The common part of the project's local HTTP servers (`cargo xtask serve`, the stand-in
//! AgentRegistry of `cargo xtask agentregistry-server`, `acp-registry preview`): a `tiny_http`
//! server whose requests are answered by a few worker threads, and that stops when dropped.
//!
//! The servers that stand in for a static host answer only what one answers, `GET` and `HEAD`:
//! [`read_only`] wraps their handler and answers any other method `405 Method Not Allowed`.
//!
//! ```
//! use std::net::{Ipv4Addr, SocketAddr};
//! use local_server::Workers;
//! use local_server::tiny_http::Response;
//!
//! let server = Workers::spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)), 2, |request| {
//!     request.respond(Response::from_string("hello"))
//! })
//! .unwrap();
//! println!("listening on http://{}", server.addr());
//! drop(server); // wakes the workers and joins them
//! ```

use std::fmt;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;

pub use tiny_http;
use tiny_http::{Header, Method, Request, Response, Server};

/// A listening server and the threads answering it; dropping it stops and joins them.
pub struct Workers {
    addr: SocketAddr,
    server: Arc<Server>,
    threads: Vec<JoinHandle<()>>,
}

impl Workers {
    /// Listens on `addr` (port 0 picks a free port, see [`Workers::addr`]) and answers every
    /// request with `respond` on one of `count` threads. An error `respond` returns (a client
    /// that hung up mid-response) is not the server's problem and is ignored.
    pub fn spawn<F>(addr: SocketAddr, count: usize, respond: F) -> io::Result<Workers>
    where
        F: Fn(Request) -> io::Result<()> + Send + Sync + 'static,
    {
        let server = Server::http(addr).map_err(io::Error::other)?;
        let addr = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| io::Error::other("the server is not listening on an IP address"))?;
        let server = Arc::new(server);
        let respond = Arc::new(respond);
        let threads = (0..count)
            .map(|_| {
                let server = Arc::clone(&server);
                let respond = Arc::clone(&respond);
                std::thread::spawn(move || {
                    while let Ok(request) = server.recv() {
                        let _ = respond(request);
                    }
                })
            })
            .collect();
        Ok(Workers {
            addr,
            server,
            threads,
        })
    }

    /// The address the server is bound to (with the real port when asked for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Blocks until the server stops (for a command, that is Ctrl-C or a kill).
    pub fn wait(mut self) {
        for thread in std::mem::take(&mut self.threads) {
            let _ = thread.join();
        }
    }
}

/// `respond`, for the methods a static host answers (`GET`, `HEAD`); any other is answered
/// `405 Method Not Allowed` with `Allow: GET, HEAD`, and never reaches `respond`.
pub fn read_only<F>(respond: F) -> impl Fn(Request) -> io::Result<()> + Send + Sync + 'static
where
    F: Fn(Request) -> io::Result<()> + Send + Sync + 'static,
{
    move |request| match request.method() {
        Method::Get | Method::Head => respond(request),
        _ => {
            let allow =
                Header::from_bytes(&b"Allow"[..], &b"GET, HEAD"[..]).expect("a valid header");
            request.respond(
                Response::from_string("405 Method Not Allowed\n")
                    .with_status_code(405)
                    .with_header(allow),
            )
        }
    }
}

impl fmt::Debug for Workers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Workers")
            .field("addr", &self.addr)
            .field("threads", &self.threads.len())
            .finish_non_exhaustive()
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        // Each call wakes one thread blocked in `recv`, which then leaves its loop.
        for _ in 0..self.threads.len() {
            self.server.unblock();
        }
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::net::{Ipv4Addr, TcpStream};
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    fn get(addr: SocketAddr) -> String {
        ask(addr, "GET")
    }

    /// The whole answer to a request for `/x` with this method.
    fn ask(addr: SocketAddr, method: &str) -> String {
        let mut stream = TcpStream::connect(addr).unwrap();
        let request = format!("{method} /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    }

    #[test]
    fn read_only_servers_answer_other_methods_405() {
        let server = Workers::spawn(
            SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            1,
            read_only(|request| request.respond(tiny_http::Response::from_string("file"))),
        )
        .unwrap();
        for (method, status, body) in [
            ("GET", "200 OK", Some("file")),
            ("HEAD", "200 OK", None),
            (
                "POST",
                "405 Method Not Allowed",
                Some("405 Method Not Allowed\n"),
            ),
            (
                "PUT",
                "405 Method Not Allowed",
                Some("405 Method Not Allowed\n"),
            ),
            (
                "DELETE",
                "405 Method Not Allowed",
                Some("405 Method Not Allowed\n"),
            ),
        ] {
            let answer = ask(server.addr(), method);
            let (head, rest) = answer.split_once("\r\n\r\n").unwrap();
            assert!(
                head.starts_with(&format!("HTTP/1.1 {status}")),
                "{method}: {head}"
            );
            let allow = head
                .lines()
                .any(|l| l.eq_ignore_ascii_case("Allow: GET, HEAD"));
            assert_eq!(allow, status != "200 OK", "{method}: {head}");
            if let Some(body) = body {
                assert_eq!(rest, body, "{method}");
            }
        }
    }

    #[test]
    fn answers_on_a_free_port_and_stops_when_dropped() {
        let served = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&served);
        let server = Workers::spawn(
            SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            3,
            move |request| {
                let n = counter.fetch_add(1, Ordering::SeqCst) + 1;
                let text = format!("{} #{n}", request.url());
                request.respond(tiny_http::Response::from_string(text))
            },
        )
        .unwrap();
        let addr = server.addr();
        assert_ne!(addr.port(), 0);
        assert!(get(addr).ends_with("/x #1"));
        assert!(get(addr).ends_with("/x #2"));
        drop(server);
        // Every worker has left and dropped its handle on the handler.
        assert_eq!(Arc::strong_count(&served), 1, "a worker is still running");
        assert_eq!(served.load(Ordering::SeqCst), 2);
        // `tiny_http` closes the socket from its own accept thread, soon after.
        let closed = (0..100).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            TcpStream::connect(addr).is_err()
        });
        assert!(closed, "still listening 2 s after the drop");
    }

    /// Browsers keep their connections open between requests, and open several at once: every
    /// connection of a burst is answered while the others stay open (tiny_http's thread pool
    /// once left one queued behind them: see `vendor/README.md`). A new server's pool has the
    /// fewest threads waiting, so its first burst is the likeliest to lose one: each round
    /// starts a new server.
    #[test]
    fn a_burst_of_keep_alive_connections_is_answered_while_they_stay_open() {
        for _ in 0..20 {
            let server = Workers::spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)), 4, |r| {
                r.respond(Response::from_string("ok"))
            })
            .unwrap();
            let streams: Vec<TcpStream> = (0..12)
                .map(|_| {
                    let mut stream = TcpStream::connect(server.addr()).unwrap();
                    stream
                        .write_all(b"GET /x HTTP/1.1\r\nHost: a\r\n\r\n")
                        .unwrap();
                    stream
                })
                .collect();
            for mut stream in streams.iter() {
                stream
                    .set_read_timeout(Some(std::time::Duration::from_secs(5)))
                    .unwrap();
                let mut answer = [0; 64];
                let read = stream.read(&mut answer).expect("answered within 5 s");
                assert!(answer[..read].starts_with(b"HTTP/1.1 200"));
            }
        }
    }

    #[test]
    fn a_taken_port_is_an_error() {
        let first = Workers::spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)), 1, |r| {
            r.respond(tiny_http::Response::empty(204))
        })
        .unwrap();
        assert!(
            Workers::spawn(first.addr(), 1, |r| r
                .respond(tiny_http::Response::empty(204)))
            .is_err()
        );
    }
}
