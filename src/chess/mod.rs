//! Chess rules over `cozy-chess`: positions (FEN), UCI moves, SEE, outcomes, records and features.

pub mod endgame;
pub mod eval;
pub mod features;
pub mod mate;
pub mod position;
pub mod records;
pub mod see;

pub use eval::ChessEval;
pub use position::ChessPos;

/// Conventional piece values (pawn, knight, bishop, rook, queen, king) used by SEE, ordering and the
/// material fallback, indexed by `cozy_chess::Piece as usize`.
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

pub fn value(piece: cozy_chess::Piece) -> i32 {
    PIECE_VALUES[piece as usize]
}
