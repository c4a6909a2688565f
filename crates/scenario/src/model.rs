//! The scenario file's data model: what a `.jsonc` scenario says, in the spec's vocabulary.
//!
//! Field names follow the WebIDL dictionaries they stand for (`ModelContextTool`,
//! `ModelContextRegisterToolOptions`, …) so a spec editor can read a scenario without our source.
//! Every struct denies unknown fields: a typo is an error, never silently ignored.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::variant::Variant;

/// A JavaScript value written in JSON.
///
/// Plain JSON means itself. An object whose only key is `"$js"` stands for a value JSON cannot
/// write: `{"$js": "undefined"}`, `{"$js": "bigint"}` (a BigInt, which JSON serialization rejects),
/// `{"$js": "cycle"}` (an object that contains itself), `{"$js": "toJSON-undefined"}` (an object
/// whose `toJSON()` returns undefined), `{"$js": "function"}`.
///
/// Where a JavaScript value is optional, an absent member, `{"$js": "undefined"}` and `null` are
/// three different things: absent is not passed (or the dictionary member does not exist),
/// `undefined` is passed explicitly (WebIDL then treats it as not passed where the spec's IDL
/// gives a default or makes a dictionary member optional), and `null` is the value null. Such
/// fields read with `present`, so `null` is not taken for absent.
pub type JsValueText = serde_json::Value;

/// Reads an optional JavaScript value that is present in the file, `null` included (serde's
/// `Option` reads `null` as absent).
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<JsValueText>, D::Error> {
    JsValueText::deserialize(deserializer).map(Some)
}

/// One scenario: a set of top-level traversables (tabs), their frame trees, scripts and options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Scenario {
    /// Format version; always 1.
    pub version: u32,
    /// Short name, shown in trace headers.
    pub name: String,
    /// What race this scenario shows, in a sentence or two.
    #[serde(default)]
    pub description: String,
    /// Scenario-wide options (default: none set).
    #[serde(default)]
    pub options: Options,
    /// Top-level traversables (tabs), each with its nested navigables.
    pub tabs: Vec<Frame>,
    /// Steps the user takes in the browser UI, in order, each one a unit on the `user` lane:
    /// `navigate`, `removeIframe`, `enterBfcache` and `restoreFromBfcache` only.
    #[serde(default)]
    pub user: Vec<Action>,
    /// Steps the browser's agent takes, in order, on the AI agent queue.
    #[serde(default)]
    pub agent: Vec<AgentAction>,
    /// What the scenario expects of its outcomes (checked by `webmcp-sim check`, which explores
    /// every schedule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
    /// Free-form notes for people (links, issue numbers, any JSON); the simulator ignores them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extras: Option<serde_json::Value>,
    /// Documents the scenario's server holds, by URL path (`/resources/frame.html`), served at
    /// every origin: an iframe a JavaScript page inserts whose `src` has one of these paths, or a
    /// navigation a page starts (`location.assign`, `location.href = …`, `location.reload()`) to
    /// a URL with one of these paths, shows that document and runs its script. Any other path
    /// gives a document with no script (and the trace says so).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub resources: std::collections::BTreeMap<String, Resource>,
}

/// A document the scenario's server holds (`Scenario::resources`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Resource {
    /// The document's script, in JavaScript (none: the document has no script).
    #[serde(default)]
    pub js: String,
    /// The document's script, from a file beside the scenario file (a path relative to it), in
    /// place of `js`; the loader reads it into `js`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub js_file: Option<String>,
    /// Response headers of the document, as in `Frame::headers`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub headers: std::collections::BTreeMap<String, String>,
    /// The document's iframes, created with it (as a `navigate` step's `frames`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frames: Vec<Frame>,
}

/// Expectations over the outcomes of every schedule.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Expect {
    /// Holds in every outcome.
    #[serde(default)]
    pub always: Vec<Predicate>,
    /// Holds in no outcome.
    #[serde(default)]
    pub never: Vec<Predicate>,
    /// Holds in at least one outcome.
    #[serde(default)]
    pub sometimes: Vec<Predicate>,
    /// The exact set of outcomes, as the `summary:` lines `webmcp-sim explore` prints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<Vec<String>>,
    /// How the outcome set changes under other options (another spec reading), as
    /// `webmcp-sim diff` computes it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diff: Vec<DiffExpect>,
}

/// `{"with": {"parallel": "fifo"}, "onlyInBase": [...], "onlyInWith": []}`: explore the scenario
/// again with changed options and compare the outcome sets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DiffExpect {
    /// The other side's options: each one given replaces the file's (`variants` replaces the
    /// whole list).
    pub with: DiffOptions,
    /// The outcomes only in the base (the file's options): every one satisfies at least one of
    /// these predicates, and each predicate holds in at least one of them. `[]`: there is none.
    /// Absent: not checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_in_base: Option<Vec<Predicate>>,
    /// The outcomes only under `with`, described the same way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_in_with: Option<Vec<Predicate>>,
}

/// The options a `diff` expectation changes, named as on the command line: `parallel` as
/// `--parallel` (`parallel=`), `variant` as each `--variant X` (`variant=X`: added to the
/// file's), `noVariant` as `no-variant=X` (removed), `variants` as `variants=A+B` (exactly these).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DiffOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallel: Option<ParallelModel>,
    /// Replaces the file's list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<String>>")]
    pub variants: Option<Vec<Variant>>,
    /// Each added to the variants (after `variants`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<String>")]
    pub variant: Vec<Variant>,
    /// Each removed from the variants (after `variant`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<String>")]
    pub no_variant: Vec<Variant>,
}

/// A statement about one outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub enum Predicate {
    /// This console line was logged.
    Logged(String),
    /// `[A, B]`: both lines were logged, and the first A before the first B.
    Before(Vec<String>),
    /// A named promise ended in a state.
    Promise(PromiseIs),
    /// At the end, this document's tool map holds this tool.
    ToolRegistered(ToolRegistered),
    /// A spec assert failed: `""` for any, else text the finding's `algorithm step: message`
    /// contains; or `{"at": "executeTool 15.10.1", "from": "imperative execute steps 9.1.4"}`:
    /// the failed assert and the step that invoked its algorithm (its call site).
    Finding(FindingIs),
    /// `{"count": {"logged": "changed", "times": 1, "document": "tab"}}`: the console line was
    /// logged exactly `times` times (by the navigable's documents, when `document` is given);
    /// `{"count": {"event": "toolchange", "times": 1, "document": "tab"}}`: the event fired
    /// exactly `times` times at the document's ModelContext.
    Count(Count),
    /// The browser's agent saw or received this: one entry of the outcome's `agent` list, exactly
    /// (`"observation of tab: tab=[search]"`, `"call #1 succeeded: \"ok\""`).
    Agent(String),
    /// An uncaught exception whose text contains this (`""` for any).
    Uncaught(String),
    /// The predicate does not hold.
    Not(Box<Predicate>),
    /// Every predicate holds.
    AllOf(Vec<Predicate>),
    /// At least one predicate holds.
    AnyOf(Vec<Predicate>),
}

/// `{"promise": {"name": "call", "is": "rejected", "with": "AbortError"}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PromiseIs {
    /// The promise's `as` name (or its label in the outcome, e.g. `registerTool#1@tab`).
    pub name: String,
    /// `fulfilled`, `rejected` or `pending`.
    pub is: PromiseState,
    /// The value, as a JavaScript value written in JSON (`[]`, `"\"sunny\""` for the string
    /// `"sunny"` with its quotes, `{"$js": "undefined"}`); for a promise rejected with a
    /// `DOMException` or an `Error`, its name as a string (`"AbortError"`, `"TypeError"`).
    /// Absent: any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<JsValueText>,
}

/// A finding expectation: text the finding contains, or where it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum FindingIs {
    /// `""` for any finding, else text its `algorithm step: message` contains.
    Text(String),
    /// Where the finding is.
    At(FindingAt),
}

/// `{"at": "executeTool 15.10.1", "from": "imperative execute steps 9.1.4"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FindingAt {
    /// The failed assert, `algorithm step`, exactly as the outcome shows it. Absent: any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// The call site, `algorithm step`: the step that invoked the algorithm whose assert failed.
    /// Absent: any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

/// The algorithms a finding's `at` and `from` can name (the trace's citations), for validation.
pub const ALGORITHMS: &[&str] = &[
    "registerTool",
    "getTools",
    "executeTool",
    "notify documents of a tool change",
    "tool is exposed to an origin",
    "unregister a tool",
    "tool execute steps",
    "imperative execute steps",
    "cancel a pending tool execution",
    "unloading document cleanup steps",
    "perform an observation",
    "agent tool call",
    "browser agent",
    "user",
    "HTML",
    "DOM",
    "WebIDL",
    "ECMAScript",
    "console",
    "tool",
    "webmcp-sim",
];

/// The events a `count` can count: those fired at a ModelContext.
pub const COUNTED_EVENTS: &[&str] = &["toolchange", "toolactivated", "toolcancel"];

/// `{"count": {"logged": "changed", "times": 1, "document": "tab"}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Count {
    /// The console line (give `logged` or `event`, not both).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logged: Option<String>,
    /// The event fired at a document's ModelContext: `toolchange`, `toolactivated` or
    /// `toolcancel` (give `logged` or `event`, not both).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// How many times, exactly.
    pub times: u32,
    /// Count only lines logged by this navigable's documents (its id; `id@N` for the document
    /// after its N-th navigation). Absent: every document's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<String>,
}

/// A promise's final state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum PromiseState {
    Fulfilled,
    Rejected,
    Pending,
}

/// `{"toolRegistered": {"document": "child", "tool": "search"}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ToolRegistered {
    /// The document's label as traces show it: the navigable id, plus `@N` after navigations.
    pub document: String,
    pub tool: String,
}

/// Scenario-wide options.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Options {
    /// How "in parallel" steps are scheduled (default: `"unordered"`).
    #[serde(default)]
    pub parallel: ParallelModel,
    /// Opt-in variants that model a proposal instead of today's text, by name.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub variants: Vec<Variant>,
    /// Whether the user agent keeps a document a navigation or a traversal leaves in the
    /// back/forward cache (HTML "unload a document" 5, intendToKeepInBfcache: the user agent's
    /// choice; default `"never"`).
    #[serde(default, skip_serializing_if = "BfcachePolicy::is_never")]
    pub bfcache: BfcachePolicy,
    /// When a navigation's response arrives (HTML "navigate" 23, "in parallel"): `"instant"`
    /// (the default: before virtual time advances, so before any later timer) or `"unbounded"`
    /// (at any later moment, as HTML allows: before or after each later timer, and the responses
    /// of two navigations in either order).
    #[serde(default, skip_serializing_if = "NetworkModel::is_instant")]
    pub network: NetworkModel,
}

/// When a navigation's response arrives (`options.network`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum NetworkModel {
    /// Before virtual time next advances: the navigation completes before any timer due later
    /// (the simulator's choice; HTML sets no bound).
    #[default]
    Instant,
    /// At any later moment: the fetch is an in-parallel block that may be put off past every
    /// timer deadline (`net.wait`), as HTML's "in parallel" fetch allows.
    Unbounded,
}

impl NetworkModel {
    /// True for the default, `"instant"`.
    pub fn is_instant(&self) -> bool {
        *self == NetworkModel::Instant
    }
}

/// The user agent's choice in HTML "unload a document" step 5 (intendToKeepInBfcache) for a
/// document that a navigation or a history traversal leaves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BfcachePolicy {
    /// Never: the document is unloaded with salvageable false and destroyed; a traversal back
    /// to its session history entry loads the entry's URL again.
    #[default]
    Never,
    /// Every salvageable document (every document here: nothing the simulator models makes one
    /// unsalvageable) is kept in its session history entry, and a traversal back reactivates it.
    KeepSalvageable,
}

impl BfcachePolicy {
    /// True for the default, `"never"`.
    pub fn is_never(&self) -> bool {
        *self == BfcachePolicy::Never
    }
}

/// How "in parallel" steps are scheduled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ParallelModel {
    /// Each in-parallel block is its own lane: blocks run atomically, unordered among themselves.
    #[default]
    Unordered,
    /// All in-parallel blocks run in FIFO order on one browser-side parallel queue
    /// (the spec's "single, authoritative browser process" reading).
    Fifo,
}

/// A navigable and its initial document: a tab (top-level traversable) or an iframe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Frame {
    /// Name of the navigable, used by actions and in traces (for example `"tab"`, `"child"`).
    pub id: String,
    /// The document's URL (its origin comes from it, unless sandboxed).
    pub url: String,
    /// The iframe's `allow` attribute, e.g. `"tools"` or `"tools https://b.example"`. Iframes only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow: Option<String>,
    /// The iframe's `sandbox` attribute, e.g. `"allow-scripts"`. Without `allow-same-origin`
    /// the document gets an opaque origin. Iframes only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<String>,
    /// The tab was opened by the page of the tab with this id (`window.open` without
    /// `noopener`): an auxiliary browsing context in that tab's browsing context group, sharing
    /// its agent clusters (a same-site document runs on the opener's event loop), with that tab
    /// as its opener browsing context (`window.opener`). Tabs only; it names an earlier tab.
    /// Without it a tab is in a browsing context group of its own, as a tab the user opened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opener: Option<String>,
    /// Response headers of the document: `Permissions-Policy`, `Origin-Agent-Cluster`.
    #[serde(default)]
    pub headers: std::collections::BTreeMap<String, String>,
    /// The document sets `document.domain`, which needs a site-keyed agent cluster
    /// (modelled as `Origin-Agent-Cluster: ?0`; see docs/model.md).
    #[serde(default)]
    pub sets_document_domain: bool,
    /// The document's script, run as one task when the document has loaded.
    #[serde(default)]
    pub script: Vec<Action>,
    /// The document's script in JavaScript, inline, in place of `script` (docs/scenario-format.md,
    /// "JavaScript pages").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub js: Option<String>,
    /// The document's script in JavaScript, from a file beside the scenario file (a path relative
    /// to it), in place of `script`; the loader reads it into `js`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub js_file: Option<String>,
    /// Child navigables (iframes) of this document, in tree order.
    #[serde(default)]
    pub frames: Vec<Frame>,
}

/// One statement of a document script (or of a callback, handler or continuation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub enum Action {
    /// `console.log(text)`.
    Log(String),
    /// `document.modelContext.registerTool(tool, options)`.
    RegisterTool(RegisterTool),
    /// `document.modelContext.getTools(options)`.
    GetTools(GetTools),
    /// `document.modelContext.executeTool(tool, inputObject, options)`.
    ExecuteTool(ExecuteTool),
    /// `const <name> = new AbortController()`.
    NewAbortController(String),
    /// `controller.abort(reason)`.
    Abort(Abort),
    /// `setTimeout(() => { do }, ms)`.
    SetTimeout(SetTimeout),
    /// `promise.then(onFulfilled, onRejected)`.
    Then(Then),
    /// `target.on<event> = () => { do }`: set an event handler.
    On(On),
    /// `throw new <name>(message)`: the rest of the current script or callback does not run.
    Throw(Throw),
    /// Navigate a navigable to a new document (user lane, or a script navigating a same-origin
    /// navigable).
    Navigate(Navigate),
    /// `iframe.remove()`: remove an iframe; its document is unloaded and destroyed.
    RemoveIframe(String),
    /// The tab's active document enters the back/forward cache (the user navigated away and
    /// the document was kept). User lane only.
    EnterBfcache(String),
    /// The tab's document is restored from the back/forward cache. User lane only.
    RestoreFromBfcache(String),
    /// User lane only: the user's `step` happens when virtual time is `ms` (not before), racing
    /// the tasks due then.
    At(At),
    /// User lane only: the user's `step` may happen at any virtual time from `from` to `to`,
    /// racing timers as well as tasks.
    Within(Within),
}

/// `{"at": {"ms": 50, "step": {…}}}`: a user step at a stated virtual time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct At {
    /// The virtual time, in milliseconds, at which the step happens.
    pub ms: u64,
    /// The user step (`navigate`, `removeIframe`, `enterBfcache`, `restoreFromBfcache`).
    pub step: Box<Action>,
}

/// `{"within": {"from": 0, "to": 60, "step": {…}}}`: a user step that may happen at any virtual
/// time in a window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Within {
    /// The earliest virtual time, in milliseconds.
    pub from: u64,
    /// The latest virtual time, in milliseconds (at least `from`).
    pub to: u64,
    /// The user step (`navigate`, `removeIframe`, `enterBfcache`, `restoreFromBfcache`).
    pub step: Box<Action>,
}

/// Arguments of `registerTool`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RegisterTool {
    /// Whose `modelContext`: the id of a navigable whose active document is same origin with,
    /// and on the same event loop as, the script's (like `iframe.contentDocument.modelContext`).
    /// Default: the script's own document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<String>,
    /// The `tool` argument.
    pub tool: ModelContextTool,
    /// The `options` argument (default `{}`).
    #[serde(default)]
    pub options: RegisterToolOptions,
    /// Name for the returned promise, to use in `then` and in the outcome.
    #[serde(default, rename = "as", skip_serializing_if = "Option::is_none")]
    pub as_: Option<String>,
}

/// The `ModelContextTool` dictionary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ModelContextTool {
    /// The `name` member.
    pub name: String,
    /// The `title` member; absent means the member does not exist.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The `description` member.
    pub description: String,
    /// Any JavaScript value (see `JsValueText`); absent means the member does not exist, and so
    /// does `{"$js": "undefined"}` (WebIDL); `null` is the value null (a TypeError: not an object).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<JsValueText>,
    /// What the `execute` callback does when invoked.
    pub execute: Execute,
    /// The `annotations` member; absent means the member does not exist.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
}

/// The `ToolAnnotations` dictionary (with the seeds' `consequentialHint`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// `readOnlyHint` (default `false`).
    #[serde(default)]
    pub read_only_hint: bool,
    /// `untrustedContentHint` (default `false`).
    #[serde(default)]
    pub untrusted_content_hint: bool,
    /// `consequentialHint` (default `false`).
    #[serde(default)]
    pub consequential_hint: bool,
}

/// The behaviour of a tool's `execute(inputObject, {signal})` callback.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Execute {
    /// Statements run first, synchronously, inside the callback.
    #[serde(default, rename = "do")]
    pub do_: Vec<Action>,
    /// Statements run when the callback's `signal` fires `abort`.
    #[serde(default)]
    pub on_abort: Vec<Action>,
    /// Log the callback's input first, as `input: <its JSON>` (`console.log("input: " +
    /// JSON.stringify(inputObject))`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub log_input: bool,
    /// When the callback's `signal` aborts, log `signal aborted: <reason>` (a DOMException's or
    /// Error's name, else the reason's value).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub log_abort: bool,
    /// How the returned promise settles.
    #[serde(default)]
    pub result: ExecuteResult,
}

/// How the promise returned by `execute` settles.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub enum ExecuteResult {
    /// Fulfil with this value (default: `undefined`, like `async () => {}`).
    Resolve(JsValueText),
    /// Reject with this value.
    Reject(JsValueText),
    /// Throw synchronously (a `TypeError` with this message); the callback's promise rejects.
    Throw(String),
    /// Never settle.
    #[default]
    Never,
    /// Settle after a timer: `setTimeout(settle, ms)` in the tool's document.
    After(Box<After>),
    /// Reject with `signal.reason` when the signal aborts; never settle otherwise.
    RejectOnAbort,
}

/// A settlement deferred by a timer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct After {
    pub ms: u64,
    /// `{"resolve": value}` or `{"reject": value}`.
    pub then: ExecuteResult,
}

/// The `ModelContextRegisterToolOptions` dictionary.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RegisterToolOptions {
    /// Origins (as URL strings) the tool is exposed to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exposed_to: Option<Vec<String>>,
    /// The name of an `AbortController` whose signal unregisters the tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<String>,
}

/// Arguments of `getTools`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GetTools {
    /// Whose `modelContext`, as in `RegisterTool::document`. Default: the script's own document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<String>,
    /// The `options` argument (default `{}`).
    #[serde(default)]
    pub options: GetToolsOptions,
    /// Name for the returned promise, to use in `then`, `fromGetTools` and in the outcome.
    #[serde(default, rename = "as", skip_serializing_if = "Option::is_none")]
    pub as_: Option<String>,
}

/// The `ModelContextGetToolOptions` dictionary.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GetToolsOptions {
    /// Origins (as URL strings, any text) whose tools to list; absent means the member does not
    /// exist.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_origins: Option<Vec<String>>,
}

/// Arguments of `executeTool`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ExecuteTool {
    /// Whose `modelContext`, as in `RegisterTool::document`. Default: the script's own document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<String>,
    /// The `tool` argument.
    pub tool: ToolRef,
    /// The `inputObject` argument; any JavaScript value (see `JsValueText`). Absent: not
    /// passed; `{"$js": "undefined"}`: passed as undefined; either way WebIDL uses the default,
    /// `{}`. `null` is passed as null (a TypeError: not an object).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub input_object: Option<JsValueText>,
    /// The `options` argument (default `{}`).
    #[serde(default)]
    pub options: ExecuteToolOptions,
    /// Name for the returned promise, to use in `then` and in the outcome.
    #[serde(default, rename = "as", skip_serializing_if = "Option::is_none")]
    pub as_: Option<String>,
}

/// Which `RegisteredTool` to pass to `executeTool`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub enum ToolRef {
    /// The entry named `name` of the array a fulfilled `getTools` promise gave.
    FromGetTools {
        /// The name given with `as` to a `getTools` call.
        promise: String,
        /// The tool's name.
        name: String,
    },
    /// A hand-built `RegisteredTool` dictionary.
    Dictionary(RegisteredToolText),
}

/// A hand-built `RegisteredTool` dictionary: any name, any origin string, any window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RegisteredToolText {
    /// The `name` member.
    pub name: String,
    /// The `description` member (default `""`).
    #[serde(default)]
    pub description: String,
    /// The `origin` member, any string.
    pub origin: String,
    /// The `window` member: the id of a navigable whose active document's Window is meant.
    pub window: String,
}

/// The `ModelContextExecuteToolOptions` dictionary.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ExecuteToolOptions {
    /// The name of an `AbortController` whose signal cancels the execution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<String>,
}

/// `controller.abort(reason)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Abort {
    /// The controller's name, as given to `newAbortController`.
    pub controller: String,
    /// The abort reason. Absent or `{"$js": "undefined"}`: an "AbortError" DOMException (DOM:
    /// "If reason is undefined"); `null` is the reason null.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub reason: Option<JsValueText>,
}

/// `setTimeout(() => { do }, ms)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SetTimeout {
    /// The delay in virtual milliseconds (default 0).
    #[serde(default)]
    pub ms: u64,
    /// The callback's statements.
    #[serde(rename = "do")]
    pub do_: Vec<Action>,
}

/// `promise.then(onFulfilled, onRejected)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Then {
    /// The name given with `as` when the promise was made.
    pub promise: String,
    /// The statements of `onFulfilled` (default: none).
    #[serde(default)]
    pub on_fulfilled: Vec<Action>,
    /// The statements of `onRejected` (default: none).
    #[serde(default)]
    pub on_rejected: Vec<Action>,
}

/// `target.on<event> = () => { do }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct On {
    /// The event type: `toolchange`, `toolactivated` or `toolcancel` (on a `ModelContext`; the
    /// last two are issue #146's, fired only under the variant `tool-events`) or `abort` (on a
    /// controller's signal).
    pub event: String,
    /// For the `ModelContext` events: the navigable whose document's `modelContext` gets the handler
    /// (default: the script's own). For `abort`: the `AbortController` name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The handler's statements.
    #[serde(rename = "do")]
    pub do_: Vec<Action>,
}

/// `throw new <name>(message)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Throw {
    /// `TypeError`, or a DOMException name such as `NotAllowedError`.
    pub name: String,
    /// The message (default `""`).
    #[serde(default)]
    pub message: String,
}

/// Navigate a navigable to a new document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Navigate {
    /// The navigable's id.
    pub navigable: String,
    /// The new document's URL.
    pub url: String,
    /// Response headers of the new document, as in `Frame::headers`.
    #[serde(default)]
    pub headers: std::collections::BTreeMap<String, String>,
    /// The new document's script.
    #[serde(default)]
    pub script: Vec<Action>,
    /// The new document's iframes.
    #[serde(default)]
    pub frames: Vec<Frame>,
}

/// A step of the browser's agent, run on the AI agent queue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub enum AgentAction {
    /// Perform an observation of a tab.
    Observe(String),
    /// Call a tool seen in the latest observation of `tab`.
    CallTool(AgentCallTool),
    /// The agent's `step` happens when virtual time is `ms` (not before), racing the tasks due
    /// then.
    At(AgentAt),
    /// The agent's `step` may happen at any virtual time from `from` to `to`, racing timers as
    /// well as tasks.
    Within(AgentWithin),
    /// `{"awaitResult": "c1"}`: the agent waits until the result of its call named `c1` (an
    /// earlier `callTool`'s `as`) reaches it before it takes its next step.
    AwaitResult(String),
}

/// `{"at": {"ms": 60, "step": {"observe": "tab"}}}`: an agent step at a stated virtual time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AgentAt {
    /// The virtual time, in milliseconds, at which the step happens.
    pub ms: u64,
    /// The agent step (`observe`, `callTool`).
    pub step: Box<AgentAction>,
}

/// `{"within": {"from": 0, "to": 100, "step": {"observe": "tab"}}}`: an agent step that may
/// happen at any virtual time in a window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AgentWithin {
    /// The earliest virtual time, in milliseconds.
    pub from: u64,
    /// The latest virtual time, in milliseconds (at least `from`).
    pub to: u64,
    /// The agent step (`observe`, `callTool`).
    pub step: Box<AgentAction>,
}

/// An agent-initiated tool call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AgentCallTool {
    /// The tab whose latest observation holds the tool.
    pub tab: String,
    /// The navigable whose document registered the tool.
    pub navigable: String,
    /// The tool's name.
    pub name: String,
    /// The input arguments, as a JSON value (serialized by the agent; absent: `{}`; `null` is the
    /// JSON text `null`).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub input: Option<serde_json::Value>,
    /// The input arguments are the result of the agent's earlier call of this name (its `as`),
    /// the JSON text the tool's completion gave the agent; an `awaitResult` of that call comes
    /// first. Instead of `input`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_from_result: Option<String>,
    /// Name for the call's result, to use in the outcome.
    #[serde(default, rename = "as", skip_serializing_if = "Option::is_none")]
    pub as_: Option<String>,
}
