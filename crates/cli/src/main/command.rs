//! The command line's subcommands and their arguments, and `run`, which runs one and says how
//! the process ends.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;

use cli::options::{Change, SpecArgs};
use cli::CliError;

use crate::args::{out, shown, Bounds, CheckFormatArg, FormatArg, ReportFormatArg, RunFormatArg};
use crate::{explore, fuzz, runs};

#[derive(Subcommand)]
pub enum Command {
    /// Run a scenario once, choosing among runnable lanes with a seeded random chooser.
    Run {
        /// The scenario file (`.jsonc`).
        scenario: PathBuf,
        /// Seed of the random chooser: the same seed gives the same run.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: RunFormatArg,
        #[command(flatten)]
        limits: runs::RunLimits,
        #[command(flatten)]
        spec: SpecArgs,
    },
    /// Replay a schedule printed by `run` (its `schedule:` line), reproducing the run exactly.
    Replay {
        /// The scenario file the schedule comes from.
        scenario: PathBuf,
        /// The schedule to replay, as printed on a trace's `schedule:` line (e.g. `el0.net,par#1`).
        #[arg(long)]
        schedule: String,
        /// Complete a schedule that is only a prefix: `first` picks the first runnable lane, in
        /// the order the run lists them, at every later choice (the output says so). Without it,
        /// a schedule that runs out is an error.
        #[arg(long, value_parser = ["first"])]
        complete: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: RunFormatArg,
        #[command(flatten)]
        limits: runs::RunLimits,
        #[command(flatten)]
        spec: SpecArgs,
    },
    /// Explore every schedule of SCENARIO: each distinct outcome with a shortest replayable schedule.
    Explore {
        /// The scenario file (`.jsonc`), or a folder: each `.jsonc` scenario under it, in sorted
        /// order (text and Markdown only).
        scenario: PathBuf,
        #[command(flatten)]
        bounds: Bounds,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: FormatArg,
        /// With `--format markdown`: draw outcome N (repeatable; numbered as the table numbers
        /// them). Default: the outcomes that violate an expectation or show a new finding.
        #[arg(long, value_name = "N")]
        outcome: Vec<usize>,
        #[command(flatten)]
        spec: SpecArgs,
    },
    /// Combine the JSON results of `explore --shard K/N --format json` into one report.
    Merge {
        /// JSON result files, one per shard.
        parts: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: FormatArg,
        /// The scenario file the replay commands name (default: the file the parts name).
        #[arg(long)]
        scenario: Option<PathBuf>,
        /// Decide the scenario's `expect` section over all the parts (text only): the file must
        /// be the one the shards explored; exit 1 on a violated or undecided expectation.
        #[arg(long)]
        check: bool,
    },
    /// Check the independence relation the reduced search relies on, at every choice point of
    /// each scenario: two units whose footprints do not conflict must leave each other runnable,
    /// reach the same state in either order, and touch nothing new after each other. Exit 1 on a
    /// violation (a simulator bug), with a schedule that reaches it.
    Audit {
        /// The scenario files to audit, or folders: each `.jsonc` scenario under them, in sorted
        /// order.
        scenarios: Vec<PathBuf>,
        /// Distinct choice points checked per scenario before the audit stops (incomplete).
        #[arg(long, default_value_t = 100_000)]
        max_states: u64,
        /// Units along one schedule before that branch stops.
        #[arg(long, default_value_t = 5_000)]
        max_units: usize,
    },
    /// Measure exploration: unique states, transitions, states/s, bytes per state, and the
    /// reduction against the naive search, for each scenario given (e.g. fixtures/bench/*.jsonc).
    BenchExplore {
        /// The scenario files to measure, or folders: each `.jsonc` scenario under them, in
        /// sorted order.
        scenarios: Vec<PathBuf>,
        /// Bound for the naive search (it can be exponential).
        #[arg(long, default_value_t = 2_000_000)]
        naive_max_states: u64,
        /// Also explore each scenario once with the stateless search (optimal DPOR), up to this
        /// many executions (0: do not).
        #[arg(long, default_value_t = 2_000_000)]
        stateless_max_executions: u64,
        /// Time bound of each stateless search, in seconds (it reports itself incomplete).
        #[arg(long, default_value_t = 60.0)]
        stateless_time_limit: f64,
    },
    /// Write a self-contained HTML report of SCENARIO's distinct outcomes over a range of seeds.
    Report {
        /// The scenario file (`.jsonc`).
        scenario: PathBuf,
        /// The file to write (`-` for stdout).
        #[arg(short, long)]
        output: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value = "html")]
        format: ReportFormatArg,
        /// Instead of exploring every schedule, run N seeded runs (seeds 0..N) and group them.
        #[arg(long, value_name = "N", conflicts_with = "seeds")]
        sample: Option<u64>,
        /// Instead of exploring, run these seeds, as `A..B` (B excluded).
        #[arg(long)]
        seeds: Option<String>,
        /// Explore every schedule: the default (kept so older command lines still work).
        #[arg(long, hide = true, conflicts_with_all = ["seeds", "sample"])]
        explore: bool,
        /// Choice points the search may visit before it stops (reported as incomplete).
        #[arg(long, default_value_t = 2_000_000)]
        max_states: u64,
        /// Wall-clock limit in seconds for the search (the only bound whose effect depends on the
        /// machine).
        #[arg(long)]
        time_limit: Option<f64>,
        /// Stop each run after this many units (a run that hits it says so).
        #[arg(long, default_value_t = 10_000)]
        max_units: usize,
        #[command(flatten)]
        spec: SpecArgs,
    },
    /// Run scenarios in real headless Chromium (WebMCP enabled) and check every observed outcome
    /// against the explored set (docs/chromium.md); exit 1 when one is outside the spec's set and
    /// the chromium profile's.
    Chromium(cli::chromium::Args),
    /// Write a WPT testharness.js page that drives SCENARIO in a browser and asserts what a
    /// schedule's outcome shows (docs/export.md); exit 2 naming a feature it cannot express.
    Export(cli::export::Args),
    /// Run WPT testharness.js files (`.html`, `.window.js`, `.any.js`) under every schedule and
    /// give each subtest its verdict across all of them: PASS, FAIL, SCHEDULE-DEPENDENT (with a
    /// replayable witness per result), TIMEOUT, NOTRUN, ERROR, UNSUPPORTED (the member named) or
    /// INCOMPLETE (docs/wpt.md).
    Wpt(cli::wpt::Args),
    /// Write or check golden snapshots (insta's `.snap` format) of every scenario under DIR, in
    /// DIR/snapshots/; exit 1 on a new or changed one, written beside it as `.snap.new`.
    Snapshot {
        /// The directory of scenarios; snapshots go to DIR/snapshots/.
        dir: PathBuf,
        /// Accept new and changed snapshots.
        #[arg(long)]
        review: bool,
    },
    /// Measure runs per second: run SCENARIO over seeds 0..RUNS and print the rate.
    Bench {
        /// The scenario file (`.jsonc`).
        scenario: PathBuf,
        /// How many seeded runs to time.
        #[arg(long, default_value_t = 10_000)]
        runs: u64,
    },
    /// Explore the scenario PATH, or every `.jsonc` scenario under the folder PATH, and check its
    /// `expect` section; exit 1 on a violated or undecided expectation.
    Check {
        /// The scenario file, or the folder whose scenarios to check (every `.jsonc` file below
        /// it).
        path: PathBuf,
        #[command(flatten)]
        bounds: Bounds,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: CheckFormatArg,
        /// With `--format markdown`: draw outcome N (repeatable). Default: the outcomes that
        /// violate an expectation or show a new finding.
        #[arg(long, value_name = "N")]
        outcome: Vec<usize>,
        /// The known findings, counted apart from the new ones (`ID | STEP | TEXT` lines;
        /// `none`: none). Default: the shipped list, docs/known-findings.txt.
        #[arg(long, value_name = "FILE")]
        known: Option<PathBuf>,
        #[command(flatten)]
        spec: SpecArgs,
    },
    /// List every variant (an opt-in reading that models a proposed spec change) with the spec
    /// issue or finding it models, and the two in-parallel models.
    Variants,
    /// Explore SCENARIO under two sets of options and compare the outcome sets: the outcomes only
    /// in the base, only with the change (each with a fewest-choice witness and a replay command
    /// carrying its options), and the common ones. Exit 1 when the sets differ or a search is
    /// incomplete, 0 when they are equal.
    Diff(cli::diff::DiffArgs),
    /// Generate a scenario per seed and check every invariant under random and exhaustive
    /// schedules; write each simulator bug and spec finding, shrunk, as a scenario file.
    Fuzz(fuzz::FuzzArgs),
    /// Feed generated hostile inputs (bytes, mutated scenarios, deep nesting, huge numbers) to the
    /// scenario parser; exit 1 if any makes it panic.
    FuzzParser(fuzz::FuzzParserArgs),
}

/// Runs one subcommand: the exit code it ends with, or the error that stopped it (`main` prints
/// it and exits with its code).
pub fn run(command: Command) -> Result<ExitCode, CliError> {
    match command {
        Command::Run { scenario, seed, format, limits, spec } => {
            runs::run(&scenario, &spec_changes(&spec)?, cli::Driver::Seed(seed), format, limits)
        }
        Command::Replay { scenario, schedule, complete, format, limits, spec } => {
            runs::replay(&scenario, &spec_changes(&spec)?, &schedule, complete.is_some(), format, limits)
        }
        Command::Explore { scenario, bounds, format, outcome, spec } => {
            explore::explore(&scenario, &bounds, format, &outcome, &spec)
        }
        Command::Merge { parts, format, scenario, check } => explore::merge(&parts, format, scenario, check),
        Command::Audit { scenarios, max_states, max_units } => explore::audit(&scenarios, max_states, max_units),
        Command::BenchExplore { scenarios, naive_max_states, stateless_max_executions, stateless_time_limit } => {
            explore::bench_explore(&scenarios, naive_max_states, stateless_max_executions, stateless_time_limit)
        }
        Command::Report {
            scenario,
            output,
            format,
            sample,
            seeds,
            explore: _,
            max_states,
            time_limit,
            max_units,
            spec,
        } => {
            let changes = spec_changes(&spec)?;
            let seeds = sample.map(|n| format!("0..{n}")).or(seeds);
            let bounds = runs::ReportBounds { max_states, time_limit, max_units };
            runs::report(&scenario, &changes, &output, format, seeds.as_deref(), &bounds)
        }
        Command::Chromium(args) => cli::chromium::command(args),
        Command::Export(args) => cli::export::command(args),
        Command::Wpt(args) => cli::wpt::command(&args),
        Command::Snapshot { dir, review } => {
            folder_report(&dir, cli::snapshot::snapshot_dir(&dir, review).map(|r| (r.text, r.exit_code)))
        }
        Command::Bench { scenario, runs } => runs::bench(&scenario, runs),
        Command::Check { path, bounds, .. } if cli::parse_shard(&bounds.shard).is_ok_and(|(_, n)| n > 1) => {
            Err(explore::shard_cannot_decide("check", &path, &bounds.shard))
        }
        Command::Check { path, bounds, format: CheckFormatArg::Markdown, outcome, known, spec } => {
            explore::check_markdown(&path, &bounds, &outcome, &cli::known_findings(known.as_deref())?, &spec)
        }
        Command::Check { path, bounds, format: CheckFormatArg::Text, outcome: _, known, spec } => {
            let options = bounds.options()?;
            let changes = spec_changes(&spec)?;
            let known = cli::known_findings(known.as_deref())?;
            let report = cli::check_dir_knowing(&path, &options, &changes, &known);
            folder_report(&path, report.map(|r| (r.text, r.exit_code)))
        }
        Command::Variants => {
            out(&webmcp::variants::listing())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Diff(args) => cli::diff::diff_command(&args),
        Command::Fuzz(args) => fuzz::fuzz(&args),
        Command::FuzzParser(args) => fuzz::fuzz_parser(&args),
    }
}

/// `--parallel` and `--variant` as changes to a scenario's options.
fn spec_changes(spec: &SpecArgs) -> Result<Vec<Change>, CliError> {
    spec.changes().map_err(CliError::input)
}

/// Prints a folder command's report and ends with its code; an unreadable folder is exit 2.
fn folder_report(path: &Path, report: std::io::Result<(String, u8)>) -> Result<ExitCode, CliError> {
    let (text, code) = report.map_err(|e| CliError::input(format!("{}: {e}", shown(path))))?;
    out(&text)?;
    Ok(ExitCode::from(code))
}
