//! The one scenario loader: a path read, validated and compiled (with the command line's option
//! changes applied), and the scenario files a path names (a file, or every `.jsonc` file under a
//! folder).

use std::path::{Path, PathBuf};

use trace::escape::terminal;
use webmcp::Program;

use crate::options::{self, Change};
use crate::CliError;

/// A compiled scenario, with the options the command line changed.
pub struct Loaded {
    pub program: Program,
    /// The scenario as read, with the changed options (its description, for the renderers).
    pub scenario: scenario::Scenario,
    /// The flags that reproduce the change on a `webmcp-sim` command line (see
    /// [`options::flags`]), for the replay commands the output prints.
    pub flags: String,
    /// The file's text as read, for the Markdown that shows the scenario beside its outcomes.
    pub source: String,
}

/// Reads, validates and compiles the scenario at `path` with `changes` applied to its options.
/// Every way it can fail is a [`CliError`] with exit code 2 that names the file.
pub fn load(path: &Path, changes: &[Change]) -> Result<Loaded, CliError> {
    let (mut scenario, source) = read_scenario_with_source(path)?;
    let file_options = scenario.options.clone();
    let in_file = |e: String| CliError::input(terminal(&format!("{}: {e}", path.display())));
    scenario.options = options::apply(&file_options, changes).map_err(in_file)?;
    let flags = options::flags(&file_options, &scenario.options);
    let program = webmcp::compile(&scenario).map_err(|e| in_file(e.to_string()))?;
    Ok(Loaded { program, scenario, flags, source })
}

/// [`load`] with the file's own options: the program alone.
pub fn load_program(path: &Path) -> Result<Program, CliError> {
    load(path, &[]).map(|loaded| loaded.program)
}

/// Reads a scenario file once (at most [`scenario::MAX_INPUT_BYTES`] + 1 bytes, whatever the
/// file is: a FIFO, `/dev/zero` or a sparse file cost no more) and validates it. Diagnostics are
/// rendered against the text that was read and escaped for the terminal.
pub fn read_scenario(path: &Path) -> Result<scenario::Scenario, CliError> {
    read_scenario_with_source(path).map(|(scenario, _)| scenario)
}

/// [`read_scenario`], and the text it read.
fn read_scenario_with_source(path: &Path) -> Result<(scenario::Scenario, String), CliError> {
    let render = |diags: &[scenario::Diagnostic], text: &str| {
        // A hostile file can hold tens of thousands of problems: show the first ones.
        const SHOWN: usize = 50;
        let mut rendered: Vec<String> = diags
            .iter()
            .take(SHOWN)
            .map(|d| {
                // Tabs stay: the caret line copies them to line up with the snippet.
                let lines = d.render(text);
                lines
                    .lines()
                    .map(|line| line.split('\t').map(terminal).collect::<Vec<_>>().join("\t"))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .collect();
        if diags.len() > SHOWN {
            rendered.push(format!(
                "… and {} more problems in {}",
                diags.len() - SHOWN,
                terminal(&path.display().to_string())
            ));
        }
        CliError::diagnostics(rendered)
    };
    if crate::wpt::is_test_file(path) {
        // A WPT page (`.html`, `.window.js`, `.any.js`): its scripts make the scenario.
        let page = crate::wpt::page::load(path, None)?;
        return Ok((page.scenario, page.source));
    }
    let text = scenario::read_source(path).map_err(|failed| render(std::slice::from_ref(&failed.0), &failed.1))?;
    let mut scenario =
        scenario::parse_str(&path.display().to_string(), &text).map_err(|diags| render(&diags, &text))?;
    load_pages(path, &mut scenario)?;
    Ok((scenario, text))
}

/// The JavaScript pages of a scenario: each `jsFile` read (relative to the scenario file) into
/// `js`, and every page compiled without running, so that a syntax error stops the command with
/// `file:line:col` and the engine's message (exit 2). Links the JavaScript engine in.
fn load_pages(path: &Path, scenario: &mut scenario::Scenario) -> Result<(), CliError> {
    load_frames(path, &mut scenario.tabs)?;
    let shown = |p: &Path| terminal(&p.display().to_string());
    let dir = path.parent().unwrap_or(Path::new("."));
    for (url_path, resource) in &mut scenario.resources {
        if let Some(file) = &resource.js_file {
            let page = dir.join(file);
            resource.js = std::fs::read_to_string(&page).map_err(|e| {
                CliError::input(format!("{}: resource {:?}: jsFile {}: {e}", shown(path), url_path, shown(&page)))
            })?;
        }
        if !resource.js.is_empty() {
            js::link();
            let name = resource.js_file.clone().unwrap_or_else(|| url_path.clone());
            if let Err(e) = js::check_syntax(&name, &resource.js) {
                let at = match &resource.js_file {
                    Some(file) => shown(&dir.join(file)),
                    None => format!("{}: the `js` of resource {:?}, at", shown(path), url_path),
                };
                return Err(CliError::input(format!(
                    "{at}:{}:{}: SyntaxError: {}",
                    e.line,
                    e.column,
                    terminal(&e.message)
                )));
            }
        }
        load_frames(path, &mut resource.frames)?;
    }
    Ok(())
}

fn load_frames(path: &Path, frames: &mut [scenario::Frame]) -> Result<(), CliError> {
    let shown = |p: &Path| terminal(&p.display().to_string());
    let dir = path.parent().unwrap_or(Path::new("."));
    for frame in frames {
        if let Some(file) = &frame.js_file {
            let page = dir.join(file);
            let text = std::fs::read_to_string(&page).map_err(|e| {
                CliError::input(format!("{}: navigable {:?}: jsFile {}: {e}", shown(path), frame.id, shown(&page)))
            })?;
            frame.js = Some(text);
        }
        if let Some(text) = &frame.js {
            js::link();
            let name = frame.js_file.clone().unwrap_or_else(|| format!("{}.inline.js", frame.id));
            if let Err(e) = js::check_syntax(&name, text) {
                let at = match &frame.js_file {
                    Some(file) => shown(&dir.join(file)),
                    None => format!("{}: the inline `js` of navigable {:?}, at", shown(path), frame.id),
                };
                return Err(CliError::input(format!(
                    "{at}:{}:{}: SyntaxError: {}",
                    e.line,
                    e.column,
                    terminal(&e.message)
                )));
            }
        }
        load_frames(path, &mut frame.frames)?;
    }
    Ok(())
}

/// Every `.jsonc` file under `dir`, sorted. Links to directories are followed, but no directory
/// is walked twice (by its canonical path), so a link loop (`a -> .`) ends the walk there.
pub fn scenario_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut walked = std::collections::BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        if !walked.insert(std::fs::canonicalize(&d)?) {
            continue;
        }
        for entry in std::fs::read_dir(&d)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "jsonc") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The scenarios `path` names: the file itself, or every `.jsonc` file under a folder
/// ([`scenario_files`]); a folder without one is an error ([`no_scenario`]), as is a path that
/// does not exist.
pub fn scenarios_at(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if !std::fs::metadata(path)?.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let files = scenario_files(path)?;
    if files.is_empty() {
        return Err(no_scenario());
    }
    Ok(files)
}

/// The scenarios each path names, in the order given: a folder's as [`scenarios_at`] finds them,
/// any other path as itself (the loader says what is wrong with it). What every exploring command
/// takes.
pub fn scenario_paths(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let found = scenarios_at(path)
                .map_err(|e| CliError::input(format!("{}: {e}", terminal(&path.display().to_string()))))?;
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// The error of a folder command given a folder without scenarios: checking nothing is not a
/// pass.
pub fn no_scenario() -> std::io::Error {
    std::io::Error::other(
        "no scenario (`.jsonc` file) under this directory\n  hint: name a directory that holds scenarios, e.g. `scenarios/`",
    )
}

/// The known findings `--known FILE` names: the shipped list (docs/known-findings.txt) without
/// one, none for `none`. A list that does not read is bad input naming its file and line.
pub fn known_findings(path: Option<&Path>) -> Result<trace::known::Known, CliError> {
    match path {
        None => Ok(trace::known::shipped().clone()),
        Some(p) if p == Path::new("none") => Ok(trace::known::Known::default()),
        Some(p) => {
            let shown = terminal(&p.display().to_string());
            let text = std::fs::read_to_string(p).map_err(|e| CliError::input(format!("--known {shown}: {e}")))?;
            trace::known::Known::parse(&text)
                .map_err(|e| CliError::input(format!("{shown}: {}", terminal(&e))).hint("see docs/known-findings.txt"))
        }
    }
}
