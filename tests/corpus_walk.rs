//! Every page of the dev corpus (`../shared/corpus`) through clean, induce (per site) and apply:
//! no panic, a bounded time per page.
//! Skipped, with a message, when the corpus is absent.

use forest::fetch::Location;
use forest::{Applier, Config, Extractor, Page, Wrapper};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Generous: this runs in a debug build on a shared machine; release is ~20× faster.
const PER_PAGE: Duration = Duration::from_secs(5);

#[test]
fn every_corpus_page_cleans_induces_and_applies_in_bounded_time() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let Ok(entries) = std::fs::read_dir(&corpus) else {
        eprintln!("skipped: no corpus at {}", corpus.display());
        return;
    };
    let mut sites: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect();
    sites.sort();
    let mut slowest = (Duration::ZERO, String::new());
    let mut pages_seen = 0;
    for site in &sites {
        let mut files: Vec<PathBuf> = std::fs::read_dir(site)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "html"))
            .collect();
        files.sort();
        let mut pages = Vec::new();
        for f in &files {
            let started = Instant::now();
            let page = Page::read(&Location::File(f.clone()), &forest::budget::Budget::default()).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let _ = page.doc.to_xml();
            let _ = forest::metadata::read(&page.doc);
            let spent = started.elapsed();
            assert!(spent < PER_PAGE, "{} took {spent:?} to clean", f.display());
            pages.push(page);
        }
        let started = Instant::now();
        let induced = Wrapper::induce(&site.display().to_string(), &pages, &Config::default());
        let per_page = started.elapsed() / pages.len().max(1) as u32;
        assert!(per_page < PER_PAGE, "{}: induce took {per_page:?} per page", site.display());
        let Ok(induced) = induced else { continue };
        let applier = Applier::new(induced.wrapper).expect("the induced XPath compiles");
        for page in &pages {
            let started = Instant::now();
            let x = applier.extract(page).unwrap_or_else(|e| panic!("{}: {e}", page.location));
            let _ = forest::render::markdown(&page.doc, &x, None);
            let _ = forest::render::html(&page.doc, &x, None);
            let spent = started.elapsed();
            assert!(spent < PER_PAGE, "{} took {spent:?} to apply", page.location);
            if spent > slowest.0 {
                slowest = (spent, page.location.clone());
            }
            pages_seen += 1;
        }
    }
    eprintln!("{pages_seen} pages; slowest apply + render: {} in {:?}", slowest.1, slowest.0);
    assert!(pages_seen > 0);
}
