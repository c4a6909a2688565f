//! The command line's library half: loading scenarios, running them, and checking directories,
//! so tests drive exactly what the binary does.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use sched::{RandomChooser, ReplayChooser, Schedule};
use webmcp::{Limits, Program, RunError};

/// How a run picks among runnable lanes.
pub enum Driver {
    Seed(u64),
    Replay(Schedule),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    Text,
    Json,
}

/// A scenario that could not be loaded: every diagnostic, rendered against its source.
pub struct LoadError {
    pub rendered: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rendered)
    }
}

/// Reads, validates and compiles a scenario file.
pub fn load_program(path: &Path) -> Result<Program, LoadError> {
    let (scenario, source) = scenario::load(path).map_err(|diags| {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        LoadError { rendered: diags.iter().map(|d| format!("error: {}\n", d.render(&text))).collect() }
    })?;
    webmcp::compile(&scenario).map_err(|e| {
        let _ = source;
        LoadError { rendered: format!("error: {}: {e}\n", path.display()) }
    })
}

/// Runs a program and renders its trace.
pub fn run_program(program: &Program, driver: &Driver, format: Format, max_units: usize) -> Result<String, RunError> {
    let limits = Limits { max_units };
    let trace = match driver {
        Driver::Seed(seed) => webmcp::run(program, &mut RandomChooser::new(*seed), limits)?,
        Driver::Replay(schedule) => {
            let mut chooser = ReplayChooser::new(schedule);
            let trace = webmcp::run(program, &mut chooser, limits)?;
            if chooser.remaining() > 0 {
                return Err(RunError::Scenario(format!(
                    "the run finished with {} schedule choice(s) unused: the schedule is not from this scenario",
                    chooser.remaining()
                )));
            }
            trace
        }
    };
    Ok(match format {
        Format::Text => trace.render_text(),
        Format::Json => trace.render_json(),
    })
}

/// Every `.jsonc` file under `dir`, sorted.
pub fn scenario_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "jsonc") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The result of `check`.
pub struct CheckReport {
    pub text: String,
    pub exit_code: u8,
}

/// Runs every scenario under `dir` over `seeds`; counts distinct outcomes and findings.
/// Exit code 0 when every scenario loads and runs, 2 when one does not load, 1 when a run fails.
pub fn check_dir(dir: &Path, seeds: std::ops::Range<u64>) -> std::io::Result<CheckReport> {
    let files = scenario_files(dir)?;
    let mut text = String::new();
    let mut exit_code = 0;
    text.push_str(&format!("{:<50} {:>6} {:>9} {:>9}  status\n", "scenario", "runs", "outcomes", "findings"));
    for file in files {
        let name = file.strip_prefix(dir).unwrap_or(&file).display().to_string();
        let program = match load_program(&file) {
            Ok(p) => p,
            Err(e) => {
                text.push_str(&format!("{name:<50} {:>6} {:>9} {:>9}  invalid scenario\n{e}", 0, "-", "-"));
                exit_code = 2;
                continue;
            }
        };
        let mut outcomes: BTreeMap<String, (u64, String)> = BTreeMap::new();
        let mut findings = 0;
        let mut failure = None;
        for seed in seeds.clone() {
            match webmcp::run(&program, &mut RandomChooser::new(seed), Limits::default()) {
                Ok(trace) => {
                    if !trace.outcome.findings.is_empty() {
                        findings += 1;
                    }
                    let key = serde_json::to_string(&trace.outcome).unwrap_or_default();
                    outcomes.entry(key).or_insert((seed, trace.schedule.clone()));
                }
                Err(e) => {
                    failure = Some(format!("seed {seed}: {e}"));
                    break;
                }
            }
        }
        let status = match &failure {
            Some(f) => {
                exit_code = exit_code.max(1);
                format!("FAILED {f}")
            }
            None => "ok".to_string(),
        };
        text.push_str(&format!(
            "{name:<50} {:>6} {:>9} {:>9}  {status}\n",
            seeds.end - seeds.start,
            outcomes.len(),
            findings
        ));
    }
    Ok(CheckReport { text, exit_code })
}

/// Throughput of seeded runs, measured with the wall clock (reported, never asserted).
pub struct BenchReport {
    pub runs: u64,
    pub units: u64,
    pub seconds: f64,
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} runs, {} units in {:.3} s: {:.0} runs/s, {:.0} units/s",
            self.runs,
            self.units,
            self.seconds,
            self.runs as f64 / self.seconds,
            self.units as f64 / self.seconds
        )
    }
}

/// Runs `program` over seeds `0..runs` and measures the rate.
pub fn bench(program: &Program, runs: u64) -> Result<BenchReport, RunError> {
    let start = std::time::Instant::now();
    let mut units = 0;
    for seed in 0..runs {
        let trace = webmcp::run(program, &mut RandomChooser::new(seed), Limits::default())?;
        units += trace.units.len() as u64;
    }
    Ok(BenchReport { runs, units, seconds: start.elapsed().as_secs_f64().max(1e-9) })
}
