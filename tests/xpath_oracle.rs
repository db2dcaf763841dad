//! The compiled XPath matcher selects exactly what sxd-xpath selects, for every XPath induction
//! writes (winner, candidates, alternatives), on every page of the gold sets — and of
//! `../shared/corpus` when it is there.

use forest::xpath::CompiledPath;
use forest::{Applier, Config, Page, Wrapper};
use std::path::Path;

fn check_site(dir: &Path) -> usize {
    let sample = forest::feed::read(dir.to_str().unwrap()).unwrap();
    let (pages, _) = forest::page::load(&sample.items);
    if pages.len() < 2 {
        return 0;
    }
    let wrapper = Wrapper::induce("oracle", &pages, &Config::default()).unwrap().wrapper;
    let mut xpaths: Vec<String> = vec![wrapper.xpath.clone()];
    xpaths.extend(wrapper.candidates.iter().chain(&wrapper.alternatives).map(|c| c.xpath.clone()));
    // The same paths without their dfs numbers, as a user might write them.
    let stripped: Vec<String> = xpaths
        .iter()
        .filter_map(|x| x.find("[@dfs=").or_else(|| x.find(" and (@dfs=")).map(|i| x[..i].to_string() + if x[..i].contains('[') && !x[..i].ends_with(']') { "]" } else { "" }))
        .collect();
    xpaths.extend(stripped);
    let mut compared = 0;
    for xpath in &xpaths {
        let Some(compiled) = CompiledPath::parse(xpath) else { panic!("induced XPath not compiled: {xpath}") };
        let applier = Applier::new(Wrapper { xpath: xpath.clone(), ..wrapper.clone() }).unwrap();
        for page in &pages {
            let mut ours = compiled.select(&page.doc);
            ours.sort_unstable();
            let mut oracle = applier.select_with_sxd(&page.doc).unwrap();
            oracle.sort_unstable();
            // select_with_sxd keeps the outermost nodes only; compare the same way.
            let mut ours_outer: Vec<u32> = Vec::new();
            for n in ours {
                if ours_outer.last().is_none_or(|&l| !page.doc.contains(l, n)) {
                    ours_outer.push(n);
                }
            }
            assert_eq!(ours_outer, oracle, "{xpath} on {}", page.location);
            compared += 1;
        }
    }
    compared
}

fn check_root(root: &Path) -> usize {
    let mut dirs: Vec<_> = std::fs::read_dir(root).unwrap().filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect();
    dirs.sort();
    dirs.iter().map(|d| check_site(d)).sum()
}

#[test]
fn compiled_xpath_equals_sxd_on_the_gold_sets() {
    let n = check_root(&Path::new(env!("CARGO_MANIFEST_DIR")).join("gold"));
    assert!(n > 50, "{n} comparisons");
}

#[test]
fn compiled_xpath_equals_sxd_on_the_shared_corpus() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !corpus.is_dir() {
        eprintln!("skipped: {} is absent", corpus.display());
        return;
    }
    let n = check_root(&corpus);
    assert!(n > 1000, "{n} comparisons");
}

#[test]
fn a_hand_written_xpath_still_works_through_sxd() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("feeds/demo-news");
    let page = Page::read(&forest::fetch::Location::File(demo.join("bridge-repair.html")), &forest::budget::Budget::default()).unwrap();
    let sample = forest::feed::read(demo.to_str().unwrap()).unwrap();
    let (pages, _) = forest::page::load(&sample.items);
    let wrapper = Wrapper::induce("demo", &pages, &Config::default()).unwrap().wrapper;
    let applier = Applier::new(Wrapper { xpath: "//div[contains(@class,'article-body')]".into(), ..wrapper }).unwrap();
    let nodes = applier.select_exact(&page.doc).unwrap();
    assert_eq!(nodes.len(), 1);
    assert!(page.doc.text(nodes[0]).contains("Elm Street Bridge"));
}
