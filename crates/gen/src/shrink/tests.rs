//! Tests of seeded generation and shrinking.

use super::*;

#[test]
fn a_seed_always_generates_the_same_plan() {
    let config = GenConfig::default();
    assert_eq!(generate(7, config), generate(7, config));
    assert_ne!(generate(7, config), generate(8, config));
}

#[test]
fn shrinking_reaches_the_smallest_plan_that_still_fails() {
    let config = GenConfig::default();
    let seed = (0..100).find(|s| generate(*s, config).docs.len() >= 2).expect("a seed with two documents");
    let minimal = minimize(seed, config, 1_000, |p| p.docs.len() >= 2).expect("fails");
    assert_eq!(minimal.docs.len(), 2);
    assert!(minimal.docs.iter().all(|d| d.script.is_empty()), "{minimal:?}");
    assert!(minimal.user.is_empty() && minimal.agent.is_empty());
    assert_eq!(minimize(seed, config, 1_000, |_| false), None);
}

#[test]
fn a_case_file_names_itself_in_its_replay_command() {
    let scenario = crate::build::build(&generate(1, GenConfig::default()), "case");
    let case =
        Case { scenario: scenario.clone(), schedule: "el0.net,user".into(), title: "what".into(), details: vec![] };
    let dir = std::env::temp_dir().join(format!("gen-shrink-test-{}", std::process::id()));
    let path = write_case(&dir, "case", &case).expect("writes");
    let text = std::fs::read_to_string(&path).expect("reads");
    // A second case of the same stem gets a name of its own and leaves the first as it was.
    let other = Case { title: "other".into(), ..case.clone() };
    let second = write_case(&dir, "case", &other).expect("writes");
    assert_eq!(second, dir.join("case-2.jsonc"));
    assert_eq!(std::fs::read_to_string(&path).expect("reads"), text);
    assert!(std::fs::read_to_string(&second).expect("reads").starts_with("// other\n"));
    std::fs::remove_dir_all(&dir).ok();
    assert!(text.starts_with("// what\n// replay: webmcp-sim replay "), "{text}");
    assert!(text.contains(&format!("{} --schedule 'el0.net,user'", path.display())));
    assert_eq!(scenario::parse_str("case.jsonc", &text).expect("valid"), scenario);
}

#[test]
fn the_core_call_inlines_into_the_same_actions() {
    let config = GenConfig::default();
    let mut inlined = 0;
    for seed in 0..60 {
        let plan = generate(seed, config);
        if plan.core.is_none() {
            continue;
        }
        let p = inline_core(&plan).expect("the core's tool and window resolve as ordinary statements");
        assert!(p.core.is_none());
        let kinds = |s: &scenario::Scenario| {
            let text = crate::jsonc::to_jsonc(s, &[]);
            ["\"registerTool\"", "\"executeTool\"", "\"getTools\"", "\"setTimeout\"", "\"then\""]
                .map(|k| text.matches(k).count())
        };
        let (a, b) = (crate::build::build(&plan, "a"), crate::build::build(&p, "a"));
        assert_eq!(kinds(&a), kinds(&b), "seed {seed}");
        inlined += 1;
    }
    assert!(inlined > 10);
}
