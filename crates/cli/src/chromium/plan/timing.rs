//! The timing of a scenario's real runs (`webmcp-sim chromium`): the scale and jitter, and the
//! bounds the plan derives from the moments the scenario names (`super::compile`), split from
//! plan.rs.

use scenario::model as sc;

/// Timing of the real runs.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Real milliseconds per virtual millisecond of a scenario's timers.
    pub scale: f64,
    /// Upper bound of the random delays (event loops' starts, user steps) and busy-waits (a
    /// quarter of it) added to each run.
    pub jitter_ms: u64,
}

/// The bound of the event loops' start delays, so that jitter cannot reorder what the scenario
/// orders. Every initial script runs at virtual time 0, before any timer of 1 ms or more; in
/// Chromium a loop started `d` real ms after another (plus a busy-wait of up to a quarter of
/// the jitter) runs its script after the other loop's timers of less than `d` real ms, an order
/// the simulator never takes. So the start delay plus the busy-wait is held to half the
/// scenario's shortest gap between two of its times (0, each timer's and timed step's moment)
/// at the chosen scale, the other half left to Chromium's own start-up round trips. Returns the
/// bound and, when it is less than `--jitter`, why (the caller warns, naming the scenario).
/// User and agent steps keep the whole `--jitter`: their lanes may go before or after any timer
/// in the simulator too.
pub fn start_jitter(s: &sc::Scenario, timing: Timing) -> (u64, Option<String>) {
    start_jitter_for(shortest_gap(s), timing)
}

/// [`start_jitter`] given the shortest gap.
pub(super) fn start_jitter_for(gap: Option<u64>, timing: Timing) -> (u64, Option<String>) {
    let Some(gap) = gap else {
        return (timing.jitter_ms, None);
    };
    let real_gap = gap as f64 * timing.scale;
    // delay + delay / 4 <= real_gap / 2
    let bound = (real_gap / 2.0 / 1.25).floor() as u64;
    if bound >= timing.jitter_ms {
        return (timing.jitter_ms, None);
    }
    let why = format!(
        "start jitter cut from {} to {bound} ms: its shortest timer gap, {gap} virtual ms, is {real_gap} real ms at --time-scale {}, and a larger start delay could run one event loop's script after another loop's timer",
        timing.jitter_ms, timing.scale
    );
    (bound, Some(why))
}

/// How late an event loop's start may land after the moment the driver planned for it (its
/// share of the common start barrier plus its jitter) and the run still realize the scenario:
/// the half of the shortest gap that [`start_jitter`] leaves to Chromium's round trips. A start
/// later than that could run one loop's initial script after another loop's timer, an order the
/// simulator never takes, so the driver marks such a run as not realizing the scenario and it is
/// not judged (tools/chromium-driver/driver.mjs). `None` (any lateness is harmless) when the
/// scenario names no moment but 0.
pub fn start_slack(s: &sc::Scenario, timing: Timing) -> Option<u64> {
    start_slack_for(shortest_gap(s), timing)
}

pub(super) fn start_slack_for(gap: Option<u64>, timing: Timing) -> Option<u64> {
    gap.map(|gap| (gap as f64 * timing.scale / 2.0).floor() as u64)
}

/// The scenario's moments ([`moments_of`]) and the given ones (a simulated run's unit times, for
/// JavaScript pages).
pub(super) fn all_moments(s: &sc::Scenario, extra: &[u64]) -> std::collections::BTreeSet<u64> {
    let mut all = moments_of(s);
    all.extend(extra.iter().copied());
    all
}

/// The shortest positive gap between two moments.
pub(super) fn gap_of(moments: &std::collections::BTreeSet<u64>) -> Option<u64> {
    let moments: Vec<u64> = moments.iter().copied().collect();
    moments.windows(2).map(|w| w[1] - w[0]).min()
}

/// The shortest positive gap, in virtual ms, between two moments the scenario names: 0 (the
/// initial scripts), each `setTimeout`'s and `after`'s due time (counted from the time 0 of the
/// script that sets it, nested timers added up), each `at` step's time and each `within`
/// window's ends. `None` when the scenario names no moment but 0.
pub fn shortest_gap(s: &sc::Scenario) -> Option<u64> {
    gap_of(&moments_of(s))
}

/// Every moment, in virtual ms, the scenario's text names ([`shortest_gap`]).
fn moments_of(s: &sc::Scenario) -> std::collections::BTreeSet<u64> {
    fn actions(list: &[sc::Action], base: u64, out: &mut std::collections::BTreeSet<u64>) {
        for a in list {
            action(a, base, out);
        }
    }
    fn result(r: &sc::ExecuteResult, base: u64, out: &mut std::collections::BTreeSet<u64>) {
        if let sc::ExecuteResult::After(a) = r {
            out.insert(base.saturating_add(a.ms));
            result(&a.then, base.saturating_add(a.ms), out);
        }
    }
    fn action(a: &sc::Action, base: u64, out: &mut std::collections::BTreeSet<u64>) {
        match a {
            sc::Action::RegisterTool(r) => {
                actions(&r.tool.execute.do_, base, out);
                actions(&r.tool.execute.on_abort, base, out);
                result(&r.tool.execute.result, base, out);
            }
            sc::Action::SetTimeout(t) => {
                let due = base.saturating_add(t.ms);
                out.insert(due);
                actions(&t.do_, due, out);
            }
            sc::Action::Then(t) => {
                actions(&t.on_fulfilled, base, out);
                actions(&t.on_rejected, base, out);
            }
            sc::Action::On(o) => actions(&o.do_, base, out),
            sc::Action::Navigate(n) => {
                actions(&n.script, base, out);
                frames(&n.frames, base, out);
            }
            sc::Action::At(a) => {
                out.insert(a.ms);
                action(&a.step, a.ms, out);
            }
            sc::Action::Within(w) => {
                out.insert(w.from);
                out.insert(w.to);
                action(&w.step, w.from, out);
            }
            _ => {}
        }
    }
    fn frames(list: &[sc::Frame], base: u64, out: &mut std::collections::BTreeSet<u64>) {
        for f in list {
            actions(&f.script, base, out);
            frames(&f.frames, base, out);
        }
    }
    let mut moments = std::collections::BTreeSet::from([0]);
    frames(&s.tabs, 0, &mut moments);
    actions(&s.user, 0, &mut moments);
    moments
}
