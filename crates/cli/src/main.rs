//! `webmcp-sim`: run a scenario with a seed, replay a schedule, or check a directory of scenarios.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use cli::{check_dir, load_program, run_program, Driver, Format, LoadError};

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
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario once, choosing among runnable lanes with a seeded random chooser.
    Run {
        scenario: PathBuf,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long, value_enum, default_value = "text")]
        format: FormatArg,
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
        format: FormatArg,
        #[arg(long, default_value_t = 10_000)]
        max_units: usize,
    },
    /// Measure runs per second: run SCENARIO over seeds 0..RUNS and print the rate.
    Bench {
        scenario: PathBuf,
        #[arg(long, default_value_t = 10_000)]
        runs: u64,
    },
    /// Run every `.jsonc` scenario under DIR over a range of seeds and summarize the outcomes.
    Check {
        dir: PathBuf,
        /// Seeds to run, as `A..B` (B excluded).
        #[arg(long, default_value = "0..100")]
        seeds: String,
    },
}

fn main() -> ExitCode {
    let args = Args::parse();
    match args.command {
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
        Command::Check { dir, seeds } => {
            let Some((a, b)) = parse_range(&seeds) else {
                eprintln!("error: --seeds {seeds:?}: write a range like 0..100");
                return ExitCode::from(2);
            };
            match check_dir(&dir, a..b) {
                Ok(report) => {
                    print!("{}", report.text);
                    ExitCode::from(report.exit_code)
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

fn parse_range(text: &str) -> Option<(u64, u64)> {
    let (a, b) = text.split_once("..")?;
    let (a, b) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
    (a < b).then_some((a, b))
}

fn one_run(path: &Path, driver: Driver, format: FormatArg, max_units: usize) -> ExitCode {
    let program = match load_program(path) {
        Ok(p) => p,
        Err(e) => return report_load_error(e),
    };
    let format = match format {
        FormatArg::Text => Format::Text,
        FormatArg::Json => Format::Json,
    };
    match run_program(&program, &driver, format, max_units) {
        Ok(text) => {
            print!("{text}");
            if format == Format::Text {
                if let Some(schedule) = text.lines().last().and_then(|l| l.strip_prefix("schedule: ")) {
                    println!("replay: webmcp-sim replay {} --schedule '{schedule}'", path.display());
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

fn report_load_error(e: LoadError) -> ExitCode {
    eprint!("{e}");
    ExitCode::from(2)
}
