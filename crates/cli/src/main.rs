//! `webmcp-sim`: run a scenario with a seed, replay a schedule, or check a directory of scenarios.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use cli::options::{Change, SpecArgs};
use cli::{check_dir_with, load_program, run_program, Driver, Format, LoadError};
use trace::escape::terminal;

mod allocator;
mod fuzz;
#[cfg(test)]
#[path = "main/tests.rs"]
mod tests;

#[derive(Parser)]
#[command(name = "webmcp-sim", version = VERSION.as_str(), about = "Deterministic simulator of the WebMCP browser runtime")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
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
enum RunFormatArg {
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
enum Command {
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
        /// The scenario file (`.jsonc`).
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
        /// The scenario files to audit.
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
        /// The scenario files to measure.
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
    /// Write or check golden snapshots (insta's `.snap` format) of every scenario under DIR, in
    /// DIR/snapshots/; exit 1 on a new or changed one, written beside it as `.snap.new`.
    /// Run scenarios in real headless Chromium (WebMCP enabled) and check every observed outcome
    /// against the explored set (docs/chromium.md); exit 1 when one is outside the spec's set and
    /// the chromium profile's.
    Chromium(cli::chromium::Args),
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
    /// Explore every `.jsonc` scenario under DIR and check its `expect` section; exit 1 on a
    /// violated or undecided expectation.
    Check {
        /// The directory whose scenarios to check (every `.jsonc` file below it).
        dir: PathBuf,
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
struct Bounds {
    /// Choice points the whole search may visit, across work items and threads, before it stops
    /// (reported as incomplete).
    #[arg(long, default_value_t = 2_000_000)]
    max_states: u64,
    /// Choices along one schedule before that branch stops.
    #[arg(long, default_value_t = 500)]
    max_depth: usize,
    /// Units along one schedule before that branch stops.
    #[arg(long, default_value_t = 5_000)]
    max_units: usize,
    /// Wall-clock limit in seconds (the only bound whose effect depends on the machine).
    #[arg(long)]
    time_limit: Option<f64>,
    /// Explore every schedule one by one, without state caching or sleep sets.
    #[arg(long)]
    naive: bool,
    /// The order a choice point's lanes are explored in: `broadest-first` (the lanes whose unit
    /// wrote the most first; fewer transitions) or `label`. Either finds the same
    /// outcomes; the witness schedules found can differ.
    #[arg(long, default_value = "broadest-first", value_parser = ["broadest-first", "label"])]
    lane_order: String,
    /// Threads.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Explore only part K of N (`--shard 2/4`); merge the parts with `merge`.
    #[arg(long, default_value = "1/1")]
    shard: String,
    /// Choice points expanded first to cut the search into work items (default: 0, one work
    /// item with one visited table, unless `--jobs` or `--shard` asks for more than one part; then 2).
    #[arg(long)]
    split_depth: Option<usize>,
    /// Queue inert tasks like any other instead of running them when they are queued (the
    /// event-driven part of the reduction, docs/model.md "Inert tasks"); for measuring it.
    #[arg(long)]
    no_inert_tasks: bool,
    /// Instead of exploring, run N schedules chosen by PCT (probabilistic concurrency testing)
    /// and report the outcomes seen, with PCT's probability bound; never complete.
    #[arg(long, value_name = "N")]
    sample: Option<u64>,
    /// The first seed of `--sample`'s runs (run i uses SEED + i).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The bug depth `--sample` aims at (PCT's d: d - 1 priority change points per run).
    #[arg(long, default_value_t = 3)]
    pct_depth: usize,
    /// Keep the witnesses the search met instead of finding each outcome's fewest-choice one
    /// (a breadth-first pass after a complete search; on the largest benchmark it takes about
    /// six times as long as the search).
    #[arg(long)]
    witnesses_as_found: bool,
    /// Explore only the schedules that deviate at most K times from the default order (the
    /// first runnable lane in label order), as in CHESS; the report says so and is incomplete
    /// whenever the bound cut a schedule. Turns off sleep sets and inert tasks (state caching
    /// stays).
    #[arg(long, value_name = "K")]
    delay_bound: Option<u32>,
}

impl Bounds {
    fn options(&self) -> Result<webmcp::ExploreOptions, String> {
        let shard = cli::parse_shard(&self.shard)?;
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
                time_limit: self.time_limit.map(cli::parse_time_limit).transpose()?,
                split_depth: self.split_depth.unwrap_or(if self.jobs > 1 || shard.1 > 1 { 2 } else { 0 }),
                jobs: self.jobs.max(1),
                shard,
                progress: None,
                interrupt: None,
                delay_bound: self.delay_bound,
                table_per_work_item: false,
            },
            shortest_witnesses: !self.witnesses_as_found,
            inert_tasks: !self.no_inert_tasks,
        })
    }
}

/// `--version`: the tool's version and the spec text it models (`webmcp::SPEC_REVISION`).
static VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("{} (trace format v{}; spec: {})", env!("CARGO_PKG_VERSION"), trace::VERSION, webmcp::SPEC_REVISION)
});

/// mimalloc (see `allocator`): exploration clones and drops many small states; the system
/// allocator costs a third of exploration time (measured with `bench-explore`).
#[global_allocator]
static GLOBAL: allocator::Allocator = allocator::Allocator;

fn main() -> ExitCode {
    allocator::keep_freed_pages();
    let args = Args::parse();
    match args.command {
        Command::Fuzz(args) => fuzz::fuzz(&args),
        Command::FuzzParser(args) => fuzz::fuzz_parser(&args),
        Command::Variants => {
            out(&webmcp::variants::listing());
            ExitCode::SUCCESS
        }
        Command::Diff(args) => cli::diff::diff_command(&args),
        Command::Explore { scenario, bounds, format, spec } => {
            let options = match bounds.options() {
                Ok(o) => o,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            let Some(changes) = spec_changes(&spec) else { return ExitCode::from(2) };
            let loaded = match cli::report::load_with(&scenario, &changes) {
                Ok(l) => l,
                Err(e) => return report_load_error(e),
            };
            let program = loaded.program;
            let started = std::time::Instant::now();
            let result = match bounds.sample {
                Some(runs) => {
                    webmcp::sample::sample_pct(&program, runs, bounds.seed, bounds.pct_depth, bounds.max_units)
                }
                None => cli::with_progress(
                    options,
                    |options, probes| {
                        webmcp::explore::estimate_tree(&program, options, probes).ok().map(|e| e.choice_points)
                    },
                    |options| webmcp::explore(&program, options),
                ),
            };
            // Wall-clock time on stderr: the report itself stays byte-identical across machines.
            eprintln!("elapsed: {:.2} s", started.elapsed().as_secs_f64());
            match result {
                Ok(mut ex) => {
                    ex.file = scenario.display().to_string();
                    if let Err(e) = cli::mark_shard(&mut ex, &scenario) {
                        eprintln!("error: {e}");
                        return ExitCode::from(2);
                    }
                    match format {
                        FormatArg::Text => out(&ex.render_text_with(&ex.file, &loaded.flags)),
                        FormatArg::Json => out(&ex.render_json()),
                        FormatArg::Markdown => {
                            match cli::report::render_exploration_markdown_with(
                                &program,
                                &ex,
                                &scenario,
                                &loaded.flags,
                                &loaded.description,
                            ) {
                                Ok(text) => out(&text),
                                Err(e) => {
                                    eprintln!("error: {}: {e}", shown(&scenario));
                                    return ExitCode::from(1);
                                }
                            }
                        }
                    }
                    if cli::interrupted() {
                        eprintln!("interrupted: the report above is partial");
                        ExitCode::from(130)
                    } else {
                        ExitCode::SUCCESS
                    }
                }
                Err(e) => {
                    eprintln!("error: {}: {e}", shown(&scenario));
                    ExitCode::from(1)
                }
            }
        }
        Command::Merge { parts, format, scenario } => match cli::merge_files(&parts) {
            Ok(mut ex) => {
                if let Some(file) = scenario {
                    ex.file = file.display().to_string();
                }
                match format {
                    FormatArg::Text => {
                        if ex.file.is_empty() {
                            eprintln!("error: the parts do not name their scenario file (written before `explore` recorded it)");
                            eprintln!("  hint: name it with `merge --scenario FILE …`, so the replay commands run");
                            return ExitCode::from(2);
                        }
                        out(&ex.render_text(&ex.file))
                    }
                    FormatArg::Json => out(&ex.render_json()),
                    FormatArg::Markdown => {
                        eprintln!("error: merge prints text or json; for Markdown, explore the scenario itself");
                        return ExitCode::from(2);
                    }
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Command::Report { scenario, output, seeds, explore, max_units, spec } => {
            let Some(changes) = spec_changes(&spec) else { return ExitCode::from(2) };
            write_report(&scenario, &changes, &output, (!explore).then_some(seeds.as_str()), max_units)
        }
        Command::Chromium(args) => ExitCode::from(cli::chromium::command(args)),
        Command::Snapshot { dir, review } => {
            finish_dir_report(&dir, cli::snapshot::snapshot_dir(&dir, review).map(|r| (r.text, r.exit_code)))
        }
        Command::Run { scenario, seed, format, max_units, spec } => {
            let Some(changes) = spec_changes(&spec) else { return ExitCode::from(2) };
            one_run(&scenario, &changes, Driver::Seed(seed), format, max_units)
        }
        Command::Replay { scenario, schedule, complete, format, max_units, spec } => {
            let Some(changes) = spec_changes(&spec) else { return ExitCode::from(2) };
            let schedule = match sched::Schedule::parse(&schedule) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: --schedule: {}", terminal(&e.to_string()));
                    eprintln!("  hint: replay the `schedule:` line that a run of this same scenario printed");
                    return ExitCode::from(2);
                }
            };
            let driver = if complete.is_some() { Driver::Prefix(schedule) } else { Driver::Replay(schedule) };
            one_run(&scenario, &changes, driver, format, max_units)
        }
        Command::Audit { scenarios, max_states, max_units } => {
            let mut violated = false;
            for scenario in scenarios {
                let program = match load_program(&scenario) {
                    Ok(p) => p,
                    Err(e) => return report_load_error(e),
                };
                match webmcp::audit::audit_independence(&program, max_states, max_units) {
                    Ok(audit) => {
                        let status = if audit.complete { "complete" } else { "incomplete (a bound stopped it)" };
                        out(&format!(
                            "{}: choice points {}, pairs taken to commute {}, violations {}; {status}\n",
                            shown(&scenario),
                            audit.states,
                            audit.pairs,
                            audit.violations.len()
                        ));
                        for v in &audit.violations {
                            violated = true;
                            out(&format!("  {}\n", terminal(&v.to_string())));
                        }
                    }
                    Err(e) => {
                        eprintln!("error: {}: {e}", shown(&scenario));
                        return ExitCode::from(1);
                    }
                }
            }
            if violated {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Command::BenchExplore { scenarios, naive_max_states } => {
            for scenario in scenarios {
                let program = match load_program(&scenario) {
                    Ok(p) => p,
                    Err(e) => return report_load_error(e),
                };
                match cli::bench_explore(&program, naive_max_states) {
                    Ok(report) => out(&format!("{report}\n")),
                    Err(e) => {
                        eprintln!("error: {}: {e}", shown(&scenario));
                        return ExitCode::from(1);
                    }
                }
            }
            out(&format!("peak resident memory: {}\n", cli::peak_memory()));
            ExitCode::SUCCESS
        }
        Command::Bench { scenario, runs } => {
            let program = match load_program(&scenario) {
                Ok(p) => p,
                Err(e) => return report_load_error(e),
            };
            match cli::bench(&program, runs) {
                Ok(report) => {
                    out(&format!("{}: {report}\n", shown(&scenario)));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {}: {e}", shown(&scenario));
                    ExitCode::from(1)
                }
            }
        }
        Command::Check { dir, bounds, spec } => {
            let options = match bounds.options() {
                Ok(o) => o,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            let Some(changes) = spec_changes(&spec) else { return ExitCode::from(2) };
            finish_dir_report(&dir, check_dir_with(&dir, &options, &changes).map(|r| (r.text, r.exit_code)))
        }
    }
}

/// `--parallel` and `--variant` as changes to a scenario's options; `None` after printing why not.
fn spec_changes(spec: &SpecArgs) -> Option<Vec<Change>> {
    match spec.changes() {
        Ok(c) => Some(c),
        Err(e) => {
            eprintln!("error: {e}");
            None
        }
    }
}

fn one_run(path: &Path, changes: &[Change], driver: Driver, format: RunFormatArg, max_units: usize) -> ExitCode {
    let format = match format {
        RunFormatArg::Text => Format::Text,
        RunFormatArg::Json => Format::Json,
        RunFormatArg::Markdown => return one_view(path, changes, &driver, cli::report::View::Markdown, max_units),
        RunFormatArg::Perfetto => return one_view(path, changes, &driver, cli::report::View::Perfetto, max_units),
    };
    let (program, flags) = match cli::options::load_with(path, changes) {
        Ok(l) => (l.program, l.flags),
        Err(e) => return report_load_error(e),
    };
    match run_program(&program, &driver, format, max_units) {
        Ok(text) => {
            out(&text);
            if format == Format::Text {
                if let Driver::Prefix(prefix) = &driver {
                    let full = text.lines().last().and_then(|l| l.strip_prefix("schedule: ")).unwrap_or("");
                    let total = sched::Schedule::parse(full).map(|s| s.picks.len()).unwrap_or(0);
                    out(&cli::prefix::statement(prefix.picks.len(), total.saturating_sub(prefix.picks.len())));
                }
                if let Some(schedule) = text.lines().last().and_then(|l| l.strip_prefix("schedule: ")) {
                    let replay = trace::render::replay_command_with(&path.display().to_string(), &flags, schedule);
                    out(&format!("replay: {}\n", terminal(&replay)));
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => run_failed(path, &e, &driver),
    }
}

/// Reports a failed run; exit 2 for a replayed schedule that does not fit the scenario.
fn run_failed(path: &Path, e: &webmcp::RunError, driver: &Driver) -> ExitCode {
    eprintln!("error: {}: {}", shown(path), terminal(&e.to_string()));
    let code = cli::report::run_exit_code(e, driver);
    if code == 2 {
        if e.to_string().contains("schedule ended") {
            eprintln!("  hint: to replay a prefix and complete it, add --complete first");
        } else {
            eprintln!("  hint: replay the `schedule:` line that a run of this same scenario printed");
        }
    }
    ExitCode::from(code)
}

/// One run rendered for people (Markdown) or their tools (Perfetto).
fn one_view(path: &Path, changes: &[Change], driver: &Driver, view: cli::report::View, max_units: usize) -> ExitCode {
    let loaded = match cli::report::load_with(path, changes) {
        Ok(l) => l,
        Err(e) => return report_load_error(e),
    };
    match cli::report::run_trace(&loaded.program, driver, max_units) {
        Ok(trace) => {
            out(&cli::report::render_run_with(&trace, view, path, &loaded.flags, &loaded.description, driver));
            ExitCode::SUCCESS
        }
        Err(e) => run_failed(path, &e, driver),
    }
}

/// `report`: groups the runs of a range of seeds (or, without seeds, an exploration) by outcome
/// and writes the HTML report.
fn write_report(path: &Path, changes: &[Change], output: &Path, seeds: Option<&str>, max_units: usize) -> ExitCode {
    let seeds = match seeds.map(cli::report::parse_seeds).transpose() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let loaded = match cli::report::load_with(path, changes) {
        Ok(l) => l,
        Err(e) => return report_load_error(e),
    };
    let found = match &seeds {
        Some(seeds) => cli::report::outcomes_by_seed(&loaded.program, seeds.clone(), max_units)
            .map(|groups| (groups, format!("seeds {}..{}", seeds.start, seeds.end), cli::report::Counted::Runs))
            .map_err(|e| e.to_string()),
        None => cli::report::explored_groups(&loaded.program)
            .map(|(groups, how)| (groups, how, cli::report::Counted::EndStates)),
    };
    let (groups, runs, counted) = match found {
        Ok(found) => found,
        Err(e) => {
            eprintln!("error: {}: {e}", shown(path));
            return ExitCode::from(1);
        }
    };
    let html = cli::report::render_report_with(&groups, path, &loaded.flags, &loaded.description, &runs, counted);
    let line = format!("{}: {} outcomes ({})", shown(path), groups.len(), terminal(&runs));
    if output == Path::new("-") {
        // `-o -`: the page on stdout, the summary on stderr.
        out(&html);
        eprintln!("{line} -> stdout");
        return ExitCode::SUCCESS;
    }
    if let Err(e) = std::fs::write(output, html) {
        eprintln!("error: {}: {e}", shown(output));
        return ExitCode::from(2);
    }
    out(&format!("{line} -> {}\n", shown(output)));
    ExitCode::SUCCESS
}

/// A path for the terminal (error messages, summary lines).
fn shown(path: &Path) -> String {
    terminal(&path.display().to_string())
}

fn report_load_error(e: LoadError) -> ExitCode {
    eprint!("{e}");
    ExitCode::from(2)
}

/// Writes to stdout; a closed pipe (`webmcp-sim … | head`) ends quietly instead of panicking.
fn out(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()).is_err() {
        std::process::exit(0);
    }
}

/// Prints a directory command's report and exits with its code; an unreadable directory is exit 2.
fn finish_dir_report(dir: &Path, report: std::io::Result<(String, u8)>) -> ExitCode {
    match report {
        Ok((text, code)) => {
            out(&text);
            ExitCode::from(code)
        }
        Err(e) => {
            eprintln!("error: {}: {e}", shown(dir));
            ExitCode::from(2)
        }
    }
}
