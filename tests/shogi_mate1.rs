//! The mate solver's check generator (`src/shogi/checks.rs`): exactly the legal moves that give
//! check, over random playouts (in check or not). And the play search's cheap mate-in-1 test (`Game::mate_in_one`, `src/shogi/mate1.rs`):
//! - sound: over random playouts, every move it returns is legal and mates (checked against full
//!   move generation);
//! - complete for what it claims to cover: whenever some contact check (a non-pawn drop or a board
//!   move onto a square next to the king, or a knight check) mates, it returns a mate (over
//!   random playouts and over check/evasion walks from every Zukou problem, where such mates are
//!   dense);
//! - the search uses it when asked (`SearchParams::mate_in_one`, USI option `Mate1Ply`): a
//!   quiescence search (captures only) then scores a drop mate as a mate, and otherwise (the
//!   default and the learner's settings) as an evaluation.

use kishi::eval::material::MaterialEval;
use kishi::game::{mate_in, Game, MATE_BOUND};
use kishi::mate::MateGame;
use kishi::search::learner::{LeafSearcher, SearchParams};
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

fn pos(sfen: &str) -> ShogiPos {
    ShogiPos::from_text(sfen).expect("valid SFEN")
}

fn mates(p: &ShogiPos, mv: haitaka::Move) -> bool {
    let after = p.play(mv);
    let mut replies = Vec::new();
    after.legal_moves(&mut replies);
    after.in_check() && replies.is_empty()
}

/// Every legal mating move, by brute force.
fn all_mates(p: &ShogiPos) -> Vec<haitaka::Move> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    moves.into_iter().filter(|&mv| mates(p, mv)).collect()
}

/// Whether `mv` is a contact check in the test's sense: onto a square next to the enemy king, or a
/// knight move or drop that checks; never a pawn drop.
fn is_contact(p: &ShogiPos, mv: haitaka::Move) -> bool {
    let board = p.board();
    let us = board.side_to_move();
    let Some(king) = board
        .colored_pieces(!us, haitaka::Piece::King)
        .next_square()
    else {
        return false;
    };
    let to = mv.to();
    let near = haitaka::king_attacks(!us, king).has(to);
    let knight = haitaka::knight_attacks(!us, king).has(to)
        && match mv {
            haitaka::Move::Drop { piece, .. } => piece == haitaka::Piece::Knight,
            haitaka::Move::BoardMove {
                from, promotion, ..
            } => board.piece_on(from) == Some(haitaka::Piece::Knight) && !promotion,
        };
    let pawn_drop = matches!(
        mv,
        haitaka::Move::Drop {
            piece: haitaka::Piece::Pawn,
            ..
        }
    );
    (near || knight) && !pawn_drop
}

#[test]
fn known_mates_and_non_mates() {
    // Gold dropped on the king's head, protected by a pawn.
    let p = pos("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    let mv = p.mate_in_one().expect("G*5b mates");
    assert_eq!(p.move_text(mv), "G*5b");
    // Without the protecting pawn the king takes the gold: no mate.
    assert!(pos("4k4/9/9/9/9/9/9/9/4K4 b G 1").mate_in_one().is_none());
    // Only a pawn drop would mate (illegal): the test must not return it.
    assert!(pos("7nk/9/7S1/9/9/9/9/9/4K4 b P 1").mate_in_one().is_none());
    // A board move: the gold steps onto the king's head (5c5b), protected by the silver on 6c.
    let p = pos("4k4/9/3SG4/9/9/9/9/9/4K4 b - 1");
    if let Some(mv) = p.mate_in_one() {
        assert!(mates(&p, mv), "{}", p.move_text(mv));
    }
    assert_eq!(
        p.mate_in_one().is_some(),
        all_mates(&p).iter().any(|&m| is_contact(&p, m)),
        "contact mates {:?}",
        all_mates(&p)
            .iter()
            .map(|&m| p.move_text(m))
            .collect::<Vec<_>>()
    );
    // The side to move in check: no answer (a check must be met first).
    assert!(pos("4k4/9/4P4/9/9/9/9/4r4/4K4 b G 1")
        .mate_in_one()
        .is_none());
}

#[test]
fn random_playouts_sound_and_complete_for_contact_checks() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut positions, mut with_mate, mut contact, mut found) = (0u32, 0u32, 0u32, 0u32);
    for _ in 0..120 {
        let mut p = ShogiPos::startpos();
        for _ in 0..160 {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            if !p.in_check() {
                positions += 1;
                let mating = all_mates(&p);
                let answer = p.mate_in_one();
                if let Some(mv) = answer {
                    assert!(
                        p.is_legal(mv) && mates(&p, mv),
                        "{} is not a legal mate in {}",
                        p.move_text(mv),
                        p.to_text()
                    );
                    found += 1;
                }
                if !mating.is_empty() {
                    with_mate += 1;
                }
                if mating.iter().any(|&m| is_contact(&p, m)) {
                    contact += 1;
                    assert!(
                        answer.is_some(),
                        "missed a contact mate ({}) in {}",
                        mating
                            .iter()
                            .map(|&m| p.move_text(m))
                            .collect::<Vec<_>>()
                            .join(" "),
                        p.to_text()
                    );
                }
            }
            p = p.play(moves[rng.below(moves.len())]);
        }
    }
    // The playouts must have exercised the test (random play leaves kings open).
    assert!(
        contact >= 50,
        "only {contact} positions with a contact mate"
    );
    println!(
        "{positions} positions, {with_mate} with a mate in 1, {contact} by a contact check, \
         {found} found by mate_in_one"
    );
}

/// The same soundness and completeness where mates are dense: random check/evasion walks from
/// every Zukou problem (tsume positions: hand pieces, pinned and discovering pieces next to the
/// king, lines through the king's square). Catches a shortcut that rejects a mating candidate
/// without playing it on a wrong reason (e.g. a flight square counted as open although a
/// discovered check's line covers it through the king's square).
#[test]
fn zukou_walks_sound_and_complete_for_contact_checks() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/tsume/zukou.tsv");
    let text = std::fs::read_to_string(&path).expect("data/tsume/zukou.tsv");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut positions, mut contact) = (0u32, 0u32);
    for line in text.lines().skip(1) {
        let sfen = line.split('\t').nth(1).expect("an sfen column");
        let root = kishi::shogi::mate::parse_problem(sfen).expect("a valid problem");
        for _ in 0..24 {
            let mut p = root.clone();
            for ply in 0..16 {
                let mut moves = Vec::new();
                if ply % 2 == 0 {
                    positions += 1;
                    let answer = p.mate_in_one();
                    if let Some(mv) = answer {
                        assert!(p.is_legal(mv) && mates(&p, mv), "{}", p.to_text());
                    }
                    let mating = all_mates(&p);
                    if mating.iter().any(|&m| is_contact(&p, m)) {
                        contact += 1;
                        assert!(answer.is_some(), "missed a contact mate in {}", p.to_text());
                    }
                    p.check_moves(&mut moves);
                } else {
                    p.legal_moves(&mut moves);
                }
                if moves.is_empty() {
                    break;
                }
                p = p.play(moves[rng.below(moves.len())]);
            }
        }
    }
    assert!(
        contact >= 1000,
        "only {contact} of {positions} positions with a contact mate"
    );
}

#[test]
fn quiescence_scores_a_drop_mate_only_with_the_test_on() {
    // Quiescence searches captures only: the gold drop is invisible to it without the test.
    let p = pos("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    let with_test = SearchParams {
        mate_in_one: true,
        ..SearchParams::default()
    };
    let mut play = LeafSearcher::new(with_test, 1);
    let r = play.search_full(&MaterialEval, &p, 0).expect("moves");
    assert_eq!(r.score, mate_in(1));
    assert_eq!(
        r.pv.iter().map(|&m| p.move_text(m)).collect::<Vec<_>>(),
        ["G*5b"]
    );
    for params in [SearchParams::learner(), SearchParams::default()] {
        let mut without = LeafSearcher::new(params, 1);
        let r = without.search_full(&MaterialEval, &p, 0).expect("moves");
        assert!(r.score.abs() < MATE_BOUND, "{}", r.score);
    }
    // Full-depth search finds it either way, with the same mate score.
    let r = play.search_full(&MaterialEval, &p, 2).expect("moves");
    assert_eq!(r.score, mate_in(1));
}

#[test]
fn check_generator_gives_exactly_the_legal_checks() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut positions, mut checks, mut in_check) = (0u32, 0usize, 0u32);
    for _ in 0..100 {
        let mut p = ShogiPos::startpos();
        for _ in 0..180 {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mut want: Vec<String> = moves
                .iter()
                .filter(|&&mv| p.play(mv).in_check())
                .map(|&mv| p.move_text(mv))
                .collect();
            let mut got = Vec::new();
            p.check_moves(&mut got);
            let mut got: Vec<String> = got.iter().map(|&mv| p.move_text(mv)).collect();
            want.sort();
            got.sort();
            assert_eq!(got, want, "in {}", p.to_text());
            positions += 1;
            checks += want.len();
            in_check += p.in_check() as u32;
            p = p.play(moves[rng.below(moves.len())]);
        }
    }
    assert!(
        checks > 10_000 && in_check > 100,
        "{checks} checks, {in_check} in check"
    );
    println!("{positions} positions ({in_check} in check), {checks} checking moves");
}

/// The solver writes each child into a slot that held some other position (`MateGame::
/// play_into`): the result must be exactly `play`'s, whatever the slot held before (board, hands,
/// side to move, key, checkers and pins, which the legal moves depend on). And it derives each
/// child's board key from its parent's (`MateGame::child_board_key`): drops and captures change
/// the mover's hand, which the board key leaves out.
#[test]
fn play_into_a_used_slot_equals_play() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut slot = ShogiPos::startpos();
    let mut compared = 0u32;
    for _ in 0..40 {
        let mut p = ShogiPos::startpos();
        for _ in 0..150 {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let want = p.play(mv);
                slot.play_into(&p, mv);
                assert_eq!(
                    slot.to_text(),
                    want.to_text(),
                    "{} in {}",
                    p.move_text(mv),
                    p.to_text()
                );
                assert_eq!(slot.key(), want.key());
                assert_eq!(slot.in_check(), want.in_check());
                let (mut a, mut b) = (Vec::new(), Vec::new());
                slot.legal_moves(&mut a);
                want.legal_moves(&mut b);
                assert_eq!(a, b, "after {} in {}", p.move_text(mv), p.to_text());
                // The child's board key from the parent's (`MateGame::child_board_key`), which
                // the solver uses for every child, is the one computed from scratch.
                let derived = p.child_board_key(p.board_key(), p.hand_effect(mv), &want);
                assert_eq!(
                    derived,
                    want.board_key(),
                    "{} in {}",
                    p.move_text(mv),
                    p.to_text()
                );
                compared += 1;
            }
            let mv = moves[rng.below(moves.len())];
            p = p.play(mv);
        }
    }
    assert!(compared > 10_000, "only {compared} moves compared");
}
