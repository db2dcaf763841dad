//! The library's one path from page to article: bytes + URL → `Page` → the rules of its site →
//! `Article`, with a wrapper, a site config, the store, or the single-page extractor; and the
//! rule that tells "no rules for this site" from "the site's rules matched nothing here".

mod common;

use common::cli::{forest, ok, p, root};
use forest::page::Page;
use forest::rules::{Missing, Rules};
use forest::{Error, Rule};

const URL: &str = "https://riverside-gazette.example/2024/03/bridge-repair.html";

fn demo_bytes() -> Vec<u8> {
    std::fs::read(root().join("feeds/demo-news/bridge-repair.html")).expect("demo page")
}

fn demo_wrapper() -> forest::Wrapper {
    let sample = forest::feed::read(&root().join("feeds/demo-news/feed.xml").to_string_lossy()).expect("demo feed");
    let (pages, failed) = forest::page::load(&sample.items);
    assert!(failed.is_empty());
    forest::Wrapper::induce(&sample.site, &pages, &forest::Config::default()).expect("induce").wrapper
}

#[test]
fn bytes_and_a_url_become_an_article_with_or_without_a_wrapper() {
    let single = Rules::SinglePage.resolver().unwrap().article(Page::from_bytes(&demo_bytes(), URL).unwrap()).unwrap();
    assert_eq!(single.rule, Rule::SinglePage);
    assert!((0.5..1.0).contains(&single.confidence), "a clean article no second extractor checked: confident, not certain: {}", single.confidence);
    assert_eq!(single.url.as_deref(), Some(URL));
    assert_eq!(single.host.as_deref(), Some("riverside-gazette.example"));
    assert!(single.text.contains("Elm Street"), "{}", single.text);

    let rules = Rules::wrapper(demo_wrapper()).unwrap();
    let article = rules.resolver().unwrap().article(Page::from_bytes(&demo_bytes(), URL).unwrap()).unwrap();
    assert_eq!(article.rule, Rule::Exact);
    assert!(article.confidence > 0.5, "the two extractors agree on the demo page: {}", article.confidence);
    assert_eq!(article.title, "Elm Street Bridge to Close for Six Weeks of Repairs");
    assert!(!article.xpath.is_empty());
    // The body without the headline, for users who keep the title as a field of its own.
    let body = article.body();
    assert!(!body.contains("Six Weeks of Repairs") && body.contains("The Elm Street Bridge, the busiest"), "{body}");
    assert!(article.text.ends_with(body.trim_end()));
    let single_body = single.body();
    assert!(!single_body.starts_with(&single.title) && single.text.contains(single_body.trim()), "{single_body}");
    // Every format comes from the one article, with the page's structure.
    assert!(article.markdown().starts_with("# Elm Street Bridge"), "{}", article.markdown());
    assert!(article.html().contains("<p>"));
    let json: serde_json::Value = serde_json::from_str(&article.to_json(false)).unwrap();
    assert_eq!(json["rule"], "exact");
    assert_eq!(json["url"], URL);
    assert_eq!(json["text"], article.text.as_str());
}

#[test]
fn the_store_resolves_by_host_and_says_when_it_has_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let store = forest::store::Store::new(tmp.path());
    let page = || Page::from_bytes(&demo_bytes(), URL).unwrap();

    // Nothing stored: an error naming the host, or the single-page extractor, as asked.
    let strict = Rules::Store(store.clone(), Missing::Error);
    match strict.resolver().unwrap().article(page()) {
        Err(Error::NoRules { host: Some(h), .. }) => assert_eq!(h, "riverside-gazette.example"),
        other => panic!("expected NoRules, got {other:?}"),
    }
    let lenient = Rules::Store(store.clone(), Missing::SinglePage);
    assert_eq!(lenient.resolver().unwrap().article(page()).unwrap().rule, Rule::SinglePage);

    // Stored under the parent domain: found for a page of a subdomain too.
    store.save("riverside-gazette.example", &demo_wrapper()).unwrap();
    let sub = Page::from_bytes(&demo_bytes(), "https://www.news.riverside-gazette.example/a.html").unwrap();
    assert_eq!(strict.resolver().unwrap().article(sub).unwrap().rule, Rule::Exact);
}

#[test]
fn a_wrapper_that_matches_nothing_is_not_reported_as_a_missing_wrapper() {
    // A wrapper of the demo site applied to a page of another template: its rules match
    // nothing, the single-page extractor takes over, and the message says which happened.
    let tmp = tempfile::tempdir().unwrap();
    let wrapper = tmp.path().join("demo.json");
    ok(&forest(&tmp.path().join("store"), &["induce", p(&root().join("feeds/demo-news")), "--out", p(&wrapper)]));
    let other = tmp.path().join("other.html");
    let words = "A long paragraph of plain article text about the harbour and its boats. ".repeat(12);
    std::fs::write(&other, format!("<html><body><section><p>{words}</p><p>{words}</p></section></body></html>")).unwrap();
    let o = forest(&tmp.path().join("store"), &["apply", "--wrapper", p(&wrapper), p(&other), "--format", "json"]);
    ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("matched nothing"), "{err}");
    assert!(!err.contains("no wrapper for its site"), "{err}");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(json["rule"] != "exact" && json["rule"] != "single-page", "{json}");
}

#[test]
fn a_wrapper_is_compiled_once_and_shared_by_threads() {
    fn shared<T: Send + Sync>(_: &T) {}
    let rules = Rules::wrapper(demo_wrapper()).unwrap();
    shared(&rules);
    // Resolvers on other threads use the one compiled wrapper, with the same articles.
    let here = rules.resolver().unwrap().article(Page::from_bytes(&demo_bytes(), URL).unwrap()).unwrap();
    let there: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| s.spawn(|| rules.resolver().unwrap().article(Page::from_bytes(&demo_bytes(), URL).unwrap()).unwrap().text))
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    assert!(there.iter().all(|t| *t == here.text));
    // A wrapper whose XPath does not compile is refused when the rules are made.
    let mut bad = demo_wrapper();
    bad.xpath = "//div[".to_string();
    assert!(matches!(Rules::wrapper(bad), Err(forest::Error::XPath { .. })));
}

/// A site page: a story whose byline sits in an element no class names as one (`span.pen`),
/// declaring its author and date in meta tags when `declares`.
fn site_page(i: u32, who: &str, day: &str, declares: bool) -> Page {
    let meta = if declares { format!("<meta name=author content='{who}'><meta name=date content='{day}'>") } else { String::new() };
    let html = format!(
        "<html><head><title>Story {i}</title>{meta}</head><body><nav>Home News Sport</nav><div class=story>\
         <h1>Story {i} of the river town</h1><p class=meta><span class=pen>{who}</span> <span class=stamp>{day}</span></p>\
         <p>The council met on the {i}th to talk about the bridge, the ferry and the long summer of repairs.</p>\
         <p>Residents asked for a second crossing before the works begin, and the mayor promised an answer.</p></div></body></html>"
    );
    Page::from_bytes(html.as_bytes(), &format!("https://river.example/story-{i}")).unwrap()
}

#[test]
fn a_wrapper_reads_the_byline_and_date_where_its_site_shows_them() {
    let pages = [site_page(1, "Ann Lee", "2024-05-01", true), site_page(2, "Bo Chen", "2024-05-02", true), site_page(3, "Cy Diaz", "2024-05-03", true)];
    let wrapper = forest::Wrapper::induce("river", &pages, &forest::Config::default()).expect("induce").wrapper;
    assert!(wrapper.shows.byline.as_deref().is_some_and(|x| x.contains("'pen'")), "{:?}", wrapper.shows);
    // Kept in the wrapper file.
    let back = forest::Wrapper::from_json(wrapper.to_json().unwrap().as_bytes()).unwrap();
    assert_eq!(back.shows, wrapper.shows);
    // A page of the site that declares nothing, and whose markup names no byline.
    let unseen = || site_page(9, "Dee Eng", "2024-06-09", false);
    let article = Rules::wrapper(back).unwrap().resolver().unwrap().article(unseen()).unwrap();
    assert_eq!((article.byline.as_deref(), article.published.as_deref()), (Some("Dee Eng"), Some("2024-06-09")));
    // Alone, the page gives no byline; its date, alone on its line under the headline, it does.
    let single = Rules::SinglePage.resolver().unwrap().article(unseen()).unwrap();
    assert_eq!((single.byline.as_deref(), single.published.as_deref()), (None, Some("2024-06-09")));
}
