//! What `webmcp-sim wpt --chromium` serves to real Chromium, in place of WPT's server: every file
//! a test may load, keyed by URL path (the driver answers every request, at every origin, from
//! this map through the DevTools Fetch domain; tools/chromium-driver/wpt.mjs). The test page at
//! the URL the simulator gives it; a `.window.js` / `.any.js` test as WPT's generated wrapper
//! page; every file of the test's folder and of its `resources/` folder; every script a served
//! page names; the real testharness.js (the pinned npm package `wpt-runner`'s, or the
//! `--wpt-root` checkout's), our `testharnessreport.js` (it logs the results on one console
//! line), and `/common/get-host-info.sub.js` (the checkout's, or the simulator's). Files named
//! `.sub.` get WPT's substitutions ([`substitute`]); `FILE.headers` and `__dir__.headers` give
//! response headers.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::page;
use crate::CliError;

/// Our `/resources/testharnessreport.js` for Chromium runs: the results on one console line.
pub const REPORT: &str = include_str!("chromium-report.js");

/// Where the pinned npm package keeps WPT's testharness.js, under the driver's folder.
pub const PACKAGE_HARNESS: &str = "node_modules/wpt-runner/testharness/testharness.js";

/// The most files, and bytes, one test's server holds.
const MAX_FILES: usize = 256;
const MAX_BYTES: usize = 32 << 20;

/// One response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ServedFile {
    /// The body: UTF-8 text, or base64 when `base64`.
    pub body: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub base64: bool,
    pub headers: BTreeMap<String, String>,
}

/// Everything served for one test.
#[derive(Clone, Debug)]
pub struct Served {
    /// The test page's URL (the simulator's).
    pub url: String,
    pub files: BTreeMap<String, ServedFile>,
    /// What could not be served as WPT's server would, one line each.
    pub notes: Vec<String>,
    /// `<meta name=timeout content=long>`: the harness waits 60 s, not 10.
    pub long: bool,
}

/// The real testharness.js and where it came from: the `--wpt-root` checkout's when given and
/// present, else the pinned npm package's under the driver's folder (`npm ci`; `webmcp-sim
/// export`'s runner serves the same file).
pub fn harness(driver_dir: &Path, wpt_root: Option<&Path>) -> Result<(String, String), CliError> {
    if let Some(root) = wpt_root {
        let file = root.join("resources/testharness.js");
        if let Ok(text) = std::fs::read_to_string(&file) {
            return Ok((text, file.display().to_string()));
        }
    }
    let file = driver_dir.join(PACKAGE_HARNESS);
    if let Ok(text) = std::fs::read_to_string(&file) {
        let version = std::fs::read_to_string(driver_dir.join("node_modules/wpt-runner/package.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| v["version"].as_str().map(String::from))
            .unwrap_or_else(|| "?".into());
        return Ok((text, format!("npm package wpt-runner {version}")));
    }
    Err(CliError::input(format!("{}: not found", file.display())).hint(format!(
        "install the driver's dependencies (the npm package wpt-runner ships WPT's testharness.js): npm ci --prefix {}",
        driver_dir.display()
    )))
}

/// The files one test needs, with `harness` (testharness.js's text) at `/resources/testharness.js`.
pub fn served(path: &Path, wpt_root: Option<&Path>, harness: &str) -> Result<Served, CliError> {
    let page = page::load(path, wpt_root)?;
    let root = page::root_for(path, wpt_root);
    let root = std::fs::canonicalize(&root).unwrap_or(root);
    let test = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let url_path = page.url.split_once("://").and_then(|(_, r)| r.find('/').map(|i| r[i..].to_string()));
    let url_path = url_path.unwrap_or_else(|| "/".into());
    let origin = page.url[..page.url.len() - url_path.len()].to_string();
    let dir_path = url_path.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    let mut s = Server { origin, files: BTreeMap::new(), notes: Vec::new(), bytes: 0 };

    let name = test.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
    let test_file_path = format!("{dir_path}/{name}");
    if name.ends_with(".window.js") || name.ends_with(".any.js") {
        let source = std::fs::read_to_string(&test).map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
        let wrapper = wrapper_page(&name, &test_file_path, &source);
        s.insert_text(&url_path, &wrapper, &test);
    }
    // The test's folder and its resources/ folder, every file (no subfolder).
    if let Some(dir) = test.parent() {
        for (folder, prefix) in
            [(dir.to_path_buf(), dir_path.clone()), (dir.join("resources"), format!("{dir_path}/resources"))]
        {
            let Ok(entries) = std::fs::read_dir(&folder) else { continue };
            let mut names: Vec<String> =
                entries.filter_map(|e| e.ok()).filter_map(|e| e.file_name().into_string().ok()).collect();
            names.sort();
            for n in names {
                let file = folder.join(&n);
                if file.is_file() && !n.ends_with(".headers") {
                    s.insert_file(&format!("{prefix}/{n}"), &file);
                }
            }
        }
    }
    // Every script a served page names (the test's own, its resources' iframes), under the root.
    let mut scripts: Vec<String> = page.script_paths.clone();
    for (p, f) in &s.files {
        if (p.ends_with(".html") || p.ends_with(".htm")) && !f.base64 {
            let dir: Vec<String> = p
                .rsplit_once('/')
                .map_or("", |(d, _)| d)
                .split('/')
                .filter(|x| !x.is_empty())
                .map(String::from)
                .collect();
            scripts.extend(page::script_paths_of_html(&dir, &f.body));
        }
    }
    for script in scripts {
        if s.files.contains_key(&script) {
            continue;
        }
        match script.as_str() {
            "/resources/testharness.js" => {
                s.files.insert(script, text_file(harness, "text/javascript"));
            }
            "/resources/testharnessreport.js" => {
                s.files.insert(script, text_file(REPORT, "text/javascript"));
            }
            "/common/get-host-info.sub.js" if !root.join("common/get-host-info.sub.js").is_file() => {
                s.notes
                    .push("/common/get-host-info.sub.js: no WPT checkout holds it; the simulator's is served".into());
                s.files.insert(script, text_file(page::HOST_INFO, "text/javascript"));
            }
            p => {
                let file = root.join(p.trim_start_matches('/'));
                if file.is_file() {
                    s.insert_file(p, &file);
                } else {
                    s.notes.push(format!(
                        "<script src> {p}: no such file under the WPT root {}: not served",
                        root.display()
                    ));
                }
            }
        }
    }
    if s.bytes > MAX_BYTES {
        return Err(CliError::input(format!("{}: the files it serves are over {MAX_BYTES} bytes", path.display())));
    }
    Ok(Served { url: page.url, files: s.files, notes: s.notes, long: page.long })
}

struct Server {
    /// The test page's origin (`https://web-platform.test:8443`): `.sub.` files' `location`.
    origin: String,
    files: BTreeMap<String, ServedFile>,
    notes: Vec<String>,
    bytes: usize,
}

impl Server {
    fn insert_file(&mut self, url_path: &str, file: &Path) {
        if self.files.contains_key(url_path) {
            return;
        }
        if self.files.len() >= MAX_FILES {
            self.notes.push(format!("{url_path}: over {MAX_FILES} files: not served"));
            return;
        }
        let Ok(bytes) = std::fs::read(file) else {
            self.notes.push(format!("{url_path}: did not read: not served"));
            return;
        };
        self.bytes += bytes.len();
        match String::from_utf8(bytes) {
            Ok(text) => self.insert_text(url_path, &text, file),
            Err(e) => {
                let headers = headers_for(file, url_path, &mut self.notes);
                self.files
                    .insert(url_path.to_string(), ServedFile { body: base64(e.as_bytes()), base64: true, headers });
            }
        }
    }

    fn insert_text(&mut self, url_path: &str, text: &str, file: &Path) {
        let body = if url_path.contains(".sub.") {
            let (body, unknown) = substitute(text, &format!("{}{url_path}", self.origin));
            for u in unknown {
                self.notes.push(format!("{url_path}: substitution {{{{{u}}}}} is not modelled: left as it is"));
            }
            body
        } else {
            text.to_string()
        };
        self.bytes += body.len();
        let headers = headers_for(file, url_path, &mut self.notes);
        self.files.insert(url_path.to_string(), ServedFile { body, base64: false, headers });
    }
}

fn text_file(body: &str, content_type: &str) -> ServedFile {
    ServedFile {
        body: body.to_string(),
        base64: false,
        headers: BTreeMap::from([("Content-Type".to_string(), content_type.to_string())]),
    }
}

/// A file's response headers: its Content-Type from its extension, then `__dir__.headers` of
/// its folder and `FILE.headers` beside it (`Name: value` lines), as WPT's server sends them.
fn headers_for(file: &Path, url_path: &str, notes: &mut Vec<String>) -> BTreeMap<String, String> {
    let mut headers = BTreeMap::from([("Content-Type".to_string(), content_type(url_path).to_string())]);
    let mut sidecar = file.as_os_str().to_owned();
    sidecar.push(".headers");
    let dir_headers = file.parent().map(|d| d.join("__dir__.headers"));
    for h in dir_headers.into_iter().chain(std::iter::once(PathBuf::from(sidecar))) {
        let Ok(text) = std::fs::read_to_string(&h) else { continue };
        for (name, value) in parse_headers(&text) {
            match (name, value) {
                (Some(n), v) => {
                    // One name, one value: a later file's replaces (Content-Type included).
                    headers.retain(|k, _| !k.eq_ignore_ascii_case(&n));
                    headers.insert(n, v);
                }
                (None, line) => notes.push(format!("{}: not a `Name: value` line: {line:?}", h.display())),
            }
        }
    }
    headers
}

/// `Name: value` lines; a line that is not one comes back as `(None, line)`.
pub fn parse_headers(text: &str) -> Vec<(Option<String>, String)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|line| match line.split_once(':') {
            Some((n, v)) if !n.trim().is_empty() => (Some(n.trim().to_string()), v.trim().to_string()),
            _ => (None, line.to_string()),
        })
        .collect()
}

/// The Content-Type WPT's server gives a path, by its extension.
pub fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e).to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "css" => "text/css",
        "txt" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml",
        "xml" => "application/xml",
        "xhtml" => "application/xhtml+xml",
        "png" => "image/png",
        "gif" => "image/gif",
        "jpg" | "jpeg" => "image/jpeg",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

/// WPT's generated page for a `.window.js` / `.any.js` test (wptserve's wrapper handlers): the
/// `// META:` title and timeout, the harness and its report, each `// META: script=`, then the
/// test script (`.any.js`: only the window global, with `self.GLOBAL`).
pub fn wrapper_page(name: &str, script_url: &str, source: &str) -> String {
    let mut head = String::from("<!doctype html>\n<meta charset=utf-8>\n");
    let mut scripts = Vec::new();
    for line in source.lines() {
        let Some(meta) = line.trim().strip_prefix("// META:") else {
            if line.trim().is_empty() || line.trim_start().starts_with("//") {
                continue;
            }
            break;
        };
        let meta = meta.trim();
        if let Some(src) = meta.strip_prefix("script=") {
            scripts.push(src.trim().to_string());
        } else if meta == "timeout=long" {
            head.push_str("<meta name=\"timeout\" content=\"long\">\n");
        } else if let Some(title) = meta.strip_prefix("title=") {
            head.push_str(&format!("<title>{}</title>\n", trace::escape::html(title.trim())));
        }
    }
    if name.ends_with(".any.js") {
        head.push_str(
            "<script>\nself.GLOBAL = { isWindow: function() { return true; }, isWorker: function() { return false; }, isShadowRealm: function() { return false; } };\n</script>\n",
        );
    }
    head.push_str("<script src=\"/resources/testharness.js\"></script>\n<script src=\"/resources/testharnessreport.js\"></script>\n");
    for s in scripts {
        head.push_str(&format!("<script src=\"{}\"></script>\n", trace::escape::html(&s)));
    }
    head.push_str(&format!("<div id=log></div>\n<script src=\"{}\"></script>\n", trace::escape::html(script_url)));
    head
}

/// WPT's server configuration the substitutions read (wptserve's defaults for `wpt serve`).
const HOST: &str = page::HOST;
const ALT_HOST: &str = "not-web-platform.test";

fn ports(scheme: &str) -> &'static [u16] {
    match scheme {
        "http" => &[8000, 8001],
        "https" => &[8443, 8444],
        "ws" => &[8002],
        "wss" => &[8666],
        "h2" => &[9000],
        "webtransport-h3" => &[11000],
        _ => &[],
    }
}

/// WPT's `.sub.` substitution (wptserve's `sub` pipe) of `text`, a file served at `url`:
/// `{{host}}`, `{{domains[www]}}`, `{{hosts[alt][www1]}}`, `{{ports[https][0]}}`,
/// `{{location[host]}}` (and `scheme`, `hostname`, `port`, `path`, `pathname`, `query`,
/// `server`), `{{GET[name]}}`, `{{uuid()}}` (deterministic here: derived from the URL and a
/// count), `{{$name:expr}}` (assign and print) and `{{$name}}`. Anything else is left as it is,
/// and named in the second value.
pub fn substitute(text: &str, url: &str) -> (String, Vec<String>) {
    let mut out = String::with_capacity(text.len());
    let mut unknown = Vec::new();
    let mut vars: BTreeMap<String, String> = BTreeMap::new();
    let mut uuids = 0u32;
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[start..]);
            rest = "";
            break;
        };
        let expr = after[..end].trim();
        let value = if let Some(var) = expr.strip_prefix('$') {
            match var.split_once(':') {
                Some((name, inner)) => {
                    let v = evaluate(inner.trim(), url, &mut uuids);
                    if let Some(v) = &v {
                        vars.insert(name.trim().to_string(), v.clone());
                    }
                    v
                }
                None => vars.get(var.trim()).cloned(),
            }
        } else {
            evaluate(expr, url, &mut uuids)
        };
        match value {
            Some(v) => out.push_str(&v),
            None => {
                unknown.push(expr.to_string());
                out.push_str(&rest[start..start + 2 + end + 2]);
            }
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    (out, unknown)
}

fn evaluate(expr: &str, url: &str, uuids: &mut u32) -> Option<String> {
    let keys = |s: &str| -> Option<(String, Vec<String>)> {
        let open = s.find('[').unwrap_or(s.len());
        let name = s[..open].to_string();
        let mut keys = Vec::new();
        let mut r = &s[open..];
        while let Some(x) = r.strip_prefix('[') {
            let close = x.find(']')?;
            keys.push(x[..close].trim().trim_matches(|c| c == '"' || c == '\'').to_string());
            r = &x[close + 1..];
        }
        r.is_empty().then_some((name, keys))
    };
    let sub = |prefix: &str, host: &str| if prefix.is_empty() { host.to_string() } else { format!("{prefix}.{host}") };
    if expr == "uuid()" {
        *uuids += 1;
        return Some(fake_uuid(url, *uuids));
    }
    let (name, k) = keys(expr)?;
    let (scheme, hostport, path, query) = split_url(url);
    match (name.as_str(), k.as_slice()) {
        ("host", []) => Some(HOST.to_string()),
        ("domains", [d]) => Some(sub(d, HOST)),
        ("hosts", [h, d]) => match h.as_str() {
            "" => Some(sub(d, HOST)),
            "alt" => Some(sub(d, ALT_HOST)),
            _ => None,
        },
        ("ports", [scheme, i]) => ports(scheme).get(i.parse::<usize>().ok()?).map(u16::to_string),
        ("location", [key]) => {
            let (hostname, port) = hostport.rsplit_once(':').map_or((hostport, ""), |(h, p)| (h, p));
            Some(match key.as_str() {
                "scheme" => scheme.to_string(),
                "host" => hostport.to_string(),
                "hostname" => hostname.to_string(),
                "port" => port.to_string(),
                "path" | "pathname" => path.to_string(),
                "query" => {
                    if query.is_empty() {
                        String::new()
                    } else {
                        format!("?{query}")
                    }
                }
                "server" => format!("{scheme}://{hostport}"),
                _ => return None,
            })
        }
        ("GET", [key]) => Some(
            query
                .split('&')
                .filter_map(|kv| kv.split_once('=').or(Some((kv, ""))))
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.to_string())
                .unwrap_or_default(),
        ),
        _ => None,
    }
}

/// (scheme, host:port, path, query) of an absolute URL.
fn split_url(url: &str) -> (&str, &str, &str, &str) {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let (hostport, path_query) = rest.find('/').map_or((rest, "/"), |i| (&rest[..i], &rest[i..]));
    let path_query = path_query.split('#').next().unwrap_or("");
    let (path, query) = path_query.split_once('?').unwrap_or((path_query, ""));
    (scheme, hostport, path, query)
}

/// A UUID-shaped text from the URL and a count (the same every run: served files do not vary).
fn fake_uuid(url: &str, n: u32) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in url.bytes().chain(n.to_le_bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    let l = h.rotate_left(17) ^ 0x9e37_79b9_7f4a_7c15;
    format!("{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}", h >> 32, (h >> 16) & 0xffff, h & 0xfff, l & 0xfff, l >> 16)
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_files_get_wpt_servers_substitutions() {
        let url = "https://web-platform.test:8443/webmcp/x.sub.html?a=1&b=two";
        let (text, unknown) = substitute(
            "{{host}} {{domains[www]}} {{domains[]}} {{hosts[alt][]}} {{hosts[alt][www1]}} {{ports[https][0]}} {{ports[http][1]}} {{location[host]}} {{location[path]}} {{location[query]}} {{GET[b]}} {{GET[c]}}|",
            url,
        );
        assert_eq!(
            text,
            "web-platform.test www.web-platform.test web-platform.test not-web-platform.test www1.not-web-platform.test 8443 8001 web-platform.test:8443 /webmcp/x.sub.html ?a=1&b=two two |"
        );
        assert!(unknown.is_empty());
        let (text, unknown) =
            substitute("{{$id:uuid()}} {{$id}} {{header_or_default(x, y)}} {{ports[https][7]}} {{", url);
        let id = text.split(' ').next().unwrap();
        assert_eq!(id.len(), 36);
        assert!(
            text.starts_with(&format!("{id} {id} {{{{header_or_default(x, y)}}}} {{{{ports[https][7]}}}} {{{{")),
            "{text}"
        );
        assert_eq!(unknown, ["header_or_default(x, y)", "ports[https][7]"]);
        // The same every time: served files do not vary from run to run.
        assert_eq!(substitute("{{uuid()}}", url), substitute("{{uuid()}}", url));
    }

    #[test]
    fn a_window_js_test_is_served_in_wpts_wrapper() {
        let page = wrapper_page(
            "a.window.js",
            "/d/a.window.js",
            "// META: title=T <1>\n// META: script=/common/x.js\n// META: timeout=long\ntest(() => {});\n// META: script=ignored.js\n",
        );
        assert_eq!(
            page,
            "<!doctype html>\n<meta charset=utf-8>\n<title>T &lt;1&gt;</title>\n<meta name=\"timeout\" content=\"long\">\n<script src=\"/resources/testharness.js\"></script>\n<script src=\"/resources/testharnessreport.js\"></script>\n<script src=\"/common/x.js\"></script>\n<div id=log></div>\n<script src=\"/d/a.window.js\"></script>\n"
        );
        assert!(wrapper_page("a.any.js", "/a.any.js", "").contains("self.GLOBAL"));
    }

    #[test]
    fn the_corpus_is_served_as_wpts_server_would() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/wpt");
        let s = served(&dir.join("tools.https.window.js"), None, "HARNESS").unwrap();
        assert_eq!(s.url, "https://web-platform.test:8443/tools.https.window.html");
        let wrapper = &s.files["/tools.https.window.html"].body;
        assert!(wrapper.contains("<script src=\"resources/tools.js\"></script>\n<div id=log></div>\n<script src=\"/tools.https.window.js\">"), "{wrapper}");
        assert_eq!(s.files["/resources/testharness.js"].body, "HARNESS");
        assert_eq!(s.files["/resources/testharnessreport.js"].body, REPORT);
        assert!(s.files.contains_key("/resources/tools.js"));
        assert_eq!(s.files["/resources/tools.js"].headers["Content-Type"], "text/javascript; charset=utf-8");
        let s = served(&dir.join("permissions-policy.https.html"), None, "HARNESS").unwrap();
        assert_eq!(s.files["/permissions-policy.https.html"].headers["Permissions-Policy"], "tools=()");
        assert!(!s.files.contains_key("/permissions-policy.https.html.headers"));
        assert!(!s.long);
        assert!(served(&dir.join("timeout.html"), None, "").unwrap().long);
    }

    #[test]
    fn testharness_js_comes_from_the_wpt_root_when_given_else_the_npm_package() {
        let dir = std::env::temp_dir().join(format!("webmcp-sim-serve-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("root/resources")).unwrap();
        std::fs::create_dir_all(dir.join("driver/node_modules/wpt-runner/testharness")).unwrap();
        std::fs::write(dir.join("root/resources/testharness.js"), "CHECKOUT").unwrap();
        std::fs::write(dir.join("driver/node_modules/wpt-runner/testharness/testharness.js"), "PACKAGE").unwrap();
        std::fs::write(dir.join("driver/node_modules/wpt-runner/package.json"), r#"{"version": "7.0.0"}"#).unwrap();
        let (text, from) = harness(&dir.join("driver"), Some(&dir.join("root"))).unwrap();
        assert_eq!((text.as_str(), from.ends_with("root/resources/testharness.js")), ("CHECKOUT", true));
        let (text, from) = harness(&dir.join("driver"), None).unwrap();
        assert_eq!((text.as_str(), from.as_str()), ("PACKAGE", "npm package wpt-runner 7.0.0"));
        // A root without the harness falls back to the package; without the package, an error
        // with a hint.
        assert_eq!(harness(&dir.join("driver"), Some(&dir)).unwrap().0, "PACKAGE");
        let err = harness(&dir.join("nowhere"), None).unwrap_err();
        assert!(format!("{err:?}").contains("npm ci --prefix"), "{err:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn headers_files_and_base64() {
        assert_eq!(
            parse_headers("Permissions-Policy: tools=()\n\nbad line\n"),
            [(Some("Permissions-Policy".into()), "tools=()".into()), (None, "bad line".into())]
        );
        assert_eq!(base64(b"Man"), "TWFu");
        assert_eq!(base64(b"Ma"), "TWE=");
        assert_eq!(base64(b"M"), "TQ==");
        assert_eq!(content_type("/a/b.HTML"), "text/html; charset=utf-8");
    }
}
