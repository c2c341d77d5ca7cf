//! The known-endgame rules of `chess::endgame`: which positions they cover, the direction of the
//! drive (bishop-and-knight mates in the bishop's corner, other mates on an edge), stalemate,
//! colour symmetry, and — what they exist for — the built-in evaluation mating a bare king with
//! bishop and knight, bishops, a rook, a queen or a winning pawn within the fifty-move rule at a
//! fixed node count.

mod eval_util;

use eval_util::fen_colour_reversed;
use kishi::chess::endgame::{adjust, KNOWN_WIN};
use kishi::chess::{ChessEval, ChessPos};
use kishi::eval::GameEval;
use kishi::game::{Game, GameHistory, Outcome, Side, WinReason};
use kishi::search::{Engine, Limits};

fn pos(fen: &str) -> ChessPos {
    ChessPos::from_text(fen).unwrap_or_else(|e| panic!("{e}: {fen}"))
}

/// The built-in evaluation from the side to move.
fn eval(fen: &str) -> i32 {
    ChessPos::default_eval().evaluate_scratch(&pos(fen))
}

#[test]
fn the_rules_cover_a_bare_king_against_mating_material_only() {
    let covered = [
        "8/8/8/3k4/8/8/8/KR6 w - - 0 1",
        "8/8/8/3k4/8/8/8/KQ6 b - - 0 1",
        "8/8/8/3k4/8/8/8/KBN5 w - - 0 1",
        "8/8/8/3k4/8/8/8/KBB5 w - - 0 1",
        "8/8/8/3k4/8/8/4P3/KR6 w - - 0 1",
        "kr6/8/8/3K4/8/8/8/8 w - - 0 1",
    ];
    for fen in covered {
        let b = pos(fen);
        let white_strong = b.board().colors(cozy_chess::Color::Black).len() == 1;
        let moved = adjust(b.board(), 17) - 17;
        let toward_strong = if white_strong { moved } else { -moved };
        assert!(toward_strong >= KNOWN_WIN, "{fen}: {moved}");
    }
    let not_covered = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "8/8/8/3k4/8/8/8/KNN5 w - - 0 1",
        // Two bishops on one colour (b1 and d1 are both light squares).
        "8/8/8/3k4/8/8/8/KB1B4 w - - 0 1",
        "8/8/8/3k4/8/8/8/KB6 w - - 0 1",
        // Pawns only (one pawn is the KPK bitbase's, tests/eval_chess_kpk.rs).
        "8/8/8/3k4/8/8/3PP3/K7 w - - 0 1",
        "8/8/8/3k4/3p4/8/8/KR6 w - - 0 1",
        "8/8/8/3k4/8/8/8/K7 w - - 0 1",
    ];
    for fen in not_covered {
        assert_eq!(adjust(pos(fen).board(), 17), 17, "{fen}");
    }
}

#[test]
fn bishop_and_knight_drive_towards_a_corner_of_the_bishops_colour() {
    // Dark bishop (c1): a1 and h8 are the mating corners, a8 and h1 are not.
    let dark = |k: &str| format!("{k}/8/8/8/8/8/8/2B1KN2 w - - 0 1");
    let right = eval(&dark("7k"));
    let wrong = eval(&dark("k7"));
    let centre = eval("8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1");
    assert!(right > wrong + 300, "{right} {wrong}");
    assert!(right > centre, "{right} {centre}");
    // Light bishop (f1): the other two corners.
    let light = |k: &str| format!("{k}/8/8/8/8/8/8/4KBN1 w - - 0 1");
    let right = eval(&light("k7"));
    let wrong = eval(&light("7k"));
    assert!(right > wrong + 300, "{right} {wrong}");
}

#[test]
fn other_mates_drive_towards_the_edge_and_the_kings_together() {
    // The rule's own term (the learned part set to 0), white's view.
    let rule = |fen: &str| adjust(pos(fen).board(), 0);
    // Kings two squares apart both times; the defending king on the edge, then in the centre.
    let edge = rule("R7/8/8/8/8/3K4/8/3k4 w - - 0 1");
    let centre = rule("R7/8/8/3k4/8/3K4/8/8 w - - 0 1");
    assert!(edge > centre + 50, "{edge} {centre}");
    // A corner more than the middle of an edge.
    let corner = rule("7R/8/8/8/8/8/2K5/k7 w - - 0 1");
    let side = rule("7R/8/8/8/8/8/5K2/3k4 w - - 0 1");
    assert!(corner > side, "{corner} {side}");
    // The defending king in the centre, the attacking king two and four squares away.
    let near = rule("8/8/8/3k4/8/3K4/8/R7 w - - 0 1");
    let far = rule("8/8/8/3k4/8/8/8/R6K w - - 0 1");
    assert!(near > far, "{near} {far}");
    // The built-in evaluation keeps the order of the edge and the centre.
    assert!(
        eval("R7/8/8/8/8/3K4/8/3k4 w - - 0 1") > eval("R7/8/8/3k4/8/3K4/8/8 w - - 0 1"),
        "edge against centre"
    );
}

#[test]
fn a_stalemated_bare_king_scores_a_draw() {
    // Black to move, not in check, no legal move.
    assert_eq!(eval("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), 0);
    // The same material with a legal move left is a known win for white.
    assert!(eval("7k/8/6K1/5Q2/8/8/8/8 b - - 0 1") <= -KNOWN_WIN);
}

#[test]
fn the_rules_are_colour_symmetric() {
    for fen in [
        "8/8/8/3k4/8/8/8/KBN5 w - - 0 1",
        "8/8/8/3k4/8/8/8/1B2K2N b - - 0 1",
        "8/8/8/8/1k6/8/4K3/7R w - - 0 1",
        "8/8/2k5/8/8/8/4K3/1BB5 b - - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    ] {
        assert_eq!(eval(fen), eval(&fen_colour_reversed(fen)), "{fen}");
    }
}

/// Plays the position out with the built-in evaluation on both sides at `nodes` a move and
/// returns the number of moves white needed to mate, or `None` if it did not within 50 moves.
fn moves_to_mate(fen: &str, nodes: u64) -> Option<usize> {
    let mut engine: Engine<ChessPos, ChessEval> = Engine::new(ChessPos::default_eval(), 1, 16);
    let mut history = GameHistory::new(pos(fen));
    let limits = Limits {
        nodes: Some(nodes),
        ..Default::default()
    };
    for ply in 0..100usize {
        if let Some(outcome) = history.current().position_outcome() {
            return match outcome {
                Outcome::Win(Side::First, WinReason::Checkmate) => Some(ply.div_ceil(2)),
                _ => None,
            };
        }
        let r = engine.search_sync(&history, &limits, Box::new(|_| {}));
        history.push(r.best.expect("a legal move"));
    }
    None
}

#[test]
fn the_built_in_evaluation_mates_a_bare_king() {
    // Far from the mating corner or edge; both bishop colours; the defending king starting in
    // the wrong corner, in the centre and next to the attacking pieces.
    let problems = [
        "8/8/8/4k3/8/8/8/KBN5 w - - 0 1",
        "k7/8/8/8/8/8/8/2B1KN2 w - - 0 1",
        "7k/8/8/8/8/8/8/4KBN1 w - - 0 1",
        "8/8/8/8/8/2k5/8/NB4K1 w - - 0 1",
        "8/8/8/3k4/8/8/8/KBB5 w - - 0 1",
        "8/8/8/4k3/8/8/8/R6K w - - 0 1",
        "8/8/8/3k4/8/8/8/Q6K w - - 0 1",
        // King and pawn (won by the rule of the square): promote, then mate.
        "7k/8/8/8/8/8/P6K/8 w - - 0 1",
    ];
    let failed: Vec<&str> = problems
        .into_iter()
        .filter(|fen| moves_to_mate(fen, 20_000).is_none())
        .collect();
    assert!(failed.is_empty(), "not mated within 50 moves: {failed:?}");
}
