//! Option handling: `setoption` (checked by `Options::set`, acted on at the next `isready` or
//! `go`) and the settings the dialects read from the options (rules, time margins).

use super::super::engine::TimeOptions;
use super::super::options::{Changed, Options, Value};
use super::super::tokenizer::Tokens;
use super::{Controller, Flavour};
use crate::game::{EnteringKingRule, RuleOptions};

impl<F: Flavour> Controller<F> {
    pub(super) fn setoption(&mut self, t: &mut Tokens) -> Result<(), String> {
        if t.next() != Some("name") {
            return Err("expected 'setoption name <name> [value <value>]'".into());
        }
        let name = t.until(&["value"]).join(" ");
        if name.is_empty() {
            return Err("missing option name".into());
        }
        let value = match t.next() {
            // Values keep their inner spaces (file names); an empty value is allowed for strings.
            Some(_) => Some(t.rest().join(" ")),
            None => None,
        };
        let changed = self.options.set(&name, value.as_deref())?;
        if matches!(changed.name, "USI_Hash" | "Hash") {
            // A size sent again is tried again (and reported again if it still fails).
            self.failed_hash = None;
        }
        if let Changed {
            name: "Clear Hash",
            value: Value::None,
        } = changed
        {
            self.clear_hash_pending = true;
        }
        Ok(())
    }
}

pub fn entering_king_rule(options: &Options) -> EnteringKingRule {
    EnteringKingRule::parse(options.text("EnteringKingRule")).unwrap_or_default()
}

/// Rule options shared by the dialects' `search_config`.
pub fn rule_options(options: &Options) -> RuleOptions {
    RuleOptions {
        entering_king: entering_king_rule(options),
        max_moves_to_draw: options.int("MaxMovesToDraw").max(0) as u32,
    }
}

/// Time options from whichever of the names the dialect declares (absent ones read as 0).
pub fn time_options(options: &Options) -> TimeOptions {
    let ms = |n: &str| options.int(n).max(0) as u64;
    let slow = options.int("SlowMover");
    TimeOptions {
        move_overhead_ms: ms("Move Overhead"),
        network_delay_ms: ms("NetworkDelay"),
        network_delay2_ms: ms("NetworkDelay2"),
        minimum_thinking_ms: ms("MinimumThinkingTime"),
        slow_mover_percent: if slow > 0 { slow as u32 } else { 100 },
    }
}
