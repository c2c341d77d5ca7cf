//! The evaluation shogi plays with: the Bonanza feature set (`features`) bound to `ShogiPos`.
//! The binding lives here, with the game, so that `crate::eval` names no game.

use super::features::Bonanza;
use super::ShogiPos;
use crate::eval::{default_weights_noted, GameEval, LinearEval, Weights};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The shogi evaluator: `LinearEval` over Bonanza's KP/KKP/KPP tables.
pub type ShogiEval = LinearEval<ShogiPos, Bonanza>;

impl GameEval for ShogiPos {
    type Eval = ShogiEval;
    fn default_eval_noted(note: &mut dyn FnMut(&str)) -> ShogiEval {
        static W: OnceLock<Arc<Weights>> = OnceLock::new();
        ShogiEval::new(Arc::clone(W.get_or_init(|| {
            Arc::new(default_weights_noted::<ShogiPos, Bonanza>(note))
        })))
    }
    fn load_eval(path: &Path) -> Result<ShogiEval, String> {
        ShogiEval::load(path)
    }
}
