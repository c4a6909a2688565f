//! Spec options from the command line: `--parallel` and `--variant` override a scenario file's
//! `options`, and `diff --with parallel=fifo,variant=X` changes them; either way the printed
//! replay commands carry the options that differ from the file, so they replay.

use scenario::{Options, ParallelModel, Variant};

/// `--parallel` and `--variant` on `run`, `replay`, `explore`, `check` and `report`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct SpecArgs {
    /// How "in parallel" steps are scheduled, overriding the scenario file's `options.parallel`:
    /// `unordered` (every block its own lane) or `fifo` (one browser-side queue).
    #[arg(long, value_parser = ["unordered", "fifo"])]
    pub parallel: Option<String>,
    /// A variant to run (repeatable; `webmcp-sim variants` lists them). Any `--variant` replaces
    /// the file's `options.variants`; `--variant none` runs today's text with no variant.
    #[arg(long = "variant", value_name = "NAME")]
    pub variants: Vec<String>,
}

impl SpecArgs {
    /// The changes these flags make to a scenario's options.
    pub fn changes(&self) -> Result<Vec<Change>, String> {
        let mut changes = Vec::new();
        if let Some(p) = &self.parallel {
            changes.push(Change::Parallel(parse_parallel(p)?));
        }
        if !self.variants.is_empty() {
            if self.variants.iter().any(|v| v == "none") {
                if self.variants.len() > 1 {
                    return Err("--variant none runs no variant; it cannot be given with other variants".into());
                }
                changes.push(Change::Variants(Vec::new()));
            } else {
                let variants = self.variants.iter().map(|v| known_variant(v)).collect::<Result<_, _>>()?;
                changes.push(Change::Variants(variants));
            }
        }
        Ok(changes)
    }
}

/// One change to a scenario's options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// `parallel=fifo`.
    Parallel(ParallelModel),
    /// `variants=A+B` (`variants=none`: no variant), or `--variant` on the command line.
    Variants(Vec<Variant>),
    /// `variant=X`: add X to the variants.
    AddVariant(Variant),
    /// `no-variant=X`: remove X from the variants.
    RemoveVariant(Variant),
}

fn parse_parallel(text: &str) -> Result<ParallelModel, String> {
    match text {
        "unordered" => Ok(ParallelModel::Unordered),
        "fifo" => Ok(ParallelModel::Fifo),
        _ => Err(format!("parallel={text:?}: write unordered or fifo")),
    }
}

/// Reads `diff`'s OPTIONS: comma-separated `parallel=unordered|fifo`, `variant=NAME` (add),
/// `no-variant=NAME` (remove) and `variants=A+B` or `variants=none` (exactly these).
pub fn parse_changes(text: &str) -> Result<Vec<Change>, String> {
    let mut changes = Vec::new();
    for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let Some((key, value)) = item.split_once('=') else {
            return Err(format!(
                "{item:?}: write KEY=VALUE: parallel=fifo, variant=NAME, no-variant=NAME or variants=A+B"
            ));
        };
        changes.push(match key {
            "parallel" => Change::Parallel(parse_parallel(value)?),
            "variant" => Change::AddVariant(known_variant(value)?),
            "no-variant" => Change::RemoveVariant(known_variant(value)?),
            "variants" if value == "none" => Change::Variants(Vec::new()),
            "variants" => Change::Variants(value.split('+').map(known_variant).collect::<Result<_, _>>()?),
            _ => {
                return Err(format!("{key:?}: unknown option (known: parallel, variant, no-variant, variants)"));
            }
        });
    }
    Ok(changes)
}

/// The variant `name` names; the error lists the known names and the closest one.
fn known_variant(name: &str) -> Result<Variant, String> {
    name.parse().map_err(|e: scenario::UnknownVariant| e.to_string())
}

/// `options` after `changes`, in order.
pub fn apply(options: &Options, changes: &[Change]) -> Result<Options, String> {
    let mut o = options.clone();
    for c in changes {
        match c {
            Change::Parallel(p) => o.parallel = *p,
            Change::Variants(list) => {
                o.variants.clear();
                for v in list {
                    if o.variants.contains(v) {
                        return Err(format!("variant {:?} is given twice", v.name()));
                    }
                    o.variants.push(*v);
                }
            }
            Change::AddVariant(v) => {
                if !o.variants.contains(v) {
                    o.variants.push(*v);
                }
            }
            Change::RemoveVariant(v) => o.variants.retain(|x| x != v),
        }
    }
    Ok(o)
}

/// The command-line flags that turn `file`'s options into `effective` ones (empty when equal),
/// each preceded by a space: ` --parallel fifo --variant a --variant b`.
pub fn flags(file: &Options, effective: &Options) -> String {
    let mut s = String::new();
    if file.parallel != effective.parallel {
        s.push_str(match effective.parallel {
            ParallelModel::Unordered => " --parallel unordered",
            ParallelModel::Fifo => " --parallel fifo",
        });
    }
    if file.variants != effective.variants {
        if effective.variants.is_empty() {
            s.push_str(" --variant none");
        }
        for v in &effective.variants {
            s.push_str(&format!(" --variant {v}"));
        }
    }
    s
}

/// The effective options in the form trace headers use: `parallel=fifo, variant=X`.
pub fn describe(options: &Options) -> String {
    let mut parts = vec![format!(
        "parallel={}",
        match options.parallel {
            ParallelModel::Unordered => "unordered",
            ParallelModel::Fifo => "fifo",
        }
    )];
    parts.extend(options.variants.iter().map(|v| format!("variant={v}")));
    parts.join(", ")
}
