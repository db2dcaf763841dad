//! The `forest` command line: flags and subcommands only; the work is in the library.

use anyhow::{bail, Context};
use clap::{Parser, Subcommand, ValueEnum};
use forest::fetch::Location;
use forest::{Article, Config, Page, Wrapper};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[path = "cli/apply.rs"]
mod apply;

use apply::{apply, read_site_config};

const EXIT_CODES: &str = "\
Examples:
  forest induce feeds/demo-news/feed.xml --out demo.json     # learn a site's wrapper (kept in the store too)
  forest apply --wrapper demo.json feeds/demo-news/ --format markdown
  forest apply https://riverside-gazette.example/2024/03/bridge-repair.html --format json   # stored wrapper
  forest induce feeds/demo-news/ --format ftr                # as a FiveFilters site config
  forest apply --warc crawl.warc.gz --index archive/ && forest search archive/ \"bridge repairs\"
  forest wrappers list

Exit codes: 0 success; 1 error (nothing done); 2 bad usage; 3 done, but some inputs were skipped (listed on stderr).";

/// Find the main article of web pages: learn one XPath wrapper per site from a few of its
/// pages, then apply it to any page of that site.
#[derive(Parser)]
#[command(name = "forest", version, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Learn a site's wrapper from sample pages; prints its XPath and keeps it in the store.
    #[command(after_help = "Examples:\n  forest induce feeds/demo-news/feed.xml --out demo.json\n  \
        forest induce feeds/demo-news/ --explain\n  \
        forest induce https://example.org/feed.xml            # stored as example.org\n  \
        forest induce feeds/demo-news/ --format ftr > riverside-gazette.example.txt   # FiveFilters site config")]
    Induce(InduceArgs),
    /// Apply a wrapper to pages of its site; prints the article.
    #[command(after_help = "Examples:\n  forest apply --wrapper demo.json feeds/demo-news/bridge-repair.html\n  \
        forest apply feeds/demo-news/bridge-repair.html        # the stored wrapper of the page's host\n  \
        forest apply --wrapper demo.json feeds/demo-news/ --out-dir out/ --format markdown\n  \
        forest apply --site-config example.org.txt https://example.org/a.html --format json\n  \
        forest apply --wrapper demo.json feeds/demo-news/ --format jsonl > articles.jsonl")]
    Apply(ApplyArgs),
    /// List, show, remove or import the stored wrappers (one per site host).
    #[command(after_help = "Examples:\n  forest wrappers list\n  forest wrappers show riverside-gazette.example\n  \
        forest wrappers rm riverside-gazette.example\n  \
        forest wrappers import ftr-site-config/example.org.txt   # a FiveFilters site config")]
    Wrappers(WrappersArgs),
    /// Search the articles of an index made by `forest apply --index DIR`.
    #[command(after_help = "Examples:\n  forest search archive/ \"bridge repairs\"\n  \
        forest search archive/ '\"neural lace\" -musk' --limit 5 --host arstechnica.com\n  \
        forest search archive/ flood --json")]
    Search(SearchArgs),
    /// Merge indexes (one per shard) into one: every article of each, URLs kept unique.
    #[command(after_help = "Example:\n  forest merge-index archive/ shard-0001/ shard-0002/")]
    MergeIndex {
        /// The index to merge into (created when absent).
        into: PathBuf,
        /// The shard indexes.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
    },
    /// Evaluate methods on a gold set: the paper's Table 1 and Figures 4–7.
    #[command(after_help = "Examples:\n  forest bench gold/\n  \
        forest bench ../shared/corpus --json bench.json --out bench-out/\n  \
        forest bench ../shared/corpus --method forest-tfidf,boilerpipe --protocol unseen --dump outputs/")]
    Bench(BenchArgs),
    /// Print a page's cleaned, dfs-numbered XML.
    #[command(after_help = "Example:\n  forest clean page.html > page.xml")]
    Clean {
        /// Page file or http(s) URL.
        page: String,
    },
}

/// Limits per page: a page over one is skipped with the reason, and the run goes on.
#[derive(clap::Args)]
struct BudgetArgs {
    /// Most elements in one page.
    #[arg(long, default_value_t = forest::budget::MAX_ELEMENTS)]
    max_elements: usize,
    /// Deepest nesting kept; deeper elements are flattened into their ancestor, as browsers do.
    #[arg(long, default_value_t = forest::budget::MAX_DEPTH)]
    max_depth: usize,
    /// Most seconds spent on one page once read (cleaning and extraction); parsing and XPath
    /// evaluation stop when it runs out.
    #[arg(long, default_value_t = forest::budget::MAX_SECONDS)]
    max_seconds: f64,
    /// Most nodes one page's XPath evaluations may visit (wrappers and site configs that
    /// forest does not run directly go through a general XPath evaluator).
    #[arg(long, default_value_t = forest::budget::MAX_XPATH_VISITS)]
    max_xpath_visits: u64,
}

impl BudgetArgs {
    fn page(&self) -> forest::budget::Budget {
        forest::budget::Budget {
            max_elements: self.max_elements,
            max_depth: self.max_depth,
            max_xpath_visits: self.max_xpath_visits,
            max_time: std::time::Duration::try_from_secs_f64(self.max_seconds).ok(),
        }
    }
}

/// A library error as the user should read it: with the flag or step that helps.
fn explain(e: &forest::Error) -> String {
    use forest::budget::Limit;
    match e {
        forest::Error::OverBudget { limit, .. } => {
            let flag = match limit {
                Limit::Elements => "--max-elements",
                Limit::Time => "--max-seconds",
                Limit::XPathVisits => "--max-xpath-visits",
            };
            format!("{e} (raise it with {flag})")
        }
        forest::Error::Private { .. } => format!("{e}; pass --allow-private to allow it"),
        forest::Error::NoRules { host: Some(_), .. } => {
            format!("{e}: run `forest induce` on a feed of the site, or pass --wrapper or --site-config")
        }
        forest::Error::NoRules { host: None, .. } => format!("{e}: pass --wrapper or --site-config"),
        forest::Error::Invalid(m) if m.starts_with("no data folder known") => format!("{e}: pass --store DIR"),
        _ => e.to_string(),
    }
}

/// How pages and feeds are fetched over HTTP.
#[derive(clap::Args)]
struct FetchArgs {
    /// Seconds allowed for one request (connecting, waiting and reading the body).
    #[arg(long, default_value_t = 30.0)]
    timeout: f64,
    /// Retries after a timeout, a connection error, a 429 or a 5xx (with backoff, honouring
    /// Retry-After).
    #[arg(long, default_value_t = 2)]
    retries: u32,
    /// Milliseconds to wait between two requests to the same host.
    #[arg(long, default_value_t = 0)]
    delay: u64,
    /// Requests at once to one host.
    #[arg(long, default_value_t = 4)]
    per_host: usize,
    /// Largest page or feed in bytes; a larger download is aborted.
    #[arg(long, default_value_t = forest::fetch::MAX_BYTES)]
    max_bytes: u64,
    /// Cache folder for fetched pages (default: the user's cache dir, ~/.cache/forest).
    #[arg(long)]
    cache: Option<PathBuf>,
    /// Do not read or write the cache.
    #[arg(long)]
    no_cache: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Let feed links and redirects reach private, loopback and link-local addresses (refused
    /// by default, so a feed cannot make forest probe your network; the hosts you name on the
    /// command line are always allowed).
    #[arg(long)]
    allow_private: bool,
}

impl FetchArgs {
    /// A fetcher that trusts the hosts of the URLs among `named` (the user typed them).
    fn fetcher_for<S: AsRef<str>>(&self, named: &[S]) -> anyhow::Result<forest::fetch::Fetcher> {
        let fetcher = self.fetcher()?;
        for n in named {
            if let Location::Url(u) = Location::parse(n.as_ref()) {
                fetcher.trust(&u);
            }
        }
        Ok(fetcher)
    }

    fn fetcher(&self) -> anyhow::Result<forest::fetch::Fetcher> {
        let cache = if self.no_cache { None } else { self.cache.clone().or_else(forest::fetch::default_cache_dir) };
        let opts = forest::fetch::FetchOptions {
            timeout: std::time::Duration::from_secs_f64(self.timeout.max(0.001)),
            connect_timeout: std::time::Duration::from_secs_f64(self.timeout.clamp(0.001, 10.0)),
            retries: self.retries,
            delay: std::time::Duration::from_millis(self.delay),
            per_host: self.per_host.max(1),
            max_bytes: self.max_bytes,
            cache,
            allow_private: self.allow_private,
            ..forest::fetch::FetchOptions::default()
        };
        Ok(forest::fetch::Fetcher::new(opts)?)
    }

    /// A progress bar on stderr when it is a terminal and not `--quiet`.
    fn progress(&self, len: usize, what: &'static str) -> Option<indicatif::ProgressBar> {
        use std::io::IsTerminal;
        if self.quiet || !std::io::stderr().is_terminal() || len < 2 {
            return None;
        }
        let bar = indicatif::ProgressBar::new(len as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {what}  {{elapsed}}")) {
            bar.set_style(style);
        }
        Some(bar)
    }
}

#[derive(clap::Args)]
struct InduceArgs {
    /// A feed URL, a feed file, or a folder of .html pages (with its feed.xml when present).
    #[arg(required_unless_present = "warc")]
    source: Option<String>,
    /// Read the pages from web archives (.warc, .warc.gz) instead: a wrapper for every host
    /// with at least --min-pages HTML pages, into the store; prints host, pages, XPath.
    #[arg(long, num_args = 1.., value_name = "FILE", conflicts_with = "source")]
    warc: Vec<PathBuf>,
    /// With --warc: the fewest pages a host needs for a wrapper.
    #[arg(long, default_value_t = 3)]
    min_pages: usize,
    /// Write the wrapper (JSON) to this file.
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Print the candidate table (rank, level, clue, dfs, pages, relevance) after the XPath.
    #[arg(long)]
    explain: bool,
    /// Signifiers per page (tf-idf).
    #[arg(long = "signifiers", short = 'k', default_value_t = Config::default().k)]
    k: usize,
    /// Where signifiers come from.
    #[arg(long, value_enum, default_value_t = SigFrom::Tfidf)]
    signifiers_from: SigFrom,
    /// Ranking of structural patterns.
    #[arg(long, value_enum, default_value_t = RankBy::Forest)]
    rank: RankBy,
    /// Leave out signifiers made only of digits (dates, counts).
    #[arg(long)]
    skip_numeric: bool,
    /// Language code for stemming and stop words (default: from the pages).
    #[arg(long)]
    lang: Option<String>,
    /// Text at the same tag path on this many sample pages is site template, cut from the
    /// article (0 turns it off).
    #[arg(long, default_value_t = Config::default().template_min_pages)]
    template_min_pages: usize,
    /// Use at most this many pages of the source.
    #[arg(long, default_value_t = 20)]
    max_pages: usize,
    /// What to print (and write with --out): the XPath (--out then writes the wrapper JSON),
    /// the wrapper JSON, or a FiveFilters site config.
    #[arg(long, value_enum, default_value_t = InduceFormat::Xpath)]
    format: InduceFormat,
    /// The site's host, for the store (default: from the pages' URLs or canonical links).
    #[arg(long)]
    host: Option<String>,
    #[command(flatten)]
    store: StoreArgs,
    /// Do not keep the wrapper in the store.
    #[arg(long)]
    no_store: bool,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    fetch: FetchArgs,
}

/// Where wrappers are kept.
#[derive(clap::Args, Clone)]
struct StoreArgs {
    /// Wrapper store folder (default: ~/.local/share/forest/wrappers).
    #[arg(long = "store", env = "FOREST_STORE", value_name = "DIR")]
    dir: Option<PathBuf>,
}

impl StoreArgs {
    fn open(&self) -> anyhow::Result<forest::store::Store> {
        Ok(match &self.dir {
            Some(d) => forest::store::Store::new(d),
            None => forest::store::Store::open_default()?,
        })
    }
}

#[derive(clap::Args)]
struct SearchArgs {
    /// The index folder.
    dir: PathBuf,
    /// Words (any of them), "a phrase", AND / OR, -excluded, +required.
    query: String,
    /// Most results.
    #[arg(long, short = 'n', default_value_t = 10)]
    limit: usize,
    /// Only articles of this host.
    #[arg(long)]
    host: Option<String>,
    /// Results as JSON (score, url, host, title, published, snippet, fragment, highlighted).
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct WrappersArgs {
    #[command(subcommand)]
    action: WrappersAction,
    #[command(flatten)]
    store: StoreArgs,
}

#[derive(Subcommand)]
enum WrappersAction {
    /// List the stored wrappers and site configs.
    List {
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the wrapper or site config that serves a host.
    Show {
        /// Host name or URL.
        host: String,
    },
    /// Remove a host's wrapper and site config.
    Rm {
        /// Host name or URL.
        host: String,
    },
    /// Import FiveFilters site configs (checked first); the host comes from the file name
    /// (`example.org.txt`, `.example.org.txt`) unless --host is given.
    Import {
        /// Site config files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Store them for this host.
        #[arg(long)]
        host: Option<String>,
    },
}

#[derive(clap::Args)]
struct BenchArgs {
    /// Gold set: <site>/<id>.html with <id>.txt gold text (and <site>/feed.xml).
    #[arg(default_value = "gold")]
    corpus: PathBuf,
    /// Methods to run, comma-separated (default: all): forest-tfidf, forest-feeds, coverage,
    /// sigfeed, description, boilerpipe, fulltext; for ablation forest-tfidf-no-M with M one of
    /// template, link-text, link-blocks, split, headline, alternatives, anchored, and
    /// forest-paper (all off).
    #[arg(long = "method", value_delimiter = ',')]
    methods: Vec<String>,
    /// Protocol: samples (fit and evaluate on the same pages), unseen (leave one page out), both.
    #[arg(long, value_enum, default_value_t = ProtocolArg::Both)]
    protocol: ProtocolArg,
    /// Worker threads (default: all cores); results are identical for any value.
    #[arg(long)]
    jobs: Option<usize>,
    /// Write the full report (rows, per-page results, timings, curves) as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Write every output text to DIR/<method>/<site>/<id>.txt (unseen: DIR/unseen/<method>/…).
    #[arg(long)]
    dump: Option<PathBuf>,
    /// Folder for the SVG figures.
    #[arg(long, default_value = "bench-out")]
    out: PathBuf,
    /// Skip the figures and the extra runs they need.
    #[arg(long)]
    no_figures: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum ProtocolArg {
    Samples,
    Unseen,
    Both,
}

#[derive(Clone, Copy, ValueEnum)]
enum SigFrom {
    Tfidf,
    Feed,
}

#[derive(Clone, Copy, ValueEnum)]
enum RankBy {
    Forest,
    Coverage,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum InduceFormat {
    /// The wrapper's XPath.
    Xpath,
    /// The wrapper file (JSON).
    Json,
    /// A FiveFilters site config (ftr-site-config).
    Ftr,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Plain text, paragraphs separated by blank lines.
    Text,
    /// CommonMark (GFM tables).
    Markdown,
    /// An HTML document holding the article.
    Html,
    /// The article's cleaned XML, with dfs numbers.
    Xml,
    /// One JSON object per page (an array for several pages on stdout).
    Json,
    /// One JSON object per line.
    Jsonl,
}

impl Format {
    fn ext(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Markdown => "md",
            Format::Html => "html",
            Format::Xml => "xml",
            Format::Json | Format::Jsonl => "json",
        }
    }
}

#[derive(clap::Args)]
struct ApplyArgs {
    /// The wrapper file written by `forest induce --out` (default: the stored wrapper of each
    /// page's host).
    #[arg(long, short, conflicts_with = "site_config")]
    wrapper: Option<PathBuf>,
    /// Apply a FiveFilters site config instead of a wrapper (body, title, strip,
    /// strip_id_or_class, strip_image_src, date, author).
    #[arg(long, value_name = "FILE")]
    site_config: Option<PathBuf>,
    /// Pages: files, folders of .html files, or http(s) URLs.
    #[arg(required_unless_present = "warc")]
    inputs: Vec<String>,
    /// Read the pages from web archives (.warc, .warc.gz): every HTML response, each with the
    /// stored wrapper of its host, else the single-page extractor (marked so).
    #[arg(long, num_args = 1.., value_name = "FILE", conflicts_with = "inputs")]
    warc: Vec<PathBuf>,
    /// Add every article to the search index at DIR (created on first use; a URL added again
    /// replaces its article). Search it with `forest search DIR QUERY`.
    #[arg(long, value_name = "DIR")]
    index: Option<PathBuf>,
    /// Articles per index commit: a run killed mid-way keeps every committed batch.
    #[arg(long, default_value_t = forest::index::DEFAULT_BATCH, requires = "index")]
    batch: usize,
    /// Write one file per page (<page>.txt, .md, .html, .xml or .json) into this folder
    /// instead of stdout.
    #[arg(long)]
    out_dir: Option<PathBuf>,
    /// Output format. JSON fields: url, source, host, title, byline, published, lang, text,
    /// html, xpath, rule, confidence.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    store: StoreArgs,
    /// Pages processed at once (threads); the output is the same for any value. Default 1.
    #[arg(long)]
    jobs: Option<usize>,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    fetch: FetchArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // The reader of our output went away (`forest … | head`): not an error.
        Err(e) if e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)) => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            match e.downcast_ref::<forest::Error>() {
                Some(f) if e.chain().count() == 1 => eprintln!("forest: {}", explain(f)),
                _ => eprintln!("forest: {e:#}"),
            }
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Induce(a) => induce(a),
        Command::Apply(a) => apply(a),
        Command::Bench(a) => bench(a),
        Command::Wrappers(a) => wrappers(a),
        Command::Search(a) => search(a),
        Command::MergeIndex { into, shards } => {
            let mut index = forest::index::ArticleIndex::open_or_create(&into)?;
            for shard in &shards {
                let n = index.merge_from(shard).with_context(|| format!("cannot merge {}", shard.display()))?;
                eprintln!("forest: merged {n} articles of {}", shard.display());
            }
            eprintln!("forest: {} holds {} articles", into.display(), index.len());
            Ok(ExitCode::SUCCESS)
        }
        Command::Clean { page } => {
            let page = Page::read(&Location::parse(&page), &forest::budget::Budget::default())?;
            let mut out = std::io::stdout().lock();
            out.write_all(page.doc.to_xml().as_bytes())?;
            out.write_all(b"\n")?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

impl InduceArgs {
    fn config(&self) -> Config {
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
fn induce_warc(a: &InduceArgs) -> anyhow::Result<ExitCode> {
    let store = if a.no_store { None } else { Some(a.store.open()?) };
    let mut stats = forest::warc::Stats::default();
    // At most --max-pages pages per host are kept: memory is bounded by the hosts, not the file.
    let mut by_host: std::collections::BTreeMap<String, Vec<Page>> = Default::default();
    let mut unreadable = 0usize;
    for file in &a.warc {
        let mut reader = forest::warc::Reader::open(file)?;
        while let Some((url, fetched)) = reader.next_page(&mut stats) {
            let Some(host) = forest::host::of_url(url.as_str()) else { continue };
            let pages = by_host.entry(host).or_default();
            if pages.len() >= a.max_pages {
                continue;
            }
            match Page::from_fetched(&Location::Url(url), fetched, &a.budget.page()) {
                Ok(p) => pages.push(p),
                Err(_) => unreadable += 1,
            }
        }
    }
    eprintln!("forest: {stats}");
    if unreadable > 0 {
        eprintln!("forest: {unreadable} HTML records could not be read as pages");
    }
    let cfg = a.config();
    let mut out = std::io::stdout().lock();
    let (mut induced, mut too_few, mut failed) = (0usize, 0usize, 0usize);
    for (host, pages) in &by_host {
        if pages.len() < a.min_pages {
            too_few += 1;
            continue;
        }
        match Wrapper::induce(host, pages, &cfg) {
            Ok(induction) => {
                let mut w = induction.wrapper;
                w.host = Some(host.clone());
                if let Some(store) = &store {
                    store.save(host, &w)?;
                }
                writeln!(out, "{host}\t{}\t{}", pages.len(), w.xpath)?;
                induced += 1;
            }
            Err(e) => {
                eprintln!("forest: no wrapper for {host}: {e}");
                failed += 1;
            }
        }
    }
    let whereto = store.as_ref().map(|s| format!(" into {}", s.dir().display())).unwrap_or_default();
    eprintln!(
        "forest: {induced} wrappers induced{whereto}; {too_few} hosts with fewer than {} pages, {failed} failed",
        a.min_pages
    );
    if induced == 0 {
        bail!("no host of the archive has a wrapper (hosts with at least {} HTML pages: none that induce)", a.min_pages);
    }
    Ok(if failed > 0 { ExitCode::from(3) } else { ExitCode::SUCCESS })
}

fn induce(a: InduceArgs) -> anyhow::Result<ExitCode> {
    if !a.warc.is_empty() {
        return induce_warc(&a);
    }
    let Some(source) = &a.source else { bail!("name a feed, a folder of pages or a URL (or --warc FILE)") };
    let fetcher = a.fetch.fetcher_for(std::slice::from_ref(source))?;
    let sample = forest::feed::read_with(&fetcher, source)?;
    for s in &sample.skipped {
        eprintln!("forest: skipped feed item {}: {}", s.what, s.why);
    }
    let items = &sample.items[..sample.items.len().min(a.max_pages)];
    let bar = a.fetch.progress(items.len(), "pages");
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let (pages, failed) = forest::page::load_with(&fetcher, items, 8, &a.budget.page(), &tick);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    for (what, e) in &failed {
        eprintln!("forest: skipped {what}: {}", explain(e));
    }
    let cfg = a.config();
    let induction = match Wrapper::induce(&sample.site, &pages, &cfg) {
        Err(forest::Error::TooFewPages { got, .. }) => {
            let causes: Vec<String> = failed.iter().map(|(w, e)| format!("{w}: {}", explain(e))).collect();
            let detail = if causes.is_empty() {
                format!(" ({} item(s) in {source})", sample.items.len())
            } else {
                format!("; failed: {}", causes.join("; "))
            };
            return Err(forest::Error::TooFewPages { got, detail }.into());
        }
        other => other?,
    };
    let mut wrapper = induction.wrapper.clone();
    if let Some(h) = &a.host {
        wrapper.host = Some(forest::host::key(h)?);
    }
    // Pages without URLs: the site's home page, as the feed links it.
    if wrapper.host.is_none() {
        wrapper.host = sample.home.as_deref().and_then(|h| forest::host::key(h).ok());
    }
    let text = match a.format {
        InduceFormat::Xpath if a.explain => format!("{}\n\n{}", wrapper.xpath, induction.explain(20)),
        InduceFormat::Xpath => format!("{}\n", wrapper.xpath),
        InduceFormat::Json => format!("{}\n", wrapper.to_json()),
        InduceFormat::Ftr => {
            let refs: Vec<&Page> = pages.iter().collect();
            forest::ftr::export(&wrapper, &refs).to_string()
        }
    };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    if let Some(path) = &a.out {
        let bytes = if a.format == InduceFormat::Ftr { text } else { wrapper.to_json() };
        forest::store::write_atomic(path, bytes.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if !a.no_store {
        match &wrapper.host {
            // Keeping a copy is a convenience: failing to is a warning, not a failed induce.
            Some(host) => match a.store.open().and_then(|s| Ok(s.save(host, &wrapper)?)) {
                Ok(path) if !a.fetch.quiet => eprintln!("forest: stored as the wrapper of {host}: {}", path.display()),
                Ok(_) => {}
                Err(e) => eprintln!("forest: warning: the wrapper was not stored: {e:#}"),
            },
            None => eprintln!(
                "forest: not stored: the pages name no host (no URL, no canonical link); pass --host HOST to store it"
            ),
        }
    }
    Ok(if failed.is_empty() && sample.skipped.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(3) })
}

fn bench(a: BenchArgs) -> anyhow::Result<ExitCode> {
    use forest::bench::{self, Protocol};
    let mut opts = bench::Options::default();
    if !a.methods.is_empty() {
        opts.methods = a.methods.clone();
    }
    opts.protocols = match a.protocol {
        ProtocolArg::Samples => vec![Protocol::Samples],
        ProtocolArg::Unseen => vec![Protocol::Unseen],
        ProtocolArg::Both => vec![Protocol::Samples, Protocol::Unseen],
    };
    if let Some(j) = a.jobs {
        opts.jobs = j.max(1);
    }
    opts.curves = !a.no_figures;
    opts.progress = !a.quiet;
    for m in &opts.methods {
        bench::method(m)?;
    }
    let sites = bench::load(&a.corpus).with_context(|| format!("cannot load the gold set {}", a.corpus.display()))?;
    if sites.is_empty() {
        bail!("{} holds no site folder with .html pages and .txt gold texts", a.corpus.display());
    }
    let report = bench::run(&sites, &opts)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}\n", report.summary())?;
    writeln!(out, "{}", report.table())?;
    writeln!(out, "Mean 2-gram F1 per site:\n{}", report.per_site())?;
    let failures = report.failures(20);
    if !failures.is_empty() {
        writeln!(out, "Failures:\n{failures}")?;
    }
    if let Some(path) = &a.json {
        report.write_json(path)?;
    }
    if let Some(dir) = &a.dump {
        report.dump(dir)?;
    }
    if !a.no_figures {
        for path in report.figures(&a.out)? {
            writeln!(out, "figure: {}", path.display())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn search(a: SearchArgs) -> anyhow::Result<ExitCode> {
    if !a.dir.is_dir() {
        bail!("{} is not an index: make one with `forest apply … --index {}`", a.dir.display(), a.dir.display());
    }
    let index = forest::index::ArticleIndex::open(&a.dir)?;
    let hits = index.search(&a.query, a.limit, a.host.as_deref())?;
    let mut out = std::io::stdout().lock();
    if a.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&hits)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    if hits.is_empty() {
        eprintln!("forest: no article of {} matches {:?}", a.dir.display(), a.query);
        return Ok(ExitCode::SUCCESS);
    }
    for (i, h) in hits.iter().enumerate() {
        let date = h.published.as_deref().map(|d| format!(", {d}")).unwrap_or_default();
        writeln!(out, "{}. {}\n   {} ({}{date}, score {:.2})\n   {}\n", i + 1, h.title, h.url, h.host, h.score, h.snippet)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn wrappers(a: WrappersArgs) -> anyhow::Result<ExitCode> {
    let store = a.store.open()?;
    let mut out = std::io::stdout().lock();
    match a.action {
        WrappersAction::List { json } => {
            let entries = store.list()?;
            let rows: Vec<serde_json::Value> = entries
                .iter()
                .map(|e| {
                    let (xpath, pages) = match e.kind {
                        forest::store::Kind::Wrapper => match Wrapper::load(&e.path) {
                            Ok(w) => (w.xpath, w.pages.len()),
                            Err(err) => (format!("(unreadable: {err})"), 0),
                        },
                        forest::store::Kind::SiteConfig => match std::fs::read_to_string(&e.path)
                            .map_err(|e| e.to_string())
                            .and_then(|t| forest::ftr::SiteConfig::parse(&t, "").map_err(|e| e.to_string()))
                        {
                            Ok((c, _)) => (c.body.join(" | "), c.test_url.len()),
                            Err(err) => (format!("(unreadable: {err})"), 0),
                        },
                    };
                    serde_json::json!({"host": e.host, "kind": e.kind, "xpath": xpath, "pages": pages, "path": e.path})
                })
                .collect();
            if json {
                writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
            } else if rows.is_empty() {
                eprintln!("forest: no wrapper stored in {}", store.dir().display());
            } else {
                for r in &rows {
                    writeln!(out, "{}\t{}\t{}", r["host"].as_str().unwrap_or(""), r["kind"].as_str().unwrap_or(""), r["xpath"].as_str().unwrap_or(""))?;
                }
            }
        }
        WrappersAction::Show { host } => {
            let Some(entry) = store.find(&host)? else {
                bail!("no stored wrapper for {host} in {}", store.dir().display());
            };
            eprintln!("forest: {} ({:?}): {}", entry.host, entry.kind, entry.path.display());
            out.write_all(&std::fs::read(&entry.path).with_context(|| format!("cannot read {}", entry.path.display()))?)?;
        }
        WrappersAction::Rm { host } => {
            let removed = store.remove(&host)?;
            if removed.is_empty() {
                bail!("no stored wrapper for {host} in {}", store.dir().display());
            }
            for path in removed {
                eprintln!("forest: removed {}", path.display());
            }
        }
        WrappersAction::Import { files, host } => {
            if host.is_some() && files.len() > 1 {
                bail!("--host names one site: import one file at a time with it");
            }
            for file in &files {
                read_site_config(file)?;
                let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                let from_name = name.strip_suffix(".txt").unwrap_or(name).trim_start_matches('.');
                let host = host.as_deref().unwrap_or(from_name);
                let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
                let path = store.save_site_config(host, &text).with_context(|| format!("cannot import {}", file.display()))?;
                eprintln!("forest: imported {} as {}", file.display(), path.display());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
