//! Tests of the findings list: copies share it, and long lists drop without deep recursion.

use super::{Findings, Recorded};

fn recorded(n: usize) -> Recorded {
    Recorded { unit: n, step: ("executeTool", "15.10"), message: format!("finding {n}").into(), called_from: None }
}

/// A copy keeps the findings it had when copied; both lists read back oldest first.
#[test]
fn a_copy_keeps_what_it_had_and_each_list_reads_in_recording_order() {
    let mut a = Findings::default();
    a.push(recorded(0));
    a.push(recorded(1));
    let mut b = a.clone();
    b.push(recorded(2));
    a.push(recorded(3));
    let units = |f: &Findings| f.to_vec().iter().map(|x| x.unit).collect::<Vec<_>>();
    assert_eq!((a.len, units(&a)), (3, vec![0, 1, 3]));
    assert_eq!((b.len, units(&b)), (3, vec![0, 1, 2]));
    assert_eq!(b.to_vec()[2].message, "finding 2");
    assert_eq!(b.to_vec()[2].cite.to_string(), "executeTool 15.10");
}

/// Dropping a list far longer than any run records does not recurse per node.
#[test]
fn a_long_list_drops_without_deep_recursion() {
    let mut f = Findings::default();
    for n in 0..1_000_000 {
        f.push(recorded(n));
    }
    let shared = f.clone();
    drop(f);
    assert_eq!(shared.len, 1_000_000);
    drop(shared);
}

/// Fingerprints compare findings as a set (outcomes keep each finding once): how often one was
/// recorded and in which order do not tell two logs apart; a finding that only one has does.
#[test]
fn logs_hash_as_sets_of_findings() {
    let hash = |f: &Findings| browser::digest128(f);
    let mut once = Findings::default();
    once.push(recorded(0));
    once.push(recorded(1));
    let mut twice = Findings::default();
    twice.push(recorded(1));
    twice.push(recorded(0));
    twice.push(recorded(1));
    assert_eq!(hash(&once), hash(&twice));
    assert_eq!(twice.len, 3);
    let mut more = once.clone();
    more.push(recorded(2));
    assert_ne!(hash(&once), hash(&more));
    assert_ne!(hash(&Findings::default()), hash(&once));
}

/// With `drop_repeats`, a finding equal to one recorded before is neither kept nor counted, and
/// the log hashes as it would with the repeat kept.
#[test]
fn dropping_repeats_keeps_the_first_of_equal_findings() {
    let mut kept = Findings::default();
    let mut dropped = Findings::default();
    dropped.drop_repeats();
    for n in [0, 1, 0, 2, 1] {
        kept.push(recorded(n));
        dropped.push(recorded(n));
    }
    let units = |f: &Findings| f.to_vec().iter().map(|x| x.unit).collect::<Vec<_>>();
    assert_eq!((kept.len, units(&kept)), (5, vec![0, 1, 0, 2, 1]));
    assert_eq!((dropped.len, units(&dropped)), (3, vec![0, 1, 2]));
    assert_eq!(browser::digest128(&kept), browser::digest128(&dropped));
    // A copy goes on dropping them.
    let mut copy = dropped.clone();
    copy.push(recorded(2));
    assert_eq!(copy.len, 3);
}
