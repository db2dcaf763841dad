//! `forest crawl`: a whole site's articles. The library crawls ([`forest::crawl::Crawler`]) and
//! writes the crawl's folder ([`forest::crawl::output::Output`]); this file reads the flags,
//! shows progress and prints the summary.

use super::*;
use forest::crawl::{output::Output, Crawler, Event, Options, Skip};

pub(crate) fn crawl(a: CrawlArgs) -> anyhow::Result<ExitCode> {
    let Location::Url(start) = Location::parse_input(&a.url) else { bail!("{} is not a URL: name the site's start page", a.url) };
    let fetcher = a.fetch.fetcher_for(std::slice::from_ref(&a.url))?;
    let count = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
    let opts = Options { max_pages: count(a.max_pages), max_depth: count(a.max_depth), jobs: count(a.jobs), budget: a.page_budget(), comments: a.comments, ..Options::default() };
    let crawler = Crawler::new(&fetcher, a.store.open()?, opts);
    let mut output = match &a.out_dir {
        Some(dir) => Some(Output::open(dir, a.format, a.index.as_deref(), a.warc)?),
        None => None,
    };
    if let (Some(o), Some(dir)) = (output.as_ref().filter(|o| !o.done().is_empty()), &a.out_dir) {
        say!("forest: continuing the crawl in {}: {} articles already written", dir.display(), o.done().len());
    }
    let bar = (!a.fetch.quiet).then(|| progress_bar(count(a.max_pages), "pages", false)).flatten();
    let mut stdout = forest::output::Writer::stream(std::io::stdout().lock(), a.format, true);
    let started = std::time::Instant::now();
    // What the journal says is done is settled before the crawl starts.
    let done = output.as_ref().map(|o| o.done().clone()).unwrap_or_default();
    let summary = crawler.run(&start, &|url| done.contains(url), |event| -> anyhow::Result<()> {
        match event {
            Event::Response(f) => {
                if let Some(o) = &mut output {
                    o.response(f)?;
                }
            }
            Event::Progress { fetched, found } => {
                if let Some(b) = &bar {
                    b.set_length(found as u64);
                    b.set_position(fetched as u64);
                }
            }
            Event::Skipped(url, Skip::Failed, why) => say!("{}", skip_line(&url, &why.unwrap_or_default())),
            Event::Skipped(..) => {}
            Event::Learned(Ok((path, pages))) => {
                if !a.fetch.quiet {
                    say!("forest: learned the site's templates from {pages} of its articles; stored as {}", path.display());
                }
            }
            Event::Learned(Err(why)) => say!("forest: could not learn the site: {why}; its articles get the single-page extractor"),
            Event::Article(loc, result) => match *result {
                Ok(article) => match &mut output {
                    Some(o) => o.article(&loc, &article)?,
                    None => stdout.put(&loc, article, None)?,
                },
                Err(e) => say!("{}", skip_line(&loc, &explain(&e))),
            },
        }
        Ok(())
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    stdout.finish()?;
    let written = match output {
        Some(o) => o.finish()?,
        None => summary.articles,
    };
    for d in &summary.drifted {
        say!("forest: {d}");
    }
    if let Some(path) = &a.summary {
        let json = serde_json::to_string_pretty(&summary)?;
        forest::store::write_atomic(path, json.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if !a.fetch.quiet {
        let skipped: Vec<String> = summary.skipped.iter().map(|(why, n)| format!("{n} {}", why.name())).collect();
        say!(
            "forest: {} pages found, {} fetched ({}); {written} articles written{}; {:.1} s",
            summary.found,
            summary.fetched,
            summary.sources.join(", "),
            if skipped.is_empty() { String::new() } else { format!("; passed over: {}", skipped.join(", ")) },
            started.elapsed().as_secs_f64()
        );
    }
    let failed = summary.failed + summary.skipped.get(&Skip::Failed).copied().unwrap_or(0);
    Ok(if failed > 0 { ExitCode::from(3) } else { ExitCode::SUCCESS })
}
