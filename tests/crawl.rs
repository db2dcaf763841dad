//! `forest crawl` on a site served on loopback: a blog and news site of over 400 pages with the
//! layouts real sites have (posts at the root as slugs, news at dated paths, a home page,
//! category, tag and author listings with pagination, a feed, a sitemap, PDFs and images, a
//! section robots.txt disallows, a redirect). Articles are made of `../shared/corpus` gold
//! texts when it is there (else of generated prose), so what the crawl writes is scored against
//! the text each page was built from.

mod common;

use common::cli::{forest, p};
use common::{Reply, Rng, Server, Site};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

const CATEGORIES: &[&str] = &["Town", "Rivers", "Schools", "Markets", "Weather"];
const AUTHORS: &[&str] = &["Ada Quill", "Ben Marsh", "Cora Vale", "Dev Patel"];
const POSTS: usize = 260;
const PER_PAGE: usize = 10;

struct Post {
    path: String,
    title: String,
    paras: Vec<String>,
    category: usize,
    tags: Vec<usize>,
    author: usize,
    date: String,
    news: bool,
}

/// A made-up word of one to three syllables.
fn word(rng: &mut Rng) -> String {
    const SYL: &[&str] = &["ka", "ro", "mi", "len", "tor", "sa", "vi", "dun", "el", "bra", "qui", "no", "ster", "pa", "lo", "ren", "ty", "gar"];
    (0..1 + rng.below(3)).map(|_| SYL[rng.below(SYL.len())]).collect()
}

/// A made-up sentence of 8 to 19 words.
fn sentence(rng: &mut Rng) -> String {
    let n = 8 + rng.below(12);
    let mut s: Vec<String> = (0..n).map(|_| word(rng)).collect();
    s[0] = capital(&s[0]);
    format!("{}.", s.join(" "))
}

fn capital(w: &str) -> String {
    let mut c = w.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Gold texts of `../shared/corpus` (headline, then paragraphs), when it is there.
fn corpus_texts() -> Vec<(String, Vec<String>)> {
    let dir = common::cli::root().join("../shared/corpus");
    let Ok(sites) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut sites: Vec<_> = sites.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    sites.sort();
    let mut out = Vec::new();
    for site in sites {
        let mut files: Vec<_> = std::fs::read_dir(&site).into_iter().flatten().flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "txt")).collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            let mut blocks = text.split("\n\n").map(|b| b.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|b| !b.is_empty());
            let Some(title) = blocks.next() else { continue };
            let paras: Vec<String> = blocks.collect();
            if paras.len() >= 2 && title.split_whitespace().count() >= 3 {
                out.push((title, paras));
            }
        }
    }
    out
}

fn posts() -> Vec<Post> {
    let gold = corpus_texts();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut used = HashSet::new();
    (0..POSTS)
        .map(|i| {
            let (title, paras) = match gold.get(i * gold.len().max(1) / POSTS) {
                Some(g) if !gold.is_empty() => g.clone(),
                _ => {
                    let title = (0..4 + rng.below(4)).map(|_| capital(&word(&mut rng))).collect::<Vec<_>>().join(" ");
                    let paras = (0..4 + rng.below(5)).map(|_| (0..3 + rng.below(4)).map(|_| sentence(&mut rng)).collect::<Vec<_>>().join(" ")).collect();
                    (title, paras)
                }
            };
            let mut slug: String = title.to_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
            slug = slug.split('-').filter(|w| !w.is_empty()).take(6).collect::<Vec<_>>().join("-");
            if slug.split('-').count() < 2 || !used.insert(slug.clone()) {
                slug = format!("{slug}-post-{i}");
                used.insert(slug.clone());
            }
            // Newest first: post 0 is today's.
            let day = 400 - i;
            let (y, m, d) = (2024 + day / 360, 1 + day % 360 / 30, 1 + day % 30);
            let news = i % 4 == 0;
            let path = if news { format!("/news/{y}/{m:02}/{slug}.html") } else { format!("/{slug}/") };
            Post { path, title, paras, category: i % CATEGORIES.len(), tags: vec![i % 15, (i * 7 + 3) % 15], author: i % AUTHORS.len(), date: format!("{y}-{m:02}-{d:02}"), news }
        })
        .collect()
}

fn slug(s: &str) -> String {
    s.to_lowercase().replace(' ', "-")
}

fn tag_name(t: usize) -> String {
    ["harbor", "budget", "floods", "elections", "bridges", "parks", "trains", "farming", "health", "housing", "music", "sport", "police", "libraries", "energy"][t].to_string()
}

/// The parts every page shares: head, header, sidebar, footer.
fn page(title: &str, canonical: &str, main: &str, posts: &[Post]) -> String {
    let cats: String = CATEGORIES.iter().map(|c| format!("<li><a href=\"/category/{}/\">{c}</a></li>", slug(c))).collect();
    let recent: String = posts.iter().take(5).map(|p| format!("<li><a href=\"{}\">{}</a></li>", p.path, esc(&p.title))).collect();
    let cloud: String = (0..15).map(|t| format!("<a href=\"/tag/{0}/\">{0}</a> ", tag_name(t))).collect();
    format!(
        "<!doctype html><html><head><meta charset=utf-8><title>{} – Riverside Notes</title>\
         <link rel=alternate type=application/rss+xml href=\"/feed/\"><link rel=canonical href=\"{canonical}\"></head>\
         <body><header class=site-header><a class=logo href=\"/\">Riverside Notes</a><nav><ul>{cats}<li><a href=\"/about/\">About</a></li></ul></nav></header>\
         <div class=wrap><main>{main}</main><aside class=sidebar><h3>Recent posts</h3><ul>{recent}</ul><h3>Categories</h3><ul>{cats}</ul>\
         <h3>Tags</h3><div class=cloud>{cloud}</div><p><a href=\"/private/staff-rota/\">Staff area</a> · <a href=\"/old-news/\">Archives</a></p></aside></div>\
         <footer><p>© 2025 Riverside Notes, a community paper run by volunteers since 1998.</p><a href=\"/contact/\">Contact</a></footer></body></html>",
        esc(title)
    )
}

fn post_page(i: usize, posts: &[Post], base: &str) -> String {
    let p = &posts[i];
    let body: String = p.paras.iter().map(|t| format!("<p>{}</p>", esc(t))).collect();
    let extra = match i % 20 {
        0 => format!("<p>Download the <a href=\"/files/report-{i}.pdf\">full report (PDF)</a>.</p>"),
        5 => format!("<figure><a href=\"/img/photo-{i}-large.jpg\"><img src=\"/img/photo-{i}.jpg\" alt=\"\"></a></figure>"),
        _ => String::new(),
    };
    let tags: String = p.tags.iter().map(|&t| format!("<a href=\"/tag/{0}/\">{0}</a> ", tag_name(t))).collect();
    let related: String = (1..=3).map(|k| &posts[(i + k * 11) % posts.len()]).map(|r| format!("<li><a href=\"{}\">{}</a></li>", r.path, esc(&r.title))).collect();
    let author = AUTHORS[p.author];
    let main = if p.news {
        format!(
            "<div class=story><p class=kicker><a href=\"/category/{}/\">{}</a></p><h1 class=headline>{}</h1>\
             <p class=dateline>{} · <a href=\"/author/{}/\">{author}</a></p><div class=story-body>{body}{extra}</div>\
             <div class=story-tags>{tags}</div></div><section class=more><h3>More news</h3><ul>{related}</ul></section>",
            slug(CATEGORIES[p.category]), CATEGORIES[p.category], esc(&p.title), p.date, slug(author)
        )
    } else {
        format!(
            "<article class=post><h1 class=entry-title>{}</h1><div class=entry-meta>By <a href=\"/author/{}/\">{author}</a> on \
             <time>{}</time> in <a href=\"/category/{}/\">{}</a></div><div class=entry-content>{body}{extra}</div>\
             <div class=tags>Tags: {tags}</div></article><section class=related><h3>Related posts</h3><ul>{related}</ul></section>",
            esc(&p.title), slug(author), p.date, slug(CATEGORIES[p.category]), CATEGORIES[p.category]
        )
    };
    page(&p.title, &format!("{base}{}", p.path), &main, posts)
}

/// The pages of a listing at `root` (`/`, `/tag/x/`), `PER_PAGE` posts each, paginated.
fn listing(root: &str, heading: &str, items: &[usize], posts: &[Post], base: &str) -> Vec<(String, String)> {
    let pages = items.len().div_ceil(PER_PAGE).max(1);
    let at = |n: usize| if n == 1 { root.to_string() } else { format!("{root}page/{n}/") };
    (1..=pages)
        .map(|n| {
            let list: String = items
                .iter()
                .skip((n - 1) * PER_PAGE)
                .take(PER_PAGE)
                .map(|&i| {
                    let p = &posts[i];
                    let excerpt: String = p.paras[0].split_whitespace().take(30).collect::<Vec<_>>().join(" ");
                    format!("<article class=teaser><h2><a href=\"{0}\">{1}</a></h2><p class=meta>{2}</p><p>{3} …</p><a class=more href=\"{0}\">Read more</a></article>", p.path, esc(&p.title), p.date, esc(&excerpt))
                })
                .collect();
            let nav: String = (1..=pages).map(|k| format!("<a href=\"{}\">{k}</a> ", at(k))).collect();
            let main = format!("<h1 class=archive-title>{}</h1>{list}<nav class=pagination>{nav}</nav>", esc(heading));
            (at(n), page(heading, &format!("{base}{}", at(n)), &main, posts))
        })
        .collect()
}

struct Built {
    site: Site,
    posts: Vec<Post>,
    listings: HashSet<String>,
}

fn build(base: &str) -> Built {
    let posts = posts();
    let html = "text/html; charset=utf-8";
    let mut site = Site::new();
    let mut listings = HashSet::new();
    for i in 0..posts.len() {
        site = site.at(&posts[i].path, Reply::ok(html, post_page(i, &posts, base)).etag(&format!("p{i}")));
    }
    let mut lists: Vec<(String, String, Vec<usize>)> = vec![("/".into(), "Latest".into(), (0..posts.len()).collect())];
    for (c, name) in CATEGORIES.iter().enumerate() {
        lists.push((format!("/category/{}/", slug(name)), format!("Category: {name}"), (0..posts.len()).filter(|&i| posts[i].category == c).collect()));
    }
    for t in 0..15 {
        lists.push((format!("/tag/{}/", tag_name(t)), format!("Tag: {}", tag_name(t)), (0..posts.len()).filter(|&i| posts[i].tags.contains(&t)).collect()));
    }
    for (a, name) in AUTHORS.iter().enumerate() {
        lists.push((format!("/author/{}/", slug(name)), format!("Posts by {name}"), (0..posts.len()).filter(|&i| posts[i].author == a).collect()));
    }
    for (root, heading, items) in &lists {
        for (path, body) in listing(root, heading, items, &posts, base) {
            site = site.at(&path, Reply::ok(html, body).etag(&format!("l{path}")));
            listings.insert(format!("{base}{path}"));
        }
    }
    let about = "<article class=page><h1>About Riverside Notes</h1><p>Riverside Notes is written by volunteers who live along the river and care about what happens in the town council, the schools and the markets every week.</p></article>";
    site = site.at("/about/", Reply::ok(html, page("About", &format!("{base}/about/"), about, &posts)).etag("about"));
    let contact = "<article class=page><h1>Contact</h1><p>Write to the editors at the old mill on Water Lane, or leave a note in the box by the ferry landing; we read every letter.</p></article>";
    site = site.at("/contact/", Reply::ok(html, page("Contact", &format!("{base}/contact/"), contact, &posts)).etag("contact"));
    site = site.at("/private/staff-rota/", Reply::ok(html, page("Staff rota", "", "<p>Not for robots.</p>", &posts)));
    site = site.at("/old-news/", Reply::redirect("/"));
    for i in (0..posts.len()).step_by(20) {
        site = site.at(&format!("/files/report-{i}.pdf"), Reply::ok("application/pdf", b"%PDF-1.4 not a page".to_vec()));
    }
    let robots = format!("User-agent: *\nDisallow: /private/\n\nSitemap: {base}/sitemap.xml\n");
    site = site.at("/robots.txt", Reply::ok("text/plain", robots));
    // The sitemap lists the news only; the feed the ten newest posts.
    let urls: String = posts.iter().filter(|p| p.news).map(|p| format!("<url><loc>{base}{}</loc><lastmod>{}</lastmod></url>", p.path, p.date)).collect();
    site = site.at("/sitemap.xml", Reply::ok("application/xml", format!("<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">{urls}</urlset>")).etag("sm"));
    let items: String = posts.iter().take(10).map(|p| format!("<item><title>{}</title><link>{base}{}</link><description>{}</description></item>", esc(&p.title), p.path, esc(&p.paras[0]))).collect();
    site = site.at("/feed/", Reply::ok("application/rss+xml", format!("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Riverside Notes</title><link>{base}/</link>{items}</channel></rss>")).etag("feed"));
    Built { site, posts, listings }
}

/// The JSON Lines articles in `dir/articles.jsonl`, by URL (each URL's count checked).
fn articles(dir: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("articles.jsonl")).unwrap_or_default();
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("a whole JSON line: {e}: {l:.200}"))).collect()
}

fn url_of(a: &serde_json::Value) -> String {
    a["source"].as_str().or(a["url"].as_str()).unwrap_or_default().to_string()
}

fn page_requests(server: &Server) -> Vec<common::Seen> {
    server.seen.lock().unwrap().iter().filter(|s| !s.path.starts_with("/robots") && !s.path.starts_with("/sitemap") && !s.path.starts_with("/feed")).cloned().collect()
}

#[test]
fn a_site_is_crawled_whole_politely_and_its_articles_written_once_after_kills() {
    let (listener, base) = common::listener();
    let Built { site, posts, listings } = build(&base);
    let server = site.serve_on(listener, 20_000);
    let tmp = tempfile::tempdir().unwrap();
    let (store, cache, out) = (tmp.path().join("store"), tmp.path().join("cache"), tmp.path().join("out"));
    let delay_ms = 10u64;
    let o = forest(&store, &["crawl", &format!("{base}/"), "--out-dir", p(&out), "--cache", p(&cache), "--warc", "--delay", &delay_ms.to_string(), "--summary", p(&tmp.path().join("summary.json"))]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    assert!(err.contains("learned the site's templates"), "{err}");

    // Articles: nearly all the posts, each once; no listing; scored against their text.
    let written = articles(&out);
    let urls: Vec<String> = written.iter().map(url_of).collect();
    let unique: HashSet<&String> = urls.iter().collect();
    assert_eq!(unique.len(), urls.len(), "an article written twice");
    let post_urls: HashMap<String, usize> = posts.iter().enumerate().map(|(i, p)| (format!("{base}{}", p.path), i)).collect();
    let found = urls.iter().filter(|u| post_urls.contains_key(*u)).count();
    assert!(found * 100 >= 95 * posts.len(), "{found} of {} posts written\n{err}", posts.len());
    let listed: Vec<&String> = urls.iter().filter(|u| listings.contains(*u)).collect();
    assert!(listed.is_empty(), "listing pages written as articles: {listed:?}");
    let mut f1 = Vec::new();
    for a in &written {
        let Some(&i) = post_urls.get(&url_of(a)) else { continue };
        let gold = format!("{}\n\n{}", posts[i].title, posts[i].paras.join("\n\n"));
        f1.push(forest::bench::score::score(&gold, a["text"].as_str().unwrap_or_default()).f1);
        assert_ne!(a["rule"], "single-page", "{}", url_of(a));
    }
    let mean = f1.iter().sum::<f64>() / f1.len() as f64;
    assert!(mean >= 0.95, "site-level F1 {mean:.3}");
    eprintln!("{found} of {} posts written, site-level F1 {mean:.4}; {}", posts.len(), err.lines().last().unwrap_or_default());

    // Politeness: robots.txt's section, PDFs and images never fetched; the delay kept.
    let hits = server.hits.lock().unwrap().clone();
    assert!(hits.keys().all(|p| !p.starts_with("/private/") && !p.starts_with("/files/") && !p.starts_with("/img/")), "{hits:?}");
    assert_eq!(hits.get("/old-news/"), Some(&1), "the redirect is followed once");
    // The delay holds between requests as they leave; as the server sees them each may be late by
    // a few milliseconds on a busy machine, so it is checked over runs of ten intervals (a
    // redirect's target, asked at once as part of its fetch, counted in).
    let mut at: Vec<Instant> = server.seen.lock().unwrap().iter().map(|s| s.at).collect();
    at.sort();
    let span = at.windows(11).map(|w| w[10] - w[0]).min().unwrap();
    assert!(span >= Duration::from_millis(7 * delay_ms), "ten intervals in {span:?}");
    let summary: serde_json::Value = serde_json::from_slice(&std::fs::read(tmp.path().join("summary.json")).unwrap()).unwrap();
    assert!(summary["skipped"]["listing"].as_u64().unwrap() >= listings.len() as u64 - 2, "{summary}");
    assert!(summary["skipped"]["disallowed"].as_u64() == Some(1), "{summary}");
    // Every response is in the WARC file, once.
    let mut stats = forest::warc::Stats::default();
    let mut warc_urls = Vec::new();
    forest::warc::pages(&out.join("responses-1.warc.gz"), Default::default(), &mut stats, |u, _| warc_urls.push(u.to_string())).unwrap();
    assert!(warc_urls.len() >= posts.len() + listings.len(), "{} records", warc_urls.len());
    assert_eq!(warc_urls.iter().collect::<HashSet<_>>().len(), warc_urls.len());

    // A re-run through the cache sends only revalidations, and writes nothing new.
    let before = page_requests(&server).len();
    let o = forest(&store, &["crawl", &format!("{base}/"), "--out-dir", p(&out), "--cache", p(&cache), "--warc"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let again = &page_requests(&server)[before..];
    assert!(!again.is_empty() && again.iter().all(|s| s.header("if-none-match").is_some() && (s.status == 304 || (300..400).contains(&s.status))), "{:?}", again.iter().find(|s| s.status != 304));
    assert_eq!(articles(&out).len(), written.len());

    // Without a cache, the pages' bytes wait in a spill folder until they are read again: the
    // same articles, and the folder is gone when the crawl ends.
    let spill = tmp.path().join("tmpdir");
    std::fs::create_dir(&spill).unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_forest"))
        .args(["crawl", &format!("{base}/"), "--no-cache", "--quiet"])
        .env("FOREST_STORE", tmp.path().join("store-no-cache"))
        .env("TMPDIR", &spill)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let streamed: HashSet<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| url_of(&serde_json::from_str(l).unwrap()))
        .collect();
    assert_eq!(streamed, unique.iter().map(|u| u.to_string()).collect::<HashSet<_>>());
    assert_eq!(std::fs::read_dir(&spill).unwrap().count(), 0, "the spill folder is left behind");

    // Killed at any moment, then run again: every article once, the same ones.
    for kill_after in [KillAt::Requests(60), KillAt::Articles, KillAt::Requests(300)] {
        let out2 = tmp.path().join(format!("out-{kill_after:?}"));
        let cache2 = tmp.path().join(format!("cache-{kill_after:?}"));
        let store2 = tmp.path().join(format!("store-{kill_after:?}"));
        let start = server.seen.lock().unwrap().len();
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_forest"))
            .args(["crawl", &format!("{base}/"), "--out-dir", p(&out2), "--cache", p(&cache2), "--quiet"])
            .env("FOREST_STORE", &store2)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let reached = match kill_after {
                KillAt::Requests(n) => server.seen.lock().unwrap().len() >= start + n,
                KillAt::Articles => std::fs::metadata(out2.join("articles.jsonl")).is_ok_and(|m| m.len() > 0),
            };
            if reached || Instant::now() > deadline || child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = child.kill();
        let _ = child.wait();
        let o = forest(&store2, &["crawl", &format!("{base}/"), "--out-dir", p(&out2), "--cache", p(&cache2)]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let urls2: Vec<String> = articles(&out2).iter().map(url_of).collect();
        let unique2: HashSet<&String> = urls2.iter().collect();
        assert_eq!(unique2.len(), urls2.len(), "{kill_after:?}: an article written twice");
        assert_eq!(unique2, unique, "{kill_after:?}: not the same articles");
    }
    server.stop();
}

#[derive(Debug, Clone, Copy)]
enum KillAt {
    /// Once the server has seen this many requests of the run (fetching).
    Requests(usize),
    /// Once the first article is written (extracting).
    Articles,
}
