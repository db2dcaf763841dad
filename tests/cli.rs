//! End-to-end tests of the `forest` binary on the bundled demo site and on bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn forest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_forest"))
        .args(args)
        .env("FOREST_STORE", Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-store"))
        .output()
        .expect("run forest")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("feeds/demo-news")
}

fn p(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// Induce the demo site's wrapper into `dir`; returns the wrapper path and the XPath line.
fn induce_demo(dir: &Path) -> (PathBuf, String) {
    let wrapper = dir.join("demo.json");
    let o = forest(&["induce", p(&demo().join("feed.xml")), "--out", p(&wrapper)]);
    assert!(o.status.success(), "induce failed: {}", stderr(&o));
    (wrapper, stdout(&o).lines().next().unwrap_or_default().to_string())
}

/// Texts of the demo page's reader comments.
fn comment_texts(html: &str) -> Vec<String> {
    let doc = scraper::Html::parse_document(html);
    let sel = scraper::Selector::parse("section#comments p.comment-text").expect("selector");
    doc.select(&sel).map(|e| e.text().collect::<String>()).collect()
}

#[test]
fn demo_wrapper_selects_the_article_container_not_the_comments() {
    let tmp = tempfile::tempdir().unwrap();
    let (wrapper, xpath) = induce_demo(tmp.path());
    assert!(
        xpath.starts_with("//div[substring-before(concat(normalize-space(@class),' '),' ')='article-body'"),
        "xpath: {xpath}"
    );

    let out = tmp.path().join("out");
    let o = forest(&["apply", "--wrapper", p(&wrapper), p(&demo()), "--out-dir", p(&out)]);
    assert!(o.status.success(), "apply failed: {}", stderr(&o));
    let mut pages = 0;
    for entry in std::fs::read_dir(demo()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "html") {
            continue;
        }
        pages += 1;
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let text = std::fs::read_to_string(out.join(format!("{stem}.txt"))).unwrap();
        let gold = std::fs::read_to_string(path.with_extension("txt")).unwrap();
        let s = forest::bench::score::score(&gold, &text);
        assert!(s.r > 0.99 && s.f1 > 0.9, "{stem}: {s:?}");
        let html = std::fs::read_to_string(&path).unwrap();
        let comments = comment_texts(&html);
        assert!(!comments.is_empty());
        for c in comments {
            assert!(!text.contains(c.trim()), "{stem}: comment in output: {c}");
        }
    }
    assert_eq!(pages, 6);
}

#[test]
fn explain_prints_the_candidate_table() {
    let o = forest(&["induce", p(&demo()), "--explain"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("rank  level  clue"), "{out}");
    assert!(out.lines().nth(3).unwrap_or_default().contains("div.article-body"), "{out}");
}

#[test]
fn wrapper_file_holds_pattern_candidates_and_settings() {
    let tmp = tempfile::tempdir().unwrap();
    let (wrapper, xpath) = induce_demo(tmp.path());
    let w: serde_json::Value = serde_json::from_slice(&std::fs::read(wrapper).unwrap()).unwrap();
    assert_eq!(w["format"], "forest-wrapper");
    assert_eq!(w["xpath"], xpath.as_str());
    assert_eq!(w["pattern"]["pattern"]["tag"], "div");
    assert_eq!(w["pattern"]["pattern"]["class"], "article-body");
    assert!(w["pattern"]["pattern"]["level"].as_u64().unwrap() > 2);
    assert!(!w["pattern"]["dfs"].as_array().unwrap().is_empty());
    assert_eq!(w["candidates"].as_array().unwrap().len(), 5);
    assert_eq!(w["signifiers"], "tfidf");
    assert_eq!(w["k"], 10);
    assert_eq!(w["pages"].as_array().unwrap().len(), 6);
}

#[test]
fn apply_on_an_unseen_page_uses_a_fallback_and_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let (wrapper, _) = induce_demo(tmp.path());
    // Extra blocks before the article shift every dfs number after them.
    let html = std::fs::read_to_string(demo().join("bridge-repair.html")).unwrap();
    let shifted = html.replacen(
        "<body class=\"article-page\">",
        "<body class=\"article-page\"><div class=\"promo\"><p>Subscribe</p><p>Today</p></div>",
        1,
    );
    assert_ne!(html, shifted);
    let page = tmp.path().join("new-page.html");
    std::fs::write(&page, shifted).unwrap();
    let o = forest(&["apply", "--wrapper", p(&wrapper), p(&page), "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("(rule same-type-same-level)"), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["rule"], "same-type-same-level");
    assert!(v["text"].as_str().unwrap().starts_with("Elm Street Bridge to Close"));
    assert_eq!(v["title"], "Elm Street Bridge to Close for Six Weeks of Repairs");
    assert!(v["confidence"].as_f64().unwrap() > 0.5, "{v}");
    assert!(v["xpath"].as_str().unwrap().contains("article-body"));
}

fn assert_clean_failure(o: &Output, needle: &str) {
    assert_eq!(o.status.code(), Some(1), "stdout: {} stderr: {}", stdout(o), stderr(o));
    let err = stderr(o);
    assert!(err.contains(needle), "expected {needle:?} in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn one_page_is_not_enough() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(demo().join("bridge-repair.html"), tmp.path().join("a.html")).unwrap();
    let o = forest(&["induce", p(tmp.path())]);
    assert_clean_failure(&o, "Forest needs at least 2 pages that share a template");
}

#[test]
fn unreadable_and_non_html_pages_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let png = tmp.path().join("image.html");
    std::fs::write(&png, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89").unwrap();
    let (wrapper, _) = induce_demo(tmp.path());
    let o = forest(&["apply", "--wrapper", p(&wrapper), p(&png)]);
    assert_clean_failure(&o, "is not an HTML page");
    let o = forest(&["apply", "--wrapper", p(&wrapper), p(&tmp.path().join("missing.html"))]);
    assert_clean_failure(&o, "cannot read");
    // Two unusable pages and one good one: induce names the causes.
    std::fs::copy(demo().join("bridge-repair.html"), tmp.path().join("good.html")).unwrap();
    std::fs::write(tmp.path().join("empty.html"), b"").unwrap();
    let o = forest(&["induce", p(tmp.path())]);
    assert_clean_failure(&o, "got 1 usable page(s); failed:");
}

#[test]
fn a_feed_that_does_not_parse_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let feed = tmp.path().join("feed.xml");
    std::fs::write(&feed, b"<rss><channel><item><title>broken").unwrap();
    let o = forest(&["induce", p(&feed)]);
    assert_clean_failure(&o, "is not a feed");
}

#[test]
fn a_wrapper_that_is_not_ours_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let w = tmp.path().join("w.json");
    std::fs::write(&w, br#"{"xpath": "//div"}"#).unwrap();
    let o = forest(&["apply", "--wrapper", p(&w), p(&demo().join("bridge-repair.html"))]);
    assert_clean_failure(&o, "is not a forest wrapper");
    std::fs::write(&w, b"\xff\xfe garbage").unwrap();
    let o = forest(&["apply", "--wrapper", p(&w), p(&demo().join("bridge-repair.html"))]);
    assert_clean_failure(&o, "is not a forest wrapper");
}

#[test]
fn clean_prints_xml_that_reparses_for_hostile_html() {
    let tmp = tempfile::tempdir().unwrap();
    let page = tmp.path().join("deep.html");
    let html = format!(
        "<html xmlns:fb=x><body><div @click=x v-on:click=y xmlns=z a=1 a=2 dfs=9>t\0e\x01x\x0bt</div>{}deep{}</body></html>",
        "<div>".repeat(100_000),
        "</div>".repeat(100_000)
    );
    std::fs::write(&page, html).unwrap();
    let o = forest(&["clean", p(&page)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let xml = stdout(&o);
    let package = sxd_document::parser::parse(xml.trim()).expect("clean output parses as XML");
    let document = package.as_document();
    let found = sxd_xpath::evaluate_xpath(&document, "string(//div[@_click='x']/@dfs)").unwrap();
    assert_eq!(found.string(), "3");
    assert!(xml.contains("deep"));
}

#[test]
fn apply_output_is_the_same_for_any_number_of_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let (wrapper, _) = induce_demo(tmp.path());
    let run = |jobs: &str| {
        let o = forest(&["apply", "--wrapper", p(&wrapper), p(&demo()), "--format", "jsonl", "--jobs", jobs]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let one = run("1");
    assert_eq!(one.lines().count(), 6);
    assert_eq!(one, run("4"));
}

#[test]
fn a_page_over_a_budget_is_skipped_with_the_reason_and_the_run_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let (wrapper, _) = induce_demo(tmp.path());
    let page = demo().join("bridge-repair.html");
    // A folder of one small and one big page: only the big one is over 60 elements.
    let dir = tmp.path().join("pages");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(&page, dir.join("big.html")).unwrap();
    std::fs::write(dir.join("small.html"), "<html><body><div class=article-body><p>Short but fine.</p></div></body></html>").unwrap();
    let o = forest(&["apply", "--wrapper", p(&wrapper), p(&dir), "--max-elements", "60", "--format", "jsonl"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("big.html: over budget: the page has more than 60 elements (raise it with --max-elements)"), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 1);
    // Time: a zero budget skips every page, and says which flag raises it.
    let o = forest(&["apply", "--wrapper", p(&wrapper), p(&page), "--max-seconds", "0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--max-seconds"), "{}", stderr(&o));
    // XPath node visits: a site config whose XPath visits every subtree of every element is
    // stopped on the big page, and runs on the small one.
    let cfg = tmp.path().join("example.com.txt");
    std::fs::write(&cfg, "body: //div[count(.//*) >= 0][p]\n").unwrap();
    let o = forest(&["apply", "--site-config", p(&cfg), p(&dir), "--max-xpath-visits", "300", "--format", "jsonl"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("big.html: over budget: the XPath"), "{}", stderr(&o));
    assert!(stderr(&o).contains("visited over 300 nodes (raise it with --max-xpath-visits)"), "{}", stderr(&o));
    assert!(stdout(&o).contains("Short but fine."), "{}", stdout(&o));
    // Depth: deeper nesting is flattened, not refused; the text survives.
    let deep = tmp.path().join("deep.html");
    std::fs::write(&deep, format!("<html><body><div class=article-body>{}<p>Deep words here.</p></div></body></html>", "<div>".repeat(500))).unwrap();
    let o = forest(&["apply", "--wrapper", p(&wrapper), p(&deep), "--max-depth", "50"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Deep words here."));
}

/// Killing forest at any moment leaves the old output file or the new one, never half of one.
#[test]
fn a_killed_writer_leaves_the_old_file_or_the_new_one() {
    let tmp = tempfile::tempdir().unwrap();
    let (wrapper, _) = induce_demo(tmp.path());
    let old = std::fs::read_to_string(&wrapper).unwrap();
    let target = tmp.path().join("w.json");
    let out_dir = tmp.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    for step in 0..12u64 {
        std::fs::write(&target, &old).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_forest"))
            .args(["induce", p(&demo()), "--out", p(&target), "--no-store", "-q", "--signifiers", &(5 + step).to_string()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut apply = Command::new(env!("CARGO_BIN_EXE_forest"))
            .args(["apply", "--wrapper", p(&wrapper), p(&demo()), "--out-dir", p(&out_dir), "--format", "json"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(step * 15));
        let _ = child.kill();
        let _ = apply.kill();
        let _ = child.wait();
        let _ = apply.wait();
        let now = std::fs::read_to_string(&target).unwrap();
        let w = forest::Wrapper::from_json(now.as_bytes()).unwrap_or_else(|e| panic!("step {step}: half a wrapper: {e}"));
        assert!(now == old || w.k == 5 + step as usize, "step {step}: neither the old wrapper nor the new one");
        for e in std::fs::read_dir(&out_dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "json") {
                let text = std::fs::read_to_string(&path).unwrap();
                serde_json::from_str::<serde_json::Value>(&text).unwrap_or_else(|e| panic!("step {step}: {} is half written: {e}", path.display()));
            }
        }
    }
}

#[test]
fn each_subcommand_s_help_starts_with_its_own_description() {
    let own = [
        ("induce", "Learn a site's wrapper from sample pages"),
        ("feed", "Write a feed back with each item's full article"),
        ("apply", "Apply a wrapper to pages of its site"),
        ("wrappers", "List, show, remove or import the stored wrappers"),
        ("search", "Search the articles of an index"),
        ("bench", "Evaluate methods on a gold set"),
    ];
    for (cmd, first) in own {
        for args in [[cmd, "--help"], [cmd, "-h"], ["help", cmd]] {
            let o = forest(&args);
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
            assert!(stdout(&o).starts_with(first), "{args:?} starts with {:?}", stdout(&o).lines().next());
            assert!(stdout(&o).contains("Usage: forest"), "{args:?}");
        }
    }
    // Its options are there too, and a wrong one is refused with the usage of that subcommand.
    assert!(stdout(&forest(&["apply", "--help"])).contains("--max-elements"));
    let o = forest(&["apply", "--no-such-flag"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("Usage: forest apply"), "{}", stderr(&o));
}

#[test]
fn numeric_options_out_of_range_are_usage_errors_not_panics() {
    let page = demo().join("bridge-repair.html");
    for args in [["--timeout", "inf"], ["--timeout", "1e20"], ["--timeout", "nan"], ["--max-seconds", "1e30"], ["--delay", "18446744073709551615"], ["--retries", "4000000000"]] {
        let o = forest(&["apply", "--no-learn", p(&page), args[0], args[1]]);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(args[0]), "{args:?}: {}", stderr(&o));
    }
    // More workers than any machine has: the run caps them and finishes.
    let o = forest(&["apply", "--no-learn", p(&demo()), "--jobs", "100000", "--format", "jsonl"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 6);
}

#[test]
fn a_page_that_shows_no_text_is_said_to_be_so_not_a_wrapper_failure() {
    // An application shell: a splash, the content loaded by scripts.
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("shell.html");
    let shell = |head: &str| format!("<html><head><title>Thread</title>{head}</head><body><section id=splash><div class=dots></div></section><script>load()</script></body></html>");
    std::fs::write(&page, shell("")).unwrap();
    let o = forest(&["apply", p(&page), "--no-learn"]);
    let err = stderr(&o);
    assert!(err.contains("shows no text (its content may be loaded by scripts)"), "{err}");
    assert!(!err.contains("wrapper"), "{err}");
    // One that declares what it holds gives that, and says so.
    std::fs::write(&page, shell("<meta name=description content='Which first telescope shows the planets?'>")).unwrap();
    let o = forest(&["apply", p(&page), "--no-learn"]);
    let err = stderr(&o);
    assert!(err.contains("its declared description is given") && !err.contains("wrapper"), "{err}");
    assert_eq!(stdout(&o).trim(), "Which first telescope shows the planets?");
}

#[test]
fn comments_come_only_when_asked_after_the_article_never_in_its_text() {
    let page = demo().join("bridge-repair.html");
    let comments = comment_texts(&std::fs::read_to_string(&page).unwrap());
    assert!(!comments.is_empty());
    let json = |args: &[&str]| -> serde_json::Value {
        let o = forest(&[&["apply", "--no-learn", p(&page), "--format", "json"], args].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_str(&stdout(&o)).expect("JSON")
    };
    let (plain, asked) = (json(&[]), json(&["--comments"]));
    assert!(plain.get("comments").is_none(), "no comments unless asked: {plain}");
    assert_eq!(plain["text"], asked["text"], "the article's text is the same");
    let got = asked["comments"].as_array().expect("comments").iter().map(|c| c.as_str().unwrap_or_default()).collect::<Vec<_>>().join("\n");
    for c in &comments {
        assert!(got.contains(c.trim()), "comment {c:?} missing from {got}");
        assert!(!asked["text"].as_str().unwrap_or_default().contains(c.trim()));
    }
    // In text and Markdown they follow the article under a heading of their own.
    for (format, heading) in [("text", "\n\nComments\n\n"), ("markdown", "\n## Comments\n\n")] {
        let o = forest(&["apply", "--no-learn", "--comments", p(&page), "--format", format]);
        let out = stdout(&o);
        let at = out.find(heading).unwrap_or_else(|| panic!("{format}: {out}"));
        assert!(out[at..].contains(comments[0].trim()) && !out[..at].contains(comments[0].trim()), "{format}: {out}");
    }
}

#[test]
fn a_closed_stderr_drops_the_messages_and_keeps_every_article() {
    // The reader of forest's messages went away (`forest … 2>&1 | head -1`, a log collector
    // that died): a message is dropped, and the run neither stops, panics nor hangs. A store of
    // its own: other tests store the demo's wrapper in theirs while this one runs.
    let store = tempfile::tempdir().unwrap();
    let demo = demo();
    let command = || {
        let mut c = Command::new(env!("CARGO_BIN_EXE_forest"));
        c.args(["apply", "--no-learn", "-j2", "--format", "jsonl", p(&demo)]).env("FOREST_STORE", store.path());
        c
    };
    let expected = command().output().expect("run forest");
    assert!(expected.status.success() && !expected.stderr.is_empty(), "{}", stderr(&expected));
    let mut child = command().stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().expect("run forest");
    drop(child.stderr.take());
    let mut out = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut v).map(|_| v)
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("forest hung with its stderr closed");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
    assert!(reader.join().expect("reader").expect("stdout") == expected.stdout, "the articles differ");
}
