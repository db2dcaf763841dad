//! Speed of the pipeline's stages: clean (parse + arena), induce (one site), apply (one page).
//!
//! Runs on a 10-page site of `../shared/corpus` when it is there (big9-cnn.com-2013), else on
//! the bundled demo site. Throughput is reported in bytes of HTML, so criterion prints MB/s.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use forest::{Applier, Config, Extractor, Page, Wrapper};
use std::hint::black_box;
use std::path::{Path, PathBuf};

fn site() -> PathBuf {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/big9-cnn.com-2013");
    if corpus.is_dir() {
        corpus
    } else {
        eprintln!("../shared/corpus is absent: benching the bundled demo site");
        Path::new(env!("CARGO_MANIFEST_DIR")).join("feeds/demo-news")
    }
}

fn pipeline(c: &mut Criterion) {
    let dir = site();
    let sample = forest::feed::read(dir.to_str().expect("utf-8 path")).expect("site");
    let htmls: Vec<String> = sample
        .items
        .iter()
        .map(|i| forest::fetch::get(&i.page).expect("page").text())
        .collect();
    let bytes: u64 = htmls.iter().map(|h| h.len() as u64).sum();
    let pages: Vec<Page> = htmls.iter().map(|h| Page::from_html("p", h).unwrap()).collect();

    let mut g = c.benchmark_group("site");
    g.throughput(Throughput::Bytes(bytes));
    g.sample_size(10);
    g.bench_function("parse-only", |b| {
        b.iter(|| {
            for h in &htmls {
                black_box(scraper::Html::parse_document(h));
            }
        })
    });
    g.bench_function("clean", |b| {
        b.iter(|| {
            for h in &htmls {
                black_box(forest::clean::page(h));
            }
        })
    });
    g.bench_function("induce", |b| {
        b.iter(|| {
            let pages: Vec<Page> = htmls.iter().map(|h| Page::from_html("p", h).unwrap()).collect();
            black_box(Wrapper::induce("bench", &pages, &Config::default()).expect("induce"))
        })
    });
    let wrapper = Wrapper::induce("bench", &pages, &Config::default()).expect("induce").wrapper;
    let applier = Applier::new(wrapper).expect("xpath");
    g.bench_function("apply", |b| {
        b.iter(|| {
            for h in &htmls {
                let page = Page::from_html("p", h).unwrap();
                black_box(applier.extract(&page).expect("apply"));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
