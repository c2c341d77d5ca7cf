//! Shogi `bonanza` evaluation: the incremental accumulator equals a from-scratch one after every
//! move (random playouts and real games), anti-symmetry under colour reversal, left-right mirror
//! symmetry, and the learner's feature vector reproducing the evaluation exactly. All with every
//! table (KP, KKP, KPP) filled with random weights expanded from independent parameters.

mod eval_util;

use eval_util::*;
use kishi::eval::rng::SplitMix64;
use kishi::eval::{evaluate_features, Evaluator, FeatureSet, Weights};
use kishi::game::Game;
use kishi::shogi::features::{random_params, Bonanza};
use kishi::shogi::ShogiEval;
use kishi::shogi::ShogiPos;
use std::sync::{Arc, OnceLock};

struct Fixture {
    params: Vec<i32>,
    eval: ShogiEval,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        // A wide spread makes any wrong term visible in the sums.
        let params = random_params(7, 2000);
        let w = Weights::from_params::<ShogiPos, Bonanza>(&params, "{}").expect("weights");
        Fixture {
            params,
            eval: ShogiEval::new(Arc::new(w)),
        }
    })
}

/// Walks a line of play updating incrementally; checks every ply against a refresh.
fn check_line(
    eval: &ShogiEval,
    positions: &[ShogiPos],
    moves: &[haitaka::Move],
    null_every: usize,
) {
    let mut acc = Default::default();
    eval.refresh(&positions[0], &mut acc);
    for (i, &mv) in moves.iter().enumerate() {
        let mut next = Default::default();
        eval.update(&positions[i], mv, &positions[i + 1], &acc, &mut next);
        let mut fresh = Default::default();
        eval.refresh(&positions[i + 1], &mut fresh);
        let (a, b): (&kishi::shogi::features::BonanzaAcc, _) = (&next, &fresh);
        assert_eq!(
            a.sums(),
            b.sums(),
            "incremental != scratch after {} in {}",
            positions[i].move_text(mv),
            positions[i].to_text()
        );
        assert_eq!(
            eval.evaluate(&positions[i + 1], &next),
            eval.evaluate_scratch(&positions[i + 1])
        );
        if null_every > 0 && i % null_every == 0 {
            if let Some(np) = positions[i + 1].play_null() {
                let mut nacc = Default::default();
                eval.update_null(&np, &next, &mut nacc);
                assert_eq!(eval.evaluate(&np, &nacc), eval.evaluate_scratch(&np));
            }
        }
        acc = next;
    }
}

#[test]
fn incremental_equals_scratch_on_2000_random_playouts() {
    let f = fixture();
    let mut rng = SplitMix64::new(2024);
    let mut plies = 0;
    for _ in 0..2000 {
        let (positions, moves) = random_playout::<ShogiPos>(&mut rng, 160);
        plies += moves.len();
        check_line(&f.eval, &positions, &moves, 17);
    }
    assert!(plies > 100_000, "playouts too short: {plies} plies");
}

#[test]
fn incremental_equals_scratch_on_500_real_records() {
    let f = fixture();
    // All full games in ../shared/data (179 GPS self-play games + 3 samples), then one-move
    // records from the GPS opening book to make 500 records.
    let mut lines = read_lines("shogi/gps_selfplay_train.txt.xz", 500);
    lines.extend(read_lines("shogi/shogi_sample_games.txt", 500));
    let need = 500usize.saturating_sub(lines.len());
    lines.extend(
        read_lines("shogi/gps_book_positions.txt.xz", 20_000)
            .into_iter()
            .step_by(37)
            .take(need),
    );
    assert_eq!(lines.len(), 500);
    let mut plies = 0;
    for line in &lines {
        let (positions, moves) = replay::<ShogiPos>(line);
        plies += moves.len();
        check_line(&f.eval, &positions, &moves, 0);
    }
    assert!(plies > 10_000, "{plies} plies");
}

fn sample_positions(n: usize, seed: u64) -> Vec<ShogiPos> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let len = 10 + rng.below(150);
        let (positions, _) = random_playout::<ShogiPos>(&mut rng, len);
        out.push(positions.last().expect("nonempty").clone());
    }
    out
}

#[test]
fn colour_reversal_negates_the_evaluation() {
    let f = fixture();
    for pos in sample_positions(300, 11) {
        let text = pos.to_text();
        let rev = ShogiPos::from_text(&sfen_colour_reversed(&text))
            .unwrap_or_else(|e| panic!("{e} from {text}"));
        // From the side to move, the reversed position is the same position: equal scores. From
        // black's view (the paper's statement) that is e(p) = -e(reversed p).
        assert_eq!(
            f.eval.evaluate_scratch(&pos),
            f.eval.evaluate_scratch(&rev),
            "{text}"
        );
        assert_ne!(pos.side_to_move(), rev.side_to_move());
    }
}

#[test]
fn mirror_symmetry() {
    let f = fixture();
    let mut nonzero = 0;
    for pos in sample_positions(300, 12) {
        let text = pos.to_text();
        let mir = ShogiPos::from_text(&sfen_mirrored(&text)).unwrap_or_else(|e| panic!("{e}"));
        let e = f.eval.evaluate_scratch(&pos);
        nonzero += (e != 0) as usize;
        assert_eq!(e, f.eval.evaluate_scratch(&mir), "{text}");
    }
    assert!(nonzero > 250, "evaluations are suspiciously zero");
}

#[test]
fn feature_vector_reproduces_the_evaluation() {
    let f = fixture();
    let mut feats = Vec::new();
    for pos in sample_positions(200, 13) {
        Bonanza::features(&pos, &mut feats);
        assert!(feats.windows(2).all(|w| w[0].0 < w[1].0), "sorted, merged");
        assert!(feats
            .iter()
            .all(|&(i, _)| (i as usize) < Bonanza::num_params()));
        assert_eq!(
            evaluate_features::<ShogiPos, Bonanza>(&f.params, &feats),
            f.eval.evaluate_scratch(&pos),
            "{}",
            pos.to_text()
        );
    }
}

#[test]
fn breakdown_adds_up_and_handset_is_material() {
    let pos =
        ShogiPos::from_text("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGS1L b N 1")
            .expect("sfen");
    // The hand-set tables (the learner's start) are Bonanza's material; the built-in default is
    // the learned file (tests/shipped_weights.rs).
    let d = kishi::eval::LinearEval::<ShogiPos, Bonanza>::new(Arc::new(
        kishi::eval::handset_weights::<ShogiPos, Bonanza>(),
    ));
    let acc_eval = d.evaluate_scratch(&pos);
    assert_eq!(
        acc_eval,
        pos.material(),
        "the hand-set tables are Bonanza's material"
    );
    let b = d.breakdown(&pos);
    assert_eq!(b.last().expect("total").1, acc_eval);
    let f = fixture();
    let b = f.eval.breakdown(&pos);
    let parts: i32 = b[..4].iter().map(|x| x.1).sum();
    // Each part is truncated on its own: the sum is within 3 of the total.
    assert!((parts - b[4].1).abs() <= 3, "{b:?}");
}

/// The table of a parameter index (parameter order: material, KP, KKP, KPP).
fn table_of(i: u32) -> usize {
    use kishi::shogi::features::{OFF_KKP, OFF_KP, OFF_KPP};
    let i = i as usize;
    [OFF_KP, OFF_KKP, OFF_KPP]
        .iter()
        .filter(|&&o| i >= o)
        .count()
}

#[test]
fn features_of_some_tables_are_the_full_features_restricted() {
    // The self-play learners extract features only of the tables they learn.
    let masks = [
        [true, true, false, false],
        [true, false, true, false],
        [true, false, false, true],
        [true, true, true, true],
    ];
    let (mut full, mut some) = (Vec::new(), Vec::new());
    for pos in sample_positions(100, 14) {
        Bonanza::features(&pos, &mut full);
        for mask in &masks {
            Bonanza::features_some(&pos, mask, &mut some);
            let want: Vec<(u32, i32)> = full
                .iter()
                .copied()
                .filter(|&(i, _)| mask[table_of(i)])
                .collect();
            let got: Vec<(u32, i32)> = some
                .iter()
                .copied()
                .filter(|&(i, _)| mask[table_of(i)])
                .collect();
            assert_eq!(got, want, "{mask:?} {}", pos.to_text());
            // (Equal material cancels out: a table of a few entries can be all there is.)
            assert!(want.len() > 5, "{mask:?} {want:?}");
        }
    }
}

#[test]
fn unmerged_features_merge_into_the_features() {
    // MMTO's step 1 reads a leaf's features unmerged (kishi::learn::step1::leaf_of): merged, they
    // must be exactly `features`, and every weighted sum over them the same.
    let (mut full, mut raw) = (Vec::new(), Vec::new());
    let params = random_params(9, 1000);
    let (mut unsorted, mut few_runs, mut scratch) = (0, 0, Vec::new());
    for pos in sample_positions(100, 15) {
        Bonanza::features(&pos, &mut full);
        Bonanza::features_unmerged(&pos, &mut raw);
        if raw.windows(2).any(|w| w[0].0 >= w[1].0) {
            unsorted += 1;
        }
        let sum = |v: &[(u32, i32)]| -> i64 {
            v.iter()
                .map(|&(i, c)| params[i as usize] as i64 * c as i64)
                .sum()
        };
        assert_eq!(sum(&raw), sum(&full), "{}", pos.to_text());
        // Step 1 merges the extraction's ascending runs instead of sorting.
        let descents = raw.windows(2).filter(|w| w[1].0 < w[0].0).count();
        if descents < 8 {
            few_runs += 1;
        }
        let mut runs = raw.clone();
        kishi::eval::merge_feature_runs(&mut runs, &mut scratch);
        assert_eq!(runs, full, "{}", pos.to_text());
        kishi::eval::merge_features(&mut raw);
        assert_eq!(raw, full, "{}", pos.to_text());
    }
    // Otherwise the test would not tell the two lists apart.
    assert!(unsorted > 50, "{unsorted}");
    // A few runs (material, KP and KPP of each view, KKP), so the merge path ran, not its
    // fallback to sorting.
    assert_eq!(few_runs, 100);
}

#[test]
fn merging_runs_equals_sorting_for_any_list() {
    // Few runs, many runs (the fallback), repeated and cancelling indices, empty lists.
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut scratch = Vec::new();
    for case in 0..400 {
        let runs = 1 + (next() % 60) as usize;
        let mut v = Vec::new();
        for _ in 0..runs {
            let len = (next() % 40) as usize;
            let mut run: Vec<(u32, i32)> = (0..len)
                .map(|_| ((next() % 300) as u32, (next() % 5) as i32 - 2))
                .collect();
            run.sort_by_key(|f| f.0);
            v.extend(run);
        }
        let mut want = v.clone();
        kishi::eval::merge_features(&mut want);
        kishi::eval::merge_feature_runs(&mut v, &mut scratch);
        assert_eq!(v, want, "case {case}");
    }
}

#[test]
fn weights_from_known_zero_tables_equal_the_full_build() {
    // Material + KP random, KKP and KPP zero (the self-play learner's tables): the fast build that
    // is told KKP/KPP are zero gives the same image as the full one, and both leave them out.
    use kishi::shogi::features::OFF_KKP;
    let mut params = random_params(21, 300);
    params[OFF_KKP..].iter_mut().for_each(|v| *v = 0);
    let full = Weights::from_params::<ShogiPos, Bonanza>(&params, "{}").expect("full");
    let fast = Weights::from_params_known_zero::<ShogiPos, Bonanza>(
        &params,
        &[false, false, true, true],
        "{}",
    )
    .expect("fast");
    assert_eq!(full.image(), fast.image());
    assert!(full.has(1) && !full.has(2) && !full.has(3));
    // Expanding some tables equals those of the full expansion.
    let all = Bonanza::expand(&params).expect("expand");
    let some = Bonanza::expand_some(&params, &[false, true, false, false]).expect("some");
    assert!(some[0].is_none() && some[2].is_none() && some[3].is_none());
    match (&all[1], &some[1]) {
        (kishi::eval::OwnedTable::I16(a), Some(kishi::eval::OwnedTable::I16(b))) => {
            assert_eq!(a, b)
        }
        _ => panic!("kp must be an i16 table in both"),
    }
}
