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
use crate::clean::{NodeId, Tree};
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
    pub fn of<T: Tree>(doc: &T) -> Layout {
        let mut steps = vec![0u64; doc.node_count()];
        let mut paths = Vec::new();
        for i in 0..doc.node_count() {
            let n = i as NodeId;
            let Some(tag) = doc.tag(n) else { continue };
            steps[i] = if matches!(tag, "html" | "body") { hash_str(tag) } else { step_hash(doc, n) };
            let mut h = steps[i];
            let mut up = doc.parent(n);
            for _ in 1..STEPS {
                let Some(p) = up else { break };
                h = mix(steps[p as usize], h);
                up = doc.parent(p);
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
        jaccard(self.shared(other), self.paths.len(), other.paths.len())
    }

    /// The share of this (template) layout's paths that `page` holds.
    pub fn fit(&self, page: &Layout) -> f64 {
        if self.paths.is_empty() {
            return 1.0;
        }
        self.shared(page) as f64 / self.paths.len() as f64
    }
}

/// The Jaccard similarity of two sets of sizes `a` and `b` that share `shared` members (1 for
/// two empty sets).
fn jaccard(shared: usize, a: usize, b: usize) -> f64 {
    let union = a + b - shared;
    if union == 0 {
        1.0
    } else {
        shared as f64 / union as f64
    }
}

/// Groups of pages that share a template: average-linkage clustering, merging the two most
/// similar groups while their mean pairwise similarity is at least [`SAME_TEMPLATE`] (of pairs
/// equally similar, the first in page order). Groups come largest first (ties: the one whose
/// first page comes first), pages in input order.
///
/// The sums of pairwise similarities between groups are kept and updated on each merge, and
/// each group remembers its most similar later group, so a merge looks again only at the rows
/// it changed: about n² cheap steps for n pages (n³ at worst).
pub fn cluster(layouts: &[Layout]) -> Vec<Vec<usize>> {
    let n = layouts.len();
    // sum.get(a, b): Σ similarity over the pairs of pages of groups a and b.
    let mut sum = pair_sums(layouts);
    let mut groups: Vec<Option<Vec<usize>>> = (0..n).map(|i| Some(vec![i])).collect();
    // The most similar later group of each group a: its mean similarity and index, the
    // first of equals.
    let row_best = |groups: &[Option<Vec<usize>>], sum: &Pairs, a: usize| -> Option<(f64, usize)> {
        let ga = groups[a].as_ref()?;
        let mut best: Option<(f64, usize)> = None;
        for (b, gb) in groups.iter().enumerate().skip(a + 1) {
            let Some(gb) = gb else { continue };
            let mean = sum.get(a, b) / (ga.len() * gb.len()) as f64;
            if best.is_none_or(|(s, _)| mean > s) {
                best = Some((mean, b));
            }
        }
        best
    };
    let mut best: Vec<Option<(f64, usize)>> = (0..n).map(|a| row_best(&groups, &sum, a)).collect();
    loop {
        // The first pair of the highest mean, as a scan of all pairs in order finds it.
        let mut top: Option<(f64, usize, usize)> = None;
        for (a, row) in best.iter().enumerate() {
            if let Some((mean, b)) = *row {
                if top.is_none_or(|(s, _, _)| mean > s) {
                    top = Some((mean, a, b));
                }
            }
        }
        let Some((_, a, b)) = top.filter(|&(s, _, _)| s >= SAME_TEMPLATE) else { break };
        merge(&mut groups, &mut sum, a, b);
        best[b] = None;
        best[a] = row_best(&groups, &sum, a);
        // Earlier groups see a's new mean; a group that had a or b as its best looks again,
        // and so does a group between a and b whose best was b.
        for c in 0..b {
            let Some((mean, d)) = best[c].filter(|_| c != a) else { continue };
            if d == a || d == b {
                best[c] = row_best(&groups, &sum, c);
            } else if c < a {
                let (ga, gc) = (groups[a].as_ref().map_or(1, Vec::len), groups[c].as_ref().map_or(1, Vec::len));
                let to_a = sum.get(c, a) / (ga * gc) as f64;
                if to_a > mean || (to_a == mean && a < d) {
                    best[c] = Some((to_a, a));
                }
            }
        }
    }
    largest_first(groups)
}

/// A value per pair of distinct groups (or pages), `get(a, b) == get(b, a)`: half a square
/// table, as the pairs are unordered.
struct Pairs {
    n: usize,
    v: Vec<f64>,
}

impl Pairs {
    fn new(n: usize) -> Pairs {
        Pairs { n, v: vec![0.0; n * n.saturating_sub(1) / 2] }
    }

    /// Where the pair of `a` and `b` (distinct) is kept: the rows of the smaller, each
    /// holding the larger ones.
    fn at(&self, a: usize, b: usize) -> usize {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        lo * (2 * self.n - lo - 1) / 2 + (hi - lo - 1)
    }

    fn get(&self, a: usize, b: usize) -> f64 {
        self.v[self.at(a, b)]
    }

    fn set(&mut self, a: usize, b: usize, value: f64) {
        let i = self.at(a, b);
        self.v[i] = value;
    }
}

/// The similarity of each pair of pages a and b (the sums of groups of one page each).
///
/// The paths shared by a pair are counted by membership, not by merging two sorted lists: the
/// site's distinct paths are numbered once, page a's are set in a bit table, and each later
/// page counts its paths found there (the same counts, with no branch per path).
fn pair_sums(layouts: &[Layout]) -> Pairs {
    let n = layouts.len();
    let mut sum = Pairs::new(n);
    let mut all: Vec<u32> = layouts.iter().flat_map(|l| l.paths.iter().copied()).collect();
    all.sort_unstable();
    all.dedup();
    // Each page's paths as numbers into `all` (both sorted: each search starts where the last
    // one stopped).
    let numbered: Vec<Vec<u32>> = layouts
        .iter()
        .map(|l| {
            let mut at = 0usize;
            l.paths
                .iter()
                .map(|p| {
                    at += all[at..].partition_point(|q| q < p);
                    at as u32
                })
                .collect()
        })
        .collect();
    let mut bits = vec![0u64; all.len().div_ceil(64)];
    for i in 0..n {
        for &p in &numbered[i] {
            bits[p as usize >> 6] |= 1 << (p & 63);
        }
        for j in i + 1..n {
            let shared: usize = numbered[j].iter().map(|&p| ((bits[p as usize >> 6] >> (p & 63)) & 1) as usize).sum();
            let s = jaccard(shared, layouts[i].paths.len(), layouts[j].paths.len());
            sum.set(i, j, s);
        }
        for &p in &numbered[i] {
            bits[p as usize >> 6] = 0;
        }
    }
    sum
}

/// Merge group b into group a: their pages, and their sums of similarity to every group.
fn merge(groups: &mut [Option<Vec<usize>>], sum: &mut Pairs, a: usize, b: usize) {
    let merged = groups[b].take().unwrap_or_default();
    for c in (0..groups.len()).filter(|&c| c != a && c != b) {
        sum.set(a, c, sum.get(a, c) + sum.get(b, c));
    }
    if let Some(ga) = groups[a].as_mut() {
        ga.extend(merged);
        ga.sort_unstable();
    }
}

/// The groups left, largest first (ties: the one whose first page comes first), pages in
/// input order.
fn largest_first(groups: Vec<Option<Vec<usize>>>) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = groups.into_iter().flatten().collect();
    out.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The clustering as first written: every pair scanned on every merge (the oracle).
    fn cluster_plain(layouts: &[Layout]) -> Vec<Vec<usize>> {
        let n = layouts.len();
        let mut sum = pair_sums(layouts);
        let mut groups: Vec<Option<Vec<usize>>> = (0..n).map(|i| Some(vec![i])).collect();
        loop {
            let mut best: Option<(f64, usize, usize)> = None;
            for a in 0..n {
                let Some(ga) = &groups[a] else { continue };
                for (b, gb) in groups.iter().enumerate().skip(a + 1) {
                    let Some(gb) = gb else { continue };
                    let mean = sum.get(a, b) / (ga.len() * gb.len()) as f64;
                    if best.is_none_or(|(s, _, _)| mean > s) {
                        best = Some((mean, a, b));
                    }
                }
            }
            let Some((_, a, b)) = best.filter(|&(s, _, _)| s >= SAME_TEMPLATE) else { break };
            merge(&mut groups, &mut sum, a, b);
        }
        largest_first(groups)
    }

    #[test]
    fn clustering_merges_as_a_scan_of_every_pair_would_and_pairs_count_as_merged_lists() {
        // Pseudo-random layouts drawn from a few templates with noise, and exact copies (ties).
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..40 {
            let n = 2 + (next() % 60) as usize;
            let templates = 1 + (next() % 5) as u32;
            let layouts: Vec<Layout> = (0..n)
                .map(|_| {
                    let t = (next() % u64::from(templates)) as u32;
                    let mut paths: Vec<u32> = (0..20).map(|p| t * 1000 + p).collect();
                    let noise = next() % (3 + round % 20);
                    for _ in 0..noise {
                        paths.push((next() % 5000) as u32);
                    }
                    if next() % 4 == 0 {
                        paths.truncate(10);
                    }
                    paths.sort_unstable();
                    paths.dedup();
                    Layout { paths }
                })
                .collect();
            let sums = pair_sums(&layouts);
            for (i, a) in layouts.iter().enumerate() {
                for (j, b) in layouts.iter().enumerate().filter(|&(j, _)| j != i) {
                    assert_eq!(sums.get(i, j).to_bits(), a.similarity(b).to_bits(), "round {round}: pages {i}, {j}");
                }
            }
            assert_eq!(cluster(&layouts), cluster_plain(&layouts), "round {round}");
        }
    }

    fn layout(html: &str) -> Layout {
        let doc = crate::clean::page(html);
        let layout = Layout::of(&doc);
        assert_eq!(Layout::of(&crate::clean::Shape::of(&doc)).paths, layout.paths, "a page's shape has its layout");
        layout
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
