//! `webmcp-sim wpt PATH…` (issue 29): each WPT test file (`.html`, `.window.js`, `.any.js`) run
//! under every schedule the spec allows (the stateless search, as for any JavaScript page), and
//! for each subtest its verdict across all of them: PASS, FAIL, SCHEDULE-DEPENDENT (with a
//! witness schedule per result), TIMEOUT, NOTRUN, ERROR, UNSUPPORTED (the member named) or
//! INCOMPLETE (a budget cut the search). `page` reads a file into a scenario, `verdict` decides,
//! `render` prints the table, the JSON and the wptreport. docs/wpt.md is the user's guide.

pub mod chromium;
pub mod compare;
pub mod page;
pub mod render;
pub mod serve;
pub mod verdict;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use serde::Serialize;

use crate::options::SpecArgs;
use crate::CliError;
use verdict::{Explored, SubtestVerdict};

pub use page::is_test_file;

/// The JSON report's schema version (2: each file's `chromium` column and differences, with
/// `--chromium`).
pub const VERSION: u32 = 2;

/// `webmcp-sim wpt`'s arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// WPT test files (`.html`, `.htm`, `.window.js`, `.any.js`), or folders: every test file
    /// under them, in sorted order (files under `resources/` folders are not tests).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The WPT checkout absolute URLs (`/resources/…`, `/common/…`) resolve against. Default:
    /// the nearest folder above each file holding `resources/testharness.js`, else the file's
    /// folder.
    #[arg(long, value_name = "DIR")]
    pub wpt_root: Option<PathBuf>,
    /// Output format: `text` (a table per file and a summary), `json` (this report, versioned),
    /// `wptreport` (the JSON `wpt run --log-wptreport` writes, read by wpt.fyi).
    #[arg(long, value_enum, default_value = "text")]
    pub format: WptFormat,
    /// Choice points each file's search may visit before it stops (its verdicts then say
    /// INCOMPLETE where they could change).
    #[arg(long, default_value_t = 200_000)]
    pub max_states: u64,
    /// Schedules (executions) each file's search may run before it stops (docs/wpt.md,
    /// "Budgets": about 3 ms each in a `quick` build).
    #[arg(long, default_value_t = 5_000)]
    pub max_executions: u64,
    /// Units along one schedule before that branch stops.
    #[arg(long, default_value_t = 20_000)]
    pub max_units: usize,
    /// Choices along one schedule before that branch stops.
    #[arg(long, default_value_t = 2_000)]
    pub max_depth: usize,
    /// Wall-clock limit in seconds per file (the only bound whose effect depends on the machine).
    #[arg(long)]
    pub time_limit: Option<f64>,
    #[command(flatten)]
    pub spec: SpecArgs,
    /// Also run each file in real headless Chromium (WebMCP on) with WPT's real testharness.js,
    /// and print, per subtest, the spec's verdict beside Chromium's results and Chromium's
    /// expectation file (`NAME-expected.txt` beside the test), then the differences (docs/wpt.md).
    #[arg(long)]
    pub chromium: bool,
    /// Chromium runs per file (with --chromium), each in a fresh browser context.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub runs: u32,
    /// The Chromium binary (with --chromium; Debian's package installs /usr/bin/chromium).
    #[arg(long, value_name = "PATH", default_value = "/usr/bin/chromium")]
    pub chromium_binary: PathBuf,
    /// The driver's folder (with --chromium): its `wpt.mjs` and `node_modules` (the npm package
    /// wpt-runner ships WPT's testharness.js). Default: the workspace's tools/chromium-driver.
    #[arg(long, value_name = "DIR")]
    pub driver_dir: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum WptFormat {
    /// A table per file, then the counts and the unmodelled members.
    Text,
    /// Every verdict with its witnesses (`"version": 1`).
    Json,
    /// The JSON `wpt run --log-wptreport` writes (wpt.fyi reads it).
    Wptreport,
}

/// One file's verdicts.
#[derive(Clone, Debug, Serialize)]
pub struct FileReport {
    /// The file as given.
    pub file: String,
    /// Its URL in the simulated browser.
    pub url: String,
    pub harness: SubtestVerdict,
    pub subtests: Vec<SubtestVerdict>,
    /// Whether every schedule was explored.
    pub complete: bool,
    pub bounds_hit: Vec<String>,
    /// How the witnesses were chosen (`explore`'s `witnesses:` line): for JavaScript pages, the
    /// shortest the search met.
    pub witnesses: String,
    /// Distinct outcomes and schedules run.
    pub outcomes: usize,
    pub executions: u64,
    /// What the runner could not give the page (scripts that did not load, iframes).
    pub notes: Vec<String>,
    /// The flags that reproduce the spec reading on a replay command line (`--variant …`).
    pub flags: String,
    /// A file that did not load or explore: why (its verdicts are then empty).
    pub error: Option<String>,
    /// With `--chromium`: Chromium's results beside the spec's verdicts, and the differences.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chromium: Option<chromium::ChromiumFile>,
}

/// The whole run.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub version: u32,
    /// The spec reading: `parallel=… variants=…` as explore prints it.
    pub options: Vec<String>,
    pub files: Vec<FileReport>,
}

/// The test files `paths` name: files as given, folders walked (sorted; `resources` and
/// `support` folders skipped, as WPT's manifest does).
pub fn test_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            let mut stack = vec![path.clone()];
            let mut walked = std::collections::BTreeSet::new();
            while let Some(dir) = stack.pop() {
                let canonical = std::fs::canonicalize(&dir).map_err(|e| io_error(&dir, e))?;
                if !walked.insert(canonical) {
                    continue;
                }
                for entry in std::fs::read_dir(&dir).map_err(|e| io_error(&dir, e))? {
                    let p = entry.map_err(|e| io_error(&dir, e))?.path();
                    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    if p.is_dir() {
                        if !matches!(name, "resources" | "support" | "tools") && !name.starts_with('.') {
                            stack.push(p);
                        }
                    } else if is_test_file(&p) && !name.contains("-expected") {
                        found.push(p);
                    }
                }
            }
            if found.is_empty() {
                return Err(CliError::input(format!(
                    "{}: no WPT test file (.html, .window.js, .any.js) under this folder",
                    shown(path)
                )));
            }
            found.sort();
            out.extend(found);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

fn io_error(path: &Path, e: std::io::Error) -> CliError {
    CliError::input(format!("{}: {e}", shown(path)))
}

fn shown(path: &Path) -> String {
    trace::escape::terminal(&path.display().to_string())
}

/// Runs one file under every schedule and decides its verdicts. A file that does not load is an
/// `Err` (bad input); a run that fails is a report with `error` set.
pub fn run_file(path: &Path, args: &Args) -> Result<FileReport, CliError> {
    let page = page::load(path, args.wpt_root.as_deref())?;
    let changes = args.spec.changes().map_err(CliError::input)?;
    let mut scenario = page.scenario.clone();
    let file_options = scenario.options.clone();
    scenario.options = crate::options::apply(&file_options, &changes).map_err(CliError::input)?;
    let flags = crate::options::flags(&file_options, &scenario.options);
    js::link();
    let program = webmcp::compile(&scenario).map_err(|e| CliError::input(format!("{}: {e}", shown(path))))?;
    let options = webmcp::ExploreOptions {
        search: webmcp::SearchOptions {
            max_states: args.max_states,
            max_depth: args.max_depth,
            max_units: args.max_units,
            max_executions: args.max_executions,
            time_limit: args.time_limit.map(crate::parse_time_limit).transpose().map_err(CliError::input)?,
            split_depth: 0,
            jobs: 1,
            ..Default::default()
        },
        kind: webmcp::SearchKind::Stateless,
        kind_given: true,
        ..Default::default()
    };
    let mut report = FileReport {
        file: path.display().to_string(),
        url: page.url.clone(),
        harness: SubtestVerdict {
            name: "(harness)".into(),
            verdict: verdict::Verdict::Error,
            message: None,
            witnesses: vec![],
            race: None,
        },
        subtests: Vec::new(),
        complete: false,
        bounds_hit: Vec::new(),
        witnesses: String::new(),
        outcomes: 0,
        executions: 0,
        notes: page.notes.clone(),
        flags,
        error: None,
        chromium: None,
    };
    let exploration = match webmcp::explore(&program, &options) {
        Ok(exploration) => exploration,
        Err(e) => {
            report.error = Some(e.to_string());
            report.harness.message = Some(e.to_string());
            return Ok(report);
        }
    };
    let explored = Explored {
        runs: exploration
            .outcomes
            .iter()
            .map(|o| (verdict::results_of(&o.outcome), o.witness.clone(), o.witness_choices))
            .collect(),
        complete: exploration.complete,
        bounds_hit: exploration.bounds_hit.clone(),
    };
    let (mut harness, mut subtests) = verdict::verdicts(&explored);
    for s in std::iter::once(&mut harness).chain(subtests.iter_mut()) {
        if let (verdict::Verdict::ScheduleDependent, [first, second, ..]) = (s.verdict, s.witnesses.as_slice()) {
            s.race = verdict::race(&program, first, second);
        }
    }
    for s in std::iter::once(&mut harness).chain(subtests.iter_mut()) {
        let at = |m: &mut Option<String>| {
            if let Some(text) = m {
                *text = page::locate(&page.pieces, text);
            }
        };
        at(&mut s.message);
        for w in &mut s.witnesses {
            at(&mut w.message);
        }
    }
    report.harness = harness;
    report.subtests = subtests;
    report.complete = exploration.complete;
    report.bounds_hit = exploration.bounds_hit;
    report.witnesses = exploration.witnesses;
    report.outcomes = exploration.outcomes.len();
    report.executions = exploration.stateless.map_or(0, |e| e.executions);
    Ok(report)
}

/// `webmcp-sim wpt`: exit 0 when every file loaded and explored (whatever its verdicts: they are
/// the answer, not a failure), 1 when a file's exploration failed, 2 on bad input.
pub fn command(args: &Args) -> Result<ExitCode, CliError> {
    let files = test_files(&args.paths)?;
    let changes = args.spec.changes().map_err(CliError::input)?;
    let options = crate::options::apply(&scenario::Options::default(), &changes).map_err(CliError::input)?;
    let mut report = Report { version: VERSION, options: vec![crate::options::describe(&options)], files: Vec::new() };
    let started = Instant::now();
    let browser = if args.chromium { Some(chromium_options(args)?) } else { None };
    for file in &files {
        if args.format == WptFormat::Text {
            eprintln!("wpt: {}", shown(file));
        }
        let mut file_report = run_file(file, args)?;
        if let Some(opts) = &browser {
            let spec_done = started.elapsed();
            file_report.chromium = Some(chromium::run(file, args.wpt_root.as_deref(), &file_report, opts)?);
            eprintln!(
                "wpt: {}: Chromium {} run(s) in {:.1} s",
                shown(file),
                opts.runs,
                (started.elapsed() - spec_done).as_secs_f64()
            );
        }
        report.files.push(file_report);
    }
    let text = match args.format {
        WptFormat::Text => render::text(&report),
        WptFormat::Json => serde_json::to_string_pretty(&report).expect("the report serializes") + "\n",
        WptFormat::Wptreport => render::wptreport(&report),
    };
    print!("{text}");
    if args.format == WptFormat::Text {
        // The time goes to stderr: stdout stays byte-identical from run to run.
        eprintln!("wpt: {} files in {:.1} s", files.len(), started.elapsed().as_secs_f64());
    }
    let failed = report.files.iter().any(|f| f.error.is_some());
    Ok(ExitCode::from(u8::from(failed)))
}

/// The Chromium options of `--chromium`: the binary exists, and testharness.js is found.
fn chromium_options(args: &Args) -> Result<chromium::Options, CliError> {
    if !args.chromium_binary.exists() {
        return Err(CliError::input(format!("{} does not exist", shown(&args.chromium_binary)))
            .hint("install Chromium with `apt-get install chromium`, or pass --chromium-binary PATH"));
    }
    let driver_dir = args.driver_dir.clone().unwrap_or_else(chromium::default_driver_dir);
    let harness = serve::harness(&driver_dir, args.wpt_root.as_deref())?;
    Ok(chromium::Options { runs: args.runs, binary: args.chromium_binary.clone(), driver_dir, harness })
}

/// Compares reports with expected verdicts, one per line: `FILE | SUBTEST | VERDICT` (`FILE`
/// relative to the expectations' folder, `(harness)` for the harness status; `#` starts a
/// comment). Every subtest must be listed and reach its verdict, and every listed one must
/// exist: the differences, one line each (none: all met).
pub fn compare_expected(reports: &[FileReport], expected: &str, base: &Path) -> Vec<String> {
    let mut listed: std::collections::BTreeMap<(String, String), (String, usize)> = std::collections::BTreeMap::new();
    let mut problems = Vec::new();
    for (i, line) in expected.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (Some((file, rest)), Some((_, verdict))) = (line.split_once(" | "), line.rsplit_once(" | ")) else {
            problems.push(format!("line {}: not `FILE | SUBTEST | VERDICT`: {line}", i + 1));
            continue;
        };
        let subtest = rest.rsplit_once(" | ").map_or("", |(s, _)| s);
        listed.insert((file.to_string(), subtest.to_string()), (verdict.to_string(), i + 1));
    }
    for report in reports {
        let path = Path::new(&report.file);
        let file = path.strip_prefix(base).unwrap_or(path).display().to_string();
        if let Some(e) = &report.error {
            problems.push(format!("{file}: did not explore: {e}"));
        }
        for s in std::iter::once(&report.harness).chain(&report.subtests) {
            let got = s.verdict.label();
            match listed.remove(&(file.clone(), s.name.clone())) {
                Some((want, _)) if want == got => {}
                Some((want, line)) => problems.push(format!(
                    "{file} | {} : expected {want} (line {line}), got {got}{}",
                    s.name,
                    s.message.as_deref().map(|m| format!(": {m}")).unwrap_or_default()
                )),
                None => problems.push(format!("{file} | {} | {got} : not listed", s.name)),
            }
        }
    }
    for ((file, subtest), (verdict, line)) in listed {
        problems.push(format!("{file} | {subtest} | {verdict} (line {line}): no such subtest was reported"));
    }
    problems
}
