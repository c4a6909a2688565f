//! A WPT test file as a scenario: an `.html` page parsed with html5ever (the WHATWG parsing
//! algorithm, as Servo runs it) whose `<script>` elements, inline and `src`, in tree order, make
//! the document's script, or a `.window.js` / `.any.js` file in WPT's wrapper (`// META:`
//! lines). URLs resolve against the WPT root (`--wpt-root`, or the nearest folder above the file
//! holding `resources/testharness.js`, or the file's folder): `/resources/testharness.js` is
//! ours (`testharness.js` beside this file), `/resources/testharnessreport.js` is empty,
//! `/resources/testdriver*.js` is a `test_driver` whose every member is "not modelled", and
//! `/common/get-host-info.sub.js` gives WPT's origins. `FILE.headers` beside the page gives its
//! response headers (`Permissions-Policy`).
//!
//! The scripts run as one classic script, each in turn (docs/wpt.md says what that changes): a
//! script that does not parse is replaced by a call that makes the harness status ERROR with the
//! engine's message, so the others still run.

use std::path::{Path, PathBuf};

use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{Handle, NodeData, RcDom};

use crate::CliError;

/// Our harness (issue 29 item 1).
pub const HARNESS: &str = include_str!("testharness.js");

/// `test_driver` (WPT's `/resources/testdriver.js`): every member says it is not modelled.
const TESTDRIVER: &str = r#"globalThis.test_driver = new Proxy({}, { get(t, p) {
  if (typeof p !== "string" || p === "then") return undefined;
  return () => { throw new TypeError(`test_driver.${p} is not modelled by webmcp-sim`); };
} });
"#;

/// The host the page is served from (WPT's `web-platform.test`), HTTPS for `.https.` files.
pub const HOST: &str = "web-platform.test";

/// The most script bytes one page may load (its own scripts and the resources they name).
const MAX_SCRIPT_BYTES: usize = 4 << 20;

/// One script of the page, where it came from and where it starts in the combined script.
#[derive(Clone, Debug)]
pub struct Piece {
    /// The file, as the page names it (`/resources/testharness.js`, `page.html` for inline).
    pub file: String,
    /// The line of the page the inline script starts on (1 for a file).
    pub first_line: u32,
    /// The 1-based line of the combined script where this piece starts.
    pub at: u32,
}

/// A WPT file read as a scenario.
pub struct Page {
    pub scenario: scenario::Scenario,
    /// The page's own text, as read.
    pub source: String,
    pub pieces: Vec<Piece>,
    /// Things the runner could not give the page (a script that did not load, an iframe), each
    /// one line; shown with the file's verdicts.
    pub notes: Vec<String>,
    /// The page's URL in the simulated browser.
    pub url: String,
    /// `<meta name="timeout" content="long">` / `// META: timeout=long`: the harness waits 60 s.
    pub long: bool,
    /// The URL path of every script the page names (`<script src>`, `// META: script=`), resolved
    /// against its folder (`/resources/testharness.js`, `/webmcp/resources/helpers.js`), in order.
    pub script_paths: Vec<String>,
}

/// Whether `path` names a WPT test file this module reads (`.html`, `.htm`, `.window.js`,
/// `.any.js`).
pub fn is_test_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.ends_with(".html") || name.ends_with(".htm") || name.ends_with(".window.js") || name.ends_with(".any.js")
}

/// The WPT root a file's absolute URLs resolve against: `given`, else the nearest folder above
/// `file` that holds `resources/testharness.js` (a WPT checkout), else the file's folder.
pub fn root_for(file: &Path, given: Option<&Path>) -> PathBuf {
    if let Some(root) = given {
        return root.to_path_buf();
    }
    let file = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    let mut dir = file.parent();
    while let Some(d) = dir {
        if d.join("resources/testharness.js").is_file() {
            return d.to_path_buf();
        }
        dir = d.parent();
    }
    file.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."))
}

/// Reads the WPT file at `path` (with the root [`root_for`] picks from `root`) as a scenario.
pub fn load(path: &Path, root: Option<&Path>) -> Result<Page, CliError> {
    let shown = trace::escape::terminal(&path.display().to_string());
    js::link();
    let source = std::fs::read_to_string(path).map_err(|e| CliError::input(format!("{shown}: {e}")))?;
    let root = root_for(path, root);
    let canonical_root = std::fs::canonicalize(&root).unwrap_or(root.clone());
    let canonical = std::fs::canonicalize(path).unwrap_or(path.to_path_buf());
    let rel = canonical
        .strip_prefix(&canonical_root)
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| PathBuf::from(path.file_name().unwrap_or_default()));
    let rel: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    let name = rel.last().cloned().unwrap_or_default();
    let secure = name.contains(".https.");
    let scheme_host = if secure { format!("https://{HOST}:8443") } else { format!("http://{HOST}:8000") };
    let page_path = if name.ends_with(".window.js") || name.ends_with(".any.js") {
        // WPT serves `x.window.js` as `x.window.html`, `x.any.js` as `x.any.html`.
        let mut parts = rel.clone();
        if let Some(last) = parts.last_mut() {
            *last = format!("{}.html", last.trim_end_matches(".js"));
        }
        parts.join("/")
    } else {
        rel.join("/")
    };
    let url = format!("{scheme_host}/{page_path}");
    let mut builder = Builder {
        root: canonical_root.clone(),
        page_dir: rel[..rel.len().saturating_sub(1)].to_vec(),
        ..Default::default()
    };
    if name.ends_with(".window.js") || name.ends_with(".any.js") {
        builder.wrapper(&name, &source);
    } else {
        builder.html(&name, &source);
    }
    let mut head = format!(
        "Object.defineProperty(globalThis, \"__webmcpSimWpt\", {{ value: {{ title: {}, timeout: {} }} }});\n",
        serde_json::Value::String(builder.title.clone().unwrap_or_else(|| name.clone())),
        serde_json::Value::String(if builder.long { "long".into() } else { "normal".into() }),
    );
    let mut pieces = Vec::new();
    for (file, first_line, text) in &builder.scripts {
        let at = head.lines().count() as u32 + 1;
        pieces.push(Piece { file: file.clone(), first_line: *first_line, at });
        match js::check_syntax(file, text) {
            Ok(()) => head.push_str(text),
            Err(e) => {
                let line = e.line.saturating_sub(1) + first_line;
                let message = format!("{file}:{line}:{}: SyntaxError: {}", e.column, e.message);
                head.push_str(&format!("__webmcpSimWptScriptError({});", serde_json::Value::String(message)));
            }
        }
        if !head.ends_with('\n') {
            head.push('\n');
        }
        head.push_str(";\n");
    }
    if builder.bytes > MAX_SCRIPT_BYTES {
        return Err(CliError::input(format!("{shown}: its scripts are over {MAX_SCRIPT_BYTES} bytes")));
    }
    let headers = response_headers(path, &mut builder.notes);
    let resources = resources(&canonical_root, &canonical, &rel, &mut builder.notes);
    let scenario_json = serde_json::json!({
        "version": 1,
        "name": page_path,
        "description": format!("WPT file {page_path} (webmcp-sim wpt)"),
        "tabs": [ { "id": "test", "url": url, "js": head, "headers": headers } ],
        "resources": resources,
    });
    let text = serde_json::to_string_pretty(&scenario_json).expect("a JSON value prints");
    let scenario = scenario::parse_str(&path.display().to_string(), &text).map_err(|d| {
        CliError::input(format!("{shown}: {}", d.iter().map(|d| d.render(&text)).collect::<Vec<_>>().join("\n")))
    })?;
    Ok(Page {
        scenario,
        source,
        pieces,
        notes: builder.notes,
        url,
        long: builder.long,
        script_paths: builder.script_paths,
    })
}

/// The script name the page's combined script runs under (its navigable is `test`).
pub const SCRIPT: &str = "test.inline.js";

/// The most resource documents one test file's server holds.
const MAX_RESOURCES: usize = 64;

/// The documents the WPT server holds that a test's iframes may load, as the scenario's
/// `resources` (URL path -> the document's script, served at every origin): every `.html` file
/// in the test's folder and in its `resources/` folder, the test itself left out. Each is read
/// as a test page is (its scripts, inline and `src`, as one script), with the harness loaded
/// for its helpers but reporting nothing; a script that does not parse becomes a SyntaxError
/// reported in the frame. A file that cannot be read is left out with a note.
fn resources(
    root: &Path,
    test: &Path,
    rel: &[String],
    notes: &mut Vec<String>,
) -> serde_json::Map<String, serde_json::Value> {
    let mut out = serde_json::Map::new();
    let dir_segments = &rel[..rel.len().saturating_sub(1)];
    let Some(dir) = test.parent() else { return out };
    let mut files: Vec<(PathBuf, Vec<String>)> = Vec::new();
    for (folder, segments) in [
        (dir.to_path_buf(), dir_segments.to_vec()),
        (dir.join("resources"), {
            let mut s = dir_segments.to_vec();
            s.push("resources".into());
            s
        }),
    ] {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        let mut names: Vec<String> =
            entries.filter_map(|e| e.ok()).filter_map(|e| e.file_name().into_string().ok()).collect();
        names.sort();
        for name in names {
            let file = folder.join(&name);
            if (name.ends_with(".html") || name.ends_with(".htm")) && file.is_file() && file != test {
                let mut path = segments.clone();
                path.push(name);
                files.push((file, path));
            }
        }
    }
    if files.len() > MAX_RESOURCES {
        notes.push(format!("only the first {MAX_RESOURCES} of {} resource documents are served", files.len()));
        files.truncate(MAX_RESOURCES);
    }
    for (file, segments) in files {
        let url_path = format!("/{}", segments.join("/"));
        let Ok(source) = std::fs::read_to_string(&file) else {
            notes.push(format!("resource {url_path} did not read: not served"));
            continue;
        };
        let mut builder = Builder {
            root: root.to_path_buf(),
            page_dir: segments[..segments.len() - 1].to_vec(),
            ..Default::default()
        };
        builder.html(segments.last().map(String::as_str).unwrap_or_default(), &source);
        if builder.bytes > MAX_SCRIPT_BYTES {
            notes.push(format!("resource {url_path}: its scripts are over {MAX_SCRIPT_BYTES} bytes: not served"));
            continue;
        }
        let mut text =
            String::from("Object.defineProperty(globalThis, \"__webmcpSimWpt\", { value: { resource: true } });\n");
        for (name, first_line, script) in &builder.scripts {
            match js::check_syntax(name, script) {
                Ok(()) => text.push_str(script),
                // A script that does not parse does not run; the error is reported in the
                // frame's realm (an uncaught exception there), and the frame's other scripts run.
                Err(e) => {
                    let line = e.line.saturating_sub(1) + first_line;
                    let message = format!("{url_path} ({name}:{line}:{}): {}", e.column, e.message);
                    text.push_str(&format!(
                        "queueMicrotask(() => {{ throw new SyntaxError({}); }});",
                        serde_json::Value::String(message)
                    ));
                }
            }
            text.push_str("\n;\n");
        }
        out.insert(url_path, serde_json::json!({ "js": text }));
    }
    out
}

/// `message` with each `test.inline.js:LINE:COL` of the combined script turned into the file
/// and line it came from (`page.html:12:5`, `/webmcp/resources/helpers.js:3:1`).
pub fn locate(pieces: &[Piece], message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(i) = rest.find(SCRIPT) {
        out.push_str(&rest[..i]);
        let after = &rest[i + SCRIPT.len()..];
        let digits = after.strip_prefix(':').map(|a| a.bytes().take_while(u8::is_ascii_digit).count()).unwrap_or(0);
        let line: Option<u32> = (digits > 0).then(|| after[1..=digits].parse().ok()).flatten();
        match line.and_then(|l| pieces.iter().rev().find(|p| p.at <= l).map(|p| (p, l))) {
            Some((piece, l)) => {
                out.push_str(&format!("{}:{}", piece.file, l - piece.at + piece.first_line));
                rest = &after[1 + digits..];
            }
            None => {
                out.push_str(SCRIPT);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The response headers WPT's server sends with the page: `FILE.headers` beside it (`Name:
/// value` lines). The model reads `Permissions-Policy` and `Origin-Agent-Cluster`; any other
/// header is passed on, and a note says it is not modelled.
fn response_headers(path: &Path, notes: &mut Vec<String>) -> serde_json::Map<String, serde_json::Value> {
    let mut headers = serde_json::Map::new();
    let mut file = path.as_os_str().to_owned();
    file.push(".headers");
    let Ok(text) = std::fs::read_to_string(&file) else { return headers };
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let Some((name, value)) = line.split_once(':') else {
            notes.push(format!("{}: not a `Name: value` line: {line:?}", Path::new(&file).display()));
            continue;
        };
        let name = name.trim();
        if !(name.eq_ignore_ascii_case("Permissions-Policy") || name.eq_ignore_ascii_case("Origin-Agent-Cluster")) {
            notes.push(format!("response header {name} is not modelled by webmcp-sim"));
        }
        headers.insert(name.to_string(), serde_json::Value::String(value.trim().to_string()));
    }
    headers
}

#[derive(Default)]
struct Builder {
    root: PathBuf,
    /// The page's folder under the root, as URL path segments.
    page_dir: Vec<String>,
    /// (file, first line, text) in the order they run.
    scripts: Vec<(String, u32, String)>,
    title: Option<String>,
    long: bool,
    notes: Vec<String>,
    bytes: usize,
    /// Every script path `src` resolved to (served or not).
    script_paths: Vec<String>,
    /// Only collect `script_paths`: read no file ([`script_paths_of_html`]).
    paths_only: bool,
}

impl Builder {
    /// WPT's `.window.js` / `.any.js` wrapper: the harness, the `// META: script=` resources,
    /// then the file (only the window global of `.any.js` runs).
    fn wrapper(&mut self, name: &str, source: &str) {
        self.src("/resources/testharness.js");
        self.src("/resources/testharnessreport.js");
        for line in source.lines() {
            let Some(meta) = line.trim().strip_prefix("// META:") else {
                if line.trim().is_empty() || line.trim_start().starts_with("//") {
                    continue;
                }
                break;
            };
            let meta = meta.trim();
            if let Some(src) = meta.strip_prefix("script=") {
                self.src(src.trim());
            } else if meta == "timeout=long" {
                self.long = true;
            } else if let Some(title) = meta.strip_prefix("title=") {
                self.title = Some(title.trim().to_string());
            } else if meta.starts_with("global=") && !meta.contains("window") {
                self.notes.push(format!("// META: {meta}: only the window global is run"));
            }
        }
        self.bytes += source.len();
        self.scripts.push((name.to_string(), 1, source.to_string()));
    }

    fn html(&mut self, name: &str, source: &str) {
        let dom = html5ever::parse_document(RcDom::default(), Default::default()).one(source);
        // Line numbers of inline scripts: the parser does not keep them, so each inline script's
        // text is found in the source in order.
        let mut search_from = 0;
        self.walk(&dom.document, name, source, &mut search_from);
    }

    fn walk(&mut self, node: &Handle, name: &str, source: &str, search_from: &mut usize) {
        if let NodeData::Element { name: qual, attrs, .. } = &node.data {
            let attr = |a: &str| attrs.borrow().iter().find(|x| &*x.name.local == a).map(|x| x.value.to_string());
            match &*qual.local {
                "script" => {
                    let kind = attr("type").unwrap_or_default().to_ascii_lowercase();
                    let classic = kind.is_empty() || kind == "text/javascript" || kind == "application/javascript";
                    if kind == "module" {
                        self.notes.push("a <script type=module> is not modelled by webmcp-sim: not run".into());
                    } else if classic {
                        if let Some(src) = attr("src") {
                            self.src(&src);
                        } else {
                            let text = text_of(node);
                            let (line, next) = match source[*search_from..].find(text.as_str()) {
                                Some(i) if !text.is_empty() => {
                                    let at = *search_from + i;
                                    (source[..at].matches('\n').count() as u32 + 1, at + text.len())
                                }
                                _ => (1, *search_from),
                            };
                            *search_from = next;
                            self.bytes += text.len();
                            self.scripts.push((name.to_string(), line, text));
                        }
                    }
                    return;
                }
                "title" if self.title.is_none() => self.title = Some(text_of(node).trim().to_string()),
                "meta" if attr("name").as_deref() == Some("timeout") && attr("content").as_deref() == Some("long") => {
                    self.long = true
                }
                "iframe" => {
                    let src = attr("src").unwrap_or_else(|| "about:blank".into());
                    self.notes.push(format!(
                        "<iframe src={src:?}> is not loaded: iframes in WPT pages are not modelled by webmcp-sim yet"
                    ));
                }
                _ => {}
            }
        }
        for child in node.children.borrow().iter() {
            self.walk(child, name, source, search_from);
        }
    }

    /// A `<script src>`: ours for the harness files, else the file under the root.
    fn src(&mut self, src: &str) {
        let path = resolve(&self.page_dir, src);
        if let Some(p) = &path {
            self.script_paths.push(p.clone());
        }
        if self.paths_only {
            return;
        }
        let text = match path.as_deref() {
            Some("/resources/testharness.js") => Some(HARNESS.to_string()),
            Some("/resources/testharnessreport.js") => Some(String::new()),
            Some(
                "/resources/testdriver.js" | "/resources/testdriver-vendor.js" | "/resources/testdriver-actions.js",
            ) => Some(TESTDRIVER.to_string()),
            Some("/common/get-host-info.sub.js") => Some(HOST_INFO.to_string()),
            Some(p) => {
                let file = self.root.join(p.trim_start_matches('/'));
                match std::fs::read_to_string(&file) {
                    Ok(text) => Some(text),
                    Err(e) => {
                        self.notes
                            .push(format!("<script src={src:?}> did not load ({}: {e}): not run", file.display()));
                        None
                    }
                }
            }
            None => {
                self.notes.push(format!(
                    "<script src={src:?}>: a URL of another server is not modelled by webmcp-sim: not run"
                ));
                None
            }
        };
        if let Some(text) = text {
            self.bytes += text.len();
            self.scripts.push((path.unwrap_or_default(), 1, text));
        }
    }
}

/// The URL path of every classic `<script src>` of an HTML page whose folder under the root is
/// `page_dir` (URL path segments), in tree order; no file is read.
pub fn script_paths_of_html(page_dir: &[String], source: &str) -> Vec<String> {
    let mut builder = Builder { page_dir: page_dir.to_vec(), paths_only: true, ..Default::default() };
    builder.html("", source);
    builder.script_paths
}

/// The text of an element's children (a script's source, a title).
fn text_of(node: &Handle) -> String {
    let mut out = String::new();
    for child in node.children.borrow().iter() {
        if let NodeData::Text { contents } = &child.data {
            out.push_str(&contents.borrow());
        }
    }
    out
}

/// `src` resolved against the page's folder, as a path under the root (`/a/b.js`); `None` for
/// a URL of another host (WPT's own hosts map to the root).
pub fn resolve(page_dir: &[String], src: &str) -> Option<String> {
    let src = src.split(['?', '#']).next().unwrap_or("");
    let path = if let Some(rest) = src.strip_prefix("https://").or_else(|| src.strip_prefix("http://")) {
        let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
        let host = host.split(':').next().unwrap_or("");
        if !(host == HOST || host.ends_with(&format!(".{HOST}")) || host.contains("{{")) {
            return None;
        }
        format!("/{path}")
    } else if src.starts_with('/') {
        src.to_string()
    } else {
        format!("/{}/{src}", page_dir.join("/"))
    };
    let mut parts: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    Some(format!("/{}", parts.join("/")))
}

/// WPT's `/common/get-host-info.sub.js`: the origins its server substitutes, as distinct
/// simulated origins of the right sites (docs/wpt.md).
pub const HOST_INFO: &str = r#"function get_host_info() {
  const ORIGINAL_HOST = "web-platform.test", REMOTE_HOST = "www1.web-platform.test", OTHER_HOST = "not-web-platform.test";
  return {
    HTTP_PORT: "8000", HTTP_PORT2: "8001", HTTPS_PORT: "8443", HTTPS_PORT2: "8444",
    ORIGINAL_HOST, REMOTE_HOST, OTHER_HOST,
    ORIGIN: self.origin,
    HTTP_ORIGIN: "http://" + ORIGINAL_HOST + ":8000",
    HTTPS_ORIGIN: "https://" + ORIGINAL_HOST + ":8443",
    HTTPS_ORIGIN_WITH_CREDS: "https://foo:bar@" + ORIGINAL_HOST + ":8443",
    HTTP_ORIGIN_WITH_DIFFERENT_PORT: "http://" + ORIGINAL_HOST + ":8001",
    REMOTE_ORIGIN: "http://" + REMOTE_HOST + ":8000",
    HTTP_REMOTE_ORIGIN: "http://" + REMOTE_HOST + ":8000",
    HTTP_NOTSAMESITE_ORIGIN: "http://" + OTHER_HOST + ":8000",
    HTTPS_REMOTE_ORIGIN: "https://" + REMOTE_HOST + ":8443",
    HTTPS_REMOTE_ORIGIN_WITH_CREDS: "https://foo:bar@" + REMOTE_HOST + ":8443",
    HTTPS_NOTSAMESITE_ORIGIN: "https://" + OTHER_HOST + ":8443",
    HTTPS_OTHER_NOTSAMESITE_ORIGIN: "https://" + OTHER_HOST + ":8443",
    UNAUTHENTICATED_ORIGIN: "http://" + OTHER_HOST + ":8000",
    AUTHENTICATED_ORIGIN: "https://" + ORIGINAL_HOST + ":8443",
  };
}
"#;

#[cfg(test)]
mod tests {
    use super::{locate, resolve, Piece};

    #[test]
    fn a_line_of_the_combined_script_is_located_in_its_file() {
        let pieces = vec![
            Piece { file: "/resources/testharness.js".into(), first_line: 1, at: 2 },
            Piece { file: "page.html".into(), first_line: 7, at: 700 },
        ];
        assert_eq!(locate(&pieces, "Error: boom (test.inline.js:702:30)"), "Error: boom (page.html:9:30)");
        assert_eq!(
            locate(&pieces, "at test.inline.js:5:1 and test.inline.js"),
            "at /resources/testharness.js:4:1 and test.inline.js"
        );
    }

    #[test]
    fn script_urls_resolve_against_the_page_folder_and_the_root() {
        let dir = vec!["webmcp".to_string(), "imperative".to_string()];
        assert_eq!(resolve(&dir, "/resources/testharness.js").as_deref(), Some("/resources/testharness.js"));
        assert_eq!(resolve(&dir, "resources/helpers.js").as_deref(), Some("/webmcp/imperative/resources/helpers.js"));
        assert_eq!(resolve(&dir, "../resources/helpers.js?x=1").as_deref(), Some("/webmcp/resources/helpers.js"));
        assert_eq!(resolve(&dir, "https://www1.web-platform.test:8443/a.js").as_deref(), Some("/a.js"));
        assert_eq!(resolve(&dir, "https://example.com/a.js"), None);
    }
}
