//! Snapshots of the rendered diagnostics for every file in `fixtures/scenario-errors/`.

/// All diagnostics for `text`, rendered with their source lines, as `file` names them.
fn render(file: &str, text: &str) -> String {
    match scenario::parse_str(file, text) {
        Ok(_) => "no diagnostics: this fixture is a valid scenario".to_owned(),
        Err(diagnostics) => {
            let rendered: Vec<String> = diagnostics.iter().map(|d| d.render(text)).collect();
            rendered.join("\n\n")
        }
    }
}

#[test]
fn every_error_fixture_renders_its_diagnostics() {
    insta::glob!("../../../../fixtures/scenario-errors", "*.jsonc", |path: &std::path::Path| {
        let text = std::fs::read_to_string(path).expect("fixtures are readable UTF-8");
        let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
        let rendered = render(&format!("fixtures/scenario-errors/{name}"), &text);
        assert!(!rendered.starts_with("no diagnostics"), "{name} parses, but it is an error fixture");
        insta::assert_snapshot!(rendered);
    });
}
