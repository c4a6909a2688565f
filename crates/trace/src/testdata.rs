//! Traces for the renderers' unit tests: the spec example's shape, and one whose every string is
//! hostile.

use crate::*;

/// Strings that break a renderer that does not escape: HTML and script tags, Mermaid statement
/// ends, comments, directives and arrows, Markdown tables and fences, JSON quotes, line breaks.
pub const HOSTILE: &[&str] = &[
    "</script><script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "%%{init: {'theme':'dark'}}%%",
    "a;b#c-->d\nparticipant Z",
    "x --> y ->> z; Note over EL0: pwned",
    "| col | ```mermaid\n# heading",
    "\"quoted\" & 'single' \\ back`tick`",
    "]]> <!-- <![CDATA[ end",
    "https://evil.example/a;b?c=<d>#e%%f",
    "multi\r\nline\ttab\u{0}nul",
    "ünïcödé ✓ 漢字 \u{202e}rtl",
    "@octocat see #1 [x](javascript:alert(3))",
];

fn unit(index: usize, lane: &str, document: Option<&str>, what: &str, cite: (&str, &str), events: Vec<Event>) -> Unit {
    Unit {
        index,
        time: 0,
        lane: lane.into(),
        choice_among: vec![],
        document: document.map(Into::into),
        what: what.into(),
        cite: Cite::new(cite.0, cite.1),
        events,
    }
}

fn event(cite: (&str, &str), kind: EventKind) -> Event {
    Event { cite: Cite::new(cite.0, cite.1), kind }
}

fn queued(lane: &str, document: &str, cite: (&str, &str)) -> Event {
    event(cite, EventKind::Queued { lane: lane.into(), document: Some(document.into()) })
}

fn console(document: &str, text: &str) -> Event {
    event(("console log", ""), EventKind::Console { document: document.into(), text: text.into() })
}

/// The shape of `notify-task-ordering` at seed 3: a script task starts an in-parallel block that
/// queues three webmcp tasks; a timer task wins the race.
pub fn notify() -> Trace {
    const NOTIFY: (&str, &str) = ("notify documents of a tool change", "3.3");
    let mut units = vec![
        unit(
            0,
            "el0.net",
            Some("parent"),
            "run the document's script",
            ("HTML", "run a classic script"),
            vec![
                event(("registerTool", "20"), EventKind::Note { message: "tool map set".into() }),
                event(("registerTool", "21"), EventKind::InParallel { lane: "par#0".into() }),
            ],
        ),
        unit(
            1,
            "par#0",
            None,
            "notify documents, then queue the resolve task",
            ("registerTool", "21"),
            vec![
                queued("el0.webmcp", "parent", NOTIFY),
                queued("el0.webmcp", "child", NOTIFY),
                queued("el0.webmcp", "parent", ("registerTool", "21.2")),
            ],
        ),
        unit(
            2,
            "el0.timer",
            Some("parent"),
            "run a setTimeout callback",
            ("HTML", "timer initialization steps"),
            vec![console("parent", "Post-register task")],
        ),
        unit(3, "el0.webmcp", Some("parent"), "fire toolchange", NOTIFY, vec![console("parent", "Parent toolchange")]),
        unit(4, "el0.webmcp", Some("child"), "fire toolchange", NOTIFY, vec![console("parent", "Child toolchange")]),
        unit(
            5,
            "el0.webmcp",
            Some("parent"),
            "resolve p",
            ("registerTool", "21.2"),
            vec![
                event(
                    ("registerTool", "21.2"),
                    EventKind::Settled { promise: "p".into(), state: "fulfilled(undefined)".into() },
                ),
                console("parent", "Register promise resolved"),
            ],
        ),
    ];
    units[2].choice_among = vec!["el0.timer".into(), "el0.webmcp".into()];
    Trace {
        version: VERSION,
        scenario: "notify-task-ordering".into(),
        options: vec!["parallel=unordered".into()],
        spec_revision: "rev".into(),
        documents: vec![
            DocumentLegend {
                label: "parent".into(),
                url: "https://example.com/".into(),
                origin: "https://example.com".into(),
                event_loop: "el0".into(),
                secure_context: true,
                tools_allowed: true,
            },
            DocumentLegend {
                label: "child".into(),
                url: "https://example.com/frame".into(),
                origin: "https://example.com".into(),
                event_loop: "el0".into(),
                secure_context: true,
                tools_allowed: true,
            },
        ],
        event_loops: vec![LoopLegend {
            label: "el0".into(),
            agent_cluster: "origin https://example.com".into(),
            documents: vec!["parent".into(), "child".into()],
        }],
        units,
        schedule: "par#0,el0.timer".into(),
        outcome: Outcome {
            console: ["Post-register task", "Parent toolchange", "Child toolchange", "Register promise resolved"]
                .iter()
                .map(|t| ConsoleLine { document: "parent".into(), text: (*t).into() })
                .collect(),
            promises: vec![PromiseOutcome {
                promise: "p".into(),
                document: "parent".into(),
                state: "fulfilled(undefined)".into(),
            }],
            tool_maps: vec![("parent".into(), vec!["tool_name".into()]), ("child".into(), vec![])],
            end: "quiescent".into(),
            ..Outcome::default()
        },
    }
}

/// A trace with every kind of unit and event, every string of which is hostile; each console
/// line, note and finding carries one of [`HOSTILE`].
pub fn hostile() -> Trace {
    let h = |i: usize| HOSTILE[i % HOSTILE.len()].to_string();
    let mut t = notify();
    t.scenario = h(0);
    t.options.push(h(2));
    t.spec_revision = h(1);
    t.documents[0].url = h(8);
    t.documents[1].origin = h(3);
    t.event_loops[0].agent_cluster = h(4);
    let mut units = Vec::new();
    for (i, text) in HOSTILE.iter().enumerate() {
        units.push(unit(
            i,
            "el0.timer",
            Some("parent"),
            text,
            (text, text),
            vec![
                console(text, text),
                event((text, "1"), EventKind::Settled { promise: h(i + 1), state: h(i + 2) }),
                event((text, "2"), EventKind::SettleNoOp { promise: h(i + 3), attempted: h(i + 4) }),
                event((text, "3"), EventKind::Uncaught { document: h(i + 5), error: h(i + 6) }),
                event((text, "4"), EventKind::AssertFailed { message: h(i + 7) }),
                event((text, "5"), EventKind::Interpretation { message: h(i + 8) }),
                event((text, "6"), EventKind::Fired { event: h(i + 9), target: h(i + 10), handled: true }),
                event((text, "7"), EventKind::Note { message: h(i + 11) }),
                queued("el0.webmcp", text, (text, "8")),
                event((text, "9"), EventKind::InParallel { lane: format!("par#{i}") }),
            ],
        ));
    }
    let n = units.len();
    for (i, document) in HOSTILE.iter().enumerate() {
        units.push(unit(n + 2 * i, "el0.webmcp", Some(document), &h(i + 1), (&h(i + 2), ""), vec![]));
        units.push(unit(n + 2 * i + 1, &format!("par#{i}"), None, &h(i + 3), (&h(i + 4), "x"), vec![]));
    }
    units.push(unit(units.len(), "agent", None, &h(5), ("agent", "1"), vec![]));
    units.push(unit(units.len(), "user", None, &h(6), ("user", "1"), vec![]));
    units.push(unit(units.len(), "time", None, &h(7), ("HTML", "run steps after a timeout"), vec![]));
    units[3].choice_among = vec![h(3), h(4)];
    t.units = units;
    t.outcome.console = HOSTILE.iter().map(|s| ConsoleLine { document: (*s).into(), text: (*s).into() }).collect();
    t.outcome.uncaught = t.outcome.console.clone();
    t.outcome.promises = HOSTILE
        .iter()
        .map(|s| PromiseOutcome { promise: (*s).into(), document: (*s).into(), state: (*s).into() })
        .collect();
    t.outcome.tool_maps = HOSTILE.iter().map(|s| ((*s).into(), vec![(*s).into()])).collect();
    t.outcome.agent = HOSTILE.iter().map(|s| (*s).to_string()).collect();
    t.outcome.findings = HOSTILE
        .iter()
        .enumerate()
        .map(|(i, s)| Finding {
            unit: i,
            cite: Cite::new(s, s),
            message: (*s).into(),
            called_from: Some(Cite::new(s, s)),
        })
        .collect();
    t.outcome.end = h(9);
    t.schedule = "el0.timer,par#0".into();
    t
}
