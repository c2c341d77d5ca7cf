//! The search's tunable margins and limits, one table per game (`Game::SEARCH_PARAMS`): name,
//! default, range and SPSA step of each. The search reads the defaults as constants; in a build
//! with the `tune` cargo feature the protocols also declare them as spin options, so a tuner
//! (shogiarena's SPSA) can set them through `setoption`.
//!
//! The table is here, under the rules interface, because the game supplies the values (its score
//! scale decides the margins), while `search` reads them by the indices below. Both games have
//! the same values today, the ones the search had built in.

/// One tunable integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tunable {
    /// The option name in a `tune` build.
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's perturbation size.
    pub step: i32,
}

/// A game's table, indexed by the constants below.
pub type SearchParamTable = [Tunable; COUNT];

/// Reverse futility pruning: at most this depth…
pub const RFP_DEPTH: usize = 0;
/// …when eval − margin·depth + improving·bonus ≥ beta.
pub const RFP_MARGIN: usize = 1;
pub const RFP_IMPROVING: usize = 2;
/// Null move: from this depth on…
pub const NMP_DEPTH: usize = 3;
/// …reduced by base + depth/div + min((eval − beta)/eval_div, eval_max).
pub const NMP_BASE: usize = 4;
pub const NMP_DEPTH_DIV: usize = 5;
pub const NMP_EVAL_DIV: usize = 6;
pub const NMP_EVAL_MAX: usize = 7;
/// Late move pruning of quiet moves: up to this depth, after base + depth²/(2 − improving) moves.
pub const LMP_DEPTH: usize = 8;
pub const LMP_BASE: usize = 9;
/// Futility pruning of quiet moves: up to this depth, when eval + base + margin·depth ≤ alpha.
pub const FUTILITY_DEPTH: usize = 10;
pub const FUTILITY_BASE: usize = 11;
pub const FUTILITY_MARGIN: usize = 12;
/// SEE pruning of losing captures: up to this depth, when SEE < −margin·depth.
pub const SEE_DEPTH: usize = 13;
pub const SEE_MARGIN: usize = 14;
/// Late move reductions from this depth on.
pub const LMR_DEPTH: usize = 15;
/// Aspiration windows from this iteration on, with this first half-width.
pub const ASPIRATION_DEPTH: usize = 16;
pub const ASPIRATION_DELTA: usize = 17;
/// Number of tunables.
pub const COUNT: usize = 18;

/// The option names in index order (every game's table must list them in this order).
pub const NAMES: [&str; COUNT] = [
    "RfpDepth",
    "RfpMargin",
    "RfpImproving",
    "NmpDepth",
    "NmpBase",
    "NmpDepthDiv",
    "NmpEvalDiv",
    "NmpEvalMax",
    "LmpDepth",
    "LmpBase",
    "FutilityDepth",
    "FutilityBase",
    "FutilityMargin",
    "SeeDepth",
    "SeeMargin",
    "LmrDepth",
    "AspirationDepth",
    "AspirationDelta",
];

const fn t(index: usize, default: i32, min: i32, max: i32, step: i32) -> Tunable {
    Tunable {
        name: NAMES[index],
        default,
        min,
        max,
        step,
    }
}

/// The values the search was written with (used by both games today): a game whose score scale
/// differs would scale the margins.
pub const STANDARD: SearchParamTable = [
    t(RFP_DEPTH, 7, 1, 15, 1),
    t(RFP_MARGIN, 90, 10, 400, 10),
    t(RFP_IMPROVING, 40, 0, 200, 10),
    t(NMP_DEPTH, 3, 1, 8, 1),
    t(NMP_BASE, 3, 1, 6, 1),
    t(NMP_DEPTH_DIV, 4, 1, 8, 1),
    t(NMP_EVAL_DIV, 200, 50, 800, 25),
    t(NMP_EVAL_MAX, 3, 0, 6, 1),
    t(LMP_DEPTH, 6, 1, 12, 1),
    t(LMP_BASE, 3, 0, 12, 1),
    t(FUTILITY_DEPTH, 6, 1, 12, 1),
    t(FUTILITY_BASE, 120, 0, 400, 10),
    t(FUTILITY_MARGIN, 90, 10, 400, 10),
    t(SEE_DEPTH, 6, 1, 12, 1),
    t(SEE_MARGIN, 100, 0, 400, 10),
    t(LMR_DEPTH, 3, 1, 8, 1),
    t(ASPIRATION_DEPTH, 5, 1, 12, 1),
    t(ASPIRATION_DELTA, 25, 5, 200, 5),
];

/// Whether a table is well-formed: the names in index order, each default inside its range and
/// every step positive.
pub fn check(table: &SearchParamTable) -> Result<(), String> {
    for (i, p) in table.iter().enumerate() {
        if p.name != NAMES[i] {
            return Err(format!(
                "entry {i} is '{}', expected '{}'",
                p.name, NAMES[i]
            ));
        }
        if !(p.min <= p.default && p.default <= p.max) || p.step <= 0 {
            return Err(format!("'{}': bad range or step {p:?}", p.name));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_table_is_well_formed_and_holds_the_old_margins() {
        check(&STANDARD).expect("well-formed");
        // The constants the search had built in before the table (bench node counts depend on them).
        let d = |i: usize| STANDARD[i].default;
        assert_eq!((d(RFP_DEPTH), d(RFP_MARGIN), d(RFP_IMPROVING)), (7, 90, 40));
        assert_eq!(
            (
                d(NMP_DEPTH),
                d(NMP_BASE),
                d(NMP_DEPTH_DIV),
                d(NMP_EVAL_DIV),
                d(NMP_EVAL_MAX)
            ),
            (3, 3, 4, 200, 3)
        );
        assert_eq!((d(LMP_DEPTH), d(LMP_BASE)), (6, 3));
        assert_eq!(
            (d(FUTILITY_DEPTH), d(FUTILITY_BASE), d(FUTILITY_MARGIN)),
            (6, 120, 90)
        );
        assert_eq!((d(SEE_DEPTH), d(SEE_MARGIN), d(LMR_DEPTH)), (6, 100, 3));
        assert_eq!((d(ASPIRATION_DEPTH), d(ASPIRATION_DELTA)), (5, 25));
        let mut bad = STANDARD;
        bad[3].name = "RfpDepth";
        assert!(check(&bad).is_err());
        let mut bad = STANDARD;
        bad[0].default = 99;
        assert!(check(&bad).is_err());
    }
}
