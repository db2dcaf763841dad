//! Rules: which extractor each page gets, and the page's [`Article`] from it. One resolver for
//! every rule source:
//!
//! - [`Rules::Wrapper`]: one wrapper for every page, compiled once ([`Rules::wrapper`]) and
//!   shared by every worker;
//! - [`Rules::SiteConfig`]: one FiveFilters site config for every page;
//! - [`Rules::Store`]: the stored wrapper or site config of each page's host
//!   ([`crate::host::of_page`]), else of its parent domain; a page whose host has none gets
//!   what [`Missing`] says;
//! - [`Rules::SinglePage`]: the single-page extractor for every page.
//!
//! A new rule source plugs in here: a variant of [`Rules`], compiled once per worker. A stored
//! wrapper is compiled once per run of [`Rules::articles`] and shared by its workers (held in
//! an `Arc`): the first worker to need it compiles it, and one that needs it meanwhile waits
//! for that rather than compiling it too.

use crate::article::{Article, Declared, Fields};
use crate::extract::{Applier, Extractor, SinglePage};
use crate::fetch::Location;
use crate::ftr::{ConfigApplier, SiteConfig};
use crate::budget::Budget;
use crate::fetch::Fetcher;
use crate::page::Source;
use crate::store::{Kind, Store};
use crate::{Error, Page, Result, Wrapper};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Where the rules of pages come from.
#[derive(Debug, Clone)]
pub enum Rules {
    /// One wrapper for every page, compiled once and shared by every worker (make it with
    /// [`Rules::wrapper`]).
    Wrapper(std::sync::Arc<Applier>),
    /// One FiveFilters site config for every page.
    SiteConfig(Box<SiteConfig>),
    /// The stored rules of each page's host.
    Store(Store, Missing),
    /// The single-page extractor for every page.
    SinglePage,
}

/// What a page gets when the store has no rules for its host.
#[derive(Debug, Clone)]
pub enum Missing {
    /// The single-page extractor ([`crate::Rule::SinglePage`]).
    SinglePage,
    /// An error, [`Error::NoRules`].
    Error,
    /// The host learned on the fly ([`crate::learn`]), into the store; the single-page
    /// extractor when nothing can be learned.
    Learn(std::sync::Arc<crate::learn::Learner>),
}

/// Rules compiled for one site.
enum Compiled {
    SinglePage(SinglePage),
    Wrapper(std::sync::Arc<Applier>),
    SiteConfig(Box<ConfigApplier>, String),
}

impl Compiled {
    fn wrapper(w: Wrapper) -> Result<Compiled> {
        Ok(Compiled::Wrapper(std::sync::Arc::new(Applier::new(w)?)))
    }

    fn site_config(c: SiteConfig) -> Result<Compiled> {
        let xpath = c.body.join(" | ");
        Ok(Compiled::SiteConfig(Box::new(ConfigApplier::new(c)?), xpath))
    }

    fn extractor(&self) -> &dyn Extractor {
        match self {
            Compiled::SinglePage(s) => s,
            Compiled::Wrapper(a) => a.as_ref(),
            Compiled::SiteConfig(c, _) => c.as_ref(),
        }
    }

    fn xpath(&self) -> &str {
        match self {
            Compiled::SinglePage(_) => "",
            Compiled::Wrapper(a) => &a.wrapper().xpath,
            Compiled::SiteConfig(_, x) => x,
        }
    }

    /// What the rules declare of the page beyond its own metadata (where the site shows its
    /// byline and date only when `fields` asks for them).
    fn declared(&self, page: &Page, fields: Fields) -> Declared {
        match self {
            Compiled::SiteConfig(c, _) => {
                let (date, authors) = c.declared(&page.doc);
                Declared { authors, date, ..Declared::default() }
            }
            Compiled::Wrapper(a) if fields != Fields::Text => {
                let (byline, date) = a.shown(&page.doc);
                Declared { shown_byline: byline, shown_date: date, ..Declared::default() }
            }
            _ => Declared::default(),
        }
    }
}

impl Rules {
    /// One wrapper for every page, its XPaths compiled now, once for every worker.
    ///
    /// # Errors
    /// [`Error::XPath`] when an XPath of the wrapper does not compile.
    pub fn wrapper(wrapper: Wrapper) -> Result<Rules> {
        Ok(Rules::Wrapper(std::sync::Arc::new(Applier::new(wrapper)?)))
    }

    /// A resolver of these rules, compiled (check that they compile before reading pages).
    ///
    /// # Errors
    /// [`Error::XPath`] when an XPath of a wrapper or site config does not compile.
    pub fn resolver(&self) -> Result<Resolver<'_>> {
        let fixed = match self {
            Rules::Wrapper(a) => Some(Compiled::Wrapper(std::sync::Arc::clone(a))),
            Rules::SiteConfig(c) => Some(Compiled::site_config((**c).clone())?),
            Rules::SinglePage => Some(Compiled::SinglePage(SinglePage::default())),
            Rules::Store(..) => None,
        };
        Ok(Resolver {
            rules: self,
            fixed,
            single: Compiled::SinglePage(SinglePage::default()),
            by_file: HashMap::new(),
            fields: Fields::All,
            shared: None,
        })
    }
}

/// Rules compiled for the pages of one worker: the fixed rules, or each stored file's rules
/// compiled once, when first needed (and again when the file changes: a resolver kept for a
/// long time sees a wrapper stored after it).
pub struct Resolver<'a> {
    rules: &'a Rules,
    fixed: Option<Compiled>,
    /// The rules of a page whose host has none stored, with [`Missing::SinglePage`].
    single: Compiled,
    /// Each stored file's rules, with the file's modification time when compiled.
    by_file: HashMap<PathBuf, (Option<std::time::SystemTime>, Compiled)>,
    /// Which fields of each article are worked out.
    fields: Fields,
    /// The stored wrappers compiled for the run this resolver works in, shared with its other
    /// workers.
    shared: Option<&'a Shared>,
}

/// A compiled stored wrapper, or none when it does not load or compile (each worker then
/// compiles it for the error).
type Slot = Arc<OnceLock<Option<Arc<Applier>>>>;

/// Stored wrappers compiled once for all the workers of a run: a slot per file, for the
/// file's modification time.
#[derive(Default)]
struct Shared {
    slots: Mutex<HashMap<PathBuf, (Option<std::time::SystemTime>, Slot)>>,
}

impl Shared {
    /// The wrapper stored at `path`, as modified at `modified`: compiled here, or by the
    /// worker that is compiling it (waited for), or before.
    fn wrapper(&self, path: &Path, modified: Option<std::time::SystemTime>) -> Result<Compiled> {
        let slot = {
            let mut slots = self.slots.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let (at, slot) = slots.entry(path.to_path_buf()).or_insert_with(|| (modified, Slot::default()));
            if *at != modified {
                (*at, *slot) = (modified, Slot::default());
            }
            Arc::clone(slot)
        };
        let compiled = slot.get_or_init(|| Wrapper::load(path).ok().and_then(|w| Applier::new(w).ok()).map(Arc::new));
        match compiled {
            Some(applier) => Ok(Compiled::Wrapper(Arc::clone(applier))),
            None => Compiled::wrapper(Wrapper::load(path)?),
        }
    }
}

impl Resolver<'_> {
    /// Work out only these fields of each article (see [`Fields`]).
    pub fn fields(mut self, fields: Fields) -> Self {
        self.fields = fields;
        self
    }

    /// The compiled rules for `page`.
    fn rules_for(&mut self, page: &mut Page) -> Result<&Compiled> {
        if let Some(fixed) = &self.fixed {
            return Ok(fixed);
        }
        let Rules::Store(store, missing) = self.rules else {
            return Err(Error::Internal("rules without a store were not compiled".into()));
        };
        let host = crate::host::of_page(page);
        let mut entry = match &host {
            Some(h) => store.find(h)?,
            None => None,
        };
        if let (None, Missing::Learn(learner), Some(h)) = (&entry, missing, &host) {
            let learned = learner.learn(page).is_some();
            // The time learning took (it has a budget of its own) is not the page's.
            page.deadline = page.budget.deadline();
            if learned {
                entry = store.find(h)?;
            }
        }
        let Some(entry) = entry else {
            if matches!(missing, Missing::SinglePage | Missing::Learn(_)) {
                return Ok(&self.single);
            }
            return Err(Error::NoRules { host, store: store.dir().to_path_buf() });
        };
        let modified = std::fs::metadata(&entry.path).and_then(|m| m.modified()).ok();
        if self.by_file.get(&entry.path).is_none_or(|(at, _)| *at != modified) {
            let compiled = match (entry.kind, self.shared) {
                (Kind::Wrapper, Some(shared)) => shared.wrapper(&entry.path, modified)?,
                (Kind::Wrapper, None) => Compiled::wrapper(Wrapper::load(&entry.path)?)?,
                (Kind::SiteConfig, _) => Compiled::site_config(SiteConfig::load(&entry.path)?.0)?,
            };
            self.by_file.insert(entry.path.clone(), (modified, compiled));
        }
        self.by_file.get(&entry.path).map(|(_, c)| c).ok_or_else(|| Error::Internal("compiled rules went missing".into()))
    }

    /// The article of `page`, read from `source`, by the rules of its site.
    ///
    /// # Errors
    /// [`Error::NoRules`] (rules from the store, [`Missing::Error`]); the extractor's errors
    /// ([`Error::OverBudget`] for a page whose XPath evaluation outlasts its budget).
    pub fn article_from(&mut self, mut page: Page, source: &Location) -> Result<Article> {
        let fields = self.fields;
        let rules = self.rules_for(&mut page)?;
        let extraction = rules.extractor().extract(&page)?;
        page.check_deadline("extraction")?;
        let declared = rules.declared(&page, fields);
        let xpath = extraction.xpath.clone();
        Ok(Article::from_extraction(page, extraction, source, xpath.as_deref().unwrap_or(rules.xpath()), declared, fields))
    }

    /// The article of `page`, read from where it says ([`Page::location`]).
    ///
    /// # Errors
    /// As [`Resolver::article_from`].
    pub fn article(&mut self, page: Page) -> Result<Article> {
        let source = Location::parse(&page.location);
        self.article_from(page, &source)
    }
}

impl Rules {
    /// The article of every source, `jobs` at a time, handed to `put` in input order with the
    /// source's location (a page that fails comes with its error: the run goes on); `fields`
    /// says which fields of each article are worked out.
    ///
    /// # Errors
    /// The first error `put` returns.
    pub fn articles<E: From<Error>>(
        &self,
        sources: impl IntoIterator<Item = Source>,
        jobs: usize,
        fetcher: &Fetcher,
        budget: &Budget,
        fields: Fields,
        mut put: impl FnMut(Location, Result<Article>) -> std::result::Result<(), E>,
    ) -> std::result::Result<usize, E> {
        let shared = Shared::default();
        crate::run::ordered(
            sources,
            jobs,
            || self.resolver().map(|r| Resolver { shared: Some(&shared), ..r.fields(fields) }),
            |resolver, source| {
                let loc = source.location().clone();
                let article = match resolver {
                    Ok(r) => source.page(fetcher, budget).and_then(|page| r.article_from(page, &loc)),
                    // The rules compiled before (`resolver()` is checked first): this is not reached.
                    Err(e) => Err(Error::Internal(format!("the rules no longer compile: {e}"))),
                };
                (loc, article)
            },
            |(loc, article)| put(loc, article),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrapper() -> Wrapper {
        let pages: Vec<Page> = ["https://www.a.example/1", "https://www.a.example/2"]
            .iter()
            .map(|u| {
                let html = format!("<html><body><div class=story><p>{u} beta gamma delta</p></div><div class=menu>home news</div></body></html>");
                let mut page = Page::from_html(*u, &html).unwrap();
                page.location = u.to_string();
                page
            })
            .collect();
        Wrapper::induce("t", &pages, &crate::Config::default()).expect("induce").wrapper
    }

    #[test]
    fn a_stored_wrapper_is_compiled_once_for_the_workers_of_a_run_until_its_file_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = Store::new(dir.path().to_path_buf()).save("a.example", &wrapper()).unwrap();
        let shared = Shared::default();
        let at = |secs| Some(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs));
        let applier = |c: Compiled| match c {
            Compiled::Wrapper(a) => a,
            _ => panic!("a wrapper compiles to a wrapper"),
        };
        let workers: Vec<Arc<Applier>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4).map(|_| s.spawn(|| applier(shared.wrapper(&path, at(1)).unwrap()))).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(workers.iter().all(|a| Arc::ptr_eq(a, &workers[0])), "one compile for all the workers");
        let changed = applier(shared.wrapper(&path, at(2)).unwrap());
        assert!(!Arc::ptr_eq(&changed, &workers[0]), "a changed file is compiled again");
        // A file that does not load is each worker's own error.
        std::fs::write(&path, b"not a wrapper").unwrap();
        assert!(shared.wrapper(&path, at(3)).is_err());
        assert!(shared.wrapper(&path, at(3)).is_err());
    }
}
