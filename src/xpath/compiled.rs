//! Compiled XPath: the subset of XPath 1.0 that induction writes, evaluated directly on the
//! cleaned tree — no XML text, no sxd document.
//!
//! The grammar (anything else is left to sxd-xpath, the general evaluator):
//!
//! ```text
//! path  := ('//' | '/') step ('/' step)*
//! step  := NAME ('[' pred ']')*
//! pred  := NUMBER | dfs (' or ' dfs)* | test (' and ' test)*
//! test  := dfs | '(' dfs (' or ' dfs)* ')' | token
//! dfs   := "@dfs='" DIGITS "'"
//! token := FIRST '=' LITERAL | "translate(" FIRST ",'0123456789','')=" LITERAL
//!        | "contains(concat(' '," NORM ",' '),' " TOKEN " ')"
//! FIRST := "substring-before(concat(normalize-space(@" NAME "),' '),' ')"
//! NORM  := "normalize-space(@" NAME ")" | "translate(normalize-space(@" NAME "),'0123456789','')"
//! ```
//!
//! Semantics are XPath 1.0's exactly (XML white space for `normalize-space`, ASCII digits for
//! `translate`, positional predicates counted among the nodes the step has kept so far), and a
//! test checks them against sxd-xpath on every page of the corpus.

use crate::clean::{name_char, name_start_char, Doc, NodeId};

/// A predicate of a step.
#[derive(Debug, Clone, PartialEq)]
enum Pred {
    /// `[n]`: the n-th node (1-based) of those kept so far, per parent.
    Position(usize),
    /// All of these hold.
    And(Vec<Test>),
}

#[derive(Debug, Clone, PartialEq)]
enum Test {
    /// `@dfs` is one of these.
    Dfs(Vec<u32>),
    /// The first token of attribute `attr` (digits dropped when `digits`) equals `value`.
    FirstToken { attr: String, value: String, digits: bool },
    /// Some token of attribute `attr` (digits dropped when `digits`) equals `value`.
    HasToken { attr: String, value: String, digits: bool },
}

#[derive(Debug, Clone, PartialEq)]
struct Step {
    name: String,
    preds: Vec<Pred>,
}

/// An XPath of the induced subset, ready to run on a [`Doc`].
#[derive(Debug, Clone, PartialEq)]
pub struct CompiledPath {
    /// `//` (any depth) or `/` (from the root) before the first step.
    descendant: bool,
    steps: Vec<Step>,
}

/// A small cursor over the expression text.
struct Cursor<'a> {
    s: &'a str,
}

impl<'a> Cursor<'a> {
    fn eat(&mut self, prefix: &str) -> bool {
        match self.s.strip_prefix(prefix) {
            Some(rest) => {
                self.s = rest;
                true
            }
            None => false,
        }
    }

    /// An XML name without `:` (XPath's NCName): anything else (`+html`, `*`, `a:b`) is
    /// outside the subset, or sxd-xpath would read an expression where we read a name.
    fn name(&mut self) -> Option<String> {
        let mut chars = self.s.char_indices();
        if !chars.next().is_some_and(|(_, c)| name_start_char(c)) {
            return None;
        }
        let end = chars.find(|&(_, c)| !name_char(c)).map_or(self.s.len(), |(i, _)| i);
        let (n, rest) = self.s.split_at(end);
        self.s = rest;
        Some(n.to_string())
    }

    fn number(&mut self) -> Option<u64> {
        let end = self.s.find(|c: char| !c.is_ascii_digit()).unwrap_or(self.s.len());
        if end == 0 || end > 10 {
            return None;
        }
        let (n, rest) = self.s.split_at(end);
        self.s = rest;
        n.parse().ok()
    }

    /// `'…'`, `"…"` or `concat('a', "'", 'b')` as written by [`super::literal`].
    fn literal(&mut self) -> Option<String> {
        if self.eat("concat(") {
            let mut out = String::new();
            loop {
                out.push_str(&self.quoted()?);
                if self.eat(")") {
                    return Some(out);
                }
                if !self.eat(", ") {
                    return None;
                }
            }
        }
        self.quoted()
    }

    fn quoted(&mut self) -> Option<String> {
        let q = self.s.chars().next().filter(|&c| c == '\'' || c == '"')?;
        let body = &self.s[1..];
        let end = body.find(q)?;
        let v = body[..end].to_string();
        self.s = &body[end + 1..];
        Some(v)
    }
}

fn parse_dfs(c: &mut Cursor) -> Option<u32> {
    if !c.eat("@dfs='") {
        return None;
    }
    let n = u32::try_from(c.number()?).ok()?;
    c.eat("'").then_some(n)
}

fn parse_test(c: &mut Cursor) -> Option<Test> {
    if c.eat("(") {
        let mut ds = vec![parse_dfs(c)?];
        while c.eat(" or ") {
            ds.push(parse_dfs(c)?);
        }
        return c.eat(")").then_some(Test::Dfs(ds));
    }
    if c.s.starts_with("@dfs=") {
        return Some(Test::Dfs(vec![parse_dfs(c)?]));
    }
    if c.eat("contains(concat(' ',") {
        let digits = c.eat("translate(");
        if !c.eat("normalize-space(@") {
            return None;
        }
        let attr = c.name()?;
        if !c.eat(")") || (digits && !c.eat(",'0123456789','')")) || !c.eat(",' '),") {
            return None;
        }
        let lit = c.literal()?;
        let value = lit.strip_prefix(' ')?.strip_suffix(' ')?;
        if value.is_empty() || value.contains([' ', '\t', '\r', '\n']) || !c.eat(")") {
            return None;
        }
        return Some(Test::HasToken { attr, value: value.to_string(), digits });
    }
    let digits = c.eat("translate(");
    if !c.eat("substring-before(concat(normalize-space(@") {
        return None;
    }
    let attr = c.name()?;
    if !c.eat("),' '),' ')") {
        return None;
    }
    if digits && !c.eat(",'0123456789','')") {
        return None;
    }
    if !c.eat("=") {
        return None;
    }
    Some(Test::FirstToken { attr, value: c.literal()?, digits })
}

impl CompiledPath {
    /// Compile `xpath` if it is in the induced subset (see the module documentation).
    pub fn parse(xpath: &str) -> Option<CompiledPath> {
        let mut c = Cursor { s: xpath.trim() };
        let descendant = if c.eat("//") {
            true
        } else if c.eat("/") {
            false
        } else {
            return None;
        };
        let mut steps = Vec::new();
        loop {
            let name = c.name()?;
            let mut preds = Vec::new();
            while c.eat("[") {
                let pred = if c.s.starts_with(|ch: char| ch.is_ascii_digit()) {
                    Pred::Position(usize::try_from(c.number()?).ok()?)
                } else if c.s.starts_with("@dfs=") {
                    // A bare or-chain of dfs tests fills the whole predicate.
                    let mut ds = vec![parse_dfs(&mut c)?];
                    while c.eat(" or ") {
                        ds.push(parse_dfs(&mut c)?);
                    }
                    Pred::And(vec![Test::Dfs(ds)])
                } else {
                    let mut tests = vec![parse_test(&mut c)?];
                    while c.eat(" and ") {
                        tests.push(parse_test(&mut c)?);
                    }
                    Pred::And(tests)
                };
                if !c.eat("]") {
                    return None;
                }
                preds.push(pred);
            }
            steps.push(Step { name, preds });
            if c.s.is_empty() {
                break;
            }
            if !c.eat("/") || c.s.starts_with('/') {
                return None;
            }
        }
        Some(CompiledPath { descendant, steps })
    }

    /// The elements the path selects, in document order.
    pub fn select(&self, doc: &Doc) -> Vec<NodeId> {
        let Some(first) = self.steps.first() else { return Vec::new() };
        // Context: the document node. Candidates of the first step, grouped by parent.
        let mut current: Vec<NodeId> = if self.descendant {
            let named: Vec<NodeId> = (0..doc.nodes.len() as NodeId).filter(|&n| is_named(doc, n, &first.name)).collect();
            apply_preds(doc, named, &first.preds)
        } else {
            let roots: Vec<NodeId> = if doc.nodes.is_empty() || !is_named(doc, 0, &first.name) { Vec::new() } else { vec![0] };
            apply_preds(doc, roots, &first.preds)
        };
        for step in &self.steps[1..] {
            let mut next = Vec::new();
            for &parent in &current {
                let kids: Vec<NodeId> = doc.children(parent).filter(|&k| is_named(doc, k, &step.name)).collect();
                next.extend(apply_preds(doc, kids, &step.preds));
            }
            next.sort_unstable();
            next.dedup();
            current = next;
        }
        current
    }
}

fn is_named(doc: &Doc, n: NodeId, name: &str) -> bool {
    doc.element(n).is_some_and(|e| e.name == name)
}

/// Apply a step's predicates in order to nodes that share the step's context; for a `//` first
/// step the context of each node is its parent, so positions count per parent.
fn apply_preds(doc: &Doc, mut nodes: Vec<NodeId>, preds: &[Pred]) -> Vec<NodeId> {
    for pred in preds {
        nodes = match pred {
            Pred::Position(k) => {
                let mut seen: std::collections::HashMap<Option<NodeId>, usize> = std::collections::HashMap::new();
                nodes
                    .into_iter()
                    .filter(|&n| {
                        let c = seen.entry(doc.nodes[n as usize].parent).or_insert(0);
                        *c += 1;
                        *c == *k
                    })
                    .collect()
            }
            Pred::And(tests) => nodes.into_iter().filter(|&n| tests.iter().all(|t| holds(doc, n, t))).collect(),
        };
    }
    nodes
}

/// XPath 1.0 `normalize-space`: XML white space (space, tab, CR, LF) only.
fn first_token(v: &str) -> &str {
    v.split([' ', '\t', '\r', '\n']).find(|t| !t.is_empty()).unwrap_or("")
}

fn holds(doc: &Doc, n: NodeId, t: &Test) -> bool {
    let Some(e) = doc.element(n) else { return false };
    match t {
        Test::Dfs(ds) => ds.contains(&e.dfs),
        Test::FirstToken { attr, value, digits } => {
            let tok = first_token(e.attr(attr).unwrap_or(""));
            if *digits {
                tok.chars().filter(|c| !c.is_ascii_digit()).eq(value.chars())
            } else {
                tok == value
            }
        }
        Test::HasToken { attr, value, digits } => {
            // After `translate`, a token of digits only is gone and the rest of each token
            // stays: the same as dropping digits token by token.
            let v = e.attr(attr).unwrap_or("");
            v.split([' ', '\t', '\r', '\n']).filter(|t| !t.is_empty()).any(|tok| {
                if *digits {
                    tok.chars().filter(|c| !c.is_ascii_digit()).eq(value.chars())
                } else {
                    tok == value
                }
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_induction_writes_and_nothing_else() {
        for x in [
            "//div[substring-before(concat(normalize-space(@class),' '),' ')='story' and (@dfs='78' or @dfs='82')]",
            "//td[@dfs='5']",
            "//p",
            "/html[1]/body[1]/table[2]/tbody[1]/tr[1]/td[3][@dfs='98']",
            "/html[1]/body[1]/td[3][@dfs='98' or @dfs='99']",
            "//div[translate(substring-before(concat(normalize-space(@id),' '),' '),'0123456789','')=concat('a', \"'\", 'b')]/p[2]",
            "//div[contains(concat(' ',normalize-space(@class),' '),' story ')]",
            "//div[contains(concat(' ',translate(normalize-space(@class),'0123456789',''),' '),' story ') and @dfs='3']",
        ] {
            assert!(CompiledPath::parse(x).is_some(), "{x}");
        }
        for x in ["//div[contains(@class,'x')]", "//div[contains(concat(' ',normalize-space(@class),' '),'story')]", "//div[contains(concat(' ',normalize-space(@class),' '),' a b ')]", "//div//p", "//p[@dfs='1' or @dfs='2' and @dfs='3']", "count(//p)", "//div[@dfs=3]", "div"]
            // Not names: sxd-xpath reads expressions there (found by fuzzing: `/+html` is the root plus `html`).
            .into_iter()
            .chain(["/+html/body/div[1]", "//*", "//a:b", "//-x", "//1p", "//p[@+x='y']"])
        {
            assert!(CompiledPath::parse(x).is_none(), "{x}");
        }
    }

    #[test]
    fn selects_like_xpath() {
        let doc = crate::clean::page(
            "<div class='story x'><p>a</p><p>b</p></div><div class=' story2'><p>c</p></div><div class='storybook'>d</div><div class='flex 2 story'>e</div>",
        );
        let sel = |x: &str| -> Vec<String> {
            CompiledPath::parse(x).unwrap().select(&doc).iter().map(|&n| doc.text(n)).collect()
        };
        assert_eq!(sel("//div[substring-before(concat(normalize-space(@class),' '),' ')='story']"), ["a\n\nb"]);
        assert_eq!(
            sel("//div[translate(substring-before(concat(normalize-space(@class),' '),' '),'0123456789','')='story']"),
            ["a\n\nb", "c"]
        );
        assert_eq!(sel("//div[contains(concat(' ',normalize-space(@class),' '),' story ')]"), ["a\n\nb", "e"]);
        assert_eq!(sel("//div[contains(concat(' ',translate(normalize-space(@class),'0123456789',''),' '),' story ')]"), ["a\n\nb", "c", "e"]);
        // The same, by sxd-xpath on the page's XML.
        for x in [
            "//div[contains(concat(' ',normalize-space(@class),' '),' story ')]",
            "//div[contains(concat(' ',translate(normalize-space(@class),'0123456789',''),' '),' story ')]",
        ] {
            let package = sxd_document::parser::parse(&doc.to_xml()).unwrap();
            let document = package.as_document();
            let found = sxd_xpath::evaluate_xpath(&document, &format!("count({x})")).unwrap();
            assert_eq!(found.number() as usize, CompiledPath::parse(x).unwrap().select(&doc).len(), "{x}");
        }
        assert_eq!(sel("//div/p[2]"), ["b"]);
        assert_eq!(sel("//p[1]"), ["a", "c"]);
        assert_eq!(sel("/html[1]/body[1]/div[2]/p[1]"), ["c"]);
    }
}
