//! The user's steps (the browser UI): navigate a navigable, remove an iframe, put a tab's document
//! in the back/forward cache and restore it.

use crate::kernel::{RunError, Sim};
use crate::program::{Op, ScriptId};

impl Sim<'_> {
    /// Runs the `index`-th user step.
    pub fn run_user_step(&mut self, script: ScriptId, index: u32) -> Result<(), RunError> {
        let program = self.program;
        let mut op = &program.ops(script)[index as usize];
        // `at` and `within` only said when the step may run (`browser::UserQueue`).
        if let Op::Timed { step, .. } = op {
            op = step;
        }
        match op {
            Op::Navigate(id) => {
                self.navigate(&program.navigations[id.0 as usize])
            }
            Op::RemoveIframe(name) => {
                let nav = self.seldom.nav_by_name[name];
                self.remove_iframe(nav);
                Ok(())
            }
            Op::EnterBfcache(name) => {
                let nav = self.seldom.nav_by_name[name];
                self.enter_bfcache(nav);
                Ok(())
            }
            Op::RestoreFromBfcache(name) => {
                let nav = self.seldom.nav_by_name[name];
                self.restore_from_bfcache(nav);
                Ok(())
            }
            // Validation rejects these with a position (scenario::validate); a program built
            // without validation still gets an error here, never a silent skip.
            _ => Err(RunError::Scenario(format!(
                "user step {} is a script statement; user steps can navigate, removeIframe, enterBfcache and restoreFromBfcache",
                index + 1
            ))),
        }
    }

    pub fn describe_user_step(&self, script: ScriptId, index: u32) -> String {
        self.describe_user_op(&self.program.ops(script)[index as usize])
    }

    fn describe_user_op(&self, op: &Op) -> String {
        match op {
            Op::Timed { from, to, step } if from == to => {
                format!("{} (at {from} ms)", self.describe_user_op(step))
            }
            Op::Timed { from, to, step } => {
                format!("{} (within {from}..{to} ms)", self.describe_user_op(step))
            }
            Op::Navigate(id) => {
                let spec = &self.program.navigations[id.0 as usize];
                format!("navigate {} to {}", spec.navigable, spec.document.url)
            }
            Op::RemoveIframe(n) => format!("remove iframe {n}"),
            Op::EnterBfcache(n) => format!("{n}'s document enters the back/forward cache"),
            Op::RestoreFromBfcache(n) => format!("{n}'s document is restored from the back/forward cache"),
            _ => "script statement".to_string(),
        }
    }
}
