//! Export: an induced wrapper written as a FiveFilters site config, each line chosen by what it
//! selects on the sample pages and the whole checked there against the wrapper (see [`export`]).

use super::apply::stands_before;
use crate::xpath::sxd::{self, Evaluator as Eval};
use crate::xpath::Program;
use super::{one_line, ConfigApplier, SiteConfig};
use crate::clean::{Doc, NodeData, NodeId};
use crate::extract::{Applier, Extraction, Extractor};
use crate::patterns::{tag_clue, tolerant, Tokens, Typer, Typing};
use crate::wrapper::{xpath_with, Choice, Wrapper};
use crate::xpath::literal;
use crate::Page;
use std::collections::HashMap;

/// Longest text (collapsed) a strip or title XPath quotes.
const MAX_QUOTED: usize = 400;
/// Most comment lines on cut parts that no strip expresses.
const MAX_UNEXPRESSED: usize = 20;

/// Write an induced wrapper as a FiveFilters site config (Full-Text RSS, wallabag/graby),
/// choosing and checking each line on the `samples` (the wrapper's sample pages, or any pages
/// of its site). The config's comments say what it could not express and on how many samples
/// [`ConfigApplier`] gives the wrapper's text.
///
/// Each line is chosen by what it selects on the samples, compared with what the wrapper's
/// [`Applier`] selects there:
///
/// - `body`: the winning pattern's type without its `dfs` terms (a type known only by its dfs
///   goes by its parent's type), then the alternatives', then forms built from the blocks
///   forest took on each sample (id, class, first class token, anchored path; a union `a | b`
///   when the block is several elements). A line is kept when, on every sample page no earlier
///   line gives, it either selects nothing with text or exactly forest's block.
/// - `title`: the headline forest puts first (or the page's headline, when it stands inside
///   the block and forest leaves it there), when one XPath selects it first on every sample and
///   puts first exactly what forest puts first.
/// - `date` and `author`: where the page declares its date (or shows it) and its first author,
///   the element that shows it (the date's text or `datetime` read as the same day, the
///   author's name as its whole text), when one XPath selects it first on every sample page
///   that has one, and on two at least.
/// - `strip`: for each part forest cuts inside the block (site template, link blocks) — the
///   largest elements all of whose text is cut, or a cut text node alone in an element — the
///   XPath that selects the most cut text, among forms by tag and id/class, anchored path, or
///   quoted text, that on every sample selects only cut text and never the block itself. Parts
///   no XPath expresses are listed in comments.
/// - `prune: no` (Full-Text RSS would prune by its own rules), `test_url` for each sample's
///   http(s) address, and a comment saying on how many samples the config gives forest's text.
///
/// # Example
/// ```
/// let page = |i: u32, title: &str, words: &str| forest::Page::from_html(
///     format!("p{i}"),
///     &format!("<body><nav>home news sport</nav><div class='story'><h1>{title}</h1><p>{words}</p></div></body>"),
/// ).unwrap();
/// let pages = [
///     page(1, "KitKat for Android", "Android phones get KitKat, the new version, this week."),
///     page(2, "Apple at auction", "An old Apple computer sold at auction for a record price."),
/// ];
/// let config = forest::Config { k: 2, ..forest::Config::default() };
/// let wrapper = forest::Wrapper::induce("demo", &pages, &config)?.wrapper;
/// let cfg = forest::ftr::export(&wrapper, &[&pages[0], &pages[1]]);
/// assert_eq!(cfg.body, ["//div[substring-before(concat(normalize-space(@class),' '),' ')='story']"]);
/// assert!(cfg.to_string().contains("same text as forest on 2\n"));
/// # Ok::<(), forest::Error>(())
/// ```
pub fn export(wrapper: &Wrapper, samples: &[&Page]) -> SiteConfig {
    let mut cfg = SiteConfig { prune: Some(false), ..SiteConfig::default() };
    cfg.comments.push(format!(
        "forest {}: induced from {} pages of {}",
        env!("CARGO_PKG_VERSION"),
        wrapper.pages.len(),
        one_line(&wrapper.site)
    ));
    cfg.test_url = test_urls(samples);
    let applier = match Applier::new(wrapper.clone()) {
        Ok(a) => a,
        Err(e) => {
            cfg.comments.push(format!("not checked: {}", one_line(&e.to_string())));
            cfg.body = choice_forms(&wrapper.pattern).into_iter().take(1).collect();
            return cfg;
        }
    };
    let mut runs = Vec::new();
    let mut packages = Vec::new();
    for &page in samples {
        match applier.extract(page).and_then(|e| Ok((e, sxd::parse(&page.doc)?))) {
            Ok((ext, package)) => {
                runs.push(Run::new(page, ext));
                packages.push(package);
            }
            Err(e) => cfg.comments.push(format!("sample {} left out: {}", page.id, one_line(&e.to_string()))),
        }
    }
    let evals = runs.iter().zip(&packages).map(|(r, p)| Eval::new(&r.page.doc, p)).collect();
    let mut ex = Exporter { runs: &runs, evals, cache: HashMap::new() };
    cfg.body = ex.body(wrapper, &mut cfg.comments);
    cfg.title = ex.title(&mut cfg.comments);
    cfg.date = ex.date();
    cfg.author = ex.author();
    cfg.strip = ex.strips(&mut cfg.comments);
    check(&mut cfg, &runs);
    cfg
}

/// A sample page with forest's extraction.
struct Run<'a> {
    page: &'a Page,
    ext: Extraction,
    /// Per node: a text node forest cuts from the block.
    cut: Vec<bool>,
}

impl<'a> Run<'a> {
    fn new(page: &'a Page, ext: Extraction) -> Run<'a> {
        let doc = &page.doc;
        let cut = (0..doc.nodes.len())
            .map(|i| ext.skip.get(i).copied().unwrap_or(false) && matches!(doc.nodes[i].data, NodeData::Text(_)))
            .collect();
        Run { page, ext, cut }
    }

    fn doc(&self) -> &'a Doc {
        &self.page.doc
    }

    /// The parts forest cuts inside the block: elements all of whose text (at least one text
    /// node) is cut and whose parent is not, and cut text nodes whose parent is not all cut.
    fn cut_parts(&self) -> Vec<NodeId> {
        let doc = self.doc();
        let n = doc.nodes.len();
        let (mut texts, mut cuts) = (vec![0usize; n], vec![0usize; n]);
        for &root in &self.ext.nodes {
            for j in (root..doc.end(root)).rev() {
                let ju = j as usize;
                if matches!(doc.nodes[ju].data, NodeData::Text(_)) {
                    texts[ju] = 1;
                    cuts[ju] = usize::from(self.cut[ju]);
                }
                if let Some(p) = doc.nodes[ju].parent.filter(|_| j != root) {
                    texts[p as usize] += texts[ju];
                    cuts[p as usize] += cuts[ju];
                }
            }
        }
        let full = |j: usize| doc.element(j as NodeId).is_some() && texts[j] > 0 && cuts[j] == texts[j];
        let mut parts = Vec::new();
        for &root in &self.ext.nodes {
            for j in root..doc.end(root) {
                let ju = j as usize;
                let in_full = j != root && doc.nodes[ju].parent.is_some_and(|p| full(p as usize));
                if !in_full && (full(ju) || self.cut[ju]) {
                    parts.push(j);
                }
            }
        }
        parts
    }
}

/// Candidate XPaths evaluated on every sample, each once.
struct Exporter<'a> {
    runs: &'a [Run<'a>],
    evals: Vec<Eval<'a>>,
    /// Per XPath: the nodes it selects on each sample (`None`: does not compile or evaluate).
    cache: HashMap<String, Option<Vec<Vec<NodeId>>>>,
}

impl Exporter<'_> {
    fn select(&mut self, xpath: &str) -> Option<Vec<Vec<NodeId>>> {
        if let Some(hit) = self.cache.get(xpath) {
            return hit.clone();
        }
        let result = Program::compile(xpath).ok().and_then(|c| self.evals.iter().map(|ev| ev.nodes(&c).ok()).collect());
        self.cache.insert(xpath.to_string(), result.clone());
        result
    }

    /// The `body` lines (see the module docs).
    fn body(&mut self, wrapper: &Wrapper, comments: &mut Vec<String>) -> Vec<String> {
        let runs = self.runs;
        let mut forms = Vec::new();
        for c in std::iter::once(&wrapper.pattern).chain(&wrapper.alternatives) {
            choice_forms(c).into_iter().for_each(|f| push_unique(&mut forms, f));
        }
        for r in runs {
            let typer = Typer::new(r.doc(), Typing::Anchored);
            let per_node: Vec<Vec<String>> = r.ext.nodes.iter().map(|&n| element_forms(&typer, n)).collect();
            per_node.iter().flatten().for_each(|f| push_unique(&mut forms, f.clone()));
            if per_node.len() > 1 {
                let mut union: Vec<&str> = Vec::new();
                for f in per_node.iter().filter_map(|fs| fs.first()) {
                    if !union.contains(&f.as_str()) {
                        union.push(f);
                    }
                }
                push_unique(&mut forms, union.join(" | "));
            }
        }
        let mut done = vec![false; runs.len()];
        let open = |done: &[bool]| runs.iter().zip(done).any(|(r, &d)| !d && !r.ext.nodes.is_empty());
        let mut body = Vec::new();
        for f in forms {
            if !open(&done) {
                break;
            }
            let Some(sel) = self.select(&f) else { continue };
            let mut fires = Vec::new();
            let mut wrong = false;
            for (i, (r, sel)) in runs.iter().zip(&sel).enumerate().filter(|(i, _)| !done[*i]) {
                let doc = r.doc();
                let nodes = doc.outermost(sel.iter().copied().filter(|&n| doc.element(n).is_some()).collect());
                if doc.has_text(&nodes) {
                    if nodes == r.ext.nodes {
                        fires.push(i);
                    } else {
                        wrong = true;
                        break;
                    }
                }
            }
            if !wrong && !fires.is_empty() {
                body.push(f);
                fires.into_iter().for_each(|i| done[i] = true);
            }
        }
        for (r, _) in runs.iter().zip(&done).filter(|(r, &d)| !d && !r.ext.nodes.is_empty()) {
            comments.push(format!(
                "body: no XPath found that selects forest's block on {} (rule {})",
                r.page.id,
                r.ext.rule.name()
            ));
        }
        body
    }

    /// The `title` line, if one fits (see the module docs).
    fn title(&mut self, comments: &mut Vec<String>) -> Vec<String> {
        let runs = self.runs;
        let targets: Vec<Option<NodeId>> =
            runs.iter().map(|r| r.ext.headline.or_else(|| crate::extract::headline(r.doc()))).collect();
        let mut forms = Vec::new();
        for (r, t) in runs.iter().zip(&targets) {
            if let Some(t) = *t {
                let typer = Typer::new(r.doc(), Typing::Anchored);
                title_forms(&typer, t).into_iter().for_each(|f| push_unique(&mut forms, f));
            }
        }
        for f in forms {
            let Some(sel) = self.select(&f) else { continue };
            let fits = runs.iter().zip(&targets).zip(&sel).all(|((r, &target), sel)| {
                let doc = r.doc();
                let first = sel.iter().copied().find(|&n| doc.element(n).is_some());
                let put_first = first.filter(|&h| stands_before(doc, h, &r.ext.nodes));
                put_first == r.ext.headline && (target.is_none() || first == target)
            });
            if fits {
                return vec![f];
            }
        }
        if runs.iter().any(|r| r.ext.headline.is_some()) {
            comments.push("title: no XPath selects the headline forest puts first on every sample page".into());
        }
        Vec::new()
    }

    /// The `date` line, if one fits (see the module docs).
    fn date(&mut self) -> Vec<String> {
        let declared = |doc: &Doc| crate::metadata::shows::known(doc, None).1;
        self.fitting(declared, date_forms, |doc, n, day| shown_day(doc, n).as_deref() == Some(day))
    }

    /// The `author` line, if one fits (see the module docs).
    fn author(&mut self) -> Vec<String> {
        let declared = |doc: &Doc| {
            let meta = crate::metadata::read(doc);
            let first = meta.authors.first().cloned().or(meta.byline).or(crate::metadata::shown(doc).0)?;
            Some(crate::clean::collapse_ws(&first).to_lowercase())
        };
        let names = |doc: &Doc, n: NodeId, name: &str| crate::clean::collapse_ws(&string_value(doc, n)).to_lowercase() == name;
        self.fitting(declared, element_forms, names)
    }

    /// The first form (by `forms_of`) of the elements that show what each sample page
    /// declares (`declared`; `shows` tells an element that shows it, the smallest taken) whose
    /// first element shows it on every sample page that declares it; none when fewer than two
    /// pages show it.
    fn fitting(
        &mut self,
        declared: impl Fn(&Doc) -> Option<String>,
        forms_of: impl Fn(&Typer, NodeId) -> Vec<String>,
        shows: impl Fn(&Doc, NodeId, &str) -> bool,
    ) -> Vec<String> {
        let runs = self.runs;
        let targets: Vec<Option<(String, NodeId)>> = runs
            .iter()
            .map(|r| {
                let doc = r.doc();
                let want = declared(doc)?;
                let at = smallest(doc, &|n| shows(doc, n, &want))?;
                Some((want, at))
            })
            .collect();
        if targets.iter().flatten().count() < 2 {
            return Vec::new();
        }
        let mut forms = Vec::new();
        for (r, t) in runs.iter().zip(&targets) {
            if let Some((_, n)) = t {
                let typer = Typer::new(r.doc(), Typing::Anchored);
                forms_of(&typer, *n).into_iter().for_each(|f| push_unique(&mut forms, f));
            }
        }
        for f in forms {
            // A `string(…/@datetime)` form is checked by the element it reads.
            let elements = f.strip_prefix("string(").and_then(|x| x.strip_suffix("/@datetime)")).unwrap_or(&f);
            let Some(sel) = self.select(elements) else { continue };
            let fits = runs.iter().zip(&targets).zip(&sel).all(|((r, t), sel)| {
                let doc = r.doc();
                let first = sel.iter().copied().find(|&n| doc.element(n).is_some());
                match t {
                    Some((want, _)) => first.is_some_and(|n| shows(doc, n, want)),
                    None => true,
                }
            });
            if fits {
                return vec![f];
            }
        }
        Vec::new()
    }

    /// The `strip` lines (see the module docs).
    fn strips(&mut self, comments: &mut Vec<String>) -> Vec<String> {
        let runs = self.runs;
        let mut covered: Vec<Vec<bool>> = runs.iter().map(|r| vec![false; r.doc().nodes.len()]).collect();
        let mut strips = Vec::new();
        let mut unexpressed: Vec<String> = Vec::new();
        for (i, r) in runs.iter().enumerate() {
            let doc = r.doc();
            let typer = Typer::new(doc, Typing::Anchored);
            for part in r.cut_parts() {
                let end = doc.end(part);
                if (part..end).all(|j| !r.cut[j as usize] || covered[i][j as usize]) {
                    continue;
                }
                let mut best: Option<(usize, String, Vec<Vec<NodeId>>)> = None;
                for f in part_forms(&typer, part) {
                    let Some(sel) = self.select(&f) else { continue };
                    let holds = |s: &Vec<NodeId>| doc.outermost(s.clone()).iter().any(|&s| s <= part && part < doc.end(s));
                    let holds_part = sel.get(i).is_some_and(holds);
                    if !holds_part {
                        continue;
                    }
                    // A line that quotes a page's text is kept only when it holds on several
                    // samples: quoted text found on one page says nothing about the next.
                    if f.contains("normalize-space(.)=") && runs.len() > 1 && self.pages_hit(&sel) < 2 {
                        continue;
                    }
                    let Some(gain) = self.gain(&sel, &covered) else { continue };
                    if best.as_ref().is_none_or(|(g, _, _)| gain > *g) {
                        best = Some((gain, f, sel));
                    }
                }
                match best {
                    Some((_, f, sel)) => {
                        self.cover(&sel, &mut covered);
                        strips.push(f);
                    }
                    None => {
                        let d = describe(doc, part);
                        if !unexpressed.contains(&d) {
                            unexpressed.push(d);
                        }
                    }
                }
            }
        }
        for d in unexpressed.iter().take(MAX_UNEXPRESSED) {
            comments.push(format!("forest also cuts, not expressed as strip: {d}"));
        }
        if unexpressed.len() > MAX_UNEXPRESSED {
            comments.push(format!("… and {} more parts not expressed", unexpressed.len() - MAX_UNEXPRESSED));
        }
        strips
    }

    /// The ranges a strip's selection `sel` cuts inside each sample's block, as (page, start,
    /// end); `None` when on some sample it selects (an ancestor of) the block itself.
    fn ranges(&self, sel: &[Vec<NodeId>]) -> Option<Vec<(usize, NodeId, NodeId)>> {
        let mut out = Vec::new();
        for (k, (r, sel)) in self.runs.iter().zip(sel).enumerate() {
            let doc = r.doc();
            for s in doc.outermost(sel.clone()) {
                let s_end = doc.end(s);
                for &root in &r.ext.nodes {
                    if s <= root && root < s_end {
                        return None;
                    }
                    if root <= s && s < doc.end(root) {
                        out.push((k, s, s_end));
                    }
                }
            }
        }
        Some(out)
    }

    /// On how many samples the selection cuts something inside the block.
    fn pages_hit(&self, sel: &[Vec<NodeId>]) -> usize {
        let mut pages: Vec<usize> = self.ranges(sel).unwrap_or_default().into_iter().map(|(k, _, _)| k).collect();
        pages.dedup();
        pages.len()
    }

    /// How many cut text nodes not yet covered the selection cuts; `None` when it cuts text
    /// forest keeps on some sample.
    fn gain(&self, sel: &[Vec<NodeId>], covered: &[Vec<bool>]) -> Option<usize> {
        let mut gain = 0;
        for (k, s, e) in self.ranges(sel)? {
            let (r, range) = (&self.runs[k], s as usize..e as usize);
            let nodes = r.doc().nodes.get(range.clone()).unwrap_or_default();
            let cut = r.cut.get(range.clone()).unwrap_or_default();
            let done = covered.get(k).and_then(|c| c.get(range)).unwrap_or_default();
            for ((node, &cut), &done) in nodes.iter().zip(cut).zip(done) {
                if matches!(node.data, NodeData::Text(_)) {
                    if !cut {
                        return None;
                    }
                    gain += usize::from(!done);
                }
            }
        }
        Some(gain)
    }

    fn cover(&self, sel: &[Vec<NodeId>], covered: &mut [Vec<bool>]) {
        for (k, s, e) in self.ranges(sel).unwrap_or_default() {
            if let Some(c) = covered.get_mut(k).and_then(|c| c.get_mut(s as usize..e as usize)) {
                c.iter_mut().for_each(|c| *c = true);
            }
        }
    }
}

/// XPaths for a wrapper's pattern without its dfs terms: its type (a type known only by dfs:
/// the tag under the parent's type), and for a split article the type shared by siblings.
fn choice_forms(c: &Choice) -> Vec<String> {
    let ty = &c.pattern.ty;
    let digits = Tokens { digits: c.xpath.contains("'0123456789'"), anywhere: c.xpath.contains("contains(concat(' ',") };
    let mut out = Vec::new();
    if ty.dfs.is_some() {
        if let Some(p) = &c.parent {
            out.push(format!("{}/{}", xpath_with(&p.portable(), &[], digits), ty.tag));
        }
    } else {
        out.push(xpath_with(&ty.portable(), &[], digits));
        if c.repeated && ty.path.is_some() {
            push_unique(&mut out, xpath_with(&ty.sibling_kind(), &[], digits));
        }
    }
    out
}

/// XPaths naming an element by its attributes: exact `id`, exact `class`, first class token.
fn attr_forms(doc: &Doc, n: NodeId) -> Vec<String> {
    let Some(e) = doc.element(n) else { return Vec::new() };
    let tag = &e.name;
    let mut out = Vec::new();
    if let Some(id) = e.attr("id").filter(|v| !v.trim().is_empty()) {
        out.push(format!("//{tag}[@id={}]", literal(id)));
    }
    if let Some(class) = e.attr("class").filter(|v| !v.trim().is_empty()) {
        out.push(format!("//{tag}[@class={}]", literal(class)));
        if let Some(token) = class.split_whitespace().next() {
            let test = literal(&format!(" {token} "));
            out.push(format!("//{tag}[contains(concat(' ',normalize-space(@class),' '),{test})]"));
        }
    }
    out
}

/// The XPath of the element's type as forest writes it (tolerant id/class, or anchored path).
fn type_form(typer: &Typer, n: NodeId) -> Option<String> {
    let ty = typer.of(n)?;
    Some(xpath_with(&ty.portable(), &[], Tokens::near(typer.doc(), n)))
}

/// [`attr_forms`], then the type's form.
fn element_forms(typer: &Typer, n: NodeId) -> Vec<String> {
    let mut out = attr_forms(typer.doc(), n);
    if let Some(f) = type_form(typer, n) {
        push_unique(&mut out, f);
    }
    out
}

/// Forms for a headline: by attributes, then the bare tag (`//h1`), then the type's form.
fn title_forms(typer: &Typer, n: NodeId) -> Vec<String> {
    let mut out = attr_forms(typer.doc(), n);
    if let Some(e) = typer.doc().element(n) {
        push_unique(&mut out, format!("//{}", e.name));
    }
    if let Some(f) = type_form(typer, n) {
        push_unique(&mut out, f);
    }
    out
}

/// Forms for a date: an element with a `datetime` by that attribute (`string(…/@datetime)`),
/// then as [`element_forms`].
fn date_forms(typer: &Typer, n: NodeId) -> Vec<String> {
    let forms = element_forms(typer, n);
    if typer.doc().element(n).and_then(|e| e.attr("datetime")).is_none() {
        return forms;
    }
    forms.iter().map(|f| format!("string({f}/@datetime)")).chain(forms.iter().cloned()).collect()
}

/// Longest text read as a date alone (`Wednesday, 4 March 2024`): a longer one holds more
/// (`By Ann Lee | March 4, 2024`), which a site config's reader would not read as a date.
const MAX_DATE_TEXT: usize = 25;

/// The day (`2024-03-04`) element `n` shows: its `datetime`, else its text (at most
/// [`MAX_DATE_TEXT`] bytes) read as a date.
fn shown_day(doc: &Doc, n: NodeId) -> Option<String> {
    let e = doc.element(n)?;
    let text = e.attr("datetime").map(str::to_string).unwrap_or_else(|| crate::clean::collapse_ws(&string_value(doc, n)));
    if text.is_empty() || text.len() > MAX_DATE_TEXT {
        return None;
    }
    crate::metadata::normalized_date(&text)?.get(..10).map(str::to_string)
}

/// The element of the page's body with the smallest subtree for which `shows` holds.
fn smallest(doc: &Doc, shows: &dyn Fn(NodeId) -> bool) -> Option<NodeId> {
    let body_end = doc.end(doc.body);
    (doc.body..body_end).filter(|&n| doc.element(n).is_some() && doc.end(n) - n <= 40 && shows(n)).min_by_key(|&n| doc.end(n) - n)
}

/// Forms for a cut part: an element by [`element_forms`] and by its quoted text; a text node
/// by its quoted text under its parent's forms.
fn part_forms(typer: &Typer, part: NodeId) -> Vec<String> {
    let doc = typer.doc();
    let quoted = |s: &str| {
        let s = xml_collapse(s);
        (s.len() <= MAX_QUOTED).then(|| format!("normalize-space(.)={}", literal(&s)))
    };
    match &doc.nodes.get(part as usize).map(|n| &n.data) {
        Some(NodeData::Element(e)) => {
            let mut out = element_forms(typer, part);
            let text = string_value(doc, part);
            if let Some(test) = quoted(&text).filter(|_| !text.trim().is_empty()) {
                push_unique(&mut out, format!("//{}[{test}]", e.name));
                if let Some(f) = type_form(typer, part) {
                    push_unique(&mut out, format!("{f}[{test}]"));
                }
            }
            out
        }
        Some(NodeData::Text(t)) => {
            let (Some(test), Some(parent)) = (quoted(t), doc.nodes.get(part as usize).and_then(|n| n.parent)) else {
                return Vec::new();
            };
            let Some(tag) = doc.element(parent).map(|e| e.name.as_str()) else { return Vec::new() };
            let mut out = vec![format!("//{tag}/text()[{test}]")];
            for f in element_forms(typer, parent) {
                push_unique(&mut out, format!("{f}/text()[{test}]"));
            }
            out
        }
        None => Vec::new(),
    }
}

/// The XPath string value of the subtree at `n`: its text nodes, concatenated.
fn string_value(doc: &Doc, n: NodeId) -> String {
    let (start, end) = (n as usize, doc.end(n) as usize);
    doc.nodes
        .get(start..end)
        .unwrap_or_default()
        .iter()
        .filter_map(|x| match &x.data {
            NodeData::Text(t) => Some(t.as_str()),
            NodeData::Element(_) => None,
        })
        .collect()
}

/// White space collapsed as XPath's `normalize-space` does (XML white space only).
fn xml_collapse(s: &str) -> String {
    s.split([' ', '\t', '\n', '\r']).filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ")
}

/// A cut part for a comment: `div.share "Share: Facebook…"`, `text in p "."`.
fn describe(doc: &Doc, part: NodeId) -> String {
    let clue = |n: NodeId| {
        doc.element(n).map_or_else(String::new, |e| {
            tag_clue(&e.name, e.attr("id").and_then(tolerant).as_deref(), e.attr("class").and_then(tolerant).as_deref())
        })
    };
    let text = xml_collapse(&string_value(doc, part));
    let short: String = text.chars().take(60).collect();
    let more = if short.len() < text.len() { "…" } else { "" };
    match doc.element(part) {
        Some(_) => format!("{} {:?}", clue(part), format!("{short}{more}")),
        None => {
            let parent = doc.nodes.get(part as usize).and_then(|n| n.parent).map(clue).unwrap_or_default();
            format!("text in {parent} {:?}", format!("{short}{more}"))
        }
    }
}

/// Each sample's address when it is an http(s) URL: where it was read from, else its feed
/// item's link.
fn test_urls(samples: &[&Page]) -> Vec<String> {
    let web = |s: &str| s.starts_with("http://") || s.starts_with("https://");
    let mut out = Vec::new();
    for p in samples {
        let link = p.item.as_ref().and_then(|i| i.link.as_deref()).map(str::trim);
        let url = Some(p.location.as_str()).filter(|l| web(l)).or(link.filter(|l| web(l)));
        if let Some(u) = url {
            push_unique(&mut out, one_line(u));
        }
    }
    out
}

/// Apply the config to the samples and say, in a comment, where it gives forest's text.
fn check(cfg: &mut SiteConfig, runs: &[Run]) {
    let applier = match ConfigApplier::new(cfg.clone()) {
        Ok(a) => a,
        Err(e) => {
            cfg.comments.push(format!("not checked: {}", one_line(&e.to_string())));
            return;
        }
    };
    let differ: Vec<&str> = runs
        .iter()
        .filter(|r| applier.extract(r.page).ok().map(|e| e.text).as_deref() != Some(r.ext.text.as_str()))
        .map(|r| r.page.id.as_str())
        .collect();
    let same = runs.len() - differ.len();
    cfg.comments.push(format!("checked on {} sample pages: same text as forest on {same}", runs.len()));
    if !differ.is_empty() {
        cfg.comments.push(format!("differs on: {}", one_line(&differ.join(", "))));
    }
}

fn push_unique(list: &mut Vec<String>, s: String) {
    if !list.contains(&s) {
        list.push(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(i: usize, body: &str) -> Page {
        Page::from_html(format!("p{i}"), &format!("<html><head><title>Story {i} - Site</title></head><body>{body}</body></html>")).unwrap()
    }

    #[test]
    fn cut_parts_are_the_largest_all_cut_elements_and_lone_text() {
        let p = page(1, "<div class='a'><p>keep <a>x</a>.</p><div class='share'><a>F</a> <a>T</a></div></div>");
        let doc = &p.doc;
        let root = (0..doc.nodes.len() as NodeId).find(|&n| doc.element(n).is_some_and(|e| e.attr("class") == Some("a"))).unwrap();
        let mut skip = vec![false; doc.nodes.len()];
        let share = (0..doc.nodes.len() as NodeId).find(|&n| doc.element(n).is_some_and(|e| e.attr("class") == Some("share"))).unwrap();
        for s in skip.iter_mut().take(doc.end(share) as usize).skip(share as usize) {
            *s = true;
        }
        let dot = (0..doc.nodes.len()).find(|&n| matches!(&doc.nodes[n].data, NodeData::Text(t) if t == ".")).unwrap();
        skip[dot] = true;
        let ext = Extraction { skip, ..Extraction::new(vec![root], String::new(), crate::Rule::Exact) };
        let run = Run::new(&p, ext);
        assert_eq!(run.cut_parts(), [dot as NodeId, share]);
        let typer = Typer::new(doc, Typing::Anchored);
        assert_eq!(part_forms(&typer, dot as NodeId)[0], "//p/text()[normalize-space(.)='.']");
        assert_eq!(
            &part_forms(&typer, share)[..3],
            [
                "//div[@class='share']",
                "//div[contains(concat(' ',normalize-space(@class),' '),' share ')]",
                "//div[substring-before(concat(normalize-space(@class),' '),' ')='share']"
            ]
        );
        assert_eq!(describe(doc, share), "div.share \"F T\"");
        assert_eq!(describe(doc, dot as NodeId), "text in p \".\"");
    }

    #[test]
    fn exports_body_title_and_strips_that_give_forests_text() {
        let words = [
            "Android phones get KitKat, the new version of the system, this week in shops.",
            "An old Apple computer sold at auction for a record price on Sunday evening.",
            "The city library opens a new branch with a maker space and long hours.",
        ];
        let titles = ["KitKat for Android phones", "Apple computer at auction", "Library opens new branch"];
        let pages: Vec<Page> = (0..3)
            .map(|i| {
                Page::from_html(
                    format!("p{i}"),
                    &format!(
                        "<html><head><title>{t} - Site</title></head><body><nav><a>home</a> <a>news</a></nav>\
                         <h1 class='title'>{t}</h1><div class='story'><p>{w}</p><p>{w} Again, {w}</p>\
                         <div class='share'>Share: <a href='#f'>Facebook</a> <a href='#t'>Twitter</a></div></div>\
                         <footer>about us</footer></body></html>",
                        t = titles[i],
                        w = words[i]
                    ),
                ).unwrap()
            })
            .collect();
        let config = crate::Config { k: 3, ..crate::Config::default() };
        let wrapper = crate::Wrapper::induce("site", &pages, &config).unwrap().wrapper;
        let refs: Vec<&Page> = pages.iter().collect();
        let cfg = export(&wrapper, &refs);
        assert_eq!(cfg.body, ["//div[substring-before(concat(normalize-space(@class),' '),' ')='story']"]);
        assert_eq!(cfg.title, ["//h1[@class='title']"]);
        assert_eq!(cfg.strip, ["//div[@class='share']"]);
        assert_eq!(cfg.prune, Some(false));
        assert!(cfg.comments.iter().any(|c| c == "checked on 3 sample pages: same text as forest on 3"), "{cfg}");
        let text = cfg.to_string();
        let (again, warnings) = SiteConfig::parse(&text, "site.txt").unwrap();
        assert_eq!(again, cfg);
        assert!(warnings.is_empty());
        let applier = crate::Applier::new(wrapper).unwrap();
        let ours = ConfigApplier::new(again).unwrap();
        for p in &pages {
            let (a, b) = (applier.extract(p).unwrap(), ours.extract(p).unwrap());
            assert_eq!(a.text, b.text);
            assert!(b.text.starts_with(&format!("{}\n\n", p.doc.title.trim_end_matches(" - Site"))), "{}", b.text);
        }
    }

    #[test]
    fn exports_where_the_pages_show_their_date_and_author() {
        let stories = [
            ("KitKat for Android phones", "Ann Lee", "2024-03-04", "Android phones get KitKat, the new version of the system, this week."),
            ("Apple computer at auction", "Bo Chen", "2024-03-05", "An old Apple computer sold at auction for a record price on Sunday."),
            ("Library opens new branch", "Cy Diaz", "2024-04-01", "The city library opens a new branch with a maker space and long hours."),
        ];
        let pages: Vec<Page> = stories
            .iter()
            .enumerate()
            .map(|(i, (t, who, day, w))| {
                Page::from_html(
                    format!("p{i}"),
                    &format!(
                        "<html><head><title>{t}</title><meta name='author' content='{who}'>\
                         <meta property='article:published_time' content='{day}T10:00:00Z'></head><body><nav><a>home</a></nav>\
                         <h1>{t}</h1><p class='meta'>By <span class='name'>{who}</span> on <time class='when' datetime='{day}'>{day}</time>, \
                         updated <span class='updated'>2025-01-01</span></p><div class='story'><p>{w}</p><p>{w} Again.</p></div></body></html>"
                    ),
                )
                .unwrap()
            })
            .collect();
        let wrapper = crate::Wrapper::induce("site", &pages, &crate::Config { k: 3, ..crate::Config::default() }).unwrap().wrapper;
        let cfg = export(&wrapper, &pages.iter().collect::<Vec<_>>());
        assert_eq!(cfg.date, ["string(//time[@class='when']/@datetime)"], "{cfg}");
        assert_eq!(cfg.author, ["//span[@class='name']"], "{cfg}");
        let ours = ConfigApplier::new(cfg).unwrap();
        for (p, (_, who, day, _)) in pages.iter().zip(&stories) {
            assert_eq!((ours.date(&p.doc).as_deref(), ours.author(&p.doc)), (Some(*day), vec![who.to_string()]));
        }
        // A date only one page shows is no site's rule.
        let cfg = export(&wrapper, &pages.iter().take(1).collect::<Vec<_>>());
        assert!(cfg.date.is_empty() && cfg.author.is_empty(), "{cfg}");
    }

    #[test]
    fn test_urls_are_web_addresses_only() {
        let mut a = page(1, "<p>x</p>");
        a.location = "https://example.com/a.html".into();
        let b = page(2, "<p>x</p>");
        assert_eq!(test_urls(&[&a, &b]), ["https://example.com/a.html"]);
    }
}
