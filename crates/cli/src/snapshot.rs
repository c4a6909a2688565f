//! Golden snapshots of a directory of scenarios, in insta's `.snap` file format, so a spec
//! repository can keep its races' traces under review: `DIR/snapshots/<path>.snap` holds the
//! text trace at seed 0 of `DIR/<path>` (`/` in the path becomes `__`, as in insta's glob names).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::report::run_trace;
use crate::{load_program, scenario_files, Driver};

#[cfg(test)]
mod tests;

/// The seed of every snapshot.
pub const SEED: u64 = 0;

/// The result of `snapshot`: a line per scenario, and the exit code.
pub struct SnapshotReport {
    pub text: String,
    /// 0 when every snapshot matches (or was accepted), 1 when one is new or changed, 2 when a
    /// scenario does not load or run.
    pub exit_code: u8,
}

/// Where the snapshot of `scenario` (a path inside `dir`) lives.
pub fn snapshot_path(dir: &Path, scenario: &Path) -> PathBuf {
    let rel = scenario.strip_prefix(dir).unwrap_or(scenario);
    let name: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    dir.join("snapshots").join(format!("{}.snap", name.join("__")))
}

/// A snapshot file: insta's header (`source`, `expression`, `input_file`) between `---` lines,
/// then the contents.
pub fn snapshot_file(rel: &str, contents: &str) -> String {
    format!(
        "---\nsource: {}\nexpression: {}\ninput_file: {}\n---\n{}\n",
        yaml_string(rel),
        yaml_quoted(&format!("webmcp-sim run {rel} --seed {SEED}")),
        yaml_string(rel),
        contents.trim_end()
    )
}

/// The contents of a snapshot file (what follows its header), or `None` if it has no header.
pub fn snapshot_contents(file: &str) -> Option<&str> {
    let rest = file.strip_prefix("---\n")?;
    let end = rest.find("\n---\n")?;
    Some(&rest[end + 5..])
}

/// Checks (or, with `review`, accepts) the snapshot of every `.jsonc` scenario under `dir`.
///
/// Without `review`, a new or changed snapshot is written beside the old one as `.snap.new`, as
/// insta does, and the exit code is 1. With `review`, each `.snap.new` content is accepted: the
/// `.snap` is written and the `.snap.new` removed.
pub fn snapshot_dir(dir: &Path, review: bool) -> std::io::Result<SnapshotReport> {
    let files = scenario_files(dir)?;
    if files.is_empty() {
        return Err(crate::no_scenario());
    }
    let mut text = String::new();
    let (mut same, mut changed, mut accepted, mut failed) = (0, 0, 0, 0);
    for file in &files {
        let rel = file.strip_prefix(dir).unwrap_or(file).display().to_string();
        let snap = snapshot_path(dir, file);
        let mut pending = snap.clone().into_os_string();
        pending.push(".new");
        let pending = PathBuf::from(pending);
        let trace = load_program(file).and_then(|program| {
            run_trace(&program, &Driver::Seed(SEED), 10_000).map_err(|e| crate::CliError::failed(format!("{rel}: {e}")))
        });
        let trace = match trace {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(text, "FAILED   {rel}");
                text.push_str(&e.to_string());
                failed += 1;
                continue;
            }
        };
        let new = snapshot_file(&rel, &trace.render_text());
        let old = std::fs::read_to_string(&snap).ok();
        let matches =
            old.as_deref().and_then(snapshot_contents).map(str::trim_end) == snapshot_contents(&new).map(str::trim_end);
        if matches {
            remove_if_present(&pending)?;
            same += 1;
            continue;
        }
        std::fs::create_dir_all(snap.parent().unwrap_or(dir))?;
        if review {
            std::fs::write(&snap, &new)?;
            remove_if_present(&pending)?;
            let _ = writeln!(text, "accepted {rel} -> {}", snap.display());
            accepted += 1;
        } else {
            std::fs::write(&pending, &new)?;
            let what = match &old {
                None => "new     ".to_string(),
                Some(old) => format!("changed  (first difference: {})", first_difference(old, &new)),
            };
            let _ = writeln!(text, "{what} {rel} -> {}", pending.display());
            changed += 1;
        }
    }
    let _ = writeln!(
        text,
        "{} scenarios: {same} match, {changed} new or changed, {accepted} accepted, {failed} failed",
        files.len()
    );
    if changed > 0 {
        let _ = writeln!(text, "review: webmcp-sim snapshot {} --review (or cargo insta review)", dir.display());
    }
    let exit_code = if failed > 0 {
        2
    } else if changed > 0 {
        1
    } else {
        0
    };
    Ok(SnapshotReport { text, exit_code })
}

fn remove_if_present(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// `line N: -old / +new` for the first line of the contents that differs.
fn first_difference(old: &str, new: &str) -> String {
    let (old, new) = (snapshot_contents(old).unwrap_or(old), snapshot_contents(new).unwrap_or(new));
    let (mut a, mut b) = (old.lines(), new.lines());
    for n in 1.. {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (None, None) => break,
            (x, y) => return format!("line {n}: -{:?} +{:?}", x.unwrap_or(""), y.unwrap_or("")),
        }
    }
    "trailing whitespace".to_string()
}

/// A YAML scalar: plain when that is unambiguous, else double-quoted.
fn yaml_string(text: &str) -> String {
    let plain = !text.is_empty()
        && text.chars().all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c))
        && !text.starts_with(['-', '.']);
    if plain {
        text.to_string()
    } else {
        yaml_quoted(text)
    }
}

/// A double-quoted YAML scalar (a JSON string is one).
fn yaml_quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}
