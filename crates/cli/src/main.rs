//! `webmcp-sim`: run a scenario with a seed, replay a schedule, or check a directory of scenarios.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use cli::{check_dir, load_program, run_program, Driver, Format, LoadError};

mod allocator;
mod fuzz;

#[derive(Parser)]
#[command(name = "webmcp-sim", version, about = "Deterministic simulator of the WebMCP browser runtime")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Text,
    Json,
    /// Markdown for a GitHub issue: the outcome table and a Mermaid diagram per outcome.
    Markdown,
}

/// The formats of one run (docs/formats.md): the text and JSON trace, Markdown with a Mermaid
/// diagram for a spec issue, Chrome trace-event JSON for Perfetto.
#[derive(Clone, Copy, ValueEnum)]
enum RunFormatArg {
    Text,
    Json,
    Markdown,
    Perfetto,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario once, choosing among runnable lanes with a seeded random chooser.
    Run {
        scenario: PathBuf,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long, value_enum, default_value = "text")]
        format: RunFormatArg,
        /// Stop after this many units (a run that hits it says so).
        #[arg(long, default_value_t = 10_000)]
        max_units: usize,
    },
    /// Replay a schedule printed by `run` (its `schedule:` line), reproducing the run exactly.
    Replay {
        scenario: PathBuf,
        #[arg(long)]
        schedule: String,
        #[arg(long, value_enum, default_value = "text")]
        format: RunFormatArg,
        #[arg(long, default_value_t = 10_000)]
        max_units: usize,
    },
    /// Explore every schedule of SCENARIO: each distinct outcome with a shortest replayable schedule.
    Explore {
        scenario: PathBuf,
        #[command(flatten)]
        bounds: Bounds,
        #[arg(long, value_enum, default_value = "text")]
        format: FormatArg,
    },
    /// Combine the JSON results of `explore --shard K/N --format json` into one report.
    Merge {
        /// JSON result files, one per shard.
        parts: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: FormatArg,
    },
    /// Check the independence relation the reduced search relies on, at every choice point of
    /// each scenario: two units whose footprints do not conflict must leave each other runnable,
    /// reach the same state in either order, and touch nothing new after each other. Exit 1 on a
    /// violation (a simulator bug), with a schedule that reaches it.
    Audit {
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
        scenarios: Vec<PathBuf>,
        /// Bound for the naive search (it can be exponential).
        #[arg(long, default_value_t = 2_000_000)]
        naive_max_states: u64,
    },
    /// Write a self-contained HTML report of SCENARIO's distinct outcomes over a range of seeds.
    Report {
        scenario: PathBuf,
        /// The HTML file to write.
        #[arg(short, long)]
        output: PathBuf,
        /// Seeds to run, as `A..B` (B excluded).
        #[arg(long, default_value = "0..200")]
        seeds: String,
        /// Explore every schedule (default bounds) instead of running seeds.
        #[arg(long, conflicts_with = "seeds")]
        explore: bool,
        #[arg(long, default_value_t = 10_000)]
        max_units: usize,
    },
    /// Write or check golden snapshots (insta's `.snap` format) of every scenario under DIR, in
    /// DIR/snapshots/; exit 1 on a new or changed one, written beside it as `.snap.new`.
    Snapshot {
        dir: PathBuf,
        /// Accept new and changed snapshots.
        #[arg(long)]
        review: bool,
    },
    /// Measure runs per second: run SCENARIO over seeds 0..RUNS and print the rate.
    Bench {
        scenario: PathBuf,
        #[arg(long, default_value_t = 10_000)]
        runs: u64,
    },
    /// Explore every `.jsonc` scenario under DIR and check its `expect` section; exit 1 on a
    /// violated or undecided expectation.
    Check {
        dir: PathBuf,
        #[command(flatten)]
        bounds: Bounds,
    },
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
}

impl Bounds {
    fn options(&self) -> Result<webmcp::ExploreOptions, String> {
        let shard = cli::parse_shard(&self.shard)?;
        Ok(webmcp::ExploreOptions {
            reduction: if self.naive { webmcp::Reduction::None } else { webmcp::Reduction::Full },
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
            shortest_witnesses: !self.witnesses_as_found,
            inert_tasks: !self.no_inert_tasks,
            interrupt: None,
        })
    }
}

/// mimalloc (see `allocator`): exploration clones and drops many small states; the system
/// allocator costs a third of exploration time (measured with `bench-explore`).
#[global_allocator]
static GLOBAL: allocator::Allocator = allocator::Allocator;

fn main() -> ExitCode {
    let args = Args::parse();
    match args.command {
        Command::Fuzz(args) => fuzz::fuzz(&args),
        Command::FuzzParser(args) => fuzz::fuzz_parser(&args),
        Command::Explore { scenario, bounds, format } => {
            let options = match bounds.options() {
                Ok(o) => o,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            let program = match load_program(&scenario) {
                Ok(p) => p,
                Err(e) => return report_load_error(e),
            };
            let started = std::time::Instant::now();
            let result = match bounds.sample {
                Some(runs) => {
                    webmcp::sample::sample_pct(&program, runs, bounds.seed, bounds.pct_depth, bounds.max_units)
                }
                None => cli::with_progress(options, |options| webmcp::explore(&program, options)),
            };
            // Wall-clock time on stderr: the report itself stays byte-identical across machines.
            eprintln!("elapsed: {:.2} s", started.elapsed().as_secs_f64());
            match result {
                Ok(mut ex) => {
                    if let Err(e) = cli::mark_shard(&mut ex, &scenario) {
                        eprintln!("error: {e}");
                        return ExitCode::from(2);
                    }
                    match format {
                        FormatArg::Text => out(&ex.render_text(&scenario.display().to_string())),
                        FormatArg::Json => out(&ex.render_json()),
                        FormatArg::Markdown => {
                            let description = scenario::load(&scenario).map(|(s, _)| s.description).unwrap_or_default();
                            match cli::report::render_exploration_markdown(&program, &ex, &scenario, &description) {
                                Ok(text) => out(&text),
                                Err(e) => {
                                    eprintln!("error: {}: {e}", scenario.display());
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
                    eprintln!("error: {}: {e}", scenario.display());
                    ExitCode::from(1)
                }
            }
        }
        Command::Merge { parts, format } => match cli::merge_files(&parts) {
            Ok(ex) => {
                match format {
                    FormatArg::Text => out(&ex.render_text(&ex.scenario)),
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
        Command::Report { scenario, output, seeds, explore, max_units } => {
            write_report(&scenario, &output, (!explore).then_some(seeds.as_str()), max_units)
        }
        Command::Snapshot { dir, review } => {
            finish_dir_report(&dir, cli::snapshot::snapshot_dir(&dir, review).map(|r| (r.text, r.exit_code)))
        }
        Command::Run { scenario, seed, format, max_units } => one_run(&scenario, Driver::Seed(seed), format, max_units),
        Command::Replay { scenario, schedule, format, max_units } => {
            let schedule = match sched::Schedule::parse(&schedule) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: --schedule: {e}");
                    return ExitCode::from(2);
                }
            };
            one_run(&scenario, Driver::Replay(schedule), format, max_units)
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
                            scenario.display(),
                            audit.states,
                            audit.pairs,
                            audit.violations.len()
                        ));
                        for v in &audit.violations {
                            violated = true;
                            out(&format!("  {v}\n"));
                        }
                    }
                    Err(e) => {
                        eprintln!("error: {}: {e}", scenario.display());
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
                        eprintln!("error: {}: {e}", scenario.display());
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
                    println!("{}: {report}", scenario.display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {}: {e}", scenario.display());
                    ExitCode::from(1)
                }
            }
        }
        Command::Check { dir, bounds } => {
            let options = match bounds.options() {
                Ok(o) => o,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            finish_dir_report(&dir, check_dir(&dir, &options).map(|r| (r.text, r.exit_code)))
        }
    }
}

fn one_run(path: &Path, driver: Driver, format: RunFormatArg, max_units: usize) -> ExitCode {
    let format = match format {
        RunFormatArg::Text => Format::Text,
        RunFormatArg::Json => Format::Json,
        RunFormatArg::Markdown => return one_view(path, &driver, cli::report::View::Markdown, max_units),
        RunFormatArg::Perfetto => return one_view(path, &driver, cli::report::View::Perfetto, max_units),
    };
    let program = match load_program(path) {
        Ok(p) => p,
        Err(e) => return report_load_error(e),
    };
    match run_program(&program, &driver, format, max_units) {
        Ok(text) => {
            out(&text);
            if format == Format::Text {
                if let Some(schedule) = text.lines().last().and_then(|l| l.strip_prefix("schedule: ")) {
                    out(&format!("replay: webmcp-sim replay {} --schedule '{schedule}'\n", path.display()));
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            ExitCode::from(1)
        }
    }
}

/// One run rendered for people (Markdown) or their tools (Perfetto).
fn one_view(path: &Path, driver: &Driver, view: cli::report::View, max_units: usize) -> ExitCode {
    let loaded = match cli::report::load(path) {
        Ok(l) => l,
        Err(e) => return report_load_error(e),
    };
    match cli::report::run_trace(&loaded.program, driver, max_units) {
        Ok(trace) => {
            out(&cli::report::render_run(&trace, view, path, &loaded.description, driver));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            ExitCode::from(1)
        }
    }
}

/// `report`: groups the runs of a range of seeds (or, without seeds, an exploration) by outcome
/// and writes the HTML report.
fn write_report(path: &Path, output: &Path, seeds: Option<&str>, max_units: usize) -> ExitCode {
    let seeds = match seeds.map(cli::report::parse_seeds).transpose() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let loaded = match cli::report::load(path) {
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
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::from(1);
        }
    };
    let html = cli::report::render_report(&groups, path, &loaded.description, &runs, counted);
    if let Err(e) = std::fs::write(output, html) {
        eprintln!("error: {}: {e}", output.display());
        return ExitCode::from(2);
    }
    println!("{}: {} outcomes ({runs}) -> {}", path.display(), groups.len(), output.display());
    ExitCode::SUCCESS
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
            eprintln!("error: {}: {e}", dir.display());
            ExitCode::from(2)
        }
    }
}
