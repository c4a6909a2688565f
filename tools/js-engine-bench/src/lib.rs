//! What both engine binaries share: the 30-line page script, the timing helpers and the memory probe.

use std::time::{Duration, Instant};

/// The script both engines run, a registerTool/executeTool round trip with `await` and `.then`.
pub const PAGE_JS: &str = include_str!("page.js");

/// The file name the script is evaluated under, so call sites read `page.js:line:col`.
pub const PAGE_FILE: &str = "page.js";

/// The virtual time (milliseconds since the epoch) that `Date.now()` must return.
pub const VIRTUAL_NOW_MS: i64 = 1_700_000_000_000;

/// The seed of the host's `Math.random`.
pub const RANDOM_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// A tiny seedable generator (xorshift64*) standing in for the simulator's seeded random source.
pub struct XorShift(pub u64);

impl XorShift {
    /// Returns the next value in [0, 1), from the top 53 bits of the state.
    pub fn next_f64(&mut self) -> f64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        let out = x.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (out >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Runs `f` `n` times and returns the median duration of one call.
pub fn median_of<F: FnMut()>(n: usize, mut f: F) -> Duration {
    let mut samples: Vec<Duration> = (0..n)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    samples.sort();
    samples[n / 2]
}

/// Formats a duration in microseconds with two decimals.
pub fn us(d: Duration) -> String {
    format!("{:.2} us", d.as_secs_f64() * 1e6)
}

/// Returns the resident set size of this process in bytes (Linux `/proc/self/statm`).
pub fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    pages * 4096
}

/// How many repetitions the timing loops use; `BENCH_N` overrides it.
pub fn repetitions() -> usize {
    std::env::var("BENCH_N").ok().and_then(|s| s.parse().ok()).unwrap_or(300)
}

/// The infinite loop the budget test must stop.
pub const SPIN_JS: &str = "let i = 0; while (true) { i++; }";

/// An infinite loop that tries to catch the budget error: it returns a string only if the error is catchable.
pub const SPIN_CATCH_JS: &str =
    "function spin() { try { while (true) {} } catch (e) { return 'caught: ' + e; } }\nspin();";

/// Returns the first line of an error message (engines append the whole backtrace).
pub fn first_line(message: &str) -> &str {
    message.lines().next().unwrap_or("")
}

/// A non-yielding script with no loop at all: recursion that swallows the depth error and recurses again
/// (about 2^500 calls), so only an instruction budget or an uncatchable limit error stops it.
pub const SPIN_RECURSE_JS: &str = "function f() { try { f(); } catch (e) {} f(); }\nf();";

/// A loop the per-frame loop limit cannot bound: each call's inner loop stays under the limit, and the
/// outer loop counts one iteration per call, so the work is the limit squared (about 10^12 iterations).
pub const SPIN_NESTED_JS: &str = "function f() { for (let i = 0; i < 999999; i++) {} }\nfor (;;) { f(); }";

/// Ends the process after `secs` seconds, so a budget test that fails to stop cannot hang the run.
pub fn watchdog(secs: u64, what: &'static str) {
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(secs));
        println!("watchdog: {what} did not stop within {secs} s");
        std::process::exit(3);
    });
}

/// The call-site microbenchmark: 10,000 host calls from one loop.
pub const PROBE_JS: &str = "for (let i = 0; i < 10000; i++) { probe(); }";
