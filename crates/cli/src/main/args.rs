//! The arguments several commands share (output formats, exploration bounds) and the two ways
//! a command writes to the terminal.

use std::path::Path;

use clap::ValueEnum;
use cli::CliError;
use trace::escape::terminal;

#[derive(Clone, Copy, ValueEnum)]
pub enum FormatArg {
    /// Plain text for the terminal.
    Text,
    /// JSON (format version 1, docs/trace.schema.json).
    Json,
    /// Markdown for a GitHub issue: the scenario's source, the expectations' verdicts, the
    /// outcome table and a Mermaid diagram of each outcome asked for (`--outcome`).
    Markdown,
}

/// The formats of `check`.
#[derive(Clone, Copy, ValueEnum)]
pub enum CheckFormatArg {
    /// The table of scenarios, for the terminal.
    Text,
    /// Markdown for a GitHub issue (one scenario file): its source, the expectations' verdicts,
    /// the outcome table and the diagrams of the outcomes asked for.
    Markdown,
}

/// The formats of `report`.
#[derive(Clone, Copy, ValueEnum)]
pub enum ReportFormatArg {
    /// A self-contained HTML page.
    Html,
    /// Markdown for a GitHub issue.
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
    /// The order a choice point's lanes are explored in: `revisited-first` (as
    /// `broadest-first`, but first the lanes the search most often had to explore again, on
    /// reaching a stored choice point with fewer lanes asleep), `broadest-first` (the lanes
    /// whose unit wrote the most first, `user.wait` last; fewer transitions than label order)
    /// or `label`. Each finds the same outcomes; the choice points counted and the witness
    /// schedules found can differ.
    #[arg(
        long,
        default_value = webmcp::LaneOrder::NAMED[0].0,
        value_parser = clap::builder::PossibleValuesParser::new(webmcp::LaneOrder::NAMED.map(|(name, _)| name)),
    )]
    pub lane_order: String,
    /// Threads, 1 to 256.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,
    /// Explore only part K of N (`--shard 2/4`); merge the parts with `merge` (`check` refuses
    /// N > 1: one shard cannot decide expectations; `merge --check` decides them over all parts).
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
    /// The bug depth `--sample` aims at (PCT's d: d - 1 priority change points per run), from
    /// 1 to 100.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=100))]
    pub pct_depth: u16,
    /// Keep the witnesses the search met instead of finding each outcome's fewest-choice one
    /// (breadth-first passes, on a thread of their own beside the search; on four-calls-unload
    /// they stop at their budgets, after about 0.6 s of CPU, and add 140 MB to the peak memory).
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
    /// `--jobs` runs executions ahead on more threads with the same report; no `--naive`,
    /// `--delay-bound` or `--shard` yet). Both find the same outcomes. Default: stateful, and stateless for a scenario with JavaScript pages (whose
    /// states cannot be copied).
    #[arg(long, value_parser = ["stateful", "stateless"])]
    pub search: Option<String>,
    /// With `--search stateless`: executions (schedules run from the start) before the search
    /// stops (reported as incomplete).
    #[arg(long, default_value_t = 10_000_000)]
    pub max_executions: u64,
}

impl Bounds {
    /// The exploration these flags ask for; a malformed `--shard` or `--time-limit` is bad input.
    pub fn options(&self) -> Result<webmcp::ExploreOptions, CliError> {
        let shard = cli::parse_shard(&self.shard).map_err(CliError::input)?;
        let kind = if self.search.as_deref() == Some("stateless") {
            webmcp::SearchKind::Stateless
        } else {
            webmcp::SearchKind::Stateful
        };
        if kind == webmcp::SearchKind::Stateless {
            let unsupported = [
                (self.naive, "--naive"),
                (self.delay_bound.is_some(), "--delay-bound"),
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
                lane_order: webmcp::LaneOrder::named(&self.lane_order)
                    .ok_or_else(|| CliError::input(format!("--lane-order {}: no such order", self.lane_order)))?,
                max_states: self.max_states,
                max_depth: self.max_depth,
                max_units: self.max_units,
                time_limit: self.time_limit.map(cli::parse_time_limit).transpose().map_err(CliError::input)?,
                split_depth: self.split_depth.unwrap_or(if self.jobs > 1 || shard.1 > 1 { 2 } else { 0 }),
                jobs: usize::from(self.jobs),
                shard,
                progress: None,
                // Ctrl-C stops the search, which then reports what it has (exit 130).
                interrupt: Some(cli::interrupt_flag()),
                delay_bound: self.delay_bound,
                table_per_work_item: false,
                max_executions: self.max_executions,
                donate_every: webmcp::SearchOptions::default().donate_every,
                always_run_ahead: false,
            },
            shortest_witnesses: !self.witnesses_as_found,
            witnesses_beside_search: webmcp::ExploreOptions::default().witnesses_beside_search,
            inert_tasks: !self.no_inert_tasks,
            kind,
            kind_given: self.search.is_some(),
        })
    }
}

/// A path for the terminal (error messages, summary lines).
pub fn shown(path: &Path) -> String {
    terminal(&path.display().to_string())
}

/// Writes to stdout ([`cli::write_stdout`]): a closed pipe (`webmcp-sim … | head`) drops the
/// rest and keeps the command's exit code; any other failed write is an error.
pub fn out(text: &str) -> Result<(), CliError> {
    cli::write_stdout(text)
}
