//! The evaluation chess plays with: the kishi-chess feature set (`features`) bound to `ChessPos`.
//! The binding lives here, with the game, so that `crate::eval` names no game.

use super::features::ChessFeatures;
use super::ChessPos;
use crate::eval::{default_weights_noted, GameEval, LinearEval, Weights};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The chess evaluator: `LinearEval` over material, KP and the positional terms.
pub type ChessEval = LinearEval<ChessPos, ChessFeatures>;

impl GameEval for ChessPos {
    type Eval = ChessEval;
    fn default_eval_noted(note: &mut dyn FnMut(&str)) -> ChessEval {
        static W: OnceLock<Arc<Weights>> = OnceLock::new();
        ChessEval::new(Arc::clone(W.get_or_init(|| {
            Arc::new(default_weights_noted::<ChessPos, ChessFeatures>(note))
        })))
    }
    fn load_eval(path: &Path) -> Result<ChessEval, String> {
        ChessEval::load(path)
    }
}
