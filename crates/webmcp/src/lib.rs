//! WebMCP on the simulated browser: the spec's algorithms (one function each), the script
//! interface, document lifecycle, the browser agent, and `run`, which turns a scenario, a chooser
//! and limits into a `trace::Trace`.
//!
//! # The public API (what `cli`, `gen` and the tests use)
//!
//! - [`compile`] a `scenario::Scenario` into a [`Program`]; [`run`] it under a `sched::Chooser`
//!   within [`Limits`] to a `trace::Trace`, or fail with a [`RunError`].
//! - [`explore`] every schedule of a program ([`ExploreOptions`], [`SearchOptions`],
//!   [`LaneOrder`]; the `explore` module has the measured and estimating entry points).
//! - [`expect`] checks a scenario's expectations against an exploration; [`sample`] estimates
//!   outcome frequencies under PCT schedules; [`audit`] checks the independence relation the
//!   reduced search relies on; [`invariants`] runs a program with every run invariant checked.
//! - [`variants::listing`] is what `webmcp-sim variants` prints (the variants themselves are
//!   `scenario::Variant`).
//! - [`Sim`] and [`Footprint`], for tests that step a run by hand: `Sim::new`, `Sim::runnable`,
//!   `Sim::step`, `Footprint::conflicts`.
//! - [`validate_input_against_input_schema`], the check variant `input-schema-validation` makes.
//! - [`script`]: the plug for a page-script engine ([`script::Engine`], [`script::link_engine`])
//!   and what an engine passes ([`ModelContextTool`], [`RegisteredToolArg`], [`Annotations`],
//!   [`EngineHandle`], [`Callback`], [`ToolExecute`], [`PageScript`]).
//!
//! # Inside (crate-private modules)
//!
//! The modules import each other in one direction, from the kernel up (no circle of files):
//!
//! - `cite`, `uuid`, `program` (the compiled scenario), `callback` (a callback or a tool's
//!   `execute`: an action list or an engine handle), `idl` (the IDL arguments a script passes)
//!   import nothing of the crate but each other's types;
//! - `work` (units of work as data), `footprint` (what a unit touched), `findings` (failed asserts);
//! - `kernel`: the state (`Sim`) and its primitives (note, queue a global task, in parallel,
//!   settle);
//! - `script`: the script interface the algorithms and the run loop call, with the action
//!   language behind it (`script::action`) and the plug for a page-script engine
//!   (`script::engine`: the `Engine` trait, `link_engine`, the steps an engine calls; the
//!   JavaScript engine is `crates/js`, which this crate never names); it imports nothing of the
//!   algorithms;
//! - `algorithms` (`register`, `get_tools`, `execute`, `cancel`), `lifecycle`, `user`, `agent`,
//!   `node_navigable`, `call_site`, `inert`: the steps, as methods on `Sim`;
//! - `run`: the run loop, the dispatcher (`Sim::run_work`) and the outcome;
//! - `explore`, `audit`, `sample`, `invariants`, `expect`: what is built on runs.

/// `note!(sim, step, "format", args…)`: a trace note whose message is formatted only when the
/// run is recorded (exploration runs millions of units and records none).
macro_rules! note {
    ($sim:expr, $step:expr, $($arg:tt)+) => {
        if $sim.record {
            std::hint::cold_path();
            let message = format!($($arg)+);
            $sim.note($step, message);
        }
    };
}

/// `interpretation!(sim, step, "format", args…)`: like `note!`, for interpretation lines.
macro_rules! interpretation {
    ($sim:expr, $step:expr, $($arg:tt)+) => {
        if $sim.record {
            std::hint::cold_path();
            let message = format!($($arg)+);
            $sim.interpretation($step, message);
        }
    };
}

mod agent;
mod algorithms;
pub mod audit;
mod call_site;
mod callback;
mod cite;
pub mod expect;
pub mod explore;
mod findings;
mod footprint;
mod history;
mod idl;
mod inert;
pub mod invariants;
mod kernel;
mod lifecycle;
mod navigation;
mod node_navigable;
mod program;
mod run;
pub mod sample;
pub mod script;
mod session_history;
mod user;
mod uuid;
pub mod variants;
mod window_open;
mod work;

pub use algorithms::execute::validate_input_against_input_schema;
pub use callback::{Callback, EngineHandle, EngineListeners, ToolExecute};
pub use explore::{explore, ExploreOptions, LaneOrder, SearchKind, SearchOptions};
pub use footprint::Footprint;
pub use idl::{ModelContextTool, RegisteredToolArg};
pub use kernel::Annotations;
pub use kernel::{RunError, Sim};
pub use program::PageScript;
pub use program::{compile, Program};
pub use run::{run, Limits, SPEC_REVISION};
pub use work::HistoryHandling;
