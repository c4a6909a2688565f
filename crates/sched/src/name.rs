//! `Name`: interned text (see the type).

use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::{Mutex, PoisonError};

/// An interned text: one copy of each distinct text for the life of the process. Lane labels
/// are names, and so are the schemes and hosts of the browser's origins and sites.
///
/// Copying a `Name` copies a pointer. The `Arc<str>` it replaces counted its copies with atomic
/// instructions (labels and origins are copied at almost every step while exploring): 10,726
/// locked instructions in one exploration of the three-executions benchmark and 101,661 in one of
/// four-executions, each a pipeline barrier that an instruction count does not show.
///
/// Equality, order and hash are those of the text (equal texts are one copy, so equality compares
/// addresses only); the address never reaches an output.
///
/// Interning keeps every distinct text a process has named, a few bytes each. Names are made when
/// a scenario is compiled, a schedule parsed, or an event loop or in-parallel block first
/// labelled, and both labels and origins are structural (`el0.webmcp`, `par:el0.webmcp/2`,
/// `https://a.example`), so a process that explores many scenarios names the same texts again
/// rather than new ones. (`fuzz-parser --inputs 100000`, whose mutated scenarios name many hosts,
/// peaks at the same resident memory as with `Arc<str>`: 74.6 MB.)
#[derive(Clone, Copy)]
pub struct Name(&'static str);

impl Name {
    /// The interned copy of `text`, made on first use.
    pub fn new(text: &str) -> Name {
        static NAMES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
        let mut names = NAMES.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(&name) = names.get(text) {
            return Name(name);
        }
        let name: &'static str = Box::leak(text.into());
        names.insert(name);
        Name(name)
    }

    pub fn as_str(&self) -> &'static str {
        self.0
    }
}

impl Deref for Name {
    type Target = str;

    fn deref(&self) -> &str {
        self.0
    }
}

impl From<&str> for Name {
    fn from(text: &str) -> Name {
        Name::new(text)
    }
}

impl PartialEq for Name {
    /// The texts' equality, read off the addresses: every name is made by `Name::new`, which
    /// keeps one copy of each text, so two names have equal texts exactly when they are one copy.
    #[inline]
    fn eq(&self, other: &Name) -> bool {
        let same = std::ptr::eq(self.0, other.0);
        debug_assert_eq!(same, self.0 == other.0, "a name made without the interner");
        same
    }
}

impl Eq for Name {}

impl Ord for Name {
    /// The texts' order, equal without reading them when they are one copy.
    fn cmp(&self, other: &Name) -> Ordering {
        if std::ptr::eq(self.0, other.0) {
            Ordering::Equal
        } else {
            self.0.cmp(other.0)
        }
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Hash for Name {
    /// The text's hash (as `str`'s, so fingerprints do not depend on where the text lives).
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}
