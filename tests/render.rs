//! `forest::render` on golden files: each `tests/data/render/<case>.html` page, its element of
//! class `article` selected, must render to `<case>.md` exactly; its HTML and XML must parse.

use forest::extract::{Extraction, Rule};
use forest::Page;
use std::path::{Path, PathBuf};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/render")
}

/// The shared set `name` (`../shared/<name>`), or `None`, said on stderr, when it is absent.
fn shared(name: &str) -> Option<PathBuf> {
    let set = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared").join(name);
    if !set.is_dir() {
        eprintln!("skipped: ../shared/{name} is absent");
        return None;
    }
    Some(set)
}

/// The page of `case` and an extraction of its element of class `article`.
fn extraction(case: &str) -> (Page, Extraction) {
    let html = std::fs::read_to_string(data().join(format!("{case}.html"))).expect("read the fixture page");
    let page = Page::from_html(case, &html).unwrap();
    let doc = &page.doc;
    let article = (0..doc.nodes.len() as u32)
        .find(|&i| doc.element(i).is_some_and(|e| e.attr("class") == Some("article")))
        .expect("an element of class article");
    let x = Extraction::new(vec![article], doc.text(article), Rule::Exact);
    (page, x)
}

#[test]
fn lists_table_code_markdown_is_golden() {
    let (page, x) = extraction("lists-table-code");
    let base = url::Url::parse("https://example.com/blog/post.html").expect("URL");
    let got = forest::render::markdown(&page.doc, &x, Some(&base));
    let want = std::fs::read_to_string(data().join("lists-table-code.md")).expect("read the golden Markdown");
    assert_eq!(got, want, "\n--- got ---\n{got}");
}

#[test]
fn lists_table_code_html_and_xml_parse() {
    let (page, x) = extraction("lists-table-code");
    let base = url::Url::parse("https://example.com/blog/post.html").expect("URL");
    let html = forest::render::html(&page.doc, &x, Some(&base));
    assert!(html.starts_with("<div class=\"article\">"), "{html}");
    assert!(html.contains("href=\"https://example.com/up.html\""), "{html}");
    // The fragment parses back to the same text.
    let again = forest::clean::page(&html);
    assert_eq!(again.text(again.body), page.doc.text(x.nodes[0]));
    let xml = forest::render::xml(&page.doc, &x);
    sxd_document::parser::parse(&xml).expect("well-formed XML");
    assert!(xml.starts_with("<article><div class=\"article\" dfs=\""), "{xml}");
}

#[test]
fn json_gives_what_the_page_declares_with_dates_in_iso_8601_and_urls_made_absolute() {
    let html = r#"<html><head><title>Bridge closes</title><link rel="canonical" href="/2024/05/bridge">
        <meta property="og:image" content="/img/bridge.jpg"><meta property="og:site_name" content="The Gazette">
        <meta name="description" content="The bridge closes for six weeks."><meta property="article:tag" content="roads">
        <meta property="article:published_time" content="May 1, 2024"><meta name="author" content="Ada Byron"></head>
        <body><article><h1>Bridge closes</h1><p>The old bridge over the river closes for repairs on Monday, the council said.</p>
        <p>Drivers should use the ferry until the end of June, when the work is due to end.</p></article></body></html>"#;
    let page = Page::from_bytes(html.as_bytes(), "https://news.example/a?x=1").unwrap();
    let article = forest::rules::Rules::SinglePage.resolver().unwrap().article(page).unwrap();
    let json: serde_json::Value = serde_json::from_str(&article.to_json(false)).unwrap();
    assert_eq!(json["published"], "2024-05-01");
    assert_eq!(json["canonical_url"], "https://news.example/2024/05/bridge");
    assert_eq!(json["image"], "https://news.example/img/bridge.jpg");
    assert_eq!((json["site_name"].as_str(), json["description"].as_str()), (Some("The Gazette"), Some("The bridge closes for six weeks.")));
    assert_eq!((json["authors"][0].as_str(), json["tags"][0].as_str(), json["byline"].as_str()), (Some("Ada Byron"), Some("roads"), Some("Ada Byron")));
}

#[test]
fn the_byline_is_a_persons_name_not_the_sites_or_its_buttons() {
    let article = |head: &str, body: &str| {
        let html = format!(
            "<html><head><title>Bridge closes</title>{head}</head><body><article><h1>Bridge closes</h1>{body}\
             <p>The old bridge over the river closes for repairs on Monday, the council said today.</p>\
             <p>Drivers should use the ferry until the end of June, when the work is due to end.</p></article></body></html>"
        );
        let page = Page::from_bytes(html.as_bytes(), "https://news.example/a").unwrap();
        let a = forest::rules::Rules::SinglePage.resolver().unwrap().article(page).unwrap();
        let json: serde_json::Value = serde_json::from_str(&a.to_json(false)).unwrap();
        (json["byline"].as_str().map(str::to_string), json["authors"][0].as_str().map(str::to_string))
    };
    let site = r#"<meta property="og:site_name" content="The Gazette"><meta name="author" content="The Gazette">"#;
    // The site's own name as the author is its publisher's: the reporter the page shows wins.
    let shown = article(site, "<p class=byline>By Ann Lee, May 1, 2024</p>");
    assert_eq!(shown, (Some("Ann Lee".into()), Some("Ann Lee".into())));
    // With no person shown, the publisher stays.
    assert_eq!(article(site, "").0.as_deref(), Some("The Gazette"));
    // A linked author's page; buttons and contact details beside a name are no part of it.
    assert_eq!(article("", r#"<p>Posted by <a rel="author" href="/people/ann">Ann Lee</a> on May 1</p>"#).0.as_deref(), Some("Ann Lee"));
    let buttons = r#"<meta name="author" content="Print Email Ann Lee ann@news.example Follow Ann on Twitter">"#;
    assert_eq!(article(buttons, "").0.as_deref(), Some("Ann Lee"));
    // The role after a name is no part of it; the site's own name beside a person's is no author.
    let both = r#"<meta name="author" content="Ann Lee, Staff Writer"><meta property="author" content="The Gazette"><meta property="og:site_name" content="The Gazette">"#;
    assert_eq!(article(both, ""), (Some("Ann Lee".into()), Some("Ann Lee".into())));
}

#[test]
fn a_blogs_name_over_its_post_is_not_the_posts_title() {
    let title_and_site = |url: &str, head: &str| {
        let html = format!(
            "<html><head>{head}</head><body><h1>Riverside Notes</h1><div class=post><h3>Bridge closes</h3>\
             <p>The old bridge over the river closes for repairs on Monday, the council said today.</p>\
             <p>Drivers should use the ferry until the end of June, when the work is due to end.</p></div></body></html>"
        );
        let a = forest::rules::Rules::SinglePage.resolver().unwrap().article(Page::from_bytes(html.as_bytes(), url).unwrap()).unwrap();
        (a.title.clone(), a.meta.site_name.clone().unwrap_or_default())
    };
    let head = "<title>Bridge closes | Riverside Notes</title><meta property=og:site_name content='Riverside Notes'>";
    let post = "https://riversidenotes.example/2024/05/bridge-closes.html";
    assert_eq!(title_and_site(post, head), ("Bridge closes".into(), "Riverside Notes".into()));
    // The home page's title is the site's name.
    assert_eq!(title_and_site("https://riversidenotes.example/", head).0, "Riverside Notes");
}

#[test]
fn the_title_is_the_h1_the_article_holds_without_its_buttons() {
    // A documentation page: its `<title>` matches no element (a site's suffix, other words),
    // and the article's block holds its own `h1`, with a copy button inside it.
    let html = r#"<html><head><title>tokio - Rust crate reference</title><meta property="og:title" content="tokio crate docs"></head>
        <body><nav><a href=/>Docs</a> <a href=/std>std</a></nav><main><div class=doc><h1>Crate <span>tokio</span> <button>Copy item path</button></h1>
        <p>A runtime for writing reliable network applications without compromising speed, built on an event loop.</p>
        <p>Tokio is an event-driven, non-blocking I/O platform for writing asynchronous applications in Rust.</p>
        <p>At a high level, it provides a few major components: tools for tasks, an I/O driver and a timer.</p></div></main></body></html>"#;
    let page = Page::from_bytes(html.as_bytes(), "https://docs.example/tokio/").unwrap();
    let a = forest::rules::Rules::SinglePage.resolver().unwrap().article(page).unwrap();
    assert_eq!(a.title, "Crate tokio");
}

#[test]
fn the_authors_are_the_bylines_links_not_the_teasers() {
    let html = r#"<html><head><title>Bridge closes</title></head><body><article><h1>Bridge closes</h1>
        <p class=by>By <a rel="author" href="/p/ann">Ann Lee</a> and <a rel="author" href="/p/bo">Bo Chen</a></p>
        <p>The old bridge over the river closes for repairs on Monday, the council said today.</p>
        <p>Drivers should use the ferry until the end of June, when the work is due to end.</p></article>
        <aside><h4>Ferry fares rise</h4><div class=by><a rel="author" href="/p/cy">Cy Diaz</a></div>
        <a rel="author" href="/p/ann">View my complete profile</a></aside></body></html>"#;
    let page = Page::from_bytes(html.as_bytes(), "https://news.example/a").unwrap();
    let a = forest::rules::Rules::SinglePage.resolver().unwrap().article(page).unwrap();
    let json: serde_json::Value = serde_json::from_str(&a.to_json(false)).unwrap();
    assert_eq!(json["authors"], serde_json::json!(["Ann Lee", "Bo Chen"]));
}

#[test]
fn a_page_without_a_description_is_summed_up_by_its_first_paragraph() {
    let html = "<html><head><title>Bridge closes | The Gazette</title></head><body><article><h1>Bridge closes</h1>\
        <p>By Ann Lee on May 1, 2024 in Roads and Bridges</p><p>WASHINGTON --</p>\
        <p>The old bridge over the river closes for repairs on Monday, the council said today.</p>\
        <p>Drivers should use the ferry until the end of June, when the work is due to end.</p></article></body></html>";
    let page = Page::from_bytes(html.as_bytes(), "https://gazette.example/a").unwrap();
    let article = forest::rules::Rules::SinglePage.resolver().unwrap().article(page).unwrap();
    let json: serde_json::Value = serde_json::from_str(&article.to_json(false)).unwrap();
    assert_eq!(json["description"], "The old bridge over the river closes for repairs on Monday, the council said today.");
    assert_eq!((json["site_name"].as_str(), json["byline"].as_str(), json["published"].as_str()), (Some("The Gazette"), Some("Ann Lee"), Some("2024-05-01")));
}

/// Real pages of `../shared/modern` with figures: every caption of a shown image is in the
/// `html` and the Markdown (the text leaves captions out, as gold texts do).
#[test]
fn figures_of_real_pages_keep_image_and_caption_in_html_and_markdown() {
    let Some(set) = shared("modern") else { return };
    let rules = forest::rules::Rules::SinglePage;
    // (page, figures with a loaded image and a caption in the article; the other two figures of
    // the second page have an image only a script gives a source, shown neither)
    for (page, figures) in [("wcxb-climatedrift.substack.com/test-5539.html", 4), ("wcxb-thespruceeats.com/dev-4030.html", 1)] {
        let html = std::fs::read(set.join(page)).expect("read the page");
        let article = rules.resolver().unwrap().article(Page::from_bytes(&html, page).unwrap()).unwrap();
        let out = article.html();
        assert_eq!(out.matches("<figcaption").count(), figures, "{page}");
        let doc = scraper::Html::parse_fragment(&out);
        let captions: Vec<String> = doc
            .select(&scraper::Selector::parse("figure figcaption").unwrap())
            .map(|c| c.text().collect::<Vec<_>>().join(" ").split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        let markdown = article.markdown();
        for caption in captions.iter().filter(|c| c.len() > 3) {
            let start: String = caption.chars().take(20).collect();
            assert!(markdown.contains(start.trim()), "{page}: caption {caption:?} not in the Markdown");
        }
        assert!(out.matches("<img").count() >= figures, "{page}");
    }
}

/// Real blog pages of `../shared/blogs` with reader comments below the article: asked for,
/// the comments come (names, dates, words), and the article's text holds none of them.
#[test]
fn comments_of_real_blog_pages_come_aside_from_the_article() {
    let Some(set) = shared("blogs") else { return };
    let mut resolver = forest::rules::Rules::SinglePage.resolver().unwrap().fields(forest::article::Fields::Comments);
    // (page, words of a comment)
    for (page, said) in [
        ("dragnet-blog.designpublic.com/R156.html", "Modern Furniture says:"),
        ("dragnet-legalnomads.com/R382.html", "Qaoileann said:"),
    ] {
        let html = std::fs::read(set.join(page)).expect("read the page");
        let article = resolver.article(Page::from_bytes(&html, page).unwrap()).unwrap();
        assert!(article.comments.iter().any(|c| c.contains(said)), "{page}: {:?}", article.comments);
        assert!(!article.text.contains(said), "{page}: a comment in the text");
    }
}

/// A real page with references (`../shared/modern`, en.wikipedia.org dev-2905): its citation
/// marks are GFM footnotes, each with its reference after the article.
#[test]
fn references_of_a_real_page_are_footnotes_in_markdown() {
    let Some(set) = shared("modern") else { return };
    let html = std::fs::read(set.join("wcxb-en.wikipedia.org/dev-2905.html")).expect("read the page");
    let url = "https://en.wikipedia.org/wiki/List_of_Nobel_laureates";
    let article = forest::rules::Rules::SinglePage.resolver().unwrap().article(Page::from_bytes(&html, url).unwrap()).unwrap();
    let markdown = article.markdown();
    assert!(markdown.contains("the Norwegian Nobel Committee awards the Prize in Peace.[^3]"), "{markdown}");
    assert!(markdown.contains("\n[^3]: \"The Nobel Prize Awarders\". Nobel Foundation."), "{markdown}");
    // No Markdown link to a note of the page is left; a table written as HTML (the list of
    // laureates, with cells spanning rows) keeps its note links, to the page's notes: GFM reads
    // no footnote inside HTML.
    assert!(markdown.lines().filter(|l| !l.starts_with('<')).all(|l| !l.contains("#cite_note")), "a note link is left: {markdown}");
    assert!(markdown.contains("<table"), "the list of laureates is the page's: {markdown}");
    // Every reference has its definition, and every definition a reference.
    for line in markdown.lines().filter(|l| l.starts_with("[^")) {
        let label = &line[..line.find("]:").expect("a definition")];
        assert!(markdown.matches(&format!("{label}]")).count() >= 2, "{label} has no reference");
    }
}

#[test]
fn an_item_selected_alone_is_its_content_and_items_selected_together_stay_a_list() {
    let page = Page::from_html(
        "items",
        "<ol><li id=story><p>The thread.</p><ol><li>A reply.</li><li>Another.</li></ol></li><li>Next story</li></ol>\
         <ul><li id=a>Apples</li><li id=b>Pears</li><li>Plums</li></ul>",
    )
    .unwrap();
    let doc = &page.doc;
    let id = |v: &str| (0..doc.nodes.len() as u32).find(|&i| doc.element(i).is_some_and(|e| e.attr("id") == Some(v))).expect(v);
    let lone = Extraction::new(vec![id("story")], String::new(), Rule::Exact);
    assert_eq!(forest::render::markdown(doc, &lone, None), "The thread.\n\n1. A reply.\n2. Another.\n");
    assert_eq!(forest::render::html(doc, &lone, None), "<p>The thread.</p><ol><li>A reply.</li><li>Another.</li></ol>\n");
    let two = Extraction::new(vec![id("a"), id("b")], String::new(), Rule::Exact);
    // Each item is a root of its own, so a blank line parts them: one loose list.
    assert_eq!(forest::render::markdown(doc, &two, None), "- Apples\n\n- Pears\n");
}
