//! Full-text feeds: a feed (RSS or Atom) written back with each item's full article, the way
//! Full-Text RSS and wallabag users expect.
//!
//! The feed's own XML is copied event by event, so everything it holds stays (titles, dates,
//! enclosures, extensions); before the end of each item the article of its link is added: an
//! RSS `<item>` gets `<content:encoded>` (the `content` namespace is declared on `<rss>` when
//! missing), an Atom `<entry>` gets `<content type="html">` unless it has a `<content>`
//! already. Items whose page gave no article are left as they were.

use crate::{Error, Result};
use quick_xml::events::{BytesCData, BytesEnd, BytesStart, BytesText, Event};
use std::collections::HashMap;

const CONTENT_NS: &str = "http://purl.org/rss/1.0/modules/content/";

/// `feed` (its bytes, read from `what`) with the HTML of `articles` (by the item's link, as
/// the feed writes it) in each item.
///
/// # Errors
/// [`Error::Feed`] when the feed is not XML.
pub fn rewrite(feed: &[u8], what: &str, articles: &HashMap<String, String>) -> Result<Vec<u8>> {
    let bad = |e: String| Error::Feed { what: what.to_string(), message: e };
    let mut reader = quick_xml::Reader::from_reader(feed);
    let mut writer = quick_xml::Writer::new(Vec::with_capacity(feed.len() * 2));
    let mut buf = Vec::new();
    // Per open item: its link, whether it has a <content> (Atom), whether it is Atom.
    let mut item: Option<(String, bool, bool)> = None;
    let mut in_link = false;
    loop {
        let event = reader.read_event_into(&mut buf).map_err(|e| bad(format!("not XML: {e}")))?;
        match &event {
            Event::Start(e) if e.local_name().as_ref() == b"rss" => {
                let mut start = e.to_owned();
                if !e.attributes().flatten().any(|a| a.key.as_ref() == b"xmlns:content") {
                    start.push_attribute(("xmlns:content", CONTENT_NS));
                }
                writer.write_event(Event::Start(start)).map_err(|e| bad(e.to_string()))?;
                buf.clear();
                continue;
            }
            Event::Start(e) if matches!(e.local_name().as_ref(), b"item" | b"entry") => {
                item = Some((String::new(), false, e.local_name().as_ref() == b"entry"));
            }
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"link" => {
                if let Some((link, _, atom)) = item.as_mut() {
                    if *atom {
                        let rel = attr(e, b"rel");
                        if link.is_empty() && rel.as_deref().is_none_or(|r| r == "alternate") {
                            *link = attr(e, b"href").unwrap_or_default();
                        }
                    } else {
                        in_link = matches!(event, Event::Start(_));
                    }
                }
            }
            Event::Start(e) if e.local_name().as_ref() == b"content" && e.name().as_ref() == b"content" => {
                if let Some((_, has, _)) = item.as_mut() {
                    *has = true;
                }
            }
            Event::Text(t) if in_link => {
                if let Some((link, _, _)) = item.as_mut() {
                    link.push_str(t.decode().map_err(|e| bad(e.to_string()))?.trim());
                }
            }
            Event::GeneralRef(r) if in_link => {
                if let Some((link, _, _)) = item.as_mut() {
                    link.extend(crate::sitemap::xml_ref(r));
                }
            }
            Event::End(e) if e.local_name().as_ref() == b"link" => in_link = false,
            Event::End(e) if matches!(e.local_name().as_ref(), b"item" | b"entry") => {
                if let Some((link, has, atom)) = item.take() {
                    if let Some(html) = articles.get(link.trim()) {
                        let w = &mut writer;
                        if atom && !has {
                            let mut start = BytesStart::new("content");
                            start.push_attribute(("type", "html"));
                            w.write_event(Event::Start(start)).map_err(|e| bad(e.to_string()))?;
                            w.write_event(Event::Text(BytesText::new(html))).map_err(|e| bad(e.to_string()))?;
                            w.write_event(Event::End(BytesEnd::new("content"))).map_err(|e| bad(e.to_string()))?;
                        } else if !atom {
                            w.write_event(Event::Start(BytesStart::new("content:encoded"))).map_err(|e| bad(e.to_string()))?;
                            // A CDATA section cannot hold `]]>`: split it there.
                            for (i, part) in html.split("]]>").enumerate() {
                                if i > 0 {
                                    w.write_event(Event::CData(BytesCData::new("]]"))).map_err(|e| bad(e.to_string()))?;
                                    w.write_event(Event::CData(BytesCData::new(">"))).map_err(|e| bad(e.to_string()))?;
                                }
                                w.write_event(Event::CData(BytesCData::new(part))).map_err(|e| bad(e.to_string()))?;
                            }
                            w.write_event(Event::End(BytesEnd::new("content:encoded"))).map_err(|e| bad(e.to_string()))?;
                        }
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
        writer.write_event(event).map_err(|e| bad(e.to_string()))?;
        buf.clear();
    }
    Ok(writer.into_inner())
}

fn attr(e: &BytesStart, name: &[u8]) -> Option<String> {
    e.attributes().flatten().find(|a| a.key.as_ref() == name).and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn articles() -> HashMap<String, String> {
        HashMap::from([("https://a.test/1?x=1&y=2".to_string(), "<p>Full <b>one</b> ]]> end</p>".to_string())])
    }

    #[test]
    fn rss_items_get_content_encoded_and_the_rest_stays() {
        let rss = br#"<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>
<item><title>One</title><link>https://a.test/1?x=1&amp;y=2</link><description>short</description></item>
<item><title>Two</title><link>https://a.test/2</link></item></channel></rss>"#;
        let out = rewrite(rss, "f", &articles()).unwrap();
        let feed = feed_rs::parser::parse(out.as_slice()).expect("the output is a feed");
        assert_eq!(feed.entries.len(), 2);
        let body = feed.entries[0].content.as_ref().and_then(|c| c.body.clone()).unwrap_or_default();
        assert_eq!(body, "<p>Full <b>one</b> ]]> end</p>");
        assert!(feed.entries[1].content.is_none());
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("xmlns:content=") && text.contains("<description>short</description>"), "{text}");
    }

    #[test]
    fn atom_entries_get_html_content() {
        let atom = br#"<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
<entry><title>One</title><link rel="alternate" href="https://a.test/1?x=1&amp;y=2"/><id>1</id></entry></feed>"#;
        let out = rewrite(atom, "f", &articles()).unwrap();
        let feed = feed_rs::parser::parse(out.as_slice()).expect("the output is a feed");
        let body = feed.entries[0].content.as_ref().and_then(|c| c.body.clone()).unwrap_or_default();
        assert!(body.contains("Full <b>one</b>"), "{body}");
        assert!(rewrite(b"</oops>", "f", &articles()).is_err());
    }
}
