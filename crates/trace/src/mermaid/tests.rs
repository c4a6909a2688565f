//! Tests for the Mermaid sequence diagram. The real Mermaid parser checks these diagrams in the
//! cli crate's `render` tests; these pin the text and the escaping.

use crate::mermaid::{escape, render_mermaid};
use crate::testdata::{hostile, notify, HOSTILE};

#[test]
fn the_spec_example_diagram() {
    let expected = "\
sequenceDiagram
    participant EL0 as el0 (parent, child)
    participant BR as Browser (in parallel)
    Note over EL0: #35;000 t=0 el0.net parent<br/>run the document's script<br/>[HTML run a classic script]
    EL0-)BR: in parallel: par#35;0 #8594; #35;001<br/>[registerTool 21]
    Note over BR: #35;001 t=0 par#35;0<br/>notify documents, then queue the resolve task<br/>[registerTool 21]
    BR->>EL0: queue webmcp task for parent #8594; #35;003<br/>[notify documents of a tool change 3.3]
    BR->>EL0: queue webmcp task for child #8594; #35;004<br/>[notify documents of a tool change 3.3]
    BR->>EL0: queue webmcp task for parent #8594; #35;005<br/>[registerTool 21.2]
    Note over EL0: #35;002 t=0 el0.timer parent<br/>run a setTimeout callback<br/>[HTML timer initialization steps]<br/>chosen among el0.timer, el0.webmcp
    Note right of EL0: console.log(parent): Post-register task
    Note over EL0: #35;003 t=0 el0.webmcp parent<br/>fire toolchange<br/>[notify documents of a tool change 3.3]
    Note right of EL0: console.log(parent): Parent toolchange
    Note over EL0: #35;004 t=0 el0.webmcp child<br/>fire toolchange<br/>[notify documents of a tool change 3.3]
    Note right of EL0: console.log(parent): Child toolchange
    Note over EL0: #35;005 t=0 el0.webmcp parent<br/>resolve p<br/>[registerTool 21.2]
    Note right of EL0: promise p fulfilled(undefined)
    Note right of EL0: console.log(parent): Register promise resolved
    Note over EL0,BR: end state: quiescent<br/>no promise pending
";
    assert_eq!(render_mermaid(&notify()), expected);
}

#[test]
fn escape_keeps_plain_text_and_codes_the_rest() {
    assert_eq!(escape("fire toolchange (parent) [x]: a-b+c"), "fire toolchange (parent) [x]: a-b+c");
    assert_eq!(escape("a;b#c"), "a#59;b#35;c");
    assert_eq!(escape("%%{init}%%"), "#37;#37;#123;init#125;#37;#37;");
    assert_eq!(escape("<b>\"&`"), "#60;b#62;#34;#38;#96;");
    assert_eq!(escape("x-->y"), "x--#62;y");
    assert_eq!(escape("line\nbreak\r\ttab"), "line break  tab");
    assert_eq!(escape("é✓"), "#233;#10003;");
}

/// Every statement of a diagram of hostile strings is one of the forms the renderer writes, and
/// holds nothing Mermaid could read as a statement end, comment, directive or markup.
#[test]
fn hostile_strings_cannot_break_out_of_a_statement() {
    let diagram = render_mermaid(&hostile());
    let mut lines = diagram.lines();
    assert_eq!(lines.next(), Some("sequenceDiagram"));
    for line in lines {
        let body = line.strip_prefix("    ").unwrap_or_else(|| panic!("not indented: {line:?}"));
        let known = ["participant ", "Note over ", "Note right of ", "EL0->>", "EL0-)", "BR->>", "AG->>", "U->>"];
        assert!(known.iter().any(|k| body.starts_with(k)), "unexpected statement: {line:?}");
        // Outside `<br/>`, arrows and entity codes `#<digits>;`: nothing but the escaper's plain set.
        let plain = strip_entities(&body.replace("<br/>", " ").replace("->>", " ").replace("-)", " "))
            .unwrap_or_else(|| panic!("bare # in {line:?}"));
        for bad in [";", "#", "%", "<", ">", "\"", "`", "{", "}", "\\", "\n"] {
            assert!(!plain.contains(bad), "{bad:?} in {line:?}");
        }
    }
    for h in HOSTILE {
        assert!(!diagram.contains(h), "a hostile string got through unescaped: {h:?}");
    }
}

#[test]
fn a_trace_without_event_loops_still_has_a_participant() {
    let mut t = notify();
    t.event_loops.clear();
    t.units.clear();
    assert_eq!(render_mermaid(&t), "sequenceDiagram\n    participant EL0 as no event loop\n    Note over EL0: end state: quiescent<br/>no promise pending\n");
}

/// The text with every entity code `#<digits>;` removed; `None` when a `#` starts no code.
fn strip_entities(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('#') {
        out.push_str(&rest[..i]);
        let code = &rest[i + 1..];
        let digits = code.chars().take_while(char::is_ascii_digit).count();
        if digits == 0 || !code[digits..].starts_with(';') {
            return None;
        }
        rest = &code[digits + 1..];
    }
    out.push_str(rest);
    Some(out)
}

#[test]
fn long_text_is_wrapped_onto_lines_not_cut() {
    let line = "the tool's callback logged a line much longer than one line of a note in the diagram, every word kept";
    let wrapped = super::wrap(line);
    let lines: Vec<&str> = wrapped.split("<br/>").collect();
    assert!(lines.len() >= 2, "{wrapped}");
    for l in &lines {
        assert!(strip_entities(l).unwrap().chars().count() <= super::LINE, "{l}");
    }
    let joined: Vec<String> = lines.iter().map(|l| strip_entities(l).unwrap()).collect();
    assert_eq!(joined.join(" "), line);
    // A word longer than a line is split, not lost; escaping stays per line.
    let word = "x".repeat(150);
    assert_eq!(super::wrap(&word).replace("<br/>", ""), word);
    assert_eq!(super::wrap("a;b"), super::escape("a;b"));
}
