//! Hostile strings through each medium's helper: control characters, bidirectional overrides,
//! Mermaid's `$$` math and `%%{init}%%` directives, `</script>`, backticks, and 10,000-character
//! names.

use super::{html, is_hidden, json, markdown, mermaid, shell, terminal};

/// Strings hostile to some medium.
const HOSTILE: &[&str] = &[
    "\u{1b}]0;retitled\u{7}",
    "\u{1b}[2J\u{1b}[1A\rforged",
    "nul \u{0} del \u{7f} c1 \u{9b}2J",
    "line\nbreak\r\nand\u{2028}separators\u{2029}",
    "bidi \u{202e}txt.exe\u{202c} \u{2066}isolate\u{2069} \u{200f}mark \u{061c}",
    "format zw\u{200b}sp bom\u{feff} shy\u{ad} tag\u{e0001}\u{e0068}\u{e0069}\u{e007f} wj\u{2060}",
    "costs $$5 or $$6",
    "%%{init: {'theme':'dark'}}%%",
    "</script><script>alert(1)</script>",
    "```\ncode``` `tick`",
    "$(touch PWNED) `touch PWNED` 'quote' \"dq\"",
];

fn long() -> String {
    "n".repeat(5_000) + &"\u{202e}<$".repeat(1_667)
}

fn all() -> Vec<String> {
    HOSTILE.iter().map(|s| s.to_string()).chain(std::iter::once(long())).collect()
}

#[test]
fn terminal_shows_every_hidden_character_as_text_and_keeps_the_rest() {
    for s in all() {
        let t = terminal(&s);
        assert!(!t.chars().any(is_hidden), "{t:?}");
        assert!(!t.contains('\n'));
    }
    assert_eq!(terminal("\u{1b}]0;x\u{7}"), "\\u{001b}]0;x\\u{0007}");
    assert_eq!(terminal("a\nb\tc\rd"), "a\\nb\\tc\\rd");
    assert_eq!(terminal("\u{202e}x"), "\\u{202e}x");
    assert_eq!(terminal("plain text, $$ and </script>"), "plain text, $$ and </script>");
    // Already escaped text does not change again.
    for s in all() {
        assert_eq!(terminal(&terminal(&s)), terminal(&s));
    }
}

#[test]
fn shell_quotes_every_character_a_shell_could_act_on() {
    assert_eq!(shell("scenarios/a-b_c.jsonc"), "scenarios/a-b_c.jsonc");
    assert_eq!(shell(""), "''");
    assert_eq!(shell("a b"), "'a b'");
    assert_eq!(shell("it's"), r"'it'\''s'");
    assert_eq!(shell("$(x)"), "'$(x)'");
    assert_eq!(shell("a\u{1b}b"), r#"'a'"$(printf '\033')"'b'"#);
    assert_eq!(shell("\u{202e}"), r#""$(printf '\342\200\256')""#);
    for s in all() {
        let q = shell(&s);
        assert!(!q.chars().any(|c| c != '\n' && is_hidden(c)), "{q:?}");
    }
    // sh itself reads them back: crates/cli/tests/it/outputs.rs.
}

#[test]
fn markdown_leaves_no_markup_html_math_or_line_break() {
    for s in all() {
        let m = markdown(&s);
        assert!(!m.chars().any(is_hidden), "{m:?}");
        assert!(!m.contains("</script") && !m.contains("<script"), "{m}");
        // Every backtick and dollar is escaped, so no code span, fence or math starts.
        for (i, c) in m.char_indices() {
            if c == '`' || c == '$' {
                assert!(m[..i].ends_with('\\'), "{m}");
            }
        }
    }
    assert!(markdown(&long()).chars().count() <= super::MAX_INLINE + 40);
}

#[test]
fn mermaid_leaves_no_statement_break_directive_math_or_bidi_override() {
    for s in all() {
        let m = mermaid(&s);
        assert!(!m.chars().any(is_hidden), "{m:?}");
        // Outside its entity codes (`#36;`), no character Mermaid's grammar or renderer acts on.
        let mut bare = String::new();
        let mut rest = m.as_str();
        while let Some(at) = rest.find('#') {
            bare.push_str(&rest[..at]);
            let end = rest[at..].find(';').expect("an entity ends with ;");
            assert!(rest[at + 1..at + end].chars().all(|c| c.is_ascii_digit()), "{m}");
            rest = &rest[at + end + 1..];
        }
        bare.push_str(rest);
        for bad in ['%', '$', ';', '<', '>', '`', '{', '}', '"', '#', '\\'] {
            assert!(!bare.contains(bad), "{bad:?} in {m}");
        }
    }
    assert_eq!(mermaid("costs $$5"), "costs #36;#36;5");
    assert_eq!(mermaid("\u{202e}x"), "#92;u#123;202e#125;x");
}

#[test]
fn html_leaves_no_tag_and_no_bidi_override() {
    for s in all() {
        let h = html(&s);
        assert!(!h.chars().any(|c| is_hidden(c) && c != '\n' && c != '\t'), "{h:?}");
        assert!(!h.contains('<') && !h.contains('>') && !h.contains('"') && !h.contains('\''), "{h}");
    }
    assert_eq!(html("\u{202e}x"), "\\u{202e}x");
}

#[test]
fn json_round_trips_and_is_safe_inside_a_script_element() {
    for s in all() {
        let j = json(&s);
        assert_eq!(serde_json::from_str::<String>(&j).unwrap(), s);
        assert!(!j.contains("</script") && !j.contains('<') && !j.chars().any(is_hidden), "{j}");
    }
}

#[test]
fn a_json_document_keeps_its_value_and_loses_its_hidden_characters() {
    for s in all() {
        let doc = serde_json::to_string_pretty(&serde_json::json!({ "name": s, "list": [s] })).unwrap();
        let escaped = super::json_document(doc.clone());
        assert!(!escaped.chars().any(|c| c != '\n' && is_hidden(c)), "{escaped}");
        let a: serde_json::Value = serde_json::from_str(&doc).unwrap();
        let b: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(a, b);
    }
}

#[test]
fn format_characters_are_hidden_and_visible_characters_are_not() {
    for c in
        ['\u{200b}', '\u{200d}', '\u{feff}', '\u{ad}', '\u{2060}', '\u{e0001}', '\u{e0041}', '\u{e007f}', '\u{202e}']
    {
        assert!(is_hidden(c), "{c:?} is a format character");
        assert_eq!(terminal(&c.to_string()), format!("\\u{{{:04x}}}", u32::from(c)));
    }
    for c in ['a', ' ', 'é', '中', '😀', '\u{301}', '<'] {
        assert!(!is_hidden(c), "{c:?} is shown as itself");
    }
}
