//! Shogi rules over `haitaka`: positions (SFEN), USI moves, SEE, outcomes, records and features.

pub mod bonapiece;
pub mod checks;
pub mod declaration;
pub mod eval;
pub mod evasions;
pub mod features;
pub mod mate;
pub mod mate1;
pub mod movegen;
pub mod position;
pub mod records;
pub mod see;
pub mod sfen;

pub use eval::ShogiEval;
pub use position::ShogiPos;

/// Piece values used by SEE, move ordering and the material fallback: Bonanza 6's published values,
/// indexed by `haitaka::Piece as usize` (Pawn, Lance, Knight, Silver, Bishop, Rook, Gold, King,
/// Tokin, +Lance, +Knight, +Silver, Horse, Dragon).
pub const PIECE_VALUES: [i32; 14] = [
    87, 232, 257, 369, 569, 642, 444, 15_000, 534, 489, 510, 495, 827, 945,
];

/// Value of a piece when it is in hand (always unpromoted).
pub fn value(piece: haitaka::Piece) -> i32 {
    PIECE_VALUES[piece as usize]
}
