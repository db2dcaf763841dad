"""forest.crawl: a site served on loopback (the demo pages at the root, a home page and tag
pages listing them, robots.txt), crawled from Python and by `forest crawl`: the same articles;
and the health of a stored wrapper recorded through Python is what `forest wrappers list` reads."""

import json
import re
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import forest
from conftest import DEMO


def demo_site():
    """path -> (content type, body): the demo pages as root slugs, listings of them, robots.txt."""
    routes = {}
    posts = []
    for page in sorted(DEMO.glob("*.html")):
        slug = f"/{page.stem}/"
        html = page.read_text(encoding="utf-8")
        title = re.search(r"<title>(.*?)</title>", html, re.S).group(1).strip()
        first = re.sub(r"<[^>]+>", " ", re.search(r"<p>(.*?)</p>", html, re.S).group(1))
        routes[slug] = ("text/html; charset=utf-8", html.encode())
        posts.append((slug, title, " ".join(first.split()[:25])))
    def listing(heading, items):
        teasers = "".join(f'<div class="teaser"><h2><a href="{s}">{t}</a></h2><p>{e} …</p></div>' for s, t, e in items)
        return ("text/html", f"<html><head><title>{heading}</title></head><body><h1>{heading}</h1>{teasers}"
                f'<p><a href="/tag/city/">city</a> <a href="/tag/people/">people</a> <a href="/private/x/">staff</a></p></body></html>'.encode())
    routes["/"] = listing("Riverside Gazette", posts)
    routes["/tag/city/"] = listing("Tag: city", posts[::2])
    routes["/tag/people/"] = listing("Tag: people", posts[1::2])
    routes["/robots.txt"] = ("text/plain", b"User-agent: *\nDisallow: /private/\n")
    return routes, [p[0] for p in posts]


@pytest.fixture()
def site():
    routes, posts = demo_site()
    hits = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            ctype, body = routes.get(self.path, ("text/plain", None))
            self.send_response(200 if body is not None else 404)
            self.send_header("Content-Type", ctype)
            body = body if body is not None else b"not found"
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", posts, hits
    server.shutdown()
    server.server_close()


def test_crawl_gives_the_commands_articles(site, tmp_path, forest_bin):
    base, posts, hits = site
    summary = {}
    articles = forest.crawl(base + "/", store=forest.Store(tmp_path / "py-store"), summary=summary, no_cache=True)
    got = {a.source: a.text for a in articles}
    assert sorted(got) == sorted(base + p for p in posts)
    assert all(a.rule != "single-page" for a in articles), [a.rule for a in articles]
    assert summary["skipped"]["listing"] == 3 and summary["skipped"]["disallowed"] == 1, summary
    assert not any(h.startswith("/private/") for h in hits)

    env = {"FOREST_STORE": str(tmp_path / "cli-store"), "PATH": "/usr/bin:/bin"}
    p = subprocess.run([str(forest_bin), "crawl", base + "/", "--no-cache", "--quiet"], capture_output=True, env=env, check=True)
    cli = {a["source"]: a["text"] for a in map(json.loads, p.stdout.decode().splitlines())}
    assert cli == got


def test_crawl_continues_in_its_folder(site, tmp_path):
    base, posts, _ = site
    store = forest.Store(tmp_path / "store")
    first = forest.crawl(base + "/", store=store, out_dir=tmp_path / "out", cache=tmp_path / "cache")
    assert len(first) == len(posts)
    assert len((tmp_path / "out" / "articles.jsonl").read_text().splitlines()) == len(posts)
    again = forest.crawl(base + "/", store=store, out_dir=tmp_path / "out", cache=tmp_path / "cache")
    assert again == [] and len((tmp_path / "out" / "articles.jsonl").read_text().splitlines()) == len(posts)


def test_health_recorded_through_python_is_what_the_command_lists(tmp_path, forest_bin):
    store = forest.Store(tmp_path / "store")
    env = {"FOREST_STORE": str(tmp_path / "store"), "PATH": "/usr/bin:/bin"}
    subprocess.run([str(forest_bin), "induce", str(DEMO), "--quiet"], capture_output=True, env=env, check=True)
    pages = [(f"https://riverside-gazette.example/2024/03/{p.name}", p.read_bytes()) for p in sorted(DEMO.glob("*.html"))]
    forest.extract_many(pages, store=store)
    forest.extract(pages[0], store=store)
    forest.flush_health()  # single pages are recorded in batches, and at exit
    p = subprocess.run([str(forest_bin), "wrappers", "list", "--json"], capture_output=True, env=env, check=True)
    rows = json.loads(p.stdout)
    row = next(r for r in rows if r["host"] == "riverside-gazette.example")
    assert row["applied"] == len(pages) + 1, row
    assert [r for r in store.reports() if r["host"] == row["host"]] == [row]
