//! The workspace's shape, checked over every crate's sources: no source file outside the tests is
//! over 1,000 lines, no circle of files imports one another, and no code names a scenario
//! variant by a string (`has_variant` with a string literal).
//!
//! The import graph is file to file. Each crate's module tree is followed from its roots
//! (`src/lib.rs`, `src/main.rs`) through its `mod` declarations, leaving out test-only code
//! (`#[cfg(test)]` items). In each file, every path that starts at `crate`, `super`, `self` or a
//! child module (in `use` declarations, `pub use` re-exports, code and macro arguments alike) is
//! resolved to the file of the module it names; a name a module imports or re-exports (`use`,
//! `pub use`) is followed to the file that defines it. A path into one of the file's own
//! ancestors is no edge: a module sees its parent's items by nesting, and a parent re-exporting
//! its children is how a split module keeps one API (but a name the parent imports or re-exports
//! is followed, as said, so two siblings that reach each other through their parent still make a
//! circle). Glob imports from an ancestor (`use super::*`) are not followed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// The most lines a source file other than a tests file may have.
const MAX_LINES: usize = 1_000;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the workspace directory")
}

/// Every crate's directory, by name.
fn crates() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(workspace().join("crates"))
        .expect("crates/")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|dir| dir.join("src").is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// The `.rs` files under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a readable directory") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A path relative to the workspace, for messages.
fn shown(path: &Path) -> String {
    path.strip_prefix(workspace()).unwrap_or(path).display().to_string()
}

/// Whether a file holds tests only: a `tests.rs`, or anything under a `tests/` directory.
fn is_tests_file(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "tests.rs") || path.components().any(|c| c.as_os_str() == "tests")
}

#[test]
fn no_source_file_is_over_1000_lines() {
    let mut long = Vec::new();
    for krate in crates() {
        for file in rust_files(&krate.join("src")) {
            let lines = std::fs::read_to_string(&file).expect("a readable file").lines().count();
            if !is_tests_file(file.strip_prefix(&krate).expect("inside the crate")) && lines > MAX_LINES {
                long.push(format!("{} ({lines} lines)", shown(&file)));
            }
        }
    }
    assert!(long.is_empty(), "source files over {MAX_LINES} lines (split them by concern):\n  {}", long.join("\n  "));
}

#[test]
fn no_variant_is_named_by_a_string() {
    // Written in two parts so that this file does not name it.
    let needle = concat!("has_variant", "(\"");
    let mut found = Vec::new();
    for krate in crates() {
        for file in rust_files(&krate) {
            let text = std::fs::read_to_string(&file).expect("a readable file");
            for (i, line) in text.lines().enumerate() {
                if line.contains(needle) {
                    found.push(format!("{}:{}: {}", shown(&file), i + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "variants named by a string (use the Variant enum):\n  {}", found.join("\n  "));
}

#[test]
fn no_circle_of_files_imports_one_another() {
    let mut circles = Vec::new();
    for krate in crates() {
        let tree = ModuleTree::read(&krate);
        for circle in tree.circles() {
            circles.push(circle);
        }
    }
    assert!(circles.is_empty(), "circles of files that import one another:\n{}", circles.join("\n"));
}

/// A module path inside a crate, from the root: `crate::a::b` is `["a", "b"]`.
type ModulePath = Vec<String>;

/// One module of a crate: its file, the names it defines and imports, and the paths its code
/// names (each with the module it is written in, which differs from this one inside an inline
/// `mod`).
#[derive(Default)]
struct Module {
    file: PathBuf,
    defines: BTreeSet<String>,
    /// Its `use` declarations (re-exports, and the imports its children may name through
    /// `super`): the name each gives (None for a glob), the module it is written in and the path
    /// it names.
    uses: Vec<(Option<String>, ModulePath, Vec<String>)>,
    paths: Vec<(ModulePath, Vec<String>)>,
}

/// A crate's modules by path, files included through `mod` declarations from its roots.
struct ModuleTree {
    modules: BTreeMap<ModulePath, Module>,
}

impl ModuleTree {
    fn read(krate: &Path) -> ModuleTree {
        let mut tree = ModuleTree { modules: BTreeMap::new() };
        for root in ["lib.rs", "main.rs"] {
            let file = krate.join("src").join(root);
            if file.exists() {
                // A binary's modules are its own, but share the files' directory with the
                // library's: they are kept apart by a root segment of their own.
                let base = if root == "main.rs" { vec!["<main>".to_string()] } else { Vec::new() };
                tree.read_file(&file, base, krate.join("src"));
            }
        }
        tree
    }

    /// Reads `file`, the module `path`, whose child modules' files are in `dir`.
    fn read_file(&mut self, file: &Path, path: ModulePath, dir: PathBuf) {
        let text = std::fs::read_to_string(file).expect("a readable file");
        let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", shown(file)));
        let mut reader =
            Reader { file: file.to_path_buf(), at: path.clone(), found: BTreeMap::new(), children: Vec::new() };
        reader.module();
        reader.visit_file(&ast);
        let Reader { found, children, .. } = reader;
        self.modules.extend(found);
        for (child, name, given) in children {
            // `#[path = "…"]` names the file relative to this file's directory; a file read that
            // way keeps its own children beside it, as a `mod.rs` does.
            if let Some(given) = given {
                let file = file.parent().expect("a file in a directory").join(given);
                let child_dir = file.parent().expect("a file in a directory").to_path_buf();
                self.read_file(&file, child, child_dir);
                continue;
            }
            // Declared inside inline modules, it is in their directories; its file is `name.rs` or
            // `name/mod.rs`, and its own children are in `name/` either way.
            let inline_dir = child[path.len()..child.len() - 1].iter().fold(dir.clone(), |d, s| d.join(s));
            let flat = inline_dir.join(format!("{name}.rs"));
            let child_dir = inline_dir.join(&name);
            let file = if flat.exists() { flat } else { child_dir.join("mod.rs") };
            self.read_file(&file, child, child_dir);
        }
    }

    /// The file a path written in module `at` leads to, following imports and re-exports; None
    /// for a path out of the crate (or to something the tree does not know).
    fn resolve(&self, at: &ModulePath, segments: &[String], depth: usize) -> Option<PathBuf> {
        let absolute = self.absolute(at, segments)?;
        // The longest prefix that is a module.
        let mut module = absolute.clone();
        while !self.modules.contains_key(&module) {
            module.pop()?;
        }
        let m = &self.modules[&module];
        let Some(name) = absolute.get(module.len()) else { return Some(m.file.clone()) };
        if depth < 8 && !m.defines.contains(name) {
            let rest = &absolute[module.len() + 1..];
            for (given, written_at, target) in &m.uses {
                let hit = match given {
                    Some(given) => given == name,
                    // A glob import leads there only if its module has the name.
                    None => self.absolute(written_at, target).and_then(|t| self.modules.get(&t)).is_some_and(|t| {
                        t.defines.contains(name) || t.uses.iter().any(|(g, _, _)| g.as_ref() == Some(name))
                    }),
                };
                if hit {
                    let mut followed = target.clone();
                    if given.is_none() {
                        followed.push(name.clone());
                    }
                    followed.extend(rest.iter().cloned());
                    return self.resolve(written_at, &followed, depth + 1);
                }
            }
        }
        Some(m.file.clone())
    }

    /// A path written in module `at` made absolute (from the crate root), or None when it does
    /// not start inside the crate.
    fn absolute(&self, at: &ModulePath, segments: &[String]) -> Option<ModulePath> {
        let first = segments.first()?;
        let mut path = match first.as_str() {
            "crate" => at.iter().take_while(|s| s.starts_with('<')).cloned().collect(),
            "self" => at.clone(),
            "super" => at.clone(),
            _ => {
                let mut child = at.clone();
                child.push(first.clone());
                if !self.modules.contains_key(&child) {
                    return None;
                }
                at.clone()
            }
        };
        let mut rest = segments;
        if first == "crate" || first == "self" {
            rest = &segments[1..];
        }
        while rest.first().is_some_and(|s| s == "super") {
            path.pop()?;
            rest = &rest[1..];
        }
        path.extend(rest.iter().cloned());
        Some(path)
    }

    /// The import edges between files: `from → to`, each with the first path that makes it.
    fn edges(&self) -> BTreeMap<PathBuf, BTreeMap<PathBuf, String>> {
        let mut edges: BTreeMap<PathBuf, BTreeMap<PathBuf, String>> = BTreeMap::new();
        for module in self.modules.values() {
            for (at, segments) in &module.paths {
                let Some(to) = self.resolve(at, segments, 0) else { continue };
                // Its own file or one of its ancestors' is no edge (see the file's comment).
                let root = at.iter().take_while(|s| s.starts_with('<')).count();
                let ancestor = (root..=at.len()).any(|n| self.modules.get(&at[..n]).is_some_and(|m| m.file == to));
                if !ancestor {
                    edges.entry(module.file.clone()).or_default().entry(to).or_insert_with(|| segments.join("::"));
                }
            }
        }
        edges
    }

    /// Each circle of files (a strongly connected component of more than one file), as a message
    /// that names its files and the paths that join them.
    fn circles(&self) -> Vec<String> {
        let edges = self.edges();
        let files: Vec<&PathBuf> =
            self.modules.values().map(|m| &m.file).collect::<BTreeSet<_>>().into_iter().collect();
        let mut circles = Vec::new();
        for component in strongly_connected(&files, &edges) {
            if component.len() < 2 {
                continue;
            }
            let names: Vec<String> = component.iter().map(|f| shown(f)).collect();
            let mut text = format!("  {}", names.join(" ↔ "));
            for from in &component {
                for (to, path) in edges.get(*from).into_iter().flatten() {
                    if component.contains(&to) {
                        text.push_str(&format!("\n    {} → {} ({path})", shown(from), shown(to)));
                    }
                }
            }
            circles.push(text);
        }
        circles
    }
}

/// Tarjan's algorithm: the strongly connected components of the graph, each sorted.
fn strongly_connected<'a>(
    nodes: &[&'a PathBuf],
    edges: &'a BTreeMap<PathBuf, BTreeMap<PathBuf, String>>,
) -> Vec<Vec<&'a PathBuf>> {
    struct State<'a> {
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        components: Vec<Vec<&'a PathBuf>>,
    }
    fn visit<'a>(node: &'a PathBuf, edges: &'a BTreeMap<PathBuf, BTreeMap<PathBuf, String>>, s: &mut State<'a>) {
        let n = s.index.len();
        s.index.insert(node, n);
        s.low.insert(node, n);
        s.stack.push(node);
        for next in edges.get(node).into_iter().flat_map(|e| e.keys()) {
            if !s.index.contains_key(next) {
                visit(next, edges, s);
                let low = s.low[node].min(s.low[next]);
                s.low.insert(node, low);
            } else if s.stack.contains(&next) {
                let low = s.low[node].min(s.index[next]);
                s.low.insert(node, low);
            }
        }
        if s.low[node] == s.index[node] {
            let at = s.stack.iter().position(|f| *f == node).expect("on the stack");
            let mut component = s.stack.split_off(at);
            component.sort();
            s.components.push(component);
        }
    }
    let mut s = State { index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), components: Vec::new() };
    for node in nodes {
        if !s.index.contains_key(*node) {
            visit(node, edges, &mut s);
        }
    }
    s.components
}

/// Reads one file's modules: the names they define and import, the paths their code names
/// and the child modules declared in files of their own.
struct Reader {
    file: PathBuf,
    /// The module being read (an inline `mod` adds a segment).
    at: ModulePath,
    found: BTreeMap<ModulePath, Module>,
    /// Modules declared `mod name;`, with their names.
    /// Each child module declared with `mod name;`: its path, its name and its `#[path]`, if any.
    children: Vec<(ModulePath, String, Option<String>)>,
}

impl Reader {
    fn module(&mut self) -> &mut Module {
        let file = self.file.clone();
        self.found.entry(self.at.clone()).or_insert_with(|| Module { file, ..Module::default() })
    }

    fn note_path(&mut self, segments: Vec<String>) {
        let at = self.at.clone();
        self.module().paths.push((at, segments));
    }

    /// Paths in a macro's tokens (`format!("{}", crate::a::f(x))`): each identifier followed by
    /// `::` and more identifiers.
    fn note_tokens(&mut self, tokens: TokenStream) {
        let mut path: Vec<String> = Vec::new();
        // The colons since the last identifier: two join it to the next one.
        let mut colons = 0;
        for token in tokens {
            match token {
                TokenTree::Ident(ident) => {
                    if colons != 2 {
                        self.flush(&mut path);
                    }
                    path.push(ident.to_string());
                    colons = 0;
                }
                TokenTree::Punct(p) if p.as_char() == ':' && !path.is_empty() => colons += 1,
                TokenTree::Group(group) => {
                    self.flush(&mut path);
                    colons = 0;
                    self.note_tokens(group.stream());
                }
                _ => {
                    self.flush(&mut path);
                    colons = 0;
                }
            }
        }
        self.flush(&mut path);
    }

    fn flush(&mut self, path: &mut Vec<String>) {
        if path.len() > 1 {
            self.note_path(std::mem::take(path));
        }
        path.clear();
    }
}

/// Whether an item is compiled for tests only.
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test"))
}

/// The attributes of an item, and the name it defines in its module (None for an `impl` or a
/// `use`).
fn attrs_and_name(item: &syn::Item) -> (&[syn::Attribute], Option<String>) {
    use syn::Item as I;
    match item {
        I::Const(i) => (&i.attrs, Some(i.ident.to_string())),
        I::Enum(i) => (&i.attrs, Some(i.ident.to_string())),
        I::Fn(i) => (&i.attrs, Some(i.sig.ident.to_string())),
        I::Macro(i) => (&i.attrs, i.ident.as_ref().map(|i| i.to_string())),
        I::Mod(i) => (&i.attrs, Some(i.ident.to_string())),
        I::Static(i) => (&i.attrs, Some(i.ident.to_string())),
        I::Struct(i) => (&i.attrs, Some(i.ident.to_string())),
        I::Trait(i) => (&i.attrs, Some(i.ident.to_string())),
        I::Type(i) => (&i.attrs, Some(i.ident.to_string())),
        I::Union(i) => (&i.attrs, Some(i.ident.to_string())),
        I::Impl(i) => (&i.attrs, None),
        I::Use(i) => (&i.attrs, None),
        _ => (&[], None),
    }
}

/// The paths a `use` tree names, each with the name it gives (None for a glob).
fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(Option<String>, Vec<String>)>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) if n.ident == "self" => out.push((prefix.last().cloned(), prefix.clone())),
        syn::UseTree::Name(n) => {
            out.push((Some(n.ident.to_string()), [prefix.clone(), vec![n.ident.to_string()]].concat()))
        }
        syn::UseTree::Rename(r) => {
            out.push((Some(r.rename.to_string()), [prefix.clone(), vec![r.ident.to_string()]].concat()))
        }
        syn::UseTree::Glob(_) => out.push((None, prefix.clone())),
        syn::UseTree::Group(g) => {
            for tree in &g.items {
                use_paths(tree, prefix, out);
            }
        }
    }
}

impl<'ast> Visit<'ast> for Reader {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let (attrs, name) = attrs_and_name(item);
        if is_test_only(attrs) {
            return;
        }
        if let Some(name) = name {
            self.module().defines.insert(name);
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.at.push(item.ident.to_string());
        match &item.content {
            None => {
                let child = self.at.clone();
                self.children.push((child, item.ident.to_string(), path_attribute(&item.attrs)));
            }
            Some((_, items)) => {
                self.module();
                for item in items {
                    self.visit_item(item);
                }
            }
        }
        self.at.pop();
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut paths = Vec::new();
        use_paths(&item.tree, &mut Vec::new(), &mut paths);
        for (given, path) in paths {
            let at = self.at.clone();
            self.module().uses.push((given, at, path.clone()));
            self.note_path(path);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.segments.len() > 1 {
            self.note_path(path.segments.iter().map(|s| s.ident.to_string()).collect());
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.note_tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }
}

/// The value of a `#[path = "…"]` attribute among `attrs`.
fn path_attribute(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|attr| match &attr.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}
