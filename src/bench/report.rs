//! Report: what `forest bench` prints (Table 1, per-site F1, failures, speed), its JSON, the
//! dumped outputs and the figures.

use super::score::{percentile, spearman, Scores};
use super::{figures, mean_scores, PageResult, Protocol, Report};
use crate::{Error, Result};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The percentiles of per-page F1 shown (the paper's Figure 4 whiskers and box).
pub const PERCENTILES: [f64; 5] = [0.09, 0.25, 0.50, 0.75, 0.91];

/// One line of Table 1: a method under a protocol.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Row {
    /// Method name.
    pub method: String,
    /// Protocol.
    pub protocol: Protocol,
    /// Pages evaluated.
    pub pages: usize,
    /// Mean scores over pages.
    pub mean: Scores,
    /// Per-page F1 at [`PERCENTILES`].
    pub percentiles: [f64; 5],
    /// Pages where the method failed (error: output counted as empty).
    pub failures: usize,
    /// Pages where a wrapper fell back from its exact XPath.
    pub fallbacks: usize,
    /// Pages per second (cleaning included, scoring not), one thread.
    pub pages_per_sec: f64,
    /// Megabytes of HTML per second (cleaning included, scoring not), one thread.
    pub mb_per_sec: f64,
    /// `mb_per_sec` over html5ever's parse-only MB/s on the same pages ([`Report::parse_only_secs`]).
    pub x_parse_only: f64,
    /// Spearman's rank correlation of the outputs' confidence with their F1.
    pub confidence_rho: f64,
    /// Mean absolute difference between the outputs' confidence and their F1: how well the
    /// confidence estimates the F1 itself, not only its order.
    pub confidence_error: f64,
}

/// A wrapper's output from anything but its exact XPath (single-page methods have none).
fn is_fallback(method: &str, rule: &str) -> bool {
    !matches!(rule, "exact" | "error") && super::method(method).is_ok_and(|m| !m.single_page())
}

/// What the table's columns mean.
const TABLE_FOOTER: &str = "\
P, R, F1: mean 2-gram precision, recall and F1 over pages (the paper's metric); BoW: bag-of-words F1;
p9 … p91: F1 at the 9th, 25th, 50th, 75th and 91st percentile of pages; fail: pages the method
could not run on (scored 0); fb: pages a fallback rule extracted (not the wrapper's exact XPath);
pages/s, MB/s: one thread, cleaning included, scoring not; ×parse: that speed over html5ever's
alone, parsing the same pages into scraper's tree (the summary line gives its MB/s); ρconf:
Spearman's rank correlation of the outputs' confidence with their F1; ±conf: the mean absolute
difference between the two. samples: fit and score on the same pages; unseen: each page left
out of the fit.
";

impl Report {
    /// Results of one method under one protocol.
    pub fn of(&self, method: &str, protocol: Protocol) -> impl Iterator<Item = &PageResult> {
        let method = method.to_string();
        self.results.iter().filter(move |r| r.method == method && r.protocol == protocol)
    }

    /// Table 1's rows, in the order methods and protocols were run.
    pub fn rows(&self) -> Vec<Row> {
        let mut keys: Vec<(String, Protocol)> = Vec::new();
        for r in &self.results {
            if !keys.iter().any(|(m, p)| *m == r.method && *p == r.protocol) {
                keys.push((r.method.clone(), r.protocol));
            }
        }
        keys.sort_by_key(|(_, p)| *p);
        keys.into_iter()
            .map(|(method, protocol)| {
                let rs: Vec<&PageResult> = self.of(&method, protocol).collect();
                let scores: Vec<Scores> = rs.iter().map(|r| r.scores).collect();
                let f1: Vec<f64> = scores.iter().map(|s| s.f1).collect();
                let secs = self.timings.iter().find(|t| t.method == method && t.protocol == protocol).map_or(0.0, |t| t.secs)
                    + self.clean_secs;
                let per_sec = |x: f64| if secs > 0.0 { x / secs } else { 0.0 };
                Row {
                    pages: rs.len(),
                    mean: mean_scores(&scores),
                    percentiles: PERCENTILES.map(|q| percentile(&f1, q)),
                    failures: rs.iter().filter(|r| r.error.is_some()).count(),
                    fallbacks: rs.iter().filter(|r| is_fallback(&r.method, &r.rule)).count(),
                    pages_per_sec: per_sec(rs.len() as f64),
                    mb_per_sec: per_sec(self.bytes as f64 / 1e6),
                    x_parse_only: if secs > 0.0 { self.parse_only_secs / secs } else { 0.0 },
                    confidence_rho: spearman(&rs.iter().map(|r| r.confidence).collect::<Vec<f64>>(), &f1),
                    confidence_error: rs.iter().zip(&f1).map(|(r, f)| (r.confidence - f).abs()).sum::<f64>() / rs.len().max(1) as f64,
                    method,
                    protocol,
                }
            })
            .collect()
    }

    /// Table 1: mean P, R, F1 (2-gram sets), BoW F1, F1 percentiles, failures, speed.
    pub fn table(&self) -> String {
        let rows = self.rows();
        let w = rows.iter().map(|r| r.method.len()).max().unwrap_or(6).max(14);
        let mut s = format!(
            "{:<w$} {:<8} {:>5} {:>6} {:>6} {:>6} {:>6}  {:>5} {:>5} {:>5} {:>5} {:>5}  {:>4} {:>4} {:>8} {:>6} {:>6} {:>6} {:>6}\n",
            "method", "protocol", "pages", "P", "R", "F1", "BoW", "p9", "p25", "p50", "p75", "p91", "fail", "fb", "pages/s", "MB/s", "×parse", "ρconf", "±conf"
        );
        for r in rows {
            let [a, b, c, d, e] = r.percentiles;
            let _ = writeln!(
                s,
                "{:<w$} {:<8} {:>5} {:>6.3} {:>6.3} {:>6.3} {:>6.3}  {:>5.3} {:>5.3} {:>5.3} {:>5.3} {:>5.3}  {:>4} {:>4} {:>8.1} {:>6.2} {:>6.2} {:>6.2} {:>6.3}",
                r.method, r.protocol.name(), r.pages, r.mean.p, r.mean.r, r.mean.f1, r.mean.bow_f1, a, b, c, d, e,
                r.failures, r.fallbacks, r.pages_per_sec, r.mb_per_sec, r.x_parse_only, r.confidence_rho, r.confidence_error
            );
        }
        s.push_str(TABLE_FOOTER);
        s
    }

    /// Mean F1 per site: one column per method (samples protocol), plus each wrapper
    /// method under the unseen protocol.
    pub fn per_site(&self) -> String {
        let learns = |m: &str| super::method(m).is_ok_and(|m| !m.single_page());
        let cols: Vec<(String, Protocol)> = self
            .rows()
            .into_iter()
            .filter(|r| r.protocol == Protocol::Samples || learns(&r.method))
            .map(|r| (r.method, r.protocol))
            .collect();
        let names: Vec<String> = cols
            .iter()
            .map(|(m, p)| if *p == Protocol::Unseen { format!("{m}@unseen") } else { m.clone() })
            .collect();
        let w = self.sites.iter().map(String::len).max().unwrap_or(4).max(4);
        let mut s = format!("{:<w$}", "site");
        for name in &names {
            let _ = write!(s, " {name:>cw$}", cw = name.len().max(6));
        }
        s.push('\n');
        for site in &self.sites {
            let _ = write!(s, "{site:<w$}");
            for ((m, p), name) in cols.iter().zip(&names) {
                let f1: Vec<f64> = self.of(m, *p).filter(|r| r.site == *site).map(|r| r.scores.f1).collect();
                let mean = if f1.is_empty() { f64::NAN } else { f1.iter().sum::<f64>() / f1.len() as f64 };
                let _ = write!(s, " {mean:>cw$.3}", cw = name.len().max(6));
            }
            s.push('\n');
        }
        s
    }

    /// Pages where a method failed, with the reason (at most `max` lines, then a count).
    pub fn failures(&self, max: usize) -> String {
        let failed: Vec<&PageResult> = self.results.iter().filter(|r| r.error.is_some()).collect();
        let mut s = String::new();
        for r in failed.iter().take(max) {
            let _ = writeln!(s, "{} {} {}/{}: {}", r.method, r.protocol.name(), r.site, r.page, r.error.as_deref().unwrap_or(""));
        }
        if failed.len() > max {
            let _ = writeln!(s, "... and {} more", failed.len() - max);
        }
        s
    }

    /// The speed line: pages, MB, cleaning time, wall time.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{} sites, {} pages, {:.1} MB of HTML; cleaning {:.2} s (once, shared); html5ever parse-only {:.1} MB/s; wall time {:.1} s on {} thread(s)",
            self.sites.len(),
            self.pages,
            self.bytes as f64 / 1e6,
            self.clean_secs,
            if self.parse_only_secs > 0.0 { self.bytes as f64 / 1e6 / self.parse_only_secs } else { 0.0 },
            self.wall_secs,
            self.jobs
        );
        for (method, secs) in &self.training {
            s.push_str(&format!("; training {method} {secs:.1} s (all folds)"));
        }
        s
    }

    /// Write everything as JSON (summary rows, per-page results, timings, curves).
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be written.
    pub fn write_json(&self, path: &Path) -> Result<()> {
        let value = serde_json::json!({ "rows": self.rows(), "report": self });
        let text = serde_json::to_string_pretty(&value).unwrap_or_default();
        std::fs::write(path, text).map_err(|source| Error::Io { path: path.to_path_buf(), source })
    }

    /// Write every output text: `DIR/<method>/<site>/<id>.txt` for the samples protocol and
    /// `DIR/unseen/<method>/<site>/<id>.txt` for the unseen one (score.py reads either).
    ///
    /// # Errors
    /// [`Error::Io`] when a file cannot be written.
    pub fn dump(&self, dir: &Path) -> Result<()> {
        for r in &self.results {
            let base = match r.protocol {
                Protocol::Samples => dir.join(safe(&r.method)),
                Protocol::Unseen => dir.join("unseen").join(safe(&r.method)),
            };
            let site_dir = base.join(safe(&r.site));
            std::fs::create_dir_all(&site_dir).map_err(|source| Error::Io { path: site_dir.clone(), source })?;
            let path = site_dir.join(format!("{}.txt", safe(&r.page)));
            std::fs::write(&path, &r.text).map_err(|source| Error::Io { path, source })?;
        }
        Ok(())
    }

    /// Draw the figures as SVG files in `dir`; returns their paths.
    ///
    /// # Errors
    /// [`Error::Io`] when `dir` cannot be created or a figure cannot be drawn.
    pub fn figures(&self, dir: &Path) -> Result<Vec<PathBuf>> {
        std::fs::create_dir_all(dir).map_err(|source| Error::Io { path: dir.to_path_buf(), source })?;
        let mut written = Vec::new();
        for protocol in [Protocol::Samples, Protocol::Unseen] {
            let series: Vec<figures::BoxSeries> = self
                .rows()
                .into_iter()
                .filter(|r| r.protocol == protocol)
                .map(|r| figures::BoxSeries {
                    values: self.of(&r.method, protocol).map(|x| x.scores.f1).collect(),
                    name: r.method,
                })
                .collect();
            if series.is_empty() {
                continue;
            }
            let path = dir.join(format!("fig4-f1-per-method-{}.svg", protocol.name()));
            let title = format!("Per-page 2-gram F1 by method ({} protocol)", protocol.name());
            figures::box_chart(&path, &title, "2-gram F1", &series)?;
            written.push(path);
        }
        let line = |curve: &str| -> Vec<(f64, f64)> {
            self.curves.iter().filter(|c| c.curve == curve).filter_map(|c| Some((c.x.parse::<f64>().ok()?, c.mean.f1))).collect()
        };
        for (curve, file, title, x_label) in [
            ("samples", "fig5-f1-by-sample-pages.svg", "forest-tfidf: F1 by number of sample pages", "sample pages per site"),
            ("signifiers", "fig6-f1-by-signifiers.svg", "forest-tfidf: F1 by number of signifiers", "signifiers per page (k)"),
        ] {
            let points = line(curve);
            if points.is_empty() {
                continue;
            }
            let path = dir.join(file);
            let series = [figures::LineSeries { name: "forest-tfidf (samples)".into(), points }];
            figures::line_chart(&path, title, x_label, "mean 2-gram F1", &series)?;
            written.push(path);
        }
        let bars: Vec<figures::Bars> = self
            .curves
            .iter()
            .filter(|c| c.curve == "measure")
            .map(|c| figures::Bars {
                group: match c.x.as_str() {
                    "j" => "J alone".into(),
                    "u" => "U alone".into(),
                    _ => "J × U".into(),
                },
                p: c.mean.p,
                r: c.mean.r,
                f1: c.mean.f1,
            })
            .collect();
        if !bars.is_empty() {
            let path = dir.join("fig7-measures.svg");
            figures::bar_chart(&path, "forest-tfidf: P, R, F1 by relevance measure", &bars)?;
            written.push(path);
        }
        Ok(written)
    }
}

/// A file or folder name from a method, site or page name: never a path.
fn safe(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '@') { c } else { '_' })
        .take(120)
        .collect();
    if s.is_empty() || s.starts_with('.') {
        format!("_{s}")
    } else {
        s
    }
}
