//! The cleaned tree as well-formed XML, with `dfs` on every element (quick-xml writer).

use super::{Doc, NodeData, NodeId};
use quick_xml::events::{BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

impl Doc {
    /// Serialize the page as one XML document: no declaration, no DOCTYPE, no namespaces, no
    /// entities but the five predefined ones, so any XML parser (sxd-xpath's included) reads it.
    pub fn to_xml(&self) -> String {
        let mut out = Vec::with_capacity(self.nodes.len() * 32);
        self.write_xml(&mut out);
        // Every piece written is valid UTF-8 (names and texts are `String`s).
        String::from_utf8(out).unwrap_or_default()
    }

    /// Append the XML form of the page to `out`.
    pub fn write_xml(&self, out: &mut Vec<u8>) {
        self.write_xml_range(out, 0, self.nodes.len() as NodeId, &[]);
    }

    /// Append the XML form of the subtree at `root` to `out`, leaving out the nodes `skip`
    /// marks (an element with its whole subtree; a node past the end of `skip` is kept).
    pub(crate) fn write_xml_subtree(&self, out: &mut Vec<u8>, root: NodeId, skip: &[bool]) {
        if let Some(node) = self.nodes.get(root as usize) {
            self.write_xml_range(out, root, node.end, skip);
        }
    }

    /// Append the XML form of the nodes `start..end` (whole subtrees) to `out`, minus `skip`.
    fn write_xml_range(&self, out: &mut Vec<u8>, start: NodeId, end: NodeId, skip: &[bool]) {
        let mut w = Writer::new(out);
        // Elements still open, as (node, end of its subtree).
        let mut open: Vec<(NodeId, NodeId)> = Vec::new();
        let mut dfs_buf = itoa_buf();
        let mut i = start;
        while i < end {
            let Some(node) = self.nodes.get(i as usize) else { break };
            close_until(&mut w, self, &mut open, i);
            if skip.get(i as usize).copied().unwrap_or(false) {
                i = node.end.max(i + 1);
                continue;
            }
            match &node.data {
                NodeData::Text(t) => {
                    let _ = w.write_event(Event::Text(BytesText::new(t)));
                }
                NodeData::Element(e) => {
                    let mut start = BytesStart::new(e.name.as_str());
                    for (k, v) in &e.attrs {
                        start.push_attribute((k.as_str(), v.as_str()));
                    }
                    start.push_attribute(("dfs", fmt_u32(&mut dfs_buf, e.dfs)));
                    if node.end == i + 1 {
                        let _ = w.write_event(Event::Empty(start));
                    } else {
                        let _ = w.write_event(Event::Start(start));
                        open.push((i, node.end));
                    }
                }
            }
            i += 1;
        }
        close_until(&mut w, self, &mut open, NodeId::MAX);
    }
}

/// Close every open element whose subtree ends at or before `next`.
fn close_until(w: &mut Writer<&mut Vec<u8>>, doc: &Doc, open: &mut Vec<(NodeId, NodeId)>, next: NodeId) {
    while let Some(&(id, end)) = open.last() {
        if end > next {
            break;
        }
        open.pop();
        if let Some(e) = doc.element(id) {
            let _ = w.write_event(Event::End(BytesEnd::new(e.name.as_str())));
        }
    }
}

fn itoa_buf() -> String {
    String::with_capacity(10)
}

fn fmt_u32(buf: &mut String, n: u32) -> &str {
    use std::fmt::Write;
    buf.clear();
    let _ = write!(buf, "{n}");
    buf
}

#[cfg(test)]
mod tests {
    use crate::clean::page;

    #[test]
    fn escapes_text_and_attributes() {
        let doc = page("<p title='a\"<b'>x &amp; y &lt;z&gt;</p>");
        assert_eq!(
            doc.to_xml(),
            "<html dfs=\"0\"><head dfs=\"1\"/><body dfs=\"2\"><p title=\"a&quot;&lt;b\" dfs=\"3\">x &amp; y &lt;z&gt;</p></body></html>"
        );
    }
}
