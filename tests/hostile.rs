//! The cleaner on hostile HTML: its XML always re-parses, nothing panics or recurses.

use forest::clean;

fn reparses(html: &str) -> String {
    let xml = clean::page(html).to_xml();
    if let Err(e) = sxd_document::parser::parse(&xml) {
        panic!("not XML ({e:?}): {}", &xml[..xml.len().min(500)]);
    }
    xml
}

#[test]
fn odd_attribute_and_element_names() {
    let xml = reparses(
        "<html xmlns:fb='http://ogp.me/ns/fb#' xml:lang=en><body>\
         <div @click='go()' :class=x v-on:click=y #ref=z 1st=2 \"q\"=3 a=1 A=2 a=3>x</div>\
         <fb:like href=a></fb:like><my-widget ng-if='a&&b'>w</my-widget><svg:rect/></body></html>",
    );
    assert!(xml.contains("_click=\"go()\""), "{xml}");
    assert!(xml.contains("v-on_click=\"y\""), "{xml}");
    assert!(xml.contains("xmlns_fb="), "{xml}");
    assert!(xml.contains("<fb_like"), "{xml}");
    assert!(!xml.contains(" xmlns="), "{xml}");
}

#[test]
fn control_characters_and_broken_bytes() {
    let bytes = b"<p title='\x01\x02'>a\x00b\x07c\x1b \xff\xfe \xef\xbf\xbe end</p>";
    let html = forest::fetch::decode(bytes, None);
    let xml = reparses(&html);
    assert!(xml.contains("end"));
}

#[test]
fn a_page_that_carries_its_own_dfs_attributes() {
    let xml = reparses("<div dfs='7' DFS='8'>x</div><p dfs=0>y</p>");
    assert_eq!(xml.matches("dfs=").count(), 5, "{xml}");
}

#[test]
fn many_siblings_and_deep_nesting() {
    let siblings = "<span>x</span>".repeat(200_000);
    reparses(&siblings);
    let deep = format!("{}x{}", "<div><span>".repeat(60_000), "</span></div>".repeat(60_000));
    let doc = clean::page(&deep);
    let deepest = doc.nodes.iter().map(|n| n.level as usize).max().unwrap_or(0);
    assert!(deepest > forest::budget::MAX_DEPTH / 2 && deepest <= forest::budget::MAX_DEPTH + 3, "{deepest}");
    assert_eq!(doc.text_of(&[0]), "x");
    reparses(&deep);
}

#[test]
fn a_twenty_megabyte_page() {
    let mut html = String::from("<html><body>");
    let mut i = 0;
    while html.len() < 20 * 1024 * 1024 {
        html.push_str(&format!("<div class='c{}'><p>paragraph {i} with some words &amp; an <a href='/x'>link</a></p></div>", i % 50));
        i += 1;
    }
    html.push_str("</body></html>");
    let doc = clean::page(&html);
    assert!(doc.element_count() > 3 * 100_000);
    let xml = doc.to_xml();
    assert!(xml.len() > 20 * 1024 * 1024);
    assert!(sxd_document::parser::parse(&xml).is_ok());
}

/// 1M siblings: over the default element budget, a counted skip naming its flag; under a
/// larger budget, every one is kept.
#[test]
fn a_million_siblings() {
    let html = "<span>x</span>".repeat(1_000_000);
    let err = clean::page_within(&html, &forest::budget::Budget::default()).expect_err("over the default budget");
    assert!(matches!(err, forest::Error::OverBudget { limit: forest::budget::Limit::Elements, .. }), "{err}");
    let roomy = forest::budget::Budget { max_elements: 1_100_000, ..forest::budget::Budget::default() };
    let doc = clean::page_within(&html, &roomy).expect("within a larger budget");
    assert_eq!(doc.element_count(), 1_000_003); // html, head, body
}

/// 50 MB of text in one element: one text node, whole, its XML still well-formed.
#[test]
fn fifty_megabytes_of_text_in_one_node() {
    let words = "word and more text ".repeat(50 * 1024 * 1024 / 19 + 1);
    let doc = clean::page(&format!("<p>&lt;{words}&amp;</p>"));
    assert_eq!(doc.element_count(), 4);
    let text = doc.text_of(&[0]);
    assert!(text.len() >= 50 * 1024 * 1024, "{}", text.len());
    assert!(text.starts_with("<word and") && text.ends_with("text &"));
    let xml = doc.to_xml();
    assert!(xml.contains("<p dfs=\"3\">&lt;word and more") && xml.ends_with("text &amp;</p></body></html>"));
}

/// 100k attributes on one tag cost html5ever O(N²) (~18 s); the guard keeps the first 256.
#[test]
fn a_hundred_thousand_attributes_on_one_tag() {
    let attrs: String = (0..100_000).map(|i| format!(" a{i}='{i}'")).collect();
    let doc = clean::page(&format!("<div id=x{attrs}>text</div><p b=1>after</p>"));
    let div = (0..doc.nodes.len() as u32).find_map(|n| doc.element(n).filter(|e| e.name == "div")).expect("the div");
    assert_eq!(div.attrs.len(), clean::MAX_ATTRIBUTES);
    assert_eq!(div.attr("id"), Some("x"));
    assert_eq!(div.attr("a254"), Some("254"));
    assert_eq!(div.attr("a255"), None);
    let p = (0..doc.nodes.len() as u32).find_map(|n| doc.element(n).filter(|e| e.name == "p")).expect("the p");
    assert_eq!(p.attr("b"), Some("1"));
    reparses(&format!("<div{attrs}>x</div>"));
}

/// The time budget stops parsing mid-page: a counted skip naming `--max-seconds`.
#[test]
fn the_time_budget_stops_parsing() {
    let html = "<div class=c><p>words and <b>more</b> words</p></div>".repeat(200_000);
    let tight = forest::budget::Budget { max_time: Some(std::time::Duration::from_millis(1)), ..forest::budget::Budget::default() };
    let err = clean::page_within(&html, &tight).expect_err("out of time");
    assert!(matches!(err, forest::Error::OverBudget { limit: forest::budget::Limit::Time, .. }), "{err}");
}

/// Induction on pages nested hundreds deep without an id or class, with thousands of leaves:
/// the types' paths are cut at MAX_ANCHORED_STEPS (the XPath floats, `//div[1]/…`), candidates
/// stay under MAX_CANDIDATES, and the wrapper still finds the leaves' container.
#[test]
fn induction_on_deep_pages_with_many_leaves() {
    let page = |k: usize| {
        let leaves: String = (0..12_000).map(|i| format!("<p>alpha beta{} gamma{} story{k}</p>", i % 97, i % 13)).collect();
        let html = format!("<html><body><nav>home</nav>{}{leaves}{}</body></html>", "<div>".repeat(400), "</div>".repeat(400));
        forest::Page::from_html(format!("p{k}"), &html).unwrap()
    };
    let pages: Vec<forest::Page> = (0..3).map(page).collect();
    let induction = forest::Wrapper::induce("deep", &pages, &forest::Config::default()).expect("a wrapper");
    let xpath = &induction.wrapper.xpath;
    assert!(xpath.starts_with("//div[1]/div[1]/"), "{xpath}");
    assert_eq!(xpath.matches("/div[1]").count(), forest::patterns::MAX_ANCHORED_STEPS, "{xpath}");
    for r in induction.ranked.iter() {
        assert!(r.pattern.ty.path.as_ref().map_or(0, Vec::len) <= forest::patterns::MAX_ANCHORED_STEPS);
    }
    let applier = forest::Applier::new(induction.wrapper).expect("compiles");
    let text = forest::Extractor::extract(&applier, &pages[1]).expect("extracts").text;
    assert!(text.starts_with("alpha beta0 gamma0 story1") && text.matches("story1").count() == 12_000, "{}", &text[..200.min(text.len())]);
}

#[test]
fn misnested_markup_keeps_every_subtree_consistent() {
    // The adoption agency algorithm reparents nodes; every node must still lie inside its
    // parent's range.
    let doc = clean::page("<div><a href=x><div><p>one<b>two</a>three</b></p></div></div><i><p>four</i>five");
    for (i, n) in doc.nodes.iter().enumerate() {
        if let Some(p) = n.parent {
            let parent = &doc.nodes[p as usize];
            assert!((p as usize) < i && n.end <= parent.end, "node {i} outside its parent {p}");
        }
        assert!(n.end as usize > i);
    }
}

/// A wrapper or site config is data: an XPath whose evaluation could run away is refused before
/// it runs, with the reason, and a page is never evaluated with it.
#[test]
fn runaway_xpaths_from_files_are_refused() {
    let page = "<html><body><div class=story><p>words</p></div></body></html>";
    let pages: Vec<forest::Page> =
        (0..2).map(|i| forest::Page::from_html(format!("p{i}"), &page.replace("words", &format!("words {i} more text"))).unwrap()).collect();
    let wrapper = forest::Wrapper::induce("t", &pages, &forest::Config::default()).unwrap().wrapper;
    let nested = format!("//*{}", "[.//*".repeat(6) + &"]".repeat(6));
    let long = format!("//div[@class='{}']", "x".repeat(5000));
    let deep = format!("//div{}", "[(".repeat(10) + "1" + &")]".repeat(10));
    for bad in [&nested, &long, &deep] {
        let started = std::time::Instant::now();
        let err = forest::Applier::new(forest::Wrapper { xpath: bad.clone(), ..wrapper.clone() }).expect_err("refused");
        assert!(err.to_string().contains("refused"), "{err}");
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        let cfg = format!("body: //div\nstrip: {bad}\n");
        let err = forest::ftr::SiteConfig::parse(&cfg, "site.txt").expect_err("refused");
        assert!(err.to_string().starts_with("site.txt:2:"), "{err}");
    }
    // The wrapper's own XPath and ordinary hand-written ones pass.
    assert!(forest::Applier::new(wrapper.clone()).is_ok());
    assert!(forest::Applier::new(forest::Wrapper { xpath: "//div[contains(@class,'story')]//p[not(ancestor::aside)]".into(), ..wrapper }).is_ok());
}

/// What passes the checks still runs under the page's node-visit budget: `//*[../*]` costs the
/// square of a parent's children, so on 20,000 siblings (400 million visits) it is stopped (a counted skip naming
/// `--max-xpath-visits`), the same XPath on a small page runs, and a page whose time is spent
/// is stopped naming `--max-seconds`. Both for a wrapper and for a site config.
#[test]
fn xpaths_run_under_the_pages_node_visit_budget() {
    let small = "<html><body><div class=story><p>words one</p><p>words two</p></div></body></html>";
    let pages: Vec<forest::Page> = (0..2).map(|i| forest::Page::from_html(format!("p{i}"), &small.replace("one", &i.to_string())).unwrap()).collect();
    let wrapper = forest::Wrapper::induce("t", &pages, &forest::Config::default()).unwrap().wrapper;
    let quadratic = "//body/*[../*[@class='story']]";
    let applier = forest::Applier::new(forest::Wrapper { xpath: quadratic.into(), ..wrapper }).expect("passes the checks");
    let (cfg, _) = forest::ftr::SiteConfig::parse(&format!("body: {quadratic}\n"), "site.txt").unwrap();
    let config = forest::ftr::ConfigApplier::new(cfg).unwrap();
    let extractors: [&dyn forest::Extractor; 2] = [&applier, &config];

    let mut big = forest::Page::from_html("big", &format!("<html><body>{}</body></html>", "<p>x</p>".repeat(20_000))).unwrap();
    big.budget.max_xpath_visits = 1_000_000; // the default is 10 million: the same stop, slower
    let mut late = forest::Page::from_html("late", small).unwrap();
    late.deadline = Some(std::time::Instant::now());
    std::thread::sleep(std::time::Duration::from_millis(2));
    for x in extractors {
        let text = x.extract(&pages[0]).expect("a small page runs").text;
        assert!(text.contains("words 0"), "{text}");
        let started = std::time::Instant::now();
        match x.extract(&big) {
            Err(forest::Error::OverBudget { limit: forest::budget::Limit::XPathVisits, what }) => assert!(what.contains("visited over 1000000 nodes"), "{what}"),
            other => panic!("{}: expected the visit budget, got {:?}", x.name(), other.map(|e| e.rule)),
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(60), "stopped, not run to the end");
        match x.extract(&late) {
            Err(forest::Error::OverBudget { limit: forest::budget::Limit::Time, .. }) => {}
            other => panic!("{}: expected the time budget, got {:?}", x.name(), other.map(|e| e.rule)),
        }
    }
}

#[test]
fn parser_bombs_stop_at_the_element_budget() {
    // Formatting elements the tree builder rebuilds on every tag: a few KB make millions of
    // elements. Stray end tags, `<!-->` and `<svg><title>` once hid deep nesting from the guard.
    let rebuilt = |n: usize, size: usize| {
        let mut s = String::from("<html><body><div>");
        for i in 0..n {
            s.push_str(&format!("<b id=x{i}></span>"));
        }
        s.push_str("</div>");
        while s.len() < size {
            s.push_str("<div>x</div>");
        }
        s
    };
    let small = forest::budget::Budget { max_elements: 50_000, ..forest::budget::Budget::default() };
    for html in [rebuilt(3_000, 61_000), format!("<html><body>{}", (0..3_000).map(|i| format!("<p><b id=x{i}>t</p>")).collect::<String>())] {
        match clean::page_within(&html, &small) {
            Err(forest::Error::OverBudget { limit, .. }) => assert_eq!(limit, forest::budget::Limit::Elements),
            other => panic!("a bomb must go over the element budget: {:?}", other.map(|d| d.element_count())),
        }
    }
    let n = 100_000;
    for html in [
        format!("<body><!-->{}x", "<div>".repeat(n)),
        format!("<body><svg><title>{}x</title></svg>", "<div>".repeat(n)),
        format!("<body>{}x", "<div></span>".repeat(n)),
    ] {
        let doc = clean::page(&html);
        let deepest = doc.nodes.iter().map(|n| n.level as usize).max().unwrap_or(0);
        assert!(deepest <= forest::budget::MAX_DEPTH + 4, "the guard flattens what the parser nests: {deepest}");
    }
}

/// String functions on whole-page strings are metered by the characters they read:
/// `normalize-space(/)` in a predicate reads the page once per element, and `concat()` of many
/// `string(/)` builds the page many times over. Both stop at the page's budget, for a wrapper and
/// for a site config, while the same functions on small strings run.
#[test]
fn string_functions_run_under_the_budget() {
    let small = "<html><body><div class=story><p>words one</p><p>words two</p></div></body></html>";
    let pages: Vec<forest::Page> = (0..2).map(|i| forest::Page::from_html(format!("p{i}"), &small.replace("one", &i.to_string())).unwrap()).collect();
    let wrapper = forest::Wrapper::induce("t", &pages, &forest::Config::default()).unwrap().wrapper;
    let para = "<p>".to_string() + &"lorem ipsum dolor sit amet ".repeat(40) + "</p>";
    let mut big = forest::Page::from_html("big", &format!("<html><body><div class=story>{}</div></body></html>", para.repeat(500))).unwrap();
    big.budget.max_xpath_visits = 1_000_000;
    let concat = format!("//div[concat({}) = 'x']", vec!["string(/)"; 300].join(", "));
    for bad in ["//*[normalize-space(/) = 'x']", concat.as_str(), "//p[contains(string(/), 'zzz')]"] {
        let applier = forest::Applier::new(forest::Wrapper { xpath: bad.into(), ..wrapper.clone() }).expect("passes the checks");
        let (cfg, _) = forest::ftr::SiteConfig::parse(&format!("body: {bad}\n"), "site.txt").unwrap();
        let config = forest::ftr::ConfigApplier::new(cfg).unwrap();
        let extractors: [&dyn forest::Extractor; 2] = [&applier, &config];
        for x in extractors {
            let started = std::time::Instant::now();
            match x.extract(&big) {
                Err(forest::Error::OverBudget { limit: forest::budget::Limit::XPathVisits, what }) => {
                    assert!(what.contains("characters"), "{what}")
                }
                other => panic!("{bad} ({}): expected the budget, got {:?}", x.name(), other.map(|e| e.rule)),
            }
            assert!(started.elapsed() < std::time::Duration::from_secs(30), "{bad}: stopped, not run to the end");
        }
    }
    let fine = forest::Applier::new(forest::Wrapper { xpath: "//div[contains(normalize-space(@class), 'story')]".into(), ..wrapper }).unwrap();
    assert!(forest::Extractor::extract(&fine, &big).unwrap().text.contains("lorem ipsum"));
}

/// The executable is position-independent on Linux (ELF type `ET_DYN`), so its code's address
/// is randomized at every start: it parses hostile input.
#[test]
#[cfg(target_os = "linux")]
fn the_executable_is_position_independent() {
    let bytes = std::fs::read(env!("CARGO_BIN_EXE_forest")).expect("the forest executable");
    assert_eq!(&bytes[..4], b"\x7fELF");
    // e_type, little-endian on every Linux target forest builds for: 3 is ET_DYN.
    assert_eq!(u16::from_le_bytes([bytes[16], bytes[17]]), 3, "readelf -h would say EXEC: built with -no-pie?");
}

#[test]
fn reader_comments_kept_aside_stay_within_their_cap() {
    // Three megabytes of comments, in many regions and one huge one, below an article (a page
    // whose own text is less than an article's worth would be read as a discussion).
    let one = format!("<div class=comment><p>{}</p></div>", "A reader says the bridge is fine. ".repeat(30));
    let story = "<p>The bridge reopened on Monday after a year of repairs to its deck.</p>".repeat(10);
    let html = format!(
        "<body><article><h1>Bridge</h1>{story}</article>{}<div id=comments><p>{}</p></div></body>",
        one.repeat(1_500),
        "word ".repeat(400_000)
    );
    let doc = clean::page(&html);
    let kept: usize = doc.comments.iter().map(String::len).sum();
    assert!(kept <= clean::Doc::MAX_COMMENTS && kept > clean::Doc::MAX_COMMENTS / 2, "{kept}");
    assert!(!doc.text(doc.body).contains("reader says"));
}

#[test]
fn a_figure_with_a_hundred_thousand_captions_renders() {
    // Each caption, cut by the single-page extractor, asks whether its figure shows an image:
    // asked once per figure, not once per caption.
    let html = format!(
        "<body><article><h1>Bridge</h1><p>{}</p><figure><img src=a.jpg>{}</figure></article></body>",
        "The bridge reopened on Monday after six weeks of repairs. ".repeat(20),
        "<figcaption>c</figcaption>".repeat(100_000)
    );
    let page = forest::Page::from_html("figures", &html).expect("the page");
    let article = forest::rules::Rules::SinglePage.resolver().expect("rules").article(page).expect("an article");
    assert!(article.markdown().contains("The bridge reopened"));
}
