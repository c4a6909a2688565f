//! The variants: opt-in readings that model a proposed spec change instead of today's text, each
//! with the spec issue or finding (docs/findings.md) it models. `webmcp-sim variants` lists them.

/// One variant the engine knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The name scenarios and `--variant` use.
    pub name: &'static str,
    /// The spec issue or finding it models, e.g. `issue #224` or `finding 1`.
    pub models: &'static str,
    /// What changes, in a sentence.
    pub change: &'static str,
}

/// Every variant, in the order `webmcp-sim variants` lists them.
pub const VARIANTS: &[Variant] = &[
    Variant {
        name: "completion-steps-in-parallel",
        models: "finding 1 (docs/findings.md)",
        change: "tool execute steps 3 and the imperative execute steps run completionSteps in a new in-parallel block instead of on the event loop, so executeTool 15.10.1's assert holds",
    },
    Variant {
        name: "title-undefined",
        models: "issue #224",
        change: "getTools leaves `title` out (undefined) instead of defaulting it to the empty string",
    },
    Variant {
        name: "cross-traversable-execution",
        models: "issue #227",
        change: "executeTool across top-level traversables is allowed (step 15.1 does not reject)",
    },
    Variant {
        name: "execute-checks-target-fully-active",
        models: "finding 3 (docs/findings.md)",
        change: "executeTool step 15, before 15.12, rejects with UnknownError (a task on the caller) when targetDocument is not fully active, so a call whose target was unloaded does not stay pending",
    },
    Variant {
        name: "execute-checks-caller-fully-active",
        models: "finding P1 (docs/findings.md)",
        change: "executeTool step 15, before 15.12, aborts its steps when callerDocument is not fully active, so no tool runs for a caller that is gone",
    },
    Variant {
        name: "cancel-tolerates-destroyed-target",
        models: "finding 2 (docs/findings.md)",
        change: "cancel a pending tool execution drops the note after step 5 and returns there when targetDocument was destroyed (step 6's task would never run)",
    },
    Variant {
        name: "bfcache-keeps-executions",
        models: "finding 11 (docs/findings.md)",
        change: "entering the back/forward cache runs no unloading document cleanup steps (HTML's unload a document runs them, step 18), so a bfcached document's pending calls wait for the restore, as executeTool 15.13's note assumes",
    },
    Variant {
        name: "tools-policy-only",
        models: "finding 4 (docs/findings.md)",
        change: "getTools step 9.3.2 and notify step 3.2 test only the permissions policy (is feature enabled in document for origin), not \"allowed to use\", so a document in the bfcache keeps its tools and its toolchange, delivered on restore",
    },
    Variant {
        name: "cancelled-executions",
        models: "finding 5 (docs/findings.md)",
        change: "cancel step 2 records a uuid it finds no entry for in the traversable's cancelled executions set, and executeTool step 15 aborts its steps before 15.12 when uuid is in that set, so a call cancelled before it reached the map never runs the tool",
    },
    Variant {
        name: "get-tools-requests-opaque-origins",
        models: "finding 8 (docs/findings.md)",
        change: "getTools step 9.3.5 also requests a document whose origin is opaque (no fromOrigins entry can name it); 9.3.8.1's exposure check still decides which of its tools are returned, so the tool whose toolchange the caller heard can be got",
    },
    Variant {
        name: "undefined-result-is-null",
        models: "finding 6 (docs/findings.md)",
        change: "imperative execute steps 9.1.4: a tool result of undefined serializes as \"null\" instead of failing the call with UnknownError",
    },
    Variant {
        name: "input-schema-validation",
        models: "issue #92, PR #289",
        change: "executeTool step 15 validates inputArguments against the tool's inputSchema (JSON Schema 2020-12, the jsonschema crate) after 15.9 and rejects with a DataError when it does not match; the agent's calls are validated the same way",
    },
    Variant {
        name: "tool-events",
        models: "issue #146 (PR #245; Chromium 156's ontoolactivated, ontoolcancel)",
        change: "the target's ModelContext fires toolactivated just before the imperative execute steps invoke execute (step 8), and toolcancel after cancel step 6.5 signals abort; scripts set the handlers with {\"on\": {\"event\": \"toolactivated\"}}",
    },
    Variant {
        name: "chromium-raw-string-result",
        models: "chromium profile (docs/chromium.md)",
        change: "a tool's string result reaches the caller raw, not JSON-serialized (imperative execute steps 9.1.4), as Chromium 156 does",
    },
    Variant {
        name: "chromium-undefined-result-string",
        models: "chromium profile (docs/chromium.md)",
        change: "a tool's result of undefined reaches the caller as the string \"undefined\" instead of failing the call with UnknownError (imperative execute steps 9.1.4), as Chromium 156 does",
    },
    Variant {
        name: "chromium-annotations-debugging",
        models: "chromium profile (docs/chromium.md)",
        change: "getTools' annotations carry a fourth member, `debugging: false`, that the spec does not define, as Chromium 156 does",
    },
    Variant {
        name: "chromium-name-before-duplicate",
        models: "chromium profile (docs/chromium.md)",
        change: "registerTool checks the name's validity (steps 10, 11) before the duplicate check (step 9), as Chromium 156 does",
    },
];

/// The variant named `name`, if the engine knows it.
pub fn variant(name: &str) -> Option<&'static Variant> {
    VARIANTS.iter().find(|v| v.name == name)
}

/// The variants' names, for error messages and did-you-mean hints.
pub fn names() -> Vec<&'static str> {
    VARIANTS.iter().map(|v| v.name).collect()
}

/// The listing `webmcp-sim variants` prints: one block per variant, then the in-parallel models
/// (options, not variants, but the other pair a spec author compares).
pub fn listing() -> String {
    let mut s = String::new();
    for v in VARIANTS {
        s.push_str(&format!("{}\n  models: {}\n  change: {}\n", v.name, v.models, v.change));
    }
    s.push_str(
        "\nIn-parallel models (--parallel, or \"options\": {\"parallel\": …}; not variants, but compared the same way with `diff --with parallel=…`):\n\
         unordered\n  models: HTML's \"in parallel\" read literally (the default)\n  change: every in-parallel block is its own lane, unordered with the others and with every event loop\n\
         fifo\n  models: the spec's \"single, authoritative browser process\"; finding 2's first suggested fix\n  change: every in-parallel block runs in order on one browser-side FIFO queue\n",
    );
    s
}
