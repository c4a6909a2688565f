//! The variants: opt-in readings that model a proposed spec change instead of today's text, each
//! with the spec issue or finding (docs/findings.md) it models, as one type that scenario files,
//! `--variant`, `diff --with` and the simulator's algorithms share. A name is read once, at the
//! edge (`FromStr`, serde); a misspelled variant in code does not compile.

use serde::{Deserialize, Serialize};

/// One variant the engine knows, by its kebab-case name in scenario files and on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// `completion-steps-in-parallel`: models finding 1 (docs/findings.md).
    CompletionStepsInParallel,
    /// `title-undefined`: models issue #224.
    TitleUndefined,
    /// `cross-traversable-execution`: models issue #227.
    CrossTraversableExecution,
    /// `execute-checks-target-fully-active`: models finding 3 (docs/findings.md).
    ExecuteChecksTargetFullyActive,
    /// `execute-checks-caller-fully-active`: models finding P1 (docs/findings.md).
    ExecuteChecksCallerFullyActive,
    /// `cancel-tolerates-destroyed-target`: models finding 2 (docs/findings.md).
    CancelToleratesDestroyedTarget,
    /// `bfcache-keeps-executions`: models finding 11 (docs/findings.md).
    BfcacheKeepsExecutions,
    /// `tools-policy-only`: models finding 4 (docs/findings.md).
    ToolsPolicyOnly,
    /// `cancelled-executions`: models finding 5 (docs/findings.md).
    CancelledExecutions,
    /// `get-tools-requests-opaque-origins`: models finding 8 (docs/findings.md).
    GetToolsRequestsOpaqueOrigins,
    /// `undefined-result-is-null`: models finding 6 (docs/findings.md).
    UndefinedResultIsNull,
    /// `input-schema-validation`: models issue #92, PR #289.
    InputSchemaValidation,
    /// `tool-events`: models issue #146 (PR #245; Chromium 156's ontoolactivated, ontoolcancel).
    ToolEvents,
    /// `in-parallel-reads-mid-task`: models finding 12 (docs/findings.md).
    InParallelReadsMidTask,
    /// `cleanup-iterates-every-traversable`: models finding 13 (docs/findings.md).
    CleanupIteratesEveryTraversable,
    /// `chromium-raw-string-result`: models chromium profile (docs/chromium.md).
    ChromiumRawStringResult,
    /// `chromium-undefined-result-string`: models chromium profile (docs/chromium.md).
    ChromiumUndefinedResultString,
    /// `chromium-annotations-debugging`: models chromium profile (docs/chromium.md).
    ChromiumAnnotationsDebugging,
    /// `chromium-name-before-duplicate`: models chromium profile (docs/chromium.md).
    ChromiumNameBeforeDuplicate,
}

impl Variant {
    /// Every variant, in the order `webmcp-sim variants` lists them.
    pub const ALL: [Variant; 19] = [
        Variant::CompletionStepsInParallel,
        Variant::TitleUndefined,
        Variant::CrossTraversableExecution,
        Variant::ExecuteChecksTargetFullyActive,
        Variant::ExecuteChecksCallerFullyActive,
        Variant::CancelToleratesDestroyedTarget,
        Variant::BfcacheKeepsExecutions,
        Variant::ToolsPolicyOnly,
        Variant::CancelledExecutions,
        Variant::GetToolsRequestsOpaqueOrigins,
        Variant::UndefinedResultIsNull,
        Variant::InputSchemaValidation,
        Variant::ToolEvents,
        Variant::InParallelReadsMidTask,
        Variant::CleanupIteratesEveryTraversable,
        Variant::ChromiumRawStringResult,
        Variant::ChromiumUndefinedResultString,
        Variant::ChromiumAnnotationsDebugging,
        Variant::ChromiumNameBeforeDuplicate,
    ];

    /// The name scenarios and `--variant` use.
    pub const fn name(self) -> &'static str {
        self.entry().0
    }

    /// The spec issue or finding it models, e.g. `issue #224` or `finding 1`.
    pub const fn models(self) -> &'static str {
        self.entry().1
    }

    /// What changes, in a sentence.
    pub const fn change(self) -> &'static str {
        self.entry().2
    }

    /// The variant's name, what it models and what it changes.
    const fn entry(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Variant::CompletionStepsInParallel => (
                "completion-steps-in-parallel",
                "finding 1 (docs/findings.md)",
                "tool execute steps 3 and the imperative execute steps run completionSteps in a new in-parallel block instead of on the event loop, so executeTool 15.10.1's assert holds",
            ),
            Variant::TitleUndefined => (
                "title-undefined",
                "issue #224",
                "getTools leaves `title` out (undefined) instead of defaulting it to the empty string",
            ),
            Variant::CrossTraversableExecution => (
                "cross-traversable-execution",
                "issue #227",
                "executeTool across the top-level traversables of one browsing context group is allowed (step 15.1 rejects only a target in another group)",
            ),
            Variant::ExecuteChecksTargetFullyActive => (
                "execute-checks-target-fully-active",
                "finding 3 (docs/findings.md)",
                "executeTool step 15, before 15.12, rejects with UnknownError (a task on the caller) when targetDocument is not fully active, so a call whose target was unloaded does not stay pending",
            ),
            Variant::ExecuteChecksCallerFullyActive => (
                "execute-checks-caller-fully-active",
                "finding P1 (docs/findings.md)",
                "executeTool step 15, before 15.12, aborts its steps when callerDocument is not fully active, so no tool runs for a caller that is gone",
            ),
            Variant::CancelToleratesDestroyedTarget => (
                "cancel-tolerates-destroyed-target",
                "finding 2 (docs/findings.md)",
                "cancel a pending tool execution drops the note after step 5 and returns there when targetDocument was destroyed (step 6's task would never run)",
            ),
            Variant::BfcacheKeepsExecutions => (
                "bfcache-keeps-executions",
                "finding 11 (docs/findings.md)",
                "entering the back/forward cache runs no unloading document cleanup steps (HTML's unload a document runs them, step 18), so a bfcached document's pending calls wait for the restore, as executeTool 15.13's note assumes",
            ),
            Variant::ToolsPolicyOnly => (
                "tools-policy-only",
                "finding 4 (docs/findings.md)",
                "getTools step 9.3.2 and notify step 3.2 test only the permissions policy (is feature enabled in document for origin), not \"allowed to use\", so a document in the bfcache keeps its tools and its toolchange, delivered on restore",
            ),
            Variant::CancelledExecutions => (
                "cancelled-executions",
                "finding 5 (docs/findings.md)",
                "cancel step 2 records a uuid it finds no entry for in the traversable's cancelled executions set, and executeTool step 15 aborts its steps before 15.12 when uuid is in that set, so a call cancelled before it reached the map never runs the tool",
            ),
            Variant::GetToolsRequestsOpaqueOrigins => (
                "get-tools-requests-opaque-origins",
                "finding 8 (docs/findings.md)",
                "getTools step 9.3.5 also requests a document whose origin is opaque (no fromOrigins entry can name it); 9.3.8.1's exposure check still decides which of its tools are returned, so the tool whose toolchange the caller heard can be got",
            ),
            Variant::UndefinedResultIsNull => (
                "undefined-result-is-null",
                "finding 6 (docs/findings.md)",
                "imperative execute steps 9.1.4: a tool result of undefined serializes as \"null\" instead of failing the call with UnknownError",
            ),
            Variant::InputSchemaValidation => (
                "input-schema-validation",
                "issue #92, PR #289",
                "executeTool step 15 validates inputArguments against the tool's inputSchema (JSON Schema 2020-12, the jsonschema crate) after 15.9 and rejects with a DataError when it does not match; the agent's calls are validated the same way",
            ),
            Variant::ToolEvents => (
                "tool-events",
                "issue #146 (PR #245; Chromium 156's ontoolactivated, ontoolcancel)",
                "the target's ModelContext fires toolactivated just before the imperative execute steps invoke execute (step 8), and toolcancel after cancel step 6.5 signals abort; scripts set the handlers with {\"on\": {\"event\": \"toolactivated\"}}",
            ),
            Variant::InParallelReadsMidTask => (
                "in-parallel-reads-mid-task",
                "finding 12 (docs/findings.md)",
                "a task's script is suspended after each registerTool statement that has more statements after it, its event loop running nothing else meanwhile, so in-parallel steps (getTools 9.3.7 above all) can read a tool map between two registrations of one task, as Chromium 156 lets another process see them",
            ),
            Variant::CleanupIteratesEveryTraversable => (
                "cleanup-iterates-every-traversable",
                "finding 13 (docs/findings.md)",
                "with cross-traversable-execution (alone it changes nothing): the unloading document cleanup steps (2.2) also iterate the pending tool executions maps of the other traversables of its browsing context group for calls whose caller is the document, and step 2.3 cancels each in the map it is in, so a caller's unloading cancels its calls in another traversable",
            ),
            Variant::ChromiumRawStringResult => (
                "chromium-raw-string-result",
                "chromium profile (docs/chromium.md)",
                "a tool's string result reaches the caller raw, not JSON-serialized (imperative execute steps 9.1.4), as Chromium 156 does",
            ),
            Variant::ChromiumUndefinedResultString => (
                "chromium-undefined-result-string",
                "chromium profile (docs/chromium.md)",
                "a tool's result of undefined reaches the caller as the string \"undefined\" instead of failing the call with UnknownError (imperative execute steps 9.1.4), as Chromium 156 does",
            ),
            Variant::ChromiumAnnotationsDebugging => (
                "chromium-annotations-debugging",
                "chromium profile (docs/chromium.md)",
                "getTools' annotations carry a fourth member, `debugging: false`, that the spec does not define, as Chromium 156 does",
            ),
            Variant::ChromiumNameBeforeDuplicate => (
                "chromium-name-before-duplicate",
                "chromium profile (docs/chromium.md)",
                "registerTool checks the name's validity (steps 10, 11) before the duplicate check (step 9), as Chromium 156 does",
            ),
        }
    }

    /// The variants' names, in `ALL` order, for error messages and did-you-mean hints.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Variant::ALL.into_iter().map(Variant::name)
    }
}

impl std::fmt::Display for Variant {
    /// The variant's name.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no variant's, with the known names and the closest one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl std::fmt::Display for UnknownVariant {
    /// `unknown variant "nope" (known: a, b, …); did you mean "…"?`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = &self.0;
        write!(f, "unknown variant {name:?} (known: {})", Variant::names().collect::<Vec<_>>().join(", "))?;
        if let Some(s) = crate::suggest::closest(name, Variant::names()) {
            write!(f, "; did you mean {s:?}?")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownVariant {}

impl std::str::FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(name: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL.into_iter().find(|v| v.name() == name).ok_or_else(|| UnknownVariant(name.to_string()))
    }
}

#[cfg(test)]
mod tests;
