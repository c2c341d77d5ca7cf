//! Search scores: centipawn-like `i32` values from the side to move, with mate scores that carry the
//! distance to mate in plies.

/// Largest search depth / ply the engine reaches (also bounds mate distances).
pub const MAX_PLY: usize = 128;
/// Score of a mate at the root (mate in 0 plies).
pub const MATE: i32 = 32_000;
/// Any score at or beyond this magnitude is a mate score.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any score: the initial alpha-beta window.
pub const INFINITE: i32 = 32_001;
pub const DRAW: i32 = 0;

/// Score of the side to move being mated `ply` plies from the root.
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Score of the side to move mating in `ply` plies from the root.
pub fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

pub fn is_mate_score(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Protocol form of a score: `cp N` or `mate N` (N in moves for UCI; plies for USI, signed).
pub fn score_text(score: i32, mate_in_plies: bool) -> String {
    if is_mate_score(score) {
        let plies = MATE - score.abs();
        let n = if mate_in_plies {
            plies
        } else {
            (plies + 1) / 2
        };
        let n = if score > 0 { n } else { -n };
        // USI writes "mate -0" poorly in some GUIs; a mated-now score is "mate -0" in plies, use -1.
        let n = if n == 0 && score < 0 { -1 } else { n };
        format!("mate {n}")
    } else {
        format!("cp {score}")
    }
}

/// Converts a score relative to the root into one relative to the node at `ply` (for the TT).
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Inverse of `score_to_tt`.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_text_counts_moves_for_uci_and_plies_for_usi() {
        assert_eq!(score_text(mate_in(1), false), "mate 1");
        assert_eq!(score_text(mate_in(3), false), "mate 2");
        assert_eq!(score_text(mate_in(3), true), "mate 3");
        assert_eq!(score_text(mated_in(2), false), "mate -1");
        assert_eq!(score_text(35, false), "cp 35");
    }

    #[test]
    fn tt_conversion_round_trips() {
        for s in [mate_in(5), mated_in(7), 123, -40] {
            assert_eq!(score_from_tt(score_to_tt(s, 9), 9), s);
        }
    }
}
