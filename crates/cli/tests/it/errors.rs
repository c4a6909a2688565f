//! Malformed scenarios: the binary exits with code 2 and names file:line:col.

use std::process::Command;

use crate::workspace_root;

#[test]
fn malformed_scenarios_exit_2_with_a_location() {
    let dir = workspace_root().join("fixtures/scenario-errors");
    let files = cli::scenario_files(&dir).unwrap();
    assert!(files.len() >= 4, "fixtures/scenario-errors is missing its cases");
    for file in files {
        let out = Command::new(env!("CARGO_BIN_EXE_webmcp-sim")).arg("run").arg(&file).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {stderr}", file.display());
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let located = stderr.lines().any(|l| {
            l.contains(&name) && l.split(':').filter(|part| part.trim().parse::<usize>().is_ok()).count() >= 2
        });
        assert!(located, "{}: no file:line:col in {stderr}", file.display());
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn a_bad_schedule_is_a_clear_error() {
    let scenario = workspace_root().join("scenarios/spec/notify-task-ordering.jsonc");
    let out = Command::new(env!("CARGO_BIN_EXE_webmcp-sim"))
        .args(["replay", scenario.to_str().unwrap(), "--schedule", "par:el0.net/0,nowhere"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("schedule choice 1 picks `nowhere`, which is not runnable here"), "{stderr}");
}

#[test]
fn every_replay_error_exits_2_with_a_hint_in_every_format() {
    let scenario = workspace_root().join("scenarios/spec/notify-task-ordering.jsonc");
    let scenario = scenario.to_str().unwrap();
    // Does not parse; picks a lane that is not runnable; ends too early; has choices left over.
    let schedules = ["el0.net*", "par:el0.net/0,nowhere", "", "par:el0.net/0,el0.timer,el0.timer,el0.timer,el0.timer"];
    for schedule in schedules {
        for format in ["text", "json", "markdown", "perfetto"] {
            let out = Command::new(env!("CARGO_BIN_EXE_webmcp-sim"))
                .args(["replay", scenario, "--schedule", schedule, "--format", format])
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{schedule:?} {format}: {stderr}");
            assert!(stderr.starts_with("error: ") && stderr.contains("hint: "), "{schedule:?} {format}: {stderr}");
        }
    }
}
