//! The `forest` command line: flags and subcommands only; the work is in the library.

use anyhow::{bail, Context};
use clap::{Parser, Subcommand, ValueEnum};
use forest::fetch::Location;
use forest::wrapper::{Inducer, Summary};
use forest::{Article, Config, Page, Wrapper};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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

use apply::{apply, read_site_config};
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

/// A subcommand's arguments, added to clap's command only for the subcommand that runs (or
/// whose help is shown): every subcommand's arguments were built at each start, about a third
/// of what `forest --version` ran, and a process per site starts often.
struct Deferred<T>(T);

impl<T: clap::Args> clap::Args for Deferred<T> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.defer(|cmd| keeping_about(cmd, T::augment_args))
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        cmd.defer(|cmd| keeping_about(cmd, T::augment_args_for_update))
    }
}

/// `augment` applied to a subcommand, which keeps its own description: run after it was set,
/// the doc of a flattened group of arguments would replace it.
fn keeping_about(cmd: clap::Command, augment: fn(clap::Command) -> clap::Command) -> clap::Command {
    use clap::builder::Resettable;
    let kept = |s: Option<&clap::builder::StyledStr>| s.cloned().map_or(Resettable::Reset, Resettable::Value);
    let (about, long_about) = (kept(cmd.get_about()), kept(cmd.get_long_about()));
    augment(cmd).about(about).long_about(long_about)
}

impl<T: clap::FromArgMatches> clap::FromArgMatches for Deferred<T> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Deferred)
    }
    fn from_arg_matches_mut(matches: &mut clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(matches).map(Deferred)
    }
    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }
    fn update_from_arg_matches_mut(&mut self, matches: &mut clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(matches)
    }
}

#[derive(Subcommand)]
enum Command {
    /// Learn a site's wrapper from sample pages; prints its XPath and keeps it in the store.
    #[command(after_help = "Examples:\n  forest induce feeds/demo-news/feed.xml --out demo.json\n  \
        forest induce feeds/demo-news/ --explain\n  \
        forest induce https://example.org/feed.xml            # stored as example.org\n  \
        forest induce feeds/demo-news/ --format ftr > riverside-gazette.example.txt   # FiveFilters site config")]
    Induce(Deferred<InduceArgs>),
    /// Write a feed back with each item's full article (RSS `content:encoded`, Atom `content`).
    #[command(after_help = "Examples:\n  forest feed https://example.org/feed.xml --out full.xml\n  \
        forest feed feeds/demo-news/feed.xml > full.xml")]
    Feed(Deferred<FeedArgs>),
    /// Apply a wrapper to pages of its site; prints the article.
    #[command(after_help = "Examples:\n  forest apply --wrapper demo.json feeds/demo-news/bridge-repair.html\n  \
        forest apply feeds/demo-news/bridge-repair.html        # the stored wrapper of the page's host\n  \
        forest apply --wrapper demo.json feeds/demo-news/ --out-dir out/ --format markdown\n  \
        forest apply --site-config example.org.txt https://example.org/a.html --format json\n  \
        forest apply --wrapper demo.json feeds/demo-news/ --format jsonl > articles.jsonl")]
    #[command(alias = "extract")]
    Apply(Deferred<ApplyArgs>),
    /// List, show, remove or import the stored wrappers (one per site host).
    #[command(after_help = "Examples:\n  forest wrappers list\n  forest wrappers show riverside-gazette.example\n  \
        forest wrappers rm riverside-gazette.example\n  \
        forest wrappers import ftr-site-config/example.org.txt   # a FiveFilters site config")]
    Wrappers(Deferred<WrappersArgs>),
    /// Search the articles of an index made by `forest apply --index DIR`.
    #[command(after_help = "Examples:\n  forest search archive/ \"bridge repairs\"\n  \
        forest search archive/ '\"neural lace\" -musk' --limit 5 --host arstechnica.com\n  \
        forest search archive/ flood --json")]
    Search(Deferred<SearchArgs>),
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
    Crawl(Deferred<CrawlArgs>),
    /// Evaluate methods on a gold set: the paper's Table 1 and Figures 4–7.
    #[command(after_help = "Examples:\n  forest bench gold/\n  \
        forest bench ../shared/corpus --json bench.json --out bench-out/\n  \
        forest bench ../shared/corpus --method forest-tfidf,boilerpipe --protocol unseen --dump outputs/")]
    Bench(Deferred<BenchArgs>),
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
            eprintln!("forest: {}", parts.join(": "));
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

/// jemalloc's options, which it reads through this pointer when it starts (at the first
/// allocation or in its own initializer; `_RJEM_MALLOC_CONF` in the environment adds to them):
/// one arena for all threads,
/// as each thread's cache already serves it; freed pages go back to the system after 100 ms,
/// not 10 s, so a long run's memory stays near what it holds, while `apply` still reuses the
/// room one page frees for the next (`induce` shortens it further: [`return_freed_pages_sooner`]).
#[cfg(not(target_env = "msvc"))]
#[export_name = "_rjem_malloc_conf"]
static ALLOCATOR_OPTIONS: std::sync::atomic::AtomicPtr<std::ffi::c_char> = std::sync::atomic::AtomicPtr::new(OPTIONS.as_ptr().cast_mut());

/// The options of [`ALLOCATOR_OPTIONS`], followed by `more` (a literal starting with a comma),
/// as the C string jemalloc reads: one text for both option sets.
#[cfg(not(target_env = "msvc"))]
macro_rules! jemalloc_options {
    ($($more:literal)?) => {
        match std::ffi::CStr::from_bytes_with_nul(concat!("narenas:1,dirty_decay_ms:100,muzzy_decay_ms:0", $($more,)? "\0").as_bytes()) {
            Ok(options) => options,
            Err(_) => panic!("jemalloc's options hold no NUL"),
        }
    };
}

#[cfg(not(target_env = "msvc"))]
const OPTIONS: &std::ffi::CStr = jemalloc_options!();

/// [`OPTIONS`], and the heap asks the kernel for 2 MB pages (`madvise`, heeded where
/// transparent huge pages are enabled "always" or "madvise"), for `apply` only: its heap is the
/// same few MB page after page, which a process per site then faults in a few times instead of
/// several hundred (0.95× the wall time over the corpus, at about 5 MB more; the same in one
/// process: docs/benchmarks.md). A heap that grows as pages are kept (`induce`, `bench`) would
/// fault each new 2 MB whole and return freed room in pieces: 1,000 pages took 65 MB instead
/// of 60 to induce, and `bench`'s parse-only yardstick 0.7× its pace.
#[cfg(all(not(target_env = "msvc"), target_os = "linux", target_env = "gnu"))]
const OPTIONS_WITH_HUGE_PAGES: &std::ffi::CStr = jemalloc_options!(",thp:always");

/// The allocator's options for a command line whose subcommand is `command` (the first
/// argument: the command has no options of its own).
#[cfg(all(not(target_env = "msvc"), target_os = "linux", target_env = "gnu"))]
fn allocator_options(command: Option<&std::ffi::CStr>) -> &'static std::ffi::CStr {
    match command {
        Some(c) if c == c"apply" || c == c"extract" => OPTIONS_WITH_HUGE_PAGES,
        _ => OPTIONS,
    }
}

/// Runs before `main`, and before jemalloc starts (at the first allocation, or in its own
/// initializer), so jemalloc starts with the options of the command that runs: glibc calls the
/// executable's initializers with `main`'s arguments, and this one has a priority (101, as C's
/// `constructor(101)`), which linkers place before every initializer without one, jemalloc's
/// included. Had anything allocated first, jemalloc would keep [`OPTIONS`]: only slower.
#[cfg(all(not(target_env = "msvc"), target_os = "linux", target_env = "gnu"))]
#[used]
#[link_section = ".init_array.00101"]
static CHOOSE_ALLOCATOR_OPTIONS: extern "C" fn(std::ffi::c_int, *const *const std::ffi::c_char, *const *const std::ffi::c_char) = {
    extern "C" fn choose(argc: std::ffi::c_int, argv: *const *const std::ffi::c_char, _env: *const *const std::ffi::c_char) {
        let command = if argc >= 2 && !argv.is_null() {
            // SAFETY: glibc passes `main`'s `argc` and `argv`: `argv` holds `argc` pointers to
            // NUL-terminated strings (then a null pointer), which live as long as the process.
            let arg = unsafe { *argv.add(1) };
            (!arg.is_null()).then(|| unsafe { std::ffi::CStr::from_ptr(arg) })
        } else {
            None
        };
        ALLOCATOR_OPTIONS.store(allocator_options(command).as_ptr().cast_mut(), std::sync::atomic::Ordering::Relaxed);
    }
    choose
};

/// `induce` frees each page's tree as soon as its summary is made and keeps only summaries:
/// the freed pages go back to the system after 10 ms instead of the 100 ms set above, so its
/// peak is what it keeps plus a few pages, not a tenth of a second of them (1,000 pages: a
/// median 56.9 MiB instead of 63.2, at 1.05× the wall time, well inside induce's time budget).
/// `apply`, which frees and refills the same room page after page, keeps the 100 ms: 10 ms
/// costs it 4–6% (docs/benchmarks.md).
#[cfg(not(target_env = "msvc"))]
fn return_freed_pages_sooner() {
    let ms: isize = 10;
    let mut arenas: u32 = 0;
    let mut len = std::mem::size_of::<u32>();
    let set = |name: &std::ffi::CStr| {
        // SAFETY: jemalloc's documented controls `arena.<i>.dirty_decay_ms` and
        // `arenas.dirty_decay_ms` take an `ssize_t` and give nothing back; `ms` outlives the
        // call. A failure leaves the option as it was.
        unsafe {
            tikv_jemalloc_sys::mallctl(name.as_ptr(), std::ptr::null_mut(), std::ptr::null_mut(), (&raw const ms).cast_mut().cast(), std::mem::size_of::<isize>())
        }
    };
    // SAFETY: `arenas.narenas` is an `unsigned` read into `arenas`, `len` holding its size.
    let read = unsafe { tikv_jemalloc_sys::mallctl(c"arenas.narenas".as_ptr(), (&raw mut arenas).cast(), &raw mut len, std::ptr::null_mut(), 0) };
    if read == 0 {
        for i in 0..arenas {
            if let Ok(name) = std::ffi::CString::new(format!("arena.{i}.dirty_decay_ms")) {
                set(&name);
            }
        }
    }
    set(c"arenas.dirty_decay_ms");
}

#[cfg(target_env = "msvc")]
fn return_freed_pages_sooner() {}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Induce(Deferred(a)) => {
            return_freed_pages_sooner();
            induce(a)
        }
        Command::Apply(Deferred(a)) => apply(a),
        Command::Feed(Deferred(a)) => apply::feed(a),
        Command::Bench(Deferred(a)) => bench(a),
        Command::Crawl(Deferred(a)) => crawl::crawl(a),
        Command::Wrappers(Deferred(a)) => wrappers(a),
        Command::Search(Deferred(a)) => search(a),
        Command::MergeIndex { into, shards } => {
            let mut index = forest::index::ArticleIndex::open_or_create(&into)?;
            // Each shard is merged or skipped with its reason; the others go on.
            let mut skipped = 0usize;
            for shard in &shards {
                match index.merge_from(shard) {
                    Ok(n) => eprintln!("forest: merged {n} articles of {}", shard.display()),
                    Err(e) => {
                        eprintln!("forest: skipped {}: {}", shard.display(), explain(&e));
                        skipped += 1;
                    }
                }
            }
            eprintln!("forest: {} holds {} articles", into.display(), index.len());
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
    fn the_command_line_is_well_formed_with_every_subcommand_built() {
        // Builds the deferred arguments of every subcommand and checks them (clap's own test).
        Cli::command().debug_assert();
    }

    #[cfg(not(target_env = "msvc"))]
    #[test]
    fn induce_returns_freed_pages_after_ten_milliseconds() {
        let decay = |name: &std::ffi::CStr| {
            let (mut ms, mut len) = (-2isize, std::mem::size_of::<isize>());
            // SAFETY: reads an `ssize_t` control into `ms`, `len` holding its size.
            let read = unsafe { tikv_jemalloc_sys::mallctl(name.as_ptr(), (&raw mut ms).cast(), &raw mut len, std::ptr::null_mut(), 0) };
            (read, ms)
        };
        assert_eq!(decay(c"arena.0.dirty_decay_ms"), (0, 100), "the process-wide option");
        return_freed_pages_sooner();
        assert_eq!(decay(c"arena.0.dirty_decay_ms"), (0, 10));
        assert_eq!(decay(c"arenas.dirty_decay_ms"), (0, 10), "arenas made later");
    }

    /// jemalloc's transparent huge page mode in this process (`opt.thp`).
    #[cfg(all(not(target_env = "msvc"), target_os = "linux", target_env = "gnu"))]
    fn huge_page_mode() -> String {
        let (mut mode, mut len) = (std::ptr::null::<std::ffi::c_char>(), std::mem::size_of::<*const std::ffi::c_char>());
        // SAFETY: `opt.thp` is a `const char *` read into `mode`, `len` holding its size; it
        // points at a static string of jemalloc's.
        let read = unsafe { tikv_jemalloc_sys::mallctl(c"opt.thp".as_ptr(), (&raw mut mode).cast(), &raw mut len, std::ptr::null_mut(), 0) };
        assert_eq!(read, 0);
        assert!(!mode.is_null());
        // SAFETY: see above.
        unsafe { std::ffi::CStr::from_ptr(mode) }.to_string_lossy().into_owned()
    }

    #[cfg(all(not(target_env = "msvc"), target_os = "linux", target_env = "gnu"))]
    #[test]
    fn the_heap_asks_for_huge_pages_for_apply_only() {
        let huge = |command: Option<&std::ffi::CStr>| allocator_options(command).to_str().is_ok_and(|o| o.ends_with(",thp:always"));
        assert!(huge(Some(c"apply")) && huge(Some(c"extract")), "`extract` is `apply`'s alias");
        assert!(!huge(Some(c"induce")) && !huge(Some(c"bench")) && !huge(Some(c"--help")) && !huge(None));
    }

    /// Run by [`apply_starts_the_allocator_with_huge_pages`] in a process started as `apply`;
    /// otherwise this test process, started without `apply`, has none.
    #[cfg(all(not(target_env = "msvc"), target_os = "linux", target_env = "gnu"))]
    #[test]
    fn huge_page_probe() {
        let mode = huge_page_mode();
        // jemalloc says "not supported" where the kernel offers no transparent huge pages.
        let offered = std::path::Path::new("/sys/kernel/mm/transparent_hugepage/enabled").exists();
        if std::env::var_os("FOREST_TEST_STARTED_AS_APPLY").is_some() {
            assert_eq!(mode, if offered { "always" } else { "not supported" });
        } else {
            assert!(mode == "default" || mode == "not supported", "{mode}");
        }
    }

    #[cfg(all(not(target_env = "msvc"), target_os = "linux", target_env = "gnu"))]
    #[test]
    fn apply_starts_the_allocator_with_huge_pages() {
        // This test binary again, with `apply` as its first argument: the initializer sees the
        // command line `forest apply …` would give it. To the test harness `apply` is a name
        // that, with `--exact`, matches no test, so only the probe runs.
        let exe = std::env::current_exe().expect("the test binary's path");
        let out = std::process::Command::new(exe)
            .args(["apply", "--exact", "tests::huge_page_probe", "--test-threads", "1"])
            .env("FOREST_TEST_STARTED_AS_APPLY", "1")
            .output()
            .expect("the test binary runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains("1 passed"), "{stdout}");
    }
}
