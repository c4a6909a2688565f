//! The shipped corpus through the same checks as generated scenarios: every scenario under
//! `scenarios/`, under random schedules and bounded exploration, holds every invariant, and the
//! reduced search finds what the naive one does without a split (the regressions included).

use std::path::{Path, PathBuf};

use gen::{check_scenario, CheckConfig};

fn scenario_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("scenarios/") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            scenario_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "jsonc") {
            out.push(path);
        }
    }
}

/// Whether any document of these frames (or their iframes) is a JavaScript page.
fn has_page_scripts(frames: &[scenario::Frame]) -> bool {
    frames.iter().any(|f| f.js.is_some() || f.js_file.is_some() || has_page_scripts(&f.frames))
}

#[test]
fn every_shipped_scenario_holds_every_invariant() {
    let mut files = Vec::new();
    scenario_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios"), &mut files);
    files.sort();
    assert!(files.len() > 20, "the corpus is missing");
    let config =
        CheckConfig { schedules: 4, explore_max_states: 5_000, naive_max_states: 5_000, ..CheckConfig::default() };
    let mut bugs = Vec::new();
    for file in &files {
        let (scenario, _) = scenario::load(file).unwrap_or_else(|d| panic!("{}: {d:?}", file.display()));
        // JavaScript pages need the engine (`crates/js`, which `gen` does not link) and have no
        // stateful search: cli's `js.rs` checks them against their action-language twins.
        if has_page_scripts(&scenario.tabs) {
            continue;
        }
        let report = check_scenario(&scenario, &config, 0);
        for bug in report.bugs {
            let schedule = bug.schedule.clone().unwrap_or_else(|| "-".into());
            bugs.push(format!(
                "{}: {}: {}\n  {}",
                file.display(),
                bug.kind.name(),
                bug.message,
                gen::replay_command(file, &schedule)
            ));
        }
    }
    assert!(bugs.is_empty(), "{}", bugs.join("\n"));
}
