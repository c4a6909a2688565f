//! WebMCP on the simulated browser: the spec's algorithms (one function each), the script
//! interpreter, document lifecycle, the browser agent, and `run`, which turns a scenario, a
//! chooser and limits into a `trace::Trace`.

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

pub mod agent;
pub mod algorithms;
pub mod audit;
pub mod call_site;
pub mod expect;
pub mod explore;
pub mod inert;
pub mod invariants;
pub mod lifecycle;
pub mod node_navigable;
pub mod program;
pub mod sample;
pub mod script;
pub mod sim;
pub mod variants;

pub use self::explore::{explore, ExploreOptions, LaneOrder, SearchKind, SearchOptions};
pub use program::{compile, Program};
pub use sim::{Limits, RunError, Sim};

use sched::{Chooser, Recorder};

/// The spec text this model follows.
pub const SPEC_REVISION: &str =
    "WebMCP CG draft, reference copy shared/reference/webmcp-spec.md, with the seeds' consequentialHint";

/// Runs a compiled scenario to quiescence (or the unit limit) and returns its trace.
///
/// The trace does not say how choices were made: a seeded run and the replay of its schedule
/// give byte-identical traces.
pub fn run(program: &Program, chooser: &mut dyn Chooser, limits: Limits) -> Result<trace::Trace, RunError> {
    let mut recorder = Recorder::new(chooser);
    let mut sim = Sim::new(program)?;
    sim.run(&mut recorder, limits)?;
    let stopped = sim.units_run >= limits.max_units && !sim.is_quiescent();
    Ok(sim.into_trace(&recorder.schedule, stopped))
}

impl Sim<'_> {
    fn into_trace(self, schedule: &sched::Schedule, stopped: bool) -> trace::Trace {
        let outcome = self.outcome(stopped);
        let documents = (0..self.world.document_count())
            .map(|i| {
                let id = browser::DocId(i as u32);
                let d = self.world.doc_info(id);
                trace::DocumentLegend {
                    label: d.label.clone(),
                    url: d.url.to_string(),
                    origin: d.origin.serialize(),
                    event_loop: self.world.event_loops[d.event_loop.index()].label.to_string(),
                    secure_context: d.secure_context,
                    tools_allowed: browser::policy::is_feature_enabled_in_document_for_origin(
                        browser::policy::TOOLS,
                        &d.policy,
                        &d.origin,
                        &d.origin,
                    ),
                }
            })
            .collect();
        let event_loops = self
            .world
            .event_loops
            .iter()
            .enumerate()
            .map(|(i, el)| trace::LoopLegend {
                label: el.label.to_string(),
                agent_cluster: el.cluster.to_string(),
                documents: self
                    .world
                    .documents()
                    .filter(|d| d.event_loop.index() == i)
                    .map(|d| d.label.clone())
                    .collect(),
            })
            .collect();
        let options = self.program.spec_options();
        trace::Trace {
            version: trace::VERSION,
            scenario: self.program.name.clone(),
            options,
            spec_revision: SPEC_REVISION.to_string(),
            documents,
            event_loops,
            units: self.units,
            schedule: schedule.to_string(),
            outcome,
        }
    }
}
