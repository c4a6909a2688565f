//! The commands that run a scenario once per seed or schedule: `run`, `replay`, `report` and
//! `bench`.

use std::path::Path;
use std::process::ExitCode;

use cli::options::Change;
use cli::{CliError, Driver, Format};
use trace::escape::terminal;

use crate::args::{out, shown, ReportFormatArg, RunFormatArg};

/// The hint of a replayed schedule that does not fit its scenario.
const REPLAY_HINT: &str = "replay the `schedule:` line that a run of this same scenario printed";

/// `replay`: the schedule parsed, then run as `run` does; `complete` completes a prefix.
pub fn replay(
    path: &Path,
    changes: &[Change],
    schedule: &str,
    complete: bool,
    format: RunFormatArg,
    limits: RunLimits,
) -> Result<ExitCode, CliError> {
    let schedule = sched::Schedule::parse(schedule)
        .map_err(|e| CliError::input(format!("--schedule: {}", terminal(&e.to_string()))).hint(REPLAY_HINT))?;
    let driver = if complete { Driver::Prefix(schedule) } else { Driver::Replay(schedule) };
    run(path, changes, driver, format, limits)
}

/// The bounds of one run: `--max-units` and `--time-limit` (seconds, checked at each choice).
#[derive(Clone, Copy, clap::Args)]
pub struct RunLimits {
    /// Stop after this many units (a run that hits it says so).
    #[arg(long, default_value_t = 10_000)]
    pub max_units: usize,
    /// Wall-clock limit in seconds, checked at each choice: a run still choosing then is an
    /// error that says so (exit 1).
    #[arg(long)]
    pub time_limit: Option<f64>,
}

impl RunLimits {
    fn time_limit(&self) -> Result<Option<std::time::Duration>, CliError> {
        self.time_limit.map(cli::parse_time_limit).transpose().map_err(CliError::input)
    }
}

/// `run` (and `replay`): one run, in the format asked for.
pub fn run(
    path: &Path,
    changes: &[Change],
    driver: Driver,
    format: RunFormatArg,
    limits: RunLimits,
) -> Result<ExitCode, CliError> {
    let time_limit = limits.time_limit()?;
    let max_units = limits.max_units;
    let format = match format {
        RunFormatArg::Text => Format::Text,
        RunFormatArg::Json => Format::Json,
        RunFormatArg::Markdown => return one_view(path, changes, &driver, cli::report::View::Markdown, limits),
        RunFormatArg::Perfetto => return one_view(path, changes, &driver, cli::report::View::Perfetto, limits),
    };
    let loaded = cli::load(path, changes)?;
    let trace = cli::report::run_trace_until(&loaded.program, &driver, max_units, time_limit)
        .map_err(|e| run_failed(path, &e, &driver))?;
    let text = match format {
        Format::Text => trace.render_text(),
        Format::Json => trace.render_json(),
    };
    out(&text)?;
    if format == Format::Text {
        if let Driver::Prefix(prefix) = &driver {
            let full = text.lines().last().and_then(|l| l.strip_prefix("schedule: ")).unwrap_or("");
            let total = sched::Schedule::parse(full).map(|s| s.picks.len()).unwrap_or(0);
            out(&cli::prefix::statement(prefix.picks.len(), total.saturating_sub(prefix.picks.len())))?;
        }
        if let Some(schedule) = text.lines().last().and_then(|l| l.strip_prefix("schedule: ")) {
            let replay = trace::render::replay_command_with(&path.display().to_string(), &loaded.flags, schedule);
            out(&format!("replay: {}\n", terminal(&replay)))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A failed run; exit 2 for a replayed schedule that does not fit the scenario.
fn run_failed(path: &Path, e: &webmcp::RunError, driver: &Driver) -> CliError {
    let code = cli::report::run_exit_code(e, driver);
    let error = CliError::with_code(code, format!("{}: {}", shown(path), terminal(&e.to_string())));
    match code {
        2 if e.to_string().contains("schedule ended") => {
            error.hint("to replay a prefix and complete it, add --complete first")
        }
        2 => error.hint(REPLAY_HINT),
        _ => error,
    }
}

/// One run rendered for people (Markdown) or their tools (Perfetto).
fn one_view(
    path: &Path,
    changes: &[Change],
    driver: &Driver,
    view: cli::report::View,
    limits: RunLimits,
) -> Result<ExitCode, CliError> {
    let time_limit = limits.time_limit()?;
    let loaded = cli::load(path, changes)?;
    let trace = cli::report::run_trace_until(&loaded.program, driver, limits.max_units, time_limit)
        .map_err(|e| run_failed(path, &e, driver))?;
    out(&cli::report::render_loaded_run(&trace, view, path, &loaded, driver))?;
    Ok(ExitCode::SUCCESS)
}

/// `report`: groups the runs of a range of seeds (or, without seeds, an exploration) by outcome
/// and writes the HTML report.
pub fn report(
    path: &Path,
    changes: &[Change],
    output: &Path,
    format: ReportFormatArg,
    seeds: Option<&str>,
    bounds: &ReportBounds,
) -> Result<ExitCode, CliError> {
    let seeds = seeds.map(cli::report::parse_seeds).transpose().map_err(CliError::input)?;
    let time_limit = bounds.time_limit.map(cli::parse_time_limit).transpose().map_err(CliError::input)?;
    let loaded = cli::load(path, changes)?;
    let found = match &seeds {
        Some(seeds) => {
            cli::report::outcomes_by_seed_until(&loaded.program, seeds.clone(), bounds.max_units, time_limit)
                .map(|groups| {
                    let ran: u64 = groups.iter().map(|g| g.count).sum();
                    let asked = seeds.end - seeds.start;
                    let cut = if cli::interrupted() { "Ctrl-C" } else { "the time limit" };
                    let runs = if ran < asked {
                        format!("seeds {}..{}, cut by {cut}: {ran} of {asked} runs", seeds.start, seeds.end)
                    } else {
                        format!("seeds {}..{}", seeds.start, seeds.end)
                    };
                    (groups, runs, cli::report::Counted::Runs)
                })
                .map_err(|e| e.to_string())
        }
        None => {
            let mut options = webmcp::ExploreOptions::default();
            options.search.max_states = bounds.max_states;
            options.search.time_limit = time_limit;
            // Ctrl-C stops the search, which then reports what it found as incomplete.
            options.search.interrupt = Some(cli::interrupt_flag());
            cli::report::explored_groups_with(&loaded.program, &options)
                .map(|(groups, how)| (groups, how, cli::report::Counted::EndStates))
        }
    };
    let (groups, runs, counted) = found.map_err(|e| CliError::failed(format!("{}: {e}", shown(path))))?;
    let description = &loaded.scenario.description;
    let html = match format {
        ReportFormatArg::Html => {
            cli::report::render_report_with(&groups, path, &loaded.flags, description, &runs, counted)
        }
        ReportFormatArg::Markdown => report_markdown(&loaded, &groups, path, &runs, counted),
    };
    let line = format!("{}: {} outcomes ({})", shown(path), groups.len(), terminal(&runs));
    // Ctrl-C: the partial report is written, and the exit code says it was cut.
    let code = if cli::interrupted() { ExitCode::from(130) } else { ExitCode::SUCCESS };
    if output == Path::new("-") {
        // `-o -`: the page on stdout, the summary on stderr.
        out(&html)?;
        eprintln!("{line} -> stdout");
        return Ok(code);
    }
    std::fs::write(output, html).map_err(|e| CliError::input(format!("{}: {e}", shown(output))))?;
    out(&format!("{line} -> {}\n", shown(output)))?;
    Ok(code)
}

/// The bounds `report` takes: the search's (`--max-states`, `--time-limit`) and each run's.
pub struct ReportBounds {
    pub max_states: u64,
    pub time_limit: Option<f64>,
    pub max_units: usize,
}

/// `report --format markdown`: the issue-sized Markdown of the outcome groups, with the
/// scenario's source; every outcome is drawn that fits.
fn report_markdown(
    loaded: &cli::Loaded,
    groups: &[trace::render::OutcomeGroup],
    path: &Path,
    runs: &str,
    counted: cli::report::Counted,
) -> String {
    let about = trace::render::About {
        path: &path.display().to_string(),
        description: &loaded.scenario.description,
        runs,
        counted: match counted {
            cli::report::Counted::Runs => "runs",
            cli::report::Counted::EndStates => "end states",
        },
        flags: &loaded.flags,
        source: &loaded.source,
        verdicts: &[],
    };
    trace::markdown::render_markdown_outcomes(groups, &about)
}

/// `bench`: seeded runs per second.
pub fn bench(path: &Path, runs: u64) -> Result<ExitCode, CliError> {
    let program = cli::load_program(path)?;
    let report = cli::bench(&program, runs).map_err(|e| CliError::failed(format!("{}: {e}", shown(path))))?;
    out(&format!("{}: {report}\n", shown(path)))?;
    Ok(ExitCode::SUCCESS)
}
