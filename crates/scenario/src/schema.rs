//! The JSON Schema of scenario files, generated from the data model (published as
//! `docs/scenario.schema.json`).

use crate::model::Scenario;

/// The JSON Schema (draft 2020-12) that every scenario file satisfies once its comments are
/// removed. It checks shape only; [`crate::validate`] checks references and names.
pub fn json_schema() -> serde_json::Value {
    schemars::schema_for!(Scenario).to_value()
}
