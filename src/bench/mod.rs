//! Bench: the paper's evaluation (Table 1, Figures 4–7) on any gold set in the corpus layout
//! (`<site>/<id>.html`, `<site>/<id>.txt` gold, optional `<site>/feed.xml`).
//!
//! Every method is a [`Method`]: fitted per site, then applied to pages. Two protocols:
//! - [`Protocol::Samples`] (the paper's): fit on all pages of a site, evaluate on those pages;
//! - [`Protocol::Unseen`] (what users live with): leave one page out, fit on the others,
//!   apply to it; every page is left out once. Single-page methods give the same output
//!   under both, so they are run once.
//!
//! Learned methods (a [`method::Learner`]) are trained on other sites' gold pages, hosts split
//! into folds ([`train`]); once trained they are single-page methods.
//!
//! Scores are [`score`]'s (identical to `shared/tools/score.py`). Sites run in parallel
//! (`jobs` threads); every site's work is deterministic and results are put back in site order,
//! so the report does not depend on the number of threads.

pub mod baselines;
pub mod figures;
pub mod method;
pub mod methods;
pub mod report;
pub mod score;
pub mod train;

pub use method::Method;
pub use methods::{method, methods_help, METHODS, MECHANISMS};

use crate::extract::Extractor;
use crate::page::PageOptions;
use crate::rank::Strategy;
use method::Forest;
use crate::{Config, Error, Page, Result};
use score::Scores;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How pages are split between fitting and evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// Fit on all pages of the site, evaluate on the same pages.
    Samples,
    /// Leave one page out, fit on the rest, evaluate on it.
    Unseen,
}

impl Protocol {
    /// `samples` or `unseen`.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Samples => "samples",
            Protocol::Unseen => "unseen",
        }
    }
}

/// One page of a gold set.
pub struct GoldPage {
    /// The cleaned page, with its feed item when the site has a feed.
    pub page: Page,
    /// The gold text.
    pub gold: String,
    /// Size of the HTML in bytes.
    pub bytes: usize,
    /// Seconds spent decoding and cleaning it (shared by every method).
    pub clean_secs: f64,
    /// Seconds html5ever alone took to parse it into scraper's tree: the speed yardstick.
    pub parse_only_secs: f64,
}

/// One site of a gold set.
pub struct GoldSite {
    /// The folder name.
    pub name: String,
    /// Its pages that have gold text, in name order.
    pub pages: Vec<GoldPage>,
}

/// Load a gold set: every folder under `root` with `.html` pages that have a `.txt` beside them.
///
/// # Errors
/// [`Error::Io`] when `root` cannot be listed; a page that cannot be read is an error too
/// (gold sets are local files).
pub fn load(root: &Path) -> Result<Vec<GoldSite>> {
    let io = |source| Error::Io { path: root.to_path_buf(), source };
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(root).map_err(io)?.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect();
    dirs.sort();
    let mut sites = Vec::new();
    for dir in dirs {
        let sample = crate::feed::read(&dir.to_string_lossy())?;
        let mut pages = Vec::new();
        for item in &sample.items {
            let crate::fetch::Location::File(html_path) = &item.page else { continue };
            let gold_path = html_path.with_extension("txt");
            let Ok(gold) = std::fs::read(&gold_path) else { continue };
            let start = Instant::now();
            let bytes = std::fs::read(html_path).map_err(|source| Error::Io { path: html_path.clone(), source })?;
            let html = crate::fetch::decode(&bytes, None);
            let opts = PageOptions {
                location: html_path.to_string_lossy().into_owned(),
                item: Some(item.clone()),
                keep_source: true,
                ..PageOptions::default()
            };
            let page = Page::new(&html, opts)?;
            let clean_secs = start.elapsed().as_secs_f64();
            let start = Instant::now();
            drop(std::hint::black_box(scraper::Html::parse_document(&html)));
            let parse_only_secs = start.elapsed().as_secs_f64();
            let gold = String::from_utf8_lossy(&gold).into_owned();
            pages.push(GoldPage { page, gold, bytes: bytes.len(), clean_secs, parse_only_secs });
        }
        if !pages.is_empty() {
            let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            sites.push(GoldSite { name, pages });
        }
    }
    Ok(sites)
}

/// What to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Method names (see [`METHODS`]).
    pub methods: Vec<String>,
    /// Protocols to run.
    pub protocols: Vec<Protocol>,
    /// Worker threads (sites run in parallel).
    pub jobs: usize,
    /// Also compute the figures' curves (Figures 5–7: more runs of forest-tfidf).
    pub curves: bool,
    /// Folds of hosts for learned methods: each fold is extracted by a model trained on the
    /// others ([`train`]).
    pub folds: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            methods: METHODS.iter().map(|m| m.to_string()).collect(),
            protocols: vec![Protocol::Samples, Protocol::Unseen],
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            curves: true,
            folds: 5,
        }
    }
}

/// The outcome of one method on one page.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PageResult {
    /// Site folder.
    pub site: String,
    /// Page id.
    pub page: String,
    /// Method name.
    pub method: String,
    /// Protocol.
    pub protocol: Protocol,
    /// Scores against the gold text.
    #[serde(flatten)]
    pub scores: Scores,
    /// The rule that produced the output (`exact`, a fallback, `single-page`), or `error`.
    pub rule: String,
    /// The error, when the method failed on this page (its output counts as empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What the arbiter weighed on this page, for a wrapper checked against the single-page
    /// extractor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<crate::extract::arbiter::Evidence>,
    /// The output's confidence, an estimate of its F1 ([`crate::Extraction::confidence`]).
    pub confidence: f64,
    /// The output text (not in JSON; see `--dump`).
    #[serde(skip)]
    pub text: String,
}

/// Time spent by one method under one protocol, summed over sites.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Timing {
    /// Method name.
    pub method: String,
    /// Protocol.
    pub protocol: Protocol,
    /// Seconds in fit + extract (single thread time, summed over sites).
    pub secs: f64,
}

/// The mean scores of one point of a curve (a figure's series).
#[derive(Debug, Clone, serde::Serialize)]
pub struct CurvePoint {
    /// Curve name: `samples` (Fig. 5), `signifiers` (Fig. 6), `measure` (Fig. 7).
    pub curve: String,
    /// The x value (page count, k) or variant (`j`, `u`, `forest`) as text.
    pub x: String,
    /// Mean scores over all pages.
    #[serde(flatten)]
    pub mean: Scores,
}

/// Everything a bench run measured.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    /// Site names, in order.
    pub sites: Vec<String>,
    /// Number of gold pages.
    pub pages: usize,
    /// Bytes of HTML.
    pub bytes: usize,
    /// Seconds spent decoding and cleaning all pages once (shared by all methods).
    pub clean_secs: f64,
    /// Seconds html5ever alone took to parse all pages into scraper's tree, one thread: the
    /// yardstick of the speed columns.
    pub parse_only_secs: f64,
    /// Wall-clock seconds of the whole run.
    pub wall_secs: f64,
    /// Worker threads used.
    pub jobs: usize,
    /// Per page, method and protocol.
    pub results: Vec<PageResult>,
    /// Per method and protocol.
    pub timings: Vec<Timing>,
    /// Figures 5–7 data.
    pub curves: Vec<CurvePoint>,
    /// Seconds spent training each learned method (all folds; not in its timings).
    pub training: Vec<(String, f64)>,
}

/// Results of one site: page results, timings, and curve points' per-page scores.
#[derive(Default)]
struct SiteOut {
    results: Vec<PageResult>,
    timings: Vec<Timing>,
    curves: Vec<(String, String, Vec<Scores>)>,
}

/// Run the bench on loaded gold sites.
///
/// # Errors
/// [`Error::Invalid`] for an unknown method.
pub fn run(sites: &[GoldSite], opts: &Options) -> Result<Report> {
    run_with(sites, opts, &|_, _| {})
}

/// [`run`], calling `progress(sites done, site name)` as each site is done, in order.
///
/// # Errors
/// As [`run`].
pub fn run_with(sites: &[GoldSite], opts: &Options, progress: &dyn Fn(usize, &str)) -> Result<Report> {
    run_trained(sites, opts, &train::Training::default(), progress)
}

/// [`run_with`], learned methods trained on `training` besides the bench's own sites (or
/// using its loaded models).
///
/// # Errors
/// As [`run`]. A learned method that cannot be trained on a fold fails on that fold's pages.
pub fn run_trained(sites: &[GoldSite], opts: &Options, training: &train::Training, progress: &dyn Fn(usize, &str)) -> Result<Report> {
    let methods: Vec<Box<dyn Method>> = opts.methods.iter().map(|m| method(m)).collect::<Result<_>>()?;
    let start = Instant::now();
    let mut trained = Vec::new();
    let mut training_secs = Vec::new();
    for m in &methods {
        let Some(learner) = m.learner() else { continue };
        let t = Instant::now();
        trained.push((m.name().to_string(), train::fold_models(m.name(), learner, sites, training, opts.folds)));
        training_secs.push((m.name().to_string(), t.elapsed().as_secs_f64()));
    }
    let mut outs = Vec::with_capacity(sites.len());
    let jobs = opts.jobs.clamp(1, sites.len().max(1));
    let work = |i: usize| {
        let site = &sites[i];
        let models: Vec<Option<train::Trained>> = methods
            .iter()
            .map(|m| {
                let model = trained.iter().find(|(n, _)| n == m.name()).and_then(|(_, f)| f.for_site(i))?;
                Some(train::Trained { name: m.name().to_string(), model: model.clone() })
            })
            .collect();
        let site_methods: Vec<&dyn Method> =
            methods.iter().zip(&models).map(|(m, t)| t.as_ref().map_or(m.as_ref(), |t| t as &dyn Method)).collect();
        (run_site(site, &site_methods, opts), site.name.as_str())
    };
    crate::run::ordered(0..sites.len(), jobs, || (), |_, i| work(i), |(out, name)| {
        outs.push(out);
        progress(outs.len(), name);
        Ok::<(), Error>(())
    })?;
    let mut report = Report {
        sites: sites.iter().map(|s| s.name.clone()).collect(),
        pages: sites.iter().map(|s| s.pages.len()).sum(),
        bytes: sites.iter().flat_map(|s| &s.pages).map(|p| p.bytes).sum(),
        clean_secs: sites.iter().flat_map(|s| &s.pages).map(|p| p.clean_secs).sum(),
        parse_only_secs: sites.iter().flat_map(|s| &s.pages).map(|p| p.parse_only_secs).sum(),
        wall_secs: 0.0,
        jobs: opts.jobs,
        results: Vec::new(),
        timings: Vec::new(),
        curves: Vec::new(),
        training: training_secs,
    };
    let mut curves: Vec<(String, String, Vec<Scores>)> = Vec::new();
    for out in outs {
        report.results.extend(out.results);
        for t in out.timings {
            match report.timings.iter_mut().find(|x| x.method == t.method && x.protocol == t.protocol) {
                Some(x) => x.secs += t.secs,
                None => report.timings.push(t),
            }
        }
        for (curve, x, scores) in out.curves {
            match curves.iter_mut().find(|c| c.0 == curve && c.1 == x) {
                Some(c) => c.2.extend(scores),
                None => curves.push((curve, x, scores)),
            }
        }
    }
    report.curves = curves.into_iter().map(|(curve, x, s)| CurvePoint { curve, x, mean: mean_scores(&s) }).collect();
    report.wall_secs = start.elapsed().as_secs_f64();
    Ok(report)
}

/// Mean of per-page scores (all zero for none).
pub fn mean_scores(s: &[Scores]) -> Scores {
    if s.is_empty() {
        return Scores::default();
    }
    let n = s.len() as f64;
    let m = |f: fn(&Scores) -> f64| s.iter().map(f).sum::<f64>() / n;
    Scores { p: m(|x| x.p), r: m(|x| x.r), f1: m(|x| x.f1), bow_p: m(|x| x.bow_p), bow_r: m(|x| x.bow_r), bow_f1: m(|x| x.bow_f1) }
}

/// Extract `target` with a fitted extractor (or the error fitting gave); a failure becomes
/// empty output with the error.
fn evaluate(fitted: std::result::Result<&dyn Extractor, &Error>, target: &GoldPage) -> Extraction {
    let failed =
        |e: &Error| Extraction { text: String::new(), rule: "error".into(), error: Some(e.to_string()), evidence: None, confidence: 0.0 };
    match fitted.map(|ext| ext.extract(&target.page)) {
        Ok(Ok(x)) => Extraction {
            confidence: x.confidence(&target.page.doc),
            text: x.text,
            rule: x.rule.name(),
            error: None,
            evidence: x.evidence,
        },
        Ok(Err(e)) => failed(&e),
        Err(e) => failed(e),
    }
}

/// What the bench keeps of one extraction.
struct Extraction {
    text: String,
    rule: String,
    error: Option<String>,
    evidence: Option<crate::extract::arbiter::Evidence>,
    confidence: f64,
}

fn run_site(site: &GoldSite, methods: &[&dyn Method], opts: &Options) -> SiteOut {
    let mut out = SiteOut::default();
    let all: Vec<&Page> = site.pages.iter().map(|p| &p.page).collect();
    for method in methods {
        let mut samples_results: Option<Vec<PageResult>> = None;
        for &protocol in &opts.protocols {
            let start = Instant::now();
            // The clock stops before scoring: the speed is the method's, not the scorer's.
            let (results, secs): (Vec<PageResult>, f64) = match (protocol, &samples_results) {
                // A single-page method gives the same output whatever it was fitted on, for
                // the same work as under samples.
                (Protocol::Unseen, Some(prev)) if method.single_page() => {
                    let secs = out.timings.iter().find(|t| t.method == method.name()).map_or(0.0, |t| t.secs);
                    (prev.iter().map(|r| PageResult { protocol, ..r.clone() }).collect(), secs)
                }
                (Protocol::Samples, _) => {
                    let fitted = method.fit(&all);
                    let xs: Vec<(&GoldPage, Extraction)> =
                        site.pages.iter().map(|gp| (gp, evaluate(fitted.as_deref(), gp))).collect();
                    let secs = start.elapsed().as_secs_f64();
                    (xs.into_iter().map(|(gp, x)| page_result(site, gp, method.name(), protocol, x)).collect(), secs)
                }
                (Protocol::Unseen, _) => {
                    let mut xs = Vec::with_capacity(site.pages.len());
                    method.fit_leaving_out(&all, &mut |i, fitted| {
                        let Some(gp) = site.pages.get(i) else { return };
                        xs.push((gp, evaluate(fitted.as_deref(), gp)));
                    });
                    let secs = start.elapsed().as_secs_f64();
                    (xs.into_iter().map(|(gp, x)| page_result(site, gp, method.name(), protocol, x)).collect(), secs)
                }
            };
            out.timings.push(Timing { method: method.name().to_string(), protocol, secs });
            if protocol == Protocol::Samples {
                samples_results = Some(results.clone());
            }
            out.results.extend(results);
        }
    }
    if opts.curves {
        out.curves = curves(site, &all);
    }
    out
}

fn page_result(site: &GoldSite, gp: &GoldPage, method: &str, protocol: Protocol, x: Extraction) -> PageResult {
    PageResult {
        site: site.name.clone(),
        page: gp.page.id.clone(),
        method: method.to_string(),
        protocol,
        scores: score::score(&gp.gold, &x.text),
        rule: x.rule,
        error: x.error,
        evidence: x.evidence,
        confidence: x.confidence,
        text: x.text,
    }
}

/// Figures 5–7: forest-tfidf (samples protocol) with 1..=10 sample pages (applied to every page
/// of the site), with 1..=20 signifiers, and ranked by J alone, U alone and J·U.
fn curves(site: &GoldSite, all: &[&Page]) -> Vec<(String, String, Vec<Scores>)> {
    let run = |fit: &[&Page], config: Config| -> Vec<Scores> {
        let m = Forest { name: "forest".into(), config };
        let fitted = m.fit(fit);
        site.pages
            .iter()
            .map(|gp| {
                let text = match &fitted {
                    Ok(ext) => ext.extract(&gp.page).map(|x| x.text).unwrap_or_default(),
                    Err(_) => String::new(),
                };
                score::score(&gp.gold, &text)
            })
            .collect()
    };
    let mut out = Vec::new();
    // Forest needs two pages: the curve starts there (one page would plot a meaningless 0).
    for n in 2..=10usize {
        let fit = &all[..n.min(all.len())];
        out.push(("samples".to_string(), n.to_string(), run(fit, Config::default())));
    }
    for k in 1..=20usize {
        out.push(("signifiers".to_string(), k.to_string(), run(all, Config { k, ..Config::default() })));
    }
    for rank in [Strategy::J, Strategy::U, Strategy::Forest] {
        out.push(("measure".to_string(), rank.name().to_string(), run(all, Config { rank, ..Config::default() })));
    }
    out
}
