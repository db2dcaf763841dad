//! Layouts: which pages of a site share a template.
//!
//! One host often serves several templates: a shop's product and collection pages, a news
//! site's articles and its section fronts, one site before and after a redesign. A page's
//! *layout* is the set of its element paths (tags with their tolerant `id`/`class`, root to
//! element, no positions); two pages share a template when their layouts overlap, by Jaccard
//! similarity, at least [`SAME_TEMPLATE`]. [`cluster`] groups a site's sample pages by
//! average-linkage clustering on that similarity, and a wrapper is learned per group; at apply
//! time a page goes to the group whose layout it holds most of ([`Layout::fit`]).

use super::{hash_str, mix, step_hash};
use crate::clean::{Doc, NodeData};
use serde::{Deserialize, Serialize};

/// Two layouts at least this similar (Jaccard over element paths) are one template: most of
/// what one page lays out, the other does too.
pub const SAME_TEMPLATE: f64 = 0.5;

/// Steps in a layout path: an element, its parent and its grandparent.
pub const STEPS: usize = 3;

/// A page fits a template when it holds at least this share of the template's paths.
pub const FITS: f64 = 0.5;

/// The set of element paths of a page (or the paths most pages of a template share), as
/// sorted 32-bit hashes of the path strings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Layout {
    paths: Vec<u32>,
}

impl Layout {
    /// The layout of a page: for every element, its path of [`STEPS`] steps (its own and its
    /// nearest ancestors'). Short paths keep one wrapper `div` that differs from page to page
    /// from making every path below it differ. `html` and `body` count by their tag alone:
    /// their classes name the page (`page-id-42`, `single-post`), not its layout.
    pub fn of(doc: &Doc) -> Layout {
        let mut steps = vec![0u64; doc.nodes.len()];
        let mut paths = Vec::new();
        for (i, node) in doc.nodes.iter().enumerate() {
            let NodeData::Element(e) = &node.data else { continue };
            steps[i] = if matches!(e.name.as_str(), "html" | "body") { hash_str(&e.name) } else { step_hash(doc, i as u32) };
            let mut h = steps[i];
            let mut up = node.parent;
            for _ in 1..STEPS {
                let Some(p) = up else { break };
                h = mix(steps[p as usize], h);
                up = doc.nodes[p as usize].parent;
            }
            paths.push((h ^ (h >> 32)) as u32);
        }
        paths.sort_unstable();
        paths.dedup();
        Layout { paths }
    }

    /// The paths at least half of `layouts` hold: the template they share.
    pub fn common<'a>(layouts: impl IntoIterator<Item = &'a Layout>) -> Layout {
        let mut all: Vec<u32> = Vec::new();
        let mut n = 0usize;
        for l in layouts {
            all.extend_from_slice(&l.paths);
            n += 1;
        }
        all.sort_unstable();
        let mut paths = Vec::new();
        for run in all.chunk_by(|a, b| a == b) {
            if 2 * run.len() >= n {
                paths.push(run[0]);
            }
        }
        Layout { paths }
    }

    /// How many paths.
    pub fn len(&self) -> usize {
        self.paths.len()
    }

    /// No paths at all?
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    fn shared(&self, other: &Layout) -> usize {
        let (mut i, mut j, mut n) = (0, 0, 0);
        while i < self.paths.len() && j < other.paths.len() {
            match self.paths[i].cmp(&other.paths[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    n += 1;
                    i += 1;
                    j += 1;
                }
            }
        }
        n
    }

    /// Jaccard similarity of two layouts (1 for two empty ones).
    pub fn similarity(&self, other: &Layout) -> f64 {
        let shared = self.shared(other);
        let union = self.paths.len() + other.paths.len() - shared;
        if union == 0 {
            1.0
        } else {
            shared as f64 / union as f64
        }
    }

    /// The share of this (template) layout's paths that `page` holds.
    pub fn fit(&self, page: &Layout) -> f64 {
        if self.paths.is_empty() {
            return 1.0;
        }
        self.shared(page) as f64 / self.paths.len() as f64
    }
}

/// Groups of pages that share a template: average-linkage clustering, merging the two most
/// similar groups while their mean pairwise similarity is at least [`SAME_TEMPLATE`]. Groups
/// come largest first (ties: the one whose first page comes first), pages in input order.
///
/// The sums of pairwise similarities between groups are kept and updated on each merge, so a
/// merge costs one pass over the groups: O(n³) cheap steps for n pages at worst.
pub fn cluster(layouts: &[Layout]) -> Vec<Vec<usize>> {
    let n = layouts.len();
    // sum[a][b]: Σ similarity over the pairs of pages of groups a and b.
    let mut sum = vec![vec![0.0f64; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            let s = layouts[i].similarity(&layouts[j]);
            sum[i][j] = s;
            sum[j][i] = s;
        }
    }
    let mut groups: Vec<Option<Vec<usize>>> = (0..n).map(|i| Some(vec![i])).collect();
    loop {
        let mut best: Option<(f64, usize, usize)> = None;
        for a in 0..n {
            let Some(ga) = &groups[a] else { continue };
            for b in a + 1..n {
                let Some(gb) = &groups[b] else { continue };
                let mean = sum[a][b] / (ga.len() * gb.len()) as f64;
                if best.is_none_or(|(s, _, _)| mean > s) {
                    best = Some((mean, a, b));
                }
            }
        }
        let Some((_, a, b)) = best.filter(|&(s, _, _)| s >= SAME_TEMPLATE) else { break };
        let merged = groups[b].take().unwrap_or_default();
        let from_b = sum[b].clone();
        for (c, add) in from_b.into_iter().enumerate() {
            sum[a][c] += add;
            sum[c][a] = sum[a][c];
        }
        if let Some(ga) = groups[a].as_mut() {
            ga.extend(merged);
            ga.sort_unstable();
        }
    }
    let mut out: Vec<Vec<usize>> = groups.into_iter().flatten().collect();
    out.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(html: &str) -> Layout {
        Layout::of(&crate::clean::page(html))
    }

    #[test]
    fn pages_of_one_template_group_and_others_stand_apart() {
        let article = |t: &str| layout(&format!("<body><nav class='menu'><a>x</a></nav><article class='story'><h1>{t}</h1><p>a</p><p>b</p><figure><img><figcaption>c</figcaption></figure><aside class='quote'><blockquote>q</blockquote></aside></article><footer><p>c</p></footer></body>"));
        let product = |t: &str| layout(&format!("<body><nav class='menu'><a>x</a></nav><div class='product'><h2>{t}</h2><table class='specs'><tr><td>1</td></tr></table><ul class='price'><li>9</li></ul><form class='buy'><button>b</button></form></div><footer><p>c</p></footer></body>"));
        let pages = [article("a"), product("p"), article("b"), product("q"), article("c")];
        assert_eq!(pages[0], pages[2], "text does not change a layout");
        assert!(pages[0].similarity(&pages[1]) < SAME_TEMPLATE);
        assert_eq!(cluster(&pages), [vec![0, 2, 4], vec![1, 3]]);
        let t = Layout::common(&pages[..1]);
        assert_eq!(t.fit(&pages[4]), 1.0);
        assert!(t.fit(&pages[1]) < FITS);
        assert_eq!(cluster(&[]), Vec::<Vec<usize>>::new());
    }
}
