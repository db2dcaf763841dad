//! The ArticleExtractor filter chain, in the published order and with the published
//! thresholds.

use super::*;

/// The ArticleExtractor chain, in order.
pub(super) fn run_article_chain(blocks: &mut Vec<Block>, title: &str) {
    terminating_blocks(blocks);
    TitleMatch::new(title).mark(blocks);
    num_words_rules(blocks);
    ignore_blocks_after_content(blocks, 60);
    trailing_headline_to_boilerplate(blocks);
    proximity_fusion(blocks, false, false);
    remove_boilerplate_keep_title(blocks);
    proximity_fusion(blocks, true, true);
    KeepLargest {
        expand_same_level: true,
        min_words: 150,
    }
    .apply(blocks);
    expand_title_to_content(blocks);
    large_block_same_level_to_content(blocks);
    list_at_end(blocks);
}

/// TerminatingBlocksFinder: label short blocks that announce the end of the article.
pub(super) fn terminating_blocks(blocks: &mut [Block]) {
    for b in blocks.iter_mut().filter(|b| b.words < 15) {
        let text = b.text.trim();
        if text.encode_utf16().count() >= 8 {
            let lc = text.to_lowercase();
            let ends = lc.starts_with("comments")
                || starts_with_number_then(&lc, &[" comments", " users responded in"])
                || lc.starts_with("© reuters")
                || lc.starts_with("please rate this")
                || lc.starts_with("post a comment")
                || [
                    "what you think...",
                    "add your comment",
                    "add comment",
                    "reader views",
                    "have your say",
                    "reader comments",
                    "rätta artikeln",
                ]
                .iter()
                .any(|k| lc.contains(k))
                || lc == "thanks for your comments - this feedback is now closed";
            if ends {
                b.labels |= END_OF_TEXT;
            }
        } else if b.link_density() == 1.0 && text == "Comment" {
            b.labels |= END_OF_TEXT;
        }
    }
}

/// Does `t` start with ASCII digits directly followed by one of `tails`?
pub(super) fn starts_with_number_then(t: &str, tails: &[&str]) -> bool {
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && tails.iter().any(|tail| t[digits..].starts_with(tail))
}

/// DocumentTitleMatchClassifier: the candidate spellings of the page title in its body.
pub(super) struct TitleMatch {
    pub(super) titles: HashSet<String>,
}

impl TitleMatch {
    pub(super) fn new(title: &str) -> TitleMatch {
        let mut titles = HashSet::new();
        let title = title
            .replace('\u{A0}', " ")
            .replace('\'', "")
            .trim()
            .to_lowercase();
        if title.is_empty() {
            return TitleMatch { titles };
        }
        let seps: [&[char]; 6] = [
            &['|', '»', '-'],
            &['|', '»', ':'],
            &['|', '»', ':', '(', ')'],
            &['|', '»', ':', '(', ')', '-'],
            &['|', '»', ',', ':', '(', ')', '-'],
            &['|', '»', ',', ':', '(', ')', '-', '\u{A0}'],
        ];
        for set in seps {
            let parts = split_at_separators(&title, |c| set.contains(&c), false);
            if let Some(p) = longest_part(&parts) {
                titles.insert(p);
            }
        }
        for sep in ['|', '-'] {
            let parts = split_at_separators(&title, |c| c == sep, true);
            if parts.len() > 1 {
                for p in parts {
                    if !p.contains(".com") && java_word_count(&p) >= 4 {
                        titles.insert(p);
                    }
                }
            }
        }
        titles.insert(without_last_dash_part(&title).to_string());
        titles.insert(without_first_dash_part(&title).to_string());
        titles.insert(title);
        TitleMatch { titles }
    }

    /// Label the first block whose text is one of the title's spellings.
    fn mark(&self, blocks: &mut [Block]) {
        if self.titles.is_empty() {
            return;
        }
        for b in blocks.iter_mut() {
            let text = b
                .text
                .replace('\u{A0}', " ")
                .replace('\'', "")
                .trim()
                .to_lowercase();
            if self.titles.contains(&text) {
                b.labels |= TITLE;
                return;
            }
            let stripped: String = text
                .chars()
                .filter(|c| !matches!(c, '?' | '!' | '.' | '-' | ':'))
                .collect();
            if self.titles.contains(stripped.trim()) {
                b.labels |= TITLE;
                return;
            }
        }
    }
}

/// Split `s` at each separator character with the spaces around it (at least one space on
/// each side when `spaced`), as Java's `String.split` does: trailing empty parts dropped.
pub(super) fn split_at_separators(s: &str, is_sep: impl Fn(char) -> bool, spaced: bool) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut parts = Vec::new();
    let mut part_start = 0;
    let mut i = 0;
    while i < chars.len() {
        if !is_sep(chars[i]) {
            i += 1;
            continue;
        }
        let mut left = i;
        while left > part_start && chars[left - 1] == ' ' {
            left -= 1;
        }
        let mut right = i + 1;
        while right < chars.len() && chars[right] == ' ' {
            right += 1;
        }
        if spaced && (left == i || right == i + 1) {
            i += 1;
            continue;
        }
        parts.push(chars[part_start..left].iter().collect::<String>());
        part_start = right;
        i = right;
    }
    if part_start == 0 && parts.is_empty() {
        return vec![s.to_string()];
    }
    parts.push(chars[part_start..].iter().collect());
    while parts.last().is_some_and(String::is_empty) {
        parts.pop();
    }
    parts
}

/// Number of parts of `p` split at spaces, as Java counts them (a leading empty part counts).
pub(super) fn java_word_count(p: &str) -> usize {
    if !p.contains(' ') {
        return 1;
    }
    let nonempty = p.split(' ').filter(|w| !w.is_empty()).count();
    if nonempty == 0 {
        0
    } else {
        nonempty + usize::from(p.starts_with(' '))
    }
}

/// The part of a split title with the most words (or, failing that, the most characters).
pub(super) fn longest_part(parts: &[String]) -> Option<String> {
    if parts.len() < 2 {
        return None;
    }
    let mut best_words = 0;
    let mut best = "";
    for p in parts.iter().filter(|p| !p.contains(".com")) {
        let words = java_word_count(p);
        if words > best_words || p.chars().count() > best.chars().count() {
            best_words = words;
            best = p;
        }
    }
    let best = best.trim();
    (!best.is_empty()).then(|| best.to_string())
}

/// The title without its last " - …" part (when that part holds no dash).
pub(super) fn without_last_dash_part(t: &str) -> &str {
    match t.rfind('-') {
        Some(d)
            if d >= 1
                && t[..d].ends_with(' ')
                && t[d + 1..].starts_with(' ')
                && t.len() > d + 2 =>
        {
            &t[..d - 1]
        }
        _ => t,
    }
}

/// The title without its first "… - " part (when that part holds no dash).
pub(super) fn without_first_dash_part(t: &str) -> &str {
    match t.find('-') {
        Some(d) if d >= 2 && t[..d].ends_with(' ') && t[d + 1..].starts_with(' ') => &t[d + 2..],
        _ => t,
    }
}

/// NumWordsRulesClassifier: the paper's C4.8 rules on words and link density of the block
/// and of its neighbours.
pub(super) fn num_words_rules(blocks: &mut [Block]) {
    let empty = Block::empty();
    let facts: Vec<(u32, f64)> = blocks.iter().map(|b| (b.words, b.link_density())).collect();
    let at = |i: Option<usize>| -> (u32, f64) {
        i.and_then(|i| facts.get(i).copied())
            .unwrap_or((empty.words, empty.link_density()))
    };
    for (i, b) in blocks.iter_mut().enumerate() {
        let (prev_words, prev_link) = at(i.checked_sub(1));
        let (next_words, _) = at(Some(i + 1));
        let (words, link) = (b.words, b.link_density());
        b.content = if link > 0.333333 {
            false
        } else if prev_link <= 0.555556 {
            words > 16 || next_words > 15 || prev_words > 4
        } else {
            words > 40 || next_words > 17
        };
    }
}

/// IgnoreBlocksAfterContentFilter: after an end-of-text block that follows at least
/// `min_words` full-text words of content, nothing is content.
pub(super) fn ignore_blocks_after_content(blocks: &mut [Block], min_words: u32) {
    let mut words = 0;
    let mut ended = false;
    for b in blocks.iter_mut() {
        if b.content && b.text_density() >= 9.0 {
            words += b.words;
        }
        if b.has(END_OF_TEXT) && words >= min_words {
            ended = true;
        }
        if ended {
            b.content = false;
        }
    }
}

/// TrailingHeadlineToBoilerplateFilter: headings after the last other content are not content.
pub(super) fn trailing_headline_to_boilerplate(blocks: &mut [Block]) {
    for b in blocks.iter_mut().rev().filter(|b| b.content) {
        if b.has(HEADING) {
            b.content = false;
        } else {
            break;
        }
    }
}

/// BlockProximityFusion with a distance of one block: a content block is fused into the block
/// before it when they were adjacent in the page (and, as asked, when that block is content
/// too and when both have the same tag level). Without `content_only` the block before may be
/// boilerplate, which the fusion then makes content: as published, the block just before the
/// article (a menu item, a byline) comes along with it.
pub(super) fn proximity_fusion(blocks: &mut Vec<Block>, content_only: bool, same_level: bool) {
    if blocks.len() < 2 {
        return;
    }
    let start = if content_only {
        match blocks.iter().position(|b| b.content) {
            Some(i) => i,
            None => return,
        }
    } else {
        0
    };
    let mut out: Vec<Block> = blocks.drain(..start).collect();
    let mut rest = blocks.drain(..);
    let Some(mut prev) = rest.next() else { return };
    for b in rest {
        let adjacent = i64::from(b.first) - i64::from(prev.last) - 1 <= 1;
        let fuse = b.content
            && adjacent
            && (!content_only || prev.content)
            && (!same_level || prev.level == b.level);
        if fuse {
            prev.fuse(b);
        } else {
            out.push(std::mem::replace(&mut prev, b));
        }
    }
    out.push(prev);
    *blocks = out;
}

/// BoilerplateBlockFilter: drop non-content blocks, but the title.
pub(super) fn remove_boilerplate_keep_title(blocks: &mut Vec<Block>) {
    blocks.retain(|b| b.content || b.has(TITLE));
}

/// KeepLargestBlockFilter: only the content block with most words stays content; with
/// `expand_same_level`, big blocks at its tag level (not across a shallower block) join it.
pub(super) struct KeepLargest {
    expand_same_level: bool,
    min_words: u32,
}

impl KeepLargest {
    fn apply(&self, blocks: &mut [Block]) {
        if blocks.len() < 2 {
            return;
        }
        let mut largest: Option<usize> = None;
        for (i, b) in blocks.iter().enumerate().filter(|(_, b)| b.content) {
            if largest.is_none_or(|l| b.words > blocks[l].words) {
                largest = Some(i);
            }
        }
        for (i, b) in blocks.iter_mut().enumerate() {
            if Some(i) == largest {
                b.content = true;
                b.labels |= VERY_LIKELY_CONTENT;
            } else {
                b.content = false;
                b.labels |= MIGHT_BE_CONTENT;
            }
        }
        let Some(n) = largest.filter(|_| self.expand_same_level) else {
            return;
        };
        let level = blocks[n].level;
        let widen = |b: &mut Block| {
            if b.level < level {
                return false;
            }
            if b.level == level && b.words >= self.min_words {
                b.content = true;
            }
            true
        };
        for b in blocks[..n].iter_mut().rev() {
            if !widen(b) {
                break;
            }
        }
        for b in blocks[n..].iter_mut() {
            if !widen(b) {
                break;
            }
        }
    }
}

/// ExpandTitleToContentFilter: blocks between the title and the first content block that
/// were content before [`KeepLargest`] are content again.
pub(super) fn expand_title_to_content(blocks: &mut [Block]) {
    let mut title = None;
    let mut content_start = None;
    for (i, b) in blocks.iter().enumerate() {
        if content_start.is_none() && b.has(TITLE) {
            title = Some(i);
        }
        if content_start.is_none() && b.content {
            content_start = Some(i);
        }
    }
    let (Some(title), Some(start)) = (title, content_start) else {
        return;
    };
    if start <= title {
        return;
    }
    for b in blocks[title..start]
        .iter_mut()
        .filter(|b| b.has(MIGHT_BE_CONTENT))
    {
        b.content = true;
    }
}

/// LargeBlockSameTagLevelToContentFilter: blocks of at least 100 words at the tag level of the
/// largest block are content.
pub(super) fn large_block_same_level_to_content(blocks: &mut [Block]) {
    let Some(level) = blocks
        .iter()
        .find(|b| b.content && b.has(VERY_LIKELY_CONTENT))
        .map(|b| b.level)
    else {
        return;
    };
    for b in blocks.iter_mut().filter(|b| !b.content) {
        if b.words >= 100 && b.level == level {
            b.content = true;
        }
    }
}

/// ListAtEndFilter: link-free list items nested below the main content, right after it, are
/// content.
pub(super) fn list_at_end(blocks: &mut [Block]) {
    let mut level = i32::MAX;
    for b in blocks.iter_mut() {
        if b.content && b.has(VERY_LIKELY_CONTENT) {
            level = b.level;
        } else if b.level > level && b.has(MIGHT_BE_CONTENT) && b.has(LI) && b.link_density() == 0.0
        {
            b.content = true;
        } else {
            level = i32::MAX;
        }
    }
}
