//! sxd glue: a cleaned page as an sxd-xpath document, and [`Evaluator`], which evaluates
//! metered [`Program`]s on it and maps what they select back to the page's nodes (elements by
//! `dfs`, text nodes in document order). Wrappers and site configs both evaluate here, so one
//! XPath selects the same nodes whichever file it comes from.

use super::{Meter, Program};
use crate::clean::{collapse_ws, Doc, NodeData, NodeId};
use crate::{Error, Result};
use std::cell::OnceCell;
use std::collections::HashMap;
use sxd_document::dom::{ChildOfElement, Document, Element};
use sxd_xpath::nodeset::Node as XNode;
use sxd_xpath::Value;

/// The cleaned page as an sxd document, adjacent text nodes merged.
pub fn parse(doc: &Doc) -> Result<sxd_document::Package> {
    let package = sxd_document::parser::parse(&doc.to_xml())
        .map_err(|e| Error::XPath { xpath: String::new(), message: format!("cleaned page is not XML: {e:?}") })?;
    merge_texts(package.as_document());
    Ok(package)
}

fn root_element(document: Document<'_>) -> Option<Element<'_>> {
    document.root().children().into_iter().find_map(|c| c.element())
}

/// Merge each run of adjacent text nodes into its first (the parser splits text at entity
/// references; the page and XPath's data model have one text node per run).
fn merge_texts(document: Document<'_>) {
    let Some(root) = root_element(document) else { return };
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        let mut run: Option<(sxd_document::dom::Text, Option<String>)> = None;
        let mut merged = Vec::new();
        let flush = |run: &mut Option<(sxd_document::dom::Text, Option<String>)>| {
            if let Some((first, Some(text))) = run.take() {
                first.set_text(&text);
            }
        };
        for child in e.children() {
            match child {
                ChildOfElement::Text(t) => match &mut run {
                    Some((first, text)) => {
                        text.get_or_insert_with(|| first.text().to_string()).push_str(t.text());
                        merged.push(t);
                    }
                    None => run = Some((t, None)),
                },
                other => {
                    flush(&mut run);
                    if let ChildOfElement::Element(x) = other {
                        stack.push(x);
                    }
                }
            }
        }
        flush(&mut run);
        for t in merged {
            e.remove_child(t);
        }
    }
}

/// XPath evaluation on one parsed page, results mapped back to the page's nodes; every
/// evaluation counts against one meter (the page's node-visit budget and deadline).
pub struct Evaluator<'d> {
    doc: &'d Doc,
    document: Document<'d>,
    context: sxd_xpath::Context<'d>,
    /// Node of each text node of the XML (built when a result first holds text).
    texts: OnceCell<HashMap<XNode<'d>, NodeId>>,
}

impl<'d> Evaluator<'d> {
    /// Within the default node-visit budget, no deadline.
    pub fn new(doc: &'d Doc, package: &'d sxd_document::Package) -> Evaluator<'d> {
        Evaluator::within(doc, package, &Meter::default())
    }

    /// Every evaluation counting against `meter`.
    pub fn within(doc: &'d Doc, package: &'d sxd_document::Package, meter: &Meter) -> Evaluator<'d> {
        Evaluator { doc, document: package.as_document(), context: super::context(meter), texts: OnceCell::new() }
    }

    /// The page evaluated on.
    pub fn doc(&self) -> &'d Doc {
        self.doc
    }

    /// The value of `p` from the document's root.
    ///
    /// # Errors
    /// As [`super::eval_error`]: a spent budget, or sxd-xpath's failure.
    pub fn value(&self, p: &Program) -> Result<Value<'d>> {
        p.evaluate(&self.context, self.document.root()).map_err(|e| super::eval_error(p.source(), e))
    }

    /// The elements and text nodes selected, in document order.
    ///
    /// # Errors
    /// [`Error::XPath`] when evaluation fails or the value is not a node set.
    pub fn nodes(&self, p: &Program) -> Result<Vec<NodeId>> {
        let Value::Nodeset(set) = self.value(p)? else {
            return Err(Error::XPath { xpath: p.source().to_string(), message: "does not select nodes".into() });
        };
        Ok(self.node_ids(&set))
    }

    /// The page's nodes for the elements and text nodes of `set`, in document order.
    pub fn node_ids(&self, set: &sxd_xpath::nodeset::Nodeset<'d>) -> Vec<NodeId> {
        let mut out = Vec::with_capacity(set.size());
        for n in set.iter() {
            let id = match n {
                XNode::Element(e) => self.element_node(e),
                XNode::Text(_) => self.text_map().get(&n).copied(),
                _ => None,
            };
            out.extend(id);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The elements `p` selects, nested ones merged into the outermost, in document order.
    ///
    /// # Errors
    /// As [`Evaluator::nodes`].
    pub fn elements(&self, p: &Program) -> Result<Vec<NodeId>> {
        let nodes = self.nodes(p)?.into_iter().filter(|&n| self.doc.element(n).is_some()).collect();
        Ok(self.doc.outermost(nodes))
    }

    /// A string result, or the text of each node selected: white space collapsed, non-empty.
    pub fn strings(&self, p: &Program) -> Vec<String> {
        let texts = match self.value(p) {
            Ok(Value::Nodeset(set)) => set.document_order().iter().map(XNode::string_value).collect(),
            Ok(Value::String(s)) => vec![s],
            _ => Vec::new(),
        };
        texts.iter().map(|s| collapse_ws(s)).filter(|s| !s.is_empty()).collect()
    }

    fn element_node(&self, e: Element<'d>) -> Option<NodeId> {
        self.doc.by_dfs(e.attribute_value("dfs")?.parse().ok()?)
    }

    /// Text nodes of the XML to the page's: both in document order, one for one (checked on
    /// the elements' `dfs`; the map stops where they part, which a cleaned page never does).
    #[allow(clippy::mutable_key_type)] // sxd nodes hash and compare by node address, which never changes
    fn text_map(&self) -> &HashMap<XNode<'d>, NodeId> {
        self.texts.get_or_init(|| {
            let mut map = HashMap::new();
            let doc = self.doc;
            let is_element = |i: usize, e: Element<'d>| {
                let dfs = e.attribute_value("dfs").and_then(|v| v.parse::<u32>().ok());
                doc.element(i as NodeId).is_some_and(|x| Some(x.dfs) == dfs)
            };
            let Some(root) = root_element(self.document) else { return map };
            if !is_element(0, root) {
                return map;
            }
            let mut next = 1usize;
            let mut stack = vec![root.children().into_iter()];
            while let Some(top) = stack.last_mut() {
                let Some(child) = top.next() else {
                    stack.pop();
                    continue;
                };
                match child {
                    ChildOfElement::Element(e) => {
                        if !is_element(next, e) {
                            break;
                        }
                        next += 1;
                        stack.push(e.children().into_iter());
                    }
                    ChildOfElement::Text(t) => {
                        if !matches!(doc.nodes.get(next).map(|n| &n.data), Some(NodeData::Text(_))) {
                            break;
                        }
                        map.insert(XNode::Text(t), next as NodeId);
                        next += 1;
                    }
                    _ => {}
                }
            }
            map
        })
    }
}
