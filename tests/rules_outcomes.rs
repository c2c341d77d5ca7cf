//! Rules tests that need no outside program: outcomes by rule (with the history), entering-king
//! declaration boundaries, properties of the move generator over random playouts (no pawn-drop
//! mate, no nifu, no dead piece; tactical moves, gives_check, is_legal and move encoding agree with
//! the legal move list), bad position and move texts (each error names the problem), and random
//! strings fed to every parser (no panic).

use kishi::chess::ChessPos;
use kishi::game::{
    history::Repetition, DrawReason, EnteringKingRule, Game, GameHistory, Outcome, RuleOptions,
    Side, WinReason,
};
use kishi::shogi::ShogiPos;

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn history<G: Game>(start: &str, moves: &str) -> GameHistory<G> {
    let pos = G::from_text(start).unwrap();
    GameHistory::from_moves(pos, moves.split_whitespace()).unwrap()
}

// ------------------------------------------------------------------------------------------------
// Shogi outcomes.

#[test]
fn shogi_mate_and_no_stalemate() {
    let rules = RuleOptions::default();
    // Mated.
    let h = history::<ShogiPos>("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", "");
    assert_eq!(
        h.outcome(&rules),
        Some(Outcome::Win(Side::First, WinReason::Checkmate))
    );
    // No legal move without being in check: still a loss.
    let h = history::<ShogiPos>("8k/6G2/8P/9/9/9/9/9/K8 w - 1", "");
    assert!(!h.current().in_check());
    assert_eq!(
        h.outcome(&rules),
        Some(Outcome::Win(Side::First, WinReason::Checkmate))
    );
}

const CYCLE: &str = "6e5e 5a4a 5e4e 4a5a 4e5e 5a4a 5e4e 4a5a 4e5e 5a4a 5e4e 4a5a 4e5e";

#[test]
fn shogi_sennichite_and_perpetual_check() {
    let rules = RuleOptions::default();
    let start = "4k4/9/9/9/3R5/9/9/9/8K b - 1";
    let moves: Vec<&str> = CYCLE.split_whitespace().collect();
    // The position after 6e5e recurs at plies 1, 5, 9, 13: nothing before the 4th occurrence.
    for plies in 1..moves.len() {
        let h = history::<ShogiPos>(start, &moves[..plies].join(" "));
        assert_eq!(h.repetition(), Repetition::None, "after {plies} plies");
        assert_eq!(h.outcome(&rules), None);
    }
    let h = history::<ShogiPos>(start, CYCLE);
    // White (to move, checked by every black move) wins.
    assert_eq!(h.repetition(), Repetition::CheckedWins);
    assert_eq!(
        h.outcome(&rules),
        Some(Outcome::Win(Side::Second, WinReason::PerpetualCheck))
    );
    // One ply later the 4th occurrence has the checker to move: it loses.
    let h = history::<ShogiPos>(start, &format!("{CYCLE} 5a4a"));
    assert_eq!(h.repetition(), Repetition::CheckerLoses);
    assert_eq!(
        h.outcome(&rules),
        Some(Outcome::Win(Side::Second, WinReason::PerpetualCheck))
    );
    // The same cycle with quiet rook moves is a draw.
    let quiet = "9e8e 5a4a 8e9e 4a5a 9e8e 5a4a 8e9e 4a5a 9e8e 5a4a 8e9e 4a5a";
    let h = history::<ShogiPos>("4k4/9/9/9/R8/9/9/9/8K b - 1", quiet);
    assert_eq!(
        h.outcome(&rules),
        Some(Outcome::Draw(DrawReason::Repetition))
    );
    // Checks in only half of the cycle: a draw as well.
    let half = "6e5e 5a4a 5e6e 4a5a 6e5e 5a4a 5e6e 4a5a 6e5e 5a4a 5e6e 4a5a 6e5e";
    let h = history::<ShogiPos>(start, half);
    assert_eq!(h.repetition(), Repetition::Draw);
    // The search's cheap test (count 2) sees the first recurrence already.
    let h = history::<ShogiPos>(start, "6e5e 5a4a 5e4e 4a5a 4e5e");
    assert_eq!(
        kishi::game::history::repetition_verdict(h.positions(), 2),
        Repetition::CheckedWins
    );
}

#[test]
fn shogi_repetition_needs_equal_hands_and_side_to_move() {
    // Same board after a capture-and-recapture cycle is impossible without hands changing, so
    // compare keys directly: the same board with a different hand or side to move differs.
    let a = ShogiPos::from_text("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
    let b = ShogiPos::from_text("4k4/9/9/9/9/9/9/9/4K4 b p 1").unwrap();
    let c = ShogiPos::from_text("4k4/9/9/9/9/9/9/9/4K4 w P 1").unwrap();
    let d = ShogiPos::from_text("4k4/9/9/9/9/9/9/9/4K4 b P 7").unwrap();
    assert_ne!(a.key(), b.key());
    assert_ne!(a.key(), c.key());
    assert_eq!(
        a.key(),
        d.key(),
        "the move number is not part of the position"
    );
}

#[test]
fn shogi_max_moves_draw() {
    let rules = RuleOptions {
        max_moves_to_draw: 4,
        ..RuleOptions::default()
    };
    let h = history::<ShogiPos>("startpos", "7g7f 3c3d 2g2f");
    assert_eq!(h.outcome(&rules), None);
    let h = history::<ShogiPos>("startpos", "7g7f 3c3d 2g2f 8c8d");
    assert_eq!(h.outcome(&rules), Some(Outcome::Draw(DrawReason::MaxMoves)));
    // Mate on the last allowed move wins rather than draws.
    let rules = RuleOptions {
        max_moves_to_draw: 1,
        ..RuleOptions::default()
    };
    let h = history::<ShogiPos>("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "G*5b");
    assert_eq!(
        h.outcome(&rules),
        Some(Outcome::Win(Side::First, WinReason::Checkmate))
    );
}

// ------------------------------------------------------------------------------------------------
// Declaration.

/// Sente: king on 5c, ten tokins in camp (10 points), `hand` in hand.
fn sente_camp(hand: &str) -> ShogiPos {
    ShogiPos::from_text(&format!(
        "+P+P+P+P+P+P+P+P+P/+P8/4K4/9/9/9/9/9/4k4 b {hand} 1"
    ))
    .unwrap()
}

#[test]
fn declaration_27_point_rule_boundaries() {
    let r27 = EnteringKingRule::CsaRule27;
    // Sente needs 28: 10 + 10 + 5 + 3 = 28 wins, 27 does not.
    assert!(sente_camp("2RB3P").can_declare_win(r27));
    assert!(!sente_camp("2RB2P").can_declare_win(r27));
    // Gote needs 27: 10 + 10 + 5 + 2 = 27 wins, 26 does not.
    let gote = |hand: &str| {
        ShogiPos::from_text(&format!(
            "4K4/9/9/9/9/9/4k4/+p8/+p+p+p+p+p+p+p+p+p w {hand} 1"
        ))
        .unwrap()
    };
    assert!(gote("2rb2p").can_declare_win(r27));
    assert!(!gote("2rbp").can_declare_win(r27));
    // King outside the camp, nine pieces in camp, in check: no declaration.
    let out = ShogiPos::from_text("+P+P+P+P+P+P+P+P+P/+P8/9/4K4/9/9/9/9/4k4 b 2RB3P 1").unwrap();
    assert!(!out.can_declare_win(r27));
    let nine = ShogiPos::from_text("+P+P+P+P+P+P+P+P+P/9/4K4/9/9/9/9/9/4k4 b 2RB4P 1").unwrap();
    assert!(!nine.can_declare_win(r27));
    let checked = ShogiPos::from_text("+P+P+P+P+P+P+P+P+P/+P8/4K4/4r4/9/9/9/9/4k4 b R1B3P 1");
    // (the gote rook on 5d checks the king)
    let checked = checked.unwrap();
    assert!(checked.in_check());
    assert!(!checked.can_declare_win(r27));
    assert!(!sente_camp("2RB3P").can_declare_win(EnteringKingRule::NoEnteringKing));
}

#[test]
fn declaration_24_point_rule_boundaries() {
    let r24 = EnteringKingRule::CsaRule24;
    let win = Some(Outcome::Win(Side::First, WinReason::Declaration));
    let draw = Some(Outcome::Draw(DrawReason::Declaration));
    // 31 wins, 30 and 24 draw, 23 is nothing.
    assert_eq!(sente_camp("2RB6P").declaration_outcome(r24), win);
    assert!(sente_camp("2RB6P").can_declare_win(r24));
    assert_eq!(sente_camp("2RB5P").declaration_outcome(r24), draw);
    assert!(!sente_camp("2RB5P").can_declare_win(r24));
    assert_eq!(sente_camp("2R4P").declaration_outcome(r24), draw);
    assert_eq!(sente_camp("2R3P").declaration_outcome(r24), None);
    // The 27-point rule has no draw.
    assert_eq!(
        sente_camp("2RB2P").declaration_outcome(EnteringKingRule::CsaRule27),
        None
    );
}

#[test]
fn declaration_handicap_rules_credit_the_missing_pieces() {
    // Gote (the handicap giver) without rook and bishop in the whole game (10 points missing):
    // 10 tokins + 2 gold + 5 pawns = 17 points, 27 with the credit.
    let pos = ShogiPos::from_text("4K4/9/9/9/9/9/4k4/+p8/+p+p+p+p+p+p+p+p+p w 2g5p 1").unwrap();
    assert!(!pos.can_declare_win(EnteringKingRule::CsaRule27));
    // The pieces missing from the board and both hands: the set's 2 rooks and 2 bishops.
    assert!(pos.can_declare_win(EnteringKingRule::CsaRule27H));
    let short = ShogiPos::from_text("4K4/9/9/9/9/9/4k4/+p8/+p+p+p+p+p+p+p+p+p w 2g4p 1").unwrap();
    // 4 pawns in hand: 16 + 10 credit + (one more pawn missing from the set: +1) = 27 — the credit
    // counts every missing piece, so removing a pawn from the game costs nothing.
    assert!(short.can_declare_win(EnteringKingRule::CsaRule27H));
    // Sente gets no credit.
    assert!(!sente_camp("2G5P").can_declare_win(EnteringKingRule::CsaRule27H));
    // In an even game the H rules equal the plain ones.
    for hand in ["2RB3P", "2RB2P"] {
        assert_eq!(
            sente_camp(hand).can_declare_win(EnteringKingRule::CsaRule27H),
            sente_camp(hand).can_declare_win(EnteringKingRule::CsaRule27)
        );
    }
}

// ------------------------------------------------------------------------------------------------
// Chess outcomes with history.

#[test]
fn chess_outcomes() {
    let rules = RuleOptions::default();
    let cases: [(&str, &str, Option<Outcome>); 7] = [
        (
            "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
            "",
            Some(Outcome::Win(Side::First, WinReason::Checkmate)),
        ),
        (
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "",
            Some(Outcome::Draw(DrawReason::Stalemate)),
        ),
        (
            "startpos",
            "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
            Some(Outcome::Draw(DrawReason::Repetition)),
        ),
        ("startpos", "g1f3 g8f6 f3g1 f6g8", None),
        (
            "8/8/8/8/8/5k2/8/R3K3 w - - 99 80",
            "e1d1",
            Some(Outcome::Draw(DrawReason::FiftyMoves)),
        ),
        (
            "7k/8/6K1/8/8/8/8/R7 w - - 99 80",
            "a1a8",
            Some(Outcome::Win(Side::First, WinReason::Checkmate)),
        ),
        (
            "8/8/2b5/4k3/8/8/8/3BK3 w - - 0 1",
            "",
            Some(Outcome::Draw(DrawReason::InsufficientMaterial)),
        ),
    ];
    for (start, moves, expected) in cases {
        let h = history::<ChessPos>(start, moves);
        assert_eq!(h.outcome(&rules), expected, "{start} {moves}");
    }
    // Repetition scans stop at the last irreversible move: a pawn move in between breaks it.
    let h = history::<ChessPos>(
        "startpos",
        "g1f3 g8f6 f3g1 f6g8 e2e4 e7e5 g1f3 g8f6 f3g1 f6g8",
    );
    assert_eq!(h.outcome(&rules), None);
}

// ------------------------------------------------------------------------------------------------
// Random playouts: generator properties.

fn check_consistency<G: Game>(pos: &G, legal: &[G::Move]) {
    assert_eq!(
        legal.len() as u64,
        pos.count_legal_moves(),
        "{}",
        pos.to_text()
    );
    for &mv in legal {
        assert!(pos.is_legal(mv));
        assert_eq!(pos.decode_move(G::encode_move(mv)), Some(mv));
        assert_eq!(
            pos.gives_check(mv),
            pos.play(mv).in_check(),
            "{}",
            pos.to_text()
        );
    }
    if !pos.in_check() {
        let mut tactical = Vec::new();
        pos.tactical_moves(&mut tactical);
        let mut expected: Vec<G::Move> = legal
            .iter()
            .copied()
            .filter(|&m| pos.is_tactical(m))
            .collect();
        let key = |m: &G::Move| G::encode_move(*m);
        tactical.sort_by_key(key);
        expected.sort_by_key(key);
        assert_eq!(tactical, expected, "{}", pos.to_text());
    }
    // Random 16-bit codes decode only to legal moves.
    let mut rng = Rng(pos.key() | 1);
    for _ in 0..64 {
        let code = rng.next() as u16;
        if let Some(mv) = pos.decode_move(code) {
            assert!(legal.contains(&mv), "{} decodes {code}", pos.to_text());
        }
    }
}

/// Whether a shogi move text leaves a piece that can never move, doubles pawns, or is a pawn-drop
/// mate; checked on the position after it.
fn shogi_violation(before: &ShogiPos, mv: haitaka::Move) -> Option<String> {
    use haitaka::{Color, Piece};
    let after = before.play(mv);
    let b = after.board();
    for color in [Color::Black, Color::White] {
        let far = |sq: haitaka::Square| match color {
            Color::Black => sq.rank() as usize,
            Color::White => 8 - sq.rank() as usize,
        };
        let mut files = [0; 9];
        for sq in b.colored_pieces(color, Piece::Pawn) {
            if far(sq) == 0 {
                return Some("a pawn on its last rank".into());
            }
            files[sq.file() as usize] += 1;
        }
        if files.iter().any(|&n| n > 1) {
            return Some("nifu".into());
        }
        if b.colored_pieces(color, Piece::Lance)
            .into_iter()
            .any(|sq| far(sq) == 0)
        {
            return Some("a lance on its last rank".into());
        }
        if b.colored_pieces(color, Piece::Knight)
            .into_iter()
            .any(|sq| far(sq) <= 1)
        {
            return Some("a knight on its last two ranks".into());
        }
    }
    if let haitaka::Move::Drop {
        piece: Piece::Pawn, ..
    } = mv
    {
        if after.in_check() && after.count_legal_moves() == 0 {
            return Some("pawn-drop mate".into());
        }
    }
    None
}

#[test]
fn shogi_random_playouts_never_break_a_rule() {
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let mut positions = 0;
    let mut pawn_drop_checks = 0;
    let mut drop_mates_refused = 0;
    for game in 0..60 {
        let mut pos = ShogiPos::startpos();
        for _ply in 0..300 {
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            check_consistency(&pos, &legal);
            for &mv in &legal {
                if let Some(v) = shogi_violation(&pos, mv) {
                    panic!("{}: {} gives {v}", pos.to_text(), pos.move_text(mv));
                }
                if matches!(
                    mv,
                    haitaka::Move::Drop {
                        piece: haitaka::Piece::Pawn,
                        ..
                    }
                ) && pos.gives_check(mv)
                {
                    pawn_drop_checks += 1;
                }
            }
            // Pawn drops in front of the enemy king that are missing from the list must mate.
            if pos
                .board()
                .has_in_hand(pos.board().side_to_move(), haitaka::Piece::Pawn)
            {
                let us = pos.board().side_to_move();
                let king = pos.board().king(!us);
                for to in haitaka::pawn_attacks(!us, king) {
                    let mv = haitaka::Move::Drop {
                        piece: haitaka::Piece::Pawn,
                        to,
                    };
                    if !legal.contains(&mv) && pos.board().is_legal(mv) {
                        let after = pos.play(mv);
                        assert_eq!(after.count_legal_moves(), 0, "{}", pos.to_text());
                        drop_mates_refused += 1;
                    }
                }
            }
            positions += 1;
            if legal.is_empty() {
                break;
            }
            // Prefer checks and drops now and then, to reach the interesting positions.
            let checks: Vec<_> = legal
                .iter()
                .copied()
                .filter(|&m| pos.gives_check(m))
                .collect();
            let mv = if !checks.is_empty() && rng.below(3) == 0 {
                checks[rng.below(checks.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            pos = pos.play(mv);
        }
        let _ = game;
    }
    assert!(positions > 5_000);
    assert!(
        pawn_drop_checks > 0,
        "the playouts never tried a pawn-drop check"
    );
    eprintln!("{positions} positions, {pawn_drop_checks} pawn-drop checks, {drop_mates_refused} pawn-drop mates refused");
}

#[test]
fn chess_random_playouts_are_consistent() {
    let mut rng = Rng(0x2545f4914f6cdd1d);
    let mut positions = 0;
    for _ in 0..40 {
        let mut pos = ChessPos::startpos();
        for _ in 0..200 {
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            check_consistency(&pos, &legal);
            positions += 1;
            if legal.is_empty() {
                break;
            }
            pos = pos.play(legal[rng.below(legal.len())]);
        }
    }
    assert!(positions > 4_000);
}

#[test]
fn see_sanity() {
    // A free capture wins the piece; a defended one loses the attacker; a quiet move to a safe
    // square is 0.
    let pos = ChessPos::from_text("4k3/8/8/3p4/8/8/3Q4/4K3 w - - 0 1").unwrap();
    assert_eq!(pos.see(pos.parse_move("d2d5").unwrap()), 100);
    let pos = ChessPos::from_text("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1").unwrap();
    assert_eq!(pos.see(pos.parse_move("d2d5").unwrap()), 100 - 900);
    assert_eq!(pos.see(pos.parse_move("d2e3").unwrap()), 0);
    // Shogi: a capture gains the piece and its value in hand.
    let pos = ShogiPos::from_text("4k4/9/9/4p4/9/4R4/9/9/4K4 b - 1").unwrap();
    let mv = pos.parse_move("5f5d").unwrap();
    assert_eq!(pos.see(mv), 2 * kishi::shogi::PIECE_VALUES[0]);
    let quiet = pos.parse_move("5f4f").unwrap();
    assert_eq!(pos.see(quiet), 0);
}

// ------------------------------------------------------------------------------------------------
// Bad input.

#[test]
fn bad_shogi_texts_name_the_problem() {
    let cases: [(&str, &str); 14] = [
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
            "expected 4 fields",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
            "8 ranks",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",
            "8 squares",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppxpppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "unknown piece 'x'",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
            "side to move",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0",
            "move number",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKKSNL b - 1",
            "one king",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG1GSNL b - 1",
            "one king",
        ),
        ("P3k4/9/9/9/9/9/9/9/4K4 b - 1", "last rank"),
        ("4k4/N8/9/9/9/9/9/9/4K4 b - 1", "last two ranks"),
        ("4k4/9/9/4P4/9/9/4P4/9/4K4 b - 1", "nifu"),
        (
            "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1",
            "3 bishops (a set has 2), 3 rooks",
        ),
        ("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "19 pawns"),
        ("4k4/9/9/9/9/9/9/9/4K4 b +P 1", "in hand"),
    ];
    for (text, needle) in cases {
        let e = ShogiPos::from_text(text).expect_err(text);
        assert!(
            e.0.contains(needle),
            "{text}: '{e}' should mention '{needle}'"
        );
    }
    let pos = ShogiPos::startpos();
    let moves: [(&str, &str); 8] = [
        ("7g7e", "not a legal move"),
        ("5e5d", "no piece on the from-square"),
        ("3c3d", "opponent's"),
        ("P*5e", "no Pawn in hand"),
        ("9i9h+", "promotion outside the promotion zone"),
        ("7g", "not a USI move"),
        ("", "not a USI move"),
        ("7g7f7e", "not a USI move"),
    ];
    for (text, needle) in moves {
        let e = pos.parse_move(text).expect_err(text);
        assert!(
            e.0.contains(needle),
            "{text}: '{e}' should mention '{needle}'"
        );
    }
    let pos = ShogiPos::from_text("3lkl3/3s1s3/4G4/9/9/9/4P4/9/4K4 b P 1").unwrap();
    for (text, needle) in [
        ("P*5b", "nifu"),
        ("P*1a", "could never move"),
        ("P*5e", "nifu"),
        ("5c5e", "cannot move there"),
        ("5c5b+", "cannot promote"),
    ] {
        let e = pos.parse_move(text).expect_err(text);
        assert!(
            e.0.contains(needle),
            "{text}: '{e}' should mention '{needle}'"
        );
    }
    let pos = ShogiPos::from_text("3lkl3/3s1s3/4G4/9/9/9/9/9/4K4 b P 1").unwrap();
    let e = pos.parse_move("P*5b").unwrap_err();
    assert!(e.0.contains("uchifuzume"), "{e}");
    let pos = ShogiPos::from_text("4k4/8P/9/9/9/9/9/9/4K4 b - 1").unwrap();
    let e = pos.parse_move("1b1a").unwrap_err();
    assert!(e.0.contains("must promote"), "{e}");
}

#[test]
fn bad_chess_texts_name_the_problem() {
    let cases: [(&str, &str); 11] = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
            "expected 6 fields",
        ),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
            "7 squares",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "bad character 'X'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1",
            "one king",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",
            "one king",
        ),
        (
            "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1",
            "pawn on the first or last rank",
        ),
        (
            "8/8/8/8/8/8/P7/Kk6 w - - 0 1",
            "kings stand next to each other",
        ),
        (
            "8/8/8/8/8/8/P7/Kk6 b - - 0 1",
            "kings stand next to each other",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "invalid FEN",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "invalid FEN",
        ),
    ];
    for (text, needle) in cases {
        let e = ChessPos::from_text(text).expect_err(text);
        assert!(
            e.0.contains(needle),
            "{text}: '{e}' should mention '{needle}'"
        );
    }
    let pos = ChessPos::startpos();
    for (text, needle) in [
        ("e2e5", "not a legal move"),
        ("e3e4", "no piece on the from-square"),
        ("e7e5", "opponent's"),
        ("e2", "not a UCI move"),
        ("e2e4x", "not a UCI move"),
    ] {
        let e = pos.parse_move(text).expect_err(text);
        assert!(
            e.0.contains(needle),
            "{text}: '{e}' should mention '{needle}'"
        );
    }
}

#[test]
fn random_strings_never_panic_the_parsers() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let alphabet: Vec<char> =
        "0123456789/+-* abcdefghiklmnopqrsuvwxyzBGKLNPRSQ=#!?.;\"{}()[]同歩七成打\n"
            .chars()
            .collect();
    let seeds = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    ];
    let shogi = ShogiPos::startpos();
    let chess = ChessPos::startpos();
    for i in 0..20_000 {
        // Half the inputs are mutations of valid texts, which reach deeper into the parsers.
        let text: String = if i % 2 == 0 {
            let mut chars: Vec<char> = seeds[rng.below(seeds.len())].chars().collect();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(chars.len());
                match rng.below(3) {
                    0 => chars[at] = alphabet[rng.below(alphabet.len())],
                    1 => {
                        chars.remove(at);
                    }
                    _ => chars.insert(at, alphabet[rng.below(alphabet.len())]),
                }
            }
            chars.into_iter().collect()
        } else {
            (0..rng.below(24))
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect()
        };
        if let Ok(p) = ShogiPos::from_text(&text) {
            // Whatever parses must be usable.
            let _ = p.count_legal_moves();
            let _ = ShogiPos::from_text(&p.to_text()).expect(&text);
        }
        if let Ok(p) = ChessPos::from_text(&text) {
            let _ = p.count_legal_moves();
            let _ = ChessPos::from_text(&p.to_text()).expect(&text);
        }
        let word: String = text.chars().take(8).collect();
        let _ = shogi.parse_move(&word);
        let _ = chess.parse_move(&word);
        let _ = kishi::chess::records::pgn::parse_san(&chess, &word);
        let _ = kishi::chess::records::epd::parse_epd(&text);
        let _ = kishi::shogi::records::csa::parse_csa_move(&shogi, &word);
        let _ = kishi::game::records::parse_line::<ShogiPos>(&text);
        let _ = kishi::game::records::parse_line::<ChessPos>(&text);
        let records = std::io::Cursor::new(text.clone());
        let _ =
            kishi::game::records::collect(kishi::shogi::records::csa::CsaReader::new("f", records));
        let records = std::io::Cursor::new(text.clone());
        let _ =
            kishi::game::records::collect(kishi::shogi::records::kif::KifReader::new("f", records));
        let records = std::io::Cursor::new(text.clone());
        let _ =
            kishi::game::records::collect(kishi::chess::records::pgn::PgnReader::new("f", records));
    }
}
