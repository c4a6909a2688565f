//! How the kernel writes values into traces and outcomes: a WindowProxy by its navigable's
//! name, a settlement as `fulfilled(…)` or `rejected(…)`.

use super::{push_decimal, Sim};
use browser::{JsValue, NavId};

impl Sim<'_> {
    /// Renders a value with documents named by their labels.
    pub fn render(&self, value: &JsValue) -> String {
        let mut out = String::new();
        self.render_into(&mut out, value);
        out
    }

    pub(crate) fn render_into(&self, out: &mut String, value: &JsValue) {
        // A WindowProxy is named after its navigable.
        value.render_into(out, &|nav, out| match self.world.get_nav_info(NavId(nav)) {
            Some(n) => out.push_str(&n.name),
            None => {
                out.push('#');
                push_decimal(out, nav);
            }
        })
    }

    /// `fulfilled(<value>)` or `rejected(<error name or value>)`.
    pub fn describe_settlement(&self, result: &Result<JsValue, JsValue>) -> String {
        let mut out = String::new();
        match result {
            Ok(v) => {
                out.push_str("fulfilled(");
                self.render_into(&mut out, v);
            }
            Err(e) => {
                out.push_str("rejected(");
                match e.error_name() {
                    Some(name) => out.push_str(name),
                    None => self.render_into(&mut out, e),
                }
            }
        }
        out.push(')');
        out
    }
}
