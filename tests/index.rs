//! The article index end to end: shards merged equal one index built whole; a writer killed
//! mid-way (a real child process, SIGKILL) leaves an index that opens with whole commits only,
//! and re-running its adds completes it without duplicates; and, on demand, speed on the
//! development corpus.

use forest::index::{Article, ArticleIndex, DEFAULT_BATCH};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Words the generated articles are made of.
const WORDS: &[&str] = &[
    "bridge", "river", "council", "budget", "harbor", "train", "station", "museum", "storm", "election", "school",
    "market", "festival", "hospital", "airport", "library", "stadium", "forest", "mountain", "village",
];

/// The `i`-th generated article (English, 40–200 words, with a word only it has).
fn article(i: usize) -> Article {
    let mut text = format!("Report number{i} begins.");
    for k in 0..(40 + (i * 37) % 160) {
        text.push(' ');
        text.push_str(WORDS[(i * 7 + k * 3) % WORDS.len()]);
    }
    Article {
        url: Some(format!("https://gen.example/{i}")),
        host: Some(if i % 2 == 0 { "gen.example".into() } else { "other.example".into() }),
        title: format!("{} news {i}", WORDS[i % WORDS.len()]),
        text,
        published: Some(format!("2024-01-{:02}", 1 + i % 28)),
        lang: Some("en".into()),
        xpath: "//article".into(),
        extracted_at: 1_700_000_000 + i as i64,
        ..Article::default()
    }
}

/// Every article of `index`, by URL, checking that no URL is there twice.
fn all(index: &ArticleIndex) -> Vec<Article> {
    let mut out = Vec::new();
    index
        .for_each(|a| {
            out.push(a);
            Ok(())
        })
        .expect("read all");
    out.sort_by(|a, b| a.url.cmp(&b.url));
    let urls: HashSet<&str> = out.iter().map(|a| a.key()).collect();
    assert_eq!(urls.len(), out.len(), "a URL is in the index twice");
    out
}

fn build(dir: &Path, articles: &[Article]) -> ArticleIndex {
    let index = ArticleIndex::open_or_create(dir).expect("index");
    let mut w = index.writer(16).expect("writer");
    for a in articles {
        w.add(a).expect("add");
    }
    w.finish().expect("finish");
    index
}

#[test]
fn merged_shards_equal_one_index_built_whole() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut first: Vec<Article> = (0..60).map(article).collect();
    let mut second: Vec<Article> = (50..120).map(article).collect();
    // URLs in both shards: the second shard's version wins, as it would in one index.
    for a in &mut second[..10] {
        a.text.push_str(" updated");
    }
    first.push(Article { lang: Some("fr".into()), ..article(500) });
    let a = build(&tmp.path().join("a"), &first);
    let b = build(&tmp.path().join("b"), &second);
    assert_eq!((a.len(), b.len()), (61, 70));

    let mut merged = ArticleIndex::open_or_create(&tmp.path().join("merged")).expect("merged");
    assert_eq!(merged.merge_from(a.path()).expect("merge a"), 61);
    assert_eq!(merged.merge_from(b.path()).expect("merge b"), 70);
    let whole = build(&tmp.path().join("whole"), &[first, second].concat());
    assert_eq!(merged.len(), 121);
    assert_eq!(whole.len(), 121);
    assert_eq!(all(&merged), all(&whole));
    for q in ["bridge", "number57", "updated", "\"river council\"", "museum -storm", "news"] {
        let urls = |i: &ArticleIndex| {
            let mut u: Vec<String> = i.search(q, 200, None).expect("search").into_iter().map(|h| h.url).collect();
            u.sort();
            u
        };
        assert_eq!(urls(&merged), urls(&whole), "{q}");
    }
    assert_eq!(merged.search("updated", 200, Some("gen.example")).expect("search").len(), 5);
    assert!(merged.merge_from(&tmp.path().join("nowhere")).is_err());
}

#[test]
fn junk_folder_is_refused_clearly() {
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(tmp.path().join("photos")).expect("mkdir");
    let err = ArticleIndex::open_or_create(tmp.path()).expect_err("not an index").to_string();
    assert!(err.contains("photos") && err.contains("holds no article index"), "{err}");
    let file = tmp.path().join("photos").join("a.jpg");
    std::fs::write(&file, b"\xff\xd8").expect("write");
    assert!(ArticleIndex::open_or_create(&file).is_err(), "a file is not a folder");
}

/// The child's settings: where to write (the env variable), how many, how often it commits.
const CHILD_DIR: &str = "FOREST_TEST_INDEX_CHILD_DIR";
const CHILD_ARTICLES: usize = 1500;
const CHILD_BATCH: usize = 7;

/// Not a test: the writer process `killed_writer_leaves_whole_commits` starts and kills.
#[test]
#[ignore = "the child process of killed_writer_leaves_whole_commits"]
fn child_writer() {
    let Some(dir) = std::env::var_os(CHILD_DIR) else { return };
    let index = ArticleIndex::open_or_create(Path::new(&dir)).expect("child: index");
    let mut w = index.writer(CHILD_BATCH).expect("child: writer");
    for i in 0..CHILD_ARTICLES {
        w.add(&article(i)).expect("child: add");
        std::thread::sleep(Duration::from_millis(1));
    }
    w.finish().expect("child: finish");
}

#[test]
fn killed_writer_leaves_whole_commits() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir: PathBuf = tmp.path().join("index");
    let mut child = Command::new(std::env::current_exe().expect("test binary"))
        .args(["child_writer", "--exact", "--ignored", "--test-threads=1"])
        .env(CHILD_DIR, &dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the child writer");
    // Let it commit a good many batches, then kill it at some point inside the next ones.
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        if dir.join("meta.json").exists() {
            let seen = ArticleIndex::open(&dir).expect("open while the child writes").len();
            if seen >= 20 * CHILD_BATCH {
                break;
            }
        }
        assert!(child.try_wait().expect("child status").is_none(), "the child writer stopped on its own");
        assert!(Instant::now() < deadline, "the child writer is too slow");
        std::thread::sleep(Duration::from_millis(10));
    }
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    std::thread::sleep(Duration::from_micros(u64::from(nanos % 50_000)));
    assert!(child.try_wait().expect("child status").is_none(), "the child writer finished before the kill");
    child.kill().expect("kill the child");
    child.wait().expect("reap the child");

    // It opens; only whole commits; every article whole; no URL twice.
    let index = ArticleIndex::open_or_create(&dir).expect("reopen after the kill");
    let kept = all(&index);
    assert_eq!(kept.len(), index.len());
    assert!(kept.len() >= 20 * CHILD_BATCH && kept.len() < CHILD_ARTICLES, "killed at {}", kept.len());
    assert_eq!(kept.len() % CHILD_BATCH, 0, "a partial batch survived: {}", kept.len());
    for a in &kept {
        let i: usize = a.key().rsplit('/').next().and_then(|n| n.parse().ok()).expect("generated URL");
        assert_eq!(a, &article(i), "article {i} is not as written");
    }
    eprintln!("killed after {} committed articles", kept.len());

    // The dead writer's lock file is still there but no longer held: a new writer gets it.
    assert!(dir.join(".tantivy-writer.lock").exists());
    let mut w = index.writer(DEFAULT_BATCH).expect("a writer after the kill (stale lock)");
    for i in 0..CHILD_ARTICLES {
        w.add(&article(i)).expect("add again");
    }
    assert_eq!(w.finish().expect("finish"), CHILD_ARTICLES);
    let index = ArticleIndex::open(&dir).expect("reopen");
    assert_eq!(index.len(), CHILD_ARTICLES);
    assert_eq!(all(&index).len(), CHILD_ARTICLES);
    let hits = index.search("number1234", 5, None).expect("search");
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].url, "https://gen.example/1234");
}

/// One corpus page as an article: gold text, headline = its first line, language detected.
fn corpus_article(site: &str, txt: &Path) -> Option<Article> {
    let text = std::fs::read_to_string(txt).ok()?;
    let meta: serde_json::Value = std::fs::read_to_string(txt.with_extension("json"))
        .ok()
        .and_then(|j| serde_json::from_str(&j).ok())
        .unwrap_or_default();
    let id = txt.file_stem()?.to_string_lossy().into_owned();
    Some(Article {
        url: Some(meta["url"].as_str().map_or_else(|| format!("corpus://{site}/{id}"), str::to_string)),
        host: Some(meta["host"].as_str().unwrap_or(site).to_string()),
        title: text.lines().next().unwrap_or_default().trim().to_string(),
        text,
        published: None,
        lang: None,
        xpath: String::new(),
        extracted_at: 0,
        ..Article::default()
    })
}

/// Indexing speed and query latency on the development corpus (`../shared/corpus`, or
/// `$FOREST_CORPUS`): `cargo test --release --test index -- --ignored corpus_speed --nocapture`.
#[test]
#[ignore = "a measurement: needs the corpus and a release build"]
fn corpus_speed() {
    let root = std::env::var_os("FOREST_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    let Ok(sites) = std::fs::read_dir(&root) else {
        eprintln!("no corpus at {}: skipped", root.display());
        return;
    };
    let mut sites: Vec<PathBuf> = sites.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect();
    sites.sort();
    let mut articles = Vec::new();
    for site in &sites {
        let name = site.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let mut txts: Vec<PathBuf> = std::fs::read_dir(site)
            .expect("site folder")
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .collect();
        txts.sort();
        articles.extend(txts.iter().filter_map(|t| corpus_article(&name, t)));
    }
    let bytes: usize = articles.iter().map(|a| a.text.len()).sum();

    let tmp = tempfile::tempdir().expect("temp dir");
    let start = Instant::now();
    let index = ArticleIndex::open_or_create(tmp.path()).expect("index");
    let mut w = index.writer(DEFAULT_BATCH).expect("writer");
    for a in &articles {
        w.add(a).expect("add");
    }
    w.finish().expect("finish");
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(index.len(), articles.len());

    // ~50 queries: three words of every n-th headline; the page itself should rank high.
    let step = (articles.len() / 50).max(1);
    let queries: Vec<(String, &str)> = articles
        .iter()
        .step_by(step)
        .map(|a| {
            let words: Vec<&str> = a.title.split_whitespace().filter(|w| w.chars().count() > 3).take(3).collect();
            (words.join(" "), a.key())
        })
        .filter(|(q, _)| !q.is_empty())
        .collect();
    let mut times = Vec::new();
    let mut found = 0;
    for round in 0..4 {
        for (q, url) in &queries {
            let t = Instant::now();
            let hits = index.search(q, 10, None).expect("search");
            let took = t.elapsed();
            if round == 0 {
                found += usize::from(hits.iter().any(|h| h.url == *url));
            } else {
                times.push(took);
            }
        }
    }
    times.sort();
    let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1000.0;
    println!(
        "indexed {} pages ({:.1} MB) in {secs:.2} s: {:.0} pages/s, {:.1} MB/s; {} queries × 3: median {:.2} ms, \
         p99 {:.2} ms; own page in top 10 for {found}/{}",
        articles.len(),
        bytes as f64 / 1e6,
        articles.len() as f64 / secs,
        bytes as f64 / 1e6 / secs,
        queries.len(),
        pct(0.5),
        pct(0.99),
        queries.len(),
    );
}
