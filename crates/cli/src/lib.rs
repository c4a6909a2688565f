//! The command line's library half: loading scenarios, running them, and checking directories,
//! so tests drive exactly what the binary does.

use std::fmt;
use std::path::{Path, PathBuf};

use sched::{RandomChooser, Schedule};
use trace::escape::terminal;
use webmcp::{Limits, Program, RunError};

pub mod chromium;
pub mod diff;
mod error;
pub mod export;
mod load;
pub mod options;
pub mod prefix;
pub mod report;
pub mod snapshot;
pub mod wpt;

pub use error::{write_stdout, CliError};
pub use load::{
    known_findings, load, load_program, no_scenario, read_scenario, scenario_files, scenario_paths, scenarios_at,
    Loaded,
};

/// How a run picks among runnable lanes.
pub enum Driver {
    Seed(u64),
    Replay(Schedule),
    /// Replay a schedule prefix, then complete it with `prefix::DEFAULT`.
    Prefix(Schedule),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    Text,
    Json,
}

/// Runs a program and renders its trace.
pub fn run_program(program: &Program, driver: &Driver, format: Format, max_units: usize) -> Result<String, RunError> {
    let trace = report::run_trace(program, driver, max_units)?;
    Ok(match format {
        Format::Text => trace.render_text(),
        Format::Json => trace.render_json(),
    })
}

/// The result of `check`.
pub struct CheckReport {
    pub text: String,
    pub exit_code: u8,
}

/// Explores the scenario at `path`, or every scenario under the folder `path` ([`scenarios_at`]),
/// and checks its expectations.
///
/// Exit code 0 when every scenario loads, explores and meets its expectations; 1 when an
/// expectation is violated, cannot be decided (the search hit a bound), or a run fails; 2 when a
/// scenario does not load.
pub fn check_dir(path: &Path, options: &webmcp::ExploreOptions) -> std::io::Result<CheckReport> {
    check_dir_with(path, options, &[])
}

/// [`check_dir`] with every scenario's options changed (`check --parallel fifo`); the witness
/// commands carry the flags that reproduce the change.
pub fn check_dir_with(
    path: &Path,
    options: &webmcp::ExploreOptions,
    changes: &[options::Change],
) -> std::io::Result<CheckReport> {
    check_dir_knowing(path, options, changes, trace::known::shipped())
}

/// [`check_dir_with`] whose `findings` column counts the outcomes with a finding `known` does
/// not know (`check --known FILE`); the known ones are counted apart in the last line.
pub fn check_dir_knowing(
    path: &Path,
    options: &webmcp::ExploreOptions,
    changes: &[options::Change],
    known: &trace::known::Known,
) -> std::io::Result<CheckReport> {
    let files = scenarios_at(path)?;
    // A folder's scenarios are named from the folder; a file given alone, as given.
    let name_of = |file: &Path| {
        let name = file.strip_prefix(path).ok().filter(|n| !n.as_os_str().is_empty()).unwrap_or(file);
        terminal(&name.display().to_string())
    };
    let mut text = String::new();
    let mut details = String::new();
    let mut exit_code = 0;
    let width = files.iter().map(|f| name_of(f).len()).max().unwrap_or(8);
    text.push_str(&format!(
        "{:<width$}  {:>8}  {:>8}  {:>8}  {:>6}  result\n",
        "scenario", "states", "outcomes", "findings", "expect"
    ));
    let (mut total_states, mut violated, mut unknown, mut held) = (0u64, 0, 0, 0);
    let mut known_outcomes = 0;
    let stopped = || options.search.interrupt.as_ref().is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed));
    let mut checked = 0;
    for file in &files {
        if stopped() {
            break;
        }
        checked += 1;
        let name = name_of(file);
        let (program, flags) = match load(file, changes) {
            Ok(l) => (l.program, l.flags),
            Err(e) => {
                text.push_str(&format!(
                    "{name:<width$}  {:>8}  {:>8}  {:>8}  {:>6}  INVALID scenario\n",
                    "-", "-", "-", "-"
                ));
                details.push_str(&e.to_string());
                exit_code = 2;
                continue;
            }
        };
        let ex = match webmcp::explore(&program, options) {
            Ok(ex) => ex,
            Err(e) => {
                text.push_str(&format!(
                    "{name:<width$}  {:>8}  {:>8}  {:>8}  {:>6}  FAILED: {}\n",
                    "-",
                    "-",
                    "-",
                    "-",
                    terminal(&e.to_string())
                ));
                exit_code = exit_code.max(1);
                continue;
            }
        };
        total_states += ex.states;
        let verdicts = verdicts(file, &program, changes, &ex, options);
        let mut result =
            if ex.complete { "ok".to_string() } else { format!("incomplete ({})", ex.bounds_hit.join(", ")) };
        let findings = ex.outcomes.iter().filter(|o| !known.new_findings(&o.outcome.findings).is_empty()).count();
        known_outcomes +=
            ex.outcomes.iter().filter(|o| o.outcome.findings.iter().any(|f| known.id_of(f).is_some())).count();
        let mut ok = 0;
        for v in &verdicts {
            match &v.status {
                webmcp::expect::Status::Holds => ok += 1,
                webmcp::expect::Status::Unknown => {
                    unknown += 1;
                    if result != "VIOLATED" {
                        result = format!("UNKNOWN: the search is incomplete ({})", ex.bounds_hit.join(", "));
                    }
                    details.push_str(&format!(
                        "{}: {}: unknown (the search hit a bound)\n",
                        name,
                        terminal(&v.expectation)
                    ));
                }
                webmcp::expect::Status::Violated { reason, witness } => {
                    violated += 1;
                    result = "VIOLATED".into();
                    details.push_str(&format!(
                        "{}: {} is violated: {}\n",
                        name,
                        terminal(&v.expectation),
                        terminal(reason)
                    ));
                    if !witness.is_empty() {
                        let replay = trace::render::replay_command_with(&file.display().to_string(), &flags, witness);
                        details.push_str(&format!("  witness: {}\n", terminal(&replay)));
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
    let count = if checked < files.len() || stopped() {
        // Ctrl-C: the table is partial; the scenario it cut is incomplete ("Ctrl-C") and the rest
        // are not in it.
        exit_code = 130;
        format!("interrupted by Ctrl-C: {checked} of {}", files.len())
    } else {
        files.len().to_string()
    };
    text.push_str(&format!(
        "\n{count} scenarios, {total_states} states; expectations: {held} hold, {violated} violated, {unknown} unknown\n"
    ));
    if known_outcomes > 0 {
        text.push_str(&format!(
            "findings: new ones only; {known_outcomes} outcome(s) show a known finding (docs/findings.md), set apart\n"
        ));
    }
    if options.search.threads_share_a_table() {
        // The explorations' reports say so among their options; the table shows only counts.
        text.push_str(&format!(
            "(states vary from run to run with --jobs {}: the threads share one visited table)\n",
            options.search.jobs
        ));
    }
    if !details.is_empty() {
        text.push('\n');
        text.push_str(&details);
    }
    Ok(CheckReport { text, exit_code })
}

/// The verdict on each of the scenario's expectations (its `diff` ones explore it again).
pub fn verdicts(
    file: &Path,
    program: &webmcp::Program,
    changes: &[options::Change],
    ex: &trace::Exploration,
    options: &webmcp::ExploreOptions,
) -> Vec<webmcp::expect::Verdict> {
    let mut verdicts = program.expect.as_ref().map(|e| webmcp::expect::check(e, ex)).unwrap_or_default();
    if let Some(expect) = &program.expect {
        verdicts.extend(diff::check_expectations(file, changes, ex, expect, options));
    }
    verdicts
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

/// `--time-limit SECONDS`: a finite, positive number of seconds (NaN, infinities, zero and
/// negative numbers are errors, not panics).
pub fn parse_time_limit(seconds: f64) -> Result<std::time::Duration, String> {
    if !seconds.is_finite() || seconds <= 0.0 || seconds > 1e9 {
        return Err(format!("--time-limit {seconds}: write a number of seconds greater than 0, e.g. 30 or 0.5"));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

/// Reads shard results written by `explore --format json` and merges them.
pub fn merge_files(paths: &[PathBuf]) -> Result<trace::Exploration, String> {
    merge_files_keeping_digest(paths).map(|(merged, _)| merged)
}

/// The most bytes `merge` reads of one part: an exploration's JSON is larger than a scenario
/// (the largest shipped, four-calls-unload's, is about 2 MB), but a part is read whole before it
/// is parsed, so it is bounded like a scenario file is (`/dev/zero` or a FIFO cannot grow it).
pub const MAX_PART_BYTES: u64 = 64 << 20;

/// One `merge` part, parsed as it is read (never held whole as text), from at most
/// [`MAX_PART_BYTES`] + 1 bytes of the file: `/dev/zero`, a FIFO or a huge file cannot grow the
/// process past the part's own data.
fn read_part(path: &Path) -> Result<trace::Exploration, String> {
    use std::io::Read;
    /// Counts the bytes read through it.
    struct Counted<R> {
        inner: R,
        read: u64,
    }
    impl<R: Read> Read for Counted<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.inner.read(buf)?;
            self.read += n as u64;
            Ok(n)
        }
    }
    let shown = terminal(&path.display().to_string());
    let file = std::fs::File::open(path).map_err(|e| format!("{shown}: {e}"))?;
    let mut reader = Counted { inner: std::io::BufReader::new(file.take(MAX_PART_BYTES + 1)), read: 0 };
    let parsed = serde_json::from_reader(&mut reader);
    if reader.read > MAX_PART_BYTES {
        return Err(format!(
            "{shown}: larger than {} MiB, more than an exploration result `explore --format json` writes",
            MAX_PART_BYTES >> 20
        ));
    }
    parsed.map_err(|e| format!("{shown}: not an exploration result ({e}); write them with `explore --format json`"))
}

/// [`merge_files`], and the digest of the scenario file the shards explored (their options
/// record it; `None` for a whole exploration, which records none).
pub fn merge_files_keeping_digest(paths: &[PathBuf]) -> Result<(trace::Exploration, Option<String>), String> {
    let mut parts = Vec::new();
    for p in paths {
        parts.push(read_part(p)?);
    }
    check_shards(&parts)?;
    let mut merged = trace::Exploration::merge(&parts)?;
    let digest = merged.options.iter().find_map(|o| o.strip_prefix(SCENARIO_DIGEST)).map(str::to_string);
    merged.options.retain(|o| !o.starts_with(SCENARIO_DIGEST));
    Ok((merged, digest))
}

/// `merge --check`: the scenario's expectations decided over the merged exploration of all
/// `shards` parts, never over one shard. `scenario` must be the file the shards explored (the
/// digest they recorded); its `diff` expectations, which explore the scenario again, are left
/// undecided (exit 1), for `check` on one machine.
pub fn check_merged(
    merged: &trace::Exploration,
    scenario: &Path,
    digest: Option<&str>,
    shards: usize,
) -> Result<CheckReport, CliError> {
    let shown = terminal(&scenario.display().to_string());
    let bytes = std::fs::read(scenario).map_err(|e| CliError::input(format!("{shown}: {e}")))?;
    let Some(digest) = digest else {
        return Err(CliError::input(format!(
            "{shown}: the parts record no scenario digest (they are not shards of N > 1), so merge cannot tell that this is the file they explored"
        ))
        .hint(format!("check a whole exploration with `check {shown}`")));
    };
    if format!("{:032x}", browser::digest128(&bytes)) != digest {
        return Err(CliError::input(format!(
            "{shown}: not the file the shards explored (its bytes differ from the digest they recorded)"
        ))
        .hint("name the scenario file the shards explored with `merge --check --scenario FILE …`"));
    }
    let program = load_program(scenario)?;
    let Some(expect) = &program.expect else {
        return Ok(CheckReport {
            text: format!("\nexpectations over all {shards} shards: none (the scenario has no `expect` section)\n"),
            exit_code: 0,
        });
    };
    let mut text = format!("\nexpectations over all {shards} shards:\n");
    let (mut held, mut violated, mut unknown) = (0, 0, 0);
    for v in webmcp::expect::check(expect, merged) {
        let expectation = terminal(&v.expectation);
        match v.status {
            webmcp::expect::Status::Holds => {
                held += 1;
                text.push_str(&format!("  {expectation}: holds\n"));
            }
            webmcp::expect::Status::Unknown => {
                unknown += 1;
                text.push_str(&format!(
                    "  {expectation}: unknown (the search is incomplete: {})\n",
                    terminal(&merged.bounds_hit.join(", "))
                ));
            }
            webmcp::expect::Status::Violated { reason, witness } => {
                violated += 1;
                text.push_str(&format!("  {expectation}: VIOLATED: {}\n", terminal(&reason)));
                if !witness.is_empty() {
                    let replay = trace::render::replay_command_with(&scenario.display().to_string(), "", &witness);
                    text.push_str(&format!("    witness: {}\n", terminal(&replay)));
                }
            }
        }
    }
    for d in &expect.diff {
        unknown += 1;
        let with = serde_json::to_string(&d.with).unwrap_or_default();
        text.push_str(&format!(
            "  diff with {}: unknown (merge does not explore the other side; `check {shown}` on one machine does)\n",
            terminal(&with)
        ));
    }
    text.push_str(&format!("expectations: {held} hold, {violated} violated, {unknown} unknown\n"));
    Ok(CheckReport { text, exit_code: u8::from(violated + unknown > 0) })
}

/// What a shard's options say of the scenario file it explored (the digest of its bytes), so that
/// `merge` refuses shards of different files.
const SCENARIO_DIGEST: &str = "scenario-digest=";

/// A shard of N > 1 records the digest of its scenario file's bytes among its options.
pub fn mark_shard(ex: &mut trace::Exploration, scenario: &Path) -> Result<(), String> {
    if ex.shard == "1/1" {
        return Ok(());
    }
    let bytes = std::fs::read(scenario).map_err(|e| format!("{}: {e}", scenario.display()))?;
    ex.options.push(format!("{SCENARIO_DIGEST}{:032x}", browser::digest128(&bytes)));
    Ok(())
}

/// `merge` takes every shard 1..N of one exploration exactly once, or nothing.
fn check_shards(parts: &[trace::Exploration]) -> Result<(), String> {
    let mut n_seen: Option<u64> = None;
    let mut seen: Vec<u64> = Vec::new();
    for p in parts {
        let (k, n) = parse_shard(&p.shard).map_err(|_| format!("a part says shard {:?}, which is not K/N", p.shard))?;
        if n_seen.is_some_and(|m| m != n) {
            return Err(format!("the parts come from different splits (shards of {} and of {n})", n_seen.unwrap_or(0)));
        }
        n_seen = Some(n);
        if seen.contains(&k) {
            return Err(format!("shard {k}/{n} is given twice; give each shard 1..{n} once"));
        }
        seen.push(k);
    }
    let n = n_seen.unwrap_or(0);
    let missing: Vec<String> = (1..=n).filter(|k| !seen.contains(k)).map(|k| format!("{k}/{n}")).collect();
    if !missing.is_empty() {
        return Err(format!(
            "missing shard(s) {}: a merge of part of the shards would not be the whole exploration; run `explore --shard K/{n} --format json` for each",
            missing.join(", ")
        ));
    }
    Ok(())
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
    pub witness_pass: Result<(f64, String), String>,
    /// The search covered every schedule.
    pub complete: bool,
    /// The same scenario explored by the stateless search (one run, bounded), when asked.
    pub stateless: Option<StatelessBench>,
}

/// One bounded run of the stateless search (optimal DPOR; docs/model.md, "Stateless
/// exploration") on a benchmark scenario, beside the stateful search's numbers.
pub struct StatelessBench {
    /// Schedules run from the start, and those of them found equivalent to an earlier one
    /// (every lane asleep): optimal DPOR's redundant executions.
    pub executions: u64,
    pub redundant: u64,
    pub outcomes: usize,
    pub seconds: f64,
    pub complete: bool,
    pub bounds_hit: Vec<String>,
    /// Whether its outcome set equals the stateful search's (None: one of them is incomplete,
    /// so the two were not compared).
    pub same_outcomes: Option<bool>,
    /// The leaves of the sleep-set tree (`webmcp::explore::count_traces`: one complete leaf per
    /// trace where footprints do not depend on the order steps ran in), and the time the count
    /// took; or why there is no count.
    pub traces: Result<(webmcp::explore::Traces, f64), String>,
}

impl fmt::Display for StatelessBench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let redundant = 100.0 * self.redundant as f64 / self.executions.max(1) as f64;
        write!(
            f,
            "  stateless: {} executions ({} redundant, {redundant:.1} %), {} distinct outcomes, {:.4} s, {:.0} executions/s, {}; outcome set {}",
            self.executions,
            self.redundant,
            self.outcomes,
            self.seconds,
            self.executions as f64 / self.seconds.max(1e-9),
            if self.complete { "complete".to_string() } else { format!("incomplete ({})", self.bounds_hit.join(", ")) },
            match self.same_outcomes {
                Some(true) => "equal to the stateful search's",
                Some(false) => "DIFFERENT from the stateful search's",
                None => "not compared (a search is incomplete)",
            }
        )?;
        match &self.traces {
            Ok((t, seconds)) => write!(
                f,
                "\n  sleep-set tree: {}{} complete executions (one per trace where footprints do not depend on the order steps ran in) and {} with every lane asleep, counted over {} (state, sleep set) pairs in {seconds:.2} s{}",
                if t.finished { "" } else { "at least " },
                t.complete,
                t.blocked,
                t.pairs,
                match &t.bound {
                    Some(bound) => format!(", incomplete ({bound})"),
                    None => String::new(),
                }
            ),
            Err(why) => write!(f, "\n  sleep-set tree: not counted: {why}"),
        }
    }
}

impl fmt::Display for ExploreBench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ratio = match self.reduction {
            Some(r) => format!("{r:.1}x"),
            None => format!(
                ">= {:.1}x (naive stopped at its bound{})",
                self.naive_transitions as f64 / self.transitions.max(1) as f64,
                if interrupted() { " or by Ctrl-C" } else { "" }
            ),
        };
        let per_outcome = self.unique_states as f64 / self.outcomes.max(1) as f64;
        // The name is the scenario's text: escaped for the terminal (the rest is ours).
        writeln!(f, "{}:", terminal(&self.name))?;
        writeln!(
            f,
            "  {} distinct outcomes, {} states ({} expansions), {} transitions, {per_outcome:.1} states per outcome, {}",
            self.outcomes,
            self.unique_states,
            self.states,
            self.transitions,
            match (self.complete, interrupted()) {
                (true, _) => "complete",
                (false, true) => "incomplete (stopped by Ctrl-C)",
                (false, false) => "incomplete (a bound was hit)",
            },
        )?;
        writeln!(
            f,
            "  search {:.4} s (median of {} runs; fastest {:.4} s): {:.0} states/s, {:.0} transitions/s, {:.0} bytes/state",
            self.seconds,
            self.repetitions,
            self.fastest,
            self.unique_states as f64 / self.seconds,
            self.transitions as f64 / self.seconds,
            self.bytes_per_state,
        )?;
        writeln!(f, "  reduction vs naive {} ({} naive transitions)", ratio, self.naive_transitions)?;
        write!(
            f,
            "  witnesses {}",
            match &self.witness_pass {
                Ok((seconds, kind)) => format!("in {seconds:.4} s more: {kind}"),
                Err(why) => format!("not found: {why}"),
            }
        )?;
        if let Some(stateless) = &self.stateless {
            write!(f, "\n{stateless}")?;
        }
        Ok(())
    }
}

/// Explores `program` with reduction (timed) and naive (bounded by `naive_max_states`), on one
/// thread; then, when `stateless` gives its bounds, once with the stateless search.
pub fn bench_explore(
    program: &Program,
    naive_max_states: u64,
    stateless: Option<(u64, std::time::Duration)>,
) -> Result<ExploreBench, RunError> {
    // The search alone is timed; the witness pass once, after.
    // Ctrl-C stops the searches; the report then says they are incomplete ("Ctrl-C").
    let interrupt = Some(interrupt_flag());
    let options = webmcp::ExploreOptions {
        search: webmcp::SearchOptions { split_depth: 0, interrupt: interrupt.clone(), ..Default::default() },
        shortest_witnesses: false,
        ..Default::default()
    };
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
        if times.len() >= 5 && total >= 1.0 || interrupted() {
            break measured;
        }
    };
    times.sort_by(f64::total_cmp);
    let seconds = times[times.len() / 2].max(1e-9);
    let fastest = times[0].max(1e-9);
    let repetitions = times.len();
    let naive_options = webmcp::ExploreOptions {
        search: webmcp::SearchOptions {
            split_depth: 0,
            reduce: false,
            max_states: naive_max_states,
            interrupt,
            ..Default::default()
        },
        shortest_witnesses: false,
        ..Default::default()
    };
    let naive = webmcp::explore(program, &naive_options)?;
    // The witnesses as `explore` finds them, timed with the search, less the search's median.
    let start = std::time::Instant::now();
    let with_witnesses =
        webmcp::explore(program, &webmcp::ExploreOptions { shortest_witnesses: true, ..options.clone() })?;
    let witness_pass = Ok(((start.elapsed().as_secs_f64() - seconds).max(0.0), with_witnesses.witnesses));
    let reduction = naive.complete.then(|| naive.transitions as f64 / ex.transitions.max(1) as f64);
    let stateless = match stateless {
        None => None,
        Some((max_executions, time_limit)) => Some(bench_stateless(program, &ex, max_executions, time_limit)?),
    };
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
        complete: ex.complete,
        stateless,
    })
}

/// One run of the stateless search on `program`, bounded by `max_executions` and `time_limit`,
/// compared with the stateful search's exploration `stateful`.
fn bench_stateless(
    program: &Program,
    stateful: &trace::Exploration,
    max_executions: u64,
    time_limit: std::time::Duration,
) -> Result<StatelessBench, RunError> {
    let options = webmcp::ExploreOptions {
        search: webmcp::SearchOptions { max_executions, time_limit: Some(time_limit), ..Default::default() },
        shortest_witnesses: false,
        kind: webmcp::SearchKind::Stateless,
        kind_given: true,
        ..Default::default()
    };
    let start = std::time::Instant::now();
    let ex = webmcp::explore(program, &options)?;
    let seconds = start.elapsed().as_secs_f64();
    let keys = |e: &trace::Exploration| -> std::collections::BTreeSet<String> {
        e.outcomes.iter().map(|c| serde_json::to_string(&c.outcome.canonical()).unwrap_or_default()).collect()
    };
    let (executions, redundant) = ex.stateless.as_ref().map_or((0, 0), |s| (s.executions, s.redundant));
    // The sleep-set tree's leaves, with the same time limit and a bound of its own on the
    // (state, sleep set) pairs it keeps (about 60 bytes each).
    let count_options = webmcp::ExploreOptions {
        search: webmcp::SearchOptions {
            max_states: 20_000_000,
            time_limit: Some(time_limit),
            ..options.search.clone()
        },
        ..options.clone()
    };
    let start = std::time::Instant::now();
    let traces = match webmcp::explore::count_traces(program, &count_options) {
        Ok(t) => Ok((t, start.elapsed().as_secs_f64())),
        Err(RunError::Scenario(why)) => Err(why),
        Err(e) => return Err(e),
    };
    Ok(StatelessBench {
        executions,
        redundant,
        outcomes: ex.outcomes.len(),
        seconds,
        complete: ex.complete,
        bounds_hit: ex.bounds_hit.clone(),
        same_outcomes: (ex.complete && stateful.complete).then(|| keys(&ex) == keys(stateful)),
        traces,
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

/// The flag a Ctrl-C sets (the handler is installed once per process, the first time a command
/// asks for the flag: every exploring command gives it to its searches and loops).
pub fn interrupt_flag() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    static FLAG: std::sync::OnceLock<std::sync::Arc<std::sync::atomic::AtomicBool>> = std::sync::OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let set = flag.clone();
        // Without a handler (another one installed, or no signal support) Ctrl-C just ends the
        // process, as before.
        let _ = ctrlc::set_handler(move || set.store(true, std::sync::atomic::Ordering::Relaxed));
        flag
    })
    .clone()
}

/// True once Ctrl-C stopped a search: the caller prints the partial report and exits 130.
pub fn interrupted() -> bool {
    interrupt_flag().load(std::sync::atomic::Ordering::Relaxed)
}

/// What a running search shows, as the progress line says it (see `progress_line`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shown {
    pub states: u64,
    pub seconds: f64,
    pub outcomes: usize,
    /// `explore::Progress::fraction`.
    pub fraction: f64,
    /// Knuth's estimate of the unreduced tree's choice points, once known.
    pub tree: Option<f64>,
    /// The search is over (what runs now is the witness pass).
    pub over: bool,
}

/// The progress line: choice points, rate, outcomes so far, the fraction done as the search's
/// position suggests (`explore::fraction_done`: later subtrees expected to be like earlier
/// ones), and Knuth's estimate of the unreduced tree (state caching makes the search far
/// smaller than that tree).
pub fn progress_line(shown: &Shown) -> String {
    if shown.over {
        return format!(
            "searched {} choice points, {} outcomes; finding each outcome's fewest-choice witness (breadth-first)",
            shown.states, shown.outcomes
        );
    }
    let mut line = format!(
        "{} choice points, {:.0} per second, {} outcomes so far, about {:.1} % done (a guess from the search's position)",
        shown.states,
        shown.states as f64 / shown.seconds.max(1e-9),
        shown.outcomes,
        100.0 * shown.fraction
    );
    if let Some(tree) = shown.tree {
        line.push_str(&format!(
            "; unreduced tree about {tree:.1e} choice points (Knuth, {PROBES} random schedules; state caching searches far fewer)"
        ));
    }
    line
}

/// The random schedules Knuth's estimate of the tree runs.
const PROBES: u32 = 64;

/// Runs the search `f` with Ctrl-C stopping it (a partial report, marked incomplete) and its
/// progress on stderr (`progress_line`, with Knuth's estimate of the tree from `estimate`, run
/// on the display's thread): a live line on a terminal, otherwise a line every 5 seconds once a
/// search has run that long. Nothing reaches stdout, and nothing the display does changes the
/// search.
pub fn with_progress<T>(
    mut options: webmcp::ExploreOptions,
    estimate: impl Fn(&webmcp::ExploreOptions, u32) -> Option<f64> + Sync,
    f: impl FnOnce(&webmcp::ExploreOptions) -> T,
) -> T {
    use std::io::IsTerminal;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    options.search.interrupt = Some(interrupt_flag());
    let progress = Arc::new(webmcp::explore::Progress::default());
    options.search.progress = Some(progress.clone());
    let done = AtomicBool::new(false);
    let terminal = std::io::stderr().is_terminal();
    let bar = if terminal {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} exploring: {msg} ({elapsed}; Ctrl-C stops with a partial report)",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        Some(bar)
    } else {
        None
    };
    let result = std::thread::scope(|scope| {
        let (bar, done, shown_options, estimate) = (&bar, &done, &options, &estimate);
        scope.spawn(move || {
            let start = std::time::Instant::now();
            let mut last_line = start;
            let mut tree = None;
            while !done.load(Ordering::Relaxed) {
                let line_due = last_line.elapsed() >= std::time::Duration::from_secs(5);
                if tree.is_none() && (bar.is_some() || line_due) {
                    tree = Some(estimate(shown_options, PROBES));
                }
                let shown = Shown {
                    states: progress.states(),
                    seconds: start.elapsed().as_secs_f64(),
                    outcomes: progress.outcomes(),
                    fraction: progress.fraction(),
                    tree: tree.flatten(),
                    over: progress.over(),
                };
                match bar {
                    Some(bar) => {
                        bar.set_message(progress_line(&shown));
                        bar.tick();
                    }
                    None if line_due => {
                        eprintln!("exploring: {}, {:.0} s", progress_line(&shown), shown.seconds);
                        last_line = std::time::Instant::now();
                    }
                    None => {}
                }
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
        });
        // Done on return, and on a panic's unwinding: the display's thread ends either way, so
        // the scope can end and the panic reach the user instead of a hang.
        let _done = scopeguard::guard((), |()| done.store(true, Ordering::Relaxed));
        f(&options)
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    result
}
