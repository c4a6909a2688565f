//! `webmcp-sim diff`: explore one scenario under two sets of options (two spec readings) and
//! compare the outcome sets, for a spec author asking "does my proposed text remove the bad
//! outcome, and does it add any other?". Also the `diff` expectations `check` evaluates.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use trace::escape::terminal;
use trace::markdown::code;

use trace::{Exploration, OutcomeClass};

use crate::options::{self, Change};
use crate::CliError;

/// `webmcp-sim diff SCENARIO [--base OPTIONS] --with OPTIONS`.
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The scenario file (`.jsonc`) both sides explore, or a folder: each `.jsonc` scenario under
    /// it, in sorted order.
    pub scenario: PathBuf,
    /// The base side's options, as changes to the file's: comma-separated `parallel=unordered|fifo`,
    /// `variant=NAME` (add), `no-variant=NAME` (remove), `variants=A+B` or `variants=none`
    /// (exactly these). Default: the file's own options.
    #[arg(long, default_value = "")]
    pub base: String,
    /// The other side's options, as changes to the file's (same syntax as `--base`). Needed
    /// unless `--variant` or `--parallel` says the change.
    #[arg(long, default_value = "", hide_default_value = true)]
    pub with: String,
    /// A variant the other side adds (repeatable): `--variant X` is `--with variant=X`.
    #[arg(long = "variant", value_name = "NAME")]
    pub variants: Vec<String>,
    /// The other side's in-parallel model: `--parallel fifo` is `--with parallel=fifo`.
    #[arg(long, value_parser = ["unordered", "fifo"])]
    pub parallel: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: DiffFormat,
    /// Choice points each side's whole search may visit before it stops (reported as incomplete).
    #[arg(long, default_value_t = 2_000_000)]
    pub max_states: u64,
    /// Choices along one schedule before that branch stops.
    #[arg(long, default_value_t = 500)]
    pub max_depth: usize,
    /// Units along one schedule before that branch stops.
    #[arg(long, default_value_t = 5_000)]
    pub max_units: usize,
    /// Wall-clock limit in seconds for each side's search (the only bound whose effect depends
    /// on the machine).
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Threads, 1 to 256.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,
    /// With `--format markdown`: draw outcome N's sequence diagram (repeatable), numbered as
    /// the Markdown lists them: the outcomes only in base, then those only with the change, then
    /// the common ones.
    #[arg(long, value_name = "N")]
    pub outcome: Vec<usize>,
}

impl DiffArgs {
    /// The other side's changes: `--with`, then `--parallel` and each `--variant`; none at all
    /// is bad input (the two sides would be the same).
    pub fn with_changes(&self) -> Result<Vec<Change>, String> {
        let mut with = options::parse_changes(&self.with).map_err(|e| format!("--with: {e}"))?;
        if let Some(p) = &self.parallel {
            with.extend(options::parse_changes(&format!("parallel={p}")).map_err(|e| format!("--parallel: {e}"))?);
        }
        for v in &self.variants {
            with.extend(options::parse_changes(&format!("variant={v}")).map_err(|e| format!("--variant: {e}"))?);
        }
        if with.is_empty() {
            return Err("no change to compare: give --variant NAME, --parallel MODEL or --with OPTIONS".into());
        }
        Ok(with)
    }

    /// The change as the command line said it, for the Markdown block's last line.
    fn with_words(&self) -> String {
        let mut s = String::new();
        if !self.with.is_empty() {
            let _ = write!(s, " --with {}", self.with);
        }
        if let Some(p) = &self.parallel {
            let _ = write!(s, " --parallel {p}");
        }
        for v in &self.variants {
            let _ = write!(s, " --variant {v}");
        }
        s
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    /// Plain text for a terminal.
    Text,
    /// A block to paste into a spec pull request.
    Markdown,
}

/// One side of a diff: its options and its exploration.
pub struct Side {
    /// The effective options, as trace headers write them (`parallel=fifo, variant=X`).
    pub options: String,
    /// The flags its replay commands carry (options that differ from the file's).
    pub flags: String,
    pub exploration: Exploration,
}

/// Two explorations of one scenario, compared.
pub struct Diff {
    pub path: String,
    pub base: Side,
    pub with: Side,
    /// Indices into `base.exploration.outcomes` of the outcomes the other side does not have.
    pub only_in_base: Vec<usize>,
    /// Indices into `with.exploration.outcomes` of the outcomes the base does not have.
    pub only_in_with: Vec<usize>,
    /// Indices into `base.exploration.outcomes` of the outcomes both have.
    pub common: Vec<usize>,
}

impl Diff {
    /// Both searches covered every schedule: only then are the sets, and so the diff, exact.
    pub fn complete(&self) -> bool {
        self.base.exploration.complete && self.with.exploration.complete
    }

    pub fn equal(&self) -> bool {
        self.only_in_base.is_empty() && self.only_in_with.is_empty()
    }

    pub fn base_only(&self) -> impl Iterator<Item = &OutcomeClass> {
        self.only_in_base.iter().map(|&i| &self.base.exploration.outcomes[i])
    }

    pub fn with_only(&self) -> impl Iterator<Item = &OutcomeClass> {
        self.only_in_with.iter().map(|&i| &self.with.exploration.outcomes[i])
    }

    /// `0` when complete and equal, `1` otherwise (different, or a search was incomplete).
    pub fn exit_code(&self) -> u8 {
        if self.complete() && self.equal() {
            0
        } else {
            1
        }
    }

    /// One line: EQUAL, DIFFERENT, or why nothing can be claimed.
    pub fn verdict(&self) -> String {
        let counts = format!(
            "{} only in base, {} only with the change, {} common",
            self.only_in_base.len(),
            self.only_in_with.len(),
            self.common.len()
        );
        let incomplete: Vec<String> = [("base", &self.base), ("with", &self.with)]
            .iter()
            .filter(|(_, s)| !s.exploration.complete)
            .map(|(name, s)| format!("{name}: {}", s.exploration.bounds_hit.join(", ")))
            .collect();
        match (self.complete(), self.equal()) {
            (true, true) => format!("EQUAL: the same outcomes ({counts})"),
            (true, false) => format!("DIFFERENT: {counts}"),
            (false, _) => format!(
                "INCOMPLETE: a search hit a bound ({}); the outcomes below were seen, others may exist, so nothing is claimed equal ({counts})",
                incomplete.join("; ")
            ),
        }
    }

    pub fn render_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "webmcp-sim diff: {}", terminal(&self.path));
        for (name, side) in [("base", &self.base), ("with", &self.with)] {
            let ex = &side.exploration;
            // Threads sharing one visited table: the exploration says so among its options.
            let vary = if ex.options.iter().any(|o| o.starts_with("jobs=")) { " (varies with threads)" } else { "" };
            let _ = writeln!(
                s,
                "{name}: {}  ({} outcomes, {} states{vary}, {})",
                side.options,
                ex.outcomes.len(),
                ex.states,
                if ex.complete { "complete".to_string() } else { format!("INCOMPLETE: {}", ex.bounds_hit.join(", ")) }
            );
        }
        let _ = writeln!(s, "result: {}", self.verdict());
        let sections = [
            ("only in base", self.base_only().collect::<Vec<_>>(), &self.base),
            ("only with the change", self.with_only().collect(), &self.with),
            ("common", self.common.iter().map(|&i| &self.base.exploration.outcomes[i]).collect(), &self.base),
        ];
        for (title, classes, side) in sections {
            let _ = writeln!(s, "\n{title} ({}):", classes.len());
            for c in classes {
                let _ = writeln!(s, "  summary: {}", terminal(&c.summary));
                let _ = writeln!(
                    s,
                    "    witness ({} choices): {}",
                    c.witness_choices,
                    terminal(&trace::render::replay_command_with(&self.path, &side.flags, &c.witness))
                );
            }
        }
        s
    }

    /// A block to paste into a spec pull request: the verdict, then each outcome that differs
    /// with its replay command.
    pub fn render_markdown(&self, command: &str) -> String {
        self.render_markdown_with_source(command, "")
    }

    /// [`Diff::render_markdown`] with the scenario's source folded away before the last line,
    /// so the block replays on its own.
    pub fn render_markdown_with_source(&self, command: &str, source: &str) -> String {
        self.render_markdown_drawing(command, source, &[])
    }

    /// Every outcome as the Markdown numbers them (from 1): those only in base, then those
    /// only with the change, then the common ones; each with its side.
    pub fn numbered(&self) -> Vec<(&OutcomeClass, &Side)> {
        let base = self.base_only().map(|c| (c, &self.base));
        let with = self.with_only().map(|c| (c, &self.with));
        let common = self.common.iter().map(|&i| (&self.base.exploration.outcomes[i], &self.base));
        base.chain(with).chain(common).collect()
    }

    /// [`Diff::render_markdown_with_source`] with the Mermaid diagrams of the outcomes asked
    /// for (`--outcome N`: its number and the diagram's text) after the lists; when they would
    /// take the block past one GitHub issue ([`trace::markdown::MAX_BODY`]), the diagrams that
    /// do not fit are left out and a note says which.
    pub fn render_markdown_drawing(&self, command: &str, source: &str, diagrams: &[(usize, String)]) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "#### `webmcp-sim diff` on `{}`\n", code(&self.path));
        let _ = writeln!(s, "| | options | outcomes | search |\n| --- | --- | --- | --- |");
        for (name, side) in [("base", &self.base), ("with", &self.with)] {
            let ex = &side.exploration;
            let search =
                if ex.complete { "complete".to_string() } else { format!("incomplete ({})", ex.bounds_hit.join(", ")) };
            let _ = writeln!(s, "| {name} | `{}` | {} | {search} |", side.options, ex.outcomes.len());
        }
        let _ = writeln!(s, "\n**{}**\n", self.verdict());
        let mut number = 0;
        for (title, classes, side) in [
            ("Only in base", self.base_only().collect::<Vec<_>>(), &self.base),
            ("Only with the change", self.with_only().collect(), &self.with),
        ] {
            if classes.is_empty() {
                let _ = writeln!(s, "{title}: none.\n");
                continue;
            }
            let _ = writeln!(s, "{title}:\n");
            for c in classes {
                number += 1;
                let _ = writeln!(s, "- ({number}) `{}`", code(&c.summary));
                let _ = writeln!(
                    s,
                    "  ```sh\n  {}\n  ```",
                    terminal(&trace::render::replay_command_with(&self.path, &side.flags, &c.witness))
                );
            }
            s.push('\n');
        }
        if !self.common.is_empty() {
            let _ = writeln!(s, "<details><summary>{} common outcome(s)</summary>\n", self.common.len());
            for &i in &self.common {
                number += 1;
                let _ = writeln!(s, "- ({number}) `{}`", code(&self.base.exploration.outcomes[i].summary));
            }
            let _ = writeln!(s, "\n</details>\n");
        }
        let room = trace::markdown::MAX_BODY.saturating_sub(s.len() + source.len() + command.len() + 4_000);
        let mut left_out = Vec::new();
        let mut used = 0;
        for (n, diagram) in diagrams {
            let block = format!("Outcome ({n}):\n\n```mermaid\n{diagram}```\n\n");
            if used + block.len() > room {
                left_out.push(n.to_string());
                continue;
            }
            used += block.len();
            s.push_str(&block);
        }
        if !left_out.is_empty() {
            let _ = writeln!(
                s,
                "*The diagrams of outcome(s) {} are left out to fit one GitHub issue: ask for fewer with `--outcome N`.*\n",
                left_out.join(", ")
            );
        }
        s.push_str(&trace::markdown::source_details(&self.path, source));
        let _ = writeln!(s, "Generated by `{}`.", code(command));
        s
    }
}

/// Compares two explorations' outcome sets (outcomes compare canonically, as `explore` groups them).
pub fn compare(path: &str, base: Side, with: Side) -> Diff {
    let outcomes = |ex: &Exploration| ex.outcomes.iter().map(|c| c.outcome.clone()).collect::<Vec<_>>();
    let (b, w) = (outcomes(&base.exploration), outcomes(&with.exploration));
    let only_in_base = (0..b.len()).filter(|&i| !w.contains(&b[i])).collect();
    let only_in_with = (0..w.len()).filter(|&i| !b.contains(&w[i])).collect();
    let common = (0..b.len()).filter(|&i| w.contains(&b[i])).collect();
    Diff { path: path.to_string(), base, with, only_in_base, only_in_with, common }
}

/// Explores the scenario at `path` with `changes` applied to its options.
pub fn explore_side(path: &Path, changes: &[Change], explore: &webmcp::ExploreOptions) -> Result<Side, String> {
    let loaded = crate::load(path, changes).map_err(|e| e.to_string())?;
    let exploration = webmcp::explore(&loaded.program, explore).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Side { options: options::describe(&loaded.scenario.options), flags: loaded.flags, exploration })
}

/// Explores both sides and compares them.
pub fn diff(path: &Path, base: &[Change], with: &[Change], explore: &webmcp::ExploreOptions) -> Result<Diff, String> {
    let base = explore_side(path, base, explore)?;
    let with = explore_side(path, with, explore)?;
    Ok(compare(&path.display().to_string(), base, with))
}

/// The `diff` command, for the scenario or every scenario under the folder `args.scenario`: exit
/// 0 when every diff is equal (both searches complete), 1 when one differs or is incomplete, 2 on
/// bad input.
pub fn diff_command(args: &DiffArgs) -> Result<ExitCode, CliError> {
    let parse =
        |flag: &str, text: &str| options::parse_changes(text).map_err(|e| CliError::input(format!("--{flag}: {e}")));
    let base = parse("base", &args.base)?;
    let with = args.with_changes().map_err(CliError::input)?;
    let time_limit = args.time_limit.map(crate::parse_time_limit).transpose().map_err(CliError::input)?;
    let explore = webmcp::ExploreOptions::from(webmcp::SearchOptions {
        max_states: args.max_states,
        max_depth: args.max_depth,
        max_units: args.max_units,
        time_limit,
        jobs: usize::from(args.jobs),
        // Ctrl-C stops the searches; each side then says "Ctrl-C" among its bounds hit.
        interrupt: Some(crate::interrupt_flag()),
        ..Default::default()
    });
    if !args.outcome.is_empty() && matches!(args.format, DiffFormat::Text) {
        return Err(CliError::input("--outcome draws diagrams in the Markdown; add --format markdown"));
    }
    let mut code = 0;
    for scenario in crate::scenario_paths(std::slice::from_ref(&args.scenario))? {
        // Bad input (a scenario that does not load, an unknown variant) is exit 2; a run that
        // fails while exploring is exit 1.
        let source = crate::load(&scenario, &base)?.source;
        crate::load(&scenario, &with)?;
        let d = diff(&scenario, &base, &with, &explore).map_err(CliError::failed)?;
        let text = match args.format {
            DiffFormat::Text => d.render_text(),
            DiffFormat::Markdown => {
                let diagrams = diagrams(&d, &scenario, &args.outcome, (&base, &with))?;
                d.render_markdown_drawing(&command_line(args, &scenario), &source, &diagrams)
            }
        };
        crate::write_stdout(&text)?;
        code = code.max(d.exit_code());
        if crate::interrupted() {
            eprintln!("interrupted: the diff above is partial (its searches are incomplete)");
            return Ok(ExitCode::from(130));
        }
    }
    Ok(ExitCode::from(code))
}

/// The Mermaid diagram of each outcome `asked` for (`--outcome N`, numbered as
/// [`Diff::numbered`]): its witness replayed under its side's options. A number the diff does
/// not list is bad input.
fn diagrams(
    d: &Diff,
    scenario: &Path,
    asked: &[usize],
    (base, with): (&[Change], &[Change]),
) -> Result<Vec<(usize, String)>, CliError> {
    let numbered = d.numbered();
    let mut out = Vec::new();
    for &n in asked {
        let Some((class, side)) = n.checked_sub(1).and_then(|i| numbered.get(i)) else {
            return Err(CliError::input(format!(
                "--outcome {n}: the diff of {} lists {} outcome(s), numbered from 1",
                terminal(&scenario.display().to_string()),
                numbered.len()
            )));
        };
        let changes = if std::ptr::eq(*side, &d.with) { with } else { base };
        let program = crate::load(scenario, changes)?.program;
        let schedule = sched::Schedule::parse(&class.witness).map_err(|e| CliError::failed(e.to_string()))?;
        let trace = crate::report::run_trace(&program, &crate::Driver::Replay(schedule), 10_000)
            .map_err(|e| CliError::failed(format!("outcome {n}: replaying its witness: {e}")))?;
        out.push((n, trace::mermaid::render_mermaid(&trace)));
    }
    Ok(out)
}

/// The command that produced a diff of `scenario`, for the Markdown block's last line.
fn command_line(args: &DiffArgs, scenario: &Path) -> String {
    let mut s = format!("webmcp-sim diff {}", scenario.display());
    if !args.base.is_empty() {
        let _ = write!(s, " --base {}", args.base);
    }
    s.push_str(&args.with_words());
    for n in &args.outcome {
        let _ = write!(s, " --outcome {n}");
    }
    s
}

/// The changes a scenario's `diff` expectation makes to the options.
pub fn expect_changes(with: &scenario::DiffOptions) -> Vec<Change> {
    let mut changes = Vec::new();
    if let Some(p) = with.parallel {
        changes.push(Change::Parallel(p));
    }
    if let Some(v) = &with.variants {
        changes.push(Change::Variants(v.clone()));
    }
    changes.extend(with.variant.iter().map(|&v| Change::AddVariant(v)));
    changes.extend(with.no_variant.iter().map(|&v| Change::RemoveVariant(v)));
    changes
}

/// Checks one side of a `diff` expectation: every outcome only on that side satisfies one of
/// `predicates`, and each predicate holds in one of them (`[]`: no such outcome).
fn check_side(side: &str, outcomes: &[&OutcomeClass], predicates: &[scenario::Predicate]) -> Result<(), String> {
    if let Some(c) = outcomes.iter().find(|c| !predicates.iter().any(|p| webmcp::expect::holds(p, &c.outcome))) {
        return Err(format!("an outcome only in {side} that no predicate describes: {}", c.summary));
    }
    if let Some(p) = predicates.iter().find(|p| !outcomes.iter().any(|c| webmcp::expect::holds(p, &c.outcome))) {
        let p = serde_json::to_string(p).unwrap_or_default();
        return Err(format!("no outcome only in {side} satisfies {p}"));
    }
    Ok(())
}

/// Evaluates a scenario's `diff` expectations: each explores the scenario again with its `with`
/// options (applied after `changes`, the command line's) and compares with `base`, the
/// exploration under `changes`. A search that hit a bound decides nothing (`Unknown`).
pub fn check_expectations(
    path: &Path,
    changes: &[Change],
    base: &Exploration,
    expect: &scenario::Expect,
    explore: &webmcp::ExploreOptions,
) -> Vec<webmcp::expect::Verdict> {
    use webmcp::expect::{Status, Verdict};
    let mut verdicts = Vec::new();
    for d in &expect.diff {
        let expectation = format!("diff with {}", serde_json::to_string(&d.with).unwrap_or_default());
        let mut with_changes = changes.to_vec();
        with_changes.extend(expect_changes(&d.with));
        let status =
            match explore_side(path, &with_changes, explore) {
                Err(e) => {
                    Status::Violated { reason: format!("the other side does not explore: {e}"), witness: String::new() }
                }
                Ok(with) => {
                    let flags = with.flags.clone();
                    let side = Side { options: String::new(), flags: String::new(), exploration: base.clone() };
                    let diff = compare(&path.display().to_string(), side, with);
                    let base_only: Vec<&OutcomeClass> = diff.base_only().collect();
                    let with_only: Vec<&OutcomeClass> = diff.with_only().collect();
                    let problem =
                        d.only_in_base.as_ref().map(|ps| check_side("the base", &base_only, ps)).transpose().and_then(
                            |_| d.only_in_with.as_ref().map(|ps| check_side("with", &with_only, ps)).transpose(),
                        );
                    match problem {
                        Err(reason) if diff.complete() => {
                            // A base outcome replays with check's own witness line; a with-side one
                            // needs its flags, so its command goes in the reason.
                            if reason.contains("only in with") {
                                let command = with_only.first().map(|c| {
                                    trace::render::replay_command_with(&path.display().to_string(), &flags, &c.witness)
                                });
                                let reason = match command {
                                    Some(command) => format!("{reason}\n  with-side witness: {command}"),
                                    None => reason,
                                };
                                Status::Violated { reason, witness: String::new() }
                            } else {
                                let witness = base_only.first().map(|c| c.witness.clone()).unwrap_or_default();
                                Status::Violated { reason, witness }
                            }
                        }
                        Ok(_) if diff.complete() => Status::Holds,
                        _ => Status::Unknown,
                    }
                }
            };
        verdicts.push(Verdict { expectation, status });
    }
    verdicts
}
