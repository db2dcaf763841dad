//! `forest apply`: pages in (files, folders, URLs or WARC records), articles out (stdout, one
//! file per page, the index). The rules come from a wrapper, a site config or the store; pages
//! run in windows, `--jobs` at a time, and come out in input order.

use super::*;

/// Pages named by the inputs: folders expand to their .html/.htm files, in name order.
fn expand_inputs(inputs: &[String]) -> anyhow::Result<Vec<Location>> {
    let mut out = Vec::new();
    for input in inputs {
        match Location::parse(input) {
            Location::File(p) if p.is_dir() => {
                let mut files: Vec<PathBuf> = std::fs::read_dir(&p)
                    .with_context(|| format!("cannot list {}", p.display()))?
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|f| f.is_file() && f.extension().is_some_and(|x| x == "html" || x == "htm"))
                    .collect();
                files.sort();
                if files.is_empty() {
                    bail!("{} holds no .html pages", p.display());
                }
                out.extend(files.into_iter().map(Location::File));
            }
            loc => out.push(loc),
        }
    }
    Ok(out)
}

/// Where `apply` takes its rules from.
#[derive(Clone)]
enum Rules {
    /// One wrapper for every page.
    Wrapper(Box<Wrapper>),
    /// One FiveFilters site config for every page.
    SiteConfig(forest::ftr::SiteConfig),
    /// The stored wrapper of each page's host.
    Store(forest::store::Store),
}

/// Rules compiled for one page's site.
enum Compiled {
    /// No rules: the single-page extractor (Boilerpipe).
    SinglePage,
    Wrapper(Box<Applier>),
    SiteConfig(Box<forest::ftr::ConfigApplier>, String),
}

impl Compiled {
    fn new(rules: Rules) -> forest::Result<Compiled> {
        match rules {
            Rules::Wrapper(w) => Ok(Compiled::Wrapper(Box::new(Applier::new(*w)?))),
            Rules::SiteConfig(c) => {
                let xpath = c.body.join(" | ");
                Ok(Compiled::SiteConfig(Box::new(forest::ftr::ConfigApplier::new(c)?), xpath))
            }
            Rules::Store(_) => Err(forest::Error::Usage("a store is not one site's rules".into())),
        }
    }

    fn extractor(&self) -> &dyn Extractor {
        match self {
            Compiled::SinglePage => &forest::baselines::Boilerpipe,
            Compiled::Wrapper(a) => a.as_ref(),
            Compiled::SiteConfig(c, _) => c.as_ref(),
        }
    }

    fn xpath(&self) -> &str {
        match self {
            Compiled::SinglePage => "",
            Compiled::Wrapper(a) => &a.wrapper().xpath,
            Compiled::SiteConfig(_, x) => x,
        }
    }
}

/// A folder's feed: its page files with their item links, and the site's home page.
type FeedLinks = (Vec<(PathBuf, String)>, Option<String>);

/// One worker's compiled rules (sxd-xpath is not thread-safe, so each worker compiles its own),
/// by store file when they come from the store.
struct Resolver<'a> {
    rules: &'a Rules,
    /// A page whose host has no stored wrapper gets the single-page extractor (else: skipped).
    single_page: bool,
    /// The rules of a page whose site has none.
    none: Compiled,
    fixed: Option<Compiled>,
    by_file: std::collections::HashMap<PathBuf, Compiled>,
    /// Per folder: its feed.xml's page files with their item links, and the site's home page.
    feeds: std::collections::HashMap<PathBuf, FeedLinks>,
}

impl<'a> Resolver<'a> {
    fn new(rules: &'a Rules, single_page: bool) -> anyhow::Result<Resolver<'a>> {
        let fixed = match rules {
            Rules::Store(_) => None,
            other => Some(Compiled::new(other.clone())?),
        };
        Ok(Resolver { rules, single_page, none: Compiled::SinglePage, fixed, by_file: Default::default(), feeds: Default::default() })
    }

    /// The host of a page file as the `feed.xml` beside it links it (a folder of pages with
    /// its feed, as `induce` reads it).
    fn feed_host(&mut self, path: &Path) -> Option<String> {
        let dir = path.parent()?.to_path_buf();
        let (links, home) = self.feeds.entry(dir.clone()).or_insert_with(|| {
            let feed = dir.join("feed.xml");
            let Ok(sample) = forest::feed::read(&feed.to_string_lossy()) else { return (Vec::new(), None) };
            let links = sample
                .items
                .into_iter()
                .filter_map(|i| match (i.page, i.link) {
                    (Location::File(p), Some(link)) => Some((p, link)),
                    _ => None,
                })
                .collect();
            (links, sample.home)
        });
        let host = |u: &str| url::Url::parse(u).ok()?.host_str().map(str::to_string);
        links.iter().find(|(p, _)| p == path).and_then(|(_, link)| host(link)).or_else(|| host(home.as_deref()?))
    }

    /// The rules for `page`, read from `loc`.
    fn get(&mut self, loc: &Location, page: &Page) -> anyhow::Result<&Compiled> {
        let Rules::Store(store) = self.rules else {
            return self.fixed.as_ref().context("rules not compiled");
        };
        let host = match loc {
            Location::Url(u) => u.host_str().map(str::to_string),
            Location::File(path) => self.feed_host(path),
        }
        .or_else(|| forest::metadata::declared_host(&page.doc));
        let Some(host) = host else {
            bail!(
                "the page names no host (no URL, no feed.xml item, no canonical link), so no stored wrapper can be chosen: pass --wrapper or --site-config"
            );
        };
        let entry = store.find(&host)?;
        if entry.is_none() && self.single_page {
            return Ok(&self.none);
        }
        let Some(entry) = entry else {
            bail!(
                "no stored wrapper for {host} in {}: run `forest induce` on a feed of the site first, or pass --wrapper or --site-config",
                store.dir().display()
            );
        };
        if !self.by_file.contains_key(&entry.path) {
            let rules = match entry.kind {
                forest::store::Kind::Wrapper => Rules::Wrapper(Box::new(Wrapper::load(&entry.path)?)),
                forest::store::Kind::SiteConfig => Rules::SiteConfig(read_site_config(&entry.path)?),
            };
            self.by_file.insert(entry.path.clone(), Compiled::new(rules)?);
        }
        self.by_file.get(&entry.path).context("rules not compiled")
    }
}

/// Read and check a FiveFilters site config; warnings go to stderr.
pub(crate) fn read_site_config(path: &Path) -> anyhow::Result<forest::ftr::SiteConfig> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let (config, warnings) = forest::ftr::SiteConfig::parse(&text, &path.display().to_string())?;
    for w in warnings {
        eprintln!("forest: {}:{}: {}", path.display(), w.line, w.message);
    }
    Ok(config)
}

/// One page's output, the rule that selected it, and the article for the index.
struct Done {
    body: String,
    rule: forest::Rule,
    article: forest::index::Article,
}

type Rendered = anyhow::Result<Done>;

/// A page to process: to be read, or already read (from a WARC file).
enum Input {
    Read(Location),
    Fetched(Location, forest::fetch::Fetched),
}

impl Input {
    fn location(&self) -> &Location {
        match self {
            Input::Read(l) | Input::Fetched(l, _) => l,
        }
    }
}

/// Read (or take), clean and extract one page, and write it in `format`.
fn render(resolver: &mut Resolver, fetcher: &forest::fetch::Fetcher, input: Input, format: Format, budget: &BudgetArgs) -> Rendered {
    let (loc, fetched) = match input {
        Input::Read(loc) => {
            let f = fetcher.get(&loc)?;
            (loc, f)
        }
        Input::Fetched(loc, f) => (loc, f),
    };
    let loc = &loc;
    let started = std::time::Instant::now();
    let page = Page::from_fetched_within(loc, fetched, &budget.page())?;
    budget.check_time(started, "cleaning")?;
    let rules = resolver.get(loc, &page)?;
    let x = rules.extractor().extract(&page)?;
    budget.check_time(started, "extraction")?;
    let doc = &page.doc;
    let meta = forest::metadata::read(doc);
    // The page's URL: where it was fetched from, else the canonical URL it declares.
    let url = match loc {
        Location::Url(_) => Some(page.location.clone()),
        Location::File(_) => meta.url.clone().filter(|u| url::Url::parse(u).is_ok()),
    };
    let base = url.as_deref().and_then(|u| url::Url::parse(u).ok());
    let host = base.as_ref().and_then(|u| u.host_str().map(str::to_string));
    let (mut byline, mut published) = (meta.byline.clone(), meta.published.clone());
    if let Compiled::SiteConfig(c, _) = rules {
        let (date, authors) = c.declared(doc);
        if !authors.is_empty() {
            byline = Some(authors.join(", "));
        }
        published = date.or(published);
    }
    let title = title_of(&page, &x, &meta);
    let body = match format {
        Format::Text => format!("{}\n", x.text),
        Format::Markdown => forest::render::markdown(doc, &x, base.as_ref()),
        Format::Xml => forest::render::xml(doc, &x),
        Format::Html => forest::render::html_document(doc, &x, base.as_ref(), &title, meta.lang.as_deref()),
        Format::Json | Format::Jsonl => {
            let v = ArticleJson {
                url: url.as_deref(),
                source: loc.to_string(),
                host: host.clone(),
                title: title.clone(),
                byline: byline.clone(),
                published: published.clone(),
                lang: meta.lang.clone(),
                text: &x.text,
                html: forest::render::html(doc, &x, base.as_ref()),
                xpath: rules.xpath(),
                rule: x.rule.name(),
                confidence: x.rule.confidence(),
            };
            if format == Format::Json {
                format!("{}\n", serde_json::to_string_pretty(&v)?)
            } else {
                format!("{}\n", serde_json::to_string(&v)?)
            }
        }
    };
    let article = forest::index::Article {
        url: url.unwrap_or_else(|| loc.to_string()),
        host: host.unwrap_or_default(),
        title,
        text: x.text,
        published,
        lang: meta.lang,
        xpath: rules.xpath().to_string(),
        extracted_at: std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64),
    };
    Ok(Done { body, rule: x.rule, article })
}

/// One article in JSON output, fields in this order.
#[derive(serde::Serialize)]
struct ArticleJson<'a> {
    url: Option<&'a str>,
    source: String,
    host: Option<String>,
    title: String,
    byline: Option<String>,
    published: Option<String>,
    lang: Option<String>,
    text: &'a str,
    html: String,
    xpath: &'a str,
    rule: String,
    confidence: &'static str,
}

/// The article's title: the headline the extraction found or the page's headline, else the
/// declared headline, else `<title>`.
fn title_of(page: &Page, x: &forest::Extraction, meta: &forest::metadata::Metadata) -> String {
    let doc = &page.doc;
    x.headline
        .or_else(|| forest::extract::headline(doc))
        .map(|h| forest::clean::collapse_ws(&doc.text(h)))
        .filter(|t| !t.is_empty())
        .or_else(|| meta.headline.clone())
        .unwrap_or_else(|| doc.title.clone())
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
    index: Option<forest::index::ArticleWriter>,
}

impl Sink {
    fn put(&mut self, out: &mut impl Write, loc: &Location, result: Rendered) -> anyhow::Result<()> {
        let done = match result {
            Ok(d) => d,
            Err(e) => {
                eprintln!("forest: skipped {loc}: {e:#}");
                self.skipped += 1;
                return Ok(());
            }
        };
        if done.rule.is_fallback() {
            self.fallbacks += 1;
            if done.rule == forest::Rule::SinglePage {
                eprintln!("forest: {loc}: no wrapper for its site; used the single-page extractor");
            } else {
                eprintln!("forest: {loc}: the wrapper's XPath matched nothing; used fallback rule {}", done.rule.name());
            }
        }
        if let Some(index) = &mut self.index {
            index.add(&done.article)?;
        }
        match &self.out_dir {
            Some(dir) => {
                let name = unique_name(&mut self.used_names, &loc.stem(), self.format.ext());
                forest::store::write_atomic(&dir.join(&name), done.body.as_bytes())
                    .with_context(|| format!("cannot write {}", dir.join(&name).display()))?;
            }
            None if self.array => {
                out.write_all(if self.written == 0 { b"[\n" } else { b",\n" })?;
                out.write_all(done.body.trim_end().as_bytes())?;
            }
            None => {
                if self.headers {
                    writeln!(out, "==> {loc} <==")?;
                }
                out.write_all(done.body.as_bytes())?;
            }
        }
        self.written += 1;
        Ok(())
    }

    fn finish(self, out: &mut impl Write) -> anyhow::Result<()> {
        if self.array && self.written > 0 {
            out.write_all(b"\n]\n")?;
        }
        if let Some(index) = self.index {
            let n = index.finish()?;
            eprintln!("forest: index holds {n} articles");
        }
        Ok(())
    }
}

/// Render `inputs` and hand each result to `put`, in input order. With several jobs, that many
/// workers live for the whole call, each with its own [`Resolver`] (sxd-xpath is not
/// thread-safe; a worker's compiled rules and caches last across pages), and at most
/// [`IN_FLIGHT_PER_JOB`] × jobs pages are in flight, so memory stays bounded and the output is
/// the same for any number of jobs. Returns how many inputs there were.
#[allow(clippy::too_many_arguments)]
fn process(
    inputs: impl Iterator<Item = Input>,
    jobs: usize,
    resolver: &mut Resolver,
    rules: &Rules,
    fetcher: &forest::fetch::Fetcher,
    format: Format,
    budget: &BudgetArgs,
    mut put: impl FnMut(Location, Rendered) -> anyhow::Result<()>,
) -> anyhow::Result<usize> {
    if jobs == 1 {
        let mut n = 0;
        for input in inputs {
            let loc = input.location().clone();
            put(loc, render(resolver, fetcher, input, format, budget))?;
            n += 1;
        }
        return Ok(n);
    }
    let single_page = resolver.single_page;
    let max_in_flight = jobs * IN_FLIGHT_PER_JOB;
    let (task_tx, task_rx) = std::sync::mpsc::sync_channel::<(usize, Input)>(max_in_flight);
    let task_rx = std::sync::Mutex::new(task_rx);
    let (done_tx, done_rx) = std::sync::mpsc::channel::<(usize, Location, Rendered)>();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (task_rx, done_tx) = (&task_rx, done_tx.clone());
            scope.spawn(move || {
                // The rules compiled once already on the main thread, so this does not fail;
                // if it did, every page this worker takes says so.
                let mut local = Resolver::new(rules, single_page);
                loop {
                    let task = task_rx.lock().ok().and_then(|rx| rx.recv().ok());
                    let Some((i, input)) = task else { break };
                    let loc = input.location().clone();
                    let rendered = match &mut local {
                        Ok(resolver) => render(resolver, fetcher, input, format, budget),
                        Err(e) => Err(anyhow::anyhow!("{e:#}")),
                    };
                    if done_tx.send((i, loc, rendered)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        let mut inputs = inputs.fuse();
        let mut waiting: std::collections::BTreeMap<usize, (Location, Rendered)> = Default::default();
        let (mut sent, mut written) = (0usize, 0usize);
        let result = loop {
            while sent - written < max_in_flight {
                let Some(input) = inputs.next() else { break };
                if task_tx.send((sent, input)).is_err() {
                    break;
                }
                sent += 1;
            }
            if written == sent {
                break Ok(sent);
            }
            // Each worker answers every task it takes: none answers only when all are gone.
            let Ok((i, loc, rendered)) = done_rx.recv() else {
                break Err(anyhow::anyhow!("the workers stopped with {} pages unwritten", sent - written));
            };
            waiting.insert(i, (loc, rendered));
            let mut failed = None;
            while let Some((loc, rendered)) = waiting.remove(&written) {
                written += 1;
                if let Err(e) = put(loc, rendered) {
                    failed = Some(e);
                    break;
                }
            }
            if let Some(e) = failed {
                break Err(e);
            }
        };
        // Workers stop once the tasks run out (or at once, after a failure to write).
        drop(task_tx);
        result
    })
}

/// Pages in flight per job (read, queued or rendered but not yet written).
const IN_FLIGHT_PER_JOB: usize = 16;

pub(crate) fn apply(a: ApplyArgs) -> anyhow::Result<ExitCode> {
    let rules = match (&a.wrapper, &a.site_config) {
        (Some(w), _) => Rules::Wrapper(Box::new(Wrapper::load(w)?)),
        (None, Some(c)) => Rules::SiteConfig(read_site_config(c)?),
        (None, None) => Rules::Store(a.store.open()?),
    };
    // A WARC holds many sites: the ones without a wrapper get the single-page extractor.
    let warc = !a.warc.is_empty();
    // Check the rules compile before any page is read.
    let mut resolver = Resolver::new(&rules, warc)?;
    let locations = if warc { Vec::new() } else { expand_inputs(&a.inputs)? };
    if !warc && locations.is_empty() {
        bail!("no page given: name files, folders or URLs, or --warc FILE");
    }
    let fetcher = a.fetch.fetcher_for(&a.inputs)?;
    if let Some(dir) = &a.out_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let index = match &a.index {
        Some(dir) => Some(forest::index::ArticleIndex::open_or_create(dir)?.writer(a.batch)?),
        None => None,
    };
    let jobs = a.jobs.unwrap_or(1).max(1);
    let many = warc || locations.len() > 1;
    let mut sink = Sink {
        format: a.format,
        out_dir: a.out_dir.clone(),
        array: many && a.format == Format::Json && a.out_dir.is_none(),
        headers: many && a.format != Format::Jsonl && a.format != Format::Json,
        used_names: Default::default(),
        written: 0,
        skipped: 0,
        fallbacks: 0,
        index,
    };
    let mut stdout = std::io::stdout().lock();
    let mut put = |loc: Location, r: Rendered| sink.put(&mut stdout, &loc, r);
    let mut total = 0usize;
    if warc {
        let mut stats = forest::warc::Stats::default();
        for file in &a.warc {
            let mut reader = forest::warc::Reader::open(file)?;
            let pages = std::iter::from_fn(|| {
                let (url, fetched) = reader.next_page(&mut stats)?;
                Some(Input::Fetched(Location::Url(url), fetched))
            });
            total += process(pages, jobs, &mut resolver, &rules, &fetcher, a.format, &a.budget, &mut put)?;
        }
        eprintln!("forest: {stats}");
    } else {
        let pages = locations.into_iter().map(Input::Read);
        total = process(pages, jobs, &mut resolver, &rules, &fetcher, a.format, &a.budget, &mut put)?;
    }
    let skipped = sink.skipped;
    sink.finish(&mut stdout)?;
    if total > 0 && skipped == total {
        bail!("no page could be read ({skipped} skipped)");
    }
    Ok(if skipped > 0 { ExitCode::from(3) } else { ExitCode::SUCCESS })
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
