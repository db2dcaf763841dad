"""The Python API on the bundled demo site: extract, induce, wrappers, the store, batches."""

import json
import pathlib
import pickle

import pytest

import forest
from conftest import DEMO, DEMO_HOST, demo_pages

BRIDGE = DEMO / "bridge-repair.html"
BRIDGE_URL = f"https://{DEMO_HOST}/2024/03/bridge-repair.html"


def test_extract_single_page():
    a = forest.extract(BRIDGE.read_bytes(), BRIDGE_URL)
    assert a.title == "Elm Street Bridge to Close for Six Weeks of Repairs"
    assert "Elm Street Bridge" in a.text
    assert (a.url, a.host, a.source) == (BRIDGE_URL, DEMO_HOST, BRIDGE_URL)
    assert a.rule == "single-page"
    assert 0.5 < a.confidence < 1.0  # a clean article no second extractor checked: confident, not certain
    assert str(a) == a.text + "\n" == a.output
    assert a.markdown.startswith("#") and "<p>" in a.html


def test_str_and_bytes_give_the_same_article():
    html = BRIDGE.read_bytes()
    assert forest.extract(html.decode(), BRIDGE_URL).text == forest.extract(html, BRIDGE_URL).text
    assert forest.extract((BRIDGE_URL, html)).text == forest.extract(html, BRIDGE_URL).text


def test_to_dict_has_the_json_fields():
    a = forest.extract(BRIDGE.read_bytes(), BRIDGE_URL, format="json")
    d = a.to_dict()
    fields = ["url", "source", "host", "title", "byline", "published", "lang", "text", "html", "xpath", "rule", "confidence", "page_type",
              "authors", "modified", "site_name", "description", "image", "tags", "categories", "canonical_url"]
    assert list(d) == fields + ["markdown"]
    assert json.loads(str(a)) == {k: d[k] for k in fields}
    assert str(a) == a.to_json(pretty=True) + "\n"
    assert a.render("jsonl") == a.to_json() + "\n"


def test_induce_from_a_feed_and_apply():
    w = forest.induce(DEMO / "feed.xml")
    assert w.host == DEMO_HOST
    assert "article-body" in w.xpath
    a = w.apply(BRIDGE.read_bytes(), BRIDGE_URL)
    assert a.rule == "exact"
    assert a.confidence > 0.5  # the two extractors agree on the demo page
    assert a.xpath == w.xpath


def test_induce_from_pairs_equals_folder_of_urls():
    w = forest.induce(demo_pages())
    assert w.host == DEMO_HOST
    assert w.apply(BRIDGE.read_bytes(), BRIDGE_URL).rule == "exact"


def test_wrapper_save_load_and_json(tmp_path):
    w = forest.induce(str(DEMO))
    w.save(tmp_path / "w.json")
    assert forest.Wrapper.load(tmp_path / "w.json") == w
    assert forest.Wrapper.from_json(w.to_json()) == w


def test_store(tmp_path):
    store = forest.Store(tmp_path / "store")
    w = forest.induce(DEMO / "feed.xml")
    store.add(w)
    assert store.hosts() == [DEMO_HOST]
    assert DEMO_HOST in store and store.get(DEMO_HOST) == w
    assert store.get("elsewhere.example") is None
    a = forest.extract(BRIDGE.read_bytes(), BRIDGE_URL, store=store)
    assert a.rule == "exact"
    # A host the store does not know: the single-page extractor.
    b = forest.extract(BRIDGE.read_bytes(), "https://elsewhere.example/a.html", store=store)
    assert b.rule == "single-page"
    assert store.remove(DEMO_HOST) and store.hosts() == []


def test_extract_many_is_extract_in_order():
    pages = demo_pages()
    w = forest.induce(pages)
    one = [w.apply(html, url, format="json").output for url, html in pages]
    for jobs in (1, 2):
        many = forest.extract_many(pages, wrapper=w, format="json", jobs=jobs)
        assert [a.output for a in many] == one


def test_extract_many_of_a_folder():
    arts = forest.extract_many([DEMO])
    assert len(arts) == len(list(DEMO.glob("*.html")))


def test_warc_round_trip(tmp_path):
    pages = demo_pages()
    path = tmp_path / "demo.warc.gz"
    from conftest import write_warc

    write_warc(path, pages)
    reader = forest.read_warc(path)
    records = list(reader)
    assert [r.url for r in records] == [u for u, _ in pages]
    assert records[0].content == pages[0][1] and records[0].host == DEMO_HOST
    assert reader.stats["html"] == len(pages) and reader.stats["skipped_bad"] == 0
    assert forest.extract(records[0]).text == forest.extract(pages[0][1], pages[0][0]).text
    copy = pickle.loads(pickle.dumps(records[0]))
    assert (copy.url, copy.content, copy.content_type) == (records[0].url, records[0].content, records[0].content_type)


def test_metadata_fields():
    a = forest.extract(BRIDGE.read_bytes(), BRIDGE_URL)
    assert (a.byline, a.authors, a.site_name) == ("Dana Whitfield", ["Dana Whitfield"], "Riverside Gazette")
    assert a.published == "2024-03-04T08:00:00-05:00" and a.canonical_url == BRIDGE_URL
    assert a.description.startswith("Riverside's busiest river crossing") and (a.tags, a.categories, a.image, a.modified) == ([], [], None, None)


def test_comments_only_when_asked_and_never_in_the_text():
    plain = forest.extract(BRIDGE.read_bytes(), BRIDGE_URL)
    asked = forest.extract(BRIDGE.read_bytes(), BRIDGE_URL, comments=True)
    assert plain.comments == [] and "comments" not in plain.to_dict()
    assert asked.text == plain.text and asked.comments == asked.to_dict()["comments"]
    said = "\n".join(asked.comments)
    assert said and not any(line in asked.text for line in said.splitlines())
    assert str(forest.extract(BRIDGE.read_bytes(), BRIDGE_URL, comments=True)).endswith(said.splitlines()[-1] + "\n")
    many = forest.extract_many([(BRIDGE_URL, BRIDGE.read_bytes())], comments=True)
    assert many[0].comments == asked.comments
    wrapper = forest.induce(str(DEMO))
    assert wrapper.apply(BRIDGE.read_bytes(), BRIDGE_URL, comments=True).comments == asked.comments
    assert wrapper.apply(BRIDGE.read_bytes(), BRIDGE_URL).comments == []


def test_index(tmp_path):
    arts = forest.extract_many(demo_pages())
    a, b = forest.Index(tmp_path / "a"), forest.Index(tmp_path / "b")
    assert a.add(arts[:3]) == 3 and b.add(arts[3:]) == len(arts) - 3
    merged = forest.Index(tmp_path / "all")
    assert merged.merge([tmp_path / "a", tmp_path / "b"]) == len(arts)
    assert len(merged) == len(arts)
    hits = merged.search("bridge repairs", limit=3)
    assert 1 <= len(hits) <= 3 and hits[0]["url"] in {a.url for a in arts}
    assert hits == sorted(hits, key=lambda h: -h["score"])
    first = hits[0]
    assert "«" in first["snippet"] and first["highlighted"]
    for start, end in first["highlighted"]:
        assert first["fragment"][start:end].lower().startswith(("bridge", "repair"))
    assert merged.search("bridge", host="elsewhere.example") == []
    back = merged.get(arts[0].url)
    assert (back.title, back.byline, back.authors, back.site_name) == (arts[0].title, arts[0].byline, arts[0].authors, arts[0].site_name)
    assert merged.get("https://nowhere.example/") is None
    assert merged.search("   ") == []


def test_index_search_offsets_are_python_string_offsets(tmp_path):
    words = "Die Brücke über den Fluß wird ab Montag für sechs Wochen gesperrt, sagt die Stadt. " * 6
    html = f"<html lang=de><body><article><h1>Straßen und Brücken</h1><p>{words}</p></article></body></html>"
    index = forest.Index(tmp_path / "de")
    index.add([forest.extract(html, "https://stadt.example/bruecke")])
    [hit] = index.search("gesperrt")
    assert hit["host"] == "stadt.example"
    assert all(hit["fragment"][s:e] == "gesperrt" for s, e in hit["highlighted"])


# Bad input: Python exceptions with the library's messages, never a crash.


@pytest.mark.parametrize(
    "data, why",
    [
        (b"%PDF-1.4 binary", "a PDF document"),
        (b"\x89PNG\r\n\x1a\n\0\0\0", "a PNG image"),
        (b"\0\1\2\3" * 100, "binary data"),
        (b"just words, no markup at all", "no markup"),
        (b"", "empty"),
    ],
)
def test_not_html(data, why):
    with pytest.raises(forest.NotHtmlError, match=why):
        forest.extract(data, "https://x.example/a")
    with pytest.raises(forest.ForestError):
        forest.extract_many([data])
    [err] = forest.extract_many([data], return_exceptions=True)
    assert isinstance(err, forest.NotHtmlError)


def test_corrupted_wrapper(tmp_path):
    good = forest.induce(DEMO / "feed.xml").to_json()
    for name, text in [("cut", good[: len(good) // 2]), ("junk", "\0\1 not json"), ("other", '{"format": "x"}')]:
        (tmp_path / f"{name}.json").write_text(text)
        with pytest.raises(forest.WrapperError, match="is not a forest wrapper"):
            forest.Wrapper.load(tmp_path / f"{name}.json")
    with pytest.raises(forest.ReadError):
        forest.Wrapper.load(tmp_path / "missing.json")
    bad_xpath = json.loads(good)
    bad_xpath["xpath"] = "//div[@class='x'"
    with pytest.raises(forest.ForestError):
        forest.Wrapper.from_json(json.dumps(bad_xpath)).apply(BRIDGE.read_bytes())


def test_corrupted_store_entry(tmp_path):
    store = forest.Store(tmp_path)
    (tmp_path / f"{DEMO_HOST}.json").write_text('{"format": "forest-wrapper", "ver')
    with pytest.raises(forest.WrapperError):
        forest.extract(BRIDGE.read_bytes(), BRIDGE_URL, store=store)


def test_truncated_warc(tmp_path):
    from conftest import write_warc

    pages = demo_pages()
    whole = write_warc(tmp_path / "whole.warc", pages, compress=False).read_bytes()
    cut = tmp_path / "cut.warc"
    cut.write_bytes(whole[: len(whole) - 700])
    reader = forest.read_warc(cut)
    got = []
    with pytest.raises(forest.WarcError, match="cut.warc"):
        for r in reader:
            got.append(r.url)
    assert got == [u for u, _ in pages[:-1]]
    skipping = forest.read_warc(cut, errors="skip")
    assert len(list(skipping)) == len(pages) - 1 and skipping.stats["skipped_bad"] == 1
    gz = write_warc(tmp_path / "whole.warc.gz", pages).read_bytes()
    (tmp_path / "cut.warc.gz").write_bytes(gz[: len(gz) // 2])
    with pytest.raises(forest.ForestError):
        list(forest.read_warc(tmp_path / "cut.warc.gz"))


def test_not_a_warc(tmp_path):
    (tmp_path / "x.warc").write_bytes(b"<html>not a warc</html>")
    with pytest.raises(forest.WarcError, match="not a WARC file"):
        forest.read_warc(tmp_path / "x.warc")
    with pytest.raises(forest.ReadError):
        forest.read_warc(tmp_path / "missing.warc")
    with pytest.raises(ValueError):
        forest.read_warc(tmp_path / "x.warc", errors="ignore")


def test_induction_errors():
    with pytest.raises(forest.InductionError, match="at least 2 pages"):
        forest.induce(demo_pages()[:1])
    with pytest.raises(forest.InductionError):
        forest.induce([("https://a.example/1", b"%PDF-"), ("https://a.example/2", b"\0\0")])


def test_bad_arguments():
    with pytest.raises(forest.InvalidError, match="unknown format"):
        forest.extract(BRIDGE.read_bytes(), format="pdf")
    with pytest.raises(TypeError):
        forest.extract(42)
    with pytest.raises(forest.InvalidError):
        forest.extract(DEMO)  # a folder is many pages
    with pytest.raises(forest.ReadError):
        forest.extract(pathlib.Path("/nonexistent/page.html"))
    with pytest.raises(ValueError):
        forest.WarcRecord("not a url", b"")


def test_hostile_page_is_an_error_or_an_article():
    deep = b"<html><body>" + b"<div>" * 200_000 + b"text" + b"</div>" * 200_000
    try:
        forest.extract(deep, "https://deep.example/a")
    except forest.ForestError:
        pass


def test_store_changes_are_seen(tmp_path):
    store = forest.Store(tmp_path)
    html = BRIDGE.read_bytes()
    assert forest.extract(html, BRIDGE_URL, store=store).rule == "single-page"
    w = forest.induce(DEMO / "feed.xml")
    store.save(w)
    assert forest.extract(html, BRIDGE_URL, store=store).rule == "exact"
    # A wrapper stored again, by any program, is the one used next.
    other = json.loads(w.to_json())
    other["xpath"] = "//table[@id='nothing-here']"
    store.save(forest.Wrapper.from_json(json.dumps(other)))
    assert forest.extract(html, BRIDGE_URL, store=store).rule != "exact"


def test_a_page_over_the_size_cap_and_a_huge_jobs_are_handled():
    with pytest.raises(forest.TooLargeError):
        forest.extract("<p>x</p>" * 2_000_000, BRIDGE_URL)
    # More workers asked than any machine has: the run caps them, and finishes.
    pages = [BRIDGE.read_bytes()] * 3
    out = forest.extract_many([(BRIDGE_URL, p) for p in pages], jobs=10**5)
    assert [a.text for a in out] == [forest.extract(BRIDGE.read_bytes(), BRIDGE_URL).text] * 3


def test_induce_trusts_the_url_it_is_given(tmp_path):
    # The demo feed served on loopback: the URL named is trusted (a private address otherwise
    # refused), at its own origin, as the command line trusts the URLs typed on it.
    import functools
    import http.server
    import re
    import threading

    feed = (DEMO / "feed.xml").read_text()
    for link in re.findall(r"<link>https://riverside-gazette\.example(/[^<]+\.html)</link>", feed):
        target = tmp_path / link.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((DEMO / link.rsplit("/", 1)[1]).read_bytes())
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    (tmp_path / "feed.xml").write_text(feed.replace("https://riverside-gazette.example", base))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        w = forest.induce(f"{base}/feed.xml")
        assert "article-body" in w.xpath
    finally:
        server.shutdown()
