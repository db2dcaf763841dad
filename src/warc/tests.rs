//! Tests of the WARC reader and writer.

use super::*;

const DATE: &str = "2024-05-01T12:00:00Z";

/// A record with the given version line and fields and an exact Content-Length.
fn raw(version: &str, fields: &[(&str, &str)], block: &[u8]) -> Vec<u8> {
    let mut out = format!("{version}\r\n").into_bytes();
    for (k, v) in fields {
        out.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
    }
    out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

fn http(status_line: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut out = format!("{status_line}\r\n").into_bytes();
    for (k, v) in headers {
        out.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(body);
    out
}

fn response(uri: &str, block: &[u8]) -> Vec<u8> {
    let fields = [("WARC-Type", "response"), ("WARC-Target-URI", uri), ("WARC-Date", DATE), ("Content-Type", "application/http; msgtype=response")];
    raw("WARC/1.1", &fields, block)
}

fn html_response(uri: &str, body: &str) -> Vec<u8> {
    response(uri, &http("HTTP/1.1 200 OK", &[("Content-Type", "text/html")], body.as_bytes()))
}

fn read_all(bytes: &[u8]) -> Vec<Result<Record>> {
    Reader::new(bytes).collect()
}

fn ok_uris(items: &[Result<Record>]) -> Vec<String> {
    items.iter().filter_map(|r| r.as_ref().ok()).map(|r| r.target_uri.clone().unwrap_or_default()).collect()
}

fn pages_of(bytes: &[u8]) -> (Stats, Vec<(url::Url, Fetched)>) {
    let mut stats = Stats::default();
    let mut pages = Vec::new();
    Reader::new(bytes).pages(&mut stats, |u, f| pages.push((u, f)));
    (stats, pages)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), Compression::fast());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

fn sniffed(bytes: Vec<u8>) -> Result<Reader<Box<dyn BufRead + Send>>> {
    Reader::sniff(Cursor::new(bytes), Path::new("test.warc"), Limits::default())
}

#[test]
fn versions_1_0_1_1_and_0_18_are_read() {
    let mut file = Vec::new();
    for (i, v) in ["WARC/1.0", "WARC/1.1", "WARC/0.18"].iter().enumerate() {
        file.extend(raw(v, &[("WARC-Type", "resource"), ("WARC-Target-URI", &format!("http://a.test/{i}"))], b"x"));
    }
    let items = read_all(&file);
    let versions: Vec<_> = items.iter().map(|r| r.as_ref().unwrap().version.clone()).collect();
    assert_eq!(versions, ["WARC/1.0", "WARC/1.1", "WARC/0.18"]);
    assert_eq!(ok_uris(&items), ["http://a.test/0", "http://a.test/1", "http://a.test/2"]);
}

#[test]
fn header_names_are_case_insensitive_and_fields_are_kept() {
    let block = http("HTTP/1.1 200 OK", &[("content-type", "text/html")], b"<p>hi</p>");
    let mut file = b"WARC/1.0\r\nwarc-type: response\r\nWARC-TARGET-URI: <http://a.test/x>\r\nwarc-date: 2024\r\n".to_vec();
    file.extend(b"warc-record-id: <urn:uuid:1>\r\ncontent-type: application/http; msgtype=response\r\n X-Folded: no\r\n");
    file.extend(format!("content-LENGTH: {}\r\n\r\n", block.len()).as_bytes());
    file.extend(&block);
    let items = read_all(&file);
    let r = items[0].as_ref().unwrap();
    assert_eq!(r.warc_type, "response");
    assert_eq!(r.target_uri.as_deref(), Some("http://a.test/x"));
    assert_eq!(r.date.as_deref(), Some("2024"));
    assert_eq!(r.record_id.as_deref(), Some("<urn:uuid:1>"));
    assert_eq!(r.header("Content-Type"), Some("application/http; msgtype=response X-Folded: no"));
    assert_eq!(r.offset, 0);
    let (stats, pages) = pages_of(&file);
    assert_eq!((stats.html, pages[0].1.bytes.as_slice()), (1, &b"<p>hi</p>"[..]));
}

#[test]
fn missing_or_bad_content_length_is_skipped_and_the_reader_resyncs() {
    let mut file = b"WARC/1.1\r\nWARC-Type: response\r\n\r\nsome block\r\nWARC/ not a version\r\n\r\n".to_vec();
    file.extend(html_response("http://a.test/1", "<p>1</p>"));
    file.extend(b"WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 12x\r\n\r\nblock\r\n\r\n");
    file.extend(html_response("http://a.test/2", "<p>2</p>"));
    let items = read_all(&file);
    assert_eq!(ok_uris(&items), ["http://a.test/1", "http://a.test/2"]);
    let errors: Vec<String> = items.iter().filter_map(|r| r.as_ref().err()).map(|e| e.to_string()).collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].contains("offset 0") && errors[0].contains("no Content-Length"), "{}", errors[0]);
    assert!(errors[1].contains("is not a number"), "{}", errors[1]);
    let (stats, _) = pages_of(&file);
    assert_eq!((stats.records, stats.html, stats.skipped_bad), (2, 2, 2));
}

#[test]
fn separators_may_be_crlf_lf_or_missing() {
    let a = html_response("http://a.test/a", "<p>a</p>");
    let b = html_response("http://a.test/b", "<p>b</p>");
    let c = html_response("http://a.test/c", "<p>c</p>");
    let mut file = a.strip_suffix(b"\r\n\r\n").unwrap().to_vec();
    file.extend(b"\n\n");
    file.extend(b.strip_suffix(b"\r\n\r\n").unwrap());
    let c_at = file.len() as u64;
    file.extend(&c);
    let items = read_all(&file);
    assert_eq!(ok_uris(&items), ["http://a.test/a", "http://a.test/b", "http://a.test/c"]);
    assert_eq!(items[2].as_ref().unwrap().offset, c_at);
    // Bare LF line ends in the headers too.
    let block = "HTTP/1.1 200 OK\nContent-Type: text/html\n\n<p>lf</p>";
    let lf = format!("WARC/1.0\nWARC-Type: response\nWARC-Target-URI: http://a.test/lf\nContent-Length: {}\n\n{block}\n\n", block.len());
    let (_, pages) = pages_of(lf.repeat(2).as_bytes());
    assert_eq!(pages.len(), 2);
    assert_eq!(pages[1].1.bytes, b"<p>lf</p>");
}

#[test]
fn a_truncated_last_record_is_one_error_then_the_end() {
    let mut file = html_response("http://a.test/1", "<p>1</p>");
    let second = html_response("http://a.test/2", "<p>2</p>");
    file.extend(&second[..second.len() - 10]);
    let items = read_all(&file);
    assert_eq!(items.len(), 2);
    assert_eq!(ok_uris(&items), ["http://a.test/1"]);
    assert!(items[1].as_ref().unwrap_err().to_string().contains("truncated"));
    let (stats, _) = pages_of(&file);
    assert_eq!((stats.records, stats.html, stats.skipped_bad), (1, 1, 1));
}

#[test]
fn no_cut_of_a_file_panics_or_loses_the_records_before_it() {
    let mut file = Vec::new();
    let mut ends = Vec::new();
    for i in 0..4 {
        file.extend(html_response(&format!("http://a.test/{i}"), "<html><p>some text</p></html>"));
        ends.push(file.len() - 4);
    }
    for cut in 0..=file.len() {
        let items = read_all(&file[..cut]);
        let whole = ends.iter().filter(|&&e| e <= cut).count();
        assert_eq!(ok_uris(&items).len(), whole, "cut at {cut}");
        assert!(items.len() <= whole + 1, "cut at {cut}");
    }
    let gz: Vec<u8> = file.chunks(ends[0] + 4).flat_map(gzip).collect();
    for cut in 1..=gz.len() {
        if let Ok(reader) = sniffed(gz[..cut].to_vec()) {
            assert!(reader.count() <= 5);
        }
    }
}

#[test]
fn garbage_between_records_is_skipped() {
    let mut file = b"\r\n\r\n".to_vec();
    file.extend(html_response("http://a.test/1", "<p>1</p>"));
    file.extend(b"garbage\r\nmore garbage WARC/1.1\r\n\x00\x01\x02\r\n");
    file.extend(html_response("http://a.test/2", "<p>2</p>"));
    file.extend(vec![b'z'; 200_000]);
    file.extend(b"\nWARC/1.0 and this is a line of garbage\n");
    file.extend(html_response("http://a.test/3", "<p>3</p>"));
    let items = read_all(&file);
    assert_eq!(ok_uris(&items), ["http://a.test/1", "http://a.test/2", "http://a.test/3"]);
    assert_eq!(items.len(), 5);
    assert!(items[1].as_ref().unwrap_err().to_string().contains("not a WARC record"));
    let (stats, pages) = pages_of(&file);
    assert_eq!(pages.len(), 3);
    assert_eq!((stats.records, stats.skipped_bad), (3, 2), "{stats}");
    // A version line inside a record's headers starts the next record.
    let mut file = b"WARC/1.1\r\nWARC-Type: resource\r\n".to_vec();
    file.extend(html_response("http://a.test/4", "<p>4</p>"));
    let items = read_all(&file);
    assert_eq!(ok_uris(&items), ["http://a.test/4"]);
    assert!(items[0].as_ref().unwrap_err().to_string().contains("inside this record's headers"));
    let mut file = html_response("http://a.test/1", "<p>1</p>");
    file.extend(b"junk\r\n");
    file.extend(html_response("http://a.test/3", "<p>3</p>"));
    assert_eq!(ok_uris(&read_all(&file)), ["http://a.test/1", "http://a.test/3"]);
}

#[test]
fn records_that_are_not_responses_are_not_pages() {
    let mut file = Vec::new();
    let mut w = Writer::new(&mut file);
    w.warcinfo(DATE, &[("software", "forest"), ("format", "WARC File Format 1.1")]).unwrap();
    let request = b"GET / HTTP/1.1\r\nHost: a.test\r\n\r\n";
    w.record("request", &[("WARC-Target-URI", "http://a.test/"), ("WARC-Date", DATE), ("Content-Type", "application/http; msgtype=request")], request).unwrap();
    w.record("metadata", &[("WARC-Target-URI", "http://a.test/"), ("WARC-Date", DATE), ("Content-Type", "application/warc-fields")], b"fetchTimeMs: 12\r\n").unwrap();
    let revisit = [("WARC-Target-URI", "http://a.test/"), ("WARC-Date", DATE), ("WARC-Profile", "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest")];
    w.record("revisit", &revisit, b"").unwrap();
    w.resource("http://a.test/r.html", DATE, "text/html", b"<p>resource</p>").unwrap();
    w.response("http://a.test/", DATE, &[("Content-Type", "text/html")], b"<p>page</p>").unwrap();
    w.finish().unwrap();
    let (stats, pages) = pages_of(&file);
    assert_eq!(pages.len(), 1);
    assert_eq!(pages[0].0.as_str(), "http://a.test/");
    let expected = Stats { records: 6, responses: 1, html: 1, bytes: file.len() as u64, ..Stats::default() };
    assert_eq!(stats, expected);
}

#[test]
fn statuses_other_than_200_and_non_html_are_skipped() {
    let mut file = Vec::new();
    file.extend(response("http://a.test/moved", &http("HTTP/1.1 301 Moved Permanently", &[("Location", "/new")], b"")));
    file.extend(response("http://a.test/gone", &http("HTTP/1.0 404 Not Found", &[("Content-Type", "text/html")], b"<p>no</p>")));
    file.extend(response("http://a.test/a.pdf", &http("HTTP/1.1 200 OK", &[("Content-Type", "application/pdf")], b"%PDF-1.4")));
    file.extend(response("http://a.test/a.png", &http("HTTP/1.1 200 OK", &[("Content-Type", "image/png")], b"\x89PNG")));
    file.extend(response("http://a.test/plain", &http("HTTP/1.1 200 OK", &[], b"just text")));
    file.extend(response("http://a.test/sniffed", &http("HTTP/1.1 200 OK", &[], b"\n<!DOCTYPE html><title>t</title>")));
    file.extend(response("http://a.test/x", &http("HTTP/2 200", &[("Content-Type", "application/xhtml+xml")], b"<html/>")));
    let dns = [("WARC-Type", "response"), ("WARC-Target-URI", "dns:a.test"), ("Content-Type", "text/dns")];
    file.extend(raw("WARC/1.1", &dns, b"20240501120000\na.test. 300 IN A 10.0.0.1\n"));
    let (stats, pages) = pages_of(&file);
    let urls: Vec<&str> = pages.iter().map(|(u, _)| u.as_str()).collect();
    assert_eq!(urls, ["http://a.test/sniffed", "http://a.test/x"]);
    assert_eq!((stats.responses, stats.skipped_status, stats.skipped_not_html, stats.skipped_bad), (8, 2, 4, 0), "{stats}");
}

#[test]
fn bad_http_is_skipped_as_bad() {
    let mut file = Vec::new();
    file.extend(response("http://a.test/1", b"HTTP/1.1 OK\r\n\r\n<p>x</p>"));
    file.extend(response("http://a.test/2", b"<html><p>no status line</p></html>"));
    file.extend(response("http://a.test/3", b"HTTP/1.1 200 OK\r\nno colon here\r\n\r\n<p>x</p>"));
    file.extend(response("http://a.test/4", b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n<p>x</p>"));
    file.extend(response("not a url", &http("HTTP/1.1 200 OK", &[], b"<html></html>")));
    file.extend(response("http://a.test/5", &http("HTTP/1.1 200 OK", &[("Content-Type", "text/html")], b"<p>fine</p>")));
    let (stats, pages) = pages_of(&file);
    assert_eq!(pages.len(), 1);
    assert_eq!((stats.records, stats.responses, stats.skipped_bad), (6, 6, 5), "{stats}");
    let record = Reader::new(&file[..]).next().unwrap().unwrap();
    let e = record.http_response(MAX_RECORD_BYTES).unwrap_err().to_string();
    assert!(e.contains("bad HTTP status line") && e.contains("offset 0"), "{e}");
}

#[test]
fn the_http_charset_reaches_decode() {
    let body = b"<html><p>caf\xe9 cr\xe8me</p></html>";
    let file = response("http://a.test/", &http("HTTP/1.1 200 OK", &[("Content-Type", "text/html; charset=windows-1252")], body));
    let (_, pages) = pages_of(&file);
    let fetched = &pages[0].1;
    assert_eq!(fetched.content_type.as_deref(), Some("text/html; charset=windows-1252"));
    assert!(fetched.text().contains("café crème"));
    let loc = Location::Url(pages[0].0.clone());
    let page = crate::Page::from_fetched(&loc, fetched.clone(), &crate::budget::Budget::default()).unwrap();
    assert_eq!(page.location, "http://a.test/");
}

#[test]
fn chunked_and_gzip_bodies_are_decoded_within_the_cap() {
    let chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/html\r\n\r\n5\r\n<p>he\r\n7;x=y\r\nllo</p>\r\n0\r\n\r\n";
    let file = response("http://a.test/c", chunked);
    assert_eq!(pages_of(&file).1[0].1.bytes, b"<p>hello</p>");
    // Kept as is when the stored payload is not chunked after all.
    let file = response("http://a.test/c", &http("HTTP/1.1 200 OK", &[("Transfer-Encoding", "chunked"), ("Content-Type", "text/html")], b"<p>plain</p>"));
    assert_eq!(pages_of(&file).1[0].1.bytes, b"<p>plain</p>");
    let html = format!("<html>{}</html>", "<p>word</p>".repeat(1000));
    let gz = gzip(html.as_bytes());
    let file = response("http://a.test/g", &http("HTTP/1.1 200 OK", &[("Content-Type", "text/html"), ("Content-Encoding", "gzip")], &gz));
    assert_eq!(pages_of(&file).1[0].1.bytes, html.as_bytes());
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), Compression::fast());
    z.write_all(html.as_bytes()).unwrap();
    let file = response("http://a.test/d", &http("HTTP/1.1 200 OK", &[("Content-Encoding", "deflate")], &z.finish().unwrap()));
    assert_eq!(pages_of(&file).1[0].1.bytes, html.as_bytes());
    // A gzip bomb stops at the cap.
    let bomb = gzip(&vec![b' '; 5_000_000]);
    let file = response("http://a.test/b", &http("HTTP/1.1 200 OK", &[("Content-Encoding", "gzip")], &bomb));
    let limits = Limits { max_record_bytes: 1_000_000, ..Limits::default() };
    let mut stats = Stats::default();
    Reader::with_limits(&file[..], limits).pages(&mut stats, |_, _| panic!("no page"));
    assert_eq!((stats.records, stats.skipped_too_large), (1, 1));
}

#[test]
fn gzip_per_record_whole_file_and_cut_files_are_read() {
    let records: Vec<Vec<u8>> = (0..5).map(|i| html_response(&format!("http://a.test/{i}"), "<p>text</p>")).collect();
    let per_record: Vec<u8> = records.iter().flat_map(|r| gzip(r)).collect();
    let whole = gzip(&records.concat());
    let all: Vec<String> = (0..5).map(|i| format!("http://a.test/{i}")).collect();
    for gz in [&per_record, &whole] {
        let items: Vec<_> = sniffed(gz.clone()).unwrap().collect();
        assert_eq!(ok_uris(&items), all);
        assert_eq!(items.len(), 5);
    }
    // Cut inside the fourth member: three records, then one error.
    let cut = records.iter().take(3).map(|r| gzip(r).len()).sum::<usize>() + 20;
    let items: Vec<_> = sniffed(per_record[..cut].to_vec()).unwrap().collect();
    assert_eq!(ok_uris(&items), all[..3]);
    assert_eq!(items.len(), 4);
    let items: Vec<_> = sniffed(whole[..whole.len() / 2].to_vec()).unwrap().collect();
    assert!(ok_uris(&items).len() < 5 && items.last().unwrap().is_err());
    // Files as opened: plain, gzip, empty, not a WARC, a folder.
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [("a.warc", records.concat()), ("a.warc.gz", per_record.clone()), ("e.warc", Vec::new())] {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        let mut stats = Stats::default();
        pages(&path, Limits::default(), &mut stats, |_, _| {}).unwrap();
        assert_eq!(stats.html, if bytes.is_empty() { 0 } else { 5 });
    }
    let path = dir.path().join("page.html");
    std::fs::write(&path, "<html></html>").unwrap();
    let e = Reader::open(&path).err().unwrap();
    assert!(matches!(e, Error::Warc { .. }) && e.to_string().contains("not a WARC file"), "{e}");
    let e = Reader::open(dir.path()).err().unwrap();
    assert!(matches!(e, Error::Io { .. }), "{e}");
    assert!(matches!(Reader::open(&dir.path().join("none.warc")), Err(Error::Io { .. })));
}

#[test]
fn a_record_over_the_limit_is_skipped_unread() {
    let mut file = html_response("http://a.test/1", "<p>1</p>");
    file.extend(html_response("http://a.test/big", &"x".repeat(300_000)));
    file.extend(html_response("http://a.test/2", "<p>2</p>"));
    let limits = Limits { max_record_bytes: 100_000, ..Limits::default() };
    let items: Vec<_> = Reader::with_limits(&file[..], limits).collect();
    assert_eq!(ok_uris(&items), ["http://a.test/1", "http://a.test/2"]);
    assert!(matches!(items[1], Err(Error::TooLarge { limit: 100_000, .. })));
    let mut stats = Stats::default();
    Reader::with_limits(&file[..], limits).pages(&mut stats, |_, _| {});
    assert_eq!((stats.records, stats.html, stats.skipped_too_large), (2, 2, 1));
    // Headers over their limit: a bad record, then the next one.
    let mut file = raw("WARC/1.1", &[("WARC-Type", "resource"), ("X-Long", &"y".repeat(5000))], b"x");
    file.extend(html_response("http://a.test/3", "<p>3</p>"));
    let limits = Limits { max_header_bytes: 1000, ..Limits::default() };
    let items: Vec<_> = Reader::with_limits(&file[..], limits).collect();
    assert_eq!(ok_uris(&items), ["http://a.test/3"]);
    assert!(items[0].as_ref().unwrap_err().to_string().contains("1000-byte limit"));
}

#[test]
fn thousands_of_records_stream_through() {
    let mut file = Vec::new();
    let mut w = Writer::gzip(&mut file);
    w.warcinfo(DATE, &[("software", "forest test")]).unwrap();
    for i in 0..2000 {
        let uri = format!("http://a.test/{i}");
        match i % 4 {
            0 | 1 => w.response(&uri, DATE, &[("Content-Type", "text/html; charset=utf-8")], format!("<p>page {i}</p>").as_bytes()),
            2 => w.resource(&uri, DATE, "image/png", b"\x89PNG"),
            _ => w.response(&uri, DATE, &[("Content-Type", "application/pdf")], b"%PDF"),
        }
        .unwrap();
    }
    w.finish().unwrap();
    let mut stats = Stats::default();
    let mut n = 0;
    sniffed(file).unwrap().pages(&mut stats, |u, f| {
        assert_eq!(f.text(), format!("<p>page {}</p>", u.path().trim_start_matches('/')));
        n += 1;
    });
    assert_eq!(n, 1000);
    assert_eq!((stats.records, stats.responses, stats.html, stats.skipped_not_html, stats.skipped_bad), (2001, 1500, 1000, 500, 0));
}

#[test]
fn writer_output_reads_back_the_same() {
    let bodies: Vec<(String, Vec<u8>)> =
        (0..20).map(|i| (format!("https://b.test/p/{i}?q=1"), format!("<html><p>{}</p></html>", "é".repeat(i)).into_bytes())).collect();
    for gz in [false, true] {
        let mut file = Vec::new();
        let mut w = if gz { Writer::gzip(&mut file) } else { Writer::new(&mut file) };
        for (uri, body) in &bodies {
            w.response(uri, DATE, &[("Content-Type", "text/html; charset=utf-8"), ("ETag", "\"e1\"")], body).unwrap();
        }
        w.finish().unwrap();
        let records: Vec<Record> = sniffed(file).unwrap().map(|r| r.unwrap()).collect();
        let mut ids: Vec<&str> = records.iter().filter_map(|r| r.record_id.as_deref()).collect();
        assert!(ids.iter().all(|id| id.starts_with("<urn:uuid:") && id.len() == 47), "{ids:?}");
        ids.dedup();
        assert_eq!(ids.len(), 20);
        for (r, (uri, body)) in records.iter().zip(&bodies) {
            assert_eq!((r.version.as_str(), r.date.as_deref()), ("WARC/1.1", Some(DATE)));
            assert_eq!(r.content_type.as_deref(), Some("application/http; msgtype=response"));
            let (url, fetched) = r.clone().into_page(MAX_RECORD_BYTES).unwrap();
            assert_eq!((url.as_str(), &fetched.bytes), (uri.as_str(), body));
            assert_eq!(fetched.etag.as_deref(), Some("\"e1\""));
            assert_eq!(r.http_response(MAX_RECORD_BYTES).unwrap().header("content-length"), Some(body.len().to_string().as_str()));
        }
    }
}

#[test]
fn target_uris_that_are_not_utf8_stay_distinct() {
    let record = |uri: &[u8]| {
        let mut out = b"WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: ".to_vec();
        out.extend_from_slice(uri);
        out.extend_from_slice(b"\r\nContent-Length: 1\r\n\r\nx\r\n\r\n");
        out
    };
    let mut file = record(b"http://a.test/caf\xe9");
    file.extend(record(b"http://a.test/caf\xe8"));
    file.extend(record("http://a.test/café".as_bytes()));
    let uris = ok_uris(&read_all(&file));
    assert_eq!(uris, ["http://a.test/caf%E9", "http://a.test/caf%E8", "http://a.test/café"]);
    // Escaped, they are URLs.
    assert!(uris.iter().all(|u| url::Url::parse(u).is_ok()));
}
