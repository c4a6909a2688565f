//! The QuickJS side of the engine measurement: the tiny WebMCP host on rquickjs 0.14 and its timings.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;
use std::time::Instant;

use js_engine_bench::*;
use rquickjs::context::EvalOptions;
use rquickjs::function::Constructor;
use rquickjs::promise::PromiseState;
use rquickjs::{Context, Ctx, Function, Object, Promise, Runtime, Value};

/// QuickJS has no clock hook: this prelude replaces `Date` (constructor without arguments, `Date()`
/// and `Date.now`) and `performance.now` with the host's virtual clock, `__now()`.
const CLOCK_PRELUDE: &str = r#"(() => {
  const RealDate = Date;
  const now = globalThis.__now;
  delete globalThis.__now;
  class VirtualDate extends RealDate {
    constructor(...args) { if (args.length === 0) super(now()); else super(...args); }
    static now() { return now(); }
  }
  globalThis.Date = new Proxy(VirtualDate, { apply() { return new RealDate(now()).toString(); } });
  globalThis.performance = { now: () => 0, timeOrigin: 0 };
})();"#;

/// One executeTool call waiting for the host to run the tool.
struct Invocation<'js> {
    name: String,
    args_json: String,
    resolve: Function<'js>,
    reject: Function<'js>,
}

/// The host's side of one simulated document.
struct Host<'js> {
    tools: BTreeMap<String, Function<'js>>,
    pending: VecDeque<Invocation<'js>>,
    in_flight: Vec<(Promise<'js>, Function<'js>, Function<'js>)>,
    timers: Vec<(f64, Value<'js>)>,
    trace: Vec<String>,
    random: XorShift,
    capture_call_sites: bool,
}

type SharedHost<'js> = Rc<RefCell<Host<'js>>>;

/// The JS call site (`file:line:col`) of the host function being called, read from `new Error().stack`
/// (QuickJS has no frame-position API for a native function's caller).
fn call_site(ctx: &Ctx<'_>) -> String {
    let site = (|| -> rquickjs::Result<String> {
        let error: Constructor = ctx.globals().get("Error")?;
        let error: Object = error.construct(())?;
        let stack: String = error.get("stack")?;
        Ok(stack
            .lines()
            .map(str::trim)
            .filter(|line| !line.contains("(native)"))
            .find_map(|line| {
                let line = line.strip_prefix("at ")?;
                Some(match (line.rfind('('), line.rfind(')')) {
                    (Some(open), Some(close)) if open < close => line[open + 1..close].to_string(),
                    _ => line.to_string(),
                })
            })
            .unwrap_or_else(|| format!("? in {stack:?}")))
    })();
    site.unwrap_or_else(|e| format!("? ({e})"))
}

/// Installs `document.modelContext`, `setTimeout`, `probe`, the seeded `Math.random` and the clock prelude.
fn install_host<'js>(ctx: &Ctx<'js>, capture_call_sites: bool) -> SharedHost<'js> {
    let host: SharedHost<'js> = Rc::new(RefCell::new(Host {
        tools: BTreeMap::new(),
        pending: VecDeque::new(),
        in_flight: Vec::new(),
        timers: Vec::new(),
        trace: Vec::new(),
        random: XorShift(RANDOM_SEED),
        capture_call_sites,
    }));
    let globals = ctx.globals();
    let model_context = Object::new(ctx.clone()).expect("object");
    let h = host.clone();
    let register = Function::new(ctx.clone(), move |ctx: Ctx<'js>, tool: Object<'js>| -> rquickjs::Result<()> {
        let name: String = tool.get("name")?;
        let execute: Function<'js> = tool.get("execute")?;
        let mut host = h.borrow_mut();
        if host.capture_call_sites {
            let site = call_site(&ctx);
            host.trace.push(format!("registerTool {name} at {site}"));
        }
        host.tools.insert(name, execute);
        Ok(())
    })
    .expect("registerTool");
    let h = host.clone();
    let execute = Function::new(
        ctx.clone(),
        move |ctx: Ctx<'js>, name: String, args_json: String| -> rquickjs::Result<Promise<'js>> {
            let (promise, resolve, reject) = ctx.promise()?;
            let mut host = h.borrow_mut();
            if host.capture_call_sites {
                let site = call_site(&ctx);
                host.trace.push(format!("executeTool {name} at {site}"));
            }
            host.pending.push_back(Invocation { name, args_json, resolve, reject });
            Ok(promise)
        },
    )
    .expect("executeTool");
    model_context.set("registerTool", register).expect("set");
    model_context.set("executeTool", execute).expect("set");
    let document = Object::new(ctx.clone()).expect("object");
    document.set("modelContext", model_context).expect("set");
    globals.set("document", document).expect("document");
    let h = host.clone();
    let set_timeout = Function::new(ctx.clone(), move |callback: Value<'js>, delay: f64| -> rquickjs::Result<u32> {
        let mut host = h.borrow_mut();
        host.timers.push((delay, callback));
        host.trace.push(format!("setTimeout {delay} ms recorded"));
        Ok(host.timers.len() as u32)
    })
    .expect("setTimeout");
    globals.set("setTimeout", set_timeout).expect("set");
    let h = host.clone();
    let probe = Function::new(ctx.clone(), move |ctx: Ctx<'js>| {
        let mut host = h.borrow_mut();
        if host.capture_call_sites {
            let site = call_site(&ctx);
            host.trace.clear();
            host.trace.push(site);
        }
    })
    .expect("probe");
    globals.set("probe", probe).expect("set");
    let h = host.clone();
    let random = Function::new(ctx.clone(), move || h.borrow_mut().random.next_f64()).expect("rnd");
    let math: Object = globals.get("Math").expect("Math");
    math.set("random", random).expect("set");
    let now = Function::new(ctx.clone(), || VIRTUAL_NOW_MS as f64).expect("now");
    globals.set("__now", now).expect("set");
    if let Err(e) = ctx.eval::<Value, _>(CLOCK_PRELUDE) {
        panic!("clock prelude: {e}: {:?}", ctx.catch());
    }
    host
}

/// What one full run produced.
struct RunOutcome {
    done: String,
    jobs: usize,
    trace: Vec<String>,
}

/// Runs the page script in `context` and pumps jobs one at a time until nothing is left.
fn run_page(context: &Context, capture_call_sites: bool, keep_trace: bool) -> RunOutcome {
    context.with(|ctx| {
        let host = install_host(&ctx, capture_call_sites);
        let mut options = EvalOptions::default();
        options.filename = Some(PAGE_FILE.to_string());
        let _: Value = ctx.eval_with_options(PAGE_JS, options).expect("page script");
        let mut jobs = 0;
        loop {
            // Microtask checkpoint: one job at a time, the host decides after each.
            while ctx.execute_pending_job() {
                jobs += 1;
                if keep_trace {
                    // QuickJS tells only whether a job is pending, not how many.
                    let more = ctx.runtime_is_job_pending();
                    host.borrow_mut().trace.push(format!("job {jobs} ran, more pending: {more}"));
                }
                settle_in_flight(&host);
            }
            // A task: run the next pending tool call, if any.
            let next = host.borrow_mut().pending.pop_front();
            let Some(call) = next else { break };
            let execute = host.borrow().tools.get(&call.name).cloned();
            let Some(execute) = execute else {
                let _: () = call.reject.call(("no such tool",)).expect("reject");
                continue;
            };
            let args: Value = ctx.json_parse(call.args_json).expect("args");
            let returned: Value = execute.call((args,)).expect("execute");
            match returned.clone().into_promise() {
                Some(promise) => host.borrow_mut().in_flight.push((promise, call.resolve, call.reject)),
                None => {
                    let _: () = call.resolve.call((returned,)).expect("resolve");
                }
            }
        }
        let done: Value = ctx.globals().get("done").expect("done");
        let done = match done.as_string() {
            Some(s) => s.to_string().expect("utf8"),
            None => format!("{done:?}"),
        };
        let trace = std::mem::take(&mut host.borrow_mut().trace);
        // Break the host's references into the heap before the context goes away.
        {
            let mut h = host.borrow_mut();
            h.tools.clear();
            h.pending.clear();
            h.in_flight.clear();
            h.timers.clear();
        }
        RunOutcome { done, jobs, trace }
    })
}

/// A small extension so the pump loop can ask whether more jobs wait.
trait JobPending {
    fn runtime_is_job_pending(&self) -> bool;
}

impl JobPending for Ctx<'_> {
    fn runtime_is_job_pending(&self) -> bool {
        // SAFETY: the context pointer is live for the duration of the borrow.
        unsafe {
            let rt = rquickjs::qjs::JS_GetRuntime(self.as_raw().as_ptr());
            rquickjs::qjs::JS_IsJobPending(rt)
        }
    }
}

/// Resolves an executeTool promise once the tool's own promise has settled.
fn settle_in_flight<'js>(host: &SharedHost<'js>) {
    let in_flight = std::mem::take(&mut host.borrow_mut().in_flight);
    for (promise, resolve, reject) in in_flight {
        match promise.state() {
            PromiseState::Pending => host.borrow_mut().in_flight.push((promise, resolve, reject)),
            PromiseState::Resolved => {
                let value: Value = promise.result().expect("settled").expect("value");
                let _: () = resolve.call((value,)).expect("resolve");
            }
            PromiseState::Rejected => {
                let _ = promise.result::<Value>();
                let error = promise.ctx().catch();
                let _: () = reject.call((error,)).expect("reject");
            }
        }
    }
}

/// A full run with a new runtime and context, creation included.
fn full_run(capture_call_sites: bool, keep_trace: bool) -> RunOutcome {
    let runtime = Runtime::new().expect("runtime");
    let context = Context::full(&runtime).expect("context");
    run_page(&context, capture_call_sites, keep_trace)
}

/// Runs one of the never-yielding scripts under a budget of interrupt polls and reports how it stopped.
fn spin(which: &str, budget: u64) {
    watchdog(20, "the spin script");
    let source = match which {
        "loop" => SPIN_JS,
        "catch" => SPIN_CATCH_JS,
        "recurse" => SPIN_RECURSE_JS,
        "nested" => SPIN_NESTED_JS,
        other => panic!("unknown spin script {other}"),
    };
    let runtime = Runtime::new().expect("runtime");
    let polls = Rc::new(Cell::new(0u64));
    let p = polls.clone();
    runtime.set_interrupt_handler(Some(Box::new(move || {
        p.set(p.get() + 1);
        p.get() > budget
    })));
    let context = Context::full(&runtime).expect("context");
    let start = Instant::now();
    let outcome = context.with(|ctx| match ctx.eval::<Value, _>(source) {
        Ok(v) => format!("returned {v:?}"),
        Err(e) => {
            let thrown = ctx.catch();
            let message = thrown
                .as_object()
                .and_then(|o| o.get::<_, String>("message").ok())
                .unwrap_or_else(|| format!("{thrown:?}"));
            format!("stopped with \"{e}: {}\"", first_line(&message))
        }
    });
    let elapsed = start.elapsed();
    println!(
        "spin {which} (interrupt budget {budget} polls): {outcome} after {}, handler called {} times",
        us(elapsed),
        polls.get()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("spin") {
        spin(&args[2], args[3].parse().expect("budget"));
        return;
    }
    if args.get(1).map(String::as_str) == Some("memory") {
        memory();
        return;
    }
    let n = repetitions();
    println!("engine: rquickjs 0.14.0 (QuickJS-ng), N = {n}");

    // 1. Realm creation.
    let fresh = median_of(n, || {
        let runtime = Runtime::new().expect("runtime");
        let context = Context::full(&runtime).expect("context");
        std::hint::black_box(&context);
    });
    let reused_runtime = Runtime::new().expect("runtime");
    let reused = median_of(n, || {
        let context = Context::full(&reused_runtime).expect("context");
        std::hint::black_box(&context);
    });
    let with_host = median_of(n, || {
        let runtime = Runtime::new().expect("runtime");
        let context = Context::full(&runtime).expect("context");
        context.with(|ctx| {
            let host = install_host(&ctx, true);
            host.borrow_mut().tools.clear();
        });
    });
    println!("create runtime + context: median {}", us(fresh));
    println!("create context on a reused runtime: median {}", us(reused));
    println!("create runtime + context + install host (with clock prelude): median {}", us(with_host));

    // 2. Full run of the page script, creation included.
    let first = full_run(true, true);
    for line in &first.trace {
        println!("trace: {line}");
    }
    println!("done: {}", first.done);
    println!("promise jobs pumped one at a time: {}", first.jobs);
    let with_sites = median_of(n, || {
        std::hint::black_box(full_run(true, false));
    });
    let without_sites = median_of(n, || {
        std::hint::black_box(full_run(false, false));
    });
    let reused_run = median_of(n, || {
        let context = Context::full(&reused_runtime).expect("context");
        std::hint::black_box(run_page(&context, true, false));
    });
    println!(
        "full run (create + script + jobs), call sites on: median {} = {:.0} runs/s",
        us(with_sites),
        1.0 / with_sites.as_secs_f64()
    );
    println!(
        "full run, call sites off: median {} = {:.0} runs/s",
        us(without_sites),
        1.0 / without_sites.as_secs_f64()
    );
    println!(
        "full run on a reused runtime (new context each run): median {} = {:.0} runs/s",
        us(reused_run),
        1.0 / reused_run.as_secs_f64()
    );

    // 4. Determinism: a second and a third run must match the first byte for byte.
    let again: Vec<String> = (0..2).map(|_| full_run(true, true).done).collect();
    println!("determinism: 3 runs identical = {}", again.iter().all(|d| *d == first.done));
    let runtime = Runtime::new().expect("runtime");
    let context = Context::full(&runtime).expect("context");
    context.with(|ctx| {
        let raw: String = ctx.eval("String(new Date().getTime()) + ' ' + typeof performance").expect("raw date");
        println!("without the prelude, new Date() reads the wall clock: {raw}");
    });

    // 6. Call-site cost: 10,000 host calls from one loop, with and without the call site.
    for capture in [false, true] {
        let runtime = Runtime::new().expect("runtime");
        let context = Context::full(&runtime).expect("context");
        context.with(|ctx| {
            let host = install_host(&ctx, capture);
            let t = median_of(9, || {
                let mut options = EvalOptions::default();
                options.filename = Some("probe.js".to_string());
                let _: Value = ctx.eval_with_options(PROBE_JS, options).expect("probe");
            });
            let site = host.borrow().trace.first().cloned();
            println!(
                "10,000 host calls, call site {}: median {} ({:.0} ns per call){}",
                if capture { "captured" } else { "not captured" },
                us(t),
                t.as_secs_f64() * 1e9 / 10_000.0,
                site.map(|s| format!(", last site {s}")).unwrap_or_default()
            );
            host.borrow_mut().tools.clear();
        });
    }

    // 8. Memory, in a fresh child process so memory freed by the runs above does not hide the growth.
    let exe = std::env::current_exe().expect("exe");
    let out = std::process::Command::new(&exe).arg("memory").output().expect("child");
    print!("{}", String::from_utf8_lossy(&out.stdout));

    // 5. Budgets, each in a child process so a script that is never stopped cannot hang this one.
    for (which, budget) in [("loop", 0u64), ("loop", 100), ("catch", 100), ("recurse", 100), ("nested", 100)] {
        let out = std::process::Command::new(&exe).args(["spin", which, &budget.to_string()]).output().expect("child");
        print!("{}", String::from_utf8_lossy(&out.stdout));
        if !out.status.success() {
            println!("  (child exit status {})", out.status);
        }
    }
}

/// Prints the resident set growth per live realm with the host installed.
fn memory() {
    // The resident set growth per live runtime + context with the host installed.
    let before = rss_bytes();
    let live: Vec<(Runtime, Context)> = (0..200)
        .map(|_| {
            let runtime = Runtime::new().expect("runtime");
            let context = Context::full(&runtime).expect("context");
            context.with(|ctx| {
                install_host(&ctx, true);
            });
            (runtime, context)
        })
        .collect();
    let after = rss_bytes();
    let usage = live[0].0.memory_usage();
    println!(
        "memory: {} KiB resident per live runtime + context (200 of them); QuickJS counts {} KiB malloc'd in one",
        (after.saturating_sub(before)) / 200 / 1024,
        usage.malloc_size / 1024
    );
    drop(live);
}
