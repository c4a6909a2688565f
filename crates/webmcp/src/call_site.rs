//! Call sites for findings: the algorithm step that invoked the algorithm now running, and the
//! per-document count of the events a `count` expectation names.

use browser::DocId;

use crate::cite::Step;
use crate::cite::{
    AGENT_CALL, CANCEL, CLEANUP, EXECUTE_TOOL, GET_TOOLS, IMPERATIVE, NOTIFY, REGISTER_TOOL, UNREGISTER,
};
use crate::kernel::Sim;
use crate::work::{CompletionSteps, Work};

impl Sim<'_> {
    /// The step that invoked the algorithm a unit (or microtask) of `work` runs: the step that
    /// queued its task, started its in-parallel block, or added its abort steps. The same cites
    /// as the trace's unit lines (`Sim::describe`), without building their text.
    pub fn invoked_at(&self, work: &Work) -> Option<Step> {
        Some(match work {
            Work::SettlePromise { step, .. } => *step,
            Work::CompletionInParallel { from, .. } => *from,
            Work::RegisterToolInParallel { .. } => (REGISTER_TOOL, "21"),
            Work::NotifyInParallel { .. } => (UNREGISTER, "7"),
            Work::FireToolchange { .. } => (NOTIFY, "3.3"),
            Work::GetToolsInParallel { .. } => (GET_TOOLS, "9"),
            Work::ExecuteToolInParallel { .. } => (EXECUTE_TOOL, "15"),
            Work::ToolExecuteSteps { completion: CompletionSteps::Agent { .. }, .. } => (AGENT_CALL, "4"),
            Work::ToolExecuteSteps { .. } => (EXECUTE_TOOL, "15.13"),
            Work::ReactToToolPromise { .. } => (IMPERATIVE, "9"),
            Work::CancelInParallel { .. } => (EXECUTE_TOOL, "14.4.2"),
            Work::CancelLocal { .. } => (CANCEL, "6"),
            Work::UnloadCleanupInParallel { .. } => (CLEANUP, "2"),
            Work::AbortUnregister { .. } => (REGISTER_TOOL, "18.3"),
            Work::AbortExecution { .. } => (EXECUTE_TOOL, "14.4"),
            Work::AgentResult { .. } => (AGENT_CALL, "result"),
            Work::Agent { .. } => ("browser agent", "AI agent queue"),
            Work::User { .. } => ("user", "browser UI"),
            // Script, timers, reactions, listeners and navigation: no WebMCP algorithm invoked them.
            _ => return None,
        })
    }

    /// Runs `f` as invoked by `step` (a step that calls an algorithm in the same unit), then
    /// restores the unit's call site.
    pub fn invoked_from<R>(&mut self, step: Step, f: impl FnOnce(&mut Self) -> R) -> R {
        let outer = self.call_site.replace(step);
        let r = f(self);
        self.call_site = outer;
        r
    }

    /// Counts an event fired at `doc`'s ModelContext, when a `count` expectation names it.
    pub fn count_event(&mut self, doc: DocId, event: &'static str) {
        if !self.program.counted_events.contains(&event) {
            return;
        }
        let counts = &mut self.seldom.event_counts;
        match counts.iter_mut().find(|(d, e, _)| *d == doc && *e == event) {
            Some((_, _, n)) => *n += 1,
            None => counts.push((doc, event, 1)),
        }
    }
}

#[cfg(test)]
mod tests;
