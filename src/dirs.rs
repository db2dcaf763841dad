//! Where forest keeps things of its own for a user: the XDG base directories.

use std::path::PathBuf;

/// A per-user folder: `$VAR` when set, else `$HOME/home_sub`.
pub(crate) fn user_dir(var: &str, home_sub: &str) -> Option<PathBuf> {
    let set = |v: &str| std::env::var_os(v).filter(|v| !v.is_empty()).map(PathBuf::from);
    set(var).or_else(|| Some(set("HOME")?.join(home_sub)))
}
