//! `ShogiPos`: the `Game` implementation for shogi, a thin copy-make wrapper over `haitaka::Board`.

use super::{movegen, see, value};
use crate::game::search_params::{self, SearchParamTable};
use crate::game::{DrawReason, EnteringKingRule, Game, Outcome, RulesError, Side, WinReason};
use haitaka::{prom_zone, BitBoard, Board, Color, Move, Piece, PieceMoves, Square};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShogiPos {
    board: Board,
}

const STARTPOS_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

impl ShogiPos {
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Wraps a board that haitaka has validated.
    pub fn from_board(board: Board) -> Self {
        ShogiPos { board }
    }

    /// Becomes the position after `mv` in `parent`: one copy of the parent's board, straight
    /// into `self` (the mate solver's reused child slots; `Game::play` returns a new position,
    /// which the solver then had to move into its slot).
    pub(crate) fn play_into(&mut self, parent: &Self, mv: Move) {
        self.board.clone_from(&parent.board);
        self.board.play_unchecked(mv);
    }

    fn stm(&self) -> Color {
        self.board.side_to_move()
    }
}

fn side_of(c: Color) -> Side {
    match c {
        Color::Black => Side::First,
        Color::White => Side::Second,
    }
}

impl Game for ShogiPos {
    type Move = Move;

    const NAME: &'static str = "shogi";
    const REPETITION_COUNT: usize = 4;
    const PERPETUAL_CHECK_LOSES: bool = true;
    // (colour, piece 0..14) x 81 target squares.
    const HISTORY_SIZE: usize = 2 * 14 * 81;
    /// haitaka's 14 piece kinds, then "nothing" (a promotion without capture).
    const CAPTURE_KINDS: usize = 15;
    const SEARCH_PARAMS: SearchParamTable = search_params::SHOGI;

    fn startpos() -> Self {
        ShogiPos {
            board: Board::startpos(),
        }
    }

    fn from_text(text: &str) -> Result<Self, RulesError> {
        let text = text.trim();
        let text = text.strip_prefix("sfen ").unwrap_or(text).trim();
        if text == "startpos" {
            return Ok(Self::startpos());
        }
        super::sfen::check_sfen(text)?;
        let board = Board::from_sfen(text)
            .map_err(|e| RulesError::new(format!("invalid SFEN '{text}': {e}")))?;
        Ok(ShogiPos { board })
    }

    fn to_text(&self) -> String {
        self.board.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, RulesError> {
        let mv: Move = text
            .parse()
            .map_err(|e| RulesError::new(format!("'{text}' is not a USI move ({e})")))?;
        if !movegen::is_legal(&self.board, mv) {
            return Err(RulesError::new(format!(
                "'{text}' is not a legal move in this position{}",
                super::sfen::illegal_move_reason(&self.board, mv)
            )));
        }
        Ok(mv)
    }

    fn move_text(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn key(&self) -> u64 {
        self.board.hash()
    }

    fn side_to_move(&self) -> Side {
        side_of(self.stm())
    }

    fn in_check(&self) -> bool {
        !self.board.checkers().is_empty()
    }

    fn ply(&self) -> u32 {
        (self.board.move_number() as u32).saturating_sub(1)
    }

    fn reversible_plies(&self) -> u32 {
        u32::MAX
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        movegen::generate(&self.board, |moves| {
            out.extend(moves);
            false
        });
    }

    fn count_legal_moves(&self) -> u64 {
        movegen::count_legal(&self.board)
    }

    fn tactical_moves(&self, out: &mut Vec<Move>) {
        let us = self.stm();
        let them = self.board.colors(!us);
        let zone = prom_zone(us);
        self.board.generate_board_moves(|mut moves| {
            if let PieceMoves::BoardMoves {
                piece, from, to, ..
            } = &mut moves
            {
                // Keep only targets where the move captures or may promote; the loop below drops
                // the non-promoting twin of a promotion that captures nothing.
                let promo_targets = if !piece.is_promotable() {
                    BitBoard::EMPTY
                } else if zone.has(*from) {
                    BitBoard::FULL
                } else {
                    zone
                };
                *to &= them | promo_targets;
                for mv in moves {
                    if mv.is_promotion() || them.has(mv.to()) {
                        out.push(mv);
                    }
                }
            }
            false
        });
    }

    fn is_legal(&self, mv: Move) -> bool {
        movegen::is_legal(&self.board, mv)
    }

    fn play(&self, mv: Move) -> Self {
        let mut board = self.board.clone();
        board.play_unchecked(mv);
        ShogiPos { board }
    }

    fn play_null(&self) -> Option<Self> {
        // haitaka 0.3.2's `Board::null_move` recomputes the pins for the king of the side that
        // passed instead of the side now to move, so a pinned piece could then move and expose its
        // king (the search saw kings captured). Rebuilding the board from its SFEN computes
        // checkers and pins correctly; null moves are tried at few nodes, so the cost is small.
        if self.in_check() {
            return None;
        }
        let flipped = self.board.null_move()?;
        Board::from_sfen(&flipped.to_string())
            .ok()
            .map(|board| ShogiPos { board })
    }

    fn is_capture(&self, mv: Move) -> bool {
        match mv {
            Move::BoardMove { to, .. } => self.board.colors(!self.stm()).has(to),
            Move::Drop { .. } => false,
        }
    }

    fn is_tactical(&self, mv: Move) -> bool {
        mv.is_promotion() || self.is_capture(mv)
    }

    fn gives_check(&self, mv: Move) -> bool {
        movegen::gives_check(&self.board, mv)
    }

    fn see(&self, mv: Move) -> i32 {
        see::see(&self.board, mv)
    }

    fn victim_value(&self, mv: Move) -> i32 {
        match mv {
            Move::BoardMove {
                from,
                to,
                promotion,
            } => {
                let captured = self.board.piece_on(to).map_or(0, value);
                let promo = match (promotion, self.board.piece_on(from)) {
                    (true, Some(p)) => value(p.promote()) - value(p),
                    _ => 0,
                };
                captured + promo
            }
            Move::Drop { .. } => 0,
        }
    }

    fn attacker_value(&self, mv: Move) -> i32 {
        match mv {
            Move::BoardMove { from, .. } => self.board.piece_on(from).map_or(0, value),
            Move::Drop { piece, .. } => value(piece),
        }
    }

    fn history_index(&self, mv: Move) -> usize {
        let piece = match mv {
            Move::BoardMove {
                from, promotion, ..
            } => {
                let p = self.board.piece_on(from).unwrap_or(Piece::Pawn);
                if promotion {
                    p.promote()
                } else {
                    p
                }
            }
            Move::Drop { piece, .. } => piece,
        };
        ((self.stm() as usize * 14) + piece as usize) * 81 + mv.to() as usize
    }

    fn captured_kind(&self, mv: Move) -> usize {
        match mv {
            Move::BoardMove { to, .. } => self.board.piece_on(to).map_or(14, |p| p as usize),
            Move::Drop { .. } => 14,
        }
    }

    fn move_to(mv: Move) -> u8 {
        mv.to() as u8
    }

    fn encode_move(mv: Move) -> u16 {
        // to: 7 bits; from (0..81) or 81 + drop piece (0..7): 7 bits; promotion: 1 bit; +1 so 0 = none.
        let (from, promo) = match mv {
            Move::BoardMove {
                from, promotion, ..
            } => (from as u16, promotion as u16),
            Move::Drop { piece, .. } => (81 + piece as u16, 0),
        };
        1 + (mv.to() as u16 | from << 7) + (promo << 14)
    }

    fn decode_move(&self, code: u16) -> Option<Move> {
        let code = code.checked_sub(1)?;
        let to = Square::try_index((code & 0x7f) as usize)?;
        let from = ((code >> 7) & 0x7f) as usize;
        let promotion = (code >> 14) & 1 == 1;
        let mv = if from < 81 {
            Move::BoardMove {
                from: Square::try_index(from)?,
                to,
                promotion,
            }
        } else {
            Move::Drop {
                piece: Piece::try_index(from - 81)?,
                to,
            }
        };
        movegen::is_legal(&self.board, mv).then_some(mv)
    }

    fn material(&self) -> i32 {
        let mut score = 0;
        for color in [Color::Black, Color::White] {
            let sign = if color == self.stm() { 1 } else { -1 };
            for piece in Piece::ALL {
                if piece == Piece::King {
                    continue;
                }
                let n = self.board.colored_pieces(color, piece).len() as i32;
                score += sign * n * value(piece);
            }
            for (i, &n) in self
                .board
                .hand(color)
                .iter()
                .enumerate()
                .take(Piece::HAND_NUM)
            {
                score += sign * n as i32 * PIECE_HAND_VALUES[i];
            }
        }
        score
    }

    fn null_move_allowed(&self) -> bool {
        // Shogi has no zugzwang in practice: drops always give a useful move.
        true
    }

    fn position_outcome(&self) -> Option<Outcome> {
        if !movegen::has_legal_move(&self.board) {
            // No legal move is a loss whether in check or not (shogi has no stalemate).
            return Some(Outcome::Win(side_of(!self.stm()), WinReason::Checkmate));
        }
        None
    }

    fn can_declare_win(&self, rule: EnteringKingRule) -> bool {
        super::declaration::can_declare(&self.board, rule)
    }

    fn declaration_outcome(&self, rule: EnteringKingRule) -> Option<Outcome> {
        use super::declaration::{declaration, Declaration};
        match declaration(&self.board, rule) {
            Declaration::Invalid => None,
            Declaration::Draw => Some(Outcome::Draw(DrawReason::Declaration)),
            Declaration::Win => Some(Outcome::Win(side_of(self.stm()), WinReason::Declaration)),
        }
    }

    fn mate_in_one(&self) -> Option<Move> {
        super::mate1::mate_in_one(&self.board)
    }
}

/// Hand values in `Piece` order for the seven hand pieces.
const PIECE_HAND_VALUES: [i32; 7] = [
    super::PIECE_VALUES[0],
    super::PIECE_VALUES[1],
    super::PIECE_VALUES[2],
    super::PIECE_VALUES[3],
    super::PIECE_VALUES[4],
    super::PIECE_VALUES[5],
    super::PIECE_VALUES[6],
];

pub const STARTPOS: &str = STARTPOS_SFEN;
