//! Unit tests: syntax checking; the platform objects, each run as a one-tab page
//! (`platform`).

use super::*;

#[test]
fn a_syntax_error_has_its_line_and_column() {
    let error = check_syntax("page.js", "const a = 1;\nconst b = ;\n").unwrap_err();
    assert_eq!((error.line, error.message.contains("unexpected")), (2, true), "{error:?}");
    assert!(error.column > 0, "{error:?}");
}

#[test]
fn a_valid_script_compiles() {
    assert_eq!(check_syntax("page.js", "const a = 1; while (false) {}"), Ok(()));
}

mod history;
mod location;
mod platform;
mod window_open;
