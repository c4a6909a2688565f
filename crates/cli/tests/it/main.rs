//! Integration tests of the `webmcp-sim` command line and the shipped scenario corpus.

mod bench_counts;
mod chromium;
mod corpus;
mod coverage;
mod delay_bound;
mod diff;
mod errors;
mod explore;
mod export;
mod findings_diff;
mod hostile;
mod js;
mod js_learned;
mod js_navigation;
mod outcome_parts;
mod outputs;
mod paths;
mod render;
mod spec_example;
mod stateless;
mod wpt;

use std::path::{Path, PathBuf};

use cli::{load_program, run_program, Driver, Format};

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("workspace root")
}

/// The scenarios of `files` that the stateful search can explore: without JavaScript pages
/// (those need the stateless search, issue 28; `js.rs` tests them by runs).
pub fn explorable(files: Vec<PathBuf>) -> Vec<PathBuf> {
    files.into_iter().filter(|f| load_program(f).map_or(true, |p| !p.has_page_scripts())).collect()
}

/// Runs a scenario file with a seed and returns the rendered trace.
#[track_caller]
pub fn run_file(path: &Path, seed: u64, format: Format) -> String {
    let program = load_program(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    run_program(&program, &Driver::Seed(seed), format, 10_000).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
