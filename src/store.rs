//! Store: the wrappers a user keeps, one file per site host, so `forest apply` can pick the
//! right one for any page tomorrow.
//!
//! Layout: a folder (default `$XDG_DATA_HOME/forest/wrappers`, else
//! `~/.local/share/forest/wrappers`) holding `<host>.json` (a forest wrapper, written by
//! `forest induce`) and `<host>.txt` (a FiveFilters site config, imported by the user). The
//! host is the key: lower-case, IDNA (punycode), no port, no leading `www.`; it is checked to be
//! a plain host name before it becomes a file name, so a host taken from a feed or a page can
//! never name a path outside the store. A page of `news.example.org` finds the entry of
//! `news.example.org`, else of `example.org` (as FiveFilters' `.example.org.txt` does).
//!
//! Every file is written atomically ([`write_atomic`]): a run killed at any moment leaves the
//! old wrapper or the new one.

use crate::{Error, Result, Wrapper};
use std::path::{Path, PathBuf};

/// What a store entry holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A forest wrapper (`<host>.json`).
    Wrapper,
    /// A FiveFilters site config (`<host>.txt`).
    SiteConfig,
}

impl Kind {
    /// Its name (`wrapper`, `site-config`), as in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Wrapper => "wrapper",
            Kind::SiteConfig => "site-config",
        }
    }

    fn ext(self) -> &'static str {
        match self {
            Kind::Wrapper => "json",
            Kind::SiteConfig => "txt",
        }
    }
}

/// One stored wrapper or site config.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Entry {
    /// The host key.
    pub host: String,
    /// Wrapper or site config.
    pub kind: Kind,
    /// Its file.
    pub path: PathBuf,
}

/// A site config imported into a store ([`Store::import_site_config`]).
#[derive(Debug)]
pub struct Imported {
    /// Its file in the store.
    pub path: PathBuf,
    /// Whether it replaced the host's site config.
    pub replaced: bool,
    /// What its file says that forest reads differently or not at all, by line.
    pub warnings: Vec<crate::ftr::Warning>,
}

/// How a stored wrapper does on the pages it is applied to, kept beside it (`<host>.health`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Health {
    /// Pages it was applied to since it was stored.
    pub pages: u64,
    /// Of those, pages its own rules failed on: neither its pattern, nor its type, nor an
    /// alternative was on the page (a runner-up candidate or the single-page extractor took
    /// over), or the single-page extractor disagreed with it and was taken.
    pub failed: u64,
    /// The last outcomes, oldest first (`true`: its rules held), at most [`HEALTH_WINDOW`].
    pub recent: Vec<bool>,
}

/// Outcomes a [`Health`] keeps.
pub const HEALTH_WINDOW: usize = 20;

/// A site has drifted from its wrapper when the wrapper failed on most of its last this many
/// pages.
pub const DRIFT_PAGES: usize = 5;

impl Health {
    /// Has the site changed under its wrapper? Its rules failed on most of its last
    /// [`DRIFT_PAGES`] pages.
    pub fn drifted(&self) -> bool {
        let last = &self.recent[self.recent.len().saturating_sub(DRIFT_PAGES)..];
        last.len() == DRIFT_PAGES && 2 * last.iter().filter(|&&ok| !ok).count() > DRIFT_PAGES
    }
}

/// What a store knows of one of its entries: its rules, how old they are, how they did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    /// The host key.
    pub host: String,
    /// Wrapper or site config.
    pub kind: Kind,
    /// The wrapper's XPath (a site config's `body` XPaths, ` | ` between them), or why the file
    /// could not be read.
    pub xpath: String,
    /// The sample pages it was learned from (a site config's test URLs).
    pub pages: usize,
    /// Its file.
    pub path: PathBuf,
    /// Days since the file was written.
    pub age_days: Option<u64>,
    /// Pages its rules were applied to since it was stored.
    pub applied: u64,
    /// Of those, pages they failed on.
    pub failed: u64,
    /// Did the site drift from it ([`Health::drifted`])?
    pub drifted: bool,
}

/// How a store's rules did on the pages a run extracted with them, per host, until
/// [`Outcomes::record`] adds them to the store's health records: whoever extracts with a store
/// (the command line, Python, Spark) keeps its wrappers' health the same way.
#[derive(Debug, Default)]
pub struct Outcomes {
    /// Per host: whether its rules held on each page, in order, and the last page they failed on.
    hosts: std::collections::HashMap<String, (Vec<bool>, Option<String>)>,
}

/// A site whose wrapper failed on most of its last [`DRIFT_PAGES`] pages ([`Health::drifted`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Drift {
    /// The store's host key.
    pub host: String,
    /// Pages of the last [`DRIFT_PAGES`] its rules failed on.
    pub failed: usize,
    /// The last page they failed on in this run (the page to learn the site again from).
    pub last_failure: Option<String>,
}

impl std::fmt::Display for Drift {
    /// What the CLI, Python and Spark say of it: `the wrapper of example.org failed on 4 of
    /// its last 5 pages: the site may have changed`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the wrapper of {} failed on {} of its last {} pages: the site may have changed", self.host, self.failed, DRIFT_PAGES)
    }
}

impl Outcomes {
    /// Count `article`'s outcome when a site's rules were applied to it ([`crate::Rule::rules_held`]).
    pub fn add(&mut self, article: &crate::Article) {
        let (Some(host), Some(held)) = (&article.host, article.rule.rules_held()) else { return };
        let entry = self.hosts.entry(host.clone()).or_default();
        entry.0.push(held);
        if !held {
            entry.1 = Some(article.key().to_string());
        }
    }

    /// No page was extracted with a site's rules.
    pub fn is_empty(&self) -> bool {
        self.hosts.is_empty()
    }

    /// Pages counted.
    pub fn pages(&self) -> usize {
        self.hosts.values().map(|(held, _)| held.len()).sum()
    }

    /// Add the outcomes to the health records of `store`'s wrappers (site configs keep none);
    /// returns the sites that drifted from their wrapper, and the hosts whose record could not
    /// be written, with why.
    pub fn record(self, store: &Store) -> (Vec<Drift>, Vec<(String, Error)>) {
        let mut hosts: Vec<_> = self.hosts.into_iter().collect();
        hosts.sort_by(|a, b| a.0.cmp(&b.0));
        let (mut drifted, mut failed) = (Vec::new(), Vec::new());
        for (host, (held, last_failure)) in hosts {
            let Ok(Some(entry)) = store.find(&host) else { continue };
            if entry.kind != Kind::Wrapper {
                continue;
            }
            match store.record(&entry.host, &held) {
                Ok(health) if health.drifted() => {
                    let failed = health.recent.iter().rev().take(DRIFT_PAGES).filter(|&&ok| !ok).count();
                    drifted.push(Drift { host: entry.host, failed, last_failure });
                }
                Ok(_) => {}
                Err(e) => failed.push((entry.host, e)),
            }
        }
        (drifted, failed)
    }
}

/// A folder of wrappers by host.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
}

/// The default store folder: `$XDG_DATA_HOME/forest/wrappers`, else
/// `~/.local/share/forest/wrappers`; `None` when neither variable is set.
pub fn default_dir() -> Option<PathBuf> {
    Some(crate::dirs::user_dir("XDG_DATA_HOME", ".local/share")?.join("forest").join("wrappers"))
}

impl Store {
    /// The store at `dir` (created when something is saved).
    pub fn new(dir: impl Into<PathBuf>) -> Store {
        Store { dir: dir.into() }
    }

    /// The store at [`default_dir`].
    ///
    /// # Errors
    /// [`Error::Invalid`] when no home or data folder is known (then pass a folder).
    pub fn open_default() -> Result<Store> {
        default_dir()
            .map(Store::new)
            .ok_or_else(|| Error::Invalid("no data folder known (neither XDG_DATA_HOME nor HOME is set): pass --store DIR".into()))
    }

    /// The store's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, key: &str, kind: Kind) -> PathBuf {
        self.dir.join(format!("{key}.{}", kind.ext()))
    }

    /// Save `wrapper` as the wrapper of `host`, replacing any; returns its file.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a bad host, [`Error::Io`] when the file cannot be written.
    pub fn save(&self, host: &str, wrapper: &Wrapper) -> Result<PathBuf> {
        self.save_bytes(host, Kind::Wrapper, wrapper.to_json()?.as_bytes())
    }

    /// [`Store::save`] when `replace`, else [`Store::add`]: returns the file and how many older
    /// templates were kept.
    ///
    /// # Errors
    /// As [`Store::save`].
    pub fn keep(&self, host: &str, wrapper: &Wrapper, replace: bool) -> Result<(PathBuf, usize)> {
        if replace {
            Ok((self.save(host, wrapper)?, 0))
        } else {
            self.add(host, wrapper)
        }
    }

    /// Save `wrapper` as the wrapper of `host`, keeping the templates of the wrapper stored
    /// there that it does not replace ([`Wrapper::keep_templates_of`]: a redesigned site keeps
    /// the rules of its earlier layout). Returns the file and how many older templates were
    /// kept. A stored file that does not read as a wrapper is replaced.
    ///
    /// # Errors
    /// As [`Store::save`].
    pub fn add(&self, host: &str, wrapper: &Wrapper) -> Result<(PathBuf, usize)> {
        let key = crate::host::key(host)?;
        let path = self.path(&key, Kind::Wrapper);
        let mut merged = wrapper.clone();
        let older = crate::fetch::read_file_within(&path, crate::wrapper::MAX_WRAPPER_BYTES)
            .ok()
            .and_then(|bytes| Wrapper::from_json(&bytes).ok().map(|w| (w, bytes)));
        let kept = match older {
            Some((older, bytes)) => {
                // The wrapper it replaces stays as `<host>.prev`, for [`Store::undo`]: written
                // atomically (a reader never sees it half written), and a link in its place is
                // replaced, not followed.
                let prev = self.dir.join(format!("{key}.prev"));
                write_atomic(&prev, &bytes).map_err(|source| Error::Io { path: prev, source })?;
                merged.keep_templates_of(&older)
            }
            None => 0,
        };
        let saved = self.save(host, &merged)?;
        // New rules start a new health record.
        let _ = std::fs::remove_file(self.dir.join(format!("{key}.health")));
        Ok((saved, kept))
    }

    /// Put back the wrapper [`Store::add`] replaced last; returns its file, `None` when there
    /// is none to put back.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a bad host, [`Error::Io`] when the files cannot be moved.
    pub fn undo(&self, host: &str) -> Result<Option<PathBuf>> {
        let key = crate::host::key(host)?;
        let prev = self.dir.join(format!("{key}.prev"));
        if !prev.is_file() {
            return Ok(None);
        }
        let path = self.path(&key, Kind::Wrapper);
        std::fs::rename(&prev, &path).map_err(|source| Error::Io { path: path.clone(), source })?;
        let _ = std::fs::remove_file(self.dir.join(format!("{key}.health")));
        Ok(Some(path))
    }

    /// The health record of `host`'s wrapper (none before it was applied).
    ///
    /// # Errors
    /// [`Error::Invalid`] for a bad host.
    pub fn health(&self, host: &str) -> Result<Option<Health>> {
        let key = crate::host::key(host)?;
        let bytes = match crate::fetch::read_file_within(&self.dir.join(format!("{key}.health")), MAX_HEALTH_BYTES) {
            Ok(b) => b,
            Err(_) => return Ok(None),
        };
        // A damaged record starts over.
        Ok(Some(serde_json::from_slice(&bytes).unwrap_or_default()))
    }

    /// Add the outcomes of pages `host`'s wrapper was applied to (`true`: its rules held), in
    /// order; returns the record.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a bad host, [`Error::Io`] when the record cannot be written.
    pub fn record(&self, host: &str, outcomes: &[bool]) -> Result<Health> {
        let key = crate::host::key(host)?;
        let mut h = self.health(&key)?.unwrap_or_default();
        h.pages += outcomes.len() as u64;
        h.failed += outcomes.iter().filter(|&&ok| !ok).count() as u64;
        h.recent.extend_from_slice(outcomes);
        let cut = h.recent.len().saturating_sub(HEALTH_WINDOW);
        h.recent.drain(..cut);
        let json = serde_json::to_vec(&h).map_err(|e| Error::Internal(e.to_string()))?;
        let path = self.dir.join(format!("{key}.health"));
        write_atomic(&path, &json).map_err(|source| Error::Io { path, source })?;
        Ok(h)
    }

    /// A [`Report`] of every entry, by host.
    ///
    /// # Errors
    /// [`Error::Io`] when the folder cannot be read.
    pub fn reports(&self) -> Result<Vec<Report>> {
        Ok(self.list()?.into_iter().map(|e| self.report_of(e)).collect())
    }

    fn report_of(&self, e: Entry) -> Report {
        let (xpath, pages) = match e.kind {
            Kind::Wrapper => match Wrapper::load(&e.path) {
                Ok(w) => (w.xpath, w.pages.len()),
                Err(err) => (format!("(unreadable: {err})"), 0),
            },
            Kind::SiteConfig => match crate::ftr::SiteConfig::load(&e.path) {
                Ok((c, _)) => (c.body.join(" | "), c.test_url.len()),
                Err(err) => (format!("(unreadable: {err})"), 0),
            },
        };
        let health = self.health(&e.host).ok().flatten().unwrap_or_default();
        let age_days = std::fs::metadata(&e.path).and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok()).map(|d| d.as_secs() / 86_400);
        Report {
            drifted: health.drifted(),
            host: e.host,
            kind: e.kind,
            xpath,
            pages,
            path: e.path,
            age_days,
            applied: health.pages,
            failed: health.failed,
        }
    }

    /// Save a FiveFilters site config's text for `host`; returns its file.
    ///
    /// # Errors
    /// As [`Store::save`].
    pub fn save_site_config(&self, host: &str, text: &str) -> Result<PathBuf> {
        self.save_bytes(host, Kind::SiteConfig, text.as_bytes())
    }

    /// Import the FiveFilters site config in `file` for `host` (else the host its file name
    /// says: `example.org.txt`, `.example.org.txt`), checked as `apply` will use it (it parses,
    /// and every XPath it makes compiles); one already stored for the host is replaced only
    /// when `force`.
    ///
    /// # Errors
    /// As [`crate::ftr::SiteConfig::load`] and [`crate::ftr::ConfigApplier::new`];
    /// [`Error::Invalid`] for a bad host, or for a host whose site config is stored when not
    /// `force`; as [`Store::save`].
    pub fn import_site_config(&self, file: &Path, host: Option<&str>, force: bool) -> Result<Imported> {
        let bytes = crate::fetch::read_file_within(file, crate::ftr::MAX_CONFIG_BYTES)?;
        let text = String::from_utf8_lossy(&bytes);
        let (config, warnings) = crate::ftr::SiteConfig::parse(&text, &file.display().to_string())?;
        crate::ftr::ConfigApplier::new(config)?;
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let key = crate::host::key(host.unwrap_or_else(|| name.strip_suffix(".txt").unwrap_or(name).trim_start_matches('.')))?;
        let stored = self.path(&key, Kind::SiteConfig);
        let replaced = stored.is_file();
        if replaced && !force {
            let why = format!("it would replace the site config of {key} already stored ({}): pass --force to replace it", stored.display());
            return Err(Error::Invalid(why));
        }
        let path = self.save_site_config(&key, &text)?;
        Ok(Imported { path, replaced, warnings })
    }

    fn save_bytes(&self, host: &str, kind: Kind, bytes: &[u8]) -> Result<PathBuf> {
        let key = crate::host::key(host)?;
        std::fs::create_dir_all(&self.dir).map_err(|source| Error::Io { path: self.dir.clone(), source })?;
        let path = self.path(&key, kind);
        write_atomic(&path, bytes).map_err(|source| Error::Io { path: path.clone(), source })?;
        Ok(path)
    }

    /// The entry that serves pages of `host`: its own, else its parent domain's (a wrapper
    /// before a site config at each level).
    ///
    /// # Errors
    /// [`Error::Invalid`] for a bad host.
    pub fn find(&self, host: &str) -> Result<Option<Entry>> {
        let key = crate::host::key(host)?;
        let mut name = key.as_str();
        loop {
            for kind in [Kind::Wrapper, Kind::SiteConfig] {
                let path = self.path(name, kind);
                if path.is_file() {
                    return Ok(Some(Entry { host: name.to_string(), kind, path }));
                }
            }
            match name.split_once('.') {
                Some((_, parent)) if parent.contains('.') => name = parent,
                _ => return Ok(None),
            }
        }
    }

    /// Every entry, sorted by host.
    ///
    /// # Errors
    /// [`Error::Io`] when the folder exists but cannot be listed.
    pub fn list(&self) -> Result<Vec<Entry>> {
        let read = match std::fs::read_dir(&self.dir) {
            Ok(r) => r,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => return Err(Error::Io { path: self.dir.clone(), source }),
        };
        let mut out: Vec<Entry> = read
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let path = e.path();
                let kind = match path.extension()?.to_str()? {
                    "json" => Kind::Wrapper,
                    "txt" => Kind::SiteConfig,
                    _ => return None,
                };
                let host = path.file_stem()?.to_str()?.to_string();
                (crate::host::key(&host).ok()? == host && path.is_file()).then_some(Entry { host, kind, path })
            })
            .collect();
        out.sort_by(|a, b| (&a.host, a.kind).cmp(&(&b.host, b.kind)));
        Ok(out)
    }

    /// Remove the entries of exactly `host` (not its parent's); returns the files removed.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a bad host, [`Error::Io`] when a file cannot be removed.
    pub fn remove(&self, host: &str) -> Result<Vec<PathBuf>> {
        let key = crate::host::key(host)?;
        let mut removed = Vec::new();
        for kind in [Kind::Wrapper, Kind::SiteConfig] {
            let path = self.path(&key, kind);
            match std::fs::remove_file(&path) {
                Ok(()) => removed.push(path),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => return Err(Error::Io { path, source }),
            }
        }
        Ok(removed)
    }
}

/// Largest health record read: a record is a few hundred bytes; a larger file is no record.
const MAX_HEALTH_BYTES: u64 = 1 << 20;

/// Write a file so that a reader sees the old or the new content, never half: the bytes go
/// to a temporary file beside it, renamed into place. A file that holds these bytes already is
/// left as it is: a run again over the same pages rewrites only what changed (and replacing a
/// file costs the file system freeing the old one's blocks, which can wait on the disk).
///
/// # Errors
/// The I/O error; the temporary file is removed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    if std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64)
        && std::fs::read(path).is_ok_and(|old| old == bytes)
    {
        return Ok(());
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "the path has no file name"))?;
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(".{}.tmp{}-{n}", name.to_string_lossy(), std::process::id()));
    // A new file (never one already there, nor a link's target), renamed over the path: a
    // link at the path is replaced, not followed.
    let result = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| std::io::Write::write_all(&mut f, bytes))
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrapper(pages: &[&str]) -> Wrapper {
        let html = "<html><body><div class=story><p>alpha beta gamma delta</p></div><div class=menu>home news</div></body></html>";
        let p: Vec<crate::Page> = pages
            .iter()
            .map(|u| {
                let mut page = crate::Page::from_html(*u, &html.replace("alpha", u)).unwrap();
                page.location = u.to_string();
                page
            })
            .collect();
        crate::Wrapper::induce("t", &p, &crate::Config::default()).expect("induce").wrapper
    }

    #[test]
    #[cfg(unix)]
    fn an_atomic_write_replaces_other_bytes_and_leaves_the_same_bytes_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        write_atomic(&path, b"one").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
        let first = inode(&path);
        write_atomic(&path, b"one").unwrap();
        assert_eq!(inode(&path), first, "the same bytes: the file is left as it is");
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_ne!(inode(&path), first, "other bytes: a new file renamed into place");
        write_atomic(&path, b"three").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"three");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left.len(), 1, "no temporary file left: {left:?}");
    }

    #[test]
    fn a_drift_is_said_the_same_way_by_every_caller() {
        let d = Drift { host: "example.org".into(), failed: 4, last_failure: None };
        assert_eq!(d.to_string(), format!("the wrapper of example.org failed on 4 of its last {DRIFT_PAGES} pages: the site may have changed"));
    }

    #[test]
    fn save_find_list_remove() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path().join("w"));
        assert!(store.list().unwrap().is_empty());
        let w = wrapper(&["https://www.a.example/1", "https://www.a.example/2"]);
        assert_eq!(w.site_host().as_deref(), Some("a.example"));
        store.save("www.a.example", &w).unwrap();
        store.save_site_config("b.example", "body: //article\n").unwrap();
        let found = store.find("news.a.example").unwrap().unwrap();
        assert_eq!((found.host.as_str(), found.kind), ("a.example", Kind::Wrapper));
        assert_eq!(Wrapper::load(&found.path).unwrap(), w);
        assert_eq!(store.find("b.example").unwrap().unwrap().kind, Kind::SiteConfig);
        assert!(store.find("c.example").unwrap().is_none());
        // A top-level domain alone never matches.
        store.save_site_config("example", "body: //x\n").unwrap();
        assert!(store.find("c.example").unwrap().is_none());
        let hosts: Vec<String> = store.list().unwrap().into_iter().map(|e| e.host).collect();
        assert_eq!(hosts, ["a.example", "b.example", "example"]);
        assert_eq!(store.remove("a.example").unwrap().len(), 1);
        assert!(store.find("a.example").unwrap().is_none());
        assert!(store.remove("../../x").is_err());
        // No temporary file is left behind.
        let names: Vec<String> =
            std::fs::read_dir(store.dir()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        assert!(names.iter().all(|n| !n.contains(".tmp")), "{names:?}");
    }

    #[test]
    #[cfg(unix)]
    fn a_link_in_the_store_is_replaced_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path().join("w"));
        let w = wrapper(&["https://a.example/1", "https://a.example/2"]);
        store.add("a.example", &w).unwrap();
        // Someone links the previous-wrapper file to a file outside the store.
        let outside = dir.path().join("outside.txt");
        std::fs::write(&outside, "keep me").unwrap();
        std::os::unix::fs::symlink(&outside, store.dir().join("a.example.prev")).unwrap();
        store.add("a.example", &w).unwrap();
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep me");
        let prev = store.dir().join("a.example.prev");
        assert!(std::fs::symlink_metadata(&prev).unwrap().is_file(), "the link was replaced by a file");
        assert_eq!(Wrapper::load(&prev).unwrap(), w);
    }

    #[test]
    #[cfg(unix)]
    fn a_store_file_without_end_is_refused_not_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path().join("w"));
        store.save("a.example", &wrapper(&["https://a.example/1", "https://a.example/2"])).unwrap();
        std::os::unix::fs::symlink("/dev/zero", store.dir().join("a.example.health")).unwrap();
        let started = std::time::Instant::now();
        assert_eq!(store.health("a.example").unwrap(), None);
        std::os::unix::fs::symlink("/dev/zero", store.dir().join("b.example.json")).unwrap();
        assert!(matches!(Wrapper::load(&store.dir().join("b.example.json")), Err(Error::TooLarge { .. })));
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
    }
}
