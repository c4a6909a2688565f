//! One escaping helper per medium a scenario's strings land in: the terminal, a POSIX shell,
//! Markdown, Mermaid, HTML and JSON. Every renderer takes a scenario string (a name, a URL, a
//! log line, a file path) through the helper of the medium it writes, never raw.
//!
//! The characters no medium shows as themselves are the same everywhere ([`is_hidden`]): control
//! characters, format characters (General Category Cf: the bidirectional formatting characters,
//! which reorder the text around them, e.g. U+202E RIGHT-TO-LEFT OVERRIDE, and the invisible ones,
//! U+200B ZERO WIDTH SPACE, U+FEFF, the U+E0001 tags) and the Unicode line and paragraph separators. The terminal,
//! Mermaid and HTML helpers show them as visible `\u{202e}` text; Markdown and HTML turn line
//! breaks into spaces as before.

use std::fmt::Write as _;

#[cfg(test)]
mod tests;

/// Whether `c` must not reach any output as itself: a control character (C0, DEL, C1), a
/// format character (General Category Cf: bidirectional formatting characters, zero-width
/// characters, U+FEFF, soft hyphen, the tag characters U+E0001 and U+E0020..U+E007F, which can
/// spell hidden text), or a line or paragraph separator.
pub fn is_hidden(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    c.is_control()
        || is_bidi_control(c)
        || matches!(c, '\u{2028}' | '\u{2029}')
        || unicode_general_category::get_general_category(c) == unicode_general_category::GeneralCategory::Format
}

/// Unicode's bidirectional formatting characters (UAX #9, table 4: explicit formatting; and the
/// marks): they reorder or redirect the text around them.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `\u{202e}`: how a hidden character is shown.
fn visible(out: &mut String, c: char) {
    let _ = write!(out, "\\u{{{:04x}}}", u32::from(c));
}

/// For the terminal (text output): each hidden character ([`is_hidden`]) becomes visible text
/// (`\n`, `\r`, `\t`, or `\u{001b}`), so a string stays on its line and cannot move the cursor,
/// retitle the window or reorder what follows it. Other characters are kept.
pub fn terminal(text: &str) -> String {
    if !text.chars().any(is_hidden) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_hidden(c) => visible(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// For a POSIX shell: one word that the shell reads back as `word`, whatever it holds.
///
/// A word of only characters no shell treats specially stays bare; otherwise it is single-quoted
/// (a `'` inside becomes `'\''`), so `$(…)`, backticks, `$VAR`, globs, spaces and quotes are
/// literal. A hidden character ([`is_hidden`]) other than a line feed is written as
/// `"$(printf '\ooo')"` (its UTF-8 bytes in octal), so pasting the command never sends a raw
/// escape sequence or bidirectional override to the terminal; POSIX `sh` has no `$'…'` quoting.
/// A line feed stays inside the quotes (a command substitution would drop it).
pub fn shell(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./-+,:@%=".contains(c);
    if word.is_empty() {
        return "''".to_string();
    }
    if word.chars().all(plain) {
        return word.to_string();
    }
    let mut out = String::with_capacity(word.len() + 2);
    let mut quoted = false;
    for c in word.chars() {
        if is_hidden(c) && c != '\n' {
            if quoted {
                out.push('\'');
                quoted = false;
            }
            out.push_str("\"$(printf '");
            let mut bytes = [0; 4];
            for b in c.encode_utf8(&mut bytes).bytes() {
                let _ = write!(out, "\\{b:03o}");
            }
            out.push_str("')\"");
            continue;
        }
        if !quoted {
            out.push('\'');
            quoted = true;
        }
        if c == '\'' {
            out.push_str(r"'\''");
        } else {
            out.push(c);
        }
    }
    if quoted {
        out.push('\'');
    }
    out
}

/// The longest untrusted string [`markdown`] keeps, in characters; a longer one is cut and says
/// how much was left out.
pub const MAX_INLINE: usize = 1_000;

/// For Markdown (a line, a heading or a table cell).
///
/// HTML's `<`, `>` and `&` become character references, so no tag, comment or entity gets
/// through; Markdown's emphasis, code, link, table, strike-through and math characters get a
/// backslash; line breaks become spaces, so the text stays inside its paragraph or cell;
/// bidirectional formatting characters and line separators show as `\u{202e}`. Text longer
/// than [`MAX_INLINE`] characters is cut.
pub fn markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4 * MAX_INLINE));
    let total = text.chars().count();
    for c in text.chars().take(MAX_INLINE) {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' | '$' | '!' | '#' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c if is_hidden(c) => {
                let _ = write!(out, "\\\\u{{{:04x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    if total > MAX_INLINE {
        let _ = write!(out, "… ({} more characters)", total - MAX_INLINE);
    }
    out
}

/// For a Mermaid label, message or note.
///
/// Letters, digits, space and punctuation that means nothing to Mermaid's sequence-diagram
/// grammar are kept; every other character becomes a Mermaid entity code (`#35;` for `#`, `#59;`
/// for `;`, `#60;` for `<`, `#36;` for `$`, so no `$$` starts KaTeX math), which Mermaid decodes
/// for display only, after parsing and rendering. Line breaks and other control characters
/// become spaces; bidirectional formatting characters show as `\u{202e}`.
pub fn mermaid(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            'a'..='z'
            | 'A'..='Z'
            | '0'..='9'
            | ' '
            | '_'
            | '.'
            | ','
            | '('
            | ')'
            | '/'
            | '\''
            | '!'
            | '?'
            | '='
            | '*'
            | '@'
            | '['
            | ']'
            | '|'
            | '~'
            | '^'
            | '-'
            | '+'
            | ':' => out.push(c),
            c if c.is_control() => out.push(' '),
            // Shown as text (`\u{202e}`), not as the character: Mermaid decodes its entity
            // codes into the SVG, where an override would reorder the label.
            c if is_hidden(c) => out.push_str(&mermaid(&format!("\\u{{{:04x}}}", u32::from(c)))),
            c => {
                let _ = write!(out, "#{};", u32::from(c));
            }
        }
    }
    out
}

/// For HTML and SVG text and double- or single-quoted attribute values: `&`, `<`, `>` and the
/// quotes become character references, control characters other than tab and line feed become
/// spaces, and bidirectional formatting characters and line separators show as `\u{202e}`.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' => out.push(c),
            c if c.is_control() => out.push(' '),
            // Shown as text: the character itself would reorder what follows it.
            c if is_hidden(c) => {
                let _ = write!(out, "\\u{{{:04x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// For JSON: a string literal, quotes included. Besides what JSON requires (quotes, backslashes,
/// C0 control characters), `<`, `>`, `&`, the other hidden characters ([`is_hidden`]: DEL, C1
/// controls, bidirectional formatting characters, U+2028/U+2029) are written as `\u` escapes, so
/// the literal is safe inside an HTML `<script>` and in a terminal; it parses back to `text`.
pub fn json(text: &str) -> String {
    let plain = serde_json::to_string(text).unwrap_or_default();
    let mut out = String::with_capacity(plain.len());
    for c in plain.chars() {
        if matches!(c, '<' | '>' | '&') || is_hidden(c) {
            push_u_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}

/// For a JSON document serde_json wrote: every hidden character ([`is_hidden`]) other than the
/// line feeds and spaces that lay the document out becomes a `\u` escape. Outside strings JSON
/// has only those, so the characters changed are all inside strings, and the document parses
/// to the same value.
pub fn json_document(serialized: String) -> String {
    if !serialized.chars().any(|c| c != '\n' && is_hidden(c)) {
        return serialized;
    }
    let mut out = String::with_capacity(serialized.len() + 16);
    for c in serialized.chars() {
        if c != '\n' && is_hidden(c) {
            push_u_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}

/// For a scenario's source shown in a code block: a leading byte order mark is dropped (the
/// loader skips it), CR LF becomes LF, and every other hidden character ([`is_hidden`]) but line
/// feed and tab becomes a JSON `\u` escape, which means the same inside a JSON string (where a
/// raw control character is not even allowed) and shows as text in a comment; so the block, saved,
/// loads as the same scenario and never sends a raw escape or override to the reader.
pub fn source(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if !text.chars().any(|c| c != '\n' && c != '\t' && is_hidden(c)) {
        return text.to_string();
    }
    let text = text.replace("\r\n", "\n");
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c != '\n' && c != '\t' && is_hidden(c) {
            push_u_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}

fn push_u_escape(out: &mut String, c: char) {
    let mut units = [0; 2];
    for unit in c.encode_utf16(&mut units) {
        let _ = write!(out, "\\u{unit:04x}");
    }
}
