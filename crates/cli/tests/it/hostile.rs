//! Every input bounded, every output escaped, every failure non-zero (issue 32, item 6): the two
//! hostile scenarios through every command and every format, with no raw control, bidirectional
//! or format character in what they print; a closed pipe keeps the command's exit code, a
//! failed write is not a success; `merge` reads a bounded amount; numeric options have bounds.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::workspace_root;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_webmcp-sim"))
}

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hostile").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the target directory is writable");
    dir
}

/// The characters of `bytes` no output may carry raw: bytes below 0x20 but line feed and tab,
/// and every hidden character (`trace::escape::is_hidden`: DEL, C1, bidirectional and format
/// characters such as U+200B, U+FEFF and the U+E0001 tags, line and paragraph separators).
fn raw_hidden(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut raw: Vec<String> = text
        .chars()
        .filter(|&c| c != '\n' && c != '\t' && (u32::from(c) < 0x20 || trace::escape::is_hidden(c)))
        .map(|c| format!("U+{:04X}", u32::from(c)))
        .collect();
    raw.dedup();
    raw
}

#[track_caller]
fn assert_clean(out: &Output, what: &str) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let raw = raw_hidden(bytes);
        assert!(raw.is_empty(), "{what}: {stream} has raw {}\n{}", raw.join(" "), String::from_utf8_lossy(bytes));
    }
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

#[test]
fn the_hostile_scenarios_through_every_command_and_format_print_no_raw_hidden_character() {
    let root = workspace_root();
    let dir = scratch("every-command");
    for name in ["hostile-strings", "terminal-escapes"] {
        let scenario = root.join(format!("scenarios/hostile/{name}.jsonc"));
        let s = scenario.to_str().unwrap();
        // A schedule to replay: the last line of a text run.
        let text = String::from_utf8(run(&["run", s, "--seed", "1"]).stdout).unwrap();
        let schedule = text
            .lines()
            .find_map(|l| l.strip_prefix("schedule: "))
            .unwrap_or_else(|| panic!("{name}: no schedule line\n{text}"))
            .to_string();
        // Shards to merge.
        let parts: Vec<String> = (1..=2)
            .map(|k| {
                let out = run(&["explore", s, "--shard", &format!("{k}/2"), "--format", "json"]);
                assert!(out.status.success(), "{name}: shard {k}: {}", String::from_utf8_lossy(&out.stderr));
                let part = dir.join(format!("{name}-{k}.json"));
                std::fs::write(&part, &out.stdout).unwrap();
                part.display().to_string()
            })
            .collect();
        let (p1, p2) = (parts[0].as_str(), parts[1].as_str());
        let mut commands: Vec<Vec<&str>> = Vec::new();
        for format in ["text", "json", "markdown", "perfetto"] {
            commands.push(vec!["run", s, "--seed", "0", "--format", format]);
            commands.push(vec!["replay", s, "--schedule", &schedule, "--format", format]);
        }
        for format in ["text", "json", "markdown"] {
            commands.push(vec!["explore", s, "--format", format]);
        }
        commands.push(vec!["explore", s, "--sample", "5"]);
        commands.push(vec!["check", s]);
        commands.push(vec!["check", s, "--format", "markdown"]);
        commands.push(vec!["diff", s, "--parallel", "fifo"]);
        commands.push(vec!["diff", s, "--parallel", "fifo", "--format", "markdown"]);
        commands.push(vec!["report", s, "-o", "-"]);
        commands.push(vec!["report", s, "-o", "-", "--format", "markdown"]);
        commands.push(vec!["report", s, "-o", "-", "--sample", "20"]);
        commands.push(vec!["merge", p1, p2]);
        commands.push(vec!["merge", p1, p2, "--format", "json"]);
        commands.push(vec!["merge", p1, p2, "--check"]);
        commands.push(vec!["audit", s]);
        commands.push(vec!["bench-explore", s, "--naive-max-states", "1000"]);
        commands.push(vec!["bench", s, "--runs", "20"]);
        for args in &commands {
            let what = format!("{name}: {}", args[0..].join(" ").replace(s, "SCENARIO"));
            let out = run(args);
            // Each command ran (a violated or undecided expectation is exit 1, not a crash).
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{what}: {:?}\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(!out.stdout.is_empty(), "{what}: printed nothing");
            assert_clean(&out, &what);
        }
    }
}

/// `check` with a violated expectation, through `head -1` under `pipefail`, and into a full disk.
#[test]
fn a_closed_pipe_keeps_the_exit_code_and_a_failed_write_is_not_a_success() {
    let violated = workspace_root().join("fixtures/check-diff/violated.jsonc");
    let exe = env!("CARGO_BIN_EXE_webmcp-sim");
    let v = violated.display().to_string();
    let notify = workspace_root().join("scenarios/spec/notify-task-ordering.jsonc").display().to_string();
    let shell = |line: &str| {
        Command::new("bash").arg("-c").arg(format!("set -o pipefail; {line}")).stdin(Stdio::null()).output().unwrap()
    };
    // Closed pipes: the command's own code, no panic.
    for (line, code) in [
        (format!("'{exe}' check '{v}' | head -c 1 >/dev/null"), 1),
        (format!("'{exe}' explore '{notify}' | head -c 1 >/dev/null"), 0),
        (format!("'{exe}' diff '{notify}' --variant execute-checks-target-fully-active | head -c 1 >/dev/null"), 0),
    ] {
        let out = shell(&line);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{line}: {stderr}");
        assert!(!stderr.contains("panicked"), "{line}: {stderr}");
    }
    if !Path::new("/dev/full").exists() {
        eprintln!("SKIPPED the /dev/full half: no /dev/full on this machine");
        return;
    }
    // A full disk: non-zero, an error that says so, no panic; whatever the command found.
    for args in [
        vec!["check", v.as_str()],
        vec!["explore", notify.as_str()],
        vec!["run", notify.as_str()],
        vec!["diff", notify.as_str(), "--parallel", "fifo"],
        vec!["variants"],
    ] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = bin().args(&args).stdout(full).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("error: writing the output to stdout"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// `merge` parses a part as it reads it, from a bounded number of bytes: `/dev/zero` and an
/// oversized file are exit 2 without reading them whole.
#[test]
fn merge_reads_a_bounded_amount_of_each_part() {
    let out = run(&["merge", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let dir = scratch("merge");
    let big = dir.join("big.json");
    // A sparse file of spaces' length: larger than the bound, read no further than it.
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(cli::MAX_PART_BYTES + 10).unwrap();
    drop(file);
    let out = run(&["merge", big.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not an exploration result") || stderr.contains("larger than"), "{stderr}");
    std::fs::write(&big, vec![b' '; cli::MAX_PART_BYTES as usize + 1]).unwrap();
    let out = run(&["merge", big.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("larger than 64 MiB"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Numeric options have bounds; a scenario's timer cannot wrap; `diff --with ""` compares nothing.
#[test]
fn numeric_options_are_bounded_and_an_empty_change_is_an_error() {
    let notify = workspace_root().join("scenarios/spec/notify-task-ordering.jsonc");
    let n = notify.to_str().unwrap();
    for depth in ["0", "101", "100000000", "18446744073709551615"] {
        let out = run(&["explore", n, "--sample", "3", "--pct-depth", depth]);
        assert_eq!(out.status.code(), Some(2), "--pct-depth {depth}: {}", String::from_utf8_lossy(&out.stderr));
    }
    for jobs in ["0", "257", "100000"] {
        for command in ["explore", "check", "diff"] {
            let out = run(&[command, n, "--jobs", jobs, "--parallel", "fifo"]);
            assert_eq!(out.status.code(), Some(2), "{command} --jobs {jobs}: {}", String::from_utf8_lossy(&out.stderr));
        }
    }
    let out = run(&["explore", n, "--sample", "3", "--pct-depth", "100"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = run(&["diff", n, "--with", ""]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no change to compare"));
    // A timer of 2^64 - 1 ms is bad input (HTML's timeout is a `long`), not a wrapped deadline.
    let dir = scratch("numbers");
    let source = std::fs::read_to_string(&notify).unwrap();
    let huge = source.replacen("\"setTimeout\": {", "\"setTimeout\": { \"ms\": 18446744073709551615,", 1);
    assert_ne!(huge, source, "the scenario has a setTimeout");
    let file = dir.join("huge-timer.jsonc");
    std::fs::write(&file, huge).unwrap();
    let out = run(&["run", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stderr).contains("more than a timeout can be"));
}

/// `--sample` stops at `--time-limit` and says so: never more runs than the time allowed.
#[test]
fn sampling_honours_the_time_limit() {
    let scenario = workspace_root().join("fixtures/bench/four-calls-unload.jsonc");
    let out = run(&["explore", scenario.to_str().unwrap(), "--sample", "100000000", "--time-limit", "0.5"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("time-limit: ") && stdout.contains("of the 100000000 runs asked for"), "{stdout}");
    // `report --sample` too: the report says how many of the runs asked for it grouped.
    let dir = scratch("sample");
    let html = dir.join("report.html");
    let s = scenario.to_str().unwrap();
    let out = run(&["report", s, "--sample", "100000000", "--time-limit", "0.5", "-o", html.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("cut by the time limit: ") && stdout.contains(" of 100000000 runs"), "{stdout}");
}

/// Ctrl-C (SIGINT) in each exploring command: a partial report that says it is partial, exit 130.
#[test]
fn ctrl_c_gives_a_partial_honest_report_in_every_exploring_command() {
    let big = workspace_root().join("fixtures/bench/four-calls-unload.jsonc");
    let b = big.to_str().unwrap();
    let dir = scratch("ctrl-c");
    let html = dir.join("report.html");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["check", b], "interrupted by Ctrl-C: 1 of 1 scenarios"),
        (vec!["diff", b, "--parallel", "fifo"], "Ctrl-C"),
        (vec!["report", b, "-o", html.to_str().unwrap()], "incomplete: Ctrl-C"),
        (vec!["bench-explore", b], "stopped by Ctrl-C"),
        (vec!["explore", b, "--sample", "100000000"], "Ctrl-C: "),
        (vec!["fuzz", "--seeds", "0..1000000", "--out", dir.to_str().unwrap()], "interrupted by Ctrl-C: seeds 0.."),
    ];
    for (args, says) in cases {
        let child = bin().args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
        assert!(killed.success());
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let what = args[0];
        assert_eq!(out.status.code(), Some(130), "{what}: {stdout}\n{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains(says), "{what}: {stdout}");
        assert!(!stdout.contains("complete: every schedule"), "{what} claims a complete search: {stdout}");
    }
}
