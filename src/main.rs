//! The `forest` command line: flags and subcommands only; the work is in the library.

use anyhow::{bail, Context};
use clap::{Parser, Subcommand, ValueEnum};
use forest::fetch::Location;
use forest::wrapper::Inducer;
use forest::{Article, Config, Page, Wrapper};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `eprintln!` that never fails: a message whose reader went away (`forest … 2>&1 | head`) is
/// dropped, and the work and its output go on.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

#[path = "cli/apply.rs"]
mod apply;
#[path = "cli/args.rs"]
mod args;
#[path = "cli/bench.rs"]
mod bench;
#[path = "cli/crawl.rs"]
mod crawl;
#[path = "cli/induce.rs"]
mod induce;
#[path = "cli/wrappers.rs"]
mod wrappers;

use apply::apply;
use args::*;
use bench::bench;
use induce::induce;
use wrappers::{search, wrappers};

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
    /// Write a feed back with each item's full article (RSS `content:encoded`, Atom `content`).
    #[command(after_help = "Examples:\n  forest feed https://example.org/feed.xml --out full.xml\n  \
        forest feed feeds/demo-news/feed.xml > full.xml")]
    Feed(FeedArgs),
    /// Apply a wrapper to pages of its site; prints the article.
    #[command(after_help = "Examples:\n  forest apply --wrapper demo.json feeds/demo-news/bridge-repair.html\n  \
        forest apply feeds/demo-news/bridge-repair.html        # the stored wrapper of the page's host\n  \
        forest apply --wrapper demo.json feeds/demo-news/ --out-dir out/ --format markdown\n  \
        forest apply --site-config example.org.txt https://example.org/a.html --format json\n  \
        forest apply --wrapper demo.json feeds/demo-news/ --format jsonl > articles.jsonl")]
    #[command(alias = "extract")]
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
    /// Crawl a site: find its pages (feed, sitemaps, links), learn its templates from its
    /// articles, and write every article (listings, tag and author pages passed over).
    #[command(after_help = "Examples:\n  forest crawl https://example.org/ --out-dir example/ --max-pages 500\n  \
        forest crawl https://example.org/blog/ --out-dir blog/ --warc --index archive/   # a re-run continues\n  \
        forest crawl https://example.org/ --max-pages 50 > articles.jsonl")]
    Crawl(CrawlArgs),
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

/// A progress bar on stderr when it is a terminal, not `quiet`, and there are several items.
fn progress_bar(len: usize, what: &str, quiet: bool) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() || len < 2 {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {what}  {{elapsed}}  {{msg}}")) {
        bar.set_style(style);
    }
    Some(bar)
}

/// The line that names a skipped input and why: `skipped WHAT: WHY`, or `skipped: WHY` when
/// WHY names it already (`cannot fetch URL: …`), so a line does not say it twice.
fn skip_line(what: &dyn std::fmt::Display, why: &str) -> String {
    let what = what.to_string();
    if why.contains(&what) {
        format!("forest: skipped: {why}")
    } else {
        format!("forest: skipped {what}: {why}")
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // The reader of our output went away (`forest … | head`): not an error.
        Err(e) if e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)) => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            // Each cause once: a library error's message already holds its own cause.
            let mut parts = Vec::new();
            for cause in e.chain() {
                if let Some(f) = cause.downcast_ref::<forest::Error>() {
                    parts.push(explain(f));
                    break;
                }
                parts.push(cause.to_string());
            }
            say!("forest: {}", parts.join(": "));
            ExitCode::from(1)
        }
    }
}

/// The allocator: jemalloc, whose thread caches serve a page's many small blocks (texts, names,
/// attribute lists) without the locks glibc's malloc takes once a second thread runs, and whose
/// size classes leave fewer holes among what `induce` keeps.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, which it reads through this pointer when it starts (`_RJEM_MALLOC_CONF`
/// in the environment adds to them): one arena for all threads, as each thread's cache already
/// serves it; freed pages go back to the system after 100 ms, not 10 s, so a long run's memory
/// stays near what it holds, while `apply` still reuses the room one page frees for the next.
#[cfg(not(target_env = "msvc"))]
#[export_name = "_rjem_malloc_conf"]
static ALLOCATOR_OPTIONS: std::sync::atomic::AtomicPtr<std::ffi::c_char> =
    std::sync::atomic::AtomicPtr::new(c"narenas:1,dirty_decay_ms:100,muzzy_decay_ms:0".as_ptr().cast_mut());

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Induce(a) => induce(a),
        Command::Apply(a) => apply(a),
        Command::Feed(a) => apply::feed(a),
        Command::Bench(a) => bench(a),
        Command::Crawl(a) => crawl::crawl(a),
        Command::Wrappers(a) => wrappers(a),
        Command::Search(a) => search(a),
        Command::MergeIndex { into, shards } => {
            let mut index = forest::index::ArticleIndex::open_or_create(&into)?;
            // Each shard is merged or skipped with its reason; the others go on.
            let mut skipped = 0usize;
            for shard in &shards {
                match index.merge_from(shard) {
                    Ok(n) => say!("forest: merged {n} articles of {}", shard.display()),
                    Err(e) => {
                        say!("{}", skip_line(&shard.display(), &explain(&e)));
                        skipped += 1;
                    }
                }
            }
            say!("forest: {} holds {} articles", into.display(), index.len());
            if skipped == shards.len() && skipped > 0 {
                anyhow::bail!("no shard could be merged ({skipped} skipped)");
            }
            Ok(if skipped > 0 { ExitCode::from(3) } else { ExitCode::SUCCESS })
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        // clap's own check of every subcommand's arguments.
        Cli::command().debug_assert();
    }
}
