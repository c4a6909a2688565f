//! Every exploring command takes a scenario file or a folder of them (issue 31): a folder means
//! each `.jsonc` scenario under it, sorted, and a file means itself.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::workspace_root;

fn sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_webmcp-sim")).current_dir(workspace_root()).args(args).output().unwrap()
}

/// A fresh folder under the target directory holding copies of `files` (workspace paths).
fn folder_of(name: &str, files: &[&str]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("paths").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("nested")).unwrap();
    for (i, file) in files.iter().enumerate() {
        let to = if i % 2 == 0 { dir.join(format!("{i}.jsonc")) } else { dir.join(format!("nested/{i}.jsonc")) };
        std::fs::copy(workspace_root().join(file), to).unwrap();
    }
    dir
}

#[test]
fn check_takes_a_file_as_it_takes_a_folder() {
    let file = "fixtures/check-diff/violated.jsonc";
    let alone = sim(&["check", file]);
    let stdout = String::from_utf8_lossy(&alone.stdout);
    assert_eq!(alone.status.code(), Some(1), "{stdout}{}", String::from_utf8_lossy(&alone.stderr));
    assert!(stdout.lines().nth(1).is_some_and(|l| l.starts_with(file) && l.ends_with("VIOLATED")), "{stdout}");

    let dir = folder_of("check", &[file]);
    let in_folder = sim(&["check", dir.to_str().unwrap()]);
    assert_eq!(in_folder.status.code(), Some(1));
    // The same header and row but for the name (relative to the folder), the same summary.
    let rows = |out: &Output| {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
    };
    assert_eq!(rows(&alone)[..4], rows(&in_folder)[..4]);
}

#[test]
fn audit_and_explore_take_folders_in_sorted_order() {
    let files = ["scenarios/spec/notify-task-ordering.jsonc", "scenarios/spec/notify-task-ordering-cross-site.jsonc"];
    let dir = folder_of("audit", &files);
    let out = sim(&["audit", dir.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let audited: Vec<&str> = stdout.lines().filter_map(|l| l.split(": choice points").next()).collect();
    assert_eq!(audited, [dir.join("0.jsonc").to_str().unwrap(), dir.join("nested/1.jsonc").to_str().unwrap()]);

    let out = sim(&["explore", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let one = sim(&["explore", dir.join("0.jsonc").to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with(&*String::from_utf8_lossy(&one.stdout)));
}

#[test]
fn a_folder_is_bad_input_where_one_file_is_needed_or_none_is_under_it() {
    let dir = folder_of("json", &["scenarios/spec/notify-task-ordering.jsonc"]);
    let out = sim(&["explore", dir.to_str().unwrap(), "--format", "json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.starts_with("error: ") && stderr.contains("hint: "), "{stderr}");
    assert!(out.stdout.is_empty());

    let empty = folder_of("empty", &[]);
    for command in ["check", "audit", "explore", "bench-explore"] {
        let out = sim(&[command, empty.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert!(stderr.contains("no scenario (`.jsonc` file)"), "{command}: {stderr}");
    }
}
