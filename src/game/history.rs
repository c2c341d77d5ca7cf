//! The game so far: positions from the start position (or the set-up position) to the current one,
//! with the repetition and game-length rules that need them.

use super::{DrawReason, Game, Outcome, RuleOptions, WinReason};

/// Positions of a game, oldest first; the last one is the current position.
#[derive(Debug, Clone)]
pub struct GameHistory<G: Game> {
    positions: Vec<G>,
}

/// What a repeated position means under the rules (shogi perpetual check, else a draw).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repetition {
    None,
    Draw,
    /// The side to move now has been checking with every move of the cycle: it loses.
    CheckerLoses,
    /// The side to move now has been checked by every opponent move of the cycle: it wins.
    CheckedWins,
}

impl<G: Game> GameHistory<G> {
    pub fn new(start: G) -> Self {
        GameHistory {
            positions: vec![start],
        }
    }

    /// Builds a history from a start position and move texts; the error names the first bad move.
    pub fn from_moves<'a>(
        start: G,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<Self, super::RulesError> {
        let mut h = GameHistory::new(start);
        for (i, text) in moves.into_iter().enumerate() {
            let mv = h
                .current()
                .parse_move(text)
                .map_err(|e| super::RulesError::new(format!("move {} '{}': {}", i + 1, text, e)))?;
            h.push(mv);
        }
        Ok(h)
    }

    pub fn current(&self) -> &G {
        self.positions.last().expect("history is never empty")
    }

    pub fn start(&self) -> &G {
        &self.positions[0]
    }

    pub fn positions(&self) -> &[G] {
        &self.positions
    }

    pub fn len_plies(&self) -> usize {
        self.positions.len() - 1
    }

    pub fn push(&mut self, mv: G::Move) {
        let next = self.current().play(mv);
        self.positions.push(next);
    }

    /// How the current position relates to earlier occurrences of it, counted as the rules count them
    /// (`G::REPETITION_COUNT` occurrences including this one).
    pub fn repetition(&self) -> Repetition {
        repetition_verdict::<G>(&self.positions, G::REPETITION_COUNT)
    }

    /// The outcome of the game at the current position, if the game is over by rule.
    pub fn outcome(&self, rules: &RuleOptions) -> Option<Outcome> {
        let pos = self.current();
        if let Some(o) = pos.position_outcome() {
            return Some(o);
        }
        let stm = pos.side_to_move();
        match self.repetition() {
            Repetition::None => {}
            Repetition::Draw => return Some(Outcome::Draw(DrawReason::Repetition)),
            Repetition::CheckerLoses => {
                return Some(Outcome::Win(stm.opponent(), WinReason::PerpetualCheck))
            }
            Repetition::CheckedWins => return Some(Outcome::Win(stm, WinReason::PerpetualCheck)),
        }
        if rules.max_moves_to_draw > 0 && pos.ply() >= rules.max_moves_to_draw {
            return Some(Outcome::Draw(DrawReason::MaxMoves));
        }
        None
    }
}

/// Repetition verdict for the last position of `line` (oldest first) once it has occurred `count`
/// times. Shared by the game history (count = the rule's count) and the search (count = 2: the first
/// repetition on the path is treated as the end of the cycle). It is cheap enough for every node:
/// it compares stored keys two plies apart, back to the last irreversible move, and looks at
/// `in_check` (a stored bitboard) only when the count is reached.
///
/// Perpetual check (shogi) is judged over the whole repetition: the moves from the first of the
/// `count` occurrences to the current position. If every move of one side in that span gave check
/// and the other side's did not all give check, the checking side loses. If both sides checked with
/// every move (a cycle of counter-checks), neither is singled out by the rule and it is a draw.
pub fn repetition_verdict<G: Game>(line: &[G], count: usize) -> Repetition {
    let Some(cur) = line.last() else {
        return Repetition::None;
    };
    let n = line.len();
    let key = cur.key();
    let limit = (cur.reversible_plies() as usize).min(n - 1);
    let mut seen = 1;
    // Distance back to the earliest of the `count` occurrences, once found.
    let mut span = None;
    // Only positions with the same side to move can match: step by two plies.
    let mut back = 2;
    while back <= limit {
        if line[n - 1 - back].key() == key {
            seen += 1;
            if seen >= count {
                span = Some(back);
                break;
            }
        }
        back += 2;
    }
    let Some(span) = span else {
        return Repetition::None;
    };
    if !G::PERPETUAL_CHECK_LOSES {
        return Repetition::Draw;
    }
    // The moves of the span lead to the positions at distances span-1 .. 0 from the end. At an even
    // distance the side to move now is to move, so "in check" there means the opponent's move that
    // led there gave check; at an odd distance it means our move did.
    let mut opponent_always_checked = true;
    let mut mover_always_checked = true;
    for d in 0..span {
        let checked = line[n - 1 - d].in_check();
        if d % 2 == 0 {
            opponent_always_checked &= checked;
        } else {
            mover_always_checked &= checked;
        }
    }
    match (opponent_always_checked, mover_always_checked) {
        (true, false) => Repetition::CheckedWins,
        (false, true) => Repetition::CheckerLoses,
        _ => Repetition::Draw,
    }
}
