//! State caching: whether a choice point needs exploring, and which of its lanes, over the
//! explorer's own visited table, the table the threads share, or the delay bound's table.

use std::collections::hash_map::Entry;
use std::sync::atomic::Ordering;

use super::{is_asleep, retain_from, Explorer};
use crate::table::{Key, Shard, Visit};
use crate::{LaneId, Stateful};

impl<M: Stateful> Explorer<'_, M> {
    /// State caching with sleep sets over the table the threads share (`visit_own`'s rule, for
    /// one thread): `None` when the state needs no exploring, else the lanes to explore (`None`:
    /// every awake lane; else only these, by their shared numbers), with the sleep set narrowed
    /// as on a revisit.
    ///
    /// Why a state another thread stored, and may still be exploring, can be trusted. Godefroid's
    /// argument for state caching with sleep sets (on an acyclic state space, as here: states
    /// never repeat along a schedule) is an induction on the states below: once every visit of a
    /// state has finished, the lanes explored from it by all its visits together are its awake
    /// lanes less the *stored* sleep set (the intersection of the visits' sleep sets), each
    /// explored with a sleep set made from that visit's own sleep set and its own earlier
    /// siblings. The claim is about the finished search, not about the order in which visits
    /// run: nothing in it needs the first visit to have finished when the second one consults
    /// the table. What it needs is that (1) the first visit explores every lane it did not find
    /// asleep, and (2) reading the stored set, comparing and shrinking it is one step, so two
    /// visits cannot both read the same set and each write back their own (a lost update would
    /// let a lane be skipped by both). (2) holds because the entry is read and written under its
    /// shard's lock. (1) holds unless the first visit is stopped early: by `max-states`, the time
    /// limit or Ctrl-C (then the whole search ends incomplete and says so), or because it is a
    /// persistent set of one (`Model::alone`: its other lanes need no exploring from any visit,
    /// which is the same argument as with one thread). A lane that only the first visit would
    /// have explored is therefore explored, by that visit, before the search ends; or by the
    /// thread that visit donated it to (dynamic splitting, `crate::share`), with the sleep set
    /// the visit would have given it, which is the same exploration by another thread.
    ///
    /// The depth rule likewise: a state first stored at a greater depth is trusted only while
    /// no branch of the whole search has been cut by `max_depth` (one flag for every thread). A
    /// thread may trust it just before another thread's cut (even one below this state); the
    /// cut makes the search incomplete, and an incomplete search claims nothing.
    pub(super) fn visit_shared(
        &mut self,
        key: Key,
        depth: u32,
        base: usize,
    ) -> Option<Option<smallvec::SmallVec<[LaneId; 8]>>> {
        let shared = self.shared.expect("a shared table");
        let mut current: smallvec::SmallVec<[LaneId; 8]> = smallvec::SmallVec::new();
        for i in base..self.sleep.len() {
            let id = self.sleep[i].0;
            current.push(self.stored_id(id));
        }
        current.sort_unstable();
        let asleep = |lane: &LaneId| current.binary_search(lane).is_ok();
        let depth_cut = shared.depth_cut.load(Ordering::Relaxed);
        let mut guard = shared.shard(key);
        let Shard { visited, sleep_sets } = &mut *guard;
        let visit = match visited.entry(key) {
            Entry::Vacant(entry) => {
                let sleep = sleep_sets.intern(&current);
                entry.insert(Visit { depth, sleep });
                return Some(None);
            }
            Entry::Occupied(entry) => entry.into_mut(),
        };
        let stored = sleep_sets.get(visit.sleep);
        let depth_covered = visit.depth <= depth || !depth_cut;
        if depth_covered && stored.iter().all(asleep) {
            return None;
        }
        visit.depth = visit.depth.min(depth);
        if visit.sleep == 0 {
            return Some(None);
        }
        let common: smallvec::SmallVec<[LaneId; 8]> = stored.iter().copied().filter(asleep).collect();
        let revisit: Option<smallvec::SmallVec<[LaneId; 8]>> =
            depth_covered.then(|| stored.iter().copied().filter(|l| !asleep(l)).collect());
        visit.sleep = sleep_sets.intern(&common);
        drop(guard);
        if revisit.is_some() {
            let to_shared = &self.to_shared;
            retain_from(&mut self.sleep, base, |(l, _)| common.contains(&to_shared[*l as usize]));
        }
        Some(revisit)
    }

    /// State caching with sleep sets over this explorer's own table, `visited`: `None` when the
    /// state needs no exploring, else the lanes to explore (`None`: every awake lane), with the
    /// sleep set `self.sleep[base..]` narrowed as on a revisit.
    pub(super) fn visit_own(
        &mut self,
        key: Key,
        depth: u32,
        base: usize,
    ) -> Option<Option<smallvec::SmallVec<[LaneId; 8]>>> {
        let Explorer { visited, sleep_sets, sleep, scratch, depth_cut, .. } = self;
        let asleep = |lane: &LaneId| is_asleep(&sleep[base..], *lane);
        let mut revisit = None;
        match visited.entry(key) {
            Entry::Occupied(mut entry) => {
                let v = entry.get_mut();
                let stored = sleep_sets.get(v.sleep);
                // A visit at a greater depth covered everything below this state unless the
                // depth bound cut some branch somewhere (then it may have cut one below here).
                let depth_covered = v.depth <= depth || !*depth_cut;
                if depth_covered && stored.iter().all(asleep) {
                    return None;
                }
                // Remember the smaller depth and the common sleep set: the lanes asleep now
                // that slept then too.
                v.depth = v.depth.min(depth);
                if v.sleep != 0 {
                    scratch.clear();
                    scratch.extend(stored.iter().copied().filter(asleep));
                    if depth_covered {
                        // Godefroid's state caching with sleep sets: explore the lanes that
                        // slept then and are awake now, with the sleep set both visits share.
                        revisit = Some(stored.iter().copied().filter(|l| !asleep(l)).collect());
                        retain_from(sleep, base, |(l, _)| scratch.contains(l));
                    }
                    v.sleep = sleep_sets.intern(scratch);
                }
            }
            Entry::Vacant(entry) => {
                scratch.clear();
                scratch.extend(sleep[base..].iter().map(|(l, _)| *l));
                scratch.sort_unstable();
                entry.insert(Visit { depth, sleep: sleep_sets.intern(scratch) });
            }
        }
        Some(revisit)
    }

    /// State caching under a delay bound (no sleep sets): false when `state` was explored
    /// before with at least as many delays left, and so needs no exploring now.
    pub(super) fn visit_delay_bounded(&mut self, state: &M::State, depth: u32) -> bool {
        let key = Key::new(self.model.fingerprint(state));
        let delays = self.delays;
        match self.delay_visited.entry(key) {
            Entry::Occupied(mut entry) => {
                let (seen_depth, seen_delays) = entry.get_mut();
                // Explored before with at least as many delays left (and, unless the depth
                // bound cut a branch, as deep): every schedule from here within the bound
                // was covered then.
                if *seen_delays <= delays && (*seen_depth <= depth || !self.depth_cut) {
                    return false;
                }
                *seen_depth = (*seen_depth).min(depth);
                *seen_delays = (*seen_delays).min(delays);
            }
            Entry::Vacant(entry) => {
                entry.insert((depth, delays));
            }
        }
        true
    }
}
