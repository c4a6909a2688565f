//! The command line's own definition: every option and argument explains itself.

use clap::CommandFactory;

use super::Args;

#[test]
fn every_option_and_positional_argument_has_help_text() {
    fn walk(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
        let path = format!("{path} {}", command.get_name());
        for arg in command.get_arguments() {
            let id = arg.get_id().as_str();
            if id == "help" || id == "version" {
                continue;
            }
            if arg.get_help().is_none() && arg.get_long_help().is_none() {
                missing.push(format!("{path}: {id}"));
            }
            // The formats' values each say what they give (other lists are explained in their
            // option's help, and flags' true/false need no words).
            let values = if id == "format" { arg.get_possible_values() } else { Vec::new() };
            for value in values {
                if value.get_help().is_none() {
                    missing.push(format!("{path}: {id}={}", value.get_name()));
                }
            }
        }
        for sub in command.get_subcommands() {
            walk(sub, &path, missing);
        }
    }
    let mut missing = Vec::new();
    walk(&Args::command(), "", &mut missing);
    assert!(missing.is_empty(), "no help text:\n{}", missing.join("\n"));
    Args::command().debug_assert();
}

#[test]
fn the_version_names_the_crate_version_and_the_spec_revision() {
    let version = Args::command().render_version();
    assert!(version.starts_with(&format!("webmcp-sim {}", env!("CARGO_PKG_VERSION"))), "{version}");
    assert!(version.contains(webmcp::SPEC_REVISION), "{version}");
    assert_ne!(env!("CARGO_PKG_VERSION"), "0.0.0", "set a real version in crates/cli/Cargo.toml");
}

/// Every command's `--help` as the user sees it, one snapshot per command, found by walking the
/// command tree: a new subcommand gets its snapshot without a change here.
#[test]
fn every_commands_help_text_is_as_snapshotted() {
    fn walk(command: &clap::Command, path: &[String], paths: &mut Vec<Vec<String>>) {
        paths.push(path.to_vec());
        for sub in command.get_subcommands() {
            // A subcommand without its own summary shows nothing in the list, or another's.
            assert!(sub.get_about().is_some(), "`{}` has no summary line", sub.get_name());
            walk(sub, &[path, &[sub.get_name().to_string()]].concat(), paths);
        }
    }
    let mut paths = Vec::new();
    walk(&Args::command(), &[], &mut paths);
    assert!(paths.len() > 15, "the walk found {} commands", paths.len());
    for path in paths {
        let argv = std::iter::once("webmcp-sim").chain(path.iter().map(String::as_str)).chain(["--help"]);
        let help = match Args::command().try_get_matches_from(argv) {
            Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => e.render().to_string(),
            other => panic!("{path:?} --help: {other:?}"),
        };
        let name = std::iter::once("help").chain(path.iter().map(String::as_str)).collect::<Vec<_>>().join("-");
        insta::assert_snapshot!(name, help);
    }
}
