//! A tiny HTTP/1.1 server on 127.0.0.1 for tests: serves fixed routes, never reaches further.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

/// A response: status, content type, body.
#[derive(Clone)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn ok(content_type: &'static str, body: impl Into<Vec<u8>>) -> Reply {
        Reply { status: 200, content_type, body: body.into() }
    }
}

/// A running server; `base` is `http://127.0.0.1:PORT`. Requests seen are counted per path.
pub struct Server {
    pub base: String,
    pub hits: Arc<Mutex<HashMap<String, usize>>>,
}

/// Serve `routes` (path → reply) on a fresh loopback port, for at most `max_requests` requests.
pub fn serve(routes: HashMap<String, Reply>, max_requests: usize) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let hits: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
    let seen = Arc::clone(&hits);
    std::thread::spawn(move || {
        for stream in listener.incoming().take(max_requests) {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
            let mut request = String::new();
            if reader.read_line(&mut request).is_err() {
                continue;
            }
            // Drain the headers.
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let path = request.split_whitespace().nth(1).unwrap_or("/").to_string();
            *seen.lock().expect("lock").entry(path.clone()).or_insert(0) += 1;
            let reply = routes
                .get(&path)
                .cloned()
                .unwrap_or(Reply { status: 404, content_type: "text/plain", body: b"not found".to_vec() });
            let head = format!(
                "HTTP/1.1 {} X\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                reply.status,
                reply.content_type,
                reply.body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&reply.body);
        }
    });
    Server { base, hits }
}
