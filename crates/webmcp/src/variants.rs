//! The listing `webmcp-sim variants` prints: every `scenario::Variant` (the opt-in readings that
//! model a proposed spec change, each with the spec issue or finding it models), then the
//! in-parallel models.

use scenario::Variant;

/// The listing `webmcp-sim variants` prints: one block per variant, then the in-parallel models
/// (options, not variants, but the other pair a spec author compares).
pub fn listing() -> String {
    let mut s = String::new();
    for v in Variant::ALL {
        s.push_str(&format!("{}\n  models: {}\n  change: {}\n", v.name(), v.models(), v.change()));
    }
    s.push_str(
        "\nIn-parallel models (--parallel, or \"options\": {\"parallel\": …}; not variants, but compared the same way with `diff --with parallel=…`):\n\
         unordered\n  models: HTML's \"in parallel\" read literally (the default)\n  change: every in-parallel block is its own lane, unordered with the others and with every event loop\n\
         fifo\n  models: the spec's \"single, authoritative browser process\"; finding 2's first suggested fix\n  change: every in-parallel block runs in order on one browser-side FIFO queue\n",
    );
    s
}
