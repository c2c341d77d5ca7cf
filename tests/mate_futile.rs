//! Futile interpositions (無駄合, `MateGame::is_futile`): a drop between a distant checker and the
//! king that the checker takes for nothing is no defence by the convention of mate problems, so a
//! mate line never plays one and ends where only such drops are left. Under
//! `FutileRule::NextToKing` (the Shogi Zukou source's convention) so is a drop next to the king
//! that the checker takes with mate at once; by default (the miniosl suite's) that is a defence. Checked move by move on
//! hand-made positions, through `verify_mate_line`, and on the solver's answer.

use kishi::game::Game;
use kishi::mate::{
    solve, verify_mate_line, verify_mate_line_with, FutileRule, MateGame, MateLimits, MateResult,
};
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
    let (unguarded, next_to_king) = (FutileRule::Unguarded, FutileRule::NextToKing);
    for sq in ["3a", "4a", "5a", "8a"] {
        for rule in [unguarded, next_to_king] {
            assert!(pos.is_futile(mv(&pos, &format!("G*{sq}")), rule), "G*{sq}");
            assert!(pos.is_futile(mv(&pos, &format!("S*{sq}")), rule), "S*{sq}");
        }
    }
    // 2a: the king guards it, so by default it is a defence; but the rook's capture there
    // (protected by the silver, 1b and 2b covered by the gold) mates at once, so under the
    // Zukou convention it is futile.
    assert!(!pos.is_futile(mv(&pos, "G*2a"), unguarded));
    assert!(pos.is_futile(mv(&pos, "G*2a"), next_to_king));
    assert!(pos.is_futile(mv(&pos, "S*2a"), next_to_king));
    // Without the silver the king takes the rook on 2a: a defence under both rules.
    let unprotected = ShogiPos::from_text("R7k/9/7G1/9/9/9/9/9/K8 w 2g3s 1").expect("valid");
    assert!(!unprotected.is_futile(mv(&unprotected, "G*2a"), next_to_king));
    assert!(unprotected.is_futile(mv(&unprotected, "G*4a"), next_to_king));
    // Off the top ranks the rook does not promote as it takes: on 2e, protected by a silver on
    // 3d, it leaves the king 1d and 1f, so a drop on 2e is a defence (on 2a above the rook took
    // as a dragon, which covers every square next to the king).
    let escape = ShogiPos::from_text("9/9/9/6S2/R7k/9/9/9/K8 w 3g2s 1").expect("valid");
    assert!(escape.in_check());
    assert!(!escape.is_futile(mv(&escape, "G*2e"), next_to_king));
    assert!(escape.is_futile(mv(&escape, "G*5e"), next_to_king));
    // A gote silver on 6b guards 5a and 7a: drops there can be taken back.
    let guarded = ShogiPos::from_text("R7k/3s2S2/7G1/9/9/9/9/9/K8 w 2gs 1").expect("valid");
    for rule in [unguarded, next_to_king] {
        assert!(!guarded.is_futile(mv(&guarded, "G*5a"), rule));
        assert!(!guarded.is_futile(mv(&guarded, "G*7a"), rule));
        assert!(guarded.is_futile(mv(&guarded, "G*4a"), rule));
        // Board moves are never futile interpositions.
        assert!(!guarded.is_futile(mv(&guarded, "6b5a"), rule));
    }
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
    // With a gold in hand gote can also drop on 2a, next to the king: by default a defence, so
    // R*9a alone is no mate; under the Zukou convention the rook's capture there, protected by
    // the silver, mates, so that drop is futile too and R*9a is mate.
    let root2 = ShogiPos::from_text("8k/6S2/7G1/7p1/9/9/9/9/K8 b Rg 1").expect("valid");
    let r9a = [mv(&root2, "R*9a")];
    assert!(verify_mate_line(&root2, &r9a).is_err());
    assert_eq!(
        verify_mate_line_with(&root2, &r9a, FutileRule::NextToKing),
        Ok(1)
    );
    // Without the silver the king would take the rook there: no mate under either rule.
    let root3 = ShogiPos::from_text("8k/9/7G1/7p1/9/9/9/9/K8 b Rg 1").expect("valid");
    let r9a = [mv(&root3, "R*9a")];
    let err = verify_mate_line_with(&root3, &r9a, FutileRule::NextToKing).expect_err("G*2a");
    assert!(err.contains("not mate"), "{err}");
}

/// The solver's PV of `pos` under `rule`, as move texts, checked as a mate line under that rule;
/// and whether it was shown to be the shortest.
fn solve_texts(pos: &ShogiPos, rule: FutileRule) -> (Vec<String>, bool) {
    let stop = AtomicBool::new(false);
    let limits = MateLimits {
        nodes: Some(200_000),
        futile: rule,
        ..Default::default()
    };
    let report = solve(pos, &limits, &stop).expect("solvable");
    let MateResult::Mate(pv) = &report.result else {
        panic!("{:?}", report.result)
    };
    assert_eq!(verify_mate_line_with(pos, pv, rule), Ok(pv.len()));
    let mut cur = pos.clone();
    let texts = pv
        .iter()
        .map(|&m| {
            let t = cur.move_text(m);
            cur = cur.play(m);
            t
        })
        .collect();
    (texts, report.shortest_proven)
}

#[test]
fn the_solver_does_not_count_futile_drops() {
    // A tsume (no sente king): the rook's step to 9a, checking along the top rank, is the only
    // mate in one or three (the pawn on 8b bars rank b; the silver's and gold's checks next to
    // the king are taken). Gote's answers are drops: on 2a (the king guards it; the rook takes
    // it, protected by the silver, and mates) or futile ones on 3a..8a. The build before the
    // rule answered 15 plies, a pawn dropped on every square of the rank in turn.
    let pos = parse_problem("8k/RP4S2/7G1/9/9/9/9/9/9 b - 1").expect("a problem");
    let (texts, shortest) = solve_texts(&pos, FutileRule::Unguarded);
    assert_eq!(texts.len(), 3, "{texts:?}");
    assert!(
        texts[0].starts_with("9b9a") && texts[1].ends_with("*2a"),
        "{texts:?}"
    );
    // The solver's lengths do not count the futile drops either, so the shortest-mate search
    // shows this 3-ply PV is the shortest (the build before counted them: a 15-ply bound, and
    // the 3-ply PV was reported as not shown shortest).
    assert!(shortest, "shortest not shown");
    // Under the Zukou convention the drop on 2a is futile too: 9b9a is mate in one.
    let (texts, shortest) = solve_texts(&pos, FutileRule::NextToKing);
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(texts[0].starts_with("9b9a"), "{texts:?}");
    assert!(shortest, "shortest not shown");
}
