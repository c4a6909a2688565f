//! `webmcp-sim`: run a scenario with a seed, replay a schedule, or check a directory of scenarios.

use std::process::ExitCode;

use clap::Parser;

mod allocator;
#[path = "main/args.rs"]
mod args;
#[path = "main/command.rs"]
mod command;
#[path = "main/explore.rs"]
mod explore;
mod fuzz;
#[path = "main/runs.rs"]
mod runs;
#[cfg(test)]
#[path = "main/tests.rs"]
mod tests;

#[derive(Parser)]
#[command(name = "webmcp-sim", version = VERSION.as_str(), about = "Deterministic simulator of the WebMCP browser runtime")]
struct Args {
    #[command(subcommand)]
    command: command::Command,
}

/// `--version`: the tool's version and the spec text it models (`webmcp::SPEC_REVISION`).
static VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("{} (trace format v{}; spec: {})", env!("CARGO_PKG_VERSION"), trace::VERSION, webmcp::SPEC_REVISION)
});

/// mimalloc (see `allocator`): exploration clones and drops many small states; the system
/// allocator costs a third of exploration time (measured with `bench-explore`).
#[global_allocator]
static GLOBAL: allocator::Allocator = allocator::Allocator;

/// Runs the subcommand; an error that stopped it is printed here, the one place errors reach
/// stderr, and ends the process with its exit code (2 for bad input, 1 for a failed run).
fn main() -> ExitCode {
    allocator::keep_freed_pages();
    command::run(Args::parse().command).unwrap_or_else(|error| {
        eprint!("{error}");
        ExitCode::from(error.exit_code())
    })
}
