//! Where a crawl's articles and responses go: a folder that is also the crawl's journal, so a
//! run killed at any moment and run again gives every article once.
//!
//! - Articles as JSON Lines go to `articles.jsonl`; in any other format, each to a file named
//!   after its URL (its last path segment and a hash of the whole URL: the same URL, the same
//!   name, run after run), written atomically.
//! - `crawl.journal` gets a line per article once it is in every output (`<url>\t<length of
//!   articles.jsonl>`): after its line or file is written, and, with an index, after the
//!   index's commit that holds it. A run reads the journal first: the URLs in it are done, and
//!   `articles.jsonl` is cut back to the length its last line gives (what a killed run wrote
//!   past it is written again, once).
//! - With WARC output, every response goes, as a `response` record, to a new
//!   `responses-<n>.warc.gz` per run, but those the files of earlier runs hold.

use crate::article::{Article, Format};
use crate::output::io;
use crate::fetch::{Fetched, Location};
use crate::Result;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The journal's file name.
pub const JOURNAL: &str = "crawl.journal";
/// The JSON Lines file's name.
pub const JSONL: &str = "articles.jsonl";

/// A crawl's output folder; see the [module](self) documentation.
pub struct Output {
    dir: PathBuf,
    format: Format,
    jsonl: Option<(std::fs::File, u64)>,
    journal: std::fs::File,
    done: HashSet<String>,
    index: Option<crate::index::ArticleWriter>,
    /// Articles written but not yet in a commit of the index.
    pending: Vec<String>,
    warc: Option<(crate::warc::Writer<std::fs::File>, HashSet<String>)>,
    /// Articles written by this run.
    pub written: usize,
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Output").field("dir", &self.dir).field("format", &self.format).field("done", &self.done.len()).finish_non_exhaustive()
    }
}

impl Output {
    /// The output folder `dir` (created when absent), its journal read: articles in `format`,
    /// also added to the `index` when one is given, and responses to a WARC file when `warc`.
    ///
    /// # Errors
    /// [`crate::Error::Io`] when the folder or its files cannot be read or written; the index's errors.
    pub fn open(dir: &Path, format: Format, index: Option<&Path>, warc: bool) -> Result<Output> {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let journal_path = dir.join(JOURNAL);
        let text = match std::fs::read(&journal_path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io(&journal_path)(e)),
        };
        // Whole lines only: a line cut by a kill is not done.
        let whole = text.rfind('\n').map_or("", |i| &text[..=i]);
        let mut done = HashSet::new();
        let mut jsonl_len = 0u64;
        for line in whole.lines() {
            if let Some((url, len)) = line.split_once('\t') {
                done.insert(url.to_string());
                jsonl_len = len.trim().parse().unwrap_or(jsonl_len);
            }
        }
        let mut journal = std::fs::OpenOptions::new().create(true).write(true).truncate(false).open(&journal_path).map_err(io(&journal_path))?;
        journal.set_len(whole.len() as u64).map_err(io(&journal_path))?;
        std::io::Seek::seek(&mut journal, std::io::SeekFrom::End(0)).map_err(io(&journal_path))?;
        let jsonl = if format == Format::Jsonl {
            let path = dir.join(JSONL);
            let mut f = std::fs::OpenOptions::new().create(true).write(true).truncate(false).open(&path).map_err(io(&path))?;
            let len = f.metadata().map_err(io(&path))?.len().min(jsonl_len);
            f.set_len(len).map_err(io(&path))?;
            std::io::Seek::seek(&mut f, std::io::SeekFrom::End(0)).map_err(io(&path))?;
            Some((f, len))
        } else {
            None
        };
        let index = match index {
            Some(d) => Some(crate::index::ArticleIndex::open_or_create(d)?.writer(0)?),
            None => None,
        };
        let warc = if warc { Some(open_warc(dir)?) } else { None };
        Ok(Output { dir: dir.to_path_buf(), format, jsonl, journal, done, index, pending: Vec::new(), warc, written: 0 })
    }

    /// The URLs of the articles earlier runs wrote (the crawl passes them over).
    pub fn done(&self) -> &HashSet<String> {
        &self.done
    }

    /// Write `article` (the page at `loc`) to every output.
    ///
    /// # Errors
    /// [`crate::Error::Io`] when a file cannot be written; the index's errors.
    pub fn article(&mut self, loc: &Location, article: &Article) -> Result<()> {
        let url = loc.to_string();
        let body = article.render(self.format);
        match &mut self.jsonl {
            Some((f, len)) => {
                let path = self.dir.join(JSONL);
                let line = format!("{}\n", body.trim_end());
                f.write_all(line.as_bytes()).map_err(io(&path))?;
                *len += line.len() as u64;
            }
            None => {
                let path = self.dir.join(file_name(&url, self.format.ext()));
                crate::store::write_atomic(&path, body.as_bytes()).map_err(io(&path))?;
            }
        }
        self.written += 1;
        self.pending.push(url);
        match &mut self.index {
            Some(index) => {
                index.add(article)?;
                if index.pending() == 0 {
                    self.checkpoint()?;
                }
            }
            None => self.checkpoint()?,
        }
        Ok(())
    }

    /// Add the articles written since the last checkpoint to the journal.
    fn checkpoint(&mut self) -> Result<()> {
        let len = self.jsonl.as_ref().map_or(0, |(_, len)| *len);
        let path = self.dir.join(JOURNAL);
        let mut lines = String::new();
        for url in self.pending.drain(..) {
            lines.push_str(&format!("{}\t{len}\n", url.replace(['\t', '\n'], " ")));
        }
        self.journal.write_all(lines.as_bytes()).map_err(io(&path))
    }

    /// Write `response` to the WARC file, unless an earlier run's holds its URL.
    ///
    /// # Errors
    /// [`crate::Error::Io`] when the WARC file cannot be written.
    pub fn response(&mut self, response: &Fetched) -> Result<()> {
        let Some((writer, earlier)) = &mut self.warc else { return Ok(()) };
        let Location::Url(url) = &response.location else { return Ok(()) };
        if !earlier.insert(url.to_string()) {
            return Ok(());
        }
        let mut headers: Vec<(&str, &str)> = Vec::new();
        for (name, value) in [("Content-Type", &response.content_type), ("ETag", &response.etag), ("Last-Modified", &response.last_modified)] {
            if let Some(v) = value {
                headers.push((name, v));
            }
        }
        let path = self.dir.clone();
        writer.response(url.as_str(), &now_iso(), &headers, &response.bytes).map_err(io(&path))
    }

    /// Commit the index, finish the journal and the WARC file; returns the articles written.
    ///
    /// # Errors
    /// As [`Output::article`].
    pub fn finish(mut self) -> Result<usize> {
        if let Some(index) = self.index.take() {
            index.finish()?;
        }
        self.checkpoint()?;
        if let Some((writer, _)) = self.warc.take() {
            writer.finish().map_err(io(&self.dir))?;
        }
        Ok(self.written)
    }
}

/// A new `responses-<n>.warc.gz` in `dir`, and the URLs the earlier ones hold.
fn open_warc(dir: &Path) -> Result<(crate::warc::Writer<std::fs::File>, HashSet<String>)> {
    let mut earlier = HashSet::new();
    let mut n = 1;
    loop {
        let path = dir.join(format!("responses-{n}.warc.gz"));
        if !path.exists() {
            let file = std::fs::File::create_new(&path).map_err(io(&path))?;
            return Ok((crate::warc::Writer::gzip(file), earlier));
        }
        // A record cut by a kill ends the file's reading; the records before it count.
        if let Ok(mut reader) = crate::warc::Reader::open(&path) {
            while let Some(Ok(record)) = reader.next_record() {
                if let Some(uri) = record.target_uri {
                    earlier.insert(uri);
                }
            }
        }
        n += 1;
    }
}

/// A file name for the article of `url`: its last path segment, made safe, and a hash of the
/// whole URL.
pub fn file_name(url: &str, ext: &str) -> String {
    let last = url.split(['?', '#']).next().unwrap_or(url).trim_end_matches('/').rsplit('/').next().unwrap_or("");
    let stem = last.rsplit_once('.').map_or(last, |(s, _)| s);
    let safe: String = stem.chars().map(|c| if c.is_alphanumeric() || matches!(c, '-' | '_') { c } else { '_' }).take(80).collect();
    let safe = if safe.is_empty() { "index".to_string() } else { safe };
    format!("{safe}-{:08x}.{ext}", crate::template::hash_str(url) as u32)
}

/// Now as an ISO 8601 UTC time (`2026-11-27T10:38:16Z`), for WARC dates.
fn now_iso() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_and_the_same_for_the_same_url() {
        let a = file_name("https://a.example/2024/05/my-post/", "md");
        assert!(a.starts_with("my-post-") && a.ends_with(".md"), "{a}");
        assert_eq!(a, file_name("https://a.example/2024/05/my-post/", "md"));
        assert_ne!(a, file_name("https://a.example/2023/05/my-post/", "md"));
        assert!(!file_name("https://a.example/..%2F..%2Fetc/", "md").contains('/'));
        assert_eq!(now_iso().len(), 20);
    }
}
