//! Outputs that never overstate and inputs that cannot hurt the person who runs them: `report`
//! counts the outcomes `explore` counts, text output carries no raw control character, printed
//! replay commands survive hostile file names, and reading a scenario is bounded in memory.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use cli::load_program;

use crate::workspace_root;

#[test]
fn report_seeds_mode_and_explore_agree_on_the_distinct_outcomes_of_every_shipped_scenario() {
    let files = crate::explorable(cli::scenario_files(&workspace_root().join("scenarios")).unwrap());
    assert!(files.len() > 10, "the corpus is missing");
    let mut disagree = Vec::new();
    for file in files {
        let program = load_program(&file).unwrap_or_else(|e| panic!("{e}"));
        let ex = webmcp::explore(&program, &webmcp::ExploreOptions::default()).unwrap();
        assert!(ex.complete, "{}", file.display());
        let explored: BTreeSet<String> = ex.outcomes.iter().map(|o| o.summary.clone()).collect();
        // `report`'s default seeds.
        let seeds = cli::report::parse_seeds("0..200").unwrap();
        let mut groups = cli::report::outcomes_by_seed(&program, seeds, 10_000).unwrap();
        if groups.len() < ex.outcomes.len() {
            // A rare outcome that 200 random schedules miss (a timed user step's window racing
            // a timer): more seeds, so the comparison is about grouping, not luck.
            let seeds = cli::report::parse_seeds("0..3000").unwrap();
            groups = cli::report::outcomes_by_seed(&program, seeds, 10_000).unwrap();
        }
        let seen: BTreeSet<String> = groups.iter().map(|g| g.witness.outcome.canonical().summary()).collect();
        assert_eq!(seen.len(), groups.len(), "{}: an outcome counted twice", file.display());
        // Every group is an outcome the exploration found, and no outcome is counted twice.
        assert!(seen.is_subset(&explored), "{}: seeds reached an outcome explore did not", file.display());
        if groups.len() != ex.outcomes.len() {
            disagree.push(format!(
                "{}: report {} outcomes, explore {}",
                file.display(),
                groups.len(),
                ex.outcomes.len()
            ));
        }
    }
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
}

/// The `webmcp-sim` binary.
fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_webmcp-sim"))
}

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("outputs").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the target directory is writable");
    dir
}

fn text(out: &Output) -> (String, String) {
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The raw characters a terminal obeys or reorders that are in `text`, besides line feeds.
#[track_caller]
fn assert_no_raw_hidden_character(text: &str, what: &str) {
    let raw: Vec<String> =
        text.chars().filter(|&c| c != '\n' && trace::escape::is_hidden(c)).map(|c| format!("{c:?}")).collect();
    assert!(raw.is_empty(), "{what}: raw {}\n{text}", raw.join(" "));
}

#[test]
fn the_terminal_escapes_scenario_prints_no_raw_control_character_in_any_text_output() {
    let scenario = workspace_root().join("scenarios/hostile/terminal-escapes.jsonc");
    // `check` prints scenario strings when an expectation fails: one that quotes a hostile log line.
    let dir = scratch("terminal");
    let source = std::fs::read_to_string(&scenario).unwrap();
    let violated = r#"  "expect": { "never": [ { "logged": "timer\nreplay: rm -rf ~ \u200b\ufeff\udb40\udc01" } ] },"#;
    let source = source.replacen("  \"tabs\": [", &format!("{violated}\n  \"tabs\": ["), 1);
    std::fs::write(dir.join("terminal-escapes-\u{1b}[2J.jsonc"), source).unwrap();
    let scenario = scenario.to_str().unwrap();
    let runs: Vec<(Vec<&str>, i32)> = vec![
        (vec!["run", scenario, "--seed", "0"], 0),
        (vec!["run", scenario, "--seed", "1"], 0),
        (vec!["explore", scenario], 0),
        (vec!["explore", scenario, "--format", "json"], 0),
        (vec!["check", dir.to_str().unwrap()], 1),
        (vec!["audit", scenario], 0),
        (vec!["bench-explore", scenario], 0),
    ];
    for (args, code) in runs {
        let out = bin().args(&args).output().unwrap();
        let (stdout, stderr) = text(&out);
        let what = args.join(" ");
        assert!(out.status.code() == Some(code), "{what}: {stderr}");
        assert_no_raw_hidden_character(&stdout, &what);
        assert_no_raw_hidden_character(&stderr, &what);
        // A line break in a name does not start a line of its own.
        for forged in ["break ", "fake: line", "replay: rm", "schedule: forged"] {
            assert!(!stdout.lines().any(|l| l.starts_with(forged)), "{what}: a line starts with {forged:?}\n{stdout}");
        }
        let shown = if args.contains(&"json") { "\\u001b]0;PWNED\\u0007" } else { "\\u{001b}]0;PWNED\\u{0007}" };
        // Only the scenario's text is escaped: the report's own lines stay lines.
        assert!(
            !what.starts_with("bench-explore")
                || stdout.lines().any(|l| l.starts_with("  ") && l.contains("distinct outcomes")),
            "{what}: the report's line breaks were escaped\n{stdout}"
        );
        let names = what.starts_with("run") || what.starts_with("explore") || what.starts_with("bench-explore");
        assert!(!names || stdout.contains(shown), "{what}: the escape is not shown\n{stdout}");
    }
}

/// Runs a printed command line with `sh -c` in `dir`, with the binary on the `PATH`.
fn sh(dir: &Path, command: &str) -> Output {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_webmcp-sim")).parent().unwrap().to_path_buf();
    let path =
        std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())))
            .unwrap();
    Command::new("sh").arg("-c").arg(command).current_dir(dir).env("PATH", path).output().unwrap()
}

/// Runs each replay command: it must succeed and touch nothing.
#[track_caller]
fn replay_all(dir: &Path, commands: &[String], what: &str) {
    assert!(!commands.is_empty(), "{what}: no replay command printed");
    for command in commands {
        assert!(command.starts_with("webmcp-sim replay "), "{what}: {command}");
        let out = sh(dir, command);
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{what}: `{command}` failed: {stderr}");
        assert!(stdout.starts_with("webmcp-sim trace v1: "), "{what}: `{command}`: {stdout}");
        assert!(!dir.join("PWNED").exists(), "{what}: `{command}` ran the command in the file name");
    }
}

/// The commands on the `witness (N choices): …` lines of an exploration's text.
fn witnesses(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("  witness ("))
        .filter_map(|l| l.split_once("): ").map(|(_, c)| c.to_string()))
        .collect()
}

fn html_unescape(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

#[test]
fn every_printed_replay_command_survives_a_file_name_with_a_command_substitution_spaces_and_quotes() {
    let dir = scratch("replay");
    let name = "a$(touch PWNED)b 'q\" `touch PWNED` x.jsonc";
    // A race with an expectation that does not hold, so `check` prints a witness too.
    let source = std::fs::read_to_string(workspace_root().join("scenarios/races/cancel-vs-completion.jsonc")).unwrap();
    let source = source.replace(r#""never": ["#, r#""never": [{"promise": {"name": "call", "is": "fulfilled"}},"#);
    std::fs::create_dir(dir.join("check")).unwrap();
    std::fs::write(dir.join(name), &source).unwrap();
    std::fs::write(dir.join("check").join(name), &source).unwrap();

    // run (and replay, which prints its own replay line): the same trace again.
    let out = bin().args(["run", name, "--seed", "3"]).current_dir(&dir).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let replay = stdout.lines().find_map(|l| l.strip_prefix("replay: ")).expect("a replay line").to_string();
    replay_all(&dir, std::slice::from_ref(&replay), "run");
    assert_eq!(text(&sh(&dir, &replay)).0, stdout, "the replayed trace differs");

    // explore, text and Markdown.
    let out = bin().args(["explore", name]).current_dir(&dir).output().unwrap();
    let commands = witnesses(&text(&out).0);
    replay_all(&dir, &commands, "explore");
    let out = bin().args(["explore", name, "--format", "markdown"]).current_dir(&dir).output().unwrap();
    let md = text(&out).0;
    let commands: Vec<String> =
        md.lines().filter(|l| l.starts_with("webmcp-sim replay ")).map(str::to_string).collect();
    assert!(commands.len() >= 2, "{md}");
    replay_all(&dir, &commands, "explore --format markdown");

    // run --format markdown.
    let out = bin().args(["run", name, "--format", "markdown"]).current_dir(&dir).output().unwrap();
    let commands: Vec<String> =
        text(&out).0.split("sh\n").skip(1).map(|b| b.lines().next().unwrap().to_string()).collect();
    replay_all(&dir, &commands, "run --format markdown");

    // report, HTML, both modes.
    for mode in [vec!["--seeds", "0..20"], vec!["--explore"]] {
        let out = bin().args(["report", name, "-o", "report.html"]).args(&mode).current_dir(&dir).output().unwrap();
        assert!(out.status.success(), "{}", text(&out).1);
        let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
        let commands: Vec<String> = html
            .split("<dt>replay</dt><dd><code>")
            .skip(1)
            .map(|b| html_unescape(b.split("</code>").next().unwrap()))
            .collect();
        replay_all(&dir, &commands, "report");
    }

    // check: the violated expectation's witness.
    let out = bin().args(["check", "check"]).current_dir(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out).0);
    let commands: Vec<String> =
        text(&out).0.lines().filter_map(|l| l.strip_prefix("  witness: ")).map(str::to_string).collect();
    replay_all(&dir, &commands, "check");

    // merge: two shards, whose text names the file explored.
    for k in [1, 2] {
        let out = bin()
            .args(["explore", name, "--format", "json", "--shard", &format!("{k}/2")])
            .current_dir(&dir)
            .output()
            .unwrap();
        std::fs::write(dir.join(format!("part{k}.json")), &out.stdout).unwrap();
    }
    let out = bin().args(["merge", "part1.json", "part2.json"]).current_dir(&dir).output().unwrap();
    assert!(out.status.success(), "{}", text(&out).1);
    let commands = witnesses(&text(&out).0);
    replay_all(&dir, &commands, "merge");
}

#[test]
fn a_shell_word_reads_back_as_itself_in_sh() {
    let dir = scratch("shell-word");
    let words = [
        "plain.jsonc",
        "",
        "a b",
        "it's",
        "$(touch PWNED)",
        "`touch PWNED`",
        "$HOME ${x} $$ !! * ? ~ #",
        "\"double\" 'single' \\back",
        "esc \u{1b}]0;title\u{7} nul-less \u{9b} bidi \u{202e}x\u{2066}",
        "line\nfeed",
    ];
    for word in words {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("printf '%s' {}", trace::escape::shell(word)))
            .current_dir(&dir)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), word, "{:?}", trace::escape::shell(word));
        assert!(!dir.join("PWNED").exists(), "{word:?}");
        assert_no_raw_hidden_character(&trace::escape::shell(word).replace('\n', ""), word);
    }
}

/// Runs `webmcp-sim ARGS` under `/usr/bin/time` and `timeout 10`: its exit code, stderr and
/// peak resident memory in kB.
fn measured(args: &[&str], dir: &Path) -> (Option<i32>, String, u64) {
    let report = dir.join("time.txt");
    let out = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(&report)
        .args(["timeout", "10", env!("CARGO_BIN_EXE_webmcp-sim")])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("/usr/bin/time runs");
    let kb = std::fs::read_to_string(&report).unwrap_or_default();
    let kb = kb.lines().last().and_then(|l| l.trim().parse().ok()).unwrap_or(u64::MAX);
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned(), kb)
}

#[test]
fn reading_dev_zero_a_fifo_or_a_sparse_file_is_refused_in_bounded_memory() {
    let dir = scratch("bounded");
    // A 2 GB sparse file: no disk, 2 GB to whoever reads it all.
    let sparse = dir.join("sparse.jsonc");
    std::fs::File::create(&sparse).unwrap().set_len(2 << 30).unwrap();
    // A FIFO whose writer never stops.
    let fifo = dir.join("fifo.jsonc");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let mut writer = Command::new("sh").arg("-c").arg("exec yes x > fifo.jsonc").current_dir(&dir).spawn().unwrap();
    for (file, what) in [("/dev/zero", "/dev/zero"), ("sparse.jsonc", "a sparse file"), ("fifo.jsonc", "a FIFO")] {
        let (code, stderr, kb) = measured(&["run", file], &dir);
        assert_eq!(code, Some(2), "{what}: {stderr}");
        assert!(stderr.contains("larger than 1048576 bytes"), "{what}: {stderr}");
        assert!(kb < 100_000, "{what}: {kb} kB");
    }
    let _ = writer.kill();
    let _ = writer.wait();
}

#[test]
fn a_directory_walk_follows_no_link_twice() {
    let dir = scratch("link-loop");
    std::fs::copy(workspace_root().join("scenarios/execute/tool-throws.jsonc"), dir.join("a.jsonc")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("loop1")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("loop2")).unwrap();
    let (code, stderr, kb) = measured(&["check", "."], &dir);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(kb < 100_000, "{kb} kB");
    assert_eq!(cli::scenario_files(&dir).unwrap().len(), 1);
}

#[test]
fn check_and_snapshot_on_a_directory_without_scenarios_are_errors() {
    let dir = scratch("empty");
    for command in ["check", "snapshot"] {
        let out = bin().args([command, "."]).current_dir(&dir).output().unwrap();
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert!(stderr.contains("no scenario") && stderr.contains("hint: "), "{command}: {stderr}");
    }
}

#[test]
fn report_bench_and_fuzz_end_quietly_on_a_closed_stdout_and_report_writes_stdout_for_dash() {
    let dir = scratch("stdout");
    let scenario = workspace_root().join("scenarios/spec/notify-task-ordering.jsonc");
    let scenario = scenario.to_str().unwrap();
    let out = bin().args(["report", scenario, "--seeds", "0..5", "-o", "-"]).current_dir(&dir).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.starts_with("<!DOCTYPE html>"), "{stdout}");
    assert!(!dir.join("-").exists(), "`-o -` wrote a file named -");
    let fuzz = ["fuzz", "--seeds", "0..2", "--out", "fuzz-out"];
    for args in [
        vec!["report", scenario, "--seeds", "0..5", "-o", "-"],
        vec!["bench", scenario, "--runs", "5"],
        vec!["fuzz-parser", "--inputs", "30"],
        fuzz.to_vec(),
    ] {
        let mut child =
            bin().args(&args).current_dir(&dir).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{}: {stderr}", args[0]);
        assert_ne!(out.status.code(), Some(101), "{}: {stderr}", args[0]);
    }
}

#[test]
fn a_file_error_shows_its_line_with_the_caret_under_the_first_byte_that_is_not_utf8() {
    let dir = scratch("not-utf8");
    std::fs::write(dir.join("bad.jsonc"), b"{\n  \"version\": 1, \"n\xc3\xa9\xc3\xa9\", \xff \"x\"\n}").unwrap();
    let out = bin().args(["run", "bad.jsonc"]).current_dir(&dir).output().unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines[0], "error: bad.jsonc:2:24: the file is not valid UTF-8", "{stderr}");
    let snippet = lines[2].strip_prefix("2 | ").unwrap_or_else(|| panic!("no snippet: {stderr}"));
    let caret = lines[3].strip_prefix("  | ").unwrap();
    assert_eq!(snippet.chars().nth(caret.chars().count() - 1), Some('\u{fffd}'), "{stderr}");
}

#[test]
fn the_scenario_format_documents_every_top_level_field_of_the_schema() {
    let root = workspace_root();
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("docs/scenario.schema.json")).unwrap()).unwrap();
    let doc = std::fs::read_to_string(root.join("docs/scenario-format.md")).unwrap();
    let top = &doc[doc.find("## Top level").unwrap()..doc.find("## Frames").unwrap()];
    let fields: Vec<&String> = schema["properties"].as_object().expect("top-level properties").keys().collect();
    assert!(fields.len() >= 8, "{fields:?}");
    for field in fields {
        assert!(top.contains(&format!("\"{field}\":")), "docs/scenario-format.md, Top level: no `{field}`");
    }
}

#[test]
fn the_markdown_of_every_shipped_scenario_fits_one_github_issue_and_holds_its_source() {
    let mut over = Vec::new();
    for (file, md) in crate::render::issue_markdowns() {
        let n = md.len();
        if n > trace::markdown::MAX_BODY {
            over.push(format!("{}: {n} bytes", file.display()));
        }
        let source = std::fs::read_to_string(&file).unwrap();
        assert!(md.contains(&source), "{}: the scenario source is not in its Markdown", file.display());
        let loaded = cli::load(&file, &[]).unwrap_or_else(|e| panic!("{e}"));
        let trace = cli::report::run_trace(&loaded.program, &cli::Driver::Seed(0), 10_000).unwrap();
        let md =
            cli::report::render_loaded_run(&trace, cli::report::View::Markdown, &file, &loaded, &cli::Driver::Seed(0));
        assert!(md.len() <= trace::markdown::MAX_BODY, "{}: one run", file.display());
        assert!(md.contains(&source), "{}: the scenario source is not in its run's Markdown", file.display());
    }
    assert!(over.is_empty(), "{}", over.join("\n"));
}
