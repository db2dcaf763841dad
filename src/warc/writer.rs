//! The WARC/1.1 writer: records for tests, benches and anyone building an archive.

use super::*;

/// Writes WARC/1.1 records, plain or gzipped one member per record (as Common Crawl does).
///
/// Record ids are `<urn:uuid:…>` made from a hash of the record and a counter: the same
/// input gives the same file. Give it a buffered `W` (a `BufWriter`) when writing plain.
pub struct Writer<W: Write> {
    out: W,
    gzip: Option<Compression>,
    count: u64,
}

impl<W: Write> Writer<W> {
    /// A writer of a plain `.warc`.
    pub fn new(out: W) -> Self {
        Writer { out, gzip: None, count: 0 }
    }

    /// A writer of a `.warc.gz`, each record its own gzip member.
    pub fn gzip(out: W) -> Self {
        Writer { out, gzip: Some(Compression::default()), count: 0 }
    }

    /// A `warcinfo` record describing the file: `fields` as `application/warc-fields`.
    ///
    /// # Errors
    /// Write errors.
    pub fn warcinfo(&mut self, date: &str, fields: &[(&str, &str)]) -> io::Result<()> {
        let mut block = String::new();
        for (k, v) in fields {
            block.push_str(&format!("{}: {}\r\n", clean_field(k), clean_field(v)));
        }
        let head = [("WARC-Date", date), ("Content-Type", "application/warc-fields")];
        self.write("warcinfo", &head, &[block.as_bytes()])
    }

    /// A `response` record: `HTTP/1.1 200 OK`, `http_headers` (plus `Content-Length` when
    /// missing), then `body`.
    ///
    /// # Errors
    /// Write errors.
    pub fn response(&mut self, uri: &str, date: &str, http_headers: &[(&str, &str)], body: &[u8]) -> io::Result<()> {
        let mut head = String::from("HTTP/1.1 200 OK\r\n");
        for (k, v) in http_headers {
            head.push_str(&format!("{}: {}\r\n", clean_field(k), clean_field(v)));
        }
        if field_pairs(http_headers, "Content-Length").is_none() {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let fields = [("WARC-Target-URI", uri), ("WARC-Date", date), ("Content-Type", "application/http; msgtype=response")];
        self.write("response", &fields, &[head.as_bytes(), body])
    }

    /// A `resource` record: `body` as is, of type `content_type`.
    ///
    /// # Errors
    /// Write errors.
    pub fn resource(&mut self, uri: &str, date: &str, content_type: &str, body: &[u8]) -> io::Result<()> {
        self.write("resource", &[("WARC-Target-URI", uri), ("WARC-Date", date), ("Content-Type", content_type)], &[body])
    }

    /// Any record: `WARC-Type`, a `WARC-Record-ID`, `fields` (give `WARC-Date`), the exact
    /// `Content-Length`, then `block`.
    ///
    /// # Errors
    /// Write errors.
    pub fn record(&mut self, warc_type: &str, fields: &[(&str, &str)], block: &[u8]) -> io::Result<()> {
        self.write(warc_type, fields, &[block])
    }

    /// Flush and give back the output.
    ///
    /// # Errors
    /// Write errors.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }

    fn write(&mut self, warc_type: &str, fields: &[(&str, &str)], block: &[&[u8]]) -> io::Result<()> {
        self.count += 1;
        let length: usize = block.iter().map(|b| b.len()).sum();
        let mut hash = Fnv::default();
        hash.add(warc_type.as_bytes());
        for (k, v) in fields {
            hash.add(k.as_bytes());
            hash.add(v.as_bytes());
        }
        block.iter().for_each(|b| hash.add(b));
        let a = splitmix(hash.0 ^ self.count);
        let b = splitmix(a ^ length as u64);
        let id = format!(
            "<urn:uuid:{:08x}-{:04x}-{:04x}-{:04x}-{:012x}>",
            a >> 32,
            (a >> 16) & 0xffff,
            0x4000 | (a & 0x0fff),
            0x8000 | ((b >> 48) & 0x3fff),
            b & 0xffff_ffff_ffff
        );
        let mut head = format!("WARC/1.1\r\nWARC-Type: {}\r\nWARC-Record-ID: {id}\r\n", clean_field(warc_type));
        for (k, v) in fields {
            head.push_str(&format!("{}: {}\r\n", clean_field(k), clean_field(v)));
        }
        head.push_str(&format!("Content-Length: {length}\r\n\r\n"));
        let put = |w: &mut dyn Write| -> io::Result<()> {
            w.write_all(head.as_bytes())?;
            for part in block {
                w.write_all(part)?;
            }
            w.write_all(b"\r\n\r\n")
        };
        match self.gzip {
            None => put(&mut self.out),
            Some(level) => {
                let mut gz = flate2::write::GzEncoder::new(&mut self.out, level);
                put(&mut gz)?;
                gz.finish().map(drop)
            }
        }
    }
}

/// A header name or value on one line.
fn clean_field(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

/// FNV-1a, 64 bits.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}


fn field_pairs<'a>(headers: &[(&str, &'a str)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|&(_, v)| v)
}
