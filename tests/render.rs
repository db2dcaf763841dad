//! `forest::render` on golden files: each `tests/data/render/<case>.html` page, its element of
//! class `article` selected, must render to `<case>.md` exactly; its HTML and XML must parse.

use forest::extract::{Extraction, Rule};
use forest::Page;
use std::path::{Path, PathBuf};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/render")
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
