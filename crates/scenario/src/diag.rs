//! `Diagnostic`: one problem in a scenario file, placed at `file:line:col`, with a rendering that
//! shows the offending line; and `quoted`, how messages quote a name.

use std::fmt;

/// Longest stretch of a source line that [`Diagnostic::render`] shows, in characters.
const SNIPPET_WIDTH: usize = 100;

/// One problem in a scenario file.
///
/// It displays as `file:line:col: path: message`, followed by `\n  hint: …` when there is a
/// hint, for example
/// `unload/basic.jsonc:12:9: tabs[0].script[3].registerTool.document: unknown navigable "chld" (declared: tab, child)`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Diagnostic {
    /// The file name, as given to the parser.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters (Unicode scalar values).
    pub column: usize,
    /// Where the problem is, e.g. `tabs[0].frames[1].script[3].registerTool.tool.name`; empty
    /// when the problem is not inside a value (syntax errors, limits).
    pub path: String,
    /// What is wrong.
    pub message: String,
    /// How to fix it, when we can tell.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// The diagnostic followed by the offending line of `source` (the text that was parsed)
    /// with a caret under the column:
    ///
    /// ```text
    /// basic.jsonc:3:5: tabs[0].idd: unknown field `idd`
    ///   |
    /// 3 |     "idd": "tab",
    ///   |     ^
    ///   hint: expected one of `id`, `url`, …
    /// ```
    ///
    /// The output is plain text, the same on every run. A line that does not exist in
    /// `source` is left out; a long line is cut to a window around the column.
    pub fn render(&self, source: &str) -> String {
        let mut out = self.headline();
        if let Some(line) = self.line.checked_sub(1).and_then(|i| source.split('\n').nth(i)) {
            let line = line.strip_suffix('\r').unwrap_or(line);
            let (shown, caret_at) = snippet(line, self.column.saturating_sub(1));
            let shown: String = shown.chars().map(displayable).collect();
            let number = self.line.to_string();
            let gutter = " ".repeat(number.len());
            // The caret line copies tabs from the source line so the caret lines up.
            let pad: String = shown.chars().take(caret_at).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
            out.push_str(&format!("\n{gutter} |\n{number} | {shown}\n{gutter} | {pad}^"));
        }
        if let Some(hint) = &self.hint {
            out.push_str(&format!("\n  hint: {hint}"));
        }
        out
    }

    /// `file:line:col: path: message`, without the hint.
    fn headline(&self) -> String {
        let Self { file, line, column, path, message, .. } = self;
        if path.is_empty() {
            format!("{file}:{line}:{column}: {message}")
        } else {
            format!("{file}:{line}:{column}: {path}: {message}")
        }
    }
}

/// `name` as a JSON string literal, as a diagnostic's message quotes a name.
pub(crate) fn quoted(name: &str) -> String {
    serde_json::to_string(name).unwrap_or_else(|_| format!("{name:?}"))
}

/// A character of a source line as the snippet shows it, one character for one, so the caret
/// stays under its column: a control character other than tab becomes its Unicode control
/// picture (`␛` for ESC, `␀` for NUL), a bidirectional formatting character or a line separator
/// becomes `�`, so a snippet cannot drive the terminal or reorder the line.
fn displayable(c: char) -> char {
    match c {
        '\t' => c,
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + u32::from(c)).unwrap_or('\u{fffd}'),
        '\u{7f}' => '\u{2421}',
        c if c.is_control() => '\u{fffd}',
        '\u{061c}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}'
        | '\u{2028}'
        | '\u{2029}' => '\u{fffd}',
        c => c,
    }
}

/// The part of `line` to show and where the caret goes in it (both in characters), given the
/// caret's 0-based character index in the whole line.
fn snippet(line: &str, caret: usize) -> (String, usize) {
    let len = line.chars().count();
    if len <= SNIPPET_WIDTH {
        return (line.to_owned(), caret.min(len));
    }
    let start = caret.saturating_sub(SNIPPET_WIDTH / 2).min(len - SNIPPET_WIDTH);
    let end = start + SNIPPET_WIDTH;
    let mut shown = String::new();
    let mut caret_at = caret.min(len) - start;
    if start > 0 {
        shown.push('…');
        caret_at += 1;
    }
    shown.extend(line.chars().skip(start).take(SNIPPET_WIDTH));
    if end < len {
        shown.push('…');
    }
    (shown, caret_at)
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.headline())?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

#[cfg(test)]
mod tests;
