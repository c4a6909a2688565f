//! The command line's library half: loading scenarios, running them, and checking directories,
//! so tests drive exactly what the binary does.

use std::fmt;
use std::path::{Path, PathBuf};

use sched::{RandomChooser, Schedule};
use webmcp::{Limits, Program, RunError};

pub mod chromium;
pub mod report;
pub mod snapshot;

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
#[derive(Debug)]
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
        // A hostile file can hold tens of thousands of problems: show the first ones.
        const SHOWN: usize = 50;
        let mut rendered: String = diags.iter().take(SHOWN).map(|d| format!("error: {}\n", d.render(&text))).collect();
        if diags.len() > SHOWN {
            rendered.push_str(&format!("error: … and {} more problems in {}\n", diags.len() - SHOWN, path.display()));
        }
        LoadError { rendered }
    })?;
    webmcp::compile(&scenario).map_err(|e| {
        let _ = source;
        LoadError { rendered: format!("error: {}: {e}\n", path.display()) }
    })
}

/// Runs a program and renders its trace.
pub fn run_program(program: &Program, driver: &Driver, format: Format, max_units: usize) -> Result<String, RunError> {
    let trace = report::run_trace(program, driver, max_units)?;
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

/// Explores every scenario under `dir` and checks its expectations.
///
/// Exit code 0 when every scenario loads, explores and meets its expectations; 1 when an
/// expectation is violated, cannot be decided (the search hit a bound), or a run fails; 2 when a
/// scenario does not load.
pub fn check_dir(dir: &Path, options: &webmcp::ExploreOptions) -> std::io::Result<CheckReport> {
    let files = scenario_files(dir)?;
    let mut text = String::new();
    let mut details = String::new();
    let mut exit_code = 0;
    let width = files.iter().map(|f| f.strip_prefix(dir).unwrap_or(f).display().to_string().len()).max().unwrap_or(8);
    text.push_str(&format!(
        "{:<width$}  {:>8}  {:>8}  {:>8}  {:>6}  result\n",
        "scenario", "states", "outcomes", "findings", "expect"
    ));
    let (mut total_states, mut violated, mut unknown, mut held) = (0u64, 0, 0, 0);
    for file in &files {
        let name = file.strip_prefix(dir).unwrap_or(file).display().to_string();
        let program = match load_program(file) {
            Ok(p) => p,
            Err(e) => {
                text.push_str(&format!(
                    "{name:<width$}  {:>8}  {:>8}  {:>8}  {:>6}  INVALID scenario\n",
                    "-", "-", "-", "-"
                ));
                details.push_str(&e.rendered);
                exit_code = 2;
                continue;
            }
        };
        let ex = match webmcp::explore(&program, options) {
            Ok(ex) => ex,
            Err(e) => {
                text.push_str(&format!(
                    "{name:<width$}  {:>8}  {:>8}  {:>8}  {:>6}  FAILED: {e}\n",
                    "-", "-", "-", "-"
                ));
                exit_code = exit_code.max(1);
                continue;
            }
        };
        total_states += ex.states;
        let verdicts = program.expect.as_ref().map(|e| webmcp::expect::check(e, &ex)).unwrap_or_default();
        let mut result =
            if ex.complete { "ok".to_string() } else { format!("incomplete ({})", ex.bounds_hit.join(", ")) };
        let findings = ex.outcomes.iter().filter(|o| !o.outcome.findings.is_empty()).count();
        let mut ok = 0;
        for v in &verdicts {
            match &v.status {
                webmcp::expect::Status::Holds => ok += 1,
                webmcp::expect::Status::Unknown => {
                    unknown += 1;
                    if result != "VIOLATED" {
                        result = format!("UNKNOWN: the search is incomplete ({})", ex.bounds_hit.join(", "));
                    }
                    details.push_str(&format!("{name}: {}: unknown (the search hit a bound)\n", v.expectation));
                }
                webmcp::expect::Status::Violated { reason, witness } => {
                    violated += 1;
                    result = "VIOLATED".into();
                    details.push_str(&format!("{name}: {} is violated: {reason}\n", v.expectation));
                    if !witness.is_empty() {
                        details.push_str(&format!(
                            "  witness: webmcp-sim replay {} --schedule '{witness}'\n",
                            file.display()
                        ));
                    }
                }
            }
        }
        held += ok;
        if result != "ok" && !result.starts_with("incomplete") || (!ex.complete && !verdicts.is_empty()) {
            exit_code = exit_code.max(1);
        }
        let expect = if verdicts.is_empty() { "-".to_string() } else { format!("{ok}/{}", verdicts.len()) };
        text.push_str(&format!(
            "{name:<width$}  {:>8}  {:>8}  {:>8}  {:>6}  {result}\n",
            ex.states,
            ex.outcomes.len(),
            findings,
            expect
        ));
    }
    text.push_str(&format!(
        "\n{} scenarios, {total_states} states; expectations: {held} hold, {violated} violated, {unknown} unknown\n",
        files.len()
    ));
    if !details.is_empty() {
        text.push('\n');
        text.push_str(&details);
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

/// Reads `--shard K/N`.
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--shard {text:?}: write K/N with 1 <= K <= N, e.g. 2/4");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// Reads shard results written by `explore --format json` and merges them.
pub fn merge_files(paths: &[PathBuf]) -> Result<trace::Exploration, String> {
    let mut parts = Vec::new();
    for p in paths {
        let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
        let part: trace::Exploration = serde_json::from_str(&text).map_err(|e| {
            format!("{}: not an exploration result ({e}); write them with `explore --format json`", p.display())
        })?;
        parts.push(part);
    }
    trace::Exploration::merge(&parts)
}

/// What `bench-explore` measured for one scenario.
pub struct ExploreBench {
    pub name: String,
    /// Distinct states (fingerprints in the visited table).
    pub unique_states: u64,
    /// Choice points expanded (a state is expanded again when reached with a sleep set that
    /// is not a superset of its earlier one, or at a smaller depth after a depth cut).
    pub states: u64,
    pub transitions: u64,
    pub outcomes: usize,
    /// The median time of `repetitions` identical explorations.
    pub seconds: f64,
    /// The fastest of those runs.
    pub fastest: f64,
    pub repetitions: usize,
    /// Bytes of the visited-state table per state, measured at the table's real capacity
    /// (fingerprint, depth, sleep-set index, control byte; plus the stored sleep sets and the
    /// explorer's lane numbering table).
    pub bytes_per_state: f64,
    /// Transitions the naive search executes per transition of the reduced one (None when the
    /// naive search hit its bound: then the ratio is at least `naive_lower_bound`).
    pub reduction: Option<f64>,
    pub naive_transitions: u64,
    pub naive_complete: bool,
    /// The breadth-first pass that finds fewest-choice witnesses (`explore`'s default, not in
    /// the timed runs): its time, or why it kept the witnesses the search met.
    pub witness_pass: Result<f64, String>,
}

impl fmt::Display for ExploreBench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ratio = match self.reduction {
            Some(r) => format!("{r:.1}x"),
            None => format!(
                ">= {:.1}x (naive stopped at its bound)",
                self.naive_transitions as f64 / self.transitions.max(1) as f64
            ),
        };
        write!(
            f,
            "{}: {} unique states ({} expansions), {} transitions, {} outcomes in {:.4} s (median of {} runs): {:.0} unique states/s, {:.0} transitions/s (fastest run: {:.0} unique states/s), {:.0} bytes/state; reduction vs naive {} ({} naive transitions); fewest-choice witnesses {}",
            self.name,
            self.unique_states,
            self.states,
            self.transitions,
            self.outcomes,
            self.seconds,
            self.repetitions,
            self.unique_states as f64 / self.seconds,
            self.transitions as f64 / self.seconds,
            self.unique_states as f64 / self.fastest,
            self.bytes_per_state,
            ratio,
            self.naive_transitions,
            match &self.witness_pass {
                Ok(seconds) => format!("in {seconds:.4} s more"),
                Err(why) => format!("not found: {why}"),
            }
        )
    }
}

/// Explores `program` with reduction (timed) and naive (bounded by `naive_max_states`), on one thread.
pub fn bench_explore(program: &Program, naive_max_states: u64) -> Result<ExploreBench, RunError> {
    // The search alone is timed; the witness pass once, after.
    let options = webmcp::ExploreOptions { split_depth: 0, shortest_witnesses: false, ..Default::default() };
    // Repeat the timed exploration (at least 5 times and 1 s) and take the median time, so one
    // slow run (page faults, a busy neighbour) does not decide the number.
    let mut times = Vec::new();
    let mut total = 0.0;
    let (ex, memory) = loop {
        let start = std::time::Instant::now();
        let measured = webmcp::explore::explore_measured(program, &options)?;
        let seconds = start.elapsed().as_secs_f64();
        times.push(seconds);
        total += seconds;
        if times.len() >= 5 && total >= 1.0 {
            break measured;
        }
    };
    times.sort_by(f64::total_cmp);
    let seconds = times[times.len() / 2].max(1e-9);
    let fastest = times[0].max(1e-9);
    let repetitions = times.len();
    let naive_options = webmcp::ExploreOptions {
        split_depth: 0,
        reduction: webmcp::Reduction::None,
        max_states: naive_max_states,
        shortest_witnesses: false,
        ..Default::default()
    };
    let naive = webmcp::explore(program, &naive_options)?;
    let mut shortened = ex.clone();
    let start = std::time::Instant::now();
    let witness_pass =
        webmcp::explore::shortest_witnesses(program, &options, &mut shortened)?.map(|()| start.elapsed().as_secs_f64());
    let reduction = naive.complete.then(|| naive.transitions as f64 / ex.transitions.max(1) as f64);
    Ok(ExploreBench {
        name: ex.scenario.clone(),
        unique_states: memory.states,
        states: ex.states,
        transitions: ex.transitions,
        outcomes: ex.outcomes.len(),
        seconds,
        fastest,
        repetitions,
        bytes_per_state: memory.bytes_per_state(),
        reduction,
        naive_transitions: naive.transitions,
        naive_complete: naive.complete,
        witness_pass,
    })
}

/// The process's peak resident set size, from /proc (Linux), as text.
pub fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l.trim_start_matches("VmHWM:").trim().to_string())
        })
        .unwrap_or_else(|| "unknown (no /proc/self/status)".to_string())
}

/// Runs `f` with a progress spinner on stderr when stderr is a terminal (silent otherwise).
pub fn with_progress<T>(mut options: webmcp::ExploreOptions, f: impl FnOnce(&webmcp::ExploreOptions) -> T) -> T {
    use std::io::IsTerminal;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::Arc;
    if !std::io::stderr().is_terminal() {
        return f(&options);
    }
    let counter = Arc::new(AtomicU64::new(0));
    options.progress = Some(counter.clone());
    let done = Arc::new(AtomicBool::new(false));
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} exploring: {msg} states ({elapsed})")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    let ticker = {
        let (bar, counter, done) = (bar.clone(), counter.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                bar.set_message(counter.load(Ordering::Relaxed).to_string());
                bar.tick();
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
        })
    };
    let result = f(&options);
    done.store(true, Ordering::Relaxed);
    let _ = ticker.join();
    bar.finish_and_clear();
    result
}
