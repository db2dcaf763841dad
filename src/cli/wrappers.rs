//! `forest wrappers` (the store) and `forest search` (the index).

use super::*;

pub(crate) fn search(a: SearchArgs) -> anyhow::Result<ExitCode> {
    if !a.dir.is_dir() {
        bail!("{} is not an index: make one with `forest apply … --index {}`", a.dir.display(), a.dir.display());
    }
    let index = forest::index::ArticleIndex::open(&a.dir)?;
    let hits = index.search(&a.query, a.limit, a.host.as_deref())?;
    let mut out = std::io::stdout().lock();
    if a.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&hits)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    if hits.is_empty() {
        say!("forest: no article of {} matches {:?}", a.dir.display(), a.query);
        return Ok(ExitCode::SUCCESS);
    }
    for (i, h) in hits.iter().enumerate() {
        let score = format!("score {:.2}", h.score);
        let about: Vec<&str> = [h.host.as_str(), h.published.as_deref().unwrap_or_default(), score.as_str()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect();
        let snippet = h.snippet.split_whitespace().collect::<Vec<_>>().join(" ");
        writeln!(out, "{}. {}\n   {} ({})\n   {snippet}\n", i + 1, h.title, h.url, about.join(", "))?;
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn wrappers(a: WrappersArgs) -> anyhow::Result<ExitCode> {
    let store = a.store.open()?;
    let mut out = std::io::stdout().lock();
    match a.action {
        WrappersAction::List { json } => {
            let rows = store.reports()?;
            if json {
                writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
            } else if rows.is_empty() {
                say!("forest: no wrapper stored in {}", store.dir().display());
            } else {
                for r in &rows {
                    let health = match (r.applied, r.drifted) {
                        (0, _) => "not applied yet".to_string(),
                        (n, true) => format!("applied {n}, failed {}, DRIFTED", r.failed),
                        (n, false) => format!("applied {n}, failed {}", r.failed),
                    };
                    let age = r.age_days.map_or("?".into(), |d| d.to_string());
                    writeln!(out, "{}\t{}\t{age}d\t{health}\t{}", r.host, r.kind.name(), r.xpath)?;
                }
            }
        }
        WrappersAction::Show { host } => {
            let Some(entry) = store.find(&host)? else {
                bail!("no stored wrapper for {host} in {}", store.dir().display());
            };
            say!("forest: {} ({:?}): {}", entry.host, entry.kind, entry.path.display());
            out.write_all(&std::fs::read(&entry.path).with_context(|| format!("cannot read {}", entry.path.display()))?)?;
        }
        WrappersAction::Undo { host } => match store.undo(&host)? {
            Some(path) => say!("forest: put back the previous wrapper of {host}: {}", path.display()),
            None => bail!("no previous wrapper of {host} to put back in {}", store.dir().display()),
        },
        WrappersAction::Rm { host } => {
            let removed = store.remove(&host)?;
            if removed.is_empty() {
                bail!("no stored wrapper for {host} in {}", store.dir().display());
            }
            for path in removed {
                say!("forest: removed {}", path.display());
            }
        }
        WrappersAction::Import { files, host, force } => {
            if host.is_some() && files.len() > 1 {
                bail!("--host names one site: import one file at a time with it");
            }
            // Each file is imported or skipped with its reason; the others go on.
            let mut skipped = 0usize;
            for file in &files {
                match store.import_site_config(file, host.as_deref(), force) {
                    Ok(imported) => {
                        apply::say_warnings(file, &imported.warnings);
                        let replaced = if imported.replaced { " (replacing the one stored)" } else { "" };
                        say!("forest: imported {} as {}{replaced}", file.display(), imported.path.display());
                    }
                    Err(e) => {
                        say!("{}", skip_line(&file.display(), &explain(&e)));
                        skipped += 1;
                    }
                }
            }
            if skipped == files.len() {
                bail!("no site config was imported ({skipped} skipped)");
            }
            if skipped > 0 {
                return Ok(ExitCode::from(3));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
