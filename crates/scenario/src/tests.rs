//! Unit tests of the crate root: a valid scenario round-trips.
