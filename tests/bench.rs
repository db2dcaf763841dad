//! `forest bench`: its table on the project's own gold set, determinism across `--jobs`, and
//! agreement with the reference scorer `shared/tools/score.py` to 1e-6.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Run `forest bench` on `corpus` with `args`; returns the JSON report and the dump folder.
fn bench(corpus: &Path, args: &[&str], tmp: &Path) -> (Value, PathBuf) {
    let json = tmp.join("report.json");
    let dump = tmp.join("dump");
    let o = Command::new(env!("CARGO_BIN_EXE_forest"))
        .arg("bench")
        .arg(corpus)
        .args(["--json", json.to_str().unwrap(), "--dump", dump.to_str().unwrap(), "--quiet"])
        .args(args)
        .output()
        .expect("run forest bench");
    assert!(o.status.success(), "bench failed: {}", String::from_utf8_lossy(&o.stderr));
    (serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap(), dump)
}

fn row<'a>(report: &'a Value, method: &str, protocol: &str) -> &'a Value {
    report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["method"] == method && r["protocol"] == protocol)
        .unwrap_or_else(|| panic!("no row for {method} {protocol}"))
}

#[test]
fn gold_set_table_puts_forest_well_above_fulltext() {
    let tmp = tempfile::tempdir().unwrap();
    let (report, _) = bench(&root().join("gold"), &["--jobs", "2", "--no-figures"], tmp.path());
    assert_eq!(report["report"]["sites"].as_array().unwrap().len(), 3);
    assert_eq!(report["rows"].as_array().unwrap().len(), forest::bench::METHODS.len() * 2);
    let f1 = |m: &str, p: &str| row(&report, m, p)["mean"]["f1"].as_f64().unwrap();
    let forest = f1("forest-tfidf", "samples");
    let fulltext = f1("fulltext", "samples");
    assert!(forest > 0.85, "forest-tfidf F1 {forest}");
    assert!(forest > fulltext + 0.1, "forest {forest} vs fulltext {fulltext}");
    assert!(f1("forest-tfidf", "unseen") > fulltext + 0.1);
    assert!(f1("boilerpipe", "samples") > fulltext);
    // Single-page methods give the same result under both protocols.
    assert_eq!(f1("fulltext", "samples"), f1("fulltext", "unseen"));
    assert!(row(&report, "forest-tfidf", "samples")["pages_per_sec"].as_f64().unwrap() > 0.0);
    // Speed is also given against html5ever's parse alone, timed on the same pages in the run.
    assert!(report["report"]["parse_only_secs"].as_f64().unwrap() > 0.0);
    let x = row(&report, "single-page", "samples")["x_parse_only"].as_f64().unwrap();
    assert!(x > 0.0 && x.is_finite(), "×parse {x}");
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    let per_page = |jobs: &str| {
        let tmp = tempfile::tempdir().unwrap();
        let (report, _) = bench(&root().join("gold"), &["--jobs", jobs, "--no-figures", "--method", "forest-tfidf,sigfeed"], tmp.path());
        let results = report["report"]["results"].clone();
        results.as_array().unwrap().iter().map(|r| (r["site"].to_string(), r["page"].to_string(), r["f1"].to_string())).collect::<Vec<_>>()
    };
    assert_eq!(per_page("1"), per_page("3"));
}

#[test]
fn figures_are_written_as_svg() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("figs");
    let (report, _) = bench(
        &root().join("gold"),
        &["--method", "forest-tfidf,fulltext", "--protocol", "samples", "--out", out.to_str().unwrap()],
        tmp.path(),
    );
    let curves = report["report"]["curves"].as_array().unwrap();
    assert_eq!(curves.iter().filter(|c| c["curve"] == "signifiers").count(), 20);
    assert_eq!(curves.iter().filter(|c| c["curve"] == "samples").count(), 9, "2 to 10 sample pages");
    assert_eq!(curves.iter().filter(|c| c["curve"] == "measure").count(), 3);
    for name in ["fig4-f1-per-method-samples.svg", "fig5-f1-by-sample-pages.svg", "fig6-f1-by-signifiers.svg", "fig7-measures.svg"] {
        let svg = std::fs::read_to_string(out.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(svg.contains("<svg"), "{name}");
    }
}

/// Compare bench's per-page scores with score.py's on the dumped outputs.
fn cross_check(corpus: &Path, methods: &str) {
    let score_py = root().join("../shared/tools/score.py");
    if !score_py.is_file() {
        eprintln!("skipped: {} is absent", score_py.display());
        return;
    }
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipped: python3 is not installed");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (report, dump) = bench(corpus, &["--protocol", "samples", "--no-figures", "--method", methods], tmp.path());
    let mut compared = 0;
    for method in methods.split(',') {
        let o = Command::new("python3")
            .arg(&score_py)
            .args(["--gold", corpus.to_str().unwrap(), "--pred", dump.join(method).to_str().unwrap(), "--json"])
            .output()
            .unwrap();
        assert!(o.status.success(), "score.py: {}", String::from_utf8_lossy(&o.stderr));
        let py: Value = serde_json::from_slice(&o.stdout).unwrap();
        for p in py["pages"].as_array().unwrap() {
            let ours = report["report"]["results"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["method"] == method && r["site"] == p["site"] && r["page"] == p["page"])
                .unwrap_or_else(|| panic!("{method}: no result for {} {}", p["site"], p["page"]));
            for key in ["p", "r", "f1", "bow_p", "bow_r", "bow_f1"] {
                let (a, b) = (ours[key].as_f64().unwrap(), p[key].as_f64().unwrap());
                assert!((a - b).abs() <= 1e-6, "{method} {}/{} {key}: ours {a}, score.py {b}", p["site"], p["page"]);
            }
            compared += 1;
        }
    }
    assert!(compared > 0);
}

#[test]
fn scores_equal_the_reference_scorer_on_the_gold_set() {
    cross_check(&root().join("gold"), "forest-tfidf,fulltext,description");
}

#[test]
fn scores_equal_the_reference_scorer_on_the_shared_corpus() {
    let corpus = root().join("../shared/corpus");
    if !corpus.is_dir() {
        eprintln!("skipped: {} is absent", corpus.display());
        return;
    }
    cross_check(&corpus, "fulltext,forest-tfidf");
}

#[test]
fn learned_methods_train_per_fold_and_their_models_save_and_load() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("models.json");
    let gold = root().join("gold");
    let (report, _) = bench(
        &gold,
        &["--method", "mss,gbt,cetd", "--no-figures", "--protocol", "samples", "--save-model", model.to_str().unwrap()],
        tmp.path(),
    );
    // Trained per fold of hosts: every learned method has a row, and its training time.
    for m in ["mss", "gbt", "cetd"] {
        assert!(row(&report, m, "samples")["pages"].as_u64().unwrap() > 0, "{m}");
    }
    let training = report["report"]["training"].as_array().unwrap();
    assert_eq!(training.len(), 2, "{training:?}");
    let saved: Value = serde_json::from_slice(&std::fs::read(&model).unwrap()).unwrap();
    assert!(saved.get("mss").is_some() && saved.get("gbt").is_some() && saved.get("cetd").is_none());
    // A --train set holding the bench's own sites adds nothing: a site is taken once.
    let tmp3 = tempfile::tempdir().unwrap();
    let (again, _) = bench(
        &gold,
        &["--method", "mss", "--no-figures", "--protocol", "samples", "--train", gold.to_str().unwrap(), "--folds", "3"],
        tmp3.path(),
    );
    let f1 = |r: &Value| row(r, "mss", "samples")["mean"]["f1"].as_f64().unwrap();
    assert_eq!(f1(&again), f1(&report));
    // The saved models extract every site, with no training.
    let tmp2 = tempfile::tempdir().unwrap();
    let (loaded, _) = bench(
        &gold,
        &["--method", "mss,gbt", "--no-figures", "--protocol", "samples", "--load-model", model.to_str().unwrap()],
        tmp2.path(),
    );
    assert!(loaded["report"]["training"].as_array().unwrap().iter().all(|t| t[1].as_f64().unwrap() < 1.0));
    assert!(row(&loaded, "mss", "samples")["mean"]["f1"].as_f64().unwrap() > 0.5);
    // A file that is not a model file is refused with a message.
    let bad = tmp.path().join("bad.json");
    std::fs::write(&bad, "[1, 2]").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_forest"))
        .args(["bench", gold.to_str().unwrap(), "--method", "mss", "--no-figures", "-q", "--load-model", bad.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a forest bench model file"), "{}", String::from_utf8_lossy(&o.stderr));
}
