//! The flags every command shares or owns: budgets, fetching, the store, and each command's
//! arguments. Defaults come from the library ([`forest::budget`], [`forest::Config`]).

use super::*;

/// Limits per page: a page over one is skipped with the reason, and the run goes on.
#[derive(clap::Args)]
#[command(next_help_heading = "Budgets (per page)")]
pub(crate) struct BudgetArgs {
    /// Most elements in one page.
    #[arg(long, default_value_t = forest::budget::MAX_ELEMENTS)]
    pub(crate) max_elements: usize,
    /// Deepest nesting kept; deeper elements are flattened into their ancestor, as browsers do.
    #[arg(long, default_value_t = forest::budget::MAX_DEPTH)]
    pub(crate) max_depth: usize,
    /// Most seconds spent on one page once read (cleaning and extraction); parsing and XPath
    /// evaluation stop when it runs out.
    #[arg(long, default_value_t = forest::budget::MAX_SECONDS, value_parser = seconds)]
    pub(crate) max_seconds: f64,
    /// Most nodes one page's XPath evaluations may visit (wrappers and site configs that
    /// forest does not run directly go through a general XPath evaluator).
    #[arg(long, default_value_t = forest::budget::MAX_XPATH_VISITS)]
    pub(crate) max_xpath_visits: u64,
    /// Most seconds a page waits for its site to be learned on the fly (fetching its sample
    /// pages and inducing); past it the page gets the single-page extractor, and the learning
    /// goes on in the background for the site's later pages.
    #[arg(long, default_value_t = forest::learn::LEARN_SECONDS as f64, value_parser = seconds)]
    pub(crate) learn_seconds: f64,
}

/// A number of seconds that can be a time limit ([`forest::budget::is_time_limit`]).
fn seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s.trim().parse().map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if !forest::budget::is_time_limit(v) {
        return Err(format!("{s} seconds: give a number from 0 to {} (a day)", forest::budget::MAX_LIMIT_SECONDS));
    }
    Ok(v)
}

impl BudgetArgs {
    /// How long a page waits for its site to be learned.
    pub(crate) fn learn_time(&self) -> std::time::Duration {
        std::time::Duration::try_from_secs_f64(self.learn_seconds).unwrap_or(std::time::Duration::from_secs(forest::learn::LEARN_SECONDS))
    }

    pub(crate) fn page(&self) -> forest::budget::Budget {
        forest::budget::Budget {
            max_elements: self.max_elements,
            max_depth: self.max_depth,
            max_xpath_visits: self.max_xpath_visits,
            max_time: std::time::Duration::try_from_secs_f64(self.max_seconds).ok(),
        }
    }
}

/// How pages and feeds are fetched over HTTP.
#[derive(clap::Args)]
#[command(next_help_heading = "Network")]
pub(crate) struct FetchArgs {
    /// Seconds allowed for each try of a request, from connecting to the body's last byte, however
    /// slowly it arrives (a deadline, like curl's --max-time).
    #[arg(long, default_value_t = 30.0, value_parser = seconds)]
    pub(crate) timeout: f64,
    /// Retries after a timeout, a connection error, a 429 or a 5xx (with backoff, honouring
    /// Retry-After), at most 100.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub(crate) retries: u32,
    /// Milliseconds to wait between two requests to the same host (at most a day).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=86_400_000))]
    pub(crate) delay: u64,
    /// Requests at once to one host.
    #[arg(long, default_value_t = 4)]
    pub(crate) per_host: usize,
    /// Largest page or feed in bytes; a larger download is aborted.
    #[arg(long, default_value_t = forest::fetch::MAX_BYTES)]
    pub(crate) max_bytes: u64,
    /// Cache folder for fetched pages (default: the user's cache dir, ~/.cache/forest).
    #[arg(long)]
    pub(crate) cache: Option<PathBuf>,
    /// Do not read or write the cache.
    #[arg(long)]
    pub(crate) no_cache: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub(crate) quiet: bool,
    /// Let feed links and redirects reach private, loopback and link-local addresses (refused
    /// by default, so a feed cannot make forest probe your network; the URLs you name on the
    /// command line are always allowed, at their own scheme, host and port only).
    #[arg(long)]
    pub(crate) allow_private: bool,
}

impl FetchArgs {
    /// A fetcher that trusts the origins (scheme, host, port) of the URLs among `named` (the
    /// user typed them).
    pub(crate) fn fetcher_for<S: AsRef<str>>(&self, named: &[S]) -> anyhow::Result<forest::fetch::Fetcher> {
        let fetcher = self.fetcher()?;
        for n in named {
            if let Location::Url(u) = Location::parse_input(n.as_ref()) {
                fetcher.trust(&u);
            }
        }
        Ok(fetcher)
    }

    pub(crate) fn fetcher(&self) -> anyhow::Result<forest::fetch::Fetcher> {
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
    pub(crate) fn progress(&self, len: usize, what: &'static str) -> Option<indicatif::ProgressBar> {
        progress_bar(len, what, self.quiet)
    }
}

/// Where wrappers are kept.
#[derive(clap::Args, Clone)]
pub(crate) struct StoreArgs {
    /// Wrapper store folder (default: ~/.local/share/forest/wrappers).
    #[arg(long = "store", env = "FOREST_STORE", value_name = "DIR", global = true, help_heading = "Rules")]
    pub(crate) dir: Option<PathBuf>,
}

impl StoreArgs {
    pub(crate) fn open(&self) -> anyhow::Result<forest::store::Store> {
        Ok(match &self.dir {
            Some(d) => forest::store::Store::new(d),
            None => forest::store::Store::open_default()?,
        })
    }
}

#[derive(clap::Args)]
pub(crate) struct InduceArgs {
    /// A feed URL, a feed file, or a folder of .html pages (with its feed.xml when present).
    #[arg(required_unless_present = "warc")]
    pub(crate) source: Option<String>,
    /// Read the pages from web archives (.warc, .warc.gz) instead: a wrapper for every host
    /// with at least --min-pages HTML pages, into the store; prints host, pages, XPath.
    #[arg(long, num_args = 1.., value_name = "FILE", conflicts_with = "source")]
    pub(crate) warc: Vec<PathBuf>,
    /// With --warc: the fewest pages a host needs for a wrapper.
    #[arg(long, default_value_t = 3)]
    pub(crate) min_pages: usize,
    /// Write the wrapper (JSON) to this file.
    #[arg(long, short)]
    pub(crate) out: Option<PathBuf>,
    /// Print the candidate table (rank, level, clue, dfs, pages, relevance) after the XPath.
    #[arg(long)]
    pub(crate) explain: bool,
    /// Signifiers per page (tf-idf).
    #[arg(long = "signifiers", short = 'k', default_value_t = Config::default().k)]
    pub(crate) k: usize,
    /// Where signifiers come from.
    #[arg(long, value_enum, default_value_t = SigFrom::Tfidf)]
    pub(crate) signifiers_from: SigFrom,
    /// Ranking of structural patterns.
    #[arg(long, value_enum, default_value_t = RankBy::Forest)]
    pub(crate) rank: RankBy,
    /// Leave out signifiers made only of digits (dates, counts).
    #[arg(long)]
    pub(crate) skip_numeric: bool,
    /// Language code for stemming and stop words (default: from the pages).
    #[arg(long)]
    pub(crate) lang: Option<String>,
    /// Text at the same tag path on this many sample pages is site template, cut from the
    /// article (0 turns it off).
    #[arg(long, default_value_t = Config::default().template_min_pages)]
    pub(crate) template_min_pages: usize,
    /// Use at most this many pages of the source.
    #[arg(long, default_value_t = 20)]
    pub(crate) max_pages: usize,
    /// What to print (and write with --out): the XPath (--out then writes the wrapper JSON),
    /// the wrapper JSON, or a FiveFilters site config.
    #[arg(long, value_enum, default_value_t = InduceFormat::Xpath)]
    pub(crate) format: InduceFormat,
    /// The site's host, for the store (default: from the pages' URLs or canonical links).
    #[arg(long)]
    pub(crate) host: Option<String>,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    /// Do not keep the wrapper in the store.
    #[arg(long)]
    pub(crate) no_store: bool,
    /// Replace the host's stored wrapper whole (default: keep the stored templates whose
    /// layout the new pages do not show, e.g. a site's design before a redesign).
    #[arg(long)]
    pub(crate) replace: bool,
    #[command(flatten)]
    pub(crate) budget: BudgetArgs,
    #[command(flatten)]
    pub(crate) fetch: FetchArgs,
}

#[derive(clap::Args)]
pub(crate) struct FeedArgs {
    /// The feed (RSS, Atom or JSON Feed): a URL or a file.
    pub(crate) feed: String,
    /// Write the full-text feed here (default: stdout).
    #[arg(short, long)]
    pub(crate) out: Option<PathBuf>,
    /// Do not learn a site on the fly (its items get the single-page extractor).
    #[arg(long)]
    pub(crate) no_learn: bool,
    /// Pages processed at once (default: all cores).
    #[arg(short, long)]
    pub(crate) jobs: Option<usize>,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    #[command(flatten)]
    pub(crate) budget: BudgetArgs,
    #[command(flatten)]
    pub(crate) fetch: FetchArgs,
}

#[derive(clap::Args)]
pub(crate) struct ApplyArgs {
    /// The wrapper file written by `forest induce --out` (default: the stored wrapper of each
    /// page's host).
    #[arg(long, short, conflicts_with = "site_config", help_heading = "Rules")]
    pub(crate) wrapper: Option<PathBuf>,
    /// Apply a FiveFilters site config instead of a wrapper (body, title, strip,
    /// strip_id_or_class, strip_image_src, date, author).
    #[arg(long, value_name = "FILE", help_heading = "Rules")]
    pub(crate) site_config: Option<PathBuf>,
    /// Pages: files (.html, .html.gz, or HTML without an extension), folders of them, http(s)
    /// URLs (`example.org/a` works too), or `-` for standard input.
    #[arg(required_unless_present_any = ["warc", "input_file"])]
    pub(crate) inputs: Vec<String>,
    /// Also read the pages named in FILE, one per line (blank lines and `#` comments skipped).
    #[arg(long = "input-file", short = 'i', value_name = "FILE")]
    pub(crate) input_file: Option<PathBuf>,
    /// Read the pages from web archives (.warc, .warc.gz): every HTML response, each with the
    /// stored wrapper of its host, else the single-page extractor (marked so).
    #[arg(long, num_args = 1.., value_name = "FILE", conflicts_with = "inputs")]
    pub(crate) warc: Vec<PathBuf>,
    /// Add every article to the search index at DIR (created on first use; a URL added again
    /// replaces its article). Search it with `forest search DIR QUERY`.
    #[arg(long, value_name = "DIR", help_heading = "Output")]
    pub(crate) index: Option<PathBuf>,
    /// Articles per index commit: a run killed mid-way keeps every committed batch.
    #[arg(long, default_value_t = forest::index::DEFAULT_BATCH, requires = "index", help_heading = "Output")]
    pub(crate) batch: usize,
    /// Write one file per page (<page>.txt, .md, .html, .xml or .json) into this folder
    /// instead of stdout.
    #[arg(long, short = 'o', help_heading = "Output")]
    pub(crate) out_dir: Option<PathBuf>,
    /// Output format. JSON fields: url, source, host, title, byline, published, lang, text,
    /// html, xpath, rule, confidence, page_type, authors, modified, site_name, description,
    /// image, tags, categories, canonical_url.
    #[arg(long, short, value_parser = format_parser(), default_value = "text", help_heading = "Output")]
    pub(crate) format: Format,
    /// Leave the headline out of the text (text and JSON `text`; the title stays in JSON
    /// `title`).
    #[arg(long, help_heading = "Output")]
    pub(crate) no_title: bool,
    /// Also give the page's reader comments: after the article, under a heading of their own
    /// (JSON: `comments`, a text per region of comments); never in the article's text.
    #[arg(long, help_heading = "Output")]
    pub(crate) comments: bool,
    /// Skip (exit 3) pages of sites without a stored wrapper or site config, instead of
    /// extracting them with the single-page extractor.
    #[arg(long, conflicts_with_all = ["wrapper", "site_config"], help_heading = "Rules")]
    pub(crate) require_wrapper: bool,
    /// Do not learn a site on the fly: a web page of a host without stored rules gets the
    /// single-page extractor (default: sample pages of its template are found in the site's
    /// feed, sitemaps or links, a wrapper is induced and stored, and the page gets it).
    #[arg(long, help_heading = "Rules")]
    pub(crate) no_learn: bool,
    /// When a stored wrapper failed on most of its last 5 pages (the site changed), learn the
    /// site again from a recent page; the older wrapper is kept (`forest wrappers undo HOST`).
    #[arg(long, conflicts_with = "no_learn", help_heading = "Rules")]
    pub(crate) relearn: bool,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    /// Pages processed at once (threads; default: all cores); the output is the same for any
    /// value.
    #[arg(long, short)]
    pub(crate) jobs: Option<usize>,
    #[command(flatten)]
    pub(crate) budget: BudgetArgs,
    #[command(flatten)]
    pub(crate) fetch: FetchArgs,
}

#[derive(clap::Args)]
pub(crate) struct BenchArgs {
    /// Gold set: <site>/<id>.html with <id>.txt gold text (and <site>/feed.xml).
    #[arg(default_value = "gold")]
    pub(crate) corpus: PathBuf,
    #[arg(long = "method", value_delimiter = ',', help = forest::bench::methods_help())]
    pub(crate) methods: Vec<String>,
    /// Protocol: samples (fit and evaluate on the same pages), unseen (leave one page out), both.
    #[arg(long, value_enum, default_value_t = ProtocolArg::Both)]
    pub(crate) protocol: ProtocolArg,
    /// Worker threads (default: all cores); results are identical for any value.
    #[arg(long, short)]
    pub(crate) jobs: Option<usize>,
    /// Write the full report (rows, per-page results, timings, curves) as JSON.
    #[arg(long)]
    pub(crate) json: Option<PathBuf>,
    /// Write every output text to DIR/<method>/<site>/<id>.txt (unseen: DIR/unseen/<method>/…).
    #[arg(long)]
    pub(crate) dump: Option<PathBuf>,
    /// Folder for the SVG figures.
    #[arg(long, default_value = "bench-out")]
    pub(crate) out: PathBuf,
    /// Skip the figures and the extra runs they need.
    #[arg(long)]
    pub(crate) no_figures: bool,
    /// More gold sets (comma-separated folders) that learned methods (mss) train on, besides
    /// the gold set's own sites of other folds; hosts of the fold under test are left out.
    #[arg(long, value_delimiter = ',', help_heading = "Learned methods")]
    pub(crate) train: Vec<PathBuf>,
    /// Folds of hosts: each fold's pages are extracted by a model trained on the other hosts.
    #[arg(long, default_value_t = 5, help_heading = "Learned methods")]
    pub(crate) folds: usize,
    /// Also train the learned methods on every site (the gold set's and --train's) and write
    /// the models to FILE, for --load-model.
    #[arg(long, value_name = "FILE", help_heading = "Learned methods")]
    pub(crate) save_model: Option<PathBuf>,
    /// Extract every page with the models in FILE (from --save-model) instead of training per
    /// fold: no fold split, so pages of the sites it was trained on are not held out.
    #[arg(long, value_name = "FILE", conflicts_with = "train", help_heading = "Learned methods")]
    pub(crate) load_model: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

#[derive(clap::Args)]
pub(crate) struct SearchArgs {
    /// The index folder.
    pub(crate) dir: PathBuf,
    /// Words (any of them), "a phrase", AND / OR, -excluded, +required.
    pub(crate) query: String,
    /// Most results.
    #[arg(long, short = 'n', default_value_t = 10)]
    pub(crate) limit: usize,
    /// Only articles of this host.
    #[arg(long)]
    pub(crate) host: Option<String>,
    /// Results as JSON (score, url, host, title, published, snippet, fragment, highlighted).
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(clap::Args)]
pub(crate) struct WrappersArgs {
    #[command(subcommand)]
    pub(crate) action: WrappersAction,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
}

#[derive(Subcommand)]
pub(crate) enum WrappersAction {
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
    /// Put back the wrapper a re-learning or an induce replaced.
    Undo {
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
        /// Replace a site config already stored for the same host (`www.example.org.txt` and
        /// `example.org.txt` name the same host).
        #[arg(long)]
        force: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum ProtocolArg {
    Samples,
    Unseen,
    Both,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum SigFrom {
    Tfidf,
    Feed,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum RankBy {
    Forest,
    Coverage,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum InduceFormat {
    /// The wrapper's XPath.
    Xpath,
    /// The wrapper file (JSON).
    Json,
    /// A FiveFilters site config (ftr-site-config).
    Ftr,
}

pub(crate) use forest::article::Format;

/// `--format`: the library's output formats ([`Format::ALL`]), each with its help line.
fn format_parser() -> impl clap::builder::TypedValueParser<Value = Format> {
    let values = Format::ALL.iter().map(|&(name, f)| clap::builder::PossibleValue::new(name).help(f.describe()));
    let names = clap::builder::PossibleValuesParser::new(values);
    clap::builder::TypedValueParser::map(names, |name: String| Format::named(&name).expect("clap let only a format's name through"))
}
#[derive(clap::Args)]
pub(crate) struct CrawlArgs {
    /// The site's start page (its home page, or a section's): its site's pages are crawled.
    pub(crate) url: String,
    /// Pages fetched at most; those found past it are counted, not fetched.
    #[arg(long, default_value_t = forest::crawl::MAX_PAGES as u64, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub(crate) max_pages: u64,
    /// Links followed from the start page at most (pages a feed or sitemap lists count as one
    /// link away).
    #[arg(long, default_value_t = forest::crawl::MAX_DEPTH as u64, value_parser = clap::value_parser!(u64).range(0..=1000))]
    pub(crate) max_depth: u64,
    /// The crawl's folder: the articles (articles.jsonl, or a file per article in other
    /// formats), the journal that makes a re-run continue where a killed run stopped, and the
    /// WARC files. Without it, articles go to stdout.
    #[arg(long, short = 'o', help_heading = "Output")]
    pub(crate) out_dir: Option<PathBuf>,
    /// Output format (JSON Lines: one article per line).
    #[arg(long, short, value_parser = format_parser(), default_value = "jsonl", help_heading = "Output")]
    pub(crate) format: Format,
    /// Add every article to the search index at DIR (a URL added again replaces its article).
    #[arg(long, value_name = "DIR", requires = "out_dir", help_heading = "Output")]
    pub(crate) index: Option<PathBuf>,
    /// Write every response as a WARC record to OUT_DIR/responses-<n>.warc.gz (a file per
    /// run; a response an earlier run's files hold is not written again).
    #[arg(long, requires = "out_dir", help_heading = "Output")]
    pub(crate) warc: bool,
    /// Pages fetched and read at once (the per-host limit applies too).
    #[arg(long, short, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub(crate) jobs: u64,
    /// Also write the summary as JSON to this file.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub(crate) summary: Option<PathBuf>,
    /// Also give each article's reader comments, as `forest apply --comments` does.
    #[arg(long, help_heading = "Output")]
    pub(crate) comments: bool,
    /// Most elements in one page.
    #[arg(long, default_value_t = forest::budget::MAX_ELEMENTS, help_heading = "Budgets (per page)")]
    pub(crate) max_elements: usize,
    /// Most seconds spent on one page once read.
    #[arg(long, default_value_t = forest::budget::MAX_SECONDS, value_parser = seconds, help_heading = "Budgets (per page)")]
    pub(crate) max_seconds: f64,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    #[command(flatten)]
    pub(crate) fetch: FetchArgs,
}

impl CrawlArgs {
    /// Each page's budget (`--max-depth` is the crawl's: its tree depth is the default).
    pub(crate) fn page_budget(&self) -> forest::budget::Budget {
        forest::budget::Budget {
            max_elements: self.max_elements,
            max_time: std::time::Duration::try_from_secs_f64(self.max_seconds).ok(),
            ..forest::budget::Budget::default()
        }
    }
}
