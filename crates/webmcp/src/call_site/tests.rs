//! The algorithms a finding expectation can name cover every algorithm the trace cites.

use crate::cite::{
    AGENT_CALL, CANCEL, CLEANUP, EXECUTE_TOOL, EXPOSED, GET_TOOLS, IMPERATIVE, NOTIFY, OBSERVE, REGISTER_TOOL,
    TOOL_EXECUTE_STEPS, UNREGISTER,
};

#[test]
fn every_webmcp_algorithm_is_nameable_in_a_finding_expectation() {
    for a in [
        REGISTER_TOOL,
        GET_TOOLS,
        EXECUTE_TOOL,
        NOTIFY,
        EXPOSED,
        UNREGISTER,
        TOOL_EXECUTE_STEPS,
        IMPERATIVE,
        CANCEL,
        CLEANUP,
        OBSERVE,
        AGENT_CALL,
    ] {
        assert!(scenario::ALGORITHMS.contains(&a), "{a:?} is missing from scenario::ALGORITHMS");
    }
}
