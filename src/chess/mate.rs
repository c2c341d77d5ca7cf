//! Chess for the mate solver: `MateGame` for `ChessPos`. Chess has no pieces in hand, so the hand
//! parts are empty and the board key is the position key; everything else is the generic solver.

use super::ChessPos;
use crate::game::{Game, RulesError, Side};
use crate::mate::{Hand, HandEffect, MateGame};
use cozy_chess::Move;

impl MateGame for ChessPos {
    fn board_key(&self) -> u64 {
        self.key()
    }

    fn hand(&self, _side: Side) -> Hand {
        Hand::EMPTY
    }

    fn hand_effect(&self, _mv: Move) -> HandEffect {
        HandEffect::None
    }

    fn interposable(&self) -> bool {
        // Interposing a piece from hand is a shogi matter; chess hands are always empty.
        false
    }

    fn validate_problem(&self) -> Result<(), RulesError> {
        // cozy-chess only builds boards with one king a side whose side not to move is not in
        // check (a FEN breaking either is rejected when read), so every position is a problem.
        Ok(())
    }
}
