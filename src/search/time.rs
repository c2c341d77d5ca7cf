//! Time management: turns the clock of a `go` command into a soft limit (checked between iterations,
//! stretched or shrunk by best-move stability) and a hard limit (checked inside the search), for
//! sudden death with increment, moves-to-go, and shogi byoyomi. With byoyomi alone there is no
//! soft limit: time left unused is lost, so the search runs to the hard limit, as with `movetime`,
//! and the iteration it stops in still counts when it found something (`pvs::Searcher::iterate`).

use super::{Clock, TimeOptions};
use crate::game::search_params::{
    COUNT, TIME_BYOYOMI_MAIN_DIV, TIME_CAP_DIV, TIME_HARD_MUL, TIME_INC_PERCENT, TIME_MOVES_TO_GO,
};
use crate::game::{Side, MATE_BOUND};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeBudget {
    /// Aim: stop starting new iterations after this many milliseconds; `u64::MAX` when only the
    /// hard limit applies (byoyomi alone).
    pub soft_ms: u64,
    /// Never search longer than this.
    pub hard_ms: u64,
}

/// Computes the budget for the side to move. Every margin is taken off the hard limit so the move
/// arrives before the flag falls, even when the GUI or server adds delay. `params` are the search
/// parameters (`game::search_params`), of which the `TIME_*` ones are read here.
pub fn budget(clock: &Clock, side: Side, opts: &TimeOptions, params: &[i32; COUNT]) -> TimeBudget {
    // The table keeps every value inside its range (divisors at least 1); max(1) guards anyway.
    let p = |i: usize| params[i].max(0) as u64;
    let s = side.index();
    let time = clock.time_ms[s];
    let inc = clock.inc_ms[s];
    let byoyomi = clock.byoyomi_ms[s];
    let overhead = opts.move_overhead_ms.max(opts.network_delay_ms);
    let min_think = opts.minimum_thinking_ms;
    let slow = opts.slow_mover_percent.clamp(10, 1000) as u64;

    let (soft, hard) = if byoyomi > 0 {
        // Main time then a fixed time per move. Byoyomi left unused is lost, so aim to use most of
        // it; spend main time gradually.
        let margin = opts
            .network_delay2_ms
            .max(overhead)
            .min((time + byoyomi) / 2);
        let hard = (time + byoyomi).saturating_sub(margin);
        let soft = if time == 0 {
            // Byoyomi alone: stopping early saves nothing, and an iteration that will not finish
            // may still change the move (with a soft limit here the search stopped starting
            // iterations after half the byoyomi, and used 50-85% of it at 1 s).
            u64::MAX
        } else {
            ((time / p(TIME_BYOYOMI_MAIN_DIV).max(1) + byoyomi).saturating_sub(margin) * slow / 100)
                .min(hard)
        };
        (soft, hard)
    } else {
        // Sudden death (with increment, or with moves to go).
        let mtg = clock
            .movestogo
            .map_or(p(TIME_MOVES_TO_GO), |m| m.clamp(1, 50) as u64)
            .max(1);
        let usable = time.saturating_sub(overhead);
        let soft = (usable / mtg + inc * p(TIME_INC_PERCENT) / 100) * slow / 100;
        // Never plan to use more than a fraction of what is left.
        let cap = if clock.movestogo == Some(1) {
            usable * 9 / 10
        } else {
            usable / p(TIME_CAP_DIV).max(1) + inc / 2
        };
        let hard = (soft * p(TIME_HARD_MUL)).min(cap).min(usable);
        (soft.min(hard), hard)
    };
    let hard = hard.max(min_think.min(time + byoyomi + inc)).max(1);
    let soft = if soft == u64::MAX {
        soft
    } else {
        soft.max(min_think).min(hard)
    };
    TimeBudget {
        soft_ms: soft,
        hard_ms: hard,
    }
}

/// The soft limit's factor for a falling evaluation (`TimeFalling`: `scale` centipawns, 0 for
/// off, which gives 1): more time when the best score `score` lies below the last search's
/// (`last_search`, weighted twice) and below this search's four iterations back (`four_back`),
/// less when it lies above them, so the search looks longer exactly where its move is turning out
/// worse than it thought (Stockfish 15.1's `fallingEval`). A score of `i32::MIN` (none yet) or a
/// mate score counts as no change.
pub fn falling_eval_factor(scale: i32, score: i32, last_search: i32, four_back: i32) -> f64 {
    if scale <= 0 || score.abs() >= MATE_BOUND {
        return 1.0;
    }
    let drop = |s: i32| {
        if s == i32::MIN || s.abs() >= MATE_BOUND {
            0.0
        } else {
            (s - score) as f64
        }
    };
    let d = (2.0 * drop(last_search) + drop(four_back)) / 3.0;
    (1.0 + d / (2.0 * scale as f64)).clamp(0.6, 1.6)
}

/// The soft limit's factor from the best root move's share of the nodes (`TimeNodes`: `weight`
/// in percent, 0 for off, which gives 1; so does `total` 0): `max(0.5, 0.4 + 2·(1 − share))`
/// (Ethereal's), moved toward 1 by the weight. A best move that took most of the nodes has
/// been searched and kept against the others' refutations cheaply, so the search stops sooner;
/// one that took few shares the tree with alternatives that needed deep searches to refute.
pub fn node_share_factor(weight: i32, best_nodes: u64, total: u64) -> f64 {
    if weight <= 0 || total == 0 {
        return 1.0;
    }
    let share = (best_nodes.min(total)) as f64 / total as f64;
    let factor = (0.4 + 2.0 * (1.0 - share)).max(0.5);
    1.0 + weight as f64 / 100.0 * (factor - 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::search_params::{defaults, STANDARD};

    fn budget(clock: &Clock, side: Side, opts: &TimeOptions) -> TimeBudget {
        super::budget(clock, side, opts, &defaults(&STANDARD))
    }

    #[test]
    fn a_falling_score_buys_time_and_a_rising_one_saves_it() {
        // Off, or nothing to compare with: no change.
        assert_eq!(falling_eval_factor(0, -100, 100, 100), 1.0);
        assert_eq!(falling_eval_factor(30, 50, i32::MIN, i32::MIN), 1.0);
        assert_eq!(falling_eval_factor(30, 50, 50, 50), 1.0);
        // 30 cp below both: 1 + 30 / 60.
        assert_eq!(falling_eval_factor(30, 20, 50, 50), 1.5);
        // The last search's score weighs twice this search's older one.
        let last = falling_eval_factor(30, 20, 50, 20);
        let older = falling_eval_factor(30, 20, 20, 50);
        assert!(last > older && older > 1.0, "{last} {older}");
        // A rise saves time, within the clamps.
        assert!(falling_eval_factor(30, 80, 50, 50) < 1.0);
        assert_eq!(falling_eval_factor(30, -500, 500, 500), 1.6);
        assert_eq!(falling_eval_factor(30, 500, -500, -500), 0.6);
        // Mate scores are no evidence either way.
        assert_eq!(falling_eval_factor(30, MATE_BOUND + 5, 0, 0), 1.0);
        assert_eq!(
            falling_eval_factor(30, 0, MATE_BOUND + 5, MATE_BOUND + 5),
            1.0
        );
    }

    #[test]
    fn a_contested_best_move_buys_time_and_a_settled_one_saves_it() {
        // Off, or nothing counted: no change.
        assert_eq!(node_share_factor(0, 10, 100), 1.0);
        assert_eq!(node_share_factor(100, 0, 0), 1.0);
        // Full weight: Ethereal's factor. 70% of the nodes: 0.4 + 0.6 = 1.0.
        assert!((node_share_factor(100, 70, 100) - 1.0).abs() < 1e-12);
        assert!((node_share_factor(100, 20, 100) - 2.0).abs() < 1e-12);
        // Nearly all the nodes: the floor of one half.
        assert_eq!(node_share_factor(100, 99, 100), 0.5);
        // Half the weight, half the move away from 1.
        assert!((node_share_factor(50, 20, 100) - 1.5).abs() < 1e-12);
        // The factor falls as the share rises.
        let f: Vec<f64> = (0..=10)
            .map(|k| node_share_factor(100, k * 10, 100))
            .collect();
        assert!(f.windows(2).all(|w| w[0] >= w[1]), "{f:?}");
    }

    fn opts() -> TimeOptions {
        TimeOptions {
            move_overhead_ms: 50,
            network_delay_ms: 0,
            network_delay2_ms: 0,
            minimum_thinking_ms: 0,
            slow_mover_percent: 100,
        }
    }

    #[test]
    fn time_spent_before_the_search_comes_off_main_time_then_byoyomi() {
        let mut c = Clock {
            time_ms: [30, 5000],
            inc_ms: [0, 0],
            byoyomi_ms: [1000, 1000],
            movestogo: None,
        };
        c.spend(Side::First, 20);
        assert_eq!((c.time_ms, c.byoyomi_ms), ([10, 5000], [1000, 1000]));
        c.spend(Side::First, 40);
        assert_eq!((c.time_ms, c.byoyomi_ms), ([0, 5000], [970, 1000]));
        c.spend(Side::Second, 100);
        assert_eq!((c.time_ms, c.byoyomi_ms), ([0, 4900], [970, 1000]));
        c.spend(Side::First, 5000);
        assert_eq!((c.time_ms, c.byoyomi_ms), ([0, 4900], [0, 1000]));
        // Less byoyomi, less time to search.
        let hard = |byoyomi: u64| {
            let clock = Clock {
                byoyomi_ms: [byoyomi, 1000],
                ..c
            };
            budget(&clock, Side::First, &opts()).hard_ms
        };
        assert!(hard(900) < hard(1000));
    }

    #[test]
    fn byoyomi_only_uses_the_byoyomi_less_the_margin() {
        let c = Clock {
            time_ms: [0, 0],
            inc_ms: [0, 0],
            byoyomi_ms: [1000, 1000],
            movestogo: None,
        };
        let b = budget(&c, Side::First, &opts());
        assert_eq!(b.hard_ms, 950);
        // No soft limit: the byoyomi is spent, not saved.
        assert_eq!(b.soft_ms, u64::MAX);
        // With main time left the soft limit saves it.
        let main = Clock {
            time_ms: [60_000, 60_000],
            ..c
        };
        let b = budget(&main, Side::First, &opts());
        assert!(b.soft_ms < b.hard_ms, "{b:?}");
    }

    #[test]
    fn sudden_death_never_plans_to_spend_the_whole_clock() {
        let c = Clock {
            time_ms: [1000, 60_000],
            inc_ms: [0, 0],
            byoyomi_ms: [0, 0],
            movestogo: None,
        };
        let b = budget(&c, Side::First, &opts());
        assert!(b.hard_ms <= 400, "{b:?}");
        let b2 = budget(&c, Side::Second, &opts());
        assert!(b2.soft_ms > b.soft_ms);
        assert!(b2.hard_ms < 60_000 / 2);
    }

    #[test]
    fn increment_is_spent() {
        let c = Clock {
            time_ms: [10_000, 10_000],
            inc_ms: [100, 100],
            byoyomi_ms: [0, 0],
            movestogo: None,
        };
        let b = budget(&c, Side::Second, &opts());
        assert!(b.soft_ms >= 10_000 / 30);
        assert!(b.hard_ms <= 10_000 / 3 + 50);
    }
}
