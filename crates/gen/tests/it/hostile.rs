//! Hostile input: the parser on generated hostile text (a bounded number of cases here; run
//! `webmcp-sim fuzz-parser` for millions), runs and explorations that would never end stopping
//! at their documented bounds, and the guarantee that a scenario reads no file and opens no
//! connection.

use std::path::Path;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use sched::RandomChooser;
use webmcp::{ExploreOptions, Limits, SearchOptions};

proptest! {
    #![proptest_config(ProptestConfig { cases: 3_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every hostile input gets a result (a scenario or diagnostics) in bounded time; inputs
    /// that parse also compile and run within the unit limit.
    #[test]
    fn the_parser_never_panics_and_answers_quickly(
        (family, text) in gen::hostile::hostile_text(gen::hostile::corpus(0, 8))
    ) {
        let start = Instant::now();
        let (_, _, panic) = gen::hostile::check_input(&text);
        prop_assert_eq!(panic, None, "{:?}: {:?}", family, text);
        prop_assert!(start.elapsed() < Duration::from_secs(5), "{:?} took {:?}", family, start.elapsed());
    }
}

fn program(text: &str) -> webmcp::Program {
    webmcp::compile(&scenario::parse_str("t.jsonc", text).unwrap_or_else(|d| panic!("{d:?}"))).expect("compiles")
}

/// A `toolchange` handler that registers a tool with a fresh signal and aborts it: every
/// unregistration notifies again, forever.
const ENDLESS: &str = include_str!("../../../../fixtures/scenarios/endless.jsonc");

#[test]
fn a_run_that_never_ends_stops_at_the_unit_limit() {
    let trace = webmcp::run(&program(ENDLESS), &mut RandomChooser::new(0), Limits::default()).expect("runs");
    assert_eq!(trace.units.len(), 10_000 + trace.units.iter().filter(|u| u.lane == "time").count());
    assert_eq!(trace.outcome.end, "stopped: unit limit reached (10000 units); the run is not finished");
    assert!(trace.render_text().contains("  end: stopped: unit limit reached"));
}

#[test]
fn many_timers_stay_within_the_action_limit_and_stop_at_a_smaller_unit_limit() {
    let timers = vec![r#"{"setTimeout": {"ms": 1, "do": [{"log": "t"}]}}"#; 4_999].join(",");
    let text = format!(
        r#"{{"version": 1, "name": "timers", "tabs": [{{"id": "tab", "url": "https://a.example/", "script": [{timers}]}}]}}"#
    );
    let p = program(&text);
    let trace = webmcp::run(&p, &mut RandomChooser::new(0), Limits::default()).expect("runs");
    assert_eq!(trace.outcome.end, "quiescent");
    assert_eq!(trace.outcome.console.len(), 4_999);
    let trace = webmcp::run(&p, &mut RandomChooser::new(0), Limits { max_units: 1_000 }).expect("runs");
    assert_eq!(trace.outcome.end, "stopped: unit limit reached (1000 units); the run is not finished");
    // One more timer is one action too many.
    let text = text.replace(r#"{"log": "t"}]}}]"#, r#"{"log": "t"}]}},{"log": "x"},{"log": "y"},{"log": "z"}]"#);
    let errors = scenario::parse_str("t.jsonc", &text).map(|_| ()).unwrap_err();
    assert_eq!(errors[0].message, "the scenario has more than 10000 actions");
}

#[test]
fn exploring_an_endless_scenario_stops_at_its_bounds() {
    let start = Instant::now();
    let options =
        ExploreOptions::from(SearchOptions { max_states: 300, max_depth: 60, max_units: 400, ..Default::default() });
    let ex = webmcp::explore(&program(ENDLESS), &options).expect("explores");
    assert!(!ex.complete);
    assert!(!ex.bounds_hit.is_empty(), "{:?}", ex.bounds_hit);
    assert!(start.elapsed() < Duration::from_secs(30));
    println!("bounded: {:?} {:?}", start.elapsed(), ex.bounds_hit);
    let start = Instant::now();
    let timed =
        ExploreOptions::from(SearchOptions { time_limit: Some(Duration::from_millis(200)), ..Default::default() });
    let ex = webmcp::explore(&program(ENDLESS), &timed).expect("explores");
    assert!(!ex.complete && ex.bounds_hit.iter().any(|b| b.starts_with("time") || b.starts_with("max-")));
    println!("timed: {:?} {:?}", start.elapsed(), ex.bounds_hit);
}

/// What the engine crates may not name: a scenario reads no file and opens no connection because
/// none of the code that parses, compiles or runs it can. `scenario::load` and `read_file` (the
/// path the command line passes) are the one exception, in `crates/scenario/src/parse.rs`.
const FORBIDDEN: &[&str] = &[
    "std::fs",
    "fs::",
    "File::",
    "OpenOptions",
    "std::net::Tcp",
    "std::net::Udp",
    "TcpStream",
    "TcpListener",
    "UdpSocket",
    "ToSocketAddrs",
    "std::process",
    "Command::new",
    "std::env",
    "include_str!",
    "include_bytes!",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn a_scenario_can_read_no_file_and_open_no_connection() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for krate in ["sched", "browser", "webmcp", "scenario"] {
        rust_files(&crates.join(krate).join("src"), &mut files);
    }
    assert!(files.len() > 20);
    for file in files {
        let name = file.display().to_string();
        if name.contains("/tests") || name.ends_with("tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("source");
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            for word in FORBIDDEN {
                let allowed = name.ends_with("scenario/src/parse.rs") && code.contains("std::fs::File::open(path)");
                assert!(!code.contains(word) || allowed, "{name}:{}: `{word}` in {line:?}", i + 1);
            }
        }
    }
    // The engine's manifests name no networking or file-system crate either.
    for krate in ["sched", "browser", "webmcp", "scenario", "trace"] {
        let manifest = std::fs::read_to_string(crates.join(krate).join("Cargo.toml")).expect("manifest");
        for dep in ["reqwest", "hyper", "ureq", "curl", "tokio", "async-std", "mio", "walkdir", "tempfile"] {
            assert!(!manifest.contains(&format!("\n{dep}")), "{krate} depends on {dep}");
        }
    }
}
