//! The fast tokenizer (html5gum, bridged into html5ever's tree builder) builds the same tree as
//! html5ever's own tokenizer, element for element and character for character, on every page
//! of the gold sets (`../shared`, skipped with a message when absent), the bundled pages and
//! the fuzz corpora; and the guard against hostile markup changes no real page.

use forest::budget::Budget;
use forest::clean;
use std::path::{Path, PathBuf};

/// Every file under `dir` (recursively) whose name ends with one of `exts` (all when empty).
fn files(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if exts.is_empty() || exts.iter().any(|x| p.to_string_lossy().ends_with(x)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Compare the two tokenizers on `html`; with `guarded`, also the guarded parse.
fn same_tree(name: &str, html: &str, guarded: bool) {
    let reference = clean::page_reference(html).to_xml();
    let unguarded = Budget { max_depth: usize::MAX, max_elements: usize::MAX, ..Budget::default() };
    let fast = clean::page_within(html, &unguarded).expect("no budget").to_xml();
    assert!(fast == reference, "{name}: the trees differ\n{}", first_difference(&fast, &reference));
    if guarded {
        assert!(clean::page(html).to_xml() == reference, "{name}: the guard changed a real page");
    }
}

fn first_difference(a: &str, b: &str) -> String {
    let at = a.bytes().zip(b.bytes()).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    let near = |s: &str| String::from_utf8_lossy(&s.as_bytes()[at.saturating_sub(120)..(at + 120).min(s.len())]).into_owned();
    format!("fast:      …{}…\nreference: …{}…", near(a), near(b))
}

#[test]
fn gold_pages_parse_to_the_same_tree_with_either_tokenizer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for set in ["../shared/corpus", "../shared/single", "../shared/modern"] {
        let dir = root.join(set);
        if !dir.is_dir() {
            eprintln!("skipped {set}: absent");
            continue;
        }
        for f in files(&dir, &[".html"]) {
            let html = forest::fetch::decode(&std::fs::read(&f).expect("read"), None);
            same_tree(&f.display().to_string(), &html, true);
            seen += 1;
        }
    }
    for f in files(&root.join("feeds"), &[".html"]).into_iter().chain(files(&root.join("gold"), &[".html"])) {
        let html = forest::fetch::decode(&std::fs::read(&f).expect("read"), None);
        same_tree(&f.display().to_string(), &html, true);
        seen += 1;
    }
    eprintln!("{seen} pages: the same tree");
    assert!(seen > 0);
}

#[test]
fn fuzz_inputs_parse_to_the_same_tree_with_either_tokenizer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let mut seen = 0;
    for target in ["clean", "budget"] {
        for f in files(&root.join(target), &[]) {
            let bytes = std::fs::read(&f).expect("read");
            // Hostile inputs nest deep: compared without the guard, which the reference lacks,
            // and only those small enough for the reference's quadratic cost.
            if bytes.len() > 200_000 {
                continue;
            }
            same_tree(&f.display().to_string(), &String::from_utf8_lossy(&bytes), false);
            seen += 1;
        }
    }
    eprintln!("{seen} fuzz inputs: the same tree");
}

#[test]
fn tricky_markup_parses_to_the_same_tree_with_either_tokenizer() {
    let cases = [
        "\u{FEFF}<!DOCTYPE html><p>bom",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"><p>quirks<table><tr><td>t</table>",
        "<p>no quirks<table><tr><td>t</table>",
        "<!DOCTYPE><p>forced quirks<table><tr><td>t</table>",
        "<p>a\0b<title>t\0x</title><svg><title><b>x</b></title><![CDATA[c<d]]></svg>",
        "<textarea>\n<b>not a tag</b></textarea><pre>\n\nkept</pre>",
        "<script>if (a<b) document.write('</scr'+'ipt>')</script><style>p{}</style><xmp><i></xmp>",
        "<noscript><p>scripting on: raw</p></noscript><plaintext><b>to the end",
        "<a href=x>one<a href=y>two</a><b><i>mis</b>nested</i>",
        "a\r\nb\rc &amp; &notin; &notit; &#x1F600; &#0; &#xD800; <p title='&lt;q&gt;' id=\"&amp\">x",
        "<div a=1 A=2 a=3 dfs=9 xmlns=z>dup</div><br/><img src=x/><p/>self</p>",
        "<!-- a --!> b --> <!--> c <!---> d <? pi ?> <!bogus> e </ f> <3 g",
        "<html a=1><body b=2><html c=3><body d=4>attrs added</body></html>",
        "<frameset><frame></frameset><noframes>x</noframes>",
        "<template><tr><td>in template</td></tr></template><select><option>a<option>b</select>",
        "<math><mi>x</mi><annotation-xml encoding=text/html><div>h</div></annotation-xml></math>",
        "<table><tr><td>a</td></tr>text<b>foster</b></table>",
        "<title>unclosed",
        "<p>unclosed <!-- comment",
        // Attributes on the way through the tree builder: table parts and formatting elements it
        // makes or remakes, tags it ignores or renames, foreign content, odd names and values.
        "<table class=t><td class=c id=d>cell<col span=2><tr data-r=1><th abbr=h>x</table>",
        "<p class=a><b id=b1><i id=i1>x<p class=c id=p2>y</i></b><div class=d>z",
        "<a href=1 class=x><div class=inner>block</a><span title=s>after</span>",
        "<form id=f1><form id=f2><input type=hidden name=h><select id=s1><select id=s2><option value=o>",
        "<image src=i.png alt=a><caption class=c>no table</caption><li value=3 class=l>",
        "<svg viewbox='0 0 1 1'><foreignObject class=fo><div class=d>html</div></foreignObject><rect class=r/></svg>",
        "<b><svg><foreignObject><p class=q id=p1>moved</b><div class=after>x</div>",
        "<div class='a\u{1}b' id=c\u{7f}d>control in value</div><div data-X=1 a:b=2 1c=3>odd names</div>",
        "<a><svg><foreignObject class=f>x</a>y",
        "<b><svg><desc class=f>x</b>y",
        "<p><b><math><mi class=m>x</b>y",
        "<b><table><svg><foreignObject class=f><td>x</b>",
        "<i><svg><g class=g><foreignObject class=f><div>x</i><p>y",
        "<b><svg><title class=t>x</b>y<p>z",
        "<svg><desc><b></svg><circle class=c r=1>q</b>",
        "<svg><desc><table></svg></table><rect class=r x=1>",
        "<div class=comments id=x><h1 class=t>opinion</h1></div><section id=respond>cut</section>",
    ];
    for (i, html) in cases.iter().enumerate() {
        same_tree(&format!("case {i}"), html, true);
    }
}
