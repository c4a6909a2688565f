//! Integration tests of the `scenario` crate: diagnostics for the error fixtures, the published
//! JSON Schema, and the scenario corpus.

mod errors;
mod schema;
