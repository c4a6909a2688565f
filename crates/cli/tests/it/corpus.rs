//! Every shipped scenario: snapshot at seed 0, determinism, replay, JSON round trip.

use cli::{load_program, run_program, Driver, Format};
use sched::{RandomChooser, Schedule};

use crate::{run_file, workspace_root};

#[test]
fn corpus_snapshots_at_seed_0() {
    insta::glob!("../../../../scenarios", "**/*.jsonc", |path| {
        insta::assert_snapshot!(run_file(path, 0, Format::Text));
    });
}

#[test]
fn same_seed_gives_byte_identical_output_and_replay_reproduces_it() {
    let files = cli::scenario_files(&workspace_root().join("scenarios")).unwrap();
    assert!(files.len() >= 2, "the corpus is missing");
    for path in files {
        let program = load_program(&path).unwrap_or_else(|e| panic!("{e}"));
        for seed in [0, 1, 7, 42] {
            for format in [Format::Text, Format::Json] {
                let a = run_program(&program, &Driver::Seed(seed), format, 10_000).unwrap();
                let b = run_program(&program, &Driver::Seed(seed), format, 10_000).unwrap();
                assert_eq!(a, b, "{}: seed {seed} is not deterministic", path.display());
            }
            let trace = webmcp::run(&program, &mut RandomChooser::new(seed), webmcp::Limits::default()).unwrap();
            let schedule = Schedule::parse(&trace.schedule).unwrap();
            let replayed = run_program(&program, &Driver::Replay(schedule), Format::Text, 10_000).unwrap();
            assert_eq!(
                replayed,
                trace.render_text(),
                "{}: replaying seed {seed}'s schedule gives another trace",
                path.display()
            );
            let back: trace::Trace = serde_json::from_str(&trace.render_json()).unwrap();
            assert_eq!(back, trace, "{}: the JSON trace does not round-trip", path.display());
        }
    }
}
