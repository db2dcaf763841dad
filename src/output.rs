//! Where articles go: a stream (standard output) or a folder with a file per article, and the
//! search index besides. `forest apply` and `forest crawl` write through it (the crawl's own
//! folder, with its journal, is [`crate::crawl::output`]).
//!
//! On a stream, several articles are one JSON array in `json`, a line each in `jsonl`, and in
//! the other formats each follows a `==> page <==` line. In a folder, each article's file is
//! named after its page ([`Location::stem`]), made safe, never reused within a run.

use crate::article::{Article, Format};
use crate::fetch::Location;
use crate::{Error, Result};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Articles written to a stream or a folder, and to an index; see the [module](self)
/// documentation.
pub struct Writer<W: Write> {
    format: Format,
    to: To<W>,
    index: Option<(crate::index::ArticleWriter, PathBuf)>,
    /// Articles written.
    pub written: usize,
}

enum To<W> {
    Stream { out: W, many: bool },
    Folder { dir: PathBuf, used: HashSet<String> },
}

impl<W: Write> std::fmt::Debug for Writer<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer").field("format", &self.format).field("written", &self.written).finish_non_exhaustive()
    }
}

/// An I/O error at `path` as the library's [`Error::Io`].
pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Io { path: path.to_path_buf(), source }
}

/// The name [`Error::Io`] gives a stream.
const STREAM: &str = "standard output";

impl<W: Write> Writer<W> {
    /// Articles in `format` to `out`; `many` when there may be several (arrays and headers).
    pub fn stream(out: W, format: Format, many: bool) -> Writer<W> {
        Writer { format, to: To::Stream { out, many }, index: None, written: 0 }
    }

    /// Articles in `format`, a file each, into `dir` (created when absent).
    ///
    /// # Errors
    /// [`Error::Io`] when the folder cannot be made.
    pub fn folder(dir: &Path, format: Format) -> Result<Writer<W>> {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        Ok(Writer { format, to: To::Folder { dir: dir.to_path_buf(), used: HashSet::new() }, index: None, written: 0 })
    }

    /// The articles' format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Also add every article to the index at `dir` (created on first use), `batch` articles
    /// a commit.
    ///
    /// # Errors
    /// The index's errors.
    pub fn with_index(mut self, dir: &Path, batch: usize) -> Result<Writer<W>> {
        self.index = Some((crate::index::ArticleIndex::open_or_create(dir)?.writer(batch)?, dir.to_path_buf()));
        Ok(self)
    }

    /// Write the article of the page at `loc`; `text` replaces its text in the output (the
    /// index keeps the whole text).
    ///
    /// # Errors
    /// [`Error::Io`] when it cannot be written; the index's errors.
    pub fn put(&mut self, loc: &Location, mut article: Article, text: Option<String>) -> Result<()> {
        if let Some((index, _)) = &mut self.index {
            index.add(&article)?;
        }
        if let Some(text) = text {
            article.text = text;
        }
        let body = article.render(self.format);
        match &mut self.to {
            To::Folder { dir, used } => {
                let path = dir.join(unique_name(used, &loc.stem(), self.format.ext()));
                crate::store::write_atomic(&path, body.as_bytes()).map_err(io(&path))?;
            }
            To::Stream { out, many } => {
                let stream = Path::new(STREAM);
                match self.format {
                    Format::Json if *many => {
                        out.write_all(if self.written == 0 { b"[\n" } else { b",\n" }).map_err(io(stream))?;
                        out.write_all(body.trim_end().as_bytes()).map_err(io(stream))?;
                    }
                    Format::Json | Format::Jsonl => out.write_all(body.as_bytes()).map_err(io(stream))?,
                    _ if *many => write!(out, "==> {loc} <==\n{body}").map_err(io(stream))?,
                    _ => out.write_all(body.as_bytes()).map_err(io(stream))?,
                }
            }
        }
        self.written += 1;
        Ok(())
    }

    /// Close the JSON array and commit the index; returns the articles added to the index and
    /// the articles it then holds.
    ///
    /// # Errors
    /// As [`Writer::put`].
    pub fn finish(self) -> Result<Option<(usize, usize)>> {
        if let (To::Stream { mut out, many: true }, Format::Json, 1..) = (self.to, self.format, self.written) {
            out.write_all(b"\n]\n").and_then(|()| out.flush()).map_err(io(Path::new(STREAM)))?;
        }
        match self.index {
            Some((index, dir)) => {
                let added = index.finish()?;
                Ok(Some((added, crate::index::ArticleIndex::open(&dir)?.len())))
            }
            None => Ok(None),
        }
    }
}

/// A file name from an untrusted stem: safe characters only, never a path, never one of `used`
/// (which it joins).
pub fn unique_name(used: &mut HashSet<String>, stem: &str, ext: &str) -> String {
    let mut safe: String = stem.chars().map(|c| if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' }).take(100).collect();
    // Hidden names, and the names Windows reserves for devices (CON, NUL, COM1, …), get a `_`.
    let device = safe.split('.').next().is_some_and(|base| {
        let b = base.to_ascii_uppercase();
        matches!(b.as_str(), "CON" | "PRN" | "AUX" | "NUL") || ((b.starts_with("COM") || b.starts_with("LPT")) && b.len() == 4 && b.as_bytes()[3].is_ascii_digit())
    });
    if safe.is_empty() || safe.starts_with('.') || device {
        safe.insert(0, '_');
    }
    let mut name = format!("{safe}.{ext}");
    let mut n = 2;
    while !used.insert(name.clone()) {
        name = format!("{safe}-{n}.{ext}");
        n += 1;
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_and_unique() {
        let mut used = HashSet::new();
        assert_eq!(unique_name(&mut used, "story", "txt"), "story.txt");
        assert_eq!(unique_name(&mut used, "story", "txt"), "story-2.txt");
        assert_eq!(unique_name(&mut used, "../etc/passwd", "txt"), "_.._etc_passwd.txt");
        assert_eq!(unique_name(&mut used, "con", "txt"), "_con.txt");
        assert_eq!(unique_name(&mut used, "", "txt"), "_.txt");
    }

    #[test]
    fn several_json_articles_are_one_array_and_text_ones_get_headers() {
        let article = |url: &str| Article { url: Some(url.into()), text: "Body.".into(), ..Article::default() };
        let (a, b) = (Location::parse("https://a.example/one"), Location::parse("https://a.example/two"));
        let mut w = Writer::stream(Vec::new(), Format::Json, true);
        w.put(&a, article("https://a.example/one"), None).unwrap();
        w.put(&b, article("https://a.example/two"), Some("Other.".into())).unwrap();
        let To::Stream { out, .. } = &w.to else { unreachable!() };
        let json: serde_json::Value = serde_json::from_slice(&[out.as_slice(), b"\n]\n"].concat()).unwrap();
        assert_eq!(json[1]["text"], "Other.");
        let mut w = Writer::stream(Vec::new(), Format::Text, true);
        w.put(&a, article("https://a.example/one"), None).unwrap();
        let To::Stream { out, .. } = &w.to else { unreachable!() };
        assert!(String::from_utf8_lossy(out).starts_with("==> https://a.example/one <==\nBody."));
    }
}
