//! `webmcp-sim fuzz` and `webmcp-sim fuzz-parser`: the property suite's generator and invariants
//! over any range of seeds, and hostile input for the scenario parser, for long CI runs.
//!
//! Each seed seeds proptest's `TestRunner` (ChaCha), which generates one scenario plan; the
//! scenario runs under random schedules and bounded exhaustive exploration with every invariant
//! of `webmcp::invariants` checked. A simulator bug is shrunk (proptest's shrinking, same seed)
//! to a minimal scenario written as `bug-<seed>-<invariant>.jsonc`; the first scenario that shows
//! each spec finding is shrunk the same way and written as `finding-<step>.jsonc`. Every file
//! starts with its `webmcp-sim replay` command.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use gen::check::{check_scenario, BugKind, CaseReport, CheckConfig};
use gen::plan::GenConfig;
use gen::{build, generate, minimize, Case};
use webmcp::invariants::{PendingReason, CALLER_IN_ANOTHER_TRAVERSABLE};
use webmcp::Limits;

use cli::CliError;

#[cfg(test)]
mod tests;

/// Arguments of `fuzz`.
#[derive(clap::Args, Clone, Debug)]
pub struct FuzzArgs {
    /// Seeds to generate scenarios from, as `A..B` (B excluded).
    #[arg(long, default_value = "0..100")]
    pub seeds: String,
    /// Most documents per scenario (1 to 4), across at most two tabs.
    #[arg(long, default_value_t = 3)]
    pub max_docs: usize,
    /// Most statements in a document's script.
    #[arg(long, default_value_t = 4)]
    pub max_statements: usize,
    /// Random schedules per scenario.
    #[arg(long, default_value_t = 8)]
    pub schedules: u64,
    /// Explore every schedule of a scenario up to this many choice points (0: do not explore).
    #[arg(long, default_value_t = 5_000)]
    pub explore_max_states: u64,
    /// Also explore without reduction up to this many choice points, and compare the outcome
    /// sets when both searches complete (0: do not).
    #[arg(long, default_value_t = 20_000)]
    pub naive_max_states: u64,
    /// Also explore with the stateless search (optimal DPOR) up to this many executions, and
    /// compare the outcome sets when both searches complete (0: do not).
    #[arg(long, default_value_t = 2_000)]
    pub stateless_max_executions: u64,
    /// Units per run before it counts as not ending.
    #[arg(long, default_value_t = 10_000)]
    pub max_units: usize,
    /// Shrinking steps per failing case or new finding (0: write cases unshrunk).
    #[arg(long, default_value_t = 2_000)]
    pub shrink_iters: u32,
    /// Where to write failing cases and findings as scenario files.
    #[arg(long, default_value = "fuzz-out")]
    pub out: PathBuf,
    /// The known findings, set apart and not shrunk (`ID | STEP | TEXT` lines; `none`: none).
    /// Default: the shipped list, docs/known-findings.txt (the findings docs/findings.md
    /// documents).
    #[arg(long, value_name = "FILE")]
    pub known: Option<PathBuf>,
}

/// Arguments of `fuzz-parser`.
#[derive(clap::Args, Clone, Debug)]
pub struct FuzzParserArgs {
    /// How many inputs to feed the parser.
    #[arg(long, default_value_t = 1_000_000)]
    pub inputs: u64,
    /// Seed of the input generator.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Also mutate the scenarios under this directory (e.g. `scenarios`): byte-level, and
    /// structure-aware (parsed, then parts deleted, duplicated, moved, retyped, renamed or made
    /// hostile strings), a third of the inputs.
    #[arg(long)]
    pub corpus: Option<PathBuf>,
}

/// What a fuzz run found, over all seeds.
#[derive(Default)]
pub struct FuzzReport {
    pub scenarios: u64,
    pub runs: u64,
    pub explored: u64,
    pub explored_complete: u64,
    /// Scenarios whose stateless exploration completed and was compared with the stateful one.
    pub stateless_compared: u64,
    /// Each bug: seed, kind, message, the case file.
    pub bugs: Vec<(u64, BugKind, String, Option<PathBuf>)>,
    /// Each finding by `cite: message`: scenarios showing it, first seed, the case file.
    pub findings: BTreeMap<String, (u64, u64, Option<PathBuf>)>,
    pub pending: BTreeMap<PendingReason, u64>,
    /// Leaked entries by role: scenarios showing one, first seed, the case file.
    pub leaks: BTreeMap<&'static str, (u64, u64, Option<PathBuf>)>,
    /// Known findings (`--known`) by finding and step: scenarios showing it, first seed.
    pub known: BTreeMap<(u32, String), (u64, u64)>,
    pub seconds: f64,
    /// The first seed not run, when Ctrl-C stopped the fuzzer (the report is partial).
    pub interrupted_at: Option<u64>,
}

impl FuzzArgs {
    fn gen(&self) -> GenConfig {
        GenConfig { max_docs: self.max_docs.clamp(1, 4), max_statements: self.max_statements, ..GenConfig::default() }
    }

    fn check(&self) -> CheckConfig {
        CheckConfig {
            schedules: self.schedules,
            limits: Limits { max_units: self.max_units },
            explore_max_states: self.explore_max_states,
            naive_max_states: self.naive_max_states,
            stateless_max_executions: self.stateless_max_executions,
            ..CheckConfig::default()
        }
    }
}

/// A file-name-safe slug of `text`.
fn slug(text: &str) -> String {
    let mut s: String = text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' { c } else { '-' }).collect();
    while s.contains("--") {
        s = s.replace("--", "-");
    }
    s.trim_matches('-').chars().take(60).collect()
}

/// Shrinks the plan of `seed` while `shows` holds of its report, and writes the smallest case
/// with the schedule `schedule_of` picks from its report.
fn shrink_and_write(
    args: &FuzzArgs,
    seed: u64,
    stem: &str,
    title: &str,
    shows: &dyn Fn(&CaseReport) -> bool,
    schedule_of: &dyn Fn(&CaseReport) -> Option<String>,
) -> Option<PathBuf> {
    let (gen, check) = (args.gen(), args.check());
    let report_of = |plan: &gen::Plan| check_scenario(&build(plan, "fuzz"), &check, seed);
    let plan = if args.shrink_iters > 0 {
        minimize(seed, gen, args.shrink_iters, |p| shows(&report_of(p))).unwrap_or_else(|| generate(seed, gen))
    } else {
        generate(seed, gen)
    };
    let name = format!("fuzz-{stem}");
    let scenario = build(&plan, &name);
    let report = check_scenario(&scenario, &check, seed);
    let case = Case {
        scenario,
        schedule: schedule_of(&report).unwrap_or_else(|| "-".into()),
        title: title.to_string(),
        details: vec![format!(
            "Found by `webmcp-sim fuzz --seeds {seed}..{} --max-docs {}`, then shrunk.",
            seed + 1,
            args.max_docs
        )],
    };
    match gen::write_case(&args.out, stem, &case) {
        Ok(path) => Some(path),
        Err(e) => {
            // The run goes on without this case's file; the error says which folder failed.
            eprint!("{}", CliError::input(format!("{}: {e}", args.out.display())));
            None
        }
    }
}

/// Runs the fuzzer over the seeds; `progress` gets a line now and then.
#[cfg(test)]
pub fn run_fuzz(args: &FuzzArgs, seeds: std::ops::Range<u64>, progress: &mut dyn FnMut(String)) -> FuzzReport {
    run_fuzz_knowing(args, seeds, trace::known::shipped(), progress)
}

/// [`run_fuzz`] with `known` findings set apart: counted, never shrunk nor written.
pub fn run_fuzz_knowing(
    args: &FuzzArgs,
    seeds: std::ops::Range<u64>,
    known: &trace::known::Known,
    progress: &mut dyn FnMut(String),
) -> FuzzReport {
    let start = Instant::now();
    let mut report = FuzzReport::default();
    let (gen, check) = (args.gen(), args.check());
    let mut next_progress = 100;
    for seed in seeds.clone() {
        if cli::interrupted() {
            // Ctrl-C: the report covers the seeds done so far and says so.
            report.interrupted_at = Some(seed);
            break;
        }
        let plan = generate(seed, gen);
        let case = check_scenario(&build(&plan, "fuzz"), &check, seed);
        report.scenarios += 1;
        report.runs += case.runs;
        if let Some((complete, _, _)) = case.explored {
            report.explored += 1;
            report.explored_complete += u64::from(complete);
        }
        report.stateless_compared += u64::from(case.stateless_compared);
        for (reason, n) in &case.pending {
            *report.pending.entry(*reason).or_default() += n;
        }
        let mut kinds: Vec<BugKind> = case.bugs.iter().map(|b| b.kind).collect();
        kinds.sort();
        kinds.dedup();
        for kind in kinds {
            let first = case.first_bug(Some(kind)).map(|b| b.message.clone()).unwrap_or_default();
            let stem = format!("bug-{seed}-{}", kind.name());
            let title = format!("simulator bug: {}: {first}", kind.name());
            let path = shrink_and_write(args, seed, &stem, &title, &|r| r.first_bug(Some(kind)).is_some(), &|r| {
                r.first_bug(Some(kind)).and_then(|b| b.schedule.clone())
            });
            report.bugs.push((seed, kind, first, path));
        }
        let mut known_here = std::collections::BTreeSet::new();
        for f in &case.findings {
            if let Some(id) = known.id_at(&f.cite.to_string(), &f.message) {
                known_here.insert((id, f.cite.to_string()));
                continue;
            }
            let key = format!("{}: {}", f.cite, f.message);
            if let Some(entry) = report.findings.get_mut(&key) {
                entry.0 += 1;
                continue;
            }
            let cite = f.cite.clone();
            let message = f.message.clone();
            let same =
                move |r: &CaseReport| r.findings.iter().find(|g| g.cite == cite && g.message == message).cloned();
            let path = shrink_and_write(
                args,
                seed,
                &format!("finding-{}", slug(&f.cite)),
                &format!("spec finding: {key}"),
                &|r| same(r).is_some(),
                &|r| same(r).map(|g| g.schedule),
            );
            report.findings.insert(key, (1, seed, path));
        }
        for key in known_here {
            report.known.entry(key).and_modify(|e| e.0 += 1).or_insert((1, seed));
        }
        let mut roles: Vec<&'static str> = case.leaks.iter().map(|(l, _)| l.role).collect();
        roles.dedup();
        for role in roles {
            if let Some(entry) = report.leaks.get_mut(role) {
                entry.0 += 1;
                continue;
            }
            let leak_of = move |r: &CaseReport| r.leaks.iter().find(|(l, _)| l.role == role).cloned();
            let title = if role == CALLER_IN_ANOTHER_TRAVERSABLE {
                "spec finding 13 (variant cross-traversable-execution): a pending tool executions map entry outlives \
                 its caller document in another traversable (its unloading cleanup steps iterate only the caller's \
                 traversable's map)"
                    .to_string()
            } else {
                format!(
                    "spec finding: a pending tool executions map entry outlives its {role} document (its unloading \
                     cleanup steps ran before executeTool 15.12 added it)"
                )
            };
            let name = format!("leak-{}", role.replace(' ', "-"));
            let path =
                shrink_and_write(args, seed, &name, &title, &|r| leak_of(r).is_some(), &|r| leak_of(r).map(|(_, s)| s));
            report.leaks.insert(role, (1, seed, path));
        }
        let done = seed - seeds.start + 1;
        if done >= next_progress {
            next_progress += 100;
            progress(format!(
                "{done} scenarios, {} runs, {} bugs, {} findings, {:.1} s",
                report.runs,
                report.bugs.len(),
                report.findings.len(),
                start.elapsed().as_secs_f64()
            ));
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    report
}

fn show(path: &Option<PathBuf>) -> String {
    path.as_ref().map_or_else(|| "(not written)".to_string(), |p| p.display().to_string())
}

/// The report as text.
pub fn render(args: &FuzzArgs, seeds: &std::ops::Range<u64>, r: &FuzzReport) -> String {
    let mut s = format!(
        "fuzz: seeds {}..{}, max-docs {}: {} scenarios, {} checked runs, {} explored ({} completely, {} of them also by the stateless search) in {:.1} s\n",
        seeds.start,
        seeds.end,
        args.max_docs,
        r.scenarios,
        r.runs,
        r.explored,
        r.explored_complete,
        r.stateless_compared,
        r.seconds
    );
    if let Some(seed) = r.interrupted_at {
        s.push_str(&format!(
            "interrupted by Ctrl-C: seeds {}..{seed} only, {} not run; the counts below are partial\n",
            seeds.start,
            seeds.end - seed
        ));
    }
    s.push_str(&format!("simulator bugs: {}\n", r.bugs.len()));
    for (seed, kind, message, path) in &r.bugs {
        s.push_str(&format!("  seed {seed}: {}: {message}\n    case: {}\n", kind.name(), show(path)));
    }
    s.push_str(&format!("new spec findings (failed spec asserts no known finding matches): {}\n", r.findings.len()));
    for (key, (n, seed, path)) in &r.findings {
        s.push_str(&format!("  {key}\n    in {n} scenario(s), first seed {seed}; case: {}\n", show(path)));
    }
    if !r.known.is_empty() {
        s.push_str("known findings (docs/findings.md; set apart, not shrunk):\n");
        for ((id, step), (n, seed)) in &r.known {
            s.push_str(&format!("  known (finding {id}): {step}: in {n} scenario(s), first seed {seed}\n"));
        }
    }
    s.push_str(&format!(
        "leaked pending tool executions (the note in cancel a pending tool execution 5 says this cannot happen): {}\n",
        r.leaks.len()
    ));
    for (role, (n, seed, path)) in &r.leaks {
        let what = if *role == CALLER_IN_ANOTHER_TRAVERSABLE {
            "caller in another traversable destroyed (finding 13: its cleanup steps never see the entry)".to_string()
        } else {
            format!("{role} destroyed first")
        };
        s.push_str(&format!("  {what}: in {n} scenario(s), first seed {seed}; case: {}\n", show(path)));
    }
    s.push_str("executeTool promises pending at quiescence, by named reason:\n");
    if r.pending.is_empty() {
        s.push_str("  none\n");
    }
    for (reason, n) in &r.pending {
        s.push_str(&format!("  {n:>7}  {reason}\n"));
    }
    for path in r.bugs.iter().filter_map(|b| b.3.as_ref()).chain(r.findings.values().filter_map(|f| f.2.as_ref())) {
        if let Ok(text) = std::fs::read_to_string(path) {
            if let Some(line) = text.lines().find(|l| l.starts_with("// replay: ")) {
                s.push_str(&format!("{}\n", line.trim_start_matches("// replay: ")));
            }
        }
    }
    s
}

/// `webmcp-sim fuzz`: exit 0 when no simulator bug was found, 1 otherwise, 2 on bad arguments.
pub fn fuzz(args: &FuzzArgs) -> Result<ExitCode, CliError> {
    let seeds = cli::report::parse_seeds(&args.seeds).map_err(CliError::input)?;
    let known = cli::known_findings(args.known.as_deref())?;
    let report = run_fuzz_knowing(args, seeds.clone(), &known, &mut |line| eprintln!("fuzz: {line}"));
    cli::write_stdout(&render(args, &seeds, &report))?;
    if report.interrupted_at.is_some() {
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::from(if report.bugs.is_empty() { 0 } else { 1 }))
}

/// `webmcp-sim fuzz-parser`: exit 0 when no input made the parser (or the engine, for inputs that
/// parse) panic, 1 otherwise.
pub fn fuzz_parser(args: &FuzzParserArgs) -> Result<ExitCode, CliError> {
    // Panics are caught and counted; their default message would flood the terminal.
    std::panic::set_hook(Box::new(|_| {}));
    let mut next_progress = 100_000;
    let shipped = match &args.corpus {
        Some(dir) => shipped_texts(dir).map_err(|e| {
            CliError::input(format!("--corpus {}: {e}", trace::escape::terminal(&dir.display().to_string())))
        })?,
        None => Vec::new(),
    };
    let report = gen::hostile::fuzz_parser_with(args.inputs, args.seed, &shipped, |r| {
        if r.inputs >= next_progress {
            next_progress += 100_000;
            eprintln!("fuzz-parser: {} inputs, {} panics, {:.1} s", r.inputs, r.panics.len(), r.elapsed.as_secs_f64());
        }
    });
    let _ = std::panic::take_hook();
    cli::write_stdout(&format!("{}\n", render_parser(args, &report)))?;
    for (family, input, message) in report.panics.iter().take(5) {
        cli::write_stdout(&format!("panic ({family}): {message}\n  input: {input:?}\n"))?;
    }
    Ok(ExitCode::from(if report.panics.is_empty() { 0 } else { 1 }))
}

/// The text of every scenario file under `dir`, in file order; none is an error.
fn shipped_texts(dir: &Path) -> std::io::Result<Vec<String>> {
    let files = cli::scenario_files(dir)?;
    if files.is_empty() {
        return Err(cli::no_scenario());
    }
    files.iter().map(|f| scenario::read_file(f).map_err(|d| std::io::Error::other(d.to_string()))).collect()
}

/// The parser fuzz report as text.
pub fn render_parser(args: &FuzzParserArgs, r: &gen::hostile::ParserFuzz) -> String {
    let families: Vec<String> = r.families.iter().map(|(f, n)| format!("{f} {n}")).collect();
    format!(
        "fuzz-parser: seed {}{}: {} inputs ({} MB; {}), {} parsed and validated, {} of those ran; {} panics; \
         slowest input {:.1} ms ({} bytes, {}); {:.1} s in all ({:.0} inputs/s)",
        args.seed,
        args.corpus.as_ref().map_or(String::new(), |d| format!(", corpus {}", d.display())),
        r.inputs,
        r.bytes / 1_000_000,
        families.join(", "),
        r.accepted,
        r.ran,
        r.panics.len(),
        r.slowest.0.as_secs_f64() * 1000.0,
        r.slowest.1,
        r.slowest.2,
        r.elapsed.as_secs_f64(),
        r.inputs as f64 / r.elapsed.as_secs_f64().max(1e-9)
    )
}

/// The scenario files a fuzz run wrote, for tests.
#[cfg(test)]
pub fn written(report: &FuzzReport) -> Vec<&Path> {
    let bugs = report.bugs.iter().filter_map(|b| b.3.as_deref());
    let findings = report.findings.values().filter_map(|f| f.2.as_deref());
    let leaks = report.leaks.values().filter_map(|l| l.2.as_deref());
    bugs.chain(findings).chain(leaks).collect()
}
