//! Formulas the cleaner drops, kept as TeX in the text: MathML's own TeX (`alttext`, a TeX
//! annotation) or the MathML written as TeX, and MathJax's `math/tex` scripts.

use super::{Kind, Tree, NONE};
use html5ever::Attribute;

/// The TeX of a formula the cleaner drops, between dollars (doubled for a displayed one): a
/// MathML `<math>`'s `alttext`, else its `annotation` whose encoding names TeX, else the
/// MathML written as TeX ([`mathml_tex`]); a MathJax `<script type="math/tex">`'s text. `None`
/// for any other element.
pub(super) fn formula(tree: &Tree, node: usize, local: &str, attrs: &[Attribute]) -> Option<String> {
    let attr = |k: &str| attrs.iter().find(|a| &*a.name.local == k).map(|a| &*a.value);
    let text_of = |n: usize| match tree.nodes.get(tree.nodes.get(n)?.first()).map(|c| &c.kind) {
        Some(Kind::Text(t)) => Some(t.trim().to_string()),
        _ => None,
    };
    let (tex, display) = match local {
        "math" => {
            let display = attr("display").is_some_and(|d| d.trim().eq_ignore_ascii_case("block"));
            let alt = attr("alttext").map(|t| t.trim().to_string()).filter(|t| !t.is_empty());
            (alt.or_else(|| tex_annotation(tree, node).and_then(text_of)).or_else(|| mathml_tex(tree, node)), display)
        }
        "script" => {
            let kind = attr("type").map(|t| t.trim().to_ascii_lowercase()).unwrap_or_default();
            if !kind.starts_with("math/tex") {
                return None;
            }
            (text_of(node), kind.contains("mode=display"))
        }
        _ => return None,
    };
    let tex = tex.filter(|t| !t.is_empty() && t.len() <= 10_000)?;
    Some(if display { format!(" $${tex}$$ ") } else { format!(" ${tex}$ ") })
}

/// The `annotation` of the MathML formula at `math` whose encoding names TeX (looked for among
/// at most 10,000 nodes).
fn tex_annotation(tree: &Tree, math: usize) -> Option<usize> {
    let mut stack = vec![tree.nodes.get(math)?.first()];
    let mut seen = 0usize;
    while let Some(n) = stack.pop() {
        let Some(node) = tree.nodes.get(n) else { continue };
        seen += 1;
        if seen > 10_000 {
            break;
        }
        stack.push(node.next());
        if let Kind::Element { name, attrs, .. } = &node.kind {
            let tex = attrs.iter().any(|a| &*a.name.local == "encoding" && a.value.to_ascii_lowercase().contains("tex"));
            if &*name.local == "annotation" && tex {
                return Some(n);
            }
            stack.push(node.first());
        }
    }
    None
}

/// The MathML formula at `math` as TeX, for one with no TeX of its own: its tokens (`mi`,
/// `mn`, `mo`) as written, `mtext` as `\text{…}`, and its layouts as TeX's (`msup` `{a}^{b}`,
/// `msub`, `msubsup`, `mfrac` `\frac{a}{b}`, `msqrt`, `mroot`, `mover`, `munder`,
/// `munderover`, `mfenced`, `mtable` as a `matrix`); none past 10,000 nodes. Built bottom-up
/// with explicit stacks: no nesting depth can overflow the stack.
fn mathml_tex(tree: &Tree, math: usize) -> Option<String> {
    // Per open element: the element, its children's TeX, and its next child to visit.
    let mut frames: Vec<(usize, Vec<String>, usize)> = vec![(math, Vec::new(), tree.nodes.get(math)?.first())];
    let mut seen = 0usize;
    while let Some(top) = frames.last_mut() {
        let child = top.2;
        if child == NONE {
            let Some((node, parts, _)) = frames.pop() else { break };
            let tex = math_layout(tree, node, parts);
            match frames.last_mut() {
                Some(parent) => parent.1.push(tex),
                None => return Some(tex.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|t| !t.is_empty()),
            }
            continue;
        }
        seen += 1;
        if seen > 10_000 {
            return None;
        }
        let n = tree.nodes.get(child)?;
        top.2 = n.next();
        match &n.kind {
            Kind::Text(t) if !t.trim().is_empty() => top.1.push(t.trim().to_string()),
            Kind::Element { .. } => frames.push((child, Vec::new(), n.first())),
            _ => {}
        }
    }
    None
}

/// The TeX of MathML element `node` from its children's (see [`mathml_tex`]).
fn math_layout(tree: &Tree, node: usize, parts: Vec<String>) -> String {
    let Some(Kind::Element { name, attrs, .. }) = tree.nodes.get(node).map(|n| &n.kind) else { return String::new() };
    let attr = |k: &str| attrs.iter().find(|a| &*a.name.local == k).map(|a| a.value.to_string());
    let g = |i: usize| format!("{{{}}}", parts.get(i).map_or("", String::as_str));
    let all = parts.join(" ");
    match &*name.local {
        "annotation" | "annotation-xml" | "mphantom" | "none" | "mprescripts" => String::new(),
        "semantics" => parts.into_iter().next().unwrap_or_default(),
        "msup" => format!("{}^{}", g(0), g(1)),
        "msub" => format!("{}_{}", g(0), g(1)),
        "msubsup" => format!("{}_{}^{}", g(0), g(1), g(2)),
        "mfrac" => format!("\\frac{}{}", g(0), g(1)),
        "msqrt" => format!("\\sqrt{{{all}}}"),
        "mroot" => format!("\\sqrt[{}]{}", parts.get(1).map_or("", String::as_str), g(0)),
        "mover" => format!("\\overset{}{}", g(1), g(0)),
        "munder" => format!("\\underset{}{}", g(1), g(0)),
        "munderover" => format!("\\underset{}{{\\overset{}{}}}", g(1), g(2), g(0)),
        "mtext" => format!("\\text{{{all}}}"),
        "mfenced" => {
            let (open, close) = (attr("open").unwrap_or_else(|| "(".into()), attr("close").unwrap_or_else(|| ")".into()));
            let sep = attr("separators").and_then(|s| s.trim().chars().next()).unwrap_or(',');
            format!("\\left{open} {} \\right{close}", parts.join(&format!("{sep} ")))
        }
        "mtr" | "mlabeledtr" => parts.join(" & "),
        "mtable" => format!("\\begin{{matrix}} {} \\end{{matrix}}", parts.join(" \\\\ ")),
        _ => all,
    }
}

