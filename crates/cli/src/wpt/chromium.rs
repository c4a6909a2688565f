//! `webmcp-sim wpt --chromium` (issue 29 items 4 and 5): the same WPT file run N times in real
//! Chromium through tools/chromium-driver/wpt.mjs (every file served at its WPT origin through
//! the DevTools Fetch domain: `serve`), with WPT's real testharness.js, each run's results read
//! from the console line of our `testharnessreport.js`; then `compare` puts the spec's verdict,
//! Chromium's results and Chromium's expectation file side by side and lists the differences.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::compare::{self, Comparison, Expectation, Run};
use super::verdict::Results;
use super::{serve, FileReport};
use crate::CliError;

/// How Chromium runs.
#[derive(Clone, Debug)]
pub struct Options {
    pub runs: u32,
    pub binary: PathBuf,
    /// tools/chromium-driver (its `wpt.mjs` and `node_modules`).
    pub driver_dir: PathBuf,
    /// testharness.js's text and where it came from (`serve::harness`).
    pub harness: (String, String),
}

/// The driver folder shipped with the workspace.
pub fn default_driver_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/chromium-driver")
}

/// One file's Chromium column.
#[derive(Clone, Debug, Serialize)]
pub struct ChromiumFile {
    /// Chromium's version, as the browser reports it.
    pub version: String,
    pub runs: u32,
    /// Where testharness.js came from (the npm package wpt-runner, or the `--wpt-root` checkout).
    pub harness: String,
    /// Chromium's expectation file beside the test, when there is one.
    pub expectation: Option<String>,
    #[serde(flatten)]
    pub comparison: Comparison,
    /// What was not served as WPT's server would, and what Chromium asked for that was not
    /// served (answered 404).
    pub notes: Vec<String>,
}

/// `NAME-expected.txt` beside a test (`a.https.html` → `a.https-expected.txt`, `a.window.js` →
/// `a.window-expected.txt`), as Chromium's web_tests keep them.
pub fn expectation_path(test: &Path) -> PathBuf {
    let name = test.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let stem = [".html", ".htm", ".js"].iter().find_map(|ext| name.strip_suffix(ext)).unwrap_or(name);
    test.with_file_name(format!("{stem}-expected.txt"))
}

/// Runs `path` in Chromium `opts.runs` times and compares with the spec's verdicts in `report`.
pub fn run(
    path: &Path,
    wpt_root: Option<&Path>,
    report: &FileReport,
    opts: &Options,
) -> Result<ChromiumFile, CliError> {
    let served = serve::served(path, wpt_root, &opts.harness.0)?;
    // The harness's own timeout (10 s, 60 s for a long test) and a margin for loading.
    let timeout_ms: u64 = if served.long { 60_000 } else { 10_000 } + 20_000;
    let plan = serde_json::json!({
        "chromium": opts.binary.display().to_string(),
        "runs": opts.runs,
        "url": served.url,
        "timeoutMs": timeout_ms,
        "files": served.files,
    });
    let output = crate::chromium::drive(&opts.driver_dir.join("wpt.mjs"), &plan).map_err(CliError::input)?;
    let mut notes = served.notes.clone();
    let mut missing: std::collections::BTreeMap<String, u32> = Default::default();
    let runs: Vec<Run> = output["runs"]
        .as_array()
        .map(|runs| {
            runs.iter()
                .map(|r| {
                    for m in r["missing"].as_array().into_iter().flatten().filter_map(|m| m.as_str()) {
                        *missing.entry(m.to_string()).or_default() += 1;
                    }
                    let results = serde_json::from_value::<Results>(r["results"].clone()).ok();
                    let end = match r["end"]["kind"].as_str() {
                        Some("reported") => "reported".to_string(),
                        Some("timeout") => format!("no report within {timeout_ms} ms"),
                        _ => format!("driver error: {}", r["end"]["error"].as_str().unwrap_or("unknown")),
                    };
                    Run { results, end }
                })
                .collect()
        })
        .unwrap_or_default();
    for (url, n) in missing {
        notes.push(format!("Chromium requested {url} ({n} run(s)): not served, answered 404"));
    }
    let expectation_file = expectation_path(path);
    let expectation = std::fs::read_to_string(&expectation_file).ok().map(|t| compare::parse_expectation(&t));
    let comparison = compare::compare(&report.harness, &report.subtests, &runs, expectation.as_ref());
    Ok(ChromiumFile {
        version: output["version"].as_str().unwrap_or("?").to_string(),
        runs: runs.len() as u32,
        harness: opts.harness.1.clone(),
        expectation: expectation.map(|_: Expectation| expectation_file.display().to_string()),
        comparison,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::expectation_path;
    use std::path::Path;

    #[test]
    fn the_expectation_file_is_named_as_chromiums_web_tests_name_it() {
        assert_eq!(expectation_path(Path::new("d/a.https.html")), Path::new("d/a.https-expected.txt"));
        assert_eq!(expectation_path(Path::new("a.window.js")), Path::new("a.window-expected.txt"));
        assert_eq!(expectation_path(Path::new("a.any.js")), Path::new("a.any-expected.txt"));
    }
}
