//! Running the `forest` binary in tests, with its wrapper store in a folder of the test's.

use std::path::Path;
use std::process::{Command, Output};

/// The crate's folder (bundled sites live under it).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Run `forest args…` with its wrapper store in `store`.
pub fn forest(store: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_forest")).args(args).env("FOREST_STORE", store).output().expect("run forest")
}

/// Its stdout, after checking it succeeded (else the test fails with its stderr).
pub fn ok(o: &Output) -> String {
    assert!(o.status.success(), "forest failed ({:?}): {}", o.status.code(), String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A path as a command-line argument.
pub fn p(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}
