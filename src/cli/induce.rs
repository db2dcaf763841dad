//! `forest induce`: a site's wrapper from a feed, a folder or a URL; or one per host of web
//! archives.

use super::*;

impl InduceArgs {
    pub(crate) fn config(&self) -> Config {
        Config {
            signifiers: match self.signifiers_from {
                SigFrom::Tfidf => forest::signifiers::Source::Tfidf,
                SigFrom::Feed => forest::signifiers::Source::Feed,
            },
            k: self.k,
            rank: match self.rank {
                RankBy::Forest => forest::rank::Strategy::Forest,
                RankBy::Coverage => forest::rank::Strategy::Coverage,
            },
            skip_numeric: self.skip_numeric,
            language: self.lang.clone(),
            template_min_pages: self.template_min_pages,
            ..Config::default()
        }
    }
}

/// Induce a wrapper for every host of web archives with enough pages, into the store.
pub(crate) fn induce_warc(a: &InduceArgs) -> anyhow::Result<ExitCode> {
    let store = if a.no_store { None } else { Some(a.store.open()?) };
    let sites = forest::learn::from_archives(&a.warc, a.min_pages, a.max_pages, &a.budget.page(), &a.config())?;
    say!("forest: {}", sites.stats);
    if sites.unreadable > 0 {
        say!("forest: {} HTML records could not be read as pages", sites.unreadable);
    }
    let mut out = std::io::stdout().lock();
    for (host, pages, wrapper) in &sites.learned {
        if let Some(store) = &store {
            store.keep(host, wrapper, a.replace)?;
        }
        writeln!(out, "{host}\t{pages}\t{}", wrapper.xpath)?;
    }
    for (host, e) in &sites.failed {
        say!("forest: no wrapper for {host}: {e}");
    }
    let whereto = store.as_ref().map(|s| format!(" into {}", s.dir().display())).unwrap_or_default();
    let (induced, failed) = (sites.learned.len(), sites.failed.len());
    say!("forest: {induced} wrappers induced{whereto}; {} hosts with fewer than {} pages, {failed} failed", sites.too_few, a.min_pages);
    if induced == 0 {
        bail!("no host of the archive has a wrapper (hosts with at least {} HTML pages: none that induce)", a.min_pages);
    }
    let damaged = sites.stats.skipped_bad + sites.stats.skipped_too_large;
    Ok(if failed > 0 || damaged > 0 { ExitCode::from(3) } else { ExitCode::SUCCESS })
}

pub(crate) fn induce(a: InduceArgs) -> anyhow::Result<ExitCode> {
    if !a.warc.is_empty() {
        return induce_warc(&a);
    }
    let Some(source) = &a.source else { bail!("name a feed, a folder of pages or a URL (or --warc FILE)") };
    let fetcher = a.fetch.fetcher_for(std::slice::from_ref(source))?;
    let sample = forest::feed::read_with(&fetcher, source)?;
    if let Some(feed) = &sample.found_at {
        say!("forest: {source} is a page; read the feed it links: {feed}");
    }
    for s in &sample.skipped {
        say!("forest: skipped feed item {}: {}", s.what, s.why);
    }
    let bar = a.fetch.progress(sample.items.len().min(a.max_pages), "pages");
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    // The FiveFilters export checks the wrapper on the whole pages, so it keeps them.
    let read = Inducer::read_sample(&sample, &fetcher, &a.config(), a.max_pages, &a.budget.page(), a.format == InduceFormat::Ftr, &tick);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    for (what, e) in &read.failed {
        say!("{}", skip_line(what, &explain(e)));
    }
    let (induction, pages, failed) = (read.induction?, read.pages, read.failed);
    let mut wrapper = induction.wrapper.clone();
    if let Some(h) = &a.host {
        wrapper.host = Some(forest::host::key(h)?);
    }
    let text = match a.format {
        InduceFormat::Xpath if a.explain => format!("{}\n\n{}", wrapper.xpath, induction.explain(20)),
        InduceFormat::Xpath => format!("{}\n", wrapper.xpath),
        InduceFormat::Json => format!("{}\n", wrapper.to_json()?),
        InduceFormat::Ftr => {
            let refs: Vec<&Page> = pages.iter().collect();
            forest::ftr::export(&wrapper, &refs).to_string()
        }
    };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    if let Some(path) = &a.out {
        let bytes = if a.format == InduceFormat::Ftr { text } else { wrapper.to_json()? };
        forest::store::write_atomic(path, bytes.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
    }
    // The wrapper was printed (and written to --out); not keeping it in the store is a part
    // of the job left undone: exit 3, so a script notices.
    let mut not_stored = false;
    if !a.no_store {
        match &wrapper.host {
            Some(host) => match a.store.open().and_then(|s| Ok(s.keep(host, &wrapper, a.replace)?)) {
                Ok((path, kept)) if !a.fetch.quiet => {
                    let older = if kept > 0 { format!(" (with {kept} older template(s) its pages do not show)") } else { String::new() };
                    say!("forest: stored as the wrapper of {host}{older}: {}", path.display());
                }
                Ok(_) => {}
                Err(e) => {
                    not_stored = true;
                    say!("forest: the wrapper was not stored: {e:#}");
                }
            },
            None => say!(
                "forest: not stored: the pages name no host (no URL, no canonical link); pass --host HOST to store it"
            ),
        }
    }
    Ok(if failed.is_empty() && sample.skipped.is_empty() && !not_stored { ExitCode::SUCCESS } else { ExitCode::from(3) })
}

