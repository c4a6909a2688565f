//! Shrinking: the smallest plan that still fails, found by proptest's `TestRunner` (one case,
//! seeded per seed, then its shrinking), and the case written as a `.jsonc` scenario headed by
//! the exact `webmcp-sim replay` command.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use scenario::Scenario;

use crate::plan::*;

/// A proptest runner for one case whose RNG is ChaCha seeded with `seed` (its 8 little-endian
/// bytes, repeated to 32): the same seed gives the same plan on every machine.
pub fn runner(seed: u64, max_shrink_iters: u32) -> TestRunner {
    let config =
        Config { cases: 1, failure_persistence: None, max_shrink_iters, max_shrink_time: 0, ..Config::default() };
    let bytes: Vec<u8> = seed.to_le_bytes().iter().copied().cycle().take(32).collect();
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// The plan `seed` generates.
pub fn generate(seed: u64, config: GenConfig) -> Plan {
    let first = RefCell::new(None);
    let _ = runner(seed, 0).run(&plan(config), |p| {
        first.borrow_mut().get_or_insert(p);
        Ok(())
    });
    first.into_inner().expect("the runner generates one case")
}

/// Shrinks the plan `seed` generates while `fails` holds: proptest's shrinking (at most
/// `max_shrink_iters` tries), then `reduce`. None when that plan does not fail.
pub fn minimize(seed: u64, config: GenConfig, max_shrink_iters: u32, fails: impl Fn(&Plan) -> bool) -> Option<Plan> {
    let result = runner(seed, max_shrink_iters).run(&plan(config), |p| {
        if fails(&p) {
            Err(TestCaseError::fail("fails"))
        } else {
            Ok(())
        }
    });
    match result {
        Ok(()) | Err(TestError::Abort(_)) => None,
        Err(TestError::Fail(_, minimal)) => Some(reduce(minimal, max_shrink_iters, &fails)),
    }
}

/// Structural shrinking that proptest's value trees cannot do: a timer or handler replaced by
/// its body, a call without its signal, a document, step or statement removed, a tool that simply
/// resolves. Each change is kept when `fails` still holds, until none helps (or `max_tries`
/// candidates were tried).
pub fn reduce(mut plan: Plan, max_tries: u32, fails: &dyn Fn(&Plan) -> bool) -> Plan {
    let mut tries = 0;
    'improve: loop {
        for candidate in simplifications(&plan) {
            if tries >= max_tries {
                return plan;
            }
            tries += 1;
            if fails(&candidate) {
                plan = candidate;
                continue 'improve;
            }
        }
        return plan;
    }
}

/// Every plan one simplification away from `plan`, roughly biggest first.
pub fn simplifications(plan: &Plan) -> Vec<Plan> {
    let mut out = Vec::new();
    let with = |f: &dyn Fn(&mut Plan)| {
        let mut p = plan.clone();
        f(&mut p);
        p
    };
    for i in (1..plan.docs.len()).rev() {
        out.push(with(&|p| {
            p.docs.remove(i);
        }));
    }
    for i in 0..plan.user.len() {
        out.push(with(&|p| {
            p.user.remove(i);
        }));
    }
    for i in 0..plan.agent.len() {
        out.push(with(&|p| {
            p.agent.remove(i);
        }));
    }
    for (i, doc) in plan.docs.iter().enumerate() {
        for script in list_variants(&doc.script) {
            out.push(with(&|p| p.docs[i].script = script.clone()));
        }
    }
    for (i, step) in plan.user.iter().enumerate() {
        match step {
            UserStep::Navigate { navigable, url, script } => {
                for script in list_variants(script) {
                    let step = UserStep::Navigate { navigable: *navigable, url: *url, script };
                    out.push(with(&|p| p.user[i] = step.clone()));
                }
            }
            UserStep::BfcacheVisit(tab) => {
                out.push(with(&|p| p.user[i] = UserStep::EnterBfcache(*tab)));
            }
            _ => {}
        }
    }
    if let Some(core) = &plan.core {
        out.push(with(&|p| p.core = None));
        if let Some(inlined) = inline_core(plan) {
            out.push(inlined);
        }
        let simpler = [
            CorePlan { signal: SignalPlan::Absent, ..core.clone() },
            CorePlan { via_get_tools: false, ..core.clone() },
            CorePlan { result: ToolResult::Resolve(Value::Str), ..core.clone() },
            CorePlan { caller: core.target, ..core.clone() },
        ];
        for s in simpler.into_iter().filter(|s| s != core) {
            out.push(with(&|p| p.core = Some(s.clone())));
        }
    }
    if plan.fifo || plan.variants.iter().any(|v| *v) {
        out.push(with(&|p| {
            p.fifo = false;
            p.variants = [false; 3];
        }));
    }
    if plan.network_unbounded {
        out.push(with(&|p| p.network_unbounded = false));
    }
    if plan.cleanup_every_traversable {
        out.push(with(&|p| p.cleanup_every_traversable = false));
    }
    if plan.tab_opened {
        out.push(with(&|p| p.tab_opened = false));
    }
    if let Some(nav) = &plan.script_navigation {
        out.push(with(&|p| p.script_navigation = None));
        let mut simpler: Vec<ScriptNavigation> =
            list_variants(&nav.script).into_iter().map(|script| ScriptNavigation { script, ..nav.clone() }).collect();
        simpler.push(ScriptNavigation { delay: None, ..nav.clone() });
        simpler.push(ScriptNavigation { iframe: None, ..nav.clone() });
        for s in simpler.into_iter().filter(|s| s != nav) {
            out.push(with(&|p| p.script_navigation = Some(s.clone())));
        }
    }
    for (i, doc) in plan.docs.iter().enumerate() {
        let simple = DocPlan {
            new_tab: doc.new_tab,
            parent: doc.parent,
            url: UrlPlan { https: true, host: 0 },
            allow: if i == 0 { doc.allow } else { Allow::Tools },
            sandbox: Sandbox::Absent,
            site_keyed: false,
            policy: PolicyHeader::Absent,
            script: doc.script.clone(),
        };
        if simple != *doc {
            out.push(with(&|p| p.docs[i] = simple.clone()));
        }
    }
    out
}

/// The same plan with its core call written as ordinary statements (so each part can be
/// simplified or removed on its own), if the statements resolve to the same tool and window.
pub fn inline_core(plan: &Plan) -> Option<Plan> {
    let core = plan.core.clone()?;
    let n = plan.docs.len();
    let (target, caller) = (core.target.index(n), core.caller.index(n));
    let mut p = plan.clone();
    p.core = None;
    let register = crate::build::core_register_plan(&core);
    p.docs[target].script.insert(0, Stmt::Register(Box::new(register)));
    let name = VALID_TOOL_NAMES[0];
    let name_pick = crate::build::name_pick(&p, caller, name)?;
    let call = if core.via_get_tools {
        let call =
            CallPlan { name: name_pick, missing: false, input: Input::Object, signal: core.signal, then_log: true };
        Stmt::GetThenExecute(GetPlan { delay: Some(core.delay), from: Some(Origins::Documents), calls: vec![call] })
    } else {
        Stmt::ExecuteDict(ExecPlan {
            delay: Some(core.delay),
            name: name_pick,
            missing: false,
            window: crate::build::window_pick(&p, caller, name, target)?,
            origin: OriginChoice::OfWindow,
            input: Input::Object,
            signal: core.signal,
            then_log: true,
        })
    };
    p.docs[caller].script.push(call);
    Some(p)
}

/// Variants of a statement list: one statement removed, a timer or handler spliced into its
/// place, or one statement simplified.
fn list_variants(list: &[Stmt]) -> Vec<Vec<Stmt>> {
    let mut out = Vec::new();
    for i in 0..list.len() {
        let mut v = list.to_vec();
        v.remove(i);
        out.push(v);
        if let Stmt::SetTimeout { body, .. } | Stmt::OnToolchange { body } = &list[i] {
            let mut v = list.to_vec();
            v.splice(i..=i, body.iter().cloned());
            out.push(v);
        }
        for s in stmt_variants(&list[i]) {
            let mut v = list.to_vec();
            v[i] = s;
            out.push(v);
        }
    }
    out
}

fn stmt_variants(stmt: &Stmt) -> Vec<Stmt> {
    let mut out = Vec::new();
    match stmt {
        Stmt::SetTimeout { ms, body } => {
            if *ms != 0 {
                out.push(Stmt::SetTimeout { ms: 0, body: body.clone() });
            }
            out.extend(list_variants(body).into_iter().map(|body| Stmt::SetTimeout { ms: *ms, body }));
        }
        Stmt::OnToolchange { body } => {
            out.extend(
                list_variants(body).into_iter().filter(|b| !b.is_empty()).map(|body| Stmt::OnToolchange { body }),
            );
        }
        Stmt::Register(r) => {
            let simpler = [
                RegisterPlan { then_log: false, ..(**r).clone() },
                RegisterPlan { exposed_to: None, ..(**r).clone() },
                RegisterPlan { signal: None, ..(**r).clone() },
                RegisterPlan { document: None, ..(**r).clone() },
                RegisterPlan {
                    tool: ToolPlan {
                        title: false,
                        schema: Schema::Absent,
                        annotations: None,
                        log_in_execute: false,
                        log_on_abort: false,
                        ..r.tool.clone()
                    },
                    ..(**r).clone()
                },
                RegisterPlan {
                    tool: ToolPlan { result: ToolResult::Resolve(Value::Str), ..r.tool.clone() },
                    ..(**r).clone()
                },
            ];
            out.extend(simpler.into_iter().filter(|s| s != &**r).map(|s| Stmt::Register(Box::new(s))));
        }
        Stmt::ExecuteDict(e) => {
            let simpler = [
                ExecPlan { delay: None, ..e.clone() },
                ExecPlan { signal: SignalPlan::Absent, ..e.clone() },
                ExecPlan { input: Input::Absent, ..e.clone() },
                ExecPlan { then_log: false, ..e.clone() },
                ExecPlan { origin: OriginChoice::OfWindow, ..e.clone() },
            ];
            out.extend(simpler.into_iter().filter(|s| s != e).map(Stmt::ExecuteDict));
        }
        Stmt::GetThenExecute(g) => {
            if g.delay.is_some() {
                out.push(Stmt::GetThenExecute(GetPlan { delay: None, ..g.clone() }));
            }
            if g.from.is_some() {
                out.push(Stmt::GetThenExecute(GetPlan { from: None, ..g.clone() }));
            }
            for c in &g.calls {
                // The same call with a hand-built dictionary for the first document's window.
                out.push(Stmt::ExecuteDict(ExecPlan {
                    delay: g.delay,
                    name: c.name,
                    missing: c.missing,
                    window: Pick(0),
                    origin: OriginChoice::OfWindow,
                    input: c.input,
                    signal: c.signal.clone(),
                    then_log: c.then_log,
                }));
            }
            for i in 0..g.calls.len() {
                let mut calls = g.calls.clone();
                calls.remove(i);
                out.push(Stmt::GetThenExecute(GetPlan { calls, ..g.clone() }));
                let c = &g.calls[i];
                let simpler = [
                    CallPlan { signal: SignalPlan::Absent, ..c.clone() },
                    CallPlan { input: Input::Absent, ..c.clone() },
                    CallPlan { then_log: false, ..c.clone() },
                ];
                for s in simpler.into_iter().filter(|s| s != c) {
                    let mut calls = g.calls.clone();
                    calls[i] = s;
                    out.push(Stmt::GetThenExecute(GetPlan { calls, ..g.clone() }));
                }
            }
        }
        Stmt::GetTools { from: Some(_) } => out.push(Stmt::GetTools { from: None }),
        _ => {}
    }
    out
}

/// A failing (or finding-showing) case: a scenario, the schedule that shows it, and what it shows.
#[derive(Clone, Debug)]
pub struct Case {
    pub scenario: Scenario,
    pub schedule: String,
    /// First comment line: what the case shows.
    pub title: String,
    /// Further comment lines.
    pub details: Vec<String>,
}

/// `webmcp-sim replay FILE --schedule 'SCHEDULE'`.
pub fn replay_command(path: &Path, schedule: &str) -> String {
    format!("webmcp-sim replay {} --schedule '{schedule}'", path.display())
}

/// The case's file text, naming itself `path` in its replay command.
pub fn case_text(path: &Path, case: &Case) -> String {
    let mut comments = vec![case.title.clone()];
    comments.extend(case.details.iter().cloned());
    comments.push(format!("replay: {}", replay_command(path, &case.schedule)));
    crate::jsonc::to_short_jsonc(&case.scenario, &comments)
}

/// Writes the case to a new file, `dir/stem.jsonc`, or `dir/stem-2.jsonc`, `-3`, … when that
/// name is taken (by an earlier case of this run or by an earlier run): a case never overwrites
/// another. Returns the path.
pub fn write_case(dir: &Path, stem: &str, case: &Case) -> std::io::Result<PathBuf> {
    use std::io::Write;
    std::fs::create_dir_all(dir)?;
    for n in 1..=10_000u32 {
        let path = dir.join(if n == 1 { format!("{stem}.jsonc") } else { format!("{stem}-{n}.jsonc") });
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut file) => {
                file.write_all(case_text(&path, case).as_bytes())?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other(format!("{stem}.jsonc and 10,000 numbered names after it are taken; empty the folder")))
}

#[cfg(test)]
mod tests;
