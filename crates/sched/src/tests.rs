//! Unit tests for choosers and schedule strings.

use super::*;

fn lanes(labels: &[&str]) -> Vec<Lane> {
    labels.iter().map(|l| Lane::new(*l)).collect()
}

#[test]
fn schedule_round_trips_with_run_length() {
    let s = Schedule { picks: lanes(&["a", "a", "b", "c", "c", "c"]) };
    assert_eq!(s.to_string(), "a*2,b,c*3");
    assert_eq!(Schedule::parse("a*2,b,c*3").unwrap(), s);
    assert_eq!(Schedule::parse(" a*2 , b ,c*3 ").unwrap(), s);
}

#[test]
fn empty_schedule_is_dash() {
    assert_eq!(Schedule::default().to_string(), "-");
    assert_eq!(Schedule::parse("-").unwrap(), Schedule::default());
}

#[test]
fn schedule_parse_errors_name_the_column() {
    let err = Schedule::parse("a,b c").unwrap_err();
    assert_eq!(err.offset, 2);
    let err = Schedule::parse("a,b*0").unwrap_err();
    assert!(err.message.contains("repeat count"), "{err}");
    let err = Schedule::parse("a,b*x").unwrap_err();
    assert!(err.message.contains("whole number"), "{err}");
}

#[test]
fn random_chooser_is_seeded() {
    let runnable = lanes(&["a", "b", "c", "d"]);
    let picks = |seed| {
        let mut c = RandomChooser::new(seed);
        (0..64).map(|_| c.choose(&runnable).unwrap()).collect::<Vec<_>>()
    };
    assert_eq!(picks(7), picks(7));
    assert_ne!(picks(7), picks(8));
    assert!(picks(7).iter().all(|&i| i < 4));
    // Every lane is reachable.
    let seen: std::collections::BTreeSet<_> = picks(7).into_iter().collect();
    assert_eq!(seen.len(), 4);
}

#[test]
fn replay_reproduces_and_reports_divergence() {
    let runnable = lanes(&["a", "b"]);
    let mut rec = Recorder::new(RandomChooser::new(3));
    let original: Vec<_> = (0..10).map(|_| rec.choose(&runnable).unwrap()).collect();
    let mut replay = ReplayChooser::new(&rec.schedule);
    let replayed: Vec<_> = (0..10).map(|_| replay.choose(&runnable).unwrap()).collect();
    assert_eq!(original, replayed);
    assert_eq!(replay.remaining(), 0);
    assert!(matches!(replay.choose(&runnable), Err(ChooseError::Exhausted { choice: 10, .. })));

    let mut replay = ReplayChooser::new(&Schedule::parse("z").unwrap());
    let err = replay.choose(&runnable).unwrap_err();
    assert!(err.to_string().contains("`z`, which is not runnable here (runnable: a, b)"), "{err}");
}

#[test]
fn a_name_is_one_copy_of_its_text_and_compares_and_hashes_as_the_text() {
    use std::hash::{BuildHasher, BuildHasherDefault};
    let made = Name::new("name-test.example");
    let again = Name::new(&String::from("name-test.example"));
    assert!(std::ptr::eq(made.as_str(), again.as_str()), "equal texts share one copy");
    assert_eq!(made, again);
    assert_ne!(made, Name::new("name-test.example."));
    // Order is the texts' order, whatever order the names were made in.
    let (z, a) = (Name::new("zz-name-order"), Name::new("aa-name-order"));
    let mut sorted = vec![z, a, made];
    sorted.sort();
    assert_eq!(sorted, [a, made, z]);
    // The hash is the text's (fingerprints must not depend on where a text lives).
    let hasher = BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default();
    assert_eq!(hasher.hash_one(made), hasher.hash_one("name-test.example"));
    assert_eq!(format!("{made:?} {made}"), "\"name-test.example\" name-test.example");
}

#[test]
fn lanes_parsed_from_a_schedule_are_the_lanes_made_by_name() {
    let parsed = Schedule::parse("el0.webmcp,par:el0.webmcp/0").unwrap();
    let made = lanes(&["el0.webmcp", "par:el0.webmcp/0"]);
    assert_eq!(parsed.picks, made);
    assert!(parsed.picks.iter().zip(&made).all(|(p, m)| std::ptr::eq(p.as_str(), m.as_str())));
}

#[test]
fn pct_with_depth_one_keeps_running_its_highest_priority_lane() {
    let lanes: Vec<Lane> = ["a", "b", "c"].iter().map(Lane::new).collect();
    for seed in 0..20 {
        let mut c = PctChooser::new(seed, 1, 10);
        let first = c.choose(&lanes).unwrap();
        for _ in 0..10 {
            assert_eq!(c.choose(&lanes).unwrap(), first, "seed {seed}: no change point at depth 1");
        }
    }
}

#[test]
fn pct_change_points_make_another_lane_run_and_seeds_cover_every_order() {
    let lanes: Vec<Lane> = ["a", "b"].iter().map(Lane::new).collect();
    let mut orders = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let mut c = PctChooser::new(seed, 2, 3);
        let picks: Vec<usize> = (0..3).map(|_| c.choose(&lanes).unwrap()).collect();
        // One change point in 1..=3: the lane running before it never runs after it.
        let switches = picks.windows(2).filter(|w| w[0] != w[1]).count();
        assert!(switches <= 1, "seed {seed}: {picks:?}");
        orders.insert(picks);
    }
    // Both lanes first, and a switch at every point.
    assert_eq!(orders.len(), 6, "{orders:?}");
    assert_eq!(PctChooser::new(7, 3, 50).choose(&lanes).unwrap(), PctChooser::new(7, 3, 50).choose(&lanes).unwrap());
    assert!((pct_bound(2, 10, 3) - 1.0 / 200.0).abs() < 1e-12);
}
