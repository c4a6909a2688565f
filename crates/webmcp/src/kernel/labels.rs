//! The labels of in-parallel blocks, built on the exploration hot path without `format!`.

/// The name the blocks that `lane` starts are counted and labelled under: a block's label
/// without `par:` (`par:el0.net/0` → `el0.net/0`, whose blocks are `par:el0.net/0/0`, …), any
/// other lane's label as it is.
pub(super) fn block_creator(lane: &str) -> &str {
    lane.strip_prefix("par:").unwrap_or(lane)
}

/// The label of the `n`-th in-parallel block (from 0) started by the lane `creator`:
/// `par:<creator>/<n>`.
pub(super) fn block_label(creator: &str, n: u32) -> sched::Lane {
    thread_local! {
        /// Where labels are written before the lane copies them (one allocation per block).
        static LABEL: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    LABEL.with_borrow_mut(|label| {
        label.clear();
        label.push_str("par:");
        label.push_str(creator);
        label.push('/');
        push_decimal(label, n);
        sched::Lane::new(label.as_str())
    })
}

/// Appends `n` in decimal (labels are built on the exploration hot path, without `format!`).
pub(crate) fn push_decimal(out: &mut String, n: u32) {
    out.push_str(itoa::Buffer::new().format(n));
}
