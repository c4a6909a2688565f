//! JSON paths such as `tabs[0].frames[1].script[3].registerTool.tool.name`, naming a place in a scenario.

use std::fmt;

/// One step of a [`JsonPath`]: an object member or an array element.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Segment {
    /// The member with this key.
    Key(String),
    /// The element at this index.
    Index(usize),
}

/// Where a value sits in a scenario file, from the root object down.
///
/// It displays the way a reader would write it: keys joined with `.`, indices in brackets, and
/// keys that are not plain words quoted (`headers["Permissions Policy"]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct JsonPath(Vec<Segment>);

impl JsonPath {
    /// The root of the file.
    pub fn root() -> Self {
        Self::default()
    }

    /// The steps from the root, in order.
    pub fn segments(&self) -> &[Segment] {
        &self.0
    }

    /// This path followed by the member `key`.
    pub fn key(&self, key: &str) -> Self {
        let mut path = self.clone();
        path.push_key(key);
        path
    }

    /// This path followed by the element `index`.
    pub fn index(&self, index: usize) -> Self {
        let mut path = self.clone();
        path.push_index(index);
        path
    }

    /// Appends the member `key`.
    pub fn push_key(&mut self, key: &str) {
        self.0.push(Segment::Key(key.to_owned()));
    }

    /// Appends the element `index`.
    pub fn push_index(&mut self, index: usize) {
        self.0.push(Segment::Index(index));
    }

    /// Removes the last step, if any.
    pub fn pop(&mut self) {
        self.0.pop();
    }

    /// The last step, if any.
    pub fn last(&self) -> Option<&Segment> {
        self.0.last()
    }
}

impl From<Vec<Segment>> for JsonPath {
    fn from(segments: Vec<Segment>) -> Self {
        Self(segments)
    }
}

/// Whether `key` can be written bare after a dot.
fn is_plain_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '-'))
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Index(index) => write!(f, "[{index}]")?,
                Segment::Key(key) if is_plain_key(key) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(key)?;
                }
                Segment::Key(key) => {
                    // Writing a `String` as JSON cannot fail; fall back to Debug just in case.
                    let quoted = serde_json::to_string(key).unwrap_or_else(|_| format!("{key:?}"));
                    write!(f, "[{quoted}]")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
