//! Trimming the selection: the cut mask over the selected subtrees. Boilerplate regions and
//! link-dense blocks go; before the body's first sentence only headings stay (the header
//! zone); from a terminator line in the tail ("Related", "More from", …) everything goes.

use super::classes;
use super::score::{Facts, MOST};
use super::Options;
use crate::clean::{Doc, NodeData, NodeId};

/// One line of the selection: a run of text nodes of the same block.
struct Line {
    /// The block holding the text.
    block: usize,
    /// First and last text node.
    first: usize,
    last: usize,
    /// Columns of text.
    cols: u32,
}

/// Fewest columns of a line that starts the body, unless it ends a sentence.
const BODY_START: u32 = 80;
/// Most of the selection the header zone may take.
const HEADER_SHARE: f32 = 0.25;
/// Share of the selection's paragraphs that must come before a terminator line.
const TAIL_AFTER: f32 = 0.5;

/// The cut mask of the selection `nodes` (one flag per node of the page).
/// `headline` is the headline when it stands inside the selection: before the body, what
/// precedes it goes too.
pub fn mask(doc: &Doc, f: &Facts, nodes: &[NodeId], opts: &Options, headline: Option<NodeId>) -> Vec<bool> {
    let n = doc.nodes.len();
    let mut skip = vec![false; n];
    if opts.prune {
        // Boilerplate regions go, unless together they hold most of the selection's paragraphs.
        let (mut all, mut cut) = (0.0f32, 0.0f32);
        for &r in nodes {
            all += f.good0[r as usize];
            for i in subtree(doc, r) {
                let top = i == r as usize || f.up(i).is_some_and(|p| !f.junk[p]);
                if f.junk[i] && top {
                    cut += f.good0[i];
                }
            }
        }
        if cut <= MOST * all {
            for &r in nodes {
                for i in subtree(doc, r) {
                    skip[i] |= f.junk[i];
                }
            }
        }
    }
    if opts.link_blocks {
        link_blocks(doc, f, nodes, &mut skip);
    }
    if opts.quotes {
        repeated_quotes(doc, f, nodes, &mut skip);
    }
    if !(opts.header || opts.tail || opts.copies || opts.cards) {
        return skip;
    }
    let mut lines = lines(doc, f, nodes, &skip);
    if opts.cards && furniture(doc, f, nodes, &lines, &mut skip, opts.thread) {
        lines = self::lines(doc, f, nodes, &skip);
    }
    if opts.tail {
        for l in &lines {
            if l.cols <= 40 && classes::notice(&line_text(doc, f, l, &skip)) {
                cut_line(f, l, &mut skip);
            }
        }
    }
    if opts.header {
        header_zone(doc, f, &lines, &mut skip, headline);
    }
    if opts.tail {
        tail(doc, f, nodes, &lines, &mut skip, opts.thread || (opts.kinds && doc.discussion));
    }
    // Last, so that where the article ends is judged on the text the page shows (a line cut
    // since has no words left to compare).
    if opts.copies {
        copies(doc, f, &lines, &mut skip, opts.copy_lines, opts.copy_bytes);
    }
    skip
}

/// Elements that group other content, cut whole when mostly links.
const LINK_BLOCKS: &[&str] = &[
    "div", "ul", "ol", "dl", "table", "section", "aside", "nav", "figure", "header", "footer", "form", "p", "li",
];

/// Cut the blocks of the selection whose text is mostly link text (over half) and that hold
/// under a quarter of the selection's other text: menus, related-story lists, tag lists. When
/// such blocks make most of the selection, it is a page of links (a wiki's list of readings,
/// an index): nothing is cut.
fn link_blocks(doc: &Doc, f: &Facts, nodes: &[NodeId], skip: &mut [bool]) {
    let plain: u32 = nodes.iter().map(|&r| f.width[r as usize] - f.link[r as usize]).sum();
    let total: u32 = nodes.iter().map(|&r| f.width[r as usize]).sum();
    // The blocks to cut, each as its range of nodes.
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    for &r in nodes {
        let end = doc.end(r) as usize;
        let mut i = r as usize + 1;
        while i < end {
            let (w, l) = (f.width[i], f.link[i]);
            let dense = w > 0 && l * 2 > w && (w - l) * 4 < plain;
            if dense && doc.element(i as NodeId).is_some_and(|e| LINK_BLOCKS.contains(&e.name.as_str())) {
                let stop = doc.nodes[i].end as usize;
                cuts.push((i, stop));
                i = stop;
            } else {
                i += 1;
            }
        }
    }
    let cut: u32 = cuts.iter().map(|&(i, _)| f.width[i]).sum();
    if cut * 2 > total {
        return;
    }
    for (i, stop) in cuts {
        skip[i..stop].iter_mut().for_each(|s| *s = true);
    }
}

/// Most columns of a line of a user's standing.
const STANDING_COLS: u32 = 40;

/// Most columns of a user's card (about 35 words).
const CARD_COLS: u32 = 200;

/// Cut the furniture of a thread's posts: the user's card beside each post, found by two or
/// more lines of a user's standing ([`crate::metadata::shows::standing`]) in the selection
/// (each card the largest element around such a line that holds no paragraph and at most
/// [`CARD_COLS`] columns), and, in a thread (a page of that evidence, or `thread`: a declared
/// discussion), each post's signature ([`classes::signature`]). Whether anything was cut.
fn furniture(doc: &Doc, f: &Facts, nodes: &[NodeId], lines: &[Line], skip: &mut [bool], thread: bool) -> bool {
    // (A line's text is read only when it is short and holds a colon or starts with a digit.)
    let short = |l: &Line| l.cols <= STANDING_COLS;
    let hint = |l: &Line| {
        (l.first..=l.last).any(|i| matches!(&doc.nodes[i].data, NodeData::Text(t) if t.contains(':')))
            || matches!(&doc.nodes[l.first].data, NodeData::Text(t) if t.trim_start().starts_with(|c: char| c.is_ascii_digit()))
    };
    let mut standings: Vec<&Line> = Vec::new();
    for (k, l) in lines.iter().enumerate() {
        if short(l) && hint(l) {
            let next = lines.get(k + 1).filter(|n| short(n)).map(|n| line_text(doc, f, n, skip));
            if crate::metadata::shows::standing(&line_text(doc, f, l, skip), next.as_deref()) {
                standings.push(l);
            }
        }
    }
    let cards = standings.len() >= 2;
    let mut cut = false;
    for l in if cards { standings } else { Vec::new() } {
        // The card stands beside its post: the climb stops at an element that holds a paragraph.
        let (mut card, mut beside) = (l.block, false);
        for a in doc.ancestors(l.block as NodeId) {
            let a = a as usize;
            let inside = nodes.iter().any(|&r| r as usize != a && doc.contains(r, a as NodeId));
            if !inside || f.good[a] > 0.0 || f.width[a] > CARD_COLS {
                beside = inside && f.good[a] > 0.0;
                break;
            }
            card = a;
        }
        if beside {
            skip[card..doc.nodes[card].end as usize].iter_mut().for_each(|s| *s = true);
            cut = true;
        }
    }
    if !(cards || thread) {
        return cut;
    }
    for &r in nodes {
        let end = doc.end(r) as usize;
        let mut i = r as usize;
        while i < end {
            if doc.element(i as NodeId).is_some_and(classes::signature) {
                let stop = doc.nodes[i].end as usize;
                skip[i..stop].iter_mut().for_each(|s| *s = true);
                cut = true;
                i = stop;
            } else {
                i += 1;
            }
        }
    }
    cut
}

/// Fewest bytes of a line that is compared (shorter lines, such as `Ann said:`, are not).
const QUOTE_LINE: usize = 30;

/// Cut every quote (`blockquote`) of the selection whose lines all stand, word for word,
/// earlier in the selection: a reply quoting a post the thread already shows.
fn repeated_quotes(doc: &Doc, f: &Facts, nodes: &[NodeId], skip: &mut [bool]) {
    const NO_QUOTE: usize = usize::MAX;
    let is_quote = |i: usize| doc.element(i as NodeId).is_some_and(|e| e.name == "blockquote");
    if !nodes.iter().any(|&r| subtree(doc, r).any(is_quote)) {
        return;
    }
    // Per node of the selection: its nearest quote, itself included (parents come first).
    let mut quote_of = vec![NO_QUOTE; doc.nodes.len()];
    for &r in nodes {
        for i in subtree(doc, r) {
            quote_of[i] = match f.up(i) {
                _ if is_quote(i) => i,
                Some(p) if i != r as usize => quote_of[p],
                _ => NO_QUOTE,
            };
        }
    }
    let lines = lines(doc, f, nodes, skip);
    // Lines after the last quote's are never compared.
    let Some(last) = lines.iter().rposition(|l| quote_of[l.first] != NO_QUOTE) else { return };
    let mut seen: std::collections::HashSet<u64, rustc_hash::FxBuildHasher> = Default::default();
    let mut at = 0;
    while at <= last {
        let quote = quote_of[lines[at].first];
        let end = match quote {
            NO_QUOTE => at + 1,
            _ => lines[at..].iter().position(|l| quote_of[l.first] != quote).map_or(lines.len(), |n| at + n),
        };
        let keys: Vec<(u64, usize)> = lines[at..end].iter().map(|l| line_key(doc, f, l, skip)).collect();
        let mut compared = keys.iter().filter(|&&(_, len)| len >= QUOTE_LINE).peekable();
        if quote != NO_QUOTE && compared.peek().is_some() && compared.all(|(k, _)| seen.contains(k)) {
            lines[at..end].iter().for_each(|l| cut_line(f, l, skip));
        }
        seen.extend(keys.iter().map(|&(k, _)| k));
        at = end;
    }
}

/// Cut every run of at least `lines_least` lines ([`Options::copy_lines`]) that repeats, word
/// for word, at least `least` bytes ([`Options::copy_bytes`]) of the selection's earlier lines:
/// a reply's preview of the post it answers, a section rendered again for another screen. Short
/// lines inside a run go with it. `lines` are the selection's.
fn copies(doc: &Doc, f: &Facts, lines: &[Line], skip: &mut [bool], lines_least: usize, least: usize) {
    let mut seen: std::collections::HashSet<u64, rustc_hash::FxBuildHasher> = Default::default();
    // The run going on: its first line, its compared lines and their bytes, and the line
    // after its last compared one.
    let (mut run, mut compared, mut bytes, mut end) = (0, 0, 0, 0);
    let cut_run = |run: &[Line], compared: usize, bytes: usize, skip: &mut [bool]| {
        if compared >= lines_least.max(1) && bytes >= least {
            run.iter().for_each(|l| cut_line(f, l, skip));
        }
    };
    for (at, l) in lines.iter().enumerate() {
        let (key, len) = line_key(doc, f, l, skip);
        if len < QUOTE_LINE {
            continue;
        }
        if seen.insert(key) {
            cut_run(&lines[run..end], compared, bytes, skip);
            (compared, bytes) = (0, 0);
        } else {
            if compared == 0 {
                run = at;
            }
            (compared, bytes, end) = (compared + 1, bytes + len, at + 1);
        }
    }
    cut_run(&lines[run..end], compared, bytes, skip);
}

/// A line as it is compared: a hash of its words (runs of letters and digits, lowercased),
/// and their bytes with one separator each.
fn line_key(doc: &Doc, f: &Facts, l: &Line, skip: &[bool]) -> (u64, usize) {
    use std::hash::Hasher;
    let (mut hash, mut len, mut in_word) = (rustc_hash::FxHasher::default(), 0, false);
    for (i, &cut) in skip.iter().enumerate().take(l.last + 1).skip(l.first) {
        let NodeData::Text(t) = &doc.nodes[i].data else { continue };
        if cut || f.block[i] as usize != l.block {
            continue;
        }
        for c in t.chars().chain([' ']) {
            if c.is_alphanumeric() {
                for c in c.to_lowercase() {
                    hash.write_u32(c as u32);
                    len += c.len_utf8();
                }
                in_word = true;
            } else if in_word {
                hash.write_u8(b' ');
                len += 1;
                in_word = false;
            }
        }
    }
    (hash.finish(), len)
}

/// The nodes of the subtree rooted at `r`, as indexes.
fn subtree(doc: &Doc, r: NodeId) -> std::ops::Range<usize> {
    r as usize..doc.end(r) as usize
}

/// The lines of the selection, in document order, without cut text.
fn lines(doc: &Doc, f: &Facts, nodes: &[NodeId], skip: &[bool]) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    for &r in nodes {
        let end = doc.end(r) as usize;
        for (i, &cut) in skip.iter().enumerate().take(end).skip(r as usize) {
            if cut || !f.text[i] || f.width[i] == 0 {
                continue;
            }
            let block = f.block[i] as usize;
            match out.last_mut() {
                Some(l) if l.block == block => {
                    l.last = i;
                    l.cols += f.width[i];
                }
                _ => out.push(Line { block, first: i, last: i, cols: f.width[i] }),
            }
        }
    }
    out
}

/// The text of a line (its text nodes joined by spaces).
fn line_text(doc: &Doc, f: &Facts, l: &Line, skip: &[bool]) -> String {
    let mut s = String::new();
    for (i, &cut) in skip.iter().enumerate().take(l.last + 1).skip(l.first) {
        if let NodeData::Text(t) = &doc.nodes[i].data {
            if !cut && f.block[i] as usize == l.block {
                s.push_str(t);
                s.push(' ');
            }
        }
    }
    s
}

/// Is the block `b` a heading (or inside one)?
fn heading(doc: &Doc, b: usize) -> bool {
    let is_h = |i: usize| doc.element(i as NodeId).is_some_and(|e| matches!(e.name.as_bytes(), [b'h', b'1'..=b'6']));
    is_h(b) || doc.ancestors(b as NodeId).take(3).any(|a| is_h(a as usize))
}

/// Cut the lines of `l` (its text nodes of its block).
fn cut_line(f: &Facts, l: &Line, skip: &mut [bool]) {
    for (i, s) in skip.iter_mut().enumerate().take(l.last + 1).skip(l.first) {
        if f.block[i] as usize == l.block {
            *s = true;
        }
    }
}

/// Before the first line that starts the body (a paragraph of [`BODY_START`] columns or ending
/// a sentence), cut every line that is no heading or comes before the headline, if they are a
/// small part of the selection.
fn header_zone(doc: &Doc, f: &Facts, lines: &[Line], skip: &mut [bool], headline: Option<NodeId>) {
    let total: u32 = lines.iter().map(|l| l.cols).sum();
    let Some(start) = lines.iter().position(|l| {
        f.para[l.block] && (l.cols >= BODY_START || crate::text::ends_sentence(&line_text(doc, f, l, skip)))
    }) else {
        return;
    };
    let zone: u32 = lines[..start].iter().filter(|l| !heading(doc, l.block)).map(|l| l.cols).sum();
    if zone as f32 > HEADER_SHARE * total as f32 {
        return;
    }
    for l in &lines[..start] {
        let before_headline = headline.is_some_and(|h| l.last < h as usize);
        // A data table's cells are the page's data, not a byline's or a date's lines.
        if !before_headline && in_table_or_code(doc, l.block) && super::score::data_table(doc, l.block as NodeId) {
            continue;
        }
        if before_headline || !heading(doc, l.block) {
            cut_line(f, l, skip);
        }
    }
}

/// Is `block` a table's cell (its text directly in it) or preformatted text? A line there is
/// data, never a line that ends the article ("Recommended" in a table of fields). (A layout
/// table's cell holds blocks of its own; code inside `pre` has `pre` as its block.)
fn in_table_or_code(doc: &Doc, block: usize) -> bool {
    doc.element(block as NodeId).is_some_and(|e| matches!(e.name.as_str(), "td" | "th" | "pre"))
}

/// Cut from the first terminator line (outside tables and code) that has most of the
/// selection's paragraphs before it; on a `discussion` (declared, or shown by the page's
/// kind), a line naming comments is none.
fn tail(doc: &Doc, f: &Facts, nodes: &[NodeId], lines: &[Line], skip: &mut [bool], discussion: bool) {
    let total: u32 = lines.iter().filter(|l| f.para[l.block]).map(|l| l.cols).sum();
    let mut before = 0u32;
    // On a discussion, a line naming comments heads the posts that follow: it ends nothing.
    let ends = |t: &str| classes::terminator(t) && !(discussion && classes::names_comments(t));
    for l in lines {
        if before as f32 >= TAIL_AFTER * total as f32
            && l.cols <= 60
            && ends(&line_text(doc, f, l, skip))
            && !in_table_or_code(doc, l.block)
        {
            for &r in nodes {
                let end = doc.end(r) as usize;
                for s in skip.iter_mut().take(end).skip(l.first.max(r as usize + 1)) {
                    *s = true;
                }
            }
            return;
        }
        if f.para[l.block] {
            before += l.cols;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_blocks_are_cut_from_an_article_but_not_from_a_page_of_links() {
        // The selection is the block holding prose and a table of links; the table is cut
        // while it is a minority of the selection, kept when it makes most of it.
        let kept = |paragraphs: usize, rows: usize| {
            let prose = "<p>The prize is given each year in December, with a medal and a diploma.</p>".repeat(paragraphs);
            let rows: String = (0..rows).map(|i| format!("<tr><td><a href=/p{i}>Laureate number {i}</a></td></tr>")).collect();
            let doc = crate::clean::page(&format!("<body><div>{prose}<table>{rows}</table></div></body>"));
            let opts = Options::default();
            let f = Facts::new(&doc, &opts);
            let root = (0..doc.nodes.len() as NodeId).find(|&i| doc.element(i).is_some_and(|e| e.name.as_str() == "div")).expect("the div");
            let skip = mask(&doc, &f, &[root], &opts, None);
            let text = doc.text_masked(&[root], &skip);
            assert!(text.contains("medal"), "{text}");
            text.contains("Laureate number 0")
        };
        assert!(!kept(10, 3), "a few links beside an article are cut");
        assert!(kept(2, 40), "a table of links that is most of the selection is kept");
    }

    #[test]
    fn a_quote_of_a_post_the_thread_shows_is_cut_and_other_quotes_stay() {
        let post = "I replaced the chain and the cassette, but the gears still skip on the climb.";
        let quoted = |by: &str, text: &str| format!("<blockquote><div>{by} said:</div><p>{text}</p></blockquote>");
        let thread = |reply_quotes: &str| {
            let doc = crate::clean::page(&format!(
                "<body><div class=thread><div class=post><p>{post}</p></div>\
                 <div class=post>{}<p>Check the derailleur hanger: a bent hanger makes the gears skip under load.</p></div>\
                 <div class=post>{}<p>Agreed with both of you, the hanger is the usual cause here.</p></div></div></body>",
                quoted("Ann", reply_quotes),
                quoted("Bob", "The mechanic I asked said the same about the hanger.")
            ));
            let opts = Options::default();
            let f = Facts::new(&doc, &opts);
            let root = (0..doc.nodes.len() as NodeId).find(|&i| doc.element(i).is_some_and(|e| e.attr("class") == Some("thread"))).expect("the thread");
            let on = doc.text_masked(&[root], &mask(&doc, &f, &[root], &opts, None));
            let off = doc.text_masked(&[root], &mask(&doc, &f, &[root], &Options { quotes: false, ..opts }, None));
            (on, off)
        };
        let (on, off) = thread(post);
        assert_eq!(on.matches("gears still skip").count(), 1, "the repeated post is given once: {on}");
        assert!(!on.contains("Ann said"), "its attribution goes with it: {on}");
        assert!(on.contains("The mechanic I asked") && on.contains("Bob said"), "a quote of what the page does not show stays: {on}");
        assert_eq!(off.matches("gears still skip").count(), 2, "{off}");
        let (on, _) = thread("A quote of a post on another page of the thread, not repeated here.");
        assert!(on.contains("another page of the thread"), "{on}");
    }

    #[test]
    fn a_copy_of_an_article_s_worth_of_earlier_text_is_cut_and_recurring_fine_print_stays() {
        // A thread whose reply shows a preview of the post it answers (the post again, over
        // 500 bytes of words, in a plain `div`), and three plans whose cards repeat the same
        // two short terms.
        let first = "<p>The boiler loses pressure overnight, about half a bar, and I have checked every radiator valve for drips without finding any.</p>\
                     <p>The expansion vessel was recharged last spring, so I doubt it is that; the pressure relief valve outlet is dry as well.</p>\
                     <p>Could a slow leak under the floor explain it, and how would I find one without lifting all the boards in the house?</p>\
                     <p>The engineer who serviced it in the autumn found nothing, but he only tested the boiler itself, not the pipes.</p>\
                     <p>It is a sealed system of twelve radiators on two floors, fitted in 2015, with a filter on the return pipe.</p>";
        let terms = "<p>Prices include the first visit and every part fitted within the year.</p><p>Cancel at any time before the next month starts.</p>";
        let plan = |name: &str| format!("<div class=plan><h3>{name}</h3>{terms}</div>");
        let doc = crate::clean::page(&format!(
            "<body><div class=page><div class=post>{first}</div>\
             <div class=post><div class=parent>{first}</div><p>A pressure drop with dry valves is nearly always a leak on the heating circuit; start with the pipes under the boiler.</p></div>\
             {}{}{}</div></body>",
            plan("Basic"),
            plan("Plus"),
            plan("Complete")
        ));
        let opts = Options::default();
        let f = Facts::new(&doc, &opts);
        let root = (0..doc.nodes.len() as NodeId).find(|&i| doc.element(i).is_some_and(|e| e.attr("class") == Some("page"))).expect("the page");
        let on = doc.text_masked(&[root], &mask(&doc, &f, &[root], &opts, None));
        let off = doc.text_masked(&[root], &mask(&doc, &f, &[root], &Options { copies: false, ..opts }, None));
        assert_eq!(on.matches("loses pressure overnight").count(), 1, "the preview of the first post goes: {on}");
        assert_eq!(on.matches("engineer who serviced it").count(), 1, "{on}");
        assert!(on.contains("nearly always a leak"), "the reply stays: {on}");
        assert_eq!(on.matches("Cancel at any time").count(), 3, "each plan keeps its terms: {on}");
        assert_eq!(off.matches("loses pressure overnight").count(), 2, "{off}");
    }
}
