//! What the state keeps of the windows pages open (`crate::window_open`), apart from the steps
//! so that the kernel's state can hold it.

use std::collections::BTreeMap;
use std::rc::Rc;

use browser::NavId;

/// What HTML keeps of a navigable that `window.open` made or chose: its target name, its
/// active browsing context's opener browsing context (as the navigable that holds it), its is
/// closing flag, and its is created by web content flag.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct OpenedWindow {
    pub(crate) target_name: Rc<str>,
    pub(crate) opener: Option<NavId>,
    pub(crate) closing: bool,
    pub(crate) created_by_web_content: bool,
}

/// The navigables `window.open` made or chose, by navigable (any other has no target name, no
/// opener, is not closing and was not created by web content).
pub(crate) type OpenedWindows = BTreeMap<NavId, OpenedWindow>;
