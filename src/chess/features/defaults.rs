//! Hand-set tables of `kishi-chess` (the learner's start and the baseline learned files are
//! measured against), the names of the positional terms, and random parameters for tests.

use super::*;

/// Conventional piece values (pawn, knight, bishop, rook, queen), middlegame then endgame: pawns
/// gain value in the endgame, minor pieces lose a little (eval_weights/README.md).
pub const DEFAULT_MATERIAL: [[i32; 5]; 2] = [[100, 320, 330, 500, 900], [120, 300, 320, 520, 900]];

/// The default material table in weight units.
pub fn default_material() -> Vec<i32> {
    DEFAULT_MATERIAL
        .concat()
        .into_iter()
        .map(|v| v * WEIGHT_UNIT)
        .collect()
}

/// Hand-set positional weights of the embedded default (eval_weights/README.md says why), set in
/// centipawns below and returned in weight units.
pub fn default_positional() -> Vec<i32> {
    let mut t = vec![0i32; 2 * N_POS];
    for ph in 0..2 {
        let p = &mut t[ph * N_POS..(ph + 1) * N_POS];
        // Mobility: a few centipawns per safe square, centred so an average piece scores ~0.
        for m in 0..9 {
            p[P_MOB_N + m] = 4 * (m as i32 - 4);
        }
        for m in 0..14 {
            p[P_MOB_B + m] = 4 * (m as i32 - 6);
        }
        for m in 0..15 {
            p[P_MOB_R + m] = if ph == 0 { 2 } else { 4 } * (m as i32 - 7);
        }
        for m in 0..28 {
            p[P_MOB_Q + m] = if ph == 0 { 1 } else { 2 } * (m as i32 - 13);
        }
        let passed: [i32; 6] = if ph == 0 {
            [5, 10, 15, 25, 45, 70]
        } else {
            [10, 20, 35, 60, 100, 150]
        };
        p[P_PASSED..P_PASSED + 6].copy_from_slice(&passed);
        p[P_ISOLATED] = if ph == 0 { -10 } else { -15 };
        p[P_DOUBLED] = if ph == 0 { -10 } else { -20 };
        p[P_SHELTER] = if ph == 0 { 8 } else { 0 };
        let katt: [i32; 4] = if ph == 0 { [6, 6, 8, 10] } else { [1, 1, 2, 2] };
        p[P_KING_ATTACK..P_KING_ATTACK + 4].copy_from_slice(&katt);
        p[P_BISHOP_PAIR] = if ph == 0 { 30 } else { 50 };
        p[P_ROOK_OPEN] = if ph == 0 { 25 } else { 10 };
        p[P_ROOK_SEMI] = if ph == 0 { 12 } else { 5 };
        p[P_TEMPO] = if ph == 0 { 15 } else { 5 };
    }
    t.iter_mut().for_each(|v| *v *= WEIGHT_UNIT);
    t
}

/// Name of a positional term (for `weights inspect` and learner reports).
pub fn positional_name(t: usize) -> String {
    match t {
        _ if t < P_MOB_B => format!("mobility_knight_{}", t - P_MOB_N),
        _ if t < P_MOB_R => format!("mobility_bishop_{}", t - P_MOB_B),
        _ if t < P_MOB_Q => format!("mobility_rook_{}", t - P_MOB_R),
        _ if t < P_PASSED => format!("mobility_queen_{}", t - P_MOB_Q),
        _ if t < P_ISOLATED => format!("passed_rank_{}", t - P_PASSED + 2),
        P_ISOLATED => "isolated".into(),
        P_DOUBLED => "doubled".into(),
        P_SHELTER => "king_shelter".into(),
        _ if t < P_BISHOP_PAIR => {
            ["knight", "bishop", "rook", "queen"][t - P_KING_ATTACK].to_string() + "_king_attack"
        }
        P_BISHOP_PAIR => "bishop_pair".into(),
        P_ROOK_OPEN => "rook_open_file".into(),
        P_ROOK_SEMI => "rook_half_open_file".into(),
        P_TEMPO => "tempo".into(),
        _ => format!("unknown_{t}"),
    }
}

/// Random parameters (tests and benchmarks): the default material and positional weights (both
/// tables) plus
/// noise in ±8 weight units, KP uniform in ±`spread` weight units. Deterministic in `seed`.
pub fn random_params(seed: u64, spread: i32) -> Vec<i32> {
    let mut rng = crate::eval::rng::SplitMix64::new(seed);
    let mut p: Vec<i32> = default_material();
    p.iter_mut().for_each(|v| *v += rng.symmetric(8));
    for _ in 0..N_KP {
        p.push(rng.symmetric(spread));
    }
    for v in default_positional() {
        p.push(v + rng.symmetric(8));
    }
    for v in default_positional_ext() {
        p.push(v + rng.symmetric(8));
    }
    for _ in 0..2 * N_KD + 2 * N_MORE + 2 * N_MORE2 + 2 * N_SHELTER + 2 * N_KING_PAIRS {
        p.push(rng.symmetric(8));
    }
    p
}

/// Hand-set weights of the extended terms, in centipawns below and returned in weight units.
/// Magnitudes are those of classical engines' terms of the same meaning (threats, passed-pawn
/// detail, king danger), rounded and kept modest: the learner refines them.
pub fn default_positional_ext() -> Vec<i32> {
    let mut t = vec![0i32; 2 * N_EXT];
    for ph in 0..2 {
        let p = &mut t[ph * N_EXT..(ph + 1) * N_EXT];
        let mg = ph == 0;
        let pick = |a: i32, b: i32| if mg { a } else { b };
        p[E_THREAT_PAWN_MINOR] = pick(50, 40);
        p[E_THREAT_PAWN_MAJOR] = pick(70, 50);
        p[E_THREAT_MINOR_ROOK] = pick(35, 35);
        p[E_THREAT_MINOR_QUEEN] = pick(40, 40);
        p[E_THREAT_ROOK_QUEEN] = pick(40, 40);
        p[E_HANGING] = pick(30, 20);
        p[E_WEAK_PAWN] = pick(5, 15);
        p[E_KING_THREAT] = pick(10, 40);
        p[E_THREAT_PAWN_PUSH] = pick(15, 15);
        let set = |p: &mut [i32], base: usize, v: [i32; 6]| p[base..base + 6].copy_from_slice(&v);
        set(
            p,
            E_PP_BLOCKED,
            pick_arr(mg, [0, 0, -5, -10, -15, -20], [0, -5, -10, -20, -30, -40]),
        );
        set(
            p,
            E_PP_SAFE_ADVANCE,
            pick_arr(mg, [0, 2, 4, 6, 10, 15], [0, 5, 10, 15, 25, 35]),
        );
        set(
            p,
            E_PP_OWN_KING,
            pick_arr(mg, [0; 6], [0, 0, -2, -5, -8, -10]),
        );
        set(
            p,
            E_PP_THEIR_KING,
            pick_arr(mg, [0; 6], [0, 0, 4, 8, 12, 15]),
        );
        set(
            p,
            E_PP_FREE_PATH,
            pick_arr(mg, [0, 0, 2, 5, 10, 15], [0, 0, 5, 10, 20, 30]),
        );
        p[E_PP_SUPPORTED] = pick(5, 10);
        p[E_PAWN_SUPPORTED] = pick(5, 5);
        p[E_PAWN_PHALANX] = pick(5, 5);
        p[E_PAWN_BACKWARD] = pick(-8, -10);
        p[E_KNIGHT_OUTPOST] = pick(20, 10);
        p[E_BISHOP_OUTPOST] = pick(12, 5);
        p[E_MINOR_BEHIND_PAWN] = pick(8, 0);
        p[E_ROOK_SEVENTH] = pick(10, 20);
        p[E_BAD_BISHOP] = pick(-2, -4);
        set(
            p,
            E_KING_ATTACKERS_Q,
            pick_arr(mg, [0, 0, 15, 40, 80, 120], [0, 0, 2, 5, 10, 15]),
        );
        set(
            p,
            E_KING_ATTACKERS_NOQ,
            pick_arr(mg, [0, 0, 5, 12, 25, 40], [0, 0, 1, 2, 5, 8]),
        );
        p[E_SAFE_CHECK_N..E_SAFE_CHECK_N + 4].copy_from_slice(&if mg {
            [20, 12, 25, 20]
        } else {
            [3, 3, 3, 3]
        });
        p[E_KING_OPEN_FILES] = pick(-10, 0);
        p[E_PAWN_STORM] = pick(-5, 0);
    }
    t.iter_mut().for_each(|v| *v *= WEIGHT_UNIT);
    t
}

fn pick_arr(mg: bool, a: [i32; 6], b: [i32; 6]) -> [i32; 6] {
    if mg {
        a
    } else {
        b
    }
}

/// Name of an extended positional term (for `weights inspect` and learner reports).
pub fn positional_ext_name(e: usize) -> String {
    let rank = |base: usize| e - base + 2;
    match e {
        E_THREAT_PAWN_MINOR => "threat_pawn_on_minor".into(),
        E_THREAT_PAWN_MAJOR => "threat_pawn_on_major".into(),
        E_THREAT_MINOR_ROOK => "threat_minor_on_rook".into(),
        E_THREAT_MINOR_QUEEN => "threat_minor_on_queen".into(),
        E_THREAT_ROOK_QUEEN => "threat_rook_on_queen".into(),
        E_HANGING => "hanging_piece".into(),
        E_WEAK_PAWN => "undefended_pawn_attacked".into(),
        E_KING_THREAT => "threat_by_king".into(),
        E_THREAT_PAWN_PUSH => "threat_pawn_push".into(),
        _ if e < E_PP_SAFE_ADVANCE => format!("passed_blocked_rank_{}", rank(E_PP_BLOCKED)),
        _ if e < E_PP_OWN_KING => format!("passed_safe_advance_rank_{}", rank(E_PP_SAFE_ADVANCE)),
        _ if e < E_PP_THEIR_KING => {
            format!("passed_own_king_distance_rank_{}", rank(E_PP_OWN_KING))
        }
        _ if e < E_PP_FREE_PATH => {
            format!("passed_enemy_king_distance_rank_{}", rank(E_PP_THEIR_KING))
        }
        _ if e < E_PP_SUPPORTED => format!("passed_free_path_rank_{}", rank(E_PP_FREE_PATH)),
        E_PP_SUPPORTED => "passed_supported".into(),
        E_PAWN_SUPPORTED => "pawn_supported".into(),
        E_PAWN_PHALANX => "pawn_phalanx".into(),
        E_PAWN_BACKWARD => "pawn_backward".into(),
        E_KNIGHT_OUTPOST => "knight_outpost".into(),
        E_BISHOP_OUTPOST => "bishop_outpost".into(),
        E_MINOR_BEHIND_PAWN => "minor_behind_pawn".into(),
        E_ROOK_SEVENTH => "rook_on_seventh".into(),
        E_BAD_BISHOP => "bishop_own_pawns_same_colour".into(),
        _ if e < E_KING_ATTACKERS_NOQ => {
            format!("king_attackers_{}_with_queen", e - E_KING_ATTACKERS_Q)
        }
        _ if e < E_SAFE_CHECK_N => format!("king_attackers_{}_no_queen", e - E_KING_ATTACKERS_NOQ),
        _ if e < E_KING_OPEN_FILES => {
            ["knight", "bishop", "rook", "queen"][e - E_SAFE_CHECK_N].to_string() + "_safe_check"
        }
        E_KING_OPEN_FILES => "own_king_open_files".into(),
        E_PAWN_STORM => "enemy_pawn_storm".into(),
        _ => format!("unknown_{e}"),
    }
}
