//! `has_legal_move` for a side in check (`movegen::has_evasion`, used by the mate solver at every
//! new check) answers without generating moves; it must agree with full move generation. Random
//! walks from every Zukou problem: the attacker plays a random check, the defender a random
//! evasion, so almost every position tested is in check (single and double checks, pins,
//! interpositions by drops and board moves, king escapes along the checker's line).
//!
//! The evasions themselves (`shogi::evasions`, what `legal_moves` gives a side in check) must be
//! haitaka's board moves in haitaka's order: the same walks, and random games from the start
//! position (many pieces, pins, promotions), compare the two lists move by move.

use kishi::game::Game;
use kishi::mate::MateGame;
use kishi::shogi::mate::parse_problem;
use kishi::shogi::{movegen, ShogiPos};
use std::path::PathBuf;

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn evasion_test_agrees_with_move_generation() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/tsume/zukou.tsv");
    let text = std::fs::read_to_string(&path).expect("data/tsume/zukou.tsv");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut in_check, mut mated) = (0, 0);
    for line in text.lines().skip(1) {
        let sfen = line.split('\t').nth(1).expect("an sfen column");
        let root = parse_problem(sfen).expect("a valid problem");
        for _ in 0..20 {
            let mut pos = root.clone();
            for ply in 0..24 {
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                assert_eq!(moves, haitaka_order(&pos), "evasions in {}", pos.to_text());
                assert_eq!(
                    pos.has_legal_move(),
                    !moves.is_empty(),
                    "has_legal_move disagrees with generation in {}",
                    pos.to_text()
                );
                if pos.in_check() {
                    in_check += 1;
                    mated += moves.is_empty() as usize;
                }
                if ply % 2 == 0 {
                    moves.clear();
                    pos.check_moves(&mut moves);
                }
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[rng.below(moves.len())]);
            }
        }
    }
    // The walks must reach many checks and some mates, or the test says little.
    assert!(
        in_check > 10_000 && mated > 100,
        "{in_check} in check, {mated} mated"
    );
}

/// Every legal move in the order of haitaka's own generator: kishi's drops, then haitaka's board
/// moves (what `legal_moves` gave before the evasion generator).
fn haitaka_order(pos: &ShogiPos) -> Vec<haitaka::Move> {
    let mut out = Vec::new();
    movegen::generate_drops(pos.board(), |moves| {
        out.extend(moves);
        false
    });
    pos.board().generate_board_moves(|moves| {
        out.extend(moves);
        false
    });
    out
}

#[test]
fn evasions_are_haitakas_moves_in_haitakas_order() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut in_check, mut double, mut evasions) = (0, 0, 0);
    for _ in 0..300 {
        let mut pos = ShogiPos::startpos();
        for _ in 0..300 {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            if pos.in_check() {
                assert_eq!(moves, haitaka_order(&pos), "evasions in {}", pos.to_text());
                in_check += 1;
                double += (pos.board().checkers().len() > 1) as usize;
                evasions += moves.len();
            }
            if moves.is_empty() {
                break;
            }
            // Checks half of the time, so that games reach many positions in check.
            let mut checks = Vec::new();
            pos.check_moves(&mut checks);
            let pick = if !checks.is_empty() && rng.below(2) == 0 {
                checks[rng.below(checks.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos = pos.play(pick);
        }
    }
    assert!(
        in_check > 10_000 && double > 10 && evasions > 50_000,
        "{in_check} in check, {double} double checks, {evasions} evasions"
    );
}
