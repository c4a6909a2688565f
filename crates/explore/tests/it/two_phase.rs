//! Two-phase commit (Gray and Lamport's `TwoPhase` TLA+ specification, as in stateright's
//! example): with 3 resource managers TLC counts 288 distinct states, with 5 8,832.
//!
//! Each enabled action is a lane of its own. Actions that would not change the state (receiving
//! a message a second time) are not enabled: they add no state, and the engine's search assumes
//! every step makes progress.

use explore::{Labels, Model};

use crate::{options, outcome_keys, Bits, Never};

const WORKING: u8 = 0;
const PREPARED: u8 = 1;
const COMMITTED: u8 = 2;
const ABORTED: u8 = 3;
const INIT: u8 = 0;

#[derive(Clone)]
pub struct TwoPhase {
    rms: usize,
    labels: Vec<String>,
}

/// The actions, as lanes: per resource manager `rm` (`7 * rm + k`): prepare, choose to abort,
/// receive commit, receive abort, and the manager's receive-prepared; then the manager's
/// commit and abort.
const PER_RM: usize = 5;

impl TwoPhase {
    pub fn new(rms: usize) -> TwoPhase {
        let mut labels = Vec::new();
        for rm in 0..rms {
            for action in ["prepare", "choose-to-abort", "receive-commit", "receive-abort", "tm-receive-prepared"] {
                labels.push(format!("rm{rm}.{action}"));
            }
        }
        labels.push("tm.abort".into());
        labels.push("tm.commit".into());
        TwoPhase { rms, labels }
    }
    fn rm_bit(rm: usize) -> u64 {
        1 << rm
    }
    const TM_STATE: u64 = 1 << 40;
    const TM_PREPARED: u64 = 1 << 41;
    const MSGS: u64 = 1 << 42;
}

#[derive(Clone, Debug)]
pub struct State {
    rm_state: Vec<u8>,
    tm_state: u8,
    tm_prepared: u32,
    /// Prepared messages by resource manager.
    prepared_msgs: u32,
    commit_msg: bool,
    abort_msg: bool,
    steps: usize,
}

impl Model for TwoPhase {
    type State = State;
    type Lane = usize;
    type Label = String;
    type Footprint = Bits;
    type Outcome = Vec<u8>;
    type Error = Never;
    type Numbering = Labels<String>;

    fn initial(&self) -> Result<State, Never> {
        Ok(State {
            rm_state: vec![WORKING; self.rms],
            tm_state: INIT,
            tm_prepared: 0,
            prepared_msgs: 0,
            commit_msg: false,
            abort_msg: false,
            steps: 0,
        })
    }

    fn runnable(&self, s: &mut State, out: &mut Vec<usize>) {
        out.clear();
        let all = (1u32 << self.rms) - 1;
        for rm in 0..self.rms {
            let base = PER_RM * rm;
            if s.rm_state[rm] == WORKING {
                out.push(base);
                out.push(base + 1);
            }
            if s.commit_msg && s.rm_state[rm] != COMMITTED {
                out.push(base + 2);
            }
            if s.abort_msg && s.rm_state[rm] != ABORTED {
                out.push(base + 3);
            }
            if s.tm_state == INIT && s.prepared_msgs & (1 << rm) != 0 && s.tm_prepared & (1 << rm) == 0 {
                out.push(base + 4);
            }
        }
        if s.tm_state == INIT {
            out.push(PER_RM * self.rms);
            if s.tm_prepared == all {
                out.push(PER_RM * self.rms + 1);
            }
        }
        out.sort_by(|a, b| self.labels[*a].cmp(&self.labels[*b]));
    }

    fn step(&self, s: &mut State, lane: usize) -> Result<Bits, Never> {
        s.steps += 1;
        if lane == PER_RM * self.rms {
            s.tm_state = ABORTED;
            s.abort_msg = true;
            return Ok(Bits { reads: 0, writes: Self::TM_STATE | Self::MSGS });
        }
        if lane == PER_RM * self.rms + 1 {
            s.tm_state = COMMITTED;
            s.commit_msg = true;
            return Ok(Bits { reads: Self::TM_PREPARED, writes: Self::TM_STATE | Self::MSGS });
        }
        let (rm, action) = (lane / PER_RM, lane % PER_RM);
        let bit = Self::rm_bit(rm);
        Ok(match action {
            0 => {
                s.rm_state[rm] = PREPARED;
                s.prepared_msgs |= 1 << rm;
                Bits { reads: 0, writes: bit | Self::MSGS }
            }
            1 => {
                s.rm_state[rm] = ABORTED;
                Bits { reads: 0, writes: bit }
            }
            2 => {
                s.rm_state[rm] = COMMITTED;
                Bits { reads: Self::MSGS, writes: bit }
            }
            3 => {
                s.rm_state[rm] = ABORTED;
                Bits { reads: Self::MSGS, writes: bit }
            }
            _ => {
                s.tm_prepared |= 1 << rm;
                Bits { reads: Self::TM_STATE | Self::MSGS, writes: Self::TM_PREPARED }
            }
        })
    }

    fn label<'a>(&'a self, _: &'a State, lane: &usize) -> &'a String {
        &self.labels[*lane]
    }

    fn units(&self, s: &State) -> usize {
        s.steps
    }

    fn outcome(&self, s: &State) -> Vec<u8> {
        let mut o = s.rm_state.clone();
        o.push(s.tm_state);
        o
    }

    fn outcome_key(&self, outcome: &Vec<u8>) -> u128 {
        outcome.iter().fold(0, |k, &r| k << 2 | r as u128)
    }

    fn schedule_text(&self, picks: &[&String]) -> String {
        picks.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
    }
    fn detached(&self) -> Option<Self> {
        Some(self.clone())
    }
}

impl explore::Stateful for TwoPhase {
    /// Exact: every variable packed into distinct bits (at most 8 resource managers), then spread
    /// by a bijection.
    fn fingerprint(&self, s: &State) -> u128 {
        let mut f: u128 = 0;
        for &r in &s.rm_state {
            f = f << 2 | r as u128;
        }
        f = f << 2 | s.tm_state as u128;
        f = f << 8 | s.tm_prepared as u128;
        f = f << 8 | s.prepared_msgs as u128;
        crate::spread(f << 2 | (s.commit_msg as u128) << 1 | s.abort_msg as u128)
    }
}

#[test]
fn two_phase_commit_of_three_has_288_states() {
    let reachable = explore::reachable(&TwoPhase::new(3), u64::MAX).unwrap();
    assert_eq!(reachable.states, 288);
}

#[test]
fn two_phase_commit_of_five_has_8832_states() {
    let reachable = explore::reachable(&TwoPhase::new(5), u64::MAX).unwrap();
    assert_eq!(reachable.states, 8_832);
}

#[test]
fn reduced_search_finds_every_outcome_of_two_phase_commit() {
    for rms in 1..=4 {
        let model = TwoPhase::new(rms);
        let every = explore::reachable(&model, u64::MAX).unwrap().outcomes;
        assert_eq!(outcome_keys(&model, &options(false)), every, "{rms}: naive");
        assert_eq!(outcome_keys(&model, &options(true)), every, "{rms}: reduced");
        // Safety: no resource manager commits while another aborts.
        for key in &every {
            let states: Vec<u128> = (0..rms).map(|i| key >> (2 * (rms - i)) & 3).collect();
            assert!(
                !(states.contains(&(COMMITTED as u128)) && states.contains(&(ABORTED as u128))),
                "{rms}: {states:?}"
            );
        }
    }
}
