//! The plan of a generated scenario, and its proptest strategies.
//!
//! A `Plan` is a scenario written as small choices (an index, an enum, a short list), so proptest
//! shrinks it well: lists lose elements, enums move to their first (simplest) variant, indices go
//! to 0. `build::build` turns any plan into a valid `scenario::Scenario`: names are made fresh,
//! references are resolved against what exists, and steps that cannot be placed are dropped.

use proptest::prelude::*;

/// Knobs of the generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenConfig {
    /// Most documents, across at most two tabs (1 to 4).
    pub max_docs: usize,
    /// Most statements in a document's top-level script.
    pub max_statements: usize,
    /// How deep callbacks (`setTimeout` bodies) nest.
    pub max_depth: u32,
    /// Generate user steps: navigation, iframe removal, bfcache.
    pub user_steps: bool,
    /// Generate a navigation a script starts (with `user_steps`).
    pub script_navigation: bool,
    /// Generate agent steps: observe, callTool.
    pub agent_steps: bool,
    /// Generate `options`: the FIFO parallel queue, the variants and the network model.
    pub options: bool,
}

impl Default for GenConfig {
    fn default() -> GenConfig {
        GenConfig {
            max_docs: 3,
            max_statements: 4,
            max_depth: 2,
            user_steps: true,
            script_navigation: true,
            agent_steps: true,
            options: true,
        }
    }
}

/// Hosts of generated URLs: two same-site origins, another site, and localhost.
pub const HOSTS: [&str; 4] = ["a.example", "sub.a.example", "b.example", "localhost"];

/// Tool names that registerTool accepts.
pub const VALID_TOOL_NAMES: [&str; 3] = ["search", "cart", "v1.x-y_z"];

/// Tool names that registerTool rejects (step 10 or 11); the last is 129 characters long.
pub fn invalid_tool_names() -> [String; 4] {
    ["".into(), "bad name".into(), "naïve".into(), "x".repeat(129)]
}

/// Strings for `exposedTo`, `fromOrigins` and `dictionary.origin`: good and bad.
pub const ORIGIN_TEXTS: [&str; 6] = [
    "https://a.example",
    "https://b.example",
    "https://sub.a.example",
    "http://localhost",
    "http://b.example",
    "not a url",
];

/// A choice among however many things there turn out to be: `index(n)` is in `0..n`. It shrinks
/// towards 0, the first candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick(pub u8);

impl Pick {
    pub fn index(self, n: usize) -> usize {
        usize::from(self.0) % n.max(1)
    }
}

fn pick() -> impl Strategy<Value = Pick> {
    any::<u8>().prop_map(Pick)
}

/// A list of origins for `exposedTo` or `fromOrigins`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origins {
    /// The origin of every document of the scenario.
    Documents,
    /// Indices into `ORIGIN_TEXTS`: good and bad strings.
    Texts(Vec<usize>),
}

/// A generated scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// `"options": {"parallel": "fifo"}`.
    pub fifo: bool,
    /// Which of `completion-steps-in-parallel`, `title-undefined`, `cross-traversable-execution`.
    pub variants: [bool; 3],
    /// `"options": {"network": "unbounded"}`: the response of a navigation a script starts may
    /// come after any later timer (`script_navigation`; a user step's navigation is not a fetch).
    pub network_unbounded: bool,
    /// With `cross-traversable-execution`, also `cleanup-iterates-every-traversable` (finding 13's
    /// fix); without it the flag builds nothing.
    pub cleanup_every_traversable: bool,
    /// The second tab, if any, was opened by the first tab's page (`"opener"`): one browsing
    /// context group, as `cross-traversable-execution` (issue #227) needs to let a call through.
    pub tab_opened: bool,
    /// A navigation one document's script starts, appended to that script.
    pub script_navigation: Option<ScriptNavigation>,
    /// Documents in creation order; the first is a tab.
    pub docs: Vec<DocPlan>,
    /// A call that can succeed, amid the random statements.
    pub core: Option<CorePlan>,
    pub user: Vec<UserStep>,
    pub agent: Vec<AgentStep>,
}

/// A tool call that can succeed: document `target` registers `search` (first in its script,
/// exposed to every document's origin) and document `caller` calls it from a timer, through
/// `getTools` or a hand-built dictionary. Without it most random calls fail early.
#[derive(Clone, Debug, PartialEq)]
pub struct CorePlan {
    pub target: Pick,
    pub caller: Pick,
    pub result: ToolResult,
    pub via_get_tools: bool,
    pub signal: SignalPlan,
    pub delay: u64,
}

/// One document: where it sits, its URL and headers, and its script.
#[derive(Clone, Debug, PartialEq)]
pub struct DocPlan {
    /// A second tab (when there is none yet), or an iframe of document `parent`.
    pub new_tab: bool,
    /// Among the documents before this one.
    pub parent: Pick,
    pub url: UrlPlan,
    pub allow: Allow,
    pub sandbox: Sandbox,
    /// `Origin-Agent-Cluster: ?0`.
    pub site_keyed: bool,
    pub policy: PolicyHeader,
    pub script: Vec<Stmt>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UrlPlan {
    pub https: bool,
    /// Into `HOSTS`.
    pub host: usize,
}

impl UrlPlan {
    pub fn origin(self) -> String {
        format!("{}://{}", if self.https { "https" } else { "http" }, HOSTS[self.host % HOSTS.len()])
    }
}

/// The iframe's `allow` attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allow {
    Absent,
    Tools,
    ToolsStar,
    ToolsSrc,
    ToolsB,
    ToolsNone,
}

impl Allow {
    pub fn text(self) -> Option<&'static str> {
        match self {
            Allow::Absent => None,
            Allow::Tools => Some("tools"),
            Allow::ToolsStar => Some("tools *"),
            Allow::ToolsSrc => Some("tools 'src'"),
            Allow::ToolsB => Some("tools https://b.example"),
            Allow::ToolsNone => Some("tools 'none'"),
        }
    }
}

/// The iframe's `sandbox` attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sandbox {
    Absent,
    Scripts,
    ScriptsSameOrigin,
}

impl Sandbox {
    pub fn text(self) -> Option<&'static str> {
        match self {
            Sandbox::Absent => None,
            Sandbox::Scripts => Some("allow-scripts"),
            Sandbox::ScriptsSameOrigin => Some("allow-scripts allow-same-origin"),
        }
    }
}

/// The document's `Permissions-Policy` header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyHeader {
    Absent,
    Star,
    Nobody,
    SelfOnly,
}

impl PolicyHeader {
    pub fn text(self) -> Option<&'static str> {
        match self {
            PolicyHeader::Absent => None,
            PolicyHeader::Star => Some("tools=*"),
            PolicyHeader::Nobody => Some("tools=()"),
            PolicyHeader::SelfOnly => Some("tools=(self)"),
        }
    }
}

/// A statement of a script; some expand to a few actions (a call and its `then`).
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Log,
    Register(Box<RegisterPlan>),
    /// `executeTool` with a hand-built `RegisteredTool` dictionary.
    ExecuteDict(ExecPlan),
    /// `getTools`, then in its `then`: `executeTool` of entries of the result.
    GetThenExecute(GetPlan),
    GetTools {
        from: Option<Origins>,
    },
    NewController,
    /// Abort a controller made earlier in this document's script.
    Abort {
        controller: Pick,
        when: AbortWhen,
    },
    /// An `abort` event handler on a controller made earlier in this document.
    OnAbort {
        controller: Pick,
    },
    Throw,
    /// Remove an iframe (preferably one of this document's).
    RemoveIframe(Pick),
    SetTimeout {
        ms: u64,
        body: Vec<Stmt>,
    },
    /// A `toolchange` handler; its body never changes a tool map, so handlers cannot loop.
    OnToolchange {
        body: Vec<Stmt>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct RegisterPlan {
    pub tool: ToolPlan,
    pub exposed_to: Option<Origins>,
    /// A controller made earlier in this document's script.
    pub signal: Option<Pick>,
    /// Register on another document's `modelContext` (same origin and event loop, or it throws).
    pub document: Option<Pick>,
    /// Log when the registration promise settles.
    pub then_log: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ToolPlan {
    pub name: ToolName,
    pub description: bool,
    pub title: bool,
    pub schema: Schema,
    pub annotations: Option<[bool; 3]>,
    pub log_in_execute: bool,
    pub log_on_abort: bool,
    pub result: ToolResult,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolName {
    /// Into `VALID_TOOL_NAMES`.
    Valid(usize),
    /// Into `invalid_tool_names()`.
    Invalid(usize),
}

impl ToolName {
    pub fn text(self) -> String {
        match self {
            ToolName::Valid(i) => VALID_TOOL_NAMES[i % VALID_TOOL_NAMES.len()].to_string(),
            ToolName::Invalid(i) => {
                let names = invalid_tool_names();
                names[i % names.len()].clone()
            }
        }
    }
}

/// The tool's `inputSchema`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schema {
    Absent,
    Object,
    /// An object holding a BigInt: JSON serialization throws (registerTool 13).
    NestedBigInt,
    /// An object that contains itself: JSON serialization throws.
    Cycle,
    /// A string: WebIDL's conversion to `object` throws.
    Primitive,
    /// An object whose `toJSON()` returns undefined.
    ToJsonUndefined,
}

/// How the tool's `execute` promise settles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolResult {
    Resolve(Value),
    Reject(Value),
    Throw,
    Never,
    After { ms: u64, resolve: bool },
    RejectOnAbort,
}

/// A JavaScript value for a result or a rejection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Str,
    Object,
    Undefined,
    BigInt,
    ToJsonUndefined,
    Null,
    Number,
}

impl Value {
    pub fn json(self) -> serde_json::Value {
        use serde_json::json;
        match self {
            Value::Str => json!("ok"),
            Value::Object => json!({"hits": 3}),
            Value::Undefined => json!({"$js": "undefined"}),
            Value::BigInt => json!({"$js": "bigint"}),
            Value::ToJsonUndefined => json!({"$js": "toJSON-undefined"}),
            Value::Null => serde_json::Value::Null,
            Value::Number => json!(1.5),
        }
    }
}

/// `executeTool` with a dictionary.
#[derive(Clone, Debug, PartialEq)]
pub struct ExecPlan {
    /// Run it from a timer with this delay, after the documents' scripts.
    pub delay: Option<u64>,
    /// Among the tool names the scenario registers.
    pub name: Pick,
    /// Call a tool nobody registers instead.
    pub missing: bool,
    /// The document whose Window is `window`, among those that register the tool.
    pub window: Pick,
    pub origin: OriginChoice,
    pub input: Input,
    pub signal: SignalPlan,
    pub then_log: bool,
}

/// The `origin` member of a hand-built `RegisteredTool`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OriginChoice {
    /// The origin of the window's document's URL.
    OfWindow,
    /// Into `ORIGIN_TEXTS`.
    Text(usize),
}

/// `getTools` and calls of tools from its result.
#[derive(Clone, Debug, PartialEq)]
pub struct GetPlan {
    /// Run it from a timer with this delay, after the documents' scripts.
    pub delay: Option<u64>,
    pub from: Option<Origins>,
    pub calls: Vec<CallPlan>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CallPlan {
    /// Among the tool names the scenario registers.
    pub name: Pick,
    /// Call a tool nobody registers instead.
    pub missing: bool,
    pub input: Input,
    pub signal: SignalPlan,
    pub then_log: bool,
}

/// The `inputObject` argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    Absent,
    Object,
    /// An object holding a BigInt: executeTool 9 rejects.
    BigInt,
    Cycle,
    /// A number: WebIDL's conversion to `object` throws.
    Primitive,
    Function,
}

impl Input {
    pub fn json(self) -> Option<serde_json::Value> {
        use serde_json::json;
        match self {
            Input::Absent => None,
            Input::Object => Some(json!({"q": "x"})),
            Input::BigInt => Some(json!({"n": {"$js": "bigint"}})),
            Input::Cycle => Some(json!({"$js": "cycle"})),
            Input::Primitive => Some(json!(5)),
            Input::Function => Some(json!({"$js": "function"})),
        }
    }
}

/// The `signal` option of `executeTool`.
#[derive(Clone, Debug, PartialEq)]
pub enum SignalPlan {
    Absent,
    /// A new controller, aborted as `AbortWhen` says.
    Fresh(AbortWhen),
    /// A controller made earlier in this document's script.
    Existing(Pick),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbortWhen {
    Never,
    /// Right after the call, in the same script.
    Now,
    /// Before the call (executeTool 14.2).
    Before,
    /// From a timer.
    After(u64),
}

/// A navigation a document's script starts (the action language's `navigate` in a script): a
/// fetch, whose response comes at once under `"network": "instant"` and at any later moment
/// under `"unbounded"` (docs/scenario-format.md).
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptNavigation {
    /// The document whose script navigates.
    pub doc: Pick,
    /// The navigable: one of that document's iframes, or (None, or no iframe) its own.
    pub iframe: Option<Pick>,
    /// From a timer of this many ms, or (None) at the end of the script.
    pub delay: Option<u64>,
    pub url: UrlPlan,
    /// The new document's script.
    pub script: Vec<Stmt>,
}

/// A step of the user.
#[derive(Clone, Debug, PartialEq)]
pub enum UserStep {
    /// Navigate a navigable to a new document with its own script.
    Navigate {
        navigable: Pick,
        url: UrlPlan,
        script: Vec<Stmt>,
    },
    RemoveIframe(Pick),
    EnterBfcache(Pick),
    RestoreFromBfcache(Pick),
    /// Enter the bfcache, then come back.
    BfcacheVisit(Pick),
}

/// A step of the browser's agent.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentStep {
    Observe(Pick),
    /// Observe a tab, then call a tool of one of its documents.
    ObserveAndCall {
        tab: Pick,
        navigable: Pick,
        name: Pick,
    },
}

fn ms() -> impl Strategy<Value = u64> {
    prop_oneof![Just(0u64), Just(1), Just(5)]
}

fn delay(p: f64) -> impl Strategy<Value = Option<u64>> {
    prop::option::weighted(p, prop_oneof![Just(1u64), Just(5)])
}

fn url() -> impl Strategy<Value = UrlPlan> {
    (prop::bool::weighted(0.9), 0..HOSTS.len()).prop_map(|(https, host)| UrlPlan { https, host })
}

fn origins() -> impl Strategy<Value = Option<Origins>> {
    prop_oneof![
        3 => Just(None),
        3 => Just(Some(Origins::Documents)),
        1 => prop::collection::vec(0..ORIGIN_TEXTS.len(), 0..=2).prop_map(|v| Some(Origins::Texts(v))),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => Just(Value::Str),
        3 => Just(Value::Object),
        1 => Just(Value::Undefined),
        1 => Just(Value::BigInt),
        1 => Just(Value::ToJsonUndefined),
        1 => Just(Value::Null),
        1 => Just(Value::Number),
    ]
}

fn tool_result() -> impl Strategy<Value = ToolResult> {
    prop_oneof![
        6 => value().prop_map(ToolResult::Resolve),
        2 => value().prop_map(ToolResult::Reject),
        1 => Just(ToolResult::Throw),
        1 => Just(ToolResult::Never),
        4 => (ms(), any::<bool>()).prop_map(|(ms, resolve)| ToolResult::After { ms, resolve }),
        2 => Just(ToolResult::RejectOnAbort),
    ]
}

fn schema() -> impl Strategy<Value = Schema> {
    prop_oneof![
        16 => Just(Schema::Absent),
        6 => Just(Schema::Object),
        1 => Just(Schema::NestedBigInt),
        1 => Just(Schema::Cycle),
        1 => Just(Schema::Primitive),
        1 => Just(Schema::ToJsonUndefined),
    ]
}

fn tool_name() -> impl Strategy<Value = ToolName> {
    prop_oneof![
        12 => (0..VALID_TOOL_NAMES.len()).prop_map(ToolName::Valid),
        1 => (0..4usize).prop_map(ToolName::Invalid),
    ]
}

fn tool() -> impl Strategy<Value = ToolPlan> {
    (
        tool_name(),
        prop::bool::weighted(0.92),
        prop::bool::weighted(0.2),
        schema(),
        prop::option::weighted(0.2, any::<[bool; 3]>()),
        prop::bool::weighted(0.3),
        prop::bool::weighted(0.3),
        tool_result(),
    )
        .prop_map(|(name, description, title, schema, annotations, log_in_execute, log_on_abort, result)| {
            ToolPlan { name, description, title, schema, annotations, log_in_execute, log_on_abort, result }
        })
}

fn register() -> impl Strategy<Value = RegisterPlan> {
    (
        tool(),
        origins(),
        prop::option::weighted(0.25, pick()),
        prop::option::weighted(0.1, pick()),
        prop::bool::weighted(0.3),
    )
        .prop_map(|(tool, exposed_to, signal, document, then_log)| RegisterPlan {
            tool,
            exposed_to,
            signal,
            document,
            then_log,
        })
}

fn input() -> impl Strategy<Value = Input> {
    prop_oneof![
        6 => Just(Input::Absent),
        4 => Just(Input::Object),
        1 => Just(Input::BigInt),
        1 => Just(Input::Cycle),
        1 => Just(Input::Primitive),
        1 => Just(Input::Function),
    ]
}

fn abort_when() -> impl Strategy<Value = AbortWhen> {
    prop_oneof![
        2 => Just(AbortWhen::Never),
        2 => Just(AbortWhen::Now),
        1 => Just(AbortWhen::Before),
        3 => ms().prop_map(AbortWhen::After),
    ]
}

fn signal() -> impl Strategy<Value = SignalPlan> {
    prop_oneof![
        4 => Just(SignalPlan::Absent),
        4 => abort_when().prop_map(SignalPlan::Fresh),
        1 => pick().prop_map(SignalPlan::Existing),
    ]
}

fn exec() -> impl Strategy<Value = ExecPlan> {
    (
        (delay(0.3), pick(), prop::bool::weighted(0.08)),
        pick(),
        prop_oneof![6 => Just(OriginChoice::OfWindow), 1 => (0..ORIGIN_TEXTS.len()).prop_map(OriginChoice::Text)],
        input(),
        signal(),
        prop::bool::weighted(0.4),
    )
        .prop_map(|((delay, name, missing), window, origin, input, signal, then_log)| ExecPlan {
            delay,
            name,
            missing,
            window,
            origin,
            input,
            signal,
            then_log,
        })
}

fn call() -> impl Strategy<Value = CallPlan> {
    ((pick(), prop::bool::weighted(0.08)), input(), signal(), prop::bool::weighted(0.4))
        .prop_map(|((name, missing), input, signal, then_log)| CallPlan { name, missing, input, signal, then_log })
}

fn get() -> impl Strategy<Value = GetPlan> {
    (delay(0.5), origins(), prop::collection::vec(call(), 1..=2)).prop_map(|(delay, from, calls)| GetPlan {
        delay,
        from,
        calls,
    })
}

/// Statements whose effects never change a tool map (for `toolchange` handlers).
fn handler_stmt() -> BoxedStrategy<Stmt> {
    prop_oneof![
        2 => Just(Stmt::Log),
        2 => exec().prop_map(Stmt::ExecuteDict),
        3 => get().prop_map(Stmt::GetThenExecute),
        1 => origins().prop_map(|from| Stmt::GetTools { from }),
    ]
    .boxed()
}

fn leaf_stmt() -> BoxedStrategy<Stmt> {
    prop_oneof![
        2 => Just(Stmt::Log),
        7 => register().prop_map(|r| Stmt::Register(Box::new(r))),
        3 => exec().prop_map(Stmt::ExecuteDict),
        5 => get().prop_map(Stmt::GetThenExecute),
        1 => origins().prop_map(|from| Stmt::GetTools { from }),
        2 => Just(Stmt::NewController),
        2 => (pick(), abort_when()).prop_map(|(controller, when)| Stmt::Abort { controller, when }),
        1 => pick().prop_map(|controller| Stmt::OnAbort { controller }),
        1 => Just(Stmt::Throw),
        1 => pick().prop_map(Stmt::RemoveIframe),
    ]
    .boxed()
}

/// A statement whose callbacks nest at most `depth` deep.
pub fn stmt(depth: u32) -> BoxedStrategy<Stmt> {
    if depth == 0 {
        return leaf_stmt();
    }
    prop_oneof![
        10 => leaf_stmt(),
        2 => (ms(), prop::collection::vec(stmt(depth - 1), 0..=2)).prop_map(|(ms, body)| Stmt::SetTimeout { ms, body }),
        1 => prop::collection::vec(handler_stmt(), 1..=2).prop_map(|body| Stmt::OnToolchange { body }),
    ]
    .boxed()
}

fn doc(config: GenConfig) -> impl Strategy<Value = DocPlan> {
    (
        prop::bool::weighted(0.2),
        pick(),
        url(),
        prop_oneof![1 => Just(Allow::Absent), 6 => Just(Allow::Tools), 1 => Just(Allow::ToolsStar),
            1 => Just(Allow::ToolsSrc), 1 => Just(Allow::ToolsB), 1 => Just(Allow::ToolsNone)],
        prop_oneof![12 => Just(Sandbox::Absent), 1 => Just(Sandbox::Scripts), 1 => Just(Sandbox::ScriptsSameOrigin)],
        prop::bool::weighted(0.08),
        prop_oneof![12 => Just(PolicyHeader::Absent), 1 => Just(PolicyHeader::Star), 1 => Just(PolicyHeader::Nobody),
            1 => Just(PolicyHeader::SelfOnly)],
        prop::collection::vec(stmt(config.max_depth), 0..=config.max_statements),
    )
        .prop_map(|(new_tab, parent, url, allow, sandbox, site_keyed, policy, script)| DocPlan {
            new_tab,
            parent,
            url,
            allow,
            sandbox,
            site_keyed,
            policy,
            script,
        })
}

fn user_step(config: GenConfig) -> impl Strategy<Value = UserStep> {
    prop_oneof![
        1 => (pick(), url(), prop::collection::vec(stmt(config.max_depth.saturating_sub(1)), 0..=2))
            .prop_map(|(navigable, url, script)| UserStep::Navigate { navigable, url, script }),
        2 => pick().prop_map(UserStep::RemoveIframe),
        1 => pick().prop_map(UserStep::EnterBfcache),
        1 => pick().prop_map(UserStep::RestoreFromBfcache),
        2 => pick().prop_map(UserStep::BfcacheVisit),
    ]
}

fn agent_step() -> impl Strategy<Value = AgentStep> {
    prop_oneof![
        1 => pick().prop_map(AgentStep::Observe),
        2 => (pick(), pick(), pick())
            .prop_map(|(tab, navigable, name)| AgentStep::ObserveAndCall { tab, navigable, name }),
    ]
}

/// Plans of scenarios with 1 to `config.max_docs` documents.
pub fn plan(config: GenConfig) -> impl Strategy<Value = Plan> {
    let max_docs = config.max_docs.clamp(1, 4);
    let user = if config.user_steps {
        prop_oneof![1 => Just(Vec::new()), 1 => prop::collection::vec(user_step(config), 1..=2)].boxed()
    } else {
        Just(Vec::new()).boxed()
    };
    let agent = if config.agent_steps {
        prop_oneof![6 => Just(Vec::new()), 1 => prop::collection::vec(agent_step(), 1..=2)].boxed()
    } else {
        Just(Vec::new()).boxed()
    };
    let options = if config.options {
        (prop::bool::weighted(0.2), [prop::bool::weighted(0.1), prop::bool::weighted(0.1), prop::bool::weighted(0.1)])
            .boxed()
    } else {
        Just((false, [false; 3])).boxed()
    };
    let core = prop::option::weighted(
        0.6,
        (pick(), pick(), tool_result(), any::<bool>(), signal(), prop_oneof![Just(1u64), Just(5)]).prop_map(
            |(target, caller, result, via_get_tools, signal, delay)| CorePlan {
                target,
                caller,
                result,
                via_get_tools,
                signal,
                delay,
            },
        ),
    );
    // Drawn last, so that adding them left every earlier seed's other choices as they were (a
    // seed without them builds the scenario it built before).
    let network = if config.options { prop::bool::weighted(0.3).boxed() } else { Just(false).boxed() };
    let script_navigation = if config.user_steps && config.script_navigation {
        prop::option::weighted(
            0.4,
            (
                pick(),
                prop::option::weighted(0.5, pick()),
                prop::option::weighted(0.7, ms()),
                url(),
                prop::collection::vec(stmt(config.max_depth.saturating_sub(1)), 0..=2),
            )
                .prop_map(|(doc, iframe, delay, url, script)| ScriptNavigation {
                    doc,
                    iframe,
                    delay,
                    url,
                    script,
                }),
        )
        .boxed()
    } else {
        Just(None).boxed()
    };
    let cleanup = if config.options { any::<bool>().boxed() } else { Just(false).boxed() };
    (
        options,
        prop::collection::vec(doc(config), 1..=max_docs),
        core,
        user,
        agent,
        (network, script_navigation, cleanup, any::<bool>()),
    )
        .prop_map(
            |(
                (fifo, variants),
                docs,
                core,
                user,
                agent,
                (network_unbounded, script_navigation, cleanup, tab_opened),
            )| Plan {
                fifo,
                variants,
                network_unbounded,
                cleanup_every_traversable: cleanup,
                tab_opened,
                script_navigation,
                docs,
                core,
                user,
                agent,
            },
        )
}

#[cfg(test)]
mod tests;
