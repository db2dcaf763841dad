//! Page: one web page, read, decoded and cleaned, with where it came from, what its feed says
//! of it, and the budget it is held to. Every page is made by [`Page::new`], so every page,
//! whatever its source (a file, a URL, a WARC record, bytes handed over by a program), is
//! cleaned under its [`Budget`] and carries its deadline to the stages after cleaning.

use crate::budget::Budget;
use crate::fetch::{self, Fetched, Location};
use crate::{clean, feed, Error, Result};
use std::sync::Arc;
use std::time::Instant;

/// A cleaned page, with where it came from and what its feed item says.
#[derive(Debug, Clone)]
pub struct Page {
    /// The page's id (feed guid or file stem).
    pub id: String,
    /// Where it was read from (URL or path).
    pub location: String,
    /// Its feed item, when known.
    pub item: Option<feed::Item>,
    /// The cleaned tree.
    pub doc: clean::Doc,
    /// The limits it was read under; extraction keeps to them too (XPath node visits).
    pub budget: Budget,
    /// When work on it must stop (from its budget's time, counted from reading), if ever.
    pub deadline: Option<Instant>,
    /// The decoded HTML it was cleaned from, when [`PageOptions::keep_source`] asked for it
    /// (methods that read the markup's lines, such as the bench's CETR, need it).
    pub source: Option<Arc<str>>,
    /// What the page declares ([`Page::meta`]), read once, when first asked for.
    meta: std::sync::OnceLock<crate::metadata::Metadata>,
}

/// What [`Page::new`] needs besides the HTML: names, the feed item, the budget.
#[derive(Debug, Clone, Default)]
pub struct PageOptions {
    /// The page's id (default: its location's stem, else empty).
    pub id: Option<String>,
    /// Where it was read from (URL or path; default: empty).
    pub location: String,
    /// Its feed item, when known.
    pub item: Option<feed::Item>,
    /// The limits it is read under.
    pub budget: Budget,
    /// When work on it must stop (default: from the budget's time, counted from now).
    pub deadline: Option<Instant>,
    /// Keep the decoded HTML beside the cleaned tree ([`Page::source`]; default: no).
    pub keep_source: bool,
}

impl Page {
    /// Clean `html` into a page: the one constructor every page goes through.
    ///
    /// # Errors
    /// [`Error::OverBudget`] when the page has more elements than its budget, or cleaning
    /// outlasts its time.
    ///
    /// # Example
    /// ```
    /// use forest::page::{Page, PageOptions};
    /// let page = Page::new("<title>T</title><p>Hello</p>", PageOptions { id: Some("a".into()), ..PageOptions::default() })?;
    /// assert_eq!(page.doc.title, "T");
    /// # Ok::<(), forest::Error>(())
    /// ```
    pub fn new(html: &str, opts: PageOptions) -> Result<Page> {
        let deadline = opts.deadline.or_else(|| opts.budget.deadline());
        let doc = clean::page_until(html, &opts.budget, deadline)?;
        let id = opts.id.unwrap_or_else(|| opts.item.as_ref().map(|i| i.id.clone()).unwrap_or_default());
        let source = opts.keep_source.then(|| Arc::from(html));
        Ok(Page { id, location: opts.location, item: opts.item, doc, budget: opts.budget, deadline, source, meta: Default::default() })
    }

    /// What the page declares of itself ([`crate::metadata::read`]): read on the first call,
    /// kept for the next (the extractor asks for the page's kind, the article for the rest).
    pub fn meta(&self) -> &crate::metadata::Metadata {
        self.meta.get_or_init(|| crate::metadata::read(&self.doc))
    }

    /// What the page declares, taken out of it (read now when not yet read).
    pub(crate) fn take_meta(&mut self) -> crate::metadata::Metadata {
        self.meta.take().unwrap_or_else(|| crate::metadata::read(&self.doc))
    }

    /// The page's address: where it was read from when that is a web address, else the
    /// canonical URL it declares, when that is a URL.
    pub fn url(&self) -> Option<&str> {
        let web = self.location.starts_with("http://") || self.location.starts_with("https://");
        if web {
            Some(&self.location)
        } else {
            self.meta().url.as_deref().filter(|u| url::Url::parse(u).is_ok())
        }
    }

    /// The kind of page this is, as far as it says ([`crate::metadata::page_type`]).
    pub fn kind(&self) -> Option<crate::metadata::PageType> {
        crate::metadata::page_type(self.meta(), self.url())
    }

    /// A page from HTML text already in memory, named `id`, within the default budget.
    ///
    /// # Errors
    /// As [`Page::new`].
    pub fn from_html(id: impl Into<String>, html: &str) -> Result<Page> {
        let id = id.into();
        Page::new(html, PageOptions { id: Some(id.clone()), location: id, ..PageOptions::default() })
    }

    /// A page from fetched bytes: checked to be HTML, decoded, cleaned within `budget`.
    ///
    /// # Errors
    /// [`Error::NotHtml`] for bytes that are not a page; as [`Page::new`].
    pub fn from_fetched(loc: &Location, fetched: Fetched, budget: &Budget) -> Result<Page> {
        let deadline = budget.deadline();
        check_html(&fetched, &loc.to_string())?;
        let location = fetched.location.to_string();
        let html = fetched.into_text();
        let opts = PageOptions {
            id: Some(loc.stem()),
            location,
            item: None,
            budget: *budget,
            deadline,
            keep_source: false,
        };
        Page::new(&html, opts)
    }

    /// A page from bytes in memory that were read from `location` (a URL or a path): decoded
    /// (BOM, `<meta charset>`, else a statistical guess) and cleaned within the default budget.
    ///
    /// # Errors
    /// As [`Page::from_fetched`].
    pub fn from_bytes(bytes: &[u8], location: &str) -> Result<Page> {
        let loc = Location::parse(location);
        Page::from_fetched(&loc, Fetched::local(loc.clone(), bytes.to_vec()), &Budget::default())
    }

    /// Read (fetch or open), decode and clean the page at `loc` within `budget`.
    ///
    /// # Errors
    /// Read/fetch errors; as [`Page::from_fetched`].
    pub fn read(loc: &Location, budget: &Budget) -> Result<Page> {
        Page::from_fetched(loc, fetch::get(loc)?, budget)
    }

    /// An error when the page's time budget has run out (`stage` says where).
    ///
    /// # Errors
    /// [`Error::OverBudget`].
    pub fn check_deadline(&self, stage: &str) -> Result<()> {
        self.budget.check_deadline(self.deadline, stage)
    }

    /// This page as the page of a feed item: its id and item are the item's.
    pub fn of_item(mut self, item: &feed::Item) -> Page {
        self.id = item.id.clone();
        self.item = Some(item.clone());
        self
    }
}

/// Where a page comes from: a place to read (with its feed item, when a feed lists it), or
/// bytes already fetched (a WARC record).
#[derive(Debug)]
pub enum Source {
    /// A file or URL to read.
    Read(Location, Option<feed::Item>),
    /// Bytes already at hand, read from this location.
    Fetched(Location, Fetched),
}

impl Source {
    /// Where the page was read from, as given.
    pub fn location(&self) -> &Location {
        match self {
            Source::Read(l, _) | Source::Fetched(l, _) => l,
        }
    }

    /// Read (or take) the page and clean it within `budget`.
    ///
    /// # Errors
    /// Read/fetch errors; as [`Page::from_fetched`].
    pub fn page(self, fetcher: &fetch::Fetcher, budget: &Budget) -> Result<Page> {
        match self {
            Source::Read(loc, item) => {
                let page = Page::from_fetched(&loc, fetcher.get(&loc)?, budget)?;
                Ok(match item {
                    Some(item) => page.of_item(&item),
                    None => page,
                })
            }
            Source::Fetched(loc, f) => Page::from_fetched(&loc, f, budget),
        }
    }
}

/// The pages named by `inputs` (URLs, files, folders, `-` for standard input; see
/// [`Location::parse_input`]): a folder stands for its pages ([`feed::list_pages`]), and a
/// page file listed by the `feed.xml` of its folder comes with its feed item (so its host is
/// known, [`crate::host::of_page`]).
///
/// # Errors
/// [`Error::Io`] for a folder that cannot be listed; [`Error::Invalid`] for a folder without
/// pages.
pub fn sources(inputs: &[String]) -> Result<Vec<Source>> {
    let mut feeds: std::collections::HashMap<std::path::PathBuf, Vec<feed::Item>> = Default::default();
    fn items_of<'a>(
        feeds: &'a mut std::collections::HashMap<std::path::PathBuf, Vec<feed::Item>>,
        dir: &std::path::Path,
        files: Option<&[std::path::PathBuf]>,
    ) -> &'a Vec<feed::Item> {
        feeds.entry(dir.to_path_buf()).or_insert_with(|| folder_items(dir, files))
    }
    let mut out = Vec::new();
    for input in inputs {
        if input == "-" {
            let mut bytes = Vec::new();
            let stdin = std::io::Read::take(std::io::stdin().lock(), fetch::MAX_BYTES + 1);
            std::io::Read::read_to_end(&mut { stdin }, &mut bytes)
                .map_err(|source| Error::Io { path: "(standard input)".into(), source })?;
            if bytes.len() as u64 > fetch::MAX_BYTES {
                return Err(Error::TooLarge { what: "standard input".into(), limit: fetch::MAX_BYTES });
            }
            let bytes = fetch::gunzip_within(bytes, fetch::MAX_BYTES, "standard input")?;
            let loc = Location::File("-".into());
            out.push(Source::Fetched(loc.clone(), Fetched::local(loc, bytes)));
            continue;
        }
        match Location::parse_input(input) {
            Location::File(dir) if dir.is_dir() => {
                let files = feed::list_pages(&dir)?;
                if files.is_empty() {
                    return Err(Error::Invalid(format!("{} holds no .html pages", dir.display())));
                }
                let items = items_of(&mut feeds, &dir, Some(&files));
                for f in files {
                    let item = items.iter().find(|i| i.page == Location::File(f.clone())).cloned();
                    out.push(Source::Read(Location::File(f), item));
                }
            }
            Location::File(f) => {
                let dir = f.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
                let dir = if dir.as_os_str().is_empty() { std::path::PathBuf::from(".") } else { dir };
                let item = item_of_file(items_of(&mut feeds, &dir, None), &f).cloned();
                out.push(Source::Read(Location::File(f), item));
            }
            loc => out.push(Source::Read(loc, None)),
        }
    }
    Ok(out)
}

/// The feed items of a folder's `feed.xml` (none without one), for its page `files` when they
/// are listed already. A program that reads pages one call at a time (the Python package)
/// reads each folder's feed once, and again when it changes: the last few folders' items are
/// kept, with the feed's modification time.
fn folder_items(dir: &std::path::Path, files: Option<&[std::path::PathBuf]>) -> Vec<feed::Item> {
    type Kept = std::collections::HashMap<std::path::PathBuf, (std::time::SystemTime, Vec<feed::Item>)>;
    static KEPT: std::sync::Mutex<Option<Kept>> = std::sync::Mutex::new(None);
    const FOLDERS: usize = 16;
    let feed = dir.join("feed.xml");
    let read = || match files {
        Some(files) => feed::folder_sample(dir, files).items,
        None => feed::read(&dir.to_string_lossy()).map(|s| s.items).unwrap_or_default(),
    };
    let Some(meta) = std::fs::metadata(&feed).ok().filter(std::fs::Metadata::is_file) else { return Vec::new() };
    let Ok(modified) = meta.modified() else { return read() };
    let mut kept = KEPT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let kept = kept.get_or_insert_with(Default::default);
    if let Some((at, items)) = kept.get(dir) {
        if *at == modified {
            return items.clone();
        }
    }
    let items = read();
    if kept.len() >= FOLDERS {
        kept.clear();
    }
    kept.insert(dir.to_path_buf(), (modified, items.clone()));
    items
}

/// The feed item of the page file `f`: the item with its path as written, else the item whose
/// path names the same file (`./a.html` and `a.html`), each path resolved once.
fn item_of_file<'a>(items: &'a [feed::Item], f: &std::path::Path) -> Option<&'a feed::Item> {
    let path = |i: &'a feed::Item| match &i.page {
        Location::File(p) => Some(p),
        Location::Url(_) => None,
    };
    if let Some(i) = items.iter().find(|&i| path(i).is_some_and(|p| p == f)) {
        return Some(i);
    }
    let real = std::fs::canonicalize(f).ok()?;
    items.iter().find(|&i| path(i).and_then(|p| std::fs::canonicalize(p).ok()).is_some_and(|p| p == real))
}

/// Well-known formats that are not pages, by their first bytes.
const NOT_PAGES: &[(&[u8], &str)] = &[
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive (or an office document)"),
    (b"\x89PNG", "a PNG image"),
    (b"GIF8", "a GIF image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"\x1f\x8b", "gzip data that could not be inflated"),
    (b"WARC/", "a WARC file (read it with --warc)"),
];

/// Refuse bytes that are plainly not HTML: a non-text content type, a known binary format,
/// binary data, no tag.
fn check_html(f: &Fetched, what: &str) -> Result<()> {
    let not = |why: &str| Err(Error::NotHtml { what: what.to_string(), why: why.to_string() });
    if let Some(ct) = &f.content_type {
        let ct = ct.to_ascii_lowercase();
        if !(ct.contains("html") || ct.contains("xml") || ct.starts_with("text/")) {
            return not(&format!("content type {ct}"));
        }
    }
    if let Some((_, kind)) = NOT_PAGES.iter().find(|(magic, _)| f.bytes.starts_with(magic)) {
        return not(kind);
    }
    let head = &f.bytes[..f.bytes.len().min(4096)];
    // UTF-16 by its byte order mark, or declared by the HTTP charset (as browsers honour it
    // before looking at the bytes): its NULs are text, not binary data.
    let declared_utf16 = f.content_type.as_deref().is_some_and(|ct| ct.to_ascii_lowercase().contains("utf-16"));
    let utf16 = declared_utf16 || head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]);
    if head.is_empty() {
        return not("empty");
    }
    // More than one byte in a hundred (and more than a stray few) that text never holds.
    if !utf16 && head.iter().filter(|&&b| is_binary_byte(b)).count() > (head.len() / 100).max(8) {
        return not("binary data");
    }
    if !utf16 && !f.bytes[..f.bytes.len().min(1 << 20)].contains(&b'<') {
        return not("no markup");
    }
    Ok(())
}

/// Is `b` a byte that text never holds: a control character other than tab, line feed, form
/// feed, carriage return and escape (the WHATWG MIME Sniffing standard's "binary data byte";
/// escape stays, as ISO-2022-JP text uses it). Compressed or random data holds one byte in ten
/// of these, text none but a stray one.
fn is_binary_byte(b: u8) -> bool {
    matches!(b, 0x00..=0x08 | 0x0B | 0x0E..=0x1A | 0x1C..=0x1F)
}

/// Load the pages of feed items with the default fetcher and budget; pages that fail are
/// returned with their error, not fatal.
pub fn load(items: &[feed::Item]) -> (Vec<Page>, Vec<(String, Error)>) {
    match fetch::Fetcher::new(fetch::FetchOptions::default()) {
        Ok(f) => load_with(&f, items, 4, &Budget::default(), &|| {}),
        Err(e) => (Vec::new(), vec![(String::new(), e)]),
    }
}

/// As [`load`], fetching with `fetcher`, `jobs` at once, each page within `budget`; `done` is
/// called per page (progress). Pages are read by [`read_items`].
pub fn load_with(
    fetcher: &fetch::Fetcher,
    items: &[feed::Item],
    jobs: usize,
    budget: &Budget,
    done: &(dyn Fn() + Sync),
) -> (Vec<Page>, Vec<(String, Error)>) {
    let mut pages = Vec::new();
    let mut failed = Vec::new();
    read_items(fetcher, items, jobs, budget, done, |p| p, |item, page| match page {
        Ok(p) => pages.push(p),
        Err(e) => failed.push((item.page.to_string(), e)),
    });
    (pages, failed)
}

/// How many pages to read at once for `items`: fetches wait on the network, so more than the
/// cores ([`REMOTE_JOBS`]) when any page is remote; files wait on nothing, so the cores (a
/// worker more would only hold a page more).
pub fn read_jobs(items: &[feed::Item]) -> usize {
    if items.iter().any(|i| !matches!(i.page, Location::File(_))) {
        REMOTE_JOBS
    } else {
        crate::run::cores()
    }
}

/// Pages fetched at once when a sample has remote pages ([`read_jobs`]).
pub const REMOTE_JOBS: usize = 8;

/// As [`load_with`], handing each item's page (with its item, [`Page::of_item`]), made into
/// what `map` makes of it by the worker that read it, or its error, to `put` in the items'
/// order as soon as it is read, instead of holding them all: a caller that keeps a summary of
/// each page (as [`crate::wrapper::Inducer`] does, [`crate::wrapper::Summary`]) reads any
/// number of pages in bounded memory, and makes the summaries in parallel.
pub fn read_items<T: Send>(
    fetcher: &fetch::Fetcher,
    items: &[feed::Item],
    jobs: usize,
    budget: &Budget,
    done: &(dyn Fn() + Sync),
    map: impl Fn(Page) -> T + Sync,
    mut put: impl FnMut(&feed::Item, Result<T>),
) {
    let locs: Vec<Location> = items.iter().map(|i| i.page.clone()).collect();
    let map = |i: usize, page: Page| match items.get(i) {
        Some(item) => map(page.of_item(item)),
        None => map(page),
    };
    read_each(fetcher, &locs, jobs, budget, done, map, |i, page| {
        if let Some(item) = items.get(i) {
            put(item, page);
        }
    });
}

/// The pages at `locs`, in their order, each fetched and cleaned within `budget` by the same
/// worker, `jobs` at once (per-host fetch limits apply): pages are cleaned in parallel, and no
/// more than `jobs` fetched pages wait as raw bytes. `done` is called per page (progress).
pub fn read_many(fetcher: &fetch::Fetcher, locs: &[Location], jobs: usize, budget: &Budget, done: &(dyn Fn() + Sync)) -> Vec<Result<Page>> {
    let mut out = Vec::with_capacity(locs.len());
    read_each(fetcher, locs, jobs, budget, done, |_, page| page, |_, page| out.push(page));
    out
}

/// As [`read_many`], handing what `map` makes of each page (by its position in `locs`, in the
/// worker that read it), or its error, to `put` in order as soon as it is read: at most two
/// pages per job are held.
pub fn read_each<T: Send>(
    fetcher: &fetch::Fetcher,
    locs: &[Location],
    jobs: usize,
    budget: &Budget,
    done: &(dyn Fn() + Sync),
    map: impl Fn(usize, Page) -> T + Sync,
    mut put: impl FnMut(usize, Result<T>),
) {
    let read = |_: &mut (), (i, loc): (usize, &Location)| {
        let page = fetcher.get(loc).and_then(|f| Page::from_fetched(loc, f, budget)).map(|p| map(i, p));
        done();
        (i, page)
    };
    let jobs = jobs.clamp(1, locs.len().max(1));
    let mut next = 0;
    // A worker's page in hand and one read waiting its turn: a few pages per job are held.
    let run = crate::run::ordered_within(locs.iter().enumerate(), jobs, 2 * jobs, || (), read, |(i, page)| {
        next = i + 1;
        put(i, page);
        Ok::<(), Error>(())
    });
    // A worker that panicked (a bug) fails its page and every page after it.
    if let Err(e) = run {
        for i in next..locs.len() {
            put(i, Err(Error::Internal(e.to_string())));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_handed_over_in_the_items_order_with_their_items_and_errors() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let items: Vec<feed::Item> = (0..12)
            .map(|i| {
                let name = format!("p{i}.html");
                // Every third page is missing: an error in its place.
                if i % 3 != 2 {
                    std::fs::write(dir.path().join(&name), format!("<p>page {i}</p>")).expect("write page");
                }
                feed::Item {
                    id: name.clone(),
                    page: Location::File(dir.path().join(&name)),
                    title: String::new(),
                    description: String::new(),
                    link: None,
                    home: None,
                }
            })
            .collect();
        let fetcher = fetch::Fetcher::new(fetch::FetchOptions::default()).expect("fetcher");
        for jobs in [1, 3] {
            let mut seen = Vec::new();
            // What the worker makes of each page (its item's id, its id and text) comes in order.
            let summary = |p: Page| (p.item.as_ref().map(|i| i.id.clone()), p.id.clone(), p.doc.text(p.doc.body));
            read_items(&fetcher, &items, jobs, &Budget::default(), &|| {}, summary, |item, page| {
                seen.push((item.id.clone(), page.map(|(of, id, text)| (of == Some(item.id.clone()), id, text))));
            });
            assert_eq!(seen.len(), items.len(), "jobs {jobs}");
            for (i, (id, page)) in seen.iter().enumerate() {
                assert_eq!(id, &format!("p{i}.html"));
                match page {
                    Ok((of_item, pid, text)) => assert_eq!((*of_item, pid.as_str(), text.trim()), (true, id.as_str(), format!("page {i}").as_str())),
                    Err(_) => assert_eq!(i % 3, 2, "page {i}"),
                }
            }
        }
    }

    #[test]
    fn a_page_file_finds_its_feed_item_by_path_as_written_or_by_the_file_it_names() {
        let dir = tempfile::tempdir().expect("temporary folder");
        for name in ["a.html", "b.html"] {
            std::fs::write(dir.path().join(name), "<p>x</p>").expect("write page");
        }
        let item = |name: &str| feed::Item {
            id: name.to_string(),
            page: Location::File(dir.path().join(name)),
            title: String::new(),
            description: String::new(),
            link: None,
            home: None,
        };
        let items = [item("a.html"), item("b.html")];
        let found = |f: std::path::PathBuf| item_of_file(&items, &f).map(|i| i.page.clone());
        assert_eq!(found(dir.path().join("b.html")), Some(items[1].page.clone()));
        assert_eq!(found(dir.path().join(".").join("b.html")), Some(items[1].page.clone()), "another spelling of the same file");
        assert_eq!(found(dir.path().join("c.html")), None, "no such file");
    }

    #[test]
    fn binary_data_is_no_page_and_a_stray_control_character_is_text() {
        let read = |bytes: Vec<u8>| Page::from_fetched(&Location::parse("a.html"), Fetched::local(Location::parse("a.html"), bytes), &Budget::default());
        // Compressed or random bytes, with a tag in them by chance, and few NULs (one in 256).
        let mut noise: Vec<u8> = (0..20_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        noise.extend_from_slice(b"<p>");
        assert!(noise.iter().filter(|&&b| b == 0).count() * 100 < noise.len());
        assert!(matches!(read(noise), Err(Error::NotHtml { why, .. }) if why == "binary data"));
        // A page whose text holds a backspace and an escape is read.
        let page = read(b"<p>Caf\x08e at the pier\x1b, open late.</p>".to_vec()).expect("a page");
        assert!(page.doc.text(page.doc.body).contains("open late"));
    }
}
