//! Game outcomes and the reasons behind them.

use super::Side;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WinReason {
    Checkmate,
    /// Shogi: the opponent checked with every move of a fourfold repetition.
    PerpetualCheck,
    /// Shogi: entering-king declaration.
    Declaration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawReason {
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    MaxMoves,
    /// Shogi 24-point rule: a declaration with 24 to 30 points.
    Declaration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Win(Side, WinReason),
    Draw(DrawReason),
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`, as in the line format of `shared/data`.
    pub fn result_text(self) -> &'static str {
        match self {
            Outcome::Win(Side::First, _) => "1-0",
            Outcome::Win(Side::Second, _) => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }
}
