//! `forest apply`: pages in (files, folders, URLs or WARC records), articles out (stdout, one
//! file per page, the index). The library resolves the rules and runs the pages
//! ([`forest::rules::Rules::articles`]); this file chooses the rules from the flags and writes.

use super::*;
use forest::page::Source;
use forest::article::Fields;
use forest::rules::{Missing, Rules};

/// Read and check a FiveFilters site config; its warnings go to stderr.
fn read_site_config(path: &Path) -> anyhow::Result<forest::ftr::SiteConfig> {
    let (config, warnings) = forest::ftr::SiteConfig::load(path)?;
    say_warnings(path, &warnings);
    Ok(config)
}

/// Say on stderr, by line, what a site config's file holds that forest reads differently or
/// not at all.
pub(crate) fn say_warnings(path: &Path, warnings: &[forest::ftr::Warning]) {
    for w in warnings {
        say!("forest: {}:{}: {}", path.display(), w.line, w.message);
    }
}

/// What `apply` writes ([`forest::output::Writer`]) and counts, and what it says of each page.
struct Sink<W: Write> {
    out: forest::output::Writer<W>,
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
}

impl<W: Write> Sink<W> {
    fn put(&mut self, loc: &Location, result: forest::Result<Article>) -> anyhow::Result<()> {
        let article = match result {
            Ok(a) => a,
            Err(e) => {
                say!("{}", skip_line(loc, &explain(&e)));
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
                    say!(
                        "forest: {loc}: no stored wrapper for {site}; used the single-page extractor \
                         (for site-level accuracy, run `forest induce` on a feed or a few pages of the site)"
                    );
                }
            }
            forest::Rule::SinglePage => {}
            forest::Rule::SinglePageFallback => {
                say!("forest: {loc}: the site's rules matched nothing on the page; used the single-page extractor");
            }
            // The arbiter's choice and the wrapper's own patterns found by type or as
            // alternatives are the designed way to read pages outside the sample: said for a
            // single page, only counted for many.
            forest::Rule::SinglePagePreferred => {
                if !self.many {
                    say!(
                        "forest: {loc}: the wrapper's article and the single-page extractor's disagreed; the site's template favoured the single-page one"
                    );
                }
            }
            rule @ (forest::Rule::SameTypeSameLevel | forest::Rule::SameType | forest::Rule::Alternative(_)) => {
                if !self.many {
                    say!("forest: {loc}: found by the wrapper's element type, not its exact XPath (rule {})", rule.name());
                }
            }
            // The single-page extractor found no article: the page's whole text is given.
            forest::Rule::WholePage if article.xpath.is_empty() => {
                let why = if article.text.trim().is_empty() { "the page shows no text (its content may be loaded by scripts)" } else { "no article found; the page's whole text is given" };
                say!("forest: {loc}: {why}");
            }
            forest::Rule::Description => say!("forest: {loc}: the page shows no article (its content may be loaded by scripts); its declared description is given"),
            rule => say!("forest: {loc}: the wrapper's patterns matched nothing; used fallback rule {}", rule.name()),
        }
        if article.rule.is_fallback() {
            self.fallbacks += 1;
        }
        if article.confidence < forest::article::DOUBTFUL {
            self.doubtful += 1;
            if !self.many {
                say!(
                    "forest: {loc}: low confidence ({:.2}): the article may be wrong or partial; check it, or route the page elsewhere",
                    article.confidence
                );
            }
        }
        // The index keeps the whole text; the output may leave the headline out.
        let text = (self.no_title && matches!(self.out.format(), Format::Text | Format::Json | Format::Jsonl)).then(|| article.body());
        Ok(self.out.put(loc, article, text)?)
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
    let jobs = a.jobs.unwrap_or_else(forest::run::cores).max(1);
    let many = warc || sources.len() > 1;
    let out = match &a.out_dir {
        Some(dir) => forest::output::Writer::folder(dir, a.format)?,
        None => forest::output::Writer::stream(std::io::stdout().lock(), a.format, many),
    };
    let indexed = a.index.is_some();
    let out = match &a.index {
        Some(dir) => out.with_index(dir, a.batch)?,
        None => out,
    };
    // Plain text reads no title or language (the index and `--no-title` do).
    let fields = if a.comments {
        Fields::Comments
    } else if a.format == Format::Text && !a.no_title && !indexed {
        Fields::Text
    } else {
        Fields::All
    };
    let mut sink = Sink { out, skipped: 0, fallbacks: 0, doubtful: 0, many, no_title: a.no_title, warc, hinted: Default::default(), outcomes: Default::default() };
    let started = std::time::Instant::now();
    let bar = progress_bar(sources.len(), "pages", a.fetch.quiet);
    let mut put = |loc: Location, r: forest::Result<Article>| {
        if let Some(b) = &bar {
            b.inc(1);
        }
        sink.put(&loc, r)
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
                    say!("{}", skip_line(&file.display(), &explain(&e)));
                    unread += 1;
                    continue;
                }
            };
            // A damaged record is counted, and named with where it stands and what is wrong.
            let shown = file.display().to_string();
            let pages = std::iter::from_fn(|| loop {
                match reader.try_next_page(&mut stats)? {
                    Ok((url, fetched)) => return Some(Source::Fetched(Location::Url(url), fetched)),
                    Err(e) => say!("forest: skipped a record of {shown}: {}", explain(&e)),
                }
            });
            total += rules.articles(pages, jobs, &fetcher, &budget, fields, &mut put)?;
        }
        say!("forest: {stats}");
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
    let (skipped, fallbacks, written, doubtful) = (sink.skipped, sink.fallbacks, sink.out.written, sink.doubtful);
    if let (Some((added, total)), Some(dir)) = (sink.out.finish()?, &a.index) {
        say!("forest: added {added} articles to the index {} (it holds {total})", dir.display());
    }
    let outcomes = sink.outcomes;
    if total > 1 && !a.fetch.quiet {
        let secs = started.elapsed().as_secs_f64();
        say!(
            "forest: {total} pages: {written} articles ({fallbacks} by a fallback rule, {doubtful} of low confidence), {skipped} skipped; {secs:.1} s, {:.0} pages/s",
            total as f64 / secs.max(1e-9)
        );
    }
    if total > 0 && skipped == total {
        bail!("no page could be read ({skipped} skipped)");
    }
    if damaged > 0 {
        say!("forest: {damaged} damaged or oversized archive records were skipped");
    }
    if let (Rules::Store(store, missing), false) = (&rules, outcomes.is_empty()) {
        keep_health(store, missing, outcomes, a.relearn);
    }
    Ok(if skipped > 0 || damaged > 0 || unread > 0 { ExitCode::from(3) } else { ExitCode::SUCCESS })
}

/// Record how each stored wrapper did on this run's pages; say which sites drifted from their
/// wrapper, and learn those again when asked.
fn keep_health(store: &forest::store::Store, missing: &Missing, outcomes: forest::store::Outcomes, relearn: bool) {
    let (drifted, unrecorded) = outcomes.record(store);
    for (host, e) in unrecorded {
        say!("forest: the health of {host}'s wrapper was not recorded: {e}");
    }
    for drift in drifted {
        let host = &drift.host;
        match (missing, relearn) {
            (Missing::Learn(learner), true) => match learner.relearn_drifted(&drift).outcome {
                Ok(_) => say!("forest: {host} drifted from its wrapper and was learned again (undo: `forest wrappers undo {host}`)"),
                Err(why) => say!("forest: {host} drifted from its wrapper, but was not learned again: {why}"),
            },
            _ => say!("forest: {drift} (learn it again with `forest apply --relearn` on a recent page, or `forest induce`)"),
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
            say!("forest: learned {} from {pages} pages ({from}); stored as {}", l.host, path.display())
        }
        Ok(_) => {}
        Err(why) => say!("forest: could not learn {}: {why}; its pages get the single-page extractor", l.host),
    });
    Missing::Learn(std::sync::Arc::new(learner))
}

/// `forest feed`: the feed with each item's article, by the stored rules of its host (learned
/// on the fly when missing).
pub(crate) fn feed(a: FeedArgs) -> anyhow::Result<ExitCode> {
    let fetcher = std::sync::Arc::new(a.fetch.fetcher_for(std::slice::from_ref(&a.feed))?);
    let budget = a.budget.page();
    let store = a.store.open()?;
    let missing = if a.no_learn { Missing::SinglePage } else { learning(&fetcher, store.clone(), budget, a.budget.learn_time(), a.fetch.quiet) };
    let jobs = a.jobs.unwrap_or_else(forest::run::cores).max(1);
    let full = forest::fulltext::fill(&Rules::Store(store, missing), &fetcher, &Location::parse_input(&a.feed), jobs, &budget)?;
    match &a.out {
        Some(path) => forest::store::write_atomic(path, &full.feed.bytes).with_context(|| format!("cannot write {}", path.display()))?,
        None => std::io::stdout().lock().write_all(&full.feed.bytes)?,
    }
    // Items the feed could not map to a page are skipped inputs too: each is named.
    for s in &full.skipped {
        say!("forest: skipped item {}: {}", s.what, s.why);
    }
    for (loc, e) in &full.failed {
        say!("{}", skip_line(loc, &explain(e)));
    }
    if !a.fetch.quiet {
        say!("forest: {} of {} items with their full article", full.feed.filled, full.items);
    }
    let unfilled = (full.items - full.skipped.len()).saturating_sub(full.feed.filled + full.failed.len());
    if unfilled > 0 {
        say!("forest: {unfilled} items got no article (their link could not be matched in the feed)");
    }
    Ok(if full.failed.is_empty() && full.skipped.is_empty() && unfilled == 0 { ExitCode::SUCCESS } else { ExitCode::from(3) })
}
