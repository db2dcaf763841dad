//! The `forest` command line: flags and subcommands only; the work is in the library.

use anyhow::{bail, Context};
use clap::{Parser, Subcommand, ValueEnum};
use forest::fetch::Location;
use forest::{Applier, Config, Extractor, Page, Wrapper};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const EXIT_CODES: &str = "\
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
    /// Learn a site's wrapper from sample pages; prints its XPath.
    #[command(after_help = "Examples:\n  forest induce feeds/demo-news/feed.xml --out demo.json\n  \
        forest induce feeds/demo-news/ --explain\n  forest induce https://example.org/feed.xml --out site.json")]
    Induce(InduceArgs),
    /// Apply a wrapper to pages of its site; prints the article text.
    #[command(after_help = "Examples:\n  forest apply --wrapper demo.json feeds/demo-news/bridge-repair.html\n  \
        forest apply --wrapper demo.json feeds/demo-news/ --out-dir out/\n  \
        forest apply --wrapper demo.json page.html --format json")]
    Apply(ApplyArgs),
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
}

impl FetchArgs {
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
    source: String,
    /// Write the wrapper (JSON) to this file.
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Print the candidate table (rank, level, clue, dfs, pages, relevance) after the XPath.
    #[arg(long)]
    explain: bool,
    /// Signifiers per page (tf-idf).
    #[arg(long = "signifiers", short = 'k', default_value_t = 10)]
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
    #[arg(long, default_value_t = 2)]
    template_min_pages: usize,
    /// Use at most this many pages of the source.
    #[arg(long, default_value_t = 20)]
    max_pages: usize,
    #[command(flatten)]
    fetch: FetchArgs,
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
enum Format {
    Text,
    Json,
}

#[derive(clap::Args)]
struct ApplyArgs {
    /// The wrapper file written by `forest induce --out`.
    #[arg(long, short)]
    wrapper: PathBuf,
    /// Pages: files, folders of .html files, or http(s) URLs.
    #[arg(required = true)]
    inputs: Vec<String>,
    /// Write one <page>.txt (or .json) per page into this folder instead of stdout.
    #[arg(long)]
    out_dir: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Pages processed at once (threads); the output is the same for any value. Default 1.
    #[arg(long)]
    jobs: Option<usize>,
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
            eprintln!("forest: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Induce(a) => induce(a),
        Command::Apply(a) => apply(a),
        Command::Bench(a) => bench(a),
        Command::Clean { page } => {
            let page = Page::read(&Location::parse(&page))?;
            let mut out = std::io::stdout().lock();
            out.write_all(page.doc.to_xml().as_bytes())?;
            out.write_all(b"\n")?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn induce(a: InduceArgs) -> anyhow::Result<ExitCode> {
    let fetcher = a.fetch.fetcher()?;
    let sample = forest::feed::read_with(&fetcher, &a.source)?;
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
    let (pages, failed) = forest::load_pages_with(&fetcher, items, 8, &tick);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    for (what, e) in &failed {
        eprintln!("forest: skipped {what}: {e}");
    }
    let cfg = Config {
        signifiers: match a.signifiers_from {
            SigFrom::Tfidf => forest::signifiers::Source::Tfidf,
            SigFrom::Feed => forest::signifiers::Source::Feed,
        },
        k: a.k,
        rank: match a.rank {
            RankBy::Forest => "forest",
            RankBy::Coverage => "coverage",
        }
        .into(),
        skip_numeric: a.skip_numeric,
        language: a.lang,
        template_min_pages: a.template_min_pages,
        ..Config::default()
    };
    let induction = match Wrapper::induce(&sample.site, &pages, &cfg) {
        Err(forest::Error::TooFewPages { got, .. }) => {
            let causes: Vec<String> = failed.iter().map(|(w, e)| format!("{w}: {e}")).collect();
            let detail = if causes.is_empty() {
                format!(" ({} item(s) in {})", sample.items.len(), a.source)
            } else {
                format!("; failed: {}", causes.join("; "))
            };
            return Err(forest::Error::TooFewPages { got, detail }.into());
        }
        other => other?,
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", induction.wrapper.xpath)?;
    if a.explain {
        writeln!(out)?;
        write!(out, "{}", induction.explain(20))?;
    }
    if let Some(path) = &a.out {
        write_atomic(path, induction.wrapper.to_json().as_bytes())
            .with_context(|| format!("cannot write wrapper to {}", path.display()))?;
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

/// One page's output (text or JSON line) and the rule that selected it.
type Rendered = forest::Result<(String, forest::Rule)>;

/// Fetch, clean and extract one page.
fn render(applier: &Applier, fetcher: &forest::fetch::Fetcher, loc: &Location, format: Format) -> Rendered {
    let page = fetcher.get(loc).and_then(|f| Page::from_fetched(loc, f))?;
    let x = applier.extract(&page)?;
    let body = match format {
        Format::Text => format!("{}\n", x.text),
        Format::Json => {
            // The headline as the page shows it, else the <title>.
            let title = forest::extract::headline(&page.doc)
                .map_or_else(|| page.doc.title.clone(), |h| forest::clean::collapse_ws(&page.doc.text(h)));
            let v = serde_json::json!({
                "url": page.location,
                "title": title,
                "text": x.text,
                "xpath": applier.wrapper().xpath,
                "rule": x.rule.name(),
                "confidence": x.rule.confidence(),
            });
            format!("{v}\n")
        }
    };
    Ok((body, x.rule))
}

fn apply(a: ApplyArgs) -> anyhow::Result<ExitCode> {
    let wrapper = Wrapper::load(&a.wrapper)?;
    let applier = Applier::new(wrapper.clone())?;
    let locations = expand_inputs(&a.inputs)?;
    let fetcher = a.fetch.fetcher()?;
    if let Some(dir) = &a.out_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let jobs = a.jobs.unwrap_or(1).max(1);
    let mut used_names = std::collections::HashSet::new();
    let mut skipped = 0usize;
    let mut stdout = std::io::stdout().lock();
    let many = locations.len() > 1;
    // Pages are processed in windows, `jobs` at a time, and written in input order, so the
    // output is the same for any number of jobs and memory stays bounded.
    for window in locations.chunks(jobs * 16) {
        let results: Vec<Rendered> = if jobs == 1 {
            window.iter().map(|loc| render(&applier, &fetcher, loc, a.format)).collect()
        } else {
            let next = std::sync::atomic::AtomicUsize::new(0);
            let slots: std::sync::Mutex<Vec<Option<Rendered>>> = std::sync::Mutex::new((0..window.len()).map(|_| None).collect());
            std::thread::scope(|scope| {
                for _ in 0..jobs.min(window.len()) {
                    let (next, slots, fetcher, format, wrapper) = (&next, &slots, &fetcher, a.format, &wrapper);
                    scope.spawn(move || {
                        // Each worker compiles its own copy of the wrapper (sxd-xpath is not
                        // thread-safe); it compiled once already, so this cannot fail.
                        let Ok(local) = Applier::new(wrapper.clone()) else { return };
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(loc) = window.get(i) else { break };
                            let r = render(&local, fetcher, loc, format);
                            if let Ok(mut s) = slots.lock() {
                                s[i] = Some(r);
                            }
                        }
                    });
                }
            });
            slots
                .into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .into_iter()
                .map(|r| r.unwrap_or_else(|| Err(forest::Error::Usage("page not processed".into()))))
                .collect()
        };
        for (loc, result) in window.iter().zip(results) {
            let (body, rule) = match result {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("forest: skipped {loc}: {e}");
                    skipped += 1;
                    continue;
                }
            };
            if rule.is_fallback() {
                eprintln!("forest: {loc}: the wrapper's XPath matched nothing; used fallback rule {}", rule.name());
            }
            match &a.out_dir {
                Some(dir) => {
                    let ext = if a.format == Format::Json { "json" } else { "txt" };
                    let name = unique_name(&mut used_names, &loc.stem(), ext);
                    write_atomic(&dir.join(&name), body.as_bytes())?;
                }
                None => {
                    if many && a.format == Format::Text {
                        writeln!(stdout, "==> {loc} <==")?;
                    }
                    stdout.write_all(body.as_bytes())?;
                }
            }
        }
    }
    if skipped == locations.len() {
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
    if safe.is_empty() || safe.starts_with('.') {
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

/// Write a file so that a reader sees the old or the new content, never half.
fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().context("output path has no file name")?;
    let tmp = dir.join(format!(".{}.tmp{}", name.to_string_lossy(), std::process::id()));
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
