//! `webmcp-sim chromium`: runs scenarios in real headless Chromium (WebMCP enabled) and checks
//! each observed run against the explored outcome set, projected onto what each document can
//! observe (`view`). A run outside the spec's set but inside the `chromium` profile's set (the
//! simulator with the variants that model Chromium's known divergences) is a documented
//! divergence; one outside both is a finding. docs/chromium.md explains it and holds the table.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use crate::CliError;
use trace::escape::terminal;

use scenario::Variant;

pub mod plan;
pub mod view;

#[cfg(test)]
mod tests;

use view::View;

/// The variants that model Chromium's known divergences from the spec text (docs/chromium.md).
pub const CHROMIUM_PROFILE: &[Variant] = &[
    Variant::ChromiumRawStringResult,
    Variant::ChromiumUndefinedResultString,
    Variant::ChromiumNameBeforeDuplicate,
    Variant::ChromiumAnnotationsDebugging,
];

/// How to run.
#[derive(Clone, Debug)]
pub struct Options {
    pub runs: u32,
    pub jitter_ms: u64,
    /// Real milliseconds per virtual millisecond.
    pub scale: f64,
    pub chromium: PathBuf,
    pub driver: PathBuf,
    pub seed: u64,
    /// Wall-clock limit of each of the simulator's searches (the spec's set, the profile's): a
    /// search it stops is incomplete, and the report says "outside" may be a bound.
    pub time_limit: Option<std::time::Duration>,
    /// `--log DIR`: every scenario's plan and every run's driver output (end, log, records) are
    /// written there, whatever the verdict ([`write_log`]).
    pub log_dir: Option<PathBuf>,
}

/// The driver shipped with the workspace.
pub fn default_driver() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/chromium-driver/driver.mjs")
}

/// Where one observed outcome falls.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Verdict {
    InsideSpec,
    /// Outside the spec's set, inside the chromium profile's: a documented Chromium divergence.
    InsideProfile,
    Outside,
}

impl Verdict {
    fn text(self) -> &'static str {
        match self {
            Verdict::InsideSpec => "inside spec",
            Verdict::InsideProfile => "outside spec, inside chromium profile",
            Verdict::Outside => "OUTSIDE spec and chromium profile",
        }
    }
}

/// One distinct observed outcome of a scenario's runs.
pub struct Observed {
    pub view: View,
    pub runs: u32,
    pub verdict: Verdict,
    /// For an outside one: the nearest simulated outcome (spec set) and its replay schedule.
    pub nearest: Option<(View, String)>,
    /// The Chromium log of its first run.
    pub log: Vec<String>,
    /// For one inside the chromium profile only: the profile's variants that explain it alone
    /// (each one's explored set holds it); empty when only their combination does.
    pub explained_by: Vec<Variant>,
}

/// What happened to one scenario.
pub enum Result_ {
    CannotRun(String),
    Ran {
        observed: Vec<Observed>,
        runs: u32,
        quiescent: u32,
        timeouts: u32,
        errors: u32,
        spec_outcomes: usize,
        complete: bool,
        quiet_ms: u64,
        timeout_ms: u64,
        /// The scenario's `restoreFromBfcache` user steps (per run).
        restores: u32,
        /// Runs in which fewer pages were restored from the back/forward cache
        /// (`pageshow.persisted`) than the scenario has `restoreFromBfcache` steps: such a run
        /// reloaded a page instead and did not test the cache.
        not_restored: u32,
        /// Each event loop's start delay bound, and why it is less than `--jitter` when it is
        /// (`plan::start_jitter`).
        start_jitter_ms: u64,
        jitter_cut: Option<String>,
        /// Runs that did not realize the scenario (an event loop's start landed too late or
        /// not at all; tools/chromium-driver/driver.mjs): counted in `runs`, not judged, so not
        /// in `observed`. With the first one's reason and log.
        not_judged: u32,
        not_judged_first: Option<(String, Vec<String>)>,
    },
}

pub struct ScenarioResult {
    pub path: PathBuf,
    pub result: Result_,
}

impl ScenarioResult {
    /// Counts of runs per verdict.
    pub fn counts(&self) -> (u32, u32, u32) {
        let mut c = (0, 0, 0);
        if let Result_::Ran { observed, .. } = &self.result {
            for o in observed {
                match o.verdict {
                    Verdict::InsideSpec => c.0 += o.runs,
                    Verdict::InsideProfile => c.1 += o.runs,
                    Verdict::Outside => c.2 += o.runs,
                }
            }
        }
        c
    }
}

/// The simulated event loop of each initial document, from one run's legend.
pub fn event_loops(program: &webmcp::Program) -> Result<BTreeMap<String, String>, String> {
    let trace = webmcp::run(program, &mut sched::FirstChooser, webmcp::Limits::default()).map_err(|e| e.to_string())?;
    Ok(trace.documents.iter().map(|d| (d.label.clone(), d.event_loop.clone())).collect())
}

/// For a scenario of JavaScript pages, whose timers the plan cannot read from its text: the
/// virtual times at which one simulated run (the first choice at every point) ran its units. The
/// plan takes them as the scenario's moments (the start jitter, the start slack and the wait
/// for quiescence are sized from them; docs/chromium.md, "JavaScript pages"). Empty for the
/// action language.
pub fn moments(program: &webmcp::Program, scenario: &scenario::model::Scenario) -> Result<Vec<u64>, String> {
    if !plan::is_javascript(scenario) {
        return Ok(Vec::new());
    }
    let trace = webmcp::run(program, &mut sched::FirstChooser, webmcp::Limits::default()).map_err(|e| e.to_string())?;
    let mut times: Vec<u64> = trace.units.iter().map(|u| u.time).collect();
    times.sort_unstable();
    times.dedup();
    Ok(times)
}

/// The program with the chromium profile's variants on.
pub fn profile(program: &webmcp::Program) -> webmcp::Program {
    let mut p = program.clone();
    for &v in CHROMIUM_PROFILE {
        if !p.has_variant(v) {
            p.variants.push(v);
        }
    }
    p
}

/// Runs one scenario in Chromium and classifies what it observed. `Err` is bad input (a
/// scenario that does not load) or a setup problem (no Node, no driver): the caller stops with
/// exit 2.
pub fn check_scenario(path: &Path, opts: &Options) -> Result<ScenarioResult, CliError> {
    let done = |result| Ok(ScenarioResult { path: path.to_path_buf(), result });
    let crate::Loaded { program, scenario, .. } = crate::load(path, &[])?;
    let loops = match event_loops(&program) {
        Ok(l) => l,
        Err(e) => return done(Result_::CannotRun(format!("the simulator cannot run it: {e}"))),
    };
    let timing = plan::Timing { scale: opts.scale, jitter_ms: opts.jitter_ms };
    let moments = match moments(&program, &scenario) {
        Ok(m) => m,
        Err(e) => return done(Result_::CannotRun(format!("the simulator cannot run it: {e}"))),
    };
    let plan = match plan::compile(&scenario, &loops, timing, &moments) {
        Ok(p) => p,
        Err(reason) => return done(Result_::CannotRun(reason)),
    };
    let mut explore_options = webmcp::ExploreOptions::default();
    explore_options.search.time_limit = opts.time_limit;
    let explored = webmcp::explore(&program, &explore_options)
        .and_then(|spec| Ok((spec, webmcp::explore(&profile(&program), &explore_options)?)));
    let (spec, chromium) = match explored {
        Ok(both) => both,
        Err(e) => return done(Result_::CannotRun(format!("the simulator cannot explore it: {e}"))),
    };
    // A scenario of JavaScript pages is compared on what its pages' instrumentation records
    // (chromium/jspage.js): every WebMCP promise, uncaught errors by name.
    let of_outcome = if plan::is_javascript(&scenario) { View::of_js_outcome } else { View::of_outcome };
    let spec_views: Vec<(View, String)> =
        spec.outcomes.iter().map(|o| (of_outcome(&o.outcome), o.witness.clone())).collect();
    let profile_views: Vec<View> = chromium.outcomes.iter().map(|o| of_outcome(&o.outcome)).collect();
    // Each variant of the profile alone, explored only when a run needs it explained.
    let mut single: Option<Vec<(Variant, Vec<View>)>> = None;
    let mut explain = |view: &View| -> Vec<Variant> {
        let sets = single.get_or_insert_with(|| {
            CHROMIUM_PROFILE
                .iter()
                .filter(|v| !program.has_variant(**v))
                .filter_map(|&v| {
                    let mut p = program.clone();
                    p.variants.push(v);
                    let explored = webmcp::explore(&p, &explore_options).ok()?;
                    Some((v, explored.outcomes.iter().map(|o| of_outcome(&o.outcome)).collect()))
                })
                .collect()
        });
        sets.iter().filter(|(_, views)| views.contains(view)).map(|(v, _)| *v).collect()
    };

    let restores = restores(&plan.json);
    let mut json = plan.json.clone();
    json["chromium"] = opts.chromium.display().to_string().into();
    json["runs"] = opts.runs.into();
    json["seed"] = opts.seed.into();
    let output = drive(&opts.driver, &json).map_err(CliError::input)?;
    if let Some(dir) = &opts.log_dir {
        write_log(dir, path, &json, &output)?;
    }
    let runs = output["runs"].as_array().cloned().unwrap_or_default();
    let mut by_view: BTreeMap<View, (u32, Vec<String>)> = BTreeMap::new();
    let (mut quiescent, mut timeouts, mut errors, mut not_restored) = (0, 0, 0, 0);
    let (mut not_judged, mut not_judged_first) = (0, None);
    for run in &runs {
        match run["end"]["kind"].as_str() {
            Some("quiescent") => quiescent += 1,
            Some("timeout") => timeouts += 1,
            _ => errors += 1,
        }
        let log: Vec<String> = run["log"]
            .as_array()
            .map(|l| l.iter().filter_map(|x| x.as_str().map(String::from)).collect())
            .unwrap_or_default();
        // A run whose event loops did not all start as the plan says observed some other
        // scenario: reported, never judged inside or outside.
        if let Some(why) = run["unrealized"].as_str() {
            not_judged += 1;
            not_judged_first.get_or_insert_with(|| (why.to_string(), log));
            continue;
        }
        let records = run["records"].as_array().cloned().unwrap_or_default();
        if records.iter().filter(|r| r["k"] == "restored").count() < restores as usize {
            not_restored += 1;
        }
        let view = View::of_records(&records);
        let entry = by_view.entry(view).or_insert_with(|| (0, log));
        entry.0 += 1;
    }
    let observed = by_view
        .into_iter()
        .map(|(view, (runs, log))| {
            let verdict = if spec_views.iter().any(|(v, _)| *v == view) {
                Verdict::InsideSpec
            } else if profile_views.contains(&view) {
                Verdict::InsideProfile
            } else {
                Verdict::Outside
            };
            let nearest = (verdict != Verdict::InsideSpec)
                .then(|| spec_views.iter().min_by_key(|(v, _)| v.distance(&view)).cloned())
                .flatten();
            let explained_by = if verdict == Verdict::InsideProfile { explain(&view) } else { Vec::new() };
            Observed { view, runs, verdict, nearest, log, explained_by }
        })
        .collect();
    done(Result_::Ran {
        observed,
        runs: runs.len() as u32,
        quiescent,
        timeouts,
        errors,
        spec_outcomes: spec.outcomes.len(),
        complete: spec.complete && chromium.complete,
        quiet_ms: plan.quiet_ms,
        timeout_ms: plan.timeout_ms,
        restores,
        not_restored,
        start_jitter_ms: plan.start_jitter_ms,
        jitter_cut: plan.jitter_cut,
        not_judged,
        not_judged_first,
    })
}

/// The number of `restoreFromBfcache` user steps in a plan: each should restore a page from the
/// back/forward cache in every run.
fn restores(plan: &serde_json::Value) -> u32 {
    plan["user"].as_array().map_or(0, |u| u.iter().filter(|s| s["kind"] == "restoreFromBfcache").count() as u32)
}

/// Runs the Node driver with `plan` on stdin; its JSON result.
pub(crate) fn drive(driver: &Path, plan: &serde_json::Value) -> Result<serde_json::Value, String> {
    if !driver.exists() {
        return Err(format!("the Chromium driver {} does not exist", driver.display()));
    }
    let modules = driver.parent().map(|d| d.join("node_modules/playwright-core")).unwrap_or_default();
    if !modules.exists() {
        return Err(format!(
            "{} is missing\n  hint: install the driver's dependencies: npm ci --prefix {}",
            modules.display(),
            driver.parent().map(|d| d.display().to_string()).unwrap_or_default()
        ));
    }
    let mut child = Command::new("node")
        .arg(driver)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start node: {e}\n  hint: install Node.js (apt-get install nodejs npm)"))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(plan.to_string().as_bytes()).map_err(|e| format!("writing the plan to the driver: {e}"))?;
    }
    // The pipes are read while the driver runs, so a full pipe never stalls it.
    let (stdout, stderr) = (drain(child.stdout.take()), drain(child.stderr.take()));
    let limit = driver_limit(plan);
    let started = std::time::Instant::now();
    let status = loop {
        match child.try_wait().map_err(|e| format!("the driver: {e}"))? {
            Some(status) => break status,
            None if started.elapsed() >= limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "the Chromium driver did not finish within {} s and was stopped (each run has a hard deadline, so the browser itself did not answer)\n  hint: run `webmcp-sim chromium` on this scenario alone with --runs 1 and read the driver's log",
                    limit.as_secs()
                ));
            }
            None => std::thread::sleep(std::time::Duration::from_millis(50)),
        }
    };
    let (stdout, stderr) = (stdout.join().unwrap_or_default(), stderr.join().unwrap_or_default());
    if !status.success() {
        return Err(format!("the Chromium driver failed ({status}):\n{}", String::from_utf8_lossy(&stderr)));
    }
    serde_json::from_slice(&stdout).map_err(|e| format!("the driver's output is not JSON ({e})"))
}

/// Reads a child's pipe to its end on a thread of its own.
fn drain<R: std::io::Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// How long the driver may take for a plan: each run's hard deadline (twice its timeout, for
/// loading and then the scenario, plus `hardMarginMs`, 30 s unless the plan says;
/// tools/chromium-driver/driver.mjs), plus a minute
/// for starting and closing the browser.
fn driver_limit(plan: &serde_json::Value) -> std::time::Duration {
    let runs = plan["runs"].as_u64().unwrap_or(1);
    let timeout_ms = plan["timeoutMs"].as_u64().unwrap_or(60_000);
    let margin_ms = plan["hardMarginMs"].as_u64().unwrap_or(30_000);
    std::time::Duration::from_millis(
        runs.saturating_mul(timeout_ms.saturating_mul(2).saturating_add(margin_ms)).saturating_add(60_000),
    )
}

/// The text report of one scenario.
pub fn render(r: &ScenarioResult, opts: &Options) -> String {
    let mut out = String::new();
    let name = terminal(&r.path.display().to_string());
    match &r.result {
        Result_::CannotRun(reason) => {
            let _ = writeln!(out, "{name}: cannot run: {reason} (skipped, not counted as passed)");
        }
        Result_::Ran {
            observed,
            runs,
            quiescent,
            timeouts,
            errors,
            spec_outcomes,
            complete,
            quiet_ms,
            timeout_ms,
            restores,
            not_restored,
            start_jitter_ms,
            jitter_cut,
            not_judged,
            not_judged_first,
        } => {
            let (spec, prof, outside) = r.counts();
            let _ = writeln!(
                out,
                "{name}: {runs} runs, {} distinct observed outcome(s); inside spec {spec}, outside spec but inside chromium profile {prof}, outside both {outside}",
                observed.len()
            );
            let _ = writeln!(
                out,
                "  explored: {spec_outcomes} outcome(s) under the spec{}; time: 1 virtual ms = {} real ms; jitter up to {} ms (event loop starts: up to {start_jitter_ms} ms)",
                if *complete { "" } else { " (search INCOMPLETE: \"outside\" may be a bound)" },
                opts.scale,
                opts.jitter_ms
            );
            if let Some(why) = jitter_cut {
                let _ = writeln!(out, "  warning: {name}: {why}");
            }
            let _ = writeln!(
                out,
                "  ends: {quiescent} quiescent (no record for {quiet_ms} ms, no timer pending), {timeouts} at the {timeout_ms} ms timeout, {errors} driver error(s)"
            );
            if let Some((why, log)) = not_judged_first {
                let _ = writeln!(
                    out,
                    "  not judged: {not_judged} run(s) did not realize the scenario, so they are counted neither inside nor outside; the first: {}",
                    terminal(why)
                );
                let _ = writeln!(out, "    Chromium log of that run:");
                for line in log {
                    let _ = writeln!(out, "      {}", terminal(line));
                }
            }
            if *restores > 0 {
                let restored = runs - not_restored - not_judged;
                let _ = writeln!(
                    out,
                    "  back/forward cache: in {restored} of {runs} run(s) every restoreFromBfcache step restored its page from the cache (pageshow.persisted){}",
                    if *not_restored > 0 {
                        "; WARNING: the others reloaded a page, so they did not test the cache (the driver's log says why)"
                    } else {
                        ""
                    }
                );
            }
            for o in observed {
                let because = match (o.verdict, o.explained_by.as_slice()) {
                    (Verdict::InsideProfile, []) => {
                        " (no variant of the profile alone explains it, only their combination)".to_string()
                    }
                    (Verdict::InsideProfile, vs) => format!(
                        " (explained by the variant{} {})",
                        if vs.len() > 1 { "s" } else { "" },
                        vs.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
                    ),
                    _ => String::new(),
                };
                let _ = writeln!(out, "  [{} run(s)] {}{because}:", o.runs, o.verdict.text());
                // What the page logged is the scenario's (and Chromium's) text: escaped per line.
                for line in o.view.render().lines() {
                    let _ = writeln!(out, "      {}", terminal(line));
                }
                if let Some((near, witness)) = &o.nearest {
                    if o.verdict == Verdict::Outside {
                        let replay = trace::render::replay_command_with(&r.path.display().to_string(), "", witness);
                        let _ = writeln!(out, "    nearest simulated outcome (replay: {}):", terminal(&replay));
                        for line in near.render().lines() {
                            let _ = writeln!(out, "      {}", terminal(line));
                        }
                        let _ = writeln!(out, "    Chromium log of the first such run:");
                        for line in &o.log {
                            let _ = writeln!(out, "      {}", terminal(line));
                        }
                    }
                }
            }
        }
    }
    out
}

/// The Markdown table of docs/chromium.md.
pub fn table(results: &[ScenarioResult], root: &Path) -> String {
    let mut out = String::from(
        "| scenario | runs | outcomes seen | inside spec | inside chromium profile | outside | not judged |\n| --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for r in results {
        let name = r.path.strip_prefix(root).unwrap_or(&r.path).display().to_string();
        match &r.result {
            Result_::CannotRun(reason) => {
                let _ = writeln!(out, "| `{name}` | cannot run: {} | | | | | |", reason.replace('|', "\\|"));
            }
            Result_::Ran { observed, runs, not_judged, .. } => {
                let (a, b, c) = r.counts();
                let _ = writeln!(out, "| `{name}` | {runs} | {} | {a} | {b} | {c} | {not_judged} |", observed.len());
            }
        }
    }
    out
}

/// 0 when every observed outcome is inside the spec's set or the chromium profile's.
pub fn exit_code(results: &[ScenarioResult]) -> u8 {
    u8::from(results.iter().any(|r| r.counts().2 > 0))
}

/// `webmcp-sim chromium`'s arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Scenario files or folders (every `.jsonc` scenario under a folder, in sorted order).
    #[arg(required = true)]
    pub scenarios: Vec<PathBuf>,
    /// Runs per scenario, each in a fresh browser context.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Upper bound in real ms of the random delays added to each run (event loops' starts, user
    /// steps) and of the busy-wait (a quarter of it) at the start of each document's script.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub jitter: u64,
    /// Real milliseconds per virtual millisecond of the scenario's timers.
    #[arg(long, default_value_t = 20.0)]
    pub time_scale: f64,
    /// Seed of the driver's jitter choices (the timing Chromium adds is not seeded).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The Chromium binary (Debian's package installs /usr/bin/chromium).
    #[arg(long, default_value = "/usr/bin/chromium")]
    pub chromium: PathBuf,
    /// The Node driver (tools/chromium-driver/driver.mjs by default).
    #[arg(long)]
    pub driver: Option<PathBuf>,
    /// Also write the Markdown table (docs/chromium.md's) to this file.
    #[arg(long)]
    pub table: Option<PathBuf>,
    /// Wall-clock limit in seconds for each of the simulator's searches (the spec's outcome set
    /// and the chromium profile's); a search it stops is reported as incomplete.
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Write every scenario's plan and every run's driver output (end, log lines, records) to
    /// this folder, inside or outside the set (NAME.plan.json, NAME.runs.json).
    #[arg(long, value_name = "DIR")]
    pub log: Option<PathBuf>,
}

/// `--log DIR`: writes `DIR/NAME.plan.json` (the plan the driver was given) and
/// `DIR/NAME.runs.json` (the driver's output: each run's end, log lines and records, in order),
/// where NAME is the scenario's path with `/` as `__`. Every run is written, inside or outside.
pub fn write_log(
    dir: &Path,
    scenario: &Path,
    plan: &serde_json::Value,
    output: &serde_json::Value,
) -> Result<(), CliError> {
    let text = scenario.to_string_lossy();
    let name: String = text
        .trim_start_matches("./")
        .replace('_', "_u")
        .chars()
        .map(|c| {
            if c == '/' || c == '\\' {
                "__".to_string()
            } else if c.is_control() {
                "_c".to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    let fail = |e: std::io::Error| CliError::input(format!("--log {}: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(fail)?;
    let pretty = |v: &serde_json::Value| serde_json::to_string_pretty(v).unwrap_or_default() + "\n";
    std::fs::write(dir.join(format!("{name}.plan.json")), pretty(plan)).map_err(fail)?;
    std::fs::write(dir.join(format!("{name}.runs.json")), pretty(output)).map_err(fail)?;
    Ok(())
}

/// Runs the subcommand: exit 1 when an observed outcome is outside both sets ([`exit_code`]),
/// a [`CliError`] (exit 2) for a setup or input problem.
pub fn command(args: Args) -> Result<ExitCode, CliError> {
    if !args.chromium.exists() {
        return Err(CliError::input(format!("{} does not exist", args.chromium.display()))
            .hint("install Chromium with `apt-get install chromium`, or pass --chromium PATH"));
    }
    if !(args.time_scale > 0.0 && args.time_scale <= 1_000.0) {
        return Err(CliError::input(format!(
            "--time-scale {}: write a positive number of real ms per virtual ms, at most 1000, e.g. 1",
            args.time_scale
        )));
    }
    let time_limit = args.time_limit.map(crate::parse_time_limit).transpose().map_err(CliError::input)?;
    let opts = Options {
        runs: args.runs,
        jitter_ms: args.jitter,
        scale: args.time_scale,
        chromium: args.chromium.clone(),
        driver: args.driver.clone().unwrap_or_else(default_driver),
        seed: args.seed,
        time_limit,
        log_dir: args.log.clone(),
    };
    let mut results = Vec::new();
    for f in &crate::scenario_paths(&args.scenarios)? {
        let r = check_scenario(f, &opts)?;
        crate::write_stdout(&render(&r, &opts))?;
        results.push(r);
    }
    let ran = results.iter().filter(|r| matches!(r.result, Result_::Ran { .. })).count();
    let (a, b, c) = results.iter().fold((0, 0, 0), |t, r| {
        let (x, y, z) = r.counts();
        (t.0 + x, t.1 + y, t.2 + z)
    });
    let not_judged: u32 =
        results.iter().map(|r| if let Result_::Ran { not_judged, .. } = &r.result { *not_judged } else { 0 }).sum();
    crate::write_stdout(&format!(
        "\n{} scenario(s): {ran} ran in Chromium, {} cannot run; runs: {a} inside spec, {b} outside spec but inside chromium profile, {c} outside both, {not_judged} not judged (the scenario not realized)\n",
        results.len(),
        results.len() - ran
    ))?;
    if let Some(t) = &args.table {
        let root = std::env::current_dir().unwrap_or_default();
        std::fs::write(t, table(&results, &root)).map_err(|e| CliError::input(format!("{}: {e}", t.display())))?;
    }
    Ok(ExitCode::from(exit_code(&results)))
}
