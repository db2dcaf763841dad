//! The fuzz targets' bodies, one function per parser of untrusted input, as plain functions of
//! the input bytes: the `cargo fuzz` binaries in `fuzz_targets/` call them, and the stable test
//! `tests/fuzz_corpus.rs` of the main crate includes this file (`#[path]`) to replay the kept
//! corpora and regressions through them. Hence only dependencies the main crate also has
//! (`forest`, `flate2`, `sxd_document`), and nothing from `libfuzzer-sys` here.
//!
//! Each function must not panic on any input, and asserts the invariants that are cheap to
//! check (the cleaned XML is XML, a site config's text form reads back to the same config, the
//! compiled XPath subset selects what sxd-xpath selects…).

use forest::extract::{Extraction, Extractor, Rule};
use forest::fetch::Location;
use forest::xpath::CompiledPath;
use forest::{Applier, Page, Wrapper};
use std::io::{BufRead, BufReader, Cursor, Read};
use std::sync::OnceLock;

/// The page every wrapper and site config is applied to: a small article page with a menu,
/// a headline, paragraphs, a list, a table and a comment section.
pub const FIXED_PAGE: &str = "<html lang=en><head><title>Harbor news</title>\
<meta property='og:title' content='Bridge closes'><link rel=canonical href='https://news.example/bridge'></head>\
<body><nav class='menu'><a href='/'>home</a> <a href='/sport'>sport</a></nav>\
<div id='main' class='story main'><h1>Elm Street Bridge to Close</h1><p class='byline'>By Ann Lee</p>\
<p>The bridge closes for repairs on <time datetime='2024-05-01'>May 1</time>.</p>\
<p>Traffic moves to <b>Oak Street</b> for <em>six weeks</em>.</p><ul><li>one</li><li>two <a href='x'>link</a></li></ul>\
<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table><img src='/p.jpg' alt='bridge'></div>\
<div class='share'>share this</div><div id='comments'><p>first!</p></div><footer>(c) harbor</footer></body></html>";

/// The base URL links are resolved against when rendering.
const BASE: &str = "https://news.example/2024/bridge.html";

/// The fixed page, cleaned once.
fn fixed_page() -> &'static Page {
    static PAGE: OnceLock<Page> = OnceLock::new();
    PAGE.get_or_init(|| Page::from_html("fixed", FIXED_PAGE).unwrap())
}

/// A real wrapper, induced once from two tiny pages of one template: the fuzzed XPaths replace
/// its `xpath`, so everything else (patterns, fallbacks) is what induction writes.
fn demo_wrapper() -> &'static Wrapper {
    static WRAPPER: OnceLock<Wrapper> = OnceLock::new();
    WRAPPER.get_or_init(|| {
        let page = |i: u32, title: &str, words: &str| {
            Page::from_html(
                format!("p{i}"),
                &format!("<body><nav>home news sport</nav><div class='story main'><h1>{title}</h1><p>{words}</p></div></body>"),
            ).unwrap()
        };
        let pages = [
            page(1, "KitKat for Android", "Android phones get KitKat, the new version, this week."),
            page(2, "Apple at auction", "An old Apple computer sold at auction for a record price."),
        ];
        forest::Wrapper::induce("fuzz", &pages, &forest::Config::default()).expect("the demo pages give a wrapper").wrapper
    })
}

/// XML that sxd-document (the parser sxd-xpath and site configs evaluate on) must accept.
fn assert_xml(xml: &str, what: &str) {
    if let Err(e) = sxd_document::parser::parse(xml) {
        panic!("{what} is not XML: {e:?}\n{xml}");
    }
}

/// Clean decoded text and check everything downstream of the tree: the cleaned XML parses,
/// metadata reads, the body renders as Markdown, HTML and XML (the XML parses too).
pub fn check_page(html: &str) {
    let doc = forest::clean::page(html);
    assert_xml(&doc.to_xml(), "Doc::to_xml");
    // What an article reads of the page's metadata: its dates as ISO 8601, the site's name
    // against the host, what the page shows, and where it shows its byline and date.
    let meta = forest::metadata::read(&doc);
    for d in [&meta.published, &meta.modified].into_iter().flatten() {
        let _ = forest::metadata::normalized_date(d);
    }
    if let Some(site) = &meta.site_name {
        let _ = forest::metadata::site_name(site, Some("news.example"));
    }
    let _ = forest::metadata::site_from_title(&doc.title, meta.headline.as_deref().unwrap_or(""), Some("news.example"));
    let (byline, day) = forest::metadata::shows::known(&doc, Some(BASE));
    if let Some(b) = byline {
        let _ = forest::metadata::shows::byline_holders(&doc, &b);
    }
    if let Some(d) = day {
        let _ = forest::metadata::shows::date_holders(&doc, &d);
    }
    let _ = forest::host::declared(&doc);
    let x = Extraction::new(vec![doc.body], doc.text(doc.body), Rule::Exact);
    let base = url::Url::parse(BASE).ok();
    let md = forest::render::markdown(&doc, &x, base.as_ref());
    assert!(md.is_empty() || md.ends_with('\n'), "Markdown does not end with a new line: {md:?}");
    let _ = forest::render::html(&doc, &x, base.as_ref());
    assert_xml(&forest::render::xml(&doc, &x), "render::xml");
    // Text-only extractions (single-page methods) render from the text.
    let t = Extraction::new(Vec::new(), x.text, Rule::SinglePage);
    let _ = forest::render::markdown(&doc, &t, None);
    assert_xml(&forest::render::xml(&doc, &t), "render::xml of text");
}

/// Target `clean`: raw page bytes, decoded as fetch decodes them (BOM, `<meta charset>`, else
/// a guess), then [`check_page`]. A first line `content-type: …` is passed as the header.
pub fn clean(data: &[u8]) {
    let (content_type, body) = match data.strip_prefix(b"content-type: ") {
        Some(rest) => match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (std::str::from_utf8(&rest[..i]).ok(), &rest[i + 1..]),
            None => (None, data),
        },
        None => (None, data),
    };
    let text = forest::fetch::decode(body, content_type);
    check_page(&text);
}

/// Target `budget`: page bytes (as UTF-8, lossily) built into a tree under a small element
/// budget. Within the budget the page is the page as built without one; over it, the error
/// says the element budget, and no tree is kept. Parser bombs (formatting elements rebuilt on
/// every tag, stray end tags, empty comments, `<svg><title>`) are in its corpus.
pub fn budget(data: &[u8]) {
    const MAX: usize = 300;
    let html = String::from_utf8_lossy(data);
    let small = forest::budget::Budget { max_elements: MAX, ..forest::budget::Budget::default() };
    match forest::clean::page_within(&html, &small) {
        Ok(doc) => {
            assert!(doc.element_count() <= MAX, "{} elements kept under a budget of {MAX}", doc.element_count());
            let free = forest::clean::page(&html);
            assert_eq!(doc.to_xml(), free.to_xml(), "a page within the budget differs from the page built without one");
        }
        Err(forest::Error::OverBudget { limit, .. }) => {
            assert_eq!(limit, forest::budget::Limit::Elements, "only the element budget can run out here");
        }
        Err(e) => panic!("a page is built or over its budget, not {e}"),
    }
}

/// Target `feed`: RSS, Atom or JSON Feed bytes, found at a URL and at a file path; every item
/// has a location.
pub fn feed(data: &[u8]) {
    let at = Location::parse("https://news.example/feed.xml");
    if let Ok(sample) = forest::feed::parse(data, &at) {
        for item in &sample.items {
            let _ = (item.page.to_string(), item.page.stem(), &item.title, &item.description);
        }
        let _ = forest::feed::parse(data, &Location::parse("feeds/fuzz/feed.xml"));
    }
}

/// Target `wrapper`: input starting with `{` is a wrapper file (applied to the fixed page when it
/// reads); anything else is an XPath put in the demo wrapper and applied to the fixed page.
/// When the compiled subset takes the XPath, it must select what sxd-xpath selects; when the
/// metered form compiles, it must give what the XPath as written gives under sxd-xpath.
pub fn wrapper(data: &[u8]) {
    let page = fixed_page();
    if data.first() == Some(&b'{') {
        if let Ok(w) = Wrapper::from_json(data) {
            let _ = w.to_json();
            if let Ok(applier) = Applier::new(w) {
                let _ = applier.extract(page);
                let _ = applier.shown(&page.doc);
            }
        }
        return;
    }
    let Ok(xpath) = std::str::from_utf8(data) else { return };
    metered_as_written(xpath);
    // The XPath as the article's and as where the site shows its byline and date.
    let shows = forest::wrapper::Shows { byline: Some(xpath.to_string()), date: Some(xpath.to_string()) };
    let w = Wrapper { xpath: xpath.to_string(), shows, ..demo_wrapper().clone() };
    let Ok(applier) = Applier::new(w) else { return };
    let _ = applier.shown(&page.doc);
    if let Ok(x) = applier.extract(page) {
        let _ = forest::render::markdown(&page.doc, &x, None);
    }
    if let Some(compiled) = CompiledPath::parse(xpath) {
        let mut ours = compiled.select(&page.doc);
        ours.sort_unstable();
        let mut outer: Vec<u32> = Vec::new();
        for n in ours {
            if outer.last().is_none_or(|&l| !page.doc.contains(l, n)) {
                outer.push(n);
            }
        }
        let oracle = applier.select_with_sxd(&page.doc).expect("a compiled XPath selects nodes under sxd-xpath too");
        assert_eq!(outer, oracle, "compiled and sxd-xpath differ on {xpath:?}");
    }
}

/// The metered XPath ([`forest::xpath::Program`]) gives on the fixed page what the
/// XPath as written gives, when sxd-xpath reads the written form and the metered run stays
/// within 200,000 visits (which bounds the unmetered run too: both visit the same nodes).
fn metered_as_written(xpath: &str) {
    use forest::xpath::{self, EvalError, Meter, Program};
    use sxd_xpath::Value;
    thread_local! {
        static XML: sxd_document::Package =
            sxd_document::parser::parse(&fixed_page().doc.to_xml()).expect("the fixed page's XML parses");
    }
    let Ok(program) = Program::compile(xpath) else { return };
    let Ok(Some(written)) = sxd_xpath::Factory::new().build(xpath) else { return };
    XML.with(|package| {
        let doc = package.as_document();
        let meter = Meter::new(200_000, None);
        let metered = program.evaluate(&xpath::context(&meter), doc.root());
        if matches!(metered, Err(EvalError::Budget(_))) {
            return;
        }
        let plain = written.evaluate(&sxd_xpath::Context::new(), doc.root());
        let same = match (&metered, &plain) {
            (Ok(Value::Nodeset(a)), Ok(Value::Nodeset(b))) => a.document_order() == b.document_order(),
            (Ok(Value::Number(a)), Ok(Value::Number(b))) => a == b || (a.is_nan() && b.is_nan()),
            (Ok(a), Ok(b)) => a == b,
            (Err(_), Err(_)) => true,
            _ => false,
        };
        assert!(same, "metered {:?} and written {xpath:?} differ: {metered:?} vs {plain:?}", program.metered());
    });
}

/// Target `site_config`: a site config's text; when it reads, its text form reads back to the
/// same config, and it is applied to the fixed page.
pub fn site_config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok((cfg, _warnings)) = forest::ftr::SiteConfig::parse(text, "fuzz") else { return };
    let written = cfg.to_string();
    match forest::ftr::SiteConfig::parse(&written, "fuzz-written") {
        Ok((again, _)) => assert_eq!(again, cfg, "written form reads back differently:\n{written}"),
        Err(e) => panic!("written form does not read back: {e}\n{written}"),
    }
    if let Ok(applier) = forest::ftr::ConfigApplier::new(cfg) {
        let page = fixed_page();
        let _ = applier.extract(page);
        let _ = applier.date(&page.doc);
        let _ = applier.author(&page.doc);
    }
}

/// Target `warc`: a WARC stream (gzip members when it starts with the gzip magic), read record
/// by record (each HTTP response parsed), then read again for its pages, each decoded and
/// cleaned.
pub fn warc(data: &[u8]) {
    let open = || -> Box<dyn BufRead> {
        if data.starts_with(&[0x1f, 0x8b]) {
            // Bounded: a gzip bomb must not make the target run out of memory.
            Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(data).take(1 << 22)))
        } else {
            Box::new(Cursor::new(data))
        }
    };
    let limits = forest::warc::Limits { max_record_bytes: 1 << 20, max_header_bytes: 16 * 1024 };
    let mut reader = forest::warc::Reader::with_limits(open(), limits);
    // Every record consumes at least its version line: more items than bytes means a loop.
    let mut items = 0usize;
    while let Some(item) = reader.next_record() {
        items += 1;
        assert!(items <= data.len() + 1, "next_record does not advance (offset {})", reader.offset());
        if let Ok(record) = item {
            let _ = record.header("WARC-Target-URI");
            if let Ok(resp) = record.http_response(limits.max_record_bytes) {
                let _ = resp.header("content-type");
            }
        }
    }
    let mut reader = forest::warc::Reader::with_limits(open(), limits);
    let mut stats = forest::warc::Stats::default();
    let mut pages = 0usize;
    while let Some((_url, fetched)) = reader.next_page(&mut stats) {
        pages += 1;
        assert!(pages <= data.len() + 1, "next_page does not advance");
        let _ = forest::clean::page(&fetched.text());
    }
    let _ = stats.to_string();
}
