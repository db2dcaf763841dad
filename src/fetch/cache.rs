//! The on-disk cache of fetched URLs.
//!
//! One file per URL, named by a hash of it: a line of JSON (the URL, where it ended after
//! redirects, content type, ETag, Last-Modified), then the body's bytes. A file is written to a
//! temporary name and renamed into place, so a run killed at any moment leaves either the old
//! entry or the new one, never half of one. An entry whose recorded URL differs from the one
//! asked (a hash collision) or that does not parse is ignored.

use super::{Fetched, Location};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What the cache keeps besides the body.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct Meta {
    url: String,
    final_url: String,
    content_type: Option<String>,
    etag: Option<String>,
    last_modified: Option<String>,
}

/// A cached response.
#[derive(Debug, Clone)]
pub struct Entry {
    meta: Meta,
    body: Vec<u8>,
    /// The ETag to revalidate with.
    pub etag: Option<String>,
    /// The Last-Modified date to revalidate with.
    pub last_modified: Option<String>,
}

impl Entry {
    /// The cached response as a fetch result (marked as from the cache).
    pub fn into_fetched(self, asked: &url::Url) -> Fetched {
        let location = url::Url::parse(&self.meta.final_url).map_or_else(|_| Location::Url(asked.clone()), Location::Url);
        Fetched {
            location,
            bytes: self.body,
            content_type: self.meta.content_type,
            from_cache: true,
            etag: self.etag,
            last_modified: self.last_modified,
        }
    }
}

/// A cache folder.
pub struct Cache {
    dir: PathBuf,
}

/// FNV-1a, 64 bits: a stable file name for a URL.
fn key(url: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in url.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

impl Cache {
    /// A cache in `dir` (created on first store).
    pub fn new(dir: &Path) -> Cache {
        Cache { dir: dir.to_path_buf() }
    }

    fn path(&self, url: &str) -> PathBuf {
        self.dir.join(format!("{}.entry", key(url)))
    }

    /// The cached response for `url`, if a whole one is there.
    pub fn load(&self, url: &str) -> Option<Entry> {
        let bytes = std::fs::read(self.path(url)).ok()?;
        let nl = bytes.iter().position(|&b| b == b'\n')?;
        let meta: Meta = serde_json::from_slice(&bytes[..nl]).ok()?;
        if meta.url != url {
            return None;
        }
        Some(Entry { etag: meta.etag.clone(), last_modified: meta.last_modified.clone(), meta, body: bytes[nl + 1..].to_vec() })
    }

    /// Keep a response for `url` (atomically).
    ///
    /// # Errors
    /// I/O errors creating the folder or writing the file.
    pub fn store(&self, url: &str, f: &Fetched) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let meta = Meta {
            url: url.to_string(),
            final_url: f.location.to_string(),
            content_type: f.content_type.clone(),
            etag: f.etag.clone(),
            last_modified: f.last_modified.clone(),
        };
        let target = self.path(url);
        let tmp = self.dir.join(format!(".{}.{}.{:?}.tmp", key(url), std::process::id(), std::thread::current().id()));
        let mut file = std::fs::File::create(&tmp)?;
        let write = (|| {
            file.write_all(&serde_json::to_vec(&meta).map_err(std::io::Error::other)?)?;
            file.write_all(b"\n")?;
            file.write_all(&f.bytes)?;
            file.sync_all()
        })();
        if let Err(e) = write.and_then(|()| std::fs::rename(&tmp, &target)) {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_collisions_are_ignored() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = Cache::new(tmp.path());
        let url = url::Url::parse("http://127.0.0.1:1/a.html").unwrap();
        let f = Fetched {
            location: Location::Url(url.clone()),
            bytes: b"<p>x\ny</p>".to_vec(),
            content_type: Some("text/html".into()),
            from_cache: false,
            etag: Some("\"v1\"".into()),
            last_modified: None,
        };
        cache.store(url.as_str(), &f).unwrap();
        let e = cache.load(url.as_str()).unwrap();
        assert_eq!(e.etag.as_deref(), Some("\"v1\""));
        let back = e.into_fetched(&url);
        assert!(back.from_cache);
        assert_eq!(back.bytes, f.bytes);
        assert!(cache.load("http://127.0.0.1:1/other").is_none());
        // A damaged entry is ignored, not an error.
        std::fs::write(cache.path(url.as_str()), b"garbage").unwrap();
        assert!(cache.load(url.as_str()).is_none());
    }
}
