//! The layout of the `kishi-chess` weight file: its tables (`TABLES`), where each table's
//! parameters start in the flat parameter vector (`OFF_*`, `TABLE_OFF`), the index of every
//! positional term within its table (`P_*`, `E_*`, `M_*`, `M2_*`, `S_*`, `KD_*`, `KA_*`), and the list of
//! counted tables (`COUNTED`) the evaluation, the feature vector and the parameter names share.
//! Kept apart from the evaluation code so that a new table is a few lines in one place.

use crate::eval::format::{Elem, TableSpec};

pub const PHASE_MAX: i32 = 24;
/// Weights per centipawn (the fixed-point resolution of every table).
pub const WEIGHT_UNIT: i32 = 32;
pub const T_MATERIAL: usize = 0;
pub const T_KP: usize = 1;
pub const T_POS: usize = 2;
pub const T_EXT: usize = 3;
pub const T_KD: usize = 4;
pub const T_MORE: usize = 5;
pub const T_MORE2: usize = 6;
pub const T_SHELTER: usize = 7;
pub const T_KING_PAIRS: usize = 8;

/// KP conditions: (own 0 | opponent 1) × 5 non-king pieces × 64 squares, seen by the king's owner.
pub const KP_COND: usize = 2 * 5 * 64;

// Positional terms (one weight each per phase).
pub const P_MOB_N: usize = 0; // mobility count 0..=8
pub const P_MOB_B: usize = 9; // 0..=13
pub const P_MOB_R: usize = 23; // 0..=14
pub const P_MOB_Q: usize = 38; // 0..=27
pub const P_PASSED: usize = 66; // relative rank 2..=7 → 6 entries
pub const P_ISOLATED: usize = 72;
pub const P_DOUBLED: usize = 73;
pub const P_SHELTER: usize = 74;
pub const P_KING_ATTACK: usize = 75; // by knight, bishop, rook, queen
pub const P_BISHOP_PAIR: usize = 79;
pub const P_ROOK_OPEN: usize = 80;
pub const P_ROOK_SEMI: usize = 81;
pub const P_TEMPO: usize = 82;
pub const N_POS: usize = 83;

// Extended positional terms (table `positional_ext`, one weight each per phase). Counted from
// the side whose terms they are: threats it makes, its passed pawns and pawn chains, its pieces'
// outposts, the danger it poses to the enemy king, its own king's open files and the enemy pawns
// storming them.
pub const E_THREAT_PAWN_MINOR: usize = 0; // enemy knights/bishops attacked by our pawns
pub const E_THREAT_PAWN_MAJOR: usize = 1; // enemy rooks/queens attacked by our pawns
pub const E_THREAT_MINOR_ROOK: usize = 2;
pub const E_THREAT_MINOR_QUEEN: usize = 3;
pub const E_THREAT_ROOK_QUEEN: usize = 4;
pub const E_HANGING: usize = 5; // enemy pieces (not pawns, not the king) attacked and undefended
pub const E_WEAK_PAWN: usize = 6; // enemy pawns attacked and undefended
pub const E_KING_THREAT: usize = 7; // undefended enemy men next to our king
pub const E_THREAT_PAWN_PUSH: usize = 8; // pieces a safe pawn push would attack
pub const E_PP_BLOCKED: usize = 9; // passed pawn's stop square occupied, by relative rank 2..=7
pub const E_PP_SAFE_ADVANCE: usize = 15; // stop square empty and not attacked, by rank
pub const E_PP_OWN_KING: usize = 21; // own king's distance to the stop square, by rank
pub const E_PP_THEIR_KING: usize = 27; // enemy king's distance to the stop square, by rank
pub const E_PP_FREE_PATH: usize = 33; // path to promotion empty and unattacked, by rank
pub const E_PP_SUPPORTED: usize = 39; // passed pawn defended by a pawn
pub const E_PAWN_SUPPORTED: usize = 40; // pawn defended by a pawn
pub const E_PAWN_PHALANX: usize = 41; // pawn with a pawn beside it
pub const E_PAWN_BACKWARD: usize = 42;
pub const E_KNIGHT_OUTPOST: usize = 43; // ranks 4-6, pawn-defended, no enemy pawn can chase it
pub const E_BISHOP_OUTPOST: usize = 44;
pub const E_MINOR_BEHIND_PAWN: usize = 45;
pub const E_ROOK_SEVENTH: usize = 46;
pub const E_BAD_BISHOP: usize = 47; // own pawns on the bishop's square colour, per bishop
pub const E_KING_ATTACKERS_Q: usize = 48; // one-hot: pieces attacking the enemy king zone 0..=5
pub const E_KING_ATTACKERS_NOQ: usize = 54; // the same without a queen
pub const E_SAFE_CHECK_N: usize = 60; // safe checking squares by piece type (N, B, R, Q)
pub const E_KING_OPEN_FILES: usize = 64; // own king's file and neighbours without an own pawn
pub const E_PAWN_STORM: usize = 65; // enemy pawns within 3 ranks ahead of own king's files
pub const N_EXT: usize = 66;
pub const E_SAFE_CHECK_B: usize = E_SAFE_CHECK_N + 1;
pub const E_SAFE_CHECK_R: usize = E_SAFE_CHECK_N + 2;
pub const E_SAFE_CHECK_Q: usize = E_SAFE_CHECK_N + 3;

// King danger (table `king_danger`, one weight each per phase): a hand-shaped danger index `d`
// of the attacks on the enemy king (`terms::king_danger`), counted as `d² / 16384` and `d / 64`,
// so that a learned weight prices its square (the way classical engines score king danger)
// and its linear part; counted from the attacking side.
// Terms of table `positional_more` (`terms::more_counts`), one weight each per phase.
pub const M_SPACE: usize = 0;
pub const M_SPACE_WEIGHTED: usize = 1; // space × (own men − 1)² / 16
pub const M_THREAT_MINOR_MINOR: usize = 2;
pub const M_THREAT_MINOR_PAWN: usize = 3; // pawns no pawn defends
pub const M_THREAT_ROOK_MINOR: usize = 4;
pub const M_THREAT_ROOK_PAWN: usize = 5;
pub const M_RESTRICTED: usize = 6; // squares the enemy attacks, we contest, not strongly held
pub const M_TRAPPED_ROOK: usize = 7; // 1, 2 without castling rights
pub const M_KING_PROTECTOR_N: usize = 8; // Σ knight–own-king distance
pub const M_KING_PROTECTOR_B: usize = 9;
pub const M_LONG_DIAGONAL: usize = 10; // bishops seeing two centre squares through pieces
pub const M_BISHOP_XRAY_PAWNS: usize = 11;
pub const M_ROOK_QUEEN_FILE: usize = 12;
pub const M_FLANK_ATTACKS: usize = 13; // enemy king flank squares we attack
pub const M_FLANK_DOUBLE: usize = 14; // ... twice
pub const M_PAWNLESS_FLANK: usize = 15; // no pawn on the own king's flank
pub const N_MORE: usize = 16;

// Terms of table `positional_more2` (`terms::more2_counts`), one weight each per phase.
pub const M2_CONNECTED: usize = 0; // connected pawns by relative rank 2..=7 → 6 entries
pub const M2_WEAK_UNOPPOSED: usize = 6;
pub const M2_KING_PAWN_DISTANCE: usize = 7; // own king to its nearest pawn
pub const M2_PINNED_PIECE: usize = 8; // own pieces pinned to the own king
pub const M2_PINNED_PAWN: usize = 9;
pub const M2_WEAK_QUEEN: usize = 10; // an enemy rook/bishop hits our queen through one man
pub const M2_KNIGHT_ON_QUEEN: usize = 11; // safe squares our knights reach that hit their queen
pub const M2_SLIDER_ON_QUEEN: usize = 12;
pub const M2_PASSED_FILE: usize = 13; // Σ passed pawns' distance from the nearer edge
pub const M2_REACHABLE_OUTPOST: usize = 14; // knights a move from an outpost
pub const M2_QUEEN_INFILTRATION: usize = 15;
pub const M2_OWN_ROOK_BEHIND_PASSER: usize = 16;
pub const M2_ENEMY_ROOK_BEHIND_PASSER: usize = 17;
pub const N_MORE2: usize = 18;

// Terms of table `king_shelter` (`shelter.rs`), one weight each per phase, counted for the own
// king: for the three files around it, by the file's distance from the edge (0..=3) and the
// relative rank of the own (enemy) pawn nearest the own back rank (0 = none).
pub const S_SHELTER: usize = 0; // [edge distance][own pawn's rank] → 4 × 7
pub const S_STORM: usize = 28; // [edge distance][enemy pawn's rank] → 4 × 7
pub const S_BLOCKED_STORM: usize = 56; // [enemy pawn's rank], blocked by the own pawn → 7
pub const N_SHELTER: usize = 63;

// Terms of table `king_attack_pairs` (`kingpairs.rs`), one weight each per phase, counted from
// the attacking side when at least one of its pieces attacks the enemy king zone: every product
// x_i · x_j (i ≤ j) of the attack's components below, so that the learner sets a whole
// quadratic form where `king_danger` squares one hand-weighted sum of them.
pub const KA_KNIGHTS: usize = 0; // knights attacking the zone
pub const KA_BISHOPS: usize = 1;
pub const KA_ROOKS: usize = 2;
pub const KA_QUEENS: usize = 3;
pub const KA_ZONE_ATTACKS: usize = 4; // attacks on zone squares, counted per piece (capped)
pub const KA_WEAK: usize = 5; // zone squares attacked, defended by the king or queen only
pub const KA_SAFE_CHECK_N: usize = 6; // safe checking squares by piece type (each capped at 2)
pub const KA_SAFE_CHECK_B: usize = 7;
pub const KA_SAFE_CHECK_R: usize = 8;
pub const KA_SAFE_CHECK_Q: usize = 9;
pub const KA_UNSAFE_CHECKS: usize = 10; // checking squares the king's side defends (capped)
pub const KA_QUEEN: usize = 11; // the attacking side has a queen (0 or 1)
pub const KA_COMPONENTS: usize = 12;
/// The index of the product of components `i ≤ j` within the table.
pub const fn ka_pair(i: usize, j: usize) -> usize {
    i * KA_COMPONENTS - i * (i + 1) / 2 + j
}
pub const N_KING_PAIRS: usize = KA_COMPONENTS * (KA_COMPONENTS + 1) / 2;

pub const KD_QUADRATIC: usize = 0;
pub const KD_LINEAR: usize = 1;
pub const N_KD: usize = 2;
pub const KD_QUADRATIC_DIV: i32 = 16384;
pub const KD_LINEAR_DIV: i32 = 64;
/// The index's cap (counts stay far inside i32 in the learner's features).
pub const KD_MAX: i32 = 6000;

pub(super) static TABLES: [TableSpec; 9] = [
    TableSpec {
        name: "material",
        elem: Elem::I32,
        dims: &[2, 5],
        required: true,
    },
    TableSpec {
        name: "kp",
        elem: Elem::I16,
        dims: &[2, 64, KP_COND as u32],
        required: false,
    },
    TableSpec {
        name: "positional",
        elem: Elem::I32,
        dims: &[2, N_POS as u32],
        required: false,
    },
    TableSpec {
        name: "positional_ext",
        elem: Elem::I32,
        dims: &[2, N_EXT as u32],
        required: false,
    },
    TableSpec {
        name: "king_danger",
        elem: Elem::I32,
        dims: &[2, N_KD as u32],
        required: false,
    },
    TableSpec {
        name: "positional_more",
        elem: Elem::I32,
        dims: &[2, N_MORE as u32],
        required: false,
    },
    TableSpec {
        name: "positional_more2",
        elem: Elem::I32,
        dims: &[2, N_MORE2 as u32],
        required: false,
    },
    TableSpec {
        name: "king_shelter",
        elem: Elem::I32,
        dims: &[2, N_SHELTER as u32],
        required: false,
    },
    TableSpec {
        name: "king_attack_pairs",
        elem: Elem::I32,
        dims: &[2, N_KING_PAIRS as u32],
        required: false,
    },
];

pub const OFF_KP: usize = 10;
pub const N_KP: usize = 2 * 64 * KP_COND;
pub const OFF_POS: usize = OFF_KP + N_KP;
pub const OFF_EXT: usize = OFF_POS + 2 * N_POS;
pub const OFF_KD: usize = OFF_EXT + 2 * N_EXT;
pub const OFF_MORE: usize = OFF_KD + 2 * N_KD;
pub const OFF_MORE2: usize = OFF_MORE + 2 * N_MORE;
pub const OFF_SHELTER: usize = OFF_MORE2 + 2 * N_MORE2;
pub const OFF_KING_PAIRS: usize = OFF_SHELTER + 2 * N_SHELTER;
pub const N_PARAMS: usize = OFF_KING_PAIRS + 2 * N_KING_PAIRS;

/// Where each table's parameters start, in `TABLES`' order, and where the last one ends.
pub(super) const TABLE_OFF: [usize; 10] = [
    0,
    OFF_KP,
    OFF_POS,
    OFF_EXT,
    OFF_KD,
    OFF_MORE,
    OFF_MORE2,
    OFF_SHELTER,
    OFF_KING_PAIRS,
    N_PARAMS,
];

/// The tables of counted terms, in the order of `terms::counts`' indices: (table, terms per
/// phase). One list serves the evaluation, the feature vector and the parameter names, so a new
/// table is one line here (the `if t < …` cascades it replaces grew with every table).
pub(super) const COUNTED: [(usize, usize); 7] = [
    (T_POS, N_POS),
    (T_EXT, N_EXT),
    (T_KD, N_KD),
    (T_MORE, N_MORE),
    (T_MORE2, N_MORE2),
    (T_SHELTER, N_SHELTER),
    (T_KING_PAIRS, N_KING_PAIRS),
];

const fn count_bases() -> [usize; COUNTED.len() + 1] {
    let mut b = [0; COUNTED.len() + 1];
    let mut i = 0;
    while i < COUNTED.len() {
        b[i + 1] = b[i] + COUNTED[i].1;
        i += 1;
    }
    b
}

/// Where each counted table's terms start among `terms::counts`' indices (and their total).
pub(in crate::chess) const COUNT_BASE: [usize; COUNTED.len() + 1] = count_bases();
/// The number of counted terms of one side.
pub const N_COUNTED: usize = COUNT_BASE[COUNTED.len()];

/// The counted table (index into `COUNTED`) of `terms::counts`' index `t`, and `t` within it.
/// `t` is a constant at nearly every call after inlining, so this folds away in the evaluation.
#[inline(always)]
pub(super) fn counted_slot(t: usize) -> (usize, usize) {
    // From the last table down: the last table's indices (`king_attack_pairs`) are the ones not
    // known at compile time, so they are found with one comparison.
    let mut j = COUNTED.len() - 1;
    while j > 0 && t < COUNT_BASE[j] {
        j -= 1;
    }
    (j, t - COUNT_BASE[j])
}
