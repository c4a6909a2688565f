//! The simulated browser: origins and sites, permissions policy, values, and the `World`
//! (navigables, documents, agent clusters, event loops, task sources, promises, abort signals,
//! timers). No WebMCP knowledge: the `webmcp` crate supplies the steps that run.

pub mod origin;
pub mod policy;
pub mod shared;
pub mod value;
pub mod world;

pub use origin::{Origin, Site};
pub use shared::{digest128, fingerprint128, Shared};
pub use value::JsValue;
pub use world::*;
