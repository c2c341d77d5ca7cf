//! Futile interpositions (無駄合, `MateGame::is_futile`): a drop between a distant checker and the
//! king that the checker takes for nothing is no defence by the convention of mate problems, so a
//! mate line never plays one and ends where only such drops are left. Checked move by move on
//! hand-made positions, through `verify_mate_line`, and on the solver's answer.

use kishi::game::Game;
use kishi::mate::{solve, verify_mate_line, MateGame, MateLimits, MateResult};
use kishi::shogi::mate::parse_problem;
use kishi::shogi::ShogiPos;
use std::sync::atomic::AtomicBool;

fn mv(pos: &ShogiPos, text: &str) -> <ShogiPos as Game>::Move {
    pos.parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Gote's king on 1a; sente's rook on 9a checks along the top rank; sente's gold on 2c covers 1b
/// and 2b, sente's silver on 3b covers 2a (next to the king) and 4a. Gote holds gold and silver.
const CHECKED: &str = "R7k/6S2/7G1/9/9/9/9/9/K8 w 2g2s 1";

#[test]
fn drops_the_checker_takes_for_nothing_are_futile() {
    let pos = ShogiPos::from_text(CHECKED).expect("a valid position");
    assert!(pos.in_check());
    // Nothing of gote's guards 3a..8a.
    for sq in ["3a", "4a", "5a", "8a"] {
        assert!(pos.is_futile(mv(&pos, &format!("G*{sq}"))), "G*{sq}");
        assert!(pos.is_futile(mv(&pos, &format!("S*{sq}"))), "S*{sq}");
    }
    // 2a: the king guards it, so it is a defence (even though the silver protects the rook's
    // capture there: another piece may have to take it).
    assert!(!pos.is_futile(mv(&pos, "G*2a")));
    // A gote silver on 6b guards 5a and 7a: drops there can be taken back.
    let guarded = ShogiPos::from_text("R7k/3s2S2/7G1/9/9/9/9/9/K8 w 2gs 1").expect("valid");
    assert!(!guarded.is_futile(mv(&guarded, "G*5a")));
    assert!(!guarded.is_futile(mv(&guarded, "G*7a")));
    assert!(guarded.is_futile(mv(&guarded, "G*4a")));
    // Board moves are never futile interpositions.
    assert!(!guarded.is_futile(mv(&guarded, "6b5a")));
}

#[test]
fn a_mate_line_ends_where_only_futile_drops_are_left() {
    // Gote holds only a pawn and has one on file 2 (so P*2a would be a second pawn on the file):
    // after R*9a every answer is a pawn on 3a..8a, all futile, and by the convention the line is
    // mate in one. A line that plays a futile drop and its capture is refused.
    let root = ShogiPos::from_text("8k/6S2/7G1/7p1/9/9/9/9/K8 b Rp 1").expect("valid");
    let r9a = mv(&root, "R*9a");
    assert_eq!(verify_mate_line(&root, &[r9a]), Ok(1));
    let after = root.play(r9a);
    let p4a = mv(&after, "P*4a");
    let take = mv(&after.play(p4a), "9a4a");
    let err = verify_mate_line(&root, &[r9a, p4a, take]).expect_err("a futile drop played");
    assert!(err.contains("futile"), "{err}");
    // With a gold in hand, G*2a (which the king guards) is a defence: R*9a alone is no mate.
    let root2 = ShogiPos::from_text("8k/6S2/7G1/7p1/9/9/9/9/K8 b Rg 1").expect("valid");
    assert!(verify_mate_line(&root2, &[mv(&root2, "R*9a")]).is_err());
}

#[test]
fn the_solver_does_not_count_futile_drops() {
    // A tsume (no sente king): the rook's step to 9a, checking along the top rank, is the only
    // mate in one or three (the pawn on 8b bars rank b; the silver's and gold's checks next to
    // the king are taken). Gote's answers are drops: on 2a (the king guards it; the rook takes
    // it, protected by the silver, and mates) or futile ones on 3a..8a. The build before this
    // rule answered 15 plies, a pawn dropped on every square of the rank in turn.
    let pos = parse_problem("8k/RP4S2/7G1/9/9/9/9/9/9 b - 1").expect("a problem");
    let stop = AtomicBool::new(false);
    let limits = MateLimits {
        nodes: Some(200_000),
        ..Default::default()
    };
    let report = solve(&pos, &limits, &stop).expect("solvable");
    let MateResult::Mate(pv) = &report.result else {
        panic!("{:?}", report.result)
    };
    assert_eq!(verify_mate_line(&pos, pv), Ok(pv.len()));
    let texts: Vec<String> = {
        let mut cur = pos.clone();
        pv.iter()
            .map(|&m| {
                let t = cur.move_text(m);
                cur = cur.play(m);
                t
            })
            .collect()
    };
    assert_eq!(pv.len(), 3, "{texts:?}");
    assert!(
        texts[0].starts_with("9b9a") && texts[1].ends_with("*2a"),
        "{texts:?}"
    );
    // The solver's lengths do not count the futile drops either, so the shortest-mate search
    // shows this 3-ply PV is the shortest (the build before counted them: a 15-ply bound, and
    // the 3-ply PV was reported as not shown shortest).
    assert!(report.shortest_proven, "shortest not shown");
}
