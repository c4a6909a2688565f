//! The command line's subcommands and their arguments, and `run`, which runs one and says how
//! the process ends.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Subcommand, ValueEnum};

use cli::options::{Change, SpecArgs};
use cli::CliError;
use trace::escape::terminal;

use crate::{explore, fuzz, runs};

#[derive(Clone, Copy, ValueEnum)]
pub enum FormatArg {
    /// Plain text for the terminal.
    Text,
    /// JSON (format version 1, docs/trace.schema.json).
    Json,
    /// Markdown for a GitHub issue: the outcome table and a Mermaid diagram per outcome.
    Markdown,
}

/// The formats of one run (docs/formats.md): the text and JSON trace, Markdown with a Mermaid
/// diagram for a spec issue, Chrome trace-event JSON for Perfetto.
#[derive(Clone, Copy, ValueEnum)]
pub enum RunFormatArg {
    /// The text trace, for the terminal.
    Text,
    /// The JSON trace (format version 1, docs/trace.schema.json).
    Json,
    /// Markdown for a GitHub issue, with a Mermaid sequence diagram.
    Markdown,
    /// Chrome trace-event JSON for the Perfetto UI.
    Perfetto,
}

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
        /// Stop after this many units (a run that hits it says so).
        #[arg(long, default_value_t = 10_000)]
        max_units: usize,
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
        /// Stop after this many units (a run that hits it says so).
        #[arg(long, default_value_t = 10_000)]
        max_units: usize,
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
    },
    /// Write a self-contained HTML report of SCENARIO's distinct outcomes over a range of seeds.
    Report {
        /// The scenario file (`.jsonc`).
        scenario: PathBuf,
        /// The HTML file to write (`-` for stdout).
        #[arg(short, long)]
        output: PathBuf,
        /// Seeds to run, as `A..B` (B excluded).
        #[arg(long, default_value = "0..200")]
        seeds: String,
        /// Explore every schedule (default bounds) instead of running seeds.
        #[arg(long, conflicts_with = "seeds")]
        explore: bool,
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

/// Bounds and knobs of an exploration.
#[derive(clap::Args)]
pub struct Bounds {
    /// Choice points the whole search may visit, across work items and threads, before it stops
    /// (reported as incomplete).
    #[arg(long, default_value_t = 2_000_000)]
    pub max_states: u64,
    /// Choices along one schedule before that branch stops.
    #[arg(long, default_value_t = 500)]
    pub max_depth: usize,
    /// Units along one schedule before that branch stops.
    #[arg(long, default_value_t = 5_000)]
    pub max_units: usize,
    /// Wall-clock limit in seconds (the only bound whose effect depends on the machine).
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Explore every schedule one by one, without state caching or sleep sets.
    #[arg(long)]
    pub naive: bool,
    /// The order a choice point's lanes are explored in: `broadest-first` (the lanes whose unit
    /// wrote the most first; fewer transitions) or `label`. Either finds the same
    /// outcomes; the witness schedules found can differ.
    #[arg(long, default_value = "broadest-first", value_parser = ["broadest-first", "label"])]
    pub lane_order: String,
    /// Threads.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Explore only part K of N (`--shard 2/4`); merge the parts with `merge`.
    #[arg(long, default_value = "1/1")]
    pub shard: String,
    /// Choice points expanded first to cut the search into work items (default: 0, one work
    /// item with one visited table, unless `--jobs` or `--shard` asks for more than one part; then 2).
    #[arg(long)]
    pub split_depth: Option<usize>,
    /// Queue inert tasks like any other instead of running them when they are queued (the
    /// event-driven part of the reduction, docs/model.md "Inert tasks"); for measuring it.
    #[arg(long)]
    pub no_inert_tasks: bool,
    /// Instead of exploring, run N schedules chosen by PCT (probabilistic concurrency testing)
    /// and report the outcomes seen, with PCT's probability bound; never complete.
    #[arg(long, value_name = "N")]
    pub sample: Option<u64>,
    /// The first seed of `--sample`'s runs (run i uses SEED + i).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The bug depth `--sample` aims at (PCT's d: d - 1 priority change points per run).
    #[arg(long, default_value_t = 3)]
    pub pct_depth: usize,
    /// Keep the witnesses the search met instead of finding each outcome's fewest-choice one
    /// (a breadth-first pass after a complete search; on the largest benchmark it takes about
    /// six times as long as the search).
    #[arg(long)]
    pub witnesses_as_found: bool,
    /// Explore only the schedules that deviate at most K times from the default order (the
    /// first runnable lane in label order), as in CHESS; the report says so and is incomplete
    /// whenever the bound cut a schedule. Turns off sleep sets and inert tasks (state caching
    /// stays).
    #[arg(long, value_name = "K")]
    pub delay_bound: Option<u32>,
    /// The search: `stateful` (copies and fingerprints states: state caching, sleep sets) or
    /// `stateless` (runs every schedule from the start, optimal dynamic partial-order reduction;
    /// one thread, no `--naive`, `--delay-bound`, `--jobs` or `--shard` yet). Both find the same
    /// outcomes.
    #[arg(long, default_value = "stateful", value_parser = ["stateful", "stateless"])]
    pub search: String,
    /// With `--search stateless`: executions (schedules run from the start) before the search
    /// stops (reported as incomplete).
    #[arg(long, default_value_t = 10_000_000)]
    pub max_executions: u64,
}

impl Bounds {
    /// The exploration these flags ask for; a malformed `--shard` or `--time-limit` is bad input.
    pub fn options(&self) -> Result<webmcp::ExploreOptions, CliError> {
        let shard = cli::parse_shard(&self.shard).map_err(CliError::input)?;
        let kind =
            if self.search == "stateless" { webmcp::SearchKind::Stateless } else { webmcp::SearchKind::Stateful };
        if kind == webmcp::SearchKind::Stateless {
            let unsupported = [
                (self.naive, "--naive"),
                (self.delay_bound.is_some(), "--delay-bound"),
                (self.jobs > 1, "--jobs"),
                (shard.1 > 1, "--shard"),
                (self.split_depth.is_some(), "--split-depth"),
            ];
            if let Some((_, flag)) = unsupported.iter().find(|(set, _)| *set) {
                return Err(CliError::input(format!(
                    "{flag} is not supported with --search stateless yet (use --search stateful)"
                )));
            }
        }
        Ok(webmcp::ExploreOptions {
            search: webmcp::SearchOptions {
                reduce: !self.naive,
                lane_order: if self.lane_order == "label" {
                    webmcp::LaneOrder::Label
                } else {
                    webmcp::LaneOrder::BroadestFirst
                },
                max_states: self.max_states,
                max_depth: self.max_depth,
                max_units: self.max_units,
                time_limit: self.time_limit.map(cli::parse_time_limit).transpose().map_err(CliError::input)?,
                split_depth: self.split_depth.unwrap_or(if self.jobs > 1 || shard.1 > 1 { 2 } else { 0 }),
                jobs: self.jobs.max(1),
                shard,
                progress: None,
                interrupt: None,
                delay_bound: self.delay_bound,
                table_per_work_item: false,
                max_executions: self.max_executions,
            },
            shortest_witnesses: !self.witnesses_as_found,
            inert_tasks: !self.no_inert_tasks,
            kind,
        })
    }
}

/// Runs one subcommand: the exit code it ends with, or the error that stopped it (`main` prints
/// it and exits with its code).
pub fn run(command: Command) -> Result<ExitCode, CliError> {
    match command {
        Command::Run { scenario, seed, format, max_units, spec } => {
            runs::run(&scenario, &spec_changes(&spec)?, cli::Driver::Seed(seed), format, max_units)
        }
        Command::Replay { scenario, schedule, complete, format, max_units, spec } => {
            runs::replay(&scenario, &spec_changes(&spec)?, &schedule, complete.is_some(), format, max_units)
        }
        Command::Explore { scenario, bounds, format, spec } => explore::explore(&scenario, &bounds, format, &spec),
        Command::Merge { parts, format, scenario } => explore::merge(&parts, format, scenario),
        Command::Audit { scenarios, max_states, max_units } => explore::audit(&scenarios, max_states, max_units),
        Command::BenchExplore { scenarios, naive_max_states } => explore::bench_explore(&scenarios, naive_max_states),
        Command::Report { scenario, output, seeds, explore, max_units, spec } => {
            let changes = spec_changes(&spec)?;
            runs::report(&scenario, &changes, &output, (!explore).then_some(seeds.as_str()), max_units)
        }
        Command::Chromium(args) => cli::chromium::command(args),
        Command::Snapshot { dir, review } => {
            folder_report(&dir, cli::snapshot::snapshot_dir(&dir, review).map(|r| (r.text, r.exit_code)))
        }
        Command::Bench { scenario, runs } => runs::bench(&scenario, runs),
        Command::Check { path, bounds, spec } => {
            let options = bounds.options()?;
            let changes = spec_changes(&spec)?;
            folder_report(&path, cli::check_dir_with(&path, &options, &changes).map(|r| (r.text, r.exit_code)))
        }
        Command::Variants => {
            out(&webmcp::variants::listing());
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
    out(&text);
    Ok(ExitCode::from(code))
}

/// A path for the terminal (error messages, summary lines).
pub fn shown(path: &Path) -> String {
    terminal(&path.display().to_string())
}

/// Writes to stdout; a closed pipe (`webmcp-sim … | head`) ends quietly instead of panicking.
pub fn out(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()).is_err() {
        std::process::exit(0);
    }
}
