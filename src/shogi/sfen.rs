//! SFEN checks that name the problem (haitaka's parser only says "invalid board"), and the reason a
//! parsed USI move is illegal.

use crate::game::RulesError;
use haitaka::{Board, Move};

/// Total pieces of each kind in a set, by SFEN letter (promoted pieces count as their base kind).
const SET: [(char, u32, &str); 8] = [
    ('P', 18, "pawns"),
    ('L', 4, "lances"),
    ('N', 4, "knights"),
    ('S', 4, "silvers"),
    ('G', 4, "golds"),
    ('B', 2, "bishops"),
    ('R', 2, "rooks"),
    ('K', 2, "kings"),
];

fn set_index(c: char) -> Option<usize> {
    SET.iter()
        .position(|&(l, _, _)| l == c.to_ascii_uppercase())
}

fn err(sfen: &str, what: impl std::fmt::Display) -> RulesError {
    RulesError::new(format!("invalid SFEN '{sfen}': {what}"))
}

/// Checks the structure and the piece counts of an SFEN (`board side hand [move-number]`).
pub fn check_sfen(sfen: &str) -> Result<(), RulesError> {
    check_sfen_kings(sfen, false)
}

/// Like [`check_sfen`], but for a mate problem (tsume) sente's king may be missing.
pub fn check_sfen_tsume(sfen: &str) -> Result<(), RulesError> {
    check_sfen_kings(sfen, true)
}

fn check_sfen_kings(sfen: &str, tsume: bool) -> Result<(), RulesError> {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    if fields.len() != 4 {
        return Err(err(
            sfen,
            format!(
                "expected 4 fields (board, side, hand, move number), found {}",
                fields.len()
            ),
        ));
    }
    let mut counts = [0u32; 8];
    let mut kings = [0u32; 2];
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 9 {
        return Err(err(
            sfen,
            format!("the board has {} ranks, not 9", ranks.len()),
        ));
    }
    // pawn files per colour (unpromoted pawns only), for nifu.
    let mut pawn_files = [[false; 9]; 2];
    for (r, rank) in ranks.iter().enumerate() {
        let mut file = 0usize;
        let mut promoted = false;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                if promoted || d == 0 {
                    return Err(err(sfen, format!("bad character '{c}' in rank {}", r + 1)));
                }
                file += d as usize;
                continue;
            }
            if c == '+' {
                if promoted {
                    return Err(err(sfen, format!("'++' in rank {}", r + 1)));
                }
                promoted = true;
                continue;
            }
            let Some(i) = set_index(c) else {
                return Err(err(sfen, format!("unknown piece '{c}' in rank {}", r + 1)));
            };
            let black = c.is_ascii_uppercase();
            let up = c.to_ascii_uppercase();
            if promoted && matches!(up, 'G' | 'K') {
                return Err(err(sfen, format!("'+{c}' cannot be promoted")));
            }
            counts[i] += 1;
            if up == 'K' {
                kings[usize::from(!black)] += 1;
            }
            if !promoted {
                // Relative rank from the owner's side: 1 = the far rank.
                let rel = if black { r + 1 } else { 9 - r };
                if matches!(up, 'P' | 'L') && rel == 1 {
                    return Err(err(sfen, format!("'{c}' on its last rank cannot move")));
                }
                if up == 'N' && rel <= 2 {
                    return Err(err(
                        sfen,
                        format!("'{c}' on its last two ranks cannot move"),
                    ));
                }
                if up == 'P' && file < 9 {
                    let side = usize::from(!black);
                    if pawn_files[side][file] {
                        return Err(err(
                            sfen,
                            "two unpromoted pawns of one side on a file (nifu)",
                        ));
                    }
                    pawn_files[side][file] = true;
                }
            }
            promoted = false;
            file += 1;
        }
        if promoted {
            return Err(err(sfen, format!("'+' at the end of rank {}", r + 1)));
        }
        if file != 9 {
            return Err(err(
                sfen,
                format!("rank {} has {} squares, not 9", r + 1, file),
            ));
        }
    }
    if kings != [1, 1] && !(tsume && kings == [0, 1]) {
        return Err(err(
            sfen,
            format!(
                "each side needs one king (sente has {}, gote has {})",
                kings[0], kings[1]
            ),
        ));
    }
    if !matches!(fields[1], "b" | "w") {
        return Err(err(
            sfen,
            format!("side to move must be 'b' or 'w', not '{}'", fields[1]),
        ));
    }
    if fields[2] != "-" {
        let mut n: u32 = 0;
        let mut any_digit = false;
        for c in fields[2].chars() {
            if let Some(d) = c.to_digit(10) {
                n = n.saturating_mul(10).saturating_add(d);
                any_digit = true;
                continue;
            }
            let Some(i) = set_index(c) else {
                return Err(err(sfen, format!("unknown piece '{c}' in hand")));
            };
            if c.eq_ignore_ascii_case(&'K') {
                return Err(err(sfen, "a king cannot be in hand"));
            }
            let k = if any_digit { n } else { 1 };
            if k == 0 {
                return Err(err(sfen, "a hand count of 0"));
            }
            counts[i] = counts[i].saturating_add(k);
            n = 0;
            any_digit = false;
        }
        if any_digit {
            return Err(err(sfen, "the hand ends with a number"));
        }
    }
    // Name every kind that exceeds the set, not just the first.
    let over: Vec<String> = SET
        .iter()
        .zip(counts)
        .filter(|(&(_, max, _), n)| *n > max)
        .map(|(&(_, max, name), n)| format!("{n} {name} (a set has {max})"))
        .collect();
    if !over.is_empty() {
        return Err(err(
            sfen,
            format!("more pieces than a set has: {}", over.join(", ")),
        ));
    }
    match fields[3].parse::<u32>() {
        Ok(n) if (1..=u16::MAX as u32).contains(&n) => Ok(()),
        _ => Err(err(sfen, format!("bad move number '{}'", fields[3]))),
    }
}

/// Why a well-formed USI move is illegal here (a suffix for the error message).
pub fn illegal_move_reason(board: &Board, mv: Move) -> String {
    use haitaka::{drop_zone, Piece};
    let us = board.side_to_move();
    match mv {
        Move::Drop { piece, to } => {
            if piece == Piece::King || !piece.is_unpromoted() {
                format!(": {piece:?} cannot be dropped")
            } else if !board.has_in_hand(us, piece) {
                format!(": no {piece:?} in hand")
            } else if board.occupied().has(to) {
                ": the square is occupied".into()
            } else if !drop_zone(us, piece).has(to) {
                format!(": a {piece:?} dropped there could never move")
            } else if piece == Piece::Pawn && !board.pawn_drop_ok(us, to) {
                ": a second unpromoted pawn on the file (nifu)".into()
            } else if !board.checkers().is_empty() {
                ": it does not answer the check".into()
            } else if piece == Piece::Pawn {
                ": a pawn drop that mates (uchifuzume)".into()
            } else {
                String::new()
            }
        }
        Move::BoardMove {
            from,
            to,
            promotion,
        } => match (board.color_on(from), board.piece_on(from)) {
            (None, _) | (_, None) => ": no piece on the from-square".into(),
            (Some(c), _) if c != us => ": the piece on the from-square is the opponent's".into(),
            _ if board.colors(us).has(to) => ": the target holds one of our own pieces".into(),
            (_, Some(p)) if promotion && !p.is_promotable() => {
                format!(": a {p:?} cannot promote")
            }
            (_, Some(p)) if promotion && !p.can_promote(us, to) && !p.can_promote(us, from) => {
                ": a promotion outside the promotion zone".into()
            }
            (_, Some(p)) if !promotion && p.must_promote(us, to) => {
                format!(": a {p:?} there could never move again, so it must promote")
            }
            _ => ": the piece cannot move there, or the move leaves the king in check".into(),
        },
    }
}
