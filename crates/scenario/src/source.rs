//! The text of a scenario file and its syntax tree: turns byte offsets and JSON paths into
//! `line:col` diagnostics.

use std::cell::Cell;

use jsonc_parser::ast;
use jsonc_parser::common::Ranged;

use crate::diag::Diagnostic;
use crate::path::{JsonPath, Segment};

/// Which part of an object member a diagnostic points at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Anchor {
    /// The member's value (or the element itself, in an array).
    #[default]
    Value,
    /// The member's key, e.g. for a field that should not be there.
    Key,
}

/// A file's name and text, with the byte offset of each line's start.
pub(crate) struct Source<'t> {
    file: &'t str,
    text: &'t str,
    line_starts: Vec<usize>,
    /// The last position asked for, as `(offset, line start, column)`: diagnostics come mostly
    /// in file order, so the next column is counted from there, not from the line's start (a
    /// minified file is one long line).
    last: Cell<(usize, usize, usize)>,
}

impl<'t> Source<'t> {
    pub(crate) fn new(file: &'t str, text: &'t str) -> Self {
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Self { file, text, line_starts, last: Cell::new((0, 0, 0)) }
    }

    /// The text, as the file holds it.
    pub(crate) fn text(&self) -> &'t str {
        self.text
    }

    /// The 1-based line and column (in characters) of the byte `offset`.
    pub(crate) fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&start| start <= offset);
        let start = self.line_starts.get(line.wrapping_sub(1)).copied().unwrap_or(0);
        let (last_offset, last_start, last_column) = self.last.get();
        let (from, counted) =
            if last_start == start && last_offset <= offset { (last_offset, last_column) } else { (start, 0) };
        let column = counted + self.text.get(from..offset).map_or(0, |s| s.chars().count());
        self.last.set((offset, start, column));
        (line.max(1), column + 1)
    }

    /// A diagnostic at the byte `offset`.
    pub(crate) fn at(
        &self,
        offset: usize,
        path: &JsonPath,
        message: impl Into<String>,
        hint: Option<String>,
    ) -> Diagnostic {
        let (line, column) = self.line_col(offset);
        Diagnostic { file: self.file.to_owned(), line, column, path: path.to_string(), message: message.into(), hint }
    }
}

/// The byte offset `path` names in the tree rooted at `root`.
///
/// When the path goes further than the tree (a missing member), this is the start of the
/// deepest value that exists, i.e. the enclosing object. With [`Anchor::Key`] and a path that
/// ends in a member, this is the start of the member's key.
pub(crate) fn locate(root: &ast::Value<'_>, path: &JsonPath, anchor: Anchor) -> usize {
    let walked = walk(root, path);
    match (anchor, walked.key, walked.complete) {
        (Anchor::Key, Some(key), true) => key,
        _ => walked.value.start(),
    }
}

/// The value `path` names in the tree rooted at `root`, if there is one.
pub(crate) fn value_at<'a, 't>(root: &'a ast::Value<'t>, path: &JsonPath) -> Option<&'a ast::Value<'t>> {
    let walked = walk(root, path);
    walked.complete.then_some(walked.value)
}

/// How far a path goes in a tree.
struct Walked<'a, 't> {
    /// The deepest value reached.
    value: &'a ast::Value<'t>,
    /// The start of the key of that value, when it is an object member.
    key: Option<usize>,
    /// Whether the whole path was followed.
    complete: bool,
}

fn walk<'a, 't>(root: &'a ast::Value<'t>, path: &JsonPath) -> Walked<'a, 't> {
    let mut walked = Walked { value: root, key: None, complete: true };
    for segment in path.segments() {
        let next = match (segment, walked.value) {
            (Segment::Key(name), ast::Value::Object(object)) => object
                .properties
                .iter()
                .rev()
                .find(|prop| prop.name.as_str() == name)
                .map(|prop| (Some(prop.name.start()), &prop.value)),
            (Segment::Index(index), ast::Value::Array(array)) => {
                array.elements.get(*index).map(|element| (None, element))
            }
            _ => None,
        };
        let Some((key, value)) = next else {
            walked.complete = false;
            return walked;
        };
        walked.key = key;
        walked.value = value;
    }
    walked
}

#[cfg(test)]
mod tests;
