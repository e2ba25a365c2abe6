//! A small static file server that behaves like a plain static host (GitHub Pages), so that what
//! passes locally passes when published: paths are answered as [`static_host::resolve`] says
//! (files under the public URL, directories by their `index.html`, a directory named without its
//! trailing slash redirected, anything else 404 with the content of `404.html`, the SPA fallback
//! that `dist` writes), with [`static_host::content_type`].
//!
//! [`spawn`] runs it on background threads and returns at once with the bound address, so the
//! tests can serve a build on an ephemeral port (port 0) and stop it by dropping the handle.

use std::fs::File;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, ensure};
use local_server::Workers;
use local_server::tiny_http::{Header, Method, Request, Response, StatusCode};
use static_host::{Resolved, content_type};

/// How many requests are answered at once (a browser opens a few connections in parallel).
const WORKERS: usize = 4;

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
    };
    let workers = Workers::spawn(
        SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
        WORKERS,
        move |request| site.respond(request),
    )
    .map_err(|err| anyhow!("cannot listen on 127.0.0.1:{port}: {err} (try another --port)"))?;
    Ok(ServerHandle {
        addr: workers.addr(),
        public_url: public_url.to_owned(),
        workers,
    })
}

/// A built site and the path it is published under.
#[derive(Debug)]
struct Site {
    dir: PathBuf,
    public_url: String,
}

impl Site {
    fn respond(&self, request: Request) -> std::io::Result<()> {
        if !matches!(request.method(), Method::Get | Method::Head) {
            let response = Response::from_string("405 Method Not Allowed\n")
                .with_status_code(405)
                .with_header(header("Allow", "GET, HEAD"));
            return request.respond(response);
        }
        match self.resolve(request.url()) {
            Resolved::File(path) => match File::open(self.dir.join(&path)) {
                Ok(file) => request.respond(
                    Response::from_file(file)
                        // Always a Content-Length, never chunked, like a static host.
                        .with_chunked_threshold(usize::MAX)
                        .with_header(header("Content-Type", content_type(&path)))
                        .with_header(header("Cache-Control", "no-cache")),
                ),
                Err(_) => request.respond(self.missing()),
            },
            Resolved::Redirect(location) => request.respond(
                Response::from_string(format!("301 Moved Permanently: {location}\n"))
                    .with_status_code(301)
                    .with_header(header("Location", &location)),
            ),
            Resolved::Missing => request.respond(self.missing()),
            Resolved::Outside => request.respond(
                Response::from_string(format!(
                    "404 Not Found: this server only serves {}\n",
                    self.public_url
                ))
                .with_status_code(404),
            ),
        }
    }

    /// The 404 answer: the content of `404.html`, or a line of text when there is none.
    fn missing(&self) -> Response<std::io::Cursor<Vec<u8>>> {
        let not_found = StatusCode(404);
        match std::fs::read(self.dir.join("404.html")) {
            Ok(html) => Response::from_data(html)
                .with_status_code(not_found)
                .with_header(header("Content-Type", "text/html; charset=utf-8")),
            Err(_) => Response::from_string("404 Not Found\n").with_status_code(not_found),
        }
    }

    /// Maps a request target (path and query) to what to answer.
    fn resolve(&self, target: &str) -> Resolved {
        static_host::resolve(&self.public_url, target, |path| {
            self.dir.join(path).is_file()
        })
    }
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

    /// A throwaway site: `index.html`, `404.html`, `app.wasm`, `agents/x/index.html`.
    fn fixture(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-serve-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("agents/x")).unwrap();
        std::fs::write(dir.join("index.html"), "<title>home</title>").unwrap();
        std::fs::write(dir.join("404.html"), "<title>fallback</title>").unwrap();
        std::fs::write(dir.join("app.wasm"), b"\0asm").unwrap();
        std::fs::write(dir.join("agents/x/index.html"), "agent x").unwrap();
        dir
    }

    fn get(addr: SocketAddr, path: &str) -> String {
        let mut stream = TcpStream::connect(addr).unwrap();
        write!(stream, "GET {path} HTTP/1.0\r\nHost: localhost\r\n\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    }

    #[test]
    fn serves_files_and_the_fallback_over_http() {
        let dir = fixture("http");
        let server = spawn(&dir, "/", 0).unwrap();
        assert!(server.url().starts_with("http://127.0.0.1:"));

        let home = get(server.addr, "/");
        assert!(
            home.starts_with("HTTP/1.0 200") || home.starts_with("HTTP/1.1 200"),
            "{home}"
        );
        assert!(home.contains("text/html; charset=utf-8") && home.ends_with("<title>home</title>"));

        let wasm = get(server.addr, "/app.wasm");
        assert!(wasm.contains("application/wasm"), "{wasm}");

        let deep = get(server.addr, "/agents/gemini");
        assert!(
            deep.contains(" 404 ") && deep.ends_with("<title>fallback</title>"),
            "{deep}"
        );
        drop(server);
    }
}
