//! A burst of keep-alive connections, as a browser opens when a page loads: every connection
//! must be answered while the others stay open.
//!
//! tiny_http runs each connection as one task of its thread pool until the client closes it.
//! `TaskPool::spawn` queues a task whenever any thread counts as waiting; a thread woken for a
//! task still counts as waiting until it has taken it, so a task queued in that moment may find
//! no thread and wait for a running task to end, which a kept-alive connection never does. A new
//! server's pool has 4 waiting threads, so the first burst it sees is the one most likely to lose
//! a connection: each round starts a new server.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::Duration;

#[test]
fn every_connection_of_a_keep_alive_burst_is_answered() {
    for round in 0..20 {
        let server = Arc::new(tiny_http::Server::http("127.0.0.1:0").unwrap());
        let addr = server.server_addr().to_ip().unwrap();
        let answering = {
            let server = Arc::clone(&server);
            std::thread::spawn(move || {
                while let Ok(request) = server.recv() {
                    let _ = request.respond(tiny_http::Response::from_string("ok"));
                }
            })
        };
        // Twelve connections, each sending one request and staying open.
        let streams: Vec<TcpStream> = (0..12)
            .map(|_| {
                let mut stream = TcpStream::connect(addr).unwrap();
                stream
                    .write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
                    .unwrap();
                stream
            })
            .collect();
        for (n, mut stream) in streams.iter().enumerate() {
            stream
                .set_read_timeout(Some(Duration::from_secs(5)))
                .unwrap();
            let mut answer = [0; 64];
            let read = stream.read(&mut answer).unwrap_or_else(|err| {
                panic!("round {round}, connection {n}: no answer within 5 s ({err})")
            });
            assert!(
                answer[..read].starts_with(b"HTTP/1.1 200"),
                "round {round}, connection {n}"
            );
        }
        drop(streams);
        server.unblock();
        answering.join().unwrap();
    }
}
