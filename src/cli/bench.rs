//! `forest bench`: the paper's evaluation on a gold set; the progress bar is drawn here.

use super::*;

pub(crate) fn bench(a: BenchArgs) -> anyhow::Result<ExitCode> {
    use forest::bench::{self, Protocol};
    let mut opts = bench::Options::default();
    if !a.methods.is_empty() {
        opts.methods = a.methods.clone();
    }
    opts.protocols = match a.protocol {
        ProtocolArg::Samples => vec![Protocol::Samples],
        ProtocolArg::Unseen => vec![Protocol::Unseen],
        ProtocolArg::Both => vec![Protocol::Samples, Protocol::Unseen],
    };
    if let Some(j) = a.jobs {
        opts.jobs = j.max(1);
    }
    opts.curves = !a.no_figures;
    opts.folds = a.folds.max(2);
    let methods = opts.methods.iter().map(|m| bench::method(m)).collect::<Result<Vec<_>, _>>()?;
    let load = |dir: &std::path::Path| -> anyhow::Result<Vec<bench::GoldSite>> {
        let sites = bench::load(dir).with_context(|| format!("cannot load the gold set {}", dir.display()))?;
        if sites.is_empty() {
            bail!("{} holds no site folder with .html pages and .txt gold texts", dir.display());
        }
        Ok(sites)
    };
    let sites = load(&a.corpus)?;
    let mut extra = Vec::new();
    for dir in &a.train {
        extra.extend(load(dir)?);
    }
    let mut training = bench::train::Training { extra: &extra, ..Default::default() };
    if let Some(path) = &a.load_model {
        training.loaded = bench::train::Models::load(path)?;
    }
    if let Some(path) = &a.save_model {
        bench::train::train_all(&sites, &extra, &methods)?.save(path)?;
        if !a.quiet {
            say!("models written to {}", path.display());
        }
    }
    let bar = progress_bar(sites.len(), "sites", a.quiet);
    let report = bench::run_trained(&sites, &opts, &training, &|done, site| {
        if let Some(b) = &bar {
            b.set_position(done as u64);
            b.set_message(site.to_string());
        }
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}\n", report.summary())?;
    writeln!(out, "{}", report.table())?;
    writeln!(out, "Mean 2-gram F1 per site:\n{}", report.per_site())?;
    let failures = report.failures(20);
    if !failures.is_empty() {
        writeln!(out, "Failures:\n{failures}")?;
    }
    if let Some(path) = &a.json {
        report.write_json(path)?;
    }
    if let Some(dir) = &a.dump {
        report.dump(dir)?;
    }
    if !a.no_figures {
        for path in report.figures(&a.out)? {
            writeln!(out, "figure: {}", path.display())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

