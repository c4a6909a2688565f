//! Integration tests of the property suite: generated scenarios against the invariants, the
//! deliberate faults caught and shrunk to a few lines, hostile input and runtime limits.

mod corpus;
mod faults;
mod hostile;
mod props;

use std::path::PathBuf;

use gen::{Bug, Case};
use scenario::Scenario;

/// Where failing cases are written: `target/tmp/gen-cases/`.
pub fn case_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gen-cases")
}

/// Writes a failing case and describes it: the file, its text and the replay command.
pub fn describe(stem: &str, scenario: &Scenario, bug: &Bug) -> String {
    let case = Case {
        scenario: scenario.clone(),
        schedule: bug.schedule.clone().unwrap_or_else(|| "-".into()),
        title: format!("{}: {}", bug.kind.name(), bug.message),
        details: Vec::new(),
    };
    match gen::write_case(&case_dir(), stem, &case) {
        Ok(path) => format!(
            "{}\n{}\nreplay: {}",
            path.display(),
            std::fs::read_to_string(&path).unwrap_or_default(),
            gen::replay_command(&path, &case.schedule)
        ),
        Err(e) => format!("cannot write the case: {e}\n{bug:?}"),
    }
}
