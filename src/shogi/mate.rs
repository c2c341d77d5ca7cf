//! Shogi for the mate solver: `MateGame` for `ShogiPos`, and reading mate problems (tsume).
//!
//! A tsume SFEN may leave out the attacker's king; the pieces neither on the board nor in the
//! attacker's hand then belong to the defender's hand (the tsume convention, whatever the SFEN's
//! defender hand says). With both kings the SFEN is read as a game position. Either way the
//! defender (not to move) must have a king and must not be in check.

use super::{movegen, sfen, ShogiPos};
use crate::game::{Game, RulesError, Side};
use crate::mate::{FutileRule, Hand, HandEffect, MateGame};
use haitaka::{get_between_rays, king_attacks, Board, Color, Move, Piece, Square};

/// Hand kinds in `haitaka::Piece` order (Pawn .. Gold), the index of `Board::hand`.
const HAND_PIECES: [Piece; 7] = [
    Piece::Pawn,
    Piece::Lance,
    Piece::Knight,
    Piece::Silver,
    Piece::Bishop,
    Piece::Rook,
    Piece::Gold,
];

fn color_of(side: Side) -> Color {
    match side {
        Side::First => Color::Black,
        Side::Second => Color::White,
    }
}

impl MateGame for ShogiPos {
    fn board_key(&self) -> u64 {
        // haitaka's key includes both hands, as an XOR of one key per (colour, kind, count):
        // removing each count's key leaves board and side (see `hand_keys`).
        let keys = hand_keys();
        let mut key = self.board().hash();
        for color in [Color::Black, Color::White] {
            let hand = self.board().hand(color);
            for p in HAND_PIECES {
                let n = usize::from(hand[p as usize]).min(MAX_IN_HAND - 1);
                key ^= keys[color as usize][p as usize][n];
            }
        }
        key
    }

    fn child_board_key(&self, key: u64, effect: HandEffect, child: &Self) -> u64 {
        // The hands' share of haitaka's key is the parent's with one count changed, the
        // mover's count of the kind dropped or captured; recomputing it from the child's
        // fourteen counts was 3.5% of a solve's instructions (docs/mate.md §32).
        let board = self.board();
        let mut hands = board.hash() ^ key;
        let (kind, up) = match effect {
            HandEffect::None => return child.board().hash() ^ hands,
            HandEffect::Drop(kind) => (kind, false),
            HandEffect::Capture(kind) => (kind, true),
        };
        let us = board.side_to_move();
        let n = usize::from(board.hand(us)[kind]);
        let after = if up { n + 1 } else { n.saturating_sub(1) };
        let keys = &hand_keys()[us as usize][kind];
        hands ^= keys[n.min(MAX_IN_HAND - 1)] ^ keys[after.min(MAX_IN_HAND - 1)];
        child.board().hash() ^ hands
    }

    fn hand(&self, side: Side) -> Hand {
        let h = self.board().hand(color_of(side));
        let mut out = Hand::EMPTY;
        for (i, p) in HAND_PIECES.iter().enumerate() {
            out.set(i, h[*p as usize]);
        }
        out
    }

    fn hand_effect(&self, mv: Move) -> HandEffect {
        match mv {
            Move::Drop { piece, .. } => HandEffect::Drop(piece as usize),
            Move::BoardMove { to, .. } => match self.board().piece_on(to) {
                Some(p) if self.board().color_on(to) != Some(self.board().side_to_move()) => {
                    HandEffect::Capture(p.unpromote() as usize)
                }
                _ => HandEffect::None,
            },
        }
    }

    fn check_moves(&self, out: &mut Vec<Move>) {
        super::checks::check_moves(self.board(), out);
    }

    fn interposable(&self) -> bool {
        let board = self.board();
        let checkers = board.checkers();
        if checkers.len() != 1 {
            return false;
        }
        let us = board.side_to_move();
        let (Some(checker), Some(king)) = (
            checkers.next_square(),
            board.colored_pieces(us, Piece::King).next_square(),
        ) else {
            return false;
        };
        !(get_between_rays(checker, king) & !board.occupied()).is_empty()
    }

    fn delay_group(&self, mv: Move, or: bool) -> Option<u32> {
        let board = self.board();
        let us = board.side_to_move();
        match mv {
            // The defender's drops: one group per square, and one for all the interpositions
            // that nothing of the defender's (the king included) protects and that do not check:
            // such a piece is captured for nothing (a futile interposition).
            Move::Drop { to, .. } if !or => {
                let guarded = !super::see::attackers(board, us, to, board.occupied()).is_empty();
                if !guarded && !movegen::gives_check(board, mv) {
                    Some(FUTILE_GROUP)
                } else {
                    Some(to as u32)
                }
            }
            // Not the attacker's non-promotions behind their promotions (KomoringHeights delays
            // those too): on the Zukou set that solved 79 problems at 300,000 nodes against 88
            // without, as non-promotion is a favourite theme of the old problems.
            _ => None,
        }
    }

    fn is_futile(&self, mv: Move, rule: FutileRule) -> bool {
        // Unguarded (both rules): the delay group's test, a drop between a distant checker and
        // the king that nothing of the defender's guards (the king included) and that gives no
        // check: the checker takes it and checks on from one step closer. Next to the king
        // (`FutileRule::NextToKing` only): a drop that only the king guards, when the checker's
        // capture there mates at once, as if the check had been mate already. The miniosl suite
        // counts those as defences: in its A2-3 (B*3c R*2b 2c2b+) the bishop's capture 3c2b+
        // mates as well, and the stated answer is 3 plies.
        self.in_check() && self.is_futile_in_group(mv, self.delay_group(mv, false), rule)
    }

    fn is_futile_in_group(&self, mv: Move, group: Option<u32>, rule: FutileRule) -> bool {
        if !self.in_check() {
            return false;
        }
        match (group, rule) {
            (Some(FUTILE_GROUP), _) => true,
            (Some(_), FutileRule::NextToKing) => futile_next_to_king(self.board(), mv),
            _ => false,
        }
    }

    fn has_legal_move(&self) -> bool {
        movegen::has_legal_move(self.board())
    }

    fn play_into(&mut self, parent: &Self, mv: Move) {
        ShogiPos::play_into(self, parent, mv);
    }

    fn validate_problem(&self) -> Result<(), RulesError> {
        let board = self.board();
        let us = board.side_to_move();
        let Some(king) = board.colored_pieces(!us, Piece::King).next_square() else {
            return Err(RulesError::new(
                "not a mate problem: the defender (the side not to move) has no king",
            ));
        };
        if attacked_by(board, us, king) {
            return Err(RulesError::new(
                "not a mate problem: the side not to move is in check",
            ));
        }
        Ok(())
    }
}

/// [`FutileRule::NextToKing`]'s test (the defender to move, in check): `mv` drops a piece next to
/// the defender's king that nothing but the king guards and that gives no check, and the single
/// checker's capture there (promoting or not) leaves the defender without a legal move. Mate
/// problems count such a drop as no defence (the Zukou source ends its lines 026, 073 and 093
/// where only such drops are left).
fn futile_next_to_king(board: &Board, mv: Move) -> bool {
    let Move::Drop { to, .. } = mv else {
        return false;
    };
    let us = board.side_to_move();
    let Some(king) = board.colored_pieces(us, Piece::King).next_square() else {
        return false;
    };
    let checkers = board.checkers();
    let (1, Some(checker)) = (checkers.len(), checkers.next_square()) else {
        return false;
    };
    if !king_attacks(us, king).has(to) || movegen::gives_check(board, mv) {
        return false;
    }
    let guards = super::see::attackers(board, us, to, board.occupied());
    if !(guards & !board.pieces(Piece::King)).is_empty() {
        return false;
    }
    let mut after = board.clone();
    after.play_unchecked(mv);
    [false, true].into_iter().any(|promotion| {
        let take = Move::BoardMove {
            from: checker,
            to,
            promotion,
        };
        movegen::is_legal(&after, take) && {
            let mut mated = after.clone();
            mated.play_unchecked(take);
            !movegen::has_legal_move(&mated)
        }
    })
}

/// The delay group of the futile interpositions (groups 0..81 are the drops' squares).
const FUTILE_GROUP: u32 = 81;

/// Counts a hand can hold, 0..=18 (pawns).
const MAX_IN_HAND: usize = 19;

/// What each (colour, kind, count) adds to haitaka's Zobrist key relative to a count of 0, read
/// once from haitaka itself (its tables are private): setting one count on an empty board. The
/// key is an XOR of independent parts, so XOR-ing these out of a position's key leaves the key of
/// the same position with empty hands — the same as clearing the hands on a copy of the board,
/// which cost a board copy per table probe (tests/mate_kingless.rs compares the two).
fn hand_keys() -> &'static [[[u64; MAX_IN_HAND]; 7]; 2] {
    static KEYS: std::sync::OnceLock<[[[u64; MAX_IN_HAND]; 7]; 2]> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| {
        let mut keys = [[[0u64; MAX_IN_HAND]; 7]; 2];
        for color in [Color::Black, Color::White] {
            for p in HAND_PIECES {
                for (n, key) in keys[color as usize][p as usize].iter_mut().enumerate() {
                    let mut b = Board::default();
                    let base = b.hash();
                    b.unchecked_set_hand(color, p, n as u8);
                    *key = b.hash() ^ base;
                }
            }
        }
        keys
    })
}

/// The board key computed the slow way (hands cleared on a copy), for tests.
pub fn board_key_by_copy(pos: &ShogiPos) -> u64 {
    let mut b = pos.board().clone();
    for color in [Color::Black, Color::White] {
        for p in HAND_PIECES {
            b.unchecked_set_hand(color, p, 0);
        }
    }
    b.hash()
}

/// Whether `color` attacks `sq` on this board.
fn attacked_by(board: &Board, color: Color, sq: Square) -> bool {
    let occ = board.occupied();
    board.colors(color).into_iter().any(|from| {
        board
            .piece_on(from)
            .is_some_and(|p| movegen::piece_attacks(p, color, from, occ).has(sq))
    })
}

/// The pieces of an SFEN board field (already checked by `sfen::check_sfen_tsume`).
fn board_pieces(field: &str) -> Result<Vec<(Piece, Color, Square)>, RulesError> {
    let mut out = Vec::new();
    for (r, rank) in field.split('/').enumerate() {
        let mut file = 9u32;
        let mut promoted = false;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                file = file.saturating_sub(d);
                continue;
            }
            if c == '+' {
                promoted = true;
                continue;
            }
            let base = match c.to_ascii_uppercase() {
                'P' => Piece::Pawn,
                'L' => Piece::Lance,
                'N' => Piece::Knight,
                'S' => Piece::Silver,
                'G' => Piece::Gold,
                'B' => Piece::Bishop,
                'R' => Piece::Rook,
                'K' => Piece::King,
                _ => return Err(RulesError::new(format!("unknown piece '{c}'"))),
            };
            let piece = if promoted { base.promote() } else { base };
            let color = if c.is_ascii_uppercase() {
                Color::Black
            } else {
                Color::White
            };
            let text = format!("{}{}", file, (b'a' + r as u8) as char);
            let sq: Square = text
                .parse()
                .map_err(|_| RulesError::new(format!("bad square {text}")))?;
            out.push((piece, color, sq));
            file = file.saturating_sub(1);
            promoted = false;
        }
    }
    Ok(out)
}

/// Whether the side not to move in `fields` (board, side) is in check: a clear error instead of
/// haitaka's "invalid board".
fn side_not_to_move_in_check(fields: &[&str]) -> Result<bool, RulesError> {
    let pieces = board_pieces(fields[0])?;
    let us = if fields[1] == "w" {
        Color::White
    } else {
        Color::Black
    };
    let mut occ = haitaka::BitBoard::EMPTY;
    for &(_, _, sq) in &pieces {
        occ |= sq.bitboard();
    }
    let Some(&(_, _, king)) = pieces
        .iter()
        .find(|&&(p, c, _)| p == Piece::King && c == !us)
    else {
        return Ok(false);
    };
    Ok(pieces
        .iter()
        .any(|&(p, c, from)| c == us && movegen::piece_attacks(p, c, from, occ).has(king)))
}

/// Reads a mate problem: an SFEN (optionally prefixed by `sfen `) with the attacker to move. The
/// attacker's king may be missing (then sente must be to move, and the defender holds every piece
/// that is neither on the board nor in sente's hand). Errors name the problem.
pub fn parse_problem(text: &str) -> Result<ShogiPos, RulesError> {
    let text = text.trim();
    let text = text.strip_prefix("sfen ").unwrap_or(text).trim();
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 4 {
        return Err(RulesError::new(format!(
            "invalid SFEN '{text}': expected 4 fields (board, side, hand, move number), found {}",
            fields.len()
        )));
    }
    sfen::check_sfen_tsume(text)?;
    if side_not_to_move_in_check(&fields)? {
        return Err(RulesError::new(format!(
            "not a mate problem: the side not to move is in check in '{text}'"
        )));
    }
    let has_black_king = fields[0].contains('K');
    let pos = if has_black_king {
        ShogiPos::from_text(text)?
    } else {
        if fields[1] != "b" {
            return Err(RulesError::new(format!(
                "not a mate problem: without sente's king, sente must be the attacker (to move) in '{text}'"
            )));
        }
        // Keep sente's hand only; haitaka gives gote everything else.
        let black_hand: String = {
            let mut s = String::new();
            let mut digits = String::new();
            for c in fields[2].chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                } else {
                    if c.is_ascii_uppercase() {
                        s.push_str(&digits);
                        s.push(c);
                    }
                    digits.clear();
                }
            }
            if s.is_empty() {
                "-".into()
            } else {
                s
            }
        };
        let sfen = format!("{} b {} {}", fields[0], black_hand, fields[3]);
        let board = Board::tsume(&sfen)
            .map_err(|e| RulesError::new(format!("invalid SFEN '{text}': {e}")))?;
        ShogiPos::from_board(board)
    };
    pos.validate_problem()?;
    Ok(pos)
}
