//! One host, several templates: induction groups the sample pages by layout and learns a
//! pattern per group; apply sends each page to the template it fits, and a page that fits none
//! to the single-page extractor.

mod common;

use common::pages::{prose, WORDS};
use forest::page::Page;
use forest::rules::Rules;
use forest::{Config, Rule, Wrapper};

const HEAD: &str = "<header class='masthead'><a href='/'>Home</a><a href='/shop'>Shop</a><a href='/news'>News</a></header>";
const FOOT: &str = "<footer class='site-footer'><p>Copyright the Riverside shop</p><a href='/about'>About</a></footer>";

fn article(i: usize) -> Page {
    let html = format!(
        "<html><body>{HEAD}<main class='news'><article class='story'><h1>Story {i} {}</h1><p class='byline'>By a reporter</p>{}</article>\
         <aside class='related'><h3>Related</h3><ul><li><a href='/a'>Another story</a></li></ul></aside></main>{FOOT}</body></html>",
        WORDS[i % WORDS.len()],
        prose(i, 8)
    );
    Page::from_html(format!("https://shop.example/news/story-{i}"), &html).unwrap()
}

fn product(i: usize) -> Page {
    let html = format!(
        "<html><body>{HEAD}<div class='product-page'><div class='gallery'><img src='x.jpg'></div><section class='details'>\
         <h2 class='title'>Product {i} {}</h2><div class='description'>{}</div><table class='specs'><tr><th>Weight</th><td>{i} kg</td></tr></table>\
         <form class='buy'><button>Add to cart</button></form></section></div>{FOOT}</body></html>",
        WORDS[(i + 5) % WORDS.len()],
        prose(i + 40, 5)
    );
    Page::from_html(format!("https://shop.example/products/item-{i}"), &html).unwrap()
}

fn other() -> Page {
    let html = format!("<html><body><div id='legacy'><table><tr><td><font>{}</font></td></tr></table></div></body></html>", prose(99, 6));
    Page::from_html("https://shop.example/old/page.html", &html).unwrap()
}

fn site() -> Wrapper {
    let pages = vec![article(1), product(1), article(2), product(2), article(3), product(3)];
    Wrapper::induce("shop", &pages, &Config::default()).unwrap().wrapper
}

#[test]
fn a_pattern_per_template_and_each_page_gets_its_own() {
    let w = site();
    assert_eq!(w.others.len(), 1, "two templates: {:#?}", w.templates().iter().map(|t| &t.xpath).collect::<Vec<_>>());
    let xpaths: Vec<String> = w.templates().iter().map(|t| t.xpath.clone()).collect();
    let story = xpaths.iter().position(|x| x.contains("'story'")).expect("a template selects the story");
    let details = xpaths.iter().position(|x| x.contains("'details'") || x.contains("'description'")).expect("a template selects the product");
    assert_ne!(story, details);
    assert!(w.templates().iter().all(|t| t.layout.is_some()));

    let rules = Rules::wrapper(w.clone()).unwrap();
    let mut resolver = rules.resolver().unwrap();
    let a = resolver.article(article(7)).unwrap();
    assert_eq!(a.xpath, xpaths[story]);
    assert!(a.text.contains("Story 7") && !a.text.contains("Add to cart"), "{}", a.text);
    let p = resolver.article(product(7)).unwrap();
    assert_eq!(p.xpath, xpaths[details]);
    assert!(p.text.contains("was rebuilt") && !p.text.contains("Another story"), "{}", p.text);
    // A page of neither layout: the single-page extractor, said as such.
    let o = resolver.article(other()).unwrap();
    assert_eq!(o.rule, Rule::SinglePageFallback);
    assert!(o.text.contains("was rebuilt"));

    // The templates survive the wrapper file.
    let again = Wrapper::from_json(w.to_json().unwrap().as_bytes()).unwrap();
    assert_eq!(again, w);
}

#[test]
fn one_template_or_the_mechanism_off_gives_one_pattern_for_every_page() {
    let pages = vec![article(1), article(2), article(3)];
    let w = Wrapper::induce("news", &pages, &Config::default()).unwrap().wrapper;
    assert!(w.others.is_empty() && w.layout.is_some());
    // One template applies to every page, whatever its layout.
    let rules = Rules::wrapper(w).unwrap();
    let o = rules.resolver().unwrap().article(other()).unwrap();
    assert_ne!(o.rule, Rule::SinglePageFallback);
    let mixed = vec![article(1), product(1), article(2), product(2)];
    let off = Wrapper::induce("shop", &mixed, &Config { templates: false, ..Config::default() }).unwrap().wrapper;
    assert!(off.others.is_empty() && off.layout.is_none());
}

#[test]
fn copies_of_a_page_count_once() {
    // The same page under two URLs must not make its text look like the site's template.
    let mut copy = article(1);
    copy.location = "https://shop.example/news/story-1?utm_source=feed".into();
    let ind = Wrapper::induce("news", &[article(1), copy.clone(), article(2)], &Config::default()).unwrap();
    assert_eq!(ind.wrapper.pages.len(), 2);
    assert!(ind.wrapper.template.iter().all(|l| !l.text.contains("was rebuilt")), "{:?}", ind.wrapper.template);
    let Err(err) = Wrapper::induce("news", &[article(1), copy], &Config::default()) else { panic!("two copies are one page") };
    assert!(err.to_string().contains("copies"), "{err}");
}

/// The site's news pages after a redesign: another layout.
fn redesigned(i: usize) -> Page {
    let html = format!(
        "<html><body><div class='top-bar'><nav><ul><li><a href='/'>Home</a></li></ul></nav></div><div class='layout'><div class='col-main'>\
         <div class='post'><h1 class='post-title'>Story {i} {}</h1><div class='post-text'>{}</div></div></div><div class='col-side'><p>Ads</p></div></div></body></html>",
        WORDS[(i + 3) % WORDS.len()],
        prose(i + 20, 8)
    );
    Page::from_html(format!("https://shop.example/news/story-{i}"), &html).unwrap()
}

#[test]
fn the_store_keeps_the_rules_of_a_design_the_new_pages_do_not_show() {
    let tmp = tempfile::tempdir().unwrap();
    let store = forest::store::Store::new(tmp.path());
    let old = Wrapper::induce("news", &[article(1), article(2), article(3)], &Config::default()).unwrap().wrapper;
    let new = Wrapper::induce("news", &[redesigned(1), redesigned(2), redesigned(3)], &Config::default()).unwrap().wrapper;
    assert_eq!(store.add("shop.example", &old).unwrap().1, 0);
    let (path, kept) = store.add("shop.example", &new).unwrap();
    assert_eq!(kept, 1, "the old design is kept");
    let stored = Wrapper::load(&path).unwrap();
    assert_eq!(stored.xpath, new.xpath, "the newest design comes first");
    let rules = Rules::Store(store.clone(), forest::rules::Missing::Error);
    let mut resolver = rules.resolver().unwrap();
    assert_eq!(resolver.article(article(9)).unwrap().xpath, old.xpath);
    assert_eq!(resolver.article(redesigned(9)).unwrap().xpath, new.xpath);
    // The same design induced again replaces its template; nothing piles up.
    let (_, kept) = store.add("shop.example", &new).unwrap();
    assert_eq!(kept, 1);
    assert_eq!(Wrapper::load(&path).unwrap().others.len(), 1);
}

/// A page whose `<title>` is only the site's name: the wrapper finds no headline by the title
/// before its block, so the kept article takes the single-page extractor's (the nearest `h1`
/// before the article), which stands before the block and is no template line.
#[test]
fn a_kept_article_without_a_headline_takes_the_pages_headline() {
    let page = |i: usize| {
        let html = format!(
            "<html><head><title>Riverside shop</title></head><body>{HEAD}<div class='top'><h1>Story {i} of the {} market</h1></div>\
             <div class='wrap'><div class='copy'>{}</div></div>{FOOT}</body></html>",
            WORDS[(i * 7) % WORDS.len()],
            prose(i + 20, 8)
        );
        Page::from_html(format!("https://shop.example/news/item-{i}"), &html).unwrap()
    };
    let pages: Vec<Page> = (1..=4).map(page).collect();
    let w = Wrapper::induce("shop", &pages, &Config::default()).unwrap().wrapper;
    assert!(w.xpath.contains("copy") || w.xpath.contains("wrap"), "{}", w.xpath);
    let rules = Rules::wrapper(w).unwrap();
    let a = rules.resolver().unwrap().article(page(6)).unwrap();
    let first = a.text.lines().next().unwrap_or_default();
    assert!(first.starts_with("Story 6 of the"), "{:?}: {}", a.rule, a.text);
    assert_eq!(a.rule, Rule::Exact, "the wrapper's article is kept");
}
