//! BonaPiece: Bonanza 6's numbering of piece conditions (type, owner, square or count in hand),
//! the index space of the KP/KPP tables (1,476 conditions) and of KKP (738 conditions of one
//! side's own pieces). The layout is Bonanza's exactly: conditions that cannot occur (a pawn on
//! its last rank) overlap other conditions, so the 1,476 indices are all reachable, which is what
//! makes the table sizes and the paper's parameter counts come out as published.
//!
//! Squares here are Bonanza's `bsq = 9·rank + (8 − file_index)`: 0 is 9a (top left seen from
//! black), 80 is 1i. Colour flip (reversing black and white) maps `bsq` to `80 − bsq`; the
//! left-right mirror maps file `f` to `10 − f`.

use haitaka::{Color, Piece, Square};

pub const FE_HAND_END: usize = 90;
/// Number of KP/KPP conditions.
pub const FE_END: usize = 1476;
/// Number of KKP conditions (own pieces only).
pub const KKP_END: usize = 738;
pub const KKP_HAND_END: usize = 45;
/// Hand slots in a piece list: 7 hand piece types × 2 owners, always present (count 0 included).
pub const HAND_SLOTS: usize = 14;
/// Largest piece list: the hand slots plus every non-king piece on the board.
pub const MAX_LIST: usize = HAND_SLOTS + 38;

/// Bonanza's piece kinds on the board: promoted minor pieces count as gold.
const KIND_PAWN: usize = 0;
const KIND_LANCE: usize = 1;
const KIND_KNIGHT: usize = 2;
const KIND_SILVER: usize = 3;
const KIND_GOLD: usize = 4;
const KIND_BISHOP: usize = 5;
const KIND_HORSE: usize = 6;
const KIND_ROOK: usize = 7;
const KIND_DRAGON: usize = 8;

/// Base index of a board piece of the viewer ("friend") and of the opponent ("enemy").
const F_BOARD: [u16; 9] = [81, 225, 360, 504, 666, 828, 990, 1152, 1314];
const E_BOARD: [u16; 9] = [162, 306, 441, 585, 747, 909, 1071, 1233, 1395];
const KKP_BOARD: [u16; 9] = [36, 108, 171, 252, 333, 414, 495, 576, 657];
/// Hand bases, indexed by `haitaka::Piece as usize` for the 7 hand pieces
/// (Pawn, Lance, Knight, Silver, Bishop, Rook, Gold).
const F_HAND: [u16; 7] = [0, 38, 48, 58, 78, 84, 68];
const E_HAND: [u16; 7] = [19, 43, 53, 63, 81, 87, 73];
const KKP_HAND: [u16; 7] = [0, 19, 24, 29, 39, 42, 34];
/// Hand counts per hand piece (0..=max), in the same order.
const HAND_MAX: [u16; 7] = [18, 4, 4, 4, 2, 2, 4];

/// Bonanza kind of a non-king piece (`None` for the king).
#[inline]
pub fn kind(p: Piece) -> Option<usize> {
    Some(match p {
        Piece::Pawn => KIND_PAWN,
        Piece::Lance => KIND_LANCE,
        Piece::Knight => KIND_KNIGHT,
        Piece::Silver => KIND_SILVER,
        Piece::Gold | Piece::Tokin | Piece::PLance | Piece::PKnight | Piece::PSilver => KIND_GOLD,
        Piece::Bishop => KIND_BISHOP,
        Piece::PBishop => KIND_HORSE,
        Piece::Rook => KIND_ROOK,
        Piece::PRook => KIND_DRAGON,
        Piece::King => return None,
    })
}

/// Bonanza square of a haitaka square.
#[inline]
pub fn bsq(sq: Square) -> u8 {
    (sq.rank() as u8) * 9 + (8 - sq.file() as u8)
}

/// The haitaka square of a Bonanza square (< 81).
pub fn square_of_bsq(b: u8) -> Option<Square> {
    let (rank, col) = (b as usize / 9, b as usize % 9);
    Square::try_index((8 - col) * 9 + rank)
}

#[inline]
pub const fn mirror_sq(b: u8) -> u8 {
    (b / 9) * 9 + (8 - b % 9)
}

#[inline]
pub const fn flip_sq(b: u8) -> u8 {
    80 - b
}

/// A piece condition, independent of the viewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cond {
    /// A non-king piece of `black` (true) or white on Bonanza square `sq`, of Bonanza kind `kind`.
    Board { black: bool, kind: u8, sq: u8 },
    /// `n` pieces of hand type `hp` (`haitaka::Piece as usize`, 0..7) in the hand of `black`.
    Hand { black: bool, hp: u8, n: u8 },
}

impl Cond {
    pub fn board(color: Color, piece: Piece, sq: Square) -> Option<Cond> {
        Some(Cond::Board {
            black: color == Color::Black,
            kind: kind(piece)? as u8,
            sq: bsq(sq),
        })
    }

    /// KP/KPP index seen by black (`view_black`) or by white (board turned around, colours swapped).
    #[inline]
    pub fn bp(self, view_black: bool) -> u16 {
        match self {
            Cond::Board { black, kind, sq } => {
                let (friend, sq) = if view_black {
                    (black, sq)
                } else {
                    (!black, flip_sq(sq))
                };
                let base = if friend { F_BOARD } else { E_BOARD };
                base[kind as usize] + sq as u16
            }
            Cond::Hand { black, hp, n } => {
                let friend = black == view_black;
                let base = if friend { F_HAND } else { E_HAND };
                base[hp as usize] + n as u16
            }
        }
    }

    /// KKP index of the condition seen by its owner, and whether the owner is black.
    #[inline]
    pub fn kkp(self) -> (u16, bool) {
        match self {
            Cond::Board { black, kind, sq } => {
                let sq = if black { sq } else { flip_sq(sq) };
                (KKP_BOARD[kind as usize] + sq as u16, black)
            }
            Cond::Hand { black, hp, n } => (KKP_HAND[hp as usize] + n as u16, black),
        }
    }
}

/// Squares a piece of a kind may stand on as a friend piece (black's view): pawns and lances not
/// on the first rank, knights not on the first two.
const fn first_valid_sq(kind: usize) -> usize {
    match kind {
        KIND_PAWN | KIND_LANCE => 9,
        KIND_KNIGHT => 18,
        _ => 0,
    }
}

const fn build_mirror_bp() -> [u16; FE_END] {
    let mut t = [0u16; FE_END];
    let mut i = 0;
    while i < FE_HAND_END {
        t[i] = i as u16;
        i += 1;
    }
    let mut k = 0;
    while k < 9 {
        let lo = first_valid_sq(k);
        let mut s = lo;
        while s < 81 {
            let m = mirror_sq(s as u8) as u16;
            t[F_BOARD[k] as usize + s] = F_BOARD[k] + m;
            s += 1;
        }
        // Enemy pieces are valid on the squares a friend piece is valid on, turned around.
        let mut s = 0;
        while s < 81 - lo {
            let m = mirror_sq(s as u8) as u16;
            t[E_BOARD[k] as usize + s] = E_BOARD[k] + m;
            s += 1;
        }
        k += 1;
    }
    t
}

const fn build_flip_bp() -> [u16; FE_END] {
    let mut t = [0u16; FE_END];
    let mut h = 0;
    while h < 7 {
        let mut n = 0;
        while n <= HAND_MAX[h] {
            t[(F_HAND[h] + n) as usize] = E_HAND[h] + n;
            t[(E_HAND[h] + n) as usize] = F_HAND[h] + n;
            n += 1;
        }
        h += 1;
    }
    let mut k = 0;
    while k < 9 {
        let lo = first_valid_sq(k);
        let mut s = lo;
        while s < 81 {
            t[F_BOARD[k] as usize + s] = E_BOARD[k] + (80 - s) as u16;
            t[E_BOARD[k] as usize + 80 - s] = F_BOARD[k] + s as u16;
            s += 1;
        }
        k += 1;
    }
    t
}

const fn build_mirror_kkp() -> [u16; KKP_END] {
    let mut t = [0u16; KKP_END];
    let mut i = 0;
    while i < KKP_HAND_END {
        t[i] = i as u16;
        i += 1;
    }
    let mut k = 0;
    while k < 9 {
        let mut s = first_valid_sq(k);
        while s < 81 {
            t[KKP_BOARD[k] as usize + s] = KKP_BOARD[k] + mirror_sq(s as u8) as u16;
            s += 1;
        }
        k += 1;
    }
    t
}

/// Left-right mirror of a KP/KPP condition.
pub static MIRROR_BP: [u16; FE_END] = build_mirror_bp();
/// The same condition seen by the other player (colour flip).
pub static FLIP_BP: [u16; FE_END] = build_flip_bp();
/// Left-right mirror of a KKP condition.
pub static MIRROR_KKP: [u16; KKP_END] = build_mirror_kkp();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_involutions_and_cover_every_index() {
        for i in 0..FE_END {
            assert_eq!(MIRROR_BP[MIRROR_BP[i] as usize] as usize, i, "mirror {i}");
            assert_eq!(FLIP_BP[FLIP_BP[i] as usize] as usize, i, "flip {i}");
        }
        for i in 0..KKP_END {
            assert_eq!(MIRROR_KKP[MIRROR_KKP[i] as usize] as usize, i);
        }
        // Every index is produced by exactly one reachable condition.
        let mut seen = vec![0u8; FE_END];
        for black in [true, false] {
            for hp in 0..7u8 {
                for n in 0..=HAND_MAX[hp as usize] as u8 {
                    seen[Cond::Hand { black, hp, n }.bp(true) as usize] += 1;
                }
            }
            for kind in 0..9u8 {
                let lo = first_valid_sq(kind as usize) as u8;
                for s in lo..81 {
                    let sq = if black { s } else { 80 - s };
                    seen[Cond::Board { black, kind, sq }.bp(true) as usize] += 1;
                }
            }
        }
        assert!(
            seen.iter().all(|&c| c == 1),
            "BonaPiece layout does not tile 0..1476"
        );
    }

    #[test]
    fn square_conversion_round_trips() {
        for b in 0..81u8 {
            let sq = square_of_bsq(b).expect("valid");
            assert_eq!(bsq(sq), b);
        }
        // 9a is Bonanza square 0, 1i is 80.
        assert_eq!(bsq("9a".parse().expect("sq")), 0);
        assert_eq!(bsq("1i".parse().expect("sq")), 80);
        assert_eq!(bsq("5e".parse().expect("sq")), 40);
    }
}
