//! `docs/spec-coverage.md` stays true, and seeded runs of the race corpus stay inside each file's
//! expected outcome set.
//!
//! The coverage map is checked against the traces of the corpus: every outcome's witness
//! schedule (from the exhaustive explorer) plus a few seeded runs per scenario, so branches that
//! share an outcome with another branch are seen too.
//! Set `WEBMCP_COVERAGE_DUMP=<file>` to write every scenario's cited steps as JSON.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::OnceLock;

use cli::load_program;
use sched::{RandomChooser, ReplayChooser, Schedule};
use webmcp::{ExploreOptions, Limits};

use crate::workspace_root;

/// Seeded runs per scenario, on top of the witnesses, when collecting cited steps.
const COVERAGE_SEEDS: u64 = 128;

/// Seeds per file for `seeded_runs_stay_inside_the_expected_outcomes` (see its comment).
const OUTCOME_SEEDS: u64 = 10_000;

/// The source files that hold the spec's algorithms.
const ALGORITHM_SOURCES: [&str; 12] = [
    "algorithms.rs",
    "algorithms/register.rs",
    "algorithms/get_tools.rs",
    "algorithms/execute.rs",
    "algorithms/cancel.rs",
    "agent.rs",
    "script.rs",
    "script/action.rs",
    "lifecycle.rs",
    "user.rs",
    "kernel.rs",
    "run.rs",
];

/// The files that must give a `pub fn` with a spec anchor its own section.
const ANCHORED_SOURCES: [&str; 6] = [
    "algorithms.rs",
    "algorithms/register.rs",
    "algorithms/get_tools.rs",
    "algorithms/execute.rs",
    "algorithms/cancel.rs",
    "agent.rs",
];

const ANCHOR_PREFIX: &str = "/// <https://webmachinelearning.github.io/webmcp/#";

/// Each scenario (path under `scenarios/`) and the cites (`algorithm step`) of its traces.
fn corpus_cites() -> &'static BTreeMap<String, BTreeSet<String>> {
    static CITES: OnceLock<BTreeMap<String, BTreeSet<String>>> = OnceLock::new();
    CITES.get_or_init(|| {
        let dir = workspace_root().join("scenarios");
        let files = crate::explorable(cli::scenario_files(&dir).unwrap());
        assert!(files.len() > 10, "the corpus is missing");
        let mut out = BTreeMap::new();
        for file in files {
            let name = file.strip_prefix(&dir).unwrap().to_string_lossy().replace('\\', "/");
            let program = load_program(&file).unwrap_or_else(|e| panic!("{e}"));
            let mut cites = BTreeSet::new();
            let mut add = |trace: &trace::Trace| {
                for unit in &trace.units {
                    cites.insert(unit.cite.to_string());
                    for event in &unit.events {
                        cites.insert(event.cite.to_string());
                    }
                }
            };
            let ex = webmcp::explore(&program, &ExploreOptions::default()).unwrap();
            assert!(ex.complete, "{name}: the exploration is incomplete ({:?})", ex.bounds_hit);
            for class in &ex.outcomes {
                let schedule = Schedule::parse(&class.witness).unwrap();
                let trace = webmcp::run(&program, &mut ReplayChooser::new(&schedule), Limits::default()).unwrap();
                add(&trace);
            }
            for seed in 0..COVERAGE_SEEDS {
                add(&webmcp::run(&program, &mut RandomChooser::new(seed), Limits::default()).unwrap());
            }
            out.insert(name, cites);
        }
        if let Ok(path) = std::env::var("WEBMCP_COVERAGE_DUMP") {
            std::fs::write(path, serde_json::to_string_pretty(&out).unwrap()).unwrap();
        }
        out
    })
}

/// A row's status column.
#[derive(Debug)]
enum Status {
    /// `reached` (the step's own cite) or ``reached via `<cite>` ``: the named scenarios cite it.
    Reached { evidence: String },
    /// `unreachable: <reason>`: no trace of the corpus cites the step.
    Unreachable,
    /// `not modelled: <reason>`: no trace of the corpus cites the step.
    NotModelled,
}

#[derive(Debug)]
struct Row {
    line: usize,
    step: String,
    functions: Vec<String>,
    scenarios: Vec<String>,
    /// "and N more": at least N other scenarios reach the step too.
    more: usize,
    status: Status,
}

#[derive(Debug)]
struct Section {
    /// The algorithm's name as traces cite it (`registerTool`, `cancel a pending tool execution`).
    algorithm: String,
    function: String,
    rows: Vec<Row>,
}

/// The Markdown between backticks, in order.
fn backticked(text: &str) -> Vec<String> {
    text.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// Splits a table row on `|`, except `\|`.
fn cells(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = line.trim().trim_start_matches('|').chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                out.last_mut().unwrap().push('|');
                chars.next();
            }
            '|' => out.push(String::new()),
            _ => out.last_mut().unwrap().push(c),
        }
    }
    if out.last().is_some_and(|c| c.trim().is_empty()) {
        out.pop();
    }
    out.into_iter().map(|c| c.trim().to_string()).collect()
}

fn parse_doc(text: &str) -> Result<Vec<Section>, String> {
    let mut sections: Vec<Section> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if let Some(heading) = line.strip_prefix("### ") {
            let (algorithm, function) =
                heading.split_once(" — ").ok_or_else(|| format!("line {n}: write `### <algorithm> — `fn``"))?;
            let function = backticked(function).into_iter().next().ok_or_else(|| format!("line {n}: no `fn`"))?;
            sections.push(Section { algorithm: algorithm.trim().to_string(), function, rows: Vec::new() });
            continue;
        }
        if !line.starts_with('|') {
            continue;
        }
        let Some(section) = sections.last_mut() else { continue };
        let c = cells(line);
        if c.len() != 5 {
            return Err(format!("line {n}: a table row needs 5 cells, found {}", c.len()));
        }
        if c[0] == "Step" || c[0].starts_with("---") {
            continue;
        }
        let step = c[0].trim_matches('`').to_string();
        let functions = backticked(&c[2]);
        let scenarios: Vec<String> = backticked(&c[3]).into_iter().filter(|s| s.ends_with(".jsonc")).collect();
        let more = match c[3].split_once("and ").map(|(_, r)| r.split_whitespace().collect::<Vec<_>>()) {
            Some(words) if words.len() >= 2 && words[1] == "more" => {
                words[0].parse().map_err(|_| format!("line {n}: `and N more` needs a number"))?
            }
            _ => 0,
        };
        let status_text = c[4].as_str();
        let status = if status_text == "reached" {
            Status::Reached { evidence: format!("{} {step}", section.algorithm) }
        } else if let Some(via) = status_text.strip_prefix("reached via ") {
            let evidence =
                backticked(via).into_iter().next().ok_or_else(|| format!("line {n}: reached via `<cite>`"))?;
            Status::Reached { evidence }
        } else if status_text.starts_with("unreachable: ") {
            Status::Unreachable
        } else if status_text.starts_with("not modelled: ") {
            Status::NotModelled
        } else {
            return Err(format!(
                "line {n}: status {status_text:?} is none of `reached`, ``reached via `cite` ``, `unreachable: why`, `not modelled: why`"
            ));
        };
        section.rows.push(Row { line: n, step, functions, scenarios, more, status });
    }
    Ok(sections)
}

/// `fn name` → its source lines (from the `fn` line to its closing brace), over the algorithm files.
fn functions() -> BTreeMap<String, (String, Vec<String>)> {
    let mut out = BTreeMap::new();
    for file in ALGORITHM_SOURCES {
        let text = std::fs::read_to_string(workspace_root().join("crates/webmcp/src").join(file)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let Some(rest) = ["pub fn ", "pub(crate) fn ", "fn "].iter().find_map(|p| trimmed.strip_prefix(p)) else {
                continue;
            };
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let indent = &line[..line.len() - trimmed.len()];
            let close = format!("{indent}}}");
            let end = lines[i..].iter().position(|l| *l == close).map_or(lines.len(), |p| i + p + 1);
            let body = lines[i..end].iter().map(|l| l.to_string()).collect();
            out.insert(name, (file.to_string(), body));
        }
    }
    out
}

/// The `// Step N.` comments of a function, ranges (`9.2.2–9.2.4`) expanded.
fn step_comments(body: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for line in body {
        let Some(comment) = line.trim_start().strip_prefix("//") else { continue };
        let Some(rest) = comment.trim_start().strip_prefix("Step ") else { continue };
        let token = rest.split_whitespace().next().unwrap_or("").trim_end_matches('.');
        match token.split_once('–') {
            Some((from, to)) => {
                let (prefix, first) = from.rsplit_once('.').unwrap_or(("", from));
                let last = to.rsplit_once('.').map_or(to, |(_, l)| l);
                let (first, last): (u32, u32) = (first.parse().unwrap(), last.parse().unwrap());
                for k in first..=last {
                    out.push(if prefix.is_empty() { k.to_string() } else { format!("{prefix}.{k}") });
                }
            }
            None => out.push(token.to_string()),
        }
    }
    out
}

/// `pub fn`s whose doc comment links a spec anchor, in the files that must have a section each.
fn anchored_functions() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for file in ANCHORED_SOURCES {
        let text = std::fs::read_to_string(workspace_root().join("crates/webmcp/src").join(file)).unwrap();
        let mut anchor = None;
        for line in text.lines() {
            let trimmed = line.trim_start();
            if trimmed.starts_with(ANCHOR_PREFIX) {
                anchor = Some(trimmed.to_string());
            } else if let Some(rest) =
                trimmed.strip_prefix("pub fn ").or_else(|| trimmed.strip_prefix("pub(crate) fn "))
            {
                if let Some(a) = anchor.take() {
                    let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    out.push((name, a));
                }
            } else if !trimmed.starts_with("///") && !trimmed.starts_with("#[") {
                anchor = None;
            }
        }
    }
    out
}

#[test]
fn spec_coverage_map_matches_the_code_and_the_corpus() {
    let cites = corpus_cites();
    let path = workspace_root().join("docs/spec-coverage.md");
    let text = std::fs::read_to_string(&path).expect("docs/spec-coverage.md");
    let sections = parse_doc(&text).unwrap_or_else(|e| panic!("docs/spec-coverage.md:{e}"));
    assert!(sections.len() >= 13, "docs/spec-coverage.md has {} sections, expected 13 or more", sections.len());
    let all: BTreeSet<&String> = cites.values().flatten().collect();
    let fns = functions();
    let mut errors = Vec::new();
    let at = |row: &Row| format!("docs/spec-coverage.md:{}", row.line);

    for section in &sections {
        let algo = &section.algorithm;
        // (c) The functions the doc names exist.
        let named: BTreeSet<&String> =
            std::iter::once(&section.function).chain(section.rows.iter().flat_map(|r| &r.functions)).collect();
        for f in &named {
            if !fns.contains_key(*f) {
                errors.push(format!("{algo}: function `{f}` is not in crates/webmcp/src/{ALGORITHM_SOURCES:?}"));
            }
        }
        // (d) Every `// Step N.` comment of those functions has a row.
        let steps: BTreeSet<&str> = section.rows.iter().map(|r| r.step.as_str()).collect();
        for f in &named {
            let Some((file, body)) = fns.get(*f) else { continue };
            for step in step_comments(body) {
                if !steps.contains(step.as_str()) {
                    errors.push(format!("{algo}: `// Step {step}.` of `{f}` ({file}) has no row"));
                }
            }
        }
        for row in &section.rows {
            if row.functions.is_empty() {
                errors.push(format!("{}: {algo} {}: no Rust function named", at(row), row.step));
            }
            match &row.status {
                // (a) A reached step is cited by every scenario named for it.
                Status::Reached { evidence } => {
                    if row.scenarios.is_empty() {
                        errors.push(format!("{}: {algo} {} is reached but names no scenario", at(row), row.step));
                    }
                    for s in &row.scenarios {
                        match cites.get(s) {
                            None => errors.push(format!("{}: no scenario scenarios/{s}", at(row))),
                            Some(c) if !c.contains(evidence) => errors.push(format!(
                                "{}: {algo} {}: scenarios/{s} never cites `{evidence}`",
                                at(row),
                                row.step
                            )),
                            Some(_) => {}
                        }
                    }
                    let others =
                        cites.iter().filter(|(name, c)| !row.scenarios.contains(name) && c.contains(evidence)).count();
                    if others < row.more {
                        errors.push(format!(
                            "{}: {algo} {}: says {} more scenarios cite `{evidence}`, but {others} do",
                            at(row),
                            row.step,
                            row.more
                        ));
                    }
                }
                // (b) An unreachable or unmodelled step is cited nowhere.
                Status::Unreachable | Status::NotModelled => {
                    let own = format!("{algo} {}", row.step);
                    if all.contains(&own) {
                        let by: Vec<&String> = cites.iter().filter(|(_, c)| c.contains(&own)).map(|(n, _)| n).collect();
                        errors.push(format!(
                            "{}: `{own}` is marked unreachable or not modelled, but {by:?} cite it",
                            at(row)
                        ));
                    }
                }
            }
        }
    }
    // (c) Every `pub fn` that links a spec anchor has a section.
    for (f, anchor) in anchored_functions() {
        if !sections.iter().any(|s| s.function == f) {
            errors.push(format!("`{f}` ({anchor}) has no `### … — `{f}`` section"));
        }
    }
    // The totals at the top are the table's.
    let reached = sections.iter().flat_map(|s| &s.rows).filter(|r| matches!(r.status, Status::Reached { .. })).count();
    let unreachable = sections.iter().flat_map(|s| &s.rows).filter(|r| matches!(r.status, Status::Unreachable)).count();
    let not_modelled =
        sections.iter().flat_map(|s| &s.rows).filter(|r| matches!(r.status, Status::NotModelled)).count();
    let total = reached + unreachable + not_modelled;
    let totals = format!("{total} steps: {reached} reached, {unreachable} unreachable, {not_modelled} not modelled.");
    if !text.contains(&totals) {
        errors.push(format!("the totals line should read: {totals}"));
    }
    assert!(errors.is_empty(), "docs/spec-coverage.md is out of date:\n{}", errors.join("\n"));
}

/// The expected outcome set of a scenario file, from its `expect.outcomes`.
fn expected_outcomes(file: &Path) -> (webmcp::Program, BTreeSet<String>) {
    let program = load_program(file).unwrap_or_else(|e| panic!("{e}"));
    let expected = program
        .expect
        .as_ref()
        .and_then(|e| e.outcomes.clone())
        .unwrap_or_else(|| panic!("{}: no `expect.outcomes`", file.display()));
    (program, expected.into_iter().collect())
}

/// Every race, lifecycle and spec-example scenario over seeds `0..OUTCOME_SEEDS`: each outcome is
/// in the file's `expect.outcomes` (none the spec forbids), and the seeds show every one of them.
/// `webmcp-sim check scenarios/` covers every schedule exhaustively; this shows that plain
/// seeded runs, which is what a user runs, reach the whole set too.
#[test]
fn seeded_runs_stay_inside_the_expected_outcomes() {
    let root = workspace_root().join("scenarios");
    let mut files = Vec::new();
    for dir in ["races", "lifecycle", "spec"] {
        files.extend(cli::scenario_files(&root.join(dir)).unwrap());
    }
    assert!(files.len() >= 10, "the race corpus is missing");
    let mut forbidden = Vec::new();
    let mut need_more_seeds = Vec::new();
    for file in &files {
        let name = file.strip_prefix(&root).unwrap().display().to_string();
        let (program, expected) = expected_outcomes(file);
        let threads = 2;
        let results: Vec<BTreeMap<String, u64>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let program = &program;
                    s.spawn(move || {
                        let mut seen: BTreeMap<String, u64> = BTreeMap::new();
                        for seed in (t..OUTCOME_SEEDS).step_by(threads as usize) {
                            let trace = webmcp::run(program, &mut RandomChooser::new(seed), Limits::default()).unwrap();
                            seen.entry(trace.outcome.canonical().summary()).or_insert(seed);
                        }
                        seen
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut seen: BTreeMap<String, u64> = BTreeMap::new();
        for part in results {
            for (summary, seed) in part {
                let first = seen.entry(summary).or_insert(seed);
                *first = (*first).min(seed);
            }
        }
        for (summary, seed) in &seen {
            if !expected.contains(summary) {
                forbidden.push(format!("{name}: seed {seed} gives an outcome not in expect.outcomes:\n  {summary}"));
            }
        }
        // With `--nocapture`: how many seeds each file needs to show its whole outcome set.
        let last_new = seen.values().max().copied().unwrap_or(0);
        eprintln!(
            "{name}: {} of {} expected outcomes, the last first seen at seed {last_new}",
            seen.len(),
            expected.len()
        );
        let missing: Vec<&String> = expected.iter().filter(|e| !seen.contains_key(*e)).collect();
        if !missing.is_empty() {
            need_more_seeds.push(format!(
                "{name}: seeds 0..{OUTCOME_SEEDS} never show {} expected outcome(s):\n  {}",
                missing.len(),
                missing.iter().map(|m| m.as_str()).collect::<Vec<_>>().join("\n  ")
            ));
        }
    }
    assert!(forbidden.is_empty(), "outcomes the expectations forbid:\n{}", forbidden.join("\n"));
    assert!(need_more_seeds.is_empty(), "files that need more seeds:\n{}", need_more_seeds.join("\n"));
}

/// Every `webmcp-sim replay FILE --schedule '…'` command in `docs/findings.md` replays (the
/// schedule fits the scenario and is used up), and every line of the `text` excerpt after it is a
/// line of that trace (leading and trailing spaces aside).
#[test]
fn findings_commands_reproduce_their_excerpts() {
    let text = std::fs::read_to_string(workspace_root().join("docs/findings.md")).expect("docs/findings.md");
    let mut errors = Vec::new();
    let mut checked = 0;
    let mut fence: Option<String> = None;
    let mut command: Option<(usize, String)> = None;
    let mut trace_lines: BTreeSet<String> = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if let Some(lang) = line.strip_prefix("```") {
            fence = if fence.is_some() { None } else { Some(lang.to_string()) };
            continue;
        }
        match fence.as_deref() {
            Some("sh") => {
                let Some(rest) = line.trim().strip_prefix("webmcp-sim replay ") else { continue };
                let Some((file, schedule)) = rest.split_once(" --schedule ") else {
                    errors.push(format!("docs/findings.md:{n}: write `webmcp-sim replay FILE --schedule '…'`"));
                    continue;
                };
                let schedule = schedule.trim().trim_matches('\'');
                // `FILE --variant NAME …`: the variants the replay applies, as the command line does.
                let mut words = file.split_whitespace();
                let file = words.next().unwrap_or_default();
                let mut changes = Vec::new();
                while let Some(word) = words.next() {
                    match (word, words.next().map(str::parse::<scenario::Variant>)) {
                        ("--variant", Some(Ok(variant))) => changes.push(cli::options::Change::AddVariant(variant)),
                        _ => errors.push(format!("docs/findings.md:{n}: only `--variant NAME` may follow the file")),
                    }
                }
                let program = match cli::load(&workspace_root().join(file), &changes).map(|loaded| loaded.program) {
                    Ok(p) => p,
                    Err(e) => {
                        errors.push(format!("docs/findings.md:{n}: {e}"));
                        continue;
                    }
                };
                let parsed = Schedule::parse(schedule).unwrap_or_else(|e| panic!("docs/findings.md:{n}: {e}"));
                let mut chooser = ReplayChooser::new(&parsed);
                match webmcp::run(&program, &mut chooser, Limits::default()) {
                    Ok(trace) if chooser.remaining() == 0 => {
                        trace_lines = trace.render_text().lines().map(|l| l.trim().to_string()).collect();
                        command = Some((n, rest.to_string()));
                        checked += 1;
                    }
                    Ok(_) => errors.push(format!("docs/findings.md:{n}: {file}: the schedule has unused choices")),
                    Err(e) => errors.push(format!("docs/findings.md:{n}: {file}: the schedule does not replay: {e}")),
                }
            }
            Some("text") => {
                let Some((at, cmd)) = &command else {
                    errors.push(format!("docs/findings.md:{n}: an excerpt with no replay command before it"));
                    continue;
                };
                if !line.trim().is_empty() && !trace_lines.contains(line.trim()) {
                    errors.push(format!(
                        "docs/findings.md:{n}: not in the trace of `{cmd}` (line {at}):\n  {}",
                        line.trim()
                    ));
                }
            }
            _ => {}
        }
    }
    assert!(checked >= 9, "docs/findings.md has only {checked} replay commands");
    assert!(errors.is_empty(), "docs/findings.md does not reproduce:\n{}", errors.join("\n"));
}
