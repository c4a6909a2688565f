//! Work items: the subtrees a search is cut into, the split that cuts them at a fixed depth, and
//! the replay of a work item's choices from the initial state.

use crate::{Failure, Footprint, Options, Stateful};

/// A subtree to explore, named by the choices that lead to it from the initial state, with the
/// sleep set the split reached it with. (A work item carries no state: the thread that explores
/// it replays the choices, so the state never crosses threads.)
pub(crate) struct WorkItem<L, F> {
    pub(crate) path: Vec<L>,
    /// The lanes asleep at the item's root (explored from a choice point above it, and
    /// commuting with every step since), with the footprints they had there: the search below
    /// starts from them as the one search would have.
    pub(crate) sleep: Vec<(L, F)>,
    /// The delays on the path (choices other than the first runnable lane; counted only with a
    /// delay bound).
    pub(crate) delays: u32,
    /// A donated item (dynamic splitting, `crate::share`): the lanes still to explore, in this
    /// order, from the choice point the path leads to (after its forced steps), which the donor
    /// already visited, stored and counted; `sleep` is then that choice point's sleep set with
    /// the siblings the donor explored or is exploring. `None`: the whole subtree below the path.
    pub(crate) lanes: Option<Vec<L>>,
    /// The item's share of the progress display's fraction done.
    pub(crate) weight: f64,
}

impl<L, F> WorkItem<L, F> {
    /// A work item of the split: the subtree below `path`.
    pub(crate) fn subtree(path: Vec<L>, sleep: Vec<(L, F)>, delays: u32) -> WorkItem<L, F> {
        WorkItem { path, sleep, delays, lanes: None, weight: 0.0 }
    }
}

/// The state a work item starts from: the initial state, then forced steps and the item's choices
/// in order, stopping right after the last choice.
pub(crate) fn replay_prefix<M: Stateful>(model: &M, path: &[M::Label]) -> Result<M::State, M::Error> {
    let mut state = model.initial()?;
    let mut picks = path.iter();
    let Some(mut next) = picks.next() else { return Ok(state) };
    let mut lanes = Vec::new();
    loop {
        model.runnable(&mut state, &mut lanes);
        if lanes.len() == 1 {
            model.step(&mut state, lanes[0])?;
            continue;
        }
        let Some(&lane) = lanes.iter().find(|lane| model.label(&state, lane) == next) else {
            return Err(Failure::Nondeterministic(format!("work item choice {next} is not runnable on replay")).into());
        };
        model.step(&mut state, lane)?;
        match picks.next() {
            Some(lane) => next = lane,
            None => return Ok(state),
        }
    }
}

/// The state of a donated work item's choice point: the item's choices replayed, then the forced
/// steps after the last one (the donor ran them, and found none of their lanes asleep).
pub(crate) fn replay_choice_point<M: Stateful>(model: &M, path: &[M::Label]) -> Result<M::State, M::Error> {
    let mut state = replay_prefix(model, path)?;
    let mut lanes = Vec::new();
    loop {
        model.runnable(&mut state, &mut lanes);
        if lanes.len() != 1 {
            return Ok(state);
        }
        model.step(&mut state, lanes[0])?;
    }
}

/// Expands the first `split_depth` choice points in lane order, collecting work items. Reduced
/// as the search below is (without state caching): a lane asleep is not expanded, a step that
/// is a persistent set on its own (`Model::alone`) leaves its later siblings unexpanded, and
/// each work item carries the sleep set it was reached with, so that cutting the tree at a
/// depth does not multiply the schedules explored (issue 30: 300 sequential registrations made
/// 89,700 work items, each starting from an empty sleep set). With a delay bound (no sleep sets
/// and no persistent sets there) every choice is expanded, a choice other than the first lane
/// counts as a delay there too, and one beyond the bound is cut (`counts.2`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn split<M: Stateful>(
    model: &M,
    mut state: M::State,
    path: Vec<M::Label>,
    mut sleep: Vec<(M::Label, M::Footprint)>,
    delays: u32,
    options: &Options,
    out: &mut Vec<WorkItem<M::Label, M::Footprint>>,
    counts: &mut (u64, u64, bool),
) -> Result<(), M::Error> {
    let reduce = options.reduce && options.delay_bound.is_none();
    let asleep = |sleep: &[(M::Label, M::Footprint)], label: &M::Label| sleep.iter().any(|(l, _)| l == label);
    let mut lanes = Vec::new();
    loop {
        model.runnable(&mut state, &mut lanes);
        if path.len() >= options.split_depth || lanes.len() != 1 {
            if path.len() >= options.split_depth || lanes.is_empty() || model.units(&state) >= options.max_units {
                out.push(WorkItem::subtree(path, sleep, delays));
                return Ok(());
            }
            counts.0 += 1;
            // The lanes expanded so far from this choice point, with their footprints.
            let mut explored: Vec<(M::Label, M::Footprint)> = Vec::new();
            for (i, lane) in lanes.into_iter().enumerate() {
                let label = model.label(&state, &lane).clone();
                if reduce && asleep(&sleep, &label) {
                    continue;
                }
                let delays = delays + (options.delay_bound.is_some() && i > 0) as u32;
                if options.delay_bound.is_some_and(|bound| delays > bound) {
                    counts.2 = true;
                    continue;
                }
                let mut child = state.clone();
                let fp = model.step(&mut child, lane)?;
                counts.1 += 1;
                let mut child_path = path.clone();
                child_path.push(label.clone());
                let child_sleep = if reduce {
                    sleep.iter().chain(&explored).filter(|(_, f)| !f.conflicts(&fp)).cloned().collect()
                } else {
                    Vec::new()
                };
                split(model, child, child_path, child_sleep, delays, options, out, counts)?;
                if reduce && model.alone(&fp) {
                    break;
                }
                if reduce {
                    explored.push((label, fp));
                }
            }
            return Ok(());
        }
        if model.units(&state) >= options.max_units {
            out.push(WorkItem::subtree(path, sleep, delays));
            return Ok(());
        }
        // A forced step follows the sleep-set rule as in the search (`run_forced_steps`): a
        // sleeping lane ends the branch; a step removes from the sleep set what it conflicts with.
        if reduce && asleep(&sleep, model.label(&state, &lanes[0])) {
            return Ok(());
        }
        let fp = model.step(&mut state, lanes[0])?;
        sleep.retain(|(_, f)| !f.conflicts(&fp));
    }
}
