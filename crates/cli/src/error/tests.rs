//! How a `CliError` reads on stderr, and the exit code each kind carries.

use super::CliError;

#[test]
fn an_error_reads_as_error_lines_then_hint_lines() {
    let e = CliError::input("--shard \"0/1\": write K/N").hint("see --help");
    assert_eq!(e.to_string(), "error: --shard \"0/1\": write K/N\n  hint: see --help\n");
    assert_eq!(e.exit_code(), 2);
    assert_eq!(CliError::failed("a.jsonc: the run failed").exit_code(), 1);
    assert_eq!(CliError::with_code(130, "x").exit_code(), 130);
}

#[test]
fn each_diagnostic_is_its_own_error_with_its_snippet_under_it() {
    let e = CliError::diagnostics(vec!["a.jsonc:1:2: bad\n  |\n1 | x".into(), "a.jsonc:3:4: worse".into()]);
    assert_eq!(e.to_string(), "error: a.jsonc:1:2: bad\n  |\n1 | x\nerror: a.jsonc:3:4: worse\n");
    assert_eq!(e.exit_code(), 2);
}
