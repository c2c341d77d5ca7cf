//! `ChessPos`: the `Game` implementation for chess, a thin copy-make wrapper over `cozy_chess::Board`.
//! Castling is king-takes-rook inside cozy-chess and standard `e1g1` at the text boundary.

use super::{see, value};
use crate::eval::rng::mix64;
use crate::game::search_params::{self, SearchParamTable};
use crate::game::{DrawReason, Game, Outcome, RulesError, Side, WinReason};
use cozy_chess::util::{display_uci_move, parse_uci_move};
use cozy_chess::{get_king_moves, BitBoard, Board, Color, Move, Piece, Square};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessPos {
    board: Board,
}

impl ChessPos {
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn from_board(board: Board) -> Self {
        ChessPos { board }
    }

    fn insufficient_material(&self) -> bool {
        let b = &self.board;
        let heavy = b.pieces(Piece::Pawn) | b.pieces(Piece::Rook) | b.pieces(Piece::Queen);
        if !heavy.is_empty() {
            return false;
        }
        let knights = b.pieces(Piece::Knight);
        let bishops = b.pieces(Piece::Bishop);
        let minors = (knights | bishops).len();
        if minors <= 1 {
            return true;
        }
        // Only bishops, all on squares of one colour: no mate is possible.
        if knights.is_empty() {
            let light = bishops & !BitBoard::DARK_SQUARES;
            return light.is_empty() || light == bishops;
        }
        false
    }
}

fn side_of(c: Color) -> Side {
    match c {
        Color::White => Side::First,
        Color::Black => Side::Second,
    }
}

fn fen_error(fen: &str, what: impl std::fmt::Display) -> RulesError {
    RulesError::new(format!("invalid FEN '{fen}': {what}"))
}

/// Checks what cozy-chess reports only as "invalid board", so the error names the problem.
fn check_fen_board(fen: &str, board_field: &str) -> Result<(), RulesError> {
    let ranks: Vec<&str> = board_field.split('/').collect();
    if ranks.len() != 8 {
        return Err(fen_error(
            fen,
            format!("the board has {} ranks, not 8", ranks.len()),
        ));
    }
    let mut kings = [0; 2];
    for (i, rank) in ranks.iter().enumerate() {
        let mut files = 0;
        for c in rank.chars() {
            match c {
                '1'..='8' => files += c as u32 - '0' as u32,
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                    if c == 'K' {
                        kings[0] += 1;
                    }
                    if c == 'k' {
                        kings[1] += 1;
                    }
                    if c.eq_ignore_ascii_case(&'p') && (i == 0 || i == 7) {
                        return Err(fen_error(fen, "a pawn on the first or last rank"));
                    }
                    files += 1;
                }
                _ => {
                    return Err(fen_error(
                        fen,
                        format!("bad character '{c}' in rank {}", 8 - i),
                    ))
                }
            }
        }
        if files != 8 {
            return Err(fen_error(
                fen,
                format!("rank {} has {} squares, not 8", 8 - i, files),
            ));
        }
    }
    if kings != [1, 1] {
        return Err(fen_error(
            fen,
            format!(
                "each side needs one king (white has {}, black has {})",
                kings[0], kings[1]
            ),
        ));
    }
    Ok(())
}

/// For `Game::escape_classes`: the squares the opponent's lesser pieces attack (by pawns, by
/// pawns or minor pieces, by pawns, minors or rooks: Stockfish 15.1's `threatenedBy…`), and the
/// squares from which each of our piece types would attack the enemy king (`check[piece]`).
struct Threats {
    by_pawn: BitBoard,
    by_minor: BitBoard,
    by_rook: BitBoard,
    check: [BitBoard; 6],
}

impl Threats {
    fn of(b: &Board) -> Self {
        let them = !b.side_to_move();
        let occ = b.occupied();
        let mut by_pawn = BitBoard::EMPTY;
        for sq in b.colored_pieces(them, Piece::Pawn) {
            by_pawn |= cozy_chess::get_pawn_attacks(sq, them);
        }
        let mut by_minor = by_pawn;
        for sq in b.colored_pieces(them, Piece::Knight) {
            by_minor |= cozy_chess::get_knight_moves(sq);
        }
        for sq in b.colored_pieces(them, Piece::Bishop) {
            by_minor |= cozy_chess::get_bishop_moves(sq, occ);
        }
        let mut by_rook = by_minor;
        for sq in b.colored_pieces(them, Piece::Rook) {
            by_rook |= cozy_chess::get_rook_moves(sq, occ);
        }
        let ks = b.king(them);
        let diag = cozy_chess::get_bishop_moves(ks, occ);
        let line = cozy_chess::get_rook_moves(ks, occ);
        let mut check = [BitBoard::EMPTY; 6];
        check[Piece::Pawn as usize] = cozy_chess::get_pawn_attacks(ks, them);
        check[Piece::Knight as usize] = cozy_chess::get_knight_moves(ks);
        check[Piece::Bishop as usize] = diag;
        check[Piece::Rook as usize] = line;
        check[Piece::Queen as usize] = diag | line;
        Threats {
            by_pawn,
            by_minor,
            by_rook,
            check,
        }
    }

    /// 3 / 2 / 1: `mv` takes a threatened queen / rook / minor to a square out of that threat;
    /// plus `CHECK_CLASS` when the piece checks from its target square.
    fn escape_class(&self, b: &Board, mv: Move) -> u8 {
        let Some(piece) = b.piece_on(mv.from) else {
            return 0;
        };
        let check = if self.check[piece as usize].has(mv.to) {
            crate::game::CHECK_CLASS
        } else {
            0
        };
        let (threat, class) = match piece {
            Piece::Queen => (self.by_rook, 3),
            Piece::Rook => (self.by_minor, 2),
            Piece::Knight | Piece::Bishop => (self.by_pawn, 1),
            _ => return check,
        };
        if threat.has(mv.from) {
            if threat.has(mv.to) {
                check
            } else {
                class | check
            }
        } else {
            self.en_prise(piece, mv.to) << crate::game::EN_PRISE_SHIFT | check
        }
    }

    /// The en-prise level (Stockfish 16's malus) of moving an unthreatened `piece` to `to`:
    /// 1 a minor onto a pawn-attacked square; 2 / 3 a rook onto a square a minor / pawn attacks;
    /// 4 / 5 / 6 a queen onto a square a rook / minor / pawn attacks; else 0.
    fn en_prise(&self, piece: Piece, to: Square) -> u8 {
        let (p, m, r) = (
            self.by_pawn.has(to),
            self.by_minor.has(to),
            self.by_rook.has(to),
        );
        match piece {
            Piece::Queen if p => 6,
            Piece::Queen if m => 5,
            Piece::Queen if r => 4,
            Piece::Rook if p => 3,
            Piece::Rook if m => 2,
            Piece::Knight | Piece::Bishop if p => 1,
            _ => 0,
        }
    }
}

impl Game for ChessPos {
    type Move = Move;

    const NAME: &'static str = "chess";
    const REPETITION_COUNT: usize = 3;
    const PERPETUAL_CHECK_LOSES: bool = false;
    const HISTORY_SIZE: usize = 2 * 6 * 64;
    /// Pawn … queen (a king is never captured), then "nothing" (a quiet promotion).
    const CAPTURE_KINDS: usize = 6;
    const SEARCH_PARAMS: SearchParamTable = search_params::CHESS;

    fn startpos() -> Self {
        ChessPos {
            board: Board::default(),
        }
    }

    fn from_text(text: &str) -> Result<Self, RulesError> {
        let text = text.trim();
        let text = text.strip_prefix("fen ").unwrap_or(text).trim();
        if text == "startpos" {
            return Ok(Self::startpos());
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        let full = match fields.len() {
            4 => format!("{} 0 1", fields.join(" ")),
            6 => fields.join(" "),
            n => {
                return Err(fen_error(
                    text,
                    format!("expected 6 fields (or 4 without the clocks), found {n}"),
                ))
            }
        };
        check_fen_board(text, fields[0])?;
        let board: Board = full.parse().map_err(|e| fen_error(text, e))?;
        // cozy-chess checks that the side not to move is not in check by a piece, but not by the
        // king: two kings side by side would pass.
        if get_king_moves(board.king(Color::White)).has(board.king(Color::Black)) {
            return Err(fen_error(text, "the kings stand next to each other"));
        }
        Ok(ChessPos { board })
    }

    fn to_text(&self) -> String {
        self.board.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, RulesError> {
        let mv = parse_uci_move(&self.board, text)
            .map_err(|e| RulesError::new(format!("'{text}' is not a UCI move ({e})")))?;
        if !self.board.is_legal(mv) {
            let why = match self.board.color_on(mv.from) {
                None => ": no piece on the from-square",
                Some(c) if c != self.board.side_to_move() => {
                    ": the piece on the from-square is the opponent's"
                }
                _ => "",
            };
            return Err(RulesError::new(format!(
                "'{text}' is not a legal move in this position{why}"
            )));
        }
        Ok(mv)
    }

    fn move_text(&self, mv: Move) -> String {
        display_uci_move(&self.board, mv).to_string()
    }

    fn key(&self) -> u64 {
        self.board.hash()
    }

    fn side_to_move(&self) -> Side {
        side_of(self.board.side_to_move())
    }

    fn in_check(&self) -> bool {
        !self.board.checkers().is_empty()
    }

    fn ply(&self) -> u32 {
        (self.board.fullmove_number() as u32).saturating_sub(1) * 2
            + (self.board.side_to_move() == Color::Black) as u32
    }

    fn reversible_plies(&self) -> u32 {
        self.board.halfmove_clock() as u32
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.board.generate_moves(|moves| {
            out.extend(moves);
            false
        });
    }

    fn count_legal_moves(&self) -> u64 {
        let mut n = 0u64;
        self.board.generate_moves(|moves| {
            n += moves.len() as u64;
            false
        });
        n
    }

    fn tactical_moves(&self, out: &mut Vec<Move>) {
        let b = &self.board;
        let them = b.colors(!b.side_to_move());
        // The en-passant target square is a capture only for a pawn (cozy-chess records it after
        // every double push, so another piece may well move there quietly).
        let ep = b.en_passant().map_or(BitBoard::EMPTY, |f| {
            Square::new(f, cozy_chess::Rank::Sixth.relative_to(b.side_to_move())).bitboard()
        });
        let promo_rank = cozy_chess::Rank::Eighth
            .relative_to(b.side_to_move())
            .bitboard();
        b.generate_moves(|mut moves| {
            if moves.piece == Piece::Pawn {
                moves.to &= them | ep | promo_rank;
            } else {
                moves.to &= them;
            }
            out.extend(moves);
            false
        });
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.board.is_legal(mv)
    }

    fn play(&self, mv: Move) -> Self {
        let mut board = self.board.clone();
        board.play_unchecked(mv);
        ChessPos { board }
    }

    fn play_null(&self) -> Option<Self> {
        self.board.null_move().map(|board| ChessPos { board })
    }

    fn is_capture(&self, mv: Move) -> bool {
        let b = &self.board;
        b.colors(!b.side_to_move()).has(mv.to)
            || (b.piece_on(mv.from) == Some(Piece::Pawn) && mv.from.file() != mv.to.file())
    }

    fn is_tactical(&self, mv: Move) -> bool {
        mv.promotion.is_some() || self.is_capture(mv)
    }

    fn escape_classes(&self, moves: &[Move], out: &mut Vec<u8>) {
        out.clear();
        let threats = Threats::of(&self.board);
        out.extend(
            moves
                .iter()
                .map(|&mv| threats.escape_class(&self.board, mv)),
        );
    }

    fn gives_check(&self, mv: Move) -> bool {
        !self.play(mv).board.checkers().is_empty()
    }

    fn see(&self, mv: Move) -> i32 {
        see::see(&self.board, mv)
    }

    fn victim_value(&self, mv: Move) -> i32 {
        let b = &self.board;
        let captured = if b.colors(!b.side_to_move()).has(mv.to) {
            b.piece_on(mv.to).map_or(0, value)
        } else if self.is_capture(mv) {
            value(Piece::Pawn) // en passant
        } else {
            0
        };
        captured + mv.promotion.map_or(0, |p| value(p) - value(Piece::Pawn))
    }

    fn attacker_value(&self, mv: Move) -> i32 {
        self.board.piece_on(mv.from).map_or(0, value)
    }

    fn history_index(&self, mv: Move) -> usize {
        let piece = self.board.piece_on(mv.from).unwrap_or(Piece::Pawn);
        (self.board.side_to_move() as usize * 6 + piece as usize) * 64 + mv.to as usize
    }

    fn captured_kind(&self, mv: Move) -> usize {
        let b = &self.board;
        if b.colors(!b.side_to_move()).has(mv.to) {
            b.piece_on(mv.to).map_or(5, |p| (p as usize).min(5))
        } else if self.is_capture(mv) {
            Piece::Pawn as usize // en passant
        } else {
            5
        }
    }

    fn move_to(mv: Move) -> u8 {
        mv.to as u8
    }

    fn encode_move(mv: Move) -> u16 {
        let promo = mv.promotion.map_or(0, |p| p as u16 + 1);
        mv.from as u16 | (mv.to as u16) << 6 | promo << 12
    }

    fn decode_move(&self, code: u16) -> Option<Move> {
        let from = Square::try_index((code & 63) as usize)?;
        let to = Square::try_index(((code >> 6) & 63) as usize)?;
        let promotion = match code >> 12 {
            0 => None,
            p => Some(Piece::try_index(p as usize - 1)?),
        };
        let mv = Move {
            from,
            to,
            promotion,
        };
        self.board.is_legal(mv).then_some(mv)
    }

    fn material(&self) -> i32 {
        let b = &self.board;
        let us = b.side_to_move();
        let mut score = 0;
        for piece in Piece::ALL {
            if piece == Piece::King {
                continue;
            }
            let diff = b.colored_pieces(us, piece).len() as i32
                - b.colored_pieces(!us, piece).len() as i32;
            score += diff * value(piece);
        }
        score
    }

    fn structure_key(&self) -> u64 {
        // The two sides' pawn sets, each multiplied by an odd constant and mixed (splitmix64's
        // finaliser, so the top bits the correction tables index by depend on every square): a
        // key per pawn structure without keeping a second Zobrist key per move.
        let b = &self.board;
        let pawns = b.pieces(Piece::Pawn);
        let w = (pawns & b.colors(Color::White)).0;
        let k = (pawns & b.colors(Color::Black)).0;
        mix64(w.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
    }

    fn pieces_key(&self, side: Side) -> u64 {
        // Each piece type's set times its own odd constant, summed and mixed, as for the pawns.
        const MUL: [u64; 5] = [
            0x9E37_79B9_7F4A_7C15,
            0xC2B2_AE3D_27D4_EB4F,
            0x1656_67B1_9E37_79F9,
            0x27D4_EB2F_1656_67C5,
            0x85EB_CA77_C2B2_AE63,
        ];
        let b = &self.board;
        let ours = b.colors(match side {
            Side::First => Color::White,
            Side::Second => Color::Black,
        });
        let kinds = [
            Piece::Knight,
            Piece::Bishop,
            Piece::Rook,
            Piece::Queen,
            Piece::King,
        ];
        let mut h = 0u64;
        for (kind, mul) in kinds.into_iter().zip(MUL) {
            h = h.wrapping_add((b.pieces(kind) & ours).0.wrapping_mul(mul));
        }
        mix64(h)
    }

    fn null_move_allowed(&self) -> bool {
        // Zugzwang guard: the side to move must have a piece other than pawns and king.
        let b = &self.board;
        let ours = b.colors(b.side_to_move());
        !(ours & !(b.pieces(Piece::Pawn) | b.pieces(Piece::King))).is_empty()
    }

    fn is_draw_by_rule(&self) -> bool {
        // The search asks before generating moves, so a mate delivered on exactly the hundredth
        // ply scores as a draw there; adjudication (`position_outcome`) gets it right.
        self.board.halfmove_clock() >= 100 || self.insufficient_material()
    }

    fn position_outcome(&self) -> Option<Outcome> {
        if !self.board.generate_moves(|_| true) {
            return Some(if self.in_check() {
                Outcome::Win(side_of(!self.board.side_to_move()), WinReason::Checkmate)
            } else {
                Outcome::Draw(DrawReason::Stalemate)
            });
        }
        if self.board.halfmove_clock() >= 100 {
            return Some(Outcome::Draw(DrawReason::FiftyMoves));
        }
        if self.insufficient_material() {
            return Some(Outcome::Draw(DrawReason::InsufficientMaterial));
        }
        None
    }
}
