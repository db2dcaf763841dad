//! CETR: content extraction by the text-to-tag ratio of each line of the HTML source
//! (T. Weninger and W. H. Hsu, "Text Extraction from the Web via Text-to-Tag Ratio", DEXA
//! workshops 2008; T. Weninger, W. H. Hsu and J. Han, "CETR — Content Extraction via Tag
//! Ratios", WWW 2010), re-implemented from the papers.
//!
//! The method reads the markup as it was written, line by line, so it needs the page's source
//! ([`Page::source`], kept by the bench's gold pages):
//! 1. scripts, styles and comments are removed, then empty lines;
//! 2. each line gets its *text-to-tag ratio*: characters outside tags over the number of tags
//!    that start on the line, or the character count when no tag starts there;
//! 3. the ratios are smoothed by a Gaussian kernel (radius 3, σ = 1);
//! 4. lines are clustered into content and not: by default the 2008 paper's threshold, a line is
//!    content when its smoothed ratio is at least λ standard deviations of the page's smoothed
//!    ratios (λ = 1); with [`Clustering::KMeans`] (`cetr-km`), the 2010 paper's 2-D k-means
//!    (k = 3, one centroid held at the origin) over the smoothed ratio and its absolute
//!    smoothed derivative (α = 3), a line being content unless it falls in the origin's cluster.
//!
//! The article is the text outside tags of the content lines, entities decoded, one line per
//! line.

use super::Method;
use crate::extract::{Extraction, Extractor, Rule};
use crate::{Error, Page, Result};

/// How CETR splits lines into content and not.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Clustering {
    /// Content when the smoothed ratio is at least `lambda` standard deviations (2008).
    Threshold {
        /// The number of standard deviations.
        lambda: f64,
    },
    /// 2-D k-means, k = 3, one centroid fixed at the origin (2010's CETR-KM).
    KMeans,
}

/// CETR as a bench method (`cetr`: threshold, λ = 1; `cetr-km`: k-means).
#[derive(Debug, Clone, Copy)]
pub struct Cetr {
    /// How lines are clustered.
    pub clustering: Clustering,
}

/// Radius of the Gaussian smoothing kernel, in lines.
const RADIUS: usize = 3;
/// Standard deviation of the Gaussian kernel, in lines.
const SIGMA: f64 = 1.0;
/// Lines ahead that the derivative averages over (the 2010 paper's α).
const ALPHA: usize = 3;
/// Rounds of k-means at most.
const KMEANS_ROUNDS: usize = 50;

impl Cetr {
    fn method_name(&self) -> &'static str {
        match self.clustering {
            Clustering::Threshold { .. } => "cetr",
            Clustering::KMeans => "cetr-km",
        }
    }
}

impl Extractor for Cetr {
    fn name(&self) -> &str {
        self.method_name()
    }

    fn extract(&self, page: &Page) -> Result<Extraction> {
        let source = page.source.as_deref().ok_or_else(|| {
            Error::Invalid(format!("CETR reads the HTML source, which page {:?} was not read with (PageOptions::keep_source)", page.id))
        })?;
        Ok(Extraction::new(Vec::new(), extract(source, self.clustering), Rule::SinglePage))
    }
}

impl Method for Cetr {
    fn name(&self) -> &str {
        self.method_name()
    }
    fn fit(&self, _samples: &[&Page]) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(*self))
    }
    fn single_page(&self) -> bool {
        true
    }
}

/// The article text of `html` by CETR.
///
/// # Example
/// ```
/// use forest::bench::baselines::cetr::{extract, Clustering};
/// let menu: String = (0..10).map(|i| format!("<li><a href=/{i}>Menu{i}</a></li>\n")).collect();
/// let story = "<p>A long paragraph of article text, far more characters than tags on its line.</p>\n";
/// let html = format!("<html><body>\n<ul>\n{menu}</ul>\n{}<ul>\n{menu}</ul>\n</body></html>", story.repeat(3));
/// let text = extract(&html, Clustering::Threshold { lambda: 1.0 });
/// assert_eq!(text.matches("A long paragraph").count(), 3);
/// assert!(!text.contains("Menu0"));
/// ```
pub fn extract(html: &str, clustering: Clustering) -> String {
    let lines = lines(&strip_hidden(html));
    let ratios: Vec<f64> = lines.iter().map(Line::ratio).collect();
    let smooth = smooth(&ratios);
    let content = match clustering {
        Clustering::Threshold { lambda } => {
            let cut = lambda * std_dev(&smooth);
            smooth.iter().map(|&r| r >= cut && r > 0.0).collect()
        }
        Clustering::KMeans => kmeans(&smooth, &derivative(&smooth)),
    };
    lines
        .iter()
        .zip(content)
        .filter(|(line, content): &(&Line, bool)| *content && !line.text.trim().is_empty())
        .map(|(line, _)| decode_entities(line.text.trim()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One non-empty line of the source: its text outside tags and the tags starting on it.
#[derive(Debug, Default)]
struct Line {
    text: String,
    tags: usize,
}

impl Line {
    /// The text-to-tag ratio: characters outside tags per tag (white space at the ends of the
    /// text left out), or the character count when no tag starts on the line.
    fn ratio(&self) -> f64 {
        let chars = self.text.trim().chars().count() as f64;
        if self.tags == 0 {
            chars
        } else {
            chars / self.tags as f64
        }
    }
}

/// `html` without scripts, styles and comments (their content and markup removed).
fn strip_hidden(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let lower = html.to_ascii_lowercase();
    let mut i = 0;
    while i < html.len() {
        let rest = &lower[i..];
        let Some(next) = rest.find('<') else {
            out.push_str(&html[i..]);
            break;
        };
        let at = i + next;
        out.push_str(&html[i..at]);
        let here = &lower[at..];
        let skip_to = if let Some(comment) = here.strip_prefix("<!--") {
            comment.find("-->").map_or(html.len(), |e| at + 4 + e + 3)
        } else if let Some(tag) = ["script", "style"].into_iter().find(|t| opens(here, t)) {
            let close = format!("</{tag}");
            here.find(&close).map_or(html.len(), |e| {
                let end = at + e;
                lower[end..].find('>').map_or(html.len(), |g| end + g + 1)
            })
        } else {
            out.push('<');
            at + 1
        };
        i = skip_to;
    }
    out
}

/// Does `s` start with the start tag `<tag` (followed by `>`, `/` or white space)?
fn opens(s: &str, tag: &str) -> bool {
    s.strip_prefix('<')
        .and_then(|r| r.strip_prefix(tag))
        .is_some_and(|r| r.starts_with(|c: char| c == '>' || c == '/' || c.is_ascii_whitespace()))
}

/// The source's non-empty lines, each with its text outside tags and its tag count. A tag
/// that spans lines counts on the line where it starts; its later lines are inside it.
fn lines(html: &str) -> Vec<Line> {
    let mut out = Vec::new();
    let mut in_tag = false;
    for raw in html.lines() {
        if raw.trim().is_empty() {
            continue;
        }
        let mut line = Line::default();
        let mut chars = raw.chars().peekable();
        while let Some(c) = chars.next() {
            if in_tag {
                in_tag = c != '>';
            } else if c == '<' && chars.peek().is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?')) {
                in_tag = true;
                line.tags += 1;
            } else {
                line.text.push(c);
            }
        }
        // Text on either side of a line break is separate text.
        line.text.push(' ');
        out.push(line);
    }
    out
}

/// Gaussian smoothing (radius [`RADIUS`], σ [`SIGMA`]), the kernel renormalized at the ends.
fn smooth(x: &[f64]) -> Vec<f64> {
    let kernel: Vec<f64> = (0..=2 * RADIUS)
        .map(|j| {
            let d = j as f64 - RADIUS as f64;
            (-d * d / (2.0 * SIGMA * SIGMA)).exp()
        })
        .collect();
    (0..x.len())
        .map(|i| {
            let (mut sum, mut weight) = (0.0, 0.0);
            for (j, w) in kernel.iter().enumerate() {
                let Some(k) = (i + j).checked_sub(RADIUS) else { continue };
                if let Some(v) = x.get(k) {
                    sum += w * v;
                    weight += w;
                }
            }
            if weight > 0.0 {
                sum / weight
            } else {
                0.0
            }
        })
        .collect()
}

/// The absolute smoothed derivative: |mean of the next α values − this value|.
fn derivative(x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let ahead = &x[i..(i + ALPHA).min(x.len())];
            let mean = ahead.iter().sum::<f64>() / ahead.len().max(1) as f64;
            (mean - x[i]).abs()
        })
        .collect()
}

/// Population standard deviation (0 for none).
fn std_dev(x: &[f64]) -> f64 {
    if x.is_empty() {
        return 0.0;
    }
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    (x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n).sqrt()
}

/// 2-D k-means (k = 3) over (ratio, derivative), one centroid held at the origin; a line is
/// content unless it ends in the origin's cluster. The free centroids start at the points of
/// the largest and the median ratio, so the result is deterministic.
fn kmeans(ratio: &[f64], deriv: &[f64]) -> Vec<bool> {
    let points: Vec<(f64, f64)> = ratio.iter().copied().zip(deriv.iter().copied()).collect();
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| points[a].0.total_cmp(&points[b].0));
    let (Some(&top), Some(&mid)) = (order.last(), order.get(order.len() / 2)) else {
        return Vec::new();
    };
    let mut centroids = [(0.0, 0.0), points[top], points[mid]];
    let mut assign = vec![0usize; points.len()];
    for _ in 0..KMEANS_ROUNDS {
        let mut changed = false;
        for (p, a) in points.iter().zip(assign.iter_mut()) {
            let d = |c: &(f64, f64)| (p.0 - c.0).powi(2) + (p.1 - c.1).powi(2);
            let best = (0..3).min_by(|&x, &y| d(&centroids[x]).total_cmp(&d(&centroids[y]))).unwrap_or(0);
            changed |= best != *a;
            *a = best;
        }
        for (k, c) in centroids.iter_mut().enumerate().skip(1) {
            let members: Vec<&(f64, f64)> = points.iter().zip(&assign).filter(|(_, &a)| a == k).map(|(p, _)| p).collect();
            if !members.is_empty() {
                let n = members.len() as f64;
                *c = (members.iter().map(|p| p.0).sum::<f64>() / n, members.iter().map(|p| p.1).sum::<f64>() / n);
            }
        }
        if !changed {
            break;
        }
    }
    assign.into_iter().map(|a| a != 0).collect()
}

/// `s` with character references decoded: numeric ones and the common named ones (others
/// are left as written).
fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let decoded = rest.get(1..).and_then(|r| r.find(';').filter(|&e| e <= 10).map(|e| (&r[..e], e + 2))).and_then(
            |(name, len)| {
                let c = match name {
                    "amp" => '&',
                    "lt" => '<',
                    "gt" => '>',
                    "quot" => '"',
                    "apos" => '\'',
                    "nbsp" => ' ',
                    "mdash" => '—',
                    "ndash" => '–',
                    "hellip" => '…',
                    "lsquo" => '‘',
                    "rsquo" => '’',
                    "ldquo" => '“',
                    "rdquo" => '”',
                    _ => {
                        let num = name.strip_prefix('#')?;
                        let code = match num.strip_prefix(['x', 'X']) {
                            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                            None => num.parse().ok()?,
                        };
                        char::from_u32(code)?
                    }
                };
                Some((c, len))
            },
        );
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page as people write them: a menu of a dozen link lines (two tags and a word each:
    /// ratio ~3), three lines of article text (one tag pair and ~90 characters: ratio ~45), a
    /// footer of a dozen link lines. One standard deviation of the smoothed ratios falls
    /// between the two; k-means puts the menu and footer in the origin's cluster. Smoothing
    /// spreads the article's ratio a line or two either way, so only the lines far from it are
    /// asserted out.
    fn page() -> String {
        let para = "The council voted on Tuesday to repair the old bridge over the river before the floods.";
        let menu: String = (0..12).map(|i| format!("<li><a href=/{i}>Menu{i}</a></li>\n")).collect();
        let foot: String = (0..12).map(|i| format!("<li><a href=/f{i}>Foot{i}</a></li>\n")).collect();
        format!(
            "<html><head><title>Bridge</title>\n<script>\nvar x = '<p>not text</p>';\n</script>\n<style>p {{}}</style></head>\n\
             <body>\n<ul>\n{menu}</ul>\n\n\n\
             <p>{para}</p>\n<p>{para} Work starts in May &amp; ends in June.</p>\n<p>{para}</p>\n\
             <!-- a comment\nover lines -->\n<ul>\n{foot}</ul>\n</body></html>"
        )
    }

    #[test]
    fn keeps_the_lines_dense_in_text() {
        for clustering in [Clustering::Threshold { lambda: 1.0 }, Clustering::KMeans] {
            let text = extract(&page(), clustering);
            assert_eq!(text.matches("The council voted").count(), 3, "{clustering:?}: {text}");
            assert!(text.contains("May & ends"), "{text}");
            for boiler in ["Menu0", "Menu5", "Foot6", "Foot11", "not text", "comment", "Bridge"] {
                assert!(!text.contains(boiler), "{clustering:?}: {boiler} in {text}");
            }
        }
    }

    #[test]
    fn ratio_is_text_per_tag_or_length() {
        let lines = lines("<p>abcd</p><b>ef</b>\nplain text\n   \n<a\nhref=x>link</a>");
        assert_eq!(lines.len(), 4);
        assert_eq!((lines[0].tags, lines[0].ratio()), (4, 1.5));
        assert_eq!((lines[1].tags, lines[1].ratio()), (0, 10.0));
        // The tag spanning two lines counts on the first; its rest is not text.
        assert_eq!(lines[2].tags, 1);
        assert_eq!((lines[3].tags, lines[3].text.trim()), (1, "link"));
    }

    #[test]
    fn scripts_styles_and_comments_go() {
        assert_eq!(strip_hidden("a<script src=x>b</script>c<!--d-->e<STYLE>f</style >g<scripts>"), "aceg<scripts>");
        assert_eq!(strip_hidden("a<!-- never closed"), "a");
    }

    #[test]
    fn page_without_source_is_an_error() {
        let page = Page::from_html("p", "<p>text</p>").expect("page");
        let cetr = Cetr { clustering: Clustering::KMeans };
        assert!(matches!(cetr.extract(&page), Err(Error::Invalid(_))));
    }

    #[test]
    fn entities() {
        assert_eq!(decode_entities("a &amp; b &#233; &#x41; &bogus; &"), "a & b é A &bogus; &");
    }
}
