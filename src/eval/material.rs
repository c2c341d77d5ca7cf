//! Material-only evaluation over `Game::material`: the fallback when no feature tables are loaded,
//! and the search's reference evaluation in tests.

use super::Evaluator;
use crate::game::Game;

#[derive(Debug, Clone, Copy, Default)]
pub struct MaterialEval;

impl<G: Game> Evaluator<G> for MaterialEval {
    type Acc = ();
    fn refresh(&self, _pos: &G, _acc: &mut ()) {}
    fn update(&self, _p: &G, _mv: G::Move, _c: &G, _pa: &(), _acc: &mut ()) {}
    fn update_null(&self, _c: &G, _pa: &(), _acc: &mut ()) {}
    fn evaluate(&self, pos: &G, _acc: &()) -> i32 {
        pos.material()
    }
}
