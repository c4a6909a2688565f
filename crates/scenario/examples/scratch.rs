fn main() {
    for text in [
        "{\"version\": 1, \"name\": \"x\", \"tabs\": [{\"id\": \"t\", \"url\": \"https://a/\", \"script\": [{\"registerTool\": {\"tool\": {\"nmae\": 1}}}]}]}",
        "{\"version\": 1, \"name\": \"x\", \"tabs\": [{\"id\": \"t\", \"url\": \"https://a/\", \"script\": [{\"registerTol\": {}}]}]}",
        "{\"version\": 1, \"name\": \"x\", \"tabs\": [{\"id\": \"t\", \"url\": \"https://a/\", \"script\": [{\"registerTool\": {\"tool\": {\"name\": \"a\", \"description\": \"d\", \"execute\": {\"result\": \"nevr\"}}}}]}]}",
        "{\"version\": 1, \"name\": \"x\", \"tabs\": [{\"id\": \"t\", \"url\": \"https://a/\", \"script\": [{\"registerTool\": {\"tool\": {\"name\": \"a\"}}}]}]}",
        "{\"version\": 1, \"name\": 5, \"tabs\": []}",
        "\u{feff}{\"version\": 1, \"name\": \"x\", \"tabs\": []}",
        "{\"version\": 1, name: \"x\", \"tabs\": []}",
        "{\"version\": 1 \"name\": \"x\", \"tabs\": []}",
        "{\"version\": 1, \"name\": 'x', \"tabs\": []}",
        "{\"version\": undefined}",
        "{\"version\": 01}",
        "{\"version\": 1e999}",
        "{\"version\": [}",
        "{\"version\": 1,,}",
        "{\"version\": 1, \"name\": \"\\x41\"}",
        "{} {}",
        "",
        "  // only a comment",
        "[1, 2, 3]",
        "{\"version\": 1, \"name\": \"x\", \"tabs\": [], \"user\": [{\"log\": \"a\", \"throw\": {}}]}",
        "{\"version\": 1, \"name\": \"x\", \"tabs\": [], \"user\": [\"log\"]}",
        "{\"version\": 1, \"name\": \"x\", \"tabs\": [], \"user\": [{}]}",
    ] {
        match scenario::parse_str("x.jsonc", text) {
            Ok(_) => println!("OK"),
            Err(ds) => for d in ds { println!("{}\n", d.render(text)); },
        }
    }
    println!("{}", serde_json::to_string_pretty(&scenario::json_schema()).unwrap());
}
