//! Learning a site on the fly: for a page of a host with no stored rules, find sample pages of
//! the same template, induce a wrapper from them and store it, so this page and every later
//! page of the host get the site-level path.
//!
//! Sample pages come from, in order: the site's feed (the page's `<link rel=alternate>`), its
//! sitemaps (`robots.txt` `Sitemap:` lines, else `/sitemap.xml`; indexes followed, gzip read),
//! the page's own links, and the links of the site's home page. Only URLs of the page's host
//! and of its URL shape ([`crate::sitemap::shape`]) are taken, the most recently modified
//! first, and only those `robots.txt` allows; they are fetched through the [`Fetcher`] (its per-host limit, delay and
//! cache). Each host is learned once per [`Learner`], however many workers ask.

use crate::budget::Budget;
use crate::fetch::{Fetcher, Location};
use crate::sitemap;
use crate::store::Store;
use crate::wrapper::Summary;
use crate::{Config, Page};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use url::Url;

/// Sample pages fetched to learn a site, besides the page itself (default).
pub const SAMPLES: usize = 8;

/// Seconds learning a host may take before the page that asked goes on without it (default):
/// the page gets the single-page extractor, and the learning goes on in the background (its
/// wrapper, when it is stored, serves the host's later pages).
pub const LEARN_SECONDS: u64 = 20;


/// What learning a host gave.
#[derive(Debug, Clone)]
pub struct Learned {
    /// The host.
    pub host: String,
    /// The stored wrapper, where its sample came from (`feed https://…`, `sitemap https://…`,
    /// `links of the page`) and how many pages it was induced from; or why none was learned.
    pub outcome: std::result::Result<(PathBuf, String, usize), String>,
}

/// What a [`Learner`] calls once per host.
type Report = Box<dyn Fn(&Learned) + Send + Sync>;

/// Learns hosts on the fly, each once; see the [module](self) documentation.
pub struct Learner {
    fetcher: Arc<Fetcher>,
    store: Store,
    budget: Budget,
    config: Config,
    /// Sample pages to fetch per host.
    pub samples: usize,
    /// How long a page waits for its host to be learned ([`LEARN_SECONDS`]).
    pub time: std::time::Duration,
    hosts: Mutex<HashMap<String, Arc<OnceLock<Learned>>>>,
    report: Option<Report>,
}

impl std::fmt::Debug for Learner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Learner").field("store", &self.store).field("samples", &self.samples).finish_non_exhaustive()
    }
}

impl Learner {
    /// A learner that fetches with `fetcher`, holds sample pages to `budget` and stores what it
    /// learns in `store`.
    pub fn new(fetcher: Arc<Fetcher>, store: Store, budget: Budget) -> Learner {
        Learner {
            fetcher,
            store,
            budget,
            config: Config::default(),
            samples: SAMPLES,
            time: std::time::Duration::from_secs(LEARN_SECONDS),
            hosts: Mutex::new(HashMap::new()),
            report: None,
        }
    }

    /// Call `report` once per host learned (or not): what was learned from where.
    pub fn reporting(mut self, report: impl Fn(&Learned) + Send + Sync + 'static) -> Learner {
        self.report = Some(Box::new(report));
        self
    }

    /// The stored wrapper for `page`'s host, learned now if no worker learned it yet; `None`
    /// when the page is not from the web or nothing could be learned (see [`Learned`]), or
    /// when learning takes longer than [`Learner::time`] (it goes on in the background).
    pub fn learn(self: &Arc<Self>, page: &Page) -> Option<PathBuf> {
        let Location::Url(url) = Location::parse(&page.location) else { return None };
        let host = crate::host::of_url(url.as_str())?;
        let cell = {
            let mut hosts = self.hosts.lock().ok()?;
            Arc::clone(hosts.entry(host.clone()).or_default())
        };
        let learned = cell.get_or_init(|| {
            let learned = Learned { host: host.clone(), outcome: self.learn_within(page, &url, &host) };
            if let Some(report) = &self.report {
                report(&learned);
            }
            learned
        });
        learned.outcome.as_ref().ok().map(|(path, _, _)| path.clone())
    }

    /// [`Learner::learn_host`] in a thread of its own, waited for at most [`Learner::time`]:
    /// past it the page goes on, and the learning finishes in the background.
    fn learn_within(self: &Arc<Self>, page: &Page, url: &Url, host: &str) -> std::result::Result<(PathBuf, String, usize), String> {
        let (tx, rx) = std::sync::mpsc::channel();
        let (me, page_copy, url_copy, host_copy) = (Arc::clone(self), page.clone(), url.clone(), host.to_string());
        let spawned = std::thread::Builder::new().name(format!("learn {host}")).spawn(move || {
            let _ = tx.send(me.learn_host(&page_copy, &url_copy, &host_copy));
        });
        if spawned.is_err() {
            return self.learn_host(page, url, host);
        }
        match rx.recv_timeout(self.time) {
            Ok(outcome) => outcome,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(format!(
                "learning took longer than {} s (it goes on in the background; later pages of {host} use what it stores)",
                self.time.as_secs_f64()
            )),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err("learning stopped unexpectedly".to_string()),
        }
    }

    /// Learn `page`'s host again, whatever was learned or stored before (a site that changed
    /// its template); the new templates join the stored ones ([`Store::add`]).
    pub fn relearn(&self, page: &Page) -> Learned {
        let host = crate::host::of_page(page).unwrap_or_default();
        let outcome = match Location::parse(&page.location) {
            Location::Url(url) => self.learn_host(page, &url, &host),
            Location::File(_) => Err("the page is not from the web".to_string()),
        };
        let learned = Learned { host, outcome };
        if let Some(report) = &self.report {
            report(&learned);
        }
        learned
    }

    /// Learn a site that drifted from its wrapper again ([`Learner::relearn`]), from the page
    /// its wrapper last failed on, fetched anew.
    pub fn relearn_drifted(&self, drift: &crate::store::Drift) -> Learned {
        let at = drift.last_failure.as_deref().map(Location::parse);
        let page = match at {
            Some(loc @ Location::Url(_)) => crate::page::Source::Read(loc, None).page(&self.fetcher, &self.budget).map_err(|e| e.to_string()),
            _ => Err("no web page it failed on is known".to_string()),
        };
        match page {
            Ok(page) => self.relearn(&page),
            Err(why) => Learned { host: drift.host.clone(), outcome: Err(why) },
        }
    }

    fn learn_host(&self, page: &Page, url: &Url, host: &str) -> std::result::Result<(PathBuf, String, usize), String> {
        let robots = sitemap::robots_of(&self.fetcher, url);
        let want = crate::sitemap::shape(url);
        let mut chosen: Vec<Url> = Vec::new();
        let mut seen: HashSet<String> = HashSet::from([url.as_str().to_string()]);
        let mut from: Vec<String> = Vec::new();
        let mut take = |source: String, mut urls: Vec<(Url, Option<String>)>, chosen: &mut Vec<Url>| {
            urls.retain(|(u, _)| crate::host::of_url(u.as_str()).as_deref() == Some(host) && sitemap::shape(u) == want);
            // The most recently modified first; undated ones after, in their order. Only the
            // pages taken are checked against robots.txt.
            urls.sort_by(|a, b| b.1.cmp(&a.1));
            let before = chosen.len();
            for (u, _) in urls {
                if chosen.len() >= self.samples {
                    break;
                }
                if !seen.contains(u.as_str()) && robots.allows(&u) {
                    seen.insert(u.as_str().to_string());
                    chosen.push(u);
                }
            }
            if chosen.len() > before {
                from.push(source);
            }
        };
        if let Ok(sample) = crate::feed::read_feed_with(&self.fetcher, url.as_str()) {
            let at = sample.found_at.clone().unwrap_or_else(|| url.to_string());
            let urls = sample.items.iter().filter_map(|i| match &i.page {
                Location::Url(u) => Some((u.clone(), None)),
                _ => None,
            });
            take(format!("feed {at}"), urls.collect(), &mut chosen);
        }
        if chosen.len() < self.samples {
            for (at, entries) in sitemap::read_all(&self.fetcher, sitemap::of_site(url, &robots), &robots) {
                take(format!("sitemap {at}"), entries.into_iter().map(|e| (e.url, e.lastmod)).collect(), &mut chosen);
                if chosen.len() >= self.samples {
                    break;
                }
            }
        }
        if chosen.len() < self.samples {
            take("links of the page".to_string(), links(page, url), &mut chosen);
        }
        // A site with neither feed nor sitemap, whose page links no sibling, links its recent
        // pages from its home page: one more page read, its links taken.
        if chosen.len() < self.samples {
            if let Some(home) = url.join("/").ok().filter(|h| h != url && robots.allows(h)) {
                let read = self.fetcher.get(&Location::Url(home.clone())).and_then(|f| Page::from_fetched(&Location::Url(home.clone()), f, &self.budget));
                if let Ok(home_page) = read {
                    take(format!("links of {home}"), links(&home_page, &home), &mut chosen);
                }
            }
        }
        if chosen.is_empty() {
            return Err(format!("no other page of {host} with this page's URL shape ({want}) in its feed, sitemaps or links"));
        }
        // Each sample page is summarized as it arrives (what induction keeps of a page, about a
        // tenth of it) and let go: heavy pages are not all held at once.
        let locs: Vec<Location> = chosen.into_iter().map(Location::Url).collect();
        let mut inducer = crate::wrapper::Inducer::new(host, self.config.clone());
        let mut pages = 0usize;
        let config = &self.config;
        crate::page::read_each(&self.fetcher, &locs, 4, &self.budget, &|| {}, |_, p| Summary::of(&p, config), |_, summary| {
            if let Ok(summary) = summary {
                inducer.add_summary(summary);
                pages += 1;
            }
        });
        inducer.add(page);
        let mut wrapper = inducer.finish().map_err(|e| e.to_string())?.wrapper;
        wrapper.host = Some(host.to_string());
        let (path, _) = self.store.add(host, &wrapper).map_err(|e| e.to_string())?;
        Ok((path, from.join(", "), pages + 1))
    }
}

/// The page's links, resolved against its URL.
fn links(page: &Page, base: &Url) -> Vec<(Url, Option<String>)> {
    let doc = &page.doc;
    (0..doc.nodes.len() as u32)
        .filter_map(|n| doc.element(n))
        .filter(|e| e.name == "a")
        .filter_map(|e| base.join(e.attr("href")?.trim()).ok())
        .map(|mut u| {
            u.set_fragment(None);
            (u, None)
        })
        .collect()
}

/// The sites of web archives, learned ([`from_archives`]): a wrapper for each host with enough
/// HTML pages, and why the others got none.
#[derive(Debug, Default)]
pub struct ArchiveSites {
    /// Each host learned, in host order: how many of its HTML pages were read, and its wrapper
    /// (whose `host` is set).
    pub learned: Vec<(String, usize, crate::Wrapper)>,
    /// Hosts with fewer HTML pages than asked for.
    pub too_few: usize,
    /// Hosts whose pages gave no wrapper, with why.
    pub failed: Vec<(String, crate::Error)>,
    /// What the archives held.
    pub stats: crate::warc::Stats,
    /// HTML records that could not be read as pages.
    pub unreadable: usize,
}

/// Learn every host of the web archives `files` that has at least `min_pages` HTML pages, from
/// its first `max_pages`. Each host's pages go to its own [`crate::wrapper::Inducer`] as the
/// archives are read: what is kept of a page is its summary, so memory grows by about a tenth
/// of a page per page, not by a page.
///
/// # Errors
/// As [`crate::warc::pages_by_host`].
pub fn from_archives(files: &[PathBuf], min_pages: usize, max_pages: usize, budget: &Budget, config: &Config) -> crate::Result<ArchiveSites> {
    let new = |h: &str| crate::wrapper::Inducer::new(h, config.clone());
    let hosts = crate::warc::gather_by_host(files, max_pages, budget, new, |inducer, p| inducer.add(&p))?;
    let mut sites = ArchiveSites { stats: hosts.stats, unreadable: hosts.unreadable, ..ArchiveSites::default() };
    for (host, inducer) in hosts.pages {
        let pages = inducer.pages_added();
        if pages < min_pages {
            sites.too_few += 1;
            continue;
        }
        match inducer.finish() {
            Ok(induction) => {
                let mut wrapper = induction.wrapper;
                wrapper.host = Some(host.clone());
                sites.learned.push((host, pages, wrapper));
            }
            Err(e) => sites.failed.push((host, e)),
        }
    }
    Ok(sites)
}

