//! The `initiative` chess terms count what their names say for the side ahead in material, and
//! nothing for the other side or with material level, on hand-made positions.

use kishi::chess::features::*;
use kishi::chess::ChessPos;
use kishi::eval::{FeatureSet, Weights};
use kishi::game::Game;

fn pos(fen: &str) -> ChessPos {
    ChessPos::from_text(fen).unwrap_or_else(|e| panic!("{e}: {fen}"))
}

fn counts(fen: &str, white: bool) -> [i32; N_INIT] {
    initiative_counts(&pos(fen), white)
}

#[test]
fn level_material_counts_nothing() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        // A knight for a bishop, pawns level: level by the material count.
        "4k3/pp6/8/3n4/8/2B5/PP6/4K3 w - - 0 1",
    ] {
        assert_eq!(counts(fen, true), [0; N_INIT], "{fen}");
        assert_eq!(counts(fen, false), [0; N_INIT], "{fen}");
    }
}

#[test]
fn rook_and_pawn_against_rook_with_the_king_in_front() {
    // White: Ke6 Re1 Pe5; black: Ke8 Rh2. White is a pawn up; black's king stands on e8, on the
    // e-pawn's path.
    let fen = "4k3/8/4K3/4P3/8/8/7r/4R3 w - - 0 1";
    assert_eq!(counts(fen, false), [0; N_INIT], "black is behind");
    let c = counts(fen, true);
    assert_eq!(c[I_AHEAD], 1);
    assert_eq!(c[I_PAWNS], 1);
    assert_eq!(c[I_OWN_PAWNS], 1);
    // e5 is passed (nothing in front on d/e/f).
    assert_eq!(c[I_PASSED], 1);
    assert_eq!(c[I_THEIR_PASSED], 0);
    // Kings on e6 and e8: file distance 0, rank distance 2.
    assert_eq!(c[I_OUTFLANKING], -2);
    assert_eq!(c[I_BOTH_FLANKS], 0);
    // White's king on the sixth rank is in black's half.
    assert_eq!(c[I_INFILTRATION], 1);
    assert_eq!(c[I_PAWNS_ONLY], 0);
    assert_eq!(c[I_UNWINNABLE], 1);
    assert_eq!(c[I_LEAD], 1, "a lead of one pawn");
    assert_eq!(c[I_LEAD + 1] + c[I_LEAD + 2] + c[I_LEAD + 3], 0);
    assert_eq!(c[I_KING_IN_FRONT], 1);
}

#[test]
fn pawns_on_both_flanks_and_the_lead() {
    // Black: a rook and four pawns (a7 b7 g7 h6) against white's bishop and two pawns (a2 h2):
    // black 9 against white 5, a lead of 4. Kings on g1 and g8 (same file, 7 ranks apart).
    let fen = "r5k1/pp4p1/7p/8/8/8/P6P/2B3K1 b - - 0 1";
    assert_eq!(counts(fen, true), [0; N_INIT]);
    let c = counts(fen, false);
    assert_eq!(c[I_PAWNS], 6);
    assert_eq!(c[I_OWN_PAWNS], 4);
    assert_eq!(c[I_PASSED], 0);
    assert_eq!(c[I_OUTFLANKING], -7);
    assert_eq!(c[I_BOTH_FLANKS], 1);
    assert_eq!(c[I_UNWINNABLE], 0, "pawns on both flanks");
    assert_eq!(c[I_INFILTRATION], 0);
    assert_eq!(c[I_LEAD + 3], 1, "a lead of four or more");
    // White's king on g1 stands on the g7 pawn's path (however far).
    assert_eq!(c[I_KING_IN_FRONT], 1);
}

#[test]
fn a_pawn_endgame_with_passers_on_both_sides() {
    // White: Kd5, pawns b5 and g4; black: Kf6, pawn h7. White's b-pawn is passed; g4 stands
    // ahead of h7 on the next file, so neither g4 nor h7 is passed.
    let fen = "8/7p/5k2/1P1K4/6P1/8/8/8 w - - 0 1";
    let c = counts(fen, true);
    assert_eq!(c[I_PAWNS_ONLY], 1);
    assert_eq!(c[I_PASSED], 1, "only b5");
    assert_eq!(c[I_THEIR_PASSED], 0);
    assert_eq!(c[I_BOTH_FLANKS], 1);
    // Kings d5/f6: file distance 2, rank distance 1.
    assert_eq!(c[I_OUTFLANKING], 1);
    assert_eq!(c[I_INFILTRATION], 1, "Kd5 is in black's half");
}

/// The evaluation with only an `initiative` weight set equals what the feature vector says, and
/// turning the board around (colours swapped) turns the score's sign from white's view.
#[test]
fn the_table_moves_the_evaluation_as_its_features_say() {
    let mut params = vec![0i32; N_PARAMS];
    // An endgame weight on "ahead" and on "the king in front": only the endgame half counts,
    // scaled by the taper.
    params[OFF_INIT + N_INIT + I_AHEAD] = 32 * 40;
    params[OFF_INIT + N_INIT + I_KING_IN_FRONT] = -32 * 30;
    let w = Weights::from_params::<ChessPos, ChessFeatures>(&params, "{}").expect("weights");
    let eval = |fen: &str| {
        let p = pos(fen);
        let mut acc = Default::default();
        ChessFeatures::refresh(&w, &p, &mut acc);
        ChessFeatures::evaluate(&w, &p, &acc)
    };
    // Rook and pawn against rook, white to move: +40 − 30 = +10 cp in the endgame half; the
    // phase is 4 (two rooks) of 24 and the scale factor 36 + 7 = 43 of 64, so the score is
    // trunc(10 · 20 · 43 / (24 · 64)) = 5.
    let fen = "4k3/8/4K3/4P3/8/8/7r/4R3 w - - 0 1";
    assert_eq!(eval(fen), 10 * 20 * 43 / (24 * 64));
    // The same from black's side (to move): −5.
    assert_eq!(
        eval("4k3/8/4K3/4P3/8/8/7r/4R3 b - - 0 1"),
        -(10 * 20 * 43 / (24 * 64))
    );
    // Colours swapped (ranks flipped), black to move: the side ahead is to move, +5 again.
    assert_eq!(
        eval("4r3/7R/8/8/4p3/4k3/8/4K3 b - - 0 1"),
        10 * 20 * 43 / (24 * 64)
    );
    // The feature vector says the same.
    let p = pos(fen);
    let mut f = Vec::new();
    ChessFeatures::features(&p, &mut f);
    let dot: i64 = f
        .iter()
        .map(|&(i, c)| params[i as usize] as i64 * c as i64)
        .sum();
    assert_eq!(dot / ChessFeatures::SCALE as i64, eval(fen) as i64);
}

/// The table is endgame-only: its middlegame weights move neither the evaluation nor appear in
/// the feature vector (a two-phase fit learned that a material lead is cheap in the middlegame,
/// and the engine gave pawns away).
#[test]
fn the_middlegame_half_is_unused() {
    let fen = "r3k3/pp6/8/8/8/8/PPP5/R3K3 w - - 0 1";
    assert_eq!(counts(fen, true)[I_AHEAD], 1, "white is a pawn up");
    let mut params = vec![0i32; N_PARAMS];
    for i in 0..N_INIT {
        params[OFF_INIT + i] = 32 * 100;
    }
    let w = Weights::from_params::<ChessPos, ChessFeatures>(&params, "{}").expect("weights");
    let p = pos(fen);
    let mut acc = Default::default();
    ChessFeatures::refresh(&w, &p, &mut acc);
    assert_eq!(ChessFeatures::evaluate(&w, &p, &acc), 0);
    let mut f = Vec::new();
    ChessFeatures::features(&p, &mut f);
    assert!(
        f.iter()
            .all(|&(i, _)| !(OFF_INIT..OFF_INIT + N_INIT).contains(&(i as usize))),
        "no middlegame feature of the table"
    );
    assert!(
        f.iter()
            .any(|&(i, _)| (OFF_INIT + N_INIT..N_PARAMS).contains(&(i as usize))),
        "its endgame features are there"
    );
}
