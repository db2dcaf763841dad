//! Apply a site config: XPaths evaluated by sxd-xpath on the cleaned page's XML, parsed once per
//! page, results mapped back to the page's nodes (elements by `dfs`, text nodes in document
//! order).

use super::SiteConfig;
use crate::clean::{Doc, NodeId};
use crate::extract::{Extraction, Extractor, Rule, SinglePage};
use crate::xpath::sxd::{self, Evaluator as Eval};
use crate::xpath::{literal, Meter, Program};
use crate::{Page, Result};
use sxd_xpath::Value;

fn compile_all<'a>(exprs: impl IntoIterator<Item = &'a String>) -> Result<Vec<Program>> {
    exprs.into_iter().map(|x| Program::compile(x)).collect()
}

/// A site config made ready to apply: its XPaths compiled once.
///
/// # Example
/// ```
/// use forest::Extractor;
/// let (cfg, _) = forest::ftr::SiteConfig::parse("body: //article\nstrip_id_or_class: share\n", "example.com.txt")?;
/// let applier = forest::ftr::ConfigApplier::new(cfg)?;
/// let html = "<nav>Home</nav><article><p>The story.</p><div class='share-bar'>Share</div></article>";
/// let page = forest::Page::from_html("p", html).unwrap();
/// assert_eq!(applier.extract(&page)?.text, "The story.");
/// # Ok::<(), forest::Error>(())
/// ```
pub struct ConfigApplier {
    config: SiteConfig,
    body: Vec<Program>,
    title: Vec<Program>,
    strip: Vec<Program>,
    date: Vec<Program>,
    author: Vec<Program>,
}

impl ConfigApplier {
    /// Compile the config's XPaths (`strip_id_or_class: v` as
    /// `//*[contains(@class,'v') or contains(@id,'v')]`, `strip_image_src: v` as
    /// `//img[contains(@src,'v')]`; quotes around `v` are dropped).
    ///
    /// # Errors
    /// [`crate::Error::XPath`] for an XPath that does not compile.
    pub fn new(config: SiteConfig) -> Result<ConfigApplier> {
        let unquote = |v: &str| v.trim().trim_matches(|c| c == '\'' || c == '"').to_string();
        let mut strips = config.strip.clone();
        for v in config.strip_id_or_class.iter().map(|v| unquote(v)).filter(|v| !v.is_empty()) {
            let v = literal(&v);
            strips.push(format!("//*[contains(@class,{v}) or contains(@id,{v})]"));
        }
        for v in config.strip_image_src.iter().map(|v| unquote(v)).filter(|v| !v.is_empty()) {
            strips.push(format!("//img[contains(@src,{})]", literal(&v)));
        }
        Ok(ConfigApplier {
            body: compile_all(&config.body)?,
            title: compile_all(&config.title)?,
            strip: compile_all(&strips)?,
            date: compile_all(&config.date)?,
            author: compile_all(&config.author)?,
            config,
        })
    }

    /// The config applied.
    pub fn config(&self) -> &SiteConfig {
        &self.config
    }

    /// The page's date: the first `date` XPath that gives a non-empty string (a string result,
    /// or the text of the first node selected), white space collapsed.
    pub fn date(&self, doc: &Doc) -> Option<String> {
        self.declared(doc).0
    }

    /// The page's authors: the non-empty strings of the first `author` XPath that gives any
    /// (a string result, or the text of each node selected), white space collapsed, each once.
    pub fn author(&self, doc: &Doc) -> Vec<String> {
        self.declared(doc).1
    }

    /// [`ConfigApplier::date`] and [`ConfigApplier::author`] at once: the page's XML is parsed
    /// once for both, and not at all when the config has neither directive.
    pub fn declared(&self, doc: &Doc) -> (Option<String>, Vec<String>) {
        if self.date.is_empty() && self.author.is_empty() {
            return (None, Vec::new());
        }
        let Ok(package) = sxd::parse(doc) else { return (None, Vec::new()) };
        let ev = Eval::new(doc, &package);
        let date = self.date.iter().find_map(|c| ev.strings(c).into_iter().next());
        let mut authors = Vec::new();
        for c in &self.author {
            for s in ev.strings(c) {
                if !authors.contains(&s) {
                    authors.push(s);
                }
            }
            if !authors.is_empty() {
                break;
            }
        }
        (date, authors)
    }

    /// The block: the elements of the first `body` XPath that selects elements with text,
    /// nested ones merged into the outermost, in document order (empty when none does).
    fn block(&self, ev: &Eval) -> Result<Vec<NodeId>> {
        for c in &self.body {
            let nodes = ev.elements(c)?;
            if ev.doc().has_text(&nodes) {
                return Ok(nodes);
            }
        }
        Ok(Vec::new())
    }

    /// Per node: cut by a strip rule, inside the block (empty when nothing is).
    fn skip(&self, ev: &Eval, block: &[NodeId]) -> Result<Vec<bool>> {
        let mut cut = Vec::new();
        for c in &self.strip {
            cut.extend(ev.nodes(c)?);
        }
        cut.sort_unstable();
        cut.dedup();
        let doc = ev.doc();
        let cut = doc.outermost(cut);
        let mut skip = vec![false; doc.nodes.len()];
        let mut any = false;
        for &s in &cut {
            let s_end = doc.end(s);
            for &r in block {
                let (lo, hi) = (s.max(r), s_end.min(doc.end(r)));
                for m in skip.iter_mut().take(hi as usize).skip(lo as usize) {
                    *m = true;
                    any = true;
                }
            }
        }
        if !any {
            skip.clear();
        }
        Ok(skip)
    }

    /// The headline: the first element of the first `title` XPath that selects one, when it
    /// stands before the block and outside it and has text.
    fn headline(&self, ev: &Eval, block: &[NodeId]) -> Result<Option<NodeId>> {
        for c in &self.title {
            let first = match ev.value(c)? {
                Value::Nodeset(set) => ev.node_ids(&set).into_iter().find(|&n| ev.doc().element(n).is_some()),
                _ => None,
            };
            if let Some(h) = first {
                return Ok(stands_before(ev.doc(), h, block).then_some(h));
            }
        }
        Ok(None)
    }
}

/// Does `h` stand before the block, outside it, with text?
pub(super) fn stands_before(doc: &Doc, h: NodeId, block: &[NodeId]) -> bool {
    match block.first() {
        Some(&first) => h < first && doc.end(h) <= first && doc.text_size(h) > 0,
        None => false,
    }
}

impl Extractor for ConfigApplier {
    fn name(&self) -> &str {
        "site-config"
    }

    /// The block's text without the stripped parts (unless that leaves nothing), after the
    /// headline; the single-page extractor when no `body` XPath matches
    /// ([`Rule::SinglePageFallback`]).
    fn extract(&self, page: &Page) -> Result<Extraction> {
        let doc = &page.doc;
        let package = sxd::parse(doc)?;
        let ev = Eval::within(doc, &package, &Meter::within(&page.budget, page.deadline));
        let block = self.block(&ev)?;
        if block.is_empty() {
            return Ok(SinglePage::default().extract_as(page, Rule::SinglePageFallback));
        }
        let mut skip = self.skip(&ev, &block)?;
        let mut text = doc.text_masked(&block, &skip);
        if text.is_empty() {
            text = doc.text_of(&block);
            skip.clear();
        }
        let headline = self.headline(&ev, &block)?;
        if let Some(h) = headline {
            text = format!("{}\n\n{text}", doc.text(h));
        }
        Ok(Extraction { nodes: block, text, rule: Rule::Exact, skip, headline, xpath: None, evidence: None })
    }
}

#[cfg(test)]
mod tests {
    use crate::clean::NodeData;
    use super::*;

    const PAGE: &str = "<html><head><title>Big news today - Example</title></head><body>\
        <nav class='menu'><a href='/'>Home</a></nav>\
        <h1 class='headline'>Big news today</h1>\
        <div class='article-body'><p>First paragraph of the story.</p>\
        <div class='share-tools'>Share: <a href='#f'>Facebook</a></div>\
        <p>Tom &amp; Jerry went <a href='/x'>home</a>.</p>\
        <div id='related-box'><a href='/y'>Other story</a></div>\
        <img src='/t/pixel.gif'><p>Last paragraph.</p></div>\
        <p class='byline'>By <a>Ann Lee</a> and <a>Bo Chen</a> on <time datetime='2024-03-04'>March 4</time></p>\
        </body></html>";

    fn applier(text: &str) -> ConfigApplier {
        ConfigApplier::new(SiteConfig::parse(text, "t.txt").unwrap().0).unwrap()
    }

    #[test]
    fn applies_body_strip_and_title() {
        let page = Page::from_html("p", PAGE).unwrap();
        let a = applier(
            "body: //section\nbody: //div[@class='article-body']\ntitle: //h1\nstrip: //div[@class='share-tools']\n\
             strip: //div[@class='article-body']/p/text()[normalize-space(.)='.']\nstrip_id_or_class: related\nstrip_image_src: pixel",
        );
        assert_eq!(a.name(), "site-config");
        let e = a.extract(&page).unwrap();
        assert_eq!(e.rule, Rule::Exact);
        assert_eq!(e.text, "Big news today\n\nFirst paragraph of the story.\n\nTom & Jerry went home\n\nLast paragraph.");
        let h = e.headline.unwrap();
        assert_eq!(page.doc.element(h).unwrap().name, "h1");
        assert_eq!(e.nodes.len(), 1);
        assert!(e.skip.iter().any(|&s| s));
        // A title inside the block is not put first.
        let inside = applier("body: //body\ntitle: //h1");
        let e = inside.extract(&page).unwrap();
        assert!(e.headline.is_none() && e.text.starts_with("Home\n"), "{}", e.text);
    }

    #[test]
    fn no_body_match_falls_back_to_the_single_page_extractor() {
        let long = "The council met on Monday evening and voted to repair the old bridge over the river before the winter. ";
        let html = format!("<nav><a>Home</a></nav><div><p>{}</p><p>{}</p></div><footer><a>About</a></footer>", long.repeat(4), long.repeat(3));
        let e = applier("body: //section\n").extract(&Page::from_html("p", &html).unwrap()).unwrap();
        assert_eq!(e.rule, Rule::SinglePageFallback);
        assert!(e.text.contains("The council met"), "{}", e.text);
        assert_eq!(applier("body: //section\n").extract(&Page::from_html("p", "<p>x</p>").unwrap()).unwrap().rule, Rule::WholePage);
        let page = Page::from_html("p", PAGE).unwrap();
        // Nested matches are merged into the outermost.
        let e = applier("body: //div[@class='article-body'] | //div[@class='article-body']/p\n").extract(&page).unwrap();
        assert_eq!(e.nodes.len(), 1);
        // A body XPath that gives a string is an error, not a silent miss.
        assert!(applier("body: string(//h1)\n").extract(&page).is_err());
    }

    #[test]
    fn reads_date_and_authors() {
        let page = Page::from_html("p", PAGE).unwrap();
        let a = applier("date: //time[@class='none']\ndate: string(//time/@datetime)\nauthor: //p[@class='byline']/a\nauthor: //p\n");
        assert_eq!(a.date(&page.doc).as_deref(), Some("2024-03-04"));
        assert_eq!(a.author(&page.doc), ["Ann Lee", "Bo Chen"]);
        let none = applier("body: //p\n");
        assert_eq!(none.date(&page.doc), None);
        assert!(none.author(&page.doc).is_empty());
    }

    #[test]
    fn text_nodes_map_back_across_entities() {
        let doc = crate::clean::page("<p>a &amp; b<b>x</b>&lt;c&gt;.</p><p>.</p>");
        let package = sxd::parse(&doc).unwrap();
        let ev = Eval::new(&doc, &package);
        let texts = ev.nodes(&Program::compile("//p/text()").unwrap()).unwrap();
        let got: Vec<&str> = texts
            .iter()
            .map(|&n| match &doc.nodes[n as usize].data {
                NodeData::Text(t) => t.as_str(),
                NodeData::Element(_) => "<element>",
            })
            .collect();
        assert_eq!(got, ["a & b", "<c>.", "."]);
        let dots = ev.nodes(&Program::compile("//p/text()[normalize-space(.)='.']").unwrap()).unwrap();
        assert_eq!(dots, [*texts.last().unwrap()]);
    }
}
