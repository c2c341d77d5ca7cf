//! Search tests: mates found with mate scores (chess mates in 1-3, every tsume problem of 1 and 3
//! plies in `shared/data/suites/tsume_miniosl.tsv`), stalemate and repetition scored as draws,
//! a deterministic one-thread node count, legal moves from a two-thread search, node limits, and
//! the move of an iteration stopped by one.

use kishi::chess::ChessPos;
use kishi::eval::material::MaterialEval;
use kishi::game::{mate_in, mated_in, Game, GameHistory, MATE_BOUND};
use kishi::search::{Bound, Engine, Info, Limits, SearchOutcome};
use kishi::shogi::ShogiPos;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

fn search<G: Game>(history: &GameHistory<G>, depth: u32, threads: usize) -> SearchOutcome<G::Move> {
    let mut engine: Engine<G, MaterialEval> = Engine::new(MaterialEval, threads, 16);
    engine.search_sync(history, &Limits::depth(depth), Box::new(|_| {}))
}

fn chess(fen: &str) -> GameHistory<ChessPos> {
    GameHistory::new(ChessPos::from_text(fen).expect("valid FEN"))
}

fn best_text<G: Game>(h: &GameHistory<G>, r: &SearchOutcome<G::Move>) -> String {
    h.current().move_text(r.best.expect("a best move"))
}

#[test]
fn chess_mate_in_one() {
    let h = chess("6k1/5ppp/8/8/8/8/8/R6K w - - 0 1");
    let r = search(&h, 4, 1);
    assert_eq!(best_text(&h, &r), "a1a8");
    assert_eq!(r.score, mate_in(1));
}

#[test]
fn chess_mate_in_two() {
    let h = chess("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1");
    let r = search(&h, 6, 1);
    assert_eq!(r.score, mate_in(3), "best {}", best_text(&h, &r));
}

#[test]
fn chess_mate_in_three() {
    let h = chess("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1");
    let r = search(&h, 8, 1);
    assert_eq!(r.score, mate_in(5), "best {}", best_text(&h, &r));
}

#[test]
fn a_mated_root_has_no_move_and_a_mating_reply_is_seen() {
    // White is checkmated: no move to play.
    let h = chess("6k1/8/8/8/8/8/5PPP/r5K1 w - - 0 1");
    assert_eq!(search(&h, 4, 1).best, None);
    // White to move: every move allows Ra1 mate except giving the king air... here none do.
    let h = chess("6k1/8/8/8/8/8/r4PPP/6K1 w - - 0 1");
    let r = search(&h, 5, 1);
    assert!(r.score > mated_in(3), "score {}", r.score);
}

#[test]
fn stalemate_trap_scores_zero() {
    // Black, a queen down, checks with the rook until White must take it and stalemate Black.
    let h = chess("k7/2Q5/1K6/8/8/8/8/r7 b - - 0 1");
    let r = search(&h, 14, 1);
    assert_eq!(r.score, 0, "best {}", best_text(&h, &r));
}

#[test]
fn repetition_draw_scores_zero() {
    // Black, a rook down, can repeat the position for the third time with Kd8-e8.
    let start = ChessPos::from_text("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    let h =
        GameHistory::from_moves(start, "a1a2 e8d8 a2a1 d8e8 a1a2 e8d8 a2a1".split(' ')).unwrap();
    let r = search(&h, 6, 1);
    assert_eq!(best_text(&h, &r), "d8e8");
    assert_eq!(r.score, 0);
}

fn tsume_rows() -> Vec<(String, String, usize, Vec<String>)> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/suites/tsume_miniosl.tsv");
    let text = std::fs::read_to_string(&path).expect("tsume suite");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().expect("mate plies"),
                f[4].split_whitespace().map(String::from).collect(),
            )
        })
        .collect()
}

#[test]
fn tsume_mates_in_one_and_three_are_solved() {
    let mut solved = 0;
    for (id, sfen, plies, winning) in tsume_rows() {
        if plies > 3 {
            continue;
        }
        let h =
            GameHistory::new(ShogiPos::from_text(&sfen).unwrap_or_else(|e| panic!("{id}: {e}")));
        let r = search(&h, plies as u32 + 2, 1);
        let mv = best_text(&h, &r);
        assert!(
            winning.contains(&mv),
            "{id}: played {mv}, winning moves {winning:?}"
        );
        assert_eq!(r.score, mate_in(plies), "{id}: {sfen}");
        solved += 1;
    }
    assert!(solved >= 25, "only {solved} problems read");
}

#[test]
fn one_thread_bench_node_count_is_deterministic() {
    let run = || {
        let mut out = Vec::new();
        kishi::search::bench::run::<ChessPos, _>(MaterialEval, 6, 1, 8, &mut out)
            .unwrap()
            .nodes
    };
    let a = run();
    assert!(a > 1000);
    assert_eq!(a, run());
}

#[test]
fn two_threads_play_legal_moves_with_sane_scores() {
    // 25 chess and 25 shogi positions from real games.
    let mut n = 0;
    for line in std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/data/shogi/shogi_sample_games.txt"),
    )
    .unwrap()
    .lines()
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let moves = &f[f.iter().position(|&t| t == "moves").unwrap() + 1..];
        let mut h = GameHistory::new(ShogiPos::startpos());
        for (i, m) in moves.iter().enumerate() {
            let mv = h.current().parse_move(m).unwrap();
            h.push(mv);
            if i % 12 == 11 && n < 25 {
                let r = search(&h, 5, 2);
                let best = r.best.expect("a move");
                assert!(h.current().is_legal(best));
                assert!(
                    r.score.abs() < 5000 || r.score.abs() >= MATE_BOUND,
                    "score {}",
                    r.score
                );
                n += 1;
            }
        }
    }
    for fen in kishi::search::bench::CHESS_POSITIONS
        .iter()
        .cycle()
        .take(25)
    {
        let h = chess(fen);
        let r = search(&h, 7, 2);
        assert!(h.current().is_legal(r.best.expect("a move")));
        assert!(r.score.abs() < 3000 || r.score.abs() >= MATE_BOUND);
        n += 1;
    }
    assert!(n >= 50, "{n}");
}

#[test]
fn null_move_positions_only_allow_legal_replies() {
    // After a pass, every legal reply must leave a valid position (the replying side's king is not
    // left in check): haitaka's own null move got the pins wrong.
    let line = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/data/shogi/shogi_sample_games.txt"),
    )
    .unwrap();
    let mut checked = 0;
    for l in line.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        let moves = &f[f.iter().position(|&t| t == "moves").unwrap() + 1..];
        let h = GameHistory::from_moves(ShogiPos::startpos(), moves.iter().copied()).unwrap();
        for pos in h.positions() {
            let Some(null) = pos.play_null() else {
                continue;
            };
            let mut replies = Vec::new();
            null.legal_moves(&mut replies);
            for mv in replies {
                let child = null.play(mv);
                assert!(
                    ShogiPos::from_text(&child.to_text()).is_ok(),
                    "{} after pass then {}",
                    pos.to_text(),
                    null.move_text(mv)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000);
}

/// `go nodes N` with one thread searches N nodes, not N rounded up to the counter's batch of
/// 1,024 (a limit of 700 searched 1,024 nodes, one of 5,000 searched 5,120); a limit too small
/// for the first iteration still finishes that iteration (a move and a score), and no more.
#[test]
fn a_node_limit_stops_at_the_limit() {
    let h = chess("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let run = |limit: u64| {
        let mut engine: Engine<ChessPos, MaterialEval> = Engine::new(MaterialEval, 1, 16);
        let limits = Limits {
            nodes: Some(limit),
            ..Limits::default()
        };
        engine.search_sync(&h, &limits, Box::new(|_| {}))
    };
    for limit in [700u64, 5000] {
        let r = run(limit);
        assert_eq!(r.nodes, limit, "limit {limit}");
        assert!(r.best.is_some() && r.depth >= 2, "limit {limit}: {r:?}");
    }
    let depth1 = search(&h, 1, 1);
    let tiny = run(1);
    assert_eq!(tiny.depth, 1, "{tiny:?}");
    assert_eq!((tiny.best, tiny.score), (depth1.best, depth1.score));
    // The first iteration's nodes and at most one more (the check after it stops the next).
    assert!(
        tiny.nodes <= depth1.nodes + 1,
        "{} > {} + 1",
        tiny.nodes,
        depth1.nodes
    );
}

/// The `info` lines of a one-thread search of `h` under `limits` and its outcome.
fn search_with_infos(
    h: &GameHistory<ChessPos>,
    limits: &Limits<<ChessPos as Game>::Move>,
) -> (Vec<Info>, SearchOutcome<<ChessPos as Game>::Move>) {
    let infos = Arc::new(Mutex::new(Vec::new()));
    let sink = infos.clone();
    let mut engine: Engine<ChessPos, MaterialEval> = Engine::new(MaterialEval, 1, 16);
    let r = engine.search_sync(
        h,
        limits,
        Box::new(move |i| sink.lock().expect("not poisoned").push(i.clone())),
    );
    let infos = infos.lock().expect("not poisoned").clone();
    (infos, r)
}

/// A search stopped inside an iteration plays the move that iteration found when that move beat
/// the previous best (the iteration's first line searched to the end, then a better one): with
/// one thread the tree up to N nodes is the same with or without a limit of N, so a limit inside
/// an iteration whose best move changed sees the change before the iteration ends (it did not
/// before: only finished iterations counted, and such a limit played the older move).
#[test]
fn a_stopped_iteration_plays_the_move_it_found() {
    let fens = [
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "r1b2rk1/ppq1bppp/2n1pn2/3p4/2PP4/2N1PN2/PPQ2PPP/R1B1KB1R w KQ - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "2kr3r/ppp2ppp/2n5/2b1p3/4P1q1/2NP1N2/PPP2PPP/R1BQ1RK1 b - - 0 1",
    ];
    let mut seen = 0;
    for fen in fens {
        let h = chess(fen);
        let (infos, _) = search_with_infos(&h, &Limits::depth(9));
        // (depth, nodes at its end, best move) of each finished iteration.
        let done: Vec<(u32, u64, String)> = infos
            .iter()
            .filter(|i| i.bound == Bound::Exact && !i.pv.is_empty())
            .map(|i| (i.depth, i.nodes, i.pv[0].clone()))
            .collect();
        for w in done.windows(2) {
            let ((_, before, old), (depth, end, new)) = (&w[0], &w[1]);
            if old == new || end - before < 64 {
                continue;
            }
            for j in 1..16u64 {
                let limit = before + (end - before) * j / 16;
                let (infos, r) = search_with_infos(
                    &h,
                    &Limits {
                        nodes: Some(limit),
                        ..Limits::default()
                    },
                );
                let played = best_text(&h, &r);
                // Inside the iteration: the last finished one's move, or what this one found.
                assert!(
                    r.depth == *depth || (played == *old && r.depth == depth - 1),
                    "{fen}, limit {limit}: {played} at depth {}, iterations {old} -> {new}",
                    r.depth
                );
                // The last line reported is the move played.
                let last = infos.last().expect("an info line");
                assert_eq!(
                    (last.depth, &last.pv[0]),
                    (r.depth, &played),
                    "{fen}, {limit}"
                );
                if played == *new && r.depth == *depth {
                    seen += 1;
                }
            }
        }
    }
    assert!(
        seen > 0,
        "no node limit inside an iteration played the move that iteration found"
    );
}

/// Positions of seeded random playouts of `plies` moves (fewer when a game ends first).
fn playout_positions<G: Game>(start: &G, n: usize, plies: usize, seed: u64) -> Vec<G> {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..n {
        let mut pos = start.clone();
        for _ in 0..next() % plies + 1 {
            moves.clear();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[next() % moves.len()]);
        }
        out.push(pos);
    }
    out
}

/// Searches `pos` with a new leaf searcher and with `reused`; both must give the same result.
/// Returns whether there was one to compare (a position with no legal move has none).
fn same_as_fresh<G: Game, E: kishi::eval::Evaluator<G>>(
    reused: &mut kishi::search::learner::LeafSearcher,
    eval: &E,
    pos: &G,
    (depth, alpha, beta): (i32, i32, i32),
) -> bool {
    use kishi::search::learner::{LeafSearcher, SearchParams};
    let fresh = LeafSearcher::new(SearchParams::learner(), 1).search(eval, pos, depth, alpha, beta);
    let again = reused.search(eval, pos, depth, alpha, beta);
    match (fresh, again) {
        (Some(a), Some(b)) => {
            assert_eq!((a.score, &a.pv), (b.score, &b.pv), "{}", pos.to_text());
            assert_eq!(a.leaf.key(), b.leaf.key(), "{}", pos.to_text());
            true
        }
        (a, b) => {
            assert_eq!(a.is_none(), b.is_none(), "{}", pos.to_text());
            false
        }
    }
}

#[test]
fn a_reused_leaf_searcher_searches_as_a_fresh_one() {
    // The learners' searcher keeps its buffers from one search to the next (search::learner):
    // every search must still be the one a new searcher makes, whatever came before it, here
    // shogi and chess searches of several depths and windows interleaved on one searcher.
    use kishi::eval::GameEval;
    use kishi::search::learner::{LeafSearcher, SearchParams};
    let shogi_eval = <ShogiPos as GameEval>::default_eval();
    let chess_eval = <ChessPos as GameEval>::default_eval();
    let shogi = playout_positions(&ShogiPos::startpos(), 40, 60, 3);
    let chess = playout_positions(&ChessPos::startpos(), 40, 40, 4);
    let mut reused = LeafSearcher::new(SearchParams::learner(), 1);
    let mut compared = 0;
    for k in 0..shogi.len() {
        // Narrow windows too: a fail-soft bound depends on the move order, which history sets.
        let (alpha, beta) = [(-30_000, 30_000), (-50, 50), (0, 1)][k % 3];
        let search = ((k % 4) as i32, alpha, beta);
        compared += same_as_fresh(&mut reused, &shogi_eval, &shogi[k], search) as usize;
        compared += same_as_fresh(&mut reused, &chess_eval, &chess[k], search) as usize;
    }
    assert!(compared > 60, "{compared}");
}
