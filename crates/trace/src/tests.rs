//! Tests for trace rendering.

use super::*;

fn sample() -> Trace {
    Trace {
        version: VERSION,
        scenario: "t".into(),
        options: vec![],
        spec_revision: "rev".into(),
        documents: vec![],
        event_loops: vec![],
        units: vec![Unit {
            index: 0,
            time: 0,
            lane: "el0.net".into(),
            choice_among: vec!["el0.net".into(), "par#0".into()],
            document: Some("tab".into()),
            what: "run script".into(),
            cite: Cite::new("HTML", "script"),
            events: vec![Event {
                cite: Cite::new("console.log", ""),
                kind: EventKind::Console { document: "tab".into(), text: "hi".into() },
            }],
        }],
        schedule: "el0.net".into(),
        outcome: Outcome { end: "quiescent".into(), ..Outcome::default() },
    }
}

#[test]
fn text_has_choice_unit_and_event_lines() {
    let text = sample().render_text();
    assert!(text.contains("  ? el0.net | par#0\n#000 t=0   el0.net tab  run script  [HTML script]\n"), "{text}");
    assert!(text.contains("       console.log(tab): hi  [console.log]\n"), "{text}");
    assert!(text.ends_with("schedule: el0.net\n"), "{text}");
}

#[test]
fn json_round_trips() {
    let t = sample();
    let back: Trace = serde_json::from_str(&t.render_json()).unwrap();
    assert_eq!(back, t);
}
