//! Tests of the Boilerpipe re-implementation.

use super::*;
use crate::clean::page;

const SENTENCE: &str =
    "The council voted on Tuesday to rebuild the old bridge over the river, \
    a project that residents have demanded for more than a decade. ";

fn para(n: usize) -> String {
    format!("<p>{}</p>", SENTENCE.repeat(n))
}

#[test]
fn tokens_follow_boilerpipe_word_boundaries() {
    let mut toks = Vec::new();
    for_each_token("don't U.S. a&b foo—bar 3.5% \u{E00A} x", |t| {
        toks.push(t.to_string())
    });
    assert_eq!(
        toks,
        ["don't", "U.S.", "a", "&", "b", "foo", "—", "bar", "3.5", "%", "\u{E00A}", "x"]
    );
}

#[test]
fn blocks_count_words_links_and_levels() {
    let doc =
        page("<body><div><p>One two <a href=x>three four</a> five.</p><p>Six</p></div></body>");
    let blocks = segment(&doc);
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0].text, "One two three four five.");
    assert_eq!((blocks[0].words, blocks[0].anchor_words), (5, 2));
    // html = 1, body = 2, div = 3, p = 4.
    assert_eq!(blocks[0].level, 4);
    assert_eq!(blocks[1].text, "Six");
}

#[test]
fn text_density_leaves_out_the_last_wrapped_line() {
    // 30 words of 4 letters: 5 chars per word, 16 words per 80-char line.
    let text = "word ".repeat(30);
    let doc = page(&format!("<body><p>{text}</p></body>"));
    let b = &segment(&doc)[0];
    assert_eq!(b.words, 30);
    assert_eq!((b.wrapped_words, b.wrapped_lines), (16, 1));
    assert!((b.text_density() - 16.0).abs() < 1e-9);
}

#[test]
fn inline_tags_do_not_split_blocks_but_br_does() {
    let doc = page("<body><p>a <b>bold</b> <span>span</span> word<br>next line</p></body>");
    let texts: Vec<String> = segment(&doc).into_iter().map(|b| b.text).collect();
    assert_eq!(texts, ["a bold span word", "next line"]);
}

#[test]
fn list_items_and_headings_are_labelled() {
    let doc = page("<body><h2>Head</h2><ul><li>item</li></ul></body>");
    let blocks = segment(&doc);
    assert!(blocks[0].has(HEADING));
    assert!(blocks[1].has(LI));
}

/// A page with navigation before the article and a footer after it.
fn news_page() -> String {
    format!(
        "<html><head><title>Bridge to be rebuilt | Town News</title></head><body>\
         <div id=nav><ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li>\
         <li><a href=/s>Sport</a></li><li><a href=/w>Weather</a></li></ul></div>\
         <div id=main><h1>Bridge to be rebuilt</h1>{}{}{}</div>\
         <div id=footer><p><a href=/a>About us</a> | <a href=/c>Contact</a> | \
         <a href=/p>Privacy policy</a></p><p>Copyright 2024 Town News</p></div></body></html>",
        para(3),
        para(2),
        para(4)
    )
}

#[test]
fn navigation_and_footer_are_dropped_article_kept() {
    let text = extract(&page(&news_page()));
    assert!(
        text.contains("Bridge to be rebuilt\n\nThe council voted"),
        "{text}"
    );
    assert_eq!(text.matches("The council voted").count(), 9, "{text}");
    for boiler in ["Home", "News", "Sport", "About us", "Privacy", "Copyright"] {
        assert!(!text.contains(boiler), "{boiler} in {text}");
    }
}

#[test]
fn first_fusion_pulls_in_the_block_just_before_the_content() {
    // As published: BlockProximityFusion(1, false, false) fuses a content block into the
    // adjacent block before it, content or not, so the last menu item comes along.
    let text = extract(&page(&news_page()));
    assert!(
        text.starts_with("Weather\n\nBridge to be rebuilt"),
        "{text}"
    );
}

#[test]
fn link_heavy_blocks_are_dropped() {
    let links: String = (0..30)
        .map(|i| format!("<a href=/r{i}>Related story number {i}</a> "))
        .collect();
    let html = format!(
        "<body><div>{}{}</div><div><p>{links}</p></div></body>",
        para(3),
        para(3)
    );
    let text = extract(&page(&html));
    assert!(text.contains("The council voted"));
    assert!(!text.contains("Related story"), "{text}");
}

#[test]
fn text_after_comment_marker_is_ignored() {
    let html = format!(
        "<body><div>{}{}<p>Add your comment</p><p>{}</p></div></body>",
        para(3),
        para(2),
        "I disagree with this article entirely, the bridge is fine and the money should go \
         elsewhere in town instead of this nonsense. "
            .repeat(3)
    );
    let text = extract(&page(&html));
    assert!(text.contains("The council voted"));
    assert!(!text.contains("I disagree"), "{text}");
}

#[test]
fn title_spellings_and_dash_parts() {
    let m = TitleMatch::new("Bridge to be rebuilt - Town News");
    assert!(m.titles.contains("bridge to be rebuilt"));
    assert!(m.titles.contains("town news"));
    assert_eq!(
        split_at_separators("a | | b", |c| c == '|', true),
        ["a", "| b"]
    );
    assert_eq!(split_at_separators("a|b|", |c| c == '|', false), ["a", "b"]);
    assert_eq!(without_last_dash_part("a - b - c"), "a - b");
    assert_eq!(without_first_dash_part("a - b - c"), "b - c");
}

#[test]
fn empty_and_deep_pages_do_not_panic() {
    assert_eq!(extract(&page("")), "");
    let deep = "<div>".repeat(20_000) + "text";
    let _ = extract(&page(&deep));
}
