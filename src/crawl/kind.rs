//! Which pages of a crawled site are articles: a listing (a home, category, tag, author or
//! archive page, a page of its pagination) is made of pieces of other pages of the site (their
//! titles and summaries), while an article's text is its own.
//!
//! Each page's visible text is cut into overlapping runs of [`SHINGLE_WORDS`] words (hashed; a
//! fixed quarter of them kept, the same on every page). A run found on more than half the
//! site's pages is the site's template and left out. Of the rest, a run is a *piece* of another
//! page when that page holds it and holds less than half of this page's runs: a listing's runs
//! are pieces of the articles it lists, each holding a small part of it, while an article's runs
//! are held, if anywhere, by pages that hold most of it (a listing that shows whole posts).
//! The text read is the page's text outside links, so a list of related or recent posts (their
//! titles, linked) does not make an article a listing.
//!
//! Then pages of one URL shape (path shape and query parameter names) are of one kind
//! ([`by_shape`]): a shape of three or more pages, at least two thirds of them of one kind, has
//! that kind for all of them (the last page of a pagination holding one summary, a short article
//! beside long related titles).

use std::collections::HashMap;

/// Words in a run.
pub const SHINGLE_WORDS: usize = 5;

/// One run in this many is kept (by its hash: the same runs on every page).
const KEEP_ONE_IN: u64 = 4;

/// Fewest kept runs of a page's own text (about 16 words): fewer is a page with no text of its
/// own beyond the site's template.
const MIN_OWN: usize = 4;

/// What a page's text says it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    /// Its text is its own: an article (or a page of its own, such as "about").
    Own,
    /// Most of its text is pieces of other pages: a listing.
    Listing,
    /// No text beyond the site's template.
    NoText,
}

/// The kept runs of `text`, sorted and without repeats.
pub fn shingles(text: &str) -> Vec<u64> {
    let words: Vec<String> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
    let mut out: Vec<u64> = words
        .windows(SHINGLE_WORDS)
        // The words, a space between, hashed: stable across runs and platforms.
        .map(|w| crate::template::hash_str(&w.join(" ")))
        .filter(|h| h % KEEP_ONE_IN == 0)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The kind of each page, from the runs of every page of the site ([`shingles`]).
pub fn kinds(pages: &[Vec<u64>]) -> Vec<TextKind> {
    let mut holders: HashMap<u64, Vec<u32>> = HashMap::new();
    for (i, runs) in pages.iter().enumerate() {
        for &h in runs {
            holders.entry(h).or_default().push(i as u32);
        }
    }
    let template = |h: &u64| holders.get(h).is_some_and(|p| 2 * p.len() > pages.len());
    pages
        .iter()
        .enumerate()
        .map(|(i, runs)| {
            let own: Vec<u64> = runs.iter().filter(|h| !template(h)).copied().collect();
            if own.len() < MIN_OWN {
                return TextKind::NoText;
            }
            let me = i as u32;
            let mut shared: HashMap<u32, usize> = HashMap::new();
            for h in &own {
                for &p in holders.get(h).into_iter().flatten().filter(|&&p| p != me) {
                    *shared.entry(p).or_default() += 1;
                }
            }
            let minor = |p: u32| shared.get(&p).is_some_and(|&n| 2 * n < own.len());
            let pieces = own.iter().filter(|h| holders.get(h).into_iter().flatten().any(|&p| p != me && minor(p))).count();
            if 2 * pieces > own.len() {
                TextKind::Listing
            } else {
                TextKind::Own
            }
        })
        .collect()
}

/// Each page's kind, as most pages of its URL shape have it: within a shape (`shapes[i]` of
/// page `i`) of at least three pages that are [`TextKind::Own`] or [`TextKind::Listing`], two
/// thirds or more of them of one kind, the others take that kind.
pub fn by_shape(kinds: &mut [TextKind], shapes: &[String]) {
    let mut groups: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, s) in shapes.iter().enumerate() {
        groups.entry(s.as_str()).or_default().push(i);
    }
    for members in groups.values_mut() {
        members.retain(|&i| matches!(kinds[i], TextKind::Own | TextKind::Listing));
        if members.len() < 3 {
            continue;
        }
        for kind in [TextKind::Own, TextKind::Listing] {
            if 3 * members.iter().filter(|&&i| kinds[i] == kind).count() >= 2 * members.len() {
                members.iter().for_each(|&i| kinds[i] = kind);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn story(n: usize) -> String {
        (0..120).map(|w| format!("s{n}w{w}")).collect::<Vec<_>>().join(" ")
    }

    fn teaser(n: usize) -> String {
        (0..25).map(|w| format!("s{n}w{w}")).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn listings_are_pieces_of_articles_and_articles_are_their_own() {
        let menu = "home news sport weather about the gazette contact us subscribe today";
        let mut pages: Vec<String> = (0..8).map(|n| format!("{menu} {}", story(n))).collect();
        // A listing of teasers, a listing of whole stories, and a page of template only.
        pages.push(format!("{menu} {}", (0..8).map(teaser).collect::<Vec<_>>().join(" . ")));
        pages.push(format!("{menu} {} . {}", story(0), story(1)));
        pages.push(menu.to_string());
        let runs: Vec<Vec<u64>> = pages.iter().map(|p| shingles(p)).collect();
        let k = kinds(&runs);
        assert!(k[..8].iter().all(|&k| k == TextKind::Own), "{k:?}");
        assert_eq!(&k[8..], &[TextKind::Listing, TextKind::Listing, TextKind::NoText]);
    }

    #[test]
    fn most_pages_of_a_shape_decide_its_kind() {
        use TextKind::*;
        let mut k = vec![Own, Own, Listing, Own, Listing, Listing, Own, NoText, Own];
        let shapes: Vec<String> = ["*", "*", "*", "*", "tag/*", "tag/*", "tag/*", "*", "about"].iter().map(|s| s.to_string()).collect();
        by_shape(&mut k, &shapes);
        // `*`: 3 of its 4 pages with text are own; `tag/*`: 2 of 3 are listings.
        assert_eq!(k, vec![Own, Own, Own, Own, Listing, Listing, Listing, NoText, Own]);
    }
}
