//! What each document can observe of a run: its console lines in order, its uncaught
//! exceptions in order, and its named promises' final states. Both a simulated outcome and a
//! Chromium run are projected onto it, so the two compare without a global order (documents on
//! different event loops cannot observe each other's interleaving). The browser's agent is one
//! more observer: the results its tool calls got, in order (the outcome's `agent=[…]`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One document's observations.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug, Default)]
pub struct DocView {
    pub console: Vec<String>,
    pub uncaught: Vec<String>,
    /// Promise name → `pending`, `fulfilled(value)` or `rejected(name or value)`, canonical.
    pub promises: BTreeMap<String, String>,
}

impl DocView {
    fn is_empty(&self) -> bool {
        self.console.is_empty() && self.uncaught.is_empty() && self.promises.is_empty()
    }
}

/// Every document's observations, by document label (documents that observed nothing are left
/// out), and the agent's call results in the order it got them (`call #1 succeeded: <JSON>`,
/// `call #1 failed`), canonical (`agent_result`).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug, Default)]
pub struct View(pub BTreeMap<String, DocView>, pub Vec<String>);

impl View {
    /// The view of a simulated outcome.
    pub fn of_outcome(o: &trace::Outcome) -> View {
        let mut docs: BTreeMap<String, DocView> = BTreeMap::new();
        for line in &o.console {
            docs.entry(line.document.clone()).or_default().console.push(line.text.clone());
        }
        for line in &o.uncaught {
            docs.entry(line.document.clone()).or_default().uncaught.push(canonical_uncaught(&line.text));
        }
        for p in &o.promises {
            // Unnamed promises (`registerTool#1@app`, `promise#2@tab`) are not observable by name.
            if is_unnamed(&p.promise) {
                continue;
            }
            docs.entry(p.document.clone()).or_default().promises.insert(p.promise.clone(), canonical_state(&p.state));
        }
        View::from(
            docs,
            o.agent.iter().map(|r| canonical_observation(r).unwrap_or_else(|| canonical_agent_result(r))).collect(),
        )
    }

    /// The view of a simulated outcome of a scenario of JavaScript pages: as [`View::of_outcome`],
    /// with every WebMCP promise (a page names none: `registerTool#1@app`, `getTools#2@app`,
    /// `executeTool#1@app`, the N-th call of that method on a document's `modelContext`), and
    /// each uncaught exception or unhandled rejection by its error name
    /// ([`canonical_js_uncaught`]).
    pub fn of_js_outcome(o: &trace::Outcome) -> View {
        let mut docs: BTreeMap<String, DocView> = BTreeMap::new();
        for line in &o.console {
            docs.entry(line.document.clone()).or_default().console.push(line.text.clone());
        }
        for line in &o.uncaught {
            docs.entry(line.document.clone()).or_default().uncaught.push(canonical_js_uncaught(&line.text));
        }
        for p in &o.promises {
            docs.entry(p.document.clone()).or_default().promises.insert(p.promise.clone(), canonical_state(&p.state));
        }
        View::from(
            docs,
            o.agent.iter().map(|r| canonical_observation(r).unwrap_or_else(|| canonical_agent_result(r))).collect(),
        )
    }

    /// The view of one Chromium run, from the driver's records.
    pub fn of_records(records: &[serde_json::Value]) -> View {
        let mut docs: BTreeMap<String, DocView> = BTreeMap::new();
        let mut agent = Vec::new();
        for r in records {
            let field = |k: &str| r.get(k).and_then(|v| v.as_str()).unwrap_or_default().to_string();
            match field("k").as_str() {
                "agent" => {
                    agent.push(agent_result(r));
                    continue;
                }
                // What the agent saw: each document's tools as the domain announced them.
                "observe" => {
                    let tab = field("tab");
                    let mut seen: Vec<(String, Vec<String>)> = Vec::new();
                    if let Some(tools) = r.get("tools").and_then(|v| v.as_object()) {
                        for (navigable, names) in tools {
                            let names = names.as_array().map(|a| a.iter().filter_map(|n| n.as_str()).map(String::from));
                            seen.push((navigable.clone(), names.into_iter().flatten().collect()));
                        }
                    }
                    agent.push(observation_text(&tab, seen));
                    continue;
                }
                _ => {}
            }
            let doc = docs.entry(field("d")).or_default();
            match field("k").as_str() {
                "log" => doc.console.push(field("t")),
                "uncaught" => doc.uncaught.push(canonical_uncaught(&field("t"))),
                // A JavaScript page's (chromium/jspage.js), written as the simulator writes it.
                "uncaught-js" => doc.uncaught.push(canonical_js_uncaught(&field("t"))),
                "promise" => {
                    doc.promises.entry(field("p")).or_insert_with(|| "pending".into());
                }
                "settle" => {
                    doc.promises.insert(field("p"), canonical_state(&field("s")));
                }
                _ => {}
            }
        }
        View::from(docs, agent)
    }

    fn from(mut docs: BTreeMap<String, DocView>, agent: Vec<String>) -> View {
        docs.retain(|_, d| !d.is_empty());
        View(docs, agent)
    }

    /// One line per document: `doc: console=[…] uncaught=[…] promises=[…]`.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (doc, v) in &self.0 {
            let _ = write!(out, "{doc}: console=[{}]", v.console.join(" | "));
            if !v.uncaught.is_empty() {
                let _ = write!(out, " uncaught=[{}]", v.uncaught.join(" | "));
            }
            let promises: Vec<String> = v.promises.iter().map(|(k, s)| format!("{k}:{s}")).collect();
            let _ = writeln!(out, " promises=[{}]", promises.join(", "));
        }
        if !self.1.is_empty() {
            let _ = writeln!(out, "agent: [{}]", self.1.join(" | "));
        }
        if out.is_empty() {
            out.push_str("(nothing observed)\n");
        }
        out
    }

    /// How far apart two views are: the number of documents' fields (console, uncaught, each
    /// promise) that differ.
    pub fn distance(&self, other: &View) -> usize {
        let empty = DocView::default();
        let mut docs: Vec<&String> = self.0.keys().chain(other.0.keys()).collect();
        docs.sort();
        docs.dedup();
        let mut d = usize::from(self.1 != other.1);
        for doc in docs {
            let (a, b) = (self.0.get(doc).unwrap_or(&empty), other.0.get(doc).unwrap_or(&empty));
            d += usize::from(a.console != b.console) + usize::from(a.uncaught != b.uncaught);
            let mut names: Vec<&String> = a.promises.keys().chain(b.promises.keys()).collect();
            names.sort();
            names.dedup();
            d += names.iter().filter(|n| a.promises.get(**n) != b.promises.get(**n)).count();
        }
        d
    }
}

/// One agent call's result from the driver's record (`{"k": "agent", "call", "status",
/// "output", "errorText"}`), in the simulator's notation: `toolResponded` with status
/// `Completed` is `<call> succeeded: <output>`, where `output` is the JSON text of the value
/// the domain gave (Chromium parses the tool's result; the driver writes it back with
/// `JSON.stringify`); any other status (`Error`, `Canceled`), an `invokeTool` the browser
/// refused (`InvokeFailed`) and a tool the agent had not observed (`NotObserved`) are
/// `<call> failed`. A call with no response by the end of the run has no record, as a call
/// whose result never arrives has no entry in the simulator's outcome.
pub fn agent_result(r: &serde_json::Value) -> String {
    let field = |k: &str| r.get(k).and_then(|v| v.as_str()).unwrap_or_default();
    let text = match (field("status"), r.get("output").and_then(|v| v.as_str())) {
        ("Completed", Some(output)) => format!("{} succeeded: {output}", field("call")),
        ("Completed", None) => format!("{} succeeded: undefined", field("call")),
        _ => format!("{} failed", field("call")),
    };
    canonical_agent_result(&text)
}

/// An agent result in canonical form: the JSON text after `succeeded: ` re-written with object
/// members sorted by key and no spaces (text that is not JSON, such as the `chromium` profile's
/// raw string, stays as it is).
pub fn canonical_agent_result(text: &str) -> String {
    fn sorted(v: serde_json::Value) -> serde_json::Value {
        match v {
            serde_json::Value::Object(m) => {
                let mut members: Vec<(String, serde_json::Value)> = m.into_iter().collect();
                members.sort_by(|a, b| a.0.cmp(&b.0));
                serde_json::Value::Object(members.into_iter().map(|(k, v)| (k, sorted(v))).collect())
            }
            serde_json::Value::Array(items) => serde_json::Value::Array(items.into_iter().map(sorted).collect()),
            other => other,
        }
    }
    match text.split_once(" succeeded: ") {
        Some((call, json)) => match serde_json::from_str::<serde_json::Value>(json) {
            Ok(v) => format!("{call} succeeded: {}", sorted(v)),
            Err(_) => text.to_string(),
        },
        None => text.to_string(),
    }
}

/// An agent observation in canonical form: `observation of <tab>: <document>=[<tools>]; …`,
/// documents by name and tools sorted, documents without tools left out (the driver's agent
/// knows a frame's tools only from the domain's `toolsAdded`, and a frame with none sends
/// nothing), `(no tools)` when none has any.
fn observation_text(tab: &str, mut seen: Vec<(String, Vec<String>)>) -> String {
    seen.retain(|(_, tools)| !tools.is_empty());
    for (_, tools) in &mut seen {
        tools.sort();
    }
    seen.sort();
    if seen.is_empty() {
        return format!("observation of {tab}: (no tools)");
    }
    let seen: Vec<String> = seen.iter().map(|(d, tools)| format!("{d}=[{}]", tools.join(", "))).collect();
    format!("observation of {tab}: {}", seen.join("; "))
}

/// The simulator's agent entry `observation of <tab>: <document>=[<tools>]; …` in canonical
/// form (`observation_text`); None for any other entry. An observation of a tab in the bfcache
/// (`nothing (in the bfcache)`) stays as it is: such scenarios cannot run in Chromium.
fn canonical_observation(entry: &str) -> Option<String> {
    let rest = entry.strip_prefix("observation of ")?;
    let (tab, list) = rest.split_once(": ")?;
    if list.starts_with("nothing") {
        return Some(entry.to_string());
    }
    let mut seen = Vec::new();
    for part in list.split("; ") {
        let (doc, tools) = part.split_once("=[")?;
        let tools = tools.strip_suffix(']')?;
        let tools = if tools.is_empty() { Vec::new() } else { tools.split(", ").map(String::from).collect() };
        seen.push((doc.to_string(), tools));
    }
    Some(observation_text(tab, seen))
}

/// An action list's uncaught exception (a rendered value) or unhandled rejection (`Uncaught (in
/// promise) ` and the reason, rendered) in canonical form.
fn canonical_uncaught(text: &str) -> String {
    match text.strip_prefix("Uncaught (in promise) ") {
        Some(reason) => format!("Uncaught (in promise) {}", canonical(reason)),
        None => canonical(text),
    }
}

/// An uncaught exception or unhandled rejection of a JavaScript page in canonical form, from the
/// text the simulator writes (crates/js/src/convert.rs, `describe_exception`: `Name: message
/// (file:line:col)`, `Uncaught value` for a thrown primitive, `Uncaught (in promise) …` for an
/// unhandled rejection), which chromium/jspage.js writes the same way (without the call site):
/// the error's name alone (a browser words its own messages and counts its own columns),
/// `(in promise) Name` for a rejection, and a thrown primitive as it is.
pub fn canonical_js_uncaught(text: &str) -> String {
    let name = |t: &str| t.split(": ").next().unwrap_or(t).to_string();
    if let Some(rest) = text.strip_prefix("Uncaught (in promise) ") {
        return format!("(in promise) {}", name(rest));
    }
    if text.starts_with("Uncaught ") {
        return text.to_string();
    }
    name(text)
}

/// The simulator's label of a promise without `as`: `<word>#<digits>@<document>`.
fn is_unnamed(label: &str) -> bool {
    let Some((word, rest)) = label.split_once('#') else { return false };
    let Some((digits, _)) = rest.split_once('@') else { return false };
    !word.is_empty()
        && word.chars().all(|c| c.is_ascii_alphabetic())
        && !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
}

/// A promise state in canonical form: `fulfilled(v)` with `v` canonical.
fn canonical_state(state: &str) -> String {
    for prefix in ["fulfilled(", "rejected("] {
        if let Some(inner) = state.strip_prefix(prefix).and_then(|s| s.strip_suffix(')')) {
            return format!("{prefix}{})", canonical(inner));
        }
    }
    state.to_string()
}

/// A rendered value (`browser::JsValue::render` notation) in canonical form: object members
/// sorted by key (a WebIDL dictionary converts to an object with its members in lexicographic
/// order; the simulator writes them in the spec's order), exception messages left out (a browser
/// words its own), and a `Window` named by its navigable (`<Window of child>`, not `child@2`).
/// Text that does not parse is kept as it is.
pub fn canonical(text: &str) -> String {
    let mut p = Parser { s: text.as_bytes(), i: 0 };
    match p.value() {
        Some(v) if p.i == p.s.len() => {
            let mut out = String::new();
            v.write(&mut out);
            out
        }
        _ => text.to_string(),
    }
}

enum Val {
    Atom(String),
    Array(Vec<Val>),
    Object(Vec<(String, Val)>),
}

impl Val {
    fn write(&self, out: &mut String) {
        match self {
            Val::Atom(a) => out.push_str(a),
            Val::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Val::Object(members) => {
                let mut sorted: Vec<&(String, Val)> = members.iter().collect();
                sorted.sort_by(|a, b| a.0.cmp(&b.0));
                out.push('{');
                for (i, (k, v)) in sorted.into_iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(k);
                    out.push_str(": ");
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, t: &str) -> bool {
        if self.s[self.i..].starts_with(t.as_bytes()) {
            self.i += t.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Option<Val> {
        match self.peek()? {
            b'"' => self.string().map(Val::Atom),
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                if self.eat("]") {
                    return Some(Val::Array(items));
                }
                loop {
                    items.push(self.value()?);
                    if self.eat("]") {
                        return Some(Val::Array(items));
                    }
                    if !self.eat(", ") {
                        return None;
                    }
                }
            }
            b'{' => {
                self.i += 1;
                let mut members = Vec::new();
                if self.eat("}") {
                    return Some(Val::Object(members));
                }
                loop {
                    let start = self.i;
                    while self.peek()? != b':' {
                        self.i += 1;
                    }
                    let key = String::from_utf8(self.s[start..self.i].to_vec()).ok()?;
                    if !self.eat(": ") {
                        return None;
                    }
                    members.push((key, self.value()?));
                    if self.eat("}") {
                        return Some(Val::Object(members));
                    }
                    if !self.eat(", ") {
                        return None;
                    }
                }
            }
            b'<' => {
                let start = self.i;
                while self.peek()? != b'>' {
                    self.i += 1;
                }
                self.i += 1;
                let text = std::str::from_utf8(&self.s[start..self.i]).ok()?;
                Some(Val::Atom(match text.strip_prefix("<Window of ") {
                    Some(rest) => {
                        let label = rest.trim_end_matches('>');
                        format!("<Window of {}>", label.split('@').next().unwrap_or(label))
                    }
                    None => text.to_string(),
                }))
            }
            _ => {
                // A word: a literal, a number, a BigInt, or an exception `Name(…)`.
                let start = self.i;
                while let Some(c) = self.peek() {
                    if c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.' | b'_') {
                        self.i += 1;
                    } else {
                        break;
                    }
                }
                let word = std::str::from_utf8(&self.s[start..self.i]).ok()?.to_string();
                if word.is_empty() {
                    return None;
                }
                if self.peek() == Some(b'(') {
                    // `DOMException(Name: message)` or `Name("message")`: keep the name.
                    self.i += 1;
                    if word == "DOMException" {
                        let name_start = self.i;
                        while self.peek()?.is_ascii_alphanumeric() {
                            self.i += 1;
                        }
                        let name = std::str::from_utf8(&self.s[name_start..self.i]).ok()?.to_string();
                        let mut depth = 1;
                        while depth > 0 {
                            match self.peek()? {
                                b'(' => depth += 1,
                                b')' => depth -= 1,
                                _ => {}
                            }
                            self.i += 1;
                        }
                        return Some(Val::Atom(format!("DOMException({name})")));
                    }
                    self.string()?;
                    if !self.eat(")") {
                        return None;
                    }
                    return Some(Val::Atom(word));
                }
                Some(Val::Atom(word))
            }
        }
    }

    /// A JSON string literal, returned with its quotes.
    fn string(&mut self) -> Option<String> {
        let start = self.i;
        self.i += 1;
        loop {
            match self.peek()? {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    return String::from_utf8(self.s[start..self.i].to_vec()).ok();
                }
                _ => self.i += 1,
            }
        }
    }
}
