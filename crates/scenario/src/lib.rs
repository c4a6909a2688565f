//! Scenario files: the data model (`model`), parsing `.jsonc` text with `file:line:col`
//! diagnostics, semantic validation, and the published JSON Schema.
//!
//! ```
//! let text = r#"{
//!   "version": 1,
//!   "name": "hello",
//!   "tabs": [{ "id": "tab", "url": "https://a.example/", "script": [{ "log": "hi" }] }],
//! }"#;
//! let scenario = scenario::parse_str("hello.jsonc", text).expect("valid");
//! assert_eq!(scenario.tabs[0].id, "tab");
//! ```

mod de;
pub mod diag;
pub mod model;
mod parse;
pub mod path;
mod schema;
mod source;
pub mod suggest;
pub mod validate;
pub mod variant;

pub use diag::Diagnostic;
pub use model::*;
pub use parse::{load, parse_jsonc, parse_str, read_file, read_source, MAX_DEPTH, MAX_INPUT_BYTES};
pub use schema::json_schema;
pub use validate::{validate, Problem, MAX_ACTIONS};
pub use variant::{UnknownVariant, Variant};

#[cfg(test)]
mod tests;
