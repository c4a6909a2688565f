//! The Boa side of the engine measurement: the tiny WebMCP host on boa_engine 0.22 and its timings.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, VecDeque};
use std::path::Path;
use std::rc::Rc;
use std::time::Instant;

use boa_engine::builtins::promise::PromiseState;
use boa_engine::context::time::JsInstant;
use boa_engine::context::{Clock, ContextBuilder};
use boa_engine::job::{Job, JobExecutor};
use boa_engine::object::builtins::{JsFunction, JsPromise};
use boa_engine::object::ObjectInitializer;
use boa_engine::property::Attribute;
use boa_engine::vm::SourcePath;
use boa_engine::{js_string, Context, JsArgs, JsResult, JsValue, NativeFunction, Source};
use js_engine_bench::*;

/// The simulator's own microtask queue: Boa hands every job here and never runs one by itself.
#[derive(Default)]
struct HostQueue {
    jobs: RefCell<VecDeque<Job>>,
}

impl JobExecutor for HostQueue {
    fn enqueue_job(self: Rc<Self>, job: Job, _context: &mut Context) {
        self.jobs.borrow_mut().push_back(job);
    }

    // The host never calls this; it takes jobs one at a time with `run_one_job`.
    fn run_jobs(self: Rc<Self>, context: &mut Context) -> JsResult<()> {
        while run_one_job(&self, context)? {}
        Ok(())
    }
}

/// Runs the oldest queued job, if any, and says whether one ran.
fn run_one_job(queue: &HostQueue, context: &mut Context) -> JsResult<bool> {
    let Some(job) = queue.jobs.borrow_mut().pop_front() else {
        return Ok(false);
    };
    match job {
        Job::PromiseJob(job) => job.call(context)?,
        Job::GenericJob(job) => job.call(context)?,
        other => panic!("unexpected job kind {other:?}"),
    };
    Ok(true)
}

/// The virtual clock: `Date.now()` and `new Date()` read this, never the wall clock.
struct VirtualClock(Cell<i64>);

impl Clock for VirtualClock {
    fn now(&self) -> JsInstant {
        JsInstant::new((self.0.get() / 1000) as u64, ((self.0.get() % 1000) * 1_000_000) as u32)
    }

    fn system_time_millis(&self) -> i64 {
        self.0.get()
    }
}

/// One executeTool call waiting for the host to run the tool.
struct Invocation {
    name: String,
    args_json: String,
    resolve: JsFunction,
    reject: JsFunction,
}

/// The host's side of one simulated document.
struct Host {
    tools: BTreeMap<String, JsFunction>,
    pending: VecDeque<Invocation>,
    in_flight: Vec<(JsPromise, JsFunction, JsFunction)>,
    timers: Vec<(f64, JsValue)>,
    trace: Vec<String>,
    random: XorShift,
    capture_call_sites: bool,
}

type SharedHost = Rc<RefCell<Host>>;

fn host(context: &Context) -> SharedHost {
    context.get_data::<SharedHost>().expect("host installed").clone()
}

/// The JS call site (`file:line:col`) of the host function being called, from Boa's frame stack.
fn call_site(context: &Context) -> String {
    let Some(frame) = context.stack_trace().next() else {
        return "?".into();
    };
    let location = frame.position();
    let file = match &location.path {
        SourcePath::Path(path) => path.display().to_string(),
        other => format!("{other:?}"),
    };
    match location.position {
        Some(p) => format!("{file}:{}:{}", p.line_number(), p.column_number()),
        None => format!("{file}:?"),
    }
}

fn register_tool(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let tool = args.get_or_undefined(0).to_object(context)?;
    let name = tool.get(js_string!("name"), context)?.to_string(context)?.to_std_string_escaped();
    let execute = tool.get(js_string!("execute"), context)?;
    let execute = execute
        .as_object()
        .and_then(JsFunction::from_object)
        .ok_or_else(|| boa_engine::JsNativeError::typ().with_message("execute is not callable"))?;
    let host = host(context);
    let mut host = host.borrow_mut();
    if host.capture_call_sites {
        let site = call_site(context);
        host.trace.push(format!("registerTool {name} at {site}"));
    }
    host.tools.insert(name, execute);
    Ok(JsValue::undefined())
}

fn execute_tool(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let name = args.get_or_undefined(0).to_string(context)?.to_std_string_escaped();
    let args_json = args.get_or_undefined(1).to_string(context)?.to_std_string_escaped();
    let (promise, resolvers) = JsPromise::new_pending(context);
    let host = host(context);
    let mut host = host.borrow_mut();
    if host.capture_call_sites {
        let site = call_site(context);
        host.trace.push(format!("executeTool {name} at {site}"));
    }
    host.pending.push_back(Invocation { name, args_json, resolve: resolvers.resolve, reject: resolvers.reject });
    Ok(promise.into())
}

fn set_timeout(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let delay = args.get_or_undefined(1).to_number(context)?;
    let host = host(context);
    let mut host = host.borrow_mut();
    host.timers.push((delay, args.get_or_undefined(0).clone()));
    host.trace.push(format!("setTimeout {delay} ms recorded"));
    Ok(JsValue::from(host.timers.len() as u32))
}

fn random(_: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    Ok(JsValue::from(host(context).borrow_mut().random.next_f64()))
}

fn probe(_: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let host = host(context);
    let mut host = host.borrow_mut();
    if host.capture_call_sites {
        let site = call_site(context);
        host.trace.clear();
        host.trace.push(site);
    }
    Ok(JsValue::undefined())
}

/// Builds a bare context with the host's job queue and virtual clock.
fn new_context(queue: Rc<HostQueue>) -> Context {
    ContextBuilder::new()
        .job_executor(queue)
        .clock(Rc::new(VirtualClock(Cell::new(VIRTUAL_NOW_MS))))
        .build()
        .expect("context")
}

/// Installs `document.modelContext`, `setTimeout`, `probe` and the seeded `Math.random`.
fn install_host(context: &mut Context, capture_call_sites: bool) {
    let shared: SharedHost = Rc::new(RefCell::new(Host {
        tools: BTreeMap::new(),
        pending: VecDeque::new(),
        in_flight: Vec::new(),
        timers: Vec::new(),
        trace: Vec::new(),
        random: XorShift(RANDOM_SEED),
        capture_call_sites,
    }));
    context.insert_data(shared);
    let model_context = ObjectInitializer::new(context)
        .function(NativeFunction::from_fn_ptr(register_tool), js_string!("registerTool"), 1)
        .function(NativeFunction::from_fn_ptr(execute_tool), js_string!("executeTool"), 2)
        .build();
    let document =
        ObjectInitializer::new(context).property(js_string!("modelContext"), model_context, Attribute::all()).build();
    context.register_global_property(js_string!("document"), document, Attribute::all()).expect("document");
    context
        .register_global_callable(js_string!("setTimeout"), 2, NativeFunction::from_fn_ptr(set_timeout))
        .expect("setTimeout");
    context.register_global_callable(js_string!("probe"), 0, NativeFunction::from_fn_ptr(probe)).expect("probe");
    let math = context.global_object().get(js_string!("Math"), context).expect("Math");
    let random = NativeFunction::from_fn_ptr(random).to_js_function(context.realm());
    math.as_object().expect("Math object").set(js_string!("random"), random, true, context).expect("Math.random");
}

/// What one full run produced.
struct RunOutcome {
    done: String,
    jobs: usize,
    trace: Vec<String>,
}

/// Creates a realm, runs the page script and pumps jobs one at a time until nothing is left.
fn full_run(capture_call_sites: bool, keep_trace: bool) -> RunOutcome {
    let queue = Rc::new(HostQueue::default());
    let mut context = new_context(queue.clone());
    install_host(&mut context, capture_call_sites);
    context.eval(Source::from_bytes(PAGE_JS).with_path(Path::new(PAGE_FILE))).expect("page script");
    let host = host(&context);
    let mut jobs = 0;
    loop {
        // Microtask checkpoint: one job at a time, the host decides after each.
        while run_one_job(&queue, &mut context).expect("job") {
            jobs += 1;
            if keep_trace {
                let n = queue.jobs.borrow().len();
                host.borrow_mut().trace.push(format!("job {jobs} ran, {n} queued"));
            }
            settle_in_flight(&host, &mut context);
        }
        // A task: run the next pending tool call, if any.
        let next = host.borrow_mut().pending.pop_front();
        let Some(call) = next else { break };
        let execute = host.borrow().tools.get(&call.name).cloned();
        let Some(execute) = execute else {
            let error = JsValue::from(js_string!("no such tool"));
            call.reject.call(&JsValue::undefined(), &[error], &mut context).expect("reject");
            continue;
        };
        let json = context.global_object().get(js_string!("JSON"), &mut context).expect("JSON");
        let parse = json.as_object().expect("JSON object").get(js_string!("parse"), &mut context).expect("parse");
        let args = parse
            .as_callable()
            .expect("parse callable")
            .call(&JsValue::undefined(), &[JsValue::from(js_string!(call.args_json.as_str()))], &mut context)
            .expect("args");
        let returned = execute.call(&JsValue::undefined(), &[args], &mut context).expect("execute");
        match returned.as_object().and_then(|o| JsPromise::from_object(o).ok()) {
            Some(promise) => host.borrow_mut().in_flight.push((promise, call.resolve, call.reject)),
            None => {
                call.resolve.call(&JsValue::undefined(), &[returned], &mut context).expect("resolve");
            }
        }
    }
    let done = context.global_object().get(js_string!("done"), &mut context).expect("done").display().to_string();
    let trace = std::mem::take(&mut host.borrow_mut().trace);
    RunOutcome { done, jobs, trace }
}

/// Resolves an executeTool promise once the tool's own promise has settled.
fn settle_in_flight(host: &SharedHost, context: &mut Context) {
    let in_flight = std::mem::take(&mut host.borrow_mut().in_flight);
    for (promise, resolve, reject) in in_flight {
        match promise.state() {
            PromiseState::Pending => host.borrow_mut().in_flight.push((promise, resolve, reject)),
            PromiseState::Fulfilled(value) => {
                resolve.call(&JsValue::undefined(), &[value], context).expect("resolve");
            }
            PromiseState::Rejected(error) => {
                reject.call(&JsValue::undefined(), &[error], context).expect("reject");
            }
        }
    }
}

/// Runs one of the never-yielding scripts under a budget and reports how it was stopped.
fn spin(which: &str, budget: u64) {
    watchdog(20, "the spin script");
    let source = match which {
        "loop" => SPIN_JS,
        "catch" => SPIN_CATCH_JS,
        "recurse" => SPIN_RECURSE_JS,
        "nested" => SPIN_NESTED_JS,
        other => panic!("unknown spin script {other}"),
    };
    let mut context = new_context(Rc::new(HostQueue::default()));
    context.runtime_limits_mut().set_loop_iteration_limit(budget);
    let start = Instant::now();
    let result = context.eval(Source::from_bytes(source));
    let elapsed = start.elapsed();
    match result {
        Ok(v) => println!("spin {which} (loop limit {budget}): returned {} after {}", v.display(), us(elapsed)),
        Err(e) => println!(
            "spin {which} (loop limit {budget}): stopped with \"{}\" after {}",
            first_line(&e.to_string()),
            us(elapsed)
        ),
    }
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
    println!("engine: boa_engine 0.22.0, N = {n}");

    // 1. Realm creation.
    let bare = median_of(n, || {
        let context = new_context(Rc::new(HostQueue::default()));
        std::hint::black_box(&context);
    });
    let with_host = median_of(n, || {
        let mut context = new_context(Rc::new(HostQueue::default()));
        install_host(&mut context, true);
        std::hint::black_box(&context);
    });
    let mut shared = new_context(Rc::new(HostQueue::default()));
    let realm_only = median_of(n, || {
        let realm = shared.create_realm().expect("realm");
        std::hint::black_box(&realm);
    });
    println!("create context (builder, job queue, clock): median {}", us(bare));
    println!("create context + install host: median {}", us(with_host));
    println!("create_realm on a reused context: median {}", us(realm_only));

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

    // 4. Determinism: a second and a third run must match the first byte for byte.
    let again: Vec<String> = (0..2).map(|_| full_run(true, true).done).collect();
    println!("determinism: 3 runs identical = {}", again.iter().all(|d| *d == first.done));

    // 6. Call-site cost: 10,000 host calls from one loop, with and without the call site.
    for capture in [false, true] {
        let mut context = new_context(Rc::new(HostQueue::default()));
        install_host(&mut context, capture);
        let t = median_of(9, || {
            context.eval(Source::from_bytes(PROBE_JS).with_path(Path::new("probe.js"))).expect("probe");
        });
        let site = host(&context).borrow().trace.first().cloned();
        println!(
            "10,000 host calls, call site {}: median {} ({:.0} ns per call){}",
            if capture { "captured" } else { "not captured" },
            us(t),
            t.as_secs_f64() * 1e9 / 10_000.0,
            site.map(|s| format!(", last site {s}")).unwrap_or_default()
        );
    }

    // 8. Memory, in a fresh child process so memory freed by the runs above does not hide the growth.
    let exe = std::env::current_exe().expect("exe");
    let out = std::process::Command::new(&exe).arg("memory").output().expect("child");
    print!("{}", String::from_utf8_lossy(&out.stdout));

    // 5. Budgets, each in a child process so a script that is never stopped cannot hang this one.
    for (which, budget) in [
        ("loop", 1_000_000u64),
        ("loop", 10_000_000),
        ("catch", 1_000_000),
        ("recurse", 1_000_000),
        ("nested", 1_000_000),
    ] {
        let out = std::process::Command::new(&exe).args(["spin", which, &budget.to_string()]).output().expect("child");
        print!("{}", String::from_utf8_lossy(&out.stdout));
        if !out.status.success() {
            println!("  (child exit status {})", out.status);
        }
    }
}

/// Prints the resident set growth per live realm with the host installed.
fn memory() {
    // The resident set growth per live context with the host installed.
    let before = rss_bytes();
    let contexts: Vec<Context> = (0..200)
        .map(|_| {
            let mut c = new_context(Rc::new(HostQueue::default()));
            install_host(&mut c, true);
            c
        })
        .collect();
    let after = rss_bytes();
    println!("memory: {} KiB resident per live context (200 contexts)", (after.saturating_sub(before)) / 200 / 1024);
    drop(contexts);
}
