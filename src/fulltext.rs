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

/// A feed with full articles: its bytes, and how many of its items got their article.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewritten {
    /// The feed, in its own format.
    pub bytes: Vec<u8>,
    /// Items that got their article.
    pub filled: usize,
}

/// A feed at a location, fetched, with each item's article by a site's rules ([`fill`]).
#[derive(Debug)]
pub struct Filled {
    /// The feed with its items' articles.
    pub feed: Rewritten,
    /// The feed's items.
    pub items: usize,
    /// Items that could not be mapped to a page.
    pub skipped: Vec<crate::feed::Skipped>,
    /// Pages whose article could not be had, with why.
    pub failed: Vec<(crate::fetch::Location, Error)>,
}

/// The feed at `at`, fetched with `fetcher`, its items' pages read (`jobs` at once, each within
/// `budget`) and extracted with `rules`, and the feed rewritten with their articles
/// ([`rewrite`]).
///
/// # Errors
/// The feed's fetch and parse errors; [`rewrite`]'s.
pub fn fill(rules: &crate::rules::Rules, fetcher: &crate::fetch::Fetcher, at: &crate::fetch::Location, jobs: usize, budget: &crate::budget::Budget) -> Result<Filled> {
    let fetched = fetcher.get(at)?;
    let sample = crate::feed::parse(&fetched.bytes, &fetched.location)?;
    let sources = sample.items.iter().map(|i| crate::page::Source::Read(i.page.clone(), Some(i.clone())));
    let mut links = sample.items.iter().map(|i| i.link.clone());
    let (mut articles, mut failed) = (HashMap::new(), Vec::new());
    rules.articles(sources, jobs, fetcher, budget, crate::article::Fields::All, |loc, r| -> Result<()> {
        match (r, links.next().flatten()) {
            (Ok(article), Some(link)) => {
                articles.insert(link, article.html());
            }
            (Ok(_), None) => {}
            (Err(e), _) => failed.push((loc, e)),
        }
        Ok(())
    })?;
    let feed = rewrite(&fetched.bytes, &at.to_string(), &articles)?;
    Ok(Filled { feed, items: sample.items.len() + sample.skipped.len(), skipped: sample.skipped, failed })
}

/// `feed` (its bytes, read from `what`) with the HTML of `articles` (by the item's link, as
/// the feed writes it) in each item: RSS 2.0 and RSS 1.0 items get `content:encoded`, Atom
/// entries `content`, JSON Feed items `content_html`; each stays in its own format.
///
/// # Errors
/// [`Error::Feed`] when the feed is neither XML nor a JSON Feed.
pub fn rewrite(feed: &[u8], what: &str, articles: &HashMap<String, String>) -> Result<Rewritten> {
    // A JSON Feed is a JSON object (after a byte order mark and white space, if any).
    if feed.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(feed).trim_ascii_start().starts_with(b"{") {
        return rewrite_json(feed, what, articles);
    }
    let bad = |e: String| Error::Feed { what: what.to_string(), message: e };
    let mut filled = 0usize;
    let mut root_seen = false;
    let mut reader = quick_xml::Reader::from_reader(feed);
    let mut writer = quick_xml::Writer::new(Vec::with_capacity(feed.len() * 2));
    let mut buf = Vec::new();
    // Per open item: its link, whether it has a <content> (Atom), whether it is Atom.
    let mut item: Option<(String, bool, bool)> = None;
    let mut in_link = false;
    loop {
        let event = reader.read_event_into(&mut buf).map_err(|e| bad(format!("not XML: {e}")))?;
        match &event {
            // The root of an RSS feed (2.0's `rss`, 1.0's `rdf:RDF`) declares the `content:`
            // prefix the items' `content:encoded` uses.
            Event::Start(e) if !root_seen && e.local_name().as_ref() != b"feed" => {
                root_seen = true;
                let mut start = e.to_owned();
                if !e.attributes().flatten().any(|a| a.key.as_ref() == b"xmlns:content") {
                    start.push_attribute(("xmlns:content", CONTENT_NS));
                }
                writer.write_event(Event::Start(start)).map_err(|e| bad(e.to_string()))?;
                buf.clear();
                continue;
            }
            Event::Start(_) if !root_seen => root_seen = true,
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
            Event::CData(t) if in_link => {
                if let Some((link, _, _)) = item.as_mut() {
                    link.push_str(String::from_utf8_lossy(t).trim());
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
                        filled += 1;
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
    Ok(Rewritten { bytes: writer.into_inner(), filled })
}

/// A JSON Feed (jsonfeed.org, 1.0 and 1.1) with `content_html` set on each item whose `url`
/// has an article; the rest of the feed as it was.
fn rewrite_json(feed: &[u8], what: &str, articles: &HashMap<String, String>) -> Result<Rewritten> {
    let bad = |message: String| Error::Feed { what: what.to_string(), message };
    let mut value: serde_json::Value = serde_json::from_slice(feed).map_err(|e| bad(format!("not JSON: {e}")))?;
    let items = value.get_mut("items").and_then(serde_json::Value::as_array_mut).ok_or_else(|| bad("a JSON Feed without items".into()))?;
    let mut filled = 0usize;
    for item in items.iter_mut() {
        let url = item.get("url").or_else(|| item.get("external_url")).and_then(serde_json::Value::as_str).map(str::trim);
        let Some(html) = url.and_then(|u| articles.get(u)) else { continue };
        if let Some(o) = item.as_object_mut() {
            o.insert("content_html".into(), serde_json::Value::String(html.clone()));
            filled += 1;
        }
    }
    let bytes = serde_json::to_vec_pretty(&value).map_err(|e| bad(e.to_string()))?;
    Ok(Rewritten { bytes, filled })
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
        assert_eq!(out.filled, 1);
        let out = out.bytes;
        let feed = feed_rs::parser::parse(out.as_slice()).expect("the output is a feed");
        assert_eq!(feed.entries.len(), 2);
        let body = feed.entries[0].content.as_ref().and_then(|c| c.body.clone()).unwrap_or_default();
        assert_eq!(body, "<p>Full <b>one</b> ]]> end</p>");
        assert!(feed.entries[1].content.is_none());
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("xmlns:content=") && text.contains("<description>short</description>"), "{text}");
    }

    #[test]
    fn rss_1_cdata_links_and_json_feeds_get_their_articles_in_their_own_format() {
        // RSS 1.0: the content: prefix is declared on its root, so the output is well-formed.
        let rdf = br#"<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
<channel rdf:about="https://a.test/"><title>T</title><link>https://a.test/</link></channel>
<item rdf:about="https://a.test/1"><title>One</title><link>https://a.test/1?x=1&amp;y=2</link></item></rdf:RDF>"#;
        let out = rewrite(rdf, "f", &articles()).unwrap();
        assert_eq!(out.filled, 1);
        let feed = feed_rs::parser::parse(out.bytes.as_slice()).expect("the RSS 1.0 output is a feed");
        let body = feed.entries[0].content.as_ref().and_then(|c| c.body.clone()).unwrap_or_default();
        assert!(body.contains("Full <b>one</b>"), "{body}");
        // A link written as CDATA.
        let rss = br#"<rss version="2.0"><channel><title>T</title><item><title>One</title><link><![CDATA[https://a.test/1?x=1&y=2]]></link></item></channel></rss>"#;
        assert_eq!(rewrite(rss, "f", &articles()).unwrap().filled, 1);
        // A JSON Feed stays a JSON Feed, with content_html.
        let json = br#"{"version":"https://jsonfeed.org/version/1.1","title":"T","items":[{"id":"1","url":"https://a.test/1?x=1&y=2"},{"id":"2","url":"https://a.test/2"}]}"#;
        let out = rewrite(json, "f", &articles()).unwrap();
        assert_eq!(out.filled, 1);
        let v: serde_json::Value = serde_json::from_slice(&out.bytes).unwrap();
        assert_eq!(v["items"][0]["content_html"], "<p>Full <b>one</b> ]]> end</p>");
        assert!(v["items"][1].get("content_html").is_none());
        assert!(rewrite(b"{\"items\": 3}", "f", &articles()).is_err());
    }

    #[test]
    fn atom_entries_get_html_content() {
        let atom = br#"<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
<entry><title>One</title><link rel="alternate" href="https://a.test/1?x=1&amp;y=2"/><id>1</id></entry></feed>"#;
        let out = rewrite(atom, "f", &articles()).unwrap().bytes;
        let feed = feed_rs::parser::parse(out.as_slice()).expect("the output is a feed");
        let body = feed.entries[0].content.as_ref().and_then(|c| c.body.clone()).unwrap_or_default();
        assert!(body.contains("Full <b>one</b>"), "{body}");
        assert!(rewrite(b"</oops>", "f", &articles()).is_err());
    }
}
