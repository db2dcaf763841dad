//! `forest apply`: pages in (files, folders, URLs or WARC records), articles out (stdout, one
//! file per page, the index). The library resolves the rules and runs the pages
//! ([`forest::rules::Rules::articles`]); this file chooses the rules from the flags and writes.

use super::*;
use forest::page::Source;
use forest::article::Fields;
use forest::rules::{Missing, Rules};

/// Read and check a FiveFilters site config; its warnings go to stderr.
pub(crate) fn read_site_config(path: &Path) -> anyhow::Result<forest::ftr::SiteConfig> {
    let (config, warnings) = forest::ftr::SiteConfig::load(path)?;
    for w in warnings {
        eprintln!("forest: {}:{}: {}", path.display(), w.line, w.message);
    }
    Ok(config)
}

/// Where `apply` writes: stdout or one file per page, and the index.
struct Sink {
    format: Format,
    out_dir: Option<PathBuf>,
    /// Several pages as one JSON array on stdout.
    array: bool,
    /// Several pages: a `==> page <==` line before each on stdout.
    headers: bool,
    used_names: std::collections::HashSet<String>,
    written: usize,
    skipped: usize,
    fallbacks: usize,
    /// Articles whose confidence is below [`forest::article::DOUBTFUL`].
    doubtful: usize,
    /// Several pages (a folder, a list, an archive).
    many: bool,
    /// Text without the headline.
    no_title: bool,
    /// Reading a web archive (many sites, most without a wrapper: no per-site hint).
    warc: bool,
    /// Sites already told how to get the site-level result.
    hinted: std::collections::HashSet<String>,
    /// How the stored rules did, per host (for the health record and re-learning).
    outcomes: forest::store::Outcomes,
    index: Option<(forest::index::ArticleWriter, PathBuf)>,
}

impl Sink {
    fn put(&mut self, out: &mut impl Write, loc: &Location, result: forest::Result<Article>) -> anyhow::Result<()> {
        let mut article = match result {
            Ok(a) => a,
            Err(e) => {
                eprintln!("forest: skipped {loc}: {}", explain(&e));
                self.skipped += 1;
                return Ok(());
            }
        };
        self.outcomes.add(&article);
        match article.rule {
            forest::Rule::Exact => {}
            // Said once per site: a crawl of many unknown sites does not repeat it per page.
            forest::Rule::SinglePage if !self.warc => {
                let site = forest::host::of_url(article.key()).unwrap_or_else(|| "its site".into());
                if self.hinted.insert(site.clone()) {
                    eprintln!(
                        "forest: {loc}: no stored wrapper for {site}; used the single-page extractor \
                         (for site-level accuracy, run `forest induce` on a feed or a few pages of the site)"
                    );
                }
            }
            forest::Rule::SinglePage => {}
            forest::Rule::SinglePageFallback => {
                eprintln!("forest: {loc}: the site's rules matched nothing on the page; used the single-page extractor");
            }
            // The arbiter's choice and the wrapper's own patterns found by type or as
            // alternatives are the designed way to read pages outside the sample: said for a
            // single page, only counted for many.
            forest::Rule::SinglePagePreferred => {
                if !self.many {
                    eprintln!(
                        "forest: {loc}: the wrapper's article and the single-page extractor's disagreed; the site's template favoured the single-page one"
                    );
                }
            }
            rule @ (forest::Rule::SameTypeSameLevel | forest::Rule::SameType | forest::Rule::Alternative(_)) => {
                if !self.many {
                    eprintln!("forest: {loc}: found by the wrapper's element type, not its exact XPath (rule {})", rule.name());
                }
            }
            // The single-page extractor found no article: the page's whole text is given.
            forest::Rule::WholePage if article.xpath.is_empty() => {
                let why = if article.text.trim().is_empty() { "the page shows no text (its content may be loaded by scripts)" } else { "no article found; the page's whole text is given" };
                eprintln!("forest: {loc}: {why}");
            }
            rule => eprintln!("forest: {loc}: the wrapper's patterns matched nothing; used fallback rule {}", rule.name()),
        }
        if article.rule.is_fallback() {
            self.fallbacks += 1;
        }
        if article.confidence < forest::article::DOUBTFUL {
            self.doubtful += 1;
            if !self.many {
                eprintln!(
                    "forest: {loc}: low confidence ({:.2}): the article may be wrong or partial; check it, or route the page elsewhere",
                    article.confidence
                );
            }
        }
        if let Some((index, _)) = &mut self.index {
            index.add(&article)?;
        }
        // The index keeps the whole text; the output may leave the headline out.
        if self.no_title && matches!(self.format, Format::Text | Format::Json | Format::Jsonl) {
            article.text = article.body();
        }
        let body = article.render(self.format);
        match &self.out_dir {
            Some(dir) => {
                let name = unique_name(&mut self.used_names, &loc.stem(), self.format.ext());
                forest::store::write_atomic(&dir.join(&name), body.as_bytes())
                    .with_context(|| format!("cannot write {}", dir.join(&name).display()))?;
            }
            None if self.array => {
                out.write_all(if self.written == 0 { b"[\n" } else { b",\n" })?;
                out.write_all(body.trim_end().as_bytes())?;
            }
            None => {
                if self.headers {
                    writeln!(out, "==> {loc} <==")?;
                }
                out.write_all(body.as_bytes())?;
            }
        }
        self.written += 1;
        Ok(())
    }

    fn finish(self, out: &mut impl Write) -> anyhow::Result<()> {
        if self.array && self.written > 0 {
            out.write_all(b"\n]\n")?;
        }
        if let Some((index, dir)) = self.index {
            let n = index.finish()?;
            let total = forest::index::ArticleIndex::open(&dir).map(|i| i.len().to_string()).unwrap_or_else(|_| "?".into());
            eprintln!("forest: added {n} articles to the index {} (it holds {total})", dir.display());
        }
        Ok(())
    }
}

pub(crate) fn apply(a: ApplyArgs) -> anyhow::Result<ExitCode> {
    let warc = !a.warc.is_empty();
    let mut inputs = a.inputs.clone();
    if let Some(list) = &a.input_file {
        let text = std::fs::read_to_string(list).with_context(|| format!("cannot read the list {}", list.display()))?;
        inputs.extend(text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_string));
    }
    let fetcher = std::sync::Arc::new(a.fetch.fetcher_for(&inputs)?);
    let budget = a.budget.page();
    // A web page of a site without stored rules: its site is learned on the fly (not for an
    // archive's records, which name many sites offline), else the single-page extractor;
    // or the page is skipped, when told.
    let missing = if a.require_wrapper {
        Missing::Error
    } else if a.no_learn || warc {
        Missing::SinglePage
    } else {
        learning(&fetcher, a.store.open()?, budget, a.budget.learn_time(), a.fetch.quiet)
    };
    let rules = match (&a.wrapper, &a.site_config) {
        (Some(w), _) => Rules::wrapper(Wrapper::load(w)?)?,
        (None, Some(c)) => Rules::SiteConfig(Box::new(read_site_config(c)?)),
        (None, None) => Rules::Store(a.store.open()?, missing),
    };
    // Check the rules compile before any page is read.
    rules.resolver()?;
    let sources = if warc { Vec::new() } else { forest::page::sources(&inputs)? };
    if !warc && sources.is_empty() {
        bail!("no page given: name files, folders or URLs, or --warc FILE");
    }
    if let Some(dir) = &a.out_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let index = match &a.index {
        Some(dir) => Some((forest::index::ArticleIndex::open_or_create(dir)?.writer(a.batch)?, dir.clone())),
        None => None,
    };
    let jobs = a.jobs.unwrap_or_else(forest::run::cores).max(1);
    let many = warc || sources.len() > 1;
    // Plain text reads no title or language (the index and `--no-title` do).
    let fields = if a.format == Format::Text && !a.no_title && index.is_none() { Fields::Text } else { Fields::All };
    let mut sink = Sink {
        format: a.format,
        out_dir: a.out_dir.clone(),
        array: many && a.format == Format::Json && a.out_dir.is_none(),
        headers: many && a.format != Format::Jsonl && a.format != Format::Json,
        used_names: Default::default(),
        written: 0,
        skipped: 0,
        fallbacks: 0,
        doubtful: 0,
        many,
        no_title: a.no_title,
        warc,
        hinted: Default::default(),
        outcomes: Default::default(),
        index,
    };
    let started = std::time::Instant::now();
    let bar = progress_bar(sources.len(), "pages", a.fetch.quiet);
    let mut stdout = std::io::stdout().lock();
    let mut put = |loc: Location, r: forest::Result<Article>| {
        if let Some(b) = &bar {
            b.inc(1);
        }
        sink.put(&mut stdout, &loc, r)
    };
    let mut total = 0usize;
    // Records of an archive that were truncated, malformed or over the size cap: skipped
    // inputs, so the run says so in its exit code (a shard workflow retries those).
    let mut damaged = 0u64;
    // Archives that could not be opened: skipped inputs too.
    let mut unread = 0usize;
    if warc {
        let mut stats = forest::warc::Stats::default();
        for file in &a.warc {
            // An archive that cannot be opened is skipped with its reason; the others go on.
            let mut reader = match forest::warc::Reader::open(file) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("forest: skipped {}: {}", file.display(), explain(&e));
                    unread += 1;
                    continue;
                }
            };
            // A damaged record is counted, and named with where it stands and what is wrong.
            let shown = file.display().to_string();
            let pages = std::iter::from_fn(|| loop {
                match reader.try_next_page(&mut stats)? {
                    Ok((url, fetched)) => return Some(Source::Fetched(Location::Url(url), fetched)),
                    Err(e) => eprintln!("forest: skipped a record of {shown}: {}", explain(&e)),
                }
            });
            total += rules.articles(pages, jobs, &fetcher, &budget, fields, &mut put)?;
        }
        eprintln!("forest: {stats}");
        if unread == a.warc.len() {
            bail!("no archive could be read ({unread} skipped)");
        }
        damaged = stats.skipped_bad + stats.skipped_too_large;
    } else {
        total = rules.articles(sources, jobs, &fetcher, &budget, fields, &mut put)?;
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let (skipped, fallbacks, written, doubtful) = (sink.skipped, sink.fallbacks, sink.written, sink.doubtful);
    let outcomes = std::mem::take(&mut sink.outcomes);
    sink.finish(&mut stdout)?;
    if total > 1 && !a.fetch.quiet {
        let secs = started.elapsed().as_secs_f64();
        eprintln!(
            "forest: {total} pages: {written} articles ({fallbacks} by a fallback rule, {doubtful} of low confidence), {skipped} skipped; {secs:.1} s, {:.0} pages/s",
            total as f64 / secs.max(1e-9)
        );
    }
    if total > 0 && skipped == total {
        bail!("no page could be read ({skipped} skipped)");
    }
    if damaged > 0 {
        eprintln!("forest: {damaged} damaged or oversized archive records were skipped");
    }
    if let (Rules::Store(store, missing), false) = (&rules, outcomes.is_empty()) {
        keep_health(store, missing, outcomes, a.relearn, &budget);
    }
    Ok(if skipped > 0 || damaged > 0 || unread > 0 { ExitCode::from(3) } else { ExitCode::SUCCESS })
}

/// A file name from an untrusted stem: safe characters only, never a path, never reused.
fn unique_name(used: &mut std::collections::HashSet<String>, stem: &str, ext: &str) -> String {
    let mut safe: String = stem
        .chars()
        .map(|c| if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' })
        .take(100)
        .collect();
    // Hidden names, and the names Windows reserves for devices (CON, NUL, COM1, …), get a `_`.
    let device = safe.split('.').next().is_some_and(|base| {
        let b = base.to_ascii_uppercase();
        matches!(b.as_str(), "CON" | "PRN" | "AUX" | "NUL")
            || ((b.starts_with("COM") || b.starts_with("LPT")) && b.len() == 4 && b.as_bytes()[3].is_ascii_digit())
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

/// Record how each stored wrapper did on this run's pages; say which sites drifted from their
/// wrapper, and learn those again when asked (from the page it last failed on).
fn keep_health(store: &forest::store::Store, missing: &Missing, outcomes: forest::store::Outcomes, relearn: bool, budget: &forest::budget::Budget) {
    let (drifted, unrecorded) = outcomes.record(store);
    for (host, e) in unrecorded {
        eprintln!("forest: the health of {host}'s wrapper was not recorded: {e}");
    }
    for drift in drifted {
        let host = &drift.host;
        let at = drift.last_failure.as_deref().map(Location::parse);
        let (Missing::Learn(learner), true, Some(Location::Url(url))) = (missing, relearn, at) else {
            eprintln!(
                "forest: the wrapper of {host} failed on {} of its last {} pages: the site may have changed \
                 (learn it again with `forest apply --relearn` on a recent page, or `forest induce`)",
                drift.failed,
                forest::store::DRIFT_PAGES
            );
            continue;
        };
        match forest::page::Page::read(&Location::Url(url.clone()), budget) {
            Ok(page) => {
                if learner.relearn(&page).outcome.is_ok() {
                    eprintln!("forest: {host} drifted from its wrapper and was learned again (undo: `forest wrappers undo {host}`)");
                }
            }
            Err(e) => eprintln!("forest: {host} drifted, but {url} could not be read to learn it again: {e}"),
        }
    }
}

/// Learn hosts without stored rules on the fly, saying on stderr what was learned from where.
fn learning(
    fetcher: &std::sync::Arc<forest::fetch::Fetcher>,
    store: forest::store::Store,
    budget: forest::budget::Budget,
    time: std::time::Duration,
    quiet: bool,
) -> Missing {
    let mut learner = forest::learn::Learner::new(std::sync::Arc::clone(fetcher), store, budget);
    learner.time = time;
    let learner = learner.reporting(move |l| match &l.outcome {
        Ok((path, from, pages)) if !quiet => {
            eprintln!("forest: learned {} from {pages} pages ({from}); stored as {}", l.host, path.display())
        }
        Ok(_) => {}
        Err(why) => eprintln!("forest: could not learn {}: {why}; its pages get the single-page extractor", l.host),
    });
    Missing::Learn(std::sync::Arc::new(learner))
}

/// `forest feed`: the feed with each item's article, by the stored rules of its host (learned
/// on the fly when missing).
pub(crate) fn feed(a: FeedArgs) -> anyhow::Result<ExitCode> {
    let fetcher = std::sync::Arc::new(a.fetch.fetcher_for(std::slice::from_ref(&a.feed))?);
    let budget = a.budget.page();
    let at = Location::parse_input(&a.feed);
    let fetched = fetcher.get(&at)?;
    let sample = forest::feed::parse(&fetched.bytes, &fetched.location)?;
    let store = a.store.open()?;
    let missing = if a.no_learn {
        Missing::SinglePage
    } else {
        learning(&fetcher, store.clone(), budget, a.budget.learn_time(), a.fetch.quiet)
    };
    let rules = Rules::Store(store, missing);
    let links: Vec<Option<String>> = sample.items.iter().map(|i| i.link.clone()).collect();
    let sources: Vec<Source> = sample.items.iter().map(|i| Source::Read(i.page.clone(), Some(i.clone()))).collect();
    let jobs = a.jobs.unwrap_or_else(forest::run::cores).max(1);
    let mut articles = std::collections::HashMap::new();
    let (mut skipped, mut k) = (0usize, 0usize);
    rules.articles(sources, jobs, &fetcher, &budget, Fields::All, |loc, r| -> anyhow::Result<()> {
        match (r, links.get(k).cloned().flatten()) {
            (Ok(article), Some(link)) => {
                articles.insert(link, article.html());
            }
            (Ok(_), None) => {}
            (Err(e), _) => {
                eprintln!("forest: skipped {loc}: {}", explain(&e));
                skipped += 1;
            }
        }
        k += 1;
        Ok(())
    })?;
    let out = forest::fulltext::rewrite(&fetched.bytes, &a.feed, &articles)?;
    match &a.out {
        Some(path) => forest::store::write_atomic(path, &out.bytes).with_context(|| format!("cannot write {}", path.display()))?,
        None => std::io::stdout().lock().write_all(&out.bytes)?,
    }
    // Items the feed could not map to a page are skipped inputs too: each is named.
    for s in &sample.skipped {
        eprintln!("forest: skipped item {}: {}", s.what, s.why);
    }
    if !a.fetch.quiet {
        eprintln!("forest: {} of {} items with their full article", out.filled, sample.items.len() + sample.skipped.len());
    }
    let unfilled = sample.items.len().saturating_sub(out.filled);
    if unfilled > skipped {
        eprintln!("forest: {} items got no article (their link could not be matched in the feed)", unfilled - skipped);
    }
    Ok(if skipped > 0 || !sample.skipped.is_empty() || unfilled > skipped { ExitCode::from(3) } else { ExitCode::SUCCESS })
}
