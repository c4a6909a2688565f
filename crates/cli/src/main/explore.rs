//! The commands that explore every schedule: `explore` (and `merge`, which joins its shards),
//! `audit` and `bench-explore`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cli::options::SpecArgs;
use cli::CliError;
use trace::escape::terminal;

use crate::args::{out, shown, Bounds, FormatArg};

/// `explore`: the scenario, or each scenario under a folder, explored and reported; exit 130
/// when Ctrl-C cut a search short (after its partial report).
pub fn explore(
    path: &Path,
    bounds: &Bounds,
    format: FormatArg,
    show: &[usize],
    spec: &SpecArgs,
) -> Result<ExitCode, CliError> {
    let options = bounds.options()?;
    let changes = spec.changes().map_err(CliError::input)?;
    if options.search.shard.1 > 1 && matches!(format, FormatArg::Markdown) {
        // The Markdown issue states the expectations' verdicts, which one shard cannot decide.
        return Err(shard_cannot_decide("explore --format markdown", path, &bounds.shard));
    }
    if path.is_dir() && matches!(format, FormatArg::Json) {
        return Err(CliError::input(format!(
            "{}: a folder; `explore --format json` writes one exploration, for one scenario file",
            shown(path)
        ))
        .hint("explore each file of the folder on its own, or check them all with `check FOLDER`"));
    }
    let files = cli::scenario_paths(&[path.to_path_buf()])?;
    for (i, file) in files.iter().enumerate() {
        if i > 0 {
            out("\n")?;
        }
        explore_one(file, bounds, &options, &changes, format, show)?;
        if cli::interrupted() {
            eprintln!("interrupted: the report above is partial");
            return Ok(ExitCode::from(130));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Explores one scenario file (or samples its schedules, `--sample`) and prints the report.
fn explore_one(
    path: &Path,
    bounds: &Bounds,
    options: &webmcp::ExploreOptions,
    changes: &[cli::options::Change],
    format: FormatArg,
    show: &[usize],
) -> Result<(), CliError> {
    let loaded = cli::load(path, changes)?;
    let program = &loaded.program;
    let started = std::time::Instant::now();
    let result = match bounds.sample {
        Some(runs) => {
            // `--time-limit` and Ctrl-C cut the sampling as they cut a search.
            let stop = webmcp::sample::SampleStop {
                time_limit: options.search.time_limit,
                interrupt: options.search.interrupt.clone(),
            };
            webmcp::sample::sample_pct_until(
                program,
                runs,
                bounds.seed,
                usize::from(bounds.pct_depth),
                bounds.max_units,
                &stop,
            )
        }
        None => cli::with_progress(
            options.clone(),
            |options, probes| webmcp::explore::estimate_tree(program, options, probes).ok().map(|e| e.choice_points),
            |options| webmcp::explore(program, options),
        ),
    };
    // Wall-clock time on stderr: the report itself stays byte-identical across machines.
    eprintln!("elapsed: {:.2} s", started.elapsed().as_secs_f64());
    let mut ex = result.map_err(|e| CliError::failed(format!("{}: {e}", shown(path))))?;
    ex.file = path.display().to_string();
    cli::mark_shard(&mut ex, path).map_err(CliError::input)?;
    if bounds.sample.is_none() {
        note_stateless_classes(program, options, &ex);
    }
    match format {
        FormatArg::Text => out(&ex.render_text_with(&ex.file, &loaded.flags))?,
        FormatArg::Json => out(&ex.render_json())?,
        FormatArg::Markdown => {
            let verdicts = cli::verdicts(path, program, changes, &ex, options);
            out(&issue_markdown(&loaded, &ex, path, &verdicts, show, trace::known::shipped())?)?;
        }
    }
    Ok(())
}

/// After a stateless search that a bound stopped (not Ctrl-C), on a scenario in the action
/// language: how many executions a complete one would need, on stderr (the report stays as it
/// is). The count is `count_traces`'s: the complete leaves of the sleep-set tree under the
/// stateless search's footprints, counted once per (state, sleep set) pair, within
/// `--time-limit` and the larger of `--max-states` and 2,000,000 pairs; a count a bound stopped
/// is said to be a lower bound. The stateless search runs about one execution per leaf
/// (docs/model.md, "Where it is not optimal, counted").
fn note_stateless_classes(program: &webmcp::Program, options: &webmcp::ExploreOptions, ex: &trace::Exploration) {
    let Some(ran) = ex.stateless else { return };
    if ex.complete || cli::interrupted() || program.has_page_scripts() || options.search.shard.1 > 1 {
        return;
    }
    let mut counting = options.clone();
    counting.search.max_states = counting.search.max_states.max(webmcp::SearchOptions::default().max_states);
    let Ok(traces) = webmcp::explore::count_traces(program, &counting) else { return };
    let (at_least, stopped) = match &traces.bound {
        Some(bound) if !traces.finished => ("at least ", format!("; the count stopped at {bound}")),
        _ => ("", String::new()),
    };
    eprintln!(
        "note: the stateless search stopped after {} executions. A complete one runs about one execution per complete leaf of the sleep-set tree under its footprints, and this scenario's tree has {at_least}{} of them (counted over {} (state, sleep set) pairs{stopped}).",
        ran.executions, traces.complete, traces.pairs
    );
    eprintln!(
        "hint: where that is far more than a run can reach, the stateful search (`--search stateful`) explores the scenario's states instead"
    );
}

/// The issue-sized Markdown of an exploration; an `--outcome` the exploration does not have is
/// bad input.
fn issue_markdown(
    loaded: &cli::Loaded,
    ex: &trace::Exploration,
    path: &Path,
    verdicts: &[webmcp::expect::Verdict],
    show: &[usize],
    known: &trace::known::Known,
) -> Result<String, CliError> {
    cli::report::render_exploration_issue(loaded, ex, path, verdicts, show, known).map_err(|e| {
        if e.starts_with("--outcome") {
            CliError::input(format!("{}: {e}", shown(path)))
        } else {
            CliError::failed(format!("{}: {e}", shown(path)))
        }
    })
}

/// `check FILE --format markdown`: the scenario explored, its expectations checked, and the
/// issue-sized Markdown printed; exit 1 on a violated or undecided expectation, as `check`.
pub fn check_markdown(
    path: &Path,
    bounds: &Bounds,
    show: &[usize],
    known: &trace::known::Known,
    spec: &SpecArgs,
) -> Result<ExitCode, CliError> {
    if path.is_dir() {
        return Err(CliError::input(format!(
            "{}: a folder; `check --format markdown` writes one issue, for one scenario file",
            shown(path)
        ))
        .hint("check the folder as text, then `check FILE --format markdown` the scenario to report"));
    }
    let options = bounds.options()?;
    let changes = spec.changes().map_err(CliError::input)?;
    let loaded = cli::load(path, &changes)?;
    let mut ex =
        webmcp::explore(&loaded.program, &options).map_err(|e| CliError::failed(format!("{}: {e}", shown(path))))?;
    ex.file = path.display().to_string();
    let verdicts = cli::verdicts(path, &loaded.program, &changes, &ex, &options);
    out(&issue_markdown(&loaded, &ex, path, &verdicts, show, known)?)?;
    if cli::interrupted() {
        eprintln!("interrupted: the report above is partial");
        return Ok(ExitCode::from(130));
    }
    let settled = verdicts.iter().all(|v| v.status == webmcp::expect::Status::Holds);
    Ok(ExitCode::from(u8::from(!settled)))
}

/// The refusal of a command that would decide expectations from one shard of N > 1: a shard
/// sees only its own work items, so an outcome that violates an expectation may lie in another.
pub fn shard_cannot_decide(command: &str, path: &Path, shard: &str) -> CliError {
    let n = shard.split_once('/').map_or("N", |(_, n)| n);
    CliError::input(format!(
        "{}: `{command} --shard {}` would decide expectations from one shard, which sees only part of the schedules",
        shown(path),
        terminal(shard)
    ))
    .hint(format!(
        "explore each shard with `explore {} --shard K/{n} --format json > part-K.json` (K = 1..{n}), then decide over all of them with `merge --check part-*.json`",
        shown(path),
        n = terminal(n)
    ))
}

/// `merge`: the JSON parts of a sharded exploration, joined into one report; with `check`, the
/// scenario's expectations decided over all the parts (exit 1 on a violated or undecided one).
pub fn merge(
    parts: &[PathBuf],
    format: FormatArg,
    scenario: Option<PathBuf>,
    check: bool,
) -> Result<ExitCode, CliError> {
    if check && !matches!(format, FormatArg::Text) {
        return Err(CliError::input("`merge --check` prints text; drop `--format` or `--check`"));
    }
    let (mut ex, digest) = cli::merge_files_keeping_digest(parts).map_err(CliError::input)?;
    if let Some(file) = scenario {
        ex.file = file.display().to_string();
    }
    match format {
        FormatArg::Text => {
            if ex.file.is_empty() {
                return Err(CliError::input(
                    "the parts do not name their scenario file (written before `explore` recorded it)",
                )
                .hint("name it with `merge --scenario FILE …`, so the replay commands run"));
            }
            if check {
                // Decided before anything is printed, so a wrong file prints only the error.
                let verdicts = cli::check_merged(&ex, Path::new(&ex.file), digest.as_deref(), parts.len())?;
                out(&ex.render_text(&ex.file))?;
                out(&verdicts.text)?;
                return Ok(ExitCode::from(verdicts.exit_code));
            }
            out(&ex.render_text(&ex.file))?;
        }
        FormatArg::Json => out(&ex.render_json())?,
        FormatArg::Markdown => {
            return Err(CliError::input("merge prints text or json; for Markdown, explore the scenario itself"));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `audit`: the independence relation checked at every choice point of each scenario; exit 1 on
/// a violation.
pub fn audit(paths: &[PathBuf], max_states: u64, max_units: usize) -> Result<ExitCode, CliError> {
    let mut violated = false;
    for scenario in cli::scenario_paths(paths)? {
        let program = cli::load_program(&scenario)?;
        let audit = webmcp::audit::audit_independence(&program, max_states, max_units)
            .map_err(|e| CliError::failed(format!("{}: {e}", shown(&scenario))))?;
        let status = if audit.complete { "complete" } else { "incomplete (a bound stopped it)" };
        out(&format!(
            "{}: choice points {}, pairs taken to commute {}, violations {}; {status}\n",
            shown(&scenario),
            audit.states,
            audit.pairs,
            audit.violations.len()
        ))?;
        for v in &audit.violations {
            violated = true;
            out(&format!("  {}\n", terminal(&v.to_string())))?;
        }
    }
    Ok(ExitCode::from(u8::from(violated)))
}

/// `bench-explore`: exploration speed and reduction for each scenario, then the peak memory.
pub fn bench_explore(
    paths: &[PathBuf],
    naive_max_states: u64,
    stateless_max_executions: u64,
    stateless_time_limit: f64,
) -> Result<ExitCode, CliError> {
    if !(stateless_time_limit.is_finite() && stateless_time_limit > 0.0 && stateless_time_limit <= 86_400.0) {
        return Err(CliError::input(format!(
            "--stateless-time-limit {stateless_time_limit}: give a number of seconds above 0 and at most 86400"
        )));
    }
    let stateless = (stateless_max_executions > 0)
        .then(|| (stateless_max_executions, std::time::Duration::from_secs_f64(stateless_time_limit)));
    for scenario in cli::scenario_paths(paths)? {
        let program = cli::load_program(&scenario)?;
        let report = cli::bench_explore(&program, naive_max_states, stateless)
            .map_err(|e| CliError::failed(format!("{}: {e}", shown(&scenario))))?;
        out(&format!("{report}\n"))?;
        if cli::interrupted() {
            out(&format!("peak resident memory: {}\n", cli::peak_memory()))?;
            eprintln!("interrupted: the measurements above are partial (Ctrl-C stopped a search)");
            return Ok(ExitCode::from(130));
        }
    }
    out(&format!("peak resident memory: {}\n", cli::peak_memory()))?;
    Ok(ExitCode::SUCCESS)
}
